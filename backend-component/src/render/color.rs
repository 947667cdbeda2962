//! FairyGUI colour strings: `#RRGGBB` or `#AARRGGBB`, as the editor writes them.

use tiny_skia::Color;

/// The colour a FairyGUI colour string names; `None` when it is not one.
pub fn parse(text: &str) -> Option<Color> {
    let hex = text.trim().strip_prefix('#')?;
    let value = u32::from_str_radix(hex, 16).ok()?;
    let (a, rgb) = match hex.len() {
        6 => (0xff, value),
        8 => (value >> 24, value & 0x00ff_ffff),
        _ => return None,
    };
    Some(Color::from_rgba8(
        (rgb >> 16) as u8,
        (rgb >> 8) as u8,
        rgb as u8,
        a as u8,
    ))
}

/// `color` with its alpha multiplied by `alpha` (0..1).
pub fn with_alpha(color: Color, alpha: f32) -> Color {
    let mut c = color;
    c.set_alpha((color.alpha() * alpha).clamp(0.0, 1.0));
    c
}

/// Whether a tint leaves pixels as they are (white, fully opaque).
pub fn is_white(color: Color) -> bool {
    color.red() >= 1.0 && color.green() >= 1.0 && color.blue() >= 1.0 && color.alpha() >= 1.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_forms_and_refuses_others() {
        let red = parse("#ff0000").expect("rgb");
        assert_eq!(red.to_color_u8().red(), 255);
        assert_eq!(red.to_color_u8().alpha(), 255);
        let half = parse("#8000ff00").expect("argb");
        assert_eq!(half.to_color_u8().alpha(), 0x80);
        assert_eq!(half.to_color_u8().green(), 255);
        assert!(parse("ff0000").is_none());
        assert!(parse("#fff").is_none());
        assert!(parse("#gg0000").is_none());
    }
}
