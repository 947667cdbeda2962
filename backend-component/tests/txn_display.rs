//! Transactions on display nodes, controllers, transitions and gears, run natively on the
//! real corpora (read-only) and the bundled example: every one of the 15 operation kinds
//! applied with its model effect checked, and refused with its documented code and path.

use std::sync::{Arc, OnceLock};

use crate::common::wording::well_worded;
use ofgui_backend::fs::StdFs;
use ofgui_backend::reader::{ProjectSource, read_project};
use ofgui_backend::testing::{experiments_root, unity_root};
use ofgui_backend::txn::{self, Failure, Issue};
use ofgui_contracts::Num;
use ofgui_contracts::ops::Operation;
use ofgui_contracts::uam::{
    ComponentModel, DisplayNode, Gear, InstanceProperties, UamProject, UamResource,
};
use serde_json::{Value, json};

// ---------------------------------------------------------------- fixtures

fn example() -> &'static ProjectSource {
    static SOURCE: OnceLock<ProjectSource> = OnceLock::new();
    SOURCE.get_or_init(|| {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/HelloFairy");
        read_project(&StdFs::new(root), "HelloFairy.fairy").expect("example reads")
    })
}

fn unity() -> &'static ProjectSource {
    static SOURCE: OnceLock<ProjectSource> = OnceLock::new();
    SOURCE.get_or_init(|| {
        read_project(&StdFs::new(unity_root()), "FairyGUI-Unity-Examples.fairy")
            .expect("unity reads")
    })
}

fn experiments() -> &'static ProjectSource {
    static SOURCE: OnceLock<ProjectSource> = OnceLock::new();
    SOURCE.get_or_init(|| {
        read_project(
            &StdFs::new(experiments_root()),
            "FairyGUI-Experiments.fairy",
        )
        .expect("experiments read")
    })
}

// The example: package Main and its MainView component.
const MAIN: &str = "main0001";
const VIEW: &str = "view0";
// Unity examples: PullToRefresh's Header and Footer, TreeView's and Curve's Main.
const PULL: &str = "3u9795n0";
const HEADER: &str = "n3qdr";
const FOOTER: &str = "9sflu";
const TREE_PKG: &str = "5nx1f8vz";
const TREE_MAIN: &str = "pmk30";
const CURVE_PKG: &str = "i1i2ucwo";
const CURVE_MAIN: &str = "113wo0";

fn ops(values: Vec<Value>) -> Vec<Operation> {
    values
        .into_iter()
        .map(|v| serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{e}: {v}")))
        .collect()
}

/// Runs a batch that must apply, and returns the new project.
fn apply(source: &ProjectSource, batch: Vec<Value>) -> UamProject {
    match txn::run(&source.project, &source.bytes, &ops(batch)) {
        Ok(applied) => {
            assert!(applied.bytes.is_empty(), "display edits touch no bytes");
            applied.project
        }
        Err(failure) => panic!("batch refused: {:#?}", failure.issues),
    }
}

/// Runs a batch that must fail, and checks that the input project is left untouched.
fn refuse(source: &ProjectSource, batch: Vec<Value>) -> Failure {
    refuse_in(&source.project, source, batch)
}

/// [`refuse`] on a project built from a source.
fn refuse_in(project: &UamProject, source: &ProjectSource, batch: Vec<Value>) -> Failure {
    let before = serde_json::to_value(project).expect("serializes");
    let result = txn::run(project, &source.bytes, &ops(batch));
    let after = serde_json::to_value(project).expect("serializes");
    assert!(before == after, "a refused batch must not change its input");
    match result {
        Ok(_) => panic!("the batch should have been refused"),
        Err(failure) => well_worded(failure),
    }
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

/// The failure has exactly this one issue.
#[track_caller]
fn only<'f>(failure: &'f Failure, code: &str, path: &str) -> &'f Issue {
    assert_eq!(
        failure.issues.len(),
        1,
        "expected only {code} at {path}: {:#?}",
        failure.issues
    );
    assert_eq!(failure.code.as_str(), "transaction_unsupported");
    issue(failure, code, path)
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

fn node<'m>(model: &'m ComponentModel, id: &str) -> &'m DisplayNode {
    model
        .display_list
        .iter()
        .find(|n| n.id() == id)
        .unwrap_or_else(|| panic!("node {id}"))
}

fn node_json(source: &ProjectSource, package: &str, comp: &str, id: &str) -> Value {
    serde_json::to_value(node(component(&source.project, package, comp), id)).expect("node")
}

fn ids(model: &ComponentModel) -> Vec<&str> {
    model.display_list.iter().map(|n| n.id()).collect()
}

fn node_sel(package: &str, comp: &str, id: &str) -> Value {
    json!({ "packageId": package, "componentResourceId": comp, "displayNodeId": id })
}

fn comp_sel(package: &str, comp: &str) -> Value {
    json!({ "packageId": package, "componentResourceId": comp })
}

fn set_props(package: &str, comp: &str, id: &str, props: Value) -> Value {
    json!({ "kind": "setDisplayNodeProps", "selector": node_sel(package, comp, id), "props": props })
}

fn gear_sel(package: &str, comp: &str, id: &str, kind: &str, controller: &str) -> Value {
    json!({
        "packageId": package, "componentResourceId": comp, "displayNodeId": id,
        "kind": kind, "controllerName": controller
    })
}

fn look_gear(controller: &str, states: Value) -> Value {
    json!({
        "kind": "look", "name": "", "controllerName": controller, "states": states,
        "defaultValue": { "alpha": 1, "rotation": 0, "grayed": false, "touchable": true },
        "condition": "", "positionsInPercent": false, "tween": false, "tweenDuration": 0.3,
        "tweenDelay": 0, "easeType": 5, "customEasePath": ""
    })
}

fn look(alpha: f64) -> Value {
    json!({ "alpha": alpha, "rotation": 0, "grayed": false, "touchable": true })
}

fn display_gear(controller: &str, pages: &[&str]) -> Value {
    json!({ "kind": "display", "name": "", "controllerName": controller, "visibleOnPageIds": pages })
}

fn controller_json(source: &ProjectSource, package: &str, comp: &str, name: &str) -> Value {
    let model = component(&source.project, package, comp);
    let controller = model
        .controllers
        .iter()
        .find(|c| c.name == name)
        .expect("controller");
    serde_json::to_value(controller).expect("controller")
}

fn new_controller(name: &str, pages: &[(&str, &str)]) -> Value {
    let pages: Vec<Value> = pages
        .iter()
        .map(|(id, name)| json!({ "id": id, "name": name }))
        .collect();
    json!({
        "name": name, "selectedIndex": 0, "autoRadioGroupDepth": false, "alias": "",
        "exported": false, "homePageType": "default", "homePage": "", "pages": pages, "actions": []
    })
}

fn controller_sel(package: &str, comp: &str, name: &str) -> Value {
    json!({ "packageId": package, "componentResourceId": comp, "controllerName": name })
}

fn transition_sel(package: &str, comp: &str, name: &str) -> Value {
    json!({ "packageId": package, "componentResourceId": comp, "transitionName": name })
}

fn transition_json(source: &ProjectSource, package: &str, comp: &str, name: &str) -> Value {
    let model = component(&source.project, package, comp);
    let transition = model
        .transitions
        .iter()
        .find(|t| t.name == name)
        .expect("transition");
    serde_json::to_value(transition).expect("transition")
}

/// The example's title node, copied under a new id without gears.
fn new_text_node(id: &str) -> Value {
    let mut text = node_json(example(), MAIN, VIEW, "n1_view");
    text["id"] = json!(id);
    text["name"] = json!("subtitle");
    text["gears"] = json!([]);
    text["text"] = json!("Subtitle");
    text
}

// ---------------------------------------------------------------- setDisplayNodeProps

#[test]
fn set_props_edits_text_and_position_of_the_example_title() {
    let source = example();
    let project = apply(
        source,
        vec![set_props(
            MAIN,
            VIEW,
            "n1_view",
            json!({ "text": "Ready to edit", "position": { "x": 40, "y": 56 } }),
        )],
    );
    let model = component(&project, MAIN, VIEW);
    let DisplayNode::Text(title) = node(model, "n1_view") else {
        panic!("n1_view is a text node")
    };
    assert_eq!(title.text.text, "Ready to edit");
    assert_eq!(
        (title.base.position.x, title.base.position.y),
        (Num(40.0), Num(56.0))
    );
    // Everything else stays as it was.
    let DisplayNode::Text(before) = node(component(&source.project, MAIN, VIEW), "n1_view") else {
        panic!()
    };
    assert_eq!(title.text.font_size, before.text.font_size);
    assert_eq!(title.base.gears, before.base.gears);
    assert_eq!(ids(model), ids(component(&source.project, MAIN, VIEW)));
    // Apart from that node, the whole project is as it was.
    let p = project.packages.iter().position(|p| p.id == MAIN).unwrap();
    let r = project.packages[p]
        .resources
        .iter()
        .position(|r| r.id() == VIEW)
        .unwrap();
    let mut edited = serde_json::to_value(&project).unwrap();
    let mut original = serde_json::to_value(&source.project).unwrap();
    for value in [&mut edited, &mut original] {
        value["packages"][p]["resources"][r]["component"]["displayList"][1] = Value::Null;
    }
    assert_eq!(edited, original, "only the title node changed");
}

#[test]
fn colours_take_the_forms_fairygui_reads() {
    // The reader reports `#rgb` (FairyGUI loads it as black), so a transaction refuses it
    // too; `#rrggbb` and `#aarrggbb` apply.
    let source = example();
    let failure = refuse(
        source,
        vec![set_props(MAIN, VIEW, "n1_view", json!({ "color": "#fff" }))],
    );
    only(
        &failure,
        "invalid_display_node_payload",
        "operations[0].props.color",
    );
    for color in ["#ffcc00", "#80ffcc00"] {
        let project = apply(
            source,
            vec![set_props(MAIN, VIEW, "n1_view", json!({ "color": color }))],
        );
        let DisplayNode::Text(title) = node(component(&project, MAIN, VIEW), "n1_view") else {
            panic!("n1_view is a text node")
        };
        assert_eq!(title.text.color, color);
    }
}

