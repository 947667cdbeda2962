//! A component item's buffer: an 8-slot position table whose blocks hold the component's
//! settings (0), controllers (1), display list (2), own relations (3), misc settings (4),
//! transitions (5), extension definition (6) and scroll settings (7).

use serde_json::Value;

use crate::child;
use crate::error::{Result, Within};
use crate::layout::{margin, relations, restrict_size, scroll_settings};
use crate::names::{
    BUTTON_MODE, CONTROLLER_ACTIONS, DOWN_EFFECT, HOME_PAGE_TYPES, OVERFLOW, OVERFLOW_SCROLL,
    TITLE_TYPE, object,
};
use crate::reader::{BlockTable, Fields, Reader};
use crate::transition;

/// Mask child index meaning "no mask".
const NO_MASK: i16 = -1;
/// Controller home-page types followed by a value.
const HOME_PAGE_FIXED: u8 = 1;
const HOME_PAGE_VARIABLE: u8 = 3;
/// Controller action types.
const ACTION_PLAY_TRANSITION: u8 = 0;
const ACTION_CHANGE_PAGE: u8 = 1;

/// Decodes a component buffer. `extension` is the item's extension byte (0 for a plain
/// component), which decides what block 6 holds.
pub(crate) fn component(buffer: Reader<'_>, extension: u8) -> Result<Value> {
    let table = BlockTable::parse(&buffer)?;
    let mut component = Fields::default();
    component.put("blockTable", table.describe());

    let overflow = table
        .required(0, "size and settings")?
        .read_all(|r| settings(r, &mut component))
        .within(|| "block 0")?;

    match table.content(7)? {
        Some(r) if overflow == OVERFLOW_SCROLL => {
            component.put(
                "scrollPane",
                r.read_all(scroll_settings).within(|| "block 7 (scroll)")?,
            );
        }
        Some(r) => {
            return Err(r.invalid(
                r.pos(),
                "scroll settings",
                "block 7 holds scroll settings but overflow is not scroll".into(),
            ));
        }
        None if overflow == OVERFLOW_SCROLL => return Err(table.missing(7, "scroll settings")),
        None => {}
    }

    let r = table.required(1, "controllers")?;
    component.put(
        "controllers",
        controllers(r).within(|| "block 1 (controllers)")?,
    );

    let r = table.required(2, "display list")?;
    component.put("children", children(r).within(|| "block 2 (children)")?);

    let r = table.required(3, "relations")?;
    component.put(
        "relations",
        r.read_all(relations).within(|| "block 3 (relations)")?,
    );

    let r = table.required(4, "misc settings")?;
    r.read_all(|r| misc(r, &mut component))
        .within(|| "block 4")?;

    let r = table.required(5, "transitions")?;
    component.put(
        "transitions",
        transitions(r).within(|| "block 5 (transitions)")?,
    );

    // Present (possibly empty) only for extension components.
    if let Some(r) = table.block(6)? {
        let definition = r.read_all(|r| extension_definition(r, extension));
        component.put("extension", definition.within(|| "block 6 (extension)")?);
    }
    table.expect_no_blocks_from(8)?;
    Ok(component.into())
}

/// Block 0: size, limits, pivot, margin, overflow, clip softness. Returns the overflow code.
fn settings(r: &mut Reader<'_>, component: &mut Fields) -> Result<u8> {
    component.i32(r, "width")?;
    component.i32(r, "height")?;
    if r.bool("hasRestrict")? {
        component.put("restrictSize", restrict_size(r)?);
    }
    if r.bool("hasPivot")? {
        component.put("pivot", r.f32s(2, "pivot")?);
        component.bool(r, "pivotAsAnchor")?;
    }
    if r.bool("hasMargin")? {
        component.put("margin", margin(r)?);
    }
    let overflow = component.named(r, "overflow", OVERFLOW)?;
    if r.bool("hasClipSoftness")? {
        component.put("clipSoftness", r.i32s(2, "clipSoftness")?);
    }
    Ok(overflow)
}

/// Block 4: custom data, opacity, mask, hit area, (version 5 on) enter and exit sounds.
fn misc(r: &mut Reader<'_>, component: &mut Fields) -> Result<()> {
    component.string(r, "customData")?;
    component.bool(r, "opaque")?;
    let mask = r.i16("mask")?;
    if mask != NO_MASK {
        component.put("mask", mask);
        component.bool(r, "reversedMask")?;
    }
    let mut hit_test = Fields::default();
    hit_test.string(r, "src")?;
    hit_test.i32(r, "i1")?;
    hit_test.i32(r, "i2")?;
    component.put("hitTest", hit_test);
    if r.version() >= 5 {
        component.string(r, "soundAdded")?;
        component.string(r, "soundRemoved")?;
    }
    Ok(())
}

fn controllers(mut r: Reader<'_>) -> Result<Vec<Value>> {
    let count = r.count_i16("controller count")?;
    let mut controllers = Vec::new();
    for index in 0..count {
        let record = r
            .record_u16("controller record")
            .within(|| format!("controller {index}"))?;
        controllers.push(controller(record).within(|| format!("controller {index}"))?);
    }
    r.finish()?;
    Ok(controllers)
}

