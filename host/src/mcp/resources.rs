//! MCP resources: the contract as documents (method, operation and command line output
//! schemas, diagnostic guides, the workflow) and read-only views of open sessions. The
//! `docs` command prints the same documents.
//!
//! Documents are derived from the generated contract, so they are the schemas the server
//! enforces. Session views return the backend envelope unchanged, so a missing session
//! reads as an `ok:false` envelope, as a tool call would. An unknown URI is a protocol
//! error (`resource_not_found`): there is nothing to envelope.

use std::sync::OnceLock;

use base64::Engine as _;

use ofgui_contracts::catalog::{self, GUIDES};
use ofgui_contracts::cli::COMMANDS;
use ofgui_contracts::docs;
use ofgui_contracts::envelope::{CAPABILITY_SCHEMA_VERSION, CONTRACT_VERSION};
use ofgui_contracts::methods::{METHODS, MethodId, REVIEW_VIEW};
use ofgui_contracts::ops::OPERATION_KINDS;
use rmcp::ErrorData;
use rmcp::model::{Resource, ResourceContents, ResourceTemplate};
use serde_json::{Value, json};

use crate::service::Service;
use crate::service::events::SessionChange;

const PNG: &str = "image/png";
const JSON: &str = "application/json";
const MARKDOWN: &str = "text/markdown";

const INDEX: &str = "openfairygui://docs/index";
const WORKFLOW: &str = "openfairygui://docs/workflow";
const RESTORE_LIMITS: &str = "openfairygui://docs/restore-limits";
const SKILL: &str = "openfairygui://docs/skill";
const METHOD_CATALOG: &str = "openfairygui://docs/contracts";
const DIAGNOSTICS: &str = "openfairygui://docs/diagnostics";
const OPERATIONS: &str = "openfairygui://contracts/operations";
const CAPABILITIES: &str = "openfairygui://backend/capabilities";
const SESSION_PREFIX: &str = "openfairygui://backend/session/";
const CACHE_PREFIX: &str = "openfairygui://backend/cache/";

/// The fixed resources, in list order: (uri, name, title, mime type).
const RESOURCES: &[(&str, &str, &str, &str)] = &[
    (
        INDEX,
        "openfairygui_docs_index",
        "Documentation index",
        JSON,
    ),
    (
        WORKFLOW,
        "openfairygui_docs_workflow",
        "How to inspect and edit a project",
        MARKDOWN,
    ),
    (
        RESTORE_LIMITS,
        "openfairygui_docs_restore-limits",
        "What can be recovered, and what cannot",
        MARKDOWN,
    ),
    (
        SKILL,
        "openfairygui_docs_skill",
        "Editing FairyGUI projects with this server, in one page",
        MARKDOWN,
    ),
    (
        METHOD_CATALOG,
        "openfairygui_docs_contracts",
        "Methods, their tools and schemas",
        JSON,
    ),
    (
        DIAGNOSTICS,
        "openfairygui_diagnostic_catalog",
        "Every diagnostic code with its owner and remediation",
        JSON,
    ),
    (
        OPERATIONS,
        "openfairygui_operation_catalog",
        "The 41 transaction operations",
        JSON,
    ),
    (
        CAPABILITIES,
        "openfairygui_backend_capabilities",
        "Backend capabilities (the getCapabilities envelope)",
        JSON,
    ),
    (
        REVIEW_VIEW,
        "openfairygui_review_view",
        "The review view: a session for a person to see and approve (MCP Apps)",
        crate::review::APP_MIME,
    ),
];

/// The resource templates, in list order: (uri template, name, title, mime type).
const TEMPLATES: &[(&str, &str, &str, &str)] = &[
    (
        "openfairygui://docs/methods/{method}",
        "openfairygui_method_schema",
        "One method's input and output schema",
        JSON,
    ),
    (
        "openfairygui://docs/cli/{command}",
        "openfairygui_cli_schema",
        "The JSON document one ofgui-mcp-host command prints with --json, and its exit statuses",
        JSON,
    ),
    (
        "openfairygui://docs/diagnostics/{code}",
        "openfairygui_diagnostic_guide",
        "One diagnostic code's guide: what it means in FairyGUI terms, how to confirm it, how to fix it",
        JSON,
    ),
    (
        "openfairygui://contracts/operations/{kind}",
        "openfairygui_operation_schema",
        "One operation kind's JSON Schema",
        JSON,
    ),
    (
        "openfairygui://backend/session/{sessionId}",
        "openfairygui_backend_session",
        "An open session (the getSession envelope)",
        JSON,
    ),
    (
        "openfairygui://backend/session/{sessionId}/outline",
        "openfairygui_backend_session_outline",
        "An open session's outline (the getProjectOutline envelope)",
        JSON,
    ),
    (
        "openfairygui://backend/cache/{sessionId}",
        "openfairygui_backend_cache",
        "An open session's derived cache entry (the getCacheSnapshot envelope)",
        JSON,
    ),
    (
        "openfairygui://backend/session/{sessionId}/preview/{packageId}/{componentResourceId}",
        "openfairygui_component_preview",
        "A component drawn as a PNG at scale 1, its controllers at the pages the game starts them at (renderComponent; a failure reads as its JSON envelope)",
        PNG,
    ),
];

