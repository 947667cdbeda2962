//! Host bindings of the `ofgui:backend` world (`wit/backend.wit`), and the one place
//! where what the component says becomes contract types.
//!
//! Exports are async because WASI Preview 2 filesystem calls are async in
//! wasmtime-wasi and the host runs inside tokio.

wasmtime::component::bindgen!({
    world: "backend",
    path: "../wit",
    exports: { default: async },
    additional_derives: [PartialEq],
});

use ofgui_contracts::api::UamFidelity as ContractFidelity;
use ofgui_contracts::envelope::BackendDiagnostic;
use ofgui_contracts::error::{
    BackendError as ContractError, ErrorCode, ErrorParts, UnhandledReason,
};
use serde_json::{Map, Value};

pub use exports::ofgui::backend::session::{
    BackendError, BytesReply, DocumentRequest, ErrorCode as WitCode, FileChange, OpenRequest,
    PictureReply, PlannedFile, PlannedWrites, ProjectSummary, Recovery, Reply, SaveReply,
    SessionStatus, UamFidelity,
};

/// A failure the component reported, as contract types.
#[derive(Clone, Debug, PartialEq)]
pub struct GuestError {
    pub error: ContractError,
    /// Diagnostics explaining the failure (one per transaction issue); empty when the
    /// error is its own only diagnostic.
    pub diagnostics: Vec<BackendDiagnostic>,
    /// The session's status when the failure happened, once a session exists.
    pub status: Option<SessionStatus>,
}

/// A successful call: its data (JSON text, passed on unparsed), the diagnostics for
/// `meta` and the session's status.
#[derive(Clone, Debug, PartialEq)]
pub struct GuestReply {
    pub status: SessionStatus,
    pub data: String,
    pub diagnostics: Vec<BackendDiagnostic>,
}

impl From<BackendError> for GuestError {
    /// Decodes a component failure. A failure whose fields do not fit its code is a
    /// component bug: it becomes `backend_unhandled_error`, with the cause in the log.
    fn from(error: BackendError) -> Self {
        let status = error.status;
        let code = from_wit_code(error.code);
        let decoded = serde_json::from_str::<Map<String, Value>>(&error.details)
            .map_err(|cause| cause.to_string())
            .and_then(|details| {
                ContractError::from_parts(ErrorParts {
                    code,
                    message: error.message,
                    details,
                })
                .map_err(|cause| cause.to_string())
            });
        let diagnostics = decode_diagnostics(&error.diagnostics);
        match (decoded, diagnostics) {
            (Ok(error), Ok(diagnostics)) => GuestError {
                error,
                diagnostics,
                status,
            },
            (Err(cause), _) | (_, Err(cause)) => {
                tracing::error!(%code, "the backend reported a malformed error: {cause}");
                GuestError {
                    error: ContractError::unhandled(UnhandledReason::Internal),
                    diagnostics: Vec::new(),
                    status,
                }
            }
        }
    }
}

impl GuestReply {
    /// Decodes a reply's diagnostics; the data stays text.
    pub fn decode(reply: Reply) -> Result<Self, GuestError> {
        match decode_diagnostics(&reply.diagnostics) {
            Ok(diagnostics) => Ok(GuestReply {
                status: reply.status,
                data: reply.data,
                diagnostics,
            }),
            Err(cause) => {
                tracing::error!("the backend reported malformed diagnostics: {cause}");
                Err(GuestError {
                    error: ContractError::unhandled(UnhandledReason::Internal),
                    diagnostics: Vec::new(),
                    status: Some(reply.status),
                })
            }
        }
    }
}

fn decode_diagnostics(text: &str) -> Result<Vec<BackendDiagnostic>, String> {
    serde_json::from_str(text).map_err(|cause| cause.to_string())
}

impl UamFidelity {
    pub fn to_contract(self) -> ContractFidelity {
        match self {
            UamFidelity::Full => ContractFidelity::Full,
            UamFidelity::Unsupported => ContractFidelity::Unsupported,
        }
    }
}

/// Every WIT case has its contract code; the component maps them the same way
/// (`backend-component/src/component.rs`).
pub fn from_wit_code(code: WitCode) -> ErrorCode {
    match code {
        WitCode::SessionNotFound => ErrorCode::SessionNotFound,
        WitCode::SessionLimitExceeded => ErrorCode::SessionLimitExceeded,
        WitCode::LockConflict => ErrorCode::LockConflict,
        WitCode::StaleRead => ErrorCode::StaleRead,
        WitCode::ProjectRootNotAllowed => ErrorCode::ProjectRootNotAllowed,
        WitCode::ProjectOpenFailed => ErrorCode::ProjectOpenFailed,
        WitCode::EntityQueryFailed => ErrorCode::EntityQueryFailed,
        WitCode::SessionReadFailed => ErrorCode::SessionReadFailed,
        WitCode::StaleWrite => ErrorCode::StaleWrite,
        WitCode::TransactionUnsupported => ErrorCode::TransactionUnsupported,
        WitCode::SelectorAmbiguity => ErrorCode::SelectorAmbiguity,
        WitCode::TransactionPreviewFailed => ErrorCode::TransactionPreviewFailed,
        WitCode::EventCursorInvalid => ErrorCode::EventCursorInvalid,
        WitCode::InvalidInput => ErrorCode::InvalidInput,
        WitCode::UnknownTool => ErrorCode::UnknownTool,
        WitCode::McpResponseBudgetExceeded => ErrorCode::McpResponseBudgetExceeded,
        WitCode::BackendUnhandledError => ErrorCode::BackendUnhandledError,
        WitCode::UamFidelityUnsupported => ErrorCode::UamFidelityUnsupported,
        WitCode::SavePartialFailure => ErrorCode::SavePartialFailure,
        WitCode::WriteFailed => ErrorCode::WriteFailed,
        WitCode::MaterializeValidationFailed => ErrorCode::MaterializeValidationFailed,
        WitCode::CapabilityUnavailable => ErrorCode::CapabilityUnavailable,
        WitCode::PathPolicyViolation => ErrorCode::PathPolicyViolation,
        WitCode::SessionIdConflict => ErrorCode::SessionIdConflict,
    }
}

