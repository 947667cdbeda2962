//! Structure-aware inputs for the reader: a vocabulary of the elements, attributes and
//! values the real corpora use, documents generated from it, and mutators for XML and
//! JSON text that know attributes, lines and values as well as bytes.

use std::collections::{BTreeMap, BTreeSet};

/// Values that break number parsers: non-finite, out of range, signed zero, not numbers.
pub const WEIRD_NUMBERS: &[&str] = &[
    "NaN",
    "nan",
    "inf",
    "-Infinity",
    "1e999",
    "-1e999",
    "1e-999",
    "-0",
    "-0.0",
    "0x10",
    "1_000",
    "99999999999999999999999",
    "-2147483649",
    "2147483648",
    "4294967296",
    "18446744073709551616",
    "1.7976931348623157e308",
    "4.9e-324",
    "",
    " ",
    ",",
    ",,,",
    "1,",
    ",1",
    "1,2,3,4,5,6,7,8,9",
    "--1",
    "+1",
    ".5",
    "5.",
    "½",
    "١٢",
    "true",
];

/// Strings that break everything else: markup, escapes, paths, long and odd text.
pub const WEIRD_STRINGS: &[&str] = &[
    "&amp;",
    "&lt;x&gt;",
    "&#0;",
    "&#xD800;",
    "&#x10FFFF;",
    "&#65;&#x42;",
    "../../etc/passwd",
    "/a//b/",
    "\\\\server\\share",
    "CON",
    "ui://",
    "ui://x",
    "ui://zzzzzzzzzzzzzzzzzz",
    "#",
    "#ffgg00",
    "#ff00ff00ff",
    "\u{1F600}",
    "e\u{301}",
    "\u{202E}rtl",
    "\t\r\n",
    "|",
    ";;;",
    "a,b,c",
];

/// Elements by tag name as the corpora use them: their attributes with the values seen,
/// and the tags of their children.
#[derive(Default)]
pub struct Vocab {
    pub tags: BTreeMap<String, Tag>,
}

#[derive(Default)]
pub struct Tag {
    pub attributes: BTreeMap<String, Vec<String>>,
    pub children: BTreeSet<String>,
}

impl Vocab {
    /// Learns from every XML document given (files that do not parse are skipped).
    pub fn learn<'a>(documents: impl IntoIterator<Item = &'a [u8]>) -> Vocab {
        let mut vocab = Vocab::default();
        for bytes in documents {
            let Ok(text) = std::str::from_utf8(bytes) else {
                continue;
            };
            let text = text.trim_start_matches('\u{feff}');
            let Ok(doc) = roxmltree::Document::parse(text) else {
                continue;
            };
            for node in doc.descendants().filter(roxmltree::Node::is_element) {
                let tag = vocab
                    .tags
                    .entry(node.tag_name().name().to_string())
                    .or_default();
                for attribute in node.attributes() {
                    let values = tag
                        .attributes
                        .entry(attribute.name().to_string())
                        .or_default();
                    // A few distinct values per attribute are enough to draw from.
                    if values.len() < 24 && !values.iter().any(|v| v == attribute.value()) {
                        values.push(attribute.value().to_string());
                    }
                }
                for child in node.children().filter(roxmltree::Node::is_element) {
                    tag.children.insert(child.tag_name().name().to_string());
                }
            }
        }
        vocab
    }

    fn any_tag<'v>(&'v self, rng: &mut fastrand::Rng) -> (&'v String, &'v Tag) {
        let index = rng.usize(..self.tags.len());
        self.tags.iter().nth(index).unwrap()
    }

    fn attribute_name(&self, rng: &mut fastrand::Rng) -> String {
        let (_, tag) = self.any_tag(rng);
        match tag
            .attributes
            .keys()
            .nth(rng.usize(..tag.attributes.len().max(1)))
        {
            Some(name) => name.clone(),
            None => "id".to_string(),
        }
    }

    /// One element of `tag_name` with attributes drawn from the corpora (some with weird
    /// values) and, below `depth`, children the corpora give that tag.
    pub fn element(&self, rng: &mut fastrand::Rng, tag_name: &str, depth: usize, out: &mut String) {
        out.push('<');
        out.push_str(tag_name);
        let tag = self.tags.get(tag_name);
        if let Some(tag) = tag {
            for (name, values) in &tag.attributes {
                if rng.usize(..3) == 0 {
                    continue;
                }
                let value = if rng.usize(..5) == 0 {
                    weird(rng)
                } else {
                    values[rng.usize(..values.len())].clone()
                };
                out.push_str(&format!(" {name}=\"{}\"", escape(&value)));
            }
        }
        let children: Vec<&String> = tag.map(|t| t.children.iter().collect()).unwrap_or_default();
        if depth == 0 || children.is_empty() || rng.usize(..4) == 0 {
            out.push_str("/>");
            return;
        }
        out.push('>');
        for _ in 0..rng.usize(..6) {
            let child = children[rng.usize(..children.len())];
            out.push('\n');
            self.element(rng, child, depth - 1, out);
        }
        out.push_str(&format!("\n</{tag_name}>"));
    }

    /// A whole document whose root is `root`, from the grammar the corpora imply.
    pub fn document(&self, rng: &mut fastrand::Rng, root: &str) -> String {
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
        self.element(rng, root, 4, &mut out);
        out.push('\n');
        out
    }
}

