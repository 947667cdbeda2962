//! The failures a method can return, each with a stable `code` and its own fields.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Why `openSession` could not open a project.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum OpenFailureReason {
    ProjectNotFound,
    NotAProjectFile,
    NoProjectFile,
    MultipleProjectFiles,
    SymbolicLinkUnsupported,
    /// ofgui addition: a project file has more than one hard link, so the sandbox cannot
    /// vouch for where its other names lead.
    HardLinkUnsupported,
    AccessDenied,
    ProjectReadFailed,
    Unknown,
}

/// Why `queryEntity` refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum QueryFailureReason {
    InvalidQuery,
    NotFound,
    Ambiguous,
    ResponseBudgetExceeded,
    NonJsonValue,
}

/// Why `readSessionState` or `readResourceBytes` refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ReadFailureReason {
    InvalidQuery,
    NotFound,
    Ambiguous,
    UnsupportedResource,
    BytesUnavailable,
    ResponseBudgetExceeded,
    NonJsonValue,
}

/// Why `preflightTransaction` could not produce a preview.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum PreviewFailureReason {
    ResponseBudgetExceeded,
    ProjectionFailed,
}

/// Which kind of lock conflict happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum LockConflictKind {
    /// This server already has a session open on the project.
    InProcessSessionExists,
    /// Another process holds the project's advisory lock.
    AdvisoryLockConflict,
}

/// Why a save or materialize did not complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SaveFailureReason {
    /// Files the save would write or remove changed on disk since the session read them
    /// (see `conflicts`); nothing was written.
    ChangedOnDisk,
    /// The storage refused a write or a rename (see `failedPaths`).
    Io,
}

/// How a file on disk differs from what the session read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DiskConflictKind {
    /// Its bytes differ from what the session read.
    Changed,
    /// It appeared where the session read no file.
    Created,
    /// The session read it; it is gone.
    Removed,
    /// A file whose name differs only in letter case would be overwritten on this disk.
    CaseCollision,
    /// It has more than one hard link.
    HardLinked,
    /// A directory or special file stands where a file is expected, or the reverse.
    NotAFile,
    /// A file the session never read, inside a directory the save would remove.
    UnknownEntry,
    /// It could not be looked at.
    Unreadable,
    /// It, or the directory it is in, is read-only on disk.
    ReadOnly,
}

/// Which rule a refused path broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TargetPolicy {
    /// A session opened from disk writes only the project it opened.
    SaveTarget,
    /// A session opened from a document is written only into a directory inside the
    /// allowed roots that holds no project yet.
    MaterializeTarget,
    /// Publishing writes only into a real directory inside the allowed roots, outside the
    /// project's own sources (ofgui addition).
    PublishTarget,
}

/// One file that stopped a save.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DiskConflict {
    /// Project-relative path with `/`.
    pub path: String,
    pub kind: DiskConflictKind,
    pub message: String,
}

/// Why the host could not finish a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum UnhandledReason {
    /// The backend component trapped; its session was restored on a fresh instance, or
    /// closed if that failed.
    Trap,
    /// The backend call ran past its deadline; its session was restored or closed, as for
    /// a trap.
    Deadline,
    /// The backend component asked for more memory than a session may use; its session
    /// was restored or closed, as for a trap.
    OutOfMemory,
    /// A policy of the host embedding the server failed to decide; nothing was called.
    Policy,
    /// The host failed for another reason.
    Internal,
}

/// One problem of one operation of a refused transaction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SupportIssue {
    /// A transaction code of the diagnostic catalog.
    pub code: String,
    /// Where in the request: `operations[3].props.size`.
    pub path: String,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation_kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gear_kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

