//! Tools: the list (ours from the method table, changed by the composition, then the
//! host's and the docs tool) and one call, from arguments to a tool result.

use std::panic::AssertUnwindSafe;
use std::sync::{Arc, OnceLock};

use base64::Engine as _;
use futures::FutureExt as _;
use ofgui_contracts::additions::ADDITIONS_META_KEY;
use ofgui_contracts::echo::{MAX_ECHO_CHARS, clip};
use ofgui_contracts::envelope::Stage;
use ofgui_contracts::error::BackendError;
use ofgui_contracts::methods::{self, DOCS_TOOL, Method};
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, MetaObject, Tool};
use rmcp::service::RoleServer;
use rmcp::{ErrorData, Peer};
use serde_json::{Value, json};

use super::compose::{Composition, HostTool, ToolCall};
use super::{OfguiServer, Schemas, TextContent, WHOLE_TEXT_BYTES, resources};
use crate::policy::Gate;
use crate::policy::input;
use crate::service::envelope::{self, Call, Envelope, Failure, SessionRef};

/// The success text in summary mode.
/// Most diagnostic codes a failure summary lists.
const SUMMARY_MAX_CODES: usize = 32;

impl OfguiServer {
    /// The tools this server lists: ours, changed by the composition, then the host's.
    pub fn tools(&self) -> Result<Vec<Tool>, ErrorData> {
        // A tool list that does not parse is a broken build: say so, never list nothing.
        let broken = |error: &String| {
            ErrorData::internal_error(format!("the server's tool list is broken: {error}"), None)
        };
        let base = parsed_tools(self.schemas).as_ref().map_err(broken)?;
        let composition = &self.composition;
        if composition.policies.is_empty() && composition.host_tools.is_empty() {
            return Ok(base.clone());
        }
        Ok(self
            .composed_tools
            .get_or_init(|| compose_tools(base, composition))
            .clone())
    }

    /// Runs one tool call to completion; never fails at the protocol level. `peer` is
    /// the client, for host policies and tools that talk to it.
    pub async fn call(
        &self,
        name: &str,
        arguments: Option<JsonObject>,
        peer: Option<Peer<RoleServer>>,
    ) -> CallToolResult {
        self.call_by(name, arguments, peer, false).await
    }

    /// [`Self::call`], saying whether a person pressed it on the review page.
    async fn call_by(
        &self,
        name: &str,
        arguments: Option<JsonObject>,
        peer: Option<Peer<RoleServer>>,
        by_person: bool,
    ) -> CallToolResult {
        if name == DOCS_TOOL {
            return docs_read(arguments);
        }
        let Some(method) = methods::by_tool(name) else {
            if let Some(tool) = self.host_tool(name) {
                return host_tool(tool, arguments.unwrap_or_default(), peer).await;
            }
            return self.tool_result(unknown_tool(name), true);
        };
        let input = Value::Object(arguments.unwrap_or_default());
        if let Err(error) = input::check(method, &input) {
            let call = Call::start(method.stage);
            return self.tool_result(call.failure(SessionRef::default(), error.into()), true);
        }
        let gate = self
            .composition
            .policies
            .get(method.tool)
            .map(|policy| Gate {
                policy: policy.clone(),
                peer,
                by_person,
            });
        let mut reply = self.service.call_gated(method, input, gate.as_ref()).await;
        let envelope_len = reply.envelope.text.len();
        let text = self.text(&mut reply.envelope, reply.is_error);
        let shown = text.as_deref().unwrap_or(&reply.envelope.text);
        // A picture travels as base64 in the same message: it counts against the budget.
        let image_len = reply
            .image
            .as_ref()
            .map_or(0, |png| png.len().div_ceil(3) * 4);
        let additions_len = additions_size(&reply.envelope);
        let oversized = method.max_response_bytes.filter(|max| {
            result_size(envelope_len, shown) + image_len as u64 + additions_len > *max
        });
        match oversized {
            None => {
                let mut result = wrap(reply.envelope, text, reply.is_error);
                if let Some(png) = reply.image {
                    let encoded = base64::engine::general_purpose::STANDARD.encode(png);
                    result
                        .content
                        .push(ContentBlock::image(encoded, "image/png"));
                }
                result
            }
            Some(max_bytes) => {
                self.budget_failure(method, reply.envelope.session_id.as_deref(), max_bytes)
            }
        }
    }

