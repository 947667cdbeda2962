//! Runaway calls through the real server: a save that computes forever, one that
//! allocates without bound and one stuck waiting on the host are stopped at the call
//! deadline or the memory cap and answered with `backend_unhandled_error` and its reason;
//! the project on disk is as before, the session is restored with its unsaved edit, and
//! another session is served all the while.
//!
//! The backend's test-only fault hook (`OFGUI_SAVE_FAULT=<step>:<n>:<action>`) starts the
//! runaway at a chosen step of the save; the host arms only the first instance it starts
//! (the first session opened), so the restored session runs clean.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::*;

const APPLY: &str = "openfairygui_backend_apply_transaction";
const SAVE: &str = "openfairygui_backend_save_session";

/// The title text node of the bundled example's view.
fn title_node() -> Value {
    json!({ "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n1_view" })
}

const EDITED_TITLE: &str = "Edited before the runaway";

async fn title(server: &Server, id: &str) -> Value {
    server
        .ok(
            QUERY,
            json!({ "sessionId": id, "target": { "kind": "displayNode", "selector": title_node() } }),
        )
        .await["entity"]["properties"]["text"]
        .clone()
}

/// What one runaway save did, and what the other session saw meanwhile.
struct Runaway {
    /// The project's files just before the save.
    before: BTreeMap<String, Vec<u8>>,
    error: Value,
    elapsed: Duration,
    other_calls: usize,
    slowest_other_call: Duration,
}

/// Opens the bundled example (the first session: the one the fault is armed in; small, so
/// the answer time is mostly the runaway) and a unity copy, retitles the example's view,
/// then saves the example while the unity session is read in a loop until the save
/// answers.
async fn runaway_save(server: &Server, workspace: &Workspace) -> (String, PathBuf, Runaway) {
    let project = workspace.add("example", &example_project());
    let unity = workspace.add("unity", &unity_corpus());
    let id = server.open(&project).await;
    let other = server.open(&unity).await;
    server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": [{
                "kind": "setDisplayNodeProps",
                "selector": title_node(),
                "props": { "text": EDITED_TITLE }
            }] }),
        )
        .await;

    let before = snapshot(&project);
    let done = AtomicBool::new(false);
    let started = Instant::now();
    let save = async {
        let error = server
            .err(SAVE, json!({ "sessionId": id, "expectedRevision": 1 }))
            .await;
        let elapsed = started.elapsed();
        done.store(true, Ordering::SeqCst);
        (error, elapsed)
    };
    let reads = async {
        let (mut calls, mut slowest) = (0, Duration::ZERO);
        while !done.load(Ordering::SeqCst) {
            let call = Instant::now();
            server
                .ok(OUTLINE, json!({ "sessionId": other, "detail": "packages" }))
                .await;
            slowest = slowest.max(call.elapsed());
            calls += 1;
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        (calls, slowest)
    };
    let ((error, elapsed), (other_calls, slowest_other_call)) = tokio::join!(save, reads);
    (
        id,
        project,
        Runaway {
            before,
            error,
            elapsed,
            other_calls,
            slowest_other_call,
        },
    )
}

/// The save failed with `reason`, nothing on disk changed, the edit survived in the
/// restored session, the other session was served, and the server answers on.
async fn assert_contained(
    server: &Server,
    id: &str,
    runaway: &Runaway,
    reason: &str,
    project: &Path,
) {
    assert_eq!(runaway.error["code"], "backend_unhandled_error");
    assert_eq!(runaway.error["reason"], reason, "{}", runaway.error);
    let message = runaway.error["message"].as_str().unwrap();
    assert!(
        message.contains("changed nothing") && message.contains("revision 1"),
        "{message}"
    );
    assert!(
        runaway.other_calls >= 1,
        "the other session was not served while the save ran away"
    );
    assert_eq!(
        snapshot(project),
        runaway.before,
        "the project on disk changed"
    );
    let session = server.ok(GET, json!({ "sessionId": id })).await;
    assert_eq!(session["revision"], 1, "{session}");
    assert_eq!(session["dirty"], true, "{session}");
    assert_eq!(title(server, id).await, EDITED_TITLE);
    server.ok(CAPABILITIES, json!({})).await;
}

