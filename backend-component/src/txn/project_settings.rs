//! `updateProjectSettings`: the project's `settings/*.json`, replaced as one snapshot.
//!
//! Decisions where the spec is silent:
//! - Every wrongly typed field is its own issue, located at its exact path
//!   (`settings.publish.path`), so an agent can fix them all in one round.
//! - Besides upstream's typed publish fields, the documented `jpegQuality` (number),
//!   `compressPNG`, `include2x`, `include3x`, `include4x` (booleans) and `fileName`
//!   (string) are type-checked too.
//! - "Unchanged" compares numbers by value (`1` equals `1.0`), as JSON does.

use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::ops::UpdateProjectSettings;
use serde_json::{Map, Value};

use super::issue::Issue;
use super::workspace::{Op, Workspace};

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
