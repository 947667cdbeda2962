//! The tagged unions of the model: resources, display nodes, gears and instance
//! properties, with the accessors shared by their variants.

use serde::{Deserialize, Serialize};

use super::{
    AssetBase, ComboItem, ComponentModel, ComponentNode, ComponentResource, DisplayGear,
    GenericAssetResource, GraphNode, GroupNode, ImageNode, ImageResource, ListNode, Loader3DNode,
    LoaderNode, MovieClipNode, MovieClipResource, NodeBase, ResourceRef, RichTextNode, Size,
    TextInputNode, TextNode, TitleControlNode, TreeNode, UamPackage, UamProject, UnsupportedNode,
    ValueControlNode, ValueGear,
};
use crate::num::Num;

/// Any resource, tagged by `kind`.
// Components are most resources of a real project, so boxing the large variant would
// only add an allocation per component.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum UamResource {
    Image(ImageResource),
    Sound(GenericAssetResource),
    Misc(GenericAssetResource),
    Font(GenericAssetResource),
    MovieClip(MovieClipResource),
    Spine(GenericAssetResource),
    DragonBones(GenericAssetResource),
    Component(ComponentResource),
}

/// The resource kinds, in catalog order.
pub const RESOURCE_KINDS: [&str; 8] = [
    "image",
    "sound",
    "misc",
    "font",
    "movieClip",
    "spine",
    "dragonBones",
    "component",
];

