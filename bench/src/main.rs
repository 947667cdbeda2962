//! Benchmarks the release `ofgui-mcp-host` on the real corpora and prints a table.
//!
//! Run with `cargo run --release -p bench`. It builds the host in release mode, then for
//! each corpus project (copied to a temporary directory) starts the server, speaks MCP to
//! it over stdio, and times each step from the client's side: request written to response
//! read. Each figure is the median of several runs; peak RSS is the server's VmHWM.
//! A second table times a fresh install's first open: the server started on an empty
//! cache directory and asked to open a project at once. Then `embedding` times the
//! component opening each project in wasmtime and in Node (jco), with the WASI calls an
//! open makes. The last two measure the memory of 32 sessions open at once on copies of
//! the unity corpus, and how long past the call deadline a runaway save (the backend's
//! test-only `spin` fault) is answered.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

mod cluster;
mod embedding;
mod history;
mod load;
#[path = "../../tests/support/many_packages.rs"]
mod many_packages;
mod publish;
mod render;
mod review;
mod sizes;
mod strings;

const RUNS: usize = 7;

fn main() -> Result<()> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .context("workspace")?
        .to_path_buf();
    let host = build_host(&workspace)?;
    let corpora = std::env::var_os("OFGUI_CORPORA")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.join("../shared/corpora"));
    let cache = tempfile::tempdir()?;
    let projects = [
        (
            "fairygui-unity-examples",
            corpora.join("fairygui-unity-examples/UIProject"),
            Probe::unity(),
        ),
        (
            "openfairygui-experiments",
            corpora.join("openfairygui-experiments/FairyGUI-Experiments"),
            Probe::experiments(),
        ),
    ];

    // Warm the compile cache once, as `ofgui-mcp-host precompile` would at install time.
    let status = Command::new(&host)
        .arg("--cache-dir")
        .arg(cache.path())
        .arg("precompile")
        .status()?;
    if !status.success() {
        bail!("precompile failed");
    }

    // `cargo run --release -p bench -- render` (or `load`, `cluster`, `publish`) prints that table alone.
    match std::env::args().nth(1).as_deref() {
        Some("render") => {
            let unity = tempfile::tempdir()?;
            copy_tree(&projects[0].1, unity.path())?;
            return render::renders(&host, cache.path(), projects[0].0, unity.path());
        }
        Some("history") => {
            return history::history(&host, cache.path(), &projects[0].1);
        }
        Some("review") => return review::review(&host, cache.path(), &projects[0].1),
        Some("strings") => return strings::strings(&host, cache.path(), &projects[0].1),
        Some("load") => return load::load(&host, cache.path(), &projects[0].1, &projects[0].2),
        Some("cluster") => {
            return cluster::cluster(&host, cache.path(), &projects[0].1, &projects[0].2);
        }
        Some("sizes") => return sizes::sizes(&host, cache.path(), &projects[0].1),
        Some("publish") => {
            publish::header();
            for (label, copies) in [
                ("unity corpus (30 packages)", 0),
                ("60 packages", 1),
                ("150 packages", 4),
            ] {
                let dir = tempfile::tempdir()?;
                let project = dir.path().join("UIProject");
                copy_tree(&projects[0].1, &project)?;
                many_packages::multiply_packages(&project, copies)?;
                publish::publish(&host, cache.path(), &project, label, copies == 0)?;
            }
            println!(
                "median of 5 runs; the command's time includes starting the process and opening the project."
            );
            return Ok(());
        }
        _ => {}
    }

    let wasm = component_path(&workspace);
    let component = std::fs::metadata(&wasm)
        .with_context(|| format!("reading {}", wasm.display()))?
        .len();
    println!(
        "backend.wasm: {component} bytes ({:.2} MiB)\n",
        component as f64 / f64::from(1 << 20)
    );
    tool_list_sizes(&host, cache.path(), &projects[0].1)?;

    println!(
        "| project | start→tools/list | open | outline | outline (1 package) | search (text nodes, first 50) | displayNode query | readSessionState | validateSession | preflight (1 node) | apply (1 node) | save (no edit) | save (1 node) | materialize | peak RSS |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut payloads = Vec::new();
    for (name, source, probe) in &projects {
        let copy = tempfile::tempdir()?;
        copy_tree(source, copy.path())?;
        let mut samples = Samples::default();
        for run in 0..RUNS {
            samples.push(run_once(&host, cache.path(), copy.path(), probe, run)?);
        }
        if let Some(first) = samples.runs.first() {
            payloads.push((name, first.payloads));
        }
        println!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} MB |",
            ms(samples.median(|s| s.start)),
            ms(samples.median(|s| s.open)),
            ms(samples.median(|s| s.outline)),
            ms(samples.median(|s| s.outline_scoped)),
            ms(samples.median(|s| s.search)),
            ms(samples.median(|s| s.query)),
            ms(samples.median(|s| s.state)),
            ms(samples.median(|s| s.validate)),
            ms(samples.median(|s| s.preflight)),
            ms(samples.median(|s| s.apply)),
            ms(samples.median(|s| s.save_idle)),
            ms(samples.median(|s| s.save)),
            match samples.runs.iter().all(|s| s.materialize.is_some()) {
                true => ms(samples.median(|s| s.materialize.unwrap_or_default())),
                false => "refused (project invalid)".into(),
            },
            samples
                .runs
                .iter()
                .map(|s| s.peak_rss_kb)
                .max()
                .unwrap_or(0) as f64
                / 1024.0,
        );
    }
    println!(
        "\nmedian of {RUNS} runs; times measured by the client over stdio (request written → response line read, before the client parses it)."
    );

    println!(
        "\n| project | outline | outline, detail: packages | outline of 1 package | readSessionState | readSessionState of 1 package |"
    );
    println!("|---|---|---|---|---|---|");
    for (name, sizes) in payloads {
        println!(
            "| {name} | {} | {} | {} | {} | {} |",
            kb(sizes.outline),
            kb(sizes.outline_packages),
            kb(sizes.outline_scoped),
            kb(sizes.state),
            kb(sizes.state_scoped),
        );
    }
    println!("\nsize of each result's `data` as compact JSON.");

    println!(
        "\n| first `openSession` sent right after start on an empty cache directory | start→open response | open |"
    );
    println!("|---|---|---|");
    let (name, source, _) = &projects[0];
    let copy = tempfile::tempdir()?;
    copy_tree(source, copy.path())?;
    let mut totals = Vec::new();
    let mut opens = Vec::new();
    for _ in 0..RUNS {
        let (total, open) = first_open(&host, copy.path())?;
        totals.push(total);
        opens.push(open);
    }
    println!(
        "| {name} | {} | {} |",
        ms(median(totals)),
        ms(median(opens))
    );
    println!(
        "\nmedian of {RUNS} runs, each with a new empty --cache-dir; start→open response is from spawning the process to reading the open result, open from writing the request."
    );

    let embedded: Vec<_> = projects
        .iter()
        .map(|(name, dir, _)| embedding::Project { name, dir })
        .collect();
    embedding::embedding(&workspace, &target_dir(&workspace), &wasm, &embedded)?;
    let unity = tempfile::tempdir()?;
    copy_tree(&projects[0].1, unity.path())?;
    render::renders(&host, cache.path(), projects[0].0, unity.path())?;
    many_sessions(&host, cache.path(), &projects[0].1)?;
    history::history(&host, cache.path(), &projects[0].1)?;
    load::load(&host, cache.path(), &projects[0].1, &projects[0].2)?;
    cluster::cluster(&host, cache.path(), &projects[0].1, &projects[0].2)?;
    runaway(&host, cache.path(), &workspace.join("examples/HelloFairy"))?;
    Ok(())
}

