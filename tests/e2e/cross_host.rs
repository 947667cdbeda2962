//! The same `backend.wasm` under a second host: transpiled by jco and run by Node 22 with the
//! preview2 shim (`tests/clients/cross_host.mjs`, through the embedding code of
//! `tests/clients/embed_node.mjs`), it must answer every step of an agent's edit exactly as
//! `ofgui-mcp-host` does over MCP, on copies of both corpora, and save the same bytes.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use ofgui_contracts::envelope::BackendDiagnostic;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::clients::{clients_dir, installed, run};
use crate::harness::*;

const PREFLIGHT: &str = "openfairygui_backend_preflight_transaction";
const APPLY: &str = "openfairygui_backend_apply_transaction";
const VALIDATE: &str = "openfairygui_backend_validate_session";
const SAVE: &str = "openfairygui_backend_save_session";

const LIMIT: Duration = Duration::from_secs(180);

/// The built component, as `host/backend-wasm/build.rs` embeds it in the server.
fn backend_wasm() -> &'static Path {
    Path::new(ofgui_backend_wasm::BACKEND_WASM_FILE)
}

/// `jco transpile backend.wasm --instantiation async` of this build's component, once per
/// component: the output is kept in `<target dir>/jco/<hash>` and reused while the
/// component's bytes stay the same (a transpile takes seconds).
fn transpiled() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let node = &installed().node;
        let wasm = std::fs::read(backend_wasm()).expect("read backend.wasm");
        let hash: String = Sha256::digest(&wasm)[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let cache = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .parent()
            .expect("target dir")
            .join("jco");
        let dir = cache.join(&hash);
        std::fs::create_dir_all(&cache).expect("create the jco cache dir");
        // Test processes sharing the target dir transpile one at a time; the rename below
        // makes a finished output appear whole.
        let lock = std::fs::File::create(cache.join("transpile.lock")).expect("transpile.lock");
        lock.lock().expect("lock transpile.lock");
        if !dir.join("backend.js").exists() {
            let partial = cache.join(format!(".{hash}.{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&partial);
            let jco = clients_dir().join("node_modules/@bytecodealliance/jco/dist/jco.js");
            let mut command = Command::new(node);
            command
                .arg(&jco)
                .arg("transpile")
                .arg(backend_wasm())
                .args(["--instantiation", "async", "--name", "backend"])
                .args(["--no-typescript", "--quiet", "-o"])
                .arg(&partial);
            let started = Instant::now();
            let result = run(command, LIMIT);
            assert!(
                result.status.success() && partial.join("backend.js").exists(),
                "jco transpile failed ({}); tests/clients/install.sh installs jco:\n{}\n{}",
                result.status,
                result.stdout,
                result.stderr
            );
            std::fs::rename(&partial, &dir).expect("move the transpiled component in place");
            println!(
                "jco transpile of backend.wasm ({} bytes): {:.1} s",
                wasm.len(),
                started.elapsed().as_secs_f64()
            );
        }
        drop(lock);
        dir
    })
}

/// The `.fairy` file of a project directory.
fn fairy_file(dir: &Path) -> String {
    std::fs::read_dir(dir)
        .expect("read project dir")
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .find(|name| name.ends_with(".fairy"))
        .expect("a .fairy file")
}

/// One step as ofgui-mcp-host answered it, with the component method the same arguments
/// go to under the other host.
struct Step {
    method: &'static str,
    arguments: Value,
    envelope: Value,
    /// The result's `_meta["ofgui/additions"]`, `{}` when it has none.
    additions: Value,
}

