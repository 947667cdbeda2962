//! Controller operations: add, replace (in place) or remove one by name.
//!
//! Payloads are complete snapshots whose name repeats the selector. A controller needs at
//! least one page, unique non-empty page ids, a selected index in range, a consistent
//! home page and actions that name its own pages and existing nodes. Replacing a
//! controller may not drop a page id a gear bound to it still uses at the end of the
//! batch, and a controller cannot be removed while gears use it.
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
use super::words::listed;
use super::workspace::{FinalCheck, Op, Workspace};
use crate::rules::HOME_PAGE_TYPES;

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
    let issues = check_controller(at, &selector.controller_name, &op.controller, model);
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
    let users: Vec<String> = model
        .display_list
        .iter()
        .flat_map(|node| {
            node.base()
                .gears
                .iter()
                .filter(|g| g.controller_name() == selector.controller_name)
                .map(move |g| format!("{} gear of node {}", g.kind(), node.id()))
        })
        .collect();
    if !users.is_empty() {
        return Err(vec![at.issue(
            Code::InvalidControllerPayload,
            "selector.controllerName",
            format!(
                "Controller {:?} is still used by {}; remove those gears first (removeGear or removeLookGear, earlier in the same batch is fine).",
                selector.controller_name,
                listed(users.iter().map(String::as_str))
            ),
        )]);
    }
    workspace.edit(at, p, r)?.controllers.remove(slot);
    Ok(())
}

/// A complete controller snapshot, against the component it goes into.
fn check_controller(
    at: &Op<'_>,
    name: &str,
    controller: &Controller,
    model: &ComponentModel,
) -> Vec<Issue> {
    let mut issues = Vec::new();
    let mut fail = |sub: &str, message: String| {
        issues.push(at.issue(
            Code::InvalidControllerPayload,
            &format!("controller.{sub}"),
            message,
        ));
    };
    if controller.name != name {
        fail(
            "name",
            format!(
                "controller.name is {:?} but selector.controllerName is {name:?}; they must be equal (a controller is renamed by removing it and adding it under the new name).",
                controller.name
            ),
        );
    }
    if controller.pages.is_empty() {
        fail(
            "pages",
            "The controller has no pages; give it at least one page {id, name}.".to_string(),
        );
    }
    let mut ids = HashSet::new();
    for (k, page) in controller.pages.iter().enumerate() {
        if page.id.is_empty() {
            fail(
                &format!("pages[{k}].id"),
                format!(
                    "Page {k} has an empty id; page ids are what gears and actions name, so give every page a unique id."
                ),
            );
        } else if !ids.insert(page.id.as_str()) {
            fail(
                &format!("pages[{k}].id"),
                format!(
                    "Page id {:?} is used twice; page ids must be unique within the controller.",
                    page.id
                ),
            );
        }
    }
    let selected = controller.selected_index.get();
    if selected.fract() != 0.0 || selected < 0.0 || selected >= controller.pages.len() as f64 {
        fail(
            "selectedIndex",
            format!(
                "selectedIndex is {selected}, but the controller has {} page(s); use a page index from 0 to {}.",
                controller.pages.len(),
                controller.pages.len().saturating_sub(1)
            ),
        );
    }
    let home = controller.home_page.as_str();
    match controller.home_page_type.as_str() {
        "specific" if !ids.contains(home) => fail(
            "homePage",
            format!(
                "homePageType is \"specific\", so homePage must be one of the controller's page ids ({}); it is {home:?}.",
                listed(controller.pages.iter().map(|p| p.id.as_str()))
            ),
        ),
        "variable" if home.is_empty() => fail(
            "homePage",
            "homePageType is \"variable\", so homePage must name the custom property key that holds the home page.".to_string(),
        ),
        kind @ ("default" | "branch") if !home.is_empty() => fail(
            "homePage",
            format!("homePageType is {kind:?}, so homePage must be ''; it is {home:?}."),
        ),
        kind if !HOME_PAGE_TYPES.contains(&kind) => fail(
            "homePageType",
            format!("homePageType is {kind:?}; use one of {}.", HOME_PAGE_TYPES.join(", ")),
        ),
        _ => {}
    }
    for (a, action) in controller.actions.iter().enumerate() {
        if !(0..=1).contains(&action.action_type) {
            fail(
                &format!("actions[{a}].actionType"),
                format!(
                    "Action {a} has actionType {}; use 0 (play a transition) or 1 (change a page).",
                    action.action_type
                ),
            );
        }
        for (field, pages) in [
            ("fromPageIds", &action.from_page_ids),
            ("toPageIds", &action.to_page_ids),
        ] {
            for page in pages.iter().filter(|page| !ids.contains(page.as_str())) {
                fail(
                    &format!("actions[{a}].{field}"),
                    format!(
                        "Action {a} names page {page:?} in {field}, which the controller does not have; use its page ids ({}).",
                        listed(controller.pages.iter().map(|p| p.id.as_str()))
                    ),
                );
            }
        }
    }
    for (a, action) in controller.actions.iter().enumerate() {
        let target = action.target_node_id.as_str();
        if !target.is_empty() && !model.display_list.iter().any(|n| n.id() == target) {
            issues.push(at.issue(
                Code::InvalidDisplayNodeSelector,
                &format!("controller.actions[{a}].targetNodeId"),
                format!(
                    "Action {a} targets node {target}, which the component does not have; use '' (the component itself) or one of: {}.",
                    listed(model.display_list.iter().map(|n| n.id()))
                ),
            ));
        }
    }
    issues
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
