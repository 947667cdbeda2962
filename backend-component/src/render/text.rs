//! Text layout and drawing for previews, after the FairyGUI runtime's `TextField`
//! (FairyGUI-unity `Core/Text/TextField.cs`): a 2 px gutter, per-char advances plus letter
//! spacing, greedy wrapping that moves a broken word to the next line, `leading - 1` between
//! lines, per-line alignment, vertical alignment of the block, shrink and ellipsis.

use std::collections::HashMap;

use tiny_skia::{
    BlendMode, Color, FilterQuality, IntSize, Mask, Paint, Pixmap, PixmapMut, PixmapPaint, Rect,
    Transform,
};

use crate::render::bitmap::{BitmapFont, BitmapGlyph};
use crate::render::color;
use crate::render::font::{self, Face};

const GUTTER_X: f32 = 2.0;
const GUTTER_Y: f32 = 2.0;
/// Longer text is cut: a label never holds this much, and layout is linear in it.
const MAX_CHARS: usize = 65_536;
/// Glyphs are rasterized at most this big and scaled beyond, so one glyph's bitmap stays small.
const MAX_RASTER_PX: f32 = 512.0;
const MAX_FONT_SIZE: f32 = 2048.0;
const ITALIC_SKEW: f32 = 0.2;
const ELLIPSIS: char = '…';
const MISSING: char = '\u{25A1}';
/// Cached glyph bitmaps before the cache starts over (bounds memory across many renders).
const CACHE_LIMIT: usize = 8192;

/// How a text node looks; FairyGUI's text properties.
#[derive(Debug, Clone, PartialEq)]
pub struct TextStyle {
    pub size: f32,
    pub color: Color,
    /// 0 left, 1 center, 2 right.
    pub align: i32,
    /// 0 top, 1 middle, 2 bottom.
    pub v_align: i32,
    pub leading: f32,
    pub letter_spacing: f32,
    pub bold: bool,
    pub italic: bool,
    pub underline: bool,
    pub strikethrough: bool,
    /// Stroke colour and size.
    pub stroke: Option<(Color, f32)>,
    /// Shadow colour and offset (x, y; y down).
    pub shadow: Option<(Color, f32, f32)>,
    pub single_line: bool,
    /// 0 none, 1 both, 2 height, 3 shrink, 4 ellipsis.
    pub auto_size: i32,
}

impl Default for TextStyle {
    /// The editor's defaults for a new text field.
    fn default() -> Self {
        TextStyle {
            size: 12.0,
            color: Color::BLACK,
            align: 0,
            v_align: 0,
            leading: 3.0,
            letter_spacing: 0.0,
            bold: false,
            italic: false,
            underline: false,
            strikethrough: false,
            stroke: None,
            shadow: None,
            single_line: false,
            auto_size: 0,
        }
    }
}

/// What drawing could not honour.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TextReport {
    /// Drawn characters that no font had (drawn as `□`/a box, or left out for bitmap fonts).
    pub missing_glyphs: u32,
}

#[derive(Hash, PartialEq, Eq)]
struct VectorKey {
    font: usize,
    ch: char,
    /// Raster size in 1/8 px.
    px8: u32,
    bold_px: u32,
    italic: bool,
    rgba: u32,
}

struct RasterGlyph {
    pixmap: Pixmap,
    /// Top-left relative to the pen on the baseline, in raster pixels.
    left: i32,
    top: i32,
}

/// Rasterized glyphs, coloured, by font, char, pixel size and style: one component's
/// labels mostly share a font, a size and a colour.
#[derive(Default)]
pub struct GlyphCache {
    vector: HashMap<VectorKey, Option<RasterGlyph>>,
    bitmap: HashMap<(u64, char, u32), Option<Pixmap>>,
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

