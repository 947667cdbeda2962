//! The sandbox boundary on the host side.
//!
//! Two layers keep a session inside its project. First the host resolves `projectPath`
//! (realpath), refuses anything outside the allowed roots, and refuses project files that
//! are symlinks or have extra hard links. Then the component gets exactly one capability:
//! the project directory preopened as `.`; WASI refuses every path that leads out of it,
//! so even a wrong host check cannot widen what a session sees. Font directories the
//! server grants for previews come beside it, read only ([`FontDirs`]).

use std::path::{Component, Path, PathBuf};

use anyhow::Result;
use cap_std::ambient_authority;
use cap_std::fs::Dir;
use ofgui_contracts::error::OpenFailureReason;
use wasmtime_wasi::{FsPerms, WasiCtx};

/// A project ready to open: its canonical directory and its `.fairy` file name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedProject {
    /// Canonical (realpath) project directory.
    pub dir: PathBuf,
    /// The `.fairy` file name inside `dir`.
    pub fairy_file: String,
    /// The identity of the project for one-session-per-project.
    pub key: String,
    /// The directory's device and inode when it was resolved: a save checks that `dir`
    /// still names that directory, since the session's preopen does.
    pub identity: Option<DirIdentity>,
}

/// What tells one directory from another while both exist (device and inode on Unix).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DirIdentity {
    device: u64,
    inode: u64,
}

impl DirIdentity {
    /// The identity of the directory `path` leads to, when the platform tells.
    pub fn of(path: &Path) -> Option<DirIdentity> {
        let metadata = std::fs::metadata(path).ok()?;
        identity_of(&metadata)
    }
}

#[cfg(unix)]
fn identity_of(metadata: &std::fs::Metadata) -> Option<DirIdentity> {
    use std::os::unix::fs::MetadataExt;
    Some(DirIdentity {
        device: metadata.dev(),
        inode: metadata.ino(),
    })
}

#[cfg(not(unix))]
fn identity_of(_: &std::fs::Metadata) -> Option<DirIdentity> {
    None
}

impl ResolvedProject {
    /// True while `dir` still resolves, without any symlink, to the directory the session
    /// opened. A project directory moved away and replaced (by a symlink out of the
    /// roots, say) is not the project any more: its session must not write or reopen it.
    pub fn still_in_place(&self) -> bool {
        let Ok(real) = std::fs::canonicalize(&self.dir) else {
            return false;
        };
        real == self.dir && DirIdentity::of(&self.dir) == self.identity
    }

    /// The first of `paths` (project-relative, `/`) that is read-only on disk, or whose
    /// nearest existing directory is: the file or the directory, project-relative. A
    /// save replaces files by renaming new ones over them, which the system allows for a
    /// read-only file (and root for a read-only directory), so the check is ofgui's own:
    /// a read-only file is often one version control has not checked out.
    pub fn read_only_entry<'a>(&self, paths: impl IntoIterator<Item = &'a str>) -> Option<String> {
        read_only_below(&self.dir, paths)
    }
}

/// The first of `paths` (relative to `root`, `/`) that is read-only on disk, or whose
/// nearest existing directory (`root` included) is: that file or directory, relative to
/// `root` (`.` for `root` itself). See [`ResolvedProject::read_only_entry`].
pub fn read_only_below<'a>(
    root: &Path,
    paths: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    for path in paths {
        let segments: Vec<&str> = path.split('/').collect();
        let plain = segments
            .iter()
            .all(|segment| !segment.is_empty() && *segment != "." && *segment != "..");
        if !plain {
            continue;
        }
        for end in (0..=segments.len()).rev() {
            let relative = segments[..end].join("/");
            let Ok(metadata) = std::fs::symlink_metadata(root.join(&relative)) else {
                continue;
            };
            if metadata.file_type().is_symlink() {
                // Refused by the write itself, as not a regular file.
                break;
            }
            if metadata.permissions().readonly() {
                return Some(if relative.is_empty() {
                    ".".to_string()
                } else {
                    relative
                });
            }
            if metadata.is_dir() {
                break;
            }
        }
    }
    None
}

