//! `openfairygui_publish` through MCP: what the game loads, written where it may be, all
//! or nothing, next to nothing else.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::{Value, json};

use crate::crash::RawServer;
use crate::harness::*;

const PUBLISH: &str = "openfairygui_publish";
const APPLY: &str = "openfairygui_backend_apply_transaction";
const BAG: &str = "rbw1tv9t";

fn reference_names() -> BTreeSet<String> {
    std::fs::read_dir(unity_corpus().join("../published"))
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|name| name.contains('_'))
        .collect()
}

fn names(dir: &Path) -> BTreeSet<String> {
    snapshot(dir).into_keys().collect()
}

/// The files a game loads from `dir`: all but the manifest of what publishing wrote.
fn game_files(dir: &Path) -> BTreeSet<String> {
    let mut files = names(dir);
    assert!(
        files.remove(".ofgui-publish.json"),
        "publishing left no manifest in {}",
        dir.display()
    );
    files
}

/// Moves a node of Bag's main component: Bag's descriptor changes, nothing else.
fn edit_bag(x: i64) -> Value {
    json!([{ "kind": "setDisplayNodeProps",
             "selector": { "packageId": BAG, "componentResourceId": "fvaib", "displayNodeId": "n2" },
             "props": { "position": { "x": x, "y": 3 } } }])
}

#[tokio::test]
async fn the_unity_corpus_publishes_the_editors_files_and_again_changes_nothing() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    let out = workspace.path().join("out");
    let server = Server::start(&[workspace.path()]).await;
    let session = server.open(&project).await;

    // A dry run lists every file and writes nothing.
    let listed = server
        .ok(
            PUBLISH,
            json!({ "sessionId": session, "outputDir": out, "dryRun": true }),
        )
        .await;
    assert!(!out.exists(), "a dry run created the output directory");
    assert_eq!(listed["dryRun"], true);
    assert!(listed.get("writes").is_none(), "{listed}");
    let listed_names: BTreeSet<String> = listed["packages"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["files"].as_array().unwrap())
        .map(|f| f["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(listed_names, reference_names());

    let published = server
        .ok(PUBLISH, json!({ "sessionId": session, "outputDir": out }))
        .await;
    assert_eq!(published["unsavedEdits"], false);
    assert_eq!(game_files(&out), reference_names());
    assert_eq!(
        published["writes"]["written"].as_array().unwrap().len(),
        reference_names().len()
    );
    for name in reference_names().iter().filter(|n| n.ends_with(".wav")) {
        let theirs = std::fs::read(unity_corpus().join("../published").join(name)).unwrap();
        assert!(theirs == std::fs::read(out.join(name)).unwrap(), "{name}");
    }
    for name in reference_names()
        .iter()
        .filter(|n| n.ends_with("_fui.bytes"))
    {
        assert_eq!(
            &std::fs::read(out.join(name)).unwrap()[..4],
            b"FGUI",
            "{name}"
        );
    }

    // The same model publishes the same bytes: nothing is written again.
    let before = snapshot(&out);
    let again = server
        .ok(PUBLISH, json!({ "sessionId": session, "outputDir": out }))
        .await;
    assert_eq!(again["writes"]["written"], json!([]), "{again}");
    assert_eq!(
        again["writes"]["unchanged"].as_array().unwrap().len(),
        reference_names().len()
    );
    assert_eq!(snapshot(&out), before);

    // Unsaved edits are published, and said to be.
    server
        .ok(
            APPLY,
            json!({ "sessionId": session, "expectedRevision": 0, "operations": edit_bag(7) }),
        )
        .await;
    let edited = server
        .ok(
            PUBLISH,
            json!({ "sessionId": session, "outputDir": out, "packages": ["Bag"], "expectedRevision": 1 }),
        )
        .await;
    assert_eq!(edited["unsavedEdits"], true);
    assert_eq!(
        edited["writes"]["written"],
        json!(["Bag_fui.bytes"]),
        "{edited}"
    );
    let stale = server
        .err(
            PUBLISH,
            json!({ "sessionId": session, "outputDir": out, "expectedRevision": 0 }),
        )
        .await;
    assert_eq!(stale["code"], "stale_read", "{stale}");
}

#[tokio::test]
async fn a_package_replaces_only_its_own_files() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    let out = workspace.path().join("out");
    std::fs::create_dir_all(out.join("sub")).unwrap();
    // An atlas page someone else left (not written by this publisher), Unity's metadata,
    // someone's notes (one with a descriptor's extension), a sub-directory, and a package
    // whose name starts like Bag's.
    let foreign = [
        "Bag_atlas0_1.png",
        "Bag_fui.bytes.meta",
        "notes.txt",
        "notes.bytes",
        "sub/Bag_atlas0.png",
        "Basics_atlas0.png",
    ];
    for name in foreign {
        std::fs::write(out.join(name), b"old").unwrap();
    }
    let server = Server::start(&[workspace.path()]).await;
    let session = server.open(&project).await;
    for round in 0..2 {
        let published = server
            .ok(
                PUBLISH,
                json!({ "sessionId": session, "outputDir": out, "packages": ["Bag"] }),
            )
            .await;
        assert_eq!(published["writes"]["removed"], json!([]), "round {round}");
        let after = names(&out);
        for kept in foreign {
            assert!(after.contains(kept), "{kept} was touched: {after:?}");
            assert_eq!(std::fs::read(out.join(kept)).unwrap(), b"old", "{kept}");
        }
        assert!(after.contains("Bag_fui.bytes") && after.contains("Bag_atlas0.png"));
        assert!(after.contains(".ofgui-publish.json"), "{after:?}");
    }
    let manifest = std::fs::read_to_string(out.join(".ofgui-publish.json")).unwrap();
    assert!(
        manifest.contains("Bag_fui.bytes") && !manifest.contains("notes"),
        "{manifest}"
    );
}

