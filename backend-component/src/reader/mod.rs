//! Reads a FairyGUI editor project from a [`ProjectFs`] into the UAM.
//!
//! The reader is lenient: a broken file becomes a [`ProjectDiagnostic`] and the rest of
//! the project still opens. Only a project whose `.fairy` file cannot be read or parsed
//! fails as a whole.
//!
//! Modules, one job each: [`project`] (`.fairy`, settings, branch and package
//! directories), [`package`] (package XML, folders, resources, byte hydration),
//! [`component`] (component XML), [`node`] (display nodes), [`gear`], [`transition`],
//! [`values`] (attribute parsing) and [`diag`] (diagnostic locations). Image sizes and
//! movie clips come from the file bytes through [`crate::formats`].

pub(crate) mod component;
mod diag;
pub(crate) mod gear;
mod node;
mod package;
mod project;
mod transition;
mod values;

pub(crate) use package::{DeclaredFile, declared_file};
pub(crate) use project::SETTINGS_FILES;
pub(crate) use values::{canonical_dir, is_safe_file_name};

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use ofgui_contracts::diagnostics::{ProjectDiagnostic, ProjectDiagnosticCode};
use ofgui_contracts::uam::{Size, UamProject, UamResource};

use crate::fs::{CaseFold, ProjectFs};

/// Everything read from disk at open.
#[derive(Debug)]
pub struct ProjectSource {
    pub project: UamProject,
    /// Primary bytes of every asset resource that could be read, keyed by its project-relative
    /// `sourcePath` (e.g. `assets/Basics/images/k3.png`). Components are not in here.
    pub bytes: BTreeMap<String, Vec<u8>>,
    /// The raw bytes of every XML and JSON source file read (`.fairy`, `settings/*.json`,
    /// `package.xml`, `package_branch.xml`, component XML), keyed by project-relative path,
    /// so a later writer can patch them in place.
    pub documents: BTreeMap<String, Vec<u8>>,
    /// Files found only under another letter case (`source_case_mismatch`): declared path
    /// (the key of `bytes` or `documents`) → the path on disk, where a save writes them.
    pub found_at: BTreeMap<String, String>,
    /// Read diagnostics, in the order found.
    pub diagnostics: Vec<ProjectDiagnostic>,
    /// False when some source could not be read at all (the validation report is then incomplete).
    pub complete: bool,
}

/// Why a project could not be opened at all.
#[derive(Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The `.fairy` file does not exist.
    NotFound,
    /// The `.fairy` file exists but cannot be read.
    AccessDenied(String),
    /// The `.fairy` file is not a FairyGUI project description.
    Unreadable(String),
}

/// What the read has gathered besides the model.
struct ReadState {
    diagnostics: Vec<ProjectDiagnostic>,
    complete: bool,
    bytes: BTreeMap<String, Vec<u8>>,
    documents: BTreeMap<String, Vec<u8>>,
    found_at: BTreeMap<String, String>,
}

/// A branch (`assets_<name>/`) and the package directories it holds.
struct BranchDirs {
    name: String,
    packages: BTreeSet<String>,
}

/// UTF-8 text without a byte-order mark.
fn decode_text(bytes: &[u8]) -> Result<&str, String> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8 text: {e}"))
}

/// Why a file did not parse: a Git LFS pointer is named as one (with `git lfs pull`),
/// since its parse error would only say the XML or JSON is broken.
fn unparsable(file: &str, bytes: &[u8], message: &str) -> String {
    match crate::formats::lfs::message(bytes) {
        Some(pointer) => format!("{file}: {pointer}"),
        None => format!("{file}: {message}"),
    }
}

