use rmcp::model::{GetPromptRequestParams, ReadResourceRequestParams, ResourceContents};
use serde_json::{Value, json};

use crate::harness::*;

/// Reads a resource and returns its text and mime type; panics on a protocol error.
pub(crate) async fn read(server: &Server, uri: &str) -> (String, String) {
    let result = server
        .client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .unwrap_or_else(|error| panic!("reading {uri}: {error}"));
    assert_eq!(result.contents.len(), 1, "{uri}");
    match &result.contents[0] {
        ResourceContents::TextResourceContents {
            uri: read_uri,
            mime_type,
            text,
            ..
        } => {
            assert_eq!(read_uri, uri);
            (text.clone(), mime_type.clone().unwrap_or_default())
        }
        other => panic!("{uri} is not text: {other:?}"),
    }
}

pub(crate) async fn read_json(server: &Server, uri: &str) -> Value {
    let (text, mime) = read(server, uri).await;
    assert_eq!(mime, "application/json", "{uri}");
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{uri} is not JSON: {error}"))
}

#[tokio::test]
async fn every_listed_and_indexed_document_is_readable() {
    let workspace = Workspace::new();
    let server = Server::start(&[workspace.path()]).await;
    let listed: Vec<String> = server
        .client
        .list_all_resources()
        .await
        .unwrap()
        .into_iter()
        .map(|resource| resource.uri.clone())
        .collect();
    assert_eq!(
        listed,
        [
            "openfairygui://docs/index",
            "openfairygui://docs/workflow",
            "openfairygui://docs/restore-limits",
            "openfairygui://docs/skill",
            "openfairygui://docs/contracts",
            "openfairygui://docs/diagnostics",
            "openfairygui://contracts/operations",
            "openfairygui://backend/capabilities",
            "ui://openfairygui/review",
        ]
    );
    for uri in &listed {
        let (text, mime) = read(&server, uri).await;
        assert!(!text.is_empty(), "{uri} is empty");
        if uri.starts_with("ui://") {
            // The review view, as MCP Apps serve one: a page the client frames.
            assert_eq!(mime, "text/html;profile=mcp-app");
            assert!(text.starts_with("<!doctype html>"), "{text}");
        }
    }
    let templates: Vec<String> = server
        .client
        .list_resource_templates(None)
        .await
        .unwrap()
        .resource_templates
        .into_iter()
        .map(|template| template.uri_template.clone())
        .collect();
    assert_eq!(
        templates,
        [
            "openfairygui://docs/methods/{method}",
            "openfairygui://docs/cli/{command}",
            "openfairygui://docs/diagnostics/{code}",
            "openfairygui://contracts/operations/{kind}",
            "openfairygui://backend/session/{sessionId}",
            "openfairygui://backend/session/{sessionId}/outline",
            "openfairygui://backend/cache/{sessionId}",
            "openfairygui://backend/session/{sessionId}/preview/{packageId}/{componentResourceId}",
        ]
    );
    assert!(
        templates.iter().all(|t| !t.contains("events")),
        "events are polled through the tool, not a resource"
    );

    let index = read_json(&server, "openfairygui://docs/index").await;
    let documents = index["documents"].as_array().unwrap();
    // workflow, restore-limits, skill, contracts, diagnostics, operations; 26 methods; 8 command line outputs;
    // 41 operations; 110 codes (upstream's 103, invalid_input, unknown_tool, publish_refused,
    // file_name_collision, source_case_mismatch, nothing_to_undo and nothing_to_redo).
    assert_eq!(documents.len(), 6 + 28 + 8 + 41 + 110);
    for document in documents {
        let uri = document["uri"].as_str().unwrap();
        let (text, mime) = read(&server, uri).await;
        if mime == "application/json" {
            serde_json::from_str::<Value>(&text)
                .unwrap_or_else(|error| panic!("{uri} is not JSON: {error}"));
        } else {
            assert_eq!(mime, "text/markdown", "{uri}");
        }
    }

    let capabilities = read_json(&server, "openfairygui://backend/capabilities").await;
    assert_eq!(capabilities["ok"], true);
    let advertised_digest =
        server.tools()[0].meta.as_ref().unwrap()["openfairygui/contractDigest"].clone();
    assert_eq!(index["contractDigest"], advertised_digest);
}

