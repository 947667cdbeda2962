//! Reads a component XML file (`<component>` root) into a `ComponentModel`: root
//! properties, the extension element, custom properties, controllers, the display list,
//! transitions and root relations.

use ofgui_contracts::Num;
use ofgui_contracts::uam::{
    ComponentCustomProperty, ComponentModel, ComponentProperties, Controller, ControllerAction,
    ControllerPage, EdgeInsets, Point, Size,
};
use roxmltree::Node;

use super::diag::Scope;
use super::node::{self, SizeRef};
use super::transition;
use super::values::Attrs;
use crate::rules::EXTENSION_TYPES;
use crate::rules::enums::{
    ACTION_TYPE, BUTTON_MODE, DOWN_EFFECT, OVERFLOW, SCROLL, SCROLL_BAR, TITLE_TYPE,
};

/// A component model plus the nodes whose size comes from their resource.
#[derive(Debug)]
pub(crate) struct ParsedComponent {
    pub model: ComponentModel,
    pub size_refs: Vec<SizeRef>,
}

/// The model of a component whose XML could not be read.
pub(crate) fn empty_model() -> ComponentModel {
    ComponentModel {
        size: Size::default(),
        properties: default_properties(),
        custom_data: String::new(),
        display_list: Vec::new(),
        controllers: Vec::new(),
        transitions: Vec::new(),
        relations: Vec::new(),
        unsupported_nodes: Vec::new(),
    }
}

/// The editor's defaults for every root property.
pub(crate) fn default_properties() -> ComponentProperties {
    ComponentProperties {
        min_size: Size::default(),
        max_size: Size::default(),
        pivot: Point::default(),
        pivot_as_anchor: false,
        overflow: 0,
        margin: EdgeInsets::default(),
        clip_softness: Point::default(),
        hit_test: String::new(),
        mask: String::new(),
        reversed_mask: false,
        scroll_type: 1,
        scroll_bar_display: 0,
        scroll_bar_flags: 0,
        scroll_bar_margin: EdgeInsets::default(),
        vt_scroll_bar_res: String::new(),
        hz_scroll_bar_res: String::new(),
        header_res: String::new(),
        footer_res: String::new(),
        bg_color: String::new(),
        bg_color_enabled: false,
        // The editor's design-image opacity defaults to 50 (percent).
        design_image_alpha: Num(50.0),
        design_image_layer: 0,
        design_image_offset: Point::default(),
        design_image: String::new(),
        design_image_for_test: false,
        page_controller: String::new(),
        show_sound: String::new(),
        hide_sound: String::new(),
        id_num: Num::ZERO,
        init_name: String::new(),
        remark: String::new(),
        custom_extension_id: String::new(),
        extension_type: String::new(),
        opaque: true,
        button_mode: 0,
        sound: String::new(),
        sound_volume_scale: Num::ONE,
        down_effect: 0,
        down_effect_value: Num(0.8),
        dropdown: String::new(),
        prompt_text: String::new(),
        selection_controller: String::new(),
        title_type: 0,
        reverse: false,
        whole_numbers: false,
        change_on_click: true,
        fixed_grip_size: false,
        auto_clear_items: false,
        custom_properties: Vec::new(),
    }
}

