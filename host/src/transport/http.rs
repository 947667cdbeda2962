//! Streamable HTTP (`serve --http ADDR`): MCP at `/mcp` for agents that reach the server
//! over a network. Each bearer token is a tenant with its own service: its own sessions,
//! project roots, limits and write permission, so one client never sees another's
//! sessions. `/healthz` and `/readyz` answer load balancers without a token.

use futures::StreamExt;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use ofgui_contracts::methods::METHODS;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;
use tower_service::Service as _;

use super::connections::{self, ConnectionLimits};
use super::forward;
use super::request::{BodyLimits, read_body, removed_method, rpc_error};
use super::tenants::{Shared, Tenant, digest};
use crate::backend::runtime::Runtime;
use crate::mcp::compose::ServerBuilder;
use crate::mcp::{Schemas, TextContent};
use crate::policy::confirm::{Approvals, ConfirmWrites};
use crate::policy::{BoxFuture, PolicyCall, ToolPolicy, Verdict};
use crate::service::{Service, ServiceConfig};

/// Tool calls one tenant may have running at once; a request past them is refused with
/// 429 (a soft limit: requests arriving together may pass it by a few).
pub const MAX_IN_FLIGHT_PER_TENANT: usize = 16;

/// The header naming the node that answered, on every answer of a named node.
pub const ANSWERED_BY: &str = "x-ofgui-node";

/// The tools a read-only token may not call: they change a session's model or the disk.
fn write_tools() -> impl Iterator<Item = &'static str> {
    METHODS
        .iter()
        .filter(|method| method.effect.changes_project())
        .map(|method| method.tool)
}

/// One token and what it may do.
#[derive(Clone, Debug, PartialEq)]
pub struct Grant {
    /// How logs name the tenant: the token's line in its file, or `env`.
    pub label: String,
    token_digest: [u8; 32],
    /// The roots the token may open projects in; `None`: the server's `--project-dir`s.
    pub roots: Option<Vec<PathBuf>>,
    pub read_only: bool,
}

impl Grant {
    pub fn new(label: &str, token: &str, roots: Option<Vec<PathBuf>>, read_only: bool) -> Grant {
        Grant {
            label: label.to_owned(),
            token_digest: digest(token),
            roots,
            read_only,
        }
    }
}

/// Reads a token file: one token per line, optionally followed by `roots=DIR[:DIR…]`
/// (the only roots it may open projects in) and `read-only`; blank lines and lines
/// starting with `#` are skipped. A token is at least 16 characters.
pub fn parse_tokens(text: &str) -> anyhow::Result<Vec<Grant>> {
    let mut grants = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let number = index + 1;
        let mut words = line.split_whitespace();
        let token = words.next().unwrap_or_default();
        if token.len() < 16 {
            bail!("token file line {number}: a token is at least 16 characters");
        }
        let (mut roots, mut read_only) = (None, false);
        for word in words {
            if word == "read-only" {
                read_only = true;
            } else if let Some(dirs) = word.strip_prefix("roots=") {
                let dirs: Vec<PathBuf> = dirs
                    .split(':')
                    .filter(|d| !d.is_empty())
                    .map(PathBuf::from)
                    .collect();
                if dirs.is_empty() {
                    bail!("token file line {number}: roots= names no directory");
                }
                roots = Some(
                    crate::backend::sandbox::canonical_roots(&dirs).with_context(|| {
                        format!("token file line {number}: a root is not a directory")
                    })?,
                );
            } else {
                bail!(
                    "token file line {number}: {word:?} is neither roots=DIR[:DIR…] nor read-only"
                );
            }
        }
        let grant = Grant::new(&format!("line {number}"), token, roots, read_only);
        if grants
            .iter()
            .any(|g: &Grant| g.token_digest == grant.token_digest)
        {
            bail!("token file line {number}: the same token is listed twice");
        }
        grants.push(grant);
    }
    Ok(grants)
}

