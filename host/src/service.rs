//! The backend methods as the host serves them: validated input in, envelope out.
//!
//! Path policy, session bookkeeping and limits live here; project semantics are asked of
//! the session's component instance.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use base64::Engine as _;
use ofgui_contracts::api::{
    DiskChanges, EventsInput, MaterializeMode, MaterializeSessionData, MaterializeSessionInput,
    NoInput, OpenProjectSessionInput, OpenSessionInput, OutlineInput, QueryEntityInput,
    ReadResourceBytesInput, ReadSessionStateInput, RefreshCacheInput, RenderComponentInput,
    SaveSessionData, SaveSessionInput, SearchProjectInput, SessionInput, SessionSnapshot,
    TransactionInput,
};
use ofgui_contracts::capabilities::{Capabilities, RuntimeSettings};
use ofgui_contracts::error::{
    BackendError, DiskConflict, DiskConflictKind, ErrorCode, LockConflictKind, SaveFailureReason,
    TargetPolicy, UnhandledReason,
};
use ofgui_contracts::methods::Method;
use serde::Deserialize as _;
use serde_json::{Value, json};
use tokio::sync::OnceCell;

use crate::bindings::{
    DocumentRequest, GuestReply, OpenRequest, PlannedWrites, SaveReply, SessionStatus,
};
use crate::cache::Cache;
use crate::envelope::{self, Call, Data, Envelope, Failure, SessionRef};
use crate::events::{EventLog, Happened, Notice, Recovered};
use crate::explain;
use crate::lock::{LockError, ProjectLock};
use crate::policy::{Blocked, Gate};
use crate::report;
use crate::runtime::{CallError, Instance, InstanceLimits, Runtime};
use crate::sandbox::{self, Refusal, Target, TargetRefusal};
use crate::sessions::{AppliedBatch, Home, Registry, ReserveError, Session};

/// Counts a call as running until it is dropped, however the call ends.
struct InFlight<'a>(&'a AtomicUsize);

