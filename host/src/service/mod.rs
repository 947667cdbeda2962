//! The backend methods as the host serves them: a decoded request in, an envelope out.
//!
//! [`Service`] routes each call to its job, and every job reaches sessions through the
//! keeper (`keeper.rs`: the runtime, the registry, running a call on a session's instance,
//! rebuilding one that failed, locks and claims) and the shared rooms beside it
//! (`envelope`, `events`, `sessions`, `notice`, `report`, `cache`). The jobs, none of which
//! uses another (a test holds them to it; the router hands saves to `save`):
//! - `dispatch`: routing by [`MethodId`](ofgui_contracts::methods::MethodId); the
//!   component's own methods forwarded whole, edits (apply, undo, redo), events, cache;
//! - `lifecycle`: opening (from a directory or a document) and closing;
//! - `save`: the save guard, save and materialize, binding a document to a directory;
//! - `publish`: publishing for the game; `rebase`: refreshing after outside edits;
//! - `watch`: noticing those edits.
//!
//! Project semantics are asked of the session's component instance; this room only
//! carries its answers. It uses [`crate::backend`] and [`crate::policy`], never the
//! protocol rooms.

pub mod cache;
pub mod envelope;
pub mod events;
pub mod notice;
pub mod report;
pub mod sessions;

mod dispatch;
use dispatch::{Opening, Request};
mod keeper;
use keeper::Keeper;
mod lifecycle;
mod publish;
mod rebase;
mod save;
mod strings_file;
mod watch;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use ofgui_contracts::additions::Additions;
use ofgui_contracts::additions::ServerLimits;
use ofgui_contracts::capabilities::Capabilities;
use ofgui_contracts::error::{BackendError, UnhandledReason};
use ofgui_contracts::methods::{Method, MethodId};
use serde_json::Value;

use crate::backend::runtime::{CallError, InstanceLimits, Runtime};
use crate::backend::sandbox::{self, FontDirs};
use crate::backend::state::StateDir;
use crate::policy::{Blocked, Gate};
use envelope::{Call, Data, Envelope, Failure, SessionRef};
use events::EventLog;

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
    /// A service that never writes (a read-only HTTP token's) opens projects without the
    /// advisory lock, which only keeps writers apart, so it never locks a writer out.
    pub read_only: bool,
    /// Fonts previews may draw text in, granted read only to every session.
    pub fonts: FontDirs,
    /// Publishing may write into the directories the project's own settings name (its
    /// publish `path`, its packages' `codePath`), each granted for that one call, exactly
    /// that directory. Only for a person who asked for it on the command line
    /// (`--use-project-paths`): a server keeps to its roots.
    pub project_publish_paths: bool,
    /// Refusals name the command line's flags rather than MCP fields.
    pub command_line: bool,
    /// Where projects' locks and journals are kept instead of beside each project
    /// (`--state-dir`), with the records of open sessions.
    pub state_dir: Option<StateDir>,
    /// Whose sessions these are, in session records (an HTTP tenant's token digest);
    /// `None` for a server without tokens.
    pub tenant: Option<String>,
}

/// How long a node waits for another that is moving a session to it, before trying
/// itself (and finding it locked, if that node is stuck rather than dead).
const MOVE_PATIENCE: std::time::Duration = std::time::Duration::from_secs(10);

/// Where a session is served (see [`Service::locate`]).
#[derive(Debug, PartialEq, Eq)]
pub enum Whereabouts {
    Here,
    /// At the node that takes requests at this address.
    There(String),
}

impl ServiceConfig {
    /// A new session's id, carrying this node's name when it has one (see
    /// [`StateDir::new_session_id`]).
    pub(crate) fn new_session_id(&self) -> String {
        match &self.state_dir {
            Some(state) => state.new_session_id(),
            None => uuid::Uuid::new_v4().to_string(),
        }
    }