impl UamResource {
    pub fn kind(&self) -> &'static str {
        match self {
            UamResource::Image(_) => "image",
            UamResource::Sound(_) => "sound",
            UamResource::Misc(_) => "misc",
            UamResource::Font(_) => "font",
            UamResource::MovieClip(_) => "movieClip",
            UamResource::Spine(_) => "spine",
            UamResource::DragonBones(_) => "dragonBones",
            UamResource::Component(_) => "component",
        }
    }

    pub fn id(&self) -> &str {
        self.common().id
    }

    pub fn name(&self) -> &str {
        self.common().name
    }

    pub fn path(&self) -> &str {
        self.common().path
    }

    pub fn branch(&self) -> &str {
        self.common().branch
    }

    pub fn source_path(&self) -> Option<&str> {
        self.common().source_path
    }

    /// The resource's slot table of branch variants (`''` for an empty slot).
    pub fn branch_item_ids(&self) -> &[String] {
        self.common().branch_item_ids
    }

    pub fn exported(&self) -> bool {
        self.common().exported
    }

    pub fn favorite(&self) -> bool {
        self.common().favorite
    }

    /// The fields components and assets both have (components keep their own copies
    /// rather than an [`AssetBase`]).
    pub fn common(&self) -> Common<'_> {
        let base = match self {
            UamResource::Component(c) => {
                return Common {
                    id: &c.id,
                    name: &c.name,
                    path: &c.path,
                    exported: c.exported,
                    favorite: c.favorite,
                    branch: &c.branch,
                    branch_item_ids: &c.branch_item_ids,
                    source_path: c.source_path.as_deref(),
                };
            }
            UamResource::Image(r) => &r.base,
            UamResource::MovieClip(r) => &r.base,
            UamResource::Sound(r)
            | UamResource::Misc(r)
            | UamResource::Font(r)
            | UamResource::Spine(r)
            | UamResource::DragonBones(r) => &r.base,
        };
        Common {
            id: &base.id,
            name: &base.name,
            path: &base.path,
            exported: base.exported,
            favorite: base.favorite,
            branch: &base.branch,
            branch_item_ids: &base.branch_item_ids,
            source_path: base.source_path.as_deref(),
        }
    }

    /// The shared fields to change, whatever the kind.
    pub fn common_mut(&mut self) -> CommonMut<'_> {
        let base = match self {
            UamResource::Component(c) => {
                return CommonMut {
                    path: &mut c.path,
                    exported: &mut c.exported,
                    favorite: &mut c.favorite,
                    branch: &mut c.branch,
                    branch_item_ids: &mut c.branch_item_ids,
                    source_path: &mut c.source_path,
                };
            }
            UamResource::Image(r) => &mut r.base,
            UamResource::MovieClip(r) => &mut r.base,
            UamResource::Sound(r)
            | UamResource::Misc(r)
            | UamResource::Font(r)
            | UamResource::Spine(r)
            | UamResource::DragonBones(r) => &mut r.base,
        };
        CommonMut {
            path: &mut base.path,
            exported: &mut base.exported,
            favorite: &mut base.favorite,
            branch: &mut base.branch,
            branch_item_ids: &mut base.branch_item_ids,
            source_path: &mut base.source_path,
        }
    }

    /// The file the resource is written to inside its folder, as the editor names it:
    /// `<name>.xml` for a component, otherwise `fileName ?? file ?? name`.
    pub fn primary_file(&self) -> String {
        match self {
            UamResource::Component(c) => format!("{}.xml", c.name),
            UamResource::Image(r) => r.file_name.clone().unwrap_or_else(|| r.base.name.clone()),
            UamResource::MovieClip(r) => r.file_name.clone().unwrap_or_else(|| r.base.name.clone()),
            UamResource::Sound(r)
            | UamResource::Misc(r)
            | UamResource::Font(r)
            | UamResource::Spine(r)
            | UamResource::DragonBones(r) => r
                .file_name
                .clone()
                .or_else(|| r.file.clone())
                .unwrap_or_else(|| r.base.name.clone()),
        }
    }

    /// The shared asset fields; `None` for components.
    pub fn asset_base(&self) -> Option<&AssetBase> {
        match self {
            UamResource::Image(r) => Some(&r.base),
            UamResource::MovieClip(r) => Some(&r.base),
            UamResource::Sound(r)
            | UamResource::Misc(r)
            | UamResource::Font(r)
            | UamResource::Spine(r)
            | UamResource::DragonBones(r) => Some(&r.base),
            UamResource::Component(_) => None,
        }
    }

    pub fn asset_base_mut(&mut self) -> Option<&mut AssetBase> {
        match self {
            UamResource::Image(r) => Some(&mut r.base),
            UamResource::MovieClip(r) => Some(&mut r.base),
            UamResource::Sound(r)
            | UamResource::Misc(r)
            | UamResource::Font(r)
            | UamResource::Spine(r)
            | UamResource::DragonBones(r) => Some(&mut r.base),
            UamResource::Component(_) => None,
        }
    }

    pub fn component(&self) -> Option<&ComponentModel> {
        match self {
            UamResource::Component(c) => Some(&c.component),
            _ => None,
        }
    }

    /// The size a display node showing this resource has when its file gives it none: an
    /// image's or movie clip's dimensions, a component's size.
    pub fn shown_size(&self) -> Option<&Size> {
        match self {
            UamResource::Image(r) => r.dimensions.as_ref(),
            UamResource::MovieClip(r) => Some(&r.dimensions),
            UamResource::Component(r) => Some(&r.component.size),
            _ => None,
        }
    }
}

impl ComponentResource {
    /// A component whose shared resource fields are those of `base` (the fields a
    /// component keeps itself rather than in an [`AssetBase`]).
    pub fn with_base(base: AssetBase, component: ComponentModel) -> Self {
        ComponentResource {
            id: base.id,
            name: base.name,
            path: base.path,
            exported: base.exported,
            favorite: base.favorite,
            branch: base.branch,
            branch_item_ids: base.branch_item_ids,
            source_path: base.source_path,
            component,
        }
    }
}

impl ComponentModel {
    /// Whether an element of the display list has this id, whether this server models it
    /// or keeps it unmodeled: both make the id taken and a valid target.
    pub fn has_node_id(&self, id: &str) -> bool {
        self.display_list.iter().any(|node| node.id() == id) || self.unsupported_node(id).is_some()
    }

