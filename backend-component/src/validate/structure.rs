//! Structural rules: identities, names, paths, folders, branches and resources; each
//! component's own consistency is `component`'s.

use std::collections::{HashMap, HashSet};

use ofgui_contracts::diagnostics::ProjectDiagnosticCode as Code;
use ofgui_contracts::uam::{UamPackage, UamProject, UamResource};

use super::component::{Context, check_component};
use super::{Components, Sink, in_scope, resource_path};
use crate::rules::publish::{
    Problem as PublishProblem, folder_atlases, problems as publish_problems,
};
use crate::rules::settings::mistyped_settings;
use crate::rules::{
    IMAGE_QUALITY, is_canonical_folder, is_safe_segment, is_scale9_grid, parent_folder,
};

pub(super) fn check(project: &UamProject, only: Option<&Components>, sink: &mut Sink) {
    if only.is_none() {
        check_branches(project, sink);
        check_package_identity(project, sink);
        check_settings(project, sink);
    }
    for (p, package) in project.packages.iter().enumerate() {
        if only.is_none() {
            check_folders(project, p, package, sink);
            check_resources(p, package, sink);
            check_package_settings(p, package, sink);
        }
        for (r, resource) in package.resources.iter().enumerate() {
            if !in_scope(only, &package.id, resource.id()) {
                continue;
            }
            if let UamResource::Component(component) = resource.as_ref() {
                let context = Context {
                    package: p,
                    resource: r,
                    package_id: &package.id,
                    resource_id: &component.id,
                    source_path: component.source_path.as_deref(),
                };
                check_component(&context, &component.component, sink);
            }
        }
    }
}

/// Settings fields of the wrong type: the editor falls back to its default for them, so
/// the project loads (a warning).
fn check_settings(project: &UamProject, sink: &mut Sink) {
    for problem in mistyped_settings(&project.settings) {
        sink.warning(
            Code::InvalidSettingsJson,
            format!("settings.{}", problem.path),
            format!(
                "Project setting {} must be {}; it is {}, so the editor ignores it.",
                problem.path,
                problem.expected.describe(),
                problem.found
            ),
        );
    }
}

fn check_branches(project: &UamProject, sink: &mut Sink) {
    let mut seen = HashSet::new();
    for (index, branch) in project.branches.iter().enumerate() {
        let path = format!("branches[{index}]");
        if !is_safe_segment(branch) {
            sink.error(
                Code::UnsafePath,
                &path,
                format!("Branch name {branch:?} is not a safe path segment."),
            );
        }
        if !seen.insert(branch.as_str()) {
            sink.error(
                Code::InvalidUam,
                &path,
                format!("Branch {branch:?} is listed twice."),
            );
        }
    }
    if project.branches.windows(2).any(|pair| pair[0] > pair[1]) {
        sink.error(Code::InvalidUam, "branches", "Branches must be sorted.");
    }
}

fn check_package_identity(project: &UamProject, sink: &mut Sink) {
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut names: HashMap<String, usize> = HashMap::new();
    for (p, package) in project.packages.iter().enumerate() {
        if let Some(first) = ids.insert(&package.id, p) {
            sink.error(
                Code::DuplicatePackageId,
                format!("packages[{p}].id"),
                format!(
                    "Package {} reuses id {} of package {}.",
                    package.name, package.id, project.packages[first].name
                ),
            )
            .package_id = Some(package.id.clone());
        }
        if !is_safe_segment(&package.name) {
            sink.error(
                Code::UnsafePath,
                format!("packages[{p}].name"),
                format!(
                    "Package name {:?} is not a safe directory name.",
                    package.name
                ),
            )
            .package_id = Some(package.id.clone());
        }
        // Directory names collide on case-insensitive disks even when they differ in case.
        if let Some(first) = names.insert(package.name.to_lowercase(), p) {
            let code = if project.packages[first].name == package.name {
                Code::DuplicatePackageName
            } else {
                Code::PathCollision
            };
            sink.error(
                code,
                format!("packages[{p}].name"),
                format!(
                    "Package {} has the same directory name as package {}.",
                    package.name, project.packages[first].name
                ),
            )
            .package_id = Some(package.id.clone());
        }
    }
}

