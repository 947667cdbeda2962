//! `updatePackageSettings`, and the rules of a package's settings (`compressPNG`,
//! `jpegQuality`, `publish`) it shares with `addPackage`.
//!
//! Both operations check the same rules in the same order; only their wording differs, as
//! each has worded its messages since it was first served ([`Wording`]).
//!
//! Decisions where the spec is silent:
//! - The rules are [`crate::rules::publish`]'s (validation reports the same ones). An
//!   update may send back a problem the package already has (what we read, we accept
//!   back), but may not add one.
//! - Publish paths may be relative with `..` (real projects publish beside the project
//!   directory), not absolute.
//! - `updatePackageSettings` with `publish: null` is refused, as the spec says; a
//!   package read without `<publish>` therefore needs a complete publish snapshot (the
//!   reader's defaults: maxAtlasSize 2048, sizeOption pot, maxAtlasIndex 10, …).
//! - Lowering `maxAtlasIndex` below the atlas slot of one of the package's folders is
//!   refused (`invalid_package_settings`): the folder would point past the last slot.

use ofgui_contracts::Num;
use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::ops::{PackageSettings, UpdatePackageSettings};
use ofgui_contracts::uam::PackagePublish;

use super::issue::Issue;
use super::workspace::{Op, Workspace};
use crate::rules::publish::folder_atlases;
pub(super) use crate::rules::publish::{Problem, problems};

/// `publish` as the model holds it, which is what a read of the saved file gives (found
/// by the save fuzz harness: a model holding anything else never read back equal, so its
/// save refused): an empty name means "the package's name"; on the global atlas
/// settings the file has no place for the package's own, so they read as the defaults
/// (a size option of `npot` excepted, which older editors' `npot` attribute keeps).
pub(super) fn as_saved(
    publish: Option<&PackagePublish>,
    package_name: &str,
) -> Option<PackagePublish> {
    let mut publish = publish?.clone();
    if publish.name.is_empty() {
        publish.name = package_name.to_owned();
    }
    if publish.use_global_atlas_settings {
        publish.max_atlas_size = Num(2048.0);
        if publish.size_option != "npot" {
            publish.size_option = "pot".to_owned();
        }
        publish.force_square = false;
        publish.allow_rotation = false;
        publish.paging = false;
    }
    Some(publish)
}

/// Settings with atlases sorted by slot, for comparison.
fn canonical_package_settings(settings: &PackageSettings) -> PackageSettings {
    let mut canonical = settings.clone();
    if let Some(publish) = &mut canonical.publish {
        publish
            .atlases
            .sort_by(|a, b| a.index.get().total_cmp(&b.index.get()));
    }
    canonical
}

pub(super) fn update(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &UpdatePackageSettings,
) -> Result<(), Vec<Issue>> {
    let package = workspace
        .find_package(at, "selector.packageId", &op.selector.package_id)
        .map_err(|issue| vec![issue])?;
    let pkg = &workspace.project().packages[package];
    let settings = &op.settings;
    let atlases = folder_atlases(&pkg.folders);
    let old: Vec<Problem> = problems(pkg.jpeg_quality, pkg.publish.as_ref(), &atlases)
        .iter()
        .map(Problem::unplaced)
        .collect();
    let mut allowed = old;
    let added: Vec<Problem> = problems(settings.jpeg_quality, settings.publish.as_ref(), &atlases)
        .into_iter()
        .filter(
            |problem| match allowed.iter().position(|old| *old == problem.unplaced()) {
                Some(at) => {
                    allowed.swap_remove(at);
                    false
                }
                None => true,
            },
        )
        .collect();
    let issues: Vec<Issue> = added
        .iter()
        .map(|problem| {
            let key = problem.key();
            let field = key.strip_prefix("publish.").unwrap_or(&key);
            at.issue(
                Code::InvalidPackageSettings,
                &format!("settings.{key}"),
                problem.message(Wording::UpdatePackageSettings),
            )
            .field(field)
        })
        .collect();
    if !issues.is_empty() {
        return Err(issues);
    }
    let current = PackageSettings {
        compress_png: pkg.compress_png,
        jpeg_quality: pkg.jpeg_quality,
        publish: pkg.publish.clone(),
    };
    let settings = &PackageSettings {
        publish: as_saved(settings.publish.as_ref(), &pkg.name),
        ..settings.clone()
    };
    if canonical_package_settings(&current) == canonical_package_settings(settings) {
        return Err(vec![at.issue(
            Code::PackageSettingsUnchanged,
            "settings",
            format!(
                "The settings equal package {}'s current settings; nothing would change.",
                pkg.id
            ),
        )]);
    }
    let target = workspace.package_mut(package);
    target.compress_png = settings.compress_png;
    target.jpeg_quality = settings.jpeg_quality;
    target.publish = settings.publish.clone();
    Ok(())
}

