//! Projects made on case-insensitive disks: a folder whose letter case differs from what
//! `package.xml` says (`assets/TurnPage/Slide/` for `/slide/`), or one folder split over
//! two spellings, is one folder for the FairyGUI editor on Windows and macOS. It reads,
//! validates and publishes here as there, with a `source_case_mismatch` warning, and a save
//! writes back where the file was read instead of creating a second folder.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::Path;

use ofgui_backend::fs::StdFs;
use ofgui_backend::publish::{PublishOptions, publish_package};
use ofgui_backend::reader::{ProjectSource, read_project};
use ofgui_backend::session::{Names, Session};
use ofgui_backend::testing::{copy_tree, unity_root};
use ofgui_backend::validate::{self, Input};
use ofgui_contracts::api::ValidationReport;
use ofgui_contracts::diagnostics::{ProjectDiagnostic, ProjectDiagnosticCode as Code, Severity};
use ofgui_contracts::uam::UamResource;
use serde_json::json;

const UNITY: &str = "FairyGUI-Unity-Examples.fairy";
const PACKAGE: &str = "assets/TurnPage";
/// The resources of TurnPage's `/slide/` folder: (id, file).
const SLIDE: [(&str, &str); 5] = [
    ("jva6v", "Slider2.xml"),
    ("jva6w", "background.png"),
    ("jva6x", "full bar.png"),
    ("jva6y", "Slider2_grip.xml"),
    ("jva6z", "back btn.png"),
];

fn copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&unity_root(), dir.path()).unwrap();
    dir
}

fn read(root: &Path) -> ProjectSource {
    read_project(&StdFs::new(root), UNITY).unwrap()
}

fn validated(source: &ProjectSource) -> ValidationReport {
    validate::validate(&Input {
        project: &source.project,
        bytes: &source.bytes,
        read_diagnostics: &source.diagnostics,
        read_complete: source.complete,
    })
}

fn with_code(report: &ValidationReport, code: Code) -> Vec<&ProjectDiagnostic> {
    report
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .collect()
}

/// Every file TurnPage publishes, by name.
fn published(source: &ProjectSource) -> Vec<(String, Vec<u8>)> {
    let id = &source
        .project
        .packages
        .iter()
        .find(|p| p.name == "TurnPage")
        .unwrap()
        .id;
    publish_package(
        &source.project,
        &source.bytes,
        id,
        &PublishOptions::default(),
    )
    .unwrap()
    .files
    .into_iter()
    .map(|f| (f.name, f.bytes))
    .collect()
}

/// The report without the case warnings, to compare with the original's.
fn without_case_warnings(mut report: ValidationReport) -> ValidationReport {
    report
        .diagnostics
        .retain(|d| d.code != Code::SourceCaseMismatch);
    report
}

fn rename(root: &Path, from: &str, to: &str) {
    std::fs::rename(root.join(from), root.join(to)).unwrap();
}

#[test]
fn a_folder_in_other_letter_case_is_read_and_published_as_the_editor_does() {
    let original = read(&unity_root());
    let dir = copy();
    rename(dir.path(), "assets/TurnPage/slide", "assets/TurnPage/Slide");
    let source = read(dir.path());
    let report = validated(&source);
    assert!(
        with_code(&report, Code::MissingSource).is_empty(),
        "{report:#?}"
    );
    let warnings = with_code(&report, Code::SourceCaseMismatch);
    assert_eq!(warnings.len(), SLIDE.len(), "{warnings:#?}");
    for (id, file) in SLIDE {
        let warning = warnings
            .iter()
            .find(|d| d.resource_id.as_deref() == Some(id))
            .unwrap();
        assert_eq!(warning.severity, Severity::Warning);
        assert_eq!(
            warning.source_path.as_deref(),
            Some(format!("{PACKAGE}/slide/{file}").as_str())
        );
        let message = &warning.message;
        assert!(
            message.contains(&format!("read from {PACKAGE}/Slide/{file}")),
            "{message}"
        );
        assert!(
            message.contains(&format!("rename the folder {PACKAGE}/Slide to slide")),
            "{message}"
        );
    }
    // Everything else is as before: the model (one /slide/ folder), the findings, the bytes
    // and what is published.
    assert_eq!(source.project, original.project);
    assert_eq!(
        without_case_warnings(report),
        without_case_warnings(validated(&original))
    );
    assert_eq!(source.bytes, original.bytes);
    assert_eq!(published(&source), published(&original));
}

