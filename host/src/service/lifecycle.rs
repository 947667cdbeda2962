//! A session's life: opening a project (from its directory or a document), rebuilding
//! an instance that failed and replaying its batches, and closing.

use std::sync::Arc;

use ofgui_contracts::additions::{UnsavedEdits, UnsavedEditsStatus};
use ofgui_contracts::api::{
    OpenProjectSessionInput, OpenSessionInput, SessionSnapshot, UnsavedEditsChoice,
};
use ofgui_contracts::envelope::BackendDiagnostic;
use ofgui_contracts::error::{BackendError, LockConflictKind, UnhandledReason};
use ofgui_contracts::methods::Method;
use serde::Deserialize as _;
use serde_json::{Value, json};

use super::{Outcome, Service, unhandled};
use crate::backend::bindings::{DocumentRequest, OpenRequest, SessionStatus};
use crate::backend::journal::{self, Journal};
use crate::backend::lock::{LockError, ProjectLock};
use crate::backend::runtime::{CallError, Instance};
use crate::backend::sandbox::{self, Refusal, Target};
use crate::policy::explain;
use crate::service::envelope::{Data, Failure};
use crate::service::events::Happened;
use crate::service::notice::{Notice, Recovered};
use crate::service::rebase::{replay, unsaved_edits};
use crate::service::report;
use crate::service::sessions::{EditAction, Home, ReserveError, Session};

