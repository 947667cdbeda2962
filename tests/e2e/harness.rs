//! Spawns the real `ofgui-mcp-host` binary and talks MCP to it over stdio with rmcp's client.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::OnceLock;

use base64::Engine as _;
use ofgui_contracts::additions::ADDITIONS_META_KEY;
use rmcp::model::{CallToolRequestParams, ProtocolVersion, RequestMetaObject, Tool};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Map, Value, json};
use tokio::process::Command;

/// The real corpora: `$OFGUI_CORPORA`, else `../shared/corpora` beside the repository.
pub fn corpora() -> PathBuf {
    std::env::var_os("OFGUI_CORPORA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpora"))
}

pub fn unity_corpus() -> PathBuf {
    corpora().join("fairygui-unity-examples/UIProject")
}

pub fn experiments_corpus() -> PathBuf {
    corpora().join("openfairygui-experiments/FairyGUI-Experiments")
}

pub fn example_project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/HelloFairy")
}

/// Copies a directory tree (the corpora are read-only; tests work on copies).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create copy root");
    for entry in std::fs::read_dir(from).expect("read corpus dir") {
        let entry = entry.expect("dir entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy file");
            // The corpora are read-only and copying keeps that; a copy is the test's own
            // and saves refuse read-only files.
            let mut permissions = std::fs::metadata(&target).expect("copied").permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            permissions.set_readonly(false);
            std::fs::set_permissions(&target, permissions).expect("make the copy writable");
        }
    }
}

/// A temporary workspace holding copies of projects, used as the server's allowed root.
pub struct Workspace {
    pub dir: tempfile::TempDir,
}

impl Workspace {
    pub fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Copies `project` into the workspace under `name` and returns its path.
    pub fn add(&self, name: &str, project: &Path) -> PathBuf {
        let target = self.path().join(name);
        copy_tree(project, &target);
        target
    }
}

/// A compile cache shared by every test process, so only the first one compiles the component.
pub fn cache_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ofgui-compile-cache"))
}

/// Compiles the backend into the shared cache once, before any server starts, so parallel
/// tests do not all compile it at the same time.
pub fn warm_compile_cache() {
    static WARM: std::sync::Once = std::sync::Once::new();
    WARM.call_once(|| {
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_ofgui-mcp-host"))
            .arg("--cache-dir")
            .arg(cache_dir())
            .arg("precompile")
            .env("OFGUI_LOG", "warn")
            .status()
            .expect("run ofgui-mcp-host precompile");
        assert!(status.success(), "precompile failed");
    });
}

/// One running server and its MCP client, whose handler `H` receives what the server
/// pushes (`()` ignores it).
pub struct Server<H: ClientHandler = ()> {
    pub client: RunningService<RoleClient, H>,
    tools: Vec<Tool>,
}

/// How a client starts its MCP lifecycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lifecycle {
    /// The `initialize` handshake (protocol 2025-11-25 and before).
    Handshake,
    /// `server/discover` and per-request metadata (protocol 2026-07-28).
    Discover,
}

impl Server {
    pub async fn start(roots: &[&Path]) -> Server {
        Self::start_with(roots, &[]).await
    }

    pub async fn start_with(roots: &[&Path], extra: &[&str]) -> Server {
        Server::connect(roots, extra, (), Lifecycle::Handshake).await
    }

    /// [`Server::start_with`] with extra environment variables (test-only hooks).
    pub async fn start_with_env(roots: &[&Path], extra: &[&str], env: &[(&str, &str)]) -> Server {
        Server::connect_with_env(roots, extra, env, (), Lifecycle::Handshake).await
    }
}

impl<H: ClientHandler> Server<H> {
    /// Starts a server and connects `handler`'s client to it.
    pub async fn connect(
        roots: &[&Path],
        extra: &[&str],
        handler: H,
        lifecycle: Lifecycle,
    ) -> Server<H> {
        Self::connect_with_env(roots, extra, &[], handler, lifecycle).await
    }

