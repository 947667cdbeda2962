//! The command line (`validate`, `outline`, `query`, `apply`, `docs`) run as the real
//! binary on corpus copies: its text, its `--json` documents held to the schemas
//! `openfairygui://docs/cli/{command}` serves, its exit statuses, the files `apply --save`
//! writes, and the documents `docs` prints.

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use serde_json::{Value, json};

use crate::harness::*;

/// Runs `ofgui-mcp-host <arguments>` with the shared compile cache.
pub(crate) fn ofgui(arguments: &[&str]) -> Output {
    ofgui_with_stdin(arguments, b"")
}

fn ofgui_with_stdin(arguments: &[&str], stdin: &[u8]) -> Output {
    warm_compile_cache();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ofgui-mcp-host"))
        .arg("--cache-dir")
        .arg(cache_dir())
        .args(arguments)
        .env_remove("OFGUI_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ofgui-mcp-host");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().expect("ofgui-mcp-host output")
}

fn text(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

/// The exit status, with stderr in the message when it is not the expected one.
pub(crate) fn assert_status(output: &Output, expected: i32) {
    assert_eq!(
        output.status.code(),
        Some(expected),
        "stdout: {}\nstderr: {}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The schema of a command's `--json` output, from the generated contract (the
/// `docs` test checks that the MCP resource serves the same).
fn cli_schema(command: &str) -> Value {
    static SNAPSHOT: OnceLock<Value> = OnceLock::new();
    let snapshot =
        SNAPSHOT.get_or_init(|| serde_json::from_str(ofgui_contracts::CONTRACT_JSON).unwrap());
    snapshot["cli"][command].clone()
}

/// The one JSON document a `--json` run printed, held to its command's schema.
pub(crate) fn json_output(command: &str, output: &Output) -> Value {
    let document: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "{command} --json printed no JSON document ({error}): {}",
            String::from_utf8_lossy(&output.stdout)
        )
    });
    let schema = cli_schema(command);
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(&document)
        .map(|error| format!("{error} at {}", error.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{command} --json does not match openfairygui://docs/cli/{command}: {errors:?}\n{document:#}"
    );
    assert_eq!(document["command"], command);
    // `ok` says the command produced its data; a report of an invalid project is data.
    let code = output.status.code().unwrap();
    let produced = match command {
        "validate" => matches!(code, 0 | 1 | 3),
        // With --allow-missing, published with resources left out.
        "publish" => matches!(code, 0 | 3),
        // `strings check`: a translation with findings is a report too.
        "strings" => matches!(code, 0 | 1),
        _ => code == 0,
    };
    assert_eq!(document["ok"], produced, "{document:#}");
    document
}

fn path(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// No command leaves its project's advisory lock behind.
fn assert_unlocked(project: &Path) {
    let name = project.file_name().unwrap().to_str().unwrap();
    let lock = project
        .parent()
        .unwrap()
        .join(format!(".{name}.openfairygui.backend.lock"));
    assert!(!lock.exists(), "{} was left behind", lock.display());
}

#[test]
fn validate_exit_codes_and_output() {
    let workspace = Workspace::new();
    let example = workspace.add("example", &example_project());
    let unity = workspace.add("unity", &unity_corpus());
    let experiments = workspace.add("experiments", &experiments_corpus());

    let output = ofgui(&["validate", path(&example)]);
    assert_status(&output, 0);
    assert!(text(&output).contains("valid (complete; 0 errors, 0 warnings)"));

    let output = ofgui(&[
        "validate",
        path(&unity.join("FairyGUI-Unity-Examples.fairy")),
    ]);
    assert_status(&output, 1);
    let report = text(&output);
    assert!(
        report.contains(": invalid (complete; 1 error, 6 warnings)"),
        "{report}"
    );
    assert!(
        report.contains("dangling_resource_reference")
            && report.contains("assets/HitTest/component1.xml"),
        "{report}"
    );

    let output = ofgui(&["validate", "--json", path(&unity)]);
    assert_status(&output, 1);
    let document = json_output("validate", &output);
    assert_eq!(document["data"]["status"], "invalid");
    assert_eq!(document["data"]["complete"], true);

    let output = ofgui(&["validate", path(&experiments), "--json"]);
    assert_status(&output, 0);
    let document = json_output("validate", &output);
    assert_eq!(document["data"]["status"], "valid");
    assert_eq!(document["data"]["diagnostics"].as_array().unwrap().len(), 2);

    let gif = workspace.add("gif", &example_project());
    let package = gif.join("assets/Main/package.xml");
    let xml = std::fs::read_to_string(&package).unwrap().replacen(
        "<component id=\"view0\"",
        "<image id=\"gif0\" name=\"anim.gif\" path=\"/images/\"/>\n    <component id=\"view0\"",
        1,
    );
    std::fs::write(&package, xml).unwrap();
    std::fs::write(
        gif.join("assets/Main/images/anim.gif"),
        b"GIF89a\x01\x00\x01\x00\x00\x00\x00;",
    )
    .unwrap();
    assert_status(&ofgui(&["validate", path(&gif)]), 3);
    let output = ofgui(&["validate", path(&gif), "--json"]);
    assert_status(&output, 3);
    assert_eq!(
        json_output("validate", &output)["data"]["status"],
        "incomplete"
    );

    let nowhere = workspace.path().join("nowhere");
    let output = ofgui(&["validate", path(&nowhere)]);
    assert_status(&output, 2);
    assert!(output.stdout.is_empty(), "failures go to stderr");
    assert!(String::from_utf8_lossy(&output.stderr).contains("project_open_failed"));
    let output = ofgui(&["validate", path(&nowhere), "--json"]);
    assert_status(&output, 2);
    let document = json_output("validate", &output);
    assert_eq!(document["error"]["code"], "project_open_failed");
    assert_eq!(document["error"]["reason"], "project_not_found");

    assert_status(&ofgui(&["validate"]), 2);
    assert_status(&ofgui(&["validate", "--bogus", path(&example)]), 2);
    for project in [&example, &unity, &experiments] {
        assert_unlocked(project);
    }
}

#[test]
fn outline_lists_packages_resources_and_components() {
    let workspace = Workspace::new();
    let unity = workspace.add("unity", &unity_corpus());
    let experiments = workspace.add("experiments", &experiments_corpus());
    let before = snapshot(&unity);

    let output = ofgui(&["outline", path(&unity)]);
    assert_status(&output, 0);
    let outline = text(&output);
    assert!(
        outline.starts_with(&format!(
            "{}: project 5b85d3c8fa4ef4d0cc856c635439191d (Unity, version 3.0), 30 packages\n",
            unity.display()
        )),
        "{outline}"
    );
    assert!(outline.contains("\npackage Basics (9leh0eyf): 223 resources\n"));
    assert!(
        outline
            .contains("\n  component   kcy10    /BagWin  8 nodes, 1 controller, 0 transitions\n")
    );
    assert!(outline.contains("\n  image       rpmb7    /images/b1.png\n"));

    // The JSON is the backend's outline; the text has a line per package and resource.
    let output = ofgui(&["outline", path(&unity), "--json"]);
    assert_status(&output, 0);
    let document = json_output("outline", &output);
    let packages = document["data"]["packages"].as_array().unwrap();
    assert_eq!(packages.len(), 30);
    let resources: usize = packages
        .iter()
        .map(|package| package["resources"].as_array().unwrap().len())
        .sum();
    let lines = |prefix: &str| {
        outline
            .lines()
            .filter(|line| line.starts_with(prefix) && !line[prefix.len()..].starts_with(' '))
            .count()
    };
    assert_eq!(lines("package "), 30);
    assert_eq!(lines("  "), resources);

    // A package by name or by id; several packages; one component with its nodes.
    let by_name = ofgui(&["outline", path(&unity), "--package", "Bag"]);
    let by_id = ofgui(&["outline", path(&unity), "--package", "rbw1tv9t"]);
    assert_status(&by_name, 0);
    assert_eq!(text(&by_name), text(&by_id));
    assert!(text(&by_name).contains(", 1 package\npackage Bag (rbw1tv9t): 17 resources\n"));
    let output = ofgui(&[
        "outline",
        path(&unity),
        "--package",
        "Bag",
        "--package",
        "rbw1tvvv",
        "--json",
    ]);
    let document = json_output("outline", &output);
    let names: Vec<&str> = document["data"]["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|package| package["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Bag", "Joystick"]);

    let output = ofgui(&["outline", path(&unity), "--component", "Bag/BagWin"]);
    assert_status(&output, 0);
    let component = text(&output);
    assert!(
        component.contains("package Bag (rbw1tv9t): 1 resource\n"),
        "{component}"
    );
    assert!(
        component.contains("\n    node n8       list        list\n"),
        "{component}"
    );
    assert!(component.contains("\n    controller page: 0 \"\", 1 \"\", 2 \"\"\n"));
    assert_eq!(component.matches("\n    node ").count(), 8);

    let output = ofgui(&["outline", path(&unity), "--packages-only", "--json"]);
    let document = json_output("outline", &output);
    let basics = &document["data"]["packages"][1];
    assert_eq!(basics["resourceCount"], 223);
    assert!(basics.get("resources").is_none());
    let output = ofgui(&["outline", path(&unity), "--packages-only"]);
    assert_eq!(text(&output).lines().count(), 31);

    // The experiments project's branch.
    let output = ofgui(&["outline", path(&experiments)]);
    assert_status(&output, 0);
    let outline = text(&output);
    assert!(outline.contains("2 packages, branches dev\n"), "{outline}");
    assert!(outline.contains("package Branch (a9lkf94s): 4 resources, branches dev\n"));
    assert!(outline.contains("  component   kn7w3    /Main [dev]  1 node, 0 controllers"));

    // What the project does not have (1), and what cannot run (2).
    let output = ofgui(&["outline", path(&unity), "--package", "NoSuch", "--json"]);
    assert_status(&output, 1);
    let document = json_output("outline", &output);
    assert_eq!(document["error"]["code"], "session_read_failed");
    assert_eq!(document["error"]["reason"], "not_found");
    let output = ofgui(&["outline", path(&unity), "--component", "Bag/NoSuch"]);
    assert_status(&output, 1);
    let output = ofgui(&["outline", path(&unity), "--component", "Bag", "--json"]);
    assert_status(&output, 2);
    assert_eq!(
        json_output("outline", &output)["error"]["code"],
        "invalid_input"
    );
    let output = ofgui(&["outline", path(workspace.path()), "--json"]);
    assert_status(&output, 2);
    let document = json_output("outline", &output);
    assert_eq!(document["error"]["code"], "project_open_failed");
    assert_eq!(document["error"]["reason"], "no_project_file");

    assert_eq!(snapshot(&unity), before, "an outline writes nothing");
    assert_unlocked(&unity);
}

#[test]
fn query_reads_one_entity_by_ids_or_names() {
    let workspace = Workspace::new();
    let unity = workspace.add("unity", &unity_corpus());
    let experiments = workspace.add("experiments", &experiments_corpus());
    let project = path(&unity);

    let by_name = ofgui(&["query", project, "node:Bag/BagWin/list"]);
    assert_status(&by_name, 0);
    let by_id = ofgui(&["query", project, "node:rbw1tv9t/kcy10/n8"]);
    assert_eq!(text(&by_name), text(&by_id));
    let node = text(&by_name);
    assert!(
        node.starts_with("node:rbw1tv9t/kcy10/n8 (displayNode, revision 0)\n"),
        "{node}"
    );
    assert!(node.contains("\n  name: \"list\"\n"), "{node}");
    assert!(
        node.contains("\n  position: {\"x\":54,\"y\":71}\n"),
        "{node}"
    );
    // A value too long for one line has its entries below it.
    assert!(
        node.contains("\n  listItems:\n    [0]:\n      title: null\n"),
        "{node}"
    );

    let output = ofgui(&["query", project, "node:Bag/BagWin/list", "--json"]);
    assert_status(&output, 0);
    let document = json_output("query", &output);
    let selector =
        json!({ "packageId": "rbw1tv9t", "componentResourceId": "kcy10", "displayNodeId": "n8" });
    assert_eq!(
        document["data"]["target"],
        json!({ "kind": "displayNode", "selector": selector })
    );
    assert_eq!(
        document["data"]["entity"]["properties"]["position"],
        json!({ "x": 54, "y": 71 })
    );
    // The MCP target as JSON reads the same entity.
    let target = json!({ "kind": "displayNode", "selector": selector }).to_string();
    let output = ofgui(&["query", project, &target, "--json"]);
    let same = json_output("query", &output);
    assert_eq!(same["data"]["target"], document["data"]["target"]);
    assert_eq!(same["data"]["entity"], document["data"]["entity"]);

    let output = ofgui(&["query", project, "project"]);
    assert_status(&output, 0);
    assert!(text(&output).starts_with("project (project, revision 0)\n  projectId: "));
    let output = ofgui(&["query", project, "component:Bag/BagWin"]);
    assert!(text(&output).contains("\n  size: {\"width\":640,\"height\":582}\n"));
    let output = ofgui(&["query", project, "controller:Bag/BagWin/page", "--json"]);
    let pages = &json_output("query", &output)["data"]["entity"]["properties"]["pages"];
    assert_eq!(pages.as_array().unwrap().len(), 3);
    let output = ofgui(&["query", project, "resource:Basics/b1.png"]);
    assert!(text(&output).contains("\n  fileName: \"b1.png.jpg\"\n"));
    let output = ofgui(&["query", project, "package:Joystick", "--json"]);
    assert_eq!(
        json_output("query", &output)["data"]["entity"]["properties"]["id"],
        "rbw1tvvv"
    );

    // What the project does not have, or a name that fits several: 1.
    for target in [
        "node:Bag/BagWin/n99",
        "node:NoSuch/BagWin/n8",
        "transition:Bag/BagWin/t9",
    ] {
        let output = ofgui(&["query", project, target, "--json"]);
        assert_status(&output, 1);
        let document = json_output("query", &output);
        assert_eq!(document["error"]["code"], "entity_query_failed", "{target}");
        assert_eq!(document["error"]["reason"], "not_found", "{target}");
    }
    let output = ofgui(&["query", path(&experiments), "resource:Loader/alien-pma"]);
    assert_status(&output, 1);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("nbcg7, nbcg8") && stderr.contains("reason: ambiguous"),
        "{stderr}"
    );

    // A target that is not one: 2.
    for target in ["bogus:x", "node:Bag/BagWin", "package:", "{\"kind\":"] {
        let output = ofgui(&["query", project, target, "--json"]);
        assert_status(&output, 2);
        assert_eq!(
            json_output("query", &output)["error"]["code"],
            "invalid_input"
        );
    }
    let output = ofgui(&["query", project, "{\"kind\":\"package\"}", "--json"]);
    assert_status(&output, 2);
    let document = json_output("query", &output);
    assert_eq!(document["error"]["reason"], "invalid_query");
    assert_unlocked(&unity);
}

/// Renames an image and a component (two files move, `package.xml` changes) and moves a
/// node in another package.
fn multi_file_batch() -> Value {
    json!([
        { "kind": "renameResource", "selector": { "packageId": "9leh0eyf", "resourceId": "rpmbj" }, "newName": "k3_frame" },
        { "kind": "renameResource", "selector": { "packageId": "9leh0eyf", "resourceId": "rpmb10" }, "newName": "FancyButton" },
        { "kind": "setDisplayNodeProps",
          "selector": { "packageId": "rbw1tvvv", "componentResourceId": "iitt1", "displayNodeId": "n7" },
          "props": { "position": { "x": 5, "y": 6 } } }
    ])
}

fn changed(before: &Snapshot, after: &Snapshot) -> Vec<String> {
    let mut paths: Vec<String> = before
        .keys()
        .chain(after.keys())
        .filter(|path| before.get(*path) != after.get(*path))
        .cloned()
        .collect();
    paths.sort();
    paths.dedup();
    paths
}

type Snapshot = std::collections::BTreeMap<String, Vec<u8>>;

#[test]
fn apply_previews_a_batch_and_saves_exactly_the_previewed_files() {
    let workspace = Workspace::new();
    let unity = workspace.add("unity", &unity_corpus());
    let project = path(&unity);
    let batch = workspace.path().join("batch.json");
    std::fs::write(&batch, multi_file_batch().to_string()).unwrap();
    let object = workspace.path().join("object.json");
    std::fs::write(
        &object,
        json!({ "operations": multi_file_batch() }).to_string(),
    )
    .unwrap();
    let before = snapshot(&unity);

    let output = ofgui(&["apply", project, path(&batch)]);
    assert_status(&output, 0);
    let preview = text(&output);
    assert!(
        preview.starts_with(&format!(
            "{project}: the batch of 3 operations would change (a preview at revision 0; nothing was written):\n"
        )),
        "{preview}"
    );
    assert!(
        preview.contains("\n  updated  node:rbw1tvvv/iitt1/n7  position\n"),
        "{preview}"
    );
    assert!(preview.contains("\n  updated  resource:9leh0eyf/rpmbj  fileName, name, sourcePath\n"));
    assert!(preview.contains("\nfiles a save would touch:\n"));
    assert!(preview.contains("\n  added    assets/Basics/images/k3_frame.png\n"));
    assert!(preview.contains("\n  removed  assets/Basics/images/k3.png\n"));
    assert_eq!(snapshot(&unity), before, "a preview writes nothing");

    let output = ofgui(&["apply", project, path(&object), "--json"]);
    assert_status(&output, 0);
    let document = json_output("apply", &output);
    assert_eq!(document["data"]["mode"], "preview");
    let files = document["data"]["preview"]["impact"]["files"]
        .as_array()
        .unwrap()
        .clone();
    let previewed: Vec<String> = files
        .iter()
        .map(|file| file["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(previewed.len(), 6, "{previewed:?}");
    // The batch from standard input previews the same.
    let output = ofgui_with_stdin(
        &["apply", project, "-", "--json"],
        multi_file_batch().to_string().as_bytes(),
    );
    assert_eq!(
        json_output("apply", &output)["data"]["preview"]["impact"],
        document["data"]["preview"]["impact"]
    );
    assert_eq!(snapshot(&unity), before);

    // --save changes exactly the previewed files, as it says.
    let output = ofgui(&["apply", project, path(&batch), "--save", "--json"]);
    assert_status(&output, 0);
    let saved = json_output("apply", &output);
    assert_eq!(saved["data"]["mode"], "saved");
    assert_eq!(saved["data"]["revision"], 1);
    let after = snapshot(&unity);
    assert_eq!(changed(&before, &after), previewed);
    let disk = &saved["data"]["disk"];
    let mut reported: Vec<String> = disk["writtenPaths"]
        .as_array()
        .unwrap()
        .iter()
        .chain(disk["removedPaths"].as_array().unwrap())
        .map(|path| path.as_str().unwrap().to_string())
        .collect();
    reported.sort();
    assert_eq!(reported, previewed);
    for file in &files {
        let path = file["path"].as_str().unwrap();
        let listed = match file["change"].as_str().unwrap() {
            "removed" => &disk["removedPaths"],
            _ => &disk["writtenPaths"],
        };
        assert!(listed.as_array().unwrap().contains(&json!(path)), "{path}");
    }
    assert_eq!(disk["writeVerified"], true);
    assert_unlocked(&unity);

    // What was saved is what the project now holds.
    let output = ofgui(&["query", project, "node:Joystick/Main/n7", "--json"]);
    assert_eq!(
        json_output("query", &output)["data"]["entity"]["properties"]["position"],
        json!({ "x": 5, "y": 6 })
    );
    let output = ofgui(&["query", project, "resource:Basics/k3_frame"]);
    assert_status(&output, 0);

    // The same batch again changes nothing, so the project's rules refuse it.
    let output = ofgui(&["apply", project, path(&batch), "--save", "--json"]);
    assert_status(&output, 1);
    let document = json_output("apply", &output);
    assert_eq!(document["error"]["code"], "transaction_unsupported");
    assert_eq!(snapshot(&unity), after, "a refused batch writes nothing");

    // The text of a save names every file it wrote and removed.
    let fresh = workspace.add("fresh", &unity_corpus());
    let output = ofgui(&["apply", path(&fresh), path(&batch), "--save"]);
    assert_status(&output, 0);
    let report = text(&output);
    assert!(
        report.starts_with(&format!(
            "{}: applied 3 operations and saved revision 1\n",
            fresh.display()
        )),
        "{report}"
    );
    for file in &files {
        let path = file["path"].as_str().unwrap();
        let verb = match file["change"].as_str().unwrap() {
            "removed" => "removed",
            _ => "wrote",
        };
        assert!(
            report.contains(&format!("\n  {verb:<9} {path}\n")),
            "{report}"
        );
    }
}

#[test]
fn apply_refuses_what_is_not_a_batch_or_breaks_the_rules() {
    let workspace = Workspace::new();
    let unity = workspace.add("unity", &unity_corpus());
    let project = path(&unity);
    let write = |name: &str, text: &str| {
        let file = workspace.path().join(name);
        std::fs::write(&file, text).unwrap();
        file
    };
    let before = snapshot(&unity);

    // Refused by the project's rules: 1, with every issue.
    let refused = write(
        "refused.json",
        &json!([{ "kind": "detachDisplayNode",
                  "selector": { "packageId": "rbw1tv9t", "componentResourceId": "kcy10", "displayNodeId": "n99" } }])
        .to_string(),
    );
    for save in [false, true] {
        let mut arguments = vec!["apply", project, path(&refused), "--json"];
        if save {
            arguments.push("--save");
        }
        let output = ofgui(&arguments);
        assert_status(&output, 1);
        let document = json_output("apply", &output);
        assert_eq!(document["error"]["code"], "transaction_unsupported");
        assert_eq!(
            document["error"]["issues"][0]["code"],
            "invalid_display_node_selector"
        );
    }
    let output = ofgui(&["apply", project, path(&refused)]);
    assert_status(&output, 1);
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "operations[0].selector.displayNodeId: invalid_display_node_selector: Component kcy10 has no display node with the id or name n99."
        ) && stderr.contains("guide: ofgui-mcp-host docs diagnostics/transaction_unsupported"),
        "{stderr}"
    );

    // Not a batch: 2.
    let cases = [
        (write("truncated.json", "{\"operations\": ["), "is not JSON"),
        (
            write("extra.json", "{\"sessionId\": \"s\", \"operations\": []}"),
            "an object with sessionId, operations",
        ),
        (write("number.json", "7"), "holds a number"),
        (
            write("kind.json", "[{\"kind\": \"removeDisplayNode\"}]"),
            "`kind` must be one of the 41 operation kinds",
        ),
        (write("empty.json", "[]"), "operations"),
        (workspace.path().join("missing.json"), "cannot be read"),
    ];
    for (file, says) in cases {
        let output = ofgui(&["apply", project, path(&file), "--json"]);
        assert_status(&output, 2);
        let document = json_output("apply", &output);
        assert_eq!(
            document["error"]["code"],
            "invalid_input",
            "{}",
            file.display()
        );
        let message = document["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{}: {message}", file.display());
    }
    assert_eq!(snapshot(&unity), before, "nothing refused writes anything");

    // The batch applies but the save is refused: 4, nothing written. A file that cannot
    // be read at open (a directory where an image should be) makes a faithful save
    // impossible.
    let image = unity.join("assets/Joystick/images/1.png");
    std::fs::remove_file(&image).unwrap();
    std::fs::create_dir(&image).unwrap();
    let before = snapshot(&unity);
    let moved = write(
        "move.json",
        &json!([{ "kind": "setDisplayNodeProps",
                  "selector": { "packageId": "rbw1tv9t", "componentResourceId": "kcy10", "displayNodeId": "n8" },
                  "props": { "position": { "x": 60, "y": 80 } } }])
        .to_string(),
    );
    let output = ofgui(&["apply", project, path(&moved), "--save", "--json"]);
    assert_status(&output, 4);
    assert_eq!(
        json_output("apply", &output)["error"]["code"],
        "uam_fidelity_unsupported"
    );
    assert_eq!(snapshot(&unity), before);
    assert_unlocked(&unity);
}

#[tokio::test]
async fn docs_prints_what_the_resources_serve() {
    let workspace = Workspace::new();
    let server = Server::start(&[workspace.path()]).await;
    let (index_text, _) = crate::resources::read(&server, "openfairygui://docs/index").await;
    let index: Value = serde_json::from_str(&index_text).unwrap();
    let mut documents = vec![("index".to_string(), "openfairygui://docs/index".to_string())];
    documents.extend(
        index["documents"]
            .as_array()
            .unwrap()
            .iter()
            .map(|document| {
                (
                    document["id"].as_str().unwrap().to_string(),
                    document["uri"].as_str().unwrap().to_string(),
                )
            }),
    );
    let wanted = [
        "index",
        "workflow",
        "contracts",
        "diagnostics",
        "operations",
        "methods/applyTransaction",
        "operations/setDisplayNodeProps",
        "diagnostics/stale_write",
        "cli/validate",
        "cli/outline",
        "cli/query",
        "cli/apply",
        "cli/docs",
    ];
    let mut served = Vec::new();
    for id in wanted {
        let (_, uri) = documents
            .iter()
            .find(|(known, _)| known == id)
            .unwrap_or_else(|| panic!("{id} is not in the index"));
        let (text, mime) = crate::resources::read(&server, uri).await;
        served.push((id, uri.clone(), text, mime));
    }
    drop(server);

    for (id, uri, served_text, mime) in &served {
        let output = ofgui(&["docs", id]);
        assert_status(&output, 0);
        let printed = text(&output);
        let expected = match served_text.ends_with('\n') {
            true => served_text.clone(),
            false => format!("{served_text}\n"),
        };
        assert_eq!(printed, expected, "docs {id} prints {uri}");
        let output = ofgui(&["docs", uri]);
        assert_eq!(text(&output), expected, "docs {uri}");

        let output = ofgui(&["docs", id, "--json"]);
        let document = json_output("docs", &output);
        assert_eq!(document["data"]["id"], *id);
        assert_eq!(document["data"]["uri"], *uri);
        assert_eq!(document["data"]["mimeType"], *mime);
        assert_eq!(document["data"]["text"], *served_text);
        if let Some(command) = id.strip_prefix("cli/") {
            // The schema the tests hold the output to is the one the server serves.
            let schema: Value = serde_json::from_str(served_text).unwrap();
            assert_eq!(schema, cli_schema(command));
        }
    }

    let output = ofgui(&["docs"]);
    assert_status(&output, 0);
    let listing = text(&output);
    for (id, _) in &documents {
        assert!(
            listing.contains(&format!("\n  {id} ")),
            "{id} is not listed"
        );
    }
    let output = ofgui(&["docs", "--json"]);
    assert_eq!(json_output("docs", &output)["data"]["text"], index_text);

    for id in ["nope", "../README.md", "methods/constructor"] {
        let output = ofgui(&["docs", id, "--json"]);
        assert_status(&output, 2);
        assert_eq!(
            json_output("docs", &output)["error"]["code"],
            "invalid_input"
        );
    }
}

#[test]
fn usage_errors_and_help() {
    let workspace = Workspace::new();
    let example = workspace.add("example", &example_project());

    // A command asked for --json prints its one document even when clap refuses.
    for (command, arguments) in [
        (
            "outline",
            vec!["outline", "--json", "--bogus", path(&example)],
        ),
        ("query", vec!["query", path(&example), "--json"]),
        ("apply", vec!["apply", "--json", path(&example)]),
        ("docs", vec!["docs", "a", "b", "--json"]),
    ] {
        let output = ofgui(&arguments);
        assert_status(&output, 2);
        let document = json_output(command, &output);
        assert_eq!(document["error"]["code"], "invalid_input");
    }
    let output = ofgui(&["query", path(&example)]);
    assert_status(&output, 2);
    assert!(output.stdout.is_empty());

    let output = ofgui(&["--help"]);
    assert_status(&output, 0);
    let help = text(&output);
    assert!(
        help.contains("Exit status of validate, outline, query, apply, render, publish and docs:")
    );
    assert!(help.contains("\n  4  apply --save: the save was refused or failed"));
    for (command, status) in [
        ("validate", "\n  3  incomplete"),
        (
            "outline",
            "\n  1  the project has no such package or component",
        ),
        ("query", "\n  node:<package>/<component>/<node>"),
        ("apply", "\n  4  the save was refused or failed"),
        ("docs", "\n  2  no document has that id"),
    ] {
        let output = ofgui(&[command, "--help"]);
        assert_status(&output, 0);
        assert!(text(&output).contains(status), "{command} --help");
        assert!(text(&output).contains("Exit status:"), "{command} --help");
    }
}

/// A server editing a project keeps the command line's writers out, not its readers:
/// validate, outline, query, render and an apply's preview run beside it; `apply --save`
/// is refused with the lock named until the server closes the session.
#[tokio::test]
async fn a_project_open_in_a_server_is_locked_for_command_line_writers_only() {
    let workspace = Workspace::new();
    let unity = workspace.add("unity", &unity_corpus());
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&unity).await;

    let output = ofgui(&["validate", path(&unity), "--json"]);
    assert_status(&output, 1);
    assert_eq!(
        json_output("validate", &output)["data"]["status"],
        "invalid"
    );
    let out = workspace.path().join("main.png");
    for command in [
        vec!["outline", path(&unity)],
        vec!["query", path(&unity), "component:VirtualList/Main"],
        vec!["render", path(&unity), "VirtualList/Main", "-o", path(&out)],
    ] {
        let output = ofgui(&command);
        assert_status(&output, 0);
    }
    let batch = json!([{
        "kind": "setDisplayNodeProps",
        "selector": { "packageId": "qkteqwfp", "componentResourceId": "c8s20", "displayNodeId": "n8" },
        "props": { "text": "Last" }
    }])
    .to_string();
    let output = ofgui_with_stdin(&["apply", path(&unity), "-"], batch.as_bytes());
    assert_status(&output, 0);
    let output = ofgui_with_stdin(
        &["apply", path(&unity), "-", "--save", "--json"],
        batch.as_bytes(),
    );
    assert_status(&output, 2);
    let document = json_output("apply", &output);
    assert_eq!(document["error"]["code"], "lock_conflict");
    assert_eq!(document["error"]["kind"], "advisory_lock_conflict");

    server.ok(CLOSE, json!({ "sessionId": id })).await;
    let output = ofgui_with_stdin(&["apply", path(&unity), "-", "--save"], batch.as_bytes());
    assert_status(&output, 0);
}

#[test]
fn render_writes_a_png_and_says_what_it_drew() {
    let workspace = Workspace::new();
    let project = workspace.add("hello", &example_project());
    let out = workspace.path().join("view.png");
    let output = ofgui(&[
        "render",
        path(&project),
        "Main/MainView",
        "-o",
        path(&out),
        "--page",
        "state=Active",
        "--scale",
        "0.5",
    ]);
    assert_status(&output, 0);
    let png = std::fs::read(&out).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let size = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    assert_eq!((size(16), size(20)), (320, 180));
    let printed = text(&output);
    assert!(printed.contains("320×180 pixels"), "{printed}");
    assert!(
        printed.contains("controller state: page 1 (Active)"),
        "{printed}"
    );
    assert_unlocked(&project);

    // --json holds to its schema; an unknown page is a usage error naming the pages.
    let output = ofgui(&[
        "render",
        path(&project),
        "Main/MainView",
        "-o",
        path(&out),
        "--json",
    ]);
    assert_status(&output, 0);
    let document = json_output("render", &output);
    assert_eq!(document["data"]["pixelWidth"], 640);
    let output = ofgui(&[
        "render",
        path(&project),
        "Main/MainView",
        "-o",
        path(&out),
        "--page",
        "state=Asleep",
    ]);
    assert_status(&output, 2);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("0 (Idle), 1 (Active)"), "{stderr}");
    let output = ofgui(&["render", path(&project), "Main/Nothing", "-o", path(&out)]);
    assert_status(&output, 1);
}

