//! Resource folder operations: add, rename, move and remove empty folders, and set a
//! folder's favorite flag and atlas slot.
//!
//! A folder is `(branch, path)` in a package, `path` canonical (`/a/b/`, never `/`). Its
//! parent must exist (or be the root) on the same branch, and a branch must be `''` (main)
//! or one of the project's branches. Rename and move only apply to **empty** folders: no
//! resource of that branch lives at or below the path and no folder lives below it (which
//! keeps every resource's `path` and `sourcePath` valid without rewriting them).
//!
//! Decisions where the spec is silent:
//! - Conflicts and emptiness compare paths case-insensitively, as the structural checks
//!   do: `/Images/` and `/images/` are one directory on Windows and macOS disks. A
//!   case-only rename of an empty folder is allowed (only the folder itself has that path).
//! - A missing package in a folder selector is `invalid_resource_folder_selector` (the
//!   folder does not exist); `addResourceFolder` uses `invalid_package_selector`.
//! - A folder path also conflicts with a resource whose file has the same path
//!   (`/a/icon.png/` against `/a/` + `icon.png`): the directory and the file would collide.

use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::ops::{
    AddResourceFolder, FolderSelector, MoveResourceFolder, RemoveResourceFolder,
    RenameResourceFolder, SetResourceFolderAtlas, SetResourceFolderFavorite,
};
use ofgui_contracts::uam::{ResourceFolder, UamPackage, UamResource};

use super::issue::Issue;
use super::layout::{folder_exists, folder_taken, resource_folder};
use super::words::branch_label;
use super::workspace::{Op, Workspace};
use crate::rules::{is_canonical_folder, is_safe_segment, parent_folder};

/// The atlas slot limit when a package has no publish settings.
const DEFAULT_MAX_ATLAS_INDEX: f64 = 10.0;

/// A canonical folder path other than the root, which is no folder of its own.
fn is_folder(path: &str) -> bool {
    path != "/" && is_canonical_folder(path)
}

/// The last segment of a canonical folder path (`/a/b/` → `b`).
fn folder_name(path: &str) -> &str {
    let trimmed = path.trim_end_matches('/');
    trimmed.rsplit('/').next().unwrap_or(trimmed)
}

/// The resource on `branch` whose file is the directory `path` would need, if any.
fn resource_at_folder_path<'p>(
    package: &'p UamPackage,
    branch: &str,
    path: &str,
) -> Option<&'p UamResource> {
    let wanted = path.to_lowercase();
    package.resources.iter().map(AsRef::as_ref).find(|r| {
        r.branch() == branch
            && format!("{}{}/", resource_folder(r), r.primary_file()).to_lowercase() == wanted
    })
}

/// What keeps a folder from being empty: the first resource at or below it on its
/// branch, else the first folder below it.
fn folder_content(package: &UamPackage, branch: &str, path: &str) -> Option<String> {
    let prefix = path.to_lowercase();
    if let Some(resource) = package
        .resources
        .iter()
        .find(|r| r.branch() == branch && resource_folder(r).to_lowercase().starts_with(&prefix))
    {
        return Some(format!(
            "resource {} ({}{})",
            resource.id(),
            resource_folder(resource),
            resource.primary_file()
        ));
    }
    package
        .folders
        .iter()
        .find(|f| {
            f.branch == branch
                && f.path.len() > path.len()
                && f.path.to_lowercase().starts_with(&prefix)
        })
        .map(|f| format!("folder {}", f.path))
}

/// The highest atlas slot a folder of this package may use.
fn max_atlas_index(package: &UamPackage) -> f64 {
    package
        .publish
        .as_ref()
        .map_or(DEFAULT_MAX_ATLAS_INDEX, |p| p.max_atlas_index.get())
}

