//! The canonical form of a component XML file: what the FairyGUI editor would write for a
//! [`ComponentModel`], the exact inverse of `reader::component` (and `reader::node`,
//! `reader::gear`, `reader::transition`).
//!
//! Display nodes are keyed by `id`, controllers and transitions by `name`, relations by
//! `target` (the editor writes one `<relation>` per target); gears, list and ComboBox
//! items, property overrides, controller actions, transition items and custom properties
//! are told apart by position (gears by their tag, which is unique per node; the others
//! have nothing unique to them). Attributes follow the editor's order as the real
//! projects in the corpora show it, and attributes at the value the reader reads when
//! they are absent are left out, as the editor leaves them out.
//!
//! Legacy `<swf>` nodes (`unsupportedNodes`) are not in the canonical form: a patch never
//! pairs an element of the file with none of the form, so they stay as they are.
//!
//! [`patch_component`] carries the difference between two models into the file they were
//! read from; [`document`] writes a whole new file.

mod gear;
mod node;
mod spell;
mod transition;

#[cfg(test)]
mod tests;

use ofgui_contracts::uam::{
    ComponentCustomProperty, ComponentModel, ComponentProperties, Controller, ControllerAction,
};
use roxmltree::Node;

use self::node::{pair, relations, restrict_size, sound_of};
use self::spell::{Put, choice, fixed2};
use crate::rules::enums::{
    ACTION_TYPE, BUTTON_MODE, DOWN_EFFECT, OVERFLOW, SCROLL, SCROLL_BAR, TITLE_TYPE,
};
use crate::source::xml::XmlPatch;
use crate::writer::element::Element;
use crate::writer::lexical::{margins, number, point, size};
use crate::writer::patch::{Unpatchable, patch_element};

/// The root's attribute order. Corpora: `size pivot anchor idnum overflow scroll
/// scrollBarFlags scrollBar margin scrollBarMargin opaque mask reversedMask bgColorEnabled
/// bgColor extention hitTest initName designImageAlpha designImageLayer
/// designImageOffsetX designImageOffsetY` (older editors put `idnum` after `extention`;
/// most files, and this order, before it). `restrictSize`, `clipSoftness`,
/// `scrollBarRes`, `ptrRes`, `remark`, `customData`, `pageController`, the sounds and
/// `designImage` do not appear there and sit beside their kin.
const ROOT_ORDER: &[&str] = &[
    "size",
    "pivot",
    "anchor",
    "restrictSize",
    "idnum",
    "overflow",
    "scroll",
    "scrollBarFlags",
    "scrollBar",
    "margin",
    "scrollBarMargin",
    "clipSoftness",
    "scrollBarRes",
    "ptrRes",
    "opaque",
    "mask",
    "reversedMask",
    "bgColorEnabled",
    "bgColor",
    "extention",
    "customExtention",
    "hitTest",
    "initName",
    "remark",
    "customData",
    "pageController",
    "showSound",
    "hideSound",
    "designImage",
    "designImageAlpha",
    "designImageLayer",
    "designImageOffsetX",
    "designImageOffsetY",
    "designImageForTest",
];

/// Corpora: `name exported pages selected`; `alias`, `autoRadioGroupDepth` and the home
/// page settings are not there.
const CONTROLLER_ORDER: &[&str] = &[
    "name",
    "alias",
    "exported",
    "pages",
    "selected",
    "autoRadioGroupDepth",
    "homePageType",
    "homePage",
];

/// Not in the corpora: the reader's order, the type first.
const ACTION_ORDER: &[&str] = &[
    "type",
    "fromPage",
    "toPage",
    "transition",
    "repeat",
    "delay",
    "stopOnExit",
    "objectId",
    "controller",
    "targetPage",
];

const CUSTOM_PROPERTY_ORDER: &[&str] = &["target", "propertyId", "label"];

/// The root extension elements. Corpora: `<Button mode sound>`, `<Button downEffect
/// downEffectValue>`, `<ComboBox dropdown>`, `<ProgressBar titleType reverse>`,
/// `<Slider titleType>`; the rest beside their kin.
const BUTTON_ORDER: &[&str] = &["mode", "sound", "volume", "downEffect", "downEffectValue"];
const LABEL_ORDER: &[&str] = &["prompt"];
const COMBO_BOX_ORDER: &[&str] = &["dropdown", "selectionController", "autoClearItems"];
const PROGRESS_BAR_ORDER: &[&str] = &["titleType", "reverse"];
const SLIDER_ORDER: &[&str] = &["titleType", "reverse", "wholeNumbers", "changeOnClick"];
const SCROLL_BAR_ORDER: &[&str] = &["fixedGripSize"];

