//! Containment and group cycles: the one detector validation reports from and
//! transactions refuse by.
//!
//! **Containment.** Building a component builds what it instantiates, and the FairyGUI
//! editor and runtimes recurse into it, so a component that (through others) instantiates
//! itself recurses forever. The runtime (`GComponent.ConstructFromResource`, `GList`,
//! `GLoader`, `GComboBox`, `ScrollPane.Setup`) instantiates while constructing:
//! - a component instance node's component (`resource`, or `src` of the flat control
//!   kinds);
//! - a loader's `url` when it names a component;
//! - a list's or tree's items: each item's `url`, or the list's `defaultItem` for an item
//!   without one (a list without items instantiates nothing);
//! - a ComboBox component's `dropdown`;
//! - the scroll bars, header and footer of a scrolling pane (`overflow` 2) of a component
//!   or a list: the vertical bar when the scroll type is vertical or both, the horizontal
//!   one when horizontal or both, neither when scroll bars are hidden.
//!
//! Not followed: icons, tooltips and popups (a button's icon loader can show a component,
//! but only when that component has an icon loader), and the project's default scroll
//! bars (`settings.common.scrollBars`), which game code may or may not install.
//!
//! **Groups.** A node's `group` names the group it belongs to, and groups may nest; a group
//! that (through others) belongs to itself makes every group walk of the runtime loop.

use std::collections::HashMap;

use ofgui_contracts::uam::{ComponentModel, DisplayNode, ListProperties, UamProject, UamResource};

use super::urls::Urls;

/// A component of the project by position: `(package index, resource index)`.
pub type At = (usize, usize);

/// One containment edge: the component at `from` instantiates the component at `to`
/// through `field` (a path under the component: `displayList[2].resource`,
/// `properties.dropdown`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub from: At,
    pub to: At,
    pub field: String,
    /// The node holding the reference, if a node does.
    pub node_id: Option<String>,
}

/// Every containment edge of the project.
pub fn containment_edges(project: &UamProject) -> Vec<Edge> {
    let urls = Urls::new(project);
    let positions: HashMap<(&str, &str), At> = project
        .packages
        .iter()
        .enumerate()
        .flat_map(|(p, package)| {
            package
                .resources
                .iter()
                .enumerate()
                .filter(|(_, r)| r.component().is_some())
                .map(move |(r, resource)| ((package.id.as_str(), resource.id()), (p, r)))
        })
        .collect();
    let position = |resource: Option<(&str, &UamResource)>| {
        let (package_id, resource) = resource?;
        positions.get(&(package_id, resource.id())).copied()
    };
    let mut edges = Vec::new();
    for (p, package) in project.packages.iter().enumerate() {
        for (r, resource) in package.resources.iter().enumerate() {
            let Some(model) = resource.component() else {
                continue;
            };
            let mut found = Vec::new();
            collect(model, &mut found);
            for (field, node_id, target) in found {
                let to = match target {
                    Target::Ids(package_id, resource_id) => {
                        let package_id = package_id
                            .filter(|id| !id.is_empty())
                            .unwrap_or(&package.id);
                        position(
                            urls.resource(package_id, resource_id)
                                .map(|found| (package_id, found)),
                        )
                    }
                    Target::Url(url) => position(urls.locate(url)),
                };
                if let Some(to) = to {
                    edges.push(Edge {
                        from: (p, r),
                        to,
                        field,
                        node_id: node_id.map(str::to_string),
                    });
                }
            }
        }
    }
    edges
}

/// The containment edges that lie on a cycle (a component instantiating itself
/// directly, or through others).
pub fn containment_cycles(project: &UamProject) -> Vec<Edge> {
    let edges = containment_edges(project);
    let mut ids: HashMap<At, usize> = HashMap::new();
    for edge in &edges {
        for at in [edge.from, edge.to] {
            let next = ids.len();
            ids.entry(at).or_insert(next);
        }
    }
    let mut graph = vec![Vec::new(); ids.len()];
    for edge in &edges {
        graph[ids[&edge.from]].push(ids[&edge.to]);
    }
    let component = strongly_connected(&graph);
    edges
        .into_iter()
        .filter(|edge| {
            let (from, to) = (ids[&edge.from], ids[&edge.to]);
            from == to || component[from] == component[to]
        })
        .collect()
}

