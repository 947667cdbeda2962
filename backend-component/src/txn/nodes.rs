//! Display list operations: change a node's fields (`setDisplayNodeProps`), insert a node
//! (`attachDisplayNode`) and remove one (`detachDisplayNode`).
//!
//! Every check runs against the projected state (the batch's earlier operations applied).
//! An inserted node must be as valid as one read from disk: its values in range, its
//! group, relations and gears pointing at what the component has now, its resource in
//! place. Removing a node rewrites nothing; whatever still points at it is judged on the
//! final state of the batch.
//!
//! The value checks here are shared: [`Checker`] and the per-kind rules serve both the
//! `props` of `setDisplayNodeProps` (snapshots nested under their key) and the `node` of
//! `attachDisplayNode` (the same fields flattened into the node).

use ofgui_contracts::Num;
use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::ops::{
    AttachDisplayNode, DetachDisplayNode, DisplayNodePropsUpdate, SetDisplayNodeProps,
};
use ofgui_contracts::uam::{
    ComponentModel, ComponentPropertyOverride, DisplayNode, GraphProperties, GroupProperties,
    ImageProperties, InstanceProperties, ListProperties, Loader3DProperties, LoaderProperties,
    MovieClipProperties, NodeBase, Point, ResourceRef, Size, TextProperties, TitleControlNode,
    TreeExtras, UamProject, UamResource,
};

use super::gears;
use super::issue::Issue;
use super::layout::resource_folder;
use super::words::listed;
use super::workspace::{FinalCheck, Op, Workspace};
use crate::rules::{BLEND_MODES, fits_geometry, is_color, is_relation_type, is_unit};

/// Node kinds the text fields apply to.
const TEXT_KINDS: [&str; 3] = ["text", "richText", "textInput"];

// ------------------------------------------------------------------ operations

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
    if let Some(group) = &props.group {
        if matches!(node, DisplayNode::Loader(_) | DisplayNode::Loader3D(_)) {
            c.fail(
                Code::UnsupportedDisplayNodeField,
                "group",
                format!(
                    "Node {} is a {kind} node; loader and loader3D nodes cannot belong to a group. Remove group from props.",
                    node.id()
                ),
            );
        } else if !group.is_empty() {
            check_group_ref(&mut c, component, node.id(), group, "group");
        }
    }
    for key in &shortcuts {
        if !TEXT_KINDS.contains(&kind) {
            c.fail(
                Code::UnsupportedTextFieldTarget,
                key,
                format!(
                    "props.{key} is a text field, but node {} is a {kind} node; text fields apply only to text, richText and textInput nodes.",
                    node.id()
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
    check_snapshots(&mut c, node, props, workspace.project(), &owner);
    if !c.issues.is_empty() {
        return Err(c.issues);
    }

    let mut updated = node.clone();
    apply_props(&mut updated, props, workspace.project(), &owner);
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
    } else if component
        .display_list
        .iter()
        .any(|other| other.id() == node.id())
    {
        c.fail(
            Code::InvalidDisplayNodeSelector,
            "id",
            format!(
                "Component {component_id} already has a display node with id {}; choose an unused id (ids in use: {}).",
                node.id(),
                listed(component.display_list.iter().map(|n| n.id()))
            ),
        );
    }

    let base = node.base();
    check_base(
        &mut c,
        &BaseValues {
            position: Some(&base.position),
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
    match base.group.as_deref() {
        Some(group) if !group.is_empty() => {
            if matches!(node, DisplayNode::Loader(_) | DisplayNode::Loader3D(_)) {
                c.fail(
                    Code::UnsupportedDisplayNodeField,
                    "group",
                    format!(
                        "Node {} is a {kind} node; loader and loader3D nodes cannot belong to a group. Remove group from the node.",
                        node.id()
                    ),
                );
            } else {
                check_group_ref(&mut c, component, node.id(), group, "group");
            }
        }
        _ => {}
    }
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
        let target = relation.target_node_id.as_str();
        if !target.is_empty() && !component.display_list.iter().any(|n| n.id() == target) {
            c.payload(
                &format!("relations[{k}].targetNodeId"),
                format!(
                    "Relation {k} of node {} targets node {target}, which component {component_id} does not have; use '' (the component) or one of: {}.",
                    node.id(),
                    listed(component.display_list.iter().map(|n| n.id()))
                ),
            );
        }
    }
    check_node_kind(&mut c, node, project, &owner, component_id);
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

// ------------------------------------------------------------------ shared helpers

/// The resource a node points at: `packageId` (empty means the owning package) and id.
fn resolve<'p>(
    project: &'p UamProject,
    owner: &str,
    package_id: Option<&str>,
    resource_id: &str,
) -> Option<&'p UamResource> {
    let package_id = package_id.filter(|id| !id.is_empty()).unwrap_or(owner);
    project
        .packages
        .iter()
        .find(|package| package.id == package_id)?
        .resources
        .iter()
        .find(|resource| resource.id() == resource_id)
        .map(|resource| resource.as_ref())
}

/// The reference after retargeting `current` to `wanted`. A reference into the owning
/// package keeps the form the node already had (`pkg` written or not), so retargeting
/// changes only the resource id.
fn retarget(current: &ResourceRef, wanted: &ResourceRef, owner: &str) -> ResourceRef {
    let is_own = |id: Option<&str>| id.is_none_or(|id| id.is_empty() || id == owner);
    let package_id =
        if is_own(wanted.package_id.as_deref()) && is_own(current.package_id.as_deref()) {
            current.package_id.clone()
        } else if is_own(wanted.package_id.as_deref()) {
            None
        } else {
            wanted.package_id.clone()
        };
    ResourceRef {
        package_id,
        resource_id: wanted.resource_id.clone(),
    }
}

/// An empty or absent `packageId` becomes the owning package.
fn own_package(resource: &mut ResourceRef, owner: &str) {
    if resource.package_id.as_deref().is_none_or(str::is_empty) {
        resource.package_id = Some(owner.to_string());
    }
}

/// The `setDisplayNodeProps` snapshot key of a node kind.
fn snapshot_key(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "image" => "imageProperties",
        "text" | "richText" | "textInput" => "textProperties",
        "movieClip" => "movieClipProperties",
        "graph" => "graphProperties",
        "group" => "groupProperties",
        "loader" => "loaderProperties",
        "list" | "tree" => "listProperties",
        "loader3D" => "loader3DProperties",
        "component" => "componentInstanceProperties",
        _ => return None,
    })
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

fn instance_type(properties: &InstanceProperties) -> &'static str {
    match properties {
        InstanceProperties::Button { .. } => "Button",
        InstanceProperties::Label { .. } => "Label",
        InstanceProperties::ComboBox { .. } => "ComboBox",
        InstanceProperties::ProgressBar { .. } => "ProgressBar",
        InstanceProperties::Slider { .. } => "Slider",
        InstanceProperties::ScrollBar {} => "ScrollBar",
    }
}

