//! Which MCP lifecycle a stdio connection speaks, so that a client may change its mind
//! once: one that began without a handshake (MCP 2026-07-28, each request carrying its
//! context in `_meta`) and then sends `initialize` is from then on an `initialize`
//! client, whose later requests carry no `_meta`.
//!
//! The protocol library decides the lifecycle on the first request and, after a
//! handshake-free start, asks every later request for its `_meta`, so the legacy requests
//! that follow such an `initialize` would all be refused. Here they get, in `_meta`, the
//! protocol version the handshake agreed and the capabilities the client declared in it:
//! exactly what they would have said in the 2026-07-28 form, and what the handshake
//! already told the server.

use rmcp::model::{
    ClientCapabilities, ClientJsonRpcMessage, ClientRequest, GetMeta as _, JsonRpcMessage,
    ProtocolVersion, ServerJsonRpcMessage, ServerResult,
};

/// What the connection has shown of its lifecycle so far.
#[derive(Debug, Default)]
pub enum Lifecycle {
    /// Nothing yet, or only requests that choose no lifecycle (`ping`, `server/discover`).
    #[default]
    Undecided,
    /// The first request carried its context inline; no `initialize` since.
    Inline,
    /// An `initialize` came after an inline start; its answer is not out yet.
    Initializing { capabilities: ClientCapabilities },
    /// The handshake after an inline start agreed on `version`: later requests without a
    /// `_meta` are given it.
    Initialized {
        version: ProtocolVersion,
        capabilities: ClientCapabilities,
    },
    /// The connection began with `initialize`, as the library expects: nothing to do.
    Handshake,
}

impl Lifecycle {
    /// Notes a message from the client and fills in a legacy request's `_meta` when the
    /// connection turned to the handshake after an inline start.
    pub fn received(&mut self, message: &mut ClientJsonRpcMessage) {
        let JsonRpcMessage::Request(request) = message else {
            return;
        };
        match (&*self, &request.request) {
            (Lifecycle::Undecided, ClientRequest::InitializeRequest(_)) => {
                *self = Lifecycle::Handshake;
            }
            (
                Lifecycle::Undecided,
                ClientRequest::PingRequest(_) | ClientRequest::DiscoverRequest(_),
            ) => {}
            (Lifecycle::Undecided, other) => {
                let meta = other.get_meta();
                let inline = meta.protocol_version().is_some()
                    && meta
                        .missing_required_keys(&ProtocolVersion::V_2026_07_28)
                        .is_empty();
                if inline {
                    *self = Lifecycle::Inline;
                }
            }
            (
                Lifecycle::Inline | Lifecycle::Initialized { .. },
                ClientRequest::InitializeRequest(initialize),
            ) => {
                *self = Lifecycle::Initializing {
                    capabilities: initialize.params.capabilities.clone(),
                };
            }
            (
                Lifecycle::Initialized {
                    version,
                    capabilities,
                },
                _,
            ) => {
                let meta = request.request.get_meta_mut();
                if meta.protocol_version().is_none() {
                    meta.set_protocol_version(version.clone());
                    meta.set_client_capabilities(capabilities.clone());
                }
            }
            _ => {}
        }
    }

    /// Notes a message to the client: the answer to an `initialize` after an inline start
    /// says which version the handshake agreed.
    pub fn sent(&mut self, message: &ServerJsonRpcMessage) {
        let Lifecycle::Initializing { capabilities } = self else {
            return;
        };
        match message {
            JsonRpcMessage::Response(response) => {
                if let ServerResult::InitializeResult(result) = &response.result {
                    *self = Lifecycle::Initialized {
                        version: result.protocol_version.clone(),
                        capabilities: std::mem::take(capabilities),
                    };
                }
            }
            // A refused handshake leaves the connection inline.
            JsonRpcMessage::Error(_) => *self = Lifecycle::Inline,
            _ => {}
        }
    }
}
