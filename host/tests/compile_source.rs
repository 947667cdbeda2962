//! Where the backend's machine code comes from: the copy compiled at build time and
//! embedded in the binary, else the on-disk compile cache, else a fresh compile.

use ofgui_host::runtime::{ComponentSource, InstanceLimits, Runtime, load_component};

/// The artifact `build.rs` embeds must load into the runtime's own engine: if the build
/// script and the runtime ever configured wasmtime differently (features, `Config`),
/// every start would silently fall back to a multi-second compile.
#[test]
fn embedded_artifact_loads() {
    let runtime = Runtime::new(None, InstanceLimits::default()).unwrap();
    assert_eq!(runtime.component_source(), ComponentSource::Embedded);
}

/// An engine the embedded code does not fit (here: no epoch interruption) is refused by
/// wasmtime, and loading falls back to compiling once and then to the cache.
#[test]
fn mismatched_engine_compiles_then_uses_the_cache() {
    let engine = wasmtime::Engine::new(&wasmtime::Config::new()).unwrap();
    let cache = tempfile::tempdir().unwrap();
    let (_, source) = load_component(&engine, Some(cache.path())).unwrap();
    assert_eq!(source, ComponentSource::Compiled);
    let (_, source) = load_component(&engine, Some(cache.path())).unwrap();
    assert_eq!(source, ComponentSource::Cache);
}
