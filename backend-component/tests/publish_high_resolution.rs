//! High-resolution variants (`name@2x.png` beside `name.png`) are not published yet; a
//! publish whose settings include them names each such image in a warning rather than
//! leaving the game silently without them.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use ofgui_backend::fs::StdFs;
use ofgui_backend::publishing::{publish, publish_with};
use ofgui_backend::session::{Names, Session};
use ofgui_backend::testing::{copy_tree, unity_root};
use ofgui_contracts::api::PublishProjectInput;
use serde_json::json;

const FAIRY: &str = "FairyGUI-Unity-Examples.fairy";

fn warnings(session: &Session, disk: Option<&StdFs>) -> Vec<(String, String)> {
    let input: PublishProjectInput =
        serde_json::from_value(json!({ "sessionId": "s", "packages": ["Bag"], "dryRun": true }))
            .unwrap();
    let publication = match disk {
        Some(disk) => publish_with(session, &input, Some(disk)).unwrap(),
        None => publish(session, &input).unwrap(),
    };
    publication.packages[0]
        .warnings
        .iter()
        .filter(|w| w.code == "high_resolution_not_published")
        .map(|w| (w.resource_id.clone().unwrap_or_default(), w.message.clone()))
        .collect()
}

#[test]
fn an_included_variant_beside_a_published_image_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("p");
    copy_tree(&unity_root(), &root).unwrap();
    let disk = StdFs::new(&root);
    let session = Session::open(&disk, Names::session("s"), FAIRY, 0).unwrap();
    assert!(warnings(&session, Some(&disk)).is_empty(), "no variant yet");

    // A 2x variant of one of Bag's images (the settings include 2x: includeHighResolution 1).
    let image = session
        .project()
        .packages
        .iter()
        .find(|p| p.name == "Bag")
        .unwrap()
        .resources
        .iter()
        .find(|r| r.kind() == "image")
        .unwrap()
        .clone();
    let path = image.source_path().unwrap().to_owned();
    let variant = path.replacen(".png", "@2x.png", 1);
    assert_ne!(variant, path);
    std::fs::copy(root.join(&path), root.join(&variant)).unwrap();
    let found = warnings(&session, Some(&disk));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, image.id());
    assert!(found[0].1.contains("@2x.png"), "{}", found[0].1);
    // Without the disk (a session opened from a document) nothing can be looked at.
    assert!(warnings(&session, None).is_empty());
}
