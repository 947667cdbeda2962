//! A state directory (`--state-dir`): where the advisory locks and the edit journals of
//! projects are kept instead of beside each project, for projects whose parent directory
//! cannot be written, and so that every server given the same directory sees the same
//! locks. Each project's files are named by a digest of its canonical key, so a name on
//! disk says nothing of where the project is.

use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

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
        let digest = Sha256::digest(canonical_key.as_bytes());
        let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
        format!("{hex}.openfairygui.backend.{kind}")
    }
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
}
