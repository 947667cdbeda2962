//! Reads the `<gear*>` children of a display node into gear bindings.
//!
//! A gear's `pages="p1,p2"` pairs with `values="v1|v2"` slot by slot. A missing slot is
//! `null` (the page uses the default); for every kind but text and icon an empty slot or
//! `-` is `null` too, exactly as the editor publishes it (text and icon keep `""`, which
//! is a real value for them). The binding `name` is `""`: the XML has no gear name, and
//! a gear is identified by (kind, controllerName).

use ofgui_contracts::diagnostics::ProjectDiagnosticCode;
use ofgui_contracts::uam::{DisplayGear, Gear, GearPageState, ValueGear};
use roxmltree::Node;
use serde_json::{Value, json};

use super::diag::Scope;
use super::values::{Attrs, json_num, parse_bool, parse_num};
use crate::rules::gears::{DEFAULT_TWEEN_DURATION, ValueGearKind};

/// True for an element name that is a gear (known or not).
pub(crate) fn is_gear_tag(tag: &str) -> bool {
    tag.starts_with("gear")
}

/// Reads one gear element at model path `at` (`….gears[g]`); `None` (with a diagnostic)
/// for an unknown gear tag.
pub(crate) fn read_gear(el: Node, scope: &mut Scope, at: &str, node_id: &str) -> Option<Gear> {
    let tag = el.tag_name().name();
    let value_kind = match tag {
        "gearDisplay" | "gearDisplay2" => None,
        "gearXY" => Some(ValueGearKind::Xy),
        "gearSize" => Some(ValueGearKind::Size),
        "gearLook" => Some(ValueGearKind::Look),
        "gearColor" => Some(ValueGearKind::Color),
        "gearAni" => Some(ValueGearKind::Animation),
        "gearText" => Some(ValueGearKind::Text),
        "gearIcon" => Some(ValueGearKind::Icon),
        "gearFontSize" => Some(ValueGearKind::FontSize),
        _ => {
            scope.error(
                ProjectDiagnosticCode::InvalidComponentXml,
                at,
                Some(node_id),
                format!("unknown gear element <{tag}>"),
            );
            return None;
        }
    };
    let mut a = Attrs::new(el, scope, at).for_node(node_id);
    let controller_name = a.string("controller");
    let pages: Vec<String> = match a.raw("pages") {
        Some(raw) if !raw.is_empty() => raw.split(',').map(str::to_owned).collect(),
        _ => Vec::new(),
    };
    let Some(kind) = value_kind else {
        let display2 = tag == "gearDisplay2";
        let gear = DisplayGear {
            name: String::new(),
            controller_name,
            visible_on_page_ids: pages,
            // display2 combines with gearDisplay by `condition` (0 and, 1 or).
            condition: display2.then(|| a.string_or("condition", "0")),
        };
        return Some(if display2 {
            Gear::Display2(gear)
        } else {
            Gear::Display(gear)
        });
    };

    let values: Vec<&str> = match a.raw("values") {
        Some(raw) => raw.split('|').collect(),
        None => Vec::new(),
    };
    let mut states = Vec::with_capacity(pages.len());
    for (i, page_id) in pages.into_iter().enumerate() {
        let value = values
            .get(i)
            .and_then(|raw| checked_value(&mut a, &format!("states[{i}].value"), kind, raw));
        states.push(GearPageState { page_id, value });
    }
    let written_default = a
        .raw("default")
        .and_then(|raw| checked_value(&mut a, "defaultValue", kind, raw));
    let default_written = written_default.is_some();
    let default_value = written_default.unwrap_or_else(|| kind.bare_default());
    let gear = ValueGear {
        name: String::new(),
        controller_name,
        states,
        default_value,
        default_written,
        condition: a.string("condition"),
        positions_in_percent: a.bool("positionsInPercent", false),
        tween: a.bool("tween", false),
        tween_duration: a.num("duration", DEFAULT_TWEEN_DURATION),
        tween_delay: a.num("delay", 0.0),
        ease_type: a.ease("ease"),
        custom_ease_path: a.string("customEase"),
    };
    Some(match kind {
        ValueGearKind::Xy => Gear::Xy(gear),
        ValueGearKind::Size => Gear::Size(gear),
        ValueGearKind::Look => Gear::Look(gear),
        ValueGearKind::Color => Gear::Color(gear),
        ValueGearKind::Animation => Gear::Animation(gear),
        ValueGearKind::Text => Gear::Text(gear),
        ValueGearKind::Icon => Gear::Icon(gear),
        ValueGearKind::FontSize => Gear::FontSize(gear),
    })
}

