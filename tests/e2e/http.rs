//! `serve --http`: the real binary over Streamable HTTP, driven by the Python SDK's
//! client with three tokens (full, read-only, narrow roots), then stopped with SIGTERM.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::clients::{clients_dir, installed, run};
use crate::harness::*;

const FULL: &str = "full-access-token-0123456789";
const READ_ONLY: &str = "read-only-token-0123456789";
const NARROW: &str = "narrow-roots-token-0123456789";

#[test]
fn tokens_are_tenants_with_their_own_roots_rights_and_sessions() {
    let workspace = Workspace::new();
    let team = workspace.path().join("team");
    let narrow = workspace.path().join("narrow");
    let (a, b, c) = (team.join("a"), team.join("b"), narrow.join("c"));
    for project in [&a, &b, &c] {
        copy_tree(&example_project(), project);
    }
    let tokens = workspace.path().join("tokens.txt");
    std::fs::write(
        &tokens,
        format!(
            "# one tenant per line\n{FULL}\n{READ_ONLY} read-only\n{NARROW} roots={}\n",
            narrow.display()
        ),
    )
    .unwrap();
    let (mut server, addr, rest) = start(&workspace, &tokens, &[]);
    let mut client = Command::new(&installed().python);
    client
        .arg(clients_dir().join("py_http.py"))
        .args(["--url", &format!("http://{addr}/mcp")])
        .args(["--full", FULL, "--read-only", READ_ONLY, "--narrow", NARROW])
        .arg("--project-a")
        .arg(&a)
        .arg("--project-b")
        .arg(&b)
        .arg("--project-c")
        .arg(&c);
    let done = run(client, Duration::from_secs(120));
    assert!(
        done.status.success(),
        "py_http failed ({}):\n{}\n{}",
        done.status,
        done.stdout,
        done.stderr
    );
    assert!(done.stdout.contains("read-only"), "{}", done.stdout);

    // What the tenants did, in /metrics (a loopback server answers it without a token).
    let (status, scrape) = get(&addr, "/metrics", &[]);
    assert_eq!(status, "200", "{scrape}");
    let opened = r#"ofgui_tool_calls_total{tool="openfairygui_backend_open_session",outcome="ok"}"#;
    assert!(
        sample(&scrape, opened).is_some_and(|n| n >= 4.0),
        "{scrape}"
    );
    // The read-only token's refused save.
    let refused =
        r#"ofgui_tool_calls_total{tool="openfairygui_backend_save_session",outcome="error"}"#;
    assert!(
        sample(&scrape, refused).is_some_and(|n| n >= 1.0),
        "{scrape}"
    );
    let timed = r#"ofgui_tool_call_seconds_count{tool="openfairygui_backend_apply_transaction"}"#;
    assert!(sample(&scrape, timed).is_some_and(|n| n >= 2.0), "{scrape}");
    // The read-only and the narrow tenants' sessions are still open.
    assert!(
        sample(&scrape, "ofgui_sessions_open").is_some_and(|n| n >= 1.0),
        "{scrape}"
    );
    // The full token's edit was journaled before it was answered.
    let journaled = sample(&scrape, "ofgui_journal_written_bytes_total");
    assert!(journaled.is_some_and(|n| n > 0.0), "{scrape}");
    // This scrape's own connection is open while it is answered.
    let connections = sample(&scrape, "ofgui_http_connections_open");
    assert!(connections.is_some_and(|n| n >= 1.0), "{scrape}");

    // SIGTERM: the server finishes what is in flight and exits cleanly.
    // SAFETY: `kill` with our own child's pid and a standard signal has no memory effects.
    let sent = unsafe { libc::kill(server.id() as i32, libc::SIGTERM) };
    assert_eq!(sent, 0);
    let status = exited(&mut server);
    let log = rest.join().unwrap();
    assert!(status.success(), "exit {status}:\n{log}");
    // Each request is logged with its tenant, never with its token.
    assert!(
        log.contains("tenant=line 2") || log.contains("tenant=\"line 2\""),
        "{log}"
    );
    for token in [FULL, READ_ONLY, NARROW] {
        assert!(!log.contains(token), "a token reached the log");
    }
    assert!(log.contains("status=401"), "{log}");
}

#[test]
fn only_loopback_serves_without_a_token() {
    let workspace = Workspace::new();
    let output = Command::new(env!("CARGO_BIN_EXE_ofgui-mcp-host"))
        .arg("--project-dir")
        .arg(workspace.path())
        .arg("--cache-dir")
        .arg(cache_dir())
        .args(["serve", "--http", "0.0.0.0:0"])
        .env_remove("OFGUI_AUTH_TOKEN")
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("needs authentication"), "{stderr}");
    assert!(output.stdout.is_empty());
}