    /// [`Server::connect`] with extra environment variables for the server.
    pub async fn connect_with_env(
        roots: &[&Path],
        extra: &[&str],
        env: &[(&str, &str)],
        handler: H,
        lifecycle: Lifecycle,
    ) -> Server<H> {
        tokio::task::spawn_blocking(warm_compile_cache)
            .await
            .expect("warm-up");
        let mut command = Command::new(env!("CARGO_BIN_EXE_ofgui-mcp-host"));
        for root in roots {
            command.arg("--project-dir").arg(root);
        }
        command.arg("--cache-dir").arg(cache_dir()).args(extra);
        command.env("OFGUI_LOG", "warn");
        command.env_remove("OFGUI_SAVE_FAULT");
        command.env_remove("OFGUI_OUTPUT_FAULT");
        command.envs(env.iter().copied());
        let (transport, _stderr) = TokioChildProcess::builder(command)
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn ofgui-mcp-host");
        let client = match lifecycle {
            Lifecycle::Handshake => handler.serve(transport).await.expect("MCP handshake"),
            Lifecycle::Discover => handler
                .serve_with_lifecycle(
                    transport,
                    ClientLifecycleMode::Discover {
                        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                    },
                )
                .await
                .expect("MCP discover"),
        };
        let tools = client.list_all_tools().await.expect("tools/list");
        Server { client, tools }
    }

    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// Calls a tool and returns `(backendResult, isError)`, checking the MCP result shape and
    /// validating the envelope against the tool's advertised output schema.
    pub async fn call(&self, tool: &str, arguments: Value) -> (Value, bool) {
        let Value::Object(arguments) = arguments else {
            panic!("arguments must be an object");
        };
        self.call_raw(tool, Some(arguments)).await
    }

    pub async fn call_raw(
        &self,
        tool: &str,
        arguments: Option<Map<String, Value>>,
    ) -> (Value, bool) {
        self.call_with_meta(tool, arguments, None).await
    }

    /// [`Server::call_raw`] with the request's `_meta` (a log level, …).
    pub async fn call_with_meta(
        &self,
        tool: &str,
        arguments: Option<Map<String, Value>>,
        meta: Option<RequestMetaObject>,
    ) -> (Value, bool) {
        let (envelope, is_error, _) = self.call_full(tool, arguments, meta).await;
        (envelope, is_error)
    }

    /// Calls a tool and returns `(backendResult, isError, image)`: the PNG of the
    /// result's image content, if it has one (checked to be `image/png` and to follow the
    /// text content).
    pub async fn call_full(
        &self,
        tool: &str,
        arguments: Option<Map<String, Value>>,
        meta: Option<RequestMetaObject>,
    ) -> (Value, bool, Option<Vec<u8>>) {
        let (envelope, is_error, image, _) = self.call_parts(tool, arguments, meta).await;
        (envelope, is_error, image)
    }

