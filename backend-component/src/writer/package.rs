//! The canonical form of a package's description files, `package.xml`
//! (`<packageDescription>`) and `assets_<branch>/<Package>/package_branch.xml`
//! (`<branchDescription>`): the exact inverse of `reader::package`.
//!
//! Saving builds the canonical form of the package as read and as now and patches only
//! their difference into the original bytes ([`package_document`], [`branch_document`]);
//! materializing writes the canonical form whole ([`package_xml`], [`branch_xml`]).
//!
//! Attribute orders come from the 32 `package.xml` files and the `package_branch.xml` of
//! the two real corpora where they show one (`id name path exported` on every resource,
//! `scale scale9grid` then `duplicatePadding` on images, `texture` and `renderMode
//! samplePointSize` after `exported` on fonts, `width height require atlasNames anchor`
//! on skeletons, `id jpegQuality compressPNG` on the root, `name index` on atlases), and
//! from the editor's attribute protocol (upstream's `PROJECT_XML_PROTOCOL`) for what the
//! corpora never show (`favorite`, `atlas`, `gridTile`, `qualityOption`, `quality`,
//! `smoothing`, the publish settings, folders).
//!
//! What the editor leaves out at its default is left out: `exported`/`favorite` unless
//! true, image `smoothing` unless false, `duplicatePadding` unless true, `maxAtlasIndex`
//! at 10, empty strings. Decisions where the editor's files say nothing:
//! - Resources keep the model's order (the files are in the editor's insertion order, not
//!   sorted); main-branch resources go to `package.xml`, each branch's to its
//!   `package_branch.xml`.
//! - A folder exists as a directory; a `<folder id="/a/b/" name="b" path="/a/">` element
//!   is written only for a folder with metadata (favorite, atlas slot), in the file of its
//!   branch, before the resources. Creating and removing the directories is the commit's.
//! - Image `width`/`height` are written only for non-raster files (SVG): a PNG's or JPEG's
//!   header is its size (the reader takes it from there, and the editor writes none).
//!   Movie clips take theirs from the `.jta`, so none either.
//! - `branchNames` (a slot table the editor does not write) is written only when the
//!   reader could not derive it from the branch directories: when it is not in sorted
//!   order, or when the original file already has one.
//! - `hasFavorites="true"` (which the reader ignores) is derived: some resource or folder
//!   of the package, on any branch, is a favorite.

use std::collections::BTreeSet;
use std::sync::Mutex;

use ofgui_contracts::uam::{
    ComponentResource, GenericAssetResource, ImageResource, MovieClipResource, PackagePublish,
    ResourceFolder, UamPackage, UamResource,
};
use serde_json::Value;

use super::element::Element;
use super::lexical::{flag, number};
use super::patch::{Unpatchable, patch_element};
use crate::formats::Raster;
use crate::reader::{DeclaredFile, declared_file};
use crate::source::xml::XmlPatch;

/// `<packageDescription>`: `id jpegQuality compressPNG` in every corpus file.
const PACKAGE_ORDER: &[&str] = &[
    "id",
    "branchNames",
    "hasFavorites",
    "jpegQuality",
    "compressPNG",
];
const FOLDER_ORDER: &[&str] = &["id", "name", "path", "favorite", "atlas"];
const COMPONENT_ORDER: &[&str] = &["id", "name", "path", "exported", "favorite"];
const IMAGE_ORDER: &[&str] = &[
    "id",
    "name",
    "path",
    "exported",
    "favorite",
    "atlas",
    "scale",
    "scale9grid",
    "width",
    "height",
    "gridTile",
    "qualityOption",
    "quality",
    "duplicatePadding",
    "smoothing",
];
const MOVIE_CLIP_ORDER: &[&str] = &[
    "id",
    "name",
    "path",
    "exported",
    "favorite",
    "atlas",
    "smoothing",
];
const FONT_ORDER: &[&str] = &[
    "id",
    "name",
    "path",
    "exported",
    "favorite",
    "texture",
    "renderMode",
    "samplePointSize",
];
const SKELETON_ORDER: &[&str] = &[
    "id",
    "name",
    "path",
    "exported",
    "favorite",
    "width",
    "height",
    "require",
    "atlasNames",
    "anchor",
];
/// `sound`, `misc` and the legacy `swf`.
const FILE_ORDER: &[&str] = &["id", "name", "path", "exported", "favorite"];
const PUBLISH_ORDER: &[&str] = &[
    "name",
    "path",
    "branchPath",
    "packageCount",
    "genCode",
    "codePath",
    "maxAtlasSize",
    "sizeOption",
    "npot",
    "square",
    "rotation",
    "multiPage",
    "extractAlpha",
    "maxAtlasIndex",
    "excluded",
];
/// `<atlas name="Default" index="0"/>` in the corpora.
const ATLAS_ORDER: &[&str] = &["name", "index", "compression"];

