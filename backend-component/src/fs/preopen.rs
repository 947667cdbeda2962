//! [`ProjectFs`] on WASI's own filesystem calls, for the component: reads are what an open
//! is made of, and each WASI call can cost a host round trip (jco's preview2 shim serves
//! every one through a worker thread), so a file is read with as few as the format allows.
//!
//! `std::fs::read` through wasi-libc costs about ten calls a file: an open, an `fstat`
//! that is a `stat` plus a `metadata-hash` (libc wants `st_ino`), a stream, two stream
//! reads, and the drops; a listing adds a `metadata-hash-at` per entry for `d_ino`. Here a
//! file is `open-at`, `stat`, one `read` of its whole length (more only when the host
//! returns less) and the drop; a listing is `open-at`, `read-directory` and its entries.
//!
//! Writes stay on `std::fs` ([`StdFs`]): a save makes a few calls per changed file, and
//! std's durable-write steps are the ones the commit protocol was built and tested on.

use std::io;

use wasip2::filesystem::types::{
    Descriptor, DescriptorFlags, DescriptorType, ErrorCode, OpenFlags, PathFlags,
};

use super::{DirEntry, EntryMeta, ProjectFs, ProjectFsWrite, StdFs, check_relative};

/// The session's preopened project directory (`.`), read through WASI directly.
pub struct PreopenFs {
    /// None in an instance with no preopen `.` (a session opened from a document): every
    /// read then fails as std's would, with nothing found.
    root: Option<Descriptor>,
    writes: StdFs,
}

impl PreopenFs {
    /// The preopen named `.`, which a host gives a session for its project directory.
    pub fn project() -> Self {
        let root = wasip2::filesystem::preopens::get_directories()
            .into_iter()
            .find_map(|(descriptor, name)| (name == ".").then_some(descriptor));
        Self {
            root,
            writes: StdFs::new("."),
        }
    }

    /// The font directories a host grants: preopens named `/fonts/0`, `/fonts/1`, … (read
    /// only; `wit/` documents the convention), each with its name.
    pub fn fonts() -> Vec<(String, Self)> {
        wasip2::filesystem::preopens::get_directories()
            .into_iter()
            .filter(|(_, name)| name.starts_with("/fonts/"))
            .map(|(descriptor, name)| {
                let dir = Self {
                    root: Some(descriptor),
                    writes: StdFs::new(&name),
                };
                (name, dir)
            })
            .collect()
    }

    fn root(&self) -> io::Result<&Descriptor> {
        self.root.as_ref().ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::NotFound,
                "no project directory is preopened as `.`",
            )
        })
    }

    fn open(&self, path: &str, open: OpenFlags) -> io::Result<Descriptor> {
        check_relative(path)?;
        self.root()?
            .open_at(PathFlags::SYMLINK_FOLLOW, path, open, DescriptorFlags::READ)
            .map_err(os_error)
    }
}

impl ProjectFs for PreopenFs {
    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        let file = self.open(path, OpenFlags::empty())?;
        let size = file.stat().map_err(os_error)?.size;
        let mut bytes = Vec::new();
        // One read of the whole length; a host may return less per call (wasmtime caps a
        // read at 64 KiB), so go on until the size `stat` gave, or the end if it shrank.
        // A file that grew since the `stat` is read as it was then.
        while (bytes.len() as u64) < size {
            let (chunk, end) = file
                .read(size - bytes.len() as u64, bytes.len() as u64)
                .map_err(os_error)?;
            if bytes.is_empty() && chunk.len() as u64 == size {
                return Ok(chunk);
            }
            bytes.extend_from_slice(&chunk);
            if end || chunk.is_empty() {
                break;
            }
        }
        Ok(bytes)
    }

    fn read_range(&self, path: &str, offset: u64, len: u64) -> io::Result<Vec<u8>> {
        let file = self.open(path, OpenFlags::empty())?;
        let mut bytes = Vec::new();
        while (bytes.len() as u64) < len {
            let (chunk, end) = file
                .read(len - bytes.len() as u64, offset + bytes.len() as u64)
                .map_err(os_error)?;
            bytes.extend_from_slice(&chunk);
            if end || chunk.is_empty() {
                break;
            }
        }
        Ok(bytes)
    }

    fn read_dir(&self, path: &str) -> io::Result<Vec<DirEntry>> {
        // Even `.` is opened, not listed through the preopen itself: jco's shim lists only
        // descriptors it opened.
        let dir = self.open(path, OpenFlags::DIRECTORY)?;
        let stream = dir.read_directory().map_err(os_error)?;
        let mut entries = Vec::new();
        while let Some(entry) = stream.read_directory_entry().map_err(os_error)? {
            entries.push(DirEntry {
                is_dir: entry.type_ == DescriptorType::Directory,
                name: entry.name,
            });
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(entries)
    }
}

