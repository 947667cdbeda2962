//! Text layout and drawing for previews, after the FairyGUI runtime's `TextField`
//! (FairyGUI-unity `Core/Text/TextField.cs`): a 2 px gutter, per-char advances plus letter
//! spacing, greedy wrapping that moves a broken word to the next line, `leading - 1` between
//! lines, per-line alignment, vertical alignment of the block, shrink and ellipsis; vector
//! faces get fairygui-three's line metrics and fractional advances, which the runtime
//! comparison checks. Rich text
//! (UBB, HTML) is parsed into styled runs, after `UBBParser` and `HtmlParser`, and laid out
//! the same way with each run in its own style.

use std::collections::HashMap;
use std::rc::Rc;

use tiny_skia::{
    BlendMode, Color, FilterQuality, IntSize, Mask, Paint, Pixmap, PixmapMut, PixmapPaint, Rect,
    Transform,
};

use crate::render::bitmap::{BitmapFont, BitmapGlyph};
use crate::render::color;
use crate::render::font::{self, Face, VectorFont};
use crate::render::shelf;

const GUTTER_X: f32 = 2.0;
const GUTTER_Y: f32 = 2.0;
/// Longer text is cut: a label never holds this much, and layout is linear in it.
const MAX_CHARS: usize = 65_536;
/// Glyphs are rasterized at most this big and scaled beyond, so one glyph's bitmap stays small.
const MAX_RASTER_PX: f32 = 512.0;
const MAX_FONT_SIZE: f32 = 2048.0;
/// Inline images are at most this big on a side (a hostile width must not allocate).
const MAX_IMAGE_SIZE: f32 = 4096.0;
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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TextReport {
    /// Drawn characters that no font had (drawn as `□`/a box, or left out for bitmap fonts).
    pub missing_glyphs: u32,
    /// Inline images [`draw_runs`] could not resolve (their room is kept, nothing drawn).
    pub missing_images: u32,
    /// The machine face characters the text's own face lacked were drawn in, if any.
    pub fallback_family: Option<String>,
    /// A line was broken inside a word (the word alone was wider than the box): where it
    /// breaks depends on the face's widths.
    pub broke_word: bool,
    /// Lines the box cut off below it (the runtime clips them too): how many depends on
    /// where the lines broke.
    pub hidden_lines: u32,
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

    fn vector(&mut self, font: &VectorFont, key: VectorKey, color: Color) -> Option<&RasterGlyph> {
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
    Vector(&'a VectorFont, char),
    Bitmap(&'a BitmapGlyph, char),
    /// No font has it and there is no `□` either.
    Box,
    /// An inline image (its run says which).
    Image,
}

#[derive(Clone, Copy)]
struct Item<'a> {
    ch: char,
    src: Src<'a>,
    width: f32,
    height: f32,
    baseline: f32,
    missing: bool,
    /// Index of the run the char comes from.
    run: u32,
}

enum Primary<'a> {
    Vector(&'a VectorFont),
    Bitmap(&'a BitmapFont),
}

/// The face at one size: measures chars the way the runtime's `GetGlyph` does.
struct Fonts<'a> {
    primary: Primary<'a>,
    fallback: Option<&'a VectorFont>,
    /// Text size in local units (style size × shrink scale).
    size: f32,
    /// Bitmap glyph scale.
    bitmap_scale: f32,
    bold_extra: f32,
    ascent: f32,
    line_height: f32,
    /// The run whose chars these fonts measure.
    run: u32,
}

/// A vector font's baseline (below the line's top) and line height at `size`, as the
/// FairyGUI runtime measured by the runtime comparison lays text out (fairygui-three's
/// `DynamicFont`: the baseline `size` down, lines `1.25 × size` tall, whatever the face's
/// own metrics; FairyGUI-unity uses the face's line height, about `1.15 × size` for Arial).
fn line_metrics(size: f32) -> (f32, f32) {
    (size.round().max(1.0), (size * 1.25).round().max(1.0))
}

impl<'a> Fonts<'a> {
    fn new(face: &'a Face, style: &TextStyle, scale: f32, run: u32) -> Fonts<'a> {
        let size = style.size * scale;
        let fallback = font::bundled();
        match face {
            Face::Vector(f) => {
                let (ascent, line_height) = line_metrics(size);
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
                    run,
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
                    run,
                }
            }
        }
    }

    fn vector_item(&self, font: &'a VectorFont, ch: char, missing: bool) -> Item<'a> {
        // Fractional, as fairygui-three measures it (FairyGUI-unity rounds to whole pixels).
        let advance = font.advance(ch, self.size);
        let advance = if advance.is_finite() {
            advance.max(0.0)
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
            run: self.run,
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
            run: self.run,
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
                if !ch.is_whitespace()
                    && let Some(machine) = shelf::covering(ch)
                {
                    return self.vector_item(machine, ch, false);
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
                    run: self.run,
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
                        run: self.run,
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
                            run: self.run,
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
    /// Some line was broken between two letters or digits of one word.
    broke_word: bool,
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
    let mut broke_word = false;
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
                let letter = |at: usize| items.get(at).is_some_and(|it| it.ch.is_alphanumeric());
                broke_word |= kept > 0 && letter(start + kept - 1) && letter(start + kept);
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
        broke_word,
    }
}

/// Appends `text` to `out` for layout, tagged with its run: capped at `MAX_CHARS` in all,
/// with `\r\n` and `\r` as `\n`.
fn normalise_into(out: &mut Vec<(char, u32)>, text: &str, run: u32) {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if out.len() >= MAX_CHARS {
            break;
        }
        if c == '\r' {
            if chars.peek() == Some(&'\n') {
                chars.next();
            }
            out.push(('\n', run));
        } else {
            out.push((c, run));
        }
    }
}

/// An inline image ready for layout: its pixels (if found) and its box in local units.
struct Inline {
    pixmap: Option<Rc<Pixmap>>,
    width: f32,
    height: f32,
}

/// A run ready for layout: its face and its style with the run's overrides applied.
struct Prepared<'f> {
    face: &'f Face,
    style: TextStyle,
    align: Option<i32>,
    image: Option<Inline>,
}

struct Built<'a> {
    fonts: Vec<Fonts<'a>>,
    items: Vec<Item<'a>>,
    layout: Layout,
    letter_spacing: f32,
}

/// The runtime's placeholder char for an inline image: as wide as the image plus 2, with
/// 80 % of it above the baseline (`TextField.IMAGE_BASELINE`).
const IMAGE_BASELINE: f32 = 0.8;

fn build<'a>(
    chars: &[(char, u32)],
    runs: &[Prepared<'a>],
    style: &TextStyle,
    p: &mut LayoutParams,
    scale: f32,
) -> Built<'a> {
    let fonts: Vec<Fonts<'a>> = runs
        .iter()
        .enumerate()
        .map(|(i, r)| Fonts::new(r.face, &r.style, scale, i as u32))
        .collect();
    let items: Vec<Item<'a>> = chars
        .iter()
        .filter_map(|&(c, run)| {
            let fonts = fonts.get(run as usize)?;
            Some(
                match runs.get(run as usize).and_then(|r| r.image.as_ref()) {
                    // Images keep their size when the text shrinks, as the runtime's do.
                    Some(image) => Item {
                        ch: c,
                        src: Src::Image,
                        width: image.width + 2.0,
                        height: image.height,
                        baseline: image.height * IMAGE_BASELINE,
                        missing: false,
                        run,
                    },
                    None => fonts.measure(c),
                },
            )
        })
        .collect();
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
    chars: &[(char, u32)],
    runs: &[Prepared<'a>],
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
            built = build(chars, runs, style, p, cur as f32 / size);
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
        let built = build(chars, runs, style, p, scale);
        if built.layout.text_width > p.width {
            let smaller = ((size * scale).floor() - 1.0).max(0.0);
            build(chars, runs, style, p, smaller / size)
        } else {
            built
        }
    } else {
        first
    }
}

/// Something to draw, in the text box's local coordinates, in the style of run `run`.
enum Mark<'a> {
    /// Pen on the baseline.
    Vector {
        font: &'a VectorFont,
        ch: char,
        x: f32,
        y: f32,
        run: u32,
    },
    /// Image top-left.
    Bitmap {
        glyph: &'a BitmapGlyph,
        ch: char,
        x: f32,
        y: f32,
        run: u32,
    },
    /// Underline, strikethrough, the sides of a missing-glyph box.
    Rect { rect: Rect, run: u32 },
    /// An inline image scaled into `rect`.
    Image { rect: Rect, run: u32 },
}