// ------------------------------------------------------------------ the checker

/// Collects the problems of one node payload; paths are relative to `root` (`props` for
/// setDisplayNodeProps, `node` for attachDisplayNode), `field` is the top-level key.
pub(super) struct Checker<'c, 'o> {
    at: &'c Op<'o>,
    root: &'c str,
    node_kind: &'static str,
    node_id: String,
    pub(super) issues: Vec<Issue>,
    /// Component references that do not resolve yet, by field: an earlier or later
    /// operation of the batch may add the package or component, so the final state judges.
    deferred: Vec<String>,
}

impl<'c, 'o> Checker<'c, 'o> {
    fn new(at: &'c Op<'o>, root: &'c str, node_kind: &'static str, node_id: &str) -> Self {
        Checker {
            at,
            root,
            node_kind,
            node_id: node_id.to_string(),
            issues: Vec::new(),
            deferred: Vec::new(),
        }
    }

    /// `props.imageProperties.flip`, as the agent wrote it.
    fn shown(&self, sub: &str) -> String {
        if sub.is_empty() {
            self.root.to_string()
        } else {
            format!("{}.{sub}", self.root)
        }
    }

    fn fail(&mut self, code: Code, sub: &str, message: impl Into<String>) {
        let mut issue = self
            .at
            .issue(code, &self.shown(sub), message)
            .node_kind(self.node_kind);
        let field = sub.split(['.', '[']).next().unwrap_or(sub);
        if !field.is_empty() {
            issue = issue.field(field);
        }
        self.issues.push(issue);
    }

    fn payload(&mut self, sub: &str, message: impl Into<String>) {
        self.fail(Code::InvalidDisplayNodePayload, sub, message);
    }

    /// An integer between `lo` and `hi`; `meaning` says what the values stand for.
    fn int_in(&mut self, sub: &str, value: f64, lo: f64, hi: f64, meaning: &str) {
        if value.fract() != 0.0 || value < lo || value > hi {
            let meaning = if meaning.is_empty() {
                String::new()
            } else {
                format!(" ({meaning})")
            };
            self.payload(
                sub,
                format!(
                    "{} of node {} is {value}; use an integer from {lo} to {hi}{meaning}.",
                    self.shown(sub),
                    self.node_id
                ),
            );
        }
    }

    /// An integer of at least `lo`.
    fn int_min(&mut self, sub: &str, value: f64, lo: f64) {
        if value.fract() != 0.0 || value < lo {
            self.payload(
                sub,
                format!(
                    "{} of node {} is {value}; use an integer of at least {lo}.",
                    self.shown(sub),
                    self.node_id
                ),
            );
        }
    }

    fn integer(&mut self, sub: &str, value: f64) {
        if value.fract() != 0.0 {
            self.payload(
                sub,
                format!(
                    "{} of node {} is {value}; use a whole number.",
                    self.shown(sub),
                    self.node_id
                ),
            );
        }
    }

    fn non_negative(&mut self, sub: &str, value: f64) {
        if value < 0.0 {
            self.payload(
                sub,
                format!(
                    "{} of node {} is {value}; use 0 or more.",
                    self.shown(sub),
                    self.node_id
                ),
            );
        }
    }

    fn color(&mut self, sub: &str, value: &str) {
        if !is_color(value) {
            self.payload(
                sub,
                format!(
                    "{} of node {} is {value:?}; use a colour #rrggbb (or 8 hex digits with alpha).",
                    self.shown(sub),
                    self.node_id
                ),
            );
        }
    }

    /// `''` or a colour.
    fn optional_color(&mut self, sub: &str, value: &str) {
        if !value.is_empty() {
            self.color(sub, value);
        }
    }

    /// `''` or a `ui://` URL.
    fn sound(&mut self, sub: &str, value: &str) {
        if !value.is_empty() && !value.starts_with("ui://") {
            self.payload(
                sub,
                format!(
                    "{} of node {} is {value:?}; use '' (no sound) or a ui:// URL of a sound resource.",
                    self.shown(sub),
                    self.node_id
                ),
            );
        }
    }

    fn unit(&mut self, sub: &str, value: f64) {
        if !is_unit(value) {
            self.payload(
                sub,
                format!(
                    "{} of node {} is {value}; use a number from 0 to 1.",
                    self.shown(sub),
                    self.node_id
                ),
            );
        }
    }

    /// Values the FairyGUI editor stores as 32-bit integers.
    fn geometry(&mut self, sub: &str, values: &[Num]) {
        if !values.iter().copied().all(fits_geometry) {
            let shown: Vec<String> = values.iter().map(|v| v.get().to_string()).collect();
            self.payload(
                sub,
                format!(
                    "{} of node {} is {}, which does not fit a 32-bit integer; the FairyGUI editor could not load it.",
                    self.shown(sub),
                    self.node_id,
                    shown.join(",")
                ),
            );
        }
    }

    fn size(&mut self, sub: &str, size: &Size) {
        self.geometry(sub, &[size.width, size.height]);
        if size.width.get() < 0.0 || size.height.get() < 0.0 {
            self.payload(
                sub,
                format!(
                    "{} of node {} is {}x{}; width and height must be 0 or more.",
                    self.shown(sub),
                    self.node_id,
                    size.width.get(),
                    size.height.get()
                ),
            );
        }
    }
}

// ------------------------------------------------------------------ base fields

/// The base fields with value rules; `None` when the request leaves one alone.
struct BaseValues<'a> {
    position: Option<&'a Point>,
    size: Option<&'a Size>,
    min_size: Option<&'a Size>,
    max_size: Option<&'a Size>,
    alpha: Option<Num>,
    blend_mode: Option<&'a str>,
    filter: Option<&'a str>,
    filter_data: Option<&'a str>,
}