    /// [`Server::call_full`] with the result's additions: `_meta["ofgui/additions"]`,
    /// checked against the contract's additions schema and against the second text block,
    /// which must carry the same and is present exactly when they are.
    pub async fn call_parts(
        &self,
        tool: &str,
        arguments: Option<Map<String, Value>>,
        meta: Option<RequestMetaObject>,
    ) -> (Value, bool, Option<Vec<u8>>, Option<Value>) {
        let mut params = CallToolRequestParams::new(tool.to_string());
        params.arguments = arguments;
        params.meta = meta;
        let result = self
            .client
            .call_tool(params)
            .await
            .expect("tools/call must not fail at the protocol level");
        let is_error = result.is_error.unwrap_or(false);
        let structured = result
            .structured_content
            .clone()
            .expect("structuredContent");
        let envelope = structured
            .get("backendResult")
            .cloned()
            .expect("backendResult");
        let ok = envelope
            .get("ok")
            .and_then(Value::as_bool)
            .expect("ok flag");
        assert_eq!(is_error, !ok, "isError must equal !ok for {tool}");
        if !ok {
            assert!(envelope.get("data").is_none(), "a failure has no data key");
        }
        // The text content carries the same envelope for clients that only read text,
        // or for a large result (by default) its meta in brief.
        let text = result
            .content
            .first()
            .and_then(|c| c.as_text())
            .map(|t| t.text.clone())
            .expect("text content");
        let parsed: Value = serde_json::from_str(&text).expect("text is JSON");
        if parsed.get("abridged").is_some() {
            let size = serde_json::to_string(&envelope).unwrap().len();
            assert!(
                size > 15 * 1024,
                "{tool}: a {size}-byte result was abridged"
            );
            assert_eq!(parsed["ok"], envelope["ok"], "{tool}: abridged ok");
            for field in ["requestId", "sessionId", "revision", "warnings"] {
                assert_eq!(
                    parsed["meta"][field], envelope["meta"][field],
                    "{tool}: abridged meta.{field}"
                );
            }
        } else {
            assert_eq!(parsed, envelope, "text content must equal backendResult");
        }
        let additions = result
            .meta
            .as_ref()
            .and_then(|meta| meta.0.get(ADDITIONS_META_KEY))
            .cloned();
        let additions_text = result
            .content
            .get(1)
            .and_then(|c| c.as_text())
            .map(|t| serde_json::from_str::<Value>(&t.text).expect("additions text is JSON"));
        match &additions {
            Some(additions) => {
                assert_eq!(
                    additions_text,
                    Some(json!({ ADDITIONS_META_KEY: additions })),
                    "{tool}: the second text block must carry the additions"
                );
                let schema = compiled(&contract_snapshot()["additions"]);
                let errors: Vec<String> = schema
                    .iter_errors(additions)
                    .map(|e| e.to_string())
                    .collect();
                assert!(
                    errors.is_empty(),
                    "{tool}: additions off contract: {errors:?}"
                );
                assert_ne!(
                    additions,
                    &json!({}),
                    "{tool}: empty additions are left out"
                );
            }
            None => assert_eq!(
                additions_text, None,
                "{tool}: a text block without additions"
            ),
        }
        if let Some(tool) = self.tools.iter().find(|t| t.name == tool) {
            // Every code a tool answers with is one its description tells the model of.
            if let Some(code) = envelope.pointer("/error/code").and_then(Value::as_str) {
                let description = tool.description.as_deref().unwrap_or_default();
                let (_, failures) = description
                    .rsplit_once("May fail on: ")
                    .unwrap_or_else(|| panic!("{} names no failures", tool.name));
                let named = failures
                    .trim_end_matches('.')
                    .split("; ")
                    .any(|entry| entry.split(' ').next() == Some(code));
                assert!(
                    named,
                    "{} answered {code}, which its description does not name",
                    tool.name
                );
            }
            // The advertised schema may be lean; results are held to the full one.
            let advertised = Value::Object(
                tool.output_schema
                    .as_ref()
                    .expect("output schema")
                    .as_ref()
                    .clone(),
            );
            let lean = compiled(&advertised);
            assert!(
                lean.is_valid(&structured),
                "{} result does not match its advertised output schema",
                tool.name
            );
            let validator = compiled(&full_output_schema(&tool.name));
            let errors: Vec<String> = validator
                .iter_errors(&structured)
                .map(|e| format!("{} at {}", e, e.instance_path()))
                .collect();
            assert!(
                errors.is_empty(),
                "{tool:?} result does not match its output schema: {errors:?}\n{envelope}",
                tool = tool.name
            );
        }
        let images: Vec<Vec<u8>> = result
            .content
            .iter()
            .filter_map(|c| c.as_image())
            .map(|image| {
                assert_eq!(image.mime_type, "image/png", "{tool} sent a non-PNG image");
                base64::engine::general_purpose::STANDARD
                    .decode(&image.data)
                    .expect("image content is base64")
            })
            .collect();
        assert!(images.len() <= 1, "{tool} sent {} images", images.len());
        (envelope, is_error, images.into_iter().next(), additions)
    }

    /// Calls a tool that must succeed and returns its `data`.
    pub async fn ok(&self, tool: &str, arguments: Value) -> Value {
        let (envelope, is_error) = self.call(tool, arguments).await;
        assert!(!is_error, "{tool} failed: {envelope}");
        envelope["data"].clone()
    }

    /// Calls a tool that must succeed and returns its `data` and its additions (`{}` when
    /// it has none).
    pub async fn ok_with_additions(&self, tool: &str, arguments: Value) -> (Value, Value) {
        let Value::Object(arguments) = arguments else {
            panic!("arguments must be an object");
        };
        let (envelope, is_error, _, additions) = self.call_parts(tool, Some(arguments), None).await;
        assert!(!is_error, "{tool} failed: {envelope}");
        (
            envelope["data"].clone(),
            additions.unwrap_or_else(|| json!({})),
        )
    }

    /// Calls a tool that must fail and returns its `error`.
    pub async fn err(&self, tool: &str, arguments: Value) -> Value {
        let (envelope, is_error) = self.call(tool, arguments).await;
        assert!(is_error, "{tool} should have failed: {envelope}");
        envelope["error"].clone()
    }

    /// Calls a tool the server must refuse at the protocol level (an unknown tool: invalid
    /// params, -32602), and returns the error's data (the code and its guide's URI).
    pub async fn refused_tool(&self, tool: &str) -> Value {
        let error = self
            .client
            .call_tool(CallToolRequestParams::new(tool.to_string()))
            .await
            .expect_err("an unknown tool must be a protocol error");
        let rmcp::ServiceError::McpError(error) = error else {
            panic!("{tool}: not a JSON-RPC error: {error}");
        };
        assert_eq!(error.code.0, -32602, "{tool}: {error:?}");
        assert!(error.message.starts_with("Unknown tool"), "{error:?}");
        // The name is the client's string: it is not echoed (the library logs errors).
        assert!(!error.message.contains(tool), "{error:?}");
        error.data.expect("the error's data names the code")
    }

