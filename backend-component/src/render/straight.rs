//! Pictures as their files store them: straight (not premultiplied) RGBA. Previews draw
//! premultiplied pixmaps ([`super::image::decode`]); atlases are built from these instead,
//! so a published page carries a PNG's own bytes, the colour of clear pixels included, and
//! nothing is lost to a premultiplied round trip (at alpha 3 one would keep a third of a
//! channel's values).

use tiny_skia::Pixmap;

use super::image::{PNG_SIGNATURE, check_png_size, decode};

/// A decoded picture, straight RGBA row by row.
#[derive(Clone, Debug, PartialEq)]
pub struct StraightImage {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl StraightImage {
    /// A clear picture; `None` for an empty size.
    pub fn new(width: u32, height: u32) -> Option<Self> {
        let len = usize::try_from(u64::from(width) * u64::from(height) * 4).ok()?;
        (len > 0).then(|| StraightImage {
            width,
            height,
            pixels: vec![0; len],
        })
    }

    /// Decodes a PNG as it is stored; a JPEG or an SVG as [`decode`] does (a JPEG is
    /// opaque, so the same either way; an SVG is rasterized premultiplied and turned
    /// straight).
    pub fn decode(bytes: &[u8]) -> Result<Self, String> {
        if bytes.starts_with(PNG_SIGNATURE) {
            Self::decode_png(bytes)
        } else {
            decode(bytes).map(Self::from_premultiplied)
        }
    }

    /// A premultiplied pixmap made straight.
    pub fn from_premultiplied(pixmap: Pixmap) -> Self {
        let (width, height) = (pixmap.width(), pixmap.height());
        let mut pixels = pixmap.take();
        for pixel in pixels.chunks_exact_mut(4) {
            let alpha = u16::from(pixel[3]);
            if alpha == 0 || alpha == 255 {
                continue;
            }
            for channel in &mut pixel[..3] {
                *channel = ((u16::from(*channel) * 255 + alpha / 2) / alpha).min(255) as u8;
            }
        }
        StraightImage {
            width,
            height,
            pixels,
        }
    }

    fn decode_png(bytes: &[u8]) -> Result<Self, String> {
        let (width, height) = check_png_size(bytes)?;
        let failed = |e: png::DecodingError| format!("PNG: {e}");
        let mut decoder = png::Decoder::new(bytes);
        // Palettes, transparency chunks and low bit depths become 8-bit channels; 16-bit
        // ones keep their high byte, as tiny-skia's decoder does for previews.
        decoder.set_transformations(png::Transformations::normalize_to_color8());
        let mut reader = decoder.read_info().map_err(failed)?;
        let mut buffer = vec![0; reader.output_buffer_size()];
        let frame = reader.next_frame(&mut buffer).map_err(failed)?;
        if (frame.width, frame.height) != (width, height) {
            return Err("PNG whose frame is not the image's size".to_string());
        }
        buffer.truncate(frame.buffer_size());
        let pixels = match frame.color_type {
            png::ColorType::Rgba => buffer,
            png::ColorType::Rgb => rgba(&buffer, 3, |p| [p[0], p[1], p[2], 255]),
            png::ColorType::GrayscaleAlpha => rgba(&buffer, 2, |p| [p[0], p[0], p[0], p[1]]),
            png::ColorType::Grayscale => rgba(&buffer, 1, |p| [p[0], p[0], p[0], 255]),
            png::ColorType::Indexed => return Err("PNG palette not expanded".to_string()),
        };
        if pixels.len() != width as usize * height as usize * 4 {
            return Err("PNG decoded to an unexpected size".to_string());
        }
        Ok(StraightImage {
            width,
            height,
            pixels,
        })
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    /// The pixels, straight RGBA row by row.
    pub fn data(&self) -> &[u8] {
        &self.pixels
    }

    pub fn data_mut(&mut self) -> &mut [u8] {
        &mut self.pixels
    }
}

/// Rows of `channels`-byte pixels as RGBA.
fn rgba(buffer: &[u8], channels: usize, expand: impl Fn(&[u8]) -> [u8; 4]) -> Vec<u8> {
    buffer.chunks_exact(channels).flat_map(expand).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(colour: png::ColorType, width: u32, pixels: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let channels = match colour {
            png::ColorType::Rgba => 4,
            png::ColorType::Rgb => 3,
            png::ColorType::GrayscaleAlpha => 2,
            _ => 1,
        };
        let height = (pixels.len() / channels) as u32 / width;
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(colour);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().expect("header");
        writer.write_image_data(pixels).expect("pixels");
        writer.finish().expect("finish");
        out
    }

    #[test]
    fn a_png_keeps_its_own_pixels_clear_colours_included() {
        // At alpha 3 a premultiplied byte holds only 0..=3: 200 would come back as 170.
        let stored = [200, 100, 50, 3, 9, 8, 7, 0, 1, 2, 3, 255];
        let image = StraightImage::decode(&png(png::ColorType::Rgba, 3, &stored)).expect("PNG");
        assert_eq!((image.width(), image.height()), (3, 1));
        assert_eq!(image.data(), stored);
    }

    #[test]
    fn grey_and_rgb_pngs_become_rgba() {
        let grey =
            StraightImage::decode(&png(png::ColorType::GrayscaleAlpha, 1, &[40, 9])).expect("PNG");
        assert_eq!(grey.data(), [40, 40, 40, 9]);
        let rgb = StraightImage::decode(&png(png::ColorType::Rgb, 1, &[1, 2, 3])).expect("PNG");
        assert_eq!(rgb.data(), [1, 2, 3, 255]);
    }

    #[test]
    fn a_pixmap_is_made_straight() {
        let mut pixmap = Pixmap::new(2, 1).expect("size");
        pixmap
            .data_mut()
            .copy_from_slice(&[64, 32, 0, 128, 0, 0, 0, 0]);
        let image = StraightImage::from_premultiplied(pixmap);
        assert_eq!(image.data(), [128, 64, 0, 128, 0, 0, 0, 0]);
    }

    #[test]
    fn an_oversized_or_broken_png_is_refused() {
        let mut huge = png(png::ColorType::Rgba, 1, &[0, 0, 0, 0]);
        huge[16..20].copy_from_slice(&9000u32.to_be_bytes());
        assert!(
            StraightImage::decode(&huge)
                .unwrap_err()
                .contains("too large")
        );
        let good = png(png::ColorType::Rgba, 1, &[0, 0, 0, 0]);
        assert!(StraightImage::decode(&good[..good.len() - 20]).is_err());
    }
}
