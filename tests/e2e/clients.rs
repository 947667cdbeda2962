//! The server through the clients agents really use: the official Python SDK (PyPI `mcp`), the
//! official TypeScript SDK and the MCP Inspector's strict tool-schema portability check, all
//! installed from their registries by `tests/clients/install.sh`. Each SDK runs a scripted
//! agent session on copies of both corpora and validates every result against the advertised
//! output schema itself; a warning on a client's stderr fails the test like an error does.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::harness::*;

/// The client scripts and the npm lock file.
pub(crate) fn clients_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/clients")
}

/// Where the installer keeps the venv, the Node 22 link and its stamp: `<target dir>/clients`,
/// the installer's own default, so `tests/run`'s install is the one the tests find.
fn state_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .join("clients")
}

/// The installed client programs.
pub(crate) struct Installed {
    pub(crate) node: PathBuf,
    pub(crate) python: PathBuf,
}

/// Runs the installer once per test process, under a lock file so concurrent test processes
/// (or checkouts sharing a target dir) neither install twice at once nor read a half install.
pub(crate) fn installed() -> &'static Installed {
    static INSTALLED: OnceLock<Installed> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let state = state_dir();
        std::fs::create_dir_all(&state).expect("create the clients state dir");
        let lock = std::fs::File::create(state.join("install.lock")).expect("create install.lock");
        lock.lock().expect("lock install.lock");
        let script = clients_dir().join("install.sh");
        let output = Command::new("bash")
            .arg(&script)
            .env("OFGUI_CLIENTS_DIR", &state)
            .stdin(Stdio::null())
            .output();
        let output = output.unwrap_or_else(|e| panic!("cannot run bash (it runs install.sh): {e}"));
        drop(lock);
        assert!(
            output.status.success(),
            "{} failed ({}); these tests need python3 >= 3.10 and npm, and the npm registry and PyPI \
             reachable:\n{}{}",
            script.display(),
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        let installed = Installed {
            node: state.join("node"),
            python: state.join("venv/bin/python"),
        };
        for program in [&installed.node, &installed.python] {
            assert!(program.exists(), "the installer left no {}", program.display());
        }
        installed
    })
}

/// What a client process did.
pub(crate) struct Run {
    pub(crate) status: std::process::ExitStatus,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

/// Runs `command` to completion, killing it after `limit` so a hung client fails the test
/// instead of hanging it.
pub(crate) fn run(mut command: Command, limit: Duration) -> Run {
    let what = format!("{command:?}");
    let mut child: Child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {what}: {e}"));
    // Drained on threads so a chatty client cannot block on a full pipe.
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            pipe.read_to_string(&mut text).expect("read client output");
            text
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("stdout")));
    let stderr = drain(Box::new(child.stderr.take().expect("stderr")));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for client") {
            break status;
        }
        if started.elapsed() > limit {
            child.kill().expect("kill hung client");
            child.wait().expect("reap hung client");
            panic!("{what} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        status,
        stdout: stdout.join().expect("stdout thread"),
        stderr: stderr.join().expect("stderr thread"),
    }
}

