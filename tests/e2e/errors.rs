use serde_json::{Map, Value, json};

use crate::harness::*;

async fn opened() -> (Workspace, Server, String) {
    let workspace = Workspace::new();
    let project = workspace.add("example", &example_project());
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;
    (workspace, server, id)
}

#[tokio::test]
async fn unknown_tools_and_bad_arguments_get_failure_envelopes() {
    let (_workspace, server, id) = opened().await;

    // An unknown tool is a protocol error (invalid params), naming upstream's code.
    let data = server.refused_tool("openfairygui_backend_publish").await;
    assert_eq!(data["code"], "unknown_tool");
    assert_eq!(
        data["docsUri"],
        "openfairygui://docs/diagnostics/unknown_tool"
    );

    for (tool, arguments) in [
        (GET, json!({})),
        (GET, json!({ "sessionId": 42 })),
        (GET, json!({ "sessionId": "" })),
        (GET, json!({ "sessionId": id, "extra": true })),
        (OPEN, json!({ "projectPath": "" })),
        (OPEN, json!({})),
        (STATE, json!({ "sessionId": id, "expectedRevision": -1 })),
        (STATE, json!({ "sessionId": id, "expectedRevision": "0" })),
        (
            BYTES,
            json!({ "sessionId": id, "selector": { "packageId": "main0001", "resourceId": "img0" } }),
        ),
        (
            BYTES,
            json!({ "sessionId": id, "expectedRevision": 0, "selector": { "packageId": "main0001" } }),
        ),
        (CAPABILITIES, json!({ "unexpected": 1 })),
        (QUERY, json!({ "sessionId": id })),
    ] {
        let error = server.err(tool, arguments.clone()).await;
        assert_eq!(error["code"], "invalid_input", "{tool} {arguments}");
        assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()));
    }

    // No arguments at all is the same as `{}`.
    let (envelope, is_error) = server.call_raw(GET, None).await;
    assert!(is_error);
    assert_eq!(envelope["error"]["code"], "invalid_input");

    // An input over budget is refused before anything parses it.
    let mut deep = json!(0);
    for _ in 0..40 {
        deep = json!([deep]);
    }
    let error = server
        .err(GET, json!({ "sessionId": id, "deep": deep }))
        .await;
    assert_eq!(error["code"], "invalid_input");

    // The server keeps serving.
    server.ok(GET, json!({ "sessionId": id })).await;
}

#[tokio::test]
async fn unknown_sessions_are_reported_by_every_session_tool() {
    let (_workspace, server, _) = opened().await;
    let missing = "00000000-0000-0000-0000-000000000000";
    for (tool, arguments) in [
        (GET, json!({ "sessionId": missing })),
        (OUTLINE, json!({ "sessionId": missing })),
        (
            QUERY,
            json!({ "sessionId": missing, "target": { "kind": "project" } }),
        ),
        (STATE, json!({ "sessionId": missing })),
        (
            BYTES,
            json!({ "sessionId": missing, "expectedRevision": 0, "selector": { "packageId": "p", "resourceId": "r" } }),
        ),
        (CLOSE, json!({ "sessionId": missing })),
    ] {
        let (envelope, is_error) = server.call(tool, arguments).await;
        assert!(is_error);
        assert_eq!(envelope["error"]["code"], "session_not_found", "{tool}");
        assert_eq!(envelope["error"]["sessionId"], missing);
        let diagnostic = &envelope["meta"]["diagnostics"][0];
        assert_eq!(diagnostic["owner"], "backend");
        assert_eq!(
            diagnostic["docsUri"],
            "openfairygui://docs/diagnostics/session_not_found"
        );
        // The caller can fix this itself (open again), so it is not a host action; a
        // closed session has no outline to read.
        assert_eq!(diagnostic["remediation"]["kind"], "refresh-and-replan");
        assert!(
            diagnostic["remediation"].get("read").is_none(),
            "a closed session offers no read"
        );
    }
}

