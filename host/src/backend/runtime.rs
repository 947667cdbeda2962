//! The wasmtime runtime: one Engine and one pre-linked component for the whole process,
//! and a fresh Store + instance per project session.
//!
//! The component is embedded in the binary. Its machine code is compiled once per
//! machine, at the first start (or by `ofgui-mcp-host precompile`), and cached on disk, so
//! later starts only map the file: milliseconds where a Cranelift compile takes seconds.
//! Mapping the file (rather than copying code out of the binary) keeps one copy of the
//! code in memory, shared by every server process on the machine.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use wasmtime::component::{Component, Linker, ResourceAny, ResourceTable};
use wasmtime::{Engine, ResourceLimiter, Store, Trap, UpdateDeadline};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

use crate::backend::bindings::{
    Backend, BackendPre, BytesReply, CodeFolder, DocumentRequest, GuestError, GuestReply,
    OpenRequest, OutputReport, PackageOutput, PictureReply, PlannedWrites, PublishReply, Recovery,
    SaveReply, SessionStatus,
};
use crate::backend::sandbox::FontDirs;
use crate::backend::sandbox::ResolvedProject;

/// The backend component, built from this checkout (`host/backend-wasm`).
pub use ofgui_backend_wasm::BACKEND_WASM;
use ofgui_backend_wasm::BACKEND_WASM_SHA256;

/// Where the backend's machine code came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComponentSource {
    /// Mapped from the on-disk compile cache.
    Cache,
    /// Compiled with Cranelift at this start (then cached, when a cache directory is set).
    Compiled,
}

/// How often the epoch ticks. A running call yields to the scheduler at every tick, so a
/// busy session never holds a worker thread for longer, and is stopped at the first tick
/// past its deadline.
const EPOCH_TICK: Duration = Duration::from_millis(50);

/// How long past its deadline a call waiting on the host (a WASI call that never
/// returns, where no epoch tick can reach it) is dropped.
const BACKSTOP_GRACE: Duration = Duration::from_millis(4 * EPOCH_TICK.as_millis() as u64);

/// Most elements a table of one instance may grow to: tables live outside linear memory,
/// so the memory cap does not bound them.
const TABLE_ELEMENTS_CAP: usize = 1 << 20;

/// Limits applied to every session instance.
#[derive(Clone, Copy, Debug)]
pub struct InstanceLimits {
    /// Linear memory cap per session.
    pub memory_bytes: usize,
    /// Wall-clock budget of one backend call.
    pub call_deadline: Duration,
}

impl InstanceLimits {
    pub const DEFAULT: InstanceLimits = InstanceLimits {
        memory_bytes: 1 << 30,
        call_deadline: Duration::from_secs(60),
    };
}

impl Default for InstanceLimits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// State of one session's Store: WASI context and resource limits.
pub struct HostState {
    ctx: WasiCtx,
    table: ResourceTable,
    memory: MemoryCap,
    clock: CallClock,
}

/// The session's memory cap, remembering that it refused a growth, so that a call it
/// stopped is told apart from one that trapped for another reason.
struct MemoryCap {
    bytes: usize,
    refused: bool,
}

/// Refused growth: the call traps with this, and the host reports it as out of memory.
#[derive(Debug, thiserror::Error)]
#[error("the backend asked for {desired} bytes of memory, over its cap of {cap}")]
struct MemoryCapExceeded {
    desired: usize,
    cap: usize,
}

impl ResourceLimiter for MemoryCap {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.bytes {
            self.refused = true;
            // Trapping (instead of answering "no") stops the call at once: Rust code in the
            // guest would abort on the failed allocation anyway, with a less clear trap.
            return Err(MemoryCapExceeded {
                desired,
                cap: self.bytes,
            }
            .into());
        }
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= TABLE_ELEMENTS_CAP)
    }
}

/// When the running call started and how long it may run.
struct CallClock {
    started: Instant,
    budget: Duration,
}

impl CallClock {
    fn expired(&self) -> bool {
        self.started.elapsed() >= self.budget
    }
}