/// A controller record: block 0 name, block 1 pages and home page, block 2 actions.
fn controller(record: Reader<'_>) -> Result<Value> {
    let table = BlockTable::parse(&record)?;
    let mut controller = Fields::default();

    let name = table
        .required(0, "name")?
        .read_all(|r| {
            let name = controller.string(r, "name")?;
            controller.bool(r, "autoRadioGroupDepth")?;
            Ok(name)
        })
        .within(|| "block 0")?
        .unwrap_or("(null)");
    let label = || format!("'{name}'");

    let r = table.required(1, "pages").within(label)?;
    r.read_all(|r| pages(r, &mut controller))
        .within(|| "block 1 (pages)")
        .within(label)?;

    if let Some(r) = table.block(2).within(label)? {
        let actions = r
            .read_all(actions)
            .within(|| "block 2 (actions)")
            .within(label)?;
        controller.put("actions", actions);
    }
    table.expect_no_blocks_from(3).within(label)?;
    Ok(controller.into())
}

fn pages(r: &mut Reader<'_>, controller: &mut Fields) -> Result<()> {
    let count = r.count_i16("page count")?;
    let mut pages = Vec::new();
    for _ in 0..count {
        let mut page = Fields::default();
        page.string(r, "id")?;
        page.string(r, "name")?;
        pages.push(Value::from(page));
    }
    controller.put("pages", pages);
    if r.version() >= 2 {
        let (home, name) = r.known_code("homePageType", HOME_PAGE_TYPES)?;
        controller.put("homePageType", name);
        match home {
            HOME_PAGE_FIXED => {
                controller.i16(r, "homePageIndex")?;
            }
            HOME_PAGE_VARIABLE => {
                controller.string(r, "homePageVar")?;
            }
            _ => {}
        }
    }
    Ok(())
}

fn actions(r: &mut Reader<'_>) -> Result<Vec<Value>> {
    let count = r.count_i16("action count")?;
    let mut actions = Vec::new();
    for index in 0..count {
        let decoded = r
            .record_u16("action record")
            .and_then(|record| record.read_all(action))
            .within(|| format!("action {index}"))?;
        actions.push(decoded);
    }
    Ok(actions)
}

fn action(r: &mut Reader<'_>) -> Result<Value> {
    let mut action = Fields::default();
    let (kind, name) = r.known_code("action type", CONTROLLER_ACTIONS)?;
    action.put("type", name);
    let count = r.count_i16("fromPage count")?;
    action.put("fromPage", r.strings_value(count, "fromPage")?);
    let count = r.count_i16("toPage count")?;
    action.put("toPage", r.strings_value(count, "toPage")?);
    match kind {
        ACTION_PLAY_TRANSITION => {
            action.string(r, "transitionName")?;
            action.i32(r, "playTimes")?;
            action.f32(r, "delay")?;
            action.bool(r, "stopOnExit")?;
        }
        ACTION_CHANGE_PAGE => {
            action.string(r, "objectId")?;
            action.string(r, "controllerName")?;
            action.string(r, "targetPage")?;
        }
        _ => {}
    }
    Ok(action.into())
}

fn children(mut r: Reader<'_>) -> Result<Vec<Value>> {
    let count = r.count_i16("child count")?;
    let mut children = Vec::new();
    for index in 0..count {
        let record = r
            .record_i16("child record")
            .within(|| format!("child {index}"))?;
        children.push(child::child(record).within(|| format!("child {index}"))?);
    }
    r.finish()?;
    Ok(children)
}

fn transitions(mut r: Reader<'_>) -> Result<Vec<Value>> {
    let count = r.count_i16("transition count")?;
    let mut transitions = Vec::new();
    for index in 0..count {
        let decoded = r
            .record_u16("transition record")
            .and_then(|record| record.read_all(transition::transition))
            .within(|| format!("transition {index}"))?;
        transitions.push(decoded);
    }
    r.finish()?;
    Ok(transitions)
}

/// Block 6: what makes the component a button, combobox, progress bar, slider or scroll bar.
/// Labels and plain components have nothing here.
fn extension_definition(r: &mut Reader<'_>, extension: u8) -> Result<Value> {
    let mut definition = Fields::default();
    match extension {
        object::BUTTON => {
            definition.named(r, "mode", BUTTON_MODE)?;
            definition.string(r, "sound")?;
            definition.f32(r, "volume")?;
            definition.named(r, "downEffect", DOWN_EFFECT)?;
            definition.f32(r, "downEffectValue")?;
        }
        object::COMBOBOX => {
            definition.string(r, "dropdown")?;
        }
        object::PROGRESSBAR => {
            definition.named(r, "titleType", TITLE_TYPE)?;
            definition.bool(r, "reverse")?;
        }
        object::SLIDER => {
            definition.named(r, "titleType", TITLE_TYPE)?;
            definition.bool(r, "reverse")?;
            if r.version() >= 2 {
                definition.bool(r, "wholeNumbers")?;
                definition.bool(r, "changeOnClick")?;
            }
        }
        object::SCROLLBAR => {
            definition.bool(r, "fixedGripSize")?;
        }
        _ => {}
    }
    Ok(definition.into())
}