#[test]
fn set_props_with_the_current_values_is_unchanged() {
    let failure = refuse(
        example(),
        vec![set_props(
            MAIN,
            VIEW,
            "n1_view",
            json!({ "text": "Hello OpenFairyGUI", "position": { "x": 40, "y": 40 }, "visible": true }),
        )],
    );
    let found = only(
        &failure,
        "display_node_props_unchanged",
        "operations[0].props",
    );
    assert_eq!(found.node_kind.as_deref(), Some("text"));
    assert!(found.message.contains("n1_view"), "{}", found.message);
    // An empty props changes nothing either.
    let failure = refuse(example(), vec![set_props(MAIN, VIEW, "n1_view", json!({}))]);
    only(
        &failure,
        "display_node_props_unchanged",
        "operations[0].props",
    );
}

#[test]
fn set_props_refuses_out_of_range_base_values_with_their_field() {
    let failure = refuse(
        example(),
        vec![set_props(
            MAIN,
            VIEW,
            "n1_view",
            json!({
                "alpha": 1.5, "blendMode": "overlay", "size": { "width": -1, "height": 4 },
                "filter": "color", "filterData": "1,2"
            }),
        )],
    );
    assert_eq!(failure.issues.len(), 4, "{:#?}", failure.issues);
    let alpha = issue(
        &failure,
        "invalid_display_node_payload",
        "operations[0].props.alpha",
    );
    assert_eq!(alpha.field.as_deref(), Some("alpha"));
    assert!(alpha.message.contains("0 to 1"), "{}", alpha.message);
    issue(
        &failure,
        "invalid_display_node_payload",
        "operations[0].props.blendMode",
    );
    issue(
        &failure,
        "invalid_display_node_payload",
        "operations[0].props.size",
    );
    issue(
        &failure,
        "invalid_display_node_payload",
        "operations[0].props.filterData",
    );
    // maxSize must be 0 or at least minSize, judged with the node's other value.
    let failure = refuse(
        example(),
        vec![set_props(
            MAIN,
            VIEW,
            "n1_view",
            json!({ "minSize": { "width": 100, "height": 10 }, "maxSize": { "width": 50, "height": 0 } }),
        )],
    );
    let max = only(
        &failure,
        "invalid_display_node_payload",
        "operations[0].props.maxSize",
    );
    assert!(max.message.contains("maxSize.width"), "{}", max.message);
}

#[test]
fn set_props_text_shortcuts_only_fit_text_nodes_and_not_with_a_snapshot() {
    let source = example();
    let failure = refuse(
        source,
        vec![set_props(
            MAIN,
            VIEW,
            "n0_view",
            json!({ "text": "x", "fontSize": 20 }),
        )],
    );
    assert_eq!(failure.issues.len(), 2, "{:#?}", failure.issues);
    let text = issue(
        &failure,
        "unsupported_text_field_target",
        "operations[0].props.text",
    );
    assert_eq!(text.node_kind.as_deref(), Some("image"));
    assert_eq!(text.field.as_deref(), Some("text"));
    issue(
        &failure,
        "unsupported_text_field_target",
        "operations[0].props.fontSize",
    );

    let DisplayNode::Text(title) = node(component(&source.project, MAIN, VIEW), "n1_view") else {
        panic!()
    };
    let mut snapshot = serde_json::to_value(&title.text).unwrap();
    let plain = serde_json::to_value(&title.plain).unwrap();
    snapshot
        .as_object_mut()
        .unwrap()
        .extend(plain.as_object().unwrap().clone());
    let failure = refuse(
        source,
        vec![set_props(
            MAIN,
            VIEW,
            "n1_view",
            json!({ "text": "x", "textProperties": snapshot }),
        )],
    );
    let mixed = only(
        &failure,
        "invalid_display_node_payload",
        "operations[0].props.textProperties",
    );
    assert_eq!(mixed.field.as_deref(), Some("textProperties"));

    // fontSize must be a positive integer.
    let failure = refuse(
        source,
        vec![set_props(MAIN, VIEW, "n1_view", json!({ "fontSize": 0 }))],
    );
    only(
        &failure,
        "invalid_display_node_payload",
        "operations[0].props.fontSize",
    );

    // The complete snapshot alone applies; a null stroke colour pins strokeSize to 1.
    snapshot["bold"] = json!(true);
    snapshot["fontSize"] = json!(30);
    let project = apply(
        source,
        vec![set_props(
            MAIN,
            VIEW,
            "n1_view",
            json!({ "textProperties": snapshot }),
        )],
    );
    let DisplayNode::Text(title) = node(component(&project, MAIN, VIEW), "n1_view") else {
        panic!()
    };
    assert!(title.text.bold);
    assert_eq!(title.text.font_size, Num(30.0));
    snapshot["strokeSize"] = json!(3);
    let failure = refuse(
        source,
        vec![set_props(
            MAIN,
            VIEW,
            "n1_view",
            json!({ "textProperties": snapshot }),
        )],
    );
    only(
        &failure,
        "invalid_display_node_payload",
        "operations[0].props.textProperties.strokeSize",
    );
}

#[test]
fn set_props_snapshots_must_match_the_node_kind() {
    let source = unity();
    let graph = node_json(source, PULL, HEADER, "n4_9sfl");
    let image = json!({
        "color": "#ffffff", "flip": 1, "fillMethod": 0, "fillOrigin": 0,
        "fillClockwise": true, "fillAmount": 100
    });
    // An image snapshot on a graph node, and two snapshots at once.
    let failure = refuse(
        source,
        vec![set_props(
            PULL,
            HEADER,
            "n4_9sfl",
            json!({ "imageProperties": image, "graphProperties": {
                "graphType": graph["graphType"], "lineSize": graph["lineSize"],
                "lineColor": graph["lineColor"], "fillColor": "#ff0000", "cornerRadius": graph["cornerRadius"],
                "points": graph["points"], "sides": graph["sides"], "startAngle": graph["startAngle"],
                "distances": graph["distances"]
            } }),
        )],
    );
    let wrong = issue(
        &failure,
        "unsupported_display_node_field",
        "operations[0].props.imageProperties",
    );
    assert_eq!(wrong.field.as_deref(), Some("imageProperties"));
    assert_eq!(wrong.node_kind.as_deref(), Some("graph"));
    assert!(
        wrong.message.contains("graphProperties"),
        "{}",
        wrong.message
    );
    issue(
        &failure,
        "invalid_display_node_payload",
        "operations[0].props",
    );
    assert_eq!(failure.issues.len(), 2, "{:#?}", failure.issues);

    // The image snapshot on an image node applies as a whole.
    let project = apply(
        source,
        vec![set_props(
            PULL,
            HEADER,
            "n3_n3qd",
            json!({ "imageProperties": image }),
        )],
    );
    let DisplayNode::Image(arrow) = node(component(&project, PULL, HEADER), "n3_n3qd") else {
        panic!()
    };
    assert_eq!(arrow.props.flip, 1);

    // No fill means amount 100; a fill method means a 0..1 fraction.
    let mut bad = image.clone();
    bad["fillAmount"] = json!(0.5);
    let failure = refuse(
        source,
        vec![set_props(
            PULL,
            HEADER,
            "n3_n3qd",
            json!({ "imageProperties": bad }),
        )],
    );
    let fill = only(
        &failure,
        "invalid_display_node_payload",
        "operations[0].props.imageProperties.fillAmount",
    );
    assert_eq!(fill.field.as_deref(), Some("imageProperties"));
    bad["fillMethod"] = json!(4);
    bad["flip"] = json!(9);
    let failure = refuse(
        source,
        vec![set_props(
            PULL,
            HEADER,
            "n3_n3qd",
            json!({ "imageProperties": bad }),
        )],
    );
    only(
        &failure,
        "invalid_display_node_payload",
        "operations[0].props.imageProperties.flip",
    );
}

#[test]
fn set_props_group_and_graph_snapshots_follow_their_rules() {
    let source = unity();
    let group = json!({
        "layout": 1, "lineGap": 4, "columnGap": 0, "advanced": true,
        "excludeInvisibles": false, "autoSizeDisabled": false, "mainGridIndex": -1
    });
    let project = apply(
        source,
        vec![set_props(
            PULL,
            HEADER,
            "n2_n3qd",
            json!({ "groupProperties": group }),
        )],
    );
    let DisplayNode::Group(g) = node(component(&project, PULL, HEADER), "n2_n3qd") else {
        panic!()
    };
    assert_eq!((g.props.layout, g.props.line_gap), (1, Num(4.0)));
    // Layout fields need an advanced group with a layout.
    let mut simple = group.clone();
    simple["advanced"] = json!(false);
    let failure = refuse(
        source,
        vec![set_props(
            PULL,
            HEADER,
            "n2_n3qd",
            json!({ "groupProperties": simple }),
        )],
    );
    issue(
        &failure,
        "invalid_display_node_payload",
        "operations[0].props.groupProperties.layout",
    );
    issue(
        &failure,
        "invalid_display_node_payload",
        "operations[0].props.groupProperties.lineGap",
    );

    let mut graph = node_json(source, PULL, HEADER, "n4_9sfl");
    let snapshot = |graph: &Value| {
        json!({ "graphProperties": {
            "graphType": graph["graphType"], "lineSize": graph["lineSize"], "lineColor": graph["lineColor"],
            "fillColor": graph["fillColor"], "cornerRadius": graph["cornerRadius"], "points": graph["points"],
            "sides": graph["sides"], "startAngle": graph["startAngle"], "distances": graph["distances"]
        } })
    };
    graph["fillColor"] = json!("#ff0000");
    let project = apply(
        source,
        vec![set_props(PULL, HEADER, "n4_9sfl", snapshot(&graph))],
    );
    let DisplayNode::Graph(shape) = node(component(&project, PULL, HEADER), "n4_9sfl") else {
        panic!()
    };
    assert_eq!(shape.props.fill_color, "#ff0000");
    // Without sides there is no start angle.
    graph["startAngle"] = json!(30);
    let failure = refuse(
        source,
        vec![set_props(PULL, HEADER, "n4_9sfl", snapshot(&graph))],
    );
    only(
        &failure,
        "invalid_display_node_payload",
        "operations[0].props.graphProperties.startAngle",
    );
}

