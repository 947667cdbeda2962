//! Undo and redo: for each of the 41 operation kinds, and along 100 random batches on a
//! real corpus, undo gives back exactly the model before, and redo the one after.

use std::collections::BTreeMap;
use std::path::Path;

use ofgui_backend::fs::StdFs;
use ofgui_backend::session::history::Direction;
use ofgui_backend::session::{Names, Session};
use ofgui_backend::testing::copy_tree;
use ofgui_contracts::api::{HistoryAction, SessionHistory};
use ofgui_contracts::error::BackendError;
use ofgui_contracts::uam::UamProject;
use serde_json::Value;

use crate::common::corpus_ops::corpus_operation;
use crate::common::diff::first_difference;
use crate::common::disk::snapshot;
use crate::common::kinds::{Base, Build, Corpus, cases};

/// The model and files of a session, to compare states with.
#[derive(PartialEq)]
struct Model {
    project: UamProject,
    files: BTreeMap<String, Vec<u8>>,
}

impl Model {
    fn of(session: &Session) -> Model {
        Model {
            project: session.project().clone(),
            files: session.files().clone(),
        }
    }

    /// The model with each file's length and ends only: a hundred states of a corpus
    /// then fit in a test's memory, and the random batches move and remove files
    /// rather than rewrite their bytes.
    fn sketch(session: &Session) -> Model {
        let files = session
            .files()
            .iter()
            .map(|(path, bytes)| {
                let ends = [
                    &bytes[..bytes.len().min(32)],
                    &bytes[bytes.len().saturating_sub(32)..],
                ];
                let mut sketch = bytes.len().to_le_bytes().to_vec();
                sketch.extend(ends.concat());
                (path.clone(), sketch)
            })
            .collect();
        Model {
            project: session.project().clone(),
            files,
        }
    }

    /// Where two models differ, for a failure message.
    fn difference(&self, other: &Model) -> String {
        if self.project != other.project {
            let (a, b) = (
                serde_json::to_value(&self.project).unwrap(),
                serde_json::to_value(&other.project).unwrap(),
            );
            return format!("the model differs at {}", first_difference(&a, &b));
        }
        let paths: Vec<&String> = self
            .files
            .keys()
            .chain(other.files.keys())
            .filter(|path| self.files.get(*path) != other.files.get(*path))
            .collect();
        format!("the files differ at {paths:?}")
    }
}

fn history(session: &Session) -> SessionHistory {
    session.history(1000, false)
}

/// Applies a kind's batch, undoes it, saves (which must write nothing: the disk holds
/// that state), and redoes it.
fn undo_redo_kind(dir: &Path, corpus: Corpus, build: Build) -> Result<(), String> {
    let fs = StdFs::new(dir);
    let mut session = Session::open(&fs, Names::session("h"), corpus.fairy(), 0)
        .map_err(|e| format!("open: {e:?}"))?;
    let batch = build(&Base {
        project: session.project(),
        dir,
    })
    .to_string();
    let before = Model::of(&session);
    session
        .apply(0, &batch)
        .map_err(|r| format!("apply refused: {:?}", r.error))?;
    let applied = Model::of(&session);
    session
        .step(1, Direction::Undo)
        .map_err(|r| format!("undo refused: {:?}", r.error))?;
    if Model::of(&session) != before {
        return Err(format!(
            "after undo {}",
            Model::of(&session).difference(&before)
        ));
    }
    let status = session.status();
    if status.revision != 2 || status.dirty {
        return Err(format!(
            "after undo: revision {} dirty {}",
            status.revision, status.dirty
        ));
    }
    let on_disk = snapshot(dir);
    let report = session
        .save(&fs, Some(2))
        .map_err(|e| format!("save after undo: {e:?}"))?;
    if !report.written.is_empty() || !report.removed.is_empty() || snapshot(dir) != on_disk {
        return Err(format!(
            "the save after undo wrote {:?} and removed {:?}",
            report.written, report.removed
        ));
    }
    session
        .step(2, Direction::Redo)
        .map_err(|r| format!("redo refused: {:?}", r.error))?;
    if Model::of(&session) != applied {
        return Err(format!(
            "after redo {}",
            Model::of(&session).difference(&applied)
        ));
    }
    if !session.status().dirty {
        return Err("after redo the session is not dirty".into());
    }
    Ok(())
}

