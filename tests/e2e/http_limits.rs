//! `serve --http` against clients that misbehave, spoken to as raw TCP: headers or a body
//! that never finish, too many connections, SIGTERM while one stalls, bodies that are not
//! JSON-RPC, two tokens in one request, and a huge `initialize` that must not reach the log.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use crate::harness::*;
use crate::http::{exited, start_with, stopped};

const TOKEN: &str = "limits-token-0123456789";

/// A server with one token and `args`; its address and log.
fn server(
    workspace: &Workspace,
    args: &[&str],
) -> (std::process::Child, String, std::thread::JoinHandle<String>) {
    let tokens = workspace.path().join("tokens.txt");
    std::fs::write(&tokens, format!("{TOKEN}\n")).unwrap();
    start_with(workspace, &tokens, &[], args)
}

fn connect(addr: &str) -> TcpStream {
    let stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream
}

/// Everything the server sends until it closes the connection (or 30 s pass).
fn read_all(stream: &mut TcpStream) -> String {
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

/// One request on its own connection (`Connection: close`): the whole answer.
fn exchange(addr: &str, method: &str, path: &str, headers: &[&str], body: &str) -> String {
    let mut stream = connect(addr);
    let mut request =
        format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
    for header in headers {
        request.push_str(header);
        request.push_str("\r\n");
    }
    request.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    stream.write_all(request.as_bytes()).unwrap();
    read_all(&mut stream)
}

const MCP_HEADERS: [&str; 3] = [
    "Authorization: Bearer limits-token-0123456789",
    "Content-Type: application/json",
    "Accept: application/json, text/event-stream",
];

fn initialize(experimental: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-06-18","capabilities":{{"experimental":{{"blob":{{"x":"{experimental}"}}}}}},"clientInfo":{{"name":"raw","version":"1"}}}}}}"#
    )
}

fn status(answer: &str) -> &str {
    answer.split_whitespace().nth(1).unwrap_or("none")
}

/// The JSON-RPC error of an answer's body.
fn rpc_error(answer: &str) -> serde_json::Value {
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
    let body: serde_json::Value = serde_json::from_str(body.trim())
        .unwrap_or_else(|e| panic!("not a JSON body ({e}): {answer}"));
    assert_eq!(body["jsonrpc"], "2.0", "{answer}");
    body["error"].clone()
}

#[test]
fn stalled_headers_and_bodies_are_cut_off_and_bad_bodies_get_json_rpc_errors() {
    let workspace = Workspace::new();
    let (server, addr, log) = server(
        &workspace,
        &["--header-timeout-secs", "1", "--body-timeout-secs", "1"],
    );

    // Headers that never end: the connection is closed, without an answer.
    let mut stalled = connect(&addr);
    stalled
        .write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .unwrap();
    let started = Instant::now();
    let answer = read_all(&mut stalled);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "a stalled header held its connection"
    );
    assert!(!answer.starts_with("HTTP/1.1 200"), "{answer}");

    // A body that stops halfway: 408 with a JSON-RPC error, and the connection closed.
    let mut stalled = connect(&addr);
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n{}\r\nContent-Length: 100\r\n\r\n{{\"jsonrpc\"",
        MCP_HEADERS.join("\r\n")
    );
    stalled.write_all(head.as_bytes()).unwrap();
    let answer = read_all(&mut stalled);
    assert_eq!(status(&answer), "408", "{answer}");
    assert_eq!(rpc_error(&answer)["code"], -32600, "{answer}");

    // Bodies that are not one JSON-RPC object.
    for (body, code) in [
        ("not json", -32700),
        ("NaN", -32700),
        ("[]", -32600),
        ("[1]", -32600),
    ] {
        let answer = exchange(&addr, "POST", "/mcp", &MCP_HEADERS, body);
        assert_eq!(status(&answer), "400", "{body}: {answer}");
        assert_eq!(rpc_error(&answer)["code"], code, "{body}: {answer}");
    }

    // Two Authorization headers: refused; the scheme in any case: accepted.
    let mut two = MCP_HEADERS.to_vec();
    two.push("Authorization: Bearer someone-else-0123456789");
    let answer = exchange(&addr, "POST", "/mcp", &two, &initialize("x"));
    assert_eq!(status(&answer), "400", "{answer}");
    let mut lower = MCP_HEADERS.to_vec();
    lower[0] = "Authorization: bearer limits-token-0123456789";
    let answer = exchange(&addr, "POST", "/mcp", &lower, &initialize("x"));
    assert_eq!(status(&answer), "200", "{answer}");

    // 5 MiB: more than the MCP library's own default limit, less than stdio's.
    let big = initialize(&"x".repeat(5 << 20));
    let answer = exchange(&addr, "POST", "/mcp", &MCP_HEADERS, &big);
    assert_eq!(status(&answer), "200", "5 MiB is under the default limit");

    assert!(stopped(server, log).0.success());
}