    /// One tool call from the review page (not an MCP request): the same call, policies
    /// and checks as an agent's, its result materialized, and counted and logged as one.
    pub async fn call_for_review(
        &self,
        name: &str,
        arguments: Option<JsonObject>,
    ) -> Result<CallToolResult, ErrorData> {
        if let Some(refusal) = self.refuse_unknown_tool(name) {
            crate::metrics::metrics().tool_call(None, false, 0.0);
            return Err(refusal);
        }
        let started = std::time::Instant::now();
        let mut result = self.call_by(name, arguments, None, true).await;
        let ok = result.is_error != Some(true);
        let seconds = started.elapsed().as_secs_f64();
        crate::metrics::metrics().tool_call(Some(name), ok, seconds);
        materialize(&mut result)
            .map_err(|_| ErrorData::internal_error("the result could not be encoded", None))?;
        // A known tool's name (an unknown one was refused above); never the arguments.
        tracing::info!(tool = %name, ok, ms = seconds * 1000.0, "tool call from the review page");
        Ok(result)
    }

    /// Wraps an envelope: structured content plus its text content.
    fn tool_result(&self, mut envelope: Envelope, is_error: bool) -> CallToolResult {
        let text = self.text(&mut envelope, is_error);
        wrap(envelope, text, is_error)
    }

    /// The text content of a result, by the configured mode; `None` when it is the
    /// envelope's own text, which is then not copied.
    fn text(&self, envelope: &mut Envelope, is_error: bool) -> Option<String> {
        let small = envelope.text.len() <= WHOLE_TEXT_BYTES;
        match (self.text_content, is_error) {
            (TextContent::Full, _) => None,
            (TextContent::Summary, _) if small => None,
            (TextContent::Summary, false) => Some(success_summary(envelope)),
            (TextContent::Summary, true) => envelope.value.as_ref().map(failure_summary),
        }
    }

    /// The failure that replaces a result too big for its tool, instead of truncating it.
    fn budget_failure(
        &self,
        method: &Method,
        session_id: Option<&str>,
        max_bytes: u64,
    ) -> CallToolResult {
        let call = Call::start(method.stage);
        let failure = Failure::from(BackendError::McpResponseBudgetExceeded {
            message: "The complete MCP tool response exceeds its byte limit.".into(),
            max_bytes,
        });
        let reference = SessionRef {
            id: session_id,
            revision: None,
        };
        self.tool_result(call.failure(reference, failure), true)
    }

    /// The embedder's tool of this name, if there is one.
    fn host_tool(&self, name: &str) -> Option<&HostTool> {
        self.composition
            .host_tools
            .iter()
            .find(|tool| tool.tool.name == name)
    }

    /// The protocol's refusal of a tool this server does not have (invalid params), or
    /// `None` for a tool it has. The name stays out of it: the library logs every error
    /// it answers, and a client's string is a payload.
    pub(crate) fn refuse_unknown_tool(&self, name: &str) -> Option<ErrorData> {
        let known =
            name == DOCS_TOOL || methods::by_tool(name).is_some() || self.host_tool(name).is_some();
        match known {
            true => None,
            false => Some(ErrorData::invalid_params(
                "Unknown tool: this server has no tool of that name; list the tools (tools/list) for the names it has.",
                Some(
                    json!({ "code": "unknown_tool", "docsUri": ofgui_contracts::catalog::docs_uri("unknown_tool") }),
                ),
            )),
        }
    }
}

/// Upstream's `unknown_tool` envelope for `name` (echoed clipped, as every refused input is).
fn unknown_tool(name: &str) -> Envelope {
    let name = clip(name, MAX_ECHO_CHARS);
    let failure = Failure::from(BackendError::UnknownTool {
        message: format!("No tool named {name}; list the tools for the available names."),
        tool_name: name,
    });
    Call::start(Stage::Runtime).failure(SessionRef::default(), failure)
}