/// The attributes every resource element starts with; never taken from `metadata`.
const COMMON_ATTRIBUTES: [&str; 5] = ["id", "name", "path", "exported", "favorite"];

/// The XML declaration the editor starts every file with.
const DECLARATION: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n";

/// The whole canonical `package.xml` of `package` (what materialize writes).
pub fn package_xml(package: &UamPackage) -> String {
    file_text(&package_element(package))
}

/// The whole canonical `package_branch.xml` of `package` on `branch`.
pub fn branch_xml(package: &UamPackage, branch: &str) -> String {
    file_text(&branch_element(package, branch))
}

fn file_text(root: &Element) -> String {
    // The editor ends its description files without a newline.
    format!("{DECLARATION}{}", root.markup())
}

/// The canonical `<packageDescription>` of `package`.
pub fn package_element(package: &UamPackage) -> Element {
    package_element_with(package, false)
}

/// With `keep_branch_names`, the slot table is written even where the reader could derive
/// it (the original file has one, so it must follow the model).
fn package_element_with(package: &UamPackage, keep_branch_names: bool) -> Element {
    let mut root = Element::new("packageDescription", PACKAGE_ORDER);
    root.set("id", &package.id);
    let names = &package.branch_names;
    let derivable = names.windows(2).all(|pair| pair[0] < pair[1]);
    if keep_branch_names || !derivable {
        root.set(
            "branchNames",
            serde_json::to_string(names).unwrap_or_default(),
        );
    }
    let favorites = package.resources.iter().any(|r| r.favorite())
        || package.folders.iter().any(|f| f.favorite);
    if favorites {
        root.set("hasFavorites", "true");
    }
    if let Some(quality) = package.jpeg_quality {
        root.set("jpegQuality", number(quality));
    }
    if let Some(compress) = package.compress_png {
        root.set("compressPNG", flag(compress));
    }
    root.children.push(resources_element(package, ""));
    if let Some(publish) = &package.publish {
        root.children.push(publish_element(publish));
    }
    root
}

/// The canonical `<branchDescription>` of `package` on `branch`.
pub fn branch_element(package: &UamPackage, branch: &str) -> Element {
    let mut root = Element::new("branchDescription", &[]);
    root.children.push(resources_element(package, branch));
    root
}

/// `<resources>`: the folder metadata, then the resources of one branch in model order.
fn resources_element(package: &UamPackage, branch: &str) -> Element {
    let mut resources = Element::new("resources", &[]);
    resources.children.extend(
        package
            .folders
            .iter()
            .filter(|f| f.branch == branch && (f.favorite || !f.atlas.is_empty()))
            .map(folder_element),
    );
    resources.children.extend(
        package
            .resources
            .iter()
            .filter(|r| r.branch() == branch)
            .map(|r| resource_element(r)),
    );
    resources
}

fn folder_element(folder: &ResourceFolder) -> Element {
    let mut element = Element::new("folder", FOLDER_ORDER);
    let inner = folder.path.trim_end_matches('/');
    let (parent, name) = inner.rsplit_once('/').unwrap_or(("", inner));
    element.set("id", &folder.path);
    element.set("name", name);
    element.set("path", format!("{parent}/"));
    if folder.favorite {
        element.set("favorite", "true");
    }
    element.set_unless("atlas", &folder.atlas, "");
    element.keyed("id")
}

/// One resource element, keyed by `id`.
pub fn resource_element(resource: &UamResource) -> Element {
    let element = match resource {
        UamResource::Component(component) => component_element(component),
        UamResource::Image(image) => image_element(image),
        UamResource::MovieClip(clip) => movie_clip_element(clip),
        UamResource::Font(font) => generic_element("font", FONT_ORDER, font, false),
        UamResource::Sound(sound) => generic_element("sound", FILE_ORDER, sound, false),
        UamResource::Misc(misc) => {
            let swf = misc
                .metadata
                .as_ref()
                .and_then(|m| m.get("tag"))
                .is_some_and(|tag| tag == "swf");
            let tag = if swf { "swf" } else { "misc" };
            generic_element(tag, FILE_ORDER, misc, false)
        }
        UamResource::Spine(spine) => generic_element("spine", SKELETON_ORDER, spine, true),
        UamResource::DragonBones(bones) => {
            generic_element("dragonbones", SKELETON_ORDER, bones, true)
        }
    };
    element.keyed("id")
}

