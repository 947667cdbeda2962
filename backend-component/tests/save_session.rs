//! Saving sessions on copies of the real corpora: a save without edits writes nothing, a
//! one-node edit changes one attribute of one file, a file changed on disk behind the
//! session stops the save with nothing written, and what is saved reads back as the model.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::Path;

use ofgui_backend::fs::StdFs;
use ofgui_backend::reader::read_project;
use ofgui_backend::session::{Names, Session};
use ofgui_backend::testing::{copy_tree, experiments_root, unity_root};
use ofgui_contracts::error::{BackendError, SaveFailureReason};
use ofgui_contracts::uam::{DisplayNode, UamResource};
use serde_json::json;

use crate::common::disk::snapshot;

const UNITY: &str = "FairyGUI-Unity-Examples.fairy";
const EXPERIMENTS: &str = "FairyGUI-Experiments.fairy";

fn open_copy(corpus: &Path, fairy: &str) -> (tempfile::TempDir, StdFs, Session) {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(corpus, dir.path()).unwrap();
    let fs = StdFs::new(dir.path());
    let session = Session::open(&fs, Names::session("s"), fairy, 0).unwrap();
    (dir, fs, session)
}

/// The first component with a display node: (package id, component id, node id, path).
fn some_node(session: &Session) -> (String, String, String, String) {
    for package in &session.project().packages {
        for resource in &package.resources {
            if let UamResource::Component(c) = resource.as_ref()
                && let Some(node) = c.component.display_list.first()
            {
                return (
                    package.id.clone(),
                    c.id.clone(),
                    node.base().id.clone(),
                    resource.source_path().unwrap().to_string(),
                );
            }
        }
    }
    panic!("no node")
}

#[test]
fn a_save_without_edits_writes_nothing() {
    for (corpus, fairy) in [(unity_root(), UNITY), (experiments_root(), EXPERIMENTS)] {
        let (dir, fs, mut session) = open_copy(&corpus, fairy);
        let before = snapshot(dir.path());
        let report = session.save(&fs, Some(0)).unwrap();
        assert!(
            report.written.is_empty() && report.removed.is_empty(),
            "{report:?}"
        );
        assert_eq!(snapshot(dir.path()), before);
    }
}