#[tokio::test]
async fn operation_schemas_are_the_enforced_grammar() {
    let workspace = Workspace::new();
    let server = Server::start(&[workspace.path()]).await;
    let catalog = read_json(&server, "openfairygui://contracts/operations").await;
    let kinds: Vec<&str> = catalog["operations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|op| op["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.len(), 41);
    assert_eq!(kinds[0], "updateProjectSettings");
    assert_eq!(kinds[40], "removeGear");

    let schema = read_json(
        &server,
        "openfairygui://contracts/operations/setDisplayNodeProps",
    )
    .await;
    let validator = jsonschema::validator_for(&schema).expect("a valid JSON Schema");
    let selector = json!({ "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n1_view" });
    let good = json!({ "kind": "setDisplayNodeProps", "selector": selector, "props": { "position": { "x": 1, "y": 2 } } });
    assert!(validator.is_valid(&good));
    let unknown_field =
        json!({ "kind": "setDisplayNodeProps", "selector": selector, "props": {}, "colour": 1 });
    assert!(!validator.is_valid(&unknown_field));
    let other_kind = json!({ "kind": "removeGear", "selector": selector });
    assert!(!validator.is_valid(&other_kind));

    let method = read_json(&server, "openfairygui://docs/methods/applyTransaction").await;
    assert_eq!(method["name"], "openfairygui_backend_apply_transaction");
    assert!(method["inputSchema"]["properties"]["operations"].is_object());
}

#[tokio::test]
async fn session_views_are_the_backend_envelopes() {
    let workspace = Workspace::new();
    let project = workspace.add("example", &example_project());
    let server = Server::start(&[workspace.path()]).await;

    let missing = read_json(&server, "openfairygui://backend/session/no-such-session").await;
    assert_eq!(missing["ok"], false);
    assert_eq!(missing["error"]["code"], "session_not_found");

    let id = server.open(&project).await;
    let session = read_json(&server, &format!("openfairygui://backend/session/{id}")).await;
    assert_eq!(session["ok"], true);
    assert_eq!(session["data"]["revision"], 0);
    let outline = read_json(
        &server,
        &format!("openfairygui://backend/session/{id}/outline"),
    )
    .await;
    assert_eq!(outline["ok"], true);
    assert_eq!(outline["data"]["packages"].as_array().unwrap().len(), 2);

    server.ok(CLOSE, json!({ "sessionId": id })).await;
    let closed = read_json(&server, &format!("openfairygui://backend/session/{id}")).await;
    assert_eq!(closed["error"]["code"], "session_not_found");
}

#[tokio::test]
async fn a_failures_docs_uri_resolves_to_its_guide() {
    let workspace = Workspace::new();
    let server = Server::start(&[workspace.path()]).await;
    let (failure, is_error) = server.call(GET, json!({ "sessionId": "gone" })).await;
    assert!(is_error);
    let diagnostic = &failure["meta"]["diagnostics"][0];
    let guide = read_json(&server, diagnostic["docsUri"].as_str().unwrap()).await;
    assert_eq!(guide["code"], "session_not_found");
    assert_eq!(
        guide["remediation"]["kind"],
        diagnostic["remediation"]["kind"]
    );
}

#[tokio::test]
async fn unknown_resources_are_protocol_errors_and_the_server_keeps_serving() {
    let workspace = Workspace::new();
    let server = Server::start(&[workspace.path()]).await;
    for uri in [
        "openfairygui://docs/nothing",
        "openfairygui://docs/methods/hostPublish",
        "openfairygui://docs/methods/",
        "openfairygui://docs/diagnostics/../../etc/passwd",
        "openfairygui://contracts/operations/__proto__",
        "openfairygui://backend/session/",
        "openfairygui://backend/session/a/b/outline",
        "openfairygui://backend/cache/",
        "openfairygui://backend/cache/a/b",
        "file:///etc/passwd",
    ] {
        let result = server
            .client
            .read_resource(ReadResourceRequestParams::new(uri))
            .await;
        assert!(result.is_err(), "{uri} should not resolve");
    }
    server.ok(CAPABILITIES, json!({})).await;
}