#[test]
fn set_props_list_snapshots_carry_tree_fields_only_for_trees() {
    let source = unity();
    let DisplayNode::Tree(tree) = node(component(&source.project, TREE_PKG, TREE_MAIN), "n0")
    else {
        panic!("TreeView n0 is a tree")
    };
    let mut list = serde_json::to_value(&tree.list).unwrap();
    list["lineGap"] = json!(7);
    // A tree needs its tree fields in the snapshot.
    let failure = refuse(
        source,
        vec![set_props(
            TREE_PKG,
            TREE_MAIN,
            "n0",
            json!({ "listProperties": list }),
        )],
    );
    only(
        &failure,
        "invalid_display_node_payload",
        "operations[0].props.listProperties",
    );
    let mut full = list.clone();
    full.as_object_mut().unwrap().extend(
        serde_json::to_value(&tree.tree)
            .unwrap()
            .as_object()
            .unwrap()
            .clone(),
    );
    let project = apply(
        source,
        vec![set_props(
            TREE_PKG,
            TREE_MAIN,
            "n0",
            json!({ "listProperties": full }),
        )],
    );
    let DisplayNode::Tree(edited) = node(component(&project, TREE_PKG, TREE_MAIN), "n0") else {
        panic!()
    };
    assert_eq!(edited.list.line_gap, Num(7.0));
    assert_eq!(edited.tree, tree.tree);

    // A plain list refuses the tree fields and layout-unused counts.
    let DisplayNode::List(curve) = node(component(&source.project, CURVE_PKG, CURVE_MAIN), "n2")
    else {
        panic!("Curve n2 is a list")
    };
    let mut list = serde_json::to_value(&curve.list).unwrap();
    let mut with_tree = list.clone();
    with_tree["treeView"] = json!(true);
    with_tree["indent"] = json!(15);
    with_tree["clickToExpand"] = json!(0);
    let failure = refuse(
        source,
        vec![set_props(
            CURVE_PKG,
            CURVE_MAIN,
            "n2",
            json!({ "listProperties": with_tree }),
        )],
    );
    only(
        &failure,
        "unsupported_display_node_field",
        "operations[0].props.listProperties.treeView",
    );
    list["lineCount"] = json!(3); // layout 1 (single row) counts nothing
    let failure = refuse(
        source,
        vec![set_props(
            CURVE_PKG,
            CURVE_MAIN,
            "n2",
            json!({ "listProperties": list }),
        )],
    );
    only(
        &failure,
        "invalid_display_node_payload",
        "operations[0].props.listProperties.lineCount",
    );
}

#[test]
fn set_props_instance_properties_follow_the_component_and_null_deletes() {
    let source = example();
    let project = apply(
        source,
        vec![set_props(
            MAIN,
            VIEW,
            "n2_view",
            json!({ "componentInstanceProperties": null }),
        )],
    );
    let DisplayNode::Component(start) = node(component(&project, MAIN, VIEW), "n2_view") else {
        panic!()
    };
    assert_eq!(start.instance_properties, None);

    let DisplayNode::Component(start) = node(component(&source.project, MAIN, VIEW), "n2_view")
    else {
        panic!()
    };
    let Some(InstanceProperties::Button { title, .. }) = &start.instance_properties else {
        panic!("the start button has Button properties")
    };
    assert_eq!(title, "Start");
    let mut button = serde_json::to_value(start.instance_properties.as_ref().unwrap()).unwrap();
    button["title"] = json!("Go");
    let project = apply(
        source,
        vec![set_props(
            MAIN,
            VIEW,
            "n2_view",
            json!({ "componentInstanceProperties": button }),
        )],
    );
    let DisplayNode::Component(start) = node(component(&project, MAIN, VIEW), "n2_view") else {
        panic!()
    };
    let Some(InstanceProperties::Button { title, .. }) = &start.instance_properties else {
        panic!()
    };
    assert_eq!(title, "Go");

    // The Button component takes Button properties, not Label ones; text nodes take none.
    let label = json!({
        "extensionType": "Label", "title": "Go", "icon": "", "titleColor": "", "titleFontSize": 12,
        "promptText": "", "sound": "", "soundVolumeScale": 1
    });
    let failure = refuse(
        source,
        vec![
            set_props(
                MAIN,
                VIEW,
                "n2_view",
                json!({ "componentInstanceProperties": label }),
            ),
            set_props(
                MAIN,
                VIEW,
                "n1_view",
                json!({ "componentInstanceProperties": null }),
            ),
        ],
    );
    assert_eq!(failure.issues.len(), 2, "{:#?}", failure.issues);
    issue(
        &failure,
        "invalid_display_node_payload",
        "operations[0].props.componentInstanceProperties.extensionType",
    );
    issue(
        &failure,
        "unsupported_display_node_field",
        "operations[1].props.componentInstanceProperties",
    );
}

/// A button's title changes with one short field: `text`, or a partial
/// `componentInstanceProperties`; the other fields keep their values.
#[test]
fn set_props_change_a_buttons_title_with_text_or_a_partial_instance() {
    let source = example();
    let button = |project: &UamProject| {
        let DisplayNode::Component(start) = node(component(project, MAIN, VIEW), "n2_view") else {
            panic!()
        };
        start.instance_properties.clone().unwrap()
    };
    let before = button(&source.project);
    let title_of = |p: &InstanceProperties| match p {
        InstanceProperties::Button {
            title,
            selected_title,
            ..
        } => (title.clone(), selected_title.clone()),
        other => panic!("{other:?}"),
    };

    let project = apply(
        source,
        vec![set_props(MAIN, VIEW, "n2_view", json!({ "text": "Go" }))],
    );
    let after = button(&project);
    assert_eq!(title_of(&after).0, "Go");
    // Everything but the title as it was.
    let mut expected = serde_json::to_value(&before).unwrap();
    expected["title"] = json!("Go");
    assert_eq!(serde_json::to_value(&after).unwrap(), expected);

    let project = apply(
        source,
        vec![set_props(
            MAIN,
            VIEW,
            "n2_view",
            json!({ "componentInstanceProperties": { "selectedTitle": "Stop" }, "text": "Go" }),
        )],
    );
    assert_eq!(title_of(&button(&project)), ("Go".into(), "Stop".into()));

    // A field a Button does not have, the font shortcut, and one field set twice.
    let failure = refuse(
        source,
        vec![
            set_props(
                MAIN,
                VIEW,
                "n2_view",
                json!({ "componentInstanceProperties": { "promptText": "?" } }),
            ),
            set_props(MAIN, VIEW, "n2_view", json!({ "font": "Arial" })),
            set_props(
                MAIN,
                VIEW,
                "n2_view",
                json!({ "text": "A", "componentInstanceProperties": { "title": "B" } }),
            ),
        ],
    );
    let foreign = issue(
        &failure,
        "unsupported_display_node_field",
        "operations[0].props.componentInstanceProperties.promptText",
    );
    assert!(
        foreign.message.contains("selectedTitle"),
        "names the Button's fields: {}",
        foreign.message
    );
    issue(
        &failure,
        "unsupported_text_field_target",
        "operations[1].props.font",
    );
    issue(
        &failure,
        "invalid_display_node_payload",
        "operations[2].props.componentInstanceProperties.title",
    );
}

/// An instance written without its `<Button/>` element gets one from the empty element
/// when its title is set.
#[test]
fn set_props_text_gives_an_instance_without_properties_its_title() {
    let source = example();
    let project = apply(
        source,
        vec![set_props(
            MAIN,
            VIEW,
            "n2_view",
            json!({ "componentInstanceProperties": null }),
        )],
    );
    let project = match txn::run(
        &project,
        &source.bytes,
        &ops(vec![set_props(
            MAIN,
            VIEW,
            "n2_view",
            json!({ "text": "Go" }),
        )]),
    ) {
        Ok(applied) => applied.project,
        Err(failure) => panic!("batch refused: {:#?}", failure.issues),
    };
    let DisplayNode::Component(start) = node(component(&project, MAIN, VIEW), "n2_view") else {
        panic!()
    };
    let mut expected = InstanceProperties::empty("Button").unwrap();
    if let InstanceProperties::Button { title, .. } = &mut expected {
        *title = "Go".into();
    }
    assert_eq!(start.instance_properties, Some(expected));
}

#[test]
fn set_props_group_must_name_another_group_node() {
    let source = unity();
    // Move the refresh text from one group to the other.
    let project = apply(
        source,
        vec![set_props(
            PULL,
            HEADER,
            "n5_9sfl",
            json!({ "group": "n2_n3qd" }),
        )],
    );
    let moved = node(component(&project, PULL, HEADER), "n5_9sfl");
    assert_eq!(moved.base().group.as_deref(), Some("n2_n3qd"));
    // Leaving every group.
    let project = apply(
        source,
        vec![set_props(PULL, HEADER, "n5_9sfl", json!({ "group": "" }))],
    );
    assert_eq!(
        node(component(&project, PULL, HEADER), "n5_9sfl")
            .base()
            .group
            .as_deref(),
        Some("")
    );

    for (target, why) in [
        ("n3_n3qd", "image node"),
        ("n5_9sfl", "own group"),
        ("n99", "no node"),
    ] {
        let failure = refuse(
            source,
            vec![set_props(
                PULL,
                HEADER,
                "n5_9sfl",
                json!({ "group": target }),
            )],
        );
        let found = only(
            &failure,
            "invalid_group_reference",
            "operations[0].props.group",
        );
        assert!(found.message.contains(target), "{why}: {}", found.message);
    }
}

