//! `review`: what a person approving a session's edits reads. Its history with each kept
//! batch's operations, and each file a save would write with a line diff against what the
//! disk holds. The save's plan is kept, so a save at this revision writes what was shown.

use std::collections::BTreeMap;

use ofgui_contracts::api::{
    Change as ImpactChange, FileDiff, HistoryEntry, SavePreview, SessionReview, ValidationChange,
};
use ofgui_contracts::diagnostics::ProjectDiagnostic;
use ofgui_contracts::uam::{UamProject, UamResource};
use serde_json::Value;

use crate::commit::{Change, Expect};
use crate::fs::ProjectFs;
use crate::session::save::DiskPaths;
use crate::validate;

use super::Session;

/// Most files a review lists.
const MAX_FILES: usize = 100;
/// Most lines of one file's diff.
const MAX_DIFF_LINES: usize = 400;
/// Lines of context around each change.
const CONTEXT: usize = 3;

impl Session {
    /// The history (newest first, at most `limit`) with each kept batch's operations, and
    /// what a save would write now when the session has unsaved edits.
    pub fn review(&self, fs: &dyn ProjectFs, limit: usize) -> SessionReview {
        let history = self.history(limit, true);
        let save = history.dirty.then(|| self.save_preview(fs));
        let validation = history.dirty.then(|| self.validation_change()).flatten();
        let (names, files) = self.names(&history.entries);
        SessionReview {
            history,
            save,
            validation,
            names,
            files,
        }
    }

    /// The findings the unsaved edits added and resolved: the model now against the
    /// project as saved, validated with the same file bytes, matched by code and entity.
    fn validation_change(&self) -> Option<ValidationChange> {
        let disk = self.disk.as_ref()?;
        let now = self.validate().diagnostics;
        let saved = validate::validate(&validate::Input {
            project: &disk.project,
            bytes: &self.bytes,
            read_diagnostics: &self.reader_diagnostics,
            read_complete: self.reader_complete,
        })
        .diagnostics;
        let key = |d: &ProjectDiagnostic| {
            (
                d.code,
                d.package_id.clone(),
                d.resource_id.clone(),
                d.node_id.clone(),
            )
        };
        let only_in = |these: &[ProjectDiagnostic], those: &[ProjectDiagnostic]| {
            let mut rest: Vec<_> = those.iter().map(key).collect();
            these
                .iter()
                .filter(|d| match rest.iter().position(|k| *k == key(d)) {
                    Some(index) => {
                        rest.swap_remove(index);
                        false
                    }
                    None => true,
                })
                .cloned()
                .collect::<Vec<_>>()
        };
        Some(ValidationChange {
            added: only_in(&now, &saved),
            resolved: only_in(&saved, &now),
        })
    }

    /// The names of the packages, resources and nodes the entries' operations select,
    /// and the resources' files, as the session holds them now or, for what a batch
    /// removed, before that batch.
    fn names(&self, entries: &[HistoryEntry]) -> (Names, Names) {
        let mut names = Names::new();
        let mut files = Names::new();
        for entry in entries {
            let earlier = self
                .history
                .batch(entry.batch_revision)
                .map(|step| &step.before.project);
            for operation in entry.operations.iter().flatten() {
                let Some(selector) = operation.get("selector") else {
                    continue;
                };
                let text = |key: &str| selector.get(key).and_then(Value::as_str);
                let Some(package) = text("packageId") else {
                    continue;
                };
                let resource = text("componentResourceId").or_else(|| text("resourceId"));
                let node = text("displayNodeId");
                for project in std::iter::once(&self.project).chain(earlier) {
                    let found = Found {
                        names: &mut names,
                        files: &mut files,
                    };
                    name_in(project, package, resource, node, found);
                }
            }
        }
        (names, files)
    }

    fn save_preview(&self, fs: &dyn ProjectFs) -> SavePreview {
        if let Err(rejected) = self.planned_writes(fs, false, None) {
            return SavePreview {
                files: Vec::new(),
                more_files: 0,
                refused: Some(rejected.error.message().to_owned()),
            };
        }
        let (Some(disk), Some(planned)) = (self.disk.as_ref(), &*self.planned.borrow()) else {
            return SavePreview {
                files: Vec::new(),
                more_files: 0,
                refused: None,
            };
        };
        let paths = DiskPaths::new(fs, &disk.found_at);
        let disk_bytes = |path: &str| -> Option<&[u8]> {
            match disk.documents.get(path) {
                Some(bytes) => Some(bytes),
                None => disk.assets.get(path).and_then(|bytes| bytes.as_deref()),
            }
        };
        let mut files: Vec<FileDiff> = planned
            .plan
            .changes
            .iter()
            .map(|change| {
                let (before, after, kind) = match change {
                    Change::Write {
                        path,
                        bytes,
                        expect,
                    } => match expect {
                        Expect::Absent => (None, Some(bytes.as_slice()), ImpactChange::Added),
                        Expect::Content(_) => (
                            disk_bytes(path),
                            Some(bytes.as_slice()),
                            ImpactChange::Updated,
                        ),
                    },
                    Change::Remove { path, .. } => (disk_bytes(path), None, ImpactChange::Removed),
                };
                let (diff, diff_clipped) = match line_diff(before, after) {
                    Some((diff, clipped)) => (Some(diff), clipped),
                    None => (None, false),
                };
                FileDiff {
                    path: paths.of(change),
                    change: kind,
                    bytes_before: before.map(|bytes| bytes.len() as u64),
                    bytes_after: after.map(|bytes| bytes.len() as u64),
                    diff,
                    diff_clipped,
                }
            })
            .collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let more_files = files.len().saturating_sub(MAX_FILES) as u32;
        files.truncate(MAX_FILES);
        SavePreview {
            files,
            more_files,
            refused: None,
        }
    }
}

