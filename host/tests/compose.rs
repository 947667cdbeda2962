//! The host composition API on a real session: a policy in front of a tool sees only
//! decoded input, a denial answers with the policy's own failure and the backend is not
//! called, a policy that fails cannot leak or let the call through, the gated tool
//! advertises the union of both results, and the `approved_saves` example gives one write
//! per approval even to calls that race for it.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use crate::common;

use crate::approved_saves;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{call, opened_example};
use ofgui_host::mcp::compose::{ComposeError, HostTool, ServerBuilder};
use ofgui_host::mcp::{self, OfguiServer};
use ofgui_host::policy::{BoxFuture, PolicyCall, PolicyError, ToolPolicy, Verdict};
use ofgui_host::service::Service;
use rmcp::model::{CallToolResult, ContentBlock, Tool};
use serde_json::{Map, Value, json};

const SAVE: &str = "openfairygui_backend_save_session";

/// What a test policy does with each call it sees.
#[derive(Clone, Copy)]
enum Behaviour {
    Allow,
    Deny,
    Panic,
    DenyOffSchema,
    Fail,
}

struct Counting {
    behaviour: Behaviour,
    seen: Arc<AtomicUsize>,
}

impl ToolPolicy for Counting {
    fn failure_schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "code": { "const": "save_blocked" },
                "message": { "type": "string" },
            },
            "required": ["code", "message"],
            "additionalProperties": false,
        })
    }

    fn before_call(&self, call: PolicyCall) -> BoxFuture<'_, Verdict> {
        self.seen.fetch_add(1, Ordering::SeqCst);
        let behaviour = self.behaviour;
        Box::pin(async move {
            assert_eq!(call.method, "saveSession");
            let denial = |code: &str| {
                let mut error = Map::new();
                error.insert("code".into(), json!(code));
                error.insert("message".into(), json!("Saving is off in this deployment."));
                error
            };
            match behaviour {
                Behaviour::Allow => Ok(None),
                Behaviour::Deny => Ok(Some(denial("save_blocked"))),
                Behaviour::DenyOffSchema => Ok(Some(denial("something_else"))),
                Behaviour::Fail => Err(PolicyError("/home/secret/approvals unreadable".into())),
                Behaviour::Panic => panic!("sensitive local path /home/secret"),
            }
        })
    }
}

fn gated(service: Arc<Service>, behaviour: Behaviour) -> (OfguiServer, Arc<AtomicUsize>) {
    let seen = Arc::new(AtomicUsize::new(0));
    let policy = Counting {
        behaviour,
        seen: seen.clone(),
    };
    let server = ServerBuilder::new(service)
        .policy(SAVE, policy)
        .build()
        .unwrap();
    (server, seen)
}

/// Calls a tool and returns `(backendResult, isError)`.
async fn tool(server: &OfguiServer, name: &str, arguments: Value) -> (Value, bool) {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    let mut result = server.call(name, Some(arguments), None).await;
    mcp::materialize(&mut result).unwrap();
    let is_error = result.is_error == Some(true);
    let envelope = result.structured_content.unwrap()["backendResult"].clone();
    assert_eq!(envelope["ok"] == false, is_error, "{envelope}");
    (envelope, is_error)
}

fn files(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut found = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                pending.push(entry.path());
            } else {
                found.push((
                    entry.path().display().to_string(),
                    std::fs::read(entry.path()).unwrap(),
                ));
            }
        }
    }
    found.sort();
    found
}

async fn edited(service: &Service, id: &str) {
    let applied = call(
        service,
        "applyTransaction",
        json!({ "sessionId": id, "expectedRevision": 0, "operations": [{
            "kind": "setDisplayNodeProps",
            "selector": { "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n1_view" },
            "props": { "text": "Edited" }
        }] }),
    )
    .await;
    assert_eq!(applied["ok"], true, "{applied}");
}

#[test]
fn names_are_checked_when_the_server_is_built() {
    let root = tempfile::tempdir().unwrap();
    let service = common::service(root.path(), 64 << 20);
    let policy = || Counting {
        behaviour: Behaviour::Allow,
        seen: Arc::default(),
    };
    let unknown = ServerBuilder::new(service.clone())
        .policy("openfairygui_backend_publish", policy())
        .build();
    let Err(error) = unknown else {
        panic!("a policy for a tool we do not serve was accepted")
    };
    assert!(matches!(error, ComposeError::UnknownPolicyTool(_)));
    assert_eq!(
        error.to_string(),
        "Unknown OpenFairyGUI backend MCP tool policy: openfairygui_backend_publish"
    );

    let twice = ServerBuilder::new(service.clone())
        .policy(SAVE, policy())
        .policy(SAVE, policy())
        .build();
    assert!(matches!(twice, Err(ComposeError::DuplicatePolicy(_))));

    let schema = Arc::new(serde_json::Map::new());
    let clash = HostTool::new(Tool::new(SAVE, "not ours to take", schema), |_| async {
        CallToolResult::success(vec![])
    });
    let taken = ServerBuilder::new(service).tool(clash).build();
    assert!(matches!(taken, Err(ComposeError::DuplicateTool(_))));
}

