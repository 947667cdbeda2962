//! One open project: the model, its bytes, its revision and what the reader found.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use ofgui_contracts::api::{
    Change as ImpactChange, FileImpact, FileKind, GeneratedValues, Persistence,
    ReadSessionStateInput, ResourceSelector, SessionHistory, TransactionPreview, UamFidelity,
    ValidationReport,
};
use ofgui_contracts::capabilities::{RESOURCE_BYTES_MAX, SESSION_STATE_LIMITS};
use ofgui_contracts::catalog::DiagnosticCode;
use ofgui_contracts::diagnostics::ProjectDiagnostic;
use ofgui_contracts::echo::{MAX_ECHO_CHARS, clip};
use ofgui_contracts::envelope::{BackendDiagnostic, False, True};
use ofgui_contracts::error::{BackendError, OpenFailureReason, ReadFailureReason};
use ofgui_contracts::error::{
    PreviewFailureReason, SupportIssue, TransactionRejection, UnhandledReason,
};
use ofgui_contracts::ops::{MAX_OPERATIONS, Operation};
use ofgui_contracts::strict;
use ofgui_contracts::uam::{ResourceFolder, UamProject, UamResource};

use serde_json::value::RawValue;

use crate::budget;
use crate::commit::{self, Change, ContentHash, Expect, Plan};
use crate::fs::{ProjectFs, ProjectFsWrite};
use crate::history::{Direction, History, State, Step};
use crate::lookup::{Lookup, find_resource, valid_id};
use crate::reader::{self, ReadError};
use crate::save;
use crate::scope::{self, Page};
use crate::txn::{self, Issue};
use crate::validate;
use crate::writer;

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

