//! Where a resource's file goes, as the reader names it: the package directory of a
//! branch, canonical folders, the file and the name derived from it. Every operation that
//! places, moves or adds resources uses these, so a reopened project reads back the same.

use ofgui_contracts::uam::{ResourceFolder, UamPackage, UamResource};

use crate::rules::{is_safe_segment, strip_extension};

/// The directory a package's files live in on a branch (`''` is the main branch):
/// `assets/<Name>` or `assets_<branch>/<Name>`.
pub(crate) fn package_root(branch: &str, package_name: &str) -> String {
    if branch.is_empty() {
        format!("assets/{package_name}")
    } else {
        format!("assets_{branch}/{package_name}")
    }
}

/// The directory of a folder (canonical `path`): `assets/Bag/images`, `assets_en/Bag/images`.
pub(crate) fn folder_dir(package_name: &str, branch: &str, path: &str) -> String {
    format!(
        "{}{}",
        package_root(branch, package_name),
        path.trim_end_matches('/')
    )
}

/// The project-relative file of a resource of package `package_name` placed at `folder`
/// (canonical) on `branch`.
pub(super) fn file_path(package_name: &str, branch: &str, folder: &str, file: &str) -> String {
    format!("{}{folder}{file}", package_root(branch, package_name))
}

/// The project-relative path the reader gives a resource of package `package_name`:
/// `<root><folder><file>` with a canonical folder (`/` or `/a/b/`).
pub(crate) fn derived_source_path(package_name: &str, resource: &UamResource) -> String {
    file_path(
        package_name,
        resource.branch(),
        resource.path(),
        &resource.primary_file(),
    )
}

/// A resource's folder in canonical form, accepting the spellings an agent may send
/// (`/a`, `a/b`, `/a/b/`, `/`); `None` when it is empty or a segment is unsafe (`.`,
/// `..`, `:`, `\`, reserved device names, trailing dot or space).
pub(super) fn normalize_resource_folder(raw: &str) -> Option<String> {
    if raw.is_empty() {
        return None;
    }
    let mut out = String::from("/");
    for segment in raw.split('/').filter(|s| !s.is_empty()) {
        if !is_safe_segment(segment) {
            return None;
        }
        out.push_str(segment);
        out.push('/');
    }
    Some(out)
}

/// The canonical form (`/` or `/a/b/`) of a payload's folder path given as `/`, `/a/b` or
/// `/a/b/`; stricter than [`normalize_resource_folder`]: `None` when it is empty,
/// relative or has an empty or unsafe segment.
pub(super) fn canonical_resource_path(path: &str) -> Option<String> {
    if path == "/" {
        return Some("/".into());
    }
    let inner = path.strip_prefix('/')?;
    let inner = inner.strip_suffix('/').unwrap_or(inner);
    inner
        .split('/')
        .all(is_safe_segment)
        .then(|| format!("/{inner}/"))
}

/// The canonical form of a stored resource path (the reader stores `/a/`; older data
/// may say `/a`).
pub(super) fn resource_folder(resource: &UamResource) -> String {
    normalize_resource_folder(resource.path()).unwrap_or_else(|| resource.path().to_string())
}

/// True when `path` (canonical) is the root or a folder of `package` on `branch`.
pub(super) fn folder_exists(package: &UamPackage, branch: &str, path: &str) -> bool {
    path == "/"
        || package
            .folders
            .iter()
            .any(|f| f.branch == branch && f.path == path)
}

/// The folder of `package` on `branch` whose path equals `path` ignoring case.
pub(super) fn folder_taken<'p>(
    package: &'p UamPackage,
    branch: &str,
    path: &str,
    except: Option<usize>,
) -> Option<&'p ResourceFolder> {
    let wanted = path.to_lowercase();
    package
        .folders
        .iter()
        .enumerate()
        .find(|(k, f)| Some(*k) != except && f.branch == branch && f.path.to_lowercase() == wanted)
        .map(|(_, f)| f)
}

/// Stores an asset's file as the reader does (`fileName` for image, movie clip and font,
/// `file` for the other kinds) with `name` its file name without the extension; a
/// component's name is its own business (see [`place`]).
pub(super) fn name_after_file(resource: &mut UamResource, file: &str) {
    let name = strip_extension(file).to_string();
    let base = match resource {
        UamResource::Component(_) => return,
        UamResource::Image(r) => {
            r.file_name = Some(file.to_string());
            &mut r.base
        }
        UamResource::MovieClip(r) => {
            r.file_name = Some(file.to_string());
            &mut r.base
        }
        UamResource::Font(r) => {
            r.file_name = Some(file.to_string());
            r.file = None;
            &mut r.base
        }
        UamResource::Sound(r)
        | UamResource::Misc(r)
        | UamResource::Spine(r)
        | UamResource::DragonBones(r) => {
            r.file = Some(file.to_string());
            r.file_name = None;
            &mut r.base
        }
    };
    base.name = name;
}

/// Puts a resource in `folder` under `file` at `source`: its folder, its file (and the
/// name derived from it) and its sourcePath.
pub(super) fn place(resource: &mut UamResource, folder: &str, file: &str, source: String) {
    if let UamResource::Component(c) = resource {
        c.name = file.strip_suffix(".xml").unwrap_or(file).to_string();
    }
    name_after_file(resource, file);
    let common = resource.common_mut();
    *common.path = folder.to_string();
    *common.source_path = Some(source);
}