/// Why a project path was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Outside every allowed root.
    NotAllowed,
    /// Inside a root but not openable.
    Open(OpenFailureReason, String),
}

/// Resolves `project_path` against the allowed roots (already canonical).
pub fn resolve_project(project_path: &str, roots: &[PathBuf]) -> Result<ResolvedProject, Refusal> {
    let requested = Path::new(project_path);
    let absolute = if requested.is_absolute() {
        requested.to_path_buf()
    } else {
        // Relative paths are relative to the first root, never to the server's cwd.
        roots.first().ok_or(Refusal::NotAllowed)?.join(requested)
    };
    let resolved = realpath_lenient(&absolute);
    if !roots.iter().any(|root| resolved.starts_with(root)) {
        return Err(Refusal::NotAllowed);
    }
    let metadata = std::fs::metadata(&resolved).map_err(|error| match error.kind() {
        std::io::ErrorKind::NotFound => open_refusal(
            OpenFailureReason::ProjectNotFound,
            "Project path does not exist.",
        ),
        std::io::ErrorKind::PermissionDenied => open_refusal(
            OpenFailureReason::AccessDenied,
            "Project path cannot be accessed.",
        ),
        _ => open_refusal(OpenFailureReason::Unknown, "Unable to open project."),
    })?;
    let (dir, fairy_file) = if metadata.is_dir() {
        let fairy_file = single_fairy_file(&resolved)?;
        (resolved, fairy_file)
    } else if metadata.is_file() && has_fairy_extension(&resolved) {
        let dir = resolved
            .parent()
            .map(Path::to_path_buf)
            .ok_or(Refusal::NotAllowed)?;
        let name = resolved
            .file_name()
            .and_then(|name| name.to_str())
            .map(str::to_string)
            .ok_or_else(|| {
                open_refusal(
                    OpenFailureReason::NotAProjectFile,
                    "Project file name is not valid UTF-8.",
                )
            })?;
        (dir, name)
    } else {
        return Err(open_refusal(
            OpenFailureReason::NotAProjectFile,
            "Project path is neither a .fairy file nor a directory.",
        ));
    };
    let key = dir.to_string_lossy().into_owned();
    let identity = DirIdentity::of(&dir);
    Ok(ResolvedProject {
        dir,
        fairy_file,
        key,
        identity,
    })
}

fn open_refusal(reason: OpenFailureReason, message: &str) -> Refusal {
    Refusal::Open(reason, message.to_string())
}

fn has_fairy_extension(path: &Path) -> bool {
    path.extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("fairy"))
}

/// The realpath of `path`, resolving the longest existing ancestor and appending the rest
/// lexically, so a missing project is still checked against the roots before anything else.
pub(crate) fn realpath_lenient(path: &Path) -> PathBuf {
    let mut normalized = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                normalized.pop();
            }
            Component::CurDir => {}
            other => normalized.push(other),
        }
    }
    let mut existing = normalized.clone();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(&existing) {
            let mut out = real;
            for part in rest.iter().rev() {
                out.push(part);
            }
            return out;
        }
        match (
            existing.file_name().map(|n| n.to_os_string()),
            existing.parent(),
        ) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                existing = parent.to_path_buf();
            }
            _ => return normalized,
        }
    }
}

fn single_fairy_file(dir: &Path) -> Result<String, Refusal> {
    let directory = Dir::open_ambient_dir(dir, ambient_authority()).map_err(|_| {
        open_refusal(
            OpenFailureReason::AccessDenied,
            "Project directory cannot be read.",
        )
    })?;
    let entries = directory.entries().map_err(|_| {
        open_refusal(
            OpenFailureReason::AccessDenied,
            "Project directory cannot be read.",
        )
    })?;
    let mut found: Vec<String> = entries
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| has_fairy_extension(Path::new(name)))
        .collect();
    found.sort();
    match found.len() {
        0 => Err(open_refusal(
            OpenFailureReason::NoProjectFile,
            "Project directory contains no .fairy file.",
        )),
        1 => Ok(found.remove(0)),
        _ => Err(open_refusal(
            OpenFailureReason::MultipleProjectFiles,
            &format!(
                "Project directory contains more than one .fairy file; open the intended .fairy file directly. Found: {}",
                found.join(", ")
            ),
        )),
    }
}

