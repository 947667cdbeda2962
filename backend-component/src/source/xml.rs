//! In-place edits of an XML document, the way the FairyGUI editor would have written them.
//!
//! A [`XmlPatch`] collects edits against the original text (element and attribute byte
//! ranges from `roxmltree`) and applies them at once. Everything not edited stays
//! byte-identical: attribute order and quoting, white space, comments, unknown attributes
//! and elements. New attributes go where the editor orders them; new elements take their
//! indentation and line ending from their neighbours; removed elements go with their line.

use std::fmt;
use std::ops::Range;

use roxmltree::Node;

/// The editor's attribute escaping, which the writer and the strings files share.
pub use ofgui_contracts::xml::escape_attribute;

/// Why a patch could not be applied. Always a writer bug: the edits came from one parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatchConflict {
    pub first: Range<usize>,
    pub second: Range<usize>,
}

impl fmt::Display for PatchConflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "two edits overlap: bytes {:?} and {:?}",
            self.first, self.second
        )
    }
}

/// Edits of one document, applied together by [`XmlPatch::finish`].
pub struct XmlPatch<'t> {
    text: &'t str,
    edits: Vec<Edit>,
    newline: &'static str,
    unit: String,
}

struct Edit {
    range: Range<usize>,
    text: String,
    /// Order of insertion, so several inserts at one point keep the order they were made.
    sequence: usize,
}

impl<'t> XmlPatch<'t> {
    /// A patch of `text`, the exact string the nodes passed to it were parsed from.
    pub fn new(text: &'t str) -> Self {
        XmlPatch {
            text,
            edits: Vec::new(),
            newline: if text.contains("\r\n") { "\r\n" } else { "\n" },
            unit: indent_unit(text),
        }
    }

    /// True when nothing was edited.
    pub fn is_empty(&self) -> bool {
        self.edits.is_empty()
    }

    fn push(&mut self, range: Range<usize>, text: String) {
        let sequence = self.edits.len();
        self.edits.push(Edit {
            range,
            text,
            sequence,
        });
    }

    /// Sets attribute `name` of `element` to `value` (unescaped). An existing value is
    /// replaced between its quotes; a new attribute goes after the nearest attribute that
    /// `order` (the editor's attribute order for this element) puts before it, else before
    /// the nearest one it puts after it, else after the last attribute.
    pub fn set_attribute(&mut self, element: Node, name: &str, value: &str, order: &[&str]) {
        let escaped = escape_attribute(value);
        if let Some(attribute) = element.attributes().find(|a| a.name() == name) {
            self.push(attribute.range_value(), escaped);
            return;
        }
        let position = order.iter().position(|known| *known == name);
        let present = |candidate: &&str| element.attributes().find(|a| a.name() == *candidate);
        if let Some(position) = position {
            if let Some(before) = order[..position].iter().rev().find_map(&present) {
                self.push(
                    before.range().end..before.range().end,
                    format!(" {name}=\"{escaped}\""),
                );
                return;
            }
            if let Some(after) = order[position + 1..].iter().find_map(&present) {
                self.push(
                    after.range().start..after.range().start,
                    format!("{name}=\"{escaped}\" "),
                );
                return;
            }
        }
        let at = match element.attributes().next_back() {
            Some(last) => last.range().end,
            None => self.name_end(element),
        };
        self.push(at..at, format!(" {name}=\"{escaped}\""));
    }

    /// Removes attribute `name` of `element` with the white space before it.
    pub fn remove_attribute(&mut self, element: Node, name: &str) {
        let Some(attribute) = element.attributes().find(|a| a.name() == name) else {
            return;
        };
        let range = attribute.range();
        let start = self.text[..range.start]
            .trim_end_matches(is_xml_space)
            .len();
        self.push(start..range.end, String::new());
    }

