//! `undo`, `redo` and `history` (ofgui additions): steps through a session's edits.

use serde::{Deserialize, Serialize};

use serde_json::Value;

use super::{Change, EntityImpact, SessionState, TransactionPreview};

/// `undo` and `redo` input: one step back (or forward again) in the session's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HistoryStepInput {
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub session_id: String,
    /// The session's current revision; anything else fails with `stale_write`.
    pub expected_revision: u64,
    /// Only say what the step would change (a `TransactionPreview`, as
    /// preflightTransaction gives for a batch); the session does not change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview: Option<bool>,
}

/// `undo` and `redo` output: the session's state after the step (without capabilities,
/// which no step changes), or with `preview` what the step would change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum HistoryStepData {
    Stepped(SessionState),
    Preview(TransactionPreview),
}

/// `getHistory` input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HistoryInput {
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub session_id: String,
    /// Most entries, newest first (default 50).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 1000)))]
    pub limit: Option<u32>,
}

/// Which two states of the session a render's `previewHistory` draws side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum HistoryPreview {
    // Now, and as the next undo (redo) would leave it.
    Undo,
    Redo,
    // As the disk holds it (read or last saved), and now: every unsaved edit together.
    Unsaved,
}

/// What made a revision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum HistoryAction {
    Apply,
    Undo,
    Redo,
}

/// `getHistory` output: the revisions this session made, newest first, and how far it can
/// step back and forward.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SessionHistory {
    pub session_id: String,
    pub revision: u64,
    pub last_saved_revision: u64,
    /// Whether the model differs from what the last save wrote (or what was read).
    pub dirty: bool,
    /// How many batches `undo` can take back, one per call.
    pub undo_count: u32,
    /// How many undone batches `redo` can apply again; a new batch drops them.
    pub redo_count: u32,
    /// The batch the next `undo` takes back: the revision its apply made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_undo: Option<u64>,
    /// The batch the next `redo` applies again: the revision its apply made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_redo: Option<u64>,
    /// Newest first, at most `limit`.
    pub entries: Vec<HistoryEntry>,
    /// Older entries exist beyond `limit`, or beyond what the session keeps.
    pub truncated: bool,
}

/// One revision of the session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HistoryEntry {
    /// The revision this entry made.
    pub revision: u64,
    pub action: HistoryAction,
    /// The batch concerned: the revision its apply made (for an apply, `revision`).
    pub batch_revision: u64,
    /// The batch's operation kinds, in order.
    pub operation_kinds: Vec<String>,
    /// What the step changed (at most 20 entities; `moreChanges` counts the rest).
    pub changes: Vec<EntityImpact>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub more_changes: u32,
    /// When this backend made the revision (RFC 3339, UTC); a batch recovered or replayed
    /// after a failure carries the time it was replayed.
    pub at: String,
    /// The batch's operations as they were sent (`review` only, while the batch's step
    /// is kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operations: Option<Vec<Value>>,
}

fn is_zero(value: &u32) -> bool {
    *value == 0
}

/// `refreshSession` input (ofgui addition): read the project again and replay the
/// session's unsaved edits on top of what is on disk now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RefreshSessionInput {
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub session_id: String,
    /// The session's current revision; anything else fails with `stale_write`.
    pub expected_revision: u64,
    /// Drop the edits the project as it is now refuses (each is reported) instead of
    /// refusing the refresh.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drop_refused: Option<bool>,
}

/// `review` input (ofgui addition).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReviewInput {
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub session_id: String,
    /// Most history entries, newest first (default 50).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 1000)))]
    pub limit: Option<u32>,
}

/// `review` output: what a person approving the session's edits looks at.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SessionReview {
    /// As getHistory answers, with each kept batch's operations.
    pub history: SessionHistory,
    /// What a save would write now, when the session has unsaved edits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save: Option<SavePreview>,
    /// What the unsaved edits changed in validation: findings the saved project does not
    /// have, and findings it has that the edits resolved (by code and entity).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validation: Option<ValidationChange>,
    /// The names of what the listed operations name by id, for words a person reads:
    /// keys `packageId`, `packageId/resourceId` and `packageId/componentId/nodeId`.
    pub names: std::collections::BTreeMap<String, String>,
    /// The project file each of those resources is read from, by `packageId/resourceId`.
    pub files: std::collections::BTreeMap<String, String>,
}

/// Validation findings the unsaved edits added and resolved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ValidationChange {
    pub added: Vec<crate::diagnostics::ProjectDiagnostic>,
    pub resolved: Vec<crate::diagnostics::ProjectDiagnostic>,
}

/// The files a save would change, each with its text diff.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SavePreview {
    /// Sorted by path; at most 100 (`moreFiles` counts the rest).
    pub files: Vec<FileDiff>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub more_files: u32,
    /// Why a save would be refused now (the save's own error message); no files then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

/// One file a save would change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FileDiff {
    /// Project-relative, with `/`.
    pub path: String,
    pub change: Change,
    /// Bytes on disk now (absent for an added file) and after the save (absent for a
    /// removed one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes_before: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes_after: Option<u64>,
    /// A unified diff (3 lines of context) of a text file; absent for binary files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// The diff was cut at 400 lines.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub diff_clipped: bool,
}
