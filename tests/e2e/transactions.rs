//! The upstream agent tasks that edit a project, reproduced through the stdio server on the
//! bundled example project (whose content matches the tasks' fixture).

use serde_json::{Value, json};

use crate::harness::*;

const PREFLIGHT: &str = "openfairygui_backend_preflight_transaction";
const APPLY: &str = "openfairygui_backend_apply_transaction";
const EVENTS: &str = "openfairygui_backend_get_events";
const VALIDATE: &str = "openfairygui_backend_validate_session";

fn node(id: &str) -> Value {
    json!({ "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": id })
}

async fn opened() -> (Workspace, Server, String) {
    let workspace = Workspace::new();
    let project = workspace.add("example", &example_project());
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;
    (workspace, server, id)
}

async fn query(server: &Server, id: &str, target: Value) -> Value {
    server
        .ok(QUERY, json!({ "sessionId": id, "target": target }))
        .await["entity"]["properties"]
        .clone()
}

#[tokio::test]
async fn edit_display_node() {
    let (_workspace, server, id) = opened().await;
    let title = query(
        &server,
        &id,
        json!({ "kind": "displayNode", "selector": node("n1_view") }),
    )
    .await;
    assert_eq!(title["text"], "Hello OpenFairyGUI");
    let operations = json!([{
        "kind": "setDisplayNodeProps",
        "opId": "retitle",
        "selector": node("n1_view"),
        "props": { "text": "Ready to edit", "position": { "x": 40, "y": 56 } }
    }]);

    let preview = server
        .ok(
            PREFLIGHT,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": operations }),
        )
        .await;
    assert_eq!(preview["baseRevision"], 0);
    assert_eq!(preview["projectedRevision"], 1);
    assert_eq!(preview["mode"], "execute-and-discard");
    assert_eq!(
        preview["impact"]["entities"],
        json!([{ "target": { "kind": "displayNode", "selector": node("n1_view") }, "change": "updated", "fields": ["position", "text"] }])
    );
    assert_eq!(
        preview["impact"]["files"],
        json!([{ "path": "assets/Main/MainView.xml", "kind": "file", "change": "updated" }])
    );
    let (envelope, _) = server
        .call(
            PREFLIGHT,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": operations }),
        )
        .await;
    assert_eq!(
        envelope["meta"]["revision"], 0,
        "a preview reports the revision it was computed at"
    );
    // The previews changed nothing.
    let session = server.ok(GET, json!({ "sessionId": id })).await;
    assert_eq!(
        (session["revision"].clone(), session["dirty"].clone()),
        (json!(0), json!(false))
    );

    let applied = server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": operations }),
        )
        .await;
    assert_eq!(
        (applied["revision"].clone(), applied["dirty"].clone()),
        (json!(1), json!(true))
    );
    let title = query(
        &server,
        &id,
        json!({ "kind": "displayNode", "selector": node("n1_view") }),
    )
    .await;
    assert_eq!(title["text"], "Ready to edit");
    assert_eq!(title["position"], json!({ "x": 40, "y": 56 }));
    let report = server.ok(VALIDATE, json!({ "sessionId": id })).await;
    assert_eq!(report["status"], "valid");

    // The same edit again changes nothing, which is refused without advancing.
    let (envelope, is_error) = server
        .call(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 1, "operations": operations }),
        )
        .await;
    assert!(is_error);
    assert_eq!(envelope["error"]["code"], "transaction_unsupported");
    assert_eq!(
        envelope["error"]["issues"][0]["code"],
        "display_node_props_unchanged"
    );
    assert_eq!(
        (
            envelope["error"]["opIndex"].clone(),
            envelope["error"]["opId"].clone(),
            envelope["error"]["operationKind"].clone(),
            envelope["error"]["selector"].clone()
        ),
        (
            json!(0),
            json!("retitle"),
            json!("setDisplayNodeProps"),
            node("n1_view")
        )
    );
    assert_eq!(
        envelope["meta"]["diagnostics"][0]["code"],
        "display_node_props_unchanged"
    );
    assert_eq!(
        envelope["meta"]["diagnostics"][0]["owner"],
        "core.transaction"
    );
    assert_eq!(
        envelope["session"]["revision"], 1,
        "authoring failures carry the session"
    );
}

