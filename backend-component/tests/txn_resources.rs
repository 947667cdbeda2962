//! Settings, resource and folder transactions on the two real corpora: each operation's
//! effect on the model and bytes, and its documented failure codes.

use std::sync::OnceLock;

use crate::common::wording::well_worded;
use ofgui_backend::fs::StdFs;
use ofgui_backend::reader::{ProjectSource, read_project};
use ofgui_backend::testing::{experiments_root, unity_root};
use ofgui_backend::txn::{Applied, Failure, run};
use ofgui_contracts::Num;
use ofgui_contracts::ops::Operation;
use ofgui_contracts::uam::{ResourceFolder, Size, UamPackage, UamProject, UamResource};
use serde_json::{Value, json};

const BASICS: &str = "9leh0eyf";
const PULL: &str = "3u9795n0";
const TREE: &str = "5nx1f8vz";
const BRANCH: &str = "a9lkf94s";
const LOADER: &str = "hzobybbt";

fn unity() -> &'static ProjectSource {
    static SOURCE: OnceLock<ProjectSource> = OnceLock::new();
    SOURCE.get_or_init(|| {
        read_project(&StdFs::new(unity_root()), "FairyGUI-Unity-Examples.fairy")
            .expect("unity reads")
    })
}

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

fn operations(ops: Value) -> Vec<Operation> {
    serde_json::from_value(ops).expect("operations parse")
}

fn apply(source: &ProjectSource, ops: Value) -> Applied {
    match run(&source.project, &source.bytes, &operations(ops)) {
        Ok(applied) => applied,
        Err(failure) => panic!("batch failed: {failure:#?}"),
    }
}

fn fail(source: &ProjectSource, ops: Value) -> Failure {
    match run(&source.project, &source.bytes, &operations(ops)) {
        Ok(_) => panic!("batch unexpectedly succeeded"),
        Err(failure) => well_worded(failure),
    }
}

/// `(code, path)` of every issue.
fn issues(failure: &Failure) -> Vec<(&'static str, String)> {
    failure
        .issues
        .iter()
        .map(|i| (i.code.as_str(), i.path.clone()))
        .collect()
}

fn assert_issue(failure: &Failure, code: &str, path: &str) {
    assert!(
        failure
            .issues
            .iter()
            .any(|i| i.code.as_str() == code && i.path == path),
        "expected {code} at {path}, got {:#?}",
        issues(failure)
    );
    assert_eq!(failure.code.as_str(), "transaction_unsupported");
}

fn package<'a>(project: &'a UamProject, id: &str) -> &'a UamPackage {
    project
        .packages
        .iter()
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("package {id}"))
}

fn resource<'a>(project: &'a UamProject, package_id: &str, id: &str) -> &'a UamResource {
    package(project, package_id)
        .resources
        .iter()
        .find(|r| r.id() == id)
        .map(AsRef::as_ref)
        .unwrap_or_else(|| panic!("resource {id}"))
}

fn folder<'a>(
    project: &'a UamProject,
    package_id: &str,
    branch: &str,
    path: &str,
) -> Option<&'a ResourceFolder> {
    package(project, package_id)
        .folders
        .iter()
        .find(|f| f.branch == branch && f.path == path)
}

fn file_bytes(source: &ProjectSource, path: &str) -> Vec<u8> {
    source
        .bytes
        .get(path)
        .unwrap_or_else(|| panic!("bytes of {path}"))
        .clone()
}

fn image_size(resource: &UamResource) -> Size {
    match resource {
        UamResource::Image(image) => image.dimensions.clone().expect("image dimensions"),
        other => panic!("{} is not an image", other.id()),
    }
}

fn size(width: f64, height: f64) -> Size {
    Size {
        width: Num(width),
        height: Num(height),
    }
}

/// The package's settings as an `updatePackageSettings` payload.
fn package_settings(project: &UamProject, id: &str) -> Value {
    let pkg = package(project, id);
    json!({
        "compressPNG": pkg.compress_png,
        "jpegQuality": pkg.jpeg_quality,
        "publish": serde_json::to_value(&pkg.publish).expect("publish serializes"),
    })
}

fn image_input(id: &str, file: &str, path: &str, bytes: &[u8]) -> Value {
    json!({
        "kind": "image", "id": id, "name": file, "fileName": file, "path": path,
        "exported": false, "favorite": false, "branch": "", "branchItemIds": [],
        "image": {
            "textureSetMode": "", "qualityOption": "", "quality": 0, "smoothing": true,
            "duplicatePadding": false, "scaleOption": 0, "scale9Grid": null, "tileGridIndice": 0
        },
        "sourceBytes": bytes,
    })
}

/// A PNG whose first data chunk has one byte changed, so its CRC no longer matches.
fn corrupt_png(bytes: &[u8]) -> Vec<u8> {
    let mut corrupt = bytes.to_vec();
    let idat = corrupt
        .windows(4)
        .position(|w| w == b"IDAT")
        .expect("IDAT chunk");
    corrupt[idat + 6] ^= 0xff;
    corrupt
}

// ---------------------------------------------------------------- settings

#[test]
fn update_project_settings_replaces_all_settings() {
    let source = unity();
    let mut settings = serde_json::to_value(&source.project.settings).unwrap();
    settings["common"]["fontSize"] = json!(20);
    settings["customProperties"] = json!({ "theme": "dark" });
    settings["extraKey"] = json!({ "kept": true });
    let applied = apply(
        source,
        json!([{ "kind": "updateProjectSettings", "settings": settings }]),
    );
    assert_eq!(applied.project.settings["common"]["fontSize"], json!(20));
    assert_eq!(
        applied.project.settings["customProperties"],
        json!({ "theme": "dark" })
    );
    assert_eq!(
        applied.project.settings["extraKey"],
        json!({ "kept": true })
    );
    assert_eq!(
        applied.project.settings["publish"],
        source.project.settings["publish"]
    );
    assert!(applied.bytes.is_empty());
}

#[test]
fn update_project_settings_reports_every_mistyped_field() {
    let source = unity();
    let mut settings = serde_json::to_value(&source.project.settings).unwrap();
    settings["publish"]["path"] = json!(3);
    settings["common"]["scrollBars"] = json!("visible");
    settings["customProperties"] = json!([]);
    settings["i18n"] = json!({ "langFiles": [{ "name": "en" }] });
    let failure = fail(
        source,
        json!([{ "kind": "updateProjectSettings", "settings": settings }]),
    );
    assert_issue(
        &failure,
        "invalid_project_settings",
        "operations[0].settings.publish.path",
    );
    assert_issue(
        &failure,
        "invalid_project_settings",
        "operations[0].settings.common.scrollBars",
    );
    assert_issue(
        &failure,
        "invalid_project_settings",
        "operations[0].settings.customProperties",
    );
    assert_issue(
        &failure,
        "invalid_project_settings",
        "operations[0].settings.i18n.langFiles",
    );
    assert_eq!(failure.issues.len(), 4);
}

