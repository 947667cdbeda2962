//! The publisher's descriptors against what the FairyGUI editor published from the same
//! project (`fairygui-unity-examples/published`, 30 packages: 28 at version 2, Basics and
//! TextMeshPro at version 7).
//!
//! Each package is published at the reference's version; both descriptors are decoded with
//! `ofgui_fui::decode` and compared by content with `ofgui_fui::diff`, without the fields
//! that only describe the layout (block tables, segment offsets, the string count) and
//! without where the atlases put things (sprite rectangles and rotation, atlas page sizes,
//! sprite order), which our packer decides differently; `publish_atlas.rs` compares those
//! sprites' pixels and the hit-test masks' bits. Every difference must be on the KNOWN list,
//! and every KNOWN entry must still occur, so the list only shrinks.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use ofgui_backend::fs::StdFs;
use ofgui_backend::publish::{PublishOptions, publish_descriptor};
use ofgui_backend::reader::{ProjectSource, read_project};
use ofgui_backend::testing::unity_root;
use ofgui_contracts::uam::UamResource;
use serde_json::Value;

/// Differences we know of: (package, a substring of the difference line, why). None are
/// left: child sizes and list margins follow whether the XML writes them.
const KNOWN: &[(&str, &str, &str)] = &[];

fn read_unity() -> ProjectSource {
    read_project(&StdFs::new(unity_root()), "FairyGUI-Unity-Examples.fairy").expect("unity reads")
}

fn published_dir() -> std::path::PathBuf {
    unity_root().join("../published")
}

/// The package names of the reference, from its file names.
fn reference_packages() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(published_dir())
        .expect("the published reference")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.strip_suffix("_fui.bytes").map(str::to_owned)
        })
        .collect();
    names.sort();
    names
}

/// Drops what this test does not compare: layout fields everywhere, the string table's
/// order (not its entries), and placement: sprites
/// become id, atlas, unrotated size, trim offset and original size (the runtime's defaults
/// where a record has no trim data), sorted by id; atlas items lose their page size; hit-test
/// entries their bits.
fn comparable(decoded: Value) -> Value {
    comparable_as(decoded, false)
}

/// [`comparable`], for a runtime whose turned sprites' rectangles hold the picture's own
/// size (Cocos) when `own_size_rects`.
pub(crate) fn comparable_as(mut decoded: Value, own_size_rects: bool) -> Value {
    strip_layout(&mut decoded);
    if let Some(header) = decoded.get_mut("header").and_then(Value::as_object_mut) {
        for key in ["segments", "segmentRanges", "segmentIndexPos"] {
            header.remove(key);
        }
    }
    if let Some(package) = decoded.as_object_mut() {
        package.remove("stringCount");
    }
    // The table's order follows the records' (sprites by page): compared as a multiset.
    if let Some(strings) = decoded.get_mut("strings").and_then(Value::as_array_mut) {
        strings.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
    }
    if let Some(items) = decoded.get_mut("items").and_then(Value::as_array_mut) {
        for item in items.iter_mut().filter(|item| item["type"] == "atlas") {
            if let Some(item) = item.as_object_mut() {
                item.remove("width");
                item.remove("height");
            }
        }
    }
    if let Some(sprites) = decoded.get_mut("sprites").and_then(Value::as_array_mut) {
        for sprite in sprites.iter_mut() {
            *sprite = placement_free(sprite, own_size_rects);
        }
        sprites.sort_by(|a, b| a["id"].as_str().cmp(&b["id"].as_str()));
    }
    if let Some(entries) = decoded.get_mut("hitTest").and_then(Value::as_array_mut) {
        for entry in entries.iter_mut().filter_map(Value::as_object_mut) {
            entry.remove("pixels");
            entry.remove("pixelsSetBits");
        }
    }
    decoded
}

