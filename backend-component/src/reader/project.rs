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
                if let Ok(text) = decode_text(&bytes) {
                    for finding in ambiguities(text) {
                        st.diagnostics.push(
                            ProjectDiagnostic::warning(
                                Code::InvalidSettingsJson,
                                format!("{model_path}{}", finding.at),
                                format!("{path}: {}", finding.message),
                            )
                            .in_file(path.clone()),
                        );
                    }
                }
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

/// Something a settings file says that its model cannot hold as written: the file keeps
/// it (saves patch the file in place), the model holds what JSON readers make of it.
struct Ambiguity {
    /// Where, as a model path suffix (`.scrollBars.horizontal`).
    at: String,
    message: String,
}

/// Integers beyond 2^53 (which read as the nearest double, as in the editor's
/// JavaScript) and keys an object repeats (the last one counts, as in `JSON.parse`).
fn ambiguities(text: &str) -> Vec<Ambiguity> {
    use crate::source::json::{JsonDoc, Kind, Node};
    fn visit(text: &str, node: &Node, at: &str, found: &mut Vec<Ambiguity>) {
        match &node.kind {
            Kind::Object(members) => {
                let mut seen = BTreeSet::new();
                for member in members {
                    let here = format!("{at}.{}", member.key);
                    if !seen.insert(member.key.as_str()) {
                        found.push(Ambiguity {
                            at: here.clone(),
                            message: format!(
                                "key {:?} appears more than once in one object; the last one counts, as in JSON.parse, and the others are kept in the file but not read",
                                member.key
                            ),
                        });
                    }
                    visit(text, &member.value, &here, found);
                }
            }
            Kind::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    visit(text, item, &format!("{at}[{index}]"), found);
                }
            }
            Kind::Scalar => {
                let raw = &text[node.span.clone()];
                if super::values::inexact_integer(raw) {
                    let read = raw
                        .parse::<f64>()
                        .map_or_else(|_| raw.to_owned(), |v| v.to_string());
                    found.push(Ambiguity {
                        at: at.to_owned(),
                        message: format!(
                            "the integer {raw} is too large to be held exactly; it reads as {read} (the file keeps {raw})"
                        ),
                    });
                }
            }
        }
    }
    let mut found = Vec::new();
    if let Ok(doc) = JsonDoc::parse(text) {
        visit(text, &doc.root, "", &mut found);
    }
    found
}

/// Directory names under `dir`, or none (reported unless `dir` is simply absent).
fn list_dirs(fs: &dyn ProjectFs, dir: &str, model_path: &str, st: &mut ReadState) -> Vec<String> {
    match fs.read_dir(dir) {
        Ok(entries) => {
            let mut names: Vec<String> = entries
                .into_iter()
                // A directory an interrupted save set aside is not a package or branch.
                .filter(|e| e.is_dir && !crate::fs::is_save_artifact(&e.name))
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

#[cfg(test)]
mod tests {
    use super::ambiguities;

    #[test]
    fn repeated_keys_and_inexact_integers_are_found_where_they_stand() {
        let found = ambiguities(
            r#"{"font":"Arial","size":9007199254740992,"big":99999999999999999999999,"s":{"a":[1,-12345678901234567890]},"font":"Courier"}"#,
        );
        let at: Vec<&str> = found.iter().map(|f| f.at.as_str()).collect();
        assert_eq!(at, [".big", ".s.a[1]", ".font"]);
        assert!(found[0].message.contains("99999999999999999999999"));
        assert!(found[2].message.contains("the last one counts"));
        assert!(ambiguities(r#"{"a":1.5e300,"b":-9007199254740992}"#).is_empty());
    }
}
