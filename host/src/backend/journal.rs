//! The durable journal of a session's unsaved edits,
//! `<parent>/.<name>.openfairygui.backend.journal`, beside the advisory lock: each edit
//! is appended and synced to disk before its call answers, so that a server killed with
//! unsaved work leaves it for the next open to recover.
//!
//! One JSON object per line: first a header (the revision the disk holds and a
//! fingerprint of every project file as the journal began), then one line per edit. A
//! last line cut short by a kill is an edit whose call never answered, and is dropped.
//! The journal holds only what the project does (operations, revisions, project-relative
//! paths), never a host path or a token. Only the holder of the project's lock writes it.

use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::path::Path;

use cap_std::ambient_authority;
use cap_std::fs::{Dir, File, OpenOptions};
use ofgui_contracts::additions::EditKind;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::state::StateDir;

/// The journal's first line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Header {
    /// Always [`FORMAT`].
    pub format: String,
    /// The revision the disk held when the journal began (the last save's).
    pub saved_revision: u64,
    /// Every project file then: project-relative path → size and modification time.
    pub files: BTreeMap<String, Fingerprint>,
}

const FORMAT: &str = "ofgui-journal/1";

impl Header {
    /// The header of a journal that begins at `saved_revision` over these files.
    pub fn new(saved_revision: u64, files: BTreeMap<String, Fingerprint>) -> Header {
        Header {
            format: FORMAT.into(),
            saved_revision,
            files,
        }
    }

    /// The header of a journal that begins now, at `saved_revision`, over `project_dir`.
    pub fn now(saved_revision: u64, project_dir: &Path) -> Header {
        Header::new(saved_revision, fingerprints(project_dir))
    }
}

/// A file's size and modification time (nanoseconds since the epoch).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint(pub u64, pub i128);

/// One edit as the journal holds it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub expected_revision: u64,
    pub action: EditKind,
    /// An apply's operations, as sent to the component.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operations: Option<Box<RawValue>>,
    /// When the edit was made (RFC 3339, UTC).
    pub at: String,
}

/// What an earlier session left in the journal.
#[derive(Debug)]
pub struct Pending {
    pub header: Header,
    pub entries: Vec<Entry>,
}

/// The journal file of one project.
#[derive(Debug)]
pub struct Journal {
    dir: Dir,
    name: String,
    /// Open for appending once the journal holds a header.
    file: Option<File>,
}

impl Journal {
    /// The journal of the project in `project_dir` (whose canonical key is `key`): in
    /// `state` when there is one, else beside the project.
    pub fn of(project_dir: &Path, key: &str, state: Option<&StateDir>) -> io::Result<Journal> {
        match state {
            Some(state) => Ok(Journal {
                dir: Dir::open_ambient_dir(state.path(), ambient_authority())?,
                name: state.file_name(key, "journal"),
                file: None,
            }),
            None => Journal::beside(project_dir),
        }
    }

    /// The journal of the project in `project_dir`, which may not exist yet.
    pub fn beside(project_dir: &Path) -> io::Result<Journal> {
        let parent = project_dir
            .parent()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no parent directory"))?;
        let name = project_dir
            .file_name()
            .and_then(|name| name.to_str())
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no directory name"))?;
        Ok(Journal {
            dir: Dir::open_ambient_dir(parent, ambient_authority())?,
            name: format!(".{name}.openfairygui.backend.journal"),
            file: None,
        })
    }

    /// What the journal holds, if anything: `None` when there is no journal (or only a
    /// header). A line that does not read ends it (a kill cut it short).
    pub fn pending(&self) -> io::Result<Option<Pending>> {
        let mut text = String::new();
        match self.dir.open(&self.name) {
            Ok(mut file) => file.read_to_string(&mut text)?,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(error),
        };
        let mut lines = text.lines();
        let Some(header) = lines
            .next()
            .and_then(|line| serde_json::from_str::<Header>(line).ok())
        else {
            return Ok(None);
        };
        if header.format != FORMAT {
            return Ok(None);
        }
        let entries: Vec<Entry> = lines
            .map_while(|line| serde_json::from_str::<Entry>(line).ok())
            .collect();
        Ok((!entries.is_empty()).then_some(Pending { header, entries }))
    }

    /// Begins the journal anew with `header` and `entries`: written aside, synced, then
    /// put in place in one rename.
    pub fn begin(&mut self, header: &Header, entries: &[Entry]) -> io::Result<()> {
        let staged = format!("{}.new", self.name);
        let mut text = serde_json::to_string(header).map_err(io::Error::other)?;
        text.push('\n');
        for entry in entries {
            text.push_str(&serde_json::to_string(entry).map_err(io::Error::other)?);
            text.push('\n');
        }
        let mut options = OpenOptions::new();
        options.write(true).create(true).truncate(true);
        let mut file = self.dir.open_with(&staged, &options)?;
        file.write_all(text.as_bytes())?;
        crate::metrics::metrics().journal_written(text.len());
        file.sync_all()?;
        self.dir.rename(&staged, &self.dir, &self.name)?;
        sync_dir(&self.dir);
        let mut options = OpenOptions::new();
        options.append(true);
        self.file = Some(self.dir.open_with(&self.name, &options)?);
        Ok(())
    }

