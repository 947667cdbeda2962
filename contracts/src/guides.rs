//! The diagnostic guides: for each catalog code, what it means for a FairyGUI project, how
//! to confirm it and how to fix it, in plain words for agents and UI designers.
//!
//! The catalog ([`crate::catalog`]) keeps the one-line remediation that travels with every
//! diagnostic; these longer texts are only served at `openfairygui://docs/diagnostics/{code}`.
//! They live apart from the catalog table so the two can change independently. The match
//! below is exhaustive, so a new catalog code does not compile until it has a guide.
//!
//! House rules for the texts: describe what this server really does (including codes it
//! never raises), name tools by their MCP names, fix the safe way first, and never advise
//! deleting or replacing a file that exists and is valid.

use crate::catalog::DiagnosticCode;

/// The long-form guide of one diagnostic code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GuideText {
    /// What is wrong, in FairyGUI terms.
    pub meaning: &'static str,
    /// How an agent or a designer checks it: which tool with which ids, or where to look
    /// in the FairyGUI editor.
    pub confirm: &'static str,
    /// The fix, safe steps first; for transaction codes, how to revise the operation.
    pub fix: &'static str,
}

/// The guide text of a code given as it crosses the wire (`stale_write`), if the code is in
/// the catalog.
pub fn for_code(code: &str) -> Option<&'static GuideText> {
    DiagnosticCode::ALL
        .iter()
        .find(|typed| typed.as_str() == code)
        .map(|typed| text(*typed))
}

