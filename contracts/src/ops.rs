//! The 41 transaction operations: what an agent sends to `preflightTransaction` and
//! `applyTransaction`, one tagged object per operation.
//!
//! Shapes follow upstream OpenFairyGUI 0.6.x (`{kind, opId?, selector, …}`); payloads reuse
//! the UAM types, so a snapshot read with `queryEntity` can be edited and sent back.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::bytes::SourceBytes;
use crate::num::Num;
use crate::selectors::{
    ComponentSelector, ControllerSelector, DisplayNodeSelector, PackageSelector, ResourceSelector,
    Selects, TransitionSelector, node_keys, package_keys,
};
use crate::uam::{
    ComboItem, ComponentProperties, ComponentResource, Controller, DisplayNode, Gear,
    GraphProperties, GroupProperties, ImageProperties, ImageResourceProperties, ListProperties,
    Loader3DProperties, LoaderProperties, MovieClipProperties, MovieClipResourceProperties,
    PackagePublish, PlainTextExtras, Point, ResourceFolder, ResourceRef, Size, TextProperties,
    Transition, TreeExtras, UamResource,
};

/// Most operations one batch may hold.
pub const MAX_OPERATIONS: usize = 1000;

macro_rules! contract {
    ($($item:item)*) => {
        $(
            #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
            #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
            #[serde(rename_all = "camelCase", deny_unknown_fields)]
            $item
        )*
    };
}

