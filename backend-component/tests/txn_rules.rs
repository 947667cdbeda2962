//! Transaction rules agree with validation: an edit may leave an old defect but never
//! create one, whatever the order of its operations, and validation reports the defect
//! either way. Run natively on the bundled example and the real corpora (read-only).

use std::sync::{Arc, OnceLock};

use crate::common::wording::well_worded;
use ofgui_backend::fs::StdFs;
use ofgui_backend::reader::{ProjectSource, read_project};
use ofgui_backend::testing::unity_root;
use ofgui_backend::txn::{self, Applied, Failure, Issue};
use ofgui_backend::validate;
use ofgui_contracts::api::ValidationReport;
use ofgui_contracts::diagnostics::{ProjectDiagnostic, Severity};
use ofgui_contracts::ops::Operation;
use ofgui_contracts::uam::{ComponentModel, DisplayNode, ResourceRef, UamProject, UamResource};
use serde_json::{Value, json};

// ---------------------------------------------------------------- fixtures

/// The example: Main (main0001) has MainView view0 and Settings view1, both holding an
/// instance of Common's (cmn00001) Button btn0.
fn example() -> &'static ProjectSource {
    static SOURCE: OnceLock<ProjectSource> = OnceLock::new();
    SOURCE.get_or_init(|| {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/HelloFairy");
        read_project(&StdFs::new(root), "HelloFairy.fairy").expect("example reads")
    })
}

/// The Unity examples, with two legacy defects: HitTest's component1 (g40jh) shows image
/// zis77, which the package no longer has (node n22), and Transition's BOSS (gkq00) has a
/// transition t0 whose items animate node n3, which BOSS no longer has.
fn unity() -> &'static ProjectSource {
    static SOURCE: OnceLock<ProjectSource> = OnceLock::new();
    SOURCE.get_or_init(|| {
        read_project(&StdFs::new(unity_root()), "FairyGUI-Unity-Examples.fairy")
            .expect("unity reads")
    })
}

const MAIN: &str = "main0001";
const VIEW: &str = "view0";
const SETTINGS: &str = "view1";
const COMMON: &str = "cmn00001";
const BUTTON: &str = "btn0";
const HIT_TEST: &str = "ezq9a8mh";
const COMPONENT1: &str = "g40jh";
const TRANSITION: &str = "zgmoraj4";
const BOSS: &str = "gkq00";

fn ops(values: Vec<Value>) -> Vec<Operation> {
    values
        .into_iter()
        .map(|v| serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{e}: {v}")))
        .collect()
}

#[track_caller]
fn apply_to(project: &UamProject, source: &ProjectSource, batch: Vec<Value>) -> Applied {
    match txn::run(project, &source.bytes, &ops(batch)) {
        Ok(applied) => applied,
        Err(failure) => panic!("batch refused: {:#?}", failure.issues),
    }
}

#[track_caller]
fn apply(source: &ProjectSource, batch: Vec<Value>) -> UamProject {
    apply_to(&source.project, source, batch).project
}

#[track_caller]
fn refuse_in(project: &UamProject, source: &ProjectSource, batch: Vec<Value>) -> Failure {
    match txn::run(project, &source.bytes, &ops(batch)) {
        Ok(_) => panic!("the batch should have been refused"),
        Err(failure) => well_worded(failure),
    }
}

#[track_caller]
fn refuse(source: &ProjectSource, batch: Vec<Value>) -> Failure {
    refuse_in(&source.project, source, batch)
}

/// The issue with this code and path (every issue is printed when it is missing).
#[track_caller]
fn issue<'f>(failure: &'f Failure, code: &str, path: &str) -> &'f Issue {
    failure
        .issues
        .iter()
        .find(|i| i.code.as_str() == code && i.path == path)
        .unwrap_or_else(|| panic!("no {code} at {path} in {:#?}", failure.issues))
}

/// Every issue of the failure has this code.
#[track_caller]
fn all_coded(failure: &Failure, code: &str) {
    assert!(
        !failure.issues.is_empty() && failure.issues.iter().all(|i| i.code.as_str() == code),
        "expected only {code}: {:#?}",
        failure.issues
    );
}

fn validate_model(project: &UamProject, source: &ProjectSource) -> ValidationReport {
    validate::validate(&validate::Input {
        project,
        bytes: &source.bytes,
        read_diagnostics: &source.diagnostics,
        read_complete: source.complete,
    })
}

fn findings_at<'r>(report: &'r ValidationReport, resource_id: &str) -> Vec<&'r ProjectDiagnostic> {
    report
        .diagnostics
        .iter()
        .filter(|d| d.resource_id.as_deref() == Some(resource_id))
        .collect()
}

fn component<'p>(project: &'p UamProject, package: &str, id: &str) -> &'p ComponentModel {
    project
        .packages
        .iter()
        .find(|p| p.id == package)
        .and_then(|p| p.resources.iter().find(|r| r.id() == id))
        .and_then(|r| r.component())
        .unwrap_or_else(|| panic!("component {package}/{id}"))
}

