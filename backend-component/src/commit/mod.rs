//! Saving to disk, all or nothing: the writer decides what to write; this room makes it
//! happen so that the project on disk is always the old state or the new one, and never
//! overwrites a change someone else made since the session read the project.
//!
//! [`commit`] runs a [`Plan`] in these steps:
//! 1. finish (or undo) an interrupted earlier commit ([`recover`]);
//! 2. check every file the plan writes or removes against what the session read (content
//!    hashes); any difference refuses the whole save, naming every such file, with nothing
//!    written;
//! 3. store a *prepared* journal ([`JOURNAL`]), create the new directories, stage each new
//!    content beside its target under a hidden name, fsync files and directories;
//! 4. store the *committing* journal: the commit point;
//! 5. rename staged files into place, remove removed files and emptied directories, fsync
//!    the directories, delete the journal.
//!
//! After a crash, [`recover`] (run at the next open and before every commit) rolls a
//! prepared journal back (deletes the staged files and new directories) and a committing
//! one forward (every step of it is safe to repeat).
//!
//! A test-only hook is called before each durable step; see [`Step`] and [`fault`].

mod apply;
pub mod fault;
mod journal;
mod prepare;
#[cfg(test)]
mod tests;

use std::fmt;
use std::ops::ControlFlow;

use sha2::{Digest, Sha256};

use crate::fs::ProjectFsWrite;
pub use crate::fs::is_save_artifact;
pub use journal::{JOURNAL, JOURNAL_TMP};
use journal::{Journal, State, StoreError};

/// A SHA-256 of file bytes: what the session read, to tell whether a file changed since.
/// Collision resistance matters here (a CRC-32 match would let an edit made in the
/// editor be silently overwritten); hashing costs little next to writing the file.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ContentHash([u8; 32]);

impl ContentHash {
    pub fn of(bytes: &[u8]) -> Self {
        Self(Sha256::digest(bytes).into())
    }

    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl fmt::Debug for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sha256:{}", &self.to_hex()[..12])
    }
}

/// What the session believes is on disk at a path now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// No file there (a new file).
    Absent,
    /// A file with exactly these bytes (the bytes the session read or last saved).
    Content(ContentHash),
}

/// One file change of a save.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Writes a whole file, new or replacing.
    Write {
        path: String,
        bytes: Vec<u8>,
        expect: Expect,
    },
    /// Removes a file the session read.
    Remove { path: String, expect: ContentHash },
}

impl Change {
    pub fn path(&self) -> &str {
        match self {
            Change::Write { path, .. } | Change::Remove { path, .. } => path,
        }
    }
}

/// Everything one save changes on disk. Paths are project-relative with `/`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub changes: Vec<Change>,
    /// Directories to create even when no written file needs them (empty new folders).
    /// Parents of written files are created without being listed.
    pub create_dirs: Vec<String>,
    /// Directories the save removes with everything in them (a removed package or folder).
    /// Every file in them must be a [`Change::Remove`] of the plan: a file the session
    /// never read is someone else's, and the save refuses rather than delete it.
    pub remove_dirs: Vec<String>,
}

impl Plan {
    /// What the disk holds at each changed path once the save is done: the session's
    /// expectations for its next save (after success, and also after
    /// [`CommitError::PartialFailure`], which recovery completes).
    pub fn after(&self) -> Vec<(String, Expect)> {
        self.changes
            .iter()
            .map(|change| match change {
                Change::Write { path, bytes, .. } => {
                    (path.clone(), Expect::Content(ContentHash::of(bytes)))
                }
                Change::Remove { path, .. } => (path.clone(), Expect::Absent),
            })
            .collect()
    }
}

/// What a successful commit did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Committed {
    /// Files written (new or replaced), in plan order.
    pub written: Vec<String>,
    /// Files the plan writes that already held exactly those bytes (left alone).
    pub unchanged: Vec<String>,
    pub removed: Vec<String>,
    pub created_dirs: Vec<String>,
    pub removed_dirs: Vec<String>,
    /// Directories the plan removes that something else filled meanwhile: left in place.
    pub kept_dirs: Vec<String>,
    /// An interrupted earlier commit found and finished or undone first.
    pub recovered: Recovery,
}

