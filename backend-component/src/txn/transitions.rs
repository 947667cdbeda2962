//! Transition operations: add, replace (in place) or remove one by name.
//!
//! Payloads are complete snapshots whose name repeats the selector. What a valid
//! transition is (items animating existing nodes, known action and ease types, times of 0
//! or more) is validation's rule, judged once on the final state of the batch: a
//! transition read with items animating a node that no longer exists can be updated, and
//! the update may keep those items, but it may not add such an item, and no operation may
//! remove a node a transition animates. A missing transition is
//! `invalid_transition_payload`; a name held by more than one transition is
//! `selector_ambiguity`.

use ofgui_contracts::api::TransitionSelector;
use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::ops::{RemoveTransition, TransitionOp};
use ofgui_contracts::uam::{ComponentModel, Transition};

use super::issue::Issue;
use super::named::{Put, TRANSITION, component_of};
use super::workspace::{Op, Workspace};

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
    let issues = check_transition(at, selector, &op.transition);
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

/// A transition snapshot for the selector: the name must repeat it. What makes a
/// transition valid (item targets, action and ease types, times) is validation's rule,
/// judged on the final state of the batch.
fn check_transition(
    at: &Op<'_>,
    selector: &TransitionSelector,
    transition: &Transition,
) -> Vec<Issue> {
    let mut issues = Vec::new();
    if transition.name != selector.transition_name {
        issues.push(at.issue(
            Code::InvalidTransitionPayload,
            "transition.name",
            format!(
                "transition.name is {:?} but selector.transitionName is {:?}; they must be equal.",
                transition.name, selector.transition_name
            ),
        ));
    }
    // The file has no place for an item's name: the save could not write it, and a
    // re-read would give "".
    for (index, item) in transition.items.iter().enumerate() {
        if !item.name.is_empty() {
            issues.push(at.issue(
                Code::InvalidTransitionPayload,
                &format!("transition.items[{index}].name"),
                format!(
                    "transition.items[{index}] has name {:?}, but FairyGUI files do not store the names of transition items; leave name empty.",
                    item.name
                ),
            ));
        }
    }
    issues
}
