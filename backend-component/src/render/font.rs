//! Fonts for previews: the bundled DejaVu Sans subset, the project's own TTF/OTF files,
//! its BMFont files and the machine's fonts the host grants (`render::shelf`), behind one
//! [`Face`] that the text painter draws with.

use std::sync::{Arc, OnceLock};

use tiny_skia::{FillRule, IntSize, Mask, PathBuilder, Transform};

use crate::render::bitmap::BitmapFont;

/// The bundled subset (see `fonts/README.md`): text in previews must not depend on the
/// host's fonts, and the component cannot read them anyway.
const BUNDLED_TTF: &[u8] = include_bytes!("../../fonts/DejaVuSans-subset.ttf");

/// What a text node is drawn with, resolved by the caller from the node's `font` field
/// (empty: [`Face::bundled`]; `ui://…` naming a .ttf: [`Face::Vector`]; naming a .fnt:
/// [`Face::Bitmap`]).
#[derive(Clone)]
pub enum Face {
    Vector(Arc<VectorFont>),
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
        parse_ttf(bytes).map(|font| Face::Vector(Arc::new(VectorFont::Eager(font))))
    }
}

fn bundled_arc() -> Option<&'static Arc<VectorFont>> {
    static FONT: OnceLock<Option<Arc<VectorFont>>> = OnceLock::new();
    FONT.get_or_init(|| parse_ttf(BUNDLED_TTF).map(|font| Arc::new(VectorFont::Eager(font))))
        .as_ref()
}

/// The bundled DejaVu Sans subset, parsed once.
pub fn bundled() -> Option<&'static VectorFont> {
    bundled_arc().map(|font| &**font)
}

/// Where a glyph's coverage bitmap sits, as fontdue gives it: `xmin` from the pen, `ymin`
/// from the baseline upwards to the bitmap's bottom row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GlyphBox {
    pub xmin: i32,
    pub ymin: i32,
    pub width: usize,
    pub height: usize,
}

/// An outline font, with the few questions the text painter asks of one.
///
/// Project and bundled fonts are small and go through fontdue, which outlines every glyph
/// up front. A machine font can be a 20 MB CJK collection of 65,535 glyphs, which fontdue
/// would take 0.6 s and 200 MB to load: those are read lazily with ttf-parser and each
/// glyph filled with tiny-skia on first use.
pub enum VectorFont {
    Eager(fontdue::Font),
    Lazy(Box<LazyFont>),
}

/// A machine font: its file's bytes (kept for the life of the instance, see
/// `render::shelf`) and the face of the collection it is.
pub struct LazyFont {
    face: ttf_parser::Face<'static>,
    family: String,
    id: usize,
}

impl LazyFont {
    /// The face at `index` in `bytes`; `None` when ttf-parser refuses it or it has no
    /// outlines to draw.
    pub fn parse(bytes: &'static [u8], index: u32, family: String) -> Option<LazyFont> {
        let face = ttf_parser::Face::parse(bytes, index).ok()?;
        (face.number_of_glyphs() > 0 && face.units_per_em() > 0).then(|| LazyFont {
            face,
            family,
            id: bytes.as_ptr() as usize ^ (index as usize).rotate_left(48),
        })
    }

    fn scale(&self, px: f32) -> f32 {
        px / f32::from(self.face.units_per_em())
    }

    fn glyph(&self, ch: char) -> Option<ttf_parser::GlyphId> {
        self.face.glyph_index(ch).filter(|id| id.0 != 0)
    }
}

impl VectorFont {
    /// The family it was found under, for approximations; empty for a project's font.
    pub fn family(&self) -> &str {
        match self {
            VectorFont::Eager(_) => "",
            VectorFont::Lazy(font) => &font.family,
        }
    }

    pub fn has_glyph(&self, ch: char) -> bool {
        match self {
            VectorFont::Eager(font) => font.has_glyph(ch),
            VectorFont::Lazy(font) => font.glyph(ch).is_some(),
        }
    }

