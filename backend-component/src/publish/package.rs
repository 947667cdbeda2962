//! One package's published files: the descriptor under the target's name, and the files
//! the runtime loads beside it (sounds and other raw resources; atlas pages).
//!
//! Naming follows the runtimes' loaders: Unity-like engines load `<name>_fui.<ext>`
//! (`bytes` unless `fileExtension` says otherwise), the other engines `<name>.<ext>`
//! (`fui`, or `bin` for Cocos Creator, unless `fileExtension` says otherwise); every other
//! file is `<name>_<file>` where `<file>` is what the item record names (`atlas0.png`,
//! `<id>.wav`), except a skeleton's files, which keep their own names (see `skeleton`).
//! Two files of one package under one name is a `file_name_collision`, which blocks.

use std::collections::BTreeMap;

use ofgui_contracts::uam::{UamProject, UamResource};
use serde_json::Value;

use super::{PublishError, PublishOptions, find_package, publish_descriptor};

/// One file of a package's output: its name in the output directory and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublishedFile {
    pub name: String,
    pub bytes: Vec<u8>,
    /// For a file published under its own name (a skeleton's), the skeleton resource it is
    /// published for: such a name is not the package's by prefix, so the caller checks it
    /// against other packages' files.
    pub skeleton_of: Option<String>,
}

/// Something the output says that the caller should know, without making it wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublishWarning {
    /// A stable code, `snake_case`.
    pub code: &'static str,
    /// The resource it is about, when there is one.
    pub resource_id: Option<String>,
    pub message: String,
}

/// Warning codes that mean the output would load wrong in the game: a publish with any of
/// them is refused rather than written (those of [`LEFT_OUT_CODES`] only unless the caller
/// allows them to be left out).
pub const BLOCKING_CODES: &[&str] = &["missing_source", "corrupt_source", "file_name_collision"];

/// Blocking codes for a source file that could not be read (`missing_source`; a Git LFS
/// pointer or an image that does not decode, `corrupt_source`, as validation names them): with `allowMissing`, as the editor publishes with
/// placeholders, the rest is published and these are reported as left out.
pub const LEFT_OUT_CODES: &[&str] = &["missing_source", "corrupt_source"];

impl PublishWarning {
    /// Whether the output would be wrong (see [`BLOCKING_CODES`]).
    pub fn blocks(&self) -> bool {
        BLOCKING_CODES.contains(&self.code)
    }

    /// Whether it is about a source file that could not be read (see [`LEFT_OUT_CODES`]).
    pub fn leaves_out(&self) -> bool {
        LEFT_OUT_CODES.contains(&self.code)
    }
}

/// The warning for a raw or skeleton file that is a Git LFS pointer, not its content:
/// copying it would hand the game a text file under a sound's or a skeleton's name.
fn unfetched(resource: Option<&UamResource>, id: &str, file: &str, why: String) -> PublishWarning {
    PublishWarning {
        code: "corrupt_source",
        resource_id: Some(id.to_owned()),
        message: format!(
            "{} of resource {id} ({}) is not published: {why}",
            file,
            resource.map_or("?".to_owned(), UamResource::primary_file),
        ),
    }
}

/// Everything one package publishes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublishedPackage {
    pub package_id: String,
    pub package_name: String,
    /// Sorted by name; the descriptor is one of them.
    pub files: Vec<PublishedFile>,
    pub warnings: Vec<PublishWarning>,
}

/// How the project's engine names a descriptor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DescriptorNaming {
    /// `_fui` for Unity-like engines, empty for the others.
    pub infix: &'static str,
    pub extension: String,
}

impl DescriptorNaming {
    /// From the project's type and `settings/Publish.json` (`fileExtension`).
    pub fn of(project: &UamProject) -> Self {
        let unity_like = is_unity_like(project);
        let default_extension = if unity_like {
            "bytes"
        } else if project.project_type_name == "CocosCreator" {
            "bin"
        } else {
            "fui"
        };
        let extension = project
            .settings
            .get("publish")
            .and_then(|p| p.get("fileExtension"))
            .and_then(Value::as_str)
            .map(|e| e.trim().trim_start_matches('.'))
            .filter(|e| !e.is_empty() && is_plain_name(e))
            .unwrap_or(default_extension)
            .to_owned();
        DescriptorNaming {
            infix: if unity_like { "_fui" } else { "" },
            extension,
        }
    }

    pub fn file_name(&self, package_name: &str) -> String {
        format!("{package_name}{}.{}", self.infix, self.extension)
    }
}

/// Whether the project's engine loads packages as Unity does (`<name>_fui.bytes`, files
/// imported by extension).
pub fn is_unity_like(project: &UamProject) -> bool {
    matches!(
        project.project_type_name.as_str(),
        "Unity" | "Unreal" | "CryEngine" | "MonoGame" | "Vision"
    ) || (project.project_type_name.is_empty() && project.project_type == 0)
}

/// Whether the project's runtime reads a page's alpha from a picture of its own when the
/// package asks for it (`extractAlpha`): only Unity's does, loading `<page>!a` beside the
/// page; other engines' editors do not offer the setting.
fn takes_separate_alpha(project: &UamProject) -> bool {
    project.project_type_name == "Unity"
        || (project.project_type_name.is_empty() && project.project_type == 0)
}

