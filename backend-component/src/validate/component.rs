//! The internal consistency of each component: nodes, groups, relations, controllers,
//! transitions and gears, and the values its nodes hold.

use std::collections::{BTreeMap, HashMap, HashSet};

use ofgui_contracts::Num;
use ofgui_contracts::diagnostics::ProjectDiagnosticCode as Code;
use ofgui_contracts::uam::{
    ComponentModel, Controller, DisplayNode, Gear, GearBinding, InstanceProperties, NodeBase, Size,
    TransitionItem,
};
use serde_json::Value;

use super::{Finding, Sink, Subject, node_path, resource_path};
use crate::rules::{
    BLEND_MODES, HOME_PAGE_TYPES, UNKNOWN_ACTION, fits_float, fits_geometry, is_ease_type,
    is_transition_action, is_unit, with_article,
};

/// Where a component is, for diagnostics.
pub(super) struct Context<'a> {
    pub(super) package: usize,
    pub(super) resource: usize,
    pub(super) package_id: &'a str,
    pub(super) resource_id: &'a str,
    pub(super) source_path: Option<&'a str>,
}

impl Context<'_> {
    fn report<'s>(
        &self,
        sink: &'s mut Sink,
        code: Code,
        path: String,
        node_id: Option<&str>,
        message: String,
    ) -> &'s mut Finding {
        let finding = sink.error(code, path, message);
        self.locate(finding, node_id);
        finding
    }

    fn locate(
        &self,
        diagnostic: &mut ofgui_contracts::diagnostics::ProjectDiagnostic,
        node_id: Option<&str>,
    ) {
        diagnostic.package_id = Some(self.package_id.to_string());
        diagnostic.resource_id = Some(self.resource_id.to_string());
        diagnostic.node_id = node_id.map(str::to_string);
        diagnostic.source_path = self.source_path.map(str::to_string);
    }

    fn component_path(&self) -> String {
        format!("{}.component", resource_path(self.package, self.resource))
    }
}

pub(super) fn check_component(context: &Context<'_>, component: &ComponentModel, sink: &mut Sink) {
    let base = context.component_path();
    check_size(
        context,
        sink,
        &format!("{base}.size"),
        None,
        &component.size,
    );
    let nodes: HashMap<&str, &DisplayNode> =
        component.display_list.iter().map(|n| (n.id(), n)).collect();
    // Every element id, modeled or kept unmodeled (a legacy <swf>): a valid target.
    let ids: HashSet<&str> = nodes
        .keys()
        .copied()
        .chain(component.unsupported_nodes.iter().map(|n| n.id.as_str()))
        .collect();
    let controllers: BTreeMap<&str, &Controller> = component
        .controllers
        .iter()
        .map(|c| (c.name.as_str(), c))
        .collect();
    check_controllers(context, component, &ids, sink);

    // Unmodeled elements take their ids first, as they are in the file either way.
    let mut seen: HashSet<&str> = component
        .unsupported_nodes
        .iter()
        .map(|n| n.id.as_str())
        .collect();
    for (n, node) in component.display_list.iter().enumerate() {
        let path = node_path(context.package, context.resource, n);
        let node_base = node.base();
        let id = Some(node.id());
        if node.id().is_empty() {
            context.report(
                sink,
                Code::InvalidUam,
                format!("{path}.id"),
                None,
                "A display node has an empty id.".into(),
            );
        } else if !seen.insert(node.id()) {
            context.report(
                sink,
                Code::InvalidUam,
                format!("{path}.id"),
                id,
                format!(
                    "Display node id {} is used twice in the component.",
                    node.id()
                ),
            );
        }
        check_node_values(context, sink, &path, node_base);
        check_controller_names(context, sink, &path, node, &controllers);
        if let Some(group) = node_base.group.as_deref().filter(|g| !g.is_empty()) {
            let is_group = nodes
                .get(group)
                .is_some_and(|target| matches!(target, DisplayNode::Group(_)));
            if group == node.id() || !is_group {
                context
                    .report(
                        sink,
                        Code::InvalidUam,
                        format!("{path}.group"),
                        id,
                        format!("Node {} belongs to group {group:?}, which is not another group node of the component.", node.id()),
                    )
                    .about(Subject::Node(group.to_string()));
            }
        }
        for (k, relation) in node_base.relations.iter().enumerate() {
            if !relation.target_node_id.is_empty()
                && !ids.contains(relation.target_node_id.as_str())
            {
                context
                    .report(
                        sink,
                        Code::InvalidUam,
                        format!("{path}.relations[{k}].targetNodeId"),
                        id,
                        format!(
                            "Node {} is related to node {}, which does not exist.",
                            node.id(),
                            relation.target_node_id
                        ),
                    )
                    .about(Subject::Node(relation.target_node_id.clone()));
            }
        }
        check_gears(context, sink, &path, node, &controllers);
    }
    for (k, relation) in component.relations.iter().enumerate() {
        if !relation.target_node_id.is_empty() && !ids.contains(relation.target_node_id.as_str()) {
            context
                .report(
                    sink,
                    Code::InvalidUam,
                    format!("{base}.relations[{k}].targetNodeId"),
                    None,
                    format!(
                        "The component is related to node {}, which does not exist.",
                        relation.target_node_id
                    ),
                )
                .about(Subject::Node(relation.target_node_id.clone()));
        }
    }
    check_transitions(context, component, &ids, sink);
}

