//! Component lifecycle: `addComponent`, `removeComponent`, `moveComponent`.
//!
//! Decisions where the spec is silent:
//! - A component's file is `<path><name>.xml` on its branch; it may not take the file of
//!   another resource of the package (`invalid_component_payload` / `invalid_component_move`).
//! - The component's folder must exist in the package (or be `/`), as `addResource`
//!   requires: an earlier `addResourceFolder` in the batch provides it. A moved component
//!   keeps its folder path.
//! - The reader links branch variants by branch, folder and file name, so a branch
//!   variant, or a component with variants, cannot move to another package
//!   (`invalid_component_move`); removing a variant clears the slot naming it.
//! - A component listed in its package's `publish.excludedResourceIds` leaves that list
//!   when removed, and is listed in the target's when moved.
//! - `moveComponent`'s dependency rule has two halves. A node naming its package only
//!   implicitly (no `packageId`) resolves into the new package after the move; if that
//!   fails on the final state, the final check reports `component_has_package_dependencies`.
//!   A node naming the old package explicitly (`packageId`, as `attachDisplayNode` writes
//!   it) would still resolve, so nothing dangles: it is refused when the move is checked
//!   (detach such nodes earlier in the batch).
//! - Added components (and components of an added package) follow upstream's node support
//!   rules: no image node pointing into another package
//!   (`unsupported_cross_package_image_ref`), one gear per kind and controller
//!   (`duplicate_(look_)gear_controller`); everything else structural is
//!   `invalid_component_payload` at the payload path.

use std::sync::Arc;

use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::ops::{AddComponent, MoveComponent, RemoveComponent};
use ofgui_contracts::uam::{DisplayNode, ResourceRef, UamPackage, UamResource};

use super::issue::Issue;
use super::layout::{canonical_resource_path, derived_source_path, folder_exists};
use super::payload::{node_support_issues, reported, standalone_findings};
use super::words::branch_label;
use super::workspace::FinalCheck;
use super::workspace::{Op, Workspace};
use crate::rules::{is_safe_segment, is_usable_id};

/// The resource of `package` (other than `except`) already written to `source_path`,
/// compared case-insensitively as the disk does.
fn file_owner<'p>(
    package: &'p UamPackage,
    source_path: &str,
    except: Option<usize>,
) -> Option<&'p str> {
    let wanted = source_path.to_lowercase();
    package
        .resources
        .iter()
        .enumerate()
        .filter(|(index, _)| Some(*index) != except)
        .find(|(_, r)| r.source_path().is_some_and(|p| p.to_lowercase() == wanted))
        .map(|(_, r)| r.id())
}

fn index_issue(at: &Op<'_>, field: &str, index: u32, package: &UamPackage) -> Issue {
    at.issue(
        Code::InvalidComponentIndex,
        field,
        format!(
            "{field} {index} is out of range; package {} has {} resources, so use 0 to {}.",
            package.id,
            package.resources.len(),
            package.resources.len()
        ),
    )
}

/// Nodes of `nodes` that name package `package_id` explicitly, with the field naming it.
pub(super) fn explicit_refs_into<'n>(
    nodes: &'n [DisplayNode],
    package_id: &str,
) -> Vec<(&'n str, &'static str)> {
    nodes
        .iter()
        .filter_map(|node| {
            let names = match node {
                DisplayNode::Image(n) => resource_names(&n.resource, package_id),
                DisplayNode::Component(n) => resource_names(&n.resource, package_id),
                DisplayNode::MovieClip(n) => resource_names(&n.resource, package_id),
                DisplayNode::Button(n) | DisplayNode::Label(n) | DisplayNode::ComboBox(n) => {
                    !n.src.is_empty() && n.package_id == package_id
                }
                DisplayNode::ProgressBar(n)
                | DisplayNode::Slider(n)
                | DisplayNode::ScrollBar(n) => !n.src.is_empty() && n.package_id == package_id,
                _ => false,
            };
            let field = if matches!(
                node,
                DisplayNode::Image(_) | DisplayNode::Component(_) | DisplayNode::MovieClip(_)
            ) {
                "resource.packageId"
            } else {
                "packageId"
            };
            names.then(|| (node.id(), field))
        })
        .collect()
}

