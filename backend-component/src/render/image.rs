//! Image nodes: decoding PNG/JPEG assets and drawing them as FairyGUI's runtime does
//! (stretch, scale9Grid, tiling, flip, tint, fill masks).

use tiny_skia::{
    BlendMode, Color, FillRule, FilterQuality, IntRect, IntSize, Paint, Path, PathBuilder, Pattern,
    Pixmap, PixmapMut, PixmapPaint, PixmapRef, Rect, Shader, SpreadMode, Transform,
};

/// Largest side an asset may have.
pub const MAX_SIDE: u32 = 8192;
/// Largest pixel count an asset may have: 64 MiB of RGBA, which is also the `png` crate's
/// default decoding limit, so both decoders refuse the same images.
pub const MAX_PIXELS: u64 = 16 * 1024 * 1024;

pub(crate) const PNG_SIGNATURE: &[u8] = &[0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];
const LFS_POINTER: &[u8] = b"version https://git-lfs";

/// Decodes a PNG or JPEG (told apart by signature), or rasterizes an SVG at its own size,
/// into a premultiplied pixmap.
pub fn decode(bytes: &[u8]) -> Result<Pixmap, String> {
    if bytes.starts_with(PNG_SIGNATURE) {
        decode_png(bytes)
    } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        decode_jpeg(bytes)
    } else if bytes.starts_with(LFS_POINTER) {
        Err("a Git LFS pointer, not the image (the LFS object was not fetched)".to_string())
    } else if looks_like_svg(bytes) {
        decode_svg(bytes, None)
    } else {
        Err("not a PNG, JPEG or SVG image".to_string())
    }
}

/// Whether the bytes start like an XML or SVG document (after a byte-order mark and
/// white space).
fn looks_like_svg(bytes: &[u8]) -> bool {
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = text
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(0);
    text[start..].starts_with(b"<")
}

/// Rasterizes an SVG at `size` (its own size when `None`), as the FairyGUI editor turns an
/// SVG picture into atlas pixels: a DTD is read (its internal entities expanded; nothing
/// external is ever loaded), no text is drawn (no fonts here), and an `<image>` inside
/// the SVG is left out (nothing it names is read).
pub fn decode_svg(bytes: &[u8], size: Option<(u32, u32)>) -> Result<Pixmap, String> {
    use resvg::usvg;
    if bytes.len() > SVG_MAX_BYTES {
        return Err(format!("an SVG of more than {SVG_MAX_BYTES} bytes"));
    }
    let text = std::str::from_utf8(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes))
        .map_err(|_| "an SVG that is not UTF-8 text".to_string())?;
    check_entity_expansion(text)?;
    let xml = usvg::roxmltree::Document::parse_with_options(
        text,
        usvg::roxmltree::ParsingOptions {
            allow_dtd: true,
            nodes_limit: SVG_MAX_NODES,
        },
    )
    .map_err(|e| format!("SVG: {e}"))?;
    let options = usvg::Options {
        resources_dir: None,
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: Box::new(|_, _, _| None),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_xmltree(&xml, &options).map_err(|e| format!("SVG: {e}"))?;
    let own = tree.size();
    let (width, height) = size.unwrap_or((own.width().ceil() as u32, own.height().ceil() as u32));
    check_size(width, height)?;
    let mut pixmap = Pixmap::new(width, height).ok_or("an SVG of no size")?;
    let transform = Transform::from_scale(width as f32 / own.width(), height as f32 / own.height());
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    Ok(pixmap)
}

/// SVG sources larger than this are refused, as validation refuses them.
const SVG_MAX_BYTES: usize = 8 * 1024 * 1024;
/// Elements, attributes and text nodes an SVG may parse into.
const SVG_MAX_NODES: u32 = 1_000_000;
/// What a DTD's internal entities may add to an SVG's text, at most.
const SVG_MAX_EXPANSION: usize = 16 * 1024 * 1024;

/// Refuses a DTD whose entities could expand the document far past its size (the
/// "billion laughs"): an entity may not refer to another, and every reference expanding
/// to the longest entity must stay within [`SVG_MAX_EXPANSION`]. Editors' own DTDs
/// (Illustrator's `<!ENTITY ns_svg "http://www.w3.org/2000/svg">`) are far inside that.
fn check_entity_expansion(text: &str) -> Result<(), String> {
    let Some(dtd_start) = text.find("<!DOCTYPE") else {
        return Ok(());
    };
    let mut longest = 0usize;
    for declaration in text[dtd_start..].split("<!ENTITY").skip(1) {
        let value = declaration.split('>').next().unwrap_or_default();
        if value.contains('&') || value.contains('%') {
            return Err("an SVG whose DTD entities refer to other entities".to_string());
        }
        longest = longest.max(value.len());
    }
    let references = text.matches('&').count();
    if longest.saturating_mul(references) > SVG_MAX_EXPANSION {
        return Err(format!(
            "an SVG whose DTD entities would expand it past {SVG_MAX_EXPANSION} bytes"
        ));
    }
    Ok(())
}

fn check_size(width: u32, height: u32) -> Result<(), String> {
    if width == 0 || height == 0 {
        return Err(format!("empty image ({width}x{height})"));
    }
    if width > MAX_SIDE || height > MAX_SIDE || u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(format!(
            "image too large: {width}x{height} px (limit {MAX_SIDE} per side, {MAX_PIXELS} pixels)"
        ));
    }
    Ok(())
}

fn decode_png(bytes: &[u8]) -> Result<Pixmap, String> {
    check_png_size(bytes)?;
    Pixmap::decode_png(bytes).map_err(|e| format!("PNG: {e}"))
}

/// Reads a PNG's size from its header and refuses one past the limits, before any pixel
/// buffer exists (IHDR must be the first chunk).
pub(crate) fn check_png_size(bytes: &[u8]) -> Result<(u32, u32), String> {
    let header = bytes
        .get(12..24)
        .filter(|h| h.starts_with(b"IHDR"))
        .ok_or("PNG without an IHDR header")?;
    let width = u32::from_be_bytes([header[4], header[5], header[6], header[7]]);
    let height = u32::from_be_bytes([header[8], header[9], header[10], header[11]]);
    check_size(width, height)?;
    Ok((width, height))
}

/// What a JPEG's first frame header (SOFn) says.
struct JpegFrame {
    width: u32,
    height: u32,
    components: u8,
    precision: u8,
}

