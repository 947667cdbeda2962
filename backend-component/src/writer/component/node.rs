//! One display node as its `<displayList>` child element: the inverse of `reader::node`,
//! with its gears, relations, instance element, property overrides and list items.

use ofgui_contracts::Num;
use ofgui_contracts::uam::{
    ComboItem, ComponentPropertyOverride, DisplayNode, GraphProperties, GroupProperties,
    InstanceProperties, ListItem, ListProperties, Loader3DProperties, LoaderProperties, NodeBase,
    PlainTextExtras, Relation, ResourceRef, TextProperties, TitleControlNode, TreeExtras,
    ValueControlNode,
};
use serde_json::Value;

use super::gear::gear;
use super::spell::{Put, choice, percent};
use crate::rules::RELATION_TYPES;
use crate::rules::enums::{
    ALIGN, AUTO_SIZE, FILL_METHOD, FLIP, GRAPH_TYPE, GROUP_LAYOUT, LIST_LAYOUT, LOADER_FILL,
    OVERFLOW, POPUP_DIRECTION, RENDER_ORDER, SCROLL, SCROLL_BAR, SELECTION_MODE, VALIGN,
};
use crate::writer::element::Element;
use crate::writer::lexical::{flag, margins, name_of, number, numbers, point, size};

/// Every node's attribute order: the common attributes (corpora: `id name src fileName xy
/// pivot anchor size restrictSize group locked aspect scale skew alpha rotation visible
/// touchable grayed filter filterData`), then the kind's own. `pkg`, `blend`, `tooltips`
/// and `customData` never appear in the corpora: `pkg` goes with the reference it
/// qualifies, the others after the look attributes.
macro_rules! node_order {
    ($($own:literal),* $(,)?) => {
        &[
            "id", "name", "src", "fileName", "pkg", "xy", "pivot", "anchor", "size",
            "restrictSize", "group", "locked", "aspect", "scale", "skew", "alpha", "rotation",
            "visible", "touchable", "grayed", "blend", "filter", "filterData", "tooltips",
            "customData", $($own),*
        ]
    };
}

/// Corpora: `color flip`, `fillMethod fillClockwise`; `fillOrigin` and `fillAmount` (not
/// in the corpora) sit with the other fill settings.
const IMAGE_ORDER: &[&str] = node_order!(
    "color",
    "flip",
    "fillMethod",
    "fillOrigin",
    "fillClockwise",
    "fillAmount"
);

/// Corpora (text, richtext): `font fontSize color align vAlign leading letterSpacing ubb
/// autoSize underline bold italic strokeColor strokeSize shadowColor shadowOffset
/// singleLine faceDilate underlaySoftness demoText text input prompt` (the newest editor
/// writes the input flags after `text`). `strikethrough`, `outlineSoftness`,
/// `autoClearText`, `vars` and the other input settings are not in the corpora and sit
/// beside their kin.
const TEXT_ORDER: &[&str] = node_order!(
    "font",
    "fontSize",
    "color",
    "align",
    "vAlign",
    "leading",
    "letterSpacing",
    "ubb",
    "autoSize",
    "underline",
    "bold",
    "italic",
    "strikethrough",
    "strokeColor",
    "strokeSize",
    "outlineSoftness",
    "shadowColor",
    "shadowOffset",
    "singleLine",
    "faceDilate",
    "underlaySoftness",
    "autoClearText",
    "vars",
    "demoText",
    "text",
    "input",
    "prompt",
    "maxLength",
    "restrict",
    "password",
    "keyboardType",
);

/// Corpora: `controller` after the common attributes; `pageController` beside it.
const COMPONENT_ORDER: &[&str] = node_order!("controller", "pageController");

/// Corpora: `pageController layout selectionMode overflow scroll scrollBarFlags scrollBar
/// margin clipSoftness lineGap colGap defaultItem treeView indent clickToExpand
/// autoItemSize align selectionController`; the rest (not in the corpora) beside their
/// kin.
const LIST_ORDER: &[&str] = node_order!(
    "pageController",
    "layout",
    "selectionMode",
    "overflow",
    "scroll",
    "scrollBarFlags",
    "scrollBar",
    "scrollBarRes",
    "ptrRes",
    "margin",
    "scrollBarMargin",
    "clipSoftness",
    "lineGap",
    "colGap",
    "lineItemCount",
    "lineItemCount2",
    "defaultItem",
    "treeView",
    "indent",
    "clickToExpand",
    "autoItemSize",
    "renderOrder",
    "apex",
    "align",
    "vAlign",
    "selectionController",
    "controller",
    "scrollItemToViewOnClick",
    "foldInvisibleItems",
    "autoClearItems",
);

