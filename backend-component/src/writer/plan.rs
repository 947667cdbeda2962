//! What a save writes: every file whose bytes differ between the project as it is on
//! disk and the session's model, patched from the bytes it was read from; removed and
//! moved files; new and removed directories. Preflight previews use the same plan.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use ofgui_contracts::uam::{ComponentModel, DisplayNode, UamPackage, UamProject, UamResource};

use super::component;
use super::package::{self, BranchPart};
use super::patch::Unpatchable;
use super::project;
use super::settings;
use crate::commit::{Change, ContentHash, Expect, Plan};
use crate::reader;
use crate::source::xml::XmlPatch;
use crate::txn::layout::folder_dir;

/// The project as the disk holds it, as far as the session knows.
pub struct Disk<'a> {
    /// The `.fairy` file's name in the project root.
    pub fairy_file: &'a str,
    /// The model of the files on disk (as read at open or written by the last save).
    pub project: &'a UamProject,
    /// The bytes of every XML and JSON source file on disk, by project-relative path.
    pub documents: &'a BTreeMap<String, Vec<u8>>,
    /// For each asset file the session changed since, what the disk holds (`None`: no file).
    pub assets: &'a BTreeMap<&'a str, Option<&'a [u8]>>,
}

/// The session's model and its asset bytes.
pub struct Now<'a> {
    pub project: &'a UamProject,
    pub bytes: &'a BTreeMap<String, Vec<u8>>,
    /// Changes of a batch not applied yet (a preview), over `bytes`.
    pub pending: Option<&'a BTreeMap<String, Option<Vec<u8>>>>,
}

impl Now<'_> {
    fn bytes(&self, path: &str) -> Option<&[u8]> {
        match self.pending.and_then(|pending| pending.get(path)) {
            Some(changed) => changed.as_deref(),
            None => self.bytes.get(path).map(Vec::as_slice),
        }
    }
}

/// A file the save cannot write faithfully: where in it, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unwritable {
    /// Project-relative path of the file.
    pub file: String,
    pub problem: Unpatchable,
}

fn in_file(file: &str) -> impl Fn(Unpatchable) -> Unwritable + '_ {
    move |problem| Unwritable {
        file: file.to_string(),
        problem,
    }
}

/// Everything a save from `disk` to `now` changes.
pub fn plan(disk: &Disk<'_>, now: &Now<'_>) -> Result<Plan, Unwritable> {
    let mut plan = Builder::new(disk, now.project);
    let (old, new) = (disk.project, now.project);

    if let Some(text) = plan.document_text(disk.fairy_file)? {
        if let Some(patched) =
            project::fairy_document(text, old, new).map_err(in_file(disk.fairy_file))?
        {
            plan.write(disk.fairy_file, patched.into_bytes());
        }
    } else if project::project_element(old) != project::project_element(new) {
        plan.write(disk.fairy_file, project::fairy_xml(new).into_bytes());
    }

    let mut texts = BTreeMap::new();
    for (file, _) in crate::reader::SETTINGS_FILES {
        let path = format!("settings/{file}");
        if let Some(text) = plan.document_text(&path)? {
            texts.insert(path, text);
        }
    }
    for write in settings::settings_files(&old.settings, &new.settings, |path| {
        texts.get(path).copied()
    })
    .map_err(in_file("settings"))?
    {
        match write.text {
            Some(text) => plan.write(&write.path, text.into_bytes()),
            None => plan.remove(&write.path),
        }
    }

    for branch in new.branches.iter().filter(|b| !old.branches.contains(b)) {
        plan.create_dir(format!("assets_{branch}"));
    }
    for branch in old.branches.iter().filter(|b| !new.branches.contains(b)) {
        plan.remove_dir(format!("assets_{branch}"));
    }

    let before: BTreeMap<&str, &Arc<UamPackage>> =
        old.packages.iter().map(|p| (p.id.as_str(), p)).collect();
    let after: BTreeMap<&str, &Arc<UamPackage>> =
        new.packages.iter().map(|p| (p.id.as_str(), p)).collect();
    for (id, package) in &before {
        if !after.contains_key(id) {
            plan.remove_package(package, &old.branches);
        }
    }
    for (id, package) in &after {
        match before.get(id) {
            Some(then) if Arc::ptr_eq(then, package) && !plan.shows_resized_in(package) => {}
            Some(then) => plan.update_package(then, package, &old.branches, &new.branches)?,
            None => plan.add_package(package, &new.branches),
        }
    }

    for (path, on_disk) in disk.assets {
        match (on_disk, now.bytes(path)) {
            (Some(then), Some(now)) if *then == now => {}
            (_, Some(bytes)) => plan.write(path, bytes.to_vec()),
            (Some(_), None) => plan.remove(path),
            (None, None) => {}
        }
    }
    Ok(plan.finish())
}