/// Asks for Bag's binding code in its `package.xml`, as the editor's package settings do.
pub(crate) fn ask_for_code(project: &Path) {
    let path = project.join("assets/Bag/package.xml");
    let text = std::fs::read_to_string(&path).unwrap();
    let asked = text.replacen(
        "<publish name=\"Bag\"",
        "<publish name=\"Bag\" genCode=\"true\"",
        1,
    );
    assert_ne!(asked, text, "Bag's package.xml has no publish element");
    std::fs::write(path, asked).unwrap();
}

#[tokio::test]
async fn binding_code_goes_to_its_own_directory_and_replaces_only_its_folder() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    ask_for_code(&project);
    let out = workspace.path().join("out");
    let code = workspace.path().join("code");
    std::fs::create_dir_all(code.join("Bag/Sub")).unwrap();
    // The team's own files beside the generated ones: another generator's Lua, a class
    // of the same language, metadata, a sub-folder.
    let foreign = [
        "Bag/gender.lua",
        "Bag/UI_Gone.cs",
        "Bag/UI_Gone.cs.meta",
        "Bag/Sub/Mine.cs",
        "Mine.cs",
    ];
    for name in foreign {
        std::fs::write(code.join(name), b"old").unwrap();
    }
    let server = Server::start(&[workspace.path()]).await;
    let session = server.open(&project).await;

    // Without a code directory the packages publish and the code is a warning.
    let no_dir = server
        .ok(
            PUBLISH,
            json!({ "sessionId": session, "outputDir": out, "packages": ["Bag"], "dryRun": true }),
        )
        .await;
    assert!(no_dir.get("code").is_none(), "{no_dir}");
    let warnings = &no_dir["packages"][0]["warnings"];
    assert!(
        warnings
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["code"] == "code_not_generated"),
        "{warnings}"
    );

    // A code directory outside the roots refuses the whole call before anything is written.
    let elsewhere = tempfile::tempdir().unwrap();
    let refused = server
        .err(
            PUBLISH,
            json!({ "sessionId": session, "outputDir": out, "codeDir": elsewhere.path().join("code") }),
        )
        .await;
    assert_eq!(refused["code"], "path_policy_violation", "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("code directory"),
        "{refused}"
    );
    assert!(
        !out.exists(),
        "the packages were written though the code directory was refused"
    );

    let published = server
        .ok(
            PUBLISH,
            json!({ "sessionId": session, "outputDir": out, "codeDir": code, "packages": ["Bag", "Basics"] }),
        )
        .await;
    let entry = &published["code"][0];
    assert_eq!(
        published["code"].as_array().unwrap().len(),
        1,
        "{published}"
    );
    let files: BTreeSet<String> = entry["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap().to_owned())
        .collect();
    assert!(files.contains("Bag/BagBinder.cs"), "{files:?}");
    assert!(
        files.iter().all(|f| f.starts_with("Bag/")),
        "only Bag asked: {files:?}"
    );
    assert_eq!(entry["writes"]["removed"], json!([]), "{entry}");
    let on_disk = names(&code);
    for file in &files {
        assert!(on_disk.contains(file), "{file} not written: {on_disk:?}");
    }
    for kept in foreign {
        assert_eq!(std::fs::read(code.join(kept)).unwrap(), b"old", "{kept}");
    }
    let binder = std::fs::read_to_string(code.join("Bag/BagBinder.cs")).unwrap();
    assert!(binder.contains("class BagBinder"), "{binder}");

    // Unchanged code is not written again.
    let again = server
        .ok(
            PUBLISH,
            json!({ "sessionId": session, "outputDir": out, "codeDir": code, "packages": ["Bag"] }),
        )
        .await;
    assert_eq!(again["code"][0]["writes"]["written"], json!([]), "{again}");
    assert_eq!(again["code"][0]["writes"]["removed"], json!([]), "{again}");
    assert_eq!(
        again["code"][0]["writes"]["unchanged"]
            .as_array()
            .unwrap()
            .len(),
        files.len()
    );
    for kept in foreign {
        assert_eq!(std::fs::read(code.join(kept)).unwrap(), b"old", "{kept}");
    }

    // A file of the team's under a name the generator writes is never replaced: the
    // publish is refused with the file named, and nothing is written.
    std::fs::write(code.join("Bag/BagBinder.cs"), b"team's own binder").unwrap();
    let clash = server
        .err(
            PUBLISH,
            json!({ "sessionId": session, "outputDir": out, "codeDir": code, "packages": ["Bag"] }),
        )
        .await;
    assert_eq!(clash["code"], "publish_refused", "{clash}");
    assert!(
        clash["message"]
            .as_str()
            .unwrap()
            .contains("Bag/BagBinder.cs"),
        "{clash}"
    );
    assert_eq!(
        std::fs::read(code.join("Bag/BagBinder.cs")).unwrap(),
        b"team's own binder"
    );
}

