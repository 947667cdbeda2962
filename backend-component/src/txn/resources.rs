//! Resource operations: rename, move, flags, image properties, and the asset lifecycle
//! (add, replace bytes, remove).
//!
//! Files follow the reader's layout: a main-branch resource is written to
//! `assets/<Package><path><file>`, a branch resource to `assets_<branch>/<Package><path><file>`;
//! a component's file is `<name>.xml`, an asset's is `fileName ?? file ?? name` and its UAM
//! `name` is that file name without its extension. Asset bytes live in the workspace's
//! byte overlay under the `sourcePath`, so renames and moves carry them along.
//!
//! Decisions where the spec is silent:
//! - `moveResource` and `addResource` require the destination folder to exist on the
//!   resource's branch (or be `/`); upstream creates directories implicitly. Requiring it
//!   keeps the model's folder list complete (the reader lists every directory that holds a
//!   file) and an earlier `addResourceFolder` in the same batch satisfies it.
//! - A main resource paired with branch variants (`branchItemIds`) is renamed or moved
//!   together with its variants, since the editor pairs them by folder and file name.
//!   Renaming or moving a variant alone would break that pairing and is refused
//!   (`unsupported_resource_mutation`) with a pointer to its main resource.
//! - Output paths collide case-insensitively (as on Windows and macOS disks) within a
//!   branch: a rename to a taken file is `invalid_resource_name`, a move onto one is
//!   `invalid_resource_path`, an added file onto one is `invalid_resource_payload`, and a
//!   file at the path of a folder is `resource_folder_conflict`. `package.xml` and
//!   `package_branch.xml` are never resource files.
//! - A component's `newName` may end in `.xml`; that suffix is dropped (the UAM name has
//!   none). An asset's `newName` containing a `.` is the whole new file name.
//! - An image rename may switch among `.png`, `.jpg` and `.jpeg` (decoders sniff the
//!   signature, and editor projects hold PNG files named `.jpg`), but may not turn a raster
//!   image into `.svg`, an SVG into a raster name, or use any other extension change:
//!   `invalid_resource_name`.
//! - Upstream's "format matches the final name" rule is judged on the final state, by the
//!   check validation applies to every file ([`crate::formats::check`]): a replaced or
//!   renamed file must be usable under its final name with its final bytes, whatever the
//!   order of the rename and the replacement. As validation does, the signature decides
//!   between PNG and JPEG within `.png`, `.jpg` and `.jpeg`, so PNG bytes in a `.jpg` file
//!   are accepted (real editor projects hold such files), in either order. A file that was
//!   already unusable may be renamed; only a problem the batch adds refuses it
//!   (`invalid_resource_bytes`, at the last operation that touched the file).
//! - `addResource` derives `name` from the file name, stores the file under `fileName`
//!   for image, movie clip and font and `file` for the other kinds (as the reader does),
//!   checks the bytes like validation does (a corrupt PNG/JPEG/SVG →
//!   `invalid_resource_bytes`), takes image dimensions from a PNG/JPEG header and rebuilds
//!   a movie clip from its JTA (keeping `smoothing`). Omitted fields are filled in by
//!   `new_asset` (a generated id among them), and every value the server chose is
//!   reported in the batch's `generated` list.
//! - Empty replacement bytes are `invalid_resource_bytes` for every kind.
//! - `removeResource` clears the removed id from any main resource's `branchItemIds`
//!   (the variant slot becomes `''`; all-empty becomes `[]`), which is pairing state and
//!   not a reference. `publish.excludedResourceIds` is left as is.

use std::sync::Arc;

use ofgui_contracts::api::{EntityTarget, GeneratedValues, ResourceSelector};
use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::ops::{
    AddResource, MoveResource, RemoveResource, RenameResource, ReplaceResourceBytes,
    SetImageResourceProps, SetResourceExported, SetResourceFavorite,
};
use ofgui_contracts::uam::{
    ImageResourceProperties, MovieClipResourceProperties, UamPackage, UamResource,
};

use super::issue::Issue;
use super::layout::{
    file_path, folder_exists, folder_taken, normalize_resource_folder, place, resource_folder,
};
use super::new_asset;
use super::words::branch_label;
use super::workspace::{FinalCheck, Op, Workspace};
use crate::formats::{self, FileProblem, ImageFamily, Raster};
use crate::rules::{IMAGE_QUALITY, is_safe_segment, is_scale9_grid, is_whole_in, with_article};

