use serde_json::{Value, json};

use crate::harness::*;

#[tokio::test]
async fn handshake_names_the_server_and_lists_only_working_tools() {
    let workspace = Workspace::new();
    let server = Server::start(&[workspace.path()]).await;
    let info = server.client.peer_info().expect("server info");
    let implementation = info.server_info.as_ref().expect("serverInfo");
    assert_eq!(implementation.name, "ofgui-mcp-host");
    assert_eq!(implementation.version, env!("CARGO_PKG_VERSION"));
    assert!(
        info.instructions
            .as_deref()
            .unwrap_or_default()
            .contains("stale_read")
    );

    let names: Vec<&str> = server.tools().iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            CAPABILITIES,
            OPEN,
            OPEN_PROJECT,
            GET,
            OUTLINE,
            QUERY,
            STATE,
            SEARCH,
            BYTES,
            RENDER,
            "openfairygui_backend_validate_session",
            "openfairygui_backend_preflight_transaction",
            "openfairygui_backend_apply_transaction",
            "openfairygui_undo",
            "openfairygui_redo",
            "openfairygui_get_history",
            "openfairygui_review",
            "openfairygui_export_strings",
            "openfairygui_check_strings",
            "openfairygui_sweep_strings",
            "openfairygui_refresh_session",
            "openfairygui_backend_save_session",
            "openfairygui_backend_materialize_session",
            "openfairygui_publish",
            CLOSE,
            "openfairygui_backend_get_events",
            CACHE,
            REFRESH,
            "openfairygui_docs_read",
        ],
        "tools are listed in upstream's method order, with search after read_session_state, render after read_resource_bytes, undo, redo, history, review, the strings tools and refresh after apply_transaction and publish after materialize_session, then docs_read"
    );
    let instructions = info.instructions.as_deref().unwrap_or_default();
    for token in instructions
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|word| word.starts_with("openfairygui_backend_"))
    {
        assert!(
            names.contains(&token),
            "the instructions name {token}, which is not listed"
        );
    }
    let capabilities = server.ok(CAPABILITIES, json!({})).await;
    assert_eq!(
        capabilities["runtime"]["events"],
        json!({ "polling": true, "subscriptions": false, "retentionLimit": 1000, "sequenceScope": "runtime" })
    );
    assert_eq!(
        capabilities["authoring"]["preflightTransaction"]["limits"],
        json!({ "maxBytes": 262144, "maxEntries": 2000 })
    );
    assert_eq!(
        (
            capabilities["authoring"]["saveSession"].clone(),
            capabilities["runtime"]["atomicSave"].clone()
        ),
        (json!(true), json!(true)),
        "saving is served, and capabilities say so"
    );
    let methods: Vec<String> = serde_json::from_value(capabilities["methods"].clone()).unwrap();
    // Tools that are not backend methods (upstream's docs_read) carry no backendMethod.
    let backend_methods: Vec<String> = server
        .tools()
        .iter()
        .filter_map(|tool| {
            let meta = tool.meta.as_ref()?;
            let method = meta.get("openfairygui/backendMethod")?.as_str()?;
            Some(method.to_string())
        })
        .collect();
    // Upstream's schema allows its 17 methods there and no other: the methods ofgui adds
    // are listed by tools/list alone.
    let upstream_methods: Vec<String> = backend_methods
        .iter()
        .filter(|method| UPSTREAM_METHODS.contains(&method.as_str()))
        .cloned()
        .collect();
    assert_eq!(
        methods, upstream_methods,
        "capabilities list exactly the served methods of upstream's, in tool order"
    );
    assert_eq!(
        methods, UPSTREAM_METHODS,
        "all of upstream's methods are served"
    );
    assert!(
        backend_methods.contains(&"searchProject".to_string())
            && backend_methods.contains(&"renderComponent".to_string()),
        "tools/list names the methods ofgui adds: {backend_methods:?}"
    );
    assert_eq!(
        capabilities["runtime"]["cache"],
        json!({ "derivedReadOnly": true, "keyedBy": "sessionId", "refreshMode": "synchronous", "sourceOfTruth": false, "refreshMethod": "refreshCache" })
    );
    // The annotations of the new tools, as upstream's table gives them.
    let annotations = |name: &str| {
        let tool = server.tools().iter().find(|t| t.name == name).unwrap();
        let a = tool.annotations.as_ref().unwrap();
        (
            tool.title.clone().or(a.title.clone()),
            a.read_only_hint,
            a.destructive_hint,
            a.idempotent_hint,
        )
    };
    assert_eq!(
        annotations(OPEN_PROJECT),
        (
            Some("Open Project Session".into()),
            Some(false),
            Some(false),
            Some(false)
        )
    );
    assert_eq!(
        annotations(CACHE),
        (
            Some("Get Cache Snapshot".into()),
            Some(true),
            None,
            Some(true)
        )
    );
    assert_eq!(
        annotations(REFRESH),
        (
            Some("Refresh Cache".into()),
            Some(false),
            Some(false),
            Some(false)
        )
    );

    // The docs tool carries the contract digest, no backend method and, as upstream's,
    // no output schema: it answers with text.
    let docs = server.tools().last().unwrap();
    assert_eq!(docs.name, "openfairygui_docs_read");
    let docs_meta = docs.meta.as_ref().expect("_meta");
    assert!(docs_meta.get("openfairygui/backendMethod").is_none());
    assert!(docs.output_schema.is_none());
    assert_eq!(
        docs.annotations.as_ref().unwrap().read_only_hint,
        Some(true)
    );
    let backend_tools = &server.tools()[..server.tools().len() - 1];
    let mut output_schemas = std::collections::BTreeSet::new();
    for tool in backend_tools {
        let meta = tool.meta.as_ref().expect("_meta");
        assert!(meta.get("openfairygui/backendMethod").is_some());
        assert_eq!(
            meta.get("openfairygui/contractDigest"),
            docs_meta.get("openfairygui/contractDigest")
        );
        let digest = meta
            .get("openfairygui/contractDigest")
            .and_then(|d| d.as_str())
            .unwrap();
        assert_eq!(digest.len(), 64);
        let annotations = tool.annotations.as_ref().expect("annotations");
        assert_eq!(annotations.open_world_hint, Some(false));
        if annotations.read_only_hint == Some(false) {
            assert!(
                annotations.destructive_hint.is_some(),
                "{} sets destructiveHint explicitly",
                tool.name
            );
        }
        let schema = serde_json::to_string(tool.output_schema.as_ref().unwrap()).unwrap();
        assert!(
            !schema.contains("\"items\":["),
            "no positional items in {}",
            tool.name
        );
        output_schemas.insert(schema);
    }
    assert_eq!(
        output_schemas.len(),
        backend_tools.len(),
        "output schemas are method-specific"
    );
}

