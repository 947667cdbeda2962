//! The backend's only window on storage.
//!
//! Inside `backend.wasm` the root is `"."`, the session's single preopened directory, so
//! WASI itself refuses every path that leads outside it. Natively (unit tests, benchmarks)
//! the root is a real directory. Paths are project-relative and use `/`.
//!
//! Saving needs more than reading: [`ProjectFsWrite`] adds the few primitives a crash-safe
//! commit is built from (exclusive create with fsync, replacing rename, removal, directory
//! fsync, and the link count that lets a save refuse hard-linked files as opening does).
//!
//! [`CaseFold`] finds a file the project names in another letter case, as the FairyGUI
//! editor does on Windows and macOS: the reader reads resource files through it (the bytes
//! then serve validation, rendering and publishing under the declared path), and a save
//! writes back through the same lookup (`crate::session::save::DiskPaths`).

use std::cell::RefCell;
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::rc::Rc;

#[cfg(target_os = "wasi")]
mod preopen;

/// The mark in the hidden name of a file a commit staged beside the one it replaces.
pub const STAGED_MARK: &str = ".ofgui-staged-";
/// The mark in the hidden name of a file (or directory) a commit set aside.
pub const ASIDE_MARK: &str = ".ofgui-aside-";

/// True for the hidden names of staged and set-aside files (and directories), which only
/// commits create. The reader skips them, so an interrupted save never shows up as a
/// folder or package of the project.
pub fn is_save_artifact(name: &str) -> bool {
    name.starts_with('.') && (name.contains(STAGED_MARK) || name.contains(ASIDE_MARK))
}

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
    /// Reads up to `len` bytes at `offset` (fewer at the end of the file): the few tables
    /// of a font file its index needs, without reading the whole file.
    fn read_range(&self, path: &str, offset: u64, len: u64) -> io::Result<Vec<u8>> {
        let bytes = self.read(path)?;
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(bytes.len());
        let end = start.saturating_add(usize::try_from(len).unwrap_or(usize::MAX));
        Ok(bytes[start..end.min(bytes.len())].to_vec())
    }
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
/// itself is absent (the first of them when several do): what the FairyGUI editor finds on
/// a case-insensitive disk (Windows, macOS) and a case-sensitive one does not. Only asked
/// for paths already found missing.
pub fn case_variant(fs: &dyn ProjectFs, path: &str) -> Option<String> {
    CaseFold::new(fs).variants(path).into_iter().next()
}

/// Most spellings of one path followed at once: real projects have two at most, and the
/// cap keeps a hostile tree (every casing of every segment) from multiplying the listings.
const MAX_SPELLINGS: usize = 16;

/// Case-insensitive lookups over a [`ProjectFs`], as the FairyGUI editor finds files on
/// Windows and macOS, where `assets/Bag/` and `assets/bag/` are one folder (and git on a
/// case-sensitive disk can hold both, each with some of the files). Reads go to the exact
/// path first; only a miss lists directories, and each directory is listed once for the
/// life of the value (one project read, or one save).
pub struct CaseFold<'a> {
    fs: &'a dyn ProjectFs,
    /// Listings by directory; `None` for a directory that cannot be listed.
    listings: RefCell<HashMap<String, Option<Rc<Vec<DirEntry>>>>>,
}

/// Why [`CaseFold::read_folded`] has no bytes for a path.
#[derive(Debug)]
pub enum NotRead {
    /// No file has the path in any letter case (`variants` empty), or several files do and
    /// none is the one (`variants` names them all).
    Absent { variants: Vec<String> },
    /// The file (at `path`, the exact or the one other spelling) exists but cannot be read.
    Unreadable { path: String, error: io::Error },
}

/// A file read by [`CaseFold::read_folded`].
#[derive(Debug)]
pub struct Folded {
    pub bytes: Vec<u8>,
    /// Where it was found, when not at the path asked for.
    pub found_at: Option<String>,
}

impl<'a> CaseFold<'a> {
    pub fn new(fs: &'a dyn ProjectFs) -> Self {
        Self {
            fs,
            listings: RefCell::default(),
        }
    }

    fn listing(&self, dir: &str) -> Option<Rc<Vec<DirEntry>>> {
        if let Some(found) = self.listings.borrow().get(dir) {
            return found.clone();
        }
        let found = self.fs.read_dir(dir).ok().map(Rc::new);
        self.listings
            .borrow_mut()
            .insert(dir.to_owned(), found.clone());
        found
    }

