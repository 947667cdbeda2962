//! Branch, package and component lifecycle operations (and setComponentProps) run on the
//! real corpora: every operation succeeds on real data with the model, sourcePaths and
//! bytes it should leave, and fails with its documented codes at the exact request paths.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::common::wording::well_worded;
use ofgui_backend::fs::StdFs;
use ofgui_backend::reader::{ProjectSource, read_project};
use ofgui_backend::testing::{experiments_root, unity_root};
use ofgui_backend::txn::{self, Applied, Failure};
use ofgui_contracts::ops::Operation;
use ofgui_contracts::uam::{UamPackage, UamProject, UamResource};
use serde_json::{Value, json};

// ---------------------------------------------------------------- fixtures

/// The 30-package Unity examples (no branches). Packages used here, checked by hand:
/// Joystick (rbw1tvvv): Main iitt1 uses image q9do1a and component circle q9do18, which
/// uses image q9do19; Gesture (lua1ugq6): Main t5or0 holds only a graph and a text;
/// Bag (rbw1tv9t): dot osdok is the defaultItem (`ui://rbw1tv9tosdok`) of a list in
/// BagWin; ModalWaiting: qtm011.jta is a movie clip.
fn unity() -> &'static ProjectSource {
    static SOURCE: OnceLock<ProjectSource> = OnceLock::new();
    SOURCE.get_or_init(|| {
        read_project(&StdFs::new(unity_root()), "FairyGUI-Unity-Examples.fairy")
            .expect("unity reads")
    })
}

/// The experiments project: branch `dev`; package Branch (a9lkf94s) has main Main kn7w0
/// and image kn7w1, and on `dev` component kn7w3 and image kn7w2 (`assets_dev/Branch/`).
fn experiments() -> &'static ProjectSource {
    static SOURCE: OnceLock<ProjectSource> = OnceLock::new();
    SOURCE.get_or_init(|| {
        read_project(
            &StdFs::new(experiments_root()),
            "FairyGUI-Experiments.fairy",
        )
        .expect("experiments read")
    })
}

const JOYSTICK: &str = "rbw1tvvv";
const GESTURE: &str = "lua1ugq6";
const BAG: &str = "rbw1tv9t";
const BRANCH: &str = "a9lkf94s";

fn ops(values: Vec<Value>) -> Vec<Operation> {
    values
        .into_iter()
        .map(|value| {
            serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{e}: {value}"))
        })
        .collect()
}

fn apply(source: &ProjectSource, values: Vec<Value>) -> Applied {
    match txn::run(&source.project, &source.bytes, &ops(values)) {
        Ok(applied) => applied,
        Err(failure) => panic!("expected the batch to apply: {:#?}", failure.issues),
    }
}

fn fail(source: &ProjectSource, values: Vec<Value>) -> Failure {
    match txn::run(&source.project, &source.bytes, &ops(values)) {
        Ok(_) => panic!("expected the batch to fail"),
        Err(failure) => well_worded(failure),
    }
}

/// Asserts the failure has an issue with this code at this path and returns it.
fn issue<'f>(failure: &'f Failure, code: &str, path: &str) -> &'f txn::Issue {
    failure
        .issues
        .iter()
        .find(|issue| issue.code.as_str() == code && issue.path == path)
        .unwrap_or_else(|| {
            let found: Vec<(&str, &str)> = failure
                .issues
                .iter()
                .map(|issue| (issue.code.as_str(), issue.path.as_str()))
                .collect();
            panic!("no {code} at {path}; found {found:?}")
        })
}

/// The only issue of the failure: it has this code and path.
fn only(failure: &Failure, code: &str, path: &str) {
    issue(failure, code, path);
    assert_eq!(failure.issues.len(), 1, "{:#?}", failure.issues);
    assert_eq!(failure.code.as_str(), "transaction_unsupported");
}

fn package<'p>(project: &'p UamProject, id: &str) -> &'p UamPackage {
    project
        .packages
        .iter()
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("package {id}"))
}

fn resource<'p>(project: &'p UamProject, package_id: &str, id: &str) -> &'p UamResource {
    package(project, package_id)
        .resources
        .iter()
        .find(|r| r.id() == id)
        .unwrap_or_else(|| panic!("resource {id} of {package_id}"))
}

fn base_bytes<'s>(source: &'s ProjectSource, path: &str) -> &'s [u8] {
    source
        .bytes
        .get(path)
        .unwrap_or_else(|| panic!("bytes of {path}"))
}

fn changed<'a>(applied: &'a Applied, path: &str) -> Option<&'a Option<Vec<u8>>> {
    applied.bytes.get(path)
}

/// A resource as JSON, without its derived sourcePath (what an agent sends).
fn resource_json(project: &UamProject, package_id: &str, id: &str) -> Value {
    let mut value = serde_json::to_value(resource(project, package_id, id)).expect("serializes");
    value.as_object_mut().expect("object").remove("sourcePath");
    value
}

/// A component resource as an addComponent payload (no `kind`, no sourcePath).
fn component_json(project: &UamProject, package_id: &str, id: &str) -> Value {
    let mut value = resource_json(project, package_id, id);
    value.as_object_mut().expect("object").remove("kind");
    value
}

fn add_branch(name: &str) -> Value {
    json!({ "kind": "addBranch", "branch": name })
}

fn remove_component(package_id: &str, id: &str) -> Value {
    json!({
        "kind": "removeComponent",
        "selector": { "packageId": package_id, "componentResourceId": id }
    })
}

fn move_component(package_id: &str, id: &str, to: &str, to_index: u32) -> Value {
    json!({
        "kind": "moveComponent",
        "selector": { "packageId": package_id, "componentResourceId": id },
        "toPackageId": to,
        "toIndex": to_index
    })
}

// ---------------------------------------------------------------- batch rule

#[test]
fn lifecycle_operations_refuse_other_operations_in_the_batch() {
    let failure = fail(
        unity(),
        vec![
            add_branch("qa"),
            json!({
                "kind": "setResourceFavorite",
                "selector": { "packageId": JOYSTICK, "resourceId": "q9do19" },
                "favorite": true
            }),
        ],
    );
    only(
        &failure,
        "unsupported_operation_batch",
        "operations[1].kind",
    );

    // setComponentProps is not among the operations a lifecycle change may carry either.
    let failure = fail(
        unity(),
        vec![
            json!({
                "kind": "setComponentProps",
                "selector": { "packageId": JOYSTICK, "componentResourceId": "iitt1" },
                "props": { "size": { "width": 10, "height": 10 } }
            }),
            remove_component(GESTURE, "t5or0"),
        ],
    );
    only(
        &failure,
        "unsupported_operation_batch",
        "operations[0].kind",
    );
}

