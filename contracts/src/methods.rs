//! The method catalog: each backend method, its MCP tool and what it may fail with.
//!
//! Only methods this server really serves are listed; the tool list, the capability
//! snapshot and the generated schemas all come from this one table.

use serde::{Deserialize, Serialize};

/// What the MCP layer itself may answer any tool with, and when.
pub const MCP_FAILURES: &[Fails] = &[
    Fails::new(
        "invalid_input",
        "an argument does not fit the input schema: error.path names the field",
    ),
    Fails::new(
        "backend_unhandled_error",
        "reason trap, deadline or out_of_memory: the session was restored as the message says, re-read before retrying",
    ),
];

/// A code a method may fail with, and briefly when (and what to do); `when` may be
/// empty where the code's guide says it all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fails {
    pub code: &'static str,
    pub when: &'static str,
}

impl Fails {
    pub const fn new(code: &'static str, when: &'static str) -> Fails {
        Fails { code, when }
    }
}

/// A method's identity: what dispatch, host policies, completions and the command line
/// match on, so no host spells a method or tool name. [`MethodId::method`] gives its row
/// of [`METHODS`].
/// The review view's resource: a page for people, shown by clients with MCP Apps.
pub const REVIEW_VIEW: &str = "ui://openfairygui/review";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MethodId {
    GetCapabilities,
    OpenSession,
    OpenProjectSession,
    GetSession,
    GetProjectOutline,
    QueryEntity,
    ReadSessionState,
    SearchProject,
    ReadResourceBytes,
    RenderComponent,
    ValidateSession,
    PreflightTransaction,
    ApplyTransaction,
    Undo,
    Redo,
    GetHistory,
    Review,
    ExportStrings,
    CheckStrings,
    SweepStrings,
    RefreshSession,
    SaveSession,
    MaterializeSession,
    Publish,
    CloseSession,
    GetEvents,
    GetCacheSnapshot,
    RefreshCache,
}

impl MethodId {
    /// The method's row of the table.
    pub fn method(self) -> &'static Method {
        // Every id has exactly one row (the `every_id_has_one_row` test).
        METHODS
            .iter()
            .find(|method| method.id == self)
            .unwrap_or(&METHODS[0])
    }

    /// The view (an MCP Apps `ui://` resource) a client shows with the tool's result.
    pub fn view(self) -> Option<&'static str> {
        match self {
            MethodId::Review => Some(REVIEW_VIEW),
            _ => None,
        }
    }

    /// The backend method name (`getProjectOutline`).
    pub fn name(self) -> &'static str {
        self.method().name
    }

    /// The MCP tool name (`openfairygui_backend_get_project_outline`).
    pub fn tool(self) -> &'static str {
        self.method().tool
    }
}

/// What a call of a method may change, for host policies that gate by effect (a read-only
/// token, a person confirming writes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Changes nothing a client could later read back (reads, previews, polls).
    Reads,
    /// Opens or closes a session, or rebuilds its cache entry; the model and disk stay.
    Sessions,
    /// Changes a session's model (not the disk).
    Edits,
    /// Writes the project on disk.
    Writes,
}

impl Effect {
    /// Whether a call changes a session's model or the disk.
    pub fn changes_project(self) -> bool {
        matches!(self, Effect::Edits | Effect::Writes)
    }
}

/// Which plane of the backend answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Stage {
    Read,
    Authoring,
    Runtime,
}

/// The one rule a tool's name follows from its method's: `openfairygui_`, then
/// `backend_` for the backend's session methods, then the method in snake case (or its
/// verb alone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolNaming {
    /// `openfairygui_backend_<method>`: upstream's methods, and ours in their style
    /// (`searchProject`).
    Backend,
    /// `openfairygui_<method>`: what upstream's backend has nothing like (previews,
    /// history, refresh).
    Ours,
    /// `openfairygui_<verb>`: the method's first word (`publishProject` is
    /// `openfairygui_publish`).
    Verb,
}

impl ToolNaming {
    /// The tool name this rule gives `method` (`getProjectOutline`).
    pub fn tool_for(self, method: &str) -> String {
        let snake = snake_case(method);
        match self {
            ToolNaming::Backend => format!("openfairygui_backend_{snake}"),
            ToolNaming::Ours => format!("openfairygui_{snake}"),
            ToolNaming::Verb => {
                let verb = snake.split('_').next().unwrap_or_default();
                format!("openfairygui_{verb}")
            }
        }
    }
}

