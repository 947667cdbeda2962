//! `searchProject`: display nodes and resources by name, text, kind or the resource they
//! refer to, answered with the selectors that queries and operations take.
//!
//! What a node "shows as text" and what it "refers to" are read from its typed model
//! (see [`texts`] and [`references`]): node properties only, not gear or transition
//! values.

use ofgui_contracts::api::{
    ComponentSelector, DisplayNodeSelector, EntityTarget, ResourceSelector, SearchEntities,
    SearchMatch, SearchProjectData, SearchProjectInput, SearchQuery,
};
use ofgui_contracts::error::{BackendError, ReadFailureReason};
use ofgui_contracts::uam::{
    DisplayNode, InstanceProperties, ListProperties, NODE_KINDS, RESOURCE_KINDS, ResourceRef,
    UamPackage, UamResource,
};

use crate::lookup::urls::{Urls, urls_in};
use crate::scope::{self, Page};
use crate::session::Session;

/// Matches per answer when the page names no limit.
const DEFAULT_LIMIT: usize = 50;
/// Longest matched text an answer repeats.
const TEXT_SHOWN: usize = 120;

/// Runs a search on the session's committed project.
pub fn search(
    session: &Session,
    input: &SearchProjectInput,
) -> Result<SearchProjectData, BackendError> {
    let project = session.project();
    let urls = Urls::new(project);
    let criteria = Criteria::read(session, &urls, &input.query)?;
    let selected = scope::select(session.id(), project, input.scope.as_ref())?;
    let page = Page::read(
        session.id(),
        session.status().revision,
        input.page.as_ref(),
        Some(DEFAULT_LIMIT),
    )?;
    let mut hits = Vec::new();
    for scoped in &selected {
        for resource in scoped.resources() {
            criteria.collect(&urls, scoped.package, resource, &mut hits);
        }
    }
    let (window, next_cursor) = page.window(hits.len());
    Ok(SearchProjectData {
        session_id: session.id().to_string(),
        revision: session.status().revision,
        total: hits.len() as u32,
        matches: hits[window].iter().map(Hit::to_match).collect(),
        next_cursor,
    })
}

/// The query, checked and lowered once.
struct Criteria<'a> {
    name: Option<String>,
    text: Option<String>,
    kind: Option<&'a str>,
    /// The resource the `url` names.
    url: Option<&'a UamResource>,
    entities: SearchEntities,
}

impl<'a> Criteria<'a> {
    fn read(
        session: &Session,
        urls: &Urls<'a>,
        query: &'a SearchQuery,
    ) -> Result<Self, BackendError> {
        if query.name.is_none()
            && query.text.is_none()
            && query.kind.is_none()
            && query.url.is_none()
        {
            return Err(BackendError::invalid_input(
                "query needs at least one of name, text, kind or url.",
                Some("/query".into()),
            ));
        }
        if let Some(kind) = query.kind.as_deref()
            && !NODE_KINDS.contains(&kind)
            && !RESOURCE_KINDS.contains(&kind)
        {
            return Err(BackendError::invalid_input(
                format!(
                    "query.kind {kind:?} is not a kind: display nodes are {}; resources are {}.",
                    NODE_KINDS.join(", "),
                    RESOURCE_KINDS.join(", ")
                ),
                Some("/query/kind".into()),
            ));
        }
        let url = match query.url.as_deref() {
            None => None,
            Some(url) => Some(urls.resolve(url).ok_or_else(|| {
                BackendError::read_failed(
                    session.id(),
                    ReadFailureReason::NotFound,
                    format!(
                        "query.url {url:?} names no resource of this project. Write it as ui://<packageId><resourceId> or ui://<packageName>/<resourceName>, with ids from getProjectOutline."
                    ),
                )
            })?),
        };
        Ok(Criteria {
            name: query.name.as_deref().map(str::to_lowercase),
            text: query.text.as_deref().map(str::to_lowercase),
            kind: query.kind.as_deref(),
            url,
            entities: query.entities.unwrap_or_default(),
        })
    }

    /// The hits of one resource: itself, then its nodes in display-list order.
    fn collect(
        &self,
        urls: &Urls<'a>,
        package: &'a UamPackage,
        resource: &'a UamResource,
        hits: &mut Vec<Hit<'a>>,
    ) {
        if self.entities != SearchEntities::Nodes && self.resource_matches(resource) {
            hits.push(Hit {
                package,
                resource,
                node: None,
                field: None,
                text: None,
            });
        }
        if self.entities == SearchEntities::Resources {
            return;
        }
        let Some(component) = resource.component() else {
            return;
        };
        for node in &component.display_list {
            if let Some(hit) = self.node_hit(urls, package, resource, node) {
                hits.push(hit);
            }
        }
    }

