//! Attribute parsing helpers: FairyGUI booleans, numbers, comma tuples, colours, enums by name.

use ofgui_contracts::Num;
use ofgui_contracts::uam::{EdgeInsets, Point, Size};
use roxmltree::Node;
use serde_json::Value;

use super::diag::Scope;
use crate::rules::{DEFAULT_EASE, EASES, is_color};

/// `true`/`false`/`1`/`0`, any ASCII case, surrounding whitespace ignored.
pub(crate) fn parse_bool(raw: &str) -> Option<bool> {
    let t = raw.trim();
    if t == "1" || t.eq_ignore_ascii_case("true") {
        Some(true)
    } else if t == "0" || t.eq_ignore_ascii_case("false") {
        Some(false)
    } else {
        None
    }
}

/// A finite decimal. Rust also accepts `inf`/`NaN`, which the XML never means.
pub(crate) fn parse_num(raw: &str) -> Option<f64> {
    let t = raw.trim();
    if t.is_empty() {
        return None;
    }
    t.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// An integer written with more digits than a double holds exactly (beyond 2^53): it
/// reads as the nearest double, which is not what the file says.
pub(crate) fn inexact_integer(raw: &str) -> bool {
    let t = raw.trim();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    let integer = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    // 2^53 has 16 digits: anything shorter is exact; longer, only up to 2^53.
    integer && digits.len() >= 16 && !digits.parse::<u64>().is_ok_and(|n| n <= 1 << 53)
}

/// An integer that fits in i32; a fractional value is truncated the way the editor's
/// `parseInt` does.
pub(crate) fn parse_int(raw: &str) -> Option<i32> {
    let t = raw.trim();
    if let Ok(v) = t.parse::<i32>() {
        return Some(v);
    }
    let v = parse_num(t)?.trunc();
    (v >= i32::MIN as f64 && v <= i32::MAX as f64).then_some(v as i32)
}

/// Exactly `n` comma-separated finite numbers.
pub(crate) fn parse_tuple(raw: &str, n: usize) -> Option<Vec<f64>> {
    let parts: Vec<&str> = raw.split(',').collect();
    if parts.len() != n {
        return None;
    }
    parts.into_iter().map(parse_num).collect()
}

/// Looks a name up in a `(name, value)` table, ignoring ASCII case.
pub(crate) fn lookup(table: &[(&str, i32)], raw: &str) -> Option<i32> {
    let t = raw.trim();
    table
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(t))
        .map(|(_, v)| *v)
}

/// An ease name to its easeType (0 Linear … 31 Custom).
pub(crate) fn ease_type(raw: &str) -> Option<i32> {
    let normalized: String = raw
        .chars()
        .filter(|c| !matches!(c, '.' | ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect();
    EASES
        .iter()
        .position(|name| *name == normalized)
        .map(|i| i as i32)
}

/// Canonical folder form `/a/b/` (the root is `/`); `None` when a segment is `..`, so
/// no path read from XML can lead outside its package directory.
pub(crate) fn canonical_dir(raw: &str) -> Option<String> {
    let mut out = String::from("/");
    for segment in raw.split(['/', '\\']) {
        match segment {
            "" | "." => {}
            ".." => return None,
            s => {
                out.push_str(s);
                out.push('/');
            }
        }
    }
    Some(out)
}

/// True for a plain file name that stays inside its folder.
pub(crate) fn is_safe_file_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', '\0'])
}

/// A JSON number that prints like JavaScript (integral values without `.0`).
pub(crate) fn json_num(v: f64) -> Value {
    serde_json::to_value(Num(v)).unwrap_or(Value::Null)
}

/// What the FairyGUI editor writes for a value it never set (JavaScript's `String(undefined)`).
const UNSET: &str = "undefined";

/// Typed access to one element's attributes. A present but malformed value is reported
/// as `invalid_project_value` at `<scope>.<at>.<attribute>` and replaced by the default,
/// so one bad attribute never costs the rest of the element.
pub(crate) struct Attrs<'a, 'input, 's> {
    el: Node<'a, 'input>,
    scope: &'s mut Scope,
    at: &'s str,
    node_id: Option<&'a str>,
}

