use std::path::Path;

use serde_json::json;

use crate::harness::*;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[tokio::test]
async fn projects_outside_the_roots_are_refused() {
    let allowed = Workspace::new();
    let outside = Workspace::new();
    let sibling = outside.add("sibling", &example_project());
    let server = Server::start(&[allowed.path()]).await;

    let escape_up = format!(
        "{}/../{}",
        allowed.path().display(),
        sibling.strip_prefix("/").unwrap().display()
    );
    let relative_up = format!("../../../../../../..{}", sibling.display());
    for path in [
        sibling.display().to_string(),
        escape_up,
        relative_up,
        "/".into(),
        "/etc".into(),
    ] {
        let error = server.err(OPEN, json!({ "projectPath": path })).await;
        assert_eq!(error["code"], "project_root_not_allowed", "{path}");
    }

    // A symlink inside the root that points out resolves to where it points.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&sibling, allowed.path().join("link")).unwrap();
        let error = server
            .err(OPEN, json!({ "projectPath": allowed.path().join("link") }))
            .await;
        assert_eq!(error["code"], "project_root_not_allowed");
        let error = server
            .err(OPEN, json!({ "projectPath": "link/HelloFairy.fairy" }))
            .await;
        assert_eq!(error["code"], "project_root_not_allowed");
    }
}

#[tokio::test]
async fn open_failures_name_their_reason() {
    let workspace = Workspace::new();
    let server = Server::start(&[workspace.path()]).await;
    write(&workspace.path().join("empty/readme.txt"), "not a project");
    write(
        &workspace.path().join("two/A.fairy"),
        "<projectDescription id=\"a\" type=\"Unity\"/>",
    );
    write(
        &workspace.path().join("two/Second.fairy"),
        "<projectDescription id=\"b\" type=\"Unity\"/>",
    );
    write(
        &workspace.path().join("broken/Broken.fairy"),
        "this is not xml",
    );
    for (path, reason) in [
        ("missing", "project_not_found"),
        ("empty", "no_project_file"),
        ("empty/readme.txt", "not_a_project_file"),
        ("two", "multiple_project_files"),
        ("broken", "project_read_failed"),
    ] {
        let error = server
            .err(OPEN, json!({ "projectPath": workspace.path().join(path) }))
            .await;
        assert_eq!(error["code"], "project_open_failed", "{path}");
        assert_eq!(error["reason"], reason, "{path}");
        assert!(
            !error["message"]
                .as_str()
                .unwrap()
                .contains(workspace.path().to_str().unwrap()),
            "no host paths in messages"
        );
    }
    let error = server
        .err(OPEN, json!({ "projectPath": workspace.path().join("two") }))
        .await;
    assert!(error["message"].as_str().unwrap().contains("Second.fairy"));
}

#[cfg(unix)]
#[tokio::test]
async fn symlinks_and_hard_links_in_a_project_are_refused() {
    let workspace = Workspace::new();
    let outside = Workspace::new();
    write(&outside.path().join("secret.png"), "secret");
    let server = Server::start(&[workspace.path()]).await;

    let linked_out = workspace.add("linked_out", &example_project());
    let panel = linked_out.join("assets/Main/images/panel.png");
    std::fs::remove_file(&panel).unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret.png"), &panel).unwrap();
    let error = server.err(OPEN, json!({ "projectPath": linked_out })).await;
    assert_eq!(error["reason"], "symbolic_link_unsupported");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("assets/Main/images/panel.png")
    );

    let linked_in = workspace.add("linked_in", &example_project());
    std::os::unix::fs::symlink("Main", linked_in.join("assets/Alias")).unwrap();
    let error = server.err(OPEN, json!({ "projectPath": linked_in })).await;
    assert_eq!(error["reason"], "symbolic_link_unsupported");

    let hard = workspace.add("hard", &example_project());
    std::fs::hard_link(
        outside.path().join("secret.png"),
        hard.join("assets/Main/images/extra.png"),
    )
    .unwrap();
    let error = server.err(OPEN, json!({ "projectPath": hard })).await;
    assert_eq!(error["reason"], "hard_link_unsupported");

    // A symlink outside the project-owned entries is not the project's business.
    let unrelated = workspace.add("unrelated", &example_project());
    std::os::unix::fs::symlink(outside.path(), unrelated.join("Library")).unwrap();
    server.open(&unrelated).await;
}

#[tokio::test]
async fn resource_paths_cannot_climb_out_of_the_project() {
    let workspace = Workspace::new();
    let outside = Workspace::new();
    write(&outside.path().join("secret.png"), "secret");
    let project = workspace.add("climb", &example_project());
    let depth = project.components().count() + 2;
    let climb = "/..".repeat(depth);
    let target = outside
        .path()
        .strip_prefix("/")
        .unwrap()
        .display()
        .to_string();
    write(
        &project.join("assets/Main/package.xml"),
        &format!(
            r#"<?xml version="1.0" encoding="utf-8"?>
<packageDescription id="main0001">
  <resources>
    <image id="img0" name="panel.png" path="/images/"/>
    <image id="leak" name="secret.png" path="{climb}/{target}/"/>
    <component id="view0" name="MainView.xml" path="/" exported="true"/>
    <component id="view1" name="Settings.xml" path="/"/>
  </resources>
</packageDescription>
"#
        ),
    );
    let server = Server::start(&[workspace.path()]).await;
    let id = server.open(&project).await;
    let error = server
        .err(BYTES, json!({ "sessionId": id, "expectedRevision": 0, "selector": { "packageId": "main0001", "resourceId": "leak" } }))
        .await;
    assert_eq!(error["code"], "session_read_failed");
    assert_ne!(error["reason"], json!(null));
    let state = server.ok(STATE, json!({ "sessionId": id })).await;
    assert!(
        !state.to_string().contains("secret\""),
        "the outside file's content never appears"
    );
    assert!(
        state["readDiagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["resourceId"] == "leak"),
        "the climbing resource is diagnosed: {}",
        state["readDiagnostics"]
    );
}

#[tokio::test]
async fn a_session_sees_only_its_own_project() {
    let workspace = Workspace::new();
    let example = workspace.add("example", &example_project());
    let experiments = workspace.add("experiments", &experiments_corpus());
    let server = Server::start(&[workspace.path()]).await;
    let first = server.open(&example).await;
    let second = server.open(&experiments).await;
    // Package a9lkf94s belongs to the experiments project only.
    let selector = json!({ "packageId": "a9lkf94s", "resourceId": "kn7w1" });
    let error = server
        .err(
            BYTES,
            json!({ "sessionId": first, "expectedRevision": 0, "selector": selector }),
        )
        .await;
    assert_eq!(error["reason"], "not_found");
    server
        .ok(
            BYTES,
            json!({ "sessionId": second, "expectedRevision": 0, "selector": selector }),
        )
        .await;
}
