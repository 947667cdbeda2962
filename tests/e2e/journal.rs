//! Unsaved work survives the process: a server killed (SIGKILL) after 1, 5 and 50 edits
//! leaves them in the project's journal, and the next server's open lists them and, when
//! asked, recovers them; the save then writes what the uninterrupted session's does. The
//! same with a file changed on disk while no server ran.

use std::path::Path;

use serde_json::{Value, json};

use crate::crash::RawServer;
use crate::harness::*;

const JOYSTICK: &str = "rbw1tvvv";
const APPLY: &str = "openfairygui_backend_apply_transaction";
const SAVE: &str = "openfairygui_backend_save_session";

fn nudge(step: u64) -> Value {
    json!([{ "kind": "setDisplayNodeProps",
        "selector": { "packageId": JOYSTICK, "componentResourceId": "iitt1", "displayNodeId": "n7" },
        "props": { "position": { "x": step, "y": 100 + step } } }])
}

/// Opens the project and makes `edits` edits: that many applies, then (from 5 on) an
/// undo and a redo. Gives the server, the session id and the revision reached.
fn edit(root: &Path, project: &Path, edits: u64) -> (RawServer, Value, u64) {
    let mut server = RawServer::start_env(root, &[]);
    let id = server.call(OPEN, json!({ "projectPath": project }))["sessionId"].clone();
    for step in 0..edits {
        let at = json!({ "sessionId": id, "expectedRevision": step, "operations": nudge(step) });
        server.call(APPLY, at);
    }
    let mut revision = edits;
    if edits >= 5 {
        for tool in ["openfairygui_undo", "openfairygui_redo"] {
            server.call(
                tool,
                json!({ "sessionId": id, "expectedRevision": revision }),
            );
            revision += 1;
        }
    }
    (server, id, revision)
}

fn additions(response: &Value) -> &Value {
    &response["result"]["_meta"]["ofgui/additions"]
}

/// The open's one warning about unsaved edits (code and message), as a caller reads it.
fn unsaved_warning(response: &Value) -> (String, String) {
    let warnings = response["result"]["structuredContent"]["backendResult"]["meta"]["warnings"]
        .as_array()
        .unwrap_or_else(|| panic!("no warnings: {response}"));
    let found: Vec<&Value> = warnings
        .iter()
        .filter(|w| {
            w["code"]
                .as_str()
                .unwrap_or_default()
                .starts_with("unsaved_edits_")
        })
        .collect();
    assert_eq!(found.len(), 1, "{warnings:?}");
    (
        found[0]["code"].as_str().unwrap().to_string(),
        found[0]["message"].as_str().unwrap().to_string(),
    )
}

fn open_with(server: &mut RawServer, project: &Path, choice: Option<&str>) -> Value {
    let mut arguments = json!({ "projectPath": project });
    if let Some(choice) = choice {
        arguments["unsavedEdits"] = json!(choice);
    }
    server.request(
        "tools/call",
        json!({ "name": OPEN, "arguments": arguments }),
    )
}

/// Outside edits as the editor would make them while no server ran: another package's
/// component gets a new attribute value.
fn edit_outside(project: &Path) -> String {
    let path = "assets/Basics/Main.xml";
    let file = project.join(path);
    let text = std::fs::read_to_string(&file).unwrap();
    let changed = text.replacen("size=\"", "size=\"1", 1);
    assert_ne!(changed, text);
    std::fs::write(&file, changed).unwrap();
    path.to_string()
}