/// The controllers of its component a node names besides gears: a list's (or scrolling
/// instance's) page controller, a list's or combo box's selection controller, and the
/// controller (and page) a button selects when clicked. The runtime looks them up by name
/// and ignores a name the component does not have, so that is a warning.
fn check_controller_names(
    context: &Context<'_>,
    sink: &mut Sink,
    path: &str,
    node: &DisplayNode,
    controllers: &BTreeMap<&str, &Controller>,
) {
    let mut named: Vec<(&str, &str)> = Vec::new();
    let mut button_page = None;
    match node {
        DisplayNode::List(n) => {
            named.push(("pageController", &n.list.page_controller));
            named.push(("selectionController", &n.list.selection_controller));
        }
        DisplayNode::Tree(n) => {
            named.push(("pageController", &n.list.page_controller));
            named.push(("selectionController", &n.list.selection_controller));
        }
        DisplayNode::Component(n) => {
            if let Some(page_controller) = &n.page_controller {
                named.push(("pageController", page_controller));
            }
            match &n.instance_properties {
                Some(InstanceProperties::Button {
                    controller, page, ..
                }) => {
                    named.push(("instanceProperties.controller", controller));
                    button_page = Some((controller.as_str(), page.as_str()));
                }
                Some(InstanceProperties::ComboBox {
                    selection_controller,
                    ..
                }) => named.push((
                    "instanceProperties.selectionController",
                    selection_controller,
                )),
                _ => {}
            }
        }
        _ => {}
    }
    for (field, name) in named.into_iter().filter(|(_, name)| !name.is_empty()) {
        if controllers.contains_key(name) {
            continue;
        }
        let warning = sink.warning(
            Code::InvalidUam,
            format!("{path}.{field}"),
            format!(
                "Node {} names controller {name:?} ({field}), which the component does not have; the runtime ignores it.",
                node.id()
            ),
        );
        context.locate(warning, Some(node.id()));
        warning.about(Subject::Name(name.to_string()));
    }
    if let Some((name, page)) = button_page
        && !page.is_empty()
        && let Some(controller) = controllers.get(name)
        && !controller.pages.iter().any(|p| p.id == page)
    {
        let warning = sink.warning(
            Code::InvalidUam,
            format!("{path}.instanceProperties.page"),
            format!(
                "Button {} selects page {page:?} of controller {name:?}, which the controller does not have; the runtime ignores it.",
                node.id()
            ),
        );
        context.locate(warning, Some(node.id()));
        warning.about(Subject::Page(name.to_string(), page.to_string()));
    }
}