#[tokio::test]
async fn branches_and_skeletons_publish_as_the_runtimes_load_them() {
    let workspace = Workspace::new();
    let project = workspace.add("experiments", &experiments_corpus());
    let server = Server::start(&[workspace.path()]).await;
    let session = server.open(&project).await;
    let files_of = |data: &Value, package: &str| -> BTreeSet<String> {
        data["packages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["packageName"] == package)
            .unwrap()["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap().to_owned())
            .collect()
    };

    // Every branch beside the main resources, its pictures in an atlas of its own; the
    // skeletons under their own names, with the files they need.
    let all = workspace.path().join("all");
    let published = server
        .ok(PUBLISH, json!({ "sessionId": session, "outputDir": all }))
        .await;
    assert_eq!(
        files_of(&published, "Branch"),
        [
            "Branch_atlas0.png",
            "Branch_atlas0_dev.png",
            "Branch_fui.bytes"
        ]
        .map(str::to_owned)
        .into()
    );
    let loader = files_of(&published, "Loader");
    for name in [
        "Loader_fui.bytes",
        "alien-pro.skel.bytes",
        "alien-pma.atlas.txt",
        "alien-pma.png",
        "dragon_ske.json",
        "dragon_tex.json",
        "dragon.png",
    ] {
        assert!(loader.contains(name), "{name} missing: {loader:?}");
    }
    assert_eq!(
        game_files(&all),
        loader
            .union(&files_of(&published, "Branch"))
            .cloned()
            .collect()
    );

    // One branch merged into the main package: no branch atlas, a smaller descriptor.
    let merged = workspace.path().join("dev");
    let dev = server
        .ok(
            PUBLISH,
            json!({ "sessionId": session, "outputDir": merged, "branch": "dev", "packages": ["Branch"] }),
        )
        .await;
    assert_eq!(
        files_of(&dev, "Branch"),
        ["Branch_atlas0.png", "Branch_fui.bytes"]
            .map(str::to_owned)
            .into()
    );
    assert!(
        std::fs::read(merged.join("Branch_fui.bytes"))
            .unwrap()
            .len()
            < std::fs::read(all.join("Branch_fui.bytes")).unwrap().len()
    );

    // A branch the project does not have is refused at the field, and nothing written.
    let refused = server
        .err(
            PUBLISH,
            json!({ "sessionId": session, "outputDir": workspace.path().join("none"), "branch": "nope" }),
        )
        .await;
    assert_eq!(refused["code"], "publish_refused", "{refused}");
    assert!(!workspace.path().join("none").exists());
}

#[tokio::test]
async fn output_directories_outside_what_may_be_written_are_refused() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    let elsewhere = tempfile::tempdir().unwrap();
    let link = workspace.path().join("link");
    std::os::unix::fs::symlink(elsewhere.path(), &link).unwrap();
    let server = Server::start(&[workspace.path()]).await;
    let session = server.open(&project).await;
    let entries = |dir: &Path| -> BTreeSet<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect()
    };
    let before = (snapshot(&project), entries(workspace.path()));
    for (dir, why) in [
        (elsewhere.path().join("out"), "outside the allowed roots"),
        (link.clone(), "symbolic link"),
        (link.join("out"), "outside the allowed roots"),
        (project.clone(), "project directory"),
        (project.join("assets/Bag"), "project directory"),
        (
            workspace.path().join("../escape"),
            "outside the allowed roots",
        ),
    ] {
        let (envelope, is_error) = server
            .call(PUBLISH, json!({ "sessionId": session, "outputDir": dir }))
            .await;
        assert!(is_error, "{envelope}");
        let error = &envelope["error"];
        assert_eq!(error["code"], "path_policy_violation", "{dir:?}: {error}");
        assert_eq!(error["policy"], "publish_target", "{error}");
        let message = error["message"].as_str().unwrap();
        assert!(message.contains(why), "{dir:?}: {message}");
        // Over MCP the fix is told in MCP's terms, about publishing.
        assert!(
            !message.contains("--"),
            "a command line flag over MCP: {message}"
        );
        let remedy = envelope["meta"]["diagnostics"][0]["remediation"]["message"]
            .as_str()
            .unwrap();
        assert!(
            remedy.contains("outputDir") && !remedy.contains("Save"),
            "{remedy}"
        );
    }
    assert_eq!(
        (snapshot(&project), entries(workspace.path())),
        before,
        "something was written"
    );
    // Without outputDir, the project's own publish path (`../Assets/Examples/Resources/UI`
    // from the project directory), here inside the root.
    let published = server.ok(PUBLISH, json!({ "sessionId": session })).await;
    assert_eq!(published["outputDir"], "../Assets/Examples/Resources/UI");
    assert_eq!(
        game_files(&workspace.path().join("Assets/Examples/Resources/UI")),
        reference_names()
    );
    assert!(
        std::fs::read_dir(elsewhere.path())
            .unwrap()
            .next()
            .is_none()
    );
}

