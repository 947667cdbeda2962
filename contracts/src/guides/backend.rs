//! Guides of the codes the backend answers with: revisions, host actions and calls.

use super::GuideText;

pub(super) const STALE_READ: GuideText = GuideText {
    meaning: "You asked to read the session at a revision that is no longer current: a \
            transaction was applied after you last read it (every applied transaction adds one \
            to the revision). Reading at an old revision could make you plan against a project \
            that has changed, so the read is refused. `openfairygui_backend_read_resource_bytes` \
            always checks the revision; `openfairygui_backend_read_session_state` checks it when \
            you pass `expectedRevision`.",
    confirm: "The error carries `expectedRevision` (what you sent) and `actualRevision` \
            (the current one). `openfairygui_backend_get_session` shows the current `revision`, \
            and `openfairygui_backend_get_events` lists the `transaction.applied` events that \
            moved it.",
    fix: "Refresh what you know: call `openfairygui_backend_get_project_outline` and \
            re-query the entities you depend on with `openfairygui_backend_query_entity`, then \
            repeat the read with `expectedRevision` set to the new revision.\n\nDo not just copy \
            `actualRevision` into the old request: whatever you concluded from the old data may \
            no longer hold.",
};

pub(super) const STALE_WRITE: GuideText = GuideText {
    meaning: "The batch was planned at a revision that is no longer current: another \
            transaction was applied to this session after you read it. Preview and apply both \
            require `expectedRevision` to equal the session's revision exactly, so an edit \
            never lands on a project it was not planned for. Nothing was changed.",
    confirm: "Compare `error.expectedRevision` with `error.actualRevision`. \
            `openfairygui_backend_get_events` shows the `transaction.applied` events in between.",
    fix: "Re-read before retrying: `openfairygui_backend_get_project_outline` (its \
            `revision` is current) and `openfairygui_backend_query_entity` for every package, \
            component, node or resource the batch touches. Check that the ids still exist and \
            that the values you meant to change are still what you expected, rebuild the \
            batch, preview it with `openfairygui_backend_preflight_transaction`, then apply it \
            at the new revision.\n\nNever resend the same batch with only the revision number \
            changed.",
};

pub(super) const EVENT_CURSOR_INVALID: GuideText = GuideText {
    meaning: "The `after` cursor given to `openfairygui_backend_get_events` cannot be \
            used: it is not a whole number, it points before the oldest event still kept (the \
            server keeps the latest 1000 events of a session), or it is beyond any event ever \
            sent. Events are a log of what happened to a session (opened, transaction applied \
            or rejected, closed); they never change the project.",
    confirm: "Call `openfairygui_backend_get_events` with the same `sessionId` and no \
            `after`: `oldestSequence` and `currentSequence` in the answer show the range a \
            cursor may take. `error.after` repeats the cursor you sent.",
    fix: "Poll again without `after` and continue from the returned `currentSequence`. \
            If the cursor had expired, events were dropped: assume anything may have changed \
            and re-read the outline and the entities you care about instead of reconstructing \
            the missed events.",
};

pub(super) const SESSION_READ_FAILED: GuideText = GuideText {
    meaning: "`openfairygui_backend_read_session_state` or \
            `openfairygui_backend_read_resource_bytes` refused the read. `error.reason` says \
            why: `invalid_query` (an id is not 1 to 256 characters, or `expectedRevision` is \
            missing), `not_found` or `ambiguous` (no resource, or more than one, has those \
            package and resource ids), `unsupported_resource` (the resource is a component, \
            which has no file bytes to return), `bytes_unavailable` (the asset's file was \
            missing or unreadable when the project was opened), `response_budget_exceeded` \
            (more than one read may return: 4 MiB of model, or 1 MiB of file bytes) or \
            `non_json_value`.",
    confirm: "Read `error.reason` and `error.message`, then check the ids in \
            `openfairygui_backend_get_project_outline` (`packages[].id`, \
            `packages[].resources[].id` and `kind`). For `bytes_unavailable`, \
            `openfairygui_backend_validate_session` lists the same file as `missing_source` or \
            `unreadable_source`.",
    fix: "`not_found`, `ambiguous`, `invalid_query`: use exact ids from the outline. \
            `unsupported_resource`: read the component with \
            `openfairygui_backend_query_entity` (kind `component`, or `displayNode` for its \
            nodes). `response_budget_exceeded`: read one entity at a time with \
            `openfairygui_backend_query_entity`; a file over 1 MiB cannot be read through this \
            server. `bytes_unavailable`: the user has to restore the file on disk, then the \
            session must be closed and the project reopened.",
};

