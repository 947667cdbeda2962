//! The host's integration tests that drive the library directly, as one test binary (each
//! module was a test target of its own, linking wasmtime and the host again). The tests
//! that run the real binary are `tests/e2e`, apart.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

mod common;

// The examples' own code, so what docs/embedding.md shows is what is tested.
#[allow(dead_code)]
#[path = "../examples/approved_saves.rs"]
mod approved_saves;
#[allow(dead_code)]
#[path = "../examples/embed_wasmtime.rs"]
mod embed_wasmtime;

mod architecture;
mod boundary;
mod compile_source;
mod compose;
mod embed;
mod output_schemas;
mod readme;
mod recovery;
mod resume;
mod wasi_layer;