/// `id name path [exported] [favorite]`.
fn common(element: &mut Element, id: &str, file: &str, path: &str, exported: bool, favorite: bool) {
    element.set("id", id);
    element.set("name", file);
    element.set("path", path);
    if exported {
        element.set("exported", "true");
    }
    if favorite {
        element.set("favorite", "true");
    }
}

fn component_element(component: &ComponentResource) -> Element {
    let mut element = Element::new("component", COMPONENT_ORDER);
    common(
        &mut element,
        &component.id,
        &component_file(component),
        &component.path,
        component.exported,
        component.favorite,
    );
    element
}

/// A component's file name: as its source path spells it when that still reads as the
/// component's name (`Main.XML`, or a file without `.xml`), else `<name>.xml`.
fn component_file(component: &ComponentResource) -> String {
    let read_name = |file: &str| {
        file.len()
            .checked_sub(4)
            .filter(|&cut| file.is_char_boundary(cut))
            .filter(|&cut| file[cut..].eq_ignore_ascii_case(".xml"))
            .map_or(file, |cut| &file[..cut])
            .to_owned()
    };
    component
        .source_path
        .as_deref()
        .and_then(|path| path.rsplit('/').next())
        .filter(|file| read_name(file) == component.name)
        .map_or_else(|| format!("{}.xml", component.name), str::to_owned)
}

fn image_element(image: &ImageResource) -> Element {
    let mut element = Element::new("image", IMAGE_ORDER);
    let base = &image.base;
    let file = resource_file(image.file_name.as_deref(), None, &base.name);
    common(
        &mut element,
        &base.id,
        &file,
        &base.path,
        base.exported,
        base.favorite,
    );
    let props = &image.image;
    element.set_unless("atlas", &props.texture_set_mode, "");
    match (props.scale_option, &props.scale9_grid) {
        (1, Some(grid)) => {
            element.set("scale", "9grid");
            element.set("scale9grid", super::lexical::numbers(grid));
        }
        (2, _) => element.set("scale", "tile"),
        _ => {}
    }
    if Raster::of_name(&file).is_none()
        && let Some(size) = &image.dimensions
    {
        element.set("width", number(size.width));
        element.set("height", number(size.height));
    }
    element.set_unless("gridTile", number(props.tile_grid_indice), "0");
    element.set_unless("qualityOption", &props.quality_option, "");
    if props.quality_option == "custom" || props.quality.get() != 0.0 {
        element.set("quality", number(props.quality));
    }
    if props.duplicate_padding {
        element.set("duplicatePadding", "true");
    }
    if !props.smoothing {
        element.set("smoothing", "false");
    }
    element
}

fn movie_clip_element(clip: &MovieClipResource) -> Element {
    let mut element = Element::new("movieclip", MOVIE_CLIP_ORDER);
    let base = &clip.base;
    common(
        &mut element,
        &base.id,
        &resource_file(clip.file_name.as_deref(), None, &base.name),
        &base.path,
        base.exported,
        base.favorite,
    );
    if !clip.movie_clip.smoothing {
        element.set("smoothing", "false");
    }
    element
}

/// Fonts, sounds, misc files and skeletons: the common attributes, a skeleton's size,
/// then the kind's own attributes as the reader kept them (`metadata`, in file order).
fn generic_element(
    tag: &'static str,
    order: &'static [&'static str],
    asset: &GenericAssetResource,
    skeleton: bool,
) -> Element {
    let mut element = Element::new(tag, order);
    let base = &asset.base;
    common(
        &mut element,
        &base.id,
        &resource_file(
            asset.file_name.as_deref(),
            asset.file.as_deref(),
            &base.name,
        ),
        &base.path,
        base.exported,
        base.favorite,
    );
    if skeleton && let Some(size) = &asset.dimensions {
        element.set("width", number(size.width));
        element.set("height", number(size.height));
    }
    for (key, value) in asset.metadata.iter().flatten() {
        let sized = skeleton && (key == "width" || key == "height");
        // `tag` marks a legacy <swf> element; it is the element's name, not an attribute.
        let marker = tag == "swf" && key == "tag";
        if COMMON_ATTRIBUTES.contains(&key.as_str()) || sized || marker {
            continue;
        }
        let text = match value {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        element.set(attribute_name(key), text);
    }
    element
}

/// The primary file name: `fileName ?? file ?? name`.
fn resource_file(file_name: Option<&str>, file: Option<&str>, name: &str) -> String {
    file_name.or(file).unwrap_or(name).to_owned()
}

/// `Element` names attributes with `&'static str`; the kind attributes a reader kept are
/// the editor's known few, and any other name is interned once for the life of the
/// backend (a project has a handful at most), rather than dropped from the output.
fn attribute_name(key: &str) -> &'static str {
    const KNOWN: &[&str] = &[
        "texture",
        "renderMode",
        "samplePointSize",
        "require",
        "atlasNames",
        "anchor",
        "width",
        "height",
        "atlas",
        "smoothing",
        "tag",
    ];
    if let Some(known) = KNOWN.iter().find(|known| **known == key) {
        return known;
    }
    static INTERNED: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let mut interned = INTERNED.lock().unwrap_or_else(|poison| poison.into_inner());
    if let Some(name) = interned.get(key) {
        return name;
    }
    let name: &'static str = Box::leak(key.to_owned().into_boxed_str());
    interned.insert(name);
    name
}