/// How the HTTP server runs.
pub struct HttpOptions {
    pub addr: SocketAddr,
    /// Empty: no authentication, which only a loopback address allows.
    pub grants: Vec<Grant>,
    /// `Host` values accepted besides the loopback names (DNS rebinding protection).
    pub allowed_hosts: Vec<String>,
    /// Browser origins accepted; a request with any other `Origin` is refused.
    pub allowed_origins: Vec<String>,
    /// `/metrics` answers without a token on a non-loopback address too.
    pub metrics_without_token: bool,
    /// Where the other nodes sharing the state directory reach this one; `None`: `addr`.
    pub node_address: Option<String>,
    pub text_content: TextContent,
    pub schemas: Schemas,
    pub connections: ConnectionLimits,
    /// How long a client may take to send a request's body.
    pub body_timeout: Duration,
    /// The largest request body; the default is stdio's line limit, so what a stdio client
    /// may send an HTTP client may too.
    pub max_body_bytes: usize,
    /// MCP sessions one token may hold open at once.
    pub max_mcp_sessions: usize,
    /// `ofgui-mcp-host review`: a project to open at the start and show a person through
    /// a review link that works once.
    pub review_once: Option<ReviewOnce>,
    /// `--confirm-writes`: each tenant's writes wait this long for a person's answer (on
    /// the review page, or through elicitation).
    pub confirm_writes: Option<Duration>,
}

pub use super::review::ReviewOnce;

