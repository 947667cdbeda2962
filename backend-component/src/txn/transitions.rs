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
use super::named::{Put, TRANSITION, component_of};
use super::words::listed;
use super::workspace::{Op, Workspace};
use crate::rules::{is_ease_type, is_transition_action};

fn names(model: &ComponentModel) -> Vec<&str> {
    model.transitions.iter().map(|t| t.name.as_str()).collect()
}

/// `addTransition` (`Put::Add`, under a new name) and `updateTransition` (`Put::Replace`,
/// in place of the one with that name).
pub(super) fn put_transition(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &TransitionOp,
    put: Put,
) -> Result<(), Vec<Issue>> {
    let selector = &op.selector;
    let (p, r) = component_of(workspace, at, selector)?;
    let model = workspace.component(p, r);
    let issues = check_transition(at, selector, &op.transition, model);
    let slot = TRANSITION.put_slot(put, at, selector, &names(model), issues)?;
    let transitions = &mut workspace.edit(at, p, r)?.transitions;
    match slot {
        Some(slot) => transitions[slot] = op.transition.clone(),
        None => transitions.push(op.transition.clone()),
    }
    Ok(())
}

pub(super) fn remove_transition(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &RemoveTransition,
) -> Result<(), Vec<Issue>> {
    let selector = &op.selector;
    let (p, r) = component_of(workspace, at, selector)?;
    let slot = TRANSITION.find(at, selector, &names(workspace.component(p, r)))?;
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
