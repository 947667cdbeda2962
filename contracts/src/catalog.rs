//! The diagnostic catalog: one guide per stable code, saying who owns it and how to recover.
//!
//! The codes and owners follow upstream OpenFairyGUI 0.6.x so agents that key on them keep
//! working; the remediation texts are ofgui's own.

use serde::{Deserialize, Serialize};

/// Which layer a code belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Owner {
    #[serde(rename = "backend")]
    Backend,
    #[serde(rename = "core.transaction")]
    CoreTransaction,
    #[serde(rename = "core.validation")]
    CoreValidation,
}

/// The kind of recovery a code asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum RemediationKind {
    /// Re-read the session (outline, query) and plan again.
    RefreshAndReplan,
    /// Fix the selector: an id does not exist or is ambiguous.
    ReviseSelector,
    /// Fix the operation's payload or split the batch.
    ReviseOperation,
    /// Something the host or the user must do; retrying will not help. Also every
    /// defect validation finds already in the project (owner `core.validation`): no
    /// operation of the caller produced it, so the user decides how it is fixed (in the
    /// FairyGUI editor, or with a transaction they ask for), then the project is validated
    /// again. Upstream's four kinds are all there are; its schema allows no other.
    HostAction,
}

/// One catalog entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guide {
    pub code: &'static str,
    /// The first owner is the default owner of diagnostics with this code.
    pub owners: &'static [Owner],
    pub remediation: RemediationKind,
    pub message: &'static str,
}

use Owner::{Backend, CoreTransaction, CoreValidation};
use RemediationKind::{HostAction, RefreshAndReplan, ReviseOperation, ReviseSelector};

const B: &[Owner] = &[Backend];
const T: &[Owner] = &[CoreTransaction];
const V: &[Owner] = &[CoreValidation];
const TV: &[Owner] = &[CoreTransaction, CoreValidation];

macro_rules! guides {
    ($( $variant:ident = $code:literal, $owners:expr, $kind:expr, $message:literal; )*) => {
        /// Every code of the catalog, typed: the backend compares these values and spells
        /// them ([`DiagnosticCode::as_str`]) only where they cross the wire.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum DiagnosticCode {
            $( $variant, )*
        }

        impl DiagnosticCode {
            /// Every code, in catalog order.
            pub const ALL: &[DiagnosticCode] = &[ $( Self::$variant, )* ];

            /// The code as it crosses the wire (`stale_write`, …).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( Self::$variant => $code, )*
                }
            }
        }

        /// Every guide, in catalog order.
        pub const GUIDES: &[Guide] = &[
            $( Guide { code: $code, owners: $owners, remediation: $kind, message: $message }, )*
        ];
    };
}

