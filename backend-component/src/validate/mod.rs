//! Project validation: structural rules, references and source files, as one report.
//!
//! Each rule family lives in its own module and reports into a [`Sink`]; nothing here
//! mutates the project. Checks never stop at the first problem: the report lists them all.
//!
//! Validation is the one home of the model's rules: transactions refuse a batch when the
//! final state has a finding the project did not have before ([`Finding::identity`]), so an
//! edit may leave an old defect but never create one, and validation reports it either way.

mod component;
mod cycles;
mod finding;
mod references;
mod sources;
mod structure;

use std::collections::{BTreeMap, BTreeSet};

pub use finding::{Finding, Identity, Subject, field_of};

use ofgui_contracts::api::{ValidationReport, ValidationStatus};
use ofgui_contracts::diagnostics::{ProjectDiagnostic, ProjectDiagnosticCode, Severity};
use ofgui_contracts::uam::UamProject;

/// Collects findings and whether everything could be checked.
pub struct Sink {
    findings: Vec<Finding>,
    complete: bool,
}

impl Sink {
    fn new() -> Self {
        Sink {
            findings: Vec::new(),
            complete: true,
        }
    }

    /// Records a finding.
    pub fn push(&mut self, diagnostic: ProjectDiagnostic) -> &mut Finding {
        self.findings.push(Finding::new(diagnostic));
        self.findings.last_mut().expect("just pushed")
    }