contract! {
    /// A resource folder, by package, branch (`''` main) and canonical path `/a/b/`.
    pub struct FolderSelector {
        #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
        pub package_id: String,
        #[serde(default)]
        #[cfg_attr(feature = "schema", schemars(length(max = 256)))]
        pub branch: String,
        #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 4096)))]
        pub path: String,
    }

    /// A branch, by name.
    pub struct BranchSelector {
        #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
        pub branch: String,
    }

    /// A gear, by its node, kind and controller.
    pub struct GearSelector {
        #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
        pub package_id: String,
        #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
        pub component_resource_id: String,
        #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
        pub display_node_id: String,
        /// One of display, display2, look, xy, size, color, animation, text, icon, fontSize.
        #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 32)))]
        pub kind: String,
        #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
        pub controller_name: String,
    }

    /// A package's compression and publish settings, replaced as a whole.
    pub struct PackageSettings {
        // Each key is required (null is a value): a missing key must not silently clear a
        // setting of a snapshot that replaces the whole.
        #[serde(rename = "compressPNG", deserialize_with = "Option::deserialize")]
        #[cfg_attr(feature = "schema", schemars(required, schema_with = "nullable::<bool>"))]
        pub compress_png: Option<bool>,
        #[serde(deserialize_with = "Option::deserialize")]
        #[cfg_attr(feature = "schema", schemars(required, schema_with = "nullable::<Num>"))]
        pub jpeg_quality: Option<Num>,
        #[serde(deserialize_with = "Option::deserialize")]
        #[cfg_attr(feature = "schema", schemars(required, schema_with = "nullable::<PackagePublish>"))]
        pub publish: Option<PackagePublish>,
    }

    /// A whole package to add; assets carry their bytes.
    pub struct PackageInput {
        pub id: String,
        pub name: String,
        #[serde(rename = "compressPNG")]
        pub compress_png: Option<bool>,
        pub jpeg_quality: Option<Num>,
        pub publish: Option<PackagePublish>,
        pub branch_names: Vec<String>,
        pub folders: Vec<ResourceFolder>,
        pub resources: Vec<AssetInput>,
    }

    /// Text fields of a text node snapshot; the plain-text fields apply to text and text
    /// input nodes, the input fields to text input nodes only.
    pub struct TextPropertiesUpdate {
        #[serde(flatten)]
        pub text: TextProperties,
        #[serde(flatten)]
        pub plain: Option<PlainTextExtras>,
        #[serde(flatten)]
        pub input: Option<TextInputExtras>,
    }

    /// The fields only a text input node has; all five together, or none to keep them.
    pub struct TextInputExtras {
        pub prompt_text: String,
        pub max_length: Num,
        pub restrict: String,
        pub password: bool,
        pub keyboard_type: i32,
    }

    /// An image node's snapshot; `resource`, when given, retargets the node to another
    /// image of its own package.
    pub struct ImagePropertiesUpdate {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub resource: Option<ResourceRef>,
        #[serde(flatten)]
        pub image: ImageProperties,
    }

    /// A movie clip node's snapshot; `resource` (and its `fileName` hint), when given,
    /// retarget the node to another movie clip.
    pub struct MovieClipPropertiesUpdate {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub resource: Option<ResourceRef>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub file_name: Option<String>,
        #[serde(flatten)]
        pub clip: MovieClipProperties,
    }

    /// List fields of a list snapshot; the tree fields apply to trees.
    pub struct ListPropertiesUpdate {
        #[serde(flatten)]
        pub list: ListProperties,
        #[serde(flatten)]
        pub tree: Option<TreeExtras>,
    }

    /// What `setDisplayNodeProps` changes: base fields one by one, the text shortcuts, or
    /// exactly one complete per-kind snapshot.
    pub struct DisplayNodePropsUpdate {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub position: Option<Point>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub size: Option<Size>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub locked: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub aspect: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub min_size: Option<Size>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub max_size: Option<Size>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub pivot: Option<Point>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub pivot_as_anchor: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub scale: Option<Point>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub skew: Option<Point>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub visible: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub touchable: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub grayed: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub alpha: Option<Num>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub rotation: Option<Num>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub tooltips: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub blend_mode: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub filter: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub filter_data: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub custom_data: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub group: Option<String>,
        /// Text shortcut (text, rich text, text input).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub text: Option<String>,
        /// Text shortcut.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub font: Option<String>,
        /// Text shortcut.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub font_size: Option<Num>,
        /// Text shortcut.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub color: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub text_properties: Option<TextPropertiesUpdate>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub image_properties: Option<ImagePropertiesUpdate>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub movie_clip_properties: Option<MovieClipPropertiesUpdate>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub graph_properties: Option<GraphProperties>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub group_properties: Option<GroupProperties>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub loader_properties: Option<LoaderProperties>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub list_properties: Option<ListPropertiesUpdate>,
        #[serde(rename = "loader3DProperties", default, skip_serializing_if = "Option::is_none")]
        pub loader3d_properties: Option<Loader3DProperties>,
        /// A component node's instance properties: the fields given change, the others
        /// stay (a complete snapshot, as `queryEntity` shows it, replaces them all);
        /// `null` deletes them.
        #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
        pub component_instance_properties: Option<Option<InstancePropertiesChange>>,
    }

    /// A change to a component node's instance properties (the `<Button>`, `<Label>`, …
    /// element of the instance). The fields given change and the others keep their values;
    /// a node without instance properties starts from the empty element of its
    /// component's extension type. `extensionType` may be left out; when given it must be
    /// the node's component's. Each field belongs to the extension types its description
    /// names.
    pub struct InstancePropertiesChange {
        /// Button, Label, ComboBox, ProgressBar, Slider or ScrollBar: the node's component's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub extension_type: Option<String>,
        /// What the instance shows (Button, Label, ComboBox).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub title: Option<String>,
        /// What a selected button shows (Button).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub selected_title: Option<String>,
        /// Button, Label, ComboBox.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub icon: Option<String>,
        /// Button.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub selected_icon: Option<String>,
        /// `#rrggbb`, or empty for the component's own (Button, Label, ComboBox).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub title_color: Option<String>,
        /// 0 for the component's own (Button, Label).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub title_font_size: Option<Num>,
        /// Button.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub controller: Option<String>,
        /// Button.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub page: Option<String>,
        /// Button.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub checked: Option<bool>,
        /// Button, Label, ComboBox, ProgressBar.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub sound: Option<String>,
        /// 0 to 1 (Button, Label, ComboBox, ProgressBar).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub sound_volume_scale: Option<Num>,
        /// Label.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub prompt_text: Option<String>,
        /// 0 auto, 1 up, 2 down (ComboBox).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub popup_direction: Option<i32>,
        /// ComboBox.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub visible_item_count: Option<Num>,
        /// ComboBox.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub selection_controller: Option<String>,
        /// ComboBox.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub auto_clear_items: Option<bool>,
        /// The whole item list (ComboBox).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub items: Option<Vec<ComboItem>>,
        /// ProgressBar, Slider.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub value: Option<Num>,
        /// ProgressBar, Slider.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub max: Option<Num>,
        /// ProgressBar, Slider.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub min: Option<Num>,
    }

    /// What `setComponentProps` replaces.
    pub struct ComponentPropsUpdate {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub size: Option<Size>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub properties: Option<ComponentProperties>,
    }

    /// Replaces all project settings (`settings/*.json`); unknown keys are kept.
    pub struct UpdateProjectSettings {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub settings: Map<String, Value>,
    }

    /// Replaces a package's compression and publish settings.
    pub struct UpdatePackageSettings {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: PackageSelector,
        pub settings: PackageSettings,
    }

    /// Renames a resource (a component keeps `.xml`; an asset keeps its extension unless
    /// `newName` has one).
    pub struct RenameResource {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: ResourceSelector,
        #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
        pub new_name: String,
    }

    /// Moves a resource to another folder.
    pub struct MoveResource {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: ResourceSelector,
        #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 4096)))]
        pub to_path: String,
    }

    /// Marks a resource as a favorite or not.
    pub struct SetResourceFavorite {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: ResourceSelector,
        pub favorite: bool,
    }

    /// Marks a folder as a favorite or not.
    pub struct SetResourceFolderFavorite {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: FolderSelector,
        pub favorite: bool,
    }

    /// Sets a folder's atlas slot (`''` clears it).
    pub struct SetResourceFolderAtlas {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: FolderSelector,
        #[cfg_attr(feature = "schema", schemars(length(max = 32)))]
        pub atlas: String,
    }

    /// Exports a resource from its package or not.
    pub struct SetResourceExported {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: ResourceSelector,
        pub exported: bool,
    }

    /// Adds a folder.
    pub struct AddResourceFolder {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: PackageSelector,
        #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 4096)))]
        pub path: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub branch: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub favorite: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub atlas: Option<String>,
    }

    /// Renames an empty folder.
    pub struct RenameResourceFolder {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: FolderSelector,
        #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
        pub new_name: String,
    }

    /// Moves an empty folder under another folder (or `/`).
    pub struct MoveResourceFolder {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: FolderSelector,
        #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 4096)))]
        pub to_path: String,
    }

    /// Removes an empty folder.
    pub struct RemoveResourceFolder {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: FolderSelector,
    }

    /// Replaces an image resource's image block (the bytes stay).
    pub struct SetImageResourceProps {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: ResourceSelector,
        pub props: ImageResourceProperties,
    }

    /// Adds an asset resource with its bytes. Only `kind`, a file name and `sourceBytes`
    /// are needed; what the server fills in is listed in the result's `generated`.
    pub struct AddResource {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: PackageSelector,
        pub resource: NewAssetInput,
        /// Position in the package's resource list; omitted appends.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub at_index: Option<u32>,
    }

    /// Adds a branch.
    pub struct AddBranch {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
        pub branch: String,
    }

    /// Renames a branch everywhere it is used.
    pub struct RenameBranch {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: BranchSelector,
        #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
        pub new_name: String,
    }

    /// Removes an empty, unreferenced branch.
    pub struct RemoveBranch {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: BranchSelector,
    }

    /// Adds a whole package.
    pub struct AddPackage {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub package: PackageInput,
        pub at_index: u32,
    }

    /// Renames a package (its directory).
    pub struct RenamePackage {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: PackageSelector,
        #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
        pub new_name: String,
    }

    /// Removes an unreferenced package.
    pub struct RemovePackage {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: PackageSelector,
    }

    /// Adds a component with its whole model.
    pub struct AddComponent {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: PackageSelector,
        pub component: ComponentResource,
        pub at_index: u32,
    }

    /// Removes an unreferenced component.
    pub struct RemoveComponent {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: ComponentSelector,
    }

    /// Moves a component to another package.
    pub struct MoveComponent {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: ComponentSelector,
        #[cfg_attr(feature = "schema", schemars(length(min = 1, max = 256)))]
        pub to_package_id: String,
        pub to_index: u32,
    }

    /// Replaces an asset's file bytes, keeping its identity.
    pub struct ReplaceResourceBytes {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: ResourceSelector,
        pub source_bytes: SourceBytes,
    }

    /// Removes an unreferenced asset resource.
    pub struct RemoveResource {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: ResourceSelector,
    }

    /// Replaces a component's size and/or its complete properties.
    pub struct SetComponentProps {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: ComponentSelector,
        pub props: ComponentPropsUpdate,
    }

    /// Changes a display node's fields.
    pub struct SetDisplayNodeProps {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: DisplayNodeSelector,
        pub props: DisplayNodePropsUpdate,
    }

    /// Inserts a display node.
    pub struct AttachDisplayNode {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: ComponentSelector,
        pub at_index: u32,
        pub node: DisplayNode,
    }

    /// Removes a display node (references to it are not rewritten).
    pub struct DetachDisplayNode {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: DisplayNodeSelector,
    }

    /// Adds or replaces a controller with a complete snapshot.
    pub struct ControllerOp {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: ControllerSelector,
        pub controller: Controller,
    }

    /// Removes a controller.
    pub struct RemoveController {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: ControllerSelector,
    }

    /// Adds or replaces a transition with a complete snapshot.
    pub struct TransitionOp {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: TransitionSelector,
        pub transition: Transition,
    }

    /// Removes a transition.
    pub struct RemoveTransition {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: TransitionSelector,
    }

    /// Adds or replaces a gear with a complete snapshot.
    pub struct GearOp {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: GearSelector,
        pub gear: Gear,
    }

    /// Removes a gear.
    pub struct RemoveGear {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub op_id: Option<String>,
        pub selector: GearSelector,
    }
}