#[test]
fn update_project_settings_unchanged_ignores_key_order_numbers_and_empty_blocks() {
    let source = experiments();
    // The same settings, keys reversed and 1136 written as 1136.0.
    let mut reversed = serde_json::Map::new();
    for (key, value) in source.project.settings.iter().rev() {
        reversed.insert(key.clone(), value.clone());
    }
    reversed["adaptation"]["designResolutionX"] = json!(1136.0);
    let failure = fail(
        source,
        json!([{ "kind": "updateProjectSettings", "settings": reversed }]),
    );
    assert_eq!(
        issues(&failure),
        vec![(
            "project_settings_unchanged",
            "operations[0].settings".to_string()
        )]
    );

    // A missing adaptation block equals the {} an earlier operation set.
    let mut empty_adaptation = source.project.settings.clone();
    empty_adaptation.insert("adaptation".into(), json!({}));
    let mut without = source.project.settings.clone();
    without.shift_remove("adaptation");
    let failure = fail(
        source,
        json!([
            { "kind": "updateProjectSettings", "settings": empty_adaptation },
            { "kind": "updateProjectSettings", "settings": without }
        ]),
    );
    assert_eq!(
        issues(&failure),
        vec![(
            "project_settings_unchanged",
            "operations[1].settings".to_string()
        )]
    );
}

#[test]
fn update_package_settings_replaces_compression_and_publish() {
    let source = unity();
    let mut settings = package_settings(&source.project, BASICS);
    settings["compressPNG"] = json!(true);
    settings["jpegQuality"] = json!(90);
    settings["publish"]["maxAtlasIndex"] = json!(20);
    settings["publish"]["atlases"] = json!([
        { "index": 3, "name": "", "compression": true },
        { "index": 0, "name": "Default", "compression": false }
    ]);
    settings["publish"]["excludedResourceIds"] = json!(["rpmbd"]);
    let applied = apply(
        source,
        json!([
            { "kind": "updatePackageSettings", "selector": { "packageId": BASICS }, "settings": settings },
            // The raised maxAtlasIndex applies to later folder operations of the batch.
            { "kind": "setResourceFolderAtlas", "selector": { "packageId": BASICS, "path": "/images/" }, "atlas": "15" }
        ]),
    );
    let pkg = package(&applied.project, BASICS);
    assert_eq!(pkg.compress_png, Some(true));
    assert_eq!(pkg.jpeg_quality, Some(Num(90.0)));
    let publish = pkg.publish.as_ref().unwrap();
    assert_eq!(publish.max_atlas_index, Num(20.0));
    assert_eq!(publish.atlases.len(), 2);
    assert_eq!(publish.excluded_resource_ids, vec!["rpmbd".to_string()]);
    assert_eq!(
        folder(&applied.project, BASICS, "", "/images/")
            .unwrap()
            .atlas,
        "15"
    );
}

#[test]
fn update_package_settings_rejects_invalid_values_and_unknown_packages() {
    let source = unity();
    let mut settings = package_settings(&source.project, BASICS);
    settings["jpegQuality"] = json!(0);
    settings["publish"]["sizeOption"] = json!("square");
    settings["publish"]["path"] = json!("/abs/out");
    settings["publish"]["maxAtlasSize"] = json!(0);
    settings["publish"]["atlases"] = json!([
        { "index": 0, "name": "Default", "compression": false },
        { "index": 0, "name": "Again", "compression": false },
        { "index": 11, "name": "", "compression": false }
    ]);
    settings["publish"]["excludedResourceIds"] = json!(["ok", "bad id", "ok"]);
    let failure = fail(
        source,
        json!([{ "kind": "updatePackageSettings", "selector": { "packageId": BASICS }, "settings": settings }]),
    );
    for path in [
        "settings.jpegQuality",
        "settings.publish.sizeOption",
        "settings.publish.path",
        "settings.publish.maxAtlasSize",
        "settings.publish.atlases[1].index",
        "settings.publish.atlases[2].index",
        "settings.publish.atlases[2]",
        "settings.publish.excludedResourceIds[1]",
        "settings.publish.excludedResourceIds[2]",
    ] {
        assert_issue(
            &failure,
            "invalid_package_settings",
            &format!("operations[0].{path}"),
        );
    }

    let mut null_publish = package_settings(&source.project, BASICS);
    null_publish["publish"] = Value::Null;
    let failure = fail(
        source,
        json!([
            { "kind": "updatePackageSettings", "selector": { "packageId": BASICS }, "settings": null_publish },
            { "kind": "updatePackageSettings", "selector": { "packageId": "nope" }, "settings": package_settings(&source.project, BASICS) }
        ]),
    );
    assert_issue(
        &failure,
        "invalid_package_settings",
        "operations[0].settings.publish",
    );
    assert_issue(
        &failure,
        "invalid_package_selector",
        "operations[1].selector.packageId",
    );
}

#[test]
fn update_package_settings_unchanged_sorts_atlases() {
    let source = unity();
    // Two atlases in one order first, then the same two reversed.
    let mut first = package_settings(&source.project, TREE);
    first["publish"]["atlases"] = json!([
        { "index": 0, "name": "Default", "compression": false },
        { "index": 1, "name": "", "compression": true }
    ]);
    let mut again = first.clone();
    again["publish"]["atlases"] = json!([
        { "index": 1, "name": "", "compression": true },
        { "index": 0, "name": "Default", "compression": false }
    ]);
    let failure = fail(
        source,
        json!([
            { "kind": "updatePackageSettings", "selector": { "packageId": TREE }, "settings": first },
            { "kind": "updatePackageSettings", "selector": { "packageId": TREE }, "settings": again }
        ]),
    );
    assert_eq!(
        issues(&failure),
        vec![(
            "package_settings_unchanged",
            "operations[1].settings".to_string()
        )]
    );
}

// ---------------------------------------------------------------- resources

#[test]
fn rename_image_keeps_extension_and_moves_bytes() {
    let source = unity();
    let old = "assets/Basics/images/k3.png";
    let applied = apply(
        source,
        json!([{ "kind": "renameResource", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "newName": "k3_frame" }]),
    );
    let UamResource::Image(image) = resource(&applied.project, BASICS, "rpmbj") else {
        panic!("image")
    };
    assert_eq!(image.base.name, "k3_frame");
    assert_eq!(image.file_name.as_deref(), Some("k3_frame.png"));
    let new = "assets/Basics/images/k3_frame.png";
    assert_eq!(image.base.source_path.as_deref(), Some(new));
    assert_eq!(applied.bytes.get(new), Some(&Some(file_bytes(source, old))));
    assert_eq!(applied.bytes.get(old), Some(&None));
    // The committed project is untouched.
    assert_eq!(resource(&source.project, BASICS, "rpmbj").name(), "k3");
}

