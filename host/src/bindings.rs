//! Host bindings of the `ofgui:backend` world (`wit/backend.wit`).
//!
//! Exports are async because WASI Preview 2 filesystem calls are async in
//! wasmtime-wasi and the host runs inside tokio.

wasmtime::component::bindgen!({
    world: "backend",
    path: "../wit",
    exports: { default: async },
});

pub use exports::ofgui::backend::session::{BackendError, ErrorCode, SessionStatus, UamFidelity};
