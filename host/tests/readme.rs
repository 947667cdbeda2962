//! The README and `docs/` hold to what the code says: the counts the README states come
//! from the method table, the tool list and the operation kinds, and every relative link
//! in them names a file that exists.

use std::path::{Path, PathBuf};

use ofgui_contracts::methods::METHODS;
use ofgui_contracts::ops::OPERATION_KINDS;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("host/ is in the repository")
        .to_path_buf()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_readme_counts_what_the_code_serves() {
    let readme = read(&repo().join("README.md"));
    let upstream = METHODS.iter().filter(|m| m.upstream).count();
    let ours = METHODS.len() - upstream;
    let listed: Vec<serde_json::Value> =
        serde_json::from_str(ofgui_contracts::TOOLS_JSON).expect("the tool list parses");
    // The method tools, and `openfairygui_docs_read`.
    let tools = listed.len() + 1;
    for claim in [
        format!("all {upstream} of upstream's backend methods"),
        format!("plus {ours} tools of ours"),
        format!("{tools} tools in all"),
        format!("{} operations", OPERATION_KINDS.len()),
    ] {
        assert!(readme.contains(&claim), "README.md should say \"{claim}\"");
    }
}

/// `](target)` links that are not web addresses or anchors.
fn relative_links(text: &str) -> Vec<String> {
    let mut links = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = rest[..end].split('#').next().unwrap_or_default();
        if !target.is_empty() && !target.contains("://") && !target.starts_with("mailto:") {
            links.push(target.to_string());
        }
    }
    links
}

#[test]
fn every_link_in_the_readme_and_docs_leads_somewhere() {
    let mut pages = vec![repo().join("README.md")];
    for entry in std::fs::read_dir(repo().join("docs")).expect("docs/ exists") {
        let path = entry.expect("a docs entry").path();
        if path.extension().is_some_and(|ext| ext == "md") {
            pages.push(path);
        }
    }
    let mut broken = Vec::new();
    for page in &pages {
        let dir = page.parent().expect("a page is in a folder");
        for link in relative_links(&read(page)) {
            if !dir.join(&link).exists() {
                broken.push(format!("{}: {link}", page.display()));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
}
