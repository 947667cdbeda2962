//! Builds the `{ok, meta, data|error}` envelopes from typed values.

use std::time::Instant;

use ofgui_contracts::additions::Additions;
use ofgui_contracts::api::SessionSnapshot;
use ofgui_contracts::catalog::RemediationKind;
use ofgui_contracts::envelope::{
    self as contract, BackendDiagnostic, CAPABILITY_SCHEMA_VERSION, CONTRACT_VERSION, False,
    Remediation, ResponseMeta, Stage, Warning,
};
use ofgui_contracts::error::{BackendError, TargetPolicy, UnhandledReason};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::backend::bindings::{GuestError, SessionStatus};

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

/// A method's `data`: JSON text the backend produced (passed on without being parsed),
/// or a value the host built.
pub struct Data {
    body: Body,
    /// Diagnostics to mirror in `meta.diagnostics` of a success (validation findings).
    diagnostics: Vec<BackendDiagnostic>,
    /// `meta.warnings` of a success (unsaved edits discarded by a close).
    warnings: Vec<Warning>,
    /// A PNG the result carries beside its envelope (a render), sent as image content.
    image: Option<Vec<u8>>,
    /// What the result tells beyond upstream's contract, carried beside the envelope.
    additions: Additions,
}

enum Body {
    Text(Box<RawValue>),
    Value(Value),
}

impl Data {
    pub fn value(value: Value) -> Self {
        Data {
            body: Body::Value(value),
            diagnostics: Vec::new(),
            warnings: Vec::new(),
            image: None,
            additions: Additions::default(),
        }
    }

    /// The same data with what it tells beyond upstream's contract; the backend's
    /// warnings among them go where warnings are read, `meta.warnings`.
    pub fn with_additions(mut self, mut additions: Additions) -> Self {
        self.warnings
            .extend(additions.warnings.take().unwrap_or_default());
        self.additions = additions;
        self
    }

    /// The same data with a picture to send as image content.
    pub fn with_image(mut self, png: Vec<u8>) -> Self {
        self.image = Some(png);
        self
    }

    /// The picture, taken out before the data becomes an envelope.
    pub fn take_image(&mut self) -> Option<Vec<u8>> {
        self.image.take()
    }

    pub fn with_warning(mut self, code: &str, message: String) -> Self {
        self.warnings.push(Warning {
            code: code.to_string(),
            message,
        });
        self
    }

    /// JSON text of a value to forward to the component.
    pub fn json_text<T: serde::Serialize>(value: &T) -> Result<String, Failure> {
        serde_json::to_string(value).map_err(|cause| Failure::internal(&cause))
    }

    /// Serializes a typed result.
    pub fn typed<T: serde::Serialize>(value: &T) -> Result<Self, Failure> {
        serde_json::to_value(value)
            .map(Data::value)
            .map_err(|cause| Failure::internal(&cause))
    }

    /// JSON text the backend produced. It is only checked to be one well-formed JSON value
    /// (a scan, no tree is built), so a broken backend can never break the wire.
    pub fn text(text: String, diagnostics: Vec<BackendDiagnostic>) -> Result<Self, Failure> {
        let raw = RawValue::from_string(text).map_err(|cause| Failure::internal(&cause))?;
        Ok(Data {
            body: Body::Text(raw),
            diagnostics,
            warnings: Vec::new(),
            image: None,
            additions: Additions::default(),
        })
    }
}

/// An envelope as JSON text, and as a value when the host built it as one (a backend
/// result stays text all the way to the wire).
pub struct Envelope {
    pub text: String,
    pub value: Option<Value>,
    /// The session the envelope is about (`meta.sessionId`).
    pub session_id: Option<String>,
    /// What a success tells beyond upstream's contract: sent beside the envelope, in the
    /// tool result's `_meta`, so the envelope itself keeps upstream's shape.
    pub additions: Additions,
    /// A success's meta in brief (request, session, revision, warnings, how many
    /// diagnostics), for a text content that does not repeat a large result.
    pub gist: Option<Value>,
}

impl Envelope {
    /// The envelope as a value, parsed from its text if it was never built as one.
    pub fn into_value(self) -> Result<Value, serde_json::Error> {
        match self.value {
            Some(value) => Ok(value),
            None => serde_json::from_str(&self.text),
        }
    }
}

