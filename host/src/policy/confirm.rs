//! `--confirm-writes`: a person confirms every save, materialize and publish, through MCP
//! elicitation or on the review page (`serve --http`), after seeing the files the write
//! would change. Built as a host policy ([`crate::policy`]) on the write tools, so it
//! gates exactly as an embedder's policy would. A write the person presses on the review
//! page is their own answer, and is not asked about again.
//!
//! The file list shown is the backend's plan at the revision the call names, so the call
//! must name one (`expectedRevision`): the write that follows is then of that revision or
//! refused as stale. A client that cannot ask its user (no elicitation capability, or a
//! protocol that forbids server-to-client requests) gets a refusal that says so, never a
//! silent write. A write the backend would refuse anyway (stale, unfaithful, invalid) is
//! let through without asking, so its own error comes back.

use std::fmt::Write as _;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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

/// How long a person has to answer, unless the server says otherwise.
pub const ANSWER_WITHIN: Duration = Duration::from_secs(10 * 60);
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
    /// Where the review page finds the writes waiting for it (`serve --http`).
    approvals: Option<Arc<Approvals>>,
    answer_within: Duration,
}

/// The writes an agent asked for that wait for a person on the review page: one list per
/// token, so a person sees only their own agents' writes.
#[derive(Default)]
pub struct Approvals {
    waiting: Mutex<Vec<Waiting>>,
    next_id: std::sync::atomic::AtomicU64,
}

struct Waiting {
    id: u64,
    session_id: String,
    question: String,
    until: Instant,
    answer: tokio::sync::oneshot::Sender<bool>,
}

/// One write waiting for a person, as the review page shows it.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WaitingWrite {
    pub id: u64,
    pub session_id: String,
    pub question: String,
    pub seconds_left: u64,
}

impl Approvals {
    /// Puts a write up for a person; the receiver gets their answer.
    fn ask(
        &self,
        session_id: &str,
        question: &str,
        within: Duration,
    ) -> (u64, tokio::sync::oneshot::Receiver<bool>) {
        let id = self
            .next_id
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            + 1;
        let (answer, answered) = tokio::sync::oneshot::channel();
        self.lock().push(Waiting {
            id,
            session_id: session_id.to_owned(),
            question: question.to_owned(),
            until: Instant::now() + within,
            answer,
        });
        (id, answered)
    }

    /// Takes a write off the list (answered elsewhere, or out of time).
    fn withdraw(&self, id: u64) {
        self.lock().retain(|waiting| waiting.id != id);
    }

    /// The writes waiting now, oldest first.
    pub fn waiting(&self) -> Vec<WaitingWrite> {
        let now = Instant::now();
        self.lock()
            .iter()
            .map(|waiting| WaitingWrite {
                id: waiting.id,
                session_id: waiting.session_id.clone(),
                question: waiting.question.clone(),
                seconds_left: waiting.until.saturating_duration_since(now).as_secs(),
            })
            .collect()
    }

    /// A person's answer to write `id`; `false` when it no longer waits.
    pub fn answer(&self, id: u64, approve: bool) -> bool {
        let mut waiting = self.lock();
        let Some(index) = waiting.iter().position(|waiting| waiting.id == id) else {
            return false;
        };
        waiting.remove(index).answer.send(approve).is_ok()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Waiting>> {
        // A panic while holding the list leaves it whole: every change is one call.
        self.waiting
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
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
    /// Asks through elicitation only (stdio).
    pub fn new(plan: PlanWrites) -> ConfirmWrites {
        ConfirmWrites {
            plan,
            approvals: None,
            answer_within: ANSWER_WITHIN,
        }
    }

    /// Asks on the review page too, and waits `within` for an answer.
    pub fn with_review(mut self, approvals: Arc<Approvals>, within: Duration) -> ConfirmWrites {
        self.approvals = Some(approvals);
        self.answer_within = within;
        self
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

/// Puts `message` to the user through the client: only a confirmation allows the write.
async fn elicit(
    peer: &Peer<RoleServer>,
    session_id: &str,
    message: String,
    within: Duration,
) -> Verdict {
    match peer
        .elicit_with_timeout::<Confirmation>(message, Some(within))
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

/// No one answered on the review page in time.
fn timed_out(session_id: &str, within: Duration) -> Verdict {
    denied(
        "confirmation_timed_out",
        session_id,
        format!(
            "No one approved or refused this write on the review page within {} s; nothing was written and the edits stay in the session. Ask the user to look at the review page (/review) and call again.",
            within.as_secs()
        ),
    )
}

impl ConfirmWrites {
    /// Puts `message` to a person: through the client when it can ask, on the review page
    /// when there is one, whichever answers first.
    async fn ask(&self, call: &PolicyCall, session_id: &str, message: String) -> Verdict {
        let peer = askable(call, session_id);
        let Some(approvals) = &self.approvals else {
            return match peer {
                Ok(peer) => elicit(peer, session_id, message, self.answer_within).await,
                Err(verdict) => verdict,
            };
        };
        let (id, answered) = approvals.ask(session_id, &message, self.answer_within);
        let on_page = async {
            match tokio::time::timeout(self.answer_within, answered).await {
                Ok(Ok(true)) => Ok(None),
                Ok(Ok(false)) => declined(session_id, "refused the write on the review page"),
                // The list dropped it (never, while this waits) or time ran out.
                Ok(Err(_)) | Err(_) => timed_out(session_id, self.answer_within),
            }
        };
        let verdict = match peer {
            Ok(peer) => {
                let through_client = elicit(peer, session_id, message.clone(), self.answer_within);
                tokio::pin!(on_page, through_client);
                tokio::select! {
                    verdict = &mut on_page => verdict,
                    verdict = &mut through_client => match &verdict {
                        // The client could not ask: the page still can.
                        Ok(Some(error)) if error.get("code") == Some(&json!("confirmation_unavailable")) => on_page.await,
                        _ => verdict,
                    },
                }
            }
            Err(_) => on_page.await,
        };
        approvals.withdraw(id);
        verdict
    }

    /// Publishing writes the output directory, never the project: the person sees which
    /// packages go where. A dry run writes nothing and is not asked about.
    async fn before_publish(&self, call: &PolicyCall, session_id: &str) -> Verdict {
        let input = &call.input;
        if input.get("dryRun") == Some(&json!(true)) {
            return Ok(None);
        }
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
        self.ask(call, session_id, message).await
    }
}

impl ToolPolicy for ConfirmWrites {
    fn failure_schema(&self) -> Value {
        json!({
            "type": "object",
            "description": "A write this server (--confirm-writes) did not make because a person did not confirm it; nothing was written and the edits stay in the session.",
            "properties": {
                "code": { "enum": ["write_not_confirmed", "confirmation_unavailable", "confirmation_timed_out", "expected_revision_required"] },
                "message": { "type": "string" },
                "sessionId": { "type": "string" },
            },
            "required": ["code", "message", "sessionId"],
            "additionalProperties": false,
        })
    }

    fn before_call(&self, call: PolicyCall) -> BoxFuture<'_, Verdict> {
        Box::pin(async move {
            if call.by_person {
                return Ok(None);
            }
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
                    return self.ask(&call, session_id, message).await;
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
            self.ask(&call, session_id, message).await
        })
    }
}
