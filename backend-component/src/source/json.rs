//! A JSON document with the byte span of every value and key, and in-place edits of it.
//!
//! [`JsonDoc::parse`] keeps the original text and records where each value, member and
//! key stands; a [`JsonPatch`] replaces values where they stand, inserts members in the
//! style of their siblings (indentation, spacing after the colon, line breaks) and removes
//! members with their line and comma. Everything not edited stays byte-identical: key
//! order, white space and the spelling of numbers.

use std::ops::Range;

use super::xml::PatchConflict;

/// One JSON value and where it stands in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub span: Range<usize>,
    pub kind: Kind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Object(Vec<Member>),
    Array(Vec<Node>),
    /// A string, number, `true`, `false` or `null`.
    Scalar,
}

/// One `"key": value` of an object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The key, unescaped.
    pub key: String,
    pub key_span: Range<usize>,
    pub value: Node,
}

/// A parsed document: the text and its root value.
#[derive(Debug)]
pub struct JsonDoc<'t> {
    text: &'t str,
    pub root: Node,
}

/// How a document is laid out, for the text an edit adds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Style {
    pub newline: &'static str,
    /// One indentation step (`\t` in the editor's files).
    pub unit: String,
    /// Between a key and its value: `:` (the editor's) or `: `.
    pub colon: String,
    /// Whether arrays stand on one line (`["a","b"]`, as the editor writes them).
    pub inline_arrays: bool,
    /// Between the items of an inline array.
    pub comma: String,
    /// Whether an object without members opens over an empty line (`{\n\n}`, as the
    /// editor writes an empty `CustomProperties.json`) rather than standing as `{}`.
    pub open_empty_objects: bool,
}

impl Style {
    /// An object without members, closing on a line indented by `indent`.
    pub fn empty_object(&self, indent: &str) -> String {
        if self.open_empty_objects {
            format!("{{{0}{0}{indent}}}", self.newline)
        } else {
            "{}".into()
        }
    }
}

/// Why a text is not one JSON value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError(pub String);

/// As deep as `serde_json` reads.
const MAX_DEPTH: usize = 128;

impl<'t> JsonDoc<'t> {
    /// Parses `text`, which must be exactly one JSON value (white space around it allowed).
    pub fn parse(text: &'t str) -> Result<Self, JsonError> {
        // The well-formedness rules (escapes, numbers, control characters) are
        // serde_json's; the span walk below then only meets valid JSON.
        serde_json::from_str::<serde_json::Value>(text).map_err(|e| JsonError(e.to_string()))?;
        let mut parser = Parser {
            text,
            bytes: text.as_bytes(),
            at: 0,
        };
        parser.skip_space();
        let root = parser.value(0)?;
        Ok(JsonDoc { text, root })
    }

