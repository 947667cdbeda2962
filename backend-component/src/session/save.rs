//! Saving a session: the writer's plan is read back before anything is written, then
//! committed all or nothing; commit outcomes become contract errors here.
//!
//! The plan speaks of the paths the project declares; [`DiskPaths`] turns them into the
//! paths the disk holds just before the commit, so a file read from another letter case
//! (`assets/Pkg/bag/Main.xml` for `/Bag/`) is written back there, never beside it.

use ofgui_contracts::error::{BackendError, DiskConflict, DiskConflictKind, SaveFailureReason};
use ofgui_contracts::uam::{UamProject, UamResource};
use serde_json::Value;

use crate::commit::{Change, CommitError, Committed, ConflictKind, Plan, Recovery};
use std::collections::{BTreeMap, BTreeSet};

use crate::commit::Expect;
use crate::fs::{CaseFold, ProjectFs};
use crate::reader;
use crate::writer::overlay::Overlay;

/// Where a save's paths are on disk. Files the session read from another letter case
/// (`found_at`, declared → actual) are written and removed there; a new file or folder goes
/// into a folder the disk already has in another letter case (when exactly one), so no
/// second spelling of a folder is created beside it. Only new paths list directories, each
/// once per save.
pub struct DiskPaths<'a> {
    found_at: &'a BTreeMap<String, String>,
    fold: CaseFold<'a>,
}

impl<'a> DiskPaths<'a> {
    pub fn new(disk: &'a dyn ProjectFs, found_at: &'a BTreeMap<String, String>) -> Self {
        Self {
            found_at,
            fold: CaseFold::new(disk),
        }
    }

    /// Where the change to declared `path` goes; `new` for a file the disk does not hold.
    pub fn file(&self, path: &str, new: bool) -> String {
        if let Some(actual) = self.found_at.get(path) {
            return actual.clone();
        }
        match path.rsplit_once('/') {
            Some((dir, name)) if new => format!("{}/{name}", self.fold.dir_on_disk(dir)),
            _ => path.to_owned(),
        }
    }

    /// Where `change` goes.
    pub fn of(&self, change: &Change) -> String {
        let new = matches!(
            change,
            Change::Write {
                expect: Expect::Absent,
                ..
            }
        );
        self.file(change.path(), new)
    }

    /// `plan` with every path where the disk holds it.
    pub fn apply(&self, plan: &mut Plan) {
        for change in &mut plan.changes {
            let actual = self.of(change);
            match change {
                Change::Write { path, .. } | Change::Remove { path, .. } => *path = actual,
            }
        }
        for dir in plan.create_dirs.iter_mut().chain(&mut plan.remove_dirs) {
            *dir = self.fold.dir_on_disk(dir);
        }
    }
}

/// Where the bytes a save would write do not read back as the session's model.
#[derive(Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub file: String,
    /// A JSON pointer into the model (`/packages/2/resources/0/component/displayList/3`).
    pub field: String,
}

/// Reads the project as `plan` would leave it and compares it with `now`. A plan that
/// only rewrites component files re-reads just those (the rest of the disk is what the
/// model was read from); any other plan re-reads the whole project through an overlay in
/// which every source file the plan does not touch is as the session `known` it, so a
/// file someone else changed meanwhile (which this save does not write) does not count.
pub fn verify(
    disk: &dyn ProjectFs,
    fairy_file: &str,
    plan: &Plan,
    now: &UamProject,
    known: &BTreeMap<String, Vec<u8>>,
) -> Result<(), Mismatch> {
    if plan.changes.is_empty() && plan.create_dirs.is_empty() && plan.remove_dirs.is_empty() {
        return Ok(());
    }
    let mut components = Vec::new();
    let only_components = plan.create_dirs.is_empty()
        && plan.remove_dirs.is_empty()
        && plan.changes.iter().all(|change| match change {
            Change::Write { path, bytes, .. } => match component_at(now, path) {
                Some(found) => {
                    components.push((found, path.as_str(), bytes.as_slice()));
                    true
                }
                None => false,
            },
            Change::Remove { .. } => false,
        });
    if only_components {
        for ((p, r), path, bytes) in components {
            let package = &now.packages[p];
            let UamResource::Component(resource) = package.resources[r].as_ref() else {
                continue;
            };
            let mismatch = |field: String| Mismatch {
                file: path.to_string(),
                field: format!("/packages/{p}/resources/{r}/component{field}"),
            };
            let reread = reader::reread_component(bytes, &package.id, now)
                .map_err(|_| mismatch(String::new()))?;
            if reread != resource.component {
                return Err(mismatch(first_difference(&reread, &resource.component)));
            }
        }
        return Ok(());
    }
    let touched: BTreeSet<&str> = plan.changes.iter().map(Change::path).collect();
    let written = plan
        .changes
        .iter()
        .filter_map(|change| match change {
            Change::Write { path, bytes, .. } => Some((path.as_str(), bytes.as_slice())),
            Change::Remove { .. } => None,
        })
        .chain(
            known
                .iter()
                .filter(|(path, _)| !touched.contains(path.as_str()))
                .map(|(path, bytes)| (path.as_str(), bytes.as_slice())),
        );
    let removed = plan.changes.iter().filter_map(|change| match change {
        Change::Remove { path, .. } => Some(path.as_str()),
        Change::Write { .. } => None,
    });
    let overlay = Overlay::new(
        disk,
        written,
        removed,
        plan.create_dirs.iter().map(String::as_str),
        plan.remove_dirs.iter().map(String::as_str),
    );
    let reread = reader::read_project(&overlay, fairy_file).map_err(|_| Mismatch {
        file: fairy_file.to_string(),
        field: String::new(),
    })?;
    if reread.project == *now {
        return Ok(());
    }
    let field = first_difference(&reread.project, now);
    Err(Mismatch {
        file: file_of(now, &field).unwrap_or_else(|| fairy_file.to_string()),
        field,
    })
}

