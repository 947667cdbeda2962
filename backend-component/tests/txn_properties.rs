//! Property-style checks: random batches of valid and invalid operations either apply
//! fully (the same result as applying them one by one) or leave the model and the
//! revision exactly as they were; and on the real corpora, no accepted batch adds a
//! finding (a containment or group cycle above all) and no refused batch blames one the
//! project already had. (Saving such batches and reading them back is the save harness
//! of the fuzz tests.)

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;

use crate::common::wording::well_worded;
use ofgui_backend::fs::StdFs;
use ofgui_backend::lookup::cycles;
use ofgui_backend::reader::read_project;
use ofgui_backend::session::{Names as SessionNames, Session};
use ofgui_backend::testing::{assert_articles, experiments_root, unity_root};
use ofgui_backend::txn;
use ofgui_backend::validate;
use ofgui_contracts::diagnostics::ProjectDiagnostic;
use ofgui_contracts::ops::Operation;
use ofgui_contracts::uam::UamProject;
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
    let mut session = Session::open(
        &fs,
        SessionNames::session("property"),
        "HelloFairy.fairy",
        0,
    )
    .expect("example opens");
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
                assert_articles(
                    std::iter::once(rejected.error.message())
                        .chain(rejected.diagnostics.iter().map(|d| d.message.as_str())),
                );
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
            Ok(_) => {
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
    let mut session =
        Session::open(&fs, SessionNames::session("stale"), "HelloFairy.fairy", 0).unwrap();
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

// ---------------------------------------------------------------- rules on the corpora

use crate::common::corpus_ops;

use corpus_ops::corpus_operation;

/// What this test takes to be the same finding before and after a batch, worked out here
/// from the diagnostic alone (independently of the engine): its code, the package,
/// resource and node it is located at, the controller, transition or gear of the
/// component it is in (by name, resolved in `project`), and its path without list
/// positions. Never its message.
type Key = (
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    String,
);

fn key(project: &UamProject, finding: &ProjectDiagnostic) -> Key {
    let index = |segment: &str, name: &str| -> Option<usize> {
        segment
            .strip_prefix(name)?
            .strip_prefix('[')?
            .strip_suffix(']')?
            .parse()
            .ok()
    };
    let segments: Vec<&str> = finding.path.split('.').collect();
    let entity = (|| {
        let package = &project.packages[index(segments.first()?, "packages")?];
        let model = package.resources[index(segments.get(1)?, "resources")?].component()?;
        let rest = segments.get(3)?;
        if let Some(c) = index(rest, "controllers") {
            return Some(format!("controller {}", model.controllers[c].name));
        }
        if let Some(t) = index(rest, "transitions") {
            return Some(format!("transition {}", model.transitions[t].name));
        }
        let node = &model.display_list[index(rest, "displayList")?];
        let gear = &node.base().gears[index(segments.get(4)?, "gears")?];
        Some(format!("gear {} {}", gear.kind(), gear.controller_name()))
    })();
    let field: String = finding
        .path
        .split('[')
        .map(|part| part.split_once(']').map_or(part, |(_, rest)| rest))
        .collect();
    (
        finding.code.as_str().to_string(),
        finding.package_id.clone(),
        finding.resource_id.clone(),
        finding.node_id.clone(),
        entity,
        field,
    )
}

/// Every finding of the project, counted by [`key`].
fn findings(project: &UamProject) -> HashMap<Key, usize> {
    let mut counts = HashMap::new();
    for finding in validate::model_findings(project, None) {
        *counts.entry(key(project, &finding.diagnostic)).or_default() += 1;
    }
    counts
}

fn has_cycle(project: &UamProject) -> bool {
    !cycles::containment_cycles(project).is_empty()
        || project.packages.iter().any(|p| {
            p.resources.iter().any(|r| {
                r.component()
                    .is_some_and(|model| !cycles::group_cycles(model).is_empty())
            })
        })
}

/// Random batches on the corpora (chains of accepted batches, restarted now and then):
/// no accepted batch leaves a containment or group cycle, or any other finding the
/// project did not have before (by identity); every finding a refused batch reports is
/// one the batch added: the project before had fewer of it.
#[test]
fn random_corpus_batches_never_create_cycles_or_blame_old_findings() {
    let corpora = [
        read_project(&StdFs::new(unity_root()), "FairyGUI-Unity-Examples.fairy").unwrap(),
        read_project(
            &StdFs::new(experiments_root()),
            "FairyGUI-Experiments.fairy",
        )
        .unwrap(),
    ];
    let mut rng = fastrand::Rng::with_seed(0x0005_eed0_f0fc_1c1e);
    let (mut applied, mut refused, mut final_refusals, mut cycles_refused) = (0, 0, 0, 0);
    for chain in 0..12 {
        let source = &corpora[chain % corpora.len()];
        assert!(!has_cycle(&source.project), "the corpora have no cycles");
        let mut project = source.project.clone();
        let mut bytes = source.bytes.clone();
        for round in 0..25 {
            let batch: Vec<Value> = (0..1 + rng.usize(..4))
                .map(|k| corpus_operation(&mut rng, &project, &format!("z{chain}_{round}_{k}")))
                .collect();
            let operations: Vec<Operation> = batch
                .iter()
                .map(|op| {
                    serde_json::from_value(op.clone()).unwrap_or_else(|e| panic!("{e}: {op}"))
                })
                .collect();
            let before = findings(&project);
            match txn::run(&project, &bytes, &operations) {
                Ok(done) => {
                    applied += 1;
                    assert!(
                        !has_cycle(&done.project),
                        "chain {chain} round {round}: an accepted batch left a cycle: {batch:#?}"
                    );
                    let after = findings(&done.project);
                    for (key, count) in &after {
                        assert!(
                            *count <= before.get(key).copied().unwrap_or(0),
                            "chain {chain} round {round}: an accepted batch added {key:?}: {batch:#?}"
                        );
                    }
                    for (path, data) in done.bytes {
                        match data {
                            Some(data) => bytes.insert(path, data),
                            None => bytes.remove(&path),
                        };
                    }
                    project = done.project;
                }
                Err(failure) => {
                    refused += 1;
                    let failure = well_worded(failure);
                    let reported: Vec<&ProjectDiagnostic> = failure
                        .issues
                        .iter()
                        .filter_map(|i| i.finding.as_deref())
                        .collect();
                    if reported.is_empty() {
                        continue;
                    }
                    final_refusals += 1;
                    if reported
                        .iter()
                        .any(|f| f.message.contains("instantiates") || f.path.ends_with(".group"))
                    {
                        cycles_refused += 1;
                    }
                    let projected = txn::project_unchecked(&project, &bytes, &operations)
                        .expect("final issues come from a projected state");
                    let after = findings(&projected);
                    for finding in reported {
                        // Source findings are judged on the files, not the model.
                        if finding.code.as_str() == "corrupt_source" {
                            continue;
                        }
                        let key = key(&projected, finding);
                        let (had, has) = (
                            before.get(&key).copied().unwrap_or(0),
                            after.get(&key).copied().unwrap_or(0),
                        );
                        assert!(
                            had < has,
                            "chain {chain} round {round}: a refused batch blamed a finding the project had before ({had} → {has}): {finding:#?}\n{batch:#?}"
                        );
                    }
                }
            }
        }
    }
    assert!(
        applied > 40 && refused > 40 && final_refusals > 20 && cycles_refused > 3,
        "the generator exercises every outcome: {applied} applied, {refused} refused, {final_refusals} on the final state, {cycles_refused} for cycles"
    );
}
