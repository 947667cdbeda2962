//! The save journal: a hidden JSON file in the project root that says what an unfinished
//! commit has done and still has to do, so that the next open or save can finish it (or
//! undo it) after a crash. Also the hidden names of staged and set-aside files.

use std::io;

use serde::{Deserialize, Serialize};

use super::{CommitError, Hook, Step, StepKind, interrupted};
use crate::fs::ProjectFsWrite;

/// The journal of an unfinished commit, in the project root. Hidden, and not a name the
/// reader ever looks at: it lists only directories at the root.
pub const JOURNAL: &str = ".ofgui-save.journal";
/// Where a journal is written before it is renamed into place, so that [`JOURNAL`] is
/// always either absent or complete. Never authoritative: recovery deletes it.
pub const JOURNAL_TMP: &str = ".ofgui-save.journal.tmp";

const FORMAT: &str = "ofgui-save-journal";
const VERSION: u32 = 1;
/// Marks in hidden names beside targets; plan paths may not contain them, so a staged or
/// set-aside name never collides with a project file the save writes or removes.
pub(super) use crate::fs::{ASIDE_MARK, STAGED_MARK, is_save_artifact};

/// How far the commit got: `Prepared` is rolled back, `Committing` rolled forward.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) enum State {
    Prepared,
    Committing,
}

/// One step of the roll-forward, each safe to repeat after a crash (see [`super::apply`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase", deny_unknown_fields)]
pub(super) enum Op {
    /// A directory renamed in letter case only, on a disk that ignores case: `from` →
    /// `via` → `to`, since a rename straight to the other spelling may be a no-op.
    MoveDir {
        from: String,
        via: String,
        to: String,
    },
    /// A file removed while a file whose name differs only in case is written: it is moved
    /// aside first, while `guard` (that write's staged file) still exists, so the write can
    /// never be the file that gets deleted.
    Aside {
        path: String,
        aside: String,
        guard: String,
    },
    /// A staged file renamed over its target.
    Place {
        staged: String,
        path: String,
    },
    Remove {
        path: String,
    },
    /// Removed only when empty: anything else in it is not the save's to delete.
    RemoveDir {
        path: String,
    },
}