/// The server command line a client spawns: the real binary on the workspace root.
pub(crate) fn server_args(root: &Path, extra: &[&str]) -> Vec<String> {
    let mut args = vec![
        env!("CARGO_BIN_EXE_ofgui-mcp-host").to_string(),
        "--project-dir".into(),
        root.display().to_string(),
        "--cache-dir".into(),
        cache_dir().display().to_string(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

const LIMIT: Duration = Duration::from_secs(180);

/// One scripted session by a client on a fresh copy of `corpus`, asserting it finished
/// without a warning and that its edit reached the disk as exactly one changed file.
fn session(label: &str, corpus: &Path, client: impl FnOnce(&Path, &Path, Vec<String>) -> Command) {
    let workspace = Workspace::new();
    let project = workspace.add("project", corpus);
    let before = snapshot(&project);
    let log = workspace.path().join("server.log");
    let command = client(&project, &log, server_args(workspace.path(), &[]));
    let result = run(command, LIMIT);
    let server_log = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        result.status.success(),
        "{label} session failed ({}):\n{}\n{}\nserver stderr:\n{server_log}",
        result.status,
        result.stderr,
        result.stdout
    );
    assert!(
        result.stderr.trim().is_empty(),
        "{label} session printed warnings on stderr:\n{}",
        result.stderr
    );
    let summary: Value = serde_json::from_str(result.stdout.trim())
        .unwrap_or_else(|e| panic!("{label} printed no summary ({e}): {}", result.stdout));
    let calls = summary["calls"].as_array().expect("calls");
    for tool in [
        "open_session",
        "get_project_outline",
        "search_project",
        "query_entity",
        "read_session_state",
        "validate_session",
        "preflight_transaction",
        "apply_transaction",
        "save_session",
        "get_events",
        "close_session",
    ]
    .iter()
    .chain(if label.starts_with("python") {
        // The Python session exercises the whole surface.
        &[
            "get_capabilities",
            "open_project_session",
            "get_session",
            "read_resource_bytes",
            "materialize_session",
            "get_cache_snapshot",
            "refresh_cache",
        ][..]
    } else {
        &[][..]
    }) {
        assert!(
            calls.contains(&Value::from(*tool)),
            "{label} never called {tool}: {summary}"
        );
    }
    let after = snapshot(&project);
    let changed: Vec<&String> = after
        .iter()
        .filter(|(path, bytes)| before.get(*path) != Some(*bytes))
        .map(|(path, _)| path)
        .collect();
    assert_eq!(
        changed.len(),
        1,
        "{label}: the one-node edit should change one file: {changed:?}"
    );
    assert_eq!(
        before.len(),
        after.len(),
        "{label}: the save added or removed files"
    );
    assert!(
        server_log.trim().is_empty(),
        "{label}: the server logged at warn or above:\n{server_log}"
    );
}

fn corpora_list() -> [(&'static str, PathBuf); 2] {
    [
        ("unity", unity_corpus()),
        ("experiments", experiments_corpus()),
    ]
}

/// Runs `each` for every corpus on its own thread: the clients spend most of their time
/// starting up, so the sessions overlap well even on two cores.
fn on_both_corpora(each: impl Fn(&str, &Path) + Sync) {
    installed();
    warm_compile_cache();
    std::thread::scope(|scope| {
        let each = &each;
        let handles: Vec<_> = corpora_list()
            .into_iter()
            .map(|(name, corpus)| scope.spawn(move || each(name, &corpus)))
            .collect();
        for handle in handles {
            if let Err(panic) = handle.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
}

fn python(mode: &str) -> impl Fn(&Path, &Path, Vec<String>) -> Command {
    move |project, log, server| {
        let mut command = Command::new(&installed().python);
        command
            .arg(clients_dir().join("py_session.py"))
            .arg("--mode")
            .arg(mode)
            .arg("--project")
            .arg(project)
            .arg("--server-log")
            .arg(log)
            .arg("--")
            .args(server);
        command
    }
}

/// The Python SDK with the initialize handshake (what agent hosts speak today) on both corpora.
#[test]
fn python_sdk_session_with_initialize() {
    on_both_corpora(|name, corpus| {
        session(&format!("python legacy {name}"), corpus, python("legacy"))
    });
}

/// The Python SDK with its default connection (`auto`: probes `server/discover`, then speaks
/// the 2026 protocol when offered) on both corpora.
#[test]
fn python_sdk_session_with_defaults() {
    on_both_corpora(|name, corpus| session(&format!("python auto {name}"), corpus, python("auto")));
}

/// The TypeScript SDK (run by Node 22) on both corpora.
#[test]
fn typescript_sdk_session() {
    on_both_corpora(|name, corpus| {
        session(
            &format!("typescript {name}"),
            corpus,
            |project, log, server| {
                let mut command = Command::new(&installed().node);
                command
                    .arg(clients_dir().join("node_session.mjs"))
                    .arg("--project")
                    .arg(project)
                    .arg("--server-log")
                    .arg(log)
                    .arg("--")
                    .args(server);
                command
            },
        )
    });
}

/// `inspector --cli <server> --method tools/list --strict --format json`: the strict portability
/// check (full findings on stderr, exit 6 on an error, `schemaFindings` in the JSON), held to
/// zero errors and zero warnings. Returns the number of tools listed.
fn inspector_strict_tools_list(extra: &[&str]) -> usize {
    let installed = installed();
    warm_compile_cache();
    let workspace = Workspace::new();
    let inspector = clients_dir()
        .join("node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");
    let mut command = Command::new(&installed.node);
    command
        .arg(inspector)
        .args([
            "--cli",
            "--strict",
            "--format",
            "json",
            "--method",
            "tools/list",
        ])
        // The Inspector passes the server only a few variables; quiet its info logs.
        .args(["-e", "OFGUI_LOG=warn"])
        .arg("--")
        .args(server_args(workspace.path(), extra))
        // Its catalog would otherwise be written to ~/.mcp-inspector.
        .env("MCP_CATALOG_PATH", workspace.path().join("catalog.json"));
    let result = run(command, LIMIT);
    let output: Value = serde_json::from_str(result.stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "the Inspector printed no JSON ({e}, {}):\n{}\n{}",
            result.status, result.stdout, result.stderr
        )
    });
    // One line per finding; the Inspector's own report on stderr says why and how to fix it.
    let findings: Vec<String> = output["schemaFindings"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|tool| {
            tool["findings"]
                .as_array()
                .into_iter()
                .flatten()
                .map(move |f| {
                    format!(
                        "{} {} {}.{} ({})",
                        f["severity"].as_str().unwrap_or("?"),
                        tool["toolName"].as_str().unwrap_or("?"),
                        f["schema"].as_str().unwrap_or("?"),
                        f["path"].as_str().unwrap_or("?"),
                        f["rule"].as_str().unwrap_or("?")
                    )
                })
        })
        .collect();
    assert!(
        findings.is_empty() && result.stderr.trim().is_empty(),
        "the Inspector's strict portability check is not clean ({}, {} findings):\n{}\n\n{}",
        result.status,
        findings.len(),
        findings.join("\n"),
        result.stderr
    );
    assert!(
        result.status.success(),
        "the Inspector exited with {}",
        result.status
    );
    output["result"]["tools"].as_array().expect("tools").len()
}

/// The acceptance check of the tool list as served by default.
#[test]
fn inspector_strict_portability_check() {
    let tools = inspector_strict_tools_list(&[]);
    assert!(tools >= 14, "only {tools} tools listed");
}

/// The same check on `--full-schemas`, which advertises every schema inline for clients that
/// decode against them: those clients need the portable subset the most.
#[test]
fn inspector_strict_portability_check_full_schemas() {
    let tools = inspector_strict_tools_list(&["--full-schemas"]);
    assert!(tools >= 14, "only {tools} tools listed");
}