/// Drives the edit of an agent through the MCP server: open, outline, query the first
/// display node, preflight and apply a move of it, validate, save.
async fn mcp_steps(server: &Server, project: &Path) -> (Value, Vec<Step>) {
    let (open, failed) = server
        .call(
            OPEN,
            json!({ "projectPath": project.display().to_string() }),
        )
        .await;
    assert!(!failed, "open failed: {open}");
    let id = open["data"]["sessionId"]
        .as_str()
        .expect("sessionId")
        .to_string();
    let mut steps = Vec::new();
    let mut step = async |method: &'static str, tool: &'static str, arguments: Value| {
        let Value::Object(object) = arguments.clone() else {
            panic!("arguments are an object")
        };
        let (envelope, failed, _, additions) = server.call_parts(tool, Some(object), None).await;
        assert!(!failed, "{tool} failed: {envelope}");
        steps.push(Step {
            method,
            arguments,
            envelope: envelope.clone(),
            additions: additions.unwrap_or_else(|| json!({})),
        });
        envelope
    };
    let outline = step("outline", OUTLINE, json!({ "sessionId": id })).await;
    let node = first_node(&outline["data"]);
    let target = json!({
        "kind": "displayNode",
        "selector": { "packageId": node.0, "componentResourceId": node.1, "displayNodeId": node.2 },
    });
    step(
        "queryEntity",
        QUERY,
        json!({ "sessionId": id, "target": target }),
    )
    .await;
    let batch =
        json!({ "sessionId": id, "expectedRevision": 0, "operations": move_node(&node, 37) });
    step("preflight", PREFLIGHT, batch.clone()).await;
    step("apply", APPLY, batch).await;
    step("validate", VALIDATE, json!({ "sessionId": id })).await;
    step(
        "save",
        SAVE,
        json!({ "sessionId": id, "expectedRevision": 1 }),
    )
    .await;
    (open, steps)
}

/// The fields of a session snapshot that the host makes itself: its session id, the
/// directory it resolved, its lock and its capability list. The component's answer has no
/// counterpart for them, so they are taken out of the MCP data before comparing; all else
/// (revisions, dirty, fidelity, and every field of the call's own data) must be equal.
const HOST_FIELDS: [&str; 4] = [
    "sessionId",
    "canonicalProjectPath",
    "lockHeld",
    "capabilities",
];

fn without_host_fields(data: &Value) -> Value {
    let mut data = data.as_object().expect("data object").clone();
    for field in HOST_FIELDS {
        assert!(data.remove(field).is_some(), "no {field} in {data:?}");
    }
    Value::Object(data)
}

/// A component status as the snapshot fields the host derives from it.
fn status_fields(status: &Value) -> Map<String, Value> {
    let mut fields = Map::new();
    for (to, from) in [
        ("revision", "revision"),
        ("lastSavedRevision", "lastSavedRevision"),
        ("dirty", "dirty"),
        ("uamFidelity", "fidelity"),
    ] {
        fields.insert(to.into(), status[from].clone());
    }
    fields
}

/// The component's diagnostics as the host shows them in `meta.diagnostics`: each enriched
/// from the catalog (owner, docs URI, remediation) for the session, as `envelope.rs` does.
fn enriched(diagnostics: &Value, session_id: &str) -> Value {
    let diagnostics: Vec<BackendDiagnostic> =
        serde_json::from_value(diagnostics.clone()).expect("component diagnostics");
    let enriched: Vec<BackendDiagnostic> = diagnostics
        .into_iter()
        .map(|d| d.enriched(Some(session_id)))
        .collect();
    serde_json::to_value(enriched).unwrap()
}

/// What the MCP envelope of `method` must hold given the component's answer `ok` under
/// jco: `(data, meta.revision, meta.diagnostics)`, next to the same parts of the real
/// envelope. Only the host's own snapshot fields are taken out (see [`HOST_FIELDS`]); run
/// specific values (`meta.requestId`, `meta.durationMs`) are simply not compared, since the
/// component never sees them.
fn compared(method: &str, ok: &Value, step: &Step, session_id: &str) -> [(Value, Value); 4] {
    let envelope = &step.envelope;
    let data = &envelope["data"];
    let status = &ok["status"];
    let mut additions = ok.get("additions").cloned().unwrap_or_else(|| json!({}));
    // The component's warnings are carried among its additions; the host moves them
    // into the envelope's meta.warnings, where warnings are read.
    let warnings = additions
        .as_object_mut()
        .and_then(|fields| fields.remove("warnings"))
        .unwrap_or_else(|| json!([]));
    assert_eq!(warnings, envelope["meta"]["warnings"], "{method}: warnings");
    let (expected, actual, additions) = match method {
        // The host passes these replies' data and additions on as the component wrote them.
        "outline" | "queryEntity" | "preflight" | "validate" => {
            (ok["data"].clone(), data.clone(), additions)
        }
        // The session's snapshot; the component's `generated` beside it.
        "apply" => {
            assert_eq!(ok["data"], Value::Null, "apply's data is null");
            let fields = status_fields(status);
            (Value::Object(fields), without_host_fields(data), additions)
        }
        // The snapshot, and beside it what the save did on disk (`saved`).
        "save" => {
            assert_eq!(ok["skippedPaths"], json!([]), "a save skips nothing");
            let fields = status_fields(status);
            let mut saved = Map::new();
            for field in [
                "writtenPaths",
                "removedPaths",
                "createdDirectories",
                "removedDirectories",
                "keptDirectories",
                "recoveredPaths",
                "writeVerified",
            ] {
                saved.insert(field.into(), ok[field].clone());
            }
            let additions = json!({ "saved": saved });
            (Value::Object(fields), without_host_fields(data), additions)
        }
        other => panic!("no comparison for {other}"),
    };
    let diagnostics = match ok.get("diagnostics") {
        Some(diagnostics) => enriched(diagnostics, session_id),
        // A save reply has no diagnostics; neither may the envelope.
        None => json!([]),
    };
    [
        (expected, actual),
        (additions, step.additions.clone()),
        (
            status["revision"].clone(),
            envelope["meta"]["revision"].clone(),
        ),
        (diagnostics, envelope["meta"]["diagnostics"].clone()),
    ]
}

