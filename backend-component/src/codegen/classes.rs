//! Which classes a package's code has and what each binds, by the rules the FairyGUI editor
//! follows (RULES.md): one class per published component (exported, or used by a published
//! component of any package), in resource id order; members for its controllers, children
//! and transitions; default names and an extension's own parts left out when
//! `ignoreNoname` is set, and then components left with no member.

use std::collections::{BTreeSet, HashMap, VecDeque};

use ofgui_contracts::uam::{
    ComponentModel, ComponentResource, DisplayNode, UamPackage, UamProject, UamResource,
};
use serde_json::Value;

use super::names::{Taken, identifier, is_csharp_keyword, is_typescript_reserved};
use super::settings::{CodegenSettings, Language};
use super::{CodegenWarning, WarningKind};
use crate::lookup::urls::{Urls, urls_in};

/// A runtime class of FairyGUI, the same name in every runtime (TypeScript writes it
/// under `fgui.`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RuntimeType {
    GComponent,
    GButton,
    GLabel,
    GComboBox,
    GProgressBar,
    GSlider,
    GScrollBar,
    GImage,
    GMovieClip,
    GGraph,
    GGroup,
    GLoader,
    GLoader3D,
    GTextField,
    GRichTextField,
    GTextInput,
    GList,
    GTree,
    Controller,
    Transition,
}

impl RuntimeType {
    pub fn name(self) -> &'static str {
        match self {
            RuntimeType::GComponent => "GComponent",
            RuntimeType::GButton => "GButton",
            RuntimeType::GLabel => "GLabel",
            RuntimeType::GComboBox => "GComboBox",
            RuntimeType::GProgressBar => "GProgressBar",
            RuntimeType::GSlider => "GSlider",
            RuntimeType::GScrollBar => "GScrollBar",
            RuntimeType::GImage => "GImage",
            RuntimeType::GMovieClip => "GMovieClip",
            RuntimeType::GGraph => "GGraph",
            RuntimeType::GGroup => "GGroup",
            RuntimeType::GLoader => "GLoader",
            RuntimeType::GLoader3D => "GLoader3D",
            RuntimeType::GTextField => "GTextField",
            RuntimeType::GRichTextField => "GRichTextField",
            RuntimeType::GTextInput => "GTextInput",
            RuntimeType::GList => "GList",
            RuntimeType::GTree => "GTree",
            RuntimeType::Controller => "Controller",
            RuntimeType::Transition => "Transition",
        }
    }

    /// The runtime class of a component with this extension (the root's `extention`).
    pub fn of_extension(extension: &str) -> Self {
        match extension {
            "Button" => RuntimeType::GButton,
            "Label" => RuntimeType::GLabel,
            "ComboBox" => RuntimeType::GComboBox,
            "ProgressBar" => RuntimeType::GProgressBar,
            "Slider" => RuntimeType::GSlider,
            "ScrollBar" => RuntimeType::GScrollBar,
            _ => RuntimeType::GComponent,
        }
    }
}

/// Every runtime name generated code spells, which a class may therefore not take.
pub(crate) const RUNTIME_NAMES: &[&str] = &[
    "GObject",
    "GComponent",
    "GButton",
    "GLabel",
    "GComboBox",
    "GProgressBar",
    "GSlider",
    "GScrollBar",
    "GImage",
    "GMovieClip",
    "GGraph",
    "GGroup",
    "GLoader",
    "GLoader3D",
    "GTextField",
    "GRichTextField",
    "GTextInput",
    "GList",
    "GTree",
    "Controller",
    "Transition",
    "UIPackage",
    "UIObjectFactory",
    "XML",
    "FairyGUI",
    "fgui",
];

/// What a member is bound to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Group {
    Controller,
    Child,
    Transition,
}

/// A member's type: a runtime class, or a generated class of the same package.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum MemberType {
    Runtime(RuntimeType),
    Class(String),
}

