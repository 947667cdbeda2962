//! `ofgui-mcp-host validate <project>`: the validation report.

use ofgui_contracts::methods::MethodId;
use std::fmt::Write as _;
use std::path::Path;

use ofgui_contracts::api::{ValidationReport, ValidationStatus};
use ofgui_contracts::cli::ExitStatus;
use ofgui_contracts::diagnostics::Severity;
use ofgui_contracts::error::BackendError;
use serde_json::json;

use super::{Done, Project};
use crate::cli::args::Args;

pub(super) async fn run(args: &Args, path: &Path) -> Result<Done, BackendError> {
    Project::reading(args, path, async |project| {
        // A person or CI job reads the whole report: every page of findings.
        let mut input = json!({ "sessionId": project.session_id(), "page": { "limit": 1000 } });
        let (mut report, mut additions): (ValidationReport, _) = project
            .call_with_additions(MethodId::ValidateSession, input.clone())
            .await?;
        while let Some(cursor) = additions.next_cursor.take() {
            input["page"]["cursor"] = json!(cursor);
            let (next, more): (ValidationReport, _) = project
                .call_with_additions(MethodId::ValidateSession, input.clone())
                .await?;
            report.diagnostics.extend(next.diagnostics);
            additions = more;
        }
        let status = match report.status {
            ValidationStatus::Valid => ExitStatus::Success,
            ValidationStatus::Invalid => ExitStatus::Refused,
            ValidationStatus::Incomplete => ExitStatus::Incomplete,
        };
        Done::new(&report, text(project, &report), status)
    })
    .await
}

fn text(project: &Project, report: &ValidationReport) -> String {
    let count = |severity: Severity| {
        report
            .diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    };
    let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
    let status = match report.status {
        ValidationStatus::Valid => "valid",
        ValidationStatus::Invalid => "invalid",
        ValidationStatus::Incomplete => "incomplete",
    };
    let complete = if report.complete {
        "complete"
    } else {
        "incomplete"
    };
    let mut text = format!(
        "{}: {status} ({complete}; {errors} error{}, {warnings} warning{})\n",
        project.shown(),
        if errors == 1 { "" } else { "s" },
        if warnings == 1 { "" } else { "s" },
    );
    for diagnostic in &report.diagnostics {
        let severity = match diagnostic.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        let _ = writeln!(
            text,
            "{severity:<7} {}  {}",
            diagnostic.code.as_str(),
            diagnostic.path
        );
        let _ = writeln!(text, "        {}", diagnostic.message);
        let mut location = Vec::new();
        if let Some(file) = &diagnostic.source_path {
            location.push(file.clone());
        }
        if let Some(node) = &diagnostic.node_id {
            location.push(format!("node {node}"));
        }
        if !location.is_empty() {
            let _ = writeln!(text, "        at {}", location.join(", "));
        }
    }
    text
}