/// An asset resource to add, with its primary file bytes. (serde cannot deny unknown
/// fields next to a flattened tagged enum; [`crate::strict`] does it instead.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AssetInput {
    #[serde(flatten)]
    pub resource: UamResource,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_bytes: Option<SourceBytes>,
}

/// An asset for `addResource`: its kind, a file name and its bytes are enough. (serde
/// cannot deny unknown fields next to a flattened tagged enum; [`crate::strict`] does it.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct NewAssetInput {
    #[serde(flatten)]
    pub asset: NewAsset,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_bytes: Option<SourceBytes>,
}

/// A new asset resource, tagged by `kind`. Omitted fields are filled in by the server:
/// see each field.
// A component is accepted here only to be refused with `unsupported_resource_kind`
// (components are added with addComponent), as upstream refuses it.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum NewAsset {
    Image(NewImage),
    Sound(NewGenericAsset),
    Misc(NewGenericAsset),
    Font(NewGenericAsset),
    MovieClip(NewMovieClip),
    Spine(NewGenericAsset),
    DragonBones(NewGenericAsset),
    /// Refused with `unsupported_resource_kind`: add components with addComponent.
    Component(Map<String, Value>),
}

impl NewAsset {
    /// The shared fields; `None` for a component.
    pub fn base(&self) -> Option<&NewAssetBase> {
        match self {
            NewAsset::Image(a) => Some(&a.base),
            NewAsset::MovieClip(a) => Some(&a.base),
            NewAsset::Sound(a)
            | NewAsset::Misc(a)
            | NewAsset::Font(a)
            | NewAsset::Spine(a)
            | NewAsset::DragonBones(a) => Some(&a.base),
            NewAsset::Component(_) => None,
        }
    }

