//! Before anything is written: the plan's own consistency, every expectation checked
//! against the disk, and the journal that will carry the commit out.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::io;
use std::time::{SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};

use super::journal::{
    ASIDE_MARK, Journal, Op, STAGED_MARK, beside, checked_path, is_reserved, is_save_artifact,
};
use super::{Change, CommitError, Conflict, ConflictKind, ContentHash, Expect, Plan};
use crate::fs::{EntryKind, ProjectFsWrite, exists, spelling};

/// Deeper than any real package folder; stops a pathological tree from running away.
const MAX_DEPTH: usize = 64;

/// One new content and the hidden name it is staged under.
pub(super) struct Staging<'a> {
    pub staged: String,
    pub path: String,
    pub bytes: &'a [u8],
}

pub(super) struct Prepared<'a> {
    /// `None` when the disk already is as the plan wants it.
    pub journal: Option<Journal>,
    pub staged: Vec<Staging<'a>>,
    pub written: Vec<String>,
    pub unchanged: Vec<String>,
    pub removed: Vec<String>,
}

fn invalid(path: &str, reason: impl Into<String>) -> CommitError {
    CommitError::InvalidPlan {
        path: path.to_owned(),
        reason: reason.into(),
    }
}

fn inside(path: &str, dir: &str) -> bool {
    path.strip_prefix(dir)
        .is_some_and(|rest| rest.starts_with('/'))
}

/// The plan's own consistency, before the disk is looked at.
pub(super) fn check_plan(plan: &Plan) -> Result<(), CommitError> {
    let all = plan
        .changes
        .iter()
        .map(Change::path)
        .chain(plan.create_dirs.iter().map(String::as_str))
        .chain(plan.remove_dirs.iter().map(String::as_str));
    for path in all {
        checked_path(path).map_err(|reason| invalid(path, reason))?;
        if is_reserved(path) {
            return Err(invalid(path, "the name is reserved for ofgui's save files"));
        }
    }
    let mut seen = HashSet::new();
    for change in &plan.changes {
        if !seen.insert(change.path()) {
            return Err(invalid(change.path(), "the plan changes this file twice"));
        }
    }
    // Two new files whose names differ only in case would be one file on Windows and
    // macOS: the second write would silently replace the first.
    let mut new_files: HashMap<String, &str> = HashMap::new();
    for change in &plan.changes {
        if let Change::Write { path, expect, .. } = change {
            let lower = path.to_lowercase();
            if let Some(other) = new_files.get(&lower)
                && (*expect == Expect::Absent || plan_expects_absent(plan, other))
            {
                return Err(invalid(
                    path,
                    format!("its name differs from {other} only in letter case"),
                ));
            }
            new_files.insert(lower, path);
        }
    }
    for dir in &plan.remove_dirs {
        let written_inside = plan
            .changes
            .iter()
            .filter(|change| matches!(change, Change::Write { .. }))
            .map(Change::path)
            .chain(plan.create_dirs.iter().map(String::as_str))
            .find(|path| *path == dir.as_str() || inside(path, dir));
        if let Some(path) = written_inside {
            return Err(invalid(
                path,
                format!("it is inside {dir}, which the plan removes"),
            ));
        }
    }
    Ok(())
}

fn plan_expects_absent(plan: &Plan, path: &str) -> bool {
    plan.changes.iter().any(|change| {
        matches!(change, Change::Write { path: p, expect: Expect::Absent, .. } if p == path)
    })
}

/// What is on disk at a file path.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OnDisk {
    Absent,
    File(ContentHash),
}

fn on_disk(fs: &dyn ProjectFsWrite, path: &str) -> Result<OnDisk, ConflictKind> {
    let meta = match fs.metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(OnDisk::Absent),
        Err(e) => return Err(unreadable(&e)),
    };
    match meta.kind {
        EntryKind::File => {}
        EntryKind::Dir | EntryKind::Symlink | EntryKind::Other => {
            return Err(ConflictKind::NotAFile);
        }
    }
    if meta.links.is_some_and(|links| links > 1) {
        return Err(ConflictKind::HardLinked);
    }
    let bytes = fs.read(path).map_err(|e| unreadable(&e))?;
    Ok(OnDisk::File(ContentHash::of(&bytes)))
}

fn unreadable(e: &io::Error) -> ConflictKind {
    ConflictKind::Unreadable {
        message: e.to_string(),
    }
}