fn check_base(c: &mut Checker<'_, '_>, values: &BaseValues<'_>, current: &NodeBase) {
    if let Some(position) = values.position {
        c.geometry("position", &[position.x, position.y]);
    }
    if let Some(size) = values.size {
        c.size("size", size);
    }
    if let Some(size) = values.min_size {
        c.size("minSize", size);
    }
    if let Some(size) = values.max_size {
        c.size("maxSize", size);
    }
    if values.min_size.is_some() || values.max_size.is_some() {
        let min = values.min_size.unwrap_or(&current.min_size);
        let max = values.max_size.unwrap_or(&current.max_size);
        for (axis, lo, hi) in [
            ("width", min.width.get(), max.width.get()),
            ("height", min.height.get(), max.height.get()),
        ] {
            if hi > 0.0 && hi < lo {
                c.payload(
                    "maxSize",
                    format!(
                        "maxSize.{axis} of node {} is {hi} but minSize.{axis} is {lo}; set maxSize.{axis} to 0 (no limit) or to at least {lo}.",
                        c.node_id
                    ),
                );
            }
        }
    }
    if let Some(alpha) = values.alpha {
        c.unit("alpha", alpha.get());
    }
    if let Some(mode) = values.blend_mode
        && !BLEND_MODES.contains(&mode)
    {
        c.payload(
            "blendMode",
            format!(
                "blendMode of node {} is {mode:?}; use one of {}.",
                c.node_id,
                BLEND_MODES.join(", ")
            ),
        );
    }
    if values.filter.is_some() || values.filter_data.is_some() {
        let filter = values.filter.unwrap_or(&current.filter);
        let data = values.filter_data.unwrap_or(&current.filter_data);
        match filter {
            "" if !data.is_empty() => c.payload(
                "filterData",
                format!(
                    "Node {} has no filter, so filterData must be ''; set filter to \"color\" to keep {data:?}, or send filterData ''.",
                    c.node_id
                ),
            ),
            "" => {}
            "color" => {
                let numbers: Vec<Option<f64>> = data
                    .split(',')
                    .map(|part| part.trim().parse::<f64>().ok().filter(|v| v.is_finite()))
                    .collect();
                if numbers.len() != 4 || numbers.iter().any(Option::is_none) {
                    c.payload(
                        "filterData",
                        format!(
                            "filterData of node {} is {data:?}; the color filter needs four comma-separated numbers: brightness,contrast,saturation,hue (e.g. \"0,0,0,0\").",
                            c.node_id
                        ),
                    );
                }
            }
            other => c.payload(
                "filter",
                format!(
                    "filter of node {} is {other:?}; use '' (none) or \"color\".",
                    c.node_id
                ),
            ),
        }
    }
}

/// `group` must name another group node of the component.
fn check_group_ref(
    c: &mut Checker<'_, '_>,
    component: &ComponentModel,
    own_id: &str,
    group: &str,
    sub: &str,
) {
    let groups = || {
        component
            .display_list
            .iter()
            .filter(|n| matches!(n, DisplayNode::Group(_)) && n.id() != own_id)
            .map(|n| n.id())
    };
    let problem = if group == own_id {
        format!("Node {own_id} cannot be its own group")
    } else {
        match component.display_list.iter().find(|n| n.id() == group) {
            None => format!("The component has no node with id {group}"),
            Some(DisplayNode::Group(_)) => return,
            Some(other) => format!("Node {group} is a {} node, not a group", other.kind()),
        }
    };
    c.fail(
        Code::InvalidGroupReference,
        sub,
        format!(
            "{problem}; set group to '' or to the id of a group node of the component (group nodes: {}). Attach a new group node before assigning members to it.",
            listed(groups())
        ),
    );
}

// ------------------------------------------------------------------ per-kind snapshots