    /// The file name the payload gives (`fileName`, else `file`, else `name`) and the
    /// field it came from; `("fileName", "")` when it gives none. `None` for a component.
    pub fn file(&self) -> Option<(&'static str, String)> {
        let (file_name, file) = match self {
            NewAsset::Image(a) => (&a.file_name, &None),
            NewAsset::MovieClip(a) => (&a.file_name, &None),
            NewAsset::Sound(a)
            | NewAsset::Misc(a)
            | NewAsset::Font(a)
            | NewAsset::Spine(a)
            | NewAsset::DragonBones(a) => (&a.file_name, &a.file),
            NewAsset::Component(_) => return None,
        };
        let name = &self.base()?.name;
        Some(
            file_name
                .as_ref()
                .map(|f| ("fileName", f.clone()))
                .or_else(|| file.as_ref().map(|f| ("file", f.clone())))
                .or_else(|| name.as_ref().map(|f| ("name", f.clone())))
                .unwrap_or(("fileName", String::new())),
        )
    }
}

macro_rules! new_asset {
    ($($item:item)*) => {
        $(
            #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
            #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
            #[serde(rename_all = "camelCase")]
            $item
        )*
    };
}

new_asset! {
    /// The fields every new asset shares; each may be omitted.
    pub struct NewAssetBase {
        /// Omitted: the server generates a package-unique id in the editor's style (six
        /// lower-case letters and digits).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub id: Option<String>,
        /// Always the file name without its extension (the file name is `fileName`, else
        /// `file`, else this name).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub name: Option<String>,
        /// The folder, `/` or `/a/b/`; omitted: `/`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub path: Option<String>,
        /// Omitted: false.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub exported: Option<bool>,
        /// Omitted: false.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub favorite: Option<bool>,
        /// `''` is the main branch; omitted: `''`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub branch: Option<String>,
        /// Omitted: `[]`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub branch_item_ids: Option<Vec<String>>,
        /// Must be absent: the file's place follows from package, branch, path and file name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub source_path: Option<String>,
    }

    /// A new image (PNG, JPEG or SVG).
    pub struct NewImage {
        #[serde(flatten)]
        pub base: NewAssetBase,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub file_name: Option<String>,
        /// Always read from the PNG/JPEG header when it has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub dimensions: Option<Size>,
        /// Omitted: the block the editor gives a newly imported image (no atlas, quality
        /// option or scaling; smoothing on), which a save writes as a bare element.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub image: Option<ImageResourceProperties>,
    }

    /// A new movie clip (`.jta`).
    pub struct NewMovieClip {
        #[serde(flatten)]
        pub base: NewAssetBase,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub file_name: Option<String>,
        /// Always read from the JTA.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub dimensions: Option<Size>,
        /// Interval, repeat delay, swing and frames are always read from the JTA; only
        /// `smoothing` is taken from here. Omitted: smoothing on.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub movie_clip: Option<MovieClipResourceProperties>,
    }

    /// A new sound, misc, font, spine or dragonBones asset.
    pub struct NewGenericAsset {
        #[serde(flatten)]
        pub base: NewAssetBase,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub file_name: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub file: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub dimensions: Option<Size>,
        /// Kind-specific XML attributes (`texture` for fonts; `require`, `atlasNames`,
        /// `anchor` for skeletons).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub metadata: Option<Map<String, Value>>,
    }
}

