use std::collections::BTreeSet;

use base64::Engine as _;
use serde_json::{Value, json};

use crate::harness::*;

fn resources(outline: &Value) -> impl Iterator<Item = (&Value, &Value)> {
    outline["packages"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|package| {
            package["resources"]
                .as_array()
                .unwrap()
                .iter()
                .map(move |r| (package, r))
        })
}

#[tokio::test]
async fn unity_project_reads_end_to_end() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    let server = Server::start(&[workspace.path()]).await;

    let session = server.ok(OPEN, json!({ "projectPath": project })).await;
    assert_eq!(session["revision"], 0);
    assert_eq!(session["dirty"], false);
    assert_eq!(session["lockHeld"], true);
    assert_eq!(session["uamFidelity"], "full");
    let id = session["sessionId"].as_str().unwrap().to_string();

    let outline = server
        .ok(
            OUTLINE,
            json!({ "sessionId": id, "page": { "limit": 1000 } }),
        )
        .await;
    assert_eq!(outline["revision"], 0);
    assert_eq!(outline["packages"].as_array().unwrap().len(), 30);
    let components = resources(&outline)
        .filter(|(_, r)| r["kind"] == "component")
        .count();
    assert_eq!(components, 205);
    assert!(!outline.to_string().contains("sourceBytes"));

    // One entity of each kind, with facts checked against the files.
    let project_entity = server
        .ok(
            QUERY,
            json!({ "sessionId": id, "target": { "kind": "project" } }),
        )
        .await;
    assert_eq!(
        project_entity["entity"]["properties"]["projectId"],
        "5b85d3c8fa4ef4d0cc856c635439191d"
    );

    let package = server
        .ok(QUERY, json!({ "sessionId": id, "target": { "kind": "package", "selector": { "packageId": "zgmoraj4" } } }))
        .await;
    assert_eq!(package["entity"]["properties"]["name"], "Transition");

    let image = server
        .ok(
            QUERY,
            json!({ "sessionId": id, "target": { "kind": "resource", "selector": { "packageId": "9leh0eyf", "resourceId": "rpmbd" } } }),
        )
        .await;
    let image = &image["entity"]["properties"];
    assert_eq!(image["kind"], "image");
    assert_eq!(image["image"]["scaleOption"], 1);
    assert_eq!(image["image"]["scale9Grid"], json!([12, 7, 61, 14]));
    assert!(image.get("sourcePath").is_none() && image.get("sourceBytes").is_none());

    let component = server
        .ok(
            QUERY,
            json!({ "sessionId": id, "target": { "kind": "component", "selector": { "packageId": "zgmoraj4", "componentResourceId": "gkq00" } } }),
        )
        .await;
    assert_eq!(
        component["entity"]["properties"]["size"],
        json!({ "width": 1136, "height": 640 })
    );
    assert!(
        component["entity"]["properties"]
            .get("displayList")
            .is_none()
    );

    let node = server
        .ok(
            QUERY,
            json!({ "sessionId": id, "target": { "kind": "displayNode", "selector": {
                "packageId": "zgmoraj4", "componentResourceId": "gkq00", "displayNodeId": "n4" } } }),
        )
        .await;
    let node = &node["entity"]["properties"];
    assert_eq!(node["kind"], "image");
    assert_eq!(node["position"], json!({ "x": 279, "y": 103 }));
    assert_eq!(node["resource"]["resourceId"], "gkq01");

    let controller = server
        .ok(
            QUERY,
            json!({ "sessionId": id, "target": { "kind": "controller", "selector": {
                "packageId": "9leh0eyf", "componentResourceId": "rpmbz", "controllerName": "button" } } }),
        )
        .await;
    let pages: Vec<&str> = controller["entity"]["properties"]["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(pages, ["up", "down", "over", "selectedOver"]);

    let transition = server
        .ok(
            QUERY,
            json!({ "sessionId": id, "target": { "kind": "transition", "selector": {
                "packageId": "zgmoraj4", "componentResourceId": "gkq00", "transitionName": "t0" } } }),
        )
        .await;
    let items = transition["entity"]["properties"]["items"]
        .as_array()
        .unwrap();
    assert_eq!(items.len(), 11);
    assert_eq!(items[0]["actionType"], 9, "the first item plays a sound");

    let state = server
        .ok(STATE, json!({ "sessionId": id, "expectedRevision": 0 }))
        .await;
    assert_eq!(state["revision"], 0);
    assert_eq!(state["project"]["packages"].as_array().unwrap().len(), 30);
    assert!(!state.to_string().contains("sourceBytes"));

    // A PNG's bytes, byte-equal to the file.
    let bytes = server
        .ok(BYTES, json!({ "sessionId": id, "expectedRevision": 0, "selector": { "packageId": "9leh0eyf", "resourceId": "rpmbd" } }))
        .await;
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(bytes["sourceBytes"].as_str().unwrap())
        .unwrap();
    let on_disk = std::fs::read(project.join("assets/Basics/images/b5_png.png")).unwrap();
    assert_eq!(decoded, on_disk);
    assert_eq!(&decoded[1..4], b"PNG");

    server.ok(CLOSE, json!({ "sessionId": id })).await;
    let error = server.err(GET, json!({ "sessionId": id })).await;
    assert_eq!(error["code"], "session_not_found");
}

