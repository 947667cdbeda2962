//! Command-line arguments, turned into a validated configuration before any work starts.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Result, bail};
use clap::{Parser, Subcommand};

use crate::mcp::TextContent;
use crate::runtime::{InstanceLimits, default_cache_dir};
use crate::sandbox::canonical_roots;
use crate::service::ServiceConfig;

/// Serves FairyGUI projects to AI agents over MCP (stdio), each project in its own
/// sandboxed WebAssembly session.
#[derive(Debug, Parser)]
#[command(name = "ofgui-mcp-host", version, about)]
pub struct Args {
    /// A directory agents may open projects in (repeatable). Defaults to the roots in
    /// OPENFAIRYGUI_ALLOWED_PROJECT_ROOTS, else the current directory.
    #[arg(long = "project-dir", value_name = "DIR", global = true)]
    pub project_dirs: Vec<PathBuf>,

    /// Most sessions open at once.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub max_sessions: u32,

    /// Close clean sessions idle for this many seconds (0 never closes them).
    #[arg(long, default_value_t = 1800)]
    pub idle_timeout_secs: u64,

    /// Where the backend is cached once compiled, when the compiled copy built into the
    /// binary does not fit this machine (default: the user cache directory).
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,

    /// Never use the compile cache: when the compiled backend built into the binary does
    /// not fit this machine, compile it at every start.
    #[arg(long)]
    pub no_cache: bool,

    /// What a tool result's text content holds: `full` (the envelope as JSON, for
    /// clients that show the model only text) or `summary` (a pointer on success, a short
    /// JSON summary on failure; for clients that read structuredContent).
    #[arg(long, value_enum, default_value_t = TextContent::Full)]
    pub text_content: TextContent,

    /// Advertise every tool's full input and output schemas inline (about 450 KB), for
    /// clients that decode against them. By default the tool list is lean (about 33 KB):
    /// the operations of a batch are a union of kinds whose fields are one resource away
    /// (openfairygui://contracts/operations/{kind}); inputs are checked strictly either way.
    #[arg(long)]
    pub full_schemas: bool,

    /// Ask the user, through MCP elicitation, to confirm every save_session and
    /// materialize_session, showing the files the write would change; a client that
    /// cannot ask gets a refusal, never a silent write.
    #[arg(long)]
    pub confirm_writes: bool,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve MCP over stdio (the default).
    Serve,
    /// Make sure the first session opens without compiling: compile the backend into the
    /// cache now if the compiled copy built into the binary does not fit this machine.
    Precompile,
    /// Validate a project and print the report. Exit status: 0 valid, 1 invalid,
    /// 2 bad arguments or unreadable project, 3 incomplete (some source could not be checked).
    Validate {
        /// The project directory or its .fairy file.
        project: PathBuf,
        /// Print the report as JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

impl Args {
    /// Validates the arguments into the service configuration.
    pub fn config(&self) -> Result<ServiceConfig> {
        let mut roots = self.project_dirs.clone();
        if roots.is_empty() {
            if let Some(list) = std::env::var_os("OPENFAIRYGUI_ALLOWED_PROJECT_ROOTS") {
                roots = std::env::split_paths(&list)
                    .filter(|path| !path.as_os_str().is_empty())
                    .collect();
                if roots.is_empty() {
                    bail!("OPENFAIRYGUI_ALLOWED_PROJECT_ROOTS is set but lists no project roots");
                }
            } else {
                roots.push(std::env::current_dir()?);
            }
        }
        let cache_dir = if self.no_cache {
            None
        } else {
            self.cache_dir.clone().or_else(default_cache_dir)
        };
        Ok(ServiceConfig {
            roots: canonical_roots(&roots)?,
            max_sessions: self.max_sessions,
            idle_timeout: Duration::from_secs(self.idle_timeout_secs),
            cache_dir,
            limits: InstanceLimits::default(),
        })
    }
}