#[test]
fn the_body_limit_is_a_flag_and_answered_in_json_rpc() {
    let workspace = Workspace::new();
    let (server, addr, log) = server(&workspace, &["--max-body-mib", "1"]);
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"ping","pad":"{}"}}"#,
        "x".repeat(1 << 20)
    );
    let answer = exchange(&addr, "POST", "/mcp", &MCP_HEADERS, &big);
    assert_eq!(status(&answer), "413", "{answer}");
    let error = rpc_error(&answer);
    assert_eq!(error["code"], -32600);
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("--max-body-mib"),
        "{error}"
    );
    assert!(stopped(server, log).0.success());
}

#[test]
fn connections_are_capped_per_address() {
    let workspace = Workspace::new();
    let (server, addr, log) = server(
        &workspace,
        &[
            "--max-connections-per-ip",
            "2",
            "--header-timeout-secs",
            "60",
        ],
    );
    // Two connections that say nothing hold both places.
    let held: Vec<TcpStream> = (0..2).map(|_| connect(&addr)).collect();
    std::thread::sleep(Duration::from_millis(300));
    // A third from the same address is closed at once, unanswered.
    let mut third = connect(&addr);
    let _ = third.write_all(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    let answer = read_all(&mut third);
    assert!(answer.is_empty(), "a third connection was served: {answer}");
    // A place is free again once one closes.
    drop(held);
    std::thread::sleep(Duration::from_millis(300));
    let answer = exchange(&addr, "GET", "/healthz", &[], "");
    assert_eq!(status(&answer), "200", "{answer}");
    assert!(stopped(server, log).0.success());
}

#[test]
fn a_drain_ends_by_its_deadline_and_readyz_says_draining() {
    let workspace = Workspace::new();
    let (mut server, addr, log) = server(
        &workspace,
        &["--drain-secs", "3", "--header-timeout-secs", "120"],
    );
    let answer = exchange(&addr, "GET", "/readyz", &[], "");
    assert_eq!(status(&answer), "200", "{answer}");
    // A connection that never finishes its headers stays open through the drain.
    let mut stalled = connect(&addr);
    stalled.write_all(b"GET /mcp HTTP/1.1\r\n").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let stopped = Instant::now();
    // SAFETY: as above.
    unsafe { libc::kill(server.id() as i32, libc::SIGTERM) };
    std::thread::sleep(Duration::from_millis(300));
    let answer = exchange(&addr, "GET", "/readyz", &[], "");
    assert_eq!(status(&answer), "503", "readyz while draining: {answer}");
    assert!(answer.contains("draining"), "{answer}");
    let status = exited(&mut server);
    assert!(status.success(), "{status}");
    assert!(
        stopped.elapsed() < Duration::from_secs(15),
        "the drain outlived its deadline"
    );
    let log = log.join().unwrap();
    assert!(log.contains("deadline"), "{log}");
    drop(stalled);
}

#[test]
fn client_payloads_stay_out_of_the_log_at_info() {
    let workspace = Workspace::new();
    let (mut server, addr, log) = server(&workspace, &[]);
    let marker = "client-payload-marker-";
    let payload = format!("{marker}{}", "y".repeat(1 << 20));
    let answer = exchange(&addr, "POST", "/mcp", &MCP_HEADERS, &initialize(&payload));
    assert_eq!(
        status(&answer),
        "200",
        "{}",
        &answer[..answer.len().min(500)]
    );
    // Within the session: a tool name and a session id that are payloads, not names.
    let session = format!("Mcp-Session-Id: {}", session_id(&answer).unwrap());
    let mut headers = MCP_HEADERS.to_vec();
    headers.push(&session);
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    exchange(&addr, "POST", "/mcp", &headers, initialized);
    let call = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"{payload}","arguments":{{"sessionId":"{payload}"}}}}}}"#
    );
    let answer = exchange(&addr, "POST", "/mcp", &headers, &call);
    assert_eq!(
        status(&answer),
        "200",
        "{}",
        &answer[..answer.len().min(500)]
    );
    assert!(
        answer.contains("unknown_tool"),
        "{}",
        &answer[..answer.len().min(500)]
    );
    assert!(
        answer.len() < 20_000,
        "the refusal echoed the whole name back"
    );
    // SAFETY: as above.
    unsafe { libc::kill(server.id() as i32, libc::SIGTERM) };
    assert!(exited(&mut server).success());
    let log = log.join().unwrap();
    assert!(!log.contains(marker), "a client's payload reached the log");
    let longest = log.lines().map(str::len).max().unwrap_or(0);
    assert!(longest < 2_000, "a log line of {longest} characters");
    assert!(
        log.contains("mcp request"),
        "the request itself is logged: {log}"
    );
}

