//! The WIT adapter: decodes `ofgui:backend/session` calls once, runs them on the session
//! core, and encodes the typed reply or error once. Only built for WebAssembly; the
//! session core it calls is plain Rust tested natively.

mod bindings {
    wit_bindgen::generate!({ world: "backend", path: "../wit" });

    use super::BackendComponent;
    export!(BackendComponent);
}

use std::cell::RefCell;

use bindings::exports::ofgui::backend::session::{
    self as wit, BytesReply, DocumentRequest, ErrorCode as WitCode, Guest, GuestProject,
    OpenRequest, Opened, PictureReply, ProjectSummary, Reply, SaveReply, SessionStatus,
    UamFidelity,
};
use ofgui_contracts::api::{self, Change as ImpactChange, ResourceSelector};
use ofgui_contracts::envelope::BackendDiagnostic;
use ofgui_contracts::error::{BackendError, ErrorCode};
use serde_json::Value;

use crate::commit;
use crate::fs::ProjectDir;
use crate::session::history::Direction;
use crate::session::{Names, Rejected, Session, Status, encode};
use crate::session::{output, publishing};
use crate::{outline, preview, query, report, scope, search};

struct BackendComponent;

impl Guest for BackendComponent {
    type Project = ProjectSession;
}

/// The `project` resource: one session, mutated only through `&self` per the ABI.
struct ProjectSession {
    session: RefCell<Session>,
    /// The packages the last `publish` kept with their bytes, for `publish-package`.
    published: RefCell<Option<KeptOutput>>,
}

/// What a `publish` kept for the `publish-package` calls that follow it: valid only for
/// the same input (whatever revision it expects) at the same revision.
struct KeptOutput {
    input: api::PublishProjectInput,
    revision: u64,
    packages: Vec<crate::publish::PublishedPackage>,
}

type WitResult<T> = Result<T, wit::BackendError>;

impl GuestProject for ProjectSession {
    fn open(request: OpenRequest) -> WitResult<Opened> {
        let names = Names {
            session_id: request.session_id,
            project_path: request.project_path,
            canonical_path_key: request.canonical_path_key,
        };
        // The preopened project directory is the component's only storage.
        let fs = ProjectDir::project();
        // A save interrupted by a crash is finished or undone before anything is read,
        // so the session sees the old project or the new one, never a mix.
        let recovery = match commit::recover(&fs) {
            Ok(recovery) => recovery,
            Err(error) => {
                return Err(to_wit(
                    BackendError::ProjectOpenFailed {
                        message: error.to_string(),
                        reason: ofgui_contracts::error::OpenFailureReason::ProjectReadFailed,
                        project_path: names.project_path,
                    },
                    &[],
                    None,
                ));
            }
        };
        let session = Session::open(&fs, names, &request.fairy_file, request.revision)
            .map_err(|error| to_wit(error, &[], None))?;
        let status = to_wit_status(session.status());
        let project = wit::Project::new(ProjectSession {
            session: RefCell::new(session),
            published: RefCell::new(None),
        });
        Ok(Opened {
            project,
            status,
            recovery: match recovery {
                commit::Recovery::Clean => wit::Recovery::Clean,
                commit::Recovery::RolledBack { discarded } => wit::Recovery::Undone(discarded),
                commit::Recovery::RolledForward { completed, .. } => {
                    wit::Recovery::Completed(completed)
                }
            },
        })
    }

    fn open_document(
        request: DocumentRequest,
        document: String,
    ) -> WitResult<(wit::Project, SessionStatus)> {
        let names = Names {
            session_id: request.session_id,
            project_path: String::new(),
            canonical_path_key: request.canonical_path_key,
        };
        let session = Session::from_document(names, &document, request.fairy_file.as_deref())
            .map_err(|error| to_wit(error, &[], None))?;
        let status = to_wit_status(session.status());
        let project = wit::Project::new(ProjectSession {
            session: RefCell::new(session),
            published: RefCell::new(None),
        });
        Ok((project, status))
    }

    fn status(&self) -> SessionStatus {
        to_wit_status(self.session.borrow().status())
    }