#[tokio::test]
async fn output_that_would_be_wrong_is_refused_with_its_findings() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    // An image Bag's components use.
    std::fs::remove_file(project.join("assets/Bag/images/0.png")).unwrap();
    let out = workspace.path().join("out");
    let server = Server::start(&[workspace.path()]).await;
    let session = server.open(&project).await;
    let (envelope, is_error) = server
        .call(PUBLISH, json!({ "sessionId": session, "outputDir": out }))
        .await;
    assert!(is_error, "{envelope}");
    assert_eq!(envelope["error"]["code"], "publish_refused", "{envelope}");
    let findings = envelope["meta"]["diagnostics"].as_array().unwrap();
    assert!(
        findings
            .iter()
            .any(|d| d["code"] == "missing_source"
                && d["path"].as_str().unwrap().starts_with("Bag/")),
        "{findings:?}"
    );
    assert!(!out.exists());

    // Other packages still publish; an unknown one is a finding too.
    server
        .ok(
            PUBLISH,
            json!({ "sessionId": session, "outputDir": out, "packages": ["Basics"] }),
        )
        .await;
    let (envelope, is_error) = server
        .call(
            PUBLISH,
            json!({ "sessionId": session, "outputDir": out, "packages": ["Basics", "Nope"] }),
        )
        .await;
    assert!(is_error);
    assert_eq!(envelope["error"]["code"], "publish_refused");
    assert_eq!(
        envelope["meta"]["diagnostics"][0]["code"],
        "invalid_package_selector"
    );
    assert_eq!(envelope["meta"]["diagnostics"][0]["path"], "/packages/1");

    // allowMissing publishes the rest and says what it left out; other findings still
    // refuse.
    let published = server
        .ok(
            PUBLISH,
            json!({ "sessionId": session, "outputDir": out, "packages": ["Bag"], "allowMissing": true }),
        )
        .await;
    let left_out = published["leftOut"].as_array().unwrap();
    assert_eq!(left_out.len(), 1, "{published}");
    assert_eq!(left_out[0]["code"], "missing_source");
    assert_eq!(left_out[0]["packageName"], "Bag");
    assert!(out.join("Bag_fui.bytes").is_file());
    let warnings = published["packages"][0]["warnings"].as_array().unwrap();
    assert!(
        warnings.iter().all(|w| w["code"] != "missing_source"),
        "said twice: {warnings:?}"
    );
    let (envelope, is_error) = server
        .call(
            PUBLISH,
            json!({ "sessionId": session, "outputDir": out, "packages": ["Bag", "Nope"], "allowMissing": true }),
        )
        .await;
    assert!(is_error, "{envelope}");
}