/// A weird number or string.
pub fn weird(rng: &mut fastrand::Rng) -> String {
    match rng.usize(..10) {
        0..=5 => WEIRD_NUMBERS[rng.usize(..WEIRD_NUMBERS.len())].to_string(),
        6..=8 => WEIRD_STRINGS[rng.usize(..WEIRD_STRINGS.len())].to_string(),
        _ => "x".repeat(1 << rng.usize(8..17)),
    }
}

/// Escapes an attribute value, except the entity and character references the weird
/// strings carry on purpose.
fn escape(value: &str) -> String {
    value.replace('<', "&lt;").replace('"', "&quot;")
}

/// `name="value"` in a document: (start of the name, start and end of the value).
fn attributes(text: &str) -> Vec<(usize, usize, usize)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(offset) = text[at..].find("=\"") {
        let eq = at + offset;
        let value_start = eq + 2;
        let Some(len) = text[value_start..].find('"') else {
            break;
        };
        let mut name_start = eq;
        while name_start > 0
            && (bytes[name_start - 1].is_ascii_alphanumeric() || bytes[name_start - 1] == b'_')
        {
            name_start -= 1;
        }
        if name_start < eq {
            found.push((name_start, value_start, value_start + len));
        }
        at = value_start + len + 1;
    }
    found
}

/// The numbers of an attribute value that is a number or a comma-separated tuple of them.
pub fn numeric_attributes(text: &str) -> Vec<(String, usize, usize)> {
    attributes(text)
        .into_iter()
        .filter(|&(_, start, end)| {
            let value = &text[start..end];
            !value.is_empty()
                && value
                    .split(',')
                    .all(|part| !part.is_empty() && part.parse::<f64>().is_ok_and(f64::is_finite))
        })
        .map(|(name_start, start, end)| (text[name_start..start - 2].to_string(), start, end))
        .collect()
}

/// Line boundaries (byte offsets where a line starts).
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .filter(|&i| i <= text.len())
        .collect()
}