/// What unsaved edits, saves and the project survive, for agents (upstream's recovery
/// boundary document, in our words).
const RESTORE_LIMITS_TEXT: &str = include_str!("../../docs/restore-limits.md");
/// The one page an agent needs to start (upstream's navigation skill, in our words).
const SKILL_TEXT: &str = include_str!("../../docs/skill.md");

pub(crate) const WORKFLOW_TEXT: &str = "\
# Inspecting and editing a FairyGUI project

1. `openfairygui_backend_get_capabilities` says what this server does: the methods it serves,
   read limits, sandbox and session policy.
2. `openfairygui_backend_open_session` opens a project directory (or its `.fairy` file) inside
   the server's allowed roots. One session per project; the session starts at revision 0.
   `openfairygui_backend_open_project_session` opens a project given as a document instead
   (the UAM with each asset's `sourceBytes`); it has no directory until
   `openfairygui_backend_materialize_session` with `targetPath` writes it into a new one.
3. `openfairygui_backend_get_project_outline` lists every package, folder, resource, display
   node, controller and transition by id and name, with the current revision. Use those ids
   or names; never guess one. A large project's outline comes in pages of about 56 KiB: the
   warning `answer_paged` says which packages an answer holds and gives the `page.cursor`
   for the next. Or ask `detail: packages` first, then scope the outline to the packages
   (`scope.packageIds`) or the component (`scope.component`) you work on.
4. `openfairygui_backend_search_project` finds nodes and resources by name, text, kind or
   the `ui://` resource they refer to, and answers with the selectors to use.
5. `openfairygui_backend_query_entity` reads one entity's full properties;
   `openfairygui_backend_read_session_state` reads the model (scoped and paged like the
   outline) and `openfairygui_backend_read_resource_bytes` one asset's bytes.
6. `openfairygui_backend_validate_session` reports what is broken and where (a report of many
   findings comes in pages, as the outline does);
   `openfairygui_render_component` draws a component as a PNG image (pick controller pages
   with `controllerPages`) to see it. With `previewOperations` (a batch) and
   `expectedRevision` it draws the component before and after the batch side by side and
   counts the changed pixels: look before you apply. `approximations` lists what it drew
   only roughly or as a placeholder box.
7. To edit, write a batch of operations (schemas under `openfairygui://contracts/operations`),
   preview it with `openfairygui_backend_preflight_transaction`, then send the same input to
   `openfairygui_backend_apply_transaction` with `expectedRevision` set to the revision you
   read. A batch applies all or nothing; every problem comes back with its operation index.
8. On `stale_read` or `stale_write` someone else changed the session: re-read the outline and
   the entities you rely on, plan again and send the new batch at the new revision. Never
   retry with a guessed revision. `openfairygui_undo` takes the last batch back and
   `openfairygui_redo` applies it again, each as a new revision (`preview: true` says what
   either would change); `openfairygui_get_history` lists the revisions. After someone
   changed the project on disk (the FairyGUI editor, a checkout),
   `openfairygui_refresh_session` reads it again and replays the unsaved edits on top.
9. `openfairygui_backend_get_events` polls what happened (opened, applied, rejected, saved,
   cache updates) with a cursor; `openfairygui_backend_get_cache_snapshot` and
   `openfairygui_backend_refresh_cache` read and rebuild the session's derived cache entry.
10. Edits live in the session until `openfairygui_backend_save_session` (with
    `expectedRevision`) writes them; it writes only the changed files and refuses, writing
    nothing, when one of them was changed on disk meanwhile
    (`openfairygui_backend_get_session` says whether edits are unsaved).
    `openfairygui_backend_close_session` releases the project and discards unsaved edits.
11. `openfairygui_review` shows the person the session in a review view (in clients that
    show MCP Apps): each step's operations, pictures before and after, the diff a save
    would write, and undo, redo and save for them to approve; it answers with the history
    and that diff.
12. `openfairygui_publish` writes what the game loads (per package its descriptor, atlas
    pages, sounds, and binding code where its settings ask) into `outputDir` or the
    project's publish path; try it with `dryRun: true` first.
13. `openfairygui_export_strings` lists the texts a translator translates, under the keys
    the runtimes look up (the editor's strings XML with `wholeFile: true`);
    `openfairygui_check_strings` holds a translation against them (missing, stale, markup,
    glyphs); `openfairygui_sweep_strings` draws every component in a translation's language and
    lists the texts it no longer fits, which `openfairygui_render_component` shows with
    `strings` and `compareStrings: true`.
14. `openfairygui_docs_read` reads these documents by id (`index`, `workflow`, …) for
    clients that read no resources.

Every result is `{ok, meta, data|error}`. On `ok: false`, read `error.code` and
`meta.diagnostics[].remediation`; the guide of each code is at
`openfairygui://docs/diagnostics/{code}`.
";

/// The fixed resources.
pub fn list() -> Vec<Resource> {
    RESOURCES
        .iter()
        .map(|(uri, name, title, mime)| {
            Resource::new(*uri, *name)
                .with_title(*title)
                .with_mime_type(*mime)
        })
        .collect()
}

/// The resource templates.
pub fn templates() -> Vec<ResourceTemplate> {
    TEMPLATES
        .iter()
        .map(|(template, name, title, mime)| {
            ResourceTemplate::new(*template, *name)
                .with_title(*title)
                .with_mime_type(*mime)
        })
        .collect()
}

/// Reads one resource.
pub async fn read(service: &Service, uri: &str) -> Result<ResourceContents, ErrorData> {
    if uri == REVIEW_VIEW {
        return Ok(ResourceContents::text(crate::review::app_page(), uri)
            .with_mime_type(crate::review::APP_MIME)
            .with_meta(crate::review::app_meta()));
    }
    if let Some(preview) = Preview::parse(uri) {
        return preview.read(service, uri).await;
    }
    let broken = |error: BrokenContract| ErrorData::internal_error(error.to_string(), None);
    let (mime, text) = match document(uri).map_err(broken)? {
        Some(document) => document,
        None if uri == CAPABILITIES => (
            JSON,
            backend(service, MethodId::GetCapabilities, json!({})).await?,
        ),
        None => (JSON, read_session(service, uri).await?),
    };
    Ok(ResourceContents::text(text, uri).with_mime_type(mime))
}

/// The server's contract did not parse: a broken build.
#[derive(Debug, thiserror::Error)]
#[error("the server's contract is broken: {0}")]
pub struct BrokenContract(String);

/// One document of the index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    pub id: String,
    pub title: String,
    pub uri: String,
}

impl Document {
    fn new(id: impl Into<String>, title: impl Into<String>, uri: impl Into<String>) -> Self {
        Document {
            id: id.into(),
            title: title.into(),
            uri: uri.into(),
        }
    }
}

/// Every installed document, in index order. The index itself is not among them.
pub fn documents() -> Vec<Document> {
    let mut documents = vec![
        Document::new("workflow", "How to inspect and edit a project", WORKFLOW),
        Document::new(
            "restore-limits",
            "What can be recovered, and what cannot",
            RESTORE_LIMITS,
        ),
        Document::new(
            "skill",
            "Editing FairyGUI projects with this server, in one page",
            SKILL,
        ),
        Document::new(
            "contracts",
            "Methods, their tools and schemas",
            METHOD_CATALOG,
        ),
        Document::new("diagnostics", "Diagnostic catalog", DIAGNOSTICS),
        Document::new("operations", "Operation catalog", OPERATIONS),
    ];
    documents.extend(METHODS.iter().map(|method| {
        Document::new(
            format!("methods/{}", method.name),
            method.title,
            docs::method_uri(method.name),
        )
    }));
    documents.extend(COMMANDS.iter().map(|command| {
        Document::new(
            format!("cli/{}", command.name),
            format!("ofgui-mcp-host {} --json: {}", command.name, command.title),
            command.docs_uri(),
        )
    }));
    documents.extend(OPERATION_KINDS.iter().map(|kind| {
        Document::new(
            format!("operations/{kind}"),
            *kind,
            docs::operation_uri(kind),
        )
    }));
    documents.extend(GUIDES.iter().map(|guide| {
        Document::new(
            format!("diagnostics/{}", guide.code),
            guide.code,
            catalog::docs_uri(guide.code),
        )
    }));
    documents
}

/// The document with this id in the index (the index itself is `index`). Ids are looked
/// up, never read as paths.
pub fn document_by_id(id: &str) -> Option<Document> {
    let index = index_document();
    if index.id == id {
        return Some(index);
    }
    documents().into_iter().find(|document| document.id == id)
}

/// What `openfairygui_docs_read` answers for `id`: the index as compact JSON, any other
/// document as its resource serves it; `None` when the index lists no such id.
pub fn read_by_id(id: &str) -> Result<Option<String>, BrokenContract> {
    if id == "index" {
        return serde_json::to_string(&index()?)
            .map(Some)
            .map_err(|error| BrokenContract(error.to_string()));
    }
    let Some(found) = document_by_id(id) else {
        return Ok(None);
    };
    Ok(document(&found.uri)?.map(|(_, text)| text))
}

/// The index as a document of its own (`ofgui-mcp-host docs index`).
pub fn index_document() -> Document {
    Document::new("index", "Documentation index", INDEX)
}

/// An installed document's mime type and text, by URI: what the resource serves and
/// `ofgui-mcp-host docs` prints. `None` when no document has that URI (session views and
/// capabilities are not documents).
pub fn document(uri: &str) -> Result<Option<(&'static str, String)>, BrokenContract> {
    let json = |doc: Option<Value>| doc.map(|doc| pretty(&doc).map(|text| (JSON, text)));
    let found = match uri {
        INDEX => json(Some(index()?)),
        WORKFLOW => Some(Ok((MARKDOWN, WORKFLOW_TEXT.to_string()))),
        RESTORE_LIMITS => Some(Ok((MARKDOWN, RESTORE_LIMITS_TEXT.to_string()))),
        SKILL => Some(Ok((MARKDOWN, SKILL_TEXT.to_string()))),
        METHOD_CATALOG => json(Some(docs::method_catalog(snapshot()?))),
        DIAGNOSTICS => json(Some(docs::diagnostic_catalog())),
        OPERATIONS => json(Some(docs::operation_catalog(snapshot()?))),
        _ => {
            if let Some(method) = uri.strip_prefix("openfairygui://docs/methods/") {
                json(docs::method_doc(snapshot()?, method))
            } else if let Some(command) = uri.strip_prefix("openfairygui://docs/cli/") {
                json(docs::cli_doc(snapshot()?, command))
            } else if let Some(code) = uri.strip_prefix("openfairygui://docs/diagnostics/") {
                json(docs::diagnostic_doc(code))
            } else if let Some(kind) = uri.strip_prefix("openfairygui://contracts/operations/") {
                json(docs::operation_schema(snapshot()?, kind))
            } else {
                None
            }
        }
    };
    found.transpose()
}

/// A session view: the backend's envelope, unchanged.
async fn read_session(service: &Service, uri: &str) -> Result<String, ErrorData> {
    if let Some((session_id, view)) = SessionView::parse(uri) {
        return backend(service, view.method(), view.input(session_id)).await;
    }
    if let Some(session_id) = uri.strip_prefix(CACHE_PREFIX)
        && !session_id.is_empty()
        && !session_id.contains('/')
    {
        return backend(
            service,
            MethodId::GetCacheSnapshot,
            json!({ "sessionId": session_id }),
        )
        .await;
    }
    Err(ErrorData::resource_not_found(
        format!("No resource {uri}; list the resources and templates for the available URIs."),
        Some(json!({ "uri": uri })),
    ))
}

/// `…/{sessionId}/preview/{packageId}/{componentResourceId}`: a component's picture.
struct Preview<'a> {
    session_id: &'a str,
    package_id: &'a str,
    component_resource_id: &'a str,
}

