//! The ofgui backend.
//!
//! Reads FairyGUI editor projects into the Unified Authoring Model and serves one project
//! session. Built for `wasm32-wasip2` it is `backend.wasm`, a WASI Preview 2 component
//! whose only storage is the preopened project directory; built natively it is a plain
//! library for unit tests and benchmarks.

pub mod budget;
pub mod codegen;
pub mod commit;
pub mod formats;
pub mod fs;
pub mod lookup;
pub mod outline;
pub mod preview;
pub mod publish;
pub mod query;
pub mod reader;
pub mod render;
pub mod report;
pub mod rules;
pub mod scope;
pub mod search;
pub mod session;
pub mod source;
pub mod strings;
#[doc(hidden)]
pub mod testing;
pub mod txn;
pub mod validate;
pub mod writer;

// The WIT adapter is only meaningful inside backend.wasm (a native cdylib cannot carry
// its export names); its own unit tests also build it natively.
#[cfg(any(target_arch = "wasm32", test))]
mod component;
