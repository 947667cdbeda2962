//! `addResource` with only a kind, a file name and bytes: the server generates the id,
//! derives the image and movie clip blocks, reports what it chose, chooses the same in
//! the preview and the apply, and saves the bare element the editor writes.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use base64::Engine as _;
use ofgui_backend::fs::StdFs;
use ofgui_backend::session::{Names, Session};
use ofgui_backend::testing::{copy_tree, unity_root};
use ofgui_contracts::api::{GeneratedValues, TransactionPreview};
use ofgui_contracts::uam::UamResource;
use serde_json::{Value, json};

const UNITY: &str = "FairyGUI-Unity-Examples.fairy";
const BASICS: &str = "9leh0eyf";
const TREE: &str = "5nx1f8vz";

fn open_copy() -> (tempfile::TempDir, StdFs, Session) {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&unity_root(), dir.path()).unwrap();
    let fs = StdFs::new(dir.path());
    let session = Session::open(&fs, Names::session("s"), UNITY, 0).unwrap();
    (dir, fs, session)
}

fn base64_of(dir: &std::path::Path, path: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(std::fs::read(dir.join(path)).unwrap())
}

/// What a preflight would generate (its preview must parse as `TransactionPreview`).
struct Previewed {
    generated: Vec<GeneratedValues>,
}

fn preview(session: &Session, batch: &Value) -> Previewed {
    let (text, generated) = session.preflight(0, &batch.to_string()).unwrap();
    let _: TransactionPreview = serde_json::from_str(&text).unwrap();
    Previewed { generated }
}

fn added<'s>(session: &'s Session, package: &str, id: &str) -> &'s UamResource {
    session
        .project()
        .packages
        .iter()
        .find(|p| p.id == package)
        .and_then(|p| p.resources.iter().find(|r| r.id() == id))
        .map(AsRef::as_ref)
        .unwrap_or_else(|| panic!("resource {id} in {package}"))
}

fn generated_id(generated: &GeneratedValues) -> String {
    generated.values["id"].as_str().unwrap().to_string()
}