/// Finds the frame header by walking the marker segments, so the size is known (and odd
/// component counts, on which `jpeg-decoder`'s `info()` panics, are refused) before decoding.
fn jpeg_frame(bytes: &[u8]) -> Result<JpegFrame, String> {
    let mut i = 2;
    loop {
        // Like the decoder, tolerate stray bytes between segments.
        while bytes.get(i).is_some_and(|&b| b != 0xff) {
            i += 1;
        }
        while bytes.get(i) == Some(&0xff) {
            i += 1;
        }
        let code = *bytes.get(i).ok_or("JPEG ends before its frame header")?;
        i += 1;
        match code {
            // Standalone markers carry no length.
            0x00 | 0x01 | 0xd0..=0xd8 => {}
            0xd9 | 0xda => return Err("JPEG has no frame header before its image data".into()),
            0xc0..=0xcf if !matches!(code, 0xc4 | 0xc8 | 0xcc) => {
                let s = bytes
                    .get(i..i + 8)
                    .ok_or("JPEG frame header is truncated")?;
                return Ok(JpegFrame {
                    precision: s[2],
                    height: u32::from(u16::from_be_bytes([s[3], s[4]])),
                    width: u32::from(u16::from_be_bytes([s[5], s[6]])),
                    components: s[7],
                });
            }
            _ => {
                let s = bytes.get(i..i + 2).ok_or("JPEG segment is truncated")?;
                let length = usize::from(u16::from_be_bytes([s[0], s[1]]));
                if length < 2 {
                    return Err("JPEG segment with a bad length".into());
                }
                i += length;
            }
        }
    }
}

fn decode_jpeg(bytes: &[u8]) -> Result<Pixmap, String> {
    let frame = jpeg_frame(bytes)?;
    check_size(frame.width, frame.height)?;
    if !matches!(frame.components, 1 | 3 | 4) || !(2..=16).contains(&frame.precision) {
        return Err(format!(
            "unsupported JPEG: {} components at {} bits",
            frame.components, frame.precision
        ));
    }
    let mut decoder = jpeg_decoder::Decoder::new(bytes);
    // Checked above; this also bounds the decoder's own working buffers.
    decoder.set_max_decoding_buffer_size(MAX_PIXELS as usize * 4);
    let data = decoder.decode().map_err(|e| format!("JPEG: {e}"))?;

    let pixels = frame.width as usize * frame.height as usize;
    let wide = frame.components == 1 && frame.precision > 8;
    let bytes_per_pixel = if wide {
        2
    } else {
        usize::from(frame.components)
    };
    if data.len() != pixels * bytes_per_pixel {
        return Err("JPEG decoded to an unexpected size".to_string());
    }
    let mut rgba = Vec::with_capacity(pixels * 4);
    match (frame.components, wide) {
        (1, false) => {
            for &l in &data {
                rgba.extend_from_slice(&[l, l, l, 255]);
            }
        }
        (1, true) => {
            // 16-bit samples come in native byte order, scaled to the frame's precision.
            let max = ((1u32 << frame.precision) - 1).max(1);
            for pair in data.chunks_exact(2) {
                let v = u32::from(u16::from_ne_bytes([pair[0], pair[1]])).min(max);
                let l = (v * 255 / max) as u8;
                rgba.extend_from_slice(&[l, l, l, 255]);
            }
        }
        (3, _) => {
            for p in data.chunks_exact(3) {
                rgba.extend_from_slice(&[p[0], p[1], p[2], 255]);
            }
        }
        _ => {
            // jpeg-decoder hands out ink amounts (Adobe inversion already undone).
            for p in data.chunks_exact(4) {
                let k = 255 - u32::from(p[3]);
                let ch = |c: u8| ((255 - u32::from(c)) * k / 255) as u8;
                rgba.extend_from_slice(&[ch(p[0]), ch(p[1]), ch(p[2]), 255]);
            }
        }
    }
    let size = IntSize::from_wh(frame.width, frame.height).ok_or("JPEG with an empty size")?;
    // Opaque pixels: premultiplied and straight RGBA are the same bytes.
    Pixmap::from_vec(rgba, size).ok_or_else(|| "JPEG pixel buffer mismatch".to_string())
}

/// A fill mask (FairyGUI's `fillMethod`): only part of the image is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fill {
    /// 0 none, 1 horizontal, 2 vertical, 3 radial 90°, 4 radial 180°, 5 radial 360°.
    pub method: i32,
    /// Per method: horizontal 0 left 1 right; vertical 0 top 1 bottom; radial90 0 top-left
    /// 1 top-right 2 bottom-left 3 bottom-right; radial180/360 0 top 1 bottom 2 left 3 right.
    pub origin: i32,
    pub clockwise: bool,
    /// 0..1, the drawn fraction.
    pub amount: f32,
}

/// How an image node shows its source.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImageLook {
    /// scale9Grid x, y, width, height in source pixels.
    pub grid: Option<[f32; 4]>,
    /// Repeat the source at its own size from the top-left instead of stretching it.
    pub tile: bool,
    /// 0 none, 1 horizontal, 2 vertical, 3 both.
    pub flip: i32,
    /// Multiplies RGB and alpha; white leaves the image as it is.
    pub tint: Color,
    pub fill: Option<Fill>,
    pub alpha: f32,
    /// Bilinear filtering when scaled; false is FairyGUI's point filtering.
    pub smooth: bool,
}

impl Default for ImageLook {
    fn default() -> Self {
        ImageLook {
            grid: None,
            tile: false,
            flip: 0,
            tint: Color::WHITE,
            fill: None,
            alpha: 1.0,
            smooth: true,
        }
    }
}

/// The pixels an image samples: a whole pixmap, or a sprite inside one at an offset.
struct Src<'a> {
    pixmap: PixmapRef<'a>,
    x: f32,
    y: f32,
    w: f32,
    h: f32,
}

impl Src<'_> {
    /// A pattern where `local` maps sprite pixels to the node's local box.
    fn pattern(
        &self,
        local: Transform,
        spread: SpreadMode,
        quality: FilterQuality,
        opacity: f32,
    ) -> Shader<'_> {
        Pattern::new(
            self.pixmap,
            spread,
            quality,
            opacity,
            local.pre_translate(-self.x, -self.y),
        )
    }
}