/// Sessions opened at once for [`many_sessions`]: the server's default session limit.
const MANY_SESSIONS: usize = 32;
/// How long the server with [`MANY_SESSIONS`] open is left at rest.
const IDLE: Duration = Duration::from_secs(5);

/// User and system CPU time of a process so far, in clock ticks (1/100 s on Linux).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    let field = |index: usize| {
        fields
            .get(index)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    field(11) + field(12)
}

/// Opens [`MANY_SESSIONS`] copies of `source` in one server and prints its memory with
/// one session and with all of them open.
fn many_sessions(host: &Path, cache: &Path, source: &Path) -> Result<()> {
    let root = tempfile::tempdir()?;
    for copy in 0..MANY_SESSIONS {
        copy_tree(source, &root.path().join(format!("copy-{copy}")))?;
    }
    let mut client = spawn(host, cache, root.path())?;
    client.handshake()?;
    let pid = client.child.id();
    let mut opens = Vec::new();
    let mut with_one = 0;
    for copy in 0..MANY_SESSIONS {
        let path = root.path().join(format!("copy-{copy}"));
        let (_, open) = client.call(
            "openfairygui_backend_open_session",
            json!({ "projectPath": path }),
        )?;
        opens.push(open);
        if copy == 0 {
            with_one = proc_status_kb(pid, "VmRSS:");
        }
    }
    let with_all = proc_status_kb(pid, "VmRSS:");
    let peak = peak_rss_kb(pid);
    // At rest with every project watched: the CPU the server spends doing nothing.
    let before = cpu_ticks(pid);
    std::thread::sleep(IDLE);
    let idle_ticks = cpu_ticks(pid).saturating_sub(before);
    drop(client);
    println!(
        "\n| {MANY_SESSIONS} sessions on copies of fairygui-unity-examples | RSS with 1 open | RSS with {MANY_SESSIONS} open | per further session | peak RSS | open (median) | CPU at rest, {} s |",
        IDLE.as_secs()
    );
    println!("|---|---|---|---|---|---|---|");
    println!(
        "| one server | {:.1} MB | {:.1} MB | {:.1} MB | {:.1} MB | {} | {} ms |",
        with_one as f64 / 1024.0,
        with_all as f64 / 1024.0,
        with_all.saturating_sub(with_one) as f64 / 1024.0 / (MANY_SESSIONS - 1) as f64,
        peak as f64 / 1024.0,
        ms(median(opens)),
        idle_ticks * 10,
    );
    Ok(())
}