fn killed_and_recovered(edits: u64, outside: bool) {
    let workspace = Workspace::new();
    let reference = workspace.add("reference", &unity_corpus());
    let project = workspace.add("project", &unity_corpus());

    // The uninterrupted session, saved.
    let (mut server, id, revision) = edit(workspace.path(), &reference, edits);
    // The outside change touches a file the edits do not, so the save keeps it.
    let changed_outside = outside.then(|| edit_outside(&reference));
    server.call(
        SAVE,
        json!({ "sessionId": id, "expectedRevision": revision }),
    );
    drop(server);

    // The same edits, and the server killed without a save.
    let (server, _, _) = edit(workspace.path(), &project, edits);
    kill(server);
    if outside {
        edit_outside(&project);
    }

    let mut server = RawServer::start_env(workspace.path(), &[]);
    let response = open_with(&mut server, &project, None);
    let pending = &additions(&response)["unsavedEdits"];
    let journaled = if edits >= 5 { edits + 2 } else { edits };
    assert_eq!(pending["status"], "pending", "{response}");
    assert_eq!(pending["edits"], journaled, "{pending}");
    assert_eq!(
        (
            pending["fromRevision"].clone(),
            pending["toRevision"].clone()
        ),
        (json!(0), json!(revision))
    );
    assert!(
        pending["lastEditAt"].as_str().unwrap().ends_with('Z'),
        "{pending}"
    );
    match &changed_outside {
        Some(path) => assert_eq!(pending["changedOnDisk"], json!([path]), "{pending}"),
        None => assert_eq!(pending["changedOnDisk"], json!([]), "{pending}"),
    }
    // Said where warnings are read, with what to do.
    let (code, message) = unsaved_warning(&response);
    assert_eq!(code, "unsaved_edits_pending");
    assert!(
        message.contains(&format!("{journaled} unsaved edit"))
            && message.contains(r#"unsavedEdits "recover""#),
        "{message}"
    );
    assert_eq!(message.contains("changed on disk"), outside, "{message}");
    let id = response["result"]["structuredContent"]["backendResult"]["data"]["sessionId"].clone();
    assert_eq!(
        response["result"]["structuredContent"]["backendResult"]["data"]["revision"],
        0
    );
    // Nothing is recovered or discarded without being asked: closing keeps the journal.
    server.call(CLOSE, json!({ "sessionId": id }));

    let response = open_with(&mut server, &project, Some("recover"));
    let recovered = &additions(&response)["unsavedEdits"];
    assert_eq!(recovered["status"], "recovered", "{response}");
    assert_eq!(recovered["recovered"], journaled, "{recovered}");
    assert!(recovered.get("refused").is_none(), "{recovered}");
    let (code, message) = unsaved_warning(&response);
    assert_eq!(code, "unsaved_edits_recovered");
    assert!(
        message.contains(&format!("{journaled} recovered and applied"))
            && message.contains("saveSession"),
        "{message}"
    );
    let data = &response["result"]["structuredContent"]["backendResult"]["data"];
    assert_eq!(
        (data["revision"].clone(), data["dirty"].clone()),
        (json!(revision), json!(true))
    );
    let id = data["sessionId"].clone();
    server.call(
        SAVE,
        json!({ "sessionId": id, "expectedRevision": revision }),
    );
    assert_eq!(
        snapshot(&project),
        snapshot(&reference),
        "the recovered session saves what the uninterrupted one did"
    );
    let journal = workspace
        .path()
        .join(".project.openfairygui.backend.journal");
    assert!(!journal.exists(), "a save removes the journal");
}

#[test]
fn one_edit_survives_a_kill() {
    killed_and_recovered(1, false);
}

#[test]
fn five_edits_with_an_undo_and_a_redo_survive_a_kill() {
    killed_and_recovered(5, false);
}

#[test]
fn fifty_edits_survive_a_kill() {
    killed_and_recovered(50, false);
}

#[test]
fn edits_survive_a_kill_and_an_outside_change_made_meanwhile() {
    killed_and_recovered(5, true);
}

#[test]
fn discarded_edits_are_gone_and_a_refused_one_is_reported() {
    let workspace = Workspace::new();
    let project = workspace.add("project", &unity_corpus());
    let before = snapshot(&project);
    let (server, _, _) = edit(workspace.path(), &project, 2);
    kill(server);
    // Outside, the component the edits move a node in loses that node's file.
    std::fs::remove_file(project.join("assets/Joystick/Main.xml")).unwrap();

    let mut server = RawServer::start_env(workspace.path(), &[]);
    let response = open_with(&mut server, &project, Some("recover"));
    let report = &additions(&response)["unsavedEdits"];
    assert_eq!(report["recovered"], 0, "{report}");
    let refused = &report["refused"];
    assert_eq!(
        (refused["revision"].clone(), refused["action"].clone()),
        (json!(0), json!("apply")),
        "{report}"
    );
    assert_eq!(refused["opIndex"], 0, "{report}");
    let (code, message) = unsaved_warning(&response);
    assert_eq!(code, "unsaved_edits_recovered");
    assert!(
        message.contains("0 recovered") && message.contains("revision 0 was refused"),
        "{message}"
    );
    let id = response["result"]["structuredContent"]["backendResult"]["data"]["sessionId"].clone();
    server.call(CLOSE, json!({ "sessionId": id }));

    std::fs::write(
        project.join("assets/Joystick/Main.xml"),
        &before["assets/Joystick/Main.xml"],
    )
    .unwrap();
    let (server, _, _) = edit(workspace.path(), &project, 2);
    kill(server);
    let mut server = RawServer::start_env(workspace.path(), &[]);
    let response = open_with(&mut server, &project, Some("discard"));
    assert_eq!(
        additions(&response)["unsavedEdits"]["status"],
        "discarded",
        "{response}"
    );
    assert_eq!(unsaved_warning(&response).0, "unsaved_edits_discarded");
    let id = response["result"]["structuredContent"]["backendResult"]["data"]["sessionId"].clone();
    server.call(CLOSE, json!({ "sessionId": id }));
    let response = open_with(&mut server, &project, None);
    assert!(
        additions(&response).get("unsavedEdits").is_none(),
        "{response}"
    );
    assert_eq!(snapshot(&project), before);
}

/// A server of the projects in `root` that keeps its locks, journals and records in `state`.
fn with_state(root: &Path, state: &Path) -> RawServer {
    RawServer::start_args(root, &["--state-dir", state.to_str().unwrap()])
}

/// Kills a server as a crash would (SIGKILL), and waits for it.
fn kill(mut server: RawServer) {
    server.child.kill().unwrap();
    server.child.wait().unwrap();
}

/// The files of this tool's kind (`lock`, `journal`) in `dir`.
fn ours(dir: &Path, kind: &str) -> Vec<String> {
    let suffix = format!(".openfairygui.backend.{kind}");
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(&suffix))
        .collect()
}

