//! An agent of MCP 2026-07-28 over Streamable HTTP, without a protocol session: one
//! request per tool call, for the tests that drive `serve --http` by hand (nodes behind a
//! balancer, the review view).

use std::time::Duration;

use serde_json::{Value, json};

/// An HTTP client that reports every status (the tests read them) and follows no
/// redirect.
pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

/// Calls `tool` at `addr` (with `token`'s bearer, when given): the envelope, or the
/// JSON-RPC error when the call got none.
pub fn call(addr: &str, token: Option<&str>, tool: &str, arguments: Value) -> Value {
    let answer = answer(addr, token, tool, arguments);
    match answer["result"]["structuredContent"]["backendResult"].clone() {
        Value::Null => answer["error"].clone(),
        envelope => envelope,
    }
}

/// Calls `tool` at `addr`: the whole JSON-RPC answer (the tool result's content too).
pub fn answer(addr: &str, token: Option<&str>, tool: &str, arguments: Value) -> Value {
    let body = json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": tool,
            "arguments": arguments,
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
            },
        },
    });
    let mut request = agent()
        .post(format!("http://{addr}/mcp"))
        .header("Accept", "application/json, text/event-stream")
        .header("Content-Type", "application/json")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tools/call")
        .header("Mcp-Name", tool);
    if let Some(token) = token {
        request = request.header("Authorization", &format!("Bearer {token}"));
    }
    let text = request
        .send(body.to_string())
        .unwrap()
        .into_body()
        .read_to_string()
        .unwrap();
    // One JSON body, or an event stream whose data line is the answer.
    let answer: Value = text
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .find(|data| !data.is_empty())
        .map_or_else(|| serde_json::from_str(&text), serde_json::from_str)
        .unwrap_or_else(|error| panic!("{error}: {text}"));
    answer
}

/// Opens `project` at `addr`: the session's id and the first display node of its first
/// component (package, component, node ids).
pub fn open(
    addr: &str,
    token: Option<&str>,
    project: &std::path::Path,
) -> (String, (String, String, String)) {
    let opened = call(
        addr,
        token,
        "openfairygui_backend_open_session",
        json!({ "projectPath": project }),
    );
    let session = opened["data"]["sessionId"]
        .as_str()
        .unwrap_or_else(|| panic!("{opened}"))
        .to_owned();
    let outline = call(
        addr,
        token,
        "openfairygui_backend_get_project_outline",
        json!({ "sessionId": session }),
    );
    let node = crate::harness::first_node(&outline["data"]);
    (session, node)
}

/// An apply moving `node` to (`x`, 12) at `revision`.
pub fn move_at(session: &str, revision: u64, node: &(String, String, String), x: i64) -> Value {
    json!({
        "sessionId": session,
        "expectedRevision": revision,
        "operations": crate::harness::move_node(node, x),
    })
}