    fn outline(&self, input: String) -> WitResult<Reply> {
        let session = self.session.borrow();
        let answer =
            scope::decode_input(&input).and_then(|input| outline::outline(&session, &input));
        let (data, warning) = match answer {
            Ok((outline, warning)) => (encode(&outline), warning),
            Err(error) => (Err(error), None),
        };
        let additions = encode(&session.project().project_type_name).and_then(|type_name| {
            let mut fields = vec![("projectTypeName", type_name)];
            if let Some(warning) = warning {
                fields.push(("warnings", encode(&[warning])?));
            }
            Ok(addition_fields(&fields))
        });
        reply(&session, data, &[], Some(additions))
    }

    fn apply(&self, expected_revision: u64, operations: String) -> WitResult<Reply> {
        let mut session = self.session.borrow_mut();
        match session.apply(expected_revision, &operations) {
            // Upstream's result is the session's state, which the host knows; the
            // component's part is what it generated.
            Ok(generated) => {
                let additions = addition("generated", &generated);
                reply(&session, Ok("null".into()), &[], Some(additions))
            }
            Err(rejected) => Err(refused(&session, rejected)),
        }
    }

    fn step_history(&self, expected_revision: u64, redo: bool, preview: bool) -> WitResult<Reply> {
        let direction = match redo {
            true => Direction::Redo,
            false => Direction::Undo,
        };
        if preview {
            let session = self.session.borrow();
            return match session.preview_step(expected_revision, direction) {
                Ok(preview) => reply(&session, Ok(preview), &[], None),
                Err(rejected) => Err(refused(&session, rejected)),
            };
        }
        let mut session = self.session.borrow_mut();
        match session.step(expected_revision, direction) {
            Ok(()) => reply(&session, Ok("null".into()), &[], None),
            Err(rejected) => Err(refused(&session, rejected)),
        }
    }

    fn history(&self, input: String) -> WitResult<Reply> {
        let session = self.session.borrow();
        let data = scope::decode_input::<api::HistoryInput>(&input).and_then(|input| {
            let limit = input.limit.unwrap_or(DEFAULT_HISTORY_ENTRIES) as usize;
            encode(&session.history(limit, false))
        });
        reply(&session, data, &[], None)
    }

    fn preflight(&self, expected_revision: u64, operations: String) -> WitResult<Reply> {
        let session = self.session.borrow();
        match session.preflight(expected_revision, &operations) {
            Ok((preview, generated)) => {
                let additions = addition("generated", &generated);
                reply(&session, Ok(preview), &[], Some(additions))
            }
            Err(rejected) => Err(refused(&session, rejected)),
        }
    }

    fn validate(&self) -> WitResult<Reply> {
        let session = self.session.borrow();
        let report = session.validate();
        let mirrored: Vec<BackendDiagnostic> = report
            .diagnostics
            .iter()
            .map(BackendDiagnostic::from_finding)
            .collect();
        reply(&session, encode(&report), &mirrored, None)
    }

    fn validate_page(&self, input: String) -> WitResult<Reply> {
        let session = self.session.borrow();
        let page =
            match scope::decode_input(&input).and_then(|input| report::page(&session, &input)) {
                Ok(page) => page,
                Err(error) => return reply(&session, Err(error), &[], None),
            };
        let mirrored: Vec<BackendDiagnostic> = page
            .report
            .diagnostics
            .iter()
            .map(BackendDiagnostic::from_finding)
            .collect();
        // Findings follow: where the next page starts, and the warning that says so.
        let additions =
            page.next_cursor
                .as_ref()
                .zip(page.warning.as_ref())
                .map(|(cursor, warning)| {
                    Ok(addition_fields(&[
                        ("nextCursor", encode(cursor)?),
                        ("warnings", encode(&[warning])?),
                    ]))
                });
        reply(&session, encode(&page.report), &mirrored, additions)
    }

    fn call(&self, method: String, input: String) -> WitResult<Reply> {
        use ofgui_contracts::methods::{MethodId, by_name};
        match by_name(&method).map(|row| row.id) {
            Some(MethodId::GetProjectOutline) => self.outline(input),
            Some(MethodId::SearchProject) => self.search(input),
            Some(MethodId::ValidateSession) => self.validate_page(input),
            Some(MethodId::ReadSessionState) => self.read_state(input),
            Some(MethodId::GetHistory) => self.history(input),
            Some(MethodId::Review) => self.review(input),
            Some(MethodId::ExportStrings) => self.export_strings(input),
            Some(MethodId::CheckStrings) => self.check_strings(input),
            Some(MethodId::SweepStrings) => self.sweep_strings(input),
            Some(MethodId::QueryEntity) => self.query_entity(target_of(&input)),
            _ => {
                let session = self.session.borrow();
                let error = BackendError::invalid_input(
                    format!(
                        "`call` runs getProjectOutline, searchProject, validateSession, readSessionState, getHistory, review, exportStrings, checkStrings, sweepStrings and queryEntity; {} is not one of them.",
                        ofgui_contracts::echo::clip(&format!("{method:?}"), 80)
                    ),
                    Some("/method".into()),
                );
                Err(to_wit(error, &[], Some(session.status())))
            }
        }
    }