#[tokio::test]
async fn edit_controller() {
    let (workspace, server, id) = opened().await;
    let selector = json!({ "packageId": "main0001", "componentResourceId": "view0", "controllerName": "state" });
    let mut controller = query(
        &server,
        &id,
        json!({ "kind": "controller", "selector": selector }),
    )
    .await;
    let pages = controller["pages"].as_array_mut().unwrap();
    let active = pages
        .iter_mut()
        .find(|page| page["name"] == "Active")
        .unwrap();
    active["name"] = json!("Ready");
    active["remark"] = json!("shown once loaded");
    let operations =
        json!([{ "kind": "updateController", "selector": selector, "controller": controller }]);
    server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": operations }),
        )
        .await;
    let after = query(
        &server,
        &id,
        json!({ "kind": "controller", "selector": selector }),
    )
    .await;
    assert_eq!(
        after["pages"],
        json!([
            { "id": "0", "name": "Idle", "remark": "" },
            { "id": "1", "name": "Ready", "remark": "shown once loaded" }
        ])
    );
    // The gears bound to page ids are untouched.
    let start = query(
        &server,
        &id,
        json!({ "kind": "displayNode", "selector": node("n2_view") }),
    )
    .await;
    assert_eq!(start["gears"][0]["visibleOnPageIds"], json!(["0"]));

    // Saved as the editor writes a page's note: by the page's position.
    server
        .ok(
            "openfairygui_backend_save_session",
            json!({ "sessionId": id, "expectedRevision": 1 }),
        )
        .await;
    let xml =
        std::fs::read_to_string(workspace.path().join("example/assets/Main/MainView.xml")).unwrap();
    assert!(
        xml.contains(r#"<remark page="1" value="shown once loaded"/>"#),
        "{xml}"
    );
}

#[tokio::test]
async fn edit_transition() {
    let (_workspace, server, id) = opened().await;
    let selector = json!({ "packageId": "main0001", "componentResourceId": "view0", "transitionName": "intro" });
    let mut transition = query(
        &server,
        &id,
        json!({ "kind": "transition", "selector": selector }),
    )
    .await;
    let before = transition.clone();
    transition["items"][1]["duration"] = json!(18);
    transition["items"][1]["endValue"] = json!([120, 64]);
    let operations =
        json!([{ "kind": "updateTransition", "selector": selector, "transition": transition }]);
    server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": operations }),
        )
        .await;
    let after = query(
        &server,
        &id,
        json!({ "kind": "transition", "selector": selector }),
    )
    .await;
    assert_eq!(after["items"][1]["duration"], 18);
    assert_eq!(after["items"][1]["endValue"], json!([120, 64]));
    assert_eq!(
        after["items"][0], before["items"][0],
        "only the edited item changed"
    );
}

