//! Render time per component over a corpus, through MCP: the figure the preview issue
//! sets a target for (p95 under 30 ms at scale 1).

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use serde_json::{Value, json};

use crate::{Client, ms, spawn};

/// Renders every component of `project` once at scale 1 (after one warm-up pass) and
/// prints the median, p95 and slowest render with the PNG sizes.
pub fn renders(host: &Path, cache: &Path, name: &str, project: &Path) -> Result<()> {
    let mut client = spawn(host, cache, project)?;
    client.handshake()?;
    let (session, _) = client.call(
        "openfairygui_backend_open_session",
        json!({ "projectPath": project }),
    )?;
    let id = session["sessionId"].clone();
    let (outline, _) = client.call(
        "openfairygui_backend_get_project_outline",
        json!({ "sessionId": id }),
    )?;
    let mut selectors = Vec::new();
    for package in outline["packages"].as_array().context("packages")? {
        for resource in package["resources"].as_array().context("resources")? {
            if resource["kind"] == "component" {
                selectors.push(
                    json!({ "packageId": package["id"], "componentResourceId": resource["id"] }),
                );
            }
        }
    }
    let render = |client: &mut Client, selector: &Value| {
        client.call(
            "openfairygui_render_component",
            json!({ "sessionId": id, "selector": selector }),
        )
    };
    for selector in &selectors {
        render(&mut client, selector)?;
    }
    let mut times = Vec::new();
    let (mut bytes, mut approximated) = (0u64, 0usize);
    let mut slowest = (Duration::ZERO, String::new());
    for selector in &selectors {
        let (data, elapsed) = render(&mut client, selector)?;
        bytes += data["pngBytes"].as_u64().unwrap_or(0);
        if data["approximations"]
            .as_array()
            .is_some_and(|a| !a.is_empty())
        {
            approximated += 1;
        }
        if elapsed > slowest.0 {
            slowest = (
                elapsed,
                format!(
                    "{}/{}",
                    selector["packageId"], selector["componentResourceId"]
                )
                .replace('"', ""),
            );
        }
        times.push(elapsed);
    }
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
    println!(
        "\n| {name}: render every component at scale 1 ({} components) | median | p95 | max (component) | mean PNG | with approximations |",
        times.len()
    );
    println!("|---|---|---|---|---|---|");
    println!(
        "| through MCP (tools/call → response line) | {} | {} | {} ({}) | {:.1} KB | {approximated} |",
        ms(at(0.5)),
        ms(at(0.95)),
        ms(slowest.0),
        slowest.1,
        bytes as f64 / times.len().max(1) as f64 / 1000.0,
    );
    client.call(
        "openfairygui_backend_close_session",
        json!({ "sessionId": id }),
    )?;
    Ok(())
}