/// Values no layout should see: the guard `draw` and `draw_runs` share.
fn sane_box(transform: Transform, width: f32, height: f32, style: &TextStyle) -> bool {
    let sane = |v: f32| v.is_finite() && v.abs() < 1.0e6;
    transform.is_finite()
        && sane(width)
        && sane(height)
        && sane(style.leading)
        && sane(style.letter_spacing)
        && style.size.is_finite()
        && style.size >= 1.0
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
    if text.is_empty() || !sane_box(transform, width, height, style) {
        return TextReport::default();
    }
    let mut style = style.clone();
    style.size = style.size.min(MAX_FONT_SIZE);
    let mut chars = Vec::with_capacity(text.len().min(MAX_CHARS));
    normalise_into(&mut chars, text, 0);
    let runs = [Prepared {
        face,
        style: style.clone(),
        align: None,
        image: None,
    }];
    lay_out_and_paint(
        canvas, transform, width, height, &chars, &runs, &style, face, cache,
    )
}

/// A run's style: the base style with the run's overrides.
fn run_style(base: &TextStyle, over: &RunStyle) -> TextStyle {
    let mut s = base.clone();
    if let Some(c) = over.color {
        s.color = c;
    }
    if let Some(size) = over.size.filter(|v| v.is_finite() && *v >= 1.0) {
        s.size = size.min(MAX_FONT_SIZE);
    }
    s.bold |= over.bold;
    s.italic |= over.italic;
    s.underline |= over.underline || over.link.is_some();
    s.strikethrough |= over.strikethrough;
    s
}

/// Draws styled runs (from [`parse_markup`]) into the box (0..width, 0..height) that
/// `transform` maps onto `canvas`, laid out as [`draw`] lays out plain text. `face_for`
/// gives the face for a run's font (`None`: the node's own; a `None` answer for a named font
/// falls back to the node's), `image_for` an inline image's pixels by URL.
#[allow(clippy::too_many_arguments)]
pub fn draw_runs(
    canvas: &mut PixmapMut<'_>,
    transform: Transform,
    width: f32,
    height: f32,
    runs: &[Run],
    style: &TextStyle,
    face_for: &mut dyn FnMut(Option<&str>) -> Option<Face>,
    image_for: &mut dyn FnMut(&str) -> Option<Rc<Pixmap>>,
    cache: &mut GlyphCache,
) -> TextReport {
    let mut report = TextReport::default();
    if runs.is_empty() || !sane_box(transform, width, height, style) {
        return report;
    }
    let mut style = style.clone();
    style.size = style.size.min(MAX_FONT_SIZE);
    let Some(base_face) = face_for(None) else {
        return report;
    };
    // Faces once per distinct font: index 0 is the node's.
    let mut faces: Vec<Face> = vec![base_face];
    let mut face_names: Vec<Rc<str>> = Vec::new();
    let mut face_index: Vec<usize> = Vec::with_capacity(runs.len());
    for run in runs {
        let index = match run.style.font.as_ref() {
            None => 0,
            Some(name) => match face_names.iter().position(|n| n == name) {
                Some(i) => i + 1,
                None => {
                    let face = face_for(Some(name)).unwrap_or_else(|| faces[0].clone());
                    faces.push(face);
                    face_names.push(name.clone());
                    faces.len() - 1
                }
            },
        };
        face_index.push(index);
    }
    let mut chars: Vec<(char, u32)> = Vec::new();
    let mut prepared: Vec<Prepared<'_>> = Vec::with_capacity(runs.len());
    for (i, (run, &fi)) in runs.iter().zip(&face_index).enumerate() {
        if chars.len() >= MAX_CHARS {
            break;
        }
        let image = match &run.content {
            RunContent::Text(text) => {
                normalise_into(&mut chars, text, i as u32);
                None
            }
            RunContent::Image { url, width, height } => {
                chars.push(('\u{FFFC}', i as u32));
                let pixmap = image_for(url);
                if pixmap.is_none() {
                    report.missing_images += 1;
                }
                // The runtime: the given size, else the image's, else 5×10.
                let own = |given: Option<f32>, natural: Option<u32>, fallback: f32| {
                    given
                        .filter(|v| v.is_finite() && *v > 0.0)
                        .or(natural.map(|n| n as f32).filter(|v| *v > 0.0))
                        .unwrap_or(fallback)
                        .min(MAX_IMAGE_SIZE)
                };
                Some(Inline {
                    width: own(*width, pixmap.as_ref().map(|p| p.width()), 5.0),
                    height: own(*height, pixmap.as_ref().map(|p| p.height()), 10.0),
                    pixmap,
                })
            }
        };
        prepared.push(Prepared {
            face: faces.get(fi).unwrap_or(&faces[0]),
            style: run_style(&style, &run.style),
            align: run.style.align,
            image,
        });
    }
    if chars.is_empty() {
        return report;
    }
    let drawn = lay_out_and_paint(
        canvas, transform, width, height, &chars, &prepared, &style, &faces[0], cache,
    );
    TextReport {
        missing_images: report.missing_images,
        ..drawn
    }
}

