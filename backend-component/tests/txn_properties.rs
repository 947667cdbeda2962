//! Property-style checks: random batches of valid and invalid operations either apply
//! fully (the same result as applying them one by one) or leave the model and the
//! revision exactly as they were; and on the real corpora, no accepted batch adds a
//! finding (a containment or group cycle above all) and no refused batch blames one the
//! project already had.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;

use ofgui_backend::fs::StdFs;
use ofgui_backend::lookup::cycles;
use ofgui_backend::reader::read_project;
use ofgui_backend::session::{Names as SessionNames, Session};
use ofgui_backend::testing::{assert_articles, experiments_root, unity_root, well_worded};
use ofgui_backend::txn;
use ofgui_backend::validate;
use ofgui_contracts::diagnostics::ProjectDiagnostic;
use ofgui_contracts::ops::Operation;
use ofgui_contracts::uam::{ComponentModel, DisplayNode, UamProject};
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

/// What the generator can name in a project.
struct Names {
    packages: Vec<String>,
    /// `(packageId, componentId)`.
    components: Vec<(String, String)>,
    /// `(packageId, resourceId)` of assets.
    assets: Vec<(String, String)>,
}

impl Names {
    fn of(project: &UamProject) -> Self {
        let mut names = Names {
            packages: Vec::new(),
            components: Vec::new(),
            assets: Vec::new(),
        };
        for package in &project.packages {
            names.packages.push(package.id.clone());
            for resource in &package.resources {
                let key = (package.id.clone(), resource.id().to_string());
                if resource.component().is_some() {
                    names.components.push(key);
                } else {
                    names.assets.push(key);
                }
            }
        }
        names
    }
}

fn pick<'a, T>(rng: &mut fastrand::Rng, items: &'a [T]) -> Option<&'a T> {
    (!items.is_empty()).then(|| &items[rng.usize(..items.len())])
}

fn model_of<'p>(project: &'p UamProject, (package, id): &(String, String)) -> &'p ComponentModel {
    project
        .packages
        .iter()
        .find(|p| p.id == *package)
        .and_then(|p| p.resources.iter().find(|r| r.id() == id))
        .and_then(|r| r.component())
        .expect("component")
}

fn comp_selector((package, id): &(String, String)) -> Value {
    json!({ "packageId": package, "componentResourceId": id })
}

fn node_selector((package, id): &(String, String), node: &str) -> Value {
    json!({ "packageId": package, "componentResourceId": id, "displayNodeId": node })
}

/// A component instance node of `target`.
fn instance_node(id: &str, (package, comp): &(String, String)) -> Value {
    json!({
        "kind": "component", "id": id, "name": id, "position": { "x": 0, "y": 0 },
        "size": { "width": 10, "height": 10 }, "locked": false, "aspect": false,
        "minSize": { "width": 0, "height": 0 }, "maxSize": { "width": 0, "height": 0 },
        "scale": { "x": 1, "y": 1 }, "skew": { "x": 0, "y": 0 }, "visible": true,
        "touchable": true, "grayed": false, "alpha": 1, "rotation": 0, "tooltips": "",
        "blendMode": "normal", "filter": "", "filterData": "", "customData": "",
        "group": "", "relations": [], "gears": [],
        "resource": { "packageId": package, "resourceId": comp }
    })
}

/// A group node, itself in `group`.
fn group_node(id: &str, group: &str) -> Value {
    json!({
        "kind": "group", "id": id, "name": id, "position": { "x": 0, "y": 0 },
        "size": { "width": 10, "height": 10 }, "locked": false, "aspect": false,
        "minSize": { "width": 0, "height": 0 }, "maxSize": { "width": 0, "height": 0 },
        "scale": { "x": 1, "y": 1 }, "skew": { "x": 0, "y": 0 }, "visible": true,
        "touchable": true, "grayed": false, "alpha": 1, "rotation": 0, "tooltips": "",
        "blendMode": "normal", "filter": "", "filterData": "", "customData": "",
        "group": group, "relations": [], "gears": [],
        "layout": 0, "lineGap": 0, "columnGap": 0, "advanced": false,
        "excludeInvisibles": false, "autoSizeDisabled": false, "mainGridIndex": -1
    })
}