/// Corpora: `type lineSize lineColor fillColor corner points sides startAngle distances`.
const GRAPH_ORDER: &[&str] = node_order!(
    "type",
    "lineSize",
    "lineColor",
    "fillColor",
    "corner",
    "points",
    "sides",
    "startAngle",
    "distances",
);

/// Corpora: `advanced`; the layout settings (not in the corpora) follow it.
const GROUP_ORDER: &[&str] = node_order!(
    "advanced",
    "layout",
    "lineGap",
    "colGap",
    "excludeInvisibles",
    "autoSizeDisabled",
    "mainGridIndex",
);

/// Corpora: `url align vAlign fill autoSize`; the rest (not in the corpora) after them.
const LOADER_ORDER: &[&str] = node_order!(
    "url",
    "align",
    "vAlign",
    "fill",
    "shrinkOnly",
    "autoSize",
    "useResize",
    "errorSign",
    "frame",
    "playing",
    "color",
    "fillMethod",
    "fillOrigin",
    "fillClockwise",
    "fillAmount",
    "clearOnPublish",
);

/// Corpora: `url autoSize animation skin loop`, `skin playing frame`.
const LOADER3D_ORDER: &[&str] = node_order!(
    "url",
    "align",
    "vAlign",
    "fill",
    "shrinkOnly",
    "autoSize",
    "animation",
    "skin",
    "loop",
    "playing",
    "frame",
    "color",
    "clearOnPublish",
);

/// Corpora (`jta`): `frame playing`; `color` (alone in the corpora) follows.
const MOVIE_CLIP_ORDER: &[&str] = node_order!("frame", "playing", "color");

const RELATION_ORDER: &[&str] = &["target", "sidePair"];
const PROPERTY_ORDER: &[&str] = &["target", "propertyId", "value"];
/// Corpora: `title icon level url`; the others (not in the corpora) in the reader's order.
const ITEM_ORDER: &[&str] = &[
    "title",
    "icon",
    "url",
    "name",
    "selectedTitle",
    "selectedIcon",
    "level",
    "isFolder",
    "controllers",
];
const COMBO_ITEM_ORDER: &[&str] = &["title", "value", "icon"];

/// Instance elements. Corpora: `<Button checked title selectedTitle icon controller
/// page>`, `<Label title titleColor icon>`, `<ComboBox visibleItemCount>`,
/// `<ProgressBar value max>`, `<Slider value max>`; the rest beside their kin, the sound
/// last.
const BUTTON_ORDER: &[&str] = &[
    "checked",
    "title",
    "selectedTitle",
    "titleColor",
    "titleFontSize",
    "icon",
    "selectedIcon",
    "controller",
    "page",
    "sound",
    "volume",
];
const LABEL_ORDER: &[&str] = &[
    "title",
    "titleColor",
    "titleFontSize",
    "icon",
    "prompt",
    "sound",
    "volume",
];
const COMBO_BOX_ORDER: &[&str] = &[
    "title",
    "titleColor",
    "icon",
    "visibleItemCount",
    "direction",
    "selectionController",
    "autoClearItems",
    "sound",
    "volume",
];
const PROGRESS_ORDER: &[&str] = &["value", "max", "min", "sound", "volume"];