#[tokio::test]
async fn bad_selectors_are_invalid_queries_and_missing_entities_are_not_found() {
    let (_workspace, server, id) = opened().await;
    let invalid: Vec<Value> = vec![
        json!([]),
        json!({ "kind": "project", "selector": {} }),
        json!({ "kind": "package", "selector": {} }),
        json!({ "kind": "resource", "selector": { "packageId": "main0001" } }),
        json!({ "kind": "package", "selector": { "packageId": "main0001", "extra": "x" } }),
        json!({ "kind": "package", "selector": { "packageId": "" } }),
        json!({ "kind": "package", "selector": { "packageId": "x".repeat(257) } }),
        json!({ "kind": "package", "selector": { "packageId": 5 } }),
        json!({ "kind": "gadget" }),
    ];
    for target in invalid {
        let error = server
            .err(QUERY, json!({ "sessionId": id, "target": target.clone() }))
            .await;
        assert_eq!(error["code"], "entity_query_failed", "{target}");
        assert_eq!(error["reason"], "invalid_query", "{target}");
    }
    let not_found = [
        json!({ "kind": "package", "selector": { "packageId": "nope" } }),
        json!({ "kind": "component", "selector": { "packageId": "main0001", "componentResourceId": "img0" } }),
        json!({ "kind": "displayNode", "selector": { "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n99" } }),
        json!({ "kind": "controller", "selector": { "packageId": "main0001", "componentResourceId": "view0", "controllerName": "missing" } }),
        json!({ "kind": "transition", "selector": { "packageId": "main0001", "componentResourceId": "view0", "transitionName": "outro" } }),
    ];
    for target in not_found {
        let error = server
            .err(QUERY, json!({ "sessionId": id, "target": target.clone() }))
            .await;
        assert_eq!(error["reason"], "not_found", "{target}");
    }

    // Resource bytes: components have none, missing ids are not found.
    let error = server
        .err(BYTES, json!({ "sessionId": id, "expectedRevision": 0, "selector": { "packageId": "main0001", "resourceId": "view0" } }))
        .await;
    assert_eq!(error["reason"], "unsupported_resource");
    let error = server
        .err(BYTES, json!({ "sessionId": id, "expectedRevision": 0, "selector": { "packageId": "main0001", "resourceId": "zzz" } }))
        .await;
    assert_eq!(error["reason"], "not_found");
}

#[tokio::test]
async fn stale_revisions_are_refused_with_both_revisions() {
    let (_workspace, server, id) = opened().await;
    let (envelope, _) = server
        .call(STATE, json!({ "sessionId": id, "expectedRevision": 3 }))
        .await;
    assert_eq!(envelope["error"]["code"], "stale_read");
    assert_eq!(envelope["error"]["expectedRevision"], 3);
    assert_eq!(envelope["error"]["actualRevision"], 0);
    assert_eq!(envelope["meta"]["revision"], 0);
    let remediation = &envelope["meta"]["diagnostics"][0]["remediation"];
    assert_eq!(remediation["kind"], "refresh-and-replan");
    assert_eq!(remediation["read"]["method"], "getProjectOutline");
    assert_eq!(
        remediation["read"]["input"]["sessionId"],
        Value::String(id.clone())
    );

    // The stale check comes before the selector check.
    let error = server
        .err(BYTES, json!({ "sessionId": id, "expectedRevision": 1, "selector": { "packageId": "nope", "resourceId": "nope" } }))
        .await;
    assert_eq!(error["code"], "stale_read");
}

#[tokio::test]
async fn arguments_may_be_omitted_only_where_the_schema_allows() {
    let (_workspace, server, _) = opened().await;
    let (envelope, is_error) = server.call_raw(CAPABILITIES, None).await;
    assert!(!is_error, "{envelope}");
    let (envelope, is_error) = server.call_raw(CAPABILITIES, Some(Map::new())).await;
    assert!(!is_error, "{envelope}");
}

