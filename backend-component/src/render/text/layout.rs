//! Laying text out as the runtime does: items per character, greedy lines with broken
//! words moved down, shrink and ellipsis.

use std::rc::Rc;

use tiny_skia::{Pixmap, Rect, Transform};

use crate::render::bitmap::{BitmapFont, BitmapGlyph};
use crate::render::font::{self, Face, VectorFont};
use crate::render::shelf;

use super::{GUTTER_X, GUTTER_Y, MAX_CHARS, MISSING, TextStyle};

#[derive(Clone, Copy)]
pub(super) enum Src<'a> {
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
pub(super) struct Item<'a> {
    pub(super) ch: char,
    pub(super) src: Src<'a>,
    pub(super) width: f32,
    pub(super) height: f32,
    pub(super) baseline: f32,
    pub(super) missing: bool,
    /// Index of the run the char comes from.
    pub(super) run: u32,
}

pub(super) enum Primary<'a> {
    Vector(&'a VectorFont),
    Bitmap(&'a BitmapFont),
}

/// The face at one size: measures chars the way the runtime's `GetGlyph` does.
pub(super) struct Fonts<'a> {
    pub(super) primary: Primary<'a>,
    pub(super) fallback: Option<&'a VectorFont>,
    /// Text size in local units (style size × shrink scale).
    pub(super) size: f32,
    /// Bitmap glyph scale.
    pub(super) bitmap_scale: f32,
    pub(super) bold_extra: f32,
    pub(super) ascent: f32,
    pub(super) line_height: f32,
    /// The run whose chars these fonts measure.
    pub(super) run: u32,
}

/// A vector font's baseline (below the line's top) and line height at `size`, as the
/// FairyGUI runtime measured by the runtime comparison lays text out (fairygui-three's
/// `DynamicFont`: the baseline `size` down, lines `1.25 × size` tall, whatever the face's
/// own metrics; FairyGUI-unity uses the face's line height, about `1.15 × size` for Arial).
pub(super) fn line_metrics(size: f32) -> (f32, f32) {
    (size.round().max(1.0), (size * 1.25).round().max(1.0))
}

impl<'a> Fonts<'a> {
    pub(super) fn new(face: &'a Face, style: &TextStyle, scale: f32, run: u32) -> Fonts<'a> {
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

    pub(super) fn vector_item(&self, font: &'a VectorFont, ch: char, missing: bool) -> Item<'a> {
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

    pub(super) fn measure(&self, ch: char) -> Item<'a> {
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
pub(super) struct Line {
    pub(super) start: usize,
    pub(super) count: usize,
    pub(super) width: f32,
    pub(super) height: f32,
    pub(super) baseline: f32,
    pub(super) y: f32,
}

pub(super) struct Layout {
    pub(super) lines: Vec<Line>,
    pub(super) text_width: f32,
    pub(super) text_height: f32,
    pub(super) ellipsis: Option<usize>,
    /// Some line was broken between two letters or digits of one word.
    pub(super) broke_word: bool,
}

pub(super) struct LayoutParams {
    pub(super) width: f32,
    pub(super) height: f32,
    pub(super) rect_width: f32,
    pub(super) rect_height: f32,
    pub(super) wrap: bool,
    pub(super) single_line: bool,
    pub(super) check_edge: bool,
    pub(super) letter_spacing: f32,
    pub(super) line_spacing: f32,
    pub(super) default_height: f32,
}

/// `UpdateLineInfo`: a line's height and baseline from its chars; its width without the
/// chars left out of the measure.
pub(super) fn finish_line(
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

pub(super) fn build_lines(items: &[Item<'_>], p: &LayoutParams) -> Layout {
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
pub(super) fn normalise_into(out: &mut Vec<(char, u32)>, text: &str, run: u32) {
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
pub(super) struct Inline {
    pub(super) pixmap: Option<Rc<Pixmap>>,
    pub(super) width: f32,
    pub(super) height: f32,
}

/// A run ready for layout: its face and its style with the run's overrides applied.
pub(super) struct Prepared<'f> {
    pub(super) face: &'f Face,
    pub(super) style: TextStyle,
    pub(super) align: Option<i32>,
    pub(super) image: Option<Inline>,
}

pub(super) struct Built<'a> {
    pub(super) fonts: Vec<Fonts<'a>>,
    pub(super) items: Vec<Item<'a>>,
    pub(super) layout: Layout,
    pub(super) letter_spacing: f32,
}

/// The runtime's placeholder char for an inline image: as wide as the image plus 2, with
/// 80 % of it above the baseline (`TextField.IMAGE_BASELINE`).
pub(super) const IMAGE_BASELINE: f32 = 0.8;

pub(super) fn build<'a>(
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
pub(super) fn shrink<'a>(
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
pub(super) enum Mark<'a> {
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
pub(super) fn sane_box(transform: Transform, width: f32, height: f32, style: &TextStyle) -> bool {
    let sane = |v: f32| v.is_finite() && v.abs() < 1.0e6;
    transform.is_finite()
        && sane(width)
        && sane(height)
        && sane(style.leading)
        && sane(style.letter_spacing)
        && style.size.is_finite()
        && style.size >= 1.0
}