/// The element of a display node, keyed by its id.
///
/// Child elements come as the editor writes them (corpora: gears, then relations, then
/// the instance element or the list items); property overrides, not in the corpora,
/// follow the instance element.
pub fn node(node: &DisplayNode) -> Element {
    let mut el = match node {
        DisplayNode::Image(n) => {
            let mut el = Element::new("image", IMAGE_ORDER);
            base(
                &mut el,
                &n.base,
                Refs::resource(&n.resource, None),
                Shape::Plain,
            );
            let p = &n.props;
            el.set_unless("color", p.color.as_str(), "#ffffff");
            el.choice("flip", FLIP, p.flip, 0);
            fill(
                &mut el,
                p.fill_method,
                p.fill_origin,
                p.fill_clockwise,
                p.fill_amount,
            );
            el
        }
        DisplayNode::Text(n) => {
            let mut el = Element::new("text", TEXT_ORDER);
            base(&mut el, &n.base, Refs::NONE, Shape::Plain);
            text(&mut el, &n.text, Some(&n.plain));
            el
        }
        DisplayNode::RichText(n) => {
            let mut el = Element::new("richtext", TEXT_ORDER);
            base(&mut el, &n.base, Refs::NONE, Shape::Plain);
            text(&mut el, &n.text, None);
            el
        }
        DisplayNode::TextInput(n) => {
            // The editor writes an input field as a text with `input="true"`.
            let mut el = Element::new("text", TEXT_ORDER);
            base(&mut el, &n.base, Refs::NONE, Shape::Plain);
            text(&mut el, &n.text, Some(&n.plain));
            el.set("input", flag(true));
            el.text("prompt", &n.prompt_text);
            el.num("maxLength", n.max_length, 0.0);
            el.text("restrict", &n.restrict);
            el.flag("password", n.password, false);
            el.set_unless("keyboardType", n.keyboard_type.to_string(), "0");
            el
        }
        DisplayNode::Component(n) => {
            let mut el = Element::new("component", COMPONENT_ORDER);
            let refs = Refs::resource(&n.resource, n.file_name.as_deref());
            base(&mut el, &n.base, refs, Shape::Plain);
            // Present, even empty, exactly when the file has them.
            if let Some(value) = &n.controller_overrides {
                el.set("controller", value.as_str());
            }
            if let Some(value) = &n.page_controller {
                el.set("pageController", value.as_str());
            }
            el
        }
        DisplayNode::List(n) => {
            let mut el = Element::new("list", LIST_ORDER);
            base(&mut el, &n.base, Refs::list(&n.list), Shape::Plain);
            list(&mut el, &n.list, None, n.explicit_margin);
            el
        }
        DisplayNode::Tree(n) => {
            let mut el = Element::new("list", LIST_ORDER);
            base(&mut el, &n.base, Refs::list(&n.list), Shape::Plain);
            list(&mut el, &n.list, Some(&n.tree), n.explicit_margin);
            el
        }
        DisplayNode::Graph(n) => {
            let mut el = Element::new("graph", GRAPH_ORDER);
            base(&mut el, &n.base, Refs::NONE, Shape::Graph);
            graph(&mut el, &n.props);
            el
        }
        DisplayNode::Group(n) => {
            let mut el = Element::new("group", GROUP_ORDER);
            base(&mut el, &n.base, Refs::NONE, Shape::Plain);
            group(&mut el, &n.props);
            el
        }
        DisplayNode::Loader(n) => {
            let mut el = Element::new("loader", LOADER_ORDER);
            base(&mut el, &n.base, Refs::NONE, Shape::Loader);
            loader(&mut el, &n.props);
            el
        }
        DisplayNode::Loader3D(n) => {
            let mut el = Element::new("loader3D", LOADER3D_ORDER);
            base(&mut el, &n.base, Refs::NONE, Shape::Loader3D);
            loader3d(&mut el, &n.props);
            el
        }
        DisplayNode::MovieClip(n) => {
            // The newest editor writes `<movieclip>` with a `fileName`; older files say
            // `<jta>` (see `super::spelled`).
            let mut el = Element::new("movieclip", MOVIE_CLIP_ORDER);
            let refs = Refs::resource(
                &n.resource,
                Some(n.file_name.as_str()).filter(|f| !f.is_empty()),
            );
            base(&mut el, &n.base, refs, Shape::Plain);
            el.num("frame", n.props.frame, 0.0);
            el.flag("playing", n.props.playing, true);
            el.set_unless("color", n.props.color.as_str(), "#ffffff");
            el
        }
        DisplayNode::Button(n) | DisplayNode::Label(n) | DisplayNode::ComboBox(n) => {
            title_control(node, n)
        }
        DisplayNode::ProgressBar(n) | DisplayNode::Slider(n) | DisplayNode::ScrollBar(n) => {
            value_control(node, n)
        }
    };
    let b = node.base();
    let mut children: Vec<Element> = b.gears.iter().map(gear).collect();
    children.extend(relations(&b.relations));
    match node {
        DisplayNode::Component(n) => {
            children.extend(n.instance_properties.as_ref().map(instance));
            children.extend(n.property_overrides.iter().flatten().map(property));
        }
        DisplayNode::List(n) => children.extend(items(&n.list.list_items, false)),
        DisplayNode::Tree(n) => children.extend(items(&n.list.list_items, true)),
        DisplayNode::Button(_)
        | DisplayNode::Label(_)
        | DisplayNode::ComboBox(_)
        | DisplayNode::ProgressBar(_)
        | DisplayNode::Slider(_)
        | DisplayNode::ScrollBar(_) => {
            // The flat forms carry their instance element already.
            children.append(&mut el.children);
        }
        _ => {}
    }
    el.children = children;
    el.keyed("id")
}

