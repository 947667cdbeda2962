//! The review view's browser door on `serve --http`: `/review` (and `/review/<sessionId>`)
//! for a person with the tenant's token.
//!
//! The token travels once, in a link (`/review?token=…`), which is traded for a cookie and
//! a redirect to the same page without it, so it stays out of the history and of logs. The
//! cookie is not the token: it is a digest of it (it opens the review and nothing else,
//! and every node sharing the token file knows it), `HttpOnly` (no script reads it) and
//! `SameSite=Strict` (no other site's page sends it). Its calls must come from the page's
//! own origin, every answer forbids loading anything from elsewhere (a Content Security
//! Policy) and framing, and a tenant sees only its own sessions. The page's actions are
//! the server's tool calls, run as an agent's are, with the tenant's policies (a read-only
//! token's writes are refused, and the page shows no actions).

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use ofgui_contracts::methods::MethodId;

use super::tenants::{Shared, Tenant, same};
use crate::review;

/// The cookie's name; it is sent back only to `/review`.
const COOKIE: &str = "ofgui-review";
/// How long a review cookie lasts: a working day.
const COOKIE_SECONDS: u32 = 12 * 60 * 60;

/// The door's routes.
pub(super) fn routes() -> axum::Router<Arc<Shared>> {
    axum::Router::new()
        .route("/review", get(page))
        .route("/review/{session}", get(page_of))
        .route("/review/app.js", get(script))
        .route("/review/app.css", get(style))
        .route("/review/api/sessions", get(sessions))
        .route("/review/api/call", post(call))
        .route("/review/api/approvals", get(approvals).post(answer))
}

/// What `ofgui-mcp-host review` serves: one project, for the holder of one link.
pub struct ReviewOnce {
    pub project: String,
    /// The one token, made for this run; the link carries it.
    pub token: String,
}

/// Opens `ofgui-mcp-host review`'s project in a session of its one tenant; the link that
/// shows it (`http://ADDR/review/<session>?token=…`).
pub(super) async fn open_for_review(
    shared: &Shared,
    review: &ReviewOnce,
    bound: std::net::SocketAddr,
) -> anyhow::Result<String> {
    let tenant = shared
        .tenants
        .first()
        .ok_or_else(|| anyhow::anyhow!("no tenant to review with"))?;
    let mut arguments = serde_json::Map::new();
    arguments.insert("projectPath".into(), json!(review.project));
    let opened = tenant
        .server
        .call_for_review(MethodId::OpenSession.tool(), Some(arguments))
        .await
        .map_err(|error| anyhow::anyhow!("{}", error.message))?;
    let envelope = opened
        .structured_content
        .as_ref()
        .and_then(|content| content.get("backendResult"))
        .cloned()
        .unwrap_or_default();
    match envelope["data"]["sessionId"].as_str() {
        Some(id) => Ok(format!("http://{bound}/review/{id}?token={}", review.token)),
        None => anyhow::bail!(
            "{} could not be opened: {}",
            review.project,
            envelope["error"]["message"]
                .as_str()
                .unwrap_or("no reason given")
        ),
    }
}

/// The cookie a tenant's token is traded for: a digest of the token's digest, so the
/// server keeps no table of cookies and any node with the same token file knows it.
fn cookie_value(token_digest: &[u8; 32]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"ofgui review cookie\n");
    hasher.update(token_digest);
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether the request names this server by a name it answers to (a loopback name or an
/// `--allowed-host`): a page of another site that made its name point here (DNS
/// rebinding) names its own.
fn host_allowed(shared: &Shared, headers: &HeaderMap) -> bool {
    let Some(host) = headers
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
    else {
        return false;
    };
    let name = match host.strip_prefix('[') {
        Some(bracketed) => bracketed.split(']').next().unwrap_or_default(),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    shared
        .allowed_hosts
        .iter()
        .any(|allowed| allowed.eq_ignore_ascii_case(name) || allowed.eq_ignore_ascii_case(host))
}

/// The tenant the request's review cookie names; the open tenant of a server without
/// tokens needs none. Nobody, for a request naming a host this server does not answer to.
fn reviewer<'a>(shared: &'a Shared, headers: &HeaderMap) -> Option<&'a Tenant> {
    if !host_allowed(shared, headers) {
        return None;
    }
    if let Some(open) = shared.tenants.iter().find(|t| t.token_digest.is_none()) {
        return Some(open);
    }
    let given = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.to_owned())?;
    let mut found = None;
    for tenant in &shared.tenants {
        if let Some(digest) = &tenant.token_digest
            && same(cookie_value(digest).as_bytes(), given.as_bytes())
        {
            found = Some(tenant);
        }
    }
    found
}

