//! Routing a method's input by its id, and running the reads and edits: the component's
//! own methods forwarded as sent (it decodes them), batches, undo and redo, events and the
//! derived cache.

use base64::Engine as _;
use ofgui_contracts::additions::Additions;
use ofgui_contracts::api::{
    EventsInput, HistoryStepInput, MaterializeSessionInput, NoInput, OpenSessionInput,
    PublishProjectInput, ReadResourceBytesInput, RefreshCacheInput, RefreshSessionInput,
    SaveSessionInput, SessionInput, SessionState, TransactionInput,
};
use ofgui_contracts::error::{BackendError, ErrorCode};
use ofgui_contracts::methods::{Method, MethodId};
use serde::Deserialize as _;
use serde_json::{Value, json};

use super::save::Write;
use super::{Outcome, Service};
use crate::backend::bindings::GuestReply;
use crate::policy::explain;
use crate::service::cache::Cache;
use crate::service::envelope::{self, Data, Failure};
use crate::service::events::Happened;
use crate::service::sessions::{Edit, EditAction, Session};

impl Service {
    pub(super) async fn run(&self, work: Work) -> Outcome {
        match work {
            Work::GetCapabilities => Ok((
                Data::typed(&self.keeper.capabilities)?.with_additions(Additions {
                    server_limits: Some(self.limits()),
                    ..Additions::default()
                }),
                None,
            )),
            Work::GetSession(input) => self
                .keeper
                .on_session(&input.session_id, async |session, instance| {
                    let status = instance.status().await?;
                    Ok((status, self.keeper.snapshot(session, &status)))
                })
                .await
                .and_then(|(status, snapshot)| {
                    Ok((Data::typed(&snapshot)?, Some(status.revision)))
                }),
            Work::Component {
                session_id,
                method,
                input,
            } => self
                .keeper
                .on_session(&session_id, async |_, instance| {
                    instance.call(method.name, &input).await
                })
                .await
                .and_then(reply_data),
            Work::ReadBytes(input) => {
                let reply = self
                    .keeper
                    .on_session(&input.session_id, async |_, instance| {
                        instance
                            .read_resource_bytes(
                                input.expected_revision,
                                &input.selector.package_id,
                                &input.selector.resource_id,
                            )
                            .await
                    })
                    .await?;
                let encoded = base64::engine::general_purpose::STANDARD.encode(reply.bytes);
                let data = envelope::object([
                    ("sessionId", Value::String(input.session_id)),
                    ("revision", json!(reply.status.revision)),
                    (
                        "selector",
                        serde_json::to_value(&input.selector)
                            .map_err(|cause| Failure::internal(&cause))?,
                    ),
                    ("sourceBytes", Value::String(encoded)),
                ]);
                Ok((Data::value(data), Some(reply.status.revision)))
            }
            Work::StringsFile {
                session_id,
                method,
                input,
                path,
            } => {
                let input = self.read_strings_file(&session_id, input, &path)?;
                let work = match method.id {
                    MethodId::RenderComponent => Work::Render {
                        session_id,
                        input: Data::json_text(&input)?,
                    },
                    _ => forward(method, input)?,
                };
                Box::pin(self.run(work)).await
            }
            Work::Render { session_id, input } => {
                let picture = self
                    .keeper
                    .on_session(&session_id, async |_, instance| {
                        instance.render(&input).await
                    })
                    .await?;
                let data = Data::text(picture.data, Vec::new())?.with_image(picture.png);
                Ok((data, Some(picture.status.revision)))
            }
            Work::Transaction { apply, input } => self.transaction(apply, input).await,
            Work::Step { redo, input } => self.step_history(redo, input).await,
            Work::Refresh(input) => self.refresh(input).await,
            Work::Publish(input) => self.publish(input).await,
            Work::Events(input) => {
                let status = self
                    .keeper
                    .on_session(&input.session_id, async |_, instance| {
                        instance.status().await
                    })
                    .await?;
                let data = self
                    .keeper
                    .events
                    .read(
                        &input.session_id,
                        input.after.as_ref().map(|after| after.text()).as_deref(),
                        input.limit,
                    )
                    .map_err(Failure::from)?;
                Ok((Data::typed(&data)?, Some(status.revision)))
            }
            Work::Close(input) => self.close_session(&input.session_id).await,
            Work::CacheSnapshot(input) => {
                // The cache is the host's own index: reading it asks nothing of the backend,
                // which is asked for the revision only if there is no entry (upstream's
                // `cacheRevision` then).
                let snapshot = match self.keeper.registry.get(&input.session_id) {
                    None => return Err(BackendError::session_not_found(&input.session_id).into()),
                    Some(session) => match self.keeper.cache.snapshot(&session.id) {
                        Some(snapshot) => snapshot,
                        None => {
                            let status = self
                                .keeper
                                .on_session(&session.id, async |_, instance| {
                                    instance.status().await
                                })
                                .await?;
                            Cache::empty(status.revision)
                        }
                    },
                };
                let revision = snapshot.cache_revision;
                Ok((Data::typed(&snapshot)?, Some(revision)))
            }
            Work::RefreshCache(input) => {
                let (key, status) = self
                    .keeper
                    .on_session(&input.session_id, async |session, instance| {
                        Ok((session.key(), instance.status().await?))
                    })
                    .await?;
                let entry = self
                    .keeper
                    .cache
                    .index(&input.session_id, &key, &status, true);
                let reason = input.reason.unwrap_or_default();
                self.keeper.events.emit(
                    &input.session_id,
                    &key,
                    Happened::new("cache.updated", Some(status.revision))
                        .cache_revision(entry.revision)
                        .payload(json!({ "reason": reason.as_str() })),
                );
                let snapshot = Cache::of(entry);
                Ok((Data::typed(&snapshot)?, Some(status.revision)))
            }
            Work::Save(input) => {
                if let Some(target) = &input.target_path {
                    self.check_save_target(&input.session_id, target)?;
                }
                let write = if input.force == Some(true) || input.mode.is_some() {
                    Write::Materialize {
                        reason: Some("force_save".into()),
                    }
                } else {
                    Write::Save
                };
                self.write(&input.session_id, input.expected_revision, write)
                    .await
            }
            Work::Materialize(input) => {
                let Some(session) = self.keeper.registry.get(&input.session_id) else {
                    return Err(BackendError::session_not_found(&input.session_id).into());
                };
                match &input.target_path {
                    Some(target) if session.document().is_some() => {
                        self.bind(&session, target, input.expected_revision, input.reason)
                            .await
                    }
                    target => {
                        if let Some(target) = target {
                            self.check_save_target(&input.session_id, target)?;
                        }
                        let write = Write::Materialize {
                            reason: input.reason,
                        };
                        self.write(&input.session_id, input.expected_revision, write)
                            .await
                    }
                }
            }
        }
    }

