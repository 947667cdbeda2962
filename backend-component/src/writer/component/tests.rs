//! Round trips of every component of the corpora through the canonical form, and minimal
//! patches of real files.
//!
//! Models read with a project around them have the sizes the files leave out filled from
//! the resources shown; a file read on its own (`read_component_xml`) keeps 0,0 there. So a
//! model is compared with the re-read of its canonical form (which leaves those sizes out
//! as the file does) once those sizes are 0,0 ([`read_alone`]), and a patched file with the
//! original file read on its own and edited the same way.

use std::ops::Range;
use std::sync::OnceLock;

use ofgui_contracts::Num;
use ofgui_contracts::uam::{
    ComponentModel, Controller, ControllerAction, ControllerPage, DisplayGear, DisplayNode, Gear,
    GearBinding, GearPageState, GraphNode, GraphProperties, NodeBase, Point, Relation, Size,
    Transition, TransitionItem, UamResource, ValueGear,
};
use roxmltree::Document;
use serde_json::json;

use super::*;
use crate::fs::StdFs;
use crate::reader::{read_component_xml, read_project};
use crate::testing::{experiments_root, unity_root};

/// One component file of a corpus: its text and its model as the project read it.
struct Case {
    path: String,
    text: String,
    model: ComponentModel,
}

fn corpus() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        let mut cases = Vec::new();
        for (root, fairy) in [
            (unity_root(), "FairyGUI-Unity-Examples.fairy"),
            (experiments_root(), "FairyGUI-Experiments.fairy"),
        ] {
            let source = read_project(&StdFs::new(root), fairy).expect("corpus reads");
            for package in &source.project.packages {
                for resource in &package.resources {
                    let UamResource::Component(c) = resource.as_ref() else {
                        continue;
                    };
                    let Some(path) = &c.source_path else { continue };
                    let Some(bytes) = source.documents.get(path) else {
                        continue;
                    };
                    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
                    cases.push(Case {
                        path: path.clone(),
                        text: String::from_utf8(bytes.to_vec()).expect("UTF-8"),
                        model: c.component.clone(),
                    });
                }
            }
        }
        cases
    })
}

fn reread(text: &str) -> ComponentModel {
    read_component_xml(text).expect("parses").0
}

/// The first place two models differ, as a JSON path.
fn first_difference(a: &ComponentModel, b: &ComponentModel) -> String {
    fn walk(a: &serde_json::Value, b: &serde_json::Value, at: String) -> Option<String> {
        use serde_json::Value::{Array, Object};
        match (a, b) {
            (Object(x), Object(y)) => {
                for key in x.keys().chain(y.keys()) {
                    let found = walk(
                        x.get(key).unwrap_or(&serde_json::Value::Null),
                        y.get(key).unwrap_or(&serde_json::Value::Null),
                        format!("{at}.{key}"),
                    );
                    if found.is_some() {
                        return found;
                    }
                }
                None
            }
            (Array(x), Array(y)) if x.len() == y.len() => x
                .iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (p, q))| walk(p, q, format!("{at}[{i}]"))),
            _ if a == b => None,
            _ => Some(format!("{at}: {a} vs {b}")),
        }
    }
    walk(
        &serde_json::to_value(a).unwrap(),
        &serde_json::to_value(b).unwrap(),
        String::new(),
    )
    .unwrap_or_else(|| "no JSON difference".into())
}

/// `model` as its file reads on its own: the sizes the file leaves out are 0,0.
fn read_alone(model: &ComponentModel) -> ComponentModel {
    let mut model = model.clone();
    for node in &mut model.display_list {
        let base = node.base_mut();
        if !base.explicit_size {
            base.size = Size::default();
        }
    }
    model
}

#[test]
fn every_corpus_component_reads_back_from_its_canonical_form() {
    let cases = corpus();
    assert_eq!(cases.len(), 208, "both corpora's component files");
    let mut nodes = 0;
    for case in cases {
        let markup = document(&case.model);
        let back = reread(&markup);
        let alone = read_alone(&case.model);
        assert!(
            back == alone,
            "{}: {}\n{markup}",
            case.path,
            first_difference(&back, &alone)
        );
        // And the canonical form is a fixed point.
        assert_eq!(document(&back), markup, "{}", case.path);
        nodes += case.model.display_list.len();
    }
    assert!(nodes > 800, "{nodes} nodes");
}

/// Every attribute is in its element's order, in that order, once.
fn assert_ordered(el: &Element, at: &str) {
    let mut last = None;
    for (name, _) in &el.attributes {
        let position = el.order.iter().position(|known| known == name);
        assert!(
            position.is_some(),
            "{at}/{}: {name} is not in the order",
            el.tag
        );
        assert!(
            last < position,
            "{at}/{}: {name} out of order in {:?}",
            el.tag,
            el.attributes
        );
        last = position;
    }
    for child in &el.children {
        assert_ordered(child, &format!("{at}/{}", el.tag));
    }
}

#[test]
fn attributes_come_in_the_editors_order() {
    for case in corpus() {
        assert_ordered(&component(&case.model), &case.path);
    }
    let mut model = crate::reader::read_component_xml(RICH).expect("rich").0;
    assert_ordered(&component(&model), "rich");
    model.display_list.push(every_kind_graph());
    assert_ordered(&component(&model), "rich");
}