/// Runs a host tool; a handler that panics answers `isError`, its words kept in the log.
async fn host_tool(
    tool: &HostTool,
    arguments: JsonObject,
    peer: Option<Peer<RoleServer>>,
) -> CallToolResult {
    let call = ToolCall { arguments, peer };
    match AssertUnwindSafe((tool.handler)(call)).catch_unwind().await {
        Ok(result) => result,
        Err(_) => {
            tracing::error!(tool = %tool.tool.name, "host tool panicked");
            CallToolResult::error(vec![ContentBlock::text(
                "The host's tool failed; nothing else was affected.",
            )])
        }
    }
}

/// The tool list with a composition's changes: each policy-gated tool advertises the
/// union of its own output and its policy's failure, marked `openfairygui/hostPolicy`,
/// and host tools follow ours.
fn compose_tools(base: &[Tool], composition: &Composition) -> Vec<Tool> {
    let mut tools: Vec<Tool> = base
        .iter()
        .map(|tool| {
            let Some(policy) = composition.policies.get(tool.name.as_ref()) else {
                return tool.clone();
            };
            let mut tool = tool.clone();
            if let Some(output) = &tool.output_schema {
                let mut output = Value::Object(output.as_ref().clone());
                if let Some(own) = output.pointer_mut("/properties/backendResult") {
                    let mut union = json!({ "anyOf": [own.take(), {
                        "type": "object",
                        "description": "The host's policy refused the call; the backend was not called.",
                        "properties": {
                            "ok": { "const": false },
                            "meta": { "type": "object" },
                            "error": policy.failure_schema(),
                        },
                        "required": ["ok", "meta", "error"],
                    }] });
                    ofgui_contracts::portable::portable(&mut union);
                    *own = union;
                }
                if let Value::Object(output) = output {
                    tool.output_schema = Some(Arc::new(output));
                }
            }
            if let Some(description) = &tool.description {
                tool.description = Some(
                    format!(
                        "{description} The host running this server gates this tool with a policy, which may refuse a call with an error of its own (the output schema's second branch)."
                    )
                    .into(),
                );
            }
            let mut meta = tool.meta.take().unwrap_or_default();
            meta.0.insert("openfairygui/hostPolicy".into(), Value::Bool(true));
            tool.meta = Some(meta);
            tool
        })
        .collect();
    tools.extend(composition.host_tools.iter().map(|tool| tool.tool.clone()));
    tools
}

/// The `_meta` key under which a tool result hands its envelope, as JSON text, to the
/// transport, which writes it as `structuredContent.backendResult` without parsing it
/// (see [`take_raw_envelope`]): the text itself, or `true` when the first text block is
/// that text (the default text mode), so the largest results are held once, not twice.
/// A backend result is never turned into a tree of values in the host only to be
/// serialized again: measured, that cost `readSessionState` half its time again.
const RAW_ENVELOPE: &str = "ofgui/rawEnvelope";

/// Makes the tool result of an envelope; `text` is the text content when it is not the
/// envelope's own text.
pub(crate) fn wrap(envelope: Envelope, text: Option<String>, is_error: bool) -> CallToolResult {
    let Envelope {
        text: envelope_text,
        value,
        additions,
        ..
    } = envelope;
    let mut meta = JsonObject::new();
    let mut structured = None;
    let first = match (value, text) {
        (Some(value), text) => {
            structured = Some(envelope::object([("backendResult", value)]));
            text.unwrap_or(envelope_text)
        }
        (None, Some(text)) => {
            meta.insert(RAW_ENVELOPE.into(), Value::String(envelope_text));
            text
        }
        (None, None) => {
            meta.insert(RAW_ENVELOPE.into(), Value::Bool(true));
            envelope_text
        }
    };
    let mut content = vec![ContentBlock::text(first)];
    // Our additions stay out of the envelope, which keeps upstream's shape: in `_meta`
    // for clients, and as a second text block for models that read only text.
    if !additions.is_empty() {
        match serde_json::to_value(&additions) {
            Ok(additions) => {
                let block = envelope::object([(ADDITIONS_META_KEY, additions.clone())]);
                content.push(ContentBlock::text(block.to_string()));
                meta.insert(ADDITIONS_META_KEY.into(), additions);
            }
            Err(cause) => tracing::error!("a result's additions could not be serialized: {cause}"),
        }
    }
    let mut result = if is_error {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    };
    result.structured_content = structured;
    if !meta.is_empty() {
        result.meta = Some(MetaObject(meta));
    }
    result
}