/// The details of a refused transaction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TransactionRejection {
    pub message: String,
    /// `preflight` (rules checked before anything ran) or `execution`.
    pub stage: String,
    /// The first operation at fault.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub op_index: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub op_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub op_kind: Option<String>,
    /// The same as `opKind` (upstream reports both).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation_kind: Option<String>,
    /// The first operation's selector, as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "schema",
        schemars(with = "Option<serde_json::Map<String, Value>>")
    )]
    pub selector: Option<Value>,
    /// Every problem found, across all operations.
    pub issues: Vec<SupportIssue>,
}

impl TransactionRejection {
    /// A refusal before anything ran that no one operation caused (nothing to undo, an
    /// unsaved edit a refresh cannot replay), with the issues that explain it.
    pub fn before_running(message: String, issues: Vec<SupportIssue>) -> Self {
        TransactionRejection {
            message,
            stage: "preflight".into(),
            op_index: None,
            op_id: None,
            op_kind: None,
            operation_kind: None,
            selector: None,
            issues,
        }
    }
}

/// A failure, tagged by its stable `code`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    tag = "code",
    rename_all = "snake_case",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum BackendError {
    /// The session does not exist: never opened, closed, or expired.
    SessionNotFound { message: String, session_id: String },
    /// The server already has its maximum number of open sessions.
    SessionLimitExceeded { message: String, max_sessions: u32 },
    /// The project is already open in another session.
    LockConflict {
        message: String,
        kind: LockConflictKind,
        canonical_path_key: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        holder_session_id: Option<String>,
        /// The advisory lock file (kind `advisory_lock_conflict`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lock_file_path: Option<String>,
    },
    /// A read named a revision that is not the current one.
    StaleRead {
        message: String,
        session_id: String,
        expected_revision: u64,
        actual_revision: u64,
    },
    /// `projectPath` is outside every allowed project root.
    ProjectRootNotAllowed {
        message: String,
        project_path: String,
    },
    /// The project could not be opened.
    ProjectOpenFailed {
        message: String,
        reason: OpenFailureReason,
        project_path: String,
    },
    /// `queryEntity` refused the target or could not answer within budget.
    EntityQueryFailed {
        message: String,
        session_id: String,
        reason: QueryFailureReason,
    },
    /// `readSessionState` or `readResourceBytes` refused.
    SessionReadFailed {
        message: String,
        session_id: String,
        reason: ReadFailureReason,
    },
    /// A write named a revision that is not the current one; re-read and re-plan.
    StaleWrite {
        message: String,
        session_id: String,
        /// The project's identity; added by the host.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        canonical_path_key: Option<String>,
        expected_revision: u64,
        actual_revision: u64,
    },
    /// The batch was refused before anything changed; see `issues`.
    TransactionUnsupported(TransactionRejection),
    /// A selector matched more than one entity; nothing changed.
    SelectorAmbiguity(TransactionRejection),
    /// The preview could not be produced within its budget.
    TransactionPreviewFailed {
        message: String,
        session_id: String,
        reason: PreviewFailureReason,
    },
    /// A `getEvents` cursor is malformed, expired or unknown.
    EventCursorInvalid {
        message: String,
        session_id: String,
        after: String,
    },
    /// The tool's arguments do not match its input schema or exceed the input budget.
    InvalidInput {
        message: String,
        /// Where the input is wrong, as a JSON pointer-like path (`/target/selector`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        path: Option<String>,
    },
    /// No tool has this name.
    UnknownTool { message: String, tool_name: String },
    /// The complete tool result would exceed the tool's byte limit.
    McpResponseBudgetExceeded { message: String, max_bytes: u64 },
    /// The host could not complete the call; details go to the server log, never here.
    BackendUnhandledError {
        message: String,
        reason: UnhandledReason,
    },
    /// Saving this session cannot be faithful: a source could not be read at open, or
    /// the written bytes would not read back as the session's model (`file`, `field`).
    UamFidelityUnsupported {
        message: String,
        session_id: String,
        canonical_path_key: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        file: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        field: Option<String>,
    },
    /// `saveSession` did not complete; the session keeps its edits and stays dirty.
    SavePartialFailure {
        message: String,
        session_id: String,
        canonical_path_key: String,
        attempted_revision: u64,
        last_saved_revision: u64,
        reason: SaveFailureReason,
        /// Files already in their new state on disk.
        committed_paths: Vec<String>,
        /// Files that stopped the save.
        failed_paths: Vec<String>,
        /// False when the disk holds exactly the old project.
        disk_may_be_partially_updated: bool,
        /// The save journal that finishes the interrupted save at the next open or save.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        recovery_paths: Option<Vec<String>>,
        /// What changed on disk behind the session (reason `changed_on_disk`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        conflicts: Vec<DiskConflict>,
    },
    /// `materializeSession` could not write the project; the session is unchanged.
    WriteFailed {
        message: String,
        session_id: String,
        canonical_path_key: String,
        attempted_revision: u64,
        last_saved_revision: u64,
        reason: SaveFailureReason,
        written_paths: Vec<String>,
        skipped_paths: Vec<String>,
        failed_paths: Vec<String>,
        disk_may_be_partially_updated: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        recovery_paths: Option<Vec<String>>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        conflicts: Vec<DiskConflict>,
    },
    /// The project is structurally invalid, so `materializeSession` wrote nothing; the
    /// issues are in `meta.diagnostics`.
    MaterializeValidationFailed {
        message: String,
        session_id: String,
        canonical_path_key: String,
        issue_count: u32,
    },
    /// Publishing was refused because its output would be wrong (a missing image, an
    /// unknown package); the findings are in `meta.diagnostics`. Nothing was written.
    /// (ofgui addition.)
    PublishRefused {
        message: String,
        session_id: String,
        issue_count: u32,
    },
    /// This server cannot do that here (`capability` names what is missing).
    CapabilityUnavailable { message: String, capability: String },
    /// A path the call named is not allowed: `policy` `save_target` (saving writes only
    /// the opened project) or `materialize_target` (a memory session is written only into
    /// a directory inside the allowed roots that holds no project yet).
    PathPolicyViolation {
        message: String,
        policy: TargetPolicy,
        attempted_path: String,
        /// What the call may name instead: the opened project (`save_target`), or the
        /// allowed project roots separated as in `OPENFAIRYGUI_ALLOWED_PROJECT_ROOTS`
        /// (`materialize_target`, `publish_target`).
        allowed_path: String,
    },
    /// `openProjectSession` was given a `sessionId` that an open (or opening) session
    /// already has.
    SessionIdConflict { message: String, session_id: String },
}

