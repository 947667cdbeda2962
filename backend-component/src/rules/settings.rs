//! The typed fields of the project settings (`settings/*.json`): what each field must
//! hold, for transactions (which refuse a new mistyped field) and validation (which
//! reports one the project has), so the two cannot disagree.
//!
//! `null` counts as unset: the editor writes it for fields it never filled
//! (`publish.codeGeneration.packageName` is `null` in real projects) and reads it as the
//! default, so a snapshot read from a project is always accepted back.

use serde_json::{Map, Value};

/// What a settings field must hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    Str,
    Bool,
    Number,
    StrArray,
    Array,
    Object,
    /// `[{ "name": string, "path": string }]` (i18n language files).
    LangFiles,
}

impl Expect {
    pub fn accepts(self, value: &Value) -> bool {
        match self {
            _ if value.is_null() => true,
            Expect::Str => value.is_string(),
            Expect::Bool => value.is_boolean(),
            Expect::Number => value.is_number(),
            Expect::StrArray => value
                .as_array()
                .is_some_and(|items| items.iter().all(Value::is_string)),
            Expect::Array => value.is_array(),
            Expect::Object => value.is_object(),
            Expect::LangFiles => value.as_array().is_some_and(|files| {
                files.iter().all(|entry| {
                    entry.as_object().is_some_and(|e| {
                        e.get("name").is_some_and(Value::is_string)
                            && e.get("path").is_some_and(Value::is_string)
                    })
                })
            }),
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Expect::Str => "a string",
            Expect::Bool => "a boolean",
            Expect::Number => "a number",
            Expect::StrArray => "an array of strings",
            Expect::Array => "an array",
            Expect::Object => "a JSON object",
            Expect::LangFiles => "an array of {\"name\": string, \"path\": string} objects",
        }
    }
}

/// A settings object and its typed fields (absent fields are fine); a field whose value
/// is itself an object of typed fields is listed as its own object, under its path.
const OBJECTS: &[(&str, &[(&str, Expect)])] = {
    use Expect::{Array, Bool, LangFiles, Number, Object, Str, StrArray};
    &[
        (
            "",
            &[
                ("publish", Object),
                ("common", Object),
                ("adaptation", Object),
                ("customProperties", Object),
                ("i18n", Object),
            ],
        ),
        (
            "publish",
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
                ("atlasSetting", Object),
                ("codeGeneration", Object),
            ],
        ),
        (
            "publish.atlasSetting",
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
        ),
        (
            "publish.codeGeneration",
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
        ),
        (
            "common",
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
                ("scrollBars", Object),
            ],
        ),
        (
            "common.scrollBars",
            &[
                ("defaultDisplay", Str),
                ("horizontal", Str),
                ("vertical", Str),
            ],
        ),
        (
            "adaptation",
            &[
                ("designResolutionX", Number),
                ("designResolutionY", Number),
                ("scaleMode", Str),
                ("screenMathMode", Str),
                ("devices", Array),
            ],
        ),
        ("i18n", &[("langFiles", LangFiles)]),
    ]
};

/// A settings field holding the wrong type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mistyped {
    /// Under the settings: `publish.codeGeneration.packageName`.
    pub path: String,
    /// The field's own name: `packageName`.
    pub field: &'static str,
    pub expected: Expect,
    /// What it holds instead (`null`, `a number`, …).
    pub found: &'static str,
}

/// Every mistyped field of a settings snapshot, in table order.
pub fn mistyped_settings(settings: &Map<String, Value>) -> Vec<Mistyped> {
    let mut found = Vec::new();
    for (base, fields) in OBJECTS {
        let object = if base.is_empty() {
            Some(settings)
        } else {
            base.split('.').try_fold(settings, |object, key| {
                object.get(key).and_then(Value::as_object)
            })
        };
        let Some(object) = object else { continue };
        for (field, expected) in *fields {
            if let Some(value) = object.get(*field)
                && !expected.accepts(value)
            {
                found.push(Mistyped {
                    path: if base.is_empty() {
                        field.to_string()
                    } else {
                        format!("{base}.{field}")
                    },
                    field,
                    expected: *expected,
                    found: type_name(value),
                });
            }
        }
    }
    found
}

/// The JSON type name of a value, for messages.
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The `ui://` references the settings hold: `(path under the settings, URL, the kinds it
/// may name)`. The default scroll bars and the tooltip are components, the click sound a
/// sound; a font may be a font resource.
pub fn settings_urls(
    settings: &Map<String, Value>,
) -> Vec<(String, &str, &'static [&'static str])> {
    const COMPONENT: &[&str] = &["component"];
    const SOUND: &[&str] = &["sound"];
    const FONT: &[&str] = &["font"];
    let mut found = Vec::new();
    for (path, kinds) in [
        ("common.scrollBars.vertical", COMPONENT),
        ("common.scrollBars.horizontal", COMPONENT),
        ("common.tipsRes", COMPONENT),
        ("common.buttonClickSound", SOUND),
        ("common.font", FONT),
    ] {
        let mut keys = path.split('.');
        let first = keys.next().and_then(|key| settings.get(key));
        let value = keys
            .try_fold(first, |at, key| Some(at?.get(key)))
            .flatten()
            .and_then(Value::as_str);
        if let Some(url) = value.filter(|url| url.starts_with("ui://")) {
            found.push((path.to_string(), url, kinds));
        }
    }
    found
}

/// JSON equality with numbers compared by value (`1` equals `1.0`) and objects by key
/// set: when an edit or a save counts settings as unchanged.
pub fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_json(a, b))
        }
        (Value::Object(x), Value::Object(y)) => same_object(x, y),
        _ => a == b,
    }
}

/// [`same_json`] of two objects.
pub fn same_object(x: &Map<String, Value>, y: &Map<String, Value>) -> bool {
    x.len() == y.len()
        && x.iter()
            .all(|(key, value)| y.get(key).is_some_and(|other| same_json(value, other)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn settings(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn null_is_unset_and_wrong_types_are_found_at_their_path() {
        let ok = settings(json!({ "publish": { "codeGeneration": { "packageName": null } } }));
        assert_eq!(mistyped_settings(&ok), []);
        let bad = settings(json!({
            "publish": { "path": 3, "codeGeneration": { "packageName": 1 } },
            "common": { "scrollBars": "visible" },
            "i18n": { "langFiles": [{ "name": "en" }] },
            "customProperties": []
        }));
        let paths: Vec<String> = mistyped_settings(&bad)
            .into_iter()
            .map(|m| m.path)
            .collect();
        assert_eq!(
            paths,
            [
                "customProperties",
                "publish.path",
                "publish.codeGeneration.packageName",
                "common.scrollBars",
                "i18n.langFiles"
            ]
        );
    }

    #[test]
    fn settings_urls_are_found() {
        let s = settings(
            json!({ "common": { "scrollBars": { "vertical": "ui://abc", "horizontal": "" }, "tipsRes": "ui://x" } }),
        );
        let found: Vec<(String, &str)> = settings_urls(&s)
            .into_iter()
            .map(|(p, u, _)| (p, u))
            .collect();
        assert_eq!(
            found,
            [
                ("common.scrollBars.vertical".to_string(), "ui://abc"),
                ("common.tipsRes".to_string(), "ui://x")
            ]
        );
    }
}
