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
    /// `openSession`: edits an earlier session of this project made and did not save
    /// (its server stopped, or it was closed), and what this open did with them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unsaved_edits: Option<UnsavedEdits>,
    /// `refreshSession`: the unsaved edits replayed on the project as it is now, and
    /// those dropped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refreshed: Option<Refreshed>,
    /// `validateSession`: where the next page of findings starts (pass it as
    /// `page.cursor`); upstream's report has no field for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// `getCapabilities`: this server's session limits, which upstream's capabilities
    /// have no field for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_limits: Option<ServerLimits>,
    /// Decisions the backend took for the caller (an outline answered in pages). The
    /// host moves them into the envelope's `meta.warnings`; they are never shown here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warnings: Option<Vec<crate::envelope::Warning>>,
}

/// How many sessions a server holds and how long an idle one lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ServerLimits {
    /// Sessions open at once (`--max-sessions`).
    pub max_sessions: u32,
    /// An idle session closes after this long (`--idle-timeout`); 0 means never.
    pub idle_session_timeout_ms: u64,
}

/// What a refresh did with the session's unsaved edits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Refreshed {
    /// Edits replayed on the project as it is now.
    pub replayed: u32,
    /// Edits the project as it is now refused, dropped as `dropRefused` asked.
    pub dropped: Vec<RefusedEdit>,
    /// Project files that changed on disk since the session read or saved them (at most
    /// 20; `moreChangedOnDisk` counts the rest).
    pub changed_on_disk: Vec<String>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub more_changed_on_disk: u32,
}

/// Unsaved edits an earlier session left in the project's journal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UnsavedEdits {
    pub status: UnsavedEditsStatus,
    /// Edits in the journal (applied batches, undos and redos).
    pub edits: u32,
    /// The revision the disk held when they were made (the last save's).
    pub from_revision: u64,
    /// The revision they reached.
    pub to_revision: u64,
    /// When the last was made (RFC 3339, UTC).
    pub last_edit_at: String,
    /// Project files that changed on disk since (at most 20; `moreChangedOnDisk` counts
    /// the rest): recovery replays the edits on the project as it is now.
    pub changed_on_disk: Vec<String>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub more_changed_on_disk: u32,
    /// `recovered`: how many edits were replayed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recovered: Option<u32>,
    /// `recovered`: the first edit the project as it is now refused; it and the edits
    /// after it were not replayed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<RefusedEdit>,
}

/// What became of an earlier session's unsaved edits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum UnsavedEditsStatus {
    /// Kept as they are: open again with `unsavedEdits` `recover` or `discard` (close
    /// this session first). This session does not journal its own edits meanwhile.
    Pending,
    /// Replayed into this session, which now holds them unsaved.
    Recovered,
    /// Removed for good.
    Discarded,
}

/// What an edit was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum EditKind {
    /// A batch applied.
    Apply,
    Undo,
    Redo,
}

/// An edit recovery could not replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RefusedEdit {
    /// The revision it was made at.
    pub revision: u64,
    pub action: EditKind,
    /// The operation at fault, for an apply refused by the project's rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub op_index: Option<u32>,
    /// The error code and message the backend gave.
    pub code: String,
    pub message: String,
}

fn is_zero(value: &u32) -> bool {
    *value == 0
}

impl Additions {
    pub fn is_empty(&self) -> bool {
        self == &Additions::default()
    }
}
