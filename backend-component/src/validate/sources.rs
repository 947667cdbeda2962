//! Source checks: the primary bytes of every asset resource that was read.
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
//!   `audio`, `canvas`, `discard`, `embed`, `feImage`, `object`, `style`, `video`), an
//!   `xml-stylesheet` instruction and a root outside the SVG namespace are refused too.

use std::collections::BTreeMap;

use ofgui_contracts::diagnostics::{ProjectDiagnostic, ProjectDiagnosticCode, Severity};
use ofgui_contracts::uam::UamProject;

use super::{Sink, resource_path};

/// What is wrong with one file's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceProblem {
    pub code: ProjectDiagnosticCode,
    pub severity: Severity,
    pub message: String,
}

impl SourceProblem {
    fn corrupt(message: impl Into<String>) -> Self {
        SourceProblem {
            code: ProjectDiagnosticCode::CorruptSource,
            severity: Severity::Error,
            message: message.into(),
        }
    }

    fn unchecked(message: impl Into<String>) -> Self {
        SourceProblem {
            code: ProjectDiagnosticCode::DecodeCapabilityUnavailable,
            severity: Severity::Warning,
            message: message.into(),
        }
    }
}

/// Checks every asset resource's primary bytes and reports into `sink`.
pub(super) fn check(project: &UamProject, bytes: &BTreeMap<String, Vec<u8>>, sink: &mut Sink) {
    for (package_index, package) in project.packages.iter().enumerate() {
        for (resource_index, resource) in package.resources.iter().enumerate() {
            if resource.asset_base().is_none() {
                continue;
            }
            let Some(source_path) = resource.source_path() else {
                continue;
            };
            // No bytes: the reader has already reported the file missing or unreadable.
            let Some(data) = bytes.get(source_path) else {
                continue;
            };
            let file_name = source_path.rsplit('/').next().unwrap_or(source_path);
            let Some(problem) = check_bytes(resource.kind(), file_name, data) else {
                continue;
            };
            if problem.code == ProjectDiagnosticCode::DecodeCapabilityUnavailable {
                sink.incomplete();
            }
            sink.push(
                ProjectDiagnostic::new(
                    problem.severity,
                    problem.code,
                    resource_path(package_index, resource_index),
                    problem.message,
                )
                .in_package(package.id.as_str())
                .in_resource(resource.id())
                .in_file(source_path),
            );
        }
    }
}

/// Checks one file's bytes; `kind` is the UAM resource kind ("image", "movieClip", "font",
/// "sound", "misc", "spine", "dragonBones"), `file_name` its primary file name (for the
/// extension). Returns the problem found, if any.
pub fn check_bytes(kind: &str, file_name: &str, bytes: &[u8]) -> Option<SourceProblem> {
    if bytes.is_empty() {
        return Some(SourceProblem::corrupt("The source file is empty"));
    }
    match kind {
        "image" => check_image(file_name, bytes),
        "movieClip" => crate::reader::parse_jta(bytes).is_none().then(|| {
            SourceProblem::corrupt("The movie clip is not a readable JTA file (v100–v102)")
        }),
        _ => None,
    }
}

/// The lower-case extension of a file name, without the dot; `""` when there is none.
fn extension(file_name: &str) -> String {
    match file_name.rsplit_once('.') {
        Some((_, ext)) => ext.to_ascii_lowercase(),
        None => String::new(),
    }
}

fn check_image(file_name: &str, bytes: &[u8]) -> Option<SourceProblem> {
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
        "svg" => svg::check(bytes),
        "" => {
            return Some(SourceProblem::unchecked(
                "An image without a file extension cannot be checked here; only PNG, JPEG and SVG sources can",
            ));
        }
        other => {
            return Some(SourceProblem::unchecked(format!(
                "A .{other} image cannot be checked here; only PNG, JPEG and SVG sources can"
            )));
        }
    };
    result.err().map(SourceProblem::corrupt)
}

/// Reads a big-endian `u16` at `at`, if the bytes reach that far.
fn be16(bytes: &[u8], at: usize) -> Option<usize> {
    let b = bytes.get(at..at.checked_add(2)?)?;
    Some(usize::from(u16::from_be_bytes([b[0], b[1]])))
}

/// Reads a big-endian `u32` at `at`, if the bytes reach that far.
fn be32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

mod png {
    //! The PNG chunk walk (PNG spec §5, §11.2).

    use super::be32;

