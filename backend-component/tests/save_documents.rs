//! Saving the description files of the two real corpora: `package.xml`,
//! `package_branch.xml`, the `.fairy` file and `settings/*.json`.
//!
//! - Every file's canonical form, written whole in place of the original, reads back as the
//!   same model: the whole project is read again and compared field by field with the
//!   project as first read (settings, packages with their folders and every resource).
//! - Single edits, applied through transactions, change exactly the expected bytes of the
//!   real files, and the saved project reads back as the edited model. An unchanged model
//!   writes nothing.
//! - Over every description file of both corpora at once: a resource added, removed,
//!   renamed, moved or its `exported` flipped, a settings value changed and a settings key
//!   added each change only the lines concerned; undone, each file is its original bytes.
//!
//! The projects are read through an in-memory overlay of the read-only corpora, so the
//! suite copies nothing and stays fast.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io;
use std::path::Path;
use std::sync::Arc;

use ofgui_backend::fs::{DirEntry, ProjectFs, StdFs};
use ofgui_backend::reader::{ProjectSource, read_project};
use ofgui_backend::testing::{experiments_root, unity_root};
use ofgui_backend::txn::run;
use ofgui_backend::writer::package::{
    BranchPart, branch_document, branch_xml, package_document, package_xml,
};
use ofgui_backend::writer::project::{fairy_document, fairy_xml};
use ofgui_backend::writer::settings::settings_files;
use ofgui_contracts::ops::Operation;
use ofgui_contracts::uam::{UamPackage, UamProject, UamResource};
use serde_json::{Map, Value, json};

const UNITY: &str = "FairyGUI-Unity-Examples.fairy";
const EXPERIMENTS: &str = "FairyGUI-Experiments.fairy";
const BASICS: &str = "9leh0eyf";
const CURVE: &str = "i1i2ucwo";
const PARTICLES: &str = "jqu05wyc";
const EXTENSION: &str = "jou4kj6p";
const BRANCH: &str = "a9lkf94s";
const LOOP_LIST: &str = "qf88jb5n";

/// A corpus as it is on disk with a test's writes over it, in memory: the corpora are
/// read-only, and copying a whole project for each test costs seconds on a slow disk.
struct Overlay {
    corpus: StdFs,
    /// Files written (`Some`) and removed (`None`), by project-relative path.
    files: RefCell<BTreeMap<String, Option<Vec<u8>>>>,
    /// Directories created (`true`) and removed (`false`).
    dirs: RefCell<BTreeMap<String, bool>>,
}

fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(parent, _)| parent)
}

/// A path as the maps hold it: no `./`, no final `/`, the root as `""`.
fn plain(path: &str) -> &str {
    let path = path.trim_start_matches("./").trim_end_matches('/');
    if path == "." { "" } else { path }
}

impl Overlay {
    fn new(root: &Path) -> Overlay {
        Overlay {
            corpus: StdFs::new(root),
            files: RefCell::default(),
            dirs: RefCell::default(),
        }
    }

    fn write(&self, path: &str, bytes: &[u8]) {
        self.create_dir_all(parent(path));
        self.files
            .borrow_mut()
            .insert(path.to_owned(), Some(bytes.to_vec()));
    }

    /// A batch may report a path it only passed through (renamed, then moved) as removed.
    fn remove(&self, path: &str) {
        self.files.borrow_mut().insert(path.to_owned(), None);
    }

    fn rename(&self, from: &str, to: &str) {
        let bytes = self.read(from).unwrap_or_else(|e| panic!("{from}: {e}"));
        self.remove(from);
        self.write(to, &bytes);
    }

    fn exists(&self, path: &str) -> bool {
        self.read(path).is_ok()
    }

    fn create_dir_all(&self, path: &str) {
        let mut dir = plain(path);
        while !dir.is_empty() {
            self.dirs.borrow_mut().insert(dir.to_owned(), true);
            dir = parent(dir);
        }
    }

    /// Removes a directory that is empty, as `std::fs::remove_dir` does.
    fn remove_dir(&self, path: &str) {
        let path = plain(path);
        if self.read_dir(path).is_ok_and(|entries| entries.is_empty()) {
            self.dirs.borrow_mut().insert(path.to_owned(), false);
        }
    }
}

impl ProjectFs for Overlay {
    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        match self.files.borrow().get(plain(path)) {
            Some(Some(bytes)) => Ok(bytes.clone()),
            Some(None) => Err(io::ErrorKind::NotFound.into()),
            None => self.corpus.read(path),
        }
    }

    fn read_dir(&self, path: &str) -> io::Result<Vec<DirEntry>> {
        let dir = plain(path);
        let dirs = self.dirs.borrow();
        let files = self.files.borrow();
        let mut entries = match (dirs.get(dir), self.corpus.read_dir(path)) {
            (Some(false), _) => return Err(io::ErrorKind::NotFound.into()),
            (_, Ok(entries)) => entries,
            (Some(true), Err(_)) => Vec::new(),
            (None, Err(e)) => return Err(e),
        };
        let full = |name: &str| match dir {
            "" => name.to_owned(),
            dir => format!("{dir}/{name}"),
        };
        entries.retain(|entry| {
            let path = full(&entry.name);
            match entry.is_dir {
                true => dirs.get(&path) != Some(&false),
                false => files.get(&path) != Some(&None),
            }
        });
        let name = |path: &str| path.rsplit('/').next().unwrap_or(path).to_owned();
        let written = files
            .iter()
            .filter(|(path, bytes)| bytes.is_some() && parent(path) == dir)
            .map(|(path, _)| DirEntry {
                name: name(path),
                is_dir: false,
            });
        let made = dirs
            .iter()
            .filter(|(path, made)| **made && !path.is_empty() && parent(path) == dir)
            .map(|(path, _)| DirEntry {
                name: name(path),
                is_dir: true,
            });
        entries.extend(written.chain(made));
        entries.sort_by(|a, b| (&a.name, a.is_dir).cmp(&(&b.name, b.is_dir)));
        entries.dedup();
        Ok(entries)
    }
}

/// A corpus project with a test's writes, and its model as last saved.
struct Project {
    disk: Overlay,
    fairy: &'static str,
    source: ProjectSource,
}

impl Project {
    fn open(root: &Path, fairy: &'static str) -> Project {
        let disk = Overlay::new(root);
        let source = read_project(&disk, fairy).expect("project reads");
        Project {
            disk,
            fairy,
            source,
        }
    }

    fn unity() -> Project {
        Project::open(&unity_root(), UNITY)
    }

    fn experiments() -> Project {
        Project::open(&experiments_root(), EXPERIMENTS)
    }

    fn text(&self, relative: &str) -> String {
        let bytes = self
            .disk
            .read(relative)
            .unwrap_or_else(|e| panic!("{relative}: {e}"));
        String::from_utf8(bytes).unwrap_or_else(|e| panic!("{relative}: {e}"))
    }

    fn read_again(&self) -> ProjectSource {
        read_project(&self.disk, self.fairy).expect("saved project reads")
    }

