//! The review view's browser door on `serve --http`: an agent edits over HTTP, a person's
//! browser (Debian's headless Chromium) opens the token link, sees the session, its step
//! and the step's pictures, undoes and saves; the agent's next read and the disk show it.
//! And, without a browser, what the door must refuse: a token that is no tenant's, a call
//! from another origin or to another host name, another tenant's session, a read-only
//! token's write.

use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::clients::{clients_dir, installed};
use crate::harness::{Workspace, example_project};
use crate::http::{start_with, stopped};
use crate::over_http::{self, agent};

const WRITER: &str = "review-writer-token-0123456789";
const OTHER: &str = "review-other-tenant-0123456789";
const READER: &str = "review-reader-token-0123456789";

/// An agent's tool call with `token`: the envelope.
fn tool(addr: &str, token: &str, name: &str, arguments: Value) -> Value {
    over_http::call(addr, Some(token), name, arguments)
}

/// A server with the writer's, another tenant's and a read-only token.
fn server(workspace: &Workspace) -> (std::process::Child, String, std::thread::JoinHandle<String>) {
    let tokens = workspace.path().join("tokens.txt");
    std::fs::write(&tokens, format!("{WRITER}\n{OTHER}\n{READER} read-only\n")).unwrap();
    start_with(workspace, &tokens, &[], &[])
}

/// The cookie a token link is traded for, and the redirect's headers.
fn trade(addr: &str, token: &str) -> (u16, String, String) {
    let response = agent()
        .get(format!("http://{addr}/review?token={token}"))
        .call()
        .unwrap();
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .map(|value| value.to_str().unwrap().to_owned())
            .unwrap_or_default()
    };
    (
        response.status().as_u16(),
        header("location"),
        header("set-cookie"),
    )
}

fn cookie_of(set_cookie: &str) -> String {
    set_cookie.split(';').next().unwrap().to_owned()
}

/// A review call: its status and body.
fn review_call(
    addr: &str,
    host: &str,
    cookie: &str,
    origin: Option<&str>,
    call: Value,
) -> (u16, String) {
    let mut request = agent()
        .post(format!("http://{addr}/review/api/call"))
        .header("Host", host)
        .header("Cookie", cookie)
        .header("Content-Type", "application/json");
    if let Some(origin) = origin {
        request = request.header("Origin", origin);
    }
    let response = request.send(call.to_string()).unwrap();
    let status = response.status().as_u16();
    (status, response.into_body().read_to_string().unwrap())
}

