//! The backend methods as the host serves them: validated input in, envelope out.
//!
//! Path policy, session bookkeeping and limits live here; project semantics are asked of
//! the session's component instance.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use ofgui_contracts::api::ValidationReport;
use ofgui_contracts::api::{
    NoInput, OpenSessionInput, QueryEntityInput, ReadResourceBytesInput, ReadSessionStateInput,
    SessionInput, SessionSnapshot, UamFidelity,
};
use ofgui_contracts::capabilities::{Capabilities, RuntimeSettings};
use ofgui_contracts::catalog::Owner;
use ofgui_contracts::diagnostics::Severity;
use ofgui_contracts::envelope::{BackendDiagnostic, DiagnosticSeverity};
use ofgui_contracts::error::{BackendError, LockConflictKind, UnhandledReason};
use ofgui_contracts::methods::Method;
use serde_json::{Value, json};
use tokio::sync::OnceCell;

use crate::bindings;
use crate::envelope::{self, Call, Data, Envelope, Failure, SessionRef};
use crate::events::EventLog;
use crate::runtime::{CallError, Instance, InstanceLimits, Runtime};
use crate::sandbox::{self, Refusal};
use crate::sessions::{AppliedBatch, Registry, ReserveError, Session};
use ofgui_contracts::api::{EventsInput, TransactionInput};
use ofgui_contracts::ops::{MAX_OPERATIONS, Operation};
use ofgui_contracts::strict;

/// Server settings the service needs.
#[derive(Clone, Debug)]
pub struct ServiceConfig {
    /// Canonical allowed project roots.
    pub roots: Vec<PathBuf>,
    pub max_sessions: u32,
    /// `Duration::ZERO` disables idle expiry.
    pub idle_timeout: Duration,
    pub cache_dir: Option<PathBuf>,
    pub limits: InstanceLimits,
}

/// The backend service shared by all MCP requests.
pub struct Service {
    config: ServiceConfig,
    runtime: OnceCell<Arc<Runtime>>,
    registry: Registry,
    capabilities: Capabilities,
    events: EventLog,
}

/// The envelope of one call and whether it is a failure.
pub struct Reply {
    pub envelope: Envelope,
    pub is_error: bool,
}

/// A method's data and the revision to report, or its failure.
type Outcome = Result<(Data, Option<u64>), Failure>;

impl Service {
    pub fn new(config: ServiceConfig) -> Arc<Service> {
        let capabilities = Capabilities::new(RuntimeSettings {
            max_sessions: config.max_sessions,
            idle_session_timeout_ms: config.idle_timeout.as_millis() as u64,
        });
        Arc::new(Service {
            registry: Registry::new(config.max_sessions),
            runtime: OnceCell::new(),
            capabilities,
            config,
            events: EventLog::default(),
        })
    }

    /// Loads the component in the background so the first open does not wait for it.
    pub fn warm_up(self: &Arc<Self>) {
        let service = self.clone();
        tokio::spawn(async move {
            if let Err(error) = service.runtime().await {
                tracing::error!("backend component unavailable: {error:#}");
            }
        });
    }

    /// Closes clean sessions that have been idle for too long.
    pub fn start_idle_expiry(self: &Arc<Self>) {
        let timeout = self.config.idle_timeout;
        if timeout.is_zero() {
            return;
        }
        let service = Arc::downgrade(self);
        let period = (timeout / 4).clamp(Duration::from_millis(10), Duration::from_secs(60));
        tokio::spawn(async move {
            let mut ticker = tokio::time::interval(period);
            loop {
                ticker.tick().await;
                let Some(service) = service.upgrade() else {
                    return;
                };
                for session in service.registry.idle(timeout) {
                    service.expire(&session, timeout).await;
                }
            }
        });
    }

