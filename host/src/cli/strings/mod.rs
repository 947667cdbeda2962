//! `ofgui-mcp-host strings export|convert`: a project's translatable strings, exported as
//! the FairyGUI editor does (the strings XML the game loads), or as a sheet for
//! translators; and a strings file turned from one form into another.

use std::path::{Path, PathBuf};

use ofgui_contracts::api::{
    RenderComponentData, RenderedPage, StringEntry, StringsCheck, StringsExport, StringsSweep,
    SweepComponent, TextTrouble,
};
use ofgui_contracts::cli::{ExitStatus, StringsData};
use ofgui_contracts::error::BackendError;
use ofgui_contracts::methods::MethodId;
use serde_json::json;

use super::{Done, Project};
use crate::cli::args::{Args, StringsFormat};
use crate::strings_file::{Format, Row, read, write};

mod merge;

/// Entries read from the backend per call.
const PAGE: u32 = 5000;

/// What `strings export` does with a file already at `-o`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Existing {
    Refuse,
    Merge,
    Overwrite,
}

/// `strings export`: every entry, written to `out` in `format` (by default the form its
/// name says; XML to standard output without one), merged into the file there if asked.
pub(super) async fn export(
    args: &Args,
    path: &Path,
    out: Option<&Path>,
    format: Option<StringsFormat>,
    existing: Existing,
) -> Result<Done, BackendError> {
    let format = format.map(|format| match format {
        StringsFormat::Xml => Format::Xml,
        StringsFormat::Csv => Format::Csv,
        StringsFormat::Xlsx => Format::Xlsx,
    });
    let format = match (format, out) {
        (Some(format), _) => format,
        (None, Some(out)) => Format::of(out).map_err(|message| bad(message, "/out"))?,
        (None, None) => Format::Xml,
    };
    if format == Format::Xlsx && out.is_none() {
        return Err(bad(
            "XLSX is not printed to the terminal; pass -o FILE.xlsx.".into(),
            "/out",
        ));
    }
    let present = out.filter(|out| out.exists());
    let before = match (present, existing) {
        (Some(out), Existing::Refuse) => {
            return Err(bad(
                format!(
                    "{} exists and may hold a translation. Pass --merge to bring the project's strings into it (its translations stay, new keys come in empty, changed and orphaned rows are marked), or --overwrite to replace it.",
                    out.display()
                ),
                "/out",
            ));
        }
        (Some(out), Existing::Merge) => {
            let bytes = std::fs::read(out).map_err(|error| {
                bad(
                    format!("{} cannot be read: {error}.", out.display()),
                    "/out",
                )
            })?;
            Some(read(&bytes, format).map_err(|malformed| {
                bad(
                    format!(
                        "{} is not a strings file: {}. Nothing was written.",
                        out.display(),
                        malformed.0
                    ),
                    "/out",
                )
            })?)
        }
        _ => None,
    };
    Project::reading(args, path, async |project| {
        let mut export = all_entries(project, format == Format::Xml).await?;
        let document = export.document.take();
        // The editor's file as the backend wrote it; a sheet from the same entries, their
        // text as the source for the translator; or the existing file with them merged in.
        let merged = before.map(|before| merge::merge(before, &export.entries));
        let bytes = match (format, document, &merged) {
            (_, _, Some((rows, _))) => write(rows, format),
            (Format::Xml, Some(document), None) => Ok(document.into_bytes()),
            _ => write(&rows(&export.entries), format),
        }
        .map_err(|malformed| bad(malformed.0, "/format"))?;
        let written = match out {
            Some(out) => {
                write_whole(out, &bytes)?;
                Some(out.display().to_string())
            }
            None => None,
        };
        let mut text = match &written {
            Some(out) => format!("{out}: {} strings ({})\n", export.count, format.name()),
            None => String::from_utf8_lossy(&bytes).into_owned() + "\n",
        };
        if let Some((_, counts)) = &merged {
            text.push_str(&format!(
                "  merged: {} kept, {} new (empty), {} with a changed source (marked), {} orphaned (kept at the end, marked)\n",
                counts.kept, counts.added, counts.changed, counts.orphaned
            ));
        }
        for unreadable in &export.unreadable {
            text.push_str(&format!(
                "  left out (its XML could not be read): {unreadable}\n"
            ));
        }
        let data = StringsData {
            count: export.count,
            format: format.name().to_owned(),
            merged: merged.map(|(_, counts)| counts),
            written,
            from: None,
            unreadable: export.unreadable,
            ..StringsData::default()
        };
        Done::new(&data, text, ExitStatus::Success)
    })
    .await
}

