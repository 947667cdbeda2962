//! A state directory (`--state-dir`): where the advisory locks and the edit journals of
//! projects are kept instead of beside each project, for projects whose parent directory
//! cannot be written, and so that every server given the same directory sees the same
//! locks; and the record of each open session, so that a server started again after one
//! died serves that session by its id. Files are named by a digest of the project's
//! canonical key or of the session id, so a name on disk says nothing of either.

use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// What a server needs to serve a session again after the one that had it died: with the
/// project's journal (the edits since the last save), its state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionRecord {
    pub session_id: String,
    /// The tenant whose session it is (a digest of its token); `None` for a server
    /// without tokens.
    pub tenant: Option<String>,
    /// The project as the session was opened with it.
    pub project_path: String,
    /// The revision the disk holds: the session's after its last save.
    pub saved_revision: u64,
}

/// A directory that holds projects' locks and journals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateDir {
    path: PathBuf,
}

impl StateDir {
    /// Makes the directory if it is missing (only this user may read or write a new one)
    /// and takes its canonical path.
    pub fn new(path: &Path) -> io::Result<StateDir> {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(path)?;
        Ok(StateDir {
            path: path.canonicalize()?,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The name of a project's file of this kind (`lock`, `journal`) in the directory.
    pub fn file_name(&self, canonical_key: &str, kind: &str) -> String {
        format!("{}.openfairygui.backend.{kind}", digest(canonical_key))
    }

    fn record_path(&self, session_id: &str) -> PathBuf {
        self.path
            .join(format!("{}.openfairygui.session", digest(session_id)))
    }

    /// Writes a session's record, whole or not at all (written aside, then renamed).
    pub fn write_record(&self, record: &SessionRecord) -> io::Result<()> {
        let path = self.record_path(&record.session_id);
        let aside = path.with_extension("session.tmp");
        let text = serde_json::to_vec(record).map_err(io::Error::other)?;
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(&aside)?;
        file.write_all(&text)?;
        file.sync_all()?;
        std::fs::rename(&aside, &path)
    }

    /// The record of a session, if one is kept (and reads).
    pub fn record(&self, session_id: &str) -> Option<SessionRecord> {
        let text = std::fs::read(self.record_path(session_id)).ok()?;
        serde_json::from_slice::<SessionRecord>(&text)
            .ok()
            .filter(|record| record.session_id == session_id)
    }

    /// Forgets a session that ended.
    pub fn remove_record(&self, session_id: &str) {
        match std::fs::remove_file(self.record_path(session_id)) {
            Ok(()) => {}
            Err(error) if error.kind() == io::ErrorKind::NotFound => {}
            Err(error) => tracing::warn!("a session record could not be removed: {error}"),
        }
    }
}

/// A short hex digest of a name: 128 bits of its SHA-256.
fn digest(name: &str) -> String {
    Sha256::digest(name.as_bytes())[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_projects_files_are_named_by_its_key_alone() {
        let root = tempfile::tempdir().unwrap();
        let state = StateDir::new(&root.path().join("state/nested")).unwrap();
        assert!(state.path().is_dir());
        let lock = state.file_name("/srv/projects/game", "lock");
        assert_eq!(lock.len(), 32 + ".openfairygui.backend.lock".len());
        assert!(!lock.contains("game"));
        assert_eq!(lock, state.file_name("/srv/projects/game", "lock"));
        assert_ne!(lock, state.file_name("/srv/projects/other", "lock"));
        assert_ne!(lock, state.file_name("/srv/projects/game", "journal"));
    }

    #[test]
    fn a_record_reads_back_until_it_is_removed() {
        let root = tempfile::tempdir().unwrap();
        let state = StateDir::new(root.path()).unwrap();
        let record = SessionRecord {
            session_id: "s-1".into(),
            tenant: Some("t".into()),
            project_path: "/srv/projects/game".into(),
            saved_revision: 3,
        };
        assert_eq!(state.record("s-1"), None);
        state.write_record(&record).unwrap();
        assert_eq!(state.record("s-1"), Some(record));
        assert_eq!(state.record("s-2"), None);
        state.remove_record("s-1");
        state.remove_record("s-1");
        assert_eq!(state.record("s-1"), None);
    }
}
