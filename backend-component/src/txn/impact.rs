//! What a batch changes: the entities (by exact identity and changed fields) and the
//! files a save would touch. Computed by comparing the committed project with the
//! projected one; packages and resources the batch did not copy are skipped at once.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use ofgui_contracts::api::{
    Change, ComponentSelector, ControllerSelector, DisplayNodeSelector, EntityImpact, EntityTarget,
    FileImpact, FileKind, Impact, PackageSelector, ResourceSelector, TransitionSelector,
};
use ofgui_contracts::uam::{ComponentModel, UamPackage, UamProject, UamResource};
use serde::Serialize;
use serde_json::{Map, Value};

use super::layout::folder_dir;

/// Compares the committed project with the projected one. `replaced_bytes` are the
/// sourcePaths whose bytes the batch set.
pub fn impact(
    before: &UamProject,
    after: &UamProject,
    replaced_bytes: &BTreeSet<String>,
) -> Impact {
    let mut impact = Impact::default();
    let mut files = Files::default();
    let mut project_fields = Vec::new();
    if before.branches != after.branches {
        project_fields.push("branches".to_string());
    }
    if before.settings != after.settings {
        project_fields.push("settings".to_string());
        settings_files(before, after, &mut files);
    }
    if !project_fields.is_empty() {
        impact.entities.push(EntityImpact {
            target: EntityTarget::Project {},
            change: Change::Updated,
            fields: project_fields,
        });
    }
    for branch in after
        .branches
        .iter()
        .filter(|b| !before.branches.contains(b))
    {
        files.directory(format!("assets_{branch}"), Change::Added);
    }
    for branch in before
        .branches
        .iter()
        .filter(|b| !after.branches.contains(b))
    {
        files.directory(format!("assets_{branch}"), Change::Removed);
    }

    let old: BTreeMap<&str, &Arc<UamPackage>> =
        before.packages.iter().map(|p| (p.id.as_str(), p)).collect();
    let new: BTreeMap<&str, &Arc<UamPackage>> =
        after.packages.iter().map(|p| (p.id.as_str(), p)).collect();
    for (id, package) in &new {
        match old.get(id) {
            None => {
                impact.entities.push(added(package_target(id)));
                package_files(package, Change::Added, &mut files);
                for resource in &package.resources {
                    resource_entities(id, None, Some(resource), &mut impact.entities);
                }
            }
            Some(previous) if Arc::ptr_eq(previous, package) => {}
            Some(previous) => compare_packages(
                previous,
                package,
                replaced_bytes,
                &mut impact.entities,
                &mut files,
            ),
        }
    }
    for (id, package) in &old {
        if !new.contains_key(id) {
            impact.entities.push(removed(package_target(id)));
            package_files(package, Change::Removed, &mut files);
            for resource in &package.resources {
                resource_entities(id, Some(resource), None, &mut impact.entities);
            }
        }
    }
    impact.files = files.into_sorted();
    impact
}

fn added(target: EntityTarget) -> EntityImpact {
    EntityImpact {
        target,
        change: Change::Added,
        fields: Vec::new(),
    }
}

fn removed(target: EntityTarget) -> EntityImpact {
    EntityImpact {
        target,
        change: Change::Removed,
        fields: Vec::new(),
    }
}

fn package_target(id: &str) -> EntityTarget {
    EntityTarget::Package {
        selector: PackageSelector {
            package_id: id.to_string(),
        },
    }
}

/// The sorted keys whose values differ between two JSON objects.
fn changed_fields(before: &Value, after: &Value) -> Vec<String> {
    let empty = Map::new();
    let before = before.as_object().unwrap_or(&empty);
    let after = after.as_object().unwrap_or(&empty);
    let keys: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    keys.into_iter()
        .filter(|key| before.get(*key) != after.get(*key))
        .map(|key| key.to_string())
        .collect()
}

fn json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

