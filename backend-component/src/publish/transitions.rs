//! A component's transitions (FORMAT.md §5.7): per transition its settings and items; each
//! item a 4-slot position table with its timing, tween and values.
//!
//! Times and durations are frames in the model and seconds in the format (frames divided
//! by the transition's frame rate). Items aimed at a node the published display list does
//! not hold are dropped, as the editor drops them; so are items of an action this server
//! does not know (their values cannot be written).

use ofgui_contracts::uam::{Transition, TransitionItem};
use serde_json::Value;

use super::blocks::write_path;
use super::buffer::{Buf, Offsets, with_blocks};
use super::scope::Scope;
use super::values::{BLACK, color_or, float_f64, int, int_f64, part_number, part_text};
use super::{Ctx, PublishError};

const XY: i32 = 0;
const SIZE: i32 = 1;
const SCALE: i32 = 2;
const PIVOT: i32 = 3;
const ALPHA: i32 = 4;
const ROTATION: i32 = 5;
const COLOR: i32 = 6;
const ANIMATION: i32 = 7;
const VISIBLE: i32 = 8;
const SOUND: i32 = 9;
const TRANSITION: i32 = 10;
const SHAKE: i32 = 11;
const COLOR_FILTER: i32 = 12;
const SKEW: i32 = 13;
const TEXT: i32 = 14;
const ICON: i32 = 15;
/// The custom ease number.
const CUSTOM_EASE: i32 = 31;

pub(crate) fn write(
    ctx: &mut Ctx,
    scope: &Scope,
    transitions: &[Transition],
) -> Result<Buf, PublishError> {
    let mut out = Buf::default();
    out.i16_of(transitions.len(), "transitions")?;
    for transition in transitions {
        let mut record = Buf::default();
        record.id(&mut ctx.strings, &transition.name)?;
        record.i32(int(transition.options, "transition options")?);
        record.bool(transition.auto_play);
        record.i32(int(transition.auto_play_times, "autoPlayRepeat")?);
        record.f32(float_f64(
            transition.auto_play_delay.get(),
            "autoPlayDelay",
        )?);
        let fps = if transition.fps.get() > 0.0 {
            transition.fps.get()
        } else {
            24.0
        };
        let items: Vec<&TransitionItem> = transition
            .items
            .iter()
            .filter(|item| (0..=ICON).contains(&item.action_type))
            .filter(|item| {
                item.target_node_id.is_empty() || scope.node_index(&item.target_node_id).is_some()
            })
            .collect();
        record.i16_of(items.len(), "transition items")?;
        for item in items {
            let item = write_item(ctx, scope, item, fps)?;
            record.record_i16(&item, "transition item")?;
        }
        out.record_u16(&record, "transition")?;
    }
    Ok(out)
}

fn write_item(
    ctx: &mut Ctx,
    scope: &Scope,
    item: &TransitionItem,
    fps: f64,
) -> Result<Buf, PublishError> {
    let mut head = Buf::default();
    head.u8(u8::try_from(item.action_type).unwrap_or(0));
    head.f32(float_f64(item.time.get() / fps, "transition time")?);
    head.index(scope.node_index(&item.target_node_id), "transition target")?;
    head.opt(&mut ctx.strings, &item.label)?;
    head.bool(item.tween);
    if !item.tween {
        let mut value = Buf::default();
        write_value(ctx, &mut value, item.action_type, &item.start_value)?;
        return with_blocks(
            Offsets::Short,
            vec![Some(head), None, Some(value), None],
            "transition item",
        );
    }
    let mut tween = Buf::default();
    tween.f32(float_f64(item.duration.get() / fps, "transition duration")?);
    tween.u8(u8::try_from(item.ease_type).unwrap_or(5));
    tween.i32(int(item.repeat, "transition repeat")?);
    tween.bool(item.yoyo);
    tween.opt(&mut ctx.strings, &item.end_label)?;
    let mut start = Buf::default();
    write_value(ctx, &mut start, item.action_type, &item.start_value)?;
    let mut end = Buf::default();
    write_value(ctx, &mut end, item.action_type, &item.end_value)?;
    if ctx.version >= 2 {
        write_path(&mut end, &item.path)?;
    }
    if ctx.version >= 4 && item.ease_type == CUSTOM_EASE {
        write_path(&mut end, &item.custom_ease_path)?;
    }
    with_blocks(
        Offsets::Short,
        vec![Some(head), Some(tween), Some(start), Some(end)],
        "transition item",
    )
}

