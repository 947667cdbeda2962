//! The backend methods as the host serves them: validated input in, envelope out.
//!
//! Path policy, session bookkeeping and limits live here; project semantics are asked of
//! the session's component instance.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use ofgui_contracts::api::{
    DiskChanges, EventsInput, MaterializeMode, MaterializeSessionData, MaterializeSessionInput,
    NoInput, OpenSessionInput, OutlineInput, QueryEntityInput, ReadResourceBytesInput,
    ReadSessionStateInput, SaveSessionData, SaveSessionInput, SearchProjectInput, SessionInput,
    SessionSnapshot, TransactionInput,
};
use ofgui_contracts::capabilities::{Capabilities, RuntimeSettings};
use ofgui_contracts::error::{BackendError, ErrorCode, LockConflictKind, UnhandledReason};
use ofgui_contracts::methods::Method;
use serde::Deserialize as _;
use serde_json::{Value, json};
use tokio::sync::OnceCell;

use crate::bindings::{GuestReply, OpenRequest, PlannedWrites, SessionStatus};
use crate::envelope::{self, Call, Data, Envelope, Failure, SessionRef};
use crate::events::{EventLog, Notice, Recovered};
use crate::explain;
use crate::lock::{LockError, ProjectLock};
use crate::policy::{Blocked, Gate};
use crate::report;
use crate::runtime::{CallError, Instance, InstanceLimits, Runtime};
use crate::sandbox::{self, Refusal};
use crate::sessions::{AppliedBatch, Registry, ReserveError, Session};

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

impl ServiceConfig {
    /// The defaults of `ofgui-mcp-host` (32 sessions, 30 minutes idle expiry, the user
    /// cache directory) for projects in `roots`, which must be existing directories.
    pub fn with_roots(roots: &[PathBuf]) -> anyhow::Result<ServiceConfig> {
        Ok(ServiceConfig {
            roots: sandbox::canonical_roots(roots)?,
            max_sessions: 32,
            idle_timeout: Duration::from_secs(1800),
            cache_dir: crate::runtime::default_cache_dir(),
            limits: InstanceLimits::default(),
        })
    }
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
            self.events
                .notice(Notice::idle_closed(&session.id, timeout));
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

    /// How many calls this service has made into backend instances (0 before the first
    /// session), so tests can hold the host to one call per request.
    pub fn guest_calls(&self) -> u64 {
        self.runtime
            .get()
            .map_or(0, |runtime| runtime.guest_calls())
    }

    pub fn capabilities(&self) -> &Capabilities {
        &self.capabilities
    }

    /// What happens to sessions, as it happens (for resource subscriptions and log
    /// messages).
    pub fn events(&self) -> &EventLog {
        &self.events
    }

    /// The ids of the open sessions.
    pub fn session_ids(&self) -> Vec<String> {
        self.registry.ids()
    }

    /// Whether a session is open (without renewing its idle timer).
    pub fn is_open(&self, session_id: &str) -> bool {
        self.registry.contains(session_id)
    }

    /// Runs one method on arguments that passed the input budget.
    pub async fn call(&self, method: &Method, input: Value) -> Reply {
        self.call_gated(method, input, None).await
    }

    /// Runs one method; a host policy's `gate`, when given, is consulted after the input
    /// decoded and before the backend is called, and may refuse the call.
    pub async fn call_gated(&self, method: &Method, input: Value, gate: Option<&Gate>) -> Reply {
        let call = Call::start(method.stage);
        let session_id = input
            .get("sessionId")
            .and_then(Value::as_str)
            .map(str::to_string);
        let reference = SessionRef {
            id: session_id.as_deref(),
            revision: None,
        };
        let failed = |failure: Failure| Reply {
            envelope: call.failure(reference, failure),
            is_error: true,
        };
        // The policy sees the input as sent, and only once it decoded.
        let wire = gate.map(|_| input.clone());
        let request = match Request::decode(method, input) {
            Ok(request) => request,
            Err(failure) => return failed(failure),
        };
        if let (Some(gate), Some(wire)) = (gate, wire) {
            match gate.check(method, wire).await {
                Ok(()) => {}
                Err(Blocked::Denied(error)) => {
                    return Reply {
                        envelope: call.denied(reference, error),
                        is_error: true,
                    };
                }
                Err(Blocked::Failed(failure)) => return failed(failure),
            }
        }
        if let Request::OpenSession(input) = request {
            return self.open_session(&call, input).await;
        }
        match self.run(request).await {
            Ok((data, revision)) => Reply {
                envelope: call.success(
                    SessionRef {
                        id: session_id.as_deref(),
                        revision,
                    },
                    data,
                ),
                is_error: false,
            },
            Err(failure) => failed(failure),
        }
    }

