//! Binding code: the classes the FairyGUI editor generates beside a publish when a package
//! asks for code (`<publish genCode="true">` with `codeGeneration` allowed in
//! `settings/Publish.json`).
//!
//! For each published component a class of its runtime type with a `URL`, a
//! `CreateInstance`, and fields for its controllers, children and transitions bound by
//! index (or by name), and per package a binder that registers every class with the
//! runtime's object factory. C# for Unity and MonoGame, TypeScript (ES modules over the
//! `fgui` namespace) for Layabox, Egret, Pixi, ThreeJS and Cocos Creator. The editor's rules
//! and the real output they were read from are in `RULES.md` beside this file.
//!
//! It reads only the model and returns text; it never touches the filesystem and never
//! panics. Files, each using only those after it: `csharp` and `typescript` (the writers),
//! `classes` (which classes and members, and their names and types), `settings` (what the
//! project asks for), `names` (identifiers and literals).

mod classes;
mod csharp;
mod names;
mod settings;
mod typescript;

pub use settings::{CodegenSettings, Language, WebEngine};

use std::collections::BTreeMap;

use ofgui_contracts::uam::{UamPackage, UamProject};

use crate::lookup::urls::Urls;
use crate::lookup::{Lookup, find_package_by_key};
use classes::{Context, RUNTIME_NAMES, collect, used_components};
use names::{Taken, identifier};

/// One generated source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    /// The directory `path` is relative to, as the settings write it (the package's
    /// `codePath`, else the project's): relative to the project directory, and it may climb
    /// out of it (`../Assets/Scripts/UI`).
    pub code_dir: String,
    /// `<PackageFolder>/<Class>.cs` (or `.ts`), `/`-separated.
    pub path: String,
    pub text: String,
}

/// Everything one call generates.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GeneratedCode {
    /// Package by package in the order asked, each package's classes in resource id order
    /// and its binder last.
    pub files: Vec<GeneratedFile>,
    pub warnings: Vec<CodegenWarning>,
}

/// Something the caller should know about the code, which does not make it wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodegenWarning {
    pub kind: WarningKind,
    pub package_id: String,
    /// The component it is about, when there is one.
    pub resource_id: Option<String>,
    pub message: String,
}

/// What a [`CodegenWarning`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarningKind {
    /// `codeType` names no language this generator writes; the engine chose.
    UnknownCodeType,
    /// A package's folder (and binder, and C# namespace) is not its name: the name is no
    /// identifier, or another package in the same code directory took it.
    FolderRenamed,
    /// A class is not its component's name with the prefix.
    ClassRenamed,
    /// A field is not its member's name with the prefix.
    MemberRenamed,
    /// `getMemberByName` is set but an earlier member has the same name, so this one is
    /// bound by index.
    BoundByIndex,
}

impl WarningKind {
    /// The stable code a publish report gives this warning.
    pub fn code(self) -> &'static str {
        match self {
            WarningKind::UnknownCodeType => "code_type_unknown",
            WarningKind::FolderRenamed => "code_folder_renamed",
            WarningKind::ClassRenamed => "code_class_renamed",
            WarningKind::MemberRenamed => "code_member_renamed",
            WarningKind::BoundByIndex => "code_bound_by_index",
        }
    }
}

/// Why no code could be generated.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CodegenError {
    /// No package has this id or name.
    #[error("no package has the id or name {0:?}")]
    NoSuchPackage(String),
    /// More than one package has this name (ids are unique).
    #[error("more than one package is named {0:?}; name it by id")]
    AmbiguousPackage(String),
    /// The project's engine takes code in a language this generator does not write.
    #[error(
        "code generation writes C# (Unity, MonoGame) and TypeScript (Layabox, Egret, Pixi, ThreeJS, CocosCreator), not code for {0}"
    )]
    UnsupportedProjectType(String),
    /// A package asks for code but neither it nor the project says where code goes.
    #[error(
        "package {package:?} asks for code (genCode) but no codePath is set in settings/Publish.json's codeGeneration or in its own publish settings"
    )]
    NoCodePath { package: String },
}

