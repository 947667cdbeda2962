//! MCP features beyond upstream, through the real server: argument completion, resource
//! subscriptions (`resources/subscribe` on the handshake protocol, `subscriptions/listen`
//! on 2026-07-28), log messages and progress.

#![allow(deprecated)] // rmcp marks MCP logging and resources/subscribe deprecated (SEP-2577).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::ClientHandler;
use rmcp::model::{
    ArgumentInfo, CompleteRequestParams, LoggingLevel, LoggingMessageNotificationParam,
    ProgressNotificationParam, Reference, RequestMetaObject, ResourceUpdatedNotificationParam,
    ServerNotification, SetLevelRequestParams, SubscribeRequestParams, SubscriptionFilter,
    UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RoleClient, SubscriptionEnd};
use serde_json::{Value, json};
use tokio::sync::Notify;

use crate::harness::*;

const APPLY: &str = "openfairygui_backend_apply_transaction";
const SAVE: &str = "openfairygui_backend_save_session";
const VALIDATE: &str = "openfairygui_backend_validate_session";

/// What the server pushed, in the order the client saw it.
#[derive(Clone, Debug, PartialEq)]
enum Pushed {
    Updated(String),
    Message {
        level: LoggingLevel,
        logger: String,
        data: Value,
    },
    Progress(ProgressNotificationParam),
}

/// A client handler that records everything the server pushes.
#[derive(Clone, Default)]
struct Recorder {
    pushed: Arc<Mutex<Vec<Pushed>>>,
    arrived: Arc<Notify>,
}

impl Recorder {
    fn record(&self, pushed: Pushed) {
        self.pushed.lock().unwrap().push(pushed);
        self.arrived.notify_waiters();
    }

    fn pushed(&self) -> Vec<Pushed> {
        self.pushed.lock().unwrap().clone()
    }

    fn updates(&self) -> Vec<String> {
        self.pushed()
            .into_iter()
            .filter_map(|pushed| match pushed {
                Pushed::Updated(uri) => Some(uri),
                _ => None,
            })
            .collect()
    }

    fn messages(&self) -> Vec<(LoggingLevel, String, Value)> {
        self.pushed()
            .into_iter()
            .filter_map(|pushed| match pushed {
                Pushed::Message {
                    level,
                    logger,
                    data,
                } => Some((level, logger, data)),
                _ => None,
            })
            .collect()
    }

    /// Waits (at most 30 s) until `done` holds for what was pushed so far.
    async fn wait_until(&self, what: &str, done: impl Fn(&Recorder) -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let arrived = self.arrived.notified();
            if done(self) {
                return;
            }
            if tokio::time::timeout_at(deadline, arrived).await.is_err() {
                panic!(
                    "waited 30 s for {what}; the server pushed {:?}",
                    self.pushed()
                );
            }
        }
    }
}

impl ClientHandler for Recorder {
    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.record(Pushed::Updated(params.uri));
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.record(Pushed::Message {
            level: params.level,
            logger: params.logger.unwrap_or_default(),
            data: params.data,
        });
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.record(Pushed::Progress(params));
    }
}

fn session_uri(id: &str) -> String {
    format!("openfairygui://backend/session/{id}")
}

fn outline_uri(id: &str) -> String {
    format!("openfairygui://backend/session/{id}/outline")
}

/// Moves the example's title node: one applied batch, the revision advances by one.
async fn move_title<H: ClientHandler>(server: &Server<H>, id: &str, revision: u64) {
    let data = server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": revision, "operations": [{
                "kind": "setDisplayNodeProps",
                "selector": { "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n1_view" },
                "props": { "position": { "x": 10 + revision, "y": 20 } } }] }),
        )
        .await;
    assert_eq!(data["revision"], revision + 1);
}

/// Writes a lock file beside `project` as a server that died holding it would leave it.
fn stale_lock(project: &Path) {
    let name = project.file_name().unwrap().to_str().unwrap();
    let lock = project
        .parent()
        .unwrap()
        .join(format!(".{name}.openfairygui.backend.lock"));
    // A process id beyond pid_max on every Linux: it cannot be running.
    std::fs::write(
        lock,
        r#"{"pid":2147483646,"sessionId":"old","canonicalPathKey":"k","createdAt":"x"}"#,
    )
    .unwrap();
}

