//! Which gear kinds a display node can carry, as the FairyGUI runtime applies them
//! (`GearBase` and its kinds in FairyGUI-unity): for transactions (an edit may not add a
//! gear that does not fit its node) and validation (which reports one a project has).
//!
//! Display, display2, xy, size and look gears fit every node. The others set one property
//! of their node through an interface only some node classes have:
//! - `color` (`IColorGear`): images, texts, graphs, loaders, movie clips, buttons and
//!   labels; on anything else `GearColor` fails its cast when the node is built.
//! - `animation` (`IAnimationGear`): loaders, 3-D loaders and movie clips; elsewhere
//!   `GearAnimation` fails its cast.
//! - `fontSize`: texts, buttons and labels (their title text field); elsewhere
//!   `GearFontSize` fails its cast to a text field.
//! - `text`: texts, buttons, labels and combo boxes; elsewhere the node has no text to
//!   set (`GObject.text` ignores it), so the gear does nothing.
//! - `icon`: loaders, 3-D loaders, buttons, labels and combo boxes; elsewhere it does
//!   nothing.
//!
//! The FairyGUI editor only offers the gears that fit a node, so a gear that does not fit
//! comes from a hand edit: one that fails is an error, one that does nothing a warning.
//!
//! Also the defaults of a value gear's element, for the reader (which fills them in) and
//! the writer (which leaves them out): [`ValueGearKind::bare_default`] and
//! [`DEFAULT_TWEEN_DURATION`].

use ofgui_contracts::uam::{Controller, ValueGear};
use serde_json::{Value, json};

/// How a gear kind fits a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GearFit {
    Applies,
    /// The runtime ignores it.
    NoEffect,
    /// The runtime fails building the node.
    Fails,
}

/// The runtime class of a node, from its kind and, for a component instance, the
/// extension type of its component (`''` for a plain component).
fn class<'k>(node_kind: &'k str, extension: &'k str) -> &'k str {
    match node_kind {
        "component" if !extension.is_empty() => extension,
        "button" => "Button",
        "label" => "Label",
        "comboBox" => "ComboBox",
        "progressBar" | "slider" | "scrollBar" | "list" | "tree" => "component",
        other => other,
    }
}

/// How a gear of `gear_kind` fits a node of `node_kind` (with `extension`, see
/// [`class`]).
pub fn gear_fit(gear_kind: &str, node_kind: &str, extension: &str) -> GearFit {
    const TEXT: [&str; 3] = ["text", "richText", "textInput"];
    let class = class(node_kind, extension);
    let has = |classes: &[&str]| {
        classes.contains(&class) || (TEXT.contains(&class) && classes.contains(&"text"))
    };
    let (fits, otherwise) = match gear_kind {
        "color" => (
            has(&[
                "image",
                "text",
                "graph",
                "loader",
                "loader3D",
                "movieClip",
                "Button",
                "Label",
            ]),
            GearFit::Fails,
        ),
        "animation" => (has(&["loader", "loader3D", "movieClip"]), GearFit::Fails),
        "fontSize" => (has(&["text", "Button", "Label"]), GearFit::Fails),
        "text" => (
            has(&["text", "Button", "Label", "ComboBox"]),
            GearFit::NoEffect,
        ),
        "icon" => (
            has(&["loader", "loader3D", "Button", "Label", "ComboBox"]),
            GearFit::NoEffect,
        ),
        _ => (true, GearFit::Applies),
    };
    if fits { GearFit::Applies } else { otherwise }
}

/// The kinds of value gear: each holds a value per page and a default (display gears
/// hold only the pages they show on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueGearKind {
    Xy,
    Size,
    Look,
    Color,
    Animation,
    Text,
    Icon,
    FontSize,
}

impl ValueGearKind {
    /// The default a value gear of this kind has when its element names no `default`:
    /// what the reader reads, and so what the writer need not write.
    pub fn bare_default(self) -> Value {
        match self {
            Self::Xy => json!({ "x": 0, "y": 0 }),
            Self::Size => json!({ "width": 0, "height": 0, "scaleX": 1, "scaleY": 1 }),
            Self::Look => json!({ "alpha": 1, "rotation": 0, "grayed": false, "touchable": true }),
            Self::Color => json!({ "color": "#ffffff", "outlineColor": null }),
            Self::Animation => {
                json!({ "frame": 0, "playing": true, "animationName": "", "skinName": "" })
            }
            Self::Text => json!({ "text": "" }),
            Self::Icon => json!({ "icon": "" }),
            Self::FontSize => json!({ "fontSize": 12 }),
        }
    }
}

/// The default the reader gives a value gear of this kind (`xy`, `look`, …) whose element
/// has no `default`; `None` for display gears. The model cannot tell it from a default
/// written out; [`has_default`] infers which it was.
pub fn bare_default(kind: &str) -> Option<Value> {
    let kind = match kind {
        "xy" => ValueGearKind::Xy,
        "size" => ValueGearKind::Size,
        "look" => ValueGearKind::Look,
        "color" => ValueGearKind::Color,
        "animation" => ValueGearKind::Animation,
        "text" => ValueGearKind::Text,
        "icon" => ValueGearKind::Icon,
        "fontSize" => ValueGearKind::FontSize,
        _ => return None,
    };
    Some(kind.bare_default())
}

/// Whether a value gear has a default the runtime falls back to. The model holds the bare
/// default when the file names none, so this is inferred as the editor writes: it leaves
/// the default out when the gear gives every page of its controller a value (nothing falls
/// back to it), and writes one that differs from the bare default, or one the file writes.
pub fn has_default(kind: &str, gear: &ValueGear, controller: Option<&Controller>) -> bool {
    if gear.default_written {
        return true;
    }
    let covers_every_page = controller.is_some_and(|controller| {
        controller.pages.iter().all(|page| {
            gear.states
                .iter()
                .any(|s| s.page_id == page.id && s.value.is_some())
        })
    });
    !covers_every_page
        || bare_default(kind).is_none_or(|bare| !same_value(&bare, &gear.default_value))
}

/// JSON values equal as the runtime reads them (`1` and `1.0` alike).
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(key, value)| b.get(key).is_some_and(|other| same_value(value, other)))
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_value(a, b))
        }
        _ => a == b,
    }
}

/// A value gear's tween duration (seconds) when its element names none.
pub const DEFAULT_TWEEN_DURATION: f64 = 0.3;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gears_fit_the_nodes_the_runtime_applies_them_to() {
        assert_eq!(gear_fit("look", "group", ""), GearFit::Applies);
        assert_eq!(gear_fit("text", "image", ""), GearFit::NoEffect);
        assert_eq!(gear_fit("text", "richText", ""), GearFit::Applies);
        assert_eq!(gear_fit("text", "component", "Button"), GearFit::Applies);
        assert_eq!(gear_fit("text", "component", ""), GearFit::NoEffect);
        assert_eq!(gear_fit("icon", "loader", ""), GearFit::Applies);
        assert_eq!(gear_fit("color", "comboBox", ""), GearFit::Fails);
        assert_eq!(gear_fit("color", "textInput", ""), GearFit::Applies);
        assert_eq!(gear_fit("animation", "image", ""), GearFit::Fails);
        assert_eq!(gear_fit("fontSize", "component", "Label"), GearFit::Applies);
        assert_eq!(gear_fit("fontSize", "list", ""), GearFit::Fails);
    }
}
