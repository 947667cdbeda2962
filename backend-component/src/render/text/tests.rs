use super::layout::line_metrics;
use super::*;
use crate::formats::fnt::{FntChar, FntCommon, FntFile, FntInfo};
use crate::render::bitmap::BitmapFont;
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
    // Nothing amiss; the text reaches as far as its box.
    assert_eq!(
        report,
        TextReport {
            reach: (W as f32, H as f32),
            ..TextReport::default()
        }
    );
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

#[test]
fn the_report_says_how_a_text_fits_its_box() {
    let long = "A translation much longer than the text this box was made for";
    let single = TextStyle {
        single_line: true,
        ..black(20.0)
    };
    // Clipped at the right edge: characters left out.
    let (_, clipped) = render(100, 30, long, &single, &face());
    assert!(clipped.cut_chars > 10, "{clipped:?}");
    assert!(clipped.overflow > 100.0, "{clipped:?}");
    assert_eq!(
        clipped.reach,
        (100.0, 30.0),
        "a clipped text stays in its box"
    );
    // Wrapping in a box that does not grow: lines lost below it.
    let (_, hidden) = render(100, 30, long, &black(20.0), &face());
    assert!(
        hidden.hidden_lines > 0 && hidden.cut_chars == 0,
        "{hidden:?}"
    );
    // Growing with its text (auto size height): every line shown, the text reaching down.
    let grows = TextStyle {
        auto_size: 2,
        ..black(20.0)
    };
    let (_, grown) = render(100, 30, long, &grows, &face());
    assert_eq!(grown.hidden_lines, 0, "{grown:?}");
    assert!(grown.reach.1 > 60.0, "{grown:?}");
    // Shrinking to fit: the size it was drawn at.
    let shrinks = TextStyle {
        auto_size: 3,
        ..single
    };
    let (_, shrunk) = render(100, 30, long, &shrinks, &face());
    assert!(
        shrunk.shrunk_to.is_some_and(|size| size < 10.0),
        "{shrunk:?}"
    );
    assert_eq!(shrunk.cut_chars, 0, "{shrunk:?}");
}
