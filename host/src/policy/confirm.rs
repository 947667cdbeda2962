//! `--confirm-writes`: a person confirms every save, materialize and publish, through MCP
//! elicitation, after seeing the files the write would change. Built as a host policy
//! ([`crate::policy`]) on the two write tools, so it gates exactly as an embedder's
//! policy would.
//!
//! The file list shown is the backend's plan at the revision the call names, so the call
//! must name one (`expectedRevision`): the write that follows is then of that revision or
//! refused as stale. A client that cannot ask its user (no elicitation capability, or a
//! protocol that forbids server-to-client requests) gets a refusal that says so, never a
//! silent write. A write the backend would refuse anyway (stale, unfaithful, invalid) is
//! let through without asking, so its own error comes back.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use ofgui_contracts::error::{BackendError, ErrorCode};
use ofgui_contracts::methods::{Effect, METHODS, MethodId};
use rmcp::Peer;
use rmcp::service::{ElicitationError, ElicitationMode, RoleServer};
use serde_json::{Map, Value, json};

use crate::backend::bindings::{FileChange, PlannedWrites};
use crate::policy::{BoxFuture, PolicyCall, ToolPolicy, Verdict};

/// The tools this policy gates: every method that writes the project on disk.
pub fn gated_tools() -> impl Iterator<Item = &'static str> {
    METHODS
        .iter()
        .filter(|method| method.effect == Effect::Writes)
        .map(|method| method.tool)
}

/// How long a person has to answer.
const ANSWER_WITHIN: Duration = Duration::from_secs(10 * 60);
/// Most files a confirmation lists by name.
const LISTED_FILES: usize = 40;

/// The person's answer.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Confirmation {
    /// Write these files to the project.
    confirm: bool,
}

rmcp::elicit_safe!(Confirmation);

/// The files a save (`false`) or materialize (`true`) of a session would change at a
/// revision, without writing: what the person is shown. The server's service answers it;
/// the policy is given the question, not the service, so this room does not use that one.
pub type PlanWrites = Arc<
    dyn Fn(String, bool, u64) -> BoxFuture<'static, Result<PlannedWrites, BackendError>>
        + Send
        + Sync,
>;

/// Asks a person before each write.
pub struct ConfirmWrites {
    plan: PlanWrites,
}

/// The client of `call`, when it can ask its user; else the refusal that says why not.
fn askable<'c>(call: &'c PolicyCall, session_id: &str) -> Result<&'c Peer<RoleServer>, Verdict> {
    let Some(peer) = &call.peer else {
        return Err(unavailable(
            session_id,
            "this call did not come from an MCP client",
        ));
    };
    if !peer
        .supported_elicitation_modes()
        .contains(&ElicitationMode::Form)
    {
        return Err(unavailable(
            session_id,
            "this client did not declare elicitation support",
        ));
    }
    Ok(peer)
}

impl ConfirmWrites {
    pub fn new(plan: PlanWrites) -> ConfirmWrites {
        ConfirmWrites { plan }
    }
}

/// A denial in this policy's failure schema.
fn denied(code: &str, session_id: &str, message: String) -> Verdict {
    let mut error = Map::new();
    error.insert("code".into(), json!(code));
    error.insert("message".into(), json!(message));
    error.insert("sessionId".into(), json!(session_id));
    Ok(Some(error))
}

/// The client cannot ask its user, for the reason `why`.
fn unavailable(session_id: &str, why: &str) -> Verdict {
    denied(
        "confirmation_unavailable",
        session_id,
        format!(
            "This server asks a person to confirm each write (--confirm-writes), and {why}, so it cannot ask. Nothing was written and the edits stay in the session: use a client that supports MCP elicitation, or ask the user to run the server without --confirm-writes."
        ),
    )
}

/// The user did not confirm, as `why` says.
fn declined(session_id: &str, why: &str) -> Verdict {
    denied(
        "write_not_confirmed",
        session_id,
        format!(
            "The user {why}; nothing was written and the edits stay in the session. Ask what they want changed before trying again."
        ),
    )
}

/// Puts `message` to the user: only a confirmation allows the write.
async fn ask(peer: &Peer<RoleServer>, session_id: &str, message: String) -> Verdict {
    match peer
        .elicit_with_timeout::<Confirmation>(message, Some(ANSWER_WITHIN))
        .await
    {
        Ok(Some(Confirmation { confirm: true })) => Ok(None),
        Ok(_) | Err(ElicitationError::UserDeclined) => {
            declined(session_id, "did not confirm the write")
        }
        Err(ElicitationError::UserCancelled) => declined(session_id, "cancelled the confirmation"),
        Err(ElicitationError::CapabilityNotSupported) => {
            unavailable(session_id, "this client does not support elicitation")
        }
        Err(error) => {
            tracing::warn!(session = %session_id, "confirmation not obtained: {error}");
            unavailable(
                session_id,
                "asking its user failed or got no answer in time",
            )
        }
    }
}