impl<'a, 'input: 'a, 's> Attrs<'a, 'input, 's> {
    pub fn new(el: Node<'a, 'input>, scope: &'s mut Scope, at: &'s str) -> Self {
        Self {
            el,
            scope,
            at,
            node_id: None,
        }
    }

    /// Tags the diagnostics with a display node id.
    pub fn for_node(mut self, node_id: &'a str) -> Self {
        self.node_id = Some(node_id);
        self
    }

    pub fn raw(&self, name: &str) -> Option<&'a str> {
        self.el.attribute(name)
    }

    /// The first present attribute among aliases.
    pub fn raw_any(&self, names: &[&str]) -> Option<&'a str> {
        names.iter().find_map(|name| self.el.attribute(*name))
    }

    pub fn has(&self, name: &str) -> bool {
        self.el.has_attribute(name)
    }

    pub fn string(&self, name: &str) -> String {
        self.raw(name).unwrap_or_default().to_owned()
    }

    pub fn string_or(&self, name: &str, default: &str) -> String {
        self.raw(name).unwrap_or(default).to_owned()
    }

    pub fn opt_string(&self, name: &str) -> Option<String> {
        self.raw(name).map(str::to_owned)
    }

    pub fn report(&mut self, name: &str, message: String) {
        let suffix = if self.at.is_empty() {
            format!(".{name}")
        } else {
            format!("{}.{name}", self.at)
        };
        self.scope.invalid_value(&suffix, self.node_id, message);
    }

    fn bad(&mut self, name: &str, value: &str, expected: &str) {
        if value.trim() == UNSET {
            // The editor writes this for a value it never set (list items' `level`, for
            // one) and reads it back as the default: a warning, not a broken project.
            let message = format!(
                "attribute {name}=\"{value}\" is how the FairyGUI editor writes an unset value; it is read as the default"
            );
            let suffix = if self.at.is_empty() {
                format!(".{name}")
            } else {
                format!("{}.{name}", self.at)
            };
            self.scope.tolerated_value(&suffix, self.node_id, message);
            return;
        }
        let message = format!("attribute {name}=\"{value}\" is not {expected}");
        self.report(name, message);
    }

    pub fn bool(&mut self, name: &str, default: bool) -> bool {
        match self.raw(name) {
            None => default,
            Some(raw) => parse_bool(raw).unwrap_or_else(|| {
                self.bad(name, raw, "a boolean");
                default
            }),
        }
    }

    pub fn opt_f64(&mut self, name: &str) -> Option<f64> {
        let raw = self.raw(name)?;
        let parsed = parse_num(raw);
        if parsed.is_none() {
            self.bad(name, raw, "a finite number");
        } else {
            self.inexact(name, raw, std::iter::once(raw));
        }
        parsed
    }

    /// Warns when a number of `parts` cannot be held exactly: the model holds the nearest
    /// double, the file keeps what it says.
    fn inexact<'p>(&mut self, name: &str, raw: &str, parts: impl Iterator<Item = &'p str>) {
        if let Some(part) = parts.into_iter().find(|part| inexact_integer(part)) {
            let read = parse_num(part).map_or_else(|| part.to_owned(), |v| v.to_string());
            let message = format!(
                "attribute {name}=\"{raw}\" holds the integer {}, too large to be held exactly; it reads as {read} (the file keeps what it says)",
                part.trim()
            );
            let suffix = if self.at.is_empty() {
                format!(".{name}")
            } else {
                format!("{}.{name}", self.at)
            };
            self.scope.tolerated_value(&suffix, self.node_id, message);
        }
    }

    pub fn f64(&mut self, name: &str, default: f64) -> f64 {
        self.opt_f64(name).unwrap_or(default)
    }

    pub fn num(&mut self, name: &str, default: f64) -> Num {
        Num(self.f64(name, default))
    }

    pub fn int(&mut self, name: &str, default: i32) -> i32 {
        match self.raw(name) {
            None => default,
            Some(raw) => parse_int(raw).unwrap_or_else(|| {
                self.bad(name, raw, "a 32-bit integer");
                default
            }),
        }
    }

    /// `n` comma-separated numbers; `None` when absent or malformed (then reported).
    pub fn tuple(&mut self, name: &str, n: usize) -> Option<Vec<f64>> {
        let raw = self.raw(name)?;
        let parsed = parse_tuple(raw, n);
        if parsed.is_none() {
            self.bad(name, raw, &format!("{n} comma-separated numbers"));
        } else {
            self.inexact(name, raw, raw.split(','));
        }
        parsed
    }

    pub fn point(&mut self, name: &str, default: (f64, f64)) -> Point {
        let v = self
            .tuple(name, 2)
            .unwrap_or_else(|| vec![default.0, default.1]);
        Point {
            x: Num(v[0]),
            y: Num(v[1]),
        }
    }

    pub fn size(&mut self, name: &str) -> Option<Size> {
        self.tuple(name, 2).map(|v| Size {
            width: Num(v[0]),
            height: Num(v[1]),
        })
    }

    /// `top,bottom,left,right`.
    pub fn insets(&mut self, name: &str) -> EdgeInsets {
        match self.tuple(name, 4) {
            Some(v) => EdgeInsets {
                top: Num(v[0]),
                bottom: Num(v[1]),
                left: Num(v[2]),
                right: Num(v[3]),
            },
            None => EdgeInsets::default(),
        }
    }

    /// `minWidth,maxWidth,minHeight,maxHeight` → (minSize, maxSize).
    pub fn restrict_size(&mut self, name: &str) -> (Size, Size) {
        match self.tuple(name, 4) {
            Some(v) => (
                Size {
                    width: Num(v[0]),
                    height: Num(v[2]),
                },
                Size {
                    width: Num(v[1]),
                    height: Num(v[3]),
                },
            ),
            None => (Size::default(), Size::default()),
        }
    }

    /// An enum written by name.
    pub fn enumeration(&mut self, name: &str, table: &[(&str, i32)], default: i32) -> i32 {
        match self.raw(name) {
            None => default,
            Some(raw) => lookup(table, raw).unwrap_or_else(|| {
                let names: Vec<&str> = table
                    .iter()
                    .map(|(n, _)| *n)
                    .filter(|n| !n.is_empty())
                    .collect();
                self.bad(name, raw, &format!("one of {}", names.join(", ")));
                default
            }),
        }
    }

    /// A colour, kept as written.
    pub fn color(&mut self, name: &str, default: &str) -> String {
        match self.raw(name) {
            None => default.to_owned(),
            Some(raw) => {
                if !is_color(raw) {
                    self.bad(name, raw, "a #rrggbb or #aarrggbb colour");
                }
                raw.to_owned()
            }
        }
    }

    /// An optional colour: absent or empty means none.
    pub fn opt_color(&mut self, name: &str) -> Option<String> {
        match self.raw(name) {
            None | Some("") => None,
            Some(raw) => {
                if !is_color(raw) {
                    self.bad(name, raw, "a #rrggbb or #aarrggbb colour");
                }
                Some(raw.to_owned())
            }
        }
    }

    pub fn ease(&mut self, name: &str) -> i32 {
        match self.raw(name) {
            None | Some("") => DEFAULT_EASE,
            Some(raw) => ease_type(raw).unwrap_or_else(|| {
                self.bad(name, raw, "a known ease name");
                DEFAULT_EASE
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn booleans_accept_words_and_digits() {
        assert_eq!(parse_bool("true"), Some(true));
        assert_eq!(parse_bool(" TRUE "), Some(true));
        assert_eq!(parse_bool("1"), Some(true));
        assert_eq!(parse_bool("false"), Some(false));
        assert_eq!(parse_bool("0"), Some(false));
        assert_eq!(parse_bool(""), None);
        assert_eq!(parse_bool("yes"), None);
    }

    #[test]
    fn numbers_must_be_finite() {
        assert_eq!(parse_num("10.5"), Some(10.5));
        assert_eq!(parse_num(" -3 "), Some(-3.0));
        assert_eq!(parse_num("1e400"), None);
        assert_eq!(parse_num("inf"), None);
        assert_eq!(parse_num("NaN"), None);
        assert_eq!(parse_num("12px"), None);
        assert_eq!(parse_num(""), None);
    }

    #[test]
    fn integers_beyond_a_double_are_told_apart() {
        assert!(!inexact_integer("9007199254740992"));
        assert!(inexact_integer("9007199254740993"));
        assert!(inexact_integer(" -99999999999999999999999"));
        assert!(!inexact_integer("0000000000000000012"));
        assert!(!inexact_integer("1e400"));
        assert!(!inexact_integer("12.5"));
    }

    #[test]
    fn integers_truncate_and_stay_in_range() {
        assert_eq!(parse_int("42"), Some(42));
        assert_eq!(parse_int("12.9"), Some(12));
        assert_eq!(parse_int("-7"), Some(-7));
        assert_eq!(parse_int("99999999999"), None);
        assert_eq!(parse_int("x"), None);
    }

    #[test]
    fn tuples_have_an_exact_length() {
        assert_eq!(parse_tuple("1,2", 2), Some(vec![1.0, 2.0]));
        assert_eq!(parse_tuple("1,2,3", 2), None);
        assert_eq!(parse_tuple("1", 2), None);
        assert_eq!(parse_tuple("1,a", 2), None);
    }

    #[test]
    fn enums_match_names_ignoring_case() {
        let table = [("single", 0), ("multipleSingleClick", 2)];
        assert_eq!(lookup(&table, "Single"), Some(0));
        assert_eq!(lookup(&table, "multipleSingleclick"), Some(2));
        assert_eq!(lookup(&table, "other"), None);
    }

    #[test]
    fn ease_names_normalize() {
        assert_eq!(ease_type("Linear"), Some(0));
        assert_eq!(ease_type("Quad.Out"), Some(5));
        assert_eq!(ease_type("quad_out"), Some(5));
        assert_eq!(ease_type("Back.InOut"), Some(27));
        assert_eq!(ease_type("Bounce-Out"), Some(29));
        assert_eq!(ease_type("Custom"), Some(31));
        assert_eq!(ease_type("Wobble"), None);
    }

    #[test]
    fn folders_are_canonical_and_never_escape() {
        assert_eq!(canonical_dir("/images/").as_deref(), Some("/images/"));
        assert_eq!(canonical_dir("images").as_deref(), Some("/images/"));
        assert_eq!(canonical_dir("/").as_deref(), Some("/"));
        assert_eq!(canonical_dir("").as_deref(), Some("/"));
        assert_eq!(canonical_dir("/a//b/./").as_deref(), Some("/a/b/"));
        assert_eq!(canonical_dir("/a/../b/"), None);
        assert!(is_safe_file_name("a.png"));
        assert!(!is_safe_file_name("../a.png"));
        assert!(!is_safe_file_name(".."));
    }

    #[test]
    fn json_numbers_print_like_javascript() {
        assert_eq!(json_num(3.0).to_string(), "3");
        assert_eq!(json_num(0.5).to_string(), "0.5");
    }
}