    /// Removes `element`; when it stands alone on its line, the line goes with it.
    pub fn remove_element(&mut self, element: Node) {
        let range = element.range();
        let line_start = self.text[..range.start]
            .rfind('\n')
            .map_or(0, |newline| newline + 1);
        let before = &self.text[line_start..range.start];
        let rest = &self.text[range.end..];
        let after_len = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        let ends_line =
            rest[after_len..].starts_with('\n') || rest[after_len..].starts_with("\r\n");
        if before.chars().all(|c| c == ' ' || c == '\t') && ends_line {
            let newline_len = if rest[after_len..].starts_with("\r\n") {
                2
            } else {
                1
            };
            self.push(
                line_start..range.end + after_len + newline_len,
                String::new(),
            );
        } else {
            self.push(range, String::new());
        }
    }

    /// Replaces `element` (its whole markup) by `markup`, indented like the element.
    pub fn replace_element(&mut self, element: Node, markup: &str) {
        let indent = self.indent_of(element);
        let text = self.indented(markup, &indent);
        self.push(element.range(), text);
    }

    /// Inserts `markup` (one element or several, lines indented by the document's unit
    /// relative to its first line) as a child of `parent`, before its `index`-th element
    /// child (or after the last one), indented like its siblings. Into a parent without
    /// element children, call it once: each call opens the parent up.
    pub fn insert_child(&mut self, parent: Node, index: usize, markup: &str) {
        let siblings: Vec<Node> = parent.children().filter(Node::is_element).collect();
        if let Some(sibling) = siblings.get(index) {
            let indent = self.indent_of(*sibling);
            let text = self.indented(markup, &indent);
            let at = sibling.range().start;
            self.push(at..at, format!("{text}{}{indent}", self.newline));
            return;
        }
        if let Some(last) = siblings.last() {
            let indent = self.indent_of(*last);
            let text = self.indented(markup, &indent);
            let at = last.range().end;
            self.push(at..at, format!("{}{indent}{text}", self.newline));
            return;
        }
        // The first child: the parent opens up if it was self-closing.
        let parent_indent = self.indent_of(parent);
        let indent = format!("{parent_indent}{}", self.unit);
        let text = self.indented(markup, &indent);
        let newline = self.newline;
        let range = parent.range();
        if self.text[..range.end].ends_with("/>") {
            let close = range.end - 2;
            let start = self.text[..close].trim_end_matches(is_xml_space).len();
            let name = self.element_name(parent);
            self.push(
                start..range.end,
                format!(">{newline}{indent}{text}{newline}{parent_indent}</{name}>"),
            );
        } else {
            let content = self.content_range(parent);
            self.push(
                content,
                format!("{newline}{indent}{text}{newline}{parent_indent}"),
            );
        }
    }

    /// Applies every edit; untouched bytes are copied as they are.
    pub fn finish(self) -> Result<String, PatchConflict> {
        let mut edits = self.edits;
        edits.sort_by_key(|edit| (edit.range.start, edit.range.end, edit.sequence));
        let mut out = String::with_capacity(self.text.len() + 256);
        let mut copied = 0;
        let mut previous: Option<Range<usize>> = None;
        for edit in edits {
            if let Some(previous) = &previous
                && edit.range.start < previous.end
            {
                return Err(PatchConflict {
                    first: previous.clone(),
                    second: edit.range,
                });
            }
            out.push_str(&self.text[copied..edit.range.start]);
            out.push_str(&edit.text);
            copied = edit.range.end;
            previous = Some(edit.range);
        }
        out.push_str(&self.text[copied..]);
        Ok(out)
    }

    /// The white space that starts `node`'s line, when only white space precedes it.
    fn indent_of(&self, node: Node) -> String {
        let start = node.range().start;
        let line_start = self.text[..start].rfind('\n').map_or(0, |n| n + 1);
        let before = &self.text[line_start..start];
        if before.chars().all(|c| c == ' ' || c == '\t') {
            before.to_string()
        } else {
            String::new()
        }
    }

