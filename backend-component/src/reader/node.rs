//! Reads one `<displayList>` child element (and its relations, gears, items and instance
//! properties) into a display node.
//!
//! Defaults are the FairyGUI editor's: an attribute the editor leaves out because it
//! holds the default value reads back as that value.

use ofgui_contracts::Num;
use ofgui_contracts::diagnostics::ProjectDiagnosticCode;
use ofgui_contracts::uam::{
    ComboItem, ComponentNode, ComponentPropertyOverride, DisplayNode, GraphNode, GraphProperties,
    GroupNode, GroupProperties, ImageNode, ImageProperties, InstanceProperties, ListItem, ListNode,
    ListProperties, Loader3DNode, Loader3DProperties, LoaderNode, LoaderProperties, MovieClipNode,
    MovieClipProperties, NodeBase, PlainTextExtras, Point, Relation, ResourceRef, RichTextNode,
    Size, TextInputNode, TextNode, TextProperties, TreeExtras, TreeNode, UnsupportedNode,
};
use roxmltree::Node;

use super::diag::Scope;
use super::gear;
use super::values::{Attrs, lookup, parse_num};
use crate::rules::enums::{
    ALIGN, AUTO_SIZE, FILL_METHOD, FLIP, GRAPH_TYPE, GROUP_LAYOUT, LIST_LAYOUT, LOADER_FILL,
    OVERFLOW, POPUP_DIRECTION, RENDER_ORDER, SCROLL, SCROLL_BAR, SELECTION_MODE, VALIGN,
};
use crate::rules::{BLEND_MODES, RELATION_TYPES};

/// A node whose `size` attribute is absent: the editor leaves it out when the node has
/// its resource's own size, so the caller fills it in once every package is read.
#[derive(Debug, Clone)]
pub(crate) struct SizeRef {
    pub node_index: usize,
    pub package_id: Option<String>,
    pub resource_id: String,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Image,
    Text,
    RichText,
    TextInput,
    Component,
    List,
    Tree,
    Graph,
    Group,
    Loader,
    Loader3D,
    MovieClip,
}

fn kind_of(el: Node) -> Option<Kind> {
    let tag = el.tag_name().name();
    let flag = |name: &str| {
        el.attribute(name)
            .and_then(super::values::parse_bool)
            .unwrap_or(false)
    };
    let kind = match tag.to_ascii_lowercase().as_str() {
        "image" => Kind::Image,
        "text" if flag("input") => Kind::TextInput,
        "text" => Kind::Text,
        "richtext" => Kind::RichText,
        "inputtext" => Kind::TextInput,
        "component" => Kind::Component,
        "list" if flag("treeView") => Kind::Tree,
        "list" => Kind::List,
        "tree" => Kind::Tree,
        "graph" => Kind::Graph,
        "group" => Kind::Group,
        "loader" => Kind::Loader,
        "loader3d" => Kind::Loader3D,
        "movieclip" | "jta" => Kind::MovieClip,
        _ => return None,
    };
    Some(kind)
}

/// Display-list elements the FairyGUI editor writes that the model has no kind for: the
/// legacy `<swf>` (Flash content; the binary format's object type 2).
const UNMODELED: [&str; 1] = ["swf"];

/// An element the editor writes but the model has no kind for, as `unsupportedNodes[k]`
/// (`element_index` counts every element of the display list). A project holding one is
/// valid, so it is a warning; the element stays in the file and its id stays taken.
pub(crate) fn read_unmodeled(
    el: Node,
    k: usize,
    element_index: usize,
    scope: &mut Scope,
) -> Option<UnsupportedNode> {
    let element = el.tag_name().name();
    if !UNMODELED.contains(&element.to_ascii_lowercase().as_str()) {
        return None;
    }
    let id = el.attribute("id").unwrap_or_default();
    scope.warning(
        ProjectDiagnosticCode::InvalidComponentXml,
        &format!(".unsupportedNodes[{k}]"),
        Some(id),
        format!(
            "display list element <{element}> (node {id:?}) is a legacy node kind the FairyGUI editor writes but this server does not model; it stays in the file as it is and its id stays taken, but it is not in the display list and can only be edited in the FairyGUI editor"
        ),
    );
    Some(UnsupportedNode {
        element: element.to_owned(),
        id: id.to_owned(),
        name: el.attribute("name").unwrap_or_default().to_owned(),
        index: u32::try_from(element_index).unwrap_or(u32::MAX),
    })
}

