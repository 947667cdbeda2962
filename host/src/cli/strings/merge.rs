//! A re-export merged into an existing translation: its translations stay, the project's
//! new keys come in empty (`new`), rows whose source text changed since keep their
//! translation and are marked with the old source, and keys the project no longer has are
//! kept at the end, marked `orphaned`. Nothing is dropped silently.

use std::collections::{BTreeSet, HashMap};

use ofgui_contracts::api::StringEntry;
use ofgui_contracts::cli::StringsMerge;

use crate::strings_file::Row;

/// The note of a key the project did not have before.
pub const NEW: &str = "new";
/// The note of a key the project no longer has.
pub const ORPHANED: &str =
    "orphaned: the project no longer has this text; drop the row once it is not needed";

/// The project's entries in its order, each with what `existing` said of it, then the
/// existing rows the project no longer has.
pub fn merge(existing: Vec<Row>, project: &[StringEntry]) -> (Vec<Row>, StringsMerge) {
    let mut counts = StringsMerge::default();
    let order: Vec<String> = existing.iter().map(|row| row.key.clone()).collect();
    // A key given twice: the runtime keeps the last, so does the merge.
    let mut by_key: HashMap<String, Row> = existing
        .into_iter()
        .map(|row| (row.key.clone(), row))
        .collect();
    let mut rows = Vec::with_capacity(project.len() + by_key.len());
    for entry in project {
        let component = format!("{} - {}", entry.package, entry.component);
        let row = match by_key.remove(&entry.key) {
            None => {
                counts.added += 1;
                Row {
                    key: entry.key.clone(),
                    component,
                    node: entry.node_name.clone(),
                    source: entry.text.clone(),
                    translation: String::new(),
                    note: NEW.into(),
                }
            }
            Some(old) => {
                let changed = !old.source.is_empty() && old.source != entry.text;
                let note = match changed {
                    true => {
                        counts.changed += 1;
                        format!("source changed; it was: {}", old.source)
                    }
                    false => {
                        counts.kept += 1;
                        // A mark the translator left stands until the source moves.
                        match old.note.as_str() {
                            NEW => String::new(),
                            _ => old.note,
                        }
                    }
                };
                Row {
                    key: entry.key.clone(),
                    component,
                    node: entry.node_name.clone(),
                    source: entry.text.clone(),
                    translation: old.translation,
                    note,
                }
            }
        };
        rows.push(row);
    }
    let mut seen = BTreeSet::new();
    for key in order {
        if let Some(mut row) = by_key.remove(&key)
            && seen.insert(key)
        {
            counts.orphaned += 1;
            row.note = ORPHANED.into();
            rows.push(row);
        }
    }
    (rows, counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: &str, text: &str) -> StringEntry {
        StringEntry {
            key: key.into(),
            package: "P".into(),
            component: "C".into(),
            node_name: "n".into(),
            text: text.into(),
        }
    }

    fn row(key: &str, source: &str, translation: &str) -> Row {
        Row {
            key: key.into(),
            source: source.into(),
            translation: translation.into(),
            ..Row::default()
        }
    }

    #[test]
    fn translations_stay_new_keys_come_in_empty_and_nothing_is_dropped() {
        let existing = vec![
            row("p-a", "Hello", "Hallo"),
            row("p-b", "Start", "Anfangen"),
            row("p-gone", "Old", "Alt"),
            row("p-c", "", "Ende"),
        ];
        let project = [
            entry("p-a", "Hello"),
            entry("p-b", "Begin"),
            entry("p-new", "Quit"),
            entry("p-c", "End"),
        ];
        let (rows, counts) = merge(existing, &project);
        let got: Vec<(&str, &str, &str, &str)> = rows
            .iter()
            .map(|r| {
                (
                    r.key.as_str(),
                    r.source.as_str(),
                    r.translation.as_str(),
                    r.note.as_str(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("p-a", "Hello", "Hallo", ""),
                ("p-b", "Begin", "Anfangen", "source changed; it was: Start"),
                ("p-new", "Quit", "", NEW),
                // An XML translation has no source to compare: it is kept as it is.
                ("p-c", "End", "Ende", ""),
                ("p-gone", "Old", "Alt", ORPHANED),
            ]
        );
        assert_eq!(
            counts,
            StringsMerge {
                kept: 2,
                added: 1,
                changed: 1,
                orphaned: 1
            }
        );
    }
}