    fn query_entity(&self, target: String) -> WitResult<Reply> {
        let session = self.session.borrow();
        let data = serde_json::from_str::<Value>(&target)
            .map_err(|_| {
                BackendError::invalid_input("target must be a JSON object.", Some("/target".into()))
            })
            .and_then(|target| query::query_entity(&session, &target));
        reply(&session, data, &[], None)
    }

    fn read_state(&self, input: String) -> WitResult<Reply> {
        let session = self.session.borrow();
        let data = scope::decode_input(&input).and_then(|input| session.read_state(&input));
        reply(&session, data, &[], None)
    }

    fn search(&self, input: String) -> WitResult<Reply> {
        let session = self.session.borrow();
        let data = scope::decode_input(&input)
            .and_then(|input| search::search(&session, &input))
            .and_then(|found| encode(&found));
        reply(&session, data, &[], None)
    }

    fn read_resource_bytes(
        &self,
        expected_revision: u64,
        package_id: String,
        resource_id: String,
    ) -> WitResult<BytesReply> {
        let selector = ResourceSelector {
            package_id,
            resource_id,
        };
        let session = self.session.borrow();
        let status = session.status();
        match session.read_resource_bytes(expected_revision, &selector) {
            Ok(bytes) => Ok(BytesReply {
                status: to_wit_status(status),
                bytes: bytes.to_vec(),
            }),
            Err(error) => Err(to_wit(error, &[], Some(status))),
        }
    }

    fn render(&self, input: String) -> WitResult<PictureReply> {
        let session = self.session.borrow();
        let drawn = scope::decode_input(&input)
            .map_err(Rejected::from)
            .and_then(|input| preview::render_component(&session, &input));
        match drawn {
            Ok(picture) => Ok(PictureReply {
                status: to_wit_status(session.status()),
                data: picture.data,
                png: picture.png,
            }),
            Err(rejected) => Err(refused(&session, rejected)),
        }
    }

    fn publish(&self, input: String) -> WitResult<wit::PublishReply> {
        let session = self.session.borrow();
        // An earlier publish's output is dropped before this one is made.
        self.published.replace(None);
        let decoded: api::PublishProjectInput =
            scope::decode_input(&input).map_err(|error| refused(&session, error.into()))?;
        let mut publication =
            publishing::publish(&session, &decoded, publishing::KEPT_OUTPUT_BYTES)
                .map_err(|rejected| refused(&session, rejected))?;
        let data = encode(&publication.data).map_err(|e| to_wit(e, &[], Some(session.status())))?;
        // The bytes stay here until `publish-package` asks for them; the reply names files.
        let packages = publication
            .packages
            .iter_mut()
            .map(|package| wit::PackageOutput {
                package_name: package.package_name.clone(),
                files: package
                    .files
                    .iter()
                    .map(|file| wit::OutputFile {
                        name: file.name.clone(),
                        bytes: Vec::new(),
                    })
                    .collect(),
            })
            .collect();
        let kept = publication
            .packages
            .into_iter()
            .filter(|package| publication.kept.contains(&package.package_name))
            .collect();
        self.published.replace(Some(KeptOutput {
            input: api::PublishProjectInput {
                expected_revision: None,
                ..decoded
            },
            revision: session.status().revision,
            packages: kept,
        }));
        Ok(wit::PublishReply {
            status: to_wit_status(session.status()),
            data,
            packages,
            settings_output_path: publication.settings_output_path,
            project_packages: session
                .project()
                .packages
                .iter()
                .map(|p| p.name.clone())
                .collect(),
            code: publication
                .code
                .into_iter()
                .map(|dir| wit::CodeOutput {
                    code_dir: dir.code_dir,
                    folders: dir
                        .folders
                        .into_iter()
                        .map(|folder| wit::CodeFolder {
                            folder: folder.folder,
                            files: output_files(folder.files),
                        })
                        .collect(),
                })
                .collect(),
        })
    }