/// Paths of the plan keyed by lower case, to find names a case-insensitive disk would
/// take for one another.
fn by_lower<'a>(paths: impl Iterator<Item = &'a str>) -> HashMap<String, Vec<&'a str>> {
    let mut map: HashMap<String, Vec<&str>> = HashMap::new();
    for path in paths {
        map.entry(path.to_lowercase()).or_default().push(path);
    }
    map
}

fn has_alias(map: &HashMap<String, Vec<&str>>, path: &str) -> bool {
    map.get(&path.to_lowercase())
        .is_some_and(|paths| paths.iter().any(|other| *other != path))
}

/// Checks the plan against the disk and builds the journal that carries it out.
pub(super) fn prepare<'a>(
    fs: &dyn ProjectFsWrite,
    plan: &'a Plan,
) -> Result<Prepared<'a>, CommitError> {
    let mut conflicts = Vec::new();
    let mut conflict = |path: &str, kind: ConflictKind| {
        conflicts.push(Conflict {
            path: path.to_owned(),
            kind,
        })
    };
    let removals: BTreeSet<&str> = plan
        .changes
        .iter()
        .filter(|change| matches!(change, Change::Remove { .. }))
        .map(Change::path)
        .collect();
    let writes: BTreeSet<&str> = plan
        .changes
        .iter()
        .filter(|change| matches!(change, Change::Write { .. }))
        .map(Change::path)
        .collect();
    let writes_lower = by_lower(writes.iter().copied());
    let removals_lower = by_lower(removals.iter().copied());

    // Files: what the disk holds against what the session expects.
    let mut to_write: Vec<(&str, &[u8])> = Vec::new();
    let mut to_remove: Vec<&str> = Vec::new();
    let mut unchanged = Vec::new();
    for change in &plan.changes {
        let path = change.path();
        let mut state = match on_disk(fs, path) {
            Ok(state) => state,
            Err(kind) => {
                conflict(path, kind);
                continue;
            }
        };
        // On a disk that ignores case, a path may find a file spelled otherwise. That is
        // the file the session read, unless the plan itself tells them apart: a write's
        // name taken by a file the plan removes (a case-only rename) is free, a removed
        // file found under the spelling of a write has been renamed already (a retried
        // save), and a new file's name taken by anything else is a collision.
        let expects_absent = matches!(
            change,
            Change::Write {
                expect: Expect::Absent,
                ..
            }
        );
        let aliased = has_alias(&writes_lower, path) || has_alias(&removals_lower, path);
        if state != OnDisk::Absent && (aliased || expects_absent) {
            match spelling(fs, path) {
                Ok(actual) if actual == path => {}
                Ok(actual) => match change {
                    Change::Write { .. } if removals.contains(actual.as_str()) => {
                        state = OnDisk::Absent;
                    }
                    Change::Write { .. } if expects_absent => {
                        conflict(path, ConflictKind::CaseCollision { existing: actual });
                        continue;
                    }
                    Change::Remove { .. } if writes.contains(actual.as_str()) => {
                        state = OnDisk::Absent;
                    }
                    Change::Write { .. } | Change::Remove { .. } => {}
                },
                Err(e) => {
                    conflict(path, unreadable(&e));
                    continue;
                }
            }
        }
        match change {
            Change::Write { bytes, expect, .. } => {
                // The new bytes are hashed only to compare with a file already there.
                let already = match state {
                    OnDisk::File(hash) => hash == ContentHash::of(bytes),
                    OnDisk::Absent => false,
                };
                let expected = match expect {
                    Expect::Absent => OnDisk::Absent,
                    Expect::Content(hash) => OnDisk::File(*hash),
                };
                if already {
                    // Already there (a retried save, or the same edit made twice): no
                    // one's change is lost by leaving it.
                    unchanged.push(path.to_owned());
                } else if state == expected {
                    to_write.push((path, bytes));
                } else {
                    conflict(path, mismatch(expected, state));
                }
            }
            Change::Remove { expect, .. } => match state {
                OnDisk::Absent => unchanged.push(path.to_owned()),
                OnDisk::File(hash) if hash == *expect => to_remove.push(path),
                OnDisk::File(_) => conflict(path, ConflictKind::Changed),
            },
        }
    }

    // Directories the plan removes: everything in them must be a removal of the plan.
    let mut tree_dirs: Vec<String> = Vec::new();
    let mut garbage: Vec<String> = Vec::new();
    for dir in &plan.remove_dirs {
        if plan.remove_dirs.iter().any(|other| inside(dir, other)) {
            continue; // walked with its ancestor
        }
        match fs.metadata(dir) {
            Ok(meta) if meta.kind == EntryKind::Dir => {}
            Ok(_) => {
                conflict(dir, ConflictKind::NotADirectory);
                continue;
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => {
                conflict(dir, unreadable(&e));
                continue;
            }
        }
        let mut pending = vec![(dir.clone(), 0)];
        while let Some((current, depth)) = pending.pop() {
            let entries = match fs.read_dir(&current) {
                Ok(entries) => entries,
                Err(e) => {
                    conflict(&current, unreadable(&e));
                    continue;
                }
            };
            for entry in entries {
                let path = format!("{current}/{}", entry.name);
                if entry.is_dir && depth < MAX_DEPTH {
                    pending.push((path, depth + 1));
                } else if entry.is_dir {
                    conflict(&path, ConflictKind::UnknownEntry);
                } else if is_save_artifact(&entry.name) {
                    // A staged or set-aside file an earlier crash left without a journal.
                    garbage.push(path);
                } else if !removals.contains(path.as_str()) {
                    conflict(&path, ConflictKind::UnknownEntry);
                }
            }
            tree_dirs.push(current);
        }
    }

    // Directories the written files need, parents first.
    let mut needed: BTreeSet<(usize, String)> = BTreeSet::new();
    let wanted = to_write
        .iter()
        .filter_map(|(path, _)| path.rsplit_once('/').map(|(dir, _)| dir))
        .chain(plan.create_dirs.iter().map(String::as_str));
    for dir in wanted {
        let mut prefix = String::new();
        for (depth, segment) in dir.split('/').enumerate() {
            if !prefix.is_empty() {
                prefix.push('/');
            }
            prefix.push_str(segment);
            needed.insert((depth, prefix.clone()));
        }
    }
    let tree_lower = by_lower(tree_dirs.iter().map(String::as_str));
    let mut created = Vec::new();
    // Case-only directory renames on a disk that ignores case: (old spelling, new).
    let mut moved: Vec<(String, String)> = Vec::new();
    for (_, dir) in &needed {
        match fs.metadata(dir) {
            // Only a directory the plan removes under another spelling can be a case-only
            // rename; any other spelling difference is the directory the session read.
            Ok(meta) if meta.kind == EntryKind::Dir => {
                if has_alias(&tree_lower, dir) {
                    match spelling(fs, dir) {
                        Ok(actual) if actual == *dir => {}
                        Ok(actual) => {
                            let old = translate(&actual, &moved);
                            if old != *dir {
                                moved.push((old, dir.clone()));
                            }
                        }
                        Err(e) => conflict(dir, unreadable(&e)),
                    }
                }
            }
            Ok(_) => conflict(dir, ConflictKind::NotADirectory),
            Err(e) if e.kind() == io::ErrorKind::NotFound => created.push(dir.clone()),
            Err(e) => conflict(dir, unreadable(&e)),
        }
    }

    if !conflicts.is_empty() {
        conflicts.sort_by(|a, b| a.path.cmp(&b.path));
        conflicts.dedup();
        return Err(CommitError::Conflict { conflicts });
    }

    let needed_dirs: Vec<&str> = needed.iter().map(|(_, dir)| dir.as_str()).collect();
    let kept = |dir: &str| {
        needed_dirs
            .iter()
            .any(|needed| *needed == dir || inside(needed, dir))
    };
    let mut remove_dirs: Vec<String> = tree_dirs
        .iter()
        .map(|dir| translate(dir, &moved))
        .filter(|dir| !kept(dir))
        .collect();
    // Deepest first, so each is empty when its turn comes.
    remove_dirs.sort_by(|a, b| {
        b.matches('/')
            .count()
            .cmp(&a.matches('/').count())
            .then(a.cmp(b))
    });
    remove_dirs.dedup();

    if to_write.is_empty()
        && to_remove.is_empty()
        && remove_dirs.is_empty()
        && created.is_empty()
        && garbage.is_empty()
    {
        return Ok(Prepared {
            journal: None,
            staged: Vec::new(),
            written: Vec::new(),
            unchanged,
            removed: Vec::new(),
        });
    }

    let id = fresh_id(fs, plan, &to_write, &to_remove, &moved)?;
    let staged_name = |path: &str| beside(path, STAGED_MARK, &id);
    let mut ops = Vec::new();
    for (old, new) in &moved {
        ops.push(Op::MoveDir {
            from: old.clone(),
            via: beside(old, ASIDE_MARK, &id),
            to: new.clone(),
        });
    }
    let placed: HashMap<String, &str> = to_write
        .iter()
        .map(|(path, _)| (path.to_lowercase(), *path))
        .collect();
    let mut removals_after = Vec::new();
    for path in &to_remove {
        let current = translate(path, &moved);
        match placed.get(&current.to_lowercase()) {
            // The write replaces it in the same rename.
            Some(write) if *write == current => {}
            Some(write) => {
                let aside = beside(&current, ASIDE_MARK, &id);
                ops.push(Op::Aside {
                    path: current,
                    aside: aside.clone(),
                    guard: staged_name(write),
                });
                removals_after.push(aside);
            }
            None => removals_after.push(current),
        }
    }
    let mut staged = Vec::new();
    for (path, bytes) in &to_write {
        let name = staged_name(path);
        ops.push(Op::Place {
            staged: name.clone(),
            path: (*path).to_owned(),
        });
        staged.push(Staging {
            staged: name,
            path: (*path).to_owned(),
            bytes,
        });
    }
    removals_after.extend(garbage.iter().map(|path| translate(path, &moved)));
    ops.extend(removals_after.into_iter().map(|path| Op::Remove { path }));
    ops.extend(remove_dirs.into_iter().map(|path| Op::RemoveDir { path }));

    Ok(Prepared {
        journal: Some(Journal::new(id, created, ops)),
        staged,
        written: to_write
            .iter()
            .map(|(path, _)| (*path).to_owned())
            .collect(),
        unchanged,
        removed: to_remove.iter().map(|path| (*path).to_owned()).collect(),
    })
}

