//! SVG: the safety check (well-formed XML, an `<svg>` root, nothing active or external).

/// Larger SVG sources are refused outright.
const MAX_BYTES: usize = 8 * 1024 * 1024;
const SVG_NAMESPACE: &str = "http://www.w3.org/2000/svg";
const XLINK_NAMESPACE: &str = "http://www.w3.org/1999/xlink";

/// Elements that run, embed, load or animate something (lower-case local names);
/// every name starting with `animate` is refused as well.
const FORBIDDEN_ELEMENTS: [&str; 14] = [
    "a",
    "audio",
    "canvas",
    "discard",
    "embed",
    "feimage",
    "foreignobject",
    "iframe",
    "image",
    "object",
    "script",
    "set",
    "style",
    "video",
];

/// URL schemes and the scheme-relative `//`, refused where they start a token.
const EXTERNAL_MARKERS: [&str; 6] = ["http:", "https:", "file:", "javascript:", "data:", "//"];

/// `#id` with an XML-ish name, as upstream accepts.
fn is_fragment(reference: &str) -> bool {
    let Some(id) = reference.strip_prefix('#') else {
        return false;
    };
    let mut chars = id.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | ':' | '.' | '-'))
}

/// Whether a (lower-case) value holds an external URL marker at a token start.
fn has_external_marker(lower: &str) -> bool {
    EXTERNAL_MARKERS.iter().any(|marker| {
        lower.match_indices(marker).any(|(index, _)| {
            lower[..index].chars().next_back().is_none_or(|c| {
                c.is_whitespace() || matches!(c, '(' | '"' | '\'' | '=' | ',' | ';')
            })
        })
    })
}

/// Whether every `url(…)` in a (lower-case) value names a same-document fragment.
fn urls_are_fragments(lower: &str) -> bool {
    let mut rest = lower;
    while let Some(index) = rest.find("url") {
        let after = rest[index + 3..].trim_start();
        let Some(inner) = after.strip_prefix('(') else {
            rest = &rest[index + 3..];
            continue;
        };
        let Some(close) = inner.find(')') else {
            return false;
        };
        let reference = inner[..close].trim();
        let unquoted = ['"', '\'']
            .iter()
            .find_map(|q| reference.strip_prefix(*q).and_then(|r| r.strip_suffix(*q)))
            .unwrap_or(reference);
        if !is_fragment(unquoted) {
            return false;
        }
        rest = &inner[close + 1..];
    }
    true
}