impl ProjectFsWrite for PreopenFs {
    fn metadata(&self, path: &str) -> io::Result<EntryMeta> {
        self.writes.metadata(path)
    }

    fn write_new_synced(&self, path: &str, bytes: &[u8]) -> io::Result<()> {
        self.writes.write_new_synced(path, bytes)
    }

    fn rename(&self, from: &str, to: &str) -> io::Result<()> {
        self.writes.rename(from, to)
    }

    fn remove_file(&self, path: &str) -> io::Result<()> {
        self.writes.remove_file(path)
    }

    fn create_dir(&self, path: &str) -> io::Result<()> {
        self.writes.create_dir(path)
    }

    fn remove_dir(&self, path: &str) -> io::Result<()> {
        self.writes.remove_dir(path)
    }

    fn sync_dir(&self, path: &str) -> io::Result<()> {
        self.writes.sync_dir(path)
    }
}

/// A WASI error as the `io::Error` std would have made of it (wasi-libc's errno for each
/// code), so kinds and messages are the same as through `std::fs`.
fn os_error(code: ErrorCode) -> io::Error {
    use ErrorCode as E;
    let errno = match code {
        E::Access => libc::EACCES,
        E::WouldBlock => libc::EAGAIN,
        E::Already => libc::EALREADY,
        E::BadDescriptor => libc::EBADF,
        E::Busy => libc::EBUSY,
        E::Deadlock => libc::EDEADLK,
        E::Quota => libc::EDQUOT,
        E::Exist => libc::EEXIST,
        E::FileTooLarge => libc::EFBIG,
        E::IllegalByteSequence => libc::EILSEQ,
        E::InProgress => libc::EINPROGRESS,
        E::Interrupted => libc::EINTR,
        E::Invalid => libc::EINVAL,
        E::Io => libc::EIO,
        E::IsDirectory => libc::EISDIR,
        E::Loop => libc::ELOOP,
        E::TooManyLinks => libc::EMLINK,
        E::MessageSize => libc::EMSGSIZE,
        E::NameTooLong => libc::ENAMETOOLONG,
        E::NoDevice => libc::ENODEV,
        E::NoEntry => libc::ENOENT,
        E::NoLock => libc::ENOLCK,
        E::InsufficientMemory => libc::ENOMEM,
        E::InsufficientSpace => libc::ENOSPC,
        E::NotDirectory => libc::ENOTDIR,
        E::NotEmpty => libc::ENOTEMPTY,
        E::NotRecoverable => libc::ENOTRECOVERABLE,
        E::Unsupported => libc::ENOTSUP,
        E::NoTty => libc::ENOTTY,
        E::NoSuchDevice => libc::ENXIO,
        E::Overflow => libc::EOVERFLOW,
        E::NotPermitted => libc::EPERM,
        E::Pipe => libc::EPIPE,
        E::ReadOnly => libc::EROFS,
        E::InvalidSeek => libc::ESPIPE,
        E::TextFileBusy => libc::ETXTBSY,
        E::CrossDevice => libc::EXDEV,
    };
    io::Error::from_raw_os_error(errno)
}