#[test]
fn rename_with_extension_component_and_jpeg_switch() {
    let source = unity();
    let applied = apply(
        source,
        json!([
            // A new extension within the raster family is taken as given.
            { "kind": "renameResource", "selector": { "packageId": BASICS, "resourceId": "rpmbk" }, "newName": "k4.jpeg" },
            { "kind": "renameResource", "selector": { "packageId": BASICS, "resourceId": "rpmb10" }, "newName": "FancyButton" }
        ]),
    );
    let renamed = resource(&applied.project, BASICS, "rpmbk");
    assert_eq!(renamed.name(), "k4");
    assert_eq!(renamed.source_path(), Some("assets/Basics/images/k4.jpeg"));
    let component = resource(&applied.project, BASICS, "rpmb10");
    assert_eq!(component.name(), "FancyButton");
    assert_eq!(
        component.source_path(),
        Some("assets/Basics/components/FancyButton.xml")
    );
    // Component files are documents, not asset bytes.
    assert!(!applied.bytes.keys().any(|k| k.ends_with(".xml")));
}

#[test]
fn rename_rejects_unsafe_names_missing_resources_and_taken_files() {
    let source = unity();
    let failure = fail(
        source,
        json!([
            { "kind": "renameResource", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "newName": "../k3" },
            { "kind": "renameResource", "selector": { "packageId": BASICS, "resourceId": "missing" }, "newName": "x" },
            // k5.png is already taken in /images/ (compared without case).
            { "kind": "renameResource", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "newName": "K5" },
            // A raster image cannot become an SVG by name.
            { "kind": "renameResource", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "newName": "k3.svg" }
        ]),
    );
    assert_eq!(
        issues(&failure),
        vec![
            ("invalid_resource_name", "operations[0].newName".to_string()),
            (
                "invalid_resource_selector",
                "operations[1].selector.resourceId".to_string()
            ),
            ("invalid_resource_name", "operations[2].newName".to_string()),
            ("invalid_resource_name", "operations[3].newName".to_string()),
        ]
    );
    assert_eq!(failure.issues[0].resource_kind.as_deref(), Some("image"));
}

#[test]
fn rename_carries_branch_variants_and_refuses_a_variant_alone() {
    let source = experiments();
    let applied = apply(
        source,
        json!([{ "kind": "renameResource", "selector": { "packageId": BRANCH, "resourceId": "kn7w1" }, "newName": "smile" }]),
    );
    assert_eq!(
        resource(&applied.project, BRANCH, "kn7w1").source_path(),
        Some("assets/Branch/smile.png")
    );
    assert_eq!(
        resource(&applied.project, BRANCH, "kn7w2").source_path(),
        Some("assets_dev/Branch/smile.png")
    );
    assert_eq!(applied.bytes.get("assets_dev/Branch/face.png"), Some(&None));
    assert_eq!(
        applied.bytes.get("assets_dev/Branch/smile.png"),
        Some(&Some(file_bytes(source, "assets_dev/Branch/face.png")))
    );

    let failure = fail(
        source,
        json!([{ "kind": "renameResource", "selector": { "packageId": BRANCH, "resourceId": "kn7w2" }, "newName": "smile" }]),
    );
    assert_issue(
        &failure,
        "unsupported_resource_mutation",
        "operations[0].selector.resourceId",
    );
}

#[test]
fn rename_needs_loaded_bytes() {
    let source = unity();
    let mut bytes = source.bytes.clone();
    bytes.remove("assets/Basics/images/k3.png");
    let ops = operations(json!([
        { "kind": "renameResource", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "newName": "k3b" },
        { "kind": "moveResource", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "toPath": "/" },
        { "kind": "removeResource", "selector": { "packageId": BASICS, "resourceId": "rpmbj" } },
        { "kind": "replaceResourceBytes", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "sourceBytes": [137, 80] }
    ]));
    let failure = run(&source.project, &bytes, &ops).err().expect("fails");
    let codes: Vec<_> = failure
        .issues
        .iter()
        .map(|i| (i.op_index, i.code.as_str()))
        .collect();
    assert_eq!(
        codes,
        vec![
            (0, "unavailable_resource_source_bytes"),
            (1, "unavailable_resource_source_bytes"),
            (2, "unavailable_resource_source_bytes"),
            (3, "unavailable_resource_source_bytes"),
        ]
    );
    // Each message says which situation it is, and offers no operation that would be
    // refused the same way (replaceResourceBytes needs the loaded file too).
    for issue in &failure.issues {
        assert!(
            issue
                .message
                .contains("missing or unreadable when the project was opened")
                && issue.message.contains("restore the file")
                && !issue.message.contains("with replaceResourceBytes"),
            "{}",
            issue.message
        );
    }
}

#[test]
fn move_resource_into_a_folder_added_earlier_in_the_batch() {
    let source = unity();
    let applied = apply(
        source,
        json!([
            { "kind": "addResourceFolder", "selector": { "packageId": BASICS }, "path": "/frames/" },
            // Not canonical on input; stored canonical.
            { "kind": "moveResource", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "toPath": "frames" },
            { "kind": "moveResource", "selector": { "packageId": BASICS, "resourceId": "rpmbz" }, "toPath": "/frames/" }
        ]),
    );
    let moved = resource(&applied.project, BASICS, "rpmbj");
    assert_eq!(moved.path(), "/frames/");
    assert_eq!(moved.source_path(), Some("assets/Basics/frames/k3.png"));
    assert_eq!(
        applied.bytes.get("assets/Basics/frames/k3.png"),
        Some(&Some(file_bytes(source, "assets/Basics/images/k3.png")))
    );
    let component = resource(&applied.project, BASICS, "rpmbz");
    assert_eq!(component.path(), "/frames/");
    assert_eq!(
        component.source_path(),
        Some("assets/Basics/frames/Button.xml")
    );
    assert!(folder(&applied.project, BASICS, "", "/frames/").is_some());
}

#[test]
fn move_resource_rejects_traversal_missing_folders_and_taken_files() {
    let source = unity();
    let failure = fail(
        source,
        json!([
            { "kind": "moveResource", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "toPath": "/images/../.." },
            { "kind": "moveResource", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "toPath": "" },
            { "kind": "moveResource", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "toPath": "/nowhere/" },
            { "kind": "moveResource", "selector": { "packageId": "nope", "resourceId": "rpmbj" }, "toPath": "/" }
        ]),
    );
    assert_eq!(
        issues(&failure),
        vec![
            ("invalid_resource_path", "operations[0].toPath".to_string()),
            ("invalid_resource_path", "operations[1].toPath".to_string()),
            ("invalid_resource_path", "operations[2].toPath".to_string()),
            (
                "invalid_resource_selector",
                "operations[3].selector.packageId".to_string()
            ),
        ]
    );
    // Moving the PNG next to an existing k3.png file is a collision.
    let failure = fail(
        source,
        json!([
            { "kind": "addResourceFolder", "selector": { "packageId": BASICS }, "path": "/frames/" },
            { "kind": "moveResource", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "toPath": "/frames/" },
            { "kind": "renameResource", "selector": { "packageId": BASICS, "resourceId": "rpmbk" }, "newName": "k3" },
            { "kind": "moveResource", "selector": { "packageId": BASICS, "resourceId": "rpmbk" }, "toPath": "/frames/" }
        ]),
    );
    assert_eq!(
        issues(&failure),
        vec![("invalid_resource_path", "operations[3].toPath".to_string())]
    );
}

