//! The blocks a component and its children both carry: relations, scroll settings,
//! margins and size limits.

use serde_json::Value;

use crate::error::Result;
use crate::names::{RELATION_TYPES, SCROLL_FLAGS, SCROLL_TYPES, SCROLLBAR_DISPLAY};
use crate::reader::{Fields, Reader};

/// Relation target meaning the parent rather than a sibling or child.
const TARGET_PARENT: i16 = -1;

/// Relations of a component or child: per target (−1 = parent, else a child/sibling index)
/// the list of relation types, each with its percent flag.
pub(crate) fn relations(r: &mut Reader<'_>) -> Result<Value> {
    let count = r.count_u8("relation target count")?;
    let mut targets = Vec::new();
    for _ in 0..count {
        let mut target = Fields::default();
        let index = r.i16("target")?;
        target.put(
            "target",
            if index == TARGET_PARENT {
                Value::from("parent")
            } else {
                Value::from(index)
            },
        );
        let count = r.count_u8("relation count")?;
        let mut definitions = Vec::new();
        for _ in 0..count {
            let mut definition = Fields::default();
            definition.named(r, "type", RELATION_TYPES)?;
            definition.bool(r, "percent")?;
            definitions.push(Value::from(definition));
        }
        target.put("defs", definitions);
        targets.push(Value::from(target));
    }
    Ok(Value::Array(targets))
}

/// Scroll settings of a scrolling component or list.
pub(crate) fn scroll_settings(r: &mut Reader<'_>) -> Result<Value> {
    let mut scroll = Fields::default();
    scroll.named(r, "scroll", SCROLL_TYPES)?;
    scroll.named(r, "scrollBarDisplay", SCROLLBAR_DISPLAY)?;
    let flags = scroll.i32(r, "flags")?;
    let names: Vec<Value> = SCROLL_FLAGS
        .iter()
        .zip(0u32..)
        .filter(|&(_, bit)| {
            flags
                .checked_shr(bit)
                .is_some_and(|shifted| shifted & 1 == 1)
        })
        .map(|(&name, _)| Value::from(name))
        .collect();
    scroll.put("flagNames", names);
    // The bits above the 12 named ones, shifted down (arithmetically: a negative stays negative).
    let unknown = flags.wrapping_shr(12);
    if unknown != 0 {
        scroll.put("unknownFlagBits", unknown);
    }
    if r.bool("hasScrollBarMargin")? {
        scroll.put("scrollBarMargin", margin(r)?);
    }
    for url in ["vtScrollBarRes", "hzScrollBarRes", "headerRes", "footerRes"] {
        scroll.string(r, url)?;
    }
    Ok(scroll.into())
}

/// Four `i32`s: top, bottom, left, right.
pub(crate) fn margin(r: &mut Reader<'_>) -> Result<Value> {
    let mut margin = Fields::default();
    for side in ["top", "bottom", "left", "right"] {
        margin.i32(r, side)?;
    }
    Ok(margin.into())
}

/// Four `i32`s: minWidth, maxWidth, minHeight, maxHeight.
pub(crate) fn restrict_size(r: &mut Reader<'_>) -> Result<Value> {
    let mut limits = Fields::default();
    for limit in ["minWidth", "maxWidth", "minHeight", "maxHeight"] {
        limits.i32(r, limit)?;
    }
    Ok(limits.into())
}
