//! JPEG (ITU T.81 Annex B): the size its frame header declares, and the marker walk that
//! checks a whole file (segments, frame header, scans and EOI).

use super::be16;

/// The start-of-image marker every JPEG begins with.
pub const SOI: [u8; 2] = [0xff, 0xd8];

/// Start-of-frame markers; C4 (DHT), C8 (JPG) and CC (DAC) are not frames.
fn is_start_of_frame(marker: u8) -> bool {
    matches!(marker, 0xc0..=0xcf) && !matches!(marker, 0xc4 | 0xc8 | 0xcc)
}

/// The size the first frame header declares when the bytes start like a JPEG; scans and
/// anything after the frame header are not looked at.
pub fn size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.get(..2)? != SOI {
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
        let length = usize::from(be16(bytes, at)?);
        if length < 2 {
            return None;
        }
        if is_start_of_frame(marker) {
            let (h, w) = (be16(bytes, at + 3)?, be16(bytes, at + 5)?);
            return (w > 0 && h > 0).then_some((u32::from(w), u32::from(h)));
        }
        // `length` ≥ 2, so the walk always moves forward and ends at the data's end.
        at += length;
    }
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

pub fn check(bytes: &[u8]) -> Result<(), String> {
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
        let Some(length) = be16(bytes, at).map(usize::from) else {
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

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::formats::test_support::{assert_ok, corrupt};

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

    pub(crate) fn tiny_jpeg() -> Vec<u8> {
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
    fn size_comes_from_the_frame_header_after_other_segments() {
        let mut b = vec![0xff, 0xd8];
        // APP0 segment of length 16.
        b.extend_from_slice(&[0xff, 0xe0, 0x00, 0x10]);
        b.extend_from_slice(&[0u8; 14]);
        // SOF0: length 17, precision 8, height 0x0102, width 0x0304.
        b.extend_from_slice(&[0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x02, 0x03, 0x04, 0x03]);
        b.extend_from_slice(&[0u8; 9]);
        assert_eq!(size(&b), Some((0x0304, 0x0102)));
        assert_eq!(size(&tiny_jpeg()), Some((8, 8)));
    }

    #[test]
    fn size_of_garbage_and_truncation_is_none() {
        let jpeg = [0xff, 0xd8, 0xff, 0xe0, 0x00];
        for end in 0..jpeg.len() {
            assert_eq!(size(&jpeg[..end]), None);
        }
        assert_eq!(size(&[0xff, 0xd8, 0xff, 0xe0, 0x00, 0x00]), None);
        assert_eq!(size(&[0xff, 0xd8, 0xff, 0xff, 0xff]), None);
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
}