/// Reads the project described by `fairy_file` (a file name in the root of `fs`).
pub fn read_project(fs: &dyn ProjectFs, fairy_file: &str) -> Result<ProjectSource, ReadError> {
    let mut st = ReadState {
        diagnostics: Vec::new(),
        complete: true,
        bytes: BTreeMap::new(),
        documents: BTreeMap::new(),
        found_at: BTreeMap::new(),
    };
    // Resource files not at their exact path are looked up as a case-insensitive disk
    // would find them; the listings this takes are shared by the whole read.
    let fs = &CaseFold::new(fs);
    let header = match project::read_fairy(fs, fairy_file, &mut st) {
        Ok(header) => header,
        // A malformed project file with usable packages beside it opens with a diagnostic;
        // without packages there is nothing to open.
        Err(ReadError::Unreadable(message)) if project::has_packages(fs) => {
            st.diagnostics.push(
                ProjectDiagnostic::error(
                    ProjectDiagnosticCode::InvalidProjectXml,
                    "projectId",
                    format!("{message}; the project opens with an empty id and an unknown type."),
                )
                .in_file(fairy_file),
            );
            project::ProjectHeader {
                id: String::new(),
                // The file says nothing readable: no engine is assumed.
                project_type: crate::rules::UNNUMBERED_PROJECT_TYPE,
                project_type_name: String::new(),
                version: "3.0".into(),
            }
        }
        Err(error) => return Err(error),
    };
    let settings = project::read_settings(fs, &mut st);
    let branches = project::read_branches(fs, &mut st);

    let mut packages = Vec::new();
    let mut size_refs = Vec::new();
    for dir in project::package_dirs(fs, &mut st) {
        if let Some(read) = package::read_package(fs, packages.len(), &dir, &branches, &mut st) {
            let index = packages.len();
            size_refs.extend(read.size_refs.into_iter().map(|(r, s)| (index, r, s)));
            packages.push(read.package);
        }
    }

    let mut project = UamProject {
        project_id: header.id,
        project_type: header.project_type,
        project_type_name: header.project_type_name,
        version: header.version,
        branches: branches.into_iter().map(|b| b.name).collect(),
        settings,
        packages: packages.into_iter().map(Arc::new).collect(),
    };
    resolve_default_sizes(&mut project, size_refs);
    Ok(ProjectSource {
        project,
        bytes: st.bytes,
        documents: st.documents,
        found_at: st.found_at,
        diagnostics: st.diagnostics,
        complete: st.complete,
    })
}

/// Reads one component XML file on its own, without the project around it: a node the
/// file gives no size keeps 0,0 (a project read fills it from the resource it shows).
/// Diagnostics come without a package, resource or file. For re-reading what a writer
/// wrote.
#[cfg(test)]
pub(crate) fn read_component_xml(
    text: &str,
) -> Result<(ofgui_contracts::uam::ComponentModel, Vec<ProjectDiagnostic>), String> {
    let mut scope = diag::Scope::new("component");
    let parsed = component::parse_component(text, &mut scope)?;
    Ok((parsed.model, scope.diagnostics))
}

/// Gives nodes without a `size` attribute the size of the resource they show (image and
/// movie clip dimensions, component size), which is what the editor means by leaving it
/// out; an unresolvable reference keeps 0,0.
fn resolve_default_sizes(project: &mut UamProject, refs: Vec<(usize, usize, node::SizeRef)>) {
    if refs.is_empty() {
        return;
    }
    let sizes = resource_sizes(project);
    let resolved: Vec<(usize, usize, usize, Size)> = refs
        .into_iter()
        .filter_map(|(p, r, size_ref)| {
            let own_id = project.packages.get(p)?.id.as_str();
            let package_id = size_ref.package_id.as_deref().unwrap_or(own_id);
            let size = sizes.get(&(package_id, size_ref.resource_id.as_str()))?;
            Some((p, r, size_ref.node_index, size.clone()))
        })
        .collect();
    for (p, r, n, size) in resolved {
        let resource = project
            .packages
            .get_mut(p)
            .and_then(|pk| Arc::make_mut(pk).resources.get_mut(r))
            .map(Arc::make_mut);
        if let Some(UamResource::Component(c)) = resource
            && let Some(node) = c.component.display_list.get_mut(n)
        {
            node.base_mut().size = size;
        }
    }
}

/// The size each image, movie clip and component of the project gives a node showing it.
pub(crate) fn resource_sizes(project: &UamProject) -> HashMap<(&str, &str), Size> {
    let mut sizes = HashMap::new();
    for package in &project.packages {
        for resource in &package.resources {
            if let Some(size) = resource.shown_size() {
                sizes.insert((package.id.as_str(), resource.id()), size.clone());
            }
        }
    }
    sizes
}

/// Reads a component file of package `package_id` as a project read would, taking the
/// sizes of nodes that give none from `project`: for checking what a save would write.
pub fn reread_component(
    bytes: &[u8],
    package_id: &str,
    project: &UamProject,
) -> Result<ofgui_contracts::uam::ComponentModel, String> {
    let text = decode_text(bytes)?;
    let mut scope = diag::Scope::new("component");
    let parsed = component::parse_component(text, &mut scope)?;
    let mut model = parsed.model;
    if !parsed.size_refs.is_empty() {
        let sizes = resource_sizes(project);
        for size_ref in parsed.size_refs {
            let owner = size_ref.package_id.as_deref().unwrap_or(package_id);
            if let Some(size) = sizes.get(&(owner, size_ref.resource_id.as_str()))
                && let Some(node) = model.display_list.get_mut(size_ref.node_index)
            {
                node.base_mut().size = size.clone();
            }
        }
    }
    Ok(model)
}