/// `Bag_atlas0.png` → `Bag_atlas0!a.png`, the name Unity's runtime loads a page's alpha by.
fn alpha_file_name(page_file: &str) -> String {
    match page_file.rsplit_once('.') {
        Some((stem, extension)) => format!("{stem}!a.{extension}"),
        None => format!("{page_file}!a"),
    }
}

/// Publishes one package (by id, or by name when no id matches): its descriptor and the
/// files beside it. `assets` holds asset bytes by project-relative source path.
pub fn publish_package(
    project: &UamProject,
    assets: &BTreeMap<String, Vec<u8>>,
    package: &str,
    options: &PublishOptions,
) -> Result<PublishedPackage, PublishError> {
    let package = find_package(project, package)?;
    if !is_plain_name(&package.name) {
        return Err(PublishError::UnpublishableName(package.name.clone()));
    }
    let descriptor = publish_descriptor(project, assets, &package.id, options)?;
    let naming = DescriptorNaming::of(project);
    let mut files = vec![PublishedFile {
        name: naming.file_name(&package.name),
        bytes: descriptor.bytes,
        skeleton_of: None,
    }];
    let mut warnings = descriptor.warnings;
    let separate_alpha =
        package.publish.as_ref().is_some_and(|p| p.extract_alpha) && takes_separate_alpha(project);
    for page in descriptor.atlas_pages {
        let name = format!("{}_{}", package.name, page.file);
        if separate_alpha {
            let (colours, alpha) = page.encode_png_separate_alpha()?;
            if let Some(alpha) = alpha {
                files.push(PublishedFile {
                    name: alpha_file_name(&name),
                    bytes: alpha,
                    skeleton_of: None,
                });
            }
            files.push(PublishedFile {
                name,
                bytes: colours,
                skeleton_of: None,
            });
        } else {
            files.push(PublishedFile {
                name,
                bytes: page.encode_png()?,
                skeleton_of: None,
            });
        }
    }
    for item in descriptor.raw_files {
        let resource = package
            .resources
            .iter()
            .map(|r| r.as_ref())
            .find(|r| r.id() == item.resource_id);
        let bytes = resource
            .and_then(|r| r.source_path())
            .and_then(|path| assets.get(path));
        let name = format!("{}_{}", package.name, item.file);
        if let Some(why) = bytes.and_then(|b| crate::formats::lfs::clause(b)) {
            warnings.push(unfetched(resource, &item.resource_id, &name, why));
            continue;
        }
        match bytes {
            Some(bytes) => files.push(PublishedFile {
                name,
                bytes: bytes.clone(),
                skeleton_of: None,
            }),
            None => warnings.push(PublishWarning {
                code: "missing_source",
                resource_id: Some(item.resource_id.clone()),
                message: format!(
                    "the file of resource {} ({}) could not be read, so {}_{} is not \
                     published; the runtime will fail to load it",
                    item.resource_id,
                    resource.map_or("?".to_owned(), UamResource::primary_file),
                    package.name,
                    item.file
                ),
            }),
        }
    }
    // A file two skeletons require is copied once.
    let mut copied: Vec<(String, String)> = Vec::new();
    for file in descriptor.skeleton_files {
        if copied
            .iter()
            .any(|(name, id)| *name == file.name && *id == file.resource_id)
        {
            continue;
        }
        copied.push((file.name.clone(), file.resource_id.clone()));
        let resource = package
            .resources
            .iter()
            .map(|r| r.as_ref())
            .find(|r| r.id() == file.resource_id);
        let bytes = resource
            .and_then(|r| r.source_path())
            .and_then(|path| assets.get(path));
        if let Some(why) = bytes.and_then(|b| crate::formats::lfs::clause(b)) {
            warnings.push(unfetched(resource, &file.resource_id, &file.name, why));
            continue;
        }
        match bytes {
            Some(bytes) => files.push(PublishedFile {
                name: file.name,
                bytes: bytes.clone(),
                skeleton_of: Some(file.skeleton_id),
            }),
            None => warnings.push(PublishWarning {
                code: "missing_source",
                resource_id: Some(file.resource_id.clone()),
                message: format!(
                    "the file of resource {} ({}), which skeleton {} needs, could not be read, \
                     so {} is not published; the runtime will fail to load the skeleton",
                    file.resource_id,
                    resource.map_or("?".to_owned(), UamResource::primary_file),
                    file.skeleton_id,
                    file.name
                ),
            }),
        }
    }
    files.sort_by(|a, b| a.name.cmp(&b.name));
    // Two files under one name would overwrite each other: the first stays, the rest are
    // findings (only a skeleton's own names can meet another file's).
    let mut kept: Vec<PublishedFile> = Vec::with_capacity(files.len());
    for file in files {
        match kept.iter().find(|k| k.name == file.name) {
            Some(first) => warnings.push(PublishWarning {
                code: "file_name_collision",
                resource_id: file
                    .skeleton_of
                    .clone()
                    .or_else(|| first.skeleton_of.clone()),
                message: format!(
                    "two files of package {} would be published as {}; a skeleton's files keep \
                     their own names, so rename one of them",
                    package.name, file.name
                ),
            }),
            None => kept.push(file),
        }
    }
    let files = kept;
    Ok(PublishedPackage {
        package_id: package.id.clone(),
        package_name: package.name.clone(),
        files,
        warnings,
    })
}

/// A name that is one path segment in every file system the runtimes run on.
fn is_plain_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && !name.chars().any(|c| {
            matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|') || c.is_control()
        })
}
