//! A project's strings (`cargo run --release -p bench -- strings`): the export (the MCP
//! method with the whole file, and the command a translator's pipeline runs) and the
//! overflow sweep of a translation with every text doubled.

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
    let mut document = String::new();
    for _ in 0..RUNS {
        let (data, took) = copy
            .client
            .call("openfairygui_export_strings", input.clone())?;
        count = data["count"].as_u64().unwrap_or_default();
        document = data["document"].as_str().unwrap_or_default().to_owned();
        bytes = document.len();
        exports.push(took);
    }
    let long = doubled(&document);
    let (mut sweeps, mut troubles, mut components) = (Vec::new(), 0, 0);
    for _ in 0..RUNS {
        let sweep = json!({ "sessionId": copy.session, "strings": long, "limit": 5000 });
        let (data, took) = copy.client.call("openfairygui_sweep_strings", sweep)?;
        components = data["swept"].as_u64().unwrap_or_default();
        troubles = data["findings"].as_array().map_or(0, |found| {
            found
                .iter()
                .map(|c| c["troubles"].as_array().map_or(0, Vec::len))
                .sum()
        });
        sweeps.push(took);
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
                .arg("--overwrite")
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
    let long_file = root.path().join("long.xml");
    std::fs::write(&long_file, &long)?;
    let mut swept = Vec::new();
    for _ in 0..RUNS {
        let started = Instant::now();
        let output = Command::new(host)
            .arg("--cache-dir")
            .arg(cache)
            .args(["strings", "sweep"])
            .arg(&project)
            .arg(&long_file)
            .output()?;
        if output.status.code() != Some(1) {
            bail!(
                "strings sweep found nothing in the doubled texts: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        swept.push(started.elapsed());
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
    println!(
        "\n| sweep, every text doubled (medians of {RUNS}) | components | troubles | sweepStrings (MCP) | `strings sweep` (a fresh process) |"
    );
    println!("|---|---|---|---|---|");
    println!(
        "| one server | {components} | {troubles} | {} | {} |",
        ms(median(sweeps)),
        ms(median(swept)),
    );
    Ok(())
}

/// The strings XML with every text doubled (`Text Text`): a translation too long almost
/// everywhere.
fn doubled(xml: &str) -> String {
    xml.split_inclusive('\n')
        .map(|line| match (line.find("\">"), line.rfind("</string>")) {
            (Some(open), Some(close)) if open < close => {
                let text = &line[open + 2..close];
                format!("{}\">{text} {text}{}", &line[..open], &line[close..])
            }
            _ => line.to_owned(),
        })
        .collect()
}