/// The inverse of [`from_wit_code`], for hosts that hand errors to the component's
/// callers in WIT form (and for the round-trip test).
pub fn to_wit_code(code: ErrorCode) -> WitCode {
    match code {
        ErrorCode::SessionNotFound => WitCode::SessionNotFound,
        ErrorCode::SessionLimitExceeded => WitCode::SessionLimitExceeded,
        ErrorCode::LockConflict => WitCode::LockConflict,
        ErrorCode::StaleRead => WitCode::StaleRead,
        ErrorCode::ProjectRootNotAllowed => WitCode::ProjectRootNotAllowed,
        ErrorCode::ProjectOpenFailed => WitCode::ProjectOpenFailed,
        ErrorCode::EntityQueryFailed => WitCode::EntityQueryFailed,
        ErrorCode::SessionReadFailed => WitCode::SessionReadFailed,
        ErrorCode::StaleWrite => WitCode::StaleWrite,
        ErrorCode::TransactionUnsupported => WitCode::TransactionUnsupported,
        ErrorCode::SelectorAmbiguity => WitCode::SelectorAmbiguity,
        ErrorCode::TransactionPreviewFailed => WitCode::TransactionPreviewFailed,
        ErrorCode::EventCursorInvalid => WitCode::EventCursorInvalid,
        ErrorCode::InvalidInput => WitCode::InvalidInput,
        ErrorCode::UnknownTool => WitCode::UnknownTool,
        ErrorCode::McpResponseBudgetExceeded => WitCode::McpResponseBudgetExceeded,
        ErrorCode::BackendUnhandledError => WitCode::BackendUnhandledError,
        ErrorCode::UamFidelityUnsupported => WitCode::UamFidelityUnsupported,
        ErrorCode::SavePartialFailure => WitCode::SavePartialFailure,
        ErrorCode::WriteFailed => WitCode::WriteFailed,
        ErrorCode::MaterializeValidationFailed => WitCode::MaterializeValidationFailed,
        ErrorCode::CapabilityUnavailable => WitCode::CapabilityUnavailable,
        ErrorCode::PathPolicyViolation => WitCode::PathPolicyViolation,
        ErrorCode::SessionIdConflict => WitCode::SessionIdConflict,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ofgui_contracts::error::examples;

    /// The canonical ABI carries an enum case by its position in the WIT; the component
    /// puts each code at its position in [`ErrorCode::ALL`], so position `i` must come
    /// back as `ErrorCode::ALL[i]`.
    #[test]
    fn every_wit_position_comes_back_as_its_code() {
        for (position, code) in ErrorCode::ALL.into_iter().enumerate() {
            let case = to_wit_code(code);
            assert_eq!(case as usize, position, "{code}");
            assert_eq!(from_wit_code(case), code);
        }
    }

    #[test]
    fn every_error_round_trips_through_the_wit_record() {
        let status = SessionStatus {
            revision: 7,
            last_saved_revision: 2,
            dirty: true,
            fidelity: UamFidelity::Full,
            summary: ProjectSummary {
                package_count: 3,
                resource_count: 12,
            },
        };
        for error in examples() {
            let diagnostic = BackendDiagnostic::error(error.code().as_str(), "why");
            let parts = error.clone().into_parts().expect("serializable");
            let crossed = BackendError {
                code: to_wit_code(parts.code),
                message: parts.message,
                details: serde_json::to_string(&parts.details).expect("serializable"),
                diagnostics: serde_json::to_string(&[&diagnostic]).expect("serializable"),
                status: Some(status),
            };
            let back = GuestError::from(crossed);
            assert_eq!(back.error, error);
            assert_eq!(back.diagnostics, vec![diagnostic]);
            assert_eq!(back.status, Some(status));
        }
    }

    #[test]
    fn a_malformed_error_becomes_unhandled() {
        let crossed = BackendError {
            code: WitCode::StaleWrite,
            message: "m".into(),
            details: "{}".into(),
            diagnostics: "[]".into(),
            status: None,
        };
        assert_eq!(
            GuestError::from(crossed).error.code(),
            ErrorCode::BackendUnhandledError
        );
    }
}
