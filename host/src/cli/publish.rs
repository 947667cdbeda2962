//! `ofgui-mcp-host publish <project> [--out DIR] [--code-out DIR] [--packages A,B]
//! [--branch NAME] [--dry-run] [--use-project-paths] [--no-code] [--allow-missing]`: what
//! the game loads, written into the output directory, and the binding code of the
//! packages that ask for it.
//!
//! The directories a publish may write in are the project's own, the `--project-dir`
//! roots, and the `--out` and `--code-out` directories the person named (their nearest
//! existing ancestors, so a missing directory can be created); the project's settings
//! paths are used only when they lie inside one of them, or, with `--use-project-paths`,
//! exactly those directories (the service grants each for the one call).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use ofgui_contracts::api::PublishProjectData;
use ofgui_contracts::cli::ExitStatus;
use ofgui_contracts::error::{BackendError, OpenFailureReason};
use ofgui_contracts::methods::MethodId;
use serde_json::json;

use super::{Done, Failed, Project};
use crate::backend::sandbox::canonical_roots;
use crate::cli::args::Args;

/// What to publish, from the arguments.
pub(super) struct Request<'a> {
    pub out: Option<&'a Path>,
    pub code_out: Option<&'a Path>,
    pub packages: &'a [String],
    pub dry_run: bool,
    /// A branch to merge into the main packages.
    pub branch: Option<&'a str>,
    pub use_project_paths: bool,
    pub no_code: bool,
    pub allow_missing: bool,
}

pub(super) async fn run(args: &Args, path: &Path, request: Request<'_>) -> Result<Done, Failed> {
    let mut roots = canonical_roots(&args.project_dirs).map_err(|error| {
        BackendError::invalid_input(format!("{error:#}"), Some("--project-dir".into()))
    })?;
    let out = granted(request.out, "--out", &mut roots)?;
    let code_out = granted(request.code_out, "--code-out", &mut roots)?;
    if !path.exists() {
        return Err(BackendError::ProjectOpenFailed {
            message: format!("{}: no such file or directory", path.display()),
            reason: OpenFailureReason::ProjectNotFound,
            project_path: path.display().to_string(),
        }
        .into());
    }
    Project::for_publishing(
        args,
        path,
        roots,
        request.use_project_paths,
        async |project| {
            let mut input = json!({ "sessionId": project.session_id() });
            if let Some(out) = &out {
                input["outputDir"] = json!(out);
            }
            if let Some(code_out) = &code_out {
                input["codeDir"] = json!(code_out);
            }
            if !request.packages.is_empty() {
                input["packages"] = json!(request.packages);
            }
            if request.dry_run {
                input["dryRun"] = json!(true);
            }
            if let Some(branch) = request.branch {
                input["branch"] = json!(branch);
            }
            if request.no_code {
                input["generateCode"] = json!(false);
            }
            if request.allow_missing {
                input["allowMissing"] = json!(true);
            }
            let data: PublishProjectData =
                project.call_with_findings(MethodId::Publish, input).await?;
            let status = if data.left_out.is_empty() {
                ExitStatus::Success
            } else {
                ExitStatus::Incomplete
            };
            Ok(Done::new(&data, text(&data), status)?)
        },
    )
    .await
}

/// `dir` made absolute, with its nearest existing ancestor added to `roots` (a directory
/// the person named on the command line is one publishing may write in).
fn granted(
    dir: Option<&Path>,
    flag: &str,
    roots: &mut Vec<PathBuf>,
) -> Result<Option<PathBuf>, BackendError> {
    let Some(dir) = dir else {
        return Ok(None);
    };
    let unusable = |message: String| BackendError::invalid_input(message, Some(flag.into()));
    let absolute = std::path::absolute(dir)
        .map_err(|error| unusable(format!("{}: {error}", dir.display())))?;
    roots.push(
        nearest_existing(&absolute)
            .ok_or_else(|| unusable(format!("{}: no part of this path exists", dir.display())))?,
    );
    Ok(Some(absolute))
}

/// The deepest ancestor of `path` (itself included) that exists, resolved.
fn nearest_existing(path: &Path) -> Option<PathBuf> {
    path.ancestors()
        .find(|ancestor| ancestor.exists())
        .and_then(|ancestor| std::fs::canonicalize(ancestor).ok())
}

fn text(data: &PublishProjectData) -> String {
    let files: usize = data.packages.iter().map(|p| p.files.len()).sum();
    let bytes: u64 = data
        .packages
        .iter()
        .flat_map(|p| &p.files)
        .map(|f| f.bytes)
        .sum();
    let mut text = format!(
        "{} {} package{} ({files} file{}, {bytes} bytes) {} {}\n",
        if data.dry_run {
            "would publish"
        } else {
            "published"
        },
        data.packages.len(),
        if data.packages.len() == 1 { "" } else { "s" },
        if files == 1 { "" } else { "s" },
        if data.dry_run { "into" } else { "to" },
        data.output_dir,
    );
    for package in &data.packages {
        let _ = writeln!(text, "{}", package.package_name);
        for file in &package.files {
            let _ = writeln!(text, "  {:>10}  {}", file.bytes, file.name);
        }
        for warning in &package.warnings {
            let _ = writeln!(text, "  warning {}: {}", warning.code, warning.message);
        }
    }
    if !data.left_out.is_empty() {
        let _ = writeln!(
            text,
            "left out ({}): the game will miss these; each says what to do, then publish again",
            data.left_out.len()
        );
        for left in &data.left_out {
            let _ = writeln!(
                text,
                "  {}/{} {}: {}",
                left.package_name,
                left.resource_id.as_deref().unwrap_or("-"),
                left.code,
                left.message
            );
        }
    }
    if let Some(writes) = &data.writes {
        let _ = writeln!(
            text,
            "{} written, {} unchanged, {} removed",
            writes.written.len(),
            writes.unchanged.len(),
            writes.removed.len()
        );
        for removed in &writes.removed {
            let _ = writeln!(text, "  removed {removed}");
        }
        if !writes.recovered.is_empty() {
            let _ = writeln!(
                text,
                "an interrupted earlier publish was finished or undone first: {}",
                writes.recovered.join(", ")
            );
        }
    }
    for code in &data.code {
        let _ = writeln!(
            text,
            "binding code {} {}",
            if data.dry_run { "into" } else { "to" },
            code.code_dir
        );
        for file in &code.files {
            let _ = writeln!(text, "  {:>10}  {}", file.bytes, file.name);
        }
        if let Some(writes) = &code.writes {
            let _ = writeln!(
                text,
                "  {} written, {} unchanged, {} removed",
                writes.written.len(),
                writes.unchanged.len(),
                writes.removed.len()
            );
        }
    }
    text
}
