//! Settings operations: the project's `settings/*.json` and a package's compression and
//! publish settings, each replaced as one snapshot.
//!
//! Decisions where the spec is silent:
//! - Every wrongly typed field is its own issue, located at its exact path
//!   (`settings.publish.path`), so an agent can fix them all in one round.
//! - Besides upstream's typed publish fields, the documented `jpegQuality` (number),
//!   `compressPNG`, `include2x`, `include3x`, `include4x` (booleans) and `fileName`
//!   (string) are type-checked too.
//! - "Unchanged" compares numbers by value (`1` equals `1.0`), as JSON does.
//! - `updatePackageSettings` with `publish: null` is refused, as the spec says; a
//!   package read without `<publish>` therefore needs a complete publish snapshot (the
//!   reader's defaults: maxAtlasSize 2048, sizeOption pot, maxAtlasIndex 10, …).
//! - Lowering `maxAtlasIndex` below the atlas slot of one of the package's folders is
//!   refused (`invalid_package_settings`): the folder would point past the last slot.

use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::ops::{PackageSettings, UpdatePackageSettings, UpdateProjectSettings};
use serde_json::{Map, Value};

use super::issue::Issue;
use super::package_settings::{self, Wording};
use super::workspace::{Op, Workspace};

// ---------------------------------------------------------------- project settings

/// The JSON type name of a value, for messages.
fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[derive(Clone, Copy)]
enum Expect {
    Str,
    Bool,
    Number,
    StrArray,
    Array,
}

impl Expect {
    fn accepts(self, value: &Value) -> bool {
        match self {
            Expect::Str => value.is_string(),
            Expect::Bool => value.is_boolean(),
            Expect::Number => value.is_number(),
            Expect::StrArray => value
                .as_array()
                .is_some_and(|items| items.iter().all(Value::is_string)),
            Expect::Array => value.is_array(),
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Expect::Str => "a string",
            Expect::Bool => "a boolean",
            Expect::Number => "a number",
            Expect::StrArray => "an array of strings",
            Expect::Array => "an array",
        }
    }
}

/// Checks the typed fields of one settings object; absent fields are fine.
fn check_fields(
    at: &Op<'_>,
    base: &str,
    object: &Map<String, Value>,
    fields: &[(&str, Expect)],
    issues: &mut Vec<Issue>,
) {
    for (name, expect) in fields {
        if let Some(value) = object.get(*name)
            && !expect.accepts(value)
        {
            let path = format!("{base}.{name}");
            issues.push(
                at.issue(
                    Code::InvalidProjectSettings,
                    &path,
                    format!(
                        "{path} must be {}; it is {}.",
                        expect.describe(),
                        type_name(value)
                    ),
                )
                .field(name),
            );
        }
    }
}

/// The object at `settings.<key>`, or an issue when it is present but not an object.
fn object_at<'v>(
    at: &Op<'_>,
    base: &str,
    key: &str,
    value: Option<&'v Value>,
    issues: &mut Vec<Issue>,
) -> Option<&'v Map<String, Value>> {
    let value = value?;
    match value {
        Value::Object(map) => Some(map),
        other => {
            let path = format!("{base}.{key}");
            issues.push(
                at.issue(
                    Code::InvalidProjectSettings,
                    &path,
                    format!("{path} must be a JSON object; it is {}.", type_name(other)),
                )
                .field(key),
            );
            None
        }
    }
}

fn check_project_settings(at: &Op<'_>, settings: &Map<String, Value>) -> Vec<Issue> {
    use Expect::{Array, Bool, Number, Str, StrArray};
    let mut issues = Vec::new();
    let root = "settings";
    if let Some(publish) = object_at(at, root, "publish", settings.get("publish"), &mut issues) {
        let base = "settings.publish";
        check_fields(
            at,
            base,
            publish,
            &[
                ("fileExtension", Str),
                ("path", Str),
                ("branchPath", Str),
                ("fileName", Str),
                ("binaryFormat", Bool),
                ("compressDesc", Bool),
                ("seperatedAtlasForBranch", Bool),
                ("compressPNG", Bool),
                ("include2x", Bool),
                ("include3x", Bool),
                ("include4x", Bool),
                ("includeHighResolution", Number),
                ("branchProcessing", Number),
                ("packageCount", Number),
                ("jpegQuality", Number),
            ],
            &mut issues,
        );
        if let Some(atlas) = object_at(
            at,
            base,
            "atlasSetting",
            publish.get("atlasSetting"),
            &mut issues,
        ) {
            check_fields(
                at,
                "settings.publish.atlasSetting",
                atlas,
                &[
                    ("maxSize", Number),
                    ("padding", Number),
                    ("paging", Bool),
                    ("forceSquare", Bool),
                    ("fast", Bool),
                    ("allowRotation", Bool),
                    ("trimImage", Bool),
                    ("extractAlpha", Bool),
                    ("sizeOption", Str),
                ],
                &mut issues,
            );
        }
        if let Some(code) = object_at(
            at,
            base,
            "codeGeneration",
            publish.get("codeGeneration"),
            &mut issues,
        ) {
            check_fields(
                at,
                "settings.publish.codeGeneration",
                code,
                &[
                    ("allowGenCode", Bool),
                    ("getMemberByName", Bool),
                    ("ignoreNoname", Bool),
                    ("classNamePrefix", Str),
                    ("codePath", Str),
                    ("codeType", Str),
                    ("memberNamePrefix", Str),
                    ("packageName", Str),
                ],
                &mut issues,
            );
        }
    }
    if let Some(common) = object_at(at, root, "common", settings.get("common"), &mut issues) {
        let base = "settings.common";
        check_fields(
            at,
            base,
            common,
            &[
                ("font", Str),
                ("textColor", Str),
                ("buttonClickSound", Str),
                ("pivot", Str),
                ("tipsRes", Str),
                ("fontSize", Number),
                ("colorScheme", StrArray),
                ("fontScheme", StrArray),
                ("fontSizeScheme", StrArray),
            ],
            &mut issues,
        );
        if let Some(bars) = object_at(
            at,
            base,
            "scrollBars",
            common.get("scrollBars"),
            &mut issues,
        ) {
            check_fields(
                at,
                "settings.common.scrollBars",
                bars,
                &[
                    ("defaultDisplay", Str),
                    ("horizontal", Str),
                    ("vertical", Str),
                ],
                &mut issues,
            );
        }
    }
    if let Some(adaptation) = object_at(
        at,
        root,
        "adaptation",
        settings.get("adaptation"),
        &mut issues,
    ) {
        check_fields(
            at,
            "settings.adaptation",
            adaptation,
            &[
                ("designResolutionX", Number),
                ("designResolutionY", Number),
                ("scaleMode", Str),
                ("screenMathMode", Str),
                ("devices", Array),
            ],
            &mut issues,
        );
    }
    object_at(
        at,
        root,
        "customProperties",
        settings.get("customProperties"),
        &mut issues,
    );
    if let Some(i18n) = object_at(at, root, "i18n", settings.get("i18n"), &mut issues) {
        let lang_files_ok = i18n
            .get("langFiles")
            .and_then(Value::as_array)
            .is_some_and(|files| {
                files.iter().all(|entry| {
                    entry.as_object().is_some_and(|e| {
                        e.get("name").is_some_and(Value::is_string)
                            && e.get("path").is_some_and(Value::is_string)
                    })
                })
            });
        if !lang_files_ok {
            issues.push(
                at.issue(
                    Code::InvalidProjectSettings,
                    "settings.i18n.langFiles",
                    "settings.i18n.langFiles must be an array of {\"name\": string, \"path\": string} objects (use [] for none).",
                )
                .field("langFiles"),
            );
        }
    }
    issues
}