fn component_mut<'p>(
    project: &'p mut UamProject,
    package: &str,
    id: &str,
) -> &'p mut ComponentModel {
    let package = project
        .packages
        .iter_mut()
        .find(|p| p.id == package)
        .expect("package");
    let resource = Arc::make_mut(package)
        .resources
        .iter_mut()
        .find(|r| r.id() == id)
        .expect("resource");
    match Arc::make_mut(resource) {
        UamResource::Component(c) => &mut c.component,
        _ => panic!("not a component"),
    }
}

fn comp_sel(package: &str, comp: &str) -> Value {
    json!({ "packageId": package, "componentResourceId": comp })
}

fn node_sel(package: &str, comp: &str, node: &str) -> Value {
    json!({ "packageId": package, "componentResourceId": comp, "displayNodeId": node })
}

/// An instance of `package`/`comp` to attach, made from the example's start button.
fn instance(id: &str, package: &str, comp: &str) -> Value {
    let source = example();
    let mut node = serde_json::to_value(
        component(&source.project, MAIN, VIEW)
            .display_list
            .iter()
            .find(|n| n.id() == "n2_view")
            .expect("start button"),
    )
    .expect("node");
    node["id"] = json!(id);
    node["gears"] = json!([]);
    node["resource"] = json!({ "packageId": package, "resourceId": comp });
    node.as_object_mut()
        .expect("object")
        .remove("instanceProperties");
    node
}

fn attach(package: &str, comp: &str, node: Value) -> Value {
    json!({ "kind": "attachDisplayNode", "selector": comp_sel(package, comp), "atIndex": 0, "node": node })
}

/// A group node to attach, itself in `group`.
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

// ---------------------------------------------------------------- old defects

/// Findings are compared by identity (code, entity, field, what they name), never by
/// message: renaming the package of a component with an old broken reference changes the
/// message of that finding, but not the finding, so the rename applies.
#[test]
fn an_old_broken_reference_never_blocks_a_rename() {
    let source = unity();
    let project = apply(
        source,
        vec![
            json!({ "kind": "renamePackage", "selector": { "packageId": HIT_TEST }, "newName": "HitTest2" }),
        ],
    );
    let report = validate_model(&project, source);
    let broken = findings_at(&report, COMPONENT1);
    assert_eq!(broken.len(), 1, "{broken:#?}");
    assert!(
        broken[0].message.contains("HitTest2"),
        "{}",
        broken[0].message
    );
    for batch in [
        vec![
            json!({ "kind": "renameResource", "selector": { "packageId": HIT_TEST, "resourceId": COMPONENT1 }, "newName": "component9" }),
        ],
        vec![
            json!({ "kind": "renameResource", "selector": { "packageId": HIT_TEST, "resourceId": "g40j8" }, "newName": "two" }),
        ],
        vec![
            json!({ "kind": "setDisplayNodeProps", "selector": node_sel(HIT_TEST, COMPONENT1, "n22"), "props": { "position": { "x": 1, "y": 2 } } }),
        ],
    ] {
        apply(source, batch);
    }
    // A new broken reference in the same component is still refused.
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "removeResource", "selector": { "packageId": HIT_TEST, "resourceId": "g40j8" } }),
        ],
    );
    all_coded(&failure, "invalid_resource_reference");
}

// ---------------------------------------------------------------- transitions

fn boss_transition(source: &ProjectSource) -> Value {
    serde_json::to_value(&component(&source.project, TRANSITION, BOSS).transitions[0])
        .expect("transition")
}

