//! The value rules of a node payload: the base fields every node has, then each node
//! kind's own block, for `setDisplayNodeProps` (snapshots under their key) and
//! `attachDisplayNode` (the same fields flattened into the node).

use ofgui_contracts::Num;
use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::ops::DisplayNodePropsUpdate;
use ofgui_contracts::uam::{
    ComponentPropertyOverride, DisplayNode, GraphProperties, GroupProperties, ImageProperties,
    InstanceProperties, ListProperties, Loader3DProperties, LoaderProperties, MovieClipProperties,
    NodeBase, Point, ResourceRef, Size, TextProperties, TitleControlNode, TreeExtras, UamProject,
    UamResource,
};

use super::checker::Checker;
use crate::rules::{BLEND_MODES, is_unit, with_article};

/// Node kinds the text fields apply to.
pub(super) const TEXT_KINDS: [&str; 3] = ["text", "richText", "textInput"];

/// The resource a node points at: `packageId` (empty means the owning package) and id.
pub(super) fn resolve<'p>(
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

/// The `setDisplayNodeProps` snapshot key of a node kind.
pub(super) fn snapshot_key(kind: &str) -> Option<&'static str> {
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

/// The base fields with value rules; `None` when the request leaves one alone.
pub(super) struct BaseValues<'a> {
    pub(super) position: Option<&'a Point>,
    pub(super) rotation: Option<Num>,
    pub(super) scale: Option<&'a Point>,
    pub(super) skew: Option<&'a Point>,
    pub(super) pivot: Option<&'a Point>,
    pub(super) size: Option<&'a Size>,
    pub(super) min_size: Option<&'a Size>,
    pub(super) max_size: Option<&'a Size>,
    pub(super) alpha: Option<Num>,
    pub(super) blend_mode: Option<&'a str>,
    pub(super) filter: Option<&'a str>,
    pub(super) filter_data: Option<&'a str>,
}

pub(super) fn check_base(c: &mut Checker<'_, '_>, values: &BaseValues<'_>, current: &NodeBase) {
    if let Some(position) = values.position {
        c.geometry("position", &[position.x, position.y]);
    }
    if let Some(rotation) = values.rotation {
        c.float("rotation", &[rotation]);
    }
    for (field, point) in [
        ("scale", values.scale),
        ("skew", values.skew),
        ("pivot", values.pivot),
    ] {
        if let Some(point) = point {
            c.float(field, &[point.x, point.y]);
        }
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

pub(super) fn check_snapshots(
    c: &mut Checker<'_, '_>,
    node: &DisplayNode,
    props: &DisplayNodePropsUpdate,
    instance: Option<&Option<InstanceProperties>>,
    project: &UamProject,
    owner: &str,
) {
    let kind = node.kind();
    if let Some(update) = &props.text_properties
        && fits(c, kind, "textProperties", &TEXT_KINDS)
    {
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
                    "textProperties of {} node is a complete snapshot: add demoText, templateVarsEnabled and faceDilate (read the node's current values with queryEntity).",
                    with_article(kind)
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
                    "Node {} is {} node; promptText, maxLength, restrict, password and keyboardType belong to textInput nodes only. Remove them from textProperties.",
                    c.node_id,
                    with_article(kind)
                ),
            ),
            (None, _) => {}
        }
    }
    if let Some(update) = &props.image_properties
        && fits(c, kind, "imageProperties", &["image"])
    {
        check_image(c, "imageProperties.", &update.image);
        if let Some(resource) = &update.resource {
            check_image_ref(c, owner, "imageProperties.", resource);
        }
    }
    if let Some(update) = &props.movie_clip_properties
        && fits(c, kind, "movieClipProperties", &["movieClip"])
    {
        check_movie_clip(c, "movieClipProperties.", &update.clip);
        match (&update.resource, &update.file_name) {
            (Some(_), _) => {}
            (None, Some(_)) => c.payload(
                "movieClipProperties.fileName",
                format!(
                    "movieClipProperties.fileName names the file of the clip's resource; send it only together with resource, when retargeting node {}.",
                    c.node_id
                ),
            ),
            (None, None) => {}
        }
    }
    if let Some(graph) = &props.graph_properties
        && fits(c, kind, "graphProperties", &["graph"])
    {
        check_graph(c, "graphProperties.", graph);
    }
    if let Some(group) = &props.group_properties
        && fits(c, kind, "groupProperties", &["group"])
    {
        check_group(c, "groupProperties.", group);
    }
    if let Some(loader) = &props.loader_properties
        && fits(c, kind, "loaderProperties", &["loader"])
    {
        check_loader(c, "loaderProperties.", loader);
    }
    if let Some(update) = &props.list_properties
        && fits(c, kind, "listProperties", &["list", "tree"])
    {
        let tree = update.tree.as_ref();
        check_list(c, "listProperties.", &update.list, tree, kind == "tree");
    }
    if let Some(loader) = &props.loader3d_properties
        && fits(c, kind, "loader3DProperties", &["loader3D"])
    {
        check_loader3d(c, "loader3DProperties.", loader);
    }
    if props.component_instance_properties.is_some() {
        fits(c, kind, "componentInstanceProperties", &["component"]);
    }
    if let (DisplayNode::Component(n), Some(Some(instance))) = (node, instance) {
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

/// Whether the snapshot under `key` fits a node of `kind` (one of `kinds`); reports it
/// when it does not.
fn fits(c: &mut Checker<'_, '_>, kind: &str, key: &str, kinds: &[&str]) -> bool {
    if kinds.contains(&kind) {
        return true;
    }
    let hint = match snapshot_key(kind) {
        Some(own) => format!("its snapshot key is {own}"),
        None => "it has no per-kind snapshot, only the base fields".to_string(),
    };
    let fits = match kinds {
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => String::new(),
    };
    // Text fields have their own code (upstream's), every other snapshot the generic one.
    let code = if key == "textProperties" {
        Code::UnsupportedTextFieldTarget
    } else {
        Code::UnsupportedDisplayNodeField
    };
    c.fail(
        code,
        key,
        format!(
            "{key} applies only to {fits} nodes, but node {} is {} node; {hint}.",
            c.node_id,
            with_article(kind)
        ),
    );
    false
}

/// The values of a node being attached, by kind, with its resource reference.
pub(super) fn check_node_kind(
    c: &mut Checker<'_, '_>,
    node: &DisplayNode,
    project: &UamProject,
    owner: &str,
) {
    match node {
        DisplayNode::Image(n) => {
            check_image_ref(c, owner, "", &n.resource);
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
            check_movie_clip(c, "", &n.props);
        }
        DisplayNode::Button(n) | DisplayNode::Label(n) | DisplayNode::ComboBox(n) => {
            check_flat_ref(c, project, owner, &n.package_id, &n.src);
            check_title_control(c, n);
        }
        DisplayNode::ProgressBar(n) | DisplayNode::Slider(n) | DisplayNode::ScrollBar(n) => {
            check_flat_ref(c, project, owner, &n.package_id, &n.src);
        }
    }
}

/// An image node shows an image of its own package (upstream's support rule). That the
/// image exists is validation's reference rule, judged on the final state.
fn check_image_ref(c: &mut Checker<'_, '_>, owner: &str, at: &str, resource: &ResourceRef) {
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
    }
}