const SELECTOR: &str = "selector.resourceId";

/// `(package, resource)` of the selected resource; a missing package or resource is
/// `invalid_resource_selector`.
fn locate(
    workspace: &Workspace<'_>,
    at: &Op<'_>,
    selector: &ResourceSelector,
) -> Result<(usize, usize), Vec<Issue>> {
    let package = workspace.find_selected_package(
        at,
        &selector.package_id,
        Code::InvalidResourceSelector,
        "resource",
    )?;
    let resource = workspace
        .find_resource(at, SELECTOR, package, &selector.resource_id)
        .map_err(|issue| vec![issue])?;
    Ok((package, resource))
}

/// The new file name for an asset: `requested` as is when it has a `.`, otherwise with
/// the old file's extension.
fn renamed_file(old: &str, requested: &str) -> String {
    if requested.contains('.') {
        return requested.to_string();
    }
    match old.rfind('.') {
        Some(dot) if dot > 0 => format!("{requested}{}", &old[dot..]),
        _ => requested.to_string(),
    }
}

/// The main resource that pairs `resource` as a branch variant, if any.
fn main_of_variant(package: &UamPackage, resource: &UamResource) -> Option<Arc<UamResource>> {
    if resource.branch().is_empty() {
        return None;
    }
    package
        .resources
        .iter()
        .find(|r| r.branch().is_empty() && r.branch_item_ids().iter().any(|id| id == resource.id()))
        .cloned()
}

/// The selected resource followed by its branch variants (indices in the package).
fn with_variants(package: &UamPackage, index: usize) -> Vec<usize> {
    let mut targets = vec![index];
    for (slot, id) in package.resources[index]
        .branch_item_ids()
        .iter()
        .enumerate()
    {
        let Some(branch) = package.branch_names.get(slot) else {
            continue;
        };
        if id.is_empty() {
            continue;
        }
        if let Some(variant) = package
            .resources
            .iter()
            .position(|r| r.id() == id && r.branch() == branch)
        {
            targets.push(variant);
        }
    }
    targets
}

/// Why a resource file cannot be placed at `folder + file` on `branch`.
enum Clash {
    Reserved,
    Resource(String),
    Folder(String),
}

fn clash(
    package: &UamPackage,
    moving: &[usize],
    branch: &str,
    folder: &str,
    file: &str,
) -> Option<Clash> {
    let lower_file = file.to_lowercase();
    if lower_file == "package.xml" || lower_file == "package_branch.xml" {
        return Some(Clash::Reserved);
    }
    let wanted = format!("{folder}{file}").to_lowercase();
    if let Some((_, other)) = package.resources.iter().enumerate().find(|(k, r)| {
        !moving.contains(k)
            && r.branch() == branch
            && format!("{}{}", resource_folder(r), r.primary_file()).to_lowercase() == wanted
    }) {
        return Some(Clash::Resource(other.id().to_string()));
    }
    folder_taken(package, branch, &format!("{folder}{file}/"), None)
        .map(|f| Clash::Folder(f.path.clone()))
}

/// Refuses a component where only asset files can go; `instead` says what to do.
fn asset_only(at: &Op<'_>, resource: &UamResource, instead: &str) -> Result<(), Vec<Issue>> {
    if resource.asset_base().is_some() {
        return Ok(());
    }
    Err(vec![
        at.issue(
            Code::UnsupportedResourceMutation,
            SELECTOR,
            format!("Resource {} is a component; {instead}", resource.id()),
        )
        .resource_kind(resource.kind()),
    ])
}

/// The bytes issue of an asset whose file is not loaded.
fn bytes_unavailable(at: &Op<'_>, field: &str, resource: &UamResource, what: &str) -> Issue {
    at.issue(
        Code::UnavailableResourceSourceBytes,
        field,
        format!(
            "The file of {what} {} ({}) is not loaded in this session (it was missing or unreadable when the project was opened), so it cannot be {}; no operation can fix that: ask the user to restore the file, then reopen the session, or to deal with the resource in the FairyGUI editor.",
            resource.id(),
            resource.source_path().unwrap_or("no source path"),
            match at.kind {
                "renameResource" => "renamed",
                "moveResource" => "moved",
                _ => "removed",
            }
        ),
    )
    .resource_kind(resource.kind())
}

/// `(package, resource)` of a rename or move, the resources it relocates and the issues
/// found so far (see [`relocation`]).
type Relocation = (usize, usize, Vec<usize>, Vec<Issue>);