/// The guide text of a catalog code.
pub fn text(code: DiagnosticCode) -> &'static GuideText {
    use DiagnosticCode as C;
    match code {
        // ------------------------------------------------------------ backend: revisions
        C::StaleRead => &GuideText {
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
        },
        C::StaleWrite => &GuideText {
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
        },
        C::EventCursorInvalid => &GuideText {
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
        },
        // --------------------------------------------------------- backend: host actions
        C::SessionReadFailed => &GuideText {
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
        },
        C::TransactionPreviewFailed => &GuideText {
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
        },
        C::EntityQueryFailed => &GuideText {
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
        },
        C::SessionNotFound => &GuideText {
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
        },
        // ------------------------------------------------------------ backend: calls
        C::InvalidInput => &GuideText {
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
        },
        C::UnknownTool => &GuideText {
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
        },
        C::SessionCloseFailed => &GuideText {
            meaning: "The session could not let go of the project while closing, so it stays \
                open. Upstream raises this when releasing its lock file fails. This server \
                removes its lock file on close and only logs a failure to do so (the next server \
                recovers a lock whose process is gone), so it does not raise this code; it is \
                listed for compatibility.",
            confirm: "`openfairygui_backend_get_session` with the same id still answers while the \
                session is open.",
            fix: "Retry `openfairygui_backend_close_session` once. If it keeps failing, ask the \
                user to restart the server; save first if the session has edits.",
        },
        C::PathPolicyViolation => &GuideText {
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
        },
        C::ProjectRootNotAllowed => &GuideText {
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
        },
        C::SessionLimitExceeded => &GuideText {
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
        },
        C::SessionIdConflict => &GuideText {
            meaning: "The `sessionId` given to `openfairygui_backend_open_project_session` is \
                already the id of an open (or opening) session, so no second session gets it; \
                nothing was opened.",
            confirm: "`error.sessionId` is the id that is taken; \
                `openfairygui_backend_get_session` with it shows the session that has it.",
            fix: "Leave `sessionId` out and use the id the server returns, or choose another one; \
                close the old session first if it is yours and no longer needed.",
        },
        C::LockConflict => &GuideText {
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
        },
        C::CapabilityUnavailable => &GuideText {
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
        },
        C::UamFidelityUnsupported => &GuideText {
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
        },
        C::SavePartialFailure => &GuideText {
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
        },
        C::WriteFailed => &GuideText {
            meaning: "`openfairygui_backend_materialize_session` could not write the project \
                (disk full, no permission, a file locked by another program). The write is all \
                or nothing like a save; the session is unchanged.",
            confirm: "`error.failedPaths` names what failed, `writtenPaths` what was written, \
                `diskMayBePartiallyUpdated` and `recoveryPaths` whether a journal completes it \
                at the next open.",
            fix: "Ask the user to fix the disk or permission problem, then retry. The edits stay \
                in the session until it is closed.",
        },
        C::ProjectOpenFailed => &GuideText {
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
        },
        C::MaterializeValidationFailed => &GuideText {
            meaning: "`openfairygui_backend_materialize_session` rewrites the whole project only \
                when it validates without errors, and it does not; nothing was written. \
                `error.issueCount` counts the errors, which are in `meta.diagnostics`.",
            confirm: "`openfairygui_backend_validate_session` lists the same problems with their \
                model paths.",
            fix: "Fix each reported error (with transactions, or in the FairyGUI editor for \
                problems that came with the project), validate again, then retry. A plain \
                `openfairygui_backend_save_session` does not require a valid project: it only \
                writes what was edited.",
        },
        C::NothingToUndo => &GuideText {
            meaning: "A finding of `transaction_unsupported` from `openfairygui_undo`: the \
                session has no applied batch left to take back. Undo reaches back to the \
                session's first batch, through saves, unless the session let go of its oldest \
                steps to stay within its memory budget, or was rebuilt or recovered (then its \
                history starts at the last save).",
            confirm: "`openfairygui_get_history` shows `undoCount` 0 and what the session did.",
            fix: "Nothing to do if the model is where you want it. To change it further, \
                preview and apply a batch; to go forward again, `openfairygui_redo`.",
        },
        C::NothingToRedo => &GuideText {
            meaning: "A finding of `transaction_unsupported` from `openfairygui_redo`: no undone \
                batch is waiting. Only what `openfairygui_undo` took back can be redone, and a \
                batch applied after an undo drops what was undone.",
            confirm: "`openfairygui_get_history` shows `redoCount` 0 and, newest first, the \
                batch that dropped the undone ones.",
            fix: "Apply the edit again as a new batch (preview it first).",
        },
        C::PublishRefused => &GuideText {
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
        },
        C::FileNameCollision => &GuideText {
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
        },
        // ------------------------------------------------------- transaction: selectors
        C::InvalidPackageSelector => &GuideText {
            meaning: "An operation names a package id that the project does not have at that \
                point of the batch. Packages are identified by their id (8 letters and digits such \
                as `a9lkf94s`), not by their folder name. This code is used where the package \
                itself is the target: package settings, renaming or removing a package, and the \
                package that an added resource or component goes into or a component moves to.",
            confirm: "The issue's `path` says which field (for example \
                `operations[0].selector.packageId` or `operations[0].toPackageId`). \
                `openfairygui_backend_get_project_outline` lists `packages[].id` with their \
                names.",
            fix: "Copy the id from the outline. If `addPackage` creates the package in the same \
                batch, put it earlier. If an earlier operation of the batch removes or replaces \
                it, reorder the operations or drop one of them.",
        },
        C::InvalidComponentSelector => &GuideText {
            meaning: "An operation names a component that does not exist, or the id belongs to a \
                resource that is not a component (an image, a sound, …). In FairyGUI a component \
                is an `.xml` resource of a package; its display list, controllers and transitions \
                live inside it. A missing package in a component selector is reported with this \
                code too.",
            confirm: "In `openfairygui_backend_get_project_outline`, find the package and a \
                resource with `kind: \"component\"`: `componentResourceId` is that resource's `id`, \
                not its name or file name. `openfairygui_backend_query_entity` with kind \
                `component` confirms it.",
            fix: "Use the component's resource id from the outline. If `addComponent` creates it \
                in the same batch, keep that operation earlier. If the id belongs to an image or \
                another asset, use the resource operations instead.",
        },
        C::InvalidResourceSelector => &GuideText {
            meaning: "An operation names a resource that the package does not have, or one of the \
                wrong kind for that operation (for example `setImageResourceProps` on a sound). \
                Resources are the items of a package's library: images, movie clips, sounds, \
                fonts, components and so on. A missing package in a resource selector is \
                reported with this code too.",
            confirm: "`openfairygui_backend_get_project_outline` lists each package's \
                `resources[]` with `id`, `name`, `kind` and `path`. \
                `openfairygui_backend_query_entity` with kind `resource` and selector \
                `{packageId, resourceId}` shows one resource's fields.",
            fix: "Use the resource's id (not its name or file name) in the right package, and an \
                operation that fits its kind. If the resource is added or removed earlier in the \
                batch, check the order.",
        },
        C::InvalidDisplayNodeSelector => &GuideText {
            meaning: "An operation names a display node that the component does not have at that \
                point of the batch, or `attachDisplayNode` brings a node whose id another element \
                of the component already uses. A display node is one object on a component's stage \
                (an image, a text, a loader, a list, an instance of another component such as a \
                button, …). Also raised when, after the batch, a controller action targets a node \
                that does not exist. A legacy `<swf>` element is kept in the file but not modeled: \
                its id counts as taken, and selecting it is refused with a message that says so.",
            confirm: "`openfairygui_backend_get_project_outline` shows each component's \
                `displayList[]` with `id`, `name` and `kind`; node ids look like `n12_abcd` and \
                are case-sensitive. The issue message lists the ids in use. \
                `openfairygui_backend_query_entity` with kind `component` shows \
                `unsupportedNodes`, the elements kept unmodeled.",
            fix: "Select nodes by `id`, not by name. When attaching, give the new node an id that \
                is not in the list (nor among `unsupportedNodes`). If the node is attached or \
                detached earlier in the same batch, check the order of the operations. An \
                unmodeled `<swf>` element can only be edited in the FairyGUI editor.",
        },
        C::InvalidResourceFolderSelector => &GuideText {
            meaning: "An operation names a library folder that the package does not have on that \
                branch, or writes its path in a form that is not canonical. A folder is selected \
                by package, branch (`''` for the main branch) and a path such as \
                `/icons/buttons/`, with a slash at both ends; the package root `/` is not a \
                folder.",
            confirm: "`openfairygui_backend_get_project_outline` lists each package's `folders[]` \
                as `{branch, path}`. The issue message lists the folders that exist.",
            fix: "Copy `path` and `branch` from the outline. Create a missing folder with \
                `addResourceFolder` (parents first) earlier in the batch.",
        },
        C::InvalidBranchSelector => &GuideText {
            meaning: "An operation names a branch that the project does not have. Branches are \
                FairyGUI's alternative sets of resources (for example per language or platform); \
                each lives in an `assets_<branch>/` folder beside `assets/`.",
            confirm: "`openfairygui_backend_get_project_outline` lists the project's `branches` \
                at the top level; names are case-sensitive.",
            fix: "Use a name from that list, or create the branch with `addBranch` earlier in the \
                batch.",
        },
        C::InvalidGearSelector => &GuideText {
            meaning: "A gear operation names a gear that is not on the node at this point of the \
                batch, uses an unknown gear kind, or names a controller the component does not \
                have. A gear ties one property of a display node (visibility, position, size, \
                look, colour, animation, text, icon, font size) to the pages of a controller of \
                the same component. Gears are selected by node, `kind` and `controllerName`; the \
                look-gear operations also need `kind: \"look\"`. Also raised when a node being \
                attached brings gears for a controller the component does not have.",
            confirm: "`openfairygui_backend_query_entity` with kind `displayNode` shows the node's \
                `gears[]`, each with its `kind` and `controllerName`. The outline lists the \
                component's `controllers[].name`.",
            fix: "To change or remove a gear, use the kind and controller of an existing one; to \
                create a gear, use `addGear` (or `addLookGear`). Add a missing controller with \
                `addController` earlier in the batch. The gear kinds are display, display2, look, \
                xy, size, color, animation, text, icon and fontSize.",
        },
        C::InvalidLookGearSelector => &GuideText {
            meaning: "Reserved for a look-gear selector that matches no gear. (A look gear sets a \
                node's alpha, rotation, grayed and touchable per controller page.) This server \
                reports that case as `invalid_gear_selector`, and upstream never raises this code \
                either; it is listed so that agents keying on it find a guide.",
            confirm: "`openfairygui_backend_query_entity` with kind `displayNode`: look for a gear \
                with `kind: \"look\"` and the controller you named.",
            fix: "As for `invalid_gear_selector`: use `updateLookGear` or `removeLookGear` only on \
                an existing look gear for that controller, and create one with `addLookGear`.",
        },
        C::SelectorAmbiguity => &GuideText {
            meaning: "A selector matches more than one thing, so the operation cannot know which \
                one to change. Ids are normally unique, but older or hand-edited projects can hold \
                two controllers or transitions with the same name, two nodes or resources with the \
                same id, or a node with two gears of one kind for the same controller. The whole \
                batch was refused; nothing changed.",
            confirm: "The issue message says what is duplicated and where. \
                `openfairygui_backend_validate_session` reports the project's duplicates \
                (`invalid_uam`, `duplicate_resource_id`, `duplicate_package_id`).",
            fix: "Remove the duplication first. Duplicated ids, and controllers or transitions \
                with the same name, are safest to fix in the FairyGUI editor (operations that \
                select them by the same name or id would be ambiguous too). For a node with \
                duplicated gears, query the node, then detach it and attach it again with one gear \
                per kind and controller, in one batch. Never pick one of the duplicates by \
                guessing.",
        },
        // ----------------------------------------------------- transaction: unsupported
        C::UnsupportedOperation => &GuideText {
            meaning: "The operation's `kind` is not one of the 41 operations. This server catches \
                an unknown kind earlier, when the request is decoded, and answers `invalid_input` \
                with the path of the bad operation; this code is listed for compatibility.",
            confirm: "The operation catalog `openfairygui://contracts/operations` lists every kind \
                with a description; `openfairygui://contracts/operations/{kind}` gives one kind's \
                schema.",
            fix: "Use a listed kind with exactly the fields its schema gives; unknown fields are \
                refused as well.",
        },
        C::TransactionUnsupported => &GuideText {
            meaning: "The batch was refused and nothing changed. This is the error of a refused \
                transaction as a whole: `error.issues` (and `meta.diagnostics`) list every problem \
                found, each with its own code (such as `invalid_display_node_selector`), the \
                operation's index (`opIndex`, plus `opId` if you set one) and the `path` of the \
                field at fault. Problems that only show on the batch's final state (a reference \
                left dangling) are listed against the operation that caused them.",
            confirm: "Send the same batch to `openfairygui_backend_preflight_transaction`: it \
                returns the same issues without changing anything. Each issue's code has its own \
                guide at `openfairygui://docs/diagnostics/{code}`.",
            fix: "Fix every listed issue, not only the first (the batch is all or nothing), then \
                preview again before applying. If the issues show that the batch was planned on \
                outdated information, re-read the outline and the entities first.",
        },
        C::UnsupportedDisplayNodeKind => &GuideText {
            meaning: "Reserved for a display node kind that transactions cannot handle. All 18 \
                node kinds (image, text, richText, textInput, component, list, tree, graph, group, \
                loader, loader3D, movieClip, button, label, comboBox, progressBar, slider, \
                scrollBar) are supported here, so this server does not raise this code; an unknown \
                kind is refused as `invalid_input` when the request is decoded.",
            confirm: "`openfairygui_backend_get_capabilities` lists the node kinds that \
                transactions accept.",
            fix: "Use one of the listed kinds with the fields its schema gives \
                (`openfairygui://contracts/operations/attachDisplayNode`).",
        },
        C::UnsupportedCrossPackageImageRef => &GuideText {
            meaning: "An image node would show an image from another package. In FairyGUI an image \
                object on a component's stage can only use an image of the component's own \
                package; content from another package is shown through a loader (by its `ui://` \
                address) or inside an instance of a component of that package.",
            confirm: "The issue's `path` ends in `resource.packageId`. \
                `openfairygui_backend_get_project_outline` shows which package holds the image and \
                which holds the component.",
            fix: "Leave `resource.packageId` empty (or set it to the component's own package) and \
                choose an image of this package. To reuse an image from another package, use a \
                loader node whose `url` is the image's `ui://` address, or, if the user wants a \
                copy, add one to this package with `addResource`. The original image stays where \
                it is.",
        },
        C::UnsupportedGearKind => &GuideText {
            meaning: "Reserved for a gear kind that transactions cannot handle. All 10 gear kinds \
                (display, display2, look, xy, size, color, animation, text, icon, fontSize) are \
                supported here, so this server does not raise this code. An unknown kind in a gear \
                payload is refused as `invalid_input` when the request is decoded; an unknown kind \
                in a gear selector is `invalid_gear_selector`.",
            confirm: "`openfairygui_backend_get_capabilities` lists the gear kinds that \
                transactions accept.",
            fix: "Use one of the listed kinds, spelled exactly (for example `fontSize`, `xy`).",
        },
        C::UnsupportedResourceMutation => &GuideText {
            meaning: "The operation cannot change this resource the way it was asked: \
                `replaceResourceBytes` or `removeResource` on a component (components have no \
                asset file; they are edited through their content and removed with \
                `removeComponent`); renaming or moving a branch variant on its own (a variant must \
                keep the folder and file name of its main resource); or `replaceResourceBytes` on \
                an image stored as anything but `.png`, `.jpg` or `.jpeg`, such as an SVG.",
            confirm: "The issue's `resourceKind` and message say which case it is. \
                `openfairygui_backend_query_entity` with kind `resource` shows the resource's \
                `kind`, `branch` and file name.",
            fix: "For components, use `removeComponent`, `setComponentProps` and the display-node \
                operations. For a variant, rename or move its main resource (the one on the main \
                branch); the variants follow. An SVG image's file cannot be replaced through this \
                server; ask the user to update it in the FairyGUI editor.",
        },
        C::UnsupportedDisplayNodeMutation => &GuideText {
            meaning: "Reserved for an operation that cannot change a kind of display node at all. \
                Every node kind can be edited here (a field that a kind does not have is \
                `unsupported_display_node_field`), so this server does not raise this code.",
            confirm: "`openfairygui_backend_query_entity` with kind `displayNode` shows the node's \
                `kind` and fields.",
            fix: "Use `setDisplayNodeProps` with fields that belong to the node's kind; see the \
                guide of `unsupported_display_node_field`.",
        },
        C::UnsupportedTextFieldTarget => &GuideText {
            meaning: "Text fields (the `text`, `font`, `fontSize` or `color` shortcuts of \
                `setDisplayNodeProps`, or a `textProperties` snapshot) were sent to a node that \
                does not take them: only text, rich text and text input nodes take them all. A \
                component instance (a button or label on a stage) takes `text`, `color` and \
                `fontSize` as its title's, but not `font` or `textProperties`: its title is drawn \
                in its component's font.",
            confirm: "`openfairygui_backend_query_entity` with kind `displayNode` shows the node's \
                `kind`; the issue's `path` names the key.",
            fix: "For a button or label instance (a `component` node) send `text` (its title), \
                or a partial `componentInstanceProperties` such as `{\"selectedTitle\": \"Off\"}`. \
                Changing the text node inside the button's own component instead changes every \
                instance of that button, so do that only when it is what the user wants.",
        },
        C::UnsupportedDisplayNodeField => &GuideText {
            meaning: "A node gets a field that its kind does not have: a per-kind snapshot on the \
                wrong kind (such as `loaderProperties` on an image), `group` on a loader or \
                loader3D (those cannot be in a group), text-input fields (`promptText`, \
                `maxLength`, `restrict`, `password`, `keyboardType`) on a plain text node, \
                `demoText`-style fields on a rich text node, or tree fields on a list.",
            confirm: "`openfairygui_backend_query_entity` with kind `displayNode` shows the node's \
                `kind` and current fields; the message names the snapshot key of that kind. The \
                schema `openfairygui://contracts/operations/setDisplayNodeProps` lists every key.",
            fix: "Send the snapshot that belongs to the node's kind (`imageProperties`, \
                `textProperties`, `loaderProperties`, `listProperties`, …) or only base fields \
                (position, size, alpha, visible, …). A node cannot change its kind; a node of \
                another kind is a new node, and replacing one is a design decision for the user.",
        },
        C::UnsupportedOperationBatch => &GuideText {
            meaning: "Operations that create, rename or remove whole branches, packages or \
                components may only share a batch with operations that naturally go with them: \
                adding or removing resources and folders, attaching and detaching nodes, and \
                `setDisplayNodeProps`. Anything else in the same batch (settings, resource renames \
                and moves, controllers, transitions, gears, component props, …) is refused, so \
                that big structural changes stay easy to review.",
            confirm: "Each refused operation has an issue at `operations[i].kind`.",
            fix: "Split the work into two transactions: the lifecycle batch with only its allowed \
                companions, and the other operations in a second batch at the next revision (or \
                the other way round when they must come first). Preview each.",
        },
        C::UnsupportedResourceKind => &GuideText {
            meaning: "Two uses. In a transaction, `addResource` was given a component: components \
                are added with `addComponent`, which carries the component's model rather than \
                file bytes. In validation, a `package.xml` declares a resource with an element \
                this server does not know (a warning): that resource is skipped, so it is not in \
                the outline and cannot be edited here, but nothing on disk is touched.",
            confirm: "Transaction: the issue is at `operations[i].resource.kind`. Validation: \
                `openfairygui_backend_validate_session` shows the warning with the package and \
                the element's name; the FairyGUI editor shows the item in that package's library.",
            fix: "Use `addComponent` for components and `addResource` for image, sound, misc, \
                font, movieClip, spine and dragonBones files. Leave an unknown element in \
                `package.xml` alone (it may come from a newer editor or a plugin) and manage that \
                resource in the FairyGUI editor.",
        },
        // -------------------------------------------------------- transaction: payloads
        C::InvalidProjectSettings => &GuideText {
            meaning: "`updateProjectSettings` replaces all project settings (the files in \
                `settings/`: Publish, Common, Adaptation, CustomProperties and i18n) with the \
                snapshot sent, and that snapshot has a value of the wrong type: `publish`, \
                `common` or `adaptation` that is not an object, text where a number is expected \
                (or the reverse), `customProperties` that is not an object, `i18n.langFiles` that \
                is not a list of `{name, path}`, or a number that is not finite. `null` leaves a \
                field unset, and a field the project already holds with the wrong type may be sent \
                back as it is (validation reports it as a warning); only new mistakes are refused.",
            confirm: "The issue's `path` points at the value (for example \
                `settings.publish.path`). `openfairygui_backend_query_entity` with kind `project` \
                returns the current `settings` to compare with.",
            fix: "Query the current settings, change only what you mean to, and send the whole \
                object back: a section you leave out is removed. Keys you do not know are kept as \
                they are.",
        },
        C::InvalidPackageSettings => &GuideText {
            meaning: "The package settings (one package's compression and publish options, as in \
                the editor's package properties) sent with `updatePackageSettings` or inside \
                `addPackage` are not a complete, valid snapshot. Typical causes: a missing key \
                (the snapshot needs `compressPNG`, `jpegQuality` and `publish`, with every publish \
                field), `jpegQuality` outside 1..100, an unsafe publish name or an absolute \
                publish path, `maxAtlasSize` outside 1..16384, an atlas index that repeats or \
                exceeds `maxAtlasIndex`, or an excluded resource id with unusual characters. \
                `updatePackageSettings` refuses only problems the package did not have before; \
                validation reports the ones it has as warnings.",
            confirm: "The issue's `path` and `field` name the value. \
                `openfairygui_backend_query_entity` with kind `package` returns the current \
                `settings` in exactly the expected shape.",
            fix: "Start from the queried settings, change the values you need, and send the \
                complete object. Publish paths are relative to the project (they may lead out of \
                it with `..`, as real projects publish beside it), never absolute or with a drive \
                letter.",
        },
        C::InvalidDisplayNodePayload => &GuideText {
            meaning: "A value sent for a display node is out of range or incomplete; the issue's \
                `field` says which. Examples: alpha outside 0..1, a negative size, a `maxSize` \
                smaller than `minSize` (0 means no limit), a colour that is not `#rrggbb` or \
                `#rrggbbaa`, a font size below 1, a per-kind snapshot missing some of its fields, \
                text shortcuts mixed with a `textProperties` snapshot, or a node attached with an \
                empty id.",
            confirm: "`openfairygui_backend_query_entity` with kind `displayNode` returns the node \
                in full, in the same shape the snapshots use. The schema \
                `openfairygui://contracts/operations/setDisplayNodeProps` gives each field's type.",
            fix: "Correct the value named by `field`. For a per-kind snapshot such as \
                `textProperties`, query the node, edit the fields you need and send the snapshot \
                complete. For a small change, the base fields or the text shortcuts on their own \
                are simpler.",
        },
        C::InvalidResourceName => &GuideText {
            meaning: "The new name given to `renameResource` cannot be used. A resource's name is \
                its file name in the package folder (for a component, the name without `.xml`). \
                Refused: `/`, `\\` or `:` in the name, `.` or `..`, leading or trailing spaces, a \
                trailing dot, Windows device names (con, nul, com1, …), `package.xml`, a name that \
                another resource in the same folder already uses (letter case is ignored, as on \
                Windows and macOS disks), and a new extension that would change how an image is \
                read (PNG or JPEG versus SVG).",
            confirm: "The issue message says which rule. \
                `openfairygui_backend_get_project_outline` shows the names of the other resources \
                with the same `path`.",
            fix: "Choose another name. Send it without an extension to keep the current one \
                (`hero` keeps `hero.png`).",
        },
        C::InvalidResourcePath => &GuideText {
            meaning: "The folder given to `moveResource` (`toPath`) or to `addResource` \
                (`resource.path`) is not a usable library folder: it is not written as `/` or \
                `/a/b/`, has an unsafe part, does not exist in the package on that branch, or the \
                resource's file would clash there with another resource's file (letter case \
                ignored).",
            confirm: "`openfairygui_backend_get_project_outline` lists each package's `folders[]` \
                and the `path` of every resource.",
            fix: "Use `/` for the package root or an existing folder from the outline, written \
                with a slash at both ends. Create a missing folder with `addResourceFolder` \
                earlier in the same batch. On a clash, rename one of the two resources first, or \
                choose another folder.",
        },
        C::InvalidResourceFolderPath => &GuideText {
            meaning: "A folder path or name cannot be used: `addResourceFolder` with a path that \
                is not canonical (`/a/b/`), is the root `/`, names a branch the project does not \
                have, or has no parent folder yet; `renameResourceFolder` with an unsafe name; or \
                `moveResourceFolder` to a destination that is not canonical, does not exist, or \
                lies inside the folder itself.",
            confirm: "The outline lists each package's `folders[]` and the project's `branches`; \
                the issue message names the missing parent or branch.",
            fix: "Write folders as `/parent/child/`. Create parents before children in the same \
                batch. Use `''` for the main branch, or create the branch with `addBranch` first.",
        },
        C::InvalidResourceFolderAtlas => &GuideText {
            meaning: "The atlas given to a folder is not allowed. In FairyGUI a folder can send \
                its images to a particular texture atlas when the package is published: `''` means \
                no particular atlas; otherwise it is a slot number from 0 to the package's \
                `maxAtlasIndex` (10 unless the package's publish settings say otherwise), written \
                as plain digits.",
            confirm: "`openfairygui_backend_query_entity` with kind `package` shows the package's \
                publish settings, including `maxAtlasIndex`.",
            fix: "Use `''` or a slot within range, without sign or leading zeros (`3`, not `03`). \
                A higher slot needs a higher `maxAtlasIndex`, set with `updatePackageSettings` \
                earlier in the same batch; check with the user first, since it changes how the \
                package is published.",
        },
        C::InvalidAttachIndex => &GuideText {
            meaning: "The `atIndex` of `attachDisplayNode` is past the end of the component's \
                display list. The display list is the stage's stacking order (index 0 is at the \
                back); the index may go from 0 to the number of nodes, and that number puts the \
                new node in front of all others.",
            confirm: "Count the component's `displayList` in \
                `openfairygui_backend_get_project_outline`, taking the batch's earlier attaches and \
                detaches into account.",
            fix: "Use an index between 0 and the list's length. To put a node just above or below \
                another node, use that node's position in the outline's list.",
        },
        C::InvalidControllerPayload => &GuideText {
            meaning: "A controller operation cannot be done as sent. A controller is a component's \
                state switch with pages (for example up, down and over for a button); gears and \
                actions react to its pages. Causes: the snapshot's `name` differs from the \
                selector's `controllerName`; no pages, or empty or repeated page ids; \
                `selectedIndex` out of range; a broken home-page rule (`homePage` is a page id for \
                `specific`, a key for `variable`, empty otherwise); an action naming pages that do \
                not exist; `addController` with a name already taken; `updateController` or \
                `removeController` for a controller that does not exist. Judged on the final state \
                of the batch: after `removeController`, gears or nodes (a list's page or selection \
                controller, a button's controller) still naming it; after `updateController`, \
                gears still using a page id it drops; an action that would play a transition the \
                component lacks (also when `removeTransition` removes one an action plays). \
                Problems the controller already had do not block an edit; only new ones do.",
            confirm: "`openfairygui_backend_query_entity` with kind `controller` returns the \
                controller in snapshot form; the outline lists the component's `controllers[]` \
                with their pages. Nodes that use it show it in `gears[].controllerName`, \
                `pageController`, `selectionController` or a button instance's `controller`. A \
                message starting with \"After the batch:\" names what still uses it.",
            fix: "Query the controller, edit the snapshot, and send it complete with `name` equal \
                to `controllerName`. To rename a page, change its `name` and keep its `id`, so the \
                gears keep working. Before removing a controller, remove the gears that use it \
                (`removeGear`, `removeLookGear`) and clear the node fields that name it \
                (`setDisplayNodeProps`), in the same batch, before or after the removal. Use \
                `addController` for a new name and `updateController` for an existing one.",
        },
        C::InvalidTransitionPayload => &GuideText {
            meaning: "A transition operation cannot be done as sent. A transition is a component's \
                timeline animation (moves, fades, colour changes, sounds, …). Causes: the \
                snapshot's `name` differs from the selector's `transitionName`; `updateTransition` \
                or `removeTransition` names a transition that does not exist; or, judged on the \
                final state of the batch, an item animates a node the component does not have, has \
                an `actionType` or `easeType` FairyGUI does not know, a negative `time` or \
                `duration`, an action this server does not know (`actionType` 16 with \
                `actionTypeName`) or an `actionTypeName` beside a known action, or the batch \
                detaches a node a transition animates. Items the transition already had that way \
                may stay (validation reports them); only new ones are refused.",
            confirm: "`openfairygui_backend_query_entity` with kind `transition` returns the \
                transition; the outline lists the component's `transitions[]` and the \
                `displayList` ids that items may target. `openfairygui_backend_validate_session` \
                lists the items already reported.",
            fix: "Query the transition, edit its items and send the snapshot complete, keeping \
                items you do not mean to change as they are (an item with `actionTypeName` keeps \
                it). Target nodes by id (`''` targets the component itself); use the action \
                numbers 0 to 15. Before detaching an animated node, drop or re-target its items in \
                the same batch. Use `addTransition` for a new name.",
        },
        C::InvalidLookGearPayload => &GuideText {
            meaning: "Reserved for a look-gear payload that is not valid. This server reports \
                problems in look-gear payloads as `invalid_gear_payload`, as upstream does in \
                practice, so it does not raise this code.",
            confirm: "`openfairygui_backend_query_entity` with kind `displayNode` shows the \
                node's gears, including its look gears.",
            fix: "See `invalid_gear_payload`: keep `kind` and `controllerName` equal to the \
                selector and name only page ids the controller has.",
        },
        C::InvalidGearPayload => &GuideText {
            meaning: "A gear sent with `addGear` or `updateGear` (or their look variants) does not \
                fit: its `kind` or `controllerName` differs from the selector; it names page ids \
                the controller does not have; a `display` gear has a `condition` (only `display2` \
                has one) or a `display2` condition is not `\"0\"` or `\"1\"`; a page value or the \
                `defaultValue` has the wrong shape for the gear's kind; `easeType` is outside \
                0..31; or a tween time is negative. Gears name controller pages by page id, not by \
                page name. Judged on the final state: a gear must fit its node as the FairyGUI \
                runtime applies it. Color, animation and fontSize gears on a node without that \
                property make the runtime fail building the node; text and icon gears on a node \
                without text or icon do nothing. Such a gear may not be added (also when attaching \
                a node); one the project already has may stay.",
            confirm: "`openfairygui_backend_query_entity` with kind `controller` shows the \
                controller's `pages[]` (id and name); with kind `displayNode`, the node's `kind` \
                and existing gears show which gears it has and the value shapes. A message \
                starting with \"After the batch:\" names the node and the gear kind it cannot \
                take.",
            fix: "Use page ids from the controller. Copy the value shape from an existing gear of \
                the same kind. Keep `kind` and `controllerName` equal to the selector. Use only \
                gear kinds the node can take: color on images, texts, graphs, loaders, movie \
                clips, buttons and labels; animation on loaders and movie clips; fontSize on \
                texts, buttons and labels; text and icon where the node shows one.",
        },
        C::InvalidResourcePayload => &GuideText {
            meaning: "A resource value is not valid, or the batch would leave a new structural \
                problem. Direct causes: `setImageResourceProps` with an incomplete or out-of-range \
                image snapshot (quality 0..100, a nine-grid `[x, y, width, height]` when the \
                scaling is nine-grid, a tile grid index 0..31, …), or `addResource` with an empty \
                id, an unsafe file name, or image or movie clip fields out of range. Indirect \
                cause: after the batch, something it touched breaks a rule that held before, such \
                as a relation or a controller action pointing at a node the batch detaches; the \
                message then starts with \"After the batch:\".",
            confirm: "The issue's `path` points at the field, or at the operation blamed for an \
                after-the-batch problem. `openfairygui_backend_query_entity` with kind `resource` \
                returns an image's current `image` block.",
            fix: "Direct: send complete, in-range values, starting from the queried snapshot. \
                After the batch: add operations that repair what the batch breaks (re-point the \
                relation or action) or drop the operation that causes it.",
        },
        C::InvalidResourceBytes => &GuideText {
            meaning: "The file bytes sent with `replaceResourceBytes`, `addResource` or \
                `addPackage` cannot be used for that resource: they are empty, are not a PNG or a \
                JPEG, are a PNG where the image's file name says JPEG (or the reverse), or the \
                picture data is damaged (bad checksums, truncated data).",
            confirm: "The issue message says which check failed. \
                `openfairygui_backend_query_entity` with kind `resource` shows the image's file \
                name. A PNG starts with the bytes 137 80 78 71, a JPEG with 255 216.",
            fix: "Send the complete file, as base64 or as integers 0..255, in the format its file \
                name says. To switch a `.jpg` image to PNG data, rename it to a `.png` name with \
                `renameResource` earlier in the same batch, then replace the bytes.",
        },
        C::InvalidMovieClipJta => &GuideText {
            meaning: "The bytes sent for a movie clip are not a readable `.jta` file, FairyGUI's \
                movie clip format (versions 100 to 102). The `.jta` holds the frames and timing, \
                so a movie clip cannot be added or updated without a valid one.",
            confirm: "The issue is at the operation's `sourceBytes`. A `.jta` is produced by the \
                FairyGUI editor when a movie clip is created or imported; \
                `openfairygui_backend_read_resource_bytes` on an existing clip shows one.",
            fix: "Send the bytes of a `.jta` file saved by the FairyGUI editor. Other animation \
                formats (GIF, sprite sheets) have to be imported in the editor first.",
        },
        C::InvalidResourceIndex => &GuideText {
            meaning: "The `atIndex` of `addResource` is past the end of the package's resource \
                list. The index only sets the resource's position in that list; it has no visual \
                effect.",
            confirm: "Count the package's `resources[]` in \
                `openfairygui_backend_get_project_outline`, taking the batch's earlier additions \
                and removals into account.",
            fix: "Use 0 up to that count, or leave `atIndex` out to append.",
        },
        C::InvalidBranchName => &GuideText {
            meaning: "A branch name given to `addBranch` or `renameBranch` cannot be a folder \
                name. Each branch is stored in an `assets_<name>/` folder, so empty names, `.` or \
                `..`, `/`, `\\` or `:`, leading or trailing spaces, a trailing dot and Windows \
                device names are refused.",
            confirm: "The issue points at the branch name in the operation; `branches` in the \
                outline shows the existing names.",
            fix: "Choose a plain name such as `en`, `mobile` or `hd`.",
        },
        C::InvalidPackagePayload => &GuideText {
            meaning: "The package given to `addPackage`, or the name given to `renamePackage`, \
                cannot be used: an empty or unusual id (package ids are short strings of letters \
                and digits such as `a9lkf94s`), a name that cannot be a folder name (a package is \
                the folder `assets/<name>/`), `branchNames` naming unknown or repeated branches, or \
                resources inside the package that break its rules (bad ids, folders the package \
                does not list, unsafe file names, variants that do not exist, bytes on a \
                component).",
            confirm: "Each issue's `path` points inside `operations[i].package` (or at \
                `newName`). The outline shows the existing packages and branches.",
            fix: "Fix the named field. Give a new package an id no other package uses and a \
                folder-safe name, and list its folders (parents first) for every resource path it \
                uses.",
        },
        C::InvalidPackageIndex => &GuideText {
            meaning: "The `atIndex` of `addPackage` is past the end of the project's package \
                list. The index only sets the package's position in that list.",
            confirm: "Count the entries of `packages[]` in \
                `openfairygui_backend_get_project_outline`, taking the batch's earlier \
                additions and removals into account.",
            fix: "Use 0 up to the number of packages.",
        },
        C::InvalidComponentPayload => &GuideText {
            meaning: "A component sent with `addComponent`, or the props sent with \
                `setComponentProps`, are not valid. For `addComponent`: an empty or unusual id, a \
                name that cannot be a file name (the file is `<name>.xml`), a folder that does not \
                exist, a file path another resource already uses, variant slots naming components \
                that do not exist, `unsupportedNodes` (elements such as a legacy `<swf>` exist \
                only in the files that have them, so a new component cannot bring one), or \
                structural problems inside the component (repeated node ids, unknown group or \
                relation targets, …). For `setComponentProps`: empty props, a negative or \
                fractional size, or an incomplete `properties` snapshot (overflow, scrolling, \
                margins, the Button or Label extension, …).",
            confirm: "The issue's `path` points at the field. `openfairygui_backend_query_entity` \
                with kind `component` returns `size`, `properties` and `customData` in the \
                expected shape.",
            fix: "For `setComponentProps`, query the component, edit `properties` and send the \
                complete snapshot, or send only `size`. For `addComponent`, fix the named field, \
                leave `unsupportedNodes` out, and add a missing folder with `addResourceFolder` \
                earlier in the batch.",
        },
        C::InvalidComponentIndex => &GuideText {
            meaning: "The `atIndex` of `addComponent` or the `toIndex` of `moveComponent` is past \
                the end of the target package's resource list (components and other resources \
                share one list). The index only sets the position in that list.",
            confirm: "Count the target package's `resources[]` in the outline.",
            fix: "Use 0 up to that count.",
        },
        C::InvalidComponentMove => &GuideText {
            meaning: "`moveComponent` cannot move this component to that package: the target is \
                the package it is already in (to change its folder, use `moveResource`), the \
                component is a branch variant or still has branch variants, the target package \
                lacks the component's folder, or another resource of the target package already \
                uses the same file path.",
            confirm: "`openfairygui_backend_query_entity` with kind `resource` shows the \
                component's `branch`, `branchItemIds` and `path`; the outline shows the target \
                package's folders and resources.",
            fix: "Choose another package, or use `moveResource` within the package. Create the \
                folder in the target package with `addResourceFolder` earlier in the batch. A \
                component with variants can only move after its variants are removed, which \
                discards them; do that only if the user agrees. Often the better choice is to keep \
                the component where it is and use instances of it from the other package.",
        },
        C::InvalidUam => &GuideText {
            meaning: "The project model breaks a structural rule. This comes from \
                `openfairygui_backend_validate_session` and usually describes the project as it is \
                on disk. Errors: repeated node ids or controller names in a component; a node in a \
                group that is not a group node; a relation, controller action or gear pointing at \
                a node, page or controller that does not exist; a controller selecting a page it \
                does not have; a nine-grid image without a grid; folders on unknown branches or \
                without their parent folder; a component that instantiates itself, directly or \
                through other components (instances, loader URLs, list items, combo box dropdowns, \
                scroll bars), or a group that belongs to itself through other groups, which the \
                FairyGUI editor and runtime would build forever; a color, animation or fontSize \
                gear on a node that cannot take it (the runtime fails building it); a transition \
                item with an `actionTypeName` beside a known action. Warnings, since the runtime \
                skips them: a transition item animating a missing node, a play action naming a \
                missing transition, a node naming a controller (page controller, selection \
                controller, a button's controller or page) the component does not have, and a text \
                or icon gear on a node without text or icon. Transactions do not return this code; \
                a structural problem a batch would introduce is reported with the code of what it \
                is about (`invalid_component_reference` for cycles, `invalid_group_reference`, \
                `invalid_gear_payload`, `invalid_controller_payload`, \
                `invalid_transition_payload`, `invalid_resource_payload`).",
            confirm: "Each finding has a model `path` (for example \
                `packages[2].resources[5].component.displayList[3].group`) plus `packageId`, \
                `resourceId`, `nodeId` and `sourcePath` (the component's XML file). Open that \
                component in the FairyGUI editor, or query the node or controller with \
                `openfairygui_backend_query_entity`.",
            fix: "Fix what the message names: re-point the relation, action or gear to a node or \
                page that exists (`setDisplayNodeProps`, `updateController`, `updateGear`), or \
                remove the dangling link; break a cycle by re-pointing or detaching one of the \
                instances, or by clearing one group; remove a gear its node cannot take \
                (`removeGear`). Repeated ids and names are safest to fix in the FairyGUI editor, \
                because operations selecting them would be ambiguous. Warnings need no fix unless \
                the behaviour they describe is not what the user wants.",
        },
        // ---------------------------------------------------------- transaction: no-ops
        C::ProjectSettingsUnchanged => &GuideText {
            meaning: "`updateProjectSettings` sent exactly the settings the project already has \
                (key order does not matter, and a missing publish, common or adaptation section \
                counts as empty). An edit that changes nothing is refused, so the revision does \
                not move for nothing.",
            confirm: "`openfairygui_backend_query_entity` with kind `project` shows the current \
                `settings`.",
            fix: "Re-read the settings. If your change is already there, drop the operation; \
                otherwise send the snapshot with the change actually made.",
        },
        C::PackageSettingsUnchanged => &GuideText {
            meaning: "`updatePackageSettings` sent exactly the package settings the package \
                already has (the order of atlases does not matter). An edit that changes nothing \
                is refused.",
            confirm: "`openfairygui_backend_query_entity` with kind `package` shows the current \
                `settings`.",
            fix: "Re-read the settings. If your change is already there, drop the operation; \
                otherwise send the snapshot with the change actually made.",
        },
        C::DisplayNodePropsUnchanged => &GuideText {
            meaning: "`setDisplayNodeProps` would leave the node exactly as it is: every value \
                sent equals the current one. Often an earlier edit already made the change, or the \
                batch was planned from stale data.",
            confirm: "`openfairygui_backend_query_entity` with kind `displayNode` shows the node's \
                current values.",
            fix: "Re-query the node. If it already looks the way you want, drop the operation; \
                otherwise send only the fields whose values differ.",
        },
        C::ResourceFolderAtlasUnchanged => &GuideText {
            meaning: "`setResourceFolderAtlas` sets the atlas the folder already has.",
            confirm: "`openfairygui_backend_read_session_state` returns the model, where the \
                package's `folders[]` show each folder's `atlas`.",
            fix: "Drop the operation if the folder already uses the atlas you want; send `''` to \
                clear it, or another slot to change it.",
        },
        // -------------------------------------------------------- transaction: duplicates
        C::DuplicateLookGearController => &GuideText {
            meaning: "The node already has a look gear for this controller, or a node being \
                attached brings two. A node has at most one gear of each kind per controller; the \
                look gear sets alpha, rotation, grayed and touchable per page.",
            confirm: "`openfairygui_backend_query_entity` with kind `displayNode`: `gears[]` shows \
                the existing look gear and its controller.",
            fix: "Change the existing gear with `updateLookGear` instead of adding a second one, \
                or bind the new gear to another controller.",
        },
        C::DuplicateTransitionName => &GuideText {
            meaning: "`addTransition` uses a name that another transition of the component already \
                has. Transitions are played by name (from game code and from controller actions), \
                so names must be unique within a component.",
            confirm: "The outline lists the component's `transitions[].name`.",
            fix: "Use `updateTransition` to change the existing transition, or choose a new name.",
        },
        C::DuplicateLookGearStatePage => &GuideText {
            meaning: "A look gear lists the same controller page more than once in its `states`, \
                so the node's look on that page would be ambiguous.",
            confirm: "The issue's `path` points at the repeated entry of the gear's `states`.",
            fix: "Give each page at most one entry; a page without an entry uses the gear's \
                `defaultValue`.",
        },
        C::DuplicateGearController => &GuideText {
            meaning: "The node already has a gear of this kind for this controller, or a node \
                being attached brings two. A node has at most one gear of each kind per \
                controller.",
            confirm: "`openfairygui_backend_query_entity` with kind `displayNode`: `gears[]` shows \
                the existing gear with its `kind` and `controllerName`.",
            fix: "Change the existing gear with `updateGear` instead of adding a second one, or \
                bind the new gear to another controller.",
        },
        C::DuplicateGearStatePage => &GuideText {
            meaning: "A gear lists the same controller page more than once (in its `states`, or \
                in the pages a display gear shows the node on).",
            confirm: "The issue's `path` points at the repeated entry.",
            fix: "List each page once. For value gears, a page without an entry uses the gear's \
                `defaultValue`.",
        },
        C::DuplicateBranchName => &GuideText {
            meaning: "`addBranch` or `renameBranch` uses the name of an existing branch, or one \
                that differs from it only in letter case (the branch folders `assets_<name>` would \
                be the same folder on Windows and macOS disks).",
            confirm: "`openfairygui_backend_get_project_outline` lists the project's `branches`; \
                the message names the branch it collides with.",
            fix: "Choose a name that differs by more than letter case, or use the existing branch.",
        },
        C::DuplicateComponentId => &GuideText {
            meaning: "`addComponent` brings a component whose id another resource of the package \
                already uses, or `moveComponent` moves a component into a package that already has \
                a resource with its id. Within a package every resource (component, image, sound, \
                …) needs its own id, because a `ui://` address is made of the package id and the \
                resource id.",
            confirm: "The outline lists the package's `resources[].id`; the message names the \
                resource that has the id.",
            fix: "Give a new component an id nobody uses (the editor uses short strings of \
                letters and digits such as `kn7w0`). A moved component keeps its id, so for a move \
                keep the component where it is, or ask the user how to resolve the clash in the \
                FairyGUI editor.",
        },
        C::ResourceFolderConflict => &GuideText {
            meaning: "The folder path is already taken: by another folder (`addResourceFolder`, \
                `moveResourceFolder`, or `renameResourceFolder` to its current name), or by a \
                resource file of the same name in the same place (a folder `/icons/` and a file \
                `icons` cannot coexist on disk). Also raised when adding, renaming or moving a \
                resource would put its file where a folder is.",
            confirm: "The outline lists the package's `folders[]` and each resource's `name` and \
                `path`; the message names what is in the way.",
            fix: "Choose another folder name or destination. If the folder you wanted to add \
                already exists, just use it.",
        },
        C::DuplicateResourceId => &GuideText {
            meaning: "Two resources of one package share an id. In a transaction, `addResource` \
                (or a resource inside `addPackage`) brings an id the package already uses. In \
                validation, the package's `package.xml` declares the same id twice, so `ui://` \
                references to that id become ambiguous. When the two entries are identical (the \
                same element repeated, usually by a merge), it is one entry too many for one \
                resource and its file; otherwise two different resources share the id, which the \
                editor does not do on its own (it comes from a merge or a hand edit).",
            confirm: "Transaction: the outline lists the package's resource ids. Validation: the \
                finding gives `packageId`, `resourceId` and the `sourcePath` of `package.xml`, and \
                its message says whether the entries are identical; search that file for the id.",
            fix: "Transaction: choose an unused id. Validation, identical entries: delete the \
                repeated entry from `package.xml` (the resource's file stays). Validation, \
                different resources: ask the user to resolve the duplicate in the FairyGUI editor \
                or in `package.xml`, by giving one of the two entries a new id and updating what \
                refers to it. Both resources' files stay.",
        },
        C::DuplicatePackageId => &GuideText {
            meaning: "Two packages share an id. The package id is the first part of every `ui://` \
                address, so references become ambiguous. In a transaction, `addPackage` brings an \
                id already in use; in validation, two `package.xml` files carry the same `id`, \
                typically because a package folder was copied by hand.",
            confirm: "The finding's path is `packages[i].id`; the outline shows both packages \
                with the same `id` and their names.",
            fix: "Transaction: use a new id. Validation: ask the user which package is the copy. \
                Its id (the `id` of its `package.xml`) has to change, and references that mean \
                the copy must follow; that is an edit for the user to make, outside this server. \
                Keep both packages' files as they are meanwhile.",
        },
        C::DuplicatePackageName => &GuideText {
            meaning: "Two packages would have the same name, and a package's name is its folder \
                under `assets/`. In a transaction, `addPackage` or `renamePackage` uses a name \
                already taken (here also when the names differ only in letter case). In \
                validation, it is reported for a model whose packages share a name; on disk two \
                folders cannot, and names that differ only in case are `path_collision`.",
            confirm: "The outline lists `packages[].name`; the message names the other package.",
            fix: "Choose a name that differs from every package name by more than letter case.",
        },
        // -------------------------------------------------------- transaction: references
        C::ResourceFolderNotEmpty => &GuideText {
            meaning: "`renameResourceFolder`, `moveResourceFolder` and `removeResourceFolder` work \
                only on empty folders, and this folder still holds subfolders or resources. Every \
                library item records its own folder path, so a folder is only renamed or moved \
                once its contents have been moved.",
            confirm: "The outline lists the package's `folders[]` and each resource's `path`; the \
                message names what is inside.",
            fix: "Move the contents first, in the same batch: create the destination folder with \
                `addResourceFolder`, move each resource with `moveResource` and each subfolder \
                with `moveResourceFolder`, then rename, move or remove the emptied folder. Do not \
                remove resources just to empty a folder: removing a resource drops its file from \
                the project, so only do it when the user asks for it.",
        },
        C::BranchNotEmpty => &GuideText {
            meaning: "`removeBranch` is refused because folders or resources still live on that \
                branch (in `assets_<branch>/`).",
            confirm: "The outline lists folders and resources with their `branch`; the message \
                names what is still there.",
            fix: "Removing a branch means removing its variant resources, which drops their files \
                from the project. Ask the user first. If they agree, remove the variants \
                (`removeResource`, `removeComponent`) and the branch's folders \
                (`removeResourceFolder`) earlier in the same batch; otherwise keep the branch.",
        },
        C::BranchReferenced => &GuideText {
            meaning: "`removeBranch` is refused because main resources still map variants on that \
                branch: their `branchItemIds` slot for the branch is filled. In FairyGUI a \
                resource can have one variant per branch, such as a translated image.",
            confirm: "`openfairygui_backend_query_entity` with kind `resource` shows `branch` and \
                `branchItemIds`; the message names the resources still mapped.",
            fix: "Removing a variant resource clears its slot, but it also drops the variant's \
                file from the project, so only with the user's agreement; otherwise keep the \
                branch.",
        },
        C::InvalidResourceReference => &GuideText {
            meaning: "After the batch, something would point at a resource that does not exist or \
                is of the wrong kind: an image node at a missing image or at a sound, a \
                component's scroll bar, header or footer at something that is not a component, a \
                sound setting at something that is not a sound, a `ui://` address in text, gears, \
                transitions or the project settings that resolves to nothing, or anything still \
                using a resource that `removeResource` removes. References that were already \
                broken before the batch do not block it; only new ones do.",
            confirm: "The message names the referring node, property or setting and the resource. \
                `openfairygui_backend_get_project_outline` shows which resources exist and their \
                kinds; `openfairygui_backend_validate_session` lists the references already broken \
                in the project.",
            fix: "Point the reference at an existing resource of the right kind (add it with \
                `addResource` earlier in the batch if needed). When removing a resource, re-point \
                or detach what uses it in the same batch, or keep the resource.",
        },
        C::InvalidComponentReference => &GuideText {
            meaning: "A component instance node (another component placed on the stage, such as a \
                button) would refer, after the batch, to a component that does not exist or to a \
                resource that is not a component, or the batch would make a component contain \
                itself: directly, or through other components, by instances, loader URLs, list \
                items and default items, combo box dropdowns or the scroll bars, header and footer \
                of a scrolling pane. The FairyGUI editor and runtime would build such a component \
                forever. Cycles the project already has do not block an edit (validation reports \
                them as `invalid_uam`); the batch may not create one.",
            confirm: "The outline lists each package's resources with `kind: \"component\"`; the \
                issue's `path` ends in the node's `resource` or `src`, or names the field that \
                closes the cycle. Its message names the components in the cycle.",
            fix: "Reference an existing component by id (with `packageId` when it is in another \
                package), or create it with `addComponent` earlier in the batch. To place content \
                that would close a cycle, use another component that does not contain this one.",
        },
        C::InvalidGroupReference => &GuideText {
            meaning: "A node's `group` must be `''` (no group) or the id of another node of kind \
                `group` in the same component; FairyGUI groups gather nodes of one stage so they \
                can be moved and shown together. Raised, on the final state of the batch, when the \
                group does not exist, is not a group node, is the node itself, when groups would \
                belong to each other in a ring (the editor and runtime would walk them forever), \
                or when a batch detaches a group that still has members.",
            confirm: "The outline's `displayList` shows the nodes of kind `group`; \
                `openfairygui_backend_query_entity` with kind `displayNode` shows a node's \
                `group`.",
            fix: "Set `group` to an existing group node's id or to `''`. Attach a new group node \
                before or after assigning members to it in the same batch. Do not put a group into \
                one of its own members. Before detaching a group, set its members' `group` to `''` \
                (or another group) in the same batch.",
        },
        C::PackageReferenced => &GuideText {
            meaning: "`removePackage` is refused because, after the batch, other packages or the \
                project settings would still use this package's resources (component instances, \
                images shown by `ui://` address, fonts, sounds, the default scroll bars, …).",
            confirm: "The issue message quotes what still refers to the package. \
                `openfairygui_backend_read_session_state` returns the whole model, where the \
                package id appears in every `packageId` and `ui://` address that uses it.",
            fix: "Removing a package drops its folder and everything in it from the project, so \
                confirm with the user first. If they agree, re-point or detach the references in \
                the same batch (`updateProjectSettings` for a setting); otherwise keep the \
                package.",
        },
        C::ComponentReferenced => &GuideText {
            meaning: "`removeComponent` or `moveComponent` is refused because, after the batch, \
                something would still refer to the component where it was: instances of it on \
                other stages, a list's default item, a scroll bar setting of a component or of the \
                project settings, a `ui://` address.",
            confirm: "The issue message quotes what still refers to the component. \
                `openfairygui_backend_read_session_state` returns the whole model to search for \
                its id.",
            fix: "For a move, re-point those references to the new package in the same batch. For \
                a removal, re-point or detach them only if the user really wants the component \
                gone; otherwise keep it.",
        },
        C::ComponentHasPackageDependencies => &GuideText {
            meaning: "`moveComponent` would move a component whose nodes still use resources of \
                its old package by naming that package explicitly. After the move they would \
                reach back into the old package, and image nodes may only use images of their \
                own package.",
            confirm: "The message lists the nodes and fields. \
                `openfairygui_backend_query_entity` with kind `displayNode` on those nodes shows \
                their `resource.packageId`.",
            fix: "Often the simplest fix is to leave the component where it is and use instances \
                of it from the other package. Otherwise, in the same batch, re-point those nodes \
                to resources of the target package (adding copies there with `addResource` if the \
                user wants).",
        },
        // ------------------------------------------------------ transaction: host actions
        C::UnavailableResourceSourceBytes => &GuideText {
            meaning: "The operation needs an asset's file bytes and does not have them. Either the \
                resource's file was missing or unreadable when the project was opened, so it \
                cannot be renamed, moved, removed or have its bytes replaced (the server never \
                holds a file it could not read); or `addResource` or `addPackage` carries an asset \
                without `sourceBytes`.",
            confirm: "For an existing resource, `openfairygui_backend_validate_session` shows its \
                file as `missing_source` or `unreadable_source`, and \
                `openfairygui_backend_read_resource_bytes` fails with `bytes_unavailable`. For an \
                added asset, the issue's `path` ends in `sourceBytes`.",
            fix: "For an existing resource, stop and tell the user which file is missing or \
                unreadable; they can restore it on disk (then the session must be closed and the \
                project reopened) or deal with the resource in the FairyGUI editor. For an added \
                asset, include the file's bytes, as base64 or integers 0..255.",
        },
        C::ProjectionFailed => &GuideText {
            meaning: "In upstream, the batch could not be run on a copy of the project to work out \
                its effect: an internal failure, not a problem with the batch. This server runs \
                every batch on a copy of the model and does not raise this code; \
                `transaction_preview_failed` keeps `projection_failed` only as a reserved reason.",
            confirm: "If it ever appears, `meta.requestId` identifies the call in the server's \
                log.",
            fix: "Report it to the user with the batch and the request id. Retrying the same \
                batch will not help.",
        },
        C::ExecutionFailure => &GuideText {
            meaning: "In upstream, the batch failed while being applied, after its checks had \
                passed, and nothing changed. This server checks every rule before anything is \
                committed and swaps in the result only when the whole batch is valid, so problems \
                come back as `transaction_unsupported` with their issues; it does not raise this \
                code.",
            confirm: "If it ever appears, the error's issues say what failed and `meta.requestId` \
                identifies the call in the server's log.",
            fix: "Report it with the batch, then re-read the outline before planning again.",
        },
        // ---------------------------------------------------------------- core validation
        C::MissingSource => &GuideText {
            meaning: "A file the project declares does not exist at its path: `package.xml` lists \
                a resource (an image, a sound, a component's XML, …) whose file is not in the \
                package folder, a package folder has no `package.xml` with that exact name, or a \
                settings file is there only with other letter case. A resource file that exists \
                under exactly one other letter case is read from there (`source_case_mismatch`); \
                when several files differ from the declared path only in letter case \
                (`assets/Pkg/Bag/icon.png` and `assets/Pkg/bag/icon.png`, which git can hold \
                side by side), the message names them all: which one the FairyGUI editor on \
                Windows or macOS uses depends on the disk, so none is read here. A settings file \
                or `package.xml` with other letter case (`settings/publish.json` for \
                `settings/Publish.json`) is named too and not read. The FairyGUI editor shows a \
                resource whose file is really missing in the library but cannot display it. Here \
                the resource stays in the outline: an asset without its bytes (so it cannot be \
                renamed, moved, removed or read), a component with an empty stage.",
            confirm: "`openfairygui_backend_validate_session` gives `packageId`, `resourceId` and \
                `sourcePath`, the expected file relative to the project, and the message names \
                the files that differ only in letter case when there are any.",
            fix: "When the message names files with other letter case, rename the one that is \
                meant to the declared spelling and give the others names of their own (or merge \
                the folders), then close and reopen the session; do not remove the resource or \
                the files, which are fine. Otherwise ask the user to restore the missing file at \
                that path (from version control or a backup), then close and reopen the session. \
                If the resource is no longer wanted, the user can remove it in the FairyGUI \
                editor after checking that nothing uses it. Do not create a placeholder file \
                under that name.",
        },
        C::SourceCaseMismatch => &GuideText {
            meaning: "A resource's file is not at the path the project declares, but exactly one \
                file differs from it only in letter case, in a folder or the file name (the \
                project says `/Bag/`, the disk holds `assets/Pkg/bag/`, as projects made on \
                Windows or macOS often do). The FairyGUI editor there reads that file, and so \
                does this server: validation, rendering and publishing use it, and a save writes \
                it back where it was read, never into a second folder. Case-sensitive disks and \
                tools (Linux build machines, some engines' loaders of the sources) do not find it.",
            confirm: "`openfairygui_backend_validate_session` gives the resource, `sourcePath` (the \
                declared path) and, in the message, the path found on disk and what to rename.",
            fix: "Nothing is lost as it is. To make the project work on case-sensitive disks, \
                rename the folder or file as the message says (when both spellings of a folder \
                exist, move the files of one into the other), in the FairyGUI editor or with git \
                (`git mv`), then close and reopen the session.",
        },
        C::UnreadableSource => &GuideText {
            meaning: "A file or folder of the project exists but could not be read (permissions, \
                a file locked by another program, a disk error). What it holds is unknown, so the \
                validation report is `incomplete` and the session's `uamFidelity` is \
                `unsupported` (it could not be written back faithfully).",
            confirm: "`openfairygui_backend_validate_session` shows the `sourcePath` and the \
                system's error text; `openfairygui_backend_get_session` shows `uamFidelity`.",
            fix: "Ask the user to make the file readable (check its permissions, close programs \
                that lock it), then close and reopen the session. The file itself needs no \
                change.",
        },
        C::CorruptSource => &GuideText {
            meaning: "An asset file exists but its content cannot be used: it is empty, a PNG or \
                JPEG is damaged or cut short, a movie clip's `.jta` does not parse, an SVG is not \
                well-formed XML or has no `<svg>` root, or the file is a Git LFS pointer (a small \
                text file standing in for content that was never fetched). An SVG that is \
                well-formed but holds content this server does not read for safety (a DTD, \
                scripts, external references) is not corrupt: it is reported as \
                `decode_capability_unavailable`.",
            confirm: "The finding's message says what failed and `sourcePath` names the file. \
                Opening the file in an image viewer, or the resource in the FairyGUI editor, \
                usually shows the damage; a Git LFS pointer starts with `version https://git-lfs`. \
                `openfairygui_backend_read_resource_bytes` returns the bytes as read.",
            fix: "For a Git LFS pointer, run `git lfs pull`: the real file arrives and nothing \
                else changes. For a damaged PNG or JPEG, use `replaceResourceBytes` with a good \
                copy of the same picture (from the artist, version control or a backup), since the \
                file is corrupt; the resource keeps its id, so everything using it keeps working. \
                For a broken SVG, ask for a fresh export. For a movie clip, re-import it in the \
                FairyGUI editor.",
        },
        C::DecodeCapabilityUnavailable => &GuideText {
            meaning: "An image could not be checked here: its format is one this server cannot \
                decode (only PNG, JPEG and SVG can, so a `.gif`, `.bmp`, `.tga` or an image \
                without an extension is not looked into), or it is an SVG holding content this \
                server does not read for safety (a DTD, scripts, embedded or external content, \
                animation). Nothing is known to be wrong with it, but the validation report is \
                `incomplete` instead of `valid`. This is a warning, not an error.",
            confirm: "The finding's `sourcePath` shows the file and its extension, and the message \
                says why it was not checked; the report's `complete` is false.",
            fix: "Nothing needs to change if the image shows correctly in the FairyGUI editor; \
                tell the user this file could not be checked. A CI job that requires `valid` \
                should treat this as a known gap rather than change the asset.",
        },
        C::InvalidProjectXml => &GuideText {
            meaning: "The project's `.fairy` file (the project description: id, engine type and \
                version) is not valid XML, its root element is not `<projectDescription>`, or it \
                is a Git LFS pointer whose content was never fetched. When packages exist beside \
                it the project still opens, with an empty project id and `projectType` -1 \
                (unknown), so the rest can be inspected.",
            confirm: "The finding's `sourcePath` is the `.fairy` file and its message gives the \
                parser's error and position, or names the Git LFS pointer. \
                `openfairygui_backend_get_project_outline` then shows an empty `projectId`.",
            fix: "For a Git LFS pointer, run `git lfs pull` in the repository. Otherwise ask the \
                user to restore the file from version control, or to repair it at the reported \
                position (it is a single element such as `<projectDescription id=\"…\" \
                type=\"Unity\" version=\"3.0\"/>`, and keeping its original id matters), then \
                reopen the session.",
        },
        C::InvalidPackageXml => &GuideText {
            meaning: "A package's `package.xml` (its folders, resources and publish settings) is \
                not valid XML, or its root element is not `<packageDescription>`. The package \
                still opens, but empty: none of its resources are in the outline, and references \
                to them from other packages look broken.",
            confirm: "The finding's `sourcePath` is `assets/<Package>/package.xml`, with the \
                parser's error. In the outline the package has no resources.",
            fix: "Ask the user to restore the file from version control, or to repair it at the \
                reported position (often a leftover merge-conflict marker or a write cut short), \
                then reopen the session. Do not recreate it from scratch: it holds the ids that \
                other packages use.",
        },
        C::InvalidBranchPackageXml => &GuideText {
            meaning: "A `package_branch.xml` (in `assets_<branch>/<Package>/`, listing that \
                branch's variants of the package's resources) is not valid XML or has the wrong \
                root element. That branch's variants of the package are not read.",
            confirm: "The finding's `sourcePath` names the file, with the parser's error.",
            fix: "Ask the user to restore the file from version control or repair it at the \
                reported position, then reopen the session.",
        },
        C::InvalidComponentXml => &GuideText {
            meaning: "As an error: a component's XML file is not valid XML, is a Git LFS pointer, \
                or holds an element FairyGUI does not know. A component whose file does not parse \
                opens with an empty stage; an unknown display-list element or gear element is \
                skipped (that node or gear is not in the outline), and the rest of the component \
                is read. As a warning: the file holds a valid element this server does not model, \
                the legacy `<swf>` node (Flash content) the FairyGUI editor still writes. It stays \
                in the file as it is, the project stays valid, its id stays taken and relations, \
                actions and transitions may name it; it is listed in the component's \
                `unsupportedNodes`, not in `displayList`, and cannot be edited here.",
            confirm: "The finding's `sourcePath` names the component's file; the message quotes \
                the element or the parser's error, and `nodeId` names the node when known. Open \
                the component in the FairyGUI editor to compare. \
                `openfairygui_backend_query_entity` with kind `component` lists \
                `unsupportedNodes`.",
            fix: "For a Git LFS pointer, run `git lfs pull`. For broken XML, ask the user to \
                restore the file from version control or repair it at the reported position, then \
                reopen the session. An unknown element may come from a newer editor version or a \
                plugin, and a `<swf>` node is valid: leave the file as it is and edit that part in \
                the FairyGUI editor.",
        },
        C::InvalidProjectValue => &GuideText {
            meaning: "A value in a project file or the model breaks FairyGUI's rules for its type. \
                Errors: a boolean that is not true, false, 1 or 0 (also the `input` and `treeView` \
                flags that pick a node's kind, and a folder's `favorite`); a number that is not \
                finite, or not whole where it must be; a list with the wrong number of parts (such \
                as `xy=\"10\"` or a `scale9grid` of three numbers); a part of a gear's page value \
                that is not a number or a boolean; an unknown name (a blend mode, an enumeration \
                such as `align`); alpha outside 0..1; a negative size; rotation, scale, skew or \
                pivot beyond the 32-bit float FairyGUI publishes them as; a folder atlas that is \
                not a slot number; or an image quality outside 0..100. Where the model cannot hold \
                such a value, the session reads the default in its place (colours and blend modes \
                are kept as written). Warnings, which need no fix and stay in the file as they \
                are: a value the FairyGUI editor itself writes for an unset attribute \
                (`level=\"undefined\"`), an engine type in the `.fairy` file this server does not \
                know (`projectTypeName` keeps it, `projectType` is -1), a transition action this \
                server does not know (`actionTypeName` keeps it, `actionType` is 16), and package \
                publish settings the editor may not publish as intended.",
            confirm: "The finding's `path`, `sourcePath` and `nodeId` locate the value, and the \
                message quotes it. Look at that element in the file, or at the node in the \
                FairyGUI editor.",
            fix: "For an error, ask the user to correct the value in the FairyGUI editor or in the \
                file, then reopen the session; or set the right value with a transaction where one \
                covers it (`setDisplayNodeProps`, `updateGear`, `updatePackageSettings`). A \
                warning needs no fix; leave the value as written.",
        },
        C::DesktopIncompatibleGeometry => &GuideText {
            meaning: "A position, size, minimum or maximum size, margin or gear position is a \
                whole number too large for a 32-bit integer (beyond about ±2.1 billion). The \
                FairyGUI editor stores geometry as 32-bit integers and cannot load such a value; \
                it usually comes from a script or a hand edit gone wrong.",
            confirm: "The finding's `path` (such as `…displayList[0].position`), `nodeId` and \
                `sourcePath` locate it; `openfairygui_backend_query_entity` on the node shows the \
                value.",
            fix: "Set a sensible value: `setDisplayNodeProps` with a new `position` or `size` for \
                a node, `setComponentProps` for a component's size, `updateGear` for a gear; or \
                ask the user to fix it in the file.",
        },
        C::InvalidSettingsJson => &GuideText {
            meaning: "A file in `settings/` (Publish.json, Common.json, Adaptation.json, \
                CustomProperties.json or i18n.json) is not valid JSON, is not UTF-8 text, is not a \
                JSON object, or is a Git LFS pointer: an error, and that file's settings are left \
                out of the project settings the session shows; the rest of the project opens \
                normally. As a warning, a field of the settings has the wrong type (text where the \
                editor expects a number, for example): the editor ignores it, and it is kept as \
                written.",
            confirm: "The finding's `sourcePath` names the file and the message gives the parser's \
                error or the field and the type it should have.",
            fix: "For a Git LFS pointer, run `git lfs pull`. For broken JSON, ask the user to \
                restore the file from version control or repair it, then reopen the session; do \
                not paper over it with `updateProjectSettings`, since the session does not know \
                what the file held. A mistyped field can be corrected with `updateProjectSettings` \
                (query the settings, change that field, send them back), or left as it is.",
        },
        C::PathCollision => &GuideText {
            meaning: "Two resources would use the same file: their paths are equal, or differ only \
                in letter case (such as `Icon.png` and `icon.png`), which on Windows and macOS \
                disks is the same file, so one would overwrite the other. Also two packages or two \
                folders whose names differ only in letter case. An entry repeated verbatim in \
                `package.xml` is not a collision but one duplicate entry \
                (`duplicate_resource_id`).",
            confirm: "The finding names both; the outline shows their names and paths.",
            fix: "Rename one of them so the names differ by more than letter case: \
                `renameResource` for a resource, `renamePackage` for a package, \
                `renameResourceFolder` for an empty folder, or in the FairyGUI editor. Keep both \
                files.",
        },
        C::UnsafePath => &GuideText {
            meaning: "A name or path cannot be used safely on disk: absolute, containing `..`, \
                `\\` or `:`, with leading or trailing spaces or a trailing dot, a Windows device \
                name (con, nul, com1, …), a resource named like `package.xml`, or a folder path \
                not written as `/a/b/`. When `package.xml` declares a resource with such a name or \
                path, the resource is skipped (it is not in the outline), so nothing outside the \
                project can be touched.",
            confirm: "The finding's `path` and message name the package, folder, branch or \
                resource and quote the bad value.",
            fix: "Rename it to a plain name: in the FairyGUI editor, or with `renameResource`, \
                `renamePackage`, `renameBranch` or `renameResourceFolder` when the item is in the \
                outline. The files themselves need no other change.",
        },
        C::DanglingResourceReference => &GuideText {
            meaning: "Something points at a resource that does not exist or is of the wrong kind: \
                an image node at a missing image, a component instance at a missing component, a \
                loader's `url` or a list item at nothing, a text node's font at something that is \
                not a font, a `ui://` address in text, gears or transitions that resolves to \
                nothing, a font's texture or a skeleton's files. The FairyGUI editor shows such \
                references as missing content. A reference in the project settings (default scroll \
                bars, tooltip, click sound, font) that does not resolve is a warning: the editor \
                ignores it.",
            confirm: "The finding's `path`, `packageId`, `resourceId` (the component that refers) \
                and `nodeId` locate the reference, and the message quotes the `ui://` address or \
                the ids and names the package by id and name. \
                `openfairygui_backend_get_project_outline` shows whether the target exists under \
                another id or in another package.",
            fix: "Re-point the reference at the right resource (`setDisplayNodeProps` for a node, \
                `setComponentProps` for a component property, `updateProjectSettings` for a \
                setting), or clear it. If the target was deleted by mistake, the user can restore \
                it and reopen the session.",
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::GUIDES;
    use crate::error::ErrorCode;
    use crate::methods::METHODS;
    use crate::ops::OPERATION_KINDS;

    /// Every field of every guide, with the code it belongs to.
    fn fields() -> impl Iterator<Item = (DiagnosticCode, &'static str, &'static str)> {
        DiagnosticCode::ALL.iter().flat_map(|&code| {
            let text = text(code);
            [
                (code, "meaning", text.meaning),
                (code, "confirm", text.confirm),
                (code, "fix", text.fix),
            ]
        })
    }

    /// The `backticked` tokens of a text.
    fn backticked(text: &str) -> impl Iterator<Item = &str> {
        text.split('`').skip(1).step_by(2)
    }

    #[test]
    fn every_catalog_code_has_a_complete_guide() {
        assert_eq!(DiagnosticCode::ALL.len(), GUIDES.len());
        for (code, field, value) in fields() {
            let words = value.split_whitespace().count();
            assert!(words >= 5, "{} has an empty or stub {field}", code.as_str());
            assert!(
                !value.contains("TODO") && !value.contains("TBD"),
                "{} {field} is a placeholder",
                code.as_str()
            );
            // A line continuation that swallowed the space leaves words glued together.
            assert!(
                !value.contains("  "),
                "{} {field}: double space",
                code.as_str()
            );
        }
        for guide in GUIDES {
            assert!(for_code(guide.code).is_some(), "{}", guide.code);
        }
        assert!(for_code("invalid_input").is_some());
        assert!(for_code("unknown_tool").is_some());
        assert!(for_code("").is_none());
    }

    /// Phrases that tell someone to get rid of a file.
    fn discards_a_file(sentence: &str) -> bool {
        const VERBS: [&str; 8] = [
            "delete",
            "deleting",
            "remove",
            "removing",
            "replace",
            "replacing",
            "overwrite",
            "recreate",
        ];
        const OBJECTS: [&str; 9] = [
            "the file",
            "that file",
            "this file",
            "its file",
            "the files",
            "those files",
            "it on disk",
            "the folder",
            "the .fairy",
        ];
        VERBS.iter().any(|verb| {
            OBJECTS
                .iter()
                .any(|object| sentence.contains(&format!("{verb} {object}")))
        })
    }

    /// A sentence may speak of discarding a file only when it is about a file that is
    /// missing or corrupt, or when it warns against doing so.
    fn may_discard(sentence: &str) -> bool {
        const ABOUT_BROKEN: [&str; 8] = [
            "missing",
            "corrupt",
            "damaged",
            "empty",
            "does not exist",
            "does not parse",
            "not valid",
            "unreadable",
        ];
        const WARNING: [&str; 3] = ["do not", "never", "don't"];
        ABOUT_BROKEN
            .iter()
            .chain(WARNING.iter())
            .any(|word| sentence.contains(word))
    }

    fn sentences(text: &str) -> impl Iterator<Item = String> {
        text.split(['.', ';', '\n'])
            .map(|sentence| sentence.to_lowercase())
            .filter(|sentence| !sentence.trim().is_empty())
    }

    #[test]
    fn no_guide_advises_discarding_a_valid_file() {
        for (code, field, value) in fields() {
            for sentence in sentences(value) {
                assert!(
                    !discards_a_file(&sentence) || may_discard(&sentence),
                    "{} {field} advises discarding a file: {sentence:?}",
                    code.as_str()
                );
            }
        }
    }

    /// Each guide covers every situation its code is raised in; these pin the ones added
    /// after the guides were first written (cycles, gear fit, kept values, case mismatches,
    /// unchecked SVGs, unmodeled nodes).
    #[test]
    fn guides_cover_what_their_codes_now_mean() {
        let meaning = |code: DiagnosticCode| text(code).meaning;
        for (code, phrases) in [
            (
                DiagnosticCode::InvalidComponentReference,
                &["contain itself", "forever"][..],
            ),
            (DiagnosticCode::InvalidGroupReference, &["ring"]),
            (
                DiagnosticCode::InvalidGearPayload,
                &["fit its node", "runtime fail"],
            ),
            (
                DiagnosticCode::InvalidUam,
                &[
                    "instantiates itself",
                    "group that belongs to itself",
                    "cannot take",
                ],
            ),
            (
                DiagnosticCode::InvalidTransitionPayload,
                &["actionTypeName"],
            ),
            (
                DiagnosticCode::InvalidComponentXml,
                &["<swf>", "stays valid"],
            ),
            (
                DiagnosticCode::InvalidProjectValue,
                &["projectTypeName", "actionTypeName"],
            ),
            (
                DiagnosticCode::MissingSource,
                &[
                    "letter case",
                    "settings/publish.json",
                    "source_case_mismatch",
                ],
            ),
            (DiagnosticCode::DecodeCapabilityUnavailable, &["for safety"]),
            (DiagnosticCode::DuplicateResourceId, &["identical"]),
            (DiagnosticCode::InvalidProjectXml, &["-1"]),
        ] {
            for phrase in phrases {
                assert!(
                    meaning(code).contains(phrase),
                    "{}: {phrase}",
                    code.as_str()
                );
            }
        }
        // An SVG refused for safety is not corrupt; a broken .fairy is no Unity project.
        assert!(meaning(DiagnosticCode::CorruptSource).contains("is not corrupt"));
        assert!(
            !text(DiagnosticCode::InvalidProjectXml)
                .meaning
                .contains("Unity")
        );
    }

    #[test]
    fn the_file_check_catches_what_it_should() {
        let flagged = |text: &str| sentences(text).any(|s| discards_a_file(&s) && !may_discard(&s));
        assert!(flagged("Delete the file and add it again."));
        assert!(flagged("First, replace the file with a new export."));
        assert!(flagged("Then remove the folder."));
        assert!(!flagged("Replace the file, since it is corrupt."));
        assert!(!flagged("Never overwrite the .fairy file."));
        assert!(!flagged(
            "Restore the missing file; remove the file entry if it does not exist."
        ));
    }

    #[test]
    fn guides_name_only_served_tools() {
        for (code, field, value) in fields() {
            for (start, _) in value.match_indices("openfairygui_backend_") {
                let tool: String = value[start..]
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect();
                assert!(
                    METHODS.iter().any(|method| method.tool == tool),
                    "{} {field} names {tool}, which is not a served tool",
                    code.as_str()
                );
            }
        }
    }

    #[test]
    fn guides_name_only_real_operations() {
        const VERBS: [&str; 9] = [
            "add", "remove", "set", "update", "rename", "move", "attach", "detach", "replace",
        ];
        for (code, field, value) in fields() {
            for token in backticked(value) {
                let looks_like_an_operation =
                    VERBS.iter().any(|verb| {
                        token
                            .strip_prefix(verb)
                            .and_then(|rest| rest.chars().next())
                            .is_some_and(|c| c.is_ascii_uppercase())
                    }) && token.chars().all(|c| c.is_ascii_alphanumeric());
                if looks_like_an_operation {
                    assert!(
                        OPERATION_KINDS.contains(&token),
                        "{} {field} names operation {token}, which does not exist",
                        code.as_str()
                    );
                }
            }
        }
    }

    #[test]
    fn guides_name_only_known_codes_and_reasons() {
        // The `reason` values of failures that guides quote; everything else in snake_case
        // between backticks must be a catalog or contract code.
        const REASONS: &[&str] = &[
            "invalid_query",
            "not_found",
            "ambiguous",
            "unsupported_resource",
            "bytes_unavailable",
            "response_budget_exceeded",
            "non_json_value",
            "project_not_found",
            "not_a_project_file",
            "no_project_file",
            "multiple_project_files",
            "symbolic_link_unsupported",
            "hard_link_unsupported",
            "access_denied",
            "project_read_failed",
            "unknown",
            "projection_failed",
            "in_process_session_exists",
            "advisory_lock_conflict",
            "changed_on_disk",
            "io",
            "save_target",
            "materialize_target",
        ];
        use crate::error::{
            LockConflictKind, OpenFailureReason, PreviewFailureReason, QueryFailureReason,
            ReadFailureReason, SaveFailureReason, TargetPolicy,
        };
        for reason in REASONS {
            let wire = serde_json::Value::String(reason.to_string());
            let real = serde_json::from_value::<OpenFailureReason>(wire.clone()).is_ok()
                || serde_json::from_value::<QueryFailureReason>(wire.clone()).is_ok()
                || serde_json::from_value::<ReadFailureReason>(wire.clone()).is_ok()
                || serde_json::from_value::<PreviewFailureReason>(wire.clone()).is_ok()
                || serde_json::from_value::<LockConflictKind>(wire.clone()).is_ok()
                || serde_json::from_value::<TargetPolicy>(wire.clone()).is_ok()
                || serde_json::from_value::<SaveFailureReason>(wire).is_ok();
            assert!(real, "{reason} is not a failure reason of the contract");
        }
        for (code, field, value) in fields() {
            for token in backticked(value) {
                let snake = token.contains('_')
                    && token.chars().all(|c| c.is_ascii_lowercase() || c == '_');
                if !snake || token.starts_with("openfairygui_") {
                    continue;
                }
                let known = DiagnosticCode::ALL.iter().any(|c| c.as_str() == token)
                    || ErrorCode::ALL.iter().any(|c| c.as_str() == token)
                    || REASONS.contains(&token);
                assert!(
                    known,
                    "{} {field} quotes {token}, which is no code or reason",
                    code.as_str()
                );
            }
        }
    }
}