/// Checks an atlas value: `''`, or a canonical decimal (no sign, no leading zero) no
/// greater than the package's `maxAtlasIndex`.
fn check_atlas(at: &Op<'_>, field: &str, atlas: &str, package: &UamPackage) -> Option<Issue> {
    let max = max_atlas_index(package);
    let canonical = !atlas.is_empty()
        && atlas.bytes().all(|b| b.is_ascii_digit())
        && (atlas == "0" || !atlas.starts_with('0'));
    let value = canonical.then(|| atlas.parse::<f64>().ok()).flatten();
    match value {
        _ if atlas.is_empty() => None,
        Some(slot) if slot <= max => None,
        Some(_) => Some(
            at.issue(
                Code::InvalidResourceFolderAtlas,
                field,
                format!(
                    "Atlas {atlas:?} is above package {}'s maxAtlasIndex {max}; use '' (no atlas) or a slot from 0 to {max}, or raise publish.maxAtlasIndex with updatePackageSettings first.",
                    package.id
                ),
            )
            .field(field),
        ),
        None => Some(
            at.issue(
                Code::InvalidResourceFolderAtlas,
                field,
                format!(
                    "Atlas {atlas:?} is not a slot number; use '' (no atlas) or a decimal slot without sign or leading zeros from 0 to {max}."
                ),
            )
            .field(field),
        ),
    }
}

/// The folder a selector names: `(package, folder)` indices.
fn locate(
    workspace: &Workspace<'_>,
    at: &Op<'_>,
    selector: &FolderSelector,
) -> Result<(usize, usize), Vec<Issue>> {
    let package = workspace.find_selected_package(
        at,
        &selector.package_id,
        Code::InvalidResourceFolderSelector,
        "folder",
    )?;
    if !is_folder(&selector.path) {
        return Err(vec![at.issue(
            Code::InvalidResourceFolderSelector,
            "selector.path",
            format!(
                "Folder selector path {:?} is not canonical; write it as /a/b/ (leading and trailing slash, safe segments, never the root /).",
                selector.path
            ),
        )]);
    }
    let pkg = &workspace.project().packages[package];
    match pkg
        .folders
        .iter()
        .position(|f| f.branch == selector.branch && f.path == selector.path)
    {
        Some(folder) => Ok((package, folder)),
        None => {
            let known: Vec<&str> = pkg
                .folders
                .iter()
                .filter(|f| f.branch == selector.branch)
                .map(|f| f.path.as_str())
                .take(20)
                .collect();
            let listing = if known.is_empty() {
                format!("it has no folders on {}", branch_label(&selector.branch))
            } else {
                format!(
                    "its folders on {} are {}",
                    branch_label(&selector.branch),
                    known.join(", ")
                )
            };
            Err(vec![at.issue(
                Code::InvalidResourceFolderSelector,
                "selector.path",
                format!(
                    "Package {} has no folder {} on {}; {listing}.",
                    pkg.id,
                    selector.path,
                    branch_label(&selector.branch)
                ),
            )])
        }
    }
}

/// Reports why a destination folder path is taken, if it is.
fn destination_conflict(
    at: &Op<'_>,
    field: &str,
    package: &UamPackage,
    branch: &str,
    destination: &str,
    moving: Option<usize>,
) -> Option<Issue> {
    if let Some(folder) = folder_taken(package, branch, destination, moving) {
        return Some(at.issue(
            Code::ResourceFolderConflict,
            field,
            format!(
                "Package {} already has folder {} on {}{}; choose another path.",
                package.id,
                folder.path,
                branch_label(branch),
                if folder.path == destination {
                    String::new()
                } else {
                    " (paths differ only in case)".into()
                }
            ),
        ));
    }
    resource_at_folder_path(package, branch, destination).map(|resource| {
        at.issue(
            Code::ResourceFolderConflict,
            field,
            format!(
                "Folder path {destination} would be the same path as the file of resource {} ({}{}) on {}; choose another name.",
                resource.id(),
                resource_folder(resource),
                resource.primary_file(),
                branch_label(branch)
            ),
        )
    })
}

/// Why folder `folder` of `package` cannot take the path `destination`, if it cannot.
fn move_conflict(
    at: &Op<'_>,
    field: &str,
    package: &UamPackage,
    folder: usize,
    destination: &str,
) -> Option<Issue> {
    let branch = &package.folders[folder].branch;
    destination_conflict(at, field, package, branch, destination, Some(folder))
}

/// Gives a folder its new path, unless issues stand against it.
fn set_path(
    workspace: &mut Workspace<'_>,
    (package, folder): (usize, usize),
    destination: String,
    issues: Vec<Issue>,
) -> Result<(), Vec<Issue>> {
    if !issues.is_empty() {
        return Err(issues);
    }
    workspace.package_mut(package).folders[folder].path = destination;
    Ok(())
}

