//! Where the real corpora live, for this crate's tests and benchmarks.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Error, ErrorKind};
use std::path::{Path, PathBuf};

use crate::fs::{DirEntry, ProjectFs};

/// `$OFGUI_CORPORA`, else `../shared/corpora` beside the repository.
pub fn corpora() -> PathBuf {
    std::env::var_os("OFGUI_CORPORA")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpora"))
        })
}

/// The 30-package FairyGUI Unity examples project.
pub fn unity_root() -> PathBuf {
    corpora().join("fairygui-unity-examples/UIProject")
}

/// The small project with branches and 3-D loaders.
pub fn experiments_root() -> PathBuf {
    corpora().join("openfairygui-experiments/FairyGUI-Experiments")
}

/// Copies a directory tree: the corpora are read-only, so tests that change a project
/// work on a copy.
pub fn copy_tree(from: &std::path::Path, to: &std::path::Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// An in-memory project for tests: files by project-relative path, some marked
/// unreadable. Reading needs no disk, so fuzzing the reader costs no file I/O.
#[derive(Default, Clone, Debug)]
pub struct MemFs {
    pub files: BTreeMap<String, Vec<u8>>,
    pub denied: BTreeSet<String>,
}

impl MemFs {
    pub fn with(mut self, path: &str, content: impl AsRef<[u8]>) -> Self {
        self.files
            .insert(path.to_owned(), content.as_ref().to_vec());
        self
    }

    pub fn deny(mut self, path: &str) -> Self {
        self.denied.insert(path.to_owned());
        self
    }

    /// Every file under `root` on disk, by project-relative path with `/`.
    pub fn load(root: &Path) -> std::io::Result<MemFs> {
        let mut fs = MemFs::default();
        let mut pending = vec![root.to_path_buf()];
        while let Some(dir) = pending.pop() {
            for entry in std::fs::read_dir(dir)? {
                let entry = entry?;
                if entry.file_type()?.is_dir() {
                    pending.push(entry.path());
                } else {
                    let relative = entry.path();
                    let relative = relative.strip_prefix(root).unwrap_or(&relative);
                    let key = relative.to_string_lossy().replace('\\', "/");
                    fs.files.insert(key, std::fs::read(entry.path())?);
                }
            }
        }
        Ok(fs)
    }
}

fn clean(path: &str) -> &str {
    let path = path.trim_start_matches("./");
    if path == "." { "" } else { path }
}

impl ProjectFs for MemFs {
    fn read(&self, path: &str) -> std::io::Result<Vec<u8>> {
        let path = clean(path);
        if self.denied.contains(path) {
            return Err(Error::new(ErrorKind::PermissionDenied, "denied"));
        }
        self.files
            .get(path)
            .cloned()
            .ok_or_else(|| Error::new(ErrorKind::NotFound, "no such file"))
    }

    fn read_dir(&self, path: &str) -> std::io::Result<Vec<DirEntry>> {
        let path = clean(path);
        if self.denied.contains(path) {
            return Err(Error::new(ErrorKind::PermissionDenied, "denied"));
        }
        let prefix = if path.is_empty() {
            String::new()
        } else {
            format!("{path}/")
        };
        let mut entries: BTreeMap<String, bool> = BTreeMap::new();
        for key in self.files.keys() {
            if let Some(rest) = key.strip_prefix(&prefix) {
                match rest.split_once('/') {
                    Some((dir, _)) => entries.insert(dir.to_owned(), true),
                    None => entries.insert(rest.to_owned(), false),
                };
            }
        }
        if entries.is_empty() && !path.is_empty() {
            return Err(Error::new(ErrorKind::NotFound, "no such directory"));
        }
        Ok(entries
            .into_iter()
            .map(|(name, is_dir)| DirEntry { name, is_dir })
            .collect())
    }
}

pub use ofgui_contracts::wording::{assert_articles, misarticled, stuttered};
