//! The command line beside the server, for people and CI jobs: `validate`, `outline`,
//! `query`, `apply`, `render`, `publish` and `docs`.
//!
//! A command opens its project through the same [`Service`] as the MCP server (input
//! budget, path policy, sandboxed component), with the project's own directory as the
//! only allowed root, and closes it before it ends. It only turns arguments into method
//! inputs and results into text: the project's logic stays in the component. With
//! `--json` it prints one envelope ([`ofgui_contracts::cli`]); the exit status follows
//! [`ExitStatus`].

mod apply;
pub mod args;
mod docs;
mod names;
mod outline;
mod publish;
mod query;
mod render;
pub mod strings;
mod validate;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use ofgui_contracts::additions::Additions;
use ofgui_contracts::cli::{CliCommand, CliFailure, CliSuccess, ExitStatus};
use ofgui_contracts::envelope::{BackendDiagnostic, False, True};
use ofgui_contracts::error::{BackendError, OpenFailureReason, UnhandledReason};
use ofgui_contracts::methods::MethodId;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::policy::input;
use crate::service::Service;
use args::{Args, Command, StringsAction};

/// What a command produced.
pub(crate) struct Done {
    /// The `data` of the `--json` envelope.
    data: Value,
    /// What people read instead.
    text: String,
    status: ExitStatus,
    /// The `additions` of the `--json` envelope.
    additions: Additions,
}

impl Done {
    fn new(data: &impl Serialize, text: String, status: ExitStatus) -> Result<Done, BackendError> {
        let data = serde_json::to_value(data).map_err(|error| internal(&error))?;
        Ok(Done {
            data,
            text,
            status,
            additions: Additions::default(),
        })
    }

    fn with_additions(mut self, additions: Additions) -> Self {
        self.additions = additions;
        self
    }
}

/// A command's failure: the error and the findings behind it (`meta.diagnostics` of the
/// call that failed), so that a person sees every one.
pub struct Failed {
    pub error: BackendError,
    pub diagnostics: Vec<BackendDiagnostic>,
}

impl From<BackendError> for Failed {
    fn from(error: BackendError) -> Self {
        Failed {
            error,
            diagnostics: Vec::new(),
        }
    }
}

