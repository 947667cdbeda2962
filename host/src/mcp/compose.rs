//! The host composition API, for teams that embed this server in their own binary:
//! custom instructions, extra tools beside ours, and a policy in front of any of our
//! tools. Everything is checked when the server is built, so a misspelt tool name is a
//! start-up error, not a gate that silently never runs.
//!
//! ```no_run
//! # use std::sync::Arc;
//! # use ofgui_host::mcp::compose::ServerBuilder;
//! # fn demo(service: Arc<ofgui_host::service::Service>, policy: impl ofgui_host::policy::ToolPolicy) {
//! let server = ServerBuilder::new(service)
//!     .instructions("Only edit the Main package.")
//!     .policy("openfairygui_backend_save_session", policy)
//!     .build()
//!     .expect("every name is one of our tools");
//! # }
//! ```

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;

use ofgui_contracts::methods;
use rmcp::Peer;
use rmcp::model::{CallToolResult, JsonObject, Tool};
use rmcp::service::RoleServer;

use crate::mcp::{OfguiServer, Schemas, TextContent};
use crate::policy::{BoxFuture, Policy, ToolPolicy};
use crate::service::Service;

/// One call of a host tool.
pub struct ToolCall {
    pub arguments: JsonObject,
    /// The client, for a tool that sends it requests or notifications.
    pub peer: Option<Peer<RoleServer>>,
}

type Handler = Arc<dyn Fn(ToolCall) -> BoxFuture<'static, CallToolResult> + Send + Sync>;

/// A tool the embedding host serves itself, listed after ours.
#[derive(Clone)]
pub struct HostTool {
    pub tool: Tool,
    pub(crate) handler: Handler,
}

impl HostTool {
    /// A tool answered by `handler`. Its result is passed to the client as it is; a
    /// handler that panics answers `isError` with a fixed message.
    pub fn new<F, Fut>(tool: Tool, handler: F) -> HostTool
    where
        F: Fn(ToolCall) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = CallToolResult> + Send + 'static,
    {
        HostTool {
            tool,
            handler: Arc::new(move |call| Box::pin(handler(call))),
        }
    }
}

/// Why a composition was refused.
#[derive(Debug, thiserror::Error)]
pub enum ComposeError {
    #[error("Unknown OpenFairyGUI backend MCP tool policy: {0}")]
    UnknownPolicyTool(String),
    #[error("two policies for tool {0}")]
    DuplicatePolicy(String),
    #[error("tool {0} is already served")]
    DuplicateTool(String),
    #[error("the failure schema of the policy for {tool} does not compile: {reason}")]
    FailureSchema { tool: String, reason: String },
}

/// What a built server serves besides the backend tools.
pub(crate) struct Composition {
    pub instructions: Option<String>,
    pub host_tools: Vec<HostTool>,
    /// By tool name.
    pub policies: BTreeMap<&'static str, Policy>,
}

/// Builds an [`OfguiServer`].
pub struct ServerBuilder {
    service: Arc<Service>,
    text_content: TextContent,
    schemas: Schemas,
    instructions: Option<String>,
    host_tools: Vec<HostTool>,
    policies: Vec<(String, Arc<dyn ToolPolicy>)>,
}

impl ServerBuilder {
    pub fn new(service: Arc<Service>) -> ServerBuilder {
        ServerBuilder {
            service,
            text_content: TextContent::default(),
            schemas: Schemas::default(),
            instructions: None,
            host_tools: Vec::new(),
            policies: Vec::new(),
        }
    }

    pub fn text_content(mut self, text_content: TextContent) -> Self {
        self.text_content = text_content;
        self
    }

    pub fn schemas(mut self, schemas: Schemas) -> Self {
        self.schemas = schemas;
        self
    }

    /// Replaces the instructions the server gives every client at `initialize`.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// Adds a host tool, listed after ours in the order added.
    pub fn tool(mut self, tool: HostTool) -> Self {
        self.host_tools.push(tool);
        self
    }

    /// Puts `policy` in front of the backend tool named `tool`.
    pub fn policy(mut self, tool: &str, policy: impl ToolPolicy) -> Self {
        self.policies.push((tool.to_string(), Arc::new(policy)));
        self
    }

    /// Checks the composition: every policy names one of our tools (once), host tools
    /// take no name already served, and every failure schema compiles.
    pub fn build(self) -> Result<OfguiServer, ComposeError> {
        let mut policies = BTreeMap::new();
        for (name, policy) in self.policies {
            let method = methods::by_tool(&name)
                .ok_or_else(|| ComposeError::UnknownPolicyTool(name.clone()))?;
            let policy = Policy::new(policy).map_err(|reason| ComposeError::FailureSchema {
                tool: name.clone(),
                reason,
            })?;
            if policies.insert(method.tool, policy).is_some() {
                return Err(ComposeError::DuplicatePolicy(name));
            }
        }
        let mut names: Vec<&str> = Vec::new();
        for tool in &self.host_tools {
            let name = tool.tool.name.as_ref();
            if methods::by_tool(name).is_some()
                || name == methods::DOCS_TOOL
                || names.contains(&name)
            {
                return Err(ComposeError::DuplicateTool(name.to_string()));
            }
            names.push(name);
        }
        let composition = Composition {
            instructions: self.instructions,
            host_tools: self.host_tools,
            policies,
        };
        Ok(OfguiServer::composed(
            self.service,
            self.text_content,
            self.schemas,
            composition,
        ))
    }
}
