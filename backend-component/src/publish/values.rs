//! Model values as the descriptor carries them: whole numbers, colours as R,G,B,A bytes,
//! comma lists. Every conversion is checked; a value that does not fit is an error, never
//! a wrapped or saturated number.

use ofgui_contracts::Num;
use serde_json::Value;

use super::PublishError;

/// A whole-number field (`i32`). The model keeps decimals; the editor's fields are whole,
/// and a fraction is rounded as the editor's numeric steppers round it.
pub fn int(value: Num, what: &'static str) -> Result<i32, PublishError> {
    int_f64(value.get(), what)
}

pub fn int_f64(value: f64, what: &'static str) -> Result<i32, PublishError> {
    let rounded = value.round();
    if rounded.is_finite() && rounded >= f64::from(i32::MIN) && rounded <= f64::from(i32::MAX) {
        // In range and whole, so the conversion is exact.
        Ok(rounded as i32)
    } else {
        Err(PublishError::OutOfRange { what, value })
    }
}

/// A whole-number field written as `i16`.
pub fn short(value: Num, what: &'static str) -> Result<i16, PublishError> {
    let whole = int(value, what)?;
    i16::try_from(whole).map_err(|_| PublishError::OutOfRange {
        what,
        value: value.get(),
    })
}

/// A float field (`f32`); a finite model value too large for `f32` is refused.
pub fn float(value: Num, what: &'static str) -> Result<f32, PublishError> {
    float_f64(value.get(), what)
}

pub fn float_f64(value: f64, what: &'static str) -> Result<f32, PublishError> {
    let single = value as f32;
    if single.is_finite() {
        Ok(single)
    } else {
        Err(PublishError::OutOfRange { what, value })
    }
}

/// `#RRGGBB` or `#AARRGGBB` as the format's bytes R, G, B, A; `None` for anything else.
pub fn color(text: &str) -> Option<[u8; 4]> {
    let hex = text.strip_prefix('#')?;
    if !hex.is_ascii() {
        return None;
    }
    let byte = |at: usize| {
        hex.get(at..at.checked_add(2)?)
            .and_then(|pair| u8::from_str_radix(pair, 16).ok())
    };
    match hex.len() {
        6 => Some([byte(0)?, byte(2)?, byte(4)?, 0xFF]),
        8 => Some([byte(2)?, byte(4)?, byte(6)?, byte(0)?]),
        _ => None,
    }
}

/// A colour, or `fallback` when the model's text is not one (validation reports it).
pub fn color_or(text: &str, fallback: [u8; 4]) -> [u8; 4] {
    color(text).unwrap_or(fallback)
}

pub const WHITE: [u8; 4] = [0xFF, 0xFF, 0xFF, 0xFF];
pub const BLACK: [u8; 4] = [0, 0, 0, 0xFF];

/// A decimal as the XML writes it.
pub fn number(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Part `i` of a transition value: a JSON number, or a numeric string.
pub fn part_number(parts: &[Value], i: usize) -> Option<f64> {
    match parts.get(i)? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => number(s),
        _ => None,
    }
}

/// Part `i` of a transition value as text.
pub fn part_text(parts: &[Value], i: usize) -> Option<String> {
    match parts.get(i)? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A field of a gear value object as a number.
pub fn field_number(value: &Value, key: &str) -> Option<f64> {
    value.get(key).and_then(Value::as_f64)
}

/// A field of a gear value object as text (`""` when absent).
pub fn field_text<'v>(value: &'v Value, key: &str) -> &'v str {
    value.get(key).and_then(Value::as_str).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_rgba() {
        assert_eq!(color("#102030"), Some([0x10, 0x20, 0x30, 0xFF]));
        assert_eq!(color("#80102030"), Some([0x10, 0x20, 0x30, 0x80]));
        assert_eq!(color("#fff"), None);
        assert_eq!(color("#ééé"), None);
        assert_eq!(color(""), None);
    }

    #[test]
    fn numbers_are_checked() {
        assert_eq!(int(Num(2.4), "x"), Ok(2));
        assert!(int(Num(3e10), "x").is_err());
        assert!(short(Num(40_000.0), "x").is_err());
        assert!(float(Num(1e300), "x").is_err());
    }
}
