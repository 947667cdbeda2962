//! A project given as a document (`openProjectSession`) rather than read from disk: decoded
//! strictly as the UAM, checked for what no project on disk could read as, and split into
//! the model and its asset bytes the way the reader holds them.
//!
//! The reader is the measure: a document may hold every defect a real project can
//! (dangling references, duplicate ids, broken bytes; validation reports them), but not a
//! shape the reader never produces. A folder path in another spelling, an unsafe file
//! name, a `sourcePath` other than the file's place, bytes on a component, or image and
//! movie clip values that contradict their own bytes are refused as `invalid_input` at
//! the field. What the reader derives and the document leaves out (`sourcePath`, an
//! image's `dimensions`) is derived the same way.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use ofgui_contracts::api::ProjectDocument;
use ofgui_contracts::echo::{MAX_ECHO_CHARS, clip};
use ofgui_contracts::error::BackendError;
use ofgui_contracts::ops::{AssetInput, PackageInput};
use ofgui_contracts::strict::{self, StrictError};
use ofgui_contracts::uam::{UamPackage, UamProject, UamResource};
use serde_json::value::RawValue;

use crate::formats;
use crate::reader::{canonical_dir, is_safe_file_name};
use crate::txn::layout::derived_source_path;

/// Where the document sits in the method's input: every refusal points below it.
const AT: &str = "/project";

/// A decoded document: the model, and each asset's bytes by `sourcePath`.
#[derive(Debug)]
pub struct Decoded {
    pub project: UamProject,
    pub bytes: BTreeMap<String, Vec<u8>>,
}

/// Decodes and checks the `ProjectDocument` JSON text.
pub fn decode(text: &str) -> Result<Decoded, BackendError> {
    let document: ProjectDocument =
        strict::from_str(text, AT).map_err(|error| malformed(text, error))?;
    let ProjectDocument {
        project_id,
        project_type,
        project_type_name,
        version,
        branches,
        settings,
        packages,
    } = document;
    check_branches(&branches)?;
    let mut bytes = BTreeMap::new();
    let mut names = BTreeSet::new();
    let mut decoded = Vec::with_capacity(packages.len());
    for (index, package) in packages.into_iter().enumerate() {
        let at = format!("{AT}/packages/{index}");
        if !names.insert(package.name.clone()) {
            return Err(invalid(
                format!("{at}/name"),
                format!(
                    "Two packages are named {:?}; a package is the directory assets/<name>, so names are unique.",
                    package.name
                ),
            ));
        }
        decoded.push(Arc::new(decode_package(
            package, &branches, &at, &mut bytes,
        )?));
    }
    let mut project = UamProject {
        project_id,
        project_type,
        project_type_name,
        version,
        branches,
        settings,
        packages: decoded,
    };
    // A node said to have no size in its file but given another size than a read would
    // give it writes its size, as after an edit.
    crate::txn::sizes::pin(&mut project);
    Ok(Decoded { project, bytes })
}

/// Branch names are the `<name>` of `assets_<name>` directories: one plain, unique name each.
fn check_branches(branches: &[String]) -> Result<(), BackendError> {
    for (index, branch) in branches.iter().enumerate() {
        if !is_safe_file_name(branch) || branches[..index].contains(branch) {
            return Err(invalid(
                format!("{AT}/branches/{index}"),
                format!(
                    "Branch {branch:?} is not a branch a project can have: each is the plain name of an assets_<name> directory, listed once."
                ),
            ));
        }
    }
    Ok(())
}