/// Transitions: unique names, items of known action and ease types at times of 0 or
/// more, animating nodes the component has.
fn check_transitions(
    context: &Context<'_>,
    component: &ComponentModel,
    ids: &HashSet<&str>,
    sink: &mut Sink,
) {
    let base = context.component_path();
    let mut names = HashSet::new();
    for (t, transition) in component.transitions.iter().enumerate() {
        let path = format!("{base}.transitions[{t}]");
        let name = &transition.name;
        if !names.insert(name.as_str()) {
            context
                .report(
                    sink,
                    Code::InvalidUam,
                    format!("{path}.name"),
                    None,
                    format!("Transition {name:?} is defined twice."),
                )
                .within(format!("transition {name}"));
        }
        for (i, item) in transition.items.iter().enumerate() {
            let at = |field: &str| format!("{path}.items[{i}].{field}");
            let entity = format!("transition {name}");
            // The runtime skips such items, so the project still loads: a warning.
            if !item.target_node_id.is_empty() && !ids.contains(item.target_node_id.as_str()) {
                let warning = sink.warning(
                    Code::InvalidUam,
                    at("targetNodeId"),
                    format!(
                        "Transition {name:?} animates node {}, which does not exist in the component; the item has no effect.",
                        item.target_node_id
                    ),
                );
                context.locate(warning, None);
                warning
                    .about(Subject::Node(item.target_node_id.clone()))
                    .within(entity.clone());
            }
            if !is_transition_action(item.action_type) {
                context
                    .report(
                        sink,
                        Code::InvalidUam,
                        at("actionType"),
                        None,
                        format!(
                            "Item {i} of transition {name:?} has actionType {}; FairyGUI knows 0..16 (XY 0, Size 1, Scale 2, Pivot 3, Alpha 4, Rotation 5, Color 6, Animation 7, Visible 8, Sound 9, Transition 10, Shake 11, ColorFilter 12, Skew 13, Text 14, Icon 15, Unknown 16).",
                            item.action_type
                        ),
                    )
                    .within(entity.clone());
            }
            if !is_ease_type(item.ease_type) {
                context
                    .report(
                        sink,
                        Code::InvalidUam,
                        at("easeType"),
                        None,
                        format!(
                            "Item {i} of transition {name:?} has easeType {}; FairyGUI knows 0 (Linear) to 31 (Custom).",
                            item.ease_type
                        ),
                    )
                    .within(entity.clone());
            }
            let item_path = format!("{path}.items[{i}]");
            check_unknown_action(context, sink, &item_path, (name, i, item), &entity);
            for (field, value) in [("time", item.time.get()), ("duration", item.duration.get())] {
                if value < 0.0 {
                    context
                        .report(
                            sink,
                            Code::InvalidUam,
                            at(field),
                            None,
                            format!(
                                "Item {i} of transition {name:?} has {field} {value}; it must be 0 or more frames."
                            ),
                        )
                        .within(entity.clone());
                }
            }
        }
    }
}

/// An item whose action this server does not know: kept as the file writes it, so a
/// warning (an edit may keep it, not add one); a written name beside a known action is a
/// contradiction, so an error.
fn check_unknown_action(
    context: &Context<'_>,
    sink: &mut Sink,
    item_path: &str,
    (name, i, item): (&str, usize, &TransitionItem),
    entity: &str,
) {
    let at = |field: &str| format!("{item_path}.{field}");
    let finding = match (&item.action_type_name, item.action_type) {
        (Some(written), UNKNOWN_ACTION) => sink.warning(
            Code::InvalidProjectValue,
            at("actionType"),
            format!(
                "Item {i} of transition {name:?} has action type {written:?}, which this server does not know; it is kept as written (actionTypeName), with actionType 16 (Unknown)."
            ),
        ),
        (None, UNKNOWN_ACTION) => sink.warning(
            Code::InvalidProjectValue,
            at("actionType"),
            format!(
                "Item {i} of transition {name:?} names no action type (actionType 16, Unknown); it is kept as it is."
            ),
        ),
        (Some(written), known) => sink.error(
            Code::InvalidUam,
            at("actionTypeName"),
            format!(
                "Item {i} of transition {name:?} has actionTypeName {written:?} but actionType {known}; a name is kept only for an action this server does not know (actionType 16)."
            ),
        ),
        (None, _) => return,
    };
    context.locate(finding, None);
    finding.within(entity.to_string());
}

