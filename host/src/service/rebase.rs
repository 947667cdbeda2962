//! Replaying a session's unsaved edits on the project as it is on disk now: at open,
//! from the journal an earlier process left (`unsavedEdits: "recover"`), and on
//! `refreshSession`, after someone else changed the project.

use ofgui_contracts::additions::{
    Additions, EditKind, Refreshed, RefusedEdit, UnsavedEdits, UnsavedEditsStatus,
};
use ofgui_contracts::api::RefreshSessionInput;
use ofgui_contracts::error::{BackendError, TransactionRejection};
use serde_json::json;

use super::{Outcome, Service, unhandled};
use crate::backend::bindings::SessionStatus;
use crate::backend::journal;
use crate::backend::runtime::{CallError, Instance};
use crate::service::envelope::{Data, Failure};
use crate::service::events::Happened;
use crate::service::report;
use crate::service::sessions::{Edit, EditAction};

impl Service {
    /// `refreshSession`: reads the project again as it is on disk and replays the
    /// session's unsaved edits on top, in a fresh instance that replaces the session's
    /// only once every edit replayed (or the refused ones were dropped, as asked). The
    /// session goes on at a revision above the one it had: its disk state is the one just
    /// read, its edits follow.
    pub(super) async fn refresh(&self, input: RefreshSessionInput) -> Outcome {
        let Some(session) = self.registry.get(&input.session_id) else {
            return Err(BackendError::session_not_found(&input.session_id).into());
        };
        let unavailable = |message: &str| -> Failure {
            BackendError::CapabilityUnavailable {
                message: message.into(),
                capability: "fileSystem".into(),
            }
            .into()
        };
        let Some(project) = session.directory() else {
            return Err(unavailable(
                "This session was opened from a document and has no project directory to read again.",
            ));
        };
        let mut slot = session.instance.lock().await;
        let Some(instance) = slot.as_mut() else {
            return Err(BackendError::session_not_found(&session.id).into());
        };
        let status = instance.status().await.map_err(|error| unhandled(&error))?;
        if input.expected_revision != status.revision {
            return Err(BackendError::StaleWrite {
                message: format!(
                    "Expected revision {} does not match current revision {}.",
                    input.expected_revision, status.revision
                ),
                session_id: session.id.clone(),
                canonical_path_key: Some(session.key()),
                expected_revision: input.expected_revision,
                actual_revision: status.revision,
            }
            .into());
        }
        let Some((_, edits)) = session.replay() else {
            return Err(unavailable(
                "This session applied more since its last save than the server keeps (64 MiB) to replay, so it cannot be refreshed; nothing changed. Save it (a save refused for changed files can be forced with materializeSession, after asking the user), or reopen the project.",
            ));
        };
        let changed = session.changed_on_disk();
        report::progress("reading the project again").await;
        let first = status.revision + 1;
        let (mut fresh, mut fresh_status, _) =
            self.instantiate(&session.id, "", &project, first).await?;
        let drop_refused = input.drop_refused == Some(true);
        let mut kept = Vec::new();
        let mut dropped = Vec::new();
        for edit in edits {
            let at = fresh_status.revision;
            let result = match &edit.action {
                EditAction::Apply { operations } => fresh.apply(at, operations).await,
                EditAction::Undo => fresh.step_history(at, false, false).await,
                EditAction::Redo => fresh.step_history(at, true, false).await,
            };
            match result {
                Ok(reply) => {
                    fresh_status = reply.status;
                    kept.push(Edit {
                        expected_revision: at,
                        action: edit.action,
                    });
                }
                Err(CallError::Backend(guest)) if drop_refused => {
                    dropped.push(refused_edit(&edit, &guest.error));
                }
                Err(CallError::Backend(guest)) => {
                    fresh.close().await;
                    return Err(refresh_refused(&edit, guest.error).into());
                }
                Err(other) => {
                    fresh.close().await;
                    return Err(unhandled(&other).into());
                }
            }
        }
        if let Some(old) = slot.replace(fresh) {
            old.close().await;
        }
        drop(slot);
        session.recovered(first, kept.clone());
        session.know_disk();
        session.rejournal(first, &kept);
        let key = session.key();
        self.events.emit(
            &session.id,
            &key,
            Happened::new("session.refreshed", Some(fresh_status.revision))
                .payload(json!({ "replayed": kept.len(), "dropped": dropped.len() })),
        );
        self.cache.index(&session.id, &key, &fresh_status, true);
        self.events
            .changed(&session.id, fresh_status.revision, fresh_status.dirty);
        let refreshed = Refreshed {
            replayed: kept.len() as u32,
            dropped,
            more_changed_on_disk: changed.len().saturating_sub(MAX_CHANGED_NAMED) as u32,
            changed_on_disk: changed.into_iter().take(MAX_CHANGED_NAMED).collect(),
        };
        let additions = Additions {
            refreshed: Some(refreshed),
            ..Additions::default()
        };
        let data = Data::typed(&self.snapshot(&session, &fresh_status))?.with_additions(additions);
        Ok((data, Some(fresh_status.revision)))
    }
}

