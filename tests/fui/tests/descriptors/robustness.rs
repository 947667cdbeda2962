//! Damaged descriptors: every truncation and thousands of single-byte corruptions decode to
//! an error or a value but never panic; the strict checks fail where and how they should; a
//! compressed descriptor decodes like the plain one.

use std::panic::{AssertUnwindSafe, catch_unwind};

use ofgui_fui::{DecodeError, decode};
use serde_json::Value;

use crate::{decoded, descriptor};

/// Decodes, turning a panic into a test failure that names the input.
fn decode_checked(bytes: &[u8], what: impl Fn() -> String) -> Result<Value, DecodeError> {
    let result = catch_unwind(AssertUnwindSafe(|| decode(bytes)))
        .unwrap_or_else(|_| panic!("decode panicked on {}", what()));
    if let Err(error) = &result {
        // Offsets are positions in the data (in header + inflated data when the corruption
        // happened to set the compressed flag).
        let compressed = bytes.get(8) == Some(&1);
        assert!(
            compressed || error.offset() <= bytes.len(),
            "{}: offset past the data: {error}",
            what()
        );
    }
    result
}

/// A descriptor without its last bytes is always refused: the string table runs to the end
/// of the file, so a cut leaves it short.
#[test]
fn every_truncation_is_an_error() {
    for package in ["Bag", "TextMeshPro", "HitTest", "Gesture"] {
        let bytes = descriptor(package);
        for len in 0..bytes.len() {
            let result = decode_checked(&bytes[..len], || format!("{package} cut to {len} bytes"));
            assert!(result.is_err(), "{package} cut to {len} bytes decoded");
        }
    }
    // The big one with a stride, plus every cut near the end.
    let bytes = descriptor("Basics");
    let lengths = (0..bytes.len())
        .step_by(53)
        .chain(bytes.len().saturating_sub(300)..bytes.len());
    for len in lengths {
        assert!(decode_checked(&bytes[..len], || format!("Basics cut to {len} bytes")).is_err());
    }
}

/// A tiny deterministic generator, so failures replay.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}

/// Single-byte corruptions never panic. On Bag, whose string table has no duplicate entries,
/// every byte is read into the result, so a corruption that still decodes must change it.
#[test]
fn single_byte_corruptions_fail_or_change_the_result() {
    let mut random = XorShift(0x9E37_79B9_7F4A_7C15);
    for (package, cases, must_change) in [
        ("Bag", 2500, true),
        ("TextMeshPro", 800, false),
        ("HitTest", 800, false),
        ("Basics", 80, false),
    ] {
        let bytes = descriptor(package);
        let original = decoded(package);
        let (mut refused, mut accepted) = (0, 0);
        for _ in 0..cases {
            let position = random.below(bytes.len());
            let old = bytes[position];
            let new = old ^ (1 + random.below(255)) as u8;
            let mut corrupted = bytes.clone();
            corrupted[position] = new;
            let what =
                || format!("{package} with byte {position} changed from {old:#04x} to {new:#04x}");
            match decode_checked(&corrupted, what) {
                Err(_) => refused += 1,
                Ok(value) => {
                    accepted += 1;
                    // Flipping the sign of a zero float keeps its value (-0.0 is shown as 0).
                    let zero_sign = old == 0 && new == 0x80;
                    if must_change && !zero_sign {
                        assert_ne!(value, original, "{} decoded to the same result", what());
                    }
                }
            }
        }
        assert!(
            refused > cases / 10 && accepted > 0,
            "{package}: {refused} refused, {accepted} accepted"
        );
    }
}

/// Start of segment `name` (from the decoded header).
fn segment_start(package: &Value, name: &str) -> usize {
    package["header"]["segmentRanges"][name][0]
        .as_u64()
        .unwrap() as usize
}