/// Reads the display node at model index `index`. An unknown tag is reported as
/// `invalid_component_xml` and skipped.
pub(crate) fn read_node(
    el: Node,
    index: usize,
    scope: &mut Scope,
) -> Option<(DisplayNode, Option<SizeRef>)> {
    let at = format!(".displayList[{index}]");
    let id = el.attribute("id").unwrap_or_default();
    let Some(kind) = kind_of(el) else {
        scope.error(
            ProjectDiagnosticCode::InvalidComponentXml,
            &at,
            Some(id),
            format!(
                "unsupported display list element <{}>",
                el.tag_name().name()
            ),
        );
        return None;
    };

    let mut a = Attrs::new(el, scope, &at).for_node(id);
    // The flags that chose the kind: a malformed one is reported like any value (the
    // kind is then the one the flag's default gives).
    for flag in ["input", "treeView"] {
        a.bool(flag, false);
    }
    let (mut base, size) = read_base(&mut a, kind);
    let size_ref = match (size, kind) {
        (Some(size), _) => {
            base.size = size;
            None
        }
        (None, Kind::Image | Kind::MovieClip | Kind::Component) => a
            .raw("src")
            .filter(|src| !src.is_empty())
            .map(|src| SizeRef {
                node_index: index,
                package_id: package_attr(&a),
                resource_id: src.to_owned(),
            }),
        (None, _) => None,
    };

    let mut node = match kind {
        Kind::Image => DisplayNode::Image(read_image(&mut a, base)),
        Kind::Text => DisplayNode::Text(TextNode {
            text: read_text(&mut a),
            plain: read_plain_text(&mut a),
            base,
        }),
        Kind::RichText => DisplayNode::RichText(RichTextNode {
            text: read_text(&mut a),
            base,
        }),
        Kind::TextInput => DisplayNode::TextInput(read_text_input(&mut a, base)),
        Kind::Component => DisplayNode::Component(ComponentNode {
            resource: resource_ref(&a),
            file_name: a.opt_string("fileName"),
            instance_properties: None,
            property_overrides: None,
            controller_overrides: a.opt_string("controller"),
            page_controller: a.opt_string("pageController"),
            base,
        }),
        Kind::List => DisplayNode::List(ListNode {
            list: read_list(&mut a),
            explicit_margin: a.has("margin"),
            base,
        }),
        Kind::Tree => DisplayNode::Tree(TreeNode {
            list: read_list(&mut a),
            tree: TreeExtras {
                tree_view: true,
                indent: a.num("indent", 15.0),
                click_to_expand: a.int("clickToExpand", 0),
            },
            explicit_margin: a.has("margin"),
            base,
        }),
        Kind::Graph => DisplayNode::Graph(read_graph(&mut a, base)),
        Kind::Group => DisplayNode::Group(read_group(&mut a, base)),
        Kind::Loader => DisplayNode::Loader(read_loader(&mut a, base)),
        Kind::Loader3D => DisplayNode::Loader3D(read_loader3d(&mut a, base)),
        Kind::MovieClip => DisplayNode::MovieClip(MovieClipNode {
            resource: resource_ref(&a),
            file_name: a.string("fileName"),
            props: MovieClipProperties {
                playing: a.bool("playing", true),
                frame: a.num("frame", 0.0),
                color: a.color("color", "#ffffff"),
            },
            base,
        }),
    };
    read_children(el, &mut node, scope, &at, id);
    Some((node, size_ref))
}

fn package_attr(a: &Attrs) -> Option<String> {
    a.raw("pkg").filter(|p| !p.is_empty()).map(str::to_owned)
}

fn resource_ref(a: &Attrs) -> ResourceRef {
    ResourceRef {
        package_id: package_attr(a),
        resource_id: a.string("src"),
    }
}

/// The common attributes; the size is returned apart because an absent size is resolved
/// later from the referenced resource.
fn read_base(a: &mut Attrs, kind: Kind) -> (NodeBase, Option<Size>) {
    let size = a.size("size");
    let (min_size, max_size) = a.restrict_size("restrictSize");
    // Graphs and loaders always carry a pivot in the model; other kinds only when set.
    let pivot_always = matches!(kind, Kind::Graph | Kind::Loader);
    let (pivot, pivot_as_anchor) = if pivot_always || a.has("pivot") {
        (
            Some(a.point("pivot", (0.0, 0.0))),
            Some(a.bool("anchor", false)),
        )
    } else {
        (None, None)
    };
    let blend_mode = a.string_or("blend", "normal");
    if !BLEND_MODES.contains(&blend_mode.as_str()) {
        a.report(
            "blend",
            format!("attribute blend=\"{blend_mode}\" is not a known blend mode"),
        );
    }
    // Loaders have no group in the model; keep one only if the file sets it.
    let group = match kind {
        Kind::Loader | Kind::Loader3D => a.opt_string("group"),
        _ => Some(a.string("group")),
    };
    let base = NodeBase {
        id: a.string("id"),
        name: a.string("name"),
        position: a.point("xy", (0.0, 0.0)),
        size: Size::default(),
        // The file's own fact, whatever the value reads as: an absent size is resolved
        // from the resource, and the editor publishes only a size the file writes.
        explicit_size: a.has("size"),
        locked: a.bool("locked", false),
        aspect: a.bool("aspect", false),
        min_size,
        max_size,
        pivot,
        pivot_as_anchor,
        scale: a.point("scale", (1.0, 1.0)),
        skew: a.point("skew", (0.0, 0.0)),
        visible: a.bool("visible", true),
        touchable: a.bool("touchable", true),
        grayed: a.bool("grayed", false),
        alpha: a.num("alpha", 1.0),
        rotation: a.num("rotation", 0.0),
        tooltips: a.string("tooltips"),
        blend_mode,
        filter: a.string("filter"),
        filter_data: a.string("filterData"),
        custom_data: a.string("customData"),
        group,
        relations: Vec::new(),
        gears: Vec::new(),
    };
    (base, size)
}

