//! The command line's contract: its commands, their exit statuses and the JSON document
//! each prints with `--json`.
//!
//! Every `--json` output is one envelope, `{ok: true, command, data}` or `{ok: false,
//! command, error}`, where `error` is the [`BackendError`] an MCP envelope would carry
//! (same stable `code`, same fields). `ok` says whether the command produced its data;
//! the exit status says what it means for a CI job (a `validate` of an invalid project is
//! `ok: true` with status 1). The schemas are generated from these types into the
//! contract snapshot and served at `openfairygui://docs/cli/{command}`.

use serde::{Deserialize, Serialize};

use crate::additions::Additions;
use crate::api::{DiskChanges, GeneratedValues, TransactionPreview};
use crate::envelope::{BackendDiagnostic, False, True};
use crate::error::{BackendError, QueryFailureReason, ReadFailureReason};

/// What a command's exit status says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitStatus {
    /// The command did what it was asked (`validate`: the project is valid).
    Success,
    /// The project said no: it is invalid (`validate`), it refused the batch (`apply`),
    /// or it has no such entity or package (`query`, `outline`).
    Refused,
    /// The command could not run: bad arguments, a target or batch file that is
    /// malformed or not JSON, an unknown document, a project that cannot be opened.
    Unusable,
    /// `validate`: no errors, but some source could not be checked; not a pass.
    /// `publish --allow-missing`: published, but resources whose files could not be read
    /// were left out.
    Incomplete,
    /// `apply --save`: the batch applied but the save was refused or failed; the error
    /// says what, if anything, was written. `publish`: the output could not be written.
    SaveFailed,
    /// The server failed (a backend fault or a budget); not the project's fault.
    Internal,
}

impl ExitStatus {
    /// Every status, in order.
    pub const ALL: [ExitStatus; 6] = [
        Self::Success,
        Self::Refused,
        Self::Unusable,
        Self::Incomplete,
        Self::SaveFailed,
        Self::Internal,
    ];

    /// What the status means, for any command.
    pub fn meaning(self) -> &'static str {
        match self {
            Self::Success => "success (validate: valid)",
            Self::Refused => {
                "the project said no: invalid (validate), the batch refused (apply), no such entity or package (query, outline), output that would be wrong (publish)"
            }
            Self::Unusable => {
                "bad arguments, a malformed target or batch file, an unknown document, or a project that cannot be opened"
            }
            Self::Incomplete => {
                "validate: no errors, but some source could not be checked; publish --allow-missing: published with resources left out"
            }
            Self::SaveFailed => {
                "apply --save: the save was refused or failed; publish: the output could not be written (the previous output is intact)"
            }
            Self::Internal => "the server failed (a backend fault or a budget)",
        }
    }

    /// Every status with its meaning, as the top-level `--help` shows them.
    pub fn help() -> String {
        let mut text = String::from(
            "Exit status of validate, outline, query, apply, render, publish and docs:",
        );
        for status in Self::ALL {
            text.push_str(&format!("\n  {}  {}", status.code(), status.meaning()));
        }
        text
    }

    /// The process exit status.
    pub fn code(self) -> u8 {
        match self {
            Self::Success => 0,
            Self::Refused => 1,
            Self::Unusable => 2,
            Self::Incomplete => 3,
            Self::SaveFailed => 4,
            Self::Internal => 5,
        }
    }

    /// The status a failure ends a command with.
    pub fn for_error(error: &BackendError) -> Self {
        use BackendError as E;
        match error {
            E::TransactionUnsupported(_) | E::SelectorAmbiguity(_) | E::PublishRefused { .. } => {
                Self::Refused
            }
            E::EntityQueryFailed { reason, .. } => match reason {
                QueryFailureReason::NotFound | QueryFailureReason::Ambiguous => Self::Refused,
                QueryFailureReason::InvalidQuery => Self::Unusable,
                QueryFailureReason::ResponseBudgetExceeded | QueryFailureReason::NonJsonValue => {
                    Self::Internal
                }
            },
            E::SessionReadFailed { reason, .. } => match reason {
                ReadFailureReason::NotFound
                | ReadFailureReason::Ambiguous
                | ReadFailureReason::UnsupportedResource => Self::Refused,
                ReadFailureReason::InvalidQuery => Self::Unusable,
                ReadFailureReason::BytesUnavailable
                | ReadFailureReason::ResponseBudgetExceeded
                | ReadFailureReason::NonJsonValue => Self::Internal,
            },
            E::InvalidInput { .. }
            | E::UnknownTool { .. }
            | E::ProjectRootNotAllowed { .. }
            | E::ProjectOpenFailed { .. }
            | E::LockConflict { .. }
            | E::SessionLimitExceeded { .. }
            | E::SessionIdConflict { .. }
            | E::CapabilityUnavailable { .. }
            | E::PathPolicyViolation { .. } => Self::Unusable,
            E::UamFidelityUnsupported { .. }
            | E::SavePartialFailure { .. }
            | E::WriteFailed { .. }
            | E::MaterializeValidationFailed { .. } => Self::SaveFailed,
            // The command line owns its session and its revisions: these mean it is broken.
            E::SessionNotFound { .. }
            | E::StaleRead { .. }
            | E::StaleWrite { .. }
            | E::EventCursorInvalid { .. }
            | E::TransactionPreviewFailed { .. }
            | E::McpResponseBudgetExceeded { .. }
            | E::BackendUnhandledError { .. } => Self::Internal,
        }
    }
}

