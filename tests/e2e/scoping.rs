use serde_json::{Value, json};

use crate::harness::*;

const APPLY: &str = "openfairygui_backend_apply_transaction";
const VALIDATE: &str = "openfairygui_backend_validate_session";

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

    let (whole, _) = server
        .call(
            OUTLINE,
            json!({ "sessionId": id, "page": { "limit": 1000 } }),
        )
        .await;
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

/// The budget of a default answer: what a client receives, whole result included.
const ANSWER_BUDGET: usize = 64 * 1024;

/// The cursor an `answer_paged` warning tells the caller to pass as `page.cursor`.
fn cursor_in(message: &str) -> &str {
    message
        .split_once(r#""cursor": ""#)
        .and_then(|(_, rest)| rest.split('"').next())
        .unwrap_or_else(|| panic!("no cursor in {message}"))
}

/// A tool call's whole result as the client receives it, and its envelope.
async fn result_and_size(server: &Server, tool: &str, arguments: Value) -> (Value, usize) {
    let mut params = rmcp::model::CallToolRequestParams::new(tool.to_string());
    params.arguments = arguments.as_object().cloned();
    let result = server.client.call_tool(params).await.unwrap();
    let size = serde_json::to_vec(&result).unwrap().len();
    let envelope = result.structured_content.unwrap()["backendResult"].clone();
    (envelope, size)
}

/// On a 60-package project the tool list and an outline asked for as upstream's clients
/// ask (the session alone) stay under 64 KiB, and the outline says how to read on: its
/// pages together are the whole project.
#[tokio::test]
async fn default_answers_of_a_60_package_project_stay_under_64_kib() {
    let workspace = Workspace::new();
    let project = workspace.add("many", &unity_corpus());
    assert_eq!(
        crate::many_packages::multiply_packages(&project, 1).unwrap(),
        60
    );
    let server = Server::start(&[workspace.path()]).await;
    let listed = serde_json::to_vec(server.tools()).unwrap().len();
    assert!(listed < ANSWER_BUDGET, "tools/list is {listed} bytes");
    let id = server.open(&project).await;

    let (whole, _) = server
        .call(
            OUTLINE,
            json!({ "sessionId": id, "page": { "limit": 1000 } }),
        )
        .await;
    let whole = whole["data"]["packages"].as_array().unwrap().clone();
    assert_eq!(whole.len(), 60);
    let (mut packages, mut answers) = (Vec::new(), 0);
    let mut arguments = json!({ "sessionId": id });
    loop {
        let (envelope, size) = result_and_size(&server, OUTLINE, arguments.clone()).await;
        assert!(size < ANSWER_BUDGET, "an outline answer is {size} bytes");
        if answers == 0 {
            assert!(
                envelope["data"].get("nextCursor").is_none(),
                "upstream's shape"
            );
        }
        answers += 1;
        packages.extend(envelope["data"]["packages"].as_array().unwrap().clone());
        let warnings = envelope["meta"]["warnings"].as_array().unwrap();
        let Some(paged) = warnings.iter().find(|w| w["code"] == "answer_paged") else {
            break;
        };
        let message = paged["message"].as_str().unwrap();
        assert!(message.contains(" of 60:"), "{message}");
        let cursor = cursor_in(message);
        // The cursor goes back as the warning says; that answer is still upstream's shape
        // plus the page the client asked for.
        arguments = json!({ "sessionId": id, "page": { "cursor": cursor } });
    }
    assert!(answers > 2, "{answers} answers");
    assert_eq!(packages, whole, "the pages together are the whole outline");
}

/// What a checkout without `git lfs pull` holds in place of a picture.
const LFS_POINTER: &str = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 48213\n";

/// Every PNG under `dir`, replaced by a Git LFS pointer; how many.
fn point_pictures_at_lfs(dir: &std::path::Path) -> usize {
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            count += point_pictures_at_lfs(&path);
        } else if path.extension().is_some_and(|ext| ext == "png") {
            std::fs::write(&path, LFS_POINTER).unwrap();
            count += 1;
        }
    }
    count
}

/// A 60-package checkout without `git lfs pull` has a finding for every picture; the
/// report asked for as upstream's clients ask stays under 64 KiB, its status covers every
/// finding, and its pages together are the whole report.
#[tokio::test]
async fn a_report_of_hundreds_of_findings_comes_in_pages_under_64_kib() {
    let workspace = Workspace::new();
    let project = workspace.add("many", &unity_corpus());
    crate::many_packages::multiply_packages(&project, 1).unwrap();
    let pointers = point_pictures_at_lfs(&project.join("assets"));
    assert!(pointers > 500, "{pointers} pictures");
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;

    // The whole report, a thousand findings an answer, following additions.nextCursor.
    let mut whole = Vec::new();
    let mut page = json!({ "limit": 1000 });
    loop {
        let arguments = json!({ "sessionId": id, "page": page })
            .as_object()
            .cloned();
        let (envelope, _, _, additions) = server.call_parts(VALIDATE, arguments, None).await;
        whole.extend(envelope["data"]["diagnostics"].as_array().unwrap().clone());
        match additions.as_ref().and_then(|a| a["nextCursor"].as_str()) {
            Some(cursor) => page = json!({ "limit": 1000, "cursor": cursor }),
            None => break,
        }
    }
    assert!(whole.len() > pointers, "{} findings", whole.len());

    let (mut findings, mut answers) = (Vec::new(), 0);
    let mut arguments = json!({ "sessionId": id });
    loop {
        let (envelope, size) = result_and_size(&server, VALIDATE, arguments.clone()).await;
        assert!(size < ANSWER_BUDGET, "a report answer is {size} bytes");
        assert_eq!(envelope["data"]["status"], "invalid");
        let shown = envelope["data"]["diagnostics"].as_array().unwrap();
        assert_eq!(
            envelope["meta"]["diagnostics"].as_array().unwrap().len(),
            shown.len(),
            "meta mirrors this page's findings"
        );
        findings.extend(shown.clone());
        answers += 1;
        let warnings = envelope["meta"]["warnings"].as_array().unwrap();
        let Some(paged) = warnings.iter().find(|w| w["code"] == "answer_paged") else {
            break;
        };
        let message = paged["message"].as_str().unwrap();
        assert!(
            message.contains(&format!(" of {} (", whole.len())) && message.contains(" errors, "),
            "{message}"
        );
        let cursor = cursor_in(message);
        arguments = json!({ "sessionId": id, "page": { "cursor": cursor } });
    }
    assert!(answers > 5, "{answers} answers");
    assert_eq!(findings, whole, "the pages together are the whole report");
}
