//! Method inputs and outputs (the `data` of successful envelopes).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::capabilities::Capabilities;
use crate::diagnostics::ProjectDiagnostic;
use crate::envelope::BackendDiagnostic;
use crate::ops::PackageInput;
use crate::uam::UamProject;

pub use crate::selectors::{
    ComponentSelector, ControllerSelector, DisplayNodeSelector, PackageSelector, ResourceSelector,
    TransitionSelector,
};
pub use crate::session::{SessionSnapshot, SessionState, UamFidelity};

mod history;
mod publish;
mod strings;

pub use self::history::*;
pub use self::publish::*;
pub use self::strings::*;

/// Longest id, name or selector string a method accepts.
pub const MAX_ID_LEN: usize = 256;
/// Longest project path a method accepts.
pub const MAX_PATH_LEN: usize = 4096;

// ---------------------------------------------------------------- inputs

/// No arguments.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct NoInput {}

/// `openSession` input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OpenSessionInput {
    /// A FairyGUI project directory (holding exactly one `.fairy` file) or a `.fairy` file,
    /// inside one of the server's allowed project roots. Relative paths resolve against
    /// the first allowed root.
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 4096)))]
    pub project_path: String,
    /// Edits an earlier session of this project did not save (listed by the open
    /// result): `recover` replays them, `discard` removes them; omitted, they are kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unsaved_edits: Option<UnsavedEditsChoice>,
}

/// What `openSession` does with an earlier session's unsaved edits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum UnsavedEditsChoice {
    Recover,
    Discard,
}

/// `openProjectSession` input: a session over a project given as a document rather than
/// read from disk. (The SDK's host object `storage` has no MCP form: it is refused.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OpenProjectSessionInput {
    /// The whole project as the UAM (what readSessionState returns), with each asset's
    /// file bytes in `sourceBytes`. The backend decodes it strictly and refuses what no
    /// project on disk could read as (`invalid_input` at the field).
    #[cfg_attr(feature = "schema", schemars(with = "ProjectDocument"))]
    pub project: Value,
    /// The id the session gets; omitted, the server chooses one. Letters, digits and
    /// `-._~` only, so resource URIs can name it; an id in use is `session_id_conflict`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "schema",
        schemars(length(min = 1, max = 256), regex(pattern = r"^[A-Za-z0-9._~-]+$"))
    )]
    pub session_id: Option<String>,
    /// How results name the project; omitted, `memory://<sessionId>`. Identity only: it
    /// grants no file access.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 4096)))]
    pub canonical_project_path: Option<String>,
    /// The project's identity for one-session-per-project; omitted, the lower-cased
    /// `canonicalProjectPath`. A key an open session holds is `lock_conflict`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 4096)))]
    pub canonical_path_key: Option<String>,
}

/// The project of `openProjectSession`: a UAM project whose asset resources carry their
/// primary file bytes (`sourceBytes`, as in addPackage). `sourcePath` may be left out: it
/// is derived as a reader names the file (`assets/<package>/<folder>/<file>`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProjectDocument {
    pub project_id: String,
    /// As in the UAM: upstream's engine number, -1 when `projectTypeName` names one upstream
    /// does not number.
    pub project_type: i32,
    #[serde(default)]
    pub project_type_name: String,
    pub version: String,
    pub branches: Vec<String>,
    pub settings: Map<String, Value>,
    pub packages: Vec<PackageInput>,
}

/// Input of the methods that only name a session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SessionInput {
    /// The `sessionId` returned by openSession.
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub session_id: String,
}

/// `validateSession` input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ValidateSessionInput {
    /// The `sessionId` returned by openSession.
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub session_id: String,
    /// `limit` findings per answer; without a limit, the findings that fit in about
    /// 16 KiB. `cursor` continues (the warning `answer_paged` gives it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<PageRequest>,
}

/// `saveSession` input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SaveSessionInput {
    /// The `sessionId` returned by openSession.
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub session_id: String,
    /// The revision you read last; when given it must be current (`stale_write`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_revision: Option<u64>,
    /// Where to save: only the opened project (its directory or `.fairy` file) is
    /// allowed; anything else fails with `path_policy_violation`. Saving is not Save As.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 4096)))]
    pub target_path: Option<String>,
    /// True rewrites the whole project in the editor's layout (as materializeSession).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force: Option<bool>,
    /// `materializeCleanSession` rewrites the whole project (as materializeSession).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<SaveMode>,
}

