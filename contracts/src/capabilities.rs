//! What this backend can do, as reported by `getCapabilities` and in every session snapshot.

use serde::{Deserialize, Serialize};

use crate::methods::METHODS;
use crate::uam::{GEAR_KINDS, NODE_KINDS, RESOURCE_KINDS};
use crate::version::{CAPABILITY_SCHEMA_VERSION, CONTRACT_VERSION};

/// Budget of `queryEntity` results.
pub const QUERY_LIMITS: ReadLimits = ReadLimits {
    max_bytes: 262_144,
    max_depth: 32,
    max_nodes: 100_000,
};
/// Budget of `readSessionState` results.
pub const SESSION_STATE_LIMITS: ReadLimits = ReadLimits {
    max_bytes: 4_194_304,
    max_depth: 64,
    max_nodes: 500_000,
};
/// Largest primary file `readResourceBytes` returns.
pub const RESOURCE_BYTES_MAX: u64 = 1_048_576;
/// Bounds of `renderComponent`: the scale, and the picture it may return.
pub const RENDER_MIN_SCALE: f64 = 0.05;
pub const RENDER_MAX_SCALE: f64 = 4.0;
/// Longest side of a picture, in pixels (a comparison's two halves together).
pub const RENDER_MAX_SIDE: u32 = 8192;
/// Pixels of a picture (16 Mi: 64 MiB of RGBA while drawing).
pub const RENDER_MAX_PIXELS: u64 = 16_777_216;
/// Longest PNG returned.
pub const RENDER_MAX_PNG_BYTES: u64 = 8_388_608;
/// Component instances drawn inside each other before the deepest become placeholders.
pub const RENDER_MAX_DEPTH: u32 = 8;
/// Budget of a `preflightTransaction` impact.
pub const PREVIEW_LIMITS: PreviewLimits = PreviewLimits {
    max_bytes: 262_144,
    max_entries: 2000,
};
/// Events kept per session; older ones expire (`cursorExpired`).
pub const EVENT_RETENTION: u32 = 1000;

/// Size limits of a transaction preview.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PreviewLimits {
    pub max_bytes: u64,
    /// Entities plus files.
    pub max_entries: u64,
}

/// How `preflightTransaction` previews a batch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PreflightCapability {
    /// `execute-and-discard`: the real operations run on a copy that is thrown away.
    pub mode: String,
    pub reserves_revision: bool,
    /// `model-diff`: the impact's entities are the difference between the model before
    /// and after the batch. Its files are exactly what a save would then write, create and
    /// remove: the batch's changed files as this server's writer plans them.
    pub impact: String,
    pub limits: PreviewLimits,
}

/// What transactions can change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TransactionScope {
    pub resource_kinds: Vec<String>,
    pub node_kinds: Vec<String>,
    pub gear_kinds: Vec<String>,
}

/// Event polling.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EventsCapability {
    pub polling: bool,
    pub subscriptions: bool,
    pub retention_limit: u32,
    /// `runtime`: one sequence counter shared by every session of this server.
    pub sequence_scope: String,
}

/// The derived cache of `getCacheSnapshot`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CacheCapability {
    /// Entries are derived from the sessions; no method edits them.
    pub derived_read_only: bool,
    /// `sessionId`: one entry per open session.
    pub keyed_by: String,
    /// `synchronous`: the refresh method answers with the refreshed entry.
    pub refresh_mode: String,
    /// False: the session is the truth; an entry may be stale (`valid: false`).
    pub source_of_truth: bool,
    /// The method that refreshes an entry.
    pub refresh_method: String,
}

/// How the contract may change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CompatibilityPolicy {
    pub incompatible_change: String,
    pub capability_schema_change: String,
    pub additive_change: String,
}

