//! `strings` and `openfairygui_export_strings` on a copy of the Unity examples: the
//! editor's strings XML (the same from the command line and over MCP), the translators'
//! CSV and XLSX, round trips between them, and a strings file that is not one refused with
//! its line, nothing written.

use std::path::Path;

use serde_json::json;

use crate::cli::{assert_status, json_output, ofgui};
use crate::harness::*;

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[tokio::test]
async fn strings_are_exported_as_the_editor_writes_them_and_converted_losslessly() {
    let workspace = Workspace::new();
    let project = workspace.add("UIProject", &unity_corpus());
    let dir = workspace.path();
    let (xml, csv, xlsx) = (dir.join("en.xml"), dir.join("en.csv"), dir.join("en.xlsx"));

    let printed = ofgui(&["strings", "export", arg(&project)]);
    assert_status(&printed, 0);
    let printed = String::from_utf8(printed.stdout).unwrap();
    assert!(
        printed.starts_with("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>\n  <!-- ")
    );
    for (path, format) in [(&xml, "xml"), (&csv, "csv"), (&xlsx, "xlsx")] {
        let output = ofgui(&[
            "strings",
            "export",
            arg(&project),
            "-o",
            arg(path),
            "--json",
        ]);
        assert_status(&output, 0);
        let document = json_output("strings", &output);
        assert_eq!(document["data"]["format"], format);
        assert!(
            document["data"]["count"].as_u64().unwrap() > 100,
            "{document}"
        );
    }
    let file = std::fs::read_to_string(&xml).unwrap();
    assert_eq!(format!("{file}\n"), printed, "-o writes what is printed");

    // Over MCP: the same entries and the same file.
    let server = Server::start(&[workspace.path()]).await;
    let session = server.open(&project).await;
    let exported = server
        .ok(
            "openfairygui_export_strings",
            json!({ "sessionId": session, "limit": 5000, "wholeFile": true }),
        )
        .await;
    assert_eq!(exported["document"].as_str().unwrap(), file);
    let first = &exported["entries"][0];
    for field in ["key", "package", "component", "nodeName", "text"] {
        assert!(first[field].is_string(), "{first}");
    }
    let paged = server
        .ok(
            "openfairygui_export_strings",
            json!({ "sessionId": session, "limit": 10 }),
        )
        .await;
    assert_eq!(paged["entries"].as_array().unwrap().len(), 10);
    assert_eq!(paged["nextCursor"], "10");
    assert_eq!(paged["count"], exported["count"]);

    // XLSX → CSV gives back the CSV; XML → CSV → XML gives back the XML.
    let back = dir.join("back.csv");
    assert_status(
        &ofgui(&["strings", "convert", arg(&xlsx), "-o", arg(&back)]),
        0,
    );
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&csv).unwrap());
    let (sheet, again) = (dir.join("lang.csv"), dir.join("lang.xml"));
    assert_status(
        &ofgui(&["strings", "convert", arg(&xml), "-o", arg(&sheet)]),
        0,
    );
    assert_status(
        &ofgui(&["strings", "convert", arg(&sheet), "-o", arg(&again)]),
        0,
    );
    assert_eq!(std::fs::read_to_string(&again).unwrap(), file);

    // A translation checked: every text translated (its markup kept) is clean; a key
    // gone and one the project lacks are found, with exit status 1.
    let translated: Vec<String> = file
        .lines()
        .map(|line| match line.starts_with("  <string ") {
            true => line.replacen("\">", "\">DE ", 1),
            false => line.to_owned(),
        })
        .collect();
    let de = dir.join("de.xml");
    std::fs::write(&de, translated.join("\n")).unwrap();
    let clean = ofgui(&["strings", "check", arg(&project), arg(&de), "--json"]);
    assert_status(&clean, 0);
    assert!(
        json_output("strings", &clean)["data"]
            .get("findings")
            .is_none()
    );
    let mut lines = translated;
    let gone = lines.remove(3);
    lines.insert(3, "  <string name=\"zzzz-n1\" mz=\"\">weg</string>".into());
    std::fs::write(&de, lines.join("\n")).unwrap();
    let found = ofgui(&["strings", "check", arg(&project), arg(&de), "--json"]);
    assert_status(&found, 1);
    let findings = json_output("strings", &found)["data"]["findings"].clone();
    let gone_key = gone.split('"').nth(1).unwrap();
    let kinds: Vec<(&str, &str)> = findings
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["key"].as_str().unwrap(), f["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [(gone_key, "missing"), ("zzzz-n1", "orphaned")],
        "{findings}"
    );

    // A file that is not a strings file: its line named, nothing written.
    let broken = dir.join("broken.xml");
    std::fs::write(
        &broken,
        "<resources>\n<string name=\"a-b\">x</string>\n<string name=\"c-d\">y\n</resources>",
    )
    .unwrap();
    let target = dir.join("never.csv");
    let refused = ofgui(&["strings", "convert", arg(&broken), "-o", arg(&target)]);
    assert_status(&refused, 2);
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("broken.xml is not a strings file") && said.contains("4:"),
        "{said}"
    );
    assert!(!target.exists(), "nothing written");
    let unknown = ofgui(&[
        "strings",
        "export",
        arg(&project),
        "-o",
        arg(&dir.join("en.txt")),
    ]);
    assert_status(&unknown, 2);
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("--format"));
}

