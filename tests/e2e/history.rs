//! Undo, redo and the history through MCP: undo back to the saved state writes nothing,
//! undo past a save makes the session dirty and the next save writes exactly what
//! differs, and a new batch after an undo drops what was undone.

use serde_json::{Value, json};

use crate::harness::*;

const APPLY: &str = "openfairygui_backend_apply_transaction";
const SAVE: &str = "openfairygui_backend_save_session";
const UNDO: &str = "openfairygui_undo";
const REDO: &str = "openfairygui_redo";
const HISTORY: &str = "openfairygui_get_history";
const EVENTS: &str = "openfairygui_backend_get_events";

fn retitle(text: &str) -> Value {
    json!([{
        "kind": "setDisplayNodeProps",
        "selector": { "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n1_view" },
        "props": { "text": text }
    }])
}

async fn title(server: &Server, id: &str) -> Value {
    let target = json!({ "kind": "displayNode", "selector": {
        "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n1_view"
    } });
    server
        .ok(QUERY, json!({ "sessionId": id, "target": target }))
        .await["entity"]["properties"]["text"]
        .clone()
}

#[tokio::test]
async fn undo_and_redo_step_through_saves_and_write_exactly_what_differs() {
    let workspace = Workspace::new();
    let project = workspace.add("example", &example_project());
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;
    let original = snapshot(&project);
    let first_title = title(&server, &id).await;

    let apply = |revision: u64, text: &str| json!({ "sessionId": id, "expectedRevision": revision, "operations": retitle(text) });
    let at = |revision: u64| json!({ "sessionId": id, "expectedRevision": revision });
    server.ok(APPLY, apply(0, "Saved title")).await;
    server.ok(SAVE, at(1)).await;
    let saved = snapshot(&project);
    server.ok(APPLY, apply(1, "Unsaved title")).await;

    // A preview changes nothing and names what the undo would change.
    let preview = server
        .ok(
            UNDO,
            json!({ "sessionId": id, "expectedRevision": 2, "preview": true }),
        )
        .await;
    assert_eq!(preview["projectedRevision"], 3, "{preview}");
    assert_eq!(
        preview["impact"]["entities"][0]["fields"],
        json!(["text"]),
        "{preview}"
    );
    // And its picture: the component now and as the undo would leave it.
    let pictured = server
        .ok(
            RENDER,
            json!({ "sessionId": id, "selector": { "packageId": "main0001", "componentResourceId": "view0" },
                    "expectedRevision": 2, "previewHistory": "undo" }),
        )
        .await;
    let changed = pictured["comparison"]["changedPixels"].as_u64().unwrap();
    assert!(changed > 0, "{pictured}");
    assert_eq!(title(&server, &id).await, "Unsaved title");

    // Back to the saved state: clean, and a save writes nothing.
    let undone = server.ok(UNDO, at(2)).await;
    assert_eq!(
        (undone["revision"].clone(), undone["dirty"].clone()),
        (json!(3), json!(false))
    );
    assert_eq!(title(&server, &id).await, "Saved title");
    let (envelope, _) = server.call(SAVE, at(3)).await;
    assert_eq!(envelope["ok"], true, "{envelope}");
    assert_eq!(
        snapshot(&project),
        saved,
        "a save of the saved state writes nothing"
    );

    // Past the save: dirty, and the save brings the disk back to what was read.
    let undone = server.ok(UNDO, at(3)).await;
    assert_eq!(
        (undone["revision"].clone(), undone["dirty"].clone()),
        (json!(4), json!(true))
    );
    assert_eq!(title(&server, &id).await, first_title);
    let error = server.err(UNDO, at(4)).await;
    assert_eq!(error["code"], "transaction_unsupported", "{error}");
    assert_eq!(error["issues"][0]["code"], "nothing_to_undo", "{error}");
    server.ok(SAVE, at(4)).await;
    assert_eq!(
        snapshot(&project),
        original,
        "undone past the save, the disk is as read"
    );

    // Redo both; a stale revision is refused as for any write.
    let error = server.err(REDO, at(3)).await;
    assert_eq!(error["code"], "stale_write", "{error}");
    server.ok(REDO, at(4)).await;
    assert_eq!(title(&server, &id).await, "Saved title");
    let redone = server.ok(REDO, at(5)).await;
    assert_eq!(
        (redone["revision"].clone(), redone["dirty"].clone()),
        (json!(6), json!(true))
    );
    assert_eq!(title(&server, &id).await, "Unsaved title");

    // A new batch after an undo drops the redo branch.
    server.ok(UNDO, at(6)).await;
    server.ok(APPLY, apply(7, "Another title")).await;
    let error = server.err(REDO, at(8)).await;
    assert_eq!(error["issues"][0]["code"], "nothing_to_redo", "{error}");

    let history = server.ok(HISTORY, json!({ "sessionId": id })).await;
    assert_eq!(history["revision"], 8, "{history}");
    assert_eq!(
        (history["undoCount"].clone(), history["redoCount"].clone()),
        (json!(2), json!(0))
    );
    assert_eq!(history["nextUndo"], 8);
    let actions: Vec<(Value, Value, Value)> = history["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            (
                entry["revision"].clone(),
                entry["action"].clone(),
                entry["batchRevision"].clone(),
            )
        })
        .collect();
    let expected: Vec<(Value, Value, Value)> = [
        (8, "apply", 8),
        (7, "undo", 2),
        (6, "redo", 2),
        (5, "redo", 1),
        (4, "undo", 1),
        (3, "undo", 2),
        (2, "apply", 2),
        (1, "apply", 1),
    ]
    .iter()
    .map(|(revision, action, batch)| (json!(revision), json!(action), json!(batch)))
    .collect();
    assert_eq!(actions, expected);
    let newest = &history["entries"][0];
    assert_eq!(newest["operationKinds"], json!(["setDisplayNodeProps"]));
    assert_eq!(
        newest["changes"][0]["target"]["kind"], "displayNode",
        "{newest}"
    );
    assert!(newest["at"].as_str().unwrap().ends_with('Z'), "{newest}");
    let limited = server
        .ok(HISTORY, json!({ "sessionId": id, "limit": 2 }))
        .await;
    assert_eq!(limited["entries"].as_array().unwrap().len(), 2);
    assert_eq!(limited["truncated"], true);

    let events = server.ok(EVENTS, json!({ "sessionId": id })).await;
    let types: Vec<&str> = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|event| event["kind"].as_str())
        .filter(|kind| kind.starts_with("history."))
        .collect();
    assert_eq!(
        types,
        [
            "history.undone",
            "history.undone",
            "history.redone",
            "history.redone",
            "history.undone"
        ]
    );
}