/// `saveSession` modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum SaveMode {
    #[serde(rename = "materializeCleanSession")]
    MaterializeCleanSession,
}

/// `materializeSession` input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MaterializeSessionInput {
    /// The `sessionId` returned by openSession.
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub session_id: String,
    /// The revision you read last; when given it must be current (`stale_write`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_revision: Option<u64>,
    /// Always `fullProject`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<MaterializeMode>,
    /// For a session opened with openProjectSession: a directory inside the allowed
    /// roots holding no project yet (created if missing), or a `.fairy` file in one; the
    /// session then is that project's, and saves there. A session opened from disk allows
    /// only its own project.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 4096)))]
    pub target_path: Option<String>,
    /// Why, echoed in the result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(max = 1024)))]
    pub reason: Option<String>,
}

/// `materializeSession` modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum MaterializeMode {
    #[serde(rename = "fullProject")]
    FullProject,
}

/// `queryEntity` input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QueryEntityInput {
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub session_id: String,
    /// What to read, by ids from getProjectOutline, or by the names it shows (a package's
    /// name, a resource's name or folder path and name, a display node's name); a name
    /// several share is refused with their ids. The backend checks the target itself so a
    /// malformed one fails as `entity_query_failed` / `invalid_query`.
    #[cfg_attr(feature = "schema", schemars(with = "EntityTarget"))]
    pub target: Value,
}

/// `readSessionState` input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReadSessionStateInput {
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub session_id: String,
    /// When given, the read fails with `stale_read` unless it is the current revision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_revision: Option<u64>,
    /// Only part of the project; omitted, the whole project.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<ProjectScope>,
    /// Packages per answer, for large projects; omitted, all in one answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<PageRequest>,
}

/// `getProjectOutline` input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OutlineInput {
    /// The `sessionId` returned by openSession.
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub session_id: String,
    /// Only part of the project; omitted, the whole project.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<ProjectScope>,
    /// `limit` packages per answer; without a limit, the packages that fit in about
    /// 56 KiB. `cursor` continues after the previous answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<PageRequest>,
    /// `full` (default): folders, resources and component structure; `packages`: only
    /// each package's id, name, branches and resource count, to choose a scope.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<OutlineDetail>,
}

/// How much of each package an outline shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum OutlineDetail {
    #[default]
    Full,
    Packages,
}

/// Which part of the project a read covers: `packageIds` or `component`, not both.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProjectScope {
    /// Only these packages (exact ids from getProjectOutline); answered in project order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 1000)))]
    pub package_ids: Option<Vec<String>>,
    /// Only this component: its package, holding just this resource.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub component: Option<ComponentSelector>,
}

/// One page of a long answer. Pass the same scope with each page.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PageRequest {
    /// Most items in this answer: packages for outlines and session state, matches for
    /// search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 1000)))]
    pub limit: Option<u32>,
    /// The previous answer's `nextCursor`, to continue after it; valid while the
    /// revision stays the same (`stale_read` otherwise: start again without a cursor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 64)))]
    pub cursor: Option<String>,
}

/// `searchProject` input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchProjectInput {
    /// The `sessionId` returned by openSession.
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub session_id: String,
    /// What to find; every given field must match.
    pub query: SearchQuery,
    /// Only part of the project; omitted, the whole project.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<ProjectScope>,
    /// Matches per answer (default 50); `nextCursor` continues.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<PageRequest>,
}

/// Search criteria: at least one; text matching ignores case.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchQuery {
    /// Part of a display node's or resource's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub name: Option<String>,
    /// Part of what a display node shows or holds as text: a text's text or prompt, a
    /// button's or label's title, an instance's title, list item titles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 1024)))]
    pub text: Option<String>,
    /// A display node kind (`text`, `button`, `loader`, …) or resource kind (`image`,
    /// `component`, `font`, …), exactly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 64)))]
    pub kind: Option<String>,
    /// A `ui://` URL (`ui://<packageId><resourceId>` or `ui://<package>/<resource>`):
    /// the resource itself and every display node that refers to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(length(min = 6, max = 1024)))]
    pub url: Option<String>,
    /// `nodes`, `resources` or `all` (default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entities: Option<SearchEntities>,
}

/// Which entities a search returns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum SearchEntities {
    #[default]
    All,
    Nodes,
    Resources,
}

