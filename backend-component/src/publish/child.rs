//! One display-list entry (FORMAT.md §6): a position table with 7 slots (9 for lists, 10
//! for trees), then the common properties, tooltip and group, gears, relations, instance or
//! input settings, the type's own properties, text or instance overrides, and for lists
//! their scroll settings, items and tree settings. Which blocks are present, and which are
//! present but empty, follows the editor (FORMAT.md §8.3).

use ofgui_contracts::Num;
use ofgui_contracts::uam::{
    DisplayNode, EdgeInsets, GraphNode, ListProperties, NodeBase, ResourceRef, TextProperties,
};

use super::blocks::{ScrollFields, insets, is_zero_point, restrict, write_relations, write_scroll};
use super::buffer::{Buf, Offsets, with_blocks};
use super::instance::{controller_pairs, instance_block, instance_overrides, property_overrides};
use super::scope::Scope;
use super::values::{BLACK, WHITE, color, color_or, float, float_f64, int, number, short};
use super::{Ctx, PublishError, gears, kinds};

/// The bytes the editor writes as the shape block of a graph without a shape: the rect
/// fields at their defaults without the shape byte (line size 1, black line, white fill,
/// no corners). The runtimes read the first byte as "no shape" and ignore the rest.
const EMPTY_GRAPH: [u8; 13] = [0, 0, 0, 1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0];

pub(crate) fn write(ctx: &mut Ctx, scope: &Scope, node: &DisplayNode) -> Result<Buf, PublishError> {
    let base = node.base();
    let common = common(ctx, node)?;

    let mut membership = Buf::default();
    membership.text(&mut ctx.strings, &base.tooltips)?;
    let group = base.group.as_deref().and_then(|g| scope.node_index(g));
    membership.index(group, "group")?;

    let gears = gears::write(ctx, scope, &base.gears)?;

    let mut relations = Buf::default();
    write_relations(&mut relations, scope, &base.relations)?;

    let mut blocks = vec![Some(common), Some(membership), Some(gears), Some(relations)];
    match node {
        DisplayNode::Image(_)
        | DisplayNode::MovieClip(_)
        | DisplayNode::Graph(_)
        | DisplayNode::Loader(_)
        | DisplayNode::Loader3D(_)
        | DisplayNode::Group(_) => {
            blocks.push(None);
            blocks.push(Some(own_properties(ctx, node)?));
            blocks.push(Some(Buf::default()));
        }
        DisplayNode::Text(n) => {
            blocks.push(None);
            blocks.push(Some(own_properties(ctx, node)?));
            blocks.push(Some(text_block(ctx, &n.text)?));
        }
        DisplayNode::RichText(n) => {
            blocks.push(None);
            blocks.push(Some(own_properties(ctx, node)?));
            blocks.push(Some(text_block(ctx, &n.text)?));
        }
        DisplayNode::TextInput(n) => {
            let mut input = Buf::default();
            input.text(&mut ctx.strings, &n.prompt_text)?;
            input.opt(&mut ctx.strings, &n.restrict)?;
            input.i32(int(n.max_length, "maxLength")?);
            input.i32(n.keyboard_type);
            input.bool(n.password);
            blocks.push(Some(input));
            blocks.push(Some(own_properties(ctx, node)?));
            blocks.push(Some(text_block(ctx, &n.text)?));
        }
        DisplayNode::Component(n) => {
            let instantiated = ctx
                .urls
                .reference(&ctx.package.id, &n.resource)
                .and_then(|r| r.component())
                .map(|c| c.controllers.as_slice());
            blocks.push(Some(instance_block(
                ctx,
                scope,
                n.page_controller.as_deref().unwrap_or_default(),
                n.controller_overrides.as_deref().unwrap_or_default(),
                instantiated,
                n.property_overrides.as_deref().unwrap_or_default(),
            )?));
            blocks.push(Some(Buf::default()));
            blocks.push(Some(instance_overrides(ctx, scope, n)?));
        }
        // The flat control forms are a write-side alias the reader never produces; they
        // publish as plain instances (their title, icon and values are not carried yet).
        DisplayNode::Button(_)
        | DisplayNode::Label(_)
        | DisplayNode::ComboBox(_)
        | DisplayNode::ProgressBar(_)
        | DisplayNode::Slider(_)
        | DisplayNode::ScrollBar(_) => {
            blocks.push(Some(instance_block(ctx, scope, "", "", None, &[])?));
            blocks.push(Some(Buf::default()));
            blocks.push(Some(Buf::default()));
        }
        DisplayNode::List(n) => list_blocks(ctx, scope, node, &n.list, &mut blocks)?,
        DisplayNode::Tree(n) => {
            list_blocks(ctx, scope, node, &n.list, &mut blocks)?;
            let mut tree = Buf::default();
            tree.i32(int(n.tree.indent, "indent")?);
            tree.u8(u8::try_from(n.tree.click_to_expand).unwrap_or(0));
            blocks.push(Some(tree));
        }
    }
    with_blocks(Offsets::Short, blocks, "child")
}

