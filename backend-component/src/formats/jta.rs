//! Parses the header and frame table of a FairyGUI `.jta` movie clip (versions 100–102).
//!
//! Layout (big-endian): UTF string `yytou` (u16 length + bytes), i32 version, i8 fps
//! (0 means 24), 3 reserved bytes, then for v102 the bounds `x,y` (2 × u16) and
//! `width,height` (2 × u16); u8 speed, u8 repeatDelay, i8 swing; i16 frame count and per
//! frame i16 delay, rectX, rectY, rectWidth, rectHeight, textureIndex; i16 texture count
//! and per texture an i32 length plus the PNG/JPEG bytes; v101 puts its bounds after the
//! textures, and v100 has none (they are the union of the frame rectangles).
//! Timing is in frames; the model wants milliseconds.

use ofgui_contracts::Num;
use ofgui_contracts::uam::{MovieClipFrame, MovieClipResource, Size};

/// The movie clip facts the model keeps; textures are not decoded.
#[derive(Debug, PartialEq)]
pub struct Jta {
    pub width: f64,
    pub height: f64,
    pub interval: f64,
    pub repeat_delay: f64,
    pub swing: bool,
    pub frames: Vec<JtaFrame>,
}

#[derive(Debug, PartialEq)]
pub struct JtaFrame {
    pub rect_x: f64,
    pub rect_y: f64,
    pub rect_width: f64,
    pub rect_height: f64,
    pub add_delay: f64,
}

/// Bounds-checked big-endian reader.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let slice = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(slice)
    }

    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    fn i8(&mut self) -> Option<i8> {
        Some(self.u8()? as i8)
    }

    fn u16(&mut self) -> Option<u16> {
        let b = self.take(2)?;
        Some(u16::from_be_bytes([b[0], b[1]]))
    }

    fn i16(&mut self) -> Option<i16> {
        Some(self.u16()? as i16)
    }

    fn i32(&mut self) -> Option<i32> {
        let b = self.take(4)?;
        Some(i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
}

const FILE_MARK: &[u8] = b"yytou";

/// The file as laid out: frames with their texture index, and the textures' bytes.
struct Layout<'a> {
    fps: f64,
    speed: u8,
    repeat_delay: u8,
    swing: bool,
    bounds: Option<(f64, f64)>,
    /// Delay, `[x, y, width, height]` and texture index of each frame.
    frames: Vec<(i16, [i16; 4], i16)>,
    textures: Vec<&'a [u8]>,
}

fn layout(bytes: &[u8]) -> Option<Layout<'_>> {
    let mut c = Cursor { bytes, at: 0 };
    let mark_len = c.u16()? as usize;
    if c.take(mark_len)? != FILE_MARK {
        return None;
    }
    let version = c.i32()?;
    if !(100..=102).contains(&version) {
        return None;
    }
    // A zero or negative frame rate cannot time anything; the format's default is 24.
    let fps = match c.i8()? {
        fps if fps > 0 => f64::from(fps),
        _ => 24.0,
    };
    c.take(3)?;
    let mut bounds = None;
    if version >= 102 {
        c.take(4)?;
        bounds = Some((f64::from(c.u16()?), f64::from(c.u16()?)));
    }
    let speed = c.u8()?;
    let repeat_delay = c.u8()?;
    let swing = c.i8()? == 1;

    let frame_count = c.i16()?;
    if frame_count < 0 {
        return None;
    }
    let mut frames = Vec::with_capacity(frame_count as usize);
    for _ in 0..frame_count {
        let delay = c.i16()?;
        let rect = [c.i16()?, c.i16()?, c.i16()?, c.i16()?];
        let texture_index = c.i16()?;
        frames.push((delay, rect, texture_index));
    }
    // The textures follow the frames; a file cut short there still has its frame table,
    // which is all the model needs, so only v101 (bounds after them) must read them all.
    let mut textures = Vec::new();
    let texture_count = c.i16();
    for _ in 0..texture_count.unwrap_or(0).max(0) {
        let Some(texture) = c
            .i32()
            .and_then(|len| usize::try_from(len).ok())
            .and_then(|len| c.take(len))
        else {
            break;
        };
        textures.push(texture);
    }
    if version == 101 {
        if textures.len() != usize::try_from(texture_count?).ok()? {
            return None;
        }
        c.take(4)?;
        bounds = Some((f64::from(c.u16()?), f64::from(c.u16()?)));
    }
    Some(Layout {
        fps,
        speed,
        repeat_delay,
        swing,
        bounds,
        frames,
        textures,
    })
}

