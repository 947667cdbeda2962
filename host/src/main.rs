//! `ofgui-mcp-host`: MCP over stdio. Stdout carries protocol only; logs go to stderr.

use std::process::ExitCode;

use clap::Parser;
use ofgui_host::cli::{Args, Command};
use ofgui_host::compose::ServerBuilder;
use ofgui_host::confirm::ConfirmWrites;
use ofgui_host::runtime::{ComponentSource, Runtime};
use ofgui_host::service::Service;

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(Command::Validate { project, json }) = &args.command {
        // A CLI report, not a server: quiet logs unless asked for.
        init_logging("warn");
        return match tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
        {
            Ok(runtime) => runtime.block_on(ofgui_host::validate_cli::run(&args, project, *json)),
            Err(error) => {
                eprintln!("ofgui-mcp-host: {error}");
                ExitCode::from(2)
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

fn init_logging(default: &str) {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("OFGUI_LOG")
                .unwrap_or_else(|_| default.into()),
        )
        .init();
}

fn run(args: Args) -> anyhow::Result<()> {
    let config = args.config()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    match args.command.unwrap_or(Command::Serve) {
        Command::Serve => {
            let schemas = if args.full_schemas {
                ofgui_host::mcp::Schemas::Full
            } else {
                ofgui_host::mcp::Schemas::Lean
            };
            runtime.block_on(serve(
                config,
                args.text_content,
                schemas,
                args.confirm_writes,
            ))
        }
        Command::Validate { .. } => anyhow::bail!("validate is handled before serving"),
        Command::Precompile => {
            let Some(cache_dir) = config.cache_dir else {
                anyhow::bail!("precompile needs a cache directory; do not pass --no-cache");
            };
            let runtime = Runtime::new(Some(&cache_dir), config.limits)?;
            match runtime.component_source() {
                ComponentSource::Embedded => eprintln!(
                    "the compiled backend built into this binary fits this machine; nothing to compile"
                ),
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
    config: ofgui_host::service::ServiceConfig,
    text_content: ofgui_host::mcp::TextContent,
    schemas: ofgui_host::mcp::Schemas,
    confirm_writes: bool,
) -> anyhow::Result<()> {
    tracing::info!(roots = ?config.roots, "serving MCP on stdio");
    ofgui_host::mcp::warm_up_tools(schemas);
    let service = Service::new(config);
    service.warm_up();
    service.start_idle_expiry();
    let mut builder = ServerBuilder::new(service.clone())
        .text_content(text_content)
        .schemas(schemas);
    if confirm_writes {
        for tool in ofgui_host::confirm::GATED_TOOLS {
            builder = builder.policy(tool, ConfirmWrites::new(service.clone()));
        }
    }
    let server = builder.build()?;
    server.serve_stdio().await?;
    Ok(())
}
