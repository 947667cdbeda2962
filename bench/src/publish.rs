//! Publishing the unity corpus: the figures the publishing issue asks for, through MCP
//! (a dry run, the first publish, an unchanged re-publish, one package at a time) and as
//! the `publish` command a CI job runs (wall time and the process's peak memory).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::json;

use crate::{ms, peak_rss_kb, spawn};

/// Median of this many runs of each figure.
const RUNS: usize = 5;

pub fn publish(host: &Path, cache: &Path, project: &Path) -> Result<()> {
    let root = project.parent().context("project parent")?;
    let mut client = spawn(host, cache, root)?;
    client.handshake()?;
    let (session, _) = client.call(
        "openfairygui_backend_open_session",
        json!({ "projectPath": project }),
    )?;
    let id = session["sessionId"].clone();
    let out = root.join("published-bench");
    let publish = |client: &mut crate::Client, extra: serde_json::Value| -> Result<Duration> {
        let mut arguments = json!({ "sessionId": id, "outputDir": out });
        if let (Some(arguments), Some(extra)) = (arguments.as_object_mut(), extra.as_object()) {
            arguments.extend(extra.clone());
        }
        let (_, elapsed) = client.call("openfairygui_publish", arguments)?;
        Ok(elapsed)
    };
    let median = |mut samples: Vec<Duration>| {
        samples.sort();
        samples[samples.len() / 2]
    };

    let dry = median(
        (0..RUNS)
            .map(|_| publish(&mut client, json!({ "dryRun": true })))
            .collect::<Result<_>>()?,
    );
    let mut first = Vec::new();
    for _ in 0..RUNS {
        std::fs::remove_dir_all(&out).ok();
        first.push(publish(&mut client, json!({}))?);
    }
    let unchanged = median(
        (0..RUNS)
            .map(|_| publish(&mut client, json!({})))
            .collect::<Result<_>>()?,
    );
    let server_peak = peak_rss_kb(client.child.id());

    // One package at a time (dry runs), slowest first.
    let (outline, _) = client.call(
        "openfairygui_backend_get_project_outline",
        json!({ "sessionId": id, "detail": "packages" }),
    )?;
    let mut per_package = Vec::new();
    for package in outline["packages"].as_array().context("packages")? {
        let name = package["name"].as_str().unwrap_or_default().to_owned();
        let elapsed = publish(
            &mut client,
            json!({ "dryRun": true, "packages": [name.clone()] }),
        )?;
        per_package.push((elapsed, name));
    }
    per_package.sort_by(|a, b| b.cmp(a));

    // The command a CI job runs: a fresh process each time.
    let cli_out = root.join("published-cli");
    let mut cli = Vec::new();
    let mut cli_peak = 0;
    for _ in 0..RUNS {
        std::fs::remove_dir_all(&cli_out).ok();
        let started = Instant::now();
        let child = Command::new(host)
            .arg("--cache-dir")
            .arg(cache)
            .arg("publish")
            .arg(project)
            .arg("--out")
            .arg(&cli_out)
            .stdout(std::process::Stdio::null())
            .spawn()?;
        let pid = child.id();
        let mut child = child;
        let mut peak = 0;
        loop {
            peak = peak.max(peak_rss_kb(pid));
            if let Some(status) = child.try_wait()? {
                if !status.success() {
                    bail!("publish command failed: {status}");
                }
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        cli.push(started.elapsed());
        cli_peak = cli_peak.max(peak);
    }

    println!(
        "| unity corpus (30 packages) | dry run | first publish | re-publish (unchanged) | server peak RSS | `publish` command | its peak RSS (sampled) |"
    );
    println!("|---|---|---|---|---|---|---|");
    println!(
        "| through MCP / CLI | {} | {} | {} | {:.1} MB | {} | {:.1} MB |",
        ms(dry),
        ms(median(first)),
        ms(unchanged),
        server_peak as f64 / 1024.0,
        ms(median(cli)),
        cli_peak as f64 / 1024.0
    );
    println!("\nslowest packages (dry run of one package):");
    for (elapsed, name) in per_package.iter().take(5) {
        println!("  {name}: {}", ms(*elapsed));
    }
    println!(
        "\nmedian of {RUNS} runs; the command's time includes starting the process and opening the project."
    );
    Ok(())
}
