//! `ofgui-mcp-host apply <project> <batch.json> [--save]`: what a batch changes, or, with
//! `--save`, the batch applied and saved.

use ofgui_contracts::methods::MethodId;
use std::fmt::Write as _;
use std::io::Read as _;
use std::path::Path;

use ofgui_contracts::api::{
    Change, DiskChanges, FileKind, GeneratedValues, SessionSnapshot, TransactionPreview,
};
use ofgui_contracts::cli::{ApplyData, ExitStatus};
use ofgui_contracts::error::BackendError;
use serde_json::{Value, json};

use super::query::spell;
use super::{Done, Project};
use crate::cli::args::Args;

pub(super) async fn run(
    args: &Args,
    path: &Path,
    batch: &Path,
    save: bool,
) -> Result<Done, BackendError> {
    let operations = read_batch(batch)?;
    let count = operations.as_array().map_or(0, Vec::len);
    // A preview writes nothing: it needs no lock. A save takes it.
    let body = async |project: &Project| {
        // The project as it is on disk is revision 0.
        let input = json!({
            "sessionId": project.session_id(),
            "expectedRevision": 0,
            "operations": operations,
        });
        if !save {
            let (preview, additions): (TransactionPreview, _) = project
                .call_with_additions(MethodId::PreflightTransaction, input)
                .await?;
            let generated = additions.generated.unwrap_or_default();
            let text = preview_text(project, count, &preview, &generated);
            let data = ApplyData::Preview { preview, generated };
            return Done::new(&data, text, ExitStatus::Success);
        }
        let (applied, additions): (SessionSnapshot, _) = project
            .call_with_additions(MethodId::ApplyTransaction, input)
            .await?;
        let generated = additions.generated.unwrap_or_default();
        let (saved, additions): (SessionSnapshot, _) = project
            .call_with_additions(
                MethodId::SaveSession,
                json!({ "sessionId": project.session_id(), "expectedRevision": applied.revision }),
            )
            .await?;
        let disk = additions.saved.unwrap_or_default();
        let text = saved_text(project, count, &saved, &disk, &generated);
        let data = ApplyData::Saved {
            revision: saved.last_saved_revision,
            generated,
            disk,
        };
        Done::new(&data, text, ExitStatus::Success)
    };
    match save {
        true => Project::with(args, path, body).await,
        false => Project::reading(args, path, body).await,
    }
}

/// The operations of a batch file (`-`: standard input): its array, or the `operations`
/// of an object holding nothing else. The operations themselves are decoded by the
/// backend, strictly, as for a tool call.
fn read_batch(path: &Path) -> Result<Value, BackendError> {
    let shown = path.display();
    let invalid = |message: String| BackendError::invalid_input(message, None);
    let mut text = String::new();
    let read = match path.as_os_str() == "-" {
        true => std::io::stdin().read_to_string(&mut text).map(drop),
        false => std::fs::read_to_string(path).map(|read| text = read),
    };
    read.map_err(|error| invalid(format!("The batch file {shown} cannot be read: {error}.")))?;
    let batch: Value = serde_json::from_str(&text)
        .map_err(|error| invalid(format!("The batch file {shown} is not JSON: {error}.")))?;
    match batch {
        Value::Array(_) => Ok(batch),
        Value::Object(mut object) if object.len() == 1 && object.contains_key("operations") => {
            Ok(object.remove("operations").unwrap_or_default())
        }
        other => Err(invalid(format!(
            "The batch file {shown} holds {}, not a batch: write the operations array, or an object with only `operations`.",
            describe(&other)
        ))),
    }
}

fn describe(value: &Value) -> String {
    match value {
        Value::Object(object) => {
            let keys: Vec<&str> = object.keys().map(String::as_str).collect();
            format!("an object with {}", keys.join(", "))
        }
        Value::String(_) => "a string".into(),
        Value::Number(_) => "a number".into(),
        Value::Bool(_) => "a boolean".into(),
        Value::Null => "null".into(),
        Value::Array(_) => "an array".into(),
    }
}

fn change(change: Change) -> &'static str {
    match change {
        Change::Added => "added",
        Change::Removed => "removed",
        Change::Updated => "updated",
    }
}

fn operations(count: usize) -> String {
    match count {
        1 => "1 operation".into(),
        _ => format!("{count} operations"),
    }
}

fn preview_text(
    project: &Project,
    count: usize,
    preview: &TransactionPreview,
    generated: &[GeneratedValues],
) -> String {
    let mut text = format!(
        "{}: the batch of {} would change (a preview at revision {}; nothing was written):\n",
        project.shown(),
        operations(count),
        preview.base_revision
    );
    for entity in &preview.impact.entities {
        let _ = write!(
            text,
            "  {:<8} {}",
            change(entity.change),
            spell(&entity.target)
        );
        if !entity.fields.is_empty() {
            let _ = write!(text, "  {}", entity.fields.join(", "));
        }
        text.push('\n');
    }
    if preview.impact.files.is_empty() {
        text.push_str("a save would write no file\n");
    } else {
        text.push_str("files a save would touch:\n");
        for file in &preview.impact.files {
            let directory = match file.kind {
                FileKind::Directory => " (directory)",
                FileKind::File => "",
            };
            let _ = writeln!(
                text,
                "  {:<8} {}{directory}",
                change(file.change),
                file.path
            );
        }
    }
    generated_text(&mut text, generated);
    text.push_str("run again with --save to apply the batch and write these files\n");
    text
}

fn saved_text(
    project: &Project,
    count: usize,
    saved: &SessionSnapshot,
    disk: &DiskChanges,
    generated: &[GeneratedValues],
) -> String {
    let mut text = format!(
        "{}: applied {} and saved revision {}\n",
        project.shown(),
        operations(count),
        saved.last_saved_revision
    );
    let DiskChanges {
        written_paths,
        removed_paths,
        created_directories,
        removed_directories,
        kept_directories,
        recovered_paths,
        write_verified: _,
    } = disk;
    for (label, paths) in [
        ("recovered", recovered_paths),
        ("created", created_directories),
        ("wrote", written_paths),
        ("removed", removed_paths),
        ("removed", removed_directories),
        ("kept", kept_directories),
    ] {
        for path in paths {
            let _ = writeln!(text, "  {label:<9} {path}");
        }
    }
    if written_paths.is_empty() && removed_paths.is_empty() {
        text.push_str("  no file changed\n");
    }
    generated_text(&mut text, generated);
    text
}

/// What the server chose for operations that left values out (a new resource's id).
fn generated_text(text: &mut String, generated: &[GeneratedValues]) {
    for values in generated {
        let chosen: Vec<String> = values
            .values
            .iter()
            .map(|(key, value)| format!("{key}={value}"))
            .collect();
        let _ = writeln!(
            text,
            "operations[{}] {} made {}: {}",
            values.op_index,
            values.operation_kind,
            spell(&values.target),
            chosen.join(", ")
        );
    }
}
