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