/// A transition whose items animate a node that no longer exists can be updated and may
/// keep those items; it may not gain one, and no node a transition animates may be
/// detached. Validation reports such items either way (a warning: the runtime skips them).
#[test]
fn transitions_may_keep_but_not_create_items_animating_missing_nodes() {
    let source = unity();
    let selector =
        json!({ "packageId": TRANSITION, "componentResourceId": BOSS, "transitionName": "t0" });
    let mut t0 = boss_transition(source);
    t0["autoPlay"] = json!(!t0["autoPlay"].as_bool().expect("autoPlay"));
    let project = apply(
        source,
        vec![json!({ "kind": "updateTransition", "selector": selector, "transition": t0 })],
    );
    let report = validate_model(&project, source);
    let kept = findings_at(&report, BOSS);
    assert_eq!(kept.len(), 6, "{kept:#?}");
    assert!(kept.iter().all(|d| d.severity == Severity::Warning));

    // A new item animating a missing node.
    let mut more = t0.clone();
    let mut item = more["items"][1].clone();
    item["targetNodeId"] = json!("n99");
    more["items"].as_array_mut().expect("items").push(item);
    let failure = refuse(
        source,
        vec![json!({ "kind": "updateTransition", "selector": selector, "transition": more })],
    );
    let found = issue(
        &failure,
        "invalid_transition_payload",
        "operations[0].transition.items[11].targetNodeId",
    );
    assert!(found.message.contains("n99"), "{}", found.message);
    assert_eq!(failure.issues.len(), 1, "{:#?}", failure.issues);
    // One more item animating the missing n3 (the first, re-pointed): reported where it
    // is, not at one of the six old ones.
    let mut first = t0.clone();
    assert_eq!(first["items"][0]["targetNodeId"], "");
    first["items"][0]["targetNodeId"] = json!("n3");
    let failure = refuse(
        source,
        vec![json!({ "kind": "updateTransition", "selector": selector, "transition": first })],
    );
    issue(
        &failure,
        "invalid_transition_payload",
        "operations[0].transition.items[0].targetNodeId",
    );
    assert_eq!(failure.issues.len(), 1, "{:#?}", failure.issues);

    // Detaching an animated node.
    let failure = refuse(
        source,
        vec![json!({ "kind": "detachDisplayNode", "selector": node_sel(TRANSITION, BOSS, "n4") })],
    );
    let found = issue(
        &failure,
        "invalid_transition_payload",
        "operations[0].selector.displayNodeId",
    );
    assert!(found.message.contains("n4"), "{}", found.message);
    // … unless the same batch drops the items animating it (they target n4 at 1 and 9).
    let mut without = boss_transition(source);
    let items = without["items"].as_array_mut().expect("items");
    items.retain(|item| item["targetNodeId"] != "n4");
    apply(
        source,
        vec![
            json!({ "kind": "detachDisplayNode", "selector": node_sel(TRANSITION, BOSS, "n4") }),
            json!({ "kind": "updateTransition", "selector": selector, "transition": without }),
        ],
    );
}

// ---------------------------------------------------------------- cycles

/// Two components holding instances of each other, and three in a ring, are refused in
/// any order; each attach alone is fine.
#[test]
fn containment_cycles_through_attached_instances_are_refused() {
    let source = example();
    let settings_in_view = attach(MAIN, VIEW, instance("n9_view", MAIN, SETTINGS));
    let view_in_settings = attach(MAIN, SETTINGS, instance("n9_set", MAIN, VIEW));
    apply(source, vec![settings_in_view.clone()]);
    apply(source, vec![view_in_settings.clone()]);
    for batch in [
        vec![settings_in_view.clone(), view_in_settings.clone()],
        vec![view_in_settings.clone(), settings_in_view.clone()],
    ] {
        let failure = refuse(source, batch);
        all_coded(&failure, "invalid_component_reference");
    }
    // MainView → Settings → Button → MainView.
    let view_in_button = attach(COMMON, BUTTON, instance("n9_btn", MAIN, VIEW));
    let failure = refuse(source, vec![settings_in_view, view_in_button.clone()]);
    all_coded(&failure, "invalid_component_reference");
    let found = issue(
        &failure,
        "invalid_component_reference",
        "operations[1].node.resource",
    );
    assert!(found.message.contains("MainView"), "{}", found.message);
    // Button → MainView → Button (MainView already holds a button).
    let failure = refuse(source, vec![view_in_button]);
    all_coded(&failure, "invalid_component_reference");
}

/// Components added in one batch that hold instances of each other.
#[test]
fn containment_cycles_through_added_components_are_refused() {
    let source = example();
    let new_component = |id: &str, name: &str, holds: &str| {
        let mut model =
            serde_json::to_value(component(&source.project, MAIN, SETTINGS)).expect("model");
        model["displayList"] = json!([instance(&format!("n0_{id}"), MAIN, holds)]);
        json!({ "kind": "addComponent", "selector": { "packageId": MAIN }, "atIndex": 0, "component": {
            "id": id, "name": name, "path": "/", "branch": "", "exported": false, "favorite": false,
            "branchItemIds": [], "component": model
        } })
    };
    apply(source, vec![new_component("ca", "A", SETTINGS)]);
    let failure = refuse(
        source,
        vec![
            new_component("ca", "A", "cb"),
            new_component("cb", "B", "ca"),
        ],
    );
    all_coded(&failure, "invalid_component_reference");
    assert_eq!(failure.issues.len(), 2, "{:#?}", failure.issues);
}

/// A list whose items are built from a component holding the list is a cycle too (the
/// runtime builds a list's items while building the list).
#[test]
fn containment_cycles_through_list_items_are_refused() {
    let source = unity();
    // Bag's BagWin holds a list whose items are built from dot (osdok).
    let (bag, win) = ("rbw1tv9t", bag_window(source));
    let failure = refuse(
        source,
        vec![attach(bag, "osdok", instance("n99", bag, &win))],
    );
    all_coded(&failure, "invalid_component_reference");
}

fn bag_window(source: &ProjectSource) -> String {
    let bag = source
        .project
        .packages
        .iter()
        .find(|p| p.id == "rbw1tv9t")
        .expect("Bag");
    bag.resources
        .iter()
        .find(|r| {
            r.component().is_some_and(|m| {
                m.display_list.iter().any(|n| match n {
                    DisplayNode::List(l) => {
                        l.list.default_item == "ui://rbw1tv9tosdok" && !l.list.list_items.is_empty()
                    }
                    _ => false,
                })
            })
        })
        .map(|r| r.id().to_string())
        .expect("a list of dots with items")
}