impl ConfirmWrites {
    /// Publishing writes the output directory, never the project: the person sees which
    /// packages go where. A dry run writes nothing and is not asked about.
    async fn before_publish(&self, call: &PolicyCall, session_id: &str) -> Verdict {
        let input = &call.input;
        if input.get("dryRun") == Some(&json!(true)) {
            return Ok(None);
        }
        let peer = match askable(call, session_id) {
            Ok(peer) => peer,
            Err(verdict) => return verdict,
        };
        let packages = match input.get("packages").and_then(Value::as_array) {
            Some(names) => names
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(", "),
            None => "every package".to_owned(),
        };
        let into = match input.get("outputDir").and_then(Value::as_str) {
            Some(dir) => format!("the directory {dir}"),
            None => "the publish path of the project's settings".to_owned(),
        };
        let code = match input.get("codeDir").and_then(Value::as_str) {
            Some(dir) => format!(" (binding code, where the packages ask for it, into {dir})"),
            None => String::new(),
        };
        let message = format!(
            "The agent asks to publish {packages} of this FairyGUI project into {into}{code}, \
             replacing the files those packages published there before. Publish?"
        );
        ask(peer, session_id, message).await
    }
}

impl ToolPolicy for ConfirmWrites {
    fn failure_schema(&self) -> Value {
        json!({
            "type": "object",
            "description": "A write this server (--confirm-writes) did not make because a person did not confirm it; nothing was written and the edits stay in the session.",
            "properties": {
                "code": { "enum": ["write_not_confirmed", "confirmation_unavailable", "expected_revision_required"] },
                "message": { "type": "string" },
                "sessionId": { "type": "string" },
            },
            "required": ["code", "message", "sessionId"],
            "additionalProperties": false,
        })
    }

    fn before_call(&self, call: PolicyCall) -> BoxFuture<'_, Verdict> {
        Box::pin(async move {
            let input = &call.input;
            let session_id = input["sessionId"].as_str().unwrap_or_default();
            if call.id == MethodId::Publish {
                return self.before_publish(&call, session_id).await;
            }
            let materialize = call.id == MethodId::MaterializeSession
                || input.get("force") == Some(&json!(true))
                || input.get("mode").is_some_and(|mode| !mode.is_null());
            let Some(expected) = input.get("expectedRevision").and_then(Value::as_u64) else {
                return denied(
                    "expected_revision_required",
                    session_id,
                    format!(
                        "This server asks a person to confirm each write, showing the files of one revision; pass expectedRevision (the revision you previewed) to {}. Nothing was written.",
                        call.tool
                    ),
                );
            };
            let peer = match askable(&call, session_id) {
                Ok(peer) => peer,
                Err(verdict) => return verdict,
            };
            let target = input.get("targetPath").and_then(Value::as_str);
            let planned = match (self.plan)(session_id.to_string(), materialize, expected).await {
                Ok(planned) => planned,
                // A session opened from a document has no directory yet: what it would
                // write is the whole project, into the directory the call names.
                Err(error)
                    if error.code() == ErrorCode::CapabilityUnavailable
                        && materialize
                        && let Some(target) = target =>
                {
                    let message = format!(
                        "The agent asks to write this FairyGUI project, all of its files at revision {expected}, into the directory {target}. Write it?"
                    );
                    return ask(peer, session_id, message).await;
                }
                // The write itself will answer with what stands in its way.
                Err(_) => return Ok(None),
            };
            if planned.files.is_empty() {
                return Ok(None);
            }
            let mut message = format!(
                "The agent asks to {} {} file{} of this FairyGUI project (revision {}):\n",
                if materialize { "rewrite" } else { "save" },
                planned.files.len(),
                if planned.files.len() == 1 { "" } else { "s" },
                planned.status.revision
            );
            for file in planned.files.iter().take(LISTED_FILES) {
                let change = match file.change {
                    FileChange::Added => "add",
                    FileChange::Updated => "change",
                    FileChange::Removed => "remove",
                };
                let _ = writeln!(message, "  {change} {}", file.path);
            }
            if planned.files.len() > LISTED_FILES {
                let _ = writeln!(
                    message,
                    "  … and {} more",
                    planned.files.len() - LISTED_FILES
                );
            }
            message.push_str("Write them?");
            ask(peer, session_id, message).await
        })
    }
}
