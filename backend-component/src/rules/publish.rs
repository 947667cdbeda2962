//! The rules of a package's settings (`compressPNG`, `jpegQuality` and the `publish`
//! block of `package.xml`): for transactions (`addPackage` and `updatePackageSettings`
//! refuse a settings snapshot that adds a problem) and validation (which reports one a
//! package has), so the two cannot disagree. The rooms word the problems.
//!
//! Publish paths (`path`, `branchPath`, `codePath`) are where the editor publishes and
//! generates code; this backend never writes there. The editor resolves a relative path
//! against the project directory, and real projects publish beside it
//! (`../Assets/Resources/UI`), so `..` is allowed; an absolute path or a drive letter ties
//! the project to one machine and is refused for new values.

use ofgui_contracts::Num;
use ofgui_contracts::uam::{PackagePublish, ResourceFolder};

use super::names::{is_plain_id, is_safe_segment};
use super::values::{SIZE_OPTIONS, is_whole_in};

/// `''`, or a relative path (no leading separator or drive letter) without control
/// characters; `..` may climb out of the project directory.
pub fn is_publish_path(value: &str) -> bool {
    let bytes = value.as_bytes();
    let drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    !value.starts_with(['/', '\\']) && !drive && !value.chars().any(char::is_control)
}

/// One broken rule of a package's settings.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
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

/// The atlas slots `folders` use, by folder path (what [`problems`] takes): each folder
/// whose `atlas` is a number; `''` names no slot.
pub fn folder_atlases(folders: &[ResourceFolder]) -> Vec<(String, f64)> {
    folders
        .iter()
        .filter_map(|f| {
            f.atlas
                .parse::<f64>()
                .ok()
                .map(|slot| (f.path.clone(), slot))
        })
        .collect()
}

/// Every broken rule, in the order a fix would read them. `folder_atlases` are the atlas
/// slots the package's folders use, by folder path: `maxAtlasIndex` may not drop below one.
pub fn problems(
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
        if !is_publish_path(value) {
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
    pub fn key(&self) -> String {
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

    /// The problem without its list position, to compare problems of two snapshots
    /// whose lists may have shifted.
    pub fn unplaced(&self) -> Problem {
        let mut problem = self.clone();
        match &mut problem {
            Problem::AtlasIndex { k, .. }
            | Problem::AtlasIndexRepeated { k, .. }
            | Problem::AtlasName { k, .. }
            | Problem::AtlasEmpty { k }
            | Problem::ExcludedId { k, .. }
            | Problem::ExcludedIdRepeated { k, .. } => *k = 0,
            _ => {}
        }
        problem
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn publish_paths_may_climb_but_not_start_at_a_root() {
        for good in ["", "out/ui", "out\\ui", "../Assets/Resources/UI", "./x"] {
            assert!(is_publish_path(good), "{good}");
        }
        for bad in ["/out", "\\out", "c:out", "D:/Game", "a\u{7}b"] {
            assert!(!is_publish_path(bad), "{bad}");
        }
    }
}
