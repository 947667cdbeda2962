//! A component item's buffer (FORMAT.md §5): an 8-slot position table, then size and basic
//! settings, controllers, the display list, the component's own relations, misc settings,
//! transitions, the extension definition and the scroll settings.
//! Which children are published, and how ids become indexes, is `scope`.

use ofgui_contracts::uam::{ComponentResource, Controller, DisplayNode};

use super::blocks::{ScrollFields, insets, is_zero_point, restrict, write_relations, write_scroll};
use super::buffer::{Buf, Offsets, with_blocks};
use super::scope::Scope;
use super::values::{float, int};
use super::{Ctx, PublishError, child, transitions};

pub(crate) fn write(ctx: &mut Ctx, resource: &ComponentResource) -> Result<Buf, PublishError> {
    let model = &resource.component;
    let props = &model.properties;
    let scope = Scope::new(&model.display_list, &model.controllers);

    let mut basics = Buf::default();
    basics.i32(int(model.size.width, "component width")?);
    basics.i32(int(model.size.height, "component height")?);
    restrict(&mut basics, &props.min_size, &props.max_size)?;
    let has_pivot = !is_zero_point(&props.pivot);
    basics.bool(has_pivot);
    if has_pivot {
        basics.f32(float(props.pivot.x, "pivot")?);
        basics.f32(float(props.pivot.y, "pivot")?);
        basics.bool(props.pivot_as_anchor);
    }
    insets(&mut basics, &props.margin, "margin")?;
    basics.u8(u8::try_from(props.overflow).unwrap_or(0));
    let has_softness = !is_zero_point(&props.clip_softness);
    basics.bool(has_softness);
    if has_softness {
        basics.i32(int(props.clip_softness.x, "clipSoftness")?);
        basics.i32(int(props.clip_softness.y, "clipSoftness")?);
    }

    let controllers = controllers(ctx, &model.controllers)?;

    let mut children = Buf::default();
    children.i16_of(scope.nodes.len(), "children")?;
    for node in &scope.nodes {
        let record = child::write(ctx, &scope, node)?;
        children.record_i16(&record, "child")?;
    }

    let mut relations = Buf::default();
    write_relations(&mut relations, &scope, &model.relations)?;

    let mut misc = Buf::default();
    misc.opt(&mut ctx.strings, &model.custom_data)?;
    misc.bool(props.opaque);
    let mask = scope.node_index(&props.mask);
    misc.index(mask, "mask")?;
    if mask.is_some() {
        misc.bool(props.reversed_mask);
    }
    hit_test(ctx, &mut misc, &scope, &props.hit_test)?;
    if ctx.version >= 5 {
        misc.opt(&mut ctx.strings, &props.show_sound)?;
        misc.opt(&mut ctx.strings, &props.hide_sound)?;
    }

    let transitions = transitions::write(ctx, &scope, &model.transitions)?;

    let extension = match props.extension_type.as_str() {
        "Button" => {
            let mut out = Buf::default();
            out.u8(u8::try_from(props.button_mode).unwrap_or(0));
            out.opt(&mut ctx.strings, &props.sound)?;
            out.f32(float(props.sound_volume_scale, "volume")?);
            out.u8(u8::try_from(props.down_effect).unwrap_or(0));
            out.f32(float(props.down_effect_value, "downEffectValue")?);
            Some(out)
        }
        "ComboBox" => {
            let mut out = Buf::default();
            out.opt(&mut ctx.strings, &props.dropdown)?;
            Some(out)
        }
        "ProgressBar" => {
            let mut out = Buf::default();
            out.u8(u8::try_from(props.title_type).unwrap_or(0));
            out.bool(props.reverse);
            Some(out)
        }
        "Slider" => {
            let mut out = Buf::default();
            out.u8(u8::try_from(props.title_type).unwrap_or(0));
            out.bool(props.reverse);
            if ctx.version >= 2 {
                out.bool(props.whole_numbers);
                out.bool(props.change_on_click);
            }
            Some(out)
        }
        "ScrollBar" => {
            let mut out = Buf::default();
            out.bool(props.fixed_grip_size);
            Some(out)
        }
        "Label" => Some(Buf::default()),
        _ => None,
    };

    let scroll = if props.overflow == 2 {
        let mut out = Buf::default();
        write_scroll(
            ctx,
            &mut out,
            &ScrollFields {
                scroll_type: props.scroll_type,
                scroll_bar_display: props.scroll_bar_display,
                flags: props.scroll_bar_flags,
                margin: &props.scroll_bar_margin,
                vt: &props.vt_scroll_bar_res,
                hz: &props.hz_scroll_bar_res,
                header: &props.header_res,
                footer: &props.footer_res,
            },
        )?;
        Some(out)
    } else {
        None
    };

    with_blocks(
        Offsets::Long,
        vec![
            Some(basics),
            Some(controllers),
            Some(children),
            Some(relations),
            Some(misc),
            Some(transitions),
            extension,
            scroll,
        ],
        "component",
    )
}