/// Every code a [`BackendError`] can carry: the `code` of the JSON object, the
/// `error-code` of the component's WIT interface, and a catalog entry with a guide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    SessionNotFound,
    SessionLimitExceeded,
    LockConflict,
    StaleRead,
    ProjectRootNotAllowed,
    ProjectOpenFailed,
    EntityQueryFailed,
    SessionReadFailed,
    StaleWrite,
    TransactionUnsupported,
    SelectorAmbiguity,
    TransactionPreviewFailed,
    EventCursorInvalid,
    InvalidInput,
    UnknownTool,
    McpResponseBudgetExceeded,
    BackendUnhandledError,
    UamFidelityUnsupported,
    SavePartialFailure,
    WriteFailed,
    MaterializeValidationFailed,
    CapabilityUnavailable,
    PathPolicyViolation,
    SessionIdConflict,
    PublishRefused,
}

impl ErrorCode {
    /// Every code, in contract order (new codes are appended: the WIT enum carries a code
    /// by its position).
    pub const ALL: [ErrorCode; 25] = [
        Self::SessionNotFound,
        Self::SessionLimitExceeded,
        Self::LockConflict,
        Self::StaleRead,
        Self::ProjectRootNotAllowed,
        Self::ProjectOpenFailed,
        Self::EntityQueryFailed,
        Self::SessionReadFailed,
        Self::StaleWrite,
        Self::TransactionUnsupported,
        Self::SelectorAmbiguity,
        Self::TransactionPreviewFailed,
        Self::EventCursorInvalid,
        Self::InvalidInput,
        Self::UnknownTool,
        Self::McpResponseBudgetExceeded,
        Self::BackendUnhandledError,
        Self::UamFidelityUnsupported,
        Self::SavePartialFailure,
        Self::WriteFailed,
        Self::MaterializeValidationFailed,
        Self::CapabilityUnavailable,
        Self::PathPolicyViolation,
        Self::SessionIdConflict,
        Self::PublishRefused,
    ];

