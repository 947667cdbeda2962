//! Publishing: from the model to what the FairyGUI runtimes load.
//!
//! One job: turn a package of a [`UamProject`] into the binary package descriptor the
//! FairyGUI editor publishes (`<Package>_fui.bytes`; the format is `tests/fui/FORMAT.md`,
//! the editor's habits beyond the format `tests/fui/EDITOR.md`) and the atlas pages beside
//! it. It reads only the model, plus the bytes of asset files where a field needs them (a
//! bitmap font's `.fnt` text, images and movie-clip frames for the atlases), handed in by
//! the caller; it never touches the filesystem and never panics on any model.
//!
//! What it may use: the model (`ofgui_contracts::uam`), `rules` (value tables), `lookup`
//! (ui:// URLs), `formats` (BMFont and JTA files) and the image decoder of `render::image`.
//!
//! Done: the descriptor's header, dependencies, items and the full content of every
//! component; `atlas`: sprites, atlas items and pages, pixel hit-test data; `skeleton`:
//! Spine and DragonBones files under their own names; branches ([`Branches`]): all of
//! them beside the main resources (with atlases of their own if asked), or one merged;
//! `high_resolution`: `@2x`… variants. Not yet: compression (see `atlas` for what the
//! atlases leave out).
//!
//! Files, each using only those after it: `items` (which resources are published, in what
//! order, and their records), `atlas` (pictures, packing, pages, sprite and hit-test
//! segments), `refs` (what a resource refers to), `component` (a component's buffer),
//! `child` (one display-list entry), `instance` (a component instance's overrides), `gears`,
//! `transitions`, `skeleton` (a skeleton's files), `high_resolution` (variants by scale), `kinds` (item and object types), `blocks` (blocks components and children
//! share), `scope` (ids and names to indexes), `values` (model values as the format wants
//! them), `walk` (the strings inside a model value), [`buffer`] (bytes, string table,
//! position tables).

mod atlas;
mod blocks;
pub mod buffer;
mod child;
mod component;
mod gears;
mod high_resolution;
mod instance;
mod items;
mod kinds;
mod package;
mod refs;
mod scope;
mod skeleton;
mod transitions;
mod values;
mod walk;

use std::collections::BTreeMap;

use ofgui_contracts::uam::{UamPackage, UamProject, UamResource};

use crate::lookup::urls::Urls;
use crate::lookup::{Lookup, find_package_by_key};
use atlas::HalfSide;
pub use atlas::{AtlasPage, PagePixels};
use buffer::{Buf, Offsets, Strings, with_blocks};
pub use package::{
    BLOCKING_CODES, DescriptorNaming, LEFT_OUT_CODES, PublishWarning, PublishedFile,
    PublishedPackage, is_unity_like, publish_package,
};
pub use skeleton::{SkeletonFile, all_files as skeleton_files};

/// The descriptor format version today's editor writes.
pub const CURRENT_VERSION: i32 = 7;
/// The oldest version this publisher writes (the runtimes read 2 and later as today).
pub const OLDEST_VERSION: i32 = 2;

/// How to publish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublishOptions {
    /// The format version, 2 to 7. The version also selects the habits of the editor that
    /// wrote it, where they differ (see [`Habits`]).
    pub version: i32,
    pub branches: Branches,
}

impl Default for PublishOptions {
    fn default() -> Self {
        PublishOptions {
            version: CURRENT_VERSION,
            branches: Branches::default(),
        }
    }
}

/// What a package publishes of its branches (`settings/Publish.json` `branchProcessing`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Branches {
    /// Every branch's resources beside the main ones, the header listing the branches and
    /// each main item its variants (`branchProcessing` 0). With `separate_atlases`
    /// (`seperatedAtlasForBranch`) a branch's pictures get atlases of their own.
    All { separate_atlases: bool },
    /// The main resources, with those of the named branch in place of the ones they are
    /// variants of; no branch at all for `None`. The header lists no branches, so the
    /// runtime registers a merged item also under the main id its record names (Unity's
    /// `LoadPackage` without `branchIncluded`); other branches are left out.
    Merged(Option<String>),
}

impl Default for Branches {
    fn default() -> Self {
        Branches::All {
            separate_atlases: false,
        }
    }
}

