//! Segment 1: the package's items (resources), with the movie-clip and bitmap-font data
//! they embed. Component data is decoded in `component`.

use serde_json::Value;

use crate::component;
use crate::error::{Result, Within};
use crate::names::{IMAGE_SCALE, ITEM_TYPES, OBJECT_TYPES, object};
use crate::reader::{BlockTable, Fields, Reader, name_or_code, unknown_code};

/// Item type codes with a type-specific part.
const IMAGE: u8 = 0;
const MOVIECLIP: u8 = 1;
const COMPONENT: u8 = 3;
const FONT: u8 = 5;
const SPINE: u8 = 9;
const DRAGONBONES: u8 = 10;

/// Image scale options: the nine-grid one is followed by its rectangle.
const SCALE_NINE_GRID: u8 = 1;
const SCALE_TILE: u8 = 2;

pub(crate) fn items(mut r: Reader<'_>) -> Result<Vec<Value>> {
    let count = r.count_i16("item count")?;
    let mut items = Vec::new();
    for index in 0..count {
        let mut record = r
            .record_i32("item record")
            .within(|| format!("item {index}"))?;
        items.push(item(&mut record).within(|| format!("item {index}"))?);
    }
    r.finish()?;
    Ok(items)
}

fn item(r: &mut Reader<'_>) -> Result<Value> {
    let mut item = Fields::default();
    let (type_code, type_name) = r.known_code("item type", ITEM_TYPES)?;
    item.put("type", type_name);
    let id = item.string(r, "id")?.unwrap_or("(null id)");
    item_body(r, &mut item, type_code).within(|| format!("{type_name} {id}"))?;
    Ok(item.into())
}

fn item_body(r: &mut Reader<'_>, item: &mut Fields, type_code: u8) -> Result<()> {
    item.string(r, "name")?;
    item.string(r, "path")?;
    item.string(r, "file")?;
    item.bool(r, "exported")?;
    item.i32(r, "width")?;
    item.i32(r, "height")?;
    match type_code {
        IMAGE => {
            let (scale, name) = r.known_code("scaleOption", IMAGE_SCALE)?;
            item.put("scaleOption", name);
            match scale {
                SCALE_NINE_GRID => {
                    item.put("scale9grid", r.i32s(4, "scale9grid")?);
                    item.i32(r, "tileGridIndice")?;
                }
                SCALE_TILE => item.put("scaleByTile", true),
                _ => {}
            }
            item.bool(r, "smoothing")?;
        }
        MOVIECLIP => {
            item.bool(r, "smoothing")?;
            let buffer = r.record_i32("movie clip data")?;
            item.put("movieclip", movieclip(buffer).within(|| "movie clip data")?);
        }
        FONT => {
            let buffer = r.record_i32("font data")?;
            item.put("font", font(buffer).within(|| "font data")?);
        }
        COMPONENT => {
            let offset = r.pos();
            let extension = r.u8("extension type")?;
            // 0 is a plain component; otherwise the extension's object type.
            if extension != 0 && !(object::LABEL..=object::SCROLLBAR).contains(&extension) {
                return Err(unknown_code(offset, "extension type", extension));
            }
            let shown = if extension == 0 {
                object::COMPONENT
            } else {
                extension
            };
            item.put("objectType", name_or_code(OBJECT_TYPES, shown));
            item.put("extensionByte", extension);
            let buffer = r.record_i32("component data")?;
            item.put(
                "component",
                component::component(buffer, extension).within(|| "component data")?,
            );
        }
        SPINE | DRAGONBONES => {
            item.put("skeletonAnchor", r.f32s(2, "skeletonAnchor")?);
        }
        // Sound, atlas, swf, misc, unknown: the file is loaded by name; nothing more here.
        _ => {}
    }
    if r.version() >= 2 {
        item.string(r, "branch")?;
        let count = r.count_u8("branch id count")?;
        if count > 0 {
            item.put("branches", r.strings_value(count, "branch item id")?);
        }
        let count = r.count_u8("high-resolution id count")?;
        if count > 0 {
            item.put(
                "highResolution",
                r.strings_value(count, "high-resolution item id")?,
            );
        }
    }
    r.finish()
}

/// A movie clip's buffer: block 0 timing, block 1 frames.
fn movieclip(buffer: Reader<'_>) -> Result<Value> {
    let table = BlockTable::parse(&buffer)?;
    let mut clip = Fields::default();

    let mut r = table.required(0, "timing")?;
    clip.i32(&mut r, "interval")?;
    clip.bool(&mut r, "swing")?;
    clip.i32(&mut r, "repeatDelay")?;
    r.finish().within(|| "block 0")?;

    let mut r = table.required(1, "frames")?;
    let count = r.count_i16("frame count").within(|| "block 1")?;
    let mut frames = Vec::new();
    for index in 0..count {
        let mut record = r
            .record_u16("frame record")
            .within(|| format!("block 1 > frame {index}"))?;
        frames.push(frame(&mut record).within(|| format!("block 1 > frame {index}"))?);
    }
    r.finish().within(|| "block 1")?;
    clip.put("frames", frames);
    table.expect_no_blocks_from(2)?;
    Ok(clip.into())
}

fn frame(r: &mut Reader<'_>) -> Result<Value> {
    let mut frame = Fields::default();
    frame.put("rect", r.i32s(4, "rect")?);
    frame.i32(r, "addDelay")?;
    frame.string(r, "sprite")?;
    r.finish()?;
    Ok(frame.into())
}

/// A bitmap font's buffer: block 0 settings, block 1 glyphs.
fn font(buffer: Reader<'_>) -> Result<Value> {
    let table = BlockTable::parse(&buffer)?;
    let mut font = Fields::default();

    let mut r = table.required(0, "settings")?;
    for flag in ["ttf", "canTint", "resizable", "hasChannel"] {
        font.bool(&mut r, flag).within(|| "block 0")?;
    }
    for number in ["fontSize", "xadvance", "lineHeight"] {
        font.i32(&mut r, number).within(|| "block 0")?;
    }
    r.finish().within(|| "block 0")?;

    let mut r = table.required(1, "glyphs")?;
    let count = r.count_i32("glyph count").within(|| "block 1")?;
    let mut glyphs = Vec::new();
    for index in 0..count {
        let mut record = r
            .record_u16("glyph record")
            .within(|| format!("block 1 > glyph {index}"))?;
        glyphs.push(glyph(&mut record).within(|| format!("block 1 > glyph {index}"))?);
    }
    r.finish().within(|| "block 1")?;
    font.put("glyphs", glyphs);
    table.expect_no_blocks_from(2)?;
    Ok(font.into())
}

fn glyph(r: &mut Reader<'_>) -> Result<Value> {
    let mut glyph = Fields::default();
    let code_unit = r.u16("char")?;
    // A UTF-16 code unit; a lone surrogate half has no JSON string, so it stays a number.
    let shown = char::from_u32(u32::from(code_unit))
        .map_or_else(|| Value::from(code_unit), |c| Value::from(c.to_string()));
    glyph.put("char", shown);
    glyph.string(r, "img")?;
    for number in ["bx", "by", "x", "y", "width", "height", "advance"] {
        glyph.i32(r, number)?;
    }
    glyph.u8(r, "channel")?;
    r.finish()?;
    Ok(glyph.into())
}