/// A failure: the typed error, the diagnostics for `meta`, the session's status when it
/// happened (for `meta.revision`), and the session's state on authoring failures.
#[derive(Clone, Debug)]
pub struct Failure {
    pub error: BackendError,
    pub diagnostics: Vec<BackendDiagnostic>,
    pub status: Option<SessionStatus>,
    pub session: Option<SessionSnapshot>,
    /// What the host found beside the guest's answer (a deeper field of a document the
    /// component refused), listed after the diagnostics: never in their place.
    pub added: Vec<BackendDiagnostic>,
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
            added: Vec::new(),
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
            added: Vec::new(),
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
        let mut meta = self.meta(session, data.diagnostics);
        meta.warnings = data.warnings;
        let gist = Some(serde_json::json!({
            "requestId": meta.request_id,
            "sessionId": meta.session_id,
            "revision": meta.revision,
            "warnings": meta.warnings,
            "diagnostics": meta.diagnostics.len(),
        }));
        let additions = data.additions;
        let built = match data.body {
            // Backend data is already text: only meta is serialized, and spliced in.
            Body::Text(raw) => serde_json::to_string(&meta).map(|meta| Envelope {
                text: success_text(&meta, raw.get()),
                value: None,
                session_id: session.id.map(str::to_string),
                additions,
                gist,
            }),
            Body::Value(data) => serde_json::to_value(&meta).and_then(|meta| {
                let value = object([("ok", Value::Bool(true)), ("meta", meta), ("data", data)]);
                Ok(Envelope {
                    text: serde_json::to_string(&value)?,
                    value: Some(value),
                    session_id: session.id.map(str::to_string),
                    additions,
                    gist,
                })
            }),
        };
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
            added,
        } = failure;
        let mut diagnostics = if diagnostics.is_empty() {
            let mut mirror = BackendDiagnostic::error(error.code().as_str(), error.message());
            mirror.remediation = specific_remediation(&error);
            vec![mirror]
        } else {
            diagnostics
        };
        diagnostics.extend(added);
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
                Ok(Envelope {
                    text: serde_json::to_string(&value)?,
                    value: Some(value),
                    session_id: session.id.map(str::to_string),
                    additions: Additions::default(),
                    gist: None,
                })
            })
            .unwrap_or_else(|cause| self.unencodable(session, &cause))
    }

    /// `{ok: false, meta, error}` of a call a host policy refused: `error` is the
    /// policy's own (checked against its failure schema), mirrored in meta.diagnostics.
    pub fn denied(&self, session: SessionRef<'_>, error: Map<String, Value>) -> Envelope {
        let text = |key: &str| error.get(key).and_then(Value::as_str).unwrap_or_default();
        let diagnostics = vec![BackendDiagnostic::error(text("code"), text("message"))];
        let meta = self.meta(session, diagnostics);
        serde_json::to_value(&meta)
            .and_then(|meta| {
                let value = object([
                    ("ok", Value::Bool(false)),
                    ("meta", meta),
                    ("error", Value::Object(error)),
                ]);
                Ok(Envelope {
                    text: serde_json::to_string(&value)?,
                    value: Some(value),
                    session_id: session.id.map(str::to_string),
                    additions: Additions::default(),
                    gist: None,
                })
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
        Envelope {
            text: value.to_string(),
            value: Some(value),
            session_id: session.id.map(str::to_string),
            additions: Additions::default(),
            gist: None,
        }
    }
}

/// `{"ok":true,"meta":…,"data":…}` from JSON texts, allocated once at its final size
/// (the data can be megabytes).
fn success_text(meta: &str, data: &str) -> String {
    const PARTS: [&str; 3] = [r#"{"ok":true,"meta":"#, r#","data":"#, "}"];
    let mut text = String::with_capacity(
        PARTS.iter().map(|p| p.len()).sum::<usize>() + meta.len() + data.len(),
    );
    text.push_str(PARTS[0]);
    text.push_str(meta);
    text.push_str(PARTS[1]);
    text.push_str(data);
    text.push_str(PARTS[2]);
    text
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

/// The remediation of an error whose code's guide speaks of another case: the path policy
/// of a publish, whose guide is about saves.
fn specific_remediation(error: &BackendError) -> Option<Remediation> {
    match error {
        BackendError::PathPolicyViolation {
            policy: TargetPolicy::PublishTarget,
            ..
        } => Some(Remediation {
            kind: RemediationKind::HostAction,
            message: "Publish into a directory inside the allowed roots and outside the project's own folders (the project directory, its assets and settings): pass outputDir naming one (and codeDir for binding code), or leave them out to use the project's publish settings where those lie inside the roots. If the project must publish elsewhere, the user adds that directory to the server's roots (--project-dir).".to_owned(),
            read: None,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The backend's text, spliced into the envelope, reads back as the envelope a
    /// transport that cannot splice sends as a value.
    #[test]
    fn a_backend_result_is_the_same_envelope_as_text_and_value() {
        let data = r#"{"note":"\"structuredContent\":null","n":[1,2.5,-0.0],"s":"é\u0000"}"#;
        let call = Call::start(Stage::Read);
        let envelope = call.success(
            SessionRef::new("s1", Some(3)),
            Data::text(data.to_string(), Vec::new()).expect("well-formed"),
        );
        assert!(envelope.value.is_none(), "backend data stays text");
        assert_eq!(envelope.session_id.as_deref(), Some("s1"));
        let value = envelope.into_value().expect("the text is JSON");
        assert_eq!(value["ok"], true);
        assert_eq!(value["meta"]["sessionId"], "s1");
        assert_eq!(value["meta"]["revision"], 3);
        let expected: Value = serde_json::from_str(data).expect("JSON");
        assert_eq!(value["data"], expected);
    }

    #[test]
    fn text_that_is_not_json_is_an_internal_failure_not_a_broken_wire() {
        let refused = Data::text("{\"open\":".to_string(), Vec::new());
        let Err(failure) = refused else {
            panic!("malformed backend text was accepted")
        };
        assert_eq!(
            failure.error.code(),
            ofgui_contracts::error::ErrorCode::BackendUnhandledError
        );
    }
}