#[test]
fn strict_checks_say_where() {
    let bytes = descriptor("Bag");
    let package = decoded("Bag");
    let items = segment_start(&package, "items");

    // Items segment: i16 count, then per item an i32 length and the u8 type.
    let type_at = items + 2 + 4;
    let mut unknown_type = bytes.clone();
    unknown_type[type_at] = 200;
    let error = decode(&unknown_type).unwrap_err();
    let DecodeError::UnknownCode {
        offset,
        reading,
        code,
        ref context,
    } = error
    else {
        panic!("expected an unknown item type, got {error:?}");
    };
    assert_eq!((offset, reading, code), (type_at, "item type", 200));
    assert!(context.contains("item 0"), "{error}");

    // One byte more in the first item's length: the item no longer fills its record.
    let mut longer = bytes.clone();
    let len_at = items + 2;
    let len = i32::from_be_bytes(bytes[len_at..len_at + 4].try_into().unwrap());
    longer[len_at..len_at + 4].copy_from_slice(&(len + 1).to_be_bytes());
    let error = decode(&longer).unwrap_err();
    let DecodeError::Leftover {
        offset,
        unread,
        ref context,
        ..
    } = error
    else {
        panic!("expected leftover bytes, got {error:?}");
    };
    assert_eq!((offset, unread), (len_at + 4 + len as usize, 1));
    assert!(context.contains("item 0"), "{error}");
    assert!(
        error.to_string().contains(&format!("at {offset}..")),
        "{error}"
    );

    // The compressed flag is a bool: 2 is neither.
    let mut bad_bool = bytes.clone();
    bad_bool[8] = 2;
    assert!(
        matches!(
            decode(&bad_bool),
            Err(DecodeError::Invalid {
                offset: 8,
                reading: "compressed",
                ..
            })
        ),
        "{:?}",
        decode(&bad_bool)
    );

    // A cut inside the last string.
    let error = decode(&bytes[..bytes.len() - 1]).unwrap_err();
    let DecodeError::Truncated {
        needed,
        available,
        ref context,
        ..
    } = error
    else {
        panic!("expected truncation, got {error:?}");
    };
    assert_eq!(needed, available + 1);
    assert!(context.contains("strings"), "{error}");

    assert_eq!(
        decode(b"GUI\0 anything"),
        Err(DecodeError::NotFgui { found: 0x4755_4900 })
    );
    assert!(matches!(
        decode(b"FG"),
        Err(DecodeError::Truncated { offset: 0, .. })
    ));
}

/// With the compressed flag set, everything after the header is raw DEFLATE.
#[test]
fn compressed_descriptor_decodes_like_the_plain_one() {
    let bytes = descriptor("Bag");
    let plain = decoded("Bag");
    let index_pos = plain["header"]["segmentIndexPos"].as_u64().unwrap() as usize;
    let mut compressed = bytes[..index_pos].to_vec();
    compressed[8] = 1;
    let packed = miniz_oxide::deflate::compress_to_vec(&bytes[index_pos..], 6);
    compressed.extend_from_slice(&packed);

    let mut decoded = decode(&compressed).unwrap();
    let header = decoded["header"].as_object_mut().unwrap();
    assert_eq!(
        header.remove("compressedSize"),
        Some(Value::from(packed.len()))
    );
    assert_eq!(
        header.remove("inflatedSize"),
        Some(Value::from(bytes.len() - index_pos))
    );
    assert_eq!(
        header.insert("compressed".into(), Value::from(false)),
        Some(Value::from(true))
    );
    assert_eq!(decoded, plain);

    // Trailing bytes after the stream, or a cut stream, are refused.
    let mut trailing = compressed.clone();
    trailing.push(0);
    assert!(
        matches!(decode(&trailing), Err(DecodeError::Inflate { .. })),
        "{:?}",
        decode(&trailing)
    );
    let cut = &compressed[..compressed.len() - 3];
    assert!(
        matches!(decode(cut), Err(DecodeError::Inflate { .. })),
        "{:?}",
        decode(cut)
    );
}
