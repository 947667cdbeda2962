//! Publishing: the session's instance computes the files, the host checks where they go,
//! and a second instance whose only preopen is that directory writes them.

use ofgui_contracts::api::PublishProjectInput;
use ofgui_contracts::error::{BackendError, TargetPolicy};
use serde_json::{Value, json};

use super::{Outcome, Service, unhandled};
use crate::backend::bindings::OutputReport;
use crate::backend::runtime::CallError;
use crate::backend::sandbox::{self, OutputRefusal};
use crate::service::envelope::{Data, Failure};

/// Which directory a refusal is about.
#[derive(Clone, Copy)]
enum Target {
    Output,
    Code,
}

/// What a write did to a directory's files, as `PublishWrites`.
fn writes(report: &OutputReport) -> Value {
    json!({
        "written": report.written,
        "unchanged": report.unchanged,
        "removed": report.removed,
        "recovered": report.recovered,
    })
}

impl Service {
    pub(super) async fn publish(&self, input: PublishProjectInput) -> Outcome {
        let text = Data::json_text(&input)?;
        let Some(session) = self.keeper.registry.get(&input.session_id) else {
            return Err(BackendError::session_not_found(&input.session_id).into());
        };
        let reply = self
            .keeper
            .on_session(&session.id, async |_, instance| {
                instance.publish(&text).await
            })
            .await?;
        let revision = reply.status.revision;
        let project = session.directory();
        let requested = input
            .output_dir
            .clone()
            .or_else(|| reply.settings_output_path.clone());
        let Some(requested) = requested else {
            let pass = if self.keeper.config.command_line {
                "pass --out DIR"
            } else {
                "pass outputDir"
            };
            return Err(self.output_refused(
                &format!("The project's settings name no publish path (settings/Publish.json `path`), so there is nowhere to publish to; {pass}."),
                "",
            ));
        };
        // The directories the project's settings name are granted, exactly, only when the
        // person running the command asked for it (`--use-project-paths`).
        let mut roots = self.keeper.config.roots.clone();
        if self.keeper.config.project_publish_paths
            && let Some(project) = &project
        {
            if input.output_dir.is_none() {
                roots.push(sandbox::exact_target(&requested, &project.dir));
            }
            if input.code_dir.is_none() {
                roots.extend(
                    reply
                        .code
                        .iter()
                        .map(|code| sandbox::exact_target(&code.code_dir, &project.dir)),
                );
            }
        }
        let dir = sandbox::resolve_output(
            &requested,
            project.as_ref().map(|p| p.dir.as_path()),
            project.as_ref().map(|p| p.dir.as_path()),
            &roots,
        )
        .map_err(|refusal| self.output_refusal(refusal, &requested, Target::Output))?;

        // Every directory is checked before anything is written.
        let mut code_dirs = Vec::new();
        for code in &reply.code {
            let dir = sandbox::resolve_output(
                &code.code_dir,
                project.as_ref().map(|p| p.dir.as_path()),
                project.as_ref().map(|p| p.dir.as_path()),
                &roots,
            )
            .map_err(|refusal| self.output_refusal(refusal, &code.code_dir, Target::Code))?;
            code_dirs.push(dir);
        }

        if input.dry_run == Some(true) {
            return Ok((Data::text(reply.data, Vec::new())?, Some(revision)));
        }

        // A read-only directory or file is refused before anything is written: root
        // could write there anyway, but read-only is often version control's "not
        // checked out", as for saves.
        let package_files = reply
            .packages
            .iter()
            .flat_map(|p| p.files.iter().map(|f| f.name.as_str()));
        if let Some(entry) = sandbox::read_only_below(&dir, package_files) {
            return Err(self.read_only(&requested, &entry, Target::Output));
        }
        for (code, code_dir) in reply.code.iter().zip(&code_dirs) {
            let paths: Vec<String> = code
                .folders
                .iter()
                .flat_map(|f| {
                    f.files
                        .iter()
                        .map(|file| format!("{}/{}", f.folder, file.name))
                })
                .collect();
            if let Some(entry) =
                sandbox::read_only_below(code_dir, paths.iter().map(String::as_str))
            {
                return Err(self.read_only(&code.code_dir, &entry, Target::Code));
            }
        }

        // One publish at a time writes: two into the same directory must not interleave.
        let _writing = self.publishing.lock().await;
        let created = sandbox::create_within(&dir, &roots).map_err(|error| {
            self.output_refused(
                &format!(
                    "The output directory could not be created ({error}); nothing was published. Pass {} naming a directory that can be created inside the allowed roots.", self.field(Target::Output)
                ),
                &requested,
            )
        })?;
        let runtime = self.keeper.runtime().await.map_err(|error| {
            tracing::error!("backend component unavailable: {error:#}");
            Failure::from(BackendError::unhandled(
                ofgui_contracts::error::UnhandledReason::Internal,
            ))
        })?;
        // The packages stream from the session's instance to the writing one, one at a
        // time: neither holds the whole output, and no call carries more than a package.
        // The session stays locked meanwhile, and each package is asked for at the
        // planned revision, so what is written is what was planned.
        let mut stream_input = input.clone();
        stream_input.expected_revision = Some(revision);
        let stream_text = Data::json_text(&stream_input)?;
        let streamed = match runtime.output_writer(&dir).await {
            Ok(mut writer) => {
                self.keeper
                    .on_session(&session.id, async |_, instance| {
                        let mut report = OutputReport::empty();
                        for planned in &reply.packages {
                            let package = instance
                                .publish_package(&stream_text, &planned.package_name)
                                .await?;
                            // The writer's failure is not the session instance's.
                            match writer
                                .write_package(&session.id, package, &reply.project_packages)
                                .await
                            {
                                Ok(one) => report.absorb(one),
                                Err(error) => return Ok(Err(error)),
                            }
                        }
                        Ok(Ok(report))
                    })
                    .await
            }
            Err(error) => Ok(Err(error)),
        };
        let report = match streamed {
            Ok(Ok(report)) => report,
            Ok(Err(error)) => {
                sandbox::remove_created(&created);
                return Err(match error {
                    CallError::Backend(error) => (*error).into(),
                    other => {
                        tracing::error!(session = %session.id, "output instance failed: {other}");
                        unhandled(&other).into()
                    }
                });
            }
            Err(failure) => {
                sandbox::remove_created(&created);
                return Err(failure);
            }
        };
        let mut code_reports = Vec::new();
        for (code, dir) in reply.code.iter().zip(&code_dirs) {
            let created = sandbox::create_within(dir, &roots).map_err(|error| {
                self.output_refused(
                    &format!(
                        "The code directory could not be created ({error}); the packages were published, the binding code was not. Pass {} naming a directory that can be created inside the allowed roots.", self.field(Target::Code)
                    ),
                    &code.code_dir,
                )
            })?;
            match runtime.write_code(dir, &session.id, &code.folders).await {
                Ok(report) => code_reports.push(report),
                Err(error) => {
                    sandbox::remove_created(&created);
                    return Err(match error {
                        CallError::Backend(error) => (*error).into(),
                        other => {
                            tracing::error!(session = %session.id, "code output instance failed: {other}");
                            unhandled(&other).into()
                        }
                    });
                }
            }
        }

        let mut data: Value =
            serde_json::from_str(&reply.data).map_err(|cause| Failure::internal(&cause))?;
        if let Value::Object(object) = &mut data {
            object.insert("writes".into(), writes(&report));
            if let Some(Value::Array(code)) = object.get_mut("code") {
                for (entry, report) in code.iter_mut().zip(&code_reports) {
                    if let Value::Object(entry) = entry {
                        entry.insert("writes".into(), writes(report));
                    }
                }
            }
        }
        Ok((Data::value(data), Some(revision)))
    }