#[test]
fn publish_writes_the_game_files_and_says_what_stopped_it() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    let out = workspace.path().join("release/ui");

    // The project's own publish path (`../Assets/...`) is outside the project, the only
    // root without --project-dir or --out.
    let output = ofgui(&["publish", path(&project)]);
    assert_status(&output, 2);
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("path_policy_violation") && stderr.contains("--out DIR"),
        "{stderr}"
    );

    let output = ofgui(&["publish", path(&project), "--out", path(&out), "--dry-run"]);
    assert_status(&output, 0);
    assert!(
        text(&output).starts_with("would publish 30 packages"),
        "{}",
        text(&output)
    );
    assert!(!out.exists());

    let output = ofgui(&[
        "publish",
        path(&project),
        "--out",
        path(&out),
        "--packages",
        "Bag,Basics",
        "--json",
    ]);
    assert_status(&output, 0);
    let data = json_output("publish", &output)["data"].clone();
    assert_eq!(data["packages"].as_array().unwrap().len(), 2);
    let mut written: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    written.sort();
    assert_eq!(
        written,
        [
            ".ofgui-publish.json",
            "Bag_atlas0.png",
            "Bag_fui.bytes",
            "Basics_atlas0.png",
            "Basics_fui.bytes",
            "Basics_gojg7u.wav",
            "Basics_o4lt7w.wav"
        ]
    );
    assert_unlocked(&project);

    // With --project-dir holding it, the settings' path works.
    let output = ofgui(&[
        "--project-dir",
        path(workspace.path()),
        "publish",
        path(&project),
        "--packages",
        "Gesture",
    ]);
    assert_status(&output, 0);
    assert!(
        workspace
            .path()
            .join("Assets/Examples/Resources/UI/Gesture_fui.bytes")
            .is_file()
    );

    // Output that would be wrong: status 1, nothing written.
    std::fs::remove_file(project.join("assets/Bag/images/0.png")).unwrap();
    let before = snapshot(&out);
    let output = ofgui(&["publish", path(&project), "--out", path(&out), "--json"]);
    assert_status(&output, 1);
    let error = json_output("publish", &output)["error"].clone();
    assert_eq!(error["code"], "publish_refused", "{error}");
    assert_eq!(snapshot(&out), before);
}