/// The resource a node shows: `src`, `fileName` and `pkg`, written between its name and
/// its position.
#[derive(Clone, Copy)]
struct Refs<'a> {
    src: Option<&'a str>,
    file_name: Option<&'a str>,
    pkg: Option<&'a str>,
}

impl<'a> Refs<'a> {
    const NONE: Refs<'static> = Refs {
        src: None,
        file_name: None,
        pkg: None,
    };

    /// A list's `src` (among the common attributes, where other kinds have theirs).
    fn list(list: &'a ListProperties) -> Self {
        Refs {
            src: Some(list.src.as_str()),
            ..Refs::NONE
        }
    }

    fn resource(resource: &'a ResourceRef, file_name: Option<&'a str>) -> Self {
        Refs {
            src: Some(resource.resource_id.as_str()),
            file_name,
            pkg: resource.package_id.as_deref(),
        }
    }
}

/// How the reader treats a kind's pivot and group.
#[derive(Clone, Copy, PartialEq)]
enum Shape {
    Plain,
    /// A pivot always, 0,0 when the file has none.
    Graph,
    /// A pivot always, and a group only when the file has one.
    Loader,
    /// A group only when the file has one.
    Loader3D,
}

/// The common attributes. Graphs and loaders always carry a pivot in the model, so theirs
/// is left out at 0,0; other kinds carry one only when the file sets it, so theirs is
/// written whenever it is there. Likewise a loader's group is there, even empty, only
/// when the file has one; other kinds' empty group is no group.
fn base(el: &mut Element, b: &NodeBase, refs: Refs, shape: Shape) {
    let pivot_always = matches!(shape, Shape::Graph | Shape::Loader);
    el.set("id", b.id.as_str());
    el.set("name", b.name.as_str());
    if let Some(src) = refs.src {
        el.text("src", src);
    }
    // Present, even empty, exactly when the file has it.
    if let Some(file_name) = refs.file_name {
        el.set("fileName", file_name);
    }
    if let Some(pkg) = refs.pkg {
        el.text("pkg", pkg);
    }
    // The editor always writes the position.
    el.set("xy", point(&b.position));
    match &b.pivot {
        Some(pivot) if !pivot_always => el.set("pivot", point(pivot)),
        Some(pivot) => el.set_unless("pivot", point(pivot), "0,0"),
        None => {}
    }
    if b.pivot.is_some() || pivot_always {
        el.flag("anchor", b.pivot_as_anchor.unwrap_or(false), false);
    }
    // Written where the file writes it: the editor leaves it out where a node has its
    // resource's own size (the model resolves that at read) and publishes only a size the
    // file has. Setting a size and attaching a node mark it written.
    if b.explicit_size {
        el.set("size", size(&b.size));
    }
    restrict_size(el, &b.min_size, &b.max_size);
    match &b.group {
        Some(group) if matches!(shape, Shape::Loader | Shape::Loader3D) => {
            el.set("group", group.as_str());
        }
        Some(group) => el.text("group", group),
        None => {}
    }
    el.flag("locked", b.locked, false);
    el.flag("aspect", b.aspect, false);
    el.set_unless("scale", point(&b.scale), "1,1");
    el.set_unless("skew", point(&b.skew), "0,0");
    el.num("alpha", b.alpha, 1.0);
    el.num("rotation", b.rotation, 0.0);
    el.flag("visible", b.visible, true);
    el.flag("touchable", b.touchable, true);
    el.flag("grayed", b.grayed, false);
    el.set_unless("blend", b.blend_mode.as_str(), "normal");
    el.text("filter", &b.filter);
    el.text("filterData", &b.filter_data);
    el.text("tooltips", &b.tooltips);
    el.text("customData", &b.custom_data);
}

/// `minWidth,maxWidth,minHeight,maxHeight`, unless all are 0.
pub(super) fn restrict_size(
    el: &mut Element,
    min: &ofgui_contracts::uam::Size,
    max: &ofgui_contracts::uam::Size,
) {
    el.set_unless(
        "restrictSize",
        numbers(&[min.width, max.width, min.height, max.height]),
        "0,0,0,0",
    );
}

/// The fill settings of images and loaders: only with a fill method, the amount in
/// percent.
fn fill(el: &mut Element, method: i32, origin: i32, clockwise: bool, amount: Num) {
    if method == 0 {
        return;
    }
    el.set("fillMethod", choice(FILL_METHOD, method));
    el.set_unless("fillOrigin", origin.to_string(), "0");
    el.flag("fillClockwise", clockwise, true);
    el.set_unless("fillAmount", percent(amount.get()), "100");
}

