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

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Xy,
    Size,
    Look,
    Color,
    Animation,
    Text,
    Icon,
    FontSize,
}

/// The element of one gear. Gears are told apart by their tag (a node has at most one of
/// each), so they are positional: siblings of one tag pair by rank, which is the tag.
pub fn gear(gear: &Gear) -> Element {
    let (tag, kind, value_gear) = match gear {
        Gear::Display(g) => return display("gearDisplay", g, false),
        Gear::Display2(g) => return display("gearDisplay2", g, true),
        Gear::Xy(g) => ("gearXY", Kind::Xy, g),
        Gear::Size(g) => ("gearSize", Kind::Size, g),
        Gear::Look(g) => ("gearLook", Kind::Look, g),
        Gear::Color(g) => ("gearColor", Kind::Color, g),
        Gear::Animation(g) => ("gearAni", Kind::Animation, g),
        Gear::Text(g) => ("gearText", Kind::Text, g),
        Gear::Icon(g) => ("gearIcon", Kind::Icon, g),
        Gear::FontSize(g) => ("gearFontSize", Kind::FontSize, g),
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

fn value(tag: &'static str, kind: Kind, g: &ValueGear) -> Element {
    let mut el = Element::new(tag, ORDER);
    el.set("controller", g.controller_name.as_str());
    let pages: Vec<&str> = g.states.iter().map(|s| s.page_id.as_str()).collect();
    el.set("pages", pages.join(","));
    if let Some(values) = values(kind, g) {
        el.set("values", values);
    }
    let default = encode(kind, &g.default_value);
    if default != encode(kind, &reader_default(kind)) {
        el.set("default", default);
    }
    el.flag("tween", g.tween, false);
    if g.ease_type != DEFAULT_EASE {
        el.set("ease", ease(g.ease_type));
    }
    el.text("customEase", &g.custom_ease_path);
    el.num("duration", g.tween_duration, 0.3);
    el.num("delay", g.tween_delay, 0.0);
    el.flag("positionsInPercent", g.positions_in_percent, false);
    el.text("condition", &g.condition);
    el
}

/// `values="v1|v2"`, a slot per page; `None` when no slot is needed.
fn values(kind: Kind, g: &ValueGear) -> Option<String> {
    let whole = matches!(kind, Kind::Text | Kind::Icon);
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

/// What the reader reads when `default` is absent.
fn reader_default(kind: Kind) -> Value {
    use serde_json::json;
    match kind {
        Kind::Xy => json!({ "x": 0, "y": 0 }),
        Kind::Size => json!({ "width": 0, "height": 0, "scaleX": 1, "scaleY": 1 }),
        Kind::Look => json!({ "alpha": 1, "rotation": 0, "grayed": false, "touchable": true }),
        Kind::Color => json!({ "color": "#ffffff", "outlineColor": null }),
        Kind::Animation => {
            json!({ "frame": 0, "playing": true, "animationName": "", "skinName": "" })
        }
        Kind::Text => json!({ "text": "" }),
        Kind::Icon => json!({ "icon": "" }),
        Kind::FontSize => json!({ "fontSize": 12 }),
    }
}

/// One page value (or the default) as the reader parses it back.
fn encode(kind: Kind, value: &Value) -> String {
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
        Kind::Xy => format!("{},{}", number("x", 0.0), number("y", 0.0)),
        Kind::Size => format!(
            "{},{},{},{}",
            number("width", 0.0),
            number("height", 0.0),
            number("scaleX", 1.0),
            number("scaleY", 1.0)
        ),
        // Flags as 0/1, as the editor writes them.
        Kind::Look => format!(
            "{},{},{},{}",
            number("alpha", 1.0),
            number("rotation", 0.0),
            u8::from(boolean("grayed", false)),
            u8::from(boolean("touchable", true))
        ),
        Kind::Color => {
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
        Kind::Animation => {
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
        Kind::Text => string("text"),
        Kind::Icon => string("icon"),
        Kind::FontSize => number("fontSize", 12.0),
    }
}
