//! A backend instance that fails mid-call loses nothing: the session is rebuilt on a fresh
//! instance from the project files and the transactions applied since open.
//!
//! The failure is real: a memory cap small enough for the example project but not for an
//! oversized batch stops the component while it takes the batch in.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{call, opened_example};
use ofgui_host::service::Service;
use ofgui_host::service::report;
use ofgui_host::service::{events::SessionChange, notice::NoticeLevel};
use serde_json::{Value, json};

/// 4 MiB of bytes, as a JSON number array, cannot be taken in within 16 MiB of linear
/// memory, which the example project itself fits in with room to spare.
fn oversized() -> Value {
    json!([{
        "kind": "replaceResourceBytes",
        "selector": { "packageId": "main0001", "resourceId": "img0" },
        "sourceBytes": vec![0u8; 4 << 20]
    }])
}

fn retitle(text: &str) -> Value {
    json!([{
        "kind": "setDisplayNodeProps",
        "selector": { "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n1_view" },
        "props": { "text": text }
    }])
}

async fn title(service: &Service, id: &str) -> Value {
    let found = call(
        service,
        "queryEntity",
        json!({ "sessionId": id, "target": { "kind": "displayNode", "selector": {
            "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n1_view"
        } } }),
    )
    .await;
    found["data"]["entity"]["properties"]["text"].clone()
}

#[tokio::test]
async fn a_trapped_call_leaves_the_session_as_it_was() {
    let (_root, service, id) = opened_example(16 << 20).await;
    for (revision, text) in [(0, "First edit"), (1, "Second edit")] {
        let applied = call(
            &service,
            "applyTransaction",
            json!({ "sessionId": id, "expectedRevision": revision, "operations": retitle(text) }),
        )
        .await;
        assert_eq!(applied["ok"], true, "{applied}");
    }

    let mut changes = service.events().watch_changes();
    let (failed, notices) = report::scope(
        None,
        call(
            &service,
            "applyTransaction",
            json!({ "sessionId": id, "expectedRevision": 2, "operations": oversized() }),
        ),
    )
    .await;
    assert_eq!(
        failed["error"]["code"], "backend_unhandled_error",
        "{failed}"
    );
    // The cap stopped it, and the answer says so (not a bare trap).
    assert_eq!(failed["error"]["reason"], "out_of_memory", "{failed}");
    let message = failed["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("restored") && message.contains("16 MiB"),
        "{message}"
    );
    // The user is told, with the call; the session's resources did not change.
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(
        (notices[0].level, notices[0].topic),
        (NoticeLevel::Warning, "session.rebuilt")
    );
    assert_eq!(notices[0].data, json!({ "sessionId": id, "revision": 2 }));
    assert!(
        changes.try_recv().is_err(),
        "a rebuilt session is unchanged"
    );

    // Same session, same revision, both edits still there, still editable.
    let session = call(&service, "getSession", json!({ "sessionId": id })).await;
    assert_eq!(
        (
            session["data"]["revision"].clone(),
            session["data"]["dirty"].clone()
        ),
        (json!(2), json!(true))
    );
    assert_eq!(title(&service, &id).await, "Second edit");
    let applied = call(
        &service,
        "applyTransaction",
        json!({ "sessionId": id, "expectedRevision": 2, "operations": retitle("Third edit") }),
    )
    .await;
    assert_eq!(applied["data"]["revision"], 3);
    assert_eq!(title(&service, &id).await, "Third edit");
}

#[tokio::test]
async fn a_session_that_cannot_be_rebuilt_is_closed() {
    let (root, service, id) = opened_example(16 << 20).await;
    let project = root.path().join("example");
    // The project is gone from disk, so a fresh instance has nothing to read.
    std::fs::remove_dir_all(&project).unwrap();
    let mut changes = service.events().watch_changes();
    let (failed, notices) = report::scope(
        None,
        call(
            &service,
            "applyTransaction",
            json!({ "sessionId": id, "expectedRevision": 0, "operations": oversized() }),
        ),
    )
    .await;
    assert_eq!(failed["error"]["code"], "backend_unhandled_error");
    // The user is told the session is lost; its subscribers, that it closed.
    let topics: Vec<_> = notices.iter().map(|n| (n.level, n.topic)).collect();
    assert_eq!(topics, [(NoticeLevel::Error, "session.lost")]);
    assert_eq!(
        changes.try_recv().unwrap(),
        SessionChange::Closed {
            session_id: id.clone()
        }
    );
    assert!(
        failed["error"]["message"]
            .as_str()
            .unwrap()
            .contains("closed")
    );
    let gone = call(&service, "getSession", json!({ "sessionId": id })).await;
    assert_eq!(gone["error"]["code"], "session_not_found");
}