#[tokio::test]
async fn stale_revision_recovery() {
    let (_workspace, server, id) = opened().await;
    let retitle = json!([{ "kind": "setDisplayNodeProps", "selector": node("n1_view"), "props": { "text": "Title edited concurrently" } }]);
    let rename = json!([{ "kind": "renameResource", "selector": { "packageId": "main0001", "resourceId": "view0" }, "newName": "RenamedView" }]);
    server
        .ok(
            PREFLIGHT,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": rename }),
        )
        .await;
    // Someone else edits first.
    server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": retitle }),
        )
        .await;

    for tool in [PREFLIGHT, APPLY] {
        let (envelope, is_error) = server
            .call(
                tool,
                json!({ "sessionId": id, "expectedRevision": 0, "operations": rename }),
            )
            .await;
        assert!(is_error);
        assert_eq!(envelope["error"]["code"], "stale_write", "{tool}");
        assert!(envelope["error"]["canonicalPathKey"].is_string());
        assert_eq!(envelope["error"]["expectedRevision"], 0);
        assert_eq!(envelope["error"]["actualRevision"], 1);
        assert_eq!(envelope["meta"]["revision"], 1);
        assert_eq!(
            envelope["meta"]["diagnostics"][0]["remediation"]["kind"],
            "refresh-and-replan"
        );
    }
    // Refresh, re-plan at the current revision, and both edits survive.
    let outline = server.ok(OUTLINE, json!({ "sessionId": id })).await;
    let revision = outline["revision"].as_u64().unwrap();
    server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": revision, "operations": rename }),
        )
        .await;
    let view = query(&server, &id, json!({ "kind": "resource", "selector": { "packageId": "main0001", "resourceId": "view0" } })).await;
    assert_eq!(view["name"], "RenamedView");
    let title = query(
        &server,
        &id,
        json!({ "kind": "displayNode", "selector": node("n1_view") }),
    )
    .await;
    assert_eq!(title["text"], "Title edited concurrently");

    let events = server.ok(EVENTS, json!({ "sessionId": id })).await;
    let kinds: Vec<&str> = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "session.opened",
            "transaction.applied",
            "cache.invalidated",
            "transaction.rejected",
            "transaction.applied",
            "cache.invalidated"
        ]
    );
    let rejected = &events["events"][3];
    assert_eq!(rejected["diagnostics"][0]["code"], "stale_write");
    let cursor = events["events"][2]["sequence"]
        .as_u64()
        .unwrap()
        .to_string();
    let later = server
        .ok(
            EVENTS,
            json!({ "sessionId": id, "after": cursor, "limit": 1 }),
        )
        .await;
    assert_eq!(later["events"].as_array().unwrap().len(), 1);
    assert_eq!(later["events"][0]["kind"], "transaction.rejected");
    // The sequence as getEvents returns it, a number, is a cursor too.
    let same = server
        .ok(
            EVENTS,
            json!({ "sessionId": id, "after": events["events"][2]["sequence"], "limit": 1 }),
        )
        .await;
    assert_eq!(same["events"], later["events"]);
    let error = server
        .err(EVENTS, json!({ "sessionId": id, "after": "not-a-number" }))
        .await;
    assert_eq!(error["code"], "event_cursor_invalid");
}

#[tokio::test]
async fn compound_edit() {
    let (_workspace, server, id) = opened().await;
    let edit = json!([{
        "kind": "setDisplayNodeProps",
        "selector": node("n1_view"),
        "props": { "text": "Ready to edit", "position": { "x": 40, "y": 56 } }
    }]);
    server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": edit }),
        )
        .await;
    assert_eq!(
        server.ok(VALIDATE, json!({ "sessionId": id })).await["status"],
        "valid"
    );
    let rename = json!([{ "kind": "renameResource", "selector": { "packageId": "main0001", "resourceId": "view0" }, "newName": "RenamedView" }]);
    let preview = server
        .ok(
            PREFLIGHT,
            json!({ "sessionId": id, "expectedRevision": 1, "operations": rename }),
        )
        .await;
    let files: Vec<(String, String)> = preview["impact"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_string(),
                f["change"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        files.contains(&("assets/Main/MainView.xml".into(), "removed".into())),
        "{files:?}"
    );
    assert!(
        files.contains(&("assets/Main/RenamedView.xml".into(), "added".into())),
        "{files:?}"
    );
    assert!(
        files.contains(&("assets/Main/package.xml".into(), "updated".into())),
        "{files:?}"
    );
    let applied = server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 1, "operations": rename }),
        )
        .await;
    assert_eq!(applied["revision"], 2);
    assert_eq!(
        server.ok(VALIDATE, json!({ "sessionId": id })).await["status"],
        "valid"
    );
    let state = server
        .ok(STATE, json!({ "sessionId": id, "expectedRevision": 2 }))
        .await;
    assert!(state.to_string().contains("RenamedView"));
}