/// Parses component XML. `Err` (malformed XML or another root) leaves the caller to
/// report `invalid_component_xml`; finer problems land in `scope` and are skipped.
pub(crate) fn parse_component(text: &str, scope: &mut Scope) -> Result<ParsedComponent, String> {
    let doc = roxmltree::Document::parse(text).map_err(|e| e.to_string())?;
    let root = doc.root_element();
    if root.tag_name().name() != "component" {
        return Err(format!(
            "root element is <{}>, not <component>",
            root.tag_name().name()
        ));
    }
    let mut model = empty_model();
    let mut size_refs = Vec::new();
    read_root_attributes(root, scope, &mut model);

    for child in root.children().filter(Node::is_element) {
        match child.tag_name().name() {
            "controller" => {
                let at = format!(".controllers[{}]", model.controllers.len());
                model.controllers.push(read_controller(child, scope, &at));
            }
            "displayList" => {
                for (element_index, el) in child.children().filter(Node::is_element).enumerate() {
                    let k = model.unsupported_nodes.len();
                    if let Some(kept) = node::read_unmodeled(el, k, element_index, scope) {
                        model.unsupported_nodes.push(kept);
                        continue;
                    }
                    let index = model.display_list.len();
                    if let Some((n, size_ref)) = node::read_node(el, index, scope) {
                        // Old editors mark the hit-test child itself (`forHitTest="true"`)
                        // where today's name it on the component (`hitTest="n1"`); both
                        // publish the same, and a save writes today's form.
                        if model.properties.hit_test.is_empty()
                            && el.attribute("forHitTest") == Some("true")
                        {
                            model.properties.hit_test = n.base().id.clone();
                        }
                        model.display_list.push(n);
                        size_refs.extend(size_ref);
                    }
                }
            }
            "transition" => {
                let at = format!(".transitions[{}]", model.transitions.len());
                model
                    .transitions
                    .push(transition::read_transition(child, scope, &at));
            }
            "relation" => model
                .relations
                .extend(node::read_relation(child, scope, "", None)),
            "customProperty" => {
                let at = format!(
                    ".properties.customProperties[{}]",
                    model.properties.custom_properties.len()
                );
                let mut a = Attrs::new(child, scope, &at);
                model
                    .properties
                    .custom_properties
                    .push(ComponentCustomProperty {
                        target: a.string("target"),
                        property_id: a.int("propertyId", 0),
                        label: a.string("label"),
                    });
            }
            tag if tag == model.properties.extension_type => {
                read_extension(child, scope, &mut model.properties);
            }
            // Unknown XML is dropped, as upstream does.
            _ => {}
        }
    }
    Ok(ParsedComponent { model, size_refs })
}

fn read_root_attributes(root: Node, scope: &mut Scope, model: &mut ComponentModel) {
    let mut a = Attrs::new(root, scope, "");
    model.size = a.size("size").unwrap_or_default();
    model.custom_data = a.string("customData");
    let p = &mut model.properties;
    (p.min_size, p.max_size) = a.restrict_size("restrictSize");
    p.pivot = a.point("pivot", (0.0, 0.0));
    p.pivot_as_anchor = a.bool("anchor", false);
    p.overflow = a.enumeration("overflow", OVERFLOW, 0);
    p.margin = a.insets("margin");
    p.clip_softness = a.point("clipSoftness", (0.0, 0.0));
    p.hit_test = a.string("hitTest");
    p.mask = a.string("mask");
    p.reversed_mask = a.bool("reversedMask", false);
    // The editor keeps the scroll settings whatever the overflow, so they are read always.
    p.scroll_type = a.enumeration("scroll", SCROLL, 1);
    p.scroll_bar_display = a.enumeration("scrollBar", SCROLL_BAR, 0);
    p.scroll_bar_flags = a.int("scrollBarFlags", 0);
    p.scroll_bar_margin = a.insets("scrollBarMargin");
    (p.vt_scroll_bar_res, p.hz_scroll_bar_res) = split_pair(a.raw("scrollBarRes"));
    (p.header_res, p.footer_res) = split_pair(a.raw("ptrRes"));
    p.bg_color = a.string("bgColor");
    p.bg_color_enabled = a.bool("bgColorEnabled", false);
    p.design_image = a.string("designImage");
    p.design_image_alpha = a.num("designImageAlpha", 50.0);
    p.design_image_layer = a.int("designImageLayer", 0);
    p.design_image_offset = Point {
        x: a.num("designImageOffsetX", 0.0),
        y: a.num("designImageOffsetY", 0.0),
    };
    p.design_image_for_test = a.bool("designImageForTest", false);
    p.page_controller = a.string("pageController");
    p.show_sound = a.string("showSound");
    p.hide_sound = a.string("hideSound");
    p.id_num = a.num("idnum", 0.0);
    p.init_name = a.string("initName");
    p.remark = a.string("remark");
    p.custom_extension_id = a.string("customExtention");
    p.opaque = a.bool("opaque", true);
    if let Some(ext) = a.raw("extention").filter(|e| !e.is_empty()) {
        if EXTENSION_TYPES.contains(&ext) {
            p.extension_type = ext.to_owned();
        } else {
            a.report(
                "extention",
                format!("attribute extention=\"{ext}\" is not a known extension"),
            );
        }
    }
}