#[test]
fn every_operation_kind_undoes_to_the_model_before_and_redoes_to_the_one_after() {
    // One copy per corpus: every case leaves its disk as it found it.
    let unity = tempfile::tempdir().unwrap();
    copy_tree(&Corpus::Unity.root(), unity.path()).unwrap();
    let experiments = tempfile::tempdir().unwrap();
    copy_tree(&Corpus::Experiments.root(), experiments.path()).unwrap();
    let mut failures = Vec::new();
    for (kind, corpus, build) in cases() {
        let dir = match corpus {
            Corpus::Unity => unity.path(),
            Corpus::Experiments => experiments.path(),
        };
        if let Err(failure) = undo_redo_kind(dir, corpus, build) {
            failures.push(format!("{kind}: {failure}"));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn a_hundred_random_batches_undo_to_revision_zero_and_redo_to_the_end() {
    let fs = StdFs::new(Corpus::Unity.root());
    let mut session = Session::open(&fs, Names::session("h"), Corpus::Unity.fairy(), 0).unwrap();
    let mut rng = fastrand::Rng::with_seed(0x00d0_0bad_cafe);
    let mut models = vec![Model::sketch(&session)];
    let mut attempt = 0;
    while models.len() <= 100 {
        attempt += 1;
        assert!(attempt < 2000, "too few random batches were accepted");
        let batch: Vec<Value> = (0..1 + rng.usize(..3))
            .map(|k| corpus_operation(&mut rng, session.project(), &format!("z{attempt}_{k}")))
            .collect();
        let revision = session.status().revision;
        if session
            .apply(revision, &Value::Array(batch).to_string())
            .is_ok()
        {
            models.push(Model::sketch(&session));
        }
    }
    assert_eq!(history(&session).undo_count, 100);
    for expected in models.iter().rev().skip(1) {
        let revision = session.status().revision;
        session.step(revision, Direction::Undo).unwrap();
        let now = Model::sketch(&session);
        assert!(now == *expected, "undo: {}", now.difference(expected));
    }
    assert!(!session.status().dirty, "back at the state read");
    assert_eq!(session.status().revision, 200);
    let error = session.step(200, Direction::Undo).unwrap_err().error;
    assert!(
        matches!(&error, BackendError::TransactionUnsupported(r) if r.issues[0].code == "nothing_to_undo"),
        "{error:?}"
    );
    for expected in models.iter().skip(1) {
        let revision = session.status().revision;
        session.step(revision, Direction::Redo).unwrap();
        let now = Model::sketch(&session);
        assert!(now == *expected, "redo: {}", now.difference(expected));
    }
    let log = history(&session);
    assert_eq!((log.undo_count, log.redo_count), (100, 0));
    assert_eq!(log.entries.len(), 300);
    assert_eq!(log.entries[0].action, HistoryAction::Redo);
    assert_eq!(log.entries[0].batch_revision, 100);
    assert_eq!(log.entries[0].revision, 300);
    assert!(!log.truncated);
}

#[test]
fn a_new_batch_after_an_undo_drops_the_redo_branch_and_a_stale_revision_is_refused() {
    let fs = StdFs::new(Corpus::Unity.root());
    let mut session = Session::open(&fs, Names::session("h"), Corpus::Unity.fairy(), 0).unwrap();
    let mut rng = fastrand::Rng::with_seed(7);
    let mut applied = 0;
    while applied < 2 {
        let batch = Value::Array(vec![corpus_operation(&mut rng, session.project(), "z")]);
        let revision = session.status().revision;
        applied += usize::from(session.apply(revision, &batch.to_string()).is_ok());
    }
    let revision = session.status().revision;
    let stale = session
        .step(revision - 1, Direction::Undo)
        .unwrap_err()
        .error;
    assert!(
        matches!(stale, BackendError::StaleWrite { .. }),
        "{stale:?}"
    );
    session.step(revision, Direction::Undo).unwrap();
    assert_eq!(history(&session).redo_count, 1);
    loop {
        let batch = Value::Array(vec![corpus_operation(&mut rng, session.project(), "y")]);
        let revision = session.status().revision;
        if session.apply(revision, &batch.to_string()).is_ok() {
            break;
        }
    }
    let log = history(&session);
    assert_eq!((log.undo_count, log.redo_count), (2, 0));
    let revision = session.status().revision;
    let error = session.step(revision, Direction::Redo).unwrap_err().error;
    assert!(
        matches!(&error, BackendError::TransactionUnsupported(r) if r.issues[0].code == "nothing_to_redo"),
        "{error:?}"
    );
}