/// One field of a generated class.
#[derive(Clone, Debug)]
pub(crate) struct Member<'m> {
    pub group: Group,
    /// The name the project gives it, which binding by name looks up.
    pub name: &'m str,
    /// The field's name.
    pub var_name: String,
    /// Its index among the published children, the controllers or the transitions.
    pub index: usize,
    pub ty: MemberType,
    /// Bound by name: `getMemberByName` is set and no earlier member of its group has the
    /// name (the runtime's lookup by name finds the first).
    pub by_name: bool,
}

/// One generated class.
#[derive(Clone, Debug)]
pub(crate) struct ClassInfo<'m> {
    pub resource: &'m ComponentResource,
    pub class_name: String,
    pub base: RuntimeType,
    pub members: Vec<Member<'m>>,
}

/// A package's classes and the names its code lives under.
#[derive(Clone, Debug)]
pub(crate) struct PackageClasses<'m> {
    pub package: &'m UamPackage,
    /// The package's folder under the code directory, and its C# namespace's last part.
    pub folder: String,
    pub binder: String,
    pub classes: Vec<ClassInfo<'m>>,
}

/// The extension parts a runtime binds by name itself: a Button's `button` controller and
/// `title`/`icon` children, a ProgressBar's `bar`, … (`ignoreNoname` leaves them out).
fn extension_parts(extension: &str) -> (&'static [&'static str], &'static [&'static str]) {
    match extension {
        "Button" | "ComboBox" => (&["button"], &["title", "icon"]),
        "Label" => (&[], &["title", "icon"]),
        "ProgressBar" => (&[], &["title", "bar", "bar_v", "ani"]),
        "Slider" => (&[], &["title", "bar", "bar_v", "grip"]),
        "ScrollBar" => (&[], &["grip", "bar", "arrow1", "arrow2"]),
        _ => (&[], &[]),
    }
}

/// A default child name (`n` and a number), which the editor gives every new child.
fn is_default_child_name(name: &str) -> bool {
    name.strip_prefix('n')
        .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
}

/// The children the runtime creates, in order: the display list without plain groups (the
/// editor drops groups that are not `advanced` when it publishes, as `publish::scope`
/// does), so indexes are those `getChildAt` takes.
pub(crate) fn published_children(model: &ComponentModel) -> impl Iterator<Item = &DisplayNode> {
    model.display_list.iter().filter(|node| match node {
        DisplayNode::Group(group) => group.props.advanced,
        _ => true,
    })
}

/// A member before it has a field name and a type.
struct Candidate<'m> {
    group: Group,
    name: &'m str,
    index: usize,
    node: Option<&'m DisplayNode>,
}

fn candidates<'m>(model: &'m ComponentModel, strip: bool) -> Vec<Candidate<'m>> {
    let (controller_parts, child_parts) = if strip {
        extension_parts(&model.properties.extension_type)
    } else {
        (&[][..], &[][..])
    };
    let mut out = Vec::new();
    for (index, controller) in model.controllers.iter().enumerate() {
        if !controller_parts.contains(&controller.name.as_str()) {
            out.push(Candidate {
                group: Group::Controller,
                name: &controller.name,
                index,
                node: None,
            });
        }
    }
    for (index, node) in published_children(model).enumerate() {
        let name = node.name();
        if strip && (is_default_child_name(name) || child_parts.contains(&name)) {
            continue;
        }
        out.push(Candidate {
            group: Group::Child,
            name,
            index,
            node: Some(node),
        });
    }
    for (index, transition) in model.transitions.iter().enumerate() {
        out.push(Candidate {
            group: Group::Transition,
            name: &transition.name,
            index,
            node: None,
        });
    }
    out
}

/// A resource by (package id, resource id).
pub(crate) type Key = (String, String);