    /// Applies a batch, saves it and checks that the project reads back as the edited
    /// model; returns every description file written, by path, with its text before.
    fn edit(&mut self, ops: Value) -> BTreeMap<String, (String, String)> {
        let operations: Vec<Operation> = serde_json::from_value(ops).expect("operations parse");
        let applied = run(&self.source.project, &self.source.bytes, &operations)
            .unwrap_or_else(|failure| panic!("batch failed: {failure:#?}"));
        for (path, bytes) in &applied.bytes {
            match bytes {
                Some(bytes) => self.disk.write(path, bytes),
                None => self.disk.remove(path),
            }
        }
        let written = self.save(&applied.project);
        let reread = self.read_again();
        assert_same_project(&reread.project, &applied.project);
        self.source = reread;
        written
    }

    /// What the integrator does with the writer: every description file whose part of the
    /// model changed is patched (or written whole when it did not exist), and every folder
    /// of the model has its directory.
    fn save(&self, new: &UamProject) -> BTreeMap<String, (String, String)> {
        let old = &self.source.project;
        let mut written = BTreeMap::new();
        let mut write = |path: String, before: String, after: String| {
            self.disk.write(&path, after.as_bytes());
            written.insert(path, (before, after));
        };
        let fairy = self.text(self.fairy);
        if let Some(after) = fairy_document(&fairy, old, new).expect("fairy patches") {
            write(self.fairy.to_string(), fairy, after);
        }
        let originals: BTreeMap<String, String> = [
            "Publish",
            "Common",
            "Adaptation",
            "CustomProperties",
            "i18n",
        ]
        .iter()
        .filter_map(|name| {
            let path = format!("settings/{name}.json");
            self.disk.exists(&path).then(|| {
                let text = self.text(&path);
                (path, text)
            })
        })
        .collect();
        for change in settings_files(&old.settings, &new.settings, |path| {
            originals.get(path).map(String::as_str)
        })
        .expect("settings patch")
        {
            let before = originals.get(&change.path).cloned().unwrap_or_default();
            match change.text {
                Some(after) => write(change.path, before, after),
                None => self.disk.remove(&change.path),
            }
        }
        for package in &new.packages {
            let previous = old.packages.iter().find(|p| p.id == package.id);
            let path = format!("assets/{}/package.xml", package.name);
            match previous {
                Some(previous) => {
                    let before = self.text(&path);
                    if let Some(after) =
                        package_document(&before, previous, package).expect("package patches")
                    {
                        write(path, before, after);
                    }
                }
                None => write(path, String::new(), package_xml(package)),
            }
            for branch in &package.branch_names {
                let path = format!("assets_{branch}/{}/package_branch.xml", package.name);
                let before = self.disk.exists(&path).then(|| self.text(&path));
                match (before, previous) {
                    (Some(before), Some(previous)) => {
                        let old_part = BranchPart {
                            package: previous,
                            branch,
                        };
                        let new_part = BranchPart { package, branch };
                        if let Some(after) = branch_document(&before, old_part, new_part)
                            .expect("branch file patches")
                        {
                            write(path, before, after);
                        }
                    }
                    _ => write(path, String::new(), branch_xml(package, branch)),
                }
            }
            if let Some(previous) = previous {
                self.follow_component_files(previous, package);
                // Deepest first, and only when empty: a folder that went takes its
                // directory along.
                let mut gone: Vec<_> = previous
                    .folders
                    .iter()
                    .filter(|f| {
                        !package
                            .folders
                            .iter()
                            .any(|g| g.branch == f.branch && g.path == f.path)
                    })
                    .collect();
                gone.sort_by_key(|folder| std::cmp::Reverse(folder.path.len()));
                for folder in gone {
                    let root = if folder.branch.is_empty() {
                        format!("assets/{}", package.name)
                    } else {
                        format!("assets_{}/{}", folder.branch, package.name)
                    };
                    self.disk.remove_dir(&format!("{root}{}", folder.path));
                }
            }
            for folder in &package.folders {
                let root = if folder.branch.is_empty() {
                    format!("assets/{}", package.name)
                } else {
                    format!("assets_{}/{}", folder.branch, package.name)
                };
                self.disk.create_dir_all(&format!("{root}{}", folder.path));
            }
        }
        written
    }
}

impl Project {
    /// Component files are the component writer's: here a renamed or moved component's
    /// file goes to its new path as it is, and a removed component's file goes.
    fn follow_component_files(&self, old: &UamPackage, new: &UamPackage) {
        for resource in &old.resources {
            let (UamResource::Component(_), Some(from)) = (&**resource, resource.source_path())
            else {
                continue;
            };
            let to = new
                .resources
                .iter()
                .find(|r| r.id() == resource.id())
                .and_then(|r| r.source_path());
            match to {
                Some(to) if to != from => self.disk.rename(from, to),
                Some(_) => {}
                None => self.disk.remove(from),
            }
        }
    }
}

/// Field by field, so a failure names what differs.
fn assert_same_project(got: &UamProject, expected: &UamProject) {
    assert_eq!(got.project_id, expected.project_id);
    assert_eq!(got.project_type, expected.project_type);
    assert_eq!(got.project_type_name, expected.project_type_name);
    assert_eq!(got.version, expected.version);
    assert_eq!(got.branches, expected.branches);
    assert_eq!(got.settings, expected.settings, "settings");
    assert_eq!(got.packages.len(), expected.packages.len());
    for (got, expected) in got.packages.iter().zip(&expected.packages) {
        assert_same_package(got, expected);
    }
}

fn assert_same_package(got: &UamPackage, expected: &UamPackage) {
    let name = &expected.name;
    assert_eq!(got.id, expected.id, "{name}: id");
    assert_eq!(got.name, expected.name);
    assert_eq!(
        got.compress_png, expected.compress_png,
        "{name}: compressPNG"
    );
    assert_eq!(
        got.jpeg_quality, expected.jpeg_quality,
        "{name}: jpegQuality"
    );
    assert_eq!(got.publish, expected.publish, "{name}: publish");
    assert_eq!(
        got.branch_names, expected.branch_names,
        "{name}: branchNames"
    );
    // The reader lists folders sorted; transactions append new ones.
    let sorted = |package: &UamPackage| {
        let mut folders = package.folders.clone();
        folders.sort_by(|a, b| (&a.branch, &a.path).cmp(&(&b.branch, &b.path)));
        folders
    };
    assert_eq!(sorted(got), sorted(expected), "{name}: folders");
    // Each file keeps the model's order of its branch's resources; the reader lists the
    // main branch's first, then each branch's.
    let order = |package: &UamPackage, branch: &str| {
        package
            .resources
            .iter()
            .filter(|r| r.branch() == branch)
            .map(|r| r.id().to_string())
            .collect::<Vec<_>>()
    };
    for branch in std::iter::once("").chain(expected.branch_names.iter().map(String::as_str)) {
        assert_eq!(
            order(got, branch),
            order(expected, branch),
            "{name}: resource order on branch {branch:?}"
        );
    }
    assert_eq!(got.resources.len(), expected.resources.len());
    for expected in &expected.resources {
        let got = got.resources.iter().find(|r| r.id() == expected.id());
        assert_eq!(got, Some(expected), "{name}: resource {}", expected.id());
    }
}