    /// Preflights or applies a batch. The component decodes the operations; a refused
    /// write carries the session's state as the component reported it in the same call.
    pub(super) async fn transaction(&self, apply: bool, input: TransactionInput) -> Outcome {
        let operations = Data::json_text(&input.operations)?;
        let expected = input.expected_revision;
        let Some(session) = self.keeper.registry.get(&input.session_id) else {
            return Err(BackendError::session_not_found(&input.session_id).into());
        };
        let result = self
            .keeper
            .on_session(&session.id, async |session, instance| {
                if apply {
                    if let Some(reply) = session.answered_before(expected, &operations) {
                        tracing::info!(session = %session.id, "answered a request sent again with the answer of its recovered apply");
                        return Ok(Applied::Batch(reply));
                    }
                    let reply = instance.apply(expected, &operations).await?;
                    session.record(Edit {
                        expected_revision: expected,
                        action: EditAction::Apply {
                            operations: operations.clone(),
                        },
                    });
                    Ok(Applied::Batch(reply))
                } else {
                    instance
                        .preflight(expected, &operations)
                        .await
                        .map(Applied::Preview)
                }
            })
            .await;
        match result {
            Ok(Applied::Batch(reply)) => {
                let event = Happened::new("transaction.applied", Some(reply.status.revision))
                    .payload(json!({ "operationCount": input.operations.len() }));
                self.edited(&session, reply, event, Shown::Snapshot)
            }
            Ok(Applied::Preview(reply)) => reply_data(reply),
            Err(mut failure) => {
                self.after_rejection(apply, &session, &mut failure);
                Err(failure)
            }
        }
    }

    /// Undoes or redoes one batch (or previews that). The component keeps the history; the
    /// journal records the step so that a rebuilt session takes it too.
    async fn step_history(&self, redo: bool, input: HistoryStepInput) -> Outcome {
        let expected = input.expected_revision;
        let preview = input.preview == Some(true);
        let Some(session) = self.keeper.registry.get(&input.session_id) else {
            return Err(BackendError::session_not_found(&input.session_id).into());
        };
        let result = self
            .keeper
            .on_session(&session.id, async |session, instance| {
                let reply = instance.step_history(expected, redo, preview).await?;
                if !preview {
                    let action = match redo {
                        true => EditAction::Redo,
                        false => EditAction::Undo,
                    };
                    session.record(Edit {
                        expected_revision: expected,
                        action,
                    });
                }
                Ok(reply)
            })
            .await;
        match result {
            Ok(reply) if preview => reply_data(reply),
            Ok(reply) => {
                let kind = match redo {
                    true => "history.redone",
                    false => "history.undone",
                };
                let event = Happened::new(kind, Some(reply.status.revision));
                self.edited(&session, reply, event, Shown::State)
            }
            Err(mut failure) => {
                self.after_rejection(true, &session, &mut failure);
                Err(failure)
            }
        }
    }