    /// The wire spelling (`stale_write`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::SessionNotFound => "session_not_found",
            Self::SessionLimitExceeded => "session_limit_exceeded",
            Self::LockConflict => "lock_conflict",
            Self::StaleRead => "stale_read",
            Self::ProjectRootNotAllowed => "project_root_not_allowed",
            Self::ProjectOpenFailed => "project_open_failed",
            Self::EntityQueryFailed => "entity_query_failed",
            Self::SessionReadFailed => "session_read_failed",
            Self::StaleWrite => "stale_write",
            Self::TransactionUnsupported => "transaction_unsupported",
            Self::SelectorAmbiguity => "selector_ambiguity",
            Self::TransactionPreviewFailed => "transaction_preview_failed",
            Self::EventCursorInvalid => "event_cursor_invalid",
            Self::InvalidInput => "invalid_input",
            Self::UnknownTool => "unknown_tool",
            Self::McpResponseBudgetExceeded => "mcp_response_budget_exceeded",
            Self::BackendUnhandledError => "backend_unhandled_error",
            Self::UamFidelityUnsupported => "uam_fidelity_unsupported",
            Self::SavePartialFailure => "save_partial_failure",
            Self::WriteFailed => "write_failed",
            Self::MaterializeValidationFailed => "materialize_validation_failed",
            Self::CapabilityUnavailable => "capability_unavailable",
            Self::PathPolicyViolation => "path_policy_violation",
            Self::SessionIdConflict => "session_id_conflict",
            Self::PublishRefused => "publish_refused",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A [`BackendError`] split the way the component's WIT carries it: the code, the
/// message, and the code's own fields as a JSON object.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorParts {
    pub code: ErrorCode,
    pub message: String,
    pub details: Map<String, Value>,
}

/// Why [`BackendError::from_parts`] could not rebuild an error.
#[derive(Debug, thiserror::Error)]
#[error("the fields of a {code} error do not match the contract: {source}")]
pub struct PartsMismatch {
    pub code: ErrorCode,
    #[source]
    pub source: serde_json::Error,
}

impl BackendError {
    pub fn code(&self) -> ErrorCode {
        match self {
            Self::SessionNotFound { .. } => ErrorCode::SessionNotFound,
            Self::SessionLimitExceeded { .. } => ErrorCode::SessionLimitExceeded,
            Self::LockConflict { .. } => ErrorCode::LockConflict,
            Self::StaleRead { .. } => ErrorCode::StaleRead,
            Self::ProjectRootNotAllowed { .. } => ErrorCode::ProjectRootNotAllowed,
            Self::ProjectOpenFailed { .. } => ErrorCode::ProjectOpenFailed,
            Self::EntityQueryFailed { .. } => ErrorCode::EntityQueryFailed,
            Self::SessionReadFailed { .. } => ErrorCode::SessionReadFailed,
            Self::StaleWrite { .. } => ErrorCode::StaleWrite,
            Self::TransactionUnsupported(_) => ErrorCode::TransactionUnsupported,
            Self::SelectorAmbiguity(_) => ErrorCode::SelectorAmbiguity,
            Self::TransactionPreviewFailed { .. } => ErrorCode::TransactionPreviewFailed,
            Self::EventCursorInvalid { .. } => ErrorCode::EventCursorInvalid,
            Self::InvalidInput { .. } => ErrorCode::InvalidInput,
            Self::UnknownTool { .. } => ErrorCode::UnknownTool,
            Self::McpResponseBudgetExceeded { .. } => ErrorCode::McpResponseBudgetExceeded,
            Self::BackendUnhandledError { .. } => ErrorCode::BackendUnhandledError,
            Self::UamFidelityUnsupported { .. } => ErrorCode::UamFidelityUnsupported,
            Self::SavePartialFailure { .. } => ErrorCode::SavePartialFailure,
            Self::WriteFailed { .. } => ErrorCode::WriteFailed,
            Self::MaterializeValidationFailed { .. } => ErrorCode::MaterializeValidationFailed,
            Self::CapabilityUnavailable { .. } => ErrorCode::CapabilityUnavailable,
            Self::PathPolicyViolation { .. } => ErrorCode::PathPolicyViolation,
            Self::SessionIdConflict { .. } => ErrorCode::SessionIdConflict,
            Self::PublishRefused { .. } => ErrorCode::PublishRefused,
        }
    }

