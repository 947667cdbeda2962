//! Byte formats: the one place that reads PNG, JPEG, SVG, JTA and BMFont bytes and spots Git
//! LFS pointers, for the reader (image sizes, movie clips), transactions (bytes an operation
//! brings), validation (corrupt files), previews and publishing (fonts, movie-clip frames).
//! One file per format: [`png`], [`jpeg`], [`svg`], [`jta`], [`fnt`], [`lfs`].
//!
//! The checks are structural probes, never decoders: a PNG's chunk walk with every CRC,
//! a JPEG's marker walk through its scans to the EOI marker, an SVG's XML tree with its
//! unsafe elements and references, and a movie clip's JTA parse. No pixels are decoded
//! and no zlib stream is inflated, so the whole corpus is checked in a few milliseconds.
//!
//! Decisions where the upstream probe is stricter or looser than a decoder:
//! - Bytes after a PNG's IEND chunk or after a JPEG's EOI marker are accepted without a
//!   diagnostic. Every decoder (libpng, libjpeg, browsers, Unity) stops reading there, so
//!   the image is complete and usable; tools that append data (metadata, camera extras)
//!   would otherwise have their files called corrupt. A cut-off file is still caught: it
//!   has no IEND chunk, or its last scan runs into the end of the file without an EOI.
//! - An SVG `url(…)` is allowed when it names a same-document fragment (`url(#grad)`), as
//!   upstream allows; gradients, clip paths and filters need it. Any other `url(` is corrupt.
//! - URL schemes (`http:`, `https:`, `file:`, `javascript:`, `data:`) and `//` count when
//!   they start a token (after the start, a space, `(`, a quote, `=`, `,` or `;`), as in
//!   upstream, so a text like `metadata: x` is not mistaken for a `data:` URL.
//! - For `.png`, `.jpg` and `.jpeg` the signature decides between the PNG and the JPEG
//!   check, as decoders and upstream do: real editor projects hold PNG files named `.jpg`.
//! - Beyond the required SVG rules, upstream's newest list of active elements (`a`,
//!   `audio`, `canvas`, `discard`, `embed`, `feImage`, `object`, `video`), an
//!   `xml-stylesheet` instruction and a root outside the SVG namespace are refused too.
//! - Upstream calls every refused SVG corrupt. Here an SVG that is well-formed but holds
//!   what this server will not read (a DTD, active or external content) is
//!   [`FileProblem::Refused`]: validation reports it unchecked (a warning, the report
//!   incomplete), never corrupt, since the file may be perfectly valid. `style`
//!   attributes and `<style>` sheets are drawing content, not active content: they pass,
//!   with the same external-reference checks as any value (upstream refuses both).
//! - A Git LFS pointer in place of any kind's file is [`FileProblem::LfsPointer`], named as
//!   such with `git lfs pull`, rather than a PNG without a signature or, for kinds not
//!   looked into, nothing at all.

pub mod fnt;
pub mod jpeg;
pub mod jta;
pub mod lfs;
pub mod png;
pub mod svg;

use ofgui_contracts::Num;
use ofgui_contracts::uam::{Size, UamResource};

/// What is wrong with a resource file's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileProblem {
    /// The file is empty or does not decode as its format.
    Corrupt(String),
    /// A Git LFS pointer stands where the content should be (never fetched).
    LfsPointer(String),
    /// Well-formed, but holding what this server will not read, for safety (an SVG's DTD,
    /// scripts or external references): not vouched for, yet maybe perfectly valid.
    Refused(String),
    /// The format cannot be checked here (GIF, BMP, …), so the bytes are unknown.
    Unchecked(String),
}

/// Inspects one resource file, with every verdict told apart (what validation reports).
/// `kind` is the UAM resource kind (`image`, `movieClip`, `font`, `sound`, `misc`, `spine`,
/// `dragonBones`), `file_name` its primary file name (for the extension). Every kind is
/// checked for emptiness and for a Git LFS pointer; images and movie clips are looked into.
pub fn inspect(kind: &str, file_name: &str, bytes: &[u8]) -> Result<(), FileProblem> {
    if bytes.is_empty() {
        return Err(FileProblem::Corrupt("The source file is empty".into()));
    }
    if let Some(message) = lfs::message(bytes) {
        return Err(FileProblem::LfsPointer(message));
    }
    match kind {
        "image" => check_image(file_name, bytes),
        "movieClip" if jta::parse(bytes).is_none() => Err(FileProblem::Corrupt(
            "The movie clip is not a readable JTA file (v100–v102)".into(),
        )),
        _ => Ok(()),
    }
}