impl WasiView for HostState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.ctx,
            table: &mut self.table,
        }
    }
}

/// Awaits one call into a session's Store under its deadline: the clock restarts, an epoch
/// tick past the deadline interrupts guest code, and a call waiting on the host past the
/// deadline (where no tick reaches it) is dropped. The Store of a call that did not
/// return normally must not be used again.
macro_rules! bounded {
    ($store:expr, $call:expr) => {{
        let budget = $store.data().clock.budget;
        $store.data_mut().clock.started = Instant::now();
        $store.set_epoch_deadline(1);
        match tokio::time::timeout(budget + BACKSTOP_GRACE, $call).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(_)) if $store.data().memory.refused => Err(CallError::OutOfMemory),
            Ok(Err(error)) => Err(CallError::from_wasmtime(error)),
            Err(_elapsed) => Err(CallError::Deadline),
        }
    }};
}

/// The process-wide runtime.
pub struct Runtime {
    engine: Engine,
    component: Component,
    source: ComponentSource,
    pre: BackendPre<HostState>,
    limits: InstanceLimits,
    /// Granted read only to every instance, for previews' text.
    fonts: FontDirs,
    /// Calls into the component so far, across all instances (for logs and tests).
    calls: Arc<AtomicU64>,
    /// The test-only save fault of `OFGUI_SAVE_FAULT`, for the first instance only: the
    /// first session opened meets it, and a session restored after it runs clean, so a
    /// test can watch what the restore did.
    save_fault: std::sync::Mutex<Option<String>>,
    /// The same for the first output instance (a publish's writer), from
    /// `OFGUI_OUTPUT_FAULT`: it reaches the component as its save fault.
    output_fault: std::sync::Mutex<Option<String>>,
}

/// A backend call that did not return normally.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    /// The component reported a failure as data.
    #[error("backend error {}: {}", .0.error.code(), .0.error.message())]
    Backend(Box<GuestError>),
    /// The component trapped; the instance must not be used again.
    #[error("backend trapped: {0:?}")]
    Trap(wasmtime::Error),
    /// The call ran past its deadline; the instance must not be used again.
    #[error("backend call exceeded its deadline")]
    Deadline,
    /// The call asked for more memory than the session's cap; the instance must not be
    /// used again.
    #[error("backend call exceeded the memory cap")]
    OutOfMemory,
    /// The instance could not be set up.
    #[error("backend setup failed: {0:#}")]
    Setup(anyhow::Error),
}

impl CallError {
    fn from_wasmtime(error: wasmtime::Error) -> Self {
        match error.downcast_ref::<Trap>() {
            Some(Trap::Interrupt) => CallError::Deadline,
            _ => CallError::Trap(error),
        }
    }

    fn from_guest(error: crate::backend::bindings::BackendError) -> Self {
        CallError::Backend(Box::new(GuestError::from(error)))
    }
}

/// One session's live component instance.
pub struct Instance {
    store: Store<HostState>,
    backend: Backend,
    project: ResourceAny,
    calls: Arc<AtomicU64>,
}

/// A project the component just opened.
pub struct OpenedProject {
    pub instance: Instance,
    /// The session's first status.
    pub status: SessionStatus,
    /// What opening did about a save an earlier process did not finish.
    pub recovery: Recovery,
}

