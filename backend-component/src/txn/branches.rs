//! Branch lifecycle: `addBranch`, `renameBranch`, `removeBranch`.
//!
//! A branch is a project-wide name (`branches`, kept sorted in byte order as the reader
//! and the validator want it) plus a slot in each package's `branchNames` table, the
//! `branch` of its folders and resources, and the `assets_<branch>/` directory its files
//! live in.
//!
//! Decisions where the spec is silent: branch names collide case-insensitively (their
//! directories do), so `Dev` is a duplicate of `dev`; renaming a branch to a different
//! letter case of its own name is allowed.

use std::sync::Arc;

use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::ops::{AddBranch, RemoveBranch, RenameBranch};
use ofgui_contracts::uam::UamProject;

use super::issue::Issue;
use super::layout::package_root;
use super::workspace::{Op, Workspace};
use crate::rules::is_safe_segment;

fn unsafe_name(at: &Op<'_>, field: &str, name: &str) -> Issue {
    at.issue(
        Code::InvalidBranchName,
        field,
        format!(
            "Branch name {name:?} is not a safe directory name (it becomes assets_{name}/); use a \
             non-empty name without / \\ :, without leading or trailing spaces or a trailing \
             dot, and not a reserved device name (con, nul, com1, ...)."
        ),
    )
}

/// The branch that `name` would collide with (exactly or by letter case), ignoring `except`.
fn colliding<'p>(project: &'p UamProject, name: &str, except: Option<&str>) -> Option<&'p str> {
    let lower = name.to_lowercase();
    project
        .branches
        .iter()
        .map(String::as_str)
        .filter(|b| Some(*b) != except || *b == name)
        .find(|b| b.to_lowercase() == lower)
}

fn duplicate(at: &Op<'_>, field: &str, name: &str, existing: &str) -> Issue {
    let message = if existing == name {
        format!("Branch {name} already exists; choose another name.")
    } else {
        format!(
            "Branch {name} collides with branch {existing}: branch directories must differ in \
             more than letter case. Choose another name."
        )
    };
    at.issue(Code::DuplicateBranchName, field, message)
}

fn missing(at: &Op<'_>, project: &UamProject, name: &str) -> Issue {
    let known = if project.branches.is_empty() {
        "the project has no branches".to_string()
    } else {
        format!("the project has {}", project.branches.join(", "))
    };
    at.issue(
        Code::InvalidBranchSelector,
        "selector.branch",
        format!("No branch is named {name:?} ({known}); take the name from getProjectOutline."),
    )
}

pub(super) fn add(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &AddBranch,
) -> Result<(), Vec<Issue>> {
    let project = workspace.project();
    if !is_safe_segment(&op.branch) {
        return Err(vec![unsafe_name(at, "branch", &op.branch)]);
    }
    if let Some(existing) = colliding(project, &op.branch, None) {
        return Err(vec![duplicate(at, "branch", &op.branch, existing)]);
    }
    let branches = &mut workspace.project_mut().branches;
    branches.push(op.branch.clone());
    branches.sort();
    Ok(())
}

