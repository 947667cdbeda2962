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

/// A cell is solid when the image's pixel nearest its centre has an alpha above this.
/// Sampling the cell's centre in the image scaled to the mask's size (rather than a 2×2
/// block) gives every bit of 6 of the 9 masks the editors published for the runtimes'
/// HitTest examples, and at least 98.3 % of the others' (`tests/fixtures/engines`,
/// EDITOR.md).
const SOLID_ALPHA: u8 = 10;

/// How a mask's side follows from the image's: halved, and an odd side's half cell
/// dropped (the editor that wrote version 2) or rounded to the even neighbour (today's:
/// 131 px give 66 cells, 121 px and 169 px give 60 and 84, as its LayaAir and Cocos
/// Creator output shows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HalfSide {
    Down,
    ToEven,
}

impl HalfSide {
    fn of(self, side: u32) -> u32 {
        let half = side / 2;
        match self {
            HalfSide::ToEven if side % 2 == 1 && half % 2 == 1 => half + 1,
            _ => half,
        }
    }
}

/// The mask of a whole (untrimmed) image at half resolution, its sides halved as
/// `half_side` says.
pub(crate) fn mask(image: &StraightImage, half_side: HalfSide) -> HitMask {
    let width = half_side.of(image.width());
    let height = half_side.of(image.height());
    let (image_width, image_height) = (image.width() as usize, image.height() as usize);
    let data = image.data();
    let cells = width as usize * height as usize;
    let mut bits = vec![0u8; cells.div_ceil(8)];
    // The image pixel under a cell's centre: (2c + 1) / 2 cells, scaled to the image.
    let nearest =
        |cell: usize, cells: u32, side: usize| (2 * cell + 1) * side / (2 * cells as usize);
    let mut cell = 0usize;
    for cy in 0..height as usize {
        let y = nearest(cy, height, image_height);
        for cx in 0..width as usize {
            let x = nearest(cx, width, image_width);
            let alpha = data
                .get((y * image_width + x) * 4 + 3)
                .copied()
                .unwrap_or(0);
            if alpha > SOLID_ALPHA
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
    fn cells_sample_the_pixel_under_their_centre_least_significant_bit_first() {
        // 4×4: cell (cx, cy) samples pixel (2cx + 1, 2cy + 1).
        let mut image = StraightImage::new(4, 4).expect("size");
        for (x, y, a) in [(3, 1, 255), (1, 3, 11), (3, 3, 10), (0, 0, 255)] {
            let i = (y * 4 + x) * 4;
            image.data_mut()[i..i + 4].copy_from_slice(&[a, a, a, a]);
        }
        let mask = mask(&image, HalfSide::Down);
        assert_eq!((mask.width, mask.height), (2, 2));
        assert_eq!(mask.bits, [0b0110]);
    }

    #[test]
    fn an_odd_side_rounds_to_the_even_half_today() {
        // 7 px: 3.5 cells, 4 today and 3 for the old editor; 5 px: 2 cells either way.
        let image = StraightImage::new(7, 5).expect("size");
        let today = mask(&image, HalfSide::ToEven);
        assert_eq!((today.width, today.height, today.bits.len()), (4, 2, 1));
        let old = mask(&image, HalfSide::Down);
        assert_eq!((old.width, old.height), (3, 2));
        // 121, 131 and 169 px, as today's editor halves them.
        let sides: Vec<u32> = [121, 131, 169].map(|s| HalfSide::ToEven.of(s)).to_vec();
        assert_eq!(sides, [60, 66, 84]);
    }
}