/// Layout and drawing of prepared runs; `face` and `style` are the node's own.
#[allow(clippy::too_many_arguments)]
fn lay_out_and_paint(
    canvas: &mut PixmapMut<'_>,
    transform: Transform,
    width: f32,
    height: f32,
    chars: &[(char, u32)],
    runs: &[Prepared<'_>],
    style: &TextStyle,
    face: &Face,
    cache: &mut GlyphCache,
) -> TextReport {
    let mut report = TextReport::default();
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
    let base_fonts = Fonts::new(face, style, 1.0, 0);
    p.rect_height = if height > 0.0 {
        height.max(base_fonts.line_height)
    } else {
        0.0
    };
    let mut built = build(chars, runs, style, &mut p, 1.0);
    if auto_size == 3 {
        built = shrink(chars, runs, style, &mut p, built);
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
    // Per run: line thickness and how far below the baseline an underline sits.
    let lines_of: Vec<(f32, f32)> = fonts
        .iter()
        .map(|f| {
            let thickness = (f.size / 16.0).max(1.0);
            let drop = match f.primary {
                Primary::Vector(v) if v.has_glyph('_') => {
                    let ymin = v.outline_bottom('_', f.size);
                    if ymin.is_finite() {
                        (-ymin - thickness).round().max(1.0)
                    } else {
                        thickness
                    }
                }
                _ => (f.size * 0.1).round().max(1.0),
            };
            (thickness, drop)
        })
        .collect();
    let mut marks: Vec<Mark<'_>> = Vec::new();
    // Underline and strikethrough of one run's stretch of a line.
    let flush = |marks: &mut Vec<Mark<'_>>, seg: Option<(u32, f32, f32)>, baseline: f32| {
        let Some((run, x0, end)) = seg else {
            return;
        };
        let (Some(r), Some(f), Some(&(thickness, drop))) = (
            runs.get(run as usize),
            fonts.get(run as usize),
            lines_of.get(run as usize),
        ) else {
            return;
        };
        let end = if clipping {
            end.clamp(GUTTER_X, GUTTER_X + p.rect_width.max(0.0))
        } else {
            end
        };
        if end <= x0 || r.image.is_some() {
            return;
        }
        if r.style.underline
            && let Some(rect) = Rect::from_xywh(x0, baseline + drop, end - x0, thickness)
        {
            marks.push(Mark::Rect { rect, run });
        }
        if r.style.strikethrough
            && let Some(rect) =
                Rect::from_xywh(x0, baseline - (f.size * 0.4).round(), end - x0, thickness)
        {
            marks.push(Mark::Rect { rect, run });
        }
    };
    report.broke_word = layout.broke_word;
    for (li, line) in layout.lines.iter().enumerate() {
        let ly = line.y + y_offset;
        if li != 0 && ly >= height.max(p.rect_height) {
            // Lines below the box are not drawn (the runtime clips them, or the box would
            // have grown to hold them); also bounds the work.
            let below = layout.lines[li..].iter().filter(|l| l.count > 0).count();
            report.hidden_lines += below as u32;
            break;
        }
        if line.count == 0 {
            continue;
        }
        if clipping && li != 0 && ly + line.height > p.rect_height {
            report.hidden_lines += 1;
            continue;
        }
        // The runtime aligns a line as its first element asks (`<p align>`), else the node.
        let align = items
            .get(line.start)
            .and_then(|it| runs.get(it.run as usize))
            .and_then(|r| r.align)
            .unwrap_or(style.align);
        let indent = match align {
            1 => ((p.rect_width - line.width) / 2.0).trunc(),
            2 => p.rect_width - line.width,
            _ => 0.0,
        }
        .max(0.0);
        let first_x = GUTTER_X + indent;
        let mut posx = first_x;
        let baseline = ly + line.baseline;
        let mut seg: Option<(u32, f32, f32)> = None;
        for (idx, item) in items.iter().enumerate().skip(line.start).take(line.count) {
            let Some(f) = fonts.get(item.run as usize) else {
                continue;
            };
            if seg.is_some_and(|(run, _, _)| run != item.run) {
                flush(&mut marks, seg.take(), baseline);
            }
            if seg.is_none() {
                seg = Some((item.run, posx, posx));
            }
            let is_ellipsis = layout.ellipsis == Some(idx);
            let ellipsis_item;
            let it = if is_ellipsis {
                ellipsis_item = f.measure(ELLIPSIS);
                &ellipsis_item
            } else {
                item
            };
            let run = it.run;
            if !is_ellipsis
                && clipping
                && (p.rect_width < 7.0 || posx != first_x)
                && posx + it.width > width - GUTTER_X + 0.5
            {
                // Past the right edge: the runtime leaves the char out.
                posx += ls + it.width;
                if let Some(s) = seg.as_mut() {
                    s.2 = posx - ls;
                }
                continue;
            }
            if it.missing {
                report.missing_glyphs += 1;
            }
            if let (Src::Vector(font, _), Primary::Vector(own)) = (it.src, &f.primary)
                && !std::ptr::eq(font, *own)
                && !font.family().is_empty()
                && report.fallback_family.is_none()
            {
                report.fallback_family = Some(font.family().to_owned());
            }
            match it.src {
                Src::Nothing | Src::Space => {}
                Src::Vector(font, ch) => marks.push(Mark::Vector {
                    font,
                    ch,
                    x: posx,
                    y: baseline,
                    run,
                }),
                Src::Bitmap(glyph, ch) => {
                    let s = f.bitmap_scale;
                    marks.push(Mark::Bitmap {
                        glyph,
                        ch,
                        x: posx + glyph.x * s,
                        y: baseline - (glyph.line_height as f32 - glyph.y) * s,
                        run,
                    });
                }
                Src::Image => {
                    let h = it.height;
                    if let Some(rect) = Rect::from_xywh(
                        posx + 1.0,
                        baseline - h * IMAGE_BASELINE,
                        it.width - 2.0,
                        h,
                    ) {
                        marks.push(Mark::Image { rect, run });
                    }
                }
                Src::Box => {
                    let t = (f.size / 16.0).max(1.0);
                    let (x0, w) = (posx + f.size * 0.1, f.size * 0.5);
                    let (y0, h) = (baseline - f.size * 0.7, f.size * 0.7);
                    for rect in [
                        Rect::from_xywh(x0, y0, w, t),
                        Rect::from_xywh(x0, y0 + h - t, w, t),
                        Rect::from_xywh(x0, y0, t, h),
                        Rect::from_xywh(x0 + w - t, y0, t, h),
                    ]
                    .into_iter()
                    .flatten()
                    {
                        marks.push(Mark::Rect { rect, run });
                    }
                }
            }
            if it.width > 0.0 || is_ellipsis {
                posx += ls + it.width;
            }
            if let Some(s) = seg.as_mut() {
                s.2 = posx - ls;
            }
            if is_ellipsis {
                break;
            }
        }
        flush(&mut marks, seg.take(), baseline);
    }

    let painter = Painter {
        transform,
        runs,
        fonts: &fonts,
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
        painter.pass(canvas, cache, &marks, Some(shadow), &offsets);
    }
    if let Some((stroke, _)) = style.stroke
        && !stroke_offsets.is_empty()
    {
        painter.pass(canvas, cache, &marks, Some(stroke), &stroke_offsets);
    }
    painter.pass(canvas, cache, &marks, None, &[(0.0, 0.0)]);
    report
}

struct Painter<'f, 'a> {
    transform: Transform,
    runs: &'f [Prepared<'a>],
    fonts: &'f [Fonts<'a>],
}