fn check_snapshots(
    c: &mut Checker<'_, '_>,
    node: &DisplayNode,
    props: &DisplayNodePropsUpdate,
    project: &UamProject,
    owner: &str,
) {
    let kind = node.kind();
    let wrong = |c: &mut Checker<'_, '_>, code: Code, key: &str, fits: &str| {
        let hint = match snapshot_key(kind) {
            Some(own) => format!("its snapshot key is {own}"),
            None => "it has no per-kind snapshot, only the base fields".to_string(),
        };
        c.fail(
            code,
            key,
            format!(
                "{key} applies only to {fits} nodes, but node {} is a {kind} node; {hint}.",
                c.node_id
            ),
        );
    };
    if let Some(update) = &props.text_properties {
        if !TEXT_KINDS.contains(&kind) {
            wrong(
                c,
                Code::UnsupportedTextFieldTarget,
                "textProperties",
                "text, richText and textInput",
            );
        } else {
            check_text(c, "textProperties.", &update.text);
            match (&update.plain, kind) {
                (Some(_), "richText") => c.fail(
                    Code::UnsupportedDisplayNodeField,
                    "textProperties",
                    format!(
                        "Node {} is a richText node, which has no demoText, templateVarsEnabled or faceDilate; remove them from textProperties.",
                        c.node_id
                    ),
                ),
                (None, "text" | "textInput") if update.input.is_none() => c.payload(
                    "textProperties",
                    format!(
                        "textProperties of a {kind} node is a complete snapshot: add demoText, templateVarsEnabled and faceDilate (read the node's current values with queryEntity)."
                    ),
                ),
                _ => {}
            }
            match (&update.input, kind) {
                (Some(input), "textInput") => {
                    c.int_min("textProperties.maxLength", input.max_length.get(), 0.0);
                    c.int_min(
                        "textProperties.keyboardType",
                        f64::from(input.keyboard_type),
                        0.0,
                    );
                }
                (Some(_), _) => c.fail(
                    Code::UnsupportedDisplayNodeField,
                    "textProperties",
                    format!(
                        "Node {} is a {kind} node; promptText, maxLength, restrict, password and keyboardType belong to textInput nodes only. Remove them from textProperties.",
                        c.node_id
                    ),
                ),
                (None, _) => {}
            }
        }
    }
    if let Some(update) = &props.image_properties {
        if kind == "image" {
            check_image(c, "imageProperties.", &update.image);
            if let Some(resource) = &update.resource {
                check_image_ref(c, project, owner, "imageProperties.", resource);
            }
        } else {
            wrong(
                c,
                Code::UnsupportedDisplayNodeField,
                "imageProperties",
                "image",
            );
        }
    }
    if let Some(update) = &props.movie_clip_properties {
        if kind == "movieClip" {
            check_movie_clip(c, "movieClipProperties.", &update.clip);
            match (&update.resource, &update.file_name) {
                (Some(resource), _) => check_resource(
                    c,
                    project,
                    owner,
                    "movieClipProperties.",
                    resource,
                    "movieClip",
                ),
                (None, Some(_)) => c.payload(
                    "movieClipProperties.fileName",
                    format!(
                        "movieClipProperties.fileName names the file of the clip's resource; send it only together with resource, when retargeting node {}.",
                        c.node_id
                    ),
                ),
                (None, None) => {}
            }
        } else {
            wrong(
                c,
                Code::UnsupportedDisplayNodeField,
                "movieClipProperties",
                "movieClip",
            );
        }
    }
    if let Some(graph) = &props.graph_properties {
        if kind == "graph" {
            check_graph(c, "graphProperties.", graph);
        } else {
            wrong(
                c,
                Code::UnsupportedDisplayNodeField,
                "graphProperties",
                "graph",
            );
        }
    }
    if let Some(group) = &props.group_properties {
        if kind == "group" {
            check_group(c, "groupProperties.", group);
        } else {
            wrong(
                c,
                Code::UnsupportedDisplayNodeField,
                "groupProperties",
                "group",
            );
        }
    }
    if let Some(loader) = &props.loader_properties {
        if kind == "loader" {
            check_loader(c, "loaderProperties.", loader);
        } else {
            wrong(
                c,
                Code::UnsupportedDisplayNodeField,
                "loaderProperties",
                "loader",
            );
        }
    }
    if let Some(update) = &props.list_properties {
        match kind {
            "list" | "tree" => {
                check_list(
                    c,
                    "listProperties.",
                    &update.list,
                    update.tree.as_ref(),
                    kind == "tree",
                );
            }
            _ => wrong(
                c,
                Code::UnsupportedDisplayNodeField,
                "listProperties",
                "list and tree",
            ),
        }
    }
    if let Some(loader) = &props.loader3d_properties {
        if kind == "loader3D" {
            check_loader3d(c, "loader3DProperties.", loader);
        } else {
            wrong(
                c,
                Code::UnsupportedDisplayNodeField,
                "loader3DProperties",
                "loader3D",
            );
        }
    }
    if let Some(instance) = &props.component_instance_properties {
        match node {
            DisplayNode::Component(n) => {
                if let Some(instance) = instance {
                    check_instance(c, "componentInstanceProperties.", instance);
                    check_instance_type(
                        c,
                        "componentInstanceProperties",
                        instance,
                        project,
                        owner,
                        &n.resource,
                    );
                }
            }
            _ => wrong(
                c,
                Code::UnsupportedDisplayNodeField,
                "componentInstanceProperties",
                "component",
            ),
        }
    }
}

/// The values of a node being attached, by kind, with its resource reference.
fn check_node_kind(
    c: &mut Checker<'_, '_>,
    node: &DisplayNode,
    project: &UamProject,
    owner: &str,
    component_id: &str,
) {
    match node {
        DisplayNode::Image(n) => {
            check_image_ref(c, project, owner, "", &n.resource);
            check_image(c, "", &n.props);
        }
        DisplayNode::Text(n) => check_text(c, "", &n.text),
        DisplayNode::RichText(n) => check_text(c, "", &n.text),
        DisplayNode::TextInput(n) => {
            check_text(c, "", &n.text);
            c.int_min("maxLength", n.max_length.get(), 0.0);
            c.int_min("keyboardType", f64::from(n.keyboard_type), 0.0);
        }
        DisplayNode::Component(n) => {
            check_component_ref(
                c,
                project,
                owner,
                component_id,
                n.resource.package_id.as_deref(),
                &n.resource.resource_id,
                ("resource.packageId", "resource.resourceId"),
            );
            if let Some(instance) = &n.instance_properties {
                check_instance(c, "instanceProperties.", instance);
                check_instance_type(
                    c,
                    "instanceProperties",
                    instance,
                    project,
                    owner,
                    &n.resource,
                );
            }
            if let Some(overrides) = &n.property_overrides {
                check_overrides(c, "propertyOverrides", overrides);
            }
        }
        DisplayNode::List(n) => check_list(c, "", &n.list, None, false),
        DisplayNode::Tree(n) => check_list(c, "", &n.list, Some(&n.tree), true),
        DisplayNode::Graph(n) => check_graph(c, "", &n.props),
        DisplayNode::Group(n) => check_group(c, "", &n.props),
        DisplayNode::Loader(n) => check_loader(c, "", &n.props),
        DisplayNode::Loader3D(n) => check_loader3d(c, "", &n.props),
        DisplayNode::MovieClip(n) => {
            check_resource(c, project, owner, "", &n.resource, "movieClip");
            check_movie_clip(c, "", &n.props);
        }
        DisplayNode::Button(n) | DisplayNode::Label(n) | DisplayNode::ComboBox(n) => {
            check_flat_ref(c, project, owner, component_id, &n.package_id, &n.src);
            check_title_control(c, n);
        }
        DisplayNode::ProgressBar(n) | DisplayNode::Slider(n) | DisplayNode::ScrollBar(n) => {
            check_flat_ref(c, project, owner, component_id, &n.package_id, &n.src);
        }
    }
}

/// An image node shows an image of its own package.
fn check_image_ref(
    c: &mut Checker<'_, '_>,
    project: &UamProject,
    owner: &str,
    at: &str,
    resource: &ResourceRef,
) {
    let package_id = resource.package_id.as_deref().unwrap_or_default();
    if !package_id.is_empty() && package_id != owner {
        c.fail(
            Code::UnsupportedCrossPackageImageRef,
            &format!("{at}resource.packageId"),
            format!(
                "Image node {} points into package {package_id}, but an image node may only show an image of its own package {owner}; set resource.packageId to '' or {owner}, or show the image through a loader with a ui:// url.",
                c.node_id
            ),
        );
    } else {
        check_resource(c, project, owner, at, resource, "image");
    }
}