/// `readResourceBytes` input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReadResourceBytesInput {
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub session_id: String,
    /// Required: the read fails with `stale_read` unless it is the current revision.
    pub expected_revision: u64,
    pub selector: ResourceSelector,
}

// ---------------------------------------------------------------- entity targets

/// An entity to read, by kind and exact ids.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum EntityTarget {
    /// The project (no selector).
    Project {},
    Package {
        selector: PackageSelector,
    },
    Resource {
        selector: ResourceSelector,
    },
    Component {
        selector: ComponentSelector,
    },
    DisplayNode {
        selector: DisplayNodeSelector,
    },
    Controller {
        selector: ControllerSelector,
    },
    Transition {
        selector: TransitionSelector,
    },
}

// ---------------------------------------------------------------- outputs

/// `materializeSession` output (also `saveSession` with `force` or a `mode`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct MaterializeSessionData {
    pub session_id: String,
    pub canonical_project_path: String,
    pub revision: u64,
    pub last_saved_revision: u64,
    pub dirty: bool,
    pub uam_fidelity: UamFidelity,
    pub lock_held: bool,
    pub capabilities: Capabilities,
    /// Always `fullProject`.
    pub mode: MaterializeMode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The revision written.
    pub materialize_revision: u64,
    /// `lastSavedRevision` after the write.
    pub save_revision: u64,
    /// Files whose canonical form equals what is on disk, left alone.
    /// Files written, new or changed (the whole of what changed on disk is in the
    /// result's additions, `saved`).
    pub written_paths: Vec<String>,
    pub skipped_paths: Vec<String>,
    /// Always empty on success (validation findings refuse the write).
    pub diagnostics: Vec<serde_json::Value>,
}

/// `saveSession` answers with the session after the save ([`SessionSnapshot`]), or with
/// [`MaterializeSessionData`] when `force` or `mode` asked for a whole rewrite.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum SaveOrMaterialize {
    Save(SessionSnapshot),
    Materialize(MaterializeSessionData),
}

/// What a save changed on disk. Paths are project-relative with `/`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DiskChanges {
    /// Files written, new or changed.
    pub written_paths: Vec<String>,
    /// Files removed (removed or moved resources, packages, branches).
    pub removed_paths: Vec<String>,
    pub created_directories: Vec<String>,
    pub removed_directories: Vec<String>,
    /// Directories the save would have removed but that hold files the session never
    /// read: left in place with those files.
    pub kept_directories: Vec<String>,
    /// Files an earlier, interrupted save changed, completed or undone before this one.
    pub recovered_paths: Vec<String>,
    /// True when every written file was read back before the commit and gave exactly the
    /// session's model.
    pub write_verified: bool,
}

/// `closeSession` output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CloseSessionData {
    pub session_id: String,
    pub closed: crate::envelope::True,
}

/// A folder in the outline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OutlineFolder {
    pub branch: String,
    pub path: String,
}

/// A display node in the outline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OutlineNode {
    pub id: String,
    pub name: String,
    pub kind: String,
}

/// A controller page in the outline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OutlinePage {
    pub id: String,
    pub name: String,
}

/// A controller in the outline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OutlineController {
    pub name: String,
    pub pages: Vec<OutlinePage>,
}

/// A transition in the outline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OutlineTransition {
    pub name: String,
}

/// A component's structure in the outline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OutlineComponent {
    pub display_list: Vec<OutlineNode>,
    pub controllers: Vec<OutlineController>,
    pub transitions: Vec<OutlineTransition>,
}

/// A resource in the outline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OutlineResource {
    pub id: String,
    pub name: String,
    pub path: String,
    pub kind: String,
    pub branch: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub component: Option<OutlineComponent>,
}

/// A package in the outline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OutlinePackage {
    pub id: String,
    pub name: String,
    pub branch_names: Vec<String>,
    /// Absent with `detail: packages`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folders: Option<Vec<OutlineFolder>>,
    /// Absent with `detail: packages`; with a component scope, just that component.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<Vec<OutlineResource>>,
    /// How many resources the package has; only with `detail: packages`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_count: Option<u32>,
}