/// One command of the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CliCommand {
    /// The subcommand (`apply`).
    pub name: &'static str,
    /// One line: what it prints.
    pub title: &'static str,
    /// The backend methods it calls, in order; its failures are theirs.
    pub methods: &'static [&'static str],
    /// Each exit status it may end with, and what that means for this command.
    pub exits: &'static [(ExitStatus, &'static str)],
}

const UNUSABLE_PROJECT: &str =
    "bad arguments, or the project cannot be opened (missing, or not a project)";
const INTERNAL: &str = "the server failed (a backend fault or a budget)";

/// Every command, in the order `--help` lists them.
pub const COMMANDS: &[CliCommand] = &[
    CliCommand {
        name: "validate",
        title: "The project's validation report",
        methods: &["openSession", "validateSession", "closeSession"],
        exits: &[
            (ExitStatus::Success, "valid"),
            (ExitStatus::Refused, "invalid"),
            (ExitStatus::Unusable, UNUSABLE_PROJECT),
            (
                ExitStatus::Incomplete,
                "incomplete: no errors, but some source could not be checked",
            ),
            (ExitStatus::Internal, INTERNAL),
        ],
    },
    CliCommand {
        name: "outline",
        title: "The project's packages, resources and components",
        methods: &["openSession", "getProjectOutline", "closeSession"],
        exits: &[
            (ExitStatus::Success, "the outline was printed"),
            (
                ExitStatus::Refused,
                "the project has no such package or component",
            ),
            (ExitStatus::Unusable, UNUSABLE_PROJECT),
            (ExitStatus::Internal, INTERNAL),
        ],
    },
    CliCommand {
        name: "query",
        title: "One entity's properties",
        methods: &[
            "openSession",
            "getProjectOutline",
            "queryEntity",
            "closeSession",
        ],
        exits: &[
            (ExitStatus::Success, "the entity was printed"),
            (
                ExitStatus::Refused,
                "the project has no such entity, or the name fits several",
            ),
            (
                ExitStatus::Unusable,
                "bad arguments or a malformed target, or the project cannot be opened",
            ),
            (ExitStatus::Internal, INTERNAL),
        ],
    },
    CliCommand {
        name: "apply",
        title: "What a batch of operations changes; with --save, the files it wrote",
        methods: &[
            "openSession",
            "preflightTransaction",
            "applyTransaction",
            "saveSession",
            "closeSession",
        ],
        exits: &[
            (
                ExitStatus::Success,
                "previewed, or (with --save) applied and saved",
            ),
            (
                ExitStatus::Refused,
                "the project's rules refused the batch; nothing changed",
            ),
            (
                ExitStatus::Unusable,
                "bad arguments, a batch file that cannot be read or is not a batch, or the project cannot be opened (with --save: also while a server has it open)",
            ),
            (
                ExitStatus::SaveFailed,
                "the save was refused or failed (the error says what was written)",
            ),
            (ExitStatus::Internal, INTERNAL),
        ],
    },
    CliCommand {
        name: "render",
        title: "A component drawn as a PNG file, and what was approximated",
        methods: &[
            "openSession",
            "getProjectOutline",
            "renderComponent",
            "closeSession",
        ],
        exits: &[
            (ExitStatus::Success, "the picture was written"),
            (
                ExitStatus::Refused,
                "the project has no such component, or the name fits several",
            ),
            (
                ExitStatus::Unusable,
                "bad arguments (an unknown controller or page, a scale out of range, an unwritable output file), or the project cannot be opened",
            ),
            (ExitStatus::Internal, INTERNAL),
        ],
    },
    CliCommand {
        name: "publish",
        title: "The files the game loads, published into the output directory",
        methods: &["openSession", "publishProject", "closeSession"],
        exits: &[
            (
                ExitStatus::Success,
                "the packages were published (or, with --dry-run, listed)",
            ),
            (
                ExitStatus::Refused,
                "the output would be wrong (a missing or unfetched file, an unknown package, a file publishing does not own in the way): nothing was written; each finding is listed",
            ),
            (
                ExitStatus::Unusable,
                "bad arguments, an output directory outside the allowed roots, or the project cannot be opened",
            ),
            (
                ExitStatus::Incomplete,
                "with --allow-missing: published, but the resources listed as left out were not (their files could not be read)",
            ),
            (
                ExitStatus::SaveFailed,
                "the disk refused the output (read-only, full): the previous output is intact",
            ),
            (ExitStatus::Internal, INTERNAL),
        ],
    },
    CliCommand {
        name: "strings",
        title: "Translatable strings: exported as the editor does, converted between XML, CSV and XLSX, a translation checked, or swept for texts that no longer fit",
        methods: &[
            "openSession",
            "exportStrings",
            "checkStrings",
            "sweepStrings",
            "renderComponent",
            "closeSession",
        ],
        exits: &[
            (
                ExitStatus::Success,
                "the strings were written or printed; check: the translation has no findings; sweep: every text still fits",
            ),
            (
                ExitStatus::Refused,
                "check: the translation has findings (missing, untranslated, orphaned, changed, markup, duplicate); sweep: some text no longer fits",
            ),
            (
                ExitStatus::Unusable,
                "bad arguments, a strings file that is not one (its line named; nothing written), or the project cannot be opened",
            ),
            (ExitStatus::Internal, INTERNAL),
        ],
    },
    CliCommand {
        name: "docs",
        title: "The installed documentation: the index or one document",
        methods: &[],
        exits: &[
            (ExitStatus::Success, "the document was printed"),
            (ExitStatus::Unusable, "no document has that id"),
            (ExitStatus::Internal, INTERNAL),
        ],
    },
];