#[test]
fn set_props_selector_must_name_a_node() {
    let failure = refuse(
        example(),
        vec![set_props(
            MAIN,
            VIEW,
            "n9_view",
            json!({ "visible": false }),
        )],
    );
    let found = only(
        &failure,
        "invalid_display_node_selector",
        "operations[0].selector.displayNodeId",
    );
    assert!(found.message.contains("n9_view"), "{}", found.message);
    let failure = refuse(
        example(),
        vec![set_props(
            MAIN,
            "nope",
            "n1_view",
            json!({ "visible": false }),
        )],
    );
    only(
        &failure,
        "invalid_component_selector",
        "operations[0].selector.componentResourceId",
    );
}

// ---------------------------------------------------------------- attach / detach

#[test]
fn attach_then_edit_the_attached_node_in_one_batch() {
    let source = example();
    let project = apply(
        source,
        vec![
            json!({ "kind": "attachDisplayNode", "selector": comp_sel(MAIN, VIEW), "atIndex": 2, "node": new_text_node("n9_view") }),
            set_props(
                MAIN,
                VIEW,
                "n9_view",
                json!({ "text": "Attached", "position": { "x": 40, "y": 100 } }),
            ),
        ],
    );
    let model = component(&project, MAIN, VIEW);
    assert_eq!(
        ids(model),
        ["n0_view", "n1_view", "n9_view", "n2_view", "n3_view"]
    );
    let DisplayNode::Text(text) = node(model, "n9_view") else {
        panic!()
    };
    assert_eq!(text.text.text, "Attached");
    assert_eq!(text.base.position.y, Num(100.0));
    // The source project still has four nodes.
    assert_eq!(component(&source.project, MAIN, VIEW).display_list.len(), 4);
}

#[test]
fn attach_fills_in_the_owning_package_of_image_and_component_refs() {
    let source = example();
    let mut image = node_json(source, MAIN, VIEW, "n0_view");
    image["id"] = json!("n8_view");
    image.as_object_mut().unwrap()["resource"] = json!({ "resourceId": "img0" });
    let mut button = node_json(source, MAIN, VIEW, "n2_view");
    button["id"] = json!("n7_view");
    button["gears"] = json!([]);
    let project = apply(
        source,
        vec![
            json!({ "kind": "attachDisplayNode", "selector": comp_sel(MAIN, VIEW), "atIndex": 4, "node": image }),
            json!({ "kind": "attachDisplayNode", "selector": comp_sel(MAIN, VIEW), "atIndex": 0, "node": button }),
        ],
    );
    let model = component(&project, MAIN, VIEW);
    assert_eq!(model.display_list[0].id(), "n7_view");
    let DisplayNode::Image(image) = node(model, "n8_view") else {
        panic!()
    };
    assert_eq!(image.resource.package_id.as_deref(), Some(MAIN));
    let DisplayNode::Component(button) = node(model, "n7_view") else {
        panic!()
    };
    assert_eq!(button.resource.package_id.as_deref(), Some("cmn00001"));
}

#[test]
fn attach_refuses_bad_index_taken_id_and_foreign_refs() {
    let source = example();
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "attachDisplayNode", "selector": comp_sel(MAIN, VIEW), "atIndex": 5, "node": new_text_node("n9_view") }),
        ],
    );
    let found = only(&failure, "invalid_attach_index", "operations[0].atIndex");
    assert!(found.message.contains("0 to 4"), "{}", found.message);

    let failure = refuse(
        source,
        vec![
            json!({ "kind": "attachDisplayNode", "selector": comp_sel(MAIN, VIEW), "atIndex": 0, "node": new_text_node("n1_view") }),
        ],
    );
    only(
        &failure,
        "invalid_display_node_selector",
        "operations[0].node.id",
    );

    let mut image = node_json(source, MAIN, VIEW, "n0_view");
    image["id"] = json!("n8_view");
    image["resource"] = json!({ "packageId": "cmn00001", "resourceId": "btn0" });
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "attachDisplayNode", "selector": comp_sel(MAIN, VIEW), "atIndex": 0, "node": image }),
        ],
    );
    only(
        &failure,
        "unsupported_cross_package_image_ref",
        "operations[0].node.resource.packageId",
    );

    let mut button = node_json(source, MAIN, VIEW, "n2_view");
    button["id"] = json!("n7_view");
    button["gears"] = json!([]);
    button["resource"] = json!({ "packageId": "cmn00001", "resourceId": "missing" });
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "attachDisplayNode", "selector": comp_sel(MAIN, VIEW), "atIndex": 0, "node": button }),
        ],
    );
    only(
        &failure,
        "invalid_component_reference",
        "operations[0].node.resource.resourceId",
    );
    // A component cannot contain itself (validation's containment rule, on the final
    // state).
    button["resource"] = json!({ "resourceId": VIEW });
    button["instanceProperties"] = Value::Null;
    button.as_object_mut().unwrap().remove("instanceProperties");
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "attachDisplayNode", "selector": comp_sel(MAIN, VIEW), "atIndex": 0, "node": button }),
        ],
    );
    let found = only(
        &failure,
        "invalid_component_reference",
        "operations[0].node.resource",
    );
    assert_eq!(found.node_kind.as_deref(), Some("component"));
}

#[test]
fn attach_refuses_duplicate_gears_unknown_controllers_and_bad_values() {
    let source = example();
    let mut text = new_text_node("n9_view");
    text["gears"] = json!([
        look_gear("state", json!([{ "pageId": "1", "value": look(0.5) }])),
        look_gear("state", json!([])),
        display_gear("mode", &["0"]),
    ]);
    text["alpha"] = json!(3);
    text["group"] = json!("n0_view");
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "attachDisplayNode", "selector": comp_sel(MAIN, VIEW), "atIndex": 0, "node": text }),
        ],
    );
    assert_eq!(failure.issues.len(), 3, "{:#?}", failure.issues);
    let duplicate = issue(
        &failure,
        "duplicate_look_gear_controller",
        "operations[0].node.gears[1]",
    );
    assert_eq!(duplicate.gear_kind.as_deref(), Some("look"));
    issue(
        &failure,
        "invalid_gear_selector",
        "operations[0].node.gears[2].controllerName",
    );
    issue(
        &failure,
        "invalid_display_node_payload",
        "operations[0].node.alpha",
    );
    // The group is judged on the final state, once the node's own values are fine.
    text["gears"] = json!([]);
    text["alpha"] = json!(1);
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "attachDisplayNode", "selector": comp_sel(MAIN, VIEW), "atIndex": 0, "node": text }),
        ],
    );
    let group = only(
        &failure,
        "invalid_group_reference",
        "operations[0].node.group",
    );
    assert_eq!(group.node_kind.as_deref(), Some("text"));
    assert_eq!(group.field.as_deref(), Some("group"));
}

#[test]
fn detach_removes_only_the_node() {
    let source = example();
    let project = apply(
        source,
        vec![json!({ "kind": "detachDisplayNode", "selector": node_sel(MAIN, VIEW, "n3_view") })],
    );
    let model = component(&project, MAIN, VIEW);
    assert_eq!(ids(model), ["n0_view", "n1_view", "n2_view"]);
    assert_eq!(
        model.controllers,
        component(&source.project, MAIN, VIEW).controllers
    );

    let failure = refuse(
        source,
        vec![
            json!({ "kind": "detachDisplayNode", "selector": node_sel(MAIN, VIEW, "n3_view") }),
            json!({ "kind": "detachDisplayNode", "selector": node_sel(MAIN, VIEW, "n3_view") }),
        ],
    );
    only(
        &failure,
        "invalid_display_node_selector",
        "operations[1].selector.displayNodeId",
    );
}

#[test]
fn detaching_a_group_with_members_fails_on_the_final_state() {
    let source = unity();
    let failure = refuse(
        source,
        vec![json!({ "kind": "detachDisplayNode", "selector": node_sel(PULL, FOOTER, "n2_n3qd") })],
    );
    assert_eq!(failure.code.as_str(), "transaction_unsupported");
    // Both members of the group now point at a missing group.
    assert_eq!(failure.issues.len(), 2, "{:#?}", failure.issues);
    for found in &failure.issues {
        assert_eq!(found.code.as_str(), "invalid_group_reference");
        assert_eq!(found.op_index, 0);
        assert!(found.message.contains("n2_n3qd"), "{}", found.message);
    }
    // A later edit elsewhere does not take the blame: the detach broke the members.
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "detachDisplayNode", "selector": node_sel(PULL, FOOTER, "n2_n3qd") }),
            set_props(PULL, HEADER, "n3_n3qd", json!({ "alpha": 0.5 })),
        ],
    );
    assert_eq!(failure.issues.len(), 2, "{:#?}", failure.issues);
    for found in &failure.issues {
        assert_eq!(
            (found.code.as_str(), found.op_index, found.path.as_str()),
            (
                "invalid_group_reference",
                0,
                "operations[0].selector.displayNodeId"
            )
        );
    }
    // Members may leave the group first; then the group can go.
    let project = apply(
        source,
        vec![
            set_props(PULL, FOOTER, "n0_n3qd", json!({ "group": "" })),
            set_props(PULL, FOOTER, "n1_n3qd", json!({ "group": "" })),
            json!({ "kind": "detachDisplayNode", "selector": node_sel(PULL, FOOTER, "n2_n3qd") }),
        ],
    );
    assert_eq!(
        ids(component(&project, PULL, FOOTER)),
        ["n0_n3qd", "n1_n3qd"]
    );
}