/// A sprite record without where it sits: its picture's size as it is (not as stored), the
/// trim offset and the original size.
fn placement_free(sprite: &Value, own_size_rects: bool) -> Value {
    let rect: Vec<u64> = sprite["rect"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let size = if sprite["rotated"] == true && !own_size_rects {
        [rect[3], rect[2]]
    } else {
        [rect[2], rect[3]]
    };
    let (offset, original) = if sprite["trimmed"] == true {
        (sprite["offset"].clone(), sprite["originalSize"].clone())
    } else {
        (serde_json::json!([0, 0]), serde_json::json!(size))
    };
    serde_json::json!({
        "id": sprite["id"],
        "atlas": sprite["atlas"],
        "size": size,
        "offset": offset,
        "originalSize": original,
    })
}

fn strip_layout(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove("blockTable");
            map.values_mut().for_each(strip_layout);
        }
        Value::Array(values) => values.iter_mut().for_each(strip_layout),
        _ => {}
    }
}

/// Our descriptor and the editor's for one package, decoded.
struct Pair {
    ours: Vec<u8>,
    theirs: Vec<u8>,
    ours_decoded: Value,
    theirs_decoded: Value,
}

fn publish_pair(source: &ProjectSource, package: &str) -> Pair {
    let theirs = std::fs::read(published_dir().join(format!("{package}_fui.bytes"))).unwrap();
    let theirs_decoded = ofgui_fui::decode(&theirs).unwrap();
    let version = theirs_decoded["header"]["version"].as_i64().unwrap();
    let options = PublishOptions {
        version: i32::try_from(version).unwrap(),
        ..Default::default()
    };
    let descriptor = publish_descriptor(&source.project, &source.bytes, package, &options)
        .unwrap_or_else(|e| panic!("{package}: {e}"));
    // `PUBLISH_OUT_DIR=<dir>` keeps our descriptors there, to inspect them.
    if let Some(dir) = std::env::var_os("PUBLISH_OUT_DIR") {
        std::fs::write(
            std::path::Path::new(&dir).join(format!("{package}_fui.bytes")),
            &descriptor.bytes,
        )
        .unwrap();
    }
    let ours_decoded = ofgui_fui::decode(&descriptor.bytes)
        .unwrap_or_else(|e| panic!("{package}: our descriptor does not decode: {e}"));
    Pair {
        ours: descriptor.bytes,
        theirs,
        ours_decoded,
        theirs_decoded,
    }
}

#[test]
fn descriptors_match_the_editors() {
    let source = read_unity();
    let packages = reference_packages();
    assert_eq!(packages.len(), 30, "{packages:?}");
    let mut unexpected = Vec::new();
    let mut used = vec![false; KNOWN.len()];
    let mut equal_items = 0;
    let mut equal_components = 0;
    let mut equal = Vec::new();
    for package in &packages {
        let pair = publish_pair(&source, package);
        let theirs = comparable(pair.theirs_decoded);
        let ours = comparable(pair.ours_decoded);
        let lines = ofgui_fui::diff(&theirs, &ours, 100_000);
        if lines.is_empty() {
            equal.push(package.clone());
        }
        // Item records apart from their components' content.
        if !lines
            .iter()
            .any(|l| l.starts_with("/items") && !l.contains("/component/"))
        {
            equal_items += 1;
        }
        if !lines.iter().any(|l| l.contains("/component/")) {
            equal_components += 1;
        }
        for line in lines {
            let known = KNOWN
                .iter()
                .position(|(p, needle, _)| p == package && line.contains(needle));
            match known {
                Some(k) => {
                    if let Some(flag) = used.get_mut(k) {
                        *flag = true;
                    }
                }
                None => unexpected.push(format!("{package}: {line}")),
            }
        }
    }
    eprintln!(
        "{} of 30 packages equal; items equal in {equal_items}, components in {equal_components}",
        equal.len()
    );
    // `PUBLISH_DIFF_OUT=<file>` writes every unexpected difference there, to work the list.
    if let Some(path) = std::env::var_os("PUBLISH_DIFF_OUT") {
        std::fs::write(path, unexpected.join("\n")).unwrap();
    }
    let stale: Vec<_> = KNOWN
        .iter()
        .zip(&used)
        .filter(|(_, used)| !**used)
        .map(|((p, needle, _), _)| format!("{p}: {needle}"))
        .collect();
    assert!(
        unexpected.is_empty(),
        "{} differences not on the KNOWN list:\n{}",
        unexpected.len(),
        unexpected
            .iter()
            .take(300)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        stale.is_empty(),
        "KNOWN entries that no longer occur (remove them):\n{}",
        stale.join("\n")
    );
}