/// Whether bytes may become a resource's file (what transactions ask of the bytes an
/// operation brings): as [`inspect`], except that a pointer or refused content is not
/// usable content, so it counts as [`FileProblem::Corrupt`] with its own message.
pub fn check(kind: &str, file_name: &str, bytes: &[u8]) -> Result<(), FileProblem> {
    inspect(kind, file_name, bytes).map_err(|problem| match problem {
        FileProblem::LfsPointer(message) | FileProblem::Refused(message) => {
            FileProblem::Corrupt(message)
        }
        other => other,
    })
}

fn check_image(file_name: &str, bytes: &[u8]) -> Result<(), FileProblem> {
    let ext = extension(file_name);
    let result = match ext.as_str() {
        // The extension picks the raster family; the signature picks the format, as the
        // decoders do: the editor saves some PNG files as `.jpg` (and upstream sniffs too).
        "png" | "jpg" | "jpeg" => {
            let looks_png =
                png::SIGNATURE.starts_with(&bytes[..bytes.len().min(png::SIGNATURE.len())]);
            let looks_jpeg = bytes.starts_with(&jpeg::SOI);
            if looks_png || (ext == "png" && !looks_jpeg) {
                png::check(bytes)
            } else {
                jpeg::check(bytes)
            }
        }
        "svg" => {
            return svg::check(bytes).map_err(|problem| match problem {
                svg::SvgProblem::Malformed(message) => FileProblem::Corrupt(message),
                svg::SvgProblem::Refused(message) => FileProblem::Refused(message),
            });
        }
        "" => {
            return Err(FileProblem::Unchecked(
                "An image without a file extension cannot be checked here; only PNG, JPEG and SVG sources can".into(),
            ));
        }
        other => {
            return Err(FileProblem::Unchecked(format!(
                "A .{other} image cannot be checked here; only PNG, JPEG and SVG sources can"
            )));
        }
    };
    result.map_err(FileProblem::Corrupt)
}

/// The pixel size a PNG or JPEG header declares; `None` for other bytes.
pub fn image_size(bytes: &[u8]) -> Option<Size> {
    png::size(bytes)
        .or_else(|| jpeg::size(bytes))
        .map(|(w, h)| Size {
            width: Num(f64::from(w)),
            height: Num(f64::from(h)),
        })
}

/// Takes into a resource's model what its file says, as the reader does at open: an
/// image's PNG/JPEG header size (it wins over a declared size), a movie clip's size, timing
/// and frames from its `.jta`. Bytes that do not parse leave the model as it is.
pub fn update_from_file(resource: &mut UamResource, bytes: &[u8]) {
    match resource {
        UamResource::Image(image) => {
            if let Some(size) = image_size(bytes) {
                image.dimensions = Some(size);
            }
        }
        UamResource::MovieClip(clip) => {
            jta::rebuild(clip, bytes);
        }
        _ => {}
    }
}

/// The lower-case extension of a file name, without the dot; `""` when there is none.
/// Any last dot counts, so a file called `.png` is checked as a PNG.
fn extension(file_name: &str) -> String {
    match file_name.rsplit_once('.') {
        Some((_, ext)) => ext.to_ascii_lowercase(),
        None => String::new(),
    }
}

/// The lower-case extension of a resource's file name, as its name reads it: `None`
/// without a dot, or when the only dot starts the name (`.png` is a name, not a format).
pub fn name_extension(file: &str) -> Option<String> {
    file.rsplit_once('.')
        .filter(|(stem, _)| !stem.is_empty())
        .map(|(_, ext)| ext.to_ascii_lowercase())
}

/// The two raster formats images are checked and replaced in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Raster {
    Png,
    Jpeg,
}

impl Raster {
    /// By the complete signature (PNG) or start marker (JPEG) the bytes begin with.
    pub fn sniff(bytes: &[u8]) -> Option<Raster> {
        if bytes.starts_with(&png::SIGNATURE) {
            Some(Raster::Png)
        } else if bytes.starts_with(&jpeg::SOI) {
            Some(Raster::Jpeg)
        } else {
            None
        }
    }

