//! Helpers shared by the host's integration tests that drive a [`Service`] directly.

// Each test binary uses its own subset of these helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use ofgui_contracts::methods;
use ofgui_host::backend::runtime::InstanceLimits;
use ofgui_host::backend::sandbox::canonical_roots;
use ofgui_host::service::{Service, ServiceConfig};
use serde_json::{Value, json};

pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The compile cache every test binary of this crate shares.
pub fn cache_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ofgui-compile-cache")
}

/// A service over `root` whose instances get `memory_bytes` of linear memory.
pub fn service(root: &Path, memory_bytes: usize) -> Arc<Service> {
    Service::new(ServiceConfig {
        roots: canonical_roots(&[root.to_path_buf()]).unwrap(),
        max_sessions: 4,
        idle_timeout: Duration::ZERO,
        cache_dir: Some(cache_dir()),
        limits: InstanceLimits {
            memory_bytes,
            ..InstanceLimits::default()
        },
        read_only: false,
        fonts: Default::default(),
        project_publish_paths: false,
        command_line: false,
        state_dir: None,
        tenant: None,
    })
}

/// Calls a method and returns its envelope.
pub async fn call(service: &Service, method: &str, input: Value) -> Value {
    let method = methods::by_name(method).unwrap();
    let reply = service.call(method, input).await;
    let envelope = reply.envelope.into_value().unwrap();
    assert_eq!(reply.is_error, envelope["ok"] == false);
    envelope
}

/// A copy of the example project, a service with `memory_bytes` per instance, and a
/// session open on the copy.
pub async fn opened_example(memory_bytes: usize) -> (tempfile::TempDir, Arc<Service>, String) {
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("example");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/HelloFairy"),
        &project,
    );
    let service = service(root.path(), memory_bytes);
    let opened = call(
        &service,
        "openSession",
        json!({ "projectPath": project.to_string_lossy() }),
    )
    .await;
    let id = opened["data"]["sessionId"]
        .as_str()
        .unwrap_or_else(|| panic!("{opened}"))
        .to_string();
    (root, service, id)
}