fn compare_packages(
    before: &UamPackage,
    after: &UamPackage,
    replaced_bytes: &BTreeSet<String>,
    entities: &mut Vec<EntityImpact>,
    files: &mut Files,
) {
    // Package fields, with child lists reduced to their ids and names in order.
    let summary = |package: &UamPackage| json(&PackageSummary::of(package));
    let fields = changed_fields(&summary(before), &summary(after));
    if !fields.is_empty() {
        entities.push(EntityImpact {
            target: package_target(&after.id),
            change: Change::Updated,
            fields,
        });
    }
    if before.name != after.name {
        // A renamed package is a moved directory: every file leaves and arrives.
        package_files(before, Change::Removed, files);
        package_files(after, Change::Added, files);
    }

    let old: BTreeMap<&str, &Arc<UamResource>> =
        before.resources.iter().map(|r| (r.id(), r)).collect();
    let new: BTreeMap<&str, &Arc<UamResource>> =
        after.resources.iter().map(|r| (r.id(), r)).collect();
    for (id, resource) in &new {
        let previous = old.get(id);
        if previous.is_some_and(|p| Arc::ptr_eq(p, resource)) {
            continue;
        }
        resource_entities(
            &after.id,
            previous.map(|p| p.as_ref()),
            Some(resource),
            entities,
        );
        if before.name == after.name {
            resource_files(
                previous.map(|p| p.as_ref()),
                Some(resource),
                replaced_bytes,
                files,
            );
        }
    }
    for (id, resource) in &old {
        if !new.contains_key(id) {
            resource_entities(&after.id, Some(resource), None, entities);
            if before.name == after.name {
                resource_files(Some(resource), None, replaced_bytes, files);
            }
        }
    }
    // package.xml and each package_branch.xml change only when what they describe does,
    // not when a component's own XML changes.
    let description_changed = description(before, "") != description(after, "");
    let branch_descriptions: Vec<&String> = after
        .branch_names
        .iter()
        .filter(|branch| description(before, branch) != description(after, branch))
        .collect();
    if before.name == after.name {
        if description_changed {
            files.file(
                format!("assets/{}/package.xml", after.name),
                Change::Updated,
            );
        }
        for branch in branch_descriptions {
            files.file(
                format!("assets_{branch}/{}/package_branch.xml", after.name),
                Change::Updated,
            );
        }
        let old_folders: BTreeSet<(String, String)> = before
            .folders
            .iter()
            .map(|f| (f.branch.clone(), f.path.clone()))
            .collect();
        let new_folders: BTreeSet<(String, String)> = after
            .folders
            .iter()
            .map(|f| (f.branch.clone(), f.path.clone()))
            .collect();
        for (branch, path) in new_folders.difference(&old_folders) {
            files.directory(folder_dir(&after.name, branch, path), Change::Added);
        }
        for (branch, path) in old_folders.difference(&new_folders) {
            files.directory(folder_dir(&after.name, branch, path), Change::Removed);
        }
    }
}

/// What `package.xml` (branch `''`) or a `package_branch.xml` describes: the package's
/// own data and that branch's resources, without component models.
fn description(package: &UamPackage, branch: &str) -> Value {
    let resources: Vec<Value> = package
        .resources
        .iter()
        .filter(|r| r.branch() == branch)
        .map(|resource| {
            let mut value = json(resource.as_ref());
            if let Value::Object(map) = &mut value {
                map.remove("component");
            }
            value
        })
        .collect();
    let mut value = json(&PackageSummary::of(package));
    if let Value::Object(map) = &mut value {
        map.insert("resources".into(), Value::Array(resources));
    }
    value
}

/// A package's own fields, with its children as ids and names.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PackageSummary<'a> {
    id: &'a str,
    name: &'a str,
    #[serde(rename = "compressPNG")]
    compress_png: Option<bool>,
    jpeg_quality: Option<ofgui_contracts::Num>,
    publish: &'a Option<ofgui_contracts::uam::PackagePublish>,
    branch_names: &'a [String],
    folders: &'a [ofgui_contracts::uam::ResourceFolder],
    resources: Vec<(String, String)>,
}

impl<'a> PackageSummary<'a> {
    fn of(package: &'a UamPackage) -> Self {
        PackageSummary {
            id: &package.id,
            name: &package.name,
            compress_png: package.compress_png,
            jpeg_quality: package.jpeg_quality,
            publish: &package.publish,
            branch_names: &package.branch_names,
            folders: &package.folders,
            resources: package
                .resources
                .iter()
                .map(|r| (r.id().to_string(), r.name().to_string()))
                .collect(),
        }
    }
}

