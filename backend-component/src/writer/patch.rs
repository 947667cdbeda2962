//! Patching an original element toward a new canonical form: only attributes and child
//! elements whose canonical form changed are touched, so lexical forms, unknown
//! attributes, unknown elements, comments and layout of everything else stay as they were.

use std::fmt;

use roxmltree::Node;

use super::element::Element;
use crate::source::xml::XmlPatch;

/// Why an element could not be patched faithfully. Nothing is written then.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unpatchable {
    /// Where, as element tags and keys from the document's root (`component/displayList/image[id=n3]`).
    pub at: String,
    pub reason: String,
}

impl fmt::Display for Unpatchable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.reason)
    }
}

/// Edits `dom` (the element as read, which `old` is the canonical form of) so that it
/// reads as `new`.
pub fn patch_element(
    patch: &mut XmlPatch,
    dom: Node,
    old: &Element,
    new: &Element,
    at: &str,
) -> Result<(), Unpatchable> {
    let at = format!("{at}/{}", label(new));
    for (name, value) in &new.attributes {
        if old.attribute(name) != Some(value.as_str()) {
            patch.set_attribute(dom, name, value, new.order);
        }
    }
    for (name, _) in &old.attributes {
        if new.attribute(name).is_none() {
            patch.remove_attribute(dom, name);
        }
    }
    if old.children == new.children {
        return Ok(());
    }
    let fail = |reason: String| Unpatchable {
        at: at.clone(),
        reason,
    };

    let dom_children: Vec<Node> = dom.children().filter(Node::is_element).collect();
    let placed = place(&dom_children, &old.children);

    // Pair each new child with the old child that is the same element.
    let mut taken = vec![false; old.children.len()];
    let mut pairs: Vec<(usize, Option<usize>)> = Vec::with_capacity(new.children.len());
    for (j, child) in new.children.iter().enumerate() {
        let old_index = old
            .children
            .iter()
            .enumerate()
            .position(|(i, candidate)| !taken[i] && candidate.same_as(child));
        if let Some(i) = old_index {
            taken[i] = true;
        }
        pairs.push((j, old_index));
    }

    // Removed elements are edited last: new siblings that go at the end take the place
    // of a removed last one rather than an insertion point inside its removal.
    let mut removed = vec![false; dom_children.len()];
    for (i, child) in old.children.iter().enumerate() {
        if taken[i] {
            continue;
        }
        match placed[i] {
            Placement::At(d) => removed[d] = true,
            Placement::Missing => {}
            Placement::Ambiguous => {
                return Err(fail(format!(
                    "a <{}> element goes, but the file's <{}> elements cannot be matched to the model one to one",
                    child.tag, child.tag
                )));
            }
        }
    }

    let mut last_dom: Option<usize> = None;
    let mut pending: Vec<&Element> = Vec::new();
    for (j, old_index) in &pairs {
        let child = &new.children[*j];
        let Some(i) = old_index else {
            pending.push(child);
            continue;
        };
        let d = match placed[*i] {
            Placement::At(d) => d,
            Placement::Ambiguous if old.children[*i] == *child => {
                // Unchanged, so where it stands does not matter; new siblings go after
                // the last placed one.
                continue;
            }
            Placement::Ambiguous => {
                return Err(fail(format!(
                    "a <{}> element changes, but the file's <{}> elements cannot be matched to the model one to one",
                    child.tag, child.tag
                )));
            }
            Placement::Missing => {
                return Err(fail(format!(
                    "the model has a <{}> element the file does not",
                    child.tag
                )));
            }
        };
        if last_dom.is_some_and(|last| d < last) {
            return Err(fail(format!(
                "<{}> elements change order; the file is not rewritten in a new order",
                child.tag
            )));
        }
        for new_child in pending.drain(..) {
            patch.insert_child(dom, d, &new_child.markup());
        }
        last_dom = Some(d);
        if old.children[*i] != *child {
            patch_element(patch, dom_children[d], &old.children[*i], child, &at)?;
        }
    }
    let end = last_dom.map_or(dom_children.len(), |last| last + 1);
    // The element the new ones would be anchored to: the one after the last placed, or
    // the last of all.
    let anchor = if end < dom_children.len() {
        Some(end)
    } else {
        dom_children.len().checked_sub(1)
    };
    match anchor.filter(|&d| removed[d] && !pending.is_empty()) {
        Some(d) => {
            let markup: Vec<String> = pending.iter().map(|child| child.markup()).collect();
            patch.replace_element(dom_children[d], &markup.join("\n"));
            removed[d] = false;
        }
        // One insertion for all of them: into an element without element children each
        // insertion opens it up (replacing its `/>` or its content), and two such edits
        // of the same bytes conflict.
        None if !pending.is_empty() => {
            let markup: Vec<String> = pending.iter().map(|child| child.markup()).collect();
            patch.insert_child(dom, end, &markup.join("\n"));
        }
        None => {}
    }
    for (d, gone) in removed.into_iter().enumerate() {
        if gone {
            patch.remove_element(dom_children[d]);
        }
    }
    Ok(())
}