/// Block 0: object type, resource, id, name and the properties every node has.
fn common(ctx: &mut Ctx, node: &DisplayNode) -> Result<Buf, PublishError> {
    let base = node.base();
    let mut out = Buf::default();
    out.u8(object_type(node));
    let (src, pkg) = match node {
        DisplayNode::Image(n) => (n.resource.resource_id.as_str(), foreign(ctx, &n.resource)),
        DisplayNode::MovieClip(n) => (n.resource.resource_id.as_str(), foreign(ctx, &n.resource)),
        DisplayNode::Component(n) => (n.resource.resource_id.as_str(), foreign(ctx, &n.resource)),
        DisplayNode::Button(n) | DisplayNode::Label(n) | DisplayNode::ComboBox(n) => {
            (n.src.as_str(), other_package(ctx, &n.package_id))
        }
        DisplayNode::ProgressBar(n) | DisplayNode::Slider(n) | DisplayNode::ScrollBar(n) => {
            (n.src.as_str(), other_package(ctx, &n.package_id))
        }
        _ => ("", ""),
    };
    out.opt(&mut ctx.strings, src)?;
    out.opt(&mut ctx.strings, pkg)?;
    out.id(&mut ctx.strings, &base.id)?;
    out.id(&mut ctx.strings, &base.name)?;
    out.i32(int(base.position.x, "x")?);
    out.i32(int(base.position.y, "y")?);
    // The editor publishes the size the file writes, and leaves it out where the file
    // does (the node then has its resource's own size).
    out.bool(base.explicit_size);
    if base.explicit_size {
        out.i32(int(base.size.width, "width")?);
        out.i32(int(base.size.height, "height")?);
    }
    restrict(&mut out, &base.min_size, &base.max_size)?;
    let has_scale = base.scale.x.get() != 1.0 || base.scale.y.get() != 1.0;
    out.bool(has_scale);
    if has_scale {
        out.f32(float(base.scale.x, "scale")?);
        out.f32(float(base.scale.y, "scale")?);
    }
    let has_skew = !is_zero_point(&base.skew);
    out.bool(has_skew);
    if has_skew {
        out.f32(float(base.skew.x, "skew")?);
        out.f32(float(base.skew.y, "skew")?);
    }
    // Graphs and loaders always carry a pivot in the model, (0,0) when the file has none.
    let anchor = base.pivot_as_anchor.unwrap_or(false);
    let pivot = base.pivot.as_ref().filter(|p| !is_zero_point(p) || anchor);
    out.bool(pivot.is_some());
    if let Some(pivot) = pivot {
        out.f32(float(pivot.x, "pivot")?);
        out.f32(float(pivot.y, "pivot")?);
        out.bool(anchor);
    }
    out.f32(float(base.alpha, "alpha")?);
    out.f32(float(base.rotation, "rotation")?);
    out.bool(base.visible);
    out.bool(base.touchable);
    out.bool(base.grayed);
    out.u8(blend_mode(&base.blend_mode));
    filter(&mut out, base)?;
    out.opt(&mut ctx.strings, &base.custom_data)?;
    Ok(out)
}