fn package_files(package: &UamPackage, change: Change, files: &mut Files) {
    files.directory(format!("assets/{}", package.name), change);
    files.file(format!("assets/{}/package.xml", package.name), change);
    for folder in &package.folders {
        files.directory(
            folder_dir(&package.name, &folder.branch, &folder.path),
            change,
        );
    }
    for branch in &package.branch_names {
        files.file(
            format!("assets_{branch}/{}/package_branch.xml", package.name),
            change,
        );
    }
    for resource in &package.resources {
        if let Some(path) = resource.source_path() {
            files.file(path.to_string(), change);
        }
    }
}

fn resource_files(
    before: Option<&UamResource>,
    after: Option<&UamResource>,
    replaced: &BTreeSet<String>,
    files: &mut Files,
) {
    let old_path = before.and_then(UamResource::source_path);
    let new_path = after.and_then(UamResource::source_path);
    match (old_path, new_path) {
        (Some(old), Some(new)) if old != new => {
            files.file(old.to_string(), Change::Removed);
            files.file(new.to_string(), Change::Added);
        }
        (Some(path), Some(_)) => {
            let model_changed =
                before.and_then(UamResource::component) != after.and_then(UamResource::component);
            if model_changed || replaced.contains(path) {
                files.file(path.to_string(), Change::Updated);
            }
        }
        (None, Some(new)) => files.file(new.to_string(), Change::Added),
        (Some(old), None) => files.file(old.to_string(), Change::Removed),
        (None, None) => {}
    }
}

/// Entities of one resource: the resource itself and, for components, the component, its
/// nodes, controllers and transitions.
fn resource_entities(
    package_id: &str,
    before: Option<&UamResource>,
    after: Option<&UamResource>,
    out: &mut Vec<EntityImpact>,
) {
    let Some(id) = after.or(before).map(UamResource::id) else {
        return;
    };
    let target = EntityTarget::Resource {
        selector: ResourceSelector {
            package_id: package_id.to_string(),
            resource_id: id.to_string(),
        },
    };
    let shallow = |resource: &UamResource| {
        let mut value = json(resource);
        if let Value::Object(map) = &mut value {
            map.remove("component");
        }
        value
    };
    match (before, after) {
        (None, Some(_)) => out.push(added(target)),
        (Some(_), None) => out.push(removed(target)),
        (Some(old), Some(new)) => {
            let fields = changed_fields(&shallow(old), &shallow(new));
            if !fields.is_empty() {
                out.push(EntityImpact {
                    target,
                    change: Change::Updated,
                    fields,
                });
            }
        }
        (None, None) => {}
    }
    let component = ComponentSelector {
        package_id: package_id.to_string(),
        component_resource_id: id.to_string(),
    };
    component_entities(
        &component,
        before.and_then(UamResource::component),
        after.and_then(UamResource::component),
        out,
    );
}