    async fn expire(&self, session: &Arc<Session>, timeout: Duration) {
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
            self.events.forget(&session.id);
            tracing::info!(session = %session.id, "closed idle session");
        }
    }

    async fn runtime(&self) -> anyhow::Result<Arc<Runtime>> {
        self.runtime
            .get_or_try_init(|| async {
                let cache_dir = self.config.cache_dir.clone();
                let limits = self.config.limits;
                tokio::task::spawn_blocking(move || {
                    let started = std::time::Instant::now();
                    let runtime = Runtime::new(cache_dir.as_deref(), limits);
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

    pub fn capabilities(&self) -> &Capabilities {
        &self.capabilities
    }

    /// Runs one method with already-validated input.
    pub async fn call(&self, method: &Method, input: Value) -> Reply {
        let call = Call::start(method.stage);
        let session_id = input
            .get("sessionId")
            .and_then(Value::as_str)
            .map(str::to_string);
        if method.name == "openSession" {
            return match parse::<OpenSessionInput>(input) {
                Ok(input) => self.open_session(&call, input).await,
                Err(failure) => Reply {
                    envelope: call.failure(SessionRef::default(), failure),
                    is_error: true,
                },
            };
        }
        let outcome = self.dispatch(method, input).await;
        let reference = SessionRef {
            id: session_id.as_deref(),
            revision: None,
        };
        match outcome {
            Ok((data, revision)) => Reply {
                envelope: call.success(
                    SessionRef {
                        revision,
                        ..reference
                    },
                    data,
                ),
                is_error: false,
            },
            Err(failure) => {
                let revision = match session_id.as_deref() {
                    Some(id) => self.current_revision(id).await,
                    None => None,
                };
                Reply {
                    envelope: call.failure(
                        SessionRef {
                            revision,
                            ..reference
                        },
                        failure,
                    ),
                    is_error: true,
                }
            }
        }
    }

    async fn dispatch(&self, method: &Method, input: Value) -> Outcome {
        match method.name {
            "getCapabilities" => {
                parse::<NoInput>(input)?;
                Ok((Data::value(json!(self.capabilities)), None))
            }
            "getSession" => {
                let input = parse::<SessionInput>(input)?;
                self.on_session(&input.session_id, async |session, instance| {
                    let status = instance.status().await?;
                    let snapshot = self.snapshot(&session.id, &session.project.dir, &status);
                    Ok((Data::value(json!(snapshot)), Some(status.revision)))
                })
                .await
            }
            "getProjectOutline" => {
                let input = parse::<SessionInput>(input)?;
                self.on_session(&input.session_id, async |_, instance| {
                    json_with_revision(instance.outline().await?)
                })
                .await
            }
            "validateSession" => {
                let input = parse::<SessionInput>(input)?;
                self.on_session(&input.session_id, async |_, instance| {
                    let (mut data, revision) = json_with_revision(instance.validate().await?)?;
                    data.diagnostics = validation_diagnostics(&data.value);
                    Ok((
                        data,
                        revision.or(instance.status().await.ok().map(|s| s.revision)),
                    ))
                })
                .await
            }
            "queryEntity" => {
                let input = parse::<QueryEntityInput>(input)?;
                let target = input.target.to_string();
                self.on_session(&input.session_id, async |_, instance| {
                    json_with_revision(instance.query_entity(&target).await?)
                })
                .await
            }
            "readSessionState" => {
                let input = parse::<ReadSessionStateInput>(input)?;
                self.on_session(&input.session_id, async |_, instance| {
                    json_with_revision(instance.read_state(input.expected_revision).await?)
                })
                .await
            }
            "readResourceBytes" => {
                let input = parse::<ReadResourceBytesInput>(input)?;
                self.on_session(&input.session_id, async |_, instance| {
                    let bytes = instance
                        .read_resource_bytes(
                            input.expected_revision,
                            &input.selector.package_id,
                            &input.selector.resource_id,
                        )
                        .await?;
                    let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
                    let data = envelope::object([
                        ("sessionId", Value::String(input.session_id.clone())),
                        ("revision", json!(input.expected_revision)),
                        ("selector", json!(input.selector)),
                        ("sourceBytes", Value::String(encoded)),
                    ]);
                    Ok((Data::value(data), Some(input.expected_revision)))
                })
                .await
            }
            "preflightTransaction" | "applyTransaction" => {
                let input = parse::<TransactionInput>(input)?;
                self.transaction(method.name == "applyTransaction", input)
                    .await
            }
            "getEvents" => {
                let input = parse::<EventsInput>(input)?;
                self.on_session(&input.session_id, async |_, instance| {
                    Ok(instance.status().await?.revision)
                })
                .await
                .and_then(|revision| {
                    let data = self
                        .events
                        .read(&input.session_id, input.after.as_deref(), input.limit)
                        .map_err(Failure::from)?;
                    Ok((Data::value(json!(data)), Some(revision)))
                })
            }
            "closeSession" => {
                let input = parse::<SessionInput>(input)?;
                self.close_session(&input.session_id).await
            }
            other => Err(BackendError::UnknownTool {
                message: format!("No method named {other} is served."),
                tool_name: other.to_string(),
            }
            .into()),
        }
    }

    /// Preflights or applies a batch; authoring failures carry the session's state.
    async fn transaction(&self, apply: bool, input: TransactionInput) -> Outcome {
        if input.operations.is_empty() || input.operations.len() > MAX_OPERATIONS {
            return Err(BackendError::invalid_input(
                format!("operations must hold 1 to {MAX_OPERATIONS} operations."),
                Some("/operations".into()),
            )
            .into());
        }
        for (index, operation) in input.operations.iter().enumerate() {
            strict::from_value::<Operation>(operation, &format!("/operations/{index}")).map_err(
                |error| {
                    Failure::from(BackendError::invalid_input(
                        format!("Operation {index} is malformed: {}", error.message),
                        Some(error.path),
                    ))
                },
            )?;
        }
        let operations = serde_json::to_string(&input.operations).unwrap_or_default();
        let expected = input.expected_revision;
        let result = self
            .on_session(&input.session_id, async |session, instance| {
                if apply {
                    let status = instance.apply(expected, &operations).await?;
                    session.record(AppliedBatch {
                        expected_revision: expected,
                        operations: operations.clone(),
                    });
                    self.events.emit(
                        &session.id,
                        &session.project.key,
                        "transaction.applied",
                        Some(status.revision),
                        Vec::new(),
                        Some(json!({ "operationCount": input.operations.len() })),
                    );
                    let snapshot = self.snapshot(&session.id, &session.project.dir, &status);
                    Ok((Data::value(json!(snapshot)), Some(status.revision)))
                } else {
                    json_with_revision(instance.preflight(expected, &operations).await?)
                }
            })
            .await;
        let mut failure = match result {
            Ok(outcome) => return Ok(outcome),
            Err(failure) => failure,
        };
        let authoring = matches!(
            failure.code(),
            "stale_write" | "transaction_unsupported" | "selector_ambiguity"
        );
        if authoring {
            self.after_rejection(apply, &input.session_id, &mut failure)
                .await;
        }
        Err(failure)
    }

    /// Attaches the session's state to a refused write and, for applies, records a
    /// `transaction.rejected` event with the same diagnostics.
    async fn after_rejection(&self, apply: bool, session_id: &str, failure: &mut Failure) {
        let Some(session) = self.registry.get(session_id) else {
            return;
        };
        let mut slot = session.instance.lock().await;
        let Some(instance) = slot.as_mut() else {
            return;
        };
        let Ok(status) = instance.status().await else {
            return;
        };
        failure.session = Some(json!(self.snapshot(
            &session.id,
            &session.project.dir,
            &status
        )));
        if failure.code() == "stale_write" {
            // The component does not know where its project lives; the host does.
            failure
                .error
                .insert("canonicalPathKey".into(), json!(session.project.key));
        }
        if !apply {
            return;
        }
        let diagnostics = if failure.diagnostics.is_empty() {
            let message = failure
                .error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or_default();
            vec![BackendDiagnostic::error(failure.code(), message)]
        } else {
            failure.diagnostics.clone()
        };
        let diagnostics = diagnostics
            .into_iter()
            .map(|d| d.enriched(Some(&session.id)))
            .collect();
        self.events.emit(
            &session.id,
            &session.project.key,
            "transaction.rejected",
            Some(status.revision),
            diagnostics,
            None,
        );
    }

    async fn current_revision(&self, session_id: &str) -> Option<u64> {
        let session = self.registry.get(session_id)?;
        let mut slot = session.instance.lock().await;
        let instance = slot.as_mut()?;
        instance.status().await.ok().map(|status| status.revision)
    }

    /// Runs `body` on the named session's instance. An instance that traps or runs past
    /// its deadline is replaced by a rebuilt one ([`Service::restore`]), or dropped together
    /// with its session if it cannot be rebuilt.
    async fn on_session<T>(
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
            Err(CallError::Backend(error)) => Err(error.into()),
            Err(other) => {
                tracing::error!(session = %session.id, "backend instance failed: {other}");
                slot.take();
                if let Some((instance, revision)) = self.restore(&session).await {
                    *slot = Some(instance);
                    tracing::warn!(session = %session.id, revision, "session restored on a fresh backend instance");
                    return Err(restored(&other, revision).into());
                }
                self.registry.remove(&session.id);
                self.events.forget(&session.id);
                Err(unhandled(&other).into())
            }
        }
    }

    /// Rebuilds a session whose instance failed: a fresh instance reads the project again
    /// and the batches applied since open are replayed in order. Gives the instance and
    /// its revision, or `None` if any step fails (then the session is closed).
    async fn restore(&self, session: &Session) -> Option<(Instance, u64)> {
        let batches = session.replay()?;
        let (mut instance, status) = self
            .instantiate(&session.id, "", &session.project)
            .await
            .ok()?;
        let mut revision = status.revision;
        for batch in batches {
            if batch.expected_revision != revision {
                return None;
            }
            revision = instance
                .apply(batch.expected_revision, &batch.operations)
                .await
                .ok()?
                .revision;
        }
        Some((instance, revision))
    }

    fn snapshot(
        &self,
        session_id: &str,
        dir: &std::path::Path,
        status: &bindings::SessionStatus,
    ) -> SessionSnapshot {
        SessionSnapshot {
            session_id: session_id.to_string(),
            canonical_project_path: dir.to_string_lossy().into_owned(),
            revision: status.revision,
            last_saved_revision: status.last_saved_revision,
            dirty: status.dirty,
            uam_fidelity: match status.fidelity {
                bindings::UamFidelity::Full => UamFidelity::Full,
                bindings::UamFidelity::Unsupported => UamFidelity::Unsupported,
            },
            lock_held: true,
            capabilities: self.capabilities.clone(),
        }
    }

    async fn open_session(&self, call: &Call, input: OpenSessionInput) -> Reply {
        let session_id = uuid::Uuid::new_v4().to_string();
        match self.open(&session_id, &input.project_path).await {
            Ok(snapshot) => Reply {
                envelope: call.success(
                    SessionRef::new(&session_id, Some(snapshot.revision)),
                    Data::value(json!(snapshot)),
                ),
                is_error: false,
            },
            Err(failure) => Reply {
                envelope: call.failure(SessionRef::default(), failure),
                is_error: true,
            },
        }
    }

    async fn open(&self, session_id: &str, project_path: &str) -> Result<SessionSnapshot, Failure> {
        let project =
            sandbox::resolve_project(project_path, &self.config.roots).map_err(|refusal| {
                match refusal {
                    Refusal::NotAllowed => Failure::from(BackendError::ProjectRootNotAllowed {
                        message: "Project path is outside the allowed project roots.".into(),
                        project_path: project_path.to_string(),
                    }),
                    Refusal::Open(reason, message) => BackendError::ProjectOpenFailed {
                        message,
                        reason,
                        project_path: project_path.to_string(),
                    }
                    .into(),
                }
            })?;
        self.registry.reserve(session_id, &project.key).map_err(|error| {
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
                    canonical_path_key: project.key.clone(),
                    holder_session_id: holder,
                },
            })
        })?;
        let opened = self.instantiate(session_id, project_path, &project).await;
        match opened {
            Ok((instance, status)) => {
                let snapshot = self.snapshot(session_id, &project.dir, &status);
                self.events.emit(
                    session_id,
                    &project.key,
                    "session.opened",
                    Some(status.revision),
                    Vec::new(),
                    None,
                );
                self.registry
                    .insert(session_id.to_string(), project, instance);
                tracing::info!(session = %session_id, "opened session");
                Ok(snapshot)
            }
            Err(failure) => {
                self.registry.release(&project.key);
                Err(failure)
            }
        }
    }

    async fn instantiate(
        &self,
        session_id: &str,
        project_path: &str,
        project: &sandbox::ResolvedProject,
    ) -> Result<(Instance, bindings::SessionStatus), Failure> {
        sandbox::check_project_entries(project).map_err(|refusal| match refusal {
            Refusal::Open(reason, message) => Failure::from(BackendError::ProjectOpenFailed {
                message,
                reason,
                project_path: project_path.to_string(),
            }),
            Refusal::NotAllowed => BackendError::ProjectRootNotAllowed {
                message: "Project path is outside the allowed project roots.".into(),
                project_path: project_path.to_string(),
            }
            .into(),
        })?;
        let runtime = self.runtime().await.map_err(|error| {
            tracing::error!("backend component unavailable: {error:#}");
            Failure::from(BackendError::unhandled(UnhandledReason::Internal))
        })?;
        let mut instance =
            runtime
                .open(session_id, project)
                .await
                .map_err(|error| match error {
                    CallError::Backend(error) => {
                        let mut failure = Failure::from(error);
                        failure
                            .error
                            .insert("projectPath".into(), json!(project_path));
                        failure
                    }
                    other => {
                        tracing::error!("opening {} failed: {other}", project.dir.display());
                        Failure::from(unhandled(&other))
                    }
                })?;
        let status = instance
            .status()
            .await
            .map_err(|error| Failure::from(unhandled(&error)))?;
        Ok((instance, status))
    }

    async fn close_session(&self, session_id: &str) -> Outcome {
        let Some(session) = self.registry.get(session_id) else {
            return Err(BackendError::session_not_found(session_id).into());
        };
        // Wait for any call in flight on this session, then drop the instance.
        let mut slot = session.instance.lock().await;
        self.events.emit(
            session_id,
            &session.project.key,
            "session.closeRequested",
            None,
            Vec::new(),
            None,
        );
        self.registry.remove(session_id);
        if let Some(instance) = slot.take() {
            instance.close().await;
        }
        self.events.emit(
            session_id,
            &session.project.key,
            "session.closed",
            None,
            Vec::new(),
            None,
        );
        // A closed session's events go with it, as upstream does.
        self.events.forget(session_id);
        tracing::info!(session = %session_id, "closed session");
        Ok((
            Data::value(json!({ "sessionId": session_id, "closed": true })),
            None,
        ))
    }
}