fn package<'p>(project: &'p UamProject, id: &str) -> &'p Arc<UamPackage> {
    project
        .packages
        .iter()
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("package {id}"))
}

/// The one file written, with its text before and after.
fn only(written: &BTreeMap<String, (String, String)>, path: &str) -> (String, String) {
    assert_eq!(
        written.keys().collect::<Vec<_>>(),
        vec![path],
        "files written"
    );
    written[path].clone()
}

/// `text` with each `(from, to)` replaced exactly once.
fn replaced(text: &str, edits: &[(&str, &str)]) -> String {
    let mut out = text.to_string();
    for (from, to) in edits {
        assert_eq!(out.matches(from).count(), 1, "{from:?} occurs once");
        out = out.replacen(from, to, 1);
    }
    out
}

// ---------------------------------------------------------------------------------------
// Round trips through the canonical form

/// Writes every description file of the project in its canonical form, whole.
fn materialize(project: &Project) {
    let model = &project.source.project;
    project
        .disk
        .write(project.fairy, fairy_xml(model).as_bytes());
    for change in settings_files(&Map::new(), &model.settings, |_| None).expect("settings write") {
        project
            .disk
            .write(&change.path, change.text.expect("a text").as_bytes());
    }
    for package in &model.packages {
        let path = format!("assets/{}/package.xml", package.name);
        project.disk.write(&path, package_xml(package).as_bytes());
        for branch in &package.branch_names {
            let path = format!("assets_{branch}/{}/package_branch.xml", package.name);
            project
                .disk
                .write(&path, branch_xml(package, branch).as_bytes());
        }
    }
}

fn round_trip(project: Project) {
    materialize(&project);
    let reread = project.read_again();
    assert_same_project(&reread.project, &project.source.project);
    // Nothing new is found in the canonical files.
    let findings = |source: &ProjectSource| {
        let mut found: Vec<(String, String)> = source
            .diagnostics
            .iter()
            .map(|d| (format!("{:?}", d.code), d.path.clone()))
            .collect();
        found.sort();
        found
    };
    assert_eq!(findings(&reread), findings(&project.source));
}

#[test]
fn the_unity_examples_read_back_from_their_canonical_form() {
    round_trip(Project::unity());
}

#[test]
fn the_experiments_read_back_from_their_canonical_form() {
    round_trip(Project::experiments());
}

#[test]
fn an_unchanged_model_writes_nothing() {
    for project in [Project::unity(), Project::experiments()] {
        assert!(project.save(&project.source.project).is_empty());
        let model = &project.source.project;
        for package in &model.packages {
            let text = project.text(&format!("assets/{}/package.xml", package.name));
            assert_eq!(package_document(&text, package, package), Ok(None));
        }
    }
}

// ---------------------------------------------------------------------------------------
// Minimal patches on the real files

#[test]
fn a_renamed_resource_changes_its_name_only() {
    let mut project = Project::unity();
    let written = project.edit(json!([
        { "kind": "renameResource", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "newName": "k3_frame" }
    ]));
    let (before, after) = only(&written, "assets/Basics/package.xml");
    assert_eq!(
        after,
        replaced(
            &before,
            &[(
                r#"id="rpmbj" name="k3.png""#,
                r#"id="rpmbj" name="k3_frame.png""#
            )]
        )
    );
}

#[test]
fn a_moved_resource_changes_its_path_only() {
    let mut project = Project::unity();
    let written = project.edit(json!([
        { "kind": "addResourceFolder", "selector": { "packageId": BASICS }, "path": "/frames/" },
        { "kind": "moveResource", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "toPath": "/frames/" }
    ]));
    // The new folder is a directory; it has no metadata for package.xml.
    let (before, after) = only(&written, "assets/Basics/package.xml");
    assert_eq!(
        after,
        replaced(
            &before,
            &[(
                r#"name="k3.png" path="/images/""#,
                r#"name="k3.png" path="/frames/""#
            )]
        )
    );
}

#[test]
fn flags_come_and_go_in_the_editors_order() {
    let mut project = Project::unity();
    let written = project.edit(json!([
        { "kind": "setResourceFavorite", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "favorite": true },
        { "kind": "setResourceExported", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "exported": true },
        { "kind": "setResourceExported", "selector": { "packageId": BASICS, "resourceId": "wa8u2r" }, "exported": false }
    ]));
    let (before, after) = only(&written, "assets/Basics/package.xml");
    assert_eq!(
        after,
        replaced(
            &before,
            &[
                (
                    r#"<packageDescription id="9leh0eyf">"#,
                    r#"<packageDescription id="9leh0eyf" hasFavorites="true">"#
                ),
                (
                    r#"path="/images/" scale="9grid" scale9grid="16,9,32,6"/>"#,
                    r#"path="/images/" exported="true" favorite="true" scale="9grid" scale9grid="16,9,32,6"/>"#
                ),
                (
                    r#"path="/font/" exported="true" texture="jb800"/>"#,
                    r#"path="/font/" texture="jb800"/>"#
                ),
            ]
        )
    );
    // And back: the file is as it was.
    let written = project.edit(json!([
        { "kind": "setResourceFavorite", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "favorite": false },
        { "kind": "setResourceExported", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "exported": false },
        { "kind": "setResourceExported", "selector": { "packageId": BASICS, "resourceId": "wa8u2r" }, "exported": true }
    ]));
    let (_, restored) = only(&written, "assets/Basics/package.xml");
    assert_eq!(restored, before);
}

#[test]
fn image_properties_change_where_they_stand() {
    let mut project = Project::unity();
    let written = project.edit(json!([
        { "kind": "setImageResourceProps", "selector": { "packageId": BASICS, "resourceId": "rpmbj" }, "props": {
            "textureSetMode": "", "qualityOption": "custom", "quality": 80, "smoothing": false,
            "duplicatePadding": true, "scaleOption": 1, "scale9Grid": [1, 2, 30, 4], "tileGridIndice": 0
        } },
        { "kind": "setImageResourceProps", "selector": { "packageId": BASICS, "resourceId": "nz0z20" }, "props": {
            "textureSetMode": "", "qualityOption": "", "quality": 0, "smoothing": true,
            "duplicatePadding": false, "scaleOption": 0, "scale9Grid": null, "tileGridIndice": 0
        } },
        { "kind": "setImageResourceProps", "selector": { "packageId": BASICS, "resourceId": "rpmbk" }, "props": {
            "textureSetMode": "", "qualityOption": "", "quality": 0, "smoothing": true,
            "duplicatePadding": false, "scaleOption": 2, "scale9Grid": null, "tileGridIndice": 3
        } }
    ]));
    let (before, after) = only(&written, "assets/Basics/package.xml");
    assert_eq!(
        after,
        replaced(
            &before,
            &[
                (
                    r#"scale9grid="16,9,32,6"/>"#,
                    r#"scale9grid="1,2,30,4" qualityOption="custom" quality="80" duplicatePadding="true" smoothing="false"/>"#
                ),
                (
                    r#"name="long_dead2_png.png" path="/images/" scale="tile"/>"#,
                    r#"name="long_dead2_png.png" path="/images/"/>"#
                ),
                (
                    r#"name="k4.png" path="/images/"/>"#,
                    r#"name="k4.png" path="/images/" scale="tile" gridTile="3"/>"#
                ),
            ]
        )
    );
}