fn component_entities(
    selector: &ComponentSelector,
    before: Option<&ComponentModel>,
    after: Option<&ComponentModel>,
    out: &mut Vec<EntityImpact>,
) {
    let target = EntityTarget::Component {
        selector: selector.clone(),
    };
    match (before, after) {
        (None, None) => return,
        (None, Some(_)) => out.push(added(target)),
        (Some(_), None) => out.push(removed(target)),
        (Some(old), Some(new)) if old == new => return,
        (Some(old), Some(new)) => {
            let summary = |model: &ComponentModel| {
                serde_json::json!({
                    "size": model.size,
                    "properties": model.properties,
                    "customData": model.custom_data,
                    "relations": model.relations,
                    "displayList": model.display_list.iter().map(|n| (n.id(), n.name())).collect::<Vec<_>>(),
                    "controllers": model.controllers.iter().map(|c| &c.name).collect::<Vec<_>>(),
                    "transitions": model.transitions.iter().map(|t| &t.name).collect::<Vec<_>>(),
                })
            };
            let fields = changed_fields(&summary(old), &summary(new));
            if !fields.is_empty() {
                out.push(EntityImpact {
                    target,
                    change: Change::Updated,
                    fields,
                });
            }
        }
    }
    fn nodes(model: Option<&ComponentModel>) -> &[ofgui_contracts::uam::DisplayNode] {
        model.map(|m| m.display_list.as_slice()).unwrap_or_default()
    }
    fn controllers(model: Option<&ComponentModel>) -> &[ofgui_contracts::uam::Controller] {
        model.map(|m| m.controllers.as_slice()).unwrap_or_default()
    }
    fn transitions(model: Option<&ComponentModel>) -> &[ofgui_contracts::uam::Transition] {
        model.map(|m| m.transitions.as_slice()).unwrap_or_default()
    }
    keyed_entities(
        nodes(before).iter().map(|n| (n.id().to_string(), json(n))),
        nodes(after).iter().map(|n| (n.id().to_string(), json(n))),
        |id| EntityTarget::DisplayNode {
            selector: DisplayNodeSelector {
                package_id: selector.package_id.clone(),
                component_resource_id: selector.component_resource_id.clone(),
                display_node_id: id.to_string(),
            },
        },
        out,
    );
    keyed_entities(
        controllers(before)
            .iter()
            .map(|c| (c.name.clone(), json(c))),
        controllers(after).iter().map(|c| (c.name.clone(), json(c))),
        |name| EntityTarget::Controller {
            selector: ControllerSelector {
                package_id: selector.package_id.clone(),
                component_resource_id: selector.component_resource_id.clone(),
                controller_name: name.to_string(),
            },
        },
        out,
    );
    keyed_entities(
        transitions(before)
            .iter()
            .map(|t| (t.name.clone(), json(t))),
        transitions(after).iter().map(|t| (t.name.clone(), json(t))),
        |name| EntityTarget::Transition {
            selector: TransitionSelector {
                package_id: selector.package_id.clone(),
                component_resource_id: selector.component_resource_id.clone(),
                transition_name: name.to_string(),
            },
        },
        out,
    );
}

/// Compares two keyed lists of JSON entities.
fn keyed_entities(
    before: impl Iterator<Item = (String, Value)>,
    after: impl Iterator<Item = (String, Value)>,
    target: impl Fn(&str) -> EntityTarget,
    out: &mut Vec<EntityImpact>,
) {
    let before: BTreeMap<String, Value> = before.collect();
    let after: BTreeMap<String, Value> = after.collect();
    for (key, value) in &after {
        match before.get(key) {
            None => out.push(added(target(key))),
            Some(old) if old != value => out.push(EntityImpact {
                target: target(key),
                change: Change::Updated,
                fields: changed_fields(old, value),
            }),
            Some(_) => {}
        }
    }
    for key in before.keys().filter(|key| !after.contains_key(*key)) {
        out.push(removed(target(key)));
    }
}

fn settings_files(before: &UamProject, after: &UamProject, files: &mut Files) {
    let file = |key: &str| {
        let name = match key {
            "publish" => "Publish",
            "common" => "Common",
            "adaptation" => "Adaptation",
            "customProperties" => "CustomProperties",
            other => other,
        };
        format!("settings/{name}.json")
    };
    let keys: BTreeSet<&String> = before
        .settings
        .keys()
        .chain(after.settings.keys())
        .collect();
    for key in keys {
        match (before.settings.get(key), after.settings.get(key)) {
            (None, Some(_)) => files.file(file(key), Change::Added),
            (Some(_), None) => files.file(file(key), Change::Removed),
            (Some(old), Some(new)) if old != new => files.file(file(key), Change::Updated),
            _ => {}
        }
    }
}

/// File changes, merged: a path removed and added again is an update.
#[derive(Default)]
struct Files {
    entries: BTreeMap<(String, FileKind), Change>,
}

impl Files {
    fn file(&mut self, path: String, change: Change) {
        self.add(path, FileKind::File, change);
    }

    fn directory(&mut self, path: String, change: Change) {
        self.add(path, FileKind::Directory, change);
    }

    fn add(&mut self, path: String, kind: FileKind, change: Change) {
        let merged = match (self.entries.get(&(path.clone(), kind)), change) {
            (Some(Change::Removed), Change::Added) | (Some(Change::Added), Change::Removed) => {
                Change::Updated
            }
            (Some(existing), _) => *existing,
            (None, change) => change,
        };
        self.entries.insert((path, kind), merged);
    }

    fn into_sorted(self) -> Vec<FileImpact> {
        self.entries
            .into_iter()
            .map(|((path, kind), change)| FileImpact { path, kind, change })
            .collect()
    }
}