/// Serves MCP over HTTP until SIGINT or SIGTERM; in-flight requests finish first.
pub async fn serve_http(base: ServiceConfig, options: HttpOptions) -> anyhow::Result<()> {
    if options.grants.is_empty() && !options.addr.ip().is_loopback() {
        bail!(
            "serving on {} needs authentication: pass --auth-token-file FILE or set OFGUI_AUTH_TOKEN (only a loopback address may serve without)",
            options.addr
        );
    }
    crate::mcp::warm_up_tools(options.schemas);
    let listener = tokio::net::TcpListener::bind(options.addr)
        .await
        .with_context(|| format!("binding {}", options.addr))?;
    let bound = listener.local_addr()?;
    // Before the log says the server serves, which is when a supervisor may signal it.
    let signal = shutdown_signal();
    let stop = CancellationToken::new();
    let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"]
        .iter()
        .map(|h| h.to_string())
        .collect();
    hosts.extend(options.allowed_hosts.iter().cloned());
    // A node sharing a state directory with others keeps no MCP session: a client of a
    // revision before 2026-07-28 is answered without an Mcp-Session-Id, so any node serves
    // its next request, and a plain answer is JSON, sent whole, so a request whose node
    // died before answering is sent again by the balancer instead of left half-streamed.
    let clustered = base
        .state_dir
        .as_ref()
        .is_some_and(|state| state.node().is_some());
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(!clustered)
        .with_json_response(clustered)
        .with_allowed_hosts(hosts.clone())
        .with_allowed_origins(allowed_origins(&options.allowed_origins, bound))
        .enforce_origin_validation()
        .with_max_request_body_bytes(options.max_body_bytes)
        .with_cancellation_token(stop.child_token());
    let grants = match options.grants.is_empty() {
        true => vec![None],
        false => options.grants.iter().cloned().map(Some).collect(),
    };
    // One engine and one compiled component for every tenant: a tenant costs its
    // sessions, not another copy of the backend.
    let (cache_dir, limits, fonts) = (base.cache_dir.clone(), base.limits, base.fonts.clone());
    let runtime =
        tokio::task::spawn_blocking(move || Runtime::new(cache_dir.as_deref(), limits, fonts))
            .await
            .context("loading the backend")??;
    let mut base = base;
    base.state_dir = base
        .state_dir
        .map(|state| match (&options.node_address, bound.ip().is_unspecified()) {
            (Some(address), _) => state.served_at(address),
            (None, false) => state.served_at(&bound.to_string()),
            (None, true) => {
                if state.node().is_some() {
                    tracing::warn!("--node-id without --node-address on a wildcard address: the other nodes cannot send this one its sessions' requests");
                }
                state
            }
        });
    let mut tenants = Vec::new();
    for grant in grants {
        let mut tenant_config = base.clone();
        if let Some(roots) = grant.as_ref().and_then(|g| g.roots.clone()) {
            tenant_config.roots = roots;
        }
        tenant_config.read_only = grant.as_ref().is_some_and(|g| g.read_only);
        tenant_config.tenant = grant.as_ref().map(|g| {
            g.token_digest
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        });
        let service = Service::with_runtime(tenant_config, runtime.clone());
        service.start_idle_expiry();
        service.start_watching();
        let mut builder = ServerBuilder::new(service.clone())
            .text_content(options.text_content)
            .schemas(options.schemas);
        let read_only = grant.as_ref().is_some_and(|g| g.read_only);
        if read_only {
            for tool in write_tools() {
                builder = builder.policy(tool, ReadOnly);
            }
        }
        let mut approvals = None;
        if let Some(within) = options.confirm_writes.filter(|_| !read_only) {
            let waiting = Arc::new(Approvals::default());
            for tool in crate::policy::confirm::gated_tools() {
                let policy =
                    ConfirmWrites::new(service.plan_writes()).with_review(waiting.clone(), within);
                builder = builder.policy(tool, policy);
            }
            approvals = Some(waiting);
        }
        let server = builder.build()?.materialized();
        let mcp_sessions = Arc::new(LocalSessionManager::default());
        let served = server.clone();
        let endpoint = StreamableHttpService::new(
            move || Ok(served.clone()),
            mcp_sessions.clone(),
            config.clone(),
        );
        tenants.push(Tenant {
            label: grant
                .as_ref()
                .map_or("local".to_owned(), |g| g.label.clone()),
            token_digest: grant.as_ref().map(|g| g.token_digest),
            read_only,
            approvals,
            server,
            service,
            endpoint,
            mcp_sessions,
        });
    }
    let node = base
        .state_dir
        .as_ref()
        .filter(|state| state.address().is_some())
        .and_then(|state| state.node().map(str::to_owned));
    let shared = Arc::new(Shared {
        tenants,
        draining: AtomicBool::new(false),
        answering: AtomicUsize::new(0),
        body_limits: BodyLimits {
            timeout: options.body_timeout,
            max_bytes: options.max_body_bytes,
            probe_session: node.is_some(),
        },
        allowed_hosts: hosts,
        link_once: options
            .review_once
            .is_some()
            .then(|| AtomicBool::new(false)),
        max_mcp_sessions: options.max_mcp_sessions,
        open_metrics: options.metrics_without_token || bound.ip().is_loopback(),
        node,
    });
    // Every answer of a named node says which node gave it (for operators, and for a check
    // that a node is back behind the balancer).
    let named = base
        .state_dir
        .as_ref()
        .and_then(|state| state.node())
        .and_then(|node| HeaderValue::from_str(node).ok());
    let app = axum::Router::new()
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/readyz", get(ready))
        .route("/metrics", get(metrics))
        .route("/mcp", any(mcp))
        .merge(super::review::routes())
        .with_state(shared.clone())
        .layer(axum::middleware::map_response(
            move |mut response: Response| {
                let named = named.clone();
                async move {
                    // A relayed answer keeps the name of the node that gave it.
                    if let Some(node) = named
                        && !response.headers().contains_key(ANSWERED_BY)
                    {
                        response.headers_mut().insert(ANSWERED_BY, node);
                    }
                    response
                }
            },
        ));
    tracing::info!(
        addr = %bound,
        tenants = options.grants.len().max(1),
        "serving MCP over Streamable HTTP at /mcp"
    );
    if let Some(review) = &options.review_once {
        let link = super::review::open_for_review(&shared, review, bound).await?;
        // A closed stdout (the person's terminal went away) is no reason to stop serving.
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stdout(),
            "Review of {}: {link}\nThe link works once (it is traded for a cookie at once). Ctrl-C stops.",
            review.project
        );
    }
    let draining = shared.clone();
    let shutdown = async move {
        signal.await;
        tracing::info!("shutting down: refusing new requests, finishing the calls in flight");
        draining.draining.store(true, Ordering::SeqCst);
    };
    // A call's answer streams after its request was accepted, so wait for the calls
    // themselves (a save among them) and for their answers to be sent, then end the
    // sessions' streams.
    let drained = async move {
        while shared
            .tenants
            .iter()
            .any(|t| t.service.calls_in_flight() > 0)
            || shared.answering.load(Ordering::SeqCst) > 0
        {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        stop.cancel();
    };
    connections::serve(listener, app, options.connections, shutdown, drained).await?;
    Ok(())
}