    fn resource_matches(&self, resource: &UamResource) -> bool {
        self.text.is_none()
            && self.kind.is_none_or(|kind| kind == resource.kind())
            && self
                .name
                .as_deref()
                .is_none_or(|name| contains(resource.name(), name))
            && self.url.is_none_or(|target| std::ptr::eq(target, resource))
    }

    fn node_hit(
        &self,
        urls: &Urls<'a>,
        package: &'a UamPackage,
        resource: &'a UamResource,
        node: &'a DisplayNode,
    ) -> Option<Hit<'a>> {
        if self.kind.is_some_and(|kind| kind != node.kind())
            || self
                .name
                .as_deref()
                .is_some_and(|name| !contains(node.name(), name))
        {
            return None;
        }
        let mut field = None;
        let mut text = None;
        if let Some(wanted) = self.text.as_deref() {
            let (at, found) = texts(node)
                .into_iter()
                .find(|(_, value)| contains(value, wanted))?;
            field = Some(at);
            text = Some(found);
        }
        if let Some(target) = self.url {
            let (at, _) = references(node).into_iter().find(|(_, reference)| {
                reference
                    .resolve(urls, &package.id)
                    .is_some_and(|found| std::ptr::eq(found, target))
            })?;
            field = Some(at);
        }
        Some(Hit {
            package,
            resource,
            node: Some(node),
            field,
            text,
        })
    }
}

/// Case-insensitive containment; `lowered` is already lower case.
fn contains(haystack: &str, lowered: &str) -> bool {
    haystack.to_lowercase().contains(lowered)
}

/// One match, kept as borrows until it is on the page answered.
struct Hit<'a> {
    package: &'a UamPackage,
    resource: &'a UamResource,
    node: Option<&'a DisplayNode>,
    field: Option<String>,
    text: Option<&'a str>,
}

impl Hit<'_> {
    fn to_match(&self) -> SearchMatch {
        let package_id = self.package.id.clone();
        let resource_id = self.resource.id().to_string();
        let (target, kind, name) = match self.node {
            Some(node) => (
                EntityTarget::DisplayNode {
                    selector: DisplayNodeSelector {
                        package_id,
                        component_resource_id: resource_id,
                        display_node_id: node.id().to_string(),
                    },
                },
                node.kind(),
                node.name(),
            ),
            None if self.resource.component().is_some() => (
                EntityTarget::Component {
                    selector: ComponentSelector {
                        package_id,
                        component_resource_id: resource_id,
                    },
                },
                self.resource.kind(),
                self.resource.name(),
            ),
            None => (
                EntityTarget::Resource {
                    selector: ResourceSelector {
                        package_id,
                        resource_id,
                    },
                },
                self.resource.kind(),
                self.resource.name(),
            ),
        };
        SearchMatch {
            target,
            kind: kind.to_string(),
            name: name.to_string(),
            package_name: self.package.name.clone(),
            resource_path: format!("{}{}", self.resource.path(), self.resource.primary_file()),
            field: self.field.clone(),
            text: self.text.map(shown),
        }
    }
}

/// At most [`TEXT_SHOWN`] characters, with `…` where cut.
fn shown(text: &str) -> String {
    if text.chars().count() <= TEXT_SHOWN {
        return text.to_string();
    }
    let kept: String = text.chars().take(TEXT_SHOWN - 1).collect();
    format!("{kept}…")
}

/// The text a node shows or holds, by field path.
fn texts(node: &DisplayNode) -> Vec<(String, &str)> {
    let mut found: Vec<(String, &str)> = Vec::new();
    match node {
        DisplayNode::Text(n) => found.push(("text.text".into(), &n.text.text)),
        DisplayNode::RichText(n) => found.push(("text.text".into(), &n.text.text)),
        DisplayNode::TextInput(n) => {
            found.push(("text.text".into(), &n.text.text));
            found.push(("promptText".into(), &n.prompt_text));
        }
        DisplayNode::Button(n) | DisplayNode::Label(n) | DisplayNode::ComboBox(n) => {
            found.push(("title".into(), &n.title));
        }
        DisplayNode::Component(n) => match &n.instance_properties {
            Some(InstanceProperties::Button {
                title,
                selected_title,
                ..
            }) => {
                found.push(("instanceProperties.title".into(), title));
                found.push(("instanceProperties.selectedTitle".into(), selected_title));
            }
            Some(InstanceProperties::Label {
                title, prompt_text, ..
            }) => {
                found.push(("instanceProperties.title".into(), title));
                found.push(("instanceProperties.promptText".into(), prompt_text));
            }
            Some(InstanceProperties::ComboBox { title, items, .. }) => {
                found.push(("instanceProperties.title".into(), title));
                for (i, item) in items.iter().enumerate() {
                    if let Some(title) = &item.title {
                        found.push((format!("instanceProperties.items[{i}].title"), title));
                    }
                }
            }
            _ => {}
        },
        DisplayNode::List(n) => list_texts(&n.list, &mut found),
        DisplayNode::Tree(n) => list_texts(&n.list, &mut found),
        _ => {}
    }
    found.retain(|(_, text)| !text.is_empty());
    found
}