/// Gathers changes keyed by path, so a file both removed and written (a swap, or a
/// resource moved onto a path another left) is one write.
struct Builder<'a> {
    disk: &'a Disk<'a>,
    /// The project being saved.
    now: &'a UamProject,
    /// `(package id, resource id)` of the resources whose size (what a node whose file
    /// gives it none reads with) differs from the disk's, or which are new: see
    /// [`Builder::pin_sizes`].
    resized: BTreeSet<(&'a str, &'a str)>,
    changes: BTreeMap<String, Change>,
    create_dirs: BTreeSet<String>,
    remove_dirs: BTreeSet<String>,
}

impl<'a> Builder<'a> {
    fn new(disk: &'a Disk<'a>, now: &'a UamProject) -> Self {
        let before = reader::resource_sizes(disk.project);
        let resized = reader::resource_sizes(now)
            .into_iter()
            .filter(|(key, size)| before.get(key) != Some(size))
            .map(|(key, _)| key)
            .collect();
        Builder {
            disk,
            now,
            resized,
            changes: BTreeMap::new(),
            create_dirs: BTreeSet::new(),
            remove_dirs: BTreeSet::new(),
        }
    }

    /// What the session knows the disk holds at `path`.
    fn expect(&self, path: &str) -> Expect {
        match self.on_disk(path) {
            Some(bytes) => Expect::Content(ContentHash::of(bytes)),
            None => Expect::Absent,
        }
    }

    fn on_disk(&self, path: &str) -> Option<&[u8]> {
        match self.disk.documents.get(path) {
            Some(bytes) => Some(bytes),
            None => self.disk.assets.get(path).copied().flatten(),
        }
    }

