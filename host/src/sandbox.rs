//! The sandbox boundary on the host side.
//!
//! Two layers keep a session inside its project. First the host resolves `projectPath`
//! (realpath), refuses anything outside the allowed roots, and refuses project files that
//! are symlinks or have extra hard links. Then the component gets exactly one capability:
//! the project directory preopened as `.`; WASI refuses every path that leads out of it,
//! so even a wrong host check cannot widen what a session sees.

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
    Ok(ResolvedProject {
        dir,
        fairy_file,
        key,
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
fn realpath_lenient(path: &Path) -> PathBuf {
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
        // not can never be reached from the sandbox.
        let Ok(name) = entry.file_name().into_string() else {
            continue;
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
            // Not UTF-8: unreachable through WASI (see above).
            if let Ok(child) = entry.file_name().into_string() {
                check_entry(&dir, &child, &format!("{relative}/{child}"))?;
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

#[cfg(unix)]
fn link_count(metadata: &cap_std::fs::Metadata) -> u64 {
    use cap_std::fs::MetadataExt;
    metadata.nlink()
}

#[cfg(not(unix))]
fn link_count(_: &cap_std::fs::Metadata) -> u64 {
    1
}

/// The WASI context of a session: the project directory preopened read-only as `.`, the
/// host's stderr (where the backend writes the causes of internal failures, beside the
/// host's own log), and nothing else (no environment, arguments, stdin, stdout or network).
pub fn wasi_context(project_dir: &Path) -> Result<WasiCtx> {
    let mut builder = WasiCtx::builder();
    // Writable so the session can save (and finish an interrupted save at open); still
    // only this directory, so WASI confines every write to the project.
    builder.preopened_dir(project_dir, ".", FsPerms::ReadWrite)?;
    builder.inherit_stderr();
    // Crash tests stop a save at a chosen step (backend `commit::fault`); unset, nothing
    // reaches the component.
    if let Ok(fault) = std::env::var("OFGUI_SAVE_FAULT") {
        builder.env("OFGUI_SAVE_FAULT", fault);
    }
    // Local file reads are short; running them on the calling thread is ~3x faster than
    // a spawn_blocking hop per call.
    builder.allow_blocking_current_thread(true);
    Ok(builder.build())
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
