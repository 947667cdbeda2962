//! Relaying a request to the node that serves its session, for servers sharing a state
//! directory: a balancer routes a session's requests by the node its id names, but a
//! session moves when that node dies, and after the node comes back its requests still
//! reach it. The node then sends them on, once, to the one its record names.
//!
//! The request goes on as it came (method, headers, body) with one header added, which
//! says it was relayed: a relayed request is always served where it arrives, so a stale
//! record cannot send it round in circles.

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, Request, Response};
use hyper_util::rt::TokioIo;

/// Set on a relayed request, with the relaying node's name.
pub const RELAYED_BY: &str = "x-ofgui-relayed-by";

/// How long the node named in a record may take to accept a connection; one that does
/// not is taken to be gone, and the session is served where the request is.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);

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
        Ok(response) if response.status() == axum::http::StatusCode::SERVICE_UNAVAILABLE => {
            Relayed::Draining
        }
        Ok(response) => Relayed::Answered(response.map(Body::new)),
        Err(error) => {
            tracing::warn!(to = %address, "a relayed request broke off, so it is served here: {error}");
            Relayed::Gone
        }
    }
}
