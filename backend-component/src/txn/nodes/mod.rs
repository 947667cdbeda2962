//! Display list operations: change a node's fields (`setDisplayNodeProps`), insert a node
//! (`attachDisplayNode`) and remove one (`detachDisplayNode`).
//!
//! Every check runs against the projected state (the batch's earlier operations applied).
//! An inserted node must be as valid as one read from disk: its values in range and its
//! gears bound to controllers the component has now. What it points at (its group,
//! relation targets, resource, the components it instantiates) is validation's to judge,
//! on the final state of the batch, as is whatever still points at a removed node:
//! removing one rewrites nothing.
//!
//! The value checks here are shared: [`Checker`] and the per-kind rules serve both the
//! `props` of `setDisplayNodeProps` (snapshots nested under their key) and the `node` of
//! `attachDisplayNode` (the same fields flattened into the node).
//!
//! [`checker`] collects a payload's problems, [`checks`] holds the value rules of the base
//! fields and of each node kind, [`apply`] writes an accepted `props` into the node.

mod apply;
mod checker;
mod checks;
mod instance;

use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::ops::{
    AttachDisplayNode, DetachDisplayNode, DisplayNodePropsUpdate, SetDisplayNodeProps,
};
use ofgui_contracts::uam::DisplayNode;

use self::apply::{apply_props, own_package};
use self::checker::Checker;
use self::checks::{
    BaseValues, TEXT_KINDS, check_base, check_node_kind, check_snapshots, snapshot_key,
};
use super::gears;
use super::issue::Issue;
use super::words::listed;
use super::workspace::{FinalCheck, Op, Workspace};
use crate::rules::{is_relation_type, with_article};

pub(super) fn set_props(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &SetDisplayNodeProps,
) -> Result<(), Vec<Issue>> {
    let (p, r, n) = workspace
        .find_node(at, &op.selector)
        .map_err(|issue| vec![issue])?;
    let owner = workspace.project().packages[p].id.clone();
    let component = workspace.component(p, r);
    let node = &component.display_list[n];
    let props = &op.props;
    let kind = node.kind();
    let mut c = Checker::new(at, "props", kind, node.id());

    let shortcuts = text_shortcuts(props);
    if props.text_properties.is_some() && !shortcuts.is_empty() {
        c.payload(
            "textProperties",
            format!(
                "props mixes textProperties with the text shortcut(s) {}; send either the complete textProperties snapshot or only the shortcuts.",
                shortcuts.join(", ")
            ),
        );
    }
    let snapshots = snapshot_keys(props);
    if snapshots.len() > 1 {
        c.payload(
            "",
            format!(
                "props holds {} per-kind snapshots ({}); a node has one kind, so send at most one snapshot ({} for this {kind} node).",
                snapshots.len(),
                snapshots.join(", "),
                snapshot_key(kind).unwrap_or("none")
            ),
        );
    }

    check_base(
        &mut c,
        &BaseValues {
            position: props.position.as_ref(),
            rotation: props.rotation,
            scale: props.scale.as_ref(),
            skew: props.skew.as_ref(),
            pivot: props.pivot.as_ref(),
            size: props.size.as_ref(),
            min_size: props.min_size.as_ref(),
            max_size: props.max_size.as_ref(),
            alpha: props.alpha,
            blend_mode: props.blend_mode.as_deref(),
            filter: props.filter.as_deref(),
            filter_data: props.filter_data.as_deref(),
        },
        node.base(),
    );
    // Which group a node may belong to (another group node, no cycle) is validation's
    // rule, judged on the final state: a later operation may attach the group.
    if props.group.is_some() && matches!(node, DisplayNode::Loader(_) | DisplayNode::Loader3D(_)) {
        c.fail(
            Code::UnsupportedDisplayNodeField,
            "group",
            format!(
                "Node {} is {} node; loader and loader3D nodes cannot belong to a group. Remove group from props.",
                node.id(),
                with_article(kind)
            ),
        );
    }
    // A component instance takes the shortcuts as its title's (see `instance`).
    let instance = match node {
        DisplayNode::Component(n) => {
            let extension = checks::resolve(
                workspace.project(),
                &owner,
                n.resource.package_id.as_deref(),
                &n.resource.resource_id,
            )
            .and_then(|target| target.component())
            .map(|target| target.properties.extension_type.as_str());
            instance::change(&mut c, props, n.instance_properties.as_ref(), extension)
        }
        _ => None,
    };
    for key in &shortcuts {
        if !TEXT_KINDS.contains(&kind) && kind != "component" {
            c.fail(
                Code::UnsupportedTextFieldTarget,
                key,
                format!(
                    "props.{key} is a text field, but node {} is {} node; text fields apply only to text, richText and textInput nodes, and to component instances (a button's or label's title).",
                    node.id(),
                    with_article(kind)
                ),
            );
        }
    }
    if TEXT_KINDS.contains(&kind) {
        if let Some(size) = props.font_size {
            c.int_min("fontSize", size.get(), 1.0);
        }
        if let Some(color) = &props.color {
            c.color("color", color);
        }
    }
    check_snapshots(
        &mut c,
        node,
        props,
        instance.as_ref(),
        workspace.project(),
        &owner,
    );
    if !c.issues.is_empty() {
        return Err(c.issues);
    }

    let mut updated = node.clone();
    apply_props(&mut updated, props, instance, workspace.project(), &owner);
    if serde_json::to_value(&updated).ok() == serde_json::to_value(node).ok() {
        return Err(vec![
            at.issue(
                Code::DisplayNodePropsUnchanged,
                "props",
                format!(
                    "Node {} already has every value in props, so nothing would change; re-query the node and send only fields whose values differ.",
                    node.id()
                ),
            )
            .node_kind(kind),
        ]);
    }
    workspace.edit(at, p, r)?.display_list[n] = updated;
    Ok(())
}