#[tokio::test]
async fn prompts_name_only_listed_tools_and_no_operation_grammar() {
    let workspace = Workspace::new();
    let server = Server::start(&[workspace.path()]).await;
    let tool_names: Vec<&str> = server.tools().iter().map(|t| t.name.as_ref()).collect();
    let prompts = server.client.list_all_prompts().await.unwrap();
    assert_eq!(prompts.len(), 6);
    for prompt in &prompts {
        assert!(
            prompt.arguments.is_none(),
            "{} takes no arguments",
            prompt.name
        );
        let result = server
            .client
            .get_prompt(GetPromptRequestParams::new(prompt.name.clone()))
            .await
            .unwrap();
        assert_eq!(result.messages.len(), 1);
        let text = serde_json::to_value(&result.messages[0]).unwrap()["content"]["text"]
            .as_str()
            .unwrap()
            .to_string();
        for forbidden in ["\"kind\"", "\"selector\"", "setDisplayNodeProps"] {
            assert!(
                !text.contains(forbidden),
                "{} contains {forbidden}",
                prompt.name
            );
        }
        let named: Vec<&str> = text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|word| word.starts_with("openfairygui_backend_"))
            .collect();
        assert!(!named.is_empty(), "{} names no tool", prompt.name);
        for tool in named {
            assert!(
                tool_names.contains(&tool),
                "{} names unlisted {tool}",
                prompt.name
            );
        }
    }
    let unknown = server
        .client
        .get_prompt(GetPromptRequestParams::new("openfairygui_host_publish"))
        .await;
    assert!(
        unknown.is_err(),
        "publishing is not served, so neither is a prompt for it"
    );
}

/// Each prompt's instructions, carried out as written on a copy of the 30-package unity
/// project: every call a prompt asks for, with the arguments it names, succeeds.
#[tokio::test]
async fn prompts_work_as_written() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    let server = Server::start(&[workspace.path()]).await;
    let prompt = |name: &'static str| {
        let client = &server.client;
        async move {
            let result = client
                .get_prompt(GetPromptRequestParams::new(name))
                .await
                .unwrap();
            serde_json::to_value(&result.messages[0]).unwrap()["content"]["text"]
                .as_str()
                .unwrap()
                .to_string()
        }
    };

    // inspect_capabilities: get_capabilities first; events are polled.
    let text = prompt("openfairygui_inspect_capabilities").await;
    assert!(text.starts_with("Call openfairygui_backend_get_capabilities first"));
    let capabilities = server.ok(CAPABILITIES, json!({})).await;
    assert_eq!(capabilities["runtime"]["events"]["polling"], true);

    // open_and_inspect_session: open by directory, get_session, close.
    let text = prompt("openfairygui_open_and_inspect_session").await;
    assert!(text.contains("openfairygui_backend_get_session"));
    let id = server.open(&project).await;
    let session = server.ok(GET, json!({ "sessionId": id })).await;
    assert_eq!(session["revision"], 0);

    // inspect_project_outline: keep the outline's revision and pass it to the tools
    // the prompt names; the others refuse it, as the prompt says.
    let text = prompt("openfairygui_inspect_project_outline").await;
    let outline = server.ok(OUTLINE, json!({ "sessionId": id })).await;
    let revision = outline["revision"].clone();
    for tool in [
        "openfairygui_backend_read_session_state",
        "openfairygui_backend_preflight_transaction",
        "openfairygui_backend_apply_transaction",
        "openfairygui_backend_save_session",
        "openfairygui_backend_read_resource_bytes",
    ] {
        assert!(text.contains(tool), "the outline prompt names {tool}");
    }
    server
        .ok(
            STATE,
            json!({ "sessionId": id, "expectedRevision": revision }),
        )
        .await;
    assert!(text.contains("the others refuse it"));
    let refused = server
        .err(QUERY, json!({ "sessionId": id, "expectedRevision": revision, "target": { "kind": "project" } }))
        .await;
    assert_eq!(refused["code"], "invalid_input");

    // plan_revision_checked_transaction: query, read the operation schema, preview, then
    // apply at the preview's baseRevision, then validate.
    let text = prompt("openfairygui_plan_revision_checked_transaction").await;
    assert!(text.contains("openfairygui://contracts/operations"));
    let node =
        json!({ "packageId": "rbw1tvvv", "componentResourceId": "iitt1", "displayNodeId": "n7" });
    server
        .ok(
            QUERY,
            json!({ "sessionId": id, "target": { "kind": "displayNode", "selector": node } }),
        )
        .await;
    let schema = read_json(
        &server,
        "openfairygui://contracts/operations/setDisplayNodeProps",
    )
    .await;
    assert!(schema.is_object());
    let operations = json!([{ "kind": "setDisplayNodeProps", "selector": node, "props": { "position": { "x": 1, "y": 2 } } }]);
    let preview = server
        .ok(
            "openfairygui_backend_preflight_transaction",
            json!({ "sessionId": id, "expectedRevision": revision, "operations": operations }),
        )
        .await;
    server
        .ok(
            "openfairygui_backend_apply_transaction",
            json!({ "sessionId": id, "expectedRevision": preview["baseRevision"], "operations": operations }),
        )
        .await;
    server
        .ok(
            "openfairygui_backend_validate_session",
            json!({ "sessionId": id }),
        )
        .await;

    // save_session: dirty, so save at the current revision without targetPath.
    let text = prompt("openfairygui_save_session").await;
    assert!(text.contains("without targetPath"));
    let session = server.ok(GET, json!({ "sessionId": id })).await;
    assert_eq!(session["dirty"], true);
    let (_, additions) = server
        .ok_with_additions(
            "openfairygui_backend_save_session",
            json!({ "sessionId": id, "expectedRevision": session["revision"] }),
        )
        .await;
    assert_eq!(
        additions["saved"]["writtenPaths"],
        json!(["assets/Joystick/Main.xml"])
    );

    // poll_runtime_state: no cursor first, then the last sequence as returned.
    let text = prompt("openfairygui_poll_runtime_state").await;
    assert!(text.contains("the number as returned"));
    let first = server
        .ok(
            "openfairygui_backend_get_events",
            json!({ "sessionId": id }),
        )
        .await;
    let last = first["events"].as_array().unwrap().last().unwrap()["sequence"].clone();
    assert!(last.is_u64());
    let next = server
        .ok(
            "openfairygui_backend_get_events",
            json!({ "sessionId": id, "after": last }),
        )
        .await;
    assert_eq!(next["events"], json!([]));

    server.ok(CLOSE, json!({ "sessionId": id })).await;
}