    fn vector(
        &mut self,
        font: &fontdue::Font,
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

    fn bitmap(
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

fn rgba(color: Color) -> u32 {
    let c = color.to_color_u8();
    u32::from_be_bytes([c.red(), c.green(), c.blue(), c.alpha()])
}

/// `image` multiplied by `color`, as the runtime's vertex colours tint a glyph quad.
fn modulate(image: &Pixmap, color: Color) -> Option<Pixmap> {
    let mut out = image.clone();
    let rect = Rect::from_xywh(0.0, 0.0, image.width() as f32, image.height() as f32)?;
    let mut paint = Paint::default();
    paint.set_color(color);
    paint.blend_mode = BlendMode::Modulate;
    paint.anti_alias = false;
    out.fill_rect(rect, &paint, Transform::identity(), None);
    Some(out)
}

fn raster_vector(
    font: &fontdue::Font,
    ch: char,
    px: f32,
    bold_px: u32,
    italic: bool,
    color: Color,
) -> Option<RasterGlyph> {
    let (m, coverage) = font.rasterize(ch, px);
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
fn dilate(coverage: &[u8], w: usize, h: usize, by: usize) -> Vec<u8> {
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

#[derive(Clone, Copy)]
enum Src<'a> {
    /// Takes no room and draws nothing (newlines, controls, absent bitmap glyphs).
    Nothing,
    /// Room, nothing drawn.
    Space,
    Vector(&'a fontdue::Font, char),
    Bitmap(&'a BitmapGlyph, char),
    /// No font has it and there is no `□` either.
    Box,
}

#[derive(Clone, Copy)]
struct Item<'a> {
    ch: char,
    src: Src<'a>,
    width: f32,
    height: f32,
    baseline: f32,
    missing: bool,
}

enum Primary<'a> {
    Vector(&'a fontdue::Font),
    Bitmap(&'a BitmapFont),
}

/// The face at one size: measures chars the way the runtime's `GetGlyph` does.
struct Fonts<'a> {
    primary: Primary<'a>,
    fallback: Option<&'a fontdue::Font>,
    /// Text size in local units (style size × shrink scale).
    size: f32,
    /// Bitmap glyph scale.
    bitmap_scale: f32,
    bold_extra: f32,
    ascent: f32,
    line_height: f32,
}

fn line_metrics(font: &fontdue::Font, size: f32) -> (f32, f32) {
    match font.horizontal_line_metrics(size) {
        Some(m) if m.ascent.is_finite() && m.descent.is_finite() => {
            (m.ascent.round(), (m.ascent - m.descent).round().max(1.0))
        }
        // No hhea: the common proportions.
        _ => ((size * 0.8).round(), (size * 1.2).round().max(1.0)),
    }
}

impl<'a> Fonts<'a> {
    fn new(face: &'a Face, style: &TextStyle, scale: f32) -> Fonts<'a> {
        let size = style.size * scale;
        let fallback = font::bundled();
        match face {
            Face::Vector(f) => {
                let (ascent, line_height) = line_metrics(f, size);
                Fonts {
                    primary: Primary::Vector(f),
                    fallback,
                    size,
                    bitmap_scale: 1.0,
                    bold_extra: if style.bold {
                        (size / 30.0).round().max(1.0)
                    } else {
                        0.0
                    },
                    ascent,
                    line_height,
                }
            }
            Face::Bitmap(b) => {
                let bitmap_scale = if b.resizable {
                    b.scale_for(style.size) * scale
                } else {
                    scale
                };
                let line_height = b.line_height(bitmap_scale);
                Fonts {
                    primary: Primary::Bitmap(b),
                    fallback,
                    size,
                    bitmap_scale,
                    bold_extra: 0.0,
                    ascent: line_height,
                    line_height,
                }
            }
        }
    }

    fn vector_item(&self, font: &'a fontdue::Font, ch: char, missing: bool) -> Item<'a> {
        let advance = font.metrics(ch, self.size).advance_width;
        let advance = if advance.is_finite() {
            advance.round().max(0.0)
        } else {
            0.0
        };
        Item {
            ch,
            src: Src::Vector(font, ch),
            width: advance + self.bold_extra,
            height: self.line_height,
            baseline: self.ascent,
            missing,
        }
    }

    fn measure(&self, ch: char) -> Item<'a> {
        let nothing = Item {
            ch,
            src: Src::Nothing,
            width: 0.0,
            height: 0.0,
            baseline: 0.0,
            missing: false,
        };
        if ch == '\t' {
            // The runtime: a tab is four spaces wide.
            let mut item = self.measure(' ');
            item.ch = '\t';
            item.width *= 4.0;
            return item;
        }
        if ch.is_control() {
            return nothing;
        }
        match self.primary {
            Primary::Vector(font) => {
                if font.has_glyph(ch) {
                    return self.vector_item(font, ch, false);
                }
                if let Some(fb) = self.fallback.filter(|fb| fb.has_glyph(ch)) {
                    return self.vector_item(fb, ch, false);
                }
                if ch.is_whitespace() {
                    let mut item = self.vector_item(font, ' ', false);
                    item.src = Src::Space;
                    return item;
                }
                if font.has_glyph(MISSING) {
                    return self.vector_item(font, MISSING, true);
                }
                if let Some(fb) = self.fallback.filter(|fb| fb.has_glyph(MISSING)) {
                    return self.vector_item(fb, MISSING, true);
                }
                Item {
                    ch,
                    src: Src::Box,
                    width: (self.size * 0.7).round(),
                    height: self.line_height,
                    baseline: self.ascent,
                    missing: true,
                }
            }
            Primary::Bitmap(b) => {
                let s = self.bitmap_scale;
                if ch == ' ' {
                    let height = (b.size as f32 * s).round();
                    return Item {
                        ch,
                        src: Src::Space,
                        width: (b.size as f32 * s / 2.0).round(),
                        height,
                        baseline: height,
                        missing: false,
                    };
                }
                match b.glyph(ch) {
                    Some(g) => {
                        let height = (g.line_height as f32 * s).round();
                        Item {
                            ch,
                            src: Src::Bitmap(g, ch),
                            width: (g.advance as f32 * s).round(),
                            height,
                            baseline: height,
                            missing: g.image.is_none(),
                        }
                    }
                    // The runtime draws nothing for chars a bitmap font lacks.
                    None => Item {
                        missing: true,
                        ..nothing
                    },
                }
            }
        }
    }
}

#[derive(Clone, Copy, Default)]
struct Line {
    start: usize,
    count: usize,
    width: f32,
    height: f32,
    baseline: f32,
    y: f32,
}

struct Layout {
    lines: Vec<Line>,
    text_width: f32,
    text_height: f32,
    ellipsis: Option<usize>,
}

struct LayoutParams {
    width: f32,
    height: f32,
    rect_width: f32,
    rect_height: f32,
    wrap: bool,
    single_line: bool,
    check_edge: bool,
    letter_spacing: f32,
    line_spacing: f32,
    default_height: f32,
}

/// `UpdateLineInfo`: a line's height and baseline from its chars; its width without the
/// chars left out of the measure.
fn finish_line(
    line: &mut Line,
    chars: &[Item<'_>],
    ls: f32,
    prev: Option<&Line>,
    default_height: f32,
) {
    for ci in chars {
        if ci.baseline > line.baseline {
            line.height += ci.baseline - line.baseline;
            line.baseline = ci.baseline;
        }
        if ci.height - ci.baseline > line.height - line.baseline {
            line.height += ci.height - ci.baseline - (line.height - line.baseline);
        }
        if ci.width > 0.0 {
            if line.width != 0.0 {
                line.width += ls;
            }
            line.width += ci.width;
        }
    }
    if line.height == 0.0 {
        line.height = prev.map_or(default_height, |p| p.height);
    }
}

fn build_lines(items: &[Item<'_>], p: &LayoutParams) -> Layout {
    let ls = p.letter_spacing;
    let mut lines: Vec<Line> = Vec::new();
    let mut line = Line {
        y: GUTTER_Y,
        ..Line::default()
    };
    let mut posx = 0.0f32;
    let mut word_len = 0usize;
    let mut word_possible = false;
    let mut ellipsis = None;
    let next_line = |line: &Line, start: usize| Line {
        start,
        y: (line.y + line.height + p.line_spacing).max(GUTTER_Y),
        ..Line::default()
    };
    for (i, it) in items.iter().enumerate() {
        let ch = it.ch;
        if ch == '\n' || matches!(it.src, Src::Nothing) {
            word_possible = false;
        } else if word_possible {
            if ch.is_whitespace() {
                word_len = 0;
            } else if ch.is_ascii_alphanumeric() || matches!(ch, '.' | '"' | '\'') {
                word_len += 1;
            } else {
                word_possible = false;
            }
        } else if ch.is_whitespace() {
            word_len = 0;
            word_possible = true;
        }
        if it.width != 0.0 {
            if posx != 0.0 {
                posx += ls;
            }
            posx += it.width;
        }
        if ch == '\n' && !p.single_line {
            let start = line.start;
            let n = i + 1 - start;
            finish_line(
                &mut line,
                &items[start..=i],
                ls,
                lines.last(),
                p.default_height,
            );
            line.count = n;
            if p.check_edge && line.y + line.height < p.rect_height {
                ellipsis = Some(line.start + n.saturating_sub(2));
            }
            let new = next_line(&line, i + 1);
            lines.push(line);
            line = new;
            word_possible = false;
            posx = 0.0;
        } else if posx > p.rect_width {
            let n = i + 1 - line.start;
            if p.wrap {
                // Move a broken word (short enough) to the next line, else the last char.
                let (measured, kept) = if word_possible && word_len < 20 && n > 2 {
                    (n.saturating_sub(word_len + 1), n.saturating_sub(word_len))
                } else {
                    let moved = usize::from(n > 1);
                    (n - moved, n - moved)
                };
                let start = line.start;
                finish_line(
                    &mut line,
                    &items[start..start + measured],
                    ls,
                    lines.last(),
                    p.default_height,
                );
                line.count = kept;
                let new = next_line(&line, start + kept);
                posx = 0.0;
                for moved in &items[start + kept..=i] {
                    if moved.width != 0.0 {
                        if posx != 0.0 {
                            posx += ls;
                        }
                        posx += moved.width;
                    }
                }
                if p.check_edge && line.y + line.height < p.rect_height {
                    ellipsis = Some(line.start + line.count.saturating_sub(2));
                }
                lines.push(line);
                line = new;
                word_possible = false;
            } else if p.check_edge && ellipsis.is_none() {
                ellipsis = Some(line.start + n.saturating_sub(3));
            }
        }
    }
    let start = line.start.min(items.len());
    finish_line(
        &mut line,
        &items[start..],
        ls,
        lines.last(),
        p.default_height,
    );
    line.count = items.len() - start;
    lines.push(line);
    let mut text_width = lines.iter().fold(0.0f32, |w, l| w.max(l.width));
    if text_width > 0.0 {
        text_width += GUTTER_X * 2.0;
    }
    let text_height = line.y + line.height + GUTTER_Y;
    if p.check_edge && text_width <= p.width && text_height <= p.height + GUTTER_Y {
        ellipsis = None;
    }
    Layout {
        lines,
        text_width: text_width.round(),
        text_height: text_height.round(),
        ellipsis,
    }
}

/// Text prepared for layout: capped, with `\r\n` and `\r` as `\n`.
fn normalise(text: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(text.len().min(MAX_CHARS));
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if out.len() >= MAX_CHARS {
            break;
        }
        if c == '\r' {
            if chars.peek() == Some(&'\n') {
                chars.next();
            }
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    out
}

struct Built<'a> {
    fonts: Fonts<'a>,
    items: Vec<Item<'a>>,
    layout: Layout,
    letter_spacing: f32,
}

fn build<'a>(
    chars: &[char],
    face: &'a Face,
    style: &TextStyle,
    p: &mut LayoutParams,
    scale: f32,
) -> Built<'a> {
    let fonts = Fonts::new(face, style, scale);
    let items: Vec<Item<'a>> = chars.iter().map(|&c| fonts.measure(c)).collect();
    p.letter_spacing = style.letter_spacing * scale;
    p.line_spacing = (style.leading - 1.0) * scale;
    let layout = build_lines(&items, p);
    Built {
        letter_spacing: p.letter_spacing,
        fonts,
        items,
        layout,
    }
}

/// `DoShrink`: the largest whole font size (at most the style's) whose layout fits the box.
fn shrink<'a>(
    chars: &[char],
    face: &'a Face,
    style: &TextStyle,
    p: &mut LayoutParams,
    first: Built<'a>,
) -> Built<'a> {
    let size = style.size;
    if first.layout.lines.len() > 1 && first.layout.text_height > p.height {
        let mut low = 0i32;
        let mut high = size.floor() as i32;
        let mut cur = ((p.height / first.layout.text_height).sqrt() * size).floor() as i32;
        let mut built = first;
        // A binary search over sizes: a few dozen rounds at most.
        for _ in 0..40 {
            built = build(chars, face, style, p, cur as f32 / size);
            if built.layout.text_width > p.width || built.layout.text_height > p.height {
                high = cur;
            } else {
                low = cur;
            }
            if high - low > 1 || high != low && cur == high {
                cur = low + (high - low) / 2;
            } else {
                break;
            }
        }
        built
    } else if first.layout.text_width > p.width && first.layout.text_width > 0.0 {
        let scale = p.width / first.layout.text_width;
        let built = build(chars, face, style, p, scale);
        if built.layout.text_width > p.width {
            let smaller = ((size * scale).floor() - 1.0).max(0.0);
            build(chars, face, style, p, smaller / size)
        } else {
            built
        }
    } else {
        first
    }
}

/// Something to draw, in the text box's local coordinates.
enum Mark<'a> {
    /// Pen on the baseline.
    Vector {
        font: &'a fontdue::Font,
        ch: char,
        x: f32,
        y: f32,
    },
    /// Image top-left.
    Bitmap {
        glyph: &'a BitmapGlyph,
        ch: char,
        x: f32,
        y: f32,
    },
    /// Underline, strikethrough, the sides of a missing-glyph box.
    Rect(Rect),
}

/// Draws `text` into the box (0..width, 0..height) that `transform` maps onto `canvas`.
#[allow(clippy::too_many_arguments)]
pub fn draw(
    canvas: &mut PixmapMut<'_>,
    transform: Transform,
    width: f32,
    height: f32,
    text: &str,
    style: &TextStyle,
    face: &Face,
    cache: &mut GlyphCache,
) -> TextReport {
    let mut report = TextReport::default();
    let sane = |v: f32| v.is_finite() && v.abs() < 1.0e6;
    if text.is_empty()
        || !transform.is_finite()
        || !sane(width)
        || !sane(height)
        || !sane(style.leading)
        || !sane(style.letter_spacing)
        || !(style.size.is_finite() && style.size >= 1.0)
    {
        return report;
    }
    let mut style = style.clone();
    style.size = style.size.min(MAX_FONT_SIZE);
    let style = &style;
    let chars = normalise(text);
    let auto_size = style.auto_size;
    let mut p = LayoutParams {
        width,
        height,
        rect_width: width - GUTTER_X * 2.0,
        rect_height: 0.0,
        wrap: !style.single_line && auto_size != 1,
        single_line: style.single_line,
        check_edge: auto_size == 4,
        letter_spacing: 0.0,
        line_spacing: 0.0,
        default_height: style.size,
    };
    let base_fonts = Fonts::new(face, style, 1.0);
    p.rect_height = if height > 0.0 {
        height.max(base_fonts.line_height)
    } else {
        0.0
    };
    let mut built = build(&chars, face, style, &mut p, 1.0);
    if auto_size == 3 {
        built = shrink(&chars, face, style, &mut p, built);
    }
    let Built {
        fonts,
        items,
        layout,
        letter_spacing: ls,
    } = built;

    // ApplyVertAlign.
    let y_offset = if auto_size == 1 || auto_size == 2 || style.v_align <= 0 {
        0.0
    } else {
        let dh = if layout.text_height == 0.0 {
            layout.lines.first().map_or(0.0, |l| height - l.height)
        } else {
            height - layout.text_height
        }
        .max(0.0);
        if style.v_align == 1 {
            (dh / 2.0).floor()
        } else {
            dh
        }
    };

    let clipping = auto_size == 0 || auto_size == 4;
    let ellipsis_item = fonts.measure(ELLIPSIS);
    let thickness = (fonts.size / 16.0).max(1.0);
    let underline_drop = match fonts.primary {
        Primary::Vector(f) if f.has_glyph('_') => {
            let ymin = f.metrics('_', fonts.size).bounds.ymin;
            if ymin.is_finite() {
                (-ymin - thickness).round().max(1.0)
            } else {
                thickness
            }
        }
        _ => (fonts.size * 0.1).round().max(1.0),
    };
    let mut marks: Vec<Mark<'_>> = Vec::new();
    for (li, line) in layout.lines.iter().enumerate() {
        let ly = line.y + y_offset;
        if li != 0 && ly >= height.max(p.rect_height) {
            // Lines below the box are not drawn (the runtime clips them, or the box would
            // have grown to hold them); also bounds the work.
            break;
        }
        if line.count == 0 || (clipping && li != 0 && ly + line.height > p.rect_height) {
            continue;
        }
        let indent = match style.align {
            1 => ((p.rect_width - line.width) / 2.0).trunc(),
            2 => p.rect_width - line.width,
            _ => 0.0,
        }
        .max(0.0);
        let first_x = GUTTER_X + indent;
        let mut posx = first_x;
        let baseline = ly + line.baseline;
        for (idx, item) in items.iter().enumerate().skip(line.start).take(line.count) {
            let is_ellipsis = layout.ellipsis == Some(idx);
            let it = if is_ellipsis { &ellipsis_item } else { item };
            if !is_ellipsis
                && clipping
                && (p.rect_width < 7.0 || posx != first_x)
                && posx + it.width > width - GUTTER_X + 0.5
            {
                // Past the right edge: the runtime leaves the char out.
                posx += ls + it.width;
                continue;
            }
            if it.missing {
                report.missing_glyphs += 1;
            }
            match it.src {
                Src::Nothing | Src::Space => {}
                Src::Vector(font, ch) => marks.push(Mark::Vector {
                    font,
                    ch,
                    x: posx,
                    y: baseline,
                }),
                Src::Bitmap(glyph, ch) => {
                    let s = fonts.bitmap_scale;
                    marks.push(Mark::Bitmap {
                        glyph,
                        ch,
                        x: posx + glyph.x * s,
                        y: baseline - (glyph.line_height as f32 - glyph.y) * s,
                    });
                }
                Src::Box => {
                    let t = thickness;
                    let (x0, w) = (posx + fonts.size * 0.1, fonts.size * 0.5);
                    let (y0, h) = (baseline - fonts.size * 0.7, fonts.size * 0.7);
                    for r in [
                        Rect::from_xywh(x0, y0, w, t),
                        Rect::from_xywh(x0, y0 + h - t, w, t),
                        Rect::from_xywh(x0, y0, t, h),
                        Rect::from_xywh(x0 + w - t, y0, t, h),
                    ]
                    .into_iter()
                    .flatten()
                    {
                        marks.push(Mark::Rect(r));
                    }
                }
            }
            if it.width > 0.0 || is_ellipsis {
                posx += ls + it.width;
            }
            if is_ellipsis {
                break;
            }
        }
        let mut end = posx - ls;
        if clipping {
            end = end.clamp(GUTTER_X, GUTTER_X + p.rect_width.max(0.0));
        }
        if end > first_x {
            if style.underline
                && let Some(r) =
                    Rect::from_xywh(first_x, baseline + underline_drop, end - first_x, thickness)
            {
                marks.push(Mark::Rect(r));
            }
            if style.strikethrough
                && let Some(r) = Rect::from_xywh(
                    first_x,
                    baseline - (fonts.size * 0.4).round(),
                    end - first_x,
                    thickness,
                )
            {
                marks.push(Mark::Rect(r));
            }
        }
    }

    let painter = Painter {
        transform,
        size: fonts.size,
        bitmap_scale: fonts.bitmap_scale,
        bold: style.bold,
        italic: style.italic,
        face,
    };
    let stroke_offsets: Vec<(f32, f32)> = match style.stroke {
        Some((_, r)) if r.is_finite() && r > 0.0 => {
            let r = r.min(64.0);
            [
                (-1.0, 0.0),
                (1.0, 0.0),
                (0.0, -1.0),
                (0.0, 1.0),
                (-1.0, -1.0),
                (1.0, -1.0),
                (-1.0, 1.0),
                (1.0, 1.0),
            ]
            .iter()
            .map(|(dx, dy)| (dx * r, dy * r))
            .collect()
        }
        _ => Vec::new(),
    };
    // Like the runtime's mesh: every shadow beneath every stroke beneath every glyph, and the
    // shadow copies the stroke too.
    if let Some((shadow, dx, dy)) = style.shadow
        && dx.is_finite()
        && dy.is_finite()
        && (dx != 0.0 || dy != 0.0)
    {
        let (dx, dy) = (dx.clamp(-1.0e4, 1.0e4), dy.clamp(-1.0e4, 1.0e4));
        let mut offsets = vec![(dx, dy)];
        offsets.extend(stroke_offsets.iter().map(|(x, y)| (x + dx, y + dy)));
        painter.pass(canvas, cache, &marks, shadow, &offsets, false);
    }
    if let Some((stroke, _)) = style.stroke
        && !stroke_offsets.is_empty()
    {
        painter.pass(canvas, cache, &marks, stroke, &stroke_offsets, false);
    }
    painter.pass(canvas, cache, &marks, style.color, &[(0.0, 0.0)], true);
    report
}

struct Painter<'f> {
    transform: Transform,
    size: f32,
    bitmap_scale: f32,
    bold: bool,
    italic: bool,
    face: &'f Face,
}

impl Painter<'_> {
    fn axis_aligned(&self) -> bool {
        let t = self.transform;
        t.kx == 0.0 && t.ky == 0.0 && t.sx > 0.0 && t.sy > 0.0
    }

    /// How many canvas pixels one local unit spans (for rasterizing crisp at that size).
    fn raster_scale(&self) -> f32 {
        let t = self.transform;
        if self.axis_aligned() {
            t.sy
        } else {
            (t.sx * t.sy - t.kx * t.ky).abs().sqrt()
        }
    }

    fn pass(
        &self,
        canvas: &mut PixmapMut<'_>,
        cache: &mut GlyphCache,
        marks: &[Mark<'_>],
        color: Color,
        offsets: &[(f32, f32)],
        fill: bool,
    ) {
        if color.alpha() <= 0.0 {
            return;
        }
        let k = self.raster_scale();
        let raster_px = (self.size * k).min(MAX_RASTER_PX);
        let px8 = (raster_px * 8.0).round();
        let raster_px = px8 / 8.0;
        let unit = if raster_px > 0.0 {
            self.size / raster_px
        } else {
            0.0
        };
        let bold_px = if self.bold {
            (raster_px / 30.0).round().max(1.0) as u32
        } else {
            0
        };
        let mut paint = Paint::default();
        paint.set_color(color);
        paint.anti_alias = !self.axis_aligned();
        for mark in marks {
            match *mark {
                Mark::Vector { font, ch, x, y } => {
                    if raster_px < 0.5 {
                        continue;
                    }
                    let key = VectorKey {
                        font: font.file_hash(),
                        ch,
                        px8: px8 as u32,
                        bold_px,
                        italic: self.italic,
                        rgba: rgba(color),
                    };
                    let Some(g) = cache.vector(font, key, color) else {
                        continue;
                    };
                    for &(ox, oy) in offsets {
                        let lx = x + ox + g.left as f32 * unit;
                        let ly = y + oy + g.top as f32 * unit;
                        blit(canvas, self.transform, &g.pixmap, lx, ly, unit);
                    }
                }
                Mark::Bitmap { glyph, ch, x, y } => {
                    let (Some(image), Face::Bitmap(font)) = (glyph.image.as_ref(), self.face)
                    else {
                        continue;
                    };
                    let plain = fill && (!font.tint || color::is_white(color));
                    let img = if plain {
                        Some(image)
                    } else {
                        cache.bitmap(font, ch, image, color)
                    };
                    let Some(img) = img else {
                        continue;
                    };
                    for &(ox, oy) in offsets {
                        blit(
                            canvas,
                            self.transform,
                            img,
                            x + ox,
                            y + oy,
                            self.bitmap_scale,
                        );
                    }
                }
                Mark::Rect(r) => {
                    for &(ox, oy) in offsets {
                        let moved = Rect::from_xywh(r.x() + ox, r.y() + oy, r.width(), r.height());
                        if let Some(moved) = moved {
                            canvas.fill_rect(moved, &paint, self.transform, None);
                        }
                    }
                }
            }
        }
    }
}

/// Draws `img` with its top-left at local (x, y), each image pixel `unit` local units wide.
/// The common case (axis-aligned, one image pixel per canvas pixel) lands on whole pixels
/// without filtering.
fn blit(canvas: &mut PixmapMut<'_>, t: Transform, img: &Pixmap, x: f32, y: f32, unit: f32) {
    let one_to_one = t.kx == 0.0
        && t.ky == 0.0
        && (t.sx * unit - 1.0).abs() < 1.0e-3
        && (t.sy * unit - 1.0).abs() < 1.0e-3;
    if one_to_one {
        let cx = (t.sx * x + t.tx).round();
        let cy = (t.sy * y + t.ty).round();
        let (w, h) = (img.width() as f32, img.height() as f32);
        if cx + w <= 0.0
            || cy + h <= 0.0
            || cx >= canvas.width() as f32
            || cy >= canvas.height() as f32
        {
            return;
        }
        let paint = PixmapPaint {
            quality: FilterQuality::Nearest,
            ..PixmapPaint::default()
        };
        canvas.draw_pixmap(
            cx as i32,
            cy as i32,
            img.as_ref(),
            &paint,
            Transform::identity(),
            None,
        );
    } else {
        let paint = PixmapPaint {
            quality: FilterQuality::Bilinear,
            ..PixmapPaint::default()
        };
        let placed = t.pre_translate(x, y).pre_scale(unit, unit);
        canvas.draw_pixmap(0, 0, img.as_ref(), &paint, placed, None);
    }
}

/// UBB tag names FairyGUI's `UBBParser` knows; other bracketed text is literal.
const UBB_TAGS: &[&str] = &[
    "b", "i", "u", "s", "sup", "sub", "color", "size", "font", "url", "img", "align",
];

/// Rich text as plain text: UBB tags (`ubb`) and/or HTML tags and entities (`html`) removed,
/// `[img]…[/img]` and `<img …>` dropped, `<br>` and `</p>` as newlines. The bool says whether
/// anything was removed, so the caller can say the styling was approximated.
pub fn strip_markup(text: &str, ubb: bool, html: bool) -> (String, bool) {
    let mut changed = false;
    let mut out = text.to_string();
    if ubb {
        let (s, c) = strip_ubb(&out);
        out = s;
        changed |= c;
    }
    if html {
        let (s, c) = strip_html(&out);
        out = s;
        changed |= c;
    }
    (out, changed)
}

fn strip_ubb(text: &str) -> (String, bool) {
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        // `\[` is a literal bracket in the runtime.
        if open > 0 && rest[..open].ends_with('\\') {
            out.push_str(&rest[..open - 1]);
            out.push('[');
            rest = &rest[open + 1..];
            changed = true;
            continue;
        }
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find(']') else {
            out.push_str(&rest[open..]);
            return (out, changed);
        };
        let inner = &after[..close];
        let closing = inner.starts_with('/');
        let name_part = inner.trim_start_matches('/');
        let name_end = name_part
            .find(|c: char| c == '=' || c.is_whitespace())
            .unwrap_or(name_part.len());
        let name = name_part[..name_end].to_ascii_lowercase();
        if !UBB_TAGS.contains(&name.as_str()) || (closing && name_end != name_part.len()) {
            out.push('[');
            rest = after;
            continue;
        }
        changed = true;
        rest = &after[close + 1..];
        if name == "img" && !closing {
            // The image's address is not text.
            match rest.to_ascii_lowercase().find("[/img]") {
                Some(end) => rest = &rest[end + "[/img]".len()..],
                None => rest = "",
            }
        }
    }
    out.push_str(rest);
    (out, changed)
}

fn strip_html(text: &str) -> (String, bool) {
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut rest = text;
    loop {
        let Some(pos) = rest.find(['<', '&']) else {
            out.push_str(rest);
            break;
        };
        out.push_str(&rest[..pos]);
        let tail = &rest[pos..];
        if let Some(after) = tail.strip_prefix('<') {
            let looks_like_tag = after
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '/' || c == '!');
            match tail.find('>') {
                Some(end) if looks_like_tag => {
                    let tag = after[..end - 1]
                        .trim()
                        .trim_end_matches('/')
                        .trim()
                        .to_ascii_lowercase();
                    let name = tag.split_whitespace().next().unwrap_or("");
                    if name == "br" || name == "/p" {
                        out.push('\n');
                    }
                    changed = true;
                    rest = &tail[end + 1..];
                }
                _ => {
                    out.push('<');
                    rest = after;
                }
            }
        } else {
            let end = tail.find(';').filter(|&e| e <= 10);
            let decoded = end.and_then(|e| decode_entity(&tail[1..e]));
            match (end, decoded) {
                (Some(e), Some(c)) => {
                    out.push(c);
                    changed = true;
                    rest = &tail[e + 1..];
                }
                _ => {
                    out.push('&');
                    rest = &tail[1..];
                }
            }
        }
    }
    (out, changed)
}

