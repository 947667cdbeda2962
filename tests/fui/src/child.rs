//! One display-list entry of a component. A child record starts with its own position table
//! (`i16` offsets); its blocks are: 0 common properties, 1 tooltip and group, 2 gears,
//! 3 relations, 4 instance overrides or input settings, 5 type-specific properties, 6 text,
//! list selection controller or extension overrides, 7 list scroll settings, 8 list items,
//! 9 tree settings. Blocks without content for the child's type are absent or empty.

use serde_json::Value;

use crate::error::{DecodeError, Result, Within};
use crate::gear;
use crate::layout::{margin, relations, restrict_size, scroll_settings};
use crate::names::{
    ALIGN, AUTOSIZE, BLEND_MODES, CHILDREN_ORDER, FILL_METHOD, FILL_TYPES, FLIP, GRAPH_SHAPES,
    GROUP_LAYOUT, LIST_LAYOUT, LIST_SELECTION, OBJECT_TYPES, OVERFLOW, OVERFLOW_SCROLL,
    POPUP_DIRECTION, VALIGN, object,
};
use crate::reader::{BlockTable, Fields, Reader, hex, unknown_code};

/// Child filter codes: none, or a color filter with four parameters.
const FILTER_NONE: u8 = 0;
const FILTER_COLOR: u8 = 1;
/// Graph shapes with extra data (the empty shape has a fixed tail, see `graph`).
const SHAPE_EMPTY: u8 = 0;
const SHAPE_POLYGON: u8 = 3;
const SHAPE_REGULAR_POLYGON: u8 = 4;
/// Fill method "none": no origin, direction or amount follow.
const FILL_NONE: u8 = 0;

pub(crate) fn child(record: Reader<'_>) -> Result<Value> {
    let table = BlockTable::parse(&record)?;
    let mut child = Fields::default();
    let (object_type, id) = table
        .required(0, "common properties")?
        .read_all(|r| common(r, &mut child))
        .within(|| "block 0")?;
    let type_name = OBJECT_TYPES
        .get(usize::from(object_type))
        .copied()
        .unwrap_or("?");
    blocks(&table, object_type, &mut child)
        .within(|| format!("{} ({type_name})", id.unwrap_or("(null id)")))?;
    child.put("blockTable", table.describe());
    Ok(child.into())
}

/// Block 0. Returns the object type and the child's id.
fn common<'a>(r: &mut Reader<'a>, child: &mut Fields) -> Result<(u8, Option<&'a str>)> {
    let (object_type, name) = r.known_code("object type", OBJECT_TYPES)?;
    child.put("type", name);
    child.string(r, "src")?;
    child.string(r, "pkg")?;
    let id = child.string(r, "id")?;
    child.string(r, "name")?;
    child.i32(r, "x")?;
    child.i32(r, "y")?;
    if r.bool("hasSize")? {
        child.put("size", r.i32s(2, "size")?);
    }
    if r.bool("hasRestrict")? {
        child.put("restrictSize", restrict_size(r)?);
    }
    if r.bool("hasScale")? {
        child.put("scale", r.f32s(2, "scale")?);
    }
    if r.bool("hasSkew")? {
        child.put("skew", r.f32s(2, "skew")?);
    }
    if r.bool("hasPivot")? {
        child.put("pivot", r.f32s(2, "pivot")?);
        child.bool(r, "pivotAsAnchor")?;
    }
    child.f32(r, "alpha")?;
    child.f32(r, "rotation")?;
    child.bool(r, "visible")?;
    child.bool(r, "touchable")?;
    child.bool(r, "grayed")?;
    child.named(r, "blend", BLEND_MODES)?;
    let offset = r.pos();
    match r.u8("filter")? {
        FILTER_NONE => {}
        FILTER_COLOR => {
            let mut filter = Fields::default();
            filter.put("type", "color");
            for parameter in ["brightness", "contrast", "saturation", "hue"] {
                filter.f32(r, parameter)?;
            }
            child.put("filter", filter);
        }
        other => return Err(unknown_code(offset, "filter", other)),
    }
    child.string(r, "customData")?;
    Ok((object_type, id))
}

