//! The session keeper: the open sessions and what keeps them running. The runtime that
//! instantiates the backend, the registry, each session's events, cache entry and watch;
//! running a call on a session's instance and rebuilding one that failed. The jobs (reads
//! and edits, saves, publishing, refresh) reach sessions only through it; opening and
//! closing are in `lifecycle`.

use std::sync::Arc;
use std::time::Duration;

use ofgui_contracts::additions::RefusedEdit;
use ofgui_contracts::api::SessionSnapshot;
use ofgui_contracts::capabilities::Capabilities;
use ofgui_contracts::error::{BackendError, LockConflictKind, UnhandledReason};
use tokio::sync::OnceCell;

use super::cache::Cache;
use super::envelope::Failure;
use super::events::EventLog;
use super::notice::{Notice, Recovered};
use super::sessions::{Answered, Edit, EditAction, Registry, ReserveError, Session};
use super::watch::Watch;
use super::{ServiceConfig, unhandled};
use crate::backend::bindings::{DocumentRequest, OpenRequest, SessionStatus};
use crate::backend::journal;
use crate::backend::lock::{Holder, LockError, ProjectLock};
use crate::backend::runtime::{CallError, Instance, InstanceLimits, Runtime};
use crate::backend::sandbox::{self, Refusal, Target};
use crate::backend::state::SessionRecord;

/// Most changed files a report names (`unsavedEdits` at open, a refresh's `refreshed`).
pub(super) const MAX_CHANGED_NAMED: usize = 20;

/// The open sessions of one service and what they run on.
pub(super) struct Keeper {
    pub(super) config: ServiceConfig,
    runtime: OnceCell<Arc<Runtime>>,
    pub(super) registry: Registry,
    pub(super) capabilities: Capabilities,
    pub(super) events: EventLog,
    pub(super) cache: Cache,
    /// Outside changes to open projects ([`super::Service::start_watching`]).
    pub(super) watch: Watch,
}

impl Keeper {
    pub(super) fn new(config: ServiceConfig) -> Keeper {
        Keeper {
            registry: Registry::new(config.max_sessions),
            runtime: OnceCell::new(),
            capabilities: Capabilities::new(),
            config,
            events: EventLog::default(),
            cache: Cache::default(),
            watch: Watch::default(),
        }
    }

    /// Runs sessions on an already loaded component.
    pub(super) fn use_runtime(&self, runtime: Arc<Runtime>) {
        // A fresh cell: setting it cannot fail.
        let _ = self.runtime.set(runtime);
    }

    pub(super) fn runtime_loaded(&self) -> bool {
        self.runtime.initialized()
    }

    pub(super) fn guest_calls(&self) -> u64 {
        self.runtime
            .get()
            .map_or(0, |runtime| runtime.guest_calls())
    }

    pub(super) async fn expire(&self, session: &Arc<Session>, timeout: Duration) {
        let mut slot = session.instance.lock().await;
        // A call may have run (or started) while this waited for the lock.
        if session.idle_for() < timeout {
            return;
        }
        let dirty = match slot.as_mut() {
            Some(instance) => instance
                .status()
                .await
                .map(|status| status.dirty)
                .unwrap_or(false),
            None => false,
        };
        // A dirty session holds unsaved work: keep it until it is saved or closed.
        if dirty {
            session.touch();
            return;
        }
        if let Some(instance) = slot.take() {
            self.registry.remove(&session.id);
            instance.close().await;
            self.forget(session);
            self.events
                .notice(Notice::idle_closed(&session.id, timeout));
        }
    }

    pub(super) async fn runtime(&self) -> anyhow::Result<Arc<Runtime>> {
        self.runtime
            .get_or_try_init(|| async {
                let cache_dir = self.config.cache_dir.clone();
                let limits = self.config.limits;
                let fonts = self.config.fonts.clone();
                tokio::task::spawn_blocking(move || {
                    let started = std::time::Instant::now();
                    let runtime = Runtime::new(cache_dir.as_deref(), limits, fonts);
                    tracing::debug!(
                        elapsed_ms = started.elapsed().as_secs_f64() * 1000.0,
                        "loaded backend component"
                    );
                    runtime
                })
                .await
                .map_err(|error| anyhow::anyhow!("component loader panicked: {error}"))?
            })
            .await
            .cloned()
    }

