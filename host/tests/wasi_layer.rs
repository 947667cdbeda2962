//! The WASI layer alone: even when the host's own path checks are skipped, the component
//! can reach nothing outside its preopened project directory.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use ofgui_host::bindings::ErrorCode;
use ofgui_host::runtime::{CallError, InstanceLimits, Runtime};
use ofgui_host::sandbox::ResolvedProject;

/// One runtime for all tests of this binary: loading it may compile the component.
fn runtime() -> std::sync::Arc<Runtime> {
    static RUNTIME: std::sync::OnceLock<std::sync::Arc<Runtime>> = std::sync::OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            let cache = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ofgui-compile-cache");
            Runtime::new(Some(&cache), InstanceLimits::default()).expect("runtime")
        })
        .clone()
}

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/HelloFairy")
}

fn copy_tree(from: &Path, to: &Path) {
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

/// Bypasses `sandbox::resolve_project` and `check_project_entries` on purpose.
fn unchecked(dir: &Path, fairy_file: &str) -> ResolvedProject {
    ResolvedProject {
        dir: dir.to_path_buf(),
        fairy_file: fairy_file.to_string(),
        key: dir.display().to_string(),
    }
}

#[tokio::test]
async fn the_component_cannot_open_a_project_file_outside_its_preopen() {
    let runtime = runtime();
    let root = tempfile::tempdir().unwrap();
    let inside = root.path().join("inside");
    let sibling = root.path().join("sibling");
    copy_tree(&example(), &inside);
    copy_tree(&example(), &sibling);
    for escape in [
        "../sibling/HelloFairy.fairy",
        "/etc/passwd",
        "../../../../../../etc/passwd",
    ] {
        let result = runtime.open("s", &unchecked(&inside, escape)).await;
        match result {
            Err(CallError::Backend(error)) => {
                assert_eq!(error.code, ErrorCode::ProjectOpenFailed, "{escape}")
            }
            Err(other) => panic!("{escape}: unexpected {other}"),
            Ok(_) => panic!("{escape} was opened"),
        }
    }
    // The same project opens when named from inside.
    assert!(
        runtime
            .open("s", &unchecked(&sibling, "HelloFairy.fairy"))
            .await
            .is_ok()
    );
}

#[cfg(unix)]
#[tokio::test]
async fn symlinks_out_of_the_preopen_are_refused_by_wasi() {
    let runtime = runtime();
    let root = tempfile::tempdir().unwrap();
    let inside = root.path().join("inside");
    copy_tree(&example(), &inside);
    std::fs::write(root.path().join("secret.png"), b"secret bytes").unwrap();
    let panel = inside.join("assets/Main/images/panel.png");
    std::fs::remove_file(&panel).unwrap();
    std::os::unix::fs::symlink(root.path().join("secret.png"), &panel).unwrap();

    // The .fairy file itself linked out: the open fails.
    let fairy_out = root.path().join("fairy_out");
    std::fs::create_dir_all(&fairy_out).unwrap();
    std::os::unix::fs::symlink(
        inside.join("HelloFairy.fairy"),
        fairy_out.join("Linked.fairy"),
    )
    .unwrap();
    assert!(
        runtime
            .open("s", &unchecked(&fairy_out, "Linked.fairy"))
            .await
            .is_err()
    );

    // An asset linked out: the project opens, but the bytes are not there.
    let mut instance = runtime
        .open("s", &unchecked(&inside, "HelloFairy.fairy"))
        .await
        .expect("open");
    let result = instance.read_resource_bytes(0, "main0001", "img0").await;
    match result {
        Err(CallError::Backend(error)) => {
            assert_eq!(error.code, ErrorCode::SessionReadFailed);
            assert!(
                error.details.contains("bytes_unavailable"),
                "{}",
                error.details
            );
        }
        Err(other) => panic!("unexpected {other}"),
        Ok(bytes) => panic!(
            "read {} bytes through a symlink out of the sandbox",
            bytes.len()
        ),
    }
    let state = instance.read_state(None).await.expect("state");
    assert!(!state.contains("secret bytes"));
}

#[tokio::test]
async fn the_component_imports_no_network() {
    let runtime = runtime();
    let component =
        wasmtime::component::Component::new(runtime.engine(), ofgui_host::runtime::BACKEND_WASM)
            .unwrap();
    let imports: Vec<String> = component
        .component_type()
        .imports(runtime.engine())
        .map(|(name, _)| name.to_string())
        .collect();
    assert!(!imports.is_empty());
    for import in &imports {
        assert!(
            !import.starts_with("wasi:sockets") && !import.starts_with("wasi:http"),
            "{import}"
        );
        assert!(
            import.starts_with("wasi:"),
            "only WASI is imported, found {import}"
        );
    }
}
