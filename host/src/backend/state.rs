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
    /// Where the node serving the session takes requests (`host:port`), when it is a named
    /// node: another node sends the session's requests there while it runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub served_at: Option<String>,
}

/// A directory that holds projects' locks and journals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateDir {
    path: PathBuf,
    /// This server's name among the servers sharing the directory (`--node-id`).
    node: Option<String>,
    /// Where this node takes requests, for the others to send its sessions' requests to.
    address: Option<String>,
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
            node: None,
            address: None,
        })
    }

    /// The same directory for a server named `node` among those sharing it: the sessions
    /// it opens carry the name, so a load balancer sends their requests back to it.
    pub fn for_node(self, node: &str) -> Result<StateDir, String> {
        if node.is_empty()
            || node.len() > 32
            || !node
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(format!(
                "--node-id {node:?}: a node id is 1 to 32 letters, digits, - and _"
            ));
        }
        Ok(StateDir {
            node: Some(node.to_owned()),
            ..self
        })
    }

    /// The same directory for a named node that takes requests at `address`.
    pub fn served_at(self, address: &str) -> StateDir {
        StateDir {
            address: self.node.is_some().then(|| address.to_owned()),
            ..self
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn node(&self) -> Option<&str> {
        self.node.as_deref()
    }

    pub fn address(&self) -> Option<&str> {
        self.address.as_deref()
    }

    /// A new session id: `<node>.<uuid>` for a named node (so a balancer routes on the
    /// part before the dot), a bare uuid otherwise.
    pub fn new_session_id(&self) -> String {
        let id = uuid::Uuid::new_v4();
        match &self.node {
            Some(node) => format!("{node}.{id}"),
            None => id.to_string(),
        }
    }

    /// The name of a project's file of this kind (`lock`, `journal`) in the directory.
    pub fn file_name(&self, canonical_key: &str, kind: &str) -> String {
        format!("{}.openfairygui.backend.{kind}", digest(canonical_key))
    }

    fn record_path(&self, session_id: &str) -> PathBuf {
        self.path
            .join(format!("{}.openfairygui.session", digest(session_id)))
    }

    /// Writes a session's record, whole or not at all.
    pub fn write_record(&self, record: &SessionRecord) -> io::Result<()> {
        let text = serde_json::to_vec(record).map_err(io::Error::other)?;
        write_whole(&self.record_path(&record.session_id), &text)
    }

    /// The record of a session, if one is kept (and reads).
    pub fn record(&self, session_id: &str) -> Option<SessionRecord> {
        let text = std::fs::read(self.record_path(session_id)).ok()?;
        serde_json::from_slice::<SessionRecord>(&text)
            .ok()
            .filter(|record| record.session_id == session_id)
    }

    /// Waits (up to `patience`) to be the one node moving a session here: while it is held,
    /// no other node resumes the session, and the one that did has written its record
    /// before it lets go, so a node that waited reads where the session went. `None` when
    /// the wait ran out (a node stuck while moving it) or the file cannot be made.
    pub fn moving(&self, session_id: &str, patience: std::time::Duration) -> Option<std::fs::File> {
        let path = self
            .path
            .join(format!("{}.openfairygui.move", digest(session_id)));
        let mut options = std::fs::OpenOptions::new();
        options.read(true).write(true).create(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let file = options.open(path).ok()?;
        let deadline = std::time::Instant::now() + patience;
        loop {
            match file.try_lock() {
                Ok(()) => return Some(file),
                Err(std::fs::TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                Err(_) => return None,
            }
        }
    }

    /// Forgets a session that ended (its record, and the file nodes took turns on).
    pub fn remove_record(&self, session_id: &str) {
        let _ = std::fs::remove_file(
            self.path
                .join(format!("{}.openfairygui.move", digest(session_id))),
        );
        match std::fs::remove_file(self.record_path(session_id)) {
            Ok(()) => {}
            Err(error) if error.kind() == io::ErrorKind::NotFound => {}
            Err(error) => tracing::warn!("a session record could not be removed: {error}"),
        }
    }
}

/// Writes a file whole or not at all: aside, synced, then renamed over the old one (what
/// the storage must do atomically for servers sharing it).
fn write_whole(path: &Path, text: &[u8]) -> io::Result<()> {
    let aside = path.with_extension("tmp");
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&aside)?;
    file.write_all(text)?;
    file.sync_all()?;
    std::fs::rename(&aside, path)
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
            served_at: Some("10.0.0.2:8080".into()),
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
