//! The review view: one page that shows a person a session (its state, its history as
//! steps, the pictures of a step before and after, changed pixels marked) and lets them
//! undo, redo and save it. The page only calls the server's own tools, so every action
//! goes through the same revision checks and policies as an agent's call. Two doors: the
//! browser (`serve --http`, at `/review`, in `transport::review`), and an MCP App: the
//! resource `ui://openfairygui/review`, which a client with MCP Apps shows with the result
//! of `openfairygui_review`, its calls going through the client's bridge.

/// The page, with the door (`browser`), its styles and its script put in by the door.
const PAGE: &str = include_str!("page.html");
/// The page's script: no framework, nothing loaded from elsewhere.
pub const SCRIPT: &str = include_str!("app.js");
pub const STYLE: &str = include_str!("app.css");

/// What the browser door's answers allow a page: its own origin's script, styles and
/// calls, pictures from `data:` URLs (the previews), nothing else, and no framing.
pub const BROWSER_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The MCP Apps type of a view a client renders in a sandboxed frame.
pub const APP_MIME: &str = "text/html;profile=mcp-app";

/// The page as an MCP App: one document, its script and styles inside it (a client shows
/// it from the resource's text), talking only to the client that frames it.
pub fn app_page() -> String {
    PAGE.replace("{{DOOR}}", "app")
        .replace("{{STYLE}}", &format!("<style>\n{STYLE}</style>"))
        .replace("{{SCRIPT}}", &format!("<script>\n{SCRIPT}</script>"))
}

/// The view's `_meta.ui`: it loads nothing from any other origin, and looks best framed.
pub fn app_meta() -> rmcp::model::MetaObject {
    let mut meta = rmcp::model::MetaObject::new();
    meta.0.insert(
        "ui".into(),
        serde_json::json!({
            "csp": { "connectDomains": [], "resourceDomains": [] },
            "prefersBorder": true,
        }),
    );
    meta
}

/// The page for the browser door: its script and styles from the server's own origin
/// (the policy allows nothing inline).
pub fn browser_page() -> String {
    PAGE.replace("{{DOOR}}", "browser")
        .replace(
            "{{STYLE}}",
            r#"<link rel="stylesheet" href="/review/app.css">"#,
        )
        .replace("{{SCRIPT}}", r#"<script src="/review/app.js"></script>"#)
}

/// A proxy in front that ended TLS says so; the cookie is then sent back over HTTPS only.
pub fn forwarded_https(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|value| value.to_str().ok())
        .is_some_and(|proto| proto.eq_ignore_ascii_case("https"))
}

/// The server's origin as the client of `headers` reached it (`http://host:port`).
pub fn origin(headers: &axum::http::HeaderMap) -> Option<String> {
    let host = headers
        .get(axum::http::header::HOST)
        .and_then(|value| value.to_str().ok())?;
    let scheme = if forwarded_https(headers) {
        "https"
    } else {
        "http"
    };
    Some(format!("{scheme}://{host}"))
}

/// Where a person opens `session_id`'s review in a browser, told to a client that draws
/// no MCP Apps; the token is never in it.
pub fn browser_words(headers: &axum::http::HeaderMap, session_id: &str) -> Option<String> {
    let origin = origin(headers)?;
    let safe = session_id
        .bytes()
        .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_'));
    safe.then(|| {
        format!(
            "A person can review this session in a browser (its steps, pictures before and after, the diff a save would write; undo, redo, save): {origin}/review/{session_id}. The first visit signs in with {origin}/review?token=<this server's token>, which is traded for a cookie at once."
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_browser_page_loads_only_its_own_script_and_styles() {
        let page = browser_page();
        assert!(!page.contains("{{"), "every slot is filled");
        assert!(page.contains(r#"src="/review/app.js""#));
        assert!(page.contains(r#"href="/review/app.css""#));
        assert!(!page.contains("http://") && !page.contains("https://"));
        for asset in [SCRIPT, STYLE] {
            assert!(!asset.contains("http://") && !asset.contains("https://"));
        }
        // Text from the server goes in as text: the script never writes markup.
        assert!(!SCRIPT.contains("innerHTML") && !SCRIPT.contains("outerHTML"));
    }

    #[test]
    fn the_browser_link_names_the_session_and_never_a_token() {
        let mut headers = axum::http::HeaderMap::new();
        headers.insert("host", "127.0.0.1:8080".parse().unwrap());
        let words = browser_words(&headers, "n1.3f2a").unwrap();
        assert!(
            words.contains("http://127.0.0.1:8080/review/n1.3f2a"),
            "{words}"
        );
        assert!(words.contains("token=<"), "a placeholder, not a token");
        headers.insert("x-forwarded-proto", "https".parse().unwrap());
        assert!(
            browser_words(&headers, "s")
                .unwrap()
                .contains("https://127.0.0.1:8080/review/s")
        );
        assert!(browser_words(&headers, "a/b").is_none());
        assert!(browser_words(&axum::http::HeaderMap::new(), "s").is_none());
    }

    #[test]
    fn the_app_page_is_one_document() {
        let page = app_page();
        assert!(!page.contains("{{"));
        assert!(page.contains(r#"data-door="app""#));
        assert!(
            !page.contains("src=") && !page.contains("href="),
            "it loads nothing"
        );
        assert!(page.contains(SCRIPT) && page.contains(STYLE));
        // A script that held `</script>` would end early inside the document.
        assert!(!SCRIPT.contains("</script") && !STYLE.contains("</style"));
    }
}
