//! What the HTTP server's parts share: its tenants (one per token, each with its service
//! and MCP server) and the server-wide state a request is judged by. `http` builds it;
//! `http` and `review` read it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize};

use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use sha2::{Digest, Sha256};

use super::request::BodyLimits;
use crate::mcp::OfguiServer;
use crate::service::Service;

/// One token's server: its service and its MCP endpoint.
pub(super) struct Tenant {
    pub label: String,
    pub token_digest: Option<[u8; 32]>,
    pub service: Arc<Service>,
    /// The tenant's MCP server, which the review page's calls go through too.
    pub server: OfguiServer,
    pub read_only: bool,
    /// Writes waiting for a person on the review page (`--confirm-writes`).
    pub approvals: Option<Arc<crate::policy::confirm::Approvals>>,
    pub endpoint: StreamableHttpService<OfguiServer, LocalSessionManager>,
    /// The tenant's MCP sessions (the endpoint's), counted against its cap.
    pub mcp_sessions: Arc<LocalSessionManager>,
}

pub(super) struct Shared {
    pub tenants: Vec<Tenant>,
    /// Set at SIGTERM: new requests are refused while the calls in flight finish.
    pub draining: AtomicBool,
    /// POST responses not yet sent in full (a tool call's answer among them).
    pub answering: AtomicUsize,
    pub body_limits: BodyLimits,
    /// `Host` names a request may carry (loopback, and `--allowed-host`s).
    pub allowed_hosts: Vec<String>,
    /// `ofgui-mcp-host review`: the review link works once; set once it was used.
    pub link_once: Option<AtomicBool>,
    pub max_mcp_sessions: usize,
    /// `/metrics` answers without a token (a loopback server, or one told to).
    pub open_metrics: bool,
    /// This server's name among the nodes sharing its state directory, when the others can
    /// reach it: it then relays a request for a session another node serves.
    pub node: Option<String>,
}

impl Shared {
    /// The tenant whose token this is. Every tenant's digest is compared, in constant
    /// time, so the answer's timing tells nothing about which one came close.
    pub fn tenant_of(&self, token: &str) -> Option<&Tenant> {
        let given = digest(token);
        let mut found = None;
        for tenant in &self.tenants {
            if let Some(expected) = &tenant.token_digest
                && same(expected, &given)
            {
                found = Some(tenant);
            }
        }
        found
    }
}

/// A token as the server keeps it: its SHA-256, never the token itself.
pub(super) fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Equal in constant time, so an answer's timing tells nothing of how close a guess was.
pub(super) fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
