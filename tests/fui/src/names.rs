//! Names for the format's numeric codes as the decoded JSON shows them. The index is the code.

/// Package item types (segment 1).
pub(crate) const ITEM_TYPES: &[&str] = &[
    "image",
    "movieclip",
    "sound",
    "component",
    "atlas",
    "font",
    "swf",
    "misc",
    "unknown",
    "spine",
    "dragonbones",
];

/// Display-object types (child block 0, component extensions).
pub(crate) const OBJECT_TYPES: &[&str] = &[
    "image",
    "movieclip",
    "swf",
    "graph",
    "loader",
    "group",
    "text",
    "richtext",
    "inputtext",
    "component",
    "list",
    "label",
    "button",
    "combobox",
    "progressbar",
    "slider",
    "scrollbar",
    "tree",
    "loader3d",
];

/// Object type codes the decoder branches on.
pub(crate) mod object {
    pub(crate) const IMAGE: u8 = 0;
    pub(crate) const MOVIECLIP: u8 = 1;
    pub(crate) const GRAPH: u8 = 3;
    pub(crate) const LOADER: u8 = 4;
    pub(crate) const GROUP: u8 = 5;
    pub(crate) const TEXT: u8 = 6;
    pub(crate) const RICHTEXT: u8 = 7;
    pub(crate) const INPUTTEXT: u8 = 8;
    pub(crate) const COMPONENT: u8 = 9;
    pub(crate) const LIST: u8 = 10;
    pub(crate) const LABEL: u8 = 11;
    pub(crate) const BUTTON: u8 = 12;
    pub(crate) const COMBOBOX: u8 = 13;
    pub(crate) const PROGRESSBAR: u8 = 14;
    pub(crate) const SLIDER: u8 = 15;
    pub(crate) const SCROLLBAR: u8 = 16;
    pub(crate) const TREE: u8 = 17;
    pub(crate) const LOADER3D: u8 = 18;

    /// Text fields of every kind share one property layout.
    pub(crate) fn is_text(code: u8) -> bool {
        matches!(code, TEXT | RICHTEXT | INPUTTEXT)
    }

    /// Lists and trees share one layout (a tree adds a little).
    pub(crate) fn is_list(code: u8) -> bool {
        matches!(code, LIST | TREE)
    }

    /// Instances of a component: plain ones and every extension kind.
    pub(crate) fn is_component_instance(code: u8) -> bool {
        matches!(code, COMPONENT | LABEL..=SCROLLBAR)
    }
}

pub(crate) const GEAR_TYPES: &[&str] = &[
    "display",
    "xy",
    "size",
    "look",
    "color",
    "animation",
    "text",
    "icon",
    "display2",
    "fontsize",
];

pub(crate) const RELATION_TYPES: &[&str] = &[
    "left-left",
    "left-center",
    "left-right",
    "center-center",
    "right-left",
    "right-center",
    "right-right",
    "top-top",
    "top-middle",
    "top-bottom",
    "middle-middle",
    "bottom-top",
    "bottom-middle",
    "bottom-bottom",
    "width-width",
    "height-height",
    "leftext-left",
    "leftext-right",
    "rightext-left",
    "rightext-right",
    "topext-top",
    "topext-bottom",
    "bottomext-top",
    "bottomext-bottom",
    "size",
];

/// Transition item types; "Unknown" (16) has no value.
pub(crate) const TRANSITION_TYPES: &[&str] = &[
    "XY",
    "Size",
    "Scale",
    "Pivot",
    "Alpha",
    "Rotation",
    "Color",
    "Animation",
    "Visible",
    "Sound",
    "Transition",
    "Shake",
    "ColorFilter",
    "Skew",
    "Text",
    "Icon",
    "Unknown",
];

