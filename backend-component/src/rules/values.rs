//! Colours, number ranges and enumerations of FairyGUI values.

use std::ops::RangeInclusive;

use ofgui_contracts::Num;

/// A colour as FairyGUI stores it: `#rrggbb`, or `#aarrggbb` with alpha first.
///
/// The editor writes only these two forms, and the runtime reads only them: FairyGUI's
/// `ToolSet.ConvertFromHtmlColor` turns anything shorter than `#rrggbb` (so CSS's `#rgb`
/// shorthand too) into black. A `#rgb` would therefore load as the wrong colour, so the
/// reader reports it, transactions refuse it, and nothing accepts it silently.
pub fn is_color(value: &str) -> bool {
    value
        .strip_prefix('#')
        .is_some_and(|hex| matches!(hex.len(), 6 | 8) && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Alpha, volume scales and fill amounts: a fraction from 0 to 1.
pub const UNIT: RangeInclusive<f64> = 0.0..=1.0;

pub fn is_unit(value: f64) -> bool {
    UNIT.contains(&value)
}

/// A whole number within `range`, for values the editor stores as integers.
pub fn is_whole_in(value: Num, range: RangeInclusive<f64>) -> bool {
    value.get().fract() == 0.0 && range.contains(&value.get())
}

/// Whether a geometry value fits the 32-bit integers the FairyGUI desktop editor stores
/// (by magnitude: fractions are the editor's own business).
pub fn fits_geometry(value: Num) -> bool {
    value.get().abs() <= f64::from(i32::MAX)
}

/// `projectDescription@type` names with upstream OpenFairyGUI's `projectType` numbers
/// (Unity 0 … Vision 12); names match ignoring ASCII case, and the name as written is
/// always kept beside the number (`projectTypeName`).
///
/// The table is checked against every target of the FairyGUI editor (its plugin API's
/// `FairyEditor.ProjectType`: Flash, Starling, Unity, Egret, Layabox, Haxe, PIXI, Cocos2dx,
/// CryEngine, Vision, MonoGame, CocosCreator, LibGDX, Unreal, Corona, ThreeJS, CreateJS,
/// DOM) and the official demo projects (`Cocos2dx`, `ThreeJS`, `Corona`, `DOM`, and `Cry`,
/// the editor's own spelling of CryEngine). Upstream numbers only thirteen of them; the
/// others get [`UNNUMBERED_PROJECT_TYPE`] rather than a number upstream may later give
/// another engine, and never Unity's 0.
pub const PROJECT_TYPES: &[(&str, i32)] = &[
    ("Unity", 0),
    ("Flash", 1),
    ("Starling", 2),
    ("CocosCreator", 3),
    ("Layabox", 4),
    ("Egret", 5),
    ("Haxe", 6),
    ("Pixi", 7),
    ("LibGDX", 8),
    ("Unreal", 9),
    ("CryEngine", 10),
    ("Cry", 10),
    ("MonoGame", 11),
    ("Vision", 12),
    ("Cocos2dx", UNNUMBERED_PROJECT_TYPE),
    ("Corona", UNNUMBERED_PROJECT_TYPE),
    ("ThreeJS", UNNUMBERED_PROJECT_TYPE),
    ("CreateJS", UNNUMBERED_PROJECT_TYPE),
    ("DOM", UNNUMBERED_PROJECT_TYPE),
];

/// The `projectType` of an engine upstream does not number, or of a type this server does
/// not know: `projectTypeName` says which.
pub const UNNUMBERED_PROJECT_TYPE: i32 = -1;

/// The `projectType` number of a `projectDescription@type` name; `None` when the name is
/// not a FairyGUI editor target this server knows.
pub fn project_type(name: &str) -> Option<i32> {
    PROJECT_TYPES
        .iter()
        .find(|(known, _)| known.eq_ignore_ascii_case(name.trim()))
        .map(|(_, number)| *number)
}

/// Whether a value fits the 32-bit float FairyGUI publishes rotation, scale, skew and
/// pivot as (the runtime reads them with `ByteBuffer.ReadFloat`); a larger one would
/// publish as infinity. (Position and size are 32-bit integers: [`fits_geometry`].)
pub fn fits_float(value: Num) -> bool {
    value.get().abs() <= f64::from(f32::MAX)
}

/// Display node blend modes.
pub const BLEND_MODES: [&str; 6] = ["normal", "none", "add", "multiply", "screen", "erase"];

/// Component extension types (the root's `extention` attribute); `''` is a plain component.
pub const EXTENSION_TYPES: [&str; 6] = [
    "Button",
    "Label",
    "ComboBox",
    "ProgressBar",
    "Slider",
    "ScrollBar",
];

/// A component's `extensionType`: `''` or one of [`EXTENSION_TYPES`].
pub fn is_extension_type(value: &str) -> bool {
    value.is_empty() || EXTENSION_TYPES.contains(&value)
}

/// Controller home page types.
pub const HOME_PAGE_TYPES: [&str; 4] = ["default", "specific", "branch", "variable"];

/// Publish atlas size options.
pub const SIZE_OPTIONS: [&str; 3] = ["pot", "npot", "mof"];

/// Tween ease names by easeType (0 Linear … 31 Custom), lower-case without separators:
/// `Quad.Out`, `quad_out` and `QuadOut` all read as `quadout`.
pub const EASES: [&str; 32] = [
    "linear",
    "sinein",
    "sineout",
    "sineinout",
    "quadin",
    "quadout",
    "quadinout",
    "cubicin",
    "cubicout",
    "cubicinout",
    "quartin",
    "quartout",
    "quartinout",
    "quintin",
    "quintout",
    "quintinout",
    "expoin",
    "expoout",
    "expoinout",
    "circin",
    "circout",
    "circinout",
    "elasticin",
    "elasticout",
    "elasticinout",
    "backin",
    "backout",
    "backinout",
    "bouncein",
    "bounceout",
    "bounceinout",
    "custom",
];

/// The default ease of gears and transition items (Quad.Out).
pub const DEFAULT_EASE: i32 = 5;

/// A known easeType.
pub fn is_ease_type(value: i32) -> bool {
    usize::try_from(value).is_ok_and(|index| index < EASES.len())
}

/// FairyGUI `RelationType` by editor side-pair name.
pub const RELATION_TYPES: &[(&str, i32)] = &[
    ("left-left", 0),
    ("left-center", 1),
    ("left-right", 2),
    ("center-center", 3),
    ("right-left", 4),
    ("right-center", 5),
    ("right-right", 6),
    ("top-top", 7),
    ("top-middle", 8),
    ("top-bottom", 9),
    ("middle-middle", 10),
    ("bottom-top", 11),
    ("bottom-middle", 12),
    ("bottom-bottom", 13),
    ("width-width", 14),
    ("height-height", 15),
    // The editor also writes the size pairs by one name.
    ("width", 14),
    ("height", 15),
    ("leftext-left", 16),
    ("leftext-right", 17),
    ("rightext-left", 18),
    ("rightext-right", 19),
    ("topext-top", 20),
    ("topext-bottom", 21),
    ("bottomext-top", 22),
    ("bottomext-bottom", 23),
    ("size", 24),
    ("size-size", 24),
];

/// A known relation type (0 … 24).
pub fn is_relation_type(value: i32) -> bool {
    RELATION_TYPES.iter().any(|(_, known)| *known == value)
}

/// Transition action types by their XML name; anything else is [`UNKNOWN_ACTION`].
pub const TRANSITION_ACTIONS: &[(&str, i32)] = &[
    ("XY", 0),
    ("Size", 1),
    ("Scale", 2),
    ("Pivot", 3),
    ("Alpha", 4),
    ("Rotation", 5),
    ("Color", 6),
    ("Animation", 7),
    ("Visible", 8),
    ("Sound", 9),
    ("Transition", 10),
    ("Shake", 11),
    ("ColorFilter", 12),
    ("Skew", 13),
    ("Text", 14),
    ("Icon", 15),
];

/// The action type of a transition item whose XML type is not one FairyGUI knows.
pub const UNKNOWN_ACTION: i32 = 16;

/// A transition item's actionType: a known action or [`UNKNOWN_ACTION`].
pub fn is_transition_action(value: i32) -> bool {
    value == UNKNOWN_ACTION || TRANSITION_ACTIONS.iter().any(|(_, known)| *known == value)
}

/// An image resource's quality, in percent.
pub const IMAGE_QUALITY: RangeInclusive<f64> = 0.0..=100.0;

/// A nine-grid `[x, y, width, height]` the editor can use: a corner inside the image and
/// a non-empty centre.
pub fn is_scale9_grid(grid: &[Num]) -> bool {
    grid.len() == 4
        && grid[0].get() >= 0.0
        && grid[1].get() >= 0.0
        && grid[2].get() > 0.0
        && grid[3].get() > 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_six_or_eight_hex_digits() {
        assert!(is_color("#ffffff"));
        assert!(is_color("#ff666699"));
        assert!(is_color("#A0b1C2"));
        // The CSS shorthand loads as black in FairyGUI, so it is not a colour here.
        assert!(!is_color("#fff"));
        assert!(!is_color("ffffff"));
        assert!(!is_color("#ggg000"));
        assert!(!is_color("#12345"));
        assert!(!is_color(""));
    }

    #[test]
    fn enumerations_match_their_tables() {
        assert!(is_ease_type(0) && is_ease_type(31) && !is_ease_type(32) && !is_ease_type(-1));
        assert!(is_relation_type(0) && is_relation_type(24) && !is_relation_type(25));
        assert!(is_transition_action(15) && is_transition_action(16));
        assert!(!is_transition_action(17) && !is_transition_action(-1));
        assert!(is_extension_type("") && is_extension_type("Slider"));
        assert!(!is_extension_type("slider"));
    }

    #[test]
    fn ranges() {
        assert!(is_unit(0.0) && is_unit(1.0) && !is_unit(1.01) && !is_unit(-0.1));
        assert!(fits_geometry(Num(-2_147_483_647.0)) && !fits_geometry(Num(2_147_483_648.0)));
        assert!(fits_float(Num(1e12)) && fits_float(Num(-3.4e38)) && !fits_float(Num(1e308)));
        assert!(is_scale9_grid(&[Num(0.0), Num(0.0), Num(1.0), Num(1.0)]));
        assert!(!is_scale9_grid(&[Num(0.0), Num(0.0), Num(0.0), Num(1.0)]));
        assert!(!is_scale9_grid(&[Num(0.0), Num(0.0), Num(1.0)]));
    }
}