    /// After the model changed: the event, the cache, the change notice, and the session's
    /// state as the result (upstream's snapshot for an apply), with what the component
    /// added.
    fn edited(
        &self,
        session: &Session,
        reply: GuestReply,
        event: Happened,
        shown: Shown,
    ) -> Outcome {
        let status = reply.status;
        let key = session.key();
        self.keeper.events.emit(&session.id, &key, event);
        let entry = self.keeper.cache.index(&session.id, &key, &status, false);
        self.keeper.events.emit(
            &session.id,
            &key,
            Happened::new("cache.invalidated", Some(status.revision))
                .cache_revision(entry.revision),
        );
        self.keeper
            .events
            .changed(&session.id, status.revision, status.dirty);
        let snapshot = self.keeper.snapshot(session, &status);
        let data = match shown {
            Shown::Snapshot => Data::typed(&snapshot)?,
            Shown::State => Data::typed(&SessionState::from(snapshot))?,
        };
        Ok((data.with_additions(reply.additions), Some(status.revision)))
    }

    /// Attaches the session's state to a refused write and, for applies, records a
    /// `transaction.rejected` event with the same diagnostics.
    pub(super) fn after_rejection(&self, apply: bool, session: &Session, failure: &mut Failure) {
        let authoring = matches!(
            failure.error.code(),
            ErrorCode::StaleWrite
                | ErrorCode::TransactionUnsupported
                | ErrorCode::SelectorAmbiguity
        );
        let Some(status) = failure.status.filter(|_| authoring) else {
            return;
        };
        failure.session = Some(self.keeper.snapshot(session, &status));
        if !apply {
            return;
        }
        let diagnostics = if failure.diagnostics.is_empty() {
            vec![ofgui_contracts::envelope::BackendDiagnostic::error(
                failure.error.code().as_str(),
                failure.error.message(),
            )]
        } else {
            failure.diagnostics.clone()
        };
        let diagnostics = diagnostics
            .into_iter()
            .map(|d| d.enriched(Some(&session.id)))
            .collect();
        self.keeper.events.emit(
            &session.id,
            &session.key(),
            Happened::new("transaction.rejected", Some(status.revision)).diagnostics(diagnostics),
        );
    }
}

/// What a transaction call gave back.
pub(super) enum Applied {
    Batch(GuestReply),
    Preview(GuestReply),
}

/// A reply's data for the envelope, with the revision it was computed at.
fn reply_data(reply: GuestReply) -> Result<(Data, Option<u64>), Failure> {
    let revision = reply.status.revision;
    let data = Data::text(reply.data, reply.diagnostics)?.with_additions(reply.additions);
    Ok((data, Some(revision)))
}

/// A method's input, decoded strictly.
pub(super) enum Request {
    /// Opens run apart: they make the session they name.
    Open(Opening),
    Work(Work),
}

/// How a session is opened.
pub(super) enum Opening {
    Directory(OpenSessionInput),
    /// Its document is decoded by the component, in [`Service::open_project`].
    Document(Value),
}

/// What [`Service::run`] runs.
pub(super) enum Work {
    GetCapabilities,
    GetSession(SessionInput),
    /// A method the component answers from its input alone (WIT `call`): the input goes
    /// to it as sent, decoded there once.
    Component {
        session_id: String,
        method: &'static Method,
        input: String,
    },
    ReadBytes(ReadResourceBytesInput),
    /// A render: its input goes to the component as sent, like [`Work::Component`]'s, for
    /// its own export (the picture comes back beside the data).
    Render {
        session_id: String,
        input: String,
    },
    /// A method given a strings file by path (`stringsFile`): the host reads it into
    /// `strings`, then runs the method.
    StringsFile {
        session_id: String,
        method: &'static Method,
        input: Value,
        path: String,
    },
    Transaction {
        apply: bool,
        input: TransactionInput,
    },
    /// An undo (`redo` false) or a redo.
    Step {
        redo: bool,
        input: HistoryStepInput,
    },
    Refresh(RefreshSessionInput),
    Events(EventsInput),
    Close(SessionInput),
    CacheSnapshot(SessionInput),
    RefreshCache(RefreshCacheInput),
    Save(SaveSessionInput),
    Materialize(MaterializeSessionInput),
    Publish(PublishProjectInput),
}

