//! Where a node goes and whether it shows: gears at the chosen pages, relations to a
//! resized parent, fill modes, and the layers a node paints in.

use std::rc::Rc;

use ofgui_contracts::uam::{
    Controller, DisplayNode, Gear, GearBinding, InstanceProperties, ListItem, NodeBase, Relation,
    ResourceRef,
};
use serde_json::Value;
use tiny_skia::{
    Color, FillRule, IntRect, Mask, Paint, PathBuilder, Pixmap, PixmapMut, PixmapPaint, Rect,
    Transform,
};

use crate::render::color;
use crate::render::pages::Pages;
use crate::rules::gears::has_default;

use super::{Overrides, Placed};

/// Which markup a text node's text carries.
#[derive(Clone, Copy)]
pub(super) struct Markup {
    pub(super) ubb: bool,
    pub(super) html: bool,
}

/// `picture` with its alpha multiplied by `alpha` (an inline image of a faded node).
pub(super) fn fade(picture: Rc<Pixmap>, alpha: f32) -> Rc<Pixmap> {
    if alpha >= 1.0 {
        return picture;
    }
    let mut out = (*picture).clone();
    let Some(rect) = Rect::from_xywh(0.0, 0.0, out.width() as f32, out.height() as f32) else {
        return picture;
    };
    let mut paint = Paint::default();
    paint.set_color(Color::from_rgba(0.0, 0.0, 0.0, alpha.clamp(0.0, 1.0)).unwrap_or(Color::BLACK));
    // Keeps each pixel, scaled by the paint's alpha.
    paint.blend_mode = tiny_skia::BlendMode::DestinationIn;
    out.fill_rect(rect, &paint, Transform::identity(), None);
    Rc::new(out)
}

/// A flat control's `src` and package as a reference.
pub(super) fn flat_reference(src: &str, package_id: &str) -> ResourceRef {
    ResourceRef {
        package_id: Some(package_id.to_owned()).filter(|p| !p.is_empty()),
        resource_id: src.to_owned(),
    }
}

pub(super) fn item_overrides(item: &ListItem) -> Overrides {
    let mut overrides = Overrides {
        title: item.title.clone().filter(|t| !t.is_empty()),
        icon: item.icon.clone().filter(|t| !t.is_empty()),
        ..Overrides::default()
    };
    for property in item.property_overrides.iter().flatten() {
        overrides
            .properties
            .entry(property.target.clone())
            .or_default()
            .push((property.property_id, property.value.clone()));
    }
    overrides
}

/// The child an owner's title goes to: the one named `title`.
pub(super) fn is_title(base: &NodeBase, overrides: &Overrides) -> bool {
    base.name == "title" && (overrides.title.is_some() || overrides.title_color.is_some())
}

/// The child an owner's icon goes to: the one named `icon`.
pub(super) fn is_icon(base: &NodeBase, overrides: &Overrides) -> bool {
    base.name == "icon" && overrides.icon.is_some()
}

/// The scale a loader gives its content for a fill mode (FairyGUI `FillType`).
pub(super) fn fit(fill: i32, shrink_only: bool, cw: f32, ch: f32, w: f32, h: f32) -> (f32, f32) {
    if cw <= 0.0 || ch <= 0.0 {
        return (1.0, 1.0);
    }
    let (rx, ry) = (w / cw, h / ch);
    let (mut sx, mut sy) = match fill {
        1 => (rx.min(ry), rx.min(ry)),
        2 => (ry, ry),
        3 => (rx, rx),
        4 => (rx, ry),
        5 => (rx.max(ry), rx.max(ry)),
        _ => (1.0, 1.0),
    };
    if shrink_only {
        sx = sx.min(1.0);
        sy = sy.min(1.0);
    }
    (sx, sy)
}