/// Locates a rename or move (`verb`): `(package, resource)`, the resources it relocates
/// (the selected one and its branch variants) and what stands against it so far. A
/// variant cannot move alone (the editor pairs variants by folder and file name), and
/// every asset's bytes must be loaded.
fn relocation(
    workspace: &Workspace<'_>,
    at: &Op<'_>,
    selector: &ResourceSelector,
    verb: &str,
) -> Result<Relocation, Vec<Issue>> {
    let (package, index) = locate(workspace, at, selector)?;
    let pkg = &workspace.project().packages[package];
    let resource = &pkg.resources[index];
    let mut issues = Vec::new();
    if let Some(main) = main_of_variant(pkg, resource) {
        issues.push(
            at.issue(
                Code::UnsupportedResourceMutation,
                SELECTOR,
                format!(
                    "Resource {} is the {} variant of resource {}; the editor pairs variants by folder and file name, so {verb} the main resource {} instead (its variants follow).",
                    resource.id(),
                    resource.branch(),
                    main.id(),
                    main.id()
                ),
            )
            .resource_kind(resource.kind()),
        );
    }
    let targets = with_variants(pkg, index);
    require_bytes(workspace, at, package, &targets, &mut issues);
    Ok((package, index, targets, issues))
}

/// Checks that every asset among `targets` has its bytes loaded.
fn require_bytes(
    workspace: &Workspace<'_>,
    at: &Op<'_>,
    package: usize,
    targets: &[usize],
    issues: &mut Vec<Issue>,
) {
    let pkg = &workspace.project().packages[package];
    for (n, &index) in targets.iter().enumerate() {
        let resource = &pkg.resources[index];
        if resource.asset_base().is_none() {
            continue;
        }
        let loaded = resource
            .source_path()
            .is_some_and(|path| workspace.bytes(path).is_some());
        if !loaded {
            let what = if n == 0 { "resource" } else { "branch variant" };
            issues.push(bytes_unavailable(at, SELECTOR, resource, what));
        }
    }
}

/// Places each `(resource, folder, file)` and moves asset bytes to the new sourcePath.
fn relocate(workspace: &mut Workspace<'_>, package: usize, moves: Vec<(usize, String, String)>) {
    for (index, folder, file) in moves {
        let pkg = &workspace.project().packages[package];
        let resource = &pkg.resources[index];
        let old = resource.source_path().map(str::to_string);
        let new = file_path(&pkg.name, resource.branch(), &folder, &file);
        let is_asset = resource.asset_base().is_some();
        place(
            workspace.resource_mut(package, index),
            &folder,
            &file,
            new.clone(),
        );
        if is_asset && let Some(old) = old {
            workspace.move_bytes(&old, &new);
        }
    }
}

/// Problems of an image block, as `(field, message)`.
fn image_props_problems(props: &ImageResourceProperties) -> Vec<(&'static str, String)> {
    let mut problems = Vec::new();
    if !is_whole_in(props.quality, IMAGE_QUALITY) {
        problems.push((
            "quality",
            format!(
                "quality is {}; it must be an integer from 0 to 100.",
                props.quality.get()
            ),
        ));
    }
    if !(0..=2).contains(&props.scale_option) {
        problems.push((
            "scaleOption",
            format!(
                "scaleOption is {}; it must be 0 (none), 1 (nine-grid) or 2 (tile).",
                props.scale_option
            ),
        ));
    }
    if !is_whole_in(props.tile_grid_indice, 0.0..=31.0) {
        problems.push((
            "tileGridIndice",
            format!(
                "tileGridIndice is {}; it must be an integer from 0 to 31.",
                props.tile_grid_indice.get()
            ),
        ));
    }
    match (&props.scale9_grid, props.scale_option) {
        (Some(grid), 1) => {
            let valid = is_scale9_grid(grid) && grid.iter().all(|n| n.get().fract() == 0.0);
            if !valid {
                problems.push((
                    "scale9Grid",
                    "scale9Grid must be four integers [x ≥ 0, y ≥ 0, width > 0, height > 0] when scaleOption is 1.".into(),
                ));
            }
        }
        (None, 1) => problems.push((
            "scale9Grid",
            "scaleOption 1 (nine-grid) needs scale9Grid [x, y, width, height]; send the grid or another scaleOption.".into(),
        )),
        (Some(_), _) => problems.push((
            "scale9Grid",
            "scale9Grid must be null unless scaleOption is 1 (nine-grid).".into(),
        )),
        (None, _) => {}
    }
    problems
}