fn mismatch(expected: OnDisk, actual: OnDisk) -> ConflictKind {
    match (expected, actual) {
        (OnDisk::Absent, _) => ConflictKind::Created,
        (_, OnDisk::Absent) => ConflictKind::Removed,
        _ => ConflictKind::Changed,
    }
}

/// `path` after the case-only directory renames in `moved`.
fn translate(path: &str, moved: &[(String, String)]) -> String {
    let mut path = path.to_owned();
    for (old, new) in moved {
        if path == *old {
            path = new.clone();
        } else if inside(&path, old) {
            path = format!("{new}{}", &path[old.len()..]);
        }
    }
    path
}

/// An id for this commit's hidden names: no file with any of them may exist yet. WASI
/// gives the component no randomness (it imports none); the wall clock, a counter and
/// the plan's paths are unique enough, and existence is checked anyway.
fn fresh_id(
    fs: &dyn ProjectFsWrite,
    plan: &Plan,
    to_write: &[(&str, &[u8])],
    to_remove: &[&str],
    moved: &[(String, String)],
) -> Result<String, CommitError> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mut last_error = None;
    for _ in 0..8 {
        let mut hasher = Sha256::new();
        hasher.update(nanos.to_le_bytes());
        hasher.update(COUNTER.fetch_add(1, Ordering::Relaxed).to_le_bytes());
        for change in &plan.changes {
            hasher.update(change.path().as_bytes());
            hasher.update([0]);
        }
        let digest = hasher.finalize();
        let id: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        let names = to_write
            .iter()
            .map(|(path, _)| beside(path, STAGED_MARK, &id))
            .chain(
                to_remove
                    .iter()
                    .map(|path| beside(&translate(path, moved), ASIDE_MARK, &id)),
            )
            .chain(moved.iter().map(|(old, _)| beside(old, ASIDE_MARK, &id)));
        let mut free = true;
        for name in names {
            match exists(fs, &name) {
                Ok(false) => {}
                Ok(true) => {
                    free = false;
                    break;
                }
                // A staged name too long for the filesystem, for one: staging would fail.
                Err(e) => {
                    last_error = Some((name, e));
                    free = false;
                    break;
                }
            }
        }
        if free {
            return Ok(id);
        }
    }
    let (path, message) = match last_error {
        Some((name, e)) => (name, e.to_string()),
        None => (
            String::new(),
            "no free name to stage the new files under".to_owned(),
        ),
    };
    Err(CommitError::WriteFailed {
        path,
        message,
        leftovers: Vec::new(),
    })
}