/// 200 once the backend is loaded (the first session then opens without a compile), 503
/// before (the server loads it before it listens, so still starting) and from the moment
/// a drain begins, so a load balancer stops sending work a draining server would refuse.
async fn ready(State(shared): State<Arc<Shared>>) -> Response {
    if shared.draining.load(Ordering::SeqCst) {
        (StatusCode::SERVICE_UNAVAILABLE, "draining\n").into_response()
    } else if shared.tenants.iter().all(|t| t.service.is_ready()) {
        (StatusCode::OK, "ready\n").into_response()
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, "loading\n").into_response()
    }
}

/// The process's metrics in Prometheus' text format: without a token on a loopback server
/// or with `--metrics-without-token`, else with any tenant's bearer token.
async fn metrics(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    if !shared.open_metrics && authenticate(&shared, &request).is_err() {
        return unauthorized();
    }
    let sessions = shared
        .tenants
        .iter()
        .map(|tenant| tenant.service.session_ids().len())
        .sum();
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
        )],
        crate::metrics::metrics().encode(sessions),
    )
        .into_response()
}

async fn mcp(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let tenant = match authenticate(&shared, &request) {
        Ok(tenant) => tenant,
        Err(Refused::Unauthorized) => {
            tracing::info!(%method, status = 401, "refused: no valid bearer token");
            return unauthorized();
        }
        Err(Refused::TwoTokens) => {
            tracing::info!(%method, status = 400, "refused: more than one Authorization header");
            return (
                StatusCode::BAD_REQUEST,
                "Send one Authorization header, with one bearer token.\n",
            )
                .into_response();
        }
    };
    if shared.draining.load(Ordering::SeqCst) {
        return (StatusCode::SERVICE_UNAVAILABLE, "shutting down\n").into_response();
    }
    if method == axum::http::Method::POST
        && tenant.service.calls_in_flight() >= MAX_IN_FLIGHT_PER_TENANT
    {
        tracing::info!(tenant = %tenant.label, %method, status = 429, "refused: too many calls in flight");
        return (
            StatusCode::TOO_MANY_REQUESTS,
            [(header::RETRY_AFTER, HeaderValue::from_static("1"))],
        )
            .into_response();
    }
    let session = request
        .headers()
        .get("mcp-session-id")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let (request, probe) = match read_body(request, &shared.body_limits).await {
        Ok(read) => read,
        Err(refused) => {
            tracing::info!(tenant = %tenant.label, %method, status = refused.status().as_u16(), "refused the request body");
            return refused;
        }
    };
    if let Some(removed) = removed_method(&request, &probe) {
        tracing::info!(tenant = %tenant.label, %method, status = 404, "refused: a method MCP 2026-07-28 removed");
        return removed;
    }
    let request = match forward::to_its_node(
        &tenant.service,
        shared.node.as_deref(),
        request,
        &probe,
    )
    .await
    {
        Ok(request) => request,
        Err(relayed) => {
            tracing::info!(tenant = %tenant.label, %method, status = relayed.status().as_u16(), ms = started.elapsed().as_secs_f64() * 1000.0, "mcp request relayed to the node serving its session");
            return relayed;
        }
    };
    let rpc_method = probe.method;
    let refused = session_refusal(
        &shared,
        tenant,
        &method,
        session.as_deref(),
        rpc_method.as_deref(),
    );
    if let Some(refused) = refused.await {
        tracing::info!(tenant = %tenant.label, %method, status = refused.status().as_u16(), "refused: MCP session");
        return refused;
    }
    let mut endpoint = tenant.endpoint.clone();
    let answering = (method == axum::http::Method::POST).then(|| Answering::start(&shared));
    let response = match endpoint.call(request).await {
        Ok(response) => response.map(|body| match answering {
            // A call's answer streams after the call itself returned: the drain waits
            // until this body is sent (or dropped), not only for the call.
            Some(answering) => {
                Body::from_stream(Body::new(body).into_data_stream().map(move |chunk| {
                    let _ = &answering;
                    chunk
                }))
            }
            None => Body::new(body),
        }),
        Err(never) => match never {},
    };
    tracing::info!(
        tenant = %tenant.label,
        %method,
        status = response.status().as_u16(),
        ms = started.elapsed().as_secs_f64() * 1000.0,
        "mcp request"
    );
    response
}

