//! BMFont `.fnt` text files as the FairyGUI editor writes them: parsed into plain data,
//! nothing resolved. Previews draw them (`render::bitmap`) and publishing writes their glyphs
//! and places their texture (`publish`).
//!
//! Two flavours exist in projects: an atlas font made by BMFont (`info face=…`, `page` lines,
//! per-char `x y width height`), whose atlas the package often names by the `texture`
//! attribute of its `<font>` item; and a font made in the editor (`info creator=UIBuilder`),
//! where each `char` names a whole image resource of the same package with `img=`.

/// Upper bound on `char` lines kept: a font file is user data and a char is a whole glyph.
const MAX_CHARS: usize = 65_536;
/// Numbers in a .fnt are clamped to this, so arithmetic on them cannot overflow.
const MAX_NUMBER: i32 = 1 << 16;

/// The `info` line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FntInfo {
    /// The TrueType face BMFont rendered from; present only in atlas fonts.
    pub face: Option<String>,
    pub creator: Option<String>,
    pub size: i32,
    pub bold: bool,
    pub italic: bool,
    /// FairyGUI flag: whether the text colour tints the glyphs (`BitmapFont::tint` in
    /// `render::bitmap`).
    pub colored: Option<bool>,
    /// FairyGUI flag: glyphs scale to the text's font size.
    pub resizable: bool,
}

/// The `common` line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FntCommon {
    pub line_height: i32,
    pub base: i32,
    pub scale_w: i32,
    pub scale_h: i32,
    pub pages: i32,
    pub packed: bool,
    /// FairyGUI extension: one advance for every glyph that gives none.
    pub xadvance: i32,
}

/// A `page` line: one atlas texture.
#[derive(Debug, Clone, PartialEq)]
pub struct FntPage {
    pub id: u32,
    pub file: String,
}

/// A `char` line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FntChar {
    pub id: u32,
    pub x: i32,
    pub y: i32,
    pub width: i32,
    pub height: i32,
    pub xoffset: i32,
    pub yoffset: i32,
    pub xadvance: i32,
    pub page: u32,
    pub chnl: u32,
    /// The image resource id of an editor-made font's glyph.
    pub img: Option<String>,
}

/// A parsed `.fnt` file: plain data, nothing resolved.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FntFile {
    pub info: FntInfo,
    pub common: FntCommon,
    pub pages: Vec<FntPage>,
    pub chars: Vec<FntChar>,
}

/// Splits `key=value key="quoted value"` pairs; quotes may hold spaces (`face="Arial Black"`).
fn pairs(rest: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut s = rest.trim_start();
    while !s.is_empty() {
        let key_end = s
            .find(|c: char| c == '=' || c.is_whitespace())
            .unwrap_or(s.len());
        let key = &s[..key_end];
        s = &s[key_end..];
        let Some(after_eq) = s.strip_prefix('=') else {
            // A bare word: no value.
            out.push((key, ""));
            s = s.trim_start();
            continue;
        };
        let (value, rest) = if let Some(quoted) = after_eq.strip_prefix('"') {
            match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => (quoted, ""),
            }
        } else {
            let end = after_eq.find(char::is_whitespace).unwrap_or(after_eq.len());
            (&after_eq[..end], &after_eq[end..])
        };
        out.push((key, value));
        s = rest.trim_start();
    }
    out
}

fn int(value: &str) -> i32 {
    // Lenient like the runtimes: a bad number reads as 0.
    value
        .trim()
        .parse::<i64>()
        .map(|v| v.clamp(-i64::from(MAX_NUMBER), i64::from(MAX_NUMBER)) as i32)
        .unwrap_or(0)
}

fn flag(value: &str) -> bool {
    matches!(value.trim(), "1" | "true" | "True" | "TRUE")
}

