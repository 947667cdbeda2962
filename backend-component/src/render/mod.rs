//! Component previews: draws a component from the session's model and bytes into a PNG,
//! inside the component, with no browser.
//!
//! One room per look: [`image`] (bitmaps, 9-grid, tiling, fills), [`shape`] (graphs),
//! [`text`] with [`font`] and [`bitmap`] (glyphs), and [`scene`], which walks a component's
//! display list (gears, relations, nesting, lists, loaders) and calls them. What the
//! renderer cannot draw as the runtime would is drawn as a labelled box or approximated,
//! and listed, never silently skipped.

pub mod bitmap;
pub mod color;
pub mod font;
pub mod image;
pub mod pages;
pub mod progress;
mod scene;
pub mod shape;
pub mod shelf;
pub mod straight;
pub mod text;

use std::collections::BTreeMap;

use ofgui_contracts::api::RenderApproximation;
use ofgui_contracts::capabilities::{RENDER_MAX_PIXELS, RENDER_MAX_SIDE};
use ofgui_contracts::uam::{ComponentResource, UamProject};
use tiny_skia::{Color, Pixmap};

/// The project's file bytes as a render sees them: the session's, with a preview batch's
/// changes over them (`None` there is a removed file).
#[derive(Clone, Copy)]
pub struct Files<'a> {
    base: &'a BTreeMap<String, Vec<u8>>,
    overlay: Option<&'a BTreeMap<String, Option<Vec<u8>>>>,
}

impl<'a> Files<'a> {
    pub fn new(
        base: &'a BTreeMap<String, Vec<u8>>,
        overlay: Option<&'a BTreeMap<String, Option<Vec<u8>>>>,
    ) -> Self {
        Files { base, overlay }
    }

    pub fn get(&self, path: &str) -> Option<&'a [u8]> {
        if let Some(changed) = self.overlay.and_then(|overlay| overlay.get(path)) {
            return changed.as_deref();
        }
        self.base.get(path).map(Vec::as_slice)
    }
}

/// What to draw: one component of `project`, with a page per controller.
pub struct Request<'a> {
    pub project: &'a UamProject,
    pub files: Files<'a>,
    /// The package the component is in.
    pub package_id: &'a str,
    pub component: &'a ComponentResource,
    /// Controller name → page id, for the component's own controllers; the others show
    /// the page the runtime starts them at ([`pages`]).
    pub pages: &'a BTreeMap<String, String>,
    pub scale: f32,
    pub background: Option<Color>,
}

/// A drawn component, what was approximated in it (sorted by node path) and how each
/// text fit its box.
pub struct Drawn {
    pub pixmap: Pixmap,
    pub approximations: Vec<RenderApproximation>,
    pub texts: Vec<TextFit>,
}

/// A text as drawn: its node, what it showed, where (canvas pixels) and how it fit.
#[derive(Clone, Debug)]
pub struct TextFit {
    /// Node ids from the drawn component down to the text, joined by `/`.
    pub node_path: String,
    pub kind: String,
    pub text: String,
    /// Its font size, before any shrinking.
    pub size: f32,
    pub bounds: tiny_skia::Rect,
    /// Where its text reaches (canvas pixels): its box, and past it where not clipped.
    pub reach: tiny_skia::Rect,
    pub report: text::TextReport,
}

/// The picture would be larger than a render may be.
#[derive(Debug, PartialEq)]
pub struct TooLarge {
    pub width: u64,
    pub height: u64,
}

impl TooLarge {
    pub fn describe(&self) -> String {
        format!(
            "The picture would be {}×{} pixels; a render may be at most {RENDER_MAX_SIDE} pixels a side and {RENDER_MAX_PIXELS} pixels in all.",
            self.width, self.height
        )
    }
}