/// Size limits of a read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReadLimits {
    pub max_bytes: u64,
    pub max_depth: u32,
    pub max_nodes: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EntityQueryCapability {
    pub kinds: Vec<String>,
    pub projection: String,
    pub source_bytes: bool,
    pub limits: ReadLimits,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SessionStateCapability {
    pub source_bytes: bool,
    pub limits: ReadLimits,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceBytesCapability {
    pub expected_revision_required: bool,
    pub hydration: bool,
    pub max_bytes: u64,
}

/// The read plane.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReadCapabilities {
    pub capability_snapshot: bool,
    pub session_snapshot: bool,
    pub project_outline: bool,
    pub project_validation: bool,
    pub entity_query: EntityQueryCapability,
    pub session_state: SessionStateCapability,
    pub resource_bytes: ResourceBytesCapability,
}

/// The authoring plane.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AuthoringCapabilities {
    pub preflight_transaction: PreflightCapability,
    pub apply_transaction: bool,
    pub save_session: bool,
    /// Resource kinds the reader models.
    pub resource_kinds: Vec<String>,
    /// Display node kinds the reader models.
    pub node_kinds: Vec<String>,
    /// Gear kinds the reader models.
    pub gear_kinds: Vec<String>,
    /// What transactions can change (every kind the reader models).
    pub transaction_scope: TransactionScope,
    /// Features this backend does not offer.
    pub unsupported: Vec<String>,
}

/// Published-artifact features. No session method publishes or restores (`publish` and
/// `restore` are false, as upstream's); publishing is a separate tool of this server,
/// which `publishBridge` names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ArtifactCapabilities {
    pub publish: bool,
    pub restore: bool,
    /// `bridge-required`: artifacts are made outside the session methods.
    pub status: String,
    pub publish_bridge: ArtifactBridge,
    pub restore_bridge: ArtifactBridge,
}

/// Where an artifact workflow outside the session methods runs, if anywhere.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ArtifactBridge {
    /// Whether this server runs the workflow.
    pub available: bool,
    /// The program that runs it.
    pub required_host: String,
    /// `external-bridge`: outside the session methods.
    pub execution_boundary: String,
    /// What to call: a tool of this server, or upstream's Node entry point.
    pub bridge_entrypoint: String,
    pub reason: String,
}

/// How the backend is packaged and what its host must supply, in upstream's terms.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CapabilityManifest {
    /// False: the backend is a WASI component that needs a host with a preopened project
    /// directory; it is not run or tested in a browser.
    pub browser_safe: bool,
    /// The component and the WIT world it exports.
    pub root_entrypoint: String,
    /// The native host that supplies storage, locks and the MCP surface.
    pub node_entrypoint: String,
    pub adapters: ManifestAdapters,
    pub execution_boundaries: ExecutionBoundaries,
    pub diagnostics: DiagnosticsManifest,
}

/// What the host injects into the backend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ManifestAdapters {
    /// The project directory, preopened for the session's component instance.
    pub file_system: InjectedFileSystem,
    pub project_storage: InjectedProjectStorage,
    /// The host holds the advisory lock and its metadata.
    pub host: InjectedHost,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InjectedFileSystem {
    pub injected: bool,
    pub required_for: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InjectedProjectStorage {
    pub injected: bool,
    pub browser_safe: bool,
    pub required_for: Vec<String>,
    /// What supplies the storage: a WASI preopen.
    pub adapter_factory: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InjectedHost {
    pub injected: bool,
    pub required_for: Vec<String>,
}

/// Where each kind of work runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExecutionBoundaries {
    /// `wasi-component`: a session runs inside its own component instance.
    pub project_session: String,
    /// `adapter-backed`: a session reads and writes only through the injected storage.
    pub file_backed_session: String,
    pub artifact_publish: ArtifactBridge,
    pub artifact_restore: ArtifactBridge,
}

/// What failures promise.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DiagnosticsManifest {
    /// Codes never change meaning.
    pub stable_codes: bool,
    /// A failure's error is also in `meta.diagnostics`.
    pub error_diagnostic_mirror: bool,
    /// `all-formal-codes`: every code has a recovery guide (`docs diagnostics/<code>`).
    pub recovery_guides: String,
    /// False: nothing is repaired without being asked.
    pub automatic_repair: bool,
}

/// How paths are checked. Beyond what this reports, the backend runs as a WASI component
/// whose only storage is the opened project directory (a WASI preopen): a path check
/// that went wrong still could not reach another project or anything outside this one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PathPolicy {
    /// `realpath+normalized`: paths are resolved through symlinks and compared exactly.
    pub canonicalization: String,
    pub session_identity: String,
    /// `opened-project-only`: `saveSession` writes only the project the session opened.
    pub save_target: String,
    /// `deferred`: a save writes no other target (a `targetPath` that is not the opened
    /// project is refused); a new directory is written only by `materializeSession` with
    /// `targetPath`.
    pub output_targets: String,
    pub workspace_boundary: String,
}