/// The XML declaration the editor starts every file with.
pub const DECLARATION: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?>";

/// The canonical `<component>` element of a model.
///
/// Children come in the editor's order (corpora: controllers, the display list, the
/// extension element, transitions; root relations after the extension element). Custom
/// properties, not in the corpora, come first; root relations before transitions.
pub fn component(model: &ComponentModel) -> Element {
    let mut root = Element::new("component", ROOT_ORDER);
    root_attributes(&mut root, model);
    let p = &model.properties;
    root.children
        .extend(p.custom_properties.iter().map(custom_property));
    root.children
        .extend(model.controllers.iter().map(controller));
    let mut list = Element::new("displayList", &[]);
    list.children = model.display_list.iter().map(node::node).collect();
    // The editor writes the display list always, `<displayList/>` when empty.
    root.children.push(list);
    root.children.extend(extension(p));
    root.children.extend(relations(&model.relations));
    root.children
        .extend(model.transitions.iter().map(transition::transition));
    root
}

/// A whole component file as the editor writes it, for a component that has none yet.
pub fn document(model: &ComponentModel) -> String {
    format!("{DECLARATION}\n{}\n", component(model).markup())
}

fn root_attributes(el: &mut Element, model: &ComponentModel) {
    let p = &model.properties;
    el.set("size", size(&model.size));
    el.set_unless("pivot", point(&p.pivot), "0,0");
    el.flag("anchor", p.pivot_as_anchor, false);
    restrict_size(el, &p.min_size, &p.max_size);
    el.num("idnum", p.id_num, 0.0);
    el.choice("overflow", OVERFLOW, p.overflow, 0);
    // The editor keeps the scroll settings whatever the overflow, and so does the reader.
    el.choice("scroll", SCROLL, p.scroll_type, 1);
    el.set_unless("scrollBarFlags", p.scroll_bar_flags.to_string(), "0");
    el.choice("scrollBar", SCROLL_BAR, p.scroll_bar_display, 0);
    el.set_unless("margin", margins(&p.margin), "0,0,0,0");
    el.set_unless("scrollBarMargin", margins(&p.scroll_bar_margin), "0,0,0,0");
    el.set_unless("clipSoftness", point(&p.clip_softness), "0,0");
    pair(
        el,
        "scrollBarRes",
        &p.vt_scroll_bar_res,
        &p.hz_scroll_bar_res,
    );
    pair(el, "ptrRes", &p.header_res, &p.footer_res);
    el.flag("opaque", p.opaque, true);
    el.text("mask", &p.mask);
    el.flag("reversedMask", p.reversed_mask, false);
    el.flag("bgColorEnabled", p.bg_color_enabled, false);
    el.text("bgColor", &p.bg_color);
    el.text("extention", &p.extension_type);
    el.text("customExtention", &p.custom_extension_id);
    el.text("hitTest", &p.hit_test);
    el.text("initName", &p.init_name);
    el.text("remark", &p.remark);
    el.text("customData", &model.custom_data);
    el.text("pageController", &p.page_controller);
    el.text("showSound", &p.show_sound);
    el.text("hideSound", &p.hide_sound);
    el.text("designImage", &p.design_image);
    el.num("designImageAlpha", p.design_image_alpha, 50.0);
    el.set_unless("designImageLayer", p.design_image_layer.to_string(), "0");
    el.num("designImageOffsetX", p.design_image_offset.x, 0.0);
    el.num("designImageOffsetY", p.design_image_offset.y, 0.0);
    el.flag("designImageForTest", p.design_image_for_test, false);
}