/// The picture's size for a component of `width`×`height` units at `scale`: rounded up,
/// at least one pixel.
pub fn pixel_size(width: f64, height: f64, scale: f64) -> Result<(u32, u32), TooLarge> {
    // Rounded up, but 400 × 0.05 is 20.000000000000004 in floating point: still 20.
    let side = |units: f64| {
        let exact = units.max(0.0) * scale;
        let near = exact.round();
        let pixels = if (exact - near).abs() < 1e-6 {
            near
        } else {
            exact.ceil()
        };
        pixels.max(1.0)
    };
    let (w, h) = (side(width), side(height));
    let (wu, hu) = (w as u64, h as u64);
    if !w.is_finite()
        || !h.is_finite()
        || w > f64::from(RENDER_MAX_SIDE)
        || h > f64::from(RENDER_MAX_SIDE)
        || wu * hu > RENDER_MAX_PIXELS
    {
        return Err(TooLarge {
            width: wu,
            height: hu,
        });
    }
    Ok((wu as u32, hu as u32))
}

/// Draws the component at its size × scale.
pub fn draw(request: &Request) -> Result<Drawn, TooLarge> {
    let size = &request.component.component.size;
    let (width, height) = pixel_size(
        size.width.get(),
        size.height.get(),
        f64::from(request.scale),
    )?;
    let mut pixmap = Pixmap::new(width, height).ok_or(TooLarge {
        width: u64::from(width),
        height: u64::from(height),
    })?;
    if let Some(background) = request.background {
        pixmap.fill(background);
    }
    let (mut approximations, texts) = scene::paint(request, &mut pixmap.as_mut());
    approximations.sort();
    approximations.dedup();
    Ok(Drawn {
        pixmap,
        approximations,
        texts,
    })
}

/// A red frame around `bounds` (canvas pixels), for a text that no longer fits.
pub fn outline(pixmap: &mut Pixmap, bounds: tiny_skia::Rect) {
    let Some(rect) = bounds.outset(1.5, 1.5) else {
        return;
    };
    let path = tiny_skia::PathBuilder::from_rect(rect);
    let mut paint = tiny_skia::Paint::default();
    paint.set_color_rgba8(230, 20, 20, 255);
    paint.anti_alias = false;
    let stroke = tiny_skia::Stroke {
        width: 2.0,
        ..tiny_skia::Stroke::default()
    };
    pixmap.stroke_path(
        &path,
        &paint,
        &stroke,
        tiny_skia::Transform::identity(),
        None,
    );
}

/// The picture as a PNG (tiny-skia encodes with the fast deflate setting; measured, that is
/// quicker and smaller here than the `Fast` setting with the `Up` filter, or RGB for opaque
/// pictures).
pub fn encode(pixmap: &Pixmap) -> Result<Vec<u8>, String> {
    pixmap.encode_png().map_err(|error| error.to_string())
}

/// Two pictures side by side, `gap` pixels apart, each in a panel of the larger one's
/// size; and how many of their pixels differ.
pub fn side_by_side(before: &Pixmap, after: &Pixmap, gap: u32) -> Option<(Pixmap, u64)> {
    let panel_w = before.width().max(after.width());
    let panel_h = before.height().max(after.height());
    let mut joined = Pixmap::new(panel_w.checked_mul(2)?.checked_add(gap)?, panel_h)?;
    let paint = tiny_skia::PixmapPaint::default();
    let identity = tiny_skia::Transform::identity();
    joined.draw_pixmap(0, 0, before.as_ref(), &paint, identity, None);
    joined.draw_pixmap(
        i32::try_from(panel_w + gap).ok()?,
        0,
        after.as_ref(),
        &paint,
        identity,
        None,
    );
    let pixel = |p: &Pixmap, x: u32, y: u32| {
        (x < p.width() && y < p.height())
            .then(|| p.pixels()[(y * p.width() + x) as usize])
            .map_or((0, 0, 0, 0), |c| (c.red(), c.green(), c.blue(), c.alpha()))
    };
    let mut changed = 0u64;
    for y in 0..panel_h {
        for x in 0..panel_w {
            if pixel(before, x, y) != pixel(after, x, y) {
                changed += 1;
            }
        }
    }
    Some((joined, changed))
}