/// Bytes a KNOWN difference leaves out of our descriptor: a child size (two i32) or a list
/// margin (four i32) the editor wrote and we do not.
fn known_gap(line: &str) -> usize {
    let pointer = line.split(": expected").next().unwrap_or_default();
    assert!(
        line.ends_with(", got nothing"),
        "not a missing field: {line}"
    );
    if pointer.ends_with("/size") {
        8
    } else if pointer.ends_with("/margin") {
        16
    } else {
        panic!("no byte count for {line}")
    }
}

/// For the version-7 packages, the bytes too: the descriptor has the editor's length, once
/// the bytes of the KNOWN differences (fields the editor wrote and we do not) are counted
/// in. Sprite records and atlas items have the same length wherever they are placed (every
/// version-7 sprite of an image or font carries trim data), so this holds atlases included.
#[test]
fn version_7_descriptors_have_the_editors_length() {
    let source = read_unity();
    for package in ["Basics", "TextMeshPro"] {
        let pair = publish_pair(&source, package);
        assert_eq!(pair.theirs_decoded["header"]["version"], 7);
        let gap: usize = ofgui_fui::diff(
            &comparable(pair.theirs_decoded.clone()),
            &comparable(pair.ours_decoded.clone()),
            100_000,
        )
        .iter()
        .map(|line| known_gap(line))
        .sum();
        assert_eq!(
            pair.ours.len() + gap,
            pair.theirs.len(),
            "{package}: {} bytes (+{gap} for KNOWN differences), the editor's {}",
            pair.ours.len(),
            pair.theirs.len()
        );
    }
}

#[test]
fn a_wrong_field_shows() {
    // Guards the whole chain: one node moved in the model must show as exactly that field
    // of that child, and nowhere else, when compared with the editor's Bag.
    let mut source = read_unity();
    let theirs = comparable(publish_pair(&source, "Bag").theirs_decoded);
    let before = comparable(publish_pair(&source, "Bag").ours_decoded);
    let baseline = ofgui_fui::diff(&theirs, &before, 100_000);
    let package = source
        .project
        .packages
        .iter_mut()
        .find(|p| p.name == "Bag")
        .unwrap();
    let package = std::sync::Arc::make_mut(package);
    let (id, node) = package
        .resources
        .iter_mut()
        .find_map(|r| {
            let id = r.id().to_owned();
            match std::sync::Arc::make_mut(r) {
                ofgui_contracts::uam::UamResource::Component(c) if c.exported => {
                    let node = c.component.display_list.first_mut()?;
                    if node.kind() == "group" {
                        return None;
                    }
                    node.base_mut().position.x.0 += 3.0;
                    Some((id, node.id().to_owned()))
                }
                _ => None,
            }
        })
        .unwrap();
    let after = comparable(publish_pair(&source, "Bag").ours_decoded);
    let changed: Vec<String> = ofgui_fui::diff(&theirs, &after, 100_000)
        .into_iter()
        .filter(|line| !baseline.contains(line))
        .collect();
    assert_eq!(changed.len(), 1, "{id}/{node}: {changed:?}");
    assert!(
        changed[0].contains("/children/0/") && changed[0].contains("x"),
        "{changed:?}"
    );
}

#[test]
fn every_experiments_package_publishes_and_decodes() {
    // Branches, Spine and DragonBones loaders, settings variants: no reference output, but
    // every package must publish at both versions and decode strictly.
    let source = read_project(
        &StdFs::new(ofgui_backend::testing::experiments_root()),
        "FairyGUI-Experiments.fairy",
    )
    .expect("experiments read");
    assert!(!source.project.packages.is_empty());
    for package in &source.project.packages {
        for version in [2, 7] {
            let options = PublishOptions {
                version,
                ..Default::default()
            };
            let descriptor =
                publish_descriptor(&source.project, &source.bytes, &package.id, &options)
                    .unwrap_or_else(|e| panic!("{} v{version}: {e}", package.name));
            let decoded = ofgui_fui::decode(&descriptor.bytes)
                .unwrap_or_else(|e| panic!("{} v{version}: {e}", package.name));
            assert_eq!(decoded["header"]["name"], package.name.as_str());
            assert_eq!(decoded["header"]["version"], version);
        }
    }
}

