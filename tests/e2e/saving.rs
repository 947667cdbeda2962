//! Saving through the real server on corpus copies: the files a preview names are the
//! files a save changes, a fresh server reads back what was saved, a file edited on disk
//! stops the save, and a second server process is kept out by the advisory lock.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::harness::*;

const PREFLIGHT: &str = "openfairygui_backend_preflight_transaction";
const APPLY: &str = "openfairygui_backend_apply_transaction";
const SAVE: &str = "openfairygui_backend_save_session";
const MATERIALIZE: &str = "openfairygui_backend_materialize_session";
const EVENTS: &str = "openfairygui_backend_get_events";

fn changed(before: &BTreeMap<String, Vec<u8>>, after: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    let mut paths: Vec<String> = before
        .keys()
        .chain(after.keys())
        .filter(|path| before.get(*path) != after.get(*path))
        .cloned()
        .collect();
    paths.sort();
    paths.dedup();
    paths
}

/// Joystick's Main (package rbw1tvvv, component iitt1) in the unity corpus.
fn joystick_node(node: &str) -> Value {
    json!({ "packageId": "rbw1tvvv", "componentResourceId": "iitt1", "displayNodeId": node })
}

async fn first_node(server: &Server, id: &str) -> String {
    // The first node of Joystick's Main.xml, `<image id="n7" … xy="179,422">`.
    let properties = server
        .ok(
            QUERY,
            json!({ "sessionId": id, "target": { "kind": "displayNode", "selector": joystick_node("n7") } }),
        )
        .await["entity"]["properties"]
        .clone();
    assert_eq!(properties["position"], json!({ "x": 179, "y": 422 }));
    "n7".to_string()
}

#[tokio::test]
async fn a_previewed_edit_saves_exactly_the_previewed_files_and_a_new_server_reads_it() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;
    let before = snapshot(&project);

    let (idle, additions) = server
        .ok_with_additions(SAVE, json!({ "sessionId": id, "expectedRevision": 0 }))
        .await;
    assert_eq!(idle["dirty"], false);
    assert_eq!(additions["saved"]["writtenPaths"], json!([]));
    assert_eq!(
        snapshot(&project),
        before,
        "a save without edits writes nothing"
    );

    let node = first_node(&server, &id).await;
    let operations = json!([{
        "kind": "setDisplayNodeProps",
        "selector": joystick_node(&node),
        "props": { "position": { "x": 321, "y": 12 } }
    }]);
    let preview = server
        .ok(
            PREFLIGHT,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": operations }),
        )
        .await;
    assert_eq!(preview["persistence"]["nextAction"], "saveSession");
    let previewed: Vec<String> = preview["impact"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect();
    server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": operations }),
        )
        .await;
    let (saved, additions) = server
        .ok_with_additions(SAVE, json!({ "sessionId": id, "expectedRevision": 1 }))
        .await;
    assert_eq!(saved["dirty"], false);
    assert_eq!(saved["lastSavedRevision"], 1);
    assert_eq!(additions["saved"]["writeVerified"], true);
    assert_eq!(saved["lockHeld"], true);
    let after = snapshot(&project);
    assert_eq!(changed(&before, &after), previewed);
    assert_eq!(additions["saved"]["writtenPaths"], json!(previewed));
    assert_eq!(previewed.len(), 1);

    let events = server.ok(EVENTS, json!({ "sessionId": id })).await;
    let kinds: Vec<&str> = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            e["type"]
                .as_str()
                .or(e["kind"].as_str())
                .unwrap_or_default()
        })
        .collect();
    assert!(
        kinds.contains(&"save.started") && kinds.contains(&"save.completed"),
        "{kinds:?}"
    );

    server.ok(CLOSE, json!({ "sessionId": id })).await;
    drop(server);
    let fresh = Server::start(&[workspace.path()]).await;
    let id = fresh.open(&project).await;
    let properties = fresh
        .ok(
            QUERY,
            json!({ "sessionId": id, "target": { "kind": "displayNode", "selector": joystick_node(&node) } }),
        )
        .await["entity"]["properties"]
        .clone();
    assert_eq!(properties["position"], json!({ "x": 321, "y": 12 }));
}