/// Problems of a movie clip block, as `(field, message)`.
fn movie_clip_problems(props: &MovieClipResourceProperties) -> Vec<(&'static str, String)> {
    let mut problems = Vec::new();
    if props.interval.get() < 0.0 || props.repeat_delay.get() < 0.0 {
        problems.push(("interval", "interval and repeatDelay must be ≥ 0.".into()));
    }
    let bad_frame = props.frames.iter().position(|f| {
        [f.rect_x, f.rect_y, f.rect_width, f.rect_height, f.add_delay]
            .iter()
            .any(|n| n.get() < 0.0 || n.get().fract() != 0.0)
    });
    if let Some(k) = bad_frame {
        problems.push(("frames", format!("frames[{k}] must hold integers ≥ 0.")));
    }
    problems
}

const JTA_HELP: &str =
    "it must be a FairyGUI movie clip file (.jta, versions 100–102) exported by the editor";

pub(super) fn rename(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &RenameResource,
) -> Result<(), Vec<Issue>> {
    let (package, index, targets, mut issues) = relocation(workspace, at, &op.selector, "rename")?;
    let pkg = &workspace.project().packages[package];
    let resource = &pkg.resources[index];
    let kind = resource.kind();

    let old_file = resource.primary_file();
    let new_file = match resource.as_ref() {
        UamResource::Component(_) => {
            let stem = op
                .new_name
                .strip_suffix(".xml")
                .or_else(|| op.new_name.strip_suffix(".XML"))
                .unwrap_or(&op.new_name);
            format!("{stem}.xml")
        }
        _ => renamed_file(&old_file, &op.new_name),
    };
    let safe = is_safe_segment(&op.new_name) && is_safe_segment(&new_file) && new_file != ".xml";
    if !safe {
        issues.push(
            at.issue(
                Code::InvalidResourceName,
                "newName",
                format!(
                    "{:?} is not a safe file name; use one non-empty name without '/', '\\' or ':', not '.' or '..', without leading/trailing spaces or a trailing dot, and not a reserved device name (con, nul, com1, …).",
                    op.new_name
                ),
            )
            .resource_kind(kind),
        );
    } else if let UamResource::Image(_) = resource.as_ref()
        && ImageFamily::of_name(&old_file) != ImageFamily::of_name(&new_file)
    {
        issues.push(
            at.issue(
                Code::InvalidResourceName,
                "newName",
                format!(
                    "Renaming image {} from {old_file} to {new_file} would change how its bytes are read; an image may switch only among .png, .jpg and .jpeg (raster) or keep .svg. Send newName without an extension to keep {:?}.",
                    resource.id(),
                    formats::name_extension(&old_file).unwrap_or_default()
                ),
            )
            .resource_kind(kind),
        );
    } else {
        for &target in &targets {
            let t = &pkg.resources[target];
            match clash(pkg, &targets, t.branch(), &resource_folder(t), &new_file) {
                Some(Clash::Reserved) => issues.push(
                    at.issue(
                        Code::InvalidResourceName,
                        "newName",
                        format!("{new_file} is the package's own description file name; choose another name."),
                    )
                    .resource_kind(kind),
                ),
                Some(Clash::Resource(other)) => issues.push(
                    at.issue(
                        Code::InvalidResourceName,
                        "newName",
                        format!(
                            "Resource {other} is already written to {}{new_file} on {} (names compare without case); choose another name.",
                            resource_folder(t),
                            branch_label(t.branch())
                        ),
                    )
                    .resource_kind(kind),
                ),
                Some(Clash::Folder(path)) => issues.push(
                    at.issue(
                        Code::ResourceFolderConflict,
                        "newName",
                        format!(
                            "Folder {path} on {} has the path the renamed file would take; choose another name.",
                            branch_label(t.branch())
                        ),
                    )
                    .resource_kind(kind),
                ),
                None => {}
            }
        }
    }
    if !issues.is_empty() {
        return Err(issues);
    }
    let moves = targets
        .iter()
        .map(|&t| (t, resource_folder(&pkg.resources[t]), new_file.clone()))
        .collect();
    let renamed: Vec<(String, String)> = targets
        .iter()
        .map(|&t| &pkg.resources[t])
        .filter(|r| r.asset_base().is_some())
        .map(|r| (pkg.id.clone(), r.id().to_string()))
        .collect();
    relocate(workspace, package, moves);
    // A file's bytes are judged under its final name.
    for (package_id, resource_id) in renamed {
        workspace.check_at_end(FinalCheck::SourceChanged {
            at: at.blame("newName"),
            package_id,
            resource_id,
        });
    }
    Ok(())
}