    pub(super) const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];

    /// One chunk whose length, type and CRC have been checked.
    struct Chunk<'a> {
        at: usize,
        kind: [u8; 4],
        data: &'a [u8],
        end: usize,
    }

    impl Chunk<'_> {
        fn name(&self) -> &str {
            // `read_chunk` only accepts ASCII letters.
            std::str::from_utf8(&self.kind).unwrap_or("????")
        }
    }

    /// Reads the chunk starting at `at`.
    fn read_chunk(bytes: &[u8], at: usize) -> Result<Chunk<'_>, String> {
        let (Some(length), Some(kind)) = (
            be32(bytes, at),
            at.checked_add(8).and_then(|e| bytes.get(at + 4..e)),
        ) else {
            return Err(format!(
                "PNG is truncated inside a chunk header at byte {at}"
            ));
        };
        let kind = [kind[0], kind[1], kind[2], kind[3]];
        // Type bytes are letters; the third one's case bit is reserved and must be clear.
        if !kind.iter().all(u8::is_ascii_alphabetic) || kind[2] & 0x20 != 0 {
            return Err(format!("PNG chunk at byte {at} has an invalid type"));
        }
        let name = std::str::from_utf8(&kind).unwrap_or("????");
        let data_start = at + 8;
        let data_end = usize::try_from(length)
            .ok()
            .and_then(|l| data_start.checked_add(l));
        let end = data_end.and_then(|e| e.checked_add(4));
        let (Some(data_end), Some(end)) = (data_end, end) else {
            return Err(format!("PNG is truncated inside chunk {name} at byte {at}"));
        };
        let (Some(data), Some(stored)) = (bytes.get(data_start..data_end), be32(bytes, data_end))
        else {
            return Err(format!("PNG is truncated inside chunk {name} at byte {at}"));
        };
        // The CRC covers the type and the data.
        if crc32fast::hash(&bytes[at + 4..data_end]) != stored {
            return Err(format!("PNG chunk {name} at byte {at} has a bad CRC"));
        }
        Ok(Chunk {
            at,
            kind,
            data,
            end,
        })
    }

    /// Allowed bit depths per colour type.
    fn valid_depth(colour_type: u8, depth: u8) -> bool {
        match colour_type {
            0 => matches!(depth, 1 | 2 | 4 | 8 | 16),
            3 => matches!(depth, 1 | 2 | 4 | 8),
            2 | 4 | 6 => matches!(depth, 8 | 16),
            _ => false,
        }
    }

    #[derive(PartialEq)]
    enum ImageData {
        None,
        Open,
        Closed,
    }

    pub(super) fn check(bytes: &[u8]) -> Result<(), String> {
        if bytes.len() < SIGNATURE.len() && SIGNATURE.starts_with(bytes) {
            return Err("PNG is truncated inside its signature".into());
        }
        if !bytes.starts_with(&SIGNATURE) {
            return Err("The file does not start with the PNG signature".into());
        }
        if bytes.len() == SIGNATURE.len() {
            return Err("PNG has no chunks after its signature".into());
        }

        let header = read_chunk(bytes, SIGNATURE.len())?;
        if &header.kind != b"IHDR" {
            return Err(format!(
                "PNG starts with chunk {} instead of IHDR",
                header.name()
            ));
        }
        let h = header.data;
        if h.len() != 13 {
            return Err(format!("PNG IHDR chunk has length {}, not 13", h.len()));
        }
        let width = u32::from_be_bytes([h[0], h[1], h[2], h[3]]);
        let height = u32::from_be_bytes([h[4], h[5], h[6], h[7]]);
        let (depth, colour_type) = (h[8], h[9]);
        if width == 0 || height == 0 || width > i32::MAX as u32 || height > i32::MAX as u32 {
            return Err(format!("PNG IHDR has an invalid size {width}×{height}"));
        }
        if !valid_depth(colour_type, depth) {
            return Err(format!(
                "PNG IHDR has an invalid bit depth {depth} for colour type {colour_type}"
            ));
        }
        if h[10] != 0 || h[11] != 0 || h[12] > 1 {
            return Err(format!(
                "PNG IHDR has an invalid compression ({}), filter ({}) or interlace ({}) method",
                h[10], h[11], h[12]
            ));
        }

        let mut at = header.end;
        let mut palette = false;
        let mut image_data = ImageData::None;
        loop {
            if at >= bytes.len() {
                return Err(match image_data {
                    ImageData::None => "PNG ends without any IDAT chunk or IEND chunk".into(),
                    _ => "PNG ends without an IEND chunk".into(),
                });
            }
            let chunk = read_chunk(bytes, at)?;
            let (name, pos) = (chunk.name(), chunk.at);
            match &chunk.kind {
                b"IHDR" => return Err(format!("PNG has a second IHDR chunk at byte {pos}")),
                b"PLTE" => {
                    let entries = chunk.data.len() / 3;
                    if palette {
                        return Err(format!("PNG has a second PLTE chunk at byte {pos}"));
                    }
                    if image_data != ImageData::None {
                        return Err(format!(
                            "PNG chunk PLTE at byte {pos} comes after the image data"
                        ));
                    }
                    if colour_type == 0 || colour_type == 4 {
                        return Err(format!(
                            "PNG chunk PLTE at byte {pos} is not allowed for a greyscale image"
                        ));
                    }
                    if chunk.data.is_empty() || chunk.data.len() % 3 != 0 || entries > 256 {
                        return Err(format!(
                            "PNG chunk PLTE at byte {pos} has an invalid length {}",
                            chunk.data.len()
                        ));
                    }
                    if colour_type == 3 && entries > 1usize << depth {
                        return Err(format!(
                            "PNG chunk PLTE at byte {pos} has {entries} entries, more than bit depth {depth} allows"
                        ));
                    }
                    palette = true;
                }
                b"IDAT" => {
                    if image_data == ImageData::Closed {
                        return Err(format!(
                            "PNG chunk IDAT at byte {pos} is separated from the earlier IDAT chunks"
                        ));
                    }
                    if colour_type == 3 && !palette {
                        return Err(
                            "PNG indexed-colour image has no PLTE chunk before its image data"
                                .into(),
                        );
                    }
                    image_data = ImageData::Open;
                }
                b"IEND" => {
                    if !chunk.data.is_empty() {
                        return Err(format!("PNG chunk IEND at byte {pos} is not empty"));
                    }
                    if image_data == ImageData::None {
                        return Err("PNG has no IDAT chunk".into());
                    }
                    // Anything after IEND is ignored by decoders (see the module docs).
                    return Ok(());
                }
                // A decoder must reject a critical chunk it does not know (upper-case first letter).
                kind if kind[0].is_ascii_uppercase() => {
                    return Err(format!(
                        "PNG has an unknown critical chunk {name} at byte {pos}"
                    ));
                }
                _ => {}
            }
            if &chunk.kind != b"IDAT" && image_data == ImageData::Open {
                image_data = ImageData::Closed;
            }
            at = chunk.end;
        }
    }
}

mod jpeg {
    //! The JPEG marker walk (ITU T.81 Annex B): segments, frame header, scans and EOI.

    use super::be16;

    /// The start-of-image marker every JPEG begins with.
    pub(super) const SOI: [u8; 2] = [0xff, 0xd8];

    /// Start-of-frame markers; C4 (DHT), C8 (JPG) and CC (DAC) are not frames.
    fn is_start_of_frame(marker: u8) -> bool {
        matches!(marker, 0xc0..=0xcf) && !matches!(marker, 0xc4 | 0xc8 | 0xcc)
    }

    fn marker_name(marker: u8) -> String {
        match marker {
            0xd8 => "SOI".into(),
            0xd9 => "EOI".into(),
            0xda => "SOS".into(),
            0xdb => "DQT".into(),
            0xc4 => "DHT".into(),
            0xdd => "DRI".into(),
            0xfe => "COM".into(),
            0xe0..=0xef => format!("APP{}", marker - 0xe0),
            m if is_start_of_frame(m) => format!("SOF{}", m - 0xc0),
            m => format!("FF{m:02X}"),
        }
    }

    /// Validates a frame header's payload (after the length); returns its component count.
    fn frame_header(payload: &[u8], at: usize) -> Result<usize, String> {
        let Some(&[_precision, h0, h1, w0, w1, count]) = payload.first_chunk::<6>() else {
            return Err(format!("JPEG frame header at byte {at} is too short"));
        };
        let (height, width) = (u16::from_be_bytes([h0, h1]), u16::from_be_bytes([w0, w1]));
        let count = usize::from(count);
        if !(1..=4).contains(&count) {
            return Err(format!(
                "JPEG frame header at byte {at} declares {count} components"
            ));
        }
        if payload.len() != 6 + 3 * count {
            return Err(format!(
                "JPEG frame header at byte {at} has length {}, not {} for {count} components",
                payload.len() + 2,
                8 + 3 * count
            ));
        }
        if width == 0 || height == 0 {
            return Err(format!(
                "JPEG frame header at byte {at} declares a zero size {width}×{height}"
            ));
        }
        for component in payload[6..].chunks_exact(3) {
            let (horizontal, vertical) = (component[1] >> 4, component[1] & 0x0f);
            if !(1..=4).contains(&horizontal) || !(1..=4).contains(&vertical) || component[2] > 3 {
                return Err(format!(
                    "JPEG frame header at byte {at} has an invalid component {}",
                    component[0]
                ));
            }
        }
        Ok(count)
    }