fn text(el: &mut Element, t: &TextProperties, plain: Option<&PlainTextExtras>) {
    el.text("font", &t.font);
    // The editor writes the font size always, 12 included.
    el.set("fontSize", number(t.font_size));
    el.set_unless("color", t.color.as_str(), "#000000");
    el.choice("align", ALIGN, t.align, 0);
    el.choice("vAlign", VALIGN, t.v_align, 0);
    el.num("leading", t.leading, 3.0);
    el.num("letterSpacing", t.letter_spacing, 0.0);
    el.flag("ubb", t.ubb_enabled, false);
    el.choice("autoSize", AUTO_SIZE, t.auto_size, 1);
    el.flag("underline", t.underline, false);
    el.flag("bold", t.bold, false);
    el.flag("italic", t.italic, false);
    el.flag("strikethrough", t.strikethrough, false);
    // Stroke and shadow settings count only with their colour.
    if let Some(color) = &t.stroke_color {
        el.set("strokeColor", color.as_str());
        el.num("strokeSize", t.stroke_size, 1.0);
    }
    el.num("outlineSoftness", t.outline_softness, 0.0);
    if let Some(color) = &t.shadow_color {
        el.set("shadowColor", color.as_str());
        // The editor writes the offset with the colour, 1,1 included.
        el.set("shadowOffset", point(&t.shadow_offset));
    }
    el.flag("singleLine", t.single_line, false);
    if let Some(plain) = plain {
        el.num("faceDilate", plain.face_dilate, 0.0);
    }
    el.num("underlaySoftness", t.underlay_softness, 0.0);
    el.flag("autoClearText", t.auto_clear_text, false);
    if let Some(plain) = plain {
        el.flag("vars", plain.template_vars_enabled, false);
        el.text("demoText", &plain.demo_text);
    }
    // The editor writes the text always, empty included.
    el.set("text", t.text.as_str());
}

fn list(el: &mut Element, l: &ListProperties, tree: Option<&TreeExtras>, explicit_margin: bool) {
    el.text("pageController", &l.page_controller);
    el.choice("layout", LIST_LAYOUT, l.layout, 0);
    el.choice("selectionMode", SELECTION_MODE, l.selection_mode, 0);
    el.choice("overflow", OVERFLOW, l.overflow, 0);
    el.choice("scroll", SCROLL, l.scroll_type, 1);
    el.set_unless("scrollBarFlags", l.scroll_bar_flags.to_string(), "0");
    el.choice("scrollBar", SCROLL_BAR, l.scroll_bar_display, 0);
    pair(
        el,
        "scrollBarRes",
        &l.vt_scroll_bar_res,
        &l.hz_scroll_bar_res,
    );
    pair(el, "ptrRes", &l.header_res, &l.footer_res);
    // Older editors write `margin="0,0,0,0"`, and the editor publishes the margin exactly
    // when the file has it, so a list that has the attribute keeps it.
    if explicit_margin {
        el.set("margin", margins(&l.margin));
    } else {
        el.set_unless("margin", margins(&l.margin), "0,0,0,0");
    }
    el.set_unless("scrollBarMargin", margins(&l.scroll_bar_margin), "0,0,0,0");
    el.set_unless("clipSoftness", point(&l.clip_softness), "0,0");
    el.num("lineGap", l.line_gap, 0.0);
    el.num("colGap", l.column_gap, 0.0);
    // `lineItemCount` counts columns for flow_hz and pagination, rows for flow_vt;
    // `lineItemCount2` counts pagination rows. Other layouts have neither.
    let (count, count2) = match l.layout {
        2 => (l.column_count, Num::ZERO),
        3 => (l.line_count, Num::ZERO),
        4 => (l.column_count, l.line_count),
        _ => (Num::ZERO, Num::ZERO),
    };
    el.num("lineItemCount", count, 0.0);
    el.num("lineItemCount2", count2, 0.0);
    el.text("defaultItem", &l.default_item);
    if let Some(tree) = tree {
        el.set("treeView", flag(true));
        // The editor writes the indent of every tree, 15 included.
        el.set("indent", number(tree.indent));
        el.set_unless("clickToExpand", tree.click_to_expand.to_string(), "0");
    }
    // Items fill the list's width or height by default only in single row/column layouts.
    el.flag("autoItemSize", l.auto_resize_item, l.layout <= 1);
    el.choice("renderOrder", RENDER_ORDER, l.children_render_order, 0);
    el.num("apex", l.apex_index, 0.0);
    el.choice("align", ALIGN, l.align, 0);
    el.choice("vAlign", VALIGN, l.v_align, 0);
    el.text("selectionController", &l.selection_controller);
    el.text("controller", &l.controller_overrides);
    el.flag(
        "scrollItemToViewOnClick",
        l.scroll_item_to_view_on_click,
        true,
    );
    el.flag("foldInvisibleItems", l.fold_invisible_items, false);
    el.flag("autoClearItems", l.auto_clear_items, false);
}