#[tokio::test]
async fn results_over_budget_fail_instead_of_being_truncated() {
    let workspace = Workspace::new();
    let project = workspace.add("big", &example_project());
    // A 300 KB text node (over the 256 KiB query budget) among 40 000 nodes (the whole
    // model then exceeds the 4 MiB session-state budget), and a 2 MiB image file (over the
    // 1 MiB bytes budget).
    let long_text = "x".repeat(300_000);
    let mut nodes = format!(
        r#"<text id="huge" name="huge" xy="0,0" size="10,10" fontSize="12" text="{long_text}"/>"#
    );
    for index in 0..40_000 {
        nodes.push_str(&format!(r#"<text id="t{index}" name="t{index}" xy="0,0" size="10,10" fontSize="12" text="row {index}"/>"#));
    }
    std::fs::write(
        project.join("assets/Main/Settings.xml"),
        format!(r#"<?xml version="1.0" encoding="utf-8"?><component size="400,300"><displayList>{nodes}</displayList></component>"#),
    )
    .unwrap();
    let mut big_png = std::fs::read(project.join("assets/Main/images/panel.png")).unwrap();
    big_png.resize(2 * 1024 * 1024, 0);
    std::fs::write(project.join("assets/Main/images/panel.png"), big_png).unwrap();

    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;

    let error = server
        .err(
            QUERY,
            json!({ "sessionId": id, "target": { "kind": "displayNode", "selector": {
                "packageId": "main0001", "componentResourceId": "view1", "displayNodeId": "huge" } } }),
        )
        .await;
    assert_eq!(error["code"], "entity_query_failed");
    assert_eq!(error["reason"], "response_budget_exceeded");

    let error = server.err(STATE, json!({ "sessionId": id })).await;
    assert_eq!(error["code"], "session_read_failed");
    assert_eq!(error["reason"], "response_budget_exceeded");

    let error = server
        .err(BYTES, json!({ "sessionId": id, "expectedRevision": 0, "selector": { "packageId": "main0001", "resourceId": "img0" } }))
        .await;
    assert_eq!(error["reason"], "response_budget_exceeded");

    // Smaller reads of the same session still work.
    let node = server
        .ok(
            QUERY,
            json!({ "sessionId": id, "target": { "kind": "displayNode", "selector": {
                "packageId": "main0001", "componentResourceId": "view1", "displayNodeId": "t7" } } }),
        )
        .await;
    assert_eq!(node["entity"]["properties"]["text"], "row 7");
}

const APPLY: &str = "openfairygui_backend_apply_transaction";
const PREFLIGHT: &str = "openfairygui_backend_preflight_transaction";

fn set_props(id: &str, props: Value) -> Value {
    json!({ "sessionId": id, "expectedRevision": 0, "operations": [
        { "kind": "setDisplayNodeProps",
          "selector": { "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n1_view" },
          "props": { "position": { "x": 1, "y": 2 } } },
        { "kind": "setDisplayNodeProps",
          "selector": { "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n1_view" },
          "props": props },
    ] })
}

/// The diagnostic every failure carries: owner, docs URI and remediation.
fn assert_guided(envelope: &Value, code: &str) {
    let diagnostic = &envelope["meta"]["diagnostics"][0];
    assert_eq!(diagnostic["code"], code, "{envelope}");
    assert_eq!(diagnostic["owner"], "backend", "{envelope}");
    assert_eq!(
        diagnostic["docsUri"],
        format!("openfairygui://docs/diagnostics/{code}")
    );
    assert!(
        diagnostic["remediation"]["message"]
            .as_str()
            .is_some_and(|message| !message.is_empty()),
        "{envelope}"
    );
}

#[tokio::test]
async fn malformed_operations_name_the_deepest_field_in_plain_words() {
    let (_workspace, server, id) = opened().await;
    for tool in [PREFLIGHT, APPLY] {
        let (envelope, is_error) = server
            .call(
                tool,
                set_props(&id, json!({ "position": { "x": "12", "y": 34 } })),
            )
            .await;
        assert!(is_error);
        let error = &envelope["error"];
        assert_eq!(error["code"], "invalid_input");
        assert_eq!(error["path"], "/operations/1/props/position/x");
        let message = error["message"].as_str().unwrap();
        assert!(
            message.contains("`props.position.x` must be a number; got a string \"12\""),
            "{message}"
        );
        assert!(message.contains("setDisplayNodeProps"), "{message}");
        assert!(
            message.contains("openfairygui://contracts/operations/setDisplayNodeProps"),
            "{message}"
        );
        for serde_words in ["expected", "invalid type", "f64", "struct"] {
            assert!(!message.contains(serde_words), "{message}");
        }
        assert_guided(&envelope, "invalid_input");
        assert_eq!(envelope["meta"]["diagnostics"][0]["message"], *message);
    }

    // A missing field and a selector of the wrong type.
    let error = server
        .err(APPLY, set_props(&id, json!({ "size": { "width": 3 } })))
        .await;
    assert_eq!(error["path"], "/operations/1/props/size/height");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("is required but missing")
    );
    let error = server
        .err(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": [
                { "kind": "renameResource", "selector": "img0", "newName": "x" } ] }),
        )
        .await;
    assert_eq!(error["path"], "/operations/0/selector");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("`selector` must be an object; got a string \"img0\""),
        "{message}"
    );
    assert!(!message.contains("ResourceSelector"), "{message}");

    // Top-level fields are explained against the tool's input schema.
    let error = server
        .err(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": "0", "operations": [] }),
        )
        .await;
    assert_eq!(error["path"], "/expectedRevision");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.starts_with("`expectedRevision` must be an integer; got a string \"0\"."),
        "{message}"
    );
    assert!(
        message.contains("openfairygui://docs/methods/applyTransaction"),
        "{message}"
    );
    let error = server.err(GET, json!({})).await;
    assert_eq!(error["path"], "/sessionId");

    // Nothing was applied.
    assert_eq!(
        server.ok(GET, json!({ "sessionId": id })).await["revision"],
        0
    );
}

