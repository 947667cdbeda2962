//! SVG: the safety check (well-formed XML, an `<svg>` root, nothing active or external).
//!
//! Two verdicts, because a safety policy is not a format error: a file that is not an SVG
//! at all is [`SvgProblem::Malformed`]; a well-formed SVG holding something this server does
//! not read or follow (a DTD, scripts, animation, external references) is
//! [`SvgProblem::Refused`]. Valid drawing content passes: `style` attributes and `<style>`
//! sheets (checked for external references like any value), comments, CDATA, prefixed
//! namespaces, `xlink:href` fragments, and metadata in other namespaces (Inkscape's RDF
//! `rdf:resource="http://…"` is data no renderer follows).

/// Larger SVG sources are refused outright.
const MAX_BYTES: usize = 8 * 1024 * 1024;
const SVG_NAMESPACE: &str = "http://www.w3.org/2000/svg";
const XLINK_NAMESPACE: &str = "http://www.w3.org/1999/xlink";

/// Why an SVG file is not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SvgProblem {
    /// Not an SVG file: not UTF-8, not well-formed XML, or no `<svg>` root.
    Malformed(String),
    /// A well-formed SVG with content refused for safety; the file may be valid.
    Refused(String),
}

/// Elements that run, embed, load or animate something (lower-case local names);
/// every name starting with `animate` is refused as well.
const FORBIDDEN_ELEMENTS: [&str; 13] = [
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

/// Refuses a value (an attribute or a style sheet) that reaches outside the document.
fn check_value(what: &str, value: &str) -> Result<(), String> {
    let lower = value.to_ascii_lowercase();
    if has_external_marker(&lower) {
        return Err(format!(
            "{what}\"{}\" refers to an external URL",
            excerpt(value)
        ));
    }
    if !urls_are_fragments(&lower) {
        return Err(format!(
            "{what}\"{}\" has a url() that is not a same-document #fragment",
            excerpt(value)
        ));
    }
    if lower.contains("@import") {
        return Err(format!(
            "{what}\"{}\" imports a style sheet",
            excerpt(value)
        ));
    }
    Ok(())
}

fn check_attribute(element: &str, attribute: &roxmltree::Attribute<'_, '_>) -> Result<(), String> {
    let local = attribute.name();
    let name = match attribute.namespace() {
        None | Some(SVG_NAMESPACE) => local.to_string(),
        Some(XLINK_NAMESPACE) => format!("xlink:{local}"),
        // Editor metadata (`inkscape:`, `sodipodi:`, `rdf:`, `xml:space`): no renderer
        // acts on it, so a URL there is data, not a reference.
        Some(_) => return Ok(()),
    };
    let lower_name = local.to_ascii_lowercase();
    let value = attribute.value();
    if lower_name.starts_with("on") {
        return Err(format!(
            "SVG element <{element}> has an event attribute {name}"
        ));
    }
    if lower_name == "src" {
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
    check_value(&format!("SVG element <{element}> attribute {name}="), value)
}

/// The text of a `<style>` sheet (plain or CDATA).
fn sheet_text(node: roxmltree::Node<'_, '_>) -> String {
    node.descendants()
        .filter(roxmltree::Node::is_text)
        .filter_map(|text| text.text())
        .collect()
}

pub fn check(bytes: &[u8]) -> Result<(), SvgProblem> {
    use SvgProblem::{Malformed, Refused};
    if bytes.len() > MAX_BYTES {
        return Err(Refused(format!(
            "SVG is {} bytes, larger than the 8 MiB this server reads",
            bytes.len()
        )));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        Malformed(format!(
            "SVG is not valid UTF-8 (at byte {})",
            e.valid_up_to()
        ))
    })?;
    // The default options refuse any DTD, so entity declarations never get in. A DTD is
    // common in valid files (`<!DOCTYPE svg PUBLIC …>`), so it is a refusal, not an error.
    let document = roxmltree::Document::parse(text).map_err(|e| match e {
        roxmltree::Error::DtdDetected => Refused(
            "SVG has a DTD (<!DOCTYPE …>), which this server does not read, for safety".to_string(),
        ),
        other => Malformed(format!("SVG is not well-formed XML: {other}")),
    })?;
    let root = document.root_element();
    if root.tag_name().name() != "svg" {
        return Err(Malformed(format!(
            "SVG root element is <{}>, not <svg>",
            root.tag_name().name()
        )));
    }
    if root.tag_name().namespace() != Some(SVG_NAMESPACE) {
        return Err(Malformed(format!(
            "SVG root element <svg> is not in the SVG namespace ({SVG_NAMESPACE})"
        )));
    }
    for node in document.descendants() {
        if let Some(pi) = node.pi()
            && pi.target.eq_ignore_ascii_case("xml-stylesheet")
        {
            return Err(Refused(
                "SVG has an xml-stylesheet processing instruction, which this server does not follow".into(),
            ));
        }
        if !node.is_element() {
            continue;
        }
        let element = node.tag_name().name();
        let lower = element.to_ascii_lowercase();
        if lower.starts_with("animate") || FORBIDDEN_ELEMENTS.contains(&lower.as_str()) {
            return Err(Refused(format!(
                "SVG has a <{element}> element, which this server does not allow"
            )));
        }
        if lower == "style" {
            check_value(&format!("SVG <{element}> sheet "), &sheet_text(node)).map_err(Refused)?;
        }
        for attribute in node.attributes() {
            check_attribute(element, &attribute).map_err(Refused)?;
        }
    }
    Ok(())
}

#[cfg(test)]
pub(super) mod tests {
    use crate::formats::test_support::{assert_ok, corrupt, refused};

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

    /// Shapes real editors write: Inkscape (metadata in other namespaces, `style`
    /// attributes), Illustrator (a CDATA style sheet), hand-written files (comments, xlink).
    #[test]
    fn real_world_svg_shapes_pass() {
        let inkscape = br##"<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!-- Created with Inkscape (http://www.inkscape.org/) -->
<svg xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:cc="http://creativecommons.org/ns#"
   xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:svg="http://www.w3.org/2000/svg"
   xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
   xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
   xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
   width="64" height="64" viewBox="0 0 64 64" version="1.1" id="svg8"
   inkscape:version="0.92.4 (5da689c313, 2019-01-14)" sodipodi:docname="icon.svg">
  <defs id="defs2"><linearGradient inkscape:collect="always" id="lg1">
    <stop style="stop-color:#ff0000;stop-opacity:1" offset="0" id="s1"/></linearGradient>
    <linearGradient xlink:href="#lg1" id="lg2" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="64" y2="64"/></defs>
  <sodipodi:namedview id="base" pagecolor="#ffffff" inkscape:zoom="4" showgrid="false"/>
  <metadata id="metadata5"><rdf:RDF><cc:Work rdf:about="">
    <dc:format>image/svg+xml</dc:format>
    <dc:type rdf:resource="http://purl.org/dc/dcmitype/StillImage"/>
    <cc:license rdf:resource="http://creativecommons.org/licenses/by/4.0/"/>
    <dc:title></dc:title></cc:Work></rdf:RDF></metadata>
  <g inkscape:label="Layer 1" inkscape:groupmode="layer" id="layer1">
    <rect style="opacity:1;fill:url(#lg2);fill-opacity:1;stroke:none" id="r1" width="60" height="60" x="2" y="2" ry="8"/>
    <text xml:space="preserve" style="font-family:'DejaVu Sans', sans-serif;font-size:10px">A</text>
  </g>
</svg>"##;
        assert_ok("image", "inkscape.svg", inkscape);

        let illustrator = br##"<?xml version="1.0" encoding="utf-8"?>
<!-- Generator: Adobe Illustrator 24.0.0, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->
<svg version="1.1" id="Layer_1" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" x="0px" y="0px"
	 viewBox="0 0 100 100" style="enable-background:new 0 0 100 100;" xml:space="preserve">
<style type="text/css">
	<![CDATA[
	.st0{fill:#FFFFFF;}
	.st1{fill:url(#SVGID_1_);stroke:#000000;stroke-miterlimit:10;}
	]]>
</style>
<linearGradient id="SVGID_1_" gradientUnits="userSpaceOnUse" x1="0" y1="50" x2="100" y2="50">
	<stop  offset="0" style="stop-color:#FFFFFF"/>
	<stop  offset="1" style="stop-color:#000000"/>
</linearGradient>
<rect class="st1" width="100" height="100"/>
<circle class="st0" cx="50" cy="50" r="40"/>
</svg>"##;
        assert_ok("image", "illustrator.svg", illustrator);

        let plain = br##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><style>path { fill: currentColor }</style><!-- icon --><path d="M12 2L2 22h20z"/></svg>"##;
        assert_ok("image", "icon.svg", plain);
    }

    #[test]
    fn svg_active_elements_are_refused_not_corrupt() {
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
            "video",
            "animate",
            "animateMotion",
            "animateTransform",
            "animateColor",
        ];
        for name in names {
            let message = refused("image", "a.svg", &svg(&format!("<g><{name}/></g>")));
            assert_eq!(
                message,
                format!("SVG has a <{name}> element, which this server does not allow")
            );
        }
        // Refused whatever the namespace.
        let foreign = svg(r#"<h:script xmlns:h="http://www.w3.org/1999/xhtml">x</h:script>"#);
        assert!(refused("image", "a.svg", &foreign).contains("<script>"));
    }

    #[test]
    fn svg_active_or_external_attributes_are_refused_not_corrupt() {
        let cases = [
            (r##"<g onload="x()"/>"##, "event attribute onload"),
            (r##"<g onClick="x()"/>"##, "event attribute onClick"),
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
            (
                r##"<rect style="fill:url(http://x/p.png)"/>"##,
                "external URL",
            ),
            (
                r##"<rect style="fill:red; behavior: url(x.htc)"/>"##,
                "url()",
            ),
            (
                r##"<style>@import "https://fonts.example/x.css";</style>"##,
                "external URL",
            ),
            (
                r##"<style>@import 'x.css';</style>"##,
                "imports a style sheet",
            ),
            (
                r##"<style><![CDATA[ @font-face { src: url(font.woff) } ]]></style>"##,
                "<style> sheet",
            ),
        ];
        for (body, expected) in cases {
            let message = refused("image", "a.svg", &svg(body));
            assert!(
                message.contains(expected),
                "{body}: {message} (expected {expected})"
            );
        }
        // Plain styling is drawing content.
        assert_ok("image", "a.svg", &svg(r##"<rect style="fill:red"/>"##));
        assert_ok(
            "image",
            "a.svg",
            &svg(r##"<style>rect { fill: url(#g) }</style><rect/>"##),
        );
    }

    #[test]
    fn svg_document_rules() {
        // A standard DOCTYPE is common in valid files: refused (not read), never corrupt.
        let doctype = br#"<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg xmlns="http://www.w3.org/2000/svg"/>"#;
        assert!(refused("image", "a.svg", doctype).contains("DTD"));
        let entity = br#"<!DOCTYPE svg [<!ENTITY e "boom">]><svg xmlns="http://www.w3.org/2000/svg">&e;</svg>"#;
        assert!(refused("image", "a.svg", entity).contains("DTD"));
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
        assert!(refused("image", "a.svg", stylesheet).contains("xml-stylesheet"));

        let mut big = svg("");
        let end = big.len() - "</svg>".len();
        big.splice(
            end..end,
            std::iter::repeat_n(b' ', 8 * 1024 * 1024 - big.len()),
        );
        assert_eq!(big.len(), 8 * 1024 * 1024);
        assert_ok("image", "a.svg", &big);
        big.insert(end, b' ');
        assert!(refused("image", "a.svg", &big).contains("8 MiB"));
    }
}