/// Names (or files) by key.
type Names = BTreeMap<String, String>;

/// What [`name_in`] records into.
struct Found<'a> {
    names: &'a mut Names,
    files: &'a mut Names,
}

/// Records the names `project` gives the package, resource and node, and the resource's
/// file, where not known yet.
fn name_in(
    project: &UamProject,
    package_id: &str,
    resource_id: Option<&str>,
    node_id: Option<&str>,
    found: Found,
) {
    let Found { names, files } = found;
    let Some(package) = project.packages.iter().find(|p| p.id == package_id) else {
        return;
    };
    names
        .entry(package_id.to_owned())
        .or_insert_with(|| package.name.clone());
    let Some(resource_id) = resource_id else {
        return;
    };
    let Some(resource) = package.resources.iter().find(|r| r.id() == resource_id) else {
        return;
    };
    let key = format!("{package_id}/{resource_id}");
    names
        .entry(key.clone())
        .or_insert_with(|| resource.name().to_owned());
    if let Some(path) = resource.source_path() {
        files.entry(key.clone()).or_insert_with(|| path.to_owned());
    }
    let (Some(node_id), UamResource::Component(component)) = (node_id, resource.as_ref()) else {
        return;
    };
    if let Some(node) = component
        .component
        .display_list
        .iter()
        .find(|node| node.id() == node_id)
    {
        names
            .entry(format!("{key}/{node_id}"))
            .or_insert_with(|| node.name().to_owned());
    }
}

/// A unified diff of two texts (either side absent: an added or removed file), cut at
/// `MAX_DIFF_LINES`, and whether it was cut; `None` when a side is not text.
fn line_diff(before: Option<&[u8]>, after: Option<&[u8]>) -> Option<(String, bool)> {
    fn text(bytes: Option<&[u8]>) -> Option<&str> {
        match bytes {
            None => Some(""),
            Some(bytes) if bytes.contains(&0) => None,
            Some(bytes) => std::str::from_utf8(bytes).ok(),
        }
    }
    let (old, new) = (text(before)?, text(after)?);
    let old: Vec<&str> = old.split_inclusive('\n').collect();
    let new: Vec<&str> = new.split_inclusive('\n').collect();
    let edits = line_edits(&old, &new);
    let mut out = String::new();
    let mut lines = 0;
    let mut clipped = false;
    for hunk in hunks(&edits) {
        let (old_start, old_len, new_start, new_len) = hunk.span(&edits);
        let header = format!("@@ -{old_start},{old_len} +{new_start},{new_len} @@\n");
        for line in std::iter::once(header).chain(hunk.lines(&edits, &old, &new)) {
            if lines == MAX_DIFF_LINES {
                clipped = true;
                break;
            }
            out.push_str(&line);
            if !line.ends_with('\n') {
                out.push_str("\n\\ No newline at end of file\n");
            }
            lines += 1;
        }
    }
    Some((out, clipped))
}

/// One line of the comparison: kept, taken out of the old text, or put into the new one
/// (indices into each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edit {
    Keep(usize, usize),
    Delete(usize),
    Insert(usize),
}

/// Most cells of the table a changed middle is compared in; past it the middle is shown
/// as replaced whole (a save's edits touch a few lines of a file, so this is rare).
const MAX_TABLE: usize = 4_000_000;