pub(super) fn move_to(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &MoveResource,
) -> Result<(), Vec<Issue>> {
    let (package, index, targets, mut issues) = relocation(workspace, at, &op.selector, "move")?;
    let pkg = &workspace.project().packages[package];
    let resource = &pkg.resources[index];
    let kind = resource.kind();

    match normalize_resource_folder(&op.to_path) {
        None => issues.push(
            at.issue(
                Code::InvalidResourcePath,
                "toPath",
                format!(
                    "toPath {:?} is not a folder path; use / or /a/b/ with safe segments (no '.', '..', ':', '\\', reserved names or trailing dots/spaces).",
                    op.to_path
                ),
            )
            .resource_kind(kind),
        ),
        Some(folder) => {
            for &target in &targets {
                let t = &pkg.resources[target];
                if !folder_exists(pkg, t.branch(), &folder) {
                    issues.push(
                        at.issue(
                            Code::InvalidResourcePath,
                            "toPath",
                            format!(
                                "Folder {folder} does not exist in package {} on {}; add it first with addResourceFolder (earlier in the same batch works).",
                                pkg.id,
                                branch_label(t.branch())
                            ),
                        )
                        .resource_kind(kind),
                    );
                    continue;
                }
                match clash(pkg, &targets, t.branch(), &folder, &t.primary_file()) {
                    Some(Clash::Resource(other)) => issues.push(
                        at.issue(
                            Code::InvalidResourcePath,
                            "toPath",
                            format!(
                                "Resource {other} is already written to {folder}{} on {} (names compare without case); rename one of them first or choose another folder.",
                                t.primary_file(),
                                branch_label(t.branch())
                            ),
                        )
                        .resource_kind(kind),
                    ),
                    Some(Clash::Folder(path)) => issues.push(
                        at.issue(
                            Code::ResourceFolderConflict,
                            "toPath",
                            format!(
                                "Folder {path} on {} has the path the moved file would take; choose another folder.",
                                branch_label(t.branch())
                            ),
                        )
                        .resource_kind(kind),
                    ),
                    Some(Clash::Reserved) | None => {}
                }
            }
            if issues.is_empty() {
                let moves = targets
                    .iter()
                    .map(|&t| (t, folder.clone(), pkg.resources[t].primary_file()))
                    .collect();
                relocate(workspace, package, moves);
                return Ok(());
            }
        }
    }
    Err(issues)
}

pub(super) fn set_favorite(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &SetResourceFavorite,
) -> Result<(), Vec<Issue>> {
    set_flag(workspace, at, &op.selector, Flag::Favorite, op.favorite)
}

pub(super) fn set_exported(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &SetResourceExported,
) -> Result<(), Vec<Issue>> {
    set_flag(workspace, at, &op.selector, Flag::Exported, op.exported)
}

/// The two flags a resource carries whatever its kind.
#[derive(Clone, Copy)]
enum Flag {
    Favorite,
    Exported,
}

/// Sets one of a resource's flags; a resource that has the value already is left as it is
/// (not copied, not rechecked).
fn set_flag(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    selector: &ResourceSelector,
    flag: Flag,
    value: bool,
) -> Result<(), Vec<Issue>> {
    let (package, index) = locate(workspace, at, selector)?;
    let current = workspace.project().packages[package].resources[index].common();
    let now = match flag {
        Flag::Favorite => current.favorite,
        Flag::Exported => current.exported,
    };
    if now != value {
        let common = workspace.resource_mut(package, index).common_mut();
        match flag {
            Flag::Favorite => *common.favorite = value,
            Flag::Exported => *common.exported = value,
        }
    }
    Ok(())
}