    /// The allowed roots as `OPENFAIRYGUI_ALLOWED_PROJECT_ROOTS` lists them.
    fn roots_text(&self) -> String {
        std::env::join_paths(&self.roots)
            .map(|joined| joined.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// The defaults of `ofgui-mcp-host` (32 sessions, 30 minutes idle expiry, the user
    /// cache directory) for projects in `roots`, which must be existing directories.
    pub fn with_roots(roots: &[PathBuf]) -> anyhow::Result<ServiceConfig> {
        Ok(ServiceConfig {
            roots: sandbox::canonical_roots(roots)?,
            max_sessions: 32,
            idle_timeout: Duration::from_secs(1800),
            cache_dir: crate::backend::runtime::default_cache_dir(),
            limits: InstanceLimits::default(),
            read_only: false,
            fonts: FontDirs::machine(),
            project_publish_paths: false,
            command_line: false,
            state_dir: None,
            tenant: None,
        })
    }
}

/// The backend service shared by all MCP requests: routes each call to its job (reads
/// and edits in `dispatch`, saves in `save`, publishing in `publish`, refresh in
/// `rebase`), which runs it on a session through the [`Keeper`].
pub struct Service {
    keeper: Keeper,
    /// Calls running now, for a server that drains them before it stops.
    in_flight: AtomicUsize,
    /// Held while published output is written: two publishes into one directory must not
    /// interleave.
    publishing: tokio::sync::Mutex<()>,
    /// Held while a session is resumed from its record, so two requests for it resume it
    /// once.
    resuming: tokio::sync::Mutex<()>,
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
        Arc::new(Service {
            keeper: Keeper::new(config),
            in_flight: AtomicUsize::new(0),
            publishing: tokio::sync::Mutex::new(()),
            resuming: tokio::sync::Mutex::new(()),
        })
    }

    /// A service whose sessions run on an already loaded component, shared with other
    /// services (the tenants of one HTTP server share one engine and compiled code).
    pub fn with_runtime(config: ServiceConfig, runtime: Arc<Runtime>) -> Arc<Service> {
        let service = Service::new(config);
        service.keeper.use_runtime(runtime);
        service
    }

    /// Whether the component is loaded: the first session then opens without a compile.
    pub fn is_ready(&self) -> bool {
        self.keeper.runtime_loaded()
    }

    /// Loads the component in the background so the first open does not wait for it.
    pub fn warm_up(self: &Arc<Self>) {
        let service = self.clone();
        tokio::spawn(async move {
            if let Err(error) = service.keeper.runtime().await {
                tracing::error!("backend component unavailable: {error:#}");
            }
        });
    }

    /// Closes clean sessions that have been idle for too long.
    pub fn start_idle_expiry(self: &Arc<Self>) {
        let timeout = self.keeper.config.idle_timeout;
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
                for session in service.keeper.registry.idle(timeout) {
                    service.keeper.expire(&session, timeout).await;
                }
            }
        });
    }

    /// How many calls this service has made into backend instances (0 before the first
    /// session), so tests can hold the host to one call per request.
    pub fn guest_calls(&self) -> u64 {
        self.keeper.guest_calls()
    }

    pub fn capabilities(&self) -> &Capabilities {
        &self.keeper.capabilities
    }

    /// The session limits this server was started with.
    pub fn limits(&self) -> ServerLimits {
        ServerLimits {
            max_sessions: self.keeper.config.max_sessions,
            idle_session_timeout_ms: self.keeper.config.idle_timeout.as_millis() as u64,
        }
    }

    /// What happens to sessions, as it happens (for resource subscriptions and log
    /// messages).
    pub fn events(&self) -> &EventLog {
        &self.keeper.events
    }

    /// The ids of the open sessions.
    pub fn session_ids(&self) -> Vec<String> {
        self.keeper.registry.ids()
    }

    /// The open sessions with the project each has open, by id.
    pub fn open_sessions(&self) -> Vec<(String, String)> {
        let mut open: Vec<(String, String)> = self
            .keeper
            .registry
            .ids()
            .into_iter()
            .filter_map(|id| {
                let session = self.keeper.registry.get(&id)?;
                Some((id, session.canonical_project_path()))
            })
            .collect();
        open.sort();
        open
    }

    /// How many calls are running now (a save among them, perhaps).
    pub fn calls_in_flight(&self) -> usize {
        self.in_flight.load(Ordering::SeqCst)
    }

    /// Where a session is served, for a node sharing its state directory with others:
    /// here (open, or resumed now from its record), or at another node's address, as its
    /// record says. `gone` is an address found dead a moment ago: a record naming it is
    /// taken over. Nodes racing for one session take turns, so it moves once and the
    /// others are sent where it went. Always `Here` for a server that is not a named node.
    pub async fn locate(self: &Arc<Self>, session_id: &str, gone: Option<&str>) -> Whereabouts {
        let Some(state) = self.keeper.config.state_dir.clone() else {
            return Whereabouts::Here;
        };
        let Some(here) = state.address().map(str::to_owned) else {
            return Whereabouts::Here;
        };
        if self.is_open(session_id) {
            return Whereabouts::Here;
        }
        let id = session_id.to_owned();
        let waiting = state.clone();
        let turn = tokio::task::spawn_blocking(move || waiting.moving(&id, MOVE_PATIENCE))
            .await
            .ok()
            .flatten();
        let Some(record) = state.record(session_id) else {
            return Whereabouts::Here;
        };
        if record.tenant != self.keeper.config.tenant {
            return Whereabouts::Here;
        }
        match record.served_at {
            Some(there) if there != here && Some(there.as_str()) != gone => {
                Whereabouts::There(there)
            }
            _ => {
                let _resuming = self.resuming.lock().await;
                if !self.keeper.registry.contains(session_id)
                    && let Err(failure) = self.resume(session_id).await
                {
                    tracing::info!(session = %session_id, "not resumed here: {}", failure.error.message());
                }
                drop(turn);
                Whereabouts::Here
            }
        }
    }

    /// Whether a session is open (without renewing its idle timer).
    pub fn is_open(&self, session_id: &str) -> bool {
        self.keeper.registry.contains(session_id)
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
                let reference = match method.id {
                    MethodId::OpenSession | MethodId::OpenProjectSession => SessionRef::default(),
                    _ => reference,
                };
                return Reply {
                    envelope: call.failure(reference, failure),
                    is_error: true,
                    image: None,
                };
            }
        };
        // A session this process does not know may be one a server that died had open.
        if let Some(id) = session_id.as_deref()
            && !matches!(request, Request::Open(_))
            && self.keeper.config.state_dir.is_some()
            && !self.keeper.registry.contains(id)
        {
            let _resuming = self.resuming.lock().await;
            if !self.keeper.registry.contains(id)
                && let Err(failure) = self.resume(id).await
            {
                return failed(failure);
            }
        }
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
                Err(Blocked::Failed(error)) => return failed(error.into()),
            }
        }
        if let Some(session) = session_id
            .as_deref()
            .and_then(|id| self.keeper.registry.get(id))
            && session.locked_elsewhere()
            && writes_the_project(method.id)
        {
            return failed(locked_elsewhere(method, &session.key()));
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
                let session_id = self.keeper.config.new_session_id();
                self.open(&session_id, &input, 0).await
            }
            Opening::Document(document) => self
                .open_project(method, document)
                .await
                .map(|snapshot| (snapshot, None)),
        };
        let composed = opened.and_then(|(snapshot, unsaved_edits)| {
            let warning = unsaved_edits.as_ref().map(lifecycle::unsaved_edits_warning);
            let additions = Additions {
                unsaved_edits,
                ..Additions::default()
            };
            let mut data = Data::typed(&snapshot)?.with_additions(additions);
            if let Some((code, message)) = warning {
                data = data.with_warning(code, message);
            }
            if self
                .keeper
                .registry
                .get(&snapshot.session_id)
                .is_some_and(|session| session.locked_elsewhere())
            {
                data = data.with_warning(
                    "project_locked_elsewhere",
                    "Another program (another server, or an editor using the same lock file) has this project open for writing, so this session only reads it: outline, query, validate, render, preflight, publish and refreshSession (to see what the other program saved) work; applyTransaction, undo, redo and saveSession are refused. To edit, close the other program's session and open the project again.".to_string(),
                );
            }
            Ok((data, snapshot))
        });
        match composed {
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
}

