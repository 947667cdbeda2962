//! A child's gears (FORMAT.md §6.3): `i16` count, then per gear a `u16`-length record with
//! its type, controller, pages and values, tween, and the version-dependent tails.

use ofgui_contracts::uam::{Gear, GearBinding, ValueGear};
use serde_json::Value;

use super::blocks::write_path;
use super::buffer::Buf;
use super::scope::Scope;
use super::values::{BLACK, WHITE, color_or, field_number, field_text, float, float_f64, int_f64};
use super::{Ctx, PublishError};
use crate::rules::gears::has_default;

/// The custom ease number.
const CUSTOM_EASE: i32 = 31;

pub(crate) fn write(ctx: &mut Ctx, scope: &Scope, gears: &[Gear]) -> Result<Buf, PublishError> {
    let mut out = Buf::default();
    out.i16_of(gears.len(), "gears")?;
    for gear in gears {
        let record = gear_record(ctx, scope, gear)?;
        out.record_u16(&record, "gear")?;
    }
    Ok(out)
}

fn gear_type(gear: &Gear) -> u8 {
    match gear {
        Gear::Display(_) => 0,
        Gear::Xy(_) => 1,
        Gear::Size(_) => 2,
        Gear::Look(_) => 3,
        Gear::Color(_) => 4,
        Gear::Animation(_) => 5,
        Gear::Text(_) => 6,
        Gear::Icon(_) => 7,
        Gear::Display2(_) => 8,
        Gear::FontSize(_) => 9,
    }
}

fn gear_record(ctx: &mut Ctx, scope: &Scope, gear: &Gear) -> Result<Buf, PublishError> {
    let mut out = Buf::default();
    out.u8(gear_type(gear));
    out.index(
        scope.controller_index(gear.controller_name()),
        "gear controller",
    )?;
    let value_gear = match gear.binding() {
        GearBinding::Display(display) => {
            out.i16_of(display.visible_on_page_ids.len(), "gear pages")?;
            for page in &display.visible_on_page_ids {
                out.id(&mut ctx.strings, page)?;
            }
            None
        }
        GearBinding::Value(value_gear) => {
            out.i16_of(value_gear.states.len(), "gear pages")?;
            for state in &value_gear.states {
                match &state.value {
                    Some(value) => {
                        out.id(&mut ctx.strings, &state.page_id)?;
                        gear_value(ctx, &mut out, gear, value)?;
                    }
                    None => out.null(),
                }
            }
            let controller = scope
                .controller_index(gear.controller_name())
                .and_then(|index| scope.controllers.get(index));
            let has_default = has_default(gear.kind(), value_gear, controller);
            out.bool(has_default);
            if has_default {
                gear_value(ctx, &mut out, gear, &value_gear.default_value)?;
            }
            Some(value_gear)
        }
    };
    // Tween settings: only value gears tween.
    let tween = value_gear.filter(|g| g.tween);
    out.bool(tween.is_some());
    if let Some(g) = tween {
        out.u8(u8::try_from(g.ease_type).unwrap_or(5));
        out.f32(float(g.tween_duration, "gear duration")?);
        out.f32(float(g.tween_delay, "gear delay")?);
    }
    if ctx.version >= 2 {
        match gear {
            // The model does not keep the percent positions a gearXY may carry (the
            // fourth and fifth value parts), so none are written.
            Gear::Xy(_) => out.bool(false),
            Gear::Display2(g) => {
                let condition = g.condition.as_deref().unwrap_or("0");
                out.u8(u8::from(condition == "1"));
            }
            _ => {}
        }
    }
    if ctx.version >= 4
        && let Some(g) = tween.filter(|g| g.ease_type == CUSTOM_EASE)
    {
        write_path(&mut out, &g.custom_ease_path)?;
    }
    if ctx.version >= 6
        && let Gear::Animation(g) = gear
    {
        animation_names(ctx, &mut out, g)?;
    }
    Ok(out)
}

/// The version-6 tail of an animation gear: per page the animation and skin names (a
/// page without either is written as a null page), and the default's when it has one.
fn animation_names(ctx: &mut Ctx, out: &mut Buf, gear: &ValueGear) -> Result<(), PublishError> {
    let names = |value: &Value| {
        let animation = field_text(value, "animationName").to_owned();
        let skin = field_text(value, "skinName").to_owned();
        (!animation.is_empty() || !skin.is_empty()).then_some((animation, skin))
    };
    // One entry per page of the gear (the count is the one written above).
    for state in &gear.states {
        match state.value.as_ref().and_then(names) {
            Some((animation, skin)) => {
                out.id(&mut ctx.strings, &state.page_id)?;
                out.opt(&mut ctx.strings, &animation)?;
                out.opt(&mut ctx.strings, &skin)?;
            }
            None => out.null(),
        }
    }
    match names(&gear.default_value) {
        Some((animation, skin)) => {
            out.bool(true);
            out.opt(&mut ctx.strings, &animation)?;
            out.opt(&mut ctx.strings, &skin)?;
        }
        None => out.bool(false),
    }
    Ok(())
}

fn number(value: &Value, key: &str, fallback: f64) -> f64 {
    field_number(value, key).unwrap_or(fallback)
}

fn gear_value(
    ctx: &mut Ctx,
    out: &mut Buf,
    gear: &Gear,
    value: &Value,
) -> Result<(), PublishError> {
    match gear {
        Gear::Xy(_) => {
            out.i32(int_f64(number(value, "x", 0.0), "gear x")?);
            out.i32(int_f64(number(value, "y", 0.0), "gear y")?);
        }
        Gear::Size(_) => {
            out.i32(int_f64(number(value, "width", 0.0), "gear width")?);
            out.i32(int_f64(number(value, "height", 0.0), "gear height")?);
            out.f32(float_f64(number(value, "scaleX", 1.0), "gear scale")?);
            out.f32(float_f64(number(value, "scaleY", 1.0), "gear scale")?);
        }
        Gear::Look(_) => {
            out.f32(float_f64(number(value, "alpha", 1.0), "gear alpha")?);
            out.f32(float_f64(number(value, "rotation", 0.0), "gear rotation")?);
            out.bool(
                value
                    .get("grayed")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
            );
            out.bool(
                value
                    .get("touchable")
                    .and_then(Value::as_bool)
                    .unwrap_or(true),
            );
        }
        Gear::Color(_) => {
            out.bytes(&color_or(field_text(value, "color"), WHITE));
            out.bytes(&color_or(field_text(value, "outlineColor"), BLACK));
        }
        Gear::Animation(_) => {
            out.bool(
                value
                    .get("playing")
                    .and_then(Value::as_bool)
                    .unwrap_or(true),
            );
            out.i32(int_f64(number(value, "frame", 0.0), "gear frame")?);
        }
        Gear::Text(_) => out.text(&mut ctx.strings, field_text(value, "text"))?,
        Gear::Icon(_) => out.opt(&mut ctx.strings, field_text(value, "icon"))?,
        Gear::FontSize(_) => {
            out.i32(int_f64(number(value, "fontSize", 12.0), "gear font size")?);
        }
        Gear::Display(_) | Gear::Display2(_) => {}
    }
    Ok(())
}
