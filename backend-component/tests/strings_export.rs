//! `exportStrings` on the Unity examples: every component's texts under the keys the
//! runtimes look up, in the editor's file, and an unsaved edit's text in it.

use std::collections::BTreeSet;

use ofgui_backend::fs::StdFs;
use ofgui_backend::session::{Names, Session};
use ofgui_backend::testing::unity_root;
use ofgui_contracts::api::ExportStringsInput;
use serde_json::json;

fn unity() -> Session {
    Session::open(
        &StdFs::new(unity_root()),
        Names::session("s"),
        "FairyGUI-Unity-Examples.fairy",
        0,
    )
    .expect("unity opens")
}

fn export(
    session: &Session,
    cursor: Option<String>,
    whole: bool,
) -> ofgui_contracts::api::StringsExport {
    session
        .export_strings(&ExportStringsInput {
            session_id: "s".into(),
            limit: Some(5000),
            cursor,
            whole_file: Some(whole),
        })
        .unwrap_or_else(|rejected| panic!("{:?}", rejected.error))
}

#[test]
fn the_unity_examples_export_every_text_under_unique_runtime_keys() {
    let session = unity();
    let all = export(&session, None, true);
    assert_eq!(all.count as usize, all.entries.len());
    assert!(all.count > 100, "{}", all.count);
    assert!(all.unreadable.is_empty(), "{:?}", all.unreadable);
    let keys: BTreeSet<&str> = all.entries.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(keys.len(), all.entries.len(), "keys are unique");
    // Each key starts with its package's and component's ids.
    for entry in &all.entries {
        let package = session
            .project()
            .packages
            .iter()
            .find(|p| p.name == entry.package)
            .unwrap();
        let component = package.resources.iter().find(|r| {
            r.name() == entry.component
                && entry.key.starts_with(&format!("{}{}-", package.id, r.id()))
        });
        assert!(component.is_some(), "{entry:?}");
    }
    // The file the runtimes load holds the same entries, in the same order.
    let document = all.document.as_deref().unwrap();
    let parsed = roxmltree::Document::parse(document).unwrap();
    let read: Vec<(&str, String)> = parsed
        .root_element()
        .children()
        .filter(|n| n.has_tag_name("string"))
        .map(|n| {
            (
                n.attribute("name").unwrap(),
                n.text().unwrap_or("").to_owned(),
            )
        })
        .collect();
    let exported: Vec<(&str, String)> = all
        .entries
        .iter()
        .map(|e| (e.key.as_str(), e.text.clone()))
        .collect();
    assert_eq!(read, exported);
    // Pages join up to the whole.
    let first = export_page(&session, None, 50);
    let second = export_page(&session, first.next_cursor.clone(), 50);
    assert_eq!(first.entries[..], all.entries[..50]);
    assert_eq!(second.entries[..], all.entries[50..100]);
}

fn export_page(
    session: &Session,
    cursor: Option<String>,
    limit: u32,
) -> ofgui_contracts::api::StringsExport {
    session
        .export_strings(&ExportStringsInput {
            session_id: "s".into(),
            limit: Some(limit),
            cursor,
            whole_file: None,
        })
        .unwrap_or_else(|rejected| panic!("{:?}", rejected.error))
}

#[test]
fn an_unsaved_edit_of_a_text_is_exported() {
    let mut session = unity();
    let before = export(&session, None, false);
    let entry = before
        .entries
        .iter()
        .find(|e| {
            !e.key.contains("-tips") && !e.key.contains("-texts") && e.key.matches('-').count() == 1
        })
        .expect("a plain text")
        .clone();
    let (prefix, node) = entry.key.split_once('-').unwrap();
    let package = session
        .project()
        .packages
        .iter()
        .find(|p| prefix.starts_with(&p.id))
        .unwrap();
    let component = &prefix[package.id.len()..];
    let batch = json!([{
        "kind": "setDisplayNodeProps",
        "selector": { "packageId": package.id, "componentResourceId": component, "displayNodeId": node },
        "props": { "text": "Übersetzt & <neu>" }
    }]);
    session
        .apply(0, &batch.to_string())
        .expect("the edit applies");
    let after = export(&session, None, true);
    let edited = after.entries.iter().find(|e| e.key == entry.key).unwrap();
    assert_eq!(edited.text, "Übersetzt & <neu>");
    assert!(
        after
            .document
            .unwrap()
            .contains("Übersetzt &amp; &lt;neu&gt;")
    );
}
