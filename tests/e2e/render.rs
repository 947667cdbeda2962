use serde_json::{Map, Value, json};

use crate::harness::*;

/// The size a PNG's header declares.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let be = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => panic!("arguments must be an object"),
    }
}

/// Renders and returns `(envelope, isError, png)`.
async fn render(server: &Server, arguments: Value) -> (Value, bool, Option<Vec<u8>>) {
    server
        .call_full(RENDER, Some(object(arguments)), None)
        .await
}

async fn rendered(server: &Server, arguments: Value) -> (Value, Vec<u8>) {
    let (envelope, is_error, png) = render(server, arguments).await;
    assert!(!is_error, "render failed: {envelope}");
    let png = png.expect("a render carries its PNG as image content");
    assert_eq!(envelope["data"]["pngBytes"], png.len() as u64);
    (envelope["data"].clone(), png)
}

async fn refused(server: &Server, arguments: Value) -> Value {
    let (envelope, is_error, png) = render(server, arguments).await;
    assert!(is_error, "render should have failed: {envelope}");
    assert!(png.is_none(), "a failed render carries no picture");
    envelope["error"].clone()
}

fn selector(package: &str, component: &str) -> Value {
    json!({ "packageId": package, "componentResourceId": component })
}

/// Every component of both corpora renders at its size × scale, through MCP.
#[tokio::test]
async fn every_corpus_component_renders_at_its_size() {
    let workspace = Workspace::new();
    let projects = [
        workspace.add("unity", &unity_corpus()),
        workspace.add("experiments", &experiments_corpus()),
    ];
    let server = Server::start(&[workspace.path()]).await;
    for corpus in projects {
        let session = server.open(&corpus).await;
        let outline = server.ok(OUTLINE, json!({ "sessionId": session })).await;
        let mut count = 0;
        for package in outline["packages"].as_array().unwrap() {
            for resource in package["resources"].as_array().unwrap() {
                if resource["kind"] != "component" {
                    continue;
                }
                let (package_id, id) = (
                    package["id"].as_str().unwrap(),
                    resource["id"].as_str().unwrap(),
                );
                let (data, png) = rendered(
                    &server,
                    json!({ "sessionId": session, "selector": selector(package_id, id), "scale": 0.5 }),
                )
                .await;
                let (w, h) = (
                    data["width"].as_f64().unwrap(),
                    data["height"].as_f64().unwrap(),
                );
                let expected = (
                    ((w * 0.5).ceil().max(1.0)) as u32,
                    ((h * 0.5).ceil().max(1.0)) as u32,
                );
                assert_eq!(png_size(&png), expected, "{package_id}/{id}");
                assert_eq!(
                    (
                        data["pixelWidth"].as_u64().unwrap() as u32,
                        data["pixelHeight"].as_u64().unwrap() as u32
                    ),
                    expected
                );
                count += 1;
            }
        }
        // unity has 205 components, the experiments 3.
        assert!(
            count >= 3,
            "{} has only {count} components",
            corpus.display()
        );
        server.ok(CLOSE, json!({ "sessionId": session })).await;
    }
}

/// Controller pages pick what shows; unknown ones are refused at their field.
#[tokio::test]
async fn controller_pages_choose_what_is_drawn() {
    let workspace = Workspace::new();
    let project = workspace.add("hello", &example_project());
    let server = Server::start(&[workspace.path()]).await;
    let session = server.open(&project).await;
    let view = selector("main0001", "view0");

    let (idle, idle_png) =
        rendered(&server, json!({ "sessionId": session, "selector": view })).await;
    assert_eq!(
        idle["controllerPages"],
        json!([{ "controller": "state", "pageId": "0", "pageName": "Idle" }])
    );
    assert_eq!(png_size(&idle_png), (640, 360));
    let (active, active_png) = rendered(
        &server,
        json!({ "sessionId": session, "selector": view, "controllerPages": { "state": "Active" } }),
    )
    .await;
    assert_eq!(active["controllerPages"][0]["pageId"], "1");
    assert_ne!(
        idle_png, active_png,
        "the Active page shows the other button"
    );
    let (_, by_id) = rendered(
        &server,
        json!({ "sessionId": session, "selector": view, "controllerPages": { "state": "1" } }),
    )
    .await;
    assert_eq!(by_id, active_png, "a page by id draws as by name");

    let error = refused(
        &server,
        json!({ "sessionId": session, "selector": view, "controllerPages": { "mood": "0" } }),
    )
    .await;
    assert_eq!(error["code"], "invalid_input");
    assert_eq!(error["path"], "/controllerPages/mood");
    assert!(
        error["message"].as_str().unwrap().contains("state"),
        "{error}"
    );
    let error = refused(
        &server,
        json!({ "sessionId": session, "selector": view, "controllerPages": { "state": "Asleep" } }),
    )
    .await;
    assert_eq!(error["path"], "/controllerPages/state");
    assert!(
        error["message"].as_str().unwrap().contains("1 (Active)"),
        "{error}"
    );

    // Not a component, and no such component.
    let error = refused(
        &server,
        json!({ "sessionId": session, "selector": selector("main0001", "img0") }),
    )
    .await;
    assert_eq!(error["code"], "session_read_failed");
    assert_eq!(error["reason"], "unsupported_resource");
    let error = refused(
        &server,
        json!({ "sessionId": session, "selector": selector("main0001", "nope") }),
    )
    .await;
    assert_eq!(error["reason"], "not_found");
    // The names the outline shows select the same component as its ids.
    let (_, by_id) = rendered(
        &server,
        json!({ "sessionId": session, "selector": selector("main0001", "view0") }),
    )
    .await;
    for (package, component) in [("Main", "MainView"), ("Main", "/MainView")] {
        let (_, by_name) = rendered(
            &server,
            json!({ "sessionId": session, "selector": selector(package, component) }),
        )
        .await;
        assert!(by_name == by_id, "{package}/{component} draws view0");
    }
    // Said once, not "No No resource … exists..".
    let message = error["message"].as_str().unwrap();
    assert!(
        message.starts_with("No resource with the id or name"),
        "{message}"
    );
    assert!(
        !message.contains("No No") && !message.contains(".."),
        "{message}"
    );
}