/// What [`recover`] found and did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Recovery {
    /// No interrupted commit.
    #[default]
    Clean,
    /// A commit interrupted before its commit point: its staged files and new
    /// directories were deleted; the project is as it was before that save.
    RolledBack { discarded: Vec<String> },
    /// A commit interrupted after its commit point was completed: the project is as that
    /// save meant it. `completed` lists the paths that save changed.
    RolledForward {
        completed: Vec<String>,
        kept_dirs: Vec<String>,
    },
}

/// Why a file refuses the save. Displayed as the rest of a sentence that starts with the
/// file's path (see [`Conflict`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConflictKind {
    /// Its bytes differ from what the session read.
    #[error("changed on disk since the session read it")]
    Changed,
    /// The session expected no file there; there is one now.
    #[error("was created on disk since the session read the project")]
    Created,
    /// The session read it; it is gone now.
    #[error("was deleted on disk since the session read it")]
    Removed,
    /// Its name differs only in letter case from `existing`, which this disk takes for the
    /// same name and which the save does not remove: writing would overwrite that file.
    #[error("would overwrite {existing} on this disk, which does not tell letter case apart")]
    CaseCollision { existing: String },
    /// It has more than one hard link (refused as opening refuses it).
    #[error("has more than one hard link; ofgui refuses to replace such files")]
    HardLinked,
    /// A directory, symlink or special file stands where a file is expected.
    #[error("is not a regular file")]
    NotAFile,
    /// A file or symlink stands where a directory is needed.
    #[error("is not a directory")]
    NotADirectory,
    /// A file inside a directory the save removes, which the session never read.
    #[error("is in a directory the save removes, but the session never read it")]
    UnknownEntry,
    /// It could not be looked at.
    #[error("cannot be checked: {message}")]
    Unreadable { message: String },
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path} {kind}")]
pub struct Conflict {
    pub path: String,
    pub kind: ConflictKind,
}

/// Why a commit or recovery failed. Each says whether the disk changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommitError {
    /// The plan itself is wrong (a writer bug): nothing was looked at or written.
    #[error("The save plan is invalid at {path}: {reason}. Nothing was written.")]
    InvalidPlan { path: String, reason: String },
    /// Files changed on disk since the session read them: nothing was written.
    #[error(
        "Refusing to save: {}. Nothing was written and the edits are still in the session. \
         To keep the changes on disk, close the session without saving, reopen the project \
         and make the edits again; to discard them, restore those files to what the session \
         read and save again.",
        joined(conflicts, "; ")
    )]
    Conflict { conflicts: Vec<Conflict> },
    /// Writing failed before the commit point: the project is unchanged. `leftovers` are
    /// hidden files (and new empty directories) that could not be cleaned up; the next
    /// open or save removes them.
    #[error(
        "Saving failed writing {path}: {message}. The project on disk is unchanged.{}",
        leftovers_note(leftovers)
    )]
    WriteFailed {
        path: String,
        message: String,
        leftovers: Vec<String>,
    },
    /// Writing failed after the commit point: some files are new, some old, and the
    /// journal stays so the next open or save completes the commit.
    #[error(
        "Saving failed at {failed} after the commit point: {message}. The next open or save \
         completes the save from {}.",
        recovery_paths.join(", ")
    )]
    PartialFailure {
        /// Paths already in their new state.
        committed: Vec<String>,
        /// The path whose step failed.
        failed: String,
        /// Paths still in their old state, which recovery will bring to the new one.
        pending: Vec<String>,
        /// The journal and the hidden files recovery completes the commit from.
        recovery_paths: Vec<String>,
        message: String,
    },
    /// A journal of an interrupted commit exists but cannot be understood: nothing was
    /// touched. Only a person can tell what it meant.
    #[error(
        "An interrupted save left {path}, but {reason}. Nothing was changed. Check the \
         project files, then delete {path} and any hidden .ofgui-staged-/.ofgui-aside- \
         files beside them."
    )]
    JournalUnreadable { path: String, reason: String },
    /// Finishing or undoing an interrupted commit failed; its journal stays for the
    /// next attempt.
    #[error(
        "Completing an interrupted save failed at {path}: {message}. It is retried on the \
         next open or save (from {}).",
        recovery_paths.join(", ")
    )]
    RecoveryFailed {
        path: String,
        message: String,
        recovery_paths: Vec<String>,
    },
    /// The test hook stopped the commit before `step` (a simulated crash). Production
    /// hooks never do this.
    #[error("The save was stopped before {} at {path}.", step.name())]
    Interrupted { step: StepKind, path: String },
}