/// One operation drawn from the project as it is: edits that can close containment or
/// group cycles, edits near the corpus's legacy defects, removals, renames.
fn corpus_operation(rng: &mut fastrand::Rng, project: &UamProject, fresh: &str) -> Value {
    let names = Names::of(project);
    let (Some(component), Some(target)) = (
        pick(rng, &names.components).cloned(),
        pick(rng, &names.components).cloned(),
    ) else {
        return json!({ "kind": "addBranch", "branch": fresh });
    };
    let model = model_of(project, &component);
    let url = format!("ui://{}{}", target.0, target.1);
    let node = pick(rng, &model.display_list).map(|n| n.id().to_string());
    let groups: Vec<String> = model
        .display_list
        .iter()
        .filter(|n| matches!(n, DisplayNode::Group(_)))
        .map(|n| n.id().to_string())
        .chain(["gA", "gB", "gC"].map(String::from))
        .collect();
    let group = pick(rng, &groups).cloned().unwrap_or_default();
    match rng.usize(..16) {
        0 | 1 => {
            json!({ "kind": "attachDisplayNode", "selector": comp_selector(&component), "atIndex": 0, "node": instance_node(fresh, &target) })
        }
        2 => {
            let id = ["gA", "gB", "gC"][rng.usize(..3)];
            json!({ "kind": "attachDisplayNode", "selector": comp_selector(&component), "atIndex": 0, "node": group_node(id, &group) })
        }
        3 => match node {
            Some(node) => {
                json!({ "kind": "setDisplayNodeProps", "selector": node_selector(&component, &node), "props": { "group": group } })
            }
            None => json!({ "kind": "addBranch", "branch": fresh }),
        },
        4 => match node {
            Some(node) => {
                json!({ "kind": "detachDisplayNode", "selector": node_selector(&component, &node) })
            }
            None => json!({ "kind": "addBranch", "branch": fresh }),
        },
        5 => {
            // A loader or a list of the component now builds the target.
            let snapshot = model.display_list.iter().find_map(|n| match n {
                DisplayNode::Loader(l) => {
                    let mut props = serde_json::to_value(&l.props).expect("loader");
                    props["url"] = json!(url);
                    Some((n.id(), json!({ "loaderProperties": props })))
                }
                DisplayNode::List(l) if !l.list.list_items.is_empty() => {
                    let mut props = serde_json::to_value(&l.list).expect("list");
                    props["defaultItem"] = json!(url);
                    Some((n.id(), json!({ "listProperties": props })))
                }
                _ => None,
            });
            match snapshot {
                Some((id, props)) => {
                    json!({ "kind": "setDisplayNodeProps", "selector": node_selector(&component, id), "props": props })
                }
                None => {
                    json!({ "kind": "attachDisplayNode", "selector": comp_selector(&component), "atIndex": 0, "node": instance_node(fresh, &target) })
                }
            }
        }
        6 => {
            let package = pick(rng, &names.packages).expect("packages");
            json!({ "kind": "renamePackage", "selector": { "packageId": package }, "newName": format!("P{fresh}") })
        }
        7 => {
            json!({ "kind": "renameResource", "selector": { "packageId": component.0, "resourceId": component.1 }, "newName": format!("R{fresh}") })
        }
        8 => match pick(rng, &model.transitions) {
            Some(t) => {
                let mut transition = serde_json::to_value(t).expect("transition");
                transition["autoPlay"] = json!(rng.bool());
                if rng.usize(..3) == 0
                    && let Some(items) = transition["items"].as_array_mut()
                    && let Some(first) = items.first().cloned()
                {
                    let mut item = first;
                    item["targetNodeId"] = json!(node.clone().unwrap_or_else(|| "n404".into()));
                    items.push(item);
                }
                json!({ "kind": "updateTransition", "selector": { "packageId": component.0, "componentResourceId": component.1, "transitionName": t.name }, "transition": transition })
            }
            None => json!({ "kind": "removeComponent", "selector": comp_selector(&component) }),
        },
        9 => json!({ "kind": "removeComponent", "selector": comp_selector(&component) }),
        10 => match pick(rng, &names.assets) {
            Some((package, id)) => {
                json!({ "kind": "removeResource", "selector": { "packageId": package, "resourceId": id } })
            }
            None => json!({ "kind": "removePackage", "selector": { "packageId": component.0 } }),
        },
        11 => match pick(rng, &model.controllers) {
            Some(c) => {
                json!({ "kind": "removeController", "selector": { "packageId": component.0, "componentResourceId": component.1, "controllerName": c.name } })
            }
            None => match pick(rng, &model.transitions) {
                Some(t) => {
                    json!({ "kind": "removeTransition", "selector": { "packageId": component.0, "componentResourceId": component.1, "transitionName": t.name } })
                }
                None => {
                    json!({ "kind": "removePackage", "selector": { "packageId": component.0 } })
                }
            },
        },
        12 => match (node, pick(rng, &model.controllers)) {
            (Some(node), Some(c)) => {
                let kind = ["text", "color", "icon", "animation"][rng.usize(..4)];
                let value = match kind {
                    "text" => json!({ "text": "x" }),
                    "icon" => json!({ "icon": url }),
                    "color" => json!({ "color": "#ff0000", "outlineColor": null }),
                    _ => {
                        json!({ "frame": 0, "playing": true, "animationName": "", "skinName": "" })
                    }
                };
                let page = c.pages.first().map(|p| p.id.clone()).unwrap_or_default();
                json!({ "kind": "addGear",
                    "selector": { "packageId": component.0, "componentResourceId": component.1, "displayNodeId": node, "kind": kind, "controllerName": c.name },
                    "gear": { "kind": kind, "name": "", "controllerName": c.name, "states": [{ "pageId": page, "value": value }],
                        "defaultValue": value, "condition": "", "positionsInPercent": false, "tween": false,
                        "tweenDuration": 0.3, "tweenDelay": 0, "easeType": 5, "customEasePath": "" } })
            }
            _ => json!({ "kind": "removePackage", "selector": { "packageId": component.0 } }),
        },
        13 => {
            let to = pick(rng, &names.packages).expect("packages");
            json!({ "kind": "moveComponent", "selector": comp_selector(&component), "toPackageId": to, "toIndex": 0 })
        }
        14 => {
            let mut settings = serde_json::to_value(&project.settings).expect("settings");
            settings["common"]["scrollBars"]["vertical"] = json!(url);
            settings["common"]["fontSize"] = json!(rng.usize(10..20));
            json!({ "kind": "updateProjectSettings", "settings": settings })
        }
        _ => {
            // The corpus's legacy defects: HitTest/component1 and Transition/BOSS.
            let legacy = if rng.bool() {
                ("ezq9a8mh".to_string(), "g40jh".to_string())
            } else {
                ("zgmoraj4".to_string(), "gkq00".to_string())
            };
            match project.packages.iter().any(|p| p.id == legacy.0)
                && Names::of(project).components.contains(&legacy)
            {
                true => {
                    let model = model_of(project, &legacy);
                    match (
                        rng.usize(..3),
                        model.transitions.first(),
                        pick(rng, &model.display_list),
                    ) {
                        (0, Some(t), _) => {
                            json!({ "kind": "updateTransition", "selector": { "packageId": legacy.0, "componentResourceId": legacy.1, "transitionName": t.name }, "transition": t })
                        }
                        (1, _, Some(n)) => {
                            json!({ "kind": "detachDisplayNode", "selector": node_selector(&legacy, n.id()) })
                        }
                        _ => {
                            json!({ "kind": "renamePackage", "selector": { "packageId": legacy.0 }, "newName": format!("L{fresh}") })
                        }
                    }
                }
                false => json!({ "kind": "addBranch", "branch": fresh }),
            }
        }
    }
}

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