impl<'a> InFlight<'a> {
    fn enter(counter: &'a AtomicUsize) -> InFlight<'a> {
        counter.fetch_add(1, Ordering::SeqCst);
        InFlight(counter)
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

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
    /// Calls running now, for a server that drains them before it stops.
    in_flight: AtomicUsize,
    registry: Registry,
    capabilities: Capabilities,
    events: EventLog,
    cache: Cache,
}

/// The envelope of one call and whether it is a failure.
pub struct Reply {
    pub envelope: Envelope,
    pub is_error: bool,
    /// A PNG to send beside the envelope as image content (a render).
    pub image: Option<Vec<u8>>,
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
            in_flight: AtomicUsize::new(0),
            capabilities,
            config,
            events: EventLog::default(),
            cache: Cache::default(),
        })
    }

    /// A service whose sessions run on an already loaded component, shared with other
    /// services (the tenants of one HTTP server share one engine and compiled code).
    pub fn with_runtime(config: ServiceConfig, runtime: Arc<Runtime>) -> Arc<Service> {
        let service = Service::new(config);
        // A fresh cell: setting it cannot fail.
        let _ = service.runtime.set(runtime);
        service
    }

    /// Whether the component is loaded: the first session then opens without a compile.
    pub fn is_ready(&self) -> bool {
        self.runtime.initialized()
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
            self.forget(&session.id);
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

    /// How many calls are running now (a save among them, perhaps).
    pub fn calls_in_flight(&self) -> usize {
        self.in_flight.load(Ordering::SeqCst)
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
        let _running = InFlight::enter(&self.in_flight);
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
            image: None,
        };
        // The policy sees the input as sent, and only once it decoded.
        let wire = gate.map(|_| input.clone());
        let request = match Request::decode(method, input) {
            Ok(request) => request,
            Err(failure) => {
                // An open names no session until it succeeds.
                let reference = match method.name {
                    "openSession" | "openProjectSession" => SessionRef::default(),
                    _ => reference,
                };
                return Reply {
                    envelope: call.failure(reference, failure),
                    is_error: true,
                    image: None,
                };
            }
        };
        if let (Some(gate), Some(wire)) = (gate, wire) {
            match gate.check(method, wire).await {
                Ok(()) => {}
                Err(Blocked::Denied(error)) => {
                    return Reply {
                        envelope: call.denied(reference, error),
                        is_error: true,
                        image: None,
                    };
                }
                Err(Blocked::Failed(failure)) => return failed(failure),
            }
        }
        // An open names its session only once it succeeds.
        let opening = match request {
            Request::Open(opening) => opening,
            Request::Work(work) => {
                return match self.run(work).await {
                    Ok((mut data, revision)) => Reply {
                        image: data.take_image(),
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
                };
            }
        };
        let opened = match opening {
            Opening::Directory(input) => {
                let session_id = uuid::Uuid::new_v4().to_string();
                self.open(&session_id, &input.project_path).await
            }
            Opening::Document(document) => self.open_project(method, document).await,
        };
        match opened.and_then(|snapshot| Ok((Data::typed(&snapshot)?, snapshot))) {
            Ok((data, snapshot)) => Reply {
                envelope: call.success(
                    SessionRef::new(&snapshot.session_id, Some(snapshot.revision)),
                    data,
                ),
                is_error: false,
                image: None,
            },
            Err(failure) => Reply {
                envelope: call.failure(SessionRef::default(), failure),
                is_error: true,
                image: None,
            },
        }
    }

    async fn run(&self, work: Work) -> Outcome {
        match work {
            Work::GetCapabilities => Ok((Data::typed(&self.capabilities)?, None)),
            Work::GetSession(input) => {
                self.on_session(&input.session_id, async |session, instance| {
                    let status = instance.status().await?;
                    Ok((status, self.snapshot(session, &status)))
                })
                .await
                .and_then(|(status, snapshot)| Ok((Data::typed(&snapshot)?, Some(status.revision))))
            }
            Work::Outline(input) => {
                // The component decodes the whole input (scope, page, …) itself.
                let text = encode(&input)?;
                self.on_session(&input.session_id, async |_, instance| {
                    instance.outline(&text).await
                })
                .await
                .and_then(reply_data)
            }
            Work::Search(input) => {
                let text = encode(&input)?;
                self.on_session(&input.session_id, async |_, instance| {
                    instance.search(&text).await
                })
                .await
                .and_then(reply_data)
            }
            Work::Validate(input) => self
                .on_session(&input.session_id, async |_, instance| {
                    instance.validate().await
                })
                .await
                .and_then(reply_data),
            Work::Query(input) => {
                let target = encode(&input.target)?;
                self.on_session(&input.session_id, async |_, instance| {
                    instance.query_entity(&target).await
                })
                .await
                .and_then(reply_data)
            }
            Work::ReadState(input) => {
                let text = encode(&input)?;
                self.on_session(&input.session_id, async |_, instance| {
                    instance.read_state(&text).await
                })
                .await
                .and_then(reply_data)
            }
            Work::ReadBytes(input) => {
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
            Work::Render(input) => {
                let text = encode(&input)?;
                let picture = self
                    .on_session(&input.session_id, async |_, instance| {
                        instance.render(&text).await
                    })
                    .await?;
                let data = Data::text(picture.data, Vec::new())?.with_image(picture.png);
                Ok((data, Some(picture.status.revision)))
            }
            Work::Transaction { apply, input } => self.transaction(apply, input).await,
            Work::Events(input) => {
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
            Work::Close(input) => self.close_session(&input.session_id).await,
            Work::CacheSnapshot(input) => {
                // The cache is the host's own index: reading it asks nothing of the backend,
                // which is asked for the revision only if there is no entry (upstream's
                // `cacheRevision` then).
                let snapshot = match self.registry.get(&input.session_id) {
                    None => return Err(BackendError::session_not_found(&input.session_id).into()),
                    Some(session) => match self.cache.snapshot(&session.id) {
                        Some(snapshot) => snapshot,
                        None => {
                            let status = self
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
                    .on_session(&input.session_id, async |session, instance| {
                        Ok((session.key(), instance.status().await?))
                    })
                    .await?;
                let entry = self.cache.index(&input.session_id, &key, &status, true);
                let reason = input.reason.unwrap_or_default();
                self.events.emit(
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
                let Some(session) = self.registry.get(&input.session_id) else {
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
                let key = session.key();
                self.events.emit(
                    &session.id,
                    &key,
                    Happened::new("transaction.applied", Some(status.revision))
                        .payload(json!({ "operationCount": input.operations.len() })),
                );
                let entry = self.cache.index(&session.id, &key, &status, false);
                self.events.emit(
                    &session.id,
                    &key,
                    Happened::new("cache.invalidated", Some(status.revision))
                        .cache_revision(entry.revision),
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
    /// A session without a directory has no target to compare with: the component
    /// refuses its write (`capability_unavailable`), as upstream checks storage first.
    fn check_save_target(&self, session_id: &str, target: &str) -> Result<(), Failure> {
        let Some(session) = self.registry.get(session_id) else {
            return Err(BackendError::session_not_found(session_id).into());
        };
        let Some(project) = session.directory() else {
            return Ok(());
        };
        let same = sandbox::resolve_project(target, &self.config.roots)
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
    async fn write(&self, session_id: &str, expected: Option<u64>, write: Write) -> Outcome {
        let Some(session) = self.registry.get(session_id) else {
            return Err(BackendError::session_not_found(session_id).into());
        };
        let materialize = matches!(write, Write::Materialize { .. });
        let key = session.key();
        let emit = |happened: Happened| self.events.emit(&session.id, &key, happened);
        emit(Happened::new("save.started", None).payload(json!({ "materialize": materialize })));
        let directory = session.directory();
        let result = self
            .on_session(&session.id, async |_, instance| {
                if let Some(project) = &directory {
                    guard_disk(&session.id, project, instance, materialize, expected).await?;
                }
                if materialize {
                    instance.materialize(expected).await
                } else {
                    instance.save(expected).await
                }
            })
            .await;
        match result {
            Ok(reply) => {
                let status = reply.status;
                let snapshot = self.snapshot(&session, &status);
                let skipped_paths = reply.skipped_paths.clone();
                let disk = self.saved(&session, reply);
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
                    Write::Materialize { reason } => Data::typed(&materialized(
                        snapshot,
                        &status,
                        reason,
                        skipped_paths,
                        disk,
                    ))?,
                };
                Ok((data, Some(status.revision)))
            }
            Err(mut failure) => {
                if let Some(status) = failure.status {
                    failure.session = Some(self.snapshot(&session, &status));
                }
                self.save_failed(&session, &failure);
                Err(failure)
            }
        }
    }

    /// After a successful save or materialize: the journal restarts at the saved revision,
    /// `save.completed` and `cache.updated` are recorded with a fresh valid entry. Gives
    /// what the write changed on disk.
    fn saved(&self, session: &Session, reply: SaveReply) -> DiskChanges {
        let status = reply.status;
        session.saved(status.revision);
        if !reply.recovered_paths.is_empty() {
            let how = Recovered::CompletedOrUndone;
            let notice = Notice::save_recovered(&session.id, how, &reply.recovered_paths);
            self.events.notice(notice);
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
        self.events.emit(
            &session.id,
            &key,
            Happened::new("save.completed", Some(status.revision)).payload(json!({
                "writtenPaths": disk.written_paths,
                "removedPaths": disk.removed_paths,
            })),
        );
        let entry = self.cache.index(&session.id, &key, &status, true);
        self.events.emit(
            &session.id,
            &key,
            Happened::new("cache.updated", Some(status.revision)).cache_revision(entry.revision),
        );
        self.events
            .changed(&session.id, status.revision, status.dirty);
        disk
    }

    /// After a failed save or materialize: `save.failed` with the failure's diagnostics,
    /// and, when the write itself failed (not a refusal before writing), the cache entry
    /// made invalid (as upstream, without an event of its own).
    fn save_failed(&self, session: &Session, failure: &Failure) {
        let key = session.key();
        let diagnostics = if failure.diagnostics.is_empty() {
            vec![ofgui_contracts::envelope::BackendDiagnostic::error(
                failure.error.code().as_str(),
                failure.error.message(),
            )]
        } else {
            failure.diagnostics.clone()
        };
        self.events.emit(
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
            self.cache.index(&session.id, &key, status, false);
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
            &session.key(),
            Happened::new("transaction.rejected", Some(status.revision)).diagnostics(diagnostics),
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
                let saved_before = session.saved_revision();
                if let Some((instance, status)) = self.restore(&session).await {
                    *slot = Some(instance);
                    self.events
                        .notice(Notice::session_rebuilt(&session.id, status.revision));
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
                self.forget(&session.id);
                self.events.notice(Notice::session_lost(&session.id));
                Err(unhandled(&other).into())
            }
        }
    }

    /// Rebuilds a session whose instance failed ([`Service::rebuild`] in its own home).
    /// Gives the instance and its status, or `None` if any step fails (then the session is
    /// closed).
    async fn restore(&self, session: &Session) -> Option<(Instance, SessionStatus)> {
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
    async fn rebuild(
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
            status = instance
                .apply(batch.expected_revision, &batch.operations)
                .await
                .map_err(|error| Rebuild::Failed(error.to_string()))?
                .status;
        }
        Ok((instance, status))
    }

    fn snapshot(&self, session: &Session, status: &SessionStatus) -> SessionSnapshot {
        snapshot(
            &self.capabilities,
            &session.id,
            session.canonical_project_path(),
            status,
            session.lock_held(),
        )
    }

    /// Opens a project directory in a new session `session_id`.
    async fn open(&self, session_id: &str, project_path: &str) -> Result<SessionSnapshot, Failure> {
        let project = sandbox::resolve_project(project_path, &self.config.roots)
            .map_err(|refusal| refused(refusal, project_path))?;
        self.registry
            .reserve(session_id, &project.key)
            .map_err(|error| reserve_failed(error, session_id, &project.key))?;
        let project_lock = match ProjectLock::acquire(&project.dir, session_id, &project.key) {
            Ok(held) => Some(self.noted(session_id, held)),
            Err(error) => match advisory(error, &project.key) {
                Ok(()) => None,
                Err(failure) => {
                    self.registry.release(&project.key);
                    return Err(failure);
                }
            },
        };
        report::progress("reading the project").await;
        match self
            .instantiate(session_id, project_path, &project, 0)
            .await
        {
            Ok((instance, status, _)) => {
                let home = Home::Directory {
                    project,
                    lock: project_lock,
                };
                Ok(self.opened(session_id, home, instance, &status))
            }
            Err(failure) => {
                self.registry.release(&project.key);
                Err(failure)
            }
        }
    }

    /// Registers an opened session: its first cache entry, `session.opened`, and the
    /// snapshot `openSession` and `openProjectSession` answer with.
    fn opened(
        &self,
        session_id: &str,
        home: Home,
        instance: Instance,
        status: &SessionStatus,
    ) -> SessionSnapshot {
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
        self.snapshot(&session, status)
    }

    /// `openProjectSession`: a session over a project given as a document, in an instance
    /// with no preopen. The component decodes and checks the document before the session
    /// id and project key are claimed (as upstream normalizes first), so a malformed one
    /// leaves nothing behind.
    async fn open_project(
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
        Ok(self.opened(&session_id, home, instance, &status))
    }

    /// Writes a document session's project into `target_path` and makes the session that
    /// project's. A fresh instance whose only preopen is the target directory opens the
    /// same document, replays the batches applied since, and materializes; only then does
    /// it replace the session's instance, with the directory's key and advisory lock. On
    /// any failure the session is as it was (a directory this created is removed again
    /// when nothing was written into it).
    async fn bind(
        &self,
        session: &Session,
        target_path: &str,
        expected: Option<u64>,
        reason: Option<String>,
    ) -> Outcome {
        let target = sandbox::resolve_target(target_path, &self.config.roots)
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
        self.registry
            .claim_for(session, &target.key)
            .map_err(|error| reserve_failed(error, &session.id, &target.key))?;
        let created = match target.create(&self.config.roots) {
            Ok(created) => created,
            Err(error) => {
                self.registry.release(&target.key);
                tracing::warn!(session = %session.id, "cannot create {}: {error}", target.dir.display());
                return Err(BackendError::PathPolicyViolation {
                    message: format!(
                        "targetPath could not be made a directory ({error}); nothing was written. Name a directory inside the allowed project roots."
                    ),
                    policy: TargetPolicy::MaterializeTarget,
                    attempted_path: target_path.to_string(),
                    allowed_path: self.roots_text(),
                }
                .into());
            }
        };
        let undo = |registry: &Registry| {
            registry.release(&target.key);
            Target::remove_created(&created);
        };
        let project_lock = match ProjectLock::acquire(&target.dir, &session.id, &target.key) {
            Ok(held) => Some(self.noted(&session.id, held)),
            Err(error) => match advisory(error, &target.key) {
                Ok(()) => None,
                Err(failure) => {
                    undo(&self.registry);
                    return Err(failure);
                }
            },
        };
        self.events.emit(
            &session.id,
            &target.key,
            Happened::new("save.started", None)
                .payload(json!({ "materialize": true, "targetPath": target_path })),
        );
        let (mut instance, _) = match self.rebuild(session, Some(&target)).await {
            Ok(rebuilt) => rebuilt,
            Err(why) => {
                tracing::error!(session = %session.id, "the session cannot be rebuilt in {}: {why}", target.dir.display());
                drop(project_lock);
                undo(&self.registry);
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
                self.registry
                    .rebind(session, target.project(), project_lock);
                let status = reply.status;
                let snapshot = self.snapshot(session, &status);
                let skipped_paths = reply.skipped_paths.clone();
                let disk = self.saved(session, reply);
                tracing::info!(session = %session.id, dir = %target.dir.display(), "wrote a document session into a directory");
                let data = Data::typed(&materialized(
                    snapshot,
                    &status,
                    reason,
                    skipped_paths,
                    disk,
                ))?;
                Ok((data, Some(status.revision)))
            }
            Err(error) => {
                instance.close().await;
                drop(project_lock);
                undo(&self.registry);
                let mut failure = match error {
                    CallError::Backend(error) => Failure::from(*error),
                    other => {
                        tracing::error!(session = %session.id, "materializing into {} failed: {other}", target.dir.display());
                        Failure::from(unhandled(&other))
                    }
                };
                if let Some(status) = failure.status {
                    failure.session = Some(self.snapshot(session, &status));
                }
                self.save_failed(session, &failure);
                Err(failure)
            }
        }
    }

    /// A refused `targetPath` of a document session.
    fn target_refused(&self, refusal: TargetRefusal, target_path: &str) -> Failure {
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
            allowed_path: self.roots_text(),
        }
        .into()
    }

    /// The allowed roots as `OPENFAIRYGUI_ALLOWED_PROJECT_ROOTS` lists them.
    fn roots_text(&self) -> String {
        std::env::join_paths(&self.config.roots)
            .map(|joined| joined.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    #[allow(clippy::ptr_arg)] // passed on to the bindings, which take `&String`
    async fn instantiate_document(
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

    async fn instantiate(
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
        let recovered = opened.recovery.recovered().map(|(how, paths)| {
            self.events
                .notice(Notice::save_recovered(session_id, how, paths));
            how
        });
        Ok((opened.instance, opened.status, recovered))
    }

    /// A lock just taken, after telling the user when it was taken over from a process
    /// that no longer runs.
    fn noted(&self, session_id: &str, held: ProjectLock) -> ProjectLock {
        if let Some(pid) = held.taken_over_from() {
            self.events
                .notice(Notice::lock_taken_over(session_id, held.path(), pid));
        }
        held
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
        self.events
            .emit(session_id, &key, Happened::new("session.closed", None));
        self.forget(session_id);
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

    /// A closed session's events and cache entry go with it, as upstream does.
    fn forget(&self, session_id: &str) {
        self.events.forget(session_id);
        self.cache.forget(session_id);
    }
}

/// Why a session could not be rebuilt on a fresh instance.
#[derive(Debug, thiserror::Error)]
enum Rebuild {
    #[error("its applied batches outgrew the journal")]
    JournalOverflowed,
    #[error("{0}")]
    Failed(String),
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

/// Why a new session (or a session's new directory) could not be registered.
/// What the host checks before a session writes its directory, beyond what the backend
/// checks through its preopen: the project path still leads to the directory the session
/// opened (`path_policy_violation` otherwise), and nothing the write changes is read-only
/// (`changed_on_disk` with a `read_only` conflict, as the other refusals that leave the
/// disk as it is).
async fn guard_disk(
    session_id: &str,
    project: &sandbox::ResolvedProject,
    instance: &mut Instance,
    materialize: bool,
    expected: Option<u64>,
) -> Result<(), CallError> {
    let refuse = |error: BackendError, status: Option<SessionStatus>| {
        CallError::Backend(Box::new(crate::bindings::GuestError {
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

fn reserve_failed(error: ReserveError, session_id: &str, key: &str) -> Failure {
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

fn id_conflict(session_id: &str) -> Failure {
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
fn advisory(error: LockError, key: &str) -> Result<(), Failure> {
    match error {
        LockError::Held { path, holder } => {
            let by = holder
                .map(|pid| format!("process {pid}"))
                .unwrap_or_else(|| "another program".into());
            Err(BackendError::LockConflict {
                message: format!(
                    "This project is open in another server ({by} holds its lock file); close that session or server first. A lock left by a process that has exited is taken over automatically."
                ),
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

/// Puts the component's refusal of a document it could not decode at the deepest failing
/// field, when the component could only say the document as a whole is malformed (serde
/// locates a failure by line and column): the schema check finds the field.
fn explain_document(failure: &mut Failure, method: &Method, input: &mut Value, project: Value) {
    let BackendError::InvalidInput {
        path: Some(path), ..
    } = &failure.error
    else {
        return;
    };
    if path != "/project" {
        return;
    }
    if let Some(object) = input.as_object_mut() {
        object.insert("project".into(), project);
    }
    let explained = explain::input(method, input, failure.error.message());
    let deeper = matches!(
        &explained,
        BackendError::InvalidInput { path: Some(path), .. } if path.starts_with("/project/")
    );
    if deeper {
        failure.error = explained;
        // meta.diagnostics mirror the error; the component's words must not stay there.
        failure.diagnostics.clear();
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

/// The result of a materialize: the session after it, and what it wrote.
fn materialized(
    snapshot: SessionSnapshot,
    status: &SessionStatus,
    reason: Option<String>,
    skipped_paths: Vec<String>,
    disk: DiskChanges,
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
        skipped_paths,
        diagnostics: Vec::new(),
        disk,
    }
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

fn unhandled(error: &CallError) -> BackendError {
    BackendError::unhandled(match error {
        CallError::Deadline => UnhandledReason::Deadline,
        CallError::OutOfMemory => UnhandledReason::OutOfMemory,
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

/// A method's input, decoded strictly.
enum Request {
    /// Opens run apart: they make the session they name.
    Open(Opening),
    Work(Work),
}

/// How a session is opened.
enum Opening {
    Directory(OpenSessionInput),
    /// Its document is decoded by the component, in [`Service::open_project`].
    Document(Value),
}

/// What [`Service::run`] runs.
enum Work {
    GetCapabilities,
    GetSession(SessionInput),
    Outline(OutlineInput),
    Search(SearchProjectInput),
    Validate(SessionInput),
    Query(QueryEntityInput),
    ReadState(ReadSessionStateInput),
    ReadBytes(ReadResourceBytesInput),
    Render(RenderComponentInput),
    Transaction {
        apply: bool,
        input: TransactionInput,
    },
    Events(EventsInput),
    Close(SessionInput),
    CacheSnapshot(SessionInput),
    RefreshCache(RefreshCacheInput),
    Save(SaveSessionInput),
    Materialize(MaterializeSessionInput),
}

impl Request {
    fn decode(method: &Method, input: Value) -> Result<Request, Failure> {
        let work = match method.name {
            "openSession" => {
                return Ok(Request::Open(Opening::Directory(parse(method, &input)?)));
            }
            "openProjectSession" => return Ok(Request::Open(Opening::Document(input))),
            "getCapabilities" => {
                parse::<NoInput>(method, &input)?;
                Work::GetCapabilities
            }
            "getSession" => Work::GetSession(parse(method, &input)?),
            "getProjectOutline" => Work::Outline(parse(method, &input)?),
            "searchProject" => Work::Search(parse(method, &input)?),
            "validateSession" => Work::Validate(parse(method, &input)?),
            "queryEntity" => Work::Query(parse(method, &input)?),
            "readSessionState" => Work::ReadState(parse(method, &input)?),
            "readResourceBytes" => Work::ReadBytes(parse(method, &input)?),
            "renderComponent" => Work::Render(parse(method, &input)?),
            "preflightTransaction" | "applyTransaction" => Work::Transaction {
                apply: method.name == "applyTransaction",
                input: parse_transaction(method, input)?,
            },
            "getEvents" => Work::Events(parse(method, &input)?),
            "closeSession" => Work::Close(parse(method, &input)?),
            "getCacheSnapshot" => Work::CacheSnapshot(parse(method, &input)?),
            "refreshCache" => Work::RefreshCache(parse(method, &input)?),
            "saveSession" => Work::Save(parse(method, &input)?),
            "materializeSession" => Work::Materialize(parse(method, &input)?),
            other => {
                return Err(BackendError::UnknownTool {
                    message: format!("No method named {other} is served."),
                    tool_name: other.to_string(),
                }
                .into());
            }
        };
        Ok(Request::Work(work))
    }
}

/// Decodes a method's top-level arguments; what they carry for the backend (targets,
/// operations) is decoded by the component. A refusal names the deepest failing field
/// in plain words ([`explain`]).
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