/// Runs a command line command and prints its result: text, or with `--json` the
/// envelope, on stdout; on failure a short account on stderr (also with `--json`, for
/// the CI log). Returns the exit status.
pub async fn run(args: &Args, command: &Command, cli: &'static CliCommand) -> ExitCode {
    let (json, result): (bool, Result<Done, Failed>) = match command {
        Command::Validate { project, output } => (
            output.json,
            validate::run(args, project).await.map_err(Failed::from),
        ),
        Command::Outline {
            project,
            packages,
            component,
            packages_only,
            output,
        } => {
            let scope = outline::Scope {
                packages,
                component: component.as_deref(),
                packages_only: *packages_only,
            };
            (
                output.json,
                outline::run(args, project, scope)
                    .await
                    .map_err(Failed::from),
            )
        }
        Command::Query {
            project,
            target,
            output,
        } => (
            output.json,
            query::run(args, project, target)
                .await
                .map_err(Failed::from),
        ),
        Command::Apply {
            project,
            batch,
            save,
            output,
        } => (
            output.json,
            apply::run(args, project, batch, *save)
                .await
                .map_err(Failed::from),
        ),
        Command::Render {
            project,
            component,
            out,
            pages,
            scale,
            background,
            strings,
            compare_strings,
            output,
        } => {
            let picture = render::Picture {
                component,
                out,
                pages,
                scale: *scale,
                background: background.as_deref(),
                strings: strings.as_deref(),
                compare_strings: *compare_strings,
            };
            (
                output.json,
                render::run(args, project, picture)
                    .await
                    .map_err(Failed::from),
            )
        }
        Command::Publish {
            project,
            out,
            code_out,
            packages,
            dry_run,
            branch,
            use_project_paths,
            no_code,
            allow_missing,
            output,
        } => {
            let request = publish::Request {
                out: out.as_deref(),
                code_out: code_out.as_deref(),
                packages,
                dry_run: *dry_run,
                branch: branch.as_deref(),
                use_project_paths: *use_project_paths,
                no_code: *no_code,
                allow_missing: *allow_missing,
            };
            (output.json, publish::run(args, project, request).await)
        }
        Command::Docs { id, output } => {
            (output.json, docs::run(id.as_deref()).map_err(Failed::from))
        }
        Command::Strings { action } => match action {
            StringsAction::Export {
                project,
                out,
                format,
                merge,
                overwrite,
                output,
            } => (
                output.json,
                strings::export(
                    args,
                    project,
                    out.as_deref(),
                    *format,
                    match (merge, overwrite) {
                        (true, _) => strings::Existing::Merge,
                        (false, true) => strings::Existing::Overwrite,
                        (false, false) => strings::Existing::Refuse,
                    },
                )
                .await
                .map_err(Failed::from),
            ),
            StringsAction::Check {
                project,
                file,
                output,
            } => (
                output.json,
                strings::check(args, project, file)
                    .await
                    .map_err(Failed::from),
            ),
            StringsAction::Sweep {
                project,
                file,
                pictures,
                output,
            } => (
                output.json,
                strings::sweep(args, project, file, pictures.as_deref())
                    .await
                    .map_err(Failed::from),
            ),
            StringsAction::Convert { input, out, output } => (
                output.json,
                strings::convert(input, out).map_err(Failed::from),
            ),
        },
        Command::Serve { .. } | Command::Precompile | Command::Review { .. } => {
            unreachable!("{} is not a command line command", cli.name)
        }
    };
    match result {
        Ok(done) => {
            if json {
                print_json(&CliSuccess {
                    ok: True,
                    command: cli.name.to_string(),
                    data: done.data,
                    additions: done.additions,
                });
            } else {
                print!("{}", done.text);
            }
            ExitCode::from(done.status.code())
        }
        Err(error) => fail(cli, json, error),
    }
}

/// Reports a failure: the envelope on stdout with `--json`, the account on stderr.
pub fn fail(cli: &CliCommand, json: bool, failed: impl Into<Failed>) -> ExitCode {
    let Failed { error, diagnostics } = failed.into();
    let status = ExitStatus::for_error(&error);
    eprint!("{}", failure_text(cli, &error, &diagnostics));
    if json {
        print_json(&CliFailure {
            ok: False,
            command: cli.name.to_string(),
            error,
            diagnostics,
        });
    }
    ExitCode::from(status.code())
}

fn print_json(value: &impl Serialize) {
    match serde_json::to_string_pretty(value) {
        Ok(text) => println!("{text}"),
        // The envelope holds only JSON values: this cannot happen, but must not be silent.
        Err(error) => eprintln!("ofgui-mcp-host: the result cannot be printed: {error}"),
    }
}

/// A failure for people: the code and message, the code's own fields (one issue or
/// finding per line), and where its guide is.
fn failure_text(
    cli: &CliCommand,
    error: &BackendError,
    diagnostics: &[BackendDiagnostic],
) -> String {
    let code = error.code();
    let mut text = format!("ofgui-mcp-host {}: {code}: {}\n", cli.name, error.message());
    let mut fields = match serde_json::to_value(error) {
        Ok(Value::Object(fields)) => fields,
        _ => Default::default(),
    };
    // The session was the command's own and is gone: its id tells people nothing.
    for key in ["code", "message", "sessionId"] {
        fields.remove(key);
    }
    let issues = fields.remove("issues");
    for (key, value) in &fields {
        let _ = writeln!(text, "  {key}: {}", compact(value));
    }
    for issue in issues
        .as_ref()
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let field = |key: &str| issue[key].as_str().unwrap_or_default().to_string();
        let _ = writeln!(
            text,
            "  {}: {}: {}",
            field("path"),
            field("code"),
            field("message")
        );
    }
    // The error itself is mirrored as a diagnostic where nothing richer was found.
    for finding in diagnostics.iter().filter(|d| d.code != code.as_str()) {
        let _ = writeln!(
            text,
            "  {}: {}: {}",
            finding.path.as_deref().unwrap_or("-"),
            finding.code,
            finding.message
        );
    }
    // The messages speak MCP (they are the server's); say what their names are here.
    let terms: Vec<String> = ofgui_contracts::cli::in_command_line_terms(&text)
        .into_iter()
        .map(|(name, command)| format!("{name} is {command}"))
        .collect();
    if !terms.is_empty() {
        let _ = writeln!(text, "  on the command line: {}", terms.join("; "));
    }
    let _ = writeln!(text, "  guide: ofgui-mcp-host docs diagnostics/{code}");
    text
}

