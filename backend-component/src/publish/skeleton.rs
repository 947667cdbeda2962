//! Spine and DragonBones skeletons: the files the runtime loads for them.
//!
//! Unlike atlases and raw files, a skeleton's files keep their original names and get no
//! `<Package>_` prefix (FairyGUI's guide to skeleton animation: `hero.json`, `hero.atlas`,
//! `hero.png` are copied as they are into the publish path). The item record names the
//! skeleton file, which the runtimes resolve beside the descriptor (Unity: the package's
//! directory plus `file`; Cocos Creator: the same without the extension; DragonBones finds
//! its texture json by replacing `_ske` with `_tex` in that name). The files a skeleton
//! `require`s (its atlas text and textures) are copied beside it; they are not items unless
//! something else publishes them, so their images are not packed into the atlases.
//!
//! Unity-like engines import files by extension: a binary skeleton (`.skel`, `.dbbin`) is
//! published with `.bytes` appended and a Spine atlas text with `.txt` appended, as the
//! spine-unity importer expects; Unity's loader strips `.skel` after the extension for this
//! (`UIPackage.LoadSpine`). Every other name is the original.

use ofgui_contracts::uam::{UamPackage, UamResource};

/// One file a skeleton publishes under its own (original) name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkeletonFile {
    /// The skeleton resource it is published for.
    pub skeleton_id: String,
    /// The resource whose file it is (the skeleton itself or one it requires).
    pub resource_id: String,
    /// The name in the output directory.
    pub name: String,
}

/// The name a skeleton's file is published as.
pub(crate) fn published_name(original: &str, unity_like: bool) -> String {
    let lower = original.to_ascii_lowercase();
    if unity_like {
        if lower.ends_with(".skel") || lower.ends_with(".dbbin") {
            return format!("{original}.bytes");
        }
        if lower.ends_with(".atlas") {
            return format!("{original}.txt");
        }
    }
    original.to_owned()
}

/// Whether the resource is a skeleton.
pub(crate) fn is_skeleton(resource: &UamResource) -> bool {
    matches!(
        resource,
        UamResource::Spine(_) | UamResource::DragonBones(_)
    )
}

/// The ids a skeleton's `require` attribute lists, in order.
pub(crate) fn required_ids(resource: &UamResource) -> Vec<&str> {
    let metadata = match resource {
        UamResource::Spine(r) | UamResource::DragonBones(r) => r.metadata.as_ref(),
        _ => None,
    };
    metadata
        .and_then(|m| m.get("require"))
        .and_then(|r| r.as_str())
        .map(|r| {
            r.split(',')
                .map(str::trim)
                .filter(|id| !id.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// The files of one skeleton: its own first, then those it requires that exist in the
/// package; the ids it requires that the package lacks come back separately.
pub(crate) fn files_of<'a>(
    package: &UamPackage,
    skeleton: &'a UamResource,
    unity_like: bool,
) -> (Vec<SkeletonFile>, Vec<&'a str>) {
    let mut files = vec![SkeletonFile {
        skeleton_id: skeleton.id().to_owned(),
        resource_id: skeleton.id().to_owned(),
        name: published_name(&skeleton.primary_file(), unity_like),
    }];
    let mut missing = Vec::new();
    for id in required_ids(skeleton) {
        match package.resources.iter().find(|r| r.id() == id) {
            Some(required) => files.push(SkeletonFile {
                skeleton_id: skeleton.id().to_owned(),
                resource_id: id.to_owned(),
                name: published_name(&required.primary_file(), unity_like),
            }),
            None => missing.push(id),
        }
    }
    (files, missing)
}

/// Every file the package's skeletons could publish under their own names, published or
/// not: what a publish of other packages must not collide with.
pub fn all_files(package: &UamPackage, unity_like: bool) -> Vec<SkeletonFile> {
    package
        .resources
        .iter()
        .filter(|r| is_skeleton(r))
        .flat_map(|r| files_of(package, r, unity_like).0)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::published_name;

    #[test]
    fn unity_gets_the_suffixes_its_importers_want() {
        assert_eq!(
            published_name("alien-pro.skel", true),
            "alien-pro.skel.bytes"
        );
        assert_eq!(
            published_name("alien-pma.atlas", true),
            "alien-pma.atlas.txt"
        );
        assert_eq!(published_name("dragon_ske.json", true), "dragon_ske.json");
        assert_eq!(published_name("d_ske.dbbin", true), "d_ske.dbbin.bytes");
        assert_eq!(published_name("alien-pma.png", true), "alien-pma.png");
        assert_eq!(published_name("alien-pro.skel", false), "alien-pro.skel");
        assert_eq!(published_name("alien-pma.atlas", false), "alien-pma.atlas");
    }
}
