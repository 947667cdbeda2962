//! Escaping for the XML the FairyGUI editor writes, shared by the component's writer and
//! the strings files: one rule for attribute values, one for text content.

/// An attribute value as the FairyGUI editor writes it: markup characters, both quotes
/// and line breaks as entities.
pub fn escape_attribute(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#xA;"),
            '\r' => out.push_str("&#xD;"),
            '\t' => out.push_str("&#x9;"),
            c => out.push(c),
        }
    }
    out
}

/// Text content: `&`, `<` and `>` escaped, line feeds kept, a carriage return as a
/// reference (XML reads a bare one as a line feed).
pub fn escape_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('\r', "&#xD;")
}
