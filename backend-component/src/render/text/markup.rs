//! Rich text: UBB and HTML parsed into styled runs, after the runtime's `UBBParser` and
//! `HtmlParser`.

use std::rc::Rc;

use tiny_skia::Color;

use crate::render::color;

use super::MAX_FONT_SIZE;

/// Link colour when a link sets none (`HtmlParseOptions.DefaultLinkColor`).
pub(super) const LINK_COLOR: [u8; 3] = [0x3A, 0x67, 0xCC];
/// Markup longer than this is cut before parsing (a label never holds this much).
pub(super) const MAX_MARKUP_BYTES: usize = 1 << 20;
/// Open style tags remembered for restoring; deeper ones change the style but their close
/// tags restore nothing (bounds memory on hostile nesting).
pub(super) const MAX_DEPTH: usize = 1024;
/// Attribute values longer than this are ignored (font names and URLs are short).
pub(super) const MAX_ATTR: usize = 1024;

/// A run's overrides of the node's style.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunStyle {
    pub color: Option<Color>,
    /// Absolute size (FairyGUI's `[size=N]` and `<font size>` are absolute).
    pub size: Option<f32>,
    /// These only switch on: markup cannot turn off the node's own bold etc.
    pub bold: bool,
    pub italic: bool,
    pub underline: bool,
    pub strikethrough: bool,
    /// A font name or `ui://` URL, as written.
    pub font: Option<Rc<str>>,
    /// The link target; links are drawn underlined.
    pub link: Option<Rc<str>>,
    /// Paragraph alignment (`<p align>`, `[align]`): 0 left, 1 center, 2 right.
    pub align: Option<i32>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum RunContent {
    Text(String),
    /// An inline image by URL, with the size the markup gives, if any.
    Image {
        url: Rc<str>,
        width: Option<f32>,
        height: Option<f32>,
    },
}

/// A stretch of text (or one inline image) in one style.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub content: RunContent,
    pub style: RunStyle,
}

impl Run {
    pub fn text(&self) -> Option<&str> {
        match &self.content {
            RunContent::Text(t) => Some(t),
            RunContent::Image { .. } => None,
        }
    }
}

/// The runtime's `ToolSet.ConvertFromHtmlColor`: `#AARRGGBB` when 9 long, else the first
/// six digits, and black for anything shorter or without `#`.
pub(super) fn html_color(text: &str) -> Color {
    let t = text.trim();
    color::parse(t)
        .or_else(|| t.get(..7).and_then(color::parse))
        .unwrap_or(Color::BLACK)
}

/// `int.TryParse`: whole numbers only (`"+5"` is 5, `"20.5"` is not a number).
pub(super) fn html_int(text: &str) -> Option<i32> {
    text.trim().parse().ok()
}

/// HTML attributes of a tag body (after its name): `name="v"`, `name='v'`, `name=v`, `name`.
pub(super) fn attributes(body: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = body;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '/');
        if rest.is_empty() {
            break;
        }
        let name_end = rest
            .find(|c: char| c.is_whitespace() || c == '=' || c == '/')
            .unwrap_or(rest.len());
        let name = rest[..name_end].to_ascii_lowercase();
        rest = rest[name_end..].trim_start();
        let mut value = String::new();
        if let Some(after) = rest.strip_prefix('=') {
            let after = after.trim_start();
            let (v, tail) = match after.chars().next() {
                Some(q @ ('"' | '\'')) => {
                    let inner = &after[1..];
                    match inner.find(q) {
                        Some(e) => (&inner[..e], &inner[e + 1..]),
                        None => (inner, ""),
                    }
                }
                _ => {
                    let e = after.find(char::is_whitespace).unwrap_or(after.len());
                    (&after[..e], &after[e..])
                }
            };
            value = decode_entities(v);
            rest = tail;
        }
        if name.is_empty() {
            // A stray `=`: skip a char so the loop moves on.
            let mut chars = rest.chars();
            chars.next();
            rest = chars.as_str();
            continue;
        }
        out.push((name, value));
    }
    out
}

pub(super) fn attr<'v>(attrs: &'v [(String, String)], name: &str) -> Option<&'v str> {
    attrs
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
        .filter(|v| v.len() <= MAX_ATTR)
}

pub(super) fn decode_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find('&') {
        out.push_str(&rest[..pos]);
        let (c, len) = entity_at(&rest[pos..]);
        out.push(c);
        rest = &rest[pos + len..];
    }
    out.push_str(rest);
    out
}

