//! The derived cache through the real server, as upstream pins it: valid at open,
//! invalid at the new revision after an edit, valid again after refreshCache or a save,
//! each change an event in upstream's order, and gone with the session.

use serde_json::{Value, json};

use crate::harness::*;

const APPLY: &str = "openfairygui_backend_apply_transaction";
const SAVE: &str = "openfairygui_backend_save_session";
const EVENTS: &str = "openfairygui_backend_get_events";

fn retitle(text: &str) -> Value {
    json!([{
        "kind": "setDisplayNodeProps",
        "selector": { "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n1_view" },
        "props": { "text": text }
    }])
}

fn entry(snapshot: &Value) -> &Value {
    let entries = snapshot["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 1, "{snapshot}");
    &entries[0]
}

#[tokio::test]
async fn the_cache_follows_the_session_and_goes_with_it() {
    let workspace = Workspace::new();
    let project = workspace.add("example", &example_project());
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;
    let outline = server.ok(OUTLINE, json!({ "sessionId": id })).await;
    let packages = outline["packages"].as_array().unwrap();
    let resources: usize = packages
        .iter()
        .map(|p| p["resources"].as_array().unwrap().len())
        .sum();
    let key = server.ok(GET, json!({ "sessionId": id })).await["canonicalProjectPath"].clone();

    let opened = server.ok(CACHE, json!({ "sessionId": id })).await;
    assert_eq!(opened["cacheRevision"], 0);
    let first = entry(&opened);
    assert_eq!(
        (
            first["valid"].clone(),
            first["revision"].clone(),
            first["dirty"].clone(),
            first["sessionId"].clone(),
            first["canonicalPathKey"].clone()
        ),
        (json!(true), json!(0), json!(false), json!(id), key)
    );
    assert_eq!(
        first["summary"],
        json!({ "packageCount": packages.len(), "resourceCount": resources, "diagnostics": [] })
    );
    assert!(first["indexedAt"].as_str().unwrap().ends_with('Z'));

    server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": retitle("One") }),
        )
        .await;
    let edited = server.ok(CACHE, json!({ "sessionId": id })).await;
    assert_eq!(edited["cacheRevision"], 1);
    let stale = entry(&edited);
    assert_eq!(
        (
            stale["valid"].clone(),
            stale["revision"].clone(),
            stale["dirty"].clone()
        ),
        (json!(false), json!(1), json!(true))
    );

    let refreshed = server.ok(REFRESH, json!({ "sessionId": id })).await;
    assert_eq!(refreshed["cacheRevision"], 1);
    let fresh = entry(&refreshed);
    assert_eq!(
        (
            fresh["valid"].clone(),
            fresh["dirty"].clone(),
            fresh["lastSavedRevision"].clone()
        ),
        (json!(true), json!(true), json!(0))
    );
    assert_eq!(fresh["summary"], first["summary"]);
    assert_eq!(
        server.ok(CACHE, json!({ "sessionId": id })).await,
        refreshed,
        "the snapshot is the refreshed one"
    );
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
            "cache.updated"
        ]
    );
    let updated = &events["events"][3];
    assert_eq!(updated["payload"], json!({ "reason": "manual" }));
    assert_eq!(updated["cacheRevision"], 1);
    assert_eq!(events["events"][2]["cacheRevision"], 1);

    let after = events["currentSequence"].clone();
    server
        .ok(REFRESH, json!({ "sessionId": id, "reason": "after_save" }))
        .await;
    let error = server
        .err(REFRESH, json!({ "sessionId": id, "reason": "whenever" }))
        .await;
    assert_eq!(error["code"], "invalid_input");
    server
        .ok(SAVE, json!({ "sessionId": id, "expectedRevision": 1 }))
        .await;
    let later = server
        .ok(EVENTS, json!({ "sessionId": id, "after": after }))
        .await;
    let kinds: Vec<&str> = later["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "cache.updated",
            "save.started",
            "save.completed",
            "cache.updated"
        ]
    );
    assert_eq!(
        later["events"][0]["payload"],
        json!({ "reason": "after_save" })
    );
    let saved = server.ok(CACHE, json!({ "sessionId": id })).await;
    let saved_entry = entry(&saved);
    assert_eq!(
        (
            saved_entry["valid"].clone(),
            saved_entry["dirty"].clone(),
            saved_entry["lastSavedRevision"].clone()
        ),
        (json!(true), json!(false), json!(1))
    );

    // The resource is the envelope of getCacheSnapshot, unchanged.
    let uri = format!("openfairygui://backend/cache/{id}");
    let resource = crate::resources::read_json(&server, &uri).await;
    assert_eq!(resource["ok"], true);
    assert_eq!(resource["data"], saved);

    server.ok(CLOSE, json!({ "sessionId": id })).await;
    for tool in [CACHE, REFRESH] {
        let error = server.err(tool, json!({ "sessionId": id })).await;
        assert_eq!(error["code"], "session_not_found", "{tool}");
    }
    let closed = crate::resources::read_json(&server, &uri).await;
    assert_eq!(closed["ok"], false);
    assert_eq!(closed["error"]["code"], "session_not_found");
}