fn complete(reference: Reference, name: &str, value: &str) -> CompleteRequestParams {
    CompleteRequestParams::new(reference, ArgumentInfo::new(name, value))
}

#[tokio::test]
async fn completion_offers_each_argument_by_prefix_ignoring_case() {
    let workspace = Workspace::new();
    let project = workspace.add("example", &example_project());
    let server = Server::start(&[workspace.path()]).await;
    let capabilities = server.client.peer_info().unwrap().capabilities.clone();
    assert!(capabilities.completions.is_some(), "{capabilities:?}");
    let id = server.open(&project).await;

    let template = |uri: &str| Reference::for_resource(uri);
    let cases = [
        (
            template("openfairygui://backend/session/{sessionId}"),
            "sessionId",
            id[..4].to_uppercase(),
            vec![id.clone()],
        ),
        (
            template("openfairygui://backend/session/{sessionId}/outline"),
            "sessionId",
            String::new(),
            vec![id.clone()],
        ),
        (
            template("openfairygui://docs/methods/{method}"),
            "method",
            "SAVE".into(),
            vec!["saveSession".to_string()],
        ),
        (
            template("openfairygui://docs/diagnostics/{code}"),
            "code",
            "Stale_".into(),
            vec!["stale_read".to_string(), "stale_write".to_string()],
        ),
        (
            template("openfairygui://contracts/operations/{kind}"),
            "kind",
            "setdisplaynode".into(),
            vec!["setDisplayNodeProps".to_string()],
        ),
    ];
    for (reference, name, typed, expected) in cases {
        let result = server
            .client
            .complete(complete(reference, name, &typed))
            .await
            .unwrap();
        let completion = result.completion;
        assert_eq!(completion.values, expected, "{name} {typed:?}");
        assert_eq!(completion.total, Some(expected.len() as u32));
        assert_eq!(completion.has_more, Some(false));
    }

    // Every diagnostic code starts with "": more than a page of them.
    let all = server
        .client
        .complete(complete(
            template("openfairygui://docs/diagnostics/{code}"),
            "code",
            "",
        ))
        .await
        .unwrap()
        .completion;
    let codes = ofgui_contracts::catalog::GUIDES.len();
    assert!(codes > 100);
    assert_eq!(all.values.len(), 100);
    assert_eq!((all.total, all.has_more), (Some(codes as u32), Some(true)));
    let nothing = server
        .client
        .complete(complete(
            template("openfairygui://docs/methods/{method}"),
            "method",
            "zz",
        ))
        .await
        .unwrap()
        .completion;
    assert!(nothing.values.is_empty());
    assert_eq!((nothing.total, nothing.has_more), (Some(0), Some(false)));

    // An argument the template does not have, a template or prompt the server does not
    // serve, and a prompt argument (no prompt takes one) are refused.
    for (reference, name) in [
        (template("openfairygui://docs/methods/{method}"), "kind"),
        (template("openfairygui://nowhere/{sessionId}"), "sessionId"),
        (Reference::for_prompt("no_such_prompt"), "sessionId"),
        (
            Reference::for_prompt("openfairygui_save_session"),
            "sessionId",
        ),
    ] {
        let refused = server.client.complete(complete(reference, name, "")).await;
        assert!(refused.is_err(), "{name}: {refused:?}");
    }
}

/// Two copies of the example in one workspace, and a server whose client records what it
/// is sent.
async fn two_examples(
    lifecycle: Lifecycle,
) -> (Workspace, PathBuf, PathBuf, Recorder, Server<Recorder>) {
    let workspace = Workspace::new();
    let first = workspace.add("first", &example_project());
    let second = workspace.add("second", &example_project());
    let recorder = Recorder::default();
    let server = Server::connect(&[workspace.path()], &[], recorder.clone(), lifecycle).await;
    (workspace, first, second, recorder, server)
}

