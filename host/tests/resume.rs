//! Sessions resumed from a state directory's records belong to their tenant: a service
//! of another tenant given the same directory does not serve them; one of the same does.

use std::sync::Arc;

use ofgui_host::backend::state::StateDir;
use ofgui_host::service::{Service, ServiceConfig};
use serde_json::json;

use crate::common::{cache_dir, call, copy_tree};

/// A service of `tenant` over `root`, keeping its records in `state`.
fn tenant(root: &std::path::Path, state: &StateDir, tenant: &str) -> Arc<Service> {
    let mut config = ServiceConfig::with_roots(&[root.to_path_buf()]).unwrap();
    config.cache_dir = Some(cache_dir());
    config.state_dir = Some(state.clone());
    config.tenant = Some(tenant.to_string());
    Service::new(config)
}

#[tokio::test]
async fn a_recorded_session_is_resumed_only_by_its_own_tenant() {
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("example");
    copy_tree(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/HelloFairy"),
        &project,
    );
    let state = StateDir::new(&root.path().join("state")).unwrap();
    let first = tenant(root.path(), &state, "a");
    let opened = call(
        &first,
        "openSession",
        json!({ "projectPath": project.to_string_lossy() }),
    )
    .await;
    let id = opened["data"]["sessionId"].as_str().unwrap().to_string();
    // The server is gone without closing its session (as when its process dies).
    drop(first);
    let other = tenant(root.path(), &state, "b");
    let refused = call(&other, "getSession", json!({ "sessionId": id })).await;
    assert_eq!(refused["error"]["code"], "session_not_found", "{refused}");
    drop(other);
    let same = tenant(root.path(), &state, "a");
    let resumed = call(&same, "getSession", json!({ "sessionId": id })).await;
    assert_eq!(resumed["ok"], true, "{resumed}");
    assert_eq!(resumed["data"]["sessionId"], id);
}
