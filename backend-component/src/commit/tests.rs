use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use super::fault::{FaultAction, FaultInjection};
use super::*;
use crate::fs::{DirEntry, EntryMeta, ProjectFs, ProjectFsWrite, StdFs};

/// A whole directory tree: every directory and every file's bytes, hidden ones included.
type Tree = BTreeMap<String, Option<Vec<u8>>>;

fn snapshot(root: &Path) -> Tree {
    fn walk(dir: &Path, prefix: &str, tree: &mut Tree) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            let path = if prefix.is_empty() {
                name
            } else {
                format!("{prefix}/{name}")
            };
            if entry.file_type().unwrap().is_dir() {
                tree.insert(path.clone(), None);
                walk(&entry.path(), &path, tree);
            } else {
                tree.insert(path, Some(std::fs::read(entry.path()).unwrap()));
            }
        }
    }
    let mut tree = Tree::new();
    walk(root, "", &mut tree);
    tree
}

fn write_tree(root: &Path, tree: &Tree) {
    for (path, content) in tree {
        let target = root.join(path);
        match content {
            None => std::fs::create_dir_all(&target).unwrap(),
            Some(bytes) => {
                std::fs::create_dir_all(target.parent().unwrap()).unwrap();
                std::fs::write(&target, bytes).unwrap();
            }
        }
    }
}

fn tree(files: &[(&str, &str)]) -> Tree {
    let mut tree = Tree::new();
    for (path, text) in files {
        let mut dir = String::new();
        for segment in path.split('/').collect::<Vec<_>>().split_last().unwrap().1 {
            if !dir.is_empty() {
                dir.push('/');
            }
            dir.push_str(segment);
            tree.insert(dir.clone(), None);
        }
        tree.insert((*path).to_owned(), Some(text.as_bytes().to_vec()));
    }
    tree
}

/// The tree `plan` should leave, worked out without a filesystem.
fn expected_after(old: &Tree, plan: &Plan) -> Tree {
    let mut new = old.clone();
    for change in &plan.changes {
        if let Change::Remove { path, .. } = change {
            new.remove(path);
        }
    }
    for dir in &plan.remove_dirs {
        new.retain(|path, _| path != dir && !path.starts_with(&format!("{dir}/")));
    }
    let add_dirs = |path: &str, new: &mut Tree| {
        let mut dir = String::new();
        for segment in path.split('/') {
            if !dir.is_empty() {
                dir.push('/');
            }
            dir.push_str(segment);
            new.entry(dir.clone()).or_insert(None);
        }
    };
    for change in &plan.changes {
        if let Change::Write { path, bytes, .. } = change {
            if let Some((dir, _)) = path.rsplit_once('/') {
                add_dirs(dir, &mut new);
            }
            new.insert(path.clone(), Some(bytes.clone()));
        }
    }
    for dir in &plan.create_dirs {
        add_dirs(dir, &mut new);
    }
    new
}

fn hash(tree: &Tree, path: &str) -> ContentHash {
    ContentHash::of(tree[path].as_ref().unwrap())
}

fn write(path: &str, text: &str, expect: Expect) -> Change {
    Change::Write {
        path: path.to_owned(),
        bytes: text.as_bytes().to_vec(),
        expect,
    }
}

fn remove(tree: &Tree, path: &str) -> Change {
    Change::Remove {
        path: path.to_owned(),
        expect: hash(tree, path),
    }
}

fn project() -> Tree {
    tree(&[
        (
            "Project.fairy",
            r#"<projectDescription id="p1" type="Unity" version="5.0"/>"#,
        ),
        ("settings/Common.json", "{}"),
        (
            "assets/Main/package.xml",
            "<packageDescription>v1</packageDescription>",
        ),
        ("assets/Main/Button.xml", "<component>button</component>"),
        ("assets/Main/images/a.png", "\u{89}PNG a"),
        (
            "assets/Old/package.xml",
            "<packageDescription>old</packageDescription>",
        ),
        ("assets/Old/x.xml", "<component>x</component>"),
        ("assets/Old/images/y.png", "\u{89}PNG y"),
        ("notes.txt", "not the project's"),
    ])
}

/// A save touching every kind of change: a replaced file, a case-only rename, new files
/// in new nested directories, an empty new folder, a removed package directory.
fn big_plan(old: &Tree) -> Plan {
    Plan {
        changes: vec![
            write(
                "assets/Main/package.xml",
                "<packageDescription>v2</packageDescription>",
                Expect::Content(hash(old, "assets/Main/package.xml")),
            ),
            write(
                "assets/Main/button.xml",
                "<component>button</component>",
                Expect::Absent,
            ),
            remove(old, "assets/Main/Button.xml"),
            write(
                "assets/New/package.xml",
                "<packageDescription>new</packageDescription>",
                Expect::Absent,
            ),
            write(
                "assets/New/sub/deep/c.xml",
                "<component>c</component>",
                Expect::Absent,
            ),
            remove(old, "assets/Old/package.xml"),
            remove(old, "assets/Old/x.xml"),
            remove(old, "assets/Old/images/y.png"),
            write(
                "Project.fairy",
                r#"<projectDescription id="p1" type="Unity" version="5.1"/>"#,
                Expect::Content(hash(old, "Project.fairy")),
            ),
        ],
        create_dirs: vec!["assets/New/empty".to_owned()],
        remove_dirs: vec!["assets/Old".to_owned()],
    }
}