/// Refuses project-owned entries (`*.fairy`, `settings/`, `assets/`, `assets_*/`) that are
/// symlinks or regular files with more than one hard link. Symlinks are refused as upstream
/// does; hard links because path-based sandboxing cannot see where their other names are.
/// Unrelated entries of the project directory are not looked at.
pub fn check_project_entries(project: &ResolvedProject) -> Result<(), Refusal> {
    let root = Dir::open_ambient_dir(&project.dir, ambient_authority()).map_err(|_| {
        open_refusal(
            OpenFailureReason::AccessDenied,
            "Project directory cannot be read.",
        )
    })?;
    let entries = root.entries().map_err(|_| {
        open_refusal(
            OpenFailureReason::AccessDenied,
            "Project directory cannot be read.",
        )
    })?;
    for entry in entries {
        // An entry that cannot be listed cannot be vouched for: fail closed.
        let entry = entry.map_err(|_| {
            open_refusal(
                OpenFailureReason::AccessDenied,
                "Project directory cannot be read.",
            )
        })?;
        // The backend names files through WASI, whose paths are UTF-8: a name that is
        // not cannot be listed there, and WASI then fails the whole listing of the
        // project directory (and so every branch) rather than skip it.
        let Ok(name) = entry.file_name().into_string() else {
            return Err(not_utf8(&entry.file_name().to_string_lossy()));
        };
        let owned = name == "settings"
            || name == "assets"
            || name.starts_with("assets_")
            || has_fairy_extension(Path::new(&name));
        if owned {
            check_entry(&root, &name, &name)?;
        }
    }
    Ok(())
}

fn check_entry(parent: &Dir, name: &str, relative: &str) -> Result<(), Refusal> {
    let metadata = parent.symlink_metadata(name).map_err(|_| {
        open_refusal(
            OpenFailureReason::AccessDenied,
            &format!("{relative} cannot be read."),
        )
    })?;
    let file_type = metadata.file_type();
    if file_type.is_symlink() {
        return Err(open_refusal(
            OpenFailureReason::SymbolicLinkUnsupported,
            &format!(
                "Project entry {relative} is a symbolic link; project files must be regular files and directories."
            ),
        ));
    }
    if file_type.is_dir() {
        let dir = parent.open_dir(name).map_err(|_| {
            open_refusal(
                OpenFailureReason::AccessDenied,
                &format!("{relative} cannot be read."),
            )
        })?;
        let entries = dir.entries().map_err(|_| {
            open_refusal(
                OpenFailureReason::AccessDenied,
                &format!("{relative} cannot be read."),
            )
        })?;
        for entry in entries {
            let entry = entry.map_err(|_| {
                open_refusal(
                    OpenFailureReason::AccessDenied,
                    &format!("{relative} cannot be read."),
                )
            })?;
            match entry.file_name().into_string() {
                Ok(child) => check_entry(&dir, &child, &format!("{relative}/{child}"))?,
                // The backend lists package directories and their folders; one name it
                // cannot list would hide everything beside it.
                Err(child) => {
                    return Err(not_utf8(&format!("{relative}/{}", child.to_string_lossy())));
                }
            }
        }
    } else if link_count(&metadata) > 1 {
        return Err(open_refusal(
            OpenFailureReason::HardLinkUnsupported,
            &format!(
                "Project file {relative} has more than one hard link; ofgui refuses such files because the sandbox cannot tell where their other names lead."
            ),
        ));
    }
    Ok(())
}

fn not_utf8(lossy: &str) -> Refusal {
    open_refusal(
        OpenFailureReason::ProjectReadFailed,
        &format!(
            "Project entry {lossy} has a name that is not valid UTF-8 (shown here with replacement characters), which ofgui cannot list through its sandbox, so nothing beside it could be read either. Rename it, then open the project again."
        ),
    )
}

#[cfg(unix)]
fn link_count(metadata: &cap_std::fs::Metadata) -> u64 {
    use cap_std::fs::MetadataExt;
    metadata.nlink()
}

