//! A component instance's own blocks in a child record (FORMAT.md §6.4, §6.6): block 4
//! (page controller, the instance's controller pages, property overrides; lists use it
//! too) and block 6 (the overrides of the instantiated extension: button, label, combobox,
//! progress bar, slider, scroll bar).

use ofgui_contracts::uam::{
    ComponentNode, ComponentPropertyOverride, Controller, InstanceProperties,
};

use super::buffer::Buf;
use super::scope::Scope;
use super::values::{color, float, int};
use super::{Ctx, PublishError, kinds};

/// Block 4 of a component-like child: the parent controller used as page controller, the
/// instance's controller pages and (version 2+) its property overrides.
pub(crate) fn instance_block(
    ctx: &mut Ctx,
    scope: &Scope,
    page_controller: &str,
    controllers: &str,
    instantiated: Option<&[Controller]>,
    overrides: &[ComponentPropertyOverride],
) -> Result<Buf, PublishError> {
    let mut out = Buf::default();
    out.index(scope.controller_index(page_controller), "pageController")?;
    controller_pairs(ctx, &mut out, controllers, instantiated)?;
    if ctx.version >= 2 {
        property_overrides(ctx, &mut out, overrides)?;
    }
    Ok(out)
}

/// `controller="c1,1,c2,0"`: `i16 n` and n × (controller name, page id). With the
/// instantiated component's controllers known, a pair naming a controller it does not have
/// is left out, as the editor leaves it out.
pub(crate) fn controller_pairs(
    ctx: &mut Ctx,
    out: &mut Buf,
    raw: &str,
    instantiated: Option<&[Controller]>,
) -> Result<(), PublishError> {
    let parts: Vec<&str> = if raw.is_empty() {
        Vec::new()
    } else {
        raw.split(',').collect()
    };
    let pairs: Vec<(&str, &str)> = parts
        .chunks(2)
        .map(|pair| {
            (
                pair.first().copied().unwrap_or_default(),
                pair.get(1).copied().unwrap_or_default(),
            )
        })
        .filter(|(name, _)| instantiated.is_none_or(|known| known.iter().any(|c| c.name == *name)))
        .collect();
    out.i16_of(pairs.len(), "instance controllers")?;
    for (controller, page) in pairs {
        out.id(&mut ctx.strings, controller)?;
        out.id(&mut ctx.strings, page)?;
    }
    Ok(())
}

pub(crate) fn property_overrides(
    ctx: &mut Ctx,
    out: &mut Buf,
    overrides: &[ComponentPropertyOverride],
) -> Result<(), PublishError> {
    out.i16_of(overrides.len(), "property overrides")?;
    for o in overrides {
        out.id(&mut ctx.strings, &o.target)?;
        out.i16(i16::try_from(o.property_id).unwrap_or(0));
        if o.property_id == 0 {
            out.text(&mut ctx.strings, &o.value)?;
        } else {
            out.opt(&mut ctx.strings, &o.value)?;
        }
    }
    Ok(())
}