/// Where the canonical form agrees with the file, attribute for attribute: the corpora are
/// what the editor writes, so most elements are spelled exactly as the canonical form
/// spells them. Counts elements of the canonical form that the file writes differently.
#[test]
fn the_canonical_form_is_what_the_editor_wrote() {
    let mut same = 0;
    let mut differ = Vec::new();
    for case in corpus() {
        let doc = Document::parse(&case.text).unwrap();
        let form = component(&case.model);
        let list = form
            .children
            .iter()
            .find(|c| c.tag == "displayList")
            .unwrap();
        let dom_list = doc
            .root_element()
            .children()
            .find(|d| d.has_tag_name("displayList"))
            .unwrap();
        for el in &list.children {
            let id = &el.key.as_ref().unwrap().1;
            let dom = dom_list
                .children()
                .find(|d| d.attribute("id") == Some(id.as_str()))
                .unwrap();
            let written: Vec<(&str, &str)> = dom
                .attributes()
                .map(|a| (a.name(), a.value()))
                .filter(|(name, _)| *name != "fileName")
                .collect();
            let canonical: Vec<(&str, &str)> = el
                .attributes
                .iter()
                .map(|(n, v)| (*n, v.as_str()))
                .filter(|(name, _)| *name != "fileName")
                .collect();
            if written == canonical {
                same += 1;
            } else {
                differ.push(format!("{} {id}: {written:?} vs {canonical:?}", case.path));
            }
        }
    }
    // Older editors' spellings (`2.00`, `margin="0,0,0,0"`, `sidePair="width,height"`…)
    // are the rest.
    assert!(
        same > 9 * differ.len(),
        "{same} same, {} differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

fn patched(text: &str, old: &ComponentModel, new: &ComponentModel) -> Result<String, Unpatchable> {
    let doc = Document::parse(text).expect("parses");
    let mut patch = XmlPatch::new(text);
    patch_component(&mut patch, doc.root_element(), old, new)?;
    Ok(patch.finish().expect("no overlapping edits"))
}

#[test]
fn no_edit_changes_no_byte() {
    for case in corpus() {
        let out = patched(&case.text, &case.model, &case.model).unwrap();
        assert_eq!(out, case.text, "{}", case.path);
        // A model equal to the one read, but built anew (the re-read of its canonical
        // form), patches nothing either.
        let same = reread(&document(&case.model));
        let out = patched(&case.text, &case.model, &same).unwrap();
        assert_eq!(out, case.text, "{}", case.path);
    }
}

/// Applies `edit` to the model of `case` and patches its file: the result reads as the
/// file read on its own and edited the same way.
fn edit(case: &Case, edit: impl Fn(&mut ComponentModel)) -> Result<String, Unpatchable> {
    let mut new = case.model.clone();
    edit(&mut new);
    let out = patched(&case.text, &case.model, &new)?;
    let mut expected = reread(&case.text);
    edit(&mut expected);
    let back = reread(&out);
    assert!(
        back == expected,
        "{}: {}\n{out}",
        case.path,
        first_difference(&back, &expected)
    );
    Ok(out)
}

fn case(path: &str) -> &'static Case {
    corpus()
        .iter()
        .find(|c| c.path.ends_with(path))
        .unwrap_or_else(|| panic!("no {path}"))
}

/// The bytes that differ: what `before` had and what `after` has between the common
/// prefix and suffix.
fn changed<'a>(before: &'a str, after: &'a str) -> (&'a str, &'a str) {
    let prefix = before
        .bytes()
        .zip(after.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    let suffix = before[prefix..]
        .bytes()
        .rev()
        .zip(after[prefix..].bytes().rev())
        .take_while(|(a, b)| a == b)
        .count();
    (
        &before[prefix..before.len() - suffix],
        &after[prefix..after.len() - suffix],
    )
}

/// `text` with ` inserted` right after attribute `after` of the element with id `id` (the
/// root when `id` is empty).
fn with_attribute_after(text: &str, id: &str, after: &str, inserted: &str) -> String {
    let doc = Document::parse(text).unwrap();
    let el = if id.is_empty() {
        doc.root_element()
    } else {
        doc.descendants()
            .find(|d| d.attribute("id") == Some(id))
            .unwrap()
    };
    let at = el
        .attributes()
        .find(|a| a.name() == after)
        .unwrap()
        .range()
        .end;
    format!("{} {inserted}{}", &text[..at], &text[at..])
}

/// `text` without attribute `name` of the element with id `id`, and the space before it.
fn without_attribute(text: &str, id: &str, name: &str) -> String {
    let doc = Document::parse(text).unwrap();
    let el = doc
        .descendants()
        .find(|d| d.attribute("id") == Some(id))
        .unwrap();
    let range = el.attributes().find(|a| a.name() == name).unwrap().range();
    let start = text[..range.start].trim_end().len();
    format!("{}{}", &text[..start], &text[range.end..])
}

/// `text` without the lines of the first element `pick` chooses.
fn without_lines(text: &str, pick: impl Fn(&roxmltree::Node) -> bool) -> String {
    let doc = Document::parse(text).unwrap();
    let range = doc.descendants().find(pick).unwrap().range();
    let start = text[..range.start].rfind('\n').unwrap() + 1;
    let end = range.end + text[range.end..].find('\n').unwrap() + 1;
    format!("{}{}", &text[..start], &text[end..])
}

fn node_mut<'m>(model: &'m mut ComponentModel, id: &str) -> &'m mut DisplayNode {
    model
        .display_list
        .iter_mut()
        .find(|n| n.id() == id)
        .unwrap()
}

#[test]
fn moving_any_node_of_any_file_changes_its_position_only() {
    let mut refused = Vec::new();
    let mut moved = 0;
    for case in corpus() {
        let Some(first) = case.model.display_list.first() else {
            continue;
        };
        let id = first.id().to_string();
        let result = edit(case, |m| {
            let p = &mut m.display_list[0].base_mut().position;
            *p = Point {
                x: Num(p.x.get() + 7.0),
                y: Num(p.y.get() - 3.0),
            };
        });
        let out = match result {
            Ok(out) => out,
            Err(e) => {
                refused.push(format!("{}: {e}", case.path));
                continue;
            }
        };
        let doc = Document::parse(&case.text).unwrap();
        let dom = doc
            .descendants()
            .find(|d| d.attribute("id") == Some(id.as_str()))
            .unwrap();
        let xy = dom.attributes().find(|a| a.name() == "xy").unwrap();
        let p = &case.model.display_list[0].base().position;
        let expected = format!(
            "{}{},{}{}",
            &case.text[..xy.range_value().start],
            crate::writer::lexical::num(p.x.get() + 7.0),
            crate::writer::lexical::num(p.y.get() - 3.0),
            &case.text[xy.range_value().end..]
        );
        assert_eq!(out, expected, "{}", case.path);
        moved += 1;
    }
    assert!(refused.is_empty(), "refused:\n{}", refused.join("\n"));
    assert!(moved > 200, "{moved}");
}

/// The lines of `before` that an edit replaced (0-based, end exclusive), and how many
/// lines it wrote in their place: whole lines, from the first to the last that differ.
fn changed_lines(before: &str, after: &str) -> (Range<usize>, usize) {
    let a: Vec<&str> = before.split_inclusive('\n').collect();
    let b: Vec<&str> = after.split_inclusive('\n').collect();
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    (prefix..a.len() - suffix, b.len() - prefix - suffix)
}

/// The lines of `text` that the bytes `range` span.
fn lines_of(text: &str, range: Range<usize>) -> Range<usize> {
    let first = text[..range.start].matches('\n').count();
    let last = text[..range.end].matches('\n').count();
    first..last + 1
}

fn dom_node<'d>(doc: &'d Document, id: &str) -> roxmltree::Node<'d, 'd> {
    doc.root_element()
        .children()
        .find(|d| d.has_tag_name("displayList"))
        .and_then(|list| list.children().find(|d| d.attribute("id") == Some(id)))
        .unwrap_or_else(|| panic!("no node {id}"))
}