    /// `markup` with every line after the first indented by `indent`.
    fn indented(&self, markup: &str, indent: &str) -> String {
        let mut out = String::with_capacity(markup.len() + 16);
        for (index, line) in markup.lines().enumerate() {
            if index > 0 {
                out.push_str(self.newline);
                out.push_str(indent);
            }
            out.push_str(line);
        }
        out
    }

    /// The element's name as written.
    fn element_name(&self, element: Node) -> &'t str {
        let start = element.range().start + 1;
        let rest = &self.text[start..];
        let len = rest
            .find(|c: char| is_xml_space(c) || c == '/' || c == '>')
            .unwrap_or(rest.len());
        &rest[..len]
    }

    /// Where the element's name ends in its start tag.
    fn name_end(&self, element: Node) -> usize {
        element.range().start + 1 + self.element_name(element).len()
    }

    /// Between the end of the start tag and the start of the end tag of an element that
    /// is not self-closing.
    fn content_range(&self, element: Node) -> Range<usize> {
        let after_attributes = element
            .attributes()
            .next_back()
            .map_or(self.name_end(element), |a| a.range().end);
        let start = self.text[after_attributes..]
            .find('>')
            .map_or(after_attributes, |offset| after_attributes + offset + 1);
        let range = element.range();
        let end = self.text[..range.end].rfind("</").unwrap_or(range.end);
        start..end.max(start)
    }
}

fn is_xml_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