fn resource_names(reference: &ResourceRef, package_id: &str) -> bool {
    !reference.resource_id.is_empty() && reference.package_id.as_deref() == Some(package_id)
}

pub(super) fn add(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &AddComponent,
) -> Result<(), Vec<Issue>> {
    let p = workspace
        .find_package(at, "selector.packageId", &op.selector.package_id)
        .map_err(|issue| vec![issue])?;
    let project = workspace.project();
    let package = &project.packages[p];
    let mut component = op.component.clone();
    let mut issues = Vec::new();

    if !is_usable_id(&component.id) {
        issues.push(at.issue(
            Code::InvalidComponentPayload,
            "component.id",
            format!(
                "Component id {:?} is not usable; give a non-empty id without /, commas, spaces \
                 or control characters (the editor uses ids like kn7w0).",
                component.id
            ),
        ));
    } else if let Some(existing) = package.resources.iter().find(|r| r.id() == component.id) {
        issues.push(at.issue(
            Code::DuplicateComponentId,
            "component.id",
            format!(
                "Package {} already has resource {} (kind {}); choose an unused id.",
                package.id,
                component.id,
                existing.kind()
            ),
        ));
    }
    // Unmodeled elements exist only as their file writes them; a new file has none.
    if !component.component.unsupported_nodes.is_empty() {
        issues.push(at.issue(
            Code::InvalidComponentPayload,
            "component.component.unsupportedNodes",
            "A new component cannot hold unsupportedNodes: this server keeps such elements \
             (a legacy <swf>) only in the files that have them. Leave unsupportedNodes out.",
        ));
    }
    let file = format!("{}.xml", component.name);
    if !is_safe_segment(&component.name) || !is_safe_segment(&file) {
        issues.push(at.issue(
            Code::InvalidComponentPayload,
            "component.name",
            format!(
                "Component name {:?} is not a safe file name (the file is <name>.xml); use a \
                 non-empty name without / \\ :, without leading or trailing spaces or a trailing \
                 dot, and not a reserved device name.",
                component.name
            ),
        ));
    }
    match canonical_resource_path(&component.path) {
        Some(path) if folder_exists(package, &component.branch, &path) => component.path = path,
        Some(path) => issues.push(at.issue(
            Code::InvalidComponentPayload,
            "component.path",
            format!(
                "Package {} has no folder {path} on {}; add it with addResourceFolder earlier in \
                 the batch, or use an existing folder.",
                package.id,
                branch_label(&component.branch)
            ),
        )),
        None => issues.push(at.issue(
            Code::InvalidComponentPayload,
            "component.path",
            format!(
                "Component path {:?} is not a folder path; use / or /a/b/ with safe segments.",
                component.path
            ),
        )),
    }
    for (slot, id) in component.branch_item_ids.iter().enumerate() {
        if id.is_empty() {
            continue;
        }
        let branch = package.branch_names.get(slot);
        let linked = branch.is_some_and(|branch| {
            package.resources.iter().any(|r| {
                r.id() == id
                    && r.branch() == branch
                    && r.path() == component.path
                    && r.primary_file() == file
            })
        });
        if !linked {
            issues.push(at.issue(
                Code::InvalidComponentPayload,
                &format!("component.branchItemIds[{slot}]"),
                format!(
                    "branchItemIds[{slot}] names {id}, but package {} has no component {id} on \
                     branch {} at {}{file}; clear the slot (variants are added as components on \
                     their branch).",
                    package.id,
                    branch.map_or("(no such slot)", String::as_str),
                    component.path
                ),
            ));
        }
    }
    if op.at_index as usize > package.resources.len() {
        issues.push(index_issue(at, "atIndex", op.at_index, package));
    }
    issues.extend(node_support_issues(
        at,
        "component.component.displayList",
        &component.component.display_list,
        &package.id,
    ));
    if issues.is_empty() {
        let mut resource = UamResource::Component(component.clone());
        let source_path = derived_source_path(&package.name, &resource);
        if let Some(owner) = file_owner(package, &source_path, None) {
            issues.push(at.issue(
                Code::InvalidComponentPayload,
                "component.name",
                format!(
                    "Resource {owner} of package {} is already written to {source_path}; choose \
                     another name or path.",
                    package.id
                ),
            ));
        }
        *resource.common_mut().source_path = Some(source_path);
        let standalone = UamPackage {
            id: package.id.clone(),
            name: package.name.clone(),
            compress_png: package.compress_png,
            jpeg_quality: package.jpeg_quality,
            publish: None,
            branch_names: package.branch_names.clone(),
            folders: Vec::new(),
            resources: vec![Arc::new(resource)],
        };
        const PREFIX: &str = "packages[0].resources[0]";
        for finding in standalone_findings(project, standalone) {
            if let Some(suffix) = finding.path.strip_prefix(PREFIX) {
                let field = format!("component{suffix}");
                if reported(&issues, at, &field) {
                    continue;
                }
                issues.push(at.issue(
                    Code::InvalidComponentPayload,
                    &field,
                    format!("{} Fix the component payload.", finding.message),
                ));
            }
        }
    }
    if !issues.is_empty() {
        return Err(issues);
    }

    let source_path =
        derived_source_path(&package.name, &UamResource::Component(component.clone()));
    component.source_path = Some(source_path);
    workspace.package_mut(p).resources.insert(
        op.at_index as usize,
        Arc::new(UamResource::Component(component)),
    );
    Ok(())
}