fn value_gear_mut(gear: &mut Gear) -> Option<&mut ValueGear> {
    match gear {
        Gear::Display(_) | Gear::Display2(_) => None,
        Gear::Look(g)
        | Gear::Xy(g)
        | Gear::Size(g)
        | Gear::Color(g)
        | Gear::Animation(g)
        | Gear::Text(g)
        | Gear::Icon(g)
        | Gear::FontSize(g) => Some(g),
    }
}

/// A page value changed as the reader would read its changed spelling: its first number
/// one up, else its colour, else its string one letter longer.
fn bump(value: &mut serde_json::Value) {
    let serde_json::Value::Object(fields) = value else {
        panic!("a gear value is an object: {value}")
    };
    if let Some(n) = fields.values_mut().find(|v| v.is_number()) {
        *n = serde_json::to_value(Num(n.as_f64().unwrap() + 1.0)).unwrap();
    } else if let Some(color) = fields.get_mut("color") {
        *color = json!(if color == "#123456" {
            "#654321"
        } else {
            "#123456"
        });
    } else if let Some(text) = fields.values_mut().find(|v| v.is_string()) {
        *text = json!(format!("{}x", text.as_str().unwrap()));
    } else {
        panic!("nothing to change in {value}");
    }
}

/// One edit of one element of every corpus file that has such an element, each patched
/// into the original: the result re-reads as the edited model (checked by [`edit`]) and
/// differs from the original only in lines of the element edited (`lines` of the
/// original; `written` lines in their place).
#[test]
fn every_single_edit_of_every_file_touches_only_its_elements_lines() {
    let mut refused = Vec::new();
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    let mut check = |case: &Case,
                     what: &'static str,
                     out: Result<String, Unpatchable>,
                     lines: Range<usize>,
                     written: Option<usize>| {
        let out = match out {
            Ok(out) => out,
            Err(e) => return refused.push(format!("{} {what}: {e}", case.path)),
        };
        let (removed, added) = changed_lines(&case.text, &out);
        assert!(
            removed.start >= lines.start && removed.end <= lines.end,
            "{} {what}: lines {removed:?} changed, {lines:?} allowed\n{out}",
            case.path
        );
        if let Some(written) = written {
            assert_eq!(added, written, "{} {what}: lines written\n{out}", case.path);
        }
        assert_ne!(out, case.text, "{} {what}: nothing changed", case.path);
        *counts.entry(what).or_default() += 1;
    };
    for case in corpus() {
        let doc = Document::parse(&case.text).unwrap();
        let list = doc
            .root_element()
            .children()
            .find(|d| d.has_tag_name("displayList"))
            .unwrap();

        // A text: its element's start tag, one line for one.
        if let Some(id) = case.model.display_list.iter().find_map(|n| match n {
            DisplayNode::Text(_) | DisplayNode::RichText(_) | DisplayNode::TextInput(_) => {
                Some(n.id().to_string())
            }
            _ => None,
        }) {
            let out = edit(case, |m| match node_mut(m, &id) {
                DisplayNode::Text(t) => {
                    t.text.text = format!("{} & <more>\nagain", t.text.text);
                }
                DisplayNode::RichText(t) => {
                    t.text.text = format!("{} & <more>\nagain", t.text.text);
                }
                DisplayNode::TextInput(t) => {
                    t.text.text = format!("{} & <more>\nagain", t.text.text);
                }
                _ => unreachable!(),
            });
            let start = dom_node(&doc, &id).range().start;
            check(
                case,
                "text",
                out,
                lines_of(&case.text, start..start + 1),
                Some(1),
            );
        }

        // A node added last: one new line, nothing else (the list's own lines when the
        // list was empty and has to open).
        let out = edit(case, |m| m.display_list.push(new_graph("n_added")));
        let empty = case.model.display_list.is_empty();
        let lines = if empty {
            lines_of(&case.text, list.range())
        } else {
            let last = list.last_element_child().unwrap();
            let after = lines_of(&case.text, last.range()).end;
            after..after
        };
        check(case, "add node", out, lines, (!empty).then_some(1));

        // The last node removed: exactly its lines.
        if let Some(last) = case.model.display_list.last() {
            let id = last.id().to_string();
            let out = edit(case, |m| {
                m.display_list.pop();
            });
            let lines = lines_of(&case.text, dom_node(&doc, &id).range());
            let (removed, _) = out
                .as_ref()
                .map_or((0..0, 0), |out| changed_lines(&case.text, out));
            assert!(
                out.is_err() || removed == lines,
                "{}: removed {removed:?} of {lines:?}",
                case.path
            );
            check(case, "remove node", out, lines, Some(0));
        }

        // The first page value of the first value gear: that gear's lines.
        let gear = case.model.display_list.iter().find_map(|n| {
            n.base().gears.iter().enumerate().find_map(|(g, gear)| {
                let GearBinding::Value(gear) = gear.binding() else {
                    return None;
                };
                let state = gear.states.iter().position(|s| s.value.is_some())?;
                Some((n.id().to_string(), g, state))
            })
        });
        if let Some((id, g, state)) = gear {
            let out = edit(case, |m| {
                let gear = value_gear_mut(&mut node_mut(m, &id).base_mut().gears[g]).unwrap();
                bump(gear.states[state].value.as_mut().unwrap());
            });
            let dom = dom_node(&doc, &id)
                .children()
                .filter(|d| d.is_element() && d.tag_name().name().starts_with("gear"))
                .nth(g)
                .unwrap();
            check(
                case,
                "gear value",
                out,
                lines_of(&case.text, dom.range()),
                None,
            );
        }

        // A controller page renamed: the controller's start tag.
        if let Some(c) = case
            .model
            .controllers
            .first()
            .filter(|c| !c.pages.is_empty())
        {
            let out = edit(case, |m| {
                m.controllers[0].pages[0].name.push_str("_renamed")
            });
            let dom = doc
                .root_element()
                .children()
                .find(|d| {
                    d.has_tag_name("controller") && d.attribute("name") == Some(c.name.as_str())
                })
                .unwrap();
            let start = dom.range().start;
            check(
                case,
                "controller page",
                out,
                lines_of(&case.text, start..start + 1),
                Some(1),
            );
        }

        // A transition item a frame later: the item's line.
        if let Some(t) = case
            .model
            .transitions
            .iter()
            .position(|t| !t.items.is_empty())
        {
            let out = edit(case, |m| {
                let item = &mut m.transitions[t].items[0];
                item.time = Num(item.time.get() + 1.0);
            });
            let name = case.model.transitions[t].name.as_str();
            let dom = doc
                .root_element()
                .children()
                .find(|d| d.has_tag_name("transition") && d.attribute("name") == Some(name))
                .and_then(|d| d.children().find(|d| d.has_tag_name("item")))
                .unwrap();
            check(
                case,
                "transition item",
                out,
                lines_of(&case.text, dom.range()),
                Some(1),
            );
        }
    }
    assert!(refused.is_empty(), "refused:\n{}", refused.join("\n"));
    // Every kind of edit was tried on many files.
    for (what, at_least) in [
        ("text", 101),
        ("add node", 208),
        ("remove node", 204),
        ("gear value", 25),
        ("controller page", 84),
        ("transition item", 14),
    ] {
        let done = counts.get(what).copied().unwrap_or(0);
        assert!(done >= at_least, "{what}: {done} files, {counts:?}");
    }
}