impl Op {
    /// The project path the step changes, as the user knows it.
    pub(super) fn target(&self) -> &str {
        match self {
            Op::MoveDir { to, .. } => to,
            Op::Aside { path, .. } | Op::Remove { path } | Op::RemoveDir { path } => path,
            Op::Place { path, .. } => path,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct Journal {
    pub format: String,
    pub version: u32,
    /// Part of every staged and set-aside name of this commit.
    pub id: String,
    pub state: State,
    /// Directories this commit created, parents first; a rollback removes them when empty.
    pub created_dirs: Vec<String>,
    pub ops: Vec<Op>,
}

impl Journal {
    pub(super) fn new(id: String, created_dirs: Vec<String>, ops: Vec<Op>) -> Self {
        Self {
            format: FORMAT.to_owned(),
            version: VERSION,
            id,
            state: State::Prepared,
            created_dirs,
            ops,
        }
    }

    /// The staged files this commit creates.
    pub(super) fn staged(&self) -> impl Iterator<Item = &str> {
        self.ops.iter().filter_map(|op| match op {
            Op::Place { staged, .. } => Some(staged.as_str()),
            _ => None,
        })
    }

    /// Reads the journal, if there is one. A journal that does not parse, or names paths a
    /// commit could not have written, is reported rather than guessed at.
    pub(super) fn read(fs: &dyn ProjectFsWrite) -> Result<Option<Journal>, CommitError> {
        let bytes = match fs.read(JOURNAL) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(unreadable(format!("it cannot be read: {e}"))),
        };
        let journal: Journal = serde_json::from_slice(&bytes)
            .map_err(|e| unreadable(format!("it is not a save journal: {e}")))?;
        journal.check().map_err(unreadable)?;
        Ok(Some(journal))
    }

    fn check(&self) -> Result<(), String> {
        if self.format != FORMAT || self.version != VERSION {
            return Err(format!(
                "it is format {} version {}, not {FORMAT} version {VERSION}",
                self.format, self.version
            ));
        }
        if self.id.is_empty() || !self.id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(format!("its id {:?} is not one ofgui writes", self.id));
        }
        let own = |path: &str, mark: &str| {
            let name = path.rsplit('/').next().unwrap_or(path);
            checked_path(path).is_ok()
                && name.starts_with('.')
                && name.ends_with(&format!("{mark}{}", self.id))
        };
        let plain = |path: &str| checked_path(path).is_ok();
        for dir in &self.created_dirs {
            if !plain(dir) {
                return Err(format!("it names the directory {dir:?}"));
            }
        }
        for op in &self.ops {
            let fine = match op {
                Op::MoveDir { from, via, to } => plain(from) && own(via, ASIDE_MARK) && plain(to),
                Op::Aside { path, aside, guard } => {
                    plain(path) && own(aside, ASIDE_MARK) && own(guard, STAGED_MARK)
                }
                Op::Place { staged, path } => own(staged, STAGED_MARK) && plain(path),
                // Removals include set-aside files and leftovers of earlier saves.
                Op::Remove { path } => checked_path(path).is_ok(),
                Op::RemoveDir { path } => plain(path),
            };
            if !fine {
                return Err(format!("it holds a step ofgui does not write: {op:?}"));
            }
        }
        Ok(())
    }

    /// Makes this journal the project's [`JOURNAL`], durably: written beside it, synced,
    /// renamed over it, root synced. A crash leaves the old journal (or none) or this one.
    pub(super) fn store(
        &self,
        fs: &dyn ProjectFsWrite,
        hook: Hook<'_>,
        write_step: StepKind,
        place_step: StepKind,
    ) -> Result<(), StoreError> {
        let bytes = serde_json::to_vec_pretty(self)
            .map_err(|e| StoreError::Io(JOURNAL_TMP.to_owned(), io::Error::other(e.to_string())))?;
        step(hook, write_step, JOURNAL_TMP)?;
        remove_if_present(fs, JOURNAL_TMP).map_err(|e| StoreError::Io(JOURNAL_TMP.into(), e))?;
        fs.write_new_synced(JOURNAL_TMP, &bytes)
            .map_err(|e| StoreError::Io(JOURNAL_TMP.into(), e))?;
        step(hook, place_step, JOURNAL)?;
        fs.rename(JOURNAL_TMP, JOURNAL)
            .map_err(|e| StoreError::Io(JOURNAL.into(), e))?;
        // Past the rename the journal is in place even if the sync below fails.
        fs.sync_dir(".").map_err(StoreError::Placed)
    }
}

/// Why a journal could not be stored.
pub(super) enum StoreError {
    /// The hook stopped the commit (a simulated crash).
    Interrupted(CommitError),
    /// Failed before the new journal was in place: the old one (or none) still stands.
    Io(String, io::Error),
    /// The new journal was renamed into place but the root could not be synced.
    Placed(io::Error),
}

fn step(hook: Hook<'_>, kind: StepKind, path: &str) -> Result<(), StoreError> {
    if hook(Step { kind, path }).is_break() {
        return Err(StoreError::Interrupted(interrupted(kind, path)));
    }
    Ok(())
}

fn unreadable(reason: String) -> CommitError {
    CommitError::JournalUnreadable {
        path: JOURNAL.to_owned(),
        reason,
    }
}

/// Deletes a file that may already be gone. Looks first, so that the usual case (nothing
/// there) changes nothing on disk and cannot fail as a removal.
pub(super) fn remove_if_present(fs: &dyn ProjectFsWrite, path: &str) -> io::Result<()> {
    match fs.metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
        Ok(_) => {}
    }
    match fs.remove_file(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

/// A project-relative path as commits write them: `/`-separated, no empty, `.` or `..`
/// segment, no backslash or NUL.
pub(super) fn checked_path(path: &str) -> Result<(), &'static str> {
    if path.is_empty() {
        return Err("the path is empty");
    }
    if path.contains(['\\', '\0']) {
        return Err("the path holds a backslash or NUL");
    }
    if path
        .split('/')
        .any(|segment| segment.is_empty() || segment == "." || segment == "..")
    {
        return Err("the path is not a plain project-relative path");
    }
    Ok(())
}

/// The parent directory of a project path (`.` for the root).
pub(super) fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or(".", |(dir, _)| dir)
}

/// `dir/.name<mark><id>`: hidden, beside `path`, so renaming it over `path` never crosses
/// a directory (or a filesystem).
pub(super) fn beside(path: &str, mark: &str, id: &str) -> String {
    match path.rsplit_once('/') {
        Some((dir, name)) => format!("{dir}/.{name}{mark}{id}"),
        None => format!(".{path}{mark}{id}"),
    }
}

/// True for paths only commits create (staged and set-aside files, journals).
pub(super) fn is_reserved(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    path == JOURNAL || path == JOURNAL_TMP || is_save_artifact(name)
}