/// JSON equality with numbers compared by value and objects by key set.
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_json(a, b))
        }
        (Value::Object(x), Value::Object(y)) => same_object(x, y),
        _ => a == b,
    }
}

fn same_object(x: &Map<String, Value>, y: &Map<String, Value>) -> bool {
    x.len() == y.len()
        && x.iter()
            .all(|(key, value)| y.get(key).is_some_and(|other| same_json(value, other)))
}

/// Settings with a missing `publish`, `common` or `adaptation` read as `{}`.
fn canonical_settings(settings: &Map<String, Value>) -> Map<String, Value> {
    let mut canonical = settings.clone();
    for key in ["publish", "common", "adaptation"] {
        canonical
            .entry(key)
            .or_insert_with(|| Value::Object(Map::new()));
    }
    canonical
}

pub(super) fn update_project(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &UpdateProjectSettings,
) -> Result<(), Vec<Issue>> {
    let issues = check_project_settings(at, &op.settings);
    if !issues.is_empty() {
        return Err(issues);
    }
    if same_object(
        &canonical_settings(&workspace.project().settings),
        &canonical_settings(&op.settings),
    ) {
        return Err(vec![at.issue(
            Code::ProjectSettingsUnchanged,
            "settings",
            "The settings equal the current project settings; nothing would change. Query the project settings and send the edited snapshot.",
        )]);
    }
    *workspace.settings_mut() = op.settings.clone();
    Ok(())
}

// ---------------------------------------------------------------- package settings

/// Settings with atlases sorted by slot, for comparison.
fn canonical_package_settings(settings: &PackageSettings) -> PackageSettings {
    let mut canonical = settings.clone();
    if let Some(publish) = &mut canonical.publish {
        publish
            .atlases
            .sort_by(|a, b| a.index.get().total_cmp(&b.index.get()));
    }
    canonical
}

pub(super) fn update_package(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &UpdatePackageSettings,
) -> Result<(), Vec<Issue>> {
    let package = workspace
        .find_package(at, "selector.packageId", &op.selector.package_id)
        .map_err(|issue| vec![issue])?;
    let pkg = &workspace.project().packages[package];
    let settings = &op.settings;
    let folder_atlases: Vec<(String, f64)> = pkg
        .folders
        .iter()
        .filter_map(|f| {
            f.atlas
                .parse::<f64>()
                .ok()
                .map(|slot| (f.path.clone(), slot))
        })
        .collect();
    let problems = package_settings::problems(
        settings.jpeg_quality,
        settings.publish.as_ref(),
        &folder_atlases,
    );
    let issues: Vec<Issue> = problems
        .iter()
        .map(|problem| {
            let key = problem.key();
            let field = key.strip_prefix("publish.").unwrap_or(&key);
            at.issue(
                Code::InvalidPackageSettings,
                &format!("settings.{key}"),
                problem.message(Wording::UpdatePackageSettings),
            )
            .field(field)
        })
        .collect();
    if !issues.is_empty() {
        return Err(issues);
    }
    let current = PackageSettings {
        compress_png: pkg.compress_png,
        jpeg_quality: pkg.jpeg_quality,
        publish: pkg.publish.clone(),
    };
    if canonical_package_settings(&current) == canonical_package_settings(settings) {
        return Err(vec![at.issue(
            Code::PackageSettingsUnchanged,
            "settings",
            format!(
                "The settings equal package {}'s current settings; nothing would change.",
                pkg.id
            ),
        )]);
    }
    let target = workspace.package_mut(package);
    target.compress_png = settings.compress_png;
    target.jpeg_quality = settings.jpeg_quality;
    target.publish = settings.publish.clone();
    Ok(())
}