impl Painter<'_, '_> {
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

    /// One pass over the marks: in `color` (a shadow or stroke, which images do not get),
    /// or `None` for the fill in each run's own colour.
    fn pass(
        &self,
        canvas: &mut PixmapMut<'_>,
        cache: &mut GlyphCache,
        marks: &[Mark<'_>],
        color: Option<Color>,
        offsets: &[(f32, f32)],
    ) {
        if color.is_some_and(|c| c.alpha() <= 0.0) {
            return;
        }
        let fill = color.is_none();
        let k = self.raster_scale();
        let mut paint = Paint {
            anti_alias: !self.axis_aligned(),
            ..Paint::default()
        };
        for mark in marks {
            let run = match *mark {
                Mark::Vector { run, .. }
                | Mark::Bitmap { run, .. }
                | Mark::Rect { run, .. }
                | Mark::Image { run, .. } => run as usize,
            };
            let (Some(r), Some(f)) = (self.runs.get(run), self.fonts.get(run)) else {
                continue;
            };
            let color = color.unwrap_or(r.style.color);
            if color.alpha() <= 0.0 {
                continue;
            }
            match *mark {
                Mark::Vector { font, ch, x, y, .. } => {
                    let raster_px = (f.size * k).min(MAX_RASTER_PX);
                    let px8 = (raster_px * 8.0).round();
                    let raster_px = px8 / 8.0;
                    if raster_px < 0.5 {
                        continue;
                    }
                    let unit = f.size / raster_px;
                    let bold_px = if r.style.bold {
                        (raster_px / 30.0).round().max(1.0) as u32
                    } else {
                        0
                    };
                    let key = VectorKey {
                        font: font.id(),
                        ch,
                        px8: px8 as u32,
                        bold_px,
                        italic: r.style.italic,
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
                Mark::Bitmap {
                    glyph, ch, x, y, ..
                } => {
                    let (Some(image), Face::Bitmap(font)) = (glyph.image.as_ref(), r.face) else {
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
                        blit(canvas, self.transform, img, x + ox, y + oy, f.bitmap_scale);
                    }
                }
                Mark::Rect { rect, .. } => {
                    paint.set_color(color);
                    for &(ox, oy) in offsets {
                        let moved = Rect::from_xywh(
                            rect.x() + ox,
                            rect.y() + oy,
                            rect.width(),
                            rect.height(),
                        );
                        if let Some(moved) = moved {
                            canvas.fill_rect(moved, &paint, self.transform, None);
                        }
                    }
                }
                Mark::Image { rect, .. } => {
                    // Images are their own objects in the runtime: no shadow or stroke.
                    let Some(img) = r.image.as_ref().and_then(|i| i.pixmap.as_ref()) else {
                        continue;
                    };
                    if !fill || img.width() == 0 || img.height() == 0 {
                        continue;
                    }
                    let paint = PixmapPaint {
                        quality: FilterQuality::Bilinear,
                        ..PixmapPaint::default()
                    };
                    let placed = self.transform.pre_translate(rect.x(), rect.y()).pre_scale(
                        rect.width() / img.width() as f32,
                        rect.height() / img.height() as f32,
                    );
                    canvas.draw_pixmap(0, 0, img.as_ref().as_ref(), &paint, placed, None);
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

/// Link colour when a link sets none (`HtmlParseOptions.DefaultLinkColor`).
const LINK_COLOR: [u8; 3] = [0x3A, 0x67, 0xCC];
/// Markup longer than this is cut before parsing (a label never holds this much).
const MAX_MARKUP_BYTES: usize = 1 << 20;
/// Open style tags remembered for restoring; deeper ones change the style but their close
/// tags restore nothing (bounds memory on hostile nesting).
const MAX_DEPTH: usize = 1024;
/// Attribute values longer than this are ignored (font names and URLs are short).
const MAX_ATTR: usize = 1024;

/// A run's overrides of the node's style.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunStyle {
    pub color: Option<Color>,
    /// Absolute size (FairyGUI's `[size=N]` and `<font size>` are absolute).
    pub size: Option<f32>,
    /// These only switch on: markup cannot turn off the node's own bold etc.
    pub bold: bool,
    pub italic: bool,
    pub underline: bool,
    pub strikethrough: bool,
    /// A font name or `ui://` URL, as written.
    pub font: Option<Rc<str>>,
    /// The link target; links are drawn underlined.
    pub link: Option<Rc<str>>,
    /// Paragraph alignment (`<p align>`, `[align]`): 0 left, 1 center, 2 right.
    pub align: Option<i32>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum RunContent {
    Text(String),
    /// An inline image by URL, with the size the markup gives, if any.
    Image {
        url: Rc<str>,
        width: Option<f32>,
        height: Option<f32>,
    },
}

/// A stretch of text (or one inline image) in one style.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub content: RunContent,
    pub style: RunStyle,
}

impl Run {
    pub fn text(&self) -> Option<&str> {
        match &self.content {
            RunContent::Text(t) => Some(t),
            RunContent::Image { .. } => None,
        }
    }
}

/// The runtime's `ToolSet.ConvertFromHtmlColor`: `#AARRGGBB` when 9 long, else the first
/// six digits, and black for anything shorter or without `#`.
fn html_color(text: &str) -> Color {
    let t = text.trim();
    color::parse(t)
        .or_else(|| t.get(..7).and_then(color::parse))
        .unwrap_or(Color::BLACK)
}

/// `int.TryParse`: whole numbers only (`"+5"` is 5, `"20.5"` is not a number).
fn html_int(text: &str) -> Option<i32> {
    text.trim().parse().ok()
}

/// HTML attributes of a tag body (after its name): `name="v"`, `name='v'`, `name=v`, `name`.
fn attributes(body: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = body;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '/');
        if rest.is_empty() {
            break;
        }
        let name_end = rest
            .find(|c: char| c.is_whitespace() || c == '=' || c == '/')
            .unwrap_or(rest.len());
        let name = rest[..name_end].to_ascii_lowercase();
        rest = rest[name_end..].trim_start();
        let mut value = String::new();
        if let Some(after) = rest.strip_prefix('=') {
            let after = after.trim_start();
            let (v, tail) = match after.chars().next() {
                Some(q @ ('"' | '\'')) => {
                    let inner = &after[1..];
                    match inner.find(q) {
                        Some(e) => (&inner[..e], &inner[e + 1..]),
                        None => (inner, ""),
                    }
                }
                _ => {
                    let e = after.find(char::is_whitespace).unwrap_or(after.len());
                    (&after[..e], &after[e..])
                }
            };
            value = decode_entities(v);
            rest = tail;
        }
        if name.is_empty() {
            // A stray `=`: skip a char so the loop moves on.
            let mut chars = rest.chars();
            chars.next();
            rest = chars.as_str();
            continue;
        }
        out.push((name, value));
    }
    out
}

fn attr<'v>(attrs: &'v [(String, String)], name: &str) -> Option<&'v str> {
    attrs
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
        .filter(|v| v.len() <= MAX_ATTR)
}

fn decode_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find('&') {
        out.push_str(&rest[..pos]);
        let (c, len) = entity_at(&rest[pos..]);
        out.push(c);
        rest = &rest[pos + len..];
    }
    out.push_str(rest);
    out
}

/// The char an `&…;` at the start of `tail` stands for and its length; a lone `&` (length 1)
/// when it is none (`XMLUtils.DecodeString` looks at most 10 chars ahead for the `;`).
fn entity_at(tail: &str) -> (char, usize) {
    let end = tail.bytes().take(11).position(|b| b == b';');
    match end.and_then(|e| Some((e, decode_entity(tail.get(1..e)?)?))) {
        Some((e, c)) => (c, e + 1),
        None => ('&', 1),
    }
}

/// `UBBParser.GetTagText`: the text up to the next `[` (with `\[` as `[`), or `None` when
/// no `[` follows; also where that `[` is.
fn ubb_tag_text(rest: &str) -> Option<(String, usize)> {
    let mut out = String::new();
    let mut from = 0;
    loop {
        let pos = from + rest[from..].find('[')?;
        if pos > 0 && rest.as_bytes()[pos - 1] == b'\\' {
            out.push_str(&rest[from..pos - 1]);
            out.push('[');
            from = pos + 1;
        } else {
            out.push_str(&rest[from..pos]);
            return Some((out, pos));
        }
    }
}

/// The kind of an HTML tag, as `XMLIterator` tells them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tag {
    Start,
    End,
    Void,
}

struct Parser {
    runs: Vec<Run>,
    style: RunStyle,
    /// Whether a `<font color>` set the colour (a link then keeps it).
    color_changed: bool,
    stack: Vec<(RunStyle, bool)>,
    /// Pushes past `MAX_DEPTH` not yet popped.
    overflow: usize,
    /// Text not yet added (added at the next tag, as the runtime reads text between tags).
    pending: String,
    /// Inside `<head>`, `<style>`, `<script>`, `<form>`; like the runtime, a stray close
    /// makes it negative and hides the rest.
    skip_text: i32,
    skip_next_cr: bool,
    /// After `<html>`/`<body>`: text between tags is trimmed.
    ignore_white_space: bool,
}

impl Parser {
    fn new() -> Parser {
        Parser {
            runs: Vec::new(),
            style: RunStyle::default(),
            color_changed: false,
            stack: Vec::new(),
            overflow: 0,
            pending: String::new(),
            skip_text: 0,
            skip_next_cr: false,
            ignore_white_space: false,
        }
    }

