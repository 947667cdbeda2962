//! A backend instance that fails mid-call loses nothing: the session is rebuilt on a fresh
//! instance from the project files and the transactions applied since open.
//!
//! The failure is real: a memory cap small enough for the example project but not for an
//! oversized batch makes the component trap while taking the batch in.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use ofgui_contracts::methods;
use ofgui_host::runtime::InstanceLimits;
use ofgui_host::sandbox::canonical_roots;
use ofgui_host::service::{Service, ServiceConfig};
use serde_json::{Value, json};

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn service(root: &Path, memory_bytes: usize) -> Arc<Service> {
    Service::new(ServiceConfig {
        roots: canonical_roots(&[root.to_path_buf()]).unwrap(),
        max_sessions: 4,
        idle_timeout: Duration::ZERO,
        cache_dir: Some(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ofgui-compile-cache")),
        limits: InstanceLimits {
            memory_bytes,
            ..InstanceLimits::default()
        },
    })
}

async fn call(service: &Service, method: &str, input: Value) -> Value {
    let method = methods::by_name(method).unwrap();
    let reply = service.call(method, input).await;
    assert_eq!(reply.is_error, reply.envelope.value["ok"] == false);
    reply.envelope.value
}

/// A copy of the example project, a service whose instances get 16 MiB of memory, and a
/// session open on the copy.
async fn opened_example() -> (tempfile::TempDir, Arc<Service>, String) {
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("example");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/HelloFairy"),
        &project,
    );
    let service = service(root.path(), 16 << 20);
    let opened = call(
        &service,
        "openSession",
        json!({ "projectPath": project.to_string_lossy() }),
    )
    .await;
    let id = opened["data"]["sessionId"].as_str().unwrap().to_string();
    (root, service, id)
}

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
    let (_root, service, id) = opened_example().await;
    for (revision, text) in [(0, "First edit"), (1, "Second edit")] {
        let applied = call(
            &service,
            "applyTransaction",
            json!({ "sessionId": id, "expectedRevision": revision, "operations": retitle(text) }),
        )
        .await;
        assert_eq!(applied["ok"], true, "{applied}");
    }

    let failed = call(
        &service,
        "applyTransaction",
        json!({ "sessionId": id, "expectedRevision": 2, "operations": oversized() }),
    )
    .await;
    assert_eq!(
        failed["error"]["code"], "backend_unhandled_error",
        "{failed}"
    );
    let message = failed["error"]["message"].as_str().unwrap();
    assert!(message.contains("restored"), "{message}");

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
    let (root, service, id) = opened_example().await;
    let project = root.path().join("example");
    // The project is gone from disk, so a fresh instance has nothing to read.
    std::fs::remove_dir_all(&project).unwrap();
    let failed = call(
        &service,
        "applyTransaction",
        json!({ "sessionId": id, "expectedRevision": 0, "operations": oversized() }),
    )
    .await;
    assert_eq!(failed["error"]["code"], "backend_unhandled_error");
    assert!(
        failed["error"]["message"]
            .as_str()
            .unwrap()
            .contains("closed")
    );
    let gone = call(&service, "getSession", json!({ "sessionId": id })).await;
    assert_eq!(gone["error"]["code"], "session_not_found");
}