/// A new empty directory, in memory (tmpfs) where there is one: the crash loops build and
/// delete hundreds of trees, which takes a real disk tens of seconds.
fn scratch() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    let dir = match shm.is_dir() {
        true => tempfile::tempdir_in(shm).or_else(|_| tempfile::tempdir()),
        false => tempfile::tempdir(),
    };
    dir.unwrap()
}

/// A new directory holding `tree`.
fn fresh(tree: &Tree) -> tempfile::TempDir {
    let dir = scratch();
    write_tree(dir.path(), tree);
    dir
}

fn stop_at(n: usize) -> impl FnMut(Step<'_>) -> ControlFlow<()> {
    let mut calls = 0;
    move |_| {
        calls += 1;
        if calls > n {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

#[test]
fn a_commit_writes_exactly_the_new_tree() {
    let old = project();
    let plan = big_plan(&old);
    let dir = fresh(&old);
    let fs = StdFs::new(dir.path());
    let done = commit(&fs, &plan, &mut no_faults).unwrap();
    assert_eq!(snapshot(dir.path()), expected_after(&old, &plan));
    assert_eq!(done.recovered, Recovery::Clean);
    assert_eq!(
        done.written,
        [
            "assets/Main/package.xml",
            "assets/Main/button.xml",
            "assets/New/package.xml",
            "assets/New/sub/deep/c.xml",
            "Project.fairy"
        ]
    );
    assert_eq!(
        done.removed,
        [
            "assets/Main/Button.xml",
            "assets/Old/package.xml",
            "assets/Old/x.xml",
            "assets/Old/images/y.png"
        ]
    );
    assert_eq!(
        done.created_dirs,
        [
            "assets/New",
            "assets/New/empty",
            "assets/New/sub",
            "assets/New/sub/deep"
        ]
    );
    assert_eq!(done.removed_dirs, ["assets/Old/images", "assets/Old"]);
    assert!(done.kept_dirs.is_empty() && done.unchanged.is_empty());

    // Saving the same again finds everything in place and writes nothing.
    let again = commit(&fs, &plan, &mut no_faults).unwrap();
    assert!(again.written.is_empty() && again.removed.is_empty());
    assert_eq!(again.unchanged.len(), plan.changes.len());
    assert_eq!(snapshot(dir.path()), expected_after(&old, &plan));
}

/// How a test opens a project directory: a plain or a case-insensitive disk.
type Open = dyn Fn(&Path) -> Box<dyn ProjectFsWrite>;

fn quick(root: &Path) -> Box<dyn ProjectFsWrite> {
    Box::new(QuickFs(StdFs::new(root), root.to_owned()))
}

fn folding(root: &Path) -> Box<dyn ProjectFsWrite> {
    Box::new(FoldFs(root.to_owned()))
}

/// Asserts that `dir` holds exactly `want`, which also rules out any journal, staged or
/// set-aside file left behind.
fn assert_tree(dir: &Path, want: &Tree, context: &dyn fmt::Display) {
    let tree = snapshot(dir);
    let hidden: Vec<&String> = tree
        .keys()
        .filter(|path| journal::is_reserved(path))
        .collect();
    assert!(hidden.is_empty(), "{context}: left {hidden:?}");
    assert!(
        tree == *want,
        "{context}: the tree is neither the old nor the new one"
    );
}

/// Crashes `commit` at every step; then, from each crashed state, crashes the recovery at
/// every step of its own and fails each of its filesystem calls, and recovers after each:
/// the tree must be the old one (crash before the commit point) or the new one (after
/// it), byte for byte, whatever happened. Returns the kinds of step crashed at.
fn crash_everywhere(old: &Tree, plan: &Plan, open: &Open) -> BTreeSet<&'static str> {
    let new = expected_after(old, plan);
    assert_ne!(*old, new);
    let mut kinds = BTreeSet::new();
    for n in 0.. {
        let dir = fresh(old);
        let fs = open(dir.path());
        let mut past_commit_point = false;
        let mut steps = stop_at(n);
        let mut hook = |step: Step<'_>| {
            let flow = steps(step);
            if flow.is_continue() && step.kind == StepKind::CommitPoint {
                past_commit_point = true;
            }
            flow
        };
        let result = commit(fs.as_ref(), plan, &mut hook);
        let Err(CommitError::Interrupted { step, path }) = result else {
            result.unwrap();
            assert_tree(dir.path(), &new, &"uninterrupted");
            break;
        };
        kinds.insert(step.name());
        let want = if past_commit_point { &new } else { old };
        let crashed = snapshot(dir.path());
        let at = format!("commit stopped before {step:?} at {path}");

        // Recovery itself crashed at each of its steps, then run to the end.
        for m in 0.. {
            let again = fresh(&crashed);
            let fs = open(again.path());
            match recover_with(fs.as_ref(), &mut stop_at(m)) {
                Err(CommitError::Interrupted { step, .. }) => {
                    kinds.insert(step.name());
                    recover(fs.as_ref()).unwrap();
                    assert_tree(
                        again.path(),
                        want,
                        &format!("{at}, recovery after {m} steps"),
                    );
                }
                other => {
                    other.unwrap();
                    break;
                }
            }
        }
        // Recovery failing at each of its filesystem calls, then run again.
        for k in 0.. {
            let again = fresh(&crashed);
            let failing = FailFs::new(open(again.path()), k);
            match recover(&failing) {
                Err(CommitError::RecoveryFailed { message, .. }) => {
                    assert!(message.contains("injected"), "{message}");
                    recover(open(again.path()).as_ref()).unwrap();
                    assert_tree(
                        again.path(),
                        want,
                        &format!("{at}, recovery call {k} failed"),
                    );
                }
                other => {
                    other.unwrap();
                    break;
                }
            }
        }

        let recovered = recover(fs.as_ref()).unwrap();
        assert_tree(dir.path(), want, &at);
        match recovered {
            Recovery::RolledForward { .. } => assert!(past_commit_point, "{at}"),
            Recovery::RolledBack { .. } | Recovery::Clean => assert!(!past_commit_point, "{at}"),
        }
        assert_eq!(recover(fs.as_ref()).unwrap(), Recovery::Clean);
    }
    kinds
}

fn all_step_names() -> BTreeSet<&'static str> {
    StepKind::ALL.into_iter().map(StepKind::name).collect()
}

