//! What the atlas phase is told: the project's `atlasSetting` (`settings/Publish.json`), which
//! a package's `<publish>` element overrides when it carries atlas attributes of its own.

use ofgui_contracts::uam::{UamPackage, UamProject};
use serde_json::Value;

/// The editor's default page side limit.
const DEFAULT_MAX_SIZE: u32 = 2048;
/// The largest page side honoured: a 4096² page is 64 MiB of RGBA, the most one image may
/// decode to (`render::image::MAX_PIXELS`), so a setting cannot make a session allocate
/// more for a page than for an asset.
const LARGEST_MAX_SIZE: u32 = 4096;
/// The editor's gap between sprites.
const DEFAULT_PADDING: u32 = 2;
const LARGEST_PADDING: u32 = 16;

/// How a page's sides are rounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum SizeOption {
    /// Powers of two (`pot`).
    PowerOfTwo,
    /// Any size (`npot`).
    Any,
    /// Multiples of four (`mof`).
    MultipleOfFour,
}

impl SizeOption {
    fn of(name: &str) -> Self {
        match name {
            "npot" => SizeOption::Any,
            "mof" => SizeOption::MultipleOfFour,
            _ => SizeOption::PowerOfTwo,
        }
    }

    /// The smallest side at least `len` this option allows.
    pub fn round_up(self, len: u32) -> u32 {
        let len = len.max(1);
        match self {
            SizeOption::PowerOfTwo => len.checked_next_power_of_two().unwrap_or(len),
            SizeOption::Any => len,
            SizeOption::MultipleOfFour => len.div_ceil(4).saturating_mul(4),
        }
    }
}

/// Which way a turned sprite lies on its page, and what its rectangle records: each
/// runtime draws turned sprites its own way, and the editor writes them for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Turn {
    /// A quarter counter-clockwise, the rectangle holding the extents on the page (Unity and
    /// the runtimes built like it).
    CounterClockwise,
    /// A quarter clockwise, the rectangle holding the picture's own width and height, as
    /// Cocos sprite frames take them (seen in the editor's Cocos2d-x and Cocos Creator
    /// output).
    Clockwise,
}

impl Turn {
    /// The engine's way, or `None` when its runtime cannot draw a turned sprite (LayaAir's
    /// reads the flag and ignores it), so nothing may be turned whatever the settings say.
    fn of(project: &UamProject) -> Option<Self> {
        match project.project_type_name.as_str() {
            "Cocos2dx" | "CocosCreator" => Some(Turn::Clockwise),
            "Layabox" => None,
            _ => Some(Turn::CounterClockwise),
        }
    }
}

/// The settings of one package's atlases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AtlasSettings {
    /// Largest page side; larger sprites get a page of their own.
    pub max_size: u32,
    pub size_option: SizeOption,
    pub force_square: bool,
    pub allow_rotation: bool,
    /// How a turned sprite is stored (meaningful with `allow_rotation`).
    pub turn: Turn,
    /// Whether sprites that do not fit one page may spill onto more.
    pub paging: bool,
    /// Plain images are cut to their visible pixels.
    pub trim: bool,
    /// Pixels between sprites.
    pub padding: u32,
}

impl AtlasSettings {
    /// The project's settings with the package's overrides. Values out of range fall back
    /// to the editor's defaults (validation reports them).
    pub fn of(project: &UamProject, package: &UamPackage) -> Self {
        let global = project
            .settings
            .get("publish")
            .and_then(|p| p.get("atlasSetting"));
        let flag = |key: &str, default: bool| {
            global
                .and_then(|g| g.get(key))
                .and_then(Value::as_bool)
                .unwrap_or(default)
        };
        let number = |key: &str| global.and_then(|g| g.get(key)).and_then(Value::as_f64);
        let mut settings = AtlasSettings {
            max_size: side(number("maxSize")).unwrap_or(DEFAULT_MAX_SIZE),
            size_option: SizeOption::of(
                global
                    .and_then(|g| g.get("sizeOption"))
                    .and_then(Value::as_str)
                    .unwrap_or("pot"),
            ),
            force_square: flag("forceSquare", false),
            allow_rotation: flag("allowRotation", false),
            turn: Turn::CounterClockwise,
            paging: flag("paging", true),
            trim: flag("trimImage", true),
            padding: number("padding")
                .filter(|p| p.fract() == 0.0 && (0.0..=f64::from(LARGEST_PADDING)).contains(p))
                .map_or(DEFAULT_PADDING, |p| p as u32),
        };
        if let Some(publish) = package
            .publish
            .as_ref()
            .filter(|p| !p.use_global_atlas_settings)
        {
            settings.max_size =
                side(Some(publish.max_atlas_size.get())).unwrap_or(settings.max_size);
            settings.size_option = SizeOption::of(&publish.size_option);
            settings.force_square = publish.force_square;
            settings.allow_rotation = publish.allow_rotation;
            settings.paging = publish.paging;
        }
        match Turn::of(project) {
            Some(turn) => settings.turn = turn,
            None => settings.allow_rotation = false,
        }
        settings
    }
}

/// A page side limit from a setting: whole, at least 1, at most [`LARGEST_MAX_SIZE`].
fn side(value: Option<f64>) -> Option<u32> {
    let value = value.filter(|v| v.fract() == 0.0 && *v >= 1.0)?;
    Some(value.min(f64::from(LARGEST_MAX_SIZE)) as u32)
}

#[cfg(test)]
mod tests {
    use super::SizeOption;

    #[test]
    fn sides_round_up_per_option() {
        assert_eq!(SizeOption::PowerOfTwo.round_up(0), 1);
        assert_eq!(SizeOption::PowerOfTwo.round_up(513), 1024);
        assert_eq!(SizeOption::PowerOfTwo.round_up(512), 512);
        assert_eq!(SizeOption::Any.round_up(513), 513);
        assert_eq!(SizeOption::MultipleOfFour.round_up(513), 516);
        assert_eq!(SizeOption::MultipleOfFour.round_up(u32::MAX), u32::MAX);
    }
}
