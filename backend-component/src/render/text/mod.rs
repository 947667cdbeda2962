//! Text layout and drawing for previews, after the FairyGUI runtime's `TextField`
//! (FairyGUI-unity `Core/Text/TextField.cs`): a 2 px gutter, per-char advances plus letter
//! spacing, greedy wrapping that moves a broken word to the next line, `leading - 1` between
//! lines, per-line alignment, vertical alignment of the block, shrink and ellipsis; vector
//! faces get fairygui-three's line metrics and fractional advances, which the runtime
//! comparison checks. Rich text
//! (UBB, HTML) is parsed into styled runs, after `UBBParser` and `HtmlParser`, and laid out
//! the same way with each run in its own style.

use std::rc::Rc;

use tiny_skia::{Color, FilterQuality, Paint, Pixmap, PixmapMut, PixmapPaint, Rect, Transform};

use crate::render::color;
use crate::render::font::Face;

mod glyphs;
mod layout;
mod markup;
#[cfg(test)]
mod tests;

pub use self::glyphs::GlyphCache;
use self::glyphs::{VectorKey, rgba};
use self::layout::{
    Built, Fonts, IMAGE_BASELINE, Inline, LayoutParams, Mark, Prepared, Primary, Src, build,
    normalise_into, sane_box, shrink,
};
pub use self::markup::{Run, RunContent, RunStyle, parse_markup};

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
#[derive(Debug, Clone, Default, PartialEq)]
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
    /// Characters past the box's right edge that a clipping text leaves out, or that an
    /// ellipsis replaces.
    pub cut_chars: u32,
    /// How much wider than its box the text is laid out (0 when it fits, or the box grows
    /// with it).
    pub overflow: f32,
    /// The font size a shrinking text was drawn at, when smaller than its own.
    pub shrunk_to: Option<f32>,
    /// How far the text reaches, from the box's top left: at least the box itself, and
    /// past it where the text is not clipped (it grows with its text, or runs on).
    pub reach: (f32, f32),
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
    if let Some(first) = fonts.first()
        && auto_size == 3
        && first.size < style.size - 0.01
    {
        report.shrunk_to = Some(first.size);
    }
    if auto_size != 1 && layout.text_width > width + 0.5 {
        report.overflow = layout.text_width - width;
    }
    report.reach = match auto_size {
        0 | 4 => (width, height),
        _ => (width.max(layout.text_width), height.max(layout.text_height)),
    };

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
    // A text that grows with its text (auto size both or height) is as tall as its lines
    // in the runtime, whatever height the file gives it (the editor's, for its own text).
    let bottom = match auto_size {
        1 | 2 => height.max(p.rect_height).max(layout.text_height),
        _ => height.max(p.rect_height),
    };
    for (li, line) in layout.lines.iter().enumerate() {
        let ly = line.y + y_offset;
        if li != 0 && ly >= bottom {
            // Lines below the box are not drawn (the runtime clips them); also bounds the
            // work.
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
                report.cut_chars += 1;
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
                report.cut_chars += items.len().saturating_sub(idx) as u32;
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