    /// Splits the error into code, message and the code's own fields.
    pub fn into_parts(self) -> Result<ErrorParts, serde_json::Error> {
        let code = self.code();
        let mut details = match serde_json::to_value(&self)? {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        details.remove("code");
        let message = match details.remove("message") {
            Some(Value::String(message)) => message,
            _ => self.message().to_string(),
        };
        Ok(ErrorParts {
            code,
            message,
            details,
        })
    }

    /// Rebuilds an error from its parts; fails when the fields do not fit the code.
    pub fn from_parts(parts: ErrorParts) -> Result<Self, PartsMismatch> {
        let ErrorParts {
            code,
            message,
            mut details,
        } = parts;
        details.insert("code".into(), Value::String(code.as_str().into()));
        details.insert("message".into(), Value::String(message));
        serde_json::from_value(Value::Object(details))
            .map_err(|source| PartsMismatch { code, source })
    }

    pub fn message(&self) -> &str {
        match self {
            Self::SessionNotFound { message, .. }
            | Self::SessionLimitExceeded { message, .. }
            | Self::LockConflict { message, .. }
            | Self::StaleRead { message, .. }
            | Self::ProjectRootNotAllowed { message, .. }
            | Self::ProjectOpenFailed { message, .. }
            | Self::EntityQueryFailed { message, .. }
            | Self::SessionReadFailed { message, .. }
            | Self::StaleWrite { message, .. }
            | Self::TransactionPreviewFailed { message, .. }
            | Self::EventCursorInvalid { message, .. }
            | Self::InvalidInput { message, .. }
            | Self::UnknownTool { message, .. }
            | Self::McpResponseBudgetExceeded { message, .. }
            | Self::BackendUnhandledError { message, .. }
            | Self::UamFidelityUnsupported { message, .. }
            | Self::SavePartialFailure { message, .. }
            | Self::WriteFailed { message, .. }
            | Self::MaterializeValidationFailed { message, .. }
            | Self::PublishRefused { message, .. }
            | Self::CapabilityUnavailable { message, .. }
            | Self::PathPolicyViolation { message, .. }
            | Self::SessionIdConflict { message, .. } => message,
            Self::TransactionUnsupported(rejection) | Self::SelectorAmbiguity(rejection) => {
                &rejection.message
            }
        }
    }

    pub fn session_not_found(session_id: &str) -> Self {
        Self::SessionNotFound {
            message: format!("Session {session_id} does not exist or has been closed."),
            session_id: session_id.to_string(),
        }
    }

    pub fn stale_read(session_id: &str, expected: u64, actual: u64) -> Self {
        Self::StaleRead {
            message: format!(
                "Expected revision {expected} does not match current revision {actual}."
            ),
            session_id: session_id.to_string(),
            expected_revision: expected,
            actual_revision: actual,
        }
    }

    pub fn query_failed(
        session_id: &str,
        reason: QueryFailureReason,
        message: impl Into<String>,
    ) -> Self {
        Self::EntityQueryFailed {
            message: message.into(),
            session_id: session_id.to_string(),
            reason,
        }
    }

    pub fn read_failed(
        session_id: &str,
        reason: ReadFailureReason,
        message: impl Into<String>,
    ) -> Self {
        Self::SessionReadFailed {
            message: message.into(),
            session_id: session_id.to_string(),
            reason,
        }
    }

    pub fn invalid_input(message: impl Into<String>, path: Option<String>) -> Self {
        Self::InvalidInput {
            message: message.into(),
            path,
        }
    }

    pub fn unhandled(reason: UnhandledReason) -> Self {
        let message = match reason {
            UnhandledReason::Trap => {
                "Backend tool execution failed: the backend stopped unexpectedly and its session was closed."
            }
            UnhandledReason::Deadline => {
                "Backend tool execution failed: the call ran past its deadline and its session was closed."
            }
            UnhandledReason::OutOfMemory => {
                "Backend tool execution failed: the backend ran out of memory and its session was closed."
            }
            UnhandledReason::Policy => {
                "Backend tool execution failed: the host's policy for this tool could not decide, so the backend was not called and nothing changed."
            }
            UnhandledReason::Internal => "Backend tool execution failed.",
        };
        Self::BackendUnhandledError {
            message: message.into(),
            reason,
        }
    }
}

/// One error of every code, with every optional field set, for tests of code mappings.
#[doc(hidden)]
pub fn examples() -> Vec<BackendError> {
    let rejection = TransactionRejection {
        message: "The transaction was rejected: no such node.".into(),
        stage: "preflight".into(),
        op_index: Some(0),
        op_id: Some("op-1".into()),
        op_kind: Some("setDisplayNodeProps".into()),
        operation_kind: Some("setDisplayNodeProps".into()),
        selector: Some(serde_json::json!({ "packageId": "p" })),
        issues: vec![SupportIssue {
            code: "invalid_display_node_selector".into(),
            path: "operations[0].selector".into(),
            message: "No display node n9.".into(),
            operation_kind: Some("setDisplayNodeProps".into()),
            node_kind: Some("image".into()),
            resource_kind: Some("image".into()),
            gear_kind: Some("gearXY".into()),
            field: Some("selector".into()),
        }],
    };
    vec![
        BackendError::session_not_found("s1"),
        BackendError::SessionLimitExceeded {
            message: "full".into(),
            max_sessions: 32,
        },
        BackendError::LockConflict {
            message: "held".into(),
            kind: LockConflictKind::InProcessSessionExists,
            canonical_path_key: "/p".into(),
            holder_session_id: Some("s0".into()),
            lock_file_path: Some("/.p.openfairygui.backend.lock".into()),
        },
        BackendError::stale_read("s1", 1, 2),
        BackendError::ProjectRootNotAllowed {
            message: "outside".into(),
            project_path: "/x".into(),
        },
        BackendError::ProjectOpenFailed {
            message: "missing".into(),
            reason: OpenFailureReason::ProjectNotFound,
            project_path: "p".into(),
        },
        BackendError::query_failed("s1", QueryFailureReason::Ambiguous, "two"),
        BackendError::read_failed("s1", ReadFailureReason::BytesUnavailable, "gone"),
        BackendError::StaleWrite {
            message: "moved on".into(),
            session_id: "s1".into(),
            canonical_path_key: Some("/p".into()),
            expected_revision: 0,
            actual_revision: 3,
        },
        BackendError::TransactionUnsupported(rejection.clone()),
        BackendError::SelectorAmbiguity(rejection),
        BackendError::TransactionPreviewFailed {
            message: "big".into(),
            session_id: "s1".into(),
            reason: PreviewFailureReason::ResponseBudgetExceeded,
        },
        BackendError::EventCursorInvalid {
            message: "old".into(),
            session_id: "s1".into(),
            after: "7".into(),
        },
        BackendError::invalid_input("bad", Some("/operations/0/kind".into())),
        BackendError::UnknownTool {
            message: "no".into(),
            tool_name: "x".into(),
        },
        BackendError::McpResponseBudgetExceeded {
            message: "big".into(),
            max_bytes: 16,
        },
        BackendError::unhandled(UnhandledReason::Trap),
        BackendError::UamFidelityUnsupported {
            message: "lossy".into(),
            session_id: "s1".into(),
            canonical_path_key: "/p".into(),
            file: Some("assets/A/B.xml".into()),
            field: Some("displayList".into()),
        },
        BackendError::SavePartialFailure {
            message: "changed".into(),
            session_id: "s1".into(),
            canonical_path_key: "/p".into(),
            attempted_revision: 3,
            last_saved_revision: 1,
            reason: SaveFailureReason::ChangedOnDisk,
            committed_paths: vec![],
            failed_paths: vec!["assets/A/package.xml".into()],
            disk_may_be_partially_updated: false,
            recovery_paths: Some(vec![".ofgui-save.journal".into()]),
            conflicts: vec![DiskConflict {
                path: "assets/A/package.xml".into(),
                kind: DiskConflictKind::Changed,
                message: "changed".into(),
            }],
        },
        BackendError::WriteFailed {
            message: "disk full".into(),
            session_id: "s1".into(),
            canonical_path_key: "/p".into(),
            attempted_revision: 3,
            last_saved_revision: 1,
            reason: SaveFailureReason::Io,
            written_paths: vec!["a.xml".into()],
            skipped_paths: vec!["b.png".into()],
            failed_paths: vec!["c.xml".into()],
            disk_may_be_partially_updated: true,
            recovery_paths: Some(vec![".ofgui-save.journal".into()]),
            conflicts: vec![DiskConflict {
                path: "c.xml".into(),
                kind: DiskConflictKind::Unreadable,
                message: "denied".into(),
            }],
        },
        BackendError::MaterializeValidationFailed {
            message: "invalid".into(),
            session_id: "s1".into(),
            canonical_path_key: "/p".into(),
            issue_count: 2,
        },
        BackendError::CapabilityUnavailable {
            message: "no".into(),
            capability: "save".into(),
        },
        BackendError::PathPolicyViolation {
            message: "elsewhere".into(),
            policy: TargetPolicy::SaveTarget,
            attempted_path: "/tmp/x".into(),
            allowed_path: "/p".into(),
        },
        BackendError::SessionIdConflict {
            message: "taken".into(),
            session_id: "s1".into(),
        },
        BackendError::PublishRefused {
            message: "wrong".into(),
            session_id: "s1".into(),
            issue_count: 1,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_cover_every_code_once_in_contract_order() {
        let codes: Vec<ErrorCode> = examples().iter().map(BackendError::code).collect();
        assert_eq!(codes, ErrorCode::ALL);
    }

    #[test]
    fn every_error_survives_its_parts() {
        for error in examples() {
            let parts = error.clone().into_parts().expect("serializable");
            assert_eq!(parts.code, error.code());
            assert!(!parts.details.contains_key("code"));
            assert!(!parts.details.contains_key("message"));
            assert_eq!(BackendError::from_parts(parts).expect("fits"), error);
        }
    }

    #[test]
    fn the_wire_code_is_the_code_name() {
        for error in examples() {
            let value = serde_json::to_value(&error).expect("serializable");
            assert_eq!(value["code"], error.code().as_str());
        }
    }

    #[test]
    fn parts_that_do_not_fit_their_code_are_refused() {
        let parts = ErrorParts {
            code: ErrorCode::StaleWrite,
            message: "m".into(),
            details: Map::new(),
        };
        assert!(BackendError::from_parts(parts).is_err());
    }
}