guides! {
    // Backend: revision guards.
    StaleRead = "stale_read", B, RefreshAndReplan, "The session moved on since you read it. Read the outline or query again and use the current revision.";
    StaleWrite = "stale_write", B, RefreshAndReplan, "The session changed since you planned this call. Re-read the outline, re-query the entities you touch, re-plan, and retry with the current revision; never retry blindly.";
    EventCursorInvalid = "event_cursor_invalid", B, RefreshAndReplan, "The event cursor is malformed, expired or unknown. Poll again without `after` and continue from the returned currentSequence.";
    // Backend: what the caller fixes in its own next call (upstream: host-action).
    SessionReadFailed = "session_read_failed", B, ReviseSelector, "The session state or bytes could not be returned. Check the reason: for a selector that matches nothing use exact ids from getProjectOutline; for a result over budget, read less at once (one entity with queryEntity).";
    TransactionPreviewFailed = "transaction_preview_failed", B, ReviseOperation, "The preview could not be produced within its budget. Split the batch into smaller transactions.";
    EntityQueryFailed = "entity_query_failed", B, ReviseSelector, "The query was refused. Check the reason: use exact ids from getProjectOutline, and query a smaller entity if the result is too large.";
    SessionNotFound = "session_not_found", B, RefreshAndReplan, "The session does not exist or was closed (idle sessions close). Open the project again with openSession and re-read it before planning; edits of the old session are gone.";
    // Backend: calls that do not reach a method.
    InvalidInput = "invalid_input", B, ReviseOperation, "The arguments do not match the tool's input schema. Fix the field at error.path as the message says (for an operation, its schema is at the URI the message names) and call again; nothing was changed.";
    UnknownTool = "unknown_tool", B, RefreshAndReplan, "No tool has that name. List the tools (tools/list) and call one of the names it returns; nothing was changed.";
    // Backend: host actions.
    SessionCloseFailed = "session_close_failed", B, HostAction, "The session could not release its lock and stays open. Retry closeSession; if it keeps failing, restart the server.";
    PathPolicyViolation = "path_policy_violation", B, HostAction, "The target path is not allowed. Save only to the project that was opened; write a session opened from a document only into a new folder inside the allowed roots.";
    ProjectRootNotAllowed = "project_root_not_allowed", B, HostAction, "The project is outside the allowed project roots. Ask the user to start the server with --project-dir covering it.";
    SessionLimitExceeded = "session_limit_exceeded", B, HostAction, "Too many sessions are open. Close a session you no longer need, then open again.";
    SessionIdConflict = "session_id_conflict", B, HostAction, "That session id is already in use. Leave sessionId out to let the server choose one, or choose another.";
    LockConflict = "lock_conflict", B, HostAction, "The project is already open in another session of this server. Use that session, or close it first.";
    CapabilityUnavailable = "capability_unavailable", B, HostAction, "This server cannot do that here. Check getCapabilities for what is available; a session opened from a document saves only after materializeSession with targetPath.";
    UamFidelityUnsupported = "uam_fidelity_unsupported", B, HostAction, "A project file could not be read when the session opened, so the model cannot be written back faithfully and writes are refused. Ask the user to make the file readable, then reopen the session.";
    SavePartialFailure = "save_partial_failure", B, HostAction, "The save did not complete; the edits are still in the session. For reason changed_on_disk nothing was written: the files in conflicts changed on disk: refresh the session (openfairygui_refresh_session) to take their change under your edits, then save; ask the user before overwriting it. For reason io check diskMayBePartiallyUpdated and recoveryPaths before retrying.";
    WriteFailed = "write_failed", B, HostAction, "Writing the project failed. Check the failed paths and the disk, then retry.";
    ProjectOpenFailed = "project_open_failed", B, HostAction, "The project could not be opened. Check the reason and the path: it must be a FairyGUI project directory or its .fairy file.";
    MaterializeValidationFailed = "materialize_validation_failed", B, HostAction, "The project is structurally invalid and was not written. Fix the reported issues first.";
    PublishRefused = "publish_refused", B, HostAction, "Publishing was refused because the output would be wrong; nothing was written. Fix the findings in meta.diagnostics, then publish again.";
    FileNameCollision = "file_name_collision", B, HostAction, "Two packages would publish files of the same name into one output directory (skeleton files keep their own names), so one would overwrite, or a later publish remove, the other's. Rename one of the files, or keep the skeleton in one package.";
    // Core transaction: selectors.
    InvalidPackageSelector = "invalid_package_selector", T, ReviseSelector, "No package has that id or name. Take package ids or names from getProjectOutline.";
    InvalidComponentSelector = "invalid_component_selector", T, ReviseSelector, "No component resource has that id or name in the package. Take ids or names from getProjectOutline.";
    InvalidResourceSelector = "invalid_resource_selector", T, ReviseSelector, "No resource of a suitable kind has that id or name in the package. Take ids or names from getProjectOutline.";
    InvalidDisplayNodeSelector = "invalid_display_node_selector", T, ReviseSelector, "No display node has that id or name in the component (or the id is already taken), or a controller action would target a node that does not exist. Take node ids or names from getProjectOutline.";
    InvalidResourceFolderSelector = "invalid_resource_folder_selector", T, ReviseSelector, "No folder matches that package, branch and canonical path (`/a/b/`).";
    InvalidBranchSelector = "invalid_branch_selector", T, ReviseSelector, "No branch has that name.";
    InvalidGearSelector = "invalid_gear_selector", T, ReviseSelector, "The gear kind or controller does not exist on that node at this point of the batch.";
    InvalidLookGearSelector = "invalid_look_gear_selector", T, ReviseSelector, "Not raised by this server: a look gear selector that matches no gear is reported as invalid_gear_selector.";
    SelectorAmbiguity = "selector_ambiguity", T, ReviseSelector, "The selector matches more than one entity because the project holds duplicated ids or names, so no operation can tell them apart. Fix the duplicates in the FairyGUI editor (validateSession lists them); never pick one by guessing.";
    // Core transaction: unsupported.
    UnsupportedOperation = "unsupported_operation", T, ReviseOperation, "That operation kind does not exist. Read the operation catalog for the supported kinds.";
    TransactionUnsupported = "transaction_unsupported", T, ReviseOperation, "The batch was rejected before execution. Fix every listed issue and submit again.";
    NothingToUndo = "nothing_to_undo", T, RefreshAndReplan, "No applied batch is left to undo. Read openfairygui_get_history: undo reaches back to the session's first batch (or as far as the session keeps).";
    NothingToRedo = "nothing_to_redo", T, RefreshAndReplan, "No undone batch is left to redo (a new batch drops what was undone). Read openfairygui_get_history for what can be redone.";
    UnsupportedDisplayNodeKind = "unsupported_display_node_kind", T, ReviseOperation, "That display node kind cannot be used here.";
    UnsupportedCrossPackageImageRef = "unsupported_cross_package_image_ref", T, ReviseOperation, "An image node must reference an image in its own package.";
    UnsupportedGearKind = "unsupported_gear_kind", T, ReviseOperation, "That gear kind is not supported.";
    UnsupportedResourceMutation = "unsupported_resource_mutation", T, ReviseOperation, "That resource kind cannot be changed this way.";
    UnsupportedDisplayNodeMutation = "unsupported_display_node_mutation", T, ReviseOperation, "That display node kind cannot be changed this way.";
    UnsupportedTextFieldTarget = "unsupported_text_field_target", T, ReviseOperation, "Text fields apply only to text, rich text and text input nodes.";
    UnsupportedDisplayNodeField = "unsupported_display_node_field", T, ReviseOperation, "That field does not exist on this node kind.";
    UnsupportedOperationBatch = "unsupported_operation_batch", T, ReviseOperation, "These operations cannot share a batch. Commit them in separate transactions.";
    UnsupportedResourceKind = "unsupported_resource_kind", TV, ReviseOperation, "That resource kind is not supported.";
    // Core transaction: payloads.
    InvalidProjectSettings = "invalid_project_settings", T, ReviseOperation, "The project settings are not a complete, JSON-safe snapshot of the right types.";
    InvalidPackageSettings = "invalid_package_settings", T, ReviseOperation, "The package settings are not a complete, valid snapshot.";
    InvalidDisplayNodePayload = "invalid_display_node_payload", T, ReviseOperation, "A display node value is out of range or the snapshot is incomplete; see `field`.";
    InvalidResourceName = "invalid_resource_name", T, ReviseOperation, "The new resource name cannot be used: it is not a safe file name, another resource in the folder already has it (letter case ignored), or its extension would change how an image is read.";
    InvalidResourcePath = "invalid_resource_path", T, ReviseOperation, "The folder is not a safe canonical path (`/` or `/a/b/`), does not exist in the package on that branch, or the resource's file would clash there with another one (letter case ignored).";
    InvalidResourceFolderPath = "invalid_resource_folder_path", T, ReviseOperation, "The folder path is not canonical, is the root, or its parent or branch does not exist.";
    InvalidResourceFolderAtlas = "invalid_resource_folder_atlas", T, ReviseOperation, "The atlas must be '' or a decimal slot no greater than the package's maxAtlasIndex.";
    InvalidAttachIndex = "invalid_attach_index", T, ReviseOperation, "The index must be an integer between 0 and the display list length.";
    InvalidControllerPayload = "invalid_controller_payload", T, ReviseOperation, "The controller operation cannot be done: the snapshot is invalid (name, pages, selected index, home page, actions), addController names a controller that exists or update/removeController one that does not, or after the batch gears or nodes still use the controller or a page it drops.";
    InvalidTransitionPayload = "invalid_transition_payload", T, ReviseOperation, "The transition operation cannot be done: the snapshot is invalid (name, item targets, action and ease types, times), or update/removeTransition names a transition that does not exist.";
    InvalidLookGearPayload = "invalid_look_gear_payload", T, ReviseOperation, "Not raised by this server: problems of look gear payloads are reported as invalid_gear_payload.";
    InvalidGearPayload = "invalid_gear_payload", T, ReviseOperation, "The gear payload does not match its selector, names unknown pages or has values of the wrong shape, or after the batch the gear does not fit its node (a kind the node cannot take).";
    InvalidResourcePayload = "invalid_resource_payload", T, ReviseOperation, "The resource payload is invalid; or, when the message starts with \"After the batch:\", the batch leaves a structural problem the project did not have (see the path). Repair it in the same batch or drop the operation that causes it.";
    InvalidResourceBytes = "invalid_resource_bytes", T, ReviseOperation, "The bytes do not decode as the resource's format.";
    InvalidMovieClipJta = "invalid_movie_clip_jta", T, ReviseOperation, "The movie clip bytes are not a valid .jta file.";
    InvalidResourceIndex = "invalid_resource_index", T, ReviseOperation, "The resource index is out of range.";
    InvalidBranchName = "invalid_branch_name", T, ReviseOperation, "The branch name is not a safe path segment.";
    InvalidPackagePayload = "invalid_package_payload", T, ReviseOperation, "The package payload is invalid: check its id and name.";
    InvalidPackageIndex = "invalid_package_index", T, ReviseOperation, "The package index is out of range.";
    InvalidComponentPayload = "invalid_component_payload", T, ReviseOperation, "The component payload is invalid.";
    InvalidComponentIndex = "invalid_component_index", T, ReviseOperation, "The component index is out of range.";
    InvalidComponentMove = "invalid_component_move", T, ReviseOperation, "The component cannot move there: the target is its own package, it is a branch variant or has variants, the target package lacks its folder, or another resource there uses its file path.";
    InvalidUam = "invalid_uam", TV, ReviseOperation, "The model breaks a structural rule (see the path and message): duplicated ids or names, links to nodes, pages or controllers that do not exist, gears that do not fit their node, components or groups that contain themselves.";
    // Core transaction: no-ops.
    ProjectSettingsUnchanged = "project_settings_unchanged", T, RefreshAndReplan, "The settings already have this value. Re-read them before planning an update.";
    PackageSettingsUnchanged = "package_settings_unchanged", T, RefreshAndReplan, "The package settings already have this value. Re-read them before planning an update.";
    DisplayNodePropsUnchanged = "display_node_props_unchanged", T, RefreshAndReplan, "The node already has these values. Re-query it before planning an update.";
    ResourceFolderAtlasUnchanged = "resource_folder_atlas_unchanged", T, RefreshAndReplan, "The folder already uses this atlas.";
    // Core transaction: duplicates.
    DuplicateLookGearController = "duplicate_look_gear_controller", T, ReviseOperation, "The node already has a look gear for this controller.";
    DuplicateTransitionName = "duplicate_transition_name", T, ReviseOperation, "A transition with this name already exists in the component.";
    DuplicateLookGearStatePage = "duplicate_look_gear_state_page", T, ReviseOperation, "A page appears more than once in the look gear states.";
    DuplicateGearController = "duplicate_gear_controller", T, ReviseOperation, "The node already has a gear of this kind for this controller.";
    DuplicateGearStatePage = "duplicate_gear_state_page", T, ReviseOperation, "A page appears more than once in the gear states.";
    DuplicateBranchName = "duplicate_branch_name", T, ReviseOperation, "A branch with this name already exists.";
    DuplicateComponentId = "duplicate_component_id", T, ReviseOperation, "A resource with this id already exists in the package.";
    ResourceFolderConflict = "resource_folder_conflict", T, ReviseOperation, "The folder path is already taken by a folder or resource.";
    DuplicateResourceId = "duplicate_resource_id", TV, ReviseOperation, "Two resources in one package share an id.";
    DuplicatePackageId = "duplicate_package_id", TV, ReviseOperation, "Two packages share an id.";
    DuplicatePackageName = "duplicate_package_name", TV, ReviseOperation, "Two packages would share a name (their folder under assets/). Transactions also refuse names that differ only in letter case; validation reports those as path_collision.";
    // Core transaction: references.
    ResourceFolderNotEmpty = "resource_folder_not_empty", T, ReviseOperation, "The folder still holds folders or resources. Move them out first (moveResource, moveResourceFolder); removing them would discard their files.";
    BranchNotEmpty = "branch_not_empty", T, ReviseOperation, "The branch still holds folders or resources.";
    BranchReferenced = "branch_referenced", T, ReviseOperation, "A resource still names a variant in this branch.";
    InvalidResourceReference = "invalid_resource_reference", T, ReviseOperation, "A reference would point at a missing resource or one of the wrong kind.";
    InvalidComponentReference = "invalid_component_reference", T, ReviseOperation, "A component instance would point at a missing component or at a resource that is not one, or the batch would make a component contain itself (directly or through other components).";
    InvalidGroupReference = "invalid_group_reference", T, ReviseOperation, "A node's group must be another group node in the same component, and a group may not belong to itself (directly or through other groups).";
    PackageReferenced = "package_referenced", T, ReviseOperation, "Something still references the package.";
    ComponentReferenced = "component_referenced", T, ReviseOperation, "Something still references the component.";
    ComponentHasPackageDependencies = "component_has_package_dependencies", T, ReviseOperation, "The component still uses resources of its old package.";
    // Core transaction: host actions.
    UnavailableResourceSourceBytes = "unavailable_resource_source_bytes", T, HostAction, "An asset's file bytes are missing. If addResource or addPackage sent an asset without sourceBytes, add the file's bytes. If an existing resource's file was missing or unreadable when the project was opened, it cannot be renamed, moved, removed or have its bytes replaced: stop and tell the user.";
    ProjectionFailed = "projection_failed", T, HostAction, "The batch could not be projected. Report it with the batch.";
    ExecutionFailure = "execution_failure", T, HostAction, "The batch failed while executing and changed nothing. Check the issues.";
    // Core validation.
    MissingSource = "missing_source", V, HostAction, "A file the project declares is not at its path. If the message names files whose paths differ only in letter case (several, so which one the editor would use depends on the disk), rename the one meant to that path and give the others their own names; do not remove the resource. Otherwise restore the file, or remove the resource in the FairyGUI editor.";
    SourceCaseMismatch = "source_case_mismatch", V, HostAction, "A declared file exists only with other letter case in its folder or file name (assets/Pkg/bag/ for /Bag/): it is read and published from there, as the FairyGUI editor on Windows or macOS does, and saves write it there. Case-sensitive disks and tools do not find it: rename the folder or file as the message says; nothing is lost meanwhile.";
    UnreadableSource = "unreadable_source", V, HostAction, "A file could not be read. Check its permissions; the report is incomplete until it can be read.";
    CorruptSource = "corrupt_source", V, HostAction, "A file is empty, does not decode as its format, or is a Git LFS pointer whose content was never fetched. For a pointer, run `git lfs pull`; otherwise replace the broken file with a working export.";
    DecodeCapabilityUnavailable = "decode_capability_unavailable", V, HostAction, "These bytes could not be checked here (a format this server cannot decode, or SVG content it does not read for safety, such as a DTD), so the report is incomplete. The file may well be valid: nothing needs fixing unless the FairyGUI editor cannot use it.";
    InvalidProjectXml = "invalid_project_xml", V, HostAction, "The .fairy project file is malformed, or is a Git LFS pointer (then run `git lfs pull`). Fix or restore it.";
    InvalidPackageXml = "invalid_package_xml", V, HostAction, "A package.xml file is malformed, or is a Git LFS pointer (then run `git lfs pull`). Fix or restore it.";
    InvalidBranchPackageXml = "invalid_branch_package_xml", V, HostAction, "A package_branch.xml file is malformed, or is a Git LFS pointer (then run `git lfs pull`). Fix or restore it.";
    InvalidComponentXml = "invalid_component_xml", V, HostAction, "As an error, a component XML file is malformed, holds an element FairyGUI does not know, or is a Git LFS pointer (then run `git lfs pull`): fix or restore it. As a warning, it holds a valid element this server does not model (a legacy <swf> node): it stays in the file and needs no fix.";
    InvalidProjectValue = "invalid_project_value", V, HostAction, "As an error, a value breaks FairyGUI's lexical rules: fix it in the FairyGUI editor or the file. As a warning, it is a value the editor itself writes and reads back, or one this server does not know; it is kept as written and needs no fix.";
    DesktopIncompatibleGeometry = "desktop_incompatible_geometry", V, HostAction, "A geometry value does not fit a 32-bit integer, so the FairyGUI editor cannot load it. Set a value within ±2147483647 (setDisplayNodeProps, or edit the file).";
    InvalidSettingsJson = "invalid_settings_json", V, HostAction, "A settings JSON file is malformed, has the wrong shape, or is a Git LFS pointer (then run `git lfs pull`). Fix or restore it.";
    PathCollision = "path_collision", V, HostAction, "Two resources use the same file, or files whose paths differ only in letter case (one file on case-insensitive disks). Give each resource its own file name.";
    UnsafePath = "unsafe_path", V, HostAction, "A path is absolute, escapes the project, or uses a reserved name. Rename it in the FairyGUI editor (or with renameResource for a resource in the model).";
    DanglingResourceReference = "dangling_resource_reference", V, HostAction, "A reference points at a resource that does not exist or is of the wrong kind. Point it at an existing resource of the right kind (ids and kinds are in getProjectOutline), or clear the reference, in the FairyGUI editor or with a transaction.";
}

