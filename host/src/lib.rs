//! ofgui-mcp-host: serves FairyGUI projects to AI agents over MCP.
//!
//! The host is thin: protocol ([`mcp`], with [`resources`] and [`prompts`]), sandbox ([`sandbox`]), session bookkeeping,
//! locks and limits ([`sessions`], [`lock`], [`service`]), events and the derived cache ([`events`], [`cache`]), and the command line beside the server ([`commands`]). Project semantics live in the backend component,
//! which [`runtime`] runs with wasmtime, one instance per session.

pub mod bindings;
pub mod cache;
pub mod cli;
pub mod commands;
pub mod completions;
pub mod compose;
pub mod confirm;
mod engine_config;
pub mod envelope;
pub mod events;
pub mod explain;
pub mod http;
pub mod input;
pub mod lock;
pub mod mcp;
pub mod notify;
pub mod policy;
pub mod prompts;
pub mod report;
pub mod resources;
pub mod runtime;
pub mod sandbox;
pub mod service;
pub mod sessions;
pub mod stdio;