#[tokio::test]
async fn a_subscriber_gets_one_update_per_change_of_its_resources_only() {
    let (_workspace, first, second, recorder, server) = two_examples(Lifecycle::Handshake).await;
    let capabilities = server.client.peer_info().unwrap().capabilities.clone();
    assert_eq!(
        capabilities.resources.as_ref().and_then(|r| r.subscribe),
        Some(true)
    );
    let a = server.open(&first).await;
    let b = server.open(&second).await;
    let subscribe = |uri: String| server.client.subscribe(SubscribeRequestParams::new(uri));

    // Only an open session's resources can be subscribed to.
    for uri in [
        session_uri("no-such-session"),
        "openfairygui://docs/index".to_string(),
    ] {
        assert!(subscribe(uri.clone()).await.is_err(), "{uri}");
    }
    subscribe(session_uri(&a)).await.unwrap();

    // One applied batch: one update, for that URI.
    move_title(&server, &a, 0).await;
    recorder
        .wait_until("the first update", |r| r.updates().len() == 1)
        .await;
    // Another session's change and an unsubscribed view tell this client nothing: the
    // next update is the next change of the subscribed resource.
    move_title(&server, &b, 0).await;
    move_title(&server, &a, 1).await;
    recorder
        .wait_until("the second update", |r| r.updates().len() == 2)
        .await;
    assert_eq!(recorder.updates(), vec![session_uri(&a); 2]);

    // After unsubscribing nothing comes; a save changes the session, not its outline; a
    // close ends both with one last update.
    server
        .client
        .unsubscribe(UnsubscribeRequestParams::new(session_uri(&a)))
        .await
        .unwrap();
    subscribe(outline_uri(&b)).await.unwrap();
    subscribe(session_uri(&b)).await.unwrap();
    move_title(&server, &a, 2).await;
    server
        .ok(SAVE, json!({ "sessionId": b, "expectedRevision": 1 }))
        .await;
    recorder
        .wait_until("the save's update", |r| r.updates().len() == 3)
        .await;
    server.ok(CLOSE, json!({ "sessionId": b })).await;
    recorder
        .wait_until("the close's updates", |r| r.updates().len() == 5)
        .await;
    // Subscribed again, the first session's next change is the next update: nothing else
    // was on its way.
    subscribe(session_uri(&a)).await.unwrap();
    move_title(&server, &a, 3).await;
    recorder
        .wait_until("the last update", |r| r.updates().len() == 6)
        .await;
    let updates = recorder.updates();
    assert_eq!(
        updates[..3],
        [session_uri(&a), session_uri(&a), session_uri(&b)],
        "{updates:?}"
    );
    let mut closed = updates[3..5].to_vec();
    closed.sort();
    assert_eq!(closed, [session_uri(&b), outline_uri(&b)], "{updates:?}");
    assert_eq!(updates[5..], [session_uri(&a)], "{updates:?}");
    // A closed session's resources are not subscribable: they will never change.
    assert!(subscribe(session_uri(&b)).await.is_err());
}

#[tokio::test]
async fn a_listen_stream_follows_the_listed_sessions_until_they_close() {
    let workspace = Workspace::new();
    let first = workspace.add("first", &example_project());
    let second = workspace.add("second", &example_project());
    let server = Server::connect(&[workspace.path()], &[], (), Lifecycle::Discover).await;
    let a = server.open(&first).await;
    let b = server.open(&second).await;
    let mut listen = server
        .client
        .listen(
            SubscriptionFilter::builder()
                .resource_subscriptions([
                    session_uri(&a),
                    outline_uri(&a),
                    session_uri("no-such-session"),
                    "openfairygui://docs/index".to_string(),
                ])
                .build(),
        )
        .await
        .unwrap();
    // Only the open session's resources are honoured.
    assert_eq!(
        listen.acknowledged().resource_subscriptions,
        Some(vec![session_uri(&a), outline_uri(&a)])
    );
    let mut next = async || match listen.next().await.unwrap() {
        Some(ServerNotification::ResourceUpdatedNotification(update)) => Some(update.params.uri),
        Some(other) => panic!("not an update: {other:?}"),
        None => None,
    };
    // Another session's change is not on the stream; an applied batch changes both views.
    move_title(&server, &b, 0).await;
    move_title(&server, &a, 0).await;
    assert_eq!(next().await, Some(session_uri(&a)));
    assert_eq!(next().await, Some(outline_uri(&a)));
    // A save changes the session, not the outline.
    server
        .ok(SAVE, json!({ "sessionId": a, "expectedRevision": 1 }))
        .await;
    assert_eq!(next().await, Some(session_uri(&a)));
    // Closing it updates both one last time and ends the stream gracefully.
    server.ok(CLOSE, json!({ "sessionId": a })).await;
    assert_eq!(next().await, Some(session_uri(&a)));
    assert_eq!(next().await, Some(outline_uri(&a)));
    assert_eq!(next().await, None);
    assert!(
        matches!(listen.end(), Some(SubscriptionEnd::Graceful(_))),
        "{:?}",
        listen.end()
    );

    // The handshake-era methods are not part of 2026-07-28.
    let legacy = server
        .client
        .subscribe(SubscribeRequestParams::new(session_uri(&b)))
        .await;
    assert!(legacy.is_err(), "{legacy:?}");
}