#[test]
fn set_resource_favorite_and_exported() {
    let source = unity();
    let applied = apply(
        source,
        json!([
            { "kind": "setResourceFavorite", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "favorite": true },
            // The same value again is fine.
            { "kind": "setResourceFavorite", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "favorite": true },
            { "kind": "setResourceExported", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "exported": true },
            { "kind": "setResourceExported", "selector": { "packageId": BASICS, "resourceId": "wa8u2r" }, "exported": false },
            { "kind": "setResourceFavorite", "selector": { "packageId": BASICS, "resourceId": "rpmbz" }, "favorite": true }
        ]),
    );
    let image = resource(&applied.project, BASICS, "rpmbj")
        .asset_base()
        .unwrap();
    assert!(image.favorite && image.exported);
    assert!(
        !resource(&source.project, BASICS, "wa8u2r")
            .asset_base()
            .unwrap()
            .favorite
    );
    assert!(
        resource(&source.project, BASICS, "wa8u2r")
            .asset_base()
            .unwrap()
            .exported
    );
    assert!(
        !resource(&applied.project, BASICS, "wa8u2r")
            .asset_base()
            .unwrap()
            .exported
    );
    let UamResource::Component(component) = resource(&applied.project, BASICS, "rpmbz") else {
        panic!("component")
    };
    assert!(component.favorite);
}

#[test]
fn set_resource_flags_need_an_existing_resource() {
    let source = unity();
    let failure = fail(
        source,
        json!([
            { "kind": "setResourceFavorite", "selector": { "packageId": BASICS, "resourceId": "ghost" }, "favorite": true },
            { "kind": "setResourceExported", "selector": { "packageId": BASICS, "resourceId": "ghost" }, "exported": true }
        ]),
    );
    assert_eq!(
        issues(&failure),
        vec![
            (
                "invalid_resource_selector",
                "operations[0].selector.resourceId".to_string()
            ),
            (
                "invalid_resource_selector",
                "operations[1].selector.resourceId".to_string()
            ),
        ]
    );
}

#[test]
fn set_image_resource_props_replaces_the_image_block() {
    let source = unity();
    let props = json!({
        "textureSetMode": "alone", "qualityOption": "custom", "quality": 75, "smoothing": false,
        "duplicatePadding": true, "scaleOption": 1, "scale9Grid": [10, 8, 30, 12], "tileGridIndice": 3
    });
    let applied = apply(
        source,
        json!([{ "kind": "setImageResourceProps", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "props": props }]),
    );
    let UamResource::Image(image) = resource(&applied.project, BASICS, "rpmbj") else {
        panic!("image")
    };
    assert_eq!(serde_json::to_value(&image.image).unwrap(), props);
    assert!(applied.bytes.is_empty());
}

#[test]
fn set_image_resource_props_needs_an_image_and_a_valid_snapshot() {
    let source = unity();
    let props = json!({
        "textureSetMode": "", "qualityOption": "", "quality": 101, "smoothing": true,
        "duplicatePadding": false, "scaleOption": 1, "scale9Grid": null, "tileGridIndice": 0
    });
    let failure = fail(
        source,
        json!([
            { "kind": "setImageResourceProps", "selector": { "packageId": BASICS, "resourceId": "o4lt7w" }, "props": props },
            { "kind": "setImageResourceProps", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "props": props }
        ]),
    );
    assert_eq!(
        issues(&failure),
        vec![
            (
                "invalid_resource_selector",
                "operations[0].selector.resourceId".to_string()
            ),
            (
                "invalid_resource_payload",
                "operations[1].props.quality".to_string()
            ),
            (
                "invalid_resource_payload",
                "operations[1].props.scale9Grid".to_string()
            ),
        ]
    );
    assert_eq!(failure.issues[0].resource_kind.as_deref(), Some("sound"));
    assert_eq!(failure.issues[2].field.as_deref(), Some("scale9Grid"));
}

#[test]
fn add_resource_stores_bytes_and_reads_dimensions() {
    let source = unity();
    let png = file_bytes(source, "assets/Basics/images/k4.png");
    let applied = apply(
        source,
        json!([{ "kind": "addResource", "selector": { "packageId": BASICS }, "atIndex": 0,
                 "resource": image_input("newimg1", "added.png", "/images", &png) }]),
    );
    let pkg = package(&applied.project, BASICS);
    assert_eq!(
        pkg.resources.len(),
        package(&source.project, BASICS).resources.len() + 1
    );
    let added = pkg.resources[0].as_ref();
    assert_eq!(added.id(), "newimg1");
    assert_eq!(added.name(), "added");
    assert_eq!(added.path(), "/images/");
    assert_eq!(added.source_path(), Some("assets/Basics/images/added.png"));
    assert_eq!(image_size(added), size(66.0, 44.0));
    assert_eq!(
        applied.bytes.get("assets/Basics/images/added.png"),
        Some(&Some(png))
    );
}

#[test]
fn add_sound_is_stored_like_the_reader_stores_it() {
    let source = unity();
    let wav = file_bytes(source, "assets/Basics/sound/click.wav");
    let applied = apply(
        source,
        json!([{ "kind": "addResource", "selector": { "packageId": BASICS }, "resource": {
            "kind": "sound", "id": "click2", "name": "whatever", "fileName": "click2.wav", "path": "/sound/",
            "exported": true, "favorite": false, "branch": "", "branchItemIds": [], "sourceBytes": wav,
        } }]),
    );
    let UamResource::Sound(sound) = resource(&applied.project, BASICS, "click2") else {
        panic!("sound")
    };
    assert_eq!(sound.base.name, "click2");
    assert_eq!(sound.file.as_deref(), Some("click2.wav"));
    assert_eq!(sound.file_name, None);
    assert_eq!(
        sound.base.source_path.as_deref(),
        Some("assets/Basics/sound/click2.wav")
    );
    assert_eq!(
        applied.bytes.get("assets/Basics/sound/click2.wav"),
        Some(&Some(wav))
    );
    assert_eq!(
        package(&applied.project, BASICS)
            .resources
            .last()
            .map(|r| r.id()),
        Some("click2")
    );
}

#[test]
fn add_movie_clip_is_rebuilt_from_its_jta() {
    let source = unity();
    let jta = file_bytes(source, "assets/TreeView/Icons/heart.jta");
    let original = resource(&source.project, TREE, "ua5o7");
    let applied = apply(
        source,
        json!([{ "kind": "addResource", "selector": { "packageId": BASICS }, "resource": {
            "kind": "movieClip", "id": "heart2", "name": "heart", "fileName": "heart.jta", "path": "/images/",
            "exported": true, "favorite": false, "branch": "", "branchItemIds": [],
            "dimensions": { "width": 0, "height": 0 },
            "movieClip": { "interval": 0, "repeatDelay": 0, "swing": false, "smoothing": false, "frames": [] },
            "sourceBytes": jta,
        } }]),
    );
    let (UamResource::MovieClip(added), UamResource::MovieClip(original)) =
        (resource(&applied.project, BASICS, "heart2"), original)
    else {
        panic!("movie clips")
    };
    assert!(!added.movie_clip.frames.is_empty());
    assert_eq!(added.movie_clip.frames, original.movie_clip.frames);
    assert_eq!(added.dimensions, original.dimensions);
    assert_eq!(added.movie_clip.interval, original.movie_clip.interval);
    // smoothing is not in the JTA: the payload's value stays.
    assert!(!added.movie_clip.smoothing);
    assert_eq!(
        added.base.source_path.as_deref(),
        Some("assets/Basics/images/heart.jta")
    );
}

