//! `refreshSession`: replaying a session's unsaved edits on the project as it is on disk
//! now, after someone else changed it.

use ofgui_contracts::additions::{Additions, EditKind, Refreshed, RefusedEdit};
use ofgui_contracts::api::RefreshSessionInput;
use ofgui_contracts::error::{BackendError, TransactionRejection};
use serde_json::json;

use super::keeper::MAX_CHANGED_NAMED;
use super::{Outcome, Service, unhandled};
use crate::backend::runtime::CallError;
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
        let Some(session) = self.keeper.registry.get(&input.session_id) else {
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
        let (mut fresh, mut fresh_status, _) = self
            .keeper
            .instantiate(&session.id, "", &project, first)
            .await?;
        let drop_refused = input.drop_refused == Some(true);
        let mut kept = Vec::new();
        let mut dropped = Vec::new();
        for edit in edits {
            let at = fresh_status.revision;
            let result = edit.replay_on(&mut fresh, at).await;
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
        session.recovered(first, kept.clone(), None);
        session.know_disk();
        session.rejournal(first, &kept);
        let key = session.key();
        self.keeper.events.emit(
            &session.id,
            &key,
            Happened::new("session.refreshed", Some(fresh_status.revision))
                .payload(json!({ "replayed": kept.len(), "dropped": dropped.len() })),
        );
        self.keeper
            .cache
            .index(&session.id, &key, &fresh_status, true);
        self.keeper
            .events
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
        let data =
            Data::typed(&self.keeper.snapshot(&session, &fresh_status))?.with_additions(additions);
        Ok((data, Some(fresh_status.revision)))
    }
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