pub(super) fn attach(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &AttachDisplayNode,
) -> Result<(), Vec<Issue>> {
    let (p, r) = workspace
        .find_component(at, &op.selector)
        .map_err(|issue| vec![issue])?;
    let project = workspace.project();
    let owner = project.packages[p].id.clone();
    let component_id = op.selector.component_resource_id.as_str();
    let component = workspace.component(p, r);
    let node = &op.node;
    let kind = node.kind();
    let mut c = Checker::new(at, "node", kind, node.id());

    let len = component.display_list.len();
    if op.at_index as usize > len {
        c.issues.push(
            at.issue(
                Code::InvalidAttachIndex,
                "atIndex",
                format!(
                    "atIndex is {}, but component {component_id} has {len} display nodes; use 0 to {len} ({len} appends at the end).",
                    op.at_index
                ),
            )
            .node_kind(kind),
        );
    }
    if node.id().is_empty() {
        c.payload(
            "id",
            "The node has an empty id; give it an id that no other node of the component uses.",
        );
    } else if component.has_node_id(node.id()) {
        c.fail(
            Code::InvalidDisplayNodeSelector,
            "id",
            format!(
                "Component {component_id} already has a display node with id {}; choose an unused id (ids in use: {}).",
                node.id(),
                listed(
                    component
                        .display_list
                        .iter()
                        .map(|n| n.id())
                        .chain(component.unsupported_nodes.iter().map(|n| n.id.as_str()))
                )
            ),
        );
    }

    let base = node.base();
    check_base(
        &mut c,
        &BaseValues {
            position: Some(&base.position),
            rotation: Some(base.rotation),
            scale: Some(&base.scale),
            skew: Some(&base.skew),
            pivot: base.pivot.as_ref(),
            size: Some(&base.size),
            min_size: Some(&base.min_size),
            max_size: Some(&base.max_size),
            alpha: Some(base.alpha),
            blend_mode: Some(&base.blend_mode),
            filter: Some(&base.filter),
            filter_data: Some(&base.filter_data),
        },
        base,
    );
    if base.group.as_deref().is_some_and(|group| !group.is_empty())
        && matches!(node, DisplayNode::Loader(_) | DisplayNode::Loader3D(_))
    {
        c.fail(
            Code::UnsupportedDisplayNodeField,
            "group",
            format!(
                "Node {} is {} node; loader and loader3D nodes cannot belong to a group. Remove group from the node.",
                node.id(),
                with_article(kind)
            ),
        );
    }
    // Group and relation targets are validation's rules, judged on the final state (a
    // later operation may attach them).
    for (k, relation) in base.relations.iter().enumerate() {
        if !is_relation_type(relation.relation_type) {
            c.payload(
                &format!("relations[{k}].type"),
                format!(
                    "Relation {k} of node {} has type {}; use 0..24 (Left_Left 0 … Bottom_Bottom 13, Width 14, Height 15, the *Ext variants 16–23, Size 24).",
                    node.id(),
                    relation.relation_type
                ),
            );
        }
    }
    check_node_kind(&mut c, node, project, &owner);
    gears::check_node_gears(at, "node", node, &component.controllers, &mut c.issues);
    if !c.issues.is_empty() {
        return Err(c.issues);
    }
    for field in std::mem::take(&mut c.deferred) {
        workspace.check_at_end(FinalCheck::ComponentAttached {
            at: at.blame(&format!("node.{field}")),
            package_id: owner.clone(),
            component_id: component_id.to_string(),
            node_id: node.id().to_string(),
        });
    }

    let mut node = node.clone();
    match &mut node {
        DisplayNode::Image(n) => own_package(&mut n.resource, &owner),
        DisplayNode::Component(n) => own_package(&mut n.resource, &owner),
        _ => {}
    }
    workspace
        .edit(at, p, r)?
        .display_list
        .insert(op.at_index as usize, node);
    Ok(())
}

pub(super) fn detach(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &DetachDisplayNode,
) -> Result<(), Vec<Issue>> {
    let (p, r, n) = workspace
        .find_node(at, &op.selector)
        .map_err(|issue| vec![issue])?;
    workspace.edit(at, p, r)?.display_list.remove(n);
    workspace.check_at_end(FinalCheck::NodeRemoved {
        at: at.blame("selector.displayNodeId"),
        package_id: op.selector.package_id.clone(),
        component_id: op.selector.component_resource_id.clone(),
        node_id: op.selector.display_node_id.clone(),
    });
    Ok(())
}

fn snapshot_keys(props: &DisplayNodePropsUpdate) -> Vec<&'static str> {
    [
        ("textProperties", props.text_properties.is_some()),
        ("imageProperties", props.image_properties.is_some()),
        ("movieClipProperties", props.movie_clip_properties.is_some()),
        ("graphProperties", props.graph_properties.is_some()),
        ("groupProperties", props.group_properties.is_some()),
        ("loaderProperties", props.loader_properties.is_some()),
        ("listProperties", props.list_properties.is_some()),
        ("loader3DProperties", props.loader3d_properties.is_some()),
        (
            "componentInstanceProperties",
            props.component_instance_properties.is_some(),
        ),
    ]
    .into_iter()
    .filter_map(|(key, present)| present.then_some(key))
    .collect()
}

fn text_shortcuts(props: &DisplayNodePropsUpdate) -> Vec<&'static str> {
    [
        ("text", props.text.is_some()),
        ("font", props.font.is_some()),
        ("fontSize", props.font_size.is_some()),
        ("color", props.color.is_some()),
    ]
    .into_iter()
    .filter_map(|(key, present)| present.then_some(key))
    .collect()
}