/// Starts `serve --http` on a free loopback port with `tokens`; the server, its address
/// and (on a thread) its log after the line that names the address.
fn start(
    workspace: &Workspace,
    tokens: &Path,
    env: &[(&str, &str)],
) -> (Child, String, std::thread::JoinHandle<String>) {
    start_with(workspace, tokens, env, &[])
}

/// [`start`] with more `serve` arguments.
pub(crate) fn start_with(
    workspace: &Workspace,
    tokens: &Path,
    env: &[(&str, &str)],
    args: &[&str],
) -> (Child, String, std::thread::JoinHandle<String>) {
    serve(workspace, Some(tokens), env, args, None)
}

/// Starts `serve --http` on a free port of every interface with `tokens`; its address as
/// the loopback one to reach it by.
fn start_everywhere(
    workspace: &Workspace,
    tokens: &Path,
    args: &[&str],
) -> (Child, String, std::thread::JoinHandle<String>) {
    let (server, addr, log) = serve_at(workspace, "0.0.0.0:0", Some(tokens), &[], args, None);
    let port = addr.rsplit(':').next().unwrap().to_string();
    (server, format!("127.0.0.1:{port}"), log)
}

/// Starts `serve --http` on a free loopback port without tokens (as a person serves their
/// own machine), for clients that send none.
pub(crate) fn start_open(
    workspace: &Workspace,
) -> (Child, String, std::thread::JoinHandle<String>) {
    serve(workspace, None, &[], &[], None)
}

/// [`start`], sending the server SIGTERM when its log shows a line containing `marker`.
fn start_stopping_at(
    workspace: &Workspace,
    tokens: &Path,
    env: &[(&str, &str)],
    marker: &'static str,
) -> (Child, String, std::thread::JoinHandle<String>) {
    serve(workspace, Some(tokens), env, &[], Some(marker))
}

fn serve(
    workspace: &Workspace,
    tokens: Option<&Path>,
    env: &[(&str, &str)],
    args: &[&str],
    stop_at: Option<&'static str>,
) -> (Child, String, std::thread::JoinHandle<String>) {
    serve_at(workspace, "127.0.0.1:0", tokens, env, args, stop_at)
}

fn serve_at(
    workspace: &Workspace,
    at: &str,
    tokens: Option<&Path>,
    env: &[(&str, &str)],
    args: &[&str],
    stop_at: Option<&'static str>,
) -> (Child, String, std::thread::JoinHandle<String>) {
    warm_compile_cache();
    let mut command = Command::new(env!("CARGO_BIN_EXE_ofgui-mcp-host"));
    command
        .arg("--project-dir")
        .arg(workspace.path())
        .arg("--cache-dir")
        .arg(cache_dir())
        .args(["serve", "--http", at]);
    if let Some(tokens) = tokens {
        command.arg("--auth-token-file").arg(tokens);
    }
    let mut server = command
        .args(args)
        .env("OFGUI_LOG", "info")
        .env_remove("OFGUI_AUTH_TOKEN")
        .env_remove("OFGUI_SAVE_FAULT")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the server");
    // The log names the address the server bound (port 0: any free one).
    let mut log = BufReader::new(server.stderr.take().unwrap());
    let mut seen = String::new();
    let addr = loop {
        let mut line = String::new();
        if log.read_line(&mut line).unwrap() == 0 {
            panic!("the server exited before serving:\n{seen}");
        }
        seen.push_str(&line);
        if let Some(rest) = line.split("addr=").nth(1) {
            break rest.split_whitespace().next().unwrap().to_string();
        }
    };
    let pid = server.id();
    let rest = std::thread::spawn(move || {
        let mut text = String::new();
        for line in log.lines() {
            let line = line.unwrap();
            if stop_at.is_some_and(|marker| line.contains(marker)) {
                let sent = Command::new("kill")
                    .args(["-TERM", &pid.to_string()])
                    .status();
                assert!(sent.is_ok_and(|s| s.success()), "SIGTERM not sent");
            }
            text.push_str(&line);
            text.push('\n');
        }
        text
    });
    (server, addr, rest)
}