pub(super) const TRANSACTION_PREVIEW_FAILED: GuideText = GuideText {
    meaning: "`openfairygui_backend_preflight_transaction` ran the batch, but the report \
            of what it would change is too large to return (more than 2000 changed entities \
            and files, or more than 256 KiB). This does not mean the batch is wrong. Nothing \
            changed.",
    confirm: "`error.reason` is `response_budget_exceeded` and the message gives the \
            count or the size. Batches that touch many nodes, or that remove or rename a whole \
            package, are the usual cause.",
    fix: "Split the batch into smaller transactions that each change less, preview each \
            one, and apply them one after another, each at the revision the previous apply \
            returned. Keep together the operations that must land together (for example \
            adding a resource and the node that shows it). Do not apply a large batch you \
            could not preview.",
};

pub(super) const ENTITY_QUERY_FAILED: GuideText = GuideText {
    meaning: "`openfairygui_backend_query_entity` refused the query. `error.reason` says \
            why: `invalid_query` (the target's shape is wrong: `kind` must be project, \
            package, resource, component, displayNode, controller or transition, and the \
            selector must have exactly the keys that kind needs, such as `packageId`, \
            `componentResourceId` and `displayNodeId` for a display node), `not_found` (nothing \
            has those ids, or the resource is not a component where one is needed), \
            `ambiguous` (the project has duplicated ids, so several entities match), \
            `response_budget_exceeded` (the entity is larger than 256 KiB) or \
            `non_json_value`.",
    confirm: "Look the ids up in `openfairygui_backend_get_project_outline`: a node's id \
            is in `packages[].resources[].component.displayList[].id`, a controller's name in \
            `…component.controllers[].name`, a transition's in `…component.transitions[].name`. \
            Ids and names are case-sensitive.",
    fix: "Copy exact ids from the outline; never type a node's display name where its id \
            is expected. For `ambiguous`, the project itself has duplicates: \
            `openfairygui_backend_validate_session` reports them, and duplicated ids are \
            safest to fix in the FairyGUI editor. For `response_budget_exceeded`, query \
            something smaller, or read the whole model with \
            `openfairygui_backend_read_session_state`.",
};

pub(super) const SESSION_NOT_FOUND: GuideText = GuideText {
    meaning: "No open session has this id. It was never opened on this server, it was \
            closed with `openfairygui_backend_close_session`, it was closed for being idle \
            (only sessions without unsaved edits are, after 30 minutes by default), it could \
            not be rebuilt after a backend failure, or the server was restarted. Edits that \
            were not saved with `openfairygui_backend_save_session` before are gone.",
    confirm: "`error.sessionId` is the id you sent. `openfairygui_backend_get_session` \
            with that id gives the same error. Session ids come only from \
            `openfairygui_backend_open_session`.",
    fix: "Open the project again with `openfairygui_backend_open_session` and use the new \
            `sessionId`. The new session reads the project from disk at revision 0: saved \
            edits are there, unsaved ones are not; if some were lost, tell the user and plan \
            them again.",
};

pub(super) const INVALID_INPUT: GuideText = GuideText {
    meaning: "The tool's arguments do not match its input schema: a field has the wrong \
            type, a required field is missing, a field the tool does not know was sent, a value \
            is out of range, or the input is over its size budget. The call never reached the \
            project, so nothing was changed and the revision did not move.",
    confirm: "`error.path` is the JSON pointer of the deepest failing field (for example \
            `/operations/0/props/position/x`) and `error.message` says in plain words what it \
            must be and what was sent. For an operation the message names its kind and the URI \
            of that kind's JSON Schema, `openfairygui://contracts/operations/{kind}`; read it \
            with resources/read. The input schema of every tool is at \
            `openfairygui://docs/methods/{method}`.",
    fix: "Correct only the field at `error.path` as the message says and call again with \
            the rest unchanged. Snapshots such as `textProperties` or a controller must be \
            complete: read the entity with `openfairygui_backend_query_entity`, change the \
            fields you need and send the whole snapshot back. Send file bytes as base64 \
            strings in `sourceBytes` only.",
};