impl<'a> Preview<'a> {
    fn parse(uri: &'a str) -> Option<Preview<'a>> {
        let rest = uri.strip_prefix(SESSION_PREFIX)?;
        let (session_id, rest) = rest.split_once("/preview/")?;
        let (package_id, component_resource_id) = rest.split_once('/')?;
        let parts = [session_id, package_id, component_resource_id];
        parts
            .iter()
            .all(|part| !part.is_empty() && !part.contains('/'))
            .then_some(Preview {
                session_id,
                package_id,
                component_resource_id,
            })
    }

    /// The PNG, or the failure envelope as JSON (as a session view reads a failure).
    async fn read(&self, service: &Service, uri: &str) -> Result<ResourceContents, ErrorData> {
        let method = MethodId::RenderComponent.method();
        let input = json!({
            "sessionId": self.session_id,
            "selector": {
                "packageId": self.package_id,
                "componentResourceId": self.component_resource_id,
            },
        });
        let reply = service.call(method, input).await;
        Ok(match reply.image {
            Some(png) if !reply.is_error => {
                let encoded = base64::engine::general_purpose::STANDARD.encode(png);
                ResourceContents::blob(encoded, uri).with_mime_type(PNG)
            }
            _ => ResourceContents::text(reply.envelope.text, uri).with_mime_type(JSON),
        })
    }
}

/// The views of an open session, each a resource (`openfairygui://backend/session/…`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionView {
    /// `…/{sessionId}`: the `getSession` envelope.
    Session,
    /// `…/{sessionId}/outline`: the `getProjectOutline` envelope.
    Outline,
}