/// `tests/run` installs fonts-noto-cjk; without it this fails rather than skips.
#[test]
fn render_draws_chinese_in_a_granted_machine_font_and_names_it() {
    let workspace = Workspace::new();
    let project = workspace.path().join("UIProject");
    copy_tree(&unity_corpus(), &project);
    let out = workspace.path().join("text.png");
    let render = |fonts: &[&str]| {
        let mut arguments = vec![
            "render",
            path(&project),
            "Basics/Demo_Text",
            "-o",
            path(&out),
        ];
        arguments.extend_from_slice(fonts);
        let output = ofgui(&arguments);
        assert_status(&output, 0);
        text(&output)
    };
    let printed = render(&["--font-dir", "/usr/share/fonts"]);
    assert!(
        printed.contains("are drawn in Noto Sans CJK SC, a machine font"),
        "{printed}"
    );
    assert!(!printed.contains("drawn as boxes"), "{printed}");
    assert!(
        printed.contains("text asking for the font \"Heiti SC Medium,SimSun\""),
        "the family it asked for and did not get is named: {printed}"
    );
    let printed = render(&["--no-font-dirs"]);
    assert!(printed.contains("drawn as boxes"), "{printed}");
    let output = ofgui(&[
        "render",
        path(&project),
        "Basics/Demo_Text",
        "-o",
        path(&out),
        "--font-dir",
        "/no/such/fonts",
    ]);
    assert_status(&output, 2);
}