fn not_empty(
    at: &Op<'_>,
    what: &str,
    package: &UamPackage,
    folder: &ResourceFolder,
) -> Option<Issue> {
    folder_content(package, &folder.branch, &folder.path).map(|content| {
        at.issue(
            Code::ResourceFolderNotEmpty,
            "selector",
            format!(
                "Folder {} of package {} on {} is not empty ({content} is inside); {what} only applies to empty folders. Move its contents out first (moveResource, moveResourceFolder); removing them would discard their files.",
                folder.path,
                package.id,
                branch_label(&folder.branch)
            ),
        )
    })
}

pub(super) fn set_favorite(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &SetResourceFolderFavorite,
) -> Result<(), Vec<Issue>> {
    let (package, folder) = locate(workspace, at, &op.selector)?;
    if workspace.project().packages[package].folders[folder].favorite != op.favorite {
        workspace.package_mut(package).folders[folder].favorite = op.favorite;
    }
    Ok(())
}

pub(super) fn set_atlas(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &SetResourceFolderAtlas,
) -> Result<(), Vec<Issue>> {
    let (package, folder) = locate(workspace, at, &op.selector)?;
    let pkg = &workspace.project().packages[package];
    if let Some(issue) = check_atlas(at, "atlas", &op.atlas, pkg) {
        return Err(vec![issue]);
    }
    let current = &pkg.folders[folder];
    if current.atlas == op.atlas {
        return Err(vec![at.issue(
            Code::ResourceFolderAtlasUnchanged,
            "atlas",
            format!(
                "Folder {} of package {} already has atlas {:?}; send a different slot, or '' to clear it.",
                current.path, pkg.id, current.atlas
            ),
        )]);
    }
    workspace.package_mut(package).folders[folder].atlas = op.atlas.clone();
    Ok(())
}

pub(super) fn add(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &AddResourceFolder,
) -> Result<(), Vec<Issue>> {
    let mut issues = Vec::new();
    let branch = op.branch.clone().unwrap_or_default();
    let package = match workspace.find_package(at, "selector.packageId", &op.selector.package_id) {
        Ok(package) => Some(package),
        Err(issue) => {
            issues.push(issue);
            None
        }
    };
    let canonical = is_folder(&op.path);
    if !canonical {
        issues.push(at.issue(
            Code::InvalidResourceFolderPath,
            "path",
            format!(
                "Folder path {:?} is not canonical; write it as /a/b/ with a leading and trailing slash and safe segments (no '.', '..', ':', '\\', reserved names or trailing dots/spaces). The root / is not a folder.",
                op.path
            ),
        ));
    }
    if !branch.is_empty() && !workspace.project().branches.contains(&branch) {
        issues.push(at.issue(
            Code::InvalidResourceFolderPath,
            "branch",
            format!(
                "Branch {branch:?} is not one of the project's branches ({}); use '' for the main branch or add the branch first with addBranch.",
                if workspace.project().branches.is_empty() { "it has none".to_string() } else { workspace.project().branches.join(", ") }
            ),
        ));
    }
    if let Some(package) = package {
        let pkg = &workspace.project().packages[package];
        // As addResource: a folder on a branch lives in the package's directory of that
        // branch, which a package without that branch slot does not have (the folder
        // could not be saved and read back as this package's).
        if !branch.is_empty()
            && workspace.project().branches.contains(&branch)
            && !pkg.branch_names.contains(&branch)
        {
            issues.push(at.issue(
                Code::InvalidResourceFolderPath,
                "branch",
                format!(
                    "Branch {branch:?} is not one of package {}'s branch slots ({}); add a folder there once the package has content on that branch, or use '' for the main branch.",
                    pkg.id,
                    if pkg.branch_names.is_empty() { "it has none".to_string() } else { pkg.branch_names.join(", ") }
                ),
            ));
        }
        if let Some(atlas) = &op.atlas
            && let Some(issue) = check_atlas(at, "atlas", atlas, pkg)
        {
            issues.push(issue);
        }
        if canonical {
            let parent = parent_folder(&op.path);
            if !folder_exists(pkg, &branch, parent) {
                issues.push(at.issue(
                    Code::InvalidResourceFolderPath,
                    "path",
                    format!(
                        "Parent folder {parent} of {} does not exist in package {} on {}; add it first (addResourceFolder for {parent} earlier in the batch).",
                        op.path,
                        pkg.id,
                        branch_label(&branch)
                    ),
                ));
            }
            if let Some(issue) = destination_conflict(at, "path", pkg, &branch, &op.path, None) {
                issues.push(issue);
            }
        }
    }
    let Some(package) = package.filter(|_| issues.is_empty()) else {
        return Err(issues);
    };
    workspace.package_mut(package).folders.push(ResourceFolder {
        branch,
        path: op.path.clone(),
        favorite: op.favorite.unwrap_or(false),
        atlas: op.atlas.clone().unwrap_or_default(),
    });
    Ok(())
}

