//! The official MCP conformance suite (npm `@modelcontextprotocol/conformance`, installed by
//! `tests/clients/install.sh`) against `serve --http`, for the two revisions the server
//! speaks. The checks it may fail are listed with their reasons in
//! `tests/conformance/<revision>.yml`: each needs a fixture of the suite's reference server
//! (its `test_*` tools and prompts, its `test://` resources) or an extension this server does
//! not offer. Every other check must pass, and a listed check that starts passing fails the
//! run until its entry is removed.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::clients::{clients_dir, installed, run};
use crate::harness::*;
use crate::http::{start_open, stopped};

fn conforms(revision: &str) {
    let node = &installed().node;
    let suite = clients_dir().join("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    assert!(suite.exists(), "the installer left no {}", suite.display());
    let baseline = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/conformance")
        .join(format!("{revision}.yml"));
    let workspace = Workspace::new();
    workspace.add("hello", &example_project());
    let results = workspace.path().join("results");
    let (server, addr, log) = start_open(&workspace);
    let mut suite_run = Command::new(node);
    suite_run
        .arg(&suite)
        .args(["server", "--url", &format!("http://{addr}/mcp")])
        .args(["--requirements", revision, "--expected-failures"])
        .arg(&baseline)
        .arg("-o")
        .arg(&results);
    let finished = run(suite_run, Duration::from_secs(300));
    let (status, log) = stopped(server, log);
    assert!(status.success(), "{log}");
    assert!(
        finished.status.success(),
        "the conformance suite ({revision}) found failures its baseline does not list, or listed \
         ones that now pass:\n{}\n{}\nserver log:\n{}",
        finished.stdout,
        finished.stderr,
        log
    );
}

#[test]
fn the_conformance_suite_passes_for_2025_11_25() {
    conforms("2025-11-25");
}

#[test]
fn the_conformance_suite_passes_for_2026_07_28() {
    conforms("2026-07-28");
}
