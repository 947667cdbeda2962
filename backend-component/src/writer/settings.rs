//! The project settings files, `settings/{Publish,Common,Adaptation,CustomProperties,i18n}.json`,
//! each the JSON object of one `settings` key (`reader::project::read_settings`).
//!
//! A changed file is patched in place ([`settings_document`]): a changed value is replaced
//! where it stands, a new key joins its siblings in their style (indentation, spacing after
//! the colon; in key order when the siblings are sorted, as the editor writes them, else
//! at the end), a removed key goes with its line and comma. Key order, white space and the
//! spelling of every untouched number stay byte-identical. Arrays whose length changes are
//! replaced whole, laid out like the document's arrays. A file whose key did not change is
//! not touched.
//!
//! A new file is written in the editor's layout ([`settings_json`]): tab-indented, `"key":value`,
//! one-line arrays of plain values, an empty object as `{`, an empty line and `}`, no final
//! newline (as the corpora's editor-written files).

use serde_json::{Map, Value};

use super::lexical::num;
use super::patch::Unpatchable;
use crate::reader::SETTINGS_FILES;
use crate::rules::settings::same_json;
use crate::source::json::{JsonDoc, JsonPatch, Kind, Node, Style};

/// What a save does to one settings file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsWrite {
    /// Project-relative, e.g. `settings/Publish.json`.
    pub path: String,
    /// The file's new text; `None` removes the file (its key left the settings).
    pub text: Option<String>,
}

/// The settings files a change of the project settings from `old` to `new` writes;
/// `original` gives a file's text as read, by path (`None`: there was none). Files whose
/// key did not change are not listed.
///
/// A key that leaves the settings removes `CustomProperties.json` or `i18n.json` (as the
/// editor does) and empties the other three files (`{}`, which reads as the settings
/// without that key). A key no settings file holds cannot be saved.
pub fn settings_files<'o>(
    old: &Map<String, Value>,
    new: &Map<String, Value>,
    original: impl Fn(&str) -> Option<&'o str>,
) -> Result<Vec<SettingsWrite>, Unpatchable> {
    let mut writes = Vec::new();
    for key in new.keys().chain(old.keys()) {
        let known = SETTINGS_FILES.iter().any(|(_, k)| k == key);
        let changed = match (old.get(key), new.get(key)) {
            (Some(a), Some(b)) => !same_json(a, b),
            _ => true,
        };
        if !known && changed {
            return Err(Unpatchable {
                at: format!("settings.{key}"),
                reason: format!(
                    "no settings file holds the key {key}; only {} are saved",
                    known_keys()
                ),
            });
        }
    }
    for (file, key) in SETTINGS_FILES {
        let path = format!("settings/{file}");
        let text = match (old.get(key), new.get(key)) {
            (Some(a), Some(b)) if same_json(a, b) => continue,
            (None, None) => continue,
            (_, None) if matches!(key, "customProperties" | "i18n") => None,
            (before, after) => {
                let empty = Value::Object(Map::new());
                let after = after.unwrap_or(&empty);
                match (original(&path), before) {
                    (Some(text), Some(before)) => {
                        match settings_document(text, before, after, &path)? {
                            Some(patched) => Some(patched),
                            None => continue,
                        }
                    }
                    // No file, or one the reader could not take: the edit says what it holds.
                    _ => Some(settings_json(after)),
                }
            }
        };
        writes.push(SettingsWrite { path, text });
    }
    Ok(writes)
}

fn known_keys() -> String {
    SETTINGS_FILES
        .iter()
        .map(|(_, key)| *key)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A whole settings file in the editor's layout.
pub fn settings_json(value: &Value) -> String {
    format_value(value, "", &editor_style())
}

/// The layout of the editor's own settings files.
fn editor_style() -> Style {
    Style {
        newline: "\n",
        unit: "\t".into(),
        colon: ":".into(),
        inline_arrays: true,
        comma: ",".into(),
        open_empty_objects: true,
    }
}

/// The patched text of a settings file read as `old` that must now read as `new`; `None`
/// when they are equal. `file` locates refusals.
pub fn settings_document(
    original: &str,
    old: &Value,
    new: &Value,
    file: &str,
) -> Result<Option<String>, Unpatchable> {
    if same_json(old, new) {
        return Ok(None);
    }
    let (bom, text) = match original.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", original),
    };
    let doc = JsonDoc::parse(text).map_err(|e| Unpatchable {
        at: file.to_owned(),
        reason: format!("the file is not JSON ({}), so it cannot be patched", e.0),
    })?;
    let style = doc.style();
    let mut patch = JsonPatch::new(&doc);
    patch_value(&doc, &mut patch, &doc.root, old, new, &style, file)?;
    let patched = patch.finish().map_err(|conflict| Unpatchable {
        at: file.to_owned(),
        reason: format!("the edits of the file overlap ({conflict})"),
    })?;
    // What the reader will take from the patched text must be the new settings.
    let reread = serde_json::from_str::<Value>(&patched).ok();
    if !reread.is_some_and(|reread| same_json(&reread, new)) {
        return Err(Unpatchable {
            at: file.to_owned(),
            reason: "the patched file would read back otherwise than the settings (the file repeats a key)".into(),
        });
    }
    Ok(Some(format!("{bom}{patched}")))
}