/// A POST whose response body is still being sent; counted in [`Shared::answering`]
/// while it lives.
struct Answering(Arc<Shared>);

impl Answering {
    fn start(shared: &Arc<Shared>) -> Self {
        shared.answering.fetch_add(1, Ordering::SeqCst);
        Answering(shared.clone())
    }
}

impl Drop for Answering {
    fn drop(&mut self) {
        self.0.answering.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Why a request names no tenant.
enum Refused {
    Unauthorized,
    /// Two `Authorization` headers: which one counts would be a guess.
    TwoTokens,
}

/// The browser origins a request may come from: those given, and a loopback server's
/// own (`http://localhost:PORT`, `http://127.0.0.1:PORT`, `http://[::1]:PORT`), which a
/// page of another site cannot claim, so a DNS-rebinding page is still refused.
fn allowed_origins(given: &[String], bound: std::net::SocketAddr) -> Vec<String> {
    let mut origins: Vec<String> = given.iter().map(|origin| exact_origin(origin)).collect();
    if bound.ip().is_loopback() {
        let port = bound.port();
        for host in ["localhost", "127.0.0.1", "[::1]"] {
            origins.push(format!("http://{host}:{port}"));
        }
    }
    origins
}

/// An allowed origin as an exact (scheme, host, port): one written without a port means
/// its scheme's default port (`https://app.example.com` is port 443 only), as a browser
/// writes it; the MCP library would otherwise let it match any port. `:*` keeps any port.
fn exact_origin(origin: &str) -> String {
    let origin = origin.trim().trim_end_matches('/');
    let Some((scheme, rest)) = origin.split_once("://") else {
        return origin.to_string();
    };
    let host_end = match rest.strip_prefix('[') {
        Some(bracketed) => bracketed.find(']').map_or(rest.len(), |end| end + 2),
        None => rest.find(':').unwrap_or(rest.len()),
    };
    let default_port = match scheme.to_ascii_lowercase().as_str() {
        "https" => "443",
        "http" => "80",
        _ => return origin.to_string(),
    };
    match rest[host_end..].is_empty() {
        true => format!("{origin}:{default_port}"),
        false => origin.to_string(),
    }
}

/// The tenant whose token the request carries (`Bearer`, in any letter case); every token
/// is compared, in constant time, so the answer's timing tells nothing about which one
/// came close.
fn authenticate<'a>(shared: &'a Shared, request: &Request) -> Result<&'a Tenant, Refused> {
    if let Some(open) = shared.tenants.iter().find(|t| t.token_digest.is_none()) {
        return Ok(open);
    }
    let mut values = request.headers().get_all(header::AUTHORIZATION).iter();
    let value = values.next().ok_or(Refused::Unauthorized)?;
    if values.next().is_some() {
        return Err(Refused::TwoTokens);
    }
    let (scheme, given) = value
        .to_str()
        .ok()
        .and_then(|value| value.trim().split_once(' '))
        .ok_or(Refused::Unauthorized)?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(Refused::Unauthorized);
    }
    shared.tenant_of(given.trim()).ok_or(Refused::Unauthorized)
}

/// A request the tenant's MCP sessions refuse: a DELETE of a session it does not hold
/// (404, whoever holds it), or a new session past its cap (429). `session` is the
/// request's `Mcp-Session-Id`, `opens` the JSON-RPC method of a POST's body.
async fn session_refusal(
    shared: &Shared,
    tenant: &Tenant,
    method: &axum::http::Method,
    session: Option<&str>,
    opens: Option<&str>,
) -> Option<Response> {
    if method == axum::http::Method::DELETE {
        let known = match session {
            Some(id) => tenant.mcp_sessions.sessions.read().await.contains_key(id),
            None => false,
        };
        return (!known).then(|| (StatusCode::NOT_FOUND, "No such MCP session.\n").into_response());
    }
    // Only an `initialize` without a session opens one; the cap counts what is open now.
    if session.is_some() || opens != Some("initialize") {
        return None;
    }
    let open = tenant.mcp_sessions.sessions.read().await.len();
    (open >= shared.max_mcp_sessions).then(|| {
        let mut refused = rpc_error(
            StatusCode::TOO_MANY_REQUESTS,
            -32000,
            &format!(
                "This token has {open} MCP sessions open, the most it may (--max-mcp-sessions); nothing was done. End one (DELETE /mcp with its Mcp-Session-Id) or reuse one; an idle one ends after 5 minutes."
            ),
        );
        refused
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
        refused
    })
}

