//! The MCP server: tools generated from the method table, every result an envelope.
//!
//! Tool calls never become JSON-RPC errors: unknown tools, malformed arguments and
//! backend failures all come back as `isError` results whose
//! `structuredContent.backendResult` is a schema-valid failure envelope. Besides tools:
//! [`resources`], [`prompts`], [`completions`], [`notify`] (subscriptions, progress and
//! log messages) and [`compose`] (what an embedding host adds). This room uses
//! [`crate::service`] and [`crate::policy`]; it reads inside the guest's data only to
//! complete package and component ids (from an outline).

pub mod completions;
pub mod compose;
pub mod notify;
pub mod prompts;
pub mod resources;
mod tools;

#[cfg(test)]
pub(crate) use tools::wrap;
pub use tools::{materialize, take_raw_envelope, warm_up_tools};

use std::sync::{Arc, OnceLock};

use ofgui_contracts::methods::{self};
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult, CustomRequest,
    CustomResult, GetPromptRequestParams, GetPromptResponse, Implementation,
    InitializeRequestParams, InitializeResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, ServerCapabilities, ServerConfig,
    SubscribeRequestParams, SubscriptionFilter, Tool, UnsubscribeRequestParams,
};
// MCP logging is deprecated by 2026-07-28 (SEP-2577) but still specified; see notify.
use rmcp::ErrorData;
#[allow(deprecated)]
use rmcp::model::{SetLevelRequestMethod, SetLevelRequestParams};
use rmcp::service::{RequestContext, RoleServer, SubscriptionContext};
use serde_json::Value;
use tracing::Instrument;

use crate::service::Service;
use compose::Composition;
use notify::Connection;

/// What the server tells every client at `initialize`, unless the embedding host
/// replaces it ([`crate::mcp::compose::ServerBuilder::instructions`]).
pub const INSTRUCTIONS: &str = "\
ofgui serves FairyGUI UI projects read from disk, each in its own sandboxed session; openfairygui_backend_get_capabilities says what it can do.
1. Call openfairygui_backend_open_session with projectPath (a project directory or its .fairy file inside the server's allowed roots); openfairygui_backend_open_project_session opens a project given as a UAM document instead, written to disk only by openfairygui_backend_materialize_session with targetPath.
2. Read openfairygui_backend_get_project_outline for exact ids and the current revision; a large project's outline comes in pages (nextCursor, the warning answer_paged): follow page.cursor, or ask detail packages first, then scope.packageIds or scope.component.
3. Find nodes and resources by name, text, kind or referenced ui:// URL with openfairygui_backend_search_project; query one entity at a time with openfairygui_backend_query_entity (project, package, resource, component, displayNode, controller, transition).
4. Use openfairygui_backend_read_session_state for the model (scoped and paged like the outline) and openfairygui_backend_read_resource_bytes for an asset's bytes.
5. To edit, send a batch of operations to openfairygui_backend_preflight_transaction to see exactly what it would change, then the same input to openfairygui_backend_apply_transaction. Batches are all or nothing and take expectedRevision: on stale_read or stale_write re-read the outline and entities and re-plan; never retry blindly with a guessed revision. Edits stay in the session until openfairygui_backend_save_session writes the changed files to disk; openfairygui_backend_get_session gives the revision and whether edits are unsaved. openfairygui_undo takes the last batch back and openfairygui_redo applies it again, each as a new revision (openfairygui_get_history lists the revisions); openfairygui_refresh_session reads the project again after someone else changed it on disk and replays the unsaved edits on top. openfairygui_review shows the person the session in a review view (clients with MCP Apps): what changed, drawn before and after, with the diff a save would write and undo, redo and save for them to approve. openfairygui_export_strings lists the project's translatable texts under the runtime's keys; openfairygui_check_strings checks a translation against them; openfairygui_sweep_strings finds the texts it no longer fits (see one with openfairygui_render_component's strings and compareStrings).
6. openfairygui_backend_validate_session reports what is broken and where; openfairygui_render_component draws a component as a PNG image (at chosen controller pages; with previewOperations, before and after a batch side by side) so you can see an edit before applying it; openfairygui_backend_get_events polls session events with a cursor; openfairygui_backend_get_cache_snapshot and openfairygui_backend_refresh_cache read and rebuild the session's derived cache entry.
7. openfairygui_publish writes what the game loads (per package the descriptor, atlas pages, sounds, and binding code where asked for) into outputDir or the project's publish path; try it with dryRun first.
8. Every result is in structuredContent.backendResult as {ok, meta, data|error}; on ok:false read error.code and meta.diagnostics[].remediation. Any tool may also fail with invalid_input (an argument does not fit the input schema: error.path names the field) or backend_unhandled_error (reason trap, deadline or out_of_memory: the session was restored as the message says; re-read before retrying).
9. Close the session with openfairygui_backend_close_session when done (unsaved edits are discarded). openfairygui_docs_read reads the installed documentation (start with index, then workflow) for clients that read no resources.";

/// What a tool result's text content holds besides `structuredContent.backendResult`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum TextContent {
    /// The whole envelope as JSON, however large: for clients that show the model only
    /// the text content.
    Full,
    /// The whole envelope when it is at most 16 KiB (most results), else its meta in
    /// brief and where the result is, so a large result is not sent twice: clients
    /// that read `structuredContent` (Claude Code since 2.1.121, the SDKs) lose nothing.
    #[default]
    Summary,
}

/// Results up to this size keep their whole envelope as text content in `summary` mode.
pub const WHOLE_TEXT_BYTES: usize = 16 * 1024;

/// The MCP handler of one client connection.
pub struct OfguiServer {
    service: Arc<Service>,
    text_content: TextContent,
    schemas: Schemas,
    composition: Arc<Composition>,
    /// The tool list with the composition's changes, made on first use.
    composed_tools: Arc<OnceLock<Vec<Tool>>>,
    /// This connection's subscriptions, log level and forwarding task.
    connection: Connection,
    /// Whether tool results carry their envelope as a parsed value: for transports that
    /// serialize results themselves (HTTP), where stdio splices the backend's text.
    materialized: bool,
}

/// A clone serves another connection: it shares the service, the settings and the
/// composition, not this connection's subscriptions and log level.
impl Clone for OfguiServer {
    fn clone(&self) -> Self {
        Self {
            service: self.service.clone(),
            text_content: self.text_content,
            schemas: self.schemas,
            composition: self.composition.clone(),
            composed_tools: self.composed_tools.clone(),
            materialized: self.materialized,
            connection: Connection::default(),
        }
    }
}

impl OfguiServer {
    /// The server with nothing composed in; see [`crate::mcp::compose::ServerBuilder`].
    pub fn new(service: Arc<Service>, text_content: TextContent, schemas: Schemas) -> Self {
        let composition = Composition {
            instructions: None,
            host_tools: Vec::new(),
            policies: Default::default(),
        };
        Self::composed(service, text_content, schemas, composition)
    }

    pub(crate) fn composed(
        service: Arc<Service>,
        text_content: TextContent,
        schemas: Schemas,
        composition: Composition,
    ) -> Self {
        Self {
            service,
            text_content,
            schemas,
            composition: Arc::new(composition),
            composed_tools: Arc::new(OnceLock::new()),
            connection: Connection::default(),
            materialized: false,
        }
    }

    /// The server for a transport that serializes results itself (not
    /// [`crate::transport::stdio::serve`], which writes the backend's text unparsed).
    pub fn materialized(mut self) -> Self {
        self.materialized = true;
        self
    }
}

/// Which tool list the server advertises.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Schemas {
    /// Lean schemas (the default): the list fits a model's context.
    #[default]
    Lean,
    /// Every schema inline, for clients that decode against them.
    Full,
}

