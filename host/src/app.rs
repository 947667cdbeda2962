//! The program: reads the arguments, starts logging, and runs a command or a server.
//!
//! It lives in the library so that `main.rs` has nothing to compile: a release build
//! does not share generic code between crates, so what the binary instantiated (the
//! async runtime driving the servers, the log subscriber) was compiled a second time
//! there, 77 s at the very end of a fresh build on 2 cores.

use std::process::ExitCode;

use crate::backend::runtime::{ComponentSource, Runtime};
use crate::cli::args::{Args, Command};
use crate::mcp::compose::ServerBuilder;
use crate::policy::confirm::ConfirmWrites;
use crate::service::Service;
use clap::Parser;
use ofgui_contracts::error::{BackendError, UnhandledReason};

/// Runs the program as `main.rs` is asked to: a command line command, or a server.
pub fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(error) => return usage_error(error),
    };
    if let Some(command) = &args.command
        && let Some(cli) = command.cli()
    {
        // A command's output, not a server: quiet logs unless asked for, but a first run
        // still says why it takes seconds (compiling the backend for the machine).
        init_logging("warn,ofgui_host::backend::runtime=info");
        return match tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
        {
            Ok(runtime) => runtime.block_on(crate::cli::run(&args, command, cli)),
            Err(error) => {
                eprintln!("ofgui-mcp-host: no async runtime: {error}");
                let error = BackendError::unhandled(UnhandledReason::Internal);
                crate::cli::fail(cli, wants_json(), error)
            }
        };
    }
    init_logging("info");
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("ofgui-mcp-host: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Arguments clap refused (exit status 2), or `--help` / `--version` (0). A command asked
/// for `--json` still prints its one JSON document: an `invalid_input` failure.
fn usage_error(error: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let informational = matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    let cli = std::env::args()
        .skip(1)
        .find_map(|arg| ofgui_contracts::cli::by_name(&arg));
    if let (false, Some(cli), true) = (informational, cli, wants_json()) {
        // clap's account, up to its usage lines, on one line.
        let rendered = error.render().to_string();
        let message = rendered
            .lines()
            .take_while(|line| !line.trim().is_empty())
            .map(str::trim)
            .collect::<Vec<_>>()
            .join(" ");
        let message = message.trim_start_matches("error: ");
        let refusal = BackendError::invalid_input(message.to_string(), None);
        return crate::cli::fail(cli, true, refusal);
    }
    error.exit()
}

fn wants_json() -> bool {
    std::env::args().skip(1).any(|arg| arg == "--json")
}

/// Libraries that log what clients send (the MCP library logs a client's `initialize`
/// and its notifications whole at `info`): held at `warn` whatever `OFGUI_LOG` asks, so
/// no level puts a client's payload in the log.
const QUIET_LIBRARIES: &[&str] = &["rmcp", "hyper", "hyper_util", "axum", "tower_http"];

fn init_logging(default: &str) {
    let mut filter =
        tracing_subscriber::EnvFilter::try_from_env("OFGUI_LOG").unwrap_or_else(|_| default.into());
    for library in QUIET_LIBRARIES {
        if let Ok(directive) = format!("{library}=warn").parse() {
            filter = filter.add_directive(directive);
        }
    }
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(filter)
        .init();
}

fn run(args: Args) -> anyhow::Result<()> {
    let config = args.config()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let stdio = Command::Serve {
        http: None,
        auth_token_file: None,
        allowed_hosts: Vec::new(),
        allowed_origins: Vec::new(),
        metrics_without_token: false,
        node_address: None,
        limits: Default::default(),
    };
    let schemas = if args.full_schemas {
        crate::mcp::Schemas::Full
    } else {
        crate::mcp::Schemas::Lean
    };
    // `review`'s project is its only root, as for the command line's commands.
    let review_config = match &args.command {
        Some(Command::Review { project, .. }) => {
            let dir = match project.is_file() {
                true => project.parent().unwrap_or(project).to_path_buf(),
                false => project.clone(),
            };
            Some(
                crate::backend::sandbox::canonical_roots(&[dir])
                    .map(|roots| args.project_config(roots)),
            )
        }
        _ => None,
    };
    match args.command.unwrap_or(stdio) {
        Command::Serve {
            http: Some(addr),
            auth_token_file,
            allowed_hosts,
            allowed_origins,
            metrics_without_token,
            node_address,
            limits,
        } => {
            let mut grants = match &auth_token_file {
                Some(path) => {
                    let text = std::fs::read_to_string(path)
                        .map_err(|error| anyhow::anyhow!("reading {}: {error}", path.display()))?;
                    crate::transport::http::parse_tokens(&text)?
                }
                None => Vec::new(),
            };
            if let Ok(token) = std::env::var("OFGUI_AUTH_TOKEN")
                && !token.is_empty()
            {
                if token.len() < 16 {
                    anyhow::bail!("OFGUI_AUTH_TOKEN must be at least 16 characters");
                }
                grants.push(crate::transport::http::Grant::new(
                    "env", &token, None, false,
                ));
            }
            let options = crate::transport::http::HttpOptions {
                allowed_hosts,
                allowed_origins,
                metrics_without_token,
                node_address,
                confirm_writes: args
                    .confirm_writes
                    .then(|| std::time::Duration::from_secs(args.confirm_within)),
                ..limits.options(addr, grants, args.text_content, schemas)
            };
            runtime.block_on(crate::transport::http::serve_http(config, options))
        }
        Command::Review { project, listen } => {
            if !listen.ip().is_loopback() {
                anyhow::bail!(
                    "review serves a loopback address only (its link carries a token); to serve others, use serve --http with --auth-token-file"
                );
            }
            let config =
                review_config.ok_or_else(|| anyhow::anyhow!("review has no project"))??;
            // A token made for this run, in the one link printed.
            let token = format!(
                "{}{}",
                uuid::Uuid::new_v4().simple(),
                uuid::Uuid::new_v4().simple()
            );
            let grant = crate::transport::http::Grant::new("the review link", &token, None, false);
            let options = crate::transport::http::HttpOptions {
                review_once: Some(crate::transport::http::ReviewOnce {
                    project: std::fs::canonicalize(&project)
                        .unwrap_or(project)
                        .to_string_lossy()
                        .into_owned(),
                    token,
                }),
                ..crate::cli::args::HttpLimits::default().options(
                    listen,
                    vec![grant],
                    args.text_content,
                    schemas,
                )
            };
            runtime.block_on(crate::transport::http::serve_http(config, options))
        }
        Command::Serve { http: None, .. } => runtime.block_on(serve(
            config,
            args.text_content,
            schemas,
            args.confirm_writes,
        )),
        Command::Validate { .. }
        | Command::Outline { .. }
        | Command::Query { .. }
        | Command::Apply { .. }
        | Command::Render { .. }
        | Command::Publish { .. }
        | Command::Docs { .. }
        | Command::Strings { .. } => {
            anyhow::bail!("command line commands are handled before serving")
        }
        Command::Precompile => {
            let Some(cache_dir) = config.cache_dir else {
                anyhow::bail!("precompile needs a cache directory; do not pass --no-cache");
            };
            let runtime = Runtime::new(Some(&cache_dir), config.limits, config.fonts)?;
            match runtime.component_source() {
                ComponentSource::Cache => {
                    eprintln!("backend already compiled in {}", cache_dir.display())
                }
                ComponentSource::Compiled => {
                    eprintln!("backend compiled into {}", cache_dir.display())
                }
            }
            Ok(())
        }
    }
}

async fn serve(
    config: crate::service::ServiceConfig,
    text_content: crate::mcp::TextContent,
    schemas: crate::mcp::Schemas,
    confirm_writes: bool,
) -> anyhow::Result<()> {
    tracing::info!(roots = ?config.roots, "serving MCP on stdio");
    crate::mcp::warm_up_tools(schemas);
    let service = Service::new(config);
    service.warm_up();
    service.start_idle_expiry();
    service.start_watching();
    let mut builder = ServerBuilder::new(service.clone())
        .text_content(text_content)
        .schemas(schemas);
    if confirm_writes {
        for tool in crate::policy::confirm::gated_tools() {
            builder = builder.policy(tool, ConfirmWrites::new(service.plan_writes()));
        }
    }
    let server = builder.build()?;
    crate::transport::stdio::serve(server).await?;
    Ok(())
}