/// `first,second`, unless both are empty.
pub(super) fn pair(el: &mut Element, name: &'static str, first: &str, second: &str) {
    if !first.is_empty() || !second.is_empty() {
        el.set(name, format!("{first},{second}"));
    }
}

fn graph(el: &mut Element, g: &GraphProperties) {
    el.choice("type", GRAPH_TYPE, g.graph_type, 0);
    el.num("lineSize", g.line_size, 1.0);
    el.set_unless("lineColor", g.line_color.as_str(), "#000000");
    el.set_unless("fillColor", g.fill_color.as_str(), "#ffffff");
    if let Some(corner) = &g.corner_radius {
        el.set("corner", corner_radius(corner));
    }
    if let Some(points) = &g.points {
        el.set("points", numbers(points));
    }
    el.num("sides", g.sides, 0.0);
    el.num("startAngle", g.start_angle, 0.0);
    if let Some(distances) = &g.distances {
        el.set("distances", numbers(distances));
    }
}

/// One radius when all four corners agree (as the editor writes it), else all four.
fn corner_radius(corner: &[Num]) -> String {
    match corner.first() {
        Some(first) if corner.iter().all(|c| c == first) => number(*first),
        _ => numbers(corner),
    }
}

fn group(el: &mut Element, g: &GroupProperties) {
    el.flag("advanced", g.advanced, false);
    el.choice("layout", GROUP_LAYOUT, g.layout, 0);
    el.num("lineGap", g.line_gap, 0.0);
    el.num("colGap", g.column_gap, 0.0);
    el.flag("excludeInvisibles", g.exclude_invisibles, false);
    el.flag("autoSizeDisabled", g.auto_size_disabled, false);
    el.num("mainGridIndex", g.main_grid_index, -1.0);
}

fn loader(el: &mut Element, l: &LoaderProperties) {
    el.text("url", &l.url);
    el.choice("align", ALIGN, l.align, 0);
    el.choice("vAlign", VALIGN, l.v_align, 0);
    el.choice("fill", LOADER_FILL, l.fill, 0);
    el.flag("shrinkOnly", l.shrink_only, false);
    el.flag("autoSize", l.auto_size, false);
    el.flag("useResize", l.use_resize, false);
    // The editor writes it only when on.
    el.flag("errorSign", l.show_error_sign, false);
    el.num("frame", l.frame, 0.0);
    el.flag("playing", l.playing, true);
    el.set_unless("color", l.color.as_str(), "#ffffff");
    fill(
        el,
        l.fill_method,
        l.fill_origin,
        l.fill_clockwise,
        l.fill_amount,
    );
    el.flag("clearOnPublish", l.clear_on_publish, false);
}

fn loader3d(el: &mut Element, l: &Loader3DProperties) {
    el.text("url", &l.url);
    el.choice("align", ALIGN, l.align, 0);
    el.choice("vAlign", VALIGN, l.v_align, 0);
    el.choice("fill", LOADER_FILL, l.fill, 0);
    el.flag("shrinkOnly", l.shrink_only, false);
    el.flag("autoSize", l.auto_size, false);
    el.text("animation", &l.animation_name);
    el.text("skin", &l.skin_name);
    el.flag("loop", l.looping, false);
    el.flag("playing", l.playing, true);
    el.num("frame", l.frame, 0.0);
    el.set_unless("color", l.color.as_str(), "#ffffff");
    el.flag("clearOnPublish", l.clear_on_publish, false);
}

/// Relations as the editor writes them: one `<relation>` per target with its side pairs,
/// keyed by the target. Only neighbouring relations of one target share an element, so
/// the model's order reads back unchanged.
pub(super) fn relations(relations: &[Relation]) -> Vec<Element> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for relation in relations {
        let name = name_of(RELATION_TYPES, relation.relation_type)
            .map_or_else(|| relation.relation_type.to_string(), str::to_string);
        let pair = if relation.use_percent {
            format!("{name}%")
        } else {
            name
        };
        match out.last_mut() {
            Some((target, pairs)) if *target == relation.target_node_id => pairs.push(pair),
            _ => out.push((relation.target_node_id.clone(), vec![pair])),
        }
    }
    out.into_iter()
        .map(|(target, pairs)| {
            let mut el = Element::new("relation", RELATION_ORDER);
            el.set("target", target);
            el.set("sidePair", pairs.join(","));
            el.keyed("target")
        })
        .collect()
}