/// Two groups inside each other: each membership alone is fine.
#[test]
fn group_cycles_are_refused() {
    let source = example();
    let project = apply(
        source,
        vec![
            attach(MAIN, VIEW, group_node("g1", "")),
            attach(MAIN, VIEW, group_node("g2", "g1")),
        ],
    );
    let failure = refuse_in(
        &project,
        source,
        vec![
            json!({ "kind": "setDisplayNodeProps", "selector": node_sel(MAIN, VIEW, "g1"), "props": { "group": "g2" } }),
        ],
    );
    let found = issue(
        &failure,
        "invalid_group_reference",
        "operations[0].props.group",
    );
    assert!(found.message.contains("g2"), "{}", found.message);
    // Three groups in a ring, attached in one batch in any order.
    let failure = refuse(
        source,
        vec![
            attach(MAIN, VIEW, group_node("g1", "g3")),
            attach(MAIN, VIEW, group_node("g2", "g1")),
            attach(MAIN, VIEW, group_node("g3", "g2")),
        ],
    );
    all_coded(&failure, "invalid_group_reference");
}

/// Validation reports a cycle a project already has; an edit elsewhere is not refused
/// for it, and an edit may not add another one.
#[test]
fn validation_reports_existing_cycles_and_edits_may_leave_them() {
    let source = example();
    let mut project = source.project.clone();
    // Settings holds MainView; MainView's start button becomes a Settings instance.
    let view = component_mut(&mut project, MAIN, VIEW);
    if let DisplayNode::Component(start) = &mut view.display_list[2] {
        start.resource = ResourceRef {
            package_id: Some(MAIN.into()),
            resource_id: SETTINGS.into(),
        };
        start.instance_properties = None;
    }
    let settings = component_mut(&mut project, MAIN, SETTINGS);
    if let DisplayNode::Component(close) = &mut settings.display_list[1] {
        close.resource = ResourceRef {
            package_id: Some(MAIN.into()),
            resource_id: VIEW.into(),
        };
        close.instance_properties = None;
    }
    let report = validate_model(&project, source);
    let cycles: Vec<&ProjectDiagnostic> = report
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str() == "invalid_uam" && d.message.contains("instantiates"))
        .collect();
    assert_eq!(cycles.len(), 2, "{:#?}", report.diagnostics);
    assert!(cycles.iter().all(|d| d.severity == Severity::Error));
    assert!(
        cycles
            .iter()
            .any(|d| d.path.ends_with("displayList[2].resource"))
    );

    apply_to(
        &project,
        source,
        vec![
            json!({ "kind": "setDisplayNodeProps", "selector": node_sel(MAIN, VIEW, "n1_view"), "props": { "text": "still here" } }),
        ],
    );
    let failure = refuse_in(
        &project,
        source,
        vec![attach(MAIN, VIEW, instance("n9_view", MAIN, SETTINGS))],
    );
    all_coded(&failure, "invalid_component_reference");
}

// ---------------------------------------------------------------- settings

fn settings_of(project: &UamProject) -> Value {
    serde_json::to_value(&project.settings).expect("settings")
}

/// What we read, we accept back: settings with `null` where the editor left a field unset
/// (as real projects have `publish.codeGeneration.packageName`), or a field already of the
/// wrong type, apply as they are; a field the edit mistypes is refused.
#[test]
fn project_settings_as_read_are_accepted_back() {
    let source = unity();
    let mut project = source.project.clone();
    let mut settings = settings_of(&project);
    settings["publish"]["codeGeneration"]["packageName"] = Value::Null;
    settings["publish"]["packageCount"] = json!("2");
    project.settings = settings.as_object().cloned().expect("object");

    let mut edited = settings.clone();
    edited["common"]["fontSize"] = json!(13);
    let applied = apply_to(
        &project,
        source,
        vec![json!({ "kind": "updateProjectSettings", "settings": edited })],
    );
    assert_eq!(applied.project.settings["common"]["fontSize"], json!(13));
    // Validation reports the mistyped field either way (a warning: the editor ignores it).
    let report = validate_model(&applied.project, source);
    let mistyped: Vec<&ProjectDiagnostic> = report
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str() == "invalid_settings_json")
        .collect();
    assert_eq!(mistyped.len(), 1, "{mistyped:#?}");
    assert_eq!(mistyped[0].path, "settings.publish.packageCount");
    assert_eq!(mistyped[0].severity, Severity::Warning);

    let mut worse = edited.clone();
    worse["publish"]["path"] = json!(3);
    let failure = refuse_in(
        &project,
        source,
        vec![json!({ "kind": "updateProjectSettings", "settings": worse })],
    );
    issue(
        &failure,
        "invalid_project_settings",
        "operations[0].settings.publish.path",
    );
    assert_eq!(failure.issues.len(), 1, "{:#?}", failure.issues);
}

