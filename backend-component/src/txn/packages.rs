//! Package lifecycle: `addPackage`, `renamePackage`, `removePackage`, plus the helpers the
//! branch and component operations share: where a resource's file goes (as the reader
//! names it), folder lookups, and standalone structural validation of a payload.
//!
//! Decisions where the spec is silent:
//! - Package and resource ids must be non-empty and free of `/`, `,`, whitespace and
//!   control characters: `/` would break `ui://<package>/<resource>` URLs, `,` the CSV
//!   lists of `package.xml` (`excluded`, `require`), whitespace the URLs in text.
//! - Package names collide case-insensitively (they are directories).
//! - `compressPNG`/`jpegQuality`/`publish` follow upstream's `updatePackageSettings` rule
//!   set ([`package_settings`]), including its refusal of `publish: null`.
//! - A resource's `sourcePath` is derived (the reader's naming), so a supplied one is
//!   replaced rather than refused.
//! - Every resource's folder must be listed in the package's `folders` (or be `/`), as
//!   `addResource` requires: the reader lists every directory holding a file, so the
//!   model stays what a reopen would read.
//! - Assets are normalized as the reader names them: the file is kept under `fileName`
//!   (image, movie clip, font) or `file` (other kinds) and `name` is the file name without
//!   its extension. As at open, a movie clip's model (size, timing, frames) is rebuilt
//!   from its `.jta` and a PNG/JPEG header size replaces an image's declared size; bytes
//!   that validation would call corrupt are `invalid_resource_bytes`, as for `addResource`.
//! - Renaming a package also renames `publish.name` when it equals the old name (the
//!   reader fills an empty publish name with the package name).

use std::sync::Arc;

use ofgui_contracts::bytes::SourceBytes;
use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::diagnostics::ProjectDiagnosticCode;
use ofgui_contracts::ops::{AddPackage, AssetInput, RemovePackage, RenamePackage};
use ofgui_contracts::uam::{UamPackage, UamProject, UamResource};

use super::issue::Issue;
use super::layout::{
    canonical_resource_path, derived_source_path, folder_exists, name_after_file, package_root,
};
use super::package_settings::{self, Wording};
use super::payload::{node_support_issues, reported, standalone_findings};
use super::words::branch_label;
use super::workspace::{FinalCheck, Op, Workspace};
use crate::formats::{self, FileProblem};
use crate::rules::{is_safe_segment, is_usable_id};

/// Why `name` cannot name a package (`except` is the package being renamed), if it cannot.
fn name_issue(
    at: &Op<'_>,
    field: &str,
    project: &UamProject,
    name: &str,
    except: Option<usize>,
) -> Option<Issue> {
    if !is_safe_segment(name) {
        return Some(at.issue(
            Code::InvalidPackagePayload,
            field,
            format!(
                "Package name {name:?} is not a safe directory name; use a non-empty name without \
                 / \\ :, without leading or trailing spaces or a trailing dot, and not a reserved \
                 device name (con, nul, com1, ...)."
            ),
        ));
    }
    let other = &project.packages[colliding_name(project, name, except)?];
    Some(at.issue(
        Code::DuplicatePackageName,
        field,
        format!(
            "Package name {name} collides with package {} ({}); package directories must differ \
             in more than letter case. Choose another name.",
            other.name, other.id
        ),
    ))
}

/// Index of a package whose name collides (case-insensitively) with `name`.
fn colliding_name(project: &UamProject, name: &str, except: Option<usize>) -> Option<usize> {
    let lower = name.to_lowercase();
    project
        .packages
        .iter()
        .enumerate()
        .find(|(index, p)| Some(*index) != except && p.name.to_lowercase() == lower)
        .map(|(index, _)| index)
}