/// `None` when the bytes are not a readable JTA v100–v102.
pub fn parse(bytes: &[u8]) -> Option<Jta> {
    let layout = layout(bytes)?;
    let rects: Vec<(i16, [i16; 4])> = layout.frames.iter().map(|(d, r, _)| (*d, *r)).collect();
    let (width, height) = layout.bounds.unwrap_or_else(|| union_bounds(&rects));
    let ms_per_frame = 1000.0 / layout.fps;
    let frames = rects
        .iter()
        .map(|(delay, [x, y, w, h])| JtaFrame {
            rect_x: f64::from(*x),
            rect_y: f64::from(*y),
            rect_width: f64::from(*w),
            rect_height: f64::from(*h),
            add_delay: (ms_per_frame * f64::from(*delay)).trunc(),
        })
        .collect();
    Some(Jta {
        width,
        height,
        interval: (ms_per_frame * f64::from(layout.speed.max(1))).trunc(),
        repeat_delay: (ms_per_frame * f64::from(layout.repeat_delay)).trunc(),
        swing: layout.swing,
        frames,
    })
}

/// One frame's picture: the encoded texture (PNG or JPEG) and where it sits in the clip
/// (`[x, y, width, height]`); `None` when the file or the frame has none.
pub fn frame_texture(bytes: &[u8], frame: usize) -> Option<(&[u8], [f64; 4])> {
    let layout = layout(bytes)?;
    let (_, [x, y, w, h], texture) = *layout.frames.get(frame)?;
    let texture = layout.textures.get(usize::try_from(texture).ok()?)?;
    Some((
        texture,
        [f64::from(x), f64::from(y), f64::from(w), f64::from(h)],
    ))
}

/// Every frame's picture in one parse, for callers that want them all: the index of the
/// texture in the file (frames may share one) and its encoded bytes (PNG or JPEG); `None`
/// for a frame without a texture. Empty when the bytes are not a readable JTA.
pub fn frame_textures(bytes: &[u8]) -> Vec<Option<(usize, &[u8])>> {
    let Some(layout) = layout(bytes) else {
        return Vec::new();
    };
    layout
        .frames
        .iter()
        .map(|&(_, _, texture)| {
            let index = usize::try_from(texture).ok()?;
            Some((index, *layout.textures.get(index)?))
        })
        .collect()
}

/// Rebuilds a movie clip's dimensions, timing and frames from its `.jta` bytes, as the
/// reader does at open (`smoothing` stays: the file does not hold it); false, with the
/// clip unchanged, when the bytes are not a readable JTA.
pub fn rebuild(clip: &mut MovieClipResource, bytes: &[u8]) -> bool {
    let Some(parsed) = parse(bytes) else {
        return false;
    };
    clip.dimensions = Size {
        width: Num(parsed.width),
        height: Num(parsed.height),
    };
    let props = &mut clip.movie_clip;
    props.interval = Num(parsed.interval);
    props.repeat_delay = Num(parsed.repeat_delay);
    props.swing = parsed.swing;
    props.frames = parsed
        .frames
        .into_iter()
        .map(|f| MovieClipFrame {
            rect_x: Num(f.rect_x),
            rect_y: Num(f.rect_y),
            rect_width: Num(f.rect_width),
            rect_height: Num(f.rect_height),
            add_delay: Num(f.add_delay),
            sprite_id: String::new(),
        })
        .collect();
    true
}

