//! Reads one package: `package.xml`, its `package_branch.xml` files, folders, resources,
//! the primary bytes of every asset and the XML of every component.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io;
use std::sync::Arc;

use ofgui_contracts::Num;
use ofgui_contracts::diagnostics::{ProjectDiagnostic, ProjectDiagnosticCode as Code, Severity};
use ofgui_contracts::uam::{
    AssetBase, ComponentResource, GenericAssetResource, ImageResource, ImageResourceProperties,
    MovieClipResource, MovieClipResourceProperties, PackagePublish, PublishAtlas, ResourceFolder,
    Size, UamPackage, UamResource,
};
use roxmltree::Node;
use serde_json::{Map, Value};

use super::component::{empty_model, parse_component};
use super::diag::Scope;
use super::node::SizeRef;
use super::values::{Attrs, canonical_dir, is_safe_file_name, parse_bool};
use super::{BranchDirs, ReadState, decode_text, unparsable};
use crate::formats;
use crate::fs::{CaseFold, Folded, NotRead, ProjectFs};
use crate::rules::{assets, strip_extension};

/// A package and the nodes (by resource index) whose size comes from their resource.
pub(crate) struct PackageRead {
    pub package: UamPackage,
    pub size_refs: Vec<(usize, SizeRef)>,
}

/// One declared resource before its file is read.
struct Draft {
    resource: UamResource,
    /// The XML `name` (the file name), which pairs main and branch variants.
    file_name: String,
    source_path: String,
}

/// `<folder>` metadata (favorite, atlas) by (branch, path).
type FolderMeta = BTreeMap<(String, String), (bool, String)>;

/// What a package's XML files declare: resources in order and `<folder>` metadata
/// (favorite, atlas) by (branch, path).
#[derive(Default)]
struct Declared {
    resources: Vec<Draft>,
    folders: BTreeMap<(String, String), (bool, String)>,
}

/// `image@scale` by name; absent or `""` (which the editor writes) is none.
const IMAGE_SCALE: &[(&str, i32)] = &[("", 0), ("none", 0), ("9grid", 1), ("tile", 2)];

/// The attributes every resource has; the rest of an element is kind metadata.
const COMMON_ATTRIBUTES: [&str; 5] = ["id", "name", "path", "exported", "favorite"];