    /// Opens a project and returns the session id.
    pub async fn open(&self, project: &Path) -> String {
        let data = self
            .ok(
                "openfairygui_backend_open_session",
                serde_json::json!({ "projectPath": project }),
            )
            .await;
        data["sessionId"].as_str().expect("sessionId").to_string()
    }
}

pub const OPEN: &str = "openfairygui_backend_open_session";
pub const GET: &str = "openfairygui_backend_get_session";
pub const OUTLINE: &str = "openfairygui_backend_get_project_outline";
pub const QUERY: &str = "openfairygui_backend_query_entity";
pub const STATE: &str = "openfairygui_backend_read_session_state";
pub const BYTES: &str = "openfairygui_backend_read_resource_bytes";
pub const CLOSE: &str = "openfairygui_backend_close_session";
pub const CAPABILITIES: &str = "openfairygui_backend_get_capabilities";
pub const SEARCH: &str = "openfairygui_backend_search_project";
pub const OPEN_PROJECT: &str = "openfairygui_backend_open_project_session";
pub const CACHE: &str = "openfairygui_backend_get_cache_snapshot";
pub const REFRESH: &str = "openfairygui_backend_refresh_cache";
pub const RENDER: &str = "openfairygui_render_component";

/// A tool's full output schema, as `--full-schemas` advertises it.
/// `schema` compiled once for the whole test binary: compiling the full output schemas
/// dominated the cost of a call in debug builds.
fn compiled(schema: &Value) -> std::sync::Arc<jsonschema::Validator> {
    let key = schema.to_string();
    static COMPILED: OnceLock<
        std::sync::Mutex<std::collections::HashMap<String, std::sync::Arc<jsonschema::Validator>>>,
    > = OnceLock::new();
    let cache = COMPILED.get_or_init(Default::default);
    if let Some(validator) = cache.lock().unwrap().get(&key) {
        return validator.clone();
    }
    let validator =
        std::sync::Arc::new(jsonschema::validator_for(schema).expect("output schema compiles"));
    cache.lock().unwrap().insert(key, validator.clone());
    validator
}

/// The contract snapshot compiled into the server.
pub fn contract_snapshot() -> &'static Value {
    static SNAPSHOT: OnceLock<Value> = OnceLock::new();
    SNAPSHOT.get_or_init(|| serde_json::from_str(ofgui_contracts::CONTRACT_JSON).expect("snapshot"))
}

pub fn full_output_schema(tool: &str) -> Value {
    static FULL: OnceLock<Vec<Value>> = OnceLock::new();
    let tools = FULL.get_or_init(|| {
        serde_json::from_str(ofgui_contracts::TOOLS_FULL_JSON).expect("full tool list")
    });
    tools
        .iter()
        .find(|t| t["name"] == tool)
        .map(|t| t["outputSchema"].clone())
        .unwrap_or_else(|| panic!("no full schema for {tool}"))
}

/// Every file (and, as `name/`, every directory) under `root` with its bytes, by
/// `/`-separated relative path: what a test compares before and after a write.
pub fn snapshot(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let relative = entry
                .path()
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if entry.file_type().unwrap().is_dir() {
                // Directories count too: an empty staged or aside directory is a leftover.
                files.insert(format!("{relative}/"), Vec::new());
                pending.push(entry.path());
            } else {
                files.insert(relative, std::fs::read(entry.path()).unwrap());
            }
        }
    }
    files
}

/// The names of an outline's packages, in its order.
pub fn package_names(outline: &Value) -> Vec<&str> {
    outline["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| p["name"].as_str().expect("a package name"))
        .collect()
}

/// The first display node of the first component: (package id, component id, node id).
pub fn first_node(outline: &Value) -> (String, String, String) {
    for package in outline["packages"].as_array().unwrap() {
        for resource in package["resources"].as_array().unwrap() {
            if let Some(node) = resource["component"]["displayList"].get(0) {
                return (
                    package["id"].as_str().unwrap().into(),
                    resource["id"].as_str().unwrap().into(),
                    node["id"].as_str().unwrap().into(),
                );
            }
        }
    }
    panic!("no display node");
}

pub fn move_node(node: &(String, String, String), x: i64) -> Value {
    serde_json::json!([{
        "kind": "setDisplayNodeProps",
        "selector": { "packageId": node.0, "componentResourceId": node.1, "displayNodeId": node.2 },
        "props": { "position": { "x": x, "y": 12 } }
    }])
}