/// Why a descriptor could not be produced.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PublishError {
    /// No package has this id or name.
    #[error("no package has the id or name {0:?}")]
    NoSuchPackage(String),
    /// More than one package has this name (ids are unique).
    #[error("more than one package is named {0:?}; name it by id")]
    AmbiguousPackage(String),
    /// The version is outside what the format defines.
    #[error("descriptor version {0} is not supported (2 to 7 are)")]
    UnsupportedVersion(i32),
    /// A list holds more entries than its count field can say.
    #[error("too many {what} for the descriptor format (at most {limit})")]
    TooMany { what: &'static str, limit: usize },
    /// A record is longer than its length field can say.
    #[error("a {what} record is too long for the descriptor format")]
    TooLong { what: &'static str },
    /// A number of the model does not fit the field that carries it.
    #[error("{what} = {value} does not fit the descriptor format")]
    OutOfRange { what: &'static str, value: f64 },
    /// The package's name cannot be a file name's first part.
    #[error("the package name {0:?} cannot name a file; rename the package")]
    UnpublishableName(String),
    /// An atlas page could not be written as PNG.
    #[error("atlas page {file} could not be encoded: {reason}")]
    PageEncoding { file: String, reason: String },
}

/// One published descriptor.
#[derive(Clone, Debug, PartialEq)]
pub struct Descriptor {
    /// The package's id.
    pub package_id: String,
    /// The package's name (the runtime loads `<name>_fui.bytes`).
    pub package_name: String,
    /// The descriptor's bytes.
    pub bytes: Vec<u8>,
    /// The raw files (sounds, other files) the item records name, to publish beside it.
    pub raw_files: Vec<RawFile>,
    /// The atlas pages the atlas items name, to publish beside it (`<name>_<file>`).
    pub atlas_pages: Vec<AtlasPage>,
    /// The files of the published skeletons, published under their own names.
    pub skeleton_files: Vec<SkeletonFile>,
    /// What could not go into the atlases (unreadable pictures, pages past the settings).
    pub warnings: Vec<PublishWarning>,
}

/// A resource published as its own file: the runtime loads `<Package>_<file>`.
#[derive(Clone, Debug, PartialEq)]
pub struct RawFile {
    pub resource_id: String,
    /// As the item record names it: `<id>.<ext>`.
    pub file: String,
}

/// Where the editors that wrote different versions differ in what they write, beyond the
/// format. Only the two editors seen in real output are known: the one that wrote version
/// 2 and today's (version 7); versions 3 to 6 take today's habits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Habits {
    /// The old editor lists the package itself as a dependency when a text field uses a
    /// bitmap font of the package by URL (EDITOR.md).
    pub self_font_dependency: bool,
    /// Today's editor writes trim data for every image and font sprite; the old one only
    /// for sprites trimmed or rotated (EDITOR.md).
    pub trim_data_always: bool,
    /// Today's editor writes pages with their pictures' own pixels; the old one rounded
    /// them through premultiplied bytes.
    pub page_pixels: PagePixels,
    /// How a pixel hit-test mask halves an odd side.
    pub hit_test_half: HalfSide,
}

impl Habits {
    fn of(version: i32) -> Self {
        Habits {
            self_font_dependency: version <= OLDEST_VERSION,
            trim_data_always: version > OLDEST_VERSION,
            page_pixels: if version <= OLDEST_VERSION {
                PagePixels::OldEditorRounding
            } else {
                PagePixels::AsStored
            },
            hit_test_half: if version <= OLDEST_VERSION {
                HalfSide::Down
            } else {
                HalfSide::ToEven
            },
        }
    }
}

/// What every writer of one descriptor shares.
pub(crate) struct Ctx<'a> {
    pub version: i32,
    pub habits: Habits,
    pub project: &'a UamProject,
    pub package: &'a UamPackage,
    /// Whether the engine is Unity-like, which names skeleton files (see `skeleton`).
    pub unity_like: bool,
    /// Branch pictures are packed into atlases of their own.
    pub separate_branch_atlases: bool,
    /// In a merged publish, the main id each merged branch resource stands for, and the
    /// branch resource each replaced main id now is.
    pub merged: Option<Merge>,
    pub urls: Urls<'a>,
    /// Asset bytes by project-relative source path.
    pub assets: &'a BTreeMap<String, Vec<u8>>,
    /// Base image id → its high-resolution variants' ids by scale (see `high_resolution`).
    pub high_resolution: BTreeMap<String, Vec<String>>,
    pub strings: Strings,
}

/// A merged package's renames (see [`Branches::Merged`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Merge {
    /// Branch resource id → the main id it replaces.
    pub stands_for: BTreeMap<String, String>,
    /// Main id → the branch resource replacing it.
    pub replaced_by: BTreeMap<String, String>,
}