    pub fn text(&self) -> &'t str {
        self.text
    }

    /// The layout of the document; the editor's own (tabs, `:`, one-line arrays) where the
    /// document shows none.
    pub fn style(&self) -> Style {
        let text = self.text;
        let unit = text
            .lines()
            .filter_map(|line| {
                let trimmed = line.trim_start_matches([' ', '\t']);
                let indent = &line[..line.len() - trimmed.len()];
                (!indent.is_empty() && !trimmed.is_empty()).then_some(indent)
            })
            .min_by_key(|indent| indent.len())
            .unwrap_or("\t")
            .to_string();
        let mut colon = None;
        let mut array = None;
        let mut open_empty = None;
        walk(&self.root, &mut |node| match &node.kind {
            Kind::Object(members) if members.is_empty() => {
                open_empty.get_or_insert(text[node.span.clone()].contains('\n'));
            }
            Kind::Object(members) if colon.is_none() => {
                if let Some(member) = members.first() {
                    colon = Some(text[member.key_span.end..member.value.span.start].to_string());
                }
            }
            Kind::Array(items) if array.is_none() && !items.is_empty() => {
                let inline = !text[node.span.clone()].contains('\n');
                let comma = items
                    .get(1)
                    .map(|second| text[items[0].span.end..second.span.start].to_string());
                array = Some((inline, comma));
            }
            _ => {}
        });
        let colon = colon.unwrap_or_else(|| ":".into());
        let compact = colon == ":";
        let (inline_arrays, comma) = match array {
            Some((inline, comma)) => (inline, comma),
            None => (compact, None),
        };
        Style {
            newline: if text.contains("\r\n") { "\r\n" } else { "\n" },
            unit,
            comma: comma.unwrap_or_else(|| if compact { "," } else { ", " }.into()),
            colon,
            inline_arrays,
            // Without an empty object to go by, the editor's own files open theirs.
            open_empty_objects: open_empty.unwrap_or(compact),
        }
    }

    /// The white space that starts the line `at` is on.
    pub fn line_indent(&self, at: usize) -> &'t str {
        let start = self.text[..at].rfind('\n').map_or(0, |n| n + 1);
        let line = &self.text[start..];
        let len = line.len() - line.trim_start_matches([' ', '\t']).len();
        &line[..len]
    }

    /// The indentation of an object's members: that of its first member when it stands on
    /// its own line, else one step deeper than the object's line.
    pub fn member_indent(&self, object: &Node, style: &Style) -> String {
        if let Kind::Object(members) = &object.kind
            && let Some(first) = members.first()
            && self.text[object.span.start..first.key_span.start].contains('\n')
        {
            return self.line_indent(first.key_span.start).to_string();
        }
        format!("{}{}", self.line_indent(object.span.start), style.unit)
    }

    /// Whether an object's members stand on lines of their own.
    fn multiline(&self, object: &Node, members: &[Member]) -> bool {
        members
            .first()
            .is_some_and(|first| self.text[object.span.start..first.key_span.start].contains('\n'))
    }
}

fn walk(node: &Node, visit: &mut impl FnMut(&Node)) {
    visit(node);
    match &node.kind {
        Kind::Object(members) => members.iter().for_each(|m| walk(&m.value, visit)),
        Kind::Array(items) => items.iter().for_each(|item| walk(item, visit)),
        Kind::Scalar => {}
    }
}

struct Parser<'t> {
    text: &'t str,
    bytes: &'t [u8],
    at: usize,
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        {
            self.at += 1;
        }
    }

    fn error(&self, what: &str) -> JsonError {
        JsonError(format!("{what} at byte {}", self.at))
    }

    fn expect(&mut self, byte: u8) -> Result<(), JsonError> {
        if self.bytes.get(self.at) == Some(&byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected '{}'", byte as char)))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        let start = self.at;
        let kind =
            match self.bytes.get(self.at) {
                Some(b'{') => {
                    self.at += 1;
                    let mut members = Vec::new();
                    self.skip_space();
                    if self.bytes.get(self.at) != Some(&b'}') {
                        loop {
                            self.skip_space();
                            let key_span = self.string()?;
                            let key = serde_json::from_str::<String>(&self.text[key_span.clone()])
                                .map_err(|e| JsonError(e.to_string()))?;
                            self.skip_space();
                            self.expect(b':')?;
                            self.skip_space();
                            let value = self.value(depth + 1)?;
                            members.push(Member {
                                key,
                                key_span,
                                value,
                            });
                            self.skip_space();
                            if self.bytes.get(self.at) == Some(&b',') {
                                self.at += 1;
                            } else {
                                break;
                            }
                        }
                    }
                    self.expect(b'}')?;
                    Kind::Object(members)
                }
                Some(b'[') => {
                    self.at += 1;
                    let mut items = Vec::new();
                    self.skip_space();
                    if self.bytes.get(self.at) != Some(&b']') {
                        loop {
                            self.skip_space();
                            items.push(self.value(depth + 1)?);
                            self.skip_space();
                            if self.bytes.get(self.at) == Some(&b',') {
                                self.at += 1;
                            } else {
                                break;
                            }
                        }
                    }
                    self.expect(b']')?;
                    Kind::Array(items)
                }
                Some(b'"') => {
                    self.string()?;
                    Kind::Scalar
                }
                Some(_) => {
                    // A number or a literal: serde_json has checked its spelling.
                    while self.bytes.get(self.at).is_some_and(|b| {
                        b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.')
                    }) {
                        self.at += 1;
                    }
                    if self.at == start {
                        return Err(self.error("expected a value"));
                    }
                    Kind::Scalar
                }
                None => return Err(self.error("expected a value")),
            };
        Ok(Node {
            span: start..self.at,
            kind,
        })
    }

    /// A string's span, quotes included.
    fn string(&mut self) -> Result<Range<usize>, JsonError> {
        let start = self.at;
        self.expect(b'"')?;
        loop {
            match self.bytes.get(self.at) {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(start..self.at);
                }
                Some(b'\\') => self.at += 2,
                Some(_) => self.at += 1,
                None => return Err(self.error("unterminated string")),
            }
        }
    }
}

