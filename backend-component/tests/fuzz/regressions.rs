//! What the harnesses found, minimized: each test is the smallest input that failed.

use ofgui_backend::fs::StdFs;
use ofgui_backend::reader::read_project;
use ofgui_backend::session::{Names, Session};
use ofgui_backend::testing::{copy_tree, unity_root};
use serde_json::json;

/// A copy of the unity examples with a session on it.
fn unity_session() -> (tempfile::TempDir, StdFs, Session) {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&unity_root(), dir.path()).unwrap();
    let fs = StdFs::new(dir.path());
    let session = Session::open(&fs, Names::session("r"), UNITY, 0).unwrap();
    (dir, fs, session)
}

const UNITY: &str = "FairyGUI-Unity-Examples.fairy";
/// TextMeshPro, whose package.xml ends with `<publish name=""/>`.
const TEXT_MESH_PRO: &str = "33vzljm4";

/// TextMeshPro's publish settings with `name` and `atlases` as given.
fn publish_batch(name: &str, atlases: serde_json::Value) -> String {
    json!([{
        "kind": "updatePackageSettings", "selector": { "packageId": TEXT_MESH_PRO },
        "settings": { "compressPNG": null, "jpegQuality": null, "publish": {
            "name": name, "path": "", "branchPath": "", "packageCount": 0, "genCode": false,
            "codePath": "", "useGlobalAtlasSettings": true, "maxAtlasSize": 2048,
            "sizeOption": "pot", "forceSquare": false, "allowRotation": false, "paging": false,
            "extractAlpha": false, "maxAtlasIndex": 10, "excludedResourceIds": [],
            "atlases": atlases
        } }
    }])
    .to_string()
}

fn package_xml(dir: &tempfile::TempDir) -> String {
    std::fs::read_to_string(dir.path().join("assets/TextMeshPro/package.xml")).unwrap()
}

/// Found by the save harness: a publish with two atlases opened TextMeshPro's childless
/// `<publish name=""/>` up twice (two edits of its `/>`), and the save refused as
/// unfaithful.
#[test]
fn two_children_into_a_self_closing_element_save() {
    let (dir, fs, mut session) = unity_session();
    let atlases = json!([
        { "index": 0, "name": "Default", "compression": false },
        { "index": 3, "name": "", "compression": true }
    ]);
    session
        .apply(0, &publish_batch("TextMeshPro", atlases))
        .unwrap();
    let report = session.save(&fs, Some(1)).unwrap();
    assert_eq!(report.written, ["assets/TextMeshPro/package.xml"]);
    assert!(
        package_xml(&dir).contains(
            "  <publish name=\"\">\n    <atlas name=\"Default\" index=\"0\"/>\n    <atlas index=\"3\" compression=\"true\"/>\n  </publish>\n"
        ),
        "{}",
        package_xml(&dir)
    );
    assert_eq!(
        &read_project(&fs, UNITY).unwrap().project,
        session.project()
    );
}

/// Found by the save harness: `publish.name: ''` (the package's name) was accepted and
/// kept as `''`, which no read of the saved file gives back, so the save refused.
#[test]
fn an_empty_publish_name_is_the_package_name() {
    let (dir, fs, mut session) = unity_session();
    let before = package_xml(&dir);
    // The same settings as read, but for the name: nothing changes.
    let refused = session.apply(0, &publish_batch("", json!([]))).unwrap_err();
    assert!(
        refused.error.message().contains("nothing would change"),
        "{}",
        refused.error.message()
    );
    let atlases = json!([{ "index": 2, "name": "Two", "compression": false }]);
    session.apply(0, &publish_batch("", atlases)).unwrap();
    let package = session
        .project()
        .packages
        .iter()
        .find(|p| p.id == TEXT_MESH_PRO)
        .unwrap();
    assert_eq!(package.publish.as_ref().unwrap().name, "TextMeshPro");
    session.save(&fs, Some(1)).unwrap();
    assert_eq!(
        &read_project(&fs, UNITY).unwrap().project,
        session.project()
    );
    // The name attribute stays as the file wrote it.
    assert!(before.contains("<publish name=\"\"/>"));
    assert!(
        package_xml(&dir).contains("<publish name=\"\">"),
        "{}",
        package_xml(&dir)
    );
}

/// Found by the save harness: on the global atlas settings a package's own (`paging`
/// here) have no place in the file; a model keeping them never read back equal, so the
/// save refused. They now read as a save would leave them.
#[test]
fn own_atlas_settings_under_the_global_ones_are_the_defaults() {
    let (_dir, fs, mut session) = unity_session();
    let mut batch: serde_json::Value = serde_json::from_str(&publish_batch("", json!([]))).unwrap();
    let publish = &mut batch[0]["settings"]["publish"];
    publish["paging"] = json!(true);
    publish["forceSquare"] = json!(true);
    publish["maxAtlasIndex"] = json!(20);
    session.apply(0, &batch.to_string()).unwrap();
    let package = session
        .project()
        .packages
        .iter()
        .find(|p| p.id == TEXT_MESH_PRO)
        .unwrap();
    let publish = package.publish.as_ref().unwrap();
    assert!(!publish.paging && !publish.force_square);
    session.save(&fs, Some(1)).unwrap();
    assert_eq!(
        &read_project(&fs, UNITY).unwrap().project,
        session.project()
    );
}