/// Which operation's wording a message takes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Wording {
    AddPackage,
    UpdatePackageSettings,
}

/// How an operation words a broken package settings rule.
impl Problem {
    pub(super) fn message(&self, wording: Wording) -> String {
        let add = wording == Wording::AddPackage;
        match self {
            Problem::JpegQuality(quality) if add => {
                format!("jpegQuality is {quality}; it must be null or an integer from 1 to 100.")
            }
            Problem::JpegQuality(quality) => format!(
                "jpegQuality is {quality}; it must be null (use the project default) or an integer from 1 to 100."
            ),
            Problem::MissingPublish if add => {
                "publish is null; give a complete publish snapshot (name, path, branchPath, \
                 packageCount, genCode, codePath, useGlobalAtlasSettings, maxAtlasSize, sizeOption, \
                 forceSquare, allowRotation, paging, extractAlpha, maxAtlasIndex, atlases, \
                 excludedResourceIds), e.g. one read from an existing package."
                    .into()
            }
            Problem::MissingPublish => "publish must be a complete snapshot with all 16 keys (name, path, branchPath, packageCount, genCode, codePath, useGlobalAtlasSettings, maxAtlasSize, sizeOption, forceSquare, allowRotation, paging, extractAlpha, maxAtlasIndex, atlases, excludedResourceIds), not null; query the package and edit its publish block.".into(),
            Problem::UnsafeName(name) if add => format!(
                "publish.name {name:?} is not a safe file name; use '' (the package name) or a name \
                 without / \\ : and without leading or trailing spaces or dots."
            ),
            Problem::UnsafeName(name) => format!(
                "publish.name {name:?} must be '' (the package name) or a safe file name segment (no '/', '\\', ':', not '.' or '..', no trailing dot or space)."
            ),
            Problem::UnsafePath { key, value } if add => format!(
                "publish.{key} {value:?} is not a relative path; use '' or a path relative to \
                 the project directory like ../Assets/UI, not starting with / or a drive."
            ),
            Problem::UnsafePath { key, value } => format!(
                "publish.{key} {value:?} must be '' or a path relative to the project directory (../Assets/UI is fine; no leading slash, drive letter or control character)."
            ),
            Problem::PackageCount(count) => format!(
                "publish.packageCount is {count}; it must be an integer from 0 to 2147483647."
            ),
            Problem::MaxAtlasSize(size) => {
                format!("publish.maxAtlasSize is {size}; it must be an integer from 1 to 16384.")
            }
            Problem::SizeOption(option) => {
                format!("publish.sizeOption is {option:?}; it must be pot, npot or mof.")
            }
            Problem::MaxAtlasIndex(index) => {
                format!("publish.maxAtlasIndex is {index}; it must be an integer from 0 to 255.")
            }
            Problem::BelowFolderAtlas { max, slot, folder } => format!(
                "publish.maxAtlasIndex {max} is below atlas slot {slot} of folder {folder}; raise it, or move that folder to a lower slot with setResourceFolderAtlas first."
            ),
            Problem::AtlasIndex { index, max, .. } if add => format!(
                "Atlas index {index} must be an integer from 0 to maxAtlasIndex ({max})."
            ),
            Problem::AtlasIndex { k, index, max } => format!(
                "publish.atlases[{k}].index is {index}; it must be an integer from 0 to maxAtlasIndex ({max})."
            ),
            Problem::AtlasIndexRepeated { index, .. } if add => {
                format!("Atlas index {index} is listed twice; keep one entry per index.")
            }
            Problem::AtlasIndexRepeated { k, index } => format!(
                "publish.atlases[{k}].index {index} is used by an earlier atlas; each slot appears once."
            ),
            Problem::AtlasName { name, .. } if add => {
                format!("Atlas name {name:?} is not a safe file name; use '' or a plain name.")
            }
            Problem::AtlasName { k, name } => format!(
                "publish.atlases[{k}].name {name:?} must be '' or a safe file name segment."
            ),
            Problem::AtlasEmpty { .. } if add => {
                "An atlas entry without a name and without compression has no effect; give it \
                 a name, enable compression, or drop the entry."
                    .into()
            }
            Problem::AtlasEmpty { k } => format!(
                "publish.atlases[{k}] has neither a name nor compression; give it a name, enable compression, or drop the entry."
            ),
            Problem::ExcludedId { id, .. } if add => format!(
                "Excluded resource id {id:?} must be a non-empty id of letters, digits, _ or -."
            ),
            Problem::ExcludedId { k, id } => format!(
                "publish.excludedResourceIds[{k}] {id:?} must be a resource id of letters, digits, '_' or '-'."
            ),
            Problem::ExcludedIdRepeated { id, .. } if add => {
                format!("Excluded resource id {id:?} is listed twice; list it once.")
            }
            Problem::ExcludedIdRepeated { id, .. } => {
                format!("publish.excludedResourceIds lists {id} twice.")
            }
        }
    }
}