#[test]
fn add_resource_reports_every_payload_problem() {
    let source = unity();
    let png = file_bytes(source, "assets/Basics/images/k4.png");
    let mut with_source_path = image_input("", "bad/name.png", "/images/../x", &png);
    with_source_path["sourcePath"] = json!("assets/Basics/x.png");
    let mut no_bytes = image_input("fresh1", "fresh.png", "/images/", &png);
    no_bytes.as_object_mut().unwrap().remove("sourceBytes");
    let failure = fail(
        source,
        json!([
            { "kind": "addResource", "selector": { "packageId": BASICS }, "resource": with_source_path },
            { "kind": "addResource", "selector": { "packageId": BASICS }, "resource": image_input("rpmbj", "dup.png", "/images/", &png) },
            { "kind": "addResource", "selector": { "packageId": BASICS }, "resource": no_bytes },
            { "kind": "addResource", "selector": { "packageId": BASICS }, "resource": image_input("fresh2", "k3.PNG", "/images/", &png) },
            { "kind": "addResource", "selector": { "packageId": BASICS }, "resource": image_input("fresh3", "bad.png", "/images/", &corrupt_png(&png)) },
            { "kind": "addResource", "selector": { "packageId": BASICS }, "atIndex": 100000, "resource": image_input("fresh4", "ok.png", "/images/", &png) },
            { "kind": "addResource", "selector": { "packageId": "nope" }, "resource": image_input("fresh5", "ok.png", "/", &png) },
            { "kind": "addResource", "selector": { "packageId": BASICS }, "resource": image_input("fresh6", "images", "/", &png) }
        ]),
    );
    for (code, path) in [
        ("invalid_resource_payload", "operations[0].resource.id"),
        (
            "invalid_resource_payload",
            "operations[0].resource.sourcePath",
        ),
        (
            "invalid_resource_payload",
            "operations[0].resource.fileName",
        ),
        ("invalid_resource_path", "operations[0].resource.path"),
        ("duplicate_resource_id", "operations[1].resource.id"),
        (
            "unavailable_resource_source_bytes",
            "operations[2].resource.sourceBytes",
        ),
        (
            "invalid_resource_payload",
            "operations[3].resource.fileName",
        ),
        (
            "invalid_resource_bytes",
            "operations[4].resource.sourceBytes",
        ),
        ("invalid_resource_index", "operations[5].atIndex"),
        (
            "invalid_package_selector",
            "operations[6].selector.packageId",
        ),
        (
            "resource_folder_conflict",
            "operations[7].resource.fileName",
        ),
    ] {
        assert_issue(&failure, code, path);
    }
}

#[test]
fn add_resource_refuses_components_and_broken_movie_clips() {
    let source = unity();
    let component = serde_json::to_value(resource(&source.project, BASICS, "rpmbz")).unwrap();
    let mut component = component;
    component["id"] = json!("copy1");
    component.as_object_mut().unwrap().remove("sourcePath");
    let failure = fail(
        source,
        json!([
            { "kind": "addResource", "selector": { "packageId": BASICS }, "resource": component },
            { "kind": "addResource", "selector": { "packageId": BASICS }, "resource": {
                "kind": "movieClip", "id": "clip9", "name": "clip9", "fileName": "clip9.jta", "path": "/",
                "exported": false, "favorite": false, "branch": "", "branchItemIds": [],
                "dimensions": { "width": 0, "height": 0 },
                "movieClip": { "interval": 0, "repeatDelay": 0, "swing": false, "smoothing": true, "frames": [] },
                "sourceBytes": [1, 2, 3, 4],
            } }
        ]),
    );
    assert_eq!(
        issues(&failure),
        vec![
            (
                "unsupported_resource_kind",
                "operations[0].resource.kind".to_string()
            ),
            (
                "invalid_movie_clip_jta",
                "operations[1].resource.sourceBytes".to_string()
            ),
        ]
    );
}

#[test]
fn replace_resource_bytes_refreshes_image_dimensions() {
    let source = unity();
    assert_eq!(
        image_size(resource(&source.project, PULL, "n3qdn")),
        size(86.0, 86.0)
    );
    let jpeg = file_bytes(source, "assets/TurnPage/haibian.jpg");
    let png = file_bytes(source, "assets/Basics/images/k4.png");
    let applied = apply(
        source,
        json!([
            { "kind": "replaceResourceBytes", "selector": { "packageId": PULL, "resourceId": "n3qdn" }, "sourceBytes": jpeg },
            { "kind": "replaceResourceBytes", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "sourceBytes": png }
        ]),
    );
    let logo = resource(&applied.project, PULL, "n3qdn");
    assert_eq!(image_size(logo), size(300.0, 400.0));
    assert_eq!(logo.source_path(), Some("assets/PullToRefresh/logo.jpg"));
    assert_eq!(
        applied.bytes.get("assets/PullToRefresh/logo.jpg"),
        Some(&Some(jpeg))
    );
    assert_eq!(
        image_size(resource(&applied.project, BASICS, "rpmbj")),
        size(66.0, 44.0)
    );
}

#[test]
fn replace_movie_clip_bytes_rebuilds_frames() {
    let source = unity();
    let heart = file_bytes(source, "assets/TreeView/Icons/heart.jta");
    let before = resource(&source.project, BASICS, "hixt1v");
    let applied = apply(
        source,
        json!([{ "kind": "replaceResourceBytes", "selector": { "packageId": BASICS, "resourceId": "hixt1v" }, "sourceBytes": heart }]),
    );
    let (
        UamResource::MovieClip(after),
        UamResource::MovieClip(heart_clip),
        UamResource::MovieClip(before),
    ) = (
        resource(&applied.project, BASICS, "hixt1v"),
        resource(&source.project, TREE, "ua5o7"),
        before,
    )
    else {
        panic!("movie clips")
    };
    assert_ne!(before.movie_clip.frames, heart_clip.movie_clip.frames);
    assert_eq!(after.movie_clip.frames, heart_clip.movie_clip.frames);
    assert_eq!(after.dimensions, heart_clip.dimensions);
    assert_eq!(after.movie_clip.smoothing, before.movie_clip.smoothing);
    assert_eq!(after.base.source_path, before.base.source_path);
}