/// A component instance whose component is not (yet) there: the final state judges it,
/// as `invalid_component_reference` at the field that names it. That it is a component,
/// and that it does not contain itself directly or through others, are validation's
/// rules.
fn check_component_ref(
    c: &mut Checker<'_, '_>,
    project: &UamProject,
    owner: &str,
    package_id: Option<&str>,
    resource_id: &str,
    (package_sub, resource_sub): (&str, &str),
) {
    let package_id = package_id.filter(|id| !id.is_empty()).unwrap_or(owner);
    if !project.packages.iter().any(|p| p.id == package_id) {
        c.deferred.push(package_sub.to_string());
    } else if resolve(project, owner, Some(package_id), resource_id)
        .is_none_or(|found| found.kind() != "component")
    {
        c.deferred.push(resource_sub.to_string());
    }
}

fn check_flat_ref(
    c: &mut Checker<'_, '_>,
    project: &UamProject,
    owner: &str,
    package_id: &str,
    src: &str,
) {
    check_component_ref(
        c,
        project,
        owner,
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
    let given = instance.extension_type();
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
    let content = (loader.fill, loader.align, loader.v_align, loader.frame);
    check_loaded_content(c, at, content, &loader.color);
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
    let content = (loader.fill, loader.align, loader.v_align, loader.frame);
    check_loaded_content(c, at, content, &loader.color);
}

/// How a loader (2-D or 3-D) fits, aligns, animates and tints what it loads.
fn check_loaded_content(
    c: &mut Checker<'_, '_>,
    at: &str,
    (fill, align, v_align, frame): (i32, i32, i32, Num),
    color: &str,
) {
    c.int_in(&format!("{at}fill"), f64::from(fill), 0.0, 5.0, LOADER_FILL);
    check_alignment(c, at, align, v_align);
    c.int_min(&format!("{at}frame"), frame.get(), 0.0);
    c.color(&format!("{at}color"), color);
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