#[tokio::test]
async fn a_denial_blocks_the_save_and_nothing_is_written() {
    let (root, service, id) = opened_example(64 << 20).await;
    edited(&service, &id).await;
    let before = files(root.path());
    let (server, seen) = gated(service.clone(), Behaviour::Deny);
    let calls_before = service.guest_calls();

    let (envelope, is_error) = tool(
        &server,
        SAVE,
        json!({ "sessionId": id, "expectedRevision": 1 }),
    )
    .await;
    assert!(is_error);
    assert_eq!(seen.load(Ordering::SeqCst), 1);
    assert_eq!(envelope["error"]["code"], "save_blocked", "{envelope}");
    assert_eq!(envelope["meta"]["sessionId"], json!(id));
    assert_eq!(envelope["meta"]["diagnostics"][0]["code"], "save_blocked");
    assert_eq!(
        service.guest_calls(),
        calls_before,
        "the backend was called"
    );
    assert_eq!(files(root.path()), before);
    let session = call(&service, "getSession", json!({ "sessionId": id })).await;
    assert_eq!(session["data"]["dirty"], true, "the edits stay");

    // The denial is one of the results the gated tool advertises; others are not.
    let tools = server.tools().unwrap();
    let save = tools.iter().find(|t| t.name == SAVE).unwrap();
    let output = Value::Object(save.output_schema.as_deref().unwrap().clone());
    let validator = jsonschema::validator_for(&output).unwrap();
    assert!(
        validator.is_valid(&json!({ "backendResult": envelope })),
        "{output}"
    );
    assert!(!validator.is_valid(&json!({ "backendResult": {
        "ok": false, "meta": {}, "error": { "code": "made_up", "message": "x" } } })));
    assert_eq!(
        save.meta.as_ref().unwrap().0.get("openfairygui/hostPolicy"),
        Some(&json!(true))
    );
    let others_marked = tools.iter().filter(|t| {
        t.meta
            .as_ref()
            .is_some_and(|meta| meta.0.contains_key("openfairygui/hostPolicy"))
    });
    assert_eq!(others_marked.count(), 1);
}

#[tokio::test]
async fn invalid_input_never_reaches_the_policy_and_an_allowed_call_runs_unchanged() {
    let (_root, service, id) = opened_example(64 << 20).await;
    let (server, seen) = gated(service.clone(), Behaviour::Allow);

    let (envelope, _) = tool(
        &server,
        SAVE,
        json!({ "sessionId": id, "expectedRevision": "one" }),
    )
    .await;
    assert_eq!(envelope["error"]["code"], "invalid_input");
    assert_eq!(seen.load(Ordering::SeqCst), 0);

    // Allowed: the backend's own answer passes through, failures included.
    let (envelope, _) = tool(
        &server,
        SAVE,
        json!({ "sessionId": id, "expectedRevision": 7 }),
    )
    .await;
    assert_eq!(envelope["error"]["code"], "stale_write", "{envelope}");
    assert_eq!(seen.load(Ordering::SeqCst), 1);
    let (envelope, is_error) = tool(
        &server,
        SAVE,
        json!({ "sessionId": id, "expectedRevision": 0 }),
    )
    .await;
    assert!(!is_error, "{envelope}");
    assert_eq!(envelope["data"]["lastSavedRevision"], 0, "{envelope}");
    assert_eq!(envelope["data"]["dirty"], false, "{envelope}");
}

#[tokio::test]
async fn a_policy_that_fails_stops_the_call_without_leaking() {
    for behaviour in [Behaviour::Panic, Behaviour::DenyOffSchema, Behaviour::Fail] {
        let (root, service, id) = opened_example(64 << 20).await;
        edited(&service, &id).await;
        let before = files(root.path());
        let (server, _) = gated(service.clone(), behaviour);
        let (envelope, is_error) = tool(
            &server,
            SAVE,
            json!({ "sessionId": id, "expectedRevision": 1 }),
        )
        .await;
        assert!(is_error);
        assert_eq!(envelope["error"]["code"], "backend_unhandled_error");
        assert_eq!(envelope["error"]["reason"], "policy");
        let text = envelope.to_string();
        assert!(
            !text.contains("secret") && !text.contains("something_else"),
            "{text}"
        );
        assert_eq!(files(root.path()), before);
    }
}

#[tokio::test]
async fn one_approval_gives_one_write_and_the_host_tool_reports_it() {
    let (root, service, id) = opened_example(64 << 20).await;
    edited(&service, &id).await;
    let approvals = tempfile::tempdir().unwrap();
    let policy = || approved_saves::ApprovedWrites {
        approvals: approvals.path().to_path_buf(),
    };
    let server = ServerBuilder::new(service.clone())
        .policy(SAVE, policy())
        .tool(approved_saves::approval_status(Arc::new(policy())))
        .build()
        .unwrap();
    let status = async || {
        let Value::Object(arguments) = json!({ "sessionId": id }) else {
            unreachable!()
        };
        let result = server
            .call("example_approval_status", Some(arguments), None)
            .await;
        match &result.content[0] {
            ContentBlock::Text(text) => text.text.clone(),
            other => panic!("{other:?}"),
        }
    };
    assert!(status().await.starts_with("Not approved"));

    let (envelope, _) = tool(
        &server,
        SAVE,
        json!({ "sessionId": id, "expectedRevision": 1 }),
    )
    .await;
    assert_eq!(envelope["error"]["code"], "write_not_approved");
    assert_eq!(envelope["error"]["approvalFile"], format!("{id}.approved"));

    std::fs::write(approvals.path().join(format!("{id}.approved")), "").unwrap();
    assert!(status().await.starts_with("Approved"));
    let save = json!({ "sessionId": id, "expectedRevision": 1 });
    let (first, second) = tokio::join!(
        tool(&server, SAVE, save.clone()),
        tool(&server, SAVE, save.clone())
    );
    let codes: Vec<&Value> = [&first.0, &second.0]
        .iter()
        .map(|envelope| &envelope["error"]["code"])
        .collect();
    assert_eq!(
        [first.1, second.1].iter().filter(|e| !**e).count(),
        1,
        "{codes:?}"
    );
    assert!(codes.contains(&&json!("write_not_approved")), "{codes:?}");
    let _ = root;
}