#[test]
fn replace_resource_bytes_checks_kind_format_and_integrity() {
    let source = unity();
    let png = file_bytes(source, "assets/Basics/images/k4.png");
    let failure = fail(
        source,
        json!([
            { "kind": "replaceResourceBytes", "selector": { "packageId": BASICS, "resourceId": "rpmbz" }, "sourceBytes": png },
            { "kind": "replaceResourceBytes", "selector": { "packageId": BASICS, "resourceId": "hixt1v" }, "sourceBytes": png },
            { "kind": "replaceResourceBytes", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "sourceBytes": [] }
        ]),
    );
    assert_eq!(
        issues(&failure),
        vec![
            (
                "unsupported_resource_mutation",
                "operations[0].selector.resourceId".to_string()
            ),
            (
                "invalid_movie_clip_jta",
                "operations[1].sourceBytes".to_string()
            ),
            (
                "invalid_resource_bytes",
                "operations[2].sourceBytes".to_string()
            ),
        ]
    );
    // Integrity is judged on the final bytes, as validation judges files: the last
    // operation that touched the file is blamed.
    let failure = fail(
        source,
        json!([
            { "kind": "replaceResourceBytes", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "sourceBytes": corrupt_png(&png) },
            { "kind": "setResourceFavorite", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "favorite": true }
        ]),
    );
    assert_eq!(
        issues(&failure),
        vec![(
            "invalid_resource_bytes",
            "operations[0].sourceBytes".to_string()
        )]
    );
    // A broken file replaced by a good one in the same batch is fine.
    apply(
        source,
        json!([
            { "kind": "replaceResourceBytes", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "sourceBytes": corrupt_png(&png) },
            { "kind": "replaceResourceBytes", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "sourceBytes": png }
        ]),
    );
}

/// PNG bytes in a `.jpg` file: validation accepts them (the signature decides, as in the
/// decoders, and editor projects hold such files), so the batch is judged the same in
/// either order of the rename and the replacement.
#[test]
fn replace_and_rename_are_judged_on_the_final_state_in_either_order() {
    let source = unity();
    let png = file_bytes(source, "assets/Basics/images/k4.png");
    let replace = json!({ "kind": "replaceResourceBytes", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "sourceBytes": png });
    let rename = json!({ "kind": "renameResource", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "newName": "k3.jpg" });
    let first = apply(source, json!([replace.clone(), rename.clone()]));
    let second = apply(source, json!([rename.clone(), replace.clone()]));
    assert_eq!(first.project, second.project);
    assert_eq!(first.bytes, second.bytes);
    assert_eq!(
        first.bytes.get("assets/Basics/images/k3.jpg"),
        Some(&Some(png.clone()))
    );
    // Broken bytes are refused in either order too, blamed on the last operation that
    // touched the file.
    let broken = json!({ "kind": "replaceResourceBytes", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "sourceBytes": corrupt_png(&png) });
    let failure = fail(source, json!([broken.clone(), rename.clone()]));
    assert_eq!(
        issues(&failure),
        vec![(
            "invalid_resource_bytes",
            "operations[1].newName".to_string()
        )]
    );
    let failure = fail(source, json!([rename, broken]));
    assert_eq!(
        issues(&failure),
        vec![(
            "invalid_resource_bytes",
            "operations[1].sourceBytes".to_string()
        )]
    );
}

#[test]
fn replace_after_rename_to_jpeg_accepts_jpeg_bytes() {
    let source = unity();
    let jpeg = file_bytes(source, "assets/TurnPage/haibian.jpg");
    let applied = apply(
        source,
        json!([
            { "kind": "renameResource", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "newName": "k3.jpg" },
            { "kind": "replaceResourceBytes", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "sourceBytes": jpeg }
        ]),
    );
    assert_eq!(
        applied.bytes.get("assets/Basics/images/k3.jpg"),
        Some(&Some(jpeg))
    );
    assert_eq!(
        applied.bytes.get("assets/Basics/images/k3.png"),
        Some(&None)
    );
    assert_eq!(
        image_size(resource(&applied.project, BASICS, "rpmbj")),
        size(300.0, 400.0)
    );
}

#[test]
fn remove_resource_of_a_referenced_image_fails_on_the_final_state() {
    let source = unity();
    let failure = fail(
        source,
        json!([{ "kind": "removeResource", "opId": "drop-b5", "selector": { "packageId": BASICS, "resourceId": "rpmbd" } }]),
    );
    assert!(!failure.issues.is_empty());
    for issue in &failure.issues {
        assert_eq!(issue.code.as_str(), "invalid_resource_reference");
        assert_eq!(issue.path, "operations[0].selector.resourceId");
        assert_eq!(issue.op_id.as_deref(), Some("drop-b5"));
        assert!(issue.message.contains("rpmbd"), "{}", issue.message);
    }
    // A spine's required texture is a reference too.
    let failure = fail(
        experiments(),
        json!([{ "kind": "removeResource", "selector": { "packageId": LOADER, "resourceId": "czqy1f" } }]),
    );
    assert_issue(
        &failure,
        "invalid_resource_reference",
        "operations[0].selector.resourceId",
    );
}

#[test]
fn remove_resource_of_an_unreferenced_asset() {
    let source = experiments();
    let applied = apply(
        source,
        json!([{ "kind": "removeResource", "selector": { "packageId": LOADER, "resourceId": "czqy1c" } }]),
    );
    assert!(
        package(&applied.project, LOADER)
            .resources
            .iter()
            .all(|r| r.id() != "czqy1c")
    );
    assert_eq!(
        applied.bytes.get("assets/Loader/images/spineboy.png"),
        Some(&None)
    );

    // The dev variant of face.png is shown by the dev Main component: still referenced.
    let failure = fail(
        source,
        json!([{ "kind": "removeResource", "selector": { "packageId": BRANCH, "resourceId": "kn7w2" } }]),
    );
    assert_issue(
        &failure,
        "invalid_resource_reference",
        "operations[0].selector.resourceId",
    );

    // Removing an unreferenced branch variant clears its slot in the main resource.
    let png = file_bytes(source, "assets/Branch/face.png");
    let mut main = image_input("main1", "pair.png", "/", &png);
    main["branchItemIds"] = json!(["variant1"]);
    let mut variant = image_input("variant1", "pair.png", "/", &png);
    variant["branch"] = json!("dev");
    let applied = apply(
        source,
        json!([
            { "kind": "addResource", "selector": { "packageId": BRANCH }, "resource": main },
            { "kind": "addResource", "selector": { "packageId": BRANCH }, "resource": variant },
            { "kind": "removeResource", "selector": { "packageId": BRANCH, "resourceId": "variant1" } }
        ]),
    );
    assert!(
        resource(&applied.project, BRANCH, "main1")
            .asset_base()
            .unwrap()
            .branch_item_ids
            .is_empty()
    );
    assert_eq!(applied.bytes.get("assets_dev/Branch/pair.png"), Some(&None));
    assert_eq!(
        applied.bytes.get("assets/Branch/pair.png"),
        Some(&Some(png))
    );
}