/// The char an `&…;` at the start of `tail` stands for and its length; a lone `&` (length 1)
/// when it is none (`XMLUtils.DecodeString` looks at most 10 chars ahead for the `;`).
pub(super) fn entity_at(tail: &str) -> (char, usize) {
    let end = tail.bytes().take(11).position(|b| b == b';');
    match end.and_then(|e| Some((e, decode_entity(tail.get(1..e)?)?))) {
        Some((e, c)) => (c, e + 1),
        None => ('&', 1),
    }
}

/// `UBBParser.GetTagText`: the text up to the next `[` (with `\[` as `[`), or `None` when
/// no `[` follows; also where that `[` is.
pub(super) fn ubb_tag_text(rest: &str) -> Option<(String, usize)> {
    let mut out = String::new();
    let mut from = 0;
    loop {
        let pos = from + rest[from..].find('[')?;
        if pos > 0 && rest.as_bytes()[pos - 1] == b'\\' {
            out.push_str(&rest[from..pos - 1]);
            out.push('[');
            from = pos + 1;
        } else {
            out.push_str(&rest[from..pos]);
            return Some((out, pos));
        }
    }
}

/// The kind of an HTML tag, as `XMLIterator` tells them.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Tag {
    Start,
    End,
    Void,
}

pub(super) struct Parser {
    pub(super) runs: Vec<Run>,
    pub(super) style: RunStyle,
    /// Whether a `<font color>` set the colour (a link then keeps it).
    pub(super) color_changed: bool,
    pub(super) stack: Vec<(RunStyle, bool)>,
    /// Pushes past `MAX_DEPTH` not yet popped.
    pub(super) overflow: usize,
    /// Text not yet added (added at the next tag, as the runtime reads text between tags).
    pub(super) pending: String,
    /// Inside `<head>`, `<style>`, `<script>`, `<form>`; like the runtime, a stray close
    /// makes it negative and hides the rest.
    pub(super) skip_text: i32,
    pub(super) skip_next_cr: bool,
    /// After `<html>`/`<body>`: text between tags is trimmed.
    pub(super) ignore_white_space: bool,
}

impl Parser {
    pub(super) fn new() -> Parser {
        Parser {
            runs: Vec::new(),
            style: RunStyle::default(),
            color_changed: false,
            stack: Vec::new(),
            overflow: 0,
            pending: String::new(),
            skip_text: 0,
            skip_next_cr: false,
            ignore_white_space: false,
        }
    }

    /// Adds the pending text; called at every tag.
    pub(super) fn flush(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        if self.skip_text == 0 {
            let mut text = if self.ignore_white_space {
                pending.trim()
            } else {
                pending.as_str()
            };
            if self.skip_next_cr {
                text = text.strip_prefix('\n').unwrap_or(text);
            }
            self.append(text);
        }
        self.skip_next_cr = false;
    }

    /// `AppendText`: into the last run when it has the same style.
    pub(super) fn append(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        if let Some(Run {
            content: RunContent::Text(last),
            style,
        }) = self.runs.last_mut()
            && *style == self.style
        {
            last.push_str(text);
            return;
        }
        self.runs.push(Run {
            content: RunContent::Text(text.to_owned()),
            style: self.style.clone(),
        });
    }

    pub(super) fn image(&mut self, url: &str, width: Option<f32>, height: Option<f32>) {
        if url.is_empty() || url.len() > MAX_ATTR {
            return;
        }
        self.runs.push(Run {
            content: RunContent::Image {
                url: url.into(),
                width,
                height,
            },
            style: self.style.clone(),
        });
    }

    /// `IsNewLine`: nothing yet, or the last text ends a line.
    pub(super) fn at_new_line(&self) -> bool {
        match self.runs.last() {
            None => true,
            Some(r) => r.text().is_some_and(|t| t.ends_with('\n')),
        }
    }

    pub(super) fn push(&mut self) {
        if self.stack.len() < MAX_DEPTH {
            self.stack.push((self.style.clone(), self.color_changed));
        } else {
            self.overflow += 1;
        }
    }

    pub(super) fn pop(&mut self) {
        if self.overflow > 0 {
            self.overflow -= 1;
        } else if let Some((style, changed)) = self.stack.pop() {
            self.style = style;
            self.color_changed = changed;
        }
    }