fn object_type(node: &DisplayNode) -> u8 {
    match node {
        DisplayNode::Image(_) => 0,
        DisplayNode::MovieClip(_) => 1,
        DisplayNode::Graph(_) => 3,
        DisplayNode::Loader(_) => 4,
        DisplayNode::Group(_) => 5,
        DisplayNode::Text(_) => 6,
        DisplayNode::RichText(_) => 7,
        DisplayNode::TextInput(_) => 8,
        DisplayNode::Component(_)
        | DisplayNode::Button(_)
        | DisplayNode::Label(_)
        | DisplayNode::ComboBox(_)
        | DisplayNode::ProgressBar(_)
        | DisplayNode::Slider(_)
        | DisplayNode::ScrollBar(_) => 9,
        DisplayNode::List(_) => 10,
        DisplayNode::Tree(_) => 17,
        DisplayNode::Loader3D(_) => 18,
    }
}

/// The package id to write beside `src`: only for a resource of another package.
fn foreign<'r>(ctx: &Ctx, reference: &'r ResourceRef) -> &'r str {
    other_package(ctx, reference.package_id.as_deref().unwrap_or_default())
}

fn other_package<'r>(ctx: &Ctx, package_id: &'r str) -> &'r str {
    if package_id == ctx.package.id {
        ""
    } else {
        package_id
    }
}

fn blend_mode(name: &str) -> u8 {
    match name {
        "none" => 1,
        "add" => 2,
        "multiply" => 3,
        "screen" => 4,
        "erase" => 5,
        _ => 0,
    }
}

/// `u8 filter`, and for a colour filter its four values (`filterData="b,c,s,h"`).
fn filter(out: &mut Buf, base: &NodeBase) -> Result<(), PublishError> {
    if base.filter != "color" {
        out.u8(0);
        return Ok(());
    }
    out.u8(1);
    let mut parts = base.filter_data.split(',').map(number);
    for _ in 0..4 {
        let value = parts.next().flatten().unwrap_or(0.0);
        out.f32(float_f64(value, "filterData")?);
    }
    Ok(())
}

