//! Gear operations: add, replace or remove one gear of a display node, identified by
//! (node, kind, controllerName).
//!
//! `addLookGear`, `updateLookGear` and `removeLookGear` are the same operations limited to
//! the `look` kind. A gear must name a controller the component has at that point of the
//! batch and only that controller's page ids; the payload's `kind` and `controllerName`
//! must repeat the selector. Look gears report duplicates with the `_look_` codes.
//!
//! A node holds at most one gear per (kind, controller): adding an existing pair is a
//! duplicate, updating or removing a missing one is `invalid_gear_selector`, and a pair
//! held twice by legacy data is `selector_ambiguity`. Removing a gear whose controller no
//! longer exists is allowed (it repairs the node). Gear values must have the shape the
//! reader produces for their kind (`{alpha, rotation, grayed, touchable}` for look, …).
//! Attached nodes get the same checks, except that a display gear may name a page its
//! controller lacks, which the model itself tolerates. An update may send back what the
//! gear already has wrong (what we read, we accept back), but may not add a problem.
//! Whether a gear kind fits its node is validation's rule ([`crate::rules::gears`]),
//! judged on the final state.

use std::collections::HashSet;

use ofgui_contracts::api::DisplayNodeSelector;
use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::ops::{GearOp, GearSelector, RemoveGear};
use ofgui_contracts::uam::{Controller, DisplayNode, GEAR_KINDS, Gear, GearBinding};
use serde_json::{Map, Value};

use super::issue::Issue;
use super::words::listed;
use super::workspace::{Op, Workspace};
use crate::rules::{is_color, is_ease_type, is_unit, with_article};

pub(super) fn add(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &GearOp,
) -> Result<(), Vec<Issue>> {
    let selector = &op.selector;
    let mut issues = Vec::new();
    let Some(target) = locate_for(workspace, at, op, &mut issues) else {
        return Err(issues);
    };
    if !target.matches.is_empty() {
        issues.push(
            at.issue(
                duplicate_controller_code(&selector.kind),
                "selector",
                format!(
                    "Node {} already has {} gear for controller {:?}; use {} to replace it.",
                    selector.display_node_id,
                    with_article(&selector.kind),
                    selector.controller_name,
                    if selector.kind == "look" && is_look_op(at) {
                        "updateLookGear"
                    } else {
                        "updateGear"
                    }
                ),
            )
            .gear_kind(&selector.kind),
        );
    }
    if !issues.is_empty() {
        return Err(issues);
    }
    gears_mut(workspace, at, &target)?.push(op.gear.clone());
    Ok(())
}

pub(super) fn update(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &GearOp,
) -> Result<(), Vec<Issue>> {
    let mut issues = Vec::new();
    let Some(target) = locate_for(workspace, at, op, &mut issues) else {
        return Err(issues);
    };
    let slot = existing(at, &op.selector, &target, &mut issues);
    if let Some(slot) = slot {
        // What the gear already has wrong may be sent back; the update may not add more.
        let (p, r, n) = target.node;
        let old = &workspace.component(p, r).display_list[n].base().gears[slot];
        let mut legacy = Vec::new();
        check_gear(
            at,
            "gear",
            &op.selector.display_node_id,
            old,
            target.controller.as_ref(),
            true,
            &mut legacy,
        );
        issues.retain(|issue| {
            match legacy
                .iter()
                .position(|l| l.code == issue.code && l.path == issue.path)
            {
                Some(found) => {
                    legacy.swap_remove(found);
                    false
                }
                None => true,
            }
        });
    }
    if !issues.is_empty() {
        return Err(issues);
    }
    if let Some(slot) = slot {
        gears_mut(workspace, at, &target)?[slot] = op.gear.clone();
    }
    Ok(())
}

pub(super) fn remove(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &RemoveGear,
) -> Result<(), Vec<Issue>> {
    let selector = &op.selector;
    let mut issues = Vec::new();
    let Some(target) = locate(workspace, at, selector, true, &mut issues) else {
        return Err(issues);
    };
    let slot = existing(at, selector, &target, &mut issues);
    if !issues.is_empty() {
        return Err(issues);
    }
    if let Some(slot) = slot {
        gears_mut(workspace, at, &target)?.remove(slot);
    }
    Ok(())
}