    /// Runs `body` on the named session's instance. An instance that traps or runs past
    /// its deadline is replaced by a rebuilt one ([`Service::restore`]), or dropped together
    /// with its session if it cannot be rebuilt.
    pub(super) async fn on_session<T>(
        &self,
        session_id: &str,
        body: impl AsyncFnOnce(&Session, &mut Instance) -> Result<T, CallError>,
    ) -> Result<T, Failure> {
        let Some(session) = self.registry.get(session_id) else {
            return Err(BackendError::session_not_found(session_id).into());
        };
        let mut slot = session.instance.lock().await;
        let Some(instance) = slot.as_mut() else {
            return Err(BackendError::session_not_found(session_id).into());
        };
        let started = std::time::Instant::now();
        let result = body(&session, instance).await;
        // Idle time counts from the end of the last call, not its start.
        session.touch();
        tracing::debug!(session = %session.id, elapsed_ms = started.elapsed().as_secs_f64() * 1000.0, "backend call");
        match result {
            Ok(result) => Ok(result),
            Err(CallError::Backend(error)) => Err((*error).into()),
            Err(other) => {
                tracing::error!(session = %session.id, "backend instance failed: {other}");
                slot.take();
                let saved_before = session.saved_revision();
                if let Some((instance, status)) = self.restore(&session).await {
                    *slot = Some(instance);
                    self.events
                        .notice(Notice::session_rebuilt(&session.id, status.revision));
                    crate::metrics::metrics().session_rebuilt();
                    let completed_save = status.last_saved_revision != saved_before;
                    let mut failure = Failure::from(restored(
                        &other,
                        &status,
                        completed_save,
                        &self.config.limits,
                    ));
                    failure.status = Some(status);
                    return Err(failure);
                }
                self.registry.remove(&session.id);
                self.forget(&session);
                self.events.notice(Notice::session_lost(&session.id));
                Err(unhandled(&other).into())
            }
        }
    }

    /// Keeps the record a server started again after this one died serves the session
    /// by (with a state directory; only for a session that holds its project's lock,
    /// whose edits are journaled).
    pub(super) fn remember(&self, session: &Session, saved_revision: u64) {
        let (Some(state), Some(project)) = (&self.config.state_dir, session.directory()) else {
            return;
        };
        if !session.lock_held() {
            return;
        }
        let record = SessionRecord {
            session_id: session.id.clone(),
            tenant: self.config.tenant.clone(),
            project_path: project.dir.to_string_lossy().into_owned(),
            saved_revision,
            served_at: state.address().map(str::to_owned),
        };
        if let Err(error) = state.write_record(&record) {
            tracing::warn!(session = %session.id, "the session record could not be written: {error}");
        }
    }

    pub(super) fn snapshot(&self, session: &Session, status: &SessionStatus) -> SessionSnapshot {
        snapshot(
            &self.capabilities,
            &session.id,
            session.canonical_project_path(),
            status,
            session.lock_held(),
        )
    }

    /// What the service keeps of a session that went goes with it, as upstream does: its
    /// events, cache entry and watch, and its record.
    pub(super) fn forget(&self, session: &Session) {
        if let Some(state) = &self.config.state_dir {
            state.remove_record(&session.id);
        }
        self.let_go(session);
    }

    /// Drops a session this process registered but must not serve: one resumed from its
    /// record while another live process holds its project's lock (and serves it). Its
    /// record stays that process's.
    pub(super) async fn abandon(&self, session_id: &str) {
        let Some(session) = self.registry.remove(session_id) else {
            return;
        };
        if let Some(instance) = session.instance.lock().await.take() {
            instance.close().await;
        }
        self.let_go(&session);
    }

    /// What this process keeps of a session: its events, cache entry and watch.
    fn let_go(&self, session: &Session) {
        self.events.forget(&session.id);
        self.cache.forget(&session.id);
        if let Some(project) = session.directory() {
            self.watch.remove(&project.dir);
        }
    }

