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

use ofgui_contracts::additions::Additions;
use ofgui_contracts::api::UamFidelity as ContractFidelity;
use ofgui_contracts::envelope::BackendDiagnostic;
use ofgui_contracts::error::{
    BackendError as ContractError, ErrorCode, ErrorParts, UnhandledReason,
};
use serde_json::{Map, Value};

pub use exports::ofgui::backend::output::OutputReport;
pub use exports::ofgui::backend::session::{
    BackendError, BytesReply, CodeFolder, CodeOutput, DocumentRequest, ErrorCode as WitCode,
    FileChange, OpenRequest, OutputFile, PackageOutput, PictureReply, PlannedFile, PlannedWrites,
    ProjectSummary, PublishReply, Recovery, Reply, SaveReply, SessionStatus, UamFidelity,
};

impl OutputReport {
    /// A report of nothing written yet.
    pub fn empty() -> Self {
        OutputReport {
            written: Vec::new(),
            unchanged: Vec::new(),
            removed: Vec::new(),
            recovered: Vec::new(),
        }
    }

    /// Adds what a later write of the same publish did.
    pub fn absorb(&mut self, later: OutputReport) {
        self.written.extend(later.written);
        self.unchanged.extend(later.unchanged);
        self.removed.extend(later.removed);
        self.recovered.extend(later.recovered);
    }
}

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
/// `meta`, what it tells beyond upstream's contract, and the session's status.
#[derive(Clone, Debug, PartialEq)]
pub struct GuestReply {
    pub status: SessionStatus,
    pub data: String,
    pub diagnostics: Vec<BackendDiagnostic>,
    pub additions: Additions,
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
    /// Decodes a reply's diagnostics and additions; the data stays text.
    pub fn decode(reply: Reply) -> Result<Self, GuestError> {
        let additions = match &reply.additions {
            Some(text) => serde_json::from_str(text).map_err(|cause| cause.to_string()),
            None => Ok(Additions::default()),
        };
        let diagnostics = decode_diagnostics(&reply.diagnostics);
        match diagnostics.and_then(|diagnostics| Ok((diagnostics, additions?))) {
            Ok((diagnostics, additions)) => Ok(GuestReply {
                status: reply.status,
                data: reply.data,
                diagnostics,
                additions,
            }),
            Err(cause) => {
                tracing::error!("the backend reported malformed diagnostics or additions: {cause}");
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

/// The contract code of a WIT case. The WIT enum lists every code at its position in
/// [`ErrorCode::ALL`] (the component maps codes to cases by that order,
/// `backend-component/src/component.rs`), so the case's position is the code's.
pub fn from_wit_code(code: WitCode) -> ErrorCode {
    ErrorCode::ALL[code as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use ofgui_contracts::error::examples;

    /// Every WIT case, in the WIT's order.
    const WIT_CASES: [WitCode; 25] = [
        WitCode::SessionNotFound,
        WitCode::SessionLimitExceeded,
        WitCode::LockConflict,
        WitCode::StaleRead,
        WitCode::ProjectRootNotAllowed,
        WitCode::ProjectOpenFailed,
        WitCode::EntityQueryFailed,
        WitCode::SessionReadFailed,
        WitCode::StaleWrite,
        WitCode::TransactionUnsupported,
        WitCode::SelectorAmbiguity,
        WitCode::TransactionPreviewFailed,
        WitCode::EventCursorInvalid,
        WitCode::InvalidInput,
        WitCode::UnknownTool,
        WitCode::McpResponseBudgetExceeded,
        WitCode::BackendUnhandledError,
        WitCode::UamFidelityUnsupported,
        WitCode::SavePartialFailure,
        WitCode::WriteFailed,
        WitCode::MaterializeValidationFailed,
        WitCode::CapabilityUnavailable,
        WitCode::PathPolicyViolation,
        WitCode::SessionIdConflict,
        WitCode::PublishRefused,
    ];

    /// A WIT case name (`StaleWrite`) in the contract's spelling (`stale_write`).
    fn snake(case: WitCode) -> String {
        let debug = format!("{case:?}");
        // The generated Debug names the enum too (`ErrorCode::StaleWrite`).
        ofgui_contracts::methods::snake_case(debug.rsplit("::").next().unwrap_or(&debug))
    }

    /// The canonical ABI carries an enum case by its position in the WIT, and the host
    /// reads the code at that position of [`ErrorCode::ALL`]: every case must come back as
    /// the code of its own name, and every code must have a case.
    #[test]
    fn every_wit_case_comes_back_as_the_code_of_its_name() {
        assert_eq!(WIT_CASES.len(), ErrorCode::ALL.len());
        for (position, case) in WIT_CASES.into_iter().enumerate() {
            assert_eq!(case as usize, position, "{case:?}");
            assert_eq!(from_wit_code(case).as_str(), snake(case));
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
            let case = WIT_CASES[ErrorCode::ALL
                .iter()
                .position(|c| *c == parts.code)
                .unwrap()];
            let crossed = BackendError {
                code: case,
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
