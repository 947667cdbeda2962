//! A component's `<transition>` elements and their `<item>`s: the inverse of
//! `reader::transition`.

use ofgui_contracts::uam::{Transition, TransitionItem};
use serde_json::Value;

use super::spell::{Put, ease, json_part};
use crate::rules::{DEFAULT_EASE, TRANSITION_ACTIONS, UNKNOWN_ACTION};
use crate::writer::element::Element;
use crate::writer::lexical::{flag, name_of, number};

/// Corpora: `name autoPlay autoPlayRepeat`. `autoPlayDelay`, `frameRate` and `options`
/// never appear there; they follow the auto-play settings.
const TRANSITION_ORDER: &[&str] = &[
    "name",
    "autoPlay",
    "autoPlayRepeat",
    "autoPlayDelay",
    "frameRate",
    "options",
];

/// Corpora: `time type target label tween startValue endValue duration ease repeat yoyo
/// path label2`, with `value` where a plain item has it; `customEase` (not in the corpora)
/// follows `ease`.
const ITEM_ORDER: &[&str] = &[
    "time",
    "type",
    "target",
    "label",
    "tween",
    "value",
    "startValue",
    "endValue",
    "duration",
    "ease",
    "customEase",
    "repeat",
    "yoyo",
    "path",
    "label2",
];

const TEXT_ACTION: i32 = 14;
const ICON_ACTION: i32 = 15;

/// A transition, keyed by its name (unique in a component).
pub fn transition(t: &Transition) -> Element {
    let mut el = Element::new("transition", TRANSITION_ORDER);
    el.set("name", t.name.as_str());
    el.flag("autoPlay", t.auto_play, false);
    el.num("autoPlayRepeat", t.auto_play_times, 1.0);
    el.num("autoPlayDelay", t.auto_play_delay, 0.0);
    el.num("frameRate", t.fps, 24.0);
    el.num("options", t.options, 0.0);
    // Items have no key of their own; several may share time, type and target.
    el.children = t.items.iter().map(item).collect();
    el.keyed("name")
}

fn item(item: &TransitionItem) -> Element {
    let mut el = Element::new("item", ITEM_ORDER);
    // The editor writes the time of every item, 0 included.
    el.set("time", number(item.time));
    let known = name_of(TRANSITION_ACTIONS, item.action_type);
    match (known, &item.action_type_name) {
        (Some(name), _) => el.set("type", name),
        (None, Some(name)) => el.set("type", name.as_str()),
        // An item without a type reads as Unknown.
        (None, None) if item.action_type == UNKNOWN_ACTION => {}
        (None, None) => el.set("type", item.action_type.to_string()),
    }
    el.text("target", &item.target_node_id);
    el.text("label", &item.label);
    let whole = matches!(item.action_type, TEXT_ACTION | ICON_ACTION);
    if item.tween {
        el.set("tween", flag(true));
        if let Some(start) = parts(&item.start_value, whole) {
            el.set("startValue", start);
        }
        if let Some(end) = parts(&item.end_value, whole) {
            el.set("endValue", end);
        }
    } else if let Some(value) = parts(&item.start_value, whole) {
        el.set("value", value);
    }
    el.num("duration", item.duration, 0.0);
    if item.ease_type != DEFAULT_EASE {
        el.set("ease", ease(item.ease_type));
    }
    el.text("customEase", &item.custom_ease_path);
    el.num("repeat", item.repeat, 0.0);
    el.flag("yoyo", item.yoyo, false);
    el.text("path", &item.path);
    el.text("label2", &item.end_label);
    el
}

/// A value's comma parts; `None` when the attribute is left out (no parts). Text and icon
/// values are one string, which may itself hold commas; an empty one is written, since
/// it differs from none.
fn parts(values: &[Value], whole: bool) -> Option<String> {
    if values.is_empty() {
        return None;
    }
    let text = values.iter().map(json_part).collect::<Vec<_>>().join(",");
    // An empty string of a value split at commas reads back as no parts at all.
    (whole || !text.is_empty() || values.len() > 1).then_some(text)
}
