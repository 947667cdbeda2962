//! One atlas page: what is drawn where on it, and its PNG file. The pixels exist only
//! while the page is encoded, so publishing a package holds its decoded pictures and one
//! page at a time, not every page at once.

use std::sync::Arc;

use super::settings::Turn;
use super::sources::{Keep, Picture};
use crate::publish::PublishError;

/// An atlas page: the item the descriptor lists (`id`, `file`, size) and the pictures on it.
#[derive(Clone, PartialEq)]
pub struct AtlasPage {
    /// The atlas item's id (`atlas0`, `atlas100`, `atlas_<imageId>`).
    pub id: String,
    /// The file the item names (`atlas0.png`); published as `<Package>_<file>`.
    pub file: String,
    pub width: u32,
    pub height: u32,
    pixels: PagePixels,
    placed: Vec<Placed>,
}

/// How a page's pixels are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PagePixels {
    /// As the pictures' files hold them, the colour of clear pixels included: today's
    /// editor (version 7 pages equal their PNGs byte for byte).
    AsStored,
    /// As the editor that wrote version 2 wrote them, through a premultiplied byte and
    /// back (see [`old_editor_rounding`]).
    OldEditorRounding,
}

/// A picture's place on a page: its top-left pixel, and which way it is turned, if at all.
#[derive(Clone, PartialEq)]
struct Placed {
    picture: Arc<Picture>,
    x: u32,
    y: u32,
    turn: Option<Turn>,
}

impl std::fmt::Debug for AtlasPage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AtlasPage")
            .field("id", &self.id)
            .field("file", &self.file)
            .field("width", &self.width)
            .field("height", &self.height)
            .field("pictures", &self.placed.len())
            .finish()
    }
}

impl AtlasPage {
    /// An empty page.
    pub(crate) fn new(
        id: String,
        file: String,
        (width, height): (u32, u32),
        pixels: PagePixels,
    ) -> Self {
        AtlasPage {
            id,
            file,
            width,
            height,
            pixels,
            placed: Vec::new(),
        }
    }

    /// Puts the kept part of a picture with its top-left at `x`, `y`, turned a quarter
    /// as `turn` says.
    pub(crate) fn place(&mut self, picture: Arc<Picture>, x: u32, y: u32, turn: Option<Turn>) {
        self.placed.push(Placed {
            picture,
            x,
            y,
            turn,
        });
    }

    /// The page's pixels, straight RGBA row by row, as its file holds them.
    pub fn render(&self) -> Vec<u8> {
        let mut canvas = Canvas::new(self.width, self.height);
        for placed in &self.placed {
            let picture = &placed.picture;
            canvas.draw(picture, placed.x, placed.y, placed.turn);
            if picture.extrude {
                let (w, h) = (picture.keep.width, picture.keep.height);
                let (w, h) = if placed.turn.is_some() {
                    (h, w)
                } else {
                    (w, h)
                };
                canvas.extrude(placed.x, placed.y, w, h);
            }
        }
        if self.pixels == PagePixels::OldEditorRounding {
            canvas
                .pixels
                .chunks_exact_mut(4)
                .for_each(old_editor_rounding);
        }
        canvas.pixels
    }

    /// The page as a PNG file: straight (not premultiplied) RGBA, as the editor's pages
    /// are.
    pub fn encode_png(&self) -> Result<Vec<u8>, PublishError> {
        self.png(png::ColorType::Rgba, &self.render())
    }

    /// The page as two PNG files, for runtimes that take alpha from a texture of its own
    /// (`extractAlpha`, for GPU formats without alpha): the colours (straight RGB, clear
    /// pixels black) and, when any pixel is not opaque, the alpha in all three channels
    /// of an RGB picture (the Unity runtime's shader reads its green).
    pub fn encode_png_separate_alpha(&self) -> Result<(Vec<u8>, Option<Vec<u8>>), PublishError> {
        let pixels = self.render();
        let count = pixels.len() / 4;
        let mut colours = Vec::with_capacity(count * 3);
        let mut alphas = Vec::with_capacity(count * 3);
        let mut translucent = false;
        for pixel in pixels.chunks_exact(4) {
            let alpha = pixel[3];
            if alpha == 0 {
                colours.extend_from_slice(&[0; 3]);
            } else {
                colours.extend_from_slice(&pixel[..3]);
            }
            alphas.extend_from_slice(&[alpha; 3]);
            translucent |= alpha != 255;
        }
        let colour_png = self.png(png::ColorType::Rgb, &colours)?;
        let alpha_png = if translucent {
            Some(self.png(png::ColorType::Rgb, &alphas)?)
        } else {
            None
        };
        Ok((colour_png, alpha_png))
    }