/// The lines kept, deleted and inserted: the common start and end kept, the middle
/// compared by longest common subsequence.
fn line_edits(old: &[&str], new: &[&str]) -> Vec<Edit> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (a, b) = (
        &old[prefix..old.len() - suffix],
        &new[prefix..new.len() - suffix],
    );
    let mut edits: Vec<Edit> = (0..prefix).map(|i| Edit::Keep(i, i)).collect();
    if (a.len() + 1).saturating_mul(b.len() + 1) > MAX_TABLE {
        edits.extend((0..a.len()).map(|i| Edit::Delete(prefix + i)));
        edits.extend((0..b.len()).map(|j| Edit::Insert(prefix + j)));
    } else {
        // lengths[i][j]: the longest common run of a[i..] and b[j..].
        let width = b.len() + 1;
        let mut lengths = vec![0u32; (a.len() + 1) * width];
        for i in (0..a.len()).rev() {
            for j in (0..b.len()).rev() {
                lengths[i * width + j] = if a[i] == b[j] {
                    lengths[(i + 1) * width + j + 1] + 1
                } else {
                    lengths[(i + 1) * width + j].max(lengths[i * width + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            if i < a.len() && j < b.len() && a[i] == b[j] {
                edits.push(Edit::Keep(prefix + i, prefix + j));
                (i, j) = (i + 1, j + 1);
            } else if j < b.len()
                && (i == a.len() || lengths[i * width + j + 1] > lengths[(i + 1) * width + j])
            {
                edits.push(Edit::Insert(prefix + j));
                j += 1;
            } else {
                edits.push(Edit::Delete(prefix + i));
                i += 1;
            }
        }
    }
    let (old_end, new_end) = (old.len() - suffix, new.len() - suffix);
    edits.extend((0..suffix).map(|k| Edit::Keep(old_end + k, new_end + k)));
    edits
}

/// A run of edits with `CONTEXT` kept lines around its changes.
struct Hunk {
    start: usize,
    end: usize,
}

fn hunks(edits: &[Edit]) -> Vec<Hunk> {
    let changed: Vec<usize> = (0..edits.len())
        .filter(|&k| !matches!(edits[k], Edit::Keep(..)))
        .collect();
    let mut hunks: Vec<Hunk> = Vec::new();
    for k in changed {
        let (start, end) = (
            k.saturating_sub(CONTEXT),
            (k + CONTEXT + 1).min(edits.len()),
        );
        match hunks.last_mut() {
            Some(last) if start <= last.end => last.end = end,
            _ => hunks.push(Hunk { start, end }),
        }
    }
    hunks
}

impl Hunk {
    /// Where the hunk starts in each text (1-based) and how many lines of each it holds.
    fn span(&self, edits: &[Edit]) -> (usize, usize, usize, usize) {
        let slice = &edits[self.start..self.end];
        let olds = slice
            .iter()
            .filter(|e| !matches!(e, Edit::Insert(_)))
            .count();
        let news = slice
            .iter()
            .filter(|e| !matches!(e, Edit::Delete(_)))
            .count();
        // The line before the hunk in each text, counted from the edits before it.
        let before = &edits[..self.start];
        let old_at = before
            .iter()
            .filter(|e| !matches!(e, Edit::Insert(_)))
            .count();
        let new_at = before
            .iter()
            .filter(|e| !matches!(e, Edit::Delete(_)))
            .count();
        let first = |at: usize, len: usize| if len == 0 { at } else { at + 1 };
        (first(old_at, olds), olds, first(new_at, news), news)
    }

    fn lines<'a>(
        &self,
        edits: &'a [Edit],
        old: &'a [&str],
        new: &'a [&str],
    ) -> impl Iterator<Item = String> + 'a {
        edits[self.start..self.end]
            .iter()
            .map(move |edit| match *edit {
                Edit::Keep(i, _) => format!(" {}", old[i]),
                Edit::Delete(i) => format!("-{}", old[i]),
                Edit::Insert(j) => format!("+{}", new[j]),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_files_get_a_unified_diff() {
        let (diff, clipped) = line_diff(
            Some(b"<a>\n<b x=\"1\"/>\n</a>\n"),
            Some(b"<a>\n<b x=\"2\"/>\n</a>\n"),
        )
        .unwrap();
        assert!(!clipped);
        assert!(diff.contains("-<b x=\"1\"/>\n+<b x=\"2\"/>\n"), "{diff}");
        let (added, _) = line_diff(None, Some(b"new\n")).unwrap();
        assert!(added.contains("+new"), "{added}");
    }

    #[test]
    fn binary_files_get_none_and_long_diffs_are_cut() {
        assert!(line_diff(Some(b"\x89PNG\0\0"), Some(b"x")).is_none());
        assert!(line_diff(Some(&[0xff, 0xfe]), Some(b"x")).is_none());
        let long: String = (0..1000).map(|n| format!("{n}\n")).collect();
        let (diff, clipped) = line_diff(None, Some(long.as_bytes())).unwrap();
        assert!(clipped);
        assert_eq!(diff.lines().count(), MAX_DIFF_LINES);
    }

    #[test]
    fn hunks_carry_context_and_the_lines_they_start_at() {
        let old: String = (1..=20).map(|n| format!("line {n}\n")).collect();
        let new = old
            .replace("line 5\n", "line five\n")
            .replace("line 15\n", "")
            + "line 21";
        let (diff, _) = line_diff(Some(old.as_bytes()), Some(new.as_bytes())).unwrap();
        let expected = "@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+line five\n line 6\n line 7\n line 8\n@@ -12,9 +12,9 @@\n line 12\n line 13\n line 14\n-line 15\n line 16\n line 17\n line 18\n line 19\n line 20\n+line 21\n\\ No newline at end of file\n";
        assert_eq!(diff, expected);
        let (same, _) = line_diff(Some(b"a\n"), Some(b"a\n")).unwrap();
        assert!(same.is_empty());
    }
}