/// Where a tool result's unparsed envelope is.
pub enum RawEnvelope {
    /// Its JSON text.
    Text(String),
    /// The result's first text block is its JSON text.
    FirstTextBlock,
}

impl RawEnvelope {
    /// The envelope's JSON text, given the result it was taken from.
    pub fn text<'a>(&'a self, result: &'a CallToolResult) -> Option<&'a str> {
        match self {
            RawEnvelope::Text(text) => Some(text),
            RawEnvelope::FirstTextBlock => result
                .content
                .first()
                .and_then(|block| block.as_text())
                .map(|text| text.text.as_str()),
        }
    }
}

/// Takes a tool result's unparsed envelope (JSON text, checked well-formed when it was
/// made) out of `_meta`. The result is left with a `null` structured content that the
/// caller replaces by `{"backendResult": <text>}` when it writes the message.
pub fn take_raw_envelope(result: &mut CallToolResult) -> Option<RawEnvelope> {
    let meta = result.meta.as_mut()?;
    let raw = match meta.0.remove(RAW_ENVELOPE)? {
        Value::String(text) => RawEnvelope::Text(text),
        _ => RawEnvelope::FirstTextBlock,
    };
    if meta.0.is_empty() {
        result.meta = None;
    }
    result.structured_content = Some(Value::Null);
    Some(raw)
}

/// For a writer that cannot splice text: puts the envelope back as a parsed value.
pub fn materialize(result: &mut CallToolResult) -> Result<(), serde_json::Error> {
    if let Some(raw) = take_raw_envelope(result) {
        let text = raw.text(result).unwrap_or("null");
        let envelope: Value = serde_json::from_str(text)?;
        result.structured_content = Some(envelope::object([("backendResult", envelope)]));
    }
    Ok(())
}

/// A failure's bounded summary: its code and message, the diagnostic codes, and where
/// the whole envelope is.
/// The text content of a large success: its meta in brief, and where the whole is.
fn success_summary(envelope: &Envelope) -> String {
    serde_json::json!({
        "ok": true,
        "meta": envelope.gist,
        "abridged": format!(
            "The whole result ({} bytes) is in structuredContent.backendResult; this text repeats only its meta. A client that shows the model only text needs the server started with --text-content full.",
            envelope.text.len()
        ),
    })
    .to_string()
}

fn failure_summary(envelope: &Value) -> String {
    let cut = |value: &Value, max: usize| -> String {
        value
            .as_str()
            .unwrap_or_default()
            .chars()
            .take(max)
            .collect()
    };
    let codes: Vec<String> = envelope
        .pointer("/meta/diagnostics")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|diagnostic| cut(&diagnostic["code"], 128))
        .collect();
    let mut summary = serde_json::json!({
        "ok": false,
        "error": {
            "code": cut(&envelope["error"]["code"], 128),
            "message": cut(&envelope["error"]["message"], 1024),
        },
        "diagnosticCodes": codes.iter().take(SUMMARY_MAX_CODES).collect::<Vec<_>>(),
        "requestId": envelope["meta"]["requestId"],
        "fullResult": "structuredContent.backendResult",
    });
    if codes.len() > SUMMARY_MAX_CODES {
        summary["diagnosticCodesTruncated"] = Value::Bool(true);
    }
    summary.to_string()
}

/// The size of the serialized result: the envelope as JSON, the text as an escaped JSON
/// string, plus the fixed frame. Computed, not serialized, because results can be
/// megabytes.
fn result_size(envelope_len: usize, text: &str) -> u64 {
    let escapes = text
        .bytes()
        .filter(|b| matches!(b, b'"' | b'\\') || *b < 0x20)
        .count();
    (envelope_len + text.len() + escapes + 128) as u64
}

