//! One open project: the model, its bytes, its revision and what the reader found.

use std::collections::BTreeMap;

use ofgui_contracts::api::{
    Persistence, ResourceSelector, TransactionPreview, UamFidelity, ValidationReport,
};
use ofgui_contracts::capabilities::{RESOURCE_BYTES_MAX, SESSION_STATE_LIMITS};
use ofgui_contracts::catalog::DiagnosticCode;
use ofgui_contracts::diagnostics::ProjectDiagnostic;
use ofgui_contracts::envelope::{BackendDiagnostic, False, True};
use ofgui_contracts::error::{BackendError, OpenFailureReason, ReadFailureReason};
use ofgui_contracts::error::{
    PreviewFailureReason, SupportIssue, TransactionRejection, UnhandledReason,
};
use ofgui_contracts::ops::{MAX_OPERATIONS, Operation};
use ofgui_contracts::strict;
use ofgui_contracts::uam::{UamProject, UamResource};

use serde_json::value::RawValue;

use crate::budget;
use crate::fs::ProjectFs;
use crate::lookup::{Lookup, find_resource, valid_id};
use crate::reader::{self, ReadError};
use crate::txn::{self, Issue};
use crate::validate;

/// How the host names a session and its project; echoed in results and errors.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    /// `sessionId` of results and errors.
    pub session_id: String,
    /// The project path as the caller gave it (`projectPath` of open failures).
    pub project_path: String,
    /// The project's canonical identity (`canonicalPathKey` of write conflicts).
    pub canonical_path_key: String,
}

impl Names {
    /// Names for a session whose project path and key nobody will see (tests, tools).
    pub fn session(id: &str) -> Self {
        Names {
            session_id: id.to_string(),
            ..Names::default()
        }
    }
}

/// An open project session.
#[derive(Debug)]
pub struct Session {
    id: String,
    canonical_path_key: String,
    project: UamProject,
    bytes: BTreeMap<String, Vec<u8>>,
    /// What the reader reported (XML, values, missing and unreadable files).
    reader_diagnostics: Vec<ProjectDiagnostic>,
    reader_complete: bool,
    /// The reader's findings plus the byte checks of every file as read at open.
    read_diagnostics: Vec<ProjectDiagnostic>,
    read_complete: bool,
    revision: u64,
    last_saved_revision: u64,
    dirty: bool,
    fidelity: UamFidelity,
}

/// The revision and save state of a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    pub revision: u64,
    pub last_saved_revision: u64,
    pub dirty: bool,
    pub fidelity: UamFidelity,
}