/// `getProjectOutline` (or `GetProjectOutline`) as `get_project_outline`.
pub fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for ch in name.chars() {
        if ch.is_ascii_uppercase() {
            if !out.is_empty() {
                out.push('_');
            }
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

/// One method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Method {
    pub id: MethodId,
    /// The backend method name (`getProjectOutline`).
    pub name: &'static str,
    /// The MCP tool name (`openfairygui_backend_get_project_outline`).
    pub tool: &'static str,
    pub title: &'static str,
    /// What it does and what it needs; the tool's description adds what it may fail on
    /// ([`Method::tool_description`]).
    pub description: &'static str,
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub effect: Effect,
    /// One of upstream's 17 backend methods (`getCapabilities` lists only these, in table
    /// order, since upstream's schema allows exactly them); false for ofgui's additions.
    pub upstream: bool,
    /// How `tool` follows from `name` (every row is held to it).
    pub naming: ToolNaming,
    pub stage: Stage,
    /// Cap on the complete serialized tool result, when the result can be large.
    pub max_response_bytes: Option<u64>,
    /// Backend error codes this method can return, with when (the MCP layer's own,
    /// [`MCP_FAILURES`], come with every tool).
    pub errors: &'static [Fails],
    /// Where the input carries file bytes, as dotted paths with `*` for any array index
    /// (`operations.*.sourceBytes`). Only there do arrays count as bytes in the input
    /// budget (up to 8 MiB per request) and may strings hold base64.
    pub byte_paths: &'static [&'static str],
}

/// Byte fields of a transaction: replaced bytes, an added resource, an added package.
const TRANSACTION_BYTE_PATHS: &[&str] = &[
    "operations.*.sourceBytes",
    "operations.*.resource.sourceBytes",
    "operations.*.package.resources.*.sourceBytes",
];

/// The same byte fields inside a render's preview batch.
const PREVIEW_BYTE_PATHS: &[&str] = &[
    "previewOperations.*.sourceBytes",
    "previewOperations.*.resource.sourceBytes",
    "previewOperations.*.package.resources.*.sourceBytes",
];

const RESPONSE_CAP: Option<u64> = Some(16_777_216);