/// `openfairygui_docs_read` reads the documents the resources serve, by index id: the
/// index as compact JSON, every other document with the resource's very text; an id the
/// index does not list (a path among them) is an error, never a file read.
#[tokio::test]
async fn docs_read_serves_every_indexed_document_by_id() {
    let workspace = Workspace::new();
    let server = Server::start(&[workspace.path()]).await;
    let docs = async |arguments: Value| {
        let Value::Object(arguments) = arguments else {
            unreachable!()
        };
        let mut params = rmcp::model::CallToolRequestParams::new("openfairygui_docs_read");
        params.arguments = Some(arguments);
        let result = server.client.call_tool(params).await.unwrap();
        let text = result.content[0].as_text().unwrap().text.clone();
        (text, result.is_error == Some(true))
    };
    let (index, is_error) = docs(json!({})).await;
    assert!(!is_error);
    assert!(!index.contains('\n'), "the index is compact JSON");
    let index: Value = serde_json::from_str(&index).unwrap();
    let (resource, _) = read(&server, "openfairygui://docs/index").await;
    assert_eq!(index, serde_json::from_str::<Value>(&resource).unwrap());
    let documents = index["documents"].as_array().unwrap();
    for document in documents {
        let id = document["id"].as_str().unwrap();
        let (text, is_error) = docs(json!({ "id": id })).await;
        assert!(!is_error, "{id}: {text}");
        let (served, _) = read(&server, document["uri"].as_str().unwrap()).await;
        assert_eq!(text, served, "{id}");
    }
    for id in ["../secret", "workflow/../../etc/passwd", "nope"] {
        let (text, is_error) = docs(json!({ "id": id })).await;
        assert!(is_error, "{id}");
        assert_eq!(text, "Unknown document ID; read index for available IDs.");
    }
    let (_, is_error) = docs(json!({ "id": 7 })).await;
    assert!(is_error);
}
