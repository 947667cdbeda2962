//! Writing a session to disk: the save guard, save and materialize, binding a document
//! session to a directory, and what a write tells events and the cache.

use ofgui_contracts::additions::Additions;
use ofgui_contracts::api::{DiskChanges, MaterializeMode, MaterializeSessionData, SessionSnapshot};
use ofgui_contracts::error::{
    BackendError, DiskConflict, DiskConflictKind, ErrorCode, SaveFailureReason, TargetPolicy,
    UnhandledReason,
};
use serde_json::json;

use super::keeper::{advisory, reserve_failed};
use super::{Outcome, Service, unhandled};
use crate::backend::bindings::{PlannedWrites, SaveReply, SessionStatus};
use crate::backend::lock::ProjectLock;
use crate::backend::runtime::{CallError, Instance};
use crate::backend::sandbox::{self, Target, TargetRefusal};
use crate::service::envelope::{Data, Failure};
use crate::service::events::Happened;
use crate::service::notice::{Notice, Recovered};
use crate::service::sessions::{Registry, Session};

impl Service {
    /// The files a save (or materialize) of a session would change at `expected`,
    /// without writing: what a person confirming the write is shown.
    pub async fn planned_writes(
        &self,
        session_id: &str,
        materialize: bool,
        expected: u64,
    ) -> Result<PlannedWrites, Failure> {
        self.keeper
            .on_session(session_id, async |_, instance| {
                instance.planned_writes(materialize, Some(expected)).await
            })
            .await
    }

    /// [`Self::planned_writes`] as the question `--confirm-writes` asks it.
    pub fn plan_writes(self: &std::sync::Arc<Self>) -> crate::policy::confirm::PlanWrites {
        let service = self.clone();
        std::sync::Arc::new(move |session_id, materialize, expected| {
            let service = service.clone();
            Box::pin(async move {
                service
                    .planned_writes(&session_id, materialize, expected)
                    .await
                    .map_err(|failure| failure.error)
            })
        })
    }

    /// `targetPath` of a save may only name the opened project (its directory or its
    /// `.fairy` file): saving is not Save As.
    /// A session without a directory has no target to compare with: the component
    /// refuses its write (`capability_unavailable`), as upstream checks storage first.
    pub(super) fn check_save_target(&self, session_id: &str, target: &str) -> Result<(), Failure> {
        let Some(session) = self.keeper.registry.get(session_id) else {
            return Err(BackendError::session_not_found(session_id).into());
        };
        let Some(project) = session.directory() else {
            return Ok(());
        };
        let same = sandbox::resolve_project(target, &self.keeper.config.roots)
            .is_ok_and(|resolved| resolved.key == project.key);
        if same {
            return Ok(());
        }
        Err(BackendError::PathPolicyViolation {
            message: "A session opened from disk writes only the project it opened; targetPath names somewhere else. Nothing was written and the edits stay in the session. Save without targetPath.".into(),
            policy: TargetPolicy::SaveTarget,
            attempted_path: target.to_string(),
            allowed_path: project.dir.to_string_lossy().into_owned(),
        }
        .into())
    }

    /// Saves or materializes a session; emits `save.started`, then `save.completed` or
    /// `save.failed`.
    pub(super) async fn write(
        &self,
        session_id: &str,
        expected: Option<u64>,
        write: Write,
    ) -> Outcome {
        let Some(session) = self.keeper.registry.get(session_id) else {
            return Err(BackendError::session_not_found(session_id).into());
        };
        let materialize = matches!(write, Write::Materialize { .. });
        let key = session.key();
        let emit = |happened: Happened| self.keeper.events.emit(&session.id, &key, happened);
        emit(Happened::new("save.started", None).payload(json!({ "materialize": materialize })));
        let directory = session.directory();
        let result = self
            .keeper
            .on_session(&session.id, async |_, instance| {
                if let Some(project) = &directory {
                    guard_disk(&session.id, project, instance, materialize, expected).await?;
                }
                let reply = match materialize {
                    true => instance.materialize(expected).await?,
                    false => instance.save(expected).await?,
                };
                // Known before the call lets go of the instance, so the watcher never
                // takes the save's own writes for someone else's.
                let wrote = [
                    &reply.written_paths,
                    &reply.removed_paths,
                    &reply.recovered_paths,
                ];
                if wrote.iter().any(|paths| !paths.is_empty()) {
                    session.know_disk();
                }
                Ok(reply)
            })
            .await;
        match result {
            Ok(reply) => {
                let status = reply.status;
                let snapshot = self.keeper.snapshot(&session, &status);
                let skipped_paths = reply.skipped_paths.clone();
                let disk = self.saved(&session, reply);
                let data = match write {
                    Write::Save => Data::typed(&snapshot)?,
                    Write::Materialize { reason } => Data::typed(&materialized(
                        snapshot,
                        &status,
                        reason,
                        skipped_paths,
                        &disk,
                    ))?,
                };
                let data = on_disk(data, disk);
                Ok((data, Some(status.revision)))
            }
            Err(mut failure) => {
                if let Some(status) = failure.status {
                    failure.session = Some(self.keeper.snapshot(&session, &status));
                }
                self.save_failed(&session, &failure);
                Err(failure)
            }
        }
    }

