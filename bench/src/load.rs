//! The load test: [`CLIENTS`] agents at once, each on its own copy of a project, each
//! opening it and running [`ROUNDS`] rounds of read (outline), apply (move one node) and
//! save, then closing. Over Streamable HTTP they share one server, a token each; over
//! stdio each has its own server process, as stdio clients do. Figures, not a timed test.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Barrier, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use crate::{Client, Probe, copy_tree, ms, peak_rss_kb, spawn};

pub const CLIENTS: usize = 32;
pub const ROUNDS: u64 = 10;

/// What a client sends tools over.
pub(crate) trait Transport {
    /// Calls a tool and returns its envelope and how long the call took.
    fn tool(&mut self, name: &str, arguments: Value) -> Result<(Value, Duration)>;

    /// The peak RSS of a server this client alone uses (0 for a shared one).
    fn peak_rss_kb(&self) -> u64 {
        0
    }
}

impl Transport for Client {
    fn tool(&mut self, name: &str, arguments: Value) -> Result<(Value, Duration)> {
        self.envelope(name, arguments)
    }

    fn peak_rss_kb(&self) -> u64 {
        peak_rss_kb(self.child.id())
    }
}

/// Latencies per method, and the calls that failed.
#[derive(Default)]
struct Tally {
    times: BTreeMap<&'static str, Vec<Duration>>,
    errors: Vec<String>,
    /// The client's server process's peak RSS (stdio), summed over clients.
    rss_kb: u64,
}

impl Tally {
    fn merge(&mut self, other: Tally) {
        for (method, times) in other.times {
            self.times.entry(method).or_default().extend(times);
        }
        self.errors.extend(other.errors);
        self.rss_kb += other.rss_kb;
    }

    fn calls(&self) -> usize {
        self.times.values().map(Vec::len).sum::<usize>() + self.errors.len()
    }

    fn quantile(&self, method: &str, q: f64) -> Duration {
        let mut times = self.times.get(method).cloned().unwrap_or_default();
        if times.is_empty() {
            return Duration::ZERO;
        }
        times.sort();
        times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1]
    }
}

/// One agent's work on `project`.
fn workload(transport: &mut dyn Transport, project: &Path, probe: &Probe) -> Tally {
    let mut tally = Tally::default();
    let mut call =
        |tally: &mut Tally, method: &'static str, tool: &str, arguments: Value| match transport
            .tool(tool, arguments)
        {
            Ok((envelope, elapsed)) if envelope["ok"] == json!(true) => {
                tally.times.entry(method).or_default().push(elapsed);
                Some(envelope["data"].clone())
            }
            Ok((envelope, _)) => {
                tally
                    .errors
                    .push(format!("{method}: {}", envelope["error"]));
                None
            }
            Err(error) => {
                tally.errors.push(format!("{method}: {error:#}"));
                None
            }
        };
    let Some(opened) = call(
        &mut tally,
        "open",
        "openfairygui_backend_open_session",
        json!({ "projectPath": project }),
    ) else {
        return tally;
    };
    let id = opened["sessionId"].clone();
    for round in 0..ROUNDS {
        call(
            &mut tally,
            "outline",
            "openfairygui_backend_get_project_outline",
            json!({ "sessionId": id, "scope": { "packageIds": [probe.package_id] } }),
        );
        let edit = json!([{
            "kind": "setDisplayNodeProps",
            "selector": { "packageId": probe.package_id, "componentResourceId": probe.component_id, "displayNodeId": probe.node_id },
            "props": { "position": { "x": 100 + round, "y": 34 } }
        }]);
        call(
            &mut tally,
            "apply",
            "openfairygui_backend_apply_transaction",
            json!({ "sessionId": id, "expectedRevision": round, "operations": edit }),
        );
        call(
            &mut tally,
            "save",
            "openfairygui_backend_save_session",
            json!({ "sessionId": id, "expectedRevision": round + 1 }),
        );
    }
    call(
        &mut tally,
        "close",
        "openfairygui_backend_close_session",
        json!({ "sessionId": id }),
    );
    tally
}