pub(super) fn add(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &AddPackage,
) -> Result<(), Vec<Issue>> {
    let input = &op.package;
    let project = workspace.project();
    let mut issues = Vec::new();

    if !is_usable_id(&input.id) {
        issues.push(at.issue(
            Code::InvalidPackagePayload,
            "package.id",
            format!(
                "Package id {:?} is not usable; give a non-empty id without /, commas, spaces or \
                 control characters (the editor uses 8 letters and digits, e.g. a9lkf94s).",
                input.id
            ),
        ));
    } else if project.packages.iter().any(|p| p.id == input.id) {
        issues.push(at.issue(
            Code::DuplicatePackageId,
            "package.id",
            format!(
                "Package id {} is already used by another package; choose an unused id.",
                input.id
            ),
        ));
    }
    issues.extend(name_issue(at, "package.name", project, &input.name, None));
    for problem in package_settings::problems(input.jpeg_quality, input.publish.as_ref(), &[]) {
        issues.push(at.issue(
            Code::InvalidPackageSettings,
            &format!("package.{}", problem.key()),
            problem.message(Wording::AddPackage),
        ));
    }
    if op.at_index as usize > project.packages.len() {
        issues.push(at.issue(
            Code::InvalidPackageIndex,
            "atIndex",
            format!(
                "atIndex {} is out of range; the project has {} packages, so use 0 to {}.",
                op.at_index,
                project.packages.len(),
                project.packages.len()
            ),
        ));
    }
    for (k, branch) in input.branch_names.iter().enumerate() {
        if !project.branches.contains(branch) {
            issues.push(at.issue(
                Code::InvalidPackagePayload,
                &format!("package.branchNames[{k}]"),
                format!(
                    "branchNames names branch {branch:?}, which the project does not have; add it \
                     with addBranch first or drop it from branchNames."
                ),
            ));
        } else if input.branch_names[..k].contains(branch) {
            issues.push(at.issue(
                Code::InvalidPackagePayload,
                &format!("package.branchNames[{k}]"),
                format!("branchNames lists branch {branch:?} twice; list each branch once."),
            ));
        }
    }

    let mut package = UamPackage {
        id: input.id.clone(),
        name: input.name.clone(),
        compress_png: input.compress_png,
        jpeg_quality: input.jpeg_quality,
        publish: package_settings::as_saved(input.publish.as_ref(), &input.name),
        branch_names: input.branch_names.clone(),
        folders: input.folders.clone(),
        resources: Vec::with_capacity(input.resources.len()),
    };
    let mut bytes = Vec::new();
    for (k, asset) in input.resources.iter().enumerate() {
        match prepare_resource(at, &package, k, asset) {
            Ok((resource, source_bytes)) => {
                if let Some(source_bytes) = source_bytes {
                    bytes.push((k, source_bytes));
                }
                package.resources.push(Arc::new(resource));
            }
            Err(mut found) => issues.append(&mut found),
        }
    }
    if package.resources.len() == input.resources.len() {
        issues.extend(branch_item_issues(at, &package));
        for finding in standalone_findings(project, package.clone()) {
            let code = if finding.code == ProjectDiagnosticCode::DuplicateResourceId {
                Code::DuplicateResourceId
            } else {
                Code::InvalidPackagePayload
            };
            let field = format!("package{}", &finding.path["packages[0]".len()..]);
            if reported(&issues, at, &field) {
                continue;
            }
            issues.push(at.issue(
                code,
                &field,
                format!("{} Fix the package payload.", finding.message),
            ));
        }
    }
    if !issues.is_empty() {
        return Err(issues);
    }

    for (k, source_bytes) in bytes {
        if let Some(source_path) = package.resources[k].source_path() {
            let source_path = source_path.to_string();
            workspace.set_bytes(&source_path, source_bytes);
        }
    }
    workspace
        .project_mut()
        .packages
        .insert(op.at_index as usize, Arc::new(package));
    Ok(())
}

