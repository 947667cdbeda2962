//! Where the backend's machine code comes from: the on-disk compile cache, else a fresh
//! compile that fills it.

use ofgui_host::backend::runtime::{ComponentSource, InstanceLimits, Runtime, load_component};

/// The runtime's own engine compiles the component once into the cache, and every later
/// start maps it from there.
#[test]
fn first_start_compiles_then_maps_the_cache() {
    let cache = tempfile::tempdir().unwrap();
    let first = Runtime::new(
        Some(cache.path()),
        InstanceLimits::default(),
        Default::default(),
    )
    .unwrap();
    assert_eq!(first.component_source(), ComponentSource::Compiled);
    let second = Runtime::new(
        Some(cache.path()),
        InstanceLimits::default(),
        Default::default(),
    )
    .unwrap();
    assert_eq!(second.component_source(), ComponentSource::Cache);
}

/// An engine configured otherwise (here: no epoch interruption) gets its own cache file:
/// it never maps code compiled for another configuration.
#[test]
fn another_engine_configuration_compiles_its_own() {
    let cache = tempfile::tempdir().unwrap();
    Runtime::new(
        Some(cache.path()),
        InstanceLimits::default(),
        Default::default(),
    )
    .unwrap();
    let engine = wasmtime::Engine::new(&wasmtime::Config::new()).unwrap();
    let (_, source) = load_component(&engine, Some(cache.path())).unwrap();
    assert_eq!(source, ComponentSource::Compiled);
    let (_, source) = load_component(&engine, Some(cache.path())).unwrap();
    assert_eq!(source, ComponentSource::Cache);
}