/// `getProjectOutline` output: every package, resource, folder, display node, controller
/// page and transition, with ids but without property payloads or bytes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProjectOutline {
    pub session_id: String,
    pub revision: u64,
    pub project_id: String,
    /// Upstream's number (see the UAM's `projectType`); -1 for an engine upstream does
    /// not number or a type this server does not know (the result's additions name it).
    pub project_type: i32,
    pub version: String,
    pub branches: Vec<String>,
    /// The packages in scope on this page, in project order.
    pub packages: Vec<OutlinePackage>,
    /// Present when more packages follow: pass it as `page.cursor` (with the same scope).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// The entity `queryEntity` found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QueriedEntity {
    /// The target kind.
    pub kind: String,
    /// The fixed projection of that kind: project `{projectId, settings}`, package
    /// `{id, name, settings}`, resource fields without bytes or metadata, component
    /// `{size, properties, customData}`, and the full model of display nodes, controllers
    /// and transitions.
    pub properties: Map<String, Value>,
}

/// `queryEntity` output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QueryEntityData {
    pub session_id: String,
    pub revision: u64,
    pub target: EntityTarget,
    pub entity: QueriedEntity,
}

/// `readSessionState` output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SessionStateData {
    pub session_id: String,
    pub revision: u64,
    pub last_saved_revision: u64,
    pub dirty: bool,
    pub uam_fidelity: UamFidelity,
    /// The committed model, without any resource bytes.
    pub project: UamProject,
    /// What the reader found wrong while opening the project.
    pub read_diagnostics: Vec<ProjectDiagnostic>,
    /// False when some source could not be read at all.
    pub read_complete: bool,
    /// Present when more packages follow: pass it as `page.cursor` (with the same scope).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// One entity a search found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchMatch {
    /// What to pass to queryEntity; its `selector` is the one operations take.
    pub target: EntityTarget,
    /// The node's or resource's kind.
    pub kind: String,
    pub name: String,
    pub package_name: String,
    /// The file of the component holding the node, or of the resource itself, in its
    /// package (`/components/Button10.xml`).
    pub resource_path: String,
    /// Where the text or the reference was found (`text.text`, `title`, `props.url`,
    /// `resource`), when the query had `text` or `url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The text that matched, cut to 120 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// `searchProject` output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchProjectData {
    pub session_id: String,
    pub revision: u64,
    /// The matches on this page, in project order (packages, resources, then display
    /// list order; a resource before its nodes).
    pub matches: Vec<SearchMatch>,
    /// All matches in scope, on every page.
    pub total: u32,
    /// Present when more matches follow: pass it as `page.cursor` (with the same query
    /// and scope).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// `readResourceBytes` output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceBytesData {
    pub session_id: String,
    pub revision: u64,
    pub selector: ResourceSelector,
    /// The primary file's bytes, base64-encoded.
    #[cfg_attr(feature = "schema", schemars(extend("contentEncoding" = "base64")))]
    pub source_bytes: String,
}

/// `renderComponent` input: which component to draw, at which controller pages, how.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RenderComponentInput {
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub session_id: String,
    /// The component, by ids or by the names the outline shows (`componentResourceId`
    /// may be a folder path and name, `/views/Main`).
    pub selector: ComponentSelector,
    /// Controller name → page id or name; the others show the runtime's start page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller_pages: Option<std::collections::BTreeMap<String, String>>,
    /// Pixels per component unit, 0.05 to 4; 1 by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 0.05, max = 4.0)))]
    pub scale: Option<f64>,
    /// `#RRGGBB` behind the component; transparent by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(regex(pattern = r"^#[0-9A-Fa-f]{6}$")))]
    pub background: Option<String>,
    /// When given it must be the current revision (`stale_read`); required with
    /// `previewOperations` and `previewHistory`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_revision: Option<u64>,
    /// Before and after, side by side: `undo` or `redo` (now, and as that step would
    /// leave it) or `unsaved` (as saved, and now). Nothing changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview_history: Option<HistoryPreview>,
    /// A batch's `batchRevision` (getHistory): before and after that batch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview_batch: Option<u64>,
    /// A batch as for `preflightTransaction`: the picture then shows the component now
    /// and as the batch would leave it, side by side (left before, right after); nothing
    /// is applied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "schema",
        schemars(
            with = "Option<Vec<crate::ops::Operation>>",
            length(min = 1, max = 1000)
        )
    )]
    pub preview_operations: Option<Vec<Value>>,
    /// A translation's text (strings XML or CSV): drawn in that language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strings: Option<String>,
    /// Or its file (`.xml`, `.csv`, `.xlsx`) inside the allowed roots.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strings_file: Option<String>,
    /// With strings: its own language and the translation's side by side, the texts
    /// that no longer fit outlined (`troubles`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare_strings: Option<bool>,
}