/// Scale, picture size and revision at the edges of their bounds.
#[tokio::test]
async fn limits_hold_at_their_edges() {
    let workspace = Workspace::new();
    let project = workspace.add("hello", &example_project());
    let server = Server::start(&[workspace.path()]).await;
    let session = server.open(&project).await;
    let view = selector("main0001", "view1");

    let (data, png) = rendered(
        &server,
        json!({ "sessionId": session, "selector": view, "scale": 4 }),
    )
    .await;
    assert_eq!(png_size(&png), (1600, 1200));
    assert_eq!(data["scale"], 4.0);
    let (_, png) = rendered(
        &server,
        json!({ "sessionId": session, "selector": view, "scale": 0.05 }),
    )
    .await;
    assert_eq!(png_size(&png), (20, 15));
    for scale in [4.01, 0.049, 0.0, -1.0] {
        let error = refused(
            &server,
            json!({ "sessionId": session, "selector": view, "scale": scale }),
        )
        .await;
        assert_eq!(error["code"], "invalid_input", "scale {scale}: {error}");
        assert_eq!(error["path"], "/scale", "scale {scale}");
    }
    let error = refused(
        &server,
        json!({ "sessionId": session, "selector": view, "background": "white" }),
    )
    .await;
    assert_eq!(error["path"], "/background");
    let (_, white) = rendered(
        &server,
        json!({ "sessionId": session, "selector": view, "background": "#ffffff", "scale": 0.05 }),
    )
    .await;
    assert_ne!(white, png, "a background fills the picture");

    // A component 2048 wide is 8192 pixels at scale 4, the most a side may be; 2049 is
    // one unit too many. Unsaved edits are what a render draws.
    for (width, fits) in [(2048, true), (2049, false)] {
        let revision = server.ok(GET, json!({ "sessionId": session })).await["revision"].clone();
        server
            .ok(
                "openfairygui_backend_apply_transaction",
                json!({ "sessionId": session, "expectedRevision": revision, "operations": [
                    { "kind": "setComponentProps", "selector": view, "props": { "size": { "width": width, "height": 2 } } }
                ] }),
            )
            .await;
        let arguments = json!({ "sessionId": session, "selector": view, "scale": 4 });
        if fits {
            let (_, png) = rendered(&server, arguments).await;
            assert_eq!(png_size(&png), (8192, 8));
        } else {
            let error = refused(&server, arguments).await;
            assert_eq!(error["code"], "session_read_failed");
            assert_eq!(error["reason"], "response_budget_exceeded");
            assert!(
                error["message"].as_str().unwrap().contains("Lower scale"),
                "{error}"
            );
        }
    }

    let error = refused(
        &server,
        json!({ "sessionId": session, "selector": view, "expectedRevision": 0 }),
    )
    .await;
    assert_eq!(error["code"], "stale_read");
    let error = refused(
        &server,
        json!({ "sessionId": session, "selector": view, "previewOperations": [
            { "kind": "setComponentProps", "selector": view, "props": { "size": { "width": 10, "height": 10 } } }
        ] }),
    )
    .await;
    assert_eq!(error["path"], "/expectedRevision");
}

