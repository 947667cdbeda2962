//! Sessions over a project given as a document (openProjectSession) through the real
//! server: made from a corpus project's state and bytes, read, edited and validated like
//! any session; refused when saved; written into a new directory inside the roots by
//! materializeSession with targetPath, after which it is that project's session and a
//! fresh server reads the same model back.

use std::path::Path;

use base64::Engine as _;
use serde_json::{Value, json};

use crate::harness::*;

const APPLY: &str = "openfairygui_backend_apply_transaction";
const PREFLIGHT: &str = "openfairygui_backend_preflight_transaction";
const VALIDATE: &str = "openfairygui_backend_validate_session";
const SAVE: &str = "openfairygui_backend_save_session";
const MATERIALIZE: &str = "openfairygui_backend_materialize_session";
const EVENTS: &str = "openfairygui_backend_get_events";

/// The project of an open session as readSessionState shows it, with every asset's bytes
/// from readResourceBytes: the document an agent hands to openProjectSession. `as_ints`
/// sends the bytes as integer arrays (upstream's form) instead of base64.
pub async fn document_of(server: &Server, id: &str, as_ints: bool) -> Value {
    let state = server.ok(STATE, json!({ "sessionId": id })).await;
    let mut project = state["project"].clone();
    for package in project["packages"].as_array_mut().unwrap() {
        let package_id = package["id"].clone();
        for resource in package["resources"].as_array_mut().unwrap() {
            if resource["kind"] == "component" {
                continue;
            }
            let read = server
                .ok(
                    BYTES,
                    json!({ "sessionId": id, "expectedRevision": 0, "selector": { "packageId": package_id, "resourceId": resource["id"] } }),
                )
                .await;
            let text = read["sourceBytes"].as_str().unwrap();
            resource["sourceBytes"] = if as_ints {
                json!(
                    base64::engine::general_purpose::STANDARD
                        .decode(text)
                        .unwrap()
                )
            } else {
                json!(text)
            };
        }
    }
    project
}

/// The experiments corpus copied into a fresh workspace, a server over it, and the
/// corpus's document (read through a session that is closed again).
async fn workspace_with_document() -> (Workspace, Server, Value) {
    let workspace = Workspace::new();
    let source = workspace.add("source", &experiments_corpus());
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&source).await;
    let document = document_of(&server, &id, false).await;
    server.ok(CLOSE, json!({ "sessionId": id })).await;
    (workspace, server, document)
}