/// Checks the gears of a node being attached: one gear per (kind, controller), each
/// bound to a controller of the component with valid pages and values.
pub(super) fn check_node_gears(
    at: &Op<'_>,
    root: &str,
    node: &DisplayNode,
    controllers: &[Controller],
    issues: &mut Vec<Issue>,
) {
    let mut pairs = HashSet::new();
    for (g, gear) in node.base().gears.iter().enumerate() {
        let path = format!("{root}.gears[{g}]");
        let kind = gear.kind();
        let controller_name = gear.controller_name();
        if !pairs.insert((kind, controller_name)) {
            issues.push(
                at.issue(
                    duplicate_controller_code(kind),
                    &path,
                    format!(
                        "Node {} has two {kind} gears for controller {controller_name:?}; keep one gear per kind and controller.",
                        node.id()
                    ),
                )
                .node_kind(node.kind())
                .gear_kind(kind)
                .field("gears"),
            );
        }
        let found = controllers.iter().find(|c| c.name == controller_name);
        if found.is_none() {
            issues.push(
                at.issue(
                    Code::InvalidGearSelector,
                    &format!("{path}.controllerName"),
                    format!(
                        "The {kind} gear of node {} uses controller {controller_name:?}, which the component does not have (controllers: {}); add the controller first or use one of those names.",
                        node.id(),
                        listed(controllers.iter().map(|c| c.name.as_str()))
                    ),
                )
                .node_kind(node.kind())
                .gear_kind(kind)
                .field("gears"),
            );
        }
        check_gear(at, &path, node.id(), gear, found, false, issues);
    }
}

/// The pages and values of one gear: pages not repeated and known to the controller
/// (when given; for display gears only when `display_pages`, since the model tolerates a
/// display gear naming a page its controller lost), values shaped as the kind wants,
/// tween settings in range.
fn check_gear(
    at: &Op<'_>,
    root: &str,
    node_id: &str,
    gear: &Gear,
    controller: Option<&Controller>,
    display_pages: bool,
    issues: &mut Vec<Issue>,
) {
    let kind = gear.kind();
    let check_pages = display_pages || matches!(gear.binding(), GearBinding::Value(_));
    let mut push = |code: Code, sub: &str, message: String| {
        let field = root.split('.').next_back().unwrap_or(root);
        let field = field.split('[').next().unwrap_or(field);
        issues.push(
            at.issue(code, &format!("{root}.{sub}"), message)
                .gear_kind(kind)
                .field(field),
        );
    };
    let pages: Vec<(String, &str)> = match gear.binding() {
        GearBinding::Display(g) => g
            .visible_on_page_ids
            .iter()
            .enumerate()
            .map(|(k, page)| (format!("visibleOnPageIds[{k}]"), page.as_str()))
            .collect(),
        GearBinding::Value(g) => g
            .states
            .iter()
            .enumerate()
            .map(|(k, state)| (format!("states[{k}].pageId"), state.page_id.as_str()))
            .collect(),
    };
    let mut seen = HashSet::new();
    for (sub, page) in pages {
        if !seen.insert(page) {
            push(
                duplicate_page_code(kind),
                &sub,
                format!(
                    "The {kind} gear of node {node_id} lists page {page:?} twice; list each page once."
                ),
            );
        } else if let Some(controller) = controller
            && check_pages
            && !controller.pages.iter().any(|p| p.id == page)
        {
            push(
                Code::InvalidGearPayload,
                &sub,
                format!(
                    "The {kind} gear of node {node_id} names page {page:?}, which controller {:?} does not have; gears name pages by id, and its page ids are {}.",
                    controller.name,
                    page_list(controller)
                ),
            );
        }
    }
    match gear {
        Gear::Display(g) if g.condition.as_deref().is_some_and(|c| !c.is_empty()) => {
            push(
                Code::InvalidGearPayload,
                "condition",
                format!(
                    "The display gear of node {node_id} has a condition; only display2 gears have one. Remove it, or use a display2 gear."
                ),
            );
        }
        Gear::Display2(g) => {
            if let Some(condition) = g.condition.as_deref()
                && condition != "0"
                && condition != "1"
            {
                push(
                    Code::InvalidGearPayload,
                    "condition",
                    format!(
                        "The display2 gear of node {node_id} has condition {condition:?}; use \"0\" (visible when both display gears agree) or \"1\" (when either does)."
                    ),
                );
            }
        }
        _ => {}
    }
    let name = match gear.binding() {
        GearBinding::Display(g) => &g.name,
        GearBinding::Value(g) => &g.name,
    };
    if !name.is_empty() {
        // The file has no place for it: the save could not write it, and a re-read would
        // give "".
        push(
            Code::InvalidGearPayload,
            "name",
            format!(
                "The {kind} gear of node {node_id} has name {name:?}, but FairyGUI files do not store gear names (a gear is known by its kind and controller); leave name empty."
            ),
        );
    }
    if let GearBinding::Value(g) = gear.binding() {
        for (k, state) in g.states.iter().enumerate() {
            if let Some(value) = &state.value
                && let Some(problem) = value_problem(kind, value)
            {
                push(
                    Code::InvalidGearPayload,
                    &format!("states[{k}].value"),
                    format!(
                        "The value of page {:?} in the {kind} gear of node {node_id} {problem}; null means the page uses defaultValue.",
                        state.page_id
                    ),
                );
            }
        }
        if !g.default_value.is_null()
            && let Some(problem) = value_problem(kind, &g.default_value)
        {
            push(
                Code::InvalidGearPayload,
                "defaultValue",
                format!("The defaultValue of the {kind} gear of node {node_id} {problem}."),
            );
        }
        if !is_ease_type(g.ease_type) {
            push(
                Code::InvalidGearPayload,
                "easeType",
                format!(
                    "The {kind} gear of node {node_id} has easeType {}; use 0 (Linear) to 31 (Custom), e.g. 5 for Quad.Out.",
                    g.ease_type
                ),
            );
        }
        for (sub, value) in [
            ("tweenDuration", g.tween_duration),
            ("tweenDelay", g.tween_delay),
        ] {
            if value.get() < 0.0 {
                push(
                    Code::InvalidGearPayload,
                    sub,
                    format!(
                        "The {kind} gear of node {node_id} has {sub} {}; use 0 or more seconds.",
                        value.get()
                    ),
                );
            }
        }
    }
}

