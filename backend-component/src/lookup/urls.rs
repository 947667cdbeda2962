//! Resolving what a project refers to: `ui://` URLs (by ids or by names) and a node's
//! resource reference. Validation reports what does not resolve; transactions resolve the
//! references of the project before a batch to tell which removal left one dangling.

use std::collections::HashMap;

use ofgui_contracts::uam::{ResourceRef, UamPackage, UamProject, UamResource};

/// Lookup tables for resolving references in one project.
pub struct Urls<'a> {
    packages_by_id: HashMap<&'a str, &'a UamPackage>,
    packages_by_name: HashMap<&'a str, &'a UamPackage>,
    /// Package ids longest first, for `ui://<packageId><resourceId>` prefix matching.
    ids_longest_first: Vec<&'a str>,
    resources: HashMap<(&'a str, &'a str), &'a UamResource>,
}

impl<'a> Urls<'a> {
    pub fn new(project: &'a UamProject) -> Self {
        let mut ids_longest_first: Vec<&str> =
            project.packages.iter().map(|p| p.id.as_str()).collect();
        ids_longest_first.sort_by_key(|id| std::cmp::Reverse(id.len()));
        Urls {
            packages_by_id: project
                .packages
                .iter()
                .map(|p| (p.id.as_str(), p.as_ref()))
                .collect(),
            packages_by_name: project
                .packages
                .iter()
                .map(|p| (p.name.as_str(), p.as_ref()))
                .collect(),
            ids_longest_first,
            resources: project
                .packages
                .iter()
                .flat_map(|p| {
                    p.resources
                        .iter()
                        .map(move |r| ((p.id.as_str(), r.id()), r.as_ref()))
                })
                .collect(),
        }
    }

    /// The package with this exact id.
    pub fn package(&self, package_id: &str) -> Option<&'a UamPackage> {
        self.packages_by_id.get(package_id).copied()
    }

    /// The resource with these exact ids.
    pub fn resource(&self, package_id: &str, resource_id: &str) -> Option<&'a UamResource> {
        self.resources.get(&(package_id, resource_id)).copied()
    }

    /// A node's resource reference; no package means `owner`.
    pub fn reference(&self, owner: &str, reference: &ResourceRef) -> Option<&'a UamResource> {
        let package_id = reference
            .package_id
            .as_deref()
            .filter(|id| !id.is_empty())
            .unwrap_or(owner);
        self.resource(package_id, &reference.resource_id)
    }

    /// Resolves `ui://<packageId><resourceId>` or `ui://<package>/<resource>` (by id or name).
    pub fn resolve(&self, url: &str) -> Option<&'a UamResource> {
        self.locate(url).map(|(_, resource)| resource)
    }

    /// [`Self::resolve`] with the id of the package the resource is in.
    pub fn locate(&self, url: &str) -> Option<(&'a str, &'a UamResource)> {
        let rest = url.strip_prefix("ui://")?;
        if let Some((package, resource)) = rest.split_once('/') {
            let package = self
                .packages_by_id
                .get(package)
                .or_else(|| self.packages_by_name.get(package))?;
            let found = self
                .resources
                .get(&(package.id.as_str(), resource))
                .copied()
                .or_else(|| {
                    package.resources.iter().map(|r| r.as_ref()).find(|r| {
                        r.name() == resource || file_name(r).is_some_and(|f| f == resource)
                    })
                })?;
            return Some((package.id.as_str(), found));
        }
        self.ids_longest_first.iter().find_map(|id| {
            let resource = rest.strip_prefix(id)?;
            self.resources
                .get(&(*id, resource))
                .map(|found| (*id, *found))
        })
    }
}

fn file_name(resource: &UamResource) -> Option<&str> {
    resource
        .source_path()
        .and_then(|path| path.rsplit('/').next())
}

/// Every `ui://` token in a piece of text (UBB markup, gear values, transition values).
pub fn urls_in(text: &str) -> impl Iterator<Item = &str> {
    text.match_indices("ui://").map(move |(start, _)| {
        let tail = &text[start..];
        let end = tail
            .find(|c: char| {
                c.is_whitespace()
                    || matches!(
                        c,
                        '"' | '\'' | '[' | ']' | ',' | '|' | '<' | '>' | ')' | '('
                    )
            })
            .unwrap_or(tail.len());
        &tail[..end]
    })
}

#[cfg(test)]
mod tests {
    use super::urls_in;

    #[test]
    fn urls_are_found_in_markup() {
        let text = "a [img]ui://pkg1res2[/img] b ui://Pkg/icon.png,ui://x|ui://y";
        let found: Vec<&str> = urls_in(text).collect();
        assert_eq!(
            found,
            ["ui://pkg1res2", "ui://Pkg/icon.png", "ui://x", "ui://y"]
        );
    }
}
