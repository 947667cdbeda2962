//! Drawable fonts built from BMFont `.fnt` files (parsed by `formats::fnt`): an atlas font's
//! glyphs are cut from its texture, an editor-made font's glyphs are whole image resources.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use tiny_skia::{IntRect, Pixmap};

use crate::formats::fnt::{FntChar, FntFile};

/// Which image a glyph comes from, for the caller to resolve to pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GlyphImageRef<'a> {
    /// An atlas page (`page id=… file=…`); in FairyGUI packages usually the image resource
    /// named by the `<font texture=…>` attribute instead of `file`.
    Atlas { page: u32, file: &'a str },
    /// A whole image resource of the font's package (`char … img=<id>`).
    Resource { id: &'a str },
}

/// One drawable glyph, in the font's own pixels.
#[derive(Debug, Clone)]
pub struct BitmapGlyph {
    /// `None` when its image could not be resolved: the glyph is missing when drawn.
    pub image: Option<Pixmap>,
    /// Top-left of the image relative to the pen, with y from the top of the glyph's line.
    pub x: f32,
    pub y: f32,
    pub advance: i32,
    /// The height the glyph takes in a line; the runtimes put the whole line above the
    /// baseline for bitmap fonts.
    pub line_height: i32,
}

/// A BMFont ready to draw.
#[derive(Debug)]
pub struct BitmapFont {
    /// Distinguishes fonts in glyph caches.
    pub id: u64,
    /// The size the glyphs were made at.
    pub size: i32,
    /// Glyphs scale to the text's size (else they are drawn at `size`).
    pub resizable: bool,
    /// FairyGUI (AS3 loadFont; Unity's `canTint`): the text colour multiplies the glyphs when
    /// the file says `colored=true`, and by default only for BMFont atlas fonts (`face` given).
    pub tint: bool,
    glyphs: HashMap<char, BitmapGlyph>,
    /// The line height of the first glyph in the file, which is what the runtime reports as
    /// the font's line height.
    first_line_height: i32,
}

fn next_font_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl BitmapFont {
    /// Builds the font from a parsed file; `image` resolves each atlas page (asked once per
    /// page) or glyph image resource. Unresolved images leave their glyphs without pixels.
    pub fn build(
        fnt: &FntFile,
        mut image: impl FnMut(GlyphImageRef<'_>) -> Option<Pixmap>,
    ) -> BitmapFont {
        let atlas_font =
            fnt.info.face.is_some() || fnt.chars.iter().any(|c| c.img.is_none() && c.width > 0);
        // The runtimes' size rules: info size, else the common line height, else (editor
        // fonts) the first glyph image's height.
        let mut size = fnt.info.size.max(0);
        let mut line_height = fnt.common.line_height.max(0);
        if size == 0 {
            size = line_height;
        } else if line_height == 0 {
            line_height = size;
        }
        let mut pages: HashMap<u32, Option<Pixmap>> = HashMap::new();
        let mut glyphs = HashMap::new();
        let mut first_line_height = None;
        for c in &fnt.chars {
            let Some(ch) = char::from_u32(c.id) else {
                continue;
            };
            let (pixels, w, h) = if let Some(id) = c.img.as_deref() {
                let img = image(GlyphImageRef::Resource { id });
                let (w, h) = img.as_ref().map_or((c.width, c.height), |p| {
                    (p.width() as i32, p.height() as i32)
                });
                (img, w, h)
            } else {
                let page = pages.entry(c.page).or_insert_with(|| {
                    let file = fnt
                        .pages
                        .iter()
                        .find(|p| p.id == c.page)
                        .map_or("", |p| p.file.as_str());
                    image(GlyphImageRef::Atlas { page: c.page, file })
                });
                let cut = page
                    .as_ref()
                    .and_then(|atlas| cut_glyph(atlas, c, fnt.common.packed));
                (cut, c.width, c.height)
            };
            if size == 0 {
                size = h.max(0);
            }
            let advance = if c.xadvance != 0 || atlas_font {
                c.xadvance
            } else if fnt.common.xadvance != 0 {
                fnt.common.xadvance
            } else {
                c.xoffset + w
            };
            let glyph_line_height = if atlas_font {
                line_height
            } else {
                let lh = if c.yoffset < 0 { h } else { c.yoffset + h };
                lh.max(size)
            };
            first_line_height.get_or_insert(glyph_line_height);
            glyphs.insert(
                ch,
                BitmapGlyph {
                    image: pixels,
                    x: c.xoffset as f32,
                    y: c.yoffset as f32,
                    advance,
                    line_height: glyph_line_height,
                },
            );
        }
        BitmapFont {
            id: next_font_id(),
            size,
            resizable: fnt.info.resizable,
            tint: fnt.info.colored.unwrap_or(fnt.info.face.is_some()),
            glyphs,
            first_line_height: first_line_height.unwrap_or(line_height),
        }
    }

    pub fn glyph(&self, ch: char) -> Option<&BitmapGlyph> {
        self.glyphs.get(&ch)
    }

    pub fn glyph_count(&self) -> usize {
        self.glyphs.len()
    }

    /// How much the glyphs are scaled for text of `font_size` px (the runtime's rule: only
    /// resizable fonts follow the text's size).
    pub fn scale_for(&self, font_size: f32) -> f32 {
        if self.resizable && self.size > 0 && font_size > 0.0 {
            font_size / self.size as f32
        } else {
            1.0
        }
    }

    /// The font's line height at `scale`, as the runtime reports it (first glyph's).
    pub fn line_height(&self, scale: f32) -> f32 {
        (self.first_line_height as f32 * scale).round()
    }
}

/// The glyph's sub-rectangle of its atlas page; with a packed atlas and a single channel
/// the glyph is that channel as white-with-alpha.
fn cut_glyph(atlas: &Pixmap, c: &FntChar, packed: bool) -> Option<Pixmap> {
    let rect = IntRect::from_xywh(
        c.x,
        c.y,
        u32::try_from(c.width).ok()?,
        u32::try_from(c.height).ok()?,
    )?;
    let mut glyph = atlas.clone_rect(rect)?;
    // BMFont channel bits: 1 blue, 2 green, 4 red, 8 alpha; 15 = all (a plain image).
    let channel = match c.chnl {
        1 => 2,
        2 => 1,
        4 => 0,
        8 => 3,
        _ => return Some(glyph),
    };
    if !packed {
        return Some(glyph);
    }
    // One-off per glyph at build time: no tiny-skia operation picks a channel as alpha.
    for px in glyph.pixels_mut() {
        let c = px.demultiply();
        let a = [c.red(), c.green(), c.blue(), c.alpha()][channel];
        if let Some(white) = tiny_skia::PremultipliedColorU8::from_rgba(a, a, a, a) {
            *px = white;
        }
    }
    Some(glyph)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::fnt::parse_fnt;

    #[test]
    fn a_garbled_file_builds_without_panicking() {
        let odd = parse_fnt(
            "info face=\"unterminated size=99999999999\nchar id=x x== y=\"\" width=-5 =3",
        )
        .expect("lenient");
        // A glyph with a negative size resolves to no pixels instead of panicking.
        let font = BitmapFont::build(&odd, |_| Pixmap::new(4, 4));
        assert!(font.glyph('\0').is_some_and(|g| g.image.is_none()));
    }

    #[test]
    fn builds_atlas_glyphs_from_one_page_fetch_and_editor_glyphs_from_resources() {
        let fnt = parse_fnt(
            "info face=\"X\" size=10\ncommon lineHeight=12 base=9\npage id=0 file=\"a.png\"\n\
             char id=65 x=2 y=1 width=3 height=4 xoffset=1 yoffset=2 xadvance=5 page=0 chnl=15\n\
             char id=66 x=0 y=0 width=2 height=2 xoffset=0 yoffset=0 xadvance=3 page=0 chnl=15\n",
        )
        .expect("parses");
        let mut fetches = 0;
        let font = BitmapFont::build(&fnt, |r| {
            fetches += 1;
            assert_eq!(
                r,
                GlyphImageRef::Atlas {
                    page: 0,
                    file: "a.png"
                }
            );
            Pixmap::new(8, 8)
        });
        assert_eq!(fetches, 1);
        let a = font.glyph('A').expect("A");
        let img = a.image.as_ref().expect("cut");
        assert_eq!((img.width(), img.height()), (3, 4));
        assert_eq!((a.advance, a.line_height), (5, 12));
        assert!(font.tint, "atlas fonts tint by default");

        let editor = parse_fnt("info creator=UIBuilder colored=true\ncommon lineHeight=0\nchar id=49 img=abc xoffset=0 yoffset=0 xadvance=0\nchar id=50 img=gone")
            .expect("parses");
        let font = BitmapFont::build(&editor, |r| match r {
            GlyphImageRef::Resource { id: "abc" } => Pixmap::new(7, 9),
            _ => None,
        });
        let one = font.glyph('1').expect("1");
        assert_eq!((one.advance, one.line_height), (7, 9));
        assert_eq!(font.size, 9);
        assert!(font.tint);
        assert!(font.glyph('2').is_some_and(|g| g.image.is_none()));
        assert!(
            !BitmapFont::build(&parse_fnt("info creator=UIBuilder").expect("ok"), |_| None).tint
        );
    }
}
