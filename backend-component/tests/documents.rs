//! Sessions over a project given as a document (`openProjectSession`): a corpus project's
//! state and bytes open as the same model, what no project on disk could read as is
//! refused at its field, a session without a directory writes nothing, and one with an
//! empty directory writes the whole project there so that it reads back the same.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use base64::Engine as _;
use ofgui_backend::fs::StdFs;
use ofgui_backend::session::{Names, Session};
use ofgui_backend::testing::{experiments_root, unity_root};
use ofgui_contracts::api::{
    ReadSessionStateInput, ResourceSelector, UamFidelity, ValidationStatus,
};
use ofgui_contracts::error::{BackendError, ErrorCode};
use serde_json::{Value, json};

const EXPERIMENTS: &str = "FairyGUI-Experiments.fairy";

fn opened(root: &std::path::Path, fairy: &str) -> Session {
    Session::open(&StdFs::new(root), Names::session("disk"), fairy, 0).unwrap()
}

/// The project as readSessionState shows it, with every asset's bytes as base64: what an
/// agent sends to openProjectSession.
fn document_of(session: &Session) -> Value {
    let input = ReadSessionStateInput {
        session_id: "disk".into(),
        expected_revision: None,
        scope: None,
        page: None,
    };
    let state: Value = serde_json::from_str(&session.read_state(&input).unwrap()).unwrap();
    let mut project = state["project"].clone();
    for package in project["packages"].as_array_mut().unwrap() {
        let package_id = package["id"].as_str().unwrap().to_string();
        for resource in package["resources"].as_array_mut().unwrap() {
            if resource["kind"] == "component" {
                continue;
            }
            let selector = ResourceSelector {
                package_id: package_id.clone(),
                resource_id: resource["id"].as_str().unwrap().to_string(),
            };
            if let Ok(bytes) = session.read_resource_bytes(0, &selector) {
                resource["sourceBytes"] =
                    json!(base64::engine::general_purpose::STANDARD.encode(bytes));
            }
        }
    }
    project
}

fn from_document(document: &Value, fairy: Option<&str>) -> Result<Session, BackendError> {
    Session::from_document(Names::session("doc"), &document.to_string(), fairy)
}

fn refusal(document: &Value) -> (String, String) {
    match from_document(document, None).unwrap_err() {
        BackendError::InvalidInput {
            path: Some(path),
            message,
        } => (path, message),
        other => panic!("expected invalid_input, got {other:?}"),
    }
}

/// The first resource of `kind` in the document: its package and resource index.
fn first(document: &Value, kind: &str) -> (usize, usize) {
    for (p, package) in document["packages"].as_array().unwrap().iter().enumerate() {
        for (r, resource) in package["resources"].as_array().unwrap().iter().enumerate() {
            if resource["kind"] == kind {
                return (p, r);
            }
        }
    }
    panic!("no {kind} resource");
}

#[test]
fn a_corpus_project_opens_from_its_state_and_bytes_as_the_same_model() {
    for (root, fairy) in [
        (experiments_root(), EXPERIMENTS),
        (unity_root(), "FairyGUI-Unity-Examples.fairy"),
    ] {
        let disk = opened(&root, fairy);
        let document = document_of(&disk);
        let session = from_document(&document, None).unwrap();
        assert_eq!(session.project(), disk.project(), "{fairy}");
        let status = session.status();
        assert_eq!(
            (status.revision, status.dirty, status.fidelity),
            (0, false, UamFidelity::Full)
        );
        assert_eq!(status.summary, disk.status().summary);
        assert_eq!(
            status.summary.package_count as usize,
            disk.project().packages.len()
        );
        assert!(session.read_diagnostics().is_empty());
        // The same model and bytes validate the same, except for what only a reader finds.
        let (from_disk, from_document) = (disk.validate(), session.validate());
        assert_eq!(from_document.status, from_disk.status, "{fairy}");
        let codes = |report: &ofgui_contracts::api::ValidationReport| {
            let mut codes: Vec<String> = report
                .diagnostics
                .iter()
                .filter(|d| d.code.as_str() != "missing_source")
                .map(|d| format!("{} {}", d.code.as_str(), d.path))
                .collect();
            codes.sort();
            codes
        };
        assert_eq!(codes(&from_document), codes(&from_disk), "{fairy}");
    }
}

