//! The XML names of FairyGUI enumerations, by the number the model keeps. The first name
//! of each value is the one the FairyGUI editor writes; later ones are other spellings the
//! reader also accepts. The reader looks names up here and the writer spells values from
//! here, so the two cannot disagree.

/// Horizontal alignment (text, loaders, lists).
pub const ALIGN: &[(&str, i32)] = &[("left", 0), ("center", 1), ("right", 2)];
/// Vertical alignment.
pub const VALIGN: &[(&str, i32)] = &[("top", 0), ("middle", 1), ("bottom", 2)];
/// Overflow of a component or list.
pub const OVERFLOW: &[(&str, i32)] = &[("visible", 0), ("hidden", 1), ("scroll", 2)];
/// Scroll direction.
pub const SCROLL: &[(&str, i32)] = &[("horizontal", 0), ("vertical", 1), ("both", 2)];
/// When scroll bars show.
pub const SCROLL_BAR: &[(&str, i32)] =
    &[("default", 0), ("visible", 1), ("auto", 2), ("hidden", 3)];
/// How a text field sizes itself.
pub const AUTO_SIZE: &[(&str, i32)] = &[
    ("none", 0),
    ("both", 1),
    ("height", 2),
    ("shrink", 3),
    ("ellipsis", 4),
];
/// Image flip.
pub const FLIP: &[(&str, i32)] = &[("none", 0), ("hz", 1), ("vt", 2), ("both", 3)];
/// Image and loader fill methods.
pub const FILL_METHOD: &[(&str, i32)] = &[
    ("none", 0),
    ("hz", 1),
    ("vt", 2),
    ("radial90", 3),
    ("radial180", 4),
    ("radial360", 5),
];
/// How a loader fills its box.
pub const LOADER_FILL: &[(&str, i32)] = &[
    ("none", 0),
    ("scale", 1),
    ("scaleMatchHeight", 2),
    ("scaleMatchWidth", 3),
    ("scaleFree", 4),
    ("scaleNoBorder", 5),
];
/// List layouts.
pub const LIST_LAYOUT: &[(&str, i32)] = &[
    ("column", 0),
    ("row", 1),
    ("flow_hz", 2),
    ("flow_vt", 3),
    ("pagination", 4),
    ("singleColumn", 0),
    ("singleRow", 1),
    ("flowHorizontal", 2),
    ("flowVertical", 3),
];
/// List selection modes.
pub const SELECTION_MODE: &[(&str, i32)] = &[
    ("single", 0),
    ("multiple", 1),
    ("multipleSingleClick", 2),
    ("none", 3),
];
/// The order a list renders its children in.
pub const RENDER_ORDER: &[(&str, i32)] = &[("ascent", 0), ("descent", 1), ("arch", 2)];
/// Graph shapes; `eclipse` is how the editor spells the ellipse.
pub const GRAPH_TYPE: &[(&str, i32)] = &[
    ("empty", 0),
    ("rect", 1),
    ("eclipse", 2),
    ("ellipse", 2),
    ("polygon", 3),
    ("regular_polygon", 4),
    ("regularPolygon", 4),
];
/// Group layouts.
pub const GROUP_LAYOUT: &[(&str, i32)] = &[
    ("none", 0),
    ("hz", 1),
    ("horizontal", 1),
    ("vt", 2),
    ("vertical", 2),
];
/// Where a ComboBox instance opens its list.
pub const POPUP_DIRECTION: &[(&str, i32)] = &[("auto", 0), ("up", 1), ("down", 2)];
/// Button modes (the root `<Button mode>`).
pub const BUTTON_MODE: &[(&str, i32)] = &[("Common", 0), ("Check", 1), ("Radio", 2)];
/// Button press effects.
pub const DOWN_EFFECT: &[(&str, i32)] = &[("none", 0), ("dark", 1), ("scale", 2)];
/// What a progress bar or slider title shows.
pub const TITLE_TYPE: &[(&str, i32)] =
    &[("percent", 0), ("valueAndmax", 1), ("value", 2), ("max", 3)];
/// Controller action types.
pub const ACTION_TYPE: &[(&str, i32)] = &[("play_transition", 0), ("change_page", 1)];