    fn output_refusal(&self, refusal: OutputRefusal, requested: &str, target: Target) -> Failure {
        let (noun, a_field) = match target {
            Target::Output => ("output directory", "an outputDir"),
            Target::Code => ("code directory", "a codeDir"),
        };
        let field = self.field(target);
        let fix = match (self.keeper.config.command_line, target) {
            (false, _) => format!("Pass {a_field} inside them."),
            (true, Target::Output) => "Pass --out DIR, or --use-project-paths to publish into the directory the project's settings name.".to_owned(),
            (true, Target::Code) => "Pass --code-out DIR, --no-code to publish without binding code, or --use-project-paths to write code where the project's settings say.".to_owned(),
        };
        let why = match refusal {
            OutputRefusal::NotAllowed => format!(
                "The {noun} {requested} is outside the allowed roots ({}); nothing was published. {fix}",
                self.keeper.config.roots_text()
            ),
            OutputRefusal::Symlink => format!(
                "The {noun} is a symbolic link; publishing writes only into a real directory, so nothing was published. Pass the directory the link points to, if it is inside the allowed roots."
            ),
            OutputRefusal::NotADirectory => format!(
                "The {noun} path names a file, not a directory; nothing was published. Pass a directory."
            ),
            OutputRefusal::InsideProjectSources => format!(
                "The {noun} is the project directory or inside its assets or settings; publishing never writes the project's own files, so nothing was published. Pass another {field} (a sibling folder, say)."
            ),
            OutputRefusal::NoBase => format!(
                "This session has no project directory, so a relative {field} means nothing; nothing was published. Pass an absolute {field} inside the allowed roots."
            ),
            OutputRefusal::NotUtf8 => format!(
                "The {noun}'s path is not UTF-8; nothing was published. Pass another {field}."
            ),
        };
        self.output_refused(&why, requested)
    }

    /// How the caller names a directory: the MCP field, or the command line's flag.
    fn field(&self, target: Target) -> &'static str {
        match (self.keeper.config.command_line, target) {
            (false, Target::Output) => "outputDir",
            (false, Target::Code) => "codeDir",
            (true, Target::Output) => "--out DIR",
            (true, Target::Code) => "--code-out DIR",
        }
    }

    fn read_only(&self, requested: &str, entry: &str, target: Target) -> Failure {
        let noun = match target {
            Target::Output => "output directory",
            Target::Code => "code directory",
        };
        let field = self.field(target);
        let what = if entry == "." {
            format!("The {noun} {requested} is read-only on disk")
        } else {
            format!("{entry} in the {noun} {requested} is read-only on disk")
        };
        self.output_refused(
            &format!(
                "{what}; nothing was published. A read-only file or folder is often one that version control has not checked out: ask the user to make it writable, or pass another {field}."
            ),
            requested,
        )
    }

    fn output_refused(&self, message: &str, requested: &str) -> Failure {
        BackendError::PathPolicyViolation {
            message: message.to_owned(),
            policy: TargetPolicy::PublishTarget,
            attempted_path: requested.to_owned(),
            allowed_path: self.keeper.config.roots_text(),
        }
        .into()
    }
}
