//! Reads the project level: the `.fairy` description, `settings/*.json`, the branch
//! directories and the package directories.

use std::collections::BTreeSet;
use std::io;

use ofgui_contracts::diagnostics::{ProjectDiagnostic, ProjectDiagnosticCode as Code};
use serde_json::{Map, Value};

use super::{BranchDirs, ReadError, ReadState, decode_text, unparsable};
use crate::fs::ProjectFs;
use crate::rules::{UNNUMBERED_PROJECT_TYPE, project_type};

/// Settings files and the `settings` key each one fills.
pub(crate) const SETTINGS_FILES: [(&str, &str); 5] = [
    ("Publish.json", "publish"),
    ("Common.json", "common"),
    ("Adaptation.json", "adaptation"),
    ("CustomProperties.json", "customProperties"),
    ("i18n.json", "i18n"),
];

pub(crate) struct ProjectHeader {
    pub id: String,
    pub project_type: i32,
    /// `type` as written, kept whether or not it is known.
    pub project_type_name: String,
    pub version: String,
}

/// Reads `<projectDescription id type version/>`; only this file can fail the whole read.
pub(crate) fn read_fairy(
    fs: &dyn ProjectFs,
    fairy_file: &str,
    st: &mut ReadState,
) -> Result<ProjectHeader, ReadError> {
    let bytes = fs.read(fairy_file).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => ReadError::NotFound,
        _ => ReadError::AccessDenied(format!("{fairy_file}: {e}")),
    })?;
    let header = {
        let text = decode_text(&bytes).map_err(ReadError::Unreadable)?;
        let doc = roxmltree::Document::parse(text)
            .map_err(|e| ReadError::Unreadable(unparsable(fairy_file, &bytes, &e.to_string())))?;
        let root = doc.root_element();
        if root.tag_name().name() != "projectDescription" {
            return Err(ReadError::Unreadable(format!(
                "{fairy_file}: root element is <{}>, not <projectDescription>",
                root.tag_name().name()
            )));
        }
        let raw_type = root.attribute("type").unwrap_or_default();
        // An unknown type is kept as written, never read as a default engine: a newer
        // editor target is not a broken project, so it is a warning, not an error.
        let number = project_type(raw_type).unwrap_or_else(|| {
            let message = if raw_type.is_empty() {
                "the project file names no type; projectType is -1 (unknown)".to_owned()
            } else {
                format!(
                    "project type \"{raw_type}\" is not a type this server knows; it is kept as written (projectTypeName), with projectType -1"
                )
            };
            st.diagnostics.push(
                ProjectDiagnostic::warning(Code::InvalidProjectValue, "projectType", message)
                    .in_file(fairy_file),
            );
            UNNUMBERED_PROJECT_TYPE
        });
        ProjectHeader {
            id: root.attribute("id").unwrap_or_default().to_owned(),
            project_type: number,
            project_type_name: raw_type.to_owned(),
            version: root
                .attribute("version")
                .filter(|v| !v.is_empty())
                .unwrap_or("3.0")
                .to_owned(),
        }
    };
    st.documents.insert(fairy_file.to_owned(), bytes);
    Ok(header)
}

/// Each present settings file becomes a key; a file that is not a JSON object is
/// reported and left out.
pub(crate) fn read_settings(fs: &dyn ProjectFs, st: &mut ReadState) -> Map<String, Value> {
    let mut settings = Map::new();
    for (file, key) in SETTINGS_FILES {
        let path = format!("settings/{file}");
        let model_path = format!("settings.{key}");
        let bytes = match fs.read(&path) {
            Ok(bytes) => bytes,
            // An absent file is simply unset; one with other letter case is the file the
            // editor reads on a case-insensitive disk, so it is named, as package.xml is.
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if let Some(actual) = crate::fs::case_variant(fs, &path) {
                    st.diagnostics.push(
                        ProjectDiagnostic::error(
                            Code::MissingSource,
                            model_path,
                            format!(
                                "settings file {path} does not exist with that letter case, but {actual} does; case-sensitive disks do not find it (the FairyGUI editor on Windows or macOS does), so its settings are not read: rename {actual} to {path}"
                            ),
                        )
                        .in_file(path),
                    );
                }
                continue;
            }
            Err(e) => {
                st.unreadable(&model_path, &path, None, &e);
                continue;
            }
        };
        let parsed = decode_text(&bytes).and_then(|text| {
            match serde_json::from_str::<Value>(text).map_err(|e| e.to_string())? {
                Value::Object(map) => Ok(map),
                _ => Err("not a JSON object".to_owned()),
            }
        });
        match parsed {
            Ok(map) => {
                settings.insert(key.to_owned(), Value::Object(map));
            }
            Err(message) => st.diagnostics.push(
                ProjectDiagnostic::error(
                    Code::InvalidSettingsJson,
                    model_path,
                    unparsable(&path, &bytes, &message),
                )
                .in_file(path.clone()),
            ),
        }
        st.documents.insert(path, bytes);
    }
    settings
}

/// Directory names under `dir`, or none (reported unless `dir` is simply absent).
fn list_dirs(fs: &dyn ProjectFs, dir: &str, model_path: &str, st: &mut ReadState) -> Vec<String> {
    match fs.read_dir(dir) {
        Ok(entries) => {
            let mut names: Vec<String> = entries
                .into_iter()
                // A directory an interrupted save set aside is not a package or branch.
                .filter(|e| e.is_dir && !crate::commit::is_save_artifact(&e.name))
                .map(|e| e.name)
                .collect();
            names.sort();
            names
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
        Err(e) => {
            st.unreadable(model_path, dir, None, &e);
            Vec::new()
        }
    }
}

/// Every `assets_<name>` directory is branch `<name>`, sorted, with the package
/// directories it holds.
pub(crate) fn read_branches(fs: &dyn ProjectFs, st: &mut ReadState) -> Vec<BranchDirs> {
    let mut names: Vec<String> = list_dirs(fs, ".", "branches", st)
        .into_iter()
        .filter_map(|name| {
            name.strip_prefix("assets_")
                .filter(|b| !b.is_empty())
                .map(str::to_owned)
        })
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let packages: BTreeSet<String> =
                list_dirs(fs, &format!("assets_{name}"), "branches", st)
                    .into_iter()
                    .collect();
            BranchDirs { name, packages }
        })
        .collect()
}

/// The directories of `assets/`, by name (byte order).
/// True when `assets/` holds at least one package: then a broken `.fairy` file does not
/// make the whole project unusable.
pub(crate) fn has_packages(fs: &dyn ProjectFs) -> bool {
    fs.read_dir("assets").is_ok_and(|entries| {
        entries.iter().any(|entry| {
            entry.is_dir
                && fs
                    .read(&format!("assets/{}/package.xml", entry.name))
                    .is_ok()
        })
    })
}

pub(crate) fn package_dirs(fs: &dyn ProjectFs, st: &mut ReadState) -> Vec<String> {
    list_dirs(fs, "assets", "packages", st)
}
