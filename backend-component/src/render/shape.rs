//! FairyGUI graph nodes (`<graph>`): rectangles, rounded rectangles, ellipses, polygons and
//! regular polygons, drawn as the runtime's meshes (`RectMesh`, `RoundedRectMesh`,
//! `EllipseMesh`, `PolygonMesh`, `RegularPolygonMesh`) lay them out.

use super::color::with_alpha;
use tiny_skia::{
    Color, FillRule, LineCap, LineJoin, Paint, Path, PathBuilder, PixmapMut, Rect, Stroke,
    Transform,
};

/// Cubic Bézier handle length for a quarter circle of radius 1.
const KAPPA: f32 = 0.552_284_8;
/// More sides than any real design uses; bounds the work a hostile file can ask for.
const MAX_SIDES: i32 = 4096;

/// One graph node's look, in the node's local pixels.
#[derive(Clone, Copy, Debug)]
pub struct Shape<'a> {
    /// 0 empty, 1 rect (rounded when `corner_radius` is set), 2 ellipse, 3 polygon,
    /// 4 regular polygon.
    pub kind: i32,
    pub fill: Color,
    pub line: Color,
    pub line_size: f32,
    /// One radius for every corner, or four in the runtime's order: top-left, top-right,
    /// bottom-left, bottom-right.
    pub corner_radius: Option<&'a [f32]>,
    /// x0, y0, x1, y1… for polygons.
    pub points: Option<&'a [f32]>,
    pub sides: i32,
    /// Degrees, clockwise on screen from +x, of a regular polygon's first vertex.
    pub start_angle: f32,
    /// Per-vertex radius fractions of a regular polygon.
    pub distances: Option<&'a [f32]>,
}

/// Draws `shape` in the box `0..width × 0..height` that `transform` maps onto `canvas`,
/// with its colours' alpha multiplied by `alpha`. Bad or empty inputs draw nothing.
pub fn draw(
    canvas: &mut PixmapMut,
    transform: Transform,
    width: f32,
    height: f32,
    shape: &Shape,
    alpha: f32,
) {
    let usable = width.is_finite()
        && height.is_finite()
        && alpha > 0.0
        && transform.is_finite()
        && transform.invert().is_some();
    if !usable {
        return;
    }
    let alpha = alpha.min(1.0);
    let fill = with_alpha(shape.fill, alpha);
    let line = with_alpha(shape.line, alpha);
    let line_size = if shape.line_size.is_finite() {
        shape.line_size.max(0.0)
    } else {
        0.0
    };
    let mut painter = Painter { canvas, transform };
    match shape.kind {
        1 => match corner_radii(shape.corner_radius, width, height) {
            Some(radii) => rounded_rect(&mut painter, width, height, radii, line_size, fill, line),
            None => rect(&mut painter, width, height, line_size, fill, line),
        },
        2 => ellipse(&mut painter, width, height, line_size, fill, line),
        3 => polygon(&mut painter, shape.points, line_size, fill, line),
        4 => regular_polygon(&mut painter, width, height, shape, line_size, fill, line),
        _ => {}
    }
}

struct Painter<'c, 'p> {
    canvas: &'c mut PixmapMut<'p>,
    transform: Transform,
}

