//! An ofgui MCP server whose saves need a person's approval.
//!
//! ```sh
//! cargo run -p ofgui-host --example approved_saves -- \
//!     --project-dir path/to/projects --approvals path/to/approvals
//! ```
//!
//! `save_session` and `materialize_session` go through only when the approvals directory
//! holds `<sessionId>.approved`, which someone creates after reviewing the preview; each
//! approval file is used up by the one write it allows (it is removed first, so two calls
//! racing for one approval give one write). Everything else works as in `ofgui-mcp-host`.
//! A host tool, `example_approval_status`, tells the agent whether a save is approved.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;
use ofgui_host::mcp::INSTRUCTIONS;
use ofgui_host::mcp::compose::{HostTool, ServerBuilder, ToolCall};
use ofgui_host::policy::{BoxFuture, PolicyCall, ToolPolicy, Verdict};
use ofgui_host::service::{Service, ServiceConfig};
use rmcp::model::{CallToolResult, ContentBlock, Tool};
use serde_json::{Map, Value, json};

/// Writes need `<approvals>/<sessionId>.approved`.
pub struct ApprovedWrites {
    pub approvals: PathBuf,
}

impl ApprovedWrites {
    /// The approval file of a session; `None` when the id could name another path.
    fn approval(&self, session_id: &str) -> Option<PathBuf> {
        let plain = !session_id.is_empty()
            && session_id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-');
        plain.then(|| self.approvals.join(format!("{session_id}.approved")))
    }
}

impl ToolPolicy for ApprovedWrites {
    fn failure_schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "code": { "const": "write_not_approved" },
                "message": { "type": "string" },
                "sessionId": { "type": "string" },
                "approvalFile": { "type": "string" },
            },
            "required": ["code", "message", "sessionId", "approvalFile"],
            "additionalProperties": false,
        })
    }

    fn before_call(&self, call: PolicyCall) -> BoxFuture<'_, Verdict> {
        Box::pin(async move {
            let session_id = call.input["sessionId"].as_str().unwrap_or_default();
            // Removing the file is the claim: of two calls sharing one approval, only
            // one removes it.
            if let Some(file) = self.approval(session_id)
                && std::fs::remove_file(&file).is_ok()
            {
                return Ok(None);
            }
            let mut error = Map::new();
            error.insert("code".into(), json!("write_not_approved"));
            error.insert(
                "message".into(),
                json!(format!(
                    "{} needs a person's approval in this deployment, and none is on record for this session; nothing was written and the edits stay in the session. Ask the user to review the preview and approve the write, then call again.",
                    call.tool
                )),
            );
            error.insert("sessionId".into(), json!(session_id));
            error.insert(
                "approvalFile".into(),
                json!(format!("{session_id}.approved")),
            );
            Ok(Some(error))
        })
    }
}

pub fn approval_status(policy: Arc<ApprovedWrites>) -> HostTool {
    let schema = json!({
        "type": "object",
        "properties": { "sessionId": { "type": "string", "minLength": 1 } },
        "required": ["sessionId"],
        "additionalProperties": false,
    });
    let Value::Object(schema) = schema else {
        unreachable!("the schema is an object literal")
    };
    let tool = Tool::new(
        "example_approval_status",
        "Says whether a person has approved the next save_session or materialize_session of a session. Read-only.",
        Arc::new(schema),
    );
    HostTool::new(tool, move |call: ToolCall| {
        let policy = policy.clone();
        async move {
            let session_id = call
                .arguments
                .get("sessionId")
                .and_then(Value::as_str)
                .unwrap_or_default();
            match policy.approval(session_id) {
                Some(file) if file.exists() => CallToolResult::success(vec![ContentBlock::text(
                    "Approved: the next write of this session will go through.",
                )]),
                Some(_) => CallToolResult::success(vec![ContentBlock::text(
                    "Not approved yet: ask the user to review the preview and approve the save.",
                )]),
                None => CallToolResult::error(vec![ContentBlock::text(
                    "sessionId must be the id open_session returned.",
                )]),
            }
        }
    })
}

fn arguments() -> anyhow::Result<(Vec<PathBuf>, PathBuf)> {
    let mut roots = Vec::new();
    let mut approvals = None;
    let mut args = std::env::args_os().skip(1);
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("--project-dir") => roots.push(args.next().context("--project-dir DIR")?.into()),
            Some("--approvals") => approvals = Some(args.next().context("--approvals DIR")?.into()),
            _ => anyhow::bail!("usage: approved_saves --project-dir DIR --approvals DIR"),
        }
    }
    Ok((roots, approvals.context("--approvals DIR is required")?))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .init();
    let (roots, approvals) = arguments()?;
    let approvals = std::fs::canonicalize(&approvals)
        .with_context(|| format!("approvals directory {}", approvals.display()))?;
    let service = Service::new(ServiceConfig::with_roots(&roots)?);
    service.warm_up();
    service.start_idle_expiry();
    let policy = Arc::new(ApprovedWrites { approvals });
    let server = ServerBuilder::new(service)
        .instructions(format!(
            "{INSTRUCTIONS}\nIn this deployment a person approves each save: preview the edits, ask the user to approve, check with example_approval_status, then save."
        ))
        .policy(
            "openfairygui_backend_save_session",
            ApprovedWrites {
                approvals: policy.approvals.clone(),
            },
        )
        .policy(
            "openfairygui_backend_materialize_session",
            ApprovedWrites {
                approvals: policy.approvals.clone(),
            },
        )
        .tool(approval_status(policy))
        .build()?;
    ofgui_host::transport::stdio::serve(server).await?;
    Ok(())
}