/// Edits of one document, applied together by [`JsonPatch::finish`].
pub struct JsonPatch<'d, 't> {
    doc: &'d JsonDoc<'t>,
    edits: Vec<(Range<usize>, String, usize)>,
}

impl<'d, 't> JsonPatch<'d, 't> {
    pub fn new(doc: &'d JsonDoc<'t>) -> Self {
        JsonPatch {
            doc,
            edits: Vec::new(),
        }
    }

    fn push(&mut self, range: Range<usize>, text: String) {
        let sequence = self.edits.len();
        self.edits.push((range, text, sequence));
    }

    /// Replaces a value where it stands with `text` (JSON text laid out for that place).
    pub fn replace(&mut self, node: &Node, text: String) {
        self.push(node.span.clone(), text);
    }

    /// Removes the members at `indices` of `object`, each with its line and the comma that
    /// separated it; an object left empty takes the document's empty form
    /// ([`Style::empty_object`]).
    pub fn remove_members(&mut self, object: &Node, indices: &[usize], style: &Style) {
        let Kind::Object(members) = &object.kind else {
            return;
        };
        let removed = |i: usize| indices.contains(&i);
        if (0..members.len()).all(removed) {
            let indent = self.doc.line_indent(object.span.start);
            self.push(object.span.clone(), style.empty_object(indent));
            return;
        }
        let mut i = 0;
        while i < members.len() {
            if !removed(i) {
                i += 1;
                continue;
            }
            let first = i;
            while i < members.len() && removed(i) {
                i += 1;
            }
            let last = i - 1;
            let range = match members.get(i) {
                // Up to the next kept key: the comma and the line break go along.
                Some(next) => members[first].key_span.start..next.key_span.start,
                // At the end: from the end of the last kept value, taking its comma.
                None => members[first - 1].value.span.end..members[last].value.span.end,
            };
            self.push(range, String::new());
        }
    }

    /// Inserts the member `"key"<colon>value` into `object` before the member at `before`
    /// (or after the last of `kept`, the members that stay), laid out like its siblings.
    /// `key` is JSON text (quoted), `value` JSON text laid out for the members' indentation.
    /// An object with no kept member is the caller's to replace whole.
    pub fn insert_member(
        &mut self,
        object: &Node,
        before: Option<usize>,
        kept: &[usize],
        key: &str,
        value: &str,
        style: &Style,
    ) {
        let Kind::Object(members) = &object.kind else {
            return;
        };
        let multiline = self.doc.multiline(object, members);
        let separator = if multiline {
            format!(
                ",{}{}",
                style.newline,
                self.doc.member_indent(object, style)
            )
        } else {
            match (members.first(), members.get(1)) {
                (Some(first), Some(second)) => {
                    self.doc.text[first.value.span.end..second.key_span.start].to_string()
                }
                _ => style.comma.clone(),
            }
        };
        let member = format!("{key}{}{value}", style.colon);
        match before {
            Some(index) if index < members.len() => {
                let at = members[index].key_span.start;
                self.push(at..at, format!("{member}{separator}"));
            }
            _ => {
                let Some(&last) = kept.last() else {
                    return;
                };
                let at = members[last].value.span.end;
                self.push(at..at, format!("{separator}{member}"));
            }
        }
    }