    fn document_text(&self, path: &str) -> Result<Option<&'a str>, Unwritable> {
        let Some(bytes) = self.disk.documents.get(path) else {
            return Ok(None);
        };
        std::str::from_utf8(bytes)
            .map(Some)
            .map_err(|_| Unwritable {
                file: path.to_string(),
                problem: Unpatchable {
                    at: path.to_string(),
                    reason: "the file is not UTF-8 text, so it cannot be patched".into(),
                },
            })
    }

    fn write(&mut self, path: &str, bytes: Vec<u8>) {
        if self.on_disk(path) == Some(bytes.as_slice()) {
            // Already what the disk holds: a move back, or a patch that changed nothing.
            self.changes.remove(path);
            return;
        }
        let expect = self.expect(path);
        self.changes.insert(
            path.to_string(),
            Change::Write {
                path: path.to_string(),
                bytes,
                expect,
            },
        );
    }

    fn remove(&mut self, path: &str) {
        // Only files the session read are removed; others are not its to delete.
        if let Expect::Content(expect) = self.expect(path) {
            self.changes.insert(
                path.to_string(),
                Change::Remove {
                    path: path.to_string(),
                    expect,
                },
            );
        }
    }

    fn create_dir(&mut self, dir: String) {
        self.remove_dirs.remove(&dir);
        self.create_dirs.insert(dir);
    }

    fn remove_dir(&mut self, dir: String) {
        if !self.create_dirs.remove(&dir) {
            self.remove_dirs.insert(dir);
        }
    }

    fn remove_package(&mut self, package: &UamPackage, branches: &[String]) {
        let root = format!("assets/{}", package.name);
        self.remove(&format!("{root}/package.xml"));
        for branch in branches {
            let path = branch_xml_path(branch, &package.name);
            if self.disk.documents.contains_key(&path) {
                self.remove(&path);
                self.remove_dir(format!("assets_{branch}/{}", package.name));
            }
        }
        for resource in &package.resources {
            if let (UamResource::Component(_), Some(path)) =
                (resource.as_ref(), resource.source_path())
            {
                self.remove(path);
            }
        }
        for folder in &package.folders {
            self.remove_dir(folder_dir(&package.name, &folder.branch, &folder.path));
        }
        self.remove_dir(root);
    }

    fn add_package(&mut self, package: &UamPackage, branches: &[String]) {
        let root = format!("assets/{}", package.name);
        self.create_dir(root.clone());
        self.write(
            &format!("{root}/package.xml"),
            package::package_xml(package).into_bytes(),
        );
        let empty = empty_like(package);
        for branch in branches {
            if package::branch_element(package, branch) != package::branch_element(&empty, branch) {
                self.write(
                    &branch_xml_path(branch, &package.name),
                    package::branch_xml(package, branch).into_bytes(),
                );
            }
        }
        for folder in &package.folders {
            self.create_dir(folder_dir(&package.name, &folder.branch, &folder.path));
        }
        for resource in &package.resources {
            if let (UamResource::Component(c), Some(path)) =
                (resource.as_ref(), resource.source_path())
            {
                self.write(path, component::document(&c.component).into_bytes());
            }
        }
    }

    fn update_package(
        &mut self,
        old: &UamPackage,
        new: &UamPackage,
        old_branches: &[String],
        new_branches: &[String],
    ) -> Result<(), Unwritable> {
        let renamed = old.name != new.name;
        let (old_xml, xml) = (
            format!("assets/{}/package.xml", old.name),
            format!("assets/{}/package.xml", new.name),
        );
        if renamed {
            self.remove(&old_xml);
            self.remove_dir(format!("assets/{}", old.name));
            self.create_dir(format!("assets/{}", new.name));
        }
        match self.document_text(&old_xml)? {
            Some(text) => {
                match package::package_document(text, old, new).map_err(in_file(&old_xml))? {
                    Some(patched) => self.write(&xml, patched.into_bytes()),
                    None if renamed => self.write(&xml, text.as_bytes().to_vec()),
                    None => {}
                }
            }
            None => self.write(&xml, package::package_xml(new).into_bytes()),
        }
        let branches: BTreeSet<&String> = old_branches.iter().chain(new_branches).collect();
        for branch in branches {
            let old_path = branch_xml_path(branch, &old.name);
            let path = branch_xml_path(branch, &new.name);
            let had_file = self.disk.documents.contains_key(&old_path);
            if had_file && (renamed || !new_branches.contains(branch)) {
                self.remove(&old_path);
                self.remove_dir(format!("assets_{branch}/{}", old.name));
            }
            if !new_branches.contains(branch) {
                continue;
            }
            let old_part = BranchPart {
                package: old,
                branch,
            };
            let new_part = BranchPart {
                package: new,
                branch,
            };
            match self.document_text(&old_path)? {
                Some(text) => match package::branch_document(text, old_part, new_part)
                    .map_err(in_file(&old_path))?
                {
                    Some(patched) => self.write(&path, patched.into_bytes()),
                    None if renamed => self.write(&path, text.as_bytes().to_vec()),
                    None => {}
                },
                None => {
                    if package::branch_element(old, branch) != package::branch_element(new, branch)
                    {
                        self.write(&path, package::branch_xml(new, branch).into_bytes());
                    }
                }
            }
        }

        let folder_dirs = |package: &UamPackage| -> BTreeSet<String> {
            package
                .folders
                .iter()
                .map(|f| folder_dir(&package.name, &f.branch, &f.path))
                .collect()
        };
        let (old_dirs, new_dirs) = (folder_dirs(old), folder_dirs(new));
        for dir in old_dirs.difference(&new_dirs) {
            self.remove_dir(dir.clone());
        }
        for dir in new_dirs.difference(&old_dirs) {
            self.create_dir(dir.clone());
        }

        let (then, now) = (components(old), components(new));
        for (id, (_, _, path)) in &then {
            let moved = now.get(id).is_none_or(|(_, _, new_path)| new_path != path);
            if moved {
                self.remove(path);
            }
        }
        for (id, (resource, model, path)) in &now {
            let bytes = match then.get(id) {
                Some((previous, old_model, old_path)) => {
                    let unchanged =
                        old_path == path && (Arc::ptr_eq(previous, resource) || old_model == model);
                    if unchanged && !self.shows_resized(model, &new.id) {
                        continue;
                    }
                    match self.disk.documents.get(*old_path) {
                        Some(original) => {
                            let patched = patch_component_file(original, old_model, model)
                                .map_err(in_file(old_path))?;
                            self.pin_sizes(patched, &new.id, model)
                                .map_err(in_file(old_path))?
                        }
                        None => component::document(model).into_bytes(),
                    }
                }
                // The canonical form writes every size the model says the file writes;
                // the others read back as the resource's own (see `txn::sizes`).
                None => component::document(model).into_bytes(),
            };
            self.write(path, bytes);
        }
        Ok(())
    }

    /// Whether a node of `model`, a component of package `own`, shows a resource whose
    /// size changed.
    fn shows_resized(&self, model: &ComponentModel, own: &str) -> bool {
        !self.resized.is_empty()
            && model
                .display_list
                .iter()
                .filter_map(|node| shown(node, own))
                .any(|key| self.resized.contains(&key))
    }

    /// Whether a node of a component of `package` shows a resource whose size changed.
    fn shows_resized_in(&self, package: &UamPackage) -> bool {
        !self.resized.is_empty()
            && package
                .resources
                .iter()
                .any(|resource| match resource.as_ref() {
                    UamResource::Component(c) => self.shows_resized(&c.component, &package.id),
                    _ => false,
                })
    }

    /// The patched component file `bytes` of package `package_id`, patched again from
    /// what it would read back as to `model` where the two differ. A node whose file
    /// gives it no size reads with the size of the resource it shows: once that
    /// resource's size changes (new bytes, a resized component) or the node shows another
    /// resource, the file must say the size the model keeps. Transactions mark such
    /// nodes as writing their size (`txn::sizes`), so the patch already does; this still
    /// covers a model that did not come through a transaction.
    fn pin_sizes(
        &self,
        bytes: Vec<u8>,
        package_id: &str,
        model: &ComponentModel,
    ) -> Result<Vec<u8>, Unpatchable> {
        let read =
            reader::reread_component(&bytes, package_id, self.now).map_err(|e| Unpatchable {
                at: "component".to_string(),
                reason: format!("the patched file would not read back ({e})"),
            })?;
        if read == *model {
            return Ok(bytes);
        }
        patch_component_file(&bytes, &read, model)
    }

    fn finish(self) -> Plan {
        // A removed directory takes its subdirectories with it.
        let remove_dirs: Vec<String> = self
            .remove_dirs
            .iter()
            .filter(|dir| !self.remove_dirs.iter().any(|outer| is_inside(dir, outer)))
            .cloned()
            .collect();
        Plan {
            changes: self.changes.into_values().collect(),
            create_dirs: self.create_dirs.into_iter().collect(),
            remove_dirs,
        }
    }
}