/// Saves an edited copy of `example` with the `spin` fault armed and a 1 s call deadline,
/// and prints how long past the deadline the answer came (the restore included).
fn runaway(host: &Path, cache: &Path, example: &Path) -> Result<()> {
    const DEADLINE: Duration = Duration::from_secs(1);
    let mut overshoots = Vec::new();
    for _ in 0..RUNS {
        let root = tempfile::tempdir()?;
        let project = root.path().join("example");
        copy_tree(example, &project)?;
        let mut client = spawn_with(
            host,
            cache,
            root.path(),
            &["--call-deadline-secs", "1"],
            &[("OFGUI_SAVE_FAULT", "prepare-journal:spin")],
        )?;
        client.handshake()?;
        let (opened, _) = client.call(
            "openfairygui_backend_open_session",
            json!({ "projectPath": project }),
        )?;
        let id = opened["sessionId"].clone();
        client.call(
            "openfairygui_backend_apply_transaction",
            json!({ "sessionId": id, "expectedRevision": 0, "operations": [{
                "kind": "setDisplayNodeProps",
                "selector": { "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n1_view" },
                "props": { "text": "runaway" }
            }] }),
        )?;
        let (envelope, elapsed) = client.envelope(
            "openfairygui_backend_save_session",
            json!({ "sessionId": id, "expectedRevision": 1 }),
        )?;
        if envelope.pointer("/error/reason") != Some(&json!("deadline")) {
            bail!("the runaway save was not stopped at its deadline: {envelope}");
        }
        overshoots.push(elapsed.saturating_sub(DEADLINE));
    }
    overshoots.sort();
    println!(
        "\n| runaway save (1 s deadline, bundled example) | answered past the deadline: min | median | max |"
    );
    println!("|---|---|---|---|");
    println!(
        "| spin fault at the save's first step | {} | {} | {} |",
        ms(overshoots[0]),
        ms(overshoots[overshoots.len() / 2]),
        ms(overshoots[overshoots.len() - 1]),
    );
    println!(
        "\n{RUNS} runs; from the save request to its answer, minus the deadline: the stop (at the first 50 ms epoch tick past the deadline), the save's own work before the fault and the session's restore on a fresh backend."
    );
    Ok(())
}

/// Starts the server on a new empty cache directory, initializes and opens `project`
/// at once, as a fresh install's first session would: gives the time from spawning
/// the process to the open response, and the open request's own time.
fn first_open(host: &Path, project: &Path) -> Result<(Duration, Duration)> {
    let cache = tempfile::tempdir()?;
    let started = Instant::now();
    let mut client = spawn(host, cache.path(), project)?;
    client.handshake()?;
    let (session, open) = client.call(
        "openfairygui_backend_open_session",
        json!({ "projectPath": project }),
    )?;
    let total = started.elapsed();
    client.call(
        "openfairygui_backend_close_session",
        json!({ "sessionId": session["sessionId"] }),
    )?;
    drop(client.stdin);
    client.child.wait()?;
    Ok((total, open))
}