/// Every method this server serves, in tool order: upstream's order, with our
/// `searchProject` (no upstream counterpart) after `readSessionState`, the other
/// whole-model read it narrows.
pub const METHODS: &[Method] = &[
    Method {
        id: MethodId::GetCapabilities,
        name: "getCapabilities",
        tool: "openfairygui_backend_get_capabilities",
        title: "Get Backend Capabilities",
        description: "Returns what this backend can do: contract versions, the methods it serves in tool order, read limits, the supported resource, node and gear kinds, the sandbox and session policy, and the cache. Needs nothing: call it first.",
        read_only: true,
        destructive: false,
        idempotent: true,
        effect: Effect::Reads,
        upstream: true,
        naming: ToolNaming::Backend,
        stage: Stage::Read,
        max_response_bytes: None,
        errors: &[],
        byte_paths: &[],
    },
    Method {
        id: MethodId::OpenSession,
        name: "openSession",
        tool: "openfairygui_backend_open_session",
        title: "Open Backend Session",
        description: "Opens a FairyGUI project (its directory or its .fairy file) in a sandboxed session and returns the session at revision 0 with its sessionId; one session per project at a time. Needs a projectPath inside the server's allowed project roots (a relative path resolves against the first root) that no other session or server has open.",
        read_only: false,
        destructive: false,
        idempotent: false,
        effect: Effect::Sessions,
        upstream: true,
        naming: ToolNaming::Backend,
        stage: Stage::Runtime,
        max_response_bytes: None,
        errors: &[
            Fails::new(
                "project_root_not_allowed",
                "projectPath is outside the allowed roots",
            ),
            Fails::new(
                "project_open_failed",
                "reason says why, e.g. multiple_project_files: open the .fairy file itself",
            ),
            Fails::new(
                "lock_conflict",
                "this server has it open: use or close that session (another program's lock only makes it read-only)",
            ),
            Fails::new("session_limit_exceeded", "close a session first"),
        ],
        byte_paths: &[],
    },
    Method {
        id: MethodId::OpenProjectSession,
        name: "openProjectSession",
        tool: "openfairygui_backend_open_project_session",
        title: "Open Project Session",
        description: "Opens a session over a project given as a document: the whole UAM (as readSessionState returns it) with each asset's bytes in sourceBytes (integers 0..255 or base64; 8 MiB in all). The session has no file access (canonicalProjectPath memory://<sessionId> unless given); materializeSession with targetPath writes it into a new directory inside the allowed roots, where it then saves. Needs a complete document: invalid_input names the field.",
        read_only: false,
        destructive: false,
        idempotent: false,
        effect: Effect::Sessions,
        upstream: true,
        naming: ToolNaming::Backend,
        stage: Stage::Runtime,
        max_response_bytes: None,
        errors: &[
            Fails::new(
                "session_id_conflict",
                "choose another sessionId, or leave it out",
            ),
            Fails::new(
                "lock_conflict",
                "kind in_process_session_exists: canonicalPathKey is open in another session",
            ),
            Fails::new("session_limit_exceeded", "close a session first"),
        ],
        byte_paths: &["project.packages.*.resources.*.sourceBytes"],
    },
    Method {
        id: MethodId::GetSession,
        name: "getSession",
        tool: "openfairygui_backend_get_session",
        title: "Get Backend Session",
        description: "Returns the session's current revision, last saved revision, dirty flag, fidelity and lock state. Needs an open session (sessionId from open_session).",
        read_only: true,
        destructive: false,
        idempotent: true,
        effect: Effect::Reads,
        upstream: true,
        naming: ToolNaming::Backend,
        stage: Stage::Read,
        max_response_bytes: None,
        errors: &[Fails::new(
            "session_not_found",
            "never opened, closed, or closed after idling clean: open the project again",
        )],
        byte_paths: &[],
    },
    Method {
        id: MethodId::GetProjectOutline,
        name: "getProjectOutline",
        tool: "openfairygui_backend_get_project_outline",
        title: "Get Project Outline",
        description: "Returns the project's structure: packages, folders, resources (id, name, path, kind, branch) and for components their display nodes, controller pages and transitions; no properties or bytes (query entities for those). Without page.limit an answer holds the whole packages that fit in about 56 KiB; when more follow, the warning answer_paged gives the cursor for page.cursor. detail: packages lists every package at once; scope.packageIds or scope.component narrow it. Needs an open session.",
        read_only: true,
        destructive: false,
        idempotent: true,
        effect: Effect::Reads,
        upstream: true,
        naming: ToolNaming::Backend,
        stage: Stage::Read,
        max_response_bytes: RESPONSE_CAP,
        errors: &[
            Fails::new("session_not_found", ""),
            Fails::new(
                "session_read_failed",
                "reason not_found, ambiguous or unsupported_resource: the scope names nothing usable",
            ),
            Fails::new(
                "stale_read",
                "a page cursor from an earlier revision: start again without it",
            ),
            Fails::new(
                "mcp_response_budget_exceeded",
                "over 16 MiB with a large page.limit: ask fewer packages",
            ),
        ],
        byte_paths: &[],
    },
    Method {
        id: MethodId::QueryEntity,
        name: "queryEntity",
        tool: "openfairygui_backend_query_entity",
        title: "Query Entity Properties",
        description: "Returns the properties of one entity: the project, a package, a resource, a component, a display node, a controller or a transition. Needs an open session and ids (or the names the outline shows) from the outline, search or an earlier query; controllers, transitions and settings come as complete snapshots to edit and send back whole.",
        read_only: true,
        destructive: false,
        idempotent: true,
        effect: Effect::Reads,
        upstream: true,
        naming: ToolNaming::Backend,
        stage: Stage::Read,
        max_response_bytes: None,
        errors: &[
            Fails::new("session_not_found", ""),
            Fails::new(
                "entity_query_failed",
                "reason invalid_query: the target is malformed, not_found: no such entity, ambiguous: the project repeats the id, response_budget_exceeded: over 256 KiB",
            ),
        ],
        byte_paths: &[],
    },
    Method {
        id: MethodId::ReadSessionState,
        name: "readSessionState",
        tool: "openfairygui_backend_read_session_state",
        title: "Read Session State",
        description: "Returns the committed model (UAM) without resource bytes, with the revision, dirty flag and the diagnostics found while reading the project. The whole project may exceed the 4 MiB budget: scope it (scope.packageIds, scope.component) or page it (page.limit packages; nextCursor as page.cursor). Needs an open session; expectedRevision, when given, must be current.",
        read_only: true,
        destructive: false,
        idempotent: true,
        effect: Effect::Reads,
        upstream: true,
        naming: ToolNaming::Backend,
        stage: Stage::Read,
        max_response_bytes: RESPONSE_CAP,
        errors: &[
            Fails::new("session_not_found", ""),
            Fails::new(
                "stale_read",
                "expectedRevision is not current, or a cursor is from an earlier revision: re-read",
            ),
            Fails::new(
                "session_read_failed",
                "reason response_budget_exceeded: read less at once, not_found, ambiguous or unsupported_resource: the scope names nothing usable",
            ),
            Fails::new(
                "mcp_response_budget_exceeded",
                "the answer is over 16 MiB: scope or page it",
            ),
        ],
        byte_paths: &[],
    },
    Method {
        id: MethodId::SearchProject,
        name: "searchProject",
        tool: "openfairygui_backend_search_project",
        title: "Search Project",
        description: "Finds display nodes and resources by name (part of it), text (what a node shows), kind or url (a ui:// URL's resource and every node referring to it); all given criteria must match, ignoring case. Each match has target (for queryEntity; its selector is what operations take), kind, name, package, component path and where it matched. 50 per answer unless page.limit says otherwise. Scoped like getProjectOutline. Needs an open session.",
        read_only: true,
        destructive: false,
        idempotent: true,
        effect: Effect::Reads,
        upstream: false,
        naming: ToolNaming::Backend,
        stage: Stage::Read,
        max_response_bytes: RESPONSE_CAP,
        errors: &[
            Fails::new("session_not_found", ""),
            Fails::new(
                "session_read_failed",
                "reason not_found: the url or scope names nothing, ambiguous, unsupported_resource",
            ),
            Fails::new(
                "stale_read",
                "a cursor from an earlier revision: search again without it",
            ),
            Fails::new(
                "mcp_response_budget_exceeded",
                "ask fewer matches with page.limit",
            ),
        ],
        byte_paths: &[],
    },
    Method {
        id: MethodId::ReadResourceBytes,
        name: "readResourceBytes",
        tool: "openfairygui_backend_read_resource_bytes",
        title: "Read Resource Bytes",
        description: "Returns one asset's primary file bytes (base64) as the session holds them, edits included. Needs an open session, expectedRevision equal to the current revision, and the id of an asset resource (not a component).",
        read_only: true,
        destructive: false,
        idempotent: true,
        effect: Effect::Reads,
        upstream: true,
        naming: ToolNaming::Backend,
        stage: Stage::Read,
        max_response_bytes: RESPONSE_CAP,
        errors: &[
            Fails::new("session_not_found", ""),
            Fails::new("stale_read", "re-read the revision"),
            Fails::new(
                "session_read_failed",
                "reason not_found, ambiguous, unsupported_resource (a component), bytes_unavailable (the file was missing or unreadable at open), response_budget_exceeded (over 1 MiB)",
            ),
            Fails::new("mcp_response_budget_exceeded", ""),
        ],
        byte_paths: &[],
    },
    Method {
        id: MethodId::RenderComponent,
        name: "renderComponent",
        tool: "openfairygui_render_component",
        title: "Render Component Preview",
        description: "Draws one component as the session holds it (unsaved edits included) as PNG image content, with its size, each controller's page and `approximations` (by node path). previewOperations (a batch), previewHistory or previewBatch draw before and after side by side, applying nothing; strings draws it in a translation's language. Needs an open session (expectedRevision with a preview).",
        read_only: true,
        destructive: false,
        idempotent: true,
        effect: Effect::Reads,
        upstream: false,
        naming: ToolNaming::Ours,
        stage: Stage::Read,
        max_response_bytes: RESPONSE_CAP,
        errors: &[
            Fails::new("session_not_found", ""),
            Fails::new("stale_read", "re-read the revision"),
            Fails::new(
                "session_read_failed",
                "reason not_found, ambiguous, unsupported_resource (not a component), response_budget_exceeded (lower the scale)",
            ),
            Fails::new(
                "transaction_unsupported",
                "previewOperations refused as preflightTransaction would: nothing was drawn",
            ),
            Fails::new(
                "selector_ambiguity",
                "previewOperations name an id the project repeats",
            ),
            Fails::new("mcp_response_budget_exceeded", ""),
        ],
        byte_paths: PREVIEW_BYTE_PATHS,
    },
    Method {
        id: MethodId::ValidateSession,
        name: "validateSession",
        tool: "openfairygui_backend_validate_session",
        title: "Validate Project Session",
        description: "Validates the committed project: status (valid, invalid, incomplete), complete, and the sorted findings (severity, code, model path, message, ids, sourcePath), those that fit in about 16 KiB unless page.limit says otherwise (answer_paged gives the cursor). Checks values, geometry, structure, every reference and the source files (missing, wrong case, corrupt, Git LFS pointers). An invalid project is a successful call: require status valid and complete true. Needs an open session.",
        read_only: true,
        destructive: false,
        idempotent: true,
        effect: Effect::Reads,
        upstream: true,
        naming: ToolNaming::Backend,
        stage: Stage::Read,
        max_response_bytes: RESPONSE_CAP,
        errors: &[
            Fails::new("session_not_found", ""),
            Fails::new(
                "stale_read",
                "a page cursor from an earlier revision: validate again without it",
            ),
            Fails::new("mcp_response_budget_exceeded", ""),
        ],
        byte_paths: &[],
    },
    Method {
        id: MethodId::PreflightTransaction,
        name: "preflightTransaction",
        tool: "openfairygui_backend_preflight_transaction",
        title: "Preview UAM Transaction",
        description: "Runs a batch on a copy of the session and returns exactly what it would change: entities (by id, with the changed fields) and the files a save would touch. Nothing changes; send the same input to applyTransaction. Values the server fills in (addResource's id, folder, dimensions) are listed as `generated` in _meta[\"ofgui/additions\"]. Needs an open session, expectedRevision, ids (or names) from the outline or search, and each operation as openfairygui://contracts/operations/{kind} describes.",
        read_only: true,
        destructive: false,
        idempotent: true,
        effect: Effect::Reads,
        upstream: true,
        naming: ToolNaming::Backend,
        stage: Stage::Authoring,
        max_response_bytes: None,
        errors: &[
            Fails::new("session_not_found", ""),
            Fails::new(
                "stale_write",
                "expectedRevision is not current: re-read and re-plan",
            ),
            Fails::new(
                "transaction_unsupported",
                "every problem is in error.issues and meta.diagnostics with its operation index and a remediation",
            ),
            Fails::new(
                "selector_ambiguity",
                "the project repeats an id the batch names: resolve it in the FairyGUI editor",
            ),
            Fails::new(
                "transaction_preview_failed",
                "the preview is over 2000 entries or 256 KiB: split the batch",
            ),
        ],
        byte_paths: TRANSACTION_BYTE_PATHS,
    },
    Method {
        id: MethodId::ApplyTransaction,
        name: "applyTransaction",
        tool: "openfairygui_backend_apply_transaction",
        title: "Apply UAM Transaction",
        description: "Applies a batch of 1 to 1000 operations (41 kinds: settings, resources, folders, branches, packages, components, display nodes, controllers, transitions, gears) all or nothing at expectedRevision; on success the revision advances by one, on failure nothing changes and each problem names its operation index. Edits stay in the session until saveSession. Needs the same as preflightTransaction: preview first.",
        read_only: false,
        destructive: true,
        idempotent: false,
        effect: Effect::Edits,
        upstream: true,
        naming: ToolNaming::Backend,
        stage: Stage::Authoring,
        max_response_bytes: None,
        errors: &[
            Fails::new("session_not_found", ""),
            Fails::new(
                "stale_write",
                "re-read the outline and entities, re-plan, never retry blindly",
            ),
            Fails::new(
                "transaction_unsupported",
                "nothing changed, every problem is listed with its operation index",
            ),
            Fails::new(
                "selector_ambiguity",
                "the project repeats an id the batch names",
            ),
            Fails::new(
                "lock_conflict",
                "another program holds the project's lock, so this session only reads it",
            ),
        ],
        byte_paths: TRANSACTION_BYTE_PATHS,
    },
    Method {
        id: MethodId::Undo,
        name: "undo",
        tool: "openfairygui_undo",
        title: "Undo Last Batch",
        description: "Takes back the last applied batch (or redo) as a new revision; it reaches back through saves. preview: true only reports what it would change. Needs expectedRevision, the current revision.",
        read_only: false,
        destructive: true,
        idempotent: false,
        effect: Effect::Edits,
        upstream: false,
        naming: ToolNaming::Ours,
        stage: Stage::Authoring,
        max_response_bytes: None,
        errors: &[
            Fails::new("session_not_found", ""),
            Fails::new(
                "stale_write",
                "re-read the history and the model, then decide again",
            ),
            Fails::new(
                "transaction_unsupported",
                "nothing_to_undo: no applied batch is left to take back",
            ),
            Fails::new(
                "lock_conflict",
                "another program holds the project's lock, so this session only reads it",
            ),
        ],
        byte_paths: &[],
    },
    Method {
        id: MethodId::Redo,
        name: "redo",
        tool: "openfairygui_redo",
        title: "Redo Undone Batch",
        description: "Applies again the batch the last undo took back, as a new revision; a batch applied after an undo drops it. preview: true only reports what it would change. Needs expectedRevision, the current revision.",
        read_only: false,
        destructive: true,
        idempotent: false,
        effect: Effect::Edits,
        upstream: false,
        naming: ToolNaming::Ours,
        stage: Stage::Authoring,
        max_response_bytes: None,
        errors: &[
            Fails::new("session_not_found", ""),
            Fails::new(
                "stale_write",
                "re-read the history and the model, then decide again",
            ),
            Fails::new(
                "transaction_unsupported",
                "nothing_to_redo: nothing undone is waiting",
            ),
            Fails::new(
                "lock_conflict",
                "another program holds the project's lock, so this session only reads it",
            ),
        ],
        byte_paths: &[],
    },
    Method {
        id: MethodId::GetHistory,
        name: "getHistory",
        tool: "openfairygui_get_history",
        title: "Get Session History",
        description: "Lists the revisions the session made, newest first: for each, whether a batch was applied, undone or redone, its operation kinds, the entities it changed and when; with how many steps undo and redo can take and which batch each would take next. Needs an open session.",
        read_only: true,
        destructive: false,
        idempotent: true,
        effect: Effect::Reads,
        upstream: false,
        naming: ToolNaming::Ours,
        stage: Stage::Read,
        max_response_bytes: None,
        errors: &[Fails::new("session_not_found", "")],
        byte_paths: &[],
    },
    Method {
        id: MethodId::Review,
        name: "review",
        tool: "openfairygui_review",
        title: "Review Session",
        description: "Shows a person a session in the review view (ui://openfairygui/review, in clients with MCP Apps): steps with their operations, pictures before and after, the diff a save would write, undo, redo and save. Answers with the history (each kept batch with its operations), the files a save would write with their diffs, and names. Needs an open session.",
        read_only: true,
        destructive: false,
        idempotent: true,
        effect: Effect::Reads,
        upstream: false,
        naming: ToolNaming::Ours,
        stage: Stage::Read,
        max_response_bytes: None,
        errors: &[Fails::new("session_not_found", "")],
        byte_paths: &[],
    },
    Method {
        id: MethodId::ExportStrings,
        name: "exportStrings",
        tool: "openfairygui_export_strings",
        title: "Export Strings For Translation",
        description: "Lists the project's translatable texts as the FairyGUI editor exports them (UIPackage.SetStringsSource), unsaved edits included: key, package, component, node name and text, paged; wholeFile adds the strings XML. Needs a session opened from a directory.",
        read_only: true,
        destructive: false,
        idempotent: true,
        effect: Effect::Reads,
        upstream: false,
        naming: ToolNaming::Ours,
        stage: Stage::Read,
        max_response_bytes: None,
        errors: &[
            Fails::new("session_not_found", ""),
            Fails::new(
                "capability_unavailable",
                "a session opened from a document has no files",
            ),
        ],
        byte_paths: &[],
    },
    Method {
        id: MethodId::CheckStrings,
        name: "checkStrings",
        tool: "openfairygui_check_strings",
        title: "Check A Translation",
        description: "Holds a translation (strings or stringsFile) against the project's texts now: keys missing, untranslated or orphaned, rows whose source changed since, markup or placeholders that differ, characters no font has, keys given twice. Paged. Needs a session opened from a directory.",
        read_only: true,
        destructive: false,
        idempotent: true,
        effect: Effect::Reads,
        upstream: false,
        naming: ToolNaming::Ours,
        stage: Stage::Read,
        max_response_bytes: None,
        errors: &[Fails::new("session_not_found", "")],
        byte_paths: &[],
    },
    Method {
        id: MethodId::SweepStrings,
        name: "sweepStrings",
        tool: "openfairygui_sweep_strings",
        title: "Sweep A Translation For Overflow",
        description: "Draws every component in its own language and in a translation's (strings or stringsFile) and lists, per component, each text the translation no longer fits: overflow, clipped, hiddenLines, shrunk, missingGlyphs, with its box. Paged by troubles; openfairygui_render_component with strings and compareStrings shows one. Needs a session opened from a directory.",
        read_only: true,
        destructive: false,
        idempotent: true,
        effect: Effect::Reads,
        upstream: false,
        naming: ToolNaming::Ours,
        stage: Stage::Read,
        max_response_bytes: None,
        errors: &[Fails::new("session_not_found", "")],
        byte_paths: &[],
    },
    Method {
        id: MethodId::RefreshSession,
        name: "refreshSession",
        tool: "openfairygui_refresh_session",
        title: "Refresh Session From Disk",
        description: "Reads the project again as it is on disk now (changed by the editor or git) and replays the session's unsaved edits on top, so a save overwrites nothing. An edit that no longer applies is reported with its revision and opIndex; the session stays as it was unless dropRefused is true. Needs a session opened from a directory and expectedRevision.",
        read_only: false,
        destructive: false,
        idempotent: false,
        effect: Effect::Edits,
        upstream: false,
        naming: ToolNaming::Ours,
        stage: Stage::Authoring,
        max_response_bytes: None,
        errors: &[
            Fails::new("session_not_found", ""),
            Fails::new(
                "stale_write",
                "re-read, then refresh at the current revision",
            ),
            Fails::new(
                "transaction_unsupported",
                "an unsaved edit no longer applies (nothing changed)",
            ),
            Fails::new(
                "capability_unavailable",
                "the session has no project directory, or more unsaved edits than it keeps",
            ),
        ],
        byte_paths: &[],
    },
    Method {
        id: MethodId::SaveSession,
        name: "saveSession",
        tool: "openfairygui_backend_save_session",
        title: "Save Backend Session",
        description: "Writes the session's edits into the opened project: only changed files, and in them only the edited attributes and elements (everything else stays byte for byte); all files change or none. What changed on disk is `saved` in _meta[\"ofgui/additions\"]. Needs a session opened from a directory (a document session: materializeSession with targetPath first) and expectedRevision, the revision you previewed.",
        read_only: false,
        destructive: true,
        idempotent: false,
        effect: Effect::Writes,
        upstream: true,
        naming: ToolNaming::Backend,
        stage: Stage::Authoring,
        max_response_bytes: None,
        errors: &[
            Fails::new("session_not_found", ""),
            Fails::new("stale_write", "re-read, save the revision you previewed"),
            Fails::new(
                "path_policy_violation",
                "targetPath is not the opened project (saving is not Save As), or the project was moved since it was opened",
            ),
            Fails::new(
                "uam_fidelity_unsupported",
                "a file could not be read at open or would not read back as the model: nothing written",
            ),
            Fails::new(
                "save_partial_failure",
                "reason changed_on_disk: the files changed on disk or are read-only (see conflicts), nothing written, refreshSession replays the edits on the new files, reason io: the disk refused a write (see recoveryPaths)",
            ),
            Fails::new(
                "materialize_validation_failed",
                "force or mode asked for a materialize and the project does not validate",
            ),
            Fails::new("write_failed", "that materialize could not write"),
            Fails::new("lock_conflict", ""),
            Fails::new(
                "capability_unavailable",
                "the session has no directory: it was opened from a document",
            ),
        ],
        byte_paths: &[],
    },
    Method {
        id: MethodId::MaterializeSession,
        name: "materializeSession",
        tool: "openfairygui_backend_materialize_session",
        title: "Materialize Backend Session",
        description: "Rewrites every project file in the FairyGUI editor's canonical layout, even without edits: the escape hatch when a save is refused. Files already canonical are left alone (skippedPaths). It overwrites changes made on disk since the session read them: ask the user first. A document session is written into targetPath, a new directory inside the allowed roots, and is that project's from then on. Needs a project that validates.",
        read_only: false,
        destructive: true,
        idempotent: false,
        effect: Effect::Writes,
        upstream: true,
        naming: ToolNaming::Backend,
        stage: Stage::Authoring,
        max_response_bytes: None,
        errors: &[
            Fails::new("session_not_found", ""),
            Fails::new("stale_write", ""),
            Fails::new(
                "path_policy_violation",
                "targetPath is outside the roots, holds a project or is not the opened project",
            ),
            Fails::new("uam_fidelity_unsupported", ""),
            Fails::new(
                "materialize_validation_failed",
                "the errors are in meta.diagnostics, nothing written",
            ),
            Fails::new(
                "write_failed",
                "a file is read-only (see conflicts) or the disk refused a write",
            ),
            Fails::new("lock_conflict", ""),
            Fails::new(
                "capability_unavailable",
                "a document session given no targetPath",
            ),
        ],
        byte_paths: &[],
    },
    Method {
        id: MethodId::Publish,
        name: "publishProject",
        tool: "openfairygui_publish",
        title: "Publish For The Game",
        description: "Publishes packages as the FairyGUI editor would for the game: per package its descriptor, atlas pages, sounds, and binding code where its settings ask (genCode) into codeDir (else codePath), from the session's model (unsaved edits included). Each package's files are replaced at once; only files a publish wrote are ever removed. dryRun writes nothing. Needs an open session; outputDir inside the allowed roots unless settings/Publish.json's path is; packages by name or id (all by default).",
        read_only: false,
        destructive: true,
        idempotent: true,
        effect: Effect::Writes,
        upstream: false,
        naming: ToolNaming::Verb,
        stage: Stage::Runtime,
        max_response_bytes: None,
        errors: &[
            Fails::new("session_not_found", ""),
            Fails::new("stale_read", "re-read the revision"),
            Fails::new(
                "publish_refused",
                "the output would be wrong: meta.diagnostics name each finding (allowMissing publishes the rest), nothing written",
            ),
            Fails::new(
                "path_policy_violation",
                "outputDir or codeDir (or the settings' paths) is outside the allowed roots, a symlink or inside the project's assets or settings",
            ),
            Fails::new(
                "write_failed",
                "the disk refused a write: the previous output is intact",
            ),
        ],
        byte_paths: &[],
    },
    Method {
        id: MethodId::CloseSession,
        name: "closeSession",
        tool: "openfairygui_backend_close_session",
        title: "Close Backend Session",
        description: "Closes the session and releases the project and its lock. Unsaved edits are discarded; the result then warns with the revisions lost, so save first. Needs an open session.",
        read_only: false,
        destructive: false,
        idempotent: false,
        effect: Effect::Sessions,
        upstream: true,
        naming: ToolNaming::Backend,
        stage: Stage::Runtime,
        max_response_bytes: None,
        errors: &[Fails::new("session_not_found", "")],
        byte_paths: &[],
    },
    Method {
        id: MethodId::GetEvents,
        name: "getEvents",
        tool: "openfairygui_backend_get_events",
        title: "Get Runtime Events",
        description: "Polls what happened to a session (session.opened, transaction.applied, history.undone, save.completed, session.closed, …) after a cursor: pass the last sequence you saw as `after`. Sequences are shared by all sessions; each session keeps its latest 1000 events. Needs an open session.",
        read_only: true,
        destructive: false,
        idempotent: true,
        effect: Effect::Reads,
        upstream: true,
        naming: ToolNaming::Backend,
        stage: Stage::Runtime,
        max_response_bytes: RESPONSE_CAP,
        errors: &[
            Fails::new("session_not_found", ""),
            Fails::new(
                "event_cursor_invalid",
                "a malformed, expired or unknown cursor: poll again without after",
            ),
            Fails::new(
                "mcp_response_budget_exceeded",
                "ask fewer events with limit",
            ),
        ],
        byte_paths: &[],
    },
    Method {
        id: MethodId::GetCacheSnapshot,
        name: "getCacheSnapshot",
        tool: "openfairygui_backend_get_cache_snapshot",
        title: "Get Cache Snapshot",
        description: "Returns the session's derived cache entry: canonicalPathKey, revision, lastSavedRevision, dirty, valid, indexedAt and a summary (packageCount, resourceCount). The entry is made at open and after each save, and goes invalid (valid false, at the new revision) after an edit or a failed save until refreshCache; it is an index, never the source of truth. Needs an open session.",
        read_only: true,
        destructive: false,
        idempotent: true,
        effect: Effect::Reads,
        upstream: true,
        naming: ToolNaming::Backend,
        stage: Stage::Read,
        max_response_bytes: None,
        errors: &[Fails::new("session_not_found", "")],
        byte_paths: &[],
    },
    Method {
        id: MethodId::RefreshCache,
        name: "refreshCache",
        tool: "openfairygui_backend_refresh_cache",
        title: "Refresh Cache",
        description: "Rebuilds the session's cache entry from its current state, synchronously, and returns the snapshot with the valid entry; records a cache.updated event whose payload names reason (manual unless given: session_open or after_save). Needs an open session.",
        read_only: false,
        destructive: false,
        idempotent: false,
        effect: Effect::Sessions,
        upstream: true,
        naming: ToolNaming::Backend,
        stage: Stage::Runtime,
        max_response_bytes: None,
        errors: &[Fails::new("session_not_found", "")],
        byte_paths: &[],
    },
];