    /// After a successful save or materialize: the journal restarts at the saved revision,
    /// `save.completed` and `cache.updated` are recorded with a fresh valid entry. Gives
    /// what the write changed on disk.
    pub(super) fn saved(&self, session: &Session, reply: SaveReply) -> DiskChanges {
        let status = reply.status;
        session.saved(status.revision);
        self.keeper.remember(session, status.revision);
        if !reply.recovered_paths.is_empty() {
            let how = Recovered::CompletedOrUndone;
            let notice = Notice::save_recovered(&session.id, how, &reply.recovered_paths);
            self.keeper.events.notice(notice);
        }
        let key = session.key();
        let disk = DiskChanges {
            written_paths: reply.written_paths,
            removed_paths: reply.removed_paths,
            created_directories: reply.created_directories,
            removed_directories: reply.removed_directories,
            kept_directories: reply.kept_directories,
            recovered_paths: reply.recovered_paths,
            write_verified: reply.write_verified,
        };
        self.keeper.events.emit(
            &session.id,
            &key,
            Happened::new("save.completed", Some(status.revision)).payload(json!({
                "writtenPaths": disk.written_paths,
                "removedPaths": disk.removed_paths,
            })),
        );
        let entry = self.keeper.cache.index(&session.id, &key, &status, true);
        self.keeper.events.emit(
            &session.id,
            &key,
            Happened::new("cache.updated", Some(status.revision)).cache_revision(entry.revision),
        );
        self.keeper
            .events
            .changed(&session.id, status.revision, status.dirty);
        disk
    }

    /// After a failed save or materialize: `save.failed` with the failure's diagnostics,
    /// and, when the write itself failed (not a refusal before writing), the cache entry
    /// made invalid (as upstream, without an event of its own).
    pub(super) fn save_failed(&self, session: &Session, failure: &Failure) {
        let key = session.key();
        let diagnostics = if failure.diagnostics.is_empty() {
            vec![ofgui_contracts::envelope::BackendDiagnostic::error(
                failure.error.code().as_str(),
                failure.error.message(),
            )]
        } else {
            failure.diagnostics.clone()
        };
        self.keeper.events.emit(
            &session.id,
            &key,
            Happened::new("save.failed", failure.status.map(|s| s.revision))
                .diagnostics(diagnostics),
        );
        let written = matches!(
            failure.error.code(),
            ErrorCode::SavePartialFailure | ErrorCode::WriteFailed
        );
        if let (true, Some(status)) = (written, &failure.status) {
            self.keeper.cache.index(&session.id, &key, status, false);
        }
    }