impl SessionView {
    pub const ALL: [SessionView; 2] = [SessionView::Session, SessionView::Outline];

    /// The session id and view a session resource URI names.
    pub fn parse(uri: &str) -> Option<(&str, SessionView)> {
        let rest = uri.strip_prefix(SESSION_PREFIX)?;
        let (session_id, view) = match rest.strip_suffix("/outline") {
            Some(session_id) => (session_id, SessionView::Outline),
            None => (rest, SessionView::Session),
        };
        (!session_id.is_empty() && !session_id.contains('/')).then_some((session_id, view))
    }

    pub fn uri(self, session_id: &str) -> String {
        match self {
            SessionView::Session => format!("{SESSION_PREFIX}{session_id}"),
            SessionView::Outline => format!("{SESSION_PREFIX}{session_id}/outline"),
        }
    }

    /// The method's input: a resource is read whole, so the outline is asked for every
    /// package at once (as many as a page may hold) rather than its default byte budget.
    fn input(self, session_id: &str) -> Value {
        match self {
            SessionView::Session => json!({ "sessionId": session_id }),
            SessionView::Outline => json!({ "sessionId": session_id, "page": { "limit": 1000 } }),
        }
    }

    fn method(self) -> MethodId {
        match self {
            SessionView::Session => MethodId::GetSession,
            SessionView::Outline => MethodId::GetProjectOutline,
        }
    }

