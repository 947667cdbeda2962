//! Property-style check of atomicity: random batches of valid and invalid operations
//! either apply fully (the same result as applying them one by one) or leave the model
//! and the revision exactly as they were.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use ofgui_backend::fs::StdFs;
use ofgui_backend::session::{Names, Session};
use ofgui_backend::txn;
use ofgui_contracts::ops::Operation;
use serde_json::{Value, json};

const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/HelloFairy");

fn node(id: &str) -> Value {
    json!({ "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": id })
}

/// One operation drawn from a pool mixing valid edits, edits that are valid only once,
/// and edits that are always refused.
fn random_operation(rng: &mut fastrand::Rng) -> Value {
    let word = ["Ready", "Go", "Stop", "Hello", "Title"][rng.usize(..5)];
    match rng.usize(..10) {
        0 => {
            json!({ "kind": "setDisplayNodeProps", "selector": node("n1_view"), "props": { "text": format!("{word} {}", rng.usize(..1000)) } })
        }
        1 => {
            json!({ "kind": "setDisplayNodeProps", "selector": node("n1_view"), "props": { "position": { "x": rng.usize(..300), "y": rng.usize(..300) } } })
        }
        2 => {
            json!({ "kind": "setDisplayNodeProps", "selector": node("n1_view"), "props": { "alpha": 2 } })
        }
        3 => {
            json!({ "kind": "setDisplayNodeProps", "selector": node("missing"), "props": { "visible": false } })
        }
        4 => {
            json!({ "kind": "setResourceFavorite", "selector": { "packageId": "main0001", "resourceId": "img0" }, "favorite": rng.usize(..2) == 0 })
        }
        5 => {
            json!({ "kind": "addResourceFolder", "selector": { "packageId": "main0001" }, "path": format!("/extra{}/", rng.usize(..3)) })
        }
        6 => {
            json!({ "kind": "renameResource", "selector": { "packageId": "main0001", "resourceId": "view1" }, "newName": format!("{word}View") })
        }
        7 => {
            json!({ "kind": "setResourceExported", "selector": { "packageId": "nope", "resourceId": "img0" }, "exported": true })
        }
        8 => {
            json!({ "kind": "setDisplayNodeProps", "selector": node("n0_view"), "props": { "visible": rng.usize(..2) == 0 } })
        }
        _ => {
            json!({ "kind": "setComponentProps", "selector": { "packageId": "main0001", "componentResourceId": "view1" }, "props": { "size": { "width": 100 + rng.usize(..400), "height": 300 } } })
        }
    }
}

fn model(session: &Session) -> Value {
    serde_json::to_value(session.project()).unwrap()
}

#[test]
fn random_batches_apply_fully_or_not_at_all() {
    let fs = StdFs::new(EXAMPLE);
    let mut session =
        Session::open(&fs, Names::session("property"), "HelloFairy.fairy").expect("example opens");
    let bytes = std::collections::BTreeMap::new();
    // A fixed seed, so a failure can be replayed.
    let mut rng = fastrand::Rng::with_seed(0x9e37_79b9_7f4a_7c15);
    let (mut applied, mut refused) = (0, 0);
    for round in 0..400 {
        let batch: Vec<Value> = (0..1 + rng.usize(..4))
            .map(|_| random_operation(&mut rng))
            .collect();
        let before = model(&session);
        let revision = session.status().revision;
        let result = session.apply(revision, &Value::Array(batch.clone()).to_string());
        let after = model(&session);
        match result {
            Err(rejected) => {
                refused += 1;
                assert_eq!(
                    after, before,
                    "round {round}: a refused batch changed the model ({:?})",
                    rejected.error
                );
                assert_eq!(
                    session.status().revision,
                    revision,
                    "round {round}: a refused batch advanced the revision"
                );
            }
            Ok(()) => {
                applied += 1;
                assert_eq!(session.status().revision, revision + 1, "round {round}");
                assert!(session.status().dirty);
                // The batch equals its operations applied one after another.
                let mut project: ofgui_contracts::uam::UamProject =
                    serde_json::from_value(before.clone()).unwrap();
                for (index, operation) in batch.iter().enumerate() {
                    let operation: Operation = serde_json::from_value(operation.clone()).unwrap();
                    let step = txn::run(&project, &bytes, &[operation]);
                    project = match step {
                        Ok(step) => step.project,
                        Err(failure) => panic!(
                            "round {round}: op {index} fails alone but not in the batch: {failure:?}"
                        ),
                    };
                }
                assert_eq!(
                    serde_json::to_value(&project).unwrap(),
                    after,
                    "round {round}: batch differs from its steps"
                );
            }
        }
    }
    assert!(
        applied > 50 && refused > 50,
        "the pool exercises both outcomes: {applied} applied, {refused} refused"
    );
}

#[test]
fn a_stale_revision_changes_nothing() {
    let fs = StdFs::new(EXAMPLE);
    let mut session = Session::open(&fs, Names::session("stale"), "HelloFairy.fairy").unwrap();
    let edit = json!([{ "kind": "setDisplayNodeProps", "selector": node("n1_view"), "props": { "text": "x" } }]).to_string();
    session.apply(0, &edit).unwrap();
    let before = model(&session);
    let error = session.apply(0, &edit).unwrap_err();
    assert!(matches!(
        error.error,
        ofgui_contracts::error::BackendError::StaleWrite {
            expected_revision: 0,
            actual_revision: 1,
            ..
        }
    ));
    assert_eq!(model(&session), before);
    assert_eq!(session.status().revision, 1);
    let preview = session.preflight(1, &edit);
    assert!(preview.is_err(), "the same edit again is unchanged");
    assert!(
        session.preflight(0, &edit).is_err(),
        "preflight is revision-checked too"
    );
    assert_eq!(model(&session), before);
}
