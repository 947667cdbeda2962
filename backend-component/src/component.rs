//! The WIT adapter: converts between the `ofgui:backend/session` ABI and the session core.
//! Only built for WebAssembly; everything it calls is plain Rust tested natively.

mod bindings {
    wit_bindgen::generate!({ world: "backend", path: "../wit" });

    use super::BackendComponent;
    export!(BackendComponent);
}

use std::cell::RefCell;

use bindings::exports::ofgui::backend::session::{
    self as wit, BackendError, ErrorCode, Guest, GuestProject, SessionStatus, UamFidelity,
};
use ofgui_contracts::api::{self, ResourceSelector};
use ofgui_contracts::error::BackendError as Error;
use serde_json::Value;

use crate::fs::StdFs;
use crate::session::{OpenError, Session};
use crate::{outline, query};

struct BackendComponent;

impl Guest for BackendComponent {
    type Project = ProjectSession;
}

/// The `project` resource: one session, mutated only through `&self` per the ABI.
struct ProjectSession {
    session: RefCell<Session>,
}

impl GuestProject for ProjectSession {
    fn open(session_id: String, fairy_file: String) -> Result<wit::Project, BackendError> {
        // The preopened project directory is the component's only storage.
        let fs = StdFs::new(".");
        match Session::open(&fs, &session_id, &fairy_file) {
            Ok(session) => Ok(wit::Project::new(ProjectSession {
                session: RefCell::new(session),
            })),
            Err(OpenError { reason, message }) => Err(BackendError {
                code: ErrorCode::ProjectOpenFailed,
                message,
                details: serde_json::json!({ "reason": reason }).to_string(),
                diagnostics: "[]".into(),
            }),
        }
    }

    fn status(&self) -> SessionStatus {
        let status = self.session.borrow().status();
        SessionStatus {
            revision: status.revision,
            last_saved_revision: status.last_saved_revision,
            dirty: status.dirty,
            fidelity: match status.fidelity {
                api::UamFidelity::Full => UamFidelity::Full,
                api::UamFidelity::Unsupported => UamFidelity::Unsupported,
            },
        }
    }

    fn outline(&self) -> String {
        let outline = outline::outline(&self.session.borrow());
        serde_json::to_string(&outline).unwrap_or_default()
    }

    fn apply(
        &self,
        expected_revision: u64,
        operations: String,
    ) -> Result<SessionStatus, BackendError> {
        self.session
            .borrow_mut()
            .apply(expected_revision, &operations)
            .map_err(|rejected| with_diagnostics(to_wit(rejected.error), &rejected.diagnostics))?;
        Ok(self.status())
    }

    fn preflight(
        &self,
        expected_revision: u64,
        operations: String,
    ) -> Result<String, BackendError> {
        self.session
            .borrow()
            .preflight(expected_revision, &operations)
            .map_err(|rejected| with_diagnostics(to_wit(rejected.error), &rejected.diagnostics))
    }

    fn validate(&self) -> String {
        let report = self.session.borrow().validate();
        serde_json::to_string(&report).unwrap_or_default()
    }

    fn query_entity(&self, target: String) -> Result<String, BackendError> {
        let session = self.session.borrow();
        let target: Value = serde_json::from_str(&target).unwrap_or(Value::Null);
        let data = query::query_entity(&session, &target).map_err(to_wit)?;
        Ok(serde_json::to_string(&data).unwrap_or_default())
    }

    fn read_state(&self, expected_revision: Option<u64>) -> Result<String, BackendError> {
        self.session
            .borrow()
            .read_state(expected_revision)
            .map_err(to_wit)
    }

    fn read_resource_bytes(
        &self,
        expected_revision: u64,
        package_id: String,
        resource_id: String,
    ) -> Result<Vec<u8>, BackendError> {
        let selector = ResourceSelector {
            package_id,
            resource_id,
        };
        let session = self.session.borrow();
        session
            .read_resource_bytes(expected_revision, &selector)
            .map(<[u8]>::to_vec)
            .map_err(to_wit)
    }
}

/// Splits a contract error into the typed code, the message and the remaining fields.
fn to_wit(error: Error) -> BackendError {
    let code = match &error {
        Error::StaleRead { .. } => ErrorCode::StaleRead,
        Error::EntityQueryFailed { .. } => ErrorCode::EntityQueryFailed,
        Error::SessionReadFailed { .. } => ErrorCode::SessionReadFailed,
        Error::ProjectOpenFailed { .. } => ErrorCode::ProjectOpenFailed,
        Error::StaleWrite { .. } => ErrorCode::StaleWrite,
        Error::TransactionUnsupported(_) => ErrorCode::TransactionUnsupported,
        Error::SelectorAmbiguity(_) => ErrorCode::SelectorAmbiguity,
        Error::TransactionPreviewFailed { .. } => ErrorCode::TransactionPreviewFailed,
        // The session core raises no other codes; keep the contract total anyway.
        _ => ErrorCode::SessionReadFailed,
    };
    let message = error.message().to_string();
    let mut details = serde_json::to_value(&error).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut details {
        map.remove("code");
        map.remove("message");
    }
    BackendError {
        code,
        message,
        details: details.to_string(),
        diagnostics: "[]".into(),
    }
}

fn with_diagnostics(
    mut error: BackendError,
    diagnostics: &[ofgui_contracts::envelope::BackendDiagnostic],
) -> BackendError {
    error.diagnostics = serde_json::to_string(diagnostics).unwrap_or_else(|_| "[]".into());
    error
}
