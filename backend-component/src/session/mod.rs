//! One open project: the model, its bytes, its revision and what the reader found, and
//! every method a session serves.
//!
//! This file opens a session and runs batches on it (apply, preview, undo and redo over
//! [`history`]); [`reads`] answers validation, the whole state and a resource's bytes;
//! [`writes`] saves and materializes through [`save`]; [`publishing`] publishes, writing
//! through [`output`]; [`document`] opens a session from a document instead of a
//! directory; [`decode`] reads a batch as sent.

mod decode;
pub mod document;
pub mod history;
pub mod output;
pub mod publishing;
mod reads;
mod review;
pub mod save;
mod strings;
mod writes;

use self::decode::{decode_operations, rejected};
use std::cell::RefCell;
use std::collections::BTreeMap;

use ofgui_contracts::api::{
    Change as ImpactChange, FileImpact, FileKind, GeneratedValues, Persistence, SessionHistory,
    TransactionPreview, UamFidelity,
};
use ofgui_contracts::catalog::DiagnosticCode;
use ofgui_contracts::diagnostics::ProjectDiagnostic;
use ofgui_contracts::envelope::{BackendDiagnostic, False, True};
use ofgui_contracts::error::{BackendError, OpenFailureReason};
use ofgui_contracts::error::{
    PreviewFailureReason, SupportIssue, TransactionRejection, UnhandledReason,
};
use ofgui_contracts::ops::Operation;
use ofgui_contracts::uam::UamProject;

use crate::commit::{Change, ContentHash, Expect, Plan};
use crate::fs::ProjectFs;
use crate::reader::{self, ReadError};
use crate::session::history::{Direction, History, State, Step};

use crate::txn::{self};
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
    /// What undo and redo can step to; also whether the model is the disk's (dirty).
    history: History,
    fidelity: UamFidelity,
    /// What the disk holds as far as the session knows (as read at open or written by
    /// the last save): the base every save patches. `None` for a session opened from a
    /// document with no directory to write it to.
    disk: Option<OnDisk>,
    origin: Origin,
    /// The plan the last `planned_writes` made, kept for the write that follows it at the
    /// same revision: a host asks what a save would write (to check the disk, or to ask a
    /// person), then saves, and the save is planned once.
    planned: RefCell<Option<Planned>>,
}

/// A write's plan and what it was made for.
#[derive(Debug)]
struct Planned {
    revision: u64,
    materialize: bool,
    plan: Plan,
}

/// Where the model came from, which decides what an asset without bytes means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// Read from disk: the reader reported every file it could not read.
    Read,
    /// Given as a document: an asset without bytes was simply not given any.
    Document,
}

/// The project files as the session last saw them on disk.
#[derive(Debug)]
struct OnDisk {
    fairy_file: String,
    project: UamProject,
    /// Bytes of every XML and JSON source file, by project-relative path.
    documents: BTreeMap<String, Vec<u8>>,
    /// For each asset path the session's edits touched, what the disk holds there.
    assets: BTreeMap<String, Option<Vec<u8>>>,
    /// Files read from another letter case than declared: declared path → path on disk,
    /// where saves write them (`save::DiskPaths`).
    found_at: BTreeMap<String, String>,
}

/// One half of a before/after picture: a model, and the file bytes that differ from the
/// session's.
pub struct Side<'s> {
    pub project: &'s UamProject,
    pub overlay: Option<&'s BTreeMap<String, Option<Vec<u8>>>>,
}

/// What a save or materialize did.
pub use crate::session::save::Report as SaveReport;

/// The revision and save state of a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    pub revision: u64,
    pub last_saved_revision: u64,
    pub dirty: bool,
    pub fidelity: UamFidelity,
    pub summary: Summary,
}

/// Counts of the committed model (what a host's cache indexes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    pub package_count: u32,
    /// Resources of every package together.
    pub resource_count: u32,
}