/// Most changed files an `unsavedEdits` report names.
const MAX_CHANGED_NAMED: usize = 20;

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

/// Replays journal entries in order on a fresh instance, up to the first the project as
/// it is now refuses. Gives the edits replayed and the refusal.
pub(super) async fn replay(
    instance: &mut Instance,
    status: &mut SessionStatus,
    entries: &[journal::Entry],
) -> (Vec<Edit>, Option<RefusedEdit>) {
    let mut replayed = Vec::new();
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
            );
        };
        if edit.expected_revision != status.revision {
            let message = format!(
                "The journal's edits skip from revision {} to {}.",
                status.revision, edit.expected_revision
            );
            return (replayed, Some(refuse("stale_write", message, None)));
        }
        let result = match &edit.action {
            EditAction::Apply { operations } => {
                instance.apply(edit.expected_revision, operations).await
            }
            EditAction::Undo => {
                instance
                    .step_history(edit.expected_revision, false, false)
                    .await
            }
            EditAction::Redo => {
                instance
                    .step_history(edit.expected_revision, true, false)
                    .await
            }
        };
        match result {
            Ok(reply) => {
                *status = reply.status;
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
                return (replayed, Some(refused));
            }
            Err(other) => {
                return (
                    replayed,
                    Some(refuse("backend_unhandled_error", other.to_string(), None)),
                );
            }
        }
    }
    (replayed, None)
}

/// An unsaved edit the project as it is now refuses, as a refresh or recovery reports it.
fn refused_edit(edit: &Edit, error: &BackendError) -> RefusedEdit {
    let action = match edit.action {
        EditAction::Apply { .. } => EditKind::Apply,
        EditAction::Undo => EditKind::Undo,
        EditAction::Redo => EditKind::Redo,
    };
    RefusedEdit {
        revision: edit.expected_revision,
        action,
        op_index: match error {
            BackendError::TransactionUnsupported(rejection) => rejection.op_index,
            _ => None,
        },
        code: error.code().as_str().into(),
        message: error.message().to_string(),
    }
}

/// The refusal of a refresh that an unsaved edit no longer fits: the edit's own error,
/// saying which edit and what to do.
fn refresh_refused(edit: &Edit, error: BackendError) -> BackendError {
    let what = format!(
        "Refreshing would replay the unsaved edit made at revision {}, which the project as it is on disk now refuses; nothing changed.",
        edit.expected_revision
    );
    let fix =
        "Refresh with dropRefused: true to drop it (and any other refused edit), or undo it first.";
    match error {
        BackendError::TransactionUnsupported(mut rejection) => {
            rejection.message = format!("{what} {} {fix}", rejection.message);
            BackendError::TransactionUnsupported(rejection)
        }
        other => BackendError::TransactionUnsupported(TransactionRejection::before_running(
            format!("{what} {} {fix}", other.message()),
            Vec::new(),
        )),
    }
}
