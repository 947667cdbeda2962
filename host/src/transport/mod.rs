//! How MCP reaches the server: newline-delimited JSON-RPC on stdio ([`stdio`]) and
//! Streamable HTTP with tenants, tokens and a drain at shutdown ([`http`]), on connections
//! accepted under limits ([`connections`]).
//!
//! A transport frames messages and guards the connection; it uses [`crate::mcp`]'s server
//! and knows no method names or session logic.

pub mod connections;
mod forward;
pub mod http;
mod lifecycle;
pub mod stdio;
