//! The backend's only window on storage.
//!
//! Inside `backend.wasm` the root is `"."`, the session's single preopened directory, so
//! WASI itself refuses every path that leads outside it. Natively (unit tests, benchmarks)
//! the root is a real directory. Paths are project-relative and use `/`.

use std::io;
use std::path::{Path, PathBuf};

/// One entry of a directory listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirEntry {
    pub name: String,
    pub is_dir: bool,
}

/// Read access to the project directory.
pub trait ProjectFs {
    /// Reads a whole file.
    fn read(&self, path: &str) -> io::Result<Vec<u8>>;
    /// Lists a directory, sorted by name.
    fn read_dir(&self, path: &str) -> io::Result<Vec<DirEntry>>;
}

/// The path of an existing file that differs from `path` only in letter case, when `path`
/// itself is absent: what the FairyGUI editor finds on a case-insensitive disk (Windows,
/// macOS) and a case-sensitive one does not. Each segment prefers its exact spelling, so
/// only the segments that really differ change. Costs one listing per segment, and is
/// only asked for paths already found missing.
pub fn case_variant(fs: &dyn ProjectFs, path: &str) -> Option<String> {
    let segments: Vec<&str> = path.split('/').collect();
    let mut found = String::new();
    for (index, segment) in segments.iter().enumerate() {
        let last = index + 1 == segments.len();
        let dir = if found.is_empty() { "." } else { &found };
        let entries = fs.read_dir(dir).ok()?;
        let matches = |entry: &&DirEntry| entry.is_dir != last;
        let entry = entries
            .iter()
            .filter(matches)
            .find(|entry| entry.name == *segment)
            .or_else(|| {
                entries
                    .iter()
                    .filter(matches)
                    .find(|entry| entry.name.to_lowercase() == segment.to_lowercase())
            })?;
        if !found.is_empty() {
            found.push('/');
        }
        found.push_str(&entry.name);
    }
    (found != path).then_some(found)
}

/// [`ProjectFs`] over `std::fs`, rooted at a directory.
#[derive(Clone, Debug)]
pub struct StdFs {
    root: PathBuf,
}

impl StdFs {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    fn resolve(&self, path: &str) -> io::Result<PathBuf> {
        // Refuse traversal before touching the disk; WASI refuses it again below us.
        let relative = Path::new(path);
        for component in relative.components() {
            match component {
                std::path::Component::Normal(_) | std::path::Component::CurDir => {}
                _ => {
                    return Err(io::Error::new(
                        io::ErrorKind::PermissionDenied,
                        "path leads outside the project",
                    ));
                }
            }
        }
        Ok(self.root.join(relative))
    }
}

impl ProjectFs for StdFs {
    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        std::fs::read(self.resolve(path)?)
    }

    fn read_dir(&self, path: &str) -> io::Result<Vec<DirEntry>> {
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(self.resolve(path)?)? {
            let entry = entry?;
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            entries.push(DirEntry {
                name,
                is_dir: entry.file_type()?.is_dir(),
            });
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(entries)
    }
}