    /// Writes a document session's project into `target_path` and makes the session that
    /// project's. A fresh instance whose only preopen is the target directory opens the
    /// same document, replays the batches applied since, and materializes; only then does
    /// it replace the session's instance, with the directory's key and advisory lock. On
    /// any failure the session is as it was (a directory this created is removed again
    /// when nothing was written into it).
    pub(super) async fn bind(
        &self,
        session: &Session,
        target_path: &str,
        expected: Option<u64>,
        reason: Option<String>,
    ) -> Outcome {
        let target = sandbox::resolve_target(target_path, &self.keeper.config.roots)
            .map_err(|refusal| self.target_refused(refusal, target_path))?;
        let mut slot = session.instance.lock().await;
        if slot.is_none() {
            return Err(BackendError::session_not_found(&session.id).into());
        }
        if session.document().is_none() {
            // Written into a directory by a call that held the instance first.
            drop(slot);
            self.check_save_target(&session.id, target_path)?;
            return self
                .write(&session.id, expected, Write::Materialize { reason })
                .await;
        }
        if session.replay().is_none() {
            return Err(BackendError::CapabilityUnavailable {
                message: "This session applied more transactions since it opened than the server keeps (64 MiB) to rebuild it in a directory, so it cannot be written there; nothing was written. Read the model with readSessionState and readResourceBytes, open it again with openProjectSession, and materialize that session.".into(),
                capability: "fileSystem".into(),
            }
            .into());
        }
        self.keeper
            .registry
            .claim_for(session, &target.key)
            .map_err(|error| reserve_failed(error, &session.id, &target.key))?;
        let created = match target.create(&self.keeper.config.roots) {
            Ok(created) => created,
            Err(error) => {
                self.keeper.registry.release(&target.key);
                tracing::warn!(session = %session.id, "cannot create {}: {error}", target.dir.display());
                return Err(BackendError::PathPolicyViolation {
                    message: format!(
                        "targetPath could not be made a directory ({error}); nothing was written. Name a directory inside the allowed project roots."
                    ),
                    policy: TargetPolicy::MaterializeTarget,
                    attempted_path: target_path.to_string(),
                    allowed_path: self.keeper.config.roots_text(),
                }
                .into());
            }
        };
        let undo = |registry: &Registry| {
            registry.release(&target.key);
            Target::remove_created(&created);
        };
        let state = self.keeper.config.state_dir.as_ref();
        let project_lock = match ProjectLock::acquire(&target.dir, &session.id, &target.key, state)
        {
            Ok(held) => Some(self.keeper.noted(&session.id, held)),
            Err(error) => match advisory(error, &target.key) {
                Ok(()) => None,
                Err(failure) => {
                    undo(&self.keeper.registry);
                    return Err(failure);
                }
            },
        };
        self.keeper.events.emit(
            &session.id,
            &target.key,
            Happened::new("save.started", None)
                .payload(json!({ "materialize": true, "targetPath": target_path })),
        );
        let (mut instance, _) = match self.keeper.rebuild(session, Some(&target)).await {
            Ok(rebuilt) => rebuilt,
            Err(why) => {
                tracing::error!(session = %session.id, "the session cannot be rebuilt in {}: {why}", target.dir.display());
                drop(project_lock);
                undo(&self.keeper.registry);
                let failure = Failure::from(BackendError::unhandled(UnhandledReason::Internal));
                self.save_failed(session, &failure);
                return Err(failure);
            }
        };
        match instance.materialize(expected).await {
            Ok(reply) => {
                if let Some(old) = slot.replace(instance) {
                    old.close().await;
                }
                self.keeper
                    .registry
                    .rebind(session, target.project(), project_lock);
                let status = reply.status;
                let snapshot = self.keeper.snapshot(session, &status);
                let skipped_paths = reply.skipped_paths.clone();
                let disk = self.saved(session, reply);
                tracing::info!(session = %session.id, dir = %target.dir.display(), "wrote a document session into a directory");
                let data = Data::typed(&materialized(
                    snapshot,
                    &status,
                    reason,
                    skipped_paths,
                    &disk,
                ))?;
                Ok((on_disk(data, disk), Some(status.revision)))
            }
            Err(error) => {
                instance.close().await;
                drop(project_lock);
                undo(&self.keeper.registry);
                let mut failure = match error {
                    CallError::Backend(error) => Failure::from(*error),
                    other => {
                        tracing::error!(session = %session.id, "materializing into {} failed: {other}", target.dir.display());
                        Failure::from(unhandled(&other))
                    }
                };
                if let Some(status) = failure.status {
                    failure.session = Some(self.keeper.snapshot(session, &status));
                }
                self.save_failed(session, &failure);
                Err(failure)
            }
        }
    }

    /// A refused `targetPath` of a document session.
    pub(super) fn target_refused(&self, refusal: TargetRefusal, target_path: &str) -> Failure {
        let message = match refusal {
            TargetRefusal::NotAllowed => "targetPath is outside the allowed project roots; nothing was written. Name a new directory inside one of them (allowedPath).".to_string(),
            TargetRefusal::HoldsProject(entry) => format!(
                "targetPath already holds a FairyGUI project ({entry}); nothing was written. Name a directory without one: writing there would mix two projects. To edit that project, open it with openSession."
            ),
            TargetRefusal::NotADirectory => "targetPath names something that is not a directory (or cannot be read); nothing was written. Name a directory, or a .fairy file in one.".to_string(),
            TargetRefusal::NotUtf8 => "targetPath is not valid UTF-8 on this system; nothing was written.".to_string(),
        };
        BackendError::PathPolicyViolation {
            message,
            policy: TargetPolicy::MaterializeTarget,
            attempted_path: target_path.to_string(),
            allowed_path: self.keeper.config.roots_text(),
        }
        .into()
    }
}