    fn publish_package(
        &self,
        input: String,
        package_name: String,
    ) -> WitResult<wit::PackageOutput> {
        let session = self.session.borrow();
        let decoded: api::PublishProjectInput =
            scope::decode_input(&input).map_err(|error| refused(&session, error.into()))?;
        if let Some(expected) = decoded.expected_revision {
            session
                .check_revision(expected)
                .map_err(|error| refused(&session, error.into()))?;
        }
        let revision = session.status().revision;
        let same_input = api::PublishProjectInput {
            expected_revision: None,
            ..decoded.clone()
        };
        let kept = {
            let mut published = self.published.borrow_mut();
            match published.as_mut() {
                Some(kept) if kept.input == same_input && kept.revision == revision => kept
                    .packages
                    .iter()
                    .position(|p| p.package_name == package_name)
                    .map(|at| kept.packages.swap_remove(at)),
                _ => None,
            }
        };
        let package = match kept {
            Some(package) => package,
            None => publishing::publish_one(&session, &decoded, &package_name)
                .map_err(|rejected| refused(&session, rejected))?,
        };
        Ok(wit::PackageOutput {
            package_name: package.package_name,
            files: output_files(
                package
                    .files
                    .into_iter()
                    .map(|file| (file.name, file.bytes))
                    .collect(),
            ),
        })
    }

    fn save(&self, expected_revision: Option<u64>) -> WitResult<SaveReply> {
        self.write(false, expected_revision)
    }

    fn materialize(&self, expected_revision: Option<u64>) -> WitResult<SaveReply> {
        self.write(true, expected_revision)
    }

    fn planned_writes(
        &self,
        materialize: bool,
        expected_revision: Option<u64>,
    ) -> WitResult<wit::PlannedWrites> {
        let session = self.session.borrow();
        match session.planned_writes(&ProjectDir::project(), materialize, expected_revision) {
            Ok(files) => Ok(wit::PlannedWrites {
                status: to_wit_status(session.status()),
                files: files
                    .into_iter()
                    .map(|file| wit::PlannedFile {
                        path: file.path,
                        change: match file.change {
                            ImpactChange::Added => wit::FileChange::Added,
                            ImpactChange::Updated => wit::FileChange::Updated,
                            ImpactChange::Removed => wit::FileChange::Removed,
                        },
                    })
                    .collect(),
            }),
            Err(rejected) => Err(refused(&session, rejected)),
        }
    }
}

impl ProjectSession {
    fn check_strings(&self, input: String) -> WitResult<Reply> {
        let session = self.session.borrow();
        let data = scope::decode_input::<api::TranslationInput>(&input)
            .and_then(|input| {
                session
                    .check_strings(&input)
                    .map_err(|rejected| rejected.error)
            })
            .and_then(|check| encode(&check));
        reply(&session, data, &[], None)
    }

    fn sweep_strings(&self, input: String) -> WitResult<Reply> {
        let session = self.session.borrow();
        let data = scope::decode_input::<api::TranslationInput>(&input)
            .and_then(|input| {
                preview::sweep::sweep(&session, &input).map_err(|rejected| rejected.error)
            })
            .and_then(|sweep| encode(&sweep));
        reply(&session, data, &[], None)
    }

    fn export_strings(&self, input: String) -> WitResult<Reply> {
        let session = self.session.borrow();
        let data = scope::decode_input::<api::ExportStringsInput>(&input)
            .and_then(|input| {
                session
                    .export_strings(&input)
                    .map_err(|rejected| rejected.error)
            })
            .and_then(|export| encode(&export));
        reply(&session, data, &[], None)
    }

    fn review(&self, input: String) -> WitResult<Reply> {
        let session = self.session.borrow();
        let data = scope::decode_input::<api::ReviewInput>(&input).and_then(|input| {
            let limit = input.limit.unwrap_or(DEFAULT_HISTORY_ENTRIES) as usize;
            encode(&session.review(&ProjectDir::project(), limit))
        });
        reply(&session, data, &[], None)
    }
    fn write(&self, materialize: bool, expected_revision: Option<u64>) -> WitResult<SaveReply> {
        let mut session = self.session.borrow_mut();
        let fs = ProjectDir::project();
        let result = if materialize {
            session.materialize(&fs, expected_revision)
        } else {
            session.save(&fs, expected_revision).map_err(Rejected::from)
        };
        match result {
            Ok(report) => Ok(SaveReply {
                status: to_wit_status(session.status()),
                written_paths: report.written,
                skipped_paths: report.skipped,
                removed_paths: report.removed,
                created_directories: report.created_dirs,
                removed_directories: report.removed_dirs,
                kept_directories: report.kept_dirs,
                recovered_paths: report.recovered,
                write_verified: report.verified,
            }),
            Err(rejected) => Err(refused(&session, rejected)),
        }
    }
}