// ---------------------------------------------------------------- controllers

#[test]
fn update_controller_renames_a_page_keeping_its_id() {
    let source = example();
    let mut state = controller_json(source, MAIN, VIEW, "state");
    assert_eq!(state["pages"][1]["name"], "Active");
    state["pages"][1]["name"] = json!("Ready");
    let project = apply(
        source,
        vec![
            json!({ "kind": "updateController", "selector": controller_sel(MAIN, VIEW, "state"), "controller": state }),
        ],
    );
    let model = component(&project, MAIN, VIEW);
    assert_eq!(model.controllers.len(), 1);
    let pages: Vec<(&str, &str)> = model.controllers[0]
        .pages
        .iter()
        .map(|p| (p.id.as_str(), p.name.as_str()))
        .collect();
    assert_eq!(pages, [("0", "Idle"), ("1", "Ready")]);
    // The gears bound to it are untouched.
    assert_eq!(
        model.display_list,
        component(&source.project, MAIN, VIEW).display_list
    );
}

#[test]
fn update_controller_refuses_dropping_pages_in_use_and_unknown_names() {
    let source = example();
    let mut state = controller_json(source, MAIN, VIEW, "state");
    state["pages"] = json!([{ "id": "0", "name": "Idle" }, { "id": "2", "name": "Ready" }]);
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "updateController", "selector": controller_sel(MAIN, VIEW, "state"), "controller": state }),
        ],
    );
    // n1_view's xy gear and n3_view's display gear use page 1.
    assert_eq!(failure.issues.len(), 2, "{:#?}", failure.issues);
    for found in &failure.issues {
        assert_eq!(found.code.as_str(), "invalid_controller_payload");
        assert_eq!(found.path, "operations[0].controller.pages");
    }
    assert!(
        failure
            .issues
            .iter()
            .any(|i| i.gear_kind.as_deref() == Some("xy"))
    );
    // The gears may move off the dropped page later in the same batch.
    let project = apply(
        source,
        vec![
            json!({ "kind": "updateController", "selector": controller_sel(MAIN, VIEW, "state"), "controller": state }),
            json!({ "kind": "removeGear", "selector": gear_sel(MAIN, VIEW, "n1_view", "xy", "state") }),
            json!({ "kind": "updateGear", "selector": gear_sel(MAIN, VIEW, "n3_view", "display", "state"), "gear": display_gear("state", &["2"]) }),
        ],
    );
    let model = component(&project, MAIN, VIEW);
    assert_eq!(model.controllers[0].pages.len(), 2);
    assert!(node(model, "n1_view").base().gears.is_empty());
    // Fixing only one gear leaves the other blamed on the update.
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "updateController", "selector": controller_sel(MAIN, VIEW, "state"), "controller": state }),
            json!({ "kind": "removeGear", "selector": gear_sel(MAIN, VIEW, "n1_view", "xy", "state") }),
        ],
    );
    let left = only(
        &failure,
        "invalid_controller_payload",
        "operations[0].controller.pages",
    );
    assert_eq!(left.gear_kind.as_deref(), Some("display"));

    let renamed = new_controller("other", &[("0", "a")]);
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "updateController", "selector": controller_sel(MAIN, VIEW, "other"), "controller": renamed }),
        ],
    );
    only(
        &failure,
        "invalid_controller_payload",
        "operations[0].selector.controllerName",
    );
}

#[test]
fn add_controller_appends_a_valid_snapshot() {
    let source = example();
    let mut mode = new_controller("mode", &[("0", "day"), ("1", "night")]);
    mode["homePageType"] = json!("specific");
    mode["homePage"] = json!("1");
    mode["actions"] = json!([{
        "name": "", "actionType": 1, "fromPageIds": ["0"], "toPageIds": ["1"], "transitionName": "",
        "playTimes": 1, "delay": 0, "stopOnExit": false, "targetNodeId": "n2_view",
        "controllerName": "button", "targetPage": "1"
    }]);
    let project = apply(
        source,
        vec![
            json!({ "kind": "addController", "selector": controller_sel(MAIN, VIEW, "mode"), "controller": mode }),
            // A gear may use it later in the same batch.
            json!({ "kind": "addGear", "selector": gear_sel(MAIN, VIEW, "n0_view", "display", "mode"), "gear": display_gear("mode", &["1"]) }),
        ],
    );
    let model = component(&project, MAIN, VIEW);
    let names: Vec<&str> = model.controllers.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["state", "mode"]);
    assert_eq!(model.controllers[1].home_page, "1");
    assert_eq!(node(model, "n0_view").base().gears.len(), 1);
}

#[test]
fn add_controller_refuses_every_broken_rule() {
    let source = example();
    let mut bad = new_controller("oops", &[("0", "a"), ("0", "b"), ("", "c")]);
    bad["selectedIndex"] = json!(3);
    bad["homePageType"] = json!("variable");
    bad["actions"] = json!([{
        "name": "", "actionType": 0, "fromPageIds": ["9"], "toPageIds": [], "transitionName": "intro",
        "playTimes": 1, "delay": 0, "stopOnExit": false, "targetNodeId": "n99", "controllerName": "",
        "targetPage": ""
    }]);
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "addController", "selector": controller_sel(MAIN, VIEW, "mode"), "controller": bad }),
        ],
    );
    only(
        &failure,
        "invalid_controller_payload",
        "operations[0].controller.name",
    );
    // What a valid controller is, is validation's rule, judged on the final state and
    // located in the payload.
    bad["name"] = json!("mode");
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "addController", "selector": controller_sel(MAIN, VIEW, "mode"), "controller": bad }),
        ],
    );
    for (code, path) in [
        (
            "invalid_controller_payload",
            "operations[0].controller.pages[1].id",
        ),
        (
            "invalid_controller_payload",
            "operations[0].controller.pages[2].id",
        ),
        (
            "invalid_controller_payload",
            "operations[0].controller.selectedIndex",
        ),
        (
            "invalid_controller_payload",
            "operations[0].controller.homePage",
        ),
        (
            "invalid_controller_payload",
            "operations[0].controller.actions[0].fromPageIds",
        ),
        (
            "invalid_display_node_selector",
            "operations[0].controller.actions[0].targetNodeId",
        ),
    ] {
        issue(&failure, code, path);
    }
    assert_eq!(failure.issues.len(), 6, "{:#?}", failure.issues);

    let failure = refuse(
        source,
        vec![
            json!({ "kind": "addController", "selector": controller_sel(MAIN, VIEW, "mode"), "controller": new_controller("mode", &[]) }),
        ],
    );
    issue(
        &failure,
        "invalid_controller_payload",
        "operations[0].controller.pages",
    );

    let failure = refuse(
        source,
        vec![
            json!({ "kind": "addController", "selector": controller_sel(MAIN, VIEW, "state"), "controller": new_controller("state", &[("0", "")]) }),
        ],
    );
    only(
        &failure,
        "invalid_controller_payload",
        "operations[0].selector.controllerName",
    );
}

#[test]
fn remove_controller_needs_its_gears_gone_first() {
    let source = example();
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "removeController", "selector": controller_sel(MAIN, VIEW, "state") }),
        ],
    );
    // One issue per gear still using it at the end of the batch, each blamed on the removal.
    assert_eq!(failure.issues.len(), 3, "{:#?}", failure.issues);
    for user in ["n1_view", "n2_view", "n3_view"] {
        let found = failure
            .issues
            .iter()
            .find(|i| i.message.contains(user))
            .unwrap_or_else(|| panic!("{user}: {:#?}", failure.issues));
        assert_eq!(found.code.as_str(), "invalid_controller_payload");
        assert_eq!(found.path, "operations[0].selector.controllerName");
    }
    // The gears may go before or after the controller in the batch.
    let remove_gears = [
        json!({ "kind": "removeGear", "selector": gear_sel(MAIN, VIEW, "n1_view", "xy", "state") }),
        json!({ "kind": "removeGear", "selector": gear_sel(MAIN, VIEW, "n2_view", "display", "state") }),
        json!({ "kind": "removeGear", "selector": gear_sel(MAIN, VIEW, "n3_view", "display", "state") }),
    ];
    let remove_controller =
        json!({ "kind": "removeController", "selector": controller_sel(MAIN, VIEW, "state") });
    let mut before = remove_gears.to_vec();
    before.push(remove_controller.clone());
    let mut after = vec![remove_controller];
    after.extend(remove_gears);
    for batch in [before, after] {
        let project = apply(source, batch);
        let model = component(&project, MAIN, VIEW);
        assert!(model.controllers.is_empty());
        assert!(model.display_list.iter().all(|n| n.base().gears.is_empty()));
    }
    // Nothing left to remove.
    let failure = refuse(
        source,
        vec![json!({ "kind": "removeController", "selector": controller_sel(MAIN, VIEW, "nope") })],
    );
    only(
        &failure,
        "invalid_controller_payload",
        "operations[0].selector.controllerName",
    );
}

#[test]
fn unity_controllers_can_be_added_and_removed() {
    let source = unity();
    let project = apply(
        source,
        vec![
            json!({ "kind": "addController", "selector": controller_sel(PULL, FOOTER, "c2"), "controller": new_controller("c2", &[("0", "a")]) }),
            json!({ "kind": "removeController", "selector": controller_sel(PULL, FOOTER, "c2") }),
            json!({ "kind": "addController", "selector": controller_sel(PULL, FOOTER, "c3"), "controller": new_controller("c3", &[("0", "a"), ("1", "b")]) }),
        ],
    );
    let names: Vec<&str> = component(&project, PULL, FOOTER)
        .controllers
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(names, ["c1", "c3"]);
}

