//! The files publishing writes for each package of the unity corpus, against what the
//! FairyGUI editor published from the same project (`published/` beside it): the same
//! names, atlas pages included, and raw files (sounds) byte for byte. Descriptor content is
//! `publish_descriptors.rs`'s; sprites and atlas pages' pixels are `publish_atlas.rs`'s.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;

use ofgui_backend::fs::StdFs;
use ofgui_backend::publish::{DescriptorNaming, PublishOptions, publish_package};
use ofgui_backend::reader::read_project;
use ofgui_backend::testing::{experiments_root, unity_root};

fn reference_files() -> BTreeSet<String> {
    std::fs::read_dir(unity_root().join("../published"))
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.contains('_'))
        .collect()
}

#[test]
fn unity_packages_publish_the_files_the_editor_published() {
    let source = read_project(&StdFs::new(unity_root()), "FairyGUI-Unity-Examples.fairy").unwrap();
    let reference = reference_files();
    let mut ours = BTreeSet::new();
    for package in &source.project.packages {
        let published = publish_package(
            &source.project,
            &source.bytes,
            &package.id,
            &PublishOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", package.name));
        assert!(
            published.warnings.is_empty(),
            "{}: {:?}",
            package.name,
            published.warnings
        );
        for file in &published.files {
            assert!(
                file.name.starts_with(&format!("{}_", package.name)),
                "{}",
                file.name
            );
            if !file.name.ends_with("_fui.bytes") && !file.name.contains("_atlas") {
                let theirs = std::fs::read(unity_root().join("../published").join(&file.name))
                    .unwrap_or_else(|e| panic!("{}: not in the reference: {e}", file.name));
                assert!(theirs == file.bytes, "{} differs", file.name);
            }
            ours.insert(file.name.clone());
        }
    }
    let missing: Vec<&String> = reference.difference(&ours).collect();
    let extra: Vec<&String> = ours.difference(&reference).collect();
    assert!(missing.is_empty(), "not published: {missing:?}");
    assert!(extra.is_empty(), "not in the reference: {extra:?}");
}

#[test]
fn descriptor_names_follow_the_target() {
    let mut source =
        read_project(&StdFs::new(unity_root()), "FairyGUI-Unity-Examples.fairy").unwrap();
    assert_eq!(
        DescriptorNaming::of(&source.project).file_name("Bag"),
        "Bag_fui.bytes"
    );
    source.project.project_type_name = "Layabox".to_owned();
    source.project.project_type = 4;
    assert_eq!(
        DescriptorNaming::of(&source.project).file_name("Bag"),
        "Bag.fui"
    );
    source.project.settings.insert(
        "publish".to_owned(),
        serde_json::json!({ "fileExtension": ".bin" }),
    );
    assert_eq!(
        DescriptorNaming::of(&source.project).file_name("Bag"),
        "Bag.bin"
    );
}

#[test]
fn experiments_packages_publish() {
    let root = experiments_root();
    let fairy = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .find(|n| n.ends_with(".fairy"))
        .unwrap();
    let source = read_project(&StdFs::new(root), &fairy).unwrap();
    for package in &source.project.packages {
        let published = publish_package(
            &source.project,
            &source.bytes,
            &package.id,
            &PublishOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", package.name));
        assert!(
            published.files.iter().any(|f| f.name.ends_with(".bytes")),
            "{}: {:?}",
            package.name,
            published.files.iter().map(|f| &f.name).collect::<Vec<_>>()
        );
    }
}