/// The output of the unity corpus as published by a clean server.
async fn publish_clean(workspace: &Workspace, project: &Path, out: &Path) {
    let server = Server::start(&[workspace.path()]).await;
    let session = server.open(project).await;
    server
        .ok(PUBLISH, json!({ "sessionId": session, "outputDir": out }))
        .await;
}

#[cfg(unix)]
#[tokio::test]
async fn a_read_only_output_directory_or_file_is_refused_and_kept() {
    use std::os::unix::fs::PermissionsExt;
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    let out = workspace.path().join("out");
    publish_clean(&workspace, &project, &out).await;
    let before = snapshot(&out);
    let server = Server::start(&[workspace.path()]).await;
    let session = server.open(&project).await;
    server
        .ok(
            APPLY,
            json!({ "sessionId": session, "expectedRevision": 0, "operations": edit_bag(9) }),
        )
        .await;
    let set_mode = |path: &Path, mode: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    };
    for (path, named, mode) in [
        (out.clone(), "out is read-only", 0o555),
        (
            out.join("Bag_fui.bytes"),
            "Bag_fui.bytes in the output directory",
            0o444,
        ),
    ] {
        let writable = std::fs::metadata(&path).unwrap().permissions().mode();
        set_mode(&path, mode);
        let error = server
            .err(PUBLISH, json!({ "sessionId": session, "outputDir": out }))
            .await;
        set_mode(&path, writable);
        assert_eq!(error["code"], "path_policy_violation", "{error}");
        let message = error["message"].as_str().unwrap();
        assert!(
            message.contains(named) && message.contains("read-only"),
            "{message}"
        );
        assert_eq!(snapshot(&out), before, "something was written");
    }
    // Writable again: the publish goes through.
    let published = server
        .ok(PUBLISH, json!({ "sessionId": session, "outputDir": out }))
        .await;
    assert_eq!(published["writes"]["written"], json!(["Bag_fui.bytes"]));
}

#[tokio::test]
async fn a_full_disk_keeps_the_previous_output() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    let out = workspace.path().join("out");
    publish_clean(&workspace, &project, &out).await;
    let before = snapshot(&out);

    let server = Server::start_with_env(
        &[workspace.path()],
        &[],
        &[("OFGUI_OUTPUT_FAULT", "disk-full:1024:1")],
    )
    .await;
    let session = server.open(&project).await;
    server
        .ok(
            APPLY,
            json!({ "sessionId": session, "expectedRevision": 0, "operations": edit_bag(9) }),
        )
        .await;
    let error = server
        .err(PUBLISH, json!({ "sessionId": session, "outputDir": out }))
        .await;
    assert_eq!(error["code"], "write_failed", "{error}");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("no space left on device") && message.contains("as they were"),
        "{message}"
    );
    assert_eq!(
        snapshot(&out),
        before,
        "the previous output, without leftovers"
    );
    // Room again: the next publish writes.
    let published = server
        .ok(PUBLISH, json!({ "sessionId": session, "outputDir": out }))
        .await;
    assert_eq!(published["writes"]["written"], json!(["Bag_fui.bytes"]));
}

#[test]
fn a_publish_killed_midway_leaves_the_old_or_the_new_output() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    let out = workspace.path().join("out");
    tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(publish_clean(&workspace, &project, &out));
    let old = snapshot(&out);

    for fault in ["stage:1", "commit-point", "apply:1"] {
        let mut server = RawServer::start_env(
            workspace.path(),
            &[("OFGUI_OUTPUT_FAULT", &format!("{fault}:hang"))],
        );
        let id = server.call(OPEN, json!({ "projectPath": project }))["sessionId"].clone();
        server.call(
            APPLY,
            json!({ "sessionId": id, "expectedRevision": 0, "operations": edit_bag(11) }),
        );
        server.send_request(
            "tools/call",
            json!({ "name": PUBLISH, "arguments": { "sessionId": id, "outputDir": out } }),
        );
        server.wait_for_fault();
        server.child.kill().unwrap();
        server.child.wait().unwrap();

        // The next publish finishes or undoes the interrupted one first, then writes.
        let mut next = RawServer::start_env(workspace.path(), &[]);
        let id = next.call(OPEN, json!({ "projectPath": project }))["sessionId"].clone();
        next.call(PUBLISH, json!({ "sessionId": id, "outputDir": out }));
        next.child.kill().unwrap();
        next.child.wait().unwrap();
        assert_eq!(
            snapshot(&out),
            old,
            "{fault}: the unedited output, without leftovers"
        );
    }
}