/// Block 5: the properties of the node's kind.
fn own_properties(ctx: &mut Ctx, node: &DisplayNode) -> Result<Buf, PublishError> {
    let mut out = Buf::default();
    match node {
        DisplayNode::Image(n) => {
            optional_color(&mut out, &n.props.color);
            out.u8(u8::try_from(n.props.flip).unwrap_or(0));
            fill(
                &mut out,
                n.props.fill_method,
                n.props.fill_origin,
                n.props.fill_clockwise,
                n.props.fill_amount,
            )?;
        }
        DisplayNode::MovieClip(n) => {
            optional_color(&mut out, &n.props.color);
            // The model has no flip for movie clips.
            out.u8(0);
            out.i32(int(n.props.frame, "frame")?);
            out.bool(n.props.playing);
        }
        DisplayNode::Graph(n) => graph(&mut out, n)?,
        DisplayNode::Loader(n) => {
            let p = &n.props;
            out.opt(&mut ctx.strings, &p.url)?;
            out.u8(u8::try_from(p.align).unwrap_or(0));
            out.u8(u8::try_from(p.v_align).unwrap_or(0));
            out.u8(u8::try_from(p.fill).unwrap_or(0));
            out.bool(p.shrink_only);
            out.bool(p.auto_size);
            out.bool(p.show_error_sign);
            out.bool(p.playing);
            out.i32(int(p.frame, "frame")?);
            optional_color(&mut out, &p.color);
            fill(
                &mut out,
                p.fill_method,
                p.fill_origin,
                p.fill_clockwise,
                p.fill_amount,
            )?;
            if ctx.version >= 7 {
                out.bool(p.use_resize);
            }
        }
        DisplayNode::Loader3D(n) => {
            let p = &n.props;
            out.opt(&mut ctx.strings, &p.url)?;
            out.u8(u8::try_from(p.align).unwrap_or(0));
            out.u8(u8::try_from(p.v_align).unwrap_or(0));
            out.u8(u8::try_from(p.fill).unwrap_or(0));
            out.bool(p.shrink_only);
            out.bool(p.auto_size);
            out.opt(&mut ctx.strings, &p.animation_name)?;
            out.opt(&mut ctx.strings, &p.skin_name)?;
            out.bool(p.playing);
            out.i32(int(p.frame, "frame")?);
            out.bool(p.looping);
            optional_color(&mut out, &p.color);
        }
        DisplayNode::Group(n) => {
            let p = &n.props;
            out.u8(u8::try_from(p.layout).unwrap_or(0));
            out.i32(int(p.line_gap, "lineGap")?);
            out.i32(int(p.column_gap, "colGap")?);
            if ctx.version >= 2 {
                out.bool(p.exclude_invisibles);
                out.bool(p.auto_size_disabled);
                out.i16(short(p.main_grid_index, "mainGridIndex")?);
            }
        }
        DisplayNode::Text(n) => text_properties(
            ctx,
            &mut out,
            &n.text,
            n.plain.template_vars_enabled,
            n.plain.face_dilate,
        )?,
        DisplayNode::RichText(n) => text_properties(ctx, &mut out, &n.text, false, Num::ZERO)?,
        DisplayNode::TextInput(n) => text_properties(
            ctx,
            &mut out,
            &n.text,
            n.plain.template_vars_enabled,
            n.plain.face_dilate,
        )?,
        DisplayNode::List(n) => list_properties(ctx, &mut out, &n.list, n.explicit_margin)?,
        DisplayNode::Tree(n) => list_properties(ctx, &mut out, &n.list, n.explicit_margin)?,
        DisplayNode::Component(_)
        | DisplayNode::Button(_)
        | DisplayNode::Label(_)
        | DisplayNode::ComboBox(_)
        | DisplayNode::ProgressBar(_)
        | DisplayNode::Slider(_)
        | DisplayNode::ScrollBar(_) => {}
    }
    Ok(out)
}

/// `bool hasColor → color`: present unless white (the default tint).
fn optional_color(out: &mut Buf, text: &str) {
    match color(text).filter(|c| *c != WHITE) {
        Some(rgba) => {
            out.bool(true);
            out.bytes(&rgba);
        }
        None => out.bool(false),
    }
}

fn fill(
    out: &mut Buf,
    method: i32,
    origin: i32,
    clockwise: bool,
    amount: Num,
) -> Result<(), PublishError> {
    out.u8(u8::try_from(method).unwrap_or(0));
    if method != 0 {
        out.u8(u8::try_from(origin).unwrap_or(0));
        out.bool(clockwise);
        out.f32(float(amount, "fillAmount")?);
    }
    Ok(())
}

fn graph(out: &mut Buf, node: &GraphNode) -> Result<(), PublishError> {
    let p = &node.props;
    if p.graph_type == 0 {
        out.bytes(&EMPTY_GRAPH);
        return Ok(());
    }
    out.u8(u8::try_from(p.graph_type).unwrap_or(0));
    out.i32(int(p.line_size, "lineSize")?);
    out.bytes(&color_or(&p.line_color, BLACK));
    out.bytes(&color_or(&p.fill_color, WHITE));
    match p.corner_radius.as_deref() {
        Some(corners) if !corners.is_empty() => {
            out.bool(true);
            for i in 0..4 {
                let value = corners
                    .get(i)
                    .or_else(|| corners.first())
                    .copied()
                    .unwrap_or(Num::ZERO);
                out.f32(float(value, "corner")?);
            }
        }
        _ => out.bool(false),
    }
    match p.graph_type {
        3 => floats(out, p.points.as_deref().unwrap_or_default(), "points")?,
        4 => {
            out.i16(short(p.sides, "sides")?);
            out.f32(float(p.start_angle, "startAngle")?);
            floats(out, p.distances.as_deref().unwrap_or_default(), "distances")?;
        }
        _ => {}
    }
    Ok(())
}