fn image_input(id: &str, file: &str, path: &str, branch: &str, bytes: &[u8]) -> Value {
    json!({
        "kind": "image", "id": id, "name": file, "fileName": file, "path": path,
        "exported": false, "favorite": false, "branch": branch, "branchItemIds": [],
        "image": {
            "textureSetMode": "", "qualityOption": "", "quality": 0, "smoothing": true,
            "duplicatePadding": false, "scaleOption": 0, "scale9Grid": null, "tileGridIndice": 0
        },
        "sourceBytes": bytes,
    })
}

#[test]
fn resources_come_and_go_at_their_index() {
    let mut project = Project::unity();
    let png = project.source.bytes["assets/Basics/images/k4.png"].clone();
    let written = project.edit(json!([
        { "kind": "addResource", "selector": { "packageId": BASICS }, "atIndex": 2,
          "resource": image_input("added1", "added.png", "/images/", "", &png) },
        { "kind": "removeResource", "selector": { "packageId": BASICS, "resourceId": "wa8u2q" } }
    ]));
    let (before, after) = only(&written, "assets/Basics/package.xml");
    assert_eq!(
        after,
        replaced(
            &before,
            &[
                (
                    "    <image id=\"rpmb3\"",
                    "    <image id=\"added1\" name=\"added.png\" path=\"/images/\"/>\n    <image id=\"rpmb3\""
                ),
                (
                    "    <image id=\"wa8u2q\" name=\"k27.png\" path=\"/images/\"/>\n",
                    ""
                ),
            ]
        )
    );
    // The last resource of a package goes and a new one takes the end.
    let mut project = Project::unity();
    let png = project.source.bytes["assets/LoopList/n5.png"].clone();
    let written = project.edit(json!([
        { "kind": "removeResource", "selector": { "packageId": LOOP_LIST, "resourceId": "rpol7" } },
        { "kind": "addResource", "selector": { "packageId": LOOP_LIST },
          "resource": image_input("rpol8", "n6.png", "/", "", &png) }
    ]));
    let (before, after) = only(&written, "assets/LoopList/package.xml");
    assert_eq!(
        after,
        replaced(
            &before,
            &[(
                "    <image id=\"rpol7\" name=\"n5.png\" path=\"/\" exported=\"true\"/>\n",
                "    <image id=\"rpol8\" name=\"n6.png\" path=\"/\"/>\n"
            )]
        )
    );
}

#[test]
fn folder_metadata_is_written_in_the_file_of_its_branch() {
    let mut project = Project::unity();
    let written = project.edit(json!([
        { "kind": "setResourceFolderFavorite", "selector": { "packageId": BASICS, "path": "/images/" }, "favorite": true },
        { "kind": "setResourceFolderAtlas", "selector": { "packageId": BASICS, "path": "/font/" }, "atlas": "1" }
    ]));
    let (original, after) = only(&written, "assets/Basics/package.xml");
    assert_eq!(
        after,
        replaced(
            &original,
            &[(
                "<packageDescription id=\"9leh0eyf\">\n  <resources>\n",
                "<packageDescription id=\"9leh0eyf\" hasFavorites=\"true\">\n  <resources>\n    <folder id=\"/font/\" name=\"font\" path=\"/\" atlas=\"1\"/>\n    <folder id=\"/images/\" name=\"images\" path=\"/\" favorite=\"true\"/>\n"
            ),]
        )
    );
    // A folder that is added, renamed and removed: its metadata element follows it.
    let written = project.edit(json!([
        { "kind": "addResourceFolder", "selector": { "packageId": BASICS }, "path": "/tmp/" },
        { "kind": "setResourceFolderFavorite", "selector": { "packageId": BASICS, "path": "/tmp/" }, "favorite": true }
    ]));
    let (before, after) = only(&written, "assets/Basics/package.xml");
    assert_eq!(
        after,
        replaced(
            &before,
            &[(
                "favorite=\"true\"/>\n    <image id=\"rpmb1\"",
                "favorite=\"true\"/>\n    <folder id=\"/tmp/\" name=\"tmp\" path=\"/\" favorite=\"true\"/>\n    <image id=\"rpmb1\""
            )]
        )
    );
    let written = project.edit(json!([
        { "kind": "renameResourceFolder", "selector": { "packageId": BASICS, "path": "/tmp/" }, "newName": "staging" }
    ]));
    let (before, after) = only(&written, "assets/Basics/package.xml");
    assert_eq!(
        after,
        replaced(
            &before,
            &[(
                "<folder id=\"/tmp/\" name=\"tmp\" path=\"/\" favorite=\"true\"/>",
                "<folder id=\"/staging/\" name=\"staging\" path=\"/\" favorite=\"true\"/>"
            )]
        )
    );
    let written = project.edit(json!([
        { "kind": "removeResourceFolder", "selector": { "packageId": BASICS, "path": "/staging/" } },
        { "kind": "setResourceFolderFavorite", "selector": { "packageId": BASICS, "path": "/images/" }, "favorite": false },
        { "kind": "setResourceFolderAtlas", "selector": { "packageId": BASICS, "path": "/font/" }, "atlas": "" }
    ]));
    let (_, after) = only(&written, "assets/Basics/package.xml");
    assert_eq!(after, original);
    assert_same_project(&project.read_again().project, &project.source.project);
}

fn package_settings(project: &UamProject, id: &str) -> Value {
    let pkg = package(project, id);
    json!({
        "compressPNG": pkg.compress_png,
        "jpegQuality": pkg.jpeg_quality,
        "publish": serde_json::to_value(&pkg.publish).expect("publish serializes"),
    })
}

#[test]
fn publish_settings_change_where_they_stand() {
    let mut project = Project::unity();
    let mut settings = package_settings(&project.source.project, EXTENSION);
    let publish = &mut settings["publish"];
    publish["path"] = json!("../out");
    publish["genCode"] = json!(true);
    publish["useGlobalAtlasSettings"] = json!(false);
    publish["maxAtlasSize"] = json!(1024);
    publish["sizeOption"] = json!("npot");
    publish["paging"] = json!(true);
    publish["maxAtlasIndex"] = json!(12);
    publish["excludedResourceIds"] = json!(["gsia3"]);
    publish["atlases"] = json!([
        { "index": 0, "name": "Default", "compression": false },
        { "index": 1, "name": "Second", "compression": true }
    ]);
    let written = project.edit(json!([
        { "kind": "updatePackageSettings", "selector": { "packageId": EXTENSION }, "settings": settings }
    ]));
    let (before, after) = only(&written, "assets/Extension/package.xml");
    assert_eq!(
        after,
        replaced(
            &before,
            &[(
                "  <publish name=\"Extension\">\n    <atlas name=\"Default\" index=\"0\"/>\n  </publish>",
                "  <publish name=\"Extension\" path=\"../out\" genCode=\"true\" maxAtlasSize=\"1024\" sizeOption=\"npot\" square=\"false\" rotation=\"false\" multiPage=\"true\" maxAtlasIndex=\"12\" excluded=\"gsia3\">\n    <atlas name=\"Default\" index=\"0\"/>\n    <atlas name=\"Second\" index=\"1\" compression=\"true\"/>\n  </publish>"
            )]
        )
    );
}