/// The hit area (block 4): a child image's pixels, or a child's shape, or none. The model
/// keeps the child's id (`hitTest="n1"`).
fn hit_test(ctx: &mut Ctx, out: &mut Buf, scope: &Scope, target: &str) -> Result<(), PublishError> {
    let found = scope
        .node_index(target)
        .and_then(|index| Some((index, *scope.nodes.get(index)?)));
    match found {
        Some((_, DisplayNode::Image(image))) => {
            out.id(&mut ctx.strings, &image.resource.resource_id)?;
            out.i32(int(image.base.position.x, "hit test x")?);
            out.i32(int(image.base.position.y, "hit test y")?);
        }
        Some((index, _)) => {
            out.null();
            out.i32(1);
            out.i32_of(index, "hit test child")?;
        }
        None => {
            out.null();
            out.i32(0);
            out.i32(0);
        }
    }
    Ok(())
}

fn controllers(ctx: &mut Ctx, controllers: &[Controller]) -> Result<Buf, PublishError> {
    let mut out = Buf::default();
    out.i16_of(controllers.len(), "controllers")?;
    for controller in controllers {
        let mut head = Buf::default();
        head.id(&mut ctx.strings, &controller.name)?;
        head.bool(controller.auto_radio_group_depth);

        let mut pages = Buf::default();
        pages.i16_of(controller.pages.len(), "controller pages")?;
        for page in &controller.pages {
            pages.id(&mut ctx.strings, &page.id)?;
            pages.id(&mut ctx.strings, &page.name)?;
        }
        if ctx.version >= 2 {
            match controller.home_page_type.as_str() {
                "specific" => {
                    pages.u8(1);
                    let index = controller
                        .pages
                        .iter()
                        .position(|p| p.id == controller.home_page);
                    pages.i16_of(index.unwrap_or(0), "home page")?;
                }
                "branch" => pages.u8(2),
                "variable" => {
                    pages.u8(3);
                    pages.opt(&mut ctx.strings, &controller.home_page)?;
                }
                _ => pages.u8(0),
            }
        }

        let mut actions = Buf::default();
        actions.i16_of(controller.actions.len(), "controller actions")?;
        for action in &controller.actions {
            let mut record = Buf::default();
            record.u8(u8::try_from(action.action_type).unwrap_or(0));
            for list in [&action.from_page_ids, &action.to_page_ids] {
                record.i16_of(list.len(), "action pages")?;
                for page in list {
                    record.id(&mut ctx.strings, page)?;
                }
            }
            if action.action_type == 0 {
                record.opt(&mut ctx.strings, &action.transition_name)?;
                record.i32(int(action.play_times, "action repeat")?);
                record.f32(float(action.delay, "action delay")?);
                record.bool(action.stop_on_exit);
            } else {
                record.opt(&mut ctx.strings, &action.target_node_id)?;
                record.opt(&mut ctx.strings, &action.controller_name)?;
                record.opt(&mut ctx.strings, &action.target_page)?;
            }
            actions.record_u16(&record, "controller action")?;
        }

        let record = with_blocks(
            Offsets::Short,
            vec![Some(head), Some(pages), Some(actions)],
            "controller",
        )?;
        out.record_u16(&record, "controller")?;
    }
    Ok(out)
}