/// Checks one resource of an added package and returns it ready for the model (canonical
/// path, derived sourcePath, movie clip rebuilt from its `.jta`) with its bytes.
fn prepare_resource(
    at: &Op<'_>,
    package: &UamPackage,
    k: usize,
    asset: &AssetInput,
) -> Result<(UamResource, Option<Vec<u8>>), Vec<Issue>> {
    let field = format!("package.resources[{k}]");
    let mut resource = asset.resource.clone();
    let kind = resource.kind();
    let mut issues = Vec::new();
    if !is_usable_id(resource.id()) {
        issues.push(
            at.issue(
                Code::InvalidPackagePayload,
                &format!("{field}.id"),
                format!(
                    "Resource id {:?} is not usable; give a non-empty id without /, commas, \
                     spaces or control characters.",
                    resource.id()
                ),
            )
            .resource_kind(kind),
        );
    }
    match canonical_resource_path(resource.path()) {
        Some(path) if folder_exists(package, resource.branch(), &path) => {
            *resource.common_mut().path = path
        }
        Some(path) => issues.push(
            at.issue(
                Code::InvalidPackagePayload,
                &format!("{field}.path"),
                format!(
                    "Resource {} is in folder {path}, which the package's folders do not list on \
                     {}; add that folder (and its parents) to folders.",
                    resource.id(),
                    branch_label(resource.branch())
                ),
            )
            .resource_kind(kind),
        ),
        None => issues.push(
            at.issue(
                Code::InvalidPackagePayload,
                &format!("{field}.path"),
                format!(
                    "Resource path {:?} is not a folder path; use / or /a/b/ with safe segments.",
                    resource.path()
                ),
            )
            .resource_kind(kind),
        ),
    }
    let file = resource.primary_file();
    name_after_file(&mut resource, &file);
    if !is_safe_segment(&file) {
        issues.push(
            at.issue(
                Code::InvalidPackagePayload,
                &format!("{field}.name"),
                format!(
                    "Resource {} would be written to file {file:?}, which is not a safe file name; \
                     rename it (no / \\ :, no leading or trailing spaces, no trailing dot).",
                    resource.id()
                ),
            )
            .resource_kind(kind),
        );
    }
    if let UamResource::Component(component) = &resource {
        issues.extend(node_support_issues(
            at,
            &format!("{field}.component.displayList"),
            &component.component.display_list,
            &package.id,
        ));
    }
    let source_bytes = match (&mut resource, &asset.source_bytes) {
        (UamResource::Component(_), None) => None,
        (UamResource::Component(_), Some(_)) => {
            issues.push(
                at.issue(
                    Code::InvalidPackagePayload,
                    &format!("{field}.sourceBytes"),
                    "A component carries its model in `component`, not bytes; drop sourceBytes.",
                )
                .resource_kind(kind),
            );
            None
        }
        (_, None) => {
            issues.push(
                at.issue(
                    Code::UnavailableResourceSourceBytes,
                    &format!("{field}.sourceBytes"),
                    format!(
                        "Asset {} of this addPackage carries no sourceBytes; an added package \
                         must carry the bytes of every asset file, so add them.",
                        resource.id()
                    ),
                )
                .resource_kind(kind),
            );
            None
        }
        (UamResource::MovieClip(clip), Some(bytes)) => {
            if !formats::jta::rebuild(clip, bytes) {
                issues.push(
                    at.issue(
                        Code::InvalidMovieClipJta,
                        &format!("{field}.sourceBytes"),
                        format!(
                            "Movie clip {} does not carry a readable .jta file (version 100 to \
                             102); export the clip from the FairyGUI editor and send those bytes.",
                            clip.base.id
                        ),
                    )
                    .resource_kind(kind),
                );
            }
            Some(bytes.clone())
        }
        (UamResource::Image(image), Some(bytes)) => {
            // As at open: the PNG/JPEG header size wins over a declared size.
            if let Some(size) = formats::image_size(bytes) {
                image.dimensions = Some(size);
            }
            Some(bytes.clone())
        }
        (_, Some(bytes)) => Some(bytes.clone()),
    };
    if let Some(bytes) = &source_bytes
        && kind != "movieClip"
        && let Err(FileProblem::Corrupt(problem)) = formats::check(kind, &file, bytes)
    {
        issues.push(
            at.issue(
                Code::InvalidResourceBytes,
                &format!("{field}.sourceBytes"),
                format!(
                    "sourceBytes of {} cannot be used as {file}: {problem}. Send the file's real bytes.",
                    resource.id(),
                ),
            )
            .resource_kind(kind),
        );
    }
    if !issues.is_empty() {
        return Err(issues);
    }
    let source_path = derived_source_path(&package.name, &resource);
    *resource.common_mut().source_path = Some(source_path);
    Ok((resource, source_bytes.map(SourceBytes::into_inner)))
}

