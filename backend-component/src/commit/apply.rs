//! Carrying out a journal: staging before the commit point, then rolling forward after it
//! or back before it. Every step checks what is already done, so running a journal again
//! after a crash at any point ends in the same state.

use std::collections::BTreeSet;
use std::io;

use super::journal::{self, JOURNAL, JOURNAL_TMP, Journal, Op, parent, remove_if_present};
use super::prepare::Staging;
use super::{CommitError, Hook, Step, StepKind, interrupted};
use crate::fs::{ProjectFsWrite, exists, spelling};

pub(super) enum Failure {
    /// The hook stopped here (a simulated crash).
    Interrupted(CommitError),
    /// A filesystem call failed; `index` is the failing op of a roll-forward.
    Io {
        path: String,
        index: usize,
        error: io::Error,
    },
}

fn io_failure(path: &str, index: usize) -> impl FnOnce(io::Error) -> Failure + '_ {
    move |error| Failure::Io {
        path: path.to_owned(),
        index,
        error,
    }
}

fn step(hook: Hook<'_>, kind: StepKind, path: &str) -> Result<(), Failure> {
    if hook(Step { kind, path }).is_break() {
        return Err(Failure::Interrupted(interrupted(kind, path)));
    }
    Ok(())
}

/// Creates the new directories and the staged files, and makes both durable, so that the
/// committing journal never points at a staged file a crash could still lose.
pub(super) fn stage(
    fs: &dyn ProjectFsWrite,
    journal: &Journal,
    staged: &[Staging<'_>],
    hook: Hook<'_>,
) -> Result<(), Failure> {
    for dir in &journal.created_dirs {
        step(hook, StepKind::CreateDir, dir)?;
        match fs.create_dir(dir) {
            // Someone made the same directory meanwhile: it is what the save needs.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            other => other.map_err(io_failure(dir, 0))?,
        }
        fs.sync_dir(parent(dir)).map_err(io_failure(dir, 0))?;
    }
    for file in staged {
        step(hook, StepKind::Stage, &file.path)?;
        fs.write_new_synced(&file.staged, file.bytes)
            .map_err(io_failure(&file.path, 0))?;
    }
    let dirs: BTreeSet<&str> = staged.iter().map(|file| parent(&file.staged)).collect();
    for dir in dirs {
        step(hook, StepKind::SyncStaged, dir)?;
        fs.sync_dir(dir).map_err(io_failure(dir, 0))?;
    }
    Ok(())
}

/// What a roll-forward did.
pub(super) struct Forward {
    /// Every project path the journal changes.
    pub completed: Vec<String>,
    pub removed_dirs: Vec<String>,
    pub kept_dirs: Vec<String>,
}

/// Completes a committing journal: each op, then the directory syncs, then the journal
/// is deleted. Ops already done are recognised and skipped.
pub(super) fn roll_forward(
    fs: &dyn ProjectFsWrite,
    journal: &Journal,
    hook: Hook<'_>,
) -> Result<Forward, Failure> {
    let mut done = Forward {
        completed: user_targets(&journal.ops),
        removed_dirs: Vec::new(),
        kept_dirs: Vec::new(),
    };
    let mut touched = BTreeSet::new();
    for (index, op) in journal.ops.iter().enumerate() {
        let fail = |path: &str| io_failure_owned(path.to_owned(), index);
        match op {
            Op::MoveDir { from, via, to } => {
                step(hook, StepKind::Apply, to)?;
                // Only the old spelling itself counts: on a disk that ignores case, `from`
                // also "exists" once `to` does.
                if exists(fs, from).map_err(fail(from))?
                    && spelling(fs, from).map_err(fail(from))? == *from
                {
                    fs.rename(from, via).map_err(fail(from))?;
                }
                if exists(fs, via).map_err(fail(to))? {
                    fs.rename(via, to).map_err(fail(to))?;
                }
                touched.insert(parent(from).to_owned());
                touched.insert(parent(to).to_owned());
            }
            Op::Aside { path, aside, guard } => {
                step(hook, StepKind::Apply, path)?;
                // Once the guard (the staged write) is placed, `path` may name the new
                // file on a disk that ignores case: never move it then.
                if exists(fs, guard).map_err(fail(path))?
                    && exists(fs, path).map_err(fail(path))?
                    && !exists(fs, aside).map_err(fail(path))?
                {
                    fs.rename(path, aside).map_err(fail(path))?;
                }
                touched.insert(parent(path).to_owned());
            }
            Op::Place { staged, path } => {
                step(hook, StepKind::Apply, path)?;
                if exists(fs, staged).map_err(fail(path))? {
                    fs.rename(staged, path).map_err(fail(path))?;
                }
                touched.insert(parent(path).to_owned());
            }
            Op::Remove { path } => {
                step(hook, StepKind::Apply, path)?;
                remove_if_present(fs, path).map_err(fail(path))?;
                touched.insert(parent(path).to_owned());
            }
            Op::RemoveDir { path } => {
                if !exists(fs, path).map_err(fail(path))? {
                    done.removed_dirs.push(path.clone());
                    continue;
                }
                if !fs.read_dir(path).map_err(fail(path))?.is_empty() {
                    // Filled by someone else since the check: theirs to keep.
                    done.kept_dirs.push(path.clone());
                    continue;
                }
                step(hook, StepKind::RemoveDir, path)?;
                fs.remove_dir(path).map_err(fail(path))?;
                done.removed_dirs.push(path.clone());
                touched.insert(parent(path).to_owned());
            }
        }
    }
    let end = journal.ops.len();
    for dir in touched {
        // A directory removed later in the same journal has nothing left to sync.
        if exists(fs, &dir).map_err(io_failure_owned(dir.clone(), end))? {
            fs.sync_dir(&dir)
                .map_err(io_failure_owned(dir.clone(), end))?;
        }
    }
    finish(fs, hook, end)?;
    Ok(done)
}

/// Undoes a prepared journal: staged files, then new directories (when empty), then the
/// journal. Returns the staged files deleted.
pub(super) fn roll_back(
    fs: &dyn ProjectFsWrite,
    journal: &Journal,
    hook: Hook<'_>,
) -> Result<Vec<String>, Failure> {
    // A committing journal that never got renamed into place.
    remove_if_present(fs, JOURNAL_TMP).map_err(io_failure(JOURNAL_TMP, 0))?;
    let mut discarded = Vec::new();
    let mut touched = BTreeSet::new();
    for staged in journal.staged() {
        if exists(fs, staged).map_err(io_failure(staged, 0))? {
            step(hook, StepKind::Discard, staged)?;
            fs.remove_file(staged).map_err(io_failure(staged, 0))?;
            discarded.push(staged.to_owned());
            touched.insert(parent(staged).to_owned());
        }
    }
    for dir in journal.created_dirs.iter().rev() {
        if exists(fs, dir).map_err(io_failure(dir, 0))?
            && fs.read_dir(dir).map_err(io_failure(dir, 0))?.is_empty()
        {
            step(hook, StepKind::RemoveDir, dir)?;
            fs.remove_dir(dir).map_err(io_failure(dir, 0))?;
            touched.remove(dir.as_str());
            touched.insert(parent(dir).to_owned());
        }
    }
    for dir in touched {
        if exists(fs, &dir).map_err(io_failure(&dir, 0))? {
            fs.sync_dir(&dir).map_err(io_failure(&dir, 0))?;
        }
    }
    finish(fs, hook, 0)?;
    Ok(discarded)
}

/// Deletes the journal durably: the last step of both directions.
fn finish(fs: &dyn ProjectFsWrite, hook: Hook<'_>, index: usize) -> Result<(), Failure> {
    step(hook, StepKind::Finish, JOURNAL)?;
    journal::remove_if_present(fs, JOURNAL).map_err(io_failure(JOURNAL, index))?;
    fs.sync_dir(".").map_err(io_failure(JOURNAL, index))
}

fn io_failure_owned(path: String, index: usize) -> impl FnOnce(io::Error) -> Failure {
    move |error| Failure::Io { path, index, error }
}

/// The project paths ops change, without the hidden names of set-aside files.
fn user_targets(ops: &[Op]) -> Vec<String> {
    ops.iter()
        .filter(|op| !matches!(op, Op::Aside { .. }))
        .map(Op::target)
        .filter(|path| !journal::is_reserved(path))
        .map(str::to_owned)
        .collect()
}

/// A roll-forward of a commit that failed at op `index` (`None`: before the first op, at
/// the journal itself): what is new, what failed, what recovery will still do, and from
/// which files.
pub(super) fn partial_failure(
    journal: &Journal,
    index: Option<usize>,
    path: &str,
    error: &io::Error,
) -> CommitError {
    let (done, rest) = match index {
        Some(index) => {
            let index = index.min(journal.ops.len());
            (
                &journal.ops[..index],
                journal.ops.get(index + 1..).unwrap_or_default(),
            )
        }
        None => (&journal.ops[..0], &journal.ops[..]),
    };
    let pending = user_targets(rest)
        .into_iter()
        .filter(|pending| pending != path)
        .collect();
    let mut recovery_paths = vec![JOURNAL.to_owned()];
    for op in &journal.ops[done.len()..] {
        match op {
            Op::Place { staged, .. } => recovery_paths.push(staged.clone()),
            Op::Aside { aside, .. } => recovery_paths.push(aside.clone()),
            Op::MoveDir { via, .. } => recovery_paths.push(via.clone()),
            Op::Remove { .. } | Op::RemoveDir { .. } => {}
        }
    }
    CommitError::PartialFailure {
        committed: user_targets(done),
        failed: path.to_owned(),
        pending,
        recovery_paths,
        message: error.to_string(),
    }
}