#[tokio::test]
async fn malformed_batches_are_refused_before_the_backend() {
    let (_workspace, server, id) = opened().await;
    for operations in [
        json!([]),
        json!([{ "kind": "teleport" }]),
        json!([{ "kind": "addBranch", "branch": "dev", "surprise": 1 }]),
        json!([{ "kind": "setDisplayNodeProps", "selector": node("n1_view"), "props": { "sparkle": true } }]),
    ] {
        let error = server
            .err(
                APPLY,
                json!({ "sessionId": id, "expectedRevision": 0, "operations": operations }),
            )
            .await;
        assert_eq!(error["code"], "invalid_input", "{operations}");
    }
    let error = server
        .err(APPLY, json!({ "sessionId": id, "operations": [] }))
        .await;
    assert_eq!(
        error["code"], "invalid_input",
        "expectedRevision is required"
    );
    // Nothing changed.
    assert_eq!(
        server.ok(GET, json!({ "sessionId": id })).await["revision"],
        0
    );
}

/// The largest PNG of the corpora that one `readResourceBytes` may return (1 MiB; the
/// editor's published atlases are larger): its path and bytes.
fn largest_corpus_png() -> (std::path::PathBuf, Vec<u8>) {
    fn walk(dir: &std::path::Path, best: &mut Option<(u64, std::path::PathBuf)>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            let metadata = entry.metadata().unwrap();
            if metadata.is_dir() {
                walk(&path, best);
            } else if path
                .extension()
                .is_some_and(|ext| ext.eq_ignore_ascii_case("png"))
                && metadata.len() <= 1 << 20
                && best.as_ref().is_none_or(|(size, _)| metadata.len() > *size)
            {
                *best = Some((metadata.len(), path));
            }
        }
    }
    let mut best = None;
    walk(&corpora(), &mut best);
    let (_, path) = best.expect("the corpora hold PNGs");
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes)
}

#[tokio::test]
async fn file_bytes_travel_over_mcp_as_integers_or_base64() {
    use base64::Engine as _;
    let (path, png) = largest_corpus_png();
    assert!(png.len() > 10_000, "{} is a real upload", path.display());
    let workspace = Workspace::new();
    let project = workspace.add("experiments", &experiments_corpus());
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;
    let read = async |revision: u64, resource: &str| {
        let data = server
            .ok(
                BYTES,
                json!({ "sessionId": id, "expectedRevision": revision,
                        "selector": { "packageId": "hzobybbt", "resourceId": resource } }),
            )
            .await;
        base64::engine::general_purpose::STANDARD
            .decode(data["sourceBytes"].as_str().unwrap())
            .unwrap()
    };
    let base64_png = base64::engine::general_purpose::STANDARD.encode(&png);

    // Replacing an image's bytes, sent as integers.
    let replace = json!([{ "kind": "replaceResourceBytes",
        "selector": { "packageId": "hzobybbt", "resourceId": "nbcg8" }, "sourceBytes": png }]);
    server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": replace }),
        )
        .await;
    assert!(read(1, "nbcg8").await == png, "integers round-trip");

    // Adding an image, its bytes sent as base64 (what readResourceBytes returns).
    let add = json!([{ "kind": "addResource", "selector": { "packageId": "hzobybbt" }, "resource": {
        "kind": "image", "id": "upload1", "name": "upload.png", "fileName": "upload.png",
        "path": "/images/", "exported": false, "favorite": false, "branch": "", "branchItemIds": [],
        "image": {
            "textureSetMode": "", "qualityOption": "", "quality": 0, "smoothing": true,
            "duplicatePadding": false, "scaleOption": 0, "scale9Grid": null, "tileGridIndice": 0
        },
        "sourceBytes": base64_png,
    } }]);
    let preview = server
        .ok(
            PREFLIGHT,
            json!({ "sessionId": id, "expectedRevision": 1, "operations": add }),
        )
        .await;
    assert_eq!(preview["baseRevision"], 1);
    server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 1, "operations": add }),
        )
        .await;
    assert!(read(2, "upload1").await == png, "base64 round-trips");

    // Bytes that are neither: refused at the failing field, nothing changes.
    let broken = json!([{ "kind": "replaceResourceBytes",
        "selector": { "packageId": "hzobybbt", "resourceId": "nbcg8" }, "sourceBytes": "not base64!" }]);
    let error = server
        .err(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 2, "operations": broken }),
        )
        .await;
    assert_eq!(error["code"], "invalid_input", "{error}");
    assert!(
        error["message"].as_str().unwrap().contains("base64"),
        "{error}"
    );
    let out_of_range = json!([{ "kind": "replaceResourceBytes",
        "selector": { "packageId": "hzobybbt", "resourceId": "nbcg8" }, "sourceBytes": [1, 300] }]);
    let error = server
        .err(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 2, "operations": out_of_range }),
        )
        .await;
    assert_eq!(error["path"], "/operations/0/sourceBytes/1", "{error}");
}

