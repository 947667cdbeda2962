//! How the FairyGUI editor spells values in XML: the inverse of `reader::values`.
//!
//! The editor is written in JavaScript/ActionScript, so numbers print as `String(n)` does
//! there: integral values without a decimal point, others in the shortest form that reads
//! back to the same double.

use ofgui_contracts::Num;
use ofgui_contracts::uam::{EdgeInsets, Point, Size};

/// A number as JavaScript's `String(n)` prints it.
pub fn num(value: f64) -> String {
    if value == 0.0 {
        // Also `-0`, which JavaScript prints as `0`.
        return "0".into();
    }
    if value.fract() == 0.0 && value.abs() < 1e21 {
        return format!("{}", value as i128);
    }
    let abs = value.abs();
    if (1e-6..1e21).contains(&abs) {
        // Rust's `Display` is the shortest round-trip form, without an exponent.
        return format!("{value}");
    }
    // JavaScript switches to `1.5e-7` / `1e+21`.
    let text = format!("{value:e}");
    match text.split_once('e') {
        Some((mantissa, exponent)) if !exponent.starts_with('-') => {
            format!("{mantissa}e+{exponent}")
        }
        _ => text,
    }
}

pub fn number(value: Num) -> String {
    num(value.get())
}

/// `true` / `false`, as the editor writes booleans.
pub fn flag(value: bool) -> &'static str {
    if value { "true" } else { "false" }
}

/// `x,y`.
pub fn point(value: &Point) -> String {
    format!("{},{}", number(value.x), number(value.y))
}

/// `width,height`.
pub fn size(value: &Size) -> String {
    format!("{},{}", number(value.width), number(value.height))
}

/// Comma-separated numbers.
pub fn numbers(values: &[Num]) -> String {
    values
        .iter()
        .map(|v| number(*v))
        .collect::<Vec<_>>()
        .join(",")
}

/// Margins in the order FairyGUI writes them: `top,bottom,left,right`.
pub fn margins(value: &EdgeInsets) -> String {
    format!(
        "{},{},{},{}",
        number(value.top),
        number(value.bottom),
        number(value.left),
        number(value.right)
    )
}

/// The name of an enumeration value in a `(name, value)` table, as the reader looks it up.
pub fn name_of(table: &[(&'static str, i32)], value: i32) -> Option<&'static str> {
    table
        .iter()
        .find(|(_, known)| *known == value)
        .map(|(name, _)| *name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_like_javascript() {
        for (value, text) in [
            (0.0, "0"),
            (-0.0, "0"),
            (12.0, "12"),
            (-3.0, "-3"),
            (0.5, "0.5"),
            (1.2, "1.2"),
            (-30.25, "-30.25"),
            (0.1 + 0.2, "0.30000000000000004"),
            (123456789.0, "123456789"),
            (1e21, "1e+21"),
            (1.5e-7, "1.5e-7"),
            (2147483647.0, "2147483647"),
            (0.000001, "0.000001"),
        ] {
            assert_eq!(num(value), text, "{value}");
            assert_eq!(text.parse::<f64>().unwrap(), value, "{text} reads back");
        }
    }
}
