//! Builds the `{ok, meta, data|error}` envelopes from typed values.

use std::time::Instant;

use ofgui_contracts::api::SessionSnapshot;
use ofgui_contracts::envelope::{
    self as contract, BackendDiagnostic, CAPABILITY_SCHEMA_VERSION, CONTRACT_VERSION, False,
    ResponseMeta, Stage,
};
use ofgui_contracts::error::{BackendError, UnhandledReason};
use serde_json::Value;

use crate::bindings::{GuestError, SessionStatus};

/// One call in flight: when it started and how to label its response.
pub struct Call {
    request_id: String,
    started: Instant,
    stage: Stage,
}

/// Which session a response is about, and its revision when known.
#[derive(Clone, Copy, Debug, Default)]
pub struct SessionRef<'a> {
    pub id: Option<&'a str>,
    pub revision: Option<u64>,
}

impl<'a> SessionRef<'a> {
    pub fn new(id: &'a str, revision: Option<u64>) -> Self {
        Self {
            id: Some(id),
            revision,
        }
    }
}

/// A method's `data`, with its JSON text when the backend produced it as text (so large
/// results are not serialized again for the text content).
pub struct Data {
    pub value: Value,
    pub text: Option<String>,
    /// Diagnostics to mirror in `meta.diagnostics` of a success (validation findings).
    pub diagnostics: Vec<BackendDiagnostic>,
}

impl Data {
    pub fn value(value: Value) -> Self {
        Data {
            value,
            text: None,
            diagnostics: Vec::new(),
        }
    }

    /// Serializes a typed result.
    pub fn typed<T: serde::Serialize>(value: &T) -> Result<Self, Failure> {
        serde_json::to_value(value)
            .map(Data::value)
            .map_err(|cause| Failure::internal(&cause))
    }

    /// Parses JSON text the backend produced, keeping the text for the text content.
    pub fn parsed(text: String, diagnostics: Vec<BackendDiagnostic>) -> Result<Self, Failure> {
        let value = serde_json::from_str(&text).map_err(|cause| Failure::internal(&cause))?;
        Ok(Data {
            value,
            text: Some(text),
            diagnostics,
        })
    }
}

/// An envelope as structured content and as the same JSON in text.
pub struct Envelope {
    pub value: Value,
    pub text: String,
}

/// A failure: the typed error, the diagnostics for `meta`, the session's status when it
/// happened (for `meta.revision`), and the session's state on authoring failures.
#[derive(Clone, Debug)]
pub struct Failure {
    pub error: BackendError,
    pub diagnostics: Vec<BackendDiagnostic>,
    pub status: Option<SessionStatus>,
    pub session: Option<SessionSnapshot>,
}

impl Failure {
    /// A host failure whose cause must not reach the agent: it is logged here.
    pub fn internal(cause: &dyn std::fmt::Display) -> Self {
        tracing::error!("host failure: {cause}");
        BackendError::unhandled(UnhandledReason::Internal).into()
    }
}

impl From<BackendError> for Failure {
    fn from(error: BackendError) -> Self {
        Failure {
            error,
            diagnostics: Vec::new(),
            status: None,
            session: None,
        }
    }
}

impl From<GuestError> for Failure {
    fn from(guest: GuestError) -> Self {
        Failure {
            error: guest.error,
            diagnostics: guest.diagnostics,
            status: guest.status,
            session: None,
        }
    }
}

impl Call {
    pub fn start(stage: Stage) -> Self {
        Call {
            request_id: uuid::Uuid::new_v4().to_string(),
            started: Instant::now(),
            stage,
        }
    }

    pub fn request_id(&self) -> &str {
        &self.request_id
    }

    fn meta(&self, session: SessionRef<'_>, diagnostics: Vec<BackendDiagnostic>) -> ResponseMeta {
        let diagnostics = diagnostics
            .into_iter()
            .map(|diagnostic| diagnostic.enriched(session.id))
            .collect();
        ResponseMeta {
            request_id: self.request_id.clone(),
            session_id: session.id.map(str::to_string),
            revision: session.revision,
            duration_ms: (self.started.elapsed().as_secs_f64() * 1000.0 * 1000.0).round() / 1000.0,
            warnings: Vec::new(),
            diagnostics,
            stage: self.stage,
            contract_version: CONTRACT_VERSION.into(),
            capability_schema_version: CAPABILITY_SCHEMA_VERSION,
        }
    }

    /// `{ok: true, meta, data}`.
    pub fn success(&self, session: SessionRef<'_>, data: Data) -> Envelope {
        let meta = self.meta(session, data.diagnostics);
        let built = serde_json::to_value(&meta).and_then(|meta_value| {
            // Backend data is already text: only meta is serialized, and spliced in.
            let text = match &data.text {
                Some(data_text) => Some(format!(
                    r#"{{"ok":true,"meta":{},"data":{data_text}}}"#,
                    serde_json::to_string(&meta_value)?
                )),
                None => None,
            };
            let value = object([
                ("ok", Value::Bool(true)),
                ("meta", meta_value),
                ("data", data.value),
            ]);
            let text = match text {
                Some(text) => text,
                None => serde_json::to_string(&value)?,
            };
            Ok(Envelope { value, text })
        });
        built.unwrap_or_else(|cause| self.unencodable(session, &cause))
    }

    /// `{ok: false, meta, error, session?}`; meta.diagnostics mirrors the error when
    /// nothing richer is given.
    pub fn failure(&self, session: SessionRef<'_>, failure: Failure) -> Envelope {
        let Failure {
            error,
            diagnostics,
            status,
            session: snapshot,
        } = failure;
        let diagnostics = if diagnostics.is_empty() {
            vec![BackendDiagnostic::error(
                error.code().as_str(),
                error.message(),
            )]
        } else {
            diagnostics
        };
        let session = SessionRef {
            revision: session.revision.or(status.map(|status| status.revision)),
            ..session
        };
        let envelope = contract::Failure {
            ok: False,
            meta: self.meta(session, diagnostics),
            error,
            session: snapshot,
        };
        serde_json::to_value(&envelope)
            .and_then(|value| {
                let text = serde_json::to_string(&value)?;
                Ok(Envelope { value, text })
            })
            .unwrap_or_else(|cause| self.unencodable(session, &cause))
    }

    /// The envelope of a response that could not be serialized: a fixed, always
    /// serializable `backend_unhandled_error`, with the cause in the log.
    fn unencodable(&self, session: SessionRef<'_>, cause: &serde_json::Error) -> Envelope {
        tracing::error!("a response could not be serialized: {cause}");
        let error = BackendError::unhandled(UnhandledReason::Internal);
        let mut meta = serde_json::json!({
            "requestId": self.request_id,
            "durationMs": 0.0,
            "warnings": [],
            "diagnostics": [],
            "stage": self.stage,
            "contractVersion": CONTRACT_VERSION,
            "capabilitySchemaVersion": CAPABILITY_SCHEMA_VERSION,
        });
        if let Some(id) = session.id {
            meta["sessionId"] = Value::String(id.to_string());
        }
        let value = serde_json::json!({
            "ok": false,
            "meta": meta,
            "error": { "code": error.code().as_str(), "message": error.message(), "reason": "internal" },
        });
        let text = value.to_string();
        Envelope { value, text }
    }
}

/// Builds an object by moving the values in: `json!` would deep-copy them by serializing,
/// which for a multi-megabyte result is most of the call's cost.
pub fn object<const N: usize>(entries: [(&str, Value); N]) -> Value {
    Value::Object(
        entries
            .into_iter()
            .map(|(key, value)| (key.to_string(), value))
            .collect(),
    )
}