/// A controller and the page a render showed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RenderedPage {
    pub controller: String,
    pub page_id: String,
    pub page_name: String,
}

/// Something a render drew only approximately, or as a labelled placeholder box.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RenderApproximation {
    /// Node ids from the rendered component down to the node, joined by `/` (nested
    /// components' nodes included); `""` for the component itself.
    pub node_path: String,
    /// The node kind (`loader3D`, `richText`, …) or `component`.
    pub kind: String,
    /// What was not drawn as the runtime would, in plain words.
    pub reason: String,
}

/// How the picture after a preview batch differs from the one before.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RenderComparison {
    /// Width and height of each half, in pixels (the larger of before and after).
    pub panel_width: u32,
    pub panel_height: u32,
    /// Pixels between the halves.
    pub gap: u32,
    /// The component's size after the batch, in component units.
    pub width_after: f64,
    pub height_after: f64,
    /// Pixels that differ between before and after; 0 means the batch changes nothing
    /// visible.
    pub changed_pixels: u64,
    /// Approximations of the picture after the batch.
    pub approximations_after: Vec<RenderApproximation>,
}

/// `renderComponent` output (the PNG itself is the tool result's image content).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RenderComponentData {
    pub session_id: String,
    pub revision: u64,
    pub selector: ComponentSelector,
    /// The component's size in component units.
    pub width: f64,
    pub height: f64,
    pub scale: f64,
    /// The picture's size in pixels: the component's size × scale, rounded up (twice
    /// that plus a gap across, with `comparison`).
    pub pixel_width: u32,
    pub pixel_height: u32,
    /// The page each of the component's controllers showed.
    pub controller_pages: Vec<RenderedPage>,
    /// Length of the PNG.
    pub png_bytes: u64,
    /// What was drawn approximately or as a placeholder, sorted by node path.
    pub approximations: Vec<RenderApproximation>,
    /// With `previewOperations`: how the batch changes the picture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comparison: Option<RenderComparison>,
    /// With `compareStrings`: the texts the language makes no longer fit (outlined).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub troubles: Vec<TextTrouble>,
}

/// The overall verdict of a validation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum ValidationStatus {
    /// No errors and every source was checked.
    Valid,
    /// At least one error.
    Invalid,
    /// No errors, but some source could not be read or checked; not a pass.
    Incomplete,
}

/// `validateSession` output: what is wrong with the project, where, and how to fix it.
/// Callers must require `status: "valid"` and `complete: true`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ValidationReport {
    pub status: ValidationStatus,
    /// False when some source could not be read or checked.
    pub complete: bool,
    /// Sorted by path, then code, then message.
    pub diagnostics: Vec<ProjectDiagnostic>,
}

/// `preflightTransaction` and `applyTransaction` input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TransactionInput {
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub session_id: String,
    /// The session's current revision; anything else fails with `stale_write`.
    pub expected_revision: u64,
    /// The batch, applied in order, all or nothing.
    #[cfg_attr(
        feature = "schema",
        schemars(with = "Vec<crate::ops::Operation>", length(min = 1, max = 1000))
    )]
    pub operations: Vec<Value>,
}

/// How an entity or file changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Change {
    Added,
    Removed,
    Updated,
}

/// What a changed path is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum FileKind {
    File,
    Directory,
}

/// One entity a batch changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EntityImpact {
    pub target: EntityTarget,
    pub change: Change,
    /// Sorted top-level fields that differ (empty for added and removed entities).
    pub fields: Vec<String>,
}

/// One file or directory a save would touch.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FileImpact {
    /// Project-relative path.
    pub path: String,
    pub kind: FileKind,
    pub change: Change,
}

/// Everything a batch changes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Impact {
    pub entities: Vec<EntityImpact>,
    /// Sorted by path, then kind.
    pub files: Vec<FileImpact>,
}

/// What happens to the edits after an apply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Persistence {
    pub required_after_apply: crate::envelope::True,
    /// `saveSession` when the session can be saved; `host-action` when it cannot
    /// (`uamFidelity` is `unsupported`: a source could not be read at open).
    pub next_action: String,
    pub file_system_available: bool,
    pub uam_fidelity: UamFidelity,
    pub write_verified: crate::envelope::False,
}