/// The resource a node without a size in its file takes its size from, as the reader
/// resolves it: `(package id, resource id)`, no package meaning the component's own.
fn shown<'n>(node: &'n DisplayNode, own: &'n str) -> Option<(&'n str, &'n str)> {
    let (package, id) = match node {
        DisplayNode::Image(n) => (n.resource.package_id.as_deref(), &n.resource.resource_id),
        DisplayNode::MovieClip(n) => (n.resource.package_id.as_deref(), &n.resource.resource_id),
        DisplayNode::Component(n) => (n.resource.package_id.as_deref(), &n.resource.resource_id),
        DisplayNode::Button(n) | DisplayNode::Label(n) | DisplayNode::ComboBox(n) => {
            (Some(n.package_id.as_str()), &n.src)
        }
        DisplayNode::ProgressBar(n) | DisplayNode::Slider(n) | DisplayNode::ScrollBar(n) => {
            (Some(n.package_id.as_str()), &n.src)
        }
        _ => return None,
    };
    Some((
        package.filter(|p| !p.is_empty()).unwrap_or(own),
        id.as_str(),
    ))
}

/// The component file `original` (read as `old`) patched to `new`, keeping its
/// byte-order mark.
fn patch_component_file(
    original: &[u8],
    old: &ComponentModel,
    new: &ComponentModel,
) -> Result<Vec<u8>, Unpatchable> {
    let unpatchable = |reason: String| Unpatchable {
        at: "component".to_string(),
        reason,
    };
    let text = std::str::from_utf8(original)
        .map_err(|_| unpatchable("the file is not UTF-8 text".into()))?;
    let (bom, text) = package::split_bom(text);
    let doc = roxmltree::Document::parse(text)
        .map_err(|e| unpatchable(format!("the file is not well-formed XML ({e})")))?;
    let mut patch = XmlPatch::new(text);
    component::patch_component(&mut patch, doc.root_element(), old, new)?;
    let patched = patch
        .finish()
        .map_err(|conflict| unpatchable(format!("two edits overlap ({conflict:?})")))?;
    Ok(format!("{bom}{patched}").into_bytes())
}