    async fn run(&self, request: Request) -> Outcome {
        match request {
            Request::GetCapabilities => Ok((Data::typed(&self.capabilities)?, None)),
            Request::OpenSession(_) => Err(Failure::internal(&"openSession is run by call")),
            Request::GetSession(input) => {
                self.on_session(&input.session_id, async |session, instance| {
                    let status = instance.status().await?;
                    Ok((status, self.snapshot(session, &status)))
                })
                .await
                .and_then(|(status, snapshot)| Ok((Data::typed(&snapshot)?, Some(status.revision))))
            }
            Request::Outline(input) => {
                // The component decodes the whole input (scope, page, …) itself.
                let text = encode(&input)?;
                self.on_session(&input.session_id, async |_, instance| {
                    instance.outline(&text).await
                })
                .await
                .and_then(reply_data)
            }
            Request::Search(input) => {
                let text = encode(&input)?;
                self.on_session(&input.session_id, async |_, instance| {
                    instance.search(&text).await
                })
                .await
                .and_then(reply_data)
            }
            Request::Validate(input) => self
                .on_session(&input.session_id, async |_, instance| {
                    instance.validate().await
                })
                .await
                .and_then(reply_data),
            Request::Query(input) => {
                let target = encode(&input.target)?;
                self.on_session(&input.session_id, async |_, instance| {
                    instance.query_entity(&target).await
                })
                .await
                .and_then(reply_data)
            }
            Request::ReadState(input) => {
                let text = encode(&input)?;
                self.on_session(&input.session_id, async |_, instance| {
                    instance.read_state(&text).await
                })
                .await
                .and_then(reply_data)
            }
            Request::ReadBytes(input) => {
                let reply = self
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
            Request::Transaction { apply, input } => self.transaction(apply, input).await,
            Request::Events(input) => {
                let status = self
                    .on_session(&input.session_id, async |_, instance| {
                        instance.status().await
                    })
                    .await?;
                let data = self
                    .events
                    .read(
                        &input.session_id,
                        input.after.as_ref().map(|after| after.text()).as_deref(),
                        input.limit,
                    )
                    .map_err(Failure::from)?;
                Ok((Data::typed(&data)?, Some(status.revision)))
            }
            Request::Close(input) => self.close_session(&input.session_id).await,
            Request::Save(input) => {
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
            Request::Materialize(input) => {
                let write = Write::Materialize {
                    reason: input.reason,
                };
                self.write(&input.session_id, input.expected_revision, write)
                    .await
            }
        }
    }

    /// Preflights or applies a batch. The component decodes the operations; a refused
    /// write carries the session's state as the component reported it in the same call.
    async fn transaction(&self, apply: bool, input: TransactionInput) -> Outcome {
        let operations = encode(&input.operations)?;
        let expected = input.expected_revision;
        let Some(session) = self.registry.get(&input.session_id) else {
            return Err(BackendError::session_not_found(&input.session_id).into());
        };
        let result = self
            .on_session(&session.id, async |session, instance| {
                if apply {
                    let reply = instance.apply(expected, &operations).await?;
                    session.record(AppliedBatch {
                        expected_revision: expected,
                        operations: operations.clone(),
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
                let status = reply.status;
                self.events.emit(
                    &session.id,
                    &session.project.key,
                    "transaction.applied",
                    Some(status.revision),
                    Vec::new(),
                    Some(json!({ "operationCount": input.operations.len() })),
                );
                self.events
                    .changed(&session.id, status.revision, status.dirty);
                let data = Data::applied(&self.snapshot(&session, &status), reply.data)?;
                Ok((data, Some(status.revision)))
            }
            Ok(Applied::Preview(reply)) => reply_data(reply),
            Err(mut failure) => {
                explain_operation(&mut failure, &input.operations);
                self.after_rejection(apply, &session, &mut failure);
                Err(failure)
            }
        }
    }

    /// The files a save (or materialize) of a session would change at `expected`,
    /// without writing: what a person confirming the write is shown.
    pub async fn planned_writes(
        &self,
        session_id: &str,
        materialize: bool,
        expected: u64,
    ) -> Result<PlannedWrites, Failure> {
        self.on_session(session_id, async |_, instance| {
            instance.planned_writes(materialize, Some(expected)).await
        })
        .await
    }

    /// `targetPath` of a save may only name the opened project (its directory or its
    /// `.fairy` file): saving is not Save As.
    fn check_save_target(&self, session_id: &str, target: &str) -> Result<(), Failure> {
        let Some(session) = self.registry.get(session_id) else {
            return Err(BackendError::session_not_found(session_id).into());
        };
        let same = sandbox::resolve_project(target, &self.config.roots)
            .is_ok_and(|resolved| resolved.key == session.project.key);
        if same {
            return Ok(());
        }
        Err(BackendError::PathPolicyViolation {
            message: "saveSession writes only the project that was opened; targetPath names somewhere else. Nothing was written and the edits stay in the session. Save without targetPath.".into(),
            policy: "save_target".into(),
            attempted_path: target.to_string(),
            allowed_path: session.project.dir.to_string_lossy().into_owned(),
        }
        .into())
    }

    /// Saves or materializes a session; emits `save.started`, then `save.completed` or
    /// `save.failed`.
    async fn write(&self, session_id: &str, expected: Option<u64>, write: Write) -> Outcome {
        let Some(session) = self.registry.get(session_id) else {
            return Err(BackendError::session_not_found(session_id).into());
        };
        let materialize = matches!(write, Write::Materialize { .. });
        let emit = |kind: &str, revision: Option<u64>, diagnostics, data| {
            self.events.emit(
                &session.id,
                &session.project.key,
                kind,
                revision,
                diagnostics,
                data,
            )
        };
        emit(
            "save.started",
            None,
            Vec::new(),
            Some(json!({ "materialize": materialize })),
        );
        let result = self
            .on_session(&session.id, async |_, instance| {
                if materialize {
                    instance.materialize(expected).await
                } else {
                    instance.save(expected).await
                }
            })
            .await;
        match result {
            Ok(reply) => {
                session.saved(reply.status.revision);
                if !reply.recovered_paths.is_empty() {
                    let how = Recovered::CompletedOrUndone;
                    let notice = Notice::save_recovered(&session.id, how, &reply.recovered_paths);
                    self.events.notice(notice);
                }
                let snapshot = self.snapshot(&session, &reply.status);
                let disk = DiskChanges {
                    written_paths: reply.written_paths,
                    removed_paths: reply.removed_paths,
                    created_directories: reply.created_directories,
                    removed_directories: reply.removed_directories,
                    kept_directories: reply.kept_directories,
                    recovered_paths: reply.recovered_paths,
                    write_verified: reply.write_verified,
                };
                emit(
                    "save.completed",
                    Some(reply.status.revision),
                    Vec::new(),
                    Some(json!({
                        "writtenPaths": disk.written_paths,
                        "removedPaths": disk.removed_paths,
                    })),
                );
                self.events
                    .changed(&session.id, reply.status.revision, reply.status.dirty);
                let data = match write {
                    Write::Save => Data::typed(&SaveSessionData {
                        session_id: snapshot.session_id,
                        canonical_project_path: snapshot.canonical_project_path,
                        revision: snapshot.revision,
                        last_saved_revision: snapshot.last_saved_revision,
                        dirty: snapshot.dirty,
                        uam_fidelity: snapshot.uam_fidelity,
                        lock_held: snapshot.lock_held,
                        capabilities: snapshot.capabilities,
                        disk,
                    })?,
                    Write::Materialize { reason } => Data::typed(&MaterializeSessionData {
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
                        materialize_revision: reply.status.revision,
                        save_revision: reply.status.last_saved_revision,
                        skipped_paths: reply.skipped_paths,
                        diagnostics: Vec::new(),
                        disk,
                    })?,
                };
                Ok((data, Some(reply.status.revision)))
            }
            Err(mut failure) => {
                if let Some(status) = failure.status {
                    failure.session = Some(self.snapshot(&session, &status));
                }
                let diagnostics = if failure.diagnostics.is_empty() {
                    vec![ofgui_contracts::envelope::BackendDiagnostic::error(
                        failure.error.code().as_str(),
                        failure.error.message(),
                    )]
                } else {
                    failure.diagnostics.clone()
                };
                emit(
                    "save.failed",
                    failure.status.map(|s| s.revision),
                    diagnostics,
                    None,
                );
                Err(failure)
            }
        }
    }

    /// Attaches the session's state to a refused write and, for applies, records a
    /// `transaction.rejected` event with the same diagnostics.
    fn after_rejection(&self, apply: bool, session: &Session, failure: &mut Failure) {
        let authoring = matches!(
            failure.error.code(),
            ErrorCode::StaleWrite
                | ErrorCode::TransactionUnsupported
                | ErrorCode::SelectorAmbiguity
        );
        let Some(status) = failure.status.filter(|_| authoring) else {
            return;
        };
        failure.session = Some(self.snapshot(session, &status));
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
        self.events.emit(
            &session.id,
            &session.project.key,
            "transaction.rejected",
            Some(status.revision),
            diagnostics,
            None,
        );
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
            Err(CallError::Backend(error)) => Err((*error).into()),
            Err(other) => {
                tracing::error!(session = %session.id, "backend instance failed: {other}");
                slot.take();
                if let Some((instance, status)) = self.restore(&session).await {
                    *slot = Some(instance);
                    self.events
                        .notice(Notice::session_rebuilt(&session.id, status.revision));
                    let mut failure = Failure::from(restored(&other, status.revision));
                    failure.status = Some(status);
                    return Err(failure);
                }
                self.registry.remove(&session.id);
                self.events.forget(&session.id);
                self.events.notice(Notice::session_lost(&session.id));
                Err(unhandled(&other).into())
            }
        }
    }

    /// Rebuilds a session whose instance failed: a fresh instance reads the project again
    /// and the batches applied since open are replayed in order. Gives the instance and
    /// its status, or `None` if any step fails (then the session is closed).
    async fn restore(&self, session: &Session) -> Option<(Instance, SessionStatus)> {
        let gave_up = |why: &dyn std::fmt::Display| {
            tracing::warn!(session = %session.id, "the session cannot be rebuilt: {why}");
        };
        let Some((saved_revision, batches)) = session.replay() else {
            gave_up(&"its applied batches outgrew the journal");
            return None;
        };
        let (mut instance, mut status) = self
            .instantiate(&session.id, "", &session.project, saved_revision)
            .await
            .map_err(|failure| gave_up(&failure.error.message()))
            .ok()?;
        for batch in batches {
            if batch.expected_revision != status.revision {
                gave_up(&"the project on disk no longer matches its applied batches");
                return None;
            }
            status = instance
                .apply(batch.expected_revision, &batch.operations)
                .await
                .map_err(|error| gave_up(&error))
                .ok()?
                .status;
        }
        Some((instance, status))
    }

    fn snapshot(&self, session: &Session, status: &SessionStatus) -> SessionSnapshot {
        snapshot(
            &self.capabilities,
            &session.id,
            &session.project,
            status,
            session.lock.is_some(),
        )
    }

    async fn open_session(&self, call: &Call, input: OpenSessionInput) -> Reply {
        let session_id = uuid::Uuid::new_v4().to_string();
        let opened = self
            .open(&session_id, &input.project_path)
            .await
            .and_then(|snapshot| Ok((Data::typed(&snapshot)?, snapshot.revision)));
        match opened {
            Ok((data, revision)) => Reply {
                envelope: call.success(SessionRef::new(&session_id, Some(revision)), data),
                is_error: false,
            },
            Err(failure) => Reply {
                envelope: call.failure(SessionRef::default(), failure),
                is_error: true,
            },
        }
    }

    async fn open(&self, session_id: &str, project_path: &str) -> Result<SessionSnapshot, Failure> {
        let project = sandbox::resolve_project(project_path, &self.config.roots)
            .map_err(|refusal| refused(refusal, project_path))?;
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
                    lock_file_path: None,
                },
            })
        })?;
        let project_lock = match ProjectLock::acquire(&project.dir, session_id, &project.key) {
            Ok(held) => {
                if let Some(pid) = held.taken_over_from() {
                    let notice = Notice::lock_taken_over(session_id, held.path(), pid);
                    self.events.notice(notice);
                }
                Some(held)
            }
            Err(LockError::Held { path, holder }) => {
                self.registry.release(&project.key);
                let by = holder
                    .map(|pid| format!("process {pid}"))
                    .unwrap_or_else(|| "another program".into());
                return Err(BackendError::LockConflict {
                    message: format!(
                        "This project is open in another server ({by} holds its lock file); close that session or server first. A lock left by a process that has exited is taken over automatically."
                    ),
                    kind: LockConflictKind::AdvisoryLockConflict,
                    canonical_path_key: project.key.clone(),
                    holder_session_id: None,
                    lock_file_path: Some(path.to_string_lossy().into_owned()),
                }
                .into());
            }
            Err(error @ LockError::Unavailable { .. }) => {
                // Opening still works; other processes are just not kept out.
                tracing::warn!("project opened without its advisory lock: {error}");
                None
            }
        };
        report::progress("reading the project").await;
        match self
            .instantiate(session_id, project_path, &project, 0)
            .await
        {
            Ok((instance, status)) => {
                let snapshot = snapshot(
                    &self.capabilities,
                    session_id,
                    &project,
                    &status,
                    project_lock.is_some(),
                );
                self.events.emit(
                    session_id,
                    &project.key,
                    "session.opened",
                    Some(status.revision),
                    Vec::new(),
                    None,
                );
                self.events
                    .changed(session_id, status.revision, status.dirty);
                self.registry
                    .insert(session_id.to_string(), project, instance, project_lock);
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
        revision: u64,
    ) -> Result<(Instance, SessionStatus), Failure> {
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
        if let Some((how, paths)) = opened.recovery.recovered() {
            self.events
                .notice(Notice::save_recovered(session_id, how, paths));
        }
        Ok((opened.instance, opened.status))
    }

    async fn close_session(&self, session_id: &str) -> Outcome {
        let Some(session) = self.registry.get(session_id) else {
            return Err(BackendError::session_not_found(session_id).into());
        };
        // Wait for any call in flight on this session, then drop the instance.
        let mut slot = session.instance.lock().await;
        let unsaved = match slot.as_mut() {
            Some(instance) => instance.status().await.ok().filter(|status| status.dirty),
            None => None,
        };
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
                    "The session had unsaved edits ({lost}, applied after the last save at revision {}); they were discarded. Save with saveSession before closing to keep edits.",
                    status.last_saved_revision
                ),
            );
        }
        Ok((data, None))
    }
}