pub(crate) const EASE_TYPES: &[&str] = &[
    "Linear",
    "Sine.In",
    "Sine.Out",
    "Sine.InOut",
    "Quad.In",
    "Quad.Out",
    "Quad.InOut",
    "Cubic.In",
    "Cubic.Out",
    "Cubic.InOut",
    "Quart.In",
    "Quart.Out",
    "Quart.InOut",
    "Quint.In",
    "Quint.Out",
    "Quint.InOut",
    "Expo.In",
    "Expo.Out",
    "Expo.InOut",
    "Circ.In",
    "Circ.Out",
    "Circ.InOut",
    "Elastic.In",
    "Elastic.Out",
    "Elastic.InOut",
    "Back.In",
    "Back.Out",
    "Back.InOut",
    "Bounce.In",
    "Bounce.Out",
    "Bounce.InOut",
    "Custom",
];

/// The ease whose curve is stored as a path after the tween (format version 4 on).
pub(crate) const EASE_CUSTOM: u8 = 31;

pub(crate) const CURVE_TYPES: &[&str] = &["CRSpline", "Bezier", "CubicBezier", "Straight"];

pub(crate) const BLEND_MODES: &[&str] = &[
    "normal",
    "none",
    "add",
    "multiply",
    "screen",
    "erase",
    "mask",
    "below",
    "off",
    "one_oneminussrcalpha",
    "custom1",
    "custom2",
    "custom3",
];

pub(crate) const OVERFLOW: &[&str] = &["visible", "hidden", "scroll"];
/// Overflow code that puts scroll settings in a block of their own.
pub(crate) const OVERFLOW_SCROLL: u8 = 2;
pub(crate) const SCROLL_TYPES: &[&str] = &["horizontal", "vertical", "both"];
pub(crate) const SCROLLBAR_DISPLAY: &[&str] = &["default", "visible", "auto", "hidden"];
/// Scroll flag bits, lowest first.
pub(crate) const SCROLL_FLAGS: &[&str] = &[
    "displayOnLeft",
    "snapToItem",
    "displayInDemand",
    "pageMode",
    "touchEffect",
    "noTouchEffect",
    "bounceBack",
    "noBounceBack",
    "inertiaDisabled",
    "maskDisabled",
    "floating",
    "dontClipMargin",
];
pub(crate) const ALIGN: &[&str] = &["left", "center", "right"];
pub(crate) const VALIGN: &[&str] = &["top", "middle", "bottom"];
pub(crate) const FILL_TYPES: &[&str] = &[
    "none",
    "scale",
    "scaleMatchHeight",
    "scaleMatchWidth",
    "scaleFree",
    "scaleNoBorder",
];
pub(crate) const AUTOSIZE: &[&str] = &["none", "both", "height", "shrink", "ellipsis"];
pub(crate) const LIST_LAYOUT: &[&str] = &["column", "row", "flow_hz", "flow_vt", "pagination"];
pub(crate) const LIST_SELECTION: &[&str] = &["single", "multiple", "multipleSingleClick", "none"];
pub(crate) const CHILDREN_ORDER: &[&str] = &["ascent", "descent", "arch"];
pub(crate) const GROUP_LAYOUT: &[&str] = &["none", "hz", "vt"];
pub(crate) const BUTTON_MODE: &[&str] = &["Common", "Check", "Radio"];
pub(crate) const DOWN_EFFECT: &[&str] = &["none", "dark", "scale"];
pub(crate) const TITLE_TYPE: &[&str] = &["percent", "valueAndmax", "value", "max"];
pub(crate) const POPUP_DIRECTION: &[&str] = &["auto", "up", "down"];
pub(crate) const FLIP: &[&str] = &["none", "hz", "vt", "both"];
pub(crate) const FILL_METHOD: &[&str] = &["none", "hz", "vt", "radial90", "radial180", "radial360"];
pub(crate) const GRAPH_SHAPES: &[&str] =
    &["empty", "rect", "eclipse", "polygon", "regular_polygon"];
pub(crate) const HOME_PAGE_TYPES: &[&str] = &["default", "specific", "branch", "variable"];
pub(crate) const DISPLAY2_CONDITION: &[&str] = &["and", "or"];
pub(crate) const CONTROLLER_ACTIONS: &[&str] = &["play_transition", "change_page"];
pub(crate) const IMAGE_SCALE: &[&str] = &["none", "9grid", "tile"];