fn split_pair(raw: Option<&str>) -> (String, String) {
    match raw.map(|r| r.split_once(',').unwrap_or((r, ""))) {
        Some((first, second)) => (first.to_owned(), second.to_owned()),
        None => (String::new(), String::new()),
    }
}

/// The root's `<Button|Label|ComboBox|ProgressBar|Slider|ScrollBar>` element.
fn read_extension(el: Node, scope: &mut Scope, p: &mut ComponentProperties) {
    let at = format!(".properties.{}", el.tag_name().name());
    let mut a = Attrs::new(el, scope, &at);
    match el.tag_name().name() {
        "Button" => {
            p.button_mode = a.enumeration("mode", BUTTON_MODE, 0);
            p.sound = a.string("sound");
            p.sound_volume_scale = Num(a.f64("volume", 100.0) / 100.0);
            p.down_effect = a.enumeration("downEffect", DOWN_EFFECT, 0);
            p.down_effect_value = a.num("downEffectValue", 0.8);
        }
        "Label" => {
            p.prompt_text = a
                .raw_any(&["prompt", "promptText"])
                .unwrap_or_default()
                .to_owned();
        }
        "ComboBox" => {
            p.dropdown = a.string("dropdown");
            p.selection_controller = a.string("selectionController");
            p.auto_clear_items = a.bool("autoClearItems", false);
        }
        "ProgressBar" => {
            p.title_type = a.enumeration("titleType", TITLE_TYPE, 0);
            p.reverse = a.bool("reverse", false);
        }
        "Slider" => {
            p.title_type = a.enumeration("titleType", TITLE_TYPE, 0);
            p.reverse = a.bool("reverse", false);
            p.whole_numbers = a.bool("wholeNumbers", false);
            p.change_on_click = a.bool("changeOnClick", true);
        }
        "ScrollBar" => {
            p.fixed_grip_size = a.bool("fixedGripSize", false);
        }
        _ => {}
    }
}

/// Comma-separated ids; an empty attribute is no id at all.
fn id_list(raw: Option<&str>) -> Vec<String> {
    raw.map(|r| {
        r.split(',')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()
    })
    .unwrap_or_default()
}