/// Draws `source` (or its `source_rect` part) into the node box `0..width × 0..height`,
/// which `transform` maps onto `canvas`. Bad or empty inputs draw nothing.
pub fn draw(
    canvas: &mut PixmapMut,
    transform: Transform,
    width: f32,
    height: f32,
    source: PixmapRef,
    source_rect: Option<IntRect>,
    look: &ImageLook,
) {
    let opacity = look.alpha * look.tint.alpha();
    let usable = width > 0.0
        && height > 0.0
        && width.is_finite()
        && height.is_finite()
        && opacity > 0.0
        && transform.is_finite()
        && transform.invert().is_some();
    if !usable {
        return;
    }
    let opacity = opacity.min(1.0);
    let Some(whole) = IntRect::from_xywh(0, 0, source.width(), source.height()) else {
        return;
    };
    let rect = match source_rect {
        Some(r) => match r.intersect(&whole) {
            Some(r) => r,
            None => return,
        },
        None => whole,
    };
    let (sw, sh) = (rect.width() as f32, rect.height() as f32);

    // FairyGUI lets a fill take precedence over tiling, and tiling over the grid.
    let area = match look.fill {
        Some(fill) if (1..=5).contains(&fill.method) => match fill_area(&fill, width, height) {
            Area::Nothing => return,
            other => other,
        },
        _ => Area::Full,
    };
    let tile = matches!(area, Area::Full) && look.tile;
    let grid = if matches!(area, Area::Full) && !tile {
        look.grid
    } else {
        None
    };

    let exact = is_integer_translate(transform);
    let own_size = (width - sw).abs() < 1e-3 && (height - sh).abs() < 1e-3;
    let nearest = !look.smooth || (exact && (tile || (grid.is_none() && own_size)));
    let quality = if nearest {
        FilterQuality::Nearest
    } else {
        FilterQuality::Bilinear
    };
    let tinted = !(look.tint.red() >= 1.0 && look.tint.green() >= 1.0 && look.tint.blue() >= 1.0);
    let sprite = rect != whole;

    // A private copy of just the sprite: for the tint, and so repeating or filtering never
    // reaches into the rest of an atlas.
    let owned = if tinted || (sprite && (tile || !nearest)) {
        let Some(mut copy) = source.clone_rect(rect) else {
            return;
        };
        if tinted {
            tint_in_place(&mut copy, look.tint);
        }
        Some(copy)
    } else {
        None
    };
    let src = match &owned {
        Some(copy) => Src {
            pixmap: copy.as_ref(),
            x: 0.0,
            y: 0.0,
            w: sw,
            h: sh,
        },
        None => Src {
            pixmap: source,
            x: rect.x() as f32,
            y: rect.y() as f32,
            w: sw,
            h: sh,
        },
    };

    let flip = flip_transform(look.flip, width, height);
    if tile {
        // Each tile mirrors in its own cell: mirroring the repeated pattern about the origin.
        let local = match look.flip {
            1 => Transform::from_scale(-1.0, 1.0),
            2 => Transform::from_scale(1.0, -1.0),
            3 => Transform::from_scale(-1.0, -1.0),
            _ => Transform::identity(),
        };
        let shader = src.pattern(local, SpreadMode::Repeat, quality, opacity);
        fill_box(canvas, width, height, shader, transform, true);
    } else if let Some(grid) = grid {
        draw_nine(
            canvas,
            transform.pre_concat(flip),
            width,
            height,
            &src,
            grid,
            quality,
            opacity,
        );
    } else {
        let whole_at_own_size = matches!(area, Area::Full)
            && exact
            && own_size
            && owned.is_none()
            && !sprite
            && look.flip == 0;
        if whole_at_own_size {
            // The common case: an untinted image at its own size on whole pixels.
            let paint = PixmapPaint {
                opacity,
                blend_mode: BlendMode::SourceOver,
                quality: FilterQuality::Nearest,
            };
            let (x, y) = (transform.tx.round() as i32, transform.ty.round() as i32);
            canvas.draw_pixmap(x, y, source, &paint, Transform::identity(), None);
            return;
        }
        let local = flip.pre_scale(width / sw, height / sh);
        let shader = src.pattern(local, SpreadMode::Pad, quality, opacity);
        match area {
            Area::Path(path) => {
                let paint = Paint {
                    shader,
                    anti_alias: true,
                    ..Paint::default()
                };
                canvas.fill_path(&path, &paint, FillRule::Winding, transform, None);
            }
            _ => fill_box(canvas, width, height, shader, transform, true),
        }
    }
}

/// Fills the box with `shader`. Axis-aligned transforms are folded into the rectangle so
/// tiny-skia takes its exact rectangle path instead of a transformed path.
fn fill_box(
    canvas: &mut PixmapMut,
    width: f32,
    height: f32,
    shader: Shader,
    ts: Transform,
    aa: bool,
) {
    let Some(local) = Rect::from_xywh(0.0, 0.0, width, height) else {
        return;
    };
    fill_cell(canvas, local, shader, ts, aa);
}

fn fill_cell(canvas: &mut PixmapMut, local: Rect, mut shader: Shader, ts: Transform, aa: bool) {
    if ts.kx == 0.0 && ts.ky == 0.0 {
        let (x0, x1) = sorted(ts.sx * local.left() + ts.tx, ts.sx * local.right() + ts.tx);
        let (y0, y1) = sorted(ts.sy * local.top() + ts.ty, ts.sy * local.bottom() + ts.ty);
        // Clamp so absurd sizes stay within tiny-skia's numeric range; it clips anyway.
        let limit = 1.0e7;
        let (x0, y0, x1, y1) = (x0.max(-limit), y0.max(-limit), x1.min(limit), y1.min(limit));
        // Without anti-aliasing each edge is rounded here, on its own: tiny-skia rounds a
        // rectangle's origin and its width apart, so two cells meeting at 124.4 could leave
        // a column between them (the seams of 9-grids at fractional scales).
        let (x0, y0, x1, y1) = if aa {
            (x0, y0, x1, y1)
        } else {
            (x0.round(), y0.round(), x1.round(), y1.round())
        };
        let Some(device) = Rect::from_ltrb(x0, y0, x1, y1) else {
            return;
        };
        shader.transform(ts);
        let paint = Paint {
            shader,
            anti_alias: aa,
            ..Paint::default()
        };
        canvas.fill_rect(device, &paint, Transform::identity(), None);
    } else {
        let paint = Paint {
            shader,
            anti_alias: aa,
            ..Paint::default()
        };
        canvas.fill_rect(local, &paint, ts, None);
    }
}

