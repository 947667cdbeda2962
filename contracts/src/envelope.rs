//! The response envelope every method returns: `{ok, meta, data}` or `{ok, meta, error}`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::catalog::{self, Owner, RemediationKind};
use crate::diagnostics::{ProjectDiagnostic, Severity};
pub use crate::methods::Stage;
use crate::session::SessionSnapshot;
pub use crate::version::{CAPABILITY_SCHEMA_VERSION, CONTRACT_VERSION};

/// A non-fatal note on a successful response.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Warning {
    pub code: String,
    pub message: String,
}

/// How serious a backend diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum DiagnosticSeverity {
    Info,
    Warning,
    Error,
}

/// A method to call to refresh what a remediation needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RemediationRead {
    pub method: String,
    pub input: Map<String, Value>,
}

/// What to do about a diagnostic.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Remediation {
    pub kind: RemediationKind,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read: Option<RemediationRead>,
}

/// A diagnostic in `meta.diagnostics` or in an event, enriched from the catalog.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BackendDiagnostic {
    pub code: String,
    pub message: String,
    pub severity: DiagnosticSeverity,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gear_kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation_kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub op_index: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub op_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<Owner>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub docs_uri: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remediation: Option<Remediation>,
}

impl BackendDiagnostic {
    pub fn error(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            code: code.into(),
            message: message.into(),
            severity: DiagnosticSeverity::Error,
            path: None,
            node_kind: None,
            resource_kind: None,
            gear_kind: None,
            field: None,
            operation_kind: None,
            op_index: None,
            op_id: None,
            owner: None,
            docs_uri: None,
            remediation: None,
        }
    }

    /// A validation finding as a `meta.diagnostics` entry, owned by core.validation.
    pub fn from_finding(finding: &ProjectDiagnostic) -> Self {
        let mut diagnostic = Self::error(finding.code.as_str(), finding.message.clone());
        diagnostic.severity = match finding.severity {
            Severity::Error => DiagnosticSeverity::Error,
            Severity::Warning => DiagnosticSeverity::Warning,
            Severity::Info => DiagnosticSeverity::Info,
        };
        diagnostic.path = Some(finding.path.clone());
        diagnostic.owner = Some(Owner::CoreValidation);
        diagnostic
    }

    /// Adds owner, docs link and remediation from the catalog. Unknown codes pass
    /// through unchanged. The remediation depends on the owner (a validation finding is a
    /// defect already in the project); `read` points at `getProjectOutline` only when a
    /// session is known, the outline holds what the fix needs, and the fix is not a host
    /// action, or is one on a validation finding (a defect the outline locates).
    pub fn enriched(mut self, session_id: Option<&str>) -> Self {
        let Some(code) = catalog::DiagnosticCode::parse(&self.code) else {
            return self;
        };
        let owner = *self.owner.get_or_insert(code.guide().owners[0]);
        self.docs_uri = Some(catalog::docs_uri(code.as_str()));
        // A remediation the diagnostic already carries is more specific than the code's.
        if self.remediation.is_some() {
            return self;
        }
        let (kind, message) = code.remediation(owner);
        let read = session_id
            .filter(|_| {
                (kind != RemediationKind::HostAction || owner == Owner::CoreValidation)
                    && code.outline_helps()
            })
            .map(|id| {
                let mut input = Map::new();
                input.insert("sessionId".into(), Value::String(id.to_string()));
                RemediationRead {
                    method: "getProjectOutline".into(),
                    input,
                }
            });
        self.remediation = Some(Remediation {
            kind,
            message: message.to_string(),
            read,
        });
        self
    }
}

/// `meta` of every response.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResponseMeta {
    pub request_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The session's current edit revision when the response was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<u64>,
    pub duration_ms: f64,
    pub warnings: Vec<Warning>,
    pub diagnostics: Vec<BackendDiagnostic>,
    pub stage: Stage,
    pub contract_version: String,
    pub capability_schema_version: u32,
}

/// The literal `true` (schema `const: true`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct True;

/// The literal `false` (schema `const: false`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct False;

macro_rules! bool_literal {
    ($ty:ident, $value:literal) => {
        impl Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bool($value)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                if bool::deserialize(d)? == $value {
                    Ok($ty)
                } else {
                    Err(serde::de::Error::custom(concat!("expected ", $value)))
                }
            }
        }

        #[cfg(feature = "schema")]
        impl schemars::JsonSchema for $ty {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($ty).into()
            }

            fn inline_schema() -> bool {
                true
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({ "type": "boolean", "const": $value })
            }
        }
    };
}

bool_literal!(True, true);
bool_literal!(False, false);

/// A successful response.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Success<T> {
    pub ok: True,
    pub meta: ResponseMeta,
    pub data: T,
}

/// A failed response. There is never a `data` key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Failure<E> {
    pub ok: False,
    pub meta: ResponseMeta,
    pub error: E,
    /// The session's state, on authoring failures once the session is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<SessionSnapshot>,
}