pub(super) fn rename(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &RenameResourceFolder,
) -> Result<(), Vec<Issue>> {
    let (package, folder) = locate(workspace, at, &op.selector)?;
    let pkg = &workspace.project().packages[package];
    let current = &pkg.folders[folder];
    let mut issues = Vec::new();
    if let Some(issue) = not_empty(at, "renameResourceFolder", pkg, current) {
        issues.push(issue);
    }
    let destination = format!("{}{}/", parent_folder(&current.path), op.new_name);
    if !is_safe_segment(&op.new_name) {
        issues.push(at.issue(
            Code::InvalidResourceFolderPath,
            "newName",
            format!(
                "Folder name {:?} is not a safe folder name; use one non-empty segment without '/', '\\' or ':', not '.' or '..', without leading/trailing spaces or a trailing dot, and not a reserved device name (con, nul, com1, …).",
                op.new_name
            ),
        ));
    } else if destination == current.path {
        issues.push(at.issue(
            Code::ResourceFolderConflict,
            "newName",
            format!(
                "Folder {} is already named {:?}; send a different newName.",
                current.path, op.new_name
            ),
        ));
    } else if let Some(issue) = move_conflict(at, "newName", pkg, folder, &destination) {
        issues.push(issue);
    }
    set_path(workspace, (package, folder), destination, issues)
}

pub(super) fn move_to(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &MoveResourceFolder,
) -> Result<(), Vec<Issue>> {
    let (package, folder) = locate(workspace, at, &op.selector)?;
    let pkg = &workspace.project().packages[package];
    let current = &pkg.folders[folder];
    let mut issues = Vec::new();
    if let Some(issue) = not_empty(at, "moveResourceFolder", pkg, current) {
        issues.push(issue);
    }
    if !is_canonical_folder(&op.to_path) {
        issues.push(at.issue(
            Code::InvalidResourceFolderPath,
            "toPath",
            format!(
                "Destination {:?} is not canonical; write / for the package root or /a/b/ with a leading and trailing slash and safe segments.",
                op.to_path
            ),
        ));
        return Err(issues);
    }
    let destination = format!("{}{}/", op.to_path, folder_name(&current.path));
    if op
        .to_path
        .to_lowercase()
        .starts_with(&current.path.to_lowercase())
    {
        issues.push(at.issue(
            Code::InvalidResourceFolderPath,
            "toPath",
            format!(
                "Folder {} cannot move into itself or its own subfolder {}.",
                current.path, op.to_path
            ),
        ));
    } else if !folder_exists(pkg, &current.branch, &op.to_path) {
        issues.push(at.issue(
            Code::InvalidResourceFolderPath,
            "toPath",
            format!(
                "Destination folder {} does not exist in package {} on {}; add it first with addResourceFolder or use /.",
                op.to_path,
                pkg.id,
                branch_label(&current.branch)
            ),
        ));
    } else if destination == current.path {
        issues.push(at.issue(
            Code::ResourceFolderConflict,
            "toPath",
            format!(
                "Folder {} is already in {}; choose another destination.",
                current.path, op.to_path
            ),
        ));
    } else if let Some(issue) = move_conflict(at, "toPath", pkg, folder, &destination) {
        issues.push(issue);
    }
    set_path(workspace, (package, folder), destination, issues)
}

pub(super) fn remove(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &RemoveResourceFolder,
) -> Result<(), Vec<Issue>> {
    let (package, folder) = locate(workspace, at, &op.selector)?;
    let pkg = &workspace.project().packages[package];
    if let Some(issue) = not_empty(at, "removeResourceFolder", pkg, &pkg.folders[folder]) {
        return Err(vec![issue]);
    }
    workspace.package_mut(package).folders.remove(folder);
    Ok(())
}