impl CliCommand {
    /// The URI of the schema of this command's `--json` output.
    pub fn docs_uri(&self) -> String {
        docs_uri(self.name)
    }

    /// The exit statuses as `--help` shows them.
    pub fn exit_help(&self) -> String {
        let mut text = String::from("Exit status:");
        for (status, meaning) in self.exits {
            text.push_str(&format!("\n  {}  {meaning}", status.code()));
        }
        text
    }
}

/// The command named `name`.
pub fn by_name(name: &str) -> Option<&'static CliCommand> {
    COMMANDS.iter().find(|command| command.name == name)
}

/// The URI of the schema of a command's `--json` output.
pub fn docs_uri(command: &str) -> String {
    format!("openfairygui://docs/cli/{command}")
}

/// `--json` output of a command that produced its data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CliSuccess<T> {
    pub ok: True,
    /// The subcommand that ran.
    pub command: String,
    pub data: T,
    /// What ofgui tells beyond upstream's result, as a tool result carries it in
    /// `_meta["ofgui/additions"]` (`outline`: `projectTypeName`).
    #[serde(default, skip_serializing_if = "Additions::is_empty")]
    pub additions: Additions,
}

/// `--json` output of a command that failed: the failure as the MCP envelope carries it
/// (a stable `code`, a `message` and the code's own fields; its guide is
/// `ofgui-mcp-host docs diagnostics/<code>`). There is never a `data` key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CliFailure {
    pub ok: False,
    /// The subcommand that ran.
    pub command: String,
    // Undocumented on purpose: a described `$ref` becomes an `allOf` the generator
    // would have to see through to narrow the codes.
    pub error: BackendError,
    /// The findings behind the failure, one per problem, as `meta.diagnostics` carries
    /// them (`publish`'s refusal: each missing file, each file it does not own). Absent
    /// when the error is the only one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<BackendDiagnostic>,
}

/// `apply` output: the preview, or what the save wrote.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    tag = "mode",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum ApplyData {
    /// Without `--save`: the batch ran on a copy at revision 0 and nothing was written.
    Preview {
        /// The preflight of the batch: the entities it changes and the files a save
        /// would touch.
        preview: TransactionPreview,
        /// What the server would fill in for fields the operations left out.
        generated: Vec<GeneratedValues>,
    },
    /// With `--save`: the batch applied at revision 0 and the project was saved.
    Saved {
        /// The revision saved (1).
        revision: u64,
        /// What the server filled in for fields the operations left out.
        generated: Vec<GeneratedValues>,
        /// What the save changed on disk.
        disk: DiskChanges,
    },
}

/// `docs` output: one installed document, with the text its resource serves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DocumentData {
    /// The document's id in the index (`index` for the index itself).
    pub id: String,
    pub title: String,
    /// The MCP resource that serves the same text.
    pub uri: String,
    /// `application/json` or `text/markdown`.
    pub mime_type: String,
    pub text: String,
}