fn median(mut values: Vec<Duration>) -> Duration {
    values.sort();
    values[values.len() / 2]
}

/// What to query in a project.
struct Probe {
    package_id: &'static str,
    component_id: &'static str,
    node_id: &'static str,
}

impl Probe {
    fn unity() -> Self {
        Probe {
            package_id: "zgmoraj4",
            component_id: "gkq00",
            node_id: "n4",
        }
    }

    fn experiments() -> Self {
        Probe {
            package_id: "hzobybbt",
            component_id: "biss0",
            node_id: "n12_bist",
        }
    }
}

/// Bytes of a result's `data`, as compact JSON.
#[derive(Clone, Copy, Debug)]
struct Payloads {
    outline: usize,
    outline_packages: usize,
    outline_scoped: usize,
    state: usize,
    state_scoped: usize,
}

#[derive(Clone, Copy, Debug)]
struct Sample {
    start: Duration,
    open: Duration,
    outline: Duration,
    outline_scoped: Duration,
    search: Duration,
    query: Duration,
    state: Duration,
    validate: Duration,
    preflight: Duration,
    apply: Duration,
    save_idle: Duration,
    save: Duration,
    /// `None` when materialize refused (the project does not validate).
    materialize: Option<Duration>,
    peak_rss_kb: u64,
    payloads: Payloads,
}

#[derive(Default)]
struct Samples {
    runs: Vec<Sample>,
}

impl Samples {
    fn push(&mut self, sample: Sample) {
        self.runs.push(sample);
    }

    fn median(&self, field: impl Fn(&Sample) -> Duration) -> Duration {
        median(self.runs.iter().map(field).collect())
    }
}

fn ms(duration: Duration) -> String {
    format!("{:.1} ms", duration.as_secs_f64() * 1000.0)
}

fn kb(bytes: usize) -> String {
    format!("{:.1} KB", bytes as f64 / 1024.0)
}

struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
    /// Bytes of the last response line read: what the client received.
    last_response_bytes: usize,
}

impl Client {
    fn send(&mut self, message: &Value) -> Result<()> {
        writeln!(self.stdin, "{message}")?;
        self.stdin.flush()?;
        Ok(())
    }