/// The session runtime. One session per project within this server process as well as
/// across processes (the advisory lock).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RuntimeCapabilities {
    pub session_runtime: bool,
    /// Cross-process advisory lock files.
    pub advisory_locking: bool,
    /// Saves run under the session's lock, one at a time with its other writes.
    pub coordinated_save: bool,
    /// A save changes every file or none (staged, journaled, recovered at the next open).
    pub atomic_save: bool,
    pub stale_revision_protection: bool,
    pub path_policy: PathPolicy,
    pub events: EventsCapability,
    /// Present when the cache methods are served.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache: Option<CacheCapability>,
}

/// The capability snapshot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Capabilities {
    pub contract_version: String,
    pub capability_schema_version: u32,
    /// Who owns the transactions: the backend component.
    pub transaction_kernel_owner: String,
    /// Who owns the MCP surface: the host.
    pub app_seam_owner: String,
    pub runtime_owner: String,
    /// The methods of upstream's 17 this server serves, in upstream's order (which is also
    /// their tool order). Methods ofgui adds are not listed here: `tools/list` has them, each
    /// with its method in `_meta["openfairygui/backendMethod"]`.
    pub methods: Vec<String>,
    pub read: ReadCapabilities,
    pub authoring: AuthoringCapabilities,
    pub artifact: ArtifactCapabilities,
    pub manifest: CapabilityManifest,
    pub runtime: RuntimeCapabilities,
    pub compatibility_policy: CompatibilityPolicy,
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

impl Capabilities {
    pub fn new() -> Self {
        Capabilities {
            contract_version: CONTRACT_VERSION.into(),
            capability_schema_version: CAPABILITY_SCHEMA_VERSION,
            transaction_kernel_owner: "ofgui-backend".into(),
            app_seam_owner: "ofgui-mcp-host".into(),
            runtime_owner: "ofgui".into(),
            methods: METHODS
                .iter()
                .filter(|m| m.upstream)
                .map(|m| m.name.to_string())
                .collect(),
            read: ReadCapabilities {
                capability_snapshot: true,
                session_snapshot: true,
                project_outline: true,
                project_validation: true,
                entity_query: EntityQueryCapability {
                    kinds: strings(&[
                        "project",
                        "package",
                        "resource",
                        "component",
                        "displayNode",
                        "controller",
                        "transition",
                    ]),
                    projection: "properties".into(),
                    source_bytes: false,
                    limits: QUERY_LIMITS,
                },
                session_state: SessionStateCapability {
                    source_bytes: false,
                    limits: SESSION_STATE_LIMITS,
                },
                resource_bytes: ResourceBytesCapability {
                    expected_revision_required: true,
                    hydration: false,
                    max_bytes: RESOURCE_BYTES_MAX,
                },
            },
            authoring: AuthoringCapabilities {
                preflight_transaction: PreflightCapability {
                    mode: "execute-and-discard".into(),
                    reserves_revision: false,
                    impact: "model-diff".into(),
                    limits: PREVIEW_LIMITS,
                },
                apply_transaction: true,
                save_session: serves("saveSession"),
                resource_kinds: strings(&RESOURCE_KINDS),
                node_kinds: strings(&NODE_KINDS),
                gear_kinds: strings(&GEAR_KINDS),
                transaction_scope: TransactionScope {
                    resource_kinds: strings(&RESOURCE_KINDS),
                    node_kinds: strings(&NODE_KINDS),
                    gear_kinds: strings(&GEAR_KINDS),
                },
                unsupported: strings(&["artifact.publish", "artifact.restore"]),
            },
            artifact: ArtifactCapabilities {
                publish: false,
                restore: false,
                status: "bridge-required".into(),
                publish_bridge: publish_bridge(),
                restore_bridge: restore_bridge(),
            },
            manifest: CapabilityManifest {
                browser_safe: false,
                root_entrypoint: format!("backend.wasm ({WIT_WORLD})"),
                node_entrypoint: "ofgui-mcp-host".into(),
                adapters: ManifestAdapters {
                    file_system: InjectedFileSystem {
                        injected: true,
                        required_for: strings(&[
                            "openSession",
                            "saveSession",
                            "materializeSession",
                        ]),
                    },
                    project_storage: InjectedProjectStorage {
                        injected: true,
                        browser_safe: false,
                        required_for: strings(&[
                            "openProjectSession.writeback",
                            "saveSession",
                            "materializeSession",
                        ]),
                        adapter_factory: "wasi:filesystem preopen".into(),
                    },
                    host: InjectedHost {
                        injected: true,
                        required_for: strings(&["advisoryLockMetadata"]),
                    },
                },
                execution_boundaries: ExecutionBoundaries {
                    project_session: "wasi-component".into(),
                    file_backed_session: "adapter-backed".into(),
                    artifact_publish: publish_bridge(),
                    artifact_restore: restore_bridge(),
                },
                diagnostics: DiagnosticsManifest {
                    stable_codes: true,
                    error_diagnostic_mirror: true,
                    recovery_guides: "all-formal-codes".into(),
                    automatic_repair: false,
                },
            },
            runtime: RuntimeCapabilities {
                session_runtime: true,
                advisory_locking: true,
                coordinated_save: true,
                atomic_save: true,
                stale_revision_protection: true,
                path_policy: PathPolicy {
                    canonicalization: "realpath+normalized".into(),
                    session_identity: "project-root".into(),
                    save_target: "opened-project-only".into(),
                    output_targets: "deferred".into(),
                    workspace_boundary: "project-root-only".into(),
                },
                events: EventsCapability {
                    polling: true,
                    subscriptions: false,
                    retention_limit: EVENT_RETENTION,
                    sequence_scope: "runtime".into(),
                },
                cache: cache_capability(),
            },
            compatibility_policy: CompatibilityPolicy {
                incompatible_change: "requires contractVersion bump".into(),
                capability_schema_change: "requires capabilitySchemaVersion bump".into(),
                additive_change: "allowed without breaking existing consumers".into(),
            },
        }
    }
}

