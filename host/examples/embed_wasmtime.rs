//! Embedding `backend.wasm` in your own wasmtime host, without the `ofgui-host` library: one
//! instance per project, the project directory as its only preopen, a memory cap and a
//! deadline per call. Prints the project's outline (`ProjectOutline` JSON).
//!
//! ```sh
//! cargo run -p ofgui-host --example embed_wasmtime -- \
//!     <target-dir>/backend-wasm/wasm32-wasip2/wasm/ofgui_backend.wasm examples/HelloFairy HelloFairy.fairy
//! ```
//!
//! docs/embedding.md quotes the part between the `embed:` markers, and
//! `host/tests/embed.rs` runs it and checks the quote, so the two cannot drift.

// embed:begin
use std::path::Path;
use std::time::Duration;

use wasmtime::component::{Component, Linker, ResourceTable};
use wasmtime::{Config, Engine, Store, StoreLimits, StoreLimitsBuilder};
use wasmtime_wasi::{FsPerms, WasiCtx, WasiCtxView, WasiView};

wasmtime::component::bindgen!({ world: "backend", path: "../wit" });
use exports::ofgui::backend::session::{BackendError, OpenRequest};

/// How often the engine's epoch advances, and how many ticks one call may take (60 s).
const TICK: Duration = Duration::from_millis(100);
const CALL_TICKS: u64 = 600;

/// An engine whose calls can be stopped: a thread advances its epoch every `TICK`, and a
/// call still running when its store's deadline passes traps.
pub fn engine() -> anyhow::Result<Engine> {
    let mut config = Config::new();
    config.epoch_interruption(true);
    let engine = Engine::new(&config)?;
    let ticker = engine.weak();
    std::thread::spawn(move || {
        while let Some(engine) = ticker.upgrade() {
            engine.increment_epoch();
            drop(engine);
            std::thread::sleep(TICK);
        }
    });
    Ok(engine)
}

/// One instance's host state: its WASI context and its limits.
pub struct Host {
    wasi: WasiCtx,
    table: ResourceTable,
    limits: StoreLimits,
}

impl WasiView for Host {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

/// Opens the project `fairy_file` in `dir` in a fresh instance and returns its outline.
pub fn outline(
    engine: &Engine,
    component: &Component,
    dir: &Path,
    fairy_file: &str,
) -> anyhow::Result<String> {
    let mut linker = Linker::<Host>::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
    // The component's only capability: the project directory as `.`, writable so that
    // saves work.
    let mut wasi = WasiCtx::builder();
    wasi.preopened_dir(dir, ".", FsPerms::ReadWrite)?
        .inherit_stderr();
    // A growth past 1 GiB traps instead of failing inside the guest.
    let limits = StoreLimitsBuilder::new()
        .memory_size(1 << 30)
        .trap_on_grow_failure(true)
        .build();
    let host = Host {
        wasi: wasi.build(),
        table: ResourceTable::new(),
        limits,
    };
    let mut store = Store::new(engine, host);
    store.limiter(|host| &mut host.limits);

    store.set_epoch_deadline(CALL_TICKS);
    let backend = Backend::instantiate(&mut store, component, &linker)?;
    let project = backend.ofgui_backend_session().project();
    // The names are labels the component echoes in results and errors.
    let request = OpenRequest {
        session_id: "s1".into(),
        fairy_file: fairy_file.into(),
        project_path: dir.display().to_string(),
        canonical_path_key: dir.display().to_string(),
        revision: 0,
    };
    // One call at a time per store, each with a fresh deadline. A trap (deadline, memory
    // cap, bug) is the outer error; the instance must not be called again after one.
    store.set_epoch_deadline(CALL_TICKS);
    let opened = project.call_open(&mut store, &request)?.map_err(failed)?;
    store.set_epoch_deadline(CALL_TICKS);
    let input = r#"{"sessionId":"s1"}"#.to_string();
    let reply = project
        .call_outline(&mut store, opened.project, &input)?
        .map_err(failed)?;
    Ok(reply.data)
}

/// A failure the component reported as data: its code, message and JSON details.
fn failed(error: BackendError) -> anyhow::Error {
    anyhow::anyhow!("{:?}: {} {}", error.code, error.message, error.details)
}
// embed:end

fn main() -> anyhow::Result<()> {
    let usage = "usage: embed_wasmtime <backend.wasm> <project-dir> <file.fairy>";
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [wasm, dir, fairy_file] = &args[..] else {
        anyhow::bail!(usage);
    };
    let engine = engine()?;
    let component = Component::from_file(&engine, wasm)
        .map_err(|error| anyhow::anyhow!("loading {wasm}: {error:#}"))?;
    println!(
        "{}",
        outline(&engine, &component, Path::new(dir), fairy_file)?
    );
    Ok(())
}