/// `bool hasA, bool hasB, f32 a, f32 b`; `-` (keep the current value) is "has not".
fn pair(out: &mut Buf, parts: &[Value]) -> Result<(), PublishError> {
    let a = part_number(parts, 0);
    let b = part_number(parts, 1);
    out.bool(a.is_some());
    out.bool(b.is_some());
    out.f32(float_f64(a.unwrap_or(0.0), "transition value")?);
    out.f32(float_f64(b.unwrap_or(0.0), "transition value")?);
    Ok(())
}

fn number_at(parts: &[Value], i: usize, fallback: f64) -> f64 {
    part_number(parts, i).unwrap_or(fallback)
}

fn write_value(
    ctx: &mut Ctx,
    out: &mut Buf,
    action: i32,
    parts: &[Value],
) -> Result<(), PublishError> {
    match action {
        XY => {
            pair(out, parts)?;
            if ctx.version >= 2 {
                // Percent positions are not in the model.
                out.bool(false);
            }
        }
        SIZE | PIVOT | SKEW => pair(out, parts)?,
        SCALE => {
            out.f32(float_f64(number_at(parts, 0, 1.0), "scale")?);
            out.f32(float_f64(number_at(parts, 1, 1.0), "scale")?);
        }
        ALPHA => out.f32(float_f64(number_at(parts, 0, 1.0), "alpha")?),
        ROTATION => out.f32(float_f64(number_at(parts, 0, 0.0), "rotation")?),
        COLOR => out.bytes(&color_or(&part_text(parts, 0).unwrap_or_default(), BLACK)),
        ANIMATION => {
            let playing = part_text(parts, 1).is_none_or(|p| p != "s" && p != "false");
            out.bool(playing);
            out.i32(int_f64(number_at(parts, 0, 0.0), "animation frame")?);
            if ctx.version >= 6 {
                out.opt(&mut ctx.strings, &part_text(parts, 2).unwrap_or_default())?;
                out.opt(&mut ctx.strings, &part_text(parts, 3).unwrap_or_default())?;
            }
        }
        VISIBLE => out.bool(part_text(parts, 0).is_some_and(|v| v == "true" || v == "1")),
        SOUND => {
            out.opt(&mut ctx.strings, &part_text(parts, 0).unwrap_or_default())?;
            // The XML volume is a percentage.
            let volume = part_number(parts, 1).map_or(1.0, |v| v / 100.0);
            out.f32(float_f64(volume, "sound volume")?);
        }
        TRANSITION => {
            out.opt(&mut ctx.strings, &part_text(parts, 0).unwrap_or_default())?;
            out.i32(int_f64(number_at(parts, 1, 1.0), "transition times")?);
        }
        SHAKE => {
            out.f32(float_f64(number_at(parts, 0, 0.0), "shake amplitude")?);
            out.f32(float_f64(number_at(parts, 1, 0.0), "shake duration")?);
        }
        COLOR_FILTER => {
            for i in 0..4 {
                out.f32(float_f64(number_at(parts, i, 0.0), "color filter")?);
            }
        }
        TEXT => out.text(&mut ctx.strings, &part_text(parts, 0).unwrap_or_default())?,
        ICON => out.opt(&mut ctx.strings, &part_text(parts, 0).unwrap_or_default())?,
        _ => {}
    }
    Ok(())
}