/// Blocks 1 to 9, each only where the child's type has it.
fn blocks(table: &BlockTable<'_>, object_type: u8, child: &mut Fields) -> Result<()> {
    let is_text = object::is_text(object_type);
    let is_list = object::is_list(object_type);
    let is_instance = object::is_component_instance(object_type);
    if let Some(r) = table.block(1)? {
        r.read_all(|r| {
            child.string(r, "tooltips")?;
            child.i16(r, "group")?;
            Ok(())
        })
        .within(|| "block 1")?;
    }
    if let Some(r) = table.block(2)? {
        child.put(
            "gears",
            r.read_all(gear::gears).within(|| "block 2 (gears)")?,
        );
    }
    if let Some(r) = table.block(3)? {
        child.put(
            "relations",
            r.read_all(relations).within(|| "block 3 (relations)")?,
        );
    }
    if let Some(r) = table.content(4)? {
        if object_type == object::INPUTTEXT {
            child.put(
                "input",
                r.read_all(input_settings).within(|| "block 4 (input)")?,
            );
        } else if is_instance || is_list {
            child.put(
                "component",
                r.read_all(instance_overrides)
                    .within(|| "block 4 (overrides)")?,
            );
        } else {
            return Err(not_for_type(&r, 4));
        }
    }
    if let Some(r) = table.content(5)? {
        let has_scroll_block = table.block(7)?.is_some();
        let mut properties = Fields::default();
        r.read_all(|r| type_properties(r, object_type, has_scroll_block, &mut properties))
            .within(|| "block 5")?;
        child.extend(properties);
    }
    if let Some(r) = table.content(6)? {
        if is_text {
            r.read_all(|r| child.string(r, "text").map(|_| ()))
                .within(|| "block 6 (text)")?;
        } else if is_list {
            r.read_all(|r| child.i16(r, "selectionController").map(|_| ()))
                .within(|| "block 6")?;
        } else if is_instance {
            child.put(
                "extension",
                r.read_all(extension_overrides)
                    .within(|| "block 6 (extension)")?,
            );
        } else {
            return Err(not_for_type(&r, 6));
        }
    }
    if let Some(r) = table.content(7)? {
        if !is_list {
            return Err(not_for_type(&r, 7));
        }
        child.put(
            "scrollPane",
            r.read_all(scroll_settings).within(|| "block 7 (scroll)")?,
        );
    }
    if let Some(r) = table.content(8)? {
        if !is_list {
            return Err(not_for_type(&r, 8));
        }
        let is_tree = object_type == object::TREE;
        r.read_all(|r| list_items(r, is_tree, child))
            .within(|| "block 8 (items)")?;
    }
    if let Some(r) = table.content(9)? {
        if object_type != object::TREE {
            return Err(not_for_type(&r, 9));
        }
        let tree = r
            .read_all(|r| {
                let mut tree = Fields::default();
                tree.i32(r, "indent")?;
                tree.u8(r, "clickToExpand")?;
                Ok(tree)
            })
            .within(|| "block 9 (tree)")?;
        child.put("tree", tree);
    }
    table.expect_no_blocks_from(10)
}

/// The error for a block holding content that the child's type does not have.
fn not_for_type(block: &Reader<'_>, slot: usize) -> DecodeError {
    block.invalid(
        block.pos(),
        "block",
        format!("block {slot} has content, but this type of child has none there"),
    )
}