/// `<property target propertyId value>`: an instance's override of a custom property,
/// told apart by position (one target may have several).
fn property(o: &ComponentPropertyOverride) -> Element {
    let mut el = Element::new("property", PROPERTY_ORDER);
    el.set("target", o.target.as_str());
    el.set("propertyId", o.property_id.to_string());
    el.set("value", o.value.as_str());
    el
}

/// List items, by position. A tree item's `isFolder` is left out when it is what the
/// reader infers (a folder exactly when the next item is nested deeper).
fn items(items: &[ListItem], tree: bool) -> Vec<Element> {
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let mut el = Element::new("item", ITEM_ORDER);
            for (name, value) in [
                ("title", &item.title),
                ("icon", &item.icon),
                ("url", &item.url),
                ("name", &item.name),
                ("selectedTitle", &item.selected_title),
                ("selectedIcon", &item.selected_icon),
            ] {
                if let Some(value) = value {
                    el.set(name, value.as_str());
                }
            }
            el.num("level", item.level, 0.0);
            if let Some(is_folder) = item.is_folder {
                let inferred = tree
                    && items
                        .get(index + 1)
                        .is_some_and(|next| next.level.get() > item.level.get())
                        == is_folder;
                if !inferred {
                    el.set("isFolder", flag(is_folder));
                }
            }
            if let Some(controllers) = &item.controllers {
                el.set("controllers", controllers.as_str());
            }
            el.children = item
                .property_overrides
                .iter()
                .flatten()
                .map(property)
                .collect();
            el
        })
        .collect()
}

/// The `<Button|Label|ComboBox|ProgressBar|Slider|ScrollBar>` child of an instance; its
/// tag is unique among the node's children.
fn instance(p: &InstanceProperties) -> Element {
    match p {
        InstanceProperties::Button {
            title,
            selected_title,
            icon,
            selected_icon,
            title_color,
            title_font_size,
            controller,
            page,
            checked,
            sound,
            sound_volume_scale,
        } => {
            let mut el = Element::new("Button", BUTTON_ORDER);
            el.flag("checked", *checked, false);
            el.text("title", title);
            el.text("selectedTitle", selected_title);
            el.text("titleColor", title_color);
            el.num("titleFontSize", *title_font_size, 0.0);
            el.text("icon", icon);
            el.text("selectedIcon", selected_icon);
            el.text("controller", controller);
            el.text("page", page);
            sound_of(&mut el, sound, *sound_volume_scale);
            el
        }
        InstanceProperties::Label {
            title,
            icon,
            title_color,
            title_font_size,
            prompt_text,
            sound,
            sound_volume_scale,
        } => {
            let mut el = Element::new("Label", LABEL_ORDER);
            el.text("title", title);
            el.text("titleColor", title_color);
            el.num("titleFontSize", *title_font_size, 0.0);
            el.text("icon", icon);
            el.text("prompt", prompt_text);
            sound_of(&mut el, sound, *sound_volume_scale);
            el
        }
        InstanceProperties::ComboBox {
            title,
            icon,
            title_color,
            popup_direction,
            sound,
            sound_volume_scale,
            visible_item_count,
            selection_controller,
            auto_clear_items,
            items,
        } => {
            let mut el = Element::new("ComboBox", COMBO_BOX_ORDER);
            el.text("title", title);
            el.text("titleColor", title_color);
            el.text("icon", icon);
            el.num("visibleItemCount", *visible_item_count, 0.0);
            el.choice("direction", POPUP_DIRECTION, *popup_direction, 0);
            el.text("selectionController", selection_controller);
            el.flag("autoClearItems", *auto_clear_items, false);
            sound_of(&mut el, sound, *sound_volume_scale);
            el.children = items.iter().map(combo_item).collect();
            el
        }
        InstanceProperties::ProgressBar {
            value,
            max,
            min,
            sound,
            sound_volume_scale,
        } => {
            let mut el = Element::new("ProgressBar", PROGRESS_ORDER);
            range(&mut el, *value, *max, *min);
            sound_of(&mut el, sound, *sound_volume_scale);
            el
        }
        InstanceProperties::Slider { value, max, min } => {
            let mut el = Element::new("Slider", PROGRESS_ORDER);
            range(&mut el, *value, *max, *min);
            el
        }
        InstanceProperties::ScrollBar {} => Element::new("ScrollBar", &[]),
    }
}