/// A JSON value on one line; strings without quotes.
fn compact(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// A failure of the host itself; the cause goes to the log, as for a tool call.
fn internal(cause: &dyn std::fmt::Display) -> BackendError {
    tracing::error!("command line failure: {cause}");
    BackendError::unhandled(UnhandledReason::Internal)
}

/// One open project: its session in a service of its own.
pub(crate) struct Project {
    service: Arc<Service>,
    session_id: String,
    /// The path as given, for messages.
    shown: PathBuf,
}

impl Project {
    /// Opens the project, runs `body` on it and closes it, whatever `body` returned.
    pub(crate) async fn with<T>(
        args: &Args,
        path: &Path,
        body: impl AsyncFnOnce(&Project) -> Result<T, BackendError>,
    ) -> Result<T, BackendError> {
        let project = Project::open(args, path, Vec::new(), false, false).await?;
        project.run(body).await
    }

    /// [`Project::with`] for a command that only reads the project (validate, outline,
    /// query, render, an apply's preview): opened without its lock, so a server editing
    /// the project does not stop it; it sees the project as saved on disk.
    pub(crate) async fn reading<T>(
        args: &Args,
        path: &Path,
        body: impl AsyncFnOnce(&Project) -> Result<T, BackendError>,
    ) -> Result<T, BackendError> {
        Project::reading_with(args, path, Vec::new(), body).await
    }

    /// [`Project::reading`], its session also granted `extra_roots` to read (a strings
    /// file the command names).
    pub(crate) async fn reading_with<T>(
        args: &Args,
        path: &Path,
        extra_roots: Vec<PathBuf>,
        body: impl AsyncFnOnce(&Project) -> Result<T, BackendError>,
    ) -> Result<T, BackendError> {
        let project = Project::open(args, path, extra_roots, true, false).await?;
        project.run(body).await
    }

    /// [`Project::with`] for publishing: the call may write inside `extra_roots` (the
    /// output directory) and, with `project_paths`, into the directories the project's
    /// settings name; the project, which publishing only reads, is opened without its
    /// lock, so a server editing it does not stop a CI job from publishing.
    pub(crate) async fn for_publishing<T>(
        args: &Args,
        path: &Path,
        extra_roots: Vec<PathBuf>,
        project_paths: bool,
        body: impl AsyncFnOnce(&Project) -> Result<T, Failed>,
    ) -> Result<T, Failed> {
        let project = Project::open(args, path, extra_roots, true, project_paths).await?;
        project.run(body).await
    }

    /// Runs `body` on the open project and closes it, whatever `body` returned.
    async fn run<T, E>(self, body: impl AsyncFnOnce(&Project) -> Result<T, E>) -> Result<T, E> {
        let project = self;
        let result = body(&project).await;
        if let Err(error) = project
            .call::<Value>(
                MethodId::CloseSession,
                json!({ "sessionId": project.session_id }),
            )
            .await
        {
            tracing::warn!("closing the session failed: {}", error.message());
        }
        result
    }

    async fn open(
        args: &Args,
        path: &Path,
        extra_roots: Vec<PathBuf>,
        read_only: bool,
        project_paths: bool,
    ) -> Result<Project, BackendError> {
        // The project's own directory is the only root: a command can open nothing else.
        let canonical =
            std::fs::canonicalize(path).map_err(|error| BackendError::ProjectOpenFailed {
                message: format!("{}: {error}", path.display()),
                reason: OpenFailureReason::ProjectNotFound,
                project_path: path.display().to_string(),
            })?;
        let root = match canonical.is_dir() {
            true => canonical.clone(),
            false => canonical
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_else(|| canonical.clone()),
        };
        let mut roots = vec![root];
        roots.extend(extra_roots);
        if let Some(missing) = args.font_dirs.iter().find(|dir| !dir.is_dir()) {
            return Err(BackendError::invalid_input(
                format!("--font-dir {} is not a directory.", missing.display()),
                Some("--font-dir".into()),
            ));
        }
        let mut config = args.project_config(roots);
        config.read_only = read_only;
        config.project_publish_paths = project_paths;
        let service = Service::new(config);
        let opened: Value = call(
            &service,
            MethodId::OpenSession,
            json!({ "projectPath": canonical }),
        )
        .await
        .map_err(|failed| failed.error)?
        .data;
        let session_id = opened["sessionId"]
            .as_str()
            .ok_or_else(|| internal(&"openSession answered without a sessionId"))?
            .to_string();
        Ok(Project {
            service,
            session_id,
            shown: path.to_path_buf(),
        })
    }

    pub(crate) fn session_id(&self) -> &str {
        &self.session_id
    }

    /// The project's path as the user gave it.
    pub(crate) fn shown(&self) -> std::path::Display<'_> {
        self.shown.display()
    }

    /// Calls a method on this project's service; `input` names the session itself.
    pub(crate) async fn call<T: DeserializeOwned>(
        &self,
        method: MethodId,
        input: Value,
    ) -> Result<T, BackendError> {
        call(&self.service, method, input)
            .await
            .map(|answer| answer.data)
            .map_err(|failed| failed.error)
    }

    /// [`Project::call`] whose failure keeps its findings (`meta.diagnostics`).
    pub(crate) async fn call_with_findings<T: DeserializeOwned>(
        &self,
        method: MethodId,
        input: Value,
    ) -> Result<T, Failed> {
        call(&self.service, method, input)
            .await
            .map(|answer| answer.data)
    }

    /// [`Project::call`] with what the result tells beyond upstream's contract.
    pub(crate) async fn call_with_additions<T: DeserializeOwned>(
        &self,
        method: MethodId,
        input: Value,
    ) -> Result<(T, Additions), BackendError> {
        call(&self.service, method, input)
            .await
            .map(|answer| (answer.data, answer.additions))
            .map_err(|failed| failed.error)
    }

    /// [`Project::call`] for a method that answers with a picture too.
    pub(crate) async fn call_picture<T: DeserializeOwned>(
        &self,
        method: MethodId,
        input: Value,
    ) -> Result<(T, Vec<u8>), BackendError> {
        let answer = call(&self.service, method, input)
            .await
            .map_err(|failed| failed.error)?;
        let image = answer
            .image
            .ok_or_else(|| internal(&format!("{} answered without a picture", method.name())))?;
        Ok((answer.data, image))
    }
}