/// An image or movie clip node's resource must exist now and be of that kind.
fn check_resource(
    c: &mut Checker<'_, '_>,
    project: &UamProject,
    owner: &str,
    at: &str,
    resource: &ResourceRef,
    kind: &str,
) {
    let package_id = resource
        .package_id
        .as_deref()
        .filter(|id| !id.is_empty())
        .unwrap_or(owner);
    let problem = match resolve(project, owner, Some(package_id), &resource.resource_id) {
        None => format!(
            "package {package_id} has no resource {}",
            resource.resource_id
        ),
        Some(found) if found.kind() != kind => format!(
            "resource {} of package {package_id} is a {}, not a {kind}",
            resource.resource_id,
            found.kind()
        ),
        Some(_) => return,
    };
    c.fail(
        Code::InvalidResourceReference,
        &format!("{at}resource.resourceId"),
        format!(
            "Node {} shows {problem}; point resource at an existing {kind} resource (add it first with addResource if needed).",
            c.node_id
        ),
    );
}

/// A component instance must reference a component that exists now and is not the
/// component it is placed in.
fn check_component_ref(
    c: &mut Checker<'_, '_>,
    project: &UamProject,
    owner: &str,
    component_id: &str,
    package_id: Option<&str>,
    resource_id: &str,
    (package_sub, resource_sub): (&str, &str),
) {
    let package_id = package_id.filter(|id| !id.is_empty()).unwrap_or(owner);
    if !project.packages.iter().any(|p| p.id == package_id) {
        c.deferred.push(package_sub.to_string());
        return;
    }
    let problem = match resolve(project, owner, Some(package_id), resource_id) {
        None => {
            c.deferred.push(resource_sub.to_string());
            return;
        }
        Some(found) if found.kind() != "component" => format!(
            "resource {resource_id} of package {package_id} is a {}, not a component",
            found.kind()
        ),
        Some(_) if package_id == owner && resource_id == component_id => {
            "a component cannot contain an instance of itself".to_string()
        }
        Some(_) => return,
    };
    c.fail(
        Code::InvalidComponentReference,
        resource_sub,
        format!(
            "Node {} instantiates a component, but {problem}; reference an existing component resource (add it first with addComponent if needed).",
            c.node_id
        ),
    );
}

fn check_flat_ref(
    c: &mut Checker<'_, '_>,
    project: &UamProject,
    owner: &str,
    component_id: &str,
    package_id: &str,
    src: &str,
) {
    check_component_ref(
        c,
        project,
        owner,
        component_id,
        Some(package_id),
        src,
        ("packageId", "src"),
    );
}

/// Instance properties are keyed by the referenced component's extension type.
fn check_instance_type(
    c: &mut Checker<'_, '_>,
    sub: &str,
    instance: &InstanceProperties,
    project: &UamProject,
    owner: &str,
    resource: &ResourceRef,
) {
    let Some(UamResource::Component(target)) = resolve(
        project,
        owner,
        resource.package_id.as_deref(),
        &resource.resource_id,
    ) else {
        return;
    };
    let wanted = target.component.properties.extension_type.as_str();
    let given = instance_type(instance);
    if wanted != given {
        let fix = if wanted.is_empty() {
            "it has no extension type, so send null (no instance properties)".to_string()
        } else {
            format!("send extensionType {wanted:?} with that type's fields")
        };
        c.payload(
            &format!("{sub}.extensionType"),
            format!(
                "Node {} instantiates component {} whose extension type is {wanted:?}, but the instance properties are for {given:?}; {fix}.",
                c.node_id, resource.resource_id
            ),
        );
    }
}

fn check_image(c: &mut Checker<'_, '_>, at: &str, image: &ImageProperties) {
    c.color(&format!("{at}color"), &image.color);
    c.int_in(
        &format!("{at}flip"),
        f64::from(image.flip),
        0.0,
        3.0,
        "0 none, 1 horizontal, 2 vertical, 3 both",
    );
    check_fill(
        c,
        at,
        image.fill_method,
        image.fill_origin,
        image.fill_clockwise,
        image.fill_amount,
    );
}

fn check_fill(
    c: &mut Checker<'_, '_>,
    at: &str,
    method: i32,
    origin: i32,
    clockwise: bool,
    amount: Num,
) {
    c.int_in(
        &format!("{at}fillMethod"),
        f64::from(method),
        0.0,
        5.0,
        "0 none, 1 horizontal, 2 vertical, 3 radial90, 4 radial180, 5 radial360",
    );
    c.int_in(&format!("{at}fillOrigin"), f64::from(origin), 0.0, 3.0, "");
    let amount = amount.get();
    if method == 0 {
        let id = c.node_id.clone();
        if origin != 0 {
            c.payload(
                &format!("{at}fillOrigin"),
                format!("Node {id} has fillMethod 0 (no fill), so fillOrigin must be 0."),
            );
        }
        if !clockwise {
            c.payload(
                &format!("{at}fillClockwise"),
                format!("Node {id} has fillMethod 0 (no fill), so fillClockwise must be true."),
            );
        }
        if amount != 100.0 {
            c.payload(
                &format!("{at}fillAmount"),
                format!(
                    "Node {id} has fillMethod 0 (no fill), so fillAmount must be 100 (it is {amount}); set a fillMethod to use a fill amount."
                ),
            );
        }
    } else if !is_unit(amount) {
        c.payload(
            &format!("{at}fillAmount"),
            format!(
                "{} of node {} is {amount}; with a fill method it is the filled fraction from 0 to 1.",
                c.shown(&format!("{at}fillAmount")),
                c.node_id
            ),
        );
    }
}