// ---------------------------------------------------------------- transitions

#[test]
fn update_transition_edits_an_item_in_place() {
    let source = example();
    let mut intro = transition_json(source, MAIN, VIEW, "intro");
    intro["items"][1]["duration"] = json!(18);
    intro["items"][1]["endValue"] = json!([120, 64]);
    let project = apply(
        source,
        vec![
            json!({ "kind": "updateTransition", "selector": transition_sel(MAIN, VIEW, "intro"), "transition": intro }),
        ],
    );
    let model = component(&project, MAIN, VIEW);
    assert_eq!(model.transitions.len(), 1);
    let item = &model.transitions[0].items[1];
    assert_eq!(item.duration, Num(18.0));
    assert_eq!(item.end_value, [json!(120), json!(64)]);
    let before = &component(&source.project, MAIN, VIEW).transitions[0];
    assert_eq!(model.transitions[0].items[0], before.items[0]);
    assert_eq!(item.start_value, before.items[1].start_value);

    let mut renamed = transition_json(source, MAIN, VIEW, "intro");
    renamed["name"] = json!("outro");
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "updateTransition", "selector": transition_sel(MAIN, VIEW, "intro"), "transition": renamed }),
        ],
    );
    only(
        &failure,
        "invalid_transition_payload",
        "operations[0].transition.name",
    );

    // Files have no place for an item's name.
    let mut labelled = transition_json(source, MAIN, VIEW, "intro");
    labelled["items"][0]["name"] = json!("fade");
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "updateTransition", "selector": transition_sel(MAIN, VIEW, "intro"), "transition": labelled }),
        ],
    );
    only(
        &failure,
        "invalid_transition_payload",
        "operations[0].transition.items[0].name",
    );
}

#[test]
fn add_transition_needs_a_new_name_and_existing_targets() {
    let source = example();
    let mut outro = transition_json(source, MAIN, VIEW, "intro");
    outro["name"] = json!("outro");
    outro["autoPlay"] = json!(false);
    let project = apply(
        source,
        vec![
            json!({ "kind": "addTransition", "selector": transition_sel(MAIN, VIEW, "outro"), "transition": outro }),
        ],
    );
    let names: Vec<&str> = component(&project, MAIN, VIEW)
        .transitions
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(names, ["intro", "outro"]);

    let intro = transition_json(source, MAIN, VIEW, "intro");
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "addTransition", "selector": transition_sel(MAIN, VIEW, "intro"), "transition": intro }),
        ],
    );
    only(
        &failure,
        "duplicate_transition_name",
        "operations[0].selector.transitionName",
    );

    outro["items"][0]["targetNodeId"] = json!("n99");
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "addTransition", "selector": transition_sel(MAIN, VIEW, "outro"), "transition": outro }),
        ],
    );
    only(
        &failure,
        "invalid_transition_payload",
        "operations[0].transition.items[0].targetNodeId",
    );
}

#[test]
fn remove_transition_needs_exactly_one_match() {
    let source = unity();
    let project = apply(
        source,
        vec![json!({ "kind": "removeTransition", "selector": transition_sel(PULL, FOOTER, "t0") })],
    );
    assert!(component(&project, PULL, FOOTER).transitions.is_empty());
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "removeTransition", "selector": transition_sel(PULL, FOOTER, "t0") }),
            json!({ "kind": "removeTransition", "selector": transition_sel(PULL, FOOTER, "t0") }),
        ],
    );
    only(
        &failure,
        "invalid_transition_payload",
        "operations[1].selector.transitionName",
    );
}

// ---------------------------------------------------------------- gears

#[test]
fn look_gears_are_added_updated_and_removed() {
    let source = example();
    let project = apply(
        source,
        vec![
            json!({ "kind": "addLookGear", "selector": gear_sel(MAIN, VIEW, "n0_view", "look", "state"),
                    "gear": look_gear("state", json!([{ "pageId": "1", "value": look(0.5) }])) }),
            json!({ "kind": "updateLookGear", "selector": gear_sel(MAIN, VIEW, "n0_view", "look", "state"),
                    "gear": look_gear("state", json!([{ "pageId": "0", "value": look(0.25) }, { "pageId": "1", "value": null }])) }),
        ],
    );
    let gears = &node(component(&project, MAIN, VIEW), "n0_view")
        .base()
        .gears;
    assert_eq!(gears.len(), 1);
    let Gear::Look(gear) = &gears[0] else {
        panic!("a look gear")
    };
    assert_eq!(gear.states.len(), 2);
    assert_eq!(gear.states[0].value, Some(look(0.25)));

    // The Unity Header's arrow has a look gear on c1.
    let unity = unity();
    let project = apply(
        unity,
        vec![
            json!({ "kind": "removeLookGear", "selector": gear_sel(PULL, HEADER, "n3_n3qd", "look", "c1") }),
        ],
    );
    let kinds: Vec<&str> = node(component(&project, PULL, HEADER), "n3_n3qd")
        .base()
        .gears
        .iter()
        .map(Gear::kind)
        .collect();
    assert_eq!(kinds, ["display"]);
}

#[test]
fn look_gear_operations_refuse_with_look_codes() {
    let source = unity();
    let add = |gear: Value| json!({ "kind": "addLookGear", "selector": gear_sel(PULL, HEADER, "n3_n3qd", "look", "c1"), "gear": gear });
    // The pair exists already.
    let failure = refuse(source, vec![add(look_gear("c1", json!([])))]);
    let found = only(
        &failure,
        "duplicate_look_gear_controller",
        "operations[0].selector",
    );
    assert_eq!(found.gear_kind.as_deref(), Some("look"));
    // A repeated page, an unknown page, a bad value, on a node without a look gear.
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "addLookGear", "selector": gear_sel(PULL, HEADER, "n0_n3qd", "look", "c1"),
                     "gear": look_gear("c1", json!([
                         { "pageId": "0", "value": look(1.0) },
                         { "pageId": "0", "value": look(1.0) },
                         { "pageId": "7", "value": look(1.0) },
                         { "pageId": "1", "value": { "alpha": 2 } }
                     ])) }),
        ],
    );
    issue(
        &failure,
        "duplicate_look_gear_state_page",
        "operations[0].gear.states[1].pageId",
    );
    issue(
        &failure,
        "invalid_gear_payload",
        "operations[0].gear.states[2].pageId",
    );
    issue(
        &failure,
        "invalid_gear_payload",
        "operations[0].gear.states[3].value",
    );
    assert_eq!(failure.issues.len(), 3, "{:#?}", failure.issues);
    // The look operations only take look selectors.
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "removeLookGear", "selector": gear_sel(PULL, HEADER, "n3_n3qd", "display", "c1") }),
        ],
    );
    only(
        &failure,
        "invalid_gear_selector",
        "operations[0].selector.kind",
    );
    // Update and remove need the pair.
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "updateLookGear", "selector": gear_sel(PULL, HEADER, "n0_n3qd", "look", "c1"),
                     "gear": look_gear("c1", json!([])) }),
        ],
    );
    only(&failure, "invalid_gear_selector", "operations[0].selector");
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "removeLookGear", "selector": gear_sel(PULL, HEADER, "n0_n3qd", "look", "c1") }),
        ],
    );
    only(&failure, "invalid_gear_selector", "operations[0].selector");
}

#[test]
fn gears_of_any_kind_are_added_updated_and_removed() {
    let source = example();
    let DisplayNode::Text(title) = node(component(&source.project, MAIN, VIEW), "n1_view") else {
        panic!()
    };
    let mut xy = serde_json::to_value(&title.base.gears[0]).unwrap();
    assert_eq!(xy["kind"], "xy");
    xy["states"][0]["value"] = json!({ "x": 40, "y": 80 });
    let project = apply(
        source,
        vec![
            json!({ "kind": "updateGear", "selector": gear_sel(MAIN, VIEW, "n1_view", "xy", "state"), "gear": xy }),
            json!({ "kind": "addGear", "selector": gear_sel(MAIN, VIEW, "n1_view", "display", "state"), "gear": display_gear("state", &["0", "1"]) }),
            json!({ "kind": "removeGear", "selector": gear_sel(MAIN, VIEW, "n2_view", "display", "state") }),
        ],
    );
    let model = component(&project, MAIN, VIEW);
    let gears = &node(model, "n1_view").base().gears;
    let kinds: Vec<&str> = gears.iter().map(Gear::kind).collect();
    assert_eq!(kinds, ["xy", "display"]);
    let Gear::Xy(moved) = &gears[0] else { panic!() };
    assert_eq!(moved.states[0].value, Some(json!({ "x": 40, "y": 80 })));
    assert!(node(model, "n2_view").base().gears.is_empty());
    assert_eq!(node(model, "n3_view").base().gears.len(), 1);
}