/// `strings check`: a translation held against the project's strings now.
pub(super) async fn check(args: &Args, path: &Path, file: &Path) -> Result<Done, BackendError> {
    let strings = strings_file(file)?;
    Project::reading_with(args, path, vec![strings.clone()], async |project| {
        let mut input =
            json!({ "sessionId": project.session_id(), "stringsFile": strings, "limit": PAGE });
        let mut check: StringsCheck = project.call(MethodId::CheckStrings, input.clone()).await?;
        while let Some(cursor) = check.next_cursor.take() {
            input["cursor"] = json!(cursor);
            let next: StringsCheck = project.call(MethodId::CheckStrings, input.clone()).await?;
            check.findings.extend(next.findings);
            check.next_cursor = next.next_cursor;
        }
        let mut text = format!(
            "{}: {} rows held against the project's {} strings, {} finding(s)\n",
            file.display(),
            check.rows,
            check.checked,
            check.findings.len()
        );
        for finding in &check.findings {
            text.push_str(&format!(
                "  {} {}: {}\n",
                finding.key,
                kind_name(&finding.kind),
                finding.message
            ));
        }
        let status = match check.findings.is_empty() {
            true => ExitStatus::Success,
            false => ExitStatus::Refused,
        };
        let data = StringsData {
            count: check.rows,
            format: Format::of(file)
                .map(Format::name)
                .unwrap_or_default()
                .to_owned(),
            from: Some(file.display().to_string()),
            checked: Some(check.checked),
            findings: check.findings,
            ..StringsData::default()
        };
        Done::new(&data, text, status)
    })
    .await
}

/// A kind's name on the wire (`sourceChanged`, `hiddenLines`).
fn kind_name(kind: &impl serde::Serialize) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|kind| kind.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// `strings sweep`: every component in its own language and the translation's; the texts
/// the translation no longer fits, and with `pictures` a picture of each component
/// that has some.
pub(super) async fn sweep(
    args: &Args,
    path: &Path,
    file: &Path,
    pictures: Option<&Path>,
) -> Result<Done, BackendError> {
    let strings = strings_file(file)?;
    if let Some(dir) = pictures {
        std::fs::create_dir_all(dir).map_err(|error| {
            bad(
                format!("{} cannot be made a directory: {error}.", dir.display()),
                "/pictures",
            )
        })?;
    }
    Project::reading_with(args, path, vec![strings.clone()], async |project| {
        let mut input =
            json!({ "sessionId": project.session_id(), "stringsFile": strings, "limit": PAGE });
        let mut sweep: StringsSweep = project.call(MethodId::SweepStrings, input.clone()).await?;
        while let Some(cursor) = sweep.next_cursor.take() {
            input["cursor"] = json!(cursor);
            let next: StringsSweep = project.call(MethodId::SweepStrings, input.clone()).await?;
            sweep.findings.extend(next.findings);
            sweep.swept += next.swept;
            sweep.next_cursor = next.next_cursor;
        }
        // Per component, a picture at its start pages and one per other page a trouble
        // shows on.
        let mut written: Vec<Vec<String>> = vec![Vec::new(); sweep.findings.len()];
        for (index, component) in sweep.findings.iter().enumerate() {
            let Some(dir) = pictures else {
                break;
            };
            let mut pages: Vec<Option<&RenderedPage>> = Vec::new();
            for trouble in &component.troubles {
                if !pages.contains(&trouble.page.as_ref()) {
                    pages.push(trouble.page.as_ref());
                }
            }
            for page in pages {
                let mut input = json!({
                    "sessionId": project.session_id(),
                    "selector": component.selector,
                    "stringsFile": strings,
                    "compareStrings": true,
                });
                if let Some(page) = page {
                    input["controllerPages"] = json!({ &page.controller: page.page_id });
                }
                let (_, png): (RenderComponentData, Vec<u8>) = project
                    .call_picture(MethodId::RenderComponent, input)
                    .await?;
                let out = dir.join(picture_name(index, component, page));
                write_whole(&out, &png)?;
                written[index].push(out.display().to_string());
            }
        }
        let count: usize = sweep.findings.iter().map(|c| c.troubles.len()).sum();
        let mut text = format!(
            "{}: {} components swept, {count} text(s) no longer fit in {} component(s)\n",
            file.display(),
            sweep.swept,
            sweep.findings.len()
        );
        for (index, component) in sweep.findings.iter().enumerate() {
            text.push_str(&format!(
                "  {} - {}",
                component.package, component.component
            ));
            match written[index].as_slice() {
                [] => text.push('\n'),
                shown => text.push_str(&format!(" (pictures: {})\n", shown.join(", "))),
            }
            text.push_str(&troubles_text(&component.troubles));
        }
        let status = match count {
            0 => ExitStatus::Success,
            _ => ExitStatus::Refused,
        };
        let data = StringsData {
            count: count as u32,
            format: Format::of(file)
                .map(Format::name)
                .unwrap_or_default()
                .to_owned(),
            from: Some(file.display().to_string()),
            swept: Some(sweep.swept),
            troubles: sweep.findings,
            pictures: written.into_iter().flatten().collect(),
            ..StringsData::default()
        };
        Done::new(&data, text, status)
    })
    .await
}

