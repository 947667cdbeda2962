//! Exact-id lookups in the model: exactly one match, none, or more than one (a selector
//! is then ambiguous). Sessions, queries and transactions all resolve ids this way.
//!
//! Below the rooms that read the model, [`urls`] resolves `ui://` URLs and resource
//! references, [`cycles`] finds containment and group cycles, for validation and
//! transactions alike, and [`suggest`] offers the closest ids when one matches nothing.

pub mod cycles;
pub mod suggest;
pub mod urls;

use ofgui_contracts::uam::{UamPackage, UamProject, UamResource};

/// True for an id or name a selector may carry.
pub fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.chars().count() <= ofgui_contracts::api::MAX_ID_LEN
}

/// How many items matched: one (and which), none, or several.
#[derive(Debug, PartialEq, Eq)]
pub enum Matches<T> {
    One(T),
    Zero,
    Many,
}

/// Looks at no more than the first two matches.
pub fn single<T>(matches: impl IntoIterator<Item = T>) -> Matches<T> {
    let mut matches = matches.into_iter();
    match (matches.next(), matches.next()) {
        (Some(found), None) => Matches::One(found),
        (None, _) => Matches::Zero,
        (Some(_), Some(_)) => Matches::Many,
    }
}

/// Which of `items` a key names: the one whose id it is, else the one whose name (or one
/// of its `names`, such as a resource's folder path and name) it is, as people and agents
/// name things. Several with the same id: `SameId`; several with that name and none with
/// that id: `SameName`, with their indexes, so a refusal can list them.
pub enum Named {
    One(usize),
    Zero,
    SameId,
    SameName(Vec<usize>),
}

pub fn by_id_or_name<T>(
    items: &[T],
    key: &str,
    id: impl Fn(&T) -> &str,
    names: impl Fn(&T) -> Vec<String>,
) -> Named {
    match single(items.iter().enumerate().filter(|(_, item)| id(item) == key)) {
        Matches::One((index, _)) => return Named::One(index),
        Matches::Many => return Named::SameId,
        Matches::Zero => {}
    }
    let named: Vec<usize> = items
        .iter()
        .enumerate()
        .filter(|(_, item)| names(item).iter().any(|name| name == key))
        .map(|(index, _)| index)
        .collect();
    match named.as_slice() {
        [] => Named::Zero,
        [one] => Named::One(*one),
        _ => Named::SameName(named),
    }
}

/// A resource's names besides its id: its name, and its folder path with it (`/images/5`).
pub fn resource_names(resource: &UamResource) -> Vec<String> {
    vec![
        resource.name().to_string(),
        format!("{}{}", resource.path(), resource.name()),
    ]
}

/// The outcome of an exact-id lookup, with a message when it did not find one item.
pub enum Lookup<T> {
    Found(T),
    NotFound(String),
    Ambiguous(String),
}

impl<T> Lookup<T> {
    pub fn found(self) -> Option<T> {
        match self {
            Lookup::Found(found) => Some(found),
            Lookup::NotFound(_) | Lookup::Ambiguous(_) => None,
        }
    }
}

/// Exactly one item matching, or why not; `what` names the item for the message.
pub fn exactly_one<T>(
    matches: impl IntoIterator<Item = T>,
    what: impl Fn() -> String,
) -> Lookup<T> {
    match single(matches) {
        Matches::One(found) => Lookup::Found(found),
        Matches::Zero => Lookup::NotFound(format!("No {} exists.", what())),
        Matches::Many => Lookup::Ambiguous(format!("More than one {} exists.", what())),
    }
}

/// Finds a package by exact id (references in the model are ids; for what an agent names,
/// see [`find_selected_resource`]).
pub fn find_package<'a>(project: &'a UamProject, package_id: &str) -> Lookup<&'a UamPackage> {
    match exactly_one(
        project
            .packages
            .iter()
            .map(|p| p.as_ref())
            .filter(|p| p.id == package_id),
        || format!("package with id {package_id}"),
    ) {
        Lookup::NotFound(_) => Lookup::NotFound(no_package(project, package_id, "id")),
        other => other,
    }
}