/// With `--state-dir` a project's lock and journal are kept there, not beside it (for a
/// project whose parent cannot be written); unsaved edits survive a kill all the same.
#[test]
fn with_a_state_dir_the_lock_and_journal_live_there_and_edits_survive_a_kill() {
    let workspace = Workspace::new();
    let project = workspace.add("project", &unity_corpus());
    let state = workspace.path().join("state");
    let mut server = with_state(workspace.path(), &state);
    let id = server.call(OPEN, json!({ "projectPath": project }))["sessionId"].clone();
    let opened = server.call(GET, json!({ "sessionId": id }));
    assert_eq!(opened["lockHeld"], true, "{opened}");
    for step in 0..2 {
        let at = json!({ "sessionId": id, "expectedRevision": step, "operations": nudge(step) });
        server.call(APPLY, at);
    }
    assert_eq!(ours(&state, "lock").len(), 1);
    assert_eq!(ours(&state, "journal").len(), 1);
    for kind in ["lock", "journal"] {
        assert!(
            ours(workspace.path(), kind).is_empty(),
            "a {kind} beside the project"
        );
    }
    kill(server);

    // The next server, given the same state directory, takes the dead one's lock over and
    // recovers its edits; one given none sees no journal.
    let mut elsewhere = RawServer::start_env(workspace.path(), &[]);
    let response = open_with(&mut elsewhere, &project, None);
    assert!(
        additions(&response).get("unsavedEdits").is_none(),
        "{response}"
    );
    drop(elsewhere);
    let mut server = with_state(workspace.path(), &state);
    let response = open_with(&mut server, &project, Some("recover"));
    let recovered = &additions(&response)["unsavedEdits"];
    assert_eq!(recovered["recovered"], 2, "{response}");
    let data = &response["result"]["structuredContent"]["backendResult"]["data"];
    assert_eq!(
        (data["revision"].clone(), data["lockHeld"].clone()),
        (json!(2), json!(true))
    );
    let id = data["sessionId"].clone();
    server.call(SAVE, json!({ "sessionId": id, "expectedRevision": 2 }));
    assert!(
        ours(&state, "journal").is_empty(),
        "a save removes the journal"
    );
    server.call(CLOSE, json!({ "sessionId": id }));
    // A state directory's lock file stays, emptied: removing a file others may be
    // locking would let two of them hold it.
    let locks = ours(&state, "lock");
    assert_eq!(locks.len(), 1);
    assert_eq!(
        std::fs::read(state.join(&locks[0])).unwrap(),
        b"",
        "closing empties the lock file"
    );
    let file = std::fs::File::open(state.join(&locks[0])).unwrap();
    assert!(file.try_lock().is_ok(), "closing releases the lock");
}