fn publish_of(project: &UamProject, package: &str) -> Value {
    let package = project
        .packages
        .iter()
        .find(|p| p.id == package)
        .expect("package");
    json!({
        "compressPNG": package.compress_png,
        "jpegQuality": package.jpeg_quality,
        "publish": package.publish,
    })
}

/// A package publish path relative to the project, climbing out of it as real projects
/// do, is accepted; an absolute one is refused when new and accepted back when read.
#[test]
fn package_publish_paths_may_be_relative_to_the_project() {
    let source = unity();
    let basics = "9leh0eyf";
    let update = |settings: &Value| json!({ "kind": "updatePackageSettings", "selector": { "packageId": basics }, "settings": settings });
    let mut settings = publish_of(&source.project, basics);
    settings["publish"]["path"] = json!("../Assets/Resources/UI");
    settings["publish"]["codePath"] = json!("../Assets/Scripts/UI");
    let project = apply(source, vec![update(&settings)]);
    assert!(
        validate_model(&project, source)
            .diagnostics
            .iter()
            .all(|d| d.package_id.as_deref() != Some(basics))
    );

    settings["publish"]["path"] = json!("D:/Game/UI");
    let failure = refuse(source, vec![update(&settings)]);
    issue(
        &failure,
        "invalid_package_settings",
        "operations[0].settings.publish.path",
    );

    // A package read with an absolute path is reported and may be sent back.
    let mut project = source.project.clone();
    let package = project
        .packages
        .iter_mut()
        .find(|p| p.id == basics)
        .expect("Basics");
    Arc::make_mut(package)
        .publish
        .as_mut()
        .expect("publish")
        .path = "D:/Game/UI".into();
    let report = validate_model(&project, source);
    let absolute: Vec<&ProjectDiagnostic> = report
        .diagnostics
        .iter()
        .filter(|d| d.package_id.as_deref() == Some(basics))
        .collect();
    assert_eq!(absolute.len(), 1, "{absolute:#?}");
    assert_eq!(absolute[0].path, "packages[1].publish.path");
    assert_eq!(absolute[0].severity, Severity::Warning);
    let mut settings = publish_of(&project, basics);
    settings["jpegQuality"] = json!(70);
    apply_to(&project, source, vec![update(&settings)]);
}

/// The project settings name components (`common.scrollBars`, …): removing one they name
/// is refused like any other reference, and validation reports a setting that dangles.
#[test]
fn references_from_project_settings_count() {
    let source = unity();
    let basics = "9leh0eyf";
    let failure = refuse(
        source,
        vec![json!({ "kind": "removeComponent", "selector": comp_sel(basics, "i3s65w") })],
    );
    let found = issue(
        &failure,
        "component_referenced",
        "operations[0].selector.componentResourceId",
    );
    assert!(
        found.message.contains("common.scrollBars.vertical"),
        "{}",
        found.message
    );
    let failure = refuse(
        source,
        vec![json!({ "kind": "removePackage", "selector": { "packageId": basics } })],
    );
    assert!(
        failure
            .issues
            .iter()
            .any(|i| i.code.as_str() == "package_referenced"
                && i.message.contains("common.scrollBars.horizontal")),
        "{:#?}",
        failure.issues
    );
    // Once the setting no longer names it, the component goes.
    let mut settings = settings_of(&source.project);
    settings["common"]["scrollBars"]["vertical"] = json!("");
    let project = apply(
        source,
        vec![json!({ "kind": "updateProjectSettings", "settings": settings })],
    );
    apply_to(
        &project,
        source,
        vec![json!({ "kind": "removeComponent", "selector": comp_sel(basics, "i3s65w") })],
    );
    // A setting may not be pointed at nothing by an edit either.
    let mut settings = settings_of(&source.project);
    settings["common"]["tipsRes"] = json!("ui://9leh0eyfnothing");
    let failure = refuse(
        source,
        vec![json!({ "kind": "updateProjectSettings", "settings": settings })],
    );
    all_coded(&failure, "invalid_resource_reference");
}

// ---------------------------------------------------------------- policies

fn set_props(package: &str, comp: &str, node: &str, props: Value) -> Value {
    json!({ "kind": "setDisplayNodeProps", "selector": node_sel(package, comp, node), "props": props })
}