/// The schema of a field that must be present but may be `null` (schemars treats a
/// required `Option` as non-null).
#[cfg(feature = "schema")]
fn nullable<T: schemars::JsonSchema>(
    generator: &mut schemars::SchemaGenerator,
) -> schemars::Schema {
    generator.subschema_for::<Option<T>>()
}

/// Distinguishes an explicit `null` (Some(None)) from an absent field (None).
fn present<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// One operation, tagged by `kind`.
// Batches are short-lived and parsed once; boxing the snapshot-carrying variants would
// only add allocations.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Operation {
    UpdateProjectSettings(UpdateProjectSettings),
    UpdatePackageSettings(UpdatePackageSettings),
    RenameResource(RenameResource),
    MoveResource(MoveResource),
    SetResourceFavorite(SetResourceFavorite),
    SetResourceFolderFavorite(SetResourceFolderFavorite),
    SetResourceFolderAtlas(SetResourceFolderAtlas),
    SetResourceExported(SetResourceExported),
    AddResourceFolder(AddResourceFolder),
    RenameResourceFolder(RenameResourceFolder),
    MoveResourceFolder(MoveResourceFolder),
    RemoveResourceFolder(RemoveResourceFolder),
    SetImageResourceProps(SetImageResourceProps),
    AddResource(AddResource),
    AddBranch(AddBranch),
    RenameBranch(RenameBranch),
    RemoveBranch(RemoveBranch),
    AddPackage(AddPackage),
    RenamePackage(RenamePackage),
    RemovePackage(RemovePackage),
    AddComponent(AddComponent),
    RemoveComponent(RemoveComponent),
    MoveComponent(MoveComponent),
    ReplaceResourceBytes(ReplaceResourceBytes),
    RemoveResource(RemoveResource),
    SetComponentProps(SetComponentProps),
    SetDisplayNodeProps(SetDisplayNodeProps),
    AttachDisplayNode(AttachDisplayNode),
    DetachDisplayNode(DetachDisplayNode),
    AddController(ControllerOp),
    UpdateController(ControllerOp),
    RemoveController(RemoveController),
    AddTransition(TransitionOp),
    UpdateTransition(TransitionOp),
    RemoveTransition(RemoveTransition),
    AddLookGear(GearOp),
    UpdateLookGear(GearOp),
    RemoveLookGear(RemoveGear),
    AddGear(GearOp),
    UpdateGear(GearOp),
    RemoveGear(RemoveGear),
}