/// Stops a server as its supervisor would (SIGTERM): how it exited, and its log.
pub(crate) fn stopped(
    mut server: Child,
    log: std::thread::JoinHandle<String>,
) -> (std::process::ExitStatus, String) {
    // SAFETY: `kill` with our own child's pid and a standard signal has no memory effects.
    unsafe { libc::kill(server.id() as i32, libc::SIGTERM) };
    let status = exited(&mut server);
    (status, log.join().unwrap_or_default())
}

/// Waits for the server to exit; its status.
pub(crate) fn exited(server: &mut Child) -> std::process::ExitStatus {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(status) = server.try_wait().unwrap() {
            return status;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the server did not stop on SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_save_in_flight_at_sigterm_finishes_and_leaves_the_project_whole() {
    let workspace = Workspace::new();
    let project = workspace.add("hello", &example_project());
    let tokens = workspace.path().join("tokens.txt");
    std::fs::write(&tokens, format!("{FULL}\n")).unwrap();
    let fault = [("OFGUI_SAVE_FAULT", "prepare-journal:1:pause")];
    // SIGTERM while the fault holds the save: when the log says the save reached it.
    let (mut server, addr, rest) = start_stopping_at(
        &workspace,
        &tokens,
        &fault,
        "ofgui-save-fault: reached prepare-journal#1",
    );
    let mut client = Command::new(&installed().python);
    client
        .arg(clients_dir().join("py_http_stop.py"))
        .args(["--url", &format!("http://{addr}/mcp"), "--token", FULL])
        .arg("--project")
        .arg(&project);
    let done = run(client, Duration::from_secs(120));
    // The client's own failure (it sends the SIGTERM) explains a server still running.
    if !done.status.success() {
        let _ = server.kill();
    }
    let status = exited(&mut server);
    let log = rest.join().unwrap();
    assert!(
        done.status.success(),
        "py_http_stop failed ({}):\n{}\n{}\n{log}",
        done.status,
        done.stdout,
        done.stderr
    );
    assert!(status.success(), "exit {status}:\n{log}");
    assert!(
        log.contains("ofgui-save-fault: reached prepare-journal#1"),
        "{log}"
    );
    let view = std::fs::read_to_string(project.join("assets/Main/MainView.xml")).unwrap();
    assert!(
        view.contains(r#"xy="77,88""#),
        "the save reached the disk:\n{view}"
    );
    let leftovers: Vec<String> = std::fs::read_dir(&project)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".ofgui"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// A GET of `path`: the status and the body.
fn get(addr: &str, path: &str, headers: &[&str]) -> (String, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    let mut request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n");
    for header in headers {
        request.push_str(header);
        request.push_str("\r\n");
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer.split_whitespace().nth(1).unwrap_or_default();
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
    (status.to_string(), body.to_string())
}

/// The value of the sample named exactly `sample` (name and labels) in a scrape.
fn sample(scrape: &str, sample: &str) -> Option<f64> {
    scrape
        .lines()
        .find_map(|line| line.strip_prefix(sample)?.strip_prefix(' ')?.parse().ok())
}

#[test]
fn metrics_need_a_token_off_loopback_unless_told_otherwise() {
    let workspace = Workspace::new();
    let tokens = workspace.path().join("tokens.txt");
    std::fs::write(&tokens, format!("{FULL}\n")).unwrap();
    let bearer = format!("Authorization: Bearer {FULL}");
    let (server, addr, log) = start_everywhere(&workspace, &tokens, &[]);
    assert_eq!(get(&addr, "/metrics", &[]).0, "401");
    let (status, scrape) = get(&addr, "/metrics", &[&bearer]);
    assert_eq!(status, "200");
    assert!(
        scrape.contains("# TYPE ofgui_sessions_open gauge"),
        "{scrape}"
    );
    assert!(stopped(server, log).0.success());
    let (server, addr, log) = start_everywhere(&workspace, &tokens, &["--metrics-without-token"]);
    assert_eq!(get(&addr, "/metrics", &[]).0, "200");
    assert!(stopped(server, log).0.success());
}

/// A SIGTERM sent the moment the server says it serves starts the drain, never kills it:
/// the signal is listened for before that line (it was not, and 4 starts in 30 died).
#[test]
fn a_sigterm_right_after_start_drains_and_exits_cleanly() {
    let workspace = Workspace::new();
    let tokens = workspace.path().join("tokens.txt");
    std::fs::write(&tokens, format!("{FULL}\n")).unwrap();
    for _ in 0..20 {
        let (server, _, log) = start(&workspace, &tokens, &[]);
        let (status, log) = stopped(server, log);
        assert!(status.success(), "exit {status}:\n{log}");
    }
}
