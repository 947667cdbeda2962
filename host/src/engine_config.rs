//! The wasmtime engine configuration, in one place because two programs use it: the
//! build script precompiles backend.wasm with it (`#[path]`-included by `host/build.rs`)
//! and the runtime loads that artifact with it. wasmtime refuses an artifact compiled
//! under another configuration, so the two must never drift.

/// The configuration of the process-wide engine.
pub fn engine_config() -> wasmtime::Config {
    let mut config = wasmtime::Config::new();
    // Call deadlines are epoch deadlines (see `runtime::EPOCH_TICK`).
    config.epoch_interruption(true);
    config
}