// ---------------------------------------------------------------- addBranch

#[test]
fn add_branch_keeps_branches_sorted() {
    let applied = apply(experiments(), vec![add_branch("qa"), add_branch("alpha")]);
    assert_eq!(applied.project.branches, ["alpha", "dev", "qa"]);
    // A new branch has no package slots until a package gets one.
    assert_eq!(package(&applied.project, BRANCH).branch_names, ["dev"]);
    assert!(applied.bytes.is_empty());

    // The preview names the project's branch list and the new directories.
    let impact = serde_json::to_value(txn::impact::impact(
        &experiments().project,
        &applied.project,
        &Default::default(),
    ))
    .expect("serializes");
    assert_eq!(
        impact["entities"],
        json!([{ "target": { "kind": "project" }, "change": "updated", "fields": ["branches"] }])
    );
    assert_eq!(
        impact["files"],
        json!([
            { "path": "assets_alpha", "kind": "directory", "change": "added" },
            { "path": "assets_qa", "kind": "directory", "change": "added" }
        ])
    );
}

#[test]
fn add_branch_refuses_unsafe_and_taken_names() {
    for bad in ["con", "a/b", "a:b", " lead", "trail.", ".."] {
        let failure = fail(experiments(), vec![add_branch(bad)]);
        only(&failure, "invalid_branch_name", "operations[0].branch");
    }
    let failure = fail(experiments(), vec![add_branch("dev")]);
    only(&failure, "duplicate_branch_name", "operations[0].branch");
    // assets_Dev/ and assets_dev/ are one directory on case-insensitive disks.
    let failure = fail(experiments(), vec![add_branch("Dev")]);
    only(&failure, "duplicate_branch_name", "operations[0].branch");
    // The second add sees the first one (sequential projection).
    let failure = fail(unity(), vec![add_branch("qa"), add_branch("qa")]);
    only(&failure, "duplicate_branch_name", "operations[1].branch");
}

// ---------------------------------------------------------------- renameBranch

#[test]
fn rename_branch_moves_branch_files_and_slots() {
    let source = experiments();
    let applied = apply(
        source,
        vec![json!({ "kind": "renameBranch", "selector": { "branch": "dev" }, "newName": "qa" })],
    );
    let project = &applied.project;
    assert_eq!(project.branches, ["qa"]);
    assert_eq!(package(project, BRANCH).branch_names, ["qa"]);

    let face = resource(project, BRANCH, "kn7w2");
    assert_eq!(face.branch(), "qa");
    assert_eq!(face.source_path(), Some("assets_qa/Branch/face.png"));
    let variant = resource(project, BRANCH, "kn7w3");
    assert_eq!(variant.branch(), "qa");
    assert_eq!(variant.source_path(), Some("assets_qa/Branch/Main.xml"));
    // Main-branch resources keep their files and their variant slots.
    let main_face = resource(project, BRANCH, "kn7w1");
    assert_eq!(main_face.source_path(), Some("assets/Branch/face.png"));
    assert_eq!(
        main_face.asset_base().expect("asset").branch_item_ids,
        ["kn7w2"]
    );

    // The branch image's bytes move; nothing else is touched.
    let dev_bytes = base_bytes(source, "assets_dev/Branch/face.png");
    assert_eq!(
        changed(&applied, "assets_qa/Branch/face.png"),
        Some(&Some(dev_bytes.to_vec()))
    );
    assert_eq!(changed(&applied, "assets_dev/Branch/face.png"), Some(&None));
    assert_eq!(applied.bytes.len(), 2, "{:?}", applied.bytes.keys());
}

#[test]
fn rename_branch_refuses_unknown_unsafe_and_taken_names() {
    let failure = fail(
        experiments(),
        vec![json!({ "kind": "renameBranch", "selector": { "branch": "prod" }, "newName": "qa" })],
    );
    only(
        &failure,
        "invalid_branch_selector",
        "operations[0].selector.branch",
    );

    let failure = fail(
        experiments(),
        vec![json!({ "kind": "renameBranch", "selector": { "branch": "dev" }, "newName": "q/a" })],
    );
    only(&failure, "invalid_branch_name", "operations[0].newName");

    let failure = fail(
        experiments(),
        vec![
            add_branch("qa"),
            json!({ "kind": "renameBranch", "selector": { "branch": "dev" }, "newName": "QA" }),
        ],
    );
    only(&failure, "duplicate_branch_name", "operations[1].newName");

    // Every problem is reported at once.
    let failure = fail(
        experiments(),
        vec![json!({ "kind": "renameBranch", "selector": { "branch": "prod" }, "newName": "nul" })],
    );
    issue(
        &failure,
        "invalid_branch_selector",
        "operations[0].selector.branch",
    );
    issue(&failure, "invalid_branch_name", "operations[0].newName");
}

// ---------------------------------------------------------------- removeBranch

#[test]
fn remove_branch_dev_is_refused_while_it_holds_resources() {
    let failure = fail(
        experiments(),
        vec![json!({ "kind": "removeBranch", "selector": { "branch": "dev" } })],
    );
    let not_empty = issue(
        &failure,
        "branch_not_empty",
        "operations[0].selector.branch",
    );
    assert!(
        not_empty.message.contains("Branch (a9lkf94s)"),
        "{}",
        not_empty.message
    );
    // kn7w1 still names its dev variant kn7w2.
    let referenced = issue(
        &failure,
        "branch_referenced",
        "operations[0].selector.branch",
    );
    assert!(
        referenced.message.contains("kn7w2"),
        "{}",
        referenced.message
    );
    // Emptying the branch discards files that exist and are valid: never advised
    // unconditionally.
    for found in [not_empty, referenced] {
        assert!(
            found.message.contains("discard") && found.message.contains("unless the user asks"),
            "{}",
            found.message
        );
    }

    let failure = fail(
        experiments(),
        vec![json!({ "kind": "removeBranch", "selector": { "branch": "prod" } })],
    );
    only(
        &failure,
        "invalid_branch_selector",
        "operations[0].selector.branch",
    );
}

/// An image asset payload copied from the experiments project's main face.png.
fn image_input(id: &str, path: &str, branch: &str, slots: Value) -> Value {
    let source = experiments();
    let mut value = resource_json(&source.project, BRANCH, "kn7w1");
    value["id"] = json!(id);
    value["path"] = json!(path);
    value["branch"] = json!(branch);
    value["branchItemIds"] = slots;
    value["sourceBytes"] = json!(base_bytes(source, "assets/Branch/face.png"));
    value
}

fn publish_json(project: &UamProject, package_id: &str) -> Value {
    serde_json::to_value(
        package(project, package_id)
            .publish
            .as_ref()
            .expect("publish"),
    )
    .expect("serializes")
}