/// Where an old canonical child stands among the file's element children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Placement {
    At(usize),
    /// The file has no such element (the model derived it, e.g. an empty container).
    Missing,
    /// Siblings told apart by position whose count in the file differs from the model's
    /// (the reader skipped a broken one): which is which cannot be known.
    Ambiguous,
}

/// Matches old canonical children to the file's element children: keyed ones by tag and
/// key, positional ones by tag and rank when the counts agree.
fn place(dom: &[Node], old: &[Element]) -> Vec<Placement> {
    let mut used = vec![false; dom.len()];
    let mut placed = vec![Placement::Missing; old.len()];
    for (i, child) in old.iter().enumerate() {
        let Some((attribute, value)) = &child.key else {
            continue;
        };
        if let Some(d) = (0..dom.len()).find(|&d| {
            !used[d]
                && dom[d].tag_name().name() == child.tag
                && dom[d].attribute(*attribute) == Some(value.as_str())
        }) {
            used[d] = true;
            placed[i] = Placement::At(d);
        }
    }
    let mut tags: Vec<&str> = old
        .iter()
        .filter(|child| child.key.is_none())
        .map(|child| child.tag)
        .collect();
    tags.dedup();
    for tag in tags {
        let in_model: Vec<usize> = (0..old.len())
            .filter(|&i| old[i].key.is_none() && old[i].tag == tag)
            .collect();
        let in_file: Vec<usize> = (0..dom.len())
            .filter(|&d| !used[d] && dom[d].tag_name().name() == tag)
            .collect();
        if in_model.len() == in_file.len() {
            for (&i, &d) in in_model.iter().zip(&in_file) {
                used[d] = true;
                placed[i] = Placement::At(d);
            }
        } else if !in_file.is_empty() {
            for &i in &in_model {
                placed[i] = Placement::Ambiguous;
            }
        }
    }
    placed
}

