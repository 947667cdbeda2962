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

#[derive(Clone, Copy, PartialEq)]
enum ValueKind {
    Xy,
    Size,
    Look,
    Color,
    Animation,
    Text,
    Icon,
    FontSize,
}

/// True for an element name that is a gear (known or not).
pub(crate) fn is_gear_tag(tag: &str) -> bool {
    tag.starts_with("gear")
}

/// Reads one gear element; `None` (with a diagnostic) for an unknown gear tag.
pub(crate) fn read_gear(el: Node, scope: &mut Scope, at: &str, node_id: &str) -> Option<Gear> {
    let tag = el.tag_name().name();
    let value_kind = match tag {
        "gearDisplay" | "gearDisplay2" => None,
        "gearXY" => Some(ValueKind::Xy),
        "gearSize" => Some(ValueKind::Size),
        "gearLook" => Some(ValueKind::Look),
        "gearColor" => Some(ValueKind::Color),
        "gearAni" => Some(ValueKind::Animation),
        "gearText" => Some(ValueKind::Text),
        "gearIcon" => Some(ValueKind::Icon),
        "gearFontSize" => Some(ValueKind::FontSize),
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
    let states = pages
        .into_iter()
        .enumerate()
        .map(|(i, page_id)| GearPageState {
            page_id,
            value: values.get(i).and_then(|raw| parse_value(kind, raw)),
        })
        .collect();
    let default_value = a
        .raw("default")
        .and_then(|raw| parse_value(kind, raw))
        .unwrap_or_else(|| default_value(kind));
    let gear = ValueGear {
        name: String::new(),
        controller_name,
        states,
        default_value,
        condition: a.string("condition"),
        positions_in_percent: a.bool("positionsInPercent", false),
        tween: a.bool("tween", false),
        tween_duration: a.num("duration", 0.3),
        tween_delay: a.num("delay", 0.0),
        ease_type: a.ease("ease"),
        custom_ease_path: a.string("customEase"),
    };
    Some(match kind {
        ValueKind::Xy => Gear::Xy(gear),
        ValueKind::Size => Gear::Size(gear),
        ValueKind::Look => Gear::Look(gear),
        ValueKind::Color => Gear::Color(gear),
        ValueKind::Animation => Gear::Animation(gear),
        ValueKind::Text => Gear::Text(gear),
        ValueKind::Icon => Gear::Icon(gear),
        ValueKind::FontSize => Gear::FontSize(gear),
    })
}

fn num_at(parts: &[&str], i: usize, fallback: f64) -> Value {
    json_num(parts.get(i).and_then(|p| parse_num(p)).unwrap_or(fallback))
}

fn flag_at(parts: &[&str], i: usize, fallback: bool) -> bool {
    parts.get(i).and_then(|p| parse_bool(p)).unwrap_or(fallback)
}

/// One page value; `None` means "use the default".
fn parse_value(kind: ValueKind, raw: &str) -> Option<Value> {
    match kind {
        ValueKind::Text => return Some(json!({ "text": raw })),
        ValueKind::Icon => return Some(json!({ "icon": raw })),
        _ if raw.is_empty() || raw == "-" => return None,
        _ => {}
    }
    let parts: Vec<&str> = raw.split(',').collect();
    Some(match kind {
        // A fourth and fifth part (percent positions) may follow x,y.
        ValueKind::Xy => json!({ "x": num_at(&parts, 0, 0.0), "y": num_at(&parts, 1, 0.0) }),
        ValueKind::Size => json!({
            "width": num_at(&parts, 0, 0.0),
            "height": num_at(&parts, 1, 0.0),
            "scaleX": num_at(&parts, 2, 1.0),
            "scaleY": num_at(&parts, 3, 1.0),
        }),
        ValueKind::Look => json!({
            "alpha": num_at(&parts, 0, 1.0),
            "rotation": num_at(&parts, 1, 0.0),
            "grayed": flag_at(&parts, 2, false),
            "touchable": flag_at(&parts, 3, true),
        }),
        ValueKind::Color => {
            let color = parts.first().copied().filter(|c| !c.is_empty());
            let outline = parts.get(1).copied().filter(|c| !c.is_empty());
            json!({ "color": color.unwrap_or("#ffffff"), "outlineColor": outline })
        }
        ValueKind::Animation => {
            // Playing is written `p` (playing) or `s` (stopped).
            let playing = match parts.get(1).map(|p| p.trim()) {
                Some("p") => true,
                Some("s") => false,
                Some(other) => parse_bool(other).unwrap_or(true),
                None => true,
            };
            json!({
                "frame": num_at(&parts, 0, 0.0),
                "playing": playing,
                "animationName": parts.get(2).copied().unwrap_or(""),
                "skinName": parts.get(3).copied().unwrap_or(""),
            })
        }
        ValueKind::FontSize => json!({ "fontSize": num_at(&parts, 0, 12.0) }),
        ValueKind::Text | ValueKind::Icon => return None,
    })
}

fn default_value(kind: ValueKind) -> Value {
    match kind {
        ValueKind::Xy => json!({ "x": 0, "y": 0 }),
        ValueKind::Size => json!({ "width": 0, "height": 0, "scaleX": 1, "scaleY": 1 }),
        ValueKind::Look => json!({ "alpha": 1, "rotation": 0, "grayed": false, "touchable": true }),
        ValueKind::Color => json!({ "color": "#ffffff", "outlineColor": null }),
        ValueKind::Animation => {
            json!({ "frame": 0, "playing": true, "animationName": "", "skinName": "" })
        }
        ValueKind::Text => json!({ "text": "" }),
        ValueKind::Icon => json!({ "icon": "" }),
        ValueKind::FontSize => json!({ "fontSize": 12 }),
    }
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
            ".displayList[0].gears",
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