/// `value max min`: the editor writes `max` always, 100 included.
fn range(el: &mut Element, value: Num, max: Num, min: Num) {
    el.num("value", value, 0.0);
    el.set("max", number(max));
    el.num("min", min, 0.0);
}

/// `sound` and `volume` (a percentage of the model's 0..1 scale).
pub(super) fn sound_of(el: &mut Element, sound: &str, scale: Num) {
    el.text("sound", sound);
    el.set_unless("volume", percent(scale.get()), "100");
}

fn combo_item(item: &ComboItem) -> Element {
    let mut el = Element::new("item", COMBO_ITEM_ORDER);
    for (name, value) in [
        ("title", &item.title),
        ("value", &item.value),
        ("icon", &item.icon),
    ] {
        if let Some(value) = value {
            el.set(name, value.as_str());
        }
    }
    el
}

/// A Button, Label or ComboBox given in the flat form (`src` and the title settings on the
/// node): written as the editor writes any instance, a `<component>` with its instance
/// element. It reads back as a component node.
fn title_control(node: &DisplayNode, n: &TitleControlNode) -> Element {
    let mut el = component_head(&n.base, &n.src, &n.package_id);
    let extra = |key: &str| n.extra.get(key);
    let text = |key: &str| {
        extra(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let props = match node {
        DisplayNode::Button(_) => InstanceProperties::Button {
            title: n.title.clone(),
            selected_title: text("selectedTitle"),
            icon: n.icon.clone(),
            selected_icon: text("selectedIcon"),
            title_color: n.title_color.clone(),
            title_font_size: n.title_font_size,
            controller: text("controller"),
            page: text("page"),
            checked: extra("checked").and_then(Value::as_bool).unwrap_or(false),
            sound: n.sound.clone(),
            sound_volume_scale: n.sound_volume_scale,
        },
        DisplayNode::Label(_) => InstanceProperties::Label {
            title: n.title.clone(),
            icon: n.icon.clone(),
            title_color: n.title_color.clone(),
            title_font_size: n.title_font_size,
            prompt_text: text("promptText"),
            sound: n.sound.clone(),
            sound_volume_scale: n.sound_volume_scale,
        },
        _ => InstanceProperties::ComboBox {
            title: n.title.clone(),
            icon: n.icon.clone(),
            title_color: n.title_color.clone(),
            popup_direction: extra("popupDirection")
                .and_then(Value::as_i64)
                .and_then(|v| i32::try_from(v).ok())
                .unwrap_or(0),
            sound: n.sound.clone(),
            sound_volume_scale: n.sound_volume_scale,
            visible_item_count: Num(extra("visibleItemCount")
                .and_then(Value::as_f64)
                .unwrap_or(0.0)),
            selection_controller: text("selectionController"),
            auto_clear_items: extra("autoClearItems")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            items: extra("items")
                .and_then(|items| serde_json::from_value(items.clone()).ok())
                .unwrap_or_default(),
        },
    };
    el.children.push(instance(&props));
    el
}

/// A ProgressBar, Slider or ScrollBar in the flat form, written as an instance.
fn value_control(node: &DisplayNode, n: &ValueControlNode) -> Element {
    let mut el = component_head(&n.base, &n.src, &n.package_id);
    let number = |key: &str, fallback: f64| {
        Num(n.extra.get(key).and_then(Value::as_f64).unwrap_or(fallback))
    };
    let props = match node {
        DisplayNode::ProgressBar(_) => InstanceProperties::ProgressBar {
            value: number("value", 0.0),
            max: number("max", 100.0),
            min: number("min", 0.0),
            sound: n
                .extra
                .get("sound")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            sound_volume_scale: number("soundVolumeScale", 1.0),
        },
        DisplayNode::Slider(_) => InstanceProperties::Slider {
            value: number("value", 0.0),
            max: number("max", 100.0),
            min: number("min", 0.0),
        },
        _ => InstanceProperties::ScrollBar {},
    };
    el.children.push(instance(&props));
    el
}

fn component_head(b: &NodeBase, src: &str, package_id: &str) -> Element {
    let mut el = Element::new("component", COMPONENT_ORDER);
    let refs = Refs {
        src: Some(src),
        file_name: None,
        pkg: Some(package_id),
    };
    base(&mut el, b, refs, Shape::Plain);
    el
}