    /// Sends a request and waits for its response. The clock stops when the response
    /// line has been read: parsing it is the client's work, not the server's, and is done
    /// afterwards.
    fn request(&mut self, method: &str, params: Value) -> Result<(Value, Duration)> {
        self.next_id += 1;
        let id = self.next_id;
        let started = Instant::now();
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))?;
        loop {
            let mut line = String::new();
            if self.stdout.read_line(&mut line)? == 0 {
                bail!("server closed stdout");
            }
            let elapsed = started.elapsed();
            let message: Value = serde_json::from_str(&line)?;
            if message.get("id") == Some(&json!(id)) {
                self.last_response_bytes = line.trim_end().len();
                return Ok((message, elapsed));
            }
        }
    }

    /// `initialize`, then `notifications/initialized`.
    fn handshake(&mut self) -> Result<()> {
        self.request(
            "initialize",
            json!({ "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "bench", "version": "0" } }),
        )?;
        self.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
    }

    fn call(&mut self, tool: &str, arguments: Value) -> Result<(Value, Duration)> {
        let (envelope, elapsed) = self.envelope(tool, arguments)?;
        if envelope["ok"] != json!(true) {
            bail!("{tool} failed: {envelope}");
        }
        Ok((envelope["data"].clone(), elapsed))
    }

    /// A tool's envelope, success or failure.
    fn envelope(&mut self, tool: &str, arguments: Value) -> Result<(Value, Duration)> {
        let (response, elapsed) = self.request(
            "tools/call",
            json!({ "name": tool, "arguments": arguments }),
        )?;
        let envelope = response
            .pointer("/result/structuredContent/backendResult")
            .cloned()
            .with_context(|| format!("{tool}: no backendResult in {response}"))?;
        Ok((envelope, elapsed))
    }
}

/// A copy of a project (`UIProject` in a temporary root), a server whose only root that
/// is, and a session open on the copy.
struct OpenCopy {
    /// Holds the copy until the measurement ends.
    root: tempfile::TempDir,
    project: PathBuf,
    client: Client,
    session: Value,
}

impl OpenCopy {
    fn new(host: &Path, cache: &Path, source: &Path) -> Result<OpenCopy> {
        let root = tempfile::tempdir()?;
        let project = root.path().join("UIProject");
        copy_tree(source, &project)?;
        let mut client = spawn(host, cache, root.path())?;
        client.handshake()?;
        let (opened, _) = client.call(
            "openfairygui_backend_open_session",
            json!({ "projectPath": project }),
        )?;
        Ok(OpenCopy {
            root,
            project,
            client,
            session: opened["sessionId"].clone(),
        })
    }
}

/// Starts the server with `project`'s directory as its only root.
fn spawn(host: &Path, cache: &Path, project: &Path) -> Result<Client> {
    spawn_with(host, cache, project, &[], &[])
}

/// [`spawn`] with extra arguments and environment variables.
fn spawn_with(
    host: &Path,
    cache: &Path,
    root: &Path,
    args: &[&str],
    env: &[(&str, &str)],
) -> Result<Client> {
    let mut child = Command::new(host)
        .arg("--project-dir")
        .arg(root)
        .arg("--cache-dir")
        .arg(cache)
        .args(args)
        .env("OFGUI_LOG", "error")
        .env_remove("OFGUI_SAVE_FAULT")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()?;
    let stdin = child.stdin.take().context("stdin")?;
    let stdout = BufReader::new(child.stdout.take().context("stdout")?);
    Ok(Client {
        child,
        stdin,
        stdout,
        next_id: 0,
        last_response_bytes: 0,
    })
}

fn run_once(
    host: &Path,
    cache: &Path,
    project: &Path,
    probe: &Probe,
    run: usize,
) -> Result<Sample> {
    let started = Instant::now();
    let mut client = spawn(host, cache, project)?;
    client.handshake()?;
    client.request("tools/list", json!({}))?;
    let start = started.elapsed();

    let (session, open) = client.call(
        "openfairygui_backend_open_session",
        json!({ "projectPath": project }),
    )?;
    let id = session["sessionId"].clone();
    let (whole_outline, outline) = client.call(
        "openfairygui_backend_get_project_outline",
        json!({ "sessionId": id }),
    )?;
    let (packages_outline, _) = client.call(
        "openfairygui_backend_get_project_outline",
        json!({ "sessionId": id, "detail": "packages" }),
    )?;
    let one_package = json!({ "packageIds": [probe.package_id] });
    let (scoped_outline, outline_scoped) = client.call(
        "openfairygui_backend_get_project_outline",
        json!({ "sessionId": id, "scope": one_package }),
    )?;
    let (_, search) = client.call(
        "openfairygui_backend_search_project",
        json!({ "sessionId": id, "query": { "kind": "text" } }),
    )?;
    let target = json!({ "kind": "displayNode", "selector": {
        "packageId": probe.package_id, "componentResourceId": probe.component_id, "displayNodeId": probe.node_id } });
    let (_, query) = client.call(
        "openfairygui_backend_query_entity",
        json!({ "sessionId": id, "target": target }),
    )?;
    let (whole_state, state) = client.call(
        "openfairygui_backend_read_session_state",
        json!({ "sessionId": id }),
    )?;
    let (scoped_state, _) = client.call(
        "openfairygui_backend_read_session_state",
        json!({ "sessionId": id, "scope": one_package }),
    )?;
    let payloads = Payloads {
        outline: whole_outline.to_string().len(),
        outline_packages: packages_outline.to_string().len(),
        outline_scoped: scoped_outline.to_string().len(),
        state: whole_state.to_string().len(),
        state_scoped: scoped_state.to_string().len(),
    };
    let (_, validate) = client.call(
        "openfairygui_backend_validate_session",
        json!({ "sessionId": id }),
    )?;
    let edit = json!([{
        "kind": "setDisplayNodeProps",
        "selector": {
            "packageId": probe.package_id, "componentResourceId": probe.component_id, "displayNodeId": probe.node_id
        },
        // Each run saves to the same copy, so each moves the node somewhere new.
        "props": { "position": { "x": 12 + run, "y": 34 } }
    }]);
    let (_, save_idle) = client.call(
        "openfairygui_backend_save_session",
        json!({ "sessionId": id, "expectedRevision": 0 }),
    )?;
    let (_, preflight) = client.call(
        "openfairygui_backend_preflight_transaction",
        json!({ "sessionId": id, "expectedRevision": 0, "operations": edit }),
    )?;
    let (_, apply) = client.call(
        "openfairygui_backend_apply_transaction",
        json!({ "sessionId": id, "expectedRevision": 0, "operations": edit }),
    )?;
    let (response, save) = client.request(
        "tools/call",
        json!({ "name": "openfairygui_backend_save_session",
                "arguments": { "sessionId": id, "expectedRevision": 1 } }),
    )?;
    // What a save wrote is an ofgui addition, beside upstream's result.
    let written = response.pointer("/result/_meta/ofgui~1additions/saved/writtenPaths");
    if written.and_then(Value::as_array).map(Vec::len) != Some(1) {
        bail!("the one-node save wrote {response}");
    }
    let (materialized, materialize) = client.envelope(
        "openfairygui_backend_materialize_session",
        json!({ "sessionId": id }),
    )?;
    let materialize = (materialized["ok"] == json!(true)).then_some(materialize);
    client.call(
        "openfairygui_backend_close_session",
        json!({ "sessionId": id }),
    )?;
    let peak_rss_kb = peak_rss_kb(client.child.id());
    drop(client.stdin);
    client.child.wait()?;
    Ok(Sample {
        start,
        open,
        outline,
        outline_scoped,
        search,
        payloads,
        query,
        state,
        validate,
        preflight,
        apply,
        save_idle,
        save,
        materialize,
        peak_rss_kb,
    })
}

/// Prints the size of `tools/list` as a client receives it, in total and per tool, in
/// the default (lean) form.
fn tool_list_sizes(host: &Path, cache: &Path, project: &Path) -> Result<()> {
    let mut client = spawn(host, cache, project)?;
    client.handshake()?;
    let (response, _) = client.request("tools/list", json!({}))?;
    let tools = response["result"]["tools"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let total = serde_json::to_vec(&response["result"]["tools"])?.len();
    println!("| tool | bytes in `tools/list` |");
    println!("|---|---|");
    for tool in &tools {
        println!(
            "| {} | {} |",
            tool["name"].as_str().unwrap_or_default(),
            serde_json::to_vec(tool)?.len()
        );
    }
    println!("| all {} tools | {total} |", tools.len());
    println!();
    drop(client.stdin);
    client.child.wait()?;
    Ok(())
}

/// The process's peak resident set size (Linux `VmHWM`), 0 where unavailable.
fn peak_rss_kb(pid: u32) -> u64 {
    proc_status_kb(pid, "VmHWM:")
}

/// A `kB` line of the process's `/proc/<pid>/status`, 0 where unavailable.
fn proc_status_kb(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|line| line.starts_with(field))
                .and_then(|line| line.split_whitespace().nth(1))
                .and_then(|kb| kb.parse().ok())
        })
        .unwrap_or(0)
}