    /// Adds the pending text; called at every tag.
    fn flush(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        if self.skip_text == 0 {
            let mut text = if self.ignore_white_space {
                pending.trim()
            } else {
                pending.as_str()
            };
            if self.skip_next_cr {
                text = text.strip_prefix('\n').unwrap_or(text);
            }
            self.append(text);
        }
        self.skip_next_cr = false;
    }

    /// `AppendText`: into the last run when it has the same style.
    fn append(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        if let Some(Run {
            content: RunContent::Text(last),
            style,
        }) = self.runs.last_mut()
            && *style == self.style
        {
            last.push_str(text);
            return;
        }
        self.runs.push(Run {
            content: RunContent::Text(text.to_owned()),
            style: self.style.clone(),
        });
    }

    fn image(&mut self, url: &str, width: Option<f32>, height: Option<f32>) {
        if url.is_empty() || url.len() > MAX_ATTR {
            return;
        }
        self.runs.push(Run {
            content: RunContent::Image {
                url: url.into(),
                width,
                height,
            },
            style: self.style.clone(),
        });
    }

    /// `IsNewLine`: nothing yet, or the last text ends a line.
    fn at_new_line(&self) -> bool {
        match self.runs.last() {
            None => true,
            Some(r) => r.text().is_some_and(|t| t.ends_with('\n')),
        }
    }

    fn push(&mut self) {
        if self.stack.len() < MAX_DEPTH {
            self.stack.push((self.style.clone(), self.color_changed));
        } else {
            self.overflow += 1;
        }
    }

    fn pop(&mut self) {
        if self.overflow > 0 {
            self.overflow -= 1;
        } else if let Some((style, changed)) = self.stack.pop() {
            self.style = style;
            self.color_changed = changed;
        }
    }