impl Method {
    /// Every code a call of this method can answer with: its own, then the MCP layer's.
    pub fn error_codes(&self) -> Vec<&'static str> {
        self.failures().map(|fails| fails.code).collect()
    }

    fn failures(&self) -> impl Iterator<Item = &'static Fails> {
        self.errors.iter().chain(MCP_FAILURES)
    }

    /// The tool's description: what it does and needs, then "May fail on:" with every
    /// code of [`Method::error_codes`], its own with when; the codes every tool shares
    /// are only named here (the server's instructions say when, once).
    pub fn tool_description(&self) -> String {
        let mut failures: Vec<String> = self
            .errors
            .iter()
            .map(|fails| match fails.when {
                "" => fails.code.to_string(),
                when => format!("{} ({when})", fails.code),
            })
            .collect();
        failures.extend(MCP_FAILURES.iter().map(|fails| fails.code.to_string()));
        format!("{} May fail on: {}.", self.description, failures.join("; "))
    }
}

/// The method behind a tool name.
pub fn by_tool(tool: &str) -> Option<&'static Method> {
    METHODS.iter().find(|m| m.tool == tool)
}

/// The name of the documentation tool (upstream's `openfairygui_docs_read`, for clients
/// that read no resources): a tool of the MCP layer, not a backend method.
pub const DOCS_TOOL: &str = "openfairygui_docs_read";

