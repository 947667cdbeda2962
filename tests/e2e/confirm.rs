//! `--confirm-writes`: the user is asked through MCP elicitation before every save and
//! materialize, shown the files the write would change; a declined or impossible
//! confirmation writes nothing and keeps the edits.

use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use rmcp::handler::client::ClientHandler;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
    ElicitationAction, Implementation,
};
use rmcp::service::{RequestContext, RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ErrorData, ServiceExt};
use serde_json::{Value, json};
use tokio::process::Command;

use crate::harness::*;

const SAVE: &str = "openfairygui_backend_save_session";
const APPLY: &str = "openfairygui_backend_apply_transaction";

/// A client whose user answers every confirmation the same way.
#[derive(Clone)]
struct User {
    elicitation: bool,
    answer: ElicitationAction,
    confirm: bool,
    asked: Arc<Mutex<Vec<String>>>,
}

impl ClientHandler for User {
    fn get_info(&self) -> ClientConfig {
        let capabilities = if self.elicitation {
            ClientCapabilities::builder().enable_elicitation().build()
        } else {
            ClientCapabilities::default()
        };
        ClientConfig::new(capabilities, Implementation::new("confirm-test", "0"))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        if let ElicitRequestParams::FormElicitationParams { message, .. } = request {
            self.asked.lock().unwrap().push(message);
        }
        let mut result = ElicitResult::new(self.answer.clone());
        if self.answer == ElicitationAction::Accept {
            result.content = Some(json!({ "confirm": self.confirm }));
        }
        Ok(result)
    }
}

async fn start(root: &Path, user: User) -> RunningService<RoleClient, User> {
    tokio::task::spawn_blocking(warm_compile_cache)
        .await
        .unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_ofgui-mcp-host"));
    command
        .arg("--project-dir")
        .arg(root)
        .arg("--cache-dir")
        .arg(cache_dir())
        .arg("--confirm-writes")
        .env("OFGUI_LOG", "warn");
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    user.serve(transport).await.expect("MCP handshake")
}

/// `(backendResult, isError)` of a call.
async fn call(client: &RunningService<RoleClient, User>, tool: &str, args: Value) -> (Value, bool) {
    let (envelope, is_error, _) = call_with_additions(client, tool, args).await;
    (envelope, is_error)
}

/// [`call`] with the result's `_meta["ofgui/additions"]` (`null` when it has none).
async fn call_with_additions(
    client: &RunningService<RoleClient, User>,
    tool: &str,
    args: Value,
) -> (Value, bool, Value) {
    let Value::Object(args) = args else { panic!() };
    let mut params = CallToolRequestParams::new(tool.to_string());
    params.arguments = Some(args);
    let result = client.call_tool(params).await.unwrap();
    let additions = result
        .meta
        .as_ref()
        .and_then(|meta| meta.0.get("ofgui/additions"))
        .cloned()
        .unwrap_or_default();
    let envelope = result.structured_content.unwrap()["backendResult"].clone();
    (envelope, result.is_error == Some(true), additions)
}

/// A running server on an edited copy of the example: the client, the project, and the
/// session id at revision 1.
async fn edited(user: User) -> (Workspace, RunningService<RoleClient, User>, String) {
    let workspace = Workspace::new();
    let project = workspace.add("hello", &example_project());
    let client = start(workspace.path(), user).await;
    let (opened, _) = call(&client, OPEN, json!({ "projectPath": project })).await;
    let id = opened["data"]["sessionId"].as_str().unwrap().to_string();
    let (applied, is_error) = call(
        &client,
        APPLY,
        json!({ "sessionId": id, "expectedRevision": 0, "operations": [{
            "kind": "setDisplayNodeProps",
            "selector": { "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n1_view" },
            "props": { "text": "Confirmed?" }
        }] }),
    )
    .await;
    assert!(!is_error, "{applied}");
    (workspace, client, id)
}