fn publish_element(publish: &PackagePublish) -> Element {
    let mut element = Element::new("publish", PUBLISH_ORDER);
    element.set("name", &publish.name);
    element.set_unless("path", &publish.path, "");
    element.set_unless("branchPath", &publish.branch_path, "");
    element.set_unless("packageCount", number(publish.package_count), "0");
    if publish.gen_code {
        element.set("genCode", "true");
    }
    element.set_unless("codePath", &publish.code_path, "");
    if !publish.use_global_atlas_settings {
        element.set("maxAtlasSize", number(publish.max_atlas_size));
        element.set("sizeOption", &publish.size_option);
        element.set("square", flag(publish.force_square));
        element.set("rotation", flag(publish.allow_rotation));
        element.set("multiPage", flag(publish.paging));
    } else if publish.size_option == "npot" {
        // Older editors' spelling, the one way a package on the global atlas settings
        // reads a size option of its own.
        element.set("npot", "true");
    }
    if publish.extract_alpha {
        element.set("extractAlpha", "true");
    }
    element.set_unless("maxAtlasIndex", number(publish.max_atlas_index), "10");
    element.set_unless("excluded", publish.excluded_resource_ids.join(","), "");
    for atlas in &publish.atlases {
        let mut child = Element::new("atlas", ATLAS_ORDER);
        child.set_unless("name", &atlas.name, "");
        child.set("index", number(atlas.index));
        if atlas.compression {
            child.set("compression", "true");
        }
        element.children.push(child.keyed("index"));
    }
    element
}

/// One side of a `package_branch.xml` change: the package and the branch the file is of
/// (a renamed branch is the same file under a new directory).
#[derive(Clone, Copy, Debug)]
pub struct BranchPart<'a> {
    pub package: &'a UamPackage,
    pub branch: &'a str,
}

/// The patched `package.xml` of a package whose model went from `old` to `new`, given the
/// file's `original` text (a byte-order mark is kept); `None` when nothing the file holds
/// changed.
pub fn package_document(
    original: &str,
    old: &UamPackage,
    new: &UamPackage,
) -> Result<Option<String>, Unpatchable> {
    let (bom, text) = split_bom(original);
    let parsed = roxmltree::Document::parse(text);
    let keep = parsed
        .as_ref()
        .is_ok_and(|doc| doc.root_element().has_attribute("branchNames"));
    let before = package_element_with(old, keep);
    let after = package_element_with(new, keep);
    if before == after {
        return Ok(None);
    }
    let doc = parsed.map_err(|e| unparsable("package.xml", &e))?;
    let patched = patch_root(
        text,
        &doc,
        "packageDescription",
        &before,
        &after,
        "package.xml",
    )?;
    verify(&patched, &after, &new.name, "", "package.xml")?;
    Ok(Some(format!("{bom}{patched}")))
}

/// The patched `package_branch.xml` of one branch of a package; `None` when nothing the
/// file holds changed.
pub fn branch_document(
    original: &str,
    old: BranchPart<'_>,
    new: BranchPart<'_>,
) -> Result<Option<String>, Unpatchable> {
    let before = branch_element(old.package, old.branch);
    let after = branch_element(new.package, new.branch);
    if before == after {
        return Ok(None);
    }
    let (bom, text) = split_bom(original);
    let doc = roxmltree::Document::parse(text).map_err(|e| unparsable("package_branch.xml", &e))?;
    let patched = patch_root(
        text,
        &doc,
        "branchDescription",
        &before,
        &after,
        "package_branch.xml",
    )?;
    verify(
        &patched,
        &after,
        &new.package.name,
        new.branch,
        "package_branch.xml",
    )?;
    Ok(Some(format!("{bom}{patched}")))
}