fn sorted(a: f32, b: f32) -> (f32, f32) {
    if a <= b { (a, b) } else { (b, a) }
}

fn is_integer_translate(ts: Transform) -> bool {
    let near = |v: f32| (v - v.round()).abs() < 1e-3;
    ts.sx == 1.0 && ts.sy == 1.0 && ts.kx == 0.0 && ts.ky == 0.0 && near(ts.tx) && near(ts.ty)
}

/// Mirrors the box onto itself.
fn flip_transform(flip: i32, width: f32, height: f32) -> Transform {
    match flip {
        1 => Transform::from_row(-1.0, 0.0, 0.0, 1.0, width, 0.0),
        2 => Transform::from_row(1.0, 0.0, 0.0, -1.0, 0.0, height),
        3 => Transform::from_row(-1.0, 0.0, 0.0, -1.0, width, height),
        _ => Transform::identity(),
    }
}

/// Multiplies the premultiplied channels by the tint's RGB (its alpha goes into opacity).
fn tint_in_place(pixmap: &mut Pixmap, tint: Color) {
    let mut colour = tint;
    colour.set_alpha(1.0);
    let Some(all) = Rect::from_xywh(0.0, 0.0, pixmap.width() as f32, pixmap.height() as f32) else {
        return;
    };
    let mut paint = Paint::default();
    paint.set_color(colour);
    // Modulate is `source × destination` on every premultiplied channel, alpha kept by the
    // opaque source: exactly the runtime's vertex-colour multiply.
    paint.blend_mode = BlendMode::Modulate;
    paint.anti_alias = false;
    pixmap.fill_rect(all, &paint, Transform::identity(), None);
}

