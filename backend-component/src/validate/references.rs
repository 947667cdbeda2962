//! Reference checks: every resource a node, property, gear, transition or asset names must
//! exist and be of a kind that can be used there.

use ofgui_contracts::diagnostics::ProjectDiagnosticCode as Code;
use ofgui_contracts::uam::{
    ComponentModel, DisplayNode, GearBinding, InstanceProperties, ListProperties, ResourceRef,
    UamPackage, UamProject, UamResource, ValueGear,
};
use serde_json::Value;

use super::component::gear_entity;
use super::{Components, Sink, Subject, in_scope, node_path, resource_path};
use crate::lookup::urls::{Urls, urls_in};
use crate::rules::gears::{GearFit, gear_fit};
use crate::rules::settings::settings_urls;
use crate::rules::with_article;

/// Kinds a loader, an icon or a list item icon can show.
const VISUAL: &[&str] = &["image", "movieClip", "component", "spine", "dragonBones"];
const COMPONENT: &[&str] = &["component"];
const IMAGE: &[&str] = &["image"];
const SOUND: &[&str] = &["sound"];
const FONT: &[&str] = &["font"];
const MOVIE_CLIP: &[&str] = &["movieClip"];
/// Any kind: a `ui://` in free text only has to resolve.
const ANY: &[&str] = &[];

pub(super) fn check(project: &UamProject, only: Option<&Components>, sink: &mut Sink) {
    let index = Urls::new(project);
    if only.is_none() {
        check_settings(project, &index, sink);
    }
    for (p, package) in project.packages.iter().enumerate() {
        for (r, resource) in package.resources.iter().enumerate() {
            if !in_scope(only, &package.id, resource.id()) {
                continue;
            }
            let site = Site {
                index: &index,
                package,
                package_index: p,
                resource,
                resource_index: r,
            };
            match resource.as_ref() {
                UamResource::Component(component) => site.component(&component.component, sink),
                _ => site.asset(sink),
            }
        }
    }
}

/// The `ui://` references of the project settings (default scroll bars, tooltip, click
/// sound, font). The editor builds them like any other reference, but one that does not
/// resolve only leaves the pane without a default scroll bar (or the button silent), so
/// it is a warning; a transaction still may not leave one dangling.
fn check_settings(project: &UamProject, index: &Urls<'_>, sink: &mut Sink) {
    for (path, url, kinds) in settings_urls(&project.settings) {
        let problem = match index.resolve(url) {
            None => "which does not exist".to_string(),
            Some(target) if !kinds.contains(&target.kind()) => {
                let wanted: Vec<String> = kinds.iter().map(|kind| with_article(kind)).collect();
                format!(
                    "which is {}, not {}",
                    with_article(target.kind()),
                    wanted.join(" or ")
                )
            }
            Some(_) => continue,
        };
        sink.warning(
            Code::DanglingResourceReference,
            format!("settings.{path}"),
            format!("Project setting {path} references {url}, {problem}; the editor ignores it."),
        )
        .about(Subject::Url(url.to_string()));
    }
}

/// What a reference is, for messages, and what it resolved to.
struct Reference<'a> {
    /// The referring thing (`image node n3`).
    what: &'a str,
    /// The reference as written (`ui://…`, `resource x of package y`).
    shown: &'a str,
    /// The reference as the model holds it.
    subject: Subject,
    target: Option<&'a UamResource>,
}

/// The resource being checked and where it is.
struct Site<'a> {
    index: &'a Urls<'a>,
    package: &'a UamPackage,
    package_index: usize,
    resource: &'a UamResource,
    resource_index: usize,
}

