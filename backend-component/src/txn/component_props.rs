//! `setComponentProps`: a component root's size and properties snapshot.
//!
//! Decisions where the spec is silent: `size` must be whole numbers from 0 to 2^31 − 1
//! (the editor stores Int32); `properties` enums must be known values, `soundVolumeScale`
//! 0..1, custom property ids 0 or 1, and margins, clip softness and design image offset
//! must fit Int32.

use ofgui_contracts::Num;
use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::ops::SetComponentProps;
use ofgui_contracts::uam::ComponentProperties;

use super::issue::Issue;
use super::workspace::{Op, Workspace};
use crate::rules::{fits_geometry, is_extension_type, is_unit};

fn is_dimension(value: Num) -> bool {
    value.fits_i32() && value.get() >= 0.0
}

fn property_issues(at: &Op<'_>, properties: &ComponentProperties) -> Vec<Issue> {
    let mut issues = Vec::new();
    let mut fail = |field: &str, message: String| {
        issues.push(at.issue(
            Code::InvalidComponentPayload,
            &format!("props.properties.{field}"),
            message,
        ));
    };
    for (field, size) in [
        ("minSize", &properties.min_size),
        ("maxSize", &properties.max_size),
    ] {
        for (axis, value) in [("width", size.width), ("height", size.height)] {
            if !is_dimension(value) {
                fail(
                    &format!("{field}.{axis}"),
                    format!(
                        "{field}.{axis} is {}; it must be a whole number from 0 to 2147483647 \
                         (0 means no limit).",
                        value.get()
                    ),
                );
            }
        }
    }
    let margin = &properties.margin;
    for (side, value) in [
        ("top", margin.top),
        ("bottom", margin.bottom),
        ("left", margin.left),
        ("right", margin.right),
    ] {
        if !fits_geometry(value) {
            fail(
                &format!("margin.{side}"),
                format!(
                    "margin.{side} is {}; it must fit a 32-bit integer.",
                    value.get()
                ),
            );
        }
    }
    for (field, point) in [
        ("clipSoftness", &properties.clip_softness),
        ("designImageOffset", &properties.design_image_offset),
    ] {
        for (axis, value) in [("x", point.x), ("y", point.y)] {
            if !fits_geometry(value) {
                fail(
                    &format!("{field}.{axis}"),
                    format!(
                        "{field}.{axis} is {}; it must fit a 32-bit integer.",
                        value.get()
                    ),
                );
            }
        }
    }
    for (field, value, max, meaning) in [
        (
            "overflow",
            properties.overflow,
            2,
            "0 visible, 1 hidden, 2 scroll",
        ),
        (
            "scrollType",
            properties.scroll_type,
            2,
            "0 horizontal, 1 vertical, 2 both",
        ),
        (
            "scrollBarDisplay",
            properties.scroll_bar_display,
            3,
            "0 default, 1 visible, 2 auto, 3 hidden",
        ),
    ] {
        if !(0..=max).contains(&value) {
            fail(field, format!("{field} is {value}; use {meaning}."));
        }
    }
    if !is_extension_type(&properties.extension_type) {
        fail(
            "extensionType",
            format!(
                "extensionType {:?} is unknown; use '' or one of Button, Label, ComboBox, \
                 ProgressBar, Slider, ScrollBar.",
                properties.extension_type
            ),
        );
    }
    if !is_unit(properties.sound_volume_scale.get()) {
        fail(
            "soundVolumeScale",
            format!(
                "soundVolumeScale is {}; it must be between 0 and 1.",
                properties.sound_volume_scale.get()
            ),
        );
    }
    for (k, custom) in properties.custom_properties.iter().enumerate() {
        if !(0..=1).contains(&custom.property_id) {
            fail(
                &format!("customProperties[{k}].propertyId"),
                format!(
                    "customProperties[{k}].propertyId is {}; use 0 (text) or 1 (icon).",
                    custom.property_id
                ),
            );
        }
    }
    issues
}

pub(super) fn set_props(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &SetComponentProps,
) -> Result<(), Vec<Issue>> {
    let mut issues = Vec::new();
    let found = workspace
        .find_component(at, &op.selector)
        .map_err(|issue| issues.push(issue))
        .ok();
    let props = &op.props;
    if props.size.is_none() && props.properties.is_none() {
        issues.push(at.issue(
            Code::InvalidComponentPayload,
            "props",
            "props is empty; give size {width, height}, a complete properties snapshot, or both.",
        ));
    }
    if let Some(size) = &props.size {
        for (axis, value) in [("width", size.width), ("height", size.height)] {
            if !is_dimension(value) {
                issues.push(at.issue(
                    Code::InvalidComponentPayload,
                    &format!("props.size.{axis}"),
                    format!(
                        "size.{axis} is {}; it must be a whole number from 0 to 2147483647.",
                        value.get()
                    ),
                ));
            }
        }
    }
    if let Some(properties) = &props.properties {
        issues.extend(property_issues(at, properties));
    }
    let Some((p, r)) = found.filter(|_| issues.is_empty()) else {
        return Err(issues);
    };
    // `component_mut` puts the component in the final reference checks' scope.
    if let Some(model) = workspace.component_mut(p, r) {
        if let Some(size) = &props.size {
            model.size = size.clone();
        }
        if let Some(properties) = &props.properties {
            model.properties = properties.clone();
        }
    }
    Ok(())
}