impl Runtime {
    /// Builds the engine and loads the component: the embedded machine code when it fits
    /// this machine, else from the compile cache in `cache_dir`, else by compiling it.
    pub fn new(
        cache_dir: Option<&Path>,
        limits: InstanceLimits,
        fonts: FontDirs,
    ) -> Result<Arc<Runtime>> {
        // The engine that runs has no compiler: when the compiled backend comes from the
        // cache, none of Cranelift's code (a fifth of the binary) is ever paged in.
        let mut running = engine_config();
        running.enable_compiler(false);
        let engine = Engine::new(&running)?;
        let (component, source) = load_component(&engine, cache_dir)?;
        tracing::debug!(?source, "backend component loaded");
        let mut linker = Linker::<HostState>::new(&engine);
        wasmtime_wasi::p2::add_to_linker_async(&mut linker)?;
        let pre = BackendPre::new(linker.instantiate_pre(&component)?)?;

        // Deadlines need a clock; a detached thread that only ticks is the cheapest one.
        let ticker = engine.weak();
        std::thread::Builder::new()
            .name("ofgui-epoch".into())
            .spawn(move || {
                while let Some(engine) = ticker.upgrade() {
                    engine.increment_epoch();
                    drop(engine);
                    std::thread::sleep(EPOCH_TICK);
                }
            })?;
        Ok(Arc::new(Runtime {
            engine,
            component,
            source,
            pre,
            limits,
            fonts,
            calls: Arc::default(),
            output_fault: std::sync::Mutex::new(
                std::env::var(crate::backend::sandbox::OUTPUT_FAULT_ENV).ok(),
            ),
            save_fault: std::sync::Mutex::new(
                std::env::var(crate::backend::sandbox::SAVE_FAULT_ENV).ok(),
            ),
        }))
    }

    /// How many calls the host has made into component instances so far.
    pub fn guest_calls(&self) -> u64 {
        self.calls.load(Ordering::Relaxed)
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The loaded backend component (for inspecting its imports).
    pub fn component(&self) -> &Component {
        &self.component
    }

    /// Where the component's machine code came from.
    pub fn component_source(&self) -> ComponentSource {
        self.source
    }

    /// Instantiates the component with `project.dir` as its only preopen and opens the
    /// project in it; gives the instance, its first status and what opening did about an
    /// interrupted save.
    pub async fn open(
        &self,
        request: &OpenRequest,
        project: &ResolvedProject,
    ) -> Result<OpenedProject, CallError> {
        let (mut store, backend) = self
            .instantiate(Some(&project.dir), take(&self.save_fault))
            .await?;
        let opened = bounded!(
            store,
            backend
                .ofgui_backend_session()
                .project()
                .call_open(&mut store, request)
        )?
        .map_err(CallError::from_guest)?;
        let (instance, status) = self.instance(store, backend, opened.project, opened.status);
        Ok(OpenedProject {
            instance,
            status,
            recovery: opened.recovery,
        })
    }

    /// Instantiates the component with `dir` as its only preopen, or with none at all, and
    /// opens the project given as `document` (`ProjectDocument` JSON) in it.
    // The bindings take the WIT `json` alias (a `String`) by reference.
    #[allow(clippy::ptr_arg)]
    pub async fn open_document(
        &self,
        request: &DocumentRequest,
        document: &String,
        dir: Option<&Path>,
    ) -> Result<(Instance, SessionStatus), CallError> {
        let (mut store, backend) = self.instantiate(dir, take(&self.save_fault)).await?;
        let (project, status) = bounded!(
            store,
            backend
                .ofgui_backend_session()
                .project()
                .call_open_document(&mut store, request, document)
        )?
        .map_err(CallError::from_guest)?;
        Ok(self.instance(store, backend, project, status))
    }

    /// An instance whose only preopen is `dir`, to write published packages into it
    /// ([`OutputWriter::write_package`]): the session's own instance never sees the output
    /// directory, and this one never sees the project.
    pub async fn output_writer(&self, dir: &Path) -> Result<OutputWriter, CallError> {
        let (store, backend) = self
            .instantiate(Some(dir), take(&self.output_fault))
            .await?;
        Ok(OutputWriter {
            store,
            backend,
            calls: self.calls.clone(),
        })
    }

    /// Writes binding code into `dir` (a code directory) through a fresh instance whose
    /// only preopen is `dir`, as [`Runtime::output_writer`] does for packages.
    pub async fn write_code(
        &self,
        dir: &Path,
        session_id: &str,
        folders: &[CodeFolder],
    ) -> Result<OutputReport, CallError> {
        let (mut store, backend) = self.instantiate(Some(dir), None).await?;
        self.calls.fetch_add(1, Ordering::Relaxed);
        bounded!(
            store,
            backend
                .ofgui_backend_output()
                .call_write_code(&mut store, session_id, folders)
        )?
        .map_err(CallError::from_guest)
    }

    fn instance(
        &self,
        store: Store<HostState>,
        backend: Backend,
        project: ResourceAny,
        status: SessionStatus,
    ) -> (Instance, SessionStatus) {
        let instance = Instance {
            store,
            backend,
            project,
            calls: self.calls.clone(),
        };
        (instance, status)
    }

    /// A fresh Store with its limits and deadline, and the component instantiated in it
    /// with `dir` (if any) as its only preopen.
    async fn instantiate(
        &self,
        dir: Option<&Path>,
        fault: Option<String>,
    ) -> Result<(Store<HostState>, Backend), CallError> {
        let ctx = crate::backend::sandbox::wasi_context(dir, &self.fonts, fault.as_deref())
            .map_err(CallError::Setup)?;
        let mut store = Store::new(
            &self.engine,
            HostState {
                ctx,
                table: ResourceTable::new(),
                memory: MemoryCap {
                    bytes: self.limits.memory_bytes,
                    refused: false,
                },
                clock: CallClock {
                    started: Instant::now(),
                    budget: self.limits.call_deadline,
                },
            },
        );
        store.limiter(|state| &mut state.memory);
        // Each tick either yields (the call goes on, and other tasks get the thread) or,
        // past the deadline, interrupts the call.
        store.epoch_deadline_callback(|context| {
            if context.data().clock.expired() {
                Err(Trap::Interrupt.into())
            } else {
                Ok(UpdateDeadline::Yield(1))
            }
        });
        self.calls.fetch_add(1, Ordering::Relaxed);
        let backend = bounded!(store, self.pre.instantiate_async(&mut store))?;
        Ok((store, backend))
    }
}

/// A test fault, once: the first instance that asks takes it.
fn take(fault: &std::sync::Mutex<Option<String>>) -> Option<String> {
    match fault.lock() {
        Ok(mut fault) => fault.take(),
        Err(poisoned) => poisoned.into_inner().take(),
    }
}

/// An instance that writes published packages into one output directory, one package
/// per call: it holds one package's bytes at a time (its memory is reused between calls),
/// and each package's files are replaced all at once.
pub struct OutputWriter {
    store: Store<HostState>,
    backend: Backend,
    calls: Arc<AtomicU64>,
}

impl OutputWriter {
    /// Writes one package's files; a failure leaves that package's files as they were.
    pub async fn write_package(
        &mut self,
        session_id: &str,
        package: PackageOutput,
        project_packages: &[String],
    ) -> Result<OutputReport, CallError> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        bounded!(
            self.store,
            self.backend.ofgui_backend_output().call_write_packages(
                &mut self.store,
                session_id,
                &[package],
                project_packages
            )
        )?
        .map_err(CallError::from_guest)
    }
}