#[tokio::test]
async fn the_tool_list_stays_small() {
    let workspace = Workspace::new();
    let server = Server::start(&[workspace.path()]).await;
    let size = serde_json::to_vec(server.tools()).unwrap().len();
    assert!(
        size < 64 * 1024,
        "tools/list is {size} bytes: over its 64 KiB budget"
    );
    let apply = server
        .tools()
        .iter()
        .find(|t| t.name == "openfairygui_backend_apply_transaction")
        .unwrap();
    let operations = &apply.input_schema["properties"]["operations"];
    assert_eq!(
        operations["items"]["properties"]["kind"]["enum"]
            .as_array()
            .unwrap()
            .len(),
        41
    );
    assert!(
        operations["description"]
            .as_str()
            .unwrap()
            .contains("openfairygui://contracts/operations/{kind}")
    );

    // --full-schemas advertises every schema inline, for clients that decode against them.
    let full = Server::start_with(&[workspace.path()], &["--full-schemas"]).await;
    let full_size = serde_json::to_vec(full.tools()).unwrap().len();
    assert!(full_size > 4 * size, "{full_size} bytes");
    let apply = full
        .tools()
        .iter()
        .find(|t| t.name == "openfairygui_backend_apply_transaction")
        .unwrap();
    assert!(apply.input_schema["definitions"]["Operation"].is_object());
}

/// The text content of a raw tool call, with its structured envelope.
async fn raw_call(server: &Server, tool: &str, arguments: Value) -> (String, Value, bool) {
    let mut params = rmcp::model::CallToolRequestParams::new(tool.to_string());
    params.arguments = arguments.as_object().cloned();
    let result = server.client.call_tool(params).await.unwrap();
    let text = result.content[0].as_text().unwrap().text.clone();
    let envelope = result.structured_content.unwrap()["backendResult"].clone();
    (text, envelope, result.is_error.unwrap_or(false))
}