    /// Rebuilds a session whose instance failed ([`Service::rebuild`] in its own home).
    /// Gives the instance and its status, or `None` if any step fails (then the session is
    /// closed).
    pub(super) async fn restore(&self, session: &Session) -> Option<(Instance, SessionStatus)> {
        self.rebuild(session, None)
            .await
            .map_err(
                |why| tracing::warn!(session = %session.id, "the session cannot be rebuilt: {why}"),
            )
            .ok()
    }

    /// A fresh instance holding the session's state: its project opened again (read from
    /// its directory, or from its document) and the batches applied since the last save
    /// replayed in order. `into` opens a document session's project in that directory
    /// instead (to be materialized there).
    pub(super) async fn rebuild(
        &self,
        session: &Session,
        into: Option<&Target>,
    ) -> Result<(Instance, SessionStatus), Rebuild> {
        let (saved_revision, batches) = session.replay().ok_or(Rebuild::JournalOverflowed)?;
        let failed = |failure: Failure| Rebuild::Failed(failure.error.message().to_string());
        let (mut instance, mut status) = match (session.document(), session.directory()) {
            (Some(document), _) => {
                let key = into.map_or_else(|| session.key(), |target| target.key.clone());
                let request = DocumentRequest {
                    session_id: session.id.clone(),
                    canonical_path_key: key,
                    fairy_file: into.map(|target| target.fairy_file.clone()),
                };
                let dir = into.map(|target| target.dir.as_path());
                self.instantiate_document(&request, &document, dir)
                    .await
                    .map_err(failed)?
            }
            // A directory moved away and replaced (by a symlink out of the roots, say)
            // is not the project the session read.
            (None, Some(project)) if !project.still_in_place() => {
                return Err(Rebuild::Failed(
                    "the project directory was moved or replaced".into(),
                ));
            }
            (None, Some(project)) => {
                let (instance, status, recovered) = self
                    .instantiate(&session.id, "", &project, saved_revision)
                    .await
                    .map_err(failed)?;
                if recovered != Some(Recovered::Completed) {
                    (instance, status)
                } else {
                    // The call that failed was this session's save (the session holds the
                    // project's lock), and opening finished it: the disk holds every batch,
                    // so none is replayed, and the session goes on clean at its revision.
                    instance.close().await;
                    let revision = batches
                        .last()
                        .map_or(saved_revision, |batch| batch.expected_revision + 1);
                    let (instance, status, _) = self
                        .instantiate(&session.id, "", &project, revision)
                        .await
                        .map_err(failed)?;
                    session.saved(revision);
                    return Ok((instance, status));
                }
            }
            (None, None) => return Err(Rebuild::Failed("the session has no project".into())),
        };
        for batch in batches {
            if batch.expected_revision != status.revision {
                return Err(Rebuild::Failed(
                    "the project no longer matches its applied batches".into(),
                ));
            }
            let replayed = batch
                .replay_on(&mut instance, batch.expected_revision)
                .await;
            status = replayed
                .map_err(|error| Rebuild::Failed(error.to_string()))?
                .status;
        }
        Ok((instance, status))
    }

    #[allow(clippy::ptr_arg)] // passed on to the bindings, which take `&String`
    pub(super) async fn instantiate_document(
        &self,
        request: &DocumentRequest,
        document: &String,
        dir: Option<&std::path::Path>,
    ) -> Result<(Instance, SessionStatus), Failure> {
        let runtime = self.runtime().await.map_err(|error| {
            tracing::error!("backend component unavailable: {error:#}");
            Failure::from(BackendError::unhandled(UnhandledReason::Internal))
        })?;
        runtime
            .open_document(request, document, dir)
            .await
            .map_err(|error| match error {
                CallError::Backend(error) => Failure::from(*error),
                other => {
                    tracing::error!("opening a project document failed: {other}");
                    Failure::from(unhandled(&other))
                }
            })
    }