#[test]
fn look_and_text_edits_change_one_value_each() {
    let c = case("Basics/Demo_Text.xml");
    let text_id = c
        .model
        .display_list
        .iter()
        .find(|n| matches!(n, DisplayNode::Text(t) if !t.text.text.is_empty()))
        .unwrap()
        .id()
        .to_string();
    let out = edit(c, |m| {
        let DisplayNode::Text(t) = node_mut(m, &text_id) else {
            unreachable!()
        };
        t.text.text = "Hello, <world> & \"you\"\nagain".into();
    })
    .unwrap();
    let doc = Document::parse(&c.text).unwrap();
    let dom = doc
        .descendants()
        .find(|d| d.attribute("id") == Some(text_id.as_str()))
        .unwrap();
    let value = dom
        .attributes()
        .find(|a| a.name() == "text")
        .unwrap()
        .range_value();
    assert_eq!(
        out,
        format!(
            "{}Hello, &lt;world&gt; &amp; &quot;you&quot;&#xA;again{}",
            &c.text[..value.start],
            &c.text[value.end..]
        )
    );

    // alpha and rotation: new attributes where the editor puts them.
    let out = edit(c, |m| {
        let b = node_mut(m, &text_id).base_mut();
        b.alpha = Num(0.5);
    })
    .unwrap();
    // After the last attribute the editor writes before it (the size, or the group).
    let before_alpha = if c.text[..].contains(&format!("id=\"{text_id}\"")) {
        let doc = Document::parse(&c.text).unwrap();
        let dom = doc
            .descendants()
            .find(|d| d.attribute("id") == Some(text_id.as_str()))
            .unwrap();
        if dom.has_attribute("group") {
            "group"
        } else {
            "size"
        }
    } else {
        unreachable!()
    };
    assert_eq!(
        out,
        with_attribute_after(&c.text, &text_id, before_alpha, "alpha=\"0.5\"")
    );
    let out = edit(c, |m| {
        node_mut(m, &text_id).base_mut().rotation = Num(-12.5);
    })
    .unwrap();
    assert_eq!(
        out,
        with_attribute_after(&c.text, &text_id, before_alpha, "rotation=\"-12.5\"")
    );

    // A colour back to the default goes, with its space.
    let colored = c
        .model
        .display_list
        .iter()
        .find_map(|n| match n {
            DisplayNode::Text(t) if t.text.color != "#000000" => Some(t),
            _ => None,
        })
        .unwrap();
    let id = colored.base.id.clone();
    let out = edit(c, |m| {
        let DisplayNode::Text(t) = node_mut(m, &id) else {
            unreachable!()
        };
        t.text.color = "#000000".into();
    })
    .unwrap();
    assert_eq!(out, without_attribute(&c.text, &id, "color"));
    let out = edit(c, |m| {
        let DisplayNode::Text(t) = node_mut(m, &id) else {
            unreachable!()
        };
        t.text.color = "#12ab34".into();
    })
    .unwrap();
    assert_eq!(changed(&c.text, &out), (&colored.text.color[1..], "12ab34"));
}

fn display_gear(controller: &str, pages: &[&str]) -> Gear {
    Gear::Display(DisplayGear {
        name: String::new(),
        controller_name: controller.into(),
        visible_on_page_ids: pages.iter().map(|p| p.to_string()).collect(),
        condition: None,
    })
}

#[test]
fn gears_come_and_go_as_their_own_lines() {
    let c = case("Basics/Demo_Controller.xml");
    let doc = Document::parse(&c.text).unwrap();
    let dom = doc
        .descendants()
        .find(|d| {
            d.parent().is_some_and(|p| p.has_tag_name("displayList"))
                && c.text[d.range()].ends_with("/>")
        })
        .unwrap();
    let id = dom.attribute("id").unwrap().to_string();
    let out = edit(c, |m| {
        node_mut(m, &id)
            .base_mut()
            .gears
            .push(display_gear("c1", &["0", "1"]));
    })
    .unwrap();
    // The element opens for its first child, indented like the file.
    let end = dom.range().end;
    assert_eq!(
        out,
        format!(
            "{}>\n      <gearDisplay controller=\"c1\" pages=\"0,1\"/>\n    </{}>{}",
            &c.text[..end - 2],
            dom.tag_name().name(),
            &c.text[end..]
        )
    );

    // A node with gears loses one: exactly its line.
    let (gid, index) = c
        .model
        .display_list
        .iter()
        .find_map(|n| (n.base().gears.len() >= 2).then(|| (n.id().to_string(), 1)))
        .unwrap();
    let out = edit(c, |m| {
        node_mut(m, &gid).base_mut().gears.remove(index);
    })
    .unwrap();
    let (removed, added) = changed(&c.text, &out);
    assert!(
        added.is_empty() && removed.trim_start().starts_with("<gear"),
        "{removed:?}"
    );
    assert_eq!(removed.matches('\n').count(), 1, "{removed:?}");

    // A display gear gains a page: its `pages` value changes, nothing else.
    let (did, pages) = c
        .model
        .display_list
        .iter()
        .find_map(|n| match n.base().gears.first() {
            Some(Gear::Display(g)) => Some((n.id().to_string(), g.visible_on_page_ids.join(","))),
            _ => None,
        })
        .unwrap();
    let out = edit(c, |m| {
        if let Gear::Display(g) = &mut node_mut(m, &did).base_mut().gears[0] {
            g.visible_on_page_ids.push("9".into());
        }
    })
    .unwrap();
    assert_eq!(
        changed(&c.text, &out),
        ("", ",9"),
        "pages {pages:?} of {did}"
    );
}

#[test]
fn value_gears_write_every_page_and_the_default() {
    let c = case("Basics/Demo_Controller.xml");
    let id = c.model.display_list[0].id().to_string();
    let state = |page: &str, value: Option<serde_json::Value>| GearPageState {
        page_id: page.into(),
        value,
    };
    let out = edit(c, |m| {
        m.controllers[0].pages.len();
        node_mut(m, &id).base_mut().gears.push(Gear::Look(ValueGear {
            name: String::new(),
            controller_name: "c1".into(),
            states: vec![
                state("0", None),
                state(
                    "1",
                    Some(json!({ "alpha": 0.25, "rotation": 90, "grayed": true, "touchable": false })),
                ),
            ],
            default_value: json!({ "alpha": 1, "rotation": 0, "grayed": false, "touchable": true }),
            default_written: false,
            condition: String::new(),
            positions_in_percent: false,
            tween: true,
            tween_duration: Num(0.5),
            tween_delay: Num(0.0),
            ease_type: 0,
            custom_ease_path: String::new(),
        }));
    })
    .unwrap();
    assert!(
        out.contains(
            "<gearLook controller=\"c1\" pages=\"0,1\" values=\"-|0.25,90,1,0\" tween=\"true\" ease=\"Linear\" duration=\"0.5\"/>"
        ),
        "{out}"
    );
}