#[test]
fn a_crash_at_any_step_recovers_to_the_old_or_the_new_tree() {
    let old = project();
    let kinds = crash_everywhere(&old, &big_plan(&old), &quick);
    // Every kind of step was crashed at, in the commit or in a recovery.
    assert_eq!(kinds, all_step_names());
}

/// A case-only folder rename too (images → Images), on a disk that ignores case.
fn folding_plan(old: &Tree) -> Plan {
    let mut plan = big_plan(old);
    plan.changes.push(write(
        "assets/Main/Images/a.png",
        "\u{89}PNG a",
        Expect::Absent,
    ));
    plan.changes.push(remove(old, "assets/Main/images/a.png"));
    plan.remove_dirs.push("assets/Main/images".to_owned());
    plan
}

#[test]
fn a_case_insensitive_disk_crashes_to_the_old_or_the_new_tree() {
    let old = project();
    let kinds = crash_everywhere(&old, &folding_plan(&old), &folding);
    assert_eq!(kinds, all_step_names());
}

#[test]
fn a_case_only_rename_on_a_case_insensitive_disk_keeps_the_new_file() {
    let old = project();
    let dir = fresh(&old);
    let fs = FoldFs(dir.path().to_owned());
    let plan = Plan {
        changes: vec![
            write(
                "assets/Main/button.xml",
                "<component>button</component>",
                Expect::Absent,
            ),
            remove(&old, "assets/Main/Button.xml"),
            write("assets/Main/Images/a.png", "\u{89}PNG a", Expect::Absent),
            remove(&old, "assets/Main/images/a.png"),
        ],
        create_dirs: Vec::new(),
        remove_dirs: vec!["assets/Main/images".to_owned()],
    };
    let done = commit(&fs, &plan, &mut no_faults).unwrap();
    let tree = snapshot(dir.path());
    assert_eq!(tree, expected_after(&old, &plan));
    assert!(
        tree.contains_key("assets/Main/button.xml") && !tree.contains_key("assets/Main/Button.xml")
    );
    assert!(tree.contains_key("assets/Main/Images/a.png"));
    assert_eq!(done.created_dirs, Vec::<String>::new());

    // A plain replacing rename onto the old spelling would have deleted the new file:
    // the emulation really ignores case.
    assert!(fs.read("assets/main/BUTTON.XML").is_ok());
}

#[test]
fn a_case_only_rename_on_a_case_sensitive_disk() {
    let old = project();
    let dir = fresh(&old);
    let fs = StdFs::new(dir.path());
    let plan = Plan {
        changes: vec![
            write(
                "assets/Main/button.xml",
                "<component>button</component>",
                Expect::Absent,
            ),
            remove(&old, "assets/Main/Button.xml"),
        ],
        ..Plan::default()
    };
    commit(&fs, &plan, &mut no_faults).unwrap();
    assert_eq!(snapshot(dir.path()), expected_after(&old, &plan));
}

