//! The advisory lock beside a project, `<parent>/.<name>.openfairygui.backend.lock` (the
//! name upstream uses), held while a session has the project open so that a second
//! server process, or an upstream server, does not edit it at the same time.
//!
//! Beside the project the file is created exclusively and records the holder's process
//! id, as upstream does; a lock whose process no longer runs on this machine is stale (the
//! holder was killed) and is taken over. The lock lives beside the project, not in it, so
//! saves never see it.
//!
//! In a state directory (see [`super::state`]), which servers on several machines may
//! share, a process id says nothing of another machine's processes. There the lock is the
//! storage's own advisory lock on the file, held for as long as the session is open: the
//! storage releases it when the holder dies, so taking over a dead node's lock is taking
//! the advisory lock, and two servers racing for it cannot both win. The file is never
//! removed (removing a locked file would let a racer lock the old one while another locks
//! a new one); a holder empties it when it lets go, so a lock found with an owner in it
//! was left by a holder that died.

use std::fs::TryLockError;
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};

use cap_std::ambient_authority;
use cap_std::fs::{Dir, OpenOptions};
use serde::{Deserialize, Serialize};

use super::state::StateDir;

/// A held lock; dropping it lets go (removes the file beside a project, empties and
/// unlocks it in a state directory).
#[derive(Debug)]
pub struct ProjectLock {
    dir: Dir,
    name: String,
    path: PathBuf,
    owner: Owner,
    /// The state directory's file, locked while it is open.
    leased: Option<std::fs::File>,
    /// The holder that died leaving the lock this one replaced.
    taken_over_from: Option<Former>,
}

/// What the lock file records.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Owner {
    pid: u32,
    session_id: String,
    canonical_path_key: String,
    created_at: String,
    /// The holder's `--node-id`, in a state directory shared by named nodes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    node: Option<String>,
}

/// A holder that died without letting go of its lock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Former {
    pub pid: u32,
    pub node: Option<String>,
}