#[tokio::test]
async fn a_project_of_60_packages_publishes_whole_through_mcp_and_the_command_line() {
    let workspace = Workspace::new();
    let project = workspace.add("many", &unity_corpus());
    let count = crate::many_packages::multiply_packages(&project, 1).unwrap();
    assert_eq!(count, 60);
    let out = workspace.path().join("out");
    let server = Server::start(&[workspace.path()]).await;
    let session = server.open(&project).await;
    let published = server
        .ok(PUBLISH, json!({ "sessionId": session, "outputDir": out }))
        .await;
    let packages = published["packages"].as_array().unwrap();
    assert_eq!(packages.len(), 60);
    let listed: usize = packages
        .iter()
        .map(|p| p["files"].as_array().unwrap().len())
        .sum();
    assert_eq!(
        published["writes"]["written"].as_array().unwrap().len(),
        listed
    );
    let on_disk = game_files(&out);
    assert_eq!(on_disk.len(), listed);
    for package in packages {
        for file in package["files"].as_array().unwrap() {
            let name = file["name"].as_str().unwrap();
            let bytes = std::fs::metadata(out.join(name)).unwrap().len();
            assert_eq!(bytes, file["bytes"].as_u64().unwrap(), "{name}");
        }
    }
    // A copy publishes the same pictures as its original.
    assert_eq!(
        std::fs::read(out.join("Bag_atlas0.png")).unwrap(),
        std::fs::read(out.join("BagCopy2_atlas0.png")).unwrap()
    );
    drop(server);

    let again = workspace.path().join("again");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_ofgui-mcp-host"))
        .arg("--cache-dir")
        .arg(cache_dir())
        .args([
            "publish",
            project.to_str().unwrap(),
            "--out",
            again.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        snapshot(&again),
        snapshot(&out),
        "the command line published otherwise"
    );
}

#[tokio::test]
async fn an_svg_with_a_dtd_is_published_into_the_atlas() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    // As Illustrator writes them: a DOCTYPE naming the external DTD, internal entities.
    std::fs::write(
        project.join("assets/Basics/icon.svg"),
        r##"<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
  <!ENTITY ns_svg "http://www.w3.org/2000/svg">
]>
<svg version="1.1" xmlns="&ns_svg;" width="40" height="20"><rect width="40" height="20" fill="#00ff00"/></svg>
"##,
    )
    .unwrap();
    let description = project.join("assets/Basics/package.xml");
    let text = std::fs::read_to_string(&description).unwrap();
    std::fs::write(
        &description,
        text.replacen(
            "<resources>",
            "<resources>\n    <image id=\"svg01\" name=\"icon.svg\" path=\"/\" size=\"40,20\" exported=\"true\"/>",
            1,
        ),
    )
    .unwrap();
    let out = workspace.path().join("out");
    let server = Server::start(&[workspace.path()]).await;
    let session = server.open(&project).await;
    let published = server
        .ok(
            PUBLISH,
            json!({ "sessionId": session, "outputDir": out, "packages": ["Basics"] }),
        )
        .await;
    let warnings = published["packages"][0]["warnings"].as_array().unwrap();
    assert!(
        warnings.iter().all(|w| w["resourceId"] != "svg01"),
        "{warnings:?}"
    );
    let descriptor =
        ofgui_fui::decode(&std::fs::read(out.join("Basics_fui.bytes")).unwrap()).unwrap();
    let sprite = descriptor["sprites"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "svg01")
        .unwrap_or_else(|| panic!("no sprite for the SVG: {}", descriptor["sprites"]))
        .clone();
    let rect = sprite["rect"].as_array().unwrap();
    let size: Vec<u64> = rect[2..].iter().map(|v| v.as_u64().unwrap()).collect();
    assert!(size == [40, 20] || size == [20, 40], "{sprite}");
}