/// The package and resource index of the component whose file is `path`.
fn component_at(project: &UamProject, path: &str) -> Option<(usize, usize)> {
    project
        .packages
        .iter()
        .enumerate()
        .find_map(|(p, package)| {
            package
                .resources
                .iter()
                .position(|r| {
                    matches!(r.as_ref(), UamResource::Component(_)) && r.source_path() == Some(path)
                })
                .map(|r| (p, r))
        })
}

/// The file a model path lives in, as far as it can be told.
fn file_of(project: &UamProject, pointer: &str) -> Option<String> {
    let mut parts = pointer.split('/').skip(1);
    match parts.next()? {
        "settings" => Some(format!("settings ({})", parts.next()?)),
        "packages" => {
            let package = project.packages.get(parts.next()?.parse::<usize>().ok()?)?;
            if parts.next() == Some("resources")
                && let Some(resource) = parts
                    .next()
                    .and_then(|r| r.parse::<usize>().ok())
                    .and_then(|r| package.resources.get(r))
                && let UamResource::Component(_) = resource.as_ref()
            {
                return resource.source_path().map(str::to_string);
            }
            Some(format!("assets/{}/package.xml", package.name))
        }
        _ => None,
    }
}

/// The JSON pointer of the first place two values differ (`""` if they serialize alike).
fn first_difference<T: serde::Serialize>(a: &T, b: &T) -> String {
    fn walk(a: &Value, b: &Value, at: &mut String) -> bool {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for key in x.keys().chain(y.keys()) {
                    let (va, vb) = (x.get(key), y.get(key));
                    if va != vb {
                        at.push('/');
                        at.push_str(key);
                        if let (Some(va), Some(vb)) = (va, vb) {
                            walk(va, vb, at);
                        }
                        return true;
                    }
                }
                false
            }
            (Value::Array(x), Value::Array(y)) => {
                for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                    if va != vb {
                        at.push_str(&format!("/{i}"));
                        walk(va, vb, at);
                        return true;
                    }
                }
                if x.len() != y.len() {
                    at.push_str(&format!("/{}", x.len().min(y.len())));
                    return true;
                }
                false
            }
            _ => a != b,
        }
    }
    let (Ok(a), Ok(b)) = (serde_json::to_value(a), serde_json::to_value(b)) else {
        return String::new();
    };
    let mut at = String::new();
    walk(&a, &b, &mut at);
    at
}

/// Who a save failure is reported for.
pub struct Attempt<'a> {
    pub session_id: &'a str,
    pub canonical_path_key: &'a str,
    pub revision: u64,
    pub last_saved_revision: u64,
    /// Materialize reports `write_failed`, save `save_partial_failure`.
    pub materialize: bool,
}