/// Rotation, scale, skew and pivot are published as 32-bit floats: a value beyond their
/// range is refused (as a position beyond 32-bit integers is) and reported.
#[test]
fn rotation_scale_skew_and_pivot_must_fit_a_float() {
    let source = example();
    apply(
        source,
        vec![set_props(
            MAIN,
            VIEW,
            "n1_view",
            json!({ "rotation": 1e12 }),
        )],
    );
    for (props, field) in [
        (json!({ "rotation": 1e308 }), "rotation"),
        (json!({ "scale": { "x": 1, "y": -1e39 } }), "scale"),
        (json!({ "skew": { "x": 1e300, "y": 0 } }), "skew"),
        (json!({ "pivot": { "x": 0.5, "y": 1e40 } }), "pivot"),
        (json!({ "position": { "x": 1e12, "y": 0 } }), "position"),
    ] {
        let failure = refuse(source, vec![set_props(MAIN, VIEW, "n1_view", props)]);
        let found = issue(
            &failure,
            "invalid_display_node_payload",
            &format!("operations[0].props.{field}"),
        );
        assert_eq!(found.field.as_deref(), Some(field));
    }
    let mut project = source.project.clone();
    component_mut(&mut project, MAIN, VIEW).display_list[1]
        .base_mut()
        .rotation = ofgui_contracts::Num(1e308);
    let report = validate_model(&project, source);
    assert!(
        report
            .diagnostics
            .iter()
            .any(|d| d.code.as_str() == "invalid_project_value" && d.path.ends_with(".rotation")),
        "{:#?}",
        report.diagnostics
    );
}

fn value_gear(kind: &str, controller: &str, value: Value) -> Value {
    json!({
        "kind": kind, "name": "", "controllerName": controller,
        "states": [{ "pageId": "1", "value": value }], "defaultValue": value, "condition": "",
        "positionsInPercent": false, "tween": false, "tweenDuration": 0.3, "tweenDelay": 0,
        "easeType": 5, "customEasePath": ""
    })
}

fn add_gear(package: &str, comp: &str, node: &str, gear: Value) -> Value {
    let selector = json!({
        "packageId": package, "componentResourceId": comp, "displayNodeId": node,
        "kind": gear["kind"], "controllerName": gear["controllerName"]
    });
    json!({ "kind": "addGear", "selector": selector, "gear": gear })
}

/// A gear must fit its node as the runtime applies it: a text gear on an image does
/// nothing (refused when added, a warning when read), a color gear on a combo box fails
/// the runtime (refused, an error), a text gear on a text or a button applies.
#[test]
fn gears_must_fit_their_node() {
    let source = example();
    let text = value_gear("text", "state", json!({ "text": "x" }));
    apply(source, vec![add_gear(MAIN, VIEW, "n1_view", text.clone())]);
    apply(source, vec![add_gear(MAIN, VIEW, "n2_view", text.clone())]);
    let failure = refuse(source, vec![add_gear(MAIN, VIEW, "n0_view", text.clone())]);
    let found = issue(&failure, "invalid_gear_payload", "operations[0].gear.kind");
    assert_eq!(found.gear_kind.as_deref(), Some("text"));
    assert_eq!(found.node_kind.as_deref(), Some("image"));
    let animation = value_gear(
        "animation",
        "state",
        json!({ "frame": 0, "playing": true, "animationName": "", "skinName": "" }),
    );
    let failure = refuse(source, vec![add_gear(MAIN, VIEW, "n1_view", animation)]);
    issue(&failure, "invalid_gear_payload", "operations[0].gear.kind");

    // Read with one: reported, and left alone by other edits.
    let mut project = source.project.clone();
    let image = &mut component_mut(&mut project, MAIN, VIEW).display_list[0];
    image
        .base_mut()
        .gears
        .push(serde_json::from_value(text).expect("gear"));
    let report = validate_model(&project, source);
    let found: Vec<&ProjectDiagnostic> = report
        .diagnostics
        .iter()
        .filter(|d| d.path.ends_with(".gears[0].kind"))
        .collect();
    assert_eq!(found.len(), 1, "{:#?}", report.diagnostics);
    assert_eq!(found[0].severity, Severity::Warning);
    apply_to(
        &project,
        source,
        vec![set_props(MAIN, VIEW, "n0_view", json!({ "alpha": 0.5 }))],
    );
}

fn controller_json(project: &UamProject, package: &str, comp: &str, name: &str) -> Value {
    serde_json::to_value(
        component(project, package, comp)
            .controllers
            .iter()
            .find(|c| c.name == name)
            .expect("controller"),
    )
    .expect("controller")
}

/// A controller action that plays a transition the component does not have does
/// nothing: an edit may not create one (adding the action, removing the transition), and
/// validation reports one (a warning).
#[test]
fn controller_actions_must_name_existing_transitions() {
    let source = example();
    let selector =
        json!({ "packageId": MAIN, "componentResourceId": VIEW, "controllerName": "state" });
    let mut state = controller_json(&source.project, MAIN, VIEW, "state");
    let action = |transition: &str| {
        json!({
            "name": "", "actionType": 0, "fromPageIds": [], "toPageIds": ["1"],
            "transitionName": transition, "playTimes": 1, "delay": 0, "stopOnExit": false,
            "targetNodeId": "", "controllerName": "", "targetPage": ""
        })
    };
    state["actions"] = json!([action("intro")]);
    let project = apply(
        source,
        vec![json!({ "kind": "updateController", "selector": selector, "controller": state })],
    );
    state["actions"] = json!([action("outro")]);
    let failure = refuse(
        source,
        vec![json!({ "kind": "updateController", "selector": selector, "controller": state })],
    );
    issue(
        &failure,
        "invalid_controller_payload",
        "operations[0].controller.actions[0].transitionName",
    );
    let transition =
        json!({ "packageId": MAIN, "componentResourceId": VIEW, "transitionName": "intro" });
    let failure = refuse_in(
        &project,
        source,
        vec![json!({ "kind": "removeTransition", "selector": transition })],
    );
    all_coded(&failure, "invalid_controller_payload");
    let mut without = project.clone();
    component_mut(&mut without, MAIN, VIEW).transitions.clear();
    let report = validate_model(&without, source);
    assert!(
        report
            .diagnostics
            .iter()
            .any(|d| d.path.ends_with(".actions[0].transitionName")
                && d.severity == Severity::Warning),
        "{:#?}",
        report.diagnostics
    );
}