impl Session {
    /// Reads the project whose `.fairy` file is `fairy_file` in the root of `fs`.
    pub fn open(
        fs: &dyn ProjectFs,
        names: Names,
        fairy_file: &str,
        revision: u64,
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
            disk: Some(OnDisk {
                fairy_file: fairy_file.to_string(),
                project: source.project.clone(),
                documents: source.documents,
                assets: BTreeMap::new(),
                found_at: source.found_at,
            }),
            origin: Origin::Read,
            planned: RefCell::default(),
            project: source.project,
            bytes: source.bytes,
            reader_diagnostics: source.diagnostics,
            reader_complete: source.complete,
            read_diagnostics,
            read_complete: source.complete && files_checked,
            revision,
            last_saved_revision: revision,
            history: History::new(),
            fidelity,
        })
    }

    /// A session over a project given as `document` (`ProjectDocument` JSON, see
    /// [`crate::session::document`]), at revision 0 with full fidelity and no read diagnostics.
    /// With `fairy_file` the session's storage is a directory that holds nothing yet, into
    /// which the first materialize writes the whole project under that `.fairy` name;
    /// without it the session has no storage.
    pub fn from_document(
        names: Names,
        document: &str,
        fairy_file: Option<&str>,
    ) -> Result<Session, BackendError> {
        let decoded = crate::session::document::decode(document)?;
        let disk = fairy_file.map(|fairy_file| OnDisk {
            fairy_file: fairy_file.to_string(),
            // Nothing is on disk yet: no documents, and no file at any asset's path.
            project: UamProject {
                project_id: String::new(),
                project_type: crate::rules::UNNUMBERED_PROJECT_TYPE,
                project_type_name: String::new(),
                version: String::new(),
                branches: Vec::new(),
                settings: serde_json::Map::new(),
                packages: Vec::new(),
            },
            documents: BTreeMap::new(),
            assets: decoded
                .bytes
                .keys()
                .map(|path| (path.clone(), None))
                .collect(),
            found_at: BTreeMap::new(),
        });
        Ok(Session {
            id: names.session_id,
            canonical_path_key: names.canonical_path_key,
            disk,
            origin: Origin::Document,
            planned: RefCell::default(),
            project: decoded.project,
            bytes: decoded.bytes,
            reader_diagnostics: Vec::new(),
            reader_complete: true,
            read_diagnostics: Vec::new(),
            read_complete: true,
            revision: 0,
            last_saved_revision: 0,
            history: History::new(),
            fidelity: UamFidelity::Full,
        })
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn project(&self) -> &UamProject {
        &self.project
    }

    pub fn status(&self) -> Status {
        let packages = &self.project.packages;
        Status {
            revision: self.revision,
            last_saved_revision: self.last_saved_revision,
            dirty: self.history.dirty(),
            fidelity: self.fidelity,
            summary: Summary {
                package_count: packages.len() as u32,
                resource_count: packages.iter().map(|p| p.resources.len() as u32).sum(),
            },
        }
    }

    pub fn read_diagnostics(&self) -> &[ProjectDiagnostic] {
        &self.read_diagnostics
    }

    pub(crate) fn check_revision(&self, expected: u64) -> Result<(), BackendError> {
        if expected == self.revision {
            Ok(())
        } else {
            Err(BackendError::stale_read(&self.id, expected, self.revision))
        }
    }

    /// Applies a batch all or nothing: on success the revision advances by one and the
    /// session is dirty; on failure nothing changes. `operations` is the JSON array of
    /// the method's `operations` field. Returns what the server filled in for fields the
    /// operations left out.
    pub fn apply(
        &mut self,
        expected_revision: u64,
        operations: &str,
    ) -> Result<Vec<GeneratedValues>, Rejected> {
        let (applied, kinds) = self.run(expected_revision, operations)?;
        let before = State {
            project: self.project.clone(),
            files: applied
                .bytes
                .keys()
                .map(|path| (path.clone(), self.bytes.get(path).cloned()))
                .collect(),
        };
        let after = State {
            project: applied.project,
            files: applied.bytes.into_iter().collect(),
        };
        self.take_state(after.clone());
        self.history
            .applied(Step::new(self.revision, before, after, kinds, operations));
        Ok(applied.generated)
    }

    /// Undoes the last applied (or redone) batch, or redoes the last undone one, as a new
    /// revision.
    pub fn step(&mut self, expected_revision: u64, direction: Direction) -> Result<(), Rejected> {
        if expected_revision != self.revision {
            return Err(Rejected::from(self.stale_write(expected_revision)));
        }
        let state = self
            .history
            .step(direction, self.revision + 1)
            .ok_or_else(|| self.nothing_to(direction))?;
        self.take_state(state);
        Ok(())
    }

    /// What an undo or redo would change, as `TransactionPreview` JSON text; nothing
    /// changes.
    pub fn preview_step(
        &self,
        expected_revision: u64,
        direction: Direction,
    ) -> Result<String, Rejected> {
        self.preview(&self.stepped(expected_revision, direction)?)
    }

    /// The model the next undo or redo would give, as a batch's projection is given
    /// (for a picture of it).
    pub fn stepped(
        &self,
        expected_revision: u64,
        direction: Direction,
    ) -> Result<txn::Applied, Rejected> {
        let state = self.next_state(expected_revision, direction)?;
        Ok(txn::Applied {
            project: state.project,
            bytes: state.files.into_iter().collect(),
            generated: Vec::new(),
        })
    }

    /// The model as it is now, as one half of a picture.
    pub fn side_now(&self) -> Side<'_> {
        Side {
            project: &self.project,
            overlay: None,
        }
    }

    /// The two halves of a picture of the kept batch applied at `batch_revision`: before
    /// and after it.
    pub fn batch_sides(&self, batch_revision: u64) -> Result<(Side<'_>, Side<'_>), Rejected> {
        let step = self.history.batch(batch_revision).ok_or_else(|| {
            Rejected::from(BackendError::invalid_input(
                format!(
                    "No kept batch was applied at revision {batch_revision}: previewBatch takes a batchRevision getHistory lists while undo or redo can still reach it."
                ),
                Some("/previewBatch".into()),
            ))
        })?;
        fn side(state: &State) -> Side<'_> {
            Side {
                project: &state.project,
                overlay: Some(&state.files),
            }
        }
        Ok((side(&step.before), side(&step.after)))
    }

    /// The picture's left half for every unsaved edit together: the project as the disk
    /// holds it (as read or last saved).
    pub fn saved_side(&self) -> Result<Side<'_>, Rejected> {
        let disk = self.disk.as_ref().ok_or_else(|| BackendError::CapabilityUnavailable {
            message: "This session was opened from a document and has no directory, so there is no saved project to compare with; previewHistory `unsaved` needs a session opened from a directory.".into(),
            capability: "fileSystem".into(),
        })?;
        Ok(Side {
            project: &disk.project,
            overlay: Some(&disk.assets),
        })
    }

    /// The state the next undo or redo returns to, at the current revision.
    fn next_state(&self, expected_revision: u64, direction: Direction) -> Result<State, Rejected> {
        if expected_revision != self.revision {
            return Err(Rejected::from(self.stale_write(expected_revision)));
        }
        let step = self
            .history
            .next(direction)
            .ok_or_else(|| self.nothing_to(direction))?;
        Ok(match direction {
            Direction::Undo => step.before.clone(),
            Direction::Redo => step.after.clone(),
        })
    }

    fn nothing_to(&self, direction: Direction) -> Rejected {
        let (code, message) = match direction {
            Direction::Undo => (
                DiagnosticCode::NothingToUndo,
                "There is nothing to undo: no applied batch is left to take back.",
            ),
            Direction::Redo => (
                DiagnosticCode::NothingToRedo,
                "There is nothing to redo: no undone batch is waiting (a batch applied after an undo drops what was undone).",
            ),
        };
        let issue = SupportIssue {
            code: code.as_str().into(),
            path: String::new(),
            message: message.into(),
            operation_kind: None,
            node_kind: None,
            resource_kind: None,
            gear_kind: None,
            field: None,
        };
        Rejected {
            diagnostics: vec![BackendDiagnostic::error(code.as_str(), message)],
            error: BackendError::TransactionUnsupported(TransactionRejection::before_running(
                message.into(),
                vec![issue],
            )),
        }
    }

    /// Makes `state` the session's model, as a new revision.
    fn take_state(&mut self, state: State) {
        self.planned.take();
        for (path, bytes) in state.files {
            // The first change of a file since the last save remembers what the disk holds.
            if let Some(disk) = &mut self.disk
                && !disk.assets.contains_key(&path)
            {
                let on_disk = self.bytes.get(&path).cloned();
                disk.assets.insert(path.clone(), on_disk);
            }
            match bytes {
                Some(bytes) => self.bytes.insert(path, bytes),
                None => self.bytes.remove(&path),
            };
        }
        self.project = state.project;
        self.revision += 1;
    }

    /// The session's history: `limit` entries, newest first.
    /// The history, newest first; with `operations`, each kept batch's operations.
    pub fn history(&self, limit: usize, operations: bool) -> SessionHistory {
        let (entries, truncated) = self.history.entries(limit, operations);
        SessionHistory {
            session_id: self.id.clone(),
            revision: self.revision,
            last_saved_revision: self.last_saved_revision,
            dirty: self.history.dirty(),
            undo_count: self.history.undo_count() as u32,
            redo_count: self.history.redo_count() as u32,
            next_undo: self.history.next(Direction::Undo).map(|s| s.batch_revision),
            next_redo: self.history.next(Direction::Redo).map(|s| s.batch_revision),
            entries,
            truncated,
        }
    }

    /// Runs a batch on a copy and reports what it would change as `TransactionPreview`
    /// JSON text, within the preview budget, with the values it would generate; nothing
    /// changes.
    pub fn preflight(
        &self,
        expected_revision: u64,
        operations: &str,
    ) -> Result<(String, Vec<GeneratedValues>), Rejected> {
        let (applied, _) = self.run(expected_revision, operations)?;
        let text = self.preview(&applied)?;
        Ok((text, applied.generated))
    }

    /// What taking `applied` would change, as `TransactionPreview` JSON text within the
    /// preview budget.
    fn preview(&self, applied: &txn::Applied) -> Result<String, Rejected> {
        let replaced = applied
            .bytes
            .iter()
            .filter(|(_, bytes)| bytes.is_some())
            .map(|(path, _)| path.clone())
            .collect();
        let mut impact = txn::impact::impact(&self.project, &applied.project, &replaced);
        if let Some(files) = self.file_impact(applied) {
            impact.files = files;
        }
        let saveable = self.fidelity == UamFidelity::Full;
        let stored = self.disk.is_some();
        let preview = TransactionPreview {
            session_id: self.id.clone(),
            base_revision: self.revision,
            projected_revision: self.revision + 1,
            mode: "execute-and-discard".into(),
            impact,
            persistence: Persistence {
                required_after_apply: True,
                // A session without a directory is written by materializing it into one.
                next_action: match (saveable, stored) {
                    (true, true) => "saveSession",
                    (true, false) => "materializeSession",
                    (false, _) => "host-action",
                }
                .into(),
                file_system_available: saveable && stored,
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

    /// The files the batch changes in the next save: what the writer would write with
    /// the batch applied, compared with what it would write without it. `None` when the
    /// writer cannot plan either (the model difference then stands in).
    fn file_impact(&self, applied: &txn::Applied) -> Option<Vec<FileImpact>> {
        let disk = self.disk.as_ref()?;
        let before = self.plan(disk).ok()?;
        let after = self
            .plan_to(disk, &applied.project, Some(&applied.bytes))
            .ok()?;
        let changes = |plan: &Plan| -> BTreeMap<String, (ImpactChange, Option<ContentHash>)> {
            plan.changes
                .iter()
                .map(|change| match change {
                    Change::Write {
                        path,
                        bytes,
                        expect,
                    } => {
                        let kind = match expect {
                            Expect::Absent => ImpactChange::Added,
                            Expect::Content(_) => ImpactChange::Updated,
                        };
                        (path.clone(), (kind, Some(ContentHash::of(bytes))))
                    }
                    Change::Remove { path, .. } => (path.clone(), (ImpactChange::Removed, None)),
                })
                .collect()
        };
        let (then, now) = (changes(&before), changes(&after));
        let mut files = Vec::new();
        for (path, change) in &now {
            if then.get(path) != Some(change) {
                files.push(file(path, FileKind::File, change.0));
            }
        }
        for path in then.keys().filter(|path| !now.contains_key(*path)) {
            // The batch undoes a pending change: the save no longer touches the file.
            files.push(file(path, FileKind::File, ImpactChange::Updated));
        }
        for dir in after
            .create_dirs
            .iter()
            .filter(|d| !before.create_dirs.contains(d))
        {
            files.push(file(dir, FileKind::Directory, ImpactChange::Added));
        }
        for dir in after
            .remove_dirs
            .iter()
            .filter(|d| !before.remove_dirs.contains(d))
        {
            files.push(file(dir, FileKind::Directory, ImpactChange::Removed));
        }
        files.sort();
        Some(files)
    }

    /// The file bytes the session holds, by project path (as read, with applied edits).
    pub fn files(&self) -> &BTreeMap<String, Vec<u8>> {
        &self.bytes
    }

    /// Runs a batch on a copy at the current revision, as preflight does, and returns
    /// the copy (for a picture of what it would change).
    pub fn project_batch(&self, operations: &str) -> Result<txn::Applied, Rejected> {
        self.run(self.revision, operations)
            .map(|(applied, _)| applied)
    }

    /// Decodes the batch, checks the revision and runs the batch on a copy; gives the
    /// copy and the operations' kinds.
    fn run(
        &self,
        expected_revision: u64,
        operations: &str,
    ) -> Result<(txn::Applied, Vec<&'static str>), Rejected> {
        let operations = decode_operations(operations)?;
        if expected_revision != self.revision {
            return Err(Rejected::from(self.stale_write(expected_revision)));
        }
        let applied = txn::run(&self.project, &self.bytes, &operations)
            .map_err(|failure| rejected(failure, &operations))?;
        Ok((applied, operations.iter().map(Operation::kind).collect()))
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

fn file(path: &str, kind: FileKind, change: ImpactChange) -> FileImpact {
    FileImpact {
        path: path.to_string(),
        kind,
        change,
    }
}