    /// One HTML tag (UBB tags arrive here translated, as the runtime turns UBB into HTML).
    fn tag(&mut self, name: &str, kind: Tag, attrs: &[(String, String)]) {
        self.flush();
        let start = kind == Tag::Start;
        match name {
            "b" | "i" | "u" | "strike" | "sub" | "sup" => {
                if start {
                    self.push();
                    match name {
                        "b" => self.style.bold = true,
                        "i" => self.style.italic = true,
                        "u" => self.style.underline = true,
                        "strike" => self.style.strikethrough = true,
                        // Sub/superscript are drawn at the line's size and baseline.
                        _ => {}
                    }
                } else {
                    self.pop();
                }
            }
            "font" => match kind {
                Tag::Start => {
                    self.push();
                    if let Some(size) = attr(attrs, "size").and_then(html_int) {
                        self.style.size = Some((size as f32).clamp(0.0, MAX_FONT_SIZE));
                    }
                    if let Some(c) = attr(attrs, "color") {
                        // A gradient (`a,b,…`) is drawn in its first colour.
                        let first = c.split(',').next().unwrap_or(c);
                        self.style.color = Some(html_color(first));
                        self.color_changed = true;
                    }
                    if let Some(face) = attr(attrs, "face").filter(|f| !f.is_empty()) {
                        self.style.font = Some(face.into());
                    }
                }
                Tag::End => self.pop(),
                Tag::Void => {}
            },
            "br" => self.append("\n"),
            "img" if kind != Tag::End => {
                let size = |n: &str| {
                    attr(attrs, n)
                        .and_then(html_int)
                        .map(|v| v as f32)
                        .filter(|v| *v > 0.0)
                };
                let src = attr(attrs, "src").unwrap_or("").to_owned();
                self.image(&src, size("width"), size("height"));
            }
            "a" => match kind {
                Tag::Start => {
                    self.push();
                    self.style.underline = true;
                    if !self.color_changed {
                        let [r, g, b] = LINK_COLOR;
                        self.style.color = Some(Color::from_rgba8(r, g, b, 255));
                    }
                    self.style.link = Some(attr(attrs, "href").unwrap_or("").into());
                }
                Tag::End => self.pop(),
                Tag::Void => {}
            },
            "p" => match kind {
                Tag::Start => {
                    self.push();
                    match attr(attrs, "align") {
                        Some("center") => self.style.align = Some(1),
                        Some("right") => self.style.align = Some(2),
                        _ => {}
                    }
                    if !self.at_new_line() {
                        self.append("\n");
                    }
                }
                Tag::End => {
                    self.append("\n");
                    self.skip_next_cr = true;
                    self.pop();
                }
                Tag::Void => {}
            },
            "ui" | "div" | "li" => {
                if start {
                    if !self.at_new_line() {
                        self.append("\n");
                    }
                } else {
                    self.append("\n");
                    self.skip_next_cr = true;
                }
            }
            "html" | "body" => self.ignore_white_space = true,
            "head" | "style" | "script" | "form" => match kind {
                Tag::Start => self.skip_text = self.skip_text.saturating_add(1),
                Tag::End => self.skip_text = self.skip_text.saturating_sub(1),
                Tag::Void => {}
            },
            // Other tags vanish, as in the runtime.
            _ => {}
        }
    }
}

/// Rich text as styled runs, after FairyGUI's `UBBParser` (`ubb`: `[b]`, `[i]`, `[u]`,
/// `[strike]`, `[color=]`, `[size=]`, `[font=]`, `[url]`, `[img]`, `[align=]`; unknown
/// bracketed text stays) and `HtmlParser` (`html`: `<b>`, `<i>`, `<u>`, `<strike>`,
/// `<font color size face>`, `<a href>`, `<br>`, `<p align>`, `<img src width height>`,
/// entities; unknown tags vanish). Without `html`, `<` and `&` are plain text, as the
/// runtime encodes a UBB text field's text before parsing. A close tag restores the style
/// before the last open one, whatever its name, as the runtime's format stack does.
pub fn parse_markup(text: &str, ubb: bool, html: bool) -> Vec<Run> {
    let mut text = text;
    if text.len() > MAX_MARKUP_BYTES {
        let mut end = MAX_MARKUP_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text = &text[..end];
    }
    let mut p = Parser::new();
    // Cleared when the runtime stops looking for tags: UBB at a `[` with no `]`, HTML at a
    // tag that never closes.
    let mut ubb = ubb;
    let mut html = html;
    let mut rest = text;
    loop {
        let next = rest.find(|c: char| {
            (ubb && c == '[') || (html && (c == '<' || c == '&')) || (ubb && c == '\\')
        });
        let Some(pos) = next else {
            p.pending.push_str(rest);
            break;
        };
        p.pending.push_str(&rest[..pos]);
        let tail = &rest[pos..];
        let b = tail.as_bytes();
        if b[0] == b'\\' {
            // `\[` is a literal bracket.
            if b.get(1) == Some(&b'[') {
                p.pending.push('[');
                rest = &tail[2..];
            } else {
                p.pending.push('\\');
                rest = &tail[1..];
            }
            continue;
        }
        if b[0] == b'&' {
            let (c, len) = entity_at(tail);
            p.pending.push(c);
            rest = &tail[len..];
            continue;
        }
        if b[0] == b'[' {
            let Some(close) = tail.find(']') else {
                ubb = false;
                p.pending.push('[');
                rest = &tail[1..];
                continue;
            };
            if close == 1 {
                p.pending.push_str("[]");
                rest = &tail[2..];
                continue;
            }
            let inner = &tail[1..close];
            let end = inner.starts_with('/');
            let body = if end { &inner[1..] } else { inner };
            let (name, value) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (body, None),
            };
            let name = name.to_ascii_lowercase();
            let after = &tail[close + 1..];
            rest = after;
            let kind = if end { Tag::End } else { Tag::Start };
            let one = |n: &str, v: &str| vec![(n.to_owned(), v.to_owned())];
            match name.as_str() {
                "b" | "i" | "u" | "sup" | "sub" | "strike" => p.tag(&name, kind, &[]),
                "color" => p.tag("font", kind, &one("color", value.unwrap_or(""))),
                "font" => p.tag("font", kind, &one("face", value.unwrap_or(""))),
                "size" => p.tag("font", kind, &one("size", value.unwrap_or(""))),
                "align" => p.tag("p", kind, &one("align", value.unwrap_or(""))),
                "url" => {
                    let href = match (end, value) {
                        (true, _) => String::new(),
                        (false, Some(v)) => v.to_owned(),
                        (false, None) => ubb_tag_text(after).map(|(t, _)| t).unwrap_or_default(),
                    };
                    p.tag("a", kind, &one("href", &href));
                }
                "img" => {
                    // The address up to the next `[` is taken from the text.
                    if !end && let Some((src, at)) = ubb_tag_text(after) {
                        rest = &after[at..];
                        if !src.is_empty() {
                            p.tag("img", Tag::Void, &one("src", &src));
                        }
                    }
                }
                _ => {
                    p.pending.push_str(&tail[..=close]);
                }
            }
            continue;
        }
        // `<`: a tag, a comment or CDATA (both dropped), or a plain `<`.
        if let Some(after) = tail.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |e| &after[e + 3..]);
            p.flush();
            continue;
        }
        if let Some(after) = tail.strip_prefix("<![CDATA[") {
            rest = after.find("]]>").map_or("", |e| &after[e + 3..]);
            p.flush();
            continue;
        }
        let looks_like_tag = b
            .get(1)
            .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, b'/' | b'!' | b'?'));
        if !looks_like_tag {
            p.pending.push('<');
            rest = &tail[1..];
            continue;
        }
        // The closing `>` outside quotes; another `<` first means this is not a tag.
        let mut quote: Option<u8> = None;
        let mut gt = None;
        let mut another = false;
        for (i, &c) in b.iter().enumerate().skip(1) {
            match (quote, c) {
                (None, b'"' | b'\'') => quote = Some(c),
                (Some(q), _) if c == q => quote = None,
                (None, b'>') => {
                    gt = Some(i);
                    break;
                }
                (_, b'<') => {
                    another = true;
                    break;
                }
                _ => {}
            }
        }
        let Some(gt) = gt else {
            // Never closed: the runtime reads no more tags.
            html &= another;
            p.pending.push('<');
            rest = &tail[1..];
            continue;
        };
        let inside = &tail[1..gt];
        rest = &tail[gt + 1..];
        let (kind, inside) = match inside.strip_prefix('/') {
            Some(i) => (Tag::End, i),
            None if inside.ends_with('/') => (Tag::Void, inside),
            None => (Tag::Start, inside),
        };
        let name_end = inside
            .find(|c: char| c.is_whitespace() || c == '/' || c == '>')
            .unwrap_or(inside.len());
        let name = inside[..name_end].to_ascii_lowercase();
        if name.starts_with(['!', '?']) {
            p.flush();
            continue;
        }
        let attrs = if kind == Tag::End {
            Vec::new()
        } else {
            attributes(&inside[name_end..])
        };
        p.tag(&name, kind, &attrs);
    }
    p.flush();
    p.runs
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
    use crate::formats::fnt::{FntChar, FntCommon, FntFile, FntInfo};
    use crate::render::bitmap::GlyphImageRef;
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
        // Same glyphs, only moved (each lands on the whole pixel nearest its fractional pen
        // position, so the ink may be one pixel wider or narrower).
        assert!((l.2 - l.0).abs_diff(r.2 - r.0) <= 1, "{l:?} {r:?}");
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
        let line = line_metrics(14.0).1;
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

    /// The runs' text joined, for checking what the parser keeps as text.
    fn plain(runs: &[Run]) -> String {
        runs.iter().filter_map(Run::text).collect()
    }

    /// Draws markup with the bundled font; `ui://pic` is a 10×8 opaque blue image.
    fn render_markup(
        w: u32,
        h: u32,
        text: &str,
        ubb: bool,
        html: bool,
        style: &TextStyle,
    ) -> (Pixmap, TextReport) {
        let mut pixmap = Pixmap::new(w, h).expect("pixmap");
        let mut cache = GlyphCache::new();
        let mut blue = Pixmap::new(10, 8).expect("pixmap");
        blue.fill(Color::from_rgba8(0, 0, 255, 255));
        let blue = Rc::new(blue);
        let runs = parse_markup(text, ubb, html);
        let report = draw_runs(
            &mut pixmap.as_mut(),
            Transform::identity(),
            w as f32,
            h as f32,
            &runs,
            style,
            &mut |_| Face::bundled(),
            &mut |url| (url == "ui://pic").then(|| blue.clone()),
            &mut cache,
        );
        (pixmap, report)
    }

    fn is_red(c: tiny_skia::ColorU8) -> bool {
        c.red() > 150 && c.green() < 60 && c.blue() < 60
    }

    fn is_dark(c: tiny_skia::ColorU8) -> bool {
        c.red() < 60 && c.green() < 60 && c.blue() < 60
    }

    #[test]
    fn a_ubb_colour_run_is_drawn_in_its_colour_and_the_rest_in_the_nodes() {
        let (p, report) = render_markup(
            W,
            H,
            "[color=#ff0000]red[/color] black",
            true,
            false,
            &black(20.0),
        );
        assert_eq!(report, TextReport::default());
        let red = ink_where(&p, is_red).expect("red ink");
        let dark = ink_where(&p, is_dark).expect("black ink");
        assert!(red.2 < dark.0, "red {red:?} left of black {dark:?}");
        assert!(red.0 <= 4, "red starts at the gutter: {red:?}");
        // Same baseline, same size: the glyph bottoms match.
        assert_eq!(red.3, dark.3);
        // Without UBB the tags are text, all black.
        let (p, _) = render_markup(
            W,
            H,
            "[color=#ff0000]red[/color]",
            false,
            false,
            &black(20.0),
        );
        assert!(ink_where(&p, is_red).is_none());
    }

    #[test]
    fn a_bold_run_is_wider_and_darker() {
        let count = |p: &Pixmap| p.pixels().iter().filter(|c| c.alpha() > 128).count();
        let (plain, _) = render_markup(W, H, "Hello", true, false, &black(20.0));
        let (bold, _) = render_markup(W, H, "[b]Hello[/b]", true, false, &black(20.0));
        assert!(count(&bold) > count(&plain) * 11 / 10);
        assert!(ink(&bold).2 > ink(&plain).2);
        let (html, _) = render_markup(W, H, "<b>Hello</b>", false, true, &black(20.0));
        assert_eq!(html.data(), bold.data(), "<b> draws as [b]");
    }

    #[test]
    fn a_bigger_run_makes_the_line_taller_on_one_baseline() {
        let (small, _) = render_markup(W, 80, "Hx", true, false, &black(12.0));
        let (big, _) = render_markup(W, 80, "[size=30]H[/size]x", true, false, &black(12.0));
        let (a, b) = (ink(&small), ink(&big));
        assert!(b.3 - b.1 > 2 * (a.3 - a.1), "{a:?} vs {b:?}");
        // The small x sits on the big H's baseline: both end on the same row.
        let x_col = (b.2 - 2, b.2);
        let x_bottom = (0..80)
            .rev()
            .find(|&y| (x_col.0..=x_col.1).any(|x| p_alpha(&big, x, y)))
            .expect("x ink");
        assert_eq!(x_bottom, b.3, "x bottom on the H's baseline");
        // The line moved down by the taller ascent.
        assert!(b.3 > a.3 + 10);
    }

    fn p_alpha(p: &Pixmap, x: u32, y: u32) -> bool {
        p.pixel(x, y).is_some_and(|c| c.alpha() > 100)
    }

    #[test]
    fn an_html_font_colour_run_is_green() {
        let (p, _) = render_markup(
            W,
            H,
            "a <font color='#00ff00'>green</font> b",
            false,
            true,
            &black(20.0),
        );
        let green =
            ink_where(&p, |c| c.green() > 150 && c.red() < 60 && c.blue() < 60).expect("green ink");
        let dark = ink_where(&p, is_dark).expect("black ink");
        assert!(
            green.0 > dark.0 && green.2 < dark.2,
            "{green:?} inside {dark:?}"
        );
    }

    #[test]
    fn br_breaks_the_line() {
        let (one, _) = render_markup(W, 100, "ab", false, true, &black(16.0));
        let (two, _) = render_markup(W, 100, "a<br/>b", false, true, &black(16.0));
        let (a, b) = (ink(&one), ink(&two));
        assert!(b.3 - b.1 > (a.3 - a.1) * 3 / 2, "{a:?} vs {b:?}");
        assert!(b.2 < a.2, "b moved off the first line");
    }

    #[test]
    fn an_inline_image_reserves_room_and_is_drawn_on_the_baseline() {
        let is_blue = |c: tiny_skia::ColorU8| c.blue() > 200 && c.red() < 30;
        let (p, report) = render_markup(W, H, "A[img]ui://pic[/img]A", true, false, &black(20.0));
        assert_eq!(report.missing_images, 0);
        let img = ink_where(&p, is_blue).expect("the image");
        assert_eq!(
            (img.2 - img.0 + 1, img.3 - img.1 + 1),
            (10, 8),
            "its own size"
        );
        let (plain, _) = render_markup(W, H, "AA", true, false, &black(20.0));
        let (a, b) = (ink(&plain), ink_where(&p, is_dark).expect("text"));
        assert_eq!(b.2 - a.2, 12, "the second A moves by the image's width + 2");
        // 80 % above the baseline: the image's bottom is 1-2 px below the A's.
        assert!(img.3 > b.3 && img.3 <= b.3 + 3, "{img:?} vs text {b:?}");
        // The size the markup gives; HTML too.
        let (p, _) = render_markup(
            W,
            H,
            "<img src='ui://pic' width='20' height=\"16\"/>",
            false,
            true,
            &black(20.0),
        );
        let img = ink_where(&p, is_blue).expect("the image");
        assert_eq!((img.2 - img.0 + 1, img.3 - img.1 + 1), (20, 16));
        assert_eq!(img.0, 3, "after the gutter and the runtime's 1 px");
        // An image that is not there keeps the runtime's 5 px of room and is counted.
        let (p, report) = render_markup(W, H, "[img]ui://gone[/img]A", true, false, &black(20.0));
        assert_eq!(report.missing_images, 1);
        assert_eq!(ink(&p).0, a.0 + 7);
    }

    #[test]
    fn closing_a_nested_tag_restores_the_style_before_it() {
        let runs = parse_markup("[color=#ff0000]a[b]b[/b]c[/color]d", true, false);
        let red = Some(Color::from_rgba8(255, 0, 0, 255));
        let got: Vec<(&str, Option<Color>, bool)> = runs
            .iter()
            .map(|r| (r.text().unwrap_or(""), r.style.color, r.style.bold))
            .collect();
        assert_eq!(
            got,
            [
                ("a", red, false),
                ("b", red, true),
                ("c", red, false),
                ("d", None, false)
            ]
        );
        let (p, _) = render_markup(
            W,
            H,
            "[color=#ff0000]a[b]b[/b]c[/color]d",
            true,
            false,
            &black(20.0),
        );
        let r = ink_where(&p, is_red).expect("red");
        let k = ink_where(&p, is_dark).expect("black");
        assert!(r.2 < k.0, "d after the red: {r:?} {k:?}");
        // Links: underlined in the link colour unless a colour was set.
        let runs = parse_markup(
            "[url=http://x]l[/url]<font color='#ff0000'><a href='y'>m</a></font>",
            true,
            true,
        );
        assert_eq!(runs[0].style.link.as_deref(), Some("http://x"));
        assert_eq!(
            runs[0].style.color,
            Some(Color::from_rgba8(0x3A, 0x67, 0xCC, 255))
        );
        assert_eq!(runs[1].style.color, red);
        assert!(runs[1].style.underline && runs[1].style.link.as_deref() == Some("y"));
        // size and font carry through.
        let runs = parse_markup("[size=30][font=ui://p/f]x[/font][/size]", true, false);
        assert_eq!(runs[0].style.size, Some(30.0));
        assert_eq!(runs[0].style.font.as_deref(), Some("ui://p/f"));
    }

    #[test]
    fn unknown_ubb_tags_stay_as_text() {
        let runs = parse_markup("[foo]x[/foo]", true, false);
        assert_eq!(plain(&runs), "[foo]x[/foo]");
        let (p, _) = render_markup(W, H, "[foo]x[/foo]", true, false, &black(20.0));
        let (x, _) = render_markup(W, H, "x", true, false, &black(20.0));
        assert!(ink(&p).2 > ink(&x).2 + 20);
    }

    #[test]
    fn paragraph_alignment_moves_its_line() {
        let (p, _) = render_markup(W, 60, "a[align=right]b[/align]", true, false, &black(20.0));
        let b = ink(&p);
        assert!(b.0 <= 4, "a at the left: {b:?}");
        assert!(b.2 >= W - 2 - 4, "b at the right: {b:?}");
    }

    #[test]
    fn hostile_markup_does_not_panic_and_stays_bounded() {
        let deep = format!("{}x", "[b]".repeat(10_000));
        let runs = parse_markup(&deep, true, false);
        assert_eq!(runs.len(), 1, "one style, one run");
        let deep_html = format!(
            "{}x{}y",
            "<font color='#ff0000'>".repeat(10_000),
            "</font>".repeat(20_000)
        );
        let runs = parse_markup(&deep_html, false, true);
        assert_eq!(plain(&runs), "xy");
        let mixed = "[color=#ff0000][b][i][u]x<font size=99999999999>y</font><font size='2000000000'>z[size=-5]w[size=2147483647]v\
            [img][img]ui://pic[img]<img width=999999999 height=-1 src=ui://pic>&#xFFFFFFFF;&#99999999999;&;&#;&#x;<\
            <a href=\"<b>\"</a [url][/url][url=[/url]]<!--<![CDATA[ \\[\\\\ [ ] [] [/] [=] <> </> <=> &amp";
        for (ubb, html) in [(true, false), (false, true), (true, true)] {
            let runs = parse_markup(mixed, ubb, html);
            let (_, _) = render_markup(60, 40, mixed, ubb, html, &black(12.0));
            assert!(runs.len() < 100);
        }
        // Long inputs stay linear: many opens, ampersands, brackets and angle brackets.
        for piece in [
            "[b]", "&", "[", "<", "<a ", "\\[", "[url]", "[img]", "<!--", "<p>", "</b>",
        ] {
            let text = piece.repeat(60_000);
            for (ubb, html) in [(true, false), (false, true), (true, true)] {
                let runs = parse_markup(&text, ubb, html);
                let _ = render_markup(40, 20, &text, ubb, html, &black(12.0));
                assert!(runs.len() <= 60_001);
            }
        }
        let huge = format!("[size=2048]{}[/size]", "W".repeat(200));
        let (_, _) = render_markup(
            30,
            30,
            &huge,
            true,
            false,
            &TextStyle {
                auto_size: 3,
                ..black(12.0)
            },
        );
    }

    #[test]
    fn markup_text_is_what_the_runtime_shows() {
        let runs = parse_markup(
            "[b]Bold[/b] [color=#ff0000]red[/color] [size=20]big[/size] [url=http://x]link[/url][img]ui://a/b[/img]!",
            true,
            false,
        );
        assert_eq!(plain(&runs), "Bold red big link!");
        assert_eq!(
            plain(&parse_markup(
                "score [1] \\[b] a<b &amp; [s]x[/s]",
                true,
                false
            )),
            "score [1] [b] a<b &amp; [s]x[/s]",
            "unknown tags and, without HTML, < and & stay"
        );
        assert_eq!(
            plain(&parse_markup(
                "<font color='#f00'>a</font><b>b</b><br/>c<img src='ui://x'/> &lt;&gt;&amp;&quot;&nbsp;&#65;&#x42; 1 < 2 & 3 <foo>",
                false,
                true,
            )),
            "ab\nc <>&\" AB 1 < 2 & 3 "
        );
        assert_eq!(plain(&parse_markup("[b]x[/b]<i>y</i>", true, true)), "xy");
        assert_eq!(plain(&parse_markup("[b]x<i>", false, false)), "[b]x<i>");
        assert_eq!(plain(&parse_markup("[b]x [y", true, false)), "x [y");
        assert_eq!(
            plain(&parse_markup("<p>a</p>\nb<p align=center>c", false, true)),
            "a\nb\nc"
        );
        assert_eq!(
            plain(&parse_markup(
                "a<!-- <b> -->b<script>x</script>c",
                false,
                true
            )),
            "abc"
        );
    }
}
