//! The blocks an asset element has when it carries none of their attributes: what the
//! reader reads such an element as, and what `addResource` gives a new asset whose payload
//! leaves the block out (so a save writes it as the bare element the editor writes for a
//! fresh import).

use ofgui_contracts::Num;
use ofgui_contracts::uam::{ImageResourceProperties, MovieClipResourceProperties};

/// `<image>` without `atlas`, `qualityOption`, `quality`, `smoothing`,
/// `duplicatePadding`, `scale`, `scale9grid` or `gridTile`.
pub fn bare_image() -> ImageResourceProperties {
    ImageResourceProperties {
        texture_set_mode: String::new(),
        quality_option: String::new(),
        quality: Num::ZERO,
        smoothing: true,
        duplicate_padding: false,
        scale_option: 0,
        scale9_grid: None,
        tile_grid_indice: Num::ZERO,
    }
}

/// `<movieclip>` without `smoothing`; the timing and frames come from the `.jta` file.
pub fn bare_movie_clip() -> MovieClipResourceProperties {
    MovieClipResourceProperties {
        interval: Num::ZERO,
        repeat_delay: Num::ZERO,
        swing: false,
        smoothing: true,
        frames: Vec::new(),
    }
}
