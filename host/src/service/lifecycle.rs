//! A session's life: opening a project (from its directory or a document, with what to
//! do about the unsaved edits an earlier process left) and closing it.

use std::sync::Arc;

use ofgui_contracts::additions::{UnsavedEdits, UnsavedEditsStatus};
use ofgui_contracts::api::{
    OpenProjectSessionInput, OpenSessionInput, SessionSnapshot, UnsavedEditsChoice,
};
use ofgui_contracts::envelope::BackendDiagnostic;
use ofgui_contracts::error::{BackendError, LockConflictKind};
use ofgui_contracts::methods::Method;
use serde::Deserialize as _;
use serde_json::{Value, json};

use super::keeper::{MAX_CHANGED_NAMED, advisory, id_conflict, refused, replay, reserve_failed};
use super::{Outcome, Service};
use crate::backend::bindings::{DocumentRequest, SessionStatus};
use crate::backend::journal::{self, Journal};
use crate::backend::lock::{Holder, LockError, ProjectLock};
use crate::backend::runtime::Instance;
use crate::backend::sandbox::{self};
use crate::policy::explain;
use crate::service::envelope::{Data, Failure};
use crate::service::events::Happened;
use crate::service::report;
use crate::service::sessions::{Home, Session};

impl Service {
    /// Opens a project directory in a new session `session_id`, and does what `input`
    /// says with the unsaved edits an earlier session left in the project's journal
    /// (reported beside the snapshot). `saved_revision` is the revision the disk holds
    /// when a session is resumed from its record (0 for a new one), its revision when the
    /// journal holds no edits.
    pub(super) async fn open(
        &self,
        session_id: &str,
        input: &OpenSessionInput,
        saved_revision: u64,
    ) -> Result<(SessionSnapshot, Option<UnsavedEdits>), Failure> {
        let project_path = input.project_path.as_str();
        let project = sandbox::resolve_project(project_path, &self.keeper.config.roots)
            .map_err(|refusal| refused(refusal, project_path))?;
        self.keeper
            .registry
            .reserve(session_id, &project.key)
            .map_err(|error| reserve_failed(error, session_id, &project.key))?;
        let acquired = match self.keeper.config.read_only {
            true => None,
            false => Some(ProjectLock::acquire(
                &project.dir,
                session_id,
                &project.key,
                self.keeper.config.state_dir.as_ref(),
            )),
        };
        // Another program editing the project does not keep a reader out: the session
        // opens without the lock and refuses what would change the project.
        let locked_elsewhere = matches!(
            &acquired,
            Some(Err(LockError::Held {
                holder: Holder::Other { .. },
                ..
            }))
        );
        let project_lock = match acquired {
            None => None,
            Some(Ok(held)) => Some(self.keeper.noted(session_id, held)),
            Some(Err(_)) if locked_elsewhere => None,
            Some(Err(error)) => match advisory(error, &project.key) {
                Ok(()) => None,
                Err(failure) => {
                    self.keeper.registry.release(&project.key);
                    return Err(failure);
                }
            },
        };
        // Only the lock's holder touches the journal.
        let mut journal = project_lock.as_ref().and_then(|_| {
            let state = self.keeper.config.state_dir.as_ref();
            Journal::of(&project.dir, &project.key, state).ok()
        });
        let pending = journal
            .as_ref()
            .and_then(|journal| journal.pending().ok().flatten());
        let recovering = pending
            .as_ref()
            .filter(|_| input.unsaved_edits == Some(UnsavedEditsChoice::Recover));
        let first_revision =
            recovering.map_or(saved_revision, |pending| pending.header.saved_revision);
        report::progress("reading the project").await;
        let (mut instance, mut status) = match self
            .keeper
            .instantiate(session_id, project_path, &project, first_revision)
            .await
        {
            Ok((instance, status, _)) => (instance, status),
            Err(failure) => {
                self.keeper.registry.release(&project.key);
                return Err(failure);
            }
        };
        let mut unsaved = pending
            .as_ref()
            .map(|pending| unsaved_edits(pending, &project.dir));
        let (mut replayed, mut last_answered) = (Vec::new(), None);
        match (&pending, input.unsaved_edits, &mut journal, &mut unsaved) {
            (Some(pending), Some(UnsavedEditsChoice::Recover), Some(journal), Some(report)) => {
                report::progress("recovering unsaved edits").await;
                let (edits, refused, last) =
                    replay(&mut instance, &mut status, &pending.entries).await;
                report.status = UnsavedEditsStatus::Recovered;
                report.recovered = Some(edits.len() as u32);
                report.refused = refused;
                let kept = &pending.entries[..edits.len()];
                let header = journal::Header::now(pending.header.saved_revision, &project.dir);
                if let Err(error) = journal.begin(&header, kept) {
                    tracing::warn!(session = %session_id, "the recovered edits could not be journaled again: {error}");
                }
                replayed = edits;
                last_answered = last;
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
            lock: project_lock.map(Box::new),
            locked_elsewhere,
        };
        let (snapshot, session) = self.opened(session_id, home, instance, &status);
        if !replayed.is_empty() {
            session.recovered(first_revision, replayed, last_answered);
        }
        session.journal_into(journal);
        session.know_disk();
        if let Some(project) = session.directory() {
            self.keeper.watch.add(&project.dir);
        }
        self.keeper.remember(&session, first_revision);
        Ok((snapshot, unsaved))
    }

    /// Serves again a session a server that died had open, by its id: its project opened
    /// from its record in the state directory, at the revision the disk holds, with the
    /// edits the journal kept replayed. `Ok(false)` when there is no such record (or it is
    /// another tenant's), or the session cannot be opened again (then it stays unknown);
    /// `lock_conflict` when the server that has it still runs.
    pub(super) async fn resume(&self, session_id: &str) -> Result<bool, Failure> {
        let Some(state) = &self.keeper.config.state_dir else {
            return Ok(false);
        };
        let Some(record) = state.record(session_id) else {
            return Ok(false);
        };
        if record.tenant != self.keeper.config.tenant {
            return Ok(false);
        }
        let input = OpenSessionInput {
            project_path: record.project_path.clone(),
            unsaved_edits: Some(UnsavedEditsChoice::Recover),
        };
        let snapshot = match self.open(session_id, &input, record.saved_revision).await {
            Ok((snapshot, _)) => snapshot,
            Err(failure) => {
                tracing::warn!(session = %session_id, "a recorded session could not be resumed: {}", failure.error.message());
                return Ok(false);
            }
        };
        // Opened without the lock: the server that has the session still runs. This
        // process must not answer for it from what the journal said a moment ago.
        if !snapshot.lock_held {
            let key = self
                .keeper
                .registry
                .get(session_id)
                .map(|session| session.key());
            self.keeper.abandon(session_id).await;
            return Err(BackendError::LockConflict {
                message: "This session is open in another server process that shares this server's state directory, and that process still runs; send the session's requests to it (a load balancer routes them by the session id).".into(),
                kind: LockConflictKind::AdvisoryLockConflict,
                canonical_path_key: key.unwrap_or_default(),
                holder_session_id: Some(session_id.to_string()),
                lock_file_path: None,
            }
            .into());
        }
        tracing::info!(session = %session_id, revision = snapshot.revision, "resumed a session from its record");
        crate::metrics::metrics().session_resumed();
        Ok(true)
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
        let session = self
            .keeper
            .registry
            .insert(session_id.to_string(), home, instance);
        let key = session.key();
        self.keeper.cache.index(session_id, &key, status, true);
        self.keeper.events.emit(
            session_id,
            &key,
            Happened::new("session.opened", Some(status.revision)),
        );
        self.keeper
            .events
            .changed(session_id, status.revision, status.dirty);
        tracing::info!(session = %session_id, "opened session");
        (self.keeper.snapshot(&session, status), session)
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
            None => self.keeper.config.new_session_id(),
        };
        if self.keeper.registry.id_taken(&session_id) {
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
        let (instance, status) = match self
            .keeper
            .instantiate_document(&request, &document, None)
            .await
        {
            Ok(opened) => opened,
            Err(mut failure) => {
                explain_document(&mut failure, method, &mut input, project);
                return Err(failure);
            }
        };
        if let Err(error) = self.keeper.registry.reserve(&session_id, &key) {
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

    pub(super) async fn close_session(&self, session_id: &str) -> Outcome {
        let Some(session) = self.keeper.registry.get(session_id) else {
            return Err(BackendError::session_not_found(session_id).into());
        };
        // Wait for any call in flight on this session, then drop the instance.
        let mut slot = session.instance.lock().await;
        let unsaved = match slot.as_mut() {
            Some(instance) => instance.status().await.ok().filter(|status| status.dirty),
            None => None,
        };
        let key = session.key();
        self.keeper.events.emit(
            session_id,
            &key,
            Happened::new("session.closeRequested", None),
        );
        self.keeper.registry.remove(session_id);
        if let Some(instance) = slot.take() {
            instance.close().await;
        }
        let journaled = session.end(unsaved.is_some());
        self.keeper
            .events
            .emit(session_id, &key, Happened::new("session.closed", None));
        self.keeper.forget(&session);
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

/// What an earlier session left in the journal, as the open result reports it: pending
/// until the open's choice says otherwise.
pub(super) fn unsaved_edits(
    pending: &journal::Pending,
    project_dir: &std::path::Path,
) -> UnsavedEdits {
    let changed = journal::changed(&pending.header.files, &journal::fingerprints(project_dir));
    let last = pending.entries.last();
    UnsavedEdits {
        status: UnsavedEditsStatus::Pending,
        edits: pending.entries.len() as u32,
        from_revision: pending.header.saved_revision,
        to_revision: last.map_or(pending.header.saved_revision, |e| e.expected_revision + 1),
        last_edit_at: last.map(|e| e.at.clone()).unwrap_or_default(),
        more_changed_on_disk: changed.len().saturating_sub(MAX_CHANGED_NAMED) as u32,
        changed_on_disk: changed.into_iter().take(MAX_CHANGED_NAMED).collect(),
        recovered: None,
        refused: None,
    }
}

/// The warning an open gives about an earlier session's unsaved edits, so the caller reads
/// it where warnings are read, not only in `unsavedEdits`: its code and words.
pub(super) fn unsaved_edits_warning(report: &UnsavedEdits) -> (&'static str, String) {
    let edits = match report.edits {
        1 => "1 unsaved edit".to_string(),
        n => format!("{n} unsaved edits"),
    };
    let span = format!(
        "{edits} of an earlier session (revisions {} to {}, the last at {})",
        report.from_revision + 1,
        report.to_revision,
        report.last_edit_at
    );
    let changed = match report.changed_on_disk.len() as u32 + report.more_changed_on_disk {
        0 => String::new(),
        n => {
            format!(" {n} project file(s) changed on disk since (see unsavedEdits.changedOnDisk).")
        }
    };
    match report.status {
        UnsavedEditsStatus::Pending => (
            "unsaved_edits_pending",
            format!(
                "{span} are in this project's journal and not applied.{changed} To apply them, close this session and call openSession again with unsavedEdits \"recover\"; to drop them, with \"discard\"."
            ),
        ),
        UnsavedEditsStatus::Recovered => {
            let recovered = report.recovered.unwrap_or(0);
            let refused = match &report.refused {
                Some(refused) => format!(
                    " The edit made at revision {} was refused by the project as it is now ({}: {}), so it and the ones after it were not applied.",
                    refused.revision, refused.code, refused.message
                ),
                None => String::new(),
            };
            (
                "unsaved_edits_recovered",
                format!(
                    "{span}: {recovered} recovered and applied, not yet saved.{refused}{changed} Call saveSession to write them, or closeSession to drop them."
                ),
            )
        }
        UnsavedEditsStatus::Discarded => (
            "unsaved_edits_discarded",
            format!("{span} were discarded as asked; the project is as it was last saved."),
        ),
    }
}