/// A method's successful result as the command line uses it.
struct Answer<T> {
    data: T,
    additions: Additions,
    image: Option<Vec<u8>>,
}

/// Calls a method as a tool call would run it (input budget, then the service) and
/// returns its result, or its failure as the envelope carries it.
async fn call<T: DeserializeOwned>(
    service: &Service,
    method: MethodId,
    input: Value,
) -> Result<Answer<T>, Failed> {
    let name = method.name();
    let method = method.method();
    input::check(method, &input)?;
    let reply = service.call(method, input).await;
    let additions = reply.envelope.additions.clone();
    let mut envelope = reply
        .envelope
        .into_value()
        .map_err(|error| internal(&format!("{name}: unreadable result ({error})")))?;
    if reply.is_error {
        let error = serde_json::from_value(envelope["error"].take())
            .map_err(|error| internal(&format!("{name}: unreadable error ({error})")))?;
        let diagnostics =
            serde_json::from_value(envelope["meta"]["diagnostics"].take()).unwrap_or_default();
        return Err(Failed { error, diagnostics });
    }
    let data = serde_json::from_value(envelope["data"].take())
        .map_err(|error| internal(&format!("{name}: data off contract ({error})")))?;
    Ok(Answer {
        data,
        additions,
        image: reply.image,
    })
}