pub(super) fn set_image_props(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &SetImageResourceProps,
) -> Result<(), Vec<Issue>> {
    let (package, index) = locate(workspace, at, &op.selector)?;
    let resource = &workspace.project().packages[package].resources[index];
    if !matches!(resource.as_ref(), UamResource::Image(_)) {
        return Err(vec![
            at.issue(
                Code::InvalidResourceSelector,
                SELECTOR,
                format!(
                    "Resource {} is {}; setImageResourceProps only applies to image resources.",
                    resource.id(),
                    with_article(resource.kind())
                ),
            )
            .resource_kind(resource.kind()),
        ]);
    }
    let issues: Vec<Issue> = image_props_problems(&op.props)
        .into_iter()
        .map(|(field, message)| {
            at.issue(
                Code::InvalidResourcePayload,
                &format!("props.{field}"),
                message,
            )
            .resource_kind("image")
            .field(field)
        })
        .collect();
    if !issues.is_empty() {
        return Err(issues);
    }
    if let UamResource::Image(image) = workspace.resource_mut(package, index) {
        image.image = op.props.clone();
    }
    Ok(())
}

pub(super) fn add(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &AddResource,
) -> Result<(), Vec<Issue>> {
    let package = workspace
        .find_package(at, "selector.packageId", &op.selector.package_id)
        .map_err(|issue| vec![issue])?;
    let pkg = &workspace.project().packages[package];
    let sent = &op.resource.asset;
    let refused = || {
        vec![
            at.issue(
                Code::UnsupportedResourceKind,
                "resource.kind",
                "addResource adds asset files (image, sound, misc, font, movieClip, spine, dragonBones); add a component with addComponent.",
            )
            .resource_kind("component"),
        ]
    };
    let input = &new_asset::complete(sent, pkg, &workspace.requested_ids).ok_or_else(refused)?;
    let kind = input.kind();
    let base = input.asset_base().ok_or_else(refused)?;
    let payload = |field: &str, message: String| {
        at.issue(
            Code::InvalidResourcePayload,
            &format!("resource.{field}"),
            message,
        )
        .resource_kind(kind)
        .field(field)
    };
    let mut issues = Vec::new();

    if base.id.is_empty() {
        issues.push(payload("id", "The resource id is empty; omit id and the server generates a package-unique one, or send one such as the editor's (letters and digits).".into()));
    } else if pkg.resources.iter().any(|r| r.id() == base.id) {
        issues.push(
            at.issue(
                Code::DuplicateResourceId,
                "resource.id",
                format!(
                    "Package {} already has a resource with id {}; choose an unused id, or omit id and the server generates one.",
                    pkg.id, base.id
                ),
            )
            .resource_kind(kind),
        );
    }
    if base.source_path.is_some() {
        issues.push(payload(
            "sourcePath",
            "sourcePath must be absent: the file's place is derived from the package, branch, path and file name.".into(),
        ));
    }

    // The primary file name: fileName ?? file ?? name.
    let (file_field, file) = sent.file().unwrap_or(("fileName", String::new()));
    let file_ok = is_safe_segment(&file);
    if file.is_empty() {
        issues.push(payload(
            file_field,
            "addResource needs the file's name: send fileName with its extension (e.g. icon.png); the resource's name is that file name without the extension.".into(),
        ));
    } else if !file_ok {
        issues.push(payload(
            file_field,
            format!(
                "File name {file:?} is not safe; use one non-empty file name without '/', '\\' or ':', not '.' or '..', without leading/trailing spaces or a trailing dot, and not a reserved device name."
            ),
        ));
    }

    if !base.branch.is_empty() && !pkg.branch_names.contains(&base.branch) {
        issues.push(payload(
            "branch",
            format!(
                "Branch {:?} is not one of package {}'s branch slots ({}); use '' for the main branch.",
                base.branch,
                pkg.id,
                if pkg.branch_names.is_empty() { "it has none".to_string() } else { pkg.branch_names.join(", ") }
            ),
        ));
    }
    if base.branch_item_ids.len() > pkg.branch_names.len() {
        issues.push(payload(
            "branchItemIds",
            format!(
                "branchItemIds has {} entries but package {} has {} branch slots; send at most one id per slot (usually []).",
                base.branch_item_ids.len(),
                pkg.id,
                pkg.branch_names.len()
            ),
        ));
    }

    let folder = normalize_resource_folder(&base.path);
    match &folder {
        None => issues.push(
            at.issue(
                Code::InvalidResourcePath,
                "resource.path",
                format!(
                    "path {:?} is not a folder path; use / or /a/b/ with safe segments (no '.', '..', ':', '\\', reserved names or trailing dots/spaces).",
                    base.path
                ),
            )
            .resource_kind(kind),
        ),
        Some(folder) if !folder_exists(pkg, &base.branch, folder) => issues.push(
            at.issue(
                Code::InvalidResourcePath,
                "resource.path",
                format!(
                    "Folder {folder} does not exist in package {} on {}; add it first with addResourceFolder (earlier in the same batch works).",
                    pkg.id,
                    branch_label(&base.branch)
                ),
            )
            .resource_kind(kind),
        ),
        Some(_) => {}
    }

    let bytes = op.resource.source_bytes.as_deref();
    match bytes {
        None => issues.push(
            at.issue(
                Code::UnavailableResourceSourceBytes,
                "resource.sourceBytes",
                "This addResource carries no sourceBytes; add the file's bytes, as an array of integers 0..255 or a base64 string.",
            )
            .resource_kind(kind),
        ),
        Some(bytes) if kind == "movieClip" => {
            if formats::jta::parse(bytes).is_none() {
                issues.push(
                    at.issue(
                        Code::InvalidMovieClipJta,
                        "resource.sourceBytes",
                        format!("sourceBytes is not a readable movie clip: {JTA_HELP}."),
                    )
                    .resource_kind(kind),
                );
            }
        }
        Some(bytes) => {
            if let Err(FileProblem::Corrupt(problem)) = formats::check(kind, &file, bytes) {
                issues.push(
                    at.issue(
                        Code::InvalidResourceBytes,
                        "resource.sourceBytes",
                        format!("sourceBytes cannot be used as {file}: {problem}."),
                    )
                    .resource_kind(kind),
                );
            }
        }
    }
    match input {
        UamResource::Image(image) => issues.extend(
            image_props_problems(&image.image)
                .into_iter()
                .map(|(field, message)| {
                    at.issue(
                        Code::InvalidResourcePayload,
                        &format!("resource.image.{field}"),
                        message,
                    )
                    .resource_kind(kind)
                    .field(field)
                }),
        ),
        UamResource::MovieClip(clip) => {
            issues.extend(movie_clip_problems(&clip.movie_clip).into_iter().map(
                |(field, message)| {
                    at.issue(
                        Code::InvalidResourcePayload,
                        &format!("resource.movieClip.{field}"),
                        message,
                    )
                    .resource_kind(kind)
                    .field(field)
                },
            ))
        }
        _ => {}
    }

    let len = pkg.resources.len();
    let at_index = op.at_index.map_or(len, |i| i as usize);
    if at_index > len {
        issues.push(
            at.issue(
                Code::InvalidResourceIndex,
                "atIndex",
                format!("atIndex {at_index} is past the end of package {}'s {len} resources; use 0..{len} or omit it to append.", pkg.id),
            )
            .resource_kind(kind),
        );
    }

    if let (true, Some(folder)) = (file_ok, &folder) {
        match clash(pkg, &[], &base.branch, folder, &file) {
            Some(Clash::Reserved) => issues.push(payload(
                file_field,
                format!("{file} is the package's own description file name; choose another file name."),
            )),
            Some(Clash::Resource(other)) => issues.push(payload(
                file_field,
                format!(
                    "Resource {other} is already written to {folder}{file} on {} (names compare without case); choose another file name or folder.",
                    branch_label(&base.branch)
                ),
            )),
            Some(Clash::Folder(path)) => issues.push(
                at.issue(
                    Code::ResourceFolderConflict,
                    &format!("resource.{file_field}"),
                    format!(
                        "Folder {path} on {} has the path the new file would take; choose another file name or folder.",
                        branch_label(&base.branch)
                    ),
                )
                .resource_kind(kind),
            ),
            None => {}
        }
    }
    let (Some(folder), Some(bytes)) = (folder, bytes) else {
        return Err(issues);
    };
    if !issues.is_empty() {
        return Err(issues);
    }

    // A normalized clone, placed as the reader would place it.
    let source = file_path(&pkg.name, &base.branch, &folder, &file);
    let mut resource = input.clone();
    place(&mut resource, &folder, &file, source.clone());
    formats::update_from_file(&mut resource, bytes);
    let generated = GeneratedValues {
        op_index: at.index as u32,
        op_id: at.id.map(str::to_string),
        operation_kind: at.kind.to_string(),
        target: EntityTarget::Resource {
            selector: ResourceSelector {
                package_id: pkg.id.clone(),
                resource_id: resource.id().to_string(),
            },
        },
        values: new_asset::chosen(sent, &resource),
    };
    workspace
        .package_mut(package)
        .resources
        .insert(at_index, Arc::new(resource));
    workspace.set_bytes(&source, bytes.to_vec());
    workspace.generated.push(generated);
    Ok(())
}