fn read_controller(el: Node, scope: &mut Scope, at: &str) -> Controller {
    let mut actions = Vec::new();
    for (i, child) in el
        .children()
        .filter(|c| c.has_tag_name("action"))
        .enumerate()
    {
        actions.push(read_action(child, scope, &format!("{at}.actions[{i}]")));
    }
    let mut a = Attrs::new(el, scope, at);
    // `pages="id,name,id,name"`; an odd tail is a page without a name.
    let parts: Vec<&str> = match a.raw("pages") {
        Some(raw) if !raw.is_empty() => raw.split(',').collect(),
        _ => Vec::new(),
    };
    let pages: Vec<ControllerPage> = parts
        .chunks(2)
        .map(|pair| ControllerPage {
            id: pair[0].to_owned(),
            name: pair.get(1).copied().unwrap_or_default().to_owned(),
            remark: String::new(),
        })
        .collect();
    let mut controller = Controller {
        name: a.string("name"),
        selected_index: a.num("selected", 0.0),
        auto_radio_group_depth: a.bool("autoRadioGroupDepth", false),
        alias: a.string("alias"),
        exported: a.bool("exported", false),
        home_page_type: a.string_or("homePageType", "default"),
        home_page: a.string("homePage"),
        pages,
        actions,
    };
    // `<remark page="N" value="…"/>`: N is the page's position, not its id.
    let count = controller.pages.len();
    for remark in el.children().filter(|c| c.has_tag_name("remark")) {
        let page = remark
            .attribute("page")
            .and_then(|n| n.trim().parse::<usize>().ok());
        match page.and_then(|index| controller.pages.get_mut(index)) {
            Some(page) => page.remark = remark.attribute("value").unwrap_or_default().to_owned(),
            // Kept in the file as it is; the editor would not show it either.
            None => scope.tolerated_value(
                &format!("{at}.pages"),
                None,
                format!(
                    "<remark page=\"{}\"> names no page of the controller's {}; it is left as it is",
                    remark.attribute("page").unwrap_or_default(),
                    count
                ),
            ),
        }
    }
    controller
}