// A folder is named by its package's key and its own path and branch; a gear by its
// node's keys and its own kind and controller.
package_keys!(FolderSelector);
node_keys!(GearSelector);

/// The operations whose selector names existing entities by keys (see
/// [`crate::selectors::Selects`]); the others select by names of their own (branches,
/// the project) or select nothing.
macro_rules! selected_by_keys {
    ($($variant:ident),* $(,)?) => {
        impl Operation {
            /// The operation's selector, when it names entities by keys.
            pub fn selector(&self) -> Option<&dyn Selects> {
                match self {
                    $(Operation::$variant(op) => Some(&op.selector),)*
                    _ => None,
                }
            }

            /// The same selector, to replace its keys.
            pub fn selector_mut(&mut self) -> Option<&mut dyn Selects> {
                match self {
                    $(Operation::$variant(op) => Some(&mut op.selector),)*
                    _ => None,
                }
            }
        }
    };
}

selected_by_keys!(
    UpdatePackageSettings,
    RenameResource,
    MoveResource,
    SetResourceFavorite,
    SetResourceFolderFavorite,
    SetResourceFolderAtlas,
    SetResourceExported,
    AddResourceFolder,
    RenameResourceFolder,
    MoveResourceFolder,
    RemoveResourceFolder,
    SetImageResourceProps,
    AddResource,
    RenamePackage,
    RemovePackage,
    AddComponent,
    RemoveComponent,
    MoveComponent,
    ReplaceResourceBytes,
    RemoveResource,
    SetComponentProps,
    SetDisplayNodeProps,
    AttachDisplayNode,
    DetachDisplayNode,
    AddController,
    UpdateController,
    RemoveController,
    AddTransition,
    UpdateTransition,
    RemoveTransition,
    AddLookGear,
    UpdateLookGear,
    RemoveLookGear,
    AddGear,
    UpdateGear,
    RemoveGear,
);