    pub(super) async fn instantiate(
        &self,
        session_id: &str,
        project_path: &str,
        project: &sandbox::ResolvedProject,
        revision: u64,
    ) -> Result<(Instance, SessionStatus, Option<Recovered>), Failure> {
        sandbox::check_project_entries(project)
            .map_err(|refusal| refused(refusal, project_path))?;
        let runtime = self.runtime().await.map_err(|error| {
            tracing::error!("backend component unavailable: {error:#}");
            Failure::from(BackendError::unhandled(UnhandledReason::Internal))
        })?;
        let request = OpenRequest {
            session_id: session_id.to_string(),
            fairy_file: project.fairy_file.clone(),
            project_path: project_path.to_string(),
            canonical_path_key: project.key.clone(),
            revision,
        };
        let opened = runtime
            .open(&request, project)
            .await
            .map_err(|error| match error {
                CallError::Backend(error) => Failure::from(*error),
                other => {
                    tracing::error!("opening {} failed: {other}", project.dir.display());
                    Failure::from(unhandled(&other))
                }
            })?;
        let recovered = Recovered::of(&opened.recovery).map(|(how, paths)| {
            self.events
                .notice(Notice::save_recovered(session_id, how, paths));
            how
        });
        Ok((opened.instance, opened.status, recovered))
    }

    /// A lock just taken, after telling the user when it was taken over from a process
    /// that no longer runs.
    pub(super) fn noted(&self, session_id: &str, held: ProjectLock) -> ProjectLock {
        if let Some(former) = held.taken_over_from() {
            self.events
                .notice(Notice::lock_taken_over(session_id, held.path(), former));
            crate::metrics::metrics().lock_taken_over();
        }
        held
    }
}

/// A session's state as `openSession` and `getSession` report it.
fn snapshot(
    capabilities: &Capabilities,
    session_id: &str,
    canonical_project_path: String,
    status: &SessionStatus,
    lock_held: bool,
) -> SessionSnapshot {
    SessionSnapshot {
        session_id: session_id.to_string(),
        canonical_project_path,
        revision: status.revision,
        last_saved_revision: status.last_saved_revision,
        dirty: status.dirty,
        uam_fidelity: status.fidelity.to_contract(),
        lock_held,
        capabilities: capabilities.clone(),
    }
}

/// The failure of a call whose session was restored afterwards; `completed_save` when
/// restoring finished a save the call had taken past its commit point.
fn restored(
    error: &CallError,
    status: &SessionStatus,
    completed_save: bool,
    limits: &InstanceLimits,
) -> BackendError {
    let (what, reason) = match error {
        CallError::Deadline => (
            format!(
                "ran past its deadline ({} s per call) on this call",
                limits.call_deadline.as_secs_f64()
            ),
            UnhandledReason::Deadline,
        ),
        CallError::OutOfMemory => (
            format!(
                "asked for more than a session's {} MiB of memory on this call",
                limits.memory_bytes >> 20
            ),
            UnhandledReason::OutOfMemory,
        ),
        _ => (
            "stopped unexpectedly on this call".to_string(),
            UnhandledReason::Trap,
        ),
    };
    let revision = status.revision;
    let outcome = if completed_save {
        format!(
            "It had already reached the commit point of a save, which was completed when the session was restored on a fresh backend: the project on disk is at revision {revision} and the session is clean"
        )
    } else {
        format!(
            "It changed nothing: the session was restored on a fresh backend (the project read again and its applied transactions replayed) and is at revision {revision}"
        )
    };
    BackendError::BackendUnhandledError {
        message: format!(
            "Backend tool execution failed: the backend {what}. {outcome}; re-read before retrying."
        ),
        reason,
    }
}

/// Why a session could not be rebuilt on a fresh instance.
#[derive(Debug, thiserror::Error)]
pub(super) enum Rebuild {
    #[error("its applied batches outgrew the journal")]
    JournalOverflowed,
    #[error("{0}")]
    Failed(String),
}

pub(super) fn reserve_failed(error: ReserveError, session_id: &str, key: &str) -> Failure {
    Failure::from(match error {
        ReserveError::Full { max_sessions } => BackendError::SessionLimitExceeded {
            message: format!(
                "This server already has {max_sessions} open sessions; close one before opening another."
            ),
            max_sessions,
        },
        ReserveError::Conflict { holder } => BackendError::LockConflict {
            message: "This project is already open in another session; use that session or close it first.".into(),
            kind: LockConflictKind::InProcessSessionExists,
            canonical_path_key: key.to_string(),
            holder_session_id: holder,
            lock_file_path: None,
        },
        ReserveError::IdTaken => return id_conflict(session_id),
    })
}