fn decode_package(
    package: PackageInput,
    branches: &[String],
    at: &str,
    bytes: &mut BTreeMap<String, Vec<u8>>,
) -> Result<UamPackage, BackendError> {
    let PackageInput {
        id,
        name,
        compress_png,
        jpeg_quality,
        publish,
        branch_names,
        folders,
        resources,
    } = package;
    if !is_safe_file_name(&name) {
        return Err(invalid(
            format!("{at}/name"),
            format!(
                "Package name {name:?} cannot name a directory under assets/; use a plain name without / or \\."
            ),
        ));
    }
    let known_branch = |branch: &str| branch.is_empty() || branches.iter().any(|b| b == branch);
    let mut seen = BTreeSet::new();
    for (index, folder) in folders.iter().enumerate() {
        let field = format!("{at}/folders/{index}");
        if !known_branch(&folder.branch) {
            return Err(unknown_branch(format!("{field}/branch"), &folder.branch));
        }
        if folder.path == "/" || canonical_dir(&folder.path).as_deref() != Some(&folder.path) {
            return Err(invalid(
                format!("{field}/path"),
                format!(
                    "Folder path {:?} is not a folder as a project reads it: write it as /a/b/ (a leading and a trailing /, no . or .. segments); the package root / is not a folder.",
                    folder.path
                ),
            ));
        }
        if !seen.insert((&folder.branch, &folder.path)) {
            return Err(invalid(
                format!("{field}/path"),
                format!(
                    "Folder {} is listed twice; list each folder once.",
                    folder.path
                ),
            ));
        }
    }
    let mut decoded = Vec::with_capacity(resources.len());
    for (index, asset) in resources.into_iter().enumerate() {
        let field = format!("{at}/resources/{index}");
        let resource = decode_resource(&name, asset, &known_branch, &field, bytes)?;
        decoded.push(Arc::new(resource));
    }
    Ok(UamPackage {
        id,
        name,
        compress_png,
        jpeg_quality,
        publish,
        branch_names,
        folders,
        resources: decoded,
    })
}

fn decode_resource(
    package_name: &str,
    asset: AssetInput,
    known_branch: &dyn Fn(&str) -> bool,
    at: &str,
    bytes: &mut BTreeMap<String, Vec<u8>>,
) -> Result<UamResource, BackendError> {
    let AssetInput {
        mut resource,
        source_bytes,
    } = asset;
    let path = resource.path().to_string();
    if canonical_dir(&path).as_deref() != Some(path.as_str()) {
        return Err(invalid(
            format!("{at}/path"),
            format!(
                "Resource path {path:?} is not a folder as a project reads it: write it as / or /a/b/ (a leading and a trailing /, no . or .. segments)."
            ),
        ));
    }
    if !known_branch(resource.branch()) {
        return Err(unknown_branch(format!("{at}/branch"), resource.branch()));
    }
    let file = resource.primary_file();
    if !is_safe_file_name(&file) {
        return Err(invalid(
            format!("{at}/{}", file_field(&resource)),
            format!(
                "The resource's file {file:?} is not a plain file name; use one without / or \\."
            ),
        ));
    }
    let derived = derived_source_path(package_name, &resource);
    let component = matches!(resource, UamResource::Component(_));
    let source_path = resource.common_mut().source_path;
    if let Some(given) = source_path.as_deref()
        && !same_file(given, &derived, component)
    {
        return Err(invalid(
            format!("{at}/sourcePath"),
            format!(
                "sourcePath {given:?} is not where this resource's file is: a project reads it from {derived} (package directory, path and file name); leave sourcePath out or give that."
            ),
        ));
    }
    let derived = match source_path.take() {
        // A component file may say `.XML`: the reader keeps the file's own spelling.
        Some(given) => given,
        None => derived,
    };
    *source_path = Some(derived.clone());
    let Some(source_bytes) = source_bytes else {
        return Ok(resource);
    };
    if matches!(resource, UamResource::Component(_)) {
        return Err(invalid(
            format!("{at}/sourceBytes"),
            "A component carries its model (component), not file bytes; leave sourceBytes out."
                .into(),
        ));
    }
    let source_bytes = source_bytes.into_inner();
    check_file_facts(&mut resource, &source_bytes, at)?;
    match bytes.get(&derived) {
        Some(other) if *other != source_bytes => {
            return Err(invalid(
                format!("{at}/sourceBytes"),
                format!(
                    "Another resource names the same file {derived} with other bytes; one file has one content."
                ),
            ));
        }
        _ => {
            bytes.insert(derived, source_bytes);
        }
    }
    Ok(resource)
}