    /// Whether the journal has begun (holds a header this session wrote).
    pub fn begun(&self) -> bool {
        self.file.is_some()
    }

    /// Appends one edit and syncs it to disk.
    pub fn append(&mut self, entry: &Entry) -> io::Result<()> {
        let file = self
            .file
            .as_mut()
            .ok_or_else(|| io::Error::other("the journal has not begun"))?;
        let mut line = serde_json::to_string(entry).map_err(io::Error::other)?;
        line.push('\n');
        file.write_all(line.as_bytes())?;
        crate::metrics::metrics().journal_written(line.len());
        file.sync_data()
    }

    /// Removes the journal: the disk holds everything it said, or it was discarded.
    pub fn remove(&mut self) -> io::Result<()> {
        self.file = None;
        match self.dir.remove_file(&self.name) {
            Ok(()) => {
                sync_dir(&self.dir);
                Ok(())
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(error) => Err(error),
        }
    }
}

/// Makes a rename or removal in `dir` durable; where directories cannot be synced the
/// file's own sync is what there is.
fn sync_dir(dir: &Dir) {
    if let Ok(this) = dir.open(".") {
        let _ = this.sync_all();
    }
}

/// Every regular file under `project_dir` with its fingerprint, by project-relative path
/// with `/`. Links are not followed (the sandbox refuses them anyway).
pub fn fingerprints(project_dir: &Path) -> BTreeMap<String, Fingerprint> {
    let mut files = BTreeMap::new();
    let mut pending = vec![project_dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(metadata) = entry.path().symlink_metadata() else {
                continue;
            };
            if metadata.is_dir() {
                pending.push(entry.path());
            } else if metadata.is_file() {
                let Ok(relative) = entry.path().strip_prefix(project_dir).map(Path::to_owned)
                else {
                    continue;
                };
                let path = relative.to_string_lossy().replace('\\', "/");
                files.insert(path, Fingerprint(metadata.len(), modified(&metadata)));
            }
        }
    }
    files
}

/// A regular file's fingerprint; `None` for anything else or nothing.
pub fn fingerprint(path: &Path) -> Option<Fingerprint> {
    let metadata = path.symlink_metadata().ok()?;
    metadata
        .is_file()
        .then(|| Fingerprint(metadata.len(), modified(&metadata)))
}

fn modified(metadata: &std::fs::Metadata) -> i128 {
    metadata
        .modified()
        .ok()
        .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |since| since.as_nanos() as i128)
}

/// The paths whose fingerprints differ between two sets (changed, added or removed),
/// sorted.
pub fn changed(
    then: &BTreeMap<String, Fingerprint>,
    now: &BTreeMap<String, Fingerprint>,
) -> Vec<String> {
    then.keys()
        .chain(now.keys().filter(|path| !then.contains_key(*path)))
        .filter(|path| then.get(*path) != now.get(*path))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(revision: u64) -> Entry {
        Entry {
            expected_revision: revision,
            action: EditKind::Apply,
            operations: Some(
                RawValue::from_string("[{\"kind\":\"addBranch\",\"branch\":\"b\"}]".into())
                    .unwrap(),
            ),
            at: "2026-12-03T00:00:00.000Z".into(),
        }
    }

    #[test]
    fn edits_survive_and_a_torn_last_line_is_dropped() {
        let root = tempfile::tempdir().unwrap();
        let project = root.path().join("Game");
        std::fs::create_dir(&project).unwrap();
        std::fs::write(project.join("Game.fairy"), "x").unwrap();
        let mut journal = Journal::beside(&project).unwrap();
        assert!(journal.pending().unwrap().is_none());
        let header = Header::now(3, &project);
        journal.begin(&header, &[]).unwrap();
        assert!(
            journal.pending().unwrap().is_none(),
            "a header alone is nothing to recover"
        );
        journal.append(&entry(3)).unwrap();
        journal.append(&entry(4)).unwrap();
        let path = root.path().join(".Game.openfairygui.backend.journal");
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("{\"expectedRevision\":5,\"act");
        std::fs::write(&path, text).unwrap();
        let pending = Journal::beside(&project)
            .unwrap()
            .pending()
            .unwrap()
            .unwrap();
        assert_eq!(pending.header, header);
        let text = |entries: &[Entry]| serde_json::to_string(entries).unwrap();
        assert_eq!(text(&pending.entries), text(&[entry(3), entry(4)]));
        assert!(changed(&header.files, &fingerprints(&project)).is_empty());
        std::fs::write(project.join("new.xml"), "y").unwrap();
        assert_eq!(changed(&header.files, &fingerprints(&project)), ["new.xml"]);
        journal.remove().unwrap();
        assert!(!path.exists());
    }
}