    /// Validates a scan header's payload (after the length) against the frame's components.
    fn scan_header(payload: &[u8], at: usize, frame_components: usize) -> Result<(), String> {
        let count = usize::from(payload.first().copied().unwrap_or(0));
        if count == 0 || count > frame_components {
            return Err(format!(
                "JPEG scan header at byte {at} declares {count} components (the frame has {frame_components})"
            ));
        }
        if payload.len() != 4 + 2 * count {
            return Err(format!(
                "JPEG scan header at byte {at} has length {}, not {} for {count} components",
                payload.len() + 2,
                6 + 2 * count
            ));
        }
        Ok(())
    }

    /// Skips entropy-coded data from `at`; returns the offset of the `FF` that starts the
    /// next marker. Stuffed `FF00`, restart markers and fill bytes belong to the data.
    fn skip_scan_data(bytes: &[u8], start: usize, sos_at: usize) -> Result<usize, String> {
        let truncated =
            || format!("JPEG is truncated inside the scan at byte {sos_at}: no EOI marker follows");
        let mut at = start;
        loop {
            let offset = bytes
                .get(at..)
                .and_then(|rest| rest.iter().position(|&b| b == 0xff));
            let Some(ff) = offset.map(|o| at + o) else {
                return Err(truncated());
            };
            let mut next = ff + 1;
            while bytes.get(next) == Some(&0xff) {
                next += 1;
            }
            match bytes.get(next) {
                None => return Err(truncated()),
                Some(0x00 | 0xd0..=0xd7) => at = next + 1,
                Some(_) => {
                    if ff == start {
                        return Err(format!("JPEG scan at byte {sos_at} has no data"));
                    }
                    return Ok(ff);
                }
            }
        }
    }

    pub(super) fn check(bytes: &[u8]) -> Result<(), String> {
        if !bytes.starts_with(&SOI) {
            return Err("The file does not start with a JPEG SOI marker".into());
        }
        let mut at = 2;
        let mut frame_components = None;
        let mut scanned = false;
        loop {
            let marker_at = at;
            match bytes.get(at) {
                None if scanned => return Err("JPEG ends without an EOI marker".into()),
                None if frame_components.is_some() => {
                    return Err("JPEG ends before any scan (SOS)".into());
                }
                None => return Err("JPEG ends before its frame header (SOF)".into()),
                Some(0xff) => {}
                Some(other) => {
                    return Err(format!(
                        "JPEG has byte 0x{other:02X} at byte {at} where a marker was expected"
                    ));
                }
            }
            // Any number of fill bytes may precede a marker.
            while bytes.get(at) == Some(&0xff) {
                at += 1;
            }
            let Some(&marker) = bytes.get(at) else {
                return Err(format!(
                    "JPEG is truncated inside the marker at byte {marker_at}"
                ));
            };
            at += 1;
            match marker {
                0xd9 => {
                    if frame_components.is_none() {
                        return Err("JPEG ends (EOI) before its frame header (SOF)".into());
                    }
                    if !scanned {
                        return Err("JPEG ends (EOI) before any scan (SOS)".into());
                    }
                    // Anything after EOI is ignored by decoders (see the module docs).
                    return Ok(());
                }
                0x00 | 0xd8 => {
                    return Err(format!(
                        "JPEG has an unexpected {} marker at byte {marker_at}",
                        marker_name(marker)
                    ));
                }
                // Standalone markers: TEM and restart markers carry no length.
                0x01 | 0xd0..=0xd7 => continue,
                _ => {}
            }
            let name = marker_name(marker);
            let Some(length) = be16(bytes, at) else {
                return Err(format!(
                    "JPEG is truncated inside the {name} segment at byte {marker_at}"
                ));
            };
            if length < 2 {
                return Err(format!(
                    "JPEG segment {name} at byte {marker_at} has an invalid length {length}"
                ));
            }
            let end = at + length;
            let Some(payload) = bytes.get(at + 2..end) else {
                return Err(format!(
                    "JPEG is truncated inside the {name} segment at byte {marker_at}"
                ));
            };
            if is_start_of_frame(marker) {
                if frame_components.is_some() {
                    return Err(format!(
                        "JPEG has a second frame header ({name}) at byte {marker_at}"
                    ));
                }
                frame_components = Some(frame_header(payload, marker_at)?);
            } else if marker == 0xda {
                let Some(components) = frame_components else {
                    return Err(format!(
                        "JPEG has a scan (SOS) at byte {marker_at} before its frame header (SOF)"
                    ));
                };
                scan_header(payload, marker_at, components)?;
                scanned = true;
                at = skip_scan_data(bytes, end, marker_at)?;
                continue;
            }
            at = end;
        }
    }
}

mod svg {
    //! The SVG safety check: well-formed XML, an `<svg>` root, nothing active or external.

    /// Larger SVG sources are refused outright.
    const MAX_BYTES: usize = 8 * 1024 * 1024;
    const SVG_NAMESPACE: &str = "http://www.w3.org/2000/svg";
    const XLINK_NAMESPACE: &str = "http://www.w3.org/1999/xlink";

    /// Elements that run, embed, load or animate something (lower-case local names);
    /// every name starting with `animate` is refused as well.
    const FORBIDDEN_ELEMENTS: [&str; 14] = [
        "a",
        "audio",
        "canvas",
        "discard",
        "embed",
        "feimage",
        "foreignobject",
        "iframe",
        "image",
        "object",
        "script",
        "set",
        "style",
        "video",
    ];

    /// URL schemes and the scheme-relative `//`, refused where they start a token.
    const EXTERNAL_MARKERS: [&str; 6] = ["http:", "https:", "file:", "javascript:", "data:", "//"];