#[test]
fn a_folder_split_over_two_spellings_is_one_folder() {
    let original = read(&unity_root());
    let dir = copy();
    std::fs::create_dir(dir.path().join("assets/TurnPage/Slide")).unwrap();
    for file in ["Slider2.xml", "background.png"] {
        rename(
            dir.path(),
            &format!("assets/TurnPage/slide/{file}"),
            &format!("assets/TurnPage/Slide/{file}"),
        );
    }
    let source = read(dir.path());
    let report = validated(&source);
    assert!(
        with_code(&report, Code::MissingSource).is_empty(),
        "{report:#?}"
    );
    let warnings = with_code(&report, Code::SourceCaseMismatch);
    let ids: Vec<&str> = warnings
        .iter()
        .filter_map(|d| d.resource_id.as_deref())
        .collect();
    assert_eq!(ids, ["jva6v", "jva6w"], "{warnings:#?}");
    assert!(
        warnings[0].message.contains(&format!(
            "move the contents of the folder {PACKAGE}/Slide into {PACKAGE}/slide, which also exists"
        )),
        "{}",
        warnings[0].message
    );
    assert_eq!(source.project, original.project);
    assert_eq!(source.bytes, original.bytes);
    assert_eq!(published(&source), published(&original));
}

#[test]
fn several_files_in_other_letter_case_are_ambiguous_and_named() {
    let dir = copy();
    rename(dir.path(), "assets/TurnPage/slide", "assets/TurnPage/Slide");
    std::fs::create_dir(dir.path().join("assets/TurnPage/SLIDE")).unwrap();
    std::fs::copy(
        dir.path().join("assets/TurnPage/Slide/background.png"),
        dir.path().join("assets/TurnPage/SLIDE/background.png"),
    )
    .unwrap();
    let source = read(dir.path());
    let report = validated(&source);
    let missing = with_code(&report, Code::MissingSource);
    assert_eq!(missing.len(), 1, "{missing:#?}");
    assert_eq!(missing[0].resource_id.as_deref(), Some("jva6w"));
    let message = &missing[0].message;
    for candidate in ["SLIDE", "Slide"] {
        assert!(
            message.contains(&format!("{PACKAGE}/{candidate}/background.png")),
            "{message}"
        );
    }
    assert!(
        !source
            .bytes
            .contains_key("assets/TurnPage/slide/background.png")
    );
    // The other files of the folder have one spelling each and are read.
    assert_eq!(with_code(&report, Code::SourceCaseMismatch).len(), 4);
}