/// A controller a list's page or selection controller, or a button's controller, names
/// cannot be removed while they still name it at the end of the batch.
#[test]
fn controllers_named_by_nodes_cannot_be_removed() {
    let source = unity();
    let (bag, window) = ("rbw1tv9t", "kcy10");
    let remove = json!({ "kind": "removeController", "selector": { "packageId": bag, "componentResourceId": window, "controllerName": "page" } });
    let failure = refuse(source, vec![remove.clone()]);
    all_coded(&failure, "invalid_controller_payload");
    assert_eq!(failure.issues.len(), 2, "{:#?}", failure.issues);
    assert!(
        failure
            .issues
            .iter()
            .all(|i| i.path == "operations[0].selector.controllerName")
    );
    // Detaching the list naming it as selection controller leaves the other one.
    let failure = refuse(
        source,
        vec![
            remove.clone(),
            json!({ "kind": "detachDisplayNode", "selector": node_sel(bag, window, "n25_osdo") }),
        ],
    );
    let found = issue(
        &failure,
        "invalid_controller_payload",
        "operations[0].selector.controllerName",
    );
    assert!(
        found.message.contains("pageController"),
        "{}",
        found.message
    );

    // A button's controller.
    let (basics, demo) = ("9leh0eyf", "rpmb1b");
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "removeController", "selector": { "packageId": basics, "componentResourceId": demo, "controllerName": "RadioGroup" } }),
        ],
    );
    all_coded(&failure, "invalid_controller_payload");
    assert!(failure.issues.len() >= 3, "{:#?}", failure.issues);
}

// ---------------------------------------------------------------- values kept as written

/// A copy of the example whose MainView has each `(from, to)` replaced once.
fn example_with(edits: &[(&str, &str)]) -> (tempfile::TempDir, ProjectSource) {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/HelloFairy");
    ofgui_backend::testing::copy_tree(std::path::Path::new(root), dir.path()).expect("copy");
    let view = dir.path().join("assets/Main/MainView.xml");
    let mut text = std::fs::read_to_string(&view).expect("read");
    for (from, to) in edits {
        assert!(text.contains(from), "MainView lacks {from}");
        text = text.replacen(from, to, 1);
    }
    std::fs::write(&view, text).expect("write");
    let source = read_project(&StdFs::new(dir.path()), "HelloFairy.fairy").expect("reads");
    (dir, source)
}