/// Controllers: unique non-empty names, at least one page, unique non-empty page ids, a
/// selected page that exists, a consistent home page, and actions of a known type that
/// name the controller's own pages and existing nodes and transitions.
fn check_controllers(
    context: &Context<'_>,
    component: &ComponentModel,
    ids: &HashSet<&str>,
    sink: &mut Sink,
) {
    let base = context.component_path();
    let transitions: HashSet<&str> = component
        .transitions
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    let mut names = HashSet::new();
    for (c, controller) in component.controllers.iter().enumerate() {
        let path = format!("{base}.controllers[{c}]");
        let name = &controller.name;
        let report = |sink: &mut Sink, field: &str, message: String| {
            let at = if field.is_empty() {
                path.clone()
            } else {
                format!("{path}.{field}")
            };
            context
                .report(sink, Code::InvalidUam, at, None, message)
                .within(format!("controller {name}"));
        };
        if name.is_empty() {
            report(sink, "name", "A controller has an empty name.".into());
        } else if !names.insert(name.as_str()) {
            report(
                sink,
                "name",
                format!("Controller {name:?} is defined twice."),
            );
        }
        if controller.pages.is_empty() {
            report(
                sink,
                "pages",
                format!("Controller {name:?} has no pages; a controller needs at least one."),
            );
        }
        let mut pages = HashSet::new();
        for (k, page) in controller.pages.iter().enumerate() {
            if page.id.is_empty() || !pages.insert(page.id.as_str()) {
                context
                    .report(
                        sink,
                        Code::InvalidUam,
                        format!("{path}.pages[{k}].id"),
                        None,
                        format!(
                            "Controller {name:?} has an empty or repeated page id {:?}.",
                            page.id
                        ),
                    )
                    .about(Subject::Page(name.clone(), page.id.clone()))
                    .within(format!("controller {name}"));
            }
        }
        let selected = controller.selected_index.get();
        if !controller.pages.is_empty()
            && (selected.fract() != 0.0
                || selected < 0.0
                || selected >= controller.pages.len() as f64)
        {
            report(
                sink,
                "selectedIndex",
                format!(
                    "Controller {name:?} selects page {selected}, but it has {} pages.",
                    controller.pages.len()
                ),
            );
        }
        let home = controller.home_page.as_str();
        let home_problem = match controller.home_page_type.as_str() {
            "specific" if !pages.contains(home) => Some(format!(
                "Controller {name:?} has homePageType \"specific\", so homePage must be one of its page ids; it is {home:?}."
            )),
            "variable" if home.is_empty() => Some(format!(
                "Controller {name:?} has homePageType \"variable\", so homePage must name the custom property key that holds the home page."
            )),
            kind @ ("default" | "branch") if !home.is_empty() => Some(format!(
                "Controller {name:?} has homePageType {kind:?}, so homePage must be ''; it is {home:?}."
            )),
            kind if !HOME_PAGE_TYPES.contains(&kind) => {
                report(
                    sink,
                    "homePageType",
                    format!(
                        "Controller {name:?} has homePageType {kind:?}; FairyGUI knows {}.",
                        HOME_PAGE_TYPES.join(", ")
                    ),
                );
                None
            }
            _ => None,
        };
        if let Some(message) = home_problem {
            report(sink, "homePage", message);
        }
        for (a, action) in controller.actions.iter().enumerate() {
            let at = |field: &str| format!("{path}.actions[{a}].{field}");
            if !(0..=1).contains(&action.action_type) {
                report(
                    sink,
                    &format!("actions[{a}].actionType"),
                    format!(
                        "Action {a} of controller {name:?} has actionType {}; FairyGUI knows 0 (play a transition) and 1 (change a page).",
                        action.action_type
                    ),
                );
            }
            for (field, ids) in [
                ("fromPageIds", &action.from_page_ids),
                ("toPageIds", &action.to_page_ids),
            ] {
                for id in ids.iter().filter(|id| !pages.contains(id.as_str())) {
                    context
                        .report(
                            sink,
                            Code::InvalidUam,
                            at(field),
                            None,
                            format!("An action of controller {name:?} names page {id:?}, which the controller does not have."),
                        )
                        .about(Subject::Page(name.clone(), id.clone()))
                        .within(format!("controller {name}"));
                }
            }
            if !action.target_node_id.is_empty() && !ids.contains(action.target_node_id.as_str()) {
                context
                    .report(
                        sink,
                        Code::InvalidUam,
                        at("targetNodeId"),
                        None,
                        format!(
                            "An action of controller {name:?} targets node {}, which does not exist.",
                            action.target_node_id
                        ),
                    )
                    .about(Subject::Node(action.target_node_id.clone()))
                    .within(format!("controller {name}"));
            }
            // A play action naming no transition of the component plays nothing; the
            // runtime (PlayTransitionAction) skips it, so the project loads: a warning.
            if action.action_type == 0
                && !action.transition_name.is_empty()
                && !transitions.contains(action.transition_name.as_str())
            {
                let warning = sink.warning(
                    Code::InvalidUam,
                    at("transitionName"),
                    format!(
                        "An action of controller {name:?} plays transition {:?}, which the component does not have; the action has no effect.",
                        action.transition_name
                    ),
                );
                context.locate(warning, None);
                warning
                    .about(Subject::Name(action.transition_name.clone()))
                    .within(format!("controller {name}"));
            }
        }
    }
}

