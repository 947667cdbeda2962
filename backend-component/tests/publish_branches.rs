//! Branches: the experiments corpus' `Branch` package has a `dev` branch (`assets_dev/`)
//! with its own `Main` and `face`. Its settings keep every branch (`branchProcessing` 0)
//! with atlases of their own per branch (`seperatedAtlasForBranch`) and a `branchPath`.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use ofgui_backend::fs::StdFs;
use ofgui_backend::publish::{Branches, PublishOptions, PublishedPackage, publish_package};
use ofgui_backend::reader::read_project;
use ofgui_backend::session::publishing::publish;
use ofgui_backend::session::{Names, Session};
use ofgui_backend::testing::{MemFs, experiments_root};
use ofgui_contracts::api::PublishProjectInput;
use serde_json::{Value, json};

const FAIRY: &str = "FairyGUI-Experiments.fairy";

fn session() -> Session {
    Session::open(
        &StdFs::new(experiments_root()),
        Names::session("s"),
        FAIRY,
        0,
    )
    .unwrap()
}

fn input(extra: Value) -> PublishProjectInput {
    let mut input = json!({ "sessionId": "s", "packages": ["Branch"], "dryRun": true });
    if let (Some(input), Some(extra)) = (input.as_object_mut(), extra.as_object()) {
        input.extend(extra.clone());
    }
    serde_json::from_value(input).unwrap()
}

fn branch_package(branches: Branches) -> PublishedPackage {
    let source = read_project(&StdFs::new(experiments_root()), FAIRY).unwrap();
    let options = PublishOptions {
        branches,
        ..Default::default()
    };
    publish_package(&source.project, &source.bytes, "Branch", &options).unwrap()
}

fn decoded(package: &PublishedPackage) -> Value {
    let descriptor = package
        .files
        .iter()
        .find(|f| f.name == "Branch_fui.bytes")
        .unwrap();
    ofgui_fui::decode(&descriptor.bytes).unwrap()
}

fn items(decoded: &Value) -> BTreeMap<String, Value> {
    decoded["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| (item["id"].as_str().unwrap().to_owned(), item.clone()))
        .collect()
}

fn sprite_atlases(decoded: &Value) -> BTreeMap<String, String> {
    decoded["sprites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap().to_owned(),
                s["atlas"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_branch_gets_its_own_atlas_when_the_settings_say_so() {
    let published = branch_package(Branches::All {
        separate_atlases: true,
    });
    let names: Vec<&str> = published.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Branch_atlas0.png",
            "Branch_atlas0_dev.png",
            "Branch_fui.bytes"
        ]
    );
    let decoded = decoded(&published);
    assert_eq!(decoded["branches"], json!(["dev"]));
    let items = items(&decoded);
    assert_eq!(items["atlas0"]["file"], "atlas0.png");
    // A branch's first page takes the first id of further pages.
    assert_eq!(items["atlas100"]["file"], "atlas0_dev.png");
    assert_eq!(items["kn7w1"]["branches"], json!(["kn7w2"]));
    assert_eq!(items["kn7w2"]["branch"], "dev");
    let sprites = sprite_atlases(&decoded);
    assert_eq!(sprites["kn7w1"], "atlas0");
    assert_eq!(sprites["kn7w2"], "atlas100");
    // Written beside the package, as the editor does: branchPath is for merged branches.
    assert!(published.warnings.is_empty(), "{:?}", published.warnings);

    // Without the setting the branch shares the main atlas, as before.
    let shared = branch_package(Branches::All {
        separate_atlases: false,
    });
    let names: Vec<&str> = shared.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["Branch_atlas0.png", "Branch_fui.bytes"]);
    assert!(shared.warnings.is_empty(), "{:?}", shared.warnings);
}

#[test]
fn the_session_publishes_by_the_projects_settings() {
    let publication = publish(&session(), &input(json!({})), usize::MAX)
        .ok()
        .unwrap();
    let files: Vec<&str> = publication.packages[0]
        .files
        .iter()
        .map(|f| f.name.as_str())
        .collect();
    assert!(files.contains(&"Branch_atlas0_dev.png"), "{files:?}");
}

#[test]
fn a_merged_branch_stands_for_the_main_items_it_varies() {
    let published = branch_package(Branches::Merged(Some("dev".to_owned())));
    let names: Vec<&str> = published.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["Branch_atlas0.png", "Branch_fui.bytes"]);
    let decoded = decoded(&published);
    // No branch list, so the runtime registers each merged item under the main id its
    // record names too.
    assert_eq!(decoded["branches"], json!([]));
    let items = items(&decoded);
    assert!(!items.contains_key("kn7w0") && !items.contains_key("kn7w1"));
    assert_eq!(items["kn7w3"]["branches"], json!(["kn7w0"]));
    assert_eq!(items["kn7w3"]["width"], 820);
    assert_eq!(items["kn7w2"]["branches"], json!(["kn7w1"]));
    assert_eq!(items["kn7w2"]["branch"], Value::Null);
    assert_eq!(items["kn7w2"]["name"], "face");
    assert_eq!(sprite_atlases(&decoded)["kn7w2"], "atlas0");

    // No branch: the main resources only.
    let main = branch_package(Branches::Merged(None));
    let decoded = self::decoded(&main);
    assert_eq!(decoded["branches"], json!([]));
    let items = self::items(&decoded);
    assert!(items.contains_key("kn7w0") && items.contains_key("kn7w1"));
    assert!(!items.contains_key("kn7w2") && !items.contains_key("kn7w3"));
    assert!(items["kn7w1"]["branches"].is_null());
}