    /// The pen's advance after `ch` at `px` pixels per em.
    pub fn advance(&self, ch: char, px: f32) -> f32 {
        match self {
            VectorFont::Eager(font) => font.metrics(ch, px).advance_width,
            VectorFont::Lazy(font) => font
                .face
                .glyph_index(ch)
                .and_then(|id| font.face.glyph_hor_advance(id))
                .map_or(0.0, |advance| f32::from(advance) * font.scale(px)),
        }
    }

    /// The lowest point of `ch`'s outline, upwards from the baseline (negative below it).
    pub fn outline_bottom(&self, ch: char, px: f32) -> f32 {
        match self {
            VectorFont::Eager(font) => font.metrics(ch, px).bounds.ymin,
            VectorFont::Lazy(font) => font
                .glyph(ch)
                .and_then(|id| font.face.glyph_bounding_box(id))
                .map_or(0.0, |bounds| f32::from(bounds.y_min) * font.scale(px)),
        }
    }

    /// Ascent and descent (negative) at `px`, when the font says.
    pub fn line_metrics(&self, px: f32) -> Option<(f32, f32)> {
        match self {
            VectorFont::Eager(font) => font
                .horizontal_line_metrics(px)
                .map(|m| (m.ascent, m.descent)),
            VectorFont::Lazy(font) => Some((
                f32::from(font.face.ascender()) * font.scale(px),
                f32::from(font.face.descender()) * font.scale(px),
            )),
        }
    }

    /// The glyph's coverage, one byte a pixel, and where it sits.
    pub fn rasterize(&self, ch: char, px: f32) -> Option<(GlyphBox, Vec<u8>)> {
        match self {
            VectorFont::Eager(font) => {
                let (m, coverage) = font.rasterize(ch, px);
                let placed = GlyphBox {
                    xmin: m.xmin,
                    ymin: m.ymin,
                    width: m.width,
                    height: m.height,
                };
                Some((placed, coverage))
            }
            VectorFont::Lazy(font) => {
                let id = font.glyph(ch)?;
                let scale = font.scale(px);
                let mut outline = Outline {
                    path: PathBuilder::new(),
                    scale,
                };
                font.face.outline_glyph(id, &mut outline)?;
                let path = outline.path.finish()?;
                let bounds = path.bounds();
                let (left, top) = (bounds.left().floor(), bounds.top().floor());
                let (right, bottom) = (bounds.right().ceil(), bounds.bottom().ceil());
                let size = IntSize::from_wh((right - left) as u32, (bottom - top) as u32)?;
                let mut mask = Mask::new(size.width(), size.height())?;
                let at = Transform::from_translate(-left, -top);
                mask.fill_path(&path, FillRule::Winding, true, at);
                let placed = GlyphBox {
                    xmin: left as i32,
                    ymin: -(bottom as i32),
                    width: size.width() as usize,
                    height: size.height() as usize,
                };
                Some((placed, mask.data().to_vec()))
            }
        }
    }

    /// Tells glyph caches apart: the same for one font, different between fonts.
    pub fn id(&self) -> usize {
        match self {
            VectorFont::Eager(font) => font.file_hash(),
            VectorFont::Lazy(font) => font.id,
        }
    }
}

/// A glyph outline in pixels, y downwards, the pen at the origin on the baseline.
struct Outline {
    path: PathBuilder,
    scale: f32,
}

impl ttf_parser::OutlineBuilder for Outline {
    fn move_to(&mut self, x: f32, y: f32) {
        self.path.move_to(x * self.scale, -y * self.scale);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.path.line_to(x * self.scale, -y * self.scale);
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let k = self.scale;
        self.path.quad_to(x1 * k, -y1 * k, x * k, -y * k);
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let k = self.scale;
        self.path
            .cubic_to(x1 * k, -y1 * k, x2 * k, -y2 * k, x * k, -y * k);
    }
    fn close(&mut self) {
        self.path.close();
    }
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
        assert!(font.line_metrics(20.0).is_some());
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