    /// By a file name's extension (`.png`; `.jpg` or `.jpeg`).
    pub fn of_name(file: &str) -> Option<Raster> {
        match name_extension(file).as_deref() {
            Some("png") => Some(Raster::Png),
            Some("jpg" | "jpeg") => Some(Raster::Jpeg),
            _ => None,
        }
    }

    /// `png` or `jpeg`.
    pub fn name(self) -> &'static str {
        match self {
            Raster::Png => "png",
            Raster::Jpeg => "jpeg",
        }
    }
}

/// How an image file's bytes are read, by its name: raster (PNG/JPEG, sniffed), SVG, or
/// something else (the extension, if any).
#[derive(Debug, PartialEq)]
pub enum ImageFamily {
    Raster,
    Svg,
    Other(Option<String>),
}

impl ImageFamily {
    pub fn of_name(file: &str) -> ImageFamily {
        match name_extension(file).as_deref() {
            Some("png" | "jpg" | "jpeg") => ImageFamily::Raster,
            Some("svg") => ImageFamily::Svg,
            other => ImageFamily::Other(other.map(str::to_string)),
        }
    }
}

/// Reads a big-endian `u16` at `at`, if the bytes reach that far.
fn be16(bytes: &[u8], at: usize) -> Option<u16> {
    let b = bytes.get(at..at.checked_add(2)?)?;
    Some(u16::from_be_bytes([b[0], b[1]]))
}

/// Reads a big-endian `u32` at `at`, if the bytes reach that far.
fn be32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

/// What the format tests share: a check's verdict as a message or a pass.
#[cfg(test)]
pub(crate) mod test_support {
    use super::{FileProblem, check, inspect};

    /// The message of a corrupt-file verdict; panics on anything else.
    pub(crate) fn corrupt(kind: &str, file_name: &str, bytes: &[u8]) -> String {
        match inspect(kind, file_name, bytes) {
            Err(FileProblem::Corrupt(message)) => message,
            other => panic!("{file_name}: expected a corrupt file, got {other:?}"),
        }
    }

    /// The message of a refusal; panics on anything else. Bytes refused here are refused
    /// as new content too, with the same message.
    pub(crate) fn refused(kind: &str, file_name: &str, bytes: &[u8]) -> String {
        match inspect(kind, file_name, bytes) {
            Err(FileProblem::Refused(message)) => {
                assert_eq!(
                    check(kind, file_name, bytes),
                    Err(FileProblem::Corrupt(message.clone()))
                );
                message
            }
            other => panic!("{file_name}: expected a refused file, got {other:?}"),
        }
    }

    pub(crate) fn assert_ok(kind: &str, file_name: &str, bytes: &[u8]) {
        assert_eq!(inspect(kind, file_name, bytes), Ok(()), "{file_name}");
        assert_eq!(check(kind, file_name, bytes), Ok(()), "{file_name}");
    }
}

#[cfg(test)]
mod tests {
    use super::jpeg::tests::tiny_jpeg;
    use super::png::tests::{PANEL_PNG, tiny_png};
    use super::svg::tests::svg;
    use super::test_support::{assert_ok, corrupt};
    use super::*;

    #[test]
    fn raster_format_is_sniffed_from_the_signature() {
        // The editor saves some PNG files under a `.jpg` name; decoders sniff, and so do we.
        assert_ok("image", "a.png.jpg", &tiny_png());
        assert_ok("image", "a.jpeg", PANEL_PNG);
        assert_ok("image", "a.png", &tiny_jpeg());
        // Sniffed, then checked in full.
        let mut png = tiny_png();
        png[42] ^= 0x01;
        assert!(corrupt("image", "a.jpg", &png).contains("bad CRC"));
        assert!(corrupt("image", "a.png", &tiny_jpeg()[..20]).contains("JPEG"));
        assert!(corrupt("image", "a.jpg", &tiny_png()[..4]).contains("PNG is truncated"));
        // Neither signature: the extension names what was expected.
        assert!(corrupt("image", "a.jpg", b"GIF89a").contains("JPEG SOI"));
        assert!(corrupt("image", "a.png", b"GIF89a").contains("PNG signature"));
    }