/// `(fillMethod, fillOrigin, fillClockwise, fillAmount)`; with no fill the model wants
/// origin 0, clockwise and amount 100, otherwise the amount is the 0..1 fraction.
fn read_fill(a: &mut Attrs) -> (i32, i32, bool, Num) {
    let method = a.enumeration("fillMethod", FILL_METHOD, 0);
    if method == 0 {
        return (0, 0, true, Num(100.0));
    }
    let origin = a.int("fillOrigin", 0);
    let clockwise = a.bool("fillClockwise", true);
    let amount = a.f64("fillAmount", 100.0) / 100.0;
    (method, origin, clockwise, Num(amount))
}

fn read_image(a: &mut Attrs, base: NodeBase) -> ImageNode {
    let (fill_method, fill_origin, fill_clockwise, fill_amount) = read_fill(a);
    ImageNode {
        resource: resource_ref(a),
        props: ImageProperties {
            color: a.color("color", "#ffffff"),
            flip: a.enumeration("flip", FLIP, 0),
            fill_method,
            fill_origin,
            fill_clockwise,
            fill_amount,
        },
        base,
    }
}

fn read_text(a: &mut Attrs) -> TextProperties {
    // Without a stroke or shadow colour the model pins size 1 and offset 0,0.
    let (stroke_color, stroke_size) = match a.opt_color("strokeColor") {
        Some(color) => (Some(color), a.num("strokeSize", 1.0)),
        None => (None, Num(1.0)),
    };
    let (shadow_color, shadow_offset) = match a.opt_color("shadowColor") {
        Some(color) => (Some(color), a.point("shadowOffset", (1.0, 1.0))),
        None => (None, Point::default()),
    };
    TextProperties {
        text: a.string("text"),
        font: a.string("font"),
        font_size: a.num("fontSize", 12.0),
        color: a.color("color", "#000000"),
        align: a.enumeration("align", ALIGN, 0),
        v_align: a.enumeration("vAlign", VALIGN, 0),
        leading: a.num("leading", 3.0),
        letter_spacing: a.num("letterSpacing", 0.0),
        auto_size: a.enumeration("autoSize", AUTO_SIZE, 1),
        single_line: a.bool("singleLine", false),
        auto_clear_text: a.bool("autoClearText", false),
        outline_softness: a.num("outlineSoftness", 0.0),
        underlay_softness: a.num("underlaySoftness", 0.0),
        ubb_enabled: a.bool("ubb", false),
        underline: a.bool("underline", false),
        italic: a.bool("italic", false),
        bold: a.bool("bold", false),
        strikethrough: a.bool("strikethrough", false),
        stroke_color,
        stroke_size,
        shadow_color,
        shadow_offset,
    }
}

fn read_plain_text(a: &mut Attrs) -> PlainTextExtras {
    PlainTextExtras {
        demo_text: a.string("demoText"),
        template_vars_enabled: a.bool("vars", false),
        face_dilate: a.num("faceDilate", 0.0),
    }
}

fn read_text_input(a: &mut Attrs, base: NodeBase) -> TextInputNode {
    TextInputNode {
        text: read_text(a),
        plain: read_plain_text(a),
        prompt_text: a
            .raw_any(&["prompt", "promptText"])
            .unwrap_or_default()
            .to_owned(),
        max_length: a.num("maxLength", 0.0),
        restrict: a.string("restrict"),
        password: a.bool("password", false),
        keyboard_type: a.int("keyboardType", 0),
        base,
    }
}

/// Splits `a,b` into two strings (`scrollBarRes`, `ptrRes`).
fn pair(raw: Option<&str>) -> (String, String) {
    match raw {
        None => (String::new(), String::new()),
        Some(raw) => match raw.split_once(',') {
            Some((first, second)) => (first.to_owned(), second.to_owned()),
            None => (raw.to_owned(), String::new()),
        },
    }
}