#[test]
fn relations_come_and_go_by_target() {
    let c = case("Basics/Main.xml");
    let id = c
        .model
        .display_list
        .iter()
        .find(|n| !n.base().relations.is_empty())
        .unwrap()
        .id()
        .to_string();
    let other = c.model.display_list[0].id().to_string();
    let out = edit(c, |m| {
        node_mut(m, &id).base_mut().relations.push(Relation {
            target_node_id: other.clone(),
            relation_type: 2,
            use_percent: true,
        });
    })
    .unwrap();
    let (removed, added) = changed(&c.text, &out);
    assert_eq!(removed, "");
    assert_eq!(
        added.trim_start(),
        format!("<relation target=\"{other}\" sidePair=\"left-right%\"/>\n")
            .trim_start()
            .to_string()
            + added
                .trim_start()
                .split_once('\n')
                .map_or("", |(_, rest)| rest),
        "{added:?}"
    );
    // Gone again: the bytes come back.
    let mut with = c.model.clone();
    node_mut(&mut with, &id)
        .base_mut()
        .relations
        .push(Relation {
            target_node_id: other.clone(),
            relation_type: 2,
            use_percent: true,
        });
    assert_eq!(patched(&out, &with, &c.model).unwrap(), c.text);

    // A side pair joins the target's element.
    let out = edit(c, |m| {
        let relations = &mut node_mut(m, &id).base_mut().relations;
        let target = relations[0].target_node_id.clone();
        relations.insert(
            1,
            Relation {
                target_node_id: target,
                relation_type: 13,
                use_percent: false,
            },
        );
    })
    .unwrap();
    assert!(changed(&c.text, &out).1.contains("bottom-bottom"));
}

fn new_graph(id: &str) -> DisplayNode {
    DisplayNode::Graph(GraphNode {
        base: NodeBase {
            id: id.into(),
            name: id.into(),
            position: Point {
                x: Num(10.0),
                y: Num(20.0),
            },
            size: Size {
                width: Num(100.0),
                height: Num(50.0),
            },
            explicit_size: true,
            locked: false,
            aspect: false,
            min_size: Size::default(),
            max_size: Size::default(),
            pivot: Some(Point::default()),
            pivot_as_anchor: Some(false),
            scale: Point {
                x: Num(1.0),
                y: Num(1.0),
            },
            skew: Point::default(),
            visible: true,
            touchable: true,
            grayed: false,
            alpha: Num(1.0),
            rotation: Num(0.0),
            tooltips: String::new(),
            blend_mode: "normal".into(),
            filter: String::new(),
            filter_data: String::new(),
            custom_data: String::new(),
            group: Some(String::new()),
            relations: Vec::new(),
            gears: Vec::new(),
        },
        props: GraphProperties {
            graph_type: 1,
            line_size: Num(1.0),
            line_color: "#000000".into(),
            fill_color: "#ff336699".into(),
            corner_radius: None,
            points: None,
            sides: Num(0.0),
            start_angle: Num(0.0),
            distances: None,
        },
    })
}

/// A graph with every setting off its default, to check the orders.
fn every_kind_graph() -> DisplayNode {
    let DisplayNode::Graph(mut g) = new_graph("n99") else {
        unreachable!()
    };
    g.base.locked = true;
    g.base.aspect = true;
    g.base.pivot = Some(Point {
        x: Num(0.5),
        y: Num(0.5),
    });
    g.base.pivot_as_anchor = Some(true);
    g.base.scale = Point {
        x: Num(2.0),
        y: Num(2.0),
    };
    g.base.skew = Point {
        x: Num(1.0),
        y: Num(0.0),
    };
    g.base.visible = false;
    g.base.touchable = false;
    g.base.grayed = true;
    g.base.alpha = Num(0.5);
    g.base.rotation = Num(45.0);
    g.base.tooltips = "tip".into();
    g.base.blend_mode = "add".into();
    g.base.filter = "color".into();
    g.base.filter_data = "1,0,0,0".into();
    g.base.custom_data = "data".into();
    g.base.group = Some("n1".into());
    g.props.corner_radius = Some(vec![Num(1.0), Num(2.0), Num(3.0), Num(4.0)]);
    g.props.points = Some(vec![Num(0.0), Num(1.0)]);
    g.props.distances = Some(vec![Num(0.5)]);
    g.props.sides = Num(5.0);
    g.props.start_angle = Num(9.0);
    g.props.line_size = Num(3.0);
    g.props.line_color = "#ff0000".into();
    DisplayNode::Graph(g)
}

#[test]
fn attached_and_detached_nodes_are_whole_lines() {
    let c = case("Basics/Main.xml");
    let out = edit(c, |m| m.display_list.insert(1, new_graph("n900_new"))).unwrap();
    // Before the node that was second, on its own line.
    let second = c.model.display_list[1].id();
    let doc = Document::parse(&c.text).unwrap();
    let dom = doc
        .descendants()
        .find(|d| d.attribute("id") == Some(second))
        .unwrap();
    let at = dom.range().start;
    assert_eq!(
        out,
        format!(
            "{}<graph id=\"n900_new\" name=\"n900_new\" xy=\"10,20\" size=\"100,50\" type=\"rect\" fillColor=\"#ff336699\"/>\n    {}",
            &c.text[..at],
            &c.text[at..]
        )
    );

    // Detach: the element goes with its lines, whatever it holds.
    let (index, id) = c
        .model
        .display_list
        .iter()
        .enumerate()
        .find(|(_, n)| !n.base().relations.is_empty())
        .map(|(i, n)| (i, n.id().to_string()))
        .unwrap();
    let out = edit(c, |m| {
        m.display_list.remove(index);
    })
    .unwrap();
    let (removed, added) = changed(&c.text, &out);
    assert_eq!(added, "");
    let dom = doc
        .descendants()
        .find(|d| d.attribute("id") == Some(id.as_str()))
        .unwrap();
    let line_start = c.text[..dom.range().start].rfind('\n').unwrap() + 1;
    let line_end = c.text[dom.range().end..].find('\n').unwrap() + dom.range().end + 1;
    assert_eq!(removed.len(), line_end - line_start, "{removed:?}");
}