#[tokio::test]
async fn a_file_edited_on_disk_stops_the_save_and_names_it() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;
    let node = first_node(&server, &id).await;
    server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": [{
                "kind": "setDisplayNodeProps",
                "selector": joystick_node(&node),
                "props": { "position": { "x": 1, "y": 2 } }
            }] }),
        )
        .await;
    let main = project.join("assets/Joystick/Main.xml");
    let mut edited = std::fs::read(&main).unwrap();
    edited.extend_from_slice(b"<!-- saved by the editor -->\n");
    std::fs::write(&main, &edited).unwrap();
    let before = snapshot(&project);

    let error = server
        .err(SAVE, json!({ "sessionId": id, "expectedRevision": 1 }))
        .await;
    assert_eq!(error["code"], "save_partial_failure");
    assert_eq!(error["reason"], "changed_on_disk");
    assert_eq!(error["failedPaths"], json!(["assets/Joystick/Main.xml"]));
    assert_eq!(error["diskMayBePartiallyUpdated"], false);
    assert_eq!(error["conflicts"][0]["kind"], "changed");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("assets/Joystick/Main.xml") && message.contains("materializeSession"),
        "{message}"
    );
    assert_eq!(snapshot(&project), before, "nothing was written");
    let session = server.ok(GET, json!({ "sessionId": id })).await;
    assert_eq!(session["dirty"], true, "the edits stay in the session");

    let elsewhere = server
        .err(
            SAVE,
            json!({ "sessionId": id, "targetPath": workspace.path().join("other") }),
        )
        .await;
    assert_eq!(elsewhere["code"], "path_policy_violation");

    let (closed, is_error) = server.call(CLOSE, json!({ "sessionId": id })).await;
    assert!(!is_error);
    let warnings = closed["meta"]["warnings"].as_array().unwrap();
    assert_eq!(warnings[0]["code"], "unsaved_edits_discarded", "{closed}");
}

/// A second server reads a project the first is editing but cannot change it: it opens
/// without the lock, says so in a warning, answers reads and refuses writers with
/// `lock_conflict`; a dead holder's lock is taken over.
#[tokio::test]
async fn a_second_server_reads_beside_the_lock_holder_and_a_dead_holders_lock_is_taken_over() {
    let workspace = Workspace::new();
    let project = workspace.add("experiments", &experiments_corpus());
    let lock = project
        .parent()
        .unwrap()
        .join(".experiments.openfairygui.backend.lock");
    let first = Server::start(&[workspace.path()]).await;
    let id = first.open(&project).await;
    assert!(lock.exists());
    let second = Server::start(&[workspace.path()]).await;
    let (opened, is_error) = second.call(OPEN, json!({ "projectPath": project })).await;
    assert!(!is_error, "{opened}");
    assert_eq!(opened["data"]["lockHeld"], false, "{opened}");
    let warnings = opened["meta"]["warnings"].as_array().unwrap();
    assert_eq!(warnings[0]["code"], "project_locked_elsewhere", "{opened}");
    let reader = opened["data"]["sessionId"].as_str().unwrap().to_string();
    second
        .ok(
            "openfairygui_backend_validate_session",
            json!({ "sessionId": reader }),
        )
        .await;
    second
        .ok(
            "openfairygui_backend_get_project_outline",
            json!({ "sessionId": reader }),
        )
        .await;
    // Branch's face.png, exported: an edit the writer may make.
    let edit = json!([{
        "kind": "setResourceExported",
        "selector": { "packageId": "a9lkf94s", "resourceId": "kn7w1" },
        "exported": false
    }]);
    first
        .ok(
            PREFLIGHT,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": edit }),
        )
        .await;
    let error = second
        .err(
            APPLY,
            json!({ "sessionId": reader, "expectedRevision": 0, "operations": edit }),
        )
        .await;
    assert_eq!(error["code"], "lock_conflict", "{error}");
    assert_eq!(error["kind"], "advisory_lock_conflict");
    let error = second
        .err(SAVE, json!({ "sessionId": reader, "expectedRevision": 0 }))
        .await;
    assert_eq!(error["code"], "lock_conflict", "{error}");
    second.ok(CLOSE, json!({ "sessionId": reader })).await;
    assert!(lock.exists(), "the reader leaves the writer's lock alone");
    first.ok(CLOSE, json!({ "sessionId": id })).await;
    assert!(!lock.exists(), "closing releases the lock");

    // A server killed while holding the lock leaves its file; its process is gone.
    std::fs::write(
        &lock,
        r#"{"pid":2147483646,"sessionId":"gone","canonicalPathKey":"k","createdAt":"x"}"#,
    )
    .unwrap();
    let id = second.open(&project).await;
    let session = second.ok(GET, json!({ "sessionId": id })).await;
    assert_eq!(session["lockHeld"], true);
}