fn check_text(c: &mut Checker<'_, '_>, at: &str, text: &TextProperties) {
    c.int_min(&format!("{at}fontSize"), text.font_size.get(), 1.0);
    c.color(&format!("{at}color"), &text.color);
    c.int_in(
        &format!("{at}align"),
        f64::from(text.align),
        0.0,
        2.0,
        "0 left, 1 center, 2 right",
    );
    c.int_in(
        &format!("{at}vAlign"),
        f64::from(text.v_align),
        0.0,
        2.0,
        "0 top, 1 middle, 2 bottom",
    );
    c.integer(&format!("{at}leading"), text.leading.get());
    c.integer(&format!("{at}letterSpacing"), text.letter_spacing.get());
    c.int_in(
        &format!("{at}autoSize"),
        f64::from(text.auto_size),
        0.0,
        4.0,
        "0 none, 1 both, 2 height, 3 shrink, 4 ellipsis",
    );
    c.non_negative(&format!("{at}strokeSize"), text.stroke_size.get());
    match &text.stroke_color {
        None if text.stroke_size.get() != 1.0 => c.payload(
            &format!("{at}strokeSize"),
            format!(
                "Node {} has no stroke (strokeColor null), so strokeSize must be 1; give strokeColor a colour or set strokeSize to 1.",
                c.node_id
            ),
        ),
        None => {}
        Some(color) => c.color(&format!("{at}strokeColor"), color),
    }
    match &text.shadow_color {
        None if text.shadow_offset.x.get() != 0.0 || text.shadow_offset.y.get() != 0.0 => c
            .payload(
                &format!("{at}shadowOffset"),
                format!(
                    "Node {} has no shadow (shadowColor null), so shadowOffset must be {{x: 0, y: 0}}; give shadowColor a colour or zero the offset.",
                    c.node_id
                ),
            ),
        None => {}
        Some(color) => c.color(&format!("{at}shadowColor"), color),
    }
}

fn check_movie_clip(c: &mut Checker<'_, '_>, at: &str, clip: &MovieClipProperties) {
    c.int_min(&format!("{at}frame"), clip.frame.get(), 0.0);
    c.color(&format!("{at}color"), &clip.color);
}

fn check_graph(c: &mut Checker<'_, '_>, at: &str, graph: &GraphProperties) {
    c.int_in(
        &format!("{at}graphType"),
        f64::from(graph.graph_type),
        0.0,
        4.0,
        "0 empty, 1 rect, 2 ellipse, 3 polygon, 4 regular polygon",
    );
    c.non_negative(&format!("{at}lineSize"), graph.line_size.get());
    c.color(&format!("{at}lineColor"), &graph.line_color);
    c.color(&format!("{at}fillColor"), &graph.fill_color);
    if let Some(corners) = &graph.corner_radius
        && corners.len() != 4
    {
        c.payload(
            &format!("{at}cornerRadius"),
            format!(
                "cornerRadius of node {} has {} values; use null or four radii [topLeft, topRight, bottomLeft, bottomRight].",
                c.node_id,
                corners.len()
            ),
        );
    }
    c.int_min(&format!("{at}sides"), graph.sides.get(), 0.0);
    if graph.sides.get() == 0.0 {
        if graph.start_angle.get() != 0.0 {
            c.payload(
                &format!("{at}startAngle"),
                format!(
                    "Node {} has sides 0 (not a regular polygon), so startAngle must be 0.",
                    c.node_id
                ),
            );
        }
        if graph.distances.is_some() {
            c.payload(
                &format!("{at}distances"),
                format!(
                    "Node {} has sides 0 (not a regular polygon), so distances must be null.",
                    c.node_id
                ),
            );
        }
    }
}

fn check_group(c: &mut Checker<'_, '_>, at: &str, group: &GroupProperties) {
    c.int_in(
        &format!("{at}layout"),
        f64::from(group.layout),
        0.0,
        2.0,
        "0 none, 1 horizontal, 2 vertical",
    );
    c.int_min(
        &format!("{at}mainGridIndex"),
        group.main_grid_index.get(),
        -1.0,
    );
    if group.advanced && group.layout != 0 {
        return;
    }
    let why = if group.advanced {
        "an advanced group without a layout (layout 0)"
    } else {
        "a group that is not advanced"
    };
    let id = c.node_id.clone();
    if !group.advanced && group.layout != 0 {
        c.payload(
            &format!("{at}layout"),
            format!("Node {id} is {why}, so layout must be 0; set advanced to true to lay out its members."),
        );
    }
    for (name, at_default) in [
        ("lineGap", group.line_gap.get() == 0.0),
        ("columnGap", group.column_gap.get() == 0.0),
        ("excludeInvisibles", !group.exclude_invisibles),
        ("autoSizeDisabled", !group.auto_size_disabled),
        ("mainGridIndex", group.main_grid_index.get() == -1.0),
    ] {
        if !at_default {
            let default = match name {
                "lineGap" | "columnGap" => "0",
                "mainGridIndex" => "-1",
                _ => "false",
            };
            c.payload(
                &format!("{at}{name}"),
                format!(
                    "Node {id} is {why}, so {name} must keep its default {default}; set advanced true and layout 1 or 2 to use it."
                ),
            );
        }
    }
}

const LOADER_FILL: &str =
    "0 none, 1 scale, 2 scale-match-height, 3 scale-match-width, 4 scale-free, 5 scale-no-border";

fn check_loader(c: &mut Checker<'_, '_>, at: &str, loader: &LoaderProperties) {
    c.int_in(
        &format!("{at}fill"),
        f64::from(loader.fill),
        0.0,
        5.0,
        LOADER_FILL,
    );
    check_alignment(c, at, loader.align, loader.v_align);
    c.int_min(&format!("{at}frame"), loader.frame.get(), 0.0);
    c.color(&format!("{at}color"), &loader.color);
    check_fill(
        c,
        at,
        loader.fill_method,
        loader.fill_origin,
        loader.fill_clockwise,
        loader.fill_amount,
    );
}

fn check_loader3d(c: &mut Checker<'_, '_>, at: &str, loader: &Loader3DProperties) {
    c.int_in(
        &format!("{at}fill"),
        f64::from(loader.fill),
        0.0,
        5.0,
        LOADER_FILL,
    );
    check_alignment(c, at, loader.align, loader.v_align);
    c.int_min(&format!("{at}frame"), loader.frame.get(), 0.0);
    c.color(&format!("{at}color"), &loader.color);
}

