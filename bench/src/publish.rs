//! Publishing the unity corpus, and projects of 60 and 150 packages made from it (each
//! package copied under new names with its images, `tests/support/many_packages.rs`):
//! through MCP (a dry run, the first publish, an unchanged re-publish, one package at a
//! time for the corpus) and as the `publish` command a CI job runs (wall time and the
//! process's peak memory, which must not grow with the number of packages beyond what the
//! open project itself holds).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::json;

use crate::{ms, peak_rss_kb, spawn};

/// Median of this many runs of each figure.
const RUNS: usize = 5;

/// The table's header; [`publish`] prints one row per project.
pub fn header() {
    println!(
        "| project | dry run | first publish | re-publish (unchanged) | server peak RSS | `publish` command | its peak RSS (sampled) | `validate` command's peak RSS (the open project alone) |"
    );
    println!("|---|---|---|---|---|---|---|---|");
}

/// One row of the table for `project`, named `label`; with `per_package`, the slowest
/// packages published alone too.
pub fn publish(
    host: &Path,
    cache: &Path,
    project: &Path,
    label: &str,
    per_package: bool,
) -> Result<()> {
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
    let mut per_package_times = Vec::new();
    if per_package {
        let (outline, _) = client.call(
            "openfairygui_backend_get_project_outline",
            json!({ "sessionId": id, "detail": "packages" }),
        )?;
        for package in outline["packages"].as_array().context("packages")? {
            let name = package["name"].as_str().unwrap_or_default().to_owned();
            let elapsed = publish(
                &mut client,
                json!({ "dryRun": true, "packages": [name.clone()] }),
            )?;
            per_package_times.push((elapsed, name));
        }
        per_package_times.sort_by(|a, b| b.cmp(a));
    }
    drop(client);

    // The command a CI job runs: a fresh process each time.
    let cli_out = root.join("published-cli");
    let mut cli = Vec::new();
    let mut cli_peak = 0;
    for _ in 0..RUNS {
        std::fs::remove_dir_all(&cli_out).ok();
        let started = Instant::now();
        let arguments = [
            "publish".as_ref(),
            project.as_os_str(),
            "--out".as_ref(),
            cli_out.as_os_str(),
        ];
        cli_peak = cli_peak.max(sampled_peak(host, cache, &arguments, true)?);
        cli.push(started.elapsed());
    }
    // What opening the project alone takes, to tell publishing's own memory from it.
    let open_peak = sampled_peak(
        host,
        cache,
        &["validate".as_ref(), project.as_os_str()],
        false,
    )?;

    println!(
        "| {label} | {} | {} | {} | {:.1} MB | {} | {:.1} MB | {:.1} MB |",
        ms(dry),
        ms(median(first)),
        ms(unchanged),
        server_peak as f64 / 1024.0,
        ms(median(cli)),
        cli_peak as f64 / 1024.0,
        open_peak as f64 / 1024.0,
    );
    if per_package {
        println!("\nslowest packages of the {label} (dry run of one package):");
        for (elapsed, name) in per_package_times.iter().take(5) {
            println!("  {name}: {}", ms(*elapsed));
        }
        println!();
    }
    Ok(())
}

/// Runs `ofgui-mcp-host <arguments>` and samples its peak RSS (kB) until it ends; with
/// `must_succeed`, a non-zero exit is an error.
fn sampled_peak(
    host: &Path,
    cache: &Path,
    arguments: &[&std::ffi::OsStr],
    must_succeed: bool,
) -> Result<u64> {
    let mut child = Command::new(host)
        .arg("--cache-dir")
        .arg(cache)
        .args(arguments)
        .stdout(std::process::Stdio::null())
        .spawn()?;
    let pid = child.id();
    let mut peak = 0;
    loop {
        peak = peak.max(peak_rss_kb(pid));
        if let Some(status) = child.try_wait()? {
            if must_succeed && !status.success() {
                bail!("{arguments:?} failed: {status}");
            }
            return Ok(peak);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}
