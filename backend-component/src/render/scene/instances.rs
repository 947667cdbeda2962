//! Nodes that hold other components: instances, lists, loaders, and the placeholder
//! drawn where one cannot be.

use ofgui_contracts::capabilities::RENDER_MAX_DEPTH;
use ofgui_contracts::uam::{
    ComponentResource, DisplayNode, InstanceProperties, ListProperties, ResourceRef, UamResource,
};
use tiny_skia::{Color, PixmapMut};

use crate::render::color;
use crate::render::font::Face;
use crate::render::image::Fill;
use crate::render::pages::{self, Pages, Start};
use crate::render::progress::{self};
use crate::render::shape::{self, Shape};
use crate::render::text::{self, TextStyle};

use super::layout::{Layer, fit, item_overrides, layer, selected_or};
use super::{Frame, Overrides, Painter, Placed};

impl<'a> Painter<'a> {
    /// A component node: its referenced component at the node's size, with the pages
    /// and titles the instance sets.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn instance(
        &mut self,
        canvas: &mut PixmapMut,
        frame: &Frame,
        node: &DisplayNode,
        reference: &ResourceRef,
        placed: &Placed,
        n: &ofgui_contracts::uam::ComponentNode,
        icon_property: Option<String>,
    ) {
        let mut own = Overrides::default();
        match &n.instance_properties {
            Some(InstanceProperties::Button {
                title,
                selected_title,
                icon,
                selected_icon,
                title_color,
                title_font_size,
                ..
            }) => {
                let shown = |normal, on| selected_or(placed.selected, normal, on);
                own = Overrides::titled(
                    shown(title, selected_title),
                    shown(icon, selected_icon),
                    title_color,
                    title_font_size.get(),
                );
            }
            Some(InstanceProperties::Label {
                title,
                icon,
                title_color,
                title_font_size,
                ..
            }) => own = Overrides::titled(title, icon, title_color, title_font_size.get()),
            Some(InstanceProperties::ComboBox {
                title,
                icon,
                title_color,
                ..
            }) => own = Overrides::titled(title, icon, title_color, 0.0),
            Some(InstanceProperties::ProgressBar {
                value, max, min, ..
            })
            | Some(InstanceProperties::Slider { value, max, min }) => {
                own.progress = Some(progress::Value {
                    value: value.get(),
                    min: min.get(),
                    max: max.get(),
                });
            }
            _ => {}
        }
        if let Some(text) = placed.text.clone() {
            own.title = Some(text);
        }
        if let Some(icon) = placed.icon.clone().or(icon_property) {
            own.icon = Some(icon);
        }
        if let Some(size) = placed.font_size {
            own.title_font_size = Some(size);
        }
        if let Some(colour) = placed.color.clone() {
            own.title_color = Some(colour);
        }
        for property in n.property_overrides.iter().flatten() {
            own.properties
                .entry(property.target.clone())
                .or_default()
                .push((property.property_id, property.value.clone()));
        }
        let start = Start {
            controllers: n.controller_overrides.as_deref().unwrap_or_default(),
            selected: placed.selected,
            grayed: placed.grayed,
        };
        self.nested(
            canvas,
            frame,
            node.kind(),
            reference,
            placed.width,
            placed.height,
            &start,
            &own,
        );
    }

    /// The component `reference` names (owner-relative to `package_id`), with its package.
    pub(super) fn component_of(
        &self,
        reference: &ResourceRef,
        package_id: &str,
    ) -> Option<(&'a str, &'a ComponentResource)> {
        let package_id = reference
            .package_id
            .as_deref()
            .filter(|id| !id.is_empty())
            .unwrap_or(package_id);
        let package_id = self.urls.package(package_id)?.id.as_str();
        match self.urls.resource(package_id, &reference.resource_id)? {
            UamResource::Component(component) => Some((package_id, component)),
            _ => None,
        }
    }

    /// Whether a grayed node shows grey by its component's own page, not by a filter.
    pub(super) fn grays_by_page(&self, node: &DisplayNode, package_id: &str) -> bool {
        let DisplayNode::Component(n) = node else {
            return false;
        };
        self.component_of(&n.resource, package_id)
            .is_some_and(|(_, component)| pages::grays_by_page(&component.component))
    }

    /// Draws the component `reference` names in a `w`×`h` box of `frame`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn nested(
        &mut self,
        canvas: &mut PixmapMut,
        frame: &Frame,
        kind: &str,
        reference: &ResourceRef,
        w: f32,
        h: f32,
        start: &Start,
        overrides: &Overrides,
    ) {
        let Some((package_id, component)) = self.component_of(reference, frame.package_id) else {
            self.placeholder(
                canvas,
                frame,
                w,
                h,
                kind,
                &format!(
                    "its component {} is not in the project: drawn as a placeholder box",
                    reference.resource_id
                ),
            );
            return;
        };
        self.nested_component(
            canvas, frame, kind, package_id, component, w, h, start, overrides,
        );
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn nested_component(
        &mut self,
        canvas: &mut PixmapMut,
        frame: &Frame,
        kind: &str,
        package_id: &'a str,
        component: &'a ComponentResource,
        w: f32,
        h: f32,
        start: &Start,
        overrides: &Overrides,
    ) {
        if frame.depth >= RENDER_MAX_DEPTH {
            self.placeholder(canvas, frame, w, h, kind, &format!("component {} is nested more than {RENDER_MAX_DEPTH} deep: drawn as a placeholder box", component.name));
            return;
        }
        let model = &component.component;
        let pages = Pages::instance(model, start);
        let mut inner = Overrides {
            properties: overrides.properties.clone(),
            ..Overrides::default()
        };
        inner.title = overrides.title.clone();
        inner.icon = overrides.icon.clone();
        inner.title_color = overrides.title_color.clone();
        inner.title_font_size = overrides.title_font_size;
        inner.progress = overrides.progress;
        let child = Frame {
            transform: frame.transform,
            alpha: frame.alpha,
            depth: frame.depth + 1,
            package_id,
            path: frame.path.clone(),
            shift: frame.shift,
        };
        self.component(canvas, &child, model, w, h, &pages, &inner, true);
    }

    /// A list's items (their default item, or each item's own url), laid out as the
    /// list's layout places them, clipped to the list.
    pub(super) fn list(
        &mut self,
        canvas: &mut PixmapMut,
        frame: &Frame,
        list: &ListProperties,
        w: f32,
        h: f32,
        kind: &str,
    ) {
        if list.list_items.is_empty() {
            return;
        }
        let margin = &list.margin;
        let (left, top) = (margin.left.get() as f32, margin.top.get() as f32);
        let view_w = w - left - margin.right.get() as f32;
        let view_h = h - top - margin.bottom.get() as f32;
        let line_gap = list.line_gap.get() as f32;
        let column_gap = list.column_gap.get() as f32;
        if list.layout == 4 {
            self.approximate(
                &frame.path,
                kind,
                "a paged list is drawn as a horizontal flow",
            );
        }
        let body = |painter: &mut Painter<'a>, canvas: &mut PixmapMut, frame: &Frame| {
            let (mut x, mut y) = (0.0f32, 0.0f32);
            let mut line_extent = 0.0f32;
            let mut in_line = 0;
            for (index, item) in list.list_items.iter().enumerate() {
                let url = item
                    .url
                    .clone()
                    .filter(|u| !u.is_empty())
                    .unwrap_or_else(|| list.default_item.clone());
                let Some((package_id, UamResource::Component(component))) =
                    painter.urls.locate(&url)
                else {
                    painter.approximate(
                        &format!("{}#{index}", frame.path),
                        kind,
                        format!("item {index} names no component ({url:?}): not drawn"),
                    );
                    continue;
                };
                let size = &component.component.size;
                let (mut iw, mut ih) = (size.width.get() as f32, size.height.get() as f32);
                if list.auto_resize_item {
                    match list.layout {
                        0 => iw = view_w,
                        1 => ih = view_h,
                        _ => {}
                    }
                }
                // A flow wraps at its line's item count, or else at the view's edge.
                let flow = match list.layout {
                    0 | 1 => None,
                    3 => Some((list.line_count.get() as i32, y + ih, view_h)),
                    _ => Some((list.column_count.get() as i32, x + iw, view_w)),
                };
                if let Some((count, reach, view)) = flow
                    && in_line > 0
                    && ((count > 0 && in_line >= count) || (count <= 0 && reach > view))
                {
                    if list.layout == 3 {
                        x += line_extent + column_gap;
                        y = 0.0;
                    } else {
                        y += line_extent + line_gap;
                        x = 0.0;
                    }
                    line_extent = 0.0;
                    in_line = 0;
                }
                if x < view_w && y < view_h {
                    let item_frame = Frame {
                        transform: frame.transform.pre_translate(left + x, top + y),
                        alpha: frame.alpha,
                        depth: frame.depth,
                        package_id: frame.package_id,
                        path: format!("{}#{index}", frame.path),
                        shift: frame.shift,
                    };
                    let overrides = item_overrides(item);
                    let start = Start {
                        controllers: item.controllers.as_deref().unwrap_or_default(),
                        ..Start::default()
                    };
                    painter.nested_component(
                        canvas,
                        &item_frame,
                        "component",
                        package_id,
                        component,
                        iw,
                        ih,
                        &start,
                        &overrides,
                    );
                }
                in_line += 1;
                match list.layout {
                    0 => y += ih + line_gap,
                    1 => x += iw + column_gap,
                    3 => {
                        y += ih + line_gap;
                        line_extent = line_extent.max(iw);
                    }
                    _ => {
                        x += iw + column_gap;
                        line_extent = line_extent.max(ih);
                    }
                }
                if (list.layout == 0 && y > view_h) || (list.layout == 1 && x > view_w) {
                    break;
                }
            }
        };
        layer(canvas, frame.transform, w, h, Layer::Clip, |canvas, at| {
            body(self, canvas, &frame.in_layer(frame.transform, at))
        });
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn loader(
        &mut self,
        canvas: &mut PixmapMut,
        frame: &Frame,
        props: &ofgui_contracts::uam::LoaderProperties,
        url: &str,
        w: f32,
        h: f32,
        tint: &str,
    ) {
        if url.is_empty() {
            return;
        }
        let Some((package_id, resource)) = self.urls.locate(url) else {
            let reason = if url.starts_with("ui://") {
                format!("its url {url} names nothing in the project")
            } else {
                format!("its url {url} is outside the project (loaded at run time)")
            };
            self.placeholder(
                canvas,
                frame,
                w,
                h,
                "loader",
                &format!("{reason}: drawn as a placeholder box"),
            );
            return;
        };
        let (cw, ch) = match resource {
            UamResource::Image(image) => image
                .dimensions
                .as_ref()
                .map(|d| (d.width.get() as f32, d.height.get() as f32))
                .unwrap_or((w, h)),
            UamResource::MovieClip(clip) => (
                clip.dimensions.width.get() as f32,
                clip.dimensions.height.get() as f32,
            ),
            UamResource::Component(c) => (
                c.component.size.width.get() as f32,
                c.component.size.height.get() as f32,
            ),
            other => {
                self.placeholder(
                    canvas,
                    frame,
                    w,
                    h,
                    "loader",
                    &format!(
                        "it shows a {}, which a preview cannot draw: drawn as a placeholder box",
                        other.kind()
                    ),
                );
                return;
            }
        };
        let (sx, sy) = fit(props.fill, props.shrink_only, cw, ch, w, h);
        let (dw, dh) = (cw * sx, ch * sy);
        let x = match props.align {
            1 => (w - dw) / 2.0,
            2 => w - dw,
            _ => 0.0,
        };
        let y = match props.v_align {
            1 => (h - dh) / 2.0,
            2 => h - dh,
            _ => 0.0,
        };
        let content = Frame {
            transform: frame.transform.pre_translate(x, y),
            alpha: frame.alpha,
            depth: frame.depth,
            package_id,
            path: frame.path.clone(),
            shift: frame.shift,
        };
        let fill = Fill {
            method: props.fill_method,
            origin: props.fill_origin,
            clockwise: props.fill_clockwise,
            amount: props.fill_amount.get() as f32,
        };
        match resource {
            UamResource::Image(image) => {
                let reference = ResourceRef {
                    package_id: Some(package_id.to_owned()),
                    resource_id: image.base.id.clone(),
                };
                self.image(canvas, &content, &reference, dw, dh, tint, 0, fill);
            }
            UamResource::MovieClip(clip) => {
                let reference = ResourceRef {
                    package_id: Some(package_id.to_owned()),
                    resource_id: clip.base.id.clone(),
                };
                let frame_index = props.frame.get().max(0.0) as usize;
                self.movie_clip(canvas, &content, &reference, dw, dh, tint, frame_index);
            }
            UamResource::Component(component) => {
                self.nested_component(
                    canvas,
                    &content,
                    "loader",
                    package_id,
                    component,
                    dw,
                    dh,
                    &Start::default(),
                    &Overrides::default(),
                );
            }
            _ => {}
        }
    }

    /// A labelled box where something cannot be drawn, listed with why.
    pub(super) fn placeholder(
        &mut self,
        canvas: &mut PixmapMut,
        frame: &Frame,
        w: f32,
        h: f32,
        kind: &str,
        reason: &str,
    ) {
        self.approximate(&frame.path, kind, reason);
        let (w, h) = (w.max(8.0), h.max(8.0));
        let shape = Shape {
            kind: 1,
            fill: Color::from_rgba8(128, 128, 128, 72),
            line: Color::from_rgba8(96, 96, 96, 200),
            line_size: 1.0,
            corner_radius: None,
            points: None,
            sides: 0,
            start_angle: 0.0,
            distances: None,
        };
        shape::draw(canvas, frame.transform, w, h, &shape, frame.alpha);
        let style = TextStyle {
            size: 10.0,
            color: color::with_alpha(Color::from_rgba8(48, 48, 48, 255), frame.alpha),
            align: 1,
            v_align: 1,
            leading: 0.0,
            ..TextStyle::default()
        };
        if let Some(face) = Face::bundled() {
            text::draw(
                canvas,
                frame.transform,
                w,
                h,
                kind,
                &style,
                &face,
                &mut self.glyphs,
            );
        }
    }
}