fn label(element: &Element) -> String {
    match &element.key {
        Some((attribute, value)) => format!("{}[{attribute}={value}]", element.tag),
        None => element.tag.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use roxmltree::Document;

    const ORDER: &[&str] = &["id", "name", "xy", "size", "alpha"];

    fn node(tag: &'static str, id: &str, xy: &str) -> Element {
        let mut element = Element::new(tag, ORDER);
        element.set("id", id);
        element.set("name", id);
        element.set("xy", xy);
        element.keyed("id")
    }

    fn relation(target: &str) -> Element {
        let mut element = Element::new("relation", &["target", "sidePair"]);
        element.set("target", target);
        element.set("sidePair", "left-left");
        element
    }

    fn component(nodes: Vec<Element>) -> Element {
        let mut root = Element::new("component", &["size"]);
        root.set("size", "100,100");
        let mut list = Element::new("displayList", &[]);
        list.children = nodes;
        root.children.push(list);
        root
    }

    const DOC: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<component size=\"100,100\" extra=\"kept\">\n  <displayList>\n    <image id=\"n1\" name=\"n1\" xy=\"0,0\" unknown=\"1\"/>\n    <!-- a comment -->\n    <graph id=\"n2\" name=\"n2\" xy=\"5,5\">\n      <relation target=\"\" sidePair=\"left-left\"/>\n    </graph>\n    <swf id=\"n9\" name=\"n9\"/>\n  </displayList>\n</component>\n";

    fn base() -> Element {
        let mut graph = node("graph", "n2", "5,5");
        graph.children.push(relation(""));
        component(vec![node("image", "n1", "0,0"), graph])
    }

    fn apply(new: &Element) -> Result<String, Unpatchable> {
        let doc = Document::parse(DOC).unwrap();
        let mut patch = XmlPatch::new(DOC);
        patch_element(&mut patch, doc.root_element(), &base(), new, "")?;
        Ok(patch.finish().unwrap())
    }

    #[test]
    fn the_same_model_writes_the_same_bytes() {
        assert_eq!(apply(&base()).unwrap(), DOC);
    }

    #[test]
    fn a_changed_attribute_is_the_only_change() {
        let mut new = base();
        new.children[0].children[0] = node("image", "n1", "12,34");
        let out = apply(&new).unwrap();
        assert_eq!(out, DOC.replace("xy=\"0,0\"", "xy=\"12,34\""));
    }

    #[test]
    fn nodes_come_and_go_with_their_lines_and_unknown_elements_stay() {
        let mut new = base();
        new.children[0].children.remove(0);
        new.children[0].children.push(node("loader", "n3", "1,1"));
        new.children[0].children[0].children.push(relation("n3"));
        let out = apply(&new).unwrap();
        assert!(!out.contains("id=\"n1\""));
        assert!(out.contains("<!-- a comment -->"));
        assert!(out.contains(
            "      <relation target=\"\" sidePair=\"left-left\"/>\n      <relation target=\"n3\" sidePair=\"left-left\"/>\n    </graph>\n    <loader id=\"n3\" name=\"n3\" xy=\"1,1\"/>\n    <swf"
        ), "{out}");
    }

    #[test]
    fn new_last_elements_take_the_place_of_a_removed_last_one() {
        let mut new = base();
        new.children[0].children.remove(1);
        new.children[0].children.push(node("loader", "n3", "1,1"));
        new.children[0].children.push(node("loader", "n4", "2,2"));
        let out = apply(&new).unwrap();
        assert!(out.contains(
            "    <!-- a comment -->\n    <loader id=\"n3\" name=\"n3\" xy=\"1,1\"/>\n    <loader id=\"n4\" name=\"n4\" xy=\"2,2\"/>\n    <swf"
        ), "{out}");
        // Everything known goes and a new one comes: it follows what stays.
        let mut new = base();
        new.children[0].children = vec![node("loader", "n3", "1,1")];
        let out = apply(&new).unwrap();
        assert!(out.contains(
            "  <displayList>\n    <!-- a comment -->\n    <swf id=\"n9\" name=\"n9\"/>\n    <loader id=\"n3\" name=\"n3\" xy=\"1,1\"/>\n  </displayList>"
        ), "{out}");
    }

    // Found by the save fuzz harness: a package's `<publish name=""/>` given two atlases.
    #[test]
    fn two_new_children_open_up_a_childless_element_once() {
        for doc in ["<publish name=\"\"/>", "<publish name=\"\"></publish>"] {
            let dom = Document::parse(doc).unwrap();
            let old = Element::new("publish", &["name"]);
            let mut new = old.clone();
            for name in ["a", "b"] {
                let mut atlas = Element::new("atlas", &["name"]);
                atlas.set("name", name);
                new.children.push(atlas);
            }
            let mut patch = XmlPatch::new(doc);
            patch_element(&mut patch, dom.root_element(), &old, &new, "").unwrap();
            assert_eq!(
                patch.finish().unwrap(),
                "<publish name=\"\">\n  <atlas name=\"a\"/>\n  <atlas name=\"b\"/>\n</publish>"
            );
        }
    }

    #[test]
    fn a_reordered_list_is_refused_not_rewritten() {
        let mut new = base();
        new.children[0].children.reverse();
        assert!(apply(&new).is_err());
    }
}