pub(super) fn replace_bytes(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &ReplaceResourceBytes,
) -> Result<(), Vec<Issue>> {
    let (package, index) = locate(workspace, at, &op.selector)?;
    let resource = &workspace.project().packages[package].resources[index];
    let kind = resource.kind();
    asset_only(
        at,
        resource,
        "replaceResourceBytes only replaces asset files. Edit components with setComponentProps and the display-list operations.",
    )?;
    let Some(source) = resource
        .source_path()
        .filter(|path| workspace.bytes(path).is_some())
        .map(str::to_string)
    else {
        return Err(vec![
            at.issue(
                Code::UnavailableResourceSourceBytes,
                SELECTOR,
                format!(
                    "The file of resource {} ({}) is not loaded in this session (it was missing or unreadable when the project was opened), so its bytes cannot be replaced; no operation can fix that: ask the user to restore the file, then reopen the session.",
                    resource.id(),
                    resource.source_path().unwrap_or("no source path")
                ),
            )
            .resource_kind(kind),
        ]);
    };
    let file = resource.primary_file();
    let bytes = &op.source_bytes;
    let bad_bytes = |message: String| {
        at.issue(Code::InvalidResourceBytes, "sourceBytes", message)
            .resource_kind(kind)
    };
    if bytes.is_empty() {
        return Err(vec![bad_bytes(
            "sourceBytes is empty; send the whole new file.".into(),
        )]);
    }
    match resource.as_ref() {
        UamResource::MovieClip(_) if formats::jta::parse(bytes).is_none() => {
            return Err(vec![
                at.issue(
                    Code::InvalidMovieClipJta,
                    "sourceBytes",
                    format!("sourceBytes is not a readable movie clip: {JTA_HELP}."),
                )
                .resource_kind(kind),
            ]);
        }
        // Whether the bytes are a usable image under the file's final name is judged on
        // the final state of the batch, as validation judges it.
        UamResource::Image(_) if Raster::of_name(&file).is_none() => {
            return Err(vec![
                    at.issue(
                        Code::UnsupportedResourceMutation,
                        "sourceBytes",
                        format!(
                            "Image {} is stored as {file}; replaceResourceBytes only replaces PNG and JPEG images (.png, .jpg, .jpeg).",
                            resource.id()
                        ),
                    )
                    .resource_kind(kind),
                ]);
        }
        _ => {}
    }
    let (package_id, resource_id) = (
        workspace.project().packages[package].id.clone(),
        op.selector.resource_id.clone(),
    );
    formats::update_from_file(workspace.resource_mut(package, index), bytes);
    workspace.set_bytes(&source, bytes.to_vec());
    workspace.check_at_end(FinalCheck::SourceChanged {
        at: at.blame("sourceBytes"),
        package_id,
        resource_id,
    });
    Ok(())
}

