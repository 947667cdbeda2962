//! Spellings only component XML needs, on top of [`crate::writer::lexical`]: values the
//! reader divides by 100, the editor's two-decimal fixed form, ease names, enumeration
//! names and the comma parts of transition values.

use ofgui_contracts::Num;
use serde_json::Value;

use crate::writer::element::Element;
use crate::writer::lexical::{flag, name_of, num, number};

/// Ease names as the editor writes them, by easeType (0 Linear … 31 Custom).
pub const EASE_NAMES: [&str; 32] = [
    "Linear",
    "Sine.In",
    "Sine.Out",
    "Sine.InOut",
    "Quad.In",
    "Quad.Out",
    "Quad.InOut",
    "Cubic.In",
    "Cubic.Out",
    "Cubic.InOut",
    "Quart.In",
    "Quart.Out",
    "Quart.InOut",
    "Quint.In",
    "Quint.Out",
    "Quint.InOut",
    "Expo.In",
    "Expo.Out",
    "Expo.InOut",
    "Circ.In",
    "Circ.Out",
    "Circ.InOut",
    "Elastic.In",
    "Elastic.Out",
    "Elastic.InOut",
    "Back.In",
    "Back.Out",
    "Back.InOut",
    "Bounce.In",
    "Bounce.Out",
    "Bounce.InOut",
    "Custom",
];

/// An ease type's name; a number outside the table is written as the number (the reader
/// then reports it rather than silently reading the default).
pub fn ease(ease_type: i32) -> String {
    usize::try_from(ease_type)
        .ok()
        .and_then(|index| EASE_NAMES.get(index))
        .map_or_else(|| ease_type.to_string(), |name| (*name).to_string())
}

/// An enumeration value by the name the editor writes (the table's first name for it); an
/// unknown value is written as its number, which the reader reports.
pub fn choice(table: &[(&'static str, i32)], value: i32) -> String {
    name_of(table, value).map_or_else(|| value.to_string(), str::to_string)
}

/// A value the reader divides by 100 (`volume`, `fillAmount`): the shortest decimal that
/// reads back as exactly `fraction`, since `fraction * 100` may not (0.57 * 100 is
/// 56.99999999999999).
pub fn percent(fraction: f64) -> String {
    let scaled = fraction * 100.0;
    let reads_back = |text: &str| text.parse::<f64>().is_ok_and(|v| v / 100.0 == fraction);
    // The fewest decimals first: `57`, not `56.99999999999999`, though both read back.
    for digits in 0..=17 {
        let text = trim_fraction(&format!("{scaled:.digits$}"));
        if reads_back(&text) {
            return text;
        }
    }
    let plain = num(scaled);
    if reads_back(&plain) {
        return plain;
    }
    // No decimal near `scaled` divides back exactly: neighbouring doubles may.
    let (mut below, mut above) = (scaled, scaled);
    for _ in 0..4 {
        below = below.next_down();
        above = above.next_up();
        for candidate in [below, above] {
            let text = num(candidate);
            if reads_back(&text) {
                return text;
            }
        }
    }
    plain
}

/// `0.80`: the two-decimal form the editor writes for a button's `downEffectValue`, when
/// it reads back as the same number; otherwise JavaScript's form.
pub fn fixed2(value: f64) -> String {
    let text = format!("{value:.2}");
    if text.parse::<f64>().is_ok_and(|v| v == value) {
        text
    } else {
        num(value)
    }
}

fn trim_fraction(text: &str) -> String {
    if !text.contains('.') {
        return text.to_string();
    }
    let trimmed = text.trim_end_matches('0').trim_end_matches('.');
    match trimmed {
        "" | "-" | "-0" => "0".to_string(),
        other => other.to_string(),
    }
}

/// One part of a comma- or bar-separated value kept as JSON: numbers as JavaScript prints
/// them, strings as they are.
pub fn json_part(value: &Value) -> String {
    match value {
        Value::Number(n) => n.as_f64().map_or_else(|| n.to_string(), num),
        Value::String(s) => s.clone(),
        Value::Bool(b) => flag(*b).to_string(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Writing attributes at their defaults the way the editor does: left out.
pub trait Put {
    /// `true`/`false`, unless it is `default`.
    fn flag(&mut self, name: &'static str, value: bool, default: bool);
    /// A number, unless it is `default`.
    fn num(&mut self, name: &'static str, value: Num, default: f64);
    /// A string, unless it is empty.
    fn text(&mut self, name: &'static str, value: &str);
    /// An enumeration by name, unless it is `default`.
    fn choice(
        &mut self,
        name: &'static str,
        table: &[(&'static str, i32)],
        value: i32,
        default: i32,
    );
}

impl Put for Element {
    fn flag(&mut self, name: &'static str, value: bool, default: bool) {
        if value != default {
            self.set(name, flag(value));
        }
    }

    fn num(&mut self, name: &'static str, value: Num, default: f64) {
        self.set_unless(name, number(value), &num(default));
    }

    fn text(&mut self, name: &'static str, value: &str) {
        self.set_unless(name, value, "");
    }

    fn choice(
        &mut self,
        name: &'static str,
        table: &[(&'static str, i32)],
        value: i32,
        default: i32,
    ) {
        if value != default {
            self.set(name, choice(table, value));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::EASES;

    #[test]
    fn percents_read_back_exactly() {
        for text in ["57", "80", "100", "0", "12.5", "33.3", "1e-7", "99.99"] {
            let fraction = text.parse::<f64>().unwrap() / 100.0;
            let written = percent(fraction);
            assert_eq!(written.parse::<f64>().unwrap() / 100.0, fraction, "{text}");
        }
        assert_eq!(percent(0.57), "57");
        assert_eq!(percent(0.8), "80");
        assert_eq!(percent(1.0), "100");
    }

    #[test]
    fn ease_names_are_the_readers() {
        for (index, name) in EASE_NAMES.iter().enumerate() {
            let normalized: String = name
                .chars()
                .filter(|c| *c != '.')
                .flat_map(char::to_lowercase)
                .collect();
            assert_eq!(normalized, EASES[index]);
        }
        assert_eq!(ease(5), "Quad.Out");
        assert_eq!(ease(99), "99");
    }

    #[test]
    fn fixed_two_decimals_only_when_exact() {
        assert_eq!(fixed2(0.8), "0.80");
        assert_eq!(fixed2(0.123), "0.123");
    }
}
