//! Gears (child block 2): per-controller-page values of one property of a child.

use serde_json::Value;

use crate::error::{Result, Within};
use crate::names::{DISPLAY2_CONDITION, EASE_CUSTOM, EASE_TYPES, GEAR_TYPES};
use crate::reader::{Fields, Reader};
use crate::transition::path;

/// Gear type codes.
const DISPLAY: u8 = 0;
const XY: u8 = 1;
const SIZE: u8 = 2;
const LOOK: u8 = 3;
const COLOR: u8 = 4;
const ANIMATION: u8 = 5;
const TEXT: u8 = 6;
const ICON: u8 = 7;
const DISPLAY2: u8 = 8;
const FONT_SIZE: u8 = 9;

/// `i16` count, then that many gear records, each prefixed by a `u16` length.
pub(crate) fn gears(r: &mut Reader<'_>) -> Result<Value> {
    let count = r.count_i16("gear count")?;
    let mut gears = Vec::new();
    for index in 0..count {
        let decoded = r
            .record_u16("gear record")
            .and_then(|record| record.read_all(gear))
            .within(|| format!("gear {index}"))?;
        gears.push(decoded);
    }
    Ok(Value::Array(gears))
}

fn gear(r: &mut Reader<'_>) -> Result<Value> {
    let mut gear = Fields::default();
    let (kind, name) = r.known_code("gear type", GEAR_TYPES)?;
    gear.put("type", name);
    gear.i16(r, "controller")?;
    let pages = r.count_i16("page count")?;
    if kind == DISPLAY || kind == DISPLAY2 {
        // Display gears list the pages where the child is shown; no values.
        gear.put("pages", r.strings_value(pages, "page")?);
    } else {
        let values = per_page(r, pages, |r, entry| {
            entry.put("value", value(r, kind)?);
            Ok(())
        })?;
        gear.put("values", values);
        if r.bool("hasDefault")? {
            gear.put("default", value(r, kind)?);
        }
    }
    let mut ease = None;
    if r.bool("hasTween")? {
        let mut tween = Fields::default();
        ease = Some(tween.named(r, "ease", EASE_TYPES)?);
        tween.f32(r, "duration")?;
        tween.f32(r, "delay")?;
        gear.put("tween", tween);
    }
    if r.version() >= 2 {
        if kind == XY {
            if gear.bool(r, "positionsInPercent")? {
                gear.put("percentValues", per_page(r, pages, percent_position)?);
                if r.bool("hasPercentDefault")? {
                    let mut default = Fields::default();
                    percent_position(r, &mut default)?;
                    gear.put("percentDefault", default);
                }
            }
        } else if kind == DISPLAY2 {
            gear.named(r, "condition", DISPLAY2_CONDITION)?;
        }
    }
    if r.version() >= 4 && ease == Some(EASE_CUSTOM) {
        let curve = path(r)?;
        if let Some(Value::Object(tween)) = gear.get_mut("tween") {
            tween.insert("customEase".into(), curve);
        }
    }
    if r.version() >= 6 && kind == ANIMATION {
        gear.put("animationValues", per_page(r, pages, animation_name)?);
        if r.bool("hasAnimationDefault")? {
            let mut default = Fields::default();
            animation_name(r, &mut default)?;
            gear.put("animationDefault", default);
        }
    }
    Ok(gear.into())
}

/// `pages` × (page id, then the page's fields unless the id is null). A null id stands for a
/// page whose value is "-" in the project and comes out as null.
fn per_page(
    r: &mut Reader<'_>,
    pages: usize,
    mut read_fields: impl FnMut(&mut Reader<'_>, &mut Fields) -> Result<()>,
) -> Result<Value> {
    let mut values = Vec::new();
    for _ in 0..pages {
        match r.string("page")? {
            None => values.push(Value::Null),
            Some(page) => {
                let mut entry = Fields::default();
                entry.put("page", page);
                read_fields(r, &mut entry)?;
                values.push(entry.into());
            }
        }
    }
    Ok(Value::Array(values))
}

/// One page's value of a gear of type `kind`.
fn value(r: &mut Reader<'_>, kind: u8) -> Result<Value> {
    let mut value = Fields::default();
    match kind {
        XY => {
            value.i32(r, "x")?;
            value.i32(r, "y")?;
        }
        SIZE => {
            value.i32(r, "width")?;
            value.i32(r, "height")?;
            value.f32(r, "scaleX")?;
            value.f32(r, "scaleY")?;
        }
        LOOK => {
            value.f32(r, "alpha")?;
            value.f32(r, "rotation")?;
            value.bool(r, "grayed")?;
            value.bool(r, "touchable")?;
        }
        COLOR => {
            value.color(r, "color")?;
            value.color(r, "strokeColor")?;
        }
        ANIMATION => {
            value.bool(r, "playing")?;
            value.i32(r, "frame")?;
        }
        TEXT | ICON => return r.string_value("value"),
        FONT_SIZE => return Ok(Value::from(r.i32("value")?)),
        // Display gears have no values; `gear` never asks for one.
        _ => {}
    }
    Ok(value.into())
}

/// An xy gear position as a fraction of the parent's size (version 2 on).
fn percent_position(r: &mut Reader<'_>, out: &mut Fields) -> Result<()> {
    out.f32(r, "px")?;
    out.f32(r, "py")?;
    Ok(())
}

/// A skeletal animation's name and skin (version 6 on).
fn animation_name(r: &mut Reader<'_>, out: &mut Fields) -> Result<()> {
    out.string(r, "animationName")?;
    out.string(r, "skinName")?;
    Ok(())
}
