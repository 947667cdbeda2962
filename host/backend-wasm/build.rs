//! Builds `backend.wasm` (the `ofgui-backend` crate for `wasm32-wasip2`) so the host can
//! embed it (through this crate's `BACKEND_WASM`). Any `cargo build`, `cargo run` or `cargo test` of the host therefore ships the
//! component built from the same checkout.
//!
//! It does not compile the component to machine code: that needs a second wasmtime built
//! for the build script and minutes of unoptimised Cranelift, on every fresh build. The
//! runtime compiles it once, at the first start, into the user's compile cache
//! (`ofgui-mcp-host precompile` does it ahead of time). The component's SHA-256, computed
//! here, names that cache file, so a start never hashes the component.
//!
//! Set `OFGUI_BACKEND_WASM=<path>` to embed a prebuilt component instead.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

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

    let bytes = std::fs::read(&embedded)
        .unwrap_or_else(|error| fail(&format!("cannot read {}: {error}", embedded.display())));
    let digest: String = Sha256::digest(&bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    println!("cargo:rustc-env=OFGUI_BACKEND_WASM_SHA256={digest}");
}

fn build_backend() -> PathBuf {
    let manifest_dir =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let workspace = manifest_dir
        .ancestors()
        .nth(2)
        .expect("host/backend-wasm/ lives in the workspace")
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