fn check_folders(project: &UamProject, p: usize, package: &UamPackage, sink: &mut Sink) {
    let known: HashSet<(&str, &str)> = package
        .folders
        .iter()
        .map(|f| (f.branch.as_str(), f.path.as_str()))
        .collect();
    let mut seen = HashSet::new();
    for (k, folder) in package.folders.iter().enumerate() {
        let path = format!("packages[{p}].folders[{k}]");
        let mut fail = |code, message: String| {
            sink.error(code, &path, message).package_id = Some(package.id.clone());
        };
        if !folder.branch.is_empty() && !project.branches.contains(&folder.branch) {
            fail(
                Code::InvalidUam,
                format!(
                    "Folder {} is on unknown branch {:?}.",
                    folder.path, folder.branch
                ),
            );
        }
        if folder.path == "/" || !is_canonical_folder(&folder.path) {
            fail(
                Code::UnsafePath,
                format!(
                    "Folder path {:?} is not a canonical folder path like /a/b/.",
                    folder.path
                ),
            );
            continue;
        }
        if !seen.insert((folder.branch.as_str(), folder.path.to_lowercase())) {
            fail(
                Code::PathCollision,
                format!(
                    "Folder {} is listed twice (or differs only in case).",
                    folder.path
                ),
            );
        }
        let parent = parent_folder(&folder.path);
        if parent != "/" && !known.contains(&(folder.branch.as_str(), parent)) {
            fail(
                Code::InvalidUam,
                format!("Folder {} has no parent folder {parent}.", folder.path),
            );
        }
        if !folder.atlas.is_empty()
            && folder
                .atlas
                .parse::<u32>()
                .map(|n| n.to_string() != folder.atlas)
                .unwrap_or(true)
        {
            fail(
                Code::InvalidProjectValue,
                format!(
                    "Folder {} has atlas {:?}; it must be '' or a decimal slot.",
                    folder.path, folder.atlas
                ),
            );
        }
    }
}

/// A package's compression and publish settings ([`crate::rules::publish`]). The editor
/// only uses them when it publishes, so a broken one is a warning. A package without a
/// publish block uses the editor's defaults: that is not a problem of the package.
fn check_package_settings(p: usize, package: &UamPackage, sink: &mut Sink) {
    let found = publish_problems(
        package.jpeg_quality,
        package.publish.as_ref(),
        &folder_atlases(&package.folders),
    );
    for problem in found {
        let detail = match &problem {
            PublishProblem::MissingPublish => continue,
            PublishProblem::JpegQuality(q) => {
                format!("jpegQuality {q} is not an integer from 1 to 100")
            }
            PublishProblem::UnsafeName(name) => {
                format!("publish name {name:?} is not a safe file name")
            }
            PublishProblem::UnsafePath { key, value } => {
                format!("publish {key} {value:?} is not a path relative to the project")
            }
            PublishProblem::PackageCount(n) => {
                format!("packageCount {n} is not a whole number of 0 or more")
            }
            PublishProblem::MaxAtlasSize(n) => {
                format!("maxAtlasSize {n} is not an integer from 1 to 16384")
            }
            PublishProblem::SizeOption(o) => format!("sizeOption {o:?} is not pot, npot or mof"),
            PublishProblem::MaxAtlasIndex(n) => {
                format!("maxAtlasIndex {n} is not an integer from 0 to 255")
            }
            PublishProblem::BelowFolderAtlas { max, slot, folder } => {
                format!("maxAtlasIndex {max} is below atlas slot {slot} of folder {folder}")
            }
            PublishProblem::AtlasIndex { index, max, .. } => {
                format!("atlas index {index} is not an integer from 0 to maxAtlasIndex {max}")
            }
            PublishProblem::AtlasIndexRepeated { index, .. } => {
                format!("atlas index {index} is listed twice")
            }
            PublishProblem::AtlasName { name, .. } => {
                format!("atlas name {name:?} is not a safe file name")
            }
            PublishProblem::AtlasEmpty { .. } => {
                "an atlas entry has neither a name nor compression".into()
            }
            PublishProblem::ExcludedId { id, .. } => {
                format!("excluded resource id {id:?} is not an id")
            }
            PublishProblem::ExcludedIdRepeated { id, .. } => {
                format!("excluded resource id {id} is listed twice")
            }
        };
        sink.warning(
            Code::InvalidProjectValue,
            format!("packages[{p}].{}", problem.key()),
            format!(
                "Package {}: {detail}; the editor may not publish it as intended.",
                package.name
            ),
        )
        .package_id = Some(package.id.clone());
    }
}

/// The project-relative file a resource is written to, lower-cased for collision checks.
fn output_key(resource: &UamResource) -> Option<String> {
    resource.source_path().map(str::to_lowercase)
}

