//! The backend's only window on storage.
//!
//! Inside `backend.wasm` the root is `"."`, the session's single preopened directory, so
//! WASI itself refuses every path that leads outside it. Natively (unit tests, benchmarks)
//! the root is a real directory. Paths are project-relative and use `/`.
//!
//! Saving needs more than reading: [`ProjectFsWrite`] adds the few primitives a crash-safe
//! commit is built from (exclusive create with fsync, replacing rename, removal, directory
//! fsync, and the link count that lets a save refuse hard-linked files as opening does).

use std::io;
use std::path::{Path, PathBuf};

#[cfg(target_os = "wasi")]
mod preopen;

/// The project directory as the component sees it: the preopen `.`, read through WASI's
/// own calls in `backend.wasm`, and the working directory through `std::fs` natively.
#[cfg(target_os = "wasi")]
pub use preopen::PreopenFs as ProjectDir;
#[cfg(not(target_os = "wasi"))]
pub type ProjectDir = StdFs;

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

/// What kind of entry a path names, without following a final symlink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    File,
    Dir,
    Symlink,
    Other,
}

/// What a save needs to know about an existing entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntryMeta {
    pub kind: EntryKind,
    /// Hard links to the entry, when the platform tells: a file with more than one is
    /// refused, since a path-based sandbox cannot see where its other names lead.
    pub links: Option<u64>,
}

/// Write access to the project directory: the primitives of a staged, journaled commit
/// (`crate::commit`). Each is one filesystem call, so a crash falls between two of them.
pub trait ProjectFsWrite: ProjectFs {
    /// Facts about `path` itself (a symlink is reported, not followed).
    fn metadata(&self, path: &str) -> io::Result<EntryMeta>;
    /// Creates `path`, failing if anything exists there, writes `bytes` and syncs the
    /// file's data and metadata to disk before returning.
    fn write_new_synced(&self, path: &str, bytes: &[u8]) -> io::Result<()>;
    /// Renames `from` to `to`, atomically replacing a file at `to`.
    fn rename(&self, from: &str, to: &str) -> io::Result<()>;
    fn remove_file(&self, path: &str) -> io::Result<()>;
    /// Creates one directory; its parent must exist.
    fn create_dir(&self, path: &str) -> io::Result<()>;
    /// Removes an empty directory.
    fn remove_dir(&self, path: &str) -> io::Result<()>;
    /// Makes the entries of directory `path` (creations, renames, removals) durable.
    fn sync_dir(&self, path: &str) -> io::Result<()>;
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

/// Whether an entry exists at `path` (a symlink counts as itself; it is not followed).
pub fn exists(fs: &dyn ProjectFsWrite, path: &str) -> io::Result<bool> {
    match fs.metadata(path) {
        Ok(_) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// The path as the disk spells it: each segment as listed in its directory (exactly, or
/// else the entry a case-insensitive disk takes for it). Only asked for existing paths.
pub fn spelling(fs: &dyn ProjectFs, path: &str) -> io::Result<String> {
    let mut found = String::new();
    for segment in path.split('/') {
        let dir = if found.is_empty() { "." } else { &found };
        let entries = fs.read_dir(dir)?;
        let name = entries
            .iter()
            .find(|entry| entry.name == segment)
            .or_else(|| {
                let lower = segment.to_lowercase();
                entries
                    .iter()
                    .find(|entry| entry.name.to_lowercase() == lower)
            })
            .map_or(segment, |entry| entry.name.as_str())
            .to_owned();
        if !found.is_empty() {
            found.push('/');
        }
        found.push_str(&name);
    }
    Ok(found)
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

    /// The working directory, as [`ProjectDir`] natively.
    #[cfg(not(target_os = "wasi"))]
    pub fn project() -> Self {
        Self::new(".")
    }

    fn resolve(&self, path: &str) -> io::Result<PathBuf> {
        check_relative(path)?;
        Ok(self.root.join(path))
    }
}

/// Refuses a path that could lead outside the project before it touches the disk; WASI
/// refuses it again below us.
fn check_relative(path: &str) -> io::Result<()> {
    for component in Path::new(path).components() {
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
    Ok(())
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

impl ProjectFsWrite for StdFs {
    fn metadata(&self, path: &str) -> io::Result<EntryMeta> {
        let resolved = self.resolve(path)?;
        let metadata = std::fs::symlink_metadata(&resolved)?;
        let file_type = metadata.file_type();
        let kind = if file_type.is_symlink() {
            EntryKind::Symlink
        } else if file_type.is_dir() {
            EntryKind::Dir
        } else if file_type.is_file() {
            EntryKind::File
        } else {
            EntryKind::Other
        };
        Ok(EntryMeta {
            kind,
            links: link_count(&resolved, &metadata),
        })
    }

    fn write_new_synced(&self, path: &str, bytes: &[u8]) -> io::Result<()> {
        use std::io::Write;
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(self.resolve(path)?)?;
        file.write_all(bytes)?;
        file.sync_all()
    }

    fn rename(&self, from: &str, to: &str) -> io::Result<()> {
        std::fs::rename(self.resolve(from)?, self.resolve(to)?)
    }

    fn remove_file(&self, path: &str) -> io::Result<()> {
        std::fs::remove_file(self.resolve(path)?)
    }

    fn create_dir(&self, path: &str) -> io::Result<()> {
        std::fs::create_dir(self.resolve(path)?)
    }

    fn remove_dir(&self, path: &str) -> io::Result<()> {
        std::fs::remove_dir(self.resolve(path)?)
    }

    fn sync_dir(&self, path: &str) -> io::Result<()> {
        // Opening a directory read-only and syncing it is how POSIX makes its entries
        // durable; WASI Preview 2 (wasmtime-wasi) does the same for a directory descriptor.
        match std::fs::File::open(self.resolve(path)?).and_then(|dir| dir.sync_all()) {
            // Windows cannot flush a directory handle (access denied); NTFS orders its
            // metadata updates itself, so there is nothing more to ask for.
            Err(e) if cfg!(windows) && e.kind() == io::ErrorKind::PermissionDenied => Ok(()),
            other => other,
        }
    }
}

#[cfg(unix)]
fn link_count(_: &Path, metadata: &std::fs::Metadata) -> Option<u64> {
    use std::os::unix::fs::MetadataExt;
    Some(metadata.nlink())
}

/// std keeps `MetadataExt::nlink` unstable on WASI; wasi-libc's `lstat` (which std itself
/// links, and which resolves relative paths against the same preopens) reports the
/// `link-count` of WASI's `descriptor.stat-at`.
#[cfg(target_os = "wasi")]
fn link_count(path: &Path, _: &std::fs::Metadata) -> Option<u64> {
    let path = std::ffi::CString::new(path.to_str()?).ok()?;
    let mut stat = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: `path` is a valid NUL-terminated string and `stat` points to writable
    // memory of the right type, which `lstat` fills in completely when it returns 0.
    let stat = unsafe {
        if libc::lstat(path.as_ptr(), stat.as_mut_ptr()) != 0 {
            return None;
        }
        stat.assume_init()
    };
    Some(stat.st_nlink)
}

#[cfg(not(any(unix, target_os = "wasi")))]
fn link_count(_: &Path, _: &std::fs::Metadata) -> Option<u64> {
    None
}