/// Which write a save call asked for.
enum Write {
    Save,
    Materialize { reason: Option<String> },
}

/// What a transaction call gave back.
enum Applied {
    Batch(GuestReply),
    Preview(GuestReply),
}

/// A session's state as `openSession` and `getSession` report it.
fn snapshot(
    capabilities: &Capabilities,
    session_id: &str,
    project: &sandbox::ResolvedProject,
    status: &SessionStatus,
    lock_held: bool,
) -> SessionSnapshot {
    SessionSnapshot {
        session_id: session_id.to_string(),
        canonical_project_path: project.dir.to_string_lossy().into_owned(),
        revision: status.revision,
        last_saved_revision: status.last_saved_revision,
        dirty: status.dirty,
        uam_fidelity: status.fidelity.to_contract(),
        lock_held,
        capabilities: capabilities.clone(),
    }
}

/// A refused project path as the contract error `openSession` returns.
fn refused(refusal: Refusal, project_path: &str) -> Failure {
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

/// A reply's data for the envelope, with the revision it was computed at.
fn reply_data(reply: GuestReply) -> Result<(Data, Option<u64>), Failure> {
    let revision = reply.status.revision;
    Ok((Data::text(reply.data, reply.diagnostics)?, Some(revision)))
}

/// JSON text of a value to forward to the component.
fn encode<T: serde::Serialize>(value: &T) -> Result<String, Failure> {
    serde_json::to_string(value).map_err(|cause| Failure::internal(&cause))
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

/// Puts the component's refusal of a malformed operation in plain words, at the deepest
/// failing field, with the operation's kind and schema URI.
fn explain_operation(failure: &mut Failure, operations: &[Value]) {
    let BackendError::InvalidInput {
        path: Some(path), ..
    } = &failure.error
    else {
        return;
    };
    let index = path
        .strip_prefix("/operations/")
        .and_then(|rest| rest.split('/').next())
        .and_then(|index| index.parse::<usize>().ok());
    if let Some(operation) = index.and_then(|index| Some((index, operations.get(index)?))) {
        let refused = std::mem::replace(
            &mut failure.error,
            BackendError::invalid_input(String::new(), None),
        );
        failure.error = explain::operation(operation.0, operation.1, refused);
        // meta.diagnostics mirror the error; the component's words must not stay there.
        failure.diagnostics.clear();
    }
}

/// Decodes a method's top-level arguments; what they carry for the backend (targets,
/// operations) is decoded by the component. A refusal names the deepest failing field
/// in plain words ([`explain`]).
/// A method's input, decoded strictly: what [`Service::run`] runs.
enum Request {
    GetCapabilities,
    OpenSession(OpenSessionInput),
    GetSession(SessionInput),
    Outline(OutlineInput),
    Search(SearchProjectInput),
    Validate(SessionInput),
    Query(QueryEntityInput),
    ReadState(ReadSessionStateInput),
    ReadBytes(ReadResourceBytesInput),
    Transaction {
        apply: bool,
        input: TransactionInput,
    },
    Events(EventsInput),
    Close(SessionInput),
    Save(SaveSessionInput),
    Materialize(MaterializeSessionInput),
}

impl Request {
    fn decode(method: &Method, input: Value) -> Result<Request, Failure> {
        Ok(match method.name {
            "getCapabilities" => {
                parse::<NoInput>(method, &input)?;
                Request::GetCapabilities
            }
            "openSession" => Request::OpenSession(parse(method, &input)?),
            "getSession" => Request::GetSession(parse(method, &input)?),
            "getProjectOutline" => Request::Outline(parse(method, &input)?),
            "searchProject" => Request::Search(parse(method, &input)?),
            "validateSession" => Request::Validate(parse(method, &input)?),
            "queryEntity" => Request::Query(parse(method, &input)?),
            "readSessionState" => Request::ReadState(parse(method, &input)?),
            "readResourceBytes" => Request::ReadBytes(parse(method, &input)?),
            "preflightTransaction" | "applyTransaction" => Request::Transaction {
                apply: method.name == "applyTransaction",
                input: parse_transaction(method, input)?,
            },
            "getEvents" => Request::Events(parse(method, &input)?),
            "closeSession" => Request::Close(parse(method, &input)?),
            "saveSession" => Request::Save(parse(method, &input)?),
            "materializeSession" => Request::Materialize(parse(method, &input)?),
            other => {
                return Err(BackendError::UnknownTool {
                    message: format!("No method named {other} is served."),
                    tool_name: other.to_string(),
                }
                .into());
            }
        })
    }
}

fn parse<T: serde::de::DeserializeOwned>(method: &Method, input: &Value) -> Result<T, Failure> {
    T::deserialize(input).map_err(|error| explain::input(method, input, &error.to_string()).into())
}

/// Decodes a transaction's arguments without copying its operations (they may carry
/// megabytes of file bytes): they are taken out while the rest is decoded, and put back
/// only to explain a refusal.
fn parse_transaction(method: &Method, mut input: Value) -> Result<TransactionInput, Failure> {
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