/// An agent adds an image with only a kind, a file name and the bytes: the preview shows
/// the id and blocks the server chose, the apply answers with the same, and a fresh
/// server reads the saved resource back under that id.
#[tokio::test]
async fn an_image_is_added_from_its_file_name_and_bytes_alone() {
    use base64::Engine as _;
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    let png = std::fs::read(project.join("assets/Basics/images/k4.png")).unwrap();
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;
    let add = json!([{ "kind": "addResource", "selector": { "packageId": "9leh0eyf" }, "resource": {
        "kind": "image", "fileName": "badge.png",
        "sourceBytes": base64::engine::general_purpose::STANDARD.encode(&png),
    } }]);
    let batch = json!({ "sessionId": id, "expectedRevision": 0, "operations": add });
    let (preview, previewed) = server.ok_with_additions(PREFLIGHT, batch.clone()).await;
    let chosen = &previewed["generated"][0];
    let resource_id = chosen["values"]["id"].as_str().unwrap().to_string();
    assert_eq!(
        chosen["target"]["selector"]["resourceId"], resource_id,
        "{chosen}"
    );
    assert_eq!(
        chosen["values"]["dimensions"],
        json!({ "width": 66, "height": 44 })
    );
    assert_eq!(chosen["values"]["sourcePath"], "assets/Basics/badge.png");
    assert_eq!(chosen["values"]["image"]["scaleOption"], 0);
    assert!(
        preview["impact"]["files"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["path"] == "assets/Basics/badge.png" && f["change"] == "added"),
        "{preview}"
    );

    let (applied, additions) = server.ok_with_additions(APPLY, batch).await;
    assert_eq!(applied["revision"], 1);
    assert_eq!(additions["generated"], previewed["generated"]);
    server
        .ok(
            "openfairygui_backend_save_session",
            json!({ "sessionId": id, "expectedRevision": 1 }),
        )
        .await;
    server.ok(CLOSE, json!({ "sessionId": id })).await;

    let fresh = Server::start(&[workspace.path()]).await;
    let id = fresh.open(&project).await;
    let entity = fresh
        .ok(
            QUERY,
            json!({ "sessionId": id, "target": { "kind": "resource",
                    "selector": { "packageId": "9leh0eyf", "resourceId": resource_id } } }),
        )
        .await;
    assert_eq!(entity["entity"]["properties"]["name"], "badge", "{entity}");
    assert_eq!(
        std::fs::read(project.join("assets/Basics/badge.png")).unwrap(),
        png
    );
}