/// The root's extension element, unique by its tag. The editor writes `<Button>`,
/// `<ComboBox>`, `<ProgressBar>` and `<Slider>` always (corpora: 100 of 100), `<Label>`
/// and `<ScrollBar>` only when they hold something (corpora: 0 of 9).
fn extension(p: &ComponentProperties) -> Option<Element> {
    let el = match p.extension_type.as_str() {
        "Button" => {
            let mut el = Element::new("Button", BUTTON_ORDER);
            el.choice("mode", BUTTON_MODE, p.button_mode, 0);
            sound_of(&mut el, &p.sound, p.sound_volume_scale);
            el.choice("downEffect", DOWN_EFFECT, p.down_effect, 0);
            // Written with any press effect, 0.80 included (corpora: 6 of 6).
            if p.down_effect != 0 || p.down_effect_value.get() != 0.8 {
                el.set("downEffectValue", fixed2(p.down_effect_value.get()));
            }
            el
        }
        "Label" => {
            let mut el = Element::new("Label", LABEL_ORDER);
            el.text("prompt", &p.prompt_text);
            return (!el.attributes.is_empty()).then_some(el);
        }
        "ComboBox" => {
            let mut el = Element::new("ComboBox", COMBO_BOX_ORDER);
            el.text("dropdown", &p.dropdown);
            el.text("selectionController", &p.selection_controller);
            el.flag("autoClearItems", p.auto_clear_items, false);
            el
        }
        "ProgressBar" => {
            let mut el = Element::new("ProgressBar", PROGRESS_BAR_ORDER);
            el.choice("titleType", TITLE_TYPE, p.title_type, 0);
            el.flag("reverse", p.reverse, false);
            el
        }
        "Slider" => {
            let mut el = Element::new("Slider", SLIDER_ORDER);
            el.choice("titleType", TITLE_TYPE, p.title_type, 0);
            el.flag("reverse", p.reverse, false);
            el.flag("wholeNumbers", p.whole_numbers, false);
            el.flag("changeOnClick", p.change_on_click, true);
            el
        }
        "ScrollBar" => {
            let mut el = Element::new("ScrollBar", SCROLL_BAR_ORDER);
            el.flag("fixedGripSize", p.fixed_grip_size, false);
            return (!el.attributes.is_empty()).then_some(el);
        }
        _ => return None,
    };
    Some(el)
}

fn custom_property(c: &ComponentCustomProperty) -> Element {
    let mut el = Element::new("customProperty", CUSTOM_PROPERTY_ORDER);
    el.set("target", c.target.as_str());
    el.set("propertyId", c.property_id.to_string());
    el.set("label", c.label.as_str());
    el
}

/// `<remark page="N" value="…"/>`: the note on the page at position N.
fn page_remark(index: usize, remark: &str) -> Element {
    let mut el = Element::new("remark", &["page", "value"]);
    el.set("page", index.to_string());
    el.set("value", remark);
    el.keyed("page")
}

/// A controller, keyed by its name (unique in a component); `pages="id,name,…"`.
fn controller(c: &Controller) -> Element {
    let mut el = Element::new("controller", CONTROLLER_ORDER);
    el.set("name", c.name.as_str());
    el.text("alias", &c.alias);
    el.flag("exported", c.exported, false);
    let pages: Vec<&str> = c
        .pages
        .iter()
        .flat_map(|page| [page.id.as_str(), page.name.as_str()])
        .collect();
    el.set("pages", pages.join(","));
    // The editor writes the selected page always, 0 included.
    el.set("selected", number(c.selected_index));
    el.flag("autoRadioGroupDepth", c.auto_radio_group_depth, false);
    el.set_unless("homePageType", c.home_page_type.as_str(), "default");
    el.text("homePage", &c.home_page);
    // Page notes first, as the editor writes them, keyed by the page's position; actions
    // have no key: several may share their type and pages.
    el.children = c
        .pages
        .iter()
        .enumerate()
        .filter(|(_, page)| !page.remark.is_empty())
        .map(|(index, page)| page_remark(index, &page.remark))
        .chain(c.actions.iter().map(action))
        .collect();
    el.keyed("name")
}

fn action(a: &ControllerAction) -> Element {
    let mut el = Element::new("action", ACTION_ORDER);
    el.set("type", choice(ACTION_TYPE, a.action_type));
    el.text("fromPage", &a.from_page_ids.join(","));
    el.text("toPage", &a.to_page_ids.join(","));
    // The reader reads every setting whatever the type, so each is written when set.
    el.text("transition", &a.transition_name);
    el.num("repeat", a.play_times, 1.0);
    el.num("delay", a.delay, 0.0);
    el.flag("stopOnExit", a.stop_on_exit, false);
    el.text("objectId", &a.target_node_id);
    el.text("controller", &a.controller_name);
    el.text("targetPage", &a.target_page);
    el
}