fn folder(path: &str) -> Value {
    json!({ "branch": "", "path": path, "favorite": false, "atlas": "" })
}

fn package_input(id: &str, name: &str, branch_names: Value, resources: Vec<Value>) -> Value {
    json!({
        "id": id,
        "name": name,
        "compressPNG": null,
        "jpegQuality": null,
        "publish": publish_json(&experiments().project, BRANCH),
        "branchNames": branch_names,
        "folders": [],
        "resources": resources
    })
}

#[test]
fn remove_branch_splices_its_slot_out_of_every_package() {
    let applied = apply(
        experiments(),
        vec![
            add_branch("qa"),
            json!({
                "kind": "addPackage",
                "atIndex": 0,
                "package": package_input("slots001", "Slots", json!(["dev", "qa"]), vec![
                    image_input("s1", "/", "", json!(["s2", ""])),
                    image_input("s2", "/", "dev", json!([])),
                ])
            }),
            json!({ "kind": "removeBranch", "selector": { "branch": "qa" } }),
        ],
    );
    let project = &applied.project;
    assert_eq!(project.branches, ["dev"]);
    assert_eq!(package(project, "slots001").branch_names, ["dev"]);
    let main = resource(project, "slots001", "s1");
    assert_eq!(main.asset_base().expect("asset").branch_item_ids, ["s2"]);
    assert_eq!(
        resource(project, "slots001", "s2").source_path(),
        Some("assets_dev/Slots/face.png")
    );
    // Packages without a qa slot are untouched.
    assert_eq!(package(project, BRANCH).branch_names, ["dev"]);
}

#[test]
fn remove_branch_is_refused_while_a_slot_names_a_variant() {
    let failure = fail(
        experiments(),
        vec![
            add_branch("qa"),
            json!({
                "kind": "addPackage",
                "atIndex": 0,
                "package": package_input("slots001", "Slots", json!(["dev", "qa"]), vec![
                    image_input("s1", "/", "", json!(["", "s3"])),
                    image_input("s3", "/", "qa", json!([])),
                ])
            }),
            json!({ "kind": "removeBranch", "selector": { "branch": "qa" } }),
        ],
    );
    let referenced = issue(
        &failure,
        "branch_referenced",
        "operations[2].selector.branch",
    );
    assert!(referenced.message.contains("s1"), "{}", referenced.message);
    issue(
        &failure,
        "branch_not_empty",
        "operations[2].selector.branch",
    );
}

// ---------------------------------------------------------------- addPackage

fn movie_clip_input(id: &str, bytes: &[u8]) -> Value {
    let unity = unity();
    let clip = unity
        .project
        .packages
        .iter()
        .find(|p| p.name == "ModalWaiting")
        .and_then(|p| p.resources.iter().find(|r| r.kind() == "movieClip"))
        .expect("ModalWaiting movie clip");
    let mut value = serde_json::to_value(clip.as_ref()).expect("serializes");
    let object = value.as_object_mut().expect("object");
    object.remove("sourcePath");
    object.insert("id".into(), json!(id));
    object.insert("path".into(), json!("/clips/"));
    // The model is rebuilt from the bytes: start from nothing.
    object.insert("dimensions".into(), json!({ "width": 0, "height": 0 }));
    object["movieClip"]["frames"] = json!([]);
    object.insert("sourceBytes".into(), json!(bytes));
    value
}

fn qtm011() -> &'static [u8] {
    base_bytes(unity(), "assets/ModalWaiting/qtm011.jta")
}

#[test]
fn add_package_inserts_a_complete_package_with_its_files() {
    let source = experiments();
    let mut image = image_input("x1", "/images", "", json!([]));
    // The PNG header wins over a declared size.
    image["dimensions"] = json!({ "width": 1, "height": 1 });
    // The reader's naming wins: name is the file name without its extension.
    image["name"] = json!("Face Icon");
    let mut main = component_json(&source.project, BRANCH, "kn7w0");
    main["kind"] = json!("component");
    main["id"] = json!("x3");
    main["branchItemIds"] = json!([]);
    let mut input = package_input(
        "extra001",
        "Extra",
        json!([]),
        vec![image, movie_clip_input("x2", qtm011()), main],
    );
    input["folders"] = json!([folder("/clips/"), folder("/images/")]);
    let applied = apply(
        source,
        vec![json!({ "kind": "addPackage", "atIndex": 1, "package": input })],
    );
    let project = &applied.project;
    assert_eq!(project.packages.len(), source.project.packages.len() + 1);
    let added = &project.packages[1];
    assert_eq!(
        (added.id.as_str(), added.name.as_str()),
        ("extra001", "Extra")
    );
    let folders: Vec<&str> = added.folders.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(folders, ["/clips/", "/images/"]);

    let UamResource::Image(image) = resource(project, "extra001", "x1") else {
        panic!("image");
    };
    assert_eq!(
        image.base.source_path.as_deref(),
        Some("assets/Extra/images/face.png")
    );
    assert_eq!(image.base.name, "face");
    let size = image.dimensions.as_ref().expect("dimensions");
    assert_eq!((size.width.get(), size.height.get()), (60.0, 58.0));
    assert_eq!(
        changed(&applied, "assets/Extra/images/face.png"),
        Some(&Some(base_bytes(source, "assets/Branch/face.png").to_vec()))
    );

    let UamResource::MovieClip(clip) = resource(project, "extra001", "x2") else {
        panic!("movie clip");
    };
    assert_eq!(
        clip.base.source_path.as_deref(),
        Some("assets/Extra/clips/qtm011.jta")
    );
    let UamResource::MovieClip(original) = unity()
        .project
        .packages
        .iter()
        .find(|p| p.name == "ModalWaiting")
        .and_then(|p| p.resources.iter().find(|r| r.kind() == "movieClip"))
        .map(|r| r.as_ref())
        .expect("clip")
    else {
        panic!("movie clip");
    };
    assert!(!clip.movie_clip.frames.is_empty());
    assert_eq!(clip.movie_clip.frames, original.movie_clip.frames);
    assert_eq!(clip.dimensions, original.dimensions);
    assert_eq!(
        changed(&applied, "assets/Extra/clips/qtm011.jta"),
        Some(&Some(qtm011().to_vec()))
    );

    let component = resource(project, "extra001", "x3");
    assert_eq!(component.source_path(), Some("assets/Extra/Main.xml"));
    assert_eq!(
        component.component(),
        resource(&source.project, BRANCH, "kn7w0").component()
    );
    assert_eq!(applied.bytes.len(), 2);
}