/// A page value or default, with every part that is there but malformed reported at
/// `field` of the gear (`states[1].value`): such a part reads as its default, so the
/// report says which and what.
fn checked_value(a: &mut Attrs, field: &str, kind: ValueGearKind, raw: &str) -> Option<Value> {
    let mut bad = Vec::new();
    let value = parse_value(kind, raw, &mut bad);
    if !bad.is_empty() {
        a.report(
            field,
            format!(
                "gear value \"{raw}\" has {}; {} read as the default",
                bad.join(", "),
                if bad.len() == 1 { "it is" } else { "they are" }
            ),
        );
    }
    value
}

/// Number part `i`; an absent or empty part is `fallback`, a malformed one is noted in
/// `bad` and read as `fallback` too.
fn num_at(parts: &[&str], i: usize, fallback: f64, bad: &mut Vec<String>) -> Value {
    let Some(part) = parts.get(i).map(|p| p.trim()).filter(|p| !p.is_empty()) else {
        return json_num(fallback);
    };
    json_num(parse_num(part).unwrap_or_else(|| {
        bad.push(format!("{part:?}, which is not a number"));
        fallback
    }))
}

/// Boolean part `i`, as [`num_at`].
fn flag_at(parts: &[&str], i: usize, fallback: bool, bad: &mut Vec<String>) -> bool {
    let Some(part) = parts.get(i).map(|p| p.trim()).filter(|p| !p.is_empty()) else {
        return fallback;
    };
    parse_bool(part).unwrap_or_else(|| {
        bad.push(format!("{part:?}, which is not a boolean"));
        fallback
    })
}