/// Edits `node` (which reads as `old`) so that it reads as `new`.
fn patch_value(
    doc: &JsonDoc,
    patch: &mut JsonPatch,
    node: &Node,
    old: &Value,
    new: &Value,
    style: &Style,
    at: &str,
) -> Result<(), Unpatchable> {
    if same_json(old, new) {
        return Ok(());
    }
    match (&node.kind, old, new) {
        (Kind::Object(_), Value::Object(_), Value::Object(after)) => {
            patch_object(doc, patch, node, after, style, at)
        }
        (Kind::Array(items), Value::Array(before), Value::Array(after))
            if items.len() == before.len() && before.len() == after.len() =>
        {
            for (index, item) in items.iter().enumerate() {
                let at = format!("{at}[{index}]");
                patch_value(doc, patch, item, &before[index], &after[index], style, &at)?;
            }
            Ok(())
        }
        _ => {
            let indent = doc.line_indent(node.span.start);
            patch.replace(node, format_value(new, indent, style));
            Ok(())
        }
    }
}

fn patch_object(
    doc: &JsonDoc,
    patch: &mut JsonPatch,
    node: &Node,
    after: &Map<String, Value>,
    style: &Style,
    at: &str,
) -> Result<(), Unpatchable> {
    let Kind::Object(members) = &node.kind else {
        return Ok(());
    };
    let text = doc.text();
    for (index, member) in members.iter().enumerate() {
        if members[..index].iter().any(|m| m.key == member.key) {
            return Err(Unpatchable {
                at: format!("{at}/{}", member.key),
                reason: format!(
                    "the key {} appears more than once here, so which one the edit means cannot be told",
                    member.key
                ),
            });
        }
    }
    let removed: Vec<usize> = (0..members.len())
        .filter(|&i| !after.contains_key(&members[i].key))
        .collect();
    let kept: Vec<usize> = (0..members.len())
        .filter(|i| !removed.contains(i))
        .collect();
    if kept.is_empty() && !after.is_empty() {
        let indent = doc.line_indent(node.span.start);
        patch.replace(
            node,
            format_value(&Value::Object(after.clone()), indent, style),
        );
        return Ok(());
    }
    if !removed.is_empty() {
        patch.remove_members(node, &removed, style);
    }
    for &index in &kept {
        let member = &members[index];
        let Some(value) = after.get(&member.key) else {
            continue;
        };
        // The value as the file holds it, which is what the model read.
        let before =
            serde_json::from_str::<Value>(&text[member.value.span.clone()]).unwrap_or(Value::Null);
        let at = format!("{at}/{}", member.key);
        patch_value(doc, patch, &member.value, &before, value, style, &at)?;
    }
    let mut added: Vec<(&String, &Value)> = after
        .iter()
        .filter(|(key, _)| !members.iter().any(|m| &m.key == *key))
        .collect();
    let sorted = kept.len() >= 2
        && kept
            .windows(2)
            .all(|pair| members[pair[0]].key < members[pair[1]].key);
    if sorted {
        added.sort_by(|a, b| a.0.cmp(b.0));
    }
    let indent = doc.member_indent(node, style);
    for (key, value) in added {
        let before = if sorted {
            kept.iter().copied().find(|&i| members[i].key > *key)
        } else {
            None
        };
        let key = serde_json::to_string(key).unwrap_or_default();
        let value = format_value(value, &indent, style);
        patch.insert_member(node, before, &kept, &key, &value, style);
    }
    Ok(())
}

/// `value` as JSON text laid out in `style`, for a place whose line is indented by `indent`.
fn format_value(value: &Value, indent: &str, style: &Style) -> String {
    let inner = format!("{indent}{}", style.unit);
    let newline = style.newline;
    match value {
        Value::Object(members) if members.is_empty() => style.empty_object(indent),
        Value::Object(members) => {
            let lines: Vec<String> = members
                .iter()
                .map(|(key, value)| {
                    format!(
                        "{inner}{}{}{}",
                        serde_json::to_string(key).unwrap_or_default(),
                        style.colon,
                        format_value(value, &inner, style)
                    )
                })
                .collect();
            format!(
                "{{{newline}{}{newline}{indent}}}",
                lines.join(&format!(",{newline}"))
            )
        }
        Value::Array(items) if items.is_empty() => "[]".into(),
        Value::Array(items) => {
            let plain = items
                .iter()
                .all(|item| !item.is_object() && !item.is_array());
            if style.inline_arrays && plain {
                let items: Vec<String> = items
                    .iter()
                    .map(|item| format_value(item, indent, style))
                    .collect();
                format!("[{}]", items.join(&style.comma))
            } else {
                let lines: Vec<String> = items
                    .iter()
                    .map(|item| format!("{inner}{}", format_value(item, &inner, style)))
                    .collect();
                format!(
                    "[{newline}{}{newline}{indent}]",
                    lines.join(&format!(",{newline}"))
                )
            }
        }
        Value::Number(number) => match (number.as_i64(), number.as_u64(), number.as_f64()) {
            (Some(int), _, _) => int.to_string(),
            (_, Some(int), _) => int.to_string(),
            // JavaScript's spelling (`1` for 1.0), as the editor writes numbers.
            (_, _, Some(float)) => num(float),
            _ => number.to_string(),
        },
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}