pub(super) fn rename(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &RenameBranch,
) -> Result<(), Vec<Issue>> {
    let project = workspace.project();
    let old = op.selector.branch.as_str();
    let new = op.new_name.as_str();
    let mut issues = Vec::new();
    if !project.branches.iter().any(|b| b == old) {
        issues.push(missing(at, project, old));
    }
    if !is_safe_segment(new) {
        issues.push(unsafe_name(at, "newName", new));
    } else if let Some(existing) = colliding(project, new, Some(old)) {
        issues.push(duplicate(at, "newName", new, existing));
    }
    if !issues.is_empty() {
        return Err(issues);
    }

    let project = workspace.project_mut();
    for branch in project.branches.iter_mut().filter(|b| *b == old) {
        *branch = new.to_string();
    }
    project.branches.sort();

    let mut moves = Vec::new();
    for p in 0..project.packages.len() {
        let touches = {
            let package = &project.packages[p];
            package.branch_names.iter().any(|b| b == old)
                || package.folders.iter().any(|f| f.branch == old)
                || package.resources.iter().any(|r| r.branch() == old)
        };
        if !touches {
            continue;
        }
        let package = Arc::make_mut(&mut project.packages[p]);
        for name in package.branch_names.iter_mut().filter(|b| *b == old) {
            *name = new.to_string();
        }
        for folder in package.folders.iter_mut().filter(|f| f.branch == old) {
            folder.branch = new.to_string();
        }
        let old_root = format!("{}/", package_root(old, &package.name));
        let new_root = format!("{}/", package_root(new, &package.name));
        for resource in package.resources.iter_mut().filter(|r| r.branch() == old) {
            let common = Arc::make_mut(resource).common_mut();
            *common.branch = new.to_string();
            if let Some(path) = common.source_path.as_mut()
                && let Some(rest) = path.strip_prefix(&old_root)
            {
                let moved = format!("{new_root}{rest}");
                moves.push((std::mem::replace(path, moved.clone()), moved));
            }
        }
    }
    workspace.move_loaded_bytes(moves);
    Ok(())
}

pub(super) fn remove(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &RemoveBranch,
) -> Result<(), Vec<Issue>> {
    let project = workspace.project();
    let name = op.selector.branch.as_str();
    if !project.branches.iter().any(|b| b == name) {
        return Err(vec![missing(at, project, name)]);
    }
    let mut issues = Vec::new();
    let mut holders = Vec::new();
    let mut referrers = Vec::new();
    for package in &project.packages {
        let folders: Vec<&str> = package
            .folders
            .iter()
            .filter(|f| f.branch == name)
            .map(|f| f.path.as_str())
            .collect();
        let resources: Vec<&str> = package
            .resources
            .iter()
            .filter(|r| r.branch() == name)
            .map(|r| r.id())
            .collect();
        let mut held = Vec::new();
        if !folders.is_empty() {
            held.push(format!("folders {}", folders.join(", ")));
        }
        if !resources.is_empty() {
            held.push(format!("resources {}", resources.join(", ")));
        }
        if !held.is_empty() {
            holders.push(format!(
                "package {} ({}) has {} on it",
                package.name,
                package.id,
                held.join(" and ")
            ));
        }
        if let Some(slot) = package.branch_names.iter().position(|b| b == name) {
            for resource in &package.resources {
                if let Some(variant) = resource
                    .branch_item_ids()
                    .get(slot)
                    .filter(|v| !v.is_empty())
                {
                    referrers.push(format!(
                        "resource {} of package {} names variant {variant}",
                        resource.id(),
                        package.id
                    ));
                }
            }
        }
    }
    if !holders.is_empty() {
        issues.push(at.issue(
            Code::BranchNotEmpty,
            "selector.branch",
            format!(
                "Branch {name} is not empty: {}. Removing the branch would discard those \
                 resources and their files, so keep it unless the user asks for that; then \
                 remove them (removeComponent, removeResource) and the folders \
                 (removeResourceFolder) earlier in the batch.",
                holders.join("; ")
            ),
        ));
    }
    if !referrers.is_empty() {
        issues.push(at.issue(
            Code::BranchReferenced,
            "selector.branch",
            format!(
                "Branch {name} is still mapped: {}. Only removing those variants clears their \
                 slots, and that discards their files, so keep the branch unless the user \
                 asks for that; then remove the variants earlier in the batch.",
                referrers.join("; ")
            ),
        ));
    }
    if !issues.is_empty() {
        return Err(issues);
    }

    let project = workspace.project_mut();
    project.branches.retain(|b| b != name);
    for package in project.packages.iter_mut() {
        let Some(slot) = package.branch_names.iter().position(|b| b == name) else {
            continue;
        };
        let package = Arc::make_mut(package);
        package.branch_names.remove(slot);
        for resource in package.resources.iter_mut() {
            if resource.branch_item_ids().len() > slot {
                Arc::make_mut(resource)
                    .common_mut()
                    .branch_item_ids
                    .remove(slot);
            }
        }
    }
    Ok(())
}