#[test]
fn files_changed_on_disk_refuse_the_whole_save_and_nothing_is_written() {
    let old = project();
    let plan = big_plan(&old);
    let dir = fresh(&old);
    // The editor, meanwhile: edits one file, creates another, deletes two (one the save
    // rewrites, one it removes).
    std::fs::write(
        dir.path().join("assets/Main/package.xml"),
        "edited in the editor",
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join("assets/New")).unwrap();
    std::fs::write(
        dir.path().join("assets/New/package.xml"),
        "made in the editor",
    )
    .unwrap();
    std::fs::remove_file(dir.path().join("Project.fairy")).unwrap();
    std::fs::remove_file(dir.path().join("assets/Old/x.xml")).unwrap();
    let before = snapshot(dir.path());

    let error = commit(&StdFs::new(dir.path()), &plan, &mut no_faults).unwrap_err();
    let CommitError::Conflict { conflicts } = &error else {
        panic!("{error:?}")
    };
    // Every conflicting file, sorted by path; a file the save would remove that is
    // already gone refuses nothing.
    assert_eq!(
        conflicts,
        &[
            Conflict {
                path: "Project.fairy".into(),
                kind: ConflictKind::Removed
            },
            Conflict {
                path: "assets/Main/package.xml".into(),
                kind: ConflictKind::Changed
            },
            Conflict {
                path: "assets/New/package.xml".into(),
                kind: ConflictKind::Created
            },
        ]
    );
    assert_tree(dir.path(), &before, &"refused");
    let message = error.to_string();
    for part in [
        "Project.fairy was deleted on disk",
        "assets/Main/package.xml changed on disk",
        "assets/New/package.xml was created on disk",
        "Nothing was written",
        "reopen the project",
    ] {
        assert!(message.contains(part), "{message}");
    }
}

#[test]
fn a_plan_with_nothing_to_change_touches_nothing() {
    let old = project();
    let dir = fresh(&old);
    // Every changing call would fail: none may be made.
    let fs = FailFs::new(Box::new(StdFs::new(dir.path())), 0);
    assert_eq!(
        commit(&fs, &Plan::default(), &mut no_faults).unwrap(),
        Committed::default()
    );

    // Writes of the bytes already there and removals of files already gone.
    let same = Plan {
        changes: vec![
            write(
                "Project.fairy",
                std::str::from_utf8(old["Project.fairy"].as_ref().unwrap()).unwrap(),
                Expect::Content(hash(&old, "Project.fairy")),
            ),
            Change::Remove {
                path: "assets/Gone.xml".into(),
                expect: ContentHash::of(b"whatever it was"),
            },
        ],
        create_dirs: vec!["assets/Main/images".into()],
        remove_dirs: vec!["assets/Gone".into()],
    };
    let done = commit(&fs, &same, &mut no_faults).unwrap();
    assert_eq!(done.unchanged, ["Project.fairy", "assets/Gone.xml"]);
    assert!(done.written.is_empty() && done.removed.is_empty() && done.created_dirs.is_empty());
    assert_eq!(fs.calls.get(), 0);
    assert_tree(dir.path(), &old, &"nothing to change");
}