#[test]
fn remove_resource_refuses_components_and_unknown_ids() {
    let source = unity();
    let failure = fail(
        source,
        json!([
            { "kind": "removeResource", "selector": { "packageId": BASICS, "resourceId": "rpmbz" } },
            { "kind": "removeResource", "selector": { "packageId": BASICS, "resourceId": "ghost" } }
        ]),
    );
    assert_eq!(
        issues(&failure),
        vec![
            (
                "unsupported_resource_mutation",
                "operations[0].selector.resourceId".to_string()
            ),
            (
                "invalid_resource_selector",
                "operations[1].selector.resourceId".to_string()
            ),
        ]
    );
}

#[test]
fn add_then_remove_in_one_batch() {
    let source = unity();
    let png = file_bytes(source, "assets/Basics/images/k4.png");
    let applied = apply(
        source,
        json!([
            { "kind": "addResource", "selector": { "packageId": BASICS }, "resource": image_input("tmp1", "tmp.png", "/", &png) },
            { "kind": "removeResource", "selector": { "packageId": BASICS, "resourceId": "tmp1" } }
        ]),
    );
    assert_eq!(
        package(&applied.project, BASICS).resources.len(),
        package(&source.project, BASICS).resources.len()
    );
    assert_eq!(applied.bytes.get("assets/Basics/tmp.png"), Some(&None));
}

// ---------------------------------------------------------------- folders

#[test]
fn folder_favorite_and_atlas() {
    let source = unity();
    let applied = apply(
        source,
        json!([
            { "kind": "setResourceFolderFavorite", "selector": { "packageId": BASICS, "path": "/images/" }, "favorite": true },
            { "kind": "setResourceFolderAtlas", "selector": { "packageId": BASICS, "path": "/images/" }, "atlas": "3" },
            { "kind": "setResourceFolderAtlas", "selector": { "packageId": BASICS, "path": "/font/" }, "atlas": "10" }
        ]),
    );
    let images = folder(&applied.project, BASICS, "", "/images/").unwrap();
    assert!(images.favorite);
    assert_eq!(images.atlas, "3");
    assert_eq!(
        folder(&applied.project, BASICS, "", "/font/")
            .unwrap()
            .atlas,
        "10"
    );
    assert!(
        !folder(&applied.project, BASICS, "", "/sound/")
            .unwrap()
            .favorite
    );
}

#[test]
fn folder_favorite_and_atlas_failures() {
    let source = unity();
    let failure = fail(
        source,
        json!([
            { "kind": "setResourceFolderFavorite", "selector": { "packageId": BASICS, "path": "/nowhere/" }, "favorite": true },
            { "kind": "setResourceFolderFavorite", "selector": { "packageId": BASICS, "path": "images" }, "favorite": true },
            { "kind": "setResourceFolderAtlas", "selector": { "packageId": BASICS, "path": "/images/" }, "atlas": "11" },
            { "kind": "setResourceFolderAtlas", "selector": { "packageId": BASICS, "path": "/images/" }, "atlas": "03" },
            { "kind": "setResourceFolderAtlas", "selector": { "packageId": BASICS, "path": "/images/" }, "atlas": "" }
        ]),
    );
    assert_eq!(
        issues(&failure),
        vec![
            (
                "invalid_resource_folder_selector",
                "operations[0].selector.path".to_string()
            ),
            (
                "invalid_resource_folder_selector",
                "operations[1].selector.path".to_string()
            ),
            (
                "invalid_resource_folder_atlas",
                "operations[2].atlas".to_string()
            ),
            (
                "invalid_resource_folder_atlas",
                "operations[3].atlas".to_string()
            ),
            (
                "resource_folder_atlas_unchanged",
                "operations[4].atlas".to_string()
            ),
        ]
    );
}

#[test]
fn add_resource_folders_nested_and_on_a_branch() {
    let source = experiments();
    let applied = apply(
        source,
        json!([
            { "kind": "addResourceFolder", "selector": { "packageId": BRANCH }, "path": "/ui/", "favorite": true, "atlas": "2" },
            { "kind": "addResourceFolder", "selector": { "packageId": BRANCH }, "path": "/ui/icons/" },
            { "kind": "addResourceFolder", "selector": { "packageId": BRANCH }, "path": "/ui/", "branch": "dev" }
        ]),
    );
    assert_eq!(
        folder(&applied.project, BRANCH, "", "/ui/"),
        Some(&ResourceFolder {
            branch: String::new(),
            path: "/ui/".into(),
            favorite: true,
            atlas: "2".into()
        })
    );
    assert!(folder(&applied.project, BRANCH, "", "/ui/icons/").is_some());
    assert!(folder(&applied.project, BRANCH, "dev", "/ui/").is_some());
}

/// A package with nothing on a branch has no directory there, so no folder either.
#[test]
fn a_folder_needs_its_package_on_that_branch() {
    let failure = fail(
        experiments(),
        json!([{ "kind": "addResourceFolder", "selector": { "packageId": "hzobybbt" }, "path": "/x/", "branch": "dev" }]),
    );
    assert_eq!(
        issues(&failure),
        vec![(
            "invalid_resource_folder_path",
            "operations[0].branch".to_string()
        )]
    );
    assert!(
        failure.message.contains("branch slots"),
        "{}",
        failure.message
    );
}

#[test]
fn add_resource_folder_failures() {
    let source = experiments();
    let failure = fail(
        source,
        json!([
            { "kind": "addResourceFolder", "selector": { "packageId": BRANCH }, "path": "/a/../b/" },
            { "kind": "addResourceFolder", "selector": { "packageId": BRANCH }, "path": "/" },
            { "kind": "addResourceFolder", "selector": { "packageId": BRANCH }, "path": "/missing/child/" },
            { "kind": "addResourceFolder", "selector": { "packageId": BRANCH }, "path": "/x/", "branch": "prod" },
            { "kind": "addResourceFolder", "selector": { "packageId": BRANCH }, "path": "/face.png/" },
            { "kind": "addResourceFolder", "selector": { "packageId": BRANCH }, "path": "/y/", "atlas": "x" },
            { "kind": "addResourceFolder", "selector": { "packageId": "nope" }, "path": "/z/" }
        ]),
    );
    assert_eq!(
        issues(&failure),
        vec![
            (
                "invalid_resource_folder_path",
                "operations[0].path".to_string()
            ),
            (
                "invalid_resource_folder_path",
                "operations[1].path".to_string()
            ),
            (
                "invalid_resource_folder_path",
                "operations[2].path".to_string()
            ),
            (
                "invalid_resource_folder_path",
                "operations[3].branch".to_string()
            ),
            ("resource_folder_conflict", "operations[4].path".to_string()),
            (
                "invalid_resource_folder_atlas",
                "operations[5].atlas".to_string()
            ),
            (
                "invalid_package_selector",
                "operations[6].selector.packageId".to_string()
            ),
        ]
    );
    // The same folder twice (the second sees the first).
    let failure = fail(
        source,
        json!([
            { "kind": "addResourceFolder", "selector": { "packageId": BRANCH }, "path": "/ui/" },
            { "kind": "addResourceFolder", "selector": { "packageId": BRANCH }, "path": "/UI/" }
        ]),
    );
    assert_eq!(
        issues(&failure),
        vec![("resource_folder_conflict", "operations[1].path".to_string())]
    );
}

