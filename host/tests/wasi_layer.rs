//! The WASI layer alone: even when the host's own path checks are skipped, the component
//! can reach nothing outside its preopened project directory.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use crate::common;

use std::path::{Path, PathBuf};

use common::copy_tree;

use ofgui_contracts::error::{ErrorCode, ReadFailureReason};
use ofgui_host::backend::bindings::OpenRequest;
use ofgui_host::backend::runtime::{CallError, InstanceLimits, Runtime};
use ofgui_host::backend::sandbox::ResolvedProject;
use wasmtime::component::types::{ComponentItem, Type};

/// One runtime for all tests of this binary: loading it may compile the component.
fn runtime() -> std::sync::Arc<Runtime> {
    static RUNTIME: std::sync::OnceLock<std::sync::Arc<Runtime>> = std::sync::OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            Runtime::new(
                Some(&common::cache_dir()),
                InstanceLimits::default(),
                Default::default(),
            )
            .expect("runtime")
        })
        .clone()
}

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/HelloFairy")
}

/// Bypasses `sandbox::resolve_project` and `check_project_entries` on purpose.
fn unchecked(dir: &Path, fairy_file: &str) -> ResolvedProject {
    ResolvedProject {
        dir: dir.to_path_buf(),
        fairy_file: fairy_file.to_string(),
        key: dir.display().to_string(),
        identity: None,
    }
}

fn request(project: &ResolvedProject) -> OpenRequest {
    OpenRequest {
        session_id: "s".into(),
        fairy_file: project.fairy_file.clone(),
        project_path: project.dir.display().to_string(),
        canonical_path_key: project.key.clone(),
        revision: 0,
    }
}

async fn open(
    runtime: &Runtime,
    project: ResolvedProject,
) -> Result<ofgui_host::backend::runtime::Instance, CallError> {
    runtime
        .open(&request(&project), &project)
        .await
        .map(|opened| opened.instance)
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
        let result = open(&runtime, unchecked(&inside, escape)).await;
        match result {
            Err(CallError::Backend(error)) => {
                assert_eq!(error.error.code(), ErrorCode::ProjectOpenFailed, "{escape}")
            }
            Err(other) => panic!("{escape}: unexpected {other}"),
            Ok(_) => panic!("{escape} was opened"),
        }
    }
    // The same project opens when named from inside.
    assert!(
        open(&runtime, unchecked(&sibling, "HelloFairy.fairy"))
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
        open(&runtime, unchecked(&fairy_out, "Linked.fairy"))
            .await
            .is_err()
    );

    // An asset linked out: the project opens, but the bytes are not there.
    let mut instance = open(&runtime, unchecked(&inside, "HelloFairy.fairy"))
        .await
        .expect("open");
    let result = instance.read_resource_bytes(0, "main0001", "img0").await;
    match result {
        Err(CallError::Backend(error)) => match error.error {
            ofgui_contracts::error::BackendError::SessionReadFailed { reason, .. } => {
                assert_eq!(reason, ReadFailureReason::BytesUnavailable)
            }
            other => panic!("unexpected {other:?}"),
        },
        Err(other) => panic!("unexpected {other}"),
        Ok(reply) => panic!(
            "read {} bytes through a symlink out of the sandbox",
            reply.bytes.len()
        ),
    }
    let state = instance
        .call("readSessionState", &r#"{"sessionId":"s"}"#.to_string())
        .await
        .expect("state");
    assert!(!state.data.contains("secret bytes"));
}

#[tokio::test]
async fn the_component_imports_no_network() {
    let runtime = runtime();
    // The component as the runtime loaded it (its engine compiles nothing).
    let component = runtime.component();
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

/// The `error-code` enum of the compiled component has exactly the contract's codes, in
/// contract order: the positions both sides map codes to (see `bindings.rs`).
#[tokio::test]
async fn the_compiled_error_enum_is_the_contract_code_list() {
    let runtime = runtime();
    let engine = runtime.engine();
    let component = runtime.component().component_type();
    let interface = component
        .exports(engine)
        .find_map(|(name, item)| match item.ty {
            ComponentItem::ComponentInstance(instance)
                if name.starts_with("ofgui:backend/session@") =>
            {
                Some(instance)
            }
            _ => None,
        })
        .expect("the session interface is exported");
    let open = match interface
        .get_export(engine, "[static]project.open")
        .expect("project.open is exported")
        .ty
    {
        ComponentItem::ComponentFunc(func) => func,
        other => panic!("project.open is {other:?}"),
    };
    let Some(Type::Result(result)) = open.results().next() else {
        panic!("project.open returns a result");
    };
    let Some(Type::Record(error)) = result.err() else {
        panic!("project.open fails with a record");
    };
    let code = error
        .fields()
        .find(|field| field.name == "code")
        .expect("backend-error has a code");
    let Type::Enum(codes) = code.ty else {
        panic!("the code is an enum");
    };
    let compiled: Vec<String> = codes.names().map(str::to_string).collect();
    let contract: Vec<String> = ErrorCode::ALL
        .iter()
        .map(|code| code.as_str().replace('_', "-"))
        .collect();
    assert_eq!(compiled, contract);
}