/// The example with the intro transition's first item (Alpha) given an action type this
/// server does not know.
fn example_with_unknown_action() -> (tempfile::TempDir, ProjectSource) {
    example_with(&[(r#"type="Alpha""#, r#"type="Glow""#)])
}

/// An action type this server does not know is kept as written (actionTypeName) and is a
/// warning: an edit may keep such an item but not add one, and a name beside a known
/// action is refused.
#[test]
fn unknown_transition_actions_are_kept_and_may_not_be_added() {
    let (_dir, source) = example_with_unknown_action();
    let intro = &component(&source.project, MAIN, VIEW).transitions[0];
    assert_eq!(intro.items[0].action_type, 16);
    assert_eq!(intro.items[0].action_type_name.as_deref(), Some("Glow"));
    let report = validate_model(&source.project, &source);
    let found = findings_at(&report, VIEW);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].severity, Severity::Warning);
    assert!(
        found[0].message.contains("\"Glow\""),
        "{}",
        found[0].message
    );

    let selector =
        json!({ "packageId": MAIN, "componentResourceId": VIEW, "transitionName": "intro" });
    let mut snapshot = serde_json::to_value(intro).expect("transition");
    assert_eq!(snapshot["items"][0]["actionTypeName"], "Glow");
    // Kept through an update that changes something else.
    snapshot["autoPlay"] = json!(false);
    let project = apply(
        &source,
        vec![json!({ "kind": "updateTransition", "selector": selector, "transition": snapshot })],
    );
    let kept = &component(&project, MAIN, VIEW).transitions[0].items[0];
    assert_eq!(kept.action_type_name.as_deref(), Some("Glow"));

    // A second such item is new.
    let mut more = snapshot.clone();
    let item = more["items"][0].clone();
    more["items"].as_array_mut().expect("items").push(item);
    let failure = refuse(
        &source,
        vec![json!({ "kind": "updateTransition", "selector": selector, "transition": more })],
    );
    issue(
        &failure,
        "invalid_transition_payload",
        "operations[0].transition.items[2].actionType",
    );
    // A name beside a known action contradicts itself.
    let mut mixed = snapshot.clone();
    mixed["items"][1]["actionTypeName"] = json!("Glow");
    let failure = refuse(
        &source,
        vec![json!({ "kind": "updateTransition", "selector": selector, "transition": mixed })],
    );
    issue(
        &failure,
        "invalid_transition_payload",
        "operations[0].transition.items[1].actionTypeName",
    );
}

/// The example with a legacy `<swf>` node (n9_swf) that the title relates to and the
/// intro transition animates.
fn example_with_swf() -> (tempfile::TempDir, ProjectSource) {
    example_with(&[
        (
            "  <displayList>\n",
            "  <displayList>\n    <swf id=\"n9_swf\" name=\"flash\" src=\"swf0\" xy=\"0,0\" size=\"64,64\"/>\n",
        ),
        (
            r#"<gearXY controller="state""#,
            r#"<relation target="n9_swf" sidePair="left-left"/>
      <gearXY controller="state""#,
        ),
        (
            r#"target="n1_view" tween="true" startValue="0""#,
            r#"target="n9_swf" tween="true" startValue="0""#,
        ),
    ])
}

/// A legacy `<swf>` node is kept, not modeled: its id stays taken, what names it stays
/// valid, and no operation edits it or creates one.
#[test]
fn unmodeled_swf_nodes_keep_their_ids_and_their_references() {
    let (_dir, source) = example_with_swf();
    let view = component(&source.project, MAIN, VIEW);
    assert_eq!(view.unsupported_nodes.len(), 1);
    assert_eq!(view.unsupported_nodes[0].id, "n9_swf");
    assert_eq!(view.unsupported_nodes[0].index, 0);
    assert!(!view.display_list.iter().any(|n| n.id() == "n9_swf"));
    // Only the read warning: the relation and the transition item name a node that is
    // there, and the project stays valid.
    let report = validate_model(&source.project, &source);
    assert_eq!(report.status, ofgui_contracts::api::ValidationStatus::Valid);
    let found = findings_at(&report, VIEW);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].severity, Severity::Warning);
    assert_eq!(found[0].node_id.as_deref(), Some("n9_swf"));

    // Its id is taken.
    let title = view
        .display_list
        .iter()
        .find(|n| n.id() == "n1_view")
        .unwrap();
    let mut text = serde_json::to_value(title).unwrap();
    text["gears"] = json!([]);
    text["relations"] = json!([]);
    text["id"] = json!("n9_swf");
    let failure = refuse(&source, vec![attach(MAIN, VIEW, text)]);
    let taken = issue(
        &failure,
        "invalid_display_node_selector",
        "operations[0].node.id",
    );
    assert!(taken.message.contains("n9_swf"), "{}", taken.message);
    // It is not edited here, and the refusal says why.
    let failure = refuse(
        &source,
        vec![
            json!({ "kind": "setDisplayNodeProps", "selector": node_sel(MAIN, VIEW, "n9_swf"), "props": { "alpha": 0.5 } }),
        ],
    );
    let kept = issue(
        &failure,
        "invalid_display_node_selector",
        "operations[0].selector.displayNodeId",
    );
    assert!(kept.message.contains("<swf>"), "{}", kept.message);
    // Edits elsewhere keep what names it.
    let selector =
        json!({ "packageId": MAIN, "componentResourceId": VIEW, "transitionName": "intro" });
    let mut intro = serde_json::to_value(&view.transitions[0]).unwrap();
    intro["autoPlay"] = json!(false);
    let project = apply(
        &source,
        vec![
            json!({ "kind": "updateTransition", "selector": selector, "transition": intro }),
            json!({ "kind": "setDisplayNodeProps", "selector": node_sel(MAIN, VIEW, "n1_view"), "props": { "alpha": 0.5 } }),
        ],
    );
    assert_eq!(component(&project, MAIN, VIEW).unsupported_nodes.len(), 1);
    // A new component cannot bring one.
    let main = source
        .project
        .packages
        .iter()
        .find(|p| p.id == MAIN)
        .unwrap();
    let resource = main.resources.iter().find(|r| r.id() == VIEW).unwrap();
    let mut copy = serde_json::to_value(resource.as_ref()).unwrap();
    let fields = copy.as_object_mut().unwrap();
    fields.remove("kind");
    fields.remove("sourcePath");
    copy["id"] = json!("view9");
    copy["name"] = json!("Copy");
    let failure = refuse(
        &source,
        vec![
            json!({ "kind": "addComponent", "selector": { "packageId": MAIN }, "component": copy, "atIndex": 0 }),
        ],
    );
    issue(
        &failure,
        "invalid_component_payload",
        "operations[0].component.component.unsupportedNodes",
    );
}
