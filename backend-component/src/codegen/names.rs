//! Names as code may spell them: identifiers made from FairyGUI names, kept apart from
//! each other and from the words each language reserves, and string literals.

use std::collections::HashSet;

/// An identifier for `raw`: every character that cannot be in one becomes `_`, and one
/// that would start with a digit (or be empty) starts with `_`. Letters of any script stay
/// (C# and TypeScript both take them), so names written in Chinese keep their meaning.
pub(crate) fn identifier(raw: &str) -> String {
    let mut out: String = raw
        .chars()
        .map(|c| {
            if c == '_' || c.is_ascii_alphanumeric() || (!c.is_ascii() && c.is_alphabetic()) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// C# keywords (the reserved ones; contextual keywords are identifiers where fields and
/// classes stand).
const CSHARP_KEYWORDS: &[&str] = &[
    "abstract",
    "as",
    "base",
    "bool",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "checked",
    "class",
    "const",
    "continue",
    "decimal",
    "default",
    "delegate",
    "do",
    "double",
    "else",
    "enum",
    "event",
    "explicit",
    "extern",
    "false",
    "finally",
    "fixed",
    "float",
    "for",
    "foreach",
    "goto",
    "if",
    "implicit",
    "in",
    "int",
    "interface",
    "internal",
    "is",
    "lock",
    "long",
    "namespace",
    "new",
    "null",
    "object",
    "operator",
    "out",
    "override",
    "params",
    "private",
    "protected",
    "public",
    "readonly",
    "ref",
    "return",
    "sbyte",
    "sealed",
    "short",
    "sizeof",
    "stackalloc",
    "static",
    "string",
    "struct",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "uint",
    "ulong",
    "unchecked",
    "unsafe",
    "ushort",
    "using",
    "virtual",
    "void",
    "volatile",
    "while",
];

/// Words a TypeScript class may not be named (reserved words, strict-mode words and the
/// predefined type names). Class members may use them, so only class names are checked.
const TYPESCRIPT_RESERVED: &[&str] = &[
    "any",
    "as",
    "async",
    "await",
    "boolean",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "declare",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "implements",
    "import",
    "in",
    "instanceof",
    "interface",
    "let",
    "never",
    "new",
    "null",
    "number",
    "object",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "static",
    "string",
    "super",
    "switch",
    "symbol",
    "this",
    "throw",
    "true",
    "try",
    "type",
    "typeof",
    "undefined",
    "unknown",
    "var",
    "void",
    "while",
    "with",
    "yield",
];

pub(crate) fn is_csharp_keyword(name: &str) -> bool {
    CSHARP_KEYWORDS.contains(&name)
}

pub(crate) fn is_typescript_reserved(name: &str) -> bool {
    TYPESCRIPT_RESERVED.contains(&name)
}

/// Names already given in one scope. `case_insensitive` for names that become file names,
/// which must stay apart on file systems that ignore case.
pub(crate) struct Taken {
    names: HashSet<String>,
    case_insensitive: bool,
}

impl Taken {
    pub fn new(case_insensitive: bool) -> Self {
        Taken {
            names: HashSet::new(),
            case_insensitive,
        }
    }

    fn key(&self, name: &str) -> String {
        if self.case_insensitive {
            name.to_lowercase()
        } else {
            name.to_owned()
        }
    }

    /// Marks a name given without claiming it through [`Self::claim`].
    pub fn reserve(&mut self, name: &str) {
        let key = self.key(name);
        self.names.insert(key);
    }

    /// `wanted`, or when it is taken or `refused`, `wanted_2`, `wanted_3`, … (the first
    /// free one); the result is taken from then on.
    pub fn claim(&mut self, wanted: &str, refused: impl Fn(&str) -> bool) -> String {
        let mut candidate = wanted.to_owned();
        let mut n = 2;
        while refused(&candidate) || self.names.contains(&self.key(&candidate)) {
            candidate = format!("{wanted}_{n}");
            n += 1;
        }
        self.reserve(&candidate);
        candidate
    }
}

/// A string literal C# and TypeScript both read as `text`.
pub(crate) fn string_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_keep_letters_and_replace_the_rest() {
        assert_eq!(identifier("Button"), "Button");
        assert_eq!(identifier("btn-close 2"), "btn_close_2");
        assert_eq!(identifier("1"), "_1");
        assert_eq!(identifier(""), "_");
        assert_eq!(identifier("登录"), "登录");
        assert_eq!(identifier("a.b"), "a_b");
    }

    #[test]
    fn claims_number_later_copies() {
        let mut taken = Taken::new(true);
        assert_eq!(taken.claim("list", |_| false), "list");
        assert_eq!(taken.claim("List", |_| false), "List_2");
        assert_eq!(taken.claim("class", is_csharp_keyword), "class_2");
        taken.reserve("URL");
        assert_eq!(taken.claim("URL", |_| false), "URL_2");
    }

    #[test]
    fn literals_escape_quotes_backslashes_and_controls() {
        assert_eq!(
            string_literal("a\"b\\c\n\u{1}"),
            "\"a\\\"b\\\\c\\n\\u0001\""
        );
    }
}