/// The four cut positions along one axis of a 9-grid: `[0, a, b, len]` in the box.
fn nine_cuts(source: f32, start: f32, end: f32, len: f32) -> [f32; 4] {
    let (head, tail) = (start, source - end);
    if len >= head + tail {
        [0.0, head, len - tail, len]
    } else {
        // Box smaller than both borders: they shrink in proportion and the middle vanishes.
        let cut = if head + tail > 0.0 {
            len * head / (head + tail)
        } else {
            0.0
        };
        [0.0, cut, cut, len]
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_nine(
    canvas: &mut PixmapMut,
    ts: Transform,
    width: f32,
    height: f32,
    src: &Src,
    grid: [f32; 4],
    quality: FilterQuality,
    opacity: f32,
) {
    let finite = |v: f32| if v.is_finite() { v } else { 0.0 };
    let gx = finite(grid[0]).clamp(0.0, src.w);
    let gy = finite(grid[1]).clamp(0.0, src.h);
    let gx2 = (gx + finite(grid[2]).max(0.0)).min(src.w);
    let gy2 = (gy + finite(grid[3]).max(0.0)).min(src.h);
    let sx = [0.0, gx, gx2, src.w];
    let sy = [0.0, gy, gy2, src.h];
    let dx = nine_cuts(src.w, gx, gx2, width);
    let dy = nine_cuts(src.h, gy, gy2, height);

    if ts.kx == 0.0 && ts.ky == 0.0 {
        // Without anti-aliasing adjacent cells share pixel edges exactly: no seams.
        nine_cells(canvas, ts, &sx, &sy, &dx, &dy, src, quality, opacity);
        return;
    }
    // Rotated or skewed: anti-aliased cells would leave faint seams, so compose the grid
    // upright at the device scale first and draw that once.
    let scale = (ts.sx.hypot(ts.ky))
        .max(ts.kx.hypot(ts.sy))
        .clamp(0.05, 4.0);
    let (iw, ih) = ((width * scale).ceil(), (height * scale).ceil());
    let fits = iw >= 1.0 && ih >= 1.0 && iw <= 4096.0 && ih <= 4096.0;
    let upright = if fits {
        Pixmap::new(iw as u32, ih as u32)
    } else {
        None
    };
    let Some(mut upright) = upright else {
        nine_cells(canvas, ts, &sx, &sy, &dx, &dy, src, quality, opacity);
        return;
    };
    let inner = Transform::from_scale(iw / width, ih / height);
    nine_cells(
        &mut upright.as_mut(),
        inner,
        &sx,
        &sy,
        &dx,
        &dy,
        src,
        quality,
        1.0,
    );
    let shader = Pattern::new(
        upright.as_ref(),
        SpreadMode::Pad,
        FilterQuality::Bilinear,
        opacity,
        Transform::from_scale(width / iw, height / ih),
    );
    fill_box(canvas, width, height, shader, ts, true);
}

#[allow(clippy::too_many_arguments)]
fn nine_cells(
    canvas: &mut PixmapMut,
    ts: Transform,
    sx: &[f32; 4],
    sy: &[f32; 4],
    dx: &[f32; 4],
    dy: &[f32; 4],
    src: &Src,
    quality: FilterQuality,
    opacity: f32,
) {
    let aa = !(ts.kx == 0.0 && ts.ky == 0.0);
    for row in 0..3 {
        for col in 0..3 {
            let (s0, s1, t0, t1) = (sx[col], sx[col + 1], sy[row], sy[row + 1]);
            let (d0, d1, e0, e1) = (dx[col], dx[col + 1], dy[row], dy[row + 1]);
            if s1 <= s0 || t1 <= t0 {
                continue;
            }
            let Some(cell) = Rect::from_ltrb(d0, e0, d1, e1) else {
                continue;
            };
            let local = Transform::from_row(
                (d1 - d0) / (s1 - s0),
                0.0,
                0.0,
                (e1 - e0) / (t1 - t0),
                d0,
                e0,
            )
            .pre_translate(-s0, -t0);
            let shader = src.pattern(local, SpreadMode::Pad, quality, opacity);
            fill_cell(canvas, cell, shader, ts, aa);
        }
    }
}

/// The part of the box a fill leaves visible.
enum Area {
    Full,
    Nothing,
    Path(Path),
}

fn fill_area(fill: &Fill, width: f32, height: f32) -> Area {
    let amount = fill.amount;
    // NaN counts as nothing drawn.
    if amount.is_nan() || amount <= 0.0 {
        return Area::Nothing;
    }
    if amount >= 1.0 {
        return Area::Full;
    }
    let (w, h) = (width, height);
    let polygon = match fill.method {
        1 => {
            let a = w * amount;
            let x = if fill.origin == 1 { w - a } else { 0.0 };
            Rect::from_xywh(x, 0.0, a, h).map(PathBuilder::from_rect)
        }
        2 => {
            let a = h * amount;
            let y = if fill.origin == 1 { h - a } else { 0.0 };
            Rect::from_xywh(0.0, y, w, a).map(PathBuilder::from_rect)
        }
        method => {
            // Centre, the angle where a clockwise fill starts (degrees, y down, so positive
            // is clockwise on screen) and the span the fill covers at amount 1.
            let (cx, cy, start, span) = match (method, fill.origin) {
                (3, 1) => (w, 0.0, 90.0, 90.0),
                (3, 2) => (0.0, h, 270.0, 90.0),
                (3, 3) => (w, h, 180.0, 90.0),
                (3, _) => (0.0, 0.0, 0.0, 90.0),
                (4, 1) => (w / 2.0, h, 180.0, 180.0),
                (4, 2) => (0.0, h / 2.0, 270.0, 180.0),
                (4, 3) => (w, h / 2.0, 90.0, 180.0),
                (4, _) => (w / 2.0, 0.0, 0.0, 180.0),
                (_, 1) => (w / 2.0, h / 2.0, 90.0, 360.0),
                (_, 2) => (w / 2.0, h / 2.0, 180.0, 360.0),
                (_, 3) => (w / 2.0, h / 2.0, 0.0, 360.0),
                (_, _) => (w / 2.0, h / 2.0, 270.0, 360.0),
            };
            let sweep = span * amount;
            // Counter-clockwise sweeps back from the far end of the span.
            let from = if fill.clockwise {
                start
            } else {
                start + span - sweep
            };
            wedge(cx, cy, from, sweep, w, h)
        }
    };
    match polygon {
        Some(path) => Area::Path(path),
        None => Area::Nothing,
    }
}

/// The part of the box within `sweep` degrees clockwise of `from`, seen from (cx, cy):
/// a large pie slice clipped to the box.
fn wedge(cx: f32, cy: f32, from: f32, sweep: f32, w: f32, h: f32) -> Option<Path> {
    // Far enough that 30° chords stay outside the box (chord distance ≥ 0.96 r).
    let r = 2.0 * (w + h) + 1.0;
    let steps = (sweep / 30.0).ceil().max(1.0) as usize;
    let mut points = Vec::with_capacity(steps + 2);
    points.push((cx, cy));
    for i in 0..=steps {
        let a = (from + sweep * i as f32 / steps as f32).to_radians();
        points.push((cx + r * a.cos(), cy + r * a.sin()));
    }
    // Sutherland–Hodgman against the box: the clip window is convex, the slice need not be.
    let edges: [(usize, f32, bool); 4] =
        [(0, 0.0, true), (0, w, false), (1, 0.0, true), (1, h, false)];
    for (axis, bound, keep_above) in edges {
        let inside = |p: (f32, f32)| {
            let v = if axis == 0 { p.0 } else { p.1 };
            if keep_above { v >= bound } else { v <= bound }
        };
        let mut out = Vec::with_capacity(points.len() + 4);
        for i in 0..points.len() {
            let a = points[i];
            let b = points[(i + 1) % points.len()];
            let (ia, ib) = (inside(a), inside(b));
            if ia {
                out.push(a);
            }
            if ia != ib {
                let (va, vb) = if axis == 0 { (a.0, b.0) } else { (a.1, b.1) };
                let t = (bound - va) / (vb - va);
                out.push((a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t));
            }
        }
        points = out;
        if points.len() < 3 {
            return None;
        }
    }
    let mut pb = PathBuilder::new();
    pb.move_to(points[0].0, points[0].1);
    for p in &points[1..] {
        pb.line_to(p.0, p.1);
    }
    pb.close();
    pb.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path as FsPath, PathBuf};

    const CORPORA: &str = "/work/shared/corpora";
    const LOGO_JPG: &str =
        "/work/shared/corpora/fairygui-unity-examples/UIProject/assets/ScrollPane/logo.jpg";

    fn rgba(p: &Pixmap, x: u32, y: u32) -> [u8; 4] {
        let c = p.pixel(x, y).expect("pixel inside").demultiply();
        [c.red(), c.green(), c.blue(), c.alpha()]
    }

    fn solid(w: u32, h: u32, c: [u8; 4]) -> Pixmap {
        let mut p = Pixmap::new(w, h).expect("size");
        p.fill(Color::from_rgba8(c[0], c[1], c[2], c[3]));
        p
    }

    fn paint_rect(p: &mut Pixmap, x: u32, y: u32, w: u32, h: u32, c: [u8; 4]) {
        let mut paint = Paint::default();
        paint.set_color_rgba8(c[0], c[1], c[2], c[3]);
        let rect = Rect::from_xywh(x as f32, y as f32, w as f32, h as f32).expect("rect");
        p.fill_rect(rect, &paint, Transform::identity(), None);
    }

    fn canvas_with(
        size: (u32, u32),
        ts: Transform,
        box_size: (f32, f32),
        source: &Pixmap,
        look: &ImageLook,
    ) -> Pixmap {
        let mut canvas = Pixmap::new(size.0, size.1).expect("canvas");
        draw(
            &mut canvas.as_mut(),
            ts,
            box_size.0,
            box_size.1,
            source.as_ref(),
            None,
            look,
        );
        canvas
    }

    fn images_under(dir: &FsPath, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                images_under(&path, out);
            } else {
                let name = path.to_string_lossy().to_lowercase();
                if name.ends_with(".png") || name.ends_with(".jpg") || name.ends_with(".jpeg") {
                    out.push(path);
                }
            }
        }
    }

    #[test]
    fn svg_limits_hold_at_their_edges() {
        let too_big = vec![b' '; SVG_MAX_BYTES + 1];
        assert!(decode_svg(&too_big, None).unwrap_err().contains("bytes"));
        // One entity whose declaration is 1001 characters long: as many references as fit
        // in 16 MiB pass, one more does not.
        let document = |references: usize| {
            format!(
                "<!DOCTYPE svg [<!ENTITY e \"{}\">]><svg>{}</svg>",
                "x".repeat(1000 - 4),
                "&e;".repeat(references)
            )
        };
        let fits = SVG_MAX_EXPANSION / 1001;
        assert!(check_entity_expansion(&document(fits)).is_ok());
        assert!(check_entity_expansion(&document(fits + 1)).is_err());
    }

    #[test]
    fn an_svg_decodes_at_its_own_size_for_previews() {
        let svg = br##"<?xml version="1.0"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="6">
  <rect width="10" height="6" fill="#0000ff"/>
  <image xlink:href="/etc/passwd" width="10" height="6"/>
</svg>"##;
        let pixmap = decode(svg).expect("an SVG with a DTD decodes");
        assert_eq!((pixmap.width(), pixmap.height()), (10, 6));
        let pixel = pixmap.pixel(5, 3).expect("inside");
        assert_eq!(
            (pixel.red(), pixel.green(), pixel.blue(), pixel.alpha()),
            (0, 0, 255, 255)
        );
        assert!(decode(b"<html></html>").is_err(), "not an SVG");
    }

    #[test]
    fn png_round_trips() {
        let mut p = solid(4, 3, [10, 20, 30, 255]);
        paint_rect(&mut p, 1, 1, 2, 1, [255, 0, 0, 255]);
        paint_rect(&mut p, 3, 0, 1, 1, [0, 0, 0, 0]);
        let bytes = p.encode_png().expect("encode");
        let back = decode(&bytes).expect("decode");
        assert_eq!((back.width(), back.height()), (4, 3));
        assert_eq!(back.data(), p.data());
    }

    #[test]
    fn corpus_jpeg_decodes() {
        let Ok(bytes) = std::fs::read(LOGO_JPG) else {
            eprintln!("skipped: {LOGO_JPG} not present");
            return;
        };
        let p = decode(&bytes).expect("decode logo.jpg");
        assert_eq!((p.width(), p.height()), (86, 86));
        assert_eq!(rgba(&p, 43, 43)[3], 255);
    }

    #[test]
    fn refuses_pointers_and_oversize_headers() {
        let lfs = b"version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 12\n";
        assert!(decode(lfs).expect_err("lfs").contains("LFS"));

        let mut png = PNG_SIGNATURE.to_vec();
        png.extend_from_slice(&[0, 0, 0, 13]);
        png.extend_from_slice(b"IHDR");
        png.extend_from_slice(&100_000u32.to_be_bytes());
        png.extend_from_slice(&100_000u32.to_be_bytes());
        png.extend_from_slice(&[8, 6, 0, 0, 0, 0, 0, 0, 0]);
        assert!(decode(&png).expect_err("png").contains("too large"));

        // SOI, then a baseline frame header claiming 65535×65535 RGB.
        let jpg = [
            0xff, 0xd8, 0xff, 0xc0, 0, 17, 8, 0xff, 0xff, 0xff, 0xff, 3, 1, 0x11, 0, 2, 0x11, 1, 3,
            0x11, 1,
        ];
        assert!(decode(&jpg).expect_err("jpg").contains("too large"));
        // Two components: jpeg-decoder's info() would panic on this.
        let two = [
            0xff, 0xd8, 0xff, 0xc0, 0, 14, 8, 0, 4, 0, 4, 2, 1, 0x11, 0, 2, 0x11, 0,
        ];
        assert!(decode(&two).is_err());
        assert!(decode(b"").is_err());
        assert!(decode(b"GIF89a").is_err());
    }

    #[test]
    fn broken_bytes_never_panic() {
        let mut p = Pixmap::new(40, 30).expect("size");
        for y in 0..30 {
            paint_rect(
                &mut p,
                0,
                y,
                40,
                1,
                [(y * 8) as u8, 100, 200, 128 + y as u8],
            );
        }
        let mut samples = vec![p.encode_png().expect("encode")];
        if let Ok(jpg) = std::fs::read(LOGO_JPG) {
            samples.push(jpg);
        }
        let mut rng = fastrand::Rng::with_seed(7);
        for bytes in &samples {
            for cut in (0..bytes.len()).step_by(7) {
                let _ = decode(&bytes[..cut]);
            }
            for _ in 0..200 {
                let mut broken = bytes.clone();
                for _ in 0..4 {
                    let i = rng.usize(..broken.len());
                    broken[i] = rng.u8(..);
                }
                let _ = decode(&broken);
            }
        }
        for _ in 0..200 {
            let mut junk: Vec<u8> = (0..rng.usize(0..300)).map(|_| rng.u8(..)).collect();
            if rng.bool() {
                junk.splice(0..0, [0xff, 0xd8, 0xff]);
            }
            let _ = decode(&junk);
        }
    }

    /// Every real image in the corpora decodes, except LFS pointers.
    #[test]
    fn corpora_images_decode() {
        let mut files = Vec::new();
        images_under(FsPath::new(CORPORA), &mut files);
        if files.is_empty() {
            eprintln!("skipped: no corpora at {CORPORA}");
            return;
        }
        let mut failed = Vec::new();
        for path in &files {
            let bytes = std::fs::read(path).expect("read corpus file");
            if let Err(e) = decode(&bytes) {
                eprintln!("{}: {e}", path.display());
                if !bytes.starts_with(LFS_POINTER) {
                    failed.push(path.clone());
                }
            }
        }
        eprintln!("{} images, {} failed", files.len(), failed.len());
        assert!(failed.is_empty(), "failed: {failed:?}");
    }

    #[test]
    fn plain_image_lands_exactly() {
        let red = solid(10, 10, [255, 0, 0, 255]);
        let c = canvas_with(
            (30, 30),
            Transform::from_translate(5.0, 5.0),
            (10.0, 10.0),
            &red,
            &ImageLook::default(),
        );
        for y in 0..30 {
            for x in 0..30 {
                let inside = (5..15).contains(&x) && (5..15).contains(&y);
                let want = if inside {
                    [255, 0, 0, 255]
                } else {
                    [0, 0, 0, 0]
                };
                assert_eq!(rgba(&c, x, y), want, "at {x},{y}");
            }
        }
    }

    #[test]
    fn sprite_rect_draws_only_the_sprite() {
        let mut atlas = solid(20, 10, [0, 0, 255, 255]);
        paint_rect(&mut atlas, 10, 0, 10, 10, [0, 255, 0, 255]);
        let mut c = Pixmap::new(40, 20).expect("canvas");
        let sprite = IntRect::from_xywh(10, 0, 10, 10);
        for (ts, size) in [
            (Transform::from_translate(0.0, 0.0), 10.0),
            (Transform::from_translate(20.0, 0.0), 20.0),
        ] {
            let look = ImageLook::default();
            draw(
                &mut c.as_mut(),
                ts,
                size,
                size,
                atlas.as_ref(),
                sprite,
                &look,
            );
        }
        assert_eq!(rgba(&c, 0, 0), [0, 255, 0, 255]);
        assert_eq!(rgba(&c, 9, 9), [0, 255, 0, 255]);
        assert_eq!(rgba(&c, 20, 10), [0, 255, 0, 255], "scaled, no atlas bleed");
        assert_eq!(rgba(&c, 39, 19), [0, 255, 0, 255]);
        assert_eq!(rgba(&c, 15, 5)[3], 0);
    }

    #[test]
    fn nine_grid_keeps_corners_and_stretches_edges() {
        let mut src = solid(30, 30, [128, 128, 128, 255]);
        let corners = [
            (0, 0, [255, 0, 0, 255]),
            (20, 0, [0, 255, 0, 255]),
            (0, 20, [0, 0, 255, 255]),
            (20, 20, [255, 255, 0, 255]),
        ];
        for (x, y, c) in corners {
            paint_rect(&mut src, x, y, 10, 10, c);
        }
        paint_rect(&mut src, 10, 0, 10, 10, [0, 255, 255, 255]);
        let look = ImageLook {
            grid: Some([10.0, 10.0, 10.0, 10.0]),
            ..ImageLook::default()
        };
        let c = canvas_with((100, 60), Transform::identity(), (100.0, 60.0), &src, &look);
        for (x, y, colour) in corners {
            let (bx, by) = (if x == 0 { 0 } else { 90 }, if y == 0 { 0 } else { 50 });
            for (dx, dy) in [(0, 0), (9, 0), (0, 9), (9, 9), (5, 5)] {
                assert_eq!(
                    rgba(&c, bx + dx, by + dy),
                    colour,
                    "corner {x},{y} +{dx},{dy}"
                );
            }
        }
        // The top edge stretches over 10..90; the centre fills the middle.
        for x in [20, 50, 80] {
            assert_eq!(rgba(&c, x, 5), [0, 255, 255, 255], "top edge at {x}");
        }
        assert_eq!(rgba(&c, 50, 30), [128, 128, 128, 255]);

        // Smaller than the corners: they shrink proportionally and nothing is left over.
        let c = canvas_with((20, 20), Transform::identity(), (10.0, 10.0), &src, &look);
        assert_eq!(rgba(&c, 2, 2), [255, 0, 0, 255]);
        assert_eq!(rgba(&c, 7, 7), [255, 255, 0, 255]);
        assert_eq!(rgba(&c, 12, 12)[3], 0);
    }

    #[test]
    fn rotated_nine_grid_has_no_seams() {
        let src = solid(30, 30, [255, 255, 255, 255]);
        let look = ImageLook {
            grid: Some([10.0, 10.0, 10.0, 10.0]),
            ..ImageLook::default()
        };
        let ts = Transform::from_translate(50.0, 10.0).pre_rotate(30.0);
        let c = canvas_with((120, 120), ts, (70.5, 50.3), &src, &look);
        // Points well inside the box, on and next to cell edges, are fully opaque.
        for (lx, ly) in [(10.0, 10.0), (35.0, 10.0), (60.5, 40.3), (10.0, 25.0)] {
            let p = ts.map_point_pair(lx, ly);
            assert_eq!(
                rgba(&c, p.0 as u32, p.1 as u32)[3],
                255,
                "at local {lx},{ly}"
            );
        }
    }

    trait MapPoint {
        fn map_point_pair(&self, x: f32, y: f32) -> (f32, f32);
    }
    impl MapPoint for Transform {
        fn map_point_pair(&self, x: f32, y: f32) -> (f32, f32) {
            (
                self.sx * x + self.kx * y + self.tx,
                self.ky * x + self.sy * y + self.ty,
            )
        }
    }

    #[test]
    fn tile_repeats_at_source_size() {
        let mut src = solid(7, 5, [0, 0, 255, 255]);
        paint_rect(&mut src, 0, 0, 3, 2, [255, 0, 0, 255]);
        let look = ImageLook {
            tile: true,
            ..ImageLook::default()
        };
        let c = canvas_with((50, 30), Transform::identity(), (50.0, 30.0), &src, &look);
        for y in 0..25 {
            for x in 0..43 {
                assert_eq!(rgba(&c, x, y), rgba(&c, x + 7, y), "x repeat at {x},{y}");
                assert_eq!(rgba(&c, x, y), rgba(&c, x, y + 5), "y repeat at {x},{y}");
            }
        }
        assert_eq!(rgba(&c, 7, 0), [255, 0, 0, 255]);
        assert_eq!(rgba(&c, 10, 0), [0, 0, 255, 255]);
    }

    #[test]
    fn tiles_and_grids_have_no_seams_at_fractional_scales() {
        // Half-transparent, so a gap shows as less alpha and an overlap as more.
        let src = solid(7, 5, [0, 0, 255, 128]);
        let looks = [
            ImageLook {
                tile: true,
                ..ImageLook::default()
            },
            ImageLook {
                grid: Some([2.0, 1.0, 3.0, 3.0]),
                ..ImageLook::default()
            },
        ];
        for look in &looks {
            for scale in [0.5f32, 0.6, 1.5] {
                for offset in [0.0f32, 0.3, 0.7] {
                    let ts =
                        Transform::from_row(scale, 0.0, 0.0, scale, 2.0 + offset, 1.0 + offset);
                    let c = canvas_with((100, 70), ts, (53.3, 37.7), &src, look);
                    let inside = |v: f32| v.ceil() as u32 + 1;
                    let (right, bottom) = (
                        (2.0 + offset + 53.3 * scale) as u32 - 1,
                        (1.0 + offset + 37.7 * scale) as u32 - 1,
                    );
                    for y in inside(1.0 + offset)..bottom {
                        for x in inside(2.0 + offset)..right {
                            let alpha = rgba(&c, x, y)[3];
                            assert!(
                                alpha.abs_diff(128) <= 1,
                                "{look:?} at scale {scale} + {offset}: alpha {alpha} at {x},{y}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn flips_mirror_within_the_box() {
        let mut src = solid(10, 10, [0, 0, 255, 255]);
        paint_rect(&mut src, 0, 0, 3, 10, [255, 0, 0, 255]);
        let look = ImageLook {
            flip: 1,
            ..ImageLook::default()
        };
        let c = canvas_with(
            (30, 20),
            Transform::from_translate(5.0, 5.0),
            (10.0, 10.0),
            &src,
            &look,
        );
        assert_eq!(rgba(&c, 14, 8), [255, 0, 0, 255]);
        assert_eq!(rgba(&c, 12, 8), [255, 0, 0, 255]);
        assert_eq!(rgba(&c, 5, 8), [0, 0, 255, 255]);
        assert_eq!(rgba(&c, 4, 8)[3], 0);
        assert_eq!(rgba(&c, 15, 8)[3], 0);

        let mut src = solid(10, 10, [0, 0, 255, 255]);
        paint_rect(&mut src, 0, 0, 10, 3, [255, 0, 0, 255]);
        let look = ImageLook {
            flip: 2,
            ..ImageLook::default()
        };
        let c = canvas_with((10, 10), Transform::identity(), (10.0, 10.0), &src, &look);
        assert_eq!(rgba(&c, 5, 9), [255, 0, 0, 255]);
        assert_eq!(rgba(&c, 5, 0), [0, 0, 255, 255]);
    }

    #[test]
    fn tint_and_alpha_multiply() {
        let white = solid(10, 10, [255, 255, 255, 255]);
        let look = ImageLook {
            tint: crate::render::color::parse("#ff0000").expect("colour"),
            ..ImageLook::default()
        };
        let c = canvas_with((10, 10), Transform::identity(), (10.0, 10.0), &white, &look);
        assert_eq!(rgba(&c, 5, 5), [255, 0, 0, 255]);

        let look = ImageLook {
            alpha: 0.5,
            ..ImageLook::default()
        };
        let c = canvas_with((10, 10), Transform::identity(), (10.0, 10.0), &white, &look);
        let a = rgba(&c, 5, 5)[3];
        assert!((126..=129).contains(&a), "alpha {a}");
    }

    fn filled(method: i32, origin: i32, clockwise: bool, amount: f32) -> Pixmap {
        let white = solid(40, 40, [255, 255, 255, 255]);
        let look = ImageLook {
            fill: Some(Fill {
                method,
                origin,
                clockwise,
                amount,
            }),
            ..ImageLook::default()
        };
        canvas_with((40, 40), Transform::identity(), (40.0, 40.0), &white, &look)
    }

    fn alpha_at(p: &Pixmap, x: u32, y: u32) -> u8 {
        rgba(p, x, y)[3]
    }

    #[test]
    fn horizontal_and_vertical_fills() {
        let c = filled(1, 0, true, 0.5);
        assert_eq!(alpha_at(&c, 5, 20), 255);
        assert_eq!(alpha_at(&c, 19, 20), 255);
        assert_eq!(alpha_at(&c, 21, 20), 0);
        assert_eq!(alpha_at(&c, 35, 20), 0);
        let c = filled(1, 1, true, 0.25);
        assert_eq!(alpha_at(&c, 35, 20), 255);
        assert_eq!(alpha_at(&c, 25, 20), 0);
        let c = filled(2, 1, true, 0.5);
        assert_eq!(alpha_at(&c, 20, 35), 255);
        assert_eq!(alpha_at(&c, 20, 5), 0);
        let c = filled(1, 0, true, 0.0);
        assert_eq!(alpha_at(&c, 5, 20), 0);
    }

    #[test]
    fn radial_fills_cover_the_expected_part() {
        // Radial 360 from the top, clockwise, a quarter: the top-right quadrant.
        let c = filled(5, 0, true, 0.25);
        assert_eq!(alpha_at(&c, 30, 10), 255);
        assert_eq!(alpha_at(&c, 10, 10), 0);
        assert_eq!(alpha_at(&c, 10, 30), 0);
        assert_eq!(alpha_at(&c, 30, 30), 0);
        // Counter-clockwise from the top: the top-left quadrant.
        let c = filled(5, 0, false, 0.25);
        assert_eq!(alpha_at(&c, 10, 10), 255);
        assert_eq!(alpha_at(&c, 30, 10), 0);
        // Three quarters from the right, clockwise: all but the top-right quadrant.
        let c = filled(5, 3, true, 0.75);
        assert_eq!(alpha_at(&c, 30, 30), 255);
        assert_eq!(alpha_at(&c, 10, 30), 255);
        assert_eq!(alpha_at(&c, 10, 10), 255);
        assert_eq!(alpha_at(&c, 30, 10), 0);
        // Radial 90 from the top-left, half: the triangle above the diagonal.
        let c = filled(3, 0, true, 0.5);
        assert_eq!(alpha_at(&c, 30, 5), 255);
        assert_eq!(alpha_at(&c, 5, 30), 0);
        // Radial 180 from the bottom, clockwise, half: the left half.
        let c = filled(4, 1, true, 0.5);
        assert_eq!(alpha_at(&c, 5, 20), 255);
        assert_eq!(alpha_at(&c, 35, 20), 0);
    }

    #[test]
    fn odd_inputs_draw_nothing_or_stay_safe() {
        let src = solid(4, 4, [255, 0, 0, 255]);
        let mut canvas = Pixmap::new(16, 16).expect("canvas");
        let looks = [
            ImageLook::default(),
            ImageLook {
                grid: Some([f32::NAN, -5.0, 1e30, 3.0]),
                ..ImageLook::default()
            },
            ImageLook {
                tile: true,
                flip: 3,
                ..ImageLook::default()
            },
            ImageLook {
                fill: Some(Fill {
                    method: 5,
                    origin: 99,
                    clockwise: false,
                    amount: f32::NAN,
                }),
                ..ImageLook::default()
            },
        ];
        let sizes = [
            (0.0, 0.0),
            (-3.0, 5.0),
            (f32::NAN, 1.0),
            (1e9, 1e9),
            (f32::INFINITY, 2.0),
            (3.0, 3.0),
        ];
        let transforms = [
            Transform::identity(),
            Transform::from_scale(0.0, 0.0),
            Transform::from_row(1e20, 0.0, 0.0, 1e20, -1e20, 5.0),
            Transform::from_rotate(45.0),
        ];
        for look in &looks {
            for &(w, h) in &sizes {
                for &ts in &transforms {
                    for rect in [
                        None,
                        IntRect::from_xywh(2, 2, 100, 100),
                        IntRect::from_xywh(9, 9, 1, 1),
                    ] {
                        draw(&mut canvas.as_mut(), ts, w, h, src.as_ref(), rect, look);
                    }
                }
            }
        }
    }
}
