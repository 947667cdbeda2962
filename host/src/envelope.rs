//! Builds the `{ok, meta, data|error}` envelopes.

use std::time::Instant;

use ofgui_contracts::envelope::{
    BackendDiagnostic, CAPABILITY_SCHEMA_VERSION, CONTRACT_VERSION, ResponseMeta, Stage,
};
use ofgui_contracts::error::BackendError;
use serde_json::{Map, Value, json};

use crate::bindings::{self, ErrorCode};

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

    /// Parses backend JSON text once, keeping the text.
    pub fn parsed(text: String) -> Self {
        let value = serde_json::from_str(&text).unwrap_or(Value::Null);
        Data {
            value,
            text: Some(text),
            diagnostics: Vec::new(),
        }
    }
}

/// An envelope as structured content and as the same JSON in text.
pub struct Envelope {
    pub value: Value,
    pub text: String,
}

impl Envelope {
    fn from_value(value: Value) -> Self {
        let text = value.to_string();
        Envelope { value, text }
    }
}

/// A failure: the `error` object, the diagnostics for `meta`, and the session's state on
/// authoring failures.
#[derive(Clone, Debug)]
pub struct Failure {
    pub error: Map<String, Value>,
    pub diagnostics: Vec<BackendDiagnostic>,
    pub session: Option<Value>,
}

impl Failure {
    /// The code of the failure.
    pub fn code(&self) -> &str {
        self.error
            .get("code")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }
}

impl From<BackendError> for Failure {
    fn from(error: BackendError) -> Self {
        let error = match serde_json::to_value(&error) {
            Ok(Value::Object(map)) => map,
            _ => {
                let mut map = Map::new();
                map.insert("code".into(), json!(error.code()));
                map.insert("message".into(), json!(error.message()));
                map
            }
        };
        Failure {
            error,
            diagnostics: Vec::new(),
            session: None,
        }
    }
}

impl From<bindings::BackendError> for Failure {
    fn from(error: bindings::BackendError) -> Self {
        let code = match error.code {
            ErrorCode::ProjectOpenFailed => "project_open_failed",
            ErrorCode::StaleRead => "stale_read",
            ErrorCode::EntityQueryFailed => "entity_query_failed",
            ErrorCode::SessionReadFailed => "session_read_failed",
            ErrorCode::StaleWrite => "stale_write",
            ErrorCode::TransactionUnsupported => "transaction_unsupported",
            ErrorCode::SelectorAmbiguity => "selector_ambiguity",
            ErrorCode::TransactionPreviewFailed => "transaction_preview_failed",
        };
        let mut map = Map::new();
        map.insert("code".into(), json!(code));
        map.insert("message".into(), json!(error.message));
        if let Ok(Value::Object(details)) = serde_json::from_str::<Value>(&error.details) {
            for (key, value) in details {
                if key != "code" && key != "message" {
                    map.insert(key, value);
                }
            }
        }
        Failure {
            error: map,
            diagnostics: serde_json::from_str(&error.diagnostics).unwrap_or_default(),
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
        let diagnostics = data
            .diagnostics
            .into_iter()
            .map(|d| d.enriched(session.id))
            .collect();
        let meta = self.meta(session, diagnostics);
        match data.text {
            Some(data_text) => {
                let meta_text = serde_json::to_string(&meta).unwrap_or_default();
                let text = format!(r#"{{"ok":true,"meta":{meta_text},"data":{data_text}}}"#);
                Envelope {
                    value: object([
                        ("ok", Value::Bool(true)),
                        ("meta", to_value(&meta)),
                        ("data", data.value),
                    ]),
                    text,
                }
            }
            None => Envelope::from_value(object([
                ("ok", Value::Bool(true)),
                ("meta", to_value(&meta)),
                ("data", data.value),
            ])),
        }
    }

    /// `{ok: false, meta, error}`; meta.diagnostics mirrors the error when nothing richer is given.
    pub fn failure(&self, session: SessionRef<'_>, failure: Failure) -> Envelope {
        let Failure {
            error,
            diagnostics,
            session: snapshot,
        } = failure;
        let diagnostics = if diagnostics.is_empty() {
            let code = error
                .get("code")
                .and_then(Value::as_str)
                .unwrap_or("backend_unhandled_error");
            let message = error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or_default();
            vec![BackendDiagnostic::error(code, message)]
        } else {
            diagnostics
        };
        let diagnostics = diagnostics
            .into_iter()
            .map(|diagnostic| diagnostic.enriched(session.id))
            .collect();
        let mut envelope = object([
            ("ok", Value::Bool(false)),
            ("meta", to_value(&self.meta(session, diagnostics))),
            ("error", Value::Object(error)),
        ]);
        if let (Some(snapshot), Value::Object(map)) = (snapshot, &mut envelope) {
            map.insert("session".into(), snapshot);
        }
        Envelope::from_value(envelope)
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

fn to_value<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}
