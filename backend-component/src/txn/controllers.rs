//! Controller operations: add, replace (in place) or remove one by name.
//!
//! Payloads are complete snapshots whose name repeats the selector. What a valid
//! controller is (at least one page, unique non-empty page ids, a selected index in range,
//! a consistent home page, actions naming its own pages and existing nodes and
//! transitions) is validation's rule, judged once on the final state of the batch: a
//! controller read with a legacy defect can be updated as long as the update adds none.
//! Replacing a controller may not drop a page id a gear bound to it still uses at the end
//! of the batch, and a controller cannot be removed while, at the end of the batch, gears
//! or nodes (a list's page controller, a button's controller, …) still name it.
//!
//! Codes where upstream only fails at execution: adding a controller whose name exists,
//! and naming a controller that does not exist, are `invalid_controller_payload`; a name
//! held by more than one controller is `selector_ambiguity`.

use std::collections::HashSet;

use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::ops::{ControllerOp, RemoveController};
use ofgui_contracts::uam::{ComponentModel, Controller, GearBinding};

use super::issue::{Blame, Issue};
use super::named::{CONTROLLER, Put, component_of};
use super::workspace::{FinalCheck, Op, Workspace};

fn names(model: &ComponentModel) -> Vec<&str> {
    model.controllers.iter().map(|c| c.name.as_str()).collect()
}

/// `addController` (`Put::Add`, under a new name) and `updateController` (`Put::Replace`,
/// in place of the one with that name).
pub(super) fn put_controller(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &ControllerOp,
    put: Put,
) -> Result<(), Vec<Issue>> {
    let selector = &op.selector;
    let (p, r) = component_of(workspace, at, selector)?;
    let model = workspace.component(p, r);
    let issues = check_controller(at, &selector.controller_name, &op.controller);
    let Some(slot) = CONTROLLER.put_slot(put, at, selector, &names(model), issues)? else {
        let controllers = &mut workspace.edit(at, p, r)?.controllers;
        controllers.push(op.controller.clone());
        return Ok(());
    };
    let page_ids = dropped_pages(&model.controllers[slot], &op.controller);
    workspace.edit(at, p, r)?.controllers[slot] = op.controller.clone();
    if !page_ids.is_empty() {
        // Gears may move off the dropped pages later in the batch.
        workspace.check_at_end(FinalCheck::ControllerPagesDropped {
            at: at.blame("controller.pages"),
            package_id: selector.package_id.clone(),
            component_id: selector.component_resource_id.clone(),
            controller_name: selector.controller_name.clone(),
            page_ids,
        });
    }
    Ok(())
}

pub(super) fn remove_controller(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &RemoveController,
) -> Result<(), Vec<Issue>> {
    let selector = &op.selector;
    let (p, r) = component_of(workspace, at, selector)?;
    let model = workspace.component(p, r);
    let slot = CONTROLLER.find(at, selector, &names(model))?;
    workspace.edit(at, p, r)?.controllers.remove(slot);
    // Gears and nodes may stop naming it later in the batch.
    workspace.check_at_end(FinalCheck::ControllerRemoved {
        at: at.blame("selector.controllerName"),
        package_id: selector.package_id.clone(),
        component_id: selector.component_resource_id.clone(),
        controller_name: selector.controller_name.clone(),
    });
    Ok(())
}

/// A controller snapshot for the selector: the name must repeat it. What makes a
/// controller valid (pages, selected index, home page, actions) is validation's rule,
/// judged on the final state of the batch.
fn check_controller(at: &Op<'_>, name: &str, controller: &Controller) -> Vec<Issue> {
    if controller.name == name {
        return Vec::new();
    }
    vec![at.issue(
        Code::InvalidControllerPayload,
        "controller.name",
        format!(
            "controller.name is {:?} but selector.controllerName is {name:?}; they must be equal (a controller is renamed by removing it and adding it under the new name).",
            controller.name
        ),
    )]
}

/// The page ids of `old` that the replacement `controller` no longer has.
fn dropped_pages(old: &Controller, controller: &Controller) -> Vec<String> {
    let kept: HashSet<&str> = controller.pages.iter().map(|p| p.id.as_str()).collect();
    old.pages
        .iter()
        .map(|p| p.id.as_str())
        .filter(|id| !kept.contains(id))
        .map(str::to_string)
        .collect()
}

/// After the batch: a gear bound to a controller whose update dropped pages may not use
/// one of them (unless a later update brought it back). Only dropped pages count: a gear
/// already naming a page the controller never had is legacy data the update did not make
/// worse.
pub(super) fn gears_off_dropped_pages(
    model: &ComponentModel,
    at: &Blame,
    controller_name: &str,
    page_ids: &[String],
) -> Vec<Issue> {
    let Some(controller) = model.controllers.iter().find(|c| c.name == controller_name) else {
        return Vec::new();
    };
    let gone: HashSet<&str> = page_ids
        .iter()
        .map(String::as_str)
        .filter(|id| !controller.pages.iter().any(|p| p.id == *id))
        .collect();
    let mut issues = Vec::new();
    for node in &model.display_list {
        for gear in node
            .base()
            .gears
            .iter()
            .filter(|g| g.controller_name() == controller_name)
        {
            let pages: Vec<&str> = match gear.binding() {
                GearBinding::Display(g) => {
                    g.visible_on_page_ids.iter().map(String::as_str).collect()
                }
                GearBinding::Value(g) => g.states.iter().map(|s| s.page_id.as_str()).collect(),
            };
            let mut reported = HashSet::new();
            for page in pages {
                if gone.contains(page) && reported.insert(page) {
                    let issue = at.issue(
                        Code::InvalidControllerPayload,
                        format!(
                        "After the batch, the {} gear of node {} still uses page id {page:?}, which this update of controller {controller_name} drops; keep that page id (rename pages by changing only their name), or move the gear off it in the same batch.",
                        gear.kind(),
                        node.id()
                    ),
                    );
                    issues.push(issue.node_kind(node.kind()).gear_kind(gear.kind()));
                }
            }
        }
    }
    issues
}