fn read_action(el: Node, scope: &mut Scope, at: &str) -> ControllerAction {
    let mut a = Attrs::new(el, scope, at);
    ControllerAction {
        name: String::new(),
        action_type: a.enumeration("type", ACTION_TYPE, 0),
        from_page_ids: id_list(a.raw("fromPage")),
        to_page_ids: id_list(a.raw("toPage")),
        transition_name: a.string("transition"),
        play_times: a.num("repeat", 1.0),
        delay: a.num("delay", 0.0),
        stop_on_exit: a.bool("stopOnExit", false),
        target_node_id: a.string("objectId"),
        controller_name: a.string("controller"),
        target_page: a.string("targetPage"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ofgui_contracts::uam::DisplayNode;

    fn parse(xml: &str) -> (ComponentModel, Scope) {
        let mut scope = Scope::new("packages[0].resources[0].component");
        let parsed = parse_component(xml, &mut scope).expect("component");
        (parsed.model, scope)
    }

    #[test]
    fn root_properties_and_button_extension() {
        let (m, scope) = parse(
            r#"<?xml version="1.0" encoding="utf-8"?>
            <component size="163,69" extention="Button" overflow="scroll" scroll="horizontal" scrollBarRes="ui://a,ui://b" margin="1,2,3,4" idnum="5" opaque="false">
              <controller name="button" pages="0,up,1,down,2,over,3,selectedOver" selected="0">
                <action type="play_transition" fromPage="0" toPage="1,2" transition="t0"/>
              </controller>
              <displayList>
                <image id="n0" src="x"/>
                <bogus id="n1"/>
                <text id="n2" text="hi"/>
              </displayList>
              <relation target="" sidePair="width-width"/>
              <Button mode="Radio" downEffect="dark" volume="80"/>
            </component>"#,
        );
        assert_eq!(scope.diagnostics.len(), 1, "{:?}", scope.diagnostics);
        assert_eq!(m.size.width, Num(163.0));
        let p = &m.properties;
        assert_eq!(p.extension_type, "Button");
        assert_eq!(p.button_mode, 2);
        assert_eq!(p.down_effect, 1);
        assert_eq!(p.sound_volume_scale, Num(0.8));
        assert_eq!(p.overflow, 2);
        assert_eq!(p.scroll_type, 0);
        assert_eq!(p.vt_scroll_bar_res, "ui://a");
        assert_eq!(p.hz_scroll_bar_res, "ui://b");
        assert_eq!(p.margin.left, Num(3.0));
        assert_eq!(p.id_num, Num(5.0));
        assert!(!p.opaque);
        let c = &m.controllers[0];
        assert_eq!(c.pages.len(), 4);
        assert_eq!(c.pages[3].name, "selectedOver");
        assert_eq!(c.actions[0].to_page_ids, vec!["1", "2"]);
        assert_eq!(m.display_list.len(), 2);
        assert!(matches!(m.display_list[1], DisplayNode::Text(_)));
        assert_eq!(m.relations[0].relation_type, 14);
    }

    #[test]
    fn deep_nesting_and_truncation_never_panic() {
        let depth = 50_000;
        let mut xml = String::from("<component><displayList><image id=\"n0\">");
        xml.push_str(&"<relation>".repeat(depth));
        xml.push_str(&"</relation>".repeat(depth));
        xml.push_str("</image></displayList></component>");
        let mut scope = Scope::new("c");
        let parsed = parse_component(&xml, &mut scope);
        assert!(parsed.is_ok() || parsed.is_err());

        let sample = r#"<component size="10,10" extention="Slider"><controller name="c" pages="0,a,1,b"><action type="change_page" fromPage="0"/></controller><displayList><list id="l" layout="flow_hz" lineItemCount="3"><item title="t"><property target="x" propertyId="1" value="v"/></item></list><text id="t" text="&lt;&amp;"/></displayList><transition name="t"><item type="Alpha" tween="true" startValue="0" endValue="1"/></transition><Slider titleType="max" changeOnClick="false"/></component>"#;
        for end in 0..=sample.len() {
            if sample.is_char_boundary(end) {
                let mut scope = Scope::new("c");
                let _ = parse_component(&sample[..end], &mut scope);
            }
        }
        let mut scope = Scope::new("c");
        let m = parse_component(sample, &mut scope)
            .expect("complete sample")
            .model;
        assert!(scope.diagnostics.is_empty(), "{:?}", scope.diagnostics);
        assert_eq!(m.properties.title_type, 3);
        assert!(!m.properties.change_on_click);
        let DisplayNode::List(list) = &m.display_list[0] else {
            panic!("list")
        };
        assert_eq!(list.list.column_count, Num(3.0));
        assert!(!list.list.auto_resize_item);
        assert_eq!(
            list.list.list_items[0]
                .property_overrides
                .as_ref()
                .map(Vec::len),
            Some(1)
        );
        let DisplayNode::Text(text) = &m.display_list[1] else {
            panic!("text")
        };
        assert_eq!(text.text.text, "<&");
    }

    #[test]
    fn legacy_swf_nodes_are_kept_unmodeled_with_a_warning() {
        let (m, scope) = parse(
            r#"<component size="10,10"><displayList><image id="n0" src="x"/><swf id="n1" name="flash" src="s1"/><text id="n2"/></displayList></component>"#,
        );
        let ids: Vec<&str> = m.display_list.iter().map(DisplayNode::id).collect();
        assert_eq!(ids, ["n0", "n2"]);
        assert_eq!(m.unsupported_nodes.len(), 1);
        let kept = &m.unsupported_nodes[0];
        assert_eq!(
            (
                kept.element.as_str(),
                kept.id.as_str(),
                kept.name.as_str(),
                kept.index
            ),
            ("swf", "n1", "flash", 1)
        );
        assert!(m.has_node_id("n1") && !m.has_node_id("n3"));
        assert_eq!(scope.diagnostics.len(), 1, "{:?}", scope.diagnostics);
        let warning = &scope.diagnostics[0];
        assert_eq!(
            warning.severity,
            ofgui_contracts::diagnostics::Severity::Warning
        );
        assert_eq!(
            warning.path,
            "packages[0].resources[0].component.unsupportedNodes[0]"
        );
        assert_eq!(warning.node_id.as_deref(), Some("n1"));
    }

    #[test]
    fn malformed_xml_is_an_error() {
        let mut scope = Scope::new("c");
        assert!(parse_component("<component", &mut scope).is_err());
        assert!(parse_component("<other/>", &mut scope).is_err());
        assert!(parse_component("", &mut scope).is_err());
    }
}