fn joined(conflicts: &[Conflict], separator: &str) -> String {
    let list: Vec<String> = conflicts.iter().map(Conflict::to_string).collect();
    list.join(separator)
}

fn leftovers_note(leftovers: &[String]) -> String {
    if leftovers.is_empty() {
        return String::new();
    }
    format!(
        " Hidden leftovers ({}) are removed by the next open or save.",
        leftovers.join(", ")
    )
}

/// The durable steps of a commit and a recovery, in the order a commit takes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StepKind {
    /// Before writing the prepared journal beside its place.
    PrepareJournal,
    /// Before renaming the prepared journal into place.
    PlacePrepared,
    /// Before creating one directory.
    CreateDir,
    /// Before staging one file.
    Stage,
    /// Before syncing one directory that holds staged files.
    SyncStaged,
    /// Before writing the committing journal beside its place.
    CommitJournal,
    /// Before renaming the committing journal into place: the commit point.
    CommitPoint,
    /// Before one rename or removal of the roll-forward.
    Apply,
    /// Before removing one directory (roll-forward or rollback).
    RemoveDir,
    /// Before deleting one staged file in a rollback.
    Discard,
    /// Before deleting the journal.
    Finish,
}

impl StepKind {
    pub const ALL: [StepKind; 11] = [
        StepKind::PrepareJournal,
        StepKind::PlacePrepared,
        StepKind::CreateDir,
        StepKind::Stage,
        StepKind::SyncStaged,
        StepKind::CommitJournal,
        StepKind::CommitPoint,
        StepKind::Apply,
        StepKind::RemoveDir,
        StepKind::Discard,
        StepKind::Finish,
    ];

    /// The name used by [`fault::FaultInjection`] specifications.
    pub fn name(self) -> &'static str {
        match self {
            StepKind::PrepareJournal => "prepare-journal",
            StepKind::PlacePrepared => "place-prepared",
            StepKind::CreateDir => "create-dir",
            StepKind::Stage => "stage",
            StepKind::SyncStaged => "sync-staged",
            StepKind::CommitJournal => "commit-journal",
            StepKind::CommitPoint => "commit-point",
            StepKind::Apply => "apply",
            StepKind::RemoveDir => "remove-dir",
            StepKind::Discard => "discard",
            StepKind::Finish => "finish",
        }
    }
}

/// A step about to be taken, and the path it touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step<'a> {
    pub kind: StepKind,
    pub path: &'a str,
}