impl Service {
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
            let replayed = match &batch.action {
                EditAction::Apply { operations } => {
                    instance.apply(batch.expected_revision, operations).await
                }
                EditAction::Undo => {
                    instance
                        .step_history(batch.expected_revision, false, false)
                        .await
                }
                EditAction::Redo => {
                    instance
                        .step_history(batch.expected_revision, true, false)
                        .await
                }
            };
            status = replayed
                .map_err(|error| Rebuild::Failed(error.to_string()))?
                .status;
        }
        Ok((instance, status))
    }

    /// Opens a project directory in a new session `session_id`, and does what `input`
    /// says with the unsaved edits an earlier session left in the project's journal
    /// (reported beside the snapshot).
    pub(super) async fn open(
        &self,
        session_id: &str,
        input: &OpenSessionInput,
    ) -> Result<(SessionSnapshot, Option<UnsavedEdits>), Failure> {
        let project_path = input.project_path.as_str();
        let project = sandbox::resolve_project(project_path, &self.config.roots)
            .map_err(|refusal| refused(refusal, project_path))?;
        self.registry
            .reserve(session_id, &project.key)
            .map_err(|error| reserve_failed(error, session_id, &project.key))?;
        let acquired = match self.config.read_only {
            true => None,
            false => Some(ProjectLock::acquire(&project.dir, session_id, &project.key)),
        };
        // Another program editing the project does not keep a reader out: the session
        // opens without the lock and refuses what would change the project.
        let locked_elsewhere = matches!(
            &acquired,
            Some(Err(LockError::Held { holder, .. })) if *holder != Some(std::process::id())
        );
        let project_lock = match acquired {
            None => None,
            Some(Ok(held)) => Some(self.noted(session_id, held)),
            Some(Err(_)) if locked_elsewhere => None,
            Some(Err(error)) => match advisory(error, &project.key) {
                Ok(()) => None,
                Err(failure) => {
                    self.registry.release(&project.key);
                    return Err(failure);
                }
            },
        };
        // Only the lock's holder touches the journal.
        let mut journal = project_lock
            .as_ref()
            .and_then(|_| Journal::beside(&project.dir).ok());
        let pending = journal
            .as_ref()
            .and_then(|journal| journal.pending().ok().flatten());
        let recovering = pending
            .as_ref()
            .filter(|_| input.unsaved_edits == Some(UnsavedEditsChoice::Recover));
        let first_revision = recovering.map_or(0, |pending| pending.header.saved_revision);
        report::progress("reading the project").await;
        let (mut instance, mut status) = match self
            .instantiate(session_id, project_path, &project, first_revision)
            .await
        {
            Ok((instance, status, _)) => (instance, status),
            Err(failure) => {
                self.registry.release(&project.key);
                return Err(failure);
            }
        };
        let mut unsaved = pending
            .as_ref()
            .map(|pending| unsaved_edits(pending, &project.dir));
        let mut replayed = Vec::new();
        match (&pending, input.unsaved_edits, &mut journal, &mut unsaved) {
            (Some(pending), Some(UnsavedEditsChoice::Recover), Some(journal), Some(report)) => {
                report::progress("recovering unsaved edits").await;
                let (edits, refused) = replay(&mut instance, &mut status, &pending.entries).await;
                report.status = UnsavedEditsStatus::Recovered;
                report.recovered = Some(edits.len() as u32);
                report.refused = refused;
                let kept = &pending.entries[..edits.len()];
                let header = journal::Header::now(pending.header.saved_revision, &project.dir);
                if let Err(error) = journal.begin(&header, kept) {
                    tracing::warn!(session = %session_id, "the recovered edits could not be journaled again: {error}");
                }
                replayed = edits;
            }
            (Some(_), Some(UnsavedEditsChoice::Discard), Some(journal), Some(report)) => {
                if let Err(error) = journal.remove() {
                    tracing::warn!(session = %session_id, "the journal could not be removed: {error}");
                }
                report.status = UnsavedEditsStatus::Discarded;
            }
            // Kept for a later decision: this session leaves the journal alone.
            (Some(_), None, _, _) => journal = None,
            _ => {}
        }
        let home = Home::Directory {
            project,
            lock: project_lock,
            locked_elsewhere,
        };
        let (snapshot, session) = self.opened(session_id, home, instance, &status);
        if !replayed.is_empty() {
            session.recovered(first_revision, replayed);
        }
        session.journal_into(journal);
        session.know_disk();
        if let Some(project) = session.directory() {
            self.watch.add(&project.dir);
        }
        Ok((snapshot, unsaved))
    }

    /// Registers an opened session: its first cache entry, `session.opened`, and the
    /// snapshot `openSession` and `openProjectSession` answer with.
    pub(super) fn opened(
        &self,
        session_id: &str,
        home: Home,
        instance: Instance,
        status: &SessionStatus,
    ) -> (SessionSnapshot, Arc<Session>) {
        let session = self.registry.insert(session_id.to_string(), home, instance);
        let key = session.key();
        self.cache.index(session_id, &key, status, true);
        self.events.emit(
            session_id,
            &key,
            Happened::new("session.opened", Some(status.revision)),
        );
        self.events
            .changed(session_id, status.revision, status.dirty);
        tracing::info!(session = %session_id, "opened session");
        (self.snapshot(&session, status), session)
    }

    /// `openProjectSession`: a session over a project given as a document, in an instance
    /// with no preopen. The component decodes and checks the document before the session
    /// id and project key are claimed (as upstream normalizes first), so a malformed one
    /// leaves nothing behind.
    pub(super) async fn open_project(
        &self,
        method: &Method,
        mut input: Value,
    ) -> Result<SessionSnapshot, Failure> {
        if input.get("storage").is_some() {
            return Err(BackendError::invalid_input(
                "storage is a host object of the upstream SDK (a filesystem adapter) and has no MCP form; leave it out. To write the project, call materializeSession with targetPath after opening.",
                Some("/storage".into()),
            )
            .into());
        }
        // The document may carry megabytes of byte values: it is taken out while the rest
        // is decoded, never copied.
        let project = input
            .get_mut("project")
            .map(std::mem::take)
            .unwrap_or(Value::Null);
        let parsed = match OpenProjectSessionInput::deserialize(&input) {
            Ok(parsed) => parsed,
            Err(error) => {
                if let Some(slot) = input.get_mut("project") {
                    *slot = project;
                }
                return Err(explain::input(method, &input, &error.to_string()).into());
            }
        };
        let session_id = match parsed.session_id {
            Some(id) => {
                if !id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-._~".contains(c))
                {
                    return Err(BackendError::invalid_input(
                        "sessionId may hold only letters, digits and - . _ ~, so that resource URIs (openfairygui://backend/session/{sessionId}) can name it.",
                        Some("/sessionId".into()),
                    )
                    .into());
                }
                id
            }
            None => uuid::Uuid::new_v4().to_string(),
        };
        if self.registry.id_taken(&session_id) {
            return Err(id_conflict(&session_id));
        }
        let canonical_project_path = parsed
            .canonical_project_path
            .unwrap_or_else(|| format!("memory://{session_id}"));
        let key = parsed
            .canonical_path_key
            .unwrap_or_else(|| canonical_project_path.to_lowercase());
        let document =
            serde_json::to_string(&project).map_err(|cause| Failure::internal(&cause))?;
        let request = DocumentRequest {
            session_id: session_id.clone(),
            canonical_path_key: key.clone(),
            fairy_file: None,
        };
        let (instance, status) = match self.instantiate_document(&request, &document, None).await {
            Ok(opened) => opened,
            Err(mut failure) => {
                explain_document(&mut failure, method, &mut input, project);
                return Err(failure);
            }
        };
        if let Err(error) = self.registry.reserve(&session_id, &key) {
            instance.close().await;
            return Err(reserve_failed(error, &session_id, &key));
        }
        let home = Home::Document {
            document: Arc::new(document),
            canonical_project_path,
            key,
        };
        Ok(self.opened(&session_id, home, instance, &status).0)
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
        if let Some(pid) = held.taken_over_from() {
            self.events
                .notice(Notice::lock_taken_over(session_id, held.path(), pid));
        }
        held
    }

    pub(super) async fn close_session(&self, session_id: &str) -> Outcome {
        let Some(session) = self.registry.get(session_id) else {
            return Err(BackendError::session_not_found(session_id).into());
        };
        // Wait for any call in flight on this session, then drop the instance.
        let mut slot = session.instance.lock().await;
        let unsaved = match slot.as_mut() {
            Some(instance) => instance.status().await.ok().filter(|status| status.dirty),
            None => None,
        };
        let key = session.key();
        self.events.emit(
            session_id,
            &key,
            Happened::new("session.closeRequested", None),
        );
        self.registry.remove(session_id);
        if let Some(instance) = slot.take() {
            instance.close().await;
        }
        let journaled = session.end(unsaved.is_some());
        self.events
            .emit(session_id, &key, Happened::new("session.closed", None));
        self.forget(&session);
        tracing::info!(session = %session_id, "closed session");
        let mut data = Data::value(json!({ "sessionId": session_id, "closed": true }));
        if let Some(status) = unsaved {
            let lost = match status.revision - status.last_saved_revision {
                1 => format!("revision {}", status.revision),
                _ => format!(
                    "revisions {} to {}",
                    status.last_saved_revision + 1,
                    status.revision
                ),
            };
            data = data.with_warning(
                "unsaved_edits_discarded",
                format!(
                    "The session had unsaved edits ({lost}, applied after the last save at revision {}); {}",
                    status.last_saved_revision,
                    match journaled {
                        true => "they are not in the project, but its journal keeps them: the next openSession of this project lists them (unsavedEdits) and can recover or discard them.",
                        false => "they were discarded. Save with saveSession before closing to keep edits.",
                    }
                ),
            );
        }
        Ok((data, None))
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
            let message = if holder == Some(std::process::id()) {
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

/// Adds, beside the component's refusal of a document, what the document's schema says
/// in plain words of the same field or one below it, as a diagnostic of its own. The
/// component's error stays the error.
pub(super) fn explain_document(
    failure: &mut Failure,
    method: &Method,
    input: &mut Value,
    project: Value,
) {
    let BackendError::InvalidInput {
        path: Some(refused_at),
        ..
    } = &failure.error
    else {
        return;
    };
    let refused_at = refused_at.clone();
    if let Some(object) = input.as_object_mut() {
        object.insert("project".into(), project);
    }
    let explained = explain::input(method, input, failure.error.message());
    if let BackendError::InvalidInput {
        message,
        path: Some(path),
    } = &explained
        && (*path == refused_at || path.starts_with(&format!("{refused_at}/")))
        && path.starts_with("/project/")
    {
        let mut found = BackendDiagnostic::error(explained.code().as_str(), message);
        found.path = Some(path.clone());
        failure.added.push(found);
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
