//! The server held to upstream's own output contract: agents written for upstream validate
//! results against the JSON Schemas that the published `@openfairygui/backend@0.6.1`
//! generated for its 17 methods. `tests/clients/upstream_contract.mjs` reads them from the
//! npm package (installed by `tests/clients/install.sh`), runs a scripted session through
//! the TypeScript SDK on a copy of the Unity examples and validates every
//! `structuredContent.backendResult` against the branch of upstream's schema it claims.
//!
//! Upstream pins some values that are untrue for us: who we are, which npm entry points
//! and Node bridges exist, the capability schema version. We send our own values there;
//! [`IDENTITY`] lists those places, and each result is judged with upstream's constant put
//! in their stead. Every other key, type, enum and required field must conform as sent,
//! and every listed place must still differ somewhere (the list only shrinks).

use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use crate::clients::{clients_dir, installed, run, server_args};
use crate::harness::*;

/// Where our truthful value replaces a constant of upstream's, as `(instance path
/// ending, why)`. docs/compatibility.md says the same.
const IDENTITY: &[(&str, &str)] = &[
    (
        "/capabilitySchemaVersion",
        "we follow capability schema 15, the unpublished upstream the port follows; 0.6.1 says 12",
    ),
    (
        "/runtimeOwner",
        "we name ourselves (ofgui), not @openfairygui/backend",
    ),
    (
        "/transactionKernelOwner",
        "ofgui-backend, not @openfairygui/core",
    ),
    (
        "/appSeamOwner",
        "ofgui-mcp-host, not @openfairygui/functions",
    ),
    (
        "/pathPolicy/canonicalization",
        "paths compare exactly (realpath+normalized); 0.6.1 knows only casefold",
    ),
    (
        "/manifest/browserSafe",
        "the backend is a WASI component needing a preopened directory, not a browser bundle",
    ),
    (
        "/manifest/rootEntrypoint",
        "backend.wasm and its WIT world, not an npm entry",
    ),
    (
        "/manifest/nodeEntrypoint",
        "ofgui-mcp-host, not an npm entry",
    ),
    (
        "/projectStorage/browserSafe",
        "the storage is a WASI preopen, not a browser adapter",
    ),
    (
        "/projectStorage/adapterFactory",
        "a WASI preopen, not createBackendStorageFileSystem",
    ),
    (
        "/executionBoundaries/projectSession",
        "a session runs in its own WASI component instance",
    ),
    (
        "/publishBridge/available",
        "this server publishes (openfairygui_publish)",
    ),
    (
        "/publishBridge/requiredHost",
        "ofgui-mcp-host publishes, not Node",
    ),
    (
        "/publishBridge/bridgeEntrypoint",
        "the tool to call: openfairygui_publish",
    ),
    (
        "/artifactPublish/available",
        "the same bridge, in the manifest",
    ),
    (
        "/artifactPublish/requiredHost",
        "the same bridge, in the manifest",
    ),
    (
        "/artifactPublish/bridgeEntrypoint",
        "the same bridge, in the manifest",
    ),
];

const LIMIT: Duration = Duration::from_secs(300);

