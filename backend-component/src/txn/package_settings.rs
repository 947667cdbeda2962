//! `updatePackageSettings`, and the rules of a package's settings (`compressPNG`,
//! `jpegQuality`, `publish`) it shares with `addPackage`.
//!
//! Both operations check the same rules in the same order; only their wording differs, as
//! each has worded its messages since it was first served ([`Wording`]).
//!
//! Decisions where the spec is silent:
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
use crate::rules::{
    SIZE_OPTIONS, is_plain_id, is_safe_relative_path, is_safe_segment, is_whole_in,
};

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
    let folder_atlases: Vec<(String, f64)> = pkg
        .folders
        .iter()
        .filter_map(|f| {
            f.atlas
                .parse::<f64>()
                .ok()
                .map(|slot| (f.path.clone(), slot))
        })
        .collect();
    let problems = problems(
        settings.jpeg_quality,
        settings.publish.as_ref(),
        &folder_atlases,
    );
    let issues: Vec<Issue> = problems
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

/// One broken rule of a package's settings.
#[derive(Debug, PartialEq)]
pub(super) enum Problem {
    JpegQuality(f64),
    MissingPublish,
    UnsafeName(String),
    UnsafePath { key: &'static str, value: String },
    PackageCount(f64),
    MaxAtlasSize(f64),
    SizeOption(String),
    MaxAtlasIndex(f64),
    BelowFolderAtlas { max: f64, slot: f64, folder: String },
    AtlasIndex { k: usize, index: f64, max: f64 },
    AtlasIndexRepeated { k: usize, index: f64 },
    AtlasName { k: usize, name: String },
    AtlasEmpty { k: usize },
    ExcludedId { k: usize, id: String },
    ExcludedIdRepeated { k: usize, id: String },
}

/// The highest atlas slot publish settings may name.
const MAX_ATLAS_INDEX: f64 = 255.0;

/// Every broken rule, in the order a fix would read them. `folder_atlases` are the atlas
/// slots the package's folders use, by folder path: `maxAtlasIndex` may not drop below one.
pub(super) fn problems(
    jpeg_quality: Option<Num>,
    publish: Option<&PackagePublish>,
    folder_atlases: &[(String, f64)],
) -> Vec<Problem> {
    let mut found = Vec::new();
    if let Some(quality) = jpeg_quality
        && !is_whole_in(quality, 1.0..=100.0)
    {
        found.push(Problem::JpegQuality(quality.get()));
    }
    let Some(publish) = publish else {
        found.push(Problem::MissingPublish);
        return found;
    };
    if !publish.name.is_empty() && !is_safe_segment(&publish.name) {
        found.push(Problem::UnsafeName(publish.name.clone()));
    }
    for (key, value) in [
        ("path", &publish.path),
        ("branchPath", &publish.branch_path),
        ("codePath", &publish.code_path),
    ] {
        if !is_safe_relative_path(value) {
            found.push(Problem::UnsafePath {
                key,
                value: value.clone(),
            });
        }
    }
    if !is_whole_in(publish.package_count, 0.0..=f64::from(i32::MAX)) {
        found.push(Problem::PackageCount(publish.package_count.get()));
    }
    if !is_whole_in(publish.max_atlas_size, 1.0..=16384.0) {
        found.push(Problem::MaxAtlasSize(publish.max_atlas_size.get()));
    }
    if !SIZE_OPTIONS.contains(&publish.size_option.as_str()) {
        found.push(Problem::SizeOption(publish.size_option.clone()));
    }
    let max_index_ok = is_whole_in(publish.max_atlas_index, 0.0..=MAX_ATLAS_INDEX);
    let max = if max_index_ok {
        publish.max_atlas_index.get()
    } else {
        found.push(Problem::MaxAtlasIndex(publish.max_atlas_index.get()));
        MAX_ATLAS_INDEX
    };
    if max_index_ok {
        for (folder, slot) in folder_atlases.iter().filter(|(_, slot)| *slot > max) {
            found.push(Problem::BelowFolderAtlas {
                max,
                slot: *slot,
                folder: folder.clone(),
            });
        }
    }
    let mut seen = Vec::new();
    for (k, atlas) in publish.atlases.iter().enumerate() {
        let index = atlas.index.get();
        if !is_whole_in(atlas.index, 0.0..=max) {
            found.push(Problem::AtlasIndex { k, index, max });
        } else if seen.contains(&index) {
            found.push(Problem::AtlasIndexRepeated { k, index });
        } else {
            seen.push(index);
        }
        if !atlas.name.is_empty() && !is_safe_segment(&atlas.name) {
            found.push(Problem::AtlasName {
                k,
                name: atlas.name.clone(),
            });
        }
        if atlas.name.is_empty() && !atlas.compression {
            found.push(Problem::AtlasEmpty { k });
        }
    }
    let mut ids: Vec<&str> = Vec::new();
    for (k, id) in publish.excluded_resource_ids.iter().enumerate() {
        if !is_plain_id(id) {
            found.push(Problem::ExcludedId { k, id: id.clone() });
        } else if ids.contains(&id.as_str()) {
            found.push(Problem::ExcludedIdRepeated { k, id: id.clone() });
        } else {
            ids.push(id);
        }
    }
    found
}

impl Problem {
    /// Where the problem is, under the settings: `jpegQuality`, `publish.atlases[2].index`.
    pub(super) fn key(&self) -> String {
        let publish_key = match self {
            Problem::JpegQuality(_) => return "jpegQuality".into(),
            Problem::MissingPublish => return "publish".into(),
            Problem::UnsafeName(_) => "name".into(),
            Problem::UnsafePath { key, .. } => key.to_string(),
            Problem::PackageCount(_) => "packageCount".into(),
            Problem::MaxAtlasSize(_) => "maxAtlasSize".into(),
            Problem::SizeOption(_) => "sizeOption".into(),
            Problem::MaxAtlasIndex(_) | Problem::BelowFolderAtlas { .. } => "maxAtlasIndex".into(),
            Problem::AtlasIndex { k, .. } | Problem::AtlasIndexRepeated { k, .. } => {
                format!("atlases[{k}].index")
            }
            Problem::AtlasName { k, .. } => format!("atlases[{k}].name"),
            Problem::AtlasEmpty { k } => format!("atlases[{k}]"),
            Problem::ExcludedId { k, .. } | Problem::ExcludedIdRepeated { k, .. } => {
                format!("excludedResourceIds[{k}]")
            }
        };
        format!("publish.{publish_key}")
    }

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
                "publish.{key} {value:?} is not a safe relative path; use '' or segments \
                 like out/ui that do not start with / or a drive and contain no . or .."
            ),
            Problem::UnsafePath { key, value } => format!(
                "publish.{key} {value:?} must be '' or a relative path of safe segments (no leading slash, drive letter, '.', '..' or empty segment)."
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
