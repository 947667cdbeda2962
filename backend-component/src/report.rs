//! The validation report as one answer: its status over every finding, and a page of
//! the findings themselves, so that a project with thousands of findings answers in a
//! size an agent can read.

use std::ops::Range;

use ofgui_contracts::api::{ValidateSessionInput, ValidationReport};
use ofgui_contracts::diagnostics::{ProjectDiagnostic, Severity};
use ofgui_contracts::envelope::Warning;
use ofgui_contracts::error::BackendError;

use crate::scope::{self, Page};
use crate::session::Session;

/// Most bytes of findings a report holds when the input names no `page.limit`. Each
/// finding is mirrored, with its remediation, in `meta.diagnostics`, which about
/// triples it: the whole answer stays under 64 KiB.
pub const REPORT_PAGE_BYTES: usize = 16 * 1024;

/// One answer of `validateSession`.
pub struct ReportPage {
    /// `status` and `complete` cover every finding; `diagnostics` are this page's.
    pub report: ValidationReport,
    /// Where the next page starts, when findings follow.
    pub next_cursor: Option<String>,
    /// Says that findings follow, how many of each severity there are, and the cursor.
    pub warning: Option<Warning>,
}

/// Validates the session's committed project and answers the page of findings the input
/// asks for: without `page.limit`, those that fit in [`REPORT_PAGE_BYTES`].
pub fn page(session: &Session, input: &ValidateSessionInput) -> Result<ReportPage, BackendError> {
    let revision = session.status().revision;
    let page = Page::read(session.id(), revision, input.page.as_ref(), None)?;
    let report = session.validate();
    let findings = &report.diagnostics;
    let (shown, window, next_cursor) = page.fill(
        findings.len(),
        REPORT_PAGE_BYTES,
        |index| findings[index].clone(),
        |finding| serde_json::to_vec(finding).map_or(0, |bytes| bytes.len()),
    );
    let warning = next_cursor
        .as_deref()
        .map(|cursor| paged_warning(findings, window, cursor));
    Ok(ReportPage {
        report: ValidationReport {
            status: report.status,
            complete: report.complete,
            diagnostics: shown,
        },
        next_cursor,
        warning,
    })
}

/// Says which findings a report holds, what the others are, and how to read them.
fn paged_warning(findings: &[ProjectDiagnostic], window: Range<usize>, cursor: &str) -> Warning {
    let count = |severity: Severity| findings.iter().filter(|f| f.severity == severity).count();
    Warning {
        code: "answer_paged".into(),
        message: format!(
            "This report lists {} ({} errors, {} warnings, {} notes in all; status and complete cover them all). Pass page: {{\"cursor\": \"{cursor}\"}} for the next findings.",
            scope::page_span(&window, findings.len(), "finding", "findings"),
            count(Severity::Error),
            count(Severity::Warning),
            count(Severity::Info),
        ),
    }
}