/// With `--state-dir`, a session a killed server had open is served again by its id by
/// the next server: at its revision, with every edit that was answered, dirty or not as
/// it was; its save writes what an uninterrupted session's does. A closed session is not.
#[test]
fn with_a_state_dir_a_killed_servers_sessions_answer_by_their_ids() {
    let workspace = Workspace::new();
    let reference = workspace.add("reference", &unity_corpus());
    let project = workspace.add("project", &unity_corpus());
    let state = workspace.path().join("state");
    let start = || with_state(workspace.path(), &state);

    // The uninterrupted session: three edits, saved.
    let (mut server, id, _) = edit(workspace.path(), &reference, 3);
    server.call(SAVE, json!({ "sessionId": id, "expectedRevision": 3 }));
    drop(server);

    // Two edits, the server killed; the next one answers for the session by its id.
    let mut server = start();
    let id = server.call(OPEN, json!({ "projectPath": project }))["sessionId"].clone();
    for step in 0..2 {
        let at = json!({ "sessionId": id, "expectedRevision": step, "operations": nudge(step) });
        server.call(APPLY, at);
    }
    kill(server);
    let mut server = start();
    let resumed = server.call(GET, json!({ "sessionId": id }));
    assert_eq!(resumed["sessionId"], id);
    assert_eq!(
        (resumed["revision"].clone(), resumed["dirty"].clone()),
        (json!(2), json!(true))
    );
    assert_eq!(resumed["lockHeld"], true, "{resumed}");
    let at = json!({ "sessionId": id, "expectedRevision": 2, "operations": nudge(2) });
    server.call(APPLY, at);
    server.call(SAVE, json!({ "sessionId": id, "expectedRevision": 3 }));
    assert_eq!(snapshot(&project), snapshot(&reference));

    // Killed again after the save: the session comes back clean at the saved revision.
    kill(server);
    let mut server = start();
    let resumed = server.call(GET, json!({ "sessionId": id }));
    assert_eq!(
        (resumed["revision"].clone(), resumed["dirty"].clone()),
        (json!(3), json!(false))
    );

    // Closed, it is gone for good.
    server.call(CLOSE, json!({ "sessionId": id }));
    kill(server);
    let mut server = start();
    let response = server.request(
        "tools/call",
        json!({ "name": GET, "arguments": { "sessionId": id } }),
    );
    let error = &response["result"]["structuredContent"]["backendResult"]["error"];
    assert_eq!(error["code"], "session_not_found", "{response}");
}

/// Two servers sharing a state directory: a session is served by the one that holds its
/// project's lock (the other says so, and serves nothing stale); when that one dies, the
/// other takes the session over by its id with every acknowledged edit.
#[test]
fn a_second_server_takes_a_session_over_only_when_its_holder_died() {
    let workspace = Workspace::new();
    let project = workspace.add("project", &unity_corpus());
    let state = workspace.path().join("state");
    let start = || with_state(workspace.path(), &state);
    let mut holder = start();
    let mut other = start();
    let id = holder.call(OPEN, json!({ "projectPath": project }))["sessionId"].clone();
    for step in 0..2 {
        let at = json!({ "sessionId": id, "expectedRevision": step, "operations": nudge(step) });
        holder.call(APPLY, at);
    }
    let response = other.request(
        "tools/call",
        json!({ "name": GET, "arguments": { "sessionId": id } }),
    );
    let error = &response["result"]["structuredContent"]["backendResult"]["error"];
    assert_eq!(error["code"], "lock_conflict", "{response}");
    assert_eq!(error["holderSessionId"], id, "{response}");
    // The holder goes on, undisturbed.
    let at = json!({ "sessionId": id, "expectedRevision": 2, "operations": nudge(2) });
    holder.call(APPLY, at);

    kill(holder);
    let resumed = other.call(GET, json!({ "sessionId": id }));
    assert_eq!(
        (resumed["revision"].clone(), resumed["dirty"].clone()),
        (json!(3), json!(true))
    );
    assert_eq!(resumed["lockHeld"], true, "{resumed}");
    other.call(SAVE, json!({ "sessionId": id, "expectedRevision": 3 }));
    other.call(CLOSE, json!({ "sessionId": id }));
}