/// The method by its backend name.
pub fn by_name(name: &str) -> Option<&'static Method> {
    METHODS.iter().find(|m| m.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_names_follow_the_naming_rule() {
        for method in METHODS {
            assert_eq!(
                method.tool,
                method.naming.tool_for(method.name),
                "{}",
                method.name
            );
            // Upstream's methods keep upstream's tool names.
            if method.upstream {
                assert_eq!(method.naming, ToolNaming::Backend, "{}", method.name);
            }
        }
    }

    /// Upstream 3.0.0's 17 methods in its order, which tools/list and capabilities follow.
    const UPSTREAM: [&str; 17] = [
        "getCapabilities",
        "openSession",
        "openProjectSession",
        "getSession",
        "getProjectOutline",
        "queryEntity",
        "readSessionState",
        "readResourceBytes",
        "validateSession",
        "preflightTransaction",
        "applyTransaction",
        "saveSession",
        "materializeSession",
        "closeSession",
        "getEvents",
        "getCacheSnapshot",
        "refreshCache",
    ];

    #[test]
    fn methods_follow_upstreams_order_with_search_after_read_session_state() {
        let upstream: Vec<&str> = METHODS
            .iter()
            .map(|m| m.name)
            .filter(|name| by_name(name).is_some_and(|method| method.upstream))
            .collect();
        assert_eq!(upstream, UPSTREAM);
        let read = METHODS
            .iter()
            .position(|m| m.name == "readSessionState")
            .unwrap();
        assert_eq!(METHODS[read + 1].name, "searchProject");
    }

    #[test]
    fn every_tool_description_ends_with_every_code_it_may_fail_on() {
        for method in METHODS {
            let description = method.tool_description();
            let (own, failures) = description
                .rsplit_once(" May fail on: ")
                .unwrap_or_else(|| panic!("{} names no failures", method.name));
            assert!(!own.contains("May fail"), "{}: {own}", method.name);
            assert!(
                own.contains("Needs"),
                "{} names no preconditions",
                method.name
            );
            let named: Vec<&str> = failures
                .trim_end_matches('.')
                .split("; ")
                .map(|entry| entry.split(' ').next().unwrap_or_default())
                .collect();
            assert_eq!(named, method.error_codes(), "{}", method.name);
        }
    }

    #[test]
    fn every_id_has_one_row() {
        let ids = [
            MethodId::GetCapabilities,
            MethodId::OpenSession,
            MethodId::OpenProjectSession,
            MethodId::GetSession,
            MethodId::GetProjectOutline,
            MethodId::QueryEntity,
            MethodId::ReadSessionState,
            MethodId::SearchProject,
            MethodId::ReadResourceBytes,
            MethodId::RenderComponent,
            MethodId::ValidateSession,
            MethodId::PreflightTransaction,
            MethodId::ApplyTransaction,
            MethodId::Undo,
            MethodId::Redo,
            MethodId::GetHistory,
            MethodId::Review,
            MethodId::ExportStrings,
            MethodId::CheckStrings,
            MethodId::SweepStrings,
            MethodId::RefreshSession,
            MethodId::SaveSession,
            MethodId::MaterializeSession,
            MethodId::Publish,
            MethodId::CloseSession,
            MethodId::GetEvents,
            MethodId::GetCacheSnapshot,
            MethodId::RefreshCache,
        ];
        assert_eq!(ids.len(), METHODS.len());
        for id in ids {
            let rows = METHODS.iter().filter(|method| method.id == id).count();
            assert_eq!(rows, 1, "{id:?}");
            assert_eq!(id.method().id, id);
        }
    }

    /// Read-only annotations agree with the effect: only reads are read-only, and a write
    /// to disk is never idempotent-and-harmless.
    #[test]
    fn effects_agree_with_the_annotations() {
        for method in METHODS {
            assert_eq!(
                method.read_only,
                method.effect == Effect::Reads,
                "{}",
                method.name
            );
        }
    }

    #[test]
    fn read_only_tools_are_never_destructive() {
        for method in METHODS {
            assert!(!(method.read_only && method.destructive), "{}", method.name);
        }
    }
}
