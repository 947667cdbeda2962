//! The save patcher on random sequences of edits, each case on a fresh copy of a real
//! corpus: a save with no edits writes nothing; after each save a fresh read of the disk
//! equals the session's model; the save changes exactly the files it reports, each of
//! which really changes; a component whose model the edits left alone keeps its file
//! byte for byte; and a save right after a save writes nothing.
//!
//! The edits are the decoder harness's undamaged batches: the save_kinds table, its
//! operations aimed elsewhere, and the property tests' corpus operations (which this
//! harness took over from txn_properties' save test).

use std::collections::{BTreeMap, BTreeSet};

use ofgui_backend::fs::StdFs;
use ofgui_backend::reader::read_project;
use ofgui_backend::session::{Names, Session};
use ofgui_backend::testing::{MemFs, copy_tree};
use ofgui_contracts::error::{BackendError, DiskConflictKind};
use ofgui_contracts::uam::{ComponentModel, UamProject};
use serde_json::{Value, json};

use crate::decoder::{batch_text, pools};
use crate::diff::first_difference;
use crate::driver::{Log, excerpt};

fn snapshot(dir: &std::path::Path) -> BTreeMap<String, Vec<u8>> {
    MemFs::load(dir).expect("the copy lists").files
}

/// Each component by its file.
fn components(project: &UamProject) -> BTreeMap<&str, &ComponentModel> {
    project
        .packages
        .iter()
        .flat_map(|p| &p.resources)
        .filter_map(|r| Some((r.source_path()?, r.component()?)))
        .collect()
}

/// One save and everything it must and must not have done; `saved` is the model as of
/// the previous save. False when the save refused to delete files it never read.
fn check_save(
    session: &mut Session,
    fs: &StdFs,
    dir: &std::path::Path,
    fairy: &str,
    saved: &UamProject,
) -> Result<bool, String> {
    let before = snapshot(dir);
    let revision = session.status().revision;
    let report = match session.save(fs, Some(revision)) {
        Ok(report) => report,
        // The corpus has files its packages do not declare (the experiments' Loader
        // has alien.*): a save that would remove their directory refuses, by design,
        // and must then have written nothing and kept the edits.
        Err(BackendError::SavePartialFailure {
            conflicts,
            disk_may_be_partially_updated: false,
            ..
        }) if !conflicts.is_empty()
            && conflicts
                .iter()
                .all(|c| c.kind == DiskConflictKind::UnknownEntry) =>
        {
            if snapshot(dir) != before || !session.status().dirty {
                return Err("a refused save changed the disk or dropped the edits".into());
            }
            return Ok(false);
        }
        Err(e) => return Err(format!("the save failed: {e:?}")),
    };
    let after = snapshot(dir);
    let changed: BTreeSet<&String> = before
        .keys()
        .chain(after.keys())
        .filter(|path| before.get(*path) != after.get(*path))
        .collect();
    let reported: BTreeSet<&String> = report.written.iter().chain(&report.removed).collect();
    if changed != reported {
        return Err(format!(
            "the save changed {changed:?} but reported {reported:?} ({report:?})"
        ));
    }
    let reread = read_project(fs, fairy).map_err(|e| format!("the re-read failed: {e:?}"))?;
    if &reread.project != session.project() {
        let (a, b) = (
            serde_json::to_value(&reread.project).unwrap(),
            serde_json::to_value(session.project()).unwrap(),
        );
        return Err(format!(
            "the disk reads back differently at {}",
            first_difference(&a, &b)
        ));
    }
    let old = components(saved);
    for (path, model) in components(session.project()) {
        if old.get(path) == Some(&model) && changed.contains(&path.to_string()) {
            return Err(format!(
                "{path} was written though its component did not change"
            ));
        }
    }
    if session.status().dirty {
        return Err("the session is still dirty after its save".into());
    }
    let again = session
        .save(fs, Some(revision))
        .map_err(|e| format!("the second save failed: {e:?}"))?;
    if !again.written.is_empty() || !again.removed.is_empty() || snapshot(dir) != after {
        return Err(format!("a save right after a save wrote {again:?}"));
    }
    Ok(true)
}