#[test]
fn controllers_and_transitions_come_change_and_go() {
    let c = case("Basics/Demo_Controller.xml");
    let name = c.model.controllers[0].name.clone();
    // Update: a page added.
    let out = edit(c, |m| {
        m.controllers[0].pages.push(ControllerPage {
            id: "7".into(),
            name: "extra".into(),
            remark: String::new(),
        });
    })
    .unwrap();
    assert_eq!(changed(&c.text, &out), ("", ",7,extra"));
    let selected = c.model.controllers[0].selected_index.get();
    let out = edit(c, |m| m.controllers[0].selected_index = Num(selected + 1.0)).unwrap();
    let doc = Document::parse(&c.text).unwrap();
    let value = doc
        .descendants()
        .find(|d| d.has_tag_name("controller"))
        .and_then(|d| d.attributes().find(|a| a.name() == "selected"))
        .unwrap()
        .range_value();
    assert_eq!(
        out,
        format!(
            "{}{}{}",
            &c.text[..value.start],
            selected + 1.0,
            &c.text[value.end..]
        )
    );

    // Add one with an action, after the last.
    let out = edit(c, |m| {
        m.controllers.push(Controller {
            name: "c9".into(),
            selected_index: Num(0.0),
            auto_radio_group_depth: false,
            alias: String::new(),
            exported: true,
            home_page_type: "default".into(),
            home_page: String::new(),
            pages: vec![
                ControllerPage {
                    id: "0".into(),
                    name: "a".into(),
                    remark: String::new(),
                },
                ControllerPage {
                    id: "1".into(),
                    name: String::new(),
                    remark: "shown while loading".into(),
                },
            ],
            actions: vec![ControllerAction {
                name: String::new(),
                action_type: 1,
                from_page_ids: vec!["0".into()],
                to_page_ids: Vec::new(),
                transition_name: String::new(),
                play_times: Num(1.0),
                delay: Num(0.0),
                stop_on_exit: false,
                target_node_id: String::new(),
                controller_name: name.clone(),
                target_page: "1".into(),
            }],
        });
    })
    .unwrap();
    // After the last controller, that is before the display list.
    let at = c.text.find("<displayList>").unwrap();
    assert_eq!(
        out,
        format!(
            "{}<controller name=\"c9\" exported=\"true\" pages=\"0,a,1,\" selected=\"0\">\n    <remark page=\"1\" value=\"shown while loading\"/>\n    <action type=\"change_page\" fromPage=\"0\" controller=\"{name}\" targetPage=\"1\"/>\n  </controller>\n  {}",
            &c.text[..at],
            &c.text[at..]
        )
    );

    // Remove the first: its lines.
    let out = edit(c, |m| {
        m.controllers.remove(0);
    })
    .unwrap();
    assert_eq!(
        out,
        without_lines(&c.text, |d| d.has_tag_name("controller")
            && d.attribute("name") == Some(name.as_str()))
    );

    // Transitions: add, update, remove.
    let t = case("Transition/BOSS.xml");
    let out = edit(t, |m| {
        m.transitions.push(Transition {
            name: "t9".into(),
            auto_play: true,
            auto_play_times: Num(-1.0),
            auto_play_delay: Num(0.0),
            options: Num(0.0),
            fps: Num(24.0),
            items: vec![TransitionItem {
                name: String::new(),
                time: Num(0.0),
                action_type: 4,
                action_type_name: None,
                target_node_id: "n1".into(),
                tween: true,
                duration: Num(12.0),
                start_value: vec![json!(1)],
                end_value: vec![json!(0.5)],
                ease_type: 5,
                repeat: Num(0.0),
                yoyo: false,
                label: String::new(),
                end_label: String::new(),
                path: String::new(),
                custom_ease_path: String::new(),
            }],
        });
    })
    .unwrap();
    assert_eq!(changed(&t.text, &out).0, "");
    assert!(
        out.contains("\n  <transition name=\"t9\" autoPlay=\"true\" autoPlayRepeat=\"-1\">\n    <item time=\"0\" type=\"Alpha\" target=\"n1\" tween=\"true\" startValue=\"1\" endValue=\"0.5\" duration=\"12\"/>\n  </transition>\n</component>"),
        "{out}"
    );
    let out = edit(t, |m| {
        m.transitions[0].items[0].duration = Num(99.0);
    })
    .unwrap();
    // The first item, a sound, had no duration: it gains one, after its value.
    assert_eq!(changed(&t.text, &out), ("", " duration=\"99\""));
    let out = edit(t, |m| {
        m.transitions.remove(0);
    })
    .unwrap();
    assert_eq!(changed(&t.text, &out).1, "");
}

#[test]
fn component_size_and_extension_properties() {
    let c = case("Basics/components/Button1.xml");
    let out = edit(c, |m| {
        m.size.width = Num(m.size.width.get() + 1.0);
    })
    .unwrap();
    assert!(changed(&c.text, &out).0.len() <= 3);
    let out = edit(c, |m| {
        m.properties.button_mode = 1;
        m.properties.sound_volume_scale = Num(0.57);
    })
    .unwrap();
    assert!(
        out.contains("<Button mode=\"Check\" volume=\"57\"/>"),
        "{out}"
    );
    let out = edit(c, |m| {
        m.properties.down_effect = 2;
    })
    .unwrap();
    assert!(
        out.contains("downEffect=\"scale\" downEffectValue=\"0.80\""),
        "{out}"
    );
    let out = edit(c, |m| {
        m.properties.overflow = 2;
        m.properties.scroll_type = 0;
        m.properties.margin.left = Num(4.0);
    })
    .unwrap();
    assert_eq!(
        out,
        with_attribute_after(
            &c.text,
            "",
            "size",
            "overflow=\"scroll\" scroll=\"horizontal\" margin=\"0,0,4,0\""
        )
    );
}

