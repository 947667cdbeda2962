//! Collects read diagnostics together with the model location they are about.

use ofgui_contracts::diagnostics::{ProjectDiagnostic, ProjectDiagnosticCode};

/// Where findings inside one file land: a model path prefix plus the owning package,
/// resource and file, so every diagnostic carries its full location without the parsers
/// having to thread those values through every call.
#[derive(Debug, Default)]
pub(crate) struct Scope {
    /// Model path of the scope, e.g. `packages[3].resources[7].component`.
    pub base: String,
    pub package_id: Option<String>,
    pub resource_id: Option<String>,
    pub source_path: Option<String>,
    pub diagnostics: Vec<ProjectDiagnostic>,
}

impl Scope {
    pub fn new(base: impl Into<String>) -> Self {
        Self {
            base: base.into(),
            ..Self::default()
        }
    }

    pub fn in_package(mut self, package_id: &str) -> Self {
        self.package_id = Some(package_id.to_owned());
        self
    }

    pub fn in_resource(mut self, resource_id: &str) -> Self {
        self.resource_id = Some(resource_id.to_owned());
        self
    }

    pub fn in_file(mut self, source_path: &str) -> Self {
        self.source_path = Some(source_path.to_owned());
        self
    }

    /// Records an error at `base` + `suffix` (a suffix starts with `.` or `[`, or is empty).
    pub fn error(
        &mut self,
        code: ProjectDiagnosticCode,
        suffix: &str,
        node_id: Option<&str>,
        message: String,
    ) {
        let path = format!("{}{}", self.base, suffix);
        let mut diagnostic = ProjectDiagnostic::error(code, path, message);
        diagnostic.package_id = self.package_id.clone();
        diagnostic.resource_id = self.resource_id.clone();
        diagnostic.source_path = self.source_path.clone();
        diagnostic.node_id = node_id.filter(|id| !id.is_empty()).map(str::to_owned);
        self.diagnostics.push(diagnostic);
    }

    /// Records a warning: something the file holds as FairyGUI allows, which this server
    /// keeps without checking or modelling it.
    pub fn warning(
        &mut self,
        code: ProjectDiagnosticCode,
        suffix: &str,
        node_id: Option<&str>,
        message: String,
    ) {
        self.error(code, suffix, node_id, message);
        if let Some(last) = self.diagnostics.last_mut() {
            last.severity = ofgui_contracts::diagnostics::Severity::Warning;
        }
    }

    /// Records a value the FairyGUI editor itself writes and reads back without complaint,
    /// though it breaks the lexical rule (`invalid_project_value`, as a warning).
    pub fn tolerated_value(&mut self, suffix: &str, node_id: Option<&str>, message: String) {
        self.warning(
            ProjectDiagnosticCode::InvalidProjectValue,
            suffix,
            node_id,
            message,
        );
    }

    /// Records a value that breaks a lexical rule (`invalid_project_value`).
    pub fn invalid_value(&mut self, suffix: &str, node_id: Option<&str>, message: String) {
        self.error(
            ProjectDiagnosticCode::InvalidProjectValue,
            suffix,
            node_id,
            message,
        );
    }
}