/// The component the release host embeds: `OFGUI_BACKEND_WASM` when set (as the host's
/// build script takes it), else the one the build script built.
fn component_path(workspace: &Path) -> PathBuf {
    match std::env::var_os("OFGUI_BACKEND_WASM") {
        Some(path) => PathBuf::from(path),
        None => target_dir(workspace).join("backend-wasm/wasm32-wasip2/wasm/ofgui_backend.wasm"),
    }
}

fn target_dir(workspace: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.join("target"))
}

/// The server to measure: `OFGUI_BENCH_HOST` when set (a binary built elsewhere, to
/// compare two builds in one sitting), else this checkout's release build.
fn build_host(workspace: &Path) -> Result<PathBuf> {
    if let Some(host) = std::env::var_os("OFGUI_BENCH_HOST") {
        return Ok(PathBuf::from(host));
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(workspace)
        .args([
            "build",
            "--release",
            "--locked",
            "-p",
            "ofgui-host",
            "--bin",
            "ofgui-mcp-host",
        ])
        .status()?;
    if !status.success() {
        bail!("building ofgui-mcp-host failed");
    }
    Ok(target_dir(workspace).join("release/ofgui-mcp-host"))
}

fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from).with_context(|| format!("reading {}", from.display()))? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
            // The corpora are read-only and copying keeps that; saves refuse read-only files.
            let mut permissions = std::fs::metadata(&target)?.permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            permissions.set_readonly(false);
            std::fs::set_permissions(&target, permissions)?;
        }
    }
    Ok(())
}
