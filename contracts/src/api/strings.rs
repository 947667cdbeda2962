//! `exportStrings` and `sweepStrings` (ofgui additions): a project's translatable strings,
//! as the FairyGUI editor exports them for `UIPackage.SetStringsSource`, and the texts a
//! translation no longer fits.

use serde::{Deserialize, Serialize};

use crate::selectors::ComponentSelector;

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

/// `checkStrings` and `sweepStrings` input: a translation and a page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TranslationInput {
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub session_id: String,
    /// The translation's text (strings XML or CSV).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strings: Option<String>,
    /// Or its file (`.xml`, `.csv`, `.xlsx`) inside the allowed roots.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strings_file: Option<String>,
    /// Most findings in this answer (check: 200 by default), or troubles after which it
    /// ends at a component's end (sweep: 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 5000)))]
    pub limit: Option<u32>,
    /// `nextCursor` of the answer before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(max = 32)))]
    pub cursor: Option<String>,
}

/// `sweepStrings` output: every component drawn in its own language and in the
/// translation's, and the texts the translation no longer fits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StringsSweep {
    pub session_id: String,
    pub revision: u64,
    /// Components in the project, and how many this answer swept.
    pub components: u32,
    pub swept: u32,
    /// The components with troubles, in the export's order.
    pub findings: Vec<SweepComponent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// One component's troubles; render it with `strings` and `compareStrings` to see them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SweepComponent {
    pub package: String,
    pub component: String,
    pub selector: ComponentSelector,
    pub troubles: Vec<TextTrouble>,
}

/// A text the translation no longer fits, where the source text did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TextTrouble {
    /// Node ids from the component down to the text, joined by `/`.
    pub node_path: String,
    pub kind: TroubleKind,
    /// What the translation shows, and what the source showed.
    pub text: String,
    pub source: String,
    pub message: String,
    /// The text's box in the component: x, y, width, height.
    pub bounds: [f64; 4],
    /// The controller page that shows it, when the start pages do not (render it with
    /// that page in `controllerPages`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<super::RenderedPage>,
}

/// How a text no longer fits: `overflow` (wider than its box), `clipped` (characters cut
/// off at its edge or by an ellipsis), `hiddenLines` (lines below its box cut off),
/// `shrunk` (a shrinking text below a readable size), `missingGlyphs` (characters its
/// font cannot draw), `overlap` (grown into another text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum TroubleKind {
    Overflow,
    Clipped,
    HiddenLines,
    Shrunk,
    MissingGlyphs,
    Overlap,
}

/// `checkStrings` output: a translation held against the project's strings now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StringsCheck {
    pub session_id: String,
    pub revision: u64,
    /// Rows in the file, and the project's texts it was held against.
    pub rows: u32,
    pub checked: u32,
    /// Findings in all.
    pub count: u32,
    /// This page: in the project's order, then the file's keys the project lacks.
    pub findings: Vec<StringsFinding>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// One thing `strings check` found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StringsFinding {
    pub key: String,
    pub kind: StringsFindingKind,
    /// What is wrong and what to do, in plain words.
    pub message: String,
}

/// What kind of trouble a translation row has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum StringsFindingKind {
    /// The project has the text; the file lacks its key.
    Missing,
    /// The file has the key with no translation.
    Untranslated,
    /// The file has a key the project no longer has.
    Orphaned,
    /// The row's source differs from the project's text now.
    SourceChanged,
    /// Markup or placeholders differ from the source.
    Markup,
    /// The file gives the key more than once.
    Duplicate,
    /// The translation holds characters no font of the project or the server has.
    MissingGlyphs,
}