#[test]
fn a_named_branch_is_merged_and_an_unknown_one_refused() {
    let session = session();
    let merged = publish(&session, &input(json!({ "branch": "dev" })), usize::MAX)
        .ok()
        .unwrap();
    let files: Vec<&str> = merged.packages[0]
        .files
        .iter()
        .map(|f| f.name.as_str())
        .collect();
    assert_eq!(files, ["Branch_atlas0.png", "Branch_fui.bytes"]);
    // Into the branch's folder in branchPath (`../../../../../release/branch`), not over
    // the main output; a directory the caller names is used as named.
    assert_eq!(
        merged.settings_output_path.as_deref(),
        Some("../../../../../release/branch/dev")
    );
    assert_eq!(merged.data.output_dir, "../../../../../release/branch/dev");
    let named = publish(
        &session,
        &input(json!({ "branch": "dev", "outputDir": "out" })),
        usize::MAX,
    )
    .ok()
    .unwrap();
    assert_eq!(named.data.output_dir, "out");
    let main = publish(&session, &input(json!({})), usize::MAX)
        .ok()
        .unwrap();
    assert_eq!(main.data.output_dir, "../../../../../release");

    let Err(refused) = publish(&session, &input(json!({ "branch": "nope" })), usize::MAX) else {
        panic!("no package has branch nope");
    };
    assert_eq!(refused.diagnostics.len(), 1);
    assert_eq!(refused.diagnostics[0].code, "invalid_branch_selector");
    assert_eq!(refused.diagnostics[0].path.as_deref(), Some("/branch"));
}

#[test]
fn merge_mode_without_a_branch_publishes_main_and_warns() {
    let mut fs = MemFs::load(&experiments_root()).unwrap();
    let settings = fs.files.get_mut("settings/Publish.json").unwrap();
    let mut json: Value = serde_json::from_slice(settings).unwrap();
    json["branchProcessing"] = json!(1);
    *settings = serde_json::to_vec(&json).unwrap();
    let session = Session::open(&fs, Names::session("s"), FAIRY, 0).unwrap();
    let publication = publish(&session, &input(json!({})), usize::MAX)
        .ok()
        .unwrap();
    let warnings = &publication.data.packages[0].warnings;
    assert!(
        warnings.iter().any(|w| w.code == "branch_not_named"),
        "{warnings:?}"
    );
}