#[test]
fn add_package_refuses_bad_identity_settings_and_index() {
    let source = experiments();
    let add = |package: Value, at_index: u32| {
        vec![json!({ "kind": "addPackage", "atIndex": at_index, "package": package })]
    };

    let failure = fail(
        source,
        add(package_input("", "Extra", json!([]), vec![]), 0),
    );
    only(
        &failure,
        "invalid_package_payload",
        "operations[0].package.id",
    );
    let failure = fail(
        source,
        add(package_input("extra001", "con", json!([]), vec![]), 0),
    );
    only(
        &failure,
        "invalid_package_payload",
        "operations[0].package.name",
    );
    let failure = fail(
        source,
        add(package_input(BRANCH, "Extra", json!([]), vec![]), 0),
    );
    only(&failure, "duplicate_package_id", "operations[0].package.id");
    // Package directories collide regardless of letter case.
    let failure = fail(
        source,
        add(package_input("extra001", "branch", json!([]), vec![]), 0),
    );
    only(
        &failure,
        "duplicate_package_name",
        "operations[0].package.name",
    );
    let failure = fail(
        source,
        add(package_input("extra001", "Extra", json!([]), vec![]), 3),
    );
    only(&failure, "invalid_package_index", "operations[0].atIndex");
    let failure = fail(
        source,
        add(
            package_input("extra001", "Extra", json!(["prod"]), vec![]),
            0,
        ),
    );
    only(
        &failure,
        "invalid_package_payload",
        "operations[0].package.branchNames[0]",
    );

    // Upstream's package settings rules: publish must be a complete snapshot.
    let mut input = package_input("extra001", "Extra", json!([]), vec![]);
    input["publish"] = Value::Null;
    let failure = fail(source, add(input, 0));
    only(
        &failure,
        "invalid_package_settings",
        "operations[0].package.publish",
    );
    let mut input = package_input("extra001", "Extra", json!([]), vec![]);
    input["jpegQuality"] = json!(0);
    input["publish"]["sizeOption"] = json!("huge");
    let failure = fail(source, add(input, 0));
    issue(
        &failure,
        "invalid_package_settings",
        "operations[0].package.jpegQuality",
    );
    issue(
        &failure,
        "invalid_package_settings",
        "operations[0].package.publish.sizeOption",
    );
    assert_eq!(failure.issues.len(), 2);
}