fn list_texts<'a>(list: &'a ListProperties, found: &mut Vec<(String, &'a str)>) {
    for (i, item) in list.list_items.iter().enumerate() {
        if let Some(title) = &item.title {
            found.push((format!("list.listItems[{i}].title"), title));
        }
        if let Some(title) = &item.selected_title {
            found.push((format!("list.listItems[{i}].selectedTitle"), title));
        }
    }
}

/// A reference a node holds: exact ids, or a `ui://` URL.
enum Reference<'a> {
    Ids(&'a ResourceRef),
    /// Flat control kinds name their component by `src` and `packageId`.
    Src {
        package_id: &'a str,
        src: &'a str,
    },
    Url(&'a str),
}

impl<'a> Reference<'a> {
    /// The resource referred to; a reference without a package means `owner`'s.
    fn resolve(&self, urls: &Urls<'a>, owner: &str) -> Option<&'a UamResource> {
        match self {
            Reference::Ids(reference) => urls.reference(owner, reference),
            Reference::Src { package_id, src } => {
                let package_id = if package_id.is_empty() {
                    owner
                } else {
                    package_id
                };
                urls.resource(package_id, src)
            }
            Reference::Url(url) => urls.resolve(url),
        }
    }
}

/// The references a node's properties hold, by field path: its resource, URLs of
/// loaders, icons and list items, and `ui://` URLs inside its text.
fn references(node: &DisplayNode) -> Vec<(String, Reference<'_>)> {
    let mut found = Vec::new();
    match node {
        DisplayNode::Image(n) => found.push(("resource".to_string(), Reference::Ids(&n.resource))),
        DisplayNode::MovieClip(n) => {
            found.push(("resource".to_string(), Reference::Ids(&n.resource)));
        }
        DisplayNode::Component(n) => {
            found.push(("resource".to_string(), Reference::Ids(&n.resource)));
            match &n.instance_properties {
                Some(InstanceProperties::Button {
                    icon,
                    selected_icon,
                    ..
                }) => {
                    found.push(("instanceProperties.icon".into(), Reference::Url(icon)));
                    found.push((
                        "instanceProperties.selectedIcon".into(),
                        Reference::Url(selected_icon),
                    ));
                }
                Some(InstanceProperties::Label { icon, .. }) => {
                    found.push(("instanceProperties.icon".into(), Reference::Url(icon)));
                }
                Some(InstanceProperties::ComboBox { icon, items, .. }) => {
                    found.push(("instanceProperties.icon".into(), Reference::Url(icon)));
                    for (i, item) in items.iter().enumerate() {
                        if let Some(icon) = &item.icon {
                            found.push((
                                format!("instanceProperties.items[{i}].icon"),
                                Reference::Url(icon),
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
        DisplayNode::Button(n) | DisplayNode::Label(n) | DisplayNode::ComboBox(n) => {
            found.push((
                "src".into(),
                Reference::Src {
                    package_id: &n.package_id,
                    src: &n.src,
                },
            ));
            found.push(("icon".into(), Reference::Url(&n.icon)));
        }
        DisplayNode::ProgressBar(n) | DisplayNode::Slider(n) | DisplayNode::ScrollBar(n) => {
            found.push((
                "src".into(),
                Reference::Src {
                    package_id: &n.package_id,
                    src: &n.src,
                },
            ));
        }
        DisplayNode::Loader(n) => found.push(("props.url".into(), Reference::Url(&n.props.url))),
        DisplayNode::Loader3D(n) => {
            found.push(("props.url".into(), Reference::Url(&n.props.url)));
        }
        DisplayNode::List(n) => list_references(&n.list, &mut found),
        DisplayNode::Tree(n) => list_references(&n.list, &mut found),
        _ => {}
    }
    for (field, text) in texts(node) {
        for url in urls_in(text) {
            found.push((field.clone(), Reference::Url(url)));
        }
    }
    found
}

fn list_references<'a>(list: &'a ListProperties, found: &mut Vec<(String, Reference<'a>)>) {
    found.push((
        "list.defaultItem".into(),
        Reference::Url(&list.default_item),
    ));
    for (i, item) in list.list_items.iter().enumerate() {
        for (name, value) in [
            ("url", &item.url),
            ("icon", &item.icon),
            ("selectedIcon", &item.selected_icon),
        ] {
            if let Some(value) = value {
                found.push((format!("list.listItems[{i}].{name}"), Reference::Url(value)));
            }
        }
    }
}