/// Random valid batches on a copy of the unity corpus, each saved: after every save a
/// fresh read of the disk equals the session's model, and a save without edits writes
/// nothing.
#[test]
fn random_corpus_batches_save_and_read_back_equal() {
    let dir = tempfile::tempdir().unwrap();
    ofgui_backend::testing::copy_tree(&unity_root(), dir.path()).unwrap();
    let fs = StdFs::new(dir.path());
    let fairy = "FairyGUI-Unity-Examples.fairy";
    let mut session = Session::open(&fs, SessionNames::session("save"), fairy, 0).unwrap();
    let idle = session.save(&fs, Some(0)).unwrap();
    assert!(
        idle.written.is_empty() && idle.removed.is_empty(),
        "{idle:?}"
    );
    let mut rng = fastrand::Rng::with_seed(0x5a7e_5a7e_0000_0001);
    let (mut saved, mut refused) = (0, 0);
    for round in 0..80 {
        let project = session.project().clone();
        let batch: Vec<Value> = (0..1 + rng.usize(..2))
            .map(|k| corpus_operation(&mut rng, &project, &format!("s{round}_{k}")))
            .collect();
        let revision = session.status().revision;
        if session
            .apply(revision, &Value::Array(batch.clone()).to_string())
            .is_err()
        {
            refused += 1;
            continue;
        }
        match session.save(&fs, Some(revision + 1)) {
            Ok(_) => saved += 1,
            Err(error) => panic!("round {round}: {error:?} for {batch:#?}"),
        }
        let reread = read_project(&fs, fairy).unwrap();
        assert_eq!(
            &reread.project,
            session.project(),
            "round {round}: the disk does not read back as the model after {batch:#?}"
        );
        assert!(!session.status().dirty);
    }
    assert!(saved >= 20, "{saved} saved, {refused} refused");
}
