//! The method catalog: each backend method, its MCP tool and what it may fail with.
//!
//! Only methods this server really serves are listed; the tool list, the capability
//! snapshot and the generated schemas all come from this one table.

use crate::envelope::Stage;

/// Error codes the MCP layer can return for any tool.
pub const MCP_ERROR_CODES: &[&str] = &["invalid_input", "backend_unhandled_error"];

/// One method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Method {
    /// The backend method name (`getProjectOutline`).
    pub name: &'static str,
    /// The MCP tool name (`openfairygui_backend_get_project_outline`).
    pub tool: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub stage: Stage,
    /// Cap on the complete serialized tool result, when the result can be large.
    pub max_response_bytes: Option<u64>,
    /// Backend error codes this method can return (MCP-level codes are added for all).
    pub errors: &'static [&'static str],
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

const RESPONSE_CAP: Option<u64> = Some(16_777_216);

/// Every method this server serves, in tool order: upstream's order, with our
/// `searchProject` (no upstream counterpart) after `readSessionState`, the other
/// whole-model read it narrows.
pub const METHODS: &[Method] = &[
    Method {
        name: "getCapabilities",
        tool: "openfairygui_backend_get_capabilities",
        title: "Get Backend Capabilities",
        description: "Returns what this backend can do: contract versions, the methods it serves, read limits, supported resource/node/gear kinds and the sandbox and session policy. Takes no arguments and never fails.",
        read_only: true,
        destructive: false,
        idempotent: true,
        stage: Stage::Read,
        max_response_bytes: None,
        errors: &[],
        byte_paths: &[],
    },
    Method {
        name: "openSession",
        tool: "openfairygui_backend_open_session",
        title: "Open Backend Session",
        description: "Opens a FairyGUI project (its directory or its .fairy file, inside the server's allowed project roots) in a sandboxed session and returns the session at revision 0. One session per project at a time. May fail with: project_root_not_allowed, project_open_failed (reason: project_not_found, no_project_file, multiple_project_files, not_a_project_file, symbolic_link_unsupported, hard_link_unsupported, access_denied, project_read_failed), lock_conflict, session_limit_exceeded.",
        read_only: false,
        destructive: false,
        idempotent: false,
        stage: Stage::Runtime,
        max_response_bytes: None,
        errors: &[
            "project_root_not_allowed",
            "project_open_failed",
            "lock_conflict",
            "session_limit_exceeded",
        ],
        byte_paths: &[],
    },
    Method {
        name: "openProjectSession",
        tool: "openfairygui_backend_open_project_session",
        title: "Open Project Session",
        description: "Opens a session over a project given as a document instead of a directory: project is the whole UAM (as readSessionState returns it) with each asset's file bytes in sourceBytes (integers 0..255 or base64; at most 8 MiB in all). The session has no file access: lockHeld is false, canonicalProjectPath is memory://<sessionId> unless given. Reading, searching, validating, previewing and applying work as on any session; saveSession answers capability_unavailable until materializeSession with targetPath writes the project into a new directory inside the allowed roots, after which the session is that project's. May fail with: invalid_input (path names the field no project on disk could read as), session_id_conflict, lock_conflict (kind in_process_session_exists: canonicalPathKey is open), session_limit_exceeded.",
        read_only: false,
        destructive: false,
        idempotent: false,
        stage: Stage::Runtime,
        max_response_bytes: None,
        errors: &[
            "session_id_conflict",
            "lock_conflict",
            "session_limit_exceeded",
        ],
        byte_paths: &["project.packages.*.resources.*.sourceBytes"],
    },
    Method {
        name: "getSession",
        tool: "openfairygui_backend_get_session",
        title: "Get Backend Session",
        description: "Returns the session's current revision, dirty flag, fidelity and lock state. May fail with: session_not_found.",
        read_only: true,
        destructive: false,
        idempotent: true,
        stage: Stage::Read,
        max_response_bytes: None,
        errors: &["session_not_found"],
        byte_paths: &[],
    },
    Method {
        name: "getProjectOutline",
        tool: "openfairygui_backend_get_project_outline",
        title: "Get Project Outline",
        description: "Returns the project's structure at the current revision: packages, folders, resources (id, name, path, kind, branch) and for components their display nodes, controller pages and transitions. No property payloads and no bytes: query entities for those. Without options it is the whole project; on a large project first ask detail: packages (ids, names and resource counts only), then scope to some packages (scope.packageIds) or one component (scope.component), or page it (page.limit packages per answer; pass nextCursor back as page.cursor). May fail with: session_not_found, session_read_failed (reason: not_found, ambiguous or unsupported_resource for a scope naming nothing usable), stale_read (a cursor from an earlier revision: start again without it).",
        read_only: true,
        destructive: false,
        idempotent: true,
        stage: Stage::Read,
        max_response_bytes: RESPONSE_CAP,
        errors: &[
            "session_not_found",
            "session_read_failed",
            "stale_read",
            "mcp_response_budget_exceeded",
        ],
        byte_paths: &[],
    },
    Method {
        name: "queryEntity",
        tool: "openfairygui_backend_query_entity",
        title: "Query Entity Properties",
        description: "Returns the properties of one entity by exact ids from the outline: the project, a package, a resource, a component, a display node, a controller or a transition. May fail with: session_not_found, entity_query_failed (reason: invalid_query, not_found, ambiguous, response_budget_exceeded).",
        read_only: true,
        destructive: false,
        idempotent: true,
        stage: Stage::Read,
        max_response_bytes: None,
        errors: &["session_not_found", "entity_query_failed"],
        byte_paths: &[],
    },
    Method {
        name: "readSessionState",
        tool: "openfairygui_backend_read_session_state",
        title: "Read Session State",
        description: "Returns the committed model (UAM) without resource bytes, with the revision, dirty flag and the diagnostics found while reading the project. Without options it is the whole project, which may exceed the 4 MiB budget on large projects: scope it to some packages (scope.packageIds) or one component (scope.component), or page it (page.limit packages per answer; pass nextCursor back as page.cursor). May fail with: session_not_found, stale_read (expectedRevision is not current, or a cursor from an earlier revision), session_read_failed (reason: response_budget_exceeded: read less at once; not_found, ambiguous or unsupported_resource for a scope naming nothing usable).",
        read_only: true,
        destructive: false,
        idempotent: true,
        stage: Stage::Read,
        max_response_bytes: RESPONSE_CAP,
        errors: &[
            "session_not_found",
            "stale_read",
            "session_read_failed",
            "mcp_response_budget_exceeded",
        ],
        byte_paths: &[],
    },
    Method {
        name: "searchProject",
        tool: "openfairygui_backend_search_project",
        title: "Search Project",
        description: "Finds display nodes and resources by name (part of it), text (part of what a node shows: text, title, prompt, list item titles), kind (node or resource kind) or url (the resource a ui:// URL names, and every node that refers to it); every given criterion must match, case is ignored. Each match carries target (pass it to queryEntity; its selector is what operations take), kind, name, package and component path, and where the text or reference was found. 50 matches per answer unless page.limit says otherwise; nextCursor continues. May be scoped like getProjectOutline (scope.packageIds or scope.component). May fail with: session_not_found, session_read_failed (reason: not_found for a url or scope naming nothing, ambiguous, unsupported_resource), stale_read (a cursor from an earlier revision).",
        read_only: true,
        destructive: false,
        idempotent: true,
        stage: Stage::Read,
        max_response_bytes: RESPONSE_CAP,
        errors: &[
            "session_not_found",
            "session_read_failed",
            "stale_read",
            "mcp_response_budget_exceeded",
        ],
        byte_paths: &[],
    },
    Method {
        name: "readResourceBytes",
        tool: "openfairygui_backend_read_resource_bytes",
        title: "Read Resource Bytes",
        description: "Returns one asset's primary file bytes (base64) as read when the session opened. expectedRevision is required. May fail with: session_not_found, stale_read, session_read_failed (reason: not_found, ambiguous, unsupported_resource for components, bytes_unavailable when the file was missing, response_budget_exceeded over 1 MiB).",
        read_only: true,
        destructive: false,
        idempotent: true,
        stage: Stage::Read,
        max_response_bytes: RESPONSE_CAP,
        errors: &[
            "session_not_found",
            "stale_read",
            "session_read_failed",
            "mcp_response_budget_exceeded",
        ],
        byte_paths: &[],
    },
    Method {
        name: "validateSession",
        tool: "openfairygui_backend_validate_session",
        title: "Validate Project Session",
        description: "Validates the committed project and returns a report: status (valid, invalid, incomplete), complete, and sorted diagnostics with severity, code, model path, message, packageId, resourceId, nodeId and sourcePath. Checks malformed files, invalid values, geometry that overflows the editor, structural rules (ids, names, folders, paths differing only in case), every ui:// and resource reference, and the source files themselves (missing or present only with other letter case, empty, corrupt PNG/JPEG/SVG/JTA, Git LFS pointers; SVGs with a DTD or active content are reported unchecked). An invalid project is a successful call: require status valid and complete true. Read-only. May fail with: session_not_found.",
        read_only: true,
        destructive: false,
        idempotent: true,
        stage: Stage::Read,
        max_response_bytes: RESPONSE_CAP,
        errors: &["session_not_found", "mcp_response_budget_exceeded"],
        byte_paths: &[],
    },
    Method {
        name: "preflightTransaction",
        tool: "openfairygui_backend_preflight_transaction",
        title: "Preview UAM Transaction",
        description: "Runs a batch of operations on a copy of the session and returns exactly what it would change: entities (by exact ids, with the fields that change) and the files a save would touch. Nothing changes and no revision is reserved; use the same input as applyTransaction. `generated` lists what the server filled in for fields an operation left out (addResource's id, folder, flags, image or movie clip block, dimensions), as the apply will. May fail with: session_not_found, stale_write (expectedRevision is not current: re-read and re-plan), transaction_unsupported (every problem listed in error.issues and meta.diagnostics, e.g. invalid_display_node_selector, invalid_display_node_payload, display_node_props_unchanged, unavailable_resource_source_bytes, unsupported_operation_batch), selector_ambiguity, transaction_preview_failed.",
        read_only: true,
        destructive: false,
        idempotent: true,
        stage: Stage::Authoring,
        max_response_bytes: None,
        errors: &[
            "session_not_found",
            "stale_write",
            "transaction_unsupported",
            "selector_ambiguity",
            "transaction_preview_failed",
        ],
        byte_paths: TRANSACTION_BYTE_PATHS,
    },
    Method {
        name: "applyTransaction",
        tool: "openfairygui_backend_apply_transaction",
        title: "Apply UAM Transaction",
        description: "Applies a batch of 1 to 1000 operations (the 41 kinds: settings, resources, folders, branches, packages, components, display nodes, controllers, transitions, gears) all or nothing, at expectedRevision. On success the revision advances by one and the session is dirty; on failure nothing changes and every problem is reported with its operation index. Edits stay in the session until saveSession writes them. addResource needs only kind, fileName and sourceBytes: the id, folder (/), flags, image or movie clip block and dimensions are derived, and `generated` lists each value chosen. May fail with: session_not_found, stale_write (re-read the outline and entities, re-plan, never retry blindly), transaction_unsupported, selector_ambiguity.",
        read_only: false,
        destructive: true,
        idempotent: false,
        stage: Stage::Authoring,
        max_response_bytes: None,
        errors: &[
            "session_not_found",
            "stale_write",
            "transaction_unsupported",
            "selector_ambiguity",
        ],
        byte_paths: TRANSACTION_BYTE_PATHS,
    },
    Method {
        name: "saveSession",
        tool: "openfairygui_backend_save_session",
        title: "Save Backend Session",
        description: "Writes the session's edits into the opened project: only files whose content changed are written, and inside them only the edited attributes and elements (formatting, attribute order and unknown content stay byte for byte). The new bytes are read back and must give exactly the session's model before anything is written; all files change together or none do. A save without edits writes nothing. Pass expectedRevision (the revision you previewed). May fail with: session_not_found, stale_write, path_policy_violation (targetPath is not the opened project: saving is not Save As), uam_fidelity_unsupported (a file could not be read at open, or would not read back as the model; nothing written), save_partial_failure (reason changed_on_disk: someone edited those files on disk since the session read them, nothing written, the edits stay in the session: reopen to see their change, or materializeSession to overwrite on purpose; reason io: see diskMayBePartiallyUpdated and recoveryPaths), lock_conflict, capability_unavailable (a session opened with openProjectSession has no directory yet: materializeSession with targetPath first); with force or mode, as materializeSession: materialize_validation_failed, write_failed.",
        read_only: false,
        destructive: true,
        idempotent: false,
        stage: Stage::Authoring,
        max_response_bytes: None,
        errors: &[
            "session_not_found",
            "stale_write",
            "path_policy_violation",
            "uam_fidelity_unsupported",
            "save_partial_failure",
            "materialize_validation_failed",
            "write_failed",
            "lock_conflict",
            "capability_unavailable",
        ],
        byte_paths: &[],
    },
    Method {
        name: "materializeSession",
        tool: "openfairygui_backend_materialize_session",
        title: "Materialize Backend Session",
        description: "Rewrites every project file the model describes in the FairyGUI editor's canonical layout, even without edits: the escape hatch when a patch save is refused. The project must validate first. Files whose canonical form equals what is on disk are left alone (skippedPaths). Unlike saveSession it overwrites changes made on disk since the session read them. For a session opened with openProjectSession, targetPath (a directory inside the allowed roots holding no project; created when missing; the project file is <dir>.fairy unless targetPath names a .fairy file) says where: the project is written there, the session takes its lock and from then on is that project's, so saveSession works. May fail with: session_not_found, stale_write, path_policy_violation (policy materialize_target: targetPath is outside the allowed roots, holds a project or is not a directory; policy save_target: a session opened from disk only materializes into its own project), capability_unavailable (no targetPath for a session without a directory), uam_fidelity_unsupported, materialize_validation_failed (the issues are in meta.diagnostics; nothing written), write_failed, lock_conflict.",
        read_only: false,
        destructive: true,
        idempotent: false,
        stage: Stage::Authoring,
        max_response_bytes: None,
        errors: &[
            "session_not_found",
            "stale_write",
            "path_policy_violation",
            "capability_unavailable",
            "uam_fidelity_unsupported",
            "materialize_validation_failed",
            "write_failed",
            "lock_conflict",
        ],
        byte_paths: &[],
    },
    Method {
        name: "closeSession",
        tool: "openfairygui_backend_close_session",
        title: "Close Backend Session",
        description: "Closes the session and releases the project and its lock. Unsaved edits are discarded; the result then warns with the revisions lost, so save first. May fail with: session_not_found.",
        read_only: false,
        destructive: false,
        idempotent: false,
        stage: Stage::Runtime,
        max_response_bytes: None,
        errors: &["session_not_found"],
        byte_paths: &[],
    },
    Method {
        name: "getEvents",
        tool: "openfairygui_backend_get_events",
        title: "Get Runtime Events",
        description: "Polls what happened to a session (session.opened, transaction.applied, transaction.rejected, save.started, save.completed, save.failed, cache.invalidated, cache.updated, session.closeRequested) after a cursor: pass the last sequence you saw as `after`. Sequences are shared by all sessions; each session keeps its latest 1000 events. May fail with: session_not_found, event_cursor_invalid (malformed, expired or unknown cursor: poll again without `after`).",
        read_only: true,
        destructive: false,
        idempotent: true,
        stage: Stage::Runtime,
        max_response_bytes: RESPONSE_CAP,
        errors: &[
            "session_not_found",
            "event_cursor_invalid",
            "mcp_response_budget_exceeded",
        ],
        byte_paths: &[],
    },
    Method {
        name: "getCacheSnapshot",
        tool: "openfairygui_backend_get_cache_snapshot",
        title: "Get Cache Snapshot",
        description: "Returns the session's derived cache entry: canonicalPathKey, revision, lastSavedRevision, dirty, valid, indexedAt and a summary (packageCount, resourceCount). The entry is made at open and after each save, and goes invalid (valid false, at the new revision) after an edit or a failed save until refreshCache; it is an index, never the source of truth. May fail with: session_not_found.",
        read_only: true,
        destructive: false,
        idempotent: true,
        stage: Stage::Read,
        max_response_bytes: None,
        errors: &["session_not_found"],
        byte_paths: &[],
    },
    Method {
        name: "refreshCache",
        tool: "openfairygui_backend_refresh_cache",
        title: "Refresh Cache",
        description: "Rebuilds the session's cache entry from its current state, synchronously, and returns the snapshot with the valid entry; records a cache.updated event whose payload names reason (manual unless given: session_open or after_save). May fail with: session_not_found.",
        read_only: false,
        destructive: false,
        idempotent: false,
        stage: Stage::Runtime,
        max_response_bytes: None,
        errors: &["session_not_found"],
        byte_paths: &[],
    },
];