#[cfg(not(unix))]
fn link_count(_: &cap_std::fs::Metadata) -> u64 {
    1
}

/// The test-only fault specification the host hands to the component (see the backend's
/// `commit::fault`).
pub const SAVE_FAULT_ENV: &str = "OFGUI_SAVE_FAULT";
/// The same for the instance that writes a publish's output (it reaches that instance as
/// its `OFGUI_SAVE_FAULT`).
pub const OUTPUT_FAULT_ENV: &str = "OFGUI_OUTPUT_FAULT";

/// Directories of fonts previews may draw text in (`--font-dir`, by default the machine's
/// font folders), each granted to every instance read only as `/fonts/<n>`: the component
/// reads font files there and nothing else, and can write nowhere in them.
#[derive(Clone, Debug, Default)]
pub struct FontDirs(std::sync::Arc<[PathBuf]>);

impl FontDirs {
    /// The directories that exist among `dirs`, canonical; the rest are left out with a
    /// warning, so a missing font folder never stops a session from opening.
    pub fn new(dirs: &[PathBuf]) -> FontDirs {
        let found: Vec<PathBuf> = dirs
            .iter()
            .filter_map(|dir| match std::fs::canonicalize(dir) {
                Ok(dir) if dir.is_dir() => Some(dir),
                _ => {
                    tracing::warn!(dir = %dir.display(), "font directory not found; left out");
                    None
                }
            })
            .collect();
        FontDirs(found.into())
    }

    /// The machine's font folders that exist (where fontconfig, macOS and Windows keep
    /// them).
    pub fn machine() -> FontDirs {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let mut dirs: Vec<PathBuf> = [
            "/usr/share/fonts",
            "/usr/local/share/fonts",
            "/System/Library/Fonts",
            "/Library/Fonts",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        if let Some(home) = home {
            dirs.push(home.join(".local/share/fonts"));
            dirs.push(home.join(".fonts"));
            dirs.push(home.join("Library/Fonts"));
        }
        if let Some(windows) = std::env::var_os("WINDIR") {
            dirs.push(PathBuf::from(windows).join("Fonts"));
        }
        dirs.retain(|dir| dir.is_dir());
        FontDirs::new(&dirs)
    }

    pub fn dirs(&self) -> &[PathBuf] {
        &self.0
    }
}

/// The WASI context of a session: the project directory preopened as `.` (none for a
/// session opened from a document: it has no file access at all), the font directories
/// read only, the host's stderr (where the backend writes the causes of internal
/// failures, beside the host's own log), and nothing else (no environment, arguments,
/// stdin, stdout or network).
pub fn wasi_context(
    project_dir: Option<&Path>,
    fonts: &FontDirs,
    save_fault: Option<&str>,
) -> Result<WasiCtx> {
    let mut builder = WasiCtx::builder();
    // Writable so the session can save (and finish an interrupted save at open); still
    // only this directory, so WASI confines every write to the project.
    if let Some(project_dir) = project_dir {
        builder.preopened_dir(project_dir, ".", FsPerms::ReadWrite)?;
    }
    for (i, dir) in fonts.dirs().iter().enumerate() {
        // A folder removed since the start costs its fonts, not the session.
        if let Err(error) = builder.preopened_dir(dir, format!("/fonts/{i}"), FsPerms::ReadOnly) {
            tracing::warn!(dir = %dir.display(), %error, "font directory not granted");
        }
    }
    builder.inherit_stderr();
    // Crash and runaway tests stop a save at a chosen step (backend `commit::fault`);
    // without one, nothing reaches the component.
    if let Some(fault) = save_fault {
        builder.env(SAVE_FAULT_ENV, fault);
    }
    // Local file reads are short; running them on the calling thread is ~3x faster than
    // a spawn_blocking hop per call.
    builder.allow_blocking_current_thread(true);
    Ok(builder.build())
}

/// Where a session opened from a document is to be written (`materializeSession`'s
/// `targetPath`), checked but not yet created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The project directory as it will be (realpath of what exists, the rest appended).
    pub dir: PathBuf,
    /// The `.fairy` file to write in it.
    pub fairy_file: String,
    /// The project's identity once written (as [`ResolvedProject::key`]).
    pub key: String,
}