fn decode_entity(name: &str) -> Option<char> {
    Some(match name {
        "lt" => '<',
        "gt" => '>',
        "amp" => '&',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => ' ',
        _ => {
            let num = name.strip_prefix('#')?;
            let code = match num.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => num.parse().ok()?,
            };
            char::from_u32(code)?
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::bitmap::{FntChar, FntCommon, FntFile, FntInfo, GlyphImageRef};
    use std::sync::Arc;

    const W: u32 = 200;
    const H: u32 = 40;

    fn face() -> Face {
        Face::bundled().expect("bundled font")
    }

    fn black(size: f32) -> TextStyle {
        TextStyle {
            size,
            color: Color::BLACK,
            ..TextStyle::default()
        }
    }

    /// Draws into a fresh transparent pixmap of the box's size.
    fn render(w: u32, h: u32, text: &str, style: &TextStyle, face: &Face) -> (Pixmap, TextReport) {
        let mut pixmap = Pixmap::new(w, h).expect("pixmap");
        let mut cache = GlyphCache::new();
        let report = draw(
            &mut pixmap.as_mut(),
            Transform::identity(),
            w as f32,
            h as f32,
            text,
            style,
            face,
            &mut cache,
        );
        (pixmap, report)
    }

    /// Bounding box (x0, y0, x1, y1 inclusive) of pixels matching `keep`.
    fn ink_where(
        p: &Pixmap,
        keep: impl Fn(tiny_skia::ColorU8) -> bool,
    ) -> Option<(u32, u32, u32, u32)> {
        let mut b: Option<(u32, u32, u32, u32)> = None;
        for (i, px) in p.pixels().iter().enumerate() {
            if px.alpha() > 0 && keep(px.demultiply()) {
                let (x, y) = (i as u32 % p.width(), i as u32 / p.width());
                b = Some(match b {
                    None => (x, y, x, y),
                    Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
                });
            }
        }
        b
    }

    fn ink(p: &Pixmap) -> (u32, u32, u32, u32) {
        ink_where(p, |_| true).expect("some ink")
    }

    fn inside_gutter(b: (u32, u32, u32, u32), w: u32, h: u32) {
        assert!(
            b.0 >= 2 && b.1 >= 2 && b.2 < w - 2 && b.3 < h - 2,
            "ink {b:?} outside the gutter of {w}x{h}"
        );
    }

    #[test]
    fn horizontal_alignment_places_the_ink() {
        let mut style = black(20.0);
        let mut boxes = Vec::new();
        for align in 0..3 {
            style.align = align;
            let (p, report) = render(W, H, "Hello", &style, &face());
            assert_eq!(report.missing_glyphs, 0);
            let b = ink(&p);
            inside_gutter(b, W, H);
            boxes.push(b);
        }
        let (l, c, r) = (boxes[0], boxes[1], boxes[2]);
        assert!(l.0 <= 4, "left-aligned starts at the gutter: {l:?}");
        let centre = (c.0 + c.2) as f32 / 2.0;
        assert!((centre - W as f32 / 2.0).abs() <= 3.0, "centred: {c:?}");
        assert!(r.2 >= W - 2 - 4, "right-aligned ends at the gutter: {r:?}");
        // Same glyphs, only moved.
        assert_eq!(l.2 - l.0, r.2 - r.0);
        assert_eq!((l.1, l.3), (r.1, r.3));
    }

    #[test]
    fn vertical_alignment_places_the_ink() {
        let mut style = black(20.0);
        let h = 80;
        let mut boxes = Vec::new();
        for v_align in 0..3 {
            style.v_align = v_align;
            let (p, _) = render(W, h, "Hello", &style, &face());
            let b = ink(&p);
            inside_gutter(b, W, h);
            boxes.push(b);
        }
        let (t, m, b) = (boxes[0], boxes[1], boxes[2]);
        assert!(t.1 <= 8, "top: {t:?}");
        let middle = (m.1 + m.3) as f32 / 2.0;
        assert!((middle - h as f32 / 2.0).abs() <= 5.0, "middle: {m:?}");
        assert!(b.3 >= h - 2 - 8, "bottom: {b:?}");
        assert!(t.1 < m.1 && m.1 < b.1);
    }

    #[test]
    fn missing_glyphs_are_counted_and_still_drawn() {
        let (p, report) = render(W, H, "中文", &black(20.0), &face());
        assert_eq!(report.missing_glyphs, 2);
        assert!(
            ink_where(&p, |_| true).is_some(),
            "boxes drawn for missing glyphs"
        );
        let (_, report) = render(W, H, "Añ€→", &black(20.0), &face());
        assert_eq!(report.missing_glyphs, 0);
    }

    #[test]
    fn wraps_long_text_onto_lines_inside_the_box() {
        let style = black(14.0);
        let (w, h) = (80, 200);
        let (p, _) = render(
            w,
            h,
            "The quick brown fox jumps over the lazy dog again",
            &style,
            &face(),
        );
        let b = ink(&p);
        let line = line_metrics(font::bundled().expect("font"), 14.0).1;
        assert!(
            (b.3 - b.1) as f32 > 2.0 * line,
            "several lines: {b:?}, line {line}"
        );
        assert!(b.2 < w - 2 + 1, "nothing past the right edge: {b:?}");
        // Single-line text does not wrap: one line of ink, cut at the edge.
        let single = TextStyle {
            single_line: true,
            ..style.clone()
        };
        let (p, _) = render(
            w,
            h,
            "The quick brown fox jumps over the lazy dog again",
            &single,
            &face(),
        );
        let b1 = ink(&p);
        assert!(((b1.3 - b1.1) as f32) < line * 1.2, "one line: {b1:?}");
        assert!(b1.2 < w);
    }

    #[test]
    fn newlines_break_lines() {
        let (p1, _) = render(W, 100, "Hello", &black(16.0), &face());
        let (p2, _) = render(W, 100, "Hello\r\nHello\rHello", &black(16.0), &face());
        let (a, b) = (ink(&p1), ink(&p2));
        assert!(b.3 - b.1 > 2 * (a.3 - a.1), "{a:?} vs {b:?}");
        assert_eq!(a.2, b.2, "lines are not wider");
    }

    #[test]
    fn shrink_keeps_the_ink_inside_the_box() {
        let text = "A label much too long for its box";
        let plain = black(24.0);
        let (p, _) = render(
            100,
            30,
            text,
            &TextStyle {
                auto_size: 1,
                ..plain.clone()
            },
            &face(),
        );
        // Auto-size "both" neither wraps nor clips: the box would have grown.
        assert!(ink(&p).2 >= 99, "unshrunk text runs past the edge");
        let shrink = TextStyle {
            auto_size: 3,
            single_line: true,
            ..plain.clone()
        };
        let (p, _) = render(100, 30, text, &shrink, &face());
        let b = ink(&p);
        assert!(b.2 < 100 && b.3 < 30, "{b:?}");
        assert!(b.2 - b.0 > 60, "shrunk, not vanished: {b:?}");
        // Multi-line shrink.
        let multi = TextStyle {
            auto_size: 3,
            ..plain
        };
        let (p, _) = render(100, 40, text, &multi, &face());
        let b = ink(&p);
        assert!(b.2 < 100 && b.3 < 40, "{b:?}");
    }

    #[test]
    fn ellipsis_cuts_the_line_with_three_dots() {
        let style = TextStyle {
            auto_size: 4,
            single_line: true,
            ..black(16.0)
        };
        let (p, _) = render(80, 30, "Something quite long", &style, &face());
        let b = ink(&p);
        assert!(b.2 < 80 - 2 + 1, "{b:?}");
        // The ellipsis is a row of dots at the baseline: the rightmost ink column is short.
        let col: Vec<u32> = (0..30)
            .filter(|&y| p.pixel(b.2, y).is_some_and(|c| c.alpha() > 0))
            .collect();
        assert!(col.len() <= 4, "rightmost column is a dot: {col:?}");
    }

    #[test]
    fn underline_adds_ink_below_the_baseline() {
        let (plain, _) = render(W, H, "Hello", &black(20.0), &face());
        let style = TextStyle {
            underline: true,
            ..black(20.0)
        };
        let (under, _) = render(W, H, "Hello", &style, &face());
        let (a, b) = (ink(&plain), ink(&under));
        assert!(b.3 > a.3, "underline below the glyphs: {a:?} vs {b:?}");
        assert!(b.3 < H - 2);
        let strike = TextStyle {
            strikethrough: true,
            ..black(20.0)
        };
        let (s, _) = render(W, H, "Hello", &strike, &face());
        assert_eq!(ink(&s).3, a.3, "strikethrough stays within the glyphs");
        assert!(s.data() != plain.data());
    }

    #[test]
    fn shadow_and_stroke_draw_their_colours_around_the_glyph() {
        let red = Color::from_rgba8(255, 0, 0, 255);
        let style = TextStyle {
            shadow: Some((red, 3.0, 4.0)),
            ..black(20.0)
        };
        let (p, _) = render(W, H, "Hello", &style, &face());
        let is_red = |c: tiny_skia::ColorU8| c.red() > 200 && c.green() < 50;
        let is_black = |c: tiny_skia::ColorU8| c.red() < 30 && c.green() < 30 && c.alpha() > 200;
        let r = ink_where(&p, is_red).expect("shadow ink");
        let k = ink_where(&p, is_black).expect("glyph ink");
        assert!(
            (r.0 as i32 - k.0 as i32 - 3).abs() <= 1 && (r.1 as i32 - k.1 as i32 - 4).abs() <= 1,
            "{r:?} vs {k:?}"
        );
        let stroke = TextStyle {
            stroke: Some((red, 2.0)),
            ..black(20.0)
        };
        let (p, _) = render(W, H, "Hello", &stroke, &face());
        let r = ink_where(&p, is_red).expect("stroke ink");
        let k = ink_where(&p, is_black).expect("glyph ink on top");
        assert!(
            r.0 + 1 < k.0 && r.2 > k.2 + 1 && r.1 < k.1,
            "stroke around: {r:?} vs {k:?}"
        );
    }

    #[test]
    fn bold_and_italic_change_the_ink() {
        let (plain, _) = render(W, H, "Hello", &black(20.0), &face());
        let (bold, _) = render(
            W,
            H,
            "Hello",
            &TextStyle {
                bold: true,
                ..black(20.0)
            },
            &face(),
        );
        let (italic, _) = render(
            W,
            H,
            "Hello",
            &TextStyle {
                italic: true,
                ..black(20.0)
            },
            &face(),
        );
        let count = |p: &Pixmap| p.pixels().iter().filter(|c| c.alpha() > 128).count();
        assert!(count(&bold) > count(&plain) * 11 / 10);
        assert!(ink(&bold).2 > ink(&plain).2);
        assert_ne!(italic.data(), plain.data());
        assert_eq!(ink(&italic).3, ink(&plain).3, "skewed about the baseline");
    }

    #[test]
    fn a_transform_moves_and_scales_the_text() {
        let style = black(20.0);
        let mut cache = GlyphCache::new();
        let mut p = Pixmap::new(400, 100).expect("pixmap");
        draw(
            &mut p.as_mut(),
            Transform::from_translate(50.0, 30.0),
            W as f32,
            H as f32,
            "Hello",
            &style,
            &face(),
            &mut cache,
        );
        let (one, _) = render(W, H, "Hello", &style, &face());
        let (a, b) = (ink(&one), ink(&p));
        assert_eq!((b.0 - 50, b.1 - 30, b.2 - 50, b.3 - 30), a);
        let mut p2 = Pixmap::new(400, 100).expect("pixmap");
        draw(
            &mut p2.as_mut(),
            Transform::from_scale(2.0, 2.0),
            W as f32,
            H as f32,
            "Hello",
            &style,
            &face(),
            &mut cache,
        );
        let c = ink(&p2);
        assert!(
            ((c.2 - c.0) as i32 - 2 * (a.2 - a.0) as i32).abs() <= 3,
            "{a:?} x2 = {c:?}"
        );
        let mut p3 = Pixmap::new(400, 400).expect("pixmap");
        let rot = Transform::from_rotate(90.0).post_translate(100.0, 0.0);
        draw(
            &mut p3.as_mut(),
            rot,
            W as f32,
            H as f32,
            "Hello",
            &style,
            &face(),
            &mut cache,
        );
        let d = ink(&p3);
        assert!(d.3 - d.1 > d.2 - d.0, "rotated text is tall: {d:?}");
        assert!(!cache.is_empty());
    }

    #[test]
    fn hostile_inputs_do_not_panic_or_hang() {
        let long: String = "word ".repeat(40_000);
        let (_, _) = render(50, 50, &long, &black(12.0), &face());
        let (_, _) = render(1, 1, "x\n\n\n", &black(1000.0), &face());
        let mut style = black(f32::NAN);
        let (p, _) = render(10, 10, "x", &style, &face());
        assert!(ink_where(&p, |_| true).is_none());
        style = TextStyle {
            size: 1.0e9,
            leading: -1.0e5,
            letter_spacing: -50.0,
            stroke: Some((Color::WHITE, f32::INFINITY)),
            shadow: Some((Color::WHITE, f32::NAN, 1.0)),
            auto_size: 3,
            ..black(12.0)
        };
        let (_, _) = render(30, 30, "Hello\tworld", &style, &face());
        let (_, _) = render(
            30,
            30,
            "Hello world",
            &TextStyle {
                auto_size: 4,
                ..black(12.0)
            },
            &face(),
        );
    }

    fn block_font(resizable: bool, colored: Option<bool>) -> Face {
        let fnt = FntFile {
            info: FntInfo {
                creator: Some("UIBuilder".into()),
                resizable,
                colored,
                ..FntInfo::default()
            },
            common: FntCommon::default(),
            pages: Vec::new(),
            chars: vec![FntChar {
                id: '1' as u32,
                xadvance: 5,
                img: Some("blk".into()),
                ..FntChar::default()
            }],
        };
        let font = BitmapFont::build(&fnt, |r| {
            assert_eq!(r, GlyphImageRef::Resource { id: "blk" });
            let mut p = Pixmap::new(4, 6)?;
            p.fill(Color::from_rgba8(0, 0, 255, 255));
            Some(p)
        });
        Face::Bitmap(Arc::new(font))
    }

    #[test]
    fn a_bitmap_font_draws_its_glyph_images() {
        let face = block_font(false, None);
        let (p, report) = render(
            50,
            20,
            "1",
            &TextStyle {
                size: 30.0,
                ..black(30.0)
            },
            &face,
        );
        assert_eq!(report.missing_glyphs, 0);
        // Not resizable: drawn at its own 4x6 whatever the text size; at the gutter.
        assert_eq!(ink(&p), (2, 2, 5, 7));
        // Not tinted (editor fonts default to their own colours): still blue.
        assert_eq!(p.pixel(3, 3).map(|c| c.demultiply().blue()), Some(255));
        // Spaces advance by half the font's size (6 / 2): the second 1 spans x 10..=13;
        // letters it lacks are missing.
        let (p, report) = render(50, 20, "1 1x", &black(12.0), &face);
        assert_eq!(report.missing_glyphs, 1);
        assert_eq!(ink(&p), (2, 2, 13, 7));
        // Resizable follows the text size (font size 6 → 12 doubles it), colored tints.
        let face = block_font(true, Some(true));
        let red = TextStyle {
            color: Color::from_rgba8(255, 0, 0, 255),
            ..black(12.0)
        };
        let (p, _) = render(50, 30, "1", &red, &face);
        assert_eq!(ink(&p), (2, 2, 9, 13));
        // Blue modulated by red is black: the tint multiplies.
        assert_eq!(
            p.pixel(5, 5).map(|c| (c.red(), c.blue(), c.alpha())),
            Some((0, 0, 255))
        );
    }

    #[test]
    fn strips_ubb_and_html_to_plain_text() {
        let (s, c) = strip_markup(
            "[b]Bold[/b] [color=#ff0000]red[/color] [size=20]big[/size] [url=http://x]link[/url][img]ui://a/b[/img]!",
            true,
            false,
        );
        assert_eq!(s, "Bold red big link!");
        assert!(c);
        let (s, c) = strip_markup("score [1] \\[b] a<b", true, false);
        assert_eq!(s, "score [1] [b] a<b");
        assert!(c);
        let (s, c) = strip_markup("plain [text]", true, false);
        assert_eq!((s.as_str(), c), ("plain [text]", false));
        let (s, c) = strip_markup(
            "<font color='#f00'>a</font><b>b</b><br/>c<img src='ui://x'/> &lt;&gt;&amp;&quot;&nbsp;&#65;&#x42; 1 < 2 & 3",
            false,
            true,
        );
        assert_eq!(s, "ab\nc <>&\" AB 1 < 2 & 3");
        assert!(c);
        let (s, _) = strip_markup("[b]x[/b]<i>y</i>", true, true);
        assert_eq!(s, "xy");
        let (s, c) = strip_markup("[b]x<i>", false, false);
        assert_eq!((s.as_str(), c), ("[b]x<i>", false));
    }
}
