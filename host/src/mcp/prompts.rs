//! MCP prompts: short, argument-free workflows a user can hand to an agent.
//!
//! They name only tools this server lists and never spell out operation grammar: the
//! schemas are the authority, and a prompt that paraphrased them would drift.

use rmcp::ErrorData;
use rmcp::model::{GetPromptResult, Prompt, PromptMessage, Role};
use serde_json::json;

struct Definition {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    text: &'static str,
}

const PROMPTS: &[Definition] = &[
    Definition {
        name: "openfairygui_inspect_capabilities",
        title: "Inspect OpenFairyGUI Backend Capabilities",
        description: "Find out what this backend serves before relying on it.",
        text: "Call openfairygui_backend_get_capabilities first. Report the contract and capability versions, the methods it serves, its read limits and its session and sandbox policy. Treat anything it does not list as unsupported: do not assume artifact publish/restore or event subscriptions (events are polled) unless the capabilities say so. Publishing for the game is not a session method: when artifact.publishBridge is available, its bridgeEntrypoint names the tool that publishes.",
    },
    Definition {
        name: "openfairygui_open_and_inspect_session",
        title: "Open and Inspect an OpenFairyGUI Session",
        description: "Open a project, read its session state, and close it when done.",
        text: "Open the project with openfairygui_backend_open_session, passing the project directory or its .fairy file as projectPath. Backend path policy remains authoritative: if the path is refused (for example project_root_not_allowed), report the error instead of trying other paths. Then call openfairygui_backend_get_session and report the session id, revision, dirty flag and fidelity. Call openfairygui_backend_close_session when you are done.",
    },
    Definition {
        name: "openfairygui_inspect_project_outline",
        title: "Inspect an OpenFairyGUI Project Outline",
        description: "Read the outline before planning any change.",
        text: "Read openfairygui_backend_get_project_outline before planning any mutation and report the packages, components, controllers and transitions it lists. Keep its revision: pass it as expectedRevision to the tools that take one (openfairygui_backend_preflight_transaction, openfairygui_backend_apply_transaction, openfairygui_backend_save_session, openfairygui_backend_read_session_state and openfairygui_backend_read_resource_bytes); the others refuse it. The outline omits source bytes and full property payloads; use openfairygui_backend_query_entity for one entity's properties and openfairygui_backend_read_resource_bytes for an asset's bytes. After a stale revision error, read the outline again rather than reusing old ids or revisions.",
    },
    Definition {
        name: "openfairygui_plan_revision_checked_transaction",
        title: "Plan a Revision-Checked OpenFairyGUI Transaction",
        description: "Plan, preview and apply an edit safely.",
        text: "1. Call openfairygui_backend_get_session and openfairygui_backend_get_project_outline to learn the current revision and the exact ids. 2. Use openfairygui_backend_query_entity to read every entity you will change; for settings, controller and transition edits copy the complete current value and change only what you must, because those operations replace the whole value. 3. Read the operation catalog resource openfairygui://contracts/operations and the schema resource of each operation you use; never invent fields or operations. 4. Preview the batch with openfairygui_backend_preflight_transaction and check that the reported entities and files are exactly the ones you meant to change. 5. Apply the same input with openfairygui_backend_apply_transaction at the preview's baseRevision. 6. On a stale revision (stale_write), refresh the outline and entities and re-plan; never retry the old batch with a guessed revision. 7. Run openfairygui_backend_validate_session afterwards and report its status.",
    },
    Definition {
        name: "openfairygui_save_session",
        title: "Save an OpenFairyGUI Backend Session",
        description: "Write a session's applied edits to the project on disk, safely.",
        text: "1. Call openfairygui_backend_get_session: if dirty is false there is nothing to save. 2. Call openfairygui_backend_validate_session and tell the user about any errors (a save does not require a valid project, but the user should know). 3. Call openfairygui_backend_save_session with the session's current revision as expectedRevision and without targetPath: saving writes only the opened project; backend path policy is authoritative, so report path_policy_violation instead of trying another destination. 4. Report writtenPaths and removedPaths (under saved in the result's ofgui/additions), which are the only files changed. 5. On stale_write, another change landed: re-read the session and decide with the user before saving again. On save_partial_failure with reason changed_on_disk, files were edited on disk since the session read them (for example in the FairyGUI editor): nothing was written and the edits are still in the session; tell the user which files (error.conflicts) and let them choose between reopening the project and redoing the edits, or overwriting with openfairygui_backend_materialize_session. On reason io, report failedPaths, diskMayBePartiallyUpdated and recoveryPaths unchanged; never retry blindly or close the session.",
    },
    Definition {
        name: "openfairygui_poll_runtime_state",
        title: "Poll OpenFairyGUI Runtime State",
        description: "Follow what happens in a session by polling its events.",
        text: "Poll openfairygui_backend_get_events for the session. Start without a cursor, then pass the last event's sequence (the number as returned) as after on the next call. If the reply is event_cursor_invalid, the cursor expired or is unknown: call again without after and continue from the events it returns. There are no event subscriptions; polling is the only way to follow events. Use openfairygui_backend_get_session for the current revision and dirty flag; a client that supports MCP resource subscriptions can instead subscribe to the session's resource, openfairygui://backend/session/{sessionId}, to be told when they change. openfairygui_backend_get_cache_snapshot shows the session's derived cache entry (valid false after an edit); openfairygui_backend_refresh_cache rebuilds it synchronously and returns it. The cache is an index: the session is the source of truth.",
    },
];

/// Every prompt.
pub fn list() -> Vec<Prompt> {
    PROMPTS
        .iter()
        .map(|prompt| {
            Prompt::new(prompt.name, Some(prompt.description), None).with_title(prompt.title)
        })
        .collect()
}

/// One prompt's messages.
pub fn get(name: &str) -> Result<GetPromptResult, ErrorData> {
    let prompt = PROMPTS
        .iter()
        .find(|prompt| prompt.name == name)
        .ok_or_else(|| {
            ErrorData::invalid_params(
                format!("No prompt named {name}; list the prompts for the available names."),
                Some(json!({ "name": name })),
            )
        })?;
    Ok(
        GetPromptResult::new(vec![PromptMessage::new_text(Role::User, prompt.text)])
            .with_description(prompt.description),
    )
}
