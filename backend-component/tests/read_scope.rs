//! Scoped and paged reads (outline, session state) and search, on the 30-package corpus.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use ofgui_backend::fs::StdFs;
use ofgui_backend::outline::{OUTLINE_PAGE_BYTES, outline};
use ofgui_backend::search::search;
use ofgui_backend::session::{Names, Session};
use ofgui_backend::testing::unity_root;
use ofgui_contracts::api::{
    EntityTarget, OutlineInput, ProjectOutline, ReadSessionStateInput, SearchProjectData,
    SearchProjectInput, SessionStateData,
};
use ofgui_contracts::error::BackendError;
use serde_json::{Value, json};

const UNITY: &str = "FairyGUI-Unity-Examples.fairy";

fn open() -> Session {
    Session::open(&StdFs::new(unity_root()), Names::session("s"), UNITY, 0).unwrap()
}

fn input<T: serde::de::DeserializeOwned>(fields: Value) -> T {
    let mut object = json!({ "sessionId": "s" });
    object
        .as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    serde_json::from_value(object).unwrap()
}

fn outline_of(session: &Session, fields: Value) -> Result<ProjectOutline, BackendError> {
    outline(session, &input::<OutlineInput>(fields)).map(|(outline, _)| outline)
}

fn state_of(session: &Session, fields: Value) -> Result<SessionStateData, BackendError> {
    let text = session.read_state(&input::<ReadSessionStateInput>(fields))?;
    Ok(serde_json::from_str(&text).unwrap())
}

fn search_for(session: &Session, fields: Value) -> Result<SearchProjectData, BackendError> {
    search(session, &input::<SearchProjectInput>(fields))
}

fn package_id(session: &Session, name: &str) -> String {
    let project = session.project();
    project
        .packages
        .iter()
        .find(|p| p.name == name)
        .unwrap()
        .id
        .clone()
}

fn component_id(session: &Session, package_id: &str, name: &str) -> String {
    let package = session
        .project()
        .packages
        .iter()
        .find(|p| p.id == package_id)
        .unwrap();
    let resource = package.resources.iter().find(|r| r.name() == name).unwrap();
    resource.id().to_string()
}

fn code_and_reason(error: &BackendError) -> (String, Option<String>) {
    let parts = error.clone().into_parts().unwrap();
    let reason = parts
        .details
        .get("reason")
        .and_then(Value::as_str)
        .map(str::to_string);
    (parts.code.as_str().to_string(), reason)
}

/// The whole outline, in one answer: what a page limit of every package gives.
fn whole_outline(session: &Session) -> ProjectOutline {
    outline_of(session, json!({ "page": { "limit": 1000 } })).unwrap()
}

#[test]
fn a_page_limit_of_every_package_is_the_whole_project() {
    let session = open();
    let (whole, warning) = outline(
        &session,
        &input::<OutlineInput>(json!({ "page": { "limit": 1000 } })),
    )
    .unwrap();
    assert_eq!(whole.packages.len(), 30);
    assert_eq!(whole.next_cursor, None);
    assert_eq!(warning, None);
    let resources: usize = whole
        .packages
        .iter()
        .map(|p| p.resources.as_ref().unwrap().len())
        .sum();
    let in_model: usize = session
        .project()
        .packages
        .iter()
        .map(|p| p.resources.len())
        .sum();
    assert_eq!(resources, in_model);
}