/// The method behind a tool name.
pub fn by_tool(tool: &str) -> Option<&'static Method> {
    METHODS.iter().find(|m| m.tool == tool)
}

/// The method by its backend name.
pub fn by_name(name: &str) -> Option<&'static Method> {
    METHODS.iter().find(|m| m.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snake(name: &str) -> String {
        let mut out = String::new();
        for ch in name.chars() {
            if ch.is_ascii_uppercase() {
                out.push('_');
                out.push(ch.to_ascii_lowercase());
            } else {
                out.push(ch);
            }
        }
        out
    }

    #[test]
    fn tool_names_follow_the_method_names() {
        for method in METHODS {
            assert_eq!(
                method.tool,
                format!("openfairygui_backend_{}", snake(method.name))
            );
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
            .filter(|name| *name != "searchProject")
            .collect();
        assert_eq!(upstream, UPSTREAM);
        let read = METHODS
            .iter()
            .position(|m| m.name == "readSessionState")
            .unwrap();
        assert_eq!(METHODS[read + 1].name, "searchProject");
    }

    #[test]
    fn every_description_ends_with_what_the_method_may_fail_with() {
        for method in METHODS.iter().filter(|m| !m.errors.is_empty()) {
            let (_, failures) = method
                .description
                .rsplit_once("May fail with: ")
                .unwrap_or_else(|| panic!("{} names no failures", method.name));
            for code in method
                .errors
                .iter()
                .filter(|c| **c != "mcp_response_budget_exceeded")
            {
                assert!(
                    failures.contains(code),
                    "{} does not name {code}",
                    method.name
                );
            }
        }
    }

    #[test]
    fn read_only_tools_are_never_destructive() {
        for method in METHODS {
            assert!(!(method.read_only && method.destructive), "{}", method.name);
        }
    }
}