pub(super) fn remove(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &RemoveComponent,
) -> Result<(), Vec<Issue>> {
    let (p, r) = workspace
        .find_component(at, &op.selector)
        .map_err(|issue| vec![issue])?;
    let package = workspace.package_mut(p);
    let removed = package.resources.remove(r);
    let id = removed.id();
    // A removed branch variant no longer backs its main resource's slot.
    for resource in package.resources.iter_mut() {
        if resource.branch_item_ids().iter().any(|v| v == id) {
            let ids = Arc::make_mut(resource).common_mut().branch_item_ids;
            for slot in ids.iter_mut().filter(|v| *v == id) {
                slot.clear();
            }
            if ids.iter().all(String::is_empty) {
                ids.clear();
            }
        }
    }
    if let Some(publish) = package.publish.as_mut() {
        publish
            .excluded_resource_ids
            .retain(|excluded| excluded != id);
    }
    let package_id = package.id.clone();
    workspace.check_at_end(FinalCheck::ComponentUnreferenced {
        at: at.blame("selector.componentResourceId"),
        package_id,
        component_id: id.to_string(),
    });
    Ok(())
}

pub(super) fn move_to(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &MoveComponent,
) -> Result<(), Vec<Issue>> {
    let mut issues = Vec::new();
    let source = workspace
        .find_component(at, &op.selector)
        .map_err(|issue| issues.push(issue))
        .ok();
    let target = workspace
        .find_package(at, "toPackageId", &op.to_package_id)
        .map_err(|issue| issues.push(issue))
        .ok();
    if op.selector.package_id == op.to_package_id {
        issues.push(at.issue(
            Code::InvalidComponentMove,
            "toPackageId",
            format!(
                "Component {} is already in package {}; moveComponent needs another package \
                 (use moveResource to change its folder).",
                op.selector.component_resource_id, op.to_package_id
            ),
        ));
    }
    let (Some((p, r)), Some(t)) = (source, target) else {
        return Err(issues);
    };
    if p == t {
        return Err(issues);
    }
    let project = workspace.project();
    let target_package = &project.packages[t];
    let resource = &project.packages[p].resources[r];
    let id = resource.id();
    if let Some(existing) = target_package
        .resources
        .iter()
        .find(|other| other.id() == id)
    {
        issues.push(at.issue(
            Code::DuplicateComponentId,
            "selector.componentResourceId",
            format!(
                "Package {} already has resource {id} (kind {}), and a moved component keeps \
                 its id; keep component {id} where it is and use instances of it from the \
                 other package, or ask the user how to resolve the clash in the FairyGUI \
                 editor.",
                target_package.id,
                existing.kind()
            ),
        ));
    }
    if op.to_index as usize > target_package.resources.len() {
        issues.push(index_issue(at, "toIndex", op.to_index, target_package));
    }
    if !resource.branch().is_empty() {
        issues.push(at.issue(
            Code::InvalidComponentMove,
            "selector.componentResourceId",
            format!(
                "Component {id} is the branch {} variant of a main resource; only main-branch \
                 components can move between packages.",
                resource.branch()
            ),
        ));
    } else if resource.branch_item_ids().iter().any(|v| !v.is_empty()) {
        issues.push(at.issue(
            Code::InvalidComponentMove,
            "selector.componentResourceId",
            format!(
                "Component {id} has branch variants ({}) that stay in package {}, so it \
                 cannot move without them; keep it where it is. Removing the variants \
                 (removeComponent) would discard their files: only if the user asks for it.",
                resource
                    .branch_item_ids()
                    .iter()
                    .filter(|v| !v.is_empty())
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", "),
                op.selector.package_id
            ),
        ));
    }
    if !folder_exists(target_package, resource.branch(), resource.path()) {
        issues.push(at.issue(
            Code::InvalidComponentMove,
            "toPackageId",
            format!(
                "Package {} has no folder {}; add it with addResourceFolder earlier in the batch \
                 (the component keeps its folder when it moves).",
                target_package.id,
                resource.path()
            ),
        ));
    }
    let new_path = derived_source_path(&target_package.name, resource);
    if let Some(owner) = file_owner(target_package, &new_path, None) {
        issues.push(at.issue(
            Code::InvalidComponentMove,
            "toPackageId",
            format!(
                "Resource {owner} of package {} is already written to {new_path}; rename one \
                 of them (renameResource) in a transaction of its own first, or keep the \
                 component where it is.",
                target_package.id
            ),
        ));
    }
    if !issues.is_empty() {
        return Err(issues);
    }

    let source_package = workspace.package_mut(p);
    let mut moved = source_package.resources.remove(r);
    let was_excluded = source_package.publish.as_mut().is_some_and(|publish| {
        let before = publish.excluded_resource_ids.len();
        publish
            .excluded_resource_ids
            .retain(|excluded| excluded != op.selector.component_resource_id.as_str());
        publish.excluded_resource_ids.len() != before
    });
    let common = Arc::make_mut(&mut moved).common_mut();
    *common.source_path = Some(new_path);
    common.branch_item_ids.clear();
    let target_package = workspace.package_mut(t);
    target_package.resources.insert(op.to_index as usize, moved);
    if was_excluded && let Some(publish) = target_package.publish.as_mut() {
        publish
            .excluded_resource_ids
            .push(op.selector.component_resource_id.clone());
    }
    let target_id = target_package.id.clone();
    // Findings inside the moved component are about its dependencies; check them first.
    // Nodes naming the old package explicitly are checked then too, so they may be
    // detached or re-pointed anywhere in the batch.
    workspace.check_at_end(FinalCheck::ComponentIndependent {
        at: at.blame("selector.componentResourceId"),
        old_package_id: op.selector.package_id.clone(),
        package_id: target_id,
        component_id: op.selector.component_resource_id.clone(),
    });
    workspace.check_at_end(FinalCheck::ComponentUnreferenced {
        at: at.blame("selector.componentResourceId"),
        package_id: op.selector.package_id.clone(),
        component_id: op.selector.component_resource_id.clone(),
    });
    Ok(())
}