/// What a save or materialize did.
pub use crate::save::Report as SaveReport;

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
    /// [`crate::document`]), at revision 0 with full fidelity and no read diagnostics.
    /// With `fairy_file` the session's storage is a directory that holds nothing yet, into
    /// which the first materialize writes the whole project under that `.fairy` name;
    /// without it the session has no storage.
    pub fn from_document(
        names: Names,
        document: &str,
        fairy_file: Option<&str>,
    ) -> Result<Session, BackendError> {
        let decoded = crate::document::decode(document)?;
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
            .applied(Step::new(self.revision, before, after, kinds));
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
    pub fn history(&self, limit: usize) -> SessionHistory {
        let (entries, truncated) = self.history.entries(limit);
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

    /// Validates the committed project: structure, references and every source file.
    pub fn validate(&self) -> ValidationReport {
        let unloaded = self.unloaded_assets();
        let mut read_diagnostics = self.reader_diagnostics.clone();
        read_diagnostics.extend(unloaded.iter().cloned());
        validate::validate(&validate::Input {
            project: &self.project,
            bytes: &self.bytes,
            read_diagnostics: &read_diagnostics,
            read_complete: self.reader_complete && unloaded.is_empty(),
        })
    }

    /// The assets a document gave no bytes for: unchecked (a warning that leaves the report
    /// incomplete, as upstream reports a session without bytes), and nothing a materialize
    /// could write. A session read from disk has none: the reader reported every file it
    /// could not read.
    fn unloaded_assets(&self) -> Vec<ProjectDiagnostic> {
        if self.origin != Origin::Document {
            return Vec::new();
        }
        let mut found = Vec::new();
        for (p, package) in self.project.packages.iter().enumerate() {
            for (r, resource) in package.resources.iter().enumerate() {
                let Some(path) = resource
                    .asset_base()
                    .and_then(|base| base.source_path.as_deref())
                else {
                    continue;
                };
                if self.bytes.contains_key(path) {
                    continue;
                }
                found.push(
                    ProjectDiagnostic::warning(
                        ofgui_contracts::diagnostics::ProjectDiagnosticCode::DecodeCapabilityUnavailable,
                        format!("packages[{p}].resources[{r}]"),
                        format!(
                            "the document that opened this session gave no sourceBytes for {path}, so the file is not checked and cannot be written"
                        ),
                    )
                    .in_package(package.id.as_str())
                    .in_resource(resource.id())
                    .in_file(path),
                );
            }
        }
        found
    }

    /// The committed model without bytes, as `SessionStateData` JSON text, within the
    /// session-state budget. A scope or page narrows `project.packages` (and the read
    /// diagnostics to those of the packages shown, plus those tied to no package).
    pub fn read_state(&self, input: &ReadSessionStateInput) -> Result<String, BackendError> {
        if let Some(expected) = input.expected_revision {
            self.check_revision(expected)?;
        }
        let narrowed;
        let kept_diagnostics;
        let (project, read_diagnostics, next_cursor) =
            if input.scope.is_none() && input.page.is_none() {
                (&self.project, &self.read_diagnostics[..], None)
            } else {
                let selected = scope::select(&self.id, &self.project, input.scope.as_ref())?;
                let page = Page::read(&self.id, self.revision, input.page.as_ref(), None)?;
                let (window, next_cursor) = page.window(selected.len());
                let shown = &selected[window];
                let whole = &self.project;
                narrowed = UamProject {
                    project_id: whole.project_id.clone(),
                    project_type: whole.project_type,
                    project_type_name: whole.project_type_name.clone(),
                    version: whole.version.clone(),
                    branches: whole.branches.clone(),
                    settings: whole.settings.clone(),
                    packages: shown.iter().map(|scoped| scoped.narrowed()).collect(),
                };
                kept_diagnostics = self
                    .read_diagnostics
                    .iter()
                    .filter(|diagnostic| match diagnostic.package_id.as_deref() {
                        None => true,
                        Some(package_id) => shown.iter().any(|scoped| {
                            scoped.package.id == package_id
                                && scoped.only.is_none_or(|only| {
                                    diagnostic
                                        .resource_id
                                        .as_deref()
                                        .is_none_or(|id| id == only.id())
                                })
                        }),
                    })
                    .cloned()
                    .collect::<Vec<_>>();
                (&narrowed, &kept_diagnostics[..], next_cursor)
            };
        let data = SessionStateView {
            session_id: &self.id,
            revision: self.revision,
            last_saved_revision: self.last_saved_revision,
            dirty: self.history.dirty(),
            uam_fidelity: self.fidelity,
            project,
            read_diagnostics,
            read_complete: self.read_complete,
            next_cursor,
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
                    "{} Read less at once: some packages (scope.packageIds), one component (scope.component), fewer packages per page (page.limit), or one entity with queryEntity.",
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

impl Session {
    /// Writes the edits since the last save (see `crate::save`): only files whose bytes
    /// change, each patched from what was read, verified by reading them back, committed
    /// all or nothing. A session without edits writes nothing.
    pub fn save(
        &mut self,
        fs: &dyn ProjectFsWrite,
        expected_revision: Option<u64>,
    ) -> Result<SaveReport, BackendError> {
        let plan = match self.take_planned(false) {
            Some(plan) => {
                self.storage("saveSession")?;
                self.check_write(expected_revision)?;
                plan
            }
            None => self.save_plan(expected_revision)?,
        };
        self.commit(fs, plan, false)
    }

    /// The plan `planned_writes` made for this kind of write at the current revision.
    fn take_planned(&self, materialize: bool) -> Option<Plan> {
        let planned = self.planned.take()?;
        (planned.revision == self.revision && planned.materialize == materialize)
            .then_some(planned.plan)
    }

    /// Where the session writes, or `capability_unavailable` for a session opened from a
    /// document without a directory.
    fn storage(&self, method: &str) -> Result<&OnDisk, BackendError> {
        self.disk.as_ref().ok_or_else(|| BackendError::CapabilityUnavailable {
            message: format!(
                "{method} needs a directory, and this session has none: it was opened from a document with openProjectSession. Nothing was written. Write the project into a new directory inside the allowed roots with materializeSession and targetPath first; after that the session saves there."
            ),
            capability: "fileSystem".into(),
        })
    }

    /// What a save would change now, after the checks a save makes first.
    fn save_plan(&self, expected_revision: Option<u64>) -> Result<Plan, BackendError> {
        let disk = self.storage("saveSession")?;
        self.check_write(expected_revision)?;
        self.plan(disk)
            .map_err(|unwritable| self.unfaithful(unwritable))
    }

    /// The files a save (or, with `materialize`, a materialize) would write, create or
    /// remove now, after the same checks, without writing anything: what a host shows a
    /// person who confirms the write.
    pub fn planned_writes(
        &self,
        fs: &dyn ProjectFs,
        materialize: bool,
        expected_revision: Option<u64>,
    ) -> Result<Vec<FileImpact>, Rejected> {
        let plan = match self.take_planned(materialize) {
            Some(plan) => {
                self.check_write(expected_revision)?;
                plan
            }
            None if materialize => self.materialize_plan(fs, expected_revision)?,
            None => self.save_plan(expected_revision)?,
        };
        let no_aliases = BTreeMap::new();
        let found_at = self
            .disk
            .as_ref()
            .map_or(&no_aliases, |disk| &disk.found_at);
        let paths = save::DiskPaths::new(fs, found_at);
        let mut files: Vec<FileImpact> = plan
            .changes
            .iter()
            .map(|change| FileImpact {
                path: paths.of(change),
                kind: FileKind::File,
                change: match change {
                    Change::Write {
                        expect: Expect::Absent,
                        ..
                    } => ImpactChange::Added,
                    Change::Write { .. } => ImpactChange::Updated,
                    Change::Remove { .. } => ImpactChange::Removed,
                },
            })
            .collect();
        files.sort();
        self.planned.replace(Some(Planned {
            revision: self.revision,
            materialize,
            plan,
        }));
        Ok(files)
    }

    /// Writes every file of the model in the editor's canonical layout, after validation.
    pub fn materialize(
        &mut self,
        fs: &dyn ProjectFsWrite,
        expected_revision: Option<u64>,
    ) -> Result<SaveReport, Rejected> {
        let plan = match self.take_planned(true) {
            Some(plan) => {
                self.check_write(expected_revision)?;
                plan
            }
            None => self.materialize_plan(fs, expected_revision)?,
        };
        Ok(self.commit(fs, plan, true)?)
    }

    /// What a materialize would change now: every canonical file that differs from the
    /// disk, and the removals; refused when the project does not validate.
    fn materialize_plan(
        &self,
        fs: &dyn ProjectFs,
        expected_revision: Option<u64>,
    ) -> Result<Plan, Rejected> {
        let disk = self.storage("materializeSession")?;
        self.check_write(expected_revision)?;
        let report = self.validate();
        // An asset whose bytes a document never gave cannot be written: it stops the write
        // like an error, though validation only calls it unchecked.
        let unloaded = self.unloaded_assets();
        let errors: Vec<BackendDiagnostic> = report
            .diagnostics
            .iter()
            .filter(|d| d.severity == ofgui_contracts::diagnostics::Severity::Error)
            .chain(&unloaded)
            .map(BackendDiagnostic::from_finding)
            .map(|mut diagnostic| {
                diagnostic.severity = ofgui_contracts::envelope::DiagnosticSeverity::Error;
                diagnostic
            })
            .collect();
        if !errors.is_empty() {
            return Err(Rejected {
                error: BackendError::MaterializeValidationFailed {
                    message: format!(
                        "The project has {} validation errors, so it was not written; they are in meta.diagnostics.",
                        errors.len()
                    ),
                    session_id: self.id.clone(),
                    canonical_path_key: self.canonical_path_key.clone(),
                    issue_count: errors.len() as u32,
                },
                diagnostics: errors,
            });
        }
        // Removals and directories come from the save's plan when it can be made; the
        // files themselves are all written in canonical form, so a file the patch could
        // not carry an edit into is rewritten whole (the point of materialize).
        let mut plan = match self.plan(disk) {
            Ok(mut plan) => {
                plan.changes.retain(|c| matches!(c, Change::Remove { .. }));
                plan
            }
            Err(_) => self.removals(disk),
        };
        let paths = save::DiskPaths::new(fs, &disk.found_at);
        for (path, bytes) in writer::plan::canonical(&disk.fairy_file, &self.project, &self.bytes) {
            // Materialize overwrites what changed on disk: it expects what is there (where
            // the save will write it, which may be another letter case).
            let expect = match fs.read(&paths.file(&path, false)) {
                Ok(current) if current == bytes => continue,
                Ok(current) => Expect::Content(ContentHash::of(&current)),
                Err(_) => Expect::Absent,
            };
            plan.changes.retain(|c| c.path() != path);
            plan.changes.push(Change::Write {
                path,
                bytes,
                expect,
            });
        }
        // A removal expects what is there now; one already gone is dropped.
        plan.changes = std::mem::take(&mut plan.changes)
            .into_iter()
            .filter_map(|change| match change {
                Change::Remove { path, .. } => {
                    let current = fs.read(&paths.file(&path, false)).ok()?;
                    Some(Change::Remove {
                        expect: ContentHash::of(&current),
                        path,
                    })
                }
                write => Some(write),
            })
            .collect();
        Ok(plan)
    }

    /// The files the disk holds that the model no longer describes: source documents
    /// without a canonical counterpart and assets the session removed or moved.
    fn removals(&self, disk: &OnDisk) -> Plan {
        let kept: std::collections::BTreeSet<String> =
            writer::plan::canonical(&disk.fairy_file, &self.project, &self.bytes)
                .into_iter()
                .map(|(path, _)| path)
                .collect();
        let documents = disk
            .documents
            .iter()
            .filter(|(path, _)| !kept.contains(*path));
        let assets = disk
            .assets
            .iter()
            .filter(|(path, _)| !self.bytes.contains_key(*path))
            .filter_map(|(path, bytes)| Some((path, bytes.as_ref()?)));
        Plan {
            changes: documents
                .chain(assets)
                .map(|(path, bytes)| Change::Remove {
                    path: path.clone(),
                    expect: ContentHash::of(bytes),
                })
                .collect(),
            ..Plan::default()
        }
    }

    fn check_write(&self, expected_revision: Option<u64>) -> Result<(), BackendError> {
        if let Some(expected) = expected_revision
            && expected != self.revision
        {
            return Err(self.stale_write(expected));
        }
        if self.fidelity == UamFidelity::Unsupported {
            return Err(BackendError::UamFidelityUnsupported {
                message: "A project file could not be read when this session opened, so writing the model back could lose what it holds; nothing was written. validateSession names the file (unreadable_source).".into(),
                session_id: self.id.clone(),
                canonical_path_key: self.canonical_path_key.clone(),
                file: None,
                field: None,
            });
        }
        Ok(())
    }

    fn stale_write(&self, expected: u64) -> BackendError {
        BackendError::StaleWrite {
            message: format!(
                "Expected revision {expected} does not match current revision {}.",
                self.revision
            ),
            session_id: self.id.clone(),
            canonical_path_key: Some(self.canonical_path_key.clone()).filter(|key| !key.is_empty()),
            expected_revision: expected,
            actual_revision: self.revision,
        }
    }

    /// The files a save from the disk to `project` would change.
    /// `pending` holds the asset bytes of a batch not applied yet (a preview).
    fn plan_to(
        &self,
        disk: &OnDisk,
        project: &UamProject,
        pending: Option<&BTreeMap<String, Option<Vec<u8>>>>,
    ) -> Result<Plan, writer::plan::Unwritable> {
        // What the disk holds at each asset path touched since the last save or by
        // `pending` (those still hold what the session has): borrowed, no bytes copied.
        let mut touched: BTreeMap<&str, Option<&[u8]>> = disk
            .assets
            .iter()
            .map(|(path, bytes)| (path.as_str(), bytes.as_deref()))
            .collect();
        for path in pending.into_iter().flat_map(BTreeMap::keys) {
            touched
                .entry(path.as_str())
                .or_insert_with(|| self.bytes.get(path).map(Vec::as_slice));
        }
        let disk = writer::plan::Disk {
            fairy_file: &disk.fairy_file,
            project: &disk.project,
            documents: &disk.documents,
            assets: &touched,
        };
        let now = writer::plan::Now {
            project,
            bytes: &self.bytes,
            pending,
        };
        writer::plan::plan(&disk, &now)
    }

    fn plan(&self, disk: &OnDisk) -> Result<Plan, writer::plan::Unwritable> {
        self.plan_to(disk, &self.project, None)
    }

    fn unfaithful(&self, unwritable: writer::plan::Unwritable) -> BackendError {
        BackendError::UamFidelityUnsupported {
            message: format!(
                "{} cannot be written faithfully at {}: {}. Nothing was written; the edits stay in the session. materializeSession writes the whole project in the editor's layout instead.",
                unwritable.file, unwritable.problem.at, unwritable.problem.reason
            ),
            session_id: self.id.clone(),
            canonical_path_key: self.canonical_path_key.clone(),
            file: Some(unwritable.file),
            field: Some(unwritable.problem.at),
        }
    }

    /// Verifies and commits `plan`, then makes what was written the new base.
    fn commit(
        &mut self,
        fs: &dyn ProjectFsWrite,
        plan: Plan,
        materialize: bool,
    ) -> Result<SaveReport, BackendError> {
        // Packages are listed in directory order when read, and each package's folders by
        // branch and path: a renamed or added package, and an added or moved folder, take
        // their place there once saved, as a reopen would show them.
        let mut saved = self.project.clone();
        saved.packages.sort_by(|a, b| a.name.cmp(&b.name));
        let order = |a: &ResourceFolder, b: &ResourceFolder| {
            (&a.branch, &a.path).cmp(&(&b.branch, &b.path))
        };
        for package in &mut saved.packages {
            if !package.folders.is_sorted_by(|a, b| order(a, b).is_le()) {
                Arc::make_mut(package).folders.sort_by(order);
            }
        }
        let method = if materialize {
            "materializeSession"
        } else {
            "saveSession"
        };
        let storage = self.storage(method)?;
        let fairy_file = storage.fairy_file.clone();
        if let Err(mismatch) = save::verify(fs, &fairy_file, &plan, &saved, &storage.documents) {
            return Err(BackendError::UamFidelityUnsupported {
                message: format!(
                    "The bytes this save would write to {} do not read back as the session's model (first difference at {}), so nothing was written; the edits stay in the session.",
                    mismatch.file,
                    if mismatch.field.is_empty() {
                        "the file itself"
                    } else {
                        &mismatch.field
                    }
                ),
                session_id: self.id.clone(),
                canonical_path_key: self.canonical_path_key.clone(),
                file: Some(mismatch.file),
                field: Some(mismatch.field).filter(|f| !f.is_empty()),
            });
        }
        let attempt = save::Attempt {
            session_id: &self.id,
            canonical_path_key: &self.canonical_path_key,
            revision: self.revision,
            last_saved_revision: self.last_saved_revision,
            materialize,
        };
        let mut hook = commit::fault::configured();
        let limited = commit::fault::configured_disk_limit()
            .map(|free| commit::fault::DiskLimit::new(fs, free));
        let target: &dyn ProjectFsWrite = match &limited {
            Some(limited) => limited,
            None => fs,
        };
        // The plan speaks of declared paths, the commit of the disk's.
        let declared: Vec<String> = plan.changes.iter().map(|c| c.path().to_owned()).collect();
        let mut plan = plan;
        if let Some(disk) = &self.disk {
            save::DiskPaths::new(fs, &disk.found_at).apply(&mut plan);
        }
        let committed = commit::commit(target, &plan, &mut hook).map_err(|e| attempt.failed(e))?;
        if let Some(disk) = &mut self.disk {
            for (declared, change) in declared.into_iter().zip(plan.changes) {
                // The disk's path of a file now written elsewhere than declared is where
                // the next save writes it too; a removed one has none.
                match &change {
                    Change::Write { path, .. } if *path != declared => {
                        disk.found_at.insert(declared.clone(), path.clone());
                    }
                    _ => {
                        disk.found_at.remove(&declared);
                    }
                }
                let is_asset =
                    disk.assets.contains_key(&declared) || self.bytes.contains_key(&declared);
                match change {
                    Change::Write { bytes, .. } if !is_asset => {
                        disk.documents.insert(declared, bytes);
                    }
                    Change::Remove { .. } => {
                        disk.documents.remove(&declared);
                    }
                    Change::Write { .. } => {}
                }
            }
            disk.project = saved.clone();
            disk.assets.clear();
        }
        self.history.saved(&saved);
        self.project = saved;
        self.last_saved_revision = self.revision;
        Ok(SaveReport::from_commit(committed))
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
                    // The host puts this in plain words at the deepest field; on its own it
                    // still names the schema and repeats at most 200 characters of input.
                    let kind = operation_kind(operation.get());
                    let schema = kind
                        .map(|kind| format!(" Schema: openfairygui://contracts/operations/{kind}"))
                        .unwrap_or_default();
                    let what = kind.map(|kind| format!(" ({kind})")).unwrap_or_default();
                    BackendError::invalid_input(
                        format!(
                            "Operation {index}{what} is malformed: {}.{schema}",
                            clip(&error.message, MAX_ECHO_CHARS)
                        ),
                        Some(error.path),
                    )
                },
            )
        })
        .collect()
}

/// The operation kind an operation's text names, if it names a known one.
fn operation_kind(text: &str) -> Option<&'static str> {
    #[derive(serde::Deserialize)]
    struct Kind {
        kind: String,
    }
    let kind = serde_json::from_str::<Kind>(text).ok()?.kind;
    ofgui_contracts::ops::OPERATION_KINDS
        .iter()
        .copied()
        .find(|known| *known == kind)
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
    #[serde(skip_serializing_if = "Option::is_none")]
    next_cursor: Option<String>,
}

fn file(path: &str, kind: FileKind, change: ImpactChange) -> FileImpact {
    FileImpact {
        path: path.to_string(),
        kind,
        change,
    }
}