#[test]
fn an_outline_without_a_limit_comes_in_pages_of_its_byte_budget_that_say_so() {
    let session = open();
    let whole = whole_outline(&session);
    let size =
        |package: &ofgui_contracts::api::OutlinePackage| serde_json::to_vec(package).unwrap().len();
    let (mut packages, mut answers) = (Vec::new(), 0);
    let mut cursor: Option<String> = None;
    loop {
        let page = match &cursor {
            Some(cursor) => input::<OutlineInput>(json!({ "page": { "cursor": cursor } })),
            // The first call names nothing but the session, as upstream's clients call it.
            None => input::<OutlineInput>(json!({})),
        };
        let (answer, warning) = outline(&session, &page).unwrap();
        let bytes: usize = answer.packages.iter().map(size).sum();
        // Over the budget only when one package alone is bigger.
        assert!(
            bytes <= OUTLINE_PAGE_BYTES || answer.packages.len() == 1,
            "{bytes} bytes in {} packages",
            answer.packages.len()
        );
        // Upstream's call (no page) gets upstream's shape: the cursor is in the warning.
        let asked_for_a_page = cursor.is_some();
        let next = warning.as_ref().map(|warning| {
            assert_eq!(warning.code, "answer_paged");
            assert!(warning.message.contains(" of 30:"), "{}", warning.message);
            let (_, rest) = warning.message.split_once(r#""cursor": ""#).unwrap();
            rest.split('"').next().unwrap().to_string()
        });
        match asked_for_a_page {
            true => assert_eq!(answer.next_cursor, next),
            false => assert_eq!(answer.next_cursor, None),
        }
        answers += 1;
        packages.extend(answer.packages);
        cursor = next;
        if cursor.is_none() {
            break;
        }
    }
    assert!(
        answers >= 2,
        "the corpus's 109 KiB outline takes more than one answer"
    );
    assert_eq!(packages, whole.packages);

    // Packages alone fit in one answer.
    let (ids, warning) = outline(
        &session,
        &input::<OutlineInput>(json!({ "detail": "packages" })),
    )
    .unwrap();
    assert_eq!(ids.packages.len(), 30);
    assert_eq!((ids.next_cursor, warning), (None, None));
}

#[test]
fn a_packages_outline_lists_ids_and_counts_only() {
    let session = open();
    let whole = whole_outline(&session);
    let light = outline_of(&session, json!({ "detail": "packages" })).unwrap();
    assert_eq!(light.packages.len(), 30);
    for (full, short) in whole.packages.iter().zip(&light.packages) {
        assert_eq!(full.id, short.id);
        assert_eq!(short.resources, None);
        assert_eq!(short.folders, None);
        assert_eq!(
            short.resource_count,
            Some(full.resources.as_ref().unwrap().len() as u32)
        );
    }
    let size = |o: &ProjectOutline| serde_json::to_string(o).unwrap().len();
    assert!(
        size(&light) * 20 < size(&whole),
        "{} vs {}",
        size(&light),
        size(&whole)
    );
}

#[test]
fn a_package_scope_answers_those_packages_in_project_order() {
    let session = open();
    let basics = package_id(&session, "Basics");
    let bag = package_id(&session, "Bag");
    let scoped = outline_of(
        &session,
        json!({ "scope": { "packageIds": [basics, bag] }, "page": { "limit": 2 } }),
    )
    .unwrap();
    let names: Vec<&str> = scoped.packages.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Bag", "Basics"]);

    let error = outline_of(
        &session,
        json!({ "scope": { "packageIds": [bag, "nope"] } }),
    )
    .unwrap_err();
    assert_eq!(
        code_and_reason(&error),
        ("session_read_failed".into(), Some("not_found".into()))
    );
    assert!(
        error.message().contains("scope.packageIds[1]"),
        "{}",
        error.message()
    );
}

#[test]
fn a_component_scope_answers_one_component() {
    let session = open();
    let basics = package_id(&session, "Basics");
    let main = component_id(&session, &basics, "Main");
    let scope =
        json!({ "scope": { "component": { "packageId": basics, "componentResourceId": main } } });
    let scoped = outline_of(&session, scope.clone()).unwrap();
    assert_eq!(scoped.packages.len(), 1);
    let resources = scoped.packages[0].resources.as_ref().unwrap();
    assert_eq!(resources.len(), 1);
    assert_eq!(resources[0].id, main);
    assert!(
        !resources[0]
            .component
            .as_ref()
            .unwrap()
            .display_list
            .is_empty()
    );

    let state = state_of(&session, scope).unwrap();
    assert_eq!(state.project.packages.len(), 1);
    assert_eq!(state.project.packages[0].resources.len(), 1);
    assert_eq!(state.project.packages[0].resources[0].id(), main);

    let image = session
        .project()
        .packages
        .iter()
        .find(|p| p.id == basics)
        .unwrap()
        .resources
        .iter()
        .find(|r| r.kind() == "image")
        .map(|r| r.id().to_string())
        .unwrap();
    let error = outline_of(
        &session,
        json!({ "scope": { "component": { "packageId": basics, "componentResourceId": image } } }),
    )
    .unwrap_err();
    assert_eq!(
        code_and_reason(&error),
        (
            "session_read_failed".into(),
            Some("unsupported_resource".into())
        )
    );

    let error = outline_of(
        &session,
        json!({ "scope": {
            "packageIds": [basics],
            "component": { "packageId": basics, "componentResourceId": main }
        } }),
    )
    .unwrap_err();
    assert_eq!(code_and_reason(&error).0, "invalid_input");
}

#[test]
fn pages_together_are_the_whole_answer() {
    let session = open();
    let whole = whole_outline(&session);
    let mut pages = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let page = outline_of(
            &session,
            json!({ "page": { "limit": 7, "cursor": cursor } }),
        )
        .unwrap();
        assert!(page.packages.len() <= 7);
        pages.extend(page.packages);
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    assert_eq!(pages, whole.packages);

    let full_state = state_of(&session, json!({})).unwrap();
    let mut packages = Vec::new();
    let mut cursor: Option<String> = None;
    let mut answers = 0;
    loop {
        let page = state_of(
            &session,
            json!({ "page": { "limit": 11, "cursor": cursor } }),
        )
        .unwrap();
        answers += 1;
        packages.extend(page.project.packages);
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    assert_eq!(answers, 3);
    assert_eq!(packages, full_state.project.packages);
}

#[test]
fn a_cursor_is_refused_after_an_edit_or_when_made_up() {
    let mut session = open();
    let first = outline_of(&session, json!({ "page": { "limit": 5 } })).unwrap();
    let cursor = first.next_cursor.unwrap();
    let modal = package_id(&session, "ModalWaiting");
    let frame = component_id(&session, &modal, "WindowFrame");
    let batch = json!([{
        "kind": "setDisplayNodeProps",
        "selector": { "packageId": modal, "componentResourceId": frame, "displayNodeId": "n1" },
        "props": { "position": { "x": 7, "y": 8 } }
    }]);
    session.apply(0, &batch.to_string()).unwrap();
    let error = outline_of(&session, json!({ "page": { "cursor": cursor } })).unwrap_err();
    assert_eq!(code_and_reason(&error).0, "stale_read");
    assert!(
        error.message().contains("first page"),
        "{}",
        error.message()
    );

    for limit in [0, 1001] {
        let error = outline_of(&session, json!({ "page": { "limit": limit } })).unwrap_err();
        let parts = error.into_parts().unwrap();
        assert_eq!(parts.code.as_str(), "invalid_input");
        assert_eq!(parts.details["path"], "/page/limit");
    }
    let widest = outline_of(&session, json!({ "page": { "limit": 1000 } })).unwrap();
    assert_eq!((widest.packages.len(), widest.next_cursor), (30, None));

    let error = outline_of(&session, json!({ "page": { "cursor": "page-2" } })).unwrap_err();
    let parts = error.into_parts().unwrap();
    assert_eq!(parts.code.as_str(), "invalid_input");
    assert_eq!(parts.details["path"], "/page/cursor");
}

#[test]
fn search_finds_nodes_by_text_with_their_selectors() {
    let session = open();
    let found = search_for(&session, json!({ "query": { "text": "window TITLE" } })).unwrap();
    assert_eq!(found.total, 2);
    let packages: Vec<&str> = found
        .matches
        .iter()
        .map(|m| m.package_name.as_str())
        .collect();
    assert_eq!(packages, ["ModalWaiting", "RenderTexture"]);
    for found in &found.matches {
        assert_eq!(found.kind, "text");
        assert_eq!(found.name, "title");
        assert_eq!(found.field.as_deref(), Some("text.text"));
        assert_eq!(found.text.as_deref(), Some("Window Title"));
        assert_eq!(found.resource_path, "/WindowFrame.xml");
        let EntityTarget::DisplayNode { selector } = &found.target else {
            panic!("a node match targets the node: {:?}", found.target);
        };
        assert_eq!(selector.display_node_id, "n1");
        let queried = ofgui_backend::query::query_entity(
            &session,
            &serde_json::to_value(&found.target).unwrap(),
        )
        .unwrap();
        assert!(queried.contains("Window Title"));
    }

    let modal = package_id(&session, "ModalWaiting");
    let scoped = search_for(
        &session,
        json!({ "query": { "text": "window title" }, "scope": { "packageIds": [modal] } }),
    )
    .unwrap();
    assert_eq!(scoped.total, 1);
}

#[test]
fn search_by_url_finds_the_resource_and_every_node_using_it() {
    let session = open();
    let basics = package_id(&session, "Basics");
    let by_ids = search_for(
        &session,
        json!({ "query": { "url": format!("ui://{basics}hixt1j") } }),
    )
    .unwrap();
    // Button10 itself and the 21 instances in Basics/Main.xml.
    assert_eq!(by_ids.total, 22);
    let (components, nodes): (Vec<_>, Vec<_>) = by_ids
        .matches
        .iter()
        .partition(|m| matches!(m.target, EntityTarget::Component { .. }));
    assert_eq!(components.len(), 1);
    assert_eq!(components[0].resource_path, "/components/Button10.xml");
    assert_eq!(nodes.len(), 21);
    assert!(
        nodes
            .iter()
            .all(|m| { m.resource_path == "/Main.xml" && m.field.as_deref() == Some("resource") })
    );

    let by_name = search_for(
        &session,
        json!({ "query": { "url": "ui://Basics/Button10", "entities": "nodes" } }),
    )
    .unwrap();
    assert_eq!(by_name.total, 21);

    let error = search_for(&session, json!({ "query": { "url": "ui://nothing" } })).unwrap_err();
    assert_eq!(
        code_and_reason(&error),
        ("session_read_failed".into(), Some("not_found".into()))
    );
}

#[test]
fn search_pages_and_refuses_empty_or_unknown_queries() {
    let session = open();
    let all = search_for(
        &session,
        json!({ "query": { "kind": "text" }, "page": { "limit": 1000 } }),
    )
    .unwrap();
    assert!(all.total > 50, "{}", all.total);
    assert!(all.matches.iter().all(|m| m.kind == "text"));
    let first = search_for(&session, json!({ "query": { "kind": "text" } })).unwrap();
    assert_eq!(first.matches.len(), 50);
    assert_eq!(first.total, all.total);
    let second = search_for(
        &session,
        json!({ "query": { "kind": "text" }, "page": { "cursor": first.next_cursor } }),
    )
    .unwrap();
    assert_eq!(second.matches[0], all.matches[50]);

    let images = search_for(
        &session,
        json!({ "query": { "kind": "image", "entities": "resources", "name": "VIP" } }),
    )
    .unwrap();
    assert!(images.total >= 1);
    assert!(
        images
            .matches
            .iter()
            .all(|m| matches!(m.target, EntityTarget::Resource { .. }))
    );

    for (query, path) in [
        (json!({}), "/query"),
        (json!({ "kind": "sprite" }), "/query/kind"),
    ] {
        let error = search_for(&session, json!({ "query": query })).unwrap_err();
        let parts = error.into_parts().unwrap();
        assert_eq!(parts.code.as_str(), "invalid_input");
        assert_eq!(parts.details["path"], path);
    }
}

#[test]
fn a_queried_component_instance_leaves_out_the_file_name_hint_the_state_keeps() {
    let session = open();
    let text = session
        .read_state(&input::<ReadSessionStateInput>(json!({})))
        .unwrap();
    let state: Value = serde_json::from_str(&text).unwrap();
    // The first component instance whose XML carries the editor's fileName hint.
    let (target, file_name) = state["project"]["packages"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|package| {
            package["resources"]
                .as_array()
                .unwrap()
                .iter()
                .map(move |resource| (package, resource))
        })
        .flat_map(|(package, resource)| {
            resource["component"]["displayList"]
                .as_array()
                .into_iter()
                .flatten()
                .map(move |node| (package, resource, node))
        })
        .find_map(|(package, resource, node)| {
            let file_name = node["fileName"].as_str()?;
            (node["kind"] == "component").then(|| {
                let target = json!({ "kind": "displayNode", "selector": {
                    "packageId": package["id"],
                    "componentResourceId": resource["id"],
                    "displayNodeId": node["id"],
                } });
                (target, file_name.to_string())
            })
        })
        .expect("the corpus has component instances with a fileName");
    let queried: Value =
        serde_json::from_str(&ofgui_backend::query::query_entity(&session, &target).unwrap())
            .unwrap();
    let properties = &queried["entity"]["properties"];
    assert_eq!(properties["kind"], "component");
    // Upstream's display node schema has no fileName; the model still holds it.
    assert!(properties.get("fileName").is_none(), "{properties}");
    assert!(!file_name.is_empty());
}

/// What a person reads in the outline names a resource as well as its ids do; a name two
/// resources share is refused with both ids, and nothing is found by a reference's name.
#[test]
fn a_selected_resource_is_found_by_its_names_and_a_shared_name_is_refused() {
    use ofgui_backend::lookup::{Lookup, find_resource, find_selected_resource};
    let source = ofgui_backend::reader::read_project(
        &ofgui_backend::fs::StdFs::new(ofgui_backend::testing::unity_root()),
        "FairyGUI-Unity-Examples.fairy",
    )
    .unwrap();
    let project = &source.project;
    let id = |found: Lookup<(
        &ofgui_contracts::uam::UamPackage,
        &ofgui_contracts::uam::UamResource,
    )>| match found {
        Lookup::Found((package, resource)) => format!("{}/{}", package.id, resource.id()),
        Lookup::NotFound(m) | Lookup::Ambiguous(m) => m,
    };
    assert_eq!(
        id(find_selected_resource(project, "qkteqwfp", "c8s20")),
        "qkteqwfp/c8s20"
    );
    assert_eq!(
        id(find_selected_resource(project, "VirtualList", "Main")),
        "qkteqwfp/c8s20"
    );
    assert_eq!(
        id(find_selected_resource(project, "VirtualList", "/Main")),
        "qkteqwfp/c8s20"
    );
    // Reference lookups stay by id.
    assert!(matches!(
        find_resource(project, "VirtualList", "Main"),
        Lookup::NotFound(_)
    ));

    let mut twice = project.clone();
    let package = twice
        .packages
        .iter_mut()
        .find(|p| p.name == "VirtualList")
        .unwrap();
    let package = std::sync::Arc::make_mut(package);
    let copy = package
        .resources
        .iter()
        .find(|r| r.id() == "c8s20")
        .unwrap()
        .clone();
    let mut copy = serde_json::to_value(copy.as_ref()).unwrap();
    copy["id"] = "other1".into();
    copy["path"] = "/sub/".into();
    package
        .resources
        .push(std::sync::Arc::new(serde_json::from_value(copy).unwrap()));
    let refused = id(find_selected_resource(&twice, "VirtualList", "Main"));
    assert!(
        refused.contains("c8s20 (/Main)") && refused.contains("other1 (/sub/Main)"),
        "{refused}"
    );
    assert_eq!(
        id(find_selected_resource(&twice, "VirtualList", "/sub/Main")),
        "qkteqwfp/other1"
    );
}
