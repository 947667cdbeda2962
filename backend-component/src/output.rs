//! Writing published files into an output directory, all or nothing.
//!
//! One job: turn "these packages now publish these files" into one [`commit::Plan`] over
//! the output directory (the instance's only preopen, so WASI confines every write to
//! it) and run it with the save's crash-safe commit: after a crash the directory holds
//! each package's old files or its new ones, and the next write finishes or undoes the
//! interrupted one first.
//!
//! Which files are a package's: a file named like one the package publishes now, its
//! descriptor under any of the engines' names (`<Package>.fui`, `.bin`, `.bytes`), or
//! `<Package>_…` unless a longer package name of the project claims it (`Bag_` is not
//! `Bag_Extra_`'s). Files of a written package that the new output lacks are removed;
//! everything else (other packages, Unity's `.meta` files, sub-directories, files of
//! other tools) is left alone.
//!
//! Binding code goes the same way into a code directory, one folder per package: the
//! folder's files are the generator's, so those the new code lacks are removed (not
//! `.meta` files, not sub-folders).
//! A skeleton's files keep their own names (`hero.json`, `hero.png`), which say nothing
//! about their package: they are written like the others but never removed, since a
//! name without the prefix may as well be another tool's or a file the user put there.
//! Publishing refuses a skeleton file whose name another package of the project owns by
//! the rule above, or that two packages publish (`publishing`), so a later publish of
//! that other package cannot remove or overwrite it.

use std::collections::BTreeSet;

use ofgui_contracts::error::BackendError;

use crate::commit::{self, Change, CommitError, ContentHash, Expect, Hook, Plan};
use crate::fs::{EntryKind, ProjectFsWrite};
use crate::save::Attempt;

/// One package's new files: names (one path segment each) and bytes.
pub struct PackageFiles {
    pub package_name: String,
    pub files: Vec<(String, Vec<u8>)>,
}

/// What a write did, by file name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutputReport {
    pub written: Vec<String>,
    pub unchanged: Vec<String>,
    pub removed: Vec<String>,
    pub recovered: Vec<String>,
}

/// Replaces the packages' files in `fs`'s root (see the module documentation).
/// The files are taken, not copied: the instance holds each file's bytes once.
pub fn write_packages(
    fs: &dyn ProjectFsWrite,
    session_id: &str,
    packages: Vec<PackageFiles>,
    project_packages: &[String],
    hook: Hook<'_>,
) -> Result<OutputReport, BackendError> {
    let groups: Vec<Group> = packages
        .into_iter()
        .map(|package| Group {
            name: package.package_name.clone(),
            dir: String::new(),
            files: package.files,
            owns: Box::new(move |name: &str| owns(&package.package_name, name, project_packages)),
        })
        .collect();
    replace(fs, session_id, groups, hook)
}

/// One package's binding code: its folder in the code directory and the files in it.
#[derive(Clone)]
pub struct CodeFolder {
    pub folder: String,
    pub files: Vec<(String, Vec<u8>)>,
}

/// Replaces each code folder's files in `fs`'s root (the code directory), creating the
/// folder when missing. A folder's files are the generator's: those the new code lacks
/// are removed, except Unity's `.meta` files; sub-folders and everything outside the
/// folders are left alone.
pub fn write_code(
    fs: &dyn ProjectFsWrite,
    session_id: &str,
    folders: Vec<CodeFolder>,
    hook: Hook<'_>,
) -> Result<OutputReport, BackendError> {
    for folder in &folders {
        if !is_plain_file_name(&folder.folder) {
            return Err(BackendError::invalid_input(
                format!(
                    "The code folder {:?} is not one plain folder name.",
                    folder.folder
                ),
                Some("/folders".to_owned()),
            ));
        }
    }
    let groups: Vec<Group> = folders
        .into_iter()
        .map(|folder| Group {
            name: folder.folder.clone(),
            dir: folder.folder,
            files: folder.files,
            owns: Box::new(|name: &str| !name.ends_with(".meta")),
        })
        .collect();
    replace(fs, session_id, groups, hook)
}

/// Files to write into one directory (`""`: the root), and which of the files already
/// there are the group's to remove when the new set lacks them.
struct Group<'a> {
    /// The package's or code folder's name, for messages.
    name: String,
    dir: String,
    files: Vec<(String, Vec<u8>)>,
    owns: Box<dyn Fn(&str) -> bool + 'a>,
}

