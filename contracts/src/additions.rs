//! What ofgui tells beyond upstream's contract, kept out of the envelope.
//!
//! Clients written for upstream validate `structuredContent.backendResult` against
//! upstream's output schemas, which forbid unknown keys. So the envelope's `data` keeps
//! upstream's shape exactly, and what we add travels beside it: in the tool result's
//! `_meta` under [`ADDITIONS_META_KEY`] and, for models that read only text, as a second
//! text block. The command line shows them with the result they belong to.

use serde::{Deserialize, Serialize};

use crate::api::{DiskChanges, GeneratedValues};

/// The tool result `_meta` key that holds a result's [`Additions`].
pub const ADDITIONS_META_KEY: &str = "ofgui/additions";

/// ofgui's additions to one result; only the fields that apply to its method are present.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Additions {
    /// `preflightTransaction` and `applyTransaction`: what the server filled in for
    /// fields the operations left out (ids it generated, names, paths, dimensions); the
    /// apply at the same revision chooses what its preflight showed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated: Option<Vec<GeneratedValues>>,
    /// `getProjectOutline`: the project type as the `.fairy` file writes it (the
    /// outline's `projectType` is -1 for an engine upstream does not number).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_type_name: Option<String>,
    /// `saveSession` and `materializeSession`: what the write changed on disk.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saved: Option<DiskChanges>,
}

impl Additions {
    pub fn is_empty(&self) -> bool {
        self == &Additions::default()
    }
}