    fn png(&self, colour: png::ColorType, pixels: &[u8]) -> Result<Vec<u8>, PublishError> {
        let failed = |e: png::EncodingError| PublishError::PageEncoding {
            file: self.file.clone(),
            reason: e.to_string(),
        };
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, self.width, self.height);
        encoder.set_color(colour);
        encoder.set_depth(png::BitDepth::Eight);
        // Measured on the unity corpus's 10 Mpx of pages: fast deflate with the Up filter
        // writes 10.3 MB in about 0.1 s; Paeth 8.5 MB in 40 % more time (the editor's pages
        // are 8.7 MB). Paeth: 0.04 s buys pages as small as the editor's, and every copy
        // of them (component, host, output instance) is 1.8 MB smaller.
        encoder.set_compression(png::Compression::Fast);
        encoder.set_filter(png::FilterType::Paeth);
        let mut writer = encoder.write_header().map_err(failed)?;
        writer.write_image_data(pixels).map_err(failed)?;
        writer.finish().map_err(failed)?;
        Ok(out)
    }
}

/// A straight pixel as the editor that wrote version 2 wrote it: it held pages
/// premultiplied in bytes, a channel truncated to `c·a/256`, and read them back through the
/// 8.8 reciprocal of alpha with a bias just under a half; below alpha 3 a pixel came back
/// clear, and opaque ones untouched. Inferred from the unity corpus, where it gives the
/// editor's value for every one of the 56,780 (alpha, channel) pairs its 28 version-2 pages
/// hold.
fn old_editor_rounding(pixel: &mut [u8]) {
    let alpha = u32::from(pixel[3]);
    match alpha {
        255 => {}
        0..=2 => pixel.fill(0),
        _ => {
            let reciprocal = 0xFF00 / alpha;
            for channel in &mut pixel[..3] {
                let premultiplied = (u32::from(*channel) * alpha) >> 8;
                *channel = ((premultiplied * reciprocal + 127) >> 8).min(255) as u8;
            }
        }
    }
}

/// A page's pixels while it is drawn.
struct Canvas {
    width: u32,
    height: u32,
    /// Straight RGBA, row by row.
    pixels: Vec<u8>,
}

impl Canvas {
    fn new(width: u32, height: u32) -> Self {
        // A page holds at most about 16 M pixels (64 MiB), as a decoded asset may: shared
        // pages are at most 4096 on a side, and a page of its own is rounded up only
        // within that bound (the packer sees to both).
        let len = width as usize * height as usize * 4;
        Canvas {
            width,
            height,
            pixels: vec![0; len],
        }
    }

    fn stride(&self) -> usize {
        self.width as usize * 4
    }

    /// Draws the kept part of a picture with its top-left at `x`, `y`, turned a quarter:
    /// counter-clockwise, its first column becomes the bottom row (Unity); clockwise, the
    /// right-most column (Cocos). Pixels outside the page are skipped.
    fn draw(&mut self, picture: &Picture, x: u32, y: u32, turn: Option<Turn>) {
        let Keep {
            x: kx,
            y: ky,
            width,
            height,
        } = picture.keep;
        let source = picture.image.data();
        let source_stride = picture.image.width() as usize * 4;
        let stride = self.stride();
        let (page_width, page_height) = (self.width as usize, self.height as usize);
        let (x, y, kx, ky) = (x as usize, y as usize, kx as usize, ky as usize);
        let (width, height) = (width as usize, height as usize);
        let Some(turn) = turn else {
            let visible = width.min(page_width.saturating_sub(x));
            for row in 0..height.min(page_height.saturating_sub(y)) {
                let from = (ky + row) * source_stride + kx * 4;
                let to = (y + row) * stride + x * 4;
                let (Some(from), Some(to)) = (
                    source.get(from..from + visible * 4),
                    self.pixels.get_mut(to..to + visible * 4),
                ) else {
                    continue;
                };
                to.copy_from_slice(from);
            }
            return;
        };
        // Counter-clockwise, source (sx, sy) lands at (x + sy, y + width - 1 - sx);
        // clockwise, at (x + height - 1 - sy, y + sx).
        for sy in 0..height {
            let from = (ky + sy) * source_stride + kx * 4;
            let Some(row) = source.get(from..from + width * 4) else {
                continue;
            };
            let column = match turn {
                Turn::CounterClockwise => x + sy,
                Turn::Clockwise => x + height - 1 - sy,
            };
            if column >= page_width {
                continue;
            }
            for (sx, pixel) in row.chunks_exact(4).enumerate() {
                let line = match turn {
                    Turn::CounterClockwise => y + width - 1 - sx,
                    Turn::Clockwise => y + sx,
                };
                if line >= page_height {
                    continue;
                }
                let to = line * stride + column * 4;
                if let Some(target) = self.pixels.get_mut(to..to + 4) {
                    target.copy_from_slice(pixel);
                }
            }
        }
    }