    /// One HTML tag (UBB tags arrive here translated, as the runtime turns UBB into HTML).
    pub(super) fn tag(&mut self, name: &str, kind: Tag, attrs: &[(String, String)]) {
        self.flush();
        let start = kind == Tag::Start;
        match name {
            "b" | "i" | "u" | "strike" | "sub" | "sup" => {
                if start {
                    self.push();
                    match name {
                        "b" => self.style.bold = true,
                        "i" => self.style.italic = true,
                        "u" => self.style.underline = true,
                        "strike" => self.style.strikethrough = true,
                        // Sub/superscript are drawn at the line's size and baseline.
                        _ => {}
                    }
                } else {
                    self.pop();
                }
            }
            "font" => match kind {
                Tag::Start => {
                    self.push();
                    if let Some(size) = attr(attrs, "size").and_then(html_int) {
                        self.style.size = Some((size as f32).clamp(0.0, MAX_FONT_SIZE));
                    }
                    if let Some(c) = attr(attrs, "color") {
                        // A gradient (`a,b,…`) is drawn in its first colour.
                        let first = c.split(',').next().unwrap_or(c);
                        self.style.color = Some(html_color(first));
                        self.color_changed = true;
                    }
                    if let Some(face) = attr(attrs, "face").filter(|f| !f.is_empty()) {
                        self.style.font = Some(face.into());
                    }
                }
                Tag::End => self.pop(),
                Tag::Void => {}
            },
            "br" => self.append("\n"),
            "img" if kind != Tag::End => {
                let size = |n: &str| {
                    attr(attrs, n)
                        .and_then(html_int)
                        .map(|v| v as f32)
                        .filter(|v| *v > 0.0)
                };
                let src = attr(attrs, "src").unwrap_or("").to_owned();
                self.image(&src, size("width"), size("height"));
            }
            "a" => match kind {
                Tag::Start => {
                    self.push();
                    self.style.underline = true;
                    if !self.color_changed {
                        let [r, g, b] = LINK_COLOR;
                        self.style.color = Some(Color::from_rgba8(r, g, b, 255));
                    }
                    self.style.link = Some(attr(attrs, "href").unwrap_or("").into());
                }
                Tag::End => self.pop(),
                Tag::Void => {}
            },
            "p" => match kind {
                Tag::Start => {
                    self.push();
                    match attr(attrs, "align") {
                        Some("center") => self.style.align = Some(1),
                        Some("right") => self.style.align = Some(2),
                        _ => {}
                    }
                    if !self.at_new_line() {
                        self.append("\n");
                    }
                }
                Tag::End => {
                    self.append("\n");
                    self.skip_next_cr = true;
                    self.pop();
                }
                Tag::Void => {}
            },
            "ui" | "div" | "li" => {
                if start {
                    if !self.at_new_line() {
                        self.append("\n");
                    }
                } else {
                    self.append("\n");
                    self.skip_next_cr = true;
                }
            }
            "html" | "body" => self.ignore_white_space = true,
            "head" | "style" | "script" | "form" => match kind {
                Tag::Start => self.skip_text = self.skip_text.saturating_add(1),
                Tag::End => self.skip_text = self.skip_text.saturating_sub(1),
                Tag::Void => {}
            },
            // Other tags vanish, as in the runtime.
            _ => {}
        }
    }
}

