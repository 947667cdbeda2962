//! ofgui-mcp-host: serves FairyGUI projects to AI agents over MCP.
//!
//! The host carries what the backend component says; project semantics live in the
//! component. Its rooms, each using only the rooms below it:
//!
//! | room | job |
//! |---|---|
//! | [`app`] | the program: reads the arguments, starts logging, and runs a command or a server |
//! | [`transport`] | stdio and Streamable HTTP: framing, auth, Host/Origin, draining, the review view's browser door |
//! | [`review`] | the review view's page (its markup, script and styles), for people to see and approve a session |
//! | [`mcp`] | the protocol: the server type, tools from the method table, resources, prompts, completions, notifications, composition for embedders |
//! | [`cli`] | the command line: arguments, and the commands for people and CI |
//! | [`service`] | dispatch by method, session lifecycle (open, rebuild, replay, close), the save guard, events, the cache, envelopes |
//! | [`policy`] | host policies, write confirmation, input budgets, plain-word explanations |
//! | [`backend`] | the wasmtime engine, the component, one store per session, preopens, limits, the advisory lock |
//! | [`strings_file`] | strings files in the three forms teams pass around (the game's XML, CSV and XLSX sheets), read and written |
//! | [`metrics`] | the process's counters (tool calls, rebuilt sessions, journal bytes…) for `/metrics` |

pub mod app;
pub mod backend;
pub mod cli;
pub mod mcp;
pub mod metrics;
pub mod policy;
pub mod review;
pub mod service;
pub mod strings_file;
pub mod transport;