#[test]
fn the_summary_counts_packages_and_every_resource() {
    let session = from_document(
        &document_of(&opened(&experiments_root(), EXPERIMENTS)),
        None,
    )
    .unwrap();
    let project = session.project();
    let resources: usize = project.packages.iter().map(|p| p.resources.len()).sum();
    let summary = session.status().summary;
    assert_eq!(summary.package_count as usize, project.packages.len());
    assert_eq!(summary.resource_count as usize, resources);
    assert!(summary.resource_count > summary.package_count);
}

#[test]
fn a_derived_source_path_may_be_left_out_and_a_wrong_one_is_refused() {
    let mut document = document_of(&opened(&experiments_root(), EXPERIMENTS));
    let (p, r) = first(&document, "image");
    let resource = &mut document["packages"][p]["resources"][r];
    let source_path = resource["sourcePath"].as_str().unwrap().to_string();
    resource.as_object_mut().unwrap().remove("sourcePath");
    let session = from_document(&document, None).unwrap();
    assert_eq!(
        session.project().packages[p].resources[r].source_path(),
        Some(source_path.as_str())
    );

    document["packages"][p]["resources"][r]["sourcePath"] = json!("assets/Elsewhere/x.png");
    let (path, message) = refusal(&document);
    assert_eq!(
        path,
        format!("/project/packages/{p}/resources/{r}/sourcePath")
    );
    assert!(message.contains(&source_path), "{message}");
}

#[test]
fn shapes_no_reader_produces_are_refused_at_their_field() {
    let base = document_of(&opened(&experiments_root(), EXPERIMENTS));
    let (p, image) = first(&base, "image");
    let (cp, component) = first(&base, "component");
    let at =
        |p: usize, r: usize, field: &str| format!("/project/packages/{p}/resources/{r}/{field}");
    type Bend = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(Bend, String)> = vec![
        (
            Box::new(move |d: &mut Value| {
                d["packages"][p]["resources"][image]["path"] = json!("/a")
            }),
            at(p, image, "path"),
        ),
        (
            Box::new(move |d: &mut Value| {
                d["packages"][p]["resources"][image]["fileName"] = json!("../up.png")
            }),
            at(p, image, "fileName"),
        ),
        (
            Box::new(move |d: &mut Value| {
                d["packages"][p]["resources"][image]["branch"] = json!("nope")
            }),
            at(p, image, "branch"),
        ),
        (
            Box::new(move |d: &mut Value| {
                d["packages"][p]["resources"][image]["dimensions"] =
                    json!({ "width": 3, "height": 3 })
            }),
            at(p, image, "dimensions"),
        ),
        (
            Box::new(move |d: &mut Value| {
                d["packages"][cp]["resources"][component]["sourceBytes"] = json!([1, 2])
            }),
            at(cp, component, "sourceBytes"),
        ),
        (
            Box::new(move |d: &mut Value| {
                d["packages"][p]["resources"][image]["sparkle"] = json!(true)
            }),
            at(p, image, "sparkle"),
        ),
        (
            Box::new(move |d: &mut Value| {
                d["packages"][p]["resources"][image]
                    .as_object_mut()
                    .unwrap()
                    .remove("image");
            }),
            at(p, image, "image"),
        ),
        (
            Box::new(move |d: &mut Value| {
                d["packages"][p]["folders"] =
                    json!([{ "branch": "", "path": "/", "favorite": false, "atlas": "" }])
            }),
            format!("/project/packages/{p}/folders/0/path"),
        ),
        (
            Box::new(|d: &mut Value| {
                let first = d["packages"][0].clone();
                d["packages"].as_array_mut().unwrap().push(first);
            }),
            format!(
                "/project/packages/{}/name",
                base["packages"].as_array().unwrap().len()
            ),
        ),
        (
            Box::new(|d: &mut Value| d["branches"] = json!(["dev", "dev"])),
            "/project/branches/1".to_string(),
        ),
        (
            Box::new(|d: &mut Value| d["packages"] = json!(7)),
            "/project/packages".to_string(),
        ),
        (
            Box::new(|d: &mut Value| d["settings"] = json!("none")),
            "/project/settings".to_string(),
        ),
    ];
    for (change, expected) in cases {
        let mut document = base.clone();
        change(&mut document);
        let (path, message) = refusal(&document);
        assert_eq!(path, expected, "{message}");
        assert!(!message.is_empty());
    }
}