/// Runs one export of the session's `project` resource under the call deadline, turning
/// traps and component failures into [`CallError`]s.
macro_rules! call {
    ($instance:ident, $export:ident $(, $arg:expr)*) => {{
        $instance.calls.fetch_add(1, Ordering::Relaxed);
        bounded!(
            $instance.store,
            $instance
                .backend
                .ofgui_backend_session()
                .project()
                .$export(&mut $instance.store, $instance.project $(, $arg)*)
        )
    }};
}

// The bindings take the WIT `json` alias (a `String`) by reference, so `&String` it is.
#[allow(clippy::ptr_arg)]
impl Instance {
    pub async fn status(&mut self) -> Result<SessionStatus, CallError> {
        call!(self, call_status)
    }

    /// Runs a method the component answers from its input object alone (WIT `call`).
    pub async fn call(&mut self, method: &str, input: &String) -> Result<GuestReply, CallError> {
        reply(call!(self, call_call, method, input)?)
    }

    pub async fn apply(
        &mut self,
        expected_revision: u64,
        operations: &String,
    ) -> Result<GuestReply, CallError> {
        reply(call!(self, call_apply, expected_revision, operations)?)
    }

    pub async fn planned_writes(
        &mut self,
        materialize: bool,
        expected_revision: Option<u64>,
    ) -> Result<PlannedWrites, CallError> {
        call!(self, call_planned_writes, materialize, expected_revision)?
            .map_err(CallError::from_guest)
    }

