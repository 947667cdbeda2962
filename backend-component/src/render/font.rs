//! Fonts for previews: the bundled DejaVu Sans subset, the project's own TTF/OTF files and
//! its BMFont files, behind one [`Face`] that the text painter draws with.

use std::sync::{Arc, OnceLock};

use crate::render::bitmap::BitmapFont;

/// The bundled subset (see `fonts/README.md`): text in previews must not depend on the
/// host's fonts, and the component cannot read them anyway.
const BUNDLED_TTF: &[u8] = include_bytes!("../../fonts/DejaVuSans-subset.ttf");

/// What a text node is drawn with, resolved by the caller from the node's `font` field
/// (empty: [`Face::bundled`]; `ui://…` naming a .ttf: [`Face::Vector`]; naming a .fnt:
/// [`Face::Bitmap`]).
#[derive(Clone)]
pub enum Face {
    Vector(Arc<fontdue::Font>),
    Bitmap(Arc<BitmapFont>),
}

impl Face {
    /// The bundled font as a face; `None` only if the embedded file failed to parse, which
    /// the tests rule out (kept as an `Option` so no code path can panic).
    pub fn bundled() -> Option<Face> {
        bundled_arc().map(|font| Face::Vector(Arc::clone(font)))
    }

    /// A face for a project TTF/OTF; `None` when the rasterizer refuses the bytes.
    pub fn from_ttf(bytes: &[u8]) -> Option<Face> {
        parse_ttf(bytes).map(|font| Face::Vector(Arc::new(font)))
    }
}

fn bundled_arc() -> Option<&'static Arc<fontdue::Font>> {
    static FONT: OnceLock<Option<Arc<fontdue::Font>>> = OnceLock::new();
    FONT.get_or_init(|| parse_ttf(BUNDLED_TTF).map(Arc::new))
        .as_ref()
}

/// The bundled DejaVu Sans subset, parsed once.
pub fn bundled() -> Option<&'static fontdue::Font> {
    bundled_arc().map(|font| &**font)
}

/// A TTF/OTF font from the project; `None` when fontdue refuses it.
pub fn parse_ttf(bytes: &[u8]) -> Option<fontdue::Font> {
    let settings = fontdue::FontSettings {
        // Scripts' substitution tables are not used: previews lay out one glyph per char.
        load_substitutions: false,
        ..fontdue::FontSettings::default()
    };
    // Fonts are user data; on native hosts a parser panic must not take the session down.
    // (wasm builds abort on panic, where this guard is inert.)
    std::panic::catch_unwind(|| fontdue::Font::from_bytes(bytes, settings).ok())
        .ok()
        .flatten()
        // A font with no outlines at all would draw nothing but boxes; treat it as unusable.
        .filter(|font| font.glyph_count() > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_font_parses_and_covers_the_promised_ranges() {
        let font = bundled().expect("bundled font parses");
        for ch in ['A', 'é', 'Ł', 'ǅ', 'Ω', 'Ж', '…', '€', '→', '\u{25A1}'] {
            assert!(font.has_glyph(ch), "bundled font lacks {ch:?}");
        }
        assert!(!font.has_glyph('中'));
        assert!(font.horizontal_line_metrics(20.0).is_some());
        assert!(BUNDLED_TTF.len() < 100_000);
    }

    #[test]
    fn garbage_is_refused_not_panicked_on() {
        assert!(parse_ttf(b"").is_none());
        assert!(parse_ttf(b"not a font at all").is_none());
        let mut truncated = BUNDLED_TTF[..4096].to_vec();
        assert!(parse_ttf(&truncated).is_none());
        truncated[0] ^= 0xff;
        assert!(parse_ttf(&truncated).is_none());
        assert!(Face::from_ttf(BUNDLED_TTF).is_some());
    }
}