#[test]
fn a_packages_own_publish_path_is_named_in_a_warning() {
    let mut fs = MemFs::load(&experiments_root()).unwrap();
    let manifest = fs.files.get_mut("assets/Branch/package.xml").unwrap();
    let xml = String::from_utf8(manifest.clone()).unwrap();
    assert!(xml.contains(r#"<publish name=""/>"#));
    *manifest = xml
        .replace(
            r#"<publish name=""/>"#,
            r#"<publish name="" path="../own" branchPath="../own-branches"/>"#,
        )
        .into_bytes();
    let session = Session::open(&fs, Names::session("s"), FAIRY, 0).unwrap();
    let own_path = |input: PublishProjectInput| -> Vec<String> {
        let publication = publish(&session, &input, usize::MAX).ok().unwrap();
        publication.data.packages[0]
            .warnings
            .iter()
            .filter(|w| w.code == "package_path_not_used")
            .map(|w| w.message.clone())
            .collect()
    };
    let main = own_path(input(json!({})));
    assert_eq!(main.len(), 1, "{main:?}");
    assert!(main[0].contains("\"../own\""), "{}", main[0]);
    let branch = own_path(input(json!({ "branch": "dev" })));
    assert!(branch[0].contains("\"../own-branches\""), "{}", branch[0]);
    // The caller chose the directory: nothing to say.
    assert!(own_path(input(json!({ "outputDir": "out" }))).is_empty());

    // A package path that is the project's own is followed.
    let manifest = fs.files.get_mut("assets/Branch/package.xml").unwrap();
    let xml = String::from_utf8(manifest.clone()).unwrap();
    *manifest = xml
        .replace(r#"path="../own""#, r#"path="../../../../../release""#)
        .into_bytes();
    let session = Session::open(&fs, Names::session("s"), FAIRY, 0).unwrap();
    let publication = publish(&session, &input(json!({})), usize::MAX)
        .ok()
        .unwrap();
    let warnings = &publication.data.packages[0].warnings;
    assert!(
        !warnings.iter().any(|w| w.code == "package_path_not_used"),
        "{warnings:?}"
    );
}

/// What `publish-package` hands out for a package a `publish` did not keep (past its
/// memory budget) is published again from the same model: it must be the same files.
#[test]
fn a_package_published_again_is_the_package_the_plan_listed() {
    let session = session();
    for extra in [
        json!({ "dryRun": false, "packages": ["Branch", "Loader"] }),
        json!({ "dryRun": false, "branch": "dev" }),
    ] {
        let input = input(extra);
        let whole = publish(&session, &input, usize::MAX).ok().unwrap();
        let planned = publish(&session, &input, 0).ok().unwrap();
        assert!(planned.kept.is_empty());
        // At the edge: a budget of exactly the first package's bytes keeps it alone.
        let first = &whole.packages[0];
        let first_bytes: usize = first.files.iter().map(|f| f.bytes.len()).sum();
        let edge = publish(&session, &input, first_bytes).ok().unwrap();
        if whole.packages.len() > 1 {
            assert_eq!(edge.kept, std::slice::from_ref(&first.package_name));
        }
        let under = publish(&session, &input, first_bytes - 1).ok().unwrap();
        assert!(under.kept.is_empty());
        assert_eq!(
            planned.data, whole.data,
            "the plan reports what a whole publish does"
        );
        for package in &whole.packages {
            assert!(whole.kept.contains(&package.package_name));
            let again = ofgui_backend::session::publishing::publish_one(
                &session,
                &input,
                &package.package_name,
            )
            .ok()
            .unwrap();
            assert_eq!(again.files, package.files, "{}", package.package_name);
        }
        let Err(unknown) =
            ofgui_backend::session::publishing::publish_one(&session, &input, "Nope")
        else {
            panic!("a package the publish does not have was published");
        };
        assert_eq!(
            unknown.error.code(),
            ofgui_contracts::error::ErrorCode::InvalidInput
        );
    }
}
