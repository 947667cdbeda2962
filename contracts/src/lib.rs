//! The ofgui wire contract.
//!
//! Everything an agent or a host sees crosses the wire as one of these types: the
//! Unified Authoring Model ([`uam`]), the method inputs and outputs ([`api`]), the
//! response envelope ([`envelope`]) and its errors ([`error`]), the diagnostic catalog
//! ([`catalog`]), the method catalog ([`methods`]) and the command line's outputs
//! ([`cli`]). With the `schema` feature the
//! JSON Schemas committed under `contracts/generated/` are derived from these types
//! ([`schema`]).

pub mod additions;
pub mod api;
pub mod bytes;
pub mod capabilities;
pub mod catalog;
pub mod cli;
pub mod diagnostics;
pub mod docs;
pub mod echo;
pub mod envelope;
pub mod error;
pub mod guides;
pub mod methods;
pub mod num;
pub mod ops;
pub mod portable;
#[cfg(feature = "schema")]
pub mod schema;
pub mod selectors;
pub mod session;
pub mod strict;
pub mod strings_file;
pub mod uam;
pub mod version;
pub mod wording;
pub mod xml;

pub use num::Num;

/// The generated contract snapshot (tools with their schemas, diagnostics, digest).
pub const CONTRACT_JSON: &str = include_str!("../generated/contract.json");

/// The generated MCP tool list (the items of `tools/list`), with lean schemas: the default.
pub const TOOLS_JSON: &str = include_str!("../generated/tools.json");

/// The generated MCP tool list with every schema inline (`--full-schemas`).
pub const TOOLS_FULL_JSON: &str = include_str!("../generated/tools-full.json");
