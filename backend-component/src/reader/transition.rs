//! Reads a component's `<transition>` elements and their keyframe items.
//!
//! Item values are comma-separated; each part becomes a JSON number when it parses as a
//! finite number and a string otherwise (`-` means "keep the current value"). Text and
//! Icon values are kept whole, since text may itself contain commas. A non-tween item's
//! `value` fills `startValue` and leaves `endValue` empty.

use ofgui_contracts::uam::{Transition, TransitionItem};
use roxmltree::Node;
use serde_json::Value;

use super::diag::Scope;
use super::values::{Attrs, json_num, lookup, parse_num};
use crate::rules::{TRANSITION_ACTIONS, UNKNOWN_ACTION};

const TEXT_ACTION: i32 = 14;
const ICON_ACTION: i32 = 15;

pub(crate) fn read_transition(el: Node, scope: &mut Scope, at: &str) -> Transition {
    let mut items = Vec::new();
    for (i, child) in el.children().filter(|c| c.has_tag_name("item")).enumerate() {
        items.push(read_item(child, scope, &format!("{at}.items[{i}]")));
    }
    let mut a = Attrs::new(el, scope, at);
    let repeat = if a.has("autoPlayRepeat") {
        "autoPlayRepeat"
    } else {
        "autoPlayTimes"
    };
    // The editor stores the frame rate as `frameRate`; `fps` is the UAM writer's name.
    let fps = if a.has("fps") { "fps" } else { "frameRate" };
    Transition {
        name: a.string("name"),
        auto_play: a.bool("autoPlay", false),
        auto_play_times: a.num(repeat, 1.0),
        auto_play_delay: a.num("autoPlayDelay", 0.0),
        options: a.num("options", 0.0),
        fps: a.num(fps, 24.0),
        items,
    }
}

fn read_item(el: Node, scope: &mut Scope, at: &str) -> TransitionItem {
    let mut a = Attrs::new(el, scope, at);
    let raw_type = a.raw("type");
    let known = raw_type.and_then(|t| lookup(TRANSITION_ACTIONS, t));
    let action_type = known.unwrap_or(UNKNOWN_ACTION);
    // An action this server does not know keeps its name; validation reports it.
    let action_type_name = raw_type.filter(|_| known.is_none()).map(str::to_owned);
    let whole = matches!(action_type, TEXT_ACTION | ICON_ACTION);
    let tween = a.bool("tween", false);
    let (start_value, end_value) = if tween {
        (
            split_values(a.raw("startValue"), whole),
            split_values(a.raw("endValue"), whole),
        )
    } else {
        let value = a.raw("value").or_else(|| a.raw("startValue"));
        (split_values(value, whole), Vec::new())
    };
    TransitionItem {
        name: String::new(),
        time: a.num("time", 0.0),
        action_type,
        action_type_name,
        target_node_id: a.string("target"),
        tween,
        duration: a.num("duration", 0.0),
        start_value,
        end_value,
        ease_type: a.ease("ease"),
        repeat: a.num("repeat", 0.0),
        yoyo: a.bool("yoyo", false),
        label: a.string("label"),
        end_label: a.string("label2"),
        path: a.string("path"),
        custom_ease_path: a.string("customEase"),
    }
}

fn split_values(raw: Option<&str>, whole: bool) -> Vec<Value> {
    match raw {
        None => Vec::new(),
        Some(raw) if whole => vec![Value::String(raw.to_owned())],
        Some("") => Vec::new(),
        Some(raw) => raw
            .split(',')
            .map(|part| match parse_num(part) {
                Some(v) => json_num(v),
                None => Value::String(part.to_owned()),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn transition(xml: &str) -> Transition {
        let doc = roxmltree::Document::parse(xml).expect("xml");
        let mut scope = Scope::new("c");
        let t = read_transition(doc.root_element(), &mut scope, ".transitions[0]");
        assert!(scope.diagnostics.is_empty(), "{:?}", scope.diagnostics);
        t
    }

    #[test]
    fn tween_and_plain_items() {
        let t = transition(
            r##"<transition name="t0" autoPlay="true" autoPlayRepeat="-1">
              <item time="0" type="XY" target="n1" tween="true" startValue="0,-" endValue="10.5,20" duration="12" ease="Back.Out"/>
              <item time="3" type="Visible" target="n2" value="false"/>
              <item time="4" type="Text" target="n3" value="a, b"/>
              <item time="5" type="Bogus"/>
            </transition>"##,
        );
        assert_eq!(t.name, "t0");
        assert!(t.auto_play);
        assert_eq!(t.auto_play_times.get(), -1.0);
        assert_eq!(t.fps.get(), 24.0);
        let xy = &t.items[0];
        assert_eq!(xy.action_type, 0);
        assert_eq!(xy.start_value, vec![json!(0), json!("-")]);
        assert_eq!(xy.end_value, vec![json!(10.5), json!(20)]);
        assert_eq!(xy.ease_type, 26);
        assert_eq!(t.items[1].start_value, vec![json!("false")]);
        assert!(t.items[1].end_value.is_empty());
        assert_eq!(t.items[2].start_value, vec![json!("a, b")]);
        assert_eq!(t.items[3].action_type, 16);
        // What the file says is kept beside the Unknown number.
        assert_eq!(t.items[3].action_type_name.as_deref(), Some("Bogus"));
        assert_eq!(xy.action_type_name, None);
    }
}
