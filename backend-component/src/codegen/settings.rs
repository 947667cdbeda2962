//! What the project says about code generation: `settings/Publish.json`'s `codeGeneration`
//! block, the package's `<publish genCode codePath>`, and the language the project's engine
//! takes.

use ofgui_contracts::uam::{UamPackage, UamProject};
use serde_json::Value;

use super::CodegenError;

/// The `codeGeneration` block of `settings/Publish.json`. A key the file leaves out takes
/// the value a new project of today's editor writes (see RULES.md).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodegenSettings {
    /// The project-wide switch (the editor's "允许发布代码"). Editors before it existed
    /// generated whenever a package asked, so a file without the key allows it.
    pub allow_gen_code: bool,
    /// Where code goes, as the file writes it: the editor resolves a relative path against
    /// the project directory. A package's own `codePath` wins over it.
    pub code_path: String,
    pub class_name_prefix: String,
    pub member_name_prefix: String,
    /// The namespace the package namespaces go under (C# only).
    pub package_name: String,
    /// Leave out children with default names (`n12`) and the parts an extension binds
    /// itself, and then components left with no member.
    pub ignore_noname: bool,
    /// Bind members by name (`GetChild("x")`) rather than by index.
    pub get_member_by_name: bool,
    /// `''` lets the project's engine choose the language.
    pub code_type: String,
    /// Where a caller sends every package's code instead (not from the settings).
    pub code_dir_override: Option<String>,
}

impl Default for CodegenSettings {
    fn default() -> Self {
        CodegenSettings {
            allow_gen_code: true,
            code_path: String::new(),
            class_name_prefix: "UI_".to_owned(),
            member_name_prefix: "m_".to_owned(),
            package_name: String::new(),
            ignore_noname: true,
            get_member_by_name: false,
            code_type: String::new(),
            code_dir_override: None,
        }
    }
}

impl CodegenSettings {
    /// The project's settings (`project.settings["publish"]["codeGeneration"]`).
    pub fn of(project: &UamProject) -> Self {
        let defaults = CodegenSettings::default();
        let Some(block) = project
            .settings
            .get("publish")
            .and_then(|p| p.get("codeGeneration"))
            .and_then(Value::as_object)
        else {
            return defaults;
        };
        // `packageName` is `null` in files the editor wrote before one was set.
        let text = |key: &str, default: String| match block.get(key) {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) => String::new(),
            _ => default,
        };
        let flag =
            |key: &str, default: bool| block.get(key).and_then(Value::as_bool).unwrap_or(default);
        CodegenSettings {
            allow_gen_code: flag("allowGenCode", defaults.allow_gen_code),
            code_path: text("codePath", defaults.code_path),
            class_name_prefix: text("classNamePrefix", defaults.class_name_prefix),
            member_name_prefix: text("memberNamePrefix", defaults.member_name_prefix),
            package_name: text("packageName", defaults.package_name),
            ignore_noname: flag("ignoreNoname", defaults.ignore_noname),
            get_member_by_name: flag("getMemberByName", defaults.get_member_by_name),
            code_type: text("codeType", defaults.code_type),
            code_dir_override: None,
        }
    }

    /// Whether the editor generates code for this package: the project allows it and the
    /// package's `<publish genCode="true">` asks for it.
    pub fn generates(&self, package: &UamPackage) -> bool {
        self.allow_gen_code && package.publish.as_ref().is_some_and(|p| p.gen_code)
    }

    /// The directory the package's code goes under (its folder is inside it): the
    /// caller's override, else the package's own `codePath` when set, else the project's;
    /// `''` when none is.
    pub fn code_dir<'a>(&'a self, package: &'a UamPackage) -> &'a str {
        if let Some(dir) = &self.code_dir_override {
            return dir;
        }
        package
            .publish
            .as_ref()
            .map(|p| p.code_path.trim())
            .filter(|p| !p.is_empty())
            .unwrap_or(self.code_path.trim())
    }
}

/// The language generated code is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// Unity and MonoGame (`FairyGUI` namespace, `ConstructFromXML`).
    CSharp,
    /// The web engines (`fgui` namespace, `onConstruct`).
    TypeScript(WebEngine),
}

/// A web engine, which decides how generated TypeScript reaches the `fgui` namespace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WebEngine {
    Layabox,
    Egret,
    Pixi,
    ThreeJs,
    CocosCreator,
}

impl WebEngine {
    /// The module the runtime is imported from; `None` where the runtime is a global
    /// namespace (Layabox, Egret, Pixi load it as a script).
    pub fn runtime_module(self) -> Option<&'static str> {
        match self {
            WebEngine::CocosCreator => Some("fairygui-cc"),
            WebEngine::ThreeJs => Some("fairygui-three"),
            WebEngine::Layabox | WebEngine::Egret | WebEngine::Pixi => None,
        }
    }
}

/// The language for the project, and whether `codeType` named something unknown (then the
/// engine decides, as if it were empty).
pub(crate) fn language(
    project: &UamProject,
    code_type: &str,
) -> Result<(Language, bool), CodegenError> {
    let engine = engine_language(project);
    let code_type = code_type.trim().to_ascii_lowercase();
    let chosen = match code_type.as_str() {
        "" => None,
        "cs" | "csharp" | "c#" => Some(Language::CSharp),
        "ts" | "typescript" => Some(match engine {
            Some(Language::TypeScript(web)) => Language::TypeScript(web),
            _ => Language::TypeScript(WebEngine::Layabox),
        }),
        _ => None,
    };
    let unknown = !code_type.is_empty() && chosen.is_none();
    match chosen.or(engine) {
        Some(language) => Ok((language, unknown)),
        None => Err(CodegenError::UnsupportedProjectType(type_name(project))),
    }
}

/// The language the project's engine takes; `None` for engines whose code is neither C#
/// nor TypeScript (Cocos2dx, Unreal, Flash, …).
fn engine_language(project: &UamProject) -> Option<Language> {
    let name = project.project_type_name.trim();
    let is = |known: &str| name.eq_ignore_ascii_case(known);
    let by_name = if name.is_empty() {
        None
    } else if is("Unity") || is("MonoGame") {
        Some(Language::CSharp)
    } else if is("Layabox") {
        Some(Language::TypeScript(WebEngine::Layabox))
    } else if is("Egret") {
        Some(Language::TypeScript(WebEngine::Egret))
    } else if is("Pixi") {
        Some(Language::TypeScript(WebEngine::Pixi))
    } else if is("ThreeJS") {
        Some(Language::TypeScript(WebEngine::ThreeJs))
    } else if is("CocosCreator") {
        Some(Language::TypeScript(WebEngine::CocosCreator))
    } else {
        return None;
    };
    // Without a name, upstream's numbering (contracts' `UamProject::project_type`).
    by_name.or(match project.project_type {
        0 | 11 => Some(Language::CSharp),
        3 => Some(Language::TypeScript(WebEngine::CocosCreator)),
        4 => Some(Language::TypeScript(WebEngine::Layabox)),
        5 => Some(Language::TypeScript(WebEngine::Egret)),
        7 => Some(Language::TypeScript(WebEngine::Pixi)),
        _ => None,
    })
}

fn type_name(project: &UamProject) -> String {
    if project.project_type_name.is_empty() {
        format!("project type {}", project.project_type)
    } else {
        project.project_type_name.clone()
    }
}