/// The byte allowance at its edge, through MCP: 8 MiB of file data in one request is
/// taken in (and judged as an image), one byte more is refused before the backend sees it.
/// (The integer form's edge is checked below MCP, in `host/src/input.rs`: as JSON numbers
/// 8 MiB is ~1 GB of parsed values in the test client alone.)
#[tokio::test]
async fn a_request_carries_at_most_eight_mebibytes_of_file_data() {
    use base64::Engine as _;
    let (_workspace, server, id) = opened().await;
    let replace = |bytes: Value| {
        json!({ "sessionId": id, "expectedRevision": 0, "operations": [{ "kind": "replaceResourceBytes",
            "selector": { "packageId": "main0001", "resourceId": "img0" }, "sourceBytes": bytes }] })
    };
    let limit = ofgui_contracts::bytes::MAX_REQUEST_BYTES;
    let encode = |len: usize| base64::engine::general_purpose::STANDARD.encode(vec![0u8; len]);

    let at_limit = server.err(APPLY, replace(json!(encode(limit)))).await;
    assert_eq!(at_limit["code"], "transaction_unsupported", "{at_limit}");
    assert_eq!(at_limit["issues"][0]["code"], "invalid_resource_bytes");

    let over = server.err(APPLY, replace(json!(encode(limit + 1)))).await;
    assert_eq!(over["code"], "invalid_input", "{over}");
    assert_eq!(over["path"], "/operations/0/sourceBytes");
}

/// `query_entity` takes the names the outline shows as well as ids: a package, a
/// component, a node by its name; a misspelt node gets a did-you-mean.
#[tokio::test]
async fn query_takes_names_and_answers_a_misspelt_node_with_the_one_meant() {
    let (_workspace, server, id) = opened().await;
    let by_id = query(
        &server,
        &id,
        json!({ "kind": "displayNode", "selector": { "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n1_view" } }),
    )
    .await;
    let by_name = query(
        &server,
        &id,
        json!({ "kind": "displayNode", "selector": { "packageId": "Main", "componentResourceId": "MainView", "displayNodeId": "title" } }),
    )
    .await;
    assert_eq!(by_id["name"], "title", "{by_id}");
    assert_eq!(by_name, by_id);
    let error = server
        .err(
            QUERY,
            json!({ "sessionId": id, "target": { "kind": "displayNode", "selector": { "packageId": "Main", "componentResourceId": "MainView", "displayNodeId": "titel" } } }),
        )
        .await;
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("Did you mean n1_view (title)?"),
        "{message}"
    );
}

/// Over MCP a batch names a node as the outline shows it (package, component and node
/// names); the preview reports ids, and a name spelt wrong is answered with the one meant.
#[tokio::test]
async fn a_batch_takes_the_names_the_outline_shows() {
    let workspace = Workspace::new();
    let project = workspace.add("example", &example_project());
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;
    let named =
        json!({ "packageId": "Main", "componentResourceId": "MainView", "displayNodeId": "title" });
    let batch = json!([{ "kind": "setDisplayNodeProps", "selector": named, "props": { "text": "By name" } }]);
    let preview = server
        .ok(
            PREFLIGHT,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": batch }),
        )
        .await;
    let entities = preview["impact"]["entities"].to_string();
    assert!(
        entities.contains("n1_view") && !entities.contains("\"title\""),
        "{entities}"
    );
    server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": batch }),
        )
        .await;
    let node = server
        .ok(
            "openfairygui_backend_query_entity",
            json!({ "sessionId": id, "target": { "kind": "displayNode", "selector": {
                "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n1_view" } } }),
        )
        .await;
    assert_eq!(node["entity"]["properties"]["text"], "By name");

    let refused = server
        .err(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 1, "operations": [{
                "kind": "setDisplayNodeProps",
                "selector": { "packageId": "Main", "componentResourceId": "MainView", "displayNodeId": "Stop" },
                "props": { "text": "x" } }] }),
        )
        .await;
    let message = refused["issues"][0]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("{refused}"));
    assert!(
        message.contains("Did you mean node n3_view (stop)? Names match with their letter case."),
        "{message}"
    );
}