    /// The unmodeled display-list element with this id.
    pub fn unsupported_node(&self, id: &str) -> Option<&UnsupportedNode> {
        self.unsupported_nodes.iter().find(|node| node.id == id)
    }
}

/// The fields every resource has, borrowed (see [`UamResource::common`]).
#[derive(Clone, Copy, Debug)]
pub struct Common<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub path: &'a str,
    pub exported: bool,
    pub favorite: bool,
    pub branch: &'a str,
    pub branch_item_ids: &'a [String],
    pub source_path: Option<&'a str>,
}

/// The fields every resource has, to change (see [`UamResource::common_mut`]); the id
/// and name are left out because their rules differ between components and assets.
#[derive(Debug)]
pub struct CommonMut<'a> {
    pub path: &'a mut String,
    pub exported: &'a mut bool,
    pub favorite: &'a mut bool,
    pub branch: &'a mut String,
    pub branch_item_ids: &'a mut Vec<String>,
    pub source_path: &'a mut Option<String>,
}

/// Any display node, tagged by `kind`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum DisplayNode {
    Image(ImageNode),
    Text(TextNode),
    RichText(RichTextNode),
    TextInput(TextInputNode),
    Component(ComponentNode),
    List(ListNode),
    Tree(TreeNode),
    Graph(GraphNode),
    Group(GroupNode),
    Loader(LoaderNode),
    #[serde(rename = "loader3D")]
    Loader3D(Loader3DNode),
    MovieClip(MovieClipNode),
    Button(TitleControlNode),
    Label(TitleControlNode),
    ComboBox(TitleControlNode),
    ProgressBar(ValueControlNode),
    Slider(ValueControlNode),
    ScrollBar(ValueControlNode),
}

/// The display node kinds, in catalog order.
pub const NODE_KINDS: [&str; 18] = [
    "image",
    "text",
    "richText",
    "textInput",
    "component",
    "list",
    "tree",
    "graph",
    "group",
    "loader",
    "loader3D",
    "movieClip",
    "button",
    "label",
    "comboBox",
    "progressBar",
    "slider",
    "scrollBar",
];