/// Which write a save call asked for.
pub(super) enum Write {
    Save,
    Materialize { reason: Option<String> },
}

/// Why a new session (or a session's new directory) could not be registered.
/// What the host checks before a session writes its directory, beyond what the backend
/// checks through its preopen: the project path still leads to the directory the session
/// opened (`path_policy_violation` otherwise), and nothing the write changes is read-only
/// (`changed_on_disk` with a `read_only` conflict, as the other refusals that leave the
/// disk as it is).
pub(super) async fn guard_disk(
    session_id: &str,
    project: &sandbox::ResolvedProject,
    instance: &mut Instance,
    materialize: bool,
    expected: Option<u64>,
) -> Result<(), CallError> {
    let refuse = |error: BackendError, status: Option<SessionStatus>| {
        CallError::Backend(Box::new(crate::backend::bindings::GuestError {
            error,
            diagnostics: Vec::new(),
            status,
        }))
    };
    if !project.still_in_place() {
        let dir = project.dir.to_string_lossy().into_owned();
        return Err(refuse(
            BackendError::PathPolicyViolation {
                message: "The project directory was moved, deleted or replaced (by a symbolic link, say) since the session opened it, so its path no longer leads to the project the session read. Nothing was written and the edits stay in the session. Put the project directory back where it was, then save again; or close the session and open the project where it is now.".into(),
                policy: TargetPolicy::SaveTarget,
                attempted_path: dir.clone(),
                allowed_path: dir,
            },
            None,
        ));
    }
    let planned = instance.planned_writes(materialize, expected).await?;
    let Some(path) = project.read_only_entry(planned.files.iter().map(|f| f.path.as_str())) else {
        return Ok(());
    };
    let status = planned.status;
    let conflict = DiskConflict {
        path: path.clone(),
        kind: DiskConflictKind::ReadOnly,
        message: format!("{path} is read-only on disk"),
    };
    let message = format!(
        "Refusing to save: {path} is read-only on disk. Nothing was written and the edits are still in the session. A read-only file or folder is often one that version control (Perforce, say) has not checked out: ask the user to make it writable, then save again."
    );
    let error = if materialize {
        BackendError::WriteFailed {
            message,
            session_id: session_id.to_string(),
            canonical_path_key: project.key.clone(),
            attempted_revision: status.revision,
            last_saved_revision: status.last_saved_revision,
            reason: SaveFailureReason::ChangedOnDisk,
            written_paths: Vec::new(),
            skipped_paths: Vec::new(),
            failed_paths: vec![path],
            disk_may_be_partially_updated: false,
            recovery_paths: None,
            conflicts: vec![conflict],
        }
    } else {
        BackendError::SavePartialFailure {
            message,
            session_id: session_id.to_string(),
            canonical_path_key: project.key.clone(),
            attempted_revision: status.revision,
            last_saved_revision: status.last_saved_revision,
            reason: SaveFailureReason::ChangedOnDisk,
            committed_paths: Vec::new(),
            failed_paths: vec![path],
            disk_may_be_partially_updated: false,
            recovery_paths: None,
            conflicts: vec![conflict],
        }
    };
    Err(refuse(error, Some(status)))
}

/// The result of a materialize: the session after it, and the files it wrote.
pub(super) fn materialized(
    snapshot: SessionSnapshot,
    status: &SessionStatus,
    reason: Option<String>,
    skipped_paths: Vec<String>,
    disk: &DiskChanges,
) -> MaterializeSessionData {
    MaterializeSessionData {
        session_id: snapshot.session_id,
        canonical_project_path: snapshot.canonical_project_path,
        revision: snapshot.revision,
        last_saved_revision: snapshot.last_saved_revision,
        dirty: snapshot.dirty,
        uam_fidelity: snapshot.uam_fidelity,
        lock_held: snapshot.lock_held,
        capabilities: snapshot.capabilities,
        mode: MaterializeMode::FullProject,
        reason,
        materialize_revision: status.revision,
        save_revision: status.last_saved_revision,
        written_paths: disk.written_paths.clone(),
        skipped_paths,
        diagnostics: Vec::new(),
    }
}

/// A write's result with what it changed on disk, which upstream's result does not hold,
/// beside it.
fn on_disk(data: Data, disk: DiskChanges) -> Data {
    data.with_additions(Additions {
        saved: Some(disk),
        ..Additions::default()
    })
}
