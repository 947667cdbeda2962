//! Project diagnostics: what the reader and the validator report about a project.

use serde::{Deserialize, Serialize};

use crate::catalog::DiagnosticCode;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

/// The stable codes of project (read and validation) diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ProjectDiagnosticCode {
    InvalidProjectXml,
    InvalidPackageXml,
    InvalidBranchPackageXml,
    InvalidComponentXml,
    InvalidProjectValue,
    DesktopIncompatibleGeometry,
    InvalidSettingsJson,
    InvalidUam,
    DuplicatePackageId,
    DuplicatePackageName,
    DuplicateResourceId,
    PathCollision,
    UnsafePath,
    DanglingResourceReference,
    MissingSource,
    SourceCaseMismatch,
    UnreadableSource,
    CorruptSource,
    UnsupportedResourceKind,
    DecodeCapabilityUnavailable,
}

impl ProjectDiagnosticCode {
    /// Every code, in declaration order.
    pub const ALL: [Self; 20] = [
        Self::InvalidProjectXml,
        Self::InvalidPackageXml,
        Self::InvalidBranchPackageXml,
        Self::InvalidComponentXml,
        Self::InvalidProjectValue,
        Self::DesktopIncompatibleGeometry,
        Self::InvalidSettingsJson,
        Self::InvalidUam,
        Self::DuplicatePackageId,
        Self::DuplicatePackageName,
        Self::DuplicateResourceId,
        Self::PathCollision,
        Self::UnsafePath,
        Self::DanglingResourceReference,
        Self::MissingSource,
        Self::SourceCaseMismatch,
        Self::UnreadableSource,
        Self::CorruptSource,
        Self::UnsupportedResourceKind,
        Self::DecodeCapabilityUnavailable,
    ];

    pub fn as_str(self) -> &'static str {
        DiagnosticCode::from(self).as_str()
    }
}

/// Every project code is a catalog code: the catalog spells it and holds its guide.
impl From<ProjectDiagnosticCode> for DiagnosticCode {
    fn from(code: ProjectDiagnosticCode) -> Self {
        use ProjectDiagnosticCode as P;
        match code {
            P::InvalidProjectXml => Self::InvalidProjectXml,
            P::InvalidPackageXml => Self::InvalidPackageXml,
            P::InvalidBranchPackageXml => Self::InvalidBranchPackageXml,
            P::InvalidComponentXml => Self::InvalidComponentXml,
            P::InvalidProjectValue => Self::InvalidProjectValue,
            P::DesktopIncompatibleGeometry => Self::DesktopIncompatibleGeometry,
            P::InvalidSettingsJson => Self::InvalidSettingsJson,
            P::InvalidUam => Self::InvalidUam,
            P::DuplicatePackageId => Self::DuplicatePackageId,
            P::DuplicatePackageName => Self::DuplicatePackageName,
            P::DuplicateResourceId => Self::DuplicateResourceId,
            P::PathCollision => Self::PathCollision,
            P::UnsafePath => Self::UnsafePath,
            P::DanglingResourceReference => Self::DanglingResourceReference,
            P::MissingSource => Self::MissingSource,
            P::SourceCaseMismatch => Self::SourceCaseMismatch,
            P::UnreadableSource => Self::UnreadableSource,
            P::CorruptSource => Self::CorruptSource,
            P::UnsupportedResourceKind => Self::UnsupportedResourceKind,
            P::DecodeCapabilityUnavailable => Self::DecodeCapabilityUnavailable,
        }
    }
}

/// One finding about the project, located as precisely as it can be.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ProjectDiagnostic {
    pub severity: Severity,
    pub code: ProjectDiagnosticCode,
    /// A model path such as `packages[3].resources[7].component.displayList[2].resource`.
    pub path: String,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_id: Option<String>,
    /// The project-relative file the finding is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_path: Option<String>,
}

impl ProjectDiagnostic {
    pub fn error(
        code: ProjectDiagnosticCode,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self::new(Severity::Error, code, path, message)
    }

    pub fn warning(
        code: ProjectDiagnosticCode,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self::new(Severity::Warning, code, path, message)
    }

    pub fn new(
        severity: Severity,
        code: ProjectDiagnosticCode,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            severity,
            code,
            path: path.into(),
            message: message.into(),
            package_id: None,
            resource_id: None,
            node_id: None,
            source_path: None,
        }
    }

    pub fn in_package(mut self, package_id: impl Into<String>) -> Self {
        self.package_id = Some(package_id.into());
        self
    }

    pub fn in_resource(mut self, resource_id: impl Into<String>) -> Self {
        self.resource_id = Some(resource_id.into());
        self
    }

    pub fn at_node(mut self, node_id: impl Into<String>) -> Self {
        self.node_id = Some(node_id.into());
        self
    }

    pub fn in_file(mut self, source_path: impl Into<String>) -> Self {
        self.source_path = Some(source_path.into());
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_project_diagnostic_code_has_a_guide() {
        for code in ProjectDiagnosticCode::ALL {
            let wire = serde_json::to_value(code).expect("serializes");
            assert_eq!(wire, DiagnosticCode::from(code).as_str(), "{code:?}");
        }
    }
}