/// The first present alias, or the canonical name.
fn alias<'n>(a: &Attrs, names: &[&'n str]) -> &'n str {
    names
        .iter()
        .copied()
        .find(|name| a.has(name))
        .unwrap_or(names[0])
}

fn read_list(a: &mut Attrs) -> ListProperties {
    let layout = a.enumeration("layout", LIST_LAYOUT, 0);
    // `lineItemCount` counts columns for flow_hz and pagination, rows for flow_vt;
    // `lineItemCount2` counts pagination rows.
    let line_item_count = a.num("lineItemCount", 0.0);
    let line_item_count2 = a.num("lineItemCount2", 0.0);
    let (line_count, column_count) = match layout {
        2 => (Num::ZERO, line_item_count),
        3 => (line_item_count, Num::ZERO),
        4 => (line_item_count2, line_item_count),
        _ => (Num::ZERO, Num::ZERO),
    };
    let column_gap = alias(a, &["colGap", "columnGap"]);
    let auto_item_size = alias(a, &["autoItemSize", "autoResizeItem"]);
    let (vt_scroll_bar_res, hz_scroll_bar_res) = pair(a.raw("scrollBarRes"));
    let (header_res, footer_res) = pair(a.raw("ptrRes"));
    ListProperties {
        layout,
        align: a.enumeration("align", ALIGN, 0),
        v_align: a.enumeration("vAlign", VALIGN, 0),
        line_gap: a.num("lineGap", 0.0),
        column_gap: a.num(column_gap, 0.0),
        line_count,
        column_count,
        selection_mode: a.enumeration("selectionMode", SELECTION_MODE, 0),
        default_item: a.string("defaultItem"),
        // The editor sizes items to the list only for single row/column layouts.
        auto_resize_item: a.bool(auto_item_size, layout <= 1),
        children_render_order: a.enumeration("renderOrder", RENDER_ORDER, 0),
        apex_index: a.num("apex", 0.0),
        src: a.string("src"),
        overflow: a.enumeration("overflow", OVERFLOW, 0),
        scroll_type: a.enumeration("scroll", SCROLL, 1),
        scroll_bar_display: a.enumeration("scrollBar", SCROLL_BAR, 0),
        scroll_bar_flags: a.int("scrollBarFlags", 0),
        scroll_bar_margin: a.insets("scrollBarMargin"),
        vt_scroll_bar_res,
        hz_scroll_bar_res,
        header_res,
        footer_res,
        margin: a.insets("margin"),
        clip_softness: a.point("clipSoftness", (0.0, 0.0)),
        scroll_item_to_view_on_click: a.bool("scrollItemToViewOnClick", true),
        fold_invisible_items: a.bool("foldInvisibleItems", false),
        auto_clear_items: a.bool("autoClearItems", false),
        list_items: Vec::new(),
        page_controller: a.string("pageController"),
        controller_overrides: a.string("controller"),
        selection_controller: a.string("selectionController"),
    }
}

/// `corner="r"` or `"tl,tr,bl,br"`; missing corners repeat the first.
fn corner_radius(a: &mut Attrs) -> Option<Vec<Num>> {
    let raw = a.raw("corner").filter(|r| !r.trim().is_empty())?;
    let parts: Vec<Option<f64>> = raw
        .split(',')
        .map(|p| {
            if p.trim().is_empty() {
                Some(f64::NAN)
            } else {
                parse_num(p)
            }
        })
        .collect();
    let first = parts.first().copied().flatten().filter(|v| !v.is_nan());
    match first {
        Some(first) if parts.len() <= 4 && parts.iter().all(Option::is_some) => Some(
            (0..4)
                .map(|i| {
                    let v = parts.get(i).copied().flatten().unwrap_or(first);
                    Num(if v.is_nan() { first } else { v })
                })
                .collect(),
        ),
        _ => {
            a.report(
                "corner",
                format!("attribute corner=\"{raw}\" is not 1 to 4 comma-separated numbers"),
            );
            None
        }
    }
}

/// A comma list of numbers where an empty entry means `empty` (distances use 1).
fn number_list(a: &mut Attrs, name: &str, empty: f64) -> Option<Vec<Num>> {
    let raw = a.raw(name).filter(|r| !r.trim().is_empty())?;
    let parsed: Option<Vec<Num>> = raw
        .split(',')
        .map(|p| {
            if p.trim().is_empty() {
                Some(Num(empty))
            } else {
                parse_num(p).map(Num)
            }
        })
        .collect();
    if parsed.is_none() {
        a.report(
            name,
            format!("attribute {name}=\"{raw}\" is not a comma-separated number list"),
        );
    }
    parsed
}