/// The lock-takeover messages (`lock.takenOver`) a client got, by session id.
fn takeovers(recorder: &Recorder) -> Vec<(LoggingLevel, String)> {
    recorder
        .messages()
        .into_iter()
        .filter(|(_, logger, _)| logger == "lock.takenOver")
        .map(|(level, _, data)| (level, data["sessionId"].as_str().unwrap().to_string()))
        .collect()
}

#[tokio::test]
async fn log_messages_follow_the_level_the_client_set() {
    let (_workspace, first, second, recorder, server) = two_examples(Lifecycle::Handshake).await;
    let capabilities = server.client.peer_info().unwrap().capabilities.clone();
    assert!(capabilities.logging.is_some(), "{capabilities:?}");

    // By default warnings and above are sent: a stale lock taken over is one.
    stale_lock(&first);
    let a = server.open(&first).await;
    recorder
        .wait_until("the takeover warning", |r| takeovers(r).len() == 1)
        .await;
    let (level, _, data) = recorder.messages().remove(0);
    assert_eq!(level, LoggingLevel::Warning);
    assert_eq!(data["pid"], 2147483646);
    assert!(
        data["message"].as_str().unwrap().contains("no longer runs"),
        "{data}"
    );
    server.ok(CLOSE, json!({ "sessionId": a })).await;

    // At level error the same warning is not sent; back at warning it is.
    server
        .client
        .set_level(SetLevelRequestParams::new(LoggingLevel::Error))
        .await
        .unwrap();
    stale_lock(&first);
    let quiet = server.open(&first).await;
    server
        .client
        .set_level(SetLevelRequestParams::new(LoggingLevel::Warning))
        .await
        .unwrap();
    stale_lock(&second);
    let loud = server.open(&second).await;
    recorder
        .wait_until("the second takeover warning", |r| takeovers(r).len() == 2)
        .await;
    assert_eq!(
        takeovers(&recorder),
        vec![
            (LoggingLevel::Warning, a.clone()),
            (LoggingLevel::Warning, loud)
        ],
        "nothing for {quiet}"
    );
    assert_eq!(recorder.messages().len(), 2, "{:?}", recorder.messages());
}

#[tokio::test]
async fn an_idle_session_closing_is_told_at_level_notice() {
    let workspace = Workspace::new();
    let project = workspace.add("example", &example_project());
    let recorder = Recorder::default();
    let server = Server::connect(
        &[workspace.path()],
        &["--idle-timeout-secs", "1"],
        recorder.clone(),
        Lifecycle::Handshake,
    )
    .await;
    server
        .client
        .set_level(SetLevelRequestParams::new(LoggingLevel::Notice))
        .await
        .unwrap();
    let id = server.open(&project).await;
    recorder
        .wait_until("the idle notice", |r| !r.messages().is_empty())
        .await;
    let (level, logger, data) = recorder.messages().remove(0);
    assert_eq!(
        (level, logger.as_str(), data["sessionId"].as_str()),
        (
            LoggingLevel::Notice,
            "session.idleClosed",
            Some(id.as_str())
        )
    );
    let error = server.err(GET, json!({ "sessionId": id })).await;
    assert_eq!(error["code"], "session_not_found");
}

