//! A component node's instance properties after a partial change: the fields given replace
//! theirs, the others stay, and a node without instance properties starts from the empty
//! element of its component's extension type. The `text`, `color` and `fontSize`
//! shortcuts set a title control's `title`, `titleColor` and `titleFontSize` the same way.

use ofgui_contracts::ops::{DisplayNodePropsUpdate, InstancePropertiesChange};
use ofgui_contracts::uam::InstanceProperties;
use serde_json::{Map, Value};

use super::checker::Checker;
use crate::rules::EXTENSION_TYPES;

/// What `props` asks of a component node's instance properties: `None` when it leaves them
/// alone, `Some(None)` when it deletes them, else the merged properties. Problems are
/// reported to `c` (at `componentInstanceProperties.<field>` or at the shortcut) and give
/// `None`.
pub(super) fn change(
    c: &mut Checker<'_, '_>,
    props: &DisplayNodePropsUpdate,
    current: Option<&InstanceProperties>,
    component_extension: Option<&str>,
) -> Option<Option<InstanceProperties>> {
    let from_shortcuts = shortcut_change(c, props);
    let change = match (&props.component_instance_properties, from_shortcuts) {
        (None, None) => return None,
        (Some(None), None) => return Some(None),
        (Some(None), Some(_)) => {
            c.payload(
                "componentInstanceProperties",
                "props deletes the instance properties (componentInstanceProperties null) and sets the title with a shortcut; send one or the other.",
            );
            return None;
        }
        (Some(Some(change)), None) => change.clone(),
        (None, Some(shortcuts)) => shortcuts,
        (Some(Some(change)), Some(shortcuts)) => combined(c, change, shortcuts)?,
    };
    merge(c, &change, current, component_extension).map(Some)
}

/// The title fields the text shortcuts set; `font` has no instance field and is refused.
fn shortcut_change(
    c: &mut Checker<'_, '_>,
    props: &DisplayNodePropsUpdate,
) -> Option<InstancePropertiesChange> {
    if props.font.is_some() {
        c.fail(
            ofgui_contracts::catalog::DiagnosticCode::UnsupportedTextFieldTarget,
            "font",
            format!(
                "props.font sets a text node's font, but node {} is a component instance, whose title takes its component's font; change the font of the title text inside the component, or leave font out.",
                c.node_id
            ),
        );
    }
    if props.text.is_none() && props.color.is_none() && props.font_size.is_none() {
        return None;
    }
    Some(InstancePropertiesChange {
        title: props.text.clone(),
        title_color: props.color.clone(),
        title_font_size: props.font_size,
        ..empty_change()
    })
}

/// The instance change and the shortcuts together, unless both set one field.
fn combined(
    c: &mut Checker<'_, '_>,
    change: &InstancePropertiesChange,
    shortcuts: InstancePropertiesChange,
) -> Option<InstancePropertiesChange> {
    let mut merged = change.clone();
    let mut clash = false;
    for (shortcut, field, given, slot) in [
        ("text", "title", shortcuts.title, &mut merged.title),
        (
            "color",
            "titleColor",
            shortcuts.title_color,
            &mut merged.title_color,
        ),
    ] {
        if given.is_some() {
            if slot.is_some() {
                c.payload(
                    &format!("componentInstanceProperties.{field}"),
                    format!(
                        "props sets {field} twice, as props.{shortcut} and as componentInstanceProperties.{field}; send one of them."
                    ),
                );
                clash = true;
            }
            *slot = given;
        }
    }
    if shortcuts.title_font_size.is_some() {
        if merged.title_font_size.is_some() {
            c.payload(
                "componentInstanceProperties.titleFontSize",
                "props sets titleFontSize twice, as props.fontSize and as componentInstanceProperties.titleFontSize; send one of them.",
            );
            clash = true;
        }
        merged.title_font_size = shortcuts.title_font_size;
    }
    (!clash).then_some(merged)
}

fn empty_change() -> InstancePropertiesChange {
    InstancePropertiesChange {
        extension_type: None,
        title: None,
        selected_title: None,
        icon: None,
        selected_icon: None,
        title_color: None,
        title_font_size: None,
        controller: None,
        page: None,
        checked: None,
        sound: None,
        sound_volume_scale: None,
        prompt_text: None,
        popup_direction: None,
        visible_item_count: None,
        selection_controller: None,
        auto_clear_items: None,
        items: None,
        value: None,
        max: None,
        min: None,
    }
}

/// The properties the change leaves: its extension type's (given, or the node's, or its
/// component's), starting from the node's own when they are of that type.
fn merge(
    c: &mut Checker<'_, '_>,
    change: &InstancePropertiesChange,
    current: Option<&InstanceProperties>,
    component_extension: Option<&str>,
) -> Option<InstanceProperties> {
    let extension = change
        .extension_type
        .as_deref()
        .or(current.map(InstanceProperties::extension_type))
        .or(component_extension.filter(|e| !e.is_empty()));
    let Some(extension) = extension else {
        let why = match component_extension {
            Some(_) => {
                "its component has no extension type (a plain component), so it takes no instance properties; send componentInstanceProperties null, or give the component an extension with setComponentProps first"
            }
            None => {
                "its component cannot be found, so its extension type is not known; send extensionType with the fields"
            }
        };
        c.payload(
            "componentInstanceProperties",
            format!("Node {} has no instance properties and {why}.", c.node_id),
        );
        return None;
    };
    let Some(empty) = InstanceProperties::empty(extension) else {
        c.payload(
            "componentInstanceProperties.extensionType",
            format!(
                "extensionType {extension:?} is not one; use one of {}.",
                EXTENSION_TYPES.join(", ")
            ),
        );
        return None;
    };
    let start = match current {
        Some(current) if current.extension_type() == extension => current.clone(),
        _ => empty,
    };
    let Ok(Value::Object(mut fields)) = serde_json::to_value(&start) else {
        return None;
    };
    let Ok(Value::Object(given)) = serde_json::to_value(change) else {
        return None;
    };
    let mut foreign = Vec::new();
    for (key, value) in given {
        if key == "extensionType" {
            continue;
        }
        if fields.contains_key(&key) {
            fields.insert(key, value);
        } else {
            foreign.push(key);
        }
    }
    for key in foreign {
        c.fail(
            ofgui_contracts::catalog::DiagnosticCode::UnsupportedDisplayNodeField,
            &format!("componentInstanceProperties.{key}"),
            format!(
                "{key} is not a field of {extension} instance properties (node {}); {extension} has {}.",
                c.node_id,
                field_names(&fields)
            ),
        );
    }
    serde_json::from_value(Value::Object(fields)).ok()
}

/// The fields of an extension type, for a message.
fn field_names(fields: &Map<String, Value>) -> String {
    let names: Vec<&str> = fields
        .keys()
        .map(String::as_str)
        .filter(|k| *k != "extensionType")
        .collect();
    if names.is_empty() {
        "no fields".to_string()
    } else {
        names.join(", ")
    }
}
