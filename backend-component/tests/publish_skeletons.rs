//! Spine and DragonBones skeletons publish their files under their own names (no
//! `<Package>_` prefix), and their items name the skeleton file the runtime loads. The
//! experiments corpus' `Loader` package has three Spine skeletons and a DragonBones one.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use ofgui_backend::fs::StdFs;
use ofgui_backend::publish::{PublishOptions, publish_package};
use ofgui_backend::reader::{ProjectSource, read_project};
use ofgui_backend::session::publishing::publish;
use ofgui_backend::session::{Names, Session};
use ofgui_backend::testing::{MemFs, experiments_root};
use ofgui_contracts::api::PublishProjectInput;

const FAIRY: &str = "FairyGUI-Experiments.fairy";

fn experiments() -> ProjectSource {
    read_project(&StdFs::new(experiments_root()), FAIRY).unwrap()
}

fn loader_images(name: &str) -> Vec<u8> {
    std::fs::read(experiments_root().join("assets/Loader/images").join(name)).unwrap()
}

#[test]
fn loader_copies_each_skeleton_and_what_it_requires_under_their_names() {
    let source = experiments();
    let published = publish_package(
        &source.project,
        &source.bytes,
        "Loader",
        &PublishOptions::default(),
    )
    .unwrap();
    assert!(published.warnings.is_empty(), "{:?}", published.warnings);
    let files: BTreeMap<&str, &[u8]> = published
        .files
        .iter()
        .map(|f| (f.name.as_str(), f.bytes.as_slice()))
        .collect();
    // `spineboy-ess` is neither exported nor used, so it is not published. Unity imports
    // binary skeletons as `.bytes` and Spine atlases as `.atlas.txt`.
    let expected = [
        ("alien-pma.atlas.txt", "alien-pma.atlas"),
        ("alien-pma.png", "alien-pma.png"),
        ("alien-pro.skel.bytes", "alien-pro.skel"),
        ("dragon.png", "dragon.png"),
        ("dragon_ske.json", "dragon_ske.json"),
        ("dragon_tex.json", "dragon_tex.json"),
        ("mix-and-match-pma.atlas.txt", "mix-and-match-pma.atlas"),
        ("mix-and-match-pma.png", "mix-and-match-pma.png"),
        ("mix-and-match-pro.skel.bytes", "mix-and-match-pro.skel"),
    ];
    let mut names: Vec<&str> = expected.iter().map(|(name, _)| *name).collect();
    names.push("Loader_fui.bytes");
    names.sort_unstable();
    assert_eq!(files.keys().copied().collect::<Vec<_>>(), names);
    for (name, source_name) in expected {
        assert!(files[name] == loader_images(source_name), "{name} differs");
    }
    for file in &published.files {
        assert_eq!(file.skeleton_of.is_some(), file.name != "Loader_fui.bytes");
    }

    // The items name the skeleton files; the required images are no sprites (nothing
    // but the skeletons uses them), so there is no atlas.
    let decoded = ofgui_fui::decode(files["Loader_fui.bytes"]).unwrap();
    let items: BTreeMap<&str, &serde_json::Value> = decoded["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| (item["id"].as_str().unwrap(), item))
        .collect();
    assert_eq!(items["nbcge"]["file"], "alien-pro.skel.bytes");
    assert!(!items.contains_key("czqy1d"));
    assert_eq!(items["czqy1h"]["file"], "mix-and-match-pro.skel.bytes");
    assert_eq!(items["biss6"]["file"], "dragon_ske.json");
    assert_eq!(items["biss6"]["type"], "dragonbones");
    for required in ["biss7", "biss8", "nbcg7", "nbcg8", "czqy1e", "czqy1f"] {
        assert!(!items.contains_key(required), "{required} is an item");
    }
    assert_eq!(decoded["sprites"], serde_json::json!([]));
    assert!(!items.values().any(|item| item["type"] == "atlas"));
}

#[test]
fn other_engines_keep_every_original_name() {
    let mut source = experiments();
    source.project.project_type_name = "Cocos2dx".to_owned();
    source.project.project_type = 3;
    let published = publish_package(
        &source.project,
        &source.bytes,
        "Loader",
        &PublishOptions::default(),
    )
    .unwrap();
    let names: Vec<&str> = published.files.iter().map(|f| f.name.as_str()).collect();
    assert!(names.contains(&"alien-pro.skel"), "{names:?}");
    assert!(names.contains(&"alien-pma.atlas"), "{names:?}");
    // `fileExtension` is `bytes` in this project.
    assert!(names.contains(&"Loader.bytes"), "{names:?}");
    let descriptor = published
        .files
        .iter()
        .find(|f| f.name == "Loader.bytes")
        .unwrap();
    let decoded = ofgui_fui::decode(&descriptor.bytes).unwrap();
    let spine = decoded["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["id"] == "nbcge")
        .unwrap();
    assert_eq!(spine["file"], "alien-pro.skel");
}

/// The experiments project on memory, with `Loader` copied as package `dir` (a new id).
fn with_copy_of_loader(dir: &str, id: &str) -> MemFs {
    let mut fs = MemFs::load(&experiments_root()).unwrap();
    let copies: Vec<(String, Vec<u8>)> = fs
        .files
        .iter()
        .filter_map(|(path, bytes)| {
            let rest = path.strip_prefix("assets/Loader/")?;
            // The package's own URLs name its id.
            let bytes = if rest.ends_with(".xml") {
                String::from_utf8(bytes.clone())
                    .unwrap()
                    .replace("hzobybbt", id)
                    .into_bytes()
            } else {
                bytes.clone()
            };
            Some((format!("assets/{dir}/{rest}"), bytes))
        })
        .collect();
    fs.files.extend(copies);
    fs
}

fn input(packages: &[&str]) -> PublishProjectInput {
    serde_json::from_value(serde_json::json!({
        "sessionId": "s",
        "packages": packages,
        "dryRun": true,
    }))
    .unwrap()
}

#[test]
fn two_packages_writing_one_name_are_refused_and_one_alone_is_warned() {
    let fs = with_copy_of_loader("Loader2", "lodr2abc");
    let session = Session::open(&fs, Names::session("s"), FAIRY, 0).unwrap();
    let refused = match publish(&session, &input(&["Loader", "Loader2"]), usize::MAX) {
        Ok(p) => panic!("two packages publish alien-pma.png: {:?}", p.data.packages),
        Err(refused) => refused,
    };
    assert!(!refused.diagnostics.is_empty());
    assert!(
        refused
            .diagnostics
            .iter()
            .all(|d| d.code == "file_name_collision"
                && d.path.as_deref().is_some_and(|p| p.starts_with("Loader2/"))),
        "{:?}",
        refused.diagnostics
    );

    let alone = publish(&session, &input(&["Loader"]), usize::MAX)
        .ok()
        .unwrap();
    let warnings = &alone.data.packages[0].warnings;
    assert!(
        !warnings.is_empty() && warnings.iter().all(|w| w.code == "file_name_shared"),
        "{warnings:?}"
    );
}

#[test]
fn a_name_another_package_owns_is_refused() {
    // Package `dragon` owns `dragon_…` files, so its publish would remove Loader's
    // `dragon_ske.json` as stale.
    let fs = with_copy_of_loader("dragon", "dragon12");
    let session = Session::open(&fs, Names::session("s"), FAIRY, 0).unwrap();
    let Err(refused) = publish(&session, &input(&["Loader"]), usize::MAX) else {
        panic!("dragon_ske.json is package dragon's by name");
    };
    let paths: Vec<&str> = refused
        .diagnostics
        .iter()
        .filter(|d| d.code == "file_name_collision")
        .filter_map(|d| d.path.as_deref())
        .collect();
    assert!(paths.contains(&"Loader/biss6"), "{:?}", refused.diagnostics);
}