    /// Copies the outermost rows and then columns of the rectangle one pixel outward (the
    /// editor's `duplicatePadding`), so the corners take the corner pixels, as today's
    /// editor's pages have them (the old editor left corners clear).
    fn extrude(&mut self, x: u32, y: u32, width: u32, height: u32) {
        let stride = self.stride();
        let (x, y, width, height) = (x as usize, y as usize, width as usize, height as usize);
        let page_height = self.height as usize;
        let page_width = self.width as usize;
        if width == 0 || height == 0 || x + width > page_width || y + height > page_height {
            return;
        }
        // From here on every index below is inside the page.
        let row_len = width * 4;
        let copy_row = |pixels: &mut Vec<u8>, from: usize, to: usize| {
            let (from, to) = (from * stride + x * 4, to * stride + x * 4);
            pixels.copy_within(from..from + row_len, to);
        };
        if y > 0 {
            copy_row(&mut self.pixels, y, y - 1);
        }
        if y + height < page_height {
            copy_row(&mut self.pixels, y + height - 1, y + height);
        }
        let (top, bottom) = (y.saturating_sub(1), (y + height + 1).min(page_height));
        for row in top..bottom {
            let start = row * stride;
            if x > 0 {
                self.pixels
                    .copy_within(start + x * 4..start + x * 4 + 4, start + (x - 1) * 4);
            }
            if x + width < page_width {
                let last = start + (x + width - 1) * 4;
                self.pixels.copy_within(last..last + 4, last + 4);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::render::straight::StraightImage;

    use super::*;
    use crate::publish::atlas::sources::Bin;

    /// An opaque picture whose pixel (x, y) has red x and green y.
    fn picture(width: u32, height: u32) -> Picture {
        let mut image = StraightImage::new(width, height).expect("size");
        for (i, pixel) in image.data_mut().chunks_exact_mut(4).enumerate() {
            let (x, y) = (i as u32 % width, i as u32 / width);
            pixel.copy_from_slice(&[x as u8, y as u8, 7, 255]);
        }
        Picture {
            names: Vec::new(),
            keep: Keep {
                x: 0,
                y: 0,
                width,
                height,
            },
            bin: Bin::Shared {
                branch: String::new(),
                slot: 0,
            },
            extrude: false,
            image,
        }
    }

    fn pixel(page: &Canvas, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * page.width + x) * 4) as usize;
        page.pixels[i..i + 4].try_into().expect("4 bytes")
    }

    #[test]
    fn draws_upright_and_turned_a_quarter_counter_clockwise() {
        let picture = picture(3, 2);
        let mut page = Canvas::new(8, 8);
        page.draw(&picture, 1, 1, None);
        assert_eq!(pixel(&page, 1, 1), [0, 0, 7, 255]);
        assert_eq!(pixel(&page, 3, 2), [2, 1, 7, 255]);
        // Turned: 2 wide and 3 tall; the picture's first column is the bottom row.
        page.draw(&picture, 5, 4, Some(Turn::CounterClockwise));
        assert_eq!(pixel(&page, 5, 6), [0, 0, 7, 255]);
        assert_eq!(pixel(&page, 6, 6), [0, 1, 7, 255]);
        assert_eq!(pixel(&page, 5, 4), [2, 0, 7, 255]);
        // Off the page: clipped, not wrapped onto the next row, not a panic.
        page.draw(&picture, 6, 1, None);
        assert_eq!(pixel(&page, 7, 1), [1, 0, 7, 255]);
        assert_eq!(pixel(&page, 0, 2), [0, 0, 0, 0]);
        page.draw(&picture, 7, 7, Some(Turn::CounterClockwise));
        assert_eq!(pixel(&page, 7, 7), [2, 0, 7, 255]);
        page.draw(&picture, 9, 9, Some(Turn::CounterClockwise));
    }

    #[test]
    fn draws_turned_a_quarter_clockwise_for_cocos() {
        let picture = picture(3, 2);
        let mut page = Canvas::new(4, 4);
        // 2 wide and 3 tall; the picture's first row is the right-most column.
        page.draw(&picture, 0, 0, Some(Turn::Clockwise));
        assert_eq!(pixel(&page, 1, 0), [0, 0, 7, 255]);
        assert_eq!(pixel(&page, 0, 0), [0, 1, 7, 255]);
        assert_eq!(pixel(&page, 1, 2), [2, 0, 7, 255]);
        assert_eq!(pixel(&page, 0, 2), [2, 1, 7, 255]);
        // Past the page's edge: clipped.
        page.draw(&picture, 3, 3, Some(Turn::Clockwise));
        assert_eq!(pixel(&page, 3, 3), [0, 1, 7, 255]);
    }

    #[test]
    fn extrudes_edges_and_corners() {
        let picture = picture(2, 2);
        let mut page = Canvas::new(4, 4);
        page.draw(&picture, 1, 1, None);
        page.extrude(1, 1, 2, 2);
        assert_eq!(pixel(&page, 1, 0), pixel(&page, 1, 1));
        assert_eq!(pixel(&page, 2, 3), pixel(&page, 2, 2));
        assert_eq!(pixel(&page, 0, 2), pixel(&page, 1, 2));
        assert_eq!(pixel(&page, 3, 1), pixel(&page, 2, 1));
        assert_eq!(pixel(&page, 0, 0), pixel(&page, 1, 1));
        assert_eq!(pixel(&page, 3, 3), pixel(&page, 2, 2));
        // A rectangle past the page is left alone.
        page.extrude(3, 3, 2, 2);
    }

    /// A 2×1 page whose left pixel is half-transparent orange and whose right pixel is
    /// clear.
    fn translucent_page() -> AtlasPage {
        let mut translucent = picture(1, 1);
        translucent
            .image
            .data_mut()
            .copy_from_slice(&[128, 64, 0, 128]);
        let mut page = AtlasPage::new(
            "atlas0".into(),
            "atlas0.png".into(),
            (2, 1),
            PagePixels::AsStored,
        );
        page.place(Arc::new(translucent), 0, 0, None);
        page
    }

    /// A PNG's size, colour type and pixels.
    fn decoded(png: &[u8]) -> ((u32, u32), png::ColorType, Vec<u8>) {
        let mut reader = png::Decoder::new(png).read_info().expect("a PNG");
        let mut out = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut out).expect("a frame");
        ((info.width, info.height), info.color_type, out)
    }