/// One structure-aware change to XML text; returns a short description for the report.
fn xml_once(rng: &mut fastrand::Rng, text: &mut String, vocab: &Vocab) -> String {
    let attrs = attributes(text);
    let lines = line_starts(text);
    let line = |rng: &mut fastrand::Rng| {
        let i = rng.usize(..lines.len());
        let end = lines.get(i + 1).copied().unwrap_or(text.len());
        (lines[i], end)
    };
    match rng.usize(..14) {
        0..=3 if !attrs.is_empty() => {
            let (name_start, start, end) = attrs[rng.usize(..attrs.len())];
            let old = &text[start..end];
            // A tuple keeps its other parts, so each part's parser is reached.
            let parts: Vec<&str> = old.split(',').collect();
            let new = if parts.len() > 1 && rng.bool() {
                let mut parts: Vec<String> = parts.iter().map(|p| p.to_string()).collect();
                let k = rng.usize(..parts.len());
                parts[k] = weird(rng);
                parts.join(",")
            } else {
                escape(&weird(rng))
            };
            let what = format!(
                "value of {} → {:?}",
                &text[name_start..start - 2],
                crate::driver::excerpt(&new)
            );
            text.replace_range(start..end, &new);
            what
        }
        4 if !attrs.is_empty() => {
            let (name_start, _, end) = attrs[rng.usize(..attrs.len())];
            let what = format!("removed {}", &text[name_start..=end]);
            text.replace_range(name_start..=end, "");
            what
        }
        5 if !attrs.is_empty() => {
            let (name_start, _, end) = attrs[rng.usize(..attrs.len())];
            let copy = format!(" {}", &text[name_start..=end]);
            text.insert_str(end + 1, &copy);
            format!("duplicated{copy}")
        }
        6 if !attrs.is_empty() => {
            let (name_start, start, _) = attrs[rng.usize(..attrs.len())];
            let name = vocab.attribute_name(rng);
            let what = format!("renamed {} → {name}", &text[name_start..start - 2]);
            text.replace_range(name_start..start - 2, &name);
            what
        }
        7 => {
            let (start, end) = line(rng);
            let copy = text[start..end].to_string();
            text.insert_str(end, &copy);
            format!("duplicated line {copy:?}")
        }
        8 => {
            let (start, end) = line(rng);
            let what = format!("removed line {:?}", &text[start..end]);
            text.replace_range(start..end, "");
            what
        }
        9 => {
            let (start, _) = line(rng);
            let (tag, _) = vocab.any_tag(rng);
            let mut element = String::new();
            vocab.element(rng, tag, 2, &mut element);
            element.push('\n');
            text.insert_str(start, &element);
            format!("inserted {}", crate::driver::excerpt(&element))
        }
        10 => {
            let (start, _) = line(rng);
            let depth = [64, 1000, 20_000, 200_000][rng.usize(..4)];
            let tag = [
                "displayList",
                "resources",
                "folder",
                "a",
                "item",
                "component",
            ][rng.usize(..6)];
            let nested = format!(
                "{}{}",
                format!("<{tag}>").repeat(depth),
                format!("</{tag}>").repeat(depth)
            );
            text.insert_str(start, &nested);
            format!("nested <{tag}> {depth} deep")
        }
        11 => {
            // Entity declarations, used where a value is.
            let doctype = "<!DOCTYPE component [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\"><!ENTITY e SYSTEM \"file:///etc/passwd\">]>\n";
            if let Some((_, start, end)) = attrs.get(rng.usize(..attrs.len().max(1))).copied() {
                text.replace_range(start..end, ["&d;", "&e;", "&undefined;"][rng.usize(..3)]);
            }
            let at = text.find("?>").map_or(0, |i| i + 2);
            text.insert_str(at, doctype);
            "entity declarations".to_string()
        }
        12 => {
            let (start, _) = line(rng);
            let junk = [
                "<!-- c -->",
                "<![CDATA[x]]>",
                "<?pi x?>",
                "</component>",
                "<displayList/>",
                "&",
                "<",
                "\u{0}",
            ][rng.usize(..8)];
            text.insert_str(start, junk);
            format!("inserted {junk:?}")
        }
        _ => {
            let i = rng.usize(..lines.len());
            let j = rng.usize(..lines.len());
            let (a, b) = (i.min(j), i.max(j));
            if a == b || b + 1 >= lines.len() {
                return "nothing".to_string();
            }
            let first = text[lines[a]..lines[a + 1]].to_string();
            let second = text[lines[b]..lines[b + 1]].to_string();
            text.replace_range(lines[b]..lines[b + 1], &first);
            text.replace_range(lines[a]..lines[a + 1], &second);
            format!("swapped lines {a} and {b}")
        }
    }
}

/// Byte-level damage: flips, interesting bytes, removed and repeated runs, truncation,
/// invalid UTF-8.
pub fn bytes(rng: &mut fastrand::Rng, data: &mut Vec<u8>) -> String {
    const INTERESTING: &[u8] = b"<>\"'&=/,;-|%#0123456789.e \x00\x7f\xff\xc3\xa9\xed\xa0\x80";
    if data.is_empty() {
        data.push(b'<');
    }
    let at = rng.usize(..data.len());
    match rng.usize(..7) {
        0 => {
            data[at] ^= 1 << rng.u8(..8);
            format!("flipped a bit at {at}")
        }
        1 => {
            data[at] = INTERESTING[rng.usize(..INTERESTING.len())];
            format!("set byte {at}")
        }
        2 => {
            let end = (at + rng.usize(1..64)).min(data.len());
            data.drain(at..end);
            format!("removed bytes {at}..{end}")
        }
        3 => {
            let end = (at + rng.usize(1..256)).min(data.len());
            let run = data[at..end].to_vec();
            data.splice(at..at, run);
            format!("repeated bytes {at}..{end}")
        }
        4 => {
            data.truncate(at);
            format!("truncated at {at}")
        }
        5 => {
            let invalid: &[&[u8]] = &[
                b"\xff",
                b"\xc3",
                b"\xed\xa0\x80",
                b"\xc0\xaf",
                b"\xf4\x90\x80\x80",
            ];
            data.splice(at..at, invalid[rng.usize(..invalid.len())].iter().copied());
            format!("invalid UTF-8 at {at}")
        }
        _ => {
            let bom: &[u8] = [&b"\xef\xbb\xbf"[..], b"\xfe\xff", b"\xef\xbb"][rng.usize(..3)];
            data.splice(0..0, bom.iter().copied());
            "a byte-order mark".to_string()
        }
    }
}