#[test]
fn unknown_packages_and_versions_are_refused() {
    let source = read_unity();
    let refused = publish_descriptor(
        &source.project,
        &source.bytes,
        "NoSuchPackage",
        &PublishOptions::default(),
    );
    assert!(matches!(
        refused,
        Err(ofgui_backend::publish::PublishError::NoSuchPackage(_))
    ));
    let refused = publish_descriptor(
        &source.project,
        &source.bytes,
        "Bag",
        &PublishOptions {
            version: 8,
            ..Default::default()
        },
    );
    assert!(matches!(
        refused,
        Err(ofgui_backend::publish::PublishError::UnsupportedVersion(8))
    ));
}

#[test]
fn experiments_output_decodes_back_to_the_session_model() {
    // No editor output exists for this corpus, so the model is the reference: every
    // published item is a resource of the package (id, name, type), and every component's
    // controllers and display list (ids, names, kinds, places, sizes, loader URLs) read
    // back as the session holds them, branch variants included.
    let source = read_project(
        &StdFs::new(ofgui_backend::testing::experiments_root()),
        "FairyGUI-Experiments.fairy",
    )
    .expect("experiments read");
    let number = |value: &Value| value.as_f64().unwrap_or(f64::NAN);
    let mut components = 0;
    for package in &source.project.packages {
        let descriptor = publish_descriptor(
            &source.project,
            &source.bytes,
            &package.id,
            &PublishOptions::default(),
        )
        .unwrap();
        let decoded = ofgui_fui::decode(&descriptor.bytes).unwrap();
        for item in decoded["items"].as_array().unwrap() {
            let id = item["id"].as_str().unwrap();
            if item["type"] == "atlas" {
                continue;
            }
            let resource = package
                .resources
                .iter()
                .find(|r| r.id() == id)
                .unwrap_or_else(|| panic!("{}: item {id} is no resource", package.name));
            assert_eq!(item["name"], resource.name(), "{}/{id}", package.name);
            let UamResource::Component(component) = resource.as_ref() else {
                continue;
            };
            components += 1;
            let at = format!("{}/{}", package.name, component.name);
            let body = &item["component"];
            let model = &component.component;
            let controllers: Vec<(String, Vec<String>)> = body["controllers"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    let pages = c["pages"].as_array().unwrap();
                    let names = pages.iter().map(|p| p["name"].as_str().unwrap().to_owned());
                    (c["name"].as_str().unwrap().to_owned(), names.collect())
                })
                .collect();
            let expected: Vec<(String, Vec<String>)> = model
                .controllers
                .iter()
                .map(|c| {
                    (
                        c.name.clone(),
                        c.pages.iter().map(|p| p.name.clone()).collect(),
                    )
                })
                .collect();
            assert_eq!(controllers, expected, "{at}: controllers");
            let children = body["children"].as_array().unwrap();
            assert_eq!(children.len(), model.display_list.len(), "{at}: children");
            for (child, node) in children.iter().zip(&model.display_list) {
                let base = node.base();
                let here = format!("{at}/{}", base.id);
                assert_eq!(child["id"], base.id.as_str(), "{here}");
                assert_eq!(child["name"], base.name.as_str(), "{here}");
                assert_eq!(
                    child["type"].as_str().unwrap().to_ascii_lowercase(),
                    node.kind().to_ascii_lowercase(),
                    "{here}"
                );
                let position = serde_json::to_value(&base.position).unwrap();
                assert_eq!(number(&child["x"]), number(&position["x"]), "{here}: x");
                assert_eq!(number(&child["y"]), number(&position["y"]), "{here}: y");
                let size = serde_json::to_value(&base.size).unwrap();
                assert_eq!(
                    (number(&child["size"][0]), number(&child["size"][1])),
                    (number(&size["width"]), number(&size["height"])),
                    "{here}: size"
                );
                let node_value = serde_json::to_value(node).unwrap();
                if let Some(url) = node_value.get("url").and_then(Value::as_str) {
                    assert_eq!(child["url"], url, "{here}: url");
                }
            }
        }
    }
    // Main on the main line and on the dev branch, and the Loader's Main.
    assert_eq!(components, 3);
}