impl Default for Capabilities {
    fn default() -> Self {
        Capabilities::new()
    }
}

/// The WIT world `backend.wasm` exports.
pub const WIT_WORLD: &str = "ofgui:backend/backend@0.10.2";

/// Publishing: this server's publish tool, when the method table serves it.
fn publish_bridge() -> ArtifactBridge {
    let tool = crate::methods::by_name("publishProject").map(|method| method.tool);
    ArtifactBridge {
        available: tool.is_some(),
        required_host: "ofgui-mcp-host".into(),
        execution_boundary: "external-bridge".into(),
        bridge_entrypoint: tool.unwrap_or_default().into(),
        reason: match tool {
            Some(tool) => format!(
                "publishing is not a session method: call the {tool} tool with an open session"
            ),
            None => "this server does not publish".into(),
        },
    }
}

/// Restoring a project from published files: not offered here; upstream's Node bridge does.
fn restore_bridge() -> ArtifactBridge {
    ArtifactBridge {
        available: false,
        required_host: "node".into(),
        execution_boundary: "external-bridge".into(),
        bridge_entrypoint: "@openfairygui/backend/node".into(),
        reason: "ofgui does not restore projects from published files; upstream's Node bridge (ofgui restore) does".into(),
    }
}

/// Whether the method table lists `name`: capabilities say what is served, never more.
fn serves(name: &str) -> bool {
    crate::methods::METHODS
        .iter()
        .any(|method| method.name == name)
}

/// The cache block: there only when the table serves the cache read, naming the refresh
/// method it serves. `synchronous` because that method's data is the refreshed snapshot.
fn cache_capability() -> Option<CacheCapability> {
    let refresh = crate::methods::by_name("refreshCache")?;
    serves("getCacheSnapshot").then(|| CacheCapability {
        derived_read_only: true,
        keyed_by: "sessionId".into(),
        refresh_mode: "synchronous".into(),
        source_of_truth: false,
        refresh_method: refresh.name.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manifest_names_the_wit_package_the_component_exports() {
        let wit = include_str!("../../wit/backend.wit");
        let package = wit
            .lines()
            .find_map(|line| line.strip_prefix("package "))
            .and_then(|rest| rest.strip_suffix(';'))
            .expect("wit/backend.wit declares its package");
        let (name, version) = package.split_once('@').expect("a versioned package");
        assert_eq!(WIT_WORLD, format!("{name}/backend@{version}"));
    }

    #[test]
    fn publishing_is_named_by_the_tool_that_serves_it() {
        let capabilities = Capabilities::new();
        let bridge = &capabilities.artifact.publish_bridge;
        assert!(bridge.available);
        assert_eq!(
            bridge.bridge_entrypoint,
            crate::methods::by_name("publishProject")
                .map(|m| m.tool)
                .unwrap_or_default()
        );
        assert_eq!(
            capabilities.manifest.execution_boundaries.artifact_publish,
            *bridge
        );
    }
}
