//! `exportStrings` (ofgui addition): a project's translatable strings, as the FairyGUI
//! editor exports them for `UIPackage.SetStringsSource`.

use serde::{Deserialize, Serialize};

/// `exportStrings` input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExportStringsInput {
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub session_id: String,
    /// Most entries in this answer (default 200).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 5000)))]
    pub limit: Option<u32>,
    /// `nextCursor` of the answer before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(max = 32)))]
    pub cursor: Option<String>,
    /// Also answer with the whole strings file (`document`), as the editor writes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whole_file: Option<bool>,
}

/// `exportStrings` output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StringsExport {
    pub session_id: String,
    pub revision: u64,
    /// Entries in the whole export.
    pub count: u32,
    /// This page, in the file's order.
    pub entries: Vec<StringEntry>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// The strings XML (`wholeFile`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document: Option<String>,
    /// Components whose XML could not be read, which the export leaves out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<String>,
}

/// One translatable text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StringEntry {
    /// The runtime's key: package id, component id, `-`, node id and a suffix.
    pub key: String,
    pub package: String,
    pub component: String,
    /// The node's name (the file's `mz`).
    pub node_name: String,
    pub text: String,
}