/// What a failure leaves as it was, in words: "The files of package Bag are", "The files
/// of the code folders Bag, Basics are".
fn subject(groups: &[Group<'_>]) -> String {
    let names: Vec<&str> = groups.iter().map(|g| g.name.as_str()).collect();
    let kind = match groups.first() {
        Some(group) if !group.dir.is_empty() => "code folder",
        _ => "package",
    };
    let plural = if names.len() == 1 { "" } else { "s" };
    format!("The files of the {kind}{plural} {} are", names.join(", "))
}

/// Writes the groups' files and removes their stale ones, in one commit.
fn replace(
    fs: &dyn ProjectFsWrite,
    session_id: &str,
    mut groups: Vec<Group<'_>>,
    hook: Hook<'_>,
) -> Result<OutputReport, BackendError> {
    let subject = subject(&groups);
    let failed = |error: CommitError| output_failed(session_id, &subject, error);
    // An interrupted earlier write is finished or undone before the directory is read,
    // so the plan is made against what the directory holds after it.
    let recovered = commit::recover_with(fs, hook).map_err(failed)?;
    let mut plan = Plan::default();
    let mut new_paths = BTreeSet::new();
    let path_of = |dir: &str, name: &str| {
        if dir.is_empty() {
            name.to_owned()
        } else {
            format!("{dir}/{name}")
        }
    };
    for group in &mut groups {
        for (name, bytes) in std::mem::take(&mut group.files) {
            if !is_plain_file_name(&name) {
                return Err(BackendError::invalid_input(
                    format!("The output file name {name:?} is not one plain file name."),
                    Some("/packages".to_owned()),
                ));
            }
            let path = path_of(&group.dir, &name);
            if !new_paths.insert(path.clone()) {
                return Err(BackendError::invalid_input(
                    format!("Two packages publish a file named {path:?}."),
                    Some("/packages".to_owned()),
                ));
            }
            plan.changes.push(Change::Write {
                expect: current(fs, &path).map_err(|e| failed(io_failure(&path, &e)))?,
                path,
                bytes,
            });
        }
    }

    let mut listed: BTreeSet<&str> = BTreeSet::new();
    for group in &groups {
        if !listed.insert(&group.dir) {
            continue;
        }
        let at = if group.dir.is_empty() {
            "."
        } else {
            &group.dir
        };
        // A directory just created (or not yet) is empty; one that cannot be listed is a
        // failure, not a reason to leave stale files behind.
        let entries = match fs.read_dir(at) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(error) => return Err(failed(io_failure(at, &error))),
        };
        for entry in entries.iter().filter(|e| !e.is_dir) {
            let path = path_of(&group.dir, &entry.name);
            if new_paths.contains(&path) || commit::is_save_artifact(&entry.name) {
                continue;
            }
            let stale = groups
                .iter()
                .any(|g| g.dir == group.dir && (g.owns)(&entry.name));
            if !stale {
                continue;
            }
            // Only a plain file is ours to remove; a link or anything else stays.
            let Ok(meta) = fs.metadata(&path) else {
                continue;
            };
            if meta.kind != EntryKind::File {
                continue;
            }
            let bytes = fs.read(&path).map_err(|e| failed(io_failure(&path, &e)))?;
            plan.changes.push(Change::Remove {
                path,
                expect: ContentHash::of(&bytes),
            });
        }
    }
    plan.changes.sort_by(|a, b| a.path().cmp(b.path()));

    // Nothing is left to recover now: the commit's own recovery finds a clean directory.
    let committed = commit::commit(fs, &plan, hook).map_err(failed)?;
    Ok(OutputReport {
        written: committed.written,
        unchanged: committed.unchanged,
        removed: committed.removed,
        recovered: match recovered {
            commit::Recovery::Clean => Vec::new(),
            commit::Recovery::RolledBack { discarded } => discarded,
            commit::Recovery::RolledForward { completed, .. } => completed,
        },
    })
}

/// Whether `name` is one of `package`'s published files (see the module documentation).
pub fn owns(package: &str, name: &str, project_packages: &[String]) -> bool {
    let prefix = format!("{package}_");
    // Only the engines' descriptor extensions: `Hero.png` is not package `Hero`'s.
    let descriptor_like = name
        .strip_prefix(package)
        .is_some_and(|rest| matches!(rest, ".fui" | ".bin" | ".bytes"));
    if descriptor_like {
        return true;
    }
    if !name.starts_with(&prefix) || name.ends_with(".meta") {
        return false;
    }
    !project_packages
        .iter()
        .any(|other| other.len() > package.len() && name.starts_with(&format!("{other}_")))
}

/// What is at `name` now, for the commit's check that nothing changed meanwhile.
fn current(fs: &dyn ProjectFsWrite, name: &str) -> std::io::Result<Expect> {
    match fs.read(name) {
        Ok(bytes) => Ok(Expect::Content(ContentHash::of(&bytes))),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(Expect::Absent),
        Err(error) => Err(error),
    }
}

fn io_failure(path: &str, error: &std::io::Error) -> CommitError {
    CommitError::WriteFailed {
        path: path.to_owned(),
        message: error.to_string(),
        leftovers: Vec::new(),
    }
}