impl Session {
    /// Reads the project whose `.fairy` file is `fairy_file` in the root of `fs`.
    pub fn open(
        fs: &dyn ProjectFs,
        names: Names,
        fairy_file: &str,
    ) -> Result<Session, BackendError> {
        let source = reader::read_project(fs, fairy_file).map_err(|error| {
            let (reason, message) = match error {
                ReadError::NotFound => (
                    OpenFailureReason::ProjectNotFound,
                    "Project path does not exist.".to_string(),
                ),
                ReadError::AccessDenied(detail) => (
                    OpenFailureReason::AccessDenied,
                    format!("The project file could not be read: {detail}"),
                ),
                ReadError::Unreadable(detail) => (
                    OpenFailureReason::ProjectReadFailed,
                    format!("Project files could not be read. {detail}"),
                ),
            };
            BackendError::ProjectOpenFailed {
                message,
                reason,
                project_path: names.project_path.clone(),
            }
        })?;
        // Saving patches only what changed, so anything read completely can be written
        // back faithfully; a source that could not be read at all cannot.
        let fidelity = if source.complete {
            UamFidelity::Full
        } else {
            UamFidelity::Unsupported
        };
        let (file_diagnostics, files_checked) =
            validate::source_diagnostics(&source.project, &source.bytes);
        let mut read_diagnostics = source.diagnostics.clone();
        read_diagnostics.extend(file_diagnostics);
        Ok(Session {
            id: names.session_id,
            canonical_path_key: names.canonical_path_key,
            project: source.project,
            bytes: source.bytes,
            reader_diagnostics: source.diagnostics,
            reader_complete: source.complete,
            read_diagnostics,
            read_complete: source.complete && files_checked,
            revision: 0,
            last_saved_revision: 0,
            dirty: false,
            fidelity,
        })
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn project(&self) -> &UamProject {
        &self.project
    }

    pub fn status(&self) -> Status {
        Status {
            revision: self.revision,
            last_saved_revision: self.last_saved_revision,
            dirty: self.dirty,
            fidelity: self.fidelity,
        }
    }

    pub fn read_diagnostics(&self) -> &[ProjectDiagnostic] {
        &self.read_diagnostics
    }

    fn check_revision(&self, expected: u64) -> Result<(), BackendError> {
        if expected == self.revision {
            Ok(())
        } else {
            Err(BackendError::stale_read(&self.id, expected, self.revision))
        }
    }

    /// Applies a batch all or nothing: on success the revision advances by one and the
    /// session is dirty; on failure nothing changes. `operations` is the JSON array of
    /// the method's `operations` field.
    pub fn apply(&mut self, expected_revision: u64, operations: &str) -> Result<(), Rejected> {
        let applied = self.run(expected_revision, operations)?;
        for (path, bytes) in applied.bytes {
            match bytes {
                Some(bytes) => self.bytes.insert(path, bytes),
                None => self.bytes.remove(&path),
            };
        }
        self.project = applied.project;
        self.revision += 1;
        self.dirty = true;
        Ok(())
    }

    /// Runs a batch on a copy and reports what it would change as `TransactionPreview`
    /// JSON text, within the preview budget; nothing changes.
    pub fn preflight(&self, expected_revision: u64, operations: &str) -> Result<String, Rejected> {
        let applied = self.run(expected_revision, operations)?;
        let replaced = applied
            .bytes
            .iter()
            .filter(|(_, bytes)| bytes.is_some())
            .map(|(path, _)| path.clone())
            .collect();
        let preview = TransactionPreview {
            session_id: self.id.clone(),
            base_revision: self.revision,
            projected_revision: self.revision + 1,
            mode: "execute-and-discard".into(),
            impact: txn::impact::impact(&self.project, &applied.project, &replaced),
            persistence: Persistence {
                required_after_apply: True,
                // Saving is not served yet: the edits can only live in the session.
                next_action: "host-action".into(),
                file_system_available: false,
                uam_fidelity: self.fidelity,
                write_verified: False,
            },
        };
        let over_budget = |message: String| {
            Rejected::from(BackendError::TransactionPreviewFailed {
                message,
                session_id: self.id.clone(),
                reason: PreviewFailureReason::ResponseBudgetExceeded,
            })
        };
        let entries = preview.impact.entities.len() + preview.impact.files.len();
        if entries > PREVIEW_MAX_ENTRIES {
            return Err(over_budget(format!(
                "The preview lists {entries} changes, more than {PREVIEW_MAX_ENTRIES}; split the batch."
            )));
        }
        let text = encode(&preview)?;
        if text.len() > PREVIEW_MAX_BYTES {
            return Err(over_budget(format!(
                "The preview is {} bytes, more than {PREVIEW_MAX_BYTES}; split the batch.",
                text.len()
            )));
        }
        Ok(text)
    }

    /// Decodes the batch, checks the revision and runs the batch on a copy.
    fn run(&self, expected_revision: u64, operations: &str) -> Result<txn::Applied, Rejected> {
        let operations = decode_operations(operations)?;
        if expected_revision != self.revision {
            return Err(Rejected::from(BackendError::StaleWrite {
                message: format!(
                    "Expected revision {expected_revision} does not match current revision {}.",
                    self.revision
                ),
                session_id: self.id.clone(),
                canonical_path_key: Some(self.canonical_path_key.clone())
                    .filter(|key| !key.is_empty()),
                expected_revision,
                actual_revision: self.revision,
            }));
        }
        txn::run(&self.project, &self.bytes, &operations)
            .map_err(|failure| rejected(failure, &operations))
    }

    /// Validates the committed project: structure, references and every source file.
    pub fn validate(&self) -> ValidationReport {
        validate::validate(&validate::Input {
            project: &self.project,
            bytes: &self.bytes,
            read_diagnostics: &self.reader_diagnostics,
            read_complete: self.reader_complete,
        })
    }

    /// The committed model without bytes, as `SessionStateData` JSON text, within the
    /// session-state budget.
    pub fn read_state(&self, expected_revision: Option<u64>) -> Result<String, BackendError> {
        if let Some(expected) = expected_revision {
            self.check_revision(expected)?;
        }
        let data = SessionStateView {
            session_id: &self.id,
            revision: self.revision,
            last_saved_revision: self.last_saved_revision,
            dirty: self.dirty,
            uam_fidelity: self.fidelity,
            project: &self.project,
            read_diagnostics: &self.read_diagnostics,
            read_complete: self.read_complete,
        };
        let text = serde_json::to_string(&data).map_err(|_| {
            BackendError::read_failed(
                &self.id,
                ReadFailureReason::NonJsonValue,
                "The session state is not representable as JSON.",
            )
        })?;
        // The model's nesting is fixed by its types (well under the depth limit), so the
        // serialized size is the budget that can actually bind.
        budget::check_bytes(&text, &SESSION_STATE_LIMITS).map_err(|exceeded| {
            BackendError::read_failed(
                &self.id,
                ReadFailureReason::ResponseBudgetExceeded,
                format!(
                    "{} Query entities one at a time instead.",
                    exceeded.describe(&SESSION_STATE_LIMITS)
                ),
            )
        })?;
        Ok(text)
    }

    /// The primary bytes of one asset resource, as read at open.
    pub fn read_resource_bytes(
        &self,
        expected_revision: u64,
        selector: &ResourceSelector,
    ) -> Result<&[u8], BackendError> {
        self.check_revision(expected_revision)?;
        let fail =
            |reason, message: String| Err(BackendError::read_failed(&self.id, reason, message));
        if !valid_id(&selector.package_id) || !valid_id(&selector.resource_id) {
            return fail(
                ReadFailureReason::InvalidQuery,
                "packageId and resourceId must be strings of 1 to 256 characters.".into(),
            );
        }
        let resource =
            match find_resource(&self.project, &selector.package_id, &selector.resource_id) {
                Lookup::Found(resource) => resource,
                Lookup::NotFound(what) => return fail(ReadFailureReason::NotFound, what),
                Lookup::Ambiguous(what) => return fail(ReadFailureReason::Ambiguous, what),
            };
        if matches!(resource, UamResource::Component(_)) {
            return fail(
                ReadFailureReason::UnsupportedResource,
                format!(
                    "Resource {} is a component; query it with queryEntity instead.",
                    selector.resource_id
                ),
            );
        }
        let Some(bytes) = resource.source_path().and_then(|path| self.bytes.get(path)) else {
            return fail(
                ReadFailureReason::BytesUnavailable,
                format!(
                    "The bytes of resource {} are not loaded: its file was missing or unreadable when the session opened.",
                    selector.resource_id
                ),
            );
        };
        if bytes.len() as u64 > RESOURCE_BYTES_MAX {
            return fail(
                ReadFailureReason::ResponseBudgetExceeded,
                format!(
                    "Resource {} has {} bytes, more than the {} bytes one read may return.",
                    selector.resource_id,
                    bytes.len(),
                    RESOURCE_BYTES_MAX
                ),
            );
        }
        Ok(bytes)
    }
}

/// Most entries (entities plus files) a preview may list.
const PREVIEW_MAX_ENTRIES: usize =
    ofgui_contracts::capabilities::PREVIEW_LIMITS.max_entries as usize;
/// Largest serialized preview.
const PREVIEW_MAX_BYTES: usize = ofgui_contracts::capabilities::PREVIEW_LIMITS.max_bytes as usize;

/// A refused write: the error and the diagnostics that explain it.
#[derive(Debug)]
pub struct Rejected {
    pub error: BackendError,
    pub diagnostics: Vec<BackendDiagnostic>,
}

impl From<BackendError> for Rejected {
    fn from(error: BackendError) -> Self {
        Rejected {
            error,
            diagnostics: Vec::new(),
        }
    }
}

/// Serializes a result; our own types always serialize, so a failure is a bug, reported
/// as `backend_unhandled_error` with its cause on stderr (the host's log), never as an
/// empty or partial result.
pub fn encode<T: serde::Serialize + ?Sized>(value: &T) -> Result<String, BackendError> {
    serde_json::to_string(value).map_err(|error| {
        eprintln!("ofgui-backend: a result could not be serialized: {error}");
        BackendError::unhandled(UnhandledReason::Internal)
    })
}

/// Decodes the `operations` field strictly: 1 to [`MAX_OPERATIONS`] operations, each
/// exactly one of the operation schemas. The first malformed one is `invalid_input` at
/// its JSON pointer.
fn decode_operations(text: &str) -> Result<Vec<Operation>, BackendError> {
    let shape = || {
        BackendError::invalid_input(
            format!("operations must hold 1 to {MAX_OPERATIONS} operations."),
            Some("/operations".into()),
        )
    };
    // Each operation stays text until it is decoded strictly, so a batch carrying
    // megabytes of byte values is never held as a tree of JSON numbers.
    let operations: Vec<&RawValue> = serde_json::from_str(text).map_err(|_| shape())?;
    if operations.is_empty() || operations.len() > MAX_OPERATIONS {
        return Err(shape());
    }
    operations
        .iter()
        .enumerate()
        .map(|(index, operation)| {
            strict::from_str::<Operation>(operation.get(), &format!("/operations/{index}")).map_err(
                |error| {
                    BackendError::invalid_input(
                        format!("Operation {index} is malformed: {}", error.message),
                        Some(error.path),
                    )
                },
            )
        })
        .collect()
}

/// The contract error of a refused batch, with its issues as diagnostics.
fn rejected(failure: txn::Failure, operations: &[Operation]) -> Rejected {
    let diagnostics = failure.issues.iter().map(Issue::diagnostic).collect();
    let first = failure.first_issue();
    let op_kind = first
        .map(|issue| issue.operation_kind.to_string())
        .filter(|kind| !kind.is_empty());
    let selector = first
        .and_then(|issue| operations.get(issue.op_index))
        .and_then(|operation| {
            serde_json::to_value(operation)
                .map_err(|error| {
                    eprintln!("ofgui-backend: an operation does not serialize: {error}")
                })
                .ok()
        })
        .and_then(|operation| operation.get("selector").cloned());
    let rejection = TransactionRejection {
        message: failure.message.clone(),
        stage: failure.stage.into(),
        op_index: first.map(|issue| issue.op_index as u32),
        op_id: first.and_then(|issue| issue.op_id.clone()),
        operation_kind: op_kind.clone(),
        op_kind,
        selector,
        issues: failure
            .issues
            .iter()
            .map(|issue| SupportIssue {
                code: issue.code.into(),
                path: issue.path.clone(),
                message: issue.message.clone(),
                operation_kind: Some(issue.operation_kind.to_string())
                    .filter(|kind| !kind.is_empty()),
                node_kind: issue.node_kind.clone(),
                resource_kind: issue.resource_kind.clone(),
                gear_kind: issue.gear_kind.clone(),
                field: issue.field.clone(),
            })
            .collect(),
    };
    let error = if failure.code == DiagnosticCode::SelectorAmbiguity {
        BackendError::SelectorAmbiguity(rejection)
    } else {
        BackendError::TransactionUnsupported(rejection)
    };
    Rejected { error, diagnostics }
}

/// [`SessionStateData`] by reference: the model is serialized in place, never cloned.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct SessionStateView<'a> {
    session_id: &'a str,
    revision: u64,
    last_saved_revision: u64,
    dirty: bool,
    uam_fidelity: UamFidelity,
    project: &'a UamProject,
    read_diagnostics: &'a [ProjectDiagnostic],
    read_complete: bool,
}