pub(super) fn id_conflict(session_id: &str) -> Failure {
    BackendError::SessionIdConflict {
        message: format!(
            "Session id {session_id} is already in use by an open session; choose another id, or leave sessionId out and let the server choose one."
        ),
        session_id: session_id.to_string(),
    }
    .into()
}

/// An advisory lock that could not be taken: another process holding it is a conflict;
/// a lock that cannot be created at all (a read-only parent directory) is not, and the
/// session goes on without it (`lockHeld` false).
pub(super) fn advisory(error: LockError, key: &str) -> Result<(), Failure> {
    match error {
        LockError::Held { path, holder } => {
            // Said without the holder's process id, which is no business of a client.
            let message = if holder == Holder::ThisProcess {
                "This project is open for writing in a session of another token of this server; it is free again when that session closes (or idles out). A read-only token opens it meanwhile."
            } else {
                "This project is open for writing in another program (another server, or an editor using the same lock file); close that session first. A lock left by a process that has exited is taken over automatically."
            };
            Err(BackendError::LockConflict {
                message: message.into(),
                kind: LockConflictKind::AdvisoryLockConflict,
                canonical_path_key: key.to_string(),
                holder_session_id: None,
                lock_file_path: Some(path.to_string_lossy().into_owned()),
            }
            .into())
        }
        error @ LockError::Unavailable { .. } => {
            tracing::warn!("project opened without its advisory lock: {error}");
            Ok(())
        }
    }
}

/// A refused project path as the contract error `openSession` returns.
pub(super) fn refused(refusal: Refusal, project_path: &str) -> Failure {
    Failure::from(match refusal {
        Refusal::NotAllowed => BackendError::ProjectRootNotAllowed {
            message: "Project path is outside the allowed project roots.".into(),
            project_path: project_path.to_string(),
        },
        Refusal::Open(reason, message) => BackendError::ProjectOpenFailed {
            message,
            reason,
            project_path: project_path.to_string(),
        },
    })
}

/// Replays journal entries in order on a fresh instance, up to the first the project as
/// it is now refuses. Gives the edits replayed and the refusal.
pub(super) async fn replay(
    instance: &mut Instance,
    status: &mut SessionStatus,
    entries: &[journal::Entry],
) -> (Vec<Edit>, Option<RefusedEdit>, Option<Answered>) {
    let mut replayed = Vec::new();
    let mut last = None;
    for entry in entries {
        let refuse = |code: &str, message: String, op_index: Option<u32>| RefusedEdit {
            revision: entry.expected_revision,
            action: entry.action,
            op_index,
            code: code.into(),
            message,
        };
        let Some(edit) = Edit::of(entry) else {
            return (
                replayed,
                Some(refuse(
                    "invalid_input",
                    "The journal entry is not an edit this server knows.".into(),
                    None,
                )),
                None,
            );
        };
        if edit.expected_revision != status.revision {
            let message = format!(
                "The journal's edits skip from revision {} to {}.",
                status.revision, edit.expected_revision
            );
            return (replayed, Some(refuse("stale_write", message, None)), None);
        }
        let result = edit.replay_on(instance, edit.expected_revision).await;
        match result {
            Ok(reply) => {
                *status = reply.status;
                last = match &edit.action {
                    EditAction::Apply { operations } => Some(Answered {
                        expected_revision: edit.expected_revision,
                        operations: operations.clone(),
                        reply,
                    }),
                    _ => None,
                };
                replayed.push(edit);
            }
            Err(CallError::Backend(guest)) => {
                let op_index = match &guest.error {
                    BackendError::TransactionUnsupported(rejection) => rejection.op_index,
                    _ => None,
                };
                let refused = refuse(
                    guest.error.code().as_str(),
                    guest.error.message().to_string(),
                    op_index,
                );
                return (replayed, Some(refused), None);
            }
            Err(other) => {
                return (
                    replayed,
                    Some(refuse("backend_unhandled_error", other.to_string(), None)),
                    None,
                );
            }
        }
    }
    (replayed, None, last)
}