pub(super) const UNKNOWN_TOOL: GuideText = GuideText {
    meaning: "No tool of this server has the name that was called. The server serves only \
            the tools it lists; a name from another server, a misspelling \
            or a method name such as `applyTransaction` used as a tool name is refused. Nothing \
            was changed.",
    confirm: "`error.toolName` is the name that was called. The MCP `tools/list` request \
            returns every name this server serves, and `openfairygui://docs/contracts` maps \
            each backend method to its tool.",
    fix: "Call the tool by a name that `tools/list` returns, for example \
            `openfairygui_backend_apply_transaction` for the `applyTransaction` method, with \
            the same arguments.",
};

pub(super) const SESSION_CLOSE_FAILED: GuideText = GuideText {
    meaning: "The session could not let go of the project while closing, so it stays \
            open. Upstream raises this when releasing its lock file fails. This server \
            removes its lock file on close and only logs a failure to do so (the next server \
            recovers a lock whose process is gone), so it does not raise this code; it is \
            listed for compatibility.",
    confirm: "`openfairygui_backend_get_session` with the same id still answers while the \
            session is open.",
    fix: "Retry `openfairygui_backend_close_session` once. If it keeps failing, ask the \
            user to restart the server; save first if the session has edits.",
};

pub(super) const PATH_POLICY_VIOLATION: GuideText = GuideText {
    meaning: "A write was aimed somewhere it may not go, and nothing was written; the edits \
            stay in the session. `error.policy` says which rule: `save_target` (a session \
            opened from disk saves and materializes only into the project it opened, its \
            folder or its `.fairy` file: saving is not Save As) or `materialize_target` (a \
            session opened with `openfairygui_backend_open_project_session` is written by \
            `openfairygui_backend_materialize_session` only into a folder inside the allowed \
            project roots that holds no FairyGUI project yet).",
    confirm: "Compare `error.attemptedPath` (what you sent) with `error.allowedPath`: the \
            project as it was opened, or, for `materialize_target`, the allowed roots.",
    fix: "For `save_target`, save again without `targetPath` (or with the opened project's \
            path); to keep a copy elsewhere, the user copies the project folder with their own \
            tools after saving. For `materialize_target`, name a new folder inside one of the \
            allowed roots (it is created), not one that already holds a `.fairy` file, \
            `assets` or `settings`.",
};

pub(super) const PROJECT_ROOT_NOT_ALLOWED: GuideText = GuideText {
    meaning: "The project path is outside every directory this server may open. The \
            allowed roots are set when the server starts (`--project-dir`, or the \
            `OPENFAIRYGUI_ALLOWED_PROJECT_ROOTS` variable, else the directory it was started \
            in), so an agent cannot read arbitrary folders. Nothing was opened.",
    confirm: "`error.projectPath` is the path you sent. A relative path is resolved \
            against the first allowed root, not against the server's working directory. Ask \
            the user which directories the server was started with.",
    fix: "Use a path inside an allowed root. If the project really lives elsewhere, ask \
            the user to add its directory to the server's configuration (`--project-dir`) and \
            restart the server. Do not copy or move the project to get around the check \
            without the user's say-so.",
};

pub(super) const SESSION_LIMIT_EXCEEDED: GuideText = GuideText {
    meaning: "The server already has as many open sessions as it allows (32 by default, \
            set with `--max-sessions`). Each open project is one session with its own \
            sandboxed backend, so the limit bounds memory.",
    confirm: "`error.maxSessions` gives the limit; `openfairygui_backend_get_capabilities` \
            shows it too, with the idle timeout, in `_meta[\"ofgui/additions\"].serverLimits`.",
    fix: "Close sessions you no longer need with `openfairygui_backend_close_session`, \
            then open again. Closing discards a session's unsaved edits, so do not close one \
            the user is still working in without asking. Sessions without applied edits also \
            close by themselves after being idle. If more projects must be open at once, ask \
            the user to restart the server with a higher `--max-sessions`.",
};

pub(super) const SESSION_ID_CONFLICT: GuideText = GuideText {
    meaning: "The `sessionId` given to `openfairygui_backend_open_project_session` is \
            already the id of an open (or opening) session, so no second session gets it; \
            nothing was opened.",
    confirm: "`error.sessionId` is the id that is taken; \
            `openfairygui_backend_get_session` with it shows the session that has it.",
    fix: "Leave `sessionId` out and use the id the server returns, or choose another one; \
            close the old session first if it is yours and no longer needed.",
};