/// Patches `root`, the `<component>` element of the document `old` was read from, so that
/// it reads as `new`: only what differs between their canonical forms is written.
///
/// The canonical forms are first spelled as this file spells them (see [`spelled`]), so
/// that an element or attribute the file writes another way the reader accepts is still
/// recognised as the same.
pub fn patch_component(
    patch: &mut XmlPatch,
    root: Node,
    old: &ComponentModel,
    new: &ComponentModel,
) -> Result<(), Unpatchable> {
    let mut old_form = component(old);
    let mut new_form = component(new);
    spelled(&mut old_form, &mut new_form, root);
    patch_element(patch, root, &old_form, &new_form, "")
}

/// Display-node tags the reader accepts besides the canonical ones, all in the spelling
/// found in files: an element keeps its own tag when patched.
const NODE_TAGS: &[&str] = &[
    "image",
    "text",
    "richtext",
    "richText",
    "inputtext",
    "inputText",
    "component",
    "list",
    "tree",
    "graph",
    "group",
    "loader",
    "loader3D",
    "loader3d",
    "movieclip",
    "movieClip",
    "jta",
];

/// Attribute aliases the reader accepts: the name the canonical form writes, and the
/// names the reader reads it from, preferred first (`fps` over the editor's `frameRate`).
type Aliases = &'static [(&'static str, &'static [&'static str])];

const NODE_ALIASES: Aliases = &[
    ("colGap", &["colGap", "columnGap"]),
    ("autoItemSize", &["autoItemSize", "autoResizeItem"]),
    ("prompt", &["prompt", "promptText"]),
    ("animation", &["animation", "animationName"]),
    ("skin", &["skin", "skinName"]),
];
const LABEL_ALIASES: Aliases = &[("prompt", &["prompt", "promptText"])];
const TRANSITION_ALIASES: Aliases = &[
    ("autoPlayRepeat", &["autoPlayRepeat", "autoPlayTimes"]),
    ("frameRate", &["fps", "frameRate"]),
];

/// How one element of the file spells what the canonical form writes otherwise.
#[derive(Default)]
struct Spelling {
    tag: Option<&'static str>,
    /// Canonical attribute name → the name the reader reads it from in this file.
    renames: Vec<(&'static str, &'static str)>,
    /// The same for the element's `<Label>` child (an instance's prompt).
    label: Vec<(&'static str, &'static str)>,
    /// The order in which the file writes the element's kinds of children (see [`group`]).
    groups: Vec<String>,
}

impl Spelling {
    fn of(dom: Node, aliases: Aliases) -> Vec<(&'static str, &'static str)> {
        aliases
            .iter()
            .filter_map(|(canonical, names)| {
                let read = names.iter().find(|name| dom.has_attribute(**name))?;
                (read != canonical).then_some((*canonical, *read))
            })
            .collect()
    }

    fn apply(&self, el: &mut Element) {
        if let Some(tag) = self.tag {
            el.tag = tag;
        }
        follow_groups(el, &self.groups);
        rename(el, &self.renames);
        if let Some(label) = el.children.iter_mut().find(|c| c.tag == "Label") {
            rename(label, &self.label);
        }
    }
}

/// What a child element is among its siblings, for the reader: gears are read in order
/// among all gear tags, every other tag on its own. The order between two groups means
/// nothing to the reader; the order within one does.
fn group(tag: &str) -> &str {
    if tag.starts_with("gear") { "gear" } else { tag }
}

/// The groups of `dom`'s element children, in the order the file first writes them.
fn groups_of(dom: Node) -> Vec<String> {
    let mut groups: Vec<String> = Vec::new();
    for child in dom.children().filter(Node::is_element) {
        let name = group(child.tag_name().name());
        if !groups.iter().any(|known| known == name) {
            groups.push(name.to_string());
        }
    }
    groups
}

/// Puts the groups of `el`'s children in the file's order (`groups`), keeping the order
/// within each group; a group the file lacks follows the group the canonical order puts
/// before it. A file that writes `<Button>` before `<controller>` is patched as it is,
/// not refused as reordered.
fn follow_groups(el: &mut Element, groups: &[String]) {
    let mut order: Vec<String> = groups.to_vec();
    let mut previous: Option<String> = None;
    for child in &el.children {
        let name = group(child.tag).to_string();
        if !order.contains(&name) {
            let at = previous
                .as_ref()
                .and_then(|p| order.iter().position(|known| known == p))
                .map_or(0, |p| p + 1);
            order.insert(at, name.clone());
        }
        previous = Some(name);
    }
    el.children.sort_by_key(|child| {
        order
            .iter()
            .position(|known| known == group(child.tag))
            .unwrap_or(usize::MAX)
    });
}