impl DisplayNode {
    pub fn kind(&self) -> &'static str {
        match self {
            DisplayNode::Image(_) => "image",
            DisplayNode::Text(_) => "text",
            DisplayNode::RichText(_) => "richText",
            DisplayNode::TextInput(_) => "textInput",
            DisplayNode::Component(_) => "component",
            DisplayNode::List(_) => "list",
            DisplayNode::Tree(_) => "tree",
            DisplayNode::Graph(_) => "graph",
            DisplayNode::Group(_) => "group",
            DisplayNode::Loader(_) => "loader",
            DisplayNode::Loader3D(_) => "loader3D",
            DisplayNode::MovieClip(_) => "movieClip",
            DisplayNode::Button(_) => "button",
            DisplayNode::Label(_) => "label",
            DisplayNode::ComboBox(_) => "comboBox",
            DisplayNode::ProgressBar(_) => "progressBar",
            DisplayNode::Slider(_) => "slider",
            DisplayNode::ScrollBar(_) => "scrollBar",
        }
    }

    pub fn base(&self) -> &NodeBase {
        match self {
            DisplayNode::Image(n) => &n.base,
            DisplayNode::Text(n) => &n.base,
            DisplayNode::RichText(n) => &n.base,
            DisplayNode::TextInput(n) => &n.base,
            DisplayNode::Component(n) => &n.base,
            DisplayNode::List(n) => &n.base,
            DisplayNode::Tree(n) => &n.base,
            DisplayNode::Graph(n) => &n.base,
            DisplayNode::Group(n) => &n.base,
            DisplayNode::Loader(n) => &n.base,
            DisplayNode::Loader3D(n) => &n.base,
            DisplayNode::MovieClip(n) => &n.base,
            DisplayNode::Button(n) | DisplayNode::Label(n) | DisplayNode::ComboBox(n) => &n.base,
            DisplayNode::ProgressBar(n) | DisplayNode::Slider(n) | DisplayNode::ScrollBar(n) => {
                &n.base
            }
        }
    }

    pub fn base_mut(&mut self) -> &mut NodeBase {
        match self {
            DisplayNode::Image(n) => &mut n.base,
            DisplayNode::Text(n) => &mut n.base,
            DisplayNode::RichText(n) => &mut n.base,
            DisplayNode::TextInput(n) => &mut n.base,
            DisplayNode::Component(n) => &mut n.base,
            DisplayNode::List(n) => &mut n.base,
            DisplayNode::Tree(n) => &mut n.base,
            DisplayNode::Graph(n) => &mut n.base,
            DisplayNode::Group(n) => &mut n.base,
            DisplayNode::Loader(n) => &mut n.base,
            DisplayNode::Loader3D(n) => &mut n.base,
            DisplayNode::MovieClip(n) => &mut n.base,
            DisplayNode::Button(n) | DisplayNode::Label(n) | DisplayNode::ComboBox(n) => {
                &mut n.base
            }
            DisplayNode::ProgressBar(n) | DisplayNode::Slider(n) | DisplayNode::ScrollBar(n) => {
                &mut n.base
            }
        }
    }

    pub fn id(&self) -> &str {
        &self.base().id
    }

    pub fn name(&self) -> &str {
        &self.base().name
    }

    /// The resource whose [`UamResource::shown_size`] the node has when its file gives it
    /// no size (image, movie clip and component nodes; others then have 0,0).
    pub fn sized_by(&self) -> Option<&ResourceRef> {
        match self {
            DisplayNode::Image(n) => Some(&n.resource),
            DisplayNode::MovieClip(n) => Some(&n.resource),
            DisplayNode::Component(n) => Some(&n.resource),
            _ => None,
        }
    }
}

/// A gear binding, tagged by `kind`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Gear {
    Display(DisplayGear),
    Display2(DisplayGear),
    Look(ValueGear),
    Xy(ValueGear),
    Size(ValueGear),
    Color(ValueGear),
    Animation(ValueGear),
    Text(ValueGear),
    Icon(ValueGear),
    FontSize(ValueGear),
}

/// The gear kinds, in catalog order.
pub const GEAR_KINDS: [&str; 10] = [
    "display",
    "display2",
    "look",
    "xy",
    "size",
    "color",
    "animation",
    "text",
    "icon",
    "fontSize",
];

impl Gear {
    pub fn kind(&self) -> &'static str {
        match self {
            Gear::Display(_) => "display",
            Gear::Display2(_) => "display2",
            Gear::Look(_) => "look",
            Gear::Xy(_) => "xy",
            Gear::Size(_) => "size",
            Gear::Color(_) => "color",
            Gear::Animation(_) => "animation",
            Gear::Text(_) => "text",
            Gear::Icon(_) => "icon",
            Gear::FontSize(_) => "fontSize",
        }
    }

    /// The gear's payload: page visibility, or per-page values.
    pub fn binding(&self) -> GearBinding<'_> {
        match self {
            Gear::Display(g) | Gear::Display2(g) => GearBinding::Display(g),
            Gear::Look(g)
            | Gear::Xy(g)
            | Gear::Size(g)
            | Gear::Color(g)
            | Gear::Animation(g)
            | Gear::Text(g)
            | Gear::Icon(g)
            | Gear::FontSize(g) => GearBinding::Value(g),
        }
    }

    pub fn controller_name(&self) -> &str {
        match self.binding() {
            GearBinding::Display(g) => &g.controller_name,
            GearBinding::Value(g) => &g.controller_name,
        }
    }
}