impl ServerHandler for OfguiServer {
    // MCP logging is deprecated by 2026-07-28 (SEP-2577) but still specified; see notify.
    #[allow(deprecated)]
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_resources_subscribe()
                .enable_prompts()
                .enable_completions()
                .enable_logging()
                .build(),
        )
        .with_server_info(Implementation::new(
            "ofgui-mcp-host",
            env!("CARGO_PKG_VERSION"),
        ))
        .with_instructions(
            self.composition
                .instructions
                .clone()
                .unwrap_or_else(|| INSTRUCTIONS.to_string()),
        )
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        // A handshake-era connection gets updates and background notices pushed.
        self.connection.start(&self.service, context.peer.clone());
        self.negotiate_initialize(&request)
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        no_cursor(request.as_ref())?;
        Ok(ListToolsResult::with_all_items(self.tools()?))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // A tool this server does not have is a protocol error, not a tool's failure.
        if let Some(refusal) = self.refuse_unknown_tool(&request.name) {
            crate::metrics::metrics().tool_call(None, false, 0.0);
            return Err(refusal);
        }
        // The log names a tool or session only as a well-formed identifier: a client's
        // arbitrary string is a payload, and stays out of it.
        let logged_tool = match methods::by_tool(&request.name) {
            Some(method) => method.tool.to_string(),
            None if loggable(&request.name) => request.name.to_string(),
            None => "(not a tool name)".to_string(),
        };
        let span = tracing::info_span!("ofgui.tool", name = %logged_tool);
        let started = std::time::Instant::now();
        let method = methods::by_tool(&request.name).map(|method| method.id);
        let session = request
            .arguments
            .as_ref()
            .and_then(|arguments| arguments.get("sessionId"))
            .and_then(Value::as_str)
            .map(|id| match loggable(id) {
                true => id.to_owned(),
                false => "(not a session id)".to_owned(),
            });
        let call = self
            .call(&request.name, request.arguments, Some(context.peer.clone()))
            .instrument(span);
        let mut result = self
            .connection
            .serve(&context, method, call, |result| {
                result.is_error == Some(true)
            })
            .await;
        let ok = result.is_error != Some(true);
        // A client that draws no MCP Apps still gets the way to the view: the browser
        // door, when the call came over HTTP (which serves it).
        if ok
            && method == Some(methods::MethodId::Review)
            && let Some(parts) = context.extensions.get::<axum::http::request::Parts>()
            && let Some(words) = session
                .as_deref()
                .and_then(|id| crate::review::browser_words(&parts.headers, id))
        {
            result.content.push(rmcp::model::ContentBlock::text(words));
        }
        let seconds = started.elapsed().as_secs_f64();
        // The name is one of this server's tools (an unknown one was refused above).
        crate::metrics::metrics().tool_call(Some(&request.name), ok, seconds);
        if self.materialized
            && let Err(error) = tools::materialize(&mut result)
        {
            tracing::error!("a tool result's envelope did not parse: {error}");
            return Err(ErrorData::internal_error(
                "the result could not be encoded",
                None,
            ));
        }
        // One line per call: what ran on which session, how long, how it ended; never
        // the arguments or the result.
        tracing::info!(
            tool = %logged_tool,
            session = session.as_deref().unwrap_or("-"),
            ok,
            ms = seconds * 1000.0,
            "tool call"
        );
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        no_cursor(request.as_ref())?;
        Ok(ListResourcesResult::with_all_items(resources::list()))
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        no_cursor(request.as_ref())?;
        Ok(ListResourceTemplatesResult::with_all_items(
            resources::templates(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let read = resources::read(&self.service, &request.uri);
        let contents = self.connection.serve(&context, None, read, Result::is_err);
        Ok(ReadResourceResult::new(vec![contents.await?]).into())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        completions::complete(&self.service, &request)
            .await
            .map(CompleteResult::new)
    }

    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        // 2026-07-28 has no logging/setLevel: each request's _meta names its level.
        if !notify::handshake_era(&context) {
            return Err(ErrorData::method_not_found::<SetLevelRequestMethod>());
        }
        self.connection.set_level(request.level);
        Ok(())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.connection.subscribe(&self.service, &request.uri)
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.connection.unsubscribe(&request.uri);
        Ok(())
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(notify::accepted_filter(&self.service, requested))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        notify::listen(&self.service, context).await
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        no_cursor(request.as_ref())?;
        Ok(ListPromptsResult::with_all_items(prompts::list()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        Ok(prompts::get(&request.name)?.into())
    }

    /// A request the library could not read as any method it knows: for one of MCP's own
    /// methods that means its params are missing or malformed (`-32602`), as JSON-RPC
    /// says, not that the method does not exist.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        const WITH_PARAMS: &[&str] = &[
            "initialize",
            "tools/call",
            "resources/read",
            "resources/subscribe",
            "resources/unsubscribe",
            "prompts/get",
            "completion/complete",
            "logging/setLevel",
        ];
        let method = request.method.as_str();
        if WITH_PARAMS.contains(&method) {
            return Err(ErrorData::invalid_params(
                format!(
                    "Invalid params: {method} needs its params object (for tools/call: name, and arguments), and they are missing or not of its shape; nothing was done."
                ),
                None,
            ));
        }
        Err(ErrorData::new(
            rmcp::model::ErrorCode::METHOD_NOT_FOUND,
            format!("Method not found: {method}."),
            None,
        ))
    }
}