#[test]
fn gear_operations_refuse_bad_selectors_and_payloads() {
    let source = example();
    let xy = serde_json::to_value(
        &node(component(&source.project, MAIN, VIEW), "n1_view")
            .base()
            .gears[0],
    )
    .unwrap();
    // The xy gear on state exists already.
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "addGear", "selector": gear_sel(MAIN, VIEW, "n1_view", "xy", "state"), "gear": xy }),
        ],
    );
    let found = only(
        &failure,
        "duplicate_gear_controller",
        "operations[0].selector",
    );
    assert_eq!(found.gear_kind.as_deref(), Some("xy"));
    // Unknown kind, unknown controller, unknown node.
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "removeGear", "selector": gear_sel(MAIN, VIEW, "n1_view", "sparkle", "state") }),
            json!({ "kind": "addGear", "selector": gear_sel(MAIN, VIEW, "n0_view", "display", "mode"), "gear": display_gear("mode", &[]) }),
            json!({ "kind": "removeGear", "selector": gear_sel(MAIN, VIEW, "n9_view", "xy", "state") }),
        ],
    );
    issue(
        &failure,
        "invalid_gear_selector",
        "operations[0].selector.kind",
    );
    assert_eq!(
        failure.issues.iter().filter(|i| i.op_index == 0).count(),
        1,
        "{:#?}",
        failure.issues
    );
    issue(
        &failure,
        "invalid_gear_selector",
        "operations[1].selector.controllerName",
    );
    issue(
        &failure,
        "invalid_display_node_selector",
        "operations[2].selector.displayNodeId",
    );
    // The payload must repeat the selector; pages are listed once.
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "addGear", "selector": gear_sel(MAIN, VIEW, "n0_view", "display2", "state"), "gear": display_gear("state", &["0"]) }),
            json!({ "kind": "updateGear", "selector": gear_sel(MAIN, VIEW, "n1_view", "xy", "state"),
                    "gear": { "kind": "xy", "name": "", "controllerName": "state",
                              "states": [{ "pageId": "1", "value": { "x": 1, "y": 2 } }, { "pageId": "1", "value": null }],
                              "defaultValue": { "x": 40, "y": 40 }, "condition": "", "positionsInPercent": false,
                              "tween": true, "tweenDuration": 0.3, "tweenDelay": 0, "easeType": 5, "customEasePath": "" } }),
        ],
    );
    issue(&failure, "invalid_gear_payload", "operations[0].gear.kind");
    issue(
        &failure,
        "duplicate_gear_state_page",
        "operations[1].gear.states[1].pageId",
    );
    assert_eq!(failure.issues.len(), 2, "{:#?}", failure.issues);
    // Files have no place for a gear's name (found by the save fuzz harness: the save
    // refused what the batch had accepted).
    let mut named = xy.clone();
    named["name"] = json!("slide");
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "updateGear", "selector": gear_sel(MAIN, VIEW, "n1_view", "xy", "state"), "gear": named }),
        ],
    );
    only(&failure, "invalid_gear_payload", "operations[0].gear.name");
}

#[test]
fn a_removed_controller_takes_effect_for_later_gear_operations() {
    let source = unity();
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "addController", "selector": controller_sel(PULL, FOOTER, "c2"), "controller": new_controller("c2", &[("0", "a")]) }),
            json!({ "kind": "removeController", "selector": controller_sel(PULL, FOOTER, "c2") }),
            json!({ "kind": "addGear", "selector": gear_sel(PULL, FOOTER, "n1_n3qd", "display", "c2"), "gear": display_gear("c2", &["0"]) }),
        ],
    );
    only(
        &failure,
        "invalid_gear_selector",
        "operations[2].selector.controllerName",
    );
}

#[test]
fn legacy_duplicate_names_make_selectors_ambiguous() {
    // Build a legacy model with two controllers and two transitions of the same name.
    let source = example();
    let mut project = source.project.clone();
    let p = project.packages.iter().position(|p| p.id == MAIN).unwrap();
    let package = Arc::make_mut(&mut project.packages[p]);
    let r = package
        .resources
        .iter()
        .position(|r| r.id() == VIEW)
        .unwrap();
    let UamResource::Component(view) = Arc::make_mut(&mut package.resources[r]) else {
        panic!()
    };
    let twin = view.component.controllers[0].clone();
    view.component.controllers.push(twin);
    let twin = view.component.transitions[0].clone();
    view.component.transitions.push(twin);
    let failure = refuse_in(
        &project,
        source,
        vec![
            json!({ "kind": "updateController", "selector": controller_sel(MAIN, VIEW, "state"), "controller": controller_json(source, MAIN, VIEW, "state") }),
            json!({ "kind": "removeTransition", "selector": transition_sel(MAIN, VIEW, "intro") }),
            json!({ "kind": "addLookGear", "selector": gear_sel(MAIN, VIEW, "n0_view", "look", "state"), "gear": look_gear("state", json!([])) }),
        ],
    );
    assert_eq!(failure.code.as_str(), "selector_ambiguity");
    issue(
        &failure,
        "selector_ambiguity",
        "operations[0].selector.controllerName",
    );
    issue(
        &failure,
        "selector_ambiguity",
        "operations[1].selector.transitionName",
    );
    issue(
        &failure,
        "selector_ambiguity",
        "operations[2].selector.controllerName",
    );
}

// ---------------------------------------------------------------- properties over the corpora

/// Re-attaching every node where it was and re-sending every controller and transition
/// unchanged applies on every component of the three projects, and gives back the same
/// model (an image or component reference now names its package explicitly): what we
/// read, we accept back. That holds for components with legacy defects too (an image node
/// showing an image the package no longer has in HitTest/component1, transition items
/// animating a node BOSS no longer has): the batch leaves them as they were.
#[test]
fn every_corpus_node_controller_and_transition_round_trips() {
    let legacy: [(&str, &str, &str); 0] = [];
    let mut checked = 0;
    for source in [example(), unity(), experiments()] {
        let project = &source.project;
        for package in &project.packages {
            for resource in &package.resources {
                let Some(model) = resource.component() else {
                    continue;
                };
                let mut batch = Vec::new();
                for (i, n) in model.display_list.iter().enumerate() {
                    batch.push(json!({ "kind": "detachDisplayNode", "selector": node_sel(&package.id, resource.id(), n.id()) }));
                    batch.push(json!({ "kind": "attachDisplayNode", "selector": comp_sel(&package.id, resource.id()), "atIndex": i, "node": n }));
                }
                for c in &model.controllers {
                    batch.push(json!({ "kind": "updateController", "selector": controller_sel(&package.id, resource.id(), &c.name), "controller": c }));
                }
                for t in &model.transitions {
                    batch.push(json!({ "kind": "updateTransition", "selector": transition_sel(&package.id, resource.id(), &t.name), "transition": t }));
                }
                if batch.is_empty() {
                    continue;
                }
                checked += 1;
                let expected = legacy
                    .iter()
                    .find(|(p, c, _)| *p == package.name && *c == resource.name());
                match (txn::run(project, &source.bytes, &ops(batch)), expected) {
                    (Ok(applied), None) => {
                        let after = component(&applied.project, &package.id, resource.id());
                        assert_eq!(after.controllers, model.controllers);
                        assert_eq!(after.transitions, model.transitions);
                        let mut original = model.display_list.clone();
                        for n in &mut original {
                            match n {
                                DisplayNode::Image(n) if n.resource.package_id.is_none() => {
                                    n.resource.package_id = Some(package.id.clone());
                                }
                                DisplayNode::Component(n) if n.resource.package_id.is_none() => {
                                    n.resource.package_id = Some(package.id.clone());
                                }
                                _ => {}
                            }
                        }
                        assert_eq!(
                            after.display_list,
                            original,
                            "{}/{}",
                            package.name,
                            resource.name()
                        );
                    }
                    (Err(failure), Some((_, _, code))) => {
                        assert!(
                            failure.issues.iter().all(|i| i.code.as_str() == *code),
                            "{}/{}: {:#?}",
                            package.name,
                            resource.name(),
                            failure.issues
                        );
                    }
                    (Err(failure), None) => {
                        panic!(
                            "{}/{} refused: {:#?}",
                            package.name,
                            resource.name(),
                            failure.issues
                        )
                    }
                    (Ok(_), Some(_)) => panic!(
                        "{}/{} should keep its legacy issue",
                        package.name,
                        resource.name()
                    ),
                }
            }
        }
    }
    assert!(checked > 100, "checked {checked} components");
}

/// Whatever fails in a batch, the earlier valid operations do not leak into the input,
/// and every issue points at an operation of the batch.
#[test]
fn refused_batches_change_nothing_whatever_fails() {
    let source = example();
    let good = [
        set_props(MAIN, VIEW, "n1_view", json!({ "text": "changed" })),
        json!({ "kind": "detachDisplayNode", "selector": node_sel(MAIN, VIEW, "n3_view") }),
        json!({ "kind": "addController", "selector": controller_sel(MAIN, VIEW, "mode"), "controller": new_controller("mode", &[("0", "a")]) }),
        json!({ "kind": "removeTransition", "selector": transition_sel(MAIN, VIEW, "intro") }),
        json!({ "kind": "removeGear", "selector": gear_sel(MAIN, VIEW, "n2_view", "display", "state") }),
    ];
    let bad = [
        set_props(MAIN, VIEW, "n1_view", json!({ "alpha": -1 })),
        json!({ "kind": "detachDisplayNode", "selector": node_sel(MAIN, VIEW, "n42") }),
        json!({ "kind": "removeController", "selector": controller_sel(MAIN, VIEW, "zzz") }),
        json!({ "kind": "updateTransition", "selector": transition_sel(MAIN, VIEW, "zzz"), "transition": transition_json(source, MAIN, VIEW, "intro") }),
    ];
    for (g, good_op) in good.iter().enumerate() {
        for (b, bad_op) in bad.iter().enumerate() {
            for batch in [
                vec![good_op.clone(), bad_op.clone()],
                vec![bad_op.clone(), good_op.clone()],
            ] {
                let failure = refuse(source, batch);
                assert!(!failure.issues.is_empty(), "good {g}, bad {b}");
                assert!(
                    failure
                        .issues
                        .iter()
                        .all(|i| i.op_index < 2 && i.path.starts_with("operations["))
                );
            }
        }
    }
}

// Unity examples: Basics' Demo_Controller and Demo_Text, Guide's GuideLayer.
const BASICS: &str = "9leh0eyf";
const DEMO_CONTROLLER: &str = "wa8u2v";
const DEMO_TEXT: &str = "nz0z1z";
const GUIDE: &str = "q3l7vvj0";
const GUIDE_LAYER: &str = "rpol4";