fn unhandled(error: &CallError) -> BackendError {
    BackendError::unhandled(match error {
        CallError::Deadline => UnhandledReason::Deadline,
        CallError::OutOfMemory => UnhandledReason::OutOfMemory,
        CallError::Trap(_) => UnhandledReason::Trap,
        CallError::Backend(_) | CallError::Setup(_) => UnhandledReason::Internal,
    })
}

/// Whether a call would change the project a session reads: its model (apply, undo, redo)
/// or its files (save, materialize). Refresh re-reads the disk and publish writes
/// elsewhere, so a reader may call them.
fn writes_the_project(method: MethodId) -> bool {
    matches!(
        method,
        MethodId::ApplyTransaction
            | MethodId::Undo
            | MethodId::Redo
            | MethodId::SaveSession
            | MethodId::MaterializeSession
    )
}

/// The refusal of a writing call in a session another program's lock keeps to reading.
fn locked_elsewhere(method: &Method, key: &str) -> Failure {
    BackendError::LockConflict {
        message: format!(
            "{} would change the project, but another program (another server, or an editor using the same lock file) has it open for writing, so this session only reads it. Close the other program's session, then open the project again (closeSession, openSession) to edit it.",
            method.name
        ),
        kind: ofgui_contracts::error::LockConflictKind::AdvisoryLockConflict,
        canonical_path_key: key.to_string(),
        holder_session_id: None,
        lock_file_path: None,
    }
    .into()
}