    /// Applies every edit; untouched bytes are copied as they are.
    pub fn finish(self) -> Result<String, PatchConflict> {
        let text = self.doc.text;
        let mut edits = self.edits;
        edits.sort_by_key(|(range, _, sequence)| (range.start, range.end, *sequence));
        let mut out = String::with_capacity(text.len() + 64);
        let mut copied = 0;
        let mut previous: Option<Range<usize>> = None;
        for (range, replacement, _) in edits {
            if let Some(previous) = &previous
                && range.start < previous.end
            {
                return Err(PatchConflict {
                    first: previous.clone(),
                    second: range,
                });
            }
            out.push_str(&text[copied..range.start]);
            out.push_str(&replacement);
            copied = range.end;
            previous = Some(range);
        }
        out.push_str(&text[copied..]);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABS: &str = "{\n\t\"a\":1,\n\t\"list\":[\"x\",\"y\"],\n\t\"obj\":{\n\t\t\"k\":1.50\n\t},\n\t\"z\":\"s\"\n}";

    #[test]
    fn spans_cover_keys_and_values() {
        let doc = JsonDoc::parse(TABS).unwrap();
        let Kind::Object(members) = &doc.root.kind else {
            panic!("object")
        };
        let keys: Vec<&str> = members.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(keys, ["a", "list", "obj", "z"]);
        assert_eq!(&TABS[members[1].value.span.clone()], "[\"x\",\"y\"]");
        assert_eq!(&TABS[members[2].key_span.clone()], "\"obj\"");
        let Kind::Object(inner) = &members[2].value.kind else {
            panic!("object")
        };
        assert_eq!(&TABS[inner[0].value.span.clone()], "1.50");
        assert_eq!(doc.root.span, 0..TABS.len());
    }

    #[test]
    fn the_style_is_read_from_the_document() {
        let doc = JsonDoc::parse(TABS).unwrap();
        let style = doc.style();
        assert_eq!(
            style,
            Style {
                newline: "\n",
                unit: "\t".into(),
                colon: ":".into(),
                inline_arrays: true,
                comma: ",".into(),
                open_empty_objects: true,
            }
        );
        let spaced =
            JsonDoc::parse("{\r\n  \"a\": 1,\r\n  \"b\": {\r\n    \"c\": 2\r\n  }\r\n}").unwrap();
        let style = spaced.style();
        assert_eq!(
            (style.newline, style.unit.as_str(), style.colon.as_str()),
            ("\r\n", "  ", ": ")
        );
        assert!(!style.inline_arrays);
        assert!(!style.open_empty_objects);
        // An empty object of the document's own shows how it writes them.
        let open = JsonDoc::parse("{\n  \"a\": {\n\n  }\n}").unwrap();
        assert!(open.style().open_empty_objects);
        let closed = JsonDoc::parse("{\n\t\"a\":{}\n}").unwrap();
        assert!(!closed.style().open_empty_objects);
    }

    #[test]
    fn escaped_keys_are_unescaped_and_broken_text_is_refused() {
        let doc = JsonDoc::parse("{\"a\\\"b\\u00e9\": \"x\\\"}\"}").unwrap();
        let Kind::Object(members) = &doc.root.kind else {
            panic!("object")
        };
        assert_eq!(members[0].key, "a\"bé");
        assert!(JsonDoc::parse("{\"a\":1,}").is_err());
        assert!(JsonDoc::parse("{\"a\":1} x").is_err());
        assert!(JsonDoc::parse("").is_err());
    }

    fn members(doc: &JsonDoc) -> Vec<Member> {
        match &doc.root.kind {
            Kind::Object(members) => members.clone(),
            _ => panic!("object"),
        }
    }

    #[test]
    fn members_leave_with_their_line_and_comma() {
        let doc = JsonDoc::parse(TABS).unwrap();
        let cases: [(&[usize], &str); 5] = [
            (
                &[0],
                "{\n\t\"list\":[\"x\",\"y\"],\n\t\"obj\":{\n\t\t\"k\":1.50\n\t},\n\t\"z\":\"s\"\n}",
            ),
            (
                &[3],
                "{\n\t\"a\":1,\n\t\"list\":[\"x\",\"y\"],\n\t\"obj\":{\n\t\t\"k\":1.50\n\t}\n}",
            ),
            (&[2, 3], "{\n\t\"a\":1,\n\t\"list\":[\"x\",\"y\"]\n}"),
            (&[1, 2], "{\n\t\"a\":1,\n\t\"z\":\"s\"\n}"),
            (&[0, 1, 2, 3], "{\n\n}"),
        ];
        let style = doc.style();
        for (indices, expected) in cases {
            let mut patch = JsonPatch::new(&doc);
            patch.remove_members(&doc.root, indices, &style);
            let out = patch.finish().unwrap();
            assert_eq!(out, expected, "{indices:?}");
            serde_json::from_str::<serde_json::Value>(&out).unwrap();
        }
        // A nested object emptied closes at its own line's indentation.
        let Kind::Object(top) = &doc.root.kind else {
            panic!("object")
        };
        let mut patch = JsonPatch::new(&doc);
        patch.remove_members(&top[2].value, &[0], &style);
        assert!(patch.finish().unwrap().contains("\t\"obj\":{\n\n\t},\n"));
        let inline = JsonDoc::parse("{\"a\": 1, \"b\": 2, \"c\": 3}").unwrap();
        let style = inline.style();
        let mut patch = JsonPatch::new(&inline);
        patch.remove_members(&inline.root, &[1], &style);
        assert_eq!(patch.finish().unwrap(), "{\"a\": 1, \"c\": 3}");
        let mut patch = JsonPatch::new(&inline);
        patch.remove_members(&inline.root, &[2], &style);
        assert_eq!(patch.finish().unwrap(), "{\"a\": 1, \"b\": 2}");
        let mut patch = JsonPatch::new(&inline);
        patch.remove_members(&inline.root, &[0, 1, 2], &style);
        assert_eq!(patch.finish().unwrap(), "{}");
    }

    #[test]
    fn members_arrive_like_their_siblings() {
        let doc = JsonDoc::parse(TABS).unwrap();
        let style = doc.style();
        let mut patch = JsonPatch::new(&doc);
        patch.insert_member(&doc.root, None, &[0, 1, 2, 3], "\"new\"", "true", &style);
        patch.insert_member(&doc.root, Some(1), &[0, 1, 2, 3], "\"b\"", "2", &style);
        assert_eq!(
            patch.finish().unwrap(),
            "{\n\t\"a\":1,\n\t\"b\":2,\n\t\"list\":[\"x\",\"y\"],\n\t\"obj\":{\n\t\t\"k\":1.50\n\t},\n\t\"z\":\"s\",\n\t\"new\":true\n}"
        );
        // Appended after the last member that stays, while the last one leaves.
        let mut patch = JsonPatch::new(&doc);
        patch.remove_members(&doc.root, &[3], &style);
        patch.insert_member(&doc.root, None, &[0, 1, 2], "\"new\"", "0", &style);
        assert_eq!(
            patch.finish().unwrap(),
            "{\n\t\"a\":1,\n\t\"list\":[\"x\",\"y\"],\n\t\"obj\":{\n\t\t\"k\":1.50\n\t},\n\t\"new\":0\n}"
        );
        assert_eq!(members(&doc).len(), 4);
        let inline = JsonDoc::parse("{\"a\": 1, \"b\": 2}").unwrap();
        let style = inline.style();
        let mut patch = JsonPatch::new(&inline);
        patch.insert_member(&inline.root, None, &[0, 1], "\"c\"", "3", &style);
        assert_eq!(patch.finish().unwrap(), "{\"a\": 1, \"b\": 2, \"c\": 3}");
    }

    #[test]
    fn a_value_is_replaced_where_it_stands() {
        let doc = JsonDoc::parse(TABS).unwrap();
        let all = members(&doc);
        let Kind::Object(inner) = &all[2].value.kind else {
            panic!("object")
        };
        let mut patch = JsonPatch::new(&doc);
        patch.replace(&inner[0].value, "2".into());
        patch.replace(&all[3].value, "\"t\"".into());
        assert_eq!(
            patch.finish().unwrap(),
            TABS.replace("1.50", "2").replace("\"s\"", "\"t\"")
        );
    }
}
