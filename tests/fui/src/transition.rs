//! Transitions (component block 5) and the curve paths shared with gear tweens.

use serde_json::Value;

use crate::error::{Result, Within};
use crate::names::{CURVE_TYPES, EASE_CUSTOM, EASE_TYPES, TRANSITION_TYPES};
use crate::reader::{BlockTable, Fields, Reader};

/// Transition item type codes.
const XY: u8 = 0;
const SIZE: u8 = 1;
const SCALE: u8 = 2;
const PIVOT: u8 = 3;
const ALPHA: u8 = 4;
const ROTATION: u8 = 5;
const COLOR: u8 = 6;
const ANIMATION: u8 = 7;
const VISIBLE: u8 = 8;
const SOUND: u8 = 9;
const TRANSITION: u8 = 10;
const SHAKE: u8 = 11;
const COLOR_FILTER: u8 = 12;
const SKEW: u8 = 13;
const TEXT: u8 = 14;
const ICON: u8 = 15;

/// Path point curve types with control points.
const CURVE_BEZIER: u8 = 1;
const CURVE_CUBIC_BEZIER: u8 = 2;

/// One transition record: settings, then items each prefixed by a signed `i16` length.
pub(crate) fn transition(r: &mut Reader<'_>) -> Result<Value> {
    let mut transition = Fields::default();
    let name = transition.string(r, "name")?.unwrap_or("(null)");
    let label = || format!("'{name}'");
    transition.i32(r, "options").within(label)?;
    transition.bool(r, "autoPlay").within(label)?;
    transition.i32(r, "autoPlayTimes").within(label)?;
    transition.f32(r, "autoPlayDelay").within(label)?;
    let count = r.count_i16("item count").within(label)?;
    let mut items = Vec::new();
    for index in 0..count {
        let item = r
            .record_i16("transition item record")
            .and_then(transition_item)
            .within(|| format!("item {index}"))
            .within(label)?;
        items.push(item);
    }
    transition.put("items", items);
    Ok(transition.into())
}

/// A transition item: a 4-slot position table; block 0 type, time, target, label and tween
/// flag; with a tween block 1 the tween settings, 2 the start value, 3 the end value (and
/// paths); without, block 2 the value.
fn transition_item(record: Reader<'_>) -> Result<Value> {
    let table = BlockTable::parse(&record)?;
    let mut item = Fields::default();
    let (kind, has_tween) = table
        .required(0, "type and timing")?
        .read_all(|r| {
            let (kind, name) = r.known_code("type", TRANSITION_TYPES)?;
            item.put("type", name);
            item.f32(r, "time")?;
            item.i16(r, "target")?;
            item.string(r, "label")?;
            Ok((kind, r.bool("hasTween")?))
        })
        .within(|| "block 0")?;

    if has_tween {
        let mut tween = Fields::default();
        let ease = table
            .required(1, "tween")?
            .read_all(|r| {
                tween.f32(r, "duration")?;
                let ease = tween.named(r, "ease", EASE_TYPES)?;
                tween.i32(r, "repeat")?;
                tween.bool(r, "yoyo")?;
                tween.string(r, "endLabel")?;
                Ok(ease)
            })
            .within(|| "block 1 (tween)")?;
        let start = table
            .required(2, "start value")?
            .read_all(|r| value(r, kind))
            .within(|| "block 2 (start value)")?;
        tween.put("startValue", start);
        table
            .required(3, "end value")?
            .read_all(|r| {
                tween.put("endValue", value(r, kind)?);
                if r.version() >= 2 {
                    let motion = path(r)?;
                    if motion.as_array().is_some_and(|points| !points.is_empty()) {
                        tween.put("path", motion);
                    }
                }
                if r.version() >= 4 && ease == EASE_CUSTOM {
                    tween.put("customEase", path(r)?);
                }
                Ok(())
            })
            .within(|| "block 3 (end value)")?;
        item.put("tween", tween);
    } else {
        let single = table
            .required(2, "value")?
            .read_all(|r| value(r, kind))
            .within(|| "block 2 (value)")?;
        item.put("value", single);
        // Tween blocks of an item without a tween must hold nothing.
        table.expect_empty(1)?;
        table.expect_empty(3)?;
    }
    table.expect_no_blocks_from(4)?;
    Ok(item.into())
}

/// A transition value of item type `kind`.
fn value(r: &mut Reader<'_>, kind: u8) -> Result<Value> {
    let mut value = Fields::default();
    match kind {
        XY | SIZE | PIVOT | SKEW => {
            // Each axis may be left unchanged ("-" in the project): a flag per axis.
            value.bool(r, "b1")?;
            value.bool(r, "b2")?;
            value.f32(r, "f1")?;
            value.f32(r, "f2")?;
            if kind == XY && r.version() >= 2 {
                value.bool(r, "percent")?;
            }
        }
        ALPHA | ROTATION => {
            value.f32(r, "f1")?;
        }
        SCALE => {
            value.f32(r, "f1")?;
            value.f32(r, "f2")?;
        }
        COLOR => value.color(r, "color")?,
        ANIMATION => {
            value.bool(r, "playing")?;
            value.i32(r, "frame")?;
            if r.version() >= 6 {
                value.string(r, "animationName")?;
                value.string(r, "skinName")?;
            }
        }
        VISIBLE => {
            value.bool(r, "visible")?;
        }
        SOUND => {
            value.string(r, "sound")?;
            value.f32(r, "volume")?;
        }
        TRANSITION => {
            value.string(r, "transName")?;
            value.i32(r, "playTimes")?;
        }
        SHAKE => {
            value.f32(r, "amplitude")?;
            value.f32(r, "duration")?;
        }
        COLOR_FILTER => {
            for parameter in ["f1", "f2", "f3", "f4"] {
                value.f32(r, parameter)?;
            }
        }
        TEXT | ICON => {
            value.string(r, "text")?;
        }
        // The "Unknown" action type carries no value.
        _ => {}
    }
    Ok(value.into())
}

/// A curve: `i32` point count, then per point a curve type, x, y and the curve's control
/// points. Used for tween motion paths and custom ease curves.
pub(crate) fn path(r: &mut Reader<'_>) -> Result<Value> {
    let count = r.count_i32("path point count")?;
    let mut points = Vec::new();
    for _ in 0..count {
        let mut point = Fields::default();
        let (curve, name) = r.known_code("curve type", CURVE_TYPES)?;
        point.put("curve", name);
        point.f32(r, "x")?;
        point.f32(r, "y")?;
        if curve == CURVE_BEZIER || curve == CURVE_CUBIC_BEZIER {
            point.put("control1", r.f32s(2, "control1")?);
        }
        if curve == CURVE_CUBIC_BEZIER {
            point.put("control2", r.f32s(2, "control2")?);
        }
        points.push(Value::from(point));
    }
    Ok(Value::Array(points))
}