/// Whether a node's display gears show it at these pages (`display2` joins `display` by
/// its condition: 0 and, 1 or).
pub(super) fn displayed(base: &NodeBase, pages: &Pages) -> bool {
    let mut display = None;
    let mut display2 = None;
    for gear in &base.gears {
        let (slot, g) = match gear {
            Gear::Display(g) => (&mut display, g),
            Gear::Display2(g) => (&mut display2, g),
            _ => continue,
        };
        if let Some(page) = pages.page(&g.controller_name) {
            *slot = Some((
                g.visible_on_page_ids.iter().any(|p| p == page),
                g.condition.clone(),
            ));
        }
    }
    match (display, display2) {
        (None, None) => true,
        (Some((one, _)), None) => one,
        (None, Some((two, _))) => two,
        (Some((one, _)), Some((two, condition))) => {
            if condition.as_deref() == Some("1") {
                one || two
            } else {
                one && two
            }
        }
    }
}

/// A value gear's value at the page its controller shows: the page's, else the gear's
/// default; `None` when neither is set (the node keeps its own value).
pub(super) fn gear_value<'v>(
    gear: &'v Gear,
    pages: &Pages,
    controllers: &[Controller],
) -> Option<&'v Value> {
    let GearBinding::Value(g) = gear.binding() else {
        return None;
    };
    let page = pages.page(&g.controller_name)?;
    if let Some(value) = g
        .states
        .iter()
        .find(|s| s.page_id == page)
        .and_then(|s| s.value.as_ref())
    {
        return Some(value);
    }
    let controller = controllers.iter().find(|c| c.name == g.controller_name);
    has_default(gear.kind(), g, controller).then_some(&g.default_value)
}

pub(super) fn number(value: &Value, key: &str) -> Option<f32> {
    value.get(key).and_then(Value::as_f64).map(|n| n as f32)
}

/// A selected button's selected title or icon, when it has one.
pub(super) fn selected_or<'t>(selected: bool, normal: &'t str, on: &'t str) -> &'t str {
    if selected && !on.is_empty() {
        on
    } else {
        normal
    }
}

/// A button instance's selection: its related controller's page when it names one (the
/// runtime applies that after `checked`), else `checked`.
pub(super) fn button_selected(node: &DisplayNode, pages: &Pages) -> bool {
    let DisplayNode::Component(n) = node else {
        return false;
    };
    let Some(InstanceProperties::Button {
        controller,
        page,
        checked,
        ..
    }) = &n.instance_properties
    else {
        return false;
    };
    match pages.page(controller) {
        Some(shown) if !controller.is_empty() => shown == page,
        _ => *checked,
    }
}

/// A node's geometry and look at these pages.
pub(super) fn placed(base: &NodeBase, pages: &Pages, controllers: &[Controller]) -> Placed {
    let mut placed = Placed {
        x: base.position.x.get() as f32,
        y: base.position.y.get() as f32,
        width: base.size.width.get() as f32,
        height: base.size.height.get() as f32,
        scale_x: base.scale.x.get() as f32,
        scale_y: base.scale.y.get() as f32,
        alpha: base.alpha.get().clamp(0.0, 1.0) as f32,
        rotation: base.rotation.get() as f32,
        grayed: base.grayed,
        selected: false,
        fill_amount: None,
        color: None,
        text: None,
        icon: None,
        font_size: None,
    };
    for gear in &base.gears {
        let Some(value) = gear_value(gear, pages, controllers) else {
            continue;
        };
        match gear {
            Gear::Xy(_) => {
                placed.x = number(value, "x").unwrap_or(placed.x);
                placed.y = number(value, "y").unwrap_or(placed.y);
            }
            Gear::Size(_) => {
                placed.width = number(value, "width").unwrap_or(placed.width);
                placed.height = number(value, "height").unwrap_or(placed.height);
                placed.scale_x = number(value, "scaleX").unwrap_or(placed.scale_x);
                placed.scale_y = number(value, "scaleY").unwrap_or(placed.scale_y);
            }
            Gear::Look(_) => {
                placed.alpha = number(value, "alpha")
                    .unwrap_or(placed.alpha)
                    .clamp(0.0, 1.0);
                placed.rotation = number(value, "rotation").unwrap_or(placed.rotation);
                placed.grayed = value
                    .get("grayed")
                    .and_then(Value::as_bool)
                    .unwrap_or(placed.grayed);
            }
            Gear::Color(_) => {
                placed.color = value
                    .get("color")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
            }
            Gear::Text(_) => {
                placed.text = value.get("text").and_then(Value::as_str).map(str::to_owned);
            }
            Gear::Icon(_) => {
                placed.icon = value.get("icon").and_then(Value::as_str).map(str::to_owned);
            }
            Gear::FontSize(_) => {
                placed.font_size = value.get("fontSize").and_then(Value::as_f64);
            }
            Gear::Animation(_) | Gear::Display(_) | Gear::Display2(_) => {}
        }
    }
    placed
}