/// The nodes of a component whose `group` chain leads back to themselves: each such node
/// is a group that (through others) belongs to itself. Returns display-list indices.
pub fn group_cycles(model: &ComponentModel) -> Vec<usize> {
    let index: HashMap<&str, usize> = model
        .display_list
        .iter()
        .enumerate()
        .map(|(n, node)| (node.id(), n))
        .collect();
    // Only group nodes can be groups; a member naming anything else ends its chain, and
    // so does a node naming itself (validation reports that as not another group).
    let parent = |n: usize| -> Option<usize> {
        let group = model.display_list[n].base().group.as_deref()?;
        let g = *index.get(group)?;
        (g != n && matches!(model.display_list[g], DisplayNode::Group(_))).then_some(g)
    };
    let mut on_cycle = Vec::new();
    for start in 0..model.display_list.len() {
        // A chain has no more links than the list has nodes; more means a loop, and the
        // start is on it only if the walk comes back to it.
        let mut at = start;
        for _ in 0..model.display_list.len() {
            match parent(at) {
                Some(next) if next == start => {
                    on_cycle.push(start);
                    break;
                }
                Some(next) => at = next,
                None => break,
            }
        }
    }
    on_cycle
}

/// What a field refers to: a resource by `(packageId or the owner, resourceId)`, or a URL.
enum Target<'m> {
    Ids(Option<&'m str>, &'m str),
    Url(&'m str),
}

type Found<'m> = Vec<(String, Option<&'m str>, Target<'m>)>;

/// The references of one component that the runtime instantiates, as
/// `(field, node id, target)`; which of them are components is decided by resolving.
fn collect<'m>(model: &'m ComponentModel, found: &mut Found<'m>) {
    let properties = &model.properties;
    if properties.extension_type == "ComboBox" && !properties.dropdown.is_empty() {
        found.push((
            "properties.dropdown".into(),
            None,
            Target::Url(&properties.dropdown),
        ));
    }
    let pane = Pane {
        overflow: properties.overflow,
        scroll_type: properties.scroll_type,
        scroll_bar_display: properties.scroll_bar_display,
        vt: &properties.vt_scroll_bar_res,
        hz: &properties.hz_scroll_bar_res,
        header: &properties.header_res,
        footer: &properties.footer_res,
    };
    for (field, url) in pane.parts() {
        found.push((format!("properties.{field}"), None, Target::Url(url)));
    }
    for (n, node) in model.display_list.iter().enumerate() {
        let id = Some(node.id());
        let at = |field: &str| format!("displayList[{n}].{field}");
        match node {
            DisplayNode::Component(c) => found.push((
                at("resource"),
                id,
                Target::Ids(c.resource.package_id.as_deref(), &c.resource.resource_id),
            )),
            DisplayNode::Button(c) | DisplayNode::Label(c) | DisplayNode::ComboBox(c)
                if !c.src.is_empty() =>
            {
                found.push((
                    at("src"),
                    id,
                    Target::Ids(flat_package(&c.package_id), &c.src),
                ));
            }
            DisplayNode::ProgressBar(c) | DisplayNode::Slider(c) | DisplayNode::ScrollBar(c)
                if !c.src.is_empty() =>
            {
                found.push((
                    at("src"),
                    id,
                    Target::Ids(flat_package(&c.package_id), &c.src),
                ));
            }
            DisplayNode::Loader(l) if !l.props.url.is_empty() => {
                found.push((at("url"), id, Target::Url(&l.props.url)));
            }
            DisplayNode::List(l) => list(n, id, &l.list, found),
            DisplayNode::Tree(t) => list(n, id, &t.list, found),
            _ => {}
        }
    }
}

/// A flat control's `packageId`: empty means the owning package.
fn flat_package(package_id: &str) -> Option<&str> {
    (!package_id.is_empty()).then_some(package_id)
}