impl Painter<'_, '_> {
    fn paint(colour: Color) -> Option<Paint<'static>> {
        if colour.alpha() <= 0.0 {
            return None;
        }
        let mut paint = Paint::default();
        paint.set_color(colour);
        paint.anti_alias = true;
        Some(paint)
    }

    /// Axis-aligned transforms are folded into the rectangle so tiny-skia uses its exact
    /// rectangle rasterizer (crisp on whole pixels) instead of a transformed path.
    fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, colour: Color) {
        let (Some(paint), Some(local)) = (Self::paint(colour), Rect::from_xywh(x, y, w, h)) else {
            return;
        };
        let ts = self.transform;
        if ts.kx == 0.0 && ts.ky == 0.0 {
            let xs = sorted(ts.sx * local.left() + ts.tx, ts.sx * local.right() + ts.tx);
            let ys = sorted(ts.sy * local.top() + ts.ty, ts.sy * local.bottom() + ts.ty);
            // Clamp so absurd sizes stay within tiny-skia's numeric range; it clips anyway.
            let limit = 1.0e7;
            if let Some(device) = Rect::from_ltrb(
                xs.0.max(-limit),
                ys.0.max(-limit),
                xs.1.min(limit),
                ys.1.min(limit),
            ) {
                self.canvas
                    .fill_rect(device, &paint, Transform::identity(), None);
            }
        } else {
            self.canvas.fill_rect(local, &paint, ts, None);
        }
    }

    fn path(&mut self, path: Option<Path>, rule: FillRule, colour: Color) {
        if let (Some(paint), Some(path)) = (Self::paint(colour), path) {
            self.canvas
                .fill_path(&path, &paint, rule, self.transform, None);
        }
    }

    fn stroke(&mut self, path: Option<Path>, width: f32, colour: Color) {
        if let (Some(paint), Some(path)) = (Self::paint(colour), path) {
            // The runtime joins its edge quads with a bevel triangle.
            let stroke = Stroke {
                width,
                line_cap: LineCap::Butt,
                line_join: LineJoin::Bevel,
                ..Stroke::default()
            };
            self.canvas
                .stroke_path(&path, &paint, &stroke, self.transform, None);
        }
    }
}

fn sorted(a: f32, b: f32) -> (f32, f32) {
    if a <= b { (a, b) } else { (b, a) }
}

/// The line as four bands inside the edge (left and right full height, top and bottom
/// between them, as `RectMesh` does, so nothing overlaps), the fill inside them.
fn rect(p: &mut Painter, w: f32, h: f32, lw: f32, fill: Color, line: Color) {
    if lw <= 0.0 {
        p.rect(0.0, 0.0, w, h, fill);
        return;
    }
    let band = lw.min(w / 2.0);
    let bar = lw.min(h / 2.0);
    p.rect(0.0, 0.0, band, h, line);
    p.rect(w - band, 0.0, band, h, line);
    p.rect(band, 0.0, w - 2.0 * band, bar, line);
    p.rect(band, h - bar, w - 2.0 * band, bar, line);
    p.rect(lw, lw, w - 2.0 * lw, h - 2.0 * lw, fill);
}

/// Radii [top-left, top-right, bottom-left, bottom-right], each at most half the shorter
/// side; `None` when every corner is square (a plain rect).
fn corner_radii(values: Option<&[f32]>, w: f32, h: f32) -> Option<[f32; 4]> {
    let values = values?;
    let limit = (w.min(h) / 2.0).max(0.0);
    let clean = |v: f32| {
        if v.is_finite() {
            v.clamp(0.0, limit)
        } else {
            0.0
        }
    };
    let radii = match values {
        [tl, tr, bl, br, ..] => [clean(*tl), clean(*tr), clean(*bl), clean(*br)],
        [all, ..] => [clean(*all); 4],
        [] => return None,
    };
    radii.iter().any(|&r| r > 0.0).then_some(radii)
}

/// A rounded rectangle from (x0, y0) to (x1, y1) with radii [tl, tr, bl, br].
fn rounded_path(pb: &mut PathBuilder, x0: f32, y0: f32, x1: f32, y1: f32, r: [f32; 4]) {
    let [tl, tr, bl, br] = r;
    let k = KAPPA;
    pb.move_to(x0 + tl, y0);
    pb.line_to(x1 - tr, y0);
    if tr > 0.0 {
        pb.cubic_to(x1 - tr + tr * k, y0, x1, y0 + tr - tr * k, x1, y0 + tr);
    }
    pb.line_to(x1, y1 - br);
    if br > 0.0 {
        pb.cubic_to(x1, y1 - br + br * k, x1 - br + br * k, y1, x1 - br, y1);
    }
    pb.line_to(x0 + bl, y1);
    if bl > 0.0 {
        pb.cubic_to(x0 + bl - bl * k, y1, x0, y1 - bl + bl * k, x0, y1 - bl);
    }
    pb.line_to(x0, y0 + tl);
    if tl > 0.0 {
        pb.cubic_to(x0, y0 + tl - tl * k, x0 + tl - tl * k, y0, x0 + tl, y0);
    }
    pb.close();
}