#[test]
fn package_compression_settings_change_in_place() {
    let mut project = Project::unity();
    let mut curve = package_settings(&project.source.project, CURVE);
    curve["compressPNG"] = json!(false);
    curve["jpegQuality"] = json!(90);
    let mut particles = package_settings(&project.source.project, PARTICLES);
    particles["compressPNG"] = json!(true);
    particles["jpegQuality"] = json!(75);
    let written = project.edit(json!([
        { "kind": "updatePackageSettings", "selector": { "packageId": CURVE }, "settings": curve },
        { "kind": "updatePackageSettings", "selector": { "packageId": PARTICLES }, "settings": particles }
    ]));
    assert_eq!(written.len(), 2);
    let (before, after) = &written["assets/Curve/package.xml"];
    assert_eq!(
        *after,
        replaced(
            before,
            &[(
                r#"<packageDescription id="i1i2ucwo" jpegQuality="80" compressPNG="true">"#,
                r#"<packageDescription id="i1i2ucwo" jpegQuality="90" compressPNG="false">"#
            )]
        )
    );
    let (before, after) = &written["assets/Particles/package.xml"];
    assert_eq!(
        *after,
        replaced(
            before,
            &[(
                r#"<packageDescription id="jqu05wyc">"#,
                r#"<packageDescription id="jqu05wyc" jpegQuality="75" compressPNG="true">"#
            )]
        )
    );
}

#[test]
fn branch_resources_are_written_to_their_branch_file() {
    let mut project = Project::experiments();
    let png = project.source.bytes["assets_dev/Branch/face.png"].clone();
    let written = project.edit(json!([
        { "kind": "setResourceFavorite", "selector": { "packageId": BRANCH, "resourceId": "kn7w2" }, "favorite": true },
        { "kind": "addResource", "selector": { "packageId": BRANCH }, "atIndex": 0,
          "resource": image_input("kn7w9", "face2.png", "/", "dev", &png) }
    ]));
    assert_eq!(written.len(), 2);
    let (before, after) = &written["assets_dev/Branch/package_branch.xml"];
    assert_eq!(
        *after,
        replaced(
            before,
            &[
                (
                    "    <component id=\"kn7w3\"",
                    "    <image id=\"kn7w9\" name=\"face2.png\" path=\"/\"/>\n    <component id=\"kn7w3\""
                ),
                (
                    r#"<image id="kn7w2" name="face.png" path="/" exported="true"/>"#,
                    r#"<image id="kn7w2" name="face.png" path="/" exported="true" favorite="true"/>"#
                ),
            ]
        )
    );
    // The package as a whole has a favorite now.
    let (before, after) = &written["assets/Branch/package.xml"];
    assert_eq!(
        *after,
        replaced(
            before,
            &[(
                r#"<packageDescription id="a9lkf94s">"#,
                r#"<packageDescription id="a9lkf94s" hasFavorites="true">"#
            )]
        )
    );
}

fn settings_with(project: &UamProject, edit: impl FnOnce(&mut Map<String, Value>)) -> Value {
    let mut settings = project.settings.clone();
    edit(&mut settings);
    Value::Object(settings)
}

#[test]
fn settings_files_are_patched_in_the_editors_style() {
    let mut project = Project::unity();
    let settings = settings_with(&project.source.project, |s| {
        s["publish"]["path"] = json!("../Out");
        s["common"]["newKey"] = json!(3);
        s["common"]["scrollBars"]["defaultDisplay"] = json!("auto");
        let adaptation = s["adaptation"].as_object_mut().unwrap();
        adaptation.remove("devices");
        adaptation["designResolutionX"] = json!(1280);
        s["customProperties"] = json!({ "theme": "dark" });
        s["i18n"]["langFiles"] = json!([{ "name": "zh", "path": "zh.xml" }]);
    });
    let written = project.edit(json!([{ "kind": "updateProjectSettings", "settings": settings }]));
    assert_eq!(written.len(), 5);
    let check = |file: &str, edits: &[(&str, &str)]| {
        let (before, after) = &written[&format!("settings/{file}")];
        assert_eq!(*after, replaced(before, edits), "{file}");
    };
    check(
        "Publish.json",
        &[(
            "\"path\":\"../Assets/Examples/Resources/UI\"",
            "\"path\":\"../Out\"",
        )],
    );
    check(
        "Common.json",
        &[
            (
                "\"defaultDisplay\":\"visible\"",
                "\"defaultDisplay\":\"auto\"",
            ),
            // Sorted keys: the new one takes its place among them.
            ("\t\"pivot\":", "\t\"newKey\":3,\n\t\"pivot\":"),
        ],
    );
    check(
        "Adaptation.json",
        &[
            ("\"designResolutionX\":1136", "\"designResolutionX\":1280"),
            ("\t\"devices\":[],\n", ""),
        ],
    );
    check(
        "CustomProperties.json",
        &[("{\n\n}", "{\n\t\"theme\":\"dark\"\n}")],
    );
    check(
        "i18n.json",
        &[(
            "\"langFiles\":[]",
            "\"langFiles\":[\n\t\t{\n\t\t\t\"name\":\"zh\",\n\t\t\t\"path\":\"zh.xml\"\n\t\t}\n\t]",
        )],
    );

    // A file in another layout keeps its own: two spaces, a space after the colon.
    let mut project = Project::experiments();
    let settings = settings_with(&project.source.project, |s| {
        let publish = s["publish"].as_object_mut().unwrap();
        publish["jpegQuality"] = json!(70);
        publish.remove("fileName");
        publish.insert("newKey".into(), json!({ "a": [1, 2] }));
        s.remove("i18n");
    });
    let written = project.edit(json!([{ "kind": "updateProjectSettings", "settings": settings }]));
    assert_eq!(written.len(), 1, "i18n.json is removed, not written");
    assert!(!project.disk.exists("settings/i18n.json"));
    let (before, after) = &written["settings/Publish.json"];
    assert_eq!(
        *after,
        replaced(
            before,
            &[
                ("\"jpegQuality\": 80", "\"jpegQuality\": 70"),
                (
                    "\"include4x\": false,\n  \"fileName\": \"Publish\"\n}",
                    "\"include4x\": false,\n  \"newKey\": {\n    \"a\": [\n      1,\n      2\n    ]\n  }\n}"
                ),
            ]
        )
    );
}