/// Moves and resizes a node by its relations to a parent drawn at `width`×`height`
/// instead of its design size (relations to siblings keep the node where it is).
pub(super) fn relate(
    placed: &mut Placed,
    relations: &[Relation],
    design_w: f32,
    design_h: f32,
    width: f32,
    height: f32,
) {
    let (dw, dh) = (width - design_w, height - design_h);
    let (rx, ry) = (
        if design_w > 0.0 {
            width / design_w
        } else {
            1.0
        },
        if design_h > 0.0 {
            height / design_h
        } else {
            1.0
        },
    );
    for relation in relations.iter().filter(|r| r.target_node_id.is_empty()) {
        let percent = relation.use_percent;
        let (x, w, y, h) = (placed.x, placed.width, placed.y, placed.height);
        match relation.relation_type {
            0 | 4 if percent => placed.x = x * rx,
            1 | 3 | 5 => placed.x = if percent { x * rx } else { x + dw / 2.0 },
            2 | 6 => placed.x = if percent { x * rx } else { x + dw },
            7 | 11 if percent => placed.y = y * ry,
            8 | 10 | 12 => placed.y = if percent { y * ry } else { y + dh / 2.0 },
            9 | 13 => placed.y = if percent { y * ry } else { y + dh },
            14 => placed.width = if percent { w * rx } else { w + dw },
            15 => placed.height = if percent { h * ry } else { h + dh },
            24 => {
                placed.width = if percent { w * rx } else { w + dw };
                placed.height = if percent { h * ry } else { h + dh };
            }
            // LeftExt_Right / TopExt_Bottom: the near edge follows, the far edge stays.
            17 => {
                placed.x = x + dw;
                placed.width = w - dw;
            }
            21 => {
                placed.y = y + dh;
                placed.height = h - dh;
            }
            // RightExt_Right / BottomExt_Bottom: the far edge follows.
            19 => placed.width = if percent { w * rx } else { w + dw },
            23 => placed.height = if percent { h * ry } else { h + dh },
            _ => {}
        }
    }
}

/// A node's box in its parent's units: position (or anchor), then rotation, skew and
/// scale about the pivot.
pub(super) fn local_transform(base: &NodeBase, placed: &Placed) -> Transform {
    let pivot = base
        .pivot
        .as_ref()
        .map_or((0.0, 0.0), |p| (p.x.get() as f32, p.y.get() as f32));
    let (px, py) = (pivot.0 * placed.width, pivot.1 * placed.height);
    let anchor = base.pivot_as_anchor.unwrap_or(false);
    let (x, y) = if anchor {
        (placed.x - px, placed.y - py)
    } else {
        (placed.x, placed.y)
    };
    let mut t = Transform::from_translate(x, y);
    let (kx, ky) = (base.skew.x.get() as f32, base.skew.y.get() as f32);
    let turned = placed.rotation != 0.0 || kx != 0.0 || ky != 0.0;
    let scaled = placed.scale_x != 1.0 || placed.scale_y != 1.0;
    if turned || scaled {
        t = t.pre_translate(px, py);
        if placed.rotation != 0.0 {
            t = t.pre_concat(Transform::from_rotate(placed.rotation));
        }
        if kx != 0.0 || ky != 0.0 {
            // Skew turns the axes, as in Flash and FairyGUI-unity's `SkewMatrix`: the x axis
            // by skewY, the y axis by skewX (not a shear by their tangents, which is flat at
            // 60°/30°).
            let (kx, ky) = (kx.to_radians(), ky.to_radians());
            t = t.pre_concat(Transform::from_row(
                ky.cos(),
                ky.sin(),
                -kx.sin(),
                kx.cos(),
                0.0,
                0.0,
            ));
        }
        t = t
            .pre_scale(placed.scale_x, placed.scale_y)
            .pre_translate(-px, -py);
    }
    t
}