/// A session opened from a document is rebuilt from that document: it never had files.
#[tokio::test]
async fn a_document_session_is_rebuilt_from_its_document() {
    let (root, service, disk) = opened_example(16 << 20).await;
    let state = call(&service, "readSessionState", json!({ "sessionId": disk })).await;
    let mut project = state["data"]["project"].clone();
    for package in project["packages"].as_array_mut().unwrap() {
        let package_id = package["id"].clone();
        for resource in package["resources"].as_array_mut().unwrap() {
            if resource["kind"] == "component" {
                continue;
            }
            let read = call(
                &service,
                "readResourceBytes",
                json!({ "sessionId": disk, "expectedRevision": 0, "selector": { "packageId": package_id, "resourceId": resource["id"] } }),
            )
            .await;
            resource["sourceBytes"] = read["data"]["sourceBytes"].clone();
        }
    }
    call(&service, "closeSession", json!({ "sessionId": disk })).await;
    // Not even the project directory is needed.
    std::fs::remove_dir_all(root.path().join("example")).unwrap();
    let opened = call(
        &service,
        "openProjectSession",
        json!({ "project": project, "sessionId": "doc" }),
    )
    .await;
    assert_eq!(opened["ok"], true, "{opened}");
    let applied = call(
        &service,
        "applyTransaction",
        json!({ "sessionId": "doc", "expectedRevision": 0, "operations": retitle("Kept") }),
    )
    .await;
    assert_eq!(applied["ok"], true, "{applied}");
    let failed = call(
        &service,
        "applyTransaction",
        json!({ "sessionId": "doc", "expectedRevision": 1, "operations": oversized() }),
    )
    .await;
    assert_eq!(failed["error"]["code"], "backend_unhandled_error");
    assert!(
        failed["error"]["message"]
            .as_str()
            .unwrap()
            .contains("restored"),
        "{failed}"
    );
    assert_eq!(title(&service, "doc").await, "Kept");
    let session = call(&service, "getSession", json!({ "sessionId": "doc" })).await;
    assert_eq!(session["data"]["revision"], 1);
    assert_eq!(session["data"]["canonicalProjectPath"], "memory://doc");
}

#[tokio::test]
async fn undos_and_redos_are_replayed_when_a_session_is_rebuilt() {
    let (_root, service, id) = opened_example(16 << 20).await;
    for (revision, text) in [(0, "First edit"), (1, "Second edit"), (2, "Third edit")] {
        let applied = call(
            &service,
            "applyTransaction",
            json!({ "sessionId": id, "expectedRevision": revision, "operations": retitle(text) }),
        )
        .await;
        assert_eq!(applied["ok"], true, "{applied}");
    }
    for (method, revision) in [("undo", 3), ("undo", 4), ("redo", 5)] {
        let stepped = call(
            &service,
            method,
            json!({ "sessionId": id, "expectedRevision": revision }),
        )
        .await;
        assert_eq!(stepped["ok"], true, "{stepped}");
    }
    assert_eq!(title(&service, &id).await, "Second edit");

    let failed = call(
        &service,
        "applyTransaction",
        json!({ "sessionId": id, "expectedRevision": 6, "operations": oversized() }),
    )
    .await;
    assert_eq!(failed["error"]["reason"], "out_of_memory", "{failed}");

    // Rebuilt at the same revision and state, with the same steps to take.
    assert_eq!(title(&service, &id).await, "Second edit");
    let history = call(&service, "getHistory", json!({ "sessionId": id })).await;
    assert_eq!(history["data"]["revision"], 6, "{history}");
    assert_eq!(
        (
            history["data"]["undoCount"].clone(),
            history["data"]["redoCount"].clone()
        ),
        (json!(2), json!(1))
    );
    let undone = call(
        &service,
        "undo",
        json!({ "sessionId": id, "expectedRevision": 6 }),
    )
    .await;
    assert_eq!(undone["data"]["revision"], 7, "{undone}");
    assert_eq!(title(&service, &id).await, "First edit");
}