/// The operation kinds, in catalog order.
pub const OPERATION_KINDS: [&str; 41] = [
    "updateProjectSettings",
    "updatePackageSettings",
    "renameResource",
    "moveResource",
    "setResourceFavorite",
    "setResourceFolderFavorite",
    "setResourceFolderAtlas",
    "setResourceExported",
    "addResourceFolder",
    "renameResourceFolder",
    "moveResourceFolder",
    "removeResourceFolder",
    "setImageResourceProps",
    "addResource",
    "addBranch",
    "renameBranch",
    "removeBranch",
    "addPackage",
    "renamePackage",
    "removePackage",
    "addComponent",
    "removeComponent",
    "moveComponent",
    "replaceResourceBytes",
    "removeResource",
    "setComponentProps",
    "setDisplayNodeProps",
    "attachDisplayNode",
    "detachDisplayNode",
    "addController",
    "updateController",
    "removeController",
    "addTransition",
    "updateTransition",
    "removeTransition",
    "addLookGear",
    "updateLookGear",
    "removeLookGear",
    "addGear",
    "updateGear",
    "removeGear",
];

impl Operation {
    /// The operation's `kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            Operation::UpdateProjectSettings(_) => "updateProjectSettings",
            Operation::UpdatePackageSettings(_) => "updatePackageSettings",
            Operation::RenameResource(_) => "renameResource",
            Operation::MoveResource(_) => "moveResource",
            Operation::SetResourceFavorite(_) => "setResourceFavorite",
            Operation::SetResourceFolderFavorite(_) => "setResourceFolderFavorite",
            Operation::SetResourceFolderAtlas(_) => "setResourceFolderAtlas",
            Operation::SetResourceExported(_) => "setResourceExported",
            Operation::AddResourceFolder(_) => "addResourceFolder",
            Operation::RenameResourceFolder(_) => "renameResourceFolder",
            Operation::MoveResourceFolder(_) => "moveResourceFolder",
            Operation::RemoveResourceFolder(_) => "removeResourceFolder",
            Operation::SetImageResourceProps(_) => "setImageResourceProps",
            Operation::AddResource(_) => "addResource",
            Operation::AddBranch(_) => "addBranch",
            Operation::RenameBranch(_) => "renameBranch",
            Operation::RemoveBranch(_) => "removeBranch",
            Operation::AddPackage(_) => "addPackage",
            Operation::RenamePackage(_) => "renamePackage",
            Operation::RemovePackage(_) => "removePackage",
            Operation::AddComponent(_) => "addComponent",
            Operation::RemoveComponent(_) => "removeComponent",
            Operation::MoveComponent(_) => "moveComponent",
            Operation::ReplaceResourceBytes(_) => "replaceResourceBytes",
            Operation::RemoveResource(_) => "removeResource",
            Operation::SetComponentProps(_) => "setComponentProps",
            Operation::SetDisplayNodeProps(_) => "setDisplayNodeProps",
            Operation::AttachDisplayNode(_) => "attachDisplayNode",
            Operation::DetachDisplayNode(_) => "detachDisplayNode",
            Operation::AddController(_) => "addController",
            Operation::UpdateController(_) => "updateController",
            Operation::RemoveController(_) => "removeController",
            Operation::AddTransition(_) => "addTransition",
            Operation::UpdateTransition(_) => "updateTransition",
            Operation::RemoveTransition(_) => "removeTransition",
            Operation::AddLookGear(_) => "addLookGear",
            Operation::UpdateLookGear(_) => "updateLookGear",
            Operation::RemoveLookGear(_) => "removeLookGear",
            Operation::AddGear(_) => "addGear",
            Operation::UpdateGear(_) => "updateGear",
            Operation::RemoveGear(_) => "removeGear",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn kinds_round_trip_and_are_unique() {
        let unique: std::collections::BTreeSet<_> = OPERATION_KINDS.iter().collect();
        assert_eq!(unique.len(), 41);
        let op: Operation = serde_json::from_value(json!({
            "kind": "setDisplayNodeProps",
            "opId": "a",
            "selector": { "packageId": "p", "componentResourceId": "c", "displayNodeId": "n" },
            "props": { "text": "Ready", "position": { "x": 40, "y": 56 } }
        }))
        .unwrap();
        assert_eq!(op.kind(), "setDisplayNodeProps");
        let back = serde_json::to_value(&op).unwrap();
        assert_eq!(back["props"]["position"], json!({ "x": 40, "y": 56 }));
    }