#[tokio::test]
async fn on_2026_07_28_a_call_gets_messages_only_when_its_meta_asks() {
    let (_workspace, first, second, recorder, server) = two_examples(Lifecycle::Discover).await;
    let open = |project: &Path, meta: Option<RequestMetaObject>| {
        let arguments = json!({ "projectPath": project });
        let Value::Object(arguments) = arguments else {
            unreachable!()
        };
        server.call_with_meta(OPEN, Some(arguments), meta)
    };
    stale_lock(&first);
    let (silent, _) = open(&first, None).await;
    stale_lock(&second);
    let mut meta = RequestMetaObject::new();
    meta.set_log_level(LoggingLevel::Warning);
    let (told, _) = open(&second, Some(meta)).await;
    recorder
        .wait_until("the takeover warning", |r| takeovers(r).len() == 1)
        .await;
    assert_eq!(
        takeovers(&recorder),
        vec![(
            LoggingLevel::Warning,
            told["data"]["sessionId"].as_str().unwrap().to_string()
        )],
        "nothing for {}",
        silent["data"]["sessionId"]
    );
    // There is no logging/setLevel on 2026-07-28.
    let refused = server
        .client
        .set_level(SetLevelRequestParams::new(LoggingLevel::Debug))
        .await;
    assert!(refused.is_err(), "{refused:?}");
}

#[tokio::test]
async fn a_save_interrupted_by_a_crash_is_reported_when_the_project_opens_again() {
    // Killed before the commit point the save is undone, after it completed (crash.rs).
    for (fault, recovery) in [("stage:3", "undone"), ("apply:1", "completed")] {
        let workspace = Workspace::new();
        let project = workspace.add("unity", &unity_corpus());
        let (root, path) = (workspace.path().to_path_buf(), project.clone());
        tokio::task::spawn_blocking(move || {
            let fault = format!("{fault}:hang");
            let mut killed = crate::crash::edit_and_save(&root, &path, Some(&fault));
            killed.wait_for_fault();
            killed.child.kill().unwrap();
            killed.child.wait().unwrap();
        })
        .await
        .unwrap();

        let recorder = Recorder::default();
        let server = Server::connect(
            &[workspace.path()],
            &[],
            recorder.clone(),
            Lifecycle::Handshake,
        )
        .await;
        let id = server.open(&project).await;
        recorder
            .wait_until("the recovery and takeover warnings", |r| {
                r.messages().len() == 2
            })
            .await;
        let messages = recorder.messages();
        let by = |logger: &str| {
            messages
                .iter()
                .find(|(_, name, _)| name == logger)
                .unwrap_or_else(|| panic!("no {logger} in {messages:?}"))
                .clone()
        };
        let (level, _, recovered) = by("save.recovered");
        assert_eq!(level, LoggingLevel::Warning);
        assert_eq!(recovered["sessionId"], id);
        assert_eq!(recovered["recovery"], recovery, "{recovered}");
        let paths: Vec<&str> = recovered["paths"]
            .as_array()
            .unwrap()
            .iter()
            .map(|path| path.as_str().unwrap())
            .collect();
        if recovery == "completed" {
            // The save moved two files and changed two more (see crash.rs).
            assert!(paths.contains(&"assets/Basics/package.xml"), "{recovered}");
        } else {
            assert!(
                !paths.is_empty() && paths.iter().all(|path| path.contains(".ofgui-staged-")),
                "{recovered}"
            );
        }
        assert_eq!(by("lock.takenOver").0, LoggingLevel::Warning);
    }
}