/// Every list fits one page, so this server never gives a `nextCursor`: a cursor is one
/// it did not issue, which the protocol answers with invalid params rather than page 1.
fn no_cursor(request: Option<&PaginatedRequestParams>) -> Result<(), ErrorData> {
    match request.and_then(|request| request.cursor.as_ref()) {
        None => Ok(()),
        Some(_) => Err(ErrorData::invalid_params(
            "Invalid cursor: this server lists everything in one page and gives no cursor; list again without one.",
            None,
        )),
    }
}

/// Whether a client's identifier may be logged as it is: short, and only the characters
/// of a session id or tool name.
fn loggable(id: &str) -> bool {
    id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._~-".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::INSTRUCTIONS;

    /// Tool descriptions only name the failures every tool shares: the instructions say
    /// once when they happen.
    /// An agent that reads only the instructions, or only the workflow guide, still hears
    /// of every tool.
    #[test]
    fn the_instructions_and_the_workflow_guide_name_every_tool() {
        let tools = ofgui_contracts::methods::METHODS
            .iter()
            .map(|method| method.tool)
            .chain([ofgui_contracts::methods::DOCS_TOOL]);
        for tool in tools {
            assert!(
                INSTRUCTIONS.contains(tool),
                "the instructions leave out {tool}"
            );
            assert!(
                crate::mcp::resources::WORKFLOW_TEXT.contains(tool),
                "the workflow guide leaves out {tool}"
            );
        }
    }

    #[test]
    fn the_instructions_say_when_every_shared_failure_happens() {
        for fails in ofgui_contracts::methods::MCP_FAILURES {
            assert!(
                INSTRUCTIONS.contains(&format!("{} (", fails.code)),
                "{} is not explained in the instructions",
                fails.code
            );
        }
    }
}