impl DiagnosticCode {
    /// The catalog entry of this code.
    pub fn guide(self) -> &'static Guide {
        // `guides!` lists the enum and the table in the same order.
        &GUIDES[self as usize]
    }
}

impl From<DiagnosticCode> for String {
    fn from(code: DiagnosticCode) -> Self {
        code.as_str().to_string()
    }
}

impl DiagnosticCode {
    /// The typed code for its wire spelling.
    pub fn parse(code: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|known| known.as_str() == code)
    }

    /// How to recover from a diagnostic with this code raised by `owner`. A code shared
    /// by transactions and validation (a duplicate id, a structural rule) needs other
    /// advice when validation finds it in the project as it is: nothing the caller sent
    /// produced it, so "revise the operation" would send an agent nowhere.
    pub fn remediation(self, owner: Owner) -> (RemediationKind, &'static str) {
        if owner == CoreValidation
            && let Some(finding) = self.finding_remediation()
        {
            return finding;
        }
        let guide = self.guide();
        (guide.remediation, guide.message)
    }

    /// The remediation of a validation finding, where it differs from the code's guide.
    pub fn finding_remediation(self) -> Option<(RemediationKind, &'static str)> {
        use DiagnosticCode as C;
        Some(match self {
            C::InvalidUam => (
                HostAction,
                "The project breaks a structural rule (see the path and message). Fix the named entity in the FairyGUI editor, or with a transaction that corrects it.",
            ),
            C::DuplicateResourceId => (
                HostAction,
                "Two resources in one package share an id. If their entries in the package XML are identical, delete one entry (the file stays); otherwise give one resource a new id in the FairyGUI editor.",
            ),
            C::DuplicatePackageId => (
                HostAction,
                "Two packages share an id, so their ui:// references are ambiguous. Give one package a new id in its package.xml.",
            ),
            C::DuplicatePackageName => (
                HostAction,
                "Two packages share a directory name. Rename one package in the FairyGUI editor.",
            ),
            C::UnsupportedResourceKind => (
                HostAction,
                "The package declares a resource kind this server does not read. It is left out of the model and stays in the file; nothing needs fixing for that. Edit it in the FairyGUI editor.",
            ),
            _ => return None,
        })
    }

    /// Whether `getProjectOutline` holds what fixing this needs (ids, names, kinds,
    /// folders, branches, node lists, controller pages, transition names and the
    /// revision), so a remediation may point there. Gears, property values, settings and
    /// events are not in the outline.
    pub fn outline_helps(self) -> bool {
        use DiagnosticCode as C;
        matches!(
            self,
            C::StaleRead
                | C::StaleWrite
                | C::SessionReadFailed
                | C::EntityQueryFailed
                | C::InvalidPackageSelector
                | C::InvalidComponentSelector
                | C::InvalidResourceSelector
                | C::InvalidDisplayNodeSelector
                | C::InvalidResourceFolderSelector
                | C::InvalidBranchSelector
                | C::SelectorAmbiguity
                | C::InvalidResourceFolderPath
                | C::InvalidAttachIndex
                | C::InvalidResourceIndex
                | C::InvalidPackageIndex
                | C::InvalidComponentIndex
                | C::DuplicateTransitionName
                | C::DuplicateBranchName
                | C::DuplicateComponentId
                | C::ResourceFolderConflict
                | C::DuplicateResourceId
                | C::DuplicatePackageId
                | C::DuplicatePackageName
                | C::ResourceFolderNotEmpty
                | C::BranchNotEmpty
                | C::InvalidResourceReference
                | C::InvalidComponentReference
                | C::InvalidGroupReference
                | C::InvalidUam
                | C::PathCollision
                | C::DanglingResourceReference
        )
    }
}