/// What a checkout without `git lfs pull` holds in place of a file.
const LFS_POINTER: &str = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 48213\n";

#[test]
fn publish_lists_every_unreadable_source_and_leaves_them_out_only_when_asked() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    let out = workspace.path().join("out");
    // A checkout without `git lfs pull`: a sound and two pictures are pointers.
    for file in [
        "assets/Basics/sound/tabswitch.wav",
        "assets/Bag/images/0.png",
        "assets/Bag/images/4.png",
    ] {
        std::fs::write(project.join(file), LFS_POINTER).unwrap();
    }
    let publish = |extra: &[&str]| {
        let mut arguments = vec![
            "publish",
            path(&project),
            "--out",
            path(&out),
            "--packages",
            "Bag,Basics",
        ];
        arguments.extend_from_slice(extra);
        ofgui(&arguments)
    };

    for extra in [&[][..], &["--dry-run"][..]] {
        let output = publish(extra);
        assert_status(&output, 1);
        let stderr = String::from_utf8_lossy(&output.stderr);
        for (at, code) in [
            ("Basics/gojg7u", "corrupt_source"),
            ("Bag/dwwc5", "corrupt_source"),
            ("Bag/dwwc6", "corrupt_source"),
        ] {
            assert!(
                stderr.contains(&format!("  {at}: {code}: ")),
                "{at} not listed: {stderr}"
            );
        }
        assert!(
            stderr.contains("git lfs pull") && stderr.contains("--allow-missing"),
            "{stderr}"
        );
        assert!(!out.exists(), "a refused publish wrote");
    }
    let output = publish(&["--json"]);
    assert_status(&output, 1);
    let failure = json_output("publish", &output);
    let codes: Vec<&str> = failure["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes.len(), 3, "{failure}");
    // Each finding says what to do about a publish, not about a validation report.
    for finding in failure["diagnostics"].as_array().unwrap() {
        let remedy = finding["remediation"]["message"].as_str().unwrap();
        assert!(
            remedy.contains("git lfs pull") && remedy.contains("--allow-missing"),
            "{remedy}"
        );
    }

    // Asked to, it publishes the rest, says what it left out, once, and exits 3.
    let output = publish(&["--allow-missing"]);
    assert_status(&output, 3);
    let printed = text(&output);
    assert!(printed.contains("left out (3)"), "{printed}");
    assert_eq!(printed.matches("Basics/gojg7u").count(), 1, "{printed}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("gojg7u"),
        "said twice, on stderr too: {stderr}"
    );
    let written = snapshot(&out);
    assert!(
        written.contains_key("Basics_o4lt7w.wav"),
        "{:?}",
        written.keys()
    );
    assert!(
        !written.contains_key("Basics_gojg7u.wav"),
        "a pointer was published as a sound"
    );
    assert!(
        written
            .values()
            .all(|bytes| bytes != LFS_POINTER.as_bytes())
    );
    let output = publish(&["--allow-missing", "--json"]);
    assert_status(&output, 3);
    let data = json_output("publish", &output)["data"].clone();
    assert_eq!(data["leftOut"].as_array().unwrap().len(), 3, "{data}");
}