/// The `Mcp-Session-Id` an answer sets.
fn session_id(answer: &str) -> Option<String> {
    answer.split("\r\n\r\n").next()?.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("mcp-session-id")
            .then(|| value.trim().to_string())
    })
}

#[test]
fn a_token_holds_a_bounded_number_of_mcp_sessions() {
    let workspace = Workspace::new();
    let (server, addr, log) = server(&workspace, &[]);
    let mut opened = Vec::new();
    let mut refused = 0;
    for _ in 0..1_000 {
        let answer = exchange(&addr, "POST", "/mcp", &MCP_HEADERS, &initialize("x"));
        match status(&answer) {
            "200" => opened.push(session_id(&answer).expect("a session id")),
            "429" => {
                let error = rpc_error(&answer);
                assert!(
                    error["message"]
                        .as_str()
                        .unwrap()
                        .contains("--max-mcp-sessions"),
                    "{error}"
                );
                refused += 1;
            }
            other => panic!("initialize answered {other}: {answer}"),
        }
    }
    assert_eq!(opened.len(), 64, "the default cap");
    assert_eq!(refused, 1_000 - 64);

    // Ending a session frees its place; a session the token does not hold is not found.
    let auth = MCP_HEADERS[0];
    for id in &opened {
        let header = format!("Mcp-Session-Id: {id}");
        let answer = exchange(&addr, "DELETE", "/mcp", &[auth, &header], "");
        assert!(answer.starts_with("HTTP/1.1 2"), "{answer}");
    }
    let unknown = "Mcp-Session-Id: 00000000-0000-0000-0000-000000000000";
    let answer = exchange(&addr, "DELETE", "/mcp", &[auth, unknown], "");
    assert_eq!(status(&answer), "404", "{answer}");
    let answer = exchange(&addr, "POST", "/mcp", &MCP_HEADERS, &initialize("x"));
    assert_eq!(status(&answer), "200", "{answer}");

    assert!(stopped(server, log).0.success());
}

#[test]
fn an_allowed_origin_matches_its_scheme_host_and_port_exactly() {
    let workspace = Workspace::new();
    let (server, addr, log) = server(&workspace, &["--allowed-origin", "https://app.example.com"]);
    let with_origin = |origin: &str| {
        let header = format!("Origin: {origin}");
        let mut headers = MCP_HEADERS.to_vec();
        headers.push(&header);
        status(&exchange(&addr, "POST", "/mcp", &headers, &initialize("x"))).to_string()
    };
    assert_eq!(with_origin("https://app.example.com"), "200");
    assert_eq!(with_origin("https://app.example.com:443"), "200");
    assert_eq!(with_origin("https://app.example.com:8443"), "403");
    assert_eq!(with_origin("http://app.example.com"), "403");
    assert_eq!(with_origin("https://evil.example.com"), "403");
    // A loopback server's own origin, on its own port only: a DNS-rebinding page names
    // its own host, or another port.
    let port = addr.rsplit(':').next().unwrap();
    assert_eq!(with_origin(&format!("http://127.0.0.1:{port}")), "200");
    assert_eq!(with_origin(&format!("http://localhost:{port}")), "200");
    assert_eq!(with_origin("http://localhost:1"), "403");
    assert_eq!(
        with_origin(&format!("http://rebound.example.com:{port}")),
        "403"
    );
    assert!(stopped(server, log).0.success());
}

/// Under MCP 2026-07-28 the methods that revision removed are not found (HTTP 404,
/// -32601) whatever their params say; a legacy client's initialize still works.
#[test]
fn methods_2026_07_28_removed_are_not_found() {
    let workspace = Workspace::new();
    let (server, addr, log) = server(&workspace, &[]);
    let mut headers = MCP_HEADERS.to_vec();
    headers.push("MCP-Protocol-Version: 2026-07-28");
    let meta = r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}"#;
    for (id, method) in [
        (11, "initialize"),
        (12, "logging/setLevel"),
        (13, "resources/subscribe"),
        (14, "resources/unsubscribe"),
    ] {
        let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{meta}}}"#);
        let answer = exchange(&addr, "POST", "/mcp", &headers, &body);
        assert_eq!(status(&answer), "404", "{method}: {answer}");
        let error = rpc_error(&answer);
        assert_eq!(error["code"], -32601, "{method}: {answer}");
        let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
        assert!(
            body.contains(&format!(r#""id":{id}"#)),
            "{method}: {answer}"
        );
    }
    // Without the header, initialize is the legacy handshake it always was.
    let answer = exchange(&addr, "POST", "/mcp", &MCP_HEADERS, &initialize("x"));
    assert_eq!(status(&answer), "200", "{answer}");
    assert!(stopped(server, log).0.success());
}