/// A Streamable HTTP client: one MCP session, requests answered as SSE or JSON.
pub(crate) struct HttpClient {
    agent: ureq::Agent,
    url: String,
    token: String,
    session: Option<String>,
    next_id: u64,
}

impl HttpClient {
    pub(crate) fn connect(url: &str, token: &str) -> Result<HttpClient> {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into();
        let mut client = HttpClient {
            agent,
            url: url.to_owned(),
            token: token.to_owned(),
            session: None,
            next_id: 0,
        };
        client.request(
            "initialize",
            json!({ "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "load", "version": "0" } }),
        )?;
        client.post(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))?;
        Ok(client)
    }

    /// Posts one message; the response to it, if it is a request.
    fn post(&mut self, message: &Value) -> Result<Option<Value>> {
        let mut request = self
            .agent
            .post(&self.url)
            .header("Authorization", &format!("Bearer {}", self.token))
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json");
        if let Some(session) = &self.session {
            request = request.header("Mcp-Session-Id", session);
        }
        let response = request.send(message.to_string())?;
        let status = response.status().as_u16();
        if let Some(session) = response.headers().get("mcp-session-id") {
            self.session = Some(session.to_str()?.to_owned());
        }
        if status == 202 {
            return Ok(None);
        }
        if status != 200 {
            bail!("HTTP {status}");
        }
        let sse = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        let mut body = response.into_body();
        let reader = body.as_reader();
        if !sse {
            let mut text = String::new();
            BufReader::new(reader).read_to_string(&mut text)?;
            return Ok(Some(serde_json::from_str(&text)?));
        }
        for line in BufReader::new(reader).lines() {
            let line = line?;
            let Some(data) = line.strip_prefix("data:") else {
                continue;
            };
            let data = data.trim();
            if data.is_empty() {
                continue;
            }
            let value: Value = serde_json::from_str(data)?;
            if value.get("id") == message.get("id") {
                return Ok(Some(value));
            }
        }
        bail!("the event stream ended without the response")
    }

    fn request(&mut self, method: &str, params: Value) -> Result<(Value, Duration)> {
        self.next_id += 1;
        let started = Instant::now();
        let response = self
            .post(&json!({ "jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params }))?
            .context("no response")?;
        Ok((response, started.elapsed()))
    }
}

impl Transport for HttpClient {
    fn tool(&mut self, name: &str, arguments: Value) -> Result<(Value, Duration)> {
        let (response, elapsed) = self.request(
            "tools/call",
            json!({ "name": name, "arguments": arguments }),
        )?;
        let envelope = response["result"]["structuredContent"]["backendResult"].clone();
        if envelope.is_null() {
            bail!("{name}: {response}");
        }
        Ok((envelope, elapsed))
    }
}

/// `CLIENTS` copies of `source` under one root.
fn copies(source: &Path) -> Result<(tempfile::TempDir, Vec<PathBuf>)> {
    let root = tempfile::tempdir()?;
    let mut projects = Vec::new();
    for client in 0..CLIENTS {
        let project = root.path().join(format!("p{client:02}"));
        copy_tree(source, &project)?;
        projects.push(project);
    }
    Ok((root, projects))
}

/// Runs every client on its own thread, all starting together once connected; the
/// merged tally and the wall time from the start to the last client's end.
fn together(
    projects: &[PathBuf],
    connect: impl Fn(usize) -> Result<Box<dyn Transport + Send>> + Sync,
    probe: &Probe,
) -> Result<(Tally, Duration)> {
    let barrier = Barrier::new(projects.len() + 1);
    let total = Mutex::new(Tally::default());
    let mut started = Instant::now();
    std::thread::scope(|scope| {
        for (index, project) in projects.iter().enumerate() {
            let (barrier, total, connect) = (&barrier, &total, &connect);
            scope.spawn(move || {
                let transport = connect(index);
                barrier.wait();
                let tally = match transport {
                    Ok(mut transport) => {
                        let mut tally = workload(transport.as_mut(), project, probe);
                        tally.rss_kb = transport.peak_rss_kb();
                        tally
                    }
                    Err(error) => Tally {
                        errors: vec![format!("connect: {error:#}")],
                        ..Tally::default()
                    },
                };
                if let Ok(mut total) = total.lock() {
                    total.merge(tally);
                }
            });
        }
        barrier.wait();
        started = Instant::now();
        // Leaving the scope joins every client.
    });
    let wall = started.elapsed();
    let tally = total
        .into_inner()
        .map_err(|_| anyhow::anyhow!("a client panicked"))?;
    Ok((tally, wall))
}

/// Prints the load test's table: the same workload over HTTP and over stdio.
pub fn load(host: &Path, cache: &Path, source: &Path, probe: &Probe) -> Result<()> {
    println!(
        "\n| {CLIENTS} clients at once, each on its own copy: open, {ROUNDS} × (outline of 1 package, apply 1 node, save), close | tool calls | wall | calls/s | open p50 / p99 | outline p50 / p99 | apply p50 / p99 | save p50 / p99 | errors | peak RSS |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");

    let (root, projects) = copies(source)?;
    let tokens: Vec<String> = (0..CLIENTS)
        .map(|i| format!("load-test-token-{i:02}-0123456789"))
        .collect();
    let token_file = root.path().join("tokens.txt");
    std::fs::write(&token_file, tokens.join("\n"))?;
    let mut server = Command::new(host)
        .arg("--project-dir")
        .arg(root.path())
        .arg("--cache-dir")
        .arg(cache)
        .args(["serve", "--http", "127.0.0.1:0", "--auth-token-file"])
        .arg(&token_file)
        .env("OFGUI_LOG", "warn,ofgui_host::transport::http=info")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()?;
    let url = listening(&mut server)?;
    let (tally, wall) = together(
        &projects,
        |index| {
            Ok(Box::new(HttpClient::connect(&url, &tokens[index])?) as Box<dyn Transport + Send>)
        },
        probe,
    )?;
    let rss = peak_rss_kb(server.id());
    let _ = server.kill();
    let _ = server.wait();
    row(
        "Streamable HTTP: one server, a token (tenant) each",
        &tally,
        wall,
        rss,
    );
    drop(root);

    let (root, projects) = copies(source)?;
    let (tally, wall) = together(
        &projects,
        |index| {
            let mut client = spawn(host, cache, &projects[index])?;
            client.handshake()?;
            Ok(Box::new(client) as Box<dyn Transport + Send>)
        },
        probe,
    )?;
    row(
        "stdio: a server process each (RSS summed)",
        &tally,
        wall,
        tally.rss_kb,
    );
    drop(root);
    println!(
        "\ntimes per call from the client (request sent → response read); errors must be 0. Sessions are the server's, so a client reconnecting finds its own; RSS is the HTTP server's peak, or the sum of the stdio servers' peaks."
    );
    Ok(())
}

/// Reads the server's log until it says where it listens; keeps draining it after.
fn listening(server: &mut Child) -> Result<String> {
    let stderr = server.stderr.take().context("stderr")?;
    let mut lines = BufReader::new(stderr).lines();
    let addr = loop {
        let line = lines
            .next()
            .context("the server exited before listening")??;
        if let Some(rest) = line.split("addr=").nth(1) {
            break rest
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .to_owned();
        }
    };
    std::thread::spawn(move || for _ in lines.by_ref() {});
    Ok(format!("http://{addr}/mcp"))
}

fn row(label: &str, tally: &Tally, wall: Duration, rss_kb: u64) {
    let pair = |method: &str| {
        format!(
            "{} / {}",
            ms(tally.quantile(method, 0.5)),
            ms(tally.quantile(method, 0.99))
        )
    };
    println!(
        "| {label} | {} | {} | {:.0} | {} | {} | {} | {} | {} | {:.1} MB |",
        tally.calls(),
        ms(wall),
        tally.calls() as f64 / wall.as_secs_f64().max(1e-9),
        pair("open"),
        pair("outline"),
        pair("apply"),
        pair("save"),
        tally.errors.len(),
        rss_kb as f64 / 1024.0,
    );
    for error in tally.errors.iter().take(3) {
        println!("|   error: {error} |");
    }
}