    /// `#id` with an XML-ish name, as upstream accepts.
    fn is_fragment(reference: &str) -> bool {
        let Some(id) = reference.strip_prefix('#') else {
            return false;
        };
        let mut chars = id.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | ':' | '.' | '-'))
    }

    /// Whether a (lower-case) value holds an external URL marker at a token start.
    fn has_external_marker(lower: &str) -> bool {
        EXTERNAL_MARKERS.iter().any(|marker| {
            lower.match_indices(marker).any(|(index, _)| {
                lower[..index].chars().next_back().is_none_or(|c| {
                    c.is_whitespace() || matches!(c, '(' | '"' | '\'' | '=' | ',' | ';')
                })
            })
        })
    }

    /// Whether every `url(…)` in a (lower-case) value names a same-document fragment.
    fn urls_are_fragments(lower: &str) -> bool {
        let mut rest = lower;
        while let Some(index) = rest.find("url") {
            let after = rest[index + 3..].trim_start();
            let Some(inner) = after.strip_prefix('(') else {
                rest = &rest[index + 3..];
                continue;
            };
            let Some(close) = inner.find(')') else {
                return false;
            };
            let reference = inner[..close].trim();
            let unquoted = ['"', '\'']
                .iter()
                .find_map(|q| reference.strip_prefix(*q).and_then(|r| r.strip_suffix(*q)))
                .unwrap_or(reference);
            if !is_fragment(unquoted) {
                return false;
            }
            rest = &inner[close + 1..];
        }
        true
    }

    /// A value cut short for a message.
    fn excerpt(value: &str) -> String {
        let mut chars = value.chars();
        let head: String = chars.by_ref().take(60).collect();
        if chars.next().is_some() {
            format!("{head}…")
        } else {
            head
        }
    }

    fn check_attribute(
        element: &str,
        attribute: &roxmltree::Attribute<'_, '_>,
    ) -> Result<(), String> {
        let local = attribute.name();
        let lower_name = local.to_ascii_lowercase();
        let name = match attribute.namespace() {
            Some(XLINK_NAMESPACE) => format!("xlink:{local}"),
            _ => local.to_string(),
        };
        let value = attribute.value();
        if lower_name.starts_with("on") {
            return Err(format!(
                "SVG element <{element}> has an event attribute {name}"
            ));
        }
        if lower_name == "style" || lower_name == "src" {
            return Err(format!(
                "SVG element <{element}> has a forbidden {name} attribute"
            ));
        }
        if lower_name == "href" && !is_fragment(value) {
            return Err(format!(
                "SVG element <{element}> has {name}=\"{}\", which is not a same-document #fragment",
                excerpt(value)
            ));
        }
        let lower = value.to_ascii_lowercase();
        if has_external_marker(&lower) {
            return Err(format!(
                "SVG element <{element}> attribute {name}=\"{}\" refers to an external URL",
                excerpt(value)
            ));
        }
        if !urls_are_fragments(&lower) {
            return Err(format!(
                "SVG element <{element}> attribute {name}=\"{}\" has a url() that is not a same-document #fragment",
                excerpt(value)
            ));
        }
        Ok(())
    }

    pub(super) fn check(bytes: &[u8]) -> Result<(), String> {
        if bytes.len() > MAX_BYTES {
            return Err(format!(
                "SVG is {} bytes, larger than the 8 MiB limit",
                bytes.len()
            ));
        }
        let text = std::str::from_utf8(bytes)
            .map_err(|e| format!("SVG is not valid UTF-8 (at byte {})", e.valid_up_to()))?;
        // The default options refuse any DTD, so entity declarations never get in.
        let document = roxmltree::Document::parse(text).map_err(|e| match e {
            roxmltree::Error::DtdDetected => {
                "SVG has a DTD (<!DOCTYPE>), which is not allowed".to_string()
            }
            other => format!("SVG is not well-formed XML: {other}"),
        })?;
        let root = document.root_element();
        if root.tag_name().name() != "svg" {
            return Err(format!(
                "SVG root element is <{}>, not <svg>",
                root.tag_name().name()
            ));
        }
        if root.tag_name().namespace() != Some(SVG_NAMESPACE) {
            return Err(format!(
                "SVG root element <svg> is not in the SVG namespace ({SVG_NAMESPACE})"
            ));
        }
        for node in document.descendants() {
            if let Some(pi) = node.pi()
                && pi.target.eq_ignore_ascii_case("xml-stylesheet")
            {
                return Err(
                    "SVG has an xml-stylesheet processing instruction, which is not allowed".into(),
                );
            }
            if !node.is_element() {
                continue;
            }
            let element = node.tag_name().name();
            let lower = element.to_ascii_lowercase();
            if lower.starts_with("animate") || FORBIDDEN_ELEMENTS.contains(&lower.as_str()) {
                return Err(format!("SVG has a forbidden <{element}> element"));
            }
            for attribute in node.attributes() {
                check_attribute(element, &attribute)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::time::{Duration, Instant};

    use super::*;
    use crate::fs::StdFs;
    use crate::reader::{ProjectSource, read_project};

    use crate::testing::{experiments_root, unity_root};

    fn read_unity() -> ProjectSource {
        read_project(&StdFs::new(unity_root()), "FairyGUI-Unity-Examples.fairy")
            .expect("unity reads")
    }

    fn read_experiments() -> ProjectSource {
        read_project(
            &StdFs::new(experiments_root()),
            "FairyGUI-Experiments.fairy",
        )
        .expect("experiments read")
    }

    /// The message of a `corrupt_source` error; panics on anything else.
    fn corrupt(kind: &str, file_name: &str, bytes: &[u8]) -> String {
        match check_bytes(kind, file_name, bytes) {
            Some(SourceProblem {
                code: ProjectDiagnosticCode::CorruptSource,
                severity: Severity::Error,
                message,
            }) => message,
            other => panic!("{file_name}: expected corrupt_source, got {other:?}"),
        }
    }

    fn assert_ok(kind: &str, file_name: &str, bytes: &[u8]) {
        assert_eq!(check_bytes(kind, file_name, bytes), None, "{file_name}");
    }

    // ---- PNG ----

    fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
        let mut c = (data.len() as u32).to_be_bytes().to_vec();
        c.extend_from_slice(kind);
        c.extend_from_slice(data);
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(kind);
        hasher.update(data);
        c.extend_from_slice(&hasher.finalize().to_be_bytes());
        c
    }

    fn ihdr(width: u32, height: u32, depth: u8, colour: u8) -> Vec<u8> {
        let mut d = width.to_be_bytes().to_vec();
        d.extend_from_slice(&height.to_be_bytes());
        d.extend_from_slice(&[depth, colour, 0, 0, 0]);
        chunk(b"IHDR", &d)
    }

    fn png_of(chunks: &[Vec<u8>]) -> Vec<u8> {
        let mut b = vec![0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];
        for c in chunks {
            b.extend_from_slice(c);
        }
        b
    }

    fn idat() -> Vec<u8> {
        // Not a real zlib stream: the probe never inflates.
        chunk(
            b"IDAT",
            &[0x78, 0x9c, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01],
        )
    }

    fn iend() -> Vec<u8> {
        chunk(b"IEND", &[])
    }

    fn tiny_png() -> Vec<u8> {
        png_of(&[ihdr(1, 1, 8, 6), idat(), iend()])
    }

    const PANEL_PNG: &[u8] =
        include_bytes!("../../../examples/HelloFairy/assets/Main/images/panel.png");

    #[test]
    fn png_valid_files_pass() {
        assert_ok("image", "tiny.png", &tiny_png());
        assert_ok("image", "panel.png", PANEL_PNG);
        // Ancillary chunks, split IDAT, and an upper-case extension.
        let text = chunk(b"tEXt", b"Comment\0hi");
        assert_ok(
            "image",
            "a.PNG",
            &png_of(&[ihdr(3, 2, 8, 2), text, idat(), idat(), iend()]),
        );
        // Every valid depth of every colour type.
        for (colour, depths) in [
            (0, &[1, 2, 4, 8, 16][..]),
            (2, &[8, 16]),
            (4, &[8, 16]),
            (6, &[8, 16]),
        ] {
            for &depth in depths {
                assert_ok(
                    "image",
                    "d.png",
                    &png_of(&[ihdr(1, 1, depth, colour), idat(), iend()]),
                );
            }
        }
        for depth in [1u8, 2, 4, 8] {
            let plte = chunk(b"PLTE", &[0; 6]);
            assert_ok(
                "image",
                "p.png",
                &png_of(&[ihdr(1, 1, depth, 3), plte, idat(), iend()]),
            );
        }
    }

    #[test]
    fn png_bad_crc_is_corrupt() {
        let mut png = tiny_png();
        // Signature 8 + IHDR 25 = 33: IDAT's data starts at 41.
        png[42] ^= 0x01;
        assert_eq!(
            corrupt("image", "a.png", &png),
            "PNG chunk IDAT at byte 33 has a bad CRC"
        );
        let mut real = PANEL_PNG.to_vec();
        let idat_at = real.windows(4).position(|w| w == b"IDAT").expect("IDAT");
        real[idat_at + 10] ^= 0x80;
        assert!(corrupt("image", "panel.png", &real).contains("IDAT"));
        // A flipped bit in the stored CRC itself.
        let mut png = tiny_png();
        png[8 + 21] ^= 0x01;
        assert!(corrupt("image", "a.png", &png).contains("IHDR at byte 8 has a bad CRC"));
    }

    #[test]
    fn png_truncation_anywhere_is_corrupt() {
        for png in [tiny_png(), PANEL_PNG.to_vec()] {
            for end in 1..png.len() {
                corrupt("image", "a.png", &png[..end]);
            }
        }
        let png = tiny_png();
        assert_eq!(
            corrupt("image", "a.png", &png[..4]),
            "PNG is truncated inside its signature"
        );
        assert_eq!(
            corrupt("image", "a.png", &png[..8]),
            "PNG has no chunks after its signature"
        );
        assert!(
            corrupt("image", "a.png", &png[..45]).starts_with("PNG is truncated inside chunk IDAT")
        );
        assert!(
            corrupt("image", "a.png", &png[..36])
                .starts_with("PNG is truncated inside a chunk header")
        );
        // A hostile length reaching far beyond the file.
        let mut huge = png_of(&[ihdr(1, 1, 8, 6)]);
        huge.extend_from_slice(&u32::MAX.to_be_bytes());
        huge.extend_from_slice(b"IDAT");
        assert!(corrupt("image", "a.png", &huge).starts_with("PNG is truncated inside chunk IDAT"));
    }

    #[test]
    fn png_wrong_signature_or_ihdr_is_corrupt() {
        let mut png = tiny_png();
        png[1] = b'X';
        assert!(corrupt("image", "a.png", &png).contains("signature"));
        assert!(corrupt("image", "a.png", b"GIF89a").contains("PNG signature"));
        let cases = [
            (png_of(&[idat(), iend()]), "instead of IHDR"),
            (
                png_of(&[chunk(b"IHDR", &[0; 12]), idat(), iend()]),
                "length 12",
            ),
            (png_of(&[ihdr(0, 1, 8, 6), idat(), iend()]), "invalid size"),
            (png_of(&[ihdr(1, 0, 8, 6), idat(), iend()]), "invalid size"),
            (
                png_of(&[ihdr(0x8000_0000, 1, 8, 6), idat(), iend()]),
                "invalid size",
            ),
            (png_of(&[ihdr(1, 1, 4, 2), idat(), iend()]), "bit depth 4"),
            (png_of(&[ihdr(1, 1, 16, 3), idat(), iend()]), "bit depth 16"),
            (png_of(&[ihdr(1, 1, 3, 0), idat(), iend()]), "bit depth 3"),
            (png_of(&[ihdr(1, 1, 8, 5), idat(), iend()]), "colour type 5"),
            (
                png_of(&[ihdr(1, 1, 8, 6), ihdr(1, 1, 8, 6), idat(), iend()]),
                "second IHDR",
            ),
        ];
        for (png, expected) in cases {
            let message = corrupt("image", "a.png", &png);
            assert!(message.contains(expected), "{message}");
        }
        for (index, bad) in [(10, 1u8), (11, 1), (12, 2)] {
            let mut data = 1u32.to_be_bytes().to_vec();
            data.extend_from_slice(&1u32.to_be_bytes());
            data.extend_from_slice(&[8, 6, 0, 0, 0]);
            data[index] = bad;
            let message = corrupt(
                "image",
                "a.png",
                &png_of(&[chunk(b"IHDR", &data), idat(), iend()]),
            );
            assert!(message.contains("compression"), "{message}");
        }
    }

    #[test]
    fn png_chunk_sequence_rules() {
        let plte = || chunk(b"PLTE", &[0; 6]);
        let cases = [
            (png_of(&[ihdr(1, 1, 8, 6), idat()]), "without an IEND"),
            (png_of(&[ihdr(1, 1, 8, 6)]), "without any IDAT"),
            (png_of(&[ihdr(1, 1, 8, 6), iend()]), "no IDAT"),
            (
                png_of(&[ihdr(1, 1, 8, 6), idat(), chunk(b"IEND", &[0])]),
                "IEND at byte 55 is not empty",
            ),
            (
                png_of(&[
                    ihdr(1, 1, 8, 6),
                    idat(),
                    chunk(b"tEXt", b"a\0b"),
                    idat(),
                    iend(),
                ]),
                "separated",
            ),
            (png_of(&[ihdr(1, 1, 8, 3), idat(), iend()]), "no PLTE"),
            (
                png_of(&[ihdr(1, 1, 8, 0), plte(), idat(), iend()]),
                "greyscale",
            ),
            (
                png_of(&[ihdr(1, 1, 8, 4), plte(), idat(), iend()]),
                "greyscale",
            ),
            (
                png_of(&[ihdr(1, 1, 8, 3), chunk(b"PLTE", &[0; 5]), idat(), iend()]),
                "invalid length 5",
            ),
            (
                png_of(&[ihdr(1, 1, 8, 3), chunk(b"PLTE", &[]), idat(), iend()]),
                "invalid length 0",
            ),
            (
                png_of(&[ihdr(1, 1, 8, 2), chunk(b"PLTE", &[0; 771]), idat(), iend()]),
                "invalid length 771",
            ),
            (
                png_of(&[ihdr(1, 1, 1, 3), chunk(b"PLTE", &[0; 9]), idat(), iend()]),
                "3 entries",
            ),
            (
                png_of(&[ihdr(1, 1, 8, 3), plte(), plte(), idat(), iend()]),
                "second PLTE",
            ),
            (
                png_of(&[ihdr(1, 1, 8, 2), idat(), plte(), iend()]),
                "after the image data",
            ),
            (
                png_of(&[ihdr(1, 1, 8, 6), chunk(b"ABCD", &[]), idat(), iend()]),
                "unknown critical chunk ABCD",
            ),
            (
                png_of(&[ihdr(1, 1, 8, 6), chunk(b"ab1d", &[]), idat(), iend()]),
                "invalid type",
            ),
            (
                png_of(&[ihdr(1, 1, 8, 6), chunk(b"abcd", &[]), idat(), iend()]),
                "invalid type",
            ),
        ];
        for (png, expected) in cases {
            let message = corrupt("image", "a.png", &png);
            assert!(
                message.contains(expected),
                "{message} (expected {expected})"
            );
        }
        // A palette in a truecolour image is a suggestion, and allowed; so is an unknown
        // ancillary chunk (lower-case first letter, reserved bit clear).
        assert_ok(
            "image",
            "a.png",
            &png_of(&[ihdr(1, 1, 8, 2), plte(), idat(), iend()]),
        );
        assert_ok(
            "image",
            "a.png",
            &png_of(&[ihdr(1, 1, 8, 6), chunk(b"abCd", &[1]), idat(), iend()]),
        );
    }

    #[test]
    fn png_bytes_after_iend_are_accepted() {
        let mut png = tiny_png();
        png.extend_from_slice(b"appended by some tool");
        assert_ok("image", "a.png", &png);
        let mut png = PANEL_PNG.to_vec();
        png.extend_from_slice(&[0; 16]);
        assert_ok("image", "panel.png", &png);
    }

    // ---- JPEG ----

    const SOI: [u8; 2] = [0xff, 0xd8];
    const EOI: [u8; 2] = [0xff, 0xd9];

    fn segment(marker: u8, payload: &[u8]) -> Vec<u8> {
        let mut s = vec![0xff, marker];
        s.extend_from_slice(&((payload.len() + 2) as u16).to_be_bytes());
        s.extend_from_slice(payload);
        s
    }

    fn app0() -> Vec<u8> {
        segment(0xe0, b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0")
    }

    fn dqt() -> Vec<u8> {
        let mut table = vec![0u8];
        table.extend_from_slice(&[1; 64]);
        segment(0xdb, &table)
    }

    fn sof0(width: u16, height: u16) -> Vec<u8> {
        let mut p = vec![8];
        p.extend_from_slice(&height.to_be_bytes());
        p.extend_from_slice(&width.to_be_bytes());
        p.extend_from_slice(&[1, 1, 0x11, 0]);
        segment(0xc0, &p)
    }

    fn dht(class_and_id: u8) -> Vec<u8> {
        let mut p = vec![class_and_id, 1];
        p.extend_from_slice(&[0; 15]);
        p.push(0);
        segment(0xc4, &p)
    }

    fn sos() -> Vec<u8> {
        segment(0xda, &[1, 1, 0x00, 0, 63, 0])
    }

    /// Entropy-coded data with a stuffed `FF00` and a restart marker.
    const SCAN_DATA: [u8; 8] = [0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56, 0x78];

    fn jpeg_of(parts: &[Vec<u8>]) -> Vec<u8> {
        let mut b = SOI.to_vec();
        for p in parts {
            b.extend_from_slice(p);
        }
        b
    }

    fn tiny_jpeg() -> Vec<u8> {
        jpeg_of(&[
            app0(),
            dqt(),
            sof0(8, 8),
            dht(0x00),
            dht(0x10),
            sos(),
            SCAN_DATA.to_vec(),
            EOI.to_vec(),
        ])
    }

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
    fn jpeg_valid_files_pass() {
        assert_ok("image", "a.jpg", &tiny_jpeg());
        assert_ok("image", "a.JPEG", &tiny_jpeg());
        // Fill bytes before markers, a standalone TEM, and a progressive file with two scans.
        let mut filled = jpeg_of(&[app0(), vec![0xff, 0xff, 0xff, 0x01], dqt()]);
        filled.extend_from_slice(&[0xff, 0xff]);
        filled.extend_from_slice(&sof0(8, 8)[1..]);
        filled.extend_from_slice(&[dht(0x00), dht(0x10), sos(), SCAN_DATA.to_vec()].concat());
        filled.extend_from_slice(&[0xff, 0xff, 0xd9]);
        assert_ok("image", "a.jpg", &filled);
        let mut progressive = sof0(8, 8);
        progressive[1] = 0xc2;
        let two_scans = jpeg_of(&[
            dqt(),
            progressive,
            dht(0x00),
            sos(),
            SCAN_DATA.to_vec(),
            dht(0x10),
            sos(),
            vec![0x9a],
            EOI.to_vec(),
        ]);
        assert_ok("image", "a.jpg", &two_scans);
    }

    #[test]
    fn jpeg_truncation_anywhere_is_corrupt() {
        let jpeg = tiny_jpeg();
        for end in 1..jpeg.len() {
            corrupt("image", "a.jpg", &jpeg[..end]);
        }
        assert!(corrupt("image", "a.jpg", &jpeg[..jpeg.len() - 2]).contains("no EOI marker"));
        assert!(
            corrupt("image", "a.jpg", &jpeg[..5])
                .contains("truncated inside the APP0 segment at byte 2")
        );
    }

    #[test]
    fn jpeg_structure_rules() {
        let scan = || vec![sos(), SCAN_DATA.to_vec(), EOI.to_vec()];
        let with = |head: Vec<Vec<u8>>| jpeg_of(&[head, scan()].concat());
        let sof_components = |count: u8, extra: usize| {
            let mut p = vec![8, 0, 8, 0, 8, count];
            p.extend(std::iter::repeat_n([1, 0x11, 0], extra).flatten());
            with(vec![segment(0xc0, &p)])
        };
        let cases = [
            (b"\xff\xd9".to_vec(), "SOI"),
            (with(vec![dqt()]), "before its frame header"),
            (
                jpeg_of(&[dqt(), EOI.to_vec()]),
                "(EOI) before its frame header",
            ),
            (jpeg_of(&[sof0(8, 8), EOI.to_vec()]), "before any scan"),
            (jpeg_of(&[sof0(8, 8)]), "ends before any scan"),
            (jpeg_of(&[dqt()]), "ends before its frame header"),
            (with(vec![sof0(0, 8)]), "zero size 0×8"),
            (with(vec![sof0(8, 0)]), "zero size 8×0"),
            (sof_components(0, 0), "declares 0 components"),
            (sof_components(5, 5), "declares 5 components"),
            (sof_components(2, 1), "length 11, not 14"),
            (with(vec![segment(0xc0, &[8, 0, 8])]), "too short"),
            (
                with(vec![segment(0xc0, &[8, 0, 8, 0, 8, 1, 1, 0x01, 0])]),
                "invalid component 1",
            ),
            (
                with(vec![segment(0xc0, &[8, 0, 8, 0, 8, 1, 1, 0x51, 0])]),
                "invalid component 1",
            ),
            (
                with(vec![segment(0xc0, &[8, 0, 8, 0, 8, 1, 1, 0x11, 4])]),
                "invalid component 1",
            ),
            (with(vec![sof0(8, 8), sof0(8, 8)]), "second frame header"),
            (
                jpeg_of(&[
                    sof0(8, 8),
                    segment(0xda, &[2, 1, 0, 2, 0, 0, 63, 0]),
                    EOI.to_vec(),
                ]),
                "declares 2 components",
            ),
            (
                jpeg_of(&[sof0(8, 8), segment(0xda, &[0, 0, 63, 0]), EOI.to_vec()]),
                "declares 0 components",
            ),
            (
                jpeg_of(&[sof0(8, 8), segment(0xda, &[1, 1, 0, 0, 63]), EOI.to_vec()]),
                "length 7, not 8",
            ),
            (jpeg_of(&[sof0(8, 8), sos(), EOI.to_vec()]), "has no data"),
            (with(vec![sof0(8, 8), vec![0xff, 0xd8]]), "unexpected SOI"),
            (with(vec![sof0(8, 8), vec![0xff, 0x00]]), "unexpected FF00"),
            (
                with(vec![sof0(8, 8), vec![0xff, 0xe1, 0x00, 0x01]]),
                "invalid length 1",
            ),
            (
                with(vec![sof0(8, 8), vec![0x00]]),
                "where a marker was expected",
            ),
        ];
        for (jpeg, expected) in cases {
            let message = corrupt("image", "a.jpg", &jpeg);
            assert!(
                message.contains(expected),
                "{message} (expected {expected})"
            );
        }
    }

    #[test]
    fn jpeg_bytes_after_eoi_are_accepted() {
        let mut jpeg = tiny_jpeg();
        jpeg.extend_from_slice(&[0; 8]);
        assert_ok("image", "a.jpg", &jpeg);
        jpeg.extend_from_slice(b"appended data \xff\xd8");
        assert_ok("image", "a.jpg", &jpeg);
    }

    // ---- SVG ----

    fn svg(body: &str) -> Vec<u8> {
        format!(
            r##"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">{body}</svg>"##
        )
        .into_bytes()
    }

    #[test]
    fn svg_valid_files_pass() {
        let body = r##"<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient>
            <path id="a" d="M0 0L10 10"/></defs>
            <rect width="10" height="10" fill="url(#g)" filter="url( '#f' )"/>
            <use xlink:href="#a"/><use href="#a"/>
            <g class="metadata: yes" id="x"><text>http://example.com is only text</text></g>
            <!-- a comment with <script> in it -->"##;
        assert_ok("image", "a.svg", &svg(body));
        let mut bom = "\u{feff}".as_bytes().to_vec();
        bom.extend_from_slice(&svg(""));
        assert_ok("image", "a.SVG", &bom);
        // A prefixed root in the SVG namespace is still an SVG.
        assert_ok(
            "image",
            "a.svg",
            br#"<s:svg xmlns:s="http://www.w3.org/2000/svg"><s:rect/></s:svg>"#,
        );
    }

    #[test]
    fn svg_forbidden_elements_are_corrupt() {
        let names = [
            "a",
            "audio",
            "canvas",
            "discard",
            "embed",
            "feImage",
            "foreignObject",
            "foreignobject",
            "iframe",
            "image",
            "object",
            "script",
            "SCRIPT",
            "set",
            "style",
            "video",
            "animate",
            "animateMotion",
            "animateTransform",
            "animateColor",
        ];
        for name in names {
            let message = corrupt("image", "a.svg", &svg(&format!("<g><{name}/></g>")));
            assert_eq!(message, format!("SVG has a forbidden <{name}> element"));
        }
        // Forbidden whatever the namespace.
        let foreign = svg(r#"<h:script xmlns:h="http://www.w3.org/1999/xhtml">x</h:script>"#);
        assert!(corrupt("image", "a.svg", &foreign).contains("<script>"));
    }

    #[test]
    fn svg_forbidden_attributes_are_corrupt() {
        let cases = [
            (r##"<g onload="x()"/>"##, "event attribute onload"),
            (r##"<g onClick="x()"/>"##, "event attribute onClick"),
            (r##"<rect style="fill:red"/>"##, "forbidden style attribute"),
            (r##"<g src="x.png"/>"##, "forbidden src attribute"),
            (
                r##"<use href="http://x"/>"##,
                "not a same-document #fragment",
            ),
            (
                r##"<use href="other.svg#a"/>"##,
                "not a same-document #fragment",
            ),
            (
                r##"<use xlink:href="data:image/png;base64,AA"/>"##,
                "xlink:href",
            ),
            (r##"<use href="#1a"/>"##, "not a same-document #fragment"),
            (r##"<use href=""/>"##, "not a same-document #fragment"),
            (r##"<g requiredExtensions="http://x"/>"##, "external URL"),
            (r##"<g requiredExtensions="HTTPS://x"/>"##, "external URL"),
            (r##"<g class="a file:///etc/passwd"/>"##, "external URL"),
            (r##"<g class="javascript:alert(1)"/>"##, "external URL"),
            (r##"<g class="x data:text/html,1"/>"##, "external URL"),
            (r##"<g class="//cdn.example/x"/>"##, "external URL"),
            (r##"<rect fill="url(other.svg#g)"/>"##, "url()"),
            (r##"<rect fill="URL ( 'x.png' )"/>"##, "url()"),
            (r##"<rect fill="url(#g"/>"##, "url()"),
            (r##"<rect fill="url(#g) url(x)"/>"##, "url()"),
        ];
        for (body, expected) in cases {
            let message = corrupt("image", "a.svg", &svg(body));
            assert!(
                message.contains(expected),
                "{body}: {message} (expected {expected})"
            );
        }
    }

    #[test]
    fn svg_document_rules() {
        let doctype = br#"<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd"><svg xmlns="http://www.w3.org/2000/svg"/>"#;
        assert!(corrupt("image", "a.svg", doctype).contains("DTD"));
        let entity = br#"<!DOCTYPE svg [<!ENTITY e "boom">]><svg xmlns="http://www.w3.org/2000/svg">&e;</svg>"#;
        assert!(corrupt("image", "a.svg", entity).contains("DTD"));
        assert!(corrupt("image", "a.svg", b"not xml at all").contains("not well-formed XML"));
        assert!(corrupt("image", "a.svg", &svg("<g>")).contains("not well-formed XML"));
        assert!(
            corrupt(
                "image",
                "a.svg",
                b"<svg xmlns=\"http://www.w3.org/2000/svg\">\xff</svg>"
            )
            .contains("UTF-8")
        );
        assert_eq!(
            corrupt(
                "image",
                "a.svg",
                br#"<html xmlns="http://www.w3.org/2000/svg"/>"#
            ),
            "SVG root element is <html>, not <svg>"
        );
        assert!(corrupt("image", "a.svg", b"<svg width=\"1\"/>").contains("SVG namespace"));
        let stylesheet =
            br#"<?xml-stylesheet href="x.css"?><svg xmlns="http://www.w3.org/2000/svg"/>"#;
        assert!(corrupt("image", "a.svg", stylesheet).contains("xml-stylesheet"));

        let mut big = svg("");
        let end = big.len() - "</svg>".len();
        big.splice(
            end..end,
            std::iter::repeat_n(b' ', 8 * 1024 * 1024 - big.len()),
        );
        assert_eq!(big.len(), 8 * 1024 * 1024);
        assert_ok("image", "a.svg", &big);
        big.insert(end, b' ');
        assert!(corrupt("image", "a.svg", &big).contains("8 MiB"));
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
                        let _ = check_bytes("image", name, &bytes);
                    }
                    let _ = check_bytes("movieClip", "a.jta", &bytes);
                }
            }
        }
    }

    // ---- Other kinds ----

    #[test]
    fn other_image_formats_cannot_be_checked() {
        for name in ["a.gif", "a.bmp", "a.tga", "a.WEBP", "noextension"] {
            let problem = check_bytes("image", name, b"GIF89a").expect("a problem");
            assert_eq!(
                problem.code,
                ProjectDiagnosticCode::DecodeCapabilityUnavailable,
                "{name}"
            );
            assert_eq!(problem.severity, Severity::Warning);
            assert!(problem.message.contains("cannot be checked here"));
        }
        assert!(
            check_bytes("image", "a.gif", b"x")
                .expect("gif")
                .message
                .contains(".gif")
        );
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

    // ---- Projects ----

    fn run_check(source: &ProjectSource) -> Sink {
        let mut sink = Sink::new();
        check(&source.project, &source.bytes, &mut sink);
        sink
    }

    #[test]
    fn check_reports_into_the_sink_with_locations() {
        let mut source = read_unity();
        let images: Vec<(usize, usize, String)> = source
            .project
            .packages
            .iter()
            .enumerate()
            .flat_map(|(p, package)| {
                package
                    .resources
                    .iter()
                    .enumerate()
                    .filter_map(move |(r, resource)| {
                        let path = resource.source_path()?;
                        if resource.kind() != "image" || !path.ends_with(".png") {
                            return None;
                        }
                        Some((p, r, path.to_string()))
                    })
            })
            .collect();
        let [(p0, r0, broken), (_, _, missing), (p2, r2, renamed), ..] = images.as_slice() else {
            panic!("too few images");
        };
        source.bytes.insert(broken.clone(), b"garbage".to_vec());
        source.bytes.remove(missing);
        let gif = format!("{renamed}.gif");
        let bytes = source.bytes.remove(renamed).expect("bytes");
        source.bytes.insert(gif.clone(), bytes);
        if let Some(base) = std::sync::Arc::make_mut(
            &mut std::sync::Arc::make_mut(&mut source.project.packages[*p2]).resources[*r2],
        )
        .asset_base_mut()
        {
            base.source_path = Some(gif.clone());
        }

        let sink = run_check(&source);
        assert!(!sink.complete);
        assert_eq!(sink.diagnostics.len(), 2, "{:#?}", sink.diagnostics);
        let package = &source.project.packages[*p0];
        let expected = ProjectDiagnostic::error(
            ProjectDiagnosticCode::CorruptSource,
            resource_path(*p0, *r0),
            "The file does not start with the PNG signature",
        )
        .in_package(package.id.as_str())
        .in_resource(package.resources[*r0].id())
        .in_file(broken.as_str());
        assert!(
            sink.diagnostics.contains(&expected),
            "{:#?}",
            sink.diagnostics
        );
        let warning = sink
            .diagnostics
            .iter()
            .find(|d| d.code == ProjectDiagnosticCode::DecodeCapabilityUnavailable)
            .expect("gif warning");
        assert_eq!(warning.severity, Severity::Warning);
        assert_eq!(warning.path, resource_path(*p2, *r2));
        assert_eq!(warning.source_path.as_deref(), Some(gif.as_str()));
        assert_eq!(
            warning.resource_id.as_deref(),
            Some(source.project.packages[*p2].resources[*r2].id())
        );
    }

    /// Kind for a file found on disk, by extension.
    fn kind_of(path: &std::path::Path) -> &'static str {
        match extension(&path.to_string_lossy()).as_str() {
            "png" | "jpg" | "jpeg" | "svg" => "image",
            "jta" => "movieClip",
            _ => "misc",
        }
    }

    fn asset_files(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                asset_files(&path, out);
            } else if !path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("xml"))
            {
                out.push(path);
            }
        }
    }

    #[test]
    fn real_corpus_files_pass() {
        // Every declared asset, through `check`, with its real kind.
        for source in [read_unity(), read_experiments()] {
            let sink = run_check(&source);
            assert!(sink.complete);
            assert!(sink.diagnostics.is_empty(), "{:#?}", sink.diagnostics);
            assert!(source.bytes.len() > 10);
        }
        // Every asset file on disk, declared or not, by extension.
        let mut files = Vec::new();
        for root in [unity_root(), experiments_root()] {
            for entry in std::fs::read_dir(&root).expect("project root") {
                let path = entry.expect("dir entry").path();
                let name = path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .to_string();
                if path.is_dir() && name.starts_with("assets") {
                    asset_files(&path, &mut files);
                }
            }
        }
        assert!(files.len() > 400, "{} files", files.len());
        let mut checked = 0;
        for path in &files {
            let bytes = std::fs::read(path).expect("asset bytes");
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            match check_bytes(kind_of(path), &name, &bytes) {
                None => checked += 1,
                // Legacy SWF and similar files are not images; nothing else may fail.
                Some(problem) => panic!("{}: {problem:?}", path.display()),
            }
        }
        assert_eq!(checked, files.len());
    }

    #[test]
    fn time_over_the_unity_corpus() {
        let source = read_unity();
        let assets: Vec<(&'static str, String, &Vec<u8>)> = source
            .project
            .packages
            .iter()
            .flat_map(|p| &p.resources)
            .filter_map(|r| {
                let path = r.source_path()?;
                let bytes = source.bytes.get(path)?;
                Some((
                    r.kind(),
                    path.rsplit('/').next().unwrap_or(path).to_string(),
                    bytes,
                ))
            })
            .collect();
        let total: usize = assets.iter().map(|(_, _, b)| b.len()).sum();
        let runs = 20;
        let mut best = Duration::MAX;
        for _ in 0..runs {
            let start = Instant::now();
            for (kind, name, bytes) in &assets {
                assert_eq!(check_bytes(kind, name, bytes), None, "{name}");
            }
            best = best.min(start.elapsed());
        }
        println!(
            "check_bytes over {} unity assets ({:.1} MB): best of {runs} runs {:?}",
            assets.len(),
            total as f64 / 1e6,
            best
        );
    }
}