/// The id of the resource an operation added, generated or not.
fn target_id(generated: &GeneratedValues) -> String {
    let target = serde_json::to_value(&generated.target).unwrap();
    target["selector"]["resourceId"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn an_image_needs_only_its_file_name_and_bytes() {
    let (dir, fs, mut session) = open_copy();
    let batch = json!([{ "kind": "addResource", "opId": "icon", "selector": { "packageId": BASICS },
        "resource": { "kind": "image", "fileName": "icon.png",
                      "sourceBytes": base64_of(dir.path(), "assets/Basics/images/k4.png") } }]);

    let preview = preview(&session, &batch);
    assert_eq!(preview.generated.len(), 1);
    let chosen = &preview.generated[0];
    assert_eq!(
        (chosen.op_index, chosen.op_id.as_deref()),
        (0, Some("icon"))
    );
    assert_eq!(chosen.operation_kind, "addResource");
    let id = generated_id(chosen);
    assert_eq!(id.len(), 6);
    assert!(
        id.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    );
    let fields: Vec<&str> = chosen.values.keys().map(String::as_str).collect();
    for field in [
        "id",
        "name",
        "path",
        "exported",
        "favorite",
        "branch",
        "branchItemIds",
        "sourcePath",
        "dimensions",
        "image",
    ] {
        assert!(
            fields.contains(&field),
            "{field} not reported in {fields:?}"
        );
    }
    // What was sent is not reported as chosen.
    assert!(!fields.contains(&"fileName") && !fields.contains(&"kind"));
    assert_eq!(chosen.values["name"], json!("icon"));
    assert_eq!(chosen.values["path"], json!("/"));
    assert_eq!(chosen.values["sourcePath"], json!("assets/Basics/icon.png"));
    assert_eq!(
        chosen.values["dimensions"],
        json!({ "width": 66, "height": 44 })
    );
    assert_eq!(
        chosen.values["image"],
        json!({ "textureSetMode": "", "qualityOption": "", "quality": 0, "smoothing": true,
                "duplicatePadding": false, "scaleOption": 0, "scale9Grid": null, "tileGridIndice": 0 })
    );
    let target = serde_json::to_value(&chosen.target).unwrap();
    assert_eq!(
        target,
        json!({ "kind": "resource", "selector": { "packageId": BASICS, "resourceId": id } })
    );

    // The apply at the same revision chooses exactly what the preview showed.
    let applied = session.apply(0, &batch.to_string()).unwrap();
    assert_eq!(applied, preview.generated);
    let UamResource::Image(image) = added(&session, BASICS, &id) else {
        panic!("an image")
    };
    assert_eq!(image.file_name.as_deref(), Some("icon.png"));

    // The save writes the bare element the editor writes for an imported image, and the
    // file; nothing else in package.xml changes.
    let before = std::fs::read_to_string(dir.path().join("assets/Basics/package.xml")).unwrap();
    let report = session.save(&fs, Some(1)).unwrap();
    assert!(report.verified);
    let after = std::fs::read_to_string(dir.path().join("assets/Basics/package.xml")).unwrap();
    let new_lines: Vec<&str> = after
        .lines()
        .filter(|line| !before.lines().any(|old| old == *line))
        .collect();
    assert_eq!(new_lines.len(), 1, "{new_lines:?}");
    assert!(
        new_lines[0]
            .trim()
            .starts_with(&format!(r#"<image id="{id}" name="icon.png" path="/""#)),
        "{}",
        new_lines[0]
    );
    for attribute in [
        "scale",
        "quality",
        "smoothing",
        "atlas",
        "exported",
        "favorite",
    ] {
        assert!(
            !new_lines[0].contains(&format!(" {attribute}=")),
            "{attribute} written: {}",
            new_lines[0]
        );
    }
    assert_eq!(
        std::fs::read(dir.path().join("assets/Basics/icon.png")).unwrap(),
        std::fs::read(dir.path().join("assets/Basics/images/k4.png")).unwrap()
    );
}

#[test]
fn a_movie_clip_is_derived_from_its_jta() {
    let (dir, _fs, mut session) = open_copy();
    let batch = json!([{ "kind": "addResource", "selector": { "packageId": BASICS },
        "resource": { "kind": "movieClip", "fileName": "heart.jta", "favorite": true,
                      "sourceBytes": base64_of(dir.path(), "assets/TreeView/Icons/heart.jta") } }]);
    let generated = session.apply(0, &batch.to_string()).unwrap();
    let id = generated_id(&generated[0]);
    assert!(!generated[0].values.contains_key("favorite"));
    assert!(generated[0].values.contains_key("movieClip"));
    let original = added(&session, TREE, "ua5o7").clone();
    let (UamResource::MovieClip(clip), UamResource::MovieClip(original)) =
        (added(&session, BASICS, &id), original)
    else {
        panic!("movie clips")
    };
    assert!(!clip.movie_clip.frames.is_empty());
    assert_eq!(clip.movie_clip.frames, original.movie_clip.frames);
    assert_eq!(clip.movie_clip.interval, original.movie_clip.interval);
    assert_eq!(clip.dimensions, original.dimensions);
    assert!(
        clip.movie_clip.smoothing,
        "a bare movieclip element smooths"
    );
    assert!(clip.base.favorite);
}

#[test]
fn a_generated_id_is_unique_and_leaves_ids_the_batch_asks_for() {
    let (dir, _fs, session) = open_copy();
    let png = base64_of(dir.path(), "assets/Basics/images/k4.png");
    let minimal = |file: &str| {
        json!({ "kind": "addResource", "selector": { "packageId": BASICS },
                "resource": { "kind": "image", "fileName": file, "sourceBytes": png } })
    };
    let alone = preview(&session, &json!([minimal("a.png")]));
    let first = generated_id(&alone.generated[0]);

    // A later operation asks for the id the first would have been given: the first
    // takes another, and both are added.
    let mut explicit = minimal("b.png");
    explicit["resource"]["id"] = json!(first);
    let both = preview(
        &session,
        &json!([minimal("a.png"), minimal("c.png"), explicit]),
    );
    let ids: Vec<String> = both.generated.iter().map(target_id).collect();
    assert_eq!(ids.len(), 3);
    assert_ne!(ids[0], first);
    assert_eq!(ids[2], first);
    assert!(!both.generated[2].values.contains_key("id"));
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 3, "{ids:?}");
    let existing: Vec<String> = session
        .project()
        .packages
        .iter()
        .find(|p| p.id == BASICS)
        .unwrap()
        .resources
        .iter()
        .map(|r| r.id().to_lowercase())
        .collect();
    assert!(ids[..2].iter().all(|id| !existing.contains(id)));
}

#[test]
fn a_payload_without_a_file_name_says_what_to_send() {
    let (dir, _fs, session) = open_copy();
    let batch = json!([{ "kind": "addResource", "selector": { "packageId": BASICS },
        "resource": { "kind": "image",
                      "sourceBytes": base64_of(dir.path(), "assets/Basics/images/k4.png") } }]);
    let error = session.preflight(0, &batch.to_string()).unwrap_err();
    let text = format!("{:?}", error);
    assert!(
        text.contains("operations[0].resource.fileName") && text.contains("send fileName"),
        "{text}"
    );
}