#[test]
fn a_file_in_a_removed_directory_that_the_session_never_read_refuses_the_save() {
    let old = project();
    let plan = big_plan(&old);
    let dir = fresh(&old);
    std::fs::write(dir.path().join("assets/Old/images/readme.txt"), "mine").unwrap();
    let before = snapshot(dir.path());
    let error = commit(&StdFs::new(dir.path()), &plan, &mut no_faults).unwrap_err();
    assert_eq!(
        error,
        CommitError::Conflict {
            conflicts: vec![Conflict {
                path: "assets/Old/images/readme.txt".into(),
                kind: ConflictKind::UnknownEntry
            }]
        }
    );
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn a_new_file_whose_name_another_file_takes_on_a_case_insensitive_disk_is_refused() {
    let old = project();
    let dir = fresh(&old);
    let plan = Plan {
        changes: vec![write("assets/Main/BUTTON.xml", "new", Expect::Absent)],
        ..Plan::default()
    };
    let error = commit(&FoldFs(dir.path().to_owned()), &plan, &mut no_faults).unwrap_err();
    assert_eq!(
        error,
        CommitError::Conflict {
            conflicts: vec![Conflict {
                path: "assets/Main/BUTTON.xml".into(),
                kind: ConflictKind::CaseCollision {
                    existing: "assets/Main/Button.xml".into()
                }
            }]
        }
    );
    assert_eq!(snapshot(dir.path()), old);
    // Where case matters the two are different files.
    commit(&StdFs::new(dir.path()), &plan, &mut no_faults).unwrap();
}

#[cfg(unix)]
#[test]
fn hard_linked_and_symlinked_files_are_refused() {
    let old = project();
    let plan = big_plan(&old);
    let dir = fresh(&old);
    // Beside the project, on the same filesystem, so the hard link can be made.
    let outside = scratch();
    std::fs::write(outside.path().join("elsewhere"), "x").unwrap();
    std::fs::hard_link(
        dir.path().join("assets/Main/package.xml"),
        outside.path().join("link"),
    )
    .unwrap();
    std::fs::remove_file(dir.path().join("Project.fairy")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("elsewhere"),
        dir.path().join("Project.fairy"),
    )
    .unwrap();
    let before = snapshot(dir.path());
    let Err(CommitError::Conflict { conflicts }) =
        commit(&StdFs::new(dir.path()), &plan, &mut no_faults)
    else {
        panic!()
    };
    assert_eq!(
        conflicts,
        [
            Conflict {
                path: "Project.fairy".into(),
                kind: ConflictKind::NotAFile
            },
            Conflict {
                path: "assets/Main/package.xml".into(),
                kind: ConflictKind::HardLinked
            },
        ]
    );
    assert_eq!(snapshot(dir.path()), before);
    assert_eq!(
        std::fs::read(outside.path().join("link")).unwrap(),
        old["assets/Main/package.xml"].clone().unwrap()
    );
}

#[test]
fn a_leftover_committing_journal_is_completed_before_the_next_commit() {
    let old = project();
    let plan = big_plan(&old);
    let dir = fresh(&old);
    let fs = StdFs::new(dir.path());
    let mut fault = FaultInjection::new(StepKind::Apply, 3, FaultAction::Stop);
    let error = commit(&fs, &plan, &mut |step| fault.check(step)).unwrap_err();
    assert!(matches!(
        error,
        CommitError::Interrupted {
            step: StepKind::Apply,
            ..
        }
    ));
    assert!(dir.path().join(JOURNAL).exists());

    let new = expected_after(&old, &plan);
    let next = Plan {
        changes: vec![write(
            "assets/Main/package.xml",
            "<packageDescription>v3</packageDescription>",
            Expect::Content(hash(&new, "assets/Main/package.xml")),
        )],
        ..Plan::default()
    };
    let done = commit(&fs, &next, &mut no_faults).unwrap();
    let Recovery::RolledForward {
        completed,
        kept_dirs,
    } = &done.recovered
    else {
        panic!("{:?}", done.recovered)
    };
    assert!(
        completed.contains(&"assets/Old".to_owned()),
        "{completed:?}"
    );
    assert!(kept_dirs.is_empty());
    assert_eq!(snapshot(dir.path()), expected_after(&new, &next));
}

#[test]
fn a_leftover_prepared_journal_is_rolled_back_before_the_next_commit() {
    let old = project();
    let plan = big_plan(&old);
    let dir = fresh(&old);
    let fs = StdFs::new(dir.path());
    let mut fault = FaultInjection::new(StepKind::Stage, 3, FaultAction::Stop);
    commit(&fs, &plan, &mut |step| fault.check(step)).unwrap_err();
    let crashed = snapshot(dir.path());
    assert!(crashed.contains_key(JOURNAL));
    assert!(crashed.keys().any(|path| path.contains(".ofgui-staged-")));

    let done = commit(&fs, &plan, &mut no_faults).unwrap();
    let Recovery::RolledBack { discarded } = &done.recovered else {
        panic!("{:?}", done.recovered)
    };
    assert_eq!(discarded.len(), 2, "{discarded:?}");
    assert_eq!(snapshot(dir.path()), expected_after(&old, &plan));
}

#[test]
fn a_journal_that_does_not_parse_is_reported_and_nothing_is_touched() {
    let old = project();
    let dir = fresh(&old);
    std::fs::write(dir.path().join(JOURNAL), "{\"format\": \"ofgui-save-jour").unwrap();
    std::fs::write(
        dir.path().join("assets/Main/.Button.xml.ofgui-staged-0123"),
        "?",
    )
    .unwrap();
    let before = snapshot(dir.path());
    let fs = StdFs::new(dir.path());
    let error = recover(&fs).unwrap_err();
    assert!(matches!(&error, CommitError::JournalUnreadable { path, .. } if path == JOURNAL));
    assert!(error.to_string().contains("Nothing was changed"), "{error}");
    assert_eq!(
        commit(&fs, &big_plan(&old), &mut no_faults).unwrap_err(),
        error
    );
    assert_eq!(snapshot(dir.path()), before);

    // A journal naming paths no commit writes is not followed either.
    let forged = r#"{"format":"ofgui-save-journal","version":1,"id":"ab12","state":"committing",
        "createdDirs":[],"ops":[{"op":"place","staged":"notes.txt","path":"Project.fairy"}]}"#;
    std::fs::write(dir.path().join(JOURNAL), forged).unwrap();
    let error = recover(&fs).unwrap_err();
    assert!(
        matches!(error, CommitError::JournalUnreadable { .. }),
        "{error:?}"
    );
    assert_eq!(snapshot(dir.path())["Project.fairy"], old["Project.fairy"]);
}

/// Fails each filesystem call of a commit in turn: before the commit point the project
/// must be left unchanged (nothing to clean up), after it the next recovery must bring it
/// to the new tree. Returns how many failures came after the commit point.
fn fail_everywhere(old: &Tree, plan: &Plan, open: &Open) -> usize {
    let new = expected_after(old, plan);
    let mut partial = 0;
    for fail_at in 0.. {
        let dir = fresh(old);
        let fs = FailFs::new(open(dir.path()), fail_at);
        match commit(&fs, plan, &mut no_faults) {
            Ok(_) => {
                assert_tree(dir.path(), &new, &"no failure");
                break;
            }
            Err(CommitError::WriteFailed {
                path,
                message,
                leftovers,
            }) => {
                assert_tree(
                    dir.path(),
                    old,
                    &format!("failing call {fail_at} at {path}"),
                );
                assert!(message.contains("injected"), "{message}");
                assert!(leftovers.is_empty(), "{leftovers:?}");
            }
            Err(CommitError::PartialFailure {
                committed,
                failed,
                pending,
                recovery_paths,
                ..
            }) => {
                partial += 1;
                assert_eq!(recovery_paths[0], JOURNAL);
                assert!(
                    committed.iter().all(|path| !pending.contains(path)),
                    "{committed:?} {pending:?}"
                );
                // The next open completes the save.
                recover(open(dir.path()).as_ref()).unwrap();
                assert_tree(
                    dir.path(),
                    &new,
                    &format!("failing call {fail_at} at {failed}"),
                );
            }
            Err(other) => panic!("failing call {fail_at}: {other:?}"),
        }
    }
    partial
}

