//! `backend.wasm`, the ofgui backend component, built from this checkout by `build.rs` and
//! embedded, with its SHA-256. A crate of its own so that the component's build starts
//! as soon as a fresh build does (see `Cargo.toml`).

/// The backend component (`wasm32-wasip2`).
pub const BACKEND_WASM: &[u8] = include_bytes!(env!("OFGUI_BACKEND_WASM_FILE"));

/// The SHA-256 of [`BACKEND_WASM`], in hex.
pub const BACKEND_WASM_SHA256: &str = env!("OFGUI_BACKEND_WASM_SHA256");

/// Where the build left the embedded copy of the component (for tests that hand the same
/// file to another host).
pub const BACKEND_WASM_FILE: &str = env!("OFGUI_BACKEND_WASM_FILE");