/// Reads package `dir` (a directory of `assets/`) as `packages[index]`; `None` when the
/// directory has no readable `package.xml`.
pub(crate) fn read_package(
    fs: &CaseFold,
    index: usize,
    dir: &str,
    branches: &[BranchDirs],
    st: &mut ReadState,
) -> Option<PackageRead> {
    let xml_path = format!("assets/{dir}/package.xml");
    let package_path = format!("packages[{index}]");
    let bytes = match fs.read(&xml_path) {
        Ok(bytes) => bytes,
        // A directory without package.xml is not a package; one whose package.xml has
        // other letter case is one for the editor on a case-insensitive disk.
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            if let Some(actual) = crate::fs::case_variant(fs, &xml_path) {
                let folder = format!("assets/{dir}");
                let diagnostic = match actual.rsplit_once('/') {
                    // Another folder with this name in other letter case holds the
                    // package: one folder split in two by a case-sensitive checkout.
                    Some((other, _)) if other != folder => ProjectDiagnostic::warning(
                        Code::SourceCaseMismatch,
                        "packages",
                        format!(
                            "{folder} and {other} are one package folder spelled with two letter cases (the FairyGUI editor on Windows or macOS sees one folder; a case-sensitive checkout made two): {folder} is read as part of the package in {other}, but case-sensitive disks and tools see two folders. To fix: move the contents of {folder} into {other}"
                        ),
                    )
                    .in_file(folder.clone()),
                    Some(_) | None => ProjectDiagnostic::error(
                        Code::MissingSource,
                        "packages",
                        format!(
                            "package {dir} is not read: {xml_path} does not exist with that letter case, but {actual} does; rename {actual} to {xml_path}"
                        ),
                    )
                    .in_file(xml_path),
                };
                st.diagnostics.push(diagnostic);
            }
            return None;
        }
        Err(e) => {
            st.unreadable(&package_path, &xml_path, None, &e);
            return None;
        }
    };
    let mut package = UamPackage {
        id: String::new(),
        name: dir.to_owned(),
        compress_png: None,
        jpeg_quality: None,
        publish: None,
        branch_names: Vec::new(),
        folders: Vec::new(),
        resources: Vec::new(),
    };
    let mut declared = Declared::default();
    let mut scope = Scope::new(package_path.clone()).in_file(&xml_path);
    let mut explicit_branch_names = None;

    let parsed = decode_text(&bytes)
        .and_then(|text| {
            let doc = roxmltree::Document::parse(text).map_err(|e| e.to_string())?;
            let root = doc.root_element();
            if root.tag_name().name() != "packageDescription" {
                return Err(format!(
                    "root element is <{}>, not <packageDescription>",
                    root.tag_name().name()
                ));
            }
            package.id = root.attribute("id").unwrap_or_default().to_owned();
            scope.package_id = Some(package.id.clone()).filter(|id| !id.is_empty());
            explicit_branch_names = read_description(root, &mut package, &mut scope);
            let pkg_root = format!("assets/{dir}");
            for resources in root.children().filter(|c| c.has_tag_name("resources")) {
                read_resources(resources, "", &pkg_root, &mut scope, &mut declared, 0);
            }
            Ok(())
        })
        .map_err(|message| unparsable(&xml_path, &bytes, &message));
    st.documents.insert(xml_path.clone(), bytes);
    if let Err(message) = parsed {
        // The package still opens, with no resources.
        scope.error(Code::InvalidPackageXml, "", None, message);
        declared = Declared::default();
    }
    st.diagnostics.append(&mut scope.diagnostics);

    // Without an explicit slot table, every branch that has this package's directory.
    package.branch_names = explicit_branch_names.unwrap_or_else(|| {
        branches
            .iter()
            .filter(|b| {
                b.packages
                    .iter()
                    .any(|p| p.to_lowercase() == dir.to_lowercase())
            })
            .map(|b| b.name.clone())
            .collect()
    });
    let main_count = declared.resources.len();
    for branch in &package.branch_names {
        read_branch_description(fs, &package.id, index, dir, branch, st, &mut declared);
    }
    link_branch_items(&package.branch_names, &mut declared.resources, main_count);
    let used: Vec<(&str, &str)> = declared
        .resources
        .iter()
        .map(|d| (d.resource.branch(), d.resource.path()))
        .collect();
    package.folders = read_folders(
        fs,
        dir,
        &package.branch_names,
        branches,
        (&used, declared.folders),
        st,
    );

    let mut size_refs = Vec::new();
    for (j, draft) in declared.resources.into_iter().enumerate() {
        let resource = hydrate(fs, &package.id, index, j, draft, st, &mut size_refs);
        package.resources.push(Arc::new(resource));
    }
    Some(PackageRead { package, size_refs })
}

/// What one package description file says on its own, before any directory is listed
/// or file read: the package's attributes and `<publish>` (`package.xml` only), its
/// resources in order, as declared, and its `<folder>` metadata by (branch, path).
#[derive(Debug, PartialEq)]
pub(crate) struct DeclaredFile {
    /// `id`, `compressPNG`, `jpegQuality`, `publish`; `name` is the directory given.
    pub package: UamPackage,
    pub branch_names: Option<Vec<String>>,
    pub resources: Vec<UamResource>,
    pub folders: BTreeMap<(String, String), (bool, String)>,
}

/// Reads `text` as package `dir`'s `package.xml` (`branch` empty) or as its
/// `package_branch.xml` on `branch`, exactly as [`read_package`] reads those files, with
/// the diagnostics dropped. The writer re-reads what it patched with this, so a patch
/// that would read back otherwise than the model is refused instead of written.
pub(crate) fn declared_file(text: &str, dir: &str, branch: &str) -> Result<DeclaredFile, String> {
    let doc = roxmltree::Document::parse(text).map_err(|e| e.to_string())?;
    let root = doc.root_element();
    let expected = if branch.is_empty() {
        "packageDescription"
    } else {
        "branchDescription"
    };
    if root.tag_name().name() != expected {
        return Err(format!(
            "root element is <{}>, not <{expected}>",
            root.tag_name().name()
        ));
    }
    let mut package = UamPackage {
        id: String::new(),
        name: dir.to_owned(),
        compress_png: None,
        jpeg_quality: None,
        publish: None,
        branch_names: Vec::new(),
        folders: Vec::new(),
        resources: Vec::new(),
    };
    let mut scope = Scope::new(String::new());
    let mut branch_names = None;
    let pkg_root = if branch.is_empty() {
        package.id = root.attribute("id").unwrap_or_default().to_owned();
        branch_names = read_description(root, &mut package, &mut scope);
        format!("assets/{dir}")
    } else {
        format!("assets_{branch}/{dir}")
    };
    let mut declared = Declared::default();
    for resources in root.children().filter(|c| c.has_tag_name("resources")) {
        read_resources(resources, branch, &pkg_root, &mut scope, &mut declared, 0);
    }
    Ok(DeclaredFile {
        package,
        branch_names,
        resources: declared.resources.into_iter().map(|d| d.resource).collect(),
        folders: declared.folders,
    })
}