/// `RoundedRectMesh`: the line runs from each corner's radius r in to r − line size around
/// the same centre, which is the outline inset by the line size.
fn rounded_rect(p: &mut Painter, w: f32, h: f32, r: [f32; 4], lw: f32, fill: Color, line: Color) {
    let inner_radii = r.map(|v| (v - lw).max(0.0));
    let inner = |pb: &mut PathBuilder| {
        if w - 2.0 * lw > 0.0 && h - 2.0 * lw > 0.0 {
            rounded_path(pb, lw, lw, w - lw, h - lw, inner_radii);
        }
    };
    let mut pb = PathBuilder::new();
    inner(&mut pb);
    p.path(pb.finish(), FillRule::Winding, fill);
    if lw > 0.0 {
        let mut pb = PathBuilder::new();
        rounded_path(&mut pb, 0.0, 0.0, w, h, r);
        inner(&mut pb);
        p.path(pb.finish(), FillRule::EvenOdd, line);
    }
}

/// `EllipseMesh`: inscribed in the box; the line spans radius r to r − line size on both axes.
fn ellipse(p: &mut Painter, w: f32, h: f32, lw: f32, fill: Color, line: Color) {
    let inner = Rect::from_xywh(lw, lw, w - 2.0 * lw, h - 2.0 * lw);
    p.path(
        inner.and_then(PathBuilder::from_oval),
        FillRule::Winding,
        fill,
    );
    if lw > 0.0 {
        let Some(outer) = Rect::from_xywh(0.0, 0.0, w, h) else {
            return;
        };
        let mut pb = PathBuilder::new();
        pb.push_oval(outer);
        if let Some(inner) = inner {
            pb.push_oval(inner);
        }
        p.path(pb.finish(), FillRule::EvenOdd, line);
    }
}

fn closed(points: impl Iterator<Item = (f32, f32)>) -> Option<Path> {
    let mut pb = PathBuilder::new();
    for (i, (x, y)) in points.enumerate() {
        if i == 0 {
            pb.move_to(x, y);
        } else {
            pb.line_to(x, y);
        }
    }
    pb.close();
    pb.finish()
}

/// `PolygonMesh`: the fill, then the line centred on each edge on top of it.
fn polygon(p: &mut Painter, points: Option<&[f32]>, lw: f32, fill: Color, line: Color) {
    let Some(points) = points else {
        return;
    };
    if points.len() < 6 || points.iter().any(|v| !v.is_finite()) {
        return;
    }
    let vertices = || points.chunks_exact(2).map(|xy| (xy[0], xy[1]));
    p.path(closed(vertices()), FillRule::Winding, fill);
    if lw > 0.0 {
        p.stroke(closed(vertices()), lw, line);
    }
}