pub(super) const LOCK_CONFLICT: GuideText = GuideText {
    meaning: "The project is already open elsewhere, so a second session is refused: two \
            sessions could make conflicting edits. `error.kind` says where: \
            `in_process_session_exists` (another session of this server; the project folder \
            and its `.fairy` file count as the same project) or `advisory_lock_conflict` \
            (another server process holds the lock file beside the project, \
            `.<folder>.openfairygui.backend.lock`).",
    confirm: "For `in_process_session_exists`, `error.holderSessionId` is the session that \
            has the project; `openfairygui_backend_get_session` with that id shows whether it \
            has unsaved edits (`dirty`). For `advisory_lock_conflict`, `error.lockFilePath` \
            names the lock file; it records the holding process.",
    fix: "Use the existing session (`holderSessionId`) instead of opening a new one. For \
            another process: ask the user to close that agent or server (a lock left by a \
            process that died is taken over automatically at the next open). Do not delete \
            the lock file yourself while its process may still be editing.",
};

pub(super) const CAPABILITY_UNAVAILABLE: GuideText = GuideText {
    meaning: "The request needs something this server does not offer here, such as \
            publishing, or a save through storage that cannot be written (the project \
            folder is read-only to the server), or a save of a session opened from a \
            document (`openfairygui_backend_open_project_session`), which has no folder yet \
            (`error.capability` is `fileSystem`). Upstream raises it when a required adapter \
            is missing.",
    confirm: "`openfairygui_backend_get_capabilities` lists the served methods and what \
            each supports; `error.capability` names what was missing.",
    fix: "Stay within the capabilities. For a session opened from a document, write it \
            into a new folder first with `openfairygui_backend_materialize_session` and \
            `targetPath`; after that it saves. If the project folder cannot be written, tell \
            the user: the edits stay in the session until it is closed.",
};

pub(super) const UAM_FIDELITY_UNSUPPORTED: GuideText = GuideText {
    meaning: "The session's model cannot be written back to the project files without \
            losing something, so the save is refused and nothing is written. Either some \
            project file could not be read at all when the session opened (the session's \
            `uamFidelity` is `unsupported`), or a save checked its own output and found that \
            a file it would write does not read back as the session's model (`error.file`, \
            `error.field`): a case this server cannot write faithfully.",
    confirm: "`openfairygui_backend_get_session` shows `uamFidelity`; when it is \
            `unsupported`, `openfairygui_backend_validate_session` names the unreadable file \
            (`unreadable_source`). Otherwise `error.file` and `error.field` name what did not \
            read back.",
    fix: "For an unreadable file, ask the user to make it readable, then close and \
            reopen. For a file that does not read back, `openfairygui_backend_materialize_session` \
            writes the project in the editor's canonical layout instead (after validation), \
            or make the edit in the FairyGUI editor. The edits stay in the session.",
};

pub(super) const SAVE_PARTIAL_FAILURE: GuideText = GuideText {
    meaning: "A save did not complete; the session keeps its edits and stays dirty. \
            `error.reason` says why. `changed_on_disk`: files the save would write or remove \
            were changed on disk since the session read them (often by the FairyGUI editor \
            open beside you); nothing was written, so their change is kept. `io`: the disk \
            refused a write; the save is all or nothing, so the disk holds the old project \
            (`diskMayBePartiallyUpdated` false) or, if the failure came after the commit \
            point, the save journal (`recoveryPaths`) completes it at the next open or save.",
    confirm: "`error.conflicts` lists each changed file and how it changed; \
            `failedPaths` names the files that stopped the save, `committedPaths` those already \
            in their new state.",
    fix: "For `changed_on_disk`, do not overwrite someone else's work without asking: \
            tell the user which files changed. To keep their change, call \
            `openfairygui_refresh_session`: it reads the project again and replays your \
            unsaved edits on top (an edit that no longer fits is named), then save. To \
            overwrite on purpose, the user may ask for \
            `openfairygui_backend_materialize_session`. For `io`, ask the user to fix the \
            disk problem (space, permissions, a file locked by another program), then save \
            again.",
};

pub(super) const WRITE_FAILED: GuideText = GuideText {
    meaning: "`openfairygui_backend_materialize_session` could not write the project \
            (disk full, no permission, a file locked by another program). The write is all \
            or nothing like a save; the session is unchanged.",
    confirm: "`error.failedPaths` names what failed, `writtenPaths` what was written, \
            `diskMayBePartiallyUpdated` and `recoveryPaths` whether a journal completes it \
            at the next open.",
    fix: "Ask the user to fix the disk or permission problem, then retry. The edits stay \
            in the session until it is closed.",
};