fn output_files(files: Vec<(String, Vec<u8>)>) -> Vec<wit::OutputFile> {
    files
        .into_iter()
        .map(|(name, bytes)| wit::OutputFile { name, bytes })
        .collect()
}

fn file_pairs(files: Vec<wit::OutputFile>) -> Vec<(String, Vec<u8>)> {
    files
        .into_iter()
        .map(|file| (file.name, file.bytes))
        .collect()
}

/// Runs a write in the output instance, whose only preopen is the target directory, with
/// the save's test faults (a crash at a step, a full disk) applied too.
fn in_output_dir(
    write: impl FnOnce(
        &dyn crate::fs::ProjectFsWrite,
        commit::Hook<'_>,
    ) -> Result<output::OutputReport, Rejected>,
) -> Result<bindings::exports::ofgui::backend::output::OutputReport, wit::BackendError> {
    let fs = ProjectDir::project();
    let mut hook = commit::fault::configured();
    let limited =
        commit::fault::configured_disk_limit().map(|free| commit::fault::DiskLimit::new(&fs, free));
    let target: &dyn crate::fs::ProjectFsWrite = match &limited {
        Some(limited) => limited,
        None => &fs,
    };
    match write(target, &mut hook) {
        Ok(report) => Ok(bindings::exports::ofgui::backend::output::OutputReport {
            written: report.written,
            unchanged: report.unchanged,
            removed: report.removed,
            recovered: report.recovered,
        }),
        Err(rejected) => Err(to_wit(rejected.error, &rejected.diagnostics, None)),
    }
}

impl bindings::exports::ofgui::backend::output::Guest for BackendComponent {
    fn write_code(
        session_id: String,
        folders: Vec<wit::CodeFolder>,
    ) -> Result<bindings::exports::ofgui::backend::output::OutputReport, wit::BackendError> {
        let folders: Vec<output::CodeFolder> = folders
            .into_iter()
            .map(|folder| output::CodeFolder {
                folder: folder.folder,
                files: file_pairs(folder.files),
            })
            .collect();
        in_output_dir(|fs, hook| output::write_code(fs, &session_id, folders, hook))
    }

    fn write_packages(
        session_id: String,
        packages: Vec<wit::PackageOutput>,
        project_packages: Vec<String>,
    ) -> Result<bindings::exports::ofgui::backend::output::OutputReport, wit::BackendError> {
        let packages: Vec<output::PackageFiles> = packages
            .into_iter()
            .map(|package| output::PackageFiles {
                package_name: package.package_name,
                files: file_pairs(package.files),
            })
            .collect();
        in_output_dir(|fs, hook| {
            output::write_packages(fs, &session_id, packages, &project_packages, hook)
        })
    }
}

/// A call's data and additions with the session's status, or its error with the same
/// status.
/// Entries a history read lists when the input names no `limit`.
const DEFAULT_HISTORY_ENTRIES: u32 = 50;

/// A `queryEntity` input's `target` as JSON text (`null` when it has none, which the query
/// refuses as `invalid_query`, as it does a target that is not an object).
fn target_of(input: &str) -> String {
    #[derive(serde::Deserialize)]
    struct Target<'a> {
        #[serde(borrow)]
        target: Option<&'a serde_json::value::RawValue>,
    }
    serde_json::from_str::<Target<'_>>(input)
        .ok()
        .and_then(|input| input.target)
        .map_or_else(|| "null".to_string(), |target| target.get().to_string())
}

fn reply(
    session: &Session,
    data: Result<String, BackendError>,
    diagnostics: &[BackendDiagnostic],
    additions: Option<Result<String, BackendError>>,
) -> WitResult<Reply> {
    let status = session.status();
    let failed = |error| to_wit(error, &[], Some(status));
    let data = data.map_err(failed)?;
    let diagnostics = encode(diagnostics).map_err(failed)?;
    let additions = additions.transpose().map_err(failed)?;
    Ok(Reply {
        status: to_wit_status(status),
        data,
        diagnostics,
        additions,
    })
}