fn read_graph(a: &mut Attrs, base: NodeBase) -> GraphNode {
    GraphNode {
        props: GraphProperties {
            graph_type: a.enumeration("type", GRAPH_TYPE, 0),
            line_size: a.num("lineSize", 1.0),
            line_color: a.color("lineColor", "#000000"),
            fill_color: a.color("fillColor", "#ffffff"),
            corner_radius: corner_radius(a),
            points: number_list(a, "points", 0.0),
            sides: a.num("sides", 0.0),
            start_angle: a.num("startAngle", 0.0),
            distances: number_list(a, "distances", 1.0),
        },
        base,
    }
}

fn read_group(a: &mut Attrs, base: NodeBase) -> GroupNode {
    let column_gap = alias(a, &["colGap", "columnGap"]);
    GroupNode {
        props: GroupProperties {
            layout: a.enumeration("layout", GROUP_LAYOUT, 0),
            line_gap: a.num("lineGap", 0.0),
            column_gap: a.num(column_gap, 0.0),
            advanced: a.bool("advanced", false),
            exclude_invisibles: a.bool("excludeInvisibles", false),
            auto_size_disabled: a.bool("autoSizeDisabled", false),
            main_grid_index: a.num("mainGridIndex", -1.0),
        },
        base,
    }
}

fn read_loader(a: &mut Attrs, base: NodeBase) -> LoaderNode {
    let (fill_method, fill_origin, fill_clockwise, fill_amount) = read_fill(a);
    LoaderNode {
        props: LoaderProperties {
            url: a.string("url"),
            fill: a.enumeration("fill", LOADER_FILL, 0),
            shrink_only: a.bool("shrinkOnly", false),
            auto_size: a.bool("autoSize", false),
            use_resize: a.bool("useResize", false),
            show_error_sign: a.bool("errorSign", false),
            align: a.enumeration("align", ALIGN, 0),
            v_align: a.enumeration("vAlign", VALIGN, 0),
            frame: a.num("frame", 0.0),
            playing: a.bool("playing", true),
            color: a.color("color", "#ffffff"),
            fill_method,
            fill_origin,
            fill_clockwise,
            fill_amount,
            clear_on_publish: a.bool("clearOnPublish", false),
        },
        base,
    }
}

fn read_loader3d(a: &mut Attrs, base: NodeBase) -> Loader3DNode {
    Loader3DNode {
        props: Loader3DProperties {
            url: a.string("url"),
            fill: a.enumeration("fill", LOADER_FILL, 0),
            shrink_only: a.bool("shrinkOnly", false),
            auto_size: a.bool("autoSize", false),
            align: a.enumeration("align", ALIGN, 0),
            v_align: a.enumeration("vAlign", VALIGN, 0),
            animation_name: a
                .raw_any(&["animation", "animationName"])
                .unwrap_or_default()
                .to_owned(),
            skin_name: a
                .raw_any(&["skin", "skinName"])
                .unwrap_or_default()
                .to_owned(),
            playing: a.bool("playing", true),
            frame: a.num("frame", 0.0),
            // The editor writes `loop` only when it is on.
            looping: a.bool("loop", false),
            color: a.color("color", "#ffffff"),
            clear_on_publish: a.bool("clearOnPublish", false),
        },
        base,
    }
}

/// Relations, gears, list items, instance properties and overrides, in document order.
fn read_children(el: Node, node: &mut DisplayNode, scope: &mut Scope, at: &str, id: &str) {
    let mut relations = Vec::new();
    let mut gears = Vec::new();
    let mut items = Vec::new();
    let mut overrides = Vec::new();
    let mut instance = None;
    for child in el.children().filter(Node::is_element) {
        let tag = child.tag_name().name();
        match tag {
            "relation" => relations.extend(read_relation(child, scope, at, Some(id))),
            t if gear::is_gear_tag(t) => {
                let gear_at = format!("{at}.gears[{}]", gears.len());
                gears.extend(gear::read_gear(child, scope, &gear_at, id))
            }
            "item" => {
                let item_at = format!("{at}.listItems[{}]", items.len());
                items.push(read_list_item(child, scope, &item_at, id));
            }
            "property" => {
                let prop_at = format!("{at}.propertyOverrides[{}]", overrides.len());
                overrides.push(read_override(child, scope, &prop_at, id));
            }
            "Button" | "Label" | "ComboBox" | "ProgressBar" | "Slider" | "ScrollBar"
                if instance.is_none() =>
            {
                instance = Some(read_instance(
                    child,
                    scope,
                    &format!("{at}.instanceProperties"),
                    id,
                ));
            }
            // Unknown XML is dropped, as upstream does.
            _ => {}
        }
    }
    match node {
        DisplayNode::Component(n) => {
            n.instance_properties = instance;
            n.property_overrides = (!overrides.is_empty()).then_some(overrides);
        }
        DisplayNode::List(n) => n.list.list_items = items,
        DisplayNode::Tree(n) => {
            infer_folders(&mut items);
            n.list.list_items = items;
        }
        _ => {}
    }
    let base = node.base_mut();
    base.relations = relations;
    base.gears = gears;
}