/// The original text after its UTF-8 byte-order mark, which the reader skips too.
pub(super) fn split_bom(original: &str) -> (&str, &str) {
    match original.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", original),
    }
}

pub(super) fn unparsable(file: &str, error: &roxmltree::Error) -> Unpatchable {
    Unpatchable {
        at: file.to_owned(),
        reason: format!("the file is not well-formed XML ({error}), so it cannot be patched"),
    }
}

/// Patches the document's root element from `before` to `after`.
pub(super) fn patch_root(
    text: &str,
    doc: &roxmltree::Document,
    tag: &str,
    before: &Element,
    after: &Element,
    file: &str,
) -> Result<String, Unpatchable> {
    let root = doc.root_element();
    if root.tag_name().name() != tag {
        return Err(Unpatchable {
            at: file.to_owned(),
            reason: format!(
                "the root element is <{}>, not <{tag}>",
                root.tag_name().name()
            ),
        });
    }
    let mut patch = XmlPatch::new(text);
    patch_element(&mut patch, root, before, after, file)?;
    patch.finish().map_err(|conflict| Unpatchable {
        at: file.to_owned(),
        reason: format!("the edits of the file overlap ({conflict})"),
    })
}

/// Reads the patched file back as the reader would and compares it with the canonical
/// form of the new model: a patch that keeps something the reader reads but the
/// canonical form does not write (a legacy spelling, a duplicate, an element elsewhere)
/// is refused instead of written.
fn verify(
    patched: &str,
    canonical: &Element,
    dir: &str,
    branch: &str,
    file: &str,
) -> Result<(), Unpatchable> {
    let expected = declared_file(&file_text(canonical), dir, branch);
    let got = declared_file(patched, dir, branch);
    let (expected, got) = match (expected, got) {
        (Ok(expected), Ok(got)) => (comparable(expected), comparable(got)),
        (_, Err(message)) | (Err(message), _) => {
            return Err(Unpatchable {
                at: file.to_owned(),
                reason: format!("the patched file would not read back: {message}"),
            });
        }
    };
    match first_difference(&expected, &got) {
        None => Ok(()),
        Some((at, what)) => Err(Unpatchable {
            at: format!("{file}/{at}"),
            reason: format!(
                "the patched file would read back with a different {what} than the model (the file holds something the editor's form does not, such as a legacy attribute or a duplicate entry)"
            ),
        }),
    }
}

/// What the files say, without what the resource files decide: a raster image's size
/// comes from its header and a movie clip's from its `.jta`.
fn comparable(mut declared: DeclaredFile) -> DeclaredFile {
    for resource in &mut declared.resources {
        match resource {
            UamResource::Image(image)
                if Raster::of_name(&resource_file(
                    image.file_name.as_deref(),
                    None,
                    &image.base.name,
                ))
                .is_some() =>
            {
                image.dimensions = None;
            }
            UamResource::MovieClip(clip) => clip.dimensions = Default::default(),
            _ => {}
        }
    }
    declared
}

/// Where two readings first differ, and in what.
fn first_difference(expected: &DeclaredFile, got: &DeclaredFile) -> Option<(String, &'static str)> {
    let root = "packageDescription";
    if expected.package != got.package {
        let what = if expected.package.publish != got.package.publish {
            "publish settings"
        } else {
            "package attribute"
        };
        return Some((root.to_owned(), what));
    }
    if expected.branch_names != got.branch_names {
        return Some((root.to_owned(), "branch slot table"));
    }
    let count = expected.resources.len().max(got.resources.len());
    for index in 0..count {
        match (expected.resources.get(index), got.resources.get(index)) {
            (Some(a), Some(b)) if a == b => {}
            (Some(a), _) => {
                return Some((format!("resources/{}[id={}]", a.kind(), a.id()), "resource"));
            }
            (None, Some(b)) => {
                return Some((
                    format!("resources/{}[id={}]", b.kind(), b.id()),
                    "resource list",
                ));
            }
            (None, None) => {}
        }
    }
    if expected.folders != got.folders {
        let key = expected
            .folders
            .iter()
            .find(|(key, meta)| got.folders.get(*key) != Some(*meta))
            .or_else(|| {
                got.folders
                    .iter()
                    .find(|(key, meta)| expected.folders.get(*key) != Some(*meta))
            })
            .map(|((_, path), _)| path.clone())
            .unwrap_or_default();
        return Some((format!("resources/folder[id={key}]"), "folder metadata"));
    }
    None
}
