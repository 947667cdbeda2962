use serde_json::{Value, json};

use crate::harness::*;

const APPLY: &str = "openfairygui_backend_apply_transaction";

fn package_id(outline: &Value, name: &str) -> String {
    outline["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// A model with a 30-package project: learn the packages cheaply, read one, page through
/// the session state, find a node by its text and edit it by the selector it got.
#[tokio::test]
async fn a_large_project_is_read_in_parts() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;

    let (whole, _) = server.call(OUTLINE, json!({ "sessionId": id })).await;
    let (light, _) = server
        .call(OUTLINE, json!({ "sessionId": id, "detail": "packages" }))
        .await;
    let packages = light["data"]["packages"].as_array().unwrap();
    assert_eq!(packages.len(), 30);
    assert!(
        packages
            .iter()
            .all(|p| p.get("resources").is_none() && p["resourceCount"].is_u64())
    );
    let (whole_size, light_size) = (whole.to_string().len(), light.to_string().len());
    assert!(light_size * 20 < whole_size, "{light_size} vs {whole_size}");

    let modal = package_id(&light["data"], "ModalWaiting");
    let one = server
        .ok(
            OUTLINE,
            json!({ "sessionId": id, "scope": { "packageIds": [modal] } }),
        )
        .await;
    assert_eq!(one["packages"].as_array().unwrap().len(), 1);
    assert_eq!(one["packages"][0]["name"], "ModalWaiting");

    // The session state page by page: three answers of at most 12 packages.
    let mut cursor = Value::Null;
    let mut names = Vec::new();
    loop {
        let page = server
            .ok(
                STATE,
                json!({ "sessionId": id, "expectedRevision": 0, "page": { "limit": 12, "cursor": cursor } }),
            )
            .await;
        names.extend(
            page["project"]["packages"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["name"].as_str().unwrap().to_string()),
        );
        match page.get("nextCursor") {
            Some(next) => cursor = next.clone(),
            None => break,
        }
    }
    let all: Vec<String> = whole["data"]["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, all);

    // Find the window title by its text, then move it by the selector the search gave.
    let found = server
        .ok(
            SEARCH,
            json!({ "sessionId": id, "query": { "text": "Window Title" }, "scope": { "packageIds": [modal] } }),
        )
        .await;
    assert_eq!(found["total"], 1);
    let hit = &found["matches"][0];
    assert_eq!(hit["kind"], "text");
    assert_eq!(hit["field"], "text.text");
    assert_eq!(hit["target"]["kind"], "displayNode");
    let selector = hit["target"]["selector"].clone();
    let queried = server
        .ok(QUERY, json!({ "sessionId": id, "target": hit["target"] }))
        .await;
    assert_eq!(queried["entity"]["properties"]["name"], "title");
    assert!(queried.to_string().contains("Window Title"), "{queried}");

    let first_page = server
        .ok(OUTLINE, json!({ "sessionId": id, "page": { "limit": 5 } }))
        .await;
    let stale_cursor = first_page["nextCursor"].clone();
    server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": [{
                "kind": "setDisplayNodeProps",
                "selector": selector,
                "props": { "position": { "x": 1, "y": 2 } }
            }] }),
        )
        .await;
    let error = server
        .err(
            OUTLINE,
            json!({ "sessionId": id, "page": { "cursor": stale_cursor } }),
        )
        .await;
    assert_eq!(error["code"], "stale_read");
    assert_eq!(error["expectedRevision"], 0);
    assert_eq!(error["actualRevision"], 1);
}

#[tokio::test]
async fn scope_and_search_mistakes_say_what_to_do() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;

    let (envelope, is_error) = server
        .call(
            OUTLINE,
            json!({ "sessionId": id, "scope": { "packageIds": ["nope"] } }),
        )
        .await;
    assert!(is_error);
    assert_eq!(envelope["error"]["code"], "session_read_failed");
    assert_eq!(envelope["error"]["reason"], "not_found");
    let message = envelope["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("scope.packageIds[0]") && message.contains("detail: packages"),
        "{message}"
    );
    assert!(
        envelope["meta"]["diagnostics"][0]["remediation"].is_object(),
        "{envelope}"
    );

    // The schema refuses a limit out of range before the backend sees it.
    let error = server
        .err(OUTLINE, json!({ "sessionId": id, "page": { "limit": 0 } }))
        .await;
    assert_eq!(error["code"], "invalid_input");
    assert_eq!(error["path"], "/page/limit");

    let error = server
        .err(SEARCH, json!({ "sessionId": id, "query": {} }))
        .await;
    assert_eq!(error["code"], "invalid_input");
    assert_eq!(error["path"], "/query");

    let error = server
        .err(
            SEARCH,
            json!({ "sessionId": id, "query": { "kind": "sprite" } }),
        )
        .await;
    assert_eq!(error["path"], "/query/kind");
    assert!(
        error["message"].as_str().unwrap().contains("loader3D"),
        "{error}"
    );

    let found = server
        .ok(
            SEARCH,
            json!({ "sessionId": id, "query": { "url": "ui://Basics/Button10" } }),
        )
        .await;
    assert_eq!(found["total"], 22);
}