/// The save's failure report, in the words of publishing.
fn output_failed(session_id: &str, subject: &str, error: CommitError) -> BackendError {
    let message = match &error {
        CommitError::WriteFailed { path, message, .. } => format!(
            "Publishing failed writing {path}: {message}. {subject} as they were before \
             (packages a publish wrote before them keep their new files); free space or make \
             the directory writable, then publish again."
        ),
        CommitError::Conflict { conflicts } => format!(
            "Publishing stopped: {} changed while it was written. {subject} as they were \
             before; publish again.",
            conflicts
                .iter()
                .map(|c| c.path.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => format!(
            "Publishing did not finish: {other} The next publish into this directory \
             completes or undoes it first."
        ),
    };
    let attempt = Attempt {
        session_id,
        canonical_path_key: "",
        revision: 0,
        last_saved_revision: 0,
        materialize: true,
    };
    let mut failure = attempt.failed(error);
    if let BackendError::WriteFailed { message: text, .. } = &mut failure {
        *text = message;
    }
    failure
}

/// One path segment: no separators, no `.`/`..`, no control characters.
fn is_plain_file_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\'])
        && !name.chars().any(char::is_control)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_package_owns_its_prefix_but_not_a_longer_packages() {
        let all = names(&["Bag", "Bag_Extra", "Basics"]);
        assert!(owns("Bag", "Bag_fui.bytes", &all));
        assert!(owns("Bag", "Bag_atlas0_1.png", &all));
        assert!(owns("Bag", "Bag.fui", &all));
        assert!(owns("Bag", "Bag.bin", &all));
        assert!(!owns("Bag", "Bag.png", &all));
        assert!(!owns("Bag", "Bag.skel.bytes", &all));
        assert!(!owns("Bag", "Bag.fui.meta", &all));
        assert!(!owns("Bag", "Bag_fui.bytes.meta", &all));
        assert!(!owns("Bag", "Bag_Extra_fui.bytes", &all));
        assert!(!owns("Bag", "Basics_fui.bytes", &all));
        assert!(!owns("Bag", "Bagpipe_fui.bytes", &all));
        assert!(owns("Bag_Extra", "Bag_Extra_atlas0.png", &all));
    }

    #[test]
    fn code_folders_are_replaced_and_nothing_else_is_touched() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("Bag/Old")).unwrap();
        for (path, text) in [
            ("Bag/UI_Gone.cs", "old"),
            ("Bag/UI_Gone.cs.meta", "meta"),
            ("Bag/UI_Main.cs", "same"),
            ("Bag/Old/Keep.cs", "sub"),
            ("Mine.cs", "user"),
        ] {
            std::fs::write(root.join(path), text).unwrap();
        }
        let fs = crate::fs::StdFs::new(root);
        let folders = vec![
            CodeFolder {
                folder: "Bag".to_owned(),
                files: vec![
                    ("UI_Main.cs".to_owned(), b"same".to_vec()),
                    ("BagBinder.cs".to_owned(), b"binder".to_vec()),
                ],
            },
            CodeFolder {
                folder: "New".to_owned(),
                files: vec![("UI_A.cs".to_owned(), b"a".to_vec())],
            },
        ];
        let mut hook = |_: commit::Step<'_>| std::ops::ControlFlow::Continue(());
        let report = write_code(&fs, "s", folders.clone(), &mut hook).unwrap();
        assert_eq!(report.written, names(&["Bag/BagBinder.cs", "New/UI_A.cs"]));
        assert_eq!(report.unchanged, names(&["Bag/UI_Main.cs"]));
        assert_eq!(report.removed, names(&["Bag/UI_Gone.cs"]));
        for kept in ["Bag/UI_Gone.cs.meta", "Bag/Old/Keep.cs", "Mine.cs"] {
            assert!(root.join(kept).exists(), "{kept} was removed");
        }
        assert_eq!(std::fs::read(root.join("New/UI_A.cs")).unwrap(), b"a");

        let again = write_code(&fs, "s", folders.clone(), &mut hook).unwrap();
        assert!(again.written.is_empty() && again.removed.is_empty());
    }

    #[test]
    fn a_code_folder_is_one_segment() {
        let dir = tempfile::tempdir().unwrap();
        let fs = crate::fs::StdFs::new(dir.path());
        let folders = vec![CodeFolder {
            folder: "../x".to_owned(),
            files: vec![("a.cs".to_owned(), Vec::new())],
        }];
        let mut hook = |_: commit::Step<'_>| std::ops::ControlFlow::Continue(());
        assert!(write_code(&fs, "s", folders.clone(), &mut hook).is_err());
    }

    #[test]
    fn names_are_one_segment() {
        assert!(is_plain_file_name("Bag_fui.bytes"));
        for bad in ["", ".", "..", "a/b", "a\\b", "a\nb"] {
            assert!(!is_plain_file_name(bad), "{bad:?}");
        }
    }
}