/// By default a small result's text content is its envelope, and a large one's its meta
/// in brief (the whole is in structuredContent); `--text-content full` always copies it.
#[tokio::test]
async fn a_large_result_is_not_sent_twice_unless_asked() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    let server = Server::start(&[workspace.path()]).await;

    let (text, envelope, is_error) = raw_call(
        &server,
        OPEN,
        json!({ "projectPath": project.to_string_lossy() }),
    )
    .await;
    assert!(!is_error);
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), envelope);
    let id = envelope["data"]["sessionId"].clone();

    let whole = json!({ "sessionId": id, "page": { "limit": 1000 } });
    let (text, envelope, _) = raw_call(&server, OUTLINE, whole).await;
    let size = serde_json::to_string(&envelope).unwrap().len();
    assert!(
        size > 100 * 1024,
        "the corpus's whole outline is {size} bytes"
    );
    assert!(text.len() < 1024, "{text}");
    let summary: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(summary["ok"], true);
    assert_eq!(summary["meta"]["sessionId"], id);
    assert_eq!(summary["meta"]["revision"], 0);
    assert_eq!(summary["meta"]["requestId"], envelope["meta"]["requestId"]);
    let note = summary["abridged"].as_str().unwrap();
    assert!(
        note.contains("structuredContent.backendResult") && note.contains("--text-content full"),
        "{note}"
    );

    let (text, envelope, is_error) = raw_call(&server, GET, json!({ "sessionId": "gone" })).await;
    assert!(is_error);
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), envelope);

    let other = workspace.add("unity-copy", &unity_corpus());
    let full = Server::start_with(&[workspace.path()], &["--text-content", "full"]).await;
    let id = full.open(&other).await;
    let whole = json!({ "sessionId": id, "page": { "limit": 1000 } });
    let (text, envelope, _) = raw_call(&full, OUTLINE, whole).await;
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), envelope);
}

/// Upstream's 17 backend methods in upstream's order (upstream's capability schema allows
/// exactly these in `methods`).
const UPSTREAM_METHODS: [&str; 17] = [
    "getCapabilities",
    "openSession",
    "openProjectSession",
    "getSession",
    "getProjectOutline",
    "queryEntity",
    "readSessionState",
    "readResourceBytes",
    "validateSession",
    "preflightTransaction",
    "applyTransaction",
    "saveSession",
    "materializeSession",
    "closeSession",
    "getEvents",
    "getCacheSnapshot",
    "refreshCache",
];

/// Every list fits one page and the server gives no cursor, so a cursor sent back is one
/// it never issued: invalid params, not page 1 again.
#[tokio::test]
async fn a_list_cursor_the_server_never_gave_is_invalid_params() {
    let workspace = Workspace::new();
    let server = Server::start(&[workspace.path()]).await;
    let bogus =
        || Some(rmcp::model::PaginatedRequestParams::default().with_cursor(Some("page-2".into())));
    let refused = [
        server.client.list_tools(bogus()).await.err(),
        server.client.list_prompts(bogus()).await.err(),
        server.client.list_resources(bogus()).await.err(),
        server.client.list_resource_templates(bogus()).await.err(),
    ];
    for error in refused {
        match error {
            Some(rmcp::ServiceError::McpError(error)) => {
                assert_eq!(error.code.0, -32602, "{error:?}");
                assert!(error.message.contains("cursor"), "{error:?}");
            }
            other => panic!("a bogus cursor must be invalid params, got {other:?}"),
        }
    }
    let listed = server.client.list_tools(None).await.expect("tools/list");
    assert!(listed.next_cursor.is_none());
}

/// A stdio client that began without a handshake (MCP 2026-07-28) and then sends
/// `initialize` speaks the handshake's lifecycle from then on: its later requests need no
/// `_meta`.
#[test]
fn an_initialize_after_a_handshake_free_start_is_honoured_on_stdio() {
    use std::io::{BufRead, BufReader, Write};
    warm_compile_cache();
    let workspace = Workspace::new();
    let mut server = std::process::Command::new(env!("CARGO_BIN_EXE_ofgui-mcp-host"))
        .arg("--project-dir")
        .arg(workspace.path())
        .arg("--cache-dir")
        .arg(cache_dir())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = server.stdin.take().unwrap();
    let mut stdout = BufReader::new(server.stdout.take().unwrap());
    let mut exchange = |message: Value| -> Option<Value> {
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
        message.get("id")?;
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        Some(serde_json::from_str(&line).unwrap())
    };
    let inline = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let listed = exchange(
        json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": { "_meta": inline } }),
    );
    assert!(listed.unwrap()["result"]["tools"].is_array());
    let initialized = exchange(json!({ "jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "late", "version": "0" } } }))
    .unwrap();
    assert_eq!(
        initialized["result"]["protocolVersion"], "2025-11-25",
        "{initialized}"
    );
    exchange(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    for (id, method, params) in [
        (3, "prompts/list", json!({})),
        (4, "logging/setLevel", json!({ "level": "info" })),
        (
            5,
            "tools/call",
            json!({ "name": "openfairygui_backend_get_capabilities", "arguments": {} }),
        ),
    ] {
        let answer =
            exchange(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
                .unwrap();
        assert!(answer.get("result").is_some(), "{method}: {answer}");
    }
    drop(stdin);
    server.wait().unwrap();
}
