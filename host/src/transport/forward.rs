//! Sending a request on to the node that serves its session, for servers sharing a state
//! directory: a balancer routes a session's requests by the node its id names, but a
//! session moves when that node dies, and after the node comes back its requests still
//! reach it. The node then sends them on, once, to the one its record names.
//!
//! The request goes on as it came (method, headers, body) with one header added, which
//! says it was relayed: a relayed request is always served where it arrives, so a stale
//! record cannot send it round in circles.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;

use super::request::{Probe, rpc_error};
use crate::service::{Service, Whereabouts};

/// Set on a relayed request, with the relaying node's name.
pub const RELAYED_BY: &str = "x-ofgui-relayed-by";

/// How long the node named in a record may take to accept a connection; one that does
/// not is taken to be gone, and the session is served where the request is.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);

/// How long a node waits for a draining node (SIGTERM) that serves a session to exit and
/// let go of it, before serving the request itself (and finding the session locked).
const DRAIN_PATIENCE: Duration = Duration::from_secs(15);

/// Sends a tool call for a session another node serves (by the session's record) to that
/// node, unless the request was relayed already or this server is no node that others
/// reach; the request back (`Ok`) when it is served here.
pub(super) async fn to_its_node(
    service: &Arc<Service>,
    node: Option<&str>,
    request: Request<Body>,
    probe: &Probe,
) -> Result<Request<Body>, Response<Body>> {
    let Some(node) = node else {
        return Ok(request);
    };
    let Some(session_id) = probe.session_id.as_deref() else {
        return Ok(request);
    };
    if request.headers().contains_key(RELAYED_BY) {
        return Ok(request);
    }
    let Whereabouts::There(mut address) = service.locate(session_id, None).await else {
        return Ok(request);
    };
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, usize::MAX).await else {
        return Err(rpc_error(
            StatusCode::BAD_REQUEST,
            -32600,
            "Invalid request: the body could not be read; nothing was done.",
        ));
    };
    // A node found gone is taken over here, unless another took it first (then sent
    // there, once); a draining one is waited for until it has exited.
    let mut moves = 0;
    let draining_until = Instant::now() + DRAIN_PATIENCE;
    loop {
        match relay(&address, node, &parts, bytes.clone()).await {
            Relayed::Answered(response) => return Err(response),
            Relayed::Draining if Instant::now() < draining_until => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Relayed::Draining => break,
            Relayed::Gone => match service.locate(session_id, Some(&address)).await {
                Whereabouts::There(other) if other != address && moves == 0 => {
                    moves += 1;
                    address = other;
                }
                _ => break,
            },
        }
    }
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

/// What became of a relayed request.
pub enum Relayed {
    /// The serving node's answer, streamed.
    Answered(Response<Body>),
    /// No connection could be made, or it broke before an answer came: the node is gone,
    /// and the request is served here (as the balancer sends a request on whose node died).
    /// What the node journaled before it died is there; a write it had done is refused as
    /// stale when the request carries its expected revision.
    Gone,
    /// The node is draining (SIGTERM): it does nothing new, and lets go of its sessions
    /// when it exits, in a moment.
    Draining,
}

/// Sends `parts` and `body` to `address`.
pub async fn relay(
    address: &str,
    node: &str,
    parts: &axum::http::request::Parts,
    body: Bytes,
) -> Relayed {
    let connect = tokio::time::timeout(CONNECT_TIMEOUT, tokio::net::TcpStream::connect(address));
    let Ok(Ok(stream)) = connect.await else {
        return Relayed::Gone;
    };
    let _ = stream.set_nodelay(true);
    let Ok((mut sender, connection)) =
        hyper::client::conn::http1::handshake::<_, Body>(TokioIo::new(stream)).await
    else {
        return Relayed::Gone;
    };
    tokio::spawn(async move {
        if let Err(error) = connection.await {
            tracing::debug!("a relayed request's connection ended: {error}");
        }
    });
    let mut request = Request::new(Body::from(body));
    *request.method_mut() = parts.method.clone();
    *request.uri_mut() = parts
        .uri
        .path_and_query()
        .map_or("/mcp", |path| path.as_str())
        .parse()
        .unwrap_or_default();
    *request.headers_mut() = parts.headers.clone();
    if let Ok(node) = HeaderValue::from_str(node) {
        request.headers_mut().insert(RELAYED_BY, node);
    }
    match sender.send_request(request).await {
        Ok(response) if response.status() == StatusCode::SERVICE_UNAVAILABLE => Relayed::Draining,
        Ok(response) => Relayed::Answered(response.map(Body::new)),
        Err(error) => {
            tracing::warn!(to = %address, "a relayed request broke off, so it is served here: {error}");
            Relayed::Gone
        }
    }
}