pub(super) const PROJECT_OPEN_FAILED: GuideText = GuideText {
    meaning: "The project could not be opened. `error.reason` says why: \
            `project_not_found` (no such path), `not_a_project_file` (neither a folder nor a \
            `.fairy` file), `no_project_file` (the folder has no `.fairy` file: it may be a \
            package folder such as `assets/Main` rather than the project root), \
            `multiple_project_files` (more than one `.fairy` file in the folder), \
            `symbolic_link_unsupported` or `hard_link_unsupported` (a project file or folder \
            is a link; the sandbox opens only plain files and folders), `access_denied`, \
            `project_read_failed` (the `.fairy` file is not a readable project description \
            and there are no packages beside it) or `unknown`.",
    confirm: "Read `error.reason`, `error.message` and `error.projectPath`. The project \
            root is the folder that holds `<Name>.fairy` and `assets/` (and usually \
            `settings/`).",
    fix: "Point `projectPath` at the project root or directly at its `.fairy` file; with \
            several `.fairy` files, name the one you want. Links, permissions and unreadable \
            files are fixed on the user's disk (for example by making a linked folder a real \
            folder), so ask the user. Never create or overwrite a `.fairy` file to make a \
            folder open.",
};

pub(super) const MATERIALIZE_VALIDATION_FAILED: GuideText = GuideText {
    meaning: "`openfairygui_backend_materialize_session` rewrites the whole project only \
            when it validates without errors, and it does not; nothing was written. \
            `error.issueCount` counts the errors, which are in `meta.diagnostics`.",
    confirm: "`openfairygui_backend_validate_session` lists the same problems with their \
            model paths.",
    fix: "Fix each reported error (with transactions, or in the FairyGUI editor for \
            problems that came with the project), validate again, then retry. A plain \
            `openfairygui_backend_save_session` does not require a valid project: it only \
            writes what was edited.",
};

pub(super) const NOTHING_TO_UNDO: GuideText = GuideText {
    meaning: "A finding of `transaction_unsupported` from `openfairygui_undo`: the \
            session has no applied batch left to take back. Undo reaches back to the \
            session's first batch, through saves, unless the session let go of its oldest \
            steps to stay within its memory budget, or was rebuilt or recovered (then its \
            history starts at the last save).",
    confirm: "`openfairygui_get_history` shows `undoCount` 0 and what the session did.",
    fix: "Nothing to do if the model is where you want it. To change it further, \
            preview and apply a batch; to go forward again, `openfairygui_redo`.",
};

pub(super) const NOTHING_TO_REDO: GuideText = GuideText {
    meaning: "A finding of `transaction_unsupported` from `openfairygui_redo`: no undone \
            batch is waiting. Only what `openfairygui_undo` took back can be redone, and a \
            batch applied after an undo drops what was undone.",
    confirm: "`openfairygui_get_history` shows `redoCount` 0 and, newest first, the \
            batch that dropped the undone ones.",
    fix: "Apply the edit again as a new batch (preview it first).",
};

pub(super) const PUBLISH_REFUSED: GuideText = GuideText {
    meaning: "`openfairygui_publish` did not write anything because what it would \
            publish would load wrong in the game: an image or sound whose file is missing or \
            unreadable, a package the call named that the project does not have, a package \
            name no file can carry. `error.issueCount` counts the findings, which are in \
            `meta.diagnostics` with the resource or package each is about.",
    confirm: "`openfairygui_backend_validate_session` reports missing files with their \
            paths; `openfairygui_backend_get_project_outline` lists the packages by name \
            and id.",
    fix: "Restore or replace the missing files (a transaction can replace a resource's \
            bytes), or name existing packages, then publish again. A dry run \
            (`dryRun: true`) shows the same findings without writing.",
};

pub(super) const FILE_NAME_COLLISION: GuideText = GuideText {
    meaning: "A finding of `publish_refused`: a Spine or DragonBones skeleton's files \
            are published under their own names (no `<Package>_` prefix), and this one \
            would share its name with a file another package publishes into the same \
            output directory, or be named like another package's files (which that \
            package's next publish would remove). The finding's path is \
            `<Package>/<skeletonResourceId>`.",
    confirm: "A dry run (`dryRun: true`) lists each package's files; look for the \
            name in two packages, or a name that starts with another package's name and an underscore.",
    fix: "Rename the skeleton's files in one package (a transaction can rename \
            resources), or keep the skeleton in one package and use it from there, then \
            publish again.",
};