impl Attempt<'_> {
    /// The contract error of a failed commit.
    pub fn failed(&self, error: CommitError) -> BackendError {
        let message = error.to_string();
        let (reason, committed, failed, partial, recovery, conflicts) = match error {
            CommitError::Conflict { conflicts } => {
                let failed = conflicts.iter().map(|c| c.path.clone()).collect();
                let listed = conflicts
                    .into_iter()
                    .map(|c| DiskConflict {
                        message: c.to_string(),
                        kind: conflict_kind(&c.kind),
                        path: c.path,
                    })
                    .collect();
                (
                    SaveFailureReason::ChangedOnDisk,
                    vec![],
                    failed,
                    false,
                    None,
                    listed,
                )
            }
            CommitError::WriteFailed { path, .. } => (
                SaveFailureReason::Io,
                vec![],
                vec![path],
                false,
                None,
                vec![],
            ),
            CommitError::PartialFailure {
                committed,
                failed,
                recovery_paths,
                ..
            } => (
                SaveFailureReason::Io,
                committed,
                vec![failed],
                true,
                Some(recovery_paths),
                vec![],
            ),
            CommitError::RecoveryFailed {
                path,
                recovery_paths,
                ..
            } => (
                SaveFailureReason::Io,
                vec![],
                vec![path],
                true,
                Some(recovery_paths),
                vec![],
            ),
            CommitError::JournalUnreadable { path, .. } => (
                SaveFailureReason::Io,
                vec![],
                vec![path.clone()],
                true,
                Some(vec![path]),
                vec![],
            ),
            CommitError::InvalidPlan { path, .. } | CommitError::Interrupted { path, .. } => (
                SaveFailureReason::Io,
                vec![],
                vec![path],
                false,
                None,
                vec![],
            ),
        };
        let message = match reason {
            SaveFailureReason::ChangedOnDisk => self.conflict_message(&conflicts),
            SaveFailureReason::Io => message,
        };
        if self.materialize {
            BackendError::WriteFailed {
                message,
                session_id: self.session_id.to_string(),
                canonical_path_key: self.canonical_path_key.to_string(),
                attempted_revision: self.revision,
                last_saved_revision: self.last_saved_revision,
                reason,
                written_paths: committed,
                skipped_paths: Vec::new(),
                failed_paths: failed,
                disk_may_be_partially_updated: partial,
                recovery_paths: recovery,
                conflicts,
            }
        } else {
            BackendError::SavePartialFailure {
                message,
                session_id: self.session_id.to_string(),
                canonical_path_key: self.canonical_path_key.to_string(),
                attempted_revision: self.revision,
                last_saved_revision: self.last_saved_revision,
                reason,
                committed_paths: committed,
                failed_paths: failed,
                disk_may_be_partially_updated: partial,
                recovery_paths: recovery,
                conflicts,
            }
        }
    }
}

impl Attempt<'_> {
    /// What stopped the save, and what to do for each kind of file it found.
    fn conflict_message(&self, conflicts: &[DiskConflict]) -> String {
        let listed: Vec<&str> = conflicts.iter().map(|c| c.message.as_str()).collect();
        let mut message = format!(
            "Refusing to save: {}. Nothing was written and the edits are still in the session.",
            listed.join("; ")
        );
        let changed = conflicts.iter().any(|c| {
            matches!(
                c.kind,
                DiskConflictKind::Changed | DiskConflictKind::Created | DiskConflictKind::Removed
            )
        });
        if changed {
            message.push_str(
                " Someone changed those files since the session read them (the FairyGUI editor, perhaps): to keep their change, call openfairygui_refresh_session, which reads the project again and replays this session's unsaved edits on top, then save",
            );
            message.push_str(if self.materialize {
                "."
            } else {
                "; to overwrite it on purpose, ask the user, then use materializeSession."
            });
        }
        if conflicts
            .iter()
            .any(|c| c.kind == DiskConflictKind::UnknownEntry)
        {
            message.push_str(
                " A folder or package the save removes holds files the project does not describe; they are not the session's to delete: ask the user to move or delete them, then save again.",
            );
        }
        if conflicts.iter().any(|c| {
            matches!(
                c.kind,
                DiskConflictKind::CaseCollision
                    | DiskConflictKind::HardLinked
                    | DiskConflictKind::NotAFile
                    | DiskConflictKind::Unreadable
            )
        }) {
            message.push_str(
                " Some paths cannot be written safely as they are on disk (see conflicts); ask the user to sort them out, then save again.",
            );
        }
        message
    }
}

fn conflict_kind(kind: &ConflictKind) -> DiskConflictKind {
    match kind {
        ConflictKind::Changed => DiskConflictKind::Changed,
        ConflictKind::Created => DiskConflictKind::Created,
        ConflictKind::Removed => DiskConflictKind::Removed,
        ConflictKind::CaseCollision { .. } => DiskConflictKind::CaseCollision,
        ConflictKind::HardLinked => DiskConflictKind::HardLinked,
        ConflictKind::NotAFile | ConflictKind::NotADirectory => DiskConflictKind::NotAFile,
        ConflictKind::UnknownEntry => DiskConflictKind::UnknownEntry,
        ConflictKind::Unreadable { .. } => DiskConflictKind::Unreadable,
    }
}

/// What a commit did, in the order the contract lists it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub written: Vec<String>,
    pub skipped: Vec<String>,
    pub removed: Vec<String>,
    pub created_dirs: Vec<String>,
    pub removed_dirs: Vec<String>,
    pub kept_dirs: Vec<String>,
    pub recovered: Vec<String>,
    pub verified: bool,
}

impl Report {
    pub fn from_commit(committed: Committed) -> Report {
        Report {
            written: committed.written,
            skipped: committed.unchanged,
            removed: committed.removed,
            created_dirs: committed.created_dirs,
            removed_dirs: committed.removed_dirs,
            kept_dirs: committed.kept_dirs,
            recovered: recovered_paths(committed.recovered),
            verified: true,
        }
    }
}

pub fn recovered_paths(recovery: Recovery) -> Vec<String> {
    match recovery {
        Recovery::Clean => Vec::new(),
        Recovery::RolledBack { discarded } => discarded,
        Recovery::RolledForward { completed, .. } => completed,
    }
}