/// The guide for a code, if the code is in the catalog.
pub fn guide(code: &str) -> Option<&'static Guide> {
    GUIDES.iter().find(|guide| guide.code == code)
}

/// The documentation URI of a code.
pub fn docs_uri(code: &str) -> String {
    format!("openfairygui://docs/diagnostics/{code}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn catalog_has_110_unique_codes() {
        let codes: BTreeSet<_> = GUIDES.iter().map(|g| g.code).collect();
        assert_eq!(codes.len(), GUIDES.len(), "duplicate codes in the catalog");
        // Upstream's 103, plus invalid_input and unknown_tool (which upstream returns
        // without a guide), plus our publish_refused, file_name_collision and
        // source_case_mismatch, nothing_to_undo and nothing_to_redo.
        assert_eq!(GUIDES.len(), 110);
    }

    #[test]
    fn typed_codes_match_their_guides() {
        assert_eq!(DiagnosticCode::ALL.len(), GUIDES.len());
        for (code, guide) in DiagnosticCode::ALL.iter().zip(GUIDES) {
            assert_eq!(code.as_str(), guide.code);
            assert_eq!(code.guide(), guide);
        }
    }

    #[test]
    fn no_advice_removes_or_replaces_a_file_that_may_be_fine() {
        // Findings about files that exist (another letter case, a DTD, an LFS pointer,
        // a repeated entry) carry these guides: each tells the case apart.
        let missing = DiagnosticCode::MissingSource.guide().message;
        assert!(missing.contains("letter case") && missing.contains("do not remove"));
        let corrupt = DiagnosticCode::CorruptSource.guide().message;
        assert!(corrupt.contains("git lfs pull"));
        let unchecked = DiagnosticCode::DecodeCapabilityUnavailable.guide().message;
        assert!(!unchecked.contains("replace") && !unchecked.contains("remove"));
        let collision = DiagnosticCode::PathCollision.guide().message;
        assert!(!collision.contains("remove") && !collision.contains("replace"));
        // A folder's contents are moved, never removed, to empty it.
        let folder = DiagnosticCode::ResourceFolderNotEmpty.guide().message;
        assert!(folder.contains("Move them out") && !folder.contains("or remove"));
        // "a image", "a unknown": articles read right in every guide.
        for guide in GUIDES {
            for vowel in ["a image", "a unknown", "a existing", "a entry", "a id "] {
                assert!(!guide.message.contains(vowel), "{}: {vowel}", guide.code);
            }
        }
    }

    #[test]
    fn one_liners_cover_every_situation_their_code_is_raised_in() {
        let message = |code: DiagnosticCode| code.guide().message;
        // Raised for an added asset without bytes and for an existing one whose file was
        // not read: both are named.
        let bytes = message(DiagnosticCode::UnavailableResourceSourceBytes);
        assert!(bytes.contains("sourceBytes") && bytes.contains("missing or unreadable"));
        // Ambiguous selectors are fixed outside operations, which would be ambiguous too.
        let ambiguous = message(DiagnosticCode::SelectorAmbiguity);
        assert!(ambiguous.contains("FairyGUI editor"));
        for operation in ["updateController", "removeController", "Use exact ids"] {
            assert!(!ambiguous.contains(operation), "{operation}");
        }
        for reserved in [
            DiagnosticCode::InvalidLookGearSelector,
            DiagnosticCode::InvalidLookGearPayload,
        ] {
            assert!(message(reserved).starts_with("Not raised"), "{reserved:?}");
        }
        // Only sessions of this server are coordinated so far.
        assert!(!message(DiagnosticCode::LockConflict).contains("process"));
        assert!(message(DiagnosticCode::UamFidelityUnsupported).contains("could not be read"));
        // Codes that final-state checks reuse say so.
        assert!(message(DiagnosticCode::InvalidResourcePayload).contains("After the batch"));
        assert!(message(DiagnosticCode::InvalidComponentReference).contains("contain itself"));
        assert!(message(DiagnosticCode::InvalidGroupReference).contains("belong to itself"));
        assert!(message(DiagnosticCode::InvalidGearPayload).contains("does not fit its node"));
        assert!(message(DiagnosticCode::InvalidComponentXml).contains("As a warning"));
    }
}