/// The package as a merged publish sees it: the main resources, those of `branch` in
/// place of the ones they vary, no other branch, no branch list.
fn merged_view(package: &UamPackage, branch: Option<&str>) -> (UamPackage, Merge) {
    let mut merge = Merge::default();
    let slot = branch.and_then(|b| package.branch_names.iter().position(|n| n == b));
    if let (Some(branch), Some(slot)) = (branch, slot) {
        for main in package.resources.iter().filter(|r| r.branch().is_empty()) {
            let Some(variant) = main.branch_item_ids().get(slot).filter(|id| !id.is_empty()) else {
                continue;
            };
            let exists = package
                .resources
                .iter()
                .any(|r| r.id() == variant && r.branch() == branch);
            if exists {
                merge
                    .stands_for
                    .insert(variant.clone(), main.id().to_owned());
                merge
                    .replaced_by
                    .insert(main.id().to_owned(), variant.clone());
            }
        }
    }
    let mut view = package.clone();
    view.branch_names.clear();
    view.resources.retain(|r| {
        if r.branch().is_empty() {
            !merge.replaced_by.contains_key(r.id())
        } else {
            branch.is_some_and(|b| slot.is_some() && r.branch() == b)
        }
    });
    (view, merge)
}

/// Publishes the descriptor of one package (by id, or by name when no id matches).
/// `assets` holds asset bytes by project-relative source path, as the reader keeps them
/// (`ProjectSource::bytes`).
pub fn publish_descriptor(
    project: &UamProject,
    assets: &BTreeMap<String, Vec<u8>>,
    package: &str,
    options: &PublishOptions,
) -> Result<Descriptor, PublishError> {
    if !(OLDEST_VERSION..=CURRENT_VERSION).contains(&options.version) {
        return Err(PublishError::UnsupportedVersion(options.version));
    }
    let package = find_package(project, package)?;
    let (view, merged) = match &options.branches {
        Branches::Merged(branch) => {
            let (view, merge) = merged_view(package, branch.as_deref());
            (Some(view), Some(merge))
        }
        Branches::All { .. } => (None, None),
    };
    let package = view.as_ref().unwrap_or(package);
    let mut ctx = Ctx {
        version: options.version,
        habits: Habits::of(options.version),
        project,
        package,
        unity_like: package::is_unity_like(project),
        separate_branch_atlases: matches!(
            options.branches,
            Branches::All {
                separate_atlases: true
            }
        ),
        merged,
        urls: Urls::new(project),
        assets,
        high_resolution: high_resolution::variants(project, package),
        strings: Strings::default(),
    };
    let published = items::select(&ctx)?;
    let raw_files = published
        .iter()
        .filter(|r| matches!(r, UamResource::Sound(_) | UamResource::Misc(_)))
        .map(|r| RawFile {
            resource_id: r.id().to_owned(),
            file: items::raw_file_name(r),
        })
        .collect();

    let mut atlas = atlas::build(&ctx, &published);
    let mut skeleton_files = Vec::new();
    for resource in published.iter().filter(|r| skeleton::is_skeleton(r)) {
        let (files, missing) = skeleton::files_of(package, resource, ctx.unity_like);
        skeleton_files.extend(files);
        for id in missing {
            atlas.warnings.push(PublishWarning {
                code: "missing_source",
                resource_id: Some(resource.id().to_owned()),
                message: format!(
                    "skeleton {} requires resource {id}, which the package does not have, so \
                     its file is not published; the runtime will fail to load the skeleton",
                    resource.id()
                ),
            });
        }
    }

    // Segments in file order, so the string table is in first-reference order.
    let dependencies = items::dependencies(&mut ctx, &published)?;
    let items_segment = items::write_items(&mut ctx, &published, &atlas.pages)?;
    let sprites = atlas.write_sprites(&mut ctx)?;
    let hit_tests = atlas.write_hit_tests(&mut ctx)?;
    let (strings, long_strings) = ctx.strings.segments()?;

    let mut out = Buf::default();
    out.bytes(b"FGUI");
    out.i32(options.version);
    out.bool(false);
    out.raw_str(&package.id)?;
    out.raw_str(&package.name)?;
    out.bytes(&[0; 20]);
    let segments = with_blocks(
        Offsets::Long,
        vec![
            Some(dependencies),
            Some(items_segment),
            Some(sprites),
            hit_tests,
            Some(strings),
            long_strings,
        ],
        "segment index",
    )?;
    out.bytes(segments.as_bytes());
    Ok(Descriptor {
        package_id: package.id.clone(),
        package_name: package.name.clone(),
        bytes: out.into_bytes(),
        raw_files,
        atlas_pages: atlas.pages,
        skeleton_files,
        warnings: atlas.warnings,
    })
}

fn find_package<'a>(project: &'a UamProject, key: &str) -> Result<&'a UamPackage, PublishError> {
    match find_package_by_key(project, key) {
        Lookup::Found(package) => Ok(package),
        Lookup::Ambiguous(_) => Err(PublishError::AmbiguousPackage(key.to_owned())),
        Lookup::NotFound(_) => Err(PublishError::NoSuchPackage(key.to_owned())),
    }
}