#[test]
fn an_image_without_dimensions_takes_its_header_size() {
    let mut document = document_of(&opened(&experiments_root(), EXPERIMENTS));
    let (p, r) = first(&document, "image");
    let dimensions = document["packages"][p]["resources"][r]["dimensions"].clone();
    assert!(dimensions.is_object());
    document["packages"][p]["resources"][r]
        .as_object_mut()
        .unwrap()
        .remove("dimensions");
    let session = from_document(&document, None).unwrap();
    let resource = serde_json::to_value(&*session.project().packages[p].resources[r]).unwrap();
    assert_eq!(resource["dimensions"], dimensions);
}

#[test]
fn a_session_without_a_directory_writes_nothing() {
    let document = document_of(&opened(&experiments_root(), EXPERIMENTS));
    let mut session = from_document(&document, None).unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let fs = StdFs::new(scratch.path());
    let save = session.save(&fs, None).unwrap_err();
    assert_eq!(save.code(), ErrorCode::CapabilityUnavailable);
    assert!(save.message().contains("materializeSession"), "{save:?}");
    let BackendError::CapabilityUnavailable { capability, .. } = &save else {
        unreachable!()
    };
    assert_eq!(capability, "fileSystem");
    let materialize = session.materialize(&fs, None).unwrap_err();
    assert_eq!(materialize.error.code(), ErrorCode::CapabilityUnavailable);
    assert_eq!(std::fs::read_dir(scratch.path()).unwrap().count(), 0);
}

#[test]
fn an_asset_without_bytes_is_unchecked_and_stops_a_materialize() {
    let mut document = document_of(&opened(&experiments_root(), EXPERIMENTS));
    let (p, r) = first(&document, "image");
    document["packages"][p]["resources"][r]
        .as_object_mut()
        .unwrap()
        .remove("sourceBytes");
    let scratch = tempfile::tempdir().unwrap();
    let mut session = from_document(&document, Some("Written.fairy")).unwrap();
    let report = session.validate();
    assert_eq!(report.status, ValidationStatus::Incomplete);
    assert!(!report.complete);
    let unchecked = report
        .diagnostics
        .iter()
        .find(|d| d.path == format!("packages[{p}].resources[{r}]"))
        .unwrap();
    assert_eq!(unchecked.code.as_str(), "decode_capability_unavailable");
    let refused = session
        .materialize(&StdFs::new(scratch.path()), None)
        .unwrap_err();
    assert_eq!(refused.error.code(), ErrorCode::MaterializeValidationFailed);
    assert_eq!(refused.diagnostics.len(), 1, "{:?}", refused.diagnostics);
    assert_eq!(std::fs::read_dir(scratch.path()).unwrap().count(), 0);
}

#[test]
fn a_session_with_an_empty_directory_materializes_the_whole_project_there() {
    let disk = opened(&experiments_root(), EXPERIMENTS);
    let document = document_of(&disk);
    let scratch = tempfile::tempdir().unwrap();
    let fs = StdFs::new(scratch.path());
    let mut session = from_document(&document, Some("Written.fairy")).unwrap();
    // An edit before the write is written with it.
    let (p, r) = first(&document, "component");
    let package_id = document["packages"][p]["id"].as_str().unwrap();
    let component_id = document["packages"][p]["resources"][r]["id"]
        .as_str()
        .unwrap();
    let node = document["packages"][p]["resources"][r]["component"]["displayList"][0]["id"]
        .as_str()
        .unwrap();
    let operations = json!([{
        "kind": "setDisplayNodeProps",
        "selector": { "packageId": package_id, "componentResourceId": component_id, "displayNodeId": node },
        "props": { "position": { "x": 321, "y": 12 } }
    }]);
    session.apply(0, &operations.to_string()).unwrap();
    let preview = session.status();
    assert!(preview.dirty);
    let report = session.materialize(&fs, Some(1)).unwrap();
    assert!(report.written.contains(&"Written.fairy".to_string()));
    assert!(report.verified);
    assert_eq!(session.status().last_saved_revision, 1);
    assert!(!session.status().dirty);

    let reopened = opened(scratch.path(), "Written.fairy");
    assert_eq!(reopened.project(), session.project());
    // From now on it saves like a session read from that directory.
    let operations = json!([{
        "kind": "setDisplayNodeProps",
        "selector": { "packageId": package_id, "componentResourceId": component_id, "displayNodeId": node },
        "props": { "position": { "x": 5, "y": 6 } }
    }]);
    session.apply(1, &operations.to_string()).unwrap();
    let saved = session.save(&fs, Some(2)).unwrap();
    assert_eq!(saved.written.len(), 1, "{:?}", saved.written);
    assert_eq!(
        opened(scratch.path(), "Written.fairy").project(),
        session.project()
    );
}
