use std::path::Path;

use serde_json::{Value, json};

use crate::harness::*;

const VALIDATE: &str = "openfairygui_backend_validate_session";

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(
        text.contains(from),
        "{} does not contain {from:?}",
        path.display()
    );
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// Opens `project` and validates it, checking the envelope around the report.
async fn validate(server: &Server, project: &Path) -> Value {
    let id = server.open(project).await;
    let (envelope, is_error) = server.call(VALIDATE, json!({ "sessionId": id })).await;
    assert!(
        !is_error,
        "a report is a success even when the project is invalid: {envelope}"
    );
    let report = envelope["data"].clone();
    // meta mirrors each finding, owned by core.validation, with a remediation.
    let mirrored = envelope["meta"]["diagnostics"].as_array().unwrap();
    assert_eq!(
        mirrored.len(),
        report["diagnostics"].as_array().unwrap().len()
    );
    for diagnostic in mirrored {
        assert_eq!(diagnostic["owner"], "core.validation");
        assert!(
            diagnostic["remediation"]["kind"].is_string(),
            "{diagnostic}"
        );
        assert!(
            diagnostic["docsUri"]
                .as_str()
                .unwrap()
                .starts_with("openfairygui://docs/diagnostics/")
        );
    }
    server.ok(CLOSE, json!({ "sessionId": id })).await;
    report
}

fn codes(report: &Value) -> Vec<String> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

fn errors(report: &Value) -> Vec<&Value> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .collect()
}

#[tokio::test]
async fn the_unity_project_is_invalid_because_of_its_real_dangling_reference() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    let server = Server::start(&[workspace.path()]).await;
    let report = validate(&server, &project).await;
    assert_eq!(report["status"], "invalid");
    assert_eq!(report["complete"], true);

    // HitTest/component1.xml shows image `zis77`, which its package does not have.
    let errors = errors(&report);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let dangling = errors[0];
    assert_eq!(dangling["code"], "dangling_resource_reference");
    assert_eq!(dangling["packageId"], "ezq9a8mh");
    assert_eq!(dangling["resourceId"], "g40jh");
    assert_eq!(dangling["nodeId"], "n22");
    assert_eq!(dangling["sourcePath"], "assets/HitTest/component1.xml");
    let outline = {
        let id = server.open(&project).await;
        server
            .ok(
                OUTLINE,
                json!({ "sessionId": id, "page": { "limit": 1000 } }),
            )
            .await
    };
    let packages = outline["packages"].as_array().unwrap();
    let p = packages.iter().position(|p| p["id"] == "ezq9a8mh").unwrap();
    let r = packages[p]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .position(|r| r["id"] == "g40jh")
        .unwrap();
    assert_eq!(
        dangling["path"],
        format!("packages[{p}].resources[{r}].component.displayList[0].resource")
    );
    assert!(dangling["message"].as_str().unwrap().contains("zis77"));

    // Transition/BOSS.xml animates node n3, which does not exist: reported, as a warning.
    let boss: Vec<&Value> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["resourceId"] == "gkq00")
        .collect();
    assert_eq!(
        boss.len(),
        6,
        "six items of transition t0 target n3: {boss:#?}"
    );
    assert!(
        boss.iter()
            .all(|d| d["severity"] == "warning" && d["message"].as_str().unwrap().contains("n3"))
    );
}

#[tokio::test]
async fn the_experiments_and_example_projects_are_valid_and_complete() {
    let workspace = Workspace::new();
    let experiments = workspace.add("experiments", &experiments_corpus());
    let example = workspace.add("example", &example_project());
    let server = Server::start(&[workspace.path()]).await;
    for (name, project) in [("experiments", experiments), ("example", example)] {
        let report = validate(&server, &project).await;
        assert_eq!(report["status"], "valid", "{report}");
        assert_eq!(report["complete"], true);
        if name == "experiments" {
            // Its settings name the Unity examples' default scroll bars, which this
            // project does not have: reported, as warnings (the editor ignores them).
            let paths: Vec<&str> = report["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .inspect(|d| assert_eq!(d["severity"], "warning", "{d}"))
                .map(|d| d["path"].as_str().unwrap())
                .collect();
            assert_eq!(
                paths,
                [
                    "settings.common.scrollBars.horizontal",
                    "settings.common.scrollBars.vertical"
                ]
            );
        } else {
            assert_eq!(report["diagnostics"], json!([]));
        }
    }
}

/// A deliberately broken copy of the example project, one breakage per diagnostic code.
async fn broken(breakage: impl FnOnce(&Path)) -> Value {
    let workspace = Workspace::new();
    let project = workspace.add("broken", &example_project());
    breakage(&project);
    let server = Server::start(&[workspace.path()]).await;
    validate(&server, &project).await
}

fn finding<'a>(report: &'a Value, code: &str) -> &'a Value {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == code)
        .unwrap_or_else(|| panic!("no {code} in {report:#}"))
}