    #[test]
    fn package_settings_need_every_key_but_take_null() {
        let op = |settings: Value| {
            serde_json::from_value::<Operation>(json!({
                "kind": "updatePackageSettings", "selector": { "packageId": "p" }, "settings": settings
            }))
        };
        assert!(op(json!({ "compressPNG": null, "jpegQuality": null, "publish": null })).is_ok());
        let missing = op(json!({ "jpegQuality": 80, "publish": null })).unwrap_err();
        assert!(missing.to_string().contains("compressPNG"), "{missing}");
    }

    #[test]
    fn unknown_fields_and_kinds_are_refused() {
        for bad in [
            json!({ "kind": "explode" }),
            json!({ "kind": "addBranch", "branch": "dev", "extra": 1 }),
            json!({ "kind": "setDisplayNodeProps", "selector": { "packageId": "p", "componentResourceId": "c", "displayNodeId": "n" }, "props": { "sparkle": true } }),
        ] {
            assert!(
                serde_json::from_value::<Operation>(bad.clone()).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn instance_properties_null_is_not_absent() {
        let props: DisplayNodePropsUpdate =
            serde_json::from_value(json!({ "componentInstanceProperties": null })).unwrap();
        assert_eq!(props.component_instance_properties, Some(None));
        let props: DisplayNodePropsUpdate = serde_json::from_value(json!({})).unwrap();
        assert_eq!(props.component_instance_properties, None);
    }

    #[test]
    fn bytes_are_integer_arrays() {
        let op: Operation = serde_json::from_value(json!({
            "kind": "replaceResourceBytes",
            "selector": { "packageId": "p", "resourceId": "r" },
            "sourceBytes": [137, 80, 78, 71]
        }))
        .unwrap();
        let Operation::ReplaceResourceBytes(op) = op else {
            panic!()
        };
        assert_eq!(*op.source_bytes, b"\x89PNG"[..]);
        assert!(
            serde_json::from_value::<Operation>(json!({
                "kind": "replaceResourceBytes",
                "selector": { "packageId": "p", "resourceId": "r" },
                "sourceBytes": [256]
            }))
            .is_err()
        );
    }
}

#[cfg(test)]
mod flatten_tests {
    use super::*;
    use serde_json::json;

    fn text() -> Value {
        json!({
            "text": "t", "font": "", "fontSize": 12, "color": "#000000", "align": 0, "vAlign": 0,
            "leading": 3, "letterSpacing": 0, "autoSize": 1, "singleLine": false, "autoClearText": false,
            "outlineSoftness": 0, "underlaySoftness": 0, "ubbEnabled": false, "underline": false,
            "italic": false, "bold": false, "strikethrough": false, "strokeColor": null, "strokeSize": 1,
            "shadowColor": null, "shadowOffset": { "x": 0, "y": 0 }
        })
    }

    #[test]
    fn flattened_snapshots_accept_exact_fields() {
        let update: TextPropertiesUpdate = serde_json::from_value(text()).unwrap();
        assert!(update.plain.is_none());
        let mut plain = text();
        plain["demoText"] = json!("");
        plain["templateVarsEnabled"] = json!(false);
        plain["faceDilate"] = json!(0);
        let update: TextPropertiesUpdate = serde_json::from_value(plain).unwrap();
        assert!(update.plain.is_some());
        let asset: AssetInput = serde_json::from_value(json!({
            "kind": "misc", "id": "m1", "name": "notes", "path": "/", "exported": false, "favorite": false,
            "branch": "", "branchItemIds": [], "sourceBytes": [1, 2]
        }))
        .unwrap();
        assert_eq!(asset.source_bytes, Some(SourceBytes(vec![1, 2])));
    }

    #[test]
    fn flattened_snapshots_refuse_unknown_fields() {
        let mut extra = text();
        extra["sparkle"] = json!(true);
        assert!(serde_json::from_value::<TextPropertiesUpdate>(extra).is_err());
    }
}