fn user(elicitation: bool, answer: ElicitationAction, confirm: bool) -> User {
    User {
        elicitation,
        answer,
        confirm,
        asked: Arc::default(),
    }
}

#[tokio::test]
async fn a_confirmed_save_writes_the_files_the_user_was_shown() {
    let person = user(true, ElicitationAction::Accept, true);
    let (workspace, client, id) = edited(person.clone()).await;
    let (saved, is_error, additions) = call_with_additions(
        &client,
        SAVE,
        json!({ "sessionId": id, "expectedRevision": 1 }),
    )
    .await;
    assert!(!is_error, "{saved}");
    let asked = person.asked.lock().unwrap().clone();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert!(
        asked[0].contains("change assets/Main/MainView.xml") && asked[0].contains("revision 1"),
        "{}",
        asked[0]
    );
    assert_eq!(
        additions["saved"]["writtenPaths"],
        json!(["assets/Main/MainView.xml"])
    );
    let written = std::fs::read_to_string(workspace.path().join("hello/assets/Main/MainView.xml"));
    assert!(written.unwrap().contains("Confirmed?"));
}

#[tokio::test]
async fn a_declined_or_impossible_confirmation_writes_nothing() {
    for (person, code) in [
        (
            user(true, ElicitationAction::Decline, false),
            "write_not_confirmed",
        ),
        (
            user(true, ElicitationAction::Accept, false),
            "write_not_confirmed",
        ),
        (
            user(true, ElicitationAction::Cancel, false),
            "write_not_confirmed",
        ),
        (
            user(false, ElicitationAction::Accept, true),
            "confirmation_unavailable",
        ),
    ] {
        let (workspace, client, id) = edited(person.clone()).await;
        let before = snapshot(workspace.path());
        for tool in [SAVE, "openfairygui_backend_materialize_session"] {
            let (refused, is_error) = call(
                &client,
                tool,
                json!({ "sessionId": id, "expectedRevision": 1 }),
            )
            .await;
            assert!(is_error, "{refused}");
            assert_eq!(refused["error"]["code"], code, "{refused}");
            assert_eq!(refused["error"]["sessionId"], json!(id));
        }
        // Publishing writes too (the output directory): asked the same way, while a dry
        // run, which writes nothing, is not asked about.
        let out = workspace.path().join("out");
        let (refused, is_error) = call(
            &client,
            "openfairygui_publish",
            json!({ "sessionId": id, "outputDir": out }),
        )
        .await;
        assert!(is_error, "{refused}");
        assert_eq!(refused["error"]["code"], code, "{refused}");
        let (listed, is_error) = call(
            &client,
            "openfairygui_publish",
            json!({ "sessionId": id, "outputDir": out, "dryRun": true }),
        )
        .await;
        assert!(!is_error, "{listed}");
        assert_eq!(
            snapshot(workspace.path()),
            before,
            "a refused write changed files"
        );
        let (session, _) = call(&client, GET, json!({ "sessionId": id })).await;
        assert_eq!(session["data"]["dirty"], true, "the edits stay");
        let asked = person.asked.lock().unwrap().len();
        assert_eq!(asked, if person.elicitation { 3 } else { 0 });
    }
}

#[tokio::test]
async fn a_write_must_name_the_revision_it_confirms() {
    let person = user(true, ElicitationAction::Accept, true);
    let (_workspace, client, id) = edited(person.clone()).await;
    let (refused, _) = call(&client, SAVE, json!({ "sessionId": id })).await;
    assert_eq!(refused["error"]["code"], "expected_revision_required");
    // A write the backend refuses anyway is not put to the user.
    let (stale, _) = call(
        &client,
        SAVE,
        json!({ "sessionId": id, "expectedRevision": 0 }),
    )
    .await;
    assert_eq!(stale["error"]["code"], "stale_write", "{stale}");
    assert!(person.asked.lock().unwrap().is_empty());
}