#[test]
fn add_package_refuses_bad_resources() {
    let source = experiments();
    let add = |resources: Vec<Value>| {
        vec![json!({
            "kind": "addPackage",
            "atIndex": 0,
            "package": package_input("extra001", "Extra", json!([]), resources)
        })]
    };

    let mut no_bytes = image_input("x1", "/", "", json!([]));
    no_bytes
        .as_object_mut()
        .expect("object")
        .remove("sourceBytes");
    let failure = fail(source, add(vec![no_bytes]));
    let missing = issue(
        &failure,
        "unavailable_resource_source_bytes",
        "operations[0].package.resources[0].sourceBytes",
    );
    assert_eq!(missing.resource_kind.as_deref(), Some("image"));

    let mut input = package_input(
        "extra001",
        "Extra",
        json!([]),
        vec![movie_clip_input("x2", b"not a jta file")],
    );
    input["folders"] = json!([folder("/clips/")]);
    let failure = fail(
        source,
        vec![json!({ "kind": "addPackage", "atIndex": 0, "package": input })],
    );
    only(
        &failure,
        "invalid_movie_clip_jta",
        "operations[0].package.resources[0].sourceBytes",
    );

    let mut input = package_input(
        "extra001",
        "Extra",
        json!([]),
        vec![
            image_input("x1", "/", "", json!([])),
            image_input("x1", "/b/", "", json!([])),
        ],
    );
    input["folders"] = json!([folder("/b/")]);
    let failure = fail(
        source,
        vec![json!({ "kind": "addPackage", "atIndex": 0, "package": input })],
    );
    only(
        &failure,
        "duplicate_resource_id",
        "operations[0].package.resources[1].id",
    );

    // Every resource folder must be listed in the package's folders.
    let failure = fail(source, add(vec![image_input("x1", "/b/", "", json!([]))]));
    only(
        &failure,
        "invalid_package_payload",
        "operations[0].package.resources[0].path",
    );

    // Bytes that validation would call corrupt are refused, as for addResource.
    let mut corrupt = image_input("x1", "/", "", json!([]));
    corrupt["sourceBytes"] = json!([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    let failure = fail(source, add(vec![corrupt]));
    only(
        &failure,
        "invalid_resource_bytes",
        "operations[0].package.resources[0].sourceBytes",
    );

    // Two resources written to one file (face.png in /).
    let failure = fail(
        source,
        add(vec![
            image_input("x1", "/", "", json!([])),
            image_input("x2", "/", "", json!([])),
        ]),
    );
    only(
        &failure,
        "invalid_package_payload",
        "operations[0].package.resources[1].name",
    );

    // A variant slot must name the resource the reader would link.
    let failure = fail(
        source,
        vec![json!({
            "kind": "addPackage",
            "atIndex": 0,
            "package": package_input("extra001", "Extra", json!(["dev"]), vec![
                image_input("x1", "/", "", json!(["x9"])),
            ])
        })],
    );
    let slot = issue(
        &failure,
        "invalid_package_payload",
        "operations[0].package.resources[0].branchItemIds[0]",
    );
    assert!(slot.message.contains("x9"));
}

// ---------------------------------------------------------------- renamePackage

#[test]
fn rename_package_moves_every_file_of_the_package() {
    let source = unity();
    let applied = apply(
        source,
        vec![
            json!({ "kind": "renamePackage", "selector": { "packageId": JOYSTICK }, "newName": "Stick" }),
        ],
    );
    let project = &applied.project;
    let joystick = package(project, JOYSTICK);
    assert_eq!(joystick.name, "Stick");
    // The publish name followed the package name it was filled from.
    assert_eq!(joystick.publish.as_ref().expect("publish").name, "Stick");
    assert_eq!(
        resource(project, JOYSTICK, "iitt1").source_path(),
        Some("assets/Stick/Main.xml")
    );
    assert_eq!(
        resource(project, JOYSTICK, "q9do19").source_path(),
        Some("assets/Stick/images/1.png")
    );
    for file in ["1.png", "0.png"] {
        let old = format!("assets/Joystick/images/{file}");
        let new = format!("assets/Stick/images/{file}");
        assert_eq!(
            changed(&applied, &new),
            Some(&Some(base_bytes(source, &old).to_vec()))
        );
        assert_eq!(changed(&applied, &old), Some(&None));
    }
    assert_eq!(applied.bytes.len(), 4);
    // Other packages are untouched.
    assert_eq!(package(project, GESTURE).name, "Gesture");
}

#[test]
fn rename_package_moves_branch_files_too() {
    let source = experiments();
    let applied = apply(
        source,
        vec![
            json!({ "kind": "renamePackage", "selector": { "packageId": BRANCH }, "newName": "Twig" }),
        ],
    );
    let project = &applied.project;
    assert_eq!(
        resource(project, BRANCH, "kn7w1").source_path(),
        Some("assets/Twig/face.png")
    );
    assert_eq!(
        resource(project, BRANCH, "kn7w2").source_path(),
        Some("assets_dev/Twig/face.png")
    );
    assert_eq!(
        resource(project, BRANCH, "kn7w3").source_path(),
        Some("assets_dev/Twig/Main.xml")
    );
    assert_eq!(
        changed(&applied, "assets_dev/Twig/face.png"),
        Some(&Some(
            base_bytes(source, "assets_dev/Branch/face.png").to_vec()
        ))
    );
    assert_eq!(changed(&applied, "assets_dev/Branch/face.png"), Some(&None));
}

#[test]
fn rename_package_refuses_unknown_unsafe_and_taken_names() {
    let rename = |id: &str, name: &str| {
        vec![json!({ "kind": "renamePackage", "selector": { "packageId": id }, "newName": name })]
    };
    let failure = fail(unity(), rename("nope0000", "Stick"));
    only(
        &failure,
        "invalid_package_selector",
        "operations[0].selector.packageId",
    );
    let failure = fail(unity(), rename(JOYSTICK, "a/b"));
    only(&failure, "invalid_package_payload", "operations[0].newName");
    let failure = fail(unity(), rename(JOYSTICK, "basics"));
    only(&failure, "duplicate_package_name", "operations[0].newName");
    // A case-only rename of the package itself is fine.
    let applied = apply(unity(), rename(JOYSTICK, "JOYSTICK"));
    assert_eq!(
        resource(&applied.project, JOYSTICK, "q9do19").source_path(),
        Some("assets/JOYSTICK/images/1.png")
    );
}

// ---------------------------------------------------------------- removePackage

#[test]
fn remove_package_removes_it_and_its_bytes() {
    let source = unity();
    let applied = apply(
        source,
        vec![json!({ "kind": "removePackage", "selector": { "packageId": JOYSTICK } })],
    );
    assert_eq!(applied.project.packages.len(), 29);
    assert!(applied.project.packages.iter().all(|p| p.id != JOYSTICK));
    assert_eq!(
        changed(&applied, "assets/Joystick/images/1.png"),
        Some(&None)
    );
    assert_eq!(
        changed(&applied, "assets/Joystick/images/0.png"),
        Some(&None)
    );
    assert_eq!(applied.bytes.len(), 2);

    // Branch files go too.
    let applied = apply(
        experiments(),
        vec![json!({ "kind": "removePackage", "selector": { "packageId": BRANCH } })],
    );
    assert_eq!(changed(&applied, "assets_dev/Branch/face.png"), Some(&None));
    assert_eq!(changed(&applied, "assets/Branch/face.png"), Some(&None));

    let failure = fail(
        source,
        vec![json!({ "kind": "removePackage", "selector": { "packageId": "nope0000" } })],
    );
    only(
        &failure,
        "invalid_package_selector",
        "operations[0].selector.packageId",
    );
}

/// A component for Gesture whose only node is an instance of Joystick's circle.
fn component_using_circle(id: &str) -> Value {
    let project = &unity().project;
    let mut component = component_json(project, GESTURE, "t5or0");
    component["id"] = json!(id);
    component["name"] = json!(format!("Uses{id}"));
    let joystick_main = resource(project, JOYSTICK, "iitt1")
        .component()
        .expect("component");
    let mut node = serde_json::to_value(
        joystick_main
            .display_list
            .iter()
            .find(|n| n.id() == "n4")
            .expect("node n4"),
    )
    .expect("serializes");
    node["resource"]["packageId"] = json!(JOYSTICK);
    component["component"]["displayList"] = json!([node]);
    component
}

/// A fresh component instance node n99 for attaching (a copy of Joystick Main's n4
/// without gears or relations); the caller points its resource.
fn new_instance_node(project: &UamProject) -> Value {
    let main = resource(project, JOYSTICK, "iitt1")
        .component()
        .expect("component");
    let n4 = main
        .display_list
        .iter()
        .find(|n| n.id() == "n4")
        .expect("node n4");
    let mut node = serde_json::to_value(n4).expect("serializes");
    node["id"] = json!("n99");
    node["name"] = json!("n99");
    node["gears"] = json!([]);
    node["relations"] = json!([]);
    node
}

fn add_component(package_id: &str, component: Value, at_index: u32) -> Value {
    json!({
        "kind": "addComponent",
        "selector": { "packageId": package_id },
        "component": component,
        "atIndex": at_index
    })
}

#[test]
fn remove_package_is_refused_while_referenced_at_the_end_of_the_batch() {
    let source = unity();
    let failure = fail(
        source,
        vec![
            add_component(GESTURE, component_using_circle("u1"), 1),
            json!({ "kind": "removePackage", "selector": { "packageId": JOYSTICK } }),
        ],
    );
    let referenced = issue(
        &failure,
        "package_referenced",
        "operations[1].selector.packageId",
    );
    assert!(
        referenced.message.contains(JOYSTICK),
        "{}",
        referenced.message
    );
    assert_eq!(failure.issues.len(), 1, "{:#?}", failure.issues);

    // Dropping the reference later in the same batch makes the removal valid.
    let applied = apply(
        source,
        vec![
            add_component(GESTURE, component_using_circle("u1"), 1),
            json!({ "kind": "removePackage", "selector": { "packageId": JOYSTICK } }),
            remove_component(GESTURE, "u1"),
        ],
    );
    assert!(applied.project.packages.iter().all(|p| p.id != JOYSTICK));
    assert_eq!(package(&applied.project, GESTURE).resources.len(), 1);
}

#[test]
fn an_instance_may_be_attached_before_its_component_is_added() {
    let source = unity();
    let project = &source.project;
    let mut copy = component_json(project, JOYSTICK, "q9do18");
    copy["id"] = json!("new01");
    copy["name"] = json!("circle2");
    let mut node = new_instance_node(project);
    node["resource"] = json!({ "resourceId": "new01" });
    let attach = json!({
        "kind": "attachDisplayNode",
        "selector": { "packageId": JOYSTICK, "componentResourceId": "iitt1" },
        "atIndex": 0,
        "node": node
    });
    // The reference is judged on the final state: the component arrives later.
    let applied = apply(
        source,
        vec![attach.clone(), add_component(JOYSTICK, copy, 0)],
    );
    let main = resource(&applied.project, JOYSTICK, "iitt1")
        .component()
        .expect("component");
    assert_eq!(main.display_list[0].id(), "n99");

    // If it never arrives, the attach is blamed with the spec's code.
    let failure = fail(source, vec![attach]);
    only(
        &failure,
        "invalid_component_reference",
        "operations[0].node.resource.resourceId",
    );
}

// ---------------------------------------------------------------- addComponent

#[test]
fn add_component_inserts_a_normalized_copy() {
    let source = unity();
    let mut copy = component_json(&source.project, JOYSTICK, "q9do18");
    copy["id"] = json!("new01");
    copy["name"] = json!("circle2");
    copy["path"] = json!("/images");
    let applied = apply(source, vec![add_component(JOYSTICK, copy, 0)]);
    let joystick = package(&applied.project, JOYSTICK);
    assert_eq!(joystick.resources.len(), 5);
    let added = &joystick.resources[0];
    assert_eq!(added.id(), "new01");
    assert_eq!(added.path(), "/images/");
    assert_eq!(
        added.source_path(),
        Some("assets/Joystick/images/circle2.xml")
    );
    assert_eq!(
        added.component(),
        resource(&source.project, JOYSTICK, "q9do18").component()
    );
    assert_eq!(joystick.folders, package(&source.project, JOYSTICK).folders);
    assert!(applied.bytes.is_empty());
}

#[test]
fn add_component_refuses_bad_payloads() {
    let source = unity();
    let circle = || component_json(&source.project, JOYSTICK, "q9do18");
    let renamed = |id: &str, name: &str| {
        let mut c = circle();
        c["id"] = json!(id);
        c["name"] = json!(name);
        c
    };

    let failure = fail(
        source,
        vec![add_component("nope0000", renamed("new01", "c2"), 0)],
    );
    only(
        &failure,
        "invalid_package_selector",
        "operations[0].selector.packageId",
    );
    let failure = fail(
        source,
        vec![add_component(JOYSTICK, renamed("q9do19", "c2"), 0)],
    );
    only(
        &failure,
        "duplicate_component_id",
        "operations[0].component.id",
    );
    let failure = fail(
        source,
        vec![add_component(JOYSTICK, renamed("new01", "c2"), 5)],
    );
    only(&failure, "invalid_component_index", "operations[0].atIndex");
    let failure = fail(source, vec![add_component(JOYSTICK, renamed("", "c2"), 0)]);
    only(
        &failure,
        "invalid_component_payload",
        "operations[0].component.id",
    );
    let failure = fail(
        source,
        vec![add_component(JOYSTICK, renamed("new01", "a:b"), 0)],
    );
    only(
        &failure,
        "invalid_component_payload",
        "operations[0].component.name",
    );
    let mut elsewhere = renamed("new01", "c2");
    elsewhere["path"] = json!("/widgets/");
    let failure = fail(source, vec![add_component(JOYSTICK, elsewhere, 0)]);
    only(
        &failure,
        "invalid_component_payload",
        "operations[0].component.path",
    );
    // Main.xml is taken (case-insensitively) by iitt1.
    let failure = fail(
        source,
        vec![add_component(JOYSTICK, renamed("new01", "MAIN"), 0)],
    );
    only(
        &failure,
        "invalid_component_payload",
        "operations[0].component.name",
    );

    // The model must pass the structural checks.
    let mut broken = renamed("new01", "c2");
    broken["component"]["size"] = json!({ "width": -5, "height": 10 });
    let failure = fail(source, vec![add_component(JOYSTICK, broken, 0)]);
    only(
        &failure,
        "invalid_component_payload",
        "operations[0].component.component.size",
    );
    let mut broken = renamed("new01", "c2");
    broken["component"]["displayList"][0]["gears"][0]["controllerName"] = json!("nope");
    let failure = fail(source, vec![add_component(JOYSTICK, broken, 0)]);
    only(
        &failure,
        "invalid_component_payload",
        "operations[0].component.component.displayList[0].gears[0].controllerName",
    );

    // An image node may not point into another package.
    let mut cross = renamed("new01", "c2");
    cross["component"]["displayList"][0]["resource"]["packageId"] = json!(GESTURE);
    let failure = fail(source, vec![add_component(JOYSTICK, cross, 0)]);
    only(
        &failure,
        "unsupported_cross_package_image_ref",
        "operations[0].component.component.displayList[0].resource.packageId",
    );
}

// ---------------------------------------------------------------- removeComponent

#[test]
fn remove_component_removes_an_unreferenced_component() {
    let applied = apply(unity(), vec![remove_component(JOYSTICK, "iitt1")]);
    let joystick = package(&applied.project, JOYSTICK);
    assert!(joystick.resources.iter().all(|r| r.id() != "iitt1"));
    assert_eq!(joystick.resources.len(), 3);
}

#[test]
fn remove_component_is_refused_while_referenced() {
    let failure = fail(unity(), vec![remove_component(JOYSTICK, "q9do18")]);
    let referenced = issue(
        &failure,
        "component_referenced",
        "operations[0].selector.componentResourceId",
    );
    assert!(
        referenced.message.contains("q9do18"),
        "{}",
        referenced.message
    );
    assert_eq!(failure.issues.len(), 1, "{:#?}", failure.issues);

    // Removing the referrer too, in any order, is fine: references are checked at the end.
    let applied = apply(
        unity(),
        vec![
            remove_component(JOYSTICK, "q9do18"),
            remove_component(JOYSTICK, "iitt1"),
        ],
    );
    assert_eq!(package(&applied.project, JOYSTICK).resources.len(), 2);
}

#[test]
fn remove_component_is_fine_once_the_instance_is_detached() {
    let applied = apply(
        unity(),
        vec![
            json!({
                "kind": "detachDisplayNode",
                "selector": { "packageId": JOYSTICK, "componentResourceId": "iitt1", "displayNodeId": "n4" }
            }),
            remove_component(JOYSTICK, "q9do18"),
        ],
    );
    assert!(
        package(&applied.project, JOYSTICK)
            .resources
            .iter()
            .all(|r| r.id() != "q9do18")
    );
}

#[test]
fn remove_component_needs_a_component() {
    let failure = fail(unity(), vec![remove_component(JOYSTICK, "q9do19")]);
    only(
        &failure,
        "invalid_component_selector",
        "operations[0].selector.componentResourceId",
    );
    let failure = fail(unity(), vec![remove_component(JOYSTICK, "nope")]);
    only(
        &failure,
        "invalid_component_selector",
        "operations[0].selector.componentResourceId",
    );
    let failure = fail(unity(), vec![remove_component("nope0000", "iitt1")]);
    only(
        &failure,
        "invalid_component_selector",
        "operations[0].selector.packageId",
    );
}

#[test]
fn remove_component_clears_the_variant_slot_it_backed() {
    let applied = apply(experiments(), vec![remove_component(BRANCH, "kn7w3")]);
    let main = resource(&applied.project, BRANCH, "kn7w0");
    let UamResource::Component(main) = main else {
        panic!("component");
    };
    assert!(
        main.branch_item_ids.is_empty(),
        "{:?}",
        main.branch_item_ids
    );
}

// ---------------------------------------------------------------- moveComponent

#[test]
fn move_component_splices_it_into_the_target() {
    let source = unity();
    // Joystick's Main.xml would collide, so it goes first.
    let applied = apply(
        source,
        vec![
            remove_component(JOYSTICK, "iitt1"),
            move_component(GESTURE, "t5or0", JOYSTICK, 1),
        ],
    );
    let project = &applied.project;
    assert!(package(project, GESTURE).resources.is_empty());
    let joystick = package(project, JOYSTICK);
    assert_eq!(joystick.resources[1].id(), "t5or0");
    assert_eq!(
        joystick.resources[1].source_path(),
        Some("assets/Joystick/Main.xml")
    );
    assert_eq!(
        joystick.resources[1].component(),
        resource(&source.project, GESTURE, "t5or0").component()
    );
}

#[test]
fn move_component_refuses_bad_targets() {
    let source = unity();
    let failure = fail(source, vec![move_component(GESTURE, "t5or0", GESTURE, 0)]);
    only(
        &failure,
        "invalid_component_move",
        "operations[0].toPackageId",
    );
    let failure = fail(
        source,
        vec![move_component(GESTURE, "t5or0", "nope0000", 0)],
    );
    only(
        &failure,
        "invalid_package_selector",
        "operations[0].toPackageId",
    );
    let failure = fail(source, vec![move_component(GESTURE, "q9do19", JOYSTICK, 0)]);
    only(
        &failure,
        "invalid_component_selector",
        "operations[0].selector.componentResourceId",
    );
    let failure = fail(source, vec![move_component(GESTURE, "t5or0", JOYSTICK, 5)]);
    issue(&failure, "invalid_component_index", "operations[0].toIndex");
    // Joystick's Main.xml already takes assets/Joystick/Main.xml.
    let failure = fail(source, vec![move_component(GESTURE, "t5or0", JOYSTICK, 0)]);
    only(
        &failure,
        "invalid_component_move",
        "operations[0].toPackageId",
    );
    let taken = &failure.issues[0];
    // The resource holding the file exists and is valid: renaming is advised, not removal.
    assert!(
        taken.message.contains("renameResource") && !taken.message.contains("remove"),
        "{}",
        taken.message
    );

    let mut twin = component_json(&source.project, GESTURE, "t5or0");
    twin["name"] = json!("Twin");
    let failure = fail(
        source,
        vec![
            add_component(JOYSTICK, twin, 0),
            remove_component(JOYSTICK, "iitt1"),
            move_component(GESTURE, "t5or0", JOYSTICK, 0),
        ],
    );
    only(
        &failure,
        "duplicate_component_id",
        "operations[2].selector.componentResourceId",
    );

    // The component keeps its folder, which Gesture does not have.
    let failure = fail(
        source,
        vec![move_component("9leh0eyf", "poiq7e", GESTURE, 0)],
    );
    only(
        &failure,
        "invalid_component_move",
        "operations[0].toPackageId",
    );

    // Branch variants stay behind in their package, so the main component cannot move.
    let failure = fail(
        experiments(),
        vec![move_component(BRANCH, "kn7w0", "hzobybbt", 0)],
    );
    let variants = issue(
        &failure,
        "invalid_component_move",
        "operations[0].selector.componentResourceId",
    );
    assert!(variants.message.contains("kn7w3"), "{}", variants.message);
    assert!(
        variants.message.contains("keep it where it is")
            && variants.message.contains("only if the user asks"),
        "{}",
        variants.message
    );
}

#[test]
fn move_component_is_refused_while_it_uses_its_old_package() {
    // Joystick's Main uses image q9do1a and component q9do18 of its own package (Gesture's
    // Main goes first so the file name is free).
    let failure = fail(
        unity(),
        vec![
            remove_component(GESTURE, "t5or0"),
            move_component(JOYSTICK, "iitt1", GESTURE, 0),
        ],
    );
    let dependency = issue(
        &failure,
        "component_has_package_dependencies",
        "operations[1].selector.componentResourceId",
    );
    assert!(
        dependency.message.contains("q9do1a"),
        "{}",
        dependency.message
    );
    assert!(
        failure
            .issues
            .iter()
            .all(|issue| issue.code.as_str() == "component_has_package_dependencies"),
        "{:#?}",
        failure.issues
    );
}

#[test]
fn a_moved_component_may_drop_explicit_refs_to_its_old_package_later_in_the_batch() {
    let source = unity();
    let project = &source.project;
    // Gesture gets a second component (a copy of its Main, which holds only a graph and a
    // text), and its Main an instance of it naming Gesture explicitly.
    let mut circle = component_json(project, GESTURE, "t5or0");
    circle["id"] = json!("x1");
    circle["name"] = json!("Copy");
    let mut node = new_instance_node(project);
    node["resource"] = json!({ "packageId": GESTURE, "resourceId": "x1" });
    node.as_object_mut()
        .expect("object")
        .remove("instanceProperties");
    let setup = vec![
        add_component(GESTURE, circle, 1),
        json!({
            "kind": "attachDisplayNode",
            "selector": { "packageId": GESTURE, "componentResourceId": "t5or0" },
            "atIndex": 0,
            "node": node
        }),
        remove_component(JOYSTICK, "iitt1"),
        move_component(GESTURE, "t5or0", JOYSTICK, 1),
    ];
    let failure = fail(source, setup.clone());
    only(
        &failure,
        "component_has_package_dependencies",
        "operations[3].selector.componentResourceId",
    );
    let dependency = issue(
        &failure,
        "component_has_package_dependencies",
        "operations[3].selector.componentResourceId",
    );
    assert!(dependency.message.contains("n99"), "{}", dependency.message);

    // Detaching the node after the move settles it.
    let mut batch = setup;
    batch.push(json!({
        "kind": "detachDisplayNode",
        "selector": { "packageId": JOYSTICK, "componentResourceId": "t5or0", "displayNodeId": "n99" }
    }));
    let applied = apply(source, batch);
    assert_eq!(
        package(&applied.project, JOYSTICK).resources[1].id(),
        "t5or0"
    );
}

#[test]
fn move_component_is_refused_while_its_old_location_is_referenced() {
    // BagWin's list uses ui://rbw1tv9tosdok as its default item.
    let failure = fail(unity(), vec![move_component(BAG, "osdok", GESTURE, 0)]);
    let referenced = issue(
        &failure,
        "component_referenced",
        "operations[0].selector.componentResourceId",
    );
    assert!(
        referenced.message.contains("ui://rbw1tv9tosdok"),
        "{}",
        referenced.message
    );
    assert_eq!(failure.issues.len(), 1, "{:#?}", failure.issues);

    // Detaching the list first frees the move.
    let applied = apply(
        unity(),
        vec![
            json!({
                "kind": "detachDisplayNode",
                "selector": { "packageId": BAG, "componentResourceId": "kcy10", "displayNodeId": "n25_osdo" }
            }),
            move_component(BAG, "osdok", GESTURE, 1),
        ],
    );
    let moved = &package(&applied.project, GESTURE).resources[1];
    assert_eq!(moved.id(), "osdok");
    assert_eq!(moved.source_path(), Some("assets/Gesture/dot.xml"));
}

// ---------------------------------------------------------------- setComponentProps

fn set_props(package_id: &str, id: &str, props: Value) -> Vec<Value> {
    vec![json!({
        "kind": "setComponentProps",
        "selector": { "packageId": package_id, "componentResourceId": id },
        "props": props
    })]
}

fn properties_json(package_id: &str, id: &str) -> Value {
    let component = resource(&unity().project, package_id, id)
        .component()
        .expect("component");
    serde_json::to_value(&component.properties).expect("serializes")
}

#[test]
fn set_component_props_replaces_the_given_parts() {
    let source = unity();
    let applied = apply(
        source,
        set_props(
            JOYSTICK,
            "iitt1",
            json!({ "size": { "width": 800, "height": 480 } }),
        ),
    );
    let model = resource(&applied.project, JOYSTICK, "iitt1")
        .component()
        .expect("component");
    assert_eq!(
        (model.size.width.get(), model.size.height.get()),
        (800.0, 480.0)
    );
    let before = resource(&source.project, JOYSTICK, "iitt1")
        .component()
        .expect("component");
    assert_eq!(model.properties, before.properties);
    assert_eq!(model.display_list, before.display_list);

    let mut properties = properties_json(JOYSTICK, "q9do18");
    properties["remark"] = json!("the thumb");
    properties["opaque"] = json!(false);
    properties["designImage"] = json!("ui://rbw1tvvvq9do19");
    let applied = apply(
        source,
        set_props(JOYSTICK, "q9do18", json!({ "properties": properties })),
    );
    let model = resource(&applied.project, JOYSTICK, "q9do18")
        .component()
        .expect("component");
    assert_eq!(model.properties.remark, "the thumb");
    assert!(!model.properties.opaque);
    assert_eq!(model.properties.design_image, "ui://rbw1tvvvq9do19");
    assert_eq!(model.properties.extension_type, "Button");
    assert_eq!(model.size, before_size(JOYSTICK, "q9do18"));
}

fn before_size(package_id: &str, id: &str) -> ofgui_contracts::uam::Size {
    resource(&unity().project, package_id, id)
        .component()
        .expect("component")
        .size
        .clone()
}

#[test]
fn set_component_props_refuses_bad_payloads() {
    let source = unity();
    let failure = fail(source, set_props(JOYSTICK, "iitt1", json!({})));
    only(&failure, "invalid_component_payload", "operations[0].props");
    let failure = fail(
        source,
        set_props(
            JOYSTICK,
            "iitt1",
            json!({ "size": { "width": -1, "height": 10 } }),
        ),
    );
    only(
        &failure,
        "invalid_component_payload",
        "operations[0].props.size.width",
    );
    let failure = fail(
        source,
        set_props(
            JOYSTICK,
            "iitt1",
            json!({ "size": { "width": 10, "height": 3e9 } }),
        ),
    );
    only(
        &failure,
        "invalid_component_payload",
        "operations[0].props.size.height",
    );
    let failure = fail(
        source,
        set_props(
            JOYSTICK,
            "q9do19",
            json!({ "size": { "width": 1, "height": 1 } }),
        ),
    );
    only(
        &failure,
        "invalid_component_selector",
        "operations[0].selector.componentResourceId",
    );

    let mut properties = properties_json(JOYSTICK, "iitt1");
    properties["overflow"] = json!(7);
    properties["extensionType"] = json!("Knob");
    let failure = fail(
        source,
        set_props(JOYSTICK, "iitt1", json!({ "properties": properties })),
    );
    issue(
        &failure,
        "invalid_component_payload",
        "operations[0].props.properties.overflow",
    );
    issue(
        &failure,
        "invalid_component_payload",
        "operations[0].props.properties.extensionType",
    );
    assert_eq!(failure.issues.len(), 2);

    // An incomplete snapshot does not even parse as an operation.
    let mut properties = properties_json(JOYSTICK, "iitt1");
    properties.as_object_mut().expect("object").remove("remark");
    let incomplete = json!({
        "kind": "setComponentProps",
        "selector": { "packageId": JOYSTICK, "componentResourceId": "iitt1" },
        "props": { "properties": properties }
    });
    assert!(serde_json::from_value::<Operation>(incomplete).is_err());

    // References in the properties are checked on the final state.
    let mut properties = properties_json(JOYSTICK, "iitt1");
    properties["designImage"] = json!("ui://rbw1tvvvmissing");
    let failure = fail(
        source,
        set_props(JOYSTICK, "iitt1", json!({ "properties": properties })),
    );
    let dangling = issue(&failure, "invalid_resource_reference", "operations[0]");
    assert!(
        dangling.message.contains("ui://rbw1tvvvmissing"),
        "{}",
        dangling.message
    );
}

// ---------------------------------------------------------------- atomicity

#[test]
fn a_failing_batch_leaves_the_input_untouched() {
    let source = experiments();
    let before = serde_json::to_value(&source.project).expect("serializes");
    let failure = fail(
        source,
        vec![
            json!({ "kind": "renameBranch", "selector": { "branch": "dev" }, "newName": "qa" }),
            json!({ "kind": "removeBranch", "selector": { "branch": "qa" } }),
        ],
    );
    // The second op sees the renamed branch, and it still holds the variants.
    issue(
        &failure,
        "branch_not_empty",
        "operations[1].selector.branch",
    );
    assert_eq!(
        serde_json::to_value(&source.project).expect("serializes"),
        before
    );
    let sizes: BTreeMap<&String, usize> = source.bytes.iter().map(|(k, v)| (k, v.len())).collect();
    assert!(sizes.contains_key(&"assets_dev/Branch/face.png".to_string()));
}
