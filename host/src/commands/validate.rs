//! `ofgui-mcp-host validate <project>`: the validation report for CI jobs and humans.
//!
//! It goes through the same service as the MCP server (path policy, sandboxed component),
//! with the project's own directory as the only allowed root.

use std::path::Path;
use std::process::ExitCode;

use ofgui_contracts::methods;
use serde_json::{Value, json};

use crate::cli::Args;
use crate::service::{Service, ServiceConfig};

/// Exit statuses of `validate`.
const VALID: u8 = 0;
const INVALID: u8 = 1;
const BAD_ARGUMENTS: u8 = 2;
const INCOMPLETE: u8 = 3;

pub async fn run(args: &Args, project: &Path, as_json: bool) -> ExitCode {
    match report(args, project).await {
        Ok(report) => {
            if as_json {
                match serde_json::to_string_pretty(&report) {
                    Ok(text) => println!("{text}"),
                    Err(error) => {
                        eprintln!("ofgui-mcp-host validate: the report cannot be printed: {error}");
                        return ExitCode::from(BAD_ARGUMENTS);
                    }
                }
            } else {
                print_text(project, &report);
            }
            ExitCode::from(match report["status"].as_str() {
                Some("valid") => VALID,
                Some("invalid") => INVALID,
                _ => INCOMPLETE,
            })
        }
        Err(message) => {
            eprintln!("ofgui-mcp-host validate: {message}");
            ExitCode::from(BAD_ARGUMENTS)
        }
    }
}

async fn report(args: &Args, project: &Path) -> Result<Value, String> {
    let canonical = std::fs::canonicalize(project)
        .map_err(|error| format!("{}: {error}", project.display()))?;
    let root = if canonical.is_dir() {
        canonical.clone()
    } else {
        canonical
            .parent()
            .map(Path::to_path_buf)
            .ok_or("the project path has no parent directory")?
    };
    let config = ServiceConfig {
        roots: vec![root],
        ..args.config().map_err(|error| format!("{error:#}"))?
    };
    let service = Service::new(config);
    let open = call(&service, "openSession", json!({ "projectPath": canonical })).await?;
    let session_id = open["sessionId"].clone();
    let report = call(
        &service,
        "validateSession",
        json!({ "sessionId": session_id }),
    )
    .await?;
    call(&service, "closeSession", json!({ "sessionId": session_id })).await?;
    Ok(report)
}

/// Calls a method and returns its data, or the failure's code and message.
async fn call(service: &Service, name: &str, input: Value) -> Result<Value, String> {
    let method = methods::by_name(name).ok_or_else(|| format!("{name} is not served"))?;
    let reply = service.call(method, input).await;
    let mut envelope = reply
        .envelope
        .into_value()
        .map_err(|error| format!("{name}: unreadable result ({error})"))?;
    if reply.is_error {
        let error = &envelope["error"];
        return Err(format!(
            "{}: {}",
            error["code"].as_str().unwrap_or("error"),
            error["message"].as_str().unwrap_or_default()
        ));
    }
    Ok(envelope["data"].take())
}

fn print_text(project: &Path, report: &Value) {
    let diagnostics = report["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let count = |severity: &str| {
        diagnostics
            .iter()
            .filter(|d| d["severity"] == severity)
            .count()
    };
    let (errors, warnings) = (count("error"), count("warning"));
    let status = report["status"].as_str().unwrap_or("unknown");
    let complete = if report["complete"] == true {
        "complete"
    } else {
        "incomplete"
    };
    println!(
        "{}: {status} ({complete}; {errors} error{}, {warnings} warning{})",
        project.display(),
        if errors == 1 { "" } else { "s" },
        if warnings == 1 { "" } else { "s" },
    );
    for diagnostic in &diagnostics {
        let text = |key: &str| diagnostic[key].as_str().unwrap_or_default().to_string();
        println!("{:<7} {}  {}", text("severity"), text("code"), text("path"));
        println!("        {}", text("message"));
        let mut location = Vec::new();
        if let Some(file) = diagnostic["sourcePath"].as_str() {
            location.push(file.to_string());
        }
        if let Some(node) = diagnostic["nodeId"].as_str() {
            location.push(format!("node {node}"));
        }
        if !location.is_empty() {
            println!("        at {}", location.join(", "));
        }
    }
}