/// The values a reader takes from an asset's own bytes (an image's size, a movie clip's
/// size, timing and frames) must agree with them; an image that gives no size gets its
/// file's, as when read.
fn check_file_facts(
    resource: &mut UamResource,
    bytes: &[u8],
    at: &str,
) -> Result<(), BackendError> {
    let mut read = resource.clone();
    formats::update_from_file(&mut read, bytes);
    if read == *resource {
        return Ok(());
    }
    match (&*resource, &read) {
        (UamResource::Image(given), UamResource::Image(from_file)) if given.dimensions.is_none() => {
            let dimensions = from_file.dimensions.clone();
            if let UamResource::Image(image) = resource {
                image.dimensions = dimensions;
            }
            Ok(())
        }
        (UamResource::Image(_), UamResource::Image(from_file)) => Err(invalid(
            format!("{at}/dimensions"),
            format!(
                "dimensions disagree with the image's own header ({} x {}); a project reads the size from the file, so give that size or leave dimensions out.",
                from_file.dimensions.as_ref().map_or(0.0, |d| d.width.get()),
                from_file.dimensions.as_ref().map_or(0.0, |d| d.height.get()),
            ),
        )),
        (UamResource::MovieClip(given), UamResource::MovieClip(from_file))
            if given.dimensions != from_file.dimensions =>
        {
            Err(invalid(
                format!("{at}/dimensions"),
                format!(
                    "dimensions disagree with the movie clip's .jta file ({} x {}); a project reads them from the file.",
                    from_file.dimensions.width.get(),
                    from_file.dimensions.height.get()
                ),
            ))
        }
        _ => Err(invalid(
            format!("{at}/movieClip"),
            "movieClip (interval, repeatDelay, swing, frames) disagrees with the movie clip's .jta file; a project reads them from the file, so send the values readSessionState shows for it."
                .into(),
        )),
    }
}

/// Whether `given` is the file a reader names `derived`: the same path, except that a
/// component's `.xml` extension is matched in any letter case (its name drops it so).
fn same_file(given: &str, derived: &str, component: bool) -> bool {
    if given == derived {
        return true;
    }
    let cut = derived.len().saturating_sub(4);
    component
        && given.len() == derived.len()
        && given.is_char_boundary(cut)
        && given[..cut] == derived[..cut]
        && given[cut..].eq_ignore_ascii_case(".xml")
}

/// The field a resource's file name comes from (see [`UamResource::primary_file`]).
fn file_field(resource: &UamResource) -> &'static str {
    match resource {
        UamResource::Component(_) => "name",
        UamResource::Image(r) if r.file_name.is_some() => "fileName",
        UamResource::MovieClip(r) if r.file_name.is_some() => "fileName",
        UamResource::Sound(r)
        | UamResource::Misc(r)
        | UamResource::Font(r)
        | UamResource::Spine(r)
        | UamResource::DragonBones(r) => {
            if r.file_name.is_some() {
                "fileName"
            } else if r.file.is_some() {
                "file"
            } else {
                "name"
            }
        }
        _ => "name",
    }
}

fn unknown_branch(path: String, branch: &str) -> BackendError {
    invalid(
        path,
        format!(
            "Branch {branch:?} is not one of the project's branches; use \"\" (main) or a name listed in branches."
        ),
    )
}

fn invalid(path: String, message: String) -> BackendError {
    BackendError::invalid_input(message, Some(path))
}

/// A document that does not decode as the UAM. serde locates a failure only by line and
/// column, so when it names no field each resource (where nearly all the shape is) is
/// decoded on its own to find the one at fault.
fn malformed(text: &str, error: StrictError) -> BackendError {
    let error = if error.path == AT {
        failing_resource(text).unwrap_or(error)
    } else {
        error
    };
    invalid(
        error.path,
        format!(
            "The project document is malformed: {}. Its schema is the input of openfairygui://docs/methods/openProjectSession.",
            clip(&error.message, MAX_ECHO_CHARS)
        ),
    )
}

fn failing_resource(text: &str) -> Option<StrictError> {
    let top: BTreeMap<String, &RawValue> = serde_json::from_str(text).ok()?;
    let packages: Vec<&RawValue> = serde_json::from_str(top.get("packages")?.get()).ok()?;
    for (p, package) in packages.iter().enumerate() {
        let fields: BTreeMap<String, &RawValue> = serde_json::from_str(package.get()).ok()?;
        let Some(resources) = fields.get("resources") else {
            continue;
        };
        let resources: Vec<&RawValue> = serde_json::from_str(resources.get()).ok()?;
        for (r, resource) in resources.iter().enumerate() {
            let at = format!("{AT}/packages/{p}/resources/{r}");
            if let Err(error) = strict::from_str::<AssetInput>(resource.get(), &at) {
                return Some(error);
            }
        }
    }
    None
}