/// Every component reached from an exported resource of any package: through the
/// resources its children show and every `ui://` URL in its content (list items, loader
/// URLs, …), as the publisher chooses what to publish. The design image is the editor's
/// own aid and reaches nothing.
pub(crate) fn used_components(project: &UamProject, urls: &Urls) -> BTreeSet<Key> {
    let mut seen = BTreeSet::new();
    let mut queue = VecDeque::new();
    for package in &project.packages {
        for resource in package.resources.iter().filter(|r| r.exported()) {
            let key = (package.id.clone(), resource.id().to_owned());
            if seen.insert(key.clone()) {
                queue.push_back(key);
            }
        }
    }
    while let Some((package_id, resource_id)) = queue.pop_front() {
        let Some(model) = urls
            .resource(&package_id, &resource_id)
            .and_then(|r| r.component())
        else {
            continue;
        };
        for key in component_references(urls, &package_id, model) {
            if seen.insert(key.clone()) {
                queue.push_back(key);
            }
        }
    }
    seen
}

fn component_references(urls: &Urls, owner: &str, model: &ComponentModel) -> Vec<Key> {
    let mut out = Vec::new();
    for node in &model.display_list {
        if let Some((package, resource)) = node_reference(node, owner)
            && urls.resource(package, resource).is_some()
        {
            out.push((package.to_owned(), resource.to_owned()));
        }
    }
    let Ok(mut value) = serde_json::to_value(model) else {
        return out;
    };
    if let Some(properties) = value.get_mut("properties").and_then(Value::as_object_mut) {
        properties.remove("designImage");
    }
    let mut visit = |text: &str| {
        for url in urls_in(text) {
            if let Some((package, resource)) = urls.locate(url) {
                out.push((package.to_owned(), resource.id().to_owned()));
            }
        }
    };
    walk_strings(&value, &mut visit);
    out
}

fn walk_strings(value: &Value, visit: &mut impl FnMut(&str)) {
    match value {
        Value::String(text) => visit(text),
        Value::Array(values) => values.iter().for_each(|v| walk_strings(v, visit)),
        Value::Object(map) => map.values().for_each(|v| walk_strings(v, visit)),
        _ => {}
    }
}

/// The (package id, resource id) a component child shows; an empty package is `owner`.
fn node_reference<'a>(node: &'a DisplayNode, owner: &'a str) -> Option<(&'a str, &'a str)> {
    let (package, resource) = match node {
        DisplayNode::Component(n) => (
            n.resource.package_id.as_deref().unwrap_or_default(),
            n.resource.resource_id.as_str(),
        ),
        DisplayNode::Button(n) | DisplayNode::Label(n) | DisplayNode::ComboBox(n) => {
            (n.package_id.as_str(), n.src.as_str())
        }
        DisplayNode::ProgressBar(n) | DisplayNode::Slider(n) | DisplayNode::ScrollBar(n) => {
            (n.package_id.as_str(), n.src.as_str())
        }
        _ => return None,
    };
    let package = if package.is_empty() { owner } else { package };
    (!resource.is_empty()).then_some((package, resource))
}

/// What the classes of every package are collected with.
pub(crate) struct Context<'a> {
    pub urls: &'a Urls<'a>,
    pub used: &'a BTreeSet<Key>,
    pub settings: &'a CodegenSettings,
    pub language: Language,
}

