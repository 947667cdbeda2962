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

/// Finds a package by exact id.
pub fn find_package<'a>(project: &'a UamProject, package_id: &str) -> Lookup<&'a UamPackage> {
    let found = exactly_one(
        project
            .packages
            .iter()
            .map(|p| p.as_ref())
            .filter(|p| p.id == package_id),
        || format!("package with id {package_id}"),
    );
    match found {
        Lookup::NotFound(message) => Lookup::NotFound(format!(
            "{message}{}",
            suggest::did_you_mean(
                package_id,
                "package",
                project
                    .packages
                    .iter()
                    .map(|p| (p.id.as_str(), p.name.as_str()))
            )
        )),
        other => other,
    }
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
    let found = exactly_one(
        package
            .resources
            .iter()
            .map(|r| r.as_ref())
            .filter(|r| r.id() == resource_id),
        || format!("resource with id {resource_id} in package {package_id}"),
    );
    match found {
        Lookup::NotFound(message) => Lookup::NotFound(format!(
            "{message}{}",
            suggest::did_you_mean(
                resource_id,
                "resource",
                package.resources.iter().map(|r| (r.id(), r.name()))
            )
        )),
        other => other,
    }
}