pub(super) fn fill_rect(
    canvas: &mut PixmapMut,
    transform: Transform,
    w: f32,
    h: f32,
    colour: Color,
    alpha: f32,
) {
    let Some(rect) = Rect::from_xywh(0.0, 0.0, w, h) else {
        return;
    };
    let mut paint = Paint::default();
    paint.set_color(color::with_alpha(colour, alpha));
    paint.anti_alias = false;
    canvas.fill_rect(rect, &paint, transform, None);
}

/// The canvas pixels a `w`×`h` box under `transform` covers, clamped to the canvas.
pub(super) fn covered(canvas: &PixmapMut, transform: Transform, w: f32, h: f32) -> Option<IntRect> {
    let mut corners = [
        tiny_skia::Point::from_xy(0.0, 0.0),
        tiny_skia::Point::from_xy(w, 0.0),
        tiny_skia::Point::from_xy(0.0, h),
        tiny_skia::Point::from_xy(w, h),
    ];
    transform.map_points(&mut corners);
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for p in corners {
        x0 = x0.min(p.x);
        y0 = y0.min(p.y);
        x1 = x1.max(p.x);
        y1 = y1.max(p.y);
    }
    let x0 = x0.floor().max(0.0);
    let y0 = y0.floor().max(0.0);
    let x1 = x1.ceil().min(canvas.width() as f32);
    let y1 = y1.ceil().min(canvas.height() as f32);
    if !(x1 > x0 && y1 > y0) {
        return None;
    }
    IntRect::from_xywh(x0 as i32, y0 as i32, (x1 - x0) as u32, (y1 - y0) as u32)
}

/// How a layer is composited back.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Layer {
    /// Everything outside the box is cut away (overflow hidden, lists).
    Clip,
    /// The layer is made grey (a grayed node); it may draw a little past its box.
    Grey,
}

/// Draws into an offscreen window of the canvas over the box, then composites it back
/// clipped or grey. `draw` gets the window and `transform` moved into it.
pub(super) fn layer(
    canvas: &mut PixmapMut,
    transform: Transform,
    w: f32,
    h: f32,
    kind: Layer,
    draw: impl FnOnce(&mut PixmapMut, Transform),
) {
    let area = match kind {
        Layer::Clip => covered(canvas, transform, w, h),
        // Children and text of a grayed node may reach past its box.
        Layer::Grey => {
            let margin = 64.0;
            let grown = transform.pre_translate(-margin, -margin);
            covered(canvas, grown, w + 2.0 * margin, h + 2.0 * margin)
        }
    };
    let Some(area) = area else {
        return;
    };
    let Some(mut window) = Pixmap::new(area.width(), area.height()) else {
        return;
    };
    let shifted = transform.post_translate(-(area.x() as f32), -(area.y() as f32));
    draw(&mut window.as_mut(), shifted);
    match kind {
        Layer::Grey => {
            for pixel in window.pixels_mut() {
                // Luminance of premultiplied channels stays premultiplied.
                let (r, g, b, a) = (pixel.red(), pixel.green(), pixel.blue(), pixel.alpha());
                let grey =
                    ((u32::from(r) * 77 + u32::from(g) * 150 + u32::from(b) * 29) >> 8) as u8;
                if let Some(c) = tiny_skia::PremultipliedColorU8::from_rgba(
                    grey.min(a),
                    grey.min(a),
                    grey.min(a),
                    a,
                ) {
                    *pixel = c;
                }
            }
        }
        Layer::Clip => {
            // The window already cuts an axis-aligned box; a turned one needs its shape.
            let turned = transform.kx != 0.0 || transform.ky != 0.0;
            if turned
                && let Some(rect) = Rect::from_xywh(0.0, 0.0, w, h)
                && let Some(mut mask) = Mask::new(area.width(), area.height())
            {
                let path = PathBuilder::from_rect(rect);
                mask.fill_path(&path, FillRule::Winding, true, shifted);
                window.apply_mask(&mask);
            }
        }
    }
    canvas.draw_pixmap(
        area.x(),
        area.y(),
        window.as_ref(),
        &PixmapPaint::default(),
        Transform::identity(),
        None,
    );
}