/// Why a target was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum TargetRefusal {
    /// Outside every allowed root.
    NotAllowed,
    /// It already holds a FairyGUI project; the entry that says so.
    HoldsProject(String),
    /// Something other than a directory is there.
    NotADirectory,
    /// The directory or file name is not UTF-8 (no WASI path can name it).
    NotUtf8,
}

/// Resolves `target_path` against the allowed roots: a directory (the project file is then
/// `<dir>.fairy`, as the editor names a new project after its directory) or a `.fairy`
/// file in one. The directory may be missing (it is created) or exist without any
/// project-owned entry (`*.fairy`, `settings`, `assets`, `assets_*`): a write never mixes
/// two projects.
pub fn resolve_target(target_path: &str, roots: &[PathBuf]) -> Result<Target, TargetRefusal> {
    let requested = Path::new(target_path);
    let absolute = if requested.is_absolute() {
        requested.to_path_buf()
    } else {
        roots
            .first()
            .ok_or(TargetRefusal::NotAllowed)?
            .join(requested)
    };
    let resolved = realpath_lenient(&absolute);
    if !roots.iter().any(|root| resolved.starts_with(root)) {
        return Err(TargetRefusal::NotAllowed);
    }
    let names_file = has_fairy_extension(&resolved) && !resolved.is_dir();
    let (dir, fairy_file) = if names_file {
        let name = resolved
            .file_name()
            .and_then(|name| name.to_str())
            .ok_or(TargetRefusal::NotUtf8)?
            .to_string();
        let dir = resolved.parent().ok_or(TargetRefusal::NotAllowed)?;
        if !roots.iter().any(|root| dir.starts_with(root)) {
            return Err(TargetRefusal::NotAllowed);
        }
        (dir.to_path_buf(), name)
    } else {
        let name = resolved
            .file_name()
            .and_then(|name| name.to_str())
            .ok_or(TargetRefusal::NotUtf8)?;
        let fairy_file = format!("{name}.fairy");
        (resolved.clone(), fairy_file)
    };
    if dir.to_str().is_none() {
        return Err(TargetRefusal::NotUtf8);
    }
    match std::fs::symlink_metadata(&dir) {
        Ok(metadata) if metadata.is_dir() => {
            let entries = std::fs::read_dir(&dir).map_err(|_| TargetRefusal::NotADirectory)?;
            for entry in entries {
                let name = entry
                    .map_err(|_| TargetRefusal::NotADirectory)?
                    .file_name()
                    .to_string_lossy()
                    .into_owned();
                let owned = name == "settings"
                    || name == "assets"
                    || name.starts_with("assets_")
                    || has_fairy_extension(Path::new(&name));
                if owned {
                    return Err(TargetRefusal::HoldsProject(name));
                }
            }
        }
        Ok(_) => return Err(TargetRefusal::NotADirectory),
        Err(_) => {}
    }
    let key = dir.to_string_lossy().into_owned();
    Ok(Target {
        dir,
        fairy_file,
        key,
    })
}

impl Target {
    /// Creates the directory and any missing parents; gives the ones it created, deepest
    /// last, for [`Target::remove_created`] to undo. The created directory is resolved
    /// again, so a symlink swapped in meanwhile cannot lead the write outside the roots.
    pub fn create(&self, roots: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
        create_within(&self.dir, roots)
    }

    /// Removes directories [`Target::create`] made, deepest first, while they are empty.
    pub fn remove_created(created: &[PathBuf]) {
        remove_created(created);
    }

    /// The target as a project to open and lock, once it exists.
    pub fn project(&self) -> ResolvedProject {
        ResolvedProject {
            dir: self.dir.clone(),
            fairy_file: self.fairy_file.clone(),
            key: self.key.clone(),
            identity: DirIdentity::of(&self.dir),
        }
    }
}

/// Why an output directory was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum OutputRefusal {
    /// Outside every allowed root.
    NotAllowed,
    /// The directory itself is a symbolic link.
    Symlink,
    /// Something other than a directory is there.
    NotADirectory,
    /// The project directory itself, or inside its `assets*` or `settings` folders.
    InsideProjectSources,
    /// A relative path with no project directory to be relative to.
    NoBase,
    /// Not UTF-8 (no WASI path can name it).
    NotUtf8,
}