/// The classes of one package; `folder` is the package's folder name, already kept apart
/// from the other packages' in the same code directory.
pub(crate) fn collect<'m>(
    ctx: &Context,
    package: &'m UamPackage,
    folder: String,
    warnings: &mut Vec<CodegenWarning>,
) -> PackageClasses<'m> {
    let strip = ctx.settings.ignore_noname;
    let excluded: BTreeSet<&str> = package
        .publish
        .as_ref()
        .map(|p| p.excluded_resource_ids.iter().map(String::as_str).collect())
        .unwrap_or_default();
    let mut published: Vec<&ComponentResource> = package
        .resources
        .iter()
        .filter_map(|r| match r.as_ref() {
            UamResource::Component(c) => Some(c),
            _ => None,
        })
        // A branch's variant replaces its main item at run time and has no class of its own.
        .filter(|c| c.branch.is_empty() && !excluded.contains(c.id.as_str()))
        .filter(|c| c.exported || ctx.used.contains(&(package.id.clone(), c.id.clone())))
        .collect();
    published.sort_by(|a, b| a.id.cmp(&b.id));

    let with_members: Vec<(&ComponentResource, Vec<Candidate>)> = published
        .into_iter()
        .map(|c| (c, candidates(&c.component, strip)))
        .filter(|(_, members)| !strip || !members.is_empty())
        .collect();

    let binder = format!("{folder}Binder");
    let mut class_names = Taken::new(true);
    for reserved in RUNTIME_NAMES {
        class_names.reserve(reserved);
    }
    class_names.reserve(&binder);
    let language = ctx.language;
    let refused = move |name: &str| match language {
        Language::CSharp => is_csharp_keyword(name),
        Language::TypeScript(_) => is_typescript_reserved(name),
    };
    let mut named: HashMap<&str, String> = HashMap::new();
    for (resource, _) in &with_members {
        let wanted = format!("{}{}", ctx.settings.class_name_prefix, resource.name);
        let class_name = class_names.claim(&identifier(&wanted), refused);
        if class_name != wanted {
            warnings.push(CodegenWarning {
                kind: WarningKind::ClassRenamed,
                package_id: package.id.clone(),
                resource_id: Some(resource.id.clone()),
                message: format!(
                    "component {:?} ({}) becomes class {class_name}: {wanted:?} {}",
                    resource.name,
                    resource.id,
                    why_renamed(&wanted, refused),
                ),
            });
        }
        named.insert(resource.id.as_str(), class_name);
    }

    let mut classes = Vec::with_capacity(with_members.len());
    for (resource, candidates) in with_members {
        let Some(class_name) = named.get(resource.id.as_str()).cloned() else {
            continue;
        };
        let members = members(
            ctx,
            package,
            resource,
            &class_name,
            candidates,
            &named,
            warnings,
        );
        classes.push(ClassInfo {
            resource,
            base: RuntimeType::of_extension(&resource.component.properties.extension_type),
            class_name,
            members,
        });
    }
    PackageClasses {
        package,
        folder,
        binder,
        classes,
    }
}

fn why_renamed(wanted: &str, refused: impl Fn(&str) -> bool) -> &'static str {
    let cleaned = identifier(wanted);
    if cleaned != wanted {
        "is not an identifier"
    } else if refused(wanted) {
        "is a reserved word"
    } else {
        "is taken by another class or a runtime type"
    }
}

/// The fields of one class, named and typed.
fn members<'m>(
    ctx: &Context,
    package: &UamPackage,
    resource: &ComponentResource,
    class_name: &str,
    candidates: Vec<Candidate<'m>>,
    classes: &HashMap<&str, String>,
    warnings: &mut Vec<CodegenWarning>,
) -> Vec<Member<'m>> {
    let mut var_names = Taken::new(false);
    var_names.reserve(class_name);
    let language = ctx.language;
    // Names the generated class itself declares.
    let own: &[&str] = match language {
        Language::CSharp => &["URL", "CreateInstance", "ConstructFromXML"],
        Language::TypeScript(_) => &["constructor", "onConstruct"],
    };
    for name in own {
        var_names.reserve(name);
    }
    let refused = move |name: &str| language == Language::CSharp && is_csharp_keyword(name);
    let mut bound_names: BTreeSet<(Group, &str)> = BTreeSet::new();
    let mut out = Vec::with_capacity(candidates.len());
    for candidate in candidates {
        let wanted = format!("{}{}", ctx.settings.member_name_prefix, candidate.name);
        let var_name = var_names.claim(&identifier(&wanted), refused);
        let what = match candidate.group {
            Group::Controller => "controller",
            Group::Child => "child",
            Group::Transition => "transition",
        };
        if var_name != wanted {
            warnings.push(CodegenWarning {
                kind: WarningKind::MemberRenamed,
                package_id: package.id.clone(),
                resource_id: Some(resource.id.clone()),
                message: format!(
                    "in {class_name}, {what} {:?} (index {}) becomes field {var_name}: {wanted:?} {}",
                    candidate.name,
                    candidate.index,
                    why_member_renamed(&wanted, refused),
                ),
            });
        }
        let first_of_name = bound_names.insert((candidate.group, candidate.name));
        let by_name = ctx.settings.get_member_by_name && first_of_name;
        if ctx.settings.get_member_by_name && !first_of_name {
            warnings.push(CodegenWarning {
                kind: WarningKind::BoundByIndex,
                package_id: package.id.clone(),
                resource_id: Some(resource.id.clone()),
                message: format!(
                    "in {class_name}, {what} {:?} at index {} shares its name with an earlier one, which a lookup by name would find; it is bound by index",
                    candidate.name, candidate.index,
                ),
            });
        }
        let ty = match (candidate.group, candidate.node) {
            (Group::Controller, _) => MemberType::Runtime(RuntimeType::Controller),
            (Group::Transition, _) => MemberType::Runtime(RuntimeType::Transition),
            (Group::Child, Some(node)) => node_type(ctx.urls, &package.id, node, classes),
            (Group::Child, None) => MemberType::Runtime(RuntimeType::GComponent),
        };
        out.push(Member {
            group: candidate.group,
            name: candidate.name,
            var_name,
            index: candidate.index,
            ty,
            by_name,
        });
    }
    out
}