#[test]
fn the_project_file_is_written_back_as_written() {
    let project = Project::unity();
    let model = &project.source.project;
    let text = project.text(UNITY);
    assert_eq!(fairy_document(&text, model, model), Ok(None));
    let mut newer = model.clone();
    newer.version = "3.1".into();
    let after = fairy_document(&text, model, &newer).unwrap().unwrap();
    assert_eq!(
        after,
        replaced(&text, &[("version=\"3.0\"", "version=\"3.1\"")])
    );
    // A type this server does not number stays as written.
    let mut cocos = model.clone();
    cocos.project_type = -1;
    cocos.project_type_name = "Cocos2dx".into();
    assert!(fairy_xml(&cocos).contains("type=\"Cocos2dx\""));
    let mut unknown = cocos.clone();
    unknown.project_type_name = "Godot".into();
    assert_eq!(
        fairy_xml(&unknown),
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<projectDescription id=\"5b85d3c8fa4ef4d0cc856c635439191d\" type=\"Godot\" version=\"3.0\"/>"
    );
}

// ---------------------------------------------------------------------------------------
// Every description file of both corpora

/// The lines where two texts differ, once their common first and last lines are set
/// aside: the lines of `before`, then those of `after`. Every other byte is the same.
fn changed_lines<'t>(before: &'t str, after: &'t str) -> (Vec<&'t str>, Vec<&'t str>) {
    let before: Vec<&str> = before.split('\n').collect();
    let after: Vec<&str> = after.split('\n').collect();
    let head = before
        .iter()
        .zip(&after)
        .take_while(|(a, b)| a == b)
        .count();
    let tail = before[head..]
        .iter()
        .rev()
        .zip(after[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    (
        before[head..before.len() - tail].to_vec(),
        after[head..after.len() - tail].to_vec(),
    )
}

/// The package description files of `model`: each `package.xml`, each `package_branch.xml`.
fn package_files(model: &UamProject) -> Vec<String> {
    let mut files = Vec::new();
    for package in &model.packages {
        files.push(format!("assets/{}/package.xml", package.name));
        for branch in &package.branch_names {
            files.push(format!(
                "assets_{branch}/{}/package_branch.xml",
                package.name
            ));
        }
    }
    files.sort();
    files
}

/// Every description file of a project's directory, as listed through `fs`.
fn files_on_disk(fs: &dyn ProjectFs) -> Vec<String> {
    fn walk(fs: &dyn ProjectFs, dir: &str, found: &mut Vec<String>) {
        for entry in fs.read_dir(dir).expect("directory lists") {
            let path = match dir {
                "." => entry.name.clone(),
                dir => format!("{dir}/{}", entry.name),
            };
            if entry.is_dir {
                walk(fs, &path, found);
                continue;
            }
            let name = entry.name.as_str();
            let settings = path.starts_with("settings/") && name.ends_with(".json");
            if settings
                || name == "package.xml"
                || name == "package_branch.xml"
                || name.ends_with(".fairy")
            {
                found.push(path);
            }
        }
    }
    let mut found = Vec::new();
    walk(fs, ".", &mut found);
    found.sort();
    found
}

#[test]
fn the_canonical_forms_cover_every_description_file() {
    for project in [Project::unity(), Project::experiments()] {
        let on_disk = files_on_disk(&project.disk);
        let model = &project.source.project;
        let mut covered = package_files(model);
        covered.push(project.fairy.to_string());
        covered.extend(
            settings_files(&Map::new(), &model.settings, |_| None)
                .unwrap()
                .into_iter()
                .map(|change| change.path),
        );
        covered.sort();
        assert_eq!(covered, on_disk, "{}", project.fairy);
    }
}

/// The value of attribute `name` on one line of XML.
fn attribute<'l>(line: &'l str, name: &str) -> &'l str {
    let start = line
        .find(&format!(" {name}=\""))
        .unwrap_or_else(|| panic!("{name} in {line}"))
        + name.len()
        + 3;
    let end = line[start..].find('"').expect("closing quote") + start;
    &line[start..end]
}

/// Checks that each written package file changed exactly one line, of one of `ids`, and
/// that `expected` turns the line before into the line after.
fn one_line_each(
    written: &BTreeMap<String, (String, String)>,
    ids: &[String],
    expected: impl Fn(&str) -> String,
) {
    for (path, (before, after)) in written {
        let (removed, added) = changed_lines(before, after);
        assert_eq!(
            (removed.len(), added.len()),
            (1, 1),
            "{path}: {removed:?} {added:?}"
        );
        let id = attribute(removed[0], "id");
        assert!(ids.iter().any(|i| i == id), "{path}: {id} was not edited");
        assert_eq!(added[0], expected(removed[0]), "{path}");
    }
}

/// The first resource of each package's main branch that a test may rename or move on its
/// own: a plain file name, with or without branch variants.
fn first_resources(model: &UamProject) -> Vec<(String, String)> {
    model
        .packages
        .iter()
        .map(|package| {
            let resource = package
                .resources
                .iter()
                .find(|r| r.branch().is_empty() && !r.name().contains('.'))
                .unwrap_or_else(|| panic!("{}: a main resource", package.name));
            (package.id.clone(), resource.id().to_string())
        })
        .collect()
}

/// The ids a batch on `edited` touches in the files: theirs and their branch variants'.
fn touched_ids(model: &UamProject, edited: &[(String, String)]) -> Vec<String> {
    let mut ids = Vec::new();
    for (package_id, resource_id) in edited {
        let resource = package(model, package_id)
            .resources
            .iter()
            .find(|r| r.id() == resource_id)
            .expect("edited resource");
        ids.push(resource_id.clone());
        ids.extend(
            resource
                .branch_item_ids()
                .iter()
                .filter(|id| !id.is_empty())
                .cloned(),
        );
    }
    ids
}

#[test]
fn every_package_file_takes_a_new_resource_on_one_line_and_gives_it_back_byte_for_byte() {
    for mut project in [Project::unity(), Project::experiments()] {
        let model = project.source.project.clone();
        let png = project
            .source
            .bytes
            .iter()
            .find(|(path, _)| path.ends_with(".png"))
            .map(|(_, bytes)| bytes.clone())
            .expect("a PNG");
        let mut adds = Vec::new();
        let mut removes = Vec::new();
        for (index, package) in model.packages.iter().enumerate() {
            let branches =
                std::iter::once("").chain(package.branch_names.iter().map(String::as_str));
            for (slot, branch) in branches.enumerate() {
                let id = format!("svadd{index}x{slot}");
                // A file of the same name on a branch would pair with the main one.
                let file = format!("saved_added{slot}.png");
                adds.push(json!({
                    "kind": "addResource", "selector": { "packageId": package.id },
                    "resource": image_input(&id, &file, "/", branch, &png)
                }));
                removes.push(json!({
                    "kind": "removeResource",
                    "selector": { "packageId": package.id, "resourceId": id }
                }));
            }
        }
        let added = project.edit(Value::Array(adds));
        assert_eq!(
            added.keys().cloned().collect::<Vec<_>>(),
            package_files(&model),
            "every package file takes its new resource"
        );
        for (path, (before, after)) in &added {
            let (removed, inserted) = changed_lines(before, after);
            assert!(removed.is_empty(), "{path}: {removed:?}");
            assert_eq!(inserted.len(), 1, "{path}: {inserted:?}");
            assert!(
                inserted[0].starts_with("    <image id=\"svadd")
                    && inserted[0].contains(" name=\"saved_added")
                    && inserted[0].ends_with(".png\" path=\"/\"/>"),
                "{path}: {}",
                inserted[0]
            );
        }
        let gone = project.edit(Value::Array(removes));
        assert_eq!(gone.len(), added.len());
        for (path, (_, after)) in &gone {
            assert_eq!(
                *after, added[path].0,
                "{path} is back to its original bytes"
            );
        }
    }
}

