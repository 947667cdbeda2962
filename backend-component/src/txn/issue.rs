//! Why a batch was refused: issues located at an operation, and the failure they add up to.

use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::diagnostics::ProjectDiagnostic;
use ofgui_contracts::envelope::BackendDiagnostic;

/// One problem of one operation (an upstream "support issue").
#[derive(Clone, Debug, PartialEq)]
pub struct Issue {
    /// A transaction code from the diagnostic catalog (`invalid_display_node_selector`, …).
    pub code: Code,
    /// Where in the request: `operations[3].props.size`.
    pub path: String,
    pub message: String,
    pub op_index: usize,
    pub op_id: Option<String>,
    pub operation_kind: &'static str,
    pub node_kind: Option<String>,
    pub resource_kind: Option<String>,
    pub gear_kind: Option<String>,
    pub field: Option<String>,
    /// For an issue about the final state of the batch, the validation finding it reports,
    /// located in that state (not on the wire: the message says it there).
    pub finding: Option<Box<ProjectDiagnostic>>,
}

impl Issue {
    pub fn node_kind(mut self, kind: &str) -> Self {
        self.node_kind = Some(kind.to_string());
        self
    }

    pub fn resource_kind(mut self, kind: &str) -> Self {
        self.resource_kind = Some(kind.to_string());
        self
    }

    pub fn gear_kind(mut self, kind: &str) -> Self {
        self.gear_kind = Some(kind.to_string());
        self
    }

    pub fn field(mut self, field: &str) -> Self {
        self.field = Some(field.to_string());
        self
    }

    /// A lookup's issue under the caller's code and message when nothing matched; an
    /// ambiguous selector stays `selector_ambiguity`.
    pub fn missing_as(self, code: Code, message: impl FnOnce(String) -> String) -> Issue {
        if self.code == Code::SelectorAmbiguity {
            return self;
        }
        Issue {
            code,
            message: message(self.message),
            ..self
        }
    }

    /// The issue as a `meta.diagnostics` entry (enriched later with owner and remediation).
    pub fn diagnostic(&self) -> BackendDiagnostic {
        let mut diagnostic = BackendDiagnostic::error(self.code, &self.message);
        diagnostic.path = Some(self.path.clone());
        diagnostic.operation_kind = Some(self.operation_kind.to_string());
        diagnostic.op_index = Some(self.op_index as u32);
        diagnostic.op_id = self.op_id.clone();
        diagnostic.node_kind = self.node_kind.clone();
        diagnostic.resource_kind = self.resource_kind.clone();
        diagnostic.gear_kind = self.gear_kind.clone();
        diagnostic.field = self.field.clone();
        diagnostic
    }
}

/// The operation, and the field of it, that an issue found later (on the final state of
/// the batch) will point at; the code and message come when the problem is known.
#[derive(Clone, Debug, PartialEq)]
pub struct Blame {
    /// Where in the request: `operations[3].node.src`.
    pub path: String,
    pub op_index: usize,
    pub op_id: Option<String>,
    pub operation_kind: &'static str,
}

impl Blame {
    pub fn issue(&self, code: Code, message: impl Into<String>) -> Issue {
        Issue {
            code,
            path: self.path.clone(),
            message: message.into(),
            op_index: self.op_index,
            op_id: self.op_id.clone(),
            operation_kind: self.operation_kind,
            node_kind: None,
            resource_kind: None,
            gear_kind: None,
            field: None,
            finding: None,
        }
    }
}

/// A refused batch: `transaction_unsupported` with every issue, or `selector_ambiguity`
/// when a selector matched more than one entity.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// `transaction_unsupported` or `selector_ambiguity`.
    pub code: Code,
    /// `preflight` for rule violations, `execution` for ambiguous selectors.
    pub stage: &'static str,
    pub message: String,
    pub issues: Vec<Issue>,
}

impl Failure {
    pub fn unsupported(issues: Vec<Issue>) -> Self {
        if let Some(ambiguous) = issues
            .iter()
            .find(|issue| issue.code == Code::SelectorAmbiguity)
        {
            return Failure {
                code: Code::SelectorAmbiguity,
                stage: "execution",
                message: ambiguous.message.clone(),
                issues,
            };
        }
        let count = issues.len();
        let first = issues
            .first()
            .map(|issue| issue.message.clone())
            .unwrap_or_default();
        Failure {
            code: Code::TransactionUnsupported,
            stage: "preflight",
            message: if count == 1 {
                format!("The transaction was rejected: {first}")
            } else {
                format!("The transaction was rejected with {count} issues; the first: {first}")
            },
            issues,
        }
    }

    /// The first operation the failure is about.
    pub fn first_issue(&self) -> Option<&Issue> {
        self.issues.first()
    }
}
