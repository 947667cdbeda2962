//! What a client receives from the calls an agent makes most, in bytes, on the unity
//! corpus and on larger copies of it (`cargo run --release -p bench -- sizes`): the tool
//! list, the outline and the validation report as upstream's clients ask for them (the
//! session alone) and whole, an apply and an undo; and how long the default outline takes.

use std::path::Path;
use std::time::Duration;

use anyhow::Result;
use serde_json::{Value, json};

use crate::{Client, copy_tree, many_packages, median, ms, spawn};

/// What a checkout without `git lfs pull` holds in place of a picture.
const LFS_POINTER: &str = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 48213\n";

/// Runs of the default outline timed.
const RUNS: usize = 7;

pub fn sizes(host: &Path, cache: &Path, source: &Path) -> Result<()> {
    println!(
        "| project | tools/list | outline | outline, whole | validate | validate, whole | apply (1 node) | undo | outline time |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for (label, copies, lfs) in [
        ("unity corpus (30 packages)", 0, false),
        ("60 packages", 1, false),
        ("60 packages, pictures as LFS pointers", 1, true),
    ] {
        let root = tempfile::tempdir()?;
        let project = root.path().join("UIProject");
        copy_tree(source, &project)?;
        many_packages::multiply_packages(&project, copies)?;
        if lfs {
            point_pictures_at_lfs(&project.join("assets"))?;
        }
        let row = measure(host, cache, root.path(), &project)?;
        println!("| {label} | {row} |");
    }
    println!(
        "\nbytes of each response line as the client reads it (JSON-RPC, whole result: structured content, text content, additions); \"whole\" asks for every package or finding at once (`page.limit` 1000); outline time is the median of {RUNS} default outlines, request written to response read."
    );
    Ok(())
}

fn measure(host: &Path, cache: &Path, root: &Path, project: &Path) -> Result<String> {
    let mut client = spawn(host, cache, root)?;
    client.handshake()?;
    client.request("tools/list", json!({}))?;
    let tools = client.last_response_bytes;
    let (session, _) = client.call(
        "openfairygui_backend_open_session",
        json!({ "projectPath": project }),
    )?;
    let id = session["sessionId"].clone();
    let sized = |client: &mut Client, tool: &str, arguments: Value| -> Result<(usize, Duration)> {
        let (_, elapsed) = client.envelope(tool, arguments)?;
        Ok((client.last_response_bytes, elapsed))
    };
    let outline_tool = "openfairygui_backend_get_project_outline";
    let validate_tool = "openfairygui_backend_validate_session";
    let mut times = Vec::new();
    let mut outline = 0;
    for _ in 0..RUNS {
        let (bytes, elapsed) = sized(&mut client, outline_tool, json!({ "sessionId": id }))?;
        outline = bytes;
        times.push(elapsed);
    }
    let whole = json!({ "sessionId": id, "page": { "limit": 1000 } });
    let (outline_whole, _) = sized(&mut client, outline_tool, whole.clone())?;
    let (validate, _) = sized(&mut client, validate_tool, json!({ "sessionId": id }))?;
    let (validate_whole, _) = sized(&mut client, validate_tool, whole)?;
    let (apply, _) = sized(
        &mut client,
        "openfairygui_backend_apply_transaction",
        json!({ "sessionId": id, "expectedRevision": 0, "operations": [{
            "kind": "setDisplayNodeProps",
            "selector": { "packageId": "zgmoraj4", "componentResourceId": "gkq00", "displayNodeId": "n4" },
            "props": { "position": { "x": 10, "y": 0 } }
        }] }),
    )?;
    let (undo, _) = sized(
        &mut client,
        "openfairygui_undo",
        json!({ "sessionId": id, "expectedRevision": 1 }),
    )?;
    drop(client.stdin);
    client.child.wait()?;
    Ok(format!(
        "{} | {} | {} | {} | {} | {} | {} | {}",
        bytes(tools),
        bytes(outline),
        bytes(outline_whole),
        bytes(validate),
        bytes(validate_whole),
        bytes(apply),
        bytes(undo),
        ms(median(times)),
    ))
}

fn bytes(count: usize) -> String {
    format!("{:.1} KB", count as f64 / 1024.0)
}

fn point_pictures_at_lfs(dir: &Path) -> Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            point_pictures_at_lfs(&path)?;
        } else if path.extension().is_some_and(|ext| ext == "png") {
            std::fs::write(&path, LFS_POINTER)?;
        }
    }
    Ok(())
}