#[test]
fn every_package_file_loses_a_resource_with_its_line() {
    for mut project in [Project::unity(), Project::experiments()] {
        let model = project.source.project.clone();
        // Resources that nothing refers to, so that the removal is taken: from the last
        // one of each package back, until the transaction takes the batch (a component
        // goes through removeComponent).
        let removal = |package: &UamPackage, resource: &UamResource| match resource {
            UamResource::Component(_) => json!({
                "kind": "removeComponent",
                "selector": { "packageId": package.id, "componentResourceId": resource.id() }
            }),
            _ => json!({
                "kind": "removeResource",
                "selector": { "packageId": package.id, "resourceId": resource.id() }
            }),
        };
        let mut from_end = vec![0; model.packages.len()];
        let (ops, ids) = loop {
            let (ops, ids): (Vec<Value>, Vec<String>) =
                model
                    .packages
                    .iter()
                    .zip(&from_end)
                    .map(|(package, &back)| {
                        let resource =
                            package.resources.iter().rev().nth(back).unwrap_or_else(|| {
                                panic!("{}: a removable resource", package.name)
                            });
                        (removal(package, resource), resource.id().to_string())
                    })
                    .unzip();
            let batch: Vec<Operation> = serde_json::from_value(Value::Array(ops.clone())).unwrap();
            match run(&model, &project.source.bytes, &batch) {
                Ok(_) => break (ops, ids),
                Err(failure) => {
                    assert!(!failure.issues.is_empty(), "{failure:#?}");
                    let refused: std::collections::BTreeSet<usize> =
                        failure.issues.iter().map(|issue| issue.op_index).collect();
                    for index in refused {
                        from_end[index] += 1;
                    }
                }
            }
        };
        let written = project.edit(Value::Array(ops));
        assert_eq!(written.len(), model.packages.len());
        for (path, (before, after)) in &written {
            let (removed, added) = changed_lines(before, after);
            assert!(added.is_empty(), "{path}: {added:?}");
            assert_eq!(removed.len(), 1, "{path}: {removed:?}");
            let id = attribute(removed[0], "id");
            assert!(ids.iter().any(|i| i == id), "{path}: {id}");
        }
    }
}

#[test]
fn every_package_file_renames_moves_and_flags_a_resource_on_its_line() {
    for mut project in [Project::unity(), Project::experiments()] {
        let model = project.source.project.clone();
        let edited = first_resources(&model);
        let ids = touched_ids(&model, &edited);
        let every_file = |written: &BTreeMap<String, (String, String)>| {
            assert_eq!(
                written.keys().cloned().collect::<Vec<_>>(),
                package_files(&model)
            );
        };

        let renames: Vec<Value> = edited
            .iter()
            .map(|(package_id, resource_id)| {
                let name = package(&model, package_id)
                    .resources
                    .iter()
                    .find(|r| r.id() == resource_id)
                    .unwrap()
                    .name();
                json!({ "kind": "renameResource",
                    "selector": { "packageId": package_id, "resourceId": resource_id },
                    "newName": format!("{name}_sv") })
            })
            .collect();
        let written = project.edit(Value::Array(renames));
        every_file(&written);
        one_line_each(&written, &ids, |line| {
            let file = attribute(line, "name");
            let renamed = match file.rsplit_once('.') {
                Some((stem, extension)) => format!("{stem}_sv.{extension}"),
                None => format!("{file}_sv"),
            };
            line.replacen(
                &format!(" name=\"{file}\""),
                &format!(" name=\"{renamed}\""),
                1,
            )
        });

        let mut moves = Vec::new();
        for (package_id, resource_id) in &edited {
            let pkg = package(&project.source.project, package_id);
            for branch in std::iter::once("").chain(pkg.branch_names.iter().map(String::as_str)) {
                moves.push(json!({ "kind": "addResourceFolder",
                    "selector": { "packageId": package_id }, "branch": branch, "path": "/sv/" }));
            }
            moves.push(json!({ "kind": "moveResource",
                "selector": { "packageId": package_id, "resourceId": resource_id },
                "toPath": "/sv/" }));
        }
        let written = project.edit(Value::Array(moves));
        every_file(&written);
        one_line_each(&written, &ids, |line| {
            let path = attribute(line, "path");
            line.replacen(&format!(" path=\"{path}\""), " path=\"/sv/\"", 1)
        });

        let toggles: Vec<Value> = edited
            .iter()
            .map(|(package_id, resource_id)| {
                let exported = package(&project.source.project, package_id)
                    .resources
                    .iter()
                    .find(|r| r.id() == resource_id)
                    .unwrap()
                    .exported();
                json!({ "kind": "setResourceExported",
                    "selector": { "packageId": package_id, "resourceId": resource_id },
                    "exported": !exported })
            })
            .collect();
        let written = project.edit(Value::Array(toggles));
        // Only the main resources' flags change; their variants keep theirs.
        assert_eq!(written.len(), model.packages.len());
        one_line_each(&written, &ids, |line| {
            if line.contains(" exported=\"true\"") {
                line.replacen(" exported=\"true\"", "", 1)
            } else {
                line.replacen(" path=\"/sv/\"", " path=\"/sv/\" exported=\"true\"", 1)
            }
        });

        // All three undone (and the new folders gone): every file is its original bytes.
        let originals: BTreeMap<String, String> = package_files(&model)
            .into_iter()
            .map(|path| {
                let text = std::fs::read_to_string(corpus_root(&project).join(&path)).unwrap();
                (path, text)
            })
            .collect();
        let mut undo = Vec::new();
        for (package_id, resource_id) in &edited {
            let first = package(&model, package_id)
                .resources
                .iter()
                .find(|r| r.id() == resource_id)
                .unwrap();
            let selector = json!({ "packageId": package_id, "resourceId": resource_id });
            undo.push(
                json!({ "kind": "renameResource", "selector": selector, "newName": first.name() }),
            );
            undo.push(
                json!({ "kind": "moveResource", "selector": selector, "toPath": first.path() }),
            );
            undo.push(json!({ "kind": "setResourceExported", "selector": selector, "exported": first.exported() }));
            let pkg = package(&model, package_id);
            for branch in std::iter::once("").chain(pkg.branch_names.iter().map(String::as_str)) {
                undo.push(json!({ "kind": "removeResourceFolder",
                    "selector": { "packageId": package_id, "path": "/sv/", "branch": branch } }));
            }
        }
        let written = project.edit(Value::Array(undo));
        every_file(&written);
        for (path, (_, after)) in &written {
            assert_eq!(
                *after, originals[path],
                "{path} is back to its original bytes"
            );
        }
    }
}