fn unauthorized() -> Response {
    (
        StatusCode::UNAUTHORIZED,
        [(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"))],
    )
        .into_response()
}

/// SIGTERM and SIGINT, listened for from the moment this is made: a signal sent as soon
/// as the server says it serves starts the drain instead of killing the process.
fn shutdown_signal() -> impl Future<Output = ()> + Send {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let terminate = signal(SignalKind::terminate());
        let interrupt = signal(SignalKind::interrupt());
        async move {
            match (terminate, interrupt) {
                (Ok(mut terminate), Ok(mut interrupt)) => {
                    tokio::select! {
                        _ = interrupt.recv() => {}
                        _ = terminate.recv() => {}
                    }
                }
                _ => {
                    let _ = tokio::signal::ctrl_c().await;
                }
            }
        }
    }
    #[cfg(not(unix))]
    {
        async {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// Refuses the write tools to a read-only token.
struct ReadOnly;

impl ToolPolicy for ReadOnly {
    fn failure_schema(&self) -> Value {
        json!({
            "type": "object",
            "description": "A change this token may not make: it is read-only. Nothing changed.",
            "properties": {
                "code": { "const": "read_only_token" },
                "message": { "type": "string" },
            },
            "required": ["code", "message"],
            "additionalProperties": false,
        })
    }

    fn before_call(&self, call: PolicyCall) -> BoxFuture<'_, Verdict> {
        Box::pin(async move {
            let mut error = Map::new();
            error.insert("code".into(), json!("read_only_token"));
            error.insert(
                "message".into(),
                json!(format!(
                    "This token is read-only: {} is refused and nothing changed. Read, search, validate, preflight and render are allowed; ask for a token with write access to edit.",
                    call.tool
                )),
            );
            Ok(Some(error))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_origin_without_a_port_is_its_scheme_default_port() {
        assert_eq!(
            exact_origin("https://app.example.com"),
            "https://app.example.com:443"
        );
        assert_eq!(
            exact_origin("http://app.example.com/"),
            "http://app.example.com:80"
        );
        assert_eq!(
            exact_origin("https://app.example.com:8443"),
            "https://app.example.com:8443"
        );
        assert_eq!(exact_origin("http://localhost:*"), "http://localhost:*");
        assert_eq!(exact_origin("http://[::1]"), "http://[::1]:80");
        assert_eq!(exact_origin("http://[::1]:3000"), "http://[::1]:3000");
        assert_eq!(exact_origin("null"), "null");
    }

    #[test]
    fn token_lines_carry_roots_and_read_only() {
        let dir = tempfile::tempdir().expect("dir");
        let root = dir.path().to_str().expect("utf-8");
        let text = format!(
            "# team tokens\n\nabcdefghijklmnopqrst\nreadonly-token-0000 read-only roots={root}\n"
        );
        let grants = parse_tokens(&text).expect("parses");
        assert_eq!(grants.len(), 2);
        assert_eq!(
            (grants[0].read_only, grants[0].roots.is_none()),
            (false, true)
        );
        assert_eq!(grants[1].label, "line 4");
        assert!(grants[1].read_only);
        assert_eq!(grants[1].roots.as_ref().map(Vec::len), Some(1));
    }

    #[test]
    fn bad_token_lines_are_refused_with_their_line() {
        for (text, says) in [
            ("short", "line 1: a token is at least 16"),
            ("abcdefghijklmnopqrst rw", "line 1: \"rw\""),
            ("abcdefghijklmnopqrst roots=", "roots= names no directory"),
            (
                "abcdefghijklmnopqrst roots=/no/such/dir",
                "a root is not a directory",
            ),
            (
                "abcdefghijklmnopqrst\nabcdefghijklmnopqrst",
                "line 2: the same token",
            ),
        ] {
            let error = parse_tokens(text).expect_err(text).to_string();
            assert!(error.contains(says), "{text:?}: {error}");
        }
    }
}