#[tokio::test]
async fn materialize_writes_the_canonical_layout_and_reads_back() {
    let workspace = Workspace::new();
    let project = workspace.add("example", &example_project());
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;
    // The bundled example validates, so it materializes.
    let (data, additions) = server
        .ok_with_additions(MATERIALIZE, json!({ "sessionId": id, "reason": "test" }))
        .await;
    assert_eq!(data["mode"], "fullProject");
    assert_eq!(data["reason"], "test");
    assert_eq!(additions["saved"]["writeVerified"], true);
    assert_eq!(data["writtenPaths"], additions["saved"]["writtenPaths"]);
    let again = server.ok(MATERIALIZE, json!({ "sessionId": id })).await;
    assert_eq!(
        again["writtenPaths"],
        json!([]),
        "the second pass finds every file canonical"
    );
    // saveSession with force is upstream's way to ask for the same rewrite.
    let forced = server
        .ok(SAVE, json!({ "sessionId": id, "force": true }))
        .await;
    assert_eq!(forced["mode"], "fullProject");
    assert_eq!(forced["reason"], "force_save");
}

/// A button's title (and its selected title) changed with one short operation saves as
/// the editor writes it: only the `<Button>` element's attributes change.
#[tokio::test]
async fn a_buttons_title_changes_with_the_text_shortcut_and_saves_as_the_editor_writes_it() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;
    let before = snapshot(&project);
    // VirtualList's Main: `<component id="n7" … src="rpolb"><Button title="Top"/>`.
    let selector =
        json!({ "packageId": "qkteqwfp", "componentResourceId": "c8s20", "displayNodeId": "n7" });
    let operations = json!([
        { "kind": "setDisplayNodeProps", "selector": selector, "props": { "text": "First" } },
        {
            "kind": "setDisplayNodeProps",
            "selector": selector,
            "props": { "componentInstanceProperties": { "selectedTitle": "On top" } }
        }
    ]);
    server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": operations }),
        )
        .await;
    server
        .ok(SAVE, json!({ "sessionId": id, "expectedRevision": 1 }))
        .await;
    let after = snapshot(&project);
    let path = "assets/VirtualList/Main.xml";
    assert_eq!(changed(&before, &after), vec![path.to_string()]);
    let old = String::from_utf8(before[path].clone()).unwrap();
    let new = String::from_utf8(after[path].clone()).unwrap();
    assert_eq!(
        new,
        old.replace(
            r#"<Button title="Top"/>"#,
            r#"<Button title="First" selectedTitle="On top"/>"#
        )
    );
}