fn why_member_renamed(wanted: &str, refused: impl Fn(&str) -> bool) -> &'static str {
    if identifier(wanted) != wanted {
        "is not an identifier"
    } else if refused(wanted) {
        "is a reserved word"
    } else {
        "is taken by another member or by the class itself"
    }
}

/// A child's type: the generated class of the component it shows when that component is
/// of the same package and has one (the editor types only with the classes of the package
/// it generates), else the runtime class its kind or extension makes.
fn node_type(
    urls: &Urls,
    owner: &str,
    node: &DisplayNode,
    classes: &HashMap<&str, String>,
) -> MemberType {
    let runtime = match node {
        DisplayNode::Image(_) => RuntimeType::GImage,
        DisplayNode::MovieClip(_) => RuntimeType::GMovieClip,
        DisplayNode::Graph(_) => RuntimeType::GGraph,
        DisplayNode::Group(_) => RuntimeType::GGroup,
        DisplayNode::Loader(_) => RuntimeType::GLoader,
        DisplayNode::Loader3D(_) => RuntimeType::GLoader3D,
        DisplayNode::Text(_) => RuntimeType::GTextField,
        DisplayNode::RichText(_) => RuntimeType::GRichTextField,
        DisplayNode::TextInput(_) => RuntimeType::GTextInput,
        DisplayNode::List(_) => RuntimeType::GList,
        DisplayNode::Tree(_) => RuntimeType::GTree,
        DisplayNode::Component(_) => RuntimeType::GComponent,
        DisplayNode::Button(_) => RuntimeType::GButton,
        DisplayNode::Label(_) => RuntimeType::GLabel,
        DisplayNode::ComboBox(_) => RuntimeType::GComboBox,
        DisplayNode::ProgressBar(_) => RuntimeType::GProgressBar,
        DisplayNode::Slider(_) => RuntimeType::GSlider,
        DisplayNode::ScrollBar(_) => RuntimeType::GScrollBar,
    };
    let Some((package, resource_id)) = node_reference(node, owner) else {
        return MemberType::Runtime(runtime);
    };
    if package == owner
        && let Some(class_name) = classes.get(resource_id)
    {
        return MemberType::Class(class_name.clone());
    }
    match urls
        .resource(package, resource_id)
        .and_then(|r| r.component())
    {
        Some(model) => {
            MemberType::Runtime(RuntimeType::of_extension(&model.properties.extension_type))
        }
        None => MemberType::Runtime(runtime),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_child_names_are_n_and_digits() {
        assert!(is_default_child_name("n0"));
        assert!(is_default_child_name("n125"));
        assert!(!is_default_child_name("n"));
        assert!(!is_default_child_name("name"));
        assert!(!is_default_child_name("c1"));
        assert!(!is_default_child_name("n1a"));
    }
}