/// Strings a writer must escape or keep exactly: markup, whitespace XML normalizes,
/// separators FairyGUI's own formats use, and text beyond ASCII.
const EDGE_STRINGS: &[&str] = &[
    "<a & b>",
    "\"quoted\" 'single'",
    "line\nbreak",
    "tab\there",
    "cr\r\nlf",
    "  padded  ",
    "",
    "a,b;c|d",
    "100%",
    "&amp;",
    "]]>",
    "\u{00e9}\u{4e2d}\u{1F600}",
    "\u{7f}",
    "ui://",
];

/// Numbers a writer must print so that they read back the same.
const EDGE_NUMBERS: &[f64] = &[
    -0.0,
    0.1,
    0.30000000000000004,
    1e-7,
    1e21,
    123456789.12345679,
    -2147483648.0,
    9007199254740993.0,
    0.5,
    -1.0,
    1e300,
];

/// Replaces some leaves of an operation (not its kind or selector) by values of the same
/// type that are hard to write back faithfully.
fn edge_values(rng: &mut fastrand::Rng, value: &mut Value, depth: usize) -> Vec<String> {
    let mut changed = Vec::new();
    match value {
        Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                if depth == 0 && (key == "kind" || key == "selector") {
                    continue;
                }
                changed.extend(edge_values(rng, child, depth + 1));
            }
        }
        Value::Array(items) => {
            for child in items {
                changed.extend(edge_values(rng, child, depth + 1));
            }
        }
        Value::String(text) if rng.usize(..10) == 0 => {
            let new = EDGE_STRINGS[rng.usize(..EDGE_STRINGS.len())];
            changed.push(format!("{text:?} → {new:?}"));
            *text = new.to_string();
        }
        Value::Number(number) if rng.usize(..10) == 0 => {
            let new = EDGE_NUMBERS[rng.usize(..EDGE_NUMBERS.len())];
            changed.push(format!("{number} → {new}"));
            *value = json!(new);
        }
        Value::Bool(flag) if rng.usize(..10) == 0 => *flag = !*flag,
        _ => {}
    }
    changed
}

pub fn case(rng: &mut fastrand::Rng, log: &Log) -> Result<(), String> {
    // The experiments copy in a moment; the unity examples (656 files) now and then.
    let pool = &pools()[usize::from(rng.usize(..4) == 0)];
    let fairy = pool.corpus.fairy();
    log.note(format!("corpus {:?}", pool.corpus));
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    copy_tree(&pool.corpus.root(), dir.path()).map_err(|e| e.to_string())?;
    let fs = StdFs::new(dir.path());
    let mut session =
        Session::open(&fs, Names::session("fuzz"), fairy, 0).map_err(|e| format!("{e:?}"))?;
    let pristine = snapshot(dir.path());
    let idle = session
        .save(&fs, Some(0))
        .map_err(|e| format!("the idle save failed: {e:?}"))?;
    if !idle.written.is_empty() || !idle.removed.is_empty() || snapshot(dir.path()) != pristine {
        return Err(format!("a save without edits wrote {idle:?}"));
    }
    let mut saved = session.project().clone();
    for round in 0..1 + rng.usize(..5) {
        // One or two accepted batches per save.
        for step in 0..1 + rng.usize(..2) {
            let (mut text, mut how) = batch_text(
                rng,
                session.project(),
                pool,
                &format!("s{round}_{step}"),
                false,
            );
            if rng.bool() {
                let mut batch: Value = serde_json::from_str(&text).unwrap();
                let changed: Vec<String> = batch
                    .as_array_mut()
                    .unwrap()
                    .iter_mut()
                    .flat_map(|op| edge_values(rng, op, 0))
                    .collect();
                text = batch.to_string();
                how = format!("{how}; edge values {}", changed.join(", "));
            }
            let revision = session.status().revision;
            if session.apply(revision, &text).is_ok() {
                log.note(format!(
                    "round {round} applied ({how}):\n{}",
                    excerpt(&text)
                ));
            }
        }
        if !session.status().dirty {
            continue;
        }
        if !check_save(&mut session, &fs, dir.path(), fairy, &saved)
            .map_err(|e| format!("round {round}: {e}"))?
        {
            break;
        }
        saved = session.project().clone();
    }
    Ok(())
}