#[tokio::test]
async fn every_file_level_diagnostic_code_is_reported() {
    // Malformed XML of each file kind.
    let report = broken(|p| write(&p.join("HelloFairy.fairy"), "<projectDescription id=")).await;
    assert_eq!(
        finding(&report, "invalid_project_xml")["sourcePath"],
        "HelloFairy.fairy"
    );
    assert_eq!(report["status"], "invalid");

    let report = broken(|p| {
        edit(
            &p.join("assets/Common/package.xml"),
            "</packageDescription>",
            "</packageDesc",
        )
    })
    .await;
    assert_eq!(
        finding(&report, "invalid_package_xml")["sourcePath"],
        "assets/Common/package.xml"
    );

    let report = broken(|p| {
        std::fs::create_dir_all(p.join("assets_dev/Main")).unwrap();
        write(
            &p.join("assets_dev/Main/package_branch.xml"),
            "<branchDescription><resources>",
        );
    })
    .await;
    assert_eq!(
        finding(&report, "invalid_branch_package_xml")["sourcePath"],
        "assets_dev/Main/package_branch.xml"
    );

    let report = broken(|p| {
        write(
            &p.join("assets/Main/Settings.xml"),
            "<component size=\"1,1\"><displayList>",
        )
    })
    .await;
    let component = finding(&report, "invalid_component_xml");
    assert_eq!(component["resourceId"], "view1");
    assert_eq!(component["sourcePath"], "assets/Main/Settings.xml");

    let report = broken(|p| edit(&p.join("settings/Common.json"), "{", "{{")).await;
    assert_eq!(
        finding(&report, "invalid_settings_json")["sourcePath"],
        "settings/Common.json"
    );

    // Values.
    let report = broken(|p| {
        edit(
            &p.join("assets/Main/MainView.xml"),
            r#"fontSize="28""#,
            r#"fontSize="28" alpha="7""#,
        )
    })
    .await;
    assert_eq!(
        finding(&report, "invalid_project_value")["nodeId"],
        "n1_view"
    );

    let report = broken(|p| {
        edit(
            &p.join("assets/Main/MainView.xml"),
            r#"xy="40,40""#,
            r#"xy="40,3000000000""#,
        )
    })
    .await;
    let geometry = finding(&report, "desktop_incompatible_geometry");
    assert_eq!(geometry["nodeId"], "n1_view");
    assert!(geometry["path"].as_str().unwrap().ends_with(".position"));

    // Sources: missing, unreadable, corrupt, undecodable.
    let report =
        broken(|p| std::fs::remove_file(p.join("assets/Main/images/panel.png")).unwrap()).await;
    let missing = finding(&report, "missing_source");
    assert_eq!(missing["resourceId"], "img0");
    assert_eq!(missing["sourcePath"], "assets/Main/images/panel.png");

    let report = broken(|p| {
        let png = p.join("assets/Main/images/panel.png");
        std::fs::remove_file(&png).unwrap();
        std::fs::create_dir(&png).unwrap();
    })
    .await;
    assert_eq!(finding(&report, "unreadable_source")["resourceId"], "img0");
    assert_eq!(report["complete"], false);

    let report = broken(|p| {
        let png = p.join("assets/Main/images/panel.png");
        let mut bytes = std::fs::read(&png).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0xff;
        std::fs::write(&png, bytes).unwrap();
    })
    .await;
    assert_eq!(finding(&report, "corrupt_source")["resourceId"], "img0");

    let report =
        broken(|p| std::fs::write(p.join("assets/Main/images/panel.png"), b"").unwrap()).await;
    assert_eq!(finding(&report, "corrupt_source")["resourceId"], "img0");

    let report = broken(|p| {
        edit(
            &p.join("assets/Main/package.xml"),
            "<component id=\"view0\"",
            "<image id=\"gif0\" name=\"anim.gif\" path=\"/images/\"/>\n    <component id=\"view0\"",
        );
        std::fs::write(
            p.join("assets/Main/images/anim.gif"),
            b"GIF89a\x01\x00\x01\x00\x00\x00\x00;",
        )
        .unwrap();
    })
    .await;
    let undecodable = finding(&report, "decode_capability_unavailable");
    assert_eq!(undecodable["severity"], "warning");
    assert_eq!(undecodable["resourceId"], "gif0");
    assert_eq!(report["status"], "incomplete");
    assert_eq!(report["complete"], false);

    let report = broken(|p| {
        edit(
            &p.join("assets/Main/package.xml"),
            "<component id=\"view1\"",
            "<hologram id=\"holo\" name=\"x.holo\" path=\"/\"/>\n    <component id=\"view1\"",
        )
    })
    .await;
    assert!(codes(&report).contains(&"unsupported_resource_kind".to_string()));
}