fn check_alignment(c: &mut Checker<'_, '_>, at: &str, align: i32, v_align: i32) {
    c.int_in(
        &format!("{at}align"),
        f64::from(align),
        0.0,
        2.0,
        "0 left, 1 center, 2 right",
    );
    c.int_in(
        &format!("{at}vAlign"),
        f64::from(v_align),
        0.0,
        2.0,
        "0 top, 1 middle, 2 bottom",
    );
}

fn check_list(
    c: &mut Checker<'_, '_>,
    at: &str,
    list: &ListProperties,
    tree: Option<&TreeExtras>,
    is_tree: bool,
) {
    c.int_in(
        &format!("{at}layout"),
        f64::from(list.layout),
        0.0,
        4.0,
        "0 single column, 1 single row, 2 flow horizontal, 3 flow vertical, 4 pagination",
    );
    check_alignment(c, at, list.align, list.v_align);
    c.int_min(&format!("{at}lineCount"), list.line_count.get(), 0.0);
    c.int_min(&format!("{at}columnCount"), list.column_count.get(), 0.0);
    let id = c.node_id.clone();
    let (lines, columns) = (list.line_count.get(), list.column_count.get());
    let counts = match list.layout {
        0 | 1 => [("lineCount", lines), ("columnCount", columns)]
            .into_iter()
            .filter(|(_, v)| *v != 0.0)
            .collect::<Vec<_>>(),
        2 => vec![("lineCount", lines)]
            .into_iter()
            .filter(|(_, v)| *v != 0.0)
            .collect(),
        3 => vec![("columnCount", columns)]
            .into_iter()
            .filter(|(_, v)| *v != 0.0)
            .collect(),
        _ => Vec::new(),
    };
    for (name, value) in counts {
        c.payload(
            &format!("{at}{name}"),
            format!(
                "Node {id} has layout {}, which does not use {name} (it is {value}); set it to 0. Flow horizontal uses columnCount, flow vertical lineCount, pagination both.",
                list.layout
            ),
        );
    }
    c.int_in(
        &format!("{at}selectionMode"),
        f64::from(list.selection_mode),
        0.0,
        3.0,
        "0 single, 1 multiple, 2 multiple single-click, 3 none",
    );
    c.int_in(
        &format!("{at}childrenRenderOrder"),
        f64::from(list.children_render_order),
        0.0,
        2.0,
        "0 ascent, 1 descent, 2 arch",
    );
    c.integer(&format!("{at}apexIndex"), list.apex_index.get());
    if list.children_render_order != 2 && list.apex_index.get() != 0.0 {
        c.payload(
            &format!("{at}apexIndex"),
            format!(
                "Node {id} has apexIndex {} but childrenRenderOrder {}; apexIndex only applies to the arch order (2), so set it to 0.",
                list.apex_index.get(),
                list.children_render_order
            ),
        );
    }
    c.int_in(
        &format!("{at}overflow"),
        f64::from(list.overflow),
        0.0,
        2.0,
        "0 visible, 1 hidden, 2 scroll",
    );
    c.int_in(
        &format!("{at}scrollType"),
        f64::from(list.scroll_type),
        0.0,
        2.0,
        "0 horizontal, 1 vertical, 2 both",
    );
    c.int_in(
        &format!("{at}scrollBarDisplay"),
        f64::from(list.scroll_bar_display),
        0.0,
        3.0,
        "0 default, 1 visible, 2 auto, 3 hidden",
    );
    c.int_min(
        &format!("{at}scrollBarFlags"),
        f64::from(list.scroll_bar_flags),
        0.0,
    );
    for (k, item) in list.list_items.iter().enumerate() {
        c.int_min(&format!("{at}listItems[{k}].level"), item.level.get(), 0.0);
        if let Some(overrides) = &item.property_overrides {
            check_overrides(
                c,
                &format!("{at}listItems[{k}].propertyOverrides"),
                overrides,
            );
        }
        if is_tree && item.is_folder.is_none() {
            c.payload(
                &format!("{at}listItems[{k}].isFolder"),
                format!("Item {k} of tree node {id} needs isFolder true or false."),
            );
        }
    }
    match (tree, is_tree) {
        (Some(tree), true) => {
            if !tree.tree_view {
                c.payload(
                    &format!("{at}treeView"),
                    format!("Node {id} is a tree, so treeView must be true."),
                );
            }
            c.non_negative(&format!("{at}indent"), tree.indent.get());
            c.int_in(
                &format!("{at}clickToExpand"),
                f64::from(tree.click_to_expand),
                0.0,
                2.0,
                "0 none, 1 single click, 2 double click",
            );
        }
        (None, true) => c.payload(
            at.trim_end_matches('.'),
            format!(
                "Node {id} is a tree: its list snapshot must also carry treeView (true), indent and clickToExpand."
            ),
        ),
        (Some(_), false) => c.fail(
            Code::UnsupportedDisplayNodeField,
            &format!("{at}treeView"),
            format!(
                "Node {id} is a list, not a tree; remove treeView, indent and clickToExpand."
            ),
        ),
        (None, false) => {}
    }
}

fn check_overrides(c: &mut Checker<'_, '_>, at: &str, overrides: &[ComponentPropertyOverride]) {
    for (k, property) in overrides.iter().enumerate() {
        if property.target.is_empty() {
            c.payload(
                &format!("{at}[{k}].target"),
                format!(
                    "Property override {k} of node {} has an empty target; name the node of the instantiated component it overrides.",
                    c.node_id
                ),
            );
        }
        c.int_min(
            &format!("{at}[{k}].propertyId"),
            f64::from(property.property_id),
            0.0,
        );
    }
}

fn check_instance(c: &mut Checker<'_, '_>, at: &str, instance: &InstanceProperties) {
    match instance {
        InstanceProperties::Button {
            title_color,
            sound,
            sound_volume_scale,
            ..
        }
        | InstanceProperties::Label {
            title_color,
            sound,
            sound_volume_scale,
            ..
        } => {
            c.optional_color(&format!("{at}titleColor"), title_color);
            c.sound(&format!("{at}sound"), sound);
            c.unit(&format!("{at}soundVolumeScale"), sound_volume_scale.get());
        }
        InstanceProperties::ComboBox {
            title_color,
            popup_direction,
            sound,
            sound_volume_scale,
            visible_item_count,
            ..
        } => {
            c.optional_color(&format!("{at}titleColor"), title_color);
            c.int_in(
                &format!("{at}popupDirection"),
                f64::from(*popup_direction),
                0.0,
                2.0,
                "0 auto, 1 up, 2 down",
            );
            c.sound(&format!("{at}sound"), sound);
            c.unit(&format!("{at}soundVolumeScale"), sound_volume_scale.get());
            c.non_negative(&format!("{at}visibleItemCount"), visible_item_count.get());
        }
        InstanceProperties::ProgressBar {
            sound,
            sound_volume_scale,
            ..
        } => {
            c.sound(&format!("{at}sound"), sound);
            c.unit(&format!("{at}soundVolumeScale"), sound_volume_scale.get());
        }
        InstanceProperties::Slider { .. } | InstanceProperties::ScrollBar {} => {}
    }
}

