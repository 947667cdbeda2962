//! `publishProject` (an ofgui addition): what to publish and what was written.

use serde::{Deserialize, Serialize};

/// `publishProject` input (ofgui addition): what the FairyGUI editor would publish for
/// the game, from the session's model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PublishProjectInput {
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub session_id: String,
    /// When given it must be the current revision (`stale_read`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_revision: Option<u64>,
    /// Package names or ids to publish; every package by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 1000)))]
    pub packages: Option<Vec<String>>,
    /// Where to write: absolute or relative to the project; inside the allowed roots, not
    /// a symlink, outside the project's `assets` and `settings` (created if missing). By
    /// default `settings/Publish.json` `path` (for a merged `branch`, its folder in
    /// `branchPath`, else in `path`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 4096)))]
    pub output_dir: Option<String>,
    /// Where binding code goes, for packages whose settings ask for it (`genCode`), a
    /// folder per package; rules as `outputDir`. By default the package's `codePath`,
    /// else `settings/Publish.json` `codeGeneration.codePath`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 4096)))]
    pub code_dir: Option<String>,
    /// List the files, their sizes and the warnings without writing anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
    /// A branch to merge into the main packages (its resources replace the ones they are
    /// variants of), written beside the main output unless `outputDir` says where.
    /// Without it packages carry every branch (main resources only when
    /// `settings/Publish.json` `branchProcessing` is 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub branch: Option<String>,
    /// Publish even though some source files cannot be read (missing, a Git LFS pointer,
    /// undecodable), as the editor does: they are left out and listed in `leftOut`.
    /// Without it they refuse the publish (`publish_refused`) and nothing is written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_missing: Option<bool>,
    /// `false` writes no binding code, even for packages whose settings ask for it
    /// (`genCode`): the game files only. By default code is generated as the settings say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generate_code: Option<bool>,
}

/// A resource a publish left out because its source file could not be read (only with
/// `allowMissing`; the game will miss it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PublishLeftOutInfo {
    pub package_name: String,
    /// `missing_source` (no file) or `corrupt_source` (a Git LFS pointer, or a picture
    /// that does not decode).
    pub code: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_id: Option<String>,
    /// What is missing, why, and what to do (`git lfs pull`, restore the file).
    pub message: String,
}

/// One file publishing produced (or, in a dry run, would produce).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PublishedFileInfo {
    /// The file's name in the output directory (for code, its path in the code directory).
    pub name: String,
    pub bytes: u64,
}

/// Something about the output worth knowing that does not make it wrong.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PublishWarningInfo {
    pub code: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_id: Option<String>,
    pub message: String,
}

/// One package's output.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PublishedPackageInfo {
    pub package_id: String,
    pub package_name: String,
    pub files: Vec<PublishedFileInfo>,
    pub warnings: Vec<PublishWarningInfo>,
}

/// What the output directory's files became (absent in a dry run).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PublishWrites {
    /// Files written, new or changed.
    pub written: Vec<String>,
    /// Files that already held exactly these bytes.
    pub unchanged: Vec<String>,
    /// Files an earlier publish of these packages wrote (listed in the directory's
    /// `.ofgui-publish.json`, `.ofgui-code.json` for code) that this output no longer has,
    /// an atlas page fewer: removed while they hold what was written. Nothing else in the
    /// directory is ever removed.
    pub removed: Vec<String>,
    /// Files of an earlier publish that was interrupted, finished or undone first.
    pub recovered: Vec<String>,
}

/// `publishProject` output.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PublishProjectData {
    pub session_id: String,
    /// The revision published: the session's model, unsaved edits included.
    pub revision: u64,
    /// Whether the published model has edits not yet saved to the project's files.
    pub unsaved_edits: bool,
    pub dry_run: bool,
    /// The output directory as the caller or the project's settings named it.
    pub output_dir: String,
    pub packages: Vec<PublishedPackageInfo>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub writes: Option<PublishWrites>,
    /// Binding code, one entry per code directory; absent when no published package
    /// asks for code. Warnings about it are in its package's `warnings`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub code: Vec<PublishedCodeInfo>,
    /// What `allowMissing` let this publish leave out: the output is incomplete (the
    /// command line exits 3). Absent when nothing was left out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<PublishLeftOutInfo>,
}

/// The binding code written into one code directory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PublishedCodeInfo {
    /// The code directory as the caller or the project's settings named it.
    pub code_dir: String,
    /// Files relative to it, `<PackageFolder>/<Class>.cs` (or `.ts`).
    pub files: Vec<PublishedFileInfo>,
    /// What the directory's files became (absent in a dry run): files the generator
    /// wrote before and the new code lacks are removed; nothing else is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub writes: Option<PublishWrites>,
}
