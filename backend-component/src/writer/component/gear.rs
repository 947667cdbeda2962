//! A display node's `<gear*>` elements: the inverse of `reader::gear`.
//!
//! Page values are written as the newest editor writes them (JavaScript numbers, every
//! part of the value, `-` for a page that uses the default), so a gear whose values were
//! written by an older editor (`1.00,0,0`) reads the same but is spelled differently: that
//! only shows when an edit changes the gear, which rewrites its `values` attribute whole.

use ofgui_contracts::uam::{DisplayGear, Gear, ValueGear};
use serde_json::Value;

use super::spell::{Put, ease, json_part};
use crate::rules::DEFAULT_EASE;
use crate::rules::gears::{DEFAULT_TWEEN_DURATION, ValueGearKind};
use crate::writer::element::Element;
use crate::writer::lexical::num;

/// Gear attributes in the editor's order (corpora: `controller pages values default tween
/// ease duration`, `gearDisplay2`'s `condition` last); `customEase`, `delay` and
/// `positionsInPercent`, absent from the corpora, sit beside the tween settings.
const ORDER: &[&str] = &[
    "controller",
    "pages",
    "values",
    "default",
    "tween",
    "ease",
    "customEase",
    "duration",
    "delay",
    "positionsInPercent",
    "condition",
];

/// The element of one gear. Gears are told apart by their tag (a node has at most one of
/// each), so they are positional: siblings of one tag pair by rank, which is the tag.
pub fn gear(gear: &Gear) -> Element {
    let (tag, kind, value_gear) = match gear {
        Gear::Display(g) => return display("gearDisplay", g, false),
        Gear::Display2(g) => return display("gearDisplay2", g, true),
        Gear::Xy(g) => ("gearXY", ValueGearKind::Xy, g),
        Gear::Size(g) => ("gearSize", ValueGearKind::Size, g),
        Gear::Look(g) => ("gearLook", ValueGearKind::Look, g),
        Gear::Color(g) => ("gearColor", ValueGearKind::Color, g),
        Gear::Animation(g) => ("gearAni", ValueGearKind::Animation, g),
        Gear::Text(g) => ("gearText", ValueGearKind::Text, g),
        Gear::Icon(g) => ("gearIcon", ValueGearKind::Icon, g),
        Gear::FontSize(g) => ("gearFontSize", ValueGearKind::FontSize, g),
    };
    value(tag, kind, value_gear)
}

fn display(tag: &'static str, g: &DisplayGear, display2: bool) -> Element {
    let mut el = Element::new(tag, ORDER);
    el.set("controller", g.controller_name.as_str());
    // The editor writes `pages` even when empty (`pages=""`).
    el.set("pages", g.visible_on_page_ids.join(","));
    if display2 {
        // Absent reads as 0 (and); a plain gearDisplay has no condition.
        el.set_unless("condition", g.condition.as_deref().unwrap_or("0"), "0");
    }
    el
}

fn value(tag: &'static str, kind: ValueGearKind, g: &ValueGear) -> Element {
    let mut el = Element::new(tag, ORDER);
    el.set("controller", g.controller_name.as_str());
    let pages: Vec<&str> = g.states.iter().map(|s| s.page_id.as_str()).collect();
    el.set("pages", pages.join(","));
    if let Some(values) = values(kind, g) {
        el.set("values", values);
    }
    let default = encode(kind, &g.default_value);
    if g.default_written || default != encode(kind, &kind.bare_default()) {
        el.set("default", default);
    }
    el.flag("tween", g.tween, false);
    if g.ease_type != DEFAULT_EASE {
        el.set("ease", ease(g.ease_type));
    }
    el.text("customEase", &g.custom_ease_path);
    el.num("duration", g.tween_duration, DEFAULT_TWEEN_DURATION);
    el.num("delay", g.tween_delay, 0.0);
    el.flag("positionsInPercent", g.positions_in_percent, false);
    el.text("condition", &g.condition);
    el
}

/// `values="v1|v2"`, a slot per page; `None` when no slot is needed.
fn values(kind: ValueGearKind, g: &ValueGear) -> Option<String> {
    let whole = matches!(kind, ValueGearKind::Text | ValueGearKind::Icon);
    let mut slots: Vec<String> = g
        .states
        .iter()
        .map(|state| match &state.value {
            Some(value) => encode(kind, value),
            // A page on the default: `-` (text and icon have no such mark, since any
            // string is a real value for them; a missing slot is how they say it).
            None if whole => String::new(),
            None => "-".to_string(),
        })
        .collect();
    if whole {
        // Only missing trailing slots read as "use the default" for text and icon.
        let set = g
            .states
            .iter()
            .rposition(|state| state.value.is_some())
            .map_or(0, |last| last + 1);
        slots.truncate(set);
        if slots.is_empty() {
            return None;
        }
    } else if slots.is_empty() {
        return None;
    }
    Some(slots.join("|"))
}

/// One page value (or the default) as the reader parses it back.
fn encode(kind: ValueGearKind, value: &Value) -> String {
    let number = |key: &str, fallback: f64| {
        value
            .get(key)
            .and_then(Value::as_f64)
            .map_or_else(|| num(fallback), num)
    };
    let boolean =
        |key: &str, fallback: bool| value.get(key).and_then(Value::as_bool).unwrap_or(fallback);
    let string = |key: &str| value.get(key).map(json_part).unwrap_or_default();
    match kind {
        ValueGearKind::Xy => format!("{},{}", number("x", 0.0), number("y", 0.0)),
        ValueGearKind::Size => format!(
            "{},{},{},{}",
            number("width", 0.0),
            number("height", 0.0),
            number("scaleX", 1.0),
            number("scaleY", 1.0)
        ),
        // Flags as 0/1, as the editor writes them.
        ValueGearKind::Look => format!(
            "{},{},{},{}",
            number("alpha", 1.0),
            number("rotation", 0.0),
            u8::from(boolean("grayed", false)),
            u8::from(boolean("touchable", true))
        ),
        ValueGearKind::Color => {
            let color = match value.get("color") {
                Some(Value::String(c)) if !c.is_empty() => c.clone(),
                _ => "#ffffff".to_string(),
            };
            match value.get("outlineColor") {
                Some(Value::String(outline)) if !outline.is_empty() => {
                    format!("{color},{outline}")
                }
                _ => color,
            }
        }
        ValueGearKind::Animation => {
            let playing = if boolean("playing", true) { "p" } else { "s" };
            let mut parts = vec![number("frame", 0.0), playing.to_string()];
            let animation = string("animationName");
            let skin = string("skinName");
            if !animation.is_empty() || !skin.is_empty() {
                parts.push(animation);
            }
            if !skin.is_empty() {
                parts.push(skin);
            }
            parts.join(",")
        }
        ValueGearKind::Text => string("text"),
        ValueGearKind::Icon => string("icon"),
        ValueGearKind::FontSize => number("fontSize", 12.0),
    }
}