/// The runtime is the oracle for keys: every text exported from the Unity examples is
/// replaced by a mark naming its key, the FairyGUI three.js runtime loads that file, and
/// every text it then shows on every component must be a mark (none missed), whose key
/// names the node showing it, a component instance above it that sets it, or (a button's or
/// label's title the instance leaves alone) the title node of the component it is made from
/// (none applied to the wrong node).
#[tokio::test]
async fn the_runtime_shows_every_exported_text_translated_on_its_own_node() {
    let workspace = Workspace::new();
    let project = workspace.add("UIProject", &unity_corpus());
    let published = workspace.path().join("published");
    let server = Server::start(&[workspace.path()]).await;
    let session = server.open(&project).await;
    server
        .ok(
            "openfairygui_publish",
            json!({ "sessionId": session, "outputDir": published }),
        )
        .await;
    let exported = server
        .ok(
            "openfairygui_export_strings",
            json!({ "sessionId": session, "limit": 5000 }),
        )
        .await;
    let entries = exported["entries"].as_array().unwrap();
    let mut marked = String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>\n");
    for entry in entries {
        let key = entry["key"].as_str().unwrap();
        marked.push_str(&format!(
            "  <string name=\"{key}\" mz=\"\">⟦{key}⟧</string>\n"
        ));
    }
    marked.push_str("</resources>");
    let strings = workspace.path().join("marked.xml");
    std::fs::write(&strings, marked).unwrap();

    let index =
        crate::runtime::texts_with_runtime(&published, &strings, &workspace.path().join("texts"));
    let (mut missed, mut misplaced, mut shown) =
        (Vec::new(), Vec::new(), std::collections::BTreeSet::new());
    let mut texts = 0;
    for component in index["components"].as_array().unwrap() {
        let name = format!(
            "{}/{}",
            component["package"].as_str().unwrap(),
            component["component"].as_str().unwrap()
        );
        assert!(component.get("error").is_none(), "{name}: {component}");
        for seen in component["texts"].as_array().into_iter().flatten() {
            let text = seen["text"].as_str().unwrap();
            if !text.chars().any(char::is_alphabetic) {
                continue;
            }
            texts += 1;
            let Some(key) = text.strip_prefix('⟦').and_then(|t| t.strip_suffix('⟧')) else {
                missed.push(format!("{name}: {seen}"));
                continue;
            };
            let (prefix, rest) = key.split_once('-').unwrap();
            let node = rest.split('-').next().unwrap();
            let at = |place: &serde_json::Value| place["owner"] == prefix && place["node"] == node;
            // A title the instance leaves alone is its own component's title node's text.
            let own_title =
                seen["kind"].as_str().unwrap().ends_with("itle") && seen["self"] == prefix;
            if !(at(seen) || own_title || seen["instances"].as_array().unwrap().iter().any(at)) {
                misplaced.push(format!("{name}: {key} shown by {seen}"));
            }
            shown.insert(key.to_owned());
        }
    }
    println!(
        "the runtime showed {texts} texts with letters, {} of the {} exported keys",
        shown.len(),
        entries.len()
    );
    assert!(texts > 200, "the runtime showed {texts} texts");
    assert!(
        missed.is_empty(),
        "{} texts shown untranslated:\n{}",
        missed.len(),
        missed.join("\n")
    );
    assert!(
        misplaced.is_empty(),
        "{} marks on the wrong node:\n{}",
        misplaced.len(),
        misplaced.join("\n")
    );
    // Texts only a controller's other page, a closed popup or code would show are not
    // seen here; most of the export is.
    assert!(
        shown.len() * 10 >= entries.len() * 9,
        "only {} of {} exported keys were shown",
        shown.len(),
        entries.len()
    );
}
