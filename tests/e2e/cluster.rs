//! Past one machine: two real nodes sharing a state directory behind HAProxy with the
//! shipped `deploy/haproxy.cfg`, round-robin. Agents of the Python SDK, eight speaking MCP
//! 2026-07-28 and two with the legacy handshake, edit their own projects while one node is
//! SIGKILLed and later started again; every agent goes on with its session id, and what
//! they saved is, byte for byte, what the same edits saved on a single node. And two nodes
//! racing for one dead node's session never both write it.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::clients::{clients_dir, installed};
use crate::harness::{Workspace, cache_dir, example_project, snapshot, warm_compile_cache};
use crate::over_http;

const EDITS: usize = 9;
const MODERN: usize = 8;
const LEGACY: usize = 2;

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One `serve --http` node; its log is read on a thread (returned when it ends).
struct Node {
    child: Child,
    log: std::thread::JoinHandle<String>,
}

impl Node {
    /// Starts node `name` of the projects in `root` on `port`, sharing `state`; returns once
    /// it serves.
    fn start(root: &Path, state: &Path, name: &str, port: u16) -> Node {
        warm_compile_cache();
        let mut child = Command::new(env!("CARGO_BIN_EXE_ofgui-mcp-host"))
            .arg("--project-dir")
            .arg(root)
            .arg("--cache-dir")
            .arg(cache_dir())
            .arg("--state-dir")
            .arg(state)
            .args(["--node-id", name, "serve", "--http"])
            .arg(format!("127.0.0.1:{port}"))
            .env("OFGUI_LOG", "info")
            .env_remove("OFGUI_AUTH_TOKEN")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start a node");
        let mut lines = BufReader::new(child.stderr.take().unwrap());
        let mut seen = String::new();
        loop {
            let mut line = String::new();
            if lines.read_line(&mut line).unwrap() == 0 {
                panic!("node {name} exited before serving:\n{seen}");
            }
            seen.push_str(&line);
            if line.contains("addr=") {
                break;
            }
        }
        let log = std::thread::spawn(move || {
            let mut text = seen;
            for line in lines.lines().map_while(Result::ok) {
                text.push_str(&line);
                text.push('\n');
            }
            text
        });
        Node { child, log }
    }

    /// SIGKILL, as a crash or an OOM killer ends a node; its log.
    fn kill(mut self) -> String {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
        self.log.join().unwrap_or_default()
    }
}

/// HAProxy with the shipped configuration, its addresses from the environment only.
struct Balancer {
    child: Child,
    addr: String,
}

impl Balancer {
    fn start(node1: u16, node2: u16) -> Balancer {
        let addr = format!("127.0.0.1:{}", free_port());
        let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/haproxy.cfg");
        let child = Command::new("haproxy")
            .arg("-f")
            .arg(&config)
            .arg("-db")
            .env("OFGUI_LB_BIND", &addr)
            .env("OFGUI_NODE1", format!("127.0.0.1:{node1}"))
            .env("OFGUI_NODE2", format!("127.0.0.1:{node2}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|error| {
                panic!(
                    "cannot run haproxy ({error}): tests/run installs Debian's haproxy; install it"
                )
            });
        let balancer = Balancer { child, addr };
        // Up once it answers /readyz from a node (its health checks passed).
        let deadline = Instant::now() + Duration::from_secs(20);
        while get_status(&balancer.addr, "/readyz") != Some(200) {
            assert!(Instant::now() < deadline, "haproxy never became ready");
            std::thread::sleep(Duration::from_millis(100));
        }
        balancer
    }
}

impl Drop for Balancer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The status of a GET, or `None` when nothing answers.
fn get_status(addr: &str, path: &str) -> Option<u16> {
    get(addr, path).map(|(status, _)| status)
}

/// A GET's status and the node that answered it (`x-ofgui-node`).
fn get(addr: &str, path: &str) -> Option<(u16, Option<String>)> {
    let mut stream = std::net::TcpStream::connect(addr).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut lines = BufReader::new(stream).lines().map_while(Result::ok);
    let status = lines.next()?.split_whitespace().nth(1)?.parse().ok()?;
    let node = lines.take_while(|line| !line.is_empty()).find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("x-ofgui-node")
            .then(|| value.trim().to_owned())
    });
    Some((status, node))
}