fn rename(el: &mut Element, renames: &[(&'static str, &'static str)]) {
    for (name, _) in &mut el.attributes {
        if let Some((_, spelled)) = renames.iter().find(|(from, _)| from == name) {
            *name = spelled;
        }
    }
}

/// Spells the canonical forms of the model as read (`old`) and as now (`new`) the way the
/// file under `root` spells the same things: a display node the file writes `<jta>` or
/// `<inputtext>` keeps that tag, an attribute the file writes under another name the
/// reader accepts (`columnGap`, `fps`) is patched under that name, and children come in
/// the file's order where the reader does not care about it. An element of `new`
/// is respelled only when it is the same element (tag and key) as one of `old`, so new
/// elements keep the canonical spelling.
fn spelled(old: &mut Element, new: &mut Element, root: Node) {
    let root_groups = groups_of(root);
    follow_groups(old, &root_groups);
    follow_groups(new, &root_groups);
    let dom_children: Vec<Node> = root.children().filter(Node::is_element).collect();
    let dom_list = dom_children.iter().find(|d| d.has_tag_name("displayList"));
    if let Some(dom_list) = dom_list {
        let dom_nodes: Vec<Node> = dom_list
            .children()
            .filter(|d| d.is_element() && !d.tag_name().name().eq_ignore_ascii_case("swf"))
            .collect();
        if let (Some(old_list), Some(new_list)) =
            (child_mut(old, "displayList"), child_mut(new, "displayList"))
        {
            respell_keyed(
                &mut old_list.children,
                &mut new_list.children,
                &dom_nodes,
                "id",
                |dom| Spelling {
                    tag: NODE_TAGS
                        .iter()
                        .find(|tag| **tag == dom.tag_name().name())
                        .copied(),
                    renames: Spelling::of(dom, NODE_ALIASES),
                    label: dom
                        .children()
                        .find(|d| d.has_tag_name("Label"))
                        .map(|label| Spelling::of(label, LABEL_ALIASES))
                        .unwrap_or_default(),
                    groups: groups_of(dom),
                },
            );
        }
    }
    respell_keyed(
        &mut old.children,
        &mut new.children,
        &dom_children,
        "name",
        |dom| {
            if dom.has_tag_name("transition") {
                Spelling {
                    renames: Spelling::of(dom, TRANSITION_ALIASES),
                    ..Spelling::default()
                }
            } else {
                Spelling::default()
            }
        },
    );
    if let Some(dom_label) = dom_children.iter().find(|d| d.has_tag_name("Label")) {
        let renames = Spelling::of(*dom_label, LABEL_ALIASES);
        for form in [old, new] {
            if let Some(label) = child_mut(form, "Label") {
                rename(label, &renames);
            }
        }
    }
}

/// Respells the keyed elements of `old` after the file's element of the same tag and key
/// (taken in order, each once), and the element of `new` that is the same element.
fn respell_keyed(
    old: &mut [Element],
    new: &mut [Element],
    dom: &[Node],
    attribute: &str,
    spelling: impl Fn(Node) -> Spelling,
) {
    let mut used = vec![false; dom.len()];
    let mut respelled = vec![false; new.len()];
    for old_el in old.iter_mut() {
        let Some((key_attribute, key)) = old_el.key.clone() else {
            continue;
        };
        if key_attribute != attribute {
            continue;
        }
        // A display node matches whatever tag spells its kind; other elements their tag.
        let same_tag = |d: &Node| attribute == "id" || d.tag_name().name() == old_el.tag;
        let Some(d) = (0..dom.len()).find(|&d| {
            !used[d] && same_tag(&dom[d]) && dom[d].attribute(attribute) == Some(key.as_str())
        }) else {
            continue;
        };
        used[d] = true;
        let spelling = spelling(dom[d]);
        if let Some(j) = (0..new.len()).find(|&j| !respelled[j] && new[j].same_as(old_el)) {
            respelled[j] = true;
            spelling.apply(&mut new[j]);
        }
        spelling.apply(old_el);
    }
}

fn child_mut<'e>(el: &'e mut Element, tag: &str) -> Option<&'e mut Element> {
    el.children.iter_mut().find(|c| c.tag == tag)
}