#[test]
fn publish_uses_the_projects_own_paths_only_when_asked() {
    let workspace = Workspace::new();
    let project = workspace.add("UIProject", &unity_corpus());
    crate::publishing::ask_for_code(&project);
    let settings = project.join("settings/Publish.json");
    let text_of = std::fs::read_to_string(&settings).unwrap();
    std::fs::write(
        &settings,
        text_of.replace("\"codePath\":\"\"", "\"codePath\":\"../Assets/Scripts/UI\""),
    )
    .unwrap();
    let game = workspace.path().join("Assets/Examples/Resources/UI");
    let code = workspace.path().join("Assets/Scripts/UI");
    // An existing --out is granted alone (a missing one, through its nearest existing
    // ancestor, which here would hold the code path too).
    let out = workspace.path().join("out");
    std::fs::create_dir(&out).unwrap();

    // The settings' paths lie outside the project: refused, naming the flags that fix it.
    let output = ofgui(&["publish", path(&project), "--packages", "Bag"]);
    assert_status(&output, 2);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--out DIR") && stderr.contains("--use-project-paths"),
        "{stderr}"
    );
    let output = ofgui(&[
        "publish",
        path(&project),
        "--packages",
        "Bag",
        "--out",
        path(&out),
    ]);
    assert_status(&output, 2);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("code directory")
            && stderr.contains("--no-code")
            && stderr.contains("--code-out DIR"),
        "{stderr}"
    );
    assert!(snapshot(&out).is_empty() && !game.exists() && !code.exists());

    // --no-code: the game files only.
    let output = ofgui(&[
        "publish",
        path(&project),
        "--packages",
        "Bag",
        "--out",
        path(&out),
        "--no-code",
    ]);
    assert_status(&output, 0);
    assert!(out.join("Bag_fui.bytes").is_file() && !code.exists());

    // --use-project-paths: exactly the directories the settings name.
    let output = ofgui(&[
        "publish",
        path(&project),
        "--packages",
        "Bag",
        "--use-project-paths",
    ]);
    assert_status(&output, 0);
    assert!(game.join("Bag_fui.bytes").is_file(), "{}", text(&output));
    assert!(code.join("Bag/BagBinder.cs").is_file(), "{}", text(&output));
}

