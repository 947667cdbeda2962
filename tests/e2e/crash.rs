//! A server killed (SIGKILL) in the middle of a multi-file save: the next server that opens
//! the project finds it byte for byte as before the save or as after it, never a mix, and
//! no journal or staged file is left behind.
//!
//! The backend's test-only fault hook (`OFGUI_SAVE_FAULT=<step>:<n>:hang`) stops the save
//! at a chosen step and says so on stderr; the test then kills the process there.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

use crate::harness::*;

const BASICS: &str = "9leh0eyf";
const JOYSTICK: &str = "rbw1tvvv";

/// Renames an image and a component (two files move, `package.xml` changes) and moves a
/// node in another package: one save writes four files and removes two.
fn batch() -> Value {
    json!([
        { "kind": "renameResource", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "newName": "k3_frame" },
        { "kind": "renameResource", "selector": { "packageId": BASICS, "resourceId": "rpmb10" }, "newName": "FancyButton" },
        { "kind": "setDisplayNodeProps",
          "selector": { "packageId": JOYSTICK, "componentResourceId": "iitt1", "displayNodeId": "n7" },
          "props": { "position": { "x": 5, "y": 6 } } }
    ])
}

/// A server spoken to line by line, its stdout and stderr read on their own threads.
pub(crate) struct RawServer {
    pub(crate) child: Child,
    stdin: ChildStdin,
    stdout: Receiver<String>,
    stderr: Receiver<String>,
    next_id: u64,
}

impl RawServer {
    fn start(root: &Path, fault: Option<&str>) -> RawServer {
        let fault = fault.map(|fault| ("OFGUI_SAVE_FAULT", fault));
        RawServer::start_env(root, fault.as_slice())
    }

    /// A server with extra environment variables (the test-only fault hooks).
    pub(crate) fn start_env(root: &Path, env: &[(&str, &str)]) -> RawServer {
        RawServer::launch(root, env, &[])
    }

    /// A server with extra arguments.
    pub(crate) fn start_args(root: &Path, args: &[&str]) -> RawServer {
        RawServer::launch(root, &[], args)
    }

    fn launch(root: &Path, env: &[(&str, &str)], args: &[&str]) -> RawServer {
        warm_compile_cache();
        let mut command = Command::new(env!("CARGO_BIN_EXE_ofgui-mcp-host"));
        command
            .arg("--project-dir")
            .arg(root)
            .arg("--cache-dir")
            .arg(cache_dir())
            .args(args)
            .env("OFGUI_LOG", "warn")
            .env_remove("OFGUI_SAVE_FAULT")
            .env_remove("OFGUI_OUTPUT_FAULT")
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command.spawn().expect("spawn ofgui-mcp-host");
        let stdin = child.stdin.take().unwrap();
        let lines = |stream: Box<dyn std::io::Read + Send>| {
            let (send, receive) = channel();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines() {
                    let Ok(line) = line else { return };
                    if send.send(line).is_err() {
                        return;
                    }
                }
            });
            receive
        };
        let stdout = lines(Box::new(child.stdout.take().unwrap()));
        let stderr = lines(Box::new(child.stderr.take().unwrap()));
        let mut server = RawServer {
            child,
            stdin,
            stdout,
            stderr,
            next_id: 0,
        };
        server.request(
            "initialize",
            json!({ "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "crash", "version": "0" } }),
        );
        server.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
        server
    }

    fn send(&mut self, message: &Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    pub(crate) fn send_request(&mut self, method: &str, params: Value) -> u64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        id
    }

    pub(crate) fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        loop {
            let line = self
                .stdout
                .recv_timeout(Duration::from_secs(60))
                .expect("a response");
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    pub(crate) fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let response = self.request(
            "tools/call",
            json!({ "name": tool, "arguments": arguments }),
        );
        let envelope = response["result"]["structuredContent"]["backendResult"].clone();
        assert_eq!(envelope["ok"], true, "{tool}: {envelope}");
        envelope["data"].clone()
    }

    /// Waits until the backend reports that the save stopped at the fault.
    pub(crate) fn wait_for_fault(&mut self) -> String {
        loop {
            let line = self
                .stderr
                .recv_timeout(Duration::from_secs(60))
                .expect("the save reaches its fault");
            if line.contains("ofgui-save-fault: reached") {
                return line;
            }
        }
    }
}

/// Opens, applies the batch and saves; with a fault the save is left hanging at it.
pub(crate) fn edit_and_save(root: &Path, project: &Path, fault: Option<&str>) -> RawServer {
    let mut server = RawServer::start(root, fault);
    let id = server.call(OPEN, json!({ "projectPath": project }))["sessionId"].clone();
    server.call(
        "openfairygui_backend_apply_transaction",
        json!({ "sessionId": id, "expectedRevision": 0, "operations": batch() }),
    );
    if fault.is_some() {
        server.send_request(
            "tools/call",
            json!({ "name": "openfairygui_backend_save_session", "arguments": { "sessionId": id, "expectedRevision": 1 } }),
        );
    } else {
        let response = server.request(
            "tools/call",
            json!({ "name": "openfairygui_backend_save_session", "arguments": { "sessionId": id, "expectedRevision": 1 } }),
        );
        let saved = &response["result"]["_meta"]["ofgui/additions"]["saved"];
        assert_eq!(
            saved["writtenPaths"].as_array().map(Vec::len),
            Some(4),
            "{response}"
        );
    }
    server
}

#[test]
fn a_save_killed_at_any_step_leaves_the_old_or_the_new_project() {
    // The project as it is, and as a completed save leaves it.
    let reference = Workspace::new();
    let project = reference.add("unity", &unity_corpus());
    let old = snapshot(&project);
    drop(edit_and_save(reference.path(), &project, None));
    let new = snapshot(&project);
    assert_ne!(old, new);

    let mut outcomes = Vec::new();
    for fault in [
        "prepare-journal",
        "stage:1",
        "stage:3",
        "sync-staged",
        "commit-journal",
        "commit-point",
        "apply:1",
        "apply:4",
        "finish",
    ] {
        let workspace = Workspace::new();
        let project = workspace.add("unity", &unity_corpus());
        let mut server = edit_and_save(workspace.path(), &project, Some(&format!("{fault}:hang")));
        let reached = server.wait_for_fault();
        server.child.kill().unwrap();
        server.child.wait().unwrap();
        assert!(
            reached.contains(fault.split(':').next().unwrap()),
            "{reached}"
        );

        // The next server finds the dead one's lock, takes it over and recovers the save.
        let mut next = RawServer::start(workspace.path(), None);
        let id = next.call(OPEN, json!({ "projectPath": project }))["sessionId"].clone();
        next.call(CLOSE, json!({ "sessionId": id }));
        let after = snapshot(&project);
        let outcome = if after == old {
            "old"
        } else if after == new {
            "new"
        } else {
            let differing: Vec<&String> = old
                .keys()
                .chain(after.keys())
                .filter(|path| {
                    old.get(*path) != after.get(*path) && new.get(*path) != after.get(*path)
                })
                .collect();
            panic!("killed at {fault}: the project is neither old nor new: {differing:?}");
        };
        outcomes.push((fault, outcome));
    }
    // Before the commit point a crash undoes the save; from it on the save is completed.
    let first_new = outcomes.iter().position(|(_, o)| *o == "new").unwrap();
    assert!(first_new > 0, "{outcomes:?}");
    assert!(
        outcomes[..first_new].iter().all(|(_, o)| *o == "old")
            && outcomes[first_new..].iter().all(|(_, o)| *o == "new"),
        "{outcomes:?}"
    );
}
