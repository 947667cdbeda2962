//! Reads the pixel size of a PNG (IHDR) or JPEG (SOF) from its header, without decoding.

const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];

/// `(width, height)` when the bytes start like a PNG or JPEG with a readable size.
pub(crate) fn probe(bytes: &[u8]) -> Option<(u32, u32)> {
    png(bytes).or_else(|| jpeg(bytes))
}

fn be16(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at + 2)?;
    Some(u32::from(b[0]) << 8 | u32::from(b[1]))
}

fn be32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at + 4)?;
    Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

fn png(bytes: &[u8]) -> Option<(u32, u32)> {
    // The IHDR chunk must come first: length 13, type, width, height.
    if bytes.get(..8)? != PNG_SIGNATURE || bytes.get(12..16)? != b"IHDR" {
        return None;
    }
    let (w, h) = (be32(bytes, 16)?, be32(bytes, 20)?);
    (w > 0 && h > 0 && w <= i32::MAX as u32 && h <= i32::MAX as u32).then_some((w, h))
}

/// Start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) do not.
fn is_start_of_frame(marker: u8) -> bool {
    matches!(marker, 0xc0..=0xcf) && !matches!(marker, 0xc4 | 0xc8 | 0xcc)
}

fn jpeg(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.get(..2)? != [0xff, 0xd8] {
        return None;
    }
    let mut at = 2;
    loop {
        if *bytes.get(at)? != 0xff {
            return None;
        }
        while *bytes.get(at)? == 0xff {
            at += 1;
        }
        let marker = bytes[at];
        at += 1;
        match marker {
            // Markers without a length.
            0x01 | 0xd0..=0xd8 => continue,
            // End of image or start of scan before any frame header: no size.
            0xd9 | 0xda => return None,
            _ => {}
        }
        let length = be16(bytes, at)? as usize;
        if length < 2 {
            return None;
        }
        if is_start_of_frame(marker) {
            let (h, w) = (be16(bytes, at + 3)?, be16(bytes, at + 5)?);
            return (w > 0 && h > 0).then_some((w, h));
        }
        // `length` ≥ 2, so the walk always moves forward and ends at the data's end.
        at += length;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png_header(w: u32, h: u32) -> Vec<u8> {
        let mut b = PNG_SIGNATURE.to_vec();
        b.extend_from_slice(&13u32.to_be_bytes());
        b.extend_from_slice(b"IHDR");
        b.extend_from_slice(&w.to_be_bytes());
        b.extend_from_slice(&h.to_be_bytes());
        b.extend_from_slice(&[8, 6, 0, 0, 0]);
        b
    }

    #[test]
    fn reads_png_ihdr() {
        assert_eq!(probe(&png_header(85, 28)), Some((85, 28)));
        assert_eq!(probe(&png_header(0, 28)), None);
    }

    #[test]
    fn reads_jpeg_sof_after_other_segments() {
        let mut b = vec![0xff, 0xd8];
        // APP0 segment of length 16.
        b.extend_from_slice(&[0xff, 0xe0, 0x00, 0x10]);
        b.extend_from_slice(&[0u8; 14]);
        // SOF0: length 17, precision 8, height 0x0102, width 0x0304.
        b.extend_from_slice(&[0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x02, 0x03, 0x04, 0x03]);
        b.extend_from_slice(&[0u8; 9]);
        assert_eq!(probe(&b), Some((0x0304, 0x0102)));
    }

    #[test]
    fn garbage_and_truncation_never_panic() {
        let png = png_header(10, 10);
        for end in 0..png.len() {
            let _ = probe(&png[..end]);
        }
        let jpeg = [0xff, 0xd8, 0xff, 0xe0, 0x00];
        for end in 0..jpeg.len() {
            assert_eq!(probe(&jpeg[..end]), None);
        }
        assert_eq!(probe(&[0xff, 0xd8, 0xff, 0xe0, 0x00, 0x00]), None);
        assert_eq!(probe(b"not an image"), None);
        assert_eq!(probe(&[0xff, 0xd8, 0xff, 0xff, 0xff]), None);
    }
}