fn check_resources(p: usize, package: &UamPackage, sink: &mut Sink) {
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut outputs: HashMap<String, usize> = HashMap::new();
    for (r, resource) in package.resources.iter().enumerate() {
        let path = resource_path(p, r);
        let located = |sink: &mut Sink, code, at: String, message: String| {
            let diagnostic = sink.error(code, at, message);
            diagnostic.package_id = Some(package.id.clone());
            diagnostic.resource_id = Some(resource.id().to_string());
            diagnostic.source_path = resource.source_path().map(str::to_string);
        };
        // An entry repeated verbatim in package.xml is one resource listed twice: the fix
        // is deleting the repeated entry, not renaming anything, so it is reported once,
        // as the duplicate id it is, and not again as a path collision.
        let mut repeated_entry = false;
        if resource.id().is_empty() {
            located(
                sink,
                Code::InvalidUam,
                format!("{path}.id"),
                "A resource has an empty id.".into(),
            );
        } else if let Some(first) = ids.insert(resource.id(), r) {
            repeated_entry = package.resources[first] == *resource;
            let message = if repeated_entry {
                format!(
                    "Resource {} ({}{}) is declared twice by identical entries in package {}; delete the repeated entry from the package XML (the file stays).",
                    resource.id(),
                    resource.path(),
                    resource.name(),
                    package.name
                )
            } else {
                format!(
                    "Resource {} reuses id {} of resource {} in package {}.",
                    resource.name(),
                    resource.id(),
                    package.resources[first].name(),
                    package.name
                )
            };
            located(
                sink,
                Code::DuplicateResourceId,
                format!("{path}.id"),
                message,
            );
        }
        if !resource.path().is_empty() && !is_canonical_folder(resource.path()) {
            located(
                sink,
                Code::UnsafePath,
                format!("{path}.path"),
                format!(
                    "Resource path {:?} is not a canonical folder path.",
                    resource.path()
                ),
            );
        }
        if let Some(source) = resource.source_path()
            && (source.starts_with('/') || source.split('/').any(|s| s == ".." || s.is_empty()))
        {
            located(
                sink,
                Code::UnsafePath,
                format!("{path}.sourcePath"),
                format!("Source path {source:?} is not a safe relative path."),
            );
        }
        if !resource.branch().is_empty()
            && !package.branch_names.iter().any(|b| b == resource.branch())
        {
            located(
                sink,
                Code::InvalidUam,
                format!("{path}.branch"),
                format!(
                    "Resource {} is on branch {:?}, which is not in the package's branchNames.",
                    resource.id(),
                    resource.branch()
                ),
            );
        }
        if resource.branch_item_ids().len() > package.branch_names.len() {
            located(
                sink,
                Code::InvalidUam,
                format!("{path}.branchItemIds"),
                format!(
                    "Resource {} has more branch variants than the package has branch slots.",
                    resource.id()
                ),
            );
        }
        if let Some(key) = output_key(resource) {
            let file = key.rsplit('/').next().unwrap_or_default();
            if file == "package.xml" || file == "package_branch.xml" {
                located(
                    sink,
                    Code::UnsafePath,
                    format!("{path}.name"),
                    format!("Resource {} would overwrite {file}.", resource.id()),
                );
            }
            if let Some(first) = outputs.insert(key, r)
                && !repeated_entry
            {
                let other = &package.resources[first];
                let (mine, theirs) = (
                    resource.source_path().unwrap_or_default(),
                    other.source_path().unwrap_or_default(),
                );
                let message = if mine == theirs {
                    format!(
                        "Resources {} and {} both use the file {mine}; give each its own file.",
                        other.id(),
                        resource.id()
                    )
                } else {
                    format!(
                        "Resources {} and {} use {theirs} and {mine}, which differ only in letter case and are one file on case-insensitive disks; rename one.",
                        other.id(),
                        resource.id()
                    )
                };
                located(sink, Code::PathCollision, format!("{path}.name"), message);
            }
        }
        if let UamResource::Image(image) = resource.as_ref() {
            let props = &image.image;
            if props.scale_option == 1 {
                let valid = props.scale9_grid.as_deref().is_some_and(is_scale9_grid);
                if !valid {
                    located(
                        sink,
                        Code::InvalidUam,
                        format!("{path}.image.scale9Grid"),
                        format!(
                            "Image {} uses nine-grid scaling without a valid grid.",
                            image.base.id
                        ),
                    );
                }
            }
            if !IMAGE_QUALITY.contains(&props.quality.get()) {
                located(
                    sink,
                    Code::InvalidProjectValue,
                    format!("{path}.image.quality"),
                    format!("Image {} has quality outside 0..100.", image.base.id),
                );
            }
        }
    }
}
