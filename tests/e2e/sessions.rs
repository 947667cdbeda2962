use serde_json::json;

use crate::harness::*;

#[tokio::test]
async fn one_session_per_project_whatever_path_names_it() {
    let workspace = Workspace::new();
    let project = workspace.add("example", &example_project());
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;
    for path in [
        project.clone(),
        project.join("HelloFairy.fairy"),
        workspace.path().join("example/../example"),
        "example".into(),
    ] {
        let error = server.err(OPEN, json!({ "projectPath": path })).await;
        assert_eq!(error["code"], "lock_conflict", "{}", path.display());
        assert_eq!(error["kind"], "in_process_session_exists");
        assert_eq!(error["holderSessionId"], id.as_str());
    }
    server.ok(CLOSE, json!({ "sessionId": id })).await;
    let again = server.open(&project).await;
    assert_ne!(again, id, "a reopened project gets a new session id");
}

#[tokio::test]
async fn the_session_limit_is_enforced_and_freed_by_close() {
    let workspace = Workspace::new();
    let first = workspace.add("a", &example_project());
    let second = workspace.add("b", &example_project());
    let server = Server::start_with(&[workspace.path()], &["--max-sessions", "1"]).await;
    let id = server.open(&first).await;
    let error = server.err(OPEN, json!({ "projectPath": second })).await;
    assert_eq!(error["code"], "session_limit_exceeded");
    assert_eq!(error["maxSessions"], 1);
    server.ok(CLOSE, json!({ "sessionId": id })).await;
    server.open(&second).await;
}

#[tokio::test]
async fn get_session_reports_the_snapshot() {
    let workspace = Workspace::new();
    let project = workspace.add("example", &example_project());
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;
    let (envelope, _) = server.call(GET, json!({ "sessionId": id })).await;
    let data = &envelope["data"];
    assert_eq!(data["sessionId"], id.as_str());
    assert_eq!(data["revision"], 0);
    assert_eq!(data["lastSavedRevision"], 0);
    assert_eq!(
        data["canonicalProjectPath"],
        std::fs::canonicalize(&project).unwrap().to_str().unwrap()
    );
    assert_eq!(data["capabilities"]["contractVersion"], "3.0.0");
    assert_eq!(envelope["meta"]["sessionId"], id.as_str());
    assert_eq!(envelope["meta"]["revision"], 0);
    assert_eq!(envelope["meta"]["stage"], "read");
}

#[tokio::test]
async fn idle_sessions_expire() {
    let workspace = Workspace::new();
    let project = workspace.add("example", &example_project());
    let server = Server::start_with(&[workspace.path()], &["--idle-timeout-secs", "1"]).await;
    let id = server.open(&project).await;
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    let error = server.err(GET, json!({ "sessionId": id })).await;
    assert_eq!(error["code"], "session_not_found");
    // The project is free again.
    server.open(&project).await;
}