    /// Every existing file whose path equals `path` ignoring letter case, other than
    /// `path` itself. Each segment follows every spelling its directory holds, since two
    /// spellings of one folder may each hold some of the files.
    pub fn variants(&self, path: &str) -> Vec<String> {
        let segments: Vec<&str> = path.split('/').collect();
        let mut prefixes = vec![String::new()];
        for (index, segment) in segments.iter().enumerate() {
            let last = index + 1 == segments.len();
            let lower = segment.to_lowercase();
            let mut next = Vec::new();
            for prefix in &prefixes {
                let dir = if prefix.is_empty() { "." } else { prefix };
                let Some(entries) = self.listing(dir) else {
                    continue;
                };
                for entry in entries.iter() {
                    if entry.is_dir != last && entry.name.to_lowercase() == lower {
                        next.push(if prefix.is_empty() {
                            entry.name.clone()
                        } else {
                            format!("{prefix}/{}", entry.name)
                        });
                    }
                }
            }
            next.truncate(MAX_SPELLINGS);
            if next.is_empty() {
                return next;
            }
            prefixes = next;
        }
        prefixes.retain(|found| found != path);
        prefixes
    }

    /// Whether directory `dir` exists with exactly this spelling.
    pub fn is_dir_exactly(&self, dir: &str) -> bool {
        let (parent, name) = dir.rsplit_once('/').unwrap_or((".", dir));
        self.listing(parent)
            .is_some_and(|entries| entries.iter().any(|e| e.is_dir && e.name == name))
    }

    /// Directory `dir` as the disk spells it: each segment exactly when that exists, else
    /// the one directory that differs only in letter case; segments with no such directory,
    /// or with several, stay as given (a save then creates them as given).
    pub fn dir_on_disk(&self, dir: &str) -> String {
        let mut found = String::new();
        for segment in dir.split('/') {
            let parent = if found.is_empty() { "." } else { &found };
            let lower = segment.to_lowercase();
            let name = self
                .listing(parent)
                .and_then(|entries| {
                    if entries.iter().any(|e| e.is_dir && e.name == segment) {
                        return None;
                    }
                    let mut others = entries
                        .iter()
                        .filter(|e| e.is_dir && e.name.to_lowercase() == lower);
                    match (others.next(), others.next()) {
                        (Some(only), None) => Some(only.name.clone()),
                        _ => None,
                    }
                })
                .unwrap_or_else(|| segment.to_owned());
            if !found.is_empty() {
                found.push('/');
            }
            found.push_str(&name);
        }
        found
    }

    /// Reads `path`, or else the one file whose path differs from it only in letter case:
    /// the file the FairyGUI editor reads on a case-insensitive disk. Several such files
    /// are ambiguous (which one the editor gets depends on the disk), so none is read.
    pub fn read_folded(&self, path: &str) -> Result<Folded, NotRead> {
        match self.fs.read(path) {
            Ok(bytes) => {
                return Ok(Folded {
                    bytes,
                    found_at: None,
                });
            }
            Err(error) if error.kind() != io::ErrorKind::NotFound => {
                return Err(NotRead::Unreadable {
                    path: path.to_owned(),
                    error,
                });
            }
            Err(_) => {}
        }
        let variants = self.variants(path);
        let [actual] = variants.as_slice() else {
            return Err(NotRead::Absent { variants });
        };
        match self.fs.read(actual) {
            Ok(bytes) => Ok(Folded {
                bytes,
                found_at: Some(actual.clone()),
            }),
            Err(error) => Err(NotRead::Unreadable {
                path: actual.clone(),
                error,
            }),
        }
    }
}

/// [`CaseFold`] reads like the disk below it, so a reader can hold one and pass it on.
impl ProjectFs for CaseFold<'_> {
    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        self.fs.read(path)
    }

    fn read_dir(&self, path: &str) -> io::Result<Vec<DirEntry>> {
        self.fs.read_dir(path)
    }
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

    fn read_range(&self, path: &str, offset: u64, len: u64) -> io::Result<Vec<u8>> {
        use std::io::{Read, Seek, SeekFrom};
        let mut file = std::fs::File::open(self.resolve(path)?)?;
        file.seek(SeekFrom::Start(offset))?;
        let mut bytes = Vec::new();
        file.take(len).read_to_end(&mut bytes)?;
        Ok(bytes)
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