/// One page value; `None` means "use the default". Malformed parts are noted in `bad`.
fn parse_value(kind: ValueGearKind, raw: &str, bad: &mut Vec<String>) -> Option<Value> {
    match kind {
        ValueGearKind::Text => return Some(json!({ "text": raw })),
        ValueGearKind::Icon => return Some(json!({ "icon": raw })),
        _ if raw.is_empty() || raw == "-" => return None,
        _ => {}
    }
    let parts: Vec<&str> = raw.split(',').collect();
    Some(match kind {
        // A fourth and fifth part (percent positions) may follow x,y.
        ValueGearKind::Xy => {
            json!({ "x": num_at(&parts, 0, 0.0, bad), "y": num_at(&parts, 1, 0.0, bad) })
        }
        ValueGearKind::Size => json!({
            "width": num_at(&parts, 0, 0.0, bad),
            "height": num_at(&parts, 1, 0.0, bad),
            "scaleX": num_at(&parts, 2, 1.0, bad),
            "scaleY": num_at(&parts, 3, 1.0, bad),
        }),
        ValueGearKind::Look => json!({
            "alpha": num_at(&parts, 0, 1.0, bad),
            "rotation": num_at(&parts, 1, 0.0, bad),
            "grayed": flag_at(&parts, 2, false, bad),
            "touchable": flag_at(&parts, 3, true, bad),
        }),
        ValueGearKind::Color => {
            let color = parts.first().copied().filter(|c| !c.is_empty());
            let outline = parts.get(1).copied().filter(|c| !c.is_empty());
            json!({ "color": color.unwrap_or("#ffffff"), "outlineColor": outline })
        }
        ValueGearKind::Animation => {
            // Playing is written `p` (playing) or `s` (stopped).
            let playing = match parts.get(1).map(|p| p.trim()) {
                Some("p") => true,
                Some("s") => false,
                Some("") | None => true,
                Some(other) => parse_bool(other).unwrap_or_else(|| {
                    bad.push(format!(
                        "{other:?}, which is not p (playing) or s (stopped)"
                    ));
                    true
                }),
            };
            json!({
                "frame": num_at(&parts, 0, 0.0, bad),
                "playing": playing,
                "animationName": parts.get(2).copied().unwrap_or(""),
                "skinName": parts.get(3).copied().unwrap_or(""),
            })
        }
        ValueGearKind::FontSize => json!({ "fontSize": num_at(&parts, 0, 12.0, bad) }),
        ValueGearKind::Text | ValueGearKind::Icon => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gear(xml: &str) -> Gear {
        let doc = roxmltree::Document::parse(xml).expect("xml");
        let mut scope = Scope::new("c");
        let g = read_gear(
            doc.root_element(),
            &mut scope,
            ".displayList[0].gears[0]",
            "n1",
        )
        .expect("gear");
        assert!(scope.diagnostics.is_empty(), "{:?}", scope.diagnostics);
        g
    }

    #[test]
    fn xy_gear_pairs_pages_with_values() {
        let Gear::Xy(g) =
            gear(r#"<gearXY controller="c1" pages="0,1" values="181,271|60,328" tween="true"/>"#)
        else {
            panic!("kind")
        };
        assert_eq!(g.controller_name, "c1");
        assert_eq!(g.states.len(), 2);
        assert_eq!(g.states[1].page_id, "1");
        assert_eq!(g.states[1].value, Some(json!({ "x": 60, "y": 328 })));
        assert_eq!(g.default_value, json!({ "x": 0, "y": 0 }));
        assert!(g.tween);
        assert_eq!(g.tween_duration.get(), 0.3);
        assert_eq!(g.ease_type, 5);
    }

    #[test]
    fn look_color_animation_and_text_values() {
        let Gear::Look(g) = gear(
            r#"<gearLook controller="c1" pages="1" values="0.54,180,0,0" default="1,0,0,0" ease="Linear"/>"#,
        ) else {
            panic!("kind")
        };
        assert_eq!(
            g.states[0].value,
            Some(json!({ "alpha": 0.54, "rotation": 180, "grayed": false, "touchable": false }))
        );
        assert_eq!(g.ease_type, 0);

        let Gear::Color(g) = gear(
            r##"<gearColor controller="c1" pages="1" values="#000000,#000000" default="#ffffff"/>"##,
        ) else {
            panic!("kind")
        };
        assert_eq!(
            g.states[0].value,
            Some(json!({ "color": "#000000", "outlineColor": "#000000" }))
        );
        assert_eq!(
            g.default_value,
            json!({ "color": "#ffffff", "outlineColor": null })
        );

        let Gear::Animation(g) =
            gear(r#"<gearAni controller="c1" pages="1" values="0,s" default="0,p"/>"#)
        else {
            panic!("kind")
        };
        assert_eq!(
            g.states[0].value.as_ref().expect("value")["playing"],
            json!(false)
        );
        assert_eq!(g.default_value["playing"], json!(true));

        let Gear::Text(g) = gear(r#"<gearText controller="c1" pages="0,1,2" values="|hello"/>"#)
        else {
            panic!("kind")
        };
        assert_eq!(g.states[0].value, Some(json!({ "text": "" })));
        assert_eq!(g.states[1].value, Some(json!({ "text": "hello" })));
        assert_eq!(g.states[2].value, None);
    }

    #[test]
    fn display_gears_list_pages() {
        let Gear::Display2(g) =
            gear(r#"<gearDisplay2 controller="c2" pages="0,2" condition="1"/>"#)
        else {
            panic!("kind")
        };
        assert_eq!(g.visible_on_page_ids, vec!["0", "2"]);
        assert_eq!(g.condition.as_deref(), Some("1"));
        let Gear::Display(g) = gear(r#"<gearDisplay controller="c2" pages=""/>"#) else {
            panic!("kind")
        };
        assert!(g.visible_on_page_ids.is_empty());
        assert_eq!(g.condition, None);
    }

    #[test]
    fn malformed_value_parts_are_reported_with_their_gear_and_page() {
        let doc = roxmltree::Document::parse(
            r#"<gearLook controller="c" pages="0,1" values="1,0,0,1|0.5,x,maybe,1" default="1,0,0,1"/>"#,
        )
        .expect("xml");
        let mut scope = Scope::new("c");
        let Some(Gear::Look(g)) = read_gear(
            doc.root_element(),
            &mut scope,
            ".displayList[2].gears[1]",
            "n1",
        ) else {
            panic!("a look gear")
        };
        // The malformed parts read as their defaults, and say so.
        assert_eq!(
            g.states[1].value,
            Some(json!({ "alpha": 0.5, "rotation": 0, "grayed": false, "touchable": true }))
        );
        assert_eq!(scope.diagnostics.len(), 1, "{:?}", scope.diagnostics);
        let found = &scope.diagnostics[0];
        assert_eq!(found.path, "c.displayList[2].gears[1].states[1].value");
        assert_eq!(found.node_id.as_deref(), Some("n1"));
        assert!(
            found.message.contains("\"x\", which is not a number")
                && found.message.contains("\"maybe\", which is not a boolean"),
            "{}",
            found.message
        );

        let doc = roxmltree::Document::parse(
            r#"<gearAni controller="c" pages="0" values="3,go" default="0,p"/>"#,
        )
        .expect("xml");
        let mut scope = Scope::new("c");
        read_gear(
            doc.root_element(),
            &mut scope,
            ".displayList[0].gears[0]",
            "n1",
        );
        assert_eq!(scope.diagnostics.len(), 1, "{:?}", scope.diagnostics);
        assert!(
            scope.diagnostics[0]
                .message
                .contains("not p (playing) or s (stopped)")
        );
    }

    #[test]
    fn empty_and_dash_slots_are_null() {
        let Gear::Size(g) = gear(r#"<gearSize controller="c" pages="a,b,c" values="-||1,2"/>"#)
        else {
            panic!("kind")
        };
        assert_eq!(g.states[0].value, None);
        assert_eq!(g.states[1].value, None);
        assert_eq!(
            g.states[2].value,
            Some(json!({ "width": 1, "height": 2, "scaleX": 1, "scaleY": 1 }))
        );
    }
}