/// What a result's additions add to it: their JSON in `_meta`, and again escaped in
/// their text block.
fn additions_size(envelope: &Envelope) -> u64 {
    if envelope.additions.is_empty() {
        return 0;
    }
    let json = serde_json::to_string(&envelope.additions).unwrap_or_default();
    result_size(json.len(), &json)
}

/// The tool list, parsed once from the contract compiled into the binary: the backend
/// tools, then `openfairygui_docs_read`.
fn parsed_tools(schemas: Schemas) -> &'static Result<Vec<Tool>, String> {
    static LEAN: OnceLock<Result<Vec<Tool>, String>> = OnceLock::new();
    static FULL: OnceLock<Result<Vec<Tool>, String>> = OnceLock::new();
    let (cell, text) = match schemas {
        Schemas::Lean => (&LEAN, ofgui_contracts::TOOLS_JSON),
        Schemas::Full => (&FULL, ofgui_contracts::TOOLS_FULL_JSON),
    };
    cell.get_or_init(|| {
        let mut tools: Vec<Tool> = serde_json::from_str(text).map_err(|error| error.to_string())?;
        let digest = tools
            .first()
            .and_then(|tool| tool.meta.as_ref())
            .and_then(|meta| meta.0.get("openfairygui/contractDigest").cloned());
        tools.push(docs_tool(digest));
        Ok(tools)
    })
}

/// `openfairygui_docs_read`: one installed document by id. Like upstream's it has no
/// output schema: it answers with the document's text.
fn docs_tool(digest: Option<Value>) -> Tool {
    let schema = json!({
        "type": "object",
        "properties": {
            "id": {
                "type": "string", "minLength": 1, "maxLength": 256, "default": "index",
                "description": "A document id from the index: index, workflow, restore-limits, skill, contracts, diagnostics, operations, operations/<kind>, methods/<method>, diagnostics/<code>, cli/<command>."
            }
        },
        "additionalProperties": false,
    });
    let Value::Object(schema) = schema else {
        unreachable!("the schema is an object literal")
    };
    let mut tool = Tool::new(
        DOCS_TOOL,
        "Reads one installed document by id, the same texts the openfairygui://docs resources serve, for clients that do not read resources: without id (or with id index) the index of every document as compact JSON, otherwise the document (Markdown or JSON). Start with index, then workflow. Needs nothing. May fail on: an id the index does not list (isError; read index for the ids).",
        Arc::new(schema),
    )
    .with_title("Read installed documentation")
    .with_annotations(
        rmcp::model::ToolAnnotations::new()
            .read_only(true)
            .idempotent(true)
            .open_world(false),
    );
    if let Some(digest) = digest {
        let mut meta = JsonObject::new();
        meta.insert("openfairygui/contractDigest".into(), digest);
        tool.meta = Some(MetaObject(meta));
    }
    tool
}

/// Answers `openfairygui_docs_read`.
fn docs_read(arguments: Option<JsonObject>) -> CallToolResult {
    let arguments = arguments.unwrap_or_default();
    let refused = |text: &str| CallToolResult::error(vec![ContentBlock::text(text)]);
    if arguments.keys().any(|key| key != "id") {
        return refused("openfairygui_docs_read takes only id; read index for the ids.");
    }
    let id = match arguments.get("id") {
        None => "index",
        Some(Value::String(id)) if !id.is_empty() && id.len() <= 256 => id.as_str(),
        Some(_) => {
            return refused("id must be a document id of 1 to 256 characters from the index.");
        }
    };
    match resources::read_by_id(id) {
        Ok(Some(text)) => CallToolResult::success(vec![ContentBlock::text(text)]),
        Ok(None) => refused("Unknown document ID; read index for available IDs."),
        Err(error) => {
            tracing::error!("{error}");
            refused("The server's documentation is broken; nothing else is affected.")
        }
    }
}

/// Parses the tool list on a blocking thread at start-up, so the client's first
/// `tools/list` rarely waits for it.
pub fn warm_up_tools(schemas: Schemas) {
    tokio::task::spawn_blocking(move || parsed_tools(schemas));
}