/// Block 5: the properties of the child's own type.
fn type_properties(
    r: &mut Reader<'_>,
    object_type: u8,
    has_scroll_block: bool,
    out: &mut Fields,
) -> Result<()> {
    match object_type {
        object::IMAGE => {
            optional_color(r, out, "color")?;
            out.named(r, "flip", FLIP)?;
            fill(r, out)?;
        }
        object::MOVIECLIP => {
            optional_color(r, out, "color")?;
            out.named(r, "flip", FLIP)?;
            out.i32(r, "frame")?;
            out.bool(r, "playing")?;
        }
        object::GRAPH => graph(r, out)?,
        object::LOADER => {
            loader_layout(r, out)?;
            out.bool(r, "errorSign")?;
            out.bool(r, "playing")?;
            out.i32(r, "frame")?;
            optional_color(r, out, "color")?;
            fill(r, out)?;
            if r.version() >= 7 {
                out.bool(r, "useResize")?;
            }
        }
        object::LOADER3D => {
            loader_layout(r, out)?;
            out.string(r, "animationName")?;
            out.string(r, "skinName")?;
            out.bool(r, "playing")?;
            out.i32(r, "frame")?;
            out.bool(r, "loop")?;
            optional_color(r, out, "color")?;
        }
        object::GROUP => {
            out.named(r, "layout", GROUP_LAYOUT)?;
            out.i32(r, "lineGap")?;
            out.i32(r, "colGap")?;
            if r.version() >= 2 {
                out.bool(r, "excludeInvisibles")?;
                out.bool(r, "autoSizeDisabled")?;
                out.i16(r, "mainGridIndex")?;
            }
        }
        code if object::is_text(code) => text(r, out)?,
        code if object::is_list(code) => {
            let overflow = list(r, out)?;
            if overflow == OVERFLOW_SCROLL && !has_scroll_block {
                return Err(r.invalid(
                    r.pos(),
                    "overflow",
                    "a scrolling list has no block 7 (scroll settings)".into(),
                ));
            }
        }
        _ => {
            return Err(not_for_type(r, 5));
        }
    }
    Ok(())
}

/// `bool has` then, if set, a color stored under `key`.
fn optional_color(r: &mut Reader<'_>, out: &mut Fields, key: &'static str) -> Result<()> {
    if r.bool("hasColor")? {
        out.color(r, key)?;
    }
    Ok(())
}

/// Fill method, then origin, direction and amount unless the method is none.
fn fill(r: &mut Reader<'_>, out: &mut Fields) -> Result<()> {
    if out.named(r, "fillMethod", FILL_METHOD)? != FILL_NONE {
        out.u8(r, "fillOrigin")?;
        out.bool(r, "fillClockwise")?;
        out.f32(r, "fillAmount")?;
    }
    Ok(())
}

/// The first fields of both loader kinds.
fn loader_layout(r: &mut Reader<'_>, out: &mut Fields) -> Result<()> {
    out.string(r, "url")?;
    out.named(r, "align", ALIGN)?;
    out.named(r, "vAlign", VALIGN)?;
    out.named(r, "fill", FILL_TYPES)?;
    out.bool(r, "shrinkOnly")?;
    out.bool(r, "autoSize")?;
    Ok(())
}

fn graph(r: &mut Reader<'_>, out: &mut Fields) -> Result<()> {
    let (shape, name) = r.known_code("shape", GRAPH_SHAPES)?;
    out.put("shape", name);
    if shape == SHAPE_EMPTY {
        // The editor writes 12 more bytes for an empty graph (the rect defaults without the
        // shape byte); the runtime ignores them, so they are kept verbatim.
        if r.remaining() > 0 {
            let tail = r.take(r.remaining(), "emptyGraphTail")?;
            out.put("emptyGraphTail", hex(tail));
        }
        return Ok(());
    }
    out.i32(r, "lineSize")?;
    out.color(r, "lineColor")?;
    out.color(r, "fillColor")?;
    if r.bool("hasCornerRadius")? {
        out.put("cornerRadius", r.f32s(4, "cornerRadius")?);
    }
    match shape {
        SHAPE_POLYGON => {
            let count = r.count_i16("point count")?;
            out.put("points", r.f32s(count, "points")?);
        }
        SHAPE_REGULAR_POLYGON => {
            out.i16(r, "sides")?;
            out.f32(r, "startAngle")?;
            let count = r.count_i16("distance count")?;
            out.put("distances", r.f32s(count, "distances")?);
        }
        _ => {}
    }
    Ok(())
}