fn floats(out: &mut Buf, values: &[Num], what: &'static str) -> Result<(), PublishError> {
    out.i16_of(values.len(), what)?;
    for v in values {
        out.f32(float(*v, what)?);
    }
    Ok(())
}

fn text_properties(
    ctx: &mut Ctx,
    out: &mut Buf,
    text: &TextProperties,
    template_vars: bool,
    face_dilate: Num,
) -> Result<(), PublishError> {
    font(ctx, out, &text.font)?;
    out.i16(short(text.font_size, "fontSize")?);
    out.bytes(&color_or(&text.color, BLACK));
    out.u8(u8::try_from(text.align).unwrap_or(0));
    out.u8(u8::try_from(text.v_align).unwrap_or(0));
    out.i16(short(text.leading, "leading")?);
    out.i16(short(text.letter_spacing, "letterSpacing")?);
    out.bool(text.ubb_enabled);
    out.u8(u8::try_from(text.auto_size).unwrap_or(1));
    out.bool(text.underline);
    out.bool(text.italic);
    out.bool(text.bold);
    out.bool(text.single_line);
    match text.stroke_color.as_deref() {
        Some(stroke) => {
            out.bool(true);
            out.bytes(&color_or(stroke, BLACK));
            out.f32(float(text.stroke_size, "strokeSize")?);
        }
        None => out.bool(false),
    }
    match text.shadow_color.as_deref() {
        Some(shadow) => {
            out.bool(true);
            out.bytes(&color_or(shadow, BLACK));
            out.f32(float(text.shadow_offset.x, "shadowOffset")?);
            out.f32(float(text.shadow_offset.y, "shadowOffset")?);
        }
        None => out.bool(false),
    }
    out.bool(template_vars);
    if ctx.version >= 3 {
        out.bool(text.strikethrough);
        out.f32(float(face_dilate, "faceDilate")?);
        out.f32(float(text.outline_softness, "outlineSoftness")?);
        out.f32(float(text.underlay_softness, "underlaySoftness")?);
    }
    Ok(())
}

/// A text's font: a bitmap font by URL, a system font by name; a TrueType font resource
/// is not published, so a URL to one becomes the font's name (as the editor writes it).
fn font(ctx: &mut Ctx, out: &mut Buf, font: &str) -> Result<(), PublishError> {
    let name = match ctx.urls.resolve(font) {
        Some(resource) if kinds::is_true_type(resource) => resource.name(),
        _ => font,
    };
    out.opt(&mut ctx.strings, name)
}

/// Block 6 of a text: the text itself (translatable).
fn text_block(ctx: &mut Ctx, text: &TextProperties) -> Result<Buf, PublishError> {
    let mut out = Buf::default();
    out.text(&mut ctx.strings, &text.text)?;
    Ok(out)
}

fn list_properties(
    ctx: &mut Ctx,
    out: &mut Buf,
    list: &ListProperties,
    explicit_margin: bool,
) -> Result<(), PublishError> {
    out.u8(u8::try_from(list.layout).unwrap_or(0));
    out.u8(u8::try_from(list.selection_mode).unwrap_or(0));
    out.u8(u8::try_from(list.align).unwrap_or(0));
    out.u8(u8::try_from(list.v_align).unwrap_or(0));
    out.i16(short(list.line_gap, "lineGap")?);
    out.i16(short(list.column_gap, "colGap")?);
    out.i16(short(list.line_count, "lineItemCount")?);
    out.i16(short(list.column_count, "lineItemCount")?);
    out.bool(list.auto_resize_item);
    out.u8(u8::try_from(list.children_render_order).unwrap_or(0));
    out.i16(short(list.apex_index, "apex")?);
    margin(out, &list.margin, explicit_margin)?;
    out.u8(u8::try_from(list.overflow).unwrap_or(0));
    let has_softness = !is_zero_point(&list.clip_softness);
    out.bool(has_softness);
    if has_softness {
        out.i32(int(list.clip_softness.x, "clipSoftness")?);
        out.i32(int(list.clip_softness.y, "clipSoftness")?);
    }
    if ctx.version >= 2 {
        out.bool(list.scroll_item_to_view_on_click);
        out.bool(list.fold_invisible_items);
    }
    Ok(())
}