/// What a gear selector points at.
struct Target {
    node: (usize, usize, usize),
    /// The controller the selector names, when the component has exactly one.
    controller: Option<Controller>,
    /// Indices of the node's gears with the selector's (kind, controller).
    matches: Vec<usize>,
    /// False when the selector's kind was refused (no gear can match it then).
    kind_ok: bool,
}

fn is_look_op(at: &Op<'_>) -> bool {
    at.kind.contains("LookGear")
}

pub(super) fn duplicate_controller_code(kind: &str) -> Code {
    if kind == "look" {
        Code::DuplicateLookGearController
    } else {
        Code::DuplicateGearController
    }
}

fn duplicate_page_code(kind: &str) -> Code {
    if kind == "look" {
        Code::DuplicateLookGearStatePage
    } else {
        Code::DuplicateGearStatePage
    }
}

fn page_list(controller: &Controller) -> String {
    if controller.pages.is_empty() {
        return "none".into();
    }
    controller
        .pages
        .iter()
        .map(|p| {
            if p.name.is_empty() {
                format!("{:?}", p.id)
            } else {
                format!("{:?} ({})", p.id, p.name)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Resolves the selector: kind, node and controller. `None` when the node cannot be
/// found (nothing further can be checked). A removal may name a controller that no
/// longer exists, as long as the gear does: removing a dangling gear repairs the node.
fn locate(
    workspace: &Workspace<'_>,
    at: &Op<'_>,
    selector: &GearSelector,
    removal: bool,
    issues: &mut Vec<Issue>,
) -> Option<Target> {
    let kind = selector.kind.as_str();
    let kind_ok = GEAR_KINDS.contains(&kind) && (kind == "look" || !is_look_op(at));
    if is_look_op(at) && kind != "look" {
        let general = at.kind.replace("LookGear", "Gear");
        issues.push(
            at.issue(
                Code::InvalidGearSelector,
                "selector.kind",
                format!("{} only handles look gears, but selector.kind is {kind:?}; set kind to \"look\" or use {general}.", at.kind),
            )
            .gear_kind(kind),
        );
    } else if !GEAR_KINDS.contains(&kind) {
        issues.push(
            at.issue(
                Code::InvalidGearSelector,
                "selector.kind",
                format!(
                    "selector.kind is {kind:?}; use one of {}.",
                    GEAR_KINDS.join(", ")
                ),
            )
            .gear_kind(kind),
        );
    }
    let node_selector = DisplayNodeSelector {
        package_id: selector.package_id.clone(),
        component_resource_id: selector.component_resource_id.clone(),
        display_node_id: selector.display_node_id.clone(),
    };
    let (p, r, n) = match workspace.find_node(at, &node_selector) {
        Ok(found) => found,
        Err(issue) => {
            issues.push(issue.gear_kind(kind));
            return None;
        }
    };
    let component = workspace.component(p, r);
    let node = &component.display_list[n];
    let matches: Vec<usize> = node
        .base()
        .gears
        .iter()
        .enumerate()
        .filter(|(_, g)| g.kind() == kind && g.controller_name() == selector.controller_name)
        .map(|(index, _)| index)
        .collect();
    let named: Vec<&Controller> = component
        .controllers
        .iter()
        .filter(|c| c.name == selector.controller_name)
        .collect();
    let controller = match named.as_slice() {
        [one] => Some((*one).clone()),
        [] => {
            if !removal || matches.is_empty() {
                issues.push(
                    at.issue(
                        Code::InvalidGearSelector,
                        "selector.controllerName",
                        format!(
                            "Component {} has no controller named {:?} at this point of the batch (controllers: {}); add it first with addController, or use one of those names.",
                            selector.component_resource_id,
                            selector.controller_name,
                            listed(component.controllers.iter().map(|c| c.name.as_str()))
                        ),
                    )
                    .node_kind(node.kind())
                    .gear_kind(kind),
                );
            }
            None
        }
        _ => {
            issues.push(
                at.issue(
                    Code::SelectorAmbiguity,
                    "selector.controllerName",
                    format!(
                        "Component {} has {} controllers named {:?}, so no operation can tell them apart (updateController and removeController would be ambiguous too); fix the duplicated names in the FairyGUI editor before binding gears to it.",
                        selector.component_resource_id,
                        named.len(),
                        selector.controller_name
                    ),
                )
                .gear_kind(kind),
            );
            None
        }
    };
    Some(Target {
        node: (p, r, n),
        controller,
        matches,
        kind_ok,
    })
}

/// [`locate`] for an operation that brings a gear, with the gear's own checks.
fn locate_for(
    workspace: &Workspace<'_>,
    at: &Op<'_>,
    op: &GearOp,
    issues: &mut Vec<Issue>,
) -> Option<Target> {
    let target = locate(workspace, at, &op.selector, false, issues)?;
    check_payload(
        at,
        &op.selector,
        &op.gear,
        target.controller.as_ref(),
        issues,
    );
    Some(target)
}

/// The gears of the node a selector named, to change.
fn gears_mut<'w>(
    workspace: &'w mut Workspace<'_>,
    at: &Op<'_>,
    target: &Target,
) -> Result<&'w mut Vec<Gear>, Vec<Issue>> {
    let (p, r, n) = target.node;
    Ok(&mut workspace.edit(at, p, r)?.display_list[n].base_mut().gears)
}

/// The payload repeats the selector and its pages and values are valid.
fn check_payload(
    at: &Op<'_>,
    selector: &GearSelector,
    gear: &Gear,
    controller: Option<&Controller>,
    issues: &mut Vec<Issue>,
) {
    if gear.kind() != selector.kind {
        issues.push(
            at.issue(
                Code::InvalidGearPayload,
                "gear.kind",
                format!(
                    "gear.kind is {:?} but selector.kind is {:?}; they must be equal.",
                    gear.kind(),
                    selector.kind
                ),
            )
            .gear_kind(gear.kind())
            .field("gear"),
        );
    }
    if gear.controller_name() != selector.controller_name {
        issues.push(
            at.issue(
                Code::InvalidGearPayload,
                "gear.controllerName",
                format!(
                    "gear.controllerName is {:?} but selector.controllerName is {:?}; they must be equal.",
                    gear.controller_name(),
                    selector.controller_name
                ),
            )
            .gear_kind(gear.kind())
            .field("gear"),
        );
    }
    check_gear(
        at,
        "gear",
        &selector.display_node_id,
        gear,
        controller,
        true,
        issues,
    );
}

/// The one gear an update or removal replaces.
fn existing(
    at: &Op<'_>,
    selector: &GearSelector,
    target: &Target,
    issues: &mut Vec<Issue>,
) -> Option<usize> {
    match target.matches.as_slice() {
        [one] => Some(*one),
        [] if !target.kind_ok => None,
        [] => {
            let add = if is_look_op(at) {
                "addLookGear"
            } else {
                "addGear"
            };
            issues.push(
                at.issue(
                    Code::InvalidGearSelector,
                    "selector",
                    format!(
                        "Node {} has no {} gear for controller {:?} at this point of the batch; create it with {add}.",
                        selector.display_node_id, selector.kind, selector.controller_name
                    ),
                )
                .gear_kind(&selector.kind),
            );
            None
        }
        many => {
            issues.push(
                at.issue(
                    Code::SelectorAmbiguity,
                    "selector",
                    format!(
                        "Node {} has {} {} gears for controller {:?}; remove the extra ones by detaching and re-attaching the node with one gear per kind and controller.",
                        selector.display_node_id,
                        many.len(),
                        selector.kind,
                        selector.controller_name
                    ),
                )
                .gear_kind(&selector.kind),
            );
            None
        }
    }
}

/// What a gear value of a kind must look like.
#[derive(Clone, Copy)]
enum Shape {
    Number,
    Unit,
    Positive,
    Frame,
    Bool,
    Text,
    Color,
    ColorOrNull,
}

impl Shape {
    fn accepts(self, value: &Value) -> bool {
        match self {
            Shape::Number => value.as_f64().is_some(),
            Shape::Unit => value.as_f64().is_some_and(is_unit),
            Shape::Positive => value.as_f64().is_some_and(|v| v > 0.0),
            Shape::Frame => value.as_f64().is_some_and(|v| v >= 0.0 && v.fract() == 0.0),
            Shape::Bool => value.is_boolean(),
            Shape::Text => value.is_string(),
            Shape::Color => value.as_str().is_some_and(is_color),
            Shape::ColorOrNull => value.is_null() || value.as_str().is_some_and(is_color),
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Shape::Number => "a number",
            Shape::Unit => "a number from 0 to 1",
            Shape::Positive => "a number above 0",
            Shape::Frame => "a whole number of 0 or more",
            Shape::Bool => "true or false",
            Shape::Text => "a string",
            Shape::Color => "a colour #rrggbb",
            Shape::ColorOrNull => "a colour #rrggbb or null",
        }
    }
}

/// The keys a value of each gear kind has, and an example.
fn value_shape(kind: &str) -> Option<(&'static [(&'static str, Shape)], &'static str)> {
    use Shape::*;
    Some(match kind {
        "look" => (
            &[
                ("alpha", Unit),
                ("rotation", Number),
                ("grayed", Bool),
                ("touchable", Bool),
            ],
            r#"{"alpha":1,"rotation":0,"grayed":false,"touchable":true}"#,
        ),
        "xy" => (&[("x", Number), ("y", Number)], r#"{"x":0,"y":0}"#),
        "size" => (
            &[
                ("width", Number),
                ("height", Number),
                ("scaleX", Number),
                ("scaleY", Number),
            ],
            r#"{"width":100,"height":100,"scaleX":1,"scaleY":1}"#,
        ),
        "color" => (
            &[("color", Color), ("outlineColor", ColorOrNull)],
            r##"{"color":"#ffffff","outlineColor":null}"##,
        ),
        "animation" => (
            &[
                ("frame", Frame),
                ("playing", Bool),
                ("animationName", Text),
                ("skinName", Text),
            ],
            r#"{"frame":0,"playing":true,"animationName":"","skinName":""}"#,
        ),
        "text" => (&[("text", Text)], r#"{"text":""}"#),
        "icon" => (&[("icon", Text)], r#"{"icon":""}"#),
        "fontSize" => (&[("fontSize", Positive)], r#"{"fontSize":12}"#),
        _ => return None,
    })
}

/// Why a value does not fit its gear kind (a sentence tail), or `None`.
fn value_problem(kind: &str, value: &Value) -> Option<String> {
    let (keys, example) = value_shape(kind)?;
    let Some(map) = value.as_object() else {
        return Some(format!("is {value}; it must be an object like {example}"));
    };
    let mut problems = Vec::new();
    for (key, shape) in keys {
        match map.get(*key) {
            None => problems.push(format!("lacks {key} ({})", shape.describe())),
            Some(v) if !shape.accepts(v) => {
                problems.push(format!("has {key} {v}, not {}", shape.describe()))
            }
            Some(_) => {}
        }
    }
    // An xy value may carry the percent position as px, py (both or neither).
    let extra: Vec<&String> = map
        .keys()
        .filter(|k| !keys.iter().any(|(key, _)| key == k))
        .filter(|k| !(kind == "xy" && (*k == "px" || *k == "py")))
        .collect();
    if !extra.is_empty() {
        problems.push(format!(
            "has unknown key(s) {}",
            extra
                .iter()
                .map(|k| k.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if kind == "xy" {
        problems.extend(percent_problem(map));
    }
    (!problems.is_empty()).then(|| {
        format!(
            "{} (expected an object like {example})",
            problems.join(", ")
        )
    })
}

fn percent_problem(map: &Map<String, Value>) -> Option<String> {
    match (map.get("px"), map.get("py")) {
        (None, None) => None,
        (Some(px), Some(py)) if px.is_number() && py.is_number() => None,
        _ => Some("needs px and py together as numbers (or neither)".to_string()),
    }
}