/// A picture's file name: its order, package and component, safe on every file system.
fn picture_name(index: usize, component: &SweepComponent, page: Option<&RenderedPage>) -> String {
    let safe = |name: &str| -> String {
        name.chars()
            .map(|c| match c {
                '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|' => '_',
                c if c.is_control() => '_',
                c => c,
            })
            .collect()
    };
    let page = page.map_or(String::new(), |page| {
        format!("-{}={}", safe(&page.controller), safe(&page.page_id))
    });
    format!(
        "{:03}-{}-{}{page}.png",
        index + 1,
        safe(&component.package),
        safe(&component.component)
    )
}

/// Troubles as lines under their component.
pub(super) fn troubles_text(troubles: &[TextTrouble]) -> String {
    let mut text = String::new();
    for trouble in troubles {
        let page = trouble.page.as_ref().map_or(String::new(), |page| {
            format!(" (page {}={})", page.controller, page.page_id)
        });
        text.push_str(&format!(
            "    {}{page} {} {:?}: {}\n",
            trouble.node_path,
            kind_name(&trouble.kind),
            short(&trouble.text),
            trouble.message
        ));
    }
    text
}

/// A text cut to 60 characters for a line of output.
fn short(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(60).collect();
    match chars.next() {
        Some(_) => format!("{head}…"),
        None => head,
    }
}

/// A strings file the command names, as the server reads a `stringsFile`: its real path,
/// which the command's session is granted (the project's directory is its only other
/// root), after its form is checked by its name.
pub(super) fn strings_file(file: &Path) -> Result<PathBuf, BackendError> {
    Format::of(file).map_err(|message| bad(message, "/stringsFile"))?;
    std::fs::canonicalize(file).map_err(|error| {
        bad(
            format!("{} cannot be read: {error}.", file.display()),
            "/stringsFile",
        )
    })
}

/// Every entry of the project's export, read page by page (with the whole strings XML,
/// from the first page, when asked).
async fn all_entries(project: &Project, whole_file: bool) -> Result<StringsExport, BackendError> {
    let mut input =
        json!({ "sessionId": project.session_id(), "limit": PAGE, "wholeFile": whole_file });
    let mut export: StringsExport = project.call(MethodId::ExportStrings, input.clone()).await?;
    while let Some(cursor) = export.next_cursor.take() {
        input["cursor"] = json!(cursor);
        input["wholeFile"] = json!(false);
        let next: StringsExport = project.call(MethodId::ExportStrings, input.clone()).await?;
        export.entries.extend(next.entries);
        export.next_cursor = next.next_cursor;
    }
    Ok(export)
}

/// `strings convert`: the same strings in another form, by the files' names.
pub(super) fn convert(from: &Path, to: &Path) -> Result<Done, BackendError> {
    let (from_format, to_format) = (
        Format::of(from).map_err(|message| bad(message, "/input"))?,
        Format::of(to).map_err(|message| bad(message, "/out"))?,
    );
    let bytes = std::fs::read(from).map_err(|error| {
        bad(
            format!("{} cannot be read: {error}.", from.display()),
            "/input",
        )
    })?;
    let rows = read(&bytes, from_format).map_err(|malformed| {
        bad(
            format!(
                "{} is not a strings file: {}. Nothing was written.",
                from.display(),
                malformed.0
            ),
            "/input",
        )
    })?;
    let bytes = write(&rows, to_format).map_err(|malformed| bad(malformed.0, "/out"))?;
    write_whole(to, &bytes)?;
    let data = StringsData {
        count: rows.len() as u32,
        format: to_format.name().to_owned(),
        written: Some(to.display().to_string()),
        from: Some(from.display().to_string()),
        ..StringsData::default()
    };
    let text = format!(
        "{}: {} strings ({}, from {})\n",
        to.display(),
        rows.len(),
        to_format.name(),
        from_format.name()
    );
    Done::new(&data, text, ExitStatus::Success)
}

fn rows(entries: &[StringEntry]) -> Vec<Row> {
    entries
        .iter()
        .map(|entry| Row {
            key: entry.key.clone(),
            component: format!("{} - {}", entry.package, entry.component),
            node: entry.node_name.clone(),
            source: entry.text.clone(),
            translation: String::new(),
            note: String::new(),
        })
        .collect()
}

/// Writes `bytes` to `path` whole or not at all: into a file beside it, then renamed.
fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), BackendError> {
    let failed = |error: std::io::Error| {
        bad(
            format!("{} cannot be written: {error}.", path.display()),
            "/out",
        )
    };
    let name = path
        .file_name()
        .ok_or_else(|| bad(format!("{} names no file.", path.display()), "/out"))?;
    let staged = path.with_file_name(format!(".{}.ofgui-partial", name.to_string_lossy()));
    std::fs::write(&staged, bytes).map_err(failed)?;
    std::fs::rename(&staged, path).map_err(|error| {
        let _ = std::fs::remove_file(&staged);
        failed(error)
    })
}

fn bad(message: String, field: &str) -> BackendError {
    BackendError::invalid_input(message, Some(field.to_owned()))
}