#[test]
fn a_one_node_move_changes_one_attribute_of_one_file() {
    for (corpus, fairy) in [(unity_root(), UNITY), (experiments_root(), EXPERIMENTS)] {
        let (dir, fs, mut session) = open_copy(&corpus, fairy);
        let before = snapshot(dir.path());
        let (package, component, node, path) = some_node(&session);
        let batch = json!([{
            "kind": "setDisplayNodeProps",
            "selector": { "packageId": package, "componentResourceId": component, "displayNodeId": node },
            "props": { "position": { "x": 123, "y": 45 } }
        }]);
        session.apply(0, &batch.to_string()).unwrap();
        let report = session.save(&fs, Some(1)).unwrap();
        assert_eq!(report.written, std::slice::from_ref(&path));
        assert!(report.verified);
        let after = snapshot(dir.path());
        let changed: Vec<&String> = after
            .keys()
            .filter(|file| before.get(*file) != after.get(*file))
            .collect();
        assert_eq!(changed, [&path]);
        let (old, new) = (
            String::from_utf8(before[&path].clone()).unwrap(),
            String::from_utf8(after[&path].clone()).unwrap(),
        );
        let old_lines: Vec<&str> = old.lines().collect();
        let new_lines: Vec<&str> = new.lines().collect();
        assert_eq!(old_lines.len(), new_lines.len());
        let differing: Vec<(&&str, &&str)> = old_lines
            .iter()
            .zip(&new_lines)
            .filter(|(a, b)| a != b)
            .collect();
        assert_eq!(differing.len(), 1, "{differing:#?}");
        let (a, b) = differing[0];
        assert!(b.contains(r#"xy="123,45""#), "{b}");
        // Only the one attribute's value differs within the line.
        assert_eq!(
            a.replace(
                a.split("xy=\"").nth(1).unwrap().split('"').next().unwrap(),
                ""
            ),
            b.replace("123,45", "")
        );
        let reread = read_project(&fs, fairy).unwrap();
        assert_eq!(&reread.project, session.project());
        assert!(!session.status().dirty);
        assert_eq!(session.status().last_saved_revision, 1);
    }
}

#[test]
fn a_file_changed_on_disk_stops_the_save_and_nothing_is_written() {
    let (dir, fs, mut session) = open_copy(&unity_root(), UNITY);
    let (package, component, node, path) = some_node(&session);
    let batch = json!([{
        "kind": "setDisplayNodeProps",
        "selector": { "packageId": package, "componentResourceId": component, "displayNodeId": node },
        "props": { "position": { "x": 7, "y": 8 } }
    }]);
    session.apply(0, &batch.to_string()).unwrap();
    // The FairyGUI editor saves the same file meanwhile.
    let file = dir.path().join(&path);
    let mut edited = std::fs::read(&file).unwrap();
    edited.extend_from_slice(b"\n<!-- edited in the editor -->\n");
    std::fs::write(&file, &edited).unwrap();
    let before = snapshot(dir.path());
    let error = session.save(&fs, Some(1)).unwrap_err();
    match &error {
        BackendError::SavePartialFailure {
            reason,
            failed_paths,
            conflicts,
            disk_may_be_partially_updated,
            ..
        } => {
            assert_eq!(*reason, SaveFailureReason::ChangedOnDisk);
            assert_eq!(failed_paths, std::slice::from_ref(&path));
            assert_eq!(conflicts.len(), 1);
            assert!(!disk_may_be_partially_updated);
        }
        other => panic!("{other:?}"),
    }
    assert!(error.message().contains(&path), "{}", error.message());
    assert_eq!(snapshot(dir.path()), before);
    assert!(session.status().dirty, "the edits stay in the session");
}

#[test]
fn a_stale_expected_revision_is_refused() {
    let (_dir, fs, mut session) = open_copy(&experiments_root(), EXPERIMENTS);
    assert!(matches!(
        session.save(&fs, Some(3)),
        Err(BackendError::StaleWrite { .. })
    ));
}

#[test]
fn materialize_rewrites_in_canonical_layout_and_reads_back_equal() {
    let (dir, fs, mut session) = open_copy(&experiments_root(), EXPERIMENTS);
    // The experiments project validates, so it materializes.
    let report = session.materialize(&fs, None).unwrap();
    assert!(report.verified);
    let reread = read_project(&fs, EXPERIMENTS).unwrap();
    assert_eq!(&reread.project, session.project());
    // A second materialize finds every file already canonical.
    let again = session.materialize(&fs, None).unwrap();
    assert!(again.written.is_empty(), "{again:?}");
    assert!(dir.path().exists());
}

#[test]
fn materialize_writes_an_edited_component_whole_in_canonical_form() {
    let (dir, fs, mut session) = open_copy(&experiments_root(), EXPERIMENTS);
    let (package, component, node, path) = some_node(&session);
    let batch = json!([{
        "kind": "setDisplayNodeProps",
        "selector": { "packageId": package, "componentResourceId": component, "displayNodeId": node },
        "props": { "position": { "x": 9, "y": 10 } }
    }]);
    session.apply(0, &batch.to_string()).unwrap();
    let report = session.materialize(&fs, Some(1)).unwrap();
    assert!(report.written.contains(&path), "{report:?}");
    let model = session
        .project()
        .packages
        .iter()
        .flat_map(|p| &p.resources)
        .find_map(|r| match r.as_ref() {
            UamResource::Component(c) if r.source_path() == Some(path.as_str()) => {
                Some(c.component.clone())
            }
            _ => None,
        })
        .unwrap();
    let written = std::fs::read_to_string(dir.path().join(&path)).unwrap();
    assert_eq!(written, ofgui_backend::writer::component::document(&model));
    assert!(!session.status().dirty);
}

/// A host asks what a save would write, then saves: the save commits that plan. A plan made
/// before a later edit is never the one written.
#[test]
fn a_planned_save_writes_the_plan_and_a_later_edit_replans() {
    let (dir, fs, mut session) = open_copy(&unity_root(), UNITY);
    let (package, component, node, path) = some_node(&session);
    let moved = |x: i64| {
        json!([{
            "kind": "setDisplayNodeProps",
            "selector": { "packageId": package, "componentResourceId": component, "displayNodeId": node },
            "props": { "position": { "x": x, "y": 45 } }
        }])
        .to_string()
    };
    session.apply(0, &moved(123)).unwrap();
    let planned = session.planned_writes(&fs, false, Some(1)).unwrap();
    assert_eq!(planned.len(), 1);
    assert_eq!(planned[0].path, path);
    // The plan is for revision 1; the session moves on before saving.
    session.apply(1, &moved(321)).unwrap();
    assert!(
        session.save(&fs, Some(1)).is_err(),
        "the plan's revision is stale"
    );
    let report = session.save(&fs, Some(2)).unwrap();
    assert_eq!(report.written, std::slice::from_ref(&path));
    let saved = std::fs::read_to_string(dir.path().join(&path)).unwrap();
    assert!(saved.contains(r#"xy="321,45""#), "the later edit was saved");
    assert_eq!(
        &read_project(&fs, UNITY).unwrap().project,
        session.project()
    );

    // Planned and saved at one revision: what was planned is what is written.
    session.apply(2, &moved(7)).unwrap();
    let planned = session.planned_writes(&fs, false, Some(3)).unwrap();
    let report = session.save(&fs, Some(3)).unwrap();
    let planned: Vec<&str> = planned.iter().map(|file| file.path.as_str()).collect();
    assert_eq!(report.written, planned);
    assert_eq!(
        &read_project(&fs, UNITY).unwrap().project,
        session.project()
    );
}

/// `(package id, component id, path)` and the first node of a component that `pick` takes.
fn find_node<T>(
    session: &Session,
    pick: impl Fn(&DisplayNode) -> Option<T>,
) -> (String, String, String, T) {
    for package in &session.project().packages {
        for resource in &package.resources {
            if let UamResource::Component(c) = resource.as_ref()
                && let Some(found) = c.component.display_list.iter().find_map(&pick)
            {
                let path = resource.source_path().unwrap().to_string();
                return (package.id.clone(), c.id.clone(), path, found);
            }
        }
    }
    panic!("no such node")
}

/// The start tag of the element with `id` in `text`.
fn start_tag<'t>(text: &'t str, id: &str) -> &'t str {
    let at = text.find(&format!(" id=\"{id}\"")).unwrap();
    let start = text[..at].rfind('<').unwrap();
    let end = at + text[at..].find('>').unwrap();
    &text[start..=end]
}

/// A size the file left out is written once an agent sets it, even to the resource's own;
/// a list's `margin="0,0,0,0"` stays while the margin does, and goes once the margin is set
/// back to zero after a change. Saved, the project reads back as the session's model.
#[test]
fn a_size_set_is_written_and_a_margin_attribute_follows_its_edits() {
    let (dir, fs, mut session) = open_copy(&unity_root(), UNITY);
    let (package, component, path, (node, size)) = find_node(&session, |n| {
        let base = n.base();
        (!base.explicit_size && n.sized_by().is_some())
            .then(|| (n.id().to_owned(), base.size.clone()))
    });
    let (list_package, list_component, list_path, (list, props)) =
        find_node(&session, |n| match n {
            DisplayNode::List(l) if l.explicit_margin => {
                Some((n.id().to_owned(), serde_json::to_value(&l.list).unwrap()))
            }
            _ => None,
        });
    assert!(
        !start_tag(
            &String::from_utf8(std::fs::read(dir.path().join(&path)).unwrap()).unwrap(),
            &node
        )
        .contains(" size=")
    );
    let node_sel =
        json!({ "packageId": package, "componentResourceId": component, "displayNodeId": node });
    let list_sel = json!({ "packageId": list_package, "componentResourceId": list_component, "displayNodeId": list });
    let with_margin = |left: i64, line_gap: i64| {
        let mut props = props.clone();
        props["margin"]["left"] = json!(left);
        props["lineGap"] = json!(line_gap);
        props
    };
    let batch = json!([
        { "kind": "setDisplayNodeProps", "selector": node_sel, "props": { "size": size } },
        // The margin unchanged: the file's `margin="0,0,0,0"` stays.
        { "kind": "setDisplayNodeProps", "selector": list_sel, "props": { "listProperties": with_margin(0, 7) } },
    ]);
    session.apply(0, &batch.to_string()).unwrap();
    session.save(&fs, Some(1)).unwrap();
    let read = |path: &str| std::fs::read_to_string(dir.path().join(path)).unwrap();
    let text = read(&path);
    let tag = start_tag(&text, &node);
    assert!(
        tag.contains(&format!(
            " size=\"{},{}\"",
            size.width.get(),
            size.height.get()
        )),
        "{tag}"
    );
    let text = read(&list_path);
    assert!(start_tag(&text, &list).contains(" margin=\"0,0,0,0\""));
    assert_eq!(
        &read_project(&fs, UNITY).unwrap().project,
        session.project()
    );

    // A margin set and then set back to zero is written as the editor writes zero: not at all.
    let batch = json!([
        { "kind": "setDisplayNodeProps", "selector": list_sel, "props": { "listProperties": with_margin(4, 7) } },
    ]);
    session.apply(1, &batch.to_string()).unwrap();
    session.save(&fs, Some(2)).unwrap();
    assert!(start_tag(&read(&list_path), &list).contains(" margin=\"0,0,4,0\""));
    let batch = json!([
        { "kind": "setDisplayNodeProps", "selector": list_sel, "props": { "listProperties": with_margin(0, 7) } },
    ]);
    session.apply(2, &batch.to_string()).unwrap();
    session.save(&fs, Some(3)).unwrap();
    assert!(!start_tag(&read(&list_path), &list).contains(" margin="));
    let reread = read_project(&fs, UNITY).unwrap().project;
    assert_eq!(&reread, session.project());
}