#[test]
fn a_write_failure_at_any_call_leaves_the_old_or_after_recovery_the_new_tree() {
    let old = project();
    assert!(fail_everywhere(&old, &big_plan(&old), &quick) > 0);
    assert!(fail_everywhere(&old, &folding_plan(&old), &folding) > 0);
}

#[test]
fn a_save_retried_after_a_partial_failure_completes() {
    let old = project();
    let plan = big_plan(&old);
    let dir = fresh(&old);
    // Fails the first rename after the commit point.
    let fs = FailFs::new(quick(dir.path()), usize::MAX);
    fs.fail_on_rename_after_journal.set(true);
    let error = commit(&fs, &plan, &mut no_faults).unwrap_err();
    let CommitError::PartialFailure {
        committed, pending, ..
    } = &error
    else {
        panic!("{error:?}")
    };
    assert!(committed.is_empty(), "{committed:?}");
    assert!(!pending.is_empty());
    // The session still holds the same plan: saving again finishes the job.
    let done = commit(&StdFs::new(dir.path()), &plan, &mut no_faults).unwrap();
    assert!(matches!(done.recovered, Recovery::RolledForward { .. }));
    assert_eq!(done.unchanged.len(), plan.changes.len());
    assert_eq!(snapshot(dir.path()), expected_after(&old, &plan));
}

#[test]
fn staged_leftovers_in_a_removed_directory_are_cleaned_up() {
    let old = project();
    let plan = big_plan(&old);
    let dir = fresh(&old);
    std::fs::write(
        dir.path().join("assets/Old/.x.xml.ofgui-staged-77aa"),
        "stale",
    )
    .unwrap();
    commit(&StdFs::new(dir.path()), &plan, &mut no_faults).unwrap();
    assert_eq!(snapshot(dir.path()), expected_after(&old, &plan));
}

#[test]
fn plans_that_cannot_be_right_are_refused_before_the_disk_is_touched() {
    let old = project();
    let cases = [
        (write("../escape.txt", "x", Expect::Absent), "../escape.txt"),
        (write("/abs.txt", "x", Expect::Absent), "/abs.txt"),
        (write("assets//x", "x", Expect::Absent), "assets//x"),
        (write(JOURNAL, "x", Expect::Absent), JOURNAL),
        (
            write("assets/Main/.a.xml.ofgui-staged-1", "x", Expect::Absent),
            "assets/Main/.a.xml.ofgui-staged-1",
        ),
    ];
    for (change, path) in cases {
        let plan = Plan {
            changes: vec![change],
            ..Plan::default()
        };
        let dir = fresh(&old);
        let error = commit(&StdFs::new(dir.path()), &plan, &mut no_faults).unwrap_err();
        assert!(
            matches!(&error, CommitError::InvalidPlan { path: p, .. } if p == path),
            "{error:?}"
        );
        assert_eq!(snapshot(dir.path()), old);
    }
    let twice = Plan {
        changes: vec![
            write("a.xml", "1", Expect::Absent),
            write("A.xml", "2", Expect::Absent),
        ],
        ..Plan::default()
    };
    assert!(matches!(
        commit(&StdFs::new(fresh(&old).path()), &twice, &mut no_faults),
        Err(CommitError::InvalidPlan { .. })
    ));
    let inside_removed = Plan {
        changes: vec![write("assets/Old/z.xml", "1", Expect::Absent)],
        remove_dirs: vec!["assets/Old".into()],
        ..Plan::default()
    };
    assert!(matches!(
        commit(
            &StdFs::new(fresh(&old).path()),
            &inside_removed,
            &mut no_faults
        ),
        Err(CommitError::InvalidPlan { .. })
    ));
}

#[test]
fn the_journal_and_staged_files_are_invisible_to_the_reader() {
    let root = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/HelloFairy"
    ));
    let dir = tempfile::tempdir().unwrap();
    crate::testing::copy_tree(&root, dir.path()).unwrap();
    let fs = StdFs::new(dir.path());
    let read = |fs: &StdFs| {
        let source = crate::reader::read_project(fs, "HelloFairy.fairy").unwrap();
        (
            serde_json::to_string(&source.project).unwrap(),
            source.documents.keys().cloned().collect::<Vec<_>>(),
            source.bytes.keys().cloned().collect::<Vec<_>>(),
            source.diagnostics.len(),
        )
    };
    let clean = read(&fs);
    for path in [
        JOURNAL,
        JOURNAL_TMP,
        ".HelloFairy.fairy.ofgui-staged-ab12",
        "assets/Main/.MainView.xml.ofgui-staged-ab12",
        "assets/Main/.package.xml.ofgui-aside-ab12",
        "assets/Main/images/.panel.png.ofgui-staged-ab12",
    ] {
        std::fs::write(dir.path().join(path), "<garbage").unwrap();
    }
    std::fs::create_dir(dir.path().join("assets/Main/.images.ofgui-aside-ab12")).unwrap();
    assert_eq!(read(&fs), clean);
}