/// The `packageDescription` attributes and `<publish>`; returns the explicit
/// `branchNames` slot table when the attribute is present and valid.
fn read_description(
    root: Node,
    package: &mut UamPackage,
    scope: &mut Scope,
) -> Option<Vec<String>> {
    let mut a = Attrs::new(root, scope, "");
    package.compress_png = a.has("compressPNG").then(|| a.bool("compressPNG", false));
    // An empty `jpegQuality` is the editor's "not set".
    package.jpeg_quality = a
        .raw("jpegQuality")
        .filter(|v| !v.trim().is_empty())
        .and_then(|_| a.opt_f64("jpegQuality"))
        .map(Num);
    let explicit = a.raw("branchNames").and_then(|raw| {
        let names = serde_json::from_str::<Vec<String>>(raw)
            .ok()
            .filter(|names| {
                let unique: BTreeSet<&String> = names.iter().collect();
                unique.len() == names.len() && names.iter().all(|n| !n.is_empty())
            });
        if names.is_none() {
            a.report(
                "branchNames",
                format!(
                    "attribute branchNames='{raw}' is not a JSON array of distinct branch names"
                ),
            );
        }
        names
    });
    if let Some(publish) = root.children().find(|c| c.has_tag_name("publish")) {
        package.publish = Some(read_publish(publish, &package.name, scope));
    }
    explicit
}