#[tokio::test]
async fn every_structural_and_reference_code_is_reported() {
    let report = broken(|p| {
        edit(
            &p.join("assets/Main/package.xml"),
            r#"id="view1""#,
            r#"id="view0""#,
        )
    })
    .await;
    assert_eq!(
        finding(&report, "duplicate_resource_id")["resourceId"],
        "view0"
    );

    let report = broken(|p| {
        edit(
            &p.join("assets/Common/package.xml"),
            r#"id="cmn00001""#,
            r#"id="main0001""#,
        )
    })
    .await;
    assert_eq!(
        finding(&report, "duplicate_package_id")["packageId"],
        "main0001"
    );

    // Two files differing only in case.
    let report = broken(|p| {
        edit(&p.join("assets/Main/package.xml"), "<component id=\"view0\"", "<image id=\"img1\" name=\"PANEL.png\" path=\"/images/\"/>\n    <component id=\"view0\"");
        std::fs::copy(p.join("assets/Main/images/panel.png"), p.join("assets/Main/images/PANEL.png")).unwrap();
    })
    .await;
    assert!(
        finding(&report, "path_collision")["message"]
            .as_str()
            .unwrap()
            .contains("case")
    );

    let report = broken(|p| {
        edit(
            &p.join("assets/Main/package.xml"),
            r#"path="/images/""#,
            r#"path="/../../images/""#,
        )
    })
    .await;
    assert_eq!(finding(&report, "unsafe_path")["packageId"], "main0001");

    let report = broken(|p| {
        edit(
            &p.join("assets/Main/MainView.xml"),
            r#"id="n3_view""#,
            r#"id="n2_view""#,
        )
    })
    .await;
    assert!(
        finding(&report, "invalid_uam")["message"]
            .as_str()
            .unwrap()
            .contains("n2_view")
    );

    let report = broken(|p| {
        edit(
            &p.join("assets/Main/MainView.xml"),
            r#"controller="state" pages="1" values"#,
            r#"controller="gone" pages="1" values"#,
        )
    })
    .await;
    assert!(
        finding(&report, "invalid_uam")["message"]
            .as_str()
            .unwrap()
            .contains("gone")
    );

    // A ui:// pointing nowhere, and a node resource of the wrong kind.
    let report = broken(|p| {
        edit(
            &p.join("assets/Main/MainView.xml"),
            r#"text="Hello OpenFairyGUI""#,
            r#"text="[img]ui://main0001nope[/img]""#,
        )
    })
    .await;
    let dangling = finding(&report, "dangling_resource_reference");
    assert_eq!(dangling["nodeId"], "n1_view");
    assert!(
        dangling["message"]
            .as_str()
            .unwrap()
            .contains("ui://main0001nope")
    );

    let report = broken(|p| {
        edit(
            &p.join("assets/Main/MainView.xml"),
            r#"src="img0""#,
            r#"src="view1""#,
        )
    })
    .await;
    assert!(
        finding(&report, "dangling_resource_reference")["message"]
            .as_str()
            .unwrap()
            .contains("component, not an image")
    );
}

#[tokio::test]
async fn garbled_files_never_crash_the_backend() {
    let workspace = Workspace::new();
    let server = Server::start(&[workspace.path()]).await;
    let original = std::fs::read(example_project().join("assets/Main/MainView.xml")).unwrap();
    let package = std::fs::read(example_project().join("assets/Main/package.xml")).unwrap();
    let mut seed = 0x2545_f491_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for round in 0..24 {
        let project = workspace.add(&format!("garbled{round}"), &example_project());
        let mut view = original.clone();
        view.truncate(next() as usize % original.len());
        for _ in 0..(round % 5) {
            let at = next() as usize % view.len().max(1);
            if let Some(byte) = view.get_mut(at) {
                *byte = next() as u8;
            }
        }
        std::fs::write(project.join("assets/Main/MainView.xml"), &view).unwrap();
        let mut description = package.clone();
        if round % 3 == 0 {
            description.truncate(next() as usize % package.len());
        }
        std::fs::write(project.join("assets/Main/package.xml"), &description).unwrap();
        let id = server.open(&project).await;
        let (envelope, is_error) = server.call(VALIDATE, json!({ "sessionId": id })).await;
        assert!(!is_error, "round {round}: {envelope}");
        assert!(
            ["valid", "invalid", "incomplete"]
                .contains(&envelope["data"]["status"].as_str().unwrap())
        );
        server.ok(STATE, json!({ "sessionId": id })).await;
        server.ok(CLOSE, json!({ "sessionId": id })).await;
    }
}

#[tokio::test]
async fn read_diagnostics_are_available_at_open() {
    let workspace = Workspace::new();
    let project = workspace.add("broken", &example_project());
    std::fs::remove_file(project.join("assets/Main/images/panel.png")).unwrap();
    write(
        &project.join("assets/Common/components/Button.xml"),
        "<component",
    );
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;
    let state = server.ok(STATE, json!({ "sessionId": id })).await;
    let read: Vec<&str> = state["readDiagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(read.contains(&"missing_source"), "{read:?}");
    assert!(read.contains(&"invalid_component_xml"), "{read:?}");
    // The rest of the project is still there.
    let outline = server
        .ok(
            OUTLINE,
            json!({ "sessionId": id, "page": { "limit": 1000 } }),
        )
        .await;
    assert_eq!(outline["packages"].as_array().unwrap().len(), 2);
}