/// The document's indentation step: the smallest indentation of an element line, two
/// spaces when nothing is indented (FairyGUI's own layout).
fn indent_unit(text: &str) -> String {
    text.lines()
        .filter_map(|line| {
            let trimmed = line.trim_start_matches([' ', '\t']);
            let indent = &line[..line.len() - trimmed.len()];
            (trimmed.starts_with('<') && !indent.is_empty()).then_some(indent)
        })
        .min_by_key(|indent| indent.len())
        .unwrap_or("  ")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use roxmltree::Document;

    const DOC: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<component size=\"10,20\">\n  <!-- kept -->\n  <displayList>\n    <image id=\"n1\" name=\"n1\" src='abc' xy=\"1,2\" custom=\"x\"/>\n    <text id=\"n2\" name=\"n2\" xy=\"3,4\" text=\"a&#xA;b\"/>\n  </displayList>\n  <transition name=\"t0\"/>\n</component>\n";

    fn patched(edit: impl FnOnce(&mut XmlPatch, &Document)) -> String {
        let doc = Document::parse(DOC).unwrap();
        let mut patch = XmlPatch::new(DOC);
        edit(&mut patch, &doc);
        let out = patch.finish().unwrap();
        Document::parse(&out).expect("the patch keeps the document well-formed");
        out
    }

    fn find<'a, 'i>(doc: &'a Document<'i>, id: &str) -> Node<'a, 'i> {
        doc.descendants()
            .find(|n| n.attribute("id") == Some(id) || n.attribute("name") == Some(id))
            .unwrap()
    }

    const NODE_ORDER: &[&str] = &["id", "name", "src", "xy", "size", "alpha", "text"];

    #[test]
    fn nothing_edited_is_nothing_changed() {
        assert_eq!(patched(|_, _| {}), DOC);
    }

    #[test]
    fn a_value_is_replaced_between_its_own_quotes() {
        let out = patched(|p, d| {
            p.set_attribute(find(d, "n1"), "xy", "5,6", NODE_ORDER);
            p.set_attribute(find(d, "n1"), "src", "it's", NODE_ORDER);
            p.set_attribute(find(d, "n2"), "text", "x\ny<\"z\">", NODE_ORDER);
        });
        assert!(
            out.contains("<image id=\"n1\" name=\"n1\" src='it&apos;s' xy=\"5,6\" custom=\"x\"/>")
        );
        assert!(out.contains("text=\"x&#xA;y&lt;&quot;z&quot;&gt;\""));
        let doc = Document::parse(&out).unwrap();
        assert_eq!(find(&doc, "n2").attribute("text"), Some("x\ny<\"z\">"));
    }

    #[test]
    fn a_new_attribute_goes_where_the_editor_orders_it() {
        let out = patched(|p, d| {
            p.set_attribute(find(d, "n1"), "size", "7,8", NODE_ORDER);
            p.set_attribute(find(d, "n2"), "alpha", "0.5", NODE_ORDER);
            p.set_attribute(find(d, "t0"), "autoPlay", "true", NODE_ORDER);
        });
        assert!(out.contains("src='abc' xy=\"1,2\" size=\"7,8\" custom=\"x\"/>"));
        assert!(out.contains("xy=\"3,4\" alpha=\"0.5\" text=\"a&#xA;b\"/>"));
        assert!(out.contains("<transition name=\"t0\" autoPlay=\"true\"/>"));
    }

    #[test]
    fn an_attribute_leaves_with_its_space() {
        let out = patched(|p, d| p.remove_attribute(find(d, "n1"), "xy"));
        assert!(out.contains("<image id=\"n1\" name=\"n1\" src='abc' custom=\"x\"/>"));
    }

    #[test]
    fn an_element_leaves_with_its_line() {
        let out = patched(|p, d| p.remove_element(find(d, "n1")));
        assert_eq!(
            out,
            DOC.replace(
                "    <image id=\"n1\" name=\"n1\" src='abc' xy=\"1,2\" custom=\"x\"/>\n",
                ""
            )
        );
    }

    #[test]
    fn new_elements_take_their_siblings_indentation() {
        let out = patched(|p, d| {
            let list = d
                .descendants()
                .find(|n| n.has_tag_name("displayList"))
                .unwrap();
            p.insert_child(
                list,
                1,
                "<graph id=\"n3\">\n  <relation target=\"\"/>\n</graph>",
            );
            p.insert_child(list, 2, "<loader id=\"n4\"/>");
        });
        assert!(out.contains(
            "    <image id=\"n1\" name=\"n1\" src='abc' xy=\"1,2\" custom=\"x\"/>\n    <graph id=\"n3\">\n      <relation target=\"\"/>\n    </graph>\n    <text id=\"n2\""
        ), "{out}");
        assert!(
            out.contains("text=\"a&#xA;b\"/>\n    <loader id=\"n4\"/>\n  </displayList>"),
            "{out}"
        );
    }

    #[test]
    fn a_self_closing_parent_opens_for_its_first_child() {
        let out = patched(|p, d| p.insert_child(find(d, "t0"), 0, "<item time=\"0\"/>"));
        assert!(
            out.contains("  <transition name=\"t0\">\n    <item time=\"0\"/>\n  </transition>\n"),
            "{out}"
        );
    }

    #[test]
    fn crlf_documents_stay_crlf() {
        let text = "<a>\r\n  <b x=\"1\"/>\r\n  <c/>\r\n</a>\r\n";
        let doc = Document::parse(text).unwrap();
        let mut patch = XmlPatch::new(text);
        let b = doc.descendants().find(|n| n.has_tag_name("b")).unwrap();
        let c = doc.descendants().find(|n| n.has_tag_name("c")).unwrap();
        patch.remove_element(b);
        patch.insert_child(c, 0, "<d/>");
        assert_eq!(
            patch.finish().unwrap(),
            "<a>\r\n  <c>\r\n    <d/>\r\n  </c>\r\n</a>\r\n"
        );
    }

    #[test]
    fn overlapping_edits_are_refused() {
        let doc = Document::parse(DOC).unwrap();
        let mut patch = XmlPatch::new(DOC);
        patch.remove_element(find(&doc, "n1"));
        patch.set_attribute(find(&doc, "n1"), "xy", "0,0", NODE_ORDER);
        assert!(patch.finish().is_err());
    }
}