/// The failure of a call whose session was restored afterwards.
fn restored(error: &CallError, revision: u64) -> BackendError {
    let (what, reason) = match error {
        CallError::Deadline => ("ran past its deadline", UnhandledReason::Deadline),
        _ => ("stopped unexpectedly", UnhandledReason::Trap),
    };
    BackendError::BackendUnhandledError {
        message: format!(
            "Backend tool execution failed: the backend {what} on this call, which changed nothing. The session was restored on a fresh backend (the project read again and its applied transactions replayed) and is at revision {revision}; re-read before retrying."
        ),
        reason,
    }
}

fn unhandled(error: &CallError) -> BackendError {
    BackendError::unhandled(match error {
        CallError::Deadline => UnhandledReason::Deadline,
        CallError::Trap(_) => UnhandledReason::Trap,
        CallError::Backend(_) | CallError::Setup(_) => UnhandledReason::Internal,
    })
}

fn parse<T: serde::de::DeserializeOwned>(input: Value) -> Result<T, Failure> {
    serde_json::from_value(input)
        .map_err(|error| BackendError::invalid_input(error.to_string(), None).into())
}

/// Mirrors a validation report's findings into `meta.diagnostics`, owned by core.validation;
/// the report itself is returned unaltered.
fn validation_diagnostics(report: &Value) -> Vec<BackendDiagnostic> {
    let Ok(report) = serde_json::from_value::<ValidationReport>(report.clone()) else {
        return Vec::new();
    };
    report
        .diagnostics
        .into_iter()
        .map(|finding| {
            let mut diagnostic = BackendDiagnostic::error(finding.code.as_str(), finding.message);
            diagnostic.severity = match finding.severity {
                Severity::Error => DiagnosticSeverity::Error,
                Severity::Warning => DiagnosticSeverity::Warning,
                Severity::Info => DiagnosticSeverity::Info,
            };
            diagnostic.path = Some(finding.path);
            diagnostic.owner = Some(Owner::CoreValidation);
            diagnostic
        })
        .collect()
}

/// Parses a backend JSON result and picks its revision for `meta`.
fn json_with_revision(text: String) -> Result<(Data, Option<u64>), CallError> {
    let data = Data::parsed(text);
    // A preview reports the revision it was computed at as `baseRevision`.
    let revision = ["revision", "baseRevision"]
        .iter()
        .find_map(|key| data.value.get(key).and_then(Value::as_u64));
    Ok((data, revision))
}