#[test]
fn fault_specifications() {
    let fault = FaultInjection::parse("apply:2:hang").unwrap();
    assert_eq!(
        fault,
        FaultInjection::new(StepKind::Apply, 2, FaultAction::Hang)
    );
    assert_eq!(
        FaultInjection::parse("commit-point").unwrap(),
        FaultInjection::new(StepKind::CommitPoint, 1, FaultAction::Hang)
    );
    assert_eq!(
        FaultInjection::parse("stage:stop").unwrap(),
        FaultInjection::new(StepKind::Stage, 1, FaultAction::Stop)
    );
    assert!(
        FaultInjection::parse("nowhere")
            .unwrap_err()
            .contains("commit-point")
    );
    assert!(FaultInjection::parse("stage:0").is_err());
    assert_eq!(
        FaultInjection::parse("prepare-journal:spin").unwrap(),
        FaultInjection::new(StepKind::PrepareJournal, 1, FaultAction::Spin)
    );
    assert_eq!(
        FaultInjection::parse("stage:2:alloc").unwrap(),
        FaultInjection::new(StepKind::Stage, 2, FaultAction::Alloc)
    );
    assert!(
        FaultInjection::parse("stage:melt")
            .unwrap_err()
            .contains("spin, alloc")
    );
    for step in StepKind::ALL {
        assert_eq!(FaultInjection::parse(step.name()).unwrap().step, step);
    }
    // Unconfigured, production's hook never interferes.
    if std::env::var_os(fault::ENV).is_none() {
        let mut hook = fault::configured();
        for step in StepKind::ALL {
            assert!(
                hook(Step {
                    kind: step,
                    path: "x"
                })
                .is_continue()
            );
        }
    }
}

#[test]
fn stopping_at_the_configured_occurrence() {
    let old = project();
    let plan = big_plan(&old);
    let dir = fresh(&old);
    let mut fault = FaultInjection::parse("create-dir:2:stop").unwrap();
    let error = commit(&StdFs::new(dir.path()), &plan, &mut |step| {
        fault.check(step)
    })
    .unwrap_err();
    assert_eq!(
        error,
        CommitError::Interrupted {
            step: StepKind::CreateDir,
            path: "assets/New/empty".into()
        }
    );
}

/// A disk that ignores letter case but keeps it, as on Windows and macOS: each path
/// segment finds an entry spelled otherwise when none is spelled exactly so.
struct FoldFs(PathBuf);

impl FoldFs {
    fn real(&self, path: &str) -> PathBuf {
        let mut real = self.0.clone();
        if path == "." {
            return real;
        }
        for segment in path.split('/') {
            let found = std::fs::read_dir(&real).ok().and_then(|entries| {
                let names: Vec<String> = entries
                    .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
                    .collect();
                names
                    .iter()
                    .find(|name| *name == segment)
                    .or_else(|| {
                        names
                            .iter()
                            .find(|name| name.to_lowercase() == segment.to_lowercase())
                    })
                    .cloned()
            });
            real.push(found.as_deref().unwrap_or(segment));
        }
        real
    }

    /// `path`'s parent as found, with the last segment spelled as asked.
    fn new_name(&self, path: &str) -> PathBuf {
        match path.rsplit_once('/') {
            Some((dir, name)) => self.real(dir).join(name),
            None => self.0.join(path),
        }
    }
}

impl ProjectFs for FoldFs {
    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        std::fs::read(self.real(path))
    }

    fn read_dir(&self, path: &str) -> io::Result<Vec<DirEntry>> {
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(self.real(path))? {
            let entry = entry?;
            entries.push(DirEntry {
                name: entry.file_name().into_string().unwrap(),
                is_dir: entry.file_type()?.is_dir(),
            });
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(entries)
    }
}

impl ProjectFsWrite for FoldFs {
    fn metadata(&self, path: &str) -> io::Result<EntryMeta> {
        StdFs::new(&self.0).metadata(
            self.real(path)
                .strip_prefix(&self.0)
                .unwrap()
                .to_str()
                .unwrap(),
        )
    }

    fn write_new_synced(&self, path: &str, bytes: &[u8]) -> io::Result<()> {
        let real = self.real(path);
        if real.exists() {
            return Err(io::ErrorKind::AlreadyExists.into());
        }
        std::fs::write(real, bytes)
    }

    fn rename(&self, from: &str, to: &str) -> io::Result<()> {
        let from = self.real(from);
        let existing = self.real(to);
        let target = self.new_name(to);
        if existing.exists() && existing != from {
            if existing.is_dir() {
                std::fs::remove_dir(&existing)?;
            } else {
                std::fs::remove_file(&existing)?;
            }
        }
        std::fs::rename(from, target)
    }

    fn remove_file(&self, path: &str) -> io::Result<()> {
        std::fs::remove_file(self.real(path))
    }

    fn create_dir(&self, path: &str) -> io::Result<()> {
        let real = self.real(path);
        if real.exists() {
            return Err(io::ErrorKind::AlreadyExists.into());
        }
        std::fs::create_dir(real)
    }