/// Every non-empty `branchItemIds` slot of an added package must name a resource of the
/// package on that slot's branch.
fn branch_item_issues(at: &Op<'_>, package: &UamPackage) -> Vec<Issue> {
    let mut issues = Vec::new();
    for (r, resource) in package.resources.iter().enumerate() {
        for (slot, id) in resource.branch_item_ids().iter().enumerate() {
            if id.is_empty() {
                continue;
            }
            let Some(branch) = package.branch_names.get(slot) else {
                continue; // the structural check reports the overlong table
            };
            // The reader links a variant by branch, folder and file name, so the slot must
            // name exactly that resource to survive a save and reopen.
            let found = package.resources.iter().any(|other| {
                other.id() == id
                    && other.branch() == branch
                    && other.path() == resource.path()
                    && other.primary_file() == resource.primary_file()
            });
            if !found {
                issues.push(at.issue(
                    Code::InvalidPackagePayload,
                    &format!("package.resources[{r}].branchItemIds[{slot}]"),
                    format!(
                        "Resource {} names variant {id} for branch {branch}, but the package has \
                         no resource {id} on branch {branch} in folder {} with file {}; add that \
                         variant or clear the slot.",
                        resource.id(),
                        resource.path(),
                        resource.primary_file()
                    ),
                ));
            }
        }
    }
    issues
}

pub(super) fn rename(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &RenamePackage,
) -> Result<(), Vec<Issue>> {
    let mut issues = Vec::new();
    let found = workspace.find_package(at, "selector.packageId", &op.selector.package_id);
    let index = match found {
        Ok(index) => Some(index),
        Err(issue) => {
            issues.push(issue);
            None
        }
    };
    issues.extend(name_issue(
        at,
        "newName",
        workspace.project(),
        &op.new_name,
        index,
    ));
    let Some(index) = index.filter(|_| issues.is_empty()) else {
        return Err(issues);
    };

    let old_name = workspace.project().packages[index].name.clone();
    if old_name == op.new_name {
        return Ok(());
    }
    let mut moves = Vec::new();
    let package = workspace.package_mut(index);
    package.name = op.new_name.clone();
    if let Some(publish) = package.publish.as_mut()
        && publish.name == old_name
    {
        publish.name = op.new_name.clone();
    }
    for resource in package.resources.iter_mut() {
        let resource = Arc::make_mut(resource);
        let old_root = format!("{}/", package_root(resource.branch(), &old_name));
        let new_root = format!("{}/", package_root(resource.branch(), &op.new_name));
        let new_path = match resource.source_path() {
            Some(path) if path.starts_with(&old_root) => {
                format!("{new_root}{}", &path[old_root.len()..])
            }
            _ => derived_source_path(&op.new_name, resource),
        };
        if let Some(old_path) = resource.source_path() {
            moves.push((old_path.to_string(), new_path.clone()));
        }
        *resource.common_mut().source_path = Some(new_path);
    }
    workspace.move_loaded_bytes(moves);
    Ok(())
}

pub(super) fn remove(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &RemovePackage,
) -> Result<(), Vec<Issue>> {
    let index = workspace
        .find_package(at, "selector.packageId", &op.selector.package_id)
        .map_err(|issue| vec![issue])?;
    let removed = workspace.project_mut().packages.remove(index);
    for resource in &removed.resources {
        if let Some(path) = resource.source_path()
            && workspace.bytes(path).is_some()
        {
            workspace.remove_bytes(path);
        }
    }
    workspace.check_at_end(FinalCheck::PackageUnreferenced {
        at: at.blame("selector.packageId"),
        package_id: removed.id.clone(),
    });
    Ok(())
}