/// v100 has no stored bounds: the extent of all non-empty frames, from the origin.
fn union_bounds(frames: &[(i16, [i16; 4])]) -> (f64, f64) {
    let mut extent: Option<(i32, i32, i32, i32)> = None;
    for (_, [x, y, w, h]) in frames {
        if *w <= 0 || *h <= 0 {
            continue;
        }
        let (x, y, right, bottom) = (
            i32::from(*x),
            i32::from(*y),
            i32::from(*x) + i32::from(*w),
            i32::from(*y) + i32::from(*h),
        );
        extent = Some(match extent {
            None => (x, y, right, bottom),
            Some((a, b, c, d)) => (a.min(x), b.min(y), c.max(right), d.max(bottom)),
        });
    }
    match extent {
        Some((min_x, min_y, max_x, max_y)) => (
            f64::from(max_x - min_x.min(0)),
            f64::from(max_y - min_y.min(0)),
        ),
        None => (0.0, 0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::test_support::{assert_ok, corrupt};
    use crate::testing::unity_root;

    /// A JTA with one frame and no textures.
    fn sample(version: i32) -> Vec<u8> {
        let mut b = vec![0, 5];
        b.extend_from_slice(b"yytou");
        b.extend_from_slice(&version.to_be_bytes());
        b.extend_from_slice(&[25, 0, 0, 0]);
        if version >= 102 {
            b.extend_from_slice(&[0, 0, 0, 0, 0, 96, 0, 72]);
        }
        b.extend_from_slice(&[2, 4, 1]);
        b.extend_from_slice(&1i16.to_be_bytes());
        for v in [3i16, 0, 0, 96, 72, -1] {
            b.extend_from_slice(&v.to_be_bytes());
        }
        b.extend_from_slice(&0i16.to_be_bytes());
        if version == 101 {
            b.extend_from_slice(&[0, 0, 0, 0, 0, 96, 0, 72]);
        }
        b
    }

    #[test]
    fn derives_milliseconds_for_all_versions() {
        for version in [100, 101, 102] {
            let jta = parse(&sample(version)).expect("parses");
            assert_eq!((jta.width, jta.height), (96.0, 72.0), "v{version}");
            assert_eq!(jta.interval, 80.0);
            assert_eq!(jta.repeat_delay, 160.0);
            assert!(jta.swing);
            assert_eq!(jta.frames.len(), 1);
            assert_eq!(jta.frames[0].add_delay, 120.0);
            assert_eq!(jta.frames[0].rect_width, 96.0);
        }
    }

    #[test]
    fn v100_bounds_include_the_origin() {
        let mut b = sample(100);
        // Move the frame to (-30,-20): the extent stays 96×72 wide from its own corner.
        let frame_at = 2 + 5 + 4 + 4 + 3 + 2 + 2;
        b[frame_at..frame_at + 2].copy_from_slice(&(-30i16).to_be_bytes());
        b[frame_at + 2..frame_at + 4].copy_from_slice(&(-20i16).to_be_bytes());
        let jta = parse(&b).expect("parses");
        assert_eq!((jta.width, jta.height), (96.0, 72.0));
    }

    #[test]
    fn rejects_other_files_and_never_panics() {
        assert_eq!(parse(b""), None);
        assert_eq!(parse(b"\x00\x05yytoX"), None);
        let mut b = sample(103);
        assert_eq!(parse(&b), None);
        b = sample(102);
        // v102 needs nothing after the frame table (the texture count is not read).
        for end in 0..b.len() - 2 {
            assert_eq!(parse(&b[..end]), None, "prefix {end}");
        }
        for i in 0..b.len() {
            let mut m = b.clone();
            m[i] ^= 0xff;
            let _ = parse(&m);
        }
    }

    #[test]
    fn movie_clips_must_parse() {
        let path = unity_root().join("assets/Basics/images/nlge1k.jta");
        let jta = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_ok("movieClip", "nlge1k.jta", &jta);
        let mut garbled = jta.clone();
        garbled[3] ^= 0x20;
        assert!(corrupt("movieClip", "nlge1k.jta", &garbled).contains("JTA"));
        // Cut inside the frame table (the texture data after it is not parsed).
        corrupt("movieClip", "nlge1k.jta", &jta[..40]);
        corrupt("movieClip", "nlge1k.jta", b"not a movie clip");
    }
}
