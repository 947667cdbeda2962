//! The canonical form of a FairyGUI XML element: what the editor would write for a piece
//! of the model. Saving compares the canonical form of the model as read with that of the
//! model now, and patches only what differs into the original document
//! ([`super::patch`]); materializing writes the canonical form whole ([`Element::markup`]).

use crate::source::xml::escape_attribute;

/// One element as the FairyGUI editor writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element {
    pub tag: &'static str,
    /// What tells this element apart from its siblings of the same tag: an attribute and
    /// its value (`id` of a display node, `name` of a controller). `None` when siblings of
    /// this tag are told apart by their position.
    pub key: Option<(&'static str, String)>,
    /// The attributes written, in the editor's order.
    pub attributes: Vec<(&'static str, String)>,
    /// Every attribute this element can have, in the editor's order; a new attribute is
    /// inserted where this order puts it among those present.
    pub order: &'static [&'static str],
    pub children: Vec<Element>,
}

impl Element {
    /// An element with no attributes or children yet.
    pub fn new(tag: &'static str, order: &'static [&'static str]) -> Self {
        Element {
            tag,
            key: None,
            attributes: Vec::new(),
            order,
            children: Vec::new(),
        }
    }

    /// Tells this element apart from its siblings by an attribute it carries.
    pub fn keyed(mut self, attribute: &'static str) -> Self {
        let value = self.attribute(attribute).unwrap_or_default().to_string();
        self.key = Some((attribute, value));
        self
    }

    /// Writes an attribute.
    pub fn set(&mut self, name: &'static str, value: impl Into<String>) {
        self.attributes.push((name, value.into()));
    }

    /// Writes an attribute unless it has the value the editor leaves out.
    pub fn set_unless(&mut self, name: &'static str, value: impl Into<String>, default: &str) {
        let value = value.into();
        if value != default {
            self.attributes.push((name, value));
        }
    }

    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(known, _)| *known == name)
            .map(|(_, value)| value.as_str())
    }

    /// Whether `other` is this same element (tag and key), whatever its content.
    pub fn same_as(&self, other: &Element) -> bool {
        self.tag == other.tag && self.key == other.key
    }

    /// The element as the editor writes it: attributes on the start tag, each child on its
    /// own line indented by two spaces per level (a patch re-indents to its neighbours).
    pub fn markup(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out
    }

    fn write(&self, out: &mut String, depth: usize) {
        out.push('<');
        out.push_str(self.tag);
        for (name, value) in &self.attributes {
            out.push(' ');
            out.push_str(name);
            out.push_str("=\"");
            out.push_str(&escape_attribute(value));
            out.push('"');
        }
        if self.children.is_empty() {
            out.push_str("/>");
            return;
        }
        out.push('>');
        for child in &self.children {
            out.push('\n');
            out.push_str(&"  ".repeat(depth + 1));
            child.write(out, depth + 1);
        }
        out.push('\n');
        out.push_str(&"  ".repeat(depth));
        out.push_str("</");
        out.push_str(self.tag);
        out.push('>');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_is_the_editors_layout() {
        let mut list = Element::new("displayList", &[]);
        let mut image = Element::new("image", &["id", "name", "xy"]);
        image.set("id", "n1");
        image.set("name", "a\"b");
        image.set_unless("xy", "0,0", "0,0");
        list.children.push(image.keyed("id"));
        let mut root = Element::new("component", &["size"]);
        root.set("size", "10,20");
        root.children.push(list);
        assert_eq!(
            root.markup(),
            "<component size=\"10,20\">\n  <displayList>\n    <image id=\"n1\" name=\"a&quot;b\"/>\n  </displayList>\n</component>"
        );
    }
}
