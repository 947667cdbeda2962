//! Transition operations: add, replace (in place) or remove one by name.
//!
//! Payloads are complete snapshots whose name repeats the selector; their items must
//! target existing nodes. A missing transition is `invalid_transition_payload`; a name
//! held by more than one transition is `selector_ambiguity`.

use ofgui_contracts::api::TransitionSelector;
use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::ops::{RemoveTransition, TransitionOp};
use ofgui_contracts::uam::{ComponentModel, Transition};

use super::issue::Issue;
use super::named::{TRANSITION, component_of};
use super::words::listed;
use super::workspace::{Op, Workspace};
use crate::rules::{is_ease_type, is_transition_action};

fn names(model: &ComponentModel) -> Vec<&str> {
    model.transitions.iter().map(|t| t.name.as_str()).collect()
}

pub(super) fn add_transition(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &TransitionOp,
) -> Result<(), Vec<Issue>> {
    let selector = &op.selector;
    let (p, r) = component_of(
        workspace,
        at,
        &selector.package_id,
        &selector.component_resource_id,
    )?;
    let model = workspace.component(p, r);
    let mut issues = check_transition(at, selector, &op.transition, model);
    issues.extend(TRANSITION.taken(
        at,
        &selector.component_resource_id,
        &names(model),
        &selector.transition_name,
    ));
    if !issues.is_empty() {
        return Err(issues);
    }
    workspace
        .edit(at, p, r)?
        .transitions
        .push(op.transition.clone());
    Ok(())
}

pub(super) fn update_transition(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &TransitionOp,
) -> Result<(), Vec<Issue>> {
    let selector = &op.selector;
    let (p, r) = component_of(
        workspace,
        at,
        &selector.package_id,
        &selector.component_resource_id,
    )?;
    let model = workspace.component(p, r);
    let mut issues = check_transition(at, selector, &op.transition, model);
    let found = TRANSITION.find(
        at,
        &selector.component_resource_id,
        &names(model),
        &selector.transition_name,
    );
    let slot = match found {
        Ok(slot) => slot,
        Err(mut found) => {
            issues.append(&mut found);
            return Err(issues);
        }
    };
    if !issues.is_empty() {
        return Err(issues);
    }
    workspace.edit(at, p, r)?.transitions[slot] = op.transition.clone();
    Ok(())
}

pub(super) fn remove_transition(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &RemoveTransition,
) -> Result<(), Vec<Issue>> {
    let selector = &op.selector;
    let (p, r) = component_of(
        workspace,
        at,
        &selector.package_id,
        &selector.component_resource_id,
    )?;
    let slot = TRANSITION.find(
        at,
        &selector.component_resource_id,
        &names(workspace.component(p, r)),
        &selector.transition_name,
    )?;
    workspace.edit(at, p, r)?.transitions.remove(slot);
    Ok(())
}

/// A complete transition snapshot, against the component it goes into.
fn check_transition(
    at: &Op<'_>,
    selector: &TransitionSelector,
    transition: &Transition,
    model: &ComponentModel,
) -> Vec<Issue> {
    let mut issues = Vec::new();
    let mut fail = |sub: &str, message: String| {
        issues.push(at.issue(
            Code::InvalidTransitionPayload,
            &format!("transition.{sub}"),
            message,
        ));
    };
    if transition.name != selector.transition_name {
        fail(
            "name",
            format!(
                "transition.name is {:?} but selector.transitionName is {:?}; they must be equal.",
                transition.name, selector.transition_name
            ),
        );
    }
    for (i, item) in transition.items.iter().enumerate() {
        let target = item.target_node_id.as_str();
        if !target.is_empty() && !model.display_list.iter().any(|n| n.id() == target) {
            fail(
                &format!("items[{i}].targetNodeId"),
                format!(
                    "Item {i} animates node {target}, which the component does not have; use '' (the component itself) or one of: {}.",
                    listed(model.display_list.iter().map(|n| n.id()))
                ),
            );
        }
        if !is_transition_action(item.action_type) {
            fail(
                &format!("items[{i}].actionType"),
                format!(
                    "Item {i} has actionType {}; use 0..16 (XY 0, Size 1, Scale 2, Pivot 3, Alpha 4, Rotation 5, Color 6, Animation 7, Visible 8, Sound 9, Transition 10, Shake 11, ColorFilter 12, Skew 13, Text 14, Icon 15, Unknown 16).",
                    item.action_type
                ),
            );
        }
        if !is_ease_type(item.ease_type) {
            fail(
                &format!("items[{i}].easeType"),
                format!(
                    "Item {i} has easeType {}; use 0 (Linear) to 31 (Custom), e.g. 5 for Quad.Out.",
                    item.ease_type
                ),
            );
        }
        for (field, value) in [("time", item.time.get()), ("duration", item.duration.get())] {
            if value < 0.0 {
                fail(
                    &format!("items[{i}].{field}"),
                    format!("Item {i} has {field} {value}; use 0 or more frames."),
                );
            }
        }
    }
    issues
}