#[test]
fn a_person_reviews_undoes_and_saves_an_agents_edit_in_a_real_browser() {
    let workspace = Workspace::new();
    let project = workspace.add("game", &example_project());
    let (server, addr, log) = server(&workspace);
    let (session, node) = over_http::open(&addr, Some(WRITER), &project);
    for (revision, x) in [(0, 11), (1, 22)] {
        let applied = tool(
            &addr,
            WRITER,
            "openfairygui_backend_apply_transaction",
            over_http::move_at(&session, revision, &node, x),
        );
        assert_eq!(applied["ok"], true, "{applied}");
    }

    let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("review-browser.png");
    let output = Command::new(&installed().node)
        .arg(clients_dir().join("review_browser.mjs"))
        .args([
            "--base",
            &format!("http://{addr}"),
            "--token",
            WRITER,
            "--other",
            OTHER,
        ])
        .args(["--session", &session, "--shot"])
        .arg(&shot)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "review_browser.mjs failed ({}); it needs Debian's chromium (tests/run installs it):\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let seen: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        (seen["before"].clone(), seen["afterUndo"].clone()),
        (json!(2), json!(3)),
        "{seen}"
    );
    assert!(seen["state"].as_str().unwrap().contains("game"), "{seen}");
    let steps = seen["steps"].as_array().unwrap();
    assert!(
        steps[0]
            .as_str()
            .unwrap()
            .starts_with("All unsaved edits together"),
        "{seen}"
    );
    assert!(
        steps[1].as_str().unwrap().contains("moved to 22,12"),
        "the newest step in words, with its value: {seen}"
    );
    assert!(
        steps[1]
            .as_str()
            .unwrap()
            .contains("files: assets/Common/components/Button.xml"),
        "the file the step touched: {seen}"
    );
    let diff = seen["diff"].as_str().unwrap();
    assert!(
        diff.contains(".xml") && diff.contains("+") && diff.contains(r#"xy="22,12""#),
        "the diff a save would write: {seen}"
    );
    assert!(
        seen["unsavedCaptions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| !c.as_str().unwrap().contains(": 0 pixel")),
        "every unsaved edit together changed pixels: {seen}"
    );
    assert!(
        seen["pictures"].as_u64().unwrap() >= 3,
        "before, after, changed: {seen}"
    );
    assert!(
        seen["captions"].as_array().unwrap().iter().any(|c| {
            c.as_str().unwrap().contains("pixel(s) changed")
                && !c.as_str().unwrap().contains(": 0 pixel")
        }),
        "the moved node changed pixels: {seen}"
    );
    assert!(
        seen["state"]
            .as_str()
            .unwrap()
            .contains("The edits in validationno finding added or resolved"),
        "what the edits changed in validation: {seen}"
    );
    assert!(
        seen["savedState"]
            .as_str()
            .unwrap()
            .contains("yes, at revision 3"),
        "{seen}"
    );
    assert!(std::fs::metadata(&shot).unwrap().len() > 1000);

    // The agent's next read sees the person's undo, save, redo and discard.
    let state = tool(
        &addr,
        WRITER,
        "openfairygui_backend_get_session",
        json!({ "sessionId": session }),
    );
    assert_eq!(
        (
            state["data"]["revision"].clone(),
            state["data"]["dirty"].clone()
        ),
        (json!(5), json!(false)),
        "{state}"
    );
    // On disk: the first move (x 11), the undone second one not.
    let written = crate::harness::snapshot(&project)
        .into_values()
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .collect::<String>();
    assert!(written.contains("xy=\"11,12\""), "the save landed");
    assert!(!written.contains("xy=\"22,12\""), "the undone move did not");

    let (status, log) = stopped(server, log);
    assert!(status.success());
    assert!(
        !log.contains(WRITER) && !log.contains(OTHER),
        "a token was logged:\n{log}"
    );
}

#[test]
fn the_review_door_refuses_strangers_other_origins_other_tenants_and_read_only_writes() {
    let workspace = Workspace::new();
    let project = workspace.add("game", &example_project());
    let (server, addr, log) = server(&workspace);
    let (session, _) = over_http::open(&addr, Some(WRITER), &project);

    // The token is traded once for a cookie and leaves the address.
    let (status, location, set_cookie) = trade(&addr, WRITER);
    assert_eq!((status, location.as_str()), (303, "/review"));
    for flag in ["HttpOnly", "SameSite=Strict", "Path=/review"] {
        assert!(set_cookie.contains(flag), "{set_cookie}");
    }
    assert!(!set_cookie.contains(WRITER), "the cookie is not the token");
    let writer = cookie_of(&set_cookie);
    assert_eq!(trade(&addr, "not-a-token-of-this-server").0, 401);

    // Without the cookie, nothing; every answer forbids loading from elsewhere and framing.
    for path in ["/review", "/review/api/sessions"] {
        let response = agent().get(format!("http://{addr}{path}")).call().unwrap();
        assert_eq!(response.status().as_u16(), 401, "{path}");
    }
    let page = agent()
        .get(format!("http://{addr}/review"))
        .header("Cookie", &writer)
        .call()
        .unwrap();
    assert_eq!(page.status().as_u16(), 200);
    let csp = page
        .headers()
        .get("content-security-policy")
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    for directive in [
        "default-src 'none'",
        "script-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'none'",
    ] {
        assert!(csp.contains(directive), "{csp}");
    }
    assert_eq!(page.headers().get("x-frame-options").unwrap(), "DENY");

    let get = json!({ "name": "openfairygui_backend_get_session", "arguments": { "sessionId": session } });
    let own = format!("http://{addr}");
    let (status, body) = review_call(&addr, &addr, &writer, Some(&own), get.clone());
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(r#"\"ok\":true"#), "{body}");
    // A page of another site (its form or script) is refused, with or without an Origin.
    assert_eq!(
        review_call(
            &addr,
            &addr,
            &writer,
            Some("http://evil.example"),
            get.clone()
        )
        .0,
        403
    );
    assert_eq!(review_call(&addr, &addr, &writer, None, get.clone()).0, 403);
    // A name pointed at this server by another site (DNS rebinding) is no name it answers to.
    let rebound = format!("evil.example:{}", addr.rsplit(':').next().unwrap());
    let (status, _) = review_call(
        &addr,
        &rebound,
        &writer,
        Some(&format!("http://{rebound}")),
        get.clone(),
    );
    assert_eq!(status, 401);

    // Another tenant sees none of the first's sessions, and cannot read one by its id.
    let other = cookie_of(&trade(&addr, OTHER).2);
    let listed = agent()
        .get(format!("http://{addr}/review/api/sessions"))
        .header("Cookie", &other)
        .call()
        .unwrap()
        .into_body()
        .read_to_string()
        .unwrap();
    assert_eq!(listed, r#"{"readOnly":false,"sessions":[]}"#);
    let (_, body) = review_call(&addr, &addr, &other, Some(&own), get.clone());
    assert!(body.contains("session_not_found"), "{body}");

    // A client without MCP Apps is told where the page is, never with a token in it.
    let reviewed = over_http::answer(
        &addr,
        Some(WRITER),
        "openfairygui_review",
        json!({ "sessionId": session }),
    );
    let words = reviewed["result"]["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|block| block["text"].as_str())
        .collect::<String>();
    assert!(
        words.contains(&format!("http://{addr}/review/{session}")),
        "{reviewed}"
    );
    assert!(!words.contains(WRITER), "{words}");

    // Writes waiting for approval: a token's own, from the page's own origin only; this
    // server asks for none.
    let approvals = |cookie: &str, origin: &str| {
        let response = agent()
            .post(format!("http://{addr}/review/api/approvals"))
            .header("Cookie", cookie)
            .header("Origin", origin)
            .header("Content-Type", "application/json")
            .send(r#"{"id":1,"approve":true}"#)
            .unwrap();
        response.status().as_u16()
    };
    assert_eq!(approvals(&writer, "http://evil.example"), 403);
    assert_eq!(approvals("ofgui-review=forged", &own), 401);
    assert_eq!(
        approvals(&writer, &own),
        404,
        "no --confirm-writes, nothing to answer"
    );
    let listed = agent()
        .get(format!("http://{addr}/review/api/approvals"))
        .call()
        .unwrap();
    assert_eq!(listed.status().as_u16(), 401);

    // A read-only token's page is told so, and its writes are refused.
    let reader = cookie_of(&trade(&addr, READER).2);
    let undo = json!({ "name": "openfairygui_undo", "arguments": { "sessionId": session, "expectedRevision": 0 } });
    let (_, body) = review_call(&addr, &addr, &reader, Some(&own), undo);
    assert!(body.contains("read_only_token"), "{body}");

    let (status, log) = stopped(server, log);
    assert!(status.success());
    assert!(!log.contains(WRITER), "a token was logged:\n{log}");
}

/// With `--confirm-writes`, an agent's save waits for the person on the review page: the
/// page shows the question and the diff; approved, the save lands and the agent's call
/// answers with it; refused, nothing is written and the call says so; unanswered past
/// `--confirm-within`, the call is refused as timed out. The limit's edges on the command
/// line too.
#[test]
fn a_write_waits_for_the_persons_approval_on_the_review_page() {
    let workspace = Workspace::new();
    let project = workspace.add("game", &example_project());
    let tokens = workspace.path().join("tokens.txt");
    std::fs::write(&tokens, format!("{WRITER}\n")).unwrap();
    let (server, addr, log) = start_with(
        &workspace,
        &tokens,
        &[],
        &["--confirm-writes", "--confirm-within", "60"],
    );
    let (session, node) = over_http::open(&addr, Some(WRITER), &project);
    let person = |answer: &str, shot: Option<&std::path::Path>| {
        let mut command = Command::new(&installed().node);
        command
            .arg(clients_dir().join("review_approve.mjs"))
            .args(["--base", &format!("http://{addr}"), "--token", WRITER])
            .args(["--session", &session, "--answer", answer]);
        if let Some(shot) = shot {
            command.arg("--shot").arg(shot);
        }
        let output = command.stdin(Stdio::null()).output().unwrap();
        assert!(
            output.status.success(),
            "review_approve.mjs failed ({}):\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice::<Value>(&output.stdout).unwrap()
    };
    let save_waiting = |revision: u64| {
        let (addr, session) = (addr.clone(), session.clone());
        std::thread::spawn(move || {
            tool(
                &addr,
                WRITER,
                "openfairygui_backend_save_session",
                json!({ "sessionId": session, "expectedRevision": revision }),
            )
        })
    };

    let applied = tool(
        &addr,
        WRITER,
        "openfairygui_backend_apply_transaction",
        over_http::move_at(&session, 0, &node, 33),
    );
    assert_eq!(applied["ok"], true, "{applied}");
    let saving = save_waiting(1);
    let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("review-approval.png");
    let seen = person("approve", Some(&shot));
    assert!(
        seen["question"].as_str().unwrap().contains("save 1 file"),
        "{seen}"
    );
    assert!(
        seen["diff"].as_str().unwrap().contains(r#"xy="33,12""#),
        "{seen}"
    );
    let saved = saving.join().unwrap();
    assert_eq!(saved["ok"], true, "approved, the save lands: {saved}");
    let on_disk = || {
        crate::harness::snapshot(&project)
            .into_values()
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
            .collect::<String>()
    };
    assert!(on_disk().contains(r#"xy="33,12""#));

    let applied = tool(
        &addr,
        WRITER,
        "openfairygui_backend_apply_transaction",
        over_http::move_at(&session, 1, &node, 44),
    );
    assert_eq!(applied["ok"], true, "{applied}");
    let saving = save_waiting(2);
    person("refuse", None);
    let refused = saving.join().unwrap();
    assert_eq!(refused["error"]["code"], "write_not_confirmed", "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("refused the write on the review page"),
        "{refused}"
    );
    assert!(
        !on_disk().contains(r#"xy="44,12""#),
        "refused, nothing written"
    );
    // The person's own Save on the page is their answer: it is not asked about again.
    let cookie = cookie_of(&trade(&addr, WRITER).2);
    let save = json!({ "name": "openfairygui_backend_save_session", "arguments": { "sessionId": session, "expectedRevision": 2 } });
    let (status, body) = review_call(&addr, &addr, &cookie, Some(&format!("http://{addr}")), save);
    assert!(status == 200 && body.contains(r#"\"ok\":true"#), "{body}");
    assert!(
        on_disk().contains(r#"xy="44,12""#),
        "the page's save landed"
    );
    assert!(stopped(server, log).0.success());

    // One second to answer, and no one does.
    let (server, addr, log) = start_with(
        &workspace,
        &tokens,
        &[],
        &["--confirm-writes", "--confirm-within", "1"],
    );
    let (session, node) = over_http::open(&addr, Some(WRITER), &project);
    let applied = tool(
        &addr,
        WRITER,
        "openfairygui_backend_apply_transaction",
        over_http::move_at(&session, 0, &node, 55),
    );
    assert_eq!(applied["ok"], true, "{applied}");
    let started = std::time::Instant::now();
    let timed_out = tool(
        &addr,
        WRITER,
        "openfairygui_backend_save_session",
        json!({ "sessionId": session, "expectedRevision": 1 }),
    );
    assert_eq!(
        timed_out["error"]["code"], "confirmation_timed_out",
        "{timed_out}"
    );
    assert!(started.elapsed() >= std::time::Duration::from_secs(1));
    assert!(!on_disk().contains(r#"xy="55,12""#));
    assert!(stopped(server, log).0.success());

    // The limit's edges: 1 second to a day.
    for (value, accepted) in [("0", false), ("1", true), ("86400", true), ("86401", false)] {
        let output = Command::new(env!("CARGO_BIN_EXE_ofgui-mcp-host"))
            .args(["--cache-dir"])
            .arg(crate::harness::cache_dir())
            .args(["--confirm-writes", "--confirm-within", value, "validate"])
            .arg(&project)
            .output()
            .unwrap();
        assert_eq!(
            output.status.success(),
            accepted,
            "--confirm-within {value}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// The same view as an MCP App: a minimal host page on the official host-side bridge
/// (`AppBridge`, @modelcontextprotocol/ext-apps) in headless Chromium frames the
/// `ui://` resource the tool names, and the view draws the session and undoes through the
/// bridge, which the agent's next read sees.
#[test]
fn the_review_view_works_as_an_mcp_app_through_the_official_bridge() {
    let workspace = Workspace::new();
    let project = workspace.add("game", &example_project());
    let (server, addr, log) = server(&workspace);
    let (session, node) = over_http::open(&addr, Some(WRITER), &project);
    let applied = tool(
        &addr,
        WRITER,
        "openfairygui_backend_apply_transaction",
        over_http::move_at(&session, 0, &node, 30),
    );
    assert_eq!(applied["ok"], true, "{applied}");

    let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("review-app.png");
    let output = Command::new(&installed().node)
        .arg(clients_dir().join("review_app.mjs"))
        .args(["--url", &format!("http://{addr}/mcp"), "--token", WRITER])
        .args(["--session", &session, "--shot"])
        .arg(&shot)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "review_app.mjs failed ({}):\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let seen: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(seen["loaded"], "revision 1", "{seen}");
    assert!(
        seen["steps"][1]
            .as_str()
            .unwrap()
            .contains("moved to 30,12"),
        "{seen}"
    );
    assert_eq!(seen["revisionAfterUndo"], 2, "{seen}");
    // Every call the view made went through the bridge to the server's tools.
    let calls = seen["viewCalls"].as_array().unwrap();
    for tool in [
        "openfairygui_review",
        "openfairygui_render_component",
        "openfairygui_undo",
    ] {
        assert!(calls.contains(&json!(tool)), "{seen}");
    }
    let state = tool(
        &addr,
        WRITER,
        "openfairygui_backend_get_session",
        json!({ "sessionId": session }),
    );
    assert_eq!(state["data"]["revision"], 2, "{state}");
    assert!(stopped(server, log).0.success());
}

/// `ofgui-mcp-host review <project>`: a person looks at a project without an agent. It
/// opens the project, serves the view on a loopback port and prints a link that works
/// once; its cookie then shows that session. Any other address is refused.
#[test]
fn the_review_command_prints_a_link_that_works_once() {
    use std::io::BufRead;
    let workspace = Workspace::new();
    let project = workspace.add("game", &example_project());
    let refused = Command::new(env!("CARGO_BIN_EXE_ofgui-mcp-host"))
        .args(["--cache-dir"])
        .arg(crate::harness::cache_dir())
        .arg("review")
        .arg(&project)
        .args(["--listen", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("loopback address only"));

    crate::harness::warm_compile_cache();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ofgui-mcp-host"))
        .args(["--cache-dir"])
        .arg(crate::harness::cache_dir())
        .arg("review")
        .arg(&project)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    stdout.read_line(&mut line).unwrap();
    let link = line
        .split_whitespace()
        .find(|word| word.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no link in {line:?}"))
        .to_owned();
    assert!(line.contains("game"), "{line}");
    let first = agent().get(&link).call().unwrap();
    assert_eq!(first.status().as_u16(), 303);
    let cookie = cookie_of(first.headers().get("set-cookie").unwrap().to_str().unwrap());
    let again = agent().get(&link).call().unwrap();
    assert_eq!(again.status().as_u16(), 401, "the link works once");
    let addr = link
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap()
        .to_owned();
    let listed = agent()
        .get(format!("http://{addr}/review/api/sessions"))
        .header("Cookie", &cookie)
        .call()
        .unwrap()
        .into_body()
        .read_to_string()
        .unwrap();
    let session = link
        .split("/review/")
        .nth(1)
        .unwrap()
        .split('?')
        .next()
        .unwrap();
    assert!(listed.contains(session), "{listed}");
    child.kill().unwrap();
    child.wait().unwrap();
    drop(stdout);
}