#[test]
fn files_in_other_spellings_are_patched_in_their_own() {
    // An older editor's `<jta>` movie clip keeps its tag; a text input written `<inputtext>`
    // with `promptText`, a group's `columnGap` and a transition's `fps` keep their names.
    let text = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<component size=\"100,100\">\n  <Button/>\n  <controller name=\"button\" pages=\"0,up,1,down\" selected=\"0\"/>\n  <displayList>\n    <jta id=\"n1\" name=\"n1\" src=\"abc\" xy=\"0,0\" size=\"10,10\"/>\n    <inputtext id=\"n2\" name=\"n2\" xy=\"0,0\" size=\"10,10\" fontSize=\"12\" text=\"\" promptText=\"hi\"/>\n    <swf id=\"n3\" name=\"flash\" src=\"x\"/>\n    <group id=\"n4\" name=\"n4\" xy=\"0,0\" size=\"10,10\" columnGap=\"4\"/>\n    <text id=\"n5\" name=\"n5\" xy=\"0,0\" size=\"10,10\" fontSize=\"12\" text=\"\">\n      <relation target=\"\" sidePair=\"width,height\"/>\n      <gearColor controller=\"button\" pages=\"1\" values=\"#ff0000\"/>\n    </text>\n  </displayList>\n  <transition name=\"t0\" fps=\"30\"/>\n</component>\n";
    let old = reread(text);
    assert_eq!(old.unsupported_nodes.len(), 1);
    let case = Case {
        path: "spellings".into(),
        text: text.into(),
        model: old,
    };
    let out = edit(&case, |m| {
        m.display_list[0].base_mut().position.x = Num(5.0);
        let DisplayNode::TextInput(t) = &mut m.display_list[1] else {
            unreachable!()
        };
        t.prompt_text = "bye".into();
        let DisplayNode::Group(g) = &mut m.display_list[2] else {
            unreachable!()
        };
        g.props.column_gap = Num(0.0);
        m.transitions[0].fps = Num(60.0);
        m.controllers[0].selected_index = Num(1.0);
        // Children of the text in the file's order: a relation added after its sibling.
        m.display_list[3].base_mut().relations.push(Relation {
            target_node_id: "n1".into(),
            relation_type: 0,
            use_percent: false,
        });
    })
    .unwrap();
    assert_eq!(
        out,
        text.replace(
            "<jta id=\"n1\" name=\"n1\" src=\"abc\" xy=\"0,0\"",
            "<jta id=\"n1\" name=\"n1\" src=\"abc\" xy=\"5,0\""
        )
        .replace("promptText=\"hi\"", "promptText=\"bye\"")
        .replace(" columnGap=\"4\"", "")
        .replace("fps=\"30\"", "fps=\"60\"")
        .replace("selected=\"0\"", "selected=\"1\"")
        .replace(
            "sidePair=\"width,height\"/>\n",
            "sidePair=\"width,height\"/>\n      <relation target=\"n1\" sidePair=\"left-left\"/>\n"
        )
    );
    // The legacy node is untouched, and a new node next to it does not take its place.
    let out = edit(&case, |m| m.display_list.insert(2, new_graph("n6"))).unwrap();
    assert!(
        out.contains("<swf id=\"n3\" name=\"flash\" src=\"x\"/>\n    <graph id=\"n6\""),
        "{out}"
    );
}

/// What the canonical form cannot do faithfully is refused, never written wrongly.
#[test]
fn reordering_is_refused() {
    let c = case("Basics/Main.xml");
    let mut new = c.model.clone();
    new.display_list.swap(0, 1);
    assert!(patched(&c.text, &c.model, &new).is_err());
    let t = case("Basics/Demo_Controller.xml");
    if t.model.controllers.len() >= 2 {
        let mut new = t.model.clone();
        new.controllers.swap(0, 1);
        assert!(patched(&t.text, &t.model, &new).is_err());
    }
}