/// Why no package has this id, with the ids meant.
fn no_package(project: &UamProject, package_id: &str, key: &str) -> String {
    format!(
        "No package with the {key} {package_id} exists.{}",
        suggest::did_you_mean(
            package_id,
            "package",
            project
                .packages
                .iter()
                .map(|p| (p.id.as_str(), p.name.as_str()))
        )
    )
}

/// Why the package has no resource with this id, with the ids meant.
fn no_resource(package: &UamPackage, resource_id: &str, key: &str) -> String {
    format!(
        "No resource with the {key} {resource_id} in package {} exists.{}",
        package.id,
        suggest::did_you_mean(
            resource_id,
            "resource",
            package.resources.iter().map(|r| (r.id(), r.name()))
        )
    )
}

/// Finds a package by id, else the one package with that name (what people and command
/// lines name packages by).
pub fn find_package_by_key<'a>(project: &'a UamProject, key: &str) -> Lookup<&'a UamPackage> {
    if let Some(package) = project.packages.iter().find(|p| p.id == key) {
        return Lookup::Found(package);
    }
    exactly_one(
        project
            .packages
            .iter()
            .map(|p| p.as_ref())
            .filter(|p| p.name == key),
        || format!("package with the id or name {key}"),
    )
}

/// Finds a resource by exact package and resource id.
pub fn find_resource<'a>(
    project: &'a UamProject,
    package_id: &str,
    resource_id: &str,
) -> Lookup<&'a UamResource> {
    let package = match find_package(project, package_id) {
        Lookup::Found(package) => package,
        Lookup::NotFound(m) => return Lookup::NotFound(m),
        Lookup::Ambiguous(m) => return Lookup::Ambiguous(m),
    };
    match exactly_one(
        package
            .resources
            .iter()
            .map(|r| r.as_ref())
            .filter(|r| r.id() == resource_id),
        || format!("resource with id {resource_id} in package {package_id}"),
    ) {
        Lookup::NotFound(_) => Lookup::NotFound(no_resource(package, resource_id, "id")),
        other => other,
    }
}

/// The resource a read's selector names, and its package: each by id, else by name (a
/// package by its name, a resource by its name or its folder path and name, `/images/5`),
/// as people and agents name them. A name several share is refused with their ids.
pub fn find_selected_resource<'a>(
    project: &'a UamProject,
    package_key: &str,
    resource_key: &str,
) -> Lookup<(&'a UamPackage, &'a UamResource)> {
    let packages = &project.packages;
    let package = match by_id_or_name(packages, package_key, |p| &p.id, |p| vec![p.name.clone()]) {
        Named::One(index) => &packages[index],
        Named::Zero => return Lookup::NotFound(no_package(project, package_key, "id or name")),
        Named::SameId => {
            return Lookup::Ambiguous(format!(
                "More than one package with id {package_key} exists."
            ));
        }
        Named::SameName(indexes) => {
            let ids: Vec<&str> = indexes.iter().map(|&i| packages[i].id.as_str()).collect();
            return Lookup::Ambiguous(format!(
                "{} packages are named {package_key} (ids {}); name one by its id.",
                ids.len(),
                ids.join(", ")
            ));
        }
    };
    let resources = &package.resources;
    match by_id_or_name(resources, resource_key, |r| r.id(), |r| resource_names(r)) {
        Named::One(index) => Lookup::Found((package, &resources[index])),
        Named::Zero => Lookup::NotFound(no_resource(package, resource_key, "id or name")),
        Named::SameId => Lookup::Ambiguous(format!(
            "More than one resource with id {resource_key} in package {} exists.",
            package.id
        )),
        Named::SameName(indexes) => {
            let named: Vec<String> = indexes
                .iter()
                .map(|&i| {
                    let r = &resources[i];
                    format!("{} ({}{})", r.id(), r.path(), r.name())
                })
                .collect();
            Lookup::Ambiguous(format!(
                "{} resources of package {} are named {resource_key}: {}; name one by its id.",
                named.len(),
                package.id,
                named.join(", ")
            ))
        }
    }
}