fn text(r: &mut Reader<'_>, out: &mut Fields) -> Result<()> {
    out.string(r, "font")?;
    out.i16(r, "fontSize")?;
    out.color(r, "color")?;
    out.named(r, "align", ALIGN)?;
    out.named(r, "vAlign", VALIGN)?;
    out.i16(r, "leading")?;
    out.i16(r, "letterSpacing")?;
    out.bool(r, "ubb")?;
    out.named(r, "autoSize", AUTOSIZE)?;
    for style in ["underline", "italic", "bold", "singleLine"] {
        out.bool(r, style)?;
    }
    if r.bool("hasStroke")? {
        out.color(r, "strokeColor")?;
        out.f32(r, "strokeSize")?;
    }
    if r.bool("hasShadow")? {
        out.color(r, "shadowColor")?;
        out.put("shadowOffset", r.f32s(2, "shadowOffset")?);
    }
    out.bool(r, "vars")?;
    if r.version() >= 3 {
        out.bool(r, "strikethrough")?;
        out.f32(r, "faceDilate")?;
        out.f32(r, "outlineSoftness")?;
        out.f32(r, "underlaySoftness")?;
    }
    Ok(())
}

/// List and tree layout settings. Returns the overflow code.
fn list(r: &mut Reader<'_>, out: &mut Fields) -> Result<u8> {
    out.named(r, "layout", LIST_LAYOUT)?;
    out.named(r, "selectionMode", LIST_SELECTION)?;
    out.named(r, "align", ALIGN)?;
    out.named(r, "vAlign", VALIGN)?;
    out.i16(r, "lineGap")?;
    out.i16(r, "colGap")?;
    out.i16(r, "lineItemCount")?;
    out.i16(r, "lineItemCount2")?;
    out.bool(r, "autoItemSize")?;
    out.named(r, "renderOrder", CHILDREN_ORDER)?;
    out.i16(r, "apexIndex")?;
    if r.bool("hasMargin")? {
        out.put("margin", margin(r)?);
    }
    let overflow = out.named(r, "overflow", OVERFLOW)?;
    if r.bool("hasClipSoftness")? {
        out.put("clipSoftness", r.i32s(2, "clipSoftness")?);
    }
    if r.version() >= 2 {
        out.bool(r, "scrollItemToViewOnClick")?;
        out.bool(r, "foldInvisibleItems")?;
    }
    Ok(overflow)
}

/// Input text settings (child block 4, and a label instance's input override).
fn input_settings(r: &mut Reader<'_>) -> Result<Value> {
    let mut input = Fields::default();
    input.string(r, "prompt")?;
    input.string(r, "restrict")?;
    input.i32(r, "maxLength")?;
    input.i32(r, "keyboardType")?;
    input.bool(r, "password")?;
    Ok(input.into())
}

/// Block 4 of a component, list or tree instance: scroll page controller, initial pages of
/// the instance's controllers, and (version 2 on) text/icon overrides of its children.
fn instance_overrides(r: &mut Reader<'_>) -> Result<Value> {
    let mut overrides = Fields::default();
    overrides.i16(r, "pageController")?;
    overrides.put("controllers", controller_pages(r)?);
    if r.version() >= 2 {
        overrides.put("properties", property_overrides(r)?);
    }
    Ok(overrides.into())
}

/// `i16 n`, then n × (controller name, page id).
fn controller_pages(r: &mut Reader<'_>) -> Result<Value> {
    let count = r.count_i16("controller page count")?;
    let mut pages = Vec::new();
    for _ in 0..count {
        let mut page = Fields::default();
        page.string(r, "name")?;
        page.string(r, "page")?;
        pages.push(Value::from(page));
    }
    Ok(Value::Array(pages))
}

/// `i16 n`, then n × (target path, property id, value).
fn property_overrides(r: &mut Reader<'_>) -> Result<Value> {
    let count = r.count_i16("property override count")?;
    let mut properties = Vec::new();
    for _ in 0..count {
        let mut property = Fields::default();
        property.string(r, "target")?;
        property.i16(r, "propertyId")?;
        property.string(r, "value")?;
        properties.push(Value::from(property));
    }
    Ok(Value::Array(properties))
}