/// `strings` output: what `export` or `convert` wrote or printed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StringsData {
    /// The entries written or printed.
    pub count: u32,
    /// `xml`, `csv` or `xlsx`.
    pub format: String,
    /// The file written; absent when the XML was printed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub written: Option<String>,
    /// `convert`: the file read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// `export`: component files left out because their XML could not be read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<String>,
    /// `check`: the project's texts the file was held against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked: Option<u32>,
    /// `check`: what is wrong with the translation, in the project's order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<crate::api::StringsFinding>,
    /// `sweep`: the components swept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swept: Option<u32>,
    /// `sweep`: per component, the texts the translation no longer fits.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub troubles: Vec<crate::api::SweepComponent>,
    /// `sweep --pictures`: the pictures written, one per component with troubles.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pictures: Vec<String>,
    /// `export --merge`: what became of the file's rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged: Option<StringsMerge>,
}

/// What `strings export --merge` did with the existing file: rows kept with their
/// translation, new keys added empty, rows whose source changed (kept, marked) and keys
/// the project no longer has (kept at the end, marked).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StringsMerge {
    pub kept: u32,
    pub added: u32,
    pub changed: u32,
    pub orphaned: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_code_has_an_exit_status_of_its_command() {
        for error in crate::error::examples() {
            let status = ExitStatus::for_error(&error);
            assert_ne!(status, ExitStatus::Success, "{}", error.code());
            assert_ne!(status, ExitStatus::Incomplete, "{}", error.code());
        }
        let refused = crate::error::examples()
            .into_iter()
            .find(|error| error.code().as_str() == "transaction_unsupported")
            .unwrap();
        assert_eq!(ExitStatus::for_error(&refused).code(), 1);
    }

    #[test]
    fn commands_are_unique_and_document_their_statuses() {
        for (index, command) in COMMANDS.iter().enumerate() {
            assert_eq!(by_name(command.name), Some(command));
            assert!(COMMANDS[..index].iter().all(|c| c.name != command.name));
            assert_eq!(command.exits[0].0, ExitStatus::Success);
            for method in command.methods {
                assert!(crate::methods::by_name(method).is_some(), "{method}");
            }
        }
        assert!(
            by_name("validate")
                .unwrap()
                .exit_help()
                .contains("\n  3  incomplete")
        );
    }
}

/// What the MCP names a message may point to mean on the command line: a failure the
/// command line prints adds the command for each one its messages mention, so a person
/// is not sent to a method they cannot call.
pub const MCP_TERMS: &[(&[&str], &str)] = &[
    (
        &[
            "getProjectOutline",
            "openfairygui_backend_get_project_outline",
        ],
        "`ofgui-mcp-host outline <project>` (`--packages-only` lists the packages)",
    ),
    (
        &["queryEntity", "openfairygui_backend_query_entity"],
        "`ofgui-mcp-host query <project> <target>`",
    ),
    (
        &["validateSession", "openfairygui_backend_validate_session"],
        "`ofgui-mcp-host validate <project>`",
    ),
    (
        &[
            "preflightTransaction",
            "openfairygui_backend_preflight_transaction",
        ],
        "`ofgui-mcp-host apply <project> <batch>` (a preview)",
    ),
    (
        &[
            "applyTransaction",
            "openfairygui_backend_apply_transaction",
            "saveSession",
            "openfairygui_backend_save_session",
        ],
        "`ofgui-mcp-host apply <project> <batch> --save`",
    ),
    (
        &["renderComponent", "openfairygui_render_component"],
        "`ofgui-mcp-host render <project> <package>/<component>`",
    ),
    (
        &["publishProject", "openfairygui_publish"],
        "`ofgui-mcp-host publish <project>`",
    ),
];

/// The MCP names `text` mentions (as whole words) with their command-line commands, in
/// [`MCP_TERMS`] order, each command once.
pub fn in_command_line_terms(text: &str) -> Vec<(&'static str, &'static str)> {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mentions = |name: &str| {
        text.match_indices(name).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + name.len()..].chars().next();
            !before.is_some_and(word) && !after.is_some_and(word)
        })
    };
    MCP_TERMS
        .iter()
        .filter_map(|(names, command)| {
            names
                .iter()
                .find(|name| mentions(name))
                .map(|name| (*name, *command))
        })
        .collect()
}

#[cfg(test)]
mod terms_tests {
    use super::in_command_line_terms;

    #[test]
    fn mcp_names_are_found_as_whole_words() {
        assert_eq!(
            in_command_line_terms(
                "Take ids from getProjectOutline, then call openfairygui_backend_save_session."
            ),
            [
                (
                    "getProjectOutline",
                    "`ofgui-mcp-host outline <project>` (`--packages-only` lists the packages)"
                ),
                (
                    "openfairygui_backend_save_session",
                    "`ofgui-mcp-host apply <project> <batch> --save`"
                ),
            ]
        );
        assert!(in_command_line_terms("getProjectOutlines and xqueryEntity").is_empty());
    }
}