pub(super) fn remove(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &RemoveResource,
) -> Result<(), Vec<Issue>> {
    let (package, index) = locate(workspace, at, &op.selector)?;
    let pkg = &workspace.project().packages[package];
    let resource = &pkg.resources[index];
    asset_only(at, resource, "remove it with removeComponent.")?;
    let Some(source) = resource
        .source_path()
        .filter(|path| workspace.bytes(path).is_some())
        .map(str::to_string)
    else {
        return Err(vec![bytes_unavailable(at, SELECTOR, resource, "resource")]);
    };
    let id = resource.id().to_string();
    let package_id = pkg.id.clone();
    // Main resources that pair the removed one as a branch variant.
    let pairing: Vec<usize> = pkg
        .resources
        .iter()
        .enumerate()
        .filter(|(_, r)| r.branch_item_ids().contains(&id))
        .map(|(k, _)| k)
        .collect();

    for k in pairing {
        let ids = workspace
            .resource_mut(package, k)
            .common_mut()
            .branch_item_ids;
        for slot in ids.iter_mut().filter(|v| **v == id) {
            slot.clear();
        }
        if ids.iter().all(String::is_empty) {
            ids.clear();
        }
    }
    workspace.package_mut(package).resources.remove(index);
    workspace.remove_bytes(&source);
    workspace.check_at_end(FinalCheck::ResourceUnreferenced {
        at: at.blame(SELECTOR),
        package_id,
        resource_id: id,
    });
    Ok(())
}