    pub async fn preflight(
        &mut self,
        expected_revision: u64,
        operations: &String,
    ) -> Result<GuestReply, CallError> {
        reply(call!(self, call_preflight, expected_revision, operations)?)
    }

    /// Undoes (`redo` false) or redoes one batch, or previews that.
    pub async fn step_history(
        &mut self,
        expected_revision: u64,
        redo: bool,
        preview: bool,
    ) -> Result<GuestReply, CallError> {
        reply(call!(
            self,
            call_step_history,
            expected_revision,
            redo,
            preview
        )?)
    }

    pub async fn read_resource_bytes(
        &mut self,
        expected_revision: u64,
        package_id: &str,
        resource_id: &str,
    ) -> Result<BytesReply, CallError> {
        call!(
            self,
            call_read_resource_bytes,
            expected_revision,
            package_id,
            resource_id
        )?
        .map_err(CallError::from_guest)
    }

    pub async fn render(&mut self, input: &String) -> Result<PictureReply, CallError> {
        call!(self, call_render, input)?.map_err(CallError::from_guest)
    }

    pub async fn publish(&mut self, input: &String) -> Result<PublishReply, CallError> {
        call!(self, call_publish, input)?.map_err(CallError::from_guest)
    }

    /// One package's files with their bytes, as the last `publish` of `input` listed them.
    pub async fn publish_package(
        &mut self,
        input: &String,
        package_name: &str,
    ) -> Result<PackageOutput, CallError> {
        call!(self, call_publish_package, input, package_name)?.map_err(CallError::from_guest)
    }

    pub async fn save(&mut self, expected_revision: Option<u64>) -> Result<SaveReply, CallError> {
        call!(self, call_save, expected_revision)?.map_err(CallError::from_guest)
    }

    pub async fn materialize(
        &mut self,
        expected_revision: Option<u64>,
    ) -> Result<SaveReply, CallError> {
        call!(self, call_materialize, expected_revision)?.map_err(CallError::from_guest)
    }

    /// Drops the project resource, then the whole instance with its memory.
    pub async fn close(mut self) {
        // A failure here only means the instance is already unusable; it is dropped either way.
        let _ = bounded!(
            self.store,
            self.project.resource_drop_async(&mut self.store)
        );
    }
}

fn reply(
    result: Result<crate::backend::bindings::Reply, crate::backend::bindings::BackendError>,
) -> Result<GuestReply, CallError> {
    let reply = result.map_err(CallError::from_guest)?;
    GuestReply::decode(reply).map_err(|error| CallError::Backend(Box::new(error)))
}

/// How the backend's engine is configured, compiling or not.
fn engine_config() -> wasmtime::Config {
    let mut config = wasmtime::Config::new();
    // Call deadlines are epoch deadlines (see `EPOCH_TICK`).
    config.epoch_interruption(true);
    config
}

/// The backend compiled to machine code: by `engine` when it has a compiler, else by a
/// compiling engine of the runtime's configuration, whose output `engine` loads.
fn compile_backend(engine: &Engine) -> Result<Vec<u8>> {
    match engine.precompile_component(BACKEND_WASM) {
        Ok(compiled) => Ok(compiled),
        Err(_) => Engine::new(&engine_config())?
            .precompile_component(BACKEND_WASM)
            .map_err(anyhow::Error::from),
    }
    .context("compiling backend.wasm")
}

