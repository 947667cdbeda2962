//! End-to-end tests: the real `ofgui-mcp-host` binary, spoken to over stdio by rmcp's MCP
//! client, on copies of the real corpora in `../shared/corpora` and the bundled example.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

/// Spawning the server and checking every result against its output schema.
mod harness;

/// Projects of many packages made from the corpora (shared with the benchmark).
#[path = "../support/many_packages.rs"]
mod many_packages;

/// Handshake, tool list, annotations and metadata.
mod protocol;

/// Opening the real corpus projects and reading them through every read tool.
mod corpora;

/// Scoped and paged outlines and session state, and search, on the 30-package corpus.
mod scoping;

/// Failure envelopes: unknown tools, bad arguments, unknown sessions, bad selectors.
mod errors;

/// Session lifecycle: locks, limits, close.
mod sessions;

/// The sandbox as seen through the tools: roots, `..`, symlinks, hard links, siblings.
mod sandbox;

/// validateSession on the corpora and on deliberately broken copies.
mod validation;

/// The command line for people and CI jobs: validate, outline, query, apply, docs.
mod cli;

/// Preflight, apply and events: the upstream agent editing tasks.
mod transactions;

/// Component previews: every corpus component, controller pages, limits, before/after.
mod render;

/// Undo, redo and the history: through saves, with previews and events.
mod history;

/// Unsaved edits in the project's journal, recovered after a kill.
mod journal;

/// A 2026-07-28 agent over HTTP, one request per call (cluster and review tests).
mod over_http;

/// The review view's browser door: a person's browser, and what the door refuses.
mod review;

/// Two nodes behind HAProxy sharing a state directory: a node killed loses no edit.
mod cluster;

/// `serve --http`: tokens as tenants, read-only and narrow roots, Origin, SIGTERM.
mod http;

// `serve --http` under clients that stall, flood or send what is not JSON-RPC.
mod http_limits;

/// Resources (contract documents, session views) and prompts.
mod resources;

/// The raw stdio wire: malformed, out-of-range and oversized request lines.
mod wire;

/// Saving: what a save writes, refuses and keeps; the advisory lock between servers.
mod saving;

/// A save killed at each step of its commit, and the recovery of the next open.
mod crash;

/// Publishing for the game: the editor's files, where they may go, all or nothing.
mod publishing;

/// Runaway calls: stopped at the call deadline or the memory cap, the session restored.
mod runaway;

/// Sessions driven at once: serialized within, independent between, consistent after.
mod stress;

/// Sessions over a project given as a document, and their first write into a directory.
mod memory;

/// The derived cache: entries, refreshes and their events.
mod cache;

/// `--confirm-writes`: the user confirms each write through elicitation.
mod confirm;

/// Completions, resource subscriptions, log messages and progress (beyond upstream).
mod notifications;

/// Third-party clients: Python and TypeScript SDK agent sessions, the Inspector's strict check.
mod clients;

/// Hostile projects and writes under attack: bombs, bad names, links, lies, swaps.
mod hostile;

/// The same component under jco and Node: every step answered as ofgui-mcp-host answers it.
mod cross_host;

/// Every result held to upstream's published output schemas (`@openfairygui/backend@0.6.1`).
mod upstream_contract;

/// Previews against the FairyGUI runtime in headless Chromium, on the published unity corpus.
pub(crate) mod runtime;
/// `strings`: translatable strings exported, converted and checked.
mod strings;

/// The official MCP conformance suite against the HTTP server, for both revisions, with the
/// checks it may fail listed (and why) in `tests/conformance/`.
mod conformance;