/// A value cut short for a message.
fn excerpt(value: &str) -> String {
    let mut chars = value.chars();
    let head: String = chars.by_ref().take(60).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

fn check_attribute(element: &str, attribute: &roxmltree::Attribute<'_, '_>) -> Result<(), String> {
    let local = attribute.name();
    let lower_name = local.to_ascii_lowercase();
    let name = match attribute.namespace() {
        Some(XLINK_NAMESPACE) => format!("xlink:{local}"),
        _ => local.to_string(),
    };
    let value = attribute.value();
    if lower_name.starts_with("on") {
        return Err(format!(
            "SVG element <{element}> has an event attribute {name}"
        ));
    }
    if lower_name == "style" || lower_name == "src" {
        return Err(format!(
            "SVG element <{element}> has a forbidden {name} attribute"
        ));
    }
    if lower_name == "href" && !is_fragment(value) {
        return Err(format!(
            "SVG element <{element}> has {name}=\"{}\", which is not a same-document #fragment",
            excerpt(value)
        ));
    }
    let lower = value.to_ascii_lowercase();
    if has_external_marker(&lower) {
        return Err(format!(
            "SVG element <{element}> attribute {name}=\"{}\" refers to an external URL",
            excerpt(value)
        ));
    }
    if !urls_are_fragments(&lower) {
        return Err(format!(
            "SVG element <{element}> attribute {name}=\"{}\" has a url() that is not a same-document #fragment",
            excerpt(value)
        ));
    }
    Ok(())
}

pub fn check(bytes: &[u8]) -> Result<(), String> {
    if bytes.len() > MAX_BYTES {
        return Err(format!(
            "SVG is {} bytes, larger than the 8 MiB limit",
            bytes.len()
        ));
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|e| format!("SVG is not valid UTF-8 (at byte {})", e.valid_up_to()))?;
    // The default options refuse any DTD, so entity declarations never get in.
    let document = roxmltree::Document::parse(text).map_err(|e| match e {
        roxmltree::Error::DtdDetected => {
            "SVG has a DTD (<!DOCTYPE>), which is not allowed".to_string()
        }
        other => format!("SVG is not well-formed XML: {other}"),
    })?;
    let root = document.root_element();
    if root.tag_name().name() != "svg" {
        return Err(format!(
            "SVG root element is <{}>, not <svg>",
            root.tag_name().name()
        ));
    }
    if root.tag_name().namespace() != Some(SVG_NAMESPACE) {
        return Err(format!(
            "SVG root element <svg> is not in the SVG namespace ({SVG_NAMESPACE})"
        ));
    }
    for node in document.descendants() {
        if let Some(pi) = node.pi()
            && pi.target.eq_ignore_ascii_case("xml-stylesheet")
        {
            return Err(
                "SVG has an xml-stylesheet processing instruction, which is not allowed".into(),
            );
        }
        if !node.is_element() {
            continue;
        }
        let element = node.tag_name().name();
        let lower = element.to_ascii_lowercase();
        if lower.starts_with("animate") || FORBIDDEN_ELEMENTS.contains(&lower.as_str()) {
            return Err(format!("SVG has a forbidden <{element}> element"));
        }
        for attribute in node.attributes() {
            check_attribute(element, &attribute)?;
        }
    }
    Ok(())
}

#[cfg(test)]
pub(super) mod tests {
    use crate::formats::test_support::{assert_ok, corrupt};

    pub(crate) fn svg(body: &str) -> Vec<u8> {
        format!(
            r##"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">{body}</svg>"##
        )
        .into_bytes()
    }

    #[test]
    fn svg_valid_files_pass() {
        let body = r##"<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient>
            <path id="a" d="M0 0L10 10"/></defs>
            <rect width="10" height="10" fill="url(#g)" filter="url( '#f' )"/>
            <use xlink:href="#a"/><use href="#a"/>
            <g class="metadata: yes" id="x"><text>http://example.com is only text</text></g>
            <!-- a comment with <script> in it -->"##;
        assert_ok("image", "a.svg", &svg(body));
        let mut bom = "\u{feff}".as_bytes().to_vec();
        bom.extend_from_slice(&svg(""));
        assert_ok("image", "a.SVG", &bom);
        // A prefixed root in the SVG namespace is still an SVG.
        assert_ok(
            "image",
            "a.svg",
            br#"<s:svg xmlns:s="http://www.w3.org/2000/svg"><s:rect/></s:svg>"#,
        );
    }

    #[test]
    fn svg_forbidden_elements_are_corrupt() {
        let names = [
            "a",
            "audio",
            "canvas",
            "discard",
            "embed",
            "feImage",
            "foreignObject",
            "foreignobject",
            "iframe",
            "image",
            "object",
            "script",
            "SCRIPT",
            "set",
            "style",
            "video",
            "animate",
            "animateMotion",
            "animateTransform",
            "animateColor",
        ];
        for name in names {
            let message = corrupt("image", "a.svg", &svg(&format!("<g><{name}/></g>")));
            assert_eq!(message, format!("SVG has a forbidden <{name}> element"));
        }
        // Forbidden whatever the namespace.
        let foreign = svg(r#"<h:script xmlns:h="http://www.w3.org/1999/xhtml">x</h:script>"#);
        assert!(corrupt("image", "a.svg", &foreign).contains("<script>"));
    }

    #[test]
    fn svg_forbidden_attributes_are_corrupt() {
        let cases = [
            (r##"<g onload="x()"/>"##, "event attribute onload"),
            (r##"<g onClick="x()"/>"##, "event attribute onClick"),
            (r##"<rect style="fill:red"/>"##, "forbidden style attribute"),
            (r##"<g src="x.png"/>"##, "forbidden src attribute"),
            (
                r##"<use href="http://x"/>"##,
                "not a same-document #fragment",
            ),
            (
                r##"<use href="other.svg#a"/>"##,
                "not a same-document #fragment",
            ),
            (
                r##"<use xlink:href="data:image/png;base64,AA"/>"##,
                "xlink:href",
            ),
            (r##"<use href="#1a"/>"##, "not a same-document #fragment"),
            (r##"<use href=""/>"##, "not a same-document #fragment"),
            (r##"<g requiredExtensions="http://x"/>"##, "external URL"),
            (r##"<g requiredExtensions="HTTPS://x"/>"##, "external URL"),
            (r##"<g class="a file:///etc/passwd"/>"##, "external URL"),
            (r##"<g class="javascript:alert(1)"/>"##, "external URL"),
            (r##"<g class="x data:text/html,1"/>"##, "external URL"),
            (r##"<g class="//cdn.example/x"/>"##, "external URL"),
            (r##"<rect fill="url(other.svg#g)"/>"##, "url()"),
            (r##"<rect fill="URL ( 'x.png' )"/>"##, "url()"),
            (r##"<rect fill="url(#g"/>"##, "url()"),
            (r##"<rect fill="url(#g) url(x)"/>"##, "url()"),
        ];
        for (body, expected) in cases {
            let message = corrupt("image", "a.svg", &svg(body));
            assert!(
                message.contains(expected),
                "{body}: {message} (expected {expected})"
            );
        }
    }

    #[test]
    fn svg_document_rules() {
        let doctype = br#"<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd"><svg xmlns="http://www.w3.org/2000/svg"/>"#;
        assert!(corrupt("image", "a.svg", doctype).contains("DTD"));
        let entity = br#"<!DOCTYPE svg [<!ENTITY e "boom">]><svg xmlns="http://www.w3.org/2000/svg">&e;</svg>"#;
        assert!(corrupt("image", "a.svg", entity).contains("DTD"));
        assert!(corrupt("image", "a.svg", b"not xml at all").contains("not well-formed XML"));
        assert!(corrupt("image", "a.svg", &svg("<g>")).contains("not well-formed XML"));
        assert!(
            corrupt(
                "image",
                "a.svg",
                b"<svg xmlns=\"http://www.w3.org/2000/svg\">\xff</svg>"
            )
            .contains("UTF-8")
        );
        assert_eq!(
            corrupt(
                "image",
                "a.svg",
                br#"<html xmlns="http://www.w3.org/2000/svg"/>"#
            ),
            "SVG root element is <html>, not <svg>"
        );
        assert!(corrupt("image", "a.svg", b"<svg width=\"1\"/>").contains("SVG namespace"));
        let stylesheet =
            br#"<?xml-stylesheet href="x.css"?><svg xmlns="http://www.w3.org/2000/svg"/>"#;
        assert!(corrupt("image", "a.svg", stylesheet).contains("xml-stylesheet"));

        let mut big = svg("");
        let end = big.len() - "</svg>".len();
        big.splice(
            end..end,
            std::iter::repeat_n(b' ', 8 * 1024 * 1024 - big.len()),
        );
        assert_eq!(big.len(), 8 * 1024 * 1024);
        assert_ok("image", "a.svg", &big);
        big.insert(end, b' ');
        assert!(corrupt("image", "a.svg", &big).contains("8 MiB"));
    }
}