fn kinds(events: &Value) -> Vec<String> {
    events["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn a_document_session_is_read_edited_and_written_into_a_new_directory() {
    let (workspace, server, document) = workspace_with_document().await;
    let source_outline = {
        let id = server.open(&workspace.path().join("source")).await;
        let outline = server.ok(OUTLINE, json!({ "sessionId": id })).await;
        server.ok(CLOSE, json!({ "sessionId": id })).await;
        outline
    };

    let opened = server
        .ok(
            OPEN_PROJECT,
            json!({ "project": document, "sessionId": "doc-1" }),
        )
        .await;
    assert_eq!(opened["sessionId"], "doc-1");
    assert_eq!(opened["canonicalProjectPath"], "memory://doc-1");
    assert_eq!(
        (
            opened["revision"].clone(),
            opened["lockHeld"].clone(),
            opened["uamFidelity"].clone(),
            opened["dirty"].clone()
        ),
        (json!(0), json!(false), json!("full"), json!(false))
    );
    let id = "doc-1";

    // Read like any session: the same outline as the project on disk.
    let outline = server.ok(OUTLINE, json!({ "sessionId": id })).await;
    assert_eq!(outline["packages"], source_outline["packages"]);
    let node = first_node(&outline);
    let queried = server
        .ok(
            QUERY,
            json!({ "sessionId": id, "target": { "kind": "displayNode", "selector": {
                "packageId": node.0, "componentResourceId": node.1, "displayNodeId": node.2 } } }),
        )
        .await;
    assert_eq!(queried["entity"]["properties"]["id"], node.2.as_str());
    let report = server.ok(VALIDATE, json!({ "sessionId": id })).await;
    assert_eq!(report["status"], "valid", "{report}");
    assert_eq!(report["complete"], true);

    // Edit: the preview says where the edit goes next.
    let preview = server
        .ok(
            PREFLIGHT,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": move_node(&node, 321) }),
        )
        .await;
    assert_eq!(preview["persistence"]["nextAction"], "materializeSession");
    assert_eq!(preview["persistence"]["fileSystemAvailable"], false);
    let applied = server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": move_node(&node, 321) }),
        )
        .await;
    assert_eq!(applied["revision"], 1);

    // No directory: nothing can be saved yet.
    let (refused, _) = server
        .call(SAVE, json!({ "sessionId": id, "expectedRevision": 1 }))
        .await;
    assert_eq!(refused["error"]["code"], "capability_unavailable");
    assert_eq!(refused["error"]["capability"], "fileSystem");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("materializeSession"),
        "{refused}"
    );
    assert_eq!(refused["session"]["revision"], 1);
    let error = server.err(MATERIALIZE, json!({ "sessionId": id })).await;
    assert_eq!(error["code"], "capability_unavailable");

    // Refused targets: outside the roots, a directory holding a project, a stale revision;
    // none leaves anything behind.
    let outside = tempfile::tempdir().unwrap();
    let elsewhere = outside.path().join("new");
    let error = server
        .err(
            MATERIALIZE,
            json!({ "sessionId": id, "targetPath": elsewhere }),
        )
        .await;
    assert_eq!(error["code"], "path_policy_violation");
    assert_eq!(error["policy"], "materialize_target");
    assert!(!elsewhere.exists());
    let before = snapshot(&workspace.path().join("source"));
    let error = server
        .err(
            MATERIALIZE,
            json!({ "sessionId": id, "targetPath": workspace.path().join("source") }),
        )
        .await;
    assert_eq!(error["code"], "path_policy_violation");
    assert_eq!(snapshot(&workspace.path().join("source")), before);
    let nested = workspace.path().join("later/nested");
    let error = server
        .err(
            MATERIALIZE,
            json!({ "sessionId": id, "targetPath": nested, "expectedRevision": 0 }),
        )
        .await;
    assert_eq!(error["code"], "stale_write");
    assert!(!workspace.path().join("later").exists());

    // Written into a new directory: the session is now that project's.
    let target = workspace.path().join("written");
    let written = server
        .ok(
            MATERIALIZE,
            json!({ "sessionId": id, "targetPath": target, "expectedRevision": 1, "reason": "first write" }),
        )
        .await;
    let target = std::fs::canonicalize(&target).unwrap();
    assert_eq!(written["canonicalProjectPath"], target.to_str().unwrap());
    assert_eq!(written["lockHeld"], true);
    assert_eq!(written["dirty"], false);
    assert_eq!(written["lastSavedRevision"], 1);
    assert_eq!(written["reason"], "first write");
    assert!(written.get("writeVerified").is_none(), "{written}");
    let written_paths: Vec<&str> = written["writtenPaths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert!(
        written_paths.contains(&"written.fairy"),
        "{written_paths:?}"
    );
    for path in &written_paths {
        assert!(target.join(path).is_file(), "{path} was not written");
    }
    assert!(
        target
            .parent()
            .unwrap()
            .join(".written.openfairygui.backend.lock")
            .is_file()
    );
    let session = server.ok(GET, json!({ "sessionId": id })).await;
    assert_eq!(session["canonicalProjectPath"], target.to_str().unwrap());
    assert_eq!(session["lockHeld"], true);
    let events = server.ok(EVENTS, json!({ "sessionId": id })).await;
    let kinds = kinds(&events);
    assert_eq!(
        kinds[kinds.len() - 3..],
        ["save.started", "save.completed", "cache.updated"],
        "{kinds:?}"
    );

    // And it saves like a session opened from there.
    server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 1, "operations": move_node(&node, 5) }),
        )
        .await;
    let (saved, additions) = server
        .ok_with_additions(SAVE, json!({ "sessionId": id, "expectedRevision": 2 }))
        .await;
    assert_eq!(
        additions["saved"]["writtenPaths"].as_array().unwrap().len(),
        1,
        "{saved}"
    );
    // Only the opened project may be named now.
    let error = server
        .err(
            MATERIALIZE,
            json!({ "sessionId": id, "targetPath": workspace.path().join("third") }),
        )
        .await;
    assert_eq!(error["code"], "path_policy_violation");
    assert_eq!(error["policy"], "save_target");
    let state = server.ok(STATE, json!({ "sessionId": id })).await;
    server.ok(CLOSE, json!({ "sessionId": id })).await;
    drop(server);

    // A fresh server opens the directory and reads the same model.
    let fresh = Server::start(&[workspace.path()]).await;
    let reopened = fresh.open(&target).await;
    let read_back = fresh.ok(STATE, json!({ "sessionId": reopened })).await;
    assert_eq!(read_back["project"], state["project"]);
    assert_eq!(read_back["readDiagnostics"], json!([]));
    let report = fresh.ok(VALIDATE, json!({ "sessionId": reopened })).await;
    assert_eq!(report["status"], "valid", "{report}");
}