/// `preflightTransaction` output: what applying the batch would change, without changing it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TransactionPreview {
    pub session_id: String,
    pub base_revision: u64,
    pub projected_revision: u64,
    /// Always `execute-and-discard`: the batch really ran, on a copy.
    pub mode: String,
    pub impact: Impact,
    pub persistence: Persistence,
}

/// The values the server chose for one operation: every field of the entity it made
/// that differs from what the operation sent, or that the operation left out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GeneratedValues {
    pub op_index: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub op_id: Option<String>,
    /// The operation's kind (`addResource`).
    pub operation_kind: String,
    /// The entity the operation made, by its (possibly generated) id.
    pub target: EntityTarget,
    /// Each chosen field with its value, in the entity's own shape (`id`, `name`,
    /// `path`, `image`, `movieClip`, `dimensions`, `sourcePath`, …).
    pub values: Map<String, Value>,
}

/// `getEvents` input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EventsInput {
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub session_id: String,
    /// Return events after this sequence number: the `sequence` of the last event you
    /// saw, as the number `getEvents` returned or as a decimal string; omitted means from
    /// the oldest retained event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<EventCursor>,
    /// Most events to return.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
}

/// An event sequence number, as a number or as a decimal string (upstream's spelling).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum EventCursor {
    Sequence(u64),
    Text(#[cfg_attr(feature = "schema", schemars(length(max = 32)))] String),
}

impl EventCursor {
    /// The cursor as the decimal text it stands for.
    pub fn text(&self) -> std::borrow::Cow<'_, str> {
        match self {
            EventCursor::Sequence(sequence) => sequence.to_string().into(),
            EventCursor::Text(text) => text.as_str().into(),
        }
    }
}

/// `refreshCache` input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RefreshCacheInput {
    #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
    pub session_id: String,
    /// Echoed in the `cache.updated` event's payload; omitted, `manual`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<RefreshReason>,
}

/// Why a cache entry is refreshed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RefreshReason {
    #[default]
    Manual,
    SessionOpen,
    AfterSave,
}

impl RefreshReason {
    /// The wire spelling (`after_save`).
    pub fn as_str(self) -> &'static str {
        match self {
            RefreshReason::Manual => "manual",
            RefreshReason::SessionOpen => "session_open",
            RefreshReason::AfterSave => "after_save",
        }
    }
}

/// What the cache knows of a session's project.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CacheSummary {
    pub package_count: u32,
    /// Resources of every package together.
    pub resource_count: u32,
    /// Always empty: the cache indexes no findings (validateSession reports them).
    pub diagnostics: Vec<BackendDiagnostic>,
}

/// The derived index of one session: never the source of truth, refreshed on open, save
/// and `refreshCache`, invalidated by edits and failed saves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CacheEntry {
    pub canonical_path_key: String,
    pub session_id: String,
    /// The session's revision when the entry was made.
    pub revision: u64,
    pub last_saved_revision: u64,
    pub dirty: bool,
    /// False once an edit or a failed save made the entry stale; `refreshCache` renews it.
    pub valid: bool,
    /// RFC 3339 UTC time the entry was made.
    pub indexed_at: String,
    pub summary: CacheSummary,
}

/// `getCacheSnapshot` and `refreshCache` output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CacheSnapshot {
    /// The revision of the entry (the session's revision when there is none).
    pub cache_revision: u64,
    /// The session's entry: one, or none.
    pub entries: Vec<CacheEntry>,
}

/// Something that happened to a session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BackendEvent {
    /// Increases by one per event across the whole server, from 1.
    pub sequence: u64,
    /// `session.opened`, `transaction.applied`, `transaction.rejected`, `history.undone`,
    /// `history.redone`, `save.started`, `save.completed`, `save.failed`,
    /// `cache.invalidated`, `cache.updated`, `session.closeRequested` or `session.closed`.
    pub kind: String,
    /// RFC 3339 UTC time.
    pub timestamp: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub canonical_path_key: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<u64>,
    /// The cache entry's revision (`cache.invalidated`, `cache.updated`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_revision: Option<u64>,
    pub diagnostics: Vec<BackendDiagnostic>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload: Option<Value>,
}

/// `getEvents` output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EventsData {
    pub events: Vec<BackendEvent>,
    /// Sequence of the oldest retained event (1 when there is none).
    pub oldest_sequence: u64,
    /// Sequence of the newest retained event (0 when there is none).
    pub current_sequence: u64,
    pub cursor_expired: crate::envelope::False,
}