/// Mutates an XML document one to four times; mostly by structure, sometimes by bytes.
pub fn xml(rng: &mut fastrand::Rng, data: &[u8], vocab: &Vocab) -> (Vec<u8>, Vec<String>) {
    let mut what = Vec::new();
    let mut text = String::from_utf8_lossy(data).into_owned();
    for _ in 0..1 + rng.usize(..4) {
        what.push(xml_once(rng, &mut text, vocab));
    }
    let mut out = text.into_bytes();
    if rng.usize(..4) == 0 {
        what.push(bytes(rng, &mut out));
    }
    (out, what)
}

/// A JSON value mutated once somewhere in the tree.
pub fn json_value(rng: &mut fastrand::Rng, value: &mut serde_json::Value, depth: usize) -> String {
    use serde_json::{Value, json};
    let descend = match value {
        Value::Object(map) if !map.is_empty() => rng.usize(..3) != 0,
        Value::Array(items) if !items.is_empty() => rng.usize(..3) != 0,
        _ => false,
    };
    if descend && depth < 12 {
        match value {
            Value::Object(map) => {
                if rng.usize(..6) == 0 {
                    let key = map.keys().nth(rng.usize(..map.len())).cloned().unwrap();
                    map.remove(&key);
                    return format!("removed key {key}");
                }
                let index = rng.usize(..map.len());
                let (key, child) = map.iter_mut().nth(index).unwrap();
                let key = key.clone();
                return format!("{key}: {}", json_value(rng, child, depth + 1));
            }
            Value::Array(items) => {
                let index = rng.usize(..items.len());
                if rng.usize(..6) == 0 {
                    let copy = items[index].clone();
                    items.push(copy);
                    return format!("repeated item {index}");
                }
                return format!(
                    "[{index}]: {}",
                    json_value(rng, &mut items[index], depth + 1)
                );
            }
            _ => unreachable!(),
        }
    }
    let replacement = match rng.usize(..9) {
        0 => Value::Null,
        1 => json!(!value.as_bool().unwrap_or(false)),
        2 => json!(weird(rng)),
        3 => json!(rng.i64(..)),
        4 => json!(f64::MAX),
        5 => json!(-0.0),
        6 => json!([]),
        7 => json!({ "unknown": weird(rng) }),
        _ => json!(u64::MAX),
    };
    let what = format!("{value} → {replacement}");
    *value = replacement;
    what
}

/// Mutates a JSON document: in its tree (most often) or as text (numbers JSON cannot
/// hold, duplicate keys, deep nesting, bytes).
pub fn json(rng: &mut fastrand::Rng, data: &[u8]) -> (Vec<u8>, Vec<String>) {
    let mut what = Vec::new();
    if let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(data)
        && rng.usize(..3) != 0
    {
        for _ in 0..1 + rng.usize(..3) {
            what.push(json_value(rng, &mut value, 0));
        }
        let text = if rng.bool() {
            serde_json::to_string_pretty(&value).unwrap()
        } else {
            value.to_string()
        };
        return (text.into_bytes(), what);
    }
    let mut text = String::from_utf8_lossy(data).into_owned();
    match rng.usize(..5) {
        0 => {
            // A number token becomes one JSON cannot represent.
            let numbers: Vec<usize> = text
                .match_indices(|c: char| c.is_ascii_digit())
                .map(|(i, _)| i)
                .collect();
            if let Some(&at) = numbers.get(rng.usize(..numbers.len().max(1))) {
                let token = [
                    "1e999",
                    "-0",
                    "NaN",
                    "Infinity",
                    "18446744073709551616",
                    "0.1e-400",
                    "01",
                ][rng.usize(..7)];
                text.insert_str(at, token);
                what.push(format!("number {token} at {at}"));
            }
        }
        1 => {
            if let Some(at) = text.find('{') {
                text.insert_str(at + 1, "\"dup\": 1, \"dup\": [], ");
                what.push("duplicate keys".to_string());
            }
        }
        2 => {
            let depth = [100, 129, 10_000, 100_000][rng.usize(..4)];
            let nested = format!("{{\"deep\": {}{}}}", "[".repeat(depth), "]".repeat(depth));
            text = nested;
            what.push(format!("nested {depth} deep"));
        }
        _ => {}
    }
    let mut out = text.into_bytes();
    what.push(bytes(rng, &mut out));
    (out, what)
}