/// What every answer of the door carries.
fn guarded(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(review::BROWSER_CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn plain(status: StatusCode, text: &str) -> Response {
    guarded(
        (
            status,
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            )],
            text.to_owned(),
        )
            .into_response(),
    )
}

const SIGN_IN: &str = "Open the review link with your token: /review?token=YOUR_TOKEN (it is traded for a cookie at once, and leaves the address bar).\n";

async fn page(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    serve_page(&shared, request, None)
}

async fn page_of(
    State(shared): State<Arc<Shared>>,
    Path(session): Path<String>,
    request: Request,
) -> Response {
    serve_page(&shared, request, Some(&session))
}

fn serve_page(shared: &Shared, request: Request, session: Option<&str>) -> Response {
    let token = request.uri().query().and_then(|query| {
        query
            .split('&')
            .filter_map(|pair| pair.split_once('='))
            .find(|(name, _)| *name == "token")
            .map(|(_, value)| value.to_owned())
    });
    if let Some(token) = token {
        let tenant = shared
            .tenant_of(&token)
            .filter(|_| host_allowed(shared, request.headers()));
        // `ofgui-mcp-host review`'s link works once: its cookie is the way back in.
        let used = tenant.is_some()
            && shared
                .link_once
                .as_ref()
                .is_some_and(|used| used.swap(true, std::sync::atomic::Ordering::SeqCst));
        if used {
            return plain(
                StatusCode::UNAUTHORIZED,
                "This review link worked once and was used already; run ofgui-mcp-host review again for a new one.\n",
            );
        }
        let Some(tenant) = tenant else {
            return plain(StatusCode::UNAUTHORIZED, SIGN_IN);
        };
        // The same page without the token; a session id is only letters, digits and -._~.
        let location = match session.filter(|id| {
            id.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-._~".contains(c))
        }) {
            Some(id) => format!("/review/{id}"),
            None => "/review".to_owned(),
        };
        let mut response = (StatusCode::SEE_OTHER, [(header::LOCATION, location)]).into_response();
        if let Some(digest) = &tenant.token_digest {
            let secure = review::forwarded_https(request.headers());
            let cookie = format!(
                "{COOKIE}={}; Path=/review; HttpOnly; SameSite=Strict; Max-Age={COOKIE_SECONDS}{}",
                cookie_value(digest),
                if secure { "; Secure" } else { "" }
            );
            if let Ok(value) = HeaderValue::from_str(&cookie) {
                response.headers_mut().insert(header::SET_COOKIE, value);
            }
        }
        tracing::info!(tenant = %tenant.label, "review: a token link traded for a cookie");
        return guarded(response);
    }
    if reviewer(shared, request.headers()).is_none() {
        return plain(StatusCode::UNAUTHORIZED, SIGN_IN);
    }
    guarded(
        (
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            )],
            review::browser_page(),
        )
            .into_response(),
    )
}

async fn script() -> Response {
    asset("text/javascript; charset=utf-8", review::SCRIPT)
}

async fn style() -> Response {
    asset("text/css; charset=utf-8", review::STYLE)
}

fn asset(content_type: &'static str, text: &'static str) -> Response {
    guarded(
        (
            [(header::CONTENT_TYPE, HeaderValue::from_static(content_type))],
            text,
        )
            .into_response(),
    )
}

/// The tenant's open sessions, and whether it may change them.
async fn sessions(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    let Some(tenant) = reviewer(&shared, &headers) else {
        return plain(StatusCode::UNAUTHORIZED, SIGN_IN);
    };
    let sessions: Vec<Value> = tenant
        .service
        .open_sessions()
        .into_iter()
        .map(|(id, project)| {
            let name = project
                .rsplit(['/', '\\'])
                .find(|part| !part.is_empty())
                .unwrap_or(&project)
                .to_owned();
            json!({ "sessionId": id, "projectName": name })
        })
        .collect();
    let body = json!({ "readOnly": tenant.read_only, "sessions": sessions });
    json_answer(body.to_string().into_bytes())
}

/// Whether a call comes from the review page itself: its `Origin` is the server's own
/// (as the browser reached it), or, from a browser that sends none, the fetch says it is
/// same-origin. A form or script of another site is refused.
fn same_origin(headers: &HeaderMap) -> bool {
    match headers
        .get(header::ORIGIN)
        .and_then(|value| value.to_str().ok())
    {
        Some(origin) => review::origin(headers).is_some_and(|own| origin == own),
        None => headers
            .get("sec-fetch-site")
            .and_then(|value| value.to_str().ok())
            .is_some_and(|site| site == "same-origin"),
    }
}