/// Progress goes out only for a request with a token, and always before its result; the
/// raw wire shows the order exactly (rmcp's client gives every request a token).
#[tokio::test]
async fn progress_is_sent_for_a_token_and_before_the_result() {
    let workspace = Workspace::new();
    let first = workspace.add("first", &example_project());
    let second = workspace.add("second", &example_project());
    let mut wire = crate::wire::Wire::start(workspace.path()).await;
    let call = |id: u64, tool: &str, arguments: Value, token: Option<Value>| {
        let mut params = json!({ "name": tool, "arguments": arguments });
        if let Some(token) = token {
            params["_meta"] = json!({ "progressToken": token });
        }
        json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params }).to_string()
    };
    // Everything before the response to `id`, and the response.
    async fn until(wire: &mut crate::wire::Wire, id: u64) -> (Vec<Value>, Value) {
        let mut before = Vec::new();
        loop {
            let message = wire.next().await;
            if message["id"] == id {
                return (before, message);
            }
            before.push(message);
        }
    }
    let steps = |messages: &[Value], token: Value| -> Vec<(f64, f64, String)> {
        messages
            .iter()
            .filter(|m| m["method"] == "notifications/progress")
            .map(|m| {
                assert_eq!(m["params"]["progressToken"], token, "{m}");
                let p = &m["params"];
                (
                    p["progress"].as_f64().unwrap(),
                    p["total"].as_f64().unwrap(),
                    p["message"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };

    wire.send(&call(
        1,
        OPEN,
        json!({ "projectPath": first }),
        Some(json!("open-1")),
    ))
    .await;
    let (before, opened) = until(&mut wire, 1).await;
    let session = opened["result"]["structuredContent"]["backendResult"]["data"]["sessionId"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        steps(&before, json!("open-1")),
        vec![
            (0.0, 2.0, "checking the project path and lock".to_string()),
            (1.0, 2.0, "reading the project".to_string()),
            (2.0, 2.0, "done".to_string()),
        ]
    );

    wire.send(&call(
        2,
        VALIDATE,
        json!({ "sessionId": session }),
        Some(json!("v")),
    ))
    .await;
    let (before, _) = until(&mut wire, 2).await;
    assert_eq!(
        steps(&before, json!("v")),
        vec![
            (0.0, 1.0, "validating the project".to_string()),
            (1.0, 1.0, "done".to_string())
        ]
    );
    // A failed call still ends its progress; a token may be a number.
    wire.send(&call(
        3,
        SAVE,
        json!({ "sessionId": "nope" }),
        Some(json!(7)),
    ))
    .await;
    let (before, _) = until(&mut wire, 3).await;
    assert_eq!(
        steps(&before, json!(7)),
        vec![
            (0.0, 1.0, "saving".to_string()),
            (1.0, 1.0, "failed".to_string())
        ]
    );

    // Without a token: no progress, then or later (the next answer comes first).
    wire.send(&call(4, OPEN, json!({ "projectPath": second }), None))
        .await;
    let (before, _) = until(&mut wire, 4).await;
    wire.send(&json!({ "jsonrpc": "2.0", "id": 5, "method": "tools/list" }).to_string())
        .await;
    let (after, _) = until(&mut wire, 5).await;
    assert!(
        before
            .iter()
            .chain(&after)
            .all(|m| m["method"] != "notifications/progress"),
        "{before:?} {after:?}"
    );
}

const REFRESH_SESSION: &str = "openfairygui_refresh_session";
const EVENTS: &str = "openfairygui_backend_get_events";

/// The editor beside the agent: with unsaved edits to the Basics package, another
/// component of it and its `package.xml` change on disk. The subscriber is told, the
/// save refuses and names refresh, refresh keeps both sides, and the save writes both.
/// Then a change outside removes the node an unsaved batch moves: refresh names the
/// edit and its operation, and nothing is lost until the caller drops it.
#[tokio::test]
async fn outside_edits_are_noticed_and_refresh_merges_them_under_unsaved_edits() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    let recorder = Recorder::default();
    let server = Server::connect(
        &[workspace.path()],
        &[],
        recorder.clone(),
        Lifecycle::Handshake,
    )
    .await;
    let id = server.open(&project).await;
    server
        .client
        .subscribe(SubscribeRequestParams::new(session_uri(&id)))
        .await
        .unwrap();
    let favorite = json!([{ "kind": "setResourceFavorite",
        "selector": { "packageId": "9leh0eyf", "resourceId": "rpmb1" }, "favorite": true }]);
    server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": favorite }),
        )
        .await;
    recorder
        .wait_until("the apply's update", |r| r.updates().len() == 1)
        .await;

    // As the editor would: a 9-grid changed in package.xml, the main component resized.
    let edit = |path: &str, from: &str, to: &str| {
        let file = project.join(path);
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.contains(from), "{path}");
        std::fs::write(&file, text.replacen(from, to, 1)).unwrap();
    };
    edit(
        "assets/Basics/package.xml",
        "scale9grid=\"16,9,32,6\"",
        "scale9grid=\"16,9,32,7\"",
    );
    edit(
        "assets/Basics/Main.xml",
        "size=\"1136,640\"",
        "size=\"1136,641\"",
    );
    recorder
        .wait_until("the outside change's update", |r| r.updates().len() >= 2)
        .await;
    assert_eq!(recorder.updates()[1], session_uri(&id));
    let events = server.ok(EVENTS, json!({ "sessionId": id })).await;
    let mut noticed: Vec<String> = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|event| event["kind"] == "disk.changed")
        .flat_map(|event| event["payload"]["paths"].as_array().unwrap().clone())
        .map(|path| path.as_str().unwrap().to_string())
        .collect();
    noticed.sort();
    noticed.dedup();
    assert_eq!(
        noticed,
        ["assets/Basics/Main.xml", "assets/Basics/package.xml"]
    );

    let refused = server
        .err(SAVE, json!({ "sessionId": id, "expectedRevision": 1 }))
        .await;
    assert_eq!(refused["reason"], "changed_on_disk", "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("openfairygui_refresh_session"),
        "{refused}"
    );
    let (envelope, _) = server
        .call(
            REFRESH_SESSION,
            json!({ "sessionId": id, "expectedRevision": 1 }),
        )
        .await;
    assert_eq!(envelope["ok"], true, "{envelope}");
    assert_eq!(
        (
            envelope["data"]["revision"].clone(),
            envelope["data"]["dirty"].clone()
        ),
        (json!(3), json!(true))
    );
    server
        .ok(SAVE, json!({ "sessionId": id, "expectedRevision": 3 }))
        .await;
    let package = std::fs::read_to_string(project.join("assets/Basics/package.xml")).unwrap();
    assert!(
        package.contains("scale9grid=\"16,9,32,7\""),
        "the outside change stays"
    );
    assert!(
        package
            .contains(r#"<image id="rpmb1" name="VIP_png.png" path="/images/" favorite="true"/>"#),
        "the session's edit is saved"
    );
    let main = std::fs::read_to_string(project.join("assets/Basics/Main.xml")).unwrap();
    assert!(main.contains("size=\"1136,641\""));

    // An unsaved batch whose node goes away outside.
    let nudge = json!([{ "kind": "setDisplayNodeProps",
        "selector": { "packageId": "rbw1tvvv", "componentResourceId": "iitt1", "displayNodeId": "n7" },
        "props": { "position": { "x": 1, "y": 2 } } }]);
    server
        .ok(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 3, "operations": nudge }),
        )
        .await;
    let joystick = project.join("assets/Joystick/Main.xml");
    let text = std::fs::read_to_string(&joystick).unwrap();
    let start = text.find("    <image id=\"n7\"").unwrap();
    let end = start + text[start..].find("</image>\n").unwrap() + "</image>\n".len();
    std::fs::write(&joystick, format!("{}{}", &text[..start], &text[end..])).unwrap();
    let refused = server
        .err(
            REFRESH_SESSION,
            json!({ "sessionId": id, "expectedRevision": 4 }),
        )
        .await;
    assert_eq!(refused["code"], "transaction_unsupported", "{refused}");
    assert_eq!(refused["opIndex"], 0, "{refused}");
    let message = refused["message"].as_str().unwrap();
    assert!(
        message.contains("revision 3") && message.contains("dropRefused"),
        "{message}"
    );
    let session = server.ok(GET, json!({ "sessionId": id })).await;
    assert_eq!(
        (session["revision"].clone(), session["dirty"].clone()),
        (json!(4), json!(true)),
        "nothing is lost"
    );
    let (envelope, _) = server
        .call(
            REFRESH_SESSION,
            json!({ "sessionId": id, "expectedRevision": 4, "dropRefused": true }),
        )
        .await;
    assert_eq!(envelope["ok"], true, "{envelope}");
    assert_eq!(
        (
            envelope["data"]["revision"].clone(),
            envelope["data"]["dirty"].clone()
        ),
        (json!(5), json!(false))
    );
}