#[tokio::test]
async fn inputs_are_echoed_at_most_200_characters() {
    let (_workspace, server, id) = opened().await;
    // Base64 where an object belongs (under the string limit, so decoding sees it), and a
    // megabyte of it as bytes of an operation that takes none.
    let base64 = "QUJD".repeat(225_000);
    let megabyte = "QUJD".repeat(262_144);
    let echoed = "QUJD".repeat(50);
    for arguments in [
        set_props(&id, json!({ "position": base64 })),
        set_props(&id, json!({ "text": 5, "size": base64 })),
        json!({ "sessionId": id, "expectedRevision": 0, "operations": [
            { "kind": "setDisplayNodeProps",
              "selector": { "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n1_view" },
              "props": {}, "sourceBytes": megabyte } ] }),
        json!({ "sessionId": id, "expectedRevision": base64, "operations": [] }),
        json!({ "sessionId": id, "expectedRevision": 0, "operations": base64 }),
    ] {
        let (envelope, is_error) = server.call(APPLY, arguments).await;
        assert!(is_error);
        assert_eq!(envelope["error"]["code"], "invalid_input");
        let text = envelope.to_string();
        assert!(!text.contains(&echoed), "{}", &text[..text.len().min(2000)]);
        assert!(text.len() < 4000, "{} bytes", text.len());
        assert!(envelope["error"]["path"].as_str().is_some(), "{envelope}");
    }
}

#[tokio::test]
async fn unknown_tools_and_invalid_inputs_are_documented() {
    let (_workspace, server, id) = opened().await;
    let data = server.refused_tool("openfairygui_backend_publish").await;
    assert_eq!(data["code"], "unknown_tool");
    let (envelope, _) = server
        .call(GET, json!({ "sessionId": id, "extra": 1 }))
        .await;
    assert_guided(&envelope, "invalid_input");
    for code in ["unknown_tool", "invalid_input"] {
        let uri = format!("openfairygui://docs/diagnostics/{code}");
        let result = server
            .client
            .read_resource(rmcp::model::ReadResourceRequestParams::new(uri.as_str()))
            .await
            .unwrap_or_else(|error| panic!("reading {uri}: {error}"));
        let rmcp::model::ResourceContents::TextResourceContents { text, .. } = &result.contents[0]
        else {
            panic!("{uri} is not text");
        };
        assert!(text.contains(code), "{text}");
    }
}