/// A page's POST, whole: from a signed-in reviewer, from the page's own origin, JSON.
async fn posted(
    shared: &Shared,
    request: Request,
) -> Result<(&Tenant, axum::body::Bytes), Response> {
    let Some(tenant) = reviewer(shared, request.headers()) else {
        return Err(plain(StatusCode::UNAUTHORIZED, SIGN_IN));
    };
    if !same_origin(request.headers()) {
        tracing::info!(tenant = %tenant.label, status = 403, "review: refused a call from another origin");
        return Err(plain(
            StatusCode::FORBIDDEN,
            "Only the review page itself may act (this request came from another origin).\n",
        ));
    }
    let json = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json"));
    if !json {
        return Err(plain(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Send the call as application/json.\n",
        ));
    }
    let limit = shared.body_limits.max_bytes;
    let Ok(bytes) = axum::body::to_bytes(request.into_body(), limit).await else {
        return Err(plain(
            StatusCode::PAYLOAD_TOO_LARGE,
            "The call could not be read whole, or is too large.\n",
        ));
    };
    if shared.draining.load(std::sync::atomic::Ordering::SeqCst) {
        return Err(plain(StatusCode::SERVICE_UNAVAILABLE, "shutting down\n"));
    }
    Ok((tenant, bytes))
}

/// One of the server's tool calls for the page: `{name, arguments}` in, the tool result
/// (as an MCP client gets it) out.
async fn call(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let (tenant, bytes) = match posted(&shared, request).await {
        Ok(posted) => posted,
        Err(refused) => return refused,
    };
    #[derive(serde::Deserialize)]
    struct ToolCall {
        name: String,
        #[serde(default)]
        arguments: Option<serde_json::Map<String, Value>>,
    }
    let Ok(called) = serde_json::from_slice::<ToolCall>(&bytes) else {
        return plain(
            StatusCode::BAD_REQUEST,
            "A call is {\"name\": TOOL, \"arguments\": {...}}.\n",
        );
    };
    let result = match tenant
        .server
        .call_for_review(&called.name, called.arguments)
        .await
    {
        Ok(result) => result,
        Err(refused) => {
            return plain(StatusCode::BAD_REQUEST, &format!("{}\n", refused.message));
        }
    };
    match serde_json::to_vec(&result) {
        Ok(body) => json_answer(body),
        Err(_) => plain(
            StatusCode::INTERNAL_SERVER_ERROR,
            "The result could not be sent.\n",
        ),
    }
}

/// The writes the tenant's agents asked for that wait for a person (`--confirm-writes`).
async fn approvals(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    let Some(tenant) = reviewer(&shared, &headers) else {
        return plain(StatusCode::UNAUTHORIZED, SIGN_IN);
    };
    let waiting = tenant
        .approvals
        .as_ref()
        .map(|approvals| approvals.waiting())
        .unwrap_or_default();
    let body = json!({ "confirmWrites": tenant.approvals.is_some(), "waiting": waiting });
    json_answer(body.to_string().into_bytes())
}

/// A person's answer to one waiting write: `{id, approve}`.
async fn answer(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let (tenant, bytes) = match posted(&shared, request).await {
        Ok(posted) => posted,
        Err(refused) => return refused,
    };
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Answer {
        id: u64,
        approve: bool,
    }
    let Ok(answer) = serde_json::from_slice::<Answer>(&bytes) else {
        return plain(
            StatusCode::BAD_REQUEST,
            "An answer is {\"id\": N, \"approve\": true or false}.\n",
        );
    };
    let Some(approvals) = &tenant.approvals else {
        return plain(
            StatusCode::NOT_FOUND,
            "This server does not ask for approval (it runs without --confirm-writes).\n",
        );
    };
    if !approvals.answer(answer.id, answer.approve) {
        return plain(
            StatusCode::GONE,
            "That write no longer waits: it was answered, or its time ran out.\n",
        );
    }
    tracing::info!(tenant = %tenant.label, approve = answer.approve, "review: a person answered a write");
    json_answer(json!({ "answered": true }).to_string().into_bytes())
}

fn json_answer(body: Vec<u8>) -> Response {
    guarded(
        (
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            )],
            Body::from(body),
        )
            .into_response(),
    )
}