impl Site<'_> {
    fn dangling(
        &self,
        sink: &mut Sink,
        path: String,
        node_id: Option<&str>,
        subject: Subject,
        message: String,
    ) {
        let diagnostic = sink.error(Code::DanglingResourceReference, path, message);
        diagnostic.package_id = Some(self.package.id.clone());
        diagnostic.resource_id = Some(self.resource.id().to_string());
        diagnostic.node_id = node_id.map(str::to_string);
        diagnostic.source_path = self.resource.source_path().map(str::to_string);
        diagnostic.about(subject);
    }

    /// Checks a resolved target against the kinds allowed there.
    fn expect(
        &self,
        sink: &mut Sink,
        path: String,
        node_id: Option<&str>,
        reference: Reference<'_>,
        kinds: &[&str],
    ) {
        let Reference {
            what,
            shown,
            subject,
            target,
        } = reference;
        match target {
            None => self.dangling(
                sink,
                path,
                node_id,
                subject,
                format!("{what} references {shown}, which does not exist."),
            ),
            Some(target) if !kinds.is_empty() && !kinds.contains(&target.kind()) => self.dangling(
                sink,
                path,
                node_id,
                subject,
                format!(
                    "{what} references {shown}, which is {}, not {}.",
                    with_article(target.kind()),
                    kinds
                        .iter()
                        .map(|kind| with_article(kind))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            ),
            Some(_) => {}
        }
    }

    /// Checks a property that holds a `ui://` URL (or nothing).
    fn url(
        &self,
        sink: &mut Sink,
        path: String,
        node_id: Option<&str>,
        what: &str,
        value: &str,
        kinds: &[&str],
    ) {
        if value.starts_with("ui://") {
            let target = self.index.resolve(value);
            self.expect(
                sink,
                path,
                node_id,
                Reference {
                    what,
                    shown: value,
                    subject: Subject::Url(value.to_string()),
                    target,
                },
                kinds,
            );
        }
    }

    /// Checks every `ui://` inside free text.
    fn text(&self, sink: &mut Sink, path: String, node_id: Option<&str>, what: &str, value: &str) {
        for url in urls_in(value) {
            let target = self.index.resolve(url);
            self.expect(
                sink,
                path.clone(),
                node_id,
                Reference {
                    what,
                    shown: url,
                    subject: Subject::Url(url.to_string()),
                    target,
                },
                ANY,
            );
        }
    }

    /// Checks every string inside a JSON value (gear values, transition values).
    fn json(&self, sink: &mut Sink, path: &str, node_id: Option<&str>, what: &str, value: &Value) {
        match value {
            Value::String(text) => self.text(sink, path.to_string(), node_id, what, text),
            Value::Array(items) => {
                for (k, item) in items.iter().enumerate() {
                    self.json(sink, &format!("{path}[{k}]"), node_id, what, item);
                }
            }
            Value::Object(map) => {
                for (key, item) in map {
                    self.json(sink, &format!("{path}.{key}"), node_id, what, item);
                }
            }
            _ => {}
        }
    }

    /// Checks a node's own resource reference; no package means the owning package.
    fn resource_ref(
        &self,
        sink: &mut Sink,
        path: String,
        node_id: &str,
        what: &str,
        reference: &ResourceRef,
        kinds: &[&str],
    ) {
        let package_id = reference
            .package_id
            .as_deref()
            .filter(|id| !id.is_empty())
            .unwrap_or(&self.package.id);
        let target = self.index.resource(package_id, &reference.resource_id);
        // A package is always shown by id and name, whether the node names it or not.
        let package = match self.index.package(package_id) {
            Some(package) => format!("{} ({})", package.id, package.name),
            None => format!("{package_id} (no such package)"),
        };
        let shown = format!("resource {} of package {package}", reference.resource_id);
        self.expect(
            sink,
            path,
            Some(node_id),
            Reference {
                what,
                shown: &shown,
                subject: Subject::Resource(package_id.to_string(), reference.resource_id.clone()),
                target,
            },
            kinds,
        );
    }

    fn asset(&self, sink: &mut Sink) {
        let Some(metadata) = (match self.resource {
            UamResource::Font(r) | UamResource::Spine(r) | UamResource::DragonBones(r) => {
                r.metadata.as_ref()
            }
            _ => None,
        }) else {
            return;
        };
        let base = resource_path(self.package_index, self.resource_index);
        let same_package = |id: &str| self.index.resource(&self.package.id, id);
        let subject = |id: &str| Subject::Resource(self.package.id.clone(), id.to_string());
        let what = format!("{} {}", self.resource.kind(), self.resource.name());
        if let (UamResource::Font(_), Some(texture)) = (
            self.resource,
            metadata.get("texture").and_then(Value::as_str),
        ) && !texture.is_empty()
        {
            let shown = format!("texture {texture}");
            self.expect(
                sink,
                format!("{base}.metadata.texture"),
                None,
                Reference {
                    what: &what,
                    shown: &shown,
                    subject: subject(texture),
                    target: same_package(texture),
                },
                IMAGE,
            );
        }
        if matches!(
            self.resource,
            UamResource::Spine(_) | UamResource::DragonBones(_)
        ) && let Some(require) = metadata.get("require").and_then(Value::as_str)
        {
            const BINARY: &[&str] = &[
                "image",
                "misc",
                "sound",
                "font",
                "movieClip",
                "spine",
                "dragonBones",
            ];
            for id in require
                .split(',')
                .map(str::trim)
                .filter(|id| !id.is_empty())
            {
                let shown = format!("required file {id}");
                self.expect(
                    sink,
                    format!("{base}.metadata.require"),
                    None,
                    Reference {
                        what: &what,
                        shown: &shown,
                        subject: subject(id),
                        target: same_package(id),
                    },
                    BINARY,
                );
            }
        }
    }

    fn component(&self, component: &ComponentModel, sink: &mut Sink) {
        let base = format!(
            "{}.component",
            resource_path(self.package_index, self.resource_index)
        );
        let properties = &component.properties;
        let what = format!("Component {}", self.resource.name());
        for (field, value, kinds) in [
            ("vtScrollBarRes", &properties.vt_scroll_bar_res, COMPONENT),
            ("hzScrollBarRes", &properties.hz_scroll_bar_res, COMPONENT),
            ("headerRes", &properties.header_res, COMPONENT),
            ("footerRes", &properties.footer_res, COMPONENT),
            ("dropdown", &properties.dropdown, COMPONENT),
            ("sound", &properties.sound, SOUND),
            ("showSound", &properties.show_sound, SOUND),
            ("hideSound", &properties.hide_sound, SOUND),
            ("designImage", &properties.design_image, IMAGE),
        ] {
            self.url(
                sink,
                format!("{base}.properties.{field}"),
                None,
                &what,
                value,
                kinds,
            );
        }
        for (n, node) in component.display_list.iter().enumerate() {
            self.node(
                sink,
                &node_path(self.package_index, self.resource_index, n),
                node,
            );
        }
        for (t, transition) in component.transitions.iter().enumerate() {
            let mark = sink.mark();
            for (i, item) in transition.items.iter().enumerate() {
                let path = format!("{base}.transitions[{t}].items[{i}]");
                let what = format!("Transition {:?}", transition.name);
                for (field, values) in [
                    ("startValue", &item.start_value),
                    ("endValue", &item.end_value),
                ] {
                    for (k, value) in values.iter().enumerate() {
                        self.json(sink, &format!("{path}.{field}[{k}]"), None, &what, value);
                    }
                }
            }
            sink.within_since(mark, &format!("transition {}", transition.name));
        }
    }

    fn node(&self, sink: &mut Sink, path: &str, node: &DisplayNode) {
        let id = node.id();
        let what = format!("{} node {id}", node.kind());
        let at = |field: &str| format!("{path}.{field}");
        match node {
            DisplayNode::Image(n) => {
                self.resource_ref(sink, at("resource"), id, &what, &n.resource, IMAGE)
            }
            DisplayNode::MovieClip(n) => {
                self.resource_ref(sink, at("resource"), id, &what, &n.resource, MOVIE_CLIP)
            }
            DisplayNode::Component(n) => {
                self.resource_ref(sink, at("resource"), id, &what, &n.resource, COMPONENT);
                if let Some(properties) = &n.instance_properties {
                    self.instance(sink, &at("instanceProperties"), id, &what, properties);
                }
                for (k, property) in n.property_overrides.iter().flatten().enumerate() {
                    self.text(
                        sink,
                        format!("{path}.propertyOverrides[{k}].value"),
                        Some(id),
                        &what,
                        &property.value,
                    );
                }
            }
            DisplayNode::Text(n) => {
                self.url(sink, at("font"), Some(id), &what, &n.text.font, FONT);
                self.text(sink, at("text"), Some(id), &what, &n.text.text);
            }
            DisplayNode::RichText(n) => {
                self.url(sink, at("font"), Some(id), &what, &n.text.font, FONT);
                self.text(sink, at("text"), Some(id), &what, &n.text.text);
            }
            DisplayNode::TextInput(n) => {
                self.url(sink, at("font"), Some(id), &what, &n.text.font, FONT);
                self.text(sink, at("text"), Some(id), &what, &n.text.text);
            }
            DisplayNode::Loader(n) => {
                self.url(sink, at("url"), Some(id), &what, &n.props.url, VISUAL)
            }
            DisplayNode::Loader3D(n) => {
                self.url(sink, at("url"), Some(id), &what, &n.props.url, VISUAL)
            }
            DisplayNode::List(n) => self.list(sink, path, id, &what, &n.list),
            DisplayNode::Tree(n) => self.list(sink, path, id, &what, &n.list),
            DisplayNode::Button(n) | DisplayNode::Label(n) | DisplayNode::ComboBox(n) => {
                self.derived_src(sink, path, id, &what, &n.src, &n.package_id);
                self.url(sink, at("icon"), Some(id), &what, &n.icon, VISUAL);
                self.url(sink, at("sound"), Some(id), &what, &n.sound, SOUND);
                self.text(sink, at("title"), Some(id), &what, &n.title);
            }
            DisplayNode::ProgressBar(n) | DisplayNode::Slider(n) | DisplayNode::ScrollBar(n) => {
                self.derived_src(sink, path, id, &what, &n.src, &n.package_id);
            }
            DisplayNode::Graph(_) | DisplayNode::Group(_) => {}
        }
        let extension = match node {
            DisplayNode::Component(n) => self
                .index
                .reference(&self.package.id, &n.resource)
                .and_then(UamResource::component)
                .map(|model| model.properties.extension_type.as_str()),
            _ => Some(""),
        };
        for (g, gear) in node.base().gears.iter().enumerate() {
            let gear_path = format!("{path}.gears[{g}]");
            let mark = sink.mark();
            // An instance whose component does not resolve is reported above.
            if let Some(extension) = extension {
                self.gear_fit(sink, &gear_path, node, gear.kind(), extension);
            }
            if let GearBinding::Value(value_gear) = gear.binding() {
                self.gear_values(sink, &gear_path, id, gear.kind(), value_gear);
            }
            sink.within_since(mark, &gear_entity(gear.kind(), gear.controller_name()));
        }
    }

    /// The `ui://` references in a value gear's page values and default.
    fn gear_values(
        &self,
        sink: &mut Sink,
        gear_path: &str,
        id: &str,
        kind: &str,
        value_gear: &ValueGear,
    ) {
        let (states, default) = (&value_gear.states, &value_gear.default_value);
        let what = format!("The {kind} gear of node {id}");
        for (k, state) in states.iter().enumerate() {
            if let Some(value) = &state.value {
                self.json(
                    sink,
                    &format!("{gear_path}.states[{k}].value"),
                    Some(id),
                    &what,
                    value,
                );
            }
        }
        self.json(
            sink,
            &format!("{gear_path}.defaultValue"),
            Some(id),
            &what,
            default,
        );
    }

    /// A gear whose kind the node cannot apply ([`gear_fit`]).
    fn gear_fit(
        &self,
        sink: &mut Sink,
        gear_path: &str,
        node: &DisplayNode,
        kind: &str,
        extension: &str,
    ) {
        let shown = if extension.is_empty() {
            format!("{} node", node.kind())
        } else {
            format!("{extension} instance")
        };
        let finding = match gear_fit(kind, node.kind(), extension) {
            GearFit::Applies => return,
            GearFit::NoEffect => sink.warning(
                Code::InvalidUam,
                format!("{gear_path}.kind"),
                format!(
                    "Node {} has {} gear, but {} has no {kind} to set; the gear does nothing.",
                    node.id(),
                    with_article(kind),
                    with_article(&shown)
                ),
            ),
            GearFit::Fails => sink.error(
                Code::InvalidUam,
                format!("{gear_path}.kind"),
                format!(
                    "Node {} has {} gear, which {} cannot take; the FairyGUI runtime fails building it.",
                    node.id(),
                    with_article(kind),
                    with_article(&shown)
                ),
            ),
        };
        finding.package_id = Some(self.package.id.clone());
        finding.resource_id = Some(self.resource.id().to_string());
        finding.node_id = Some(node.id().to_string());
        finding.source_path = self.resource.source_path().map(str::to_string);
    }

    /// The flat control kinds name their component by `src` (+ `packageId`).
    fn derived_src(
        &self,
        sink: &mut Sink,
        path: &str,
        id: &str,
        what: &str,
        src: &str,
        package_id: &str,
    ) {
        let reference = ResourceRef {
            package_id: (!package_id.is_empty()).then(|| package_id.to_string()),
            resource_id: src.to_string(),
        };
        self.resource_ref(sink, format!("{path}.src"), id, what, &reference, COMPONENT);
    }

    fn instance(
        &self,
        sink: &mut Sink,
        path: &str,
        id: &str,
        what: &str,
        properties: &InstanceProperties,
    ) {
        let at = |field: &str| format!("{path}.{field}");
        match properties {
            InstanceProperties::Button {
                title,
                selected_title,
                icon,
                selected_icon,
                sound,
                ..
            } => {
                self.url(sink, at("icon"), Some(id), what, icon, VISUAL);
                self.url(
                    sink,
                    at("selectedIcon"),
                    Some(id),
                    what,
                    selected_icon,
                    VISUAL,
                );
                self.url(sink, at("sound"), Some(id), what, sound, SOUND);
                self.text(sink, at("title"), Some(id), what, title);
                self.text(sink, at("selectedTitle"), Some(id), what, selected_title);
            }
            InstanceProperties::Label {
                title, icon, sound, ..
            } => {
                self.url(sink, at("icon"), Some(id), what, icon, VISUAL);
                self.url(sink, at("sound"), Some(id), what, sound, SOUND);
                self.text(sink, at("title"), Some(id), what, title);
            }
            InstanceProperties::ComboBox {
                title,
                icon,
                sound,
                items,
                ..
            } => {
                self.url(sink, at("icon"), Some(id), what, icon, VISUAL);
                self.url(sink, at("sound"), Some(id), what, sound, SOUND);
                self.text(sink, at("title"), Some(id), what, title);
                for (k, item) in items.iter().enumerate() {
                    if let Some(icon) = &item.icon {
                        self.url(
                            sink,
                            format!("{path}.items[{k}].icon"),
                            Some(id),
                            what,
                            icon,
                            VISUAL,
                        );
                    }
                    if let Some(title) = &item.title {
                        self.text(
                            sink,
                            format!("{path}.items[{k}].title"),
                            Some(id),
                            what,
                            title,
                        );
                    }
                }
            }
            InstanceProperties::ProgressBar { sound, .. } => {
                self.url(sink, at("sound"), Some(id), what, sound, SOUND)
            }
            InstanceProperties::Slider { .. } | InstanceProperties::ScrollBar {} => {}
        }
    }

    fn list(&self, sink: &mut Sink, path: &str, id: &str, what: &str, list: &ListProperties) {
        let at = |field: &str| format!("{path}.{field}");
        for (field, value) in [
            ("defaultItem", &list.default_item),
            ("vtScrollBarRes", &list.vt_scroll_bar_res),
            ("hzScrollBarRes", &list.hz_scroll_bar_res),
            ("headerRes", &list.header_res),
            ("footerRes", &list.footer_res),
        ] {
            self.url(sink, at(field), Some(id), what, value, COMPONENT);
        }
        for (k, item) in list.list_items.iter().enumerate() {
            let item_path = format!("{path}.listItems[{k}]");
            if let Some(url) = &item.url {
                self.url(
                    sink,
                    format!("{item_path}.url"),
                    Some(id),
                    what,
                    url,
                    COMPONENT,
                );
            }
            for (field, icon) in [("icon", &item.icon), ("selectedIcon", &item.selected_icon)] {
                if let Some(icon) = icon {
                    self.url(
                        sink,
                        format!("{item_path}.{field}"),
                        Some(id),
                        what,
                        icon,
                        VISUAL,
                    );
                }
            }
            for (field, title) in [
                ("title", &item.title),
                ("selectedTitle", &item.selected_title),
            ] {
                if let Some(title) = title {
                    self.text(sink, format!("{item_path}.{field}"), Some(id), what, title);
                }
            }
        }
    }
}
