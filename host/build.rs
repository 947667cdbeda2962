//! Builds `backend.wasm` (the `ofgui-backend` crate for `wasm32-wasip2`) so the host can
//! embed it. Any `cargo build`, `cargo run` or `cargo test` of the host therefore ships the
//! component built from the same checkout.
//!
//! It also precompiles the component with Cranelift, using the runtime's own engine
//! configuration (`src/engine_config.rs`), and embeds that machine code too, so a fresh
//! install opens its first session without a multi-second compile.
//!
//! Set `OFGUI_BACKEND_WASM=<path>` to embed a prebuilt component instead.

#[path = "src/engine_config.rs"]
mod engine_config;

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

const TARGET: &str = "wasm32-wasip2";

fn main() {
    println!("cargo:rerun-if-env-changed=OFGUI_BACKEND_WASM");
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let embedded = out_dir.join("backend.wasm");

    let built = match env::var_os("OFGUI_BACKEND_WASM") {
        Some(prebuilt) => PathBuf::from(prebuilt),
        None => build_backend(),
    };
    if let Err(error) = std::fs::copy(&built, &embedded) {
        fail(&format!(
            "cannot copy {} to {}: {error}",
            built.display(),
            embedded.display()
        ));
    }
    println!(
        "cargo:rustc-env=OFGUI_BACKEND_WASM_FILE={}",
        embedded.display()
    );

    let precompiled = out_dir.join("backend.cwasm");
    precompile(&embedded, &precompiled);
    println!(
        "cargo:rustc-env=OFGUI_BACKEND_CWASM_FILE={}",
        precompiled.display()
    );
}

/// Compiles the component for the building machine, as `Engine::precompile_component`
/// of the runtime's engine would. Writes an empty file (nothing embedded) when
/// cross-compiling, since the artifact is native code for this machine's CPU.
fn precompile(wasm: &Path, out: &Path) {
    let compiled = if env::var_os("HOST") != env::var_os("TARGET") {
        println!(
            "cargo:warning=cross-compiling: no precompiled backend is embedded; the first start compiles it"
        );
        Vec::new()
    } else {
        let bytes = std::fs::read(wasm)
            .unwrap_or_else(|error| fail(&format!("cannot read {}: {error}", wasm.display())));
        let engine = wasmtime::Engine::new(&engine_config::engine_config())
            .unwrap_or_else(|error| fail(&format!("cannot create the wasmtime engine: {error:#}")));
        engine
            .precompile_component(&bytes)
            .unwrap_or_else(|error| fail(&format!("cannot precompile backend.wasm: {error:#}")))
    };
    if let Err(error) = std::fs::write(out, compiled) {
        fail(&format!("cannot write {}: {error}", out.display()));
    }
}

fn build_backend() -> PathBuf {
    let manifest_dir =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let workspace = manifest_dir
        .parent()
        .expect("host/ lives in the workspace")
        .to_path_buf();
    for watched in [
        "backend-component/src",
        "backend-component/Cargo.toml",
        "contracts/src",
        "contracts/Cargo.toml",
        "wit",
        "Cargo.lock",
        ".cargo/config.toml",
    ] {
        println!(
            "cargo:rerun-if-changed={}",
            workspace.join(watched).display()
        );
    }

    ensure_target();

    // A separate target directory: the outer cargo holds the lock on its own.
    let target_dir = env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.join("target"))
        .join("backend-wasm");
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(&workspace)
        .args([
            "build",
            "--locked",
            "-p",
            "ofgui-backend",
            "--target",
            TARGET,
            "--profile",
            "wasm",
        ])
        .arg("--target-dir")
        .arg(&target_dir);
    // Flags and wrappers meant for the host build (clippy, coverage, host RUSTFLAGS) must
    // not leak into the component build.
    for variable in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_BUILD_TARGET",
        "CARGO_TARGET_DIR",
        "CARGO_PRIMARY_PACKAGE",
    ] {
        command.env_remove(variable);
    }
    let status = command
        .status()
        .unwrap_or_else(|error| fail(&format!("cannot run cargo: {error}")));
    if !status.success() {
        fail("building the backend component failed; see the errors above");
    }
    target_dir
        .join(TARGET)
        .join("wasm")
        .join("ofgui_backend.wasm")
}

/// Makes sure the wasm32-wasip2 standard library is installed, adding it with rustup if not.
fn ensure_target() {
    if target_installed() {
        return;
    }
    println!(
        "cargo:warning=installing the {TARGET} target with rustup (needed to build backend.wasm)"
    );
    let added = Command::new("rustup")
        .args(["target", "add", TARGET])
        .status()
        .is_ok_and(|status| status.success());
    if !added || !target_installed() {
        fail(&format!(
            "the Rust target {TARGET} is not installed and `rustup target add {TARGET}` failed. \
             Install it by hand (`rustup target add {TARGET}`), or set OFGUI_BACKEND_WASM to a prebuilt backend.wasm."
        ));
    }
}

fn target_installed() -> bool {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let output = Command::new(rustc)
        .args(["--print", "target-libdir", "--target", TARGET])
        .output();
    match output {
        Ok(output) if output.status.success() => {
            let libdir = String::from_utf8_lossy(&output.stdout);
            let libdir = Path::new(libdir.trim());
            std::fs::read_dir(libdir).is_ok_and(|mut entries| entries.next().is_some())
        }
        _ => false,
    }
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    panic!("ofgui-host build script: {message}");
}