/// Resolves where publishing writes: `path` absolute, or relative to `base` (the project
/// directory). The result lies inside the roots, is not itself a symlink, and is neither
/// the project directory nor inside its sources; it may not exist yet.
pub fn resolve_output(
    path: &str,
    base: Option<&Path>,
    project: Option<&Path>,
    roots: &[PathBuf],
) -> Result<PathBuf, OutputRefusal> {
    let requested = Path::new(path);
    let absolute = if requested.is_absolute() {
        requested.to_path_buf()
    } else {
        base.ok_or(OutputRefusal::NoBase)?.join(requested)
    };
    if std::fs::symlink_metadata(&absolute).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(OutputRefusal::Symlink);
    }
    let resolved = realpath_lenient(&absolute);
    if resolved.to_str().is_none() {
        return Err(OutputRefusal::NotUtf8);
    }
    if !roots.iter().any(|root| resolved.starts_with(root)) {
        return Err(OutputRefusal::NotAllowed);
    }
    if let Some(project) = project {
        let project = realpath_lenient(project);
        if resolved == project {
            return Err(OutputRefusal::InsideProjectSources);
        }
        if let Ok(inside) = resolved.strip_prefix(&project) {
            let first = inside
                .components()
                .next()
                .and_then(|c| c.as_os_str().to_str())
                .unwrap_or_default()
                .to_ascii_lowercase();
            if first == "settings" || first == "assets" || first.starts_with("assets_") {
                return Err(OutputRefusal::InsideProjectSources);
            }
        }
    }
    match std::fs::symlink_metadata(&resolved) {
        Ok(metadata) if metadata.is_dir() => Ok(resolved),
        Ok(_) => Err(OutputRefusal::NotADirectory),
        Err(_) => Ok(resolved),
    }
}

/// The directory `path` names (absolute, or relative to `base`), resolved as far as it
/// exists: granted as a root, it allows exactly that directory and what lies below it.
pub fn exact_target(path: &str, base: &Path) -> PathBuf {
    let requested = Path::new(path);
    if requested.is_absolute() {
        realpath_lenient(requested)
    } else {
        realpath_lenient(&base.join(requested))
    }
}

/// Creates `dir` and any missing parents; gives the ones it created, deepest last, for
/// [`remove_created`] to undo. The created directory is resolved again, so a symlink
/// swapped in meanwhile cannot lead a write outside the roots.
pub fn create_within(dir: &Path, roots: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    let mut missing = Vec::new();
    let mut at = dir;
    while !at.exists() {
        missing.push(at.to_path_buf());
        match at.parent() {
            Some(parent) => at = parent,
            None => break,
        }
    }
    missing.reverse();
    for created in &missing {
        if let Err(error) = std::fs::create_dir(created) {
            remove_created(&missing);
            return Err(error);
        }
    }
    let real = std::fs::canonicalize(dir)?;
    if real != dir || !roots.iter().any(|root| real.starts_with(root)) {
        remove_created(&missing);
        return Err(std::io::Error::other(
            "the directory changed while it was created",
        ));
    }
    Ok(missing)
}

/// Removes directories [`create_within`] made, deepest first, while they are empty.
pub fn remove_created(created: &[PathBuf]) {
    for dir in created.iter().rev() {
        if std::fs::remove_dir(dir).is_err() {
            return;
        }
    }
}

/// Canonicalizes the configured project roots; a root that does not exist is an error.
pub fn canonical_roots(roots: &[PathBuf]) -> Result<Vec<PathBuf>> {
    roots
        .iter()
        .map(|root| {
            std::fs::canonicalize(root)
                .map_err(|error| {
                    anyhow::anyhow!("project root {} is not usable: {error}", root.display())
                })
                .and_then(|root| {
                    if root.is_dir() {
                        Ok(root)
                    } else {
                        Err(anyhow::anyhow!(
                            "project root {} is not a directory",
                            root.display()
                        ))
                    }
                })
        })
        .collect()
}