impl Balancer {
    /// Waits until the balancer sends requests to `node` again (its health checks passed).
    fn serves_through(&self, node: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while get(&self.addr, "/readyz") != Some((200, Some(node.to_owned()))) {
            assert!(
                Instant::now() < deadline,
                "haproxy never sent to {node} again"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// `MODERN + LEGACY` copies of the example project in a fresh workspace.
fn projects(workspace: &Workspace) -> Vec<PathBuf> {
    (0..MODERN + LEGACY)
        .map(|index| workspace.add(&format!("game{index}"), &example_project()))
        .collect()
}

/// Runs the agents against `url`; `on` is told each step they print (`KILL`, `RESTART`)
/// before they go on. Their report.
fn agents(url: &str, projects: &[PathBuf], mut on: impl FnMut(&str)) -> Vec<Value> {
    let mut command = Command::new(&installed().python);
    command
        .arg(clients_dir().join("py_cluster.py"))
        .args(["--url", url, "--edits", &EDITS.to_string(), "--modern"])
        .args(&projects[..MODERN])
        .arg("--legacy")
        .args(&projects[MODERN..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("run py_cluster.py");
    let mut stdin = child.stdin.take().unwrap();
    let stderr = child.stderr.take().unwrap();
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            text.push_str(&line);
            text.push('\n');
        }
        text
    });
    let mut report = None;
    for line in BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map_while(Result::ok)
    {
        match line.as_str() {
            "KILL" | "RESTART" => {
                on(&line);
                writeln!(stdin, "go").unwrap();
            }
            _ => report = Some(line),
        }
    }
    let status = child.wait().unwrap();
    let stderr = errors.join().unwrap();
    assert!(status.success(), "py_cluster.py failed: {status}\n{stderr}");
    let report: Vec<Value> = serde_json::from_str(&report.expect("a report")).unwrap();
    report
}

#[test]
fn two_nodes_behind_haproxy_lose_no_edit_when_one_is_killed() {
    installed();
    // The same edits on one node, with no balancer and no death: what the disk must hold.
    let single = Workspace::new();
    let single_projects = projects(&single);
    let single_state = single.path().join(".state");
    let port = free_port();
    let alone = Node::start(single.path(), &single_state, "node1", port);
    let expected = agents(
        &format!("http://127.0.0.1:{port}/mcp"),
        &single_projects,
        |_| {},
    );
    alone.kill();
    for agent in &expected {
        assert_eq!(agent["errors"], json!([]), "single node: {agent}");
    }

    let workspace = Workspace::new();
    let cluster_projects = projects(&workspace);
    let state = workspace.path().join(".state");
    let (port1, port2) = (free_port(), free_port());
    let mut node1 = Some(Node::start(workspace.path(), &state, "node1", port1));
    let node2 = Node::start(workspace.path(), &state, "node2", port2);
    let balancer = Balancer::start(port1, port2);
    let mut killed_log = String::new();
    let report = agents(
        &format!("http://{}/mcp", balancer.addr),
        &cluster_projects,
        |step| match step {
            "KILL" => killed_log = node1.take().expect("node1 runs").kill(),
            _ => {
                node1 = Some(Node::start(workspace.path(), &state, "node1", port1));
                balancer.serves_through("node1");
            }
        },
    );
    let node2_log = {
        let Node { mut child, log } = node2;
        // SAFETY: `kill` with our own child's pid and a standard signal.
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        child.wait().unwrap();
        log.join().unwrap_or_default()
    };
    let node1_log = node1.map(Node::kill).unwrap_or_default();
    let logs = format!(
        "node1 (killed):\n{killed_log}\nnode2:\n{node2_log}\nnode1 (restarted):\n{node1_log}"
    );

    let mut on_node1 = 0;
    for (agent, alone) in report.iter().zip(&expected) {
        assert_eq!(agent["errors"], json!([]), "{agent}\n{logs}");
        let id = agent["sessionId"].as_str().unwrap();
        on_node1 += usize::from(id.starts_with("node1."));
        assert!(id.starts_with("node1.") || id.starts_with("node2."), "{id}");
        let revisions: Vec<u64> = (1..=EDITS as u64).collect();
        assert_eq!(agent["revisions"], json!(revisions), "{agent}");
        assert_eq!(agent["finalRevision"], json!(EDITS), "{agent}");
        assert_eq!(agent["dirty"], json!(false), "{agent}");
        assert_eq!(agent["revisions"], alone["revisions"]);
    }
    assert_eq!(
        report
            .iter()
            .filter(|a| a["protocol"] == "2026-07-28")
            .count(),
        MODERN,
        "{report:?}"
    );
    // Round-robin spread the sessions; those node1 opened lived through its death.
    assert!(on_node1 > 0 && on_node1 < MODERN + LEGACY, "{report:?}");
    assert!(
        killed_log.contains("serving MCP"),
        "node1 ran before it was killed:\n{killed_log}"
    );
    assert!(
        node2_log.contains("resumed a session from its record"),
        "node2 served node1's sessions on:\n{logs}"
    );
    // Back, node1 gets its sessions' requests again and sends them to node2, which has them.
    assert!(
        node1_log.contains("relayed to the node serving its session"),
        "the restarted node1 relayed:\n{logs}"
    );
    for (cluster, alone) in cluster_projects.iter().zip(&single_projects) {
        assert_eq!(
            snapshot(cluster),
            snapshot(alone),
            "{} differs from the single-node run",
            cluster.display()
        );
    }
}

/// A tool call to a node or the balancer, which hold no tokens.
fn call(addr: &str, tool: &str, arguments: Value) -> Value {
    over_http::call(addr, None, tool, arguments)
}

/// The value of an unlabelled sample in a node's `/metrics`.
fn metric(addr: &str, name: &str) -> f64 {
    let agent = over_http::agent();
    let text = agent
        .get(format!("http://{addr}/metrics"))
        .call()
        .unwrap()
        .into_body()
        .read_to_string()
        .unwrap();
    text.lines()
        .find_map(|line| line.strip_prefix(&format!("{name} ")))
        .unwrap_or_else(|| panic!("no {name} in {text}"))
        .parse()
        .unwrap()
}

/// A node dies holding a session with an unsaved edit; two live nodes get a write for it
/// at the same moment. One of them takes it over and writes; the other waits for the move
/// and sends its request there, so the session has one writer, never two, and the later
/// write is refused as stale exactly as on one node.
#[test]
fn two_nodes_racing_for_a_dead_nodes_session_never_both_write_it() {
    const APPLY: &str = "openfairygui_backend_apply_transaction";
    let workspace = Workspace::new();
    let state = workspace.path().join(".state");
    let ports = [free_port(), free_port()];
    let nodes = [
        Node::start(workspace.path(), &state, "node1", ports[0]),
        Node::start(workspace.path(), &state, "node2", ports[1]),
    ];
    let addrs = ports.map(|port| format!("127.0.0.1:{port}"));
    for round in 0..4 {
        let project = workspace.add(&format!("race{round}"), &example_project());
        let dying_port = free_port();
        let dying = Node::start(workspace.path(), &state, "node0", dying_port);
        let at = format!("127.0.0.1:{dying_port}");
        let (session, node) = over_http::open(&at, None, &project);
        assert_eq!(
            call(&at, APPLY, over_http::move_at(&session, 0, &node, 1))["ok"],
            true
        );
        dying.kill();

        let start = std::sync::Barrier::new(2);
        let answers: Vec<Value> = std::thread::scope(|scope| {
            let racers: Vec<_> = addrs
                .iter()
                .zip([2, 3])
                .map(|(addr, x)| {
                    let (start, session, node) = (&start, &session, &node);
                    scope.spawn(move || {
                        start.wait();
                        call(addr, APPLY, over_http::move_at(session, 1, node, x))
                    })
                })
                .collect();
            racers.into_iter().map(|r| r.join().unwrap()).collect()
        });
        let won: Vec<usize> = (0..2).filter(|&i| answers[i]["ok"] == true).collect();
        assert_eq!(won.len(), 1, "round {round}: one write wins: {answers:?}");
        let lost = &answers[1 - won[0]];
        // The later write was sent to the node that took the session over and found the
        // revision moved on: refused as stale, as on one node, not as locked.
        assert_eq!(
            lost["error"]["code"], "stale_write",
            "round {round}: {answers:?}"
        );
        // One node has the session open as its writer; the other has nothing open.
        let open: Vec<f64> = addrs
            .iter()
            .map(|addr| metric(addr, "ofgui_sessions_open"))
            .collect();
        assert_eq!(open.iter().sum::<f64>(), 1.0, "round {round}: {open:?}");
        let holder = &addrs[usize::from(open[1] == 1.0)];
        let saved = call(
            holder,
            "openfairygui_backend_save_session",
            json!({ "sessionId": session, "expectedRevision": 2 }),
        );
        assert_eq!(saved["ok"], true, "round {round}: {saved}");
        call(
            holder,
            "openfairygui_backend_close_session",
            json!({ "sessionId": session }),
        );
    }
    for node in nodes {
        node.kill();
    }
}

/// A write its node journaled and died before answering is sent again (by the balancer, or
/// the agent): the node that takes the session over answers it as done, once, with the
/// answer replaying it gave, instead of refusing it as stale; any other write at that
/// revision is still stale.
#[test]
fn a_write_sent_again_after_its_node_died_is_answered_as_done_once() {
    const APPLY: &str = "openfairygui_backend_apply_transaction";
    let workspace = Workspace::new();
    let state = workspace.path().join(".state");
    let project = workspace.add("game", &example_project());
    let (dying_port, port) = (free_port(), free_port());
    let dying = Node::start(workspace.path(), &state, "node1", dying_port);
    let at = format!("127.0.0.1:{dying_port}");
    let (session, node) = over_http::open(&at, None, &project);
    let first = call(&at, APPLY, over_http::move_at(&session, 0, &node, 5));
    assert_eq!(first["ok"], true, "{first}");
    dying.kill();

    let survivor = Node::start(workspace.path(), &state, "node2", port);
    let there = format!("127.0.0.1:{port}");
    let again = call(&there, APPLY, over_http::move_at(&session, 0, &node, 5));
    assert_eq!(again["ok"], true, "{again}");
    assert_eq!(
        again["data"]["revision"], first["data"]["revision"],
        "{again}"
    );
    for (x, why) in [(5, "a third time"), (6, "another write")] {
        let stale = call(&there, APPLY, over_http::move_at(&session, 0, &node, x));
        assert_eq!(stale["error"]["code"], "stale_write", "{why}: {stale}");
    }
    let state_now = call(
        &there,
        "openfairygui_backend_get_session",
        json!({ "sessionId": session }),
    );
    assert_eq!(state_now["data"]["revision"], 1, "{state_now}");
    survivor.kill();
}

/// A rolling restart: the node serving a session is sent SIGTERM (a supervisor replacing
/// it). Its calls in flight finish, it refuses new ones while it drains, and the session's
/// next calls, through the balancer, are served by the other node once it has exited:
/// same id, same revision, nothing lost, and no error on the way.
#[test]
fn a_node_drained_by_sigterm_hands_its_sessions_on() {
    const APPLY: &str = "openfairygui_backend_apply_transaction";
    let workspace = Workspace::new();
    let state = workspace.path().join(".state");
    let project = workspace.add("game", &example_project());
    let ports = [free_port(), free_port()];
    let mut nodes = [
        Some(Node::start(workspace.path(), &state, "node1", ports[0])),
        Some(Node::start(workspace.path(), &state, "node2", ports[1])),
    ];
    let balancer = Balancer::start(ports[0], ports[1]);
    let lb = balancer.addr.clone();
    let (session, node) = over_http::open(&lb, None, &project);
    assert_eq!(
        call(&lb, APPLY, over_http::move_at(&session, 0, &node, 3))["ok"],
        true
    );

    let holder = usize::from(session.starts_with("node2."));
    let drained = nodes[holder].take().unwrap();
    // SAFETY: `kill` with our own child's pid and a standard signal.
    unsafe { libc::kill(drained.child.id() as i32, libc::SIGTERM) };
    for revision in 1..4 {
        let applied = call(
            &lb,
            APPLY,
            over_http::move_at(&session, revision, &node, 3 + revision as i64),
        );
        assert_eq!(applied["ok"], true, "{applied}");
        assert_eq!(applied["data"]["revision"], revision + 1, "{applied}");
    }
    let Node { mut child, log } = drained;
    assert!(child.wait().unwrap().success(), "the drained node exits 0");
    let log = log.join().unwrap_or_default();
    assert!(log.contains("shutting down"), "{log}");
    let saved = call(
        &lb,
        "openfairygui_backend_save_session",
        json!({ "sessionId": session, "expectedRevision": 4 }),
    );
    assert_eq!(saved["ok"], true, "{saved}");
    drop(balancer);
    for node in nodes.into_iter().flatten() {
        node.kill();
    }
}

/// A node's name is 1 to 32 letters, digits, - and _ (it starts its sessions' ids and the
/// balancer routes on it): 32 serve, 33 or a dot are refused at the start, saying why.
#[test]
fn a_node_id_is_held_to_its_limits_at_the_start() {
    let workspace = Workspace::new();
    let state = workspace.path().join(".state");
    let longest = "n".repeat(32);
    let node = Node::start(workspace.path(), &state, &longest, free_port());
    node.kill();
    for refused in ["n".repeat(33), "node.1".to_owned(), String::new()] {
        let output = Command::new(env!("CARGO_BIN_EXE_ofgui-mcp-host"))
            .arg("--project-dir")
            .arg(workspace.path())
            .arg("--state-dir")
            .arg(&state)
            .args(["--node-id", &refused, "serve", "--http", "127.0.0.1:0"])
            .output()
            .unwrap();
        assert!(!output.status.success(), "{refused:?} was taken");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("a node id is 1 to 32 letters, digits, - and _"),
            "{refused:?}: {stderr}"
        );
    }
}