    fn remove_dir(&self, path: &str) -> io::Result<()> {
        std::fs::remove_dir(self.real(path))
    }

    fn sync_dir(&self, path: &str) -> io::Result<()> {
        // Opened, not synced: see [`QuickFs`].
        std::fs::File::open(self.real(path)).map(drop)
    }
}

/// [`StdFs`] that never calls fsync. The loops below crash between filesystem calls, not
/// the machine, so syncing changes none of their outcomes; on a real disk it would cost
/// them half a minute. The other tests use [`StdFs`] itself.
struct QuickFs(StdFs, PathBuf);

impl ProjectFs for QuickFs {
    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        self.0.read(path)
    }

    fn read_dir(&self, path: &str) -> io::Result<Vec<DirEntry>> {
        self.0.read_dir(path)
    }
}

impl ProjectFsWrite for QuickFs {
    fn metadata(&self, path: &str) -> io::Result<EntryMeta> {
        self.0.metadata(path)
    }

    fn write_new_synced(&self, path: &str, bytes: &[u8]) -> io::Result<()> {
        use std::io::Write;
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(self.1.join(path))?
            .write_all(bytes)
    }

    fn rename(&self, from: &str, to: &str) -> io::Result<()> {
        self.0.rename(from, to)
    }

    fn remove_file(&self, path: &str) -> io::Result<()> {
        self.0.remove_file(path)
    }

    fn create_dir(&self, path: &str) -> io::Result<()> {
        self.0.create_dir(path)
    }

    fn remove_dir(&self, path: &str) -> io::Result<()> {
        self.0.remove_dir(path)
    }

    fn sync_dir(&self, path: &str) -> io::Result<()> {
        self.0.read_dir(path).map(drop)
    }
}

/// A filesystem whose `fail_at`-th changing call (0-based) fails, or, when
/// `fail_on_rename_after_journal` is set, the first rename after the commit point.
struct FailFs {
    inner: Box<dyn ProjectFsWrite>,
    fail_at: usize,
    calls: Cell<usize>,
    fail_on_rename_after_journal: Cell<bool>,
    committing: Cell<bool>,
}

impl FailFs {
    fn new(inner: Box<dyn ProjectFsWrite>, fail_at: usize) -> Self {
        Self {
            inner,
            fail_at,
            calls: Cell::new(0),
            fail_on_rename_after_journal: Cell::new(false),
            committing: Cell::new(false),
        }
    }

    fn call(&self) -> io::Result<()> {
        let n = self.calls.get();
        self.calls.set(n + 1);
        if n == self.fail_at {
            return Err(io::Error::other("injected failure"));
        }
        Ok(())
    }
}

impl ProjectFs for FailFs {
    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        self.inner.read(path)
    }

    fn read_dir(&self, path: &str) -> io::Result<Vec<DirEntry>> {
        self.inner.read_dir(path)
    }
}

impl ProjectFsWrite for FailFs {
    fn metadata(&self, path: &str) -> io::Result<EntryMeta> {
        self.inner.metadata(path)
    }

    fn write_new_synced(&self, path: &str, bytes: &[u8]) -> io::Result<()> {
        self.call()?;
        self.inner.write_new_synced(path, bytes)
    }

    fn rename(&self, from: &str, to: &str) -> io::Result<()> {
        self.call()?;
        if self.fail_on_rename_after_journal.get() && self.committing.get() {
            return Err(io::Error::other("injected failure"));
        }
        if to == JOURNAL
            && String::from_utf8(self.inner.read(from)?)
                .unwrap()
                .contains("\"committing\"")
        {
            self.committing.set(true);
        }
        self.inner.rename(from, to)
    }

    fn remove_file(&self, path: &str) -> io::Result<()> {
        self.call()?;
        self.inner.remove_file(path)
    }

    fn create_dir(&self, path: &str) -> io::Result<()> {
        self.call()?;
        self.inner.create_dir(path)
    }

    fn remove_dir(&self, path: &str) -> io::Result<()> {
        self.call()?;
        self.inner.remove_dir(path)
    }

    fn sync_dir(&self, path: &str) -> io::Result<()> {
        self.call()?;
        self.inner.sync_dir(path)
    }
}

#[test]
fn a_full_disk_fails_the_save_and_leaves_the_old_project_without_leftovers() {
    let old = project();
    let plan = big_plan(&old);
    // No room at all (the journal fails), room for the journal but not for every staged
    // file, and room for everything.
    for free in [0, 2_000, 10_000_000] {
        let dir = fresh(&old);
        let fs = StdFs::new(dir.path());
        let full = fault::DiskLimit::new(&fs, free);
        match commit(&full, &plan, &mut no_faults) {
            Err(CommitError::WriteFailed {
                message, leftovers, ..
            }) => {
                assert!(free < 10_000_000);
                assert_eq!(message, "no space left on device");
                assert_eq!(leftovers, Vec::<String>::new());
                assert_eq!(snapshot(dir.path()), old, "free {free}");
            }
            Ok(_) => {
                assert_eq!(free, 10_000_000);
                assert_eq!(snapshot(dir.path()), expected_after(&old, &plan));
            }
            Err(other) => panic!("free {free}: {other}"),
        }
    }
}
