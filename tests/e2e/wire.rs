//! The raw stdio wire: every request line gets an answer, even one that is not JSON, holds
//! a number no double can carry, or is too long to read, and the server keeps serving.

use std::process::Stdio;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use crate::harness::*;

/// The server spoken to line by line, without an MCP client in between.
pub(crate) struct Wire {
    _child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Wire {
    pub(crate) async fn start(root: &std::path::Path) -> Wire {
        tokio::task::spawn_blocking(warm_compile_cache)
            .await
            .unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_ofgui-mcp-host"))
            .arg("--project-dir")
            .arg(root)
            .arg("--cache-dir")
            .arg(cache_dir())
            .env("OFGUI_LOG", "error")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let mut wire = Wire {
            stdin: child.stdin.take().unwrap(),
            stdout: BufReader::new(child.stdout.take().unwrap()),
            _child: child,
        };
        wire.send(&json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "wire", "version": "0" } } })
        .to_string())
        .await;
        assert_eq!(wire.next().await["id"], 0);
        wire.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        wire
    }

    pub(crate) async fn send(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).await.unwrap();
        self.stdin.write_all(b"\n").await.unwrap();
        self.stdin.flush().await.unwrap();
    }

    /// The next message, waiting at most 60 s (an unanswered request is a failure, not
    /// a hang).
    pub(crate) async fn next(&mut self) -> Value {
        let mut line = String::new();
        let read = tokio::time::timeout(
            std::time::Duration::from_secs(60),
            self.stdout.read_line(&mut line),
        )
        .await
        .expect("the server answers")
        .unwrap();
        assert!(read > 0, "the server closed stdout");
        serde_json::from_str(&line).expect("the server writes JSON lines")
    }

    /// A working request still works: the server kept serving.
    async fn still_serving(&mut self, id: u64) {
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": "tools/list" }).to_string())
            .await;
        let answer = self.next().await;
        assert_eq!(answer["id"], id, "{answer}");
        assert!(answer["result"]["tools"].is_array(), "{answer}");
    }
}

fn error_of(answer: &Value) -> (Value, i64) {
    (
        answer["id"].clone(),
        answer["error"]["code"].as_i64().unwrap_or(0),
    )
}

#[tokio::test]
async fn every_broken_request_gets_an_answer_and_the_server_keeps_serving() {
    let workspace = Workspace::new();
    let mut wire = Wire::start(workspace.path()).await;
    let cases = [
        ("Infinity", Value::Null, -32700_i64),
        (
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/list""#,
            json!(5),
            -32700,
        ),
        (
            r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"openfairygui_backend_get_session","arguments":{"sessionId":"s","n":1e999}}}"#,
            json!(6),
            -32700,
        ),
        (
            r#"{"jsonrpc":"2.0","id":"seven","method":"tools/call","params":{"name":"x","arguments":{"n":NaN}}}"#,
            json!("seven"),
            -32700,
        ),
        (r#"{"jsonrpc":"2.0","id":8}"#, json!(8), -32600),
        (
            r#"{"jsonrpc":"2.0","id":11,"method":"no/such/method"}"#,
            json!(11),
            -32601,
        ),
        (r#"[1, 2"#, Value::Null, -32700),
        // One of MCP's own methods without its params, or with params of another shape.
        (
            r#"{"jsonrpc":"2.0","id":12,"method":"tools/call"}"#,
            json!(12),
            -32602,
        ),
        (
            r#"{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":5}}"#,
            json!(13),
            -32602,
        ),
        (
            r#"{"jsonrpc":"2.0","id":14,"method":"resources/read","params":{}}"#,
            json!(14),
            -32602,
        ),
    ];
    for (index, (line, id, code)) in cases.into_iter().enumerate() {
        wire.send(line).await;
        let answer = wire.next().await;
        assert_eq!(error_of(&answer), (id, code), "{line}: {answer}");
        if code != -32601 {
            let message = answer["error"]["message"].as_str().unwrap().to_lowercase();
            assert!(message.contains("nothing was done"), "{answer}");
        }
        wire.still_serving(100 + index as u64).await;
    }

    // A malformed notification is not answered (JSON-RPC forbids it): the next line out
    // is the answer to the next request.
    wire.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized","params":5}"#)
        .await;
    wire.still_serving(200).await;
}

#[tokio::test]
async fn a_line_too_long_to_read_is_refused_with_its_id() {
    let workspace = Workspace::new();
    let mut wire = Wire::start(workspace.path()).await;
    let padding = "x".repeat(ofgui_host::transport::stdio::MAX_LINE_BYTES);
    wire.send(&format!(
        r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{{"name":"{OPEN}","arguments":{{"projectPath":"{padding}"}}}}}}"#
    ))
    .await;
    let answer = wire.next().await;
    assert_eq!(error_of(&answer), (json!(9), -32600), "{answer}");
    wire.still_serving(10).await;
}