/// Block 8 of a list or tree: the default item URL and the items.
fn list_items(r: &mut Reader<'_>, is_tree: bool, child: &mut Fields) -> Result<()> {
    child.string(r, "defaultItem")?;
    let count = r.count_i16("item count")?;
    let mut items = Vec::new();
    for index in 0..count {
        let item = r
            .record_u16("list item record")
            .and_then(|record| record.read_all(|r| list_item(r, is_tree)))
            .within(|| format!("list item {index}"))?;
        items.push(item);
    }
    child.put("items", items);
    Ok(())
}

fn list_item(r: &mut Reader<'_>, is_tree: bool) -> Result<Value> {
    let mut item = Fields::default();
    item.string(r, "url")?;
    if is_tree {
        item.bool(r, "isFolder")?;
        item.u8(r, "level")?;
    }
    for text in ["title", "selectedTitle", "icon", "selectedIcon", "name"] {
        item.string(r, text)?;
    }
    // The runtime reads these only for component items; the editor writes them always.
    if r.remaining() > 0 {
        item.put("controllers", controller_pages(r)?);
        if r.version() >= 2 {
            item.put("properties", property_overrides(r)?);
        }
    }
    Ok(item.into())
}

/// Block 6 of a component instance: overrides for the extension it instantiates, led by
/// that extension's object type.
fn extension_overrides(r: &mut Reader<'_>) -> Result<Value> {
    let offset = r.pos();
    let (kind, name) = r.known_code("extension type", OBJECT_TYPES)?;
    if !(object::LABEL..=object::SCROLLBAR).contains(&kind) {
        return Err(unknown_code(offset, "extension type", kind));
    }
    let mut ext = Fields::default();
    ext.put("type", name);
    let version = r.version();
    match kind {
        object::BUTTON => {
            for text in ["title", "selectedTitle", "icon", "selectedIcon"] {
                ext.string(r, text)?;
            }
            if r.bool("hasTitleColor")? {
                ext.color(r, "titleColor")?;
            }
            ext.i32(r, "titleFontSize")?;
            ext.i16(r, "controller")?;
            ext.string(r, "page")?;
            ext.string(r, "sound")?;
            if r.bool("hasVolume")? {
                ext.f32(r, "volume")?;
            }
            ext.bool(r, "checked")?;
        }
        object::LABEL => {
            ext.string(r, "title")?;
            ext.string(r, "icon")?;
            if r.bool("hasTitleColor")? {
                ext.color(r, "titleColor")?;
            }
            ext.i32(r, "titleFontSize")?;
            if r.bool("hasInput")? {
                ext.put("input", input_settings(r)?);
            }
            if version >= 5 {
                ext.string(r, "sound")?;
                ext.f32(r, "volume")?;
            }
        }
        object::COMBOBOX => {
            let count = r.count_i16("combobox item count")?;
            let mut items = Vec::new();
            for index in 0..count {
                let item = r
                    .record_u16("combobox item record")
                    .and_then(|record| {
                        record.read_all(|r| {
                            let mut item = Fields::default();
                            for field in ["title", "value", "icon"] {
                                item.string(r, field)?;
                            }
                            Ok(item)
                        })
                    })
                    .within(|| format!("combobox item {index}"))?;
                items.push(Value::from(item));
            }
            ext.put("items", items);
            ext.string(r, "title")?;
            ext.string(r, "icon")?;
            if r.bool("hasTitleColor")? {
                ext.color(r, "titleColor")?;
            }
            ext.i32(r, "visibleItemCount")?;
            ext.named(r, "direction", POPUP_DIRECTION)?;
            ext.i16(r, "selectionController")?;
            if version >= 5 {
                ext.string(r, "sound")?;
                ext.f32(r, "volume")?;
            }
        }
        object::PROGRESSBAR => {
            ext.i32(r, "value")?;
            ext.i32(r, "max")?;
            if version >= 2 {
                ext.i32(r, "min")?;
            }
            if version >= 5 {
                ext.string(r, "sound")?;
                ext.f32(r, "volume")?;
            }
        }
        object::SLIDER => {
            ext.i32(r, "value")?;
            ext.i32(r, "max")?;
            if version >= 2 {
                ext.i32(r, "min")?;
            }
        }
        // A scroll bar instance has no overrides.
        _ => {}
    }
    Ok(ext.into())
}