/// Block 6 of a component instance: its extension overrides, or empty without them.
pub(crate) fn instance_overrides(
    ctx: &mut Ctx,
    scope: &Scope,
    node: &ComponentNode,
) -> Result<Buf, PublishError> {
    let mut out = Buf::default();
    let Some(instance) = &node.instance_properties else {
        return Ok(out);
    };
    match instance {
        InstanceProperties::Button {
            title,
            selected_title,
            icon,
            selected_icon,
            title_color,
            title_font_size,
            controller,
            page,
            checked,
            sound,
            sound_volume_scale,
        } => {
            out.u8(kinds::extension_object_type("Button"));
            out.text(&mut ctx.strings, title)?;
            out.text(&mut ctx.strings, selected_title)?;
            out.opt(&mut ctx.strings, icon)?;
            out.opt(&mut ctx.strings, selected_icon)?;
            title_color_field(&mut out, title_color);
            out.i32(int(*title_font_size, "titleFontSize")?);
            out.index(scope.controller_index(controller), "controller")?;
            out.opt(&mut ctx.strings, page)?;
            out.opt(&mut ctx.strings, sound)?;
            let has_volume = sound_volume_scale.get() != 1.0;
            out.bool(has_volume);
            if has_volume {
                out.f32(float(*sound_volume_scale, "volume")?);
            }
            out.bool(*checked);
        }
        InstanceProperties::Label {
            title,
            icon,
            title_color,
            title_font_size,
            prompt_text,
            sound,
            sound_volume_scale,
        } => {
            out.u8(kinds::extension_object_type("Label"));
            out.text(&mut ctx.strings, title)?;
            out.opt(&mut ctx.strings, icon)?;
            title_color_field(&mut out, title_color);
            out.i32(int(*title_font_size, "titleFontSize")?);
            // The model keeps only the prompt of a label instance's input settings
            // (`restrict`, `maxLength`, `keyboardType` and `password` are not read).
            let has_input = !prompt_text.is_empty();
            out.bool(has_input);
            if has_input {
                out.text(&mut ctx.strings, prompt_text)?;
                out.null();
                out.i32(0);
                out.i32(0);
                out.bool(false);
            }
            if ctx.version >= 5 {
                out.opt(&mut ctx.strings, sound)?;
                out.f32(float(*sound_volume_scale, "volume")?);
            }
        }
        InstanceProperties::ComboBox {
            title,
            icon,
            title_color,
            popup_direction,
            sound,
            sound_volume_scale,
            visible_item_count,
            selection_controller,
            items: combo_items,
            ..
        } => {
            out.u8(kinds::extension_object_type("ComboBox"));
            out.i16_of(combo_items.len(), "combobox items")?;
            for item in combo_items {
                let mut record = Buf::default();
                record.text(&mut ctx.strings, item.title.as_deref().unwrap_or_default())?;
                record.opt(&mut ctx.strings, item.value.as_deref().unwrap_or_default())?;
                record.opt(&mut ctx.strings, item.icon.as_deref().unwrap_or_default())?;
                out.record_u16(&record, "combobox item")?;
            }
            out.text(&mut ctx.strings, title)?;
            out.opt(&mut ctx.strings, icon)?;
            title_color_field(&mut out, title_color);
            out.i32(int(*visible_item_count, "visibleItemCount")?);
            out.u8(u8::try_from(*popup_direction).unwrap_or(0));
            out.index(
                scope.controller_index(selection_controller),
                "selectionController",
            )?;
            if ctx.version >= 5 {
                out.opt(&mut ctx.strings, sound)?;
                out.f32(float(*sound_volume_scale, "volume")?);
            }
        }
        InstanceProperties::ProgressBar {
            value,
            max,
            min,
            sound,
            sound_volume_scale,
        } => {
            out.u8(kinds::extension_object_type("ProgressBar"));
            out.i32(int(*value, "value")?);
            out.i32(int(*max, "max")?);
            if ctx.version >= 2 {
                out.i32(int(*min, "min")?);
            }
            if ctx.version >= 5 {
                out.opt(&mut ctx.strings, sound)?;
                out.f32(float(*sound_volume_scale, "volume")?);
            }
        }
        InstanceProperties::Slider { value, max, min } => {
            out.u8(kinds::extension_object_type("Slider"));
            out.i32(int(*value, "value")?);
            out.i32(int(*max, "max")?);
            if ctx.version >= 2 {
                out.i32(int(*min, "min")?);
            }
        }
        InstanceProperties::ScrollBar {} => {
            out.u8(kinds::extension_object_type("ScrollBar"));
        }
    }
    Ok(out)
}

/// `bool hasTitleColor → color`; the model keeps `""` for "not overridden".
fn title_color_field(out: &mut Buf, text: &str) {
    match color(text) {
        Some(rgba) => {
            out.bool(true);
            out.bytes(&rgba);
        }
        None => out.bool(false),
    }
}