/// Who holds a lock someone else asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Holder {
    /// A session of this very process (another tenant's, or one opening).
    ThisProcess,
    /// Another process, on this machine or (in a state directory) another node; with the
    /// session it serves when the file says.
    Other { session_id: Option<String> },
}

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another live holder has the lock (or its file cannot be understood).
    #[error("the project is locked by {}", match holder { Holder::ThisProcess => "this process", Holder::Other { .. } => "another program" })]
    Held { path: PathBuf, holder: Holder },
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
        let dir = Dir::open_ambient_dir(parent, ambient_authority()).map_err(|source| {
            LockError::Unavailable {
                path: path.clone(),
                source,
            }
        })?;
        let owner = Owner {
            pid: std::process::id(),
            session_id: session_id.to_string(),
            canonical_path_key: key.to_string(),
            created_at: chrono::Utc::now().to_rfc3339(),
            node: state.and_then(|state| state.node().map(str::to_owned)),
        };
        let lock = ProjectLock {
            dir,
            name,
            path,
            owner,
            leased: None,
            taken_over_from: None,
        };
        match state {
            Some(_) => lock.lease(),
            None => lock.create(),
        }
    }

    /// Beside the project: creates the file exclusively, taking over one whose process no
    /// longer runs.
    fn create(mut self) -> Result<Self, LockError> {
        let unavailable = |path: &Path, source| LockError::Unavailable {
            path: path.to_path_buf(),
            source,
        };
        // Twice at most: once more after removing a stale lock.
        for _ in 0..2 {
            let mut options = OpenOptions::new();
            options.write(true).create_new(true);
            match self.dir.open_with(&self.name, &options) {
                Ok(mut file) => {
                    let text = serde_json::to_vec(&self.owner).map_err(io::Error::other);
                    if let Err(error) = text
                        .and_then(|text| file.write_all(&text))
                        .and_then(|()| file.sync_all())
                    {
                        let _ = self.dir.remove_file(&self.name);
                        return Err(unavailable(&self.path, error));
                    }
                    return Ok(self);
                }
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
                    match read_owner(&self.dir, &self.name) {
                        Some(holder) if !process_alive(holder.pid) => {
                            // The caller tells the user (see `taken_over_from`).
                            self.taken_over_from = Some(Former {
                                pid: holder.pid,
                                node: holder.node,
                            });
                            match self.dir.remove_file(&self.name) {
                                Ok(()) => continue,
                                Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
                                Err(error) => return Err(unavailable(&self.path, error)),
                            }
                        }
                        holder => {
                            return Err(LockError::Held {
                                holder: self.holder(holder),
                                path: self.path.clone(),
                            });
                        }
                    }
                }
                Err(error) => return Err(unavailable(&self.path, error)),
            }
        }
        Err(LockError::Held {
            holder: Holder::Other { session_id: None },
            path: self.path.clone(),
        })
    }

    /// In a state directory: takes the storage's advisory lock on the file, then writes
    /// this owner into it. An owner already there died holding it.
    fn lease(mut self) -> Result<Self, LockError> {
        let unavailable = |path: &Path, source| LockError::Unavailable {
            path: path.to_path_buf(),
            source,
        };
        let mut options = OpenOptions::new();
        options.read(true).write(true).create(true);
        let file = match self.dir.open_with(&self.name, &options) {
            Ok(file) => file.into_std(),
            Err(error) => return Err(unavailable(&self.path, error)),
        };
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(LockError::Held {
                    holder: self.holder(read_owner(&self.dir, &self.name)),
                    path: self.path.clone(),
                });
            }
            Err(TryLockError::Error(error)) => return Err(unavailable(&self.path, error)),
        }
        let mut file = file;
        let mut left = Vec::new();
        let written = file
            .read_to_end(&mut left)
            .and_then(|_| serde_json::to_vec(&self.owner).map_err(io::Error::other))
            .and_then(|text| {
                file.set_len(0)?;
                file.rewind()?;
                file.write_all(&text)?;
                file.sync_all()
            });
        if let Err(error) = written {
            // Dropping the file lets go of the advisory lock.
            let _ = file.set_len(0);
            return Err(unavailable(&self.path, error));
        }
        self.taken_over_from = serde_json::from_slice::<Owner>(&left)
            .ok()
            .map(|former| Former {
                pid: former.pid,
                node: former.node,
            });
        self.leased = Some(file);
        Ok(self)
    }

    /// Who holds the lock whose file says `owner`.
    fn holder(&self, owner: Option<Owner>) -> Holder {
        match owner {
            Some(owner) if owner.pid == self.owner.pid && owner.node == self.owner.node => {
                Holder::ThisProcess
            }
            owner => Holder::Other {
                session_id: owner.map(|owner| owner.session_id),
            },
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The holder that died leaving the lock this one took over, if any.
    pub fn taken_over_from(&self) -> Option<&Former> {
        self.taken_over_from.as_ref()
    }
}

impl Drop for ProjectLock {
    fn drop(&mut self) {
        if let Some(file) = &self.leased {
            // Emptied, then unlocked as the file closes: the next holder finds no owner,
            // so it is not told of a takeover.
            if let Err(error) = file.set_len(0) {
                tracing::warn!(lock = %self.path.display(), "the lock file could not be emptied: {error}");
            }
            return;
        }
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
        assert!(matches!(
            second,
            LockError::Held {
                holder: Holder::ThisProcess,
                ..
            }
        ));
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
        assert_eq!(
            lock.taken_over_from(),
            Some(&Former {
                pid: 2147483646,
                node: None
            })
        );
        let owner: Owner = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(owner.session_id, "s1");
        drop(lock);
        std::fs::write(&path, "not ours").unwrap();
        assert!(matches!(
            ProjectLock::acquire(&dir, "s1", "k", None),
            Err(LockError::Held {
                holder: Holder::Other { session_id: None },
                ..
            })
        ));
    }

    fn state(root: &Path, node: &str) -> StateDir {
        StateDir::new(&root.join("state"))
            .unwrap()
            .for_node(node)
            .unwrap()
    }

    #[test]
    fn a_state_directory_lock_is_held_until_let_go_and_then_left_empty() {
        let (root, dir) = project();
        let state = state(root.path(), "node1");
        let first = ProjectLock::acquire(&dir, "node1.s1", "k", Some(&state)).unwrap();
        assert_eq!(first.taken_over_from(), None);
        assert!(first.path().starts_with(state.path()));
        let owner: Owner = serde_json::from_slice(&std::fs::read(first.path()).unwrap()).unwrap();
        assert_eq!(owner.node.as_deref(), Some("node1"));
        assert!(matches!(
            ProjectLock::acquire(&dir, "node1.s2", "k", Some(&state)),
            Err(LockError::Held {
                holder: Holder::ThisProcess,
                ..
            })
        ));
        // Another node's server sees a holder it is not, with the session it serves.
        let other = StateDir::new(&root.path().join("state"))
            .unwrap()
            .for_node("node2")
            .unwrap();
        match ProjectLock::acquire(&dir, "node2.s3", "k", Some(&other)) {
            Err(LockError::Held {
                holder: Holder::Other { session_id },
                ..
            }) => assert_eq!(session_id.as_deref(), Some("node1.s1")),
            other => panic!("{other:?}"),
        }
        let path = first.path().to_path_buf();
        drop(first);
        assert!(
            path.exists(),
            "a state directory's lock file is never removed"
        );
        assert_eq!(std::fs::read(&path).unwrap(), b"");
        let second = ProjectLock::acquire(&dir, "node2.s3", "k", Some(&other)).unwrap();
        assert_eq!(
            second.taken_over_from(),
            None,
            "let go cleanly: no takeover"
        );
    }

    #[test]
    fn a_state_directory_lock_left_by_a_dead_holder_is_taken_over() {
        let (root, dir) = project();
        let state = state(root.path(), "node2");
        let path = state.path().join(state.file_name("k", "lock"));
        // What a node killed while it held the lock leaves: its owner, and no advisory
        // lock (the storage released it with the process).
        std::fs::write(
            &path,
            r#"{"pid":7,"sessionId":"node1.s1","canonicalPathKey":"k","createdAt":"x","node":"node1"}"#,
        )
        .unwrap();
        let lock = ProjectLock::acquire(&dir, "node1.s1", "k", Some(&state)).unwrap();
        assert_eq!(
            lock.taken_over_from(),
            Some(&Former {
                pid: 7,
                node: Some("node1".into())
            })
        );
        let owner: Owner = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(owner.node.as_deref(), Some("node2"));
    }
}
