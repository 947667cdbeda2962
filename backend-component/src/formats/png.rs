//! PNG (PNG spec §5, §11.2): the size its header declares, and the chunk walk that checks
//! a whole file.

use super::be32;

pub const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];

/// The size the IHDR chunk declares when the bytes start like a PNG; the rest of the file
/// is not looked at.
pub fn size(bytes: &[u8]) -> Option<(u32, u32)> {
    // The IHDR chunk must come first: length 13, type, width, height.
    if bytes.get(..8)? != SIGNATURE || bytes.get(12..16)? != b"IHDR" {
        return None;
    }
    let (w, h) = (be32(bytes, 16)?, be32(bytes, 20)?);
    (w > 0 && h > 0 && w <= i32::MAX as u32 && h <= i32::MAX as u32).then_some((w, h))
}

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

pub fn check(bytes: &[u8]) -> Result<(), String> {
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
                        "PNG indexed-colour image has no PLTE chunk before its image data".into(),
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

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::formats::test_support::{assert_ok, corrupt};

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

    pub(crate) fn tiny_png() -> Vec<u8> {
        png_of(&[ihdr(1, 1, 8, 6), idat(), iend()])
    }

    pub(crate) const PANEL_PNG: &[u8] =
        include_bytes!("../../../examples/HelloFairy/assets/Main/images/panel.png");

    #[test]
    fn size_comes_from_the_ihdr_chunk() {
        assert_eq!(size(&png_of(&[ihdr(85, 28, 8, 6)])), Some((85, 28)));
        assert_eq!(size(&png_of(&[ihdr(0, 28, 8, 6)])), None);
        let png = tiny_png();
        for end in 0..png.len() {
            let _ = size(&png[..end]);
        }
        assert_eq!(size(b"not an image"), None);
    }

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
}
