//! Sizes a batch leaves for the file to say. A node whose file gives no size
//! (`explicitSize` false) reads with the size of the resource it shows, or 0,0. When a
//! batch resizes that resource (new bytes, a resized component), points the node at
//! another, or otherwise leaves the node with a size the file would not read back as, the
//! node keeps its size: from then on its file writes it, and a publish writes it too.

use std::sync::Arc;

use ofgui_contracts::uam::{Size, UamProject, UamResource};

use crate::lookup::urls::Urls;

/// Marks every node whose size its file would no longer give as writing its size.
pub(crate) fn pin(project: &mut UamProject) {
    for (p, r, n) in unpinned(project) {
        let Some(package) = project.packages.get_mut(p) else {
            continue;
        };
        let resource = Arc::make_mut(package)
            .resources
            .get_mut(r)
            .map(Arc::make_mut);
        if let Some(UamResource::Component(c)) = resource
            && let Some(node) = c.component.display_list.get_mut(n)
        {
            node.base_mut().explicit_size = true;
        }
    }
}

/// `(package, resource, node)` of the nodes without a size in their file whose size is not
/// the one a read would give them.
fn unpinned(project: &UamProject) -> Vec<(usize, usize, usize)> {
    let urls = Urls::new(project);
    let none = Size::default();
    let mut found = Vec::new();
    for (p, package) in project.packages.iter().enumerate() {
        for (r, resource) in package.resources.iter().enumerate() {
            let Some(component) = resource.component() else {
                continue;
            };
            for (n, node) in component.display_list.iter().enumerate() {
                let base = node.base();
                if base.explicit_size {
                    continue;
                }
                let read = node
                    .sized_by()
                    .and_then(|shown| urls.reference(&package.id, shown))
                    .and_then(UamResource::shown_size)
                    .unwrap_or(&none);
                if base.size != *read {
                    found.push((p, r, n));
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::StdFs;
    use crate::reader::read_project;
    use crate::testing::unity_root;

    /// The nodes without a size in their file that show `(package, resource)`.
    fn showing(project: &UamProject, shown: (&str, &str)) -> Vec<(usize, usize, usize)> {
        let mut found = Vec::new();
        for (p, package) in project.packages.iter().enumerate() {
            for (r, resource) in package.resources.iter().enumerate() {
                let Some(component) = resource.component() else {
                    continue;
                };
                for (n, node) in component.display_list.iter().enumerate() {
                    let shows = node.sized_by().is_some_and(|s| {
                        s.resource_id == shown.1
                            && s.package_id
                                .as_deref()
                                .filter(|id| !id.is_empty())
                                .unwrap_or(&package.id)
                                == shown.0
                    });
                    if shows && !node.base().explicit_size {
                        found.push((p, r, n));
                    }
                }
            }
        }
        found
    }

    #[test]
    fn a_read_project_pins_nothing_and_a_resized_component_pins_its_instances() {
        let source = read_project(&StdFs::new(unity_root()), "FairyGUI-Unity-Examples.fairy")
            .expect("unity reads");
        let mut project = source.project;
        assert_eq!(unpinned(&project), Vec::new());

        // A component some node shows without a size of its own.
        let (shown, nodes) = project
            .packages
            .iter()
            .flat_map(|p| p.resources.iter().map(move |r| (p.id.as_str(), r)))
            .filter(|(_, r)| r.component().is_some())
            .map(|(p, r)| {
                (
                    (p.to_owned(), r.id().to_owned()),
                    showing(&project, (p, r.id())),
                )
            })
            .find(|(_, nodes)| !nodes.is_empty())
            .expect("an instance without a size");
        let (p, r) = project
            .packages
            .iter()
            .enumerate()
            .find_map(|(p, package)| {
                let r = package.resources.iter().position(|r| r.id() == shown.1)?;
                (package.id == shown.0).then_some((p, r))
            })
            .expect("the component");
        if let Some(UamResource::Component(c)) = project
            .packages
            .get_mut(p)
            .and_then(|package| Arc::make_mut(package).resources.get_mut(r))
            .map(Arc::make_mut)
        {
            c.component.size.width = ofgui_contracts::Num(c.component.size.width.get() + 1.0);
        }
        assert_eq!(unpinned(&project), nodes);
        pin(&mut project);
        assert_eq!(unpinned(&project), Vec::new());
        assert!(showing(&project, (&shown.0, &shown.1)).is_empty());
    }
}