    #[test]
    fn pages_are_written_as_straight_rgba_png() {
        let png = translucent_page().encode_png().expect("encodes");
        assert_eq!(
            decoded(&png),
            (
                (2, 1),
                png::ColorType::Rgba,
                vec![128, 64, 0, 128, 0, 0, 0, 0]
            )
        );
    }

    #[test]
    fn separate_alpha_pages_split_colours_and_alpha_and_skip_an_opaque_alpha() {
        let page = translucent_page();
        let (colours, alpha) = page.encode_png_separate_alpha().expect("encodes");
        assert_eq!(
            decoded(&colours),
            ((2, 1), png::ColorType::Rgb, vec![128, 64, 0, 0, 0, 0])
        );
        let alpha = alpha.expect("a translucent page has an alpha picture");
        assert_eq!(
            decoded(&alpha),
            ((2, 1), png::ColorType::Rgb, vec![128, 128, 128, 0, 0, 0])
        );

        let mut opaque = AtlasPage::new(
            "atlas0".into(),
            "atlas0.png".into(),
            (3, 2),
            PagePixels::AsStored,
        );
        opaque.place(Arc::new(picture(3, 2)), 0, 0, None);
        let (_, alpha) = opaque.encode_png_separate_alpha().expect("encodes");
        assert!(alpha.is_none());
    }

    #[test]
    fn pages_keep_their_pictures_pixels_or_the_old_editors_rounding() {
        // Clear with a colour, alpha 2, 3 and 14, and opaque.
        let stored = [
            9, 8, 7, 0, 255, 255, 0, 2, 255, 170, 85, 3, 19, 18, 37, 14, 1, 2, 3, 255,
        ];
        let page = |pixels| {
            let mut picture = picture(5, 1);
            picture.image.data_mut().copy_from_slice(&stored);
            let mut page = AtlasPage::new("atlas0".into(), "atlas0.png".into(), (5, 1), pixels);
            page.place(Arc::new(picture), 0, 0, None);
            page
        };
        assert_eq!(page(PagePixels::AsStored).render(), stored);
        // Values the version-2 pages of the unity corpus hold for these pixels.
        assert_eq!(
            page(PagePixels::OldEditorRounding).render(),
            [
                0, 0, 0, 0, 0, 0, 0, 0, 170, 85, 0, 3, 18, 0, 36, 14, 1, 2, 3, 255
            ]
        );
    }
}