fn check_gears(
    context: &Context<'_>,
    sink: &mut Sink,
    path: &str,
    node: &DisplayNode,
    controllers: &BTreeMap<&str, &Controller>,
) {
    let id = Some(node.id());
    let mut pairs = HashSet::new();
    for (g, gear) in node.base().gears.iter().enumerate() {
        let gear_path = format!("{path}.gears[{g}]");
        let controller_name = gear.controller_name();
        let entity = gear_entity(gear.kind(), controller_name);
        if !pairs.insert((gear.kind(), controller_name)) {
            context
                .report(
                    sink,
                    Code::InvalidUam,
                    gear_path.clone(),
                    id,
                    format!(
                        "Node {} has two {} gears for controller {controller_name:?}.",
                        node.id(),
                        gear.kind()
                    ),
                )
                .about(Subject::Name(controller_name.to_string()))
                .within(entity.clone());
        }
        let Some(controller) = controllers.get(controller_name) else {
            context
                .report(
                    sink,
                    Code::InvalidUam,
                    format!("{gear_path}.controllerName"),
                    id,
                    format!("Node {} has {} gear for controller {controller_name:?}, which does not exist.", node.id(), with_article(gear.kind())),
                )
                .about(Subject::Name(controller_name.to_string()))
                .within(entity.clone());
            continue;
        };
        let page_ids: HashSet<&str> = controller.pages.iter().map(|p| p.id.as_str()).collect();
        let mut seen = HashSet::new();
        let pages: Vec<(String, &str)> = match gear.binding() {
            GearBinding::Display(g) => g
                .visible_on_page_ids
                .iter()
                .enumerate()
                .map(|(k, page)| (format!("{gear_path}.visibleOnPageIds[{k}]"), page.as_str()))
                .collect(),
            GearBinding::Value(g) => g
                .states
                .iter()
                .enumerate()
                .map(|(k, state)| {
                    (
                        format!("{gear_path}.states[{k}].pageId"),
                        state.page_id.as_str(),
                    )
                })
                .collect(),
        };
        let value_gear = matches!(gear.binding(), GearBinding::Value(_));
        for (at, page) in pages {
            let subject = Subject::Page(controller_name.to_string(), page.to_string());
            if !seen.insert(page) {
                context
                    .report(
                        sink,
                        Code::InvalidUam,
                        at,
                        id,
                        format!(
                            "Node {} has {} gear that lists page {page:?} twice.",
                            node.id(),
                            with_article(gear.kind())
                        ),
                    )
                    .about(subject.clone())
                    .within(entity.clone());
            } else if value_gear && !page_ids.contains(page) {
                context
                    .report(
                        sink,
                        Code::InvalidUam,
                        at,
                        id,
                        format!("Node {} has {} gear that sets page {page:?}, which controller {controller_name:?} does not have.", node.id(), with_article(gear.kind())),
                    )
                    .about(subject.clone())
                    .within(entity.clone());
            }
        }
        if let Gear::Xy(g) = gear {
            for (k, state) in g.states.iter().enumerate() {
                if let Some(value) = &state.value {
                    check_gear_point(
                        context,
                        sink,
                        &format!("{gear_path}.states[{k}].value"),
                        node.id(),
                        value,
                    );
                }
            }
        }
    }
}