#[test]
fn a_save_writes_back_where_the_file_was_read() {
    let dir = copy();
    rename(dir.path(), "assets/TurnPage/slide", "assets/TurnPage/Slide");
    let fs = StdFs::new(dir.path());
    let mut session = Session::open(&fs, Names::session("s"), UNITY, 0).unwrap();
    let package = session
        .project()
        .packages
        .iter()
        .find(|p| p.name == "TurnPage")
        .unwrap();
    let slider = package
        .resources
        .iter()
        .find(|r| r.id() == "jva6v")
        .unwrap();
    let UamResource::Component(component) = slider.as_ref() else {
        panic!("not a component")
    };
    let node = component.component.display_list[0].base().id.clone();
    let package = package.id.clone();
    let batch = json!([{
        "kind": "setDisplayNodeProps",
        "selector": { "packageId": package, "componentResourceId": "jva6v", "displayNodeId": node },
        "props": { "position": { "x": 7, "y": 9 } }
    }]);
    session.apply(0, &batch.to_string()).unwrap();
    let planned = session.planned_writes(&fs, false, Some(1)).unwrap();
    let planned: Vec<&str> = planned.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(planned, [format!("{PACKAGE}/Slide/Slider2.xml")]);
    let report = session.save(&fs, Some(1)).unwrap();
    assert_eq!(report.written, [format!("{PACKAGE}/Slide/Slider2.xml")]);
    // No second spelling of the folder appears beside the one on disk.
    assert!(!dir.path().join("assets/TurnPage/slide").exists());
    let saved =
        std::fs::read_to_string(dir.path().join("assets/TurnPage/Slide/Slider2.xml")).unwrap();
    assert!(saved.contains(r#"xy="7,9""#), "{saved}");
    let reread = read(dir.path());
    assert_eq!(&reread.project, session.project());

    // The next save of the same file goes there too.
    let batch = json!([{
        "kind": "setDisplayNodeProps",
        "selector": { "packageId": package, "componentResourceId": "jva6v", "displayNodeId": node },
        "props": { "position": { "x": 8, "y": 9 } }
    }]);
    session.apply(1, &batch.to_string()).unwrap();
    let report = session.save(&fs, Some(2)).unwrap();
    assert_eq!(report.written, [format!("{PACKAGE}/Slide/Slider2.xml")]);
    assert!(!dir.path().join("assets/TurnPage/slide").exists());
}

#[test]
fn a_new_file_goes_into_the_folder_the_disk_has() {
    let dir = copy();
    rename(dir.path(), "assets/TurnPage/slide", "assets/TurnPage/Slide");
    let fs = StdFs::new(dir.path());
    let mut session = Session::open(&fs, Names::session("s"), UNITY, 0).unwrap();
    let package = session
        .project()
        .packages
        .iter()
        .find(|p| p.name == "TurnPage")
        .unwrap();
    let grip = package
        .resources
        .iter()
        .find(|r| r.id() == "jva6y")
        .unwrap();
    let mut component = serde_json::to_value(grip.as_ref()).unwrap();
    let object = component.as_object_mut().unwrap();
    object.remove("kind");
    object.remove("sourcePath");
    object.insert("id".into(), json!("case1"));
    object.insert("name".into(), json!("Grip2"));
    let batch = json!([{
        "kind": "addComponent",
        "selector": { "packageId": package.id.clone() },
        "component": component,
        "atIndex": 0
    }]);
    session.apply(0, &batch.to_string()).unwrap();
    let report = session.save(&fs, Some(1)).unwrap();
    assert!(
        report
            .written
            .contains(&format!("{PACKAGE}/Slide/Grip2.xml")),
        "{report:?}"
    );
    assert!(!dir.path().join("assets/TurnPage/slide").exists());
    assert_eq!(&read(dir.path()).project, session.project());
}

#[test]
fn a_branch_folder_of_the_package_in_other_letter_case_is_the_package_s() {
    let corpus = ofgui_backend::testing::experiments_root();
    let fairy = "FairyGUI-Experiments.fairy";
    let original = read_project(&StdFs::new(&corpus), fairy).unwrap();
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&corpus, dir.path()).unwrap();
    rename(dir.path(), "assets_dev/Branch", "assets_dev/branch");
    let source = read_project(&StdFs::new(dir.path()), fairy).unwrap();
    let report = validated(&source);
    assert!(
        with_code(&report, Code::MissingSource).is_empty(),
        "{report:#?}"
    );
    let files: Vec<&str> = with_code(&report, Code::SourceCaseMismatch)
        .iter()
        .filter_map(|d| d.source_path.as_deref())
        .collect();
    assert_eq!(
        files,
        [
            "assets_dev/Branch/package_branch.xml",
            "assets_dev/Branch/Main.xml",
            "assets_dev/Branch/face.png",
        ]
    );
    assert_eq!(source.project, original.project);
    assert_eq!(source.bytes, original.bytes);
}