/// Where a project's files are read from before any write.
fn corpus_root(project: &Project) -> std::path::PathBuf {
    match project.fairy {
        UNITY => unity_root(),
        _ => experiments_root(),
    }
}

/// Every settings key the files of `model` hold, with its first member that holds a plain
/// value (none when the file holds only objects and arrays).
fn first_plain_members(model: &UamProject) -> Vec<(String, Option<String>)> {
    model
        .settings
        .iter()
        .map(|(key, value)| {
            let member = value
                .as_object()
                .and_then(|members| {
                    members
                        .iter()
                        .find(|(_, v)| !v.is_object() && !v.is_array())
                })
                .map(|(member, _)| member.clone());
            (key.clone(), member)
        })
        .collect()
}

/// A plain JSON value changed: a string lengthened, a number raised, a flag flipped.
fn changed(value: &Value) -> Value {
    match value {
        Value::String(text) => json!(format!("{text}_sv")),
        Value::Number(number) => match number.as_i64() {
            Some(int) => json!(int + 1),
            None => json!(number.as_f64().expect("a number") + 1.0),
        },
        Value::Bool(flag) => json!(!flag),
        _ => json!("sv"),
    }
}

/// The settings file of each `settings` key.
fn settings_path(key: &str) -> &'static str {
    match key {
        "publish" => "settings/Publish.json",
        "common" => "settings/Common.json",
        "adaptation" => "settings/Adaptation.json",
        "customProperties" => "settings/CustomProperties.json",
        "i18n" => "settings/i18n.json",
        other => panic!("no settings file for {other}"),
    }
}

/// How a file lays out its members: the indentation of the first, and what stands
/// between a key and its value (the editor's own tab and bare colon for an empty object).
fn member_layout(text: &str) -> (String, &'static str) {
    let first = text.lines().find(|line| line.trim_start().starts_with('"'));
    let indent = first.map_or("\t", |line| &line[..line.len() - line.trim_start().len()]);
    let colon = if text.contains("\": ") { ": " } else { ":" };
    (indent.to_owned(), colon)
}

#[test]
fn every_settings_file_changes_a_value_and_takes_a_key_on_their_lines() {
    for mut project in [Project::unity(), Project::experiments()] {
        let model = project.source.project.clone();
        let every: Vec<&str> = model
            .settings
            .keys()
            .map(|key| settings_path(key))
            .collect();
        assert_eq!(every.len(), 5, "{}: every settings file", project.fairy);
        let plain = first_plain_members(&model);
        let mut values = BTreeMap::new();
        let settings = settings_with(&model, |s| {
            for (key, member) in &plain {
                if let Some(member) = member {
                    let value = changed(&s[key][member]);
                    values.insert(settings_path(key), (member.clone(), value.clone()));
                    s[key][member] = value;
                }
            }
        });
        assert!(values.len() >= 3, "{}", project.fairy);
        let written =
            project.edit(json!([{ "kind": "updateProjectSettings", "settings": settings }]));
        assert_eq!(
            written.keys().map(String::as_str).collect::<Vec<_>>(),
            values.keys().copied().collect::<Vec<_>>()
        );
        for (path, (before, after)) in &written {
            let (removed, added) = changed_lines(before, after);
            assert_eq!(
                (removed.len(), added.len()),
                (1, 1),
                "{path}: {removed:?} {added:?}"
            );
            // The value alone changes, spelled as JSON, after the same key and spacing.
            let (member, value) = &values[path.as_str()];
            let (key, rest) = removed[0].split_once(':').unwrap();
            assert!(key.ends_with(&format!("\"{member}\"")), "{path}: {key}");
            let space = if rest.starts_with(' ') { " " } else { "" };
            let comma = if rest.ends_with(',') { "," } else { "" };
            assert_eq!(added[0], format!("{key}:{space}{value}{comma}"), "{path}");
        }

        let settings = settings_with(&project.source.project, |s| {
            for key in plain.iter().map(|(key, _)| key) {
                s[key]
                    .as_object_mut()
                    .unwrap()
                    .insert("svKey".into(), json!("sv"));
            }
        });
        let written =
            project.edit(json!([{ "kind": "updateProjectSettings", "settings": settings }]));
        let mut paths: Vec<&str> = written.keys().map(String::as_str).collect();
        paths.sort();
        let mut expected = every.clone();
        expected.sort();
        assert_eq!(paths, expected);
        for (path, (before, after)) in &written {
            let (removed, added) = changed_lines(before, after);
            let (indent, colon) = member_layout(before);
            let line = format!("{indent}\"svKey\"{colon}\"sv\"");
            let new: Vec<&&str> = added
                .iter()
                .filter(|added| added.trim_end_matches(',') == line)
                .collect();
            assert_eq!(new.len(), 1, "{path}: {line:?} in {added:?}");
            // Besides the new line, at most the sibling before it gains its comma, or an
            // empty object's blank line gives way.
            let others: Vec<&&str> = added.iter().filter(|added| **added != *new[0]).collect();
            match (removed.as_slice(), others.as_slice()) {
                ([], []) => {}
                ([old], [other]) => assert_eq!(**other, &format!("{old},"), "{path}"),
                ([blank], []) => assert!(blank.trim().is_empty(), "{path}: {blank:?}"),
                _ => panic!("{path}: {removed:?} {added:?}"),
            }
        }

        // Both undone: every file is its original bytes.
        let settings = Value::Object(model.settings.clone());
        let written =
            project.edit(json!([{ "kind": "updateProjectSettings", "settings": settings }]));
        assert_eq!(written.len(), 5);
        for (path, (_, after)) in &written {
            let original = std::fs::read_to_string(corpus_root(&project).join(path)).unwrap();
            assert_eq!(*after, original, "{path} is back to its original bytes");
        }
    }
}

#[test]
fn every_project_file_changes_its_version_on_its_line() {
    for project in [Project::unity(), Project::experiments()] {
        let model = &project.source.project;
        let text = project.text(project.fairy);
        assert_eq!(fairy_document(&text, model, model), Ok(None));
        let mut newer = model.clone();
        newer.version = "3.1".into();
        let after = fairy_document(&text, model, &newer).unwrap().unwrap();
        let (removed, added) = changed_lines(&text, &after);
        assert_eq!(
            (removed.len(), added.len()),
            (1, 1),
            "{removed:?} {added:?}"
        );
        assert_eq!(
            added[0],
            removed[0].replacen(" version=\"3.0\"", " version=\"3.1\"", 1)
        );
        project.disk.write(project.fairy, after.as_bytes());
        assert_same_project(&project.read_again().project, &newer);
        let back = fairy_document(&after, &newer, model).unwrap().unwrap();
        assert_eq!(back, text);
    }
}