#[tokio::test]
async fn every_resource_of_the_unity_project_is_queryable() {
    let workspace = Workspace::new();
    let project = workspace.add("unity", &unity_corpus());
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;
    let outline = server
        .ok(
            OUTLINE,
            json!({ "sessionId": id, "page": { "limit": 1000 } }),
        )
        .await;
    let mut kinds = BTreeSet::new();
    for (package, resource) in resources(&outline) {
        let selector = json!({ "packageId": package["id"], "resourceId": resource["id"] });
        let entity = server
            .ok(
                QUERY,
                json!({ "sessionId": id, "target": { "kind": "resource", "selector": selector } }),
            )
            .await;
        assert_eq!(entity["entity"]["properties"]["id"], resource["id"]);
        kinds.insert(resource["kind"].as_str().unwrap().to_string());
    }
    for kind in ["image", "component", "movieClip", "font", "sound"] {
        assert!(
            kinds.contains(kind),
            "the unity project has {kind} resources"
        );
    }
}

#[tokio::test]
async fn experiments_project_reads_branches_and_3d_loaders() {
    let workspace = Workspace::new();
    let project = workspace.add("experiments", &experiments_corpus());
    let server = Server::start(&[workspace.path()]).await;
    // Open through the .fairy file rather than the directory.
    let id = server
        .open(&project.join("FairyGUI-Experiments.fairy"))
        .await;
    let outline = server
        .ok(
            OUTLINE,
            json!({ "sessionId": id, "page": { "limit": 1000 } }),
        )
        .await;
    assert_eq!(outline["branches"], json!(["dev"]));
    let branch = outline["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Branch")
        .unwrap();
    assert_eq!(branch["branchNames"], json!(["dev"]));
    let dev_face = branch["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "kn7w2")
        .unwrap();
    assert_eq!(dev_face["branch"], "dev");

    let main = server
        .ok(
            QUERY,
            json!({ "sessionId": id, "target": { "kind": "resource", "selector": { "packageId": "a9lkf94s", "resourceId": "kn7w1" } } }),
        )
        .await;
    assert_eq!(
        main["entity"]["properties"]["branchItemIds"],
        json!(["kn7w2"])
    );

    let loader = server
        .ok(
            QUERY,
            json!({ "sessionId": id, "target": { "kind": "displayNode", "selector": {
                "packageId": "hzobybbt", "componentResourceId": "biss0", "displayNodeId": "n12_bist" } } }),
        )
        .await;
    let loader = &loader["entity"]["properties"];
    assert_eq!(loader["kind"], "loader3D");
    assert_eq!(loader["animationName"], "idle");
    assert_eq!(loader["skinName"], "full-skins/boy");

    let bytes = server
        .ok(BYTES, json!({ "sessionId": id, "expectedRevision": 0, "selector": { "packageId": "a9lkf94s", "resourceId": "kn7w2" } }))
        .await;
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(bytes["sourceBytes"].as_str().unwrap())
        .unwrap();
    assert_eq!(
        decoded,
        std::fs::read(project.join("assets_dev/Branch/face.png")).unwrap()
    );
}

#[tokio::test]
async fn bundled_example_project_opens() {
    let server = Server::start(&[&example_project()]).await;
    let id = server.open(&example_project()).await;
    let outline = server
        .ok(
            OUTLINE,
            json!({ "sessionId": id, "page": { "limit": 1000 } }),
        )
        .await;
    let names = package_names(&outline);
    assert_eq!(names, ["Common", "Main"]);
    let state = server.ok(STATE, json!({ "sessionId": id })).await;
    assert_eq!(
        state["readDiagnostics"],
        json!([]),
        "the example project reads cleanly"
    );
    let title = server
        .ok(
            QUERY,
            json!({ "sessionId": id, "target": { "kind": "displayNode", "selector": {
                "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n1_view" } } }),
        )
        .await;
    assert_eq!(title["entity"]["properties"]["text"], "Hello OpenFairyGUI");
}