/// The fields of `node` named in `keys`, as one object.
fn pick(node: &Value, keys: &[&str]) -> Value {
    Value::Object(
        keys.iter()
            .map(|key| (key.to_string(), node[*key].clone()))
            .collect(),
    )
}

const IMAGE_FIELDS: [&str; 6] = [
    "color",
    "flip",
    "fillMethod",
    "fillOrigin",
    "fillClockwise",
    "fillAmount",
];

#[test]
fn set_props_retargets_an_image_within_its_package() {
    let source = unity();
    let current = node_json(source, BASICS, DEMO_CONTROLLER, "n7");
    assert_eq!(current["resource"]["resourceId"], "h5p722");
    let mut snapshot = pick(&current, &IMAGE_FIELDS);
    snapshot["resource"] = json!({ "resourceId": "wa8u2t" });
    let project = apply(
        source,
        vec![set_props(
            BASICS,
            DEMO_CONTROLLER,
            "n7",
            json!({ "imageProperties": snapshot }),
        )],
    );
    let DisplayNode::Image(image) = node(component(&project, BASICS, DEMO_CONTROLLER), "n7") else {
        panic!()
    };
    assert_eq!(image.resource.resource_id, "wa8u2t");
    assert_eq!(
        serde_json::to_value(&image.resource.package_id).unwrap(),
        current["resource"]["packageId"].clone(),
        "a reference into the own package keeps its form"
    );

    // Nowhere, the wrong kind (validation's reference rule, on the final state), another
    // package (upstream's support rule, at once).
    for (target, code, path) in [
        (
            json!({ "resourceId": "nope00" }),
            "invalid_resource_reference",
            "operations[0].props.imageProperties.resource",
        ),
        (
            json!({ "resourceId": "hixt1v" }),
            "invalid_resource_reference",
            "operations[0].props.imageProperties.resource",
        ),
        (
            json!({ "packageId": "y768eypa", "resourceId": "fymi17" }),
            "unsupported_cross_package_image_ref",
            "operations[0].props.imageProperties.resource.packageId",
        ),
    ] {
        let mut snapshot = pick(&current, &IMAGE_FIELDS);
        snapshot["resource"] = target;
        let failure = refuse(
            source,
            vec![set_props(
                BASICS,
                DEMO_CONTROLLER,
                "n7",
                json!({ "imageProperties": snapshot }),
            )],
        );
        only(&failure, code, path);
    }
}

#[test]
fn set_props_retargets_a_movie_clip_and_its_file_name() {
    let source = unity();
    let current = node_json(source, GUIDE, GUIDE_LAYER, "n12");
    assert_eq!(current["fileName"], "rswcfhd.jta");
    let mut snapshot = pick(&current, &["playing", "frame", "color"]);
    snapshot["resource"] = json!({ "resourceId": "rpol3" });
    let project = apply(
        source,
        vec![set_props(
            GUIDE,
            GUIDE_LAYER,
            "n12",
            json!({ "movieClipProperties": snapshot }),
        )],
    );
    let DisplayNode::MovieClip(clip) = node(component(&project, GUIDE, GUIDE_LAYER), "n12") else {
        panic!()
    };
    assert_eq!(clip.resource.resource_id, "rpol3");
    assert_eq!(clip.file_name, "quan.jta", "derived from the new resource");

    // A file name alone would point the hint away from the resource.
    let mut snapshot = pick(&current, &["playing", "frame", "color"]);
    snapshot["fileName"] = json!("elsewhere.jta");
    let failure = refuse(
        source,
        vec![set_props(
            GUIDE,
            GUIDE_LAYER,
            "n12",
            json!({ "movieClipProperties": snapshot }),
        )],
    );
    only(
        &failure,
        "invalid_display_node_payload",
        "operations[0].props.movieClipProperties.fileName",
    );
}

const TEXT_FIELDS: [&str; 22] = [
    "text",
    "font",
    "fontSize",
    "color",
    "align",
    "vAlign",
    "leading",
    "letterSpacing",
    "autoSize",
    "singleLine",
    "autoClearText",
    "outlineSoftness",
    "underlaySoftness",
    "ubbEnabled",
    "underline",
    "italic",
    "bold",
    "strikethrough",
    "strokeColor",
    "strokeSize",
    "shadowColor",
    "shadowOffset",
];

/// A node's complete text snapshot (shared and plain-text fields) plus `extra` fields.
fn text_snapshot_with(node: &Value, extra: &Value) -> Value {
    let mut snapshot = pick(node, &TEXT_FIELDS);
    for key in ["demoText", "templateVarsEnabled", "faceDilate"] {
        snapshot[key] = node[key].clone();
    }
    for (key, value) in extra.as_object().expect("object") {
        snapshot[key] = value.clone();
    }
    snapshot
}

#[test]
fn set_props_edits_the_input_fields_of_text_inputs_only() {
    let source = unity();
    let input = json!({
        "promptText": "Your name", "maxLength": 12, "restrict": "[a-z]",
        "password": true, "keyboardType": 1
    });
    let current = node_json(source, BASICS, DEMO_TEXT, "n22");
    let snapshot = text_snapshot_with(&current, &input);
    let project = apply(
        source,
        vec![set_props(
            BASICS,
            DEMO_TEXT,
            "n22",
            json!({ "textProperties": snapshot }),
        )],
    );
    let DisplayNode::TextInput(field) = node(component(&project, BASICS, DEMO_TEXT), "n22") else {
        panic!()
    };
    assert_eq!(
        (
            field.prompt_text.as_str(),
            field.max_length.get(),
            field.restrict.as_str(),
            field.password,
            field.keyboard_type
        ),
        ("Your name", 12.0, "[a-z]", true, 1)
    );

    // A plain text node has no input fields.
    let plain = node_json(source, BASICS, DEMO_TEXT, "n2");
    let snapshot = text_snapshot_with(&plain, &input);
    let failure = refuse(
        source,
        vec![set_props(
            BASICS,
            DEMO_TEXT,
            "n2",
            json!({ "textProperties": snapshot }),
        )],
    );
    only(
        &failure,
        "unsupported_display_node_field",
        "operations[0].props.textProperties",
    );
}

/// Kinds take the article they are said with: "an image node", "an xy gear". (Every
/// refusal of these suites is checked for "a image" and the like by `well_worded`.)
#[test]
fn refusals_name_kinds_with_their_article() {
    let source = example();
    let failure = refuse(
        source,
        vec![set_props(MAIN, VIEW, "n0_view", json!({ "text": "x" }))],
    );
    let text = issue(
        &failure,
        "unsupported_text_field_target",
        "operations[0].props.text",
    );
    assert!(
        text.message.contains("node n0_view is an image node"),
        "{}",
        text.message
    );
    let xy = serde_json::to_value(
        &node(component(&source.project, MAIN, VIEW), "n1_view")
            .base()
            .gears[0],
    )
    .unwrap();
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "addGear", "selector": gear_sel(MAIN, VIEW, "n1_view", "xy", "state"), "gear": xy }),
        ],
    );
    let duplicate = only(
        &failure,
        "duplicate_gear_controller",
        "operations[0].selector",
    );
    assert!(
        duplicate.message.contains("already has an xy gear"),
        "{}",
        duplicate.message
    );
}

/// A misspelt node id, or a node's name sent as its id, is answered with the ids meant.
#[test]
fn a_node_that_matches_nothing_gets_a_did_you_mean() {
    let source = example();
    let failure = refuse(
        source,
        vec![set_props(MAIN, VIEW, "n2_veiw", json!({ "text": "Go" }))],
    );
    let wrong = only(
        &failure,
        "invalid_display_node_selector",
        "operations[0].selector.displayNodeId",
    );
    assert!(
        wrong.message.contains("Did you mean n2_view"),
        "{}",
        wrong.message
    );
}

// ---------------------------------------------------------------- names in selectors

#[test]
fn selectors_take_the_names_the_outline_shows_and_refuse_a_shared_one() {
    let source = example();
    let retitled = |package: &str, component: &str, node: &str| {
        apply(
            source,
            vec![set_props(
                package,
                component,
                node,
                json!({ "text": "Named" }),
            )],
        )
    };
    let by_ids = serde_json::to_value(retitled(MAIN, VIEW, "n1_view")).unwrap();
    // The package's, the component's (alone or with its folder path) and the node's names.
    for (package, component, node) in [
        ("Main", "MainView", "title"),
        ("Main", "/MainView", "title"),
        (MAIN, "MainView", "n1_view"),
    ] {
        let by_names = serde_json::to_value(retitled(package, component, node)).unwrap();
        assert!(by_names == by_ids, "{package}/{component}/{node}");
    }

    // Names are read as the batch has left the project: once a second node is named
    // `title`, the name is refused with both ids.
    let mut second = node_json(source, MAIN, VIEW, "n1_view");
    second["id"] = json!("n9_view");
    let failure = refuse(
        source,
        vec![
            json!({ "kind": "attachDisplayNode", "selector": comp_sel(MAIN, VIEW), "atIndex": 4, "node": second }),
            set_props("Main", "MainView", "title", json!({ "text": "Which?" })),
        ],
    );
    let shared = only(
        &failure,
        "invalid_display_node_selector",
        "operations[1].selector.displayNodeId",
    );
    assert!(
        shared
            .message
            .contains("2 display nodes of component view0 are named title (ids n1_view, n9_view)"),
        "{}",
        shared.message
    );

    // A name that fits nothing is answered with the ones meant.
    let failure = refuse(
        source,
        vec![set_props(
            "Main",
            "MainView",
            "titel",
            json!({ "text": "x" }),
        )],
    );
    let missing = only(
        &failure,
        "invalid_display_node_selector",
        "operations[0].selector.displayNodeId",
    );
    assert!(
        missing
            .message
            .contains("no display node with the id or name titel")
            && missing.message.contains("n1_view (title)"),
        "{}",
        missing.message
    );
}
