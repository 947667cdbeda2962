//! An `addResource` payload made complete: the defaults of the fields it leaves out, a
//! generated id, and the record of what the server chose.
//!
//! Decisions where the spec is silent:
//! - Omitted flags are false, the branch is the main one, `branchItemIds` is `[]` and the
//!   folder is `/`: what the editor gives a file imported into the package root.
//! - An omitted `image` block is the one a bare `<image>` element reads as
//!   ([`crate::rules::assets`]), so the save writes the element the editor writes for a
//!   fresh import; an omitted `movieClip` block is likewise bare, then filled from the JTA.
//! - A generated id is six lower-case base-36 characters, like the editor's, unique in the
//!   package without regard to case, and never one that an operation of the same batch
//!   asks for. It is derived from the package and the file's place rather than drawn at
//!   random, so a preview and the apply that follows (or a replay of the batch after a
//!   backend restart) choose the same id.

use std::collections::BTreeSet;

use ofgui_contracts::ops::{NewAsset, NewAssetBase, Operation};
use ofgui_contracts::uam::{
    AssetBase, GenericAssetResource, ImageResource, MovieClipResource, UamPackage, UamResource,
};
use serde_json::{Map, Value};

use crate::rules::assets::{bare_image, bare_movie_clip};

/// The resource ids the operations of a batch ask for new resources (added resources,
/// components and the resources of added packages).
pub(super) fn requested_ids(operations: &[Operation]) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for op in operations {
        match op {
            Operation::AddResource(op) => {
                if let Some(id) = op.resource.asset.base().and_then(|b| b.id.clone()) {
                    ids.insert(id.to_lowercase());
                }
            }
            Operation::AddComponent(op) => {
                ids.insert(op.component.id.to_lowercase());
            }
            Operation::AddPackage(op) => {
                ids.extend(
                    op.package
                        .resources
                        .iter()
                        .map(|r| r.resource.id().to_lowercase()),
                );
            }
            _ => {}
        }
    }
    ids
}

/// The resource `asset` describes with every omitted field filled in; `None` for a
/// component, which `addResource` does not add.
pub(super) fn complete(
    asset: &NewAsset,
    package: &UamPackage,
    requested: &BTreeSet<String>,
) -> Option<UamResource> {
    let file = asset.file().map(|(_, file)| file).unwrap_or_default();
    let base = |sent: &NewAssetBase| {
        let path = sent.path.clone().unwrap_or_else(|| "/".into());
        let branch = sent.branch.clone().unwrap_or_default();
        AssetBase {
            id: sent
                .id
                .clone()
                .unwrap_or_else(|| fresh_id(package, &format!("{branch}:{path}{file}"), requested)),
            name: sent.name.clone().unwrap_or_default(),
            path,
            exported: sent.exported.unwrap_or(false),
            favorite: sent.favorite.unwrap_or(false),
            branch,
            branch_item_ids: sent.branch_item_ids.clone().unwrap_or_default(),
            source_path: sent.source_path.clone(),
        }
    };
    let generic = |sent: &ofgui_contracts::ops::NewGenericAsset| GenericAssetResource {
        base: base(&sent.base),
        file_name: sent.file_name.clone(),
        file: sent.file.clone(),
        dimensions: sent.dimensions.clone(),
        metadata: sent.metadata.clone(),
    };
    Some(match asset {
        NewAsset::Image(sent) => UamResource::Image(ImageResource {
            base: base(&sent.base),
            file_name: sent.file_name.clone(),
            dimensions: sent.dimensions.clone(),
            image: sent.image.clone().unwrap_or_else(bare_image),
        }),
        NewAsset::MovieClip(sent) => UamResource::MovieClip(MovieClipResource {
            base: base(&sent.base),
            file_name: sent.file_name.clone(),
            dimensions: sent.dimensions.clone().unwrap_or_default(),
            movie_clip: sent.movie_clip.clone().unwrap_or_else(bare_movie_clip),
        }),
        NewAsset::Sound(sent) => UamResource::Sound(generic(sent)),
        NewAsset::Misc(sent) => UamResource::Misc(generic(sent)),
        NewAsset::Font(sent) => UamResource::Font(generic(sent)),
        NewAsset::Spine(sent) => UamResource::Spine(generic(sent)),
        NewAsset::DragonBones(sent) => UamResource::DragonBones(generic(sent)),
        NewAsset::Component(_) => return None,
    })
}

/// Every field of `added` that `sent` left out or that the server set otherwise, with
/// its value.
pub(super) fn chosen(sent: &NewAsset, added: &UamResource) -> Map<String, Value> {
    let as_object = |value: serde_json::Result<Value>| match value {
        Ok(Value::Object(object)) => object,
        _ => Map::new(),
    };
    let sent = as_object(serde_json::to_value(sent));
    as_object(serde_json::to_value(added))
        .into_iter()
        .filter(|(field, value)| sent.get(field) != Some(value))
        .collect()
}

/// A resource id for `package` in the editor's style, derived from `seed`: the first of
/// a fixed sequence of candidates that no resource of the package has (ignoring case)
/// and that the batch does not ask for.
fn fresh_id(package: &UamPackage, seed: &str, requested: &BTreeSet<String>) -> String {
    let taken: BTreeSet<String> = package
        .resources
        .iter()
        .map(|r| r.id().to_lowercase())
        .collect();
    (0u32..)
        .map(|attempt| base36(fnv1a(&format!("{}\0{seed}\0{attempt}", package.id)), 6))
        .find(|id| !taken.contains(id) && !requested.contains(id))
        .expect("a 36^6 id space has a free id")
}

/// 64-bit FNV-1a: stable across platforms and releases, unlike the standard hasher.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The last `len` base-36 digits of `value`, lower case.
fn base36(mut value: u64, len: usize) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = vec![b'0'; len];
    for slot in out.iter_mut().rev() {
        *slot = DIGITS[(value % 36) as usize];
        value /= 36;
    }
    String::from_utf8(out).expect("base-36 digits are ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_look_like_the_editors() {
        let id = base36(fnv1a("pkg:/icon.png"), 6);
        assert_eq!(id.len(), 6);
        assert!(
            id.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        );
        assert_eq!(base36(35, 3), "00z");
        assert_eq!(base36(36, 3), "010");
    }
}