/// Both hosts on copies of both corpora: every step's answer equal, the same files saved.
#[tokio::test(flavor = "multi_thread")]
async fn jco_host_answers_as_ours_does() {
    let node = installed().node.clone();
    let transpiled = transpiled();
    let ours = Workspace::new();
    let theirs = Workspace::new();
    let server = Server::start(&[ours.path()]).await;
    let mut projects = Vec::new();
    let mut runs = Vec::new();
    for (label, corpus) in [
        ("unity", unity_corpus()),
        ("experiments", experiments_corpus()),
    ] {
        let mcp_copy = ours.add(label, &corpus);
        let node_copy = theirs.add(label, &corpus);
        let (open, steps) = mcp_steps(&server, &mcp_copy).await;
        // The names a host knows the project by are labels the component only echoes (it
        // reads through its preopen): giving it the ones ofgui-mcp-host gave leaves nothing
        // in the answers that differs by run.
        let data = &open["data"];
        projects.push(json!({
            "label": label,
            "dir": node_copy,
            "open": {
                "sessionId": data["sessionId"],
                "fairyFile": fairy_file(&node_copy),
                "projectPath": mcp_copy.display().to_string(),
                "canonicalPathKey": data["canonicalProjectPath"],
            },
            "steps": steps.iter().map(|s| json!({ "method": s.method, "arguments": s.arguments })).collect::<Vec<_>>(),
        }));
        runs.push((label, corpus, mcp_copy, node_copy, open, steps));
    }
    let script = theirs.path().join("script.json");
    let script_json = json!({ "transpiled": transpiled, "projects": projects });
    std::fs::write(&script, script_json.to_string()).unwrap();
    let mut command = Command::new(&node);
    command
        .arg(clients_dir().join("cross_host.mjs"))
        .arg(&script);
    let result = run(command, LIMIT);
    assert!(
        result.status.success() && result.stderr.trim().is_empty(),
        "cross_host.mjs failed ({}):\n{}\n{}",
        result.status,
        result.stderr,
        result.stdout
    );
    let output: Value = serde_json::from_str(result.stdout.trim())
        .unwrap_or_else(|e| panic!("cross_host.mjs printed no JSON ({e}): {}", result.stdout));
    let answers = output["projects"].as_array().expect("projects");
    assert_eq!(answers.len(), runs.len());

    for ((label, corpus, mcp_copy, node_copy, open, steps), answer) in runs.iter().zip(answers) {
        let session_id = open["data"]["sessionId"].as_str().unwrap();
        // open: the first status, as the host's snapshot of it; no interrupted save.
        let opened = answer["open"]["ok"]
            .as_object()
            .unwrap_or_else(|| panic!("{label}: open failed under jco: {}", answer["open"]));
        assert_eq!(opened["recovery"], json!({ "tag": "clean" }), "{label}");
        assert_eq!(
            Value::Object(status_fields(&opened["status"])),
            without_host_fields(&open["data"]),
            "{label}: open"
        );
        assert_eq!(
            opened["status"]["revision"], open["meta"]["revision"],
            "{label}: open"
        );

        let replies = answer["steps"].as_array().expect("steps");
        assert_eq!(replies.len(), steps.len(), "{label}");
        for (step, reply) in steps.iter().zip(replies) {
            assert_eq!(reply["method"], step.method);
            let ok = reply
                .get("ok")
                .unwrap_or_else(|| panic!("{label}: {} failed under jco: {reply}", step.method));
            let [data, additions, revision, diagnostics] =
                compared(step.method, ok, step, session_id);
            assert_eq!(data.0, data.1, "{label}: {} data (jco, ours)", step.method);
            assert_eq!(
                additions.0, additions.1,
                "{label}: {} additions (jco, ours)",
                step.method
            );
            assert_eq!(revision.0, revision.1, "{label}: {} revision", step.method);
            assert_eq!(
                diagnostics.0, diagnostics.1,
                "{label}: {} diagnostics (jco, ours)",
                step.method
            );
        }

        // The two saves wrote the same bytes: one file changed, the rest as in the corpus.
        let original = snapshot(corpus);
        let ours_saved = snapshot(mcp_copy);
        let theirs_saved = snapshot(node_copy);
        let diff = |saved: &std::collections::BTreeMap<String, Vec<u8>>| {
            saved
                .iter()
                .filter(|(path, bytes)| original.get(*path) != Some(*bytes))
                .map(|(path, _)| path.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            diff(&theirs_saved).len(),
            1,
            "{label}: {:?}",
            diff(&theirs_saved)
        );
        assert!(
            ours_saved == theirs_saved,
            "{label}: the hosts saved different files: ours changed {:?}, jco's {:?}",
            diff(&ours_saved),
            diff(&theirs_saved)
        );

        // Figures for the benchmark (times not asserted: they depend on the machine's load).
        let figures = &answer["figures"];
        // Calls are asserted: four per file read (open-at, stat, one read, the drop) and per
        // directory listed (open-at, read-directory, the two drops) besides its entries,
        // and a handful once (preopens, the hash seed, the check for an interrupted save).
        let by_name = |name: &str| {
            figures["hostCallsByName"][format!("wasi:filesystem/types#{name}")]
                .as_u64()
                .unwrap_or(0)
        };
        let (reads, listings) = (
            by_name("Descriptor.read"),
            by_name("Descriptor.readDirectory"),
        );
        let entries = by_name("DirectoryEntryStream.readDirectoryEntry");
        let budget = 4 * (reads + listings) + entries + 8;
        let calls = figures["hostCalls"].as_u64().expect("hostCalls");
        assert!(
            reads > 0 && calls <= budget,
            "{label}: the open made {calls} WASI calls, more than {budget} for {reads} files and {listings} directories: {}",
            figures["hostCallsByName"]
        );
        println!(
            "{label}: jco/Node instantiate {:.1} ms, open {:.1} ms, {} WASI calls during instantiate+open {}; ofgui-mcp-host open {} ms",
            figures["instantiateMs"].as_f64().unwrap_or_default(),
            figures["openMs"].as_f64().unwrap_or_default(),
            figures["hostCalls"],
            figures["hostCallsByName"],
            open["meta"]["durationMs"]
        );
    }
}

/// `embed_node.mjs` as a program (the code docs/embedding.md quotes) on a fresh corpus copy: it
/// opens the project and lists the packages ofgui-mcp-host's outline lists.
#[tokio::test(flavor = "multi_thread")]
async fn node_embedding_example_runs() {
    let node = installed().node.clone();
    let transpiled = transpiled();
    let workspace = Workspace::new();
    let project = workspace.add("experiments", &experiments_corpus());
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;
    let outline = server.ok(OUTLINE, json!({ "sessionId": id })).await;
    server.ok(CLOSE, json!({ "sessionId": id })).await;
    let names = package_names(&outline);
    let mut command = Command::new(&node);
    command
        .arg(clients_dir().join("embed_node.mjs"))
        .arg(transpiled)
        .arg(&project)
        .arg(fairy_file(&project));
    let result = run(command, LIMIT);
    assert!(
        result.status.success() && result.stderr.trim().is_empty(),
        "embed_node.mjs failed ({}):\n{}\n{}",
        result.status,
        result.stderr,
        result.stdout
    );
    assert_eq!(
        result.stdout.trim(),
        format!("revision 0: {}", names.join(", "))
    );
}
