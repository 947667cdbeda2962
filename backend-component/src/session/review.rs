//! `review`: what a person approving a session's edits reads. Its history with each kept
//! batch's operations, and each file a save would write with a line diff against what the
//! disk holds. The save's plan is kept, so a save at this revision writes what was shown.

use std::collections::BTreeMap;

use ofgui_contracts::api::{
    Change as ImpactChange, FileDiff, HistoryEntry, SavePreview, SessionReview,
};
use ofgui_contracts::uam::{UamProject, UamResource};
use serde_json::Value;
use similar::TextDiff;

use crate::commit::{Change, Expect};
use crate::fs::ProjectFs;
use crate::session::save::DiskPaths;

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
        let (names, files) = self.names(&history.entries);
        SessionReview {
            history,
            save,
            names,
            files,
        }
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
    let diff = TextDiff::from_lines(old, new);
    let unified = diff
        .unified_diff()
        .context_radius(CONTEXT)
        .missing_newline_hint(true)
        .to_string();
    let lines = unified.lines().count();
    if lines <= MAX_DIFF_LINES {
        return Some((unified, false));
    }
    let mut cut = String::new();
    for line in unified.lines().take(MAX_DIFF_LINES) {
        cut.push_str(line);
        cut.push('\n');
    }
    Some((cut, true))
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
}