/// A list's margin: the editor publishes it when the file writes the attribute, even
/// `0,0,0,0`; a margin the file would write anyway (one not zero) is published whatever
/// the flag says.
fn margin(out: &mut Buf, margin: &EdgeInsets, explicit: bool) -> Result<(), PublishError> {
    if !explicit {
        return insets(out, margin, "margin");
    }
    out.bool(true);
    for v in [margin.top, margin.bottom, margin.left, margin.right] {
        out.i32(int(v, "margin")?);
    }
    Ok(())
}

/// Blocks 4 to 8 of a list or tree.
fn list_blocks(
    ctx: &mut Ctx,
    scope: &Scope,
    node: &DisplayNode,
    list: &ListProperties,
    blocks: &mut Vec<Option<Buf>>,
) -> Result<(), PublishError> {
    blocks.push(Some(instance_block(
        ctx,
        scope,
        &list.page_controller,
        &list.controller_overrides,
        None,
        &[],
    )?));
    blocks.push(Some(own_properties(ctx, node)?));
    let mut selection = Buf::default();
    selection.index(
        scope.controller_index(&list.selection_controller),
        "selectionController",
    )?;
    blocks.push(Some(selection));
    blocks.push(if list.overflow == 2 {
        let mut out = Buf::default();
        write_scroll(
            ctx,
            &mut out,
            &ScrollFields {
                scroll_type: list.scroll_type,
                scroll_bar_display: list.scroll_bar_display,
                flags: list.scroll_bar_flags,
                margin: &list.scroll_bar_margin,
                vt: &list.vt_scroll_bar_res,
                hz: &list.hz_scroll_bar_res,
                header: &list.header_res,
                footer: &list.footer_res,
            },
        )?;
        Some(out)
    } else {
        None
    });
    let tree = matches!(node, DisplayNode::Tree(_));
    let mut items = Buf::default();
    items.opt(&mut ctx.strings, &list.default_item)?;
    items.i16_of(list.list_items.len(), "list items")?;
    for item in &list.list_items {
        let mut record = Buf::default();
        record.opt(&mut ctx.strings, item.url.as_deref().unwrap_or_default())?;
        if tree {
            record.bool(item.is_folder.unwrap_or(false));
            record.u8(u8::try_from(int(item.level, "level")?).unwrap_or(0));
        }
        record.text(&mut ctx.strings, item.title.as_deref().unwrap_or_default())?;
        record.text(
            &mut ctx.strings,
            item.selected_title.as_deref().unwrap_or_default(),
        )?;
        record.opt(&mut ctx.strings, item.icon.as_deref().unwrap_or_default())?;
        record.opt(
            &mut ctx.strings,
            item.selected_icon.as_deref().unwrap_or_default(),
        )?;
        record.opt(&mut ctx.strings, item.name.as_deref().unwrap_or_default())?;
        controller_pairs(
            ctx,
            &mut record,
            item.controllers.as_deref().unwrap_or_default(),
            None,
        )?;
        if ctx.version >= 2 {
            property_overrides(
                ctx,
                &mut record,
                item.property_overrides.as_deref().unwrap_or_default(),
            )?;
        }
        items.record_u16(&record, "list item")?;
    }
    blocks.push(Some(items));
    Ok(())
}
