//! The host carries what the component says in one call per request: a refused write
//! comes back with the session's state from the same call, so the error and the
//! attached snapshot always agree.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{call, opened_example};
use serde_json::{Value, json};

fn retitle(node: &str, text: &str) -> Value {
    json!([{
        "kind": "setDisplayNodeProps",
        "selector": { "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": node },
        "props": { "text": text }
    }])
}

#[tokio::test]
async fn every_request_on_a_session_is_one_guest_call() {
    let (_root, service, id) = opened_example(1 << 30).await;
    let mut before = service.guest_calls();
    let mut calls = async |method: &str, input: Value| {
        let envelope = call(&service, method, input).await;
        let after = service.guest_calls();
        let made = after - before;
        before = after;
        (envelope, made)
    };

    let (applied, made) = calls(
        "applyTransaction",
        json!({ "sessionId": id, "expectedRevision": 0, "operations": retitle("n1_view", "One") }),
    )
    .await;
    assert_eq!(applied["ok"], true, "{applied}");
    assert_eq!(made, 1, "a successful apply");

    let (stale, made) = calls(
        "applyTransaction",
        json!({ "sessionId": id, "expectedRevision": 0, "operations": retitle("n1_view", "Two") }),
    )
    .await;
    assert_eq!(stale["error"]["code"], "stale_write", "{stale}");
    assert_eq!(made, 1, "a stale apply");
    assert_eq!(stale["error"]["actualRevision"], 1);
    assert_eq!(stale["session"]["revision"], 1);
    assert_eq!(stale["meta"]["revision"], 1);

    let (refused, made) = calls(
        "applyTransaction",
        json!({ "sessionId": id, "expectedRevision": 1, "operations": retitle("no_such_node", "Three") }),
    )
    .await;
    assert_eq!(
        refused["error"]["code"], "transaction_unsupported",
        "{refused}"
    );
    assert_eq!(made, 1, "a refused apply");
    assert_eq!(refused["session"]["revision"], 1);
    assert_eq!(refused["session"]["dirty"], true);
    assert_eq!(refused["meta"]["revision"], 1);

    let (malformed, made) = calls(
        "preflightTransaction",
        json!({ "sessionId": id, "expectedRevision": 1, "operations": [{ "kind": "setDisplayNodeProps" }] }),
    )
    .await;
    assert_eq!(malformed["error"]["code"], "invalid_input", "{malformed}");
    // The deepest failing field: the operation has no selector.
    assert_eq!(malformed["error"]["path"], "/operations/0/selector");
    assert_eq!(
        made, 1,
        "a malformed batch is decoded by the component alone"
    );

    for (method, input) in [
        ("getProjectOutline", json!({ "sessionId": id })),
        ("validateSession", json!({ "sessionId": id })),
        (
            "readSessionState",
            json!({ "sessionId": id, "expectedRevision": 0 }),
        ),
        (
            "queryEntity",
            json!({ "sessionId": id, "target": { "kind": "package", "selector": { "packageId": "main0001" } } }),
        ),
        (
            "readResourceBytes",
            json!({ "sessionId": id, "expectedRevision": 1, "selector": { "packageId": "main0001", "resourceId": "img0" } }),
        ),
        ("refreshCache", json!({ "sessionId": id })),
    ] {
        let (envelope, made) = calls(method, input).await;
        assert_eq!(made, 1, "{method}: {envelope}");
        assert_eq!(envelope["meta"]["revision"], 1, "{method}: {envelope}");
    }

    // The cache is the host's index of what the component reported: reading it is no call.
    let (cached, made) = calls("getCacheSnapshot", json!({ "sessionId": id })).await;
    assert_eq!(made, 0, "{cached}");
    assert_eq!(cached["data"]["entries"][0]["revision"], 1);
    assert_eq!(cached["meta"]["revision"], 1);
}
