//! The component in two hosts: instantiate + open of each corpus project in wasmtime (the
//! `ofgui-host` runtime, as the server does per session) and in Node under jco's preview2
//! shim (`tests/clients/cross_host.mjs`, the cross-host test's driver), and the WASI calls
//! one open makes.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use ofgui_host::backend::bindings::OpenRequest;
use ofgui_host::backend::runtime::{InstanceLimits, Runtime};
use ofgui_host::backend::sandbox::FontDirs;
use serde_json::{Value, json};

use crate::{RUNS, copy_tree, median, ms};

/// A corpus project to open: its label, directory and `.fairy` file.
pub struct Project<'a> {
    pub name: &'a str,
    pub dir: &'a Path,
}

pub fn embedding(workspace: &Path, target: &Path, wasm: &Path, projects: &[Project]) -> Result<()> {
    let node = install_node(workspace, target)?;
    let transpiled = tempfile::tempdir()?;
    transpile(workspace, &node, wasm, transpiled.path())?;
    let runtime = Runtime::new(None, InstanceLimits::DEFAULT, FontDirs::default())?;
    let tokio = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;

    println!(
        "\n| project | files read | WASI calls per open | wasmtime: instantiate + open | Node 22 + jco: instantiate | Node: open | Node: instantiate + open | Node / wasmtime |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for project in projects {
        let copy = tempfile::tempdir()?;
        copy_tree(project.dir, copy.path())?;
        let fairy_file = fairy_file(copy.path())?;
        let ours = tokio.block_on(wasmtime_opens(&runtime, copy.path(), &fairy_file))?;
        let node_runs = node_opens(
            &node,
            workspace,
            transpiled.path(),
            copy.path(),
            &fairy_file,
        )?;
        let (instantiate, open): (Vec<_>, Vec<_>) = node_runs.runs.iter().copied().unzip();
        let both: Vec<Duration> = node_runs.runs.iter().map(|(i, o)| *i + *o).collect();
        let ours_median = median(ours);
        let theirs_median = median(both);
        println!(
            "| {} | {} | {} (wasmtime: {}) | {} | {} | {} | {} | {:.1}× |",
            project.name,
            node_runs.read_lengths.len(),
            node_runs.calls,
            node_runs.calls + node_runs.extra_capped_reads(),
            ms(ours_median),
            ms(median(instantiate)),
            ms(median(open)),
            ms(theirs_median),
            theirs_median.as_secs_f64() / ours_median.as_secs_f64(),
        );
    }
    println!(
        "\nmedian of {RUNS} fresh instances each, compiled code reused (wasmtime's `InstancePre`, one `WebAssembly.Module` per core module in Node). WASI calls counted by wrapping the shim's imports; wasmtime gets the same calls plus one `read` per further 64 KiB of a file (its cap on one read), worked out from the lengths the shim's reads returned."
    );
    Ok(())
}

/// Instantiates and opens `dir` [`RUNS`] times in fresh instances of the host's runtime.
async fn wasmtime_opens(runtime: &Runtime, dir: &Path, fairy_file: &str) -> Result<Vec<Duration>> {
    let roots = [dir.to_path_buf()];
    let project = ofgui_host::backend::sandbox::resolve_project(&dir.display().to_string(), &roots)
        .map_err(|refusal| anyhow::anyhow!("{refusal:?}"))?;
    let request = OpenRequest {
        session_id: "s1".into(),
        fairy_file: fairy_file.into(),
        project_path: dir.display().to_string(),
        canonical_path_key: project.key.clone(),
        revision: 0,
    };
    let mut times = Vec::new();
    for _ in 0..RUNS {
        let started = Instant::now();
        let opened = runtime
            .open(&request, &project)
            .await
            .map_err(|error| anyhow::anyhow!("open in wasmtime: {error:?}"))?;
        times.push(started.elapsed());
        opened.instance.close().await;
    }
    Ok(times)
}

struct NodeRuns {
    /// (instantiate, open) per run.
    runs: Vec<(Duration, Duration)>,
    calls: u64,
    /// The bytes each `read` of the last open returned: one read per file under the shim.
    read_lengths: Vec<u64>,
}

impl NodeRuns {
    /// The reads wasmtime needs beyond these: it returns at most 64 KiB per `read`.
    fn extra_capped_reads(&self) -> u64 {
        const CAP: u64 = 64 * 1024;
        self.read_lengths
            .iter()
            .map(|length| length.div_ceil(CAP).saturating_sub(1))
            .sum()
    }
}

fn node_opens(
    node: &Path,
    workspace: &Path,
    transpiled: &Path,
    dir: &Path,
    fairy_file: &str,
) -> Result<NodeRuns> {
    let script = tempfile::NamedTempFile::new()?;
    let key = dir.display().to_string();
    std::fs::write(
        script.path(),
        serde_json::to_vec(&json!({
            "transpiled": transpiled,
            "runs": RUNS,
            "projects": [{
                "label": "bench",
                "dir": dir,
                "open": { "sessionId": "s1", "fairyFile": fairy_file, "projectPath": key, "canonicalPathKey": key },
                "steps": [],
            }],
        }))?,
    )?;
    let output = Command::new(node)
        .arg(workspace.join("tests/clients/cross_host.mjs"))
        .arg(script.path())
        .output()?;
    if !output.status.success() {
        bail!(
            "cross_host.mjs failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let result: Value = serde_json::from_slice(&output.stdout)?;
    let project = &result["projects"][0];
    if project["open"].get("ok").is_none() {
        bail!("the open failed under jco: {}", project["open"]);
    }
    let figures = &project["figures"];
    let millis = |value: &Value| Duration::from_secs_f64(value.as_f64().unwrap_or(0.0) / 1000.0);
    Ok(NodeRuns {
        runs: figures["runs"]
            .as_array()
            .context("runs")?
            .iter()
            .map(|run| (millis(&run["instantiateMs"]), millis(&run["openMs"])))
            .collect(),
        calls: figures["hostCalls"].as_u64().context("hostCalls")?,
        read_lengths: figures["readLengths"]
            .as_array()
            .context("readLengths")?
            .iter()
            .filter_map(Value::as_u64)
            .collect(),
    })
}

/// Node 22 and jco as the tests get them (`tests/clients/install.sh`, into
/// `<target>/clients`, where a test run has usually put them already).
fn install_node(workspace: &Path, target: &Path) -> Result<PathBuf> {
    let state = target.join("clients");
    let status = Command::new("bash")
        .arg(workspace.join("tests/clients/install.sh"))
        .env("OFGUI_CLIENTS_DIR", &state)
        .stdout(std::process::Stdio::null())
        .status()
        .context("running tests/clients/install.sh")?;
    if !status.success() {
        bail!("tests/clients/install.sh failed: it needs npm and the npm registry");
    }
    Ok(state.join("node"))
}

fn transpile(workspace: &Path, node: &Path, wasm: &Path, out: &Path) -> Result<()> {
    let status = Command::new(node)
        .arg(workspace.join("tests/clients/node_modules/@bytecodealliance/jco/dist/jco.js"))
        .arg("transpile")
        .arg(wasm)
        .args(["--instantiation", "async", "--name", "backend"])
        .args(["--no-typescript", "--quiet", "-o"])
        .arg(out)
        .status()?;
    if !status.success() {
        bail!("jco transpile failed");
    }
    Ok(())
}

fn fairy_file(dir: &Path) -> Result<String> {
    for entry in std::fs::read_dir(dir)? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if name.ends_with(".fairy") {
            return Ok(name);
        }
    }
    bail!("no .fairy file in {}", dir.display())
}
