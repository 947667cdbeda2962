//! The Unified Authoring Model (UAM): the public, JSON-shaped model of a FairyGUI project.
//!
//! Field names and shapes follow upstream OpenFairyGUI 0.6.x so agents written for it read
//! ours unchanged. These are plain data types with no I/O; the backend reads them from disk
//! and the generator derives the JSON Schemas in `contracts/` from them.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::num::Num;

mod kinds;

pub use self::kinds::{
    Common, CommonMut, DisplayNode, GEAR_KINDS, Gear, GearBinding, InstanceProperties, NODE_KINDS,
    RESOURCE_KINDS, UamResource,
};

macro_rules! model {
    ($($item:item)*) => {
        $(
            #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
            #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
            #[serde(rename_all = "camelCase")]
            $item
        )*
    };
}

model! {
    /// A 2-D point or offset.
    #[derive(Default)]
    pub struct Point {
        pub x: Num,
        pub y: Num,
    }

    /// A width and height.
    #[derive(Default)]
    pub struct Size {
        pub width: Num,
        pub height: Num,
    }

    /// Insets on four sides.
    #[derive(Default)]
    pub struct EdgeInsets {
        pub top: Num,
        pub bottom: Num,
        pub left: Num,
        pub right: Num,
    }

    /// A reference to a resource; an absent `packageId` means the owning package.
    pub struct ResourceRef {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub package_id: Option<String>,
        pub resource_id: String,
    }

    /// A relation from a node (or the component) to a target.
    pub struct Relation {
        /// `''` means the containing component.
        pub target_node_id: String,
        /// Left_Left 0 … Bottom_Bottom 13, Width 14, Height 15, the `*Ext` variants 16–23, Size 24.
        #[serde(rename = "type")]
        pub relation_type: i32,
        pub use_percent: bool,
    }

    /// The whole project.
    pub struct UamProject {
        pub project_id: String,
        /// Upstream's numbering: Unity 0, Flash 1, Starling 2, CocosCreator 3, Layabox 4,
        /// Egret 5, Haxe 6, Pixi 7, LibGDX 8, Unreal 9, CryEngine 10, MonoGame 11, Vision 12;
        /// -1 for an engine upstream does not number (Cocos2dx, Corona, ThreeJS, CreateJS,
        /// DOM) or a type this server does not know: `projectTypeName` then says which.
        pub project_type: i32,
        /// `projectDescription@type` exactly as the `.fairy` file writes it (`Cocos2dx`,
        /// `ThreeJS`, …); `""` when the file names none.
        #[serde(default)]
        pub project_type_name: String,
        pub version: String,
        pub branches: Vec<String>,
        /// The `settings/*.json` files by key: `publish`, `common`, `adaptation`,
        /// `customProperties`, `i18n`; unknown keys are kept.
        pub settings: Map<String, Value>,
        // Shared so a transaction copies only the packages it changes.
        pub packages: Vec<Arc<UamPackage>>,
    }

    /// One package (`assets/<name>/package.xml`).
    pub struct UamPackage {
        pub id: String,
        pub name: String,
        #[serde(rename = "compressPNG")]
        pub compress_png: Option<bool>,
        pub jpeg_quality: Option<Num>,
        pub publish: Option<PackagePublish>,
        /// Ordered branch slot table giving meaning to each resource's `branchItemIds`.
        pub branch_names: Vec<String>,
        pub folders: Vec<ResourceFolder>,
        // Shared so a transaction copies only the resources it changes.
        pub resources: Vec<Arc<UamResource>>,
    }

    /// The package's `<publish>` settings.
    pub struct PackagePublish {
        pub name: String,
        pub path: String,
        pub branch_path: String,
        pub package_count: Num,
        pub gen_code: bool,
        pub code_path: String,
        pub use_global_atlas_settings: bool,
        pub max_atlas_size: Num,
        /// `pot`, `npot` or `mof`.
        pub size_option: String,
        pub force_square: bool,
        pub allow_rotation: bool,
        pub paging: bool,
        pub extract_alpha: bool,
        pub max_atlas_index: Num,
        pub atlases: Vec<PublishAtlas>,
        pub excluded_resource_ids: Vec<String>,
    }

    /// One `<atlas>` slot of a package's publish settings.
    pub struct PublishAtlas {
        pub index: Num,
        pub name: String,
        pub compression: bool,
    }

    /// A resource folder; `path` is canonical (`/a/b/`) and never the root.
    pub struct ResourceFolder {
        /// `''` is the main branch.
        pub branch: String,
        pub path: String,
        pub favorite: bool,
        /// `''` or a decimal atlas slot.
        pub atlas: String,
    }

    /// The fields every asset resource shares.
    pub struct AssetBase {
        pub id: String,
        pub name: String,
        pub path: String,
        pub exported: bool,
        pub favorite: bool,
        pub branch: String,
        pub branch_item_ids: Vec<String>,
        /// Project-relative path of the primary source file, when it was read.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub source_path: Option<String>,
    }

    /// The image block of an image resource.
    pub struct ImageResourceProperties {
        /// The XML `atlas` attribute.
        pub texture_set_mode: String,
        pub quality_option: String,
        pub quality: Num,
        pub smoothing: bool,
        pub duplicate_padding: bool,
        /// 0 none, 1 nine-grid, 2 tile.
        pub scale_option: i32,
        /// `[x, y, width, height]` when `scaleOption` is 1.
        pub scale9_grid: Option<Vec<Num>>,
        pub tile_grid_indice: Num,
    }

    /// An image asset.
    pub struct ImageResource {
        #[serde(flatten)]
        pub base: AssetBase,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub file_name: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub dimensions: Option<Size>,
        pub image: ImageResourceProperties,
    }

    /// One frame of a movie clip.
    pub struct MovieClipFrame {
        pub rect_x: Num,
        pub rect_y: Num,
        pub rect_width: Num,
        pub rect_height: Num,
        pub add_delay: Num,
        pub sprite_id: String,
    }

    /// The movie clip block of a movie clip resource.
    pub struct MovieClipResourceProperties {
        pub interval: Num,
        pub repeat_delay: Num,
        pub swing: bool,
        pub smoothing: bool,
        pub frames: Vec<MovieClipFrame>,
    }

    /// A movie clip asset (`.jta`).
    pub struct MovieClipResource {
        #[serde(flatten)]
        pub base: AssetBase,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub file_name: Option<String>,
        pub dimensions: Size,
        pub movie_clip: MovieClipResourceProperties,
    }

    /// A sound, misc, font, spine or dragonBones asset.
    pub struct GenericAssetResource {
        #[serde(flatten)]
        pub base: AssetBase,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub file_name: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub file: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub dimensions: Option<Size>,
        /// Kind-specific XML attributes (`texture` for fonts, `require`, `atlasNames`,
        /// `anchor` for skeletons, `tag: "swf"` for legacy SWF items read as misc).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub metadata: Option<Map<String, Value>>,
    }

    /// A component resource and its model.
    pub struct ComponentResource {
        pub id: String,
        /// The file name without `.xml`.
        pub name: String,
        pub path: String,
        pub exported: bool,
        pub favorite: bool,
        pub branch: String,
        pub branch_item_ids: Vec<String>,
        /// Project-relative path of the component XML file.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub source_path: Option<String>,
        pub component: ComponentModel,
    }

    /// The content of a component XML file.
    pub struct ComponentModel {
        pub size: Size,
        pub properties: ComponentProperties,
        pub custom_data: String,
        pub display_list: Vec<DisplayNode>,
        pub controllers: Vec<Controller>,
        pub transitions: Vec<Transition>,
        /// Relations of the component root itself.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub relations: Vec<Relation>,
        /// Display-list elements the FairyGUI editor writes but this server does not model
        /// (the legacy `<swf>` node). They stay in the file, are not in `displayList` and
        /// cannot be edited here; their ids stay taken, and relations, actions and
        /// transitions may name them.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub unsupported_nodes: Vec<UnsupportedNode>,
    }

    /// A display-list element this server keeps but does not model.
    pub struct UnsupportedNode {
        /// The element as written (`swf`).
        pub element: String,
        pub id: String,
        pub name: String,
        /// Its position among all elements of the file's display list, modeled or not.
        pub index: u32,
    }

    /// A custom property a component exposes to its instances.
    pub struct ComponentCustomProperty {
        pub target: String,
        /// 0 text, 1 icon.
        pub property_id: i32,
        pub label: String,
    }

    /// An instance's override of a custom property.
    pub struct ComponentPropertyOverride {
        pub target: String,
        pub property_id: i32,
        pub value: String,
    }

    /// The complete property snapshot of a component root.
    pub struct ComponentProperties {
        pub min_size: Size,
        pub max_size: Size,
        pub pivot: Point,
        pub pivot_as_anchor: bool,
        /// 0 visible, 1 hidden, 2 scroll.
        pub overflow: i32,
        pub margin: EdgeInsets,
        pub clip_softness: Point,
        pub hit_test: String,
        pub mask: String,
        pub reversed_mask: bool,
        /// 0 horizontal, 1 vertical, 2 both.
        pub scroll_type: i32,
        /// 0 default, 1 visible, 2 auto, 3 hidden.
        pub scroll_bar_display: i32,
        pub scroll_bar_flags: i32,
        pub scroll_bar_margin: EdgeInsets,
        pub vt_scroll_bar_res: String,
        pub hz_scroll_bar_res: String,
        pub header_res: String,
        pub footer_res: String,
        pub bg_color: String,
        pub bg_color_enabled: bool,
        pub design_image_alpha: Num,
        pub design_image_layer: i32,
        pub design_image_offset: Point,
        pub design_image: String,
        pub design_image_for_test: bool,
        pub page_controller: String,
        pub show_sound: String,
        pub hide_sound: String,
        pub id_num: Num,
        pub init_name: String,
        pub remark: String,
        /// The class a code generator should derive the component's binding from
        /// (`customExtention`, as the editor spells it); `''` for none.
        #[serde(default)]
        pub custom_extension_id: String,
        /// `''`, Button, Label, ComboBox, ProgressBar, Slider or ScrollBar.
        pub extension_type: String,
        pub opaque: bool,
        pub button_mode: i32,
        pub sound: String,
        pub sound_volume_scale: Num,
        pub down_effect: i32,
        pub down_effect_value: Num,
        pub dropdown: String,
        pub prompt_text: String,
        pub selection_controller: String,
        pub title_type: i32,
        pub reverse: bool,
        pub whole_numbers: bool,
        pub change_on_click: bool,
        pub fixed_grip_size: bool,
        pub auto_clear_items: bool,
        pub custom_properties: Vec<ComponentCustomProperty>,
    }

    /// The fields every display node has.
    pub struct NodeBase {
        pub id: String,
        pub name: String,
        pub position: Point,
        pub size: Size,
        /// Whether the XML element writes `size`. The editor leaves it out where the node
        /// has its resource's own size (resolved into `size` at read), and then publishes
        /// no size. Setting the size makes it true, as does any edit that leaves the node
        /// another size than its file would give it; absent in input: true.
        #[serde(default = "written")]
        pub explicit_size: bool,
        pub locked: bool,
        pub aspect: bool,
        pub min_size: Size,
        pub max_size: Size,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub pivot: Option<Point>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub pivot_as_anchor: Option<bool>,
        pub scale: Point,
        pub skew: Point,
        pub visible: bool,
        pub touchable: bool,
        pub grayed: bool,
        pub alpha: Num,
        pub rotation: Num,
        pub tooltips: String,
        /// normal, none, add, multiply, screen or erase.
        pub blend_mode: String,
        /// `''` or `color`.
        pub filter: String,
        pub filter_data: String,
        pub custom_data: String,
        /// `''` or the id of a group node; absent on loader and loader3D.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub group: Option<String>,
        pub relations: Vec<Relation>,
        pub gears: Vec<Gear>,
    }

    /// Image node fields.
    pub struct ImageNode {
        #[serde(flatten)]
        pub base: NodeBase,
        pub resource: ResourceRef,
        #[serde(flatten)]
        pub props: ImageProperties,
    }

    /// The image block of an image node (a `setDisplayNodeProps` snapshot).
    pub struct ImageProperties {
        pub color: String,
        /// 0 none, 1 horizontal, 2 vertical, 3 both.
        pub flip: i32,
        pub fill_method: i32,
        pub fill_origin: i32,
        pub fill_clockwise: bool,
        pub fill_amount: Num,
    }

    /// Text fields shared by text, rich text and text input nodes.
    pub struct TextProperties {
        pub text: String,
        pub font: String,
        pub font_size: Num,
        pub color: String,
        /// 0 left, 1 center, 2 right.
        pub align: i32,
        /// 0 top, 1 middle, 2 bottom.
        pub v_align: i32,
        pub leading: Num,
        pub letter_spacing: Num,
        /// 0 none, 1 both, 2 height, 3 shrink, 4 ellipsis.
        pub auto_size: i32,
        pub single_line: bool,
        pub auto_clear_text: bool,
        pub outline_softness: Num,
        pub underlay_softness: Num,
        pub ubb_enabled: bool,
        pub underline: bool,
        pub italic: bool,
        pub bold: bool,
        pub strikethrough: bool,
        pub stroke_color: Option<String>,
        pub stroke_size: Num,
        pub shadow_color: Option<String>,
        pub shadow_offset: Point,
    }

    /// The fields plain text and text input nodes add to [`TextProperties`].
    pub struct PlainTextExtras {
        pub demo_text: String,
        pub template_vars_enabled: bool,
        pub face_dilate: Num,
    }

    /// A text node.
    pub struct TextNode {
        #[serde(flatten)]
        pub base: NodeBase,
        #[serde(flatten)]
        pub text: TextProperties,
        #[serde(flatten)]
        pub plain: PlainTextExtras,
    }

    /// A rich text node.
    pub struct RichTextNode {
        #[serde(flatten)]
        pub base: NodeBase,
        #[serde(flatten)]
        pub text: TextProperties,
    }

    /// A text input node.
    pub struct TextInputNode {
        #[serde(flatten)]
        pub base: NodeBase,
        #[serde(flatten)]
        pub text: TextProperties,
        #[serde(flatten)]
        pub plain: PlainTextExtras,
        pub prompt_text: String,
        pub max_length: Num,
        pub restrict: String,
        pub password: bool,
        pub keyboard_type: i32,
    }

    /// A ComboBox item of a component instance.
    pub struct ComboItem {
        pub title: Option<String>,
        pub value: Option<String>,
        pub icon: Option<String>,
    }

    /// A component instance node.
    pub struct ComponentNode {
        #[serde(flatten)]
        pub base: NodeBase,
        pub resource: ResourceRef,
        /// The XML `fileName` hint the editor keeps beside `src`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub file_name: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub instance_properties: Option<InstanceProperties>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub property_overrides: Option<Vec<ComponentPropertyOverride>>,
        /// The XML `controller` attribute: `controllerName,pageId,…` pairs the instance
        /// selects in the referenced component.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub controller_overrides: Option<String>,
        /// The XML `pageController` attribute.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub page_controller: Option<String>,
    }

    /// One item of a list or tree.
    pub struct ListItem {
        pub title: Option<String>,
        pub icon: Option<String>,
        pub url: Option<String>,
        pub name: Option<String>,
        pub selected_title: Option<String>,
        pub selected_icon: Option<String>,
        pub level: Num,
        pub is_folder: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub controllers: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub property_overrides: Option<Vec<ComponentPropertyOverride>>,
    }

    /// List fields shared by list and tree nodes.
    pub struct ListProperties {
        /// 0 single column, 1 single row, 2 flow horizontal, 3 flow vertical, 4 pagination.
        pub layout: i32,
        pub align: i32,
        pub v_align: i32,
        pub line_gap: Num,
        pub column_gap: Num,
        pub line_count: Num,
        pub column_count: Num,
        pub selection_mode: i32,
        pub default_item: String,
        pub auto_resize_item: bool,
        pub children_render_order: i32,
        pub apex_index: Num,
        pub src: String,
        pub overflow: i32,
        pub scroll_type: i32,
        pub scroll_bar_display: i32,
        pub scroll_bar_flags: i32,
        pub scroll_bar_margin: EdgeInsets,
        pub vt_scroll_bar_res: String,
        pub hz_scroll_bar_res: String,
        pub header_res: String,
        pub footer_res: String,
        pub margin: EdgeInsets,
        pub clip_softness: Point,
        pub scroll_item_to_view_on_click: bool,
        pub fold_invisible_items: bool,
        pub auto_clear_items: bool,
        pub list_items: Vec<ListItem>,
        pub page_controller: String,
        pub controller_overrides: String,
        pub selection_controller: String,
    }

    /// A list node.
    pub struct ListNode {
        #[serde(flatten)]
        pub base: NodeBase,
        #[serde(flatten)]
        pub list: ListProperties,
        /// Whether the XML element writes `margin`, `0,0,0,0` included (older editors
        /// did); the editor publishes the margin exactly then. A margin not zero is always
        /// written; changing the margin sets this to whether the new one is not zero;
        /// absent in input: false.
        #[serde(default)]
        pub explicit_margin: bool,
    }

    /// The fields a tree adds to [`ListProperties`].
    pub struct TreeExtras {
        /// Always true for a tree.
        pub tree_view: bool,
        pub indent: Num,
        /// 0 none, 1 single click, 2 double click.
        pub click_to_expand: i32,
    }

    /// A tree node (a list with `treeView`).
    pub struct TreeNode {
        #[serde(flatten)]
        pub base: NodeBase,
        #[serde(flatten)]
        pub list: ListProperties,
        #[serde(flatten)]
        pub tree: TreeExtras,
        /// Whether the XML element writes `margin`, `0,0,0,0` included (older editors
        /// did); the editor publishes the margin exactly then. A margin not zero is always
        /// written; changing the margin sets this to whether the new one is not zero;
        /// absent in input: false.
        #[serde(default)]
        pub explicit_margin: bool,
    }

    /// A graph (shape) node.
    pub struct GraphNode {
        #[serde(flatten)]
        pub base: NodeBase,
        #[serde(flatten)]
        pub props: GraphProperties,
    }

    /// The shape block of a graph node.
    pub struct GraphProperties {
        /// 0 empty, 1 rect, 2 ellipse, 3 polygon, 4 regular polygon.
        pub graph_type: i32,
        pub line_size: Num,
        pub line_color: String,
        pub fill_color: String,
        pub corner_radius: Option<Vec<Num>>,
        pub points: Option<Vec<Num>>,
        pub sides: Num,
        pub start_angle: Num,
        pub distances: Option<Vec<Num>>,
    }

    /// A group node.
    pub struct GroupNode {
        #[serde(flatten)]
        pub base: NodeBase,
        #[serde(flatten)]
        pub props: GroupProperties,
    }

    /// The layout block of a group node.
    pub struct GroupProperties {
        /// 0 none, 1 horizontal, 2 vertical.
        pub layout: i32,
        pub line_gap: Num,
        pub column_gap: Num,
        pub advanced: bool,
        pub exclude_invisibles: bool,
        pub auto_size_disabled: bool,
        pub main_grid_index: Num,
    }

    /// A loader node.
    pub struct LoaderNode {
        #[serde(flatten)]
        pub base: NodeBase,
        #[serde(flatten)]
        pub props: LoaderProperties,
    }

    /// The loading block of a loader node.
    pub struct LoaderProperties {
        pub url: String,
        /// 0 none, 1 scale, 2 scale-match-height, 3 scale-match-width, 4 scale-free, 5 scale-no-border.
        pub fill: i32,
        pub shrink_only: bool,
        pub auto_size: bool,
        pub use_resize: bool,
        /// Whether the runtime shows its error sign when the content fails to load
        /// (`errorSign`).
        #[serde(default)]
        pub show_error_sign: bool,
        pub align: i32,
        pub v_align: i32,
        pub frame: Num,
        pub playing: bool,
        pub color: String,
        pub fill_method: i32,
        pub fill_origin: i32,
        pub fill_clockwise: bool,
        pub fill_amount: Num,
        pub clear_on_publish: bool,
    }

    /// A 3-D loader node (Spine, DragonBones).
    pub struct Loader3DNode {
        #[serde(flatten)]
        pub base: NodeBase,
        #[serde(flatten)]
        pub props: Loader3DProperties,
    }

    /// The loading block of a 3-D loader node.
    pub struct Loader3DProperties {
        pub url: String,
        pub fill: i32,
        pub shrink_only: bool,
        pub auto_size: bool,
        pub align: i32,
        pub v_align: i32,
        pub animation_name: String,
        pub skin_name: String,
        pub playing: bool,
        pub frame: Num,
        #[serde(rename = "loop")]
        pub looping: bool,
        pub color: String,
        pub clear_on_publish: bool,
    }

    /// A movie clip node.
    pub struct MovieClipNode {
        #[serde(flatten)]
        pub base: NodeBase,
        pub resource: ResourceRef,
        pub file_name: String,
        #[serde(flatten)]
        pub props: MovieClipProperties,
    }

    /// The playback block of a movie clip node.
    pub struct MovieClipProperties {
        pub playing: bool,
        pub frame: Num,
        pub color: String,
    }

    /// The flat form of a Button, Label or ComboBox instance (write-side alias of
    /// `component` + `instanceProperties`).
    pub struct TitleControlNode {
        #[serde(flatten)]
        pub base: NodeBase,
        pub src: String,
        pub package_id: String,
        pub title: String,
        pub icon: String,
        pub title_color: String,
        pub title_font_size: Num,
        pub sound: String,
        pub sound_volume_scale: Num,
        #[serde(flatten)]
        pub extra: Map<String, Value>,
    }

    /// The flat form of a ProgressBar, Slider or ScrollBar instance.
    pub struct ValueControlNode {
        #[serde(flatten)]
        pub base: NodeBase,
        pub src: String,
        pub package_id: String,
        #[serde(flatten)]
        pub extra: Map<String, Value>,
    }

    /// A controller page.
    pub struct ControllerPage {
        pub id: String,
        pub name: String,
        /// The editor's note on the page (`<remark page="…" value="…"/>`); `''` for none.
        #[serde(default)]
        pub remark: String,
    }

    /// A controller action.
    pub struct ControllerAction {
        pub name: String,
        /// 0 play transition, 1 change page.
        pub action_type: i32,
        pub from_page_ids: Vec<String>,
        pub to_page_ids: Vec<String>,
        pub transition_name: String,
        pub play_times: Num,
        pub delay: Num,
        pub stop_on_exit: bool,
        pub target_node_id: String,
        pub controller_name: String,
        pub target_page: String,
    }

    /// A controller of a component.
    pub struct Controller {
        pub name: String,
        pub selected_index: Num,
        pub auto_radio_group_depth: bool,
        pub alias: String,
        pub exported: bool,
        /// `default`, `specific`, `branch` or `variable`.
        pub home_page_type: String,
        pub home_page: String,
        pub pages: Vec<ControllerPage>,
        pub actions: Vec<ControllerAction>,
    }

    /// One item (keyframe) of a transition.
    pub struct TransitionItem {
        pub name: String,
        pub time: Num,
        /// XY 0, Size 1, Scale 2, Pivot 3, Alpha 4, Rotation 5, Color 6, Animation 7, Visible 8,
        /// Sound 9, Transition 10, Shake 11, ColorFilter 12, Skew 13, Text 14, Icon 15, Unknown 16.
        pub action_type: i32,
        /// The item's `type` exactly as the file writes it, when it names no action this
        /// server knows (`actionType` is then 16, Unknown): what the file says is kept, not
        /// replaced by a default. Absent for known actions and for items without a type.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub action_type_name: Option<String>,
        pub target_node_id: String,
        pub tween: bool,
        pub duration: Num,
        pub start_value: Vec<Value>,
        pub end_value: Vec<Value>,
        pub ease_type: i32,
        pub repeat: Num,
        pub yoyo: bool,
        pub label: String,
        pub end_label: String,
        pub path: String,
        pub custom_ease_path: String,
    }

    /// A transition of a component.
    pub struct Transition {
        pub name: String,
        pub auto_play: bool,
        pub auto_play_times: Num,
        pub auto_play_delay: Num,
        pub options: Num,
        pub fps: Num,
        pub items: Vec<TransitionItem>,
    }

    /// A page's value of a value gear; `null` means the page uses the default.
    pub struct GearPageState {
        pub page_id: String,
        pub value: Option<Value>,
    }

    /// A display or display2 gear.
    pub struct DisplayGear {
        pub name: String,
        pub controller_name: String,
        pub visible_on_page_ids: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub condition: Option<String>,
    }

    /// A value gear (look, xy, size, color, animation, text, icon, fontSize).
    pub struct ValueGear {
        pub name: String,
        pub controller_name: String,
        pub states: Vec<GearPageState>,
        pub default_value: Value,
        /// The element writes `default` although every page has a value and the default is
        /// the bare one, as old editors did. Kept so a save writes it again and publishing
        /// gives the runtime the default as the editor does; absent: false.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pub default_written: bool,
        pub condition: String,
        pub positions_in_percent: bool,
        pub tween: bool,
        pub tween_duration: Num,
        pub tween_delay: Num,
        pub ease_type: i32,
        pub custom_ease_path: String,
    }
}

/// The default of [`NodeBase::explicit_size`] for a node given without it.
fn written() -> bool {
    true
}