/// Generates the binding code of the packages named (by id, or by name when no id
/// matches) that ask for it: a package whose `genCode` is off, or every package when the
/// project's `allowGenCode` is off, generates nothing, as in the editor.
pub fn generate(project: &UamProject, package_ids: &[&str]) -> Result<GeneratedCode, CodegenError> {
    generate_into(project, package_ids, None)
}

/// [`generate`], with every package's code going under `code_dir` when given (a caller's
/// choice over the settings' `codePath`s).
pub fn generate_into(
    project: &UamProject,
    package_ids: &[&str],
    code_dir: Option<&str>,
) -> Result<GeneratedCode, CodegenError> {
    let mut settings = CodegenSettings::of(project);
    settings.code_dir_override = code_dir.map(str::to_owned);
    let mut packages: Vec<&UamPackage> = Vec::new();
    for key in package_ids {
        let package = find_package(project, key)?;
        if settings.generates(package) && !packages.iter().any(|p| p.id == package.id) {
            packages.push(package);
        }
    }
    let mut out = GeneratedCode::default();
    if packages.is_empty() {
        return Ok(out);
    }
    let (language, unknown_code_type) = settings::language(project, &settings.code_type)?;
    if let Some(package) = packages.iter().find(|p| settings.code_dir(p).is_empty()) {
        return Err(CodegenError::NoCodePath {
            package: package.name.clone(),
        });
    }
    if unknown_code_type {
        out.warnings.push(CodegenWarning {
            kind: WarningKind::UnknownCodeType,
            package_id: String::new(),
            resource_id: None,
            message: format!(
                "codeType {:?} names no language this generator writes; the project's engine chose {}",
                settings.code_type,
                match language {
                    Language::CSharp => "C#",
                    Language::TypeScript(_) => "TypeScript",
                }
            ),
        });
    }

    let urls = Urls::new(project);
    let used = used_components(project, &urls);
    let ctx = Context {
        urls: &urls,
        used: &used,
        settings: &settings,
        language,
    };
    // Folders are kept apart within each code directory (packages may share one).
    let mut folders: BTreeMap<String, Taken> = BTreeMap::new();
    for package in packages {
        let code_dir = settings.code_dir(package).to_owned();
        let taken = folders.entry(code_dir.clone()).or_insert_with(|| {
            let mut taken = Taken::new(true);
            // A C# namespace named like a runtime class hides it from the code inside.
            if language == Language::CSharp {
                for name in RUNTIME_NAMES {
                    taken.reserve(name);
                }
            }
            taken
        });
        let folder = taken.claim(&identifier(&package.name), |name| match language {
            Language::CSharp => names::is_csharp_keyword(name),
            Language::TypeScript(_) => names::is_typescript_reserved(name),
        });
        if folder != package.name {
            out.warnings.push(CodegenWarning {
                kind: WarningKind::FolderRenamed,
                package_id: package.id.clone(),
                resource_id: None,
                message: format!(
                    "package {:?} writes its code to folder {folder:?} (binder {folder}Binder): its name is no identifier, is reserved, or another package in {code_dir:?} took it",
                    package.name
                ),
            });
        }
        let classes = collect(&ctx, package, folder, &mut out.warnings);
        let files = match language {
            Language::CSharp => csharp::write(&classes, &settings),
            Language::TypeScript(engine) => typescript::write(&classes, engine),
        };
        out.files
            .extend(files.into_iter().map(|(path, text)| GeneratedFile {
                code_dir: code_dir.clone(),
                path: format!("{}/{path}", classes.folder),
                text,
            }));
    }
    Ok(out)
}

/// The package with this id, else the one package with this name.
fn find_package<'a>(project: &'a UamProject, key: &str) -> Result<&'a UamPackage, CodegenError> {
    match find_package_by_key(project, key) {
        Lookup::Found(package) => Ok(package),
        Lookup::Ambiguous(_) => Err(CodegenError::AmbiguousPackage(key.to_owned())),
        Lookup::NotFound(_) => Err(CodegenError::NoSuchPackage(key.to_owned())),
    }
}

/// The first line of every generated file: what made it, so no one edits it by hand.
pub(crate) const MARK: &str =
    "// Generated by ofgui from the FairyGUI project. Do not edit: publishing again rewrites it.";