/// Reads a BMFont text file. `Err` when the text is not one (no `info`, `common` or `char`
/// line, or the XML/binary BMFont formats, which FairyGUI projects do not use).
pub fn parse_fnt(text: &str) -> Result<FntFile, String> {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('<') {
        return Err("XML BMFont files are not supported".into());
    }
    if trimmed.as_bytes().starts_with(b"BMF") {
        return Err("binary BMFont files are not supported".into());
    }
    let mut fnt = FntFile::default();
    let mut recognised = false;
    for line in trimmed.lines() {
        let line = line.trim();
        let (tag, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        match tag {
            "info" => {
                recognised = true;
                for (k, v) in pairs(rest) {
                    match k {
                        "face" => fnt.info.face = Some(v.to_string()),
                        "creator" => fnt.info.creator = Some(v.to_string()),
                        "size" => fnt.info.size = int(v),
                        "bold" => fnt.info.bold = flag(v),
                        "italic" => fnt.info.italic = flag(v),
                        "colored" => fnt.info.colored = Some(flag(v)),
                        "resizable" => fnt.info.resizable = flag(v),
                        _ => {}
                    }
                }
            }
            "common" => {
                recognised = true;
                for (k, v) in pairs(rest) {
                    match k {
                        "lineHeight" => fnt.common.line_height = int(v),
                        "base" => fnt.common.base = int(v),
                        "scaleW" => fnt.common.scale_w = int(v),
                        "scaleH" => fnt.common.scale_h = int(v),
                        "pages" => fnt.common.pages = int(v),
                        "packed" => fnt.common.packed = flag(v),
                        "xadvance" => fnt.common.xadvance = int(v),
                        _ => {}
                    }
                }
            }
            "page" => {
                let mut page = FntPage {
                    id: 0,
                    file: String::new(),
                };
                for (k, v) in pairs(rest) {
                    match k {
                        "id" => page.id = int(v).max(0) as u32,
                        "file" => page.file = v.to_string(),
                        _ => {}
                    }
                }
                if fnt.pages.len() < MAX_CHARS {
                    fnt.pages.push(page);
                }
            }
            "char" => {
                recognised = true;
                let mut ch = FntChar {
                    chnl: 15,
                    ..FntChar::default()
                };
                for (k, v) in pairs(rest) {
                    match k {
                        "id" => ch.id = int(v).max(0) as u32,
                        "x" => ch.x = int(v),
                        "y" => ch.y = int(v),
                        "width" => ch.width = int(v),
                        "height" => ch.height = int(v),
                        "xoffset" => ch.xoffset = int(v),
                        "yoffset" => ch.yoffset = int(v),
                        "xadvance" => ch.xadvance = int(v),
                        "page" => ch.page = int(v).max(0) as u32,
                        "chnl" => ch.chnl = int(v).max(0) as u32,
                        "img" if !v.is_empty() => ch.img = Some(v.to_string()),
                        _ => {}
                    }
                }
                if fnt.chars.len() < MAX_CHARS {
                    fnt.chars.push(ch);
                }
            }
            _ => {}
        }
    }
    if !recognised {
        return Err("not a BMFont text file (no info, common or char line)".into());
    }
    Ok(fnt)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus(rel: &str) -> String {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpora/").to_string() + rel;
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        // BMFontTest.fnt's face name is in a legacy code page.
        String::from_utf8_lossy(&bytes).into_owned()
    }

    #[test]
    fn reads_the_atlas_font_of_the_basics_demo() {
        let fnt = parse_fnt(&corpus(
            "fairygui-unity-examples/UIProject/assets/Basics/font/BMFontTest.fnt",
        ))
        .expect("parses");
        assert_eq!(fnt.info.size, 32);
        assert!(fnt.info.face.is_some());
        assert_eq!(fnt.common.line_height, 32);
        assert_eq!(fnt.common.base, 26);
        assert_eq!(fnt.common.scale_w, 256);
        assert_eq!(
            fnt.pages,
            vec![FntPage {
                id: 0,
                file: "11_0.png".into()
            }]
        );
        assert_eq!(fnt.chars.len(), 15);
        let i = fnt.chars.iter().find(|c| c.id == 73).expect("char I");
        assert_eq!((i.x, i.y, i.width, i.height), (59, 25, 5, 17));
        assert_eq!((i.xoffset, i.yoffset, i.xadvance, i.chnl), (0, 9, 5, 15));
        assert!(i.img.is_none());
    }

    #[test]
    fn reads_an_editor_made_image_per_glyph_font() {
        let fnt = parse_fnt(&corpus(
            "fairygui-unity-examples/UIProject/assets/Basics/font/HitNumber.fnt",
        ))
        .expect("parses");
        assert_eq!(fnt.info.creator.as_deref(), Some("UIBuilder"));
        assert!(fnt.info.face.is_none());
        assert_eq!(fnt.common.line_height, 0);
        assert_eq!(fnt.chars.len(), 10);
        assert_eq!(fnt.chars[0].id, 48);
        assert_eq!(fnt.chars[0].img.as_deref(), Some("duef6n"));
        assert_eq!(fnt.chars[0].xadvance, 33);
        assert!(fnt.pages.is_empty());
    }

    #[test]
    fn refuses_what_is_not_a_text_bmfont_and_survives_garbage() {
        assert!(parse_fnt("").is_err());
        assert!(parse_fnt("<?xml version=\"1.0\"?><font/>").is_err());
        assert!(parse_fnt("BMF\u{3}junk").is_err());
        assert!(parse_fnt("hello world").is_err());
        let odd = parse_fnt(
            "info face=\"unterminated size=99999999999\nchar id=x x== y=\"\" width=-5 =3",
        )
        .expect("lenient");
        assert_eq!(odd.chars.len(), 1);
        assert_eq!(odd.chars[0].width, -5);
    }
}