#[test]
fn rename_move_and_remove_empty_folders() {
    let source = unity();
    let applied = apply(
        source,
        json!([
            { "kind": "addResourceFolder", "selector": { "packageId": BASICS }, "path": "/tmp/" },
            { "kind": "addResourceFolder", "selector": { "packageId": BASICS }, "path": "/parked/" },
            { "kind": "renameResourceFolder", "selector": { "packageId": BASICS, "path": "/tmp/" }, "newName": "staging" },
            { "kind": "moveResourceFolder", "selector": { "packageId": BASICS, "path": "/staging/" }, "toPath": "/images/" },
            { "kind": "moveResourceFolder", "selector": { "packageId": BASICS, "path": "/images/staging/" }, "toPath": "/" },
            { "kind": "removeResourceFolder", "selector": { "packageId": BASICS, "path": "/parked/" } }
        ]),
    );
    assert!(folder(&applied.project, BASICS, "", "/staging/").is_some());
    assert!(folder(&applied.project, BASICS, "", "/tmp/").is_none());
    assert!(folder(&applied.project, BASICS, "", "/images/staging/").is_none());
    assert!(folder(&applied.project, BASICS, "", "/parked/").is_none());
    assert_eq!(
        package(&applied.project, BASICS).folders.len(),
        package(&source.project, BASICS).folders.len() + 1
    );
}

#[test]
fn folder_lifecycle_failures() {
    let source = unity();
    let failure = fail(
        source,
        json!([
            { "kind": "addResourceFolder", "selector": { "packageId": BASICS }, "path": "/tmp/" },
            { "kind": "renameResourceFolder", "selector": { "packageId": BASICS, "path": "/images/" }, "newName": "pictures" },
            { "kind": "renameResourceFolder", "selector": { "packageId": BASICS, "path": "/tmp/" }, "newName": "a:b" },
            { "kind": "renameResourceFolder", "selector": { "packageId": BASICS, "path": "/tmp/" }, "newName": "sound" },
            { "kind": "renameResourceFolder", "selector": { "packageId": BASICS, "path": "/tmp/" }, "newName": "tmp" },
            { "kind": "moveResourceFolder", "selector": { "packageId": BASICS, "path": "/images/" }, "toPath": "/sound/" },
            { "kind": "moveResourceFolder", "selector": { "packageId": BASICS, "path": "/tmp/" }, "toPath": "/tmp/" },
            { "kind": "moveResourceFolder", "selector": { "packageId": BASICS, "path": "/tmp/" }, "toPath": "/nowhere/" },
            { "kind": "moveResourceFolder", "selector": { "packageId": BASICS, "path": "/tmp/" }, "toPath": "/" },
            { "kind": "removeResourceFolder", "selector": { "packageId": BASICS, "path": "/images/" } },
            { "kind": "removeResourceFolder", "selector": { "packageId": BASICS, "path": "/ghost/" } }
        ]),
    );
    assert_eq!(
        issues(&failure),
        vec![
            (
                "resource_folder_not_empty",
                "operations[1].selector".to_string()
            ),
            (
                "invalid_resource_folder_path",
                "operations[2].newName".to_string()
            ),
            (
                "resource_folder_conflict",
                "operations[3].newName".to_string()
            ),
            (
                "resource_folder_conflict",
                "operations[4].newName".to_string()
            ),
            (
                "resource_folder_not_empty",
                "operations[5].selector".to_string()
            ),
            (
                "invalid_resource_folder_path",
                "operations[6].toPath".to_string()
            ),
            (
                "invalid_resource_folder_path",
                "operations[7].toPath".to_string()
            ),
            (
                "resource_folder_conflict",
                "operations[8].toPath".to_string()
            ),
            (
                "resource_folder_not_empty",
                "operations[9].selector".to_string()
            ),
            (
                "invalid_resource_folder_selector",
                "operations[10].selector.path".to_string()
            ),
        ]
    );
    // A folder holding only a subfolder is not empty either.
    let failure = fail(
        source,
        json!([
            { "kind": "addResourceFolder", "selector": { "packageId": BASICS }, "path": "/outer/" },
            { "kind": "addResourceFolder", "selector": { "packageId": BASICS }, "path": "/outer/inner/" },
            { "kind": "removeResourceFolder", "selector": { "packageId": BASICS, "path": "/outer/" } }
        ]),
    );
    assert_eq!(
        issues(&failure),
        vec![(
            "resource_folder_not_empty",
            "operations[2].selector".to_string()
        )]
    );
    // A folder is emptied by moving, not by discarding what is in it.
    let message = &failure.issues[0].message;
    assert!(
        message.contains("Move its contents out") && !message.contains("or remove"),
        "{message}"
    );
}

// ---------------------------------------------------------------- batches

#[test]
fn a_failing_batch_reports_every_operation_and_changes_nothing() {
    let source = unity();
    let png = file_bytes(source, "assets/Basics/images/k4.png");
    let failure = fail(
        source,
        json!([
            { "kind": "setResourceFavorite", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "favorite": true },
            { "kind": "moveResource", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "toPath": "/absent/" },
            { "kind": "addResource", "selector": { "packageId": BASICS }, "resource": image_input("rpmbk", "again.png", "/images/", &png) },
            { "kind": "removeResourceFolder", "selector": { "packageId": BASICS, "path": "/sound/" } },
            { "kind": "setResourceFolderAtlas", "selector": { "packageId": BASICS, "path": "/images/" }, "atlas": "99" }
        ]),
    );
    let at: Vec<usize> = failure.issues.iter().map(|i| i.op_index).collect();
    assert_eq!(at, vec![1, 2, 3, 4]);
    assert!(failure.message.contains("4 issues"), "{}", failure.message);
    // The valid first operation's effect is nowhere: the input project is untouched.
    assert!(
        !resource(&source.project, BASICS, "rpmbj")
            .asset_base()
            .unwrap()
            .favorite
    );
}

#[test]
fn a_later_operation_sees_an_earlier_rename() {
    let source = unity();
    let applied = apply(
        source,
        json!([
            { "kind": "renameResource", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "newName": "frame" },
            { "kind": "addResourceFolder", "selector": { "packageId": BASICS }, "path": "/images/frames/" },
            { "kind": "moveResource", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "toPath": "/images/frames/" },
            { "kind": "setResourceExported", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "exported": true }
        ]),
    );
    let moved = resource(&applied.project, BASICS, "rpmbj");
    assert_eq!(
        moved.source_path(),
        Some("assets/Basics/images/frames/frame.png")
    );
    assert!(moved.asset_base().unwrap().exported);
    assert_eq!(
        applied.bytes.get("assets/Basics/images/frame.png"),
        Some(&None)
    );
    assert!(matches!(
        applied.bytes.get("assets/Basics/images/frames/frame.png"),
        Some(Some(_))
    ));
}