/// One failed check of a result, in the form [`KNOWN`] matches.
fn findings(result: &Value) -> Vec<String> {
    let step = result["step"].as_str().unwrap_or("?");
    let mut findings = Vec::new();
    for error in result["errors"].as_array().into_iter().flatten() {
        let keyword = error["keyword"].as_str().unwrap_or("?");
        let params = error["params"].to_string();
        let mut paths: Vec<String> = error["instancePaths"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(|path| {
                path.split('/')
                    .map(|segment| {
                        if !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit()) {
                            "*"
                        } else {
                            segment
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("/")
            })
            .collect();
        paths.dedup();
        for path in paths {
            let finding = format!("{step} {path} {keyword} {params}");
            if !findings.contains(&finding) {
                findings.push(finding);
            }
        }
    }
    findings
}

/// One result as printed: its verdict, then each failed check with where it fails in
/// upstream's schema, what was sent and (up to three) instance paths.
fn describe(result: &Value) -> String {
    let mut text = format!(
        "{} {} ({}, {}, upstream branch {})",
        if result["conforms"] == Value::Bool(true) {
            "conforms"
        } else {
            "FAILS   "
        },
        result["step"].as_str().unwrap_or("?"),
        result["method"].as_str().unwrap_or("?"),
        result["outcome"].as_str().unwrap_or("?"),
        result["branch"].as_str().unwrap_or("?"),
    );
    for substituted in result["substituted"].as_array().into_iter().flatten() {
        text.push_str(&format!(
            "\n    {}: {} read as upstream's {}",
            substituted["path"].as_str().unwrap_or("?"),
            substituted["sent"],
            substituted["upstream"],
        ));
    }
    for error in result["errors"].as_array().into_iter().flatten() {
        let paths: Vec<&str> = error["instancePaths"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let more = match paths.len() {
            0..=3 => String::new(),
            n => format!(" and {} more", n - 3),
        };
        let sent: Vec<&str> = error["sent"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let sent = if sent.is_empty() {
            String::new()
        } else {
            format!(" (sent {})", sent.join(", "))
        };
        text.push_str(&format!(
            "\n    {}{more}: {} {}{sent} at {}",
            paths[..paths.len().min(3)].join(", "),
            error["keyword"].as_str().unwrap_or("?"),
            error["params"],
            error["schemaPath"].as_str().unwrap_or("?"),
        ));
    }
    text
}

#[test]
fn results_conform_to_upstream_output_contract() {
    let installed = installed();
    warm_compile_cache();
    let workspace = Workspace::new();
    let project = workspace.add("project", &unity_corpus());
    let log = workspace.path().join("server.log");
    let identity: Vec<&str> = IDENTITY.iter().map(|(suffix, _)| *suffix).collect();
    let identity = identity.join(",");
    let mut command = Command::new(&installed.node);
    command
        .arg(clients_dir().join("upstream_contract.mjs"))
        .args(["--format", "json", "--identity", &identity, "--project"])
        .arg(&project)
        .arg("--server-log")
        .arg(&log)
        .arg("--")
        .args(server_args(workspace.path(), &[]));
    let result = run(command, LIMIT);
    let server_log = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        result.status.success() && result.stderr.trim().is_empty(),
        "the upstream contract session failed ({}):\n{}\n{}\nserver stderr:\n{server_log}",
        result.status,
        result.stderr,
        result.stdout
    );
    let summary: Value = serde_json::from_str(result.stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "upstream_contract.mjs printed no summary ({e}): {}",
            result.stdout
        )
    });
    let results = summary["results"].as_array().expect("results");
    assert_eq!(results.len(), 16, "the scripted session makes 16 calls");

    let report: Vec<String> = results.iter().map(describe).collect();
    let conforming = results
        .iter()
        .filter(|r| r["conforms"] == Value::Bool(true))
        .count();
    println!(
        "{}: {conforming} of {} results conform\n{}",
        summary["upstream"]["package"],
        results.len(),
        report.join("\n")
    );

    let failing: Vec<String> = results
        .iter()
        .filter(|r| r["conforms"] != Value::Bool(true))
        .flat_map(findings)
        .collect();
    let used: Vec<&str> = results
        .iter()
        .flat_map(|r| r["substituted"].as_array().into_iter().flatten())
        .filter_map(|x| x["path"].as_str())
        .collect();
    let unused: Vec<&str> = IDENTITY
        .iter()
        .map(|(suffix, _)| *suffix)
        .filter(|suffix| !used.iter().any(|path| path.ends_with(suffix)))
        .collect();
    assert!(
        failing.is_empty() && unused.is_empty(),
        "{conforming} of {} results conform to {}'s output schemas with its identity \
         constants substituted.\n\nNon-conformances ({}):\n{}\n\n\
         IDENTITY entries that no longer differ (remove them) ({}):\n{}\n\nEvery result:\n{}",
        results.len(),
        summary["upstream"]["package"],
        failing.len(),
        failing
            .iter()
            .map(|f| format!("  {f}"))
            .collect::<Vec<_>>()
            .join("\n"),
        unused.len(),
        unused.join("\n  "),
        report.join("\n")
    );
}
