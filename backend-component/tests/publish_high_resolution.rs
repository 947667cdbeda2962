//! High-resolution variants: with `@2x` included (the unity corpus' settings say
//! `includeHighResolution: 1`), an image resource `0@2x.png` beside `0.png` in Bag is
//! published as an item of its own, at its own size, and `0.png`'s record lists it; with
//! the scale not included it is published only by the usual rules (here: not at all).

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::Path;

use ofgui_backend::fs::StdFs;
use ofgui_backend::publish::{PublishOptions, publish_package};
use ofgui_backend::reader::read_project;
use ofgui_backend::testing::{copy_tree, unity_root};
use serde_json::Value;

const FAIRY: &str = "FairyGUI-Unity-Examples.fairy";
/// Bag's `/images/0.png`.
const BASE: &str = "dwwc5";
const VARIANT: &str = "hr2x01";

/// A copy of the unity corpus whose Bag holds `0@2x.png` (the pixels of `5.png`, which
/// is another size) as a resource of its own.
fn project_with_variant(root: &Path) {
    copy_tree(&unity_root(), root).unwrap();
    let bag = root.join("assets/Bag");
    std::fs::copy(bag.join("images/5.png"), bag.join("images/0@2x.png")).unwrap();
    let manifest = bag.join("package.xml");
    let xml = std::fs::read_to_string(&manifest).unwrap();
    let line = r#"<image id="dwwc5" name="0.png" path="/images/"/>"#;
    assert!(xml.contains(line));
    let xml = xml.replacen(
        line,
        &format!(r#"{line}<image id="{VARIANT}" name="0@2x.png" path="/images/"/>"#),
        1,
    );
    std::fs::write(manifest, xml).unwrap();
}

fn bag_items(root: &Path) -> (BTreeMap<String, Value>, Vec<String>) {
    let source = read_project(&StdFs::new(root), FAIRY).unwrap();
    let published = publish_package(
        &source.project,
        &source.bytes,
        "Bag",
        &PublishOptions::default(),
    )
    .unwrap();
    let descriptor = published
        .files
        .iter()
        .find(|f| f.name == "Bag_fui.bytes")
        .unwrap();
    let decoded = ofgui_fui::decode(&descriptor.bytes).unwrap();
    let items = decoded["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| (item["id"].as_str().unwrap().to_owned(), item.clone()))
        .collect();
    let sprites = decoded["sprites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_owned())
        .collect();
    (items, sprites)
}

#[test]
fn an_included_variant_is_its_own_item_listed_by_its_base() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("p");
    project_with_variant(&root);

    let (items, sprites) = bag_items(&root);
    let base = &items[BASE];
    assert_eq!(
        base["highResolution"],
        serde_json::json!([VARIANT]),
        "{base}"
    );
    let variant = items.get(VARIANT).expect("the variant is published");
    assert_eq!(variant["type"], "image");
    assert_ne!(
        (&variant["width"], &variant["height"]),
        (&base["width"], &base["height"]),
        "the variant keeps its own size: {variant}"
    );
    assert!(variant.get("highResolution").is_none(), "{variant}");
    assert!(
        sprites.contains(&VARIANT.to_owned()),
        "the variant has a sprite"
    );
}

#[test]
fn a_variant_of_a_scale_not_included_is_not_listed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("p");
    project_with_variant(&root);
    let settings = root.join("settings/Publish.json");
    let json = std::fs::read_to_string(&settings).unwrap();
    assert!(json.contains(r#""includeHighResolution":1"#));
    std::fs::write(
        &settings,
        json.replace(
            r#""includeHighResolution":1"#,
            r#""includeHighResolution":2"#,
        ),
    )
    .unwrap();

    let (items, _) = bag_items(&root);
    assert!(
        items[BASE].get("highResolution").is_none(),
        "{}",
        items[BASE]
    );
    assert!(
        !items.contains_key(VARIANT),
        "unused and not exported, so not published"
    );
}
