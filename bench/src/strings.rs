//! Exporting a project's strings (`cargo run --release -p bench -- strings`): the MCP
//! method with the whole file, and the command a translator's pipeline runs.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use anyhow::{Result, bail};
use serde_json::json;

use crate::{OpenCopy, median, ms};

/// Runs of each, for the median.
const RUNS: usize = 7;

pub fn strings(host: &Path, cache: &Path, source: &Path) -> Result<()> {
    let mut copy = OpenCopy::new(host, cache, source)?;
    let input = json!({ "sessionId": copy.session, "limit": 5000, "wholeFile": true });
    let (mut exports, mut count, mut bytes) = (Vec::new(), 0, 0);
    for _ in 0..RUNS {
        let (data, took) = copy
            .client
            .call("openfairygui_export_strings", input.clone())?;
        count = data["count"].as_u64().unwrap_or_default();
        bytes = data["document"].as_str().map_or(0, str::len);
        exports.push(took);
    }
    let OpenCopy {
        root,
        project,
        client,
        ..
    } = copy;
    drop(client);
    let mut commands = Vec::new();
    for format in ["xml", "xlsx"] {
        let mut runs = Vec::new();
        for _ in 0..RUNS {
            let out = root.path().join(format!("en.{format}"));
            let started = Instant::now();
            let status = Command::new(host)
                .arg("--cache-dir")
                .arg(cache)
                .args(["strings", "export"])
                .arg(&project)
                .arg("-o")
                .arg(&out)
                .output()?;
            if !status.status.success() {
                bail!(
                    "strings export failed: {}",
                    String::from_utf8_lossy(&status.stderr)
                );
            }
            runs.push(started.elapsed());
        }
        commands.push(median(runs));
    }
    println!(
        "\n| strings, fairygui-unity-examples (medians of {RUNS}) | entries | exportStrings with the whole file (MCP) | the XML | `strings export -o en.xml` (a fresh process) | `-o en.xlsx` |"
    );
    println!("|---|---|---|---|---|---|");
    println!(
        "| one server | {count} | {} | {bytes} B | {} | {} |",
        ms(median(exports)),
        ms(commands[0]),
        ms(commands[1]),
    );
    Ok(())
}
