//! A project of many packages made from a real one, as real projects of 50+ packages
//! are: each package copied, with its images and sounds, under a new name and a new id.
//!
//! Shared by the end-to-end tests and the benchmark (included by path, std only).

use std::io;
use std::path::Path;

/// Adds `copies` copies of every package of the project at `project` (a writable copy):
/// `assets/Bag` gives `assets/BagCopy2`, `assets/BagCopy3`… Each copy's own id replaces
/// the original's everywhere in its XML (its `ui://` references to itself), so each copy
/// refers to its own resources, and to other packages as the original does. Returns the
/// number of packages the project then has.
pub fn multiply_packages(project: &Path, copies: usize) -> io::Result<usize> {
    let assets = project.join("assets");
    let mut originals = Vec::new();
    for entry in std::fs::read_dir(&assets)? {
        let entry = entry?;
        if entry.path().join("package.xml").is_file() {
            originals.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    originals.sort();
    for name in &originals {
        let source = assets.join(name);
        let description = std::fs::read_to_string(source.join("package.xml"))?;
        let id = description
            .split_once("<packageDescription id=\"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .map(|(id, _)| id.to_owned())
            .ok_or_else(|| io::Error::other(format!("{name}/package.xml has no id")))?;
        for copy in 2..copies + 2 {
            let new_name = format!("{name}Copy{copy}");
            let new_id = format!("{id}c{copy}");
            let target = assets.join(&new_name);
            copy_renamed(&source, &target, &id, &new_id)?;
            let path = target.join("package.xml");
            let text = std::fs::read_to_string(&path)?.replace(
                &format!("<publish name=\"{name}\""),
                &format!("<publish name=\"{new_name}\""),
            );
            std::fs::write(path, text)?;
        }
    }
    Ok(originals.len() * (copies + 1))
}

/// Copies a package folder; in its XML files the package id becomes `new_id`.
fn copy_renamed(from: &Path, to: &Path, id: &str, new_id: &str) -> io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_renamed(&entry.path(), &target, id, new_id)?;
        } else if entry.path().extension().is_some_and(|e| e == "xml") {
            let text = std::fs::read_to_string(entry.path())?;
            std::fs::write(target, text.replace(id, new_id))?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}