    /// Records an error about a place in the model.
    pub fn error(
        &mut self,
        code: ProjectDiagnosticCode,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> &mut Finding {
        self.push(ProjectDiagnostic::error(code, path, message))
    }

    /// Records a warning about a place in the model.
    pub fn warning(
        &mut self,
        code: ProjectDiagnosticCode,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> &mut Finding {
        self.push(ProjectDiagnostic::warning(code, path, message))
    }

    /// How many findings there are, to name the entity of those that follow
    /// ([`Self::within_since`]).
    fn mark(&self) -> usize {
        self.findings.len()
    }

    /// Names the entity of every finding recorded since `mark`.
    fn within_since(&mut self, mark: usize, entity: &str) {
        for finding in &mut self.findings[mark..] {
            finding.within(entity);
        }
    }

    /// Marks the report incomplete: something could not be checked.
    pub fn incomplete(&mut self) {
        self.complete = false;
    }
}

/// Everything validation looks at.
pub struct Input<'a> {
    pub project: &'a UamProject,
    /// Primary bytes by `sourcePath`.
    pub bytes: &'a BTreeMap<String, Vec<u8>>,
    /// What the reader found at open.
    pub read_diagnostics: &'a [ProjectDiagnostic],
    /// False when the reader could not read everything.
    pub read_complete: bool,
}

/// Checks the bytes of every asset as read at open: the file-level half of the read
/// diagnostics. Returns the findings and whether every file could be checked.
pub fn source_diagnostics(
    project: &UamProject,
    bytes: &BTreeMap<String, Vec<u8>>,
) -> (Vec<ProjectDiagnostic>, bool) {
    let mut sink = Sink::new();
    sources::check(project, bytes, &mut sink);
    let complete = sink.complete;
    (sink.into_diagnostics(), complete)
}

/// The source findings of the given resources' primary bytes, as the final state of a
/// batch has them (`bytes` holds just those files).
pub fn source_findings(project: &UamProject, bytes: &BTreeMap<String, Vec<u8>>) -> Vec<Finding> {
    let mut sink = Sink::new();
    sources::check(project, bytes, &mut sink);
    sink.findings
}

/// `(packageId, resourceId)` of the components a scoped check looks at.
pub type Components = BTreeSet<(String, String)>;

fn in_scope(only: Option<&Components>, package_id: &str, resource_id: &str) -> bool {
    only.is_none_or(|components| {
        components.contains(&(package_id.to_string(), resource_id.to_string()))
    })
}

/// Structural and reference findings of the model (no file checks): for the whole project,
/// or only for the given components (what a transaction's final checks compare).
pub fn model_findings(project: &UamProject, only: Option<&Components>) -> Vec<Finding> {
    let mut sink = Sink::new();
    model_checks(project, only, &mut sink);
    sink.findings
}

fn model_checks(project: &UamProject, only: Option<&Components>, sink: &mut Sink) {
    structure::check(project, only, sink);
    references::check(project, only, sink);
    cycles::check(project, only, sink);
}

/// Validates the project and returns the sorted report.
pub fn validate(input: &Input<'_>) -> ValidationReport {
    let mut sink = Sink::new();
    if !input.read_complete {
        sink.incomplete();
    }
    // Source problems the reader already found (missing and unreadable files) are kept
    // as read; the byte checks below only look at files that were read.
    for diagnostic in input.read_diagnostics {
        sink.push(diagnostic.clone());
    }
    model_checks(input.project, None, &mut sink);
    sources::check(input.project, input.bytes, &mut sink);
    report(sink)
}

impl Sink {
    fn into_diagnostics(self) -> Vec<ProjectDiagnostic> {
        self.findings
            .into_iter()
            .map(Finding::into_diagnostic)
            .collect()
    }
}

fn report(sink: Sink) -> ValidationReport {
    let complete = sink.complete;
    let mut diagnostics = sink.into_diagnostics();
    diagnostics.sort_by(|a, b| {
        (a.path.as_str(), a.code.as_str(), a.message.as_str()).cmp(&(
            b.path.as_str(),
            b.code.as_str(),
            b.message.as_str(),
        ))
    });
    diagnostics.dedup();
    let status = if diagnostics.iter().any(|d| d.severity == Severity::Error) {
        ValidationStatus::Invalid
    } else if complete {
        ValidationStatus::Valid
    } else {
        ValidationStatus::Incomplete
    };
    ValidationReport {
        status,
        complete,
        diagnostics,
    }
}

/// The model path of a resource.
pub fn resource_path(package: usize, resource: usize) -> String {
    format!("packages[{package}].resources[{resource}]")
}

/// The model path of a display node.
pub fn node_path(package: usize, resource: usize, node: usize) -> String {
    format!("packages[{package}].resources[{resource}].component.displayList[{node}]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::StdFs;
    use crate::reader::read_project;

    fn example() -> crate::reader::ProjectSource {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/HelloFairy");
        read_project(&StdFs::new(root), "HelloFairy.fairy").expect("example reads")
    }

    fn run(project: &UamProject, source: &crate::reader::ProjectSource) -> ValidationReport {
        validate(&Input {
            project,
            bytes: &source.bytes,
            read_diagnostics: &source.diagnostics,
            read_complete: source.complete,
        })
    }

    #[test]
    fn the_example_is_valid() {
        let source = example();
        let report = run(&source.project, &source);
        assert_eq!(
            report.status,
            ValidationStatus::Valid,
            "{:#?}",
            report.diagnostics
        );
        assert!(report.complete);
    }

    #[test]
    fn duplicate_package_names_are_reported() {
        // Two directories cannot share a name on disk, but a model built by a host can.
        let source = example();
        let mut project = source.project.clone();
        let mut twin = project.packages[0].as_ref().clone();
        twin.id = "twin0001".into();
        project.packages.push(std::sync::Arc::new(twin));
        let report = run(&project, &source);
        assert_eq!(report.status, ValidationStatus::Invalid);
        let duplicate = report
            .diagnostics
            .iter()
            .find(|d| d.code == ProjectDiagnosticCode::DuplicatePackageName)
            .expect("duplicate_package_name");
        assert_eq!(duplicate.path, "packages[2].name");
        assert_eq!(duplicate.package_id.as_deref(), Some("twin0001"));
    }

    #[test]
    fn diagnostics_are_sorted_by_path_code_and_message() {
        let source = example();
        let mut project = source.project.clone();
        project.branches = vec!["z".into(), "a".into(), "a".into()];
        let report = run(&project, &source);
        let keys: Vec<(String, &str, String)> = report
            .diagnostics
            .iter()
            .map(|d| (d.path.clone(), d.code.as_str(), d.message.clone()))
            .collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
        assert!(report.diagnostics.len() >= 2);
    }
}