/// Loads the component for `engine`: the cached compiled artifact in `cache_dir`, else a
/// fresh compile (then cached).
///
/// Public so tests can check each path.
pub fn load_component(
    engine: &Engine,
    cache_dir: Option<&Path>,
) -> Result<(Component, ComponentSource)> {
    let Some(cache_dir) = cache_dir else {
        tracing::info!(
            "compiling the backend for this machine (no compile cache: every start does this)"
        );
        let started = std::time::Instant::now();
        let compiled = compile_backend(engine)?;
        // SAFETY: `compiled` was just produced by `precompile_component` of this
        // configuration.
        let component = unsafe { Component::deserialize(engine, &compiled) }
            .map_err(anyhow::Error::from)
            .context("loading compiled backend.wasm")?;
        tracing::info!(
            "compiled the backend in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        return Ok((component, ComponentSource::Compiled));
    };
    let path = artifact_path(engine, cache_dir);
    if trusted_cache_file(&path) {
        // SAFETY: the file was written by `store_artifact` below from `precompile_component`
        // of this very engine configuration, in a directory only this user can write; wasmtime
        // still checks its version and configuration header and rejects a mismatch.
        match unsafe { Component::deserialize_file(engine, &path) } {
            Ok(component) => return Ok((component, ComponentSource::Cache)),
            Err(error) => tracing::warn!(
                "ignoring unusable compile cache {}: {error:#}",
                path.display()
            ),
        }
    }
    // Seconds of silence at a first start would look like a hang.
    tracing::info!(
        "compiling the backend for this machine, once (10-60 s); later starts load it from {}",
        cache_dir.display()
    );
    let started = std::time::Instant::now();
    let compiled = compile_backend(engine)?;
    match store_artifact(cache_dir, &path, &compiled) {
        Ok(()) => tracing::info!(
            "compiled the backend in {:.1} s and cached it",
            started.elapsed().as_secs_f64()
        ),
        Err(error) => tracing::warn!(
            "compiled the backend in {:.1} s but cannot write the compile cache to {}: {error:#}",
            started.elapsed().as_secs_f64(),
            cache_dir.display()
        ),
    }
    // SAFETY: `compiled` was just produced by `precompile_component` of this
    // configuration.
    let component = unsafe { Component::deserialize(engine, &compiled) }
        .map_err(anyhow::Error::from)
        .context("loading compiled backend.wasm")?;
    Ok((component, ComponentSource::Compiled))
}

/// The cache file name: it changes whenever the component, wasmtime or the engine
/// configuration changes, so a stale artifact is never picked up.
fn artifact_path(engine: &Engine, cache_dir: &Path) -> PathBuf {
    let mut hasher = DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut hasher);
    let component = &BACKEND_WASM_SHA256[..24];
    let engine = hasher.finish();
    cache_dir.join(format!("backend-{component}-{engine:016x}.cwasm"))
}

#[cfg(unix)]
fn private(metadata: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    metadata.permissions().mode() & 0o022 == 0
}

#[cfg(not(unix))]
fn private(_: &std::fs::Metadata) -> bool {
    true
}

/// Only a regular file in a directory nobody else can write is trusted.
fn trusted_cache_file(path: &Path) -> bool {
    let file_ok = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file() && private(&m));
    let dir_ok = path
        .parent()
        .and_then(|dir| std::fs::symlink_metadata(dir).ok())
        .is_some_and(|m| m.is_dir() && private(&m));
    file_ok && dir_ok
}

fn store_artifact(cache_dir: &Path, path: &Path, compiled: &[u8]) -> Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(cache_dir)?;
    // Write then rename, so a concurrent start never maps a half-written file.
    let temporary = cache_dir.join(format!(".{}.tmp", uuid::Uuid::new_v4()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let result = (|| {
        use std::io::Write;
        let mut file = options.open(&temporary)?;
        file.write_all(compiled)?;
        file.sync_all()?;
        std::fs::rename(&temporary, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    Ok(result?)
}

/// The default compile cache directory: `$OFGUI_CACHE_DIR`, else the user cache directory.
pub fn default_cache_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("OFGUI_CACHE_DIR") {
        return Some(PathBuf::from(dir));
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
        return Some(PathBuf::from(dir).join("ofgui"));
    }
    if cfg!(target_os = "macos") {
        return std::env::var_os("HOME")
            .map(|home| PathBuf::from(home).join("Library/Caches/ofgui"));
    }
    if cfg!(windows) {
        return std::env::var_os("LOCALAPPDATA")
            .map(|dir| PathBuf::from(dir).join("ofgui").join("cache"));
    }
    std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache/ofgui"))
}