/// A package's components by id: the resource, its model and its file.
#[allow(clippy::type_complexity)]
fn components(package: &UamPackage) -> BTreeMap<&str, (&Arc<UamResource>, &ComponentModel, &str)> {
    package
        .resources
        .iter()
        .filter_map(|r| match r.as_ref() {
            UamResource::Component(c) => Some((r.id(), (r, &c.component, r.source_path()?))),
            _ => None,
        })
        .collect()
}

fn branch_xml_path(branch: &str, package: &str) -> String {
    format!("assets_{branch}/{package}/package_branch.xml")
}

fn is_inside(dir: &str, outer: &str) -> bool {
    dir.strip_prefix(outer)
        .is_some_and(|rest| rest.starts_with('/'))
}

/// The package without resources or folders: what a branch file is compared against to
/// tell whether the package has anything in that branch.
fn empty_like(package: &UamPackage) -> UamPackage {
    UamPackage {
        resources: Vec::new(),
        folders: Vec::new(),
        ..package.clone()
    }
}

/// Every file of the model in the editor's canonical layout, with the asset bytes the
/// session holds: what materialize writes.
pub fn canonical(
    fairy_file: &str,
    project: &UamProject,
    bytes: &BTreeMap<String, Vec<u8>>,
) -> Vec<(String, Vec<u8>)> {
    let mut files = vec![(
        fairy_file.to_string(),
        project::fairy_xml(project).into_bytes(),
    )];
    for (file, key) in crate::reader::SETTINGS_FILES {
        if let Some(value) = project.settings.get(key) {
            files.push((
                format!("settings/{file}"),
                settings::settings_json(value).into_bytes(),
            ));
        }
    }
    for package in &project.packages {
        files.push((
            format!("assets/{}/package.xml", package.name),
            package::package_xml(package).into_bytes(),
        ));
        let empty = empty_like(package);
        for branch in &project.branches {
            if package::branch_element(package, branch) != package::branch_element(&empty, branch) {
                files.push((
                    branch_xml_path(branch, &package.name),
                    package::branch_xml(package, branch).into_bytes(),
                ));
            }
        }
        for resource in &package.resources {
            let Some(path) = resource.source_path() else {
                continue;
            };
            match resource.as_ref() {
                UamResource::Component(c) => files.push((
                    path.to_string(),
                    component::document(&c.component).into_bytes(),
                )),
                _ => {
                    if let Some(bytes) = bytes.get(path) {
                        files.push((path.to_string(), bytes.clone()));
                    }
                }
            }
        }
    }
    files
}