/// An `Additions` object of one field (`contracts::additions`), written without a
/// serializer of its own: the component stays inside its size budget.
fn addition(field: &str, value: &impl serde::Serialize) -> Result<String, BackendError> {
    Ok(addition_fields(&[(field, encode(value)?)]))
}

/// An `Additions` object of fields already encoded.
fn addition_fields(fields: &[(&str, String)]) -> String {
    let fields: Vec<String> = fields
        .iter()
        .map(|(field, value)| format!(r#""{field}":{value}"#))
        .collect();
    format!("{{{}}}", fields.join(","))
}

/// A refused write, with the status it was checked against.
fn refused(session: &Session, rejected: Rejected) -> wit::BackendError {
    to_wit(
        rejected.error,
        &rejected.diagnostics,
        Some(session.status()),
    )
}

/// Splits a contract error into the WIT code, message and the code's own fields.
fn to_wit(
    error: BackendError,
    diagnostics: &[BackendDiagnostic],
    status: Option<Status>,
) -> wit::BackendError {
    let status = status.map(to_wit_status);
    let encoded = error.into_parts().and_then(|parts| {
        let details = serde_json::to_string(&parts.details)?;
        let diagnostics = serde_json::to_string(diagnostics)?;
        Ok((parts, details, diagnostics))
    });
    match encoded {
        Ok((parts, details, diagnostics)) => wit::BackendError {
            code: to_wit_code(parts.code),
            message: parts.message,
            details,
            diagnostics,
            status,
        },
        Err(cause) => {
            eprintln!("ofgui-backend: an error could not be serialized: {cause}");
            let fallback =
                BackendError::unhandled(ofgui_contracts::error::UnhandledReason::Internal);
            wit::BackendError {
                code: to_wit_code(fallback.code()),
                message: fallback.message().to_string(),
                details: r#"{"reason":"internal"}"#.into(),
                diagnostics: "[]".into(),
                status,
            }
        }
    }
}

fn to_wit_status(status: Status) -> SessionStatus {
    SessionStatus {
        revision: status.revision,
        last_saved_revision: status.last_saved_revision,
        dirty: status.dirty,
        fidelity: match status.fidelity {
            api::UamFidelity::Full => UamFidelity::Full,
            api::UamFidelity::Unsupported => UamFidelity::Unsupported,
        },
        summary: ProjectSummary {
            package_count: status.summary.package_count,
            resource_count: status.summary.resource_count,
        },
    }
}

/// Every contract code has its WIT case; the host maps them back the same way.
fn to_wit_code(code: ErrorCode) -> WitCode {
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
        ErrorCode::PublishRefused => WitCode::PublishRefused,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ofgui_contracts::error::{ErrorParts, examples};

    /// The canonical ABI carries an enum case by its position in the WIT, so each code
    /// must land on the case at its own position in [`ErrorCode::ALL`]; the host maps
    /// positions back the same way (`host/src/bindings.rs`).
    #[test]
    fn every_code_lands_on_its_wit_position() {
        for (position, code) in ErrorCode::ALL.into_iter().enumerate() {
            assert_eq!(to_wit_code(code) as usize, position, "{code}");
        }
    }

    #[test]
    fn every_error_is_rebuilt_from_what_crosses_the_boundary() {
        for error in examples() {
            let status = Status {
                revision: 4,
                last_saved_revision: 1,
                dirty: true,
                fidelity: api::UamFidelity::Full,
                summary: crate::session::Summary {
                    package_count: 2,
                    resource_count: 9,
                },
            };
            let diagnostic = BackendDiagnostic::error(error.code().as_str(), "why");
            let crossed = to_wit(
                error.clone(),
                std::slice::from_ref(&diagnostic),
                Some(status),
            );
            let code = ErrorCode::ALL[crossed.code as usize];
            let details = serde_json::from_str(&crossed.details).expect("details are an object");
            let rebuilt = BackendError::from_parts(ErrorParts {
                code,
                message: crossed.message,
                details,
            })
            .expect("fields fit the code");
            assert_eq!(rebuilt, error);
            let diagnostics: Vec<BackendDiagnostic> =
                serde_json::from_str(&crossed.diagnostics).expect("diagnostics are an array");
            assert_eq!(diagnostics, vec![diagnostic]);
            assert_eq!(crossed.status.map(|s| s.revision), Some(4));
        }
    }
}
