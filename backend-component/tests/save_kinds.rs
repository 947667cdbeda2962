//! Saving after each of the 41 operation kinds, on fresh copies of the real corpora: the
//! save succeeds, the project reads back as the session's model, and the files it changes
//! on disk are among those the preflight of the batch named.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use ofgui_backend::fs::StdFs;
use ofgui_backend::reader::read_project;
use ofgui_backend::session::{Names, Session};
use ofgui_backend::testing::copy_tree;
use ofgui_contracts::api::{FileKind, TransactionPreview};
use ofgui_contracts::ops::OPERATION_KINDS;

use crate::common::disk::snapshot;
use crate::common::{diff, kinds};

use diff::first_difference;

use kinds::{Base, Build, Corpus, cases};

/// Opens a fresh copy, preflights, applies and saves the batch, and checks the result.
fn save_kind(kind: &str, corpus: Corpus, build: Build) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&corpus.root(), dir.path()).unwrap();
    let fs = StdFs::new(dir.path());
    let mut session = Session::open(&fs, Names::session("k"), corpus.fairy(), 0)
        .map_err(|e| format!("open: {e:?}"))?;
    let batch = build(&Base {
        project: session.project(),
        dir: dir.path(),
    });
    let ops = batch.as_array().unwrap();
    if !ops.iter().any(|op| op["kind"] == kind) {
        return Err("the batch has no operation of its kind".into());
    }
    let batch = batch.to_string();
    let before = snapshot(dir.path());

    let preview = session
        .preflight(0, &batch)
        .map_err(|r| format!("preflight refused: {:?}", r.error))?;
    let preview: TransactionPreview = serde_json::from_str(&preview.0).unwrap();
    let named: BTreeSet<String> = preview
        .impact
        .files
        .iter()
        .filter(|f| f.kind == FileKind::File)
        .map(|f| f.path.clone())
        .collect();

    session
        .apply(0, &batch)
        .map_err(|r| format!("apply refused: {:?}", r.error))?;
    session
        .save(&fs, Some(1))
        .map_err(|e| format!("save failed: {e:?}"))?;

    let reread = read_project(&StdFs::new(dir.path()), corpus.fairy())
        .map_err(|e| format!("reread: {e:?}"))?;
    if &reread.project != session.project() {
        let (a, b) = (
            serde_json::to_value(&reread.project).unwrap(),
            serde_json::to_value(session.project()).unwrap(),
        );
        return Err(format!(
            "the saved project reads back differently at {}",
            first_difference(&a, &b)
        ));
    }

    let after = snapshot(dir.path());
    let changed: BTreeSet<&String> = before
        .keys()
        .chain(after.keys())
        .filter(|path| before.get(*path) != after.get(*path))
        .collect();
    let unnamed: Vec<&&String> = changed
        .iter()
        .filter(|path| !named.contains(path.as_str()))
        .collect();
    if !unnamed.is_empty() {
        return Err(format!(
            "the save changed {unnamed:?}, which the preflight did not name (it named {named:?})"
        ));
    }
    // Every batch here changes some file (addBranch alone would only add a directory).
    if changed.is_empty() {
        return Err("the save changed no file".into());
    }
    Ok(())
}

#[test]
fn every_operation_kind_saves_what_its_preflight_names() {
    let cases = cases();
    let kinds: BTreeSet<&str> = cases.iter().map(|(kind, ..)| *kind).collect();
    assert_eq!(cases.len(), OPERATION_KINDS.len(), "one batch per kind");
    assert_eq!(kinds, OPERATION_KINDS.iter().copied().collect());

    // Every kind runs, so one failure does not hide another; two at a time, since
    // copying the corpora (file creation) takes most of the time.
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let mut index = next.fetch_add(1, Ordering::Relaxed);
                while let Some(&(kind, corpus, build)) = cases.get(index) {
                    if let Err(e) = save_kind(kind, corpus, build) {
                        failures
                            .lock()
                            .unwrap()
                            .push((index, format!("{kind}: {e}")));
                    }
                    index = next.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    let failures: Vec<String> = failures.into_iter().map(|(_, failure)| failure).collect();
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