    #[test]
    fn hostile_bytes_never_panic() {
        let seeds = [tiny_png(), tiny_jpeg(), svg(r##"<use href="#a"/>"##)];
        for seed in &seeds {
            for at in 0..seed.len() {
                for value in [0x00, 0x01, 0x7f, 0xc0, 0xd8, 0xd9, 0xda, 0xff] {
                    let mut bytes = seed.clone();
                    bytes[at] = value;
                    for name in ["a.png", "a.jpg", "a.svg"] {
                        let _ = check("image", name, &bytes);
                    }
                    let _ = check("movieClip", "a.jta", &bytes);
                }
            }
        }
    }

    #[test]
    fn other_image_formats_cannot_be_checked() {
        let unchecked = |name: &str, bytes: &[u8]| match check("image", name, bytes) {
            Err(FileProblem::Unchecked(message)) => message,
            other => panic!("{name}: expected an unchecked file, got {other:?}"),
        };
        for name in ["a.gif", "a.bmp", "a.tga", "a.WEBP", "noextension"] {
            assert!(unchecked(name, b"GIF89a").contains("cannot be checked here"));
        }
        assert!(unchecked("a.gif", b"x").contains(".gif"));
    }

    #[test]
    fn empty_files_are_corrupt_for_every_kind() {
        for (kind, name) in [
            ("image", "a.png"),
            ("image", "a.gif"),
            ("image", "a.svg"),
            ("movieClip", "a.jta"),
            ("font", "a.fnt"),
            ("sound", "a.wav"),
            ("misc", "a.txt"),
            ("spine", "a.json"),
            ("dragonBones", "a_ske.json"),
        ] {
            assert_eq!(
                corrupt(kind, name, &[]),
                "The source file is empty",
                "{kind}"
            );
        }
        // Other kinds are not looked into.
        for kind in ["font", "sound", "misc", "spine", "dragonBones"] {
            assert_ok(kind, "a.png", b"anything at all");
        }
    }

    #[test]
    fn git_lfs_pointers_are_named_for_every_kind() {
        let pointer = super::lfs::tests::POINTER.as_bytes();
        for (kind, name) in [
            ("image", "a.png"),
            ("image", "a.svg"),
            ("image", "a.gif"),
            ("movieClip", "a.jta"),
            ("font", "a.fnt"),
            ("sound", "a.wav"),
            ("misc", "a.bytes"),
            ("spine", "a.json"),
            ("dragonBones", "a_ske.json"),
        ] {
            let Err(FileProblem::LfsPointer(message)) = inspect(kind, name, pointer) else {
                panic!("{kind} {name}: not reported as a Git LFS pointer");
            };
            assert!(message.contains("Git LFS pointer"), "{message}");
            assert!(message.contains("`git lfs pull`"), "{message}");
            // New bytes that are a pointer are refused with the same words.
            assert_eq!(
                check(kind, name, pointer),
                Err(FileProblem::Corrupt(message))
            );
        }
    }

    #[test]
    fn image_size_reads_png_and_jpeg_headers_only() {
        let size = |w: f64, h: f64| Size {
            width: Num(w),
            height: Num(h),
        };
        assert_eq!(
            image_size(PANEL_PNG).map(|s| s.width.get() > 0.0),
            Some(true)
        );
        assert_eq!(image_size(&tiny_png()), Some(size(1.0, 1.0)));
        assert_eq!(image_size(&tiny_jpeg()), Some(size(8.0, 8.0)));
        assert_eq!(image_size(&svg("")), None);
    }

    #[test]
    fn rasters_are_named_by_signature_or_extension() {
        assert_eq!(Raster::sniff(&tiny_png()), Some(Raster::Png));
        assert_eq!(Raster::sniff(&tiny_jpeg()), Some(Raster::Jpeg));
        assert_eq!(Raster::sniff(&tiny_png()[..4]), None);
        assert_eq!(Raster::of_name("a.JPEG"), Some(Raster::Jpeg));
        assert_eq!(Raster::of_name(".png"), None);
        assert_eq!(ImageFamily::of_name("a.png.svg"), ImageFamily::Svg);
        assert_eq!(
            ImageFamily::of_name("a.gif"),
            ImageFamily::Other(Some("gif".into()))
        );
    }
}