fn check_title_control(c: &mut Checker<'_, '_>, node: &TitleControlNode) {
    c.optional_color("titleColor", &node.title_color);
    c.sound("sound", &node.sound);
    c.unit("soundVolumeScale", node.sound_volume_scale.get());
}

// ------------------------------------------------------------------ applying props

fn apply_props(
    node: &mut DisplayNode,
    props: &DisplayNodePropsUpdate,
    project: &UamProject,
    owner: &str,
) {
    let base = node.base_mut();
    if let Some(v) = &props.position {
        base.position = v.clone();
    }
    if let Some(v) = &props.size {
        base.size = v.clone();
    }
    if let Some(v) = props.locked {
        base.locked = v;
    }
    if let Some(v) = props.aspect {
        base.aspect = v;
    }
    if let Some(v) = &props.min_size {
        base.min_size = v.clone();
    }
    if let Some(v) = &props.max_size {
        base.max_size = v.clone();
    }
    if let Some(v) = &props.pivot {
        base.pivot = Some(v.clone());
    }
    if let Some(v) = props.pivot_as_anchor {
        base.pivot_as_anchor = Some(v);
    }
    if let Some(v) = &props.scale {
        base.scale = v.clone();
    }
    if let Some(v) = &props.skew {
        base.skew = v.clone();
    }
    if let Some(v) = props.visible {
        base.visible = v;
    }
    if let Some(v) = props.touchable {
        base.touchable = v;
    }
    if let Some(v) = props.grayed {
        base.grayed = v;
    }
    if let Some(v) = props.alpha {
        base.alpha = v;
    }
    if let Some(v) = props.rotation {
        base.rotation = v;
    }
    if let Some(v) = &props.tooltips {
        base.tooltips = v.clone();
    }
    if let Some(v) = &props.blend_mode {
        base.blend_mode = v.clone();
    }
    if let Some(v) = &props.filter {
        base.filter = v.clone();
    }
    if let Some(v) = &props.filter_data {
        base.filter_data = v.clone();
    }
    if let Some(v) = &props.custom_data {
        base.custom_data = v.clone();
    }
    if let Some(v) = &props.group {
        base.group = Some(v.clone());
    }

    let text = match node {
        DisplayNode::Text(n) => Some(&mut n.text),
        DisplayNode::RichText(n) => Some(&mut n.text),
        DisplayNode::TextInput(n) => Some(&mut n.text),
        _ => None,
    };
    if let Some(text) = text {
        if let Some(v) = &props.text {
            text.text = v.clone();
        }
        if let Some(v) = &props.font {
            text.font = v.clone();
        }
        if let Some(v) = props.font_size {
            text.font_size = v;
        }
        if let Some(v) = &props.color {
            text.color = v.clone();
        }
        if let Some(update) = &props.text_properties {
            *text = update.text.clone();
        }
    }
    match node {
        DisplayNode::Text(n) => {
            if let Some(plain) = props
                .text_properties
                .as_ref()
                .and_then(|u| u.plain.as_ref())
            {
                n.plain = plain.clone();
            }
        }
        DisplayNode::TextInput(n) => {
            if let Some(update) = &props.text_properties {
                if let Some(plain) = &update.plain {
                    n.plain = plain.clone();
                }
                if let Some(input) = &update.input {
                    n.prompt_text = input.prompt_text.clone();
                    n.max_length = input.max_length;
                    n.restrict = input.restrict.clone();
                    n.password = input.password;
                    n.keyboard_type = input.keyboard_type;
                }
            }
        }
        DisplayNode::Image(n) => {
            if let Some(v) = &props.image_properties {
                if let Some(resource) = &v.resource {
                    n.resource = retarget(&n.resource, resource, owner);
                }
                n.props = v.image.clone();
            }
        }
        DisplayNode::MovieClip(n) => {
            if let Some(v) = &props.movie_clip_properties {
                if let Some(resource) = &v.resource {
                    n.resource = retarget(&n.resource, resource, owner);
                    n.file_name = match (
                        &v.file_name,
                        resolve(
                            project,
                            owner,
                            resource.package_id.as_deref(),
                            &resource.resource_id,
                        ),
                    ) {
                        (Some(file_name), _) => file_name.clone(),
                        (None, Some(target)) => format!(
                            "{}{}",
                            resource_folder(target).trim_start_matches('/'),
                            target.primary_file()
                        ),
                        (None, None) => n.file_name.clone(),
                    };
                }
                n.props = v.clip.clone();
            }
        }
        DisplayNode::Graph(n) => {
            if let Some(v) = &props.graph_properties {
                n.props = v.clone();
            }
        }
        DisplayNode::Group(n) => {
            if let Some(v) = &props.group_properties {
                n.props = v.clone();
            }
        }
        DisplayNode::Loader(n) => {
            if let Some(v) = &props.loader_properties {
                n.props = v.clone();
            }
        }
        DisplayNode::Loader3D(n) => {
            if let Some(v) = &props.loader3d_properties {
                n.props = v.clone();
            }
        }
        DisplayNode::List(n) => {
            if let Some(v) = &props.list_properties {
                n.list = v.list.clone();
            }
        }
        DisplayNode::Tree(n) => {
            if let Some(v) = &props.list_properties {
                n.list = v.list.clone();
                if let Some(tree) = &v.tree {
                    n.tree = tree.clone();
                }
            }
        }
        DisplayNode::Component(n) => {
            if let Some(v) = &props.component_instance_properties {
                n.instance_properties = v.clone();
            }
        }
        _ => {}
    }
}