fn read_publish(el: Node, package_name: &str, scope: &mut Scope) -> PackagePublish {
    let atlases: Vec<PublishAtlas> = el
        .children()
        .filter(|c| c.has_tag_name("atlas"))
        .enumerate()
        .map(|(i, atlas)| {
            let at = format!(".publish.atlases[{i}]");
            let mut a = Attrs::new(atlas, scope, &at);
            PublishAtlas {
                index: a.num("index", 0.0),
                name: a.string("name"),
                compression: a.bool("compression", false),
            }
        })
        .collect();
    let mut a = Attrs::new(el, scope, ".publish");
    let atlas_keys = [
        "maxAtlasSize",
        "sizeOption",
        "square",
        "rotation",
        "multiPage",
    ];
    let use_global_atlas_settings = !atlas_keys.iter().any(|k| a.has(k));
    // Older editors wrote `npot="true"` instead of a size option.
    let size_option = if a.has("npot") && a.bool("npot", false) {
        "npot".to_owned()
    } else {
        a.string_or("sizeOption", "pot")
    };
    PackagePublish {
        // An empty publish name means "publish under the package name".
        name: a
            .raw("name")
            .filter(|n| !n.is_empty())
            .unwrap_or(package_name)
            .to_owned(),
        path: a.string("path"),
        branch_path: a.string("branchPath"),
        package_count: a.num("packageCount", 0.0),
        gen_code: a.bool("genCode", false),
        code_path: a.string("codePath"),
        use_global_atlas_settings,
        max_atlas_size: a.num("maxAtlasSize", 2048.0),
        size_option,
        force_square: a.bool("square", false),
        allow_rotation: a.bool("rotation", false),
        paging: a.bool("multiPage", false),
        extract_alpha: a.bool("extractAlpha", false),
        max_atlas_index: a.num("maxAtlasIndex", 10.0),
        atlases,
        excluded_resource_ids: a
            .raw("excluded")
            .map(|r| {
                r.split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default(),
    }
}

/// `<folder id="/a/b/" favorite atlas>`; a branch folder's id may read `/:branch/a/`.
fn folder_metadata(
    el: Node,
    branch: &str,
    scope: &mut Scope,
) -> Option<((String, String), (bool, String))> {
    let id = el.attribute("id").unwrap_or_default();
    let (branch, path) = match id.strip_prefix("/:") {
        Some(rest) => {
            let (b, p) = rest.split_once('/').unwrap_or((rest, ""));
            (b.to_owned(), p.to_owned())
        }
        None if !id.is_empty() => (branch.to_owned(), id.to_owned()),
        None => {
            let parent = el.attribute("path").unwrap_or("/");
            let name = el.attribute("name").unwrap_or_default();
            (branch.to_owned(), format!("{parent}/{name}"))
        }
    };
    let path = canonical_dir(&path).filter(|p| p != "/")?;
    // Folders have no model index until every directory is scanned, so a malformed flag
    // is located by the folder's path.
    let favorite = match el.attribute("favorite") {
        None => false,
        Some(raw) => parse_bool(raw).unwrap_or_else(|| {
            scope.invalid_value(
                ".folders",
                None,
                format!(
                    "folder {path} has favorite=\"{raw}\", which is not a boolean; it is read as false"
                ),
            );
            false
        }),
    };
    let atlas = el.attribute("atlas").unwrap_or_default().to_owned();
    Some(((branch, path), (favorite, atlas)))
}

fn read_resource(
    el: Node,
    branch: &str,
    pkg_root: &str,
    scope: &mut Scope,
    at: &str,
) -> Option<Draft> {
    let tag = el.tag_name().name();
    let id = el.attribute("id").unwrap_or_default();
    let known = matches!(
        tag,
        "image"
            | "component"
            | "movieclip"
            | "sound"
            | "misc"
            | "font"
            | "spine"
            | "dragonbones"
            | "swf"
    );
    if !known {
        let mut d = ProjectDiagnostic::warning(
            Code::UnsupportedResourceKind,
            format!("{}{at}", scope.base),
            format!("unsupported resource kind <{tag}> (id \"{id}\") is skipped"),
        );
        d.package_id = scope.package_id.clone();
        d.resource_id = Some(id.to_owned()).filter(|i| !i.is_empty());
        d.source_path = scope.source_path.clone();
        scope.diagnostics.push(d);
        return None;
    }
    let raw_name = el.attribute("name").unwrap_or_default();
    let path = canonical_dir(el.attribute("path").unwrap_or("/"));
    let Some(path) = path.filter(|_| is_safe_file_name(raw_name)) else {
        let message = format!(
            "resource \"{id}\" has an unsafe name or path (name=\"{raw_name}\", path=\"{}\") and is skipped",
            el.attribute("path").unwrap_or_default()
        );
        let saved = scope.resource_id.replace(id.to_owned());
        scope.error(Code::UnsafePath, at, None, message);
        scope.resource_id = saved;
        return None;
    };
    let source_path = format!("{pkg_root}{path}{raw_name}");
    let mut a = Attrs::new(el, scope, at);
    let exported = a.bool("exported", false);
    let favorite = a.bool("favorite", false);
    let base = |name: &str| AssetBase {
        id: id.to_owned(),
        name: name.to_owned(),
        path: path.clone(),
        exported,
        favorite,
        branch: branch.to_owned(),
        branch_item_ids: Vec::new(),
        source_path: Some(source_path.clone()),
    };
    let stem = strip_extension(raw_name);
    let resource = match tag {
        "image" => {
            let bare = assets::bare_image();
            // A malformed grid is reported as such (not silently dropped).
            let scale9 = a.tuple("scale9grid", 4);
            // An unknown scale mode is reported like any enumeration, not silently read
            // as no scaling.
            let scale = a.enumeration("scale", IMAGE_SCALE, 0);
            let (scale_option, scale9_grid) = match (scale, scale9) {
                (1, Some(grid)) => (1, Some(grid.into_iter().map(Num).collect())),
                (1, None) => {
                    if !a.has("scale9grid") {
                        a.report(
                            "scale9grid",
                            "scale=\"9grid\" needs scale9grid=\"x,y,width,height\"".to_owned(),
                        );
                    }
                    (0, None)
                }
                (option, _) => (option, None),
            };
            UamResource::Image(ImageResource {
                base: base(stem),
                file_name: Some(raw_name.to_owned()),
                dimensions: declared_size(&mut a),
                image: ImageResourceProperties {
                    texture_set_mode: a.string("atlas"),
                    quality_option: a.string("qualityOption"),
                    quality: a.num("quality", bare.quality.get()),
                    smoothing: a.bool("smoothing", bare.smoothing),
                    duplicate_padding: a.bool("duplicatePadding", bare.duplicate_padding),
                    scale_option,
                    scale9_grid,
                    tile_grid_indice: a.num("gridTile", bare.tile_grid_indice.get()),
                },
            })
        }
        "movieclip" => UamResource::MovieClip(MovieClipResource {
            base: base(stem),
            file_name: Some(raw_name.to_owned()),
            dimensions: declared_size(&mut a).unwrap_or_default(),
            movie_clip: {
                let bare = assets::bare_movie_clip();
                MovieClipResourceProperties {
                    smoothing: a.bool("smoothing", bare.smoothing),
                    ..bare
                }
            },
        }),
        "component" => {
            let name = raw_name
                .len()
                .checked_sub(4)
                .filter(|&cut| raw_name.is_char_boundary(cut))
                .filter(|&cut| raw_name[cut..].eq_ignore_ascii_case(".xml"))
                .map_or(raw_name, |cut| &raw_name[..cut]);
            UamResource::Component(ComponentResource::with_base(base(name), empty_model()))
        }
        _ => {
            let skeleton = matches!(tag, "spine" | "dragonbones");
            let dimensions = if skeleton {
                declared_size(&mut a)
            } else {
                None
            };
            let generic = GenericAssetResource {
                base: base(stem),
                // Fonts name their file `fileName`, the other kinds `file`.
                file_name: (tag == "font").then(|| raw_name.to_owned()),
                file: (tag != "font").then(|| raw_name.to_owned()),
                dimensions,
                metadata: metadata(el, tag, skeleton),
            };
            match tag {
                "font" => UamResource::Font(generic),
                "sound" => UamResource::Sound(generic),
                "spine" => UamResource::Spine(generic),
                "dragonbones" => UamResource::DragonBones(generic),
                // `misc` and the legacy `swf`.
                _ => UamResource::Misc(generic),
            }
        }
    };
    Some(Draft {
        resource,
        file_name: raw_name.to_owned(),
        source_path,
    })
}

/// `width`/`height` attributes, when either is present.
fn declared_size(a: &mut Attrs) -> Option<Size> {
    if !a.has("width") && !a.has("height") {
        return None;
    }
    Some(Size {
        width: a.num("width", 0.0),
        height: a.num("height", 0.0),
    })
}

/// The kind-specific attributes, verbatim; `swf` is marked so it can be written back.
fn metadata(el: Node, tag: &str, skeleton: bool) -> Option<Map<String, Value>> {
    let mut map = Map::new();
    if tag == "swf" {
        map.insert("tag".to_owned(), Value::String("swf".to_owned()));
    }
    for attr in el.attributes() {
        let name = attr.name();
        let sized = skeleton && (name == "width" || name == "height");
        if !COMMON_ATTRIBUTES.contains(&name) && !sized {
            map.insert(name.to_owned(), Value::String(attr.value().to_owned()));
        }
    }
    (!map.is_empty()).then_some(map)
}

/// Appends the resources of `assets_<branch>/<dir>/package_branch.xml`, if any.
fn read_branch_description(
    fs: &CaseFold,
    package_id: &str,
    index: usize,
    dir: &str,
    branch: &str,
    st: &mut ReadState,
    declared: &mut Declared,
) {
    let pkg_root = format!("assets_{branch}/{dir}");
    let xml_path = format!("{pkg_root}/package_branch.xml");
    let package_path = format!("packages[{index}]");
    // The branch's folder of the package may be spelled otherwise (`assets_en/bag/` for
    // `assets/Bag/`): one folder for the editor on a case-insensitive disk.
    let bytes = match fs.read_folded(&xml_path) {
        Ok(Folded {
            bytes,
            found_at: None,
        }) => bytes,
        Ok(Folded {
            bytes,
            found_at: Some(actual),
        }) => {
            let mut d = ProjectDiagnostic::warning(
                Code::SourceCaseMismatch,
                package_path.as_str(),
                format!(
                    "branch {branch} of package {dir} is read from {actual}, since {xml_path} does not exist with that letter case, as the FairyGUI editor on Windows or macOS does; case-sensitive disks and tools do not find it there. To fix: rename {actual} so that its folders read {pkg_root}"
                ),
            )
            .in_file(xml_path.as_str());
            if !package_id.is_empty() {
                d = d.in_package(package_id);
            }
            st.diagnostics.push(d);
            st.found_at.insert(xml_path.clone(), actual);
            bytes
        }
        // No branch file is no branch resources; several spellings of it cannot be told
        // apart, so none is read and they are named.
        Err(NotRead::Absent { variants }) => {
            if !variants.is_empty() {
                let mut d = ProjectDiagnostic::error(
                    Code::MissingSource,
                    package_path.as_str(),
                    missing_message(&xml_path, &variants),
                )
                .in_file(xml_path.as_str());
                if !package_id.is_empty() {
                    d = d.in_package(package_id);
                }
                st.diagnostics.push(d);
            }
            return;
        }
        Err(NotRead::Unreadable { path, error }) => {
            st.unreadable(&package_path, &path, Some(package_id), &error);
            return;
        }
    };
    let mut scope = Scope::new(package_path).in_file(&xml_path);
    scope.package_id = Some(package_id.to_owned()).filter(|id| !id.is_empty());
    let mut branch_declared = Declared::default();
    let parsed = decode_text(&bytes)
        .and_then(|text| {
            let doc = roxmltree::Document::parse(text).map_err(|e| e.to_string())?;
            let root = doc.root_element();
            if root.tag_name().name() != "branchDescription" {
                return Err(format!(
                    "root element is <{}>, not <branchDescription>",
                    root.tag_name().name()
                ));
            }
            // Diagnostics index resources by their final position in the package.
            let offset = declared.resources.len();
            for resources in root.children().filter(|c| c.has_tag_name("resources")) {
                read_resources(
                    resources,
                    branch,
                    &pkg_root,
                    &mut scope,
                    &mut branch_declared,
                    offset,
                );
            }
            Ok(())
        })
        .map_err(|message| unparsable(&xml_path, &bytes, &message));
    st.documents.insert(xml_path.clone(), bytes);
    match parsed {
        Ok(()) => {
            declared.resources.append(&mut branch_declared.resources);
            declared.folders.append(&mut branch_declared.folders);
        }
        Err(message) => scope.error(Code::InvalidBranchPackageXml, "", None, message),
    }
    st.diagnostics.append(&mut scope.diagnostics);
}

/// The children of one `<resources>` element, in order, numbered from `offset` (the
/// resources already read for the package).
fn read_resources(
    resources: Node,
    branch: &str,
    pkg_root: &str,
    scope: &mut Scope,
    declared: &mut Declared,
    offset: usize,
) {
    for el in resources.children().filter(Node::is_element) {
        if el.tag_name().name() == "folder" {
            if let Some((key, meta)) = folder_metadata(el, branch, scope) {
                declared.folders.insert(key, meta);
            }
            continue;
        }
        let at = format!(".resources[{}]", offset + declared.resources.len());
        if let Some(draft) = read_resource(el, branch, pkg_root, scope, &at) {
            declared.resources.push(draft);
        }
    }
}

/// Fills each main resource's `branchItemIds`: one slot per branch name holding the id
/// of the branch resource with the same path and file name, or `""`; all-empty → `[]`.
fn link_branch_items(branch_names: &[String], drafts: &mut [Draft], main_count: usize) {
    if branch_names.is_empty() || drafts.len() == main_count {
        return;
    }
    let (main, branch_drafts) = drafts.split_at_mut(main_count);
    let variants: HashMap<(&str, &str, &str), &str> = branch_drafts
        .iter()
        .map(|d| {
            (
                (d.resource.branch(), d.resource.path(), d.file_name.as_str()),
                d.resource.id(),
            )
        })
        .collect();
    for draft in main {
        let slots: Vec<String> = branch_names
            .iter()
            .map(|b| {
                variants
                    .get(&(b.as_str(), draft.resource.path(), draft.file_name.as_str()))
                    .copied()
                    .unwrap_or_default()
                    .to_owned()
            })
            .collect();
        if slots.iter().any(|s| !s.is_empty()) {
            match &mut draft.resource {
                UamResource::Component(c) => c.branch_item_ids = slots,
                other => {
                    if let Some(base) = other.asset_base_mut() {
                        base.branch_item_ids = slots;
                    }
                }
            }
        }
    }
}

/// The union of the package's directories (main and branch) and its `<folder>` entries.
/// Folders whose paths differ only in letter case are one folder, as for the editor on a
/// case-insensitive disk, spelled as the project's resources (then its `<folder>` entries,
/// then the disk) spell it: `used` holds each resource's (branch, folder).
fn read_folders(
    fs: &dyn ProjectFs,
    dir: &str,
    branch_names: &[String],
    branches: &[BranchDirs],
    (used, meta): (&[(&str, &str)], FolderMeta),
    st: &mut ReadState,
) -> Vec<ResourceFolder> {
    let mut found: BTreeSet<(String, String)> = BTreeSet::new();
    scan_dirs(fs, &format!("assets/{dir}"), "/", "", 0, &mut found, st);
    for branch in branch_names {
        // Every spelling of the package's folder in the branch: one folder for the editor.
        let spellings = branches
            .iter()
            .filter(|b| &b.name == branch)
            .flat_map(|b| &b.packages)
            .filter(|p| p.to_lowercase() == dir.to_lowercase());
        for spelling in spellings {
            scan_dirs(
                fs,
                &format!("assets_{branch}/{spelling}"),
                "/",
                branch,
                0,
                &mut found,
                st,
            );
        }
    }
    let spelling = FolderSpelling::new(
        used.iter()
            .map(|&(branch, path)| (branch, path))
            .chain(meta.keys().map(|(b, p)| (b.as_str(), p.as_str())))
            .chain(found.iter().map(|(b, p)| (b.as_str(), p.as_str()))),
    );
    let meta: FolderMeta = meta
        .into_iter()
        .map(|((branch, path), value)| {
            let path = spelling.of(&branch, &path);
            ((branch, path), value)
        })
        .collect();
    let found: BTreeSet<(String, String)> = found
        .iter()
        .chain(meta.keys())
        .map(|(branch, path)| (branch.clone(), spelling.of(branch, path)))
        .collect();
    found
        .into_iter()
        .map(|(branch, path)| {
            let (favorite, atlas) = meta
                .get(&(branch.clone(), path.clone()))
                .cloned()
                .unwrap_or_default();
            ResourceFolder {
                branch,
                path,
                favorite,
                atlas,
            }
        })
        .collect()
}

/// One spelling for each folder of a package, ignoring letter case: the first offered for
/// each (branch, folder prefix).
struct FolderSpelling {
    /// (branch, lower-case prefix such as `/bag/sub/`) → its last segment as spelled.
    names: HashMap<(String, String), String>,
}

impl FolderSpelling {
    fn new<'p>(paths: impl Iterator<Item = (&'p str, &'p str)>) -> Self {
        let mut names = HashMap::new();
        for (branch, path) in paths {
            let mut lower = String::from("/");
            for segment in path.split('/').filter(|s| !s.is_empty()) {
                lower.push_str(&segment.to_lowercase());
                lower.push('/');
                names
                    .entry((branch.to_owned(), lower.clone()))
                    .or_insert_with(|| segment.to_owned());
            }
        }
        Self { names }
    }

    /// `path` (`/a/b/`) with each segment spelled as chosen.
    fn of(&self, branch: &str, path: &str) -> String {
        let mut lower = String::from("/");
        let mut spelled = String::from("/");
        for segment in path.split('/').filter(|s| !s.is_empty()) {
            lower.push_str(&segment.to_lowercase());
            lower.push('/');
            let name = self
                .names
                .get(&(branch.to_owned(), lower.clone()))
                .map_or(segment, String::as_str);
            spelled.push_str(name);
            spelled.push('/');
        }
        spelled
    }
}

/// Deeper than any real package; stops a pathological tree from running away.
const MAX_FOLDER_DEPTH: usize = 64;

fn scan_dirs(
    fs: &dyn ProjectFs,
    fs_dir: &str,
    model_dir: &str,
    branch: &str,
    depth: usize,
    found: &mut BTreeSet<(String, String)>,
    st: &mut ReadState,
) {
    if depth >= MAX_FOLDER_DEPTH {
        return;
    }
    let entries = match fs.read_dir(fs_dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return,
        Err(e) => {
            st.unreadable("packages", fs_dir, None, &e);
            return;
        }
    };
    for entry in entries.into_iter().filter(|e| e.is_dir) {
        // A directory an interrupted save set aside is not a folder of the project.
        if !is_safe_file_name(&entry.name) || crate::fs::is_save_artifact(&entry.name) {
            continue;
        }
        let path = format!("{model_dir}{}/", entry.name);
        let child = format!("{fs_dir}/{}", entry.name);
        scan_dirs(fs, &child, &path, branch, depth + 1, found, st);
        found.insert((branch.to_owned(), path));
    }
}

/// Reads a resource's file: bytes (and size, frames) for assets, the model for
/// components. Problems become diagnostics; the resource is always kept.
fn hydrate(
    fs: &CaseFold,
    package_id: &str,
    package_index: usize,
    index: usize,
    draft: Draft,
    st: &mut ReadState,
    size_refs: &mut Vec<(usize, SizeRef)>,
) -> UamResource {
    let Draft {
        mut resource,
        source_path,
        ..
    } = draft;
    let path = format!("packages[{package_index}].resources[{index}]");
    let resource_id = resource.id().to_owned();
    let located = |d: ProjectDiagnostic| {
        let d = d.in_resource(resource_id.as_str());
        if package_id.is_empty() {
            d
        } else {
            d.in_package(package_id)
        }
    };
    // The bytes stay under the declared path, where every later reader (validation,
    // publishing, rendering, saving) looks for them; `found_at` remembers the disk's.
    let bytes = match fs.read_folded(&source_path) {
        Ok(Folded {
            bytes,
            found_at: None,
        }) => bytes,
        Ok(Folded {
            bytes,
            found_at: Some(actual),
        }) => {
            st.diagnostics.push(located(
                ProjectDiagnostic::warning(
                    Code::SourceCaseMismatch,
                    path.as_str(),
                    case_mismatch_message(fs, &resource_id, &source_path, &actual),
                )
                .in_file(source_path.as_str()),
            ));
            st.found_at.insert(source_path.clone(), actual);
            bytes
        }
        Err(NotRead::Absent { variants }) => {
            st.diagnostics.push(located(
                ProjectDiagnostic::error(
                    Code::MissingSource,
                    path,
                    missing_message(&source_path, &variants),
                )
                .in_file(source_path),
            ));
            return resource;
        }
        Err(NotRead::Unreadable { path: file, error }) => {
            st.unreadable(&path, &file, Some(package_id), &error);
            if let Some(d) = st.diagnostics.last_mut() {
                d.resource_id = Some(resource_id);
            }
            return resource;
        }
    };
    match &mut resource {
        UamResource::Component(component) => {
            let mut scope = Scope::new(format!("{path}.component"))
                .in_resource(&component.id)
                .in_file(&source_path);
            if !package_id.is_empty() {
                scope = scope.in_package(package_id);
            }
            match decode_text(&bytes).and_then(|text| parse_component(text, &mut scope)) {
                Ok(parsed) => {
                    component.component = parsed.model;
                    size_refs.extend(parsed.size_refs.into_iter().map(|r| (index, r)));
                }
                Err(message) => scope.error(
                    Code::InvalidComponentXml,
                    "",
                    None,
                    unparsable(&source_path, &bytes, &message),
                ),
            }
            st.diagnostics.append(&mut scope.diagnostics);
            st.documents.insert(source_path, bytes);
        }
        _ => {
            // The header size wins over the size declared in package.xml; a .jta that does
            // not parse keeps the declared values (validation reports it).
            formats::update_from_file(&mut resource, &bytes);
            st.bytes.insert(source_path, bytes);
        }
    }
    resource
}

/// Why a declared file was not found. Several files whose paths differ from it only in
/// letter case are named: the FairyGUI editor on a case-insensitive disk finds one of them,
/// but which depends on the disk, so none is read in its place and none should be removed.
fn missing_message(source_path: &str, variants: &[String]) -> String {
    match variants {
        [] => format!("declared file {source_path} does not exist"),
        _ => format!(
            "declared file {source_path} does not exist with that letter case, and {} files differ from it only in letter case: {}; the FairyGUI editor on Windows or macOS would read one of them, depending on the disk, so none is read here: rename the one that is meant to {source_path} (or merge the folders), and give the others names of their own",
            variants.len(),
            variants.join(", ")
        ),
    }
}

/// The warning for a file read from `actual` because `declared` has other letter case:
/// what to rename, segment by segment, so that case-sensitive disks find it too. A folder
/// whose declared spelling also exists (git holding both) is merged, not renamed.
fn case_mismatch_message(fs: &CaseFold, resource_id: &str, declared: &str, actual: &str) -> String {
    let wanted: Vec<&str> = declared.split('/').collect();
    let found: Vec<&str> = actual.split('/').collect();
    let mut fixes = Vec::new();
    for (index, (want, have)) in wanted.iter().zip(&found).enumerate() {
        if want == have {
            continue;
        }
        // Earlier segments are already fixed when this one is reached.
        let parent = wanted[..index].join("/");
        let current = format!("{parent}/{have}");
        let target = format!("{parent}/{want}");
        let is_file = index + 1 == wanted.len();
        fixes.push(if is_file {
            format!("rename the file {current} to {want}")
        } else if fs.is_dir_exactly(&target) {
            format!("move the contents of the folder {current} into {target}, which also exists")
        } else {
            format!("rename the folder {current} to {want}")
        });
    }
    format!(
        "resource {resource_id} declares {declared}, which does not exist with that letter case; it is read from {actual}, as the FairyGUI editor on Windows or macOS does, but case-sensitive disks and tools do not find it there. To fix: {}",
        fixes.join(", then ")
    )
}

impl ReadState {
    /// Records a file or directory that exists but cannot be read; the read is then
    /// incomplete.
    pub(crate) fn unreadable(
        &mut self,
        path: &str,
        source_path: &str,
        package_id: Option<&str>,
        error: &io::Error,
    ) {
        let mut d = ProjectDiagnostic::new(
            Severity::Error,
            Code::UnreadableSource,
            path,
            format!("{source_path} cannot be read: {error}"),
        )
        .in_file(source_path);
        if let Some(id) = package_id.filter(|id| !id.is_empty()) {
            d = d.in_package(id);
        }
        self.diagnostics.push(d);
        self.complete = false;
    }
}