    /// Whether a change of the session changes what this view reads. The outline shows
    /// the revision but not the save state, so a save leaves it as it was.
    pub fn shows(self, change: &SessionChange) -> bool {
        !matches!(
            (self, change),
            (SessionView::Outline, SessionChange::Saved { .. })
        )
    }
}

/// A backend method's envelope, unchanged.
async fn backend(service: &Service, method: MethodId, input: Value) -> Result<String, ErrorData> {
    Ok(service.call(method.method(), input).await.envelope.text)
}

/// Every document, by id and URI.
fn index() -> Result<Value, BrokenContract> {
    let documents: Vec<Value> = documents()
        .into_iter()
        .map(|doc| json!({ "id": doc.id, "title": doc.title, "uri": doc.uri }))
        .collect();
    Ok(json!({
        "packageVersion": env!("CARGO_PKG_VERSION"),
        "contractVersion": CONTRACT_VERSION,
        "capabilitySchemaVersion": CAPABILITY_SCHEMA_VERSION,
        "contractDigest": snapshot()?["digest"],
        "documents": documents,
    }))
}

/// The contract snapshot, parsed on first use (resources are read rarely; start-up
/// should not pay for them).
fn snapshot() -> Result<&'static Value, BrokenContract> {
    static SNAPSHOT: OnceLock<Result<Value, String>> = OnceLock::new();
    SNAPSHOT
        .get_or_init(|| {
            serde_json::from_str(ofgui_contracts::CONTRACT_JSON).map_err(|error| error.to_string())
        })
        .as_ref()
        .map_err(|error| BrokenContract(error.clone()))
}

fn pretty(value: &Value) -> Result<String, BrokenContract> {
    serde_json::to_string_pretty(value).map_err(|error| BrokenContract(error.to_string()))
}