/// A gear's payload, whatever its kind.
#[derive(Clone, Copy, Debug)]
pub enum GearBinding<'a> {
    /// `display` and `display2`: the pages the node is visible on.
    Display(&'a DisplayGear),
    /// Every other kind: a value per page and a default.
    Value(&'a ValueGear),
}

/// Instance properties of a component node, keyed by the referenced component's
/// extension type (the `<Button>`, `<Label>`, … child element of the instance).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "extensionType")]
pub enum InstanceProperties {
    #[serde(rename_all = "camelCase")]
    Button {
        title: String,
        selected_title: String,
        icon: String,
        selected_icon: String,
        title_color: String,
        title_font_size: Num,
        controller: String,
        page: String,
        checked: bool,
        sound: String,
        sound_volume_scale: Num,
    },
    #[serde(rename_all = "camelCase")]
    Label {
        title: String,
        icon: String,
        title_color: String,
        title_font_size: Num,
        prompt_text: String,
        sound: String,
        sound_volume_scale: Num,
    },
    #[serde(rename_all = "camelCase")]
    ComboBox {
        title: String,
        icon: String,
        title_color: String,
        popup_direction: i32,
        sound: String,
        sound_volume_scale: Num,
        visible_item_count: Num,
        selection_controller: String,
        auto_clear_items: bool,
        items: Vec<ComboItem>,
    },
    #[serde(rename_all = "camelCase")]
    ProgressBar {
        value: Num,
        max: Num,
        min: Num,
        sound: String,
        sound_volume_scale: Num,
    },
    #[serde(rename_all = "camelCase")]
    Slider {
        value: Num,
        max: Num,
        min: Num,
    },
    ScrollBar {},
}

impl InstanceProperties {
    /// The properties of an empty element of an extension type (`<Button/>`), as the
    /// reader gives them; `None` for a type without instance properties.
    pub fn empty(extension_type: &str) -> Option<Self> {
        let volume = Num(1.0);
        Some(match extension_type {
            "Button" => InstanceProperties::Button {
                title: String::new(),
                selected_title: String::new(),
                icon: String::new(),
                selected_icon: String::new(),
                title_color: String::new(),
                title_font_size: Num(0.0),
                controller: String::new(),
                page: String::new(),
                checked: false,
                sound: String::new(),
                sound_volume_scale: volume,
            },
            "Label" => InstanceProperties::Label {
                title: String::new(),
                icon: String::new(),
                title_color: String::new(),
                title_font_size: Num(0.0),
                prompt_text: String::new(),
                sound: String::new(),
                sound_volume_scale: volume,
            },
            "ComboBox" => InstanceProperties::ComboBox {
                title: String::new(),
                icon: String::new(),
                title_color: String::new(),
                popup_direction: 0,
                sound: String::new(),
                sound_volume_scale: volume,
                visible_item_count: Num(0.0),
                selection_controller: String::new(),
                auto_clear_items: false,
                items: Vec::new(),
            },
            "ProgressBar" => InstanceProperties::ProgressBar {
                value: Num(0.0),
                max: Num(100.0),
                min: Num(0.0),
                sound: String::new(),
                sound_volume_scale: volume,
            },
            "Slider" => InstanceProperties::Slider {
                value: Num(0.0),
                max: Num(100.0),
                min: Num(0.0),
            },
            "ScrollBar" => InstanceProperties::ScrollBar {},
            _ => return None,
        })
    }

    /// The extension type these properties are for.
    pub fn extension_type(&self) -> &'static str {
        match self {
            InstanceProperties::Button { .. } => "Button",
            InstanceProperties::Label { .. } => "Label",
            InstanceProperties::ComboBox { .. } => "ComboBox",
            InstanceProperties::ProgressBar { .. } => "ProgressBar",
            InstanceProperties::Slider { .. } => "Slider",
            InstanceProperties::ScrollBar {} => "ScrollBar",
        }
    }
}

impl UamProject {
    pub fn package(&self, id: &str) -> impl Iterator<Item = &UamPackage> {
        self.packages
            .iter()
            .map(|p| p.as_ref())
            .filter(move |p| p.id == id)
    }
}