fn list<'m>(n: usize, id: Option<&'m str>, list: &'m ListProperties, found: &mut Found<'m>) {
    let mut default_used = false;
    for (k, item) in list.list_items.iter().enumerate() {
        match item.url.as_deref().filter(|url| !url.is_empty()) {
            Some(url) => found.push((
                format!("displayList[{n}].listItems[{k}].url"),
                id,
                Target::Url(url),
            )),
            None => default_used = true,
        }
    }
    if default_used && !list.default_item.is_empty() {
        found.push((
            format!("displayList[{n}].defaultItem"),
            id,
            Target::Url(&list.default_item),
        ));
    }
    let pane = Pane {
        overflow: list.overflow,
        scroll_type: list.scroll_type,
        scroll_bar_display: list.scroll_bar_display,
        vt: &list.vt_scroll_bar_res,
        hz: &list.hz_scroll_bar_res,
        header: &list.header_res,
        footer: &list.footer_res,
    };
    for (field, url) in pane.parts() {
        found.push((format!("displayList[{n}].{field}"), id, Target::Url(url)));
    }
}

/// The scrolling settings of a component or a list.
struct Pane<'m> {
    overflow: i32,
    scroll_type: i32,
    scroll_bar_display: i32,
    vt: &'m str,
    hz: &'m str,
    header: &'m str,
    footer: &'m str,
}

impl<'m> Pane<'m> {
    /// The parts a scrolling pane builds, by field (`ScrollPane.Setup`).
    fn parts(&self) -> Vec<(&'static str, &'m str)> {
        const SCROLL: i32 = 2;
        const HORIZONTAL: i32 = 0;
        const VERTICAL: i32 = 1;
        const BOTH: i32 = 2;
        const HIDDEN: i32 = 3;
        if self.overflow != SCROLL {
            return Vec::new();
        }
        let mut parts = Vec::new();
        if self.scroll_bar_display != HIDDEN {
            if matches!(self.scroll_type, VERTICAL | BOTH) {
                parts.push(("vtScrollBarRes", self.vt));
            }
            if matches!(self.scroll_type, HORIZONTAL | BOTH) {
                parts.push(("hzScrollBarRes", self.hz));
            }
        }
        parts.push(("headerRes", self.header));
        parts.push(("footerRes", self.footer));
        parts.retain(|(_, url)| !url.is_empty());
        parts
    }
}

/// Tarjan's strongly connected components, without recursion: the component number of
/// each vertex (vertices on one cycle share a number).
fn strongly_connected(graph: &[Vec<usize>]) -> Vec<usize> {
    const UNSEEN: usize = usize::MAX;
    let count = graph.len();
    let mut index = vec![UNSEEN; count];
    let mut low = vec![0; count];
    let mut on_stack = vec![false; count];
    let mut stack = Vec::new();
    let mut component = vec![UNSEEN; count];
    let (mut next_index, mut next_component) = (0, 0);
    for root in 0..count {
        if index[root] != UNSEEN {
            continue;
        }
        // (vertex, next edge to look at)
        let mut walk = vec![(root, 0usize)];
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut edge)) = walk.last_mut() {
            if let Some(&w) = graph[v].get(*edge) {
                *edge += 1;
                if index[w] == UNSEEN {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    walk.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            walk.pop();
            if let Some(&(parent, _)) = walk.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component[w] = next_component;
                    if w == v {
                        break;
                    }
                }
                next_component += 1;
            }
        }
    }
    component
}

#[cfg(test)]
mod tests {
    use super::strongly_connected;

    #[test]
    fn components_group_the_vertices_of_each_cycle() {
        // 0 → 1 → 2 → 0, 2 → 3, 3 → 3, 4 alone.
        let graph = vec![vec![1], vec![2], vec![0, 3], vec![3], vec![]];
        let c = strongly_connected(&graph);
        assert!(c[0] == c[1] && c[1] == c[2]);
        assert!(c[3] != c[0] && c[4] != c[0] && c[4] != c[3]);
    }
}