/// A tree item without `isFolder` is a folder when the next item is nested deeper,
/// which is how the editor publishes it.
fn infer_folders(items: &mut [ListItem]) {
    for i in 0..items.len() {
        if items[i].is_folder.is_none() {
            let level = items[i].level.get();
            let deeper = items
                .get(i + 1)
                .is_some_and(|next| next.level.get() > level);
            items[i].is_folder = Some(deeper);
        }
    }
}

/// `<relation target sidePair="left-left,right-right%">`: one relation per pair.
pub(crate) fn read_relation(
    el: Node,
    scope: &mut Scope,
    at: &str,
    node_id: Option<&str>,
) -> Vec<Relation> {
    let target = el.attribute("target").unwrap_or_default();
    let side_pair = el.attribute("sidePair").unwrap_or_default();
    let mut out = Vec::new();
    for pair in side_pair
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let (name, use_percent) = match pair.strip_suffix('%') {
            Some(name) => (name, true),
            None => (pair, false),
        };
        match lookup(RELATION_TYPES, name) {
            Some(relation_type) => out.push(Relation {
                target_node_id: target.to_owned(),
                relation_type,
                use_percent,
            }),
            None => scope.invalid_value(
                &format!("{at}.relations"),
                node_id,
                format!("unknown relation side pair \"{pair}\""),
            ),
        }
    }
    out
}

fn read_list_item(el: Node, scope: &mut Scope, at: &str, node_id: &str) -> ListItem {
    let mut overrides = Vec::new();
    for (i, child) in el
        .children()
        .filter(|c| c.has_tag_name("property"))
        .enumerate()
    {
        let prop_at = format!("{at}.propertyOverrides[{i}]");
        overrides.push(read_override(child, scope, &prop_at, node_id));
    }
    let mut a = Attrs::new(el, scope, at).for_node(node_id);
    ListItem {
        title: a.opt_string("title"),
        icon: a.opt_string("icon"),
        url: a.opt_string("url"),
        name: a.opt_string("name"),
        selected_title: a.opt_string("selectedTitle"),
        selected_icon: a.opt_string("selectedIcon"),
        level: a.num("level", 0.0),
        is_folder: a.has("isFolder").then(|| a.bool("isFolder", false)),
        controllers: a.opt_string("controllers"),
        property_overrides: (!overrides.is_empty()).then_some(overrides),
    }
}

fn read_override(
    el: Node,
    scope: &mut Scope,
    at: &str,
    node_id: &str,
) -> ComponentPropertyOverride {
    let mut a = Attrs::new(el, scope, at).for_node(node_id);
    ComponentPropertyOverride {
        target: a.string("target"),
        property_id: a.int("propertyId", 0),
        value: a.string("value"),
    }
}

/// `volume` is a 0..100 percentage; the model keeps the 0..1 scale.
fn volume_scale(a: &mut Attrs) -> Num {
    Num(a.f64("volume", 100.0) / 100.0)
}