/// A button's title changes on the command line with the same one short operation.
#[test]
fn apply_changes_a_buttons_title_with_the_text_shortcut() {
    let workspace = Workspace::new();
    let unity = workspace.add("unity", &unity_corpus());
    let project = path(&unity);
    // VirtualList's Main: `<component id="n8" … src="rpolb"><Button title="Bottom"/>`.
    let batch = json!([{
        "kind": "setDisplayNodeProps",
        "selector": { "packageId": "qkteqwfp", "componentResourceId": "c8s20", "displayNodeId": "n8" },
        "props": { "text": "Last" }
    }]);
    let output = ofgui_with_stdin(
        &["apply", project, "-", "--save"],
        batch.to_string().as_bytes(),
    );
    assert_status(&output, 0);
    let main = std::fs::read_to_string(unity.join("assets/VirtualList/Main.xml")).unwrap();
    assert!(main.contains(r#"<Button title="Last"/>"#), "{main}");
    assert!(!main.contains(r#"title="Bottom""#));
}

/// A misspelt node id on the command line is answered with the id meant.
#[test]
fn apply_answers_a_misspelt_node_with_a_did_you_mean() {
    let workspace = Workspace::new();
    let unity = workspace.add("unity", &unity_corpus());
    let batch = json!([{
        "kind": "setDisplayNodeProps",
        "selector": { "packageId": "qkteqwfp", "componentResourceId": "c8s20", "displayNodeId": "n88" },
        "props": { "text": "Last" }
    }]);
    let output = ofgui_with_stdin(&["apply", path(&unity), "-"], batch.to_string().as_bytes());
    assert_status(&output, 1);
    let said = String::from_utf8_lossy(&output.stderr).to_string() + &text(&output);
    assert!(said.contains("Did you mean n8"), "{said}");
}

/// A batch may name packages, components and nodes as the outline shows them; the
/// preview and the save speak in ids.
#[test]
fn apply_takes_the_names_the_outline_prints() {
    let workspace = Workspace::new();
    let unity = workspace.add("unity", &unity_corpus());
    let project = path(&unity);
    let batch = workspace.path().join("named.json");
    std::fs::write(
        &batch,
        json!([{ "kind": "setDisplayNodeProps",
                 "selector": { "packageId": "Bag", "componentResourceId": "BagWin", "displayNodeId": "frame" },
                 "props": { "position": { "x": 12, "y": 0 } } }])
        .to_string(),
    )
    .unwrap();
    let output = ofgui(&["apply", project, path(&batch)]);
    assert_status(&output, 0);
    let preview = text(&output);
    assert!(
        preview.contains("\n  updated  node:rbw1tv9t/kcy10/n7  position\n"),
        "{preview}"
    );
    let output = ofgui(&["apply", project, path(&batch), "--save"]);
    assert_status(&output, 0);
    let saved = std::fs::read_to_string(unity.join("assets/Bag/BagWin.xml")).unwrap();
    assert!(
        saved.contains(r#"id="n7" name="frame" src="#) && saved.contains(r#"xy="12,0""#),
        "{saved}"
    );
}

/// A message that points to an MCP method is followed, on the command line, by the
/// command that does the same.
#[test]
fn a_failure_names_the_command_for_the_method_its_message_points_to() {
    let workspace = Workspace::new();
    let unity = workspace.add("unity", &unity_corpus());
    let picture = workspace.path().join("nope.png");
    let output = ofgui(&["render", path(&unity), "Bag/Nope", "-o", path(&picture)]);
    assert_status(&output, 1);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("from getProjectOutline.")
            && stderr.contains(
                "\n  on the command line: getProjectOutline is `ofgui-mcp-host outline <project>`"
            ),
        "{stderr}"
    );
}
