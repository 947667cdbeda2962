//! Glyph bitmaps: vector glyphs rasterized once per face, size and style, kept in a
//! bounded cache, and tinted to the text colour.

use std::collections::HashMap;

use tiny_skia::{
    BlendMode, Color, FilterQuality, IntSize, Mask, Paint, Pixmap, PixmapPaint, Rect, Transform,
};

use crate::render::bitmap::BitmapFont;
use crate::render::font::VectorFont;

use super::{CACHE_LIMIT, ITALIC_SKEW};

#[derive(Hash, PartialEq, Eq)]
pub(super) struct VectorKey {
    pub(super) font: usize,
    pub(super) ch: char,
    /// Raster size in 1/8 px.
    pub(super) px8: u32,
    pub(super) bold_px: u32,
    pub(super) italic: bool,
    pub(super) rgba: u32,
}

pub(super) struct RasterGlyph {
    pub(super) pixmap: Pixmap,
    /// Top-left relative to the pen on the baseline, in raster pixels.
    pub(super) left: i32,
    pub(super) top: i32,
}

/// Rasterized glyphs, coloured, by font, char, pixel size and style: one component's
/// labels mostly share a font, a size and a colour.
#[derive(Default)]
pub struct GlyphCache {
    pub(super) vector: HashMap<VectorKey, Option<RasterGlyph>>,
    pub(super) bitmap: HashMap<(u64, char, u32), Option<Pixmap>>,
}

impl GlyphCache {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.vector.len() + self.bitmap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub(super) fn vector(
        &mut self,
        font: &VectorFont,
        key: VectorKey,
        color: Color,
    ) -> Option<&RasterGlyph> {
        if !self.vector.contains_key(&key) {
            if self.vector.len() >= CACHE_LIMIT {
                self.vector.clear();
            }
            let px = key.px8 as f32 / 8.0;
            let glyph = raster_vector(font, key.ch, px, key.bold_px, key.italic, color);
            self.vector.insert(
                VectorKey {
                    font: key.font,
                    ch: key.ch,
                    px8: key.px8,
                    bold_px: key.bold_px,
                    italic: key.italic,
                    rgba: key.rgba,
                },
                glyph,
            );
        }
        self.vector.get(&key).and_then(Option::as_ref)
    }

    pub(super) fn bitmap(
        &mut self,
        font: &BitmapFont,
        ch: char,
        image: &Pixmap,
        color: Color,
    ) -> Option<&Pixmap> {
        let key = (font.id, ch, rgba(color));
        if !self.bitmap.contains_key(&key) {
            if self.bitmap.len() >= CACHE_LIMIT {
                self.bitmap.clear();
            }
            self.bitmap.insert(key, modulate(image, color));
        }
        self.bitmap.get(&key).and_then(Option::as_ref)
    }
}

pub(super) fn rgba(color: Color) -> u32 {
    let c = color.to_color_u8();
    u32::from_be_bytes([c.red(), c.green(), c.blue(), c.alpha()])
}

/// `image` multiplied by `color`, as the runtime's vertex colours tint a glyph quad.
pub(super) fn modulate(image: &Pixmap, color: Color) -> Option<Pixmap> {
    let mut out = image.clone();
    let rect = Rect::from_xywh(0.0, 0.0, image.width() as f32, image.height() as f32)?;
    let mut paint = Paint::default();
    paint.set_color(color);
    paint.blend_mode = BlendMode::Modulate;
    paint.anti_alias = false;
    out.fill_rect(rect, &paint, Transform::identity(), None);
    Some(out)
}

pub(super) fn raster_vector(
    font: &VectorFont,
    ch: char,
    px: f32,
    bold_px: u32,
    italic: bool,
    color: Color,
) -> Option<RasterGlyph> {
    let (m, coverage) = font.rasterize(ch, px)?;
    if m.width == 0 || m.height == 0 || coverage.len() != m.width * m.height {
        return None;
    }
    let (w, h) = (m.width, m.height);
    let (coverage, w) = if bold_px > 0 {
        (
            dilate(&coverage, w, h, bold_px as usize),
            w + bold_px as usize,
        )
    } else {
        (coverage, w)
    };
    let size = IntSize::from_wh(u32::try_from(w).ok()?, u32::try_from(h).ok()?)?;
    let mask = Mask::from_vec(coverage, size)?;
    let mut pixmap = Pixmap::new(size.width(), size.height())?;
    pixmap.fill(color);
    pixmap.apply_mask(&mask);
    let mut left = m.xmin;
    let top = -(m.ymin + h as i32);
    if italic {
        // Skew about the baseline so the glyph keeps its place on the line.
        let above = (m.ymin + h as i32) as f32;
        let below = m.ymin as f32;
        let lo = (ITALIC_SKEW * below).floor();
        let hi = (ITALIC_SKEW * above).ceil();
        let extra = (hi - lo).max(0.0) as u32;
        let mut skewed = Pixmap::new(size.width() + extra, size.height())?;
        let skew = Transform::from_row(1.0, 0.0, -ITALIC_SKEW, 1.0, ITALIC_SKEW * above - lo, 0.0);
        let paint = PixmapPaint {
            quality: FilterQuality::Bilinear,
            ..PixmapPaint::default()
        };
        skewed.draw_pixmap(0, 0, pixmap.as_ref(), &paint, skew, None);
        pixmap = skewed;
        left += lo as i32;
    }
    Some(RasterGlyph { pixmap, left, top })
}

/// Faux bold: each row's coverage smeared `by` pixels to the right (done once per cached glyph).
pub(super) fn dilate(coverage: &[u8], w: usize, h: usize, by: usize) -> Vec<u8> {
    let nw = w + by;
    let mut out = vec![0u8; nw * h];
    for (src, dst) in coverage.chunks_exact(w).zip(out.chunks_exact_mut(nw)) {
        for d in 0..=by {
            for (o, &c) in dst[d..d + w].iter_mut().zip(src) {
                *o = (*o).max(c);
            }
        }
    }
    out
}