/// The `<Button|Label|ComboBox|ProgressBar|Slider|ScrollBar>` child of an instance.
fn read_instance(el: Node, scope: &mut Scope, at: &str, node_id: &str) -> InstanceProperties {
    let items: Vec<ComboItem> = el
        .children()
        .filter(|c| c.has_tag_name("item"))
        .map(|c| ComboItem {
            title: c.attribute("title").map(str::to_owned),
            value: c.attribute("value").map(str::to_owned),
            icon: c.attribute("icon").map(str::to_owned),
        })
        .collect();
    let mut a = Attrs::new(el, scope, at).for_node(node_id);
    match el.tag_name().name() {
        "Button" => InstanceProperties::Button {
            title: a.string("title"),
            selected_title: a.string("selectedTitle"),
            icon: a.string("icon"),
            selected_icon: a.string("selectedIcon"),
            title_color: a.string("titleColor"),
            title_font_size: a.num("titleFontSize", 0.0),
            controller: a.string("controller"),
            page: a.string("page"),
            checked: a.bool("checked", false),
            sound: a.string("sound"),
            sound_volume_scale: volume_scale(&mut a),
        },
        "Label" => InstanceProperties::Label {
            title: a.string("title"),
            icon: a.string("icon"),
            title_color: a.string("titleColor"),
            title_font_size: a.num("titleFontSize", 0.0),
            prompt_text: a
                .raw_any(&["prompt", "promptText"])
                .unwrap_or_default()
                .to_owned(),
            sound: a.string("sound"),
            sound_volume_scale: volume_scale(&mut a),
        },
        "ComboBox" => InstanceProperties::ComboBox {
            title: a.string("title"),
            icon: a.string("icon"),
            title_color: a.string("titleColor"),
            popup_direction: a.enumeration("direction", POPUP_DIRECTION, 0),
            sound: a.string("sound"),
            sound_volume_scale: volume_scale(&mut a),
            // 0 leaves the component's own count in force.
            visible_item_count: a.num("visibleItemCount", 0.0),
            selection_controller: a.string("selectionController"),
            auto_clear_items: a.bool("autoClearItems", false),
            items,
        },
        "ProgressBar" => InstanceProperties::ProgressBar {
            value: a.num("value", 0.0),
            max: a.num("max", 100.0),
            min: a.num("min", 0.0),
            sound: a.string("sound"),
            sound_volume_scale: volume_scale(&mut a),
        },
        "Slider" => InstanceProperties::Slider {
            value: a.num("value", 0.0),
            max: a.num("max", 100.0),
            min: a.num("min", 0.0),
        },
        _ => InstanceProperties::ScrollBar {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(xml: &str) -> (DisplayNode, Option<SizeRef>, Scope) {
        let doc = roxmltree::Document::parse(xml).expect("xml");
        let mut scope = Scope::new("c");
        let (n, size_ref) = read_node(doc.root_element(), 0, &mut scope).expect("node");
        (n, size_ref, scope)
    }

    #[test]
    fn image_defaults_and_size_ref() {
        let (n, size_ref, scope) = node(
            r#"<image id="n7" name="n7" src="h5p722" fileName="images/i256.png" xy="133,393" pivot="0.5,0.5" aspect="true"/>"#,
        );
        assert!(scope.diagnostics.is_empty());
        let DisplayNode::Image(img) = n else {
            panic!("kind")
        };
        assert_eq!(
            img.base.position,
            Point {
                x: Num(133.0),
                y: Num(393.0)
            }
        );
        assert_eq!(
            img.base.pivot,
            Some(Point {
                x: Num(0.5),
                y: Num(0.5)
            })
        );
        assert_eq!(img.base.pivot_as_anchor, Some(false));
        assert_eq!(
            img.base.scale,
            Point {
                x: Num(1.0),
                y: Num(1.0)
            }
        );
        assert_eq!(img.base.group.as_deref(), Some(""));
        assert_eq!(img.props.color, "#ffffff");
        assert_eq!(img.props.fill_amount, Num(100.0));
        assert!(img.base.aspect);
        let size_ref = size_ref.expect("size resolved later");
        assert_eq!(size_ref.resource_id, "h5p722");
    }

    #[test]
    fn text_input_and_tree_forms() {
        let (n, _, _) = node(r#"<text id="a" input="true" prompt="hi" autoSize="none"/>"#);
        let DisplayNode::TextInput(t) = n else {
            panic!("kind")
        };
        assert_eq!(t.prompt_text, "hi");
        assert_eq!(t.text.auto_size, 0);
        assert_eq!(t.text.stroke_color, None);
        assert_eq!(t.text.stroke_size, Num(1.0));

        let (n, _, _) = node(
            r#"<list id="l" treeView="true" indent="20"><item level="0"/><item level="1"/><item level="1" isFolder="false"/></list>"#,
        );
        let DisplayNode::Tree(t) = n else {
            panic!("kind")
        };
        assert_eq!(t.tree.indent, Num(20.0));
        let folders: Vec<_> = t.list.list_items.iter().map(|i| i.is_folder).collect();
        assert_eq!(folders, vec![Some(true), Some(false), Some(false)]);
    }

    #[test]
    fn relations_split_side_pairs() {
        let (n, _, scope) = node(
            r#"<graph id="g"><relation target="" sidePair="left-left,right-right%,bogus"/></graph>"#,
        );
        let base = n.base();
        assert_eq!(base.relations.len(), 2);
        assert_eq!(base.relations[1].relation_type, 6);
        assert!(base.relations[1].use_percent);
        assert_eq!(base.pivot, Some(Point::default()));
        assert_eq!(scope.diagnostics.len(), 1);
        assert_eq!(scope.diagnostics[0].node_id.as_deref(), Some("g"));
    }

    #[test]
    fn component_instance_with_extension_and_overrides() {
        let (n, _, scope) = node(
            r#"<component id="n11" src="rpmb12" pkg="p" xy="1,2" controller="c1,1"><Button title="Go" volume="50"/><property target="n1" propertyId="0" value="x"/></component>"#,
        );
        assert!(scope.diagnostics.is_empty());
        let DisplayNode::Component(c) = n else {
            panic!("kind")
        };
        assert_eq!(c.resource.package_id.as_deref(), Some("p"));
        assert_eq!(c.controller_overrides.as_deref(), Some("c1,1"));
        let Some(InstanceProperties::Button {
            title,
            sound_volume_scale,
            ..
        }) = c.instance_properties
        else {
            panic!("instance")
        };
        assert_eq!(title, "Go");
        assert_eq!(sound_volume_scale, Num(0.5));
        assert_eq!(c.property_overrides.map(|o| o.len()), Some(1));
    }

    /// A partial edit starts from `InstanceProperties::empty`, so it must be what an empty
    /// element reads as.
    #[test]
    fn an_empty_instance_element_reads_as_the_empty_properties() {
        for extension in crate::rules::EXTENSION_TYPES {
            let (n, _, scope) = node(&format!(
                r#"<component id="n1" src="x"><{extension}/></component>"#
            ));
            assert!(scope.diagnostics.is_empty(), "{extension}");
            let DisplayNode::Component(c) = n else {
                panic!("kind")
            };
            assert_eq!(
                c.instance_properties,
                InstanceProperties::empty(extension),
                "{extension}"
            );
        }
    }

    #[test]
    fn bad_values_are_reported_and_defaulted() {
        let (n, _, scope) = node(r#"<text id="t" xy="1" alpha="x" align="middle" color="red"/>"#);
        assert_eq!(n.base().position, Point::default());
        assert_eq!(n.base().alpha, Num(1.0));
        let paths: Vec<_> = scope.diagnostics.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(
            paths,
            vec![
                "c.displayList[0].xy",
                "c.displayList[0].alpha",
                "c.displayList[0].color",
                "c.displayList[0].align"
            ]
        );
    }

    #[test]
    fn short_hex_colours_are_reported_and_kept() {
        // FairyGUI reads `#rgb` as black, so it is reported; the value stays as written.
        let (n, _, scope) = node(r##"<image id="i" src="x" color="#fff"/>"##);
        let DisplayNode::Image(image) = &n else {
            panic!("an image node");
        };
        assert_eq!(image.props.color, "#fff");
        assert_eq!(scope.diagnostics.len(), 1, "{:#?}", scope.diagnostics);
        assert_eq!(scope.diagnostics[0].path, "c.displayList[0].color");
        assert_eq!(
            scope.diagnostics[0].code,
            ProjectDiagnosticCode::InvalidProjectValue
        );
        assert!(
            scope.diagnostics[0]
                .message
                .contains("#rrggbb or #aarrggbb")
        );
    }

    #[test]
    fn malformed_kind_flags_are_reported() {
        let (n, _, scope) = node(r#"<text id="t" input="yes"/>"#);
        assert!(matches!(n, DisplayNode::Text(_)));
        assert_eq!(scope.diagnostics.len(), 1, "{:?}", scope.diagnostics);
        assert_eq!(scope.diagnostics[0].path, "c.displayList[0].input");
        let (n, _, scope) = node(r#"<list id="l" treeView="sometimes"/>"#);
        assert!(matches!(n, DisplayNode::List(_)));
        assert_eq!(scope.diagnostics[0].path, "c.displayList[0].treeView");
    }

    #[test]
    fn whether_the_file_writes_size_and_margin_is_kept() {
        let (n, size_ref, _) = node(r#"<image id="a" src="r1" xy="0,0"/>"#);
        assert!(!n.base().explicit_size);
        assert!(size_ref.is_some());
        let (n, size_ref, _) = node(r#"<image id="a" src="r1" xy="0,0" size="3,4"/>"#);
        assert!(n.base().explicit_size);
        assert!(size_ref.is_none());
        let (n, _, _) = node(r#"<text id="t" xy="0,0"/>"#);
        assert!(!n.base().explicit_size);

        let explicit_margin = |xml: &str| match node(xml).0 {
            DisplayNode::List(l) => l.explicit_margin,
            DisplayNode::Tree(t) => t.explicit_margin,
            _ => panic!("kind"),
        };
        assert!(!explicit_margin(r#"<list id="l"/>"#));
        assert!(explicit_margin(r#"<list id="l" margin="0,0,0,0"/>"#));
        assert!(explicit_margin(
            r#"<list id="l" treeView="true" margin="0,0,0,0"/>"#
        ));
    }

    #[test]
    fn unknown_tags_are_reported() {
        let doc = roxmltree::Document::parse(r#"<flash id="s"/>"#).expect("xml");
        let mut scope = Scope::new("c");
        assert!(read_unmodeled(doc.root_element(), 0, 3, &mut scope).is_none());
        assert!(read_node(doc.root_element(), 3, &mut scope).is_none());
        assert_eq!(scope.diagnostics[0].path, "c.displayList[3]");
        assert_eq!(
            scope.diagnostics[0].code,
            ProjectDiagnosticCode::InvalidComponentXml
        );
    }
}
