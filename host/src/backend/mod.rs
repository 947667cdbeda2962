//! The backend component as the host runs it: the wasmtime engine and the loaded
//! component ([`runtime`]), its WIT bindings and what crosses them ([`bindings`]), the
//! sandbox that gives each instance its one preopened directory ([`sandbox`]), the
//! advisory lock on a project ([`lock`]) and the durable journal of its unsaved edits
//! ([`journal`]), beside it or in a state directory ([`state`]).
//!
//! The lowest room of the host: it uses wasmtime, cap-std and the contracts, never the
//! rooms above it.

pub mod bindings;
pub mod journal;
pub mod lock;
pub mod runtime;
pub mod sandbox;
pub mod state;
