//! The advisory lock beside a project, `<parent>/.<name>.openfairygui.backend.lock` (the
//! name upstream uses), held while a session has the project open so that a second
//! server process, or an upstream server, does not edit it at the same time.
//!
//! The file is created exclusively and records the holder's process id. A lock whose
//! process no longer runs on this machine is stale (the holder was killed) and is taken
//! over. The lock lives beside the project, not in it, so saves never see it; or, for a
//! server given a state directory, in that directory (see [`super::state`]).

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use cap_std::ambient_authority;
use cap_std::fs::{Dir, OpenOptions};
use serde::{Deserialize, Serialize};

use super::state::StateDir;

/// A held lock; dropping it removes the file.
#[derive(Debug)]
pub struct ProjectLock {
    dir: Dir,
    name: String,
    path: PathBuf,
    owner: Owner,
    /// The process whose stale lock this one replaced.
    taken_over_from: Option<u32>,
}

/// What the lock file records.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Owner {
    pid: u32,
    session_id: String,
    canonical_path_key: String,
    created_at: String,
}

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another live process holds the lock (or its file cannot be understood).
    #[error("the project is locked by {}", holder.map(|pid| format!("process {pid}")).unwrap_or_else(|| "another program".into()))]
    Held { path: PathBuf, holder: Option<u32> },
    /// The lock could not be taken for another reason (a read-only parent directory).
    #[error("the lock file {} could not be created: {source}", path.display())]
    Unavailable {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

impl ProjectLock {
    /// The lock file's path for a project directory.
    pub fn path_for(project_dir: &Path) -> Option<PathBuf> {
        let parent = project_dir.parent()?;
        Some(parent.join(lock_name(project_dir)?))
    }

    /// Takes the lock of `project_dir` (whose canonical key is `key`) for a session, taking
    /// over a stale one: beside the project, or in `state` when there is one.
    pub fn acquire(
        project_dir: &Path,
        session_id: &str,
        key: &str,
        state: Option<&StateDir>,
    ) -> Result<Self, LockError> {
        let place = match state {
            Some(state) => Some((state.path(), state.file_name(key, "lock"))),
            None => project_dir.parent().zip(lock_name(project_dir)),
        };
        let Some((parent, name)) = place else {
            return Err(LockError::Unavailable {
                path: project_dir.to_path_buf(),
                source: io::Error::new(io::ErrorKind::InvalidInput, "no parent directory"),
            });
        };
        let path = parent.join(&name);
        let unavailable = |source| LockError::Unavailable {
            path: path.clone(),
            source,
        };
        let dir = Dir::open_ambient_dir(parent, ambient_authority()).map_err(unavailable)?;
        let owner = Owner {
            pid: std::process::id(),
            session_id: session_id.to_string(),
            canonical_path_key: key.to_string(),
            created_at: chrono::Utc::now().to_rfc3339(),
        };
        let mut taken_over_from = None;
        // Twice at most: once more after removing a stale lock.
        for _ in 0..2 {
            let mut options = OpenOptions::new();
            options.write(true).create_new(true);
            match dir.open_with(&name, &options) {
                Ok(mut file) => {
                    let text = serde_json::to_vec(&owner).map_err(io::Error::other);
                    text.and_then(|text| file.write_all(&text))
                        .and_then(|()| file.sync_all())
                        .map_err(|error| {
                            let _ = dir.remove_file(&name);
                            unavailable(error)
                        })?;
                    return Ok(ProjectLock {
                        dir,
                        name,
                        path,
                        owner,
                        taken_over_from,
                    });
                }
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
                    let holder = read_owner(&dir, &name);
                    match holder {
                        Some(holder) if !process_alive(holder.pid) => {
                            // The caller tells the user (see `taken_over_from`).
                            taken_over_from = Some(holder.pid);
                            match dir.remove_file(&name) {
                                Ok(()) => continue,
                                Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
                                Err(error) => return Err(unavailable(error)),
                            }
                        }
                        holder => {
                            return Err(LockError::Held {
                                path,
                                holder: holder.map(|owner| owner.pid),
                            });
                        }
                    }
                }
                Err(error) => return Err(unavailable(error)),
            }
        }
        Err(LockError::Held { path, holder: None })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The process id of a dead holder whose lock this one took over, if any.
    pub fn taken_over_from(&self) -> Option<u32> {
        self.taken_over_from
    }
}

impl Drop for ProjectLock {
    fn drop(&mut self) {
        // Only our own lock is removed: a file someone replaced it with stays.
        if read_owner(&self.dir, &self.name).as_ref() == Some(&self.owner)
            && let Err(error) = self.dir.remove_file(&self.name)
        {
            tracing::warn!(lock = %self.path.display(), "the lock file could not be removed: {error}");
        }
    }
}

fn lock_name(project_dir: &Path) -> Option<String> {
    let name = project_dir.file_name()?.to_str()?;
    Some(format!(".{name}.openfairygui.backend.lock"))
}

fn read_owner(dir: &Dir, name: &str) -> Option<Owner> {
    let mut text = String::new();
    dir.open(name).ok()?.read_to_string(&mut text).ok()?;
    serde_json::from_str(&text).ok()
}

/// Whether a process with this id runs on this machine.
#[cfg(unix)]
fn process_alive(pid: u32) -> bool {
    let Ok(pid) = i32::try_from(pid) else {
        return true;
    };
    // SAFETY: signal 0 only checks that the process exists and may be signalled.
    let result = unsafe { libc::kill(pid, 0) };
    result == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Without a portable check, a lock is taken to be live: the user removes a stale one.
#[cfg(not(unix))]
fn process_alive(_: u32) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project() -> (tempfile::TempDir, PathBuf) {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("Game");
        std::fs::create_dir(&dir).unwrap();
        (root, dir)
    }

    #[test]
    fn a_second_holder_is_refused_until_the_first_lets_go() {
        let (_root, dir) = project();
        let first = ProjectLock::acquire(&dir, "s1", "k", None).unwrap();
        assert_eq!(first.taken_over_from(), None);
        assert!(first.path().ends_with(".Game.openfairygui.backend.lock"));
        let second = ProjectLock::acquire(&dir, "s2", "k", None).unwrap_err();
        assert!(
            matches!(second, LockError::Held { holder: Some(pid), .. } if pid == std::process::id())
        );
        drop(first);
        assert!(!ProjectLock::path_for(&dir).unwrap().exists());
        ProjectLock::acquire(&dir, "s2", "k", None).unwrap();
    }

    #[test]
    fn a_lock_of_a_dead_process_is_taken_over_and_an_unknown_file_is_not() {
        let (_root, dir) = project();
        let path = ProjectLock::path_for(&dir).unwrap();
        // A process id that cannot run: beyond pid_max on every Linux.
        std::fs::write(
            &path,
            r#"{"pid":2147483646,"sessionId":"old","canonicalPathKey":"k","createdAt":"x"}"#,
        )
        .unwrap();
        let lock = ProjectLock::acquire(&dir, "s1", "k", None).unwrap();
        assert_eq!(lock.taken_over_from(), Some(2147483646));
        let owner: Owner = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(owner.session_id, "s1");
        drop(lock);
        std::fs::write(&path, "not ours").unwrap();
        assert!(matches!(
            ProjectLock::acquire(&dir, "s1", "k", None),
            Err(LockError::Held { holder: None, .. })
        ));
    }
}