#[tokio::test]
async fn a_save_computing_forever_is_stopped_at_the_deadline() {
    let workspace = Workspace::new();
    let server = Server::start_with_env(
        &[workspace.path()],
        &["--call-deadline-secs", "2"],
        &[("OFGUI_SAVE_FAULT", "prepare-journal:spin")],
    )
    .await;
    let (id, project, runaway) = runaway_save(&server, &workspace).await;
    eprintln!(
        "spin: answered {:?} after the save started (deadline 2 s); the other session answered {} calls meanwhile, the slowest in {:?}",
        runaway.elapsed, runaway.other_calls, runaway.slowest_other_call
    );
    // Never early; the upper bound only proves the call was stopped, not its precision
    // (measured by the line above).
    assert!(
        runaway.elapsed >= Duration::from_secs(2),
        "{runaway:?}",
        runaway = runaway.elapsed
    );
    assert!(runaway.elapsed < Duration::from_secs(30));
    assert_contained(&server, &id, &runaway, "deadline", &project).await;

    // The restored session saves normally.
    let (saved, additions) = server
        .ok_with_additions(SAVE, json!({ "sessionId": id, "expectedRevision": 1 }))
        .await;
    assert_eq!(
        additions["saved"]["writtenPaths"].as_array().map(Vec::len),
        Some(1),
        "{saved}"
    );
}

#[tokio::test]
async fn a_save_allocating_without_bound_is_stopped_at_the_memory_cap() {
    let workspace = Workspace::new();
    let server = Server::start_with_env(
        &[workspace.path()],
        &["--memory-limit-mib", "256"],
        &[("OFGUI_SAVE_FAULT", "prepare-journal:alloc")],
    )
    .await;
    let (id, project, runaway) = runaway_save(&server, &workspace).await;
    eprintln!(
        "alloc: answered {:?} after the save started (cap 256 MiB); the other session answered {} calls meanwhile",
        runaway.elapsed, runaway.other_calls
    );
    assert_contained(&server, &id, &runaway, "out_of_memory", &project).await;
    assert!(
        runaway.error["message"]
            .as_str()
            .unwrap()
            .contains("256 MiB"),
        "{}",
        runaway.error
    );
}

#[tokio::test]
async fn a_save_stuck_waiting_on_the_host_is_dropped_at_the_deadline() {
    let workspace = Workspace::new();
    let server = Server::start_with_env(
        &[workspace.path()],
        &["--call-deadline-secs", "1"],
        &[("OFGUI_SAVE_FAULT", "prepare-journal:hang")],
    )
    .await;
    let (id, project, runaway) = runaway_save(&server, &workspace).await;
    eprintln!(
        "hang: answered {:?} after the save started (deadline 1 s)",
        runaway.elapsed
    );
    assert!(runaway.elapsed >= Duration::from_secs(1));
    assert!(runaway.elapsed < Duration::from_secs(30));
    assert_contained(&server, &id, &runaway, "deadline", &project).await;
}

#[tokio::test]
async fn a_save_stopped_past_its_commit_point_is_completed_by_the_restore() {
    let workspace = Workspace::new();
    let server = Server::start_with_env(
        &[workspace.path()],
        &["--call-deadline-secs", "1"],
        &[("OFGUI_SAVE_FAULT", "apply:1:spin")],
    )
    .await;
    let (id, project, runaway) = runaway_save(&server, &workspace).await;
    assert_eq!(runaway.error["reason"], "deadline");
    let message = runaway.error["message"].as_str().unwrap();
    assert!(message.contains("was completed"), "{message}");
    let session = server.ok(GET, json!({ "sessionId": id })).await;
    assert_eq!(session["revision"], 1, "{session}");
    assert_eq!(session["lastSavedRevision"], 1, "{session}");
    assert_eq!(session["dirty"], false, "{session}");
    assert_eq!(title(&server, &id).await, EDITED_TITLE);

    // A fresh server reads the completed save, and nothing of the save is left behind.
    let after = snapshot(&project);
    assert!(
        after.keys().all(|path| !path.contains("ofgui-save")),
        "{:?}",
        after
            .keys()
            .filter(|path| path.contains("ofgui"))
            .collect::<Vec<_>>()
    );
    server.ok(CLOSE, json!({ "sessionId": id })).await;
    let fresh = Server::start(&[workspace.path()]).await;
    let reopened = fresh.open(&project).await;
    assert_eq!(title(&fresh, &reopened).await, EDITED_TITLE);
}