/// A project committed from Windows and checked out on Linux: the package folder
/// `assets/Bag/` split in two by letter case (`assets/bag/` holds a component and some
/// images). It reads as one package, says so once naming both folders (not a false
/// "rename package.xml"), and a mixed batch saves, each file written where it is.
#[tokio::test]
async fn a_package_folder_split_by_letter_case_reads_as_one_and_saves() {
    let workspace = Workspace::new();
    let project = workspace.add("split", &unity_corpus());
    let (upper, lower) = (project.join("assets/Bag"), project.join("assets/bag"));
    std::fs::create_dir_all(lower.join("images")).unwrap();
    std::fs::rename(upper.join("BagWin.xml"), lower.join("BagWin.xml")).unwrap();
    for image in ["0.png", "1.png", "quan.jta"] {
        std::fs::rename(
            upper.join("images").join(image),
            lower.join("images").join(image),
        )
        .unwrap();
    }
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;
    let report = server
        .ok(
            "openfairygui_backend_validate_session",
            json!({ "sessionId": id }),
        )
        .await;
    let text = report.to_string();
    assert!(!text.contains("rename it to package.xml"), "{text}");
    let split: Vec<&Value> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| {
            d["message"]
                .as_str()
                .unwrap_or_default()
                .starts_with("assets/bag and assets/Bag are one package folder")
        })
        .collect();
    assert_eq!(split.len(), 1, "{text}");
    assert_eq!(split[0]["severity"], "warning");

    let before = snapshot(&project);
    let png = base64::Engine::encode(
        &base64::engine::general_purpose::STANDARD,
        &before["assets/Bag/images/2.png"],
    );
    let package = json!({ "packageId": "rbw1tv9t" });
    let operations = json!([
        {
            "kind": "setDisplayNodeProps",
            "selector": { "packageId": "rbw1tv9t", "componentResourceId": "kcy10", "displayNodeId": "n7" },
            "props": { "text": "My bag" }
        },
        { "kind": "setResourceExported", "selector": { "packageId": "rbw1tv9t", "resourceId": "dwwc5" }, "exported": true },
        { "kind": "addResourceFolder", "selector": package, "path": "/images/sub/" },
        { "kind": "moveResource", "selector": { "packageId": "rbw1tv9t", "resourceId": "jlmg8" }, "toPath": "/images/sub/" },
        { "kind": "addResource", "selector": package, "resource": { "kind": "image", "fileName": "new.png", "path": "/images/", "sourceBytes": png } },
        { "kind": "setResourceFolderFavorite", "selector": { "packageId": "rbw1tv9t", "branch": "", "path": "/images/" }, "favorite": true }
    ]);
    server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": operations }),
        )
        .await;
    let (_, additions) = server
        .ok_with_additions(SAVE, json!({ "sessionId": id, "expectedRevision": 1 }))
        .await;
    assert_eq!(additions["saved"]["writeVerified"], true);
    let after = snapshot(&project);
    let changed = changed(&before, &after);
    // The component where it was; the moved image out of the lower-case folder.
    assert!(
        changed.contains(&"assets/bag/BagWin.xml".to_string()),
        "{changed:?}"
    );
    assert!(
        changed.contains(&"assets/Bag/package.xml".to_string()),
        "{changed:?}"
    );
    assert!(
        !after.contains_key("assets/bag/images/1.png"),
        "{changed:?}"
    );
    assert!(
        after.contains_key("assets/Bag/images/sub/1.png"),
        "{changed:?}"
    );
    assert!(!after.contains_key("assets/Bag/BagWin.xml"), "{changed:?}");

    // A fresh server reads what was saved.
    server.ok(CLOSE, json!({ "sessionId": id })).await;
    let id = server.open(&project).await;
    let node = server
        .ok(
            QUERY,
            json!({ "sessionId": id, "target": { "kind": "displayNode", "selector": { "packageId": "rbw1tv9t", "componentResourceId": "kcy10", "displayNodeId": "n7" } } }),
        )
        .await;
    assert_eq!(
        node["entity"]["properties"]["instanceProperties"]["title"], "My bag",
        "{node}"
    );
}