/// A preview batch is drawn before and after, side by side, and applies nothing.
#[tokio::test]
async fn a_preview_batch_is_drawn_before_and_after() {
    let workspace = Workspace::new();
    let project = workspace.add("hello", &example_project());
    let server = Server::start(&[workspace.path()]).await;
    let session = server.open(&project).await;
    let view = selector("main0001", "view0");
    // The start button shows on the Idle page; the title would not move there: its
    // gearXY's default places it.
    let move_start = json!([{ "kind": "setDisplayNodeProps",
        "selector": { "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n2_view" },
        "props": { "position": { "x": 300, "y": 100 } } }]);

    let (data, png) = rendered(
        &server,
        json!({ "sessionId": session, "selector": view, "expectedRevision": 0, "previewOperations": move_start }),
    )
    .await;
    let comparison = &data["comparison"];
    assert_eq!(comparison["panelWidth"], 640);
    assert_eq!(comparison["gap"], 9);
    assert_eq!(png_size(&png), (640 * 2 + 9, 360));
    assert!(
        comparison["changedPixels"].as_u64().unwrap() > 500,
        "{comparison}"
    );
    assert_eq!(
        server.ok(GET, json!({ "sessionId": session })).await["revision"],
        0,
        "nothing was applied"
    );

    // A batch that changes nothing visible (an unrelated component) changes no pixel.
    let other = json!([{ "kind": "setDisplayNodeProps",
        "selector": { "packageId": "main0001", "componentResourceId": "view1", "displayNodeId": "n0_set" },
        "props": { "position": { "x": 30, "y": 20 } } }]);
    let (data, _) = rendered(
        &server,
        json!({ "sessionId": session, "selector": view, "expectedRevision": 0, "previewOperations": other }),
    )
    .await;
    assert_eq!(data["comparison"]["changedPixels"], 0);

    // A refused batch answers as preflight does, with nothing drawn.
    let bad = json!([{ "kind": "setDisplayNodeProps",
        "selector": { "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "ghost" },
        "props": { "position": { "x": 1, "y": 1 } } }]);
    let error = refused(
        &server,
        json!({ "sessionId": session, "selector": view, "expectedRevision": 0, "previewOperations": bad }),
    )
    .await;
    assert_eq!(error["code"], "transaction_unsupported", "{error}");
}

/// The preview resource template reads a component's PNG, and its ids complete from the
/// session the client already named.
#[tokio::test]
async fn previews_are_resources_whose_ids_complete() {
    use base64::Engine as _;
    use rmcp::model::{
        ArgumentInfo, CompleteRequestParams, CompletionContext, ReadResourceRequestParams,
        Reference, ResourceContents,
    };

    let workspace = Workspace::new();
    let project = workspace.add("hello", &example_project());
    let server = Server::start(&[workspace.path()]).await;
    let session = server.open(&project).await;
    let template =
        "openfairygui://backend/session/{sessionId}/preview/{packageId}/{componentResourceId}";
    let templates = server.client.list_all_resource_templates().await.unwrap();
    let listed = templates
        .iter()
        .find(|t| t.uri_template == template)
        .expect("the preview template is listed");
    assert_eq!(listed.mime_type.as_deref(), Some("image/png"));

    let read = |uri: String| {
        let client = &server.client;
        async move {
            client
                .read_resource(ReadResourceRequestParams::new(uri.as_str()))
                .await
                .unwrap()
                .contents
                .remove(0)
        }
    };
    let uri = format!("openfairygui://backend/session/{session}/preview/main0001/view0");
    match read(uri).await {
        ResourceContents::BlobResourceContents {
            blob, mime_type, ..
        } => {
            assert_eq!(mime_type.as_deref(), Some("image/png"));
            let png = base64::engine::general_purpose::STANDARD
                .decode(blob)
                .unwrap();
            assert_eq!(png_size(&png), (640, 360));
        }
        other => panic!("a preview reads as a PNG blob: {other:?}"),
    }
    let uri = format!("openfairygui://backend/session/{session}/preview/main0001/img0");
    match read(uri).await {
        ResourceContents::TextResourceContents { text, .. } => {
            let envelope: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(envelope["error"]["reason"], "unsupported_resource");
        }
        other => panic!("a failed preview reads as its envelope: {other:?}"),
    }

    let complete = |name: &str, context: &[(&str, &str)]| {
        let mut params = CompleteRequestParams::new(
            Reference::for_resource(template),
            ArgumentInfo::new(name, ""),
        );
        if !context.is_empty() {
            params = params.with_context(CompletionContext::with_arguments(
                context
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
            ));
        }
        let client = &server.client;
        async move { client.complete(params).await.unwrap().completion.values }
    };
    assert_eq!(
        complete("packageId", &[("sessionId", &session)]).await,
        ["cmn00001", "main0001"]
    );
    assert_eq!(
        complete(
            "componentResourceId",
            &[("sessionId", &session), ("packageId", "main0001")]
        )
        .await,
        ["view0", "view1"]
    );
    assert!(
        complete("packageId", &[]).await.is_empty(),
        "no session named: nothing to offer"
    );
}