/// `RegularPolygonMesh`: radius min(w, h)/2 around (radius, radius) — the runtime's centre,
/// which is the box centre only for square boxes — with the line from each vertex's radius
/// in by the line size.
fn regular_polygon(
    p: &mut Painter,
    w: f32,
    h: f32,
    shape: &Shape,
    lw: f32,
    fill: Color,
    line: Color,
) {
    let sides = shape.sides;
    if !(3..=MAX_SIDES).contains(&sides) || !shape.start_angle.is_finite() {
        return;
    }
    let sides = sides as usize;
    // The runtime refuses to draw when there are fewer distances than sides.
    if shape.distances.is_some_and(|d| d.len() < sides) {
        return;
    }
    let radius = w.min(h) / 2.0;
    if radius <= 0.0 {
        return;
    }
    let (cx, cy) = (radius, radius);
    let start = shape.start_angle.to_radians();
    let step = std::f32::consts::TAU / sides as f32;
    let vertex = |i: usize, inset: f32| {
        let fraction = shape
            .distances
            .and_then(|d| d.get(i))
            .copied()
            .filter(|v| v.is_finite())
            .unwrap_or(1.0);
        let r = (radius * fraction - inset).max(0.0);
        let a = start + step * i as f32;
        (cx + r * a.cos(), cy + r * a.sin())
    };
    let inner = || (0..sides).map(|i| vertex(i, lw));
    p.path(closed(inner()), FillRule::Winding, fill);
    if lw > 0.0 {
        let mut pb = PathBuilder::new();
        for ring in [0.0, lw] {
            for i in 0..sides {
                let (x, y) = vertex(i, ring);
                if i == 0 {
                    pb.move_to(x, y);
                } else {
                    pb.line_to(x, y);
                }
            }
            pb.close();
        }
        p.path(pb.finish(), FillRule::EvenOdd, line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::color::parse;
    use tiny_skia::Pixmap;

    fn rgba(p: &Pixmap, x: u32, y: u32) -> [u8; 4] {
        let c = p.pixel(x, y).expect("pixel inside").demultiply();
        [c.red(), c.green(), c.blue(), c.alpha()]
    }

    fn shape(kind: i32) -> Shape<'static> {
        Shape {
            kind,
            fill: parse("#00ff00").expect("colour"),
            line: parse("#0000ff").expect("colour"),
            line_size: 0.0,
            corner_radius: None,
            points: None,
            sides: 0,
            start_angle: 0.0,
            distances: None,
        }
    }

    fn render(size: (u32, u32), ts: Transform, w: f32, h: f32, s: &Shape) -> Pixmap {
        let mut canvas = Pixmap::new(size.0, size.1).expect("canvas");
        draw(&mut canvas.as_mut(), ts, w, h, s, 1.0);
        canvas
    }

    const GREEN: [u8; 4] = [0, 255, 0, 255];
    const BLUE: [u8; 4] = [0, 0, 255, 255];
    const EMPTY: u8 = 0;

    #[test]
    fn rect_line_sits_inside_the_edge() {
        let s = Shape {
            line_size: 2.0,
            ..shape(1)
        };
        let c = render(
            (40, 30),
            Transform::from_translate(5.0, 5.0),
            20.0,
            10.0,
            &s,
        );
        for (x, y) in [
            (5, 5),
            (6, 6),
            (24, 14),
            (23, 10),
            (15, 5),
            (15, 14),
            (5, 10),
        ] {
            assert_eq!(rgba(&c, x, y), BLUE, "line at {x},{y}");
        }
        for (x, y) in [(7, 7), (22, 12), (15, 10)] {
            assert_eq!(rgba(&c, x, y), GREEN, "fill at {x},{y}");
        }
        for (x, y) in [(4, 4), (25, 10), (15, 15), (15, 4)] {
            assert_eq!(rgba(&c, x, y)[3], EMPTY, "outside at {x},{y}");
        }
        // Half alpha halves both colours.
        let mut canvas = Pixmap::new(40, 30).expect("canvas");
        draw(
            &mut canvas.as_mut(),
            Transform::identity(),
            20.0,
            10.0,
            &s,
            0.5,
        );
        assert!((126..=129).contains(&rgba(&canvas, 0, 0)[3]));
        assert!((126..=129).contains(&rgba(&canvas, 10, 5)[3]));
    }

    #[test]
    fn ellipse_fills_its_centre_not_the_corners() {
        let s = Shape {
            line_size: 2.0,
            ..shape(2)
        };
        let c = render((40, 20), Transform::identity(), 40.0, 20.0, &s);
        assert_eq!(rgba(&c, 20, 10), GREEN);
        assert_eq!(rgba(&c, 20, 1), BLUE);
        assert_eq!(rgba(&c, 1, 10), BLUE);
        for (x, y) in [(0, 0), (39, 0), (0, 19), (39, 19), (3, 2)] {
            assert_eq!(rgba(&c, x, y)[3], EMPTY, "corner {x},{y}");
        }
    }

    #[test]
    fn regular_triangle() {
        let s = Shape {
            sides: 3,
            start_angle: -90.0,
            ..shape(4)
        };
        let c = render((40, 40), Transform::identity(), 40.0, 40.0, &s);
        // Apex up at (20, 0), base at y = 30.
        assert_eq!(rgba(&c, 20, 20), GREEN);
        assert_eq!(rgba(&c, 20, 3), GREEN);
        assert_eq!(rgba(&c, 20, 28), GREEN);
        assert_eq!(rgba(&c, 20, 33)[3], EMPTY);
        assert_eq!(rgba(&c, 5, 5)[3], EMPTY);
        assert_eq!(rgba(&c, 35, 5)[3], EMPTY);

        // Distances pull the base vertices in; too few distances draw nothing.
        let d = [1.0, 0.5, 0.5];
        let s2 = Shape {
            distances: Some(&d),
            ..s
        };
        let c = render((40, 40), Transform::identity(), 40.0, 40.0, &s2);
        assert_eq!(rgba(&c, 20, 3), GREEN);
        assert_eq!(rgba(&c, 20, 28)[3], EMPTY);
        let short = [1.0, 0.5];
        let s3 = Shape {
            distances: Some(&short),
            ..s
        };
        let c = render((40, 40), Transform::identity(), 40.0, 40.0, &s3);
        assert_eq!(rgba(&c, 20, 20)[3], EMPTY);

        // A line of 3: the apex is line-coloured, the centre still fill.
        let s4 = Shape {
            line_size: 3.0,
            ..s
        };
        let c = render((40, 40), Transform::identity(), 40.0, 40.0, &s4);
        assert_eq!(rgba(&c, 20, 2), BLUE);
        assert_eq!(rgba(&c, 20, 20), GREEN);
    }

    #[test]
    fn rounded_rect_corners_are_empty_and_ordered() {
        let all = [10.0];
        let s = Shape {
            corner_radius: Some(&all),
            ..shape(1)
        };
        let c = render((40, 40), Transform::identity(), 40.0, 40.0, &s);
        for (x, y) in [(0, 0), (39, 0), (0, 39), (39, 39), (1, 1)] {
            assert_eq!(rgba(&c, x, y)[3], EMPTY, "corner {x},{y}");
        }
        for (x, y) in [(20, 0), (0, 20), (39, 20), (20, 39), (20, 20)] {
            assert_eq!(rgba(&c, x, y), GREEN, "edge {x},{y}");
        }
        // Four values are top-left, top-right, bottom-left, bottom-right.
        let bl = [0.0, 0.0, 10.0, 0.0];
        let s = Shape {
            corner_radius: Some(&bl),
            line_size: 2.0,
            ..shape(1)
        };
        let c = render((40, 40), Transform::identity(), 40.0, 40.0, &s);
        assert_eq!(rgba(&c, 0, 39)[3], EMPTY);
        assert_eq!(rgba(&c, 0, 0), BLUE);
        assert_eq!(rgba(&c, 39, 0), BLUE);
        assert_eq!(rgba(&c, 39, 39), BLUE);
        assert_eq!(rgba(&c, 20, 20), GREEN);
    }

    #[test]
    fn polygon_from_points() {
        let pts = [5.0, 5.0, 35.0, 5.0, 5.0, 35.0];
        let s = Shape {
            points: Some(&pts),
            line_size: 2.0,
            ..shape(3)
        };
        let c = render((40, 40), Transform::identity(), 40.0, 40.0, &s);
        assert_eq!(rgba(&c, 12, 12), GREEN);
        assert_eq!(rgba(&c, 20, 5), BLUE);
        assert_eq!(rgba(&c, 30, 30)[3], EMPTY);
        let few = [1.0, 2.0, 3.0];
        let s = Shape {
            points: Some(&few),
            ..shape(3)
        };
        let c = render((40, 40), Transform::identity(), 40.0, 40.0, &s);
        assert!(c.data().iter().all(|&b| b == 0));
    }

    #[test]
    fn odd_inputs_stay_safe() {
        let radii = [f32::NAN, -1.0, 1e30, 5.0];
        let pts = [0.0, 0.0, 1e30, 1e30, -1e30, 5.0, f32::NAN, 1.0];
        let dist = [f32::NAN, -2.0, 1e9];
        let mut canvas = Pixmap::new(16, 16).expect("canvas");
        for kind in -1..6 {
            for sides in [i32::MIN, -3, 0, 1, 2, 3, 100_000, i32::MAX] {
                for (w, h) in [
                    (0.0, 0.0),
                    (-5.0, 3.0),
                    (f32::NAN, 2.0),
                    (1e9, 1e9),
                    (8.0, 8.0),
                ] {
                    for line_size in [0.0, -1.0, f32::INFINITY, 100.0, 1.5] {
                        let s = Shape {
                            kind,
                            line_size,
                            sides,
                            corner_radius: Some(&radii),
                            points: Some(&pts),
                            distances: Some(&dist),
                            start_angle: f32::NAN,
                            ..shape(kind)
                        };
                        for ts in [Transform::identity(), Transform::from_rotate(30.0)] {
                            draw(&mut canvas.as_mut(), ts, w, h, &s, 1.0);
                        }
                    }
                }
            }
        }
    }
}