/// Called before each durable step; `Break` stops right there, as a crash would.
pub type Hook<'a> = &'a mut dyn FnMut(Step<'_>) -> ControlFlow<()>;

/// A hook that never interferes: what production passes unless a fault is configured.
pub fn no_faults(_: Step<'_>) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

fn interrupted(step: StepKind, path: &str) -> CommitError {
    CommitError::Interrupted {
        step,
        path: path.to_owned(),
    }
}

/// Writes `plan` to the project, all or nothing (see the module documentation).
pub fn commit(
    fs: &dyn ProjectFsWrite,
    plan: &Plan,
    hook: Hook<'_>,
) -> Result<Committed, CommitError> {
    // A wrong plan is refused before anything, recovery included, touches the disk.
    prepare::check_plan(plan)?;
    let recovered = recover_with(fs, hook)?;
    let prepared = prepare::prepare(fs, plan)?;
    let mut committed = Committed {
        unchanged: prepared.unchanged.clone(),
        recovered,
        ..Committed::default()
    };
    let Some(mut journal) = prepared.journal else {
        return Ok(committed);
    };

    match journal.store(fs, hook, StepKind::PrepareJournal, StepKind::PlacePrepared) {
        Ok(()) => {}
        Err(StoreError::Interrupted(e)) => return Err(e),
        Err(StoreError::Io(path, e)) => {
            // The prepared journal never took effect; only its temporary file may remain.
            let leftovers = match journal::remove_if_present(fs, JOURNAL_TMP) {
                Ok(()) => Vec::new(),
                Err(_) => vec![JOURNAL_TMP.to_owned()],
            };
            return Err(CommitError::WriteFailed {
                path,
                message: e.to_string(),
                leftovers,
            });
        }
        Err(StoreError::Placed(e)) => return Err(write_failed(fs, &journal, JOURNAL, &e)),
    }

    if let Err(failure) = apply::stage(fs, &journal, &prepared.staged, hook) {
        return Err(match failure {
            apply::Failure::Interrupted(e) => e,
            apply::Failure::Io { path, error, .. } => write_failed(fs, &journal, &path, &error),
        });
    }

    journal.state = State::Committing;
    match journal.store(fs, hook, StepKind::CommitJournal, StepKind::CommitPoint) {
        Ok(()) => {}
        Err(StoreError::Interrupted(e)) => return Err(e),
        Err(StoreError::Io(path, e)) => {
            journal.state = State::Prepared;
            return Err(write_failed(fs, &journal, &path, &e));
        }
        Err(StoreError::Placed(e)) => {
            return Err(apply::partial_failure(&journal, None, JOURNAL, &e));
        }
    }

    let done = apply::roll_forward(fs, &journal, hook).map_err(|failure| match failure {
        apply::Failure::Interrupted(e) => e,
        apply::Failure::Io { path, index, error } => {
            apply::partial_failure(&journal, Some(index), &path, &error)
        }
    })?;
    committed.written = prepared.written;
    committed.removed = prepared.removed;
    committed.created_dirs = journal.created_dirs.clone();
    committed.removed_dirs = done.removed_dirs;
    committed.kept_dirs = done.kept_dirs;
    Ok(committed)
}

/// A failure before the commit point: undo what was done, and say what could not be.
fn write_failed(
    fs: &dyn ProjectFsWrite,
    journal: &Journal,
    path: &str,
    error: &std::io::Error,
) -> CommitError {
    let leftovers = match apply::roll_back(fs, journal, &mut no_faults) {
        Ok(_) => Vec::new(),
        Err(_) => {
            let mut leftovers = vec![JOURNAL.to_owned()];
            leftovers.extend(journal.staged().map(str::to_owned));
            leftovers
        }
    };
    CommitError::WriteFailed {
        path: path.to_owned(),
        message: error.to_string(),
        leftovers,
    }
}

/// Finishes or undoes an interrupted commit, if the project has one. Run it before
/// reading a project and before every commit ([`commit`] does).
pub fn recover(fs: &dyn ProjectFsWrite) -> Result<Recovery, CommitError> {
    recover_with(fs, &mut no_faults)
}

/// [`recover`] with a fault hook, so tests can crash a recovery too.
pub fn recover_with(fs: &dyn ProjectFsWrite, hook: Hook<'_>) -> Result<Recovery, CommitError> {
    let Some(journal) = Journal::read(fs)? else {
        // A journal written beside its place but never renamed meant nothing.
        journal::remove_if_present(fs, JOURNAL_TMP).map_err(|e| CommitError::RecoveryFailed {
            path: JOURNAL_TMP.to_owned(),
            message: e.to_string(),
            recovery_paths: vec![JOURNAL_TMP.to_owned()],
        })?;
        return Ok(Recovery::Clean);
    };
    let recovery_failed = |path: String, error: std::io::Error| CommitError::RecoveryFailed {
        path,
        message: error.to_string(),
        recovery_paths: std::iter::once(JOURNAL.to_owned())
            .chain(journal.staged().map(str::to_owned))
            .collect(),
    };
    match journal.state {
        State::Prepared => match apply::roll_back(fs, &journal, hook) {
            Ok(discarded) => Ok(Recovery::RolledBack { discarded }),
            Err(apply::Failure::Interrupted(e)) => Err(e),
            Err(apply::Failure::Io { path, error, .. }) => Err(recovery_failed(path, error)),
        },
        State::Committing => match apply::roll_forward(fs, &journal, hook) {
            Ok(done) => Ok(Recovery::RolledForward {
                completed: done.completed,
                kept_dirs: done.kept_dirs,
            }),
            Err(apply::Failure::Interrupted(e)) => Err(e),
            Err(apply::Failure::Io { path, error, .. }) => Err(recovery_failed(path, error)),
        },
    }
}
