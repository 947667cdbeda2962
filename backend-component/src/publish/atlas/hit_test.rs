//! Pixel hit-test masks (segment 3): for an image a component uses as its hit area, which
//! parts of it are solid, at half resolution.

use crate::render::straight::StraightImage;

/// The runtime scales the mask by `1 / SCALE_DIVISOR`; the editor always writes 2.
pub(crate) const SCALE_DIVISOR: u8 = 2;

/// One image's mask: `width` × `height` bits, row by row, least significant bit first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct HitMask {
    pub width: u32,
    pub height: u32,
    pub bits: Vec<u8>,
}

/// A cell counts as solid when its 2×2 block's alpha sum is above this (an average above
/// 11). The editor's own rule is not known: this one matches 98.4–99.9 % of the bits of
/// the three masks it published (`tests/fui/EDITOR.md`), which for hit testing is what
/// matters; the masks are not byte-identical to the editor's.
const SOLID_SUM: u32 = 44;

/// The mask of a whole (untrimmed) image: one cell per 2×2 block, an odd last row or
/// column dropped, as the editor's masks are.
pub(crate) fn mask(pixmap: &StraightImage) -> HitMask {
    let width = pixmap.width() / 2;
    let height = pixmap.height() / 2;
    let stride = pixmap.width() as usize * 4;
    let data = pixmap.data();
    let cells = width as usize * height as usize;
    let mut bits = vec![0u8; cells.div_ceil(8)];
    let alpha =
        |x: usize, y: usize| u32::from(data.get(y * stride + x * 4 + 3).copied().unwrap_or(0));
    let mut cell = 0usize;
    for cy in 0..height as usize {
        for cx in 0..width as usize {
            let (x, y) = (cx * 2, cy * 2);
            let sum = alpha(x, y) + alpha(x + 1, y) + alpha(x, y + 1) + alpha(x + 1, y + 1);
            if sum > SOLID_SUM
                && let Some(byte) = bits.get_mut(cell / 8)
            {
                *byte |= 1 << (cell % 8);
            }
            cell += 1;
        }
    }
    HitMask {
        width,
        height,
        bits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_half_resolution_least_significant_bit_first() {
        let mut pixmap = StraightImage::new(5, 4).expect("size");
        // Solid 2×2 block at cell (1, 0) and at cell (0, 1); a faint one at cell (1, 1).
        for (x, y, a) in [
            (2, 0, 255),
            (3, 0, 255),
            (2, 1, 255),
            (3, 1, 255),
            (0, 2, 200),
            (1, 3, 200),
            (2, 2, 11),
            (3, 3, 11),
        ] {
            let i = (y * 5 + x) * 4;
            pixmap.data_mut()[i..i + 4].copy_from_slice(&[a, a, a, a]);
        }
        let mask = mask(&pixmap);
        assert_eq!((mask.width, mask.height), (2, 2));
        assert_eq!(mask.bits, [0b0110]);
    }
}