impl Request {
    pub(super) fn decode(method: &Method, input: Value) -> Result<Request, Failure> {
        let reads_strings = matches!(
            method.id,
            MethodId::RenderComponent | MethodId::CheckStrings | MethodId::SweepStrings
        );
        if reads_strings && let Some(Value::String(path)) = input.get("stringsFile") {
            let path = path.clone();
            let (session_id, _) = as_sent(method, input.clone())?;
            return Ok(Request::Work(Work::StringsFile {
                session_id,
                method: method.id.method(),
                input,
                path,
            }));
        }
        let work = match method.id {
            MethodId::OpenSession => {
                return Ok(Request::Open(Opening::Directory(parse(method, &input)?)));
            }
            MethodId::OpenProjectSession => return Ok(Request::Open(Opening::Document(input))),
            MethodId::GetCapabilities => {
                parse::<NoInput>(method, &input)?;
                Work::GetCapabilities
            }
            MethodId::GetSession => Work::GetSession(parse(method, &input)?),
            MethodId::ReadResourceBytes => Work::ReadBytes(parse(method, &input)?),
            MethodId::RenderComponent => {
                let (session_id, input) = as_sent(method, input)?;
                Work::Render { session_id, input }
            }
            MethodId::PreflightTransaction => Work::Transaction {
                apply: false,
                input: parse_transaction(method, input)?,
            },
            MethodId::ApplyTransaction => Work::Transaction {
                apply: true,
                input: parse_transaction(method, input)?,
            },
            MethodId::Undo => Work::Step {
                redo: false,
                input: parse(method, &input)?,
            },
            MethodId::Redo => Work::Step {
                redo: true,
                input: parse(method, &input)?,
            },
            MethodId::RefreshSession => Work::Refresh(parse(method, &input)?),
            MethodId::GetEvents => Work::Events(parse(method, &input)?),
            MethodId::CloseSession => Work::Close(parse(method, &input)?),
            MethodId::GetCacheSnapshot => Work::CacheSnapshot(parse(method, &input)?),
            MethodId::RefreshCache => Work::RefreshCache(parse(method, &input)?),
            MethodId::SaveSession => Work::Save(parse(method, &input)?),
            MethodId::MaterializeSession => Work::Materialize(parse(method, &input)?),
            MethodId::Publish => Work::Publish(parse(method, &input)?),
            // Every other method is the component's alone: the host reads only the session
            // it names and forwards the input whole.
            MethodId::GetProjectOutline
            | MethodId::SearchProject
            | MethodId::ValidateSession
            | MethodId::QueryEntity
            | MethodId::ReadSessionState
            | MethodId::GetHistory
            | MethodId::Review
            | MethodId::ExportStrings
            | MethodId::CheckStrings
            | MethodId::SweepStrings => forward(method.id.method(), input)?,
        };
        Ok(Request::Work(work))
    }
}

/// A method the component answers alone: the session it names, and its input as sent.
fn forward(method: &'static Method, input: Value) -> Result<Work, Failure> {
    let (session_id, input) = as_sent(method, input)?;
    Ok(Work::Component {
        session_id,
        method,
        input,
    })
}

/// The session an input names, and the input as JSON text for the component, which
/// decodes it.
fn as_sent(method: &Method, input: Value) -> Result<(String, String), Failure> {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Named {
        session_id: String,
    }
    let Named { session_id } = parse(method, &input)?;
    Ok((session_id, Data::json_text(&input)?))
}

/// Decodes a method's top-level arguments; what they carry for the backend (targets,
/// operations) is decoded by the component. A refusal names the deepest failing field
/// in plain words ([`explain`]).
pub(super) fn parse<T: serde::de::DeserializeOwned>(
    method: &Method,
    input: &Value,
) -> Result<T, Failure> {
    T::deserialize(input).map_err(|error| explain::input(method, input, &error.to_string()).into())
}

/// Decodes a transaction's arguments without copying its operations (they may carry
/// megabytes of file bytes): they are taken out while the rest is decoded, and put back
/// only to explain a refusal.
pub(super) fn parse_transaction(
    method: &Method,
    mut input: Value,
) -> Result<TransactionInput, Failure> {
    let operations = match input.get_mut("operations") {
        Some(Value::Array(items)) => Some(std::mem::take(items)),
        _ => None,
    };
    match TransactionInput::deserialize(&input) {
        Ok(mut parsed) => {
            parsed.operations = operations.unwrap_or_default();
            Ok(parsed)
        }
        Err(error) => {
            if let Some(operations) = operations {
                input["operations"] = Value::Array(operations);
            }
            Err(explain::input(method, &input, &error.to_string()).into())
        }
    }
}

/// How an edit's result shows the session: upstream's snapshot (an apply), or its state
/// without the capabilities, which no edit changes (an undo or redo, ours).
#[derive(Clone, Copy)]
enum Shown {
    Snapshot,
    State,
}