#[tokio::test]
async fn document_sessions_refuse_what_they_cannot_be() {
    let (workspace, server, document) = workspace_with_document().await;

    // The SDK's host object has no MCP form.
    let error = server
        .err(
            OPEN_PROJECT,
            json!({ "project": document, "storage": { "fairyPath": "x.fairy" } }),
        )
        .await;
    assert_eq!(error["code"], "invalid_input");
    assert_eq!(error["path"], "/storage");
    let error = server
        .err(
            OPEN_PROJECT,
            json!({ "project": document, "sessionId": "a/b" }),
        )
        .await;
    assert_eq!(error["path"], "/sessionId");

    // What no project on disk reads as, at its field.
    let mut bent = document.clone();
    bent["packages"][0]["resources"][0]["path"] = json!("no-slash");
    let error = server.err(OPEN_PROJECT, json!({ "project": bent })).await;
    assert_eq!(error["code"], "invalid_input");
    assert_eq!(error["path"], "/project/packages/0/resources/0/path");
    let mut bent = document.clone();
    bent["packages"][0]["resources"][0]["exported"] = json!("yes");
    let error = server.err(OPEN_PROJECT, json!({ "project": bent })).await;
    assert_eq!(error["code"], "invalid_input");
    assert!(
        error["path"]
            .as_str()
            .unwrap()
            .starts_with("/project/packages/0/resources/0"),
        "{error}"
    );

    // The component places a value of the wrong type at its field; the host adds, beside
    // its error, what the schema says there in plain words.
    let mut bent = document.clone();
    bent["settings"] = json!("none");
    let (envelope, is_error) = server.call(OPEN_PROJECT, json!({ "project": bent })).await;
    assert!(is_error);
    let error = &envelope["error"];
    assert_eq!(error["code"], "invalid_input");
    assert_eq!(error["path"], "/project/settings", "{error}");
    let diagnostics = envelope["meta"]["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics[0]["message"], error["message"], "{envelope}");
    let added = diagnostics.last().unwrap();
    assert_eq!(added["path"], "/project/settings", "{envelope}");
    assert!(
        added["message"]
            .as_str()
            .unwrap()
            .contains("must be an object"),
        "{envelope}"
    );

    // Bytes as integer arrays (upstream's form) open the same project.
    let id = server.open(&workspace.path().join("source")).await;
    let as_ints = document_of(&server, &id, true).await;
    let disk_key = server.ok(GET, json!({ "sessionId": id })).await["canonicalProjectPath"].clone();
    let from_ints = server
        .ok(
            OPEN_PROJECT,
            json!({ "project": as_ints, "sessionId": "ints" }),
        )
        .await;
    let outline = server.ok(OUTLINE, json!({ "sessionId": "ints" })).await;
    let disk_outline = server.ok(OUTLINE, json!({ "sessionId": id })).await;
    assert_eq!(outline["packages"], disk_outline["packages"]);
    assert_eq!(from_ints["canonicalProjectPath"], "memory://ints");

    // One session per id and per key.
    let error = server
        .err(
            OPEN_PROJECT,
            json!({ "project": document, "sessionId": "ints" }),
        )
        .await;
    assert_eq!(error["code"], "session_id_conflict");
    assert_eq!(error["sessionId"], "ints");
    let error = server
        .err(
            OPEN_PROJECT,
            json!({ "project": document, "canonicalPathKey": disk_key }),
        )
        .await;
    assert_eq!(error["code"], "lock_conflict");
    assert_eq!(error["kind"], "in_process_session_exists");
    assert_eq!(error["holderSessionId"], id.as_str());
    let named = server
        .ok(
            OPEN_PROJECT,
            json!({ "project": document, "canonicalProjectPath": "game://Hud" }),
        )
        .await;
    assert_eq!(named["canonicalProjectPath"], "game://Hud");
    let error = server
        .err(
            OPEN_PROJECT,
            json!({ "project": document, "canonicalProjectPath": "GAME://hud" }),
        )
        .await;
    assert_eq!(
        error["code"], "lock_conflict",
        "the default key is the lower-cased path"
    );

    // A closed document session is gone like any other.
    server.ok(CLOSE, json!({ "sessionId": "ints" })).await;
    let closed = crate::resources::read_json(&server, "openfairygui://backend/session/ints").await;
    assert_eq!(closed["error"]["code"], "session_not_found");
}

#[tokio::test]
async fn document_sessions_count_against_the_session_limit() {
    let workspace = Workspace::new();
    let source = workspace.add("source", &experiments_corpus());
    let server = Server::start_with(&[workspace.path()], &["--max-sessions", "1"]).await;
    let id = server.open(&source).await;
    let document = document_of(&server, &id, false).await;
    let error = server
        .err(OPEN_PROJECT, json!({ "project": document }))
        .await;
    assert_eq!(error["code"], "session_limit_exceeded");
    assert_eq!(error["maxSessions"], 1);
    server.ok(CLOSE, json!({ "sessionId": id })).await;
    server
        .ok(OPEN_PROJECT, json!({ "project": document }))
        .await;
    assert!(Path::new(&source).is_dir());
}