/// Every limit a tool's input schema advertises holds at its edge, through MCP: the
/// longest allowed value passes the schema (and meets whatever the project says of it),
/// one character more is `invalid_input` at that field.
#[tokio::test]
async fn advertised_limits_hold_at_their_edges() {
    const PUBLISH: &str = "openfairygui_publish";
    const PREFLIGHT: &str = "openfairygui_backend_preflight_transaction";
    let (_workspace, server, id) = opened().await;
    let long = |n: usize| "b".repeat(n);
    let rename = |name: String| {
        json!({ "sessionId": id, "expectedRevision": 0, "operations": [{
            "kind": "renameResource",
            "selector": { "packageId": "main0001", "resourceId": "img0" },
            "newName": name,
        }] })
    };
    let cases: Vec<(&str, Value, Value, &str)> = vec![
        (
            "openfairygui_export_strings",
            json!({ "sessionId": id, "limit": 5000 }),
            json!({ "sessionId": id, "limit": 5001 }),
            "/limit",
        ),
        (
            "openfairygui_check_strings",
            json!({ "sessionId": id, "limit": 5000, "strings": "<resources/>" }),
            json!({ "sessionId": id, "limit": 5001, "strings": "<resources/>" }),
            "/limit",
        ),
        (
            "openfairygui_sweep_strings",
            json!({ "sessionId": id, "limit": 5000, "strings": "<resources/>" }),
            json!({ "sessionId": id, "limit": 5001, "strings": "<resources/>" }),
            "/limit",
        ),
        (
            "openfairygui_review",
            json!({ "sessionId": id, "limit": 1000 }),
            json!({ "sessionId": id, "limit": 1001 }),
            "/limit",
        ),
        (
            PUBLISH,
            json!({ "sessionId": id, "dryRun": true, "branch": long(256) }),
            json!({ "sessionId": id, "dryRun": true, "branch": long(257) }),
            "/branch",
        ),
        (
            PUBLISH,
            json!({ "sessionId": id, "dryRun": true, "outputDir": format!("out/{}", long(4092)) }),
            json!({ "sessionId": id, "dryRun": true, "outputDir": format!("out/{}", long(4093)) }),
            "/outputDir",
        ),
        (
            SEARCH,
            json!({ "sessionId": id, "query": { "text": long(1024) } }),
            json!({ "sessionId": id, "query": { "text": long(1025) } }),
            "/query/text",
        ),
        (
            RENDER,
            json!({ "sessionId": id, "selector": { "packageId": "main0001", "componentResourceId": "view0" }, "scale": 4.0 }),
            json!({ "sessionId": id, "selector": { "packageId": "main0001", "componentResourceId": "view0" }, "scale": 4.01 }),
            "/scale",
        ),
        (
            RENDER,
            json!({ "sessionId": id, "selector": { "packageId": "main0001", "componentResourceId": "view0" }, "background": "#A0b0C0" }),
            json!({ "sessionId": id, "selector": { "packageId": "main0001", "componentResourceId": "view0" }, "background": "#A0b0C0 " }),
            "/background",
        ),
        (
            PREFLIGHT,
            rename(long(256)),
            rename(long(257)),
            "/operations/0/newName",
        ),
        (
            STATE,
            json!({ "sessionId": long(256), "expectedRevision": 0 }),
            json!({ "sessionId": long(257), "expectedRevision": 0 }),
            "/sessionId",
        ),
    ];
    for (tool, at_edge, beyond, field) in cases {
        let (envelope, _) = server.call(tool, at_edge).await;
        assert_ne!(
            envelope["error"]["code"], "invalid_input",
            "{tool} {field} at its limit: {envelope}"
        );
        let error = server.err(tool, beyond).await;
        assert_eq!(error["code"], "invalid_input", "{tool} {field}: {error}");
        assert_eq!(error["path"], field, "{tool}: {error}");
        let message = error["message"].as_str().unwrap();
        assert!(
            ["characters long", "at most", "pattern"]
                .iter()
                .any(|rule| message.contains(rule)),
            "{tool} {field}: the message says which limit: {error}"
        );
    }
}
