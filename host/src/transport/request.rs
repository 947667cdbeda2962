//! What a POST says before the MCP endpoint sees it: its body read whole under the
//! server's limits and checked to be one JSON-RPC object, with its method (and, for a node
//! that may relay it, a tool call's session); and the refusals decided from that alone.

use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// What a body may be.
pub(crate) struct BodyLimits {
    pub timeout: Duration,
    pub max_bytes: usize,
    /// Read a tool call's `sessionId` too (a named node, which may relay it).
    pub probe_session: bool,
}

/// A POST's body, read whole within the body timeout and the size limit and checked to
/// be one JSON object, before the MCP endpoint sees it, with its JSON-RPC method; a
/// refusal is a JSON-RPC error.
pub(super) async fn read_body(
    request: Request,
    limits: &BodyLimits,
) -> Result<(Request, Probe), Response> {
    if request.method() != axum::http::Method::POST {
        return Ok((request, Probe::default()));
    }
    let (parts, body) = request.into_parts();
    let limit = limits.max_bytes;
    let read = tokio::time::timeout(limits.timeout, axum::body::to_bytes(body, limit));
    let bytes = match read.await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) if too_large(&parts, limit) => {
            return Err(rpc_error(
                StatusCode::PAYLOAD_TOO_LARGE,
                -32600,
                &format!(
                    "Invalid request: the body is larger than {limit} bytes (--max-body-mib); nothing was done. Send large files as base64 and in more than one call."
                ),
            ));
        }
        // The client broke the connection off, or sent more than the limit without a length.
        Ok(Err(_)) => {
            return Err(rpc_error(
                StatusCode::BAD_REQUEST,
                -32600,
                &format!(
                    "Invalid request: the body could not be read whole, or is larger than {limit} bytes (--max-body-mib); nothing was done."
                ),
            ));
        }
        Err(_) => {
            let mut refused = rpc_error(
                StatusCode::REQUEST_TIMEOUT,
                -32600,
                &format!(
                    "Invalid request: the body did not arrive within {} s (--body-timeout-secs); nothing was done.",
                    limits.timeout.as_secs()
                ),
            );
            refused
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            return Err(refused);
        }
    };
    // One scan: syntax errors are not JSON, data errors not one object.
    let mut probe = match serde_json::from_slice::<Probe>(&bytes) {
        Ok(probe) => probe,
        Err(error) if error.is_data() => {
            return Err(rpc_error(
                StatusCode::BAD_REQUEST,
                -32600,
                "Invalid request: a message is one JSON-RPC object with a string method (batches are not part of MCP); nothing was done.",
            ));
        }
        Err(_) => {
            return Err(rpc_error(
                StatusCode::BAD_REQUEST,
                -32700,
                "Parse error: the body is not valid JSON (JSON has no NaN or Infinity, and every number must fit a double); nothing was done.",
            ));
        }
    };
    if limits.probe_session && probe.method.as_deref() == Some("tools/call") {
        probe.session_id = serde_json::from_slice::<CallProbe>(&bytes)
            .ok()
            .map(|call| call.params.arguments.session_id);
    }
    Ok((Request::from_parts(parts, Body::from(bytes)), probe))
}

/// The fields of a JSON-RPC message read before it is handed on; the rest is skipped
/// unread.
#[derive(Default, serde::Deserialize)]
pub(super) struct Probe {
    pub method: Option<String>,
    pub id: Option<Value>,
    /// A tool call's `sessionId`, read only by a node that may relay it.
    #[serde(skip)]
    pub session_id: Option<String>,
}

/// A tool call's session, read on a second pass over the body by a named node.
#[derive(serde::Deserialize)]
struct CallProbe {
    params: CallParams,
}

#[derive(serde::Deserialize)]
struct CallParams {
    arguments: CallArguments,
}

#[derive(serde::Deserialize)]
struct CallArguments {
    #[serde(rename = "sessionId")]
    session_id: String,
}

/// The methods MCP 2026-07-28 removed (its requests carry their context in `_meta`, and
/// updates stream from `subscriptions/listen`).
const REMOVED_IN_2026_07_28: [&str; 4] = [
    "initialize",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// A request of MCP 2026-07-28 or later (by its `MCP-Protocol-Version` header) for a
/// method that revision removed: method not found (HTTP 404), decided before its params
/// are read, since their shape is the old revision's.
pub(super) fn removed_method(request: &Request, probe: &Probe) -> Option<Response> {
    let method = probe.method.as_deref()?;
    let version = request
        .headers()
        .get("mcp-protocol-version")
        .and_then(|value| value.to_str().ok())?;
    if version < "2026-07-28" || !REMOVED_IN_2026_07_28.contains(&method) {
        return None;
    }
    let body = json!({
        "jsonrpc": "2.0",
        "id": probe.id.clone().unwrap_or(Value::Null),
        "error": {
            "code": -32601,
            "message": format!("Method not found: MCP {version} has no {method}; a request carries its protocol version and client in _meta, and subscriptions/listen streams updates."),
        },
    });
    Some(
        (
            StatusCode::NOT_FOUND,
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            )],
            body.to_string(),
        )
            .into_response(),
    )
}

/// Whether the request said, by its length, that it is over the limit.
fn too_large(parts: &axum::http::request::Parts, limit: usize) -> bool {
    parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok()?.parse::<usize>().ok())
        .is_some_and(|length| length > limit)
}

/// A JSON-RPC error answer (`id` null: the request was not read as one).
pub(super) fn rpc_error(status: StatusCode, code: i64, message: &str) -> Response {
    let body = json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": { "code": code, "message": message },
    });
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body.to_string(),
    )
        .into_response()
}
