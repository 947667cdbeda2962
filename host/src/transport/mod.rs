//! How MCP reaches the server: newline-delimited JSON-RPC on stdio ([`stdio`]) and
//! Streamable HTTP with tenants, tokens and a drain at shutdown ([`http`]), on connections
//! accepted under limits ([`connections`]), with each POST's body read and checked first
//! (`request`) and a call for a session another node serves sent on to it (`forward`).
//!
//! A transport frames messages and guards the connection; it uses [`crate::mcp`]'s server
//! and knows no method names or session logic.

pub mod connections;
mod forward;
pub mod http;
mod lifecycle;
mod request;
mod review;
pub mod stdio;
mod tenants;