/// A gear as the model identifies it: by kind and controller.
pub(super) fn gear_entity(kind: &str, controller: &str) -> String {
    format!("{kind} gear of {controller}")
}

fn check_gear_point(
    context: &Context<'_>,
    sink: &mut Sink,
    path: &str,
    node_id: &str,
    value: &Value,
) {
    for axis in ["x", "y"] {
        if let Some(v) = value.get(axis).and_then(Value::as_f64)
            && v.fract() == 0.0
            && !Num(v).fits_i32()
        {
            context.report(
                sink,
                Code::DesktopIncompatibleGeometry,
                format!("{path}.{axis}"),
                Some(node_id),
                format!("Gear position {v} of node {node_id} does not fit a 32-bit integer."),
            );
        }
    }
}

fn check_int32(
    context: &Context<'_>,
    sink: &mut Sink,
    path: String,
    node_id: Option<&str>,
    values: &[Num],
) {
    if !values.iter().copied().all(fits_geometry) {
        let shown: Vec<String> = values.iter().map(|v| v.get().to_string()).collect();
        context.report(
            sink,
            Code::DesktopIncompatibleGeometry,
            path,
            node_id,
            format!(
                "Geometry {} does not fit a 32-bit integer, so the FairyGUI editor cannot load it.",
                shown.join(",")
            ),
        );
    }
}

fn check_size(
    context: &Context<'_>,
    sink: &mut Sink,
    path: &str,
    node_id: Option<&str>,
    size: &Size,
) {
    check_int32(
        context,
        sink,
        path.to_string(),
        node_id,
        &[size.width, size.height],
    );
    if size.width.get() < 0.0 || size.height.get() < 0.0 {
        context.report(
            sink,
            Code::InvalidProjectValue,
            path.to_string(),
            node_id,
            "A size is negative.".into(),
        );
    }
}

fn check_node_values(context: &Context<'_>, sink: &mut Sink, path: &str, base: &NodeBase) {
    let id = Some(base.id.as_str());
    let pivot = base
        .pivot
        .as_ref()
        .map(|p| vec![p.x, p.y])
        .unwrap_or_default();
    for (field, values) in [
        ("rotation", vec![base.rotation]),
        ("scale", vec![base.scale.x, base.scale.y]),
        ("skew", vec![base.skew.x, base.skew.y]),
        ("pivot", pivot),
    ] {
        if !values.iter().copied().all(fits_float) {
            let shown: Vec<String> = values.iter().map(|v| v.get().to_string()).collect();
            context.report(
                sink,
                Code::InvalidProjectValue,
                format!("{path}.{field}"),
                id,
                format!(
                    "Node {} has {field} {}, beyond the 32-bit float FairyGUI publishes it as.",
                    base.id,
                    shown.join(",")
                ),
            );
        }
    }
    check_int32(
        context,
        sink,
        format!("{path}.position"),
        id,
        &[base.position.x, base.position.y],
    );
    check_size(context, sink, &format!("{path}.size"), id, &base.size);
    check_int32(
        context,
        sink,
        format!("{path}.minSize"),
        id,
        &[base.min_size.width, base.min_size.height],
    );
    check_int32(
        context,
        sink,
        format!("{path}.maxSize"),
        id,
        &[base.max_size.width, base.max_size.height],
    );
    if !is_unit(base.alpha.get()) {
        context.report(
            sink,
            Code::InvalidProjectValue,
            format!("{path}.alpha"),
            id,
            format!(
                "Node {} has alpha {}; it must be between 0 and 1.",
                base.id,
                base.alpha.get()
            ),
        );
    }
    if !BLEND_MODES.contains(&base.blend_mode.as_str()) {
        context.report(
            sink,
            Code::InvalidProjectValue,
            format!("{path}.blendMode"),
            id,
            format!(
                "Node {} has unknown blend mode {:?}.",
                base.id, base.blend_mode
            ),
        );
    }
}