/// Rich text as styled runs, after FairyGUI's `UBBParser` (`ubb`: `[b]`, `[i]`, `[u]`,
/// `[strike]`, `[color=]`, `[size=]`, `[font=]`, `[url]`, `[img]`, `[align=]`; unknown
/// bracketed text stays) and `HtmlParser` (`html`: `<b>`, `<i>`, `<u>`, `<strike>`,
/// `<font color size face>`, `<a href>`, `<br>`, `<p align>`, `<img src width height>`,
/// entities; unknown tags vanish). Without `html`, `<` and `&` are plain text, as the
/// runtime encodes a UBB text field's text before parsing. A close tag restores the style
/// before the last open one, whatever its name, as the runtime's format stack does.
pub fn parse_markup(text: &str, ubb: bool, html: bool) -> Vec<Run> {
    let mut text = text;
    if text.len() > MAX_MARKUP_BYTES {
        let mut end = MAX_MARKUP_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text = &text[..end];
    }
    let mut p = Parser::new();
    // Cleared when the runtime stops looking for tags: UBB at a `[` with no `]`, HTML at a
    // tag that never closes.
    let mut ubb = ubb;
    let mut html = html;
    let mut rest = text;
    loop {
        let next = rest.find(|c: char| {
            (ubb && c == '[') || (html && (c == '<' || c == '&')) || (ubb && c == '\\')
        });
        let Some(pos) = next else {
            p.pending.push_str(rest);
            break;
        };
        p.pending.push_str(&rest[..pos]);
        let tail = &rest[pos..];
        let b = tail.as_bytes();
        if b[0] == b'\\' {
            // `\[` is a literal bracket.
            if b.get(1) == Some(&b'[') {
                p.pending.push('[');
                rest = &tail[2..];
            } else {
                p.pending.push('\\');
                rest = &tail[1..];
            }
            continue;
        }
        if b[0] == b'&' {
            let (c, len) = entity_at(tail);
            p.pending.push(c);
            rest = &tail[len..];
            continue;
        }
        if b[0] == b'[' {
            let Some(close) = tail.find(']') else {
                ubb = false;
                p.pending.push('[');
                rest = &tail[1..];
                continue;
            };
            if close == 1 {
                p.pending.push_str("[]");
                rest = &tail[2..];
                continue;
            }
            let inner = &tail[1..close];
            let end = inner.starts_with('/');
            let body = if end { &inner[1..] } else { inner };
            let (name, value) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (body, None),
            };
            let name = name.to_ascii_lowercase();
            let after = &tail[close + 1..];
            rest = after;
            let kind = if end { Tag::End } else { Tag::Start };
            let one = |n: &str, v: &str| vec![(n.to_owned(), v.to_owned())];
            match name.as_str() {
                "b" | "i" | "u" | "sup" | "sub" | "strike" => p.tag(&name, kind, &[]),
                "color" => p.tag("font", kind, &one("color", value.unwrap_or(""))),
                "font" => p.tag("font", kind, &one("face", value.unwrap_or(""))),
                "size" => p.tag("font", kind, &one("size", value.unwrap_or(""))),
                "align" => p.tag("p", kind, &one("align", value.unwrap_or(""))),
                "url" => {
                    let href = match (end, value) {
                        (true, _) => String::new(),
                        (false, Some(v)) => v.to_owned(),
                        (false, None) => ubb_tag_text(after).map(|(t, _)| t).unwrap_or_default(),
                    };
                    p.tag("a", kind, &one("href", &href));
                }
                "img" => {
                    // The address up to the next `[` is taken from the text.
                    if !end && let Some((src, at)) = ubb_tag_text(after) {
                        rest = &after[at..];
                        if !src.is_empty() {
                            p.tag("img", Tag::Void, &one("src", &src));
                        }
                    }
                }
                _ => {
                    p.pending.push_str(&tail[..=close]);
                }
            }
            continue;
        }
        // `<`: a tag, a comment or CDATA (both dropped), or a plain `<`.
        if let Some(after) = tail.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |e| &after[e + 3..]);
            p.flush();
            continue;
        }
        if let Some(after) = tail.strip_prefix("<![CDATA[") {
            rest = after.find("]]>").map_or("", |e| &after[e + 3..]);
            p.flush();
            continue;
        }
        let looks_like_tag = b
            .get(1)
            .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, b'/' | b'!' | b'?'));
        if !looks_like_tag {
            p.pending.push('<');
            rest = &tail[1..];
            continue;
        }
        // The closing `>` outside quotes; another `<` first means this is not a tag.
        let mut quote: Option<u8> = None;
        let mut gt = None;
        let mut another = false;
        for (i, &c) in b.iter().enumerate().skip(1) {
            match (quote, c) {
                (None, b'"' | b'\'') => quote = Some(c),
                (Some(q), _) if c == q => quote = None,
                (None, b'>') => {
                    gt = Some(i);
                    break;
                }
                (_, b'<') => {
                    another = true;
                    break;
                }
                _ => {}
            }
        }
        let Some(gt) = gt else {
            // Never closed: the runtime reads no more tags.
            html &= another;
            p.pending.push('<');
            rest = &tail[1..];
            continue;
        };
        let inside = &tail[1..gt];
        rest = &tail[gt + 1..];
        let (kind, inside) = match inside.strip_prefix('/') {
            Some(i) => (Tag::End, i),
            None if inside.ends_with('/') => (Tag::Void, inside),
            None => (Tag::Start, inside),
        };
        let name_end = inside
            .find(|c: char| c.is_whitespace() || c == '/' || c == '>')
            .unwrap_or(inside.len());
        let name = inside[..name_end].to_ascii_lowercase();
        if name.starts_with(['!', '?']) {
            p.flush();
            continue;
        }
        let attrs = if kind == Tag::End {
            Vec::new()
        } else {
            attributes(&inside[name_end..])
        };
        p.tag(&name, kind, &attrs);
    }
    p.flush();
    p.runs
}

pub(super) fn decode_entity(name: &str) -> Option<char> {
    Some(match name {
        "lt" => '<',
        "gt" => '>',
        "amp" => '&',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => ' ',
        _ => {
            let num = name.strip_prefix('#')?;
            let code = match num.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => num.parse().ok()?,
            };
            char::from_u32(code)?
        }
    })
}