/// A component holding every kind of element and attribute the reader knows, off its
/// defaults.
const RICH: &str = r##"<?xml version="1.0" encoding="utf-8"?>
<component size="300,200" pivot="0.5,0.5" anchor="true" restrictSize="1,2,3,4" idnum="9" overflow="scroll" scroll="both" scrollBarFlags="3" scrollBar="visible" margin="1,2,3,4" scrollBarMargin="4,3,2,1" clipSoftness="2,3" scrollBarRes="ui://a,ui://b" ptrRes="ui://c," opaque="false" mask="n1" reversedMask="true" bgColorEnabled="true" bgColor="#112233" extention="Slider" customExtention="MySlider" hitTest="n2" initName="x" remark="r" customData="cd" pageController="c1" showSound="ui://s" hideSound="ui://h" designImage="ui://d" designImageAlpha="40" designImageLayer="1" designImageOffsetX="3" designImageOffsetY="-4" designImageForTest="true">
  <customProperty target="n1" propertyId="1" label="L"/>
  <controller name="c1" alias="al" exported="true" pages="0,a,1,b" selected="1" autoRadioGroupDepth="true" homePageType="specific" homePage="1">
    <remark page="1" value="the second"/>
    <action type="play_transition" fromPage="0" toPage="1,0" transition="t0" repeat="3" delay="0.5" stopOnExit="true"/>
    <action type="change_page" objectId="n1" controller="c1" targetPage="0"/>
  </controller>
  <displayList>
    <image id="n1" name="img" src="abc" pkg="pkg1" xy="1.5,-2" pivot="0,0" size="10,20" group="n9" locked="true" aspect="true" scale="0.5,2" skew="1,2" alpha="0.3" rotation="30" visible="false" touchable="false" grayed="true" blend="add" filter="color" filterData="1,2,3,4" tooltips="tip" customData="cd" color="#ff0000" flip="both" fillMethod="radial90" fillOrigin="2" fillClockwise="false" fillAmount="57">
      <gearDisplay controller="c1" pages="0"/>
      <gearDisplay2 controller="c1" pages="1" condition="1"/>
      <gearXY controller="c1" pages="0,1" values="1,2|-" default="3,4" tween="true" ease="Back.Out" customEase="e" duration="1" delay="2" positionsInPercent="true"/>
      <gearSize controller="c1" pages="0" values="1,2,0.5,1"/>
      <gearLook controller="c1" pages="0,1" values="0.5,10,1,0|-" default="1,0,1,1"/>
      <gearColor controller="c1" pages="0" values="#ff0000,#00ff00" default="#123456"/>
      <gearAni controller="c1" pages="0,1" values="3,s,run,red|2,p" default="1,p,,skin"/>
      <gearText controller="c1" pages="0,1,2" values="a,b||" default="d"/>
      <gearIcon controller="c1" pages="0" values="ui://i"/>
      <gearFontSize controller="c1" pages="0" values="20" default="14" condition="x"/>
      <relation target="" sidePair="width-width,height-height%"/>
      <relation target="n2" sidePair="left-right"/>
    </image>
    <text id="n2" name="t" xy="0,0" size="10,10" font="ui://f" fontSize="20" color="#00ff00" align="center" vAlign="bottom" leading="5" letterSpacing="2" ubb="true" autoSize="shrink" underline="true" bold="true" italic="true" strikethrough="true" strokeColor="#000000" strokeSize="2" outlineSoftness="0.5" shadowColor="#111111" shadowOffset="2,3" singleLine="true" faceDilate="0.2" underlaySoftness="0.3" autoClearText="true" vars="true" demoText="demo" text="a&#xA;b"/>
    <text id="n3" name="in" xy="0,0" size="10,10" fontSize="12" text="" input="true" prompt="p" maxLength="10" restrict="[0-9]" password="true" keyboardType="2"/>
    <richtext id="n4" name="rt" xy="0,0" size="10,10" fontSize="12" text="rich"/>
    <component id="n5" name="btn" src="b1" fileName="B.xml" pkg="p2" xy="0,0" size="10,10" controller="c1,1" pageController="c1">
      <Button checked="true" title="T" selectedTitle="S" titleColor="#ffffff" titleFontSize="14" icon="ui://i" selectedIcon="ui://j" controller="c1" page="1" sound="ui://s" volume="57"/>
      <property target="n1" propertyId="0" value="v"/>
      <property target="n1" propertyId="1" value="w"/>
    </component>
    <component id="n6" name="lbl" src="l1" xy="0,0" size="10,10">
      <Label title="T" titleColor="#ffffff" titleFontSize="3" icon="i" prompt="p" sound="s" volume="20"/>
    </component>
    <component id="n7" name="cb" src="c1" xy="0,0" size="10,10">
      <ComboBox title="T" titleColor="#000000" icon="i" visibleItemCount="5" direction="up" selectionController="c1" autoClearItems="true" sound="s" volume="10">
        <item title="a" value="1" icon="x"/>
        <item title="b"/>
      </ComboBox>
    </component>
    <component id="n8" name="pb" src="p1" xy="0,0" size="10,10">
      <ProgressBar value="5" max="10" min="1" sound="s" volume="50"/>
    </component>
    <component id="n9" name="sl" src="s1" xy="0,0" size="10,10">
      <Slider value="5" max="100"/>
    </component>
    <component id="n10" name="sb" src="s2" xy="0,0" size="10,10">
      <ScrollBar/>
    </component>
    <list id="n11" name="l" xy="0,0" size="10,10" pageController="c1" layout="pagination" selectionMode="multipleSingleClick" overflow="hidden" scroll="horizontal" scrollBarFlags="2" scrollBar="auto" scrollBarRes="ui://v," ptrRes=",ui://f" margin="1,1,1,1" scrollBarMargin="2,2,2,2" clipSoftness="1,1" lineGap="3" colGap="4" lineItemCount="2" lineItemCount2="3" defaultItem="ui://d" autoItemSize="true" renderOrder="arch" apex="2" align="right" vAlign="middle" selectionController="c1" controller="c1,0" scrollItemToViewOnClick="false" foldInvisibleItems="true" autoClearItems="true">
      <relation target="" sidePair="width-width"/>
      <item title="a" icon="i" url="u" name="n" selectedTitle="st" selectedIcon="si" level="2" isFolder="true" controllers="c1,1">
        <property target="n1" propertyId="0" value="x"/>
      </item>
      <item/>
    </list>
    <list id="n12" name="tree" xy="0,0" size="10,10" treeView="true" indent="20" clickToExpand="2">
      <item title="f"/>
      <item title="l" level="1"/>
      <item title="g" isFolder="true"/>
      <item title="h"/>
    </list>
    <graph id="n13" name="g" xy="0,0" pivot="0.5,0" size="10,10" type="eclipse" lineSize="0" fillColor="#ff000000" corner="3"/>
    <graph id="n14" name="p" xy="0,0" size="10,10" type="regular_polygon" sides="5" startAngle="-18" distances="0.5,1,,0.7" points="1,2"/>
    <group id="n15" name="gr" xy="0,0" size="10,10" advanced="true" layout="vt" lineGap="2" colGap="3" excludeInvisibles="true" autoSizeDisabled="true" mainGridIndex="1"/>
    <loader id="n16" name="ld" xy="0,0" size="10,10" group="" url="ui://u" align="right" vAlign="bottom" fill="scaleNoBorder" shrinkOnly="true" autoSize="true" useResize="true" errorSign="true" frame="2" playing="false" color="#ff0000" fillMethod="hz" clearOnPublish="true"/>
    <loader3D id="n17" name="l3" xy="0,0" size="10,10" url="ui://s" fill="scale" animation="run" skin="red" loop="true" playing="false" frame="3" color="#00ff00" clearOnPublish="true"/>
    <movieclip id="n18" name="mc" src="m1" fileName="a.jta" xy="0,0" size="10,10" frame="4" playing="false" color="#0000ff"/>
  </displayList>
  <Slider titleType="max" reverse="true" wholeNumbers="true" changeOnClick="false"/>
  <relation target="n1" sidePair="center-center,middle-middle"/>
  <transition name="t0" autoPlay="true" autoPlayRepeat="3" autoPlayDelay="0.5" frameRate="30" options="2">
    <item time="0" type="XY" target="n1" label="start" tween="true" startValue="0,-" endValue="10.5,20" duration="12" ease="Linear" customEase="c" repeat="2" yoyo="true" path="1,2" label2="end"/>
    <item time="3" type="Visible" target="n2" value="false"/>
    <item time="4" type="Text" target="n2" value="a, b"/>
    <item time="5" type="Icon" target="n2" value=""/>
    <item time="6" type="Bogus"/>
    <item time="7"/>
    <item time="8" type="Sound" value="ui://s,50"/>
  </transition>
</component>
"##;

#[test]
fn every_attribute_the_reader_knows_reads_back() {
    let (model, diagnostics) = read_component_xml(RICH).expect("rich");
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let markup = document(&model);
    let back = reread(&markup);
    assert!(
        back == model,
        "{}\n{markup}",
        first_difference(&back, &model)
    );
    // Nearly every line is spelled as written.
    for line in markup.lines() {
        assert!(
            RICH.contains(line.trim()) || line.contains("size=") || line.contains("gearSize"),
            "not as written: {line}"
        );
    }
}

/// A page note whose position names no page is reported, kept in the file, and a page's
/// own note can still change beside it.
#[test]
fn a_note_on_a_page_that_is_not_there_is_reported_and_kept() {
    let text = r#"<?xml version="1.0" encoding="utf-8"?>
<component size="10,10">
  <controller name="c1" pages="0,a,1,b" selected="0">
    <remark page="0" value="first"/>
    <remark page="7" value="stray"/>
  </controller>
  <displayList/>
</component>
"#;
    let (model, diagnostics) = read_component_xml(text).expect("reads");
    assert_eq!(model.controllers[0].pages[0].remark, "first");
    assert_eq!(model.controllers[0].pages[1].remark, "");
    assert!(
        diagnostics
            .iter()
            .any(|d| d.message.contains("<remark page=\"7\"> names no page")),
        "{diagnostics:?}"
    );
    let mut new = model.clone();
    new.controllers[0].pages[1].remark = "second".into();
    let out = patched(text, &model, &new).unwrap();
    assert!(out.contains(r#"<remark page="7" value="stray"/>"#), "{out}");
    assert!(
        out.contains(r#"<remark page="1" value="second"/>"#),
        "{out}"
    );
    assert_eq!(reread(&out).controllers[0].pages[1].remark, "second");
}
