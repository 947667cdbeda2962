//! Host policies: gates that a team embedding this server puts in front of its tools
//! (approvals, read-only deployments, quotas).
//!
//! A policy runs after the call's input decoded and before the backend is called, once
//! per call. It sees a copy of the input as the client sent it, so nothing it does to
//! that copy reaches the backend. It allows the call (the backend then runs once and its
//! result passes through unchanged) or denies it with an error of its own, which must
//! match the failure schema it declared: the tool then answers `isError` with
//! `{ok: false, meta, error}` and the backend is never called. A policy that panics,
//! fails, or answers with an error its schema does not describe stops the call with
//! `backend_unhandled_error`, whose message never carries the policy's own words (they
//! are logged to stderr).
//!
//! This room also holds the host's own checks and words: the input budget before any
//! decoding ([`input`]), plain-word explanations of refused input ([`explain`]) and
//! `--confirm-writes` ([`confirm`]). It uses the contracts and the backend's types, never
//! the service or the protocol rooms.

pub mod confirm;
pub mod explain;
pub mod input;

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;

use futures::FutureExt as _;
use ofgui_contracts::error::{BackendError, UnhandledReason};
use ofgui_contracts::methods::{Method, MethodId};
use rmcp::Peer;
use rmcp::service::RoleServer;
use serde_json::{Map, Value};

/// A boxed future, as policies return it.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What a policy is shown of one call.
pub struct PolicyCall {
    /// Which method is called.
    pub id: MethodId,
    /// The MCP tool name (`openfairygui_backend_save_session`).
    pub tool: &'static str,
    /// The backend method (`saveSession`).
    pub method: &'static str,
    /// The arguments as the client sent them; a copy.
    pub input: Value,
    /// The client, for a policy that asks the user (elicitation); `None` outside MCP.
    pub peer: Option<Peer<RoleServer>>,
    /// A person pressed this on the review page (not an agent's call): a policy that
    /// asks a person to confirm has its answer already.
    pub by_person: bool,
}

/// A policy's answer: `Ok(None)` allows the call, `Ok(Some(error))` denies it with that
/// `error` object (at least a string `code` and `message`, matching the policy's
/// [`ToolPolicy::failure_schema`]), and `Err` is the policy's own failure.
pub type Verdict = Result<Option<Map<String, Value>>, PolicyError>;

/// A policy that could not decide; the call fails with `backend_unhandled_error`.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct PolicyError(pub String);

/// A gate before a tool's backend call.
pub trait ToolPolicy: Send + Sync + 'static {
    /// The JSON Schema of the `error` object of this policy's denials. The tool's
    /// advertised output schema becomes the union of its own and this failure.
    fn failure_schema(&self) -> Value;

    /// Decides one call.
    fn before_call(&self, call: PolicyCall) -> BoxFuture<'_, Verdict>;
}

/// Why a call did not reach the backend.
// Short-lived and on the cold path: boxing the failure would only add an allocation.
#[allow(clippy::large_enum_variant)]
pub enum Blocked {
    /// The policy's refusal: the `error` of the failure envelope.
    Denied(Map<String, Value>),
    /// The policy could not decide, or answered outside its schema.
    Failed(BackendError),
}

/// One tool's policy, ready to check calls.
#[derive(Clone)]
pub struct Policy {
    policy: Arc<dyn ToolPolicy>,
    failure: Arc<jsonschema::Validator>,
}

impl Policy {
    /// Compiles the policy's failure schema; `Err` says why it does not compile.
    pub fn new(policy: Arc<dyn ToolPolicy>) -> Result<Policy, String> {
        let failure =
            jsonschema::validator_for(&policy.failure_schema()).map_err(|e| e.to_string())?;
        Ok(Policy {
            policy,
            failure: Arc::new(failure),
        })
    }

    pub fn failure_schema(&self) -> Value {
        self.policy.failure_schema()
    }
}

/// A policy applied to one call, with the client it came from.
pub struct Gate {
    pub policy: Policy,
    pub peer: Option<Peer<RoleServer>>,
    pub by_person: bool,
}

impl Gate {
    /// Asks the policy about a call of `method` with the decoded `input`.
    pub async fn check(&self, method: &Method, input: Value) -> Result<(), Blocked> {
        let call = PolicyCall {
            id: method.id,
            tool: method.tool,
            method: method.name,
            input,
            peer: self.peer.clone(),
            by_person: self.by_person,
        };
        let verdict = AssertUnwindSafe(self.policy.policy.before_call(call))
            .catch_unwind()
            .await;
        let fail = |why: &str| {
            tracing::error!(tool = method.tool, "host policy failed: {why}");
            Blocked::Failed(BackendError::unhandled(UnhandledReason::Policy))
        };
        match verdict {
            Ok(Ok(None)) => Ok(()),
            Ok(Ok(Some(error))) => {
                let value = Value::Object(error);
                let shaped = value.get("code").is_some_and(Value::is_string)
                    && value.get("message").is_some_and(Value::is_string);
                if !shaped {
                    return Err(fail("its denial has no string code and message"));
                }
                if let Some(problem) = self.policy.failure.iter_errors(&value).next() {
                    return Err(fail(&format!(
                        "its denial does not match its failure schema: {problem}"
                    )));
                }
                let Value::Object(error) = value else {
                    return Err(fail("its denial is not an object"));
                };
                Err(Blocked::Denied(error))
            }
            Ok(Err(error)) => Err(fail(&error.0)),
            Err(_) => Err(fail("it panicked")),
        }
    }
}
