//! Past one machine: two nodes sharing a state directory behind HAProxy with the shipped
//! `deploy/haproxy.cfg`. A tool call through the balancer against the same call sent to
//! the node directly, and the time from a node's death (SIGKILL) to its session answering
//! through the balancer from the other node. Needs `haproxy` on the PATH (Debian's).

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use crate::load::{HttpClient, Transport};
use crate::{Probe, copy_tree, median, ms};

/// Calls measured per row.
const CALLS: usize = 300;
/// Deaths measured with a few unsaved edits.
const DEATHS: usize = 5;
/// The unsaved edits a session has when its node dies.
const FEW_EDITS: usize = 10;

fn free_port() -> Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// A node of the cluster, started and serving.
fn node(host: &Path, cache: &Path, root: &Path, name: &str, port: u16) -> Result<Child> {
    let mut child = Command::new(host)
        .arg("--project-dir")
        .arg(root)
        .arg("--cache-dir")
        .arg(cache)
        .arg("--state-dir")
        .arg(root.join(".state"))
        .args(["--node-id", name, "serve", "--http"])
        .arg(format!("127.0.0.1:{port}"))
        .env("OFGUI_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut lines = BufReader::new(child.stderr.take().context("stderr")?).lines();
    loop {
        let line = lines.next().context("a node exited before serving")??;
        if line.contains("addr=") {
            break;
        }
    }
    std::thread::spawn(move || for _ in lines.by_ref() {});
    Ok(child)
}

/// Until `url`'s `/readyz` answers 200 (through the balancer: its health checks passed).
fn ready(addr: &str) -> Result<()> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if agent
            .get(format!("http://{addr}/readyz"))
            .call()
            .is_ok_and(|r| r.status() == 200)
        {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    bail!("{addr} never became ready")
}

/// Times `CALLS` calls of `tool` with `arguments` (the first few warm the connection and
/// are not counted); p50 and p95.
fn latency(
    client: &mut HttpClient,
    tool: &str,
    arguments: &dyn Fn(usize) -> Value,
) -> Result<(Duration, Duration)> {
    let mut times = Vec::new();
    for index in 0..CALLS + 10 {
        let (envelope, elapsed) = client.tool(tool, arguments(index))?;
        if envelope["ok"] != json!(true) {
            bail!("{tool}: {envelope}");
        }
        if index >= 10 {
            times.push(elapsed);
        }
    }
    times.sort();
    Ok((times[times.len() / 2], times[times.len() * 95 / 100]))
}

pub fn cluster(host: &Path, cache: &Path, source: &Path, probe: &Probe) -> Result<()> {
    let root = tempfile::tempdir()?;
    let project = root.path().join("game");
    copy_tree(source, &project)?;
    let ports = [free_port()?, free_port()?];
    let mut nodes = [
        node(host, cache, root.path(), "node1", ports[0])?,
        node(host, cache, root.path(), "node2", ports[1])?,
    ];
    let lb = format!("127.0.0.1:{}", free_port()?);
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/haproxy.cfg");
    let mut balancer = Command::new("haproxy")
        .arg("-f")
        .arg(&config)
        .arg("-db")
        .env("OFGUI_LB_BIND", &lb)
        .env("OFGUI_NODE1", format!("127.0.0.1:{}", ports[0]))
        .env("OFGUI_NODE2", format!("127.0.0.1:{}", ports[1]))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .context("running haproxy (Debian's package haproxy)")?;
    let result = measure(
        host,
        cache,
        root.path(),
        &project,
        probe,
        &lb,
        ports,
        &mut nodes,
    );
    let _ = balancer.kill();
    let _ = balancer.wait();
    for node in &mut nodes {
        let _ = node.kill();
        let _ = node.wait();
    }
    result
}

#[allow(clippy::too_many_arguments)]
fn measure(
    host: &Path,
    cache: &Path,
    root: &Path,
    project: &Path,
    probe: &Probe,
    lb: &str,
    ports: [u16; 2],
    nodes: &mut [Child; 2],
) -> Result<()> {
    ready(lb)?;
    let mut through = HttpClient::connect(&format!("http://{lb}/mcp"), "none")?;
    let (opened, _) = through.tool(
        "openfairygui_backend_open_session",
        json!({ "projectPath": project }),
    )?;
    let id = opened["data"]["sessionId"]
        .as_str()
        .with_context(|| format!("open: {opened}"))?
        .to_owned();
    let holder = usize::from(id.starts_with("node2."));
    let mut direct =
        HttpClient::connect(&format!("http://127.0.0.1:{}/mcp", ports[holder]), "none")?;
    let state = |_: usize| json!({ "sessionId": id });
    let selector = json!({ "packageId": probe.package_id, "componentResourceId": probe.component_id, "displayNodeId": probe.node_id });
    let revision = std::cell::Cell::new(0u64);
    let apply = |index: usize| {
        let expected = revision.get();
        revision.set(expected + 1);
        json!({ "sessionId": id, "expectedRevision": expected, "operations": [{
            "kind": "setDisplayNodeProps", "selector": selector,
            "props": { "position": { "x": 100 + index, "y": 34 } } }] })
    };

    println!(
        "\n| Two nodes behind HAProxy (deploy/haproxy.cfg), Streamable HTTP, one session of the Unity example | p50 (or once) | p95 (or slowest) |"
    );
    println!("|---|---|---|");
    for (label, tool, arguments) in [
        (
            "get_session",
            "openfairygui_backend_get_session",
            &state as &dyn Fn(usize) -> Value,
        ),
        (
            "apply_transaction (one node moved)",
            "openfairygui_backend_apply_transaction",
            &apply,
        ),
    ] {
        let (p50, p95) = latency(&mut direct, tool, arguments)?;
        println!(
            "| {label}, to the node directly | {} | {} |",
            ms(p50),
            ms(p95)
        );
        let (p50, p95) = latency(&mut through, tool, arguments)?;
        println!(
            "| {label}, through the balancer | {} | {} |",
            ms(p50),
            ms(p95)
        );
    }

    // Deaths: the node holding the session is killed; how long until the session answers
    // through the balancer again, from the other node, which takes it over from the state
    // directory and replays its unsaved edits. First with every apply above unsaved, then
    // `DEATHS` times with a few. The dead node is started again before the next death.
    let mut holder = holder;
    let mut die = |holder: &mut usize, through: &mut HttpClient| -> Result<Duration> {
        nodes[*holder].kill()?;
        nodes[*holder].wait()?;
        let killed = Instant::now();
        loop {
            match through.tool(
                "openfairygui_backend_get_session",
                json!({ "sessionId": id }),
            ) {
                Ok((envelope, _)) if envelope["ok"] == json!(true) => break,
                other if killed.elapsed() > Duration::from_secs(30) => {
                    bail!("no failover in 30 s: {other:?}")
                }
                _ => std::thread::sleep(Duration::from_millis(5)),
            }
        }
        let took = killed.elapsed();
        let name = if *holder == 0 { "node1" } else { "node2" };
        nodes[*holder] = node(host, cache, root, name, ports[*holder])?;
        ready(&format!("127.0.0.1:{}", ports[*holder]))?;
        // The session now lives on the other node: that one dies next. The balancer sees
        // the restarted node up after two health checks (rise 2, inter 500 ms).
        *holder = 1 - *holder;
        std::thread::sleep(Duration::from_millis(1500));
        Ok(took)
    };
    let unsaved = revision.get();
    let first = die(&mut holder, &mut through)?;
    println!(
        "| from SIGKILL of the session's node to its next answer through the balancer, {unsaved} unsaved edits | {} | |",
        ms(first)
    );
    let mut failovers = Vec::new();
    for _ in 0..DEATHS {
        let (saved, _) = through.tool(
            "openfairygui_backend_save_session",
            json!({ "sessionId": id, "expectedRevision": revision.get() }),
        )?;
        if saved["ok"] != json!(true) {
            bail!("save: {saved}");
        }
        for index in 0..FEW_EDITS {
            let (applied, _) =
                through.tool("openfairygui_backend_apply_transaction", apply(index))?;
            if applied["ok"] != json!(true) {
                bail!("apply: {applied}");
            }
        }
        failovers.push(die(&mut holder, &mut through)?);
    }
    let slowest = failovers.iter().max().copied().unwrap_or_default();
    println!(
        "| the same, {FEW_EDITS} unsaved edits (median, slowest of {DEATHS}) | {} | {} |",
        ms(median(failovers)),
        ms(slowest)
    );
    Ok(())
}
