//! The package level: header, optional compression, the segment index and the segments other
//! than items (string table, long strings, dependencies, sprites, pixel hit-test data).

use miniz_oxide::inflate::TINFLStatus;
use miniz_oxide::inflate::core::{DecompressorOxide, decompress, inflate_flags};
use serde_json::{Map, Value};

use crate::error::{DecodeError, Result, Within};
use crate::item;
use crate::reader::{BlockTable, Fields, Reader, hex};

/// `FGUI`: binary descriptors start with it; older text descriptors don't.
const MAGIC: u32 = 0x4647_5549;
/// Zero bytes after the package name that every runtime skips.
const RESERVED_LEN: usize = 20;
/// Upper bound for an inflated descriptor, against deflate bombs. Offsets inside are `i32`,
/// and real descriptors are a few hundred kilobytes at most.
const MAX_INFLATED: usize = 256 << 20;

/// Segment slots of the segment index.
const DEPENDENCIES: usize = 0;
const ITEMS: usize = 1;
const SPRITES: usize = 2;
const HIT_TEST: usize = 3;
const STRINGS: usize = 4;
const LONG_STRINGS: usize = 5;
const SEGMENT_NAMES: [&str; 6] = [
    "dependencies",
    "items",
    "sprites",
    "hitTest",
    "strings",
    "longStrings",
];

pub(crate) fn decode_package(bytes: &[u8]) -> Result<Value> {
    let mut header_reader = Reader::new(bytes);
    let magic = header_reader.u32("magic").within(|| "header")?;
    if magic != MAGIC {
        return Err(DecodeError::NotFgui { found: magic });
    }
    let mut header = Fields::default();
    header.put("magic", "FGUI");
    let (version, compressed) = read_header(&mut header_reader, &mut header).within(|| "header")?;
    let index_pos = header_reader.pos();

    // A compressed descriptor is the same layout with everything after the header deflated;
    // positions stay "header + inflated data" so they match the uncompressed file.
    let joined;
    let data: &[u8] = if compressed {
        let (head, packed) = bytes.split_at_checked(index_pos).unwrap_or((bytes, &[]));
        let body = inflate(packed, index_pos)?;
        header.put("compressedSize", packed.len());
        header.put("inflatedSize", body.len());
        joined = [head, body.as_slice()].concat();
        &joined
    } else {
        bytes
    };
    header.put("segmentIndexPos", index_pos);

    let index = Reader::new(data)
        .with_version(version)
        .region(index_pos, data.len(), "segment index")
        .within(|| "segment index")?;
    let segments = BlockTable::parse(&index).within(|| "segment index")?;
    segments
        .expect_no_blocks_from(SEGMENT_NAMES.len())
        .within(|| "segment index")?;
    header.put("segments", segments.describe());
    let mut ranges = Map::new();
    for slot in 0..segments.slots() {
        if let Some(range) = segments.range(slot) {
            let name = SEGMENT_NAMES
                .get(slot)
                .map_or_else(|| format!("seg{slot}"), |name| (*name).to_owned());
            ranges.insert(name, Value::from(range.to_vec()));
        }
    }
    header.put("segmentRanges", ranges);

    let mut package = Fields::default();
    package.put("header", header);

    // Everything else refers to the string table, so it is read first (as the runtime does).
    let mut strings = segments
        .required(STRINGS, "string table")
        .and_then(string_table)
        .within(|| "segment 4 (strings)")?;
    package.put("stringCount", strings.len());
    if let Some(block) = segments
        .block(LONG_STRINGS)
        .within(|| "segment 5 (long strings)")?
    {
        let replaced = long_strings(block, &mut strings).within(|| "segment 5 (long strings)")?;
        package.put("longStrings", replaced);
    }
    let strings = strings;
    // The table itself: entries no record refers to show only here.
    package.put("strings", strings.clone());

    let block = segments
        .required(DEPENDENCIES, "dependencies")
        .within(|| "segment 0 (dependencies)")?;
    let (dependencies, branches) =
        dependencies(block.with_strings(&strings)).within(|| "segment 0 (dependencies)")?;
    package.put("dependencies", dependencies);
    package.put("branches", branches);

    let block = segments
        .required(ITEMS, "items")
        .within(|| "segment 1 (items)")?;
    package.put(
        "items",
        item::items(block.with_strings(&strings)).within(|| "segment 1 (items)")?,
    );

    let sprites = match segments.block(SPRITES).within(|| "segment 2 (sprites)")? {
        Some(block) => sprites(block.with_strings(&strings)).within(|| "segment 2 (sprites)")?,
        None => Vec::new(),
    };
    package.put("sprites", sprites);

    let hit_test = match segments.block(HIT_TEST).within(|| "segment 3 (hit test)")? {
        Some(block) => hit_test(block.with_strings(&strings)).within(|| "segment 3 (hit test)")?,
        None => Vec::new(),
    };
    package.put("hitTest", hit_test);
    Ok(package.into())
}

/// Version, compressed flag, package id and name, reserved bytes. Returns the version and
/// whether the rest is compressed.
fn read_header(r: &mut Reader<'_>, header: &mut Fields) -> Result<(i32, bool)> {
    let version = header.i32(r, "version")?;
    let compressed = header.bool(r, "compressed")?;
    let id = r.raw_string("package id")?;
    header.put("id", id);
    let name = r.raw_string("package name")?;
    header.put("name", name);
    let reserved = r.take(RESERVED_LEN, "reserved bytes")?;
    header.put("reserved", hex(reserved));
    Ok((version, compressed))
}

/// Inflates a raw DEFLATE stream (no zlib header) that must end exactly at the end of the
/// file. `offset` is where the stream starts, for error messages.
fn inflate(packed: &[u8], offset: usize) -> Result<Vec<u8>> {
    let failed = |problem: String| DecodeError::Inflate { offset, problem };
    let mut state = Box::<DecompressorOxide>::default();
    let mut output = vec![0u8; packed.len().saturating_mul(4).clamp(1024, MAX_INFLATED)];
    let mut read = 0usize;
    let mut written = 0usize;
    loop {
        let input = packed.get(read..).unwrap_or_default();
        // All input is given at once, so a stream that stops early fails instead of waiting.
        let (status, consumed, produced) = decompress(
            &mut state,
            input,
            &mut output,
            written,
            inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF,
        );
        read = read.saturating_add(consumed);
        written = written.saturating_add(produced);
        match status {
            TINFLStatus::Done if read == packed.len() => {
                output.truncate(written);
                return Ok(output);
            }
            TINFLStatus::Done => {
                let trailing = packed.len().saturating_sub(read);
                return Err(failed(format!(
                    "{trailing} byte(s) after the end of the DEFLATE stream"
                )));
            }
            TINFLStatus::HasMoreOutput if output.len() < MAX_INFLATED => {
                let grown = output.len().saturating_mul(2).min(MAX_INFLATED);
                output.resize(grown, 0);
            }
            TINFLStatus::HasMoreOutput => {
                return Err(failed(format!(
                    "inflates to more than {MAX_INFLATED} bytes"
                )));
            }
            TINFLStatus::FailedCannotMakeProgress | TINFLStatus::NeedsMoreInput => {
                return Err(failed("the DEFLATE stream is truncated".to_owned()));
            }
            other => return Err(failed(format!("invalid DEFLATE data ({other:?})"))),
        }
    }
}

/// Segment 4: `i32 count`, then `count` inline strings.
fn string_table(mut r: Reader<'_>) -> Result<Vec<String>> {
    let count = r.count_i32("string count")?;
    // No capacity from the count: a corrupt count must not allocate before reads fail.
    let mut strings = Vec::new();
    for index in 0..count {
        let text = r
            .raw_string("string")
            .within(|| format!("string {index}"))?;
        strings.push(text.to_owned());
    }
    r.finish()?;
    Ok(strings)
}

/// Segment 5: strings over 65535 bytes, each replacing an entry of the table.
fn long_strings(mut r: Reader<'_>, strings: &mut [String]) -> Result<Vec<Value>> {
    let count = r.count_i32("long string count")?;
    let mut replaced = Vec::new();
    for entry in 0..count {
        replaced.push(long_string(&mut r, strings).within(|| format!("long string {entry}"))?);
    }
    r.finish()?;
    Ok(replaced)
}

fn long_string(r: &mut Reader<'_>, strings: &mut [String]) -> Result<Value> {
    let offset = r.pos();
    let index = r.u16("string index")?;
    let len = r.count_i32("byte length")?;
    let text = r.utf8(len, "long string")?;
    let table_len = strings.len();
    let slot = strings
        .get_mut(usize::from(index))
        .ok_or_else(|| DecodeError::Invalid {
            offset,
            context: String::new(),
            reading: "string index",
            problem: format!("string index {index} past the table's {table_len} strings"),
        })?;
    *slot = text.to_owned();
    let mut fields = Fields::default();
    fields.put("index", index);
    fields.put("length", len);
    Ok(fields.into())
}

/// Segment 0: packages this one uses, then (version 2 on) the project's branch names.
fn dependencies(mut r: Reader<'_>) -> Result<(Vec<Value>, Vec<Value>)> {
    let count = r.count_i16("dependency count")?;
    let mut dependencies = Vec::new();
    for _ in 0..count {
        let mut dependency = Fields::default();
        dependency.string(&mut r, "id")?;
        dependency.string(&mut r, "name")?;
        dependencies.push(dependency.into());
    }
    let mut branches = Vec::new();
    if r.version() >= 2 {
        let count = r.count_i16("branch count")?;
        for _ in 0..count {
            branches.push(r.string_value("branch name")?);
        }
    }
    r.finish()?;
    Ok((dependencies, branches))
}

/// Segment 2: where each image, font texture and movie-clip frame sits in an atlas.
fn sprites(mut r: Reader<'_>) -> Result<Vec<Value>> {
    let count = r.count_i16("sprite count")?;
    let mut sprites = Vec::new();
    for index in 0..count {
        let mut record = r
            .record_u16("sprite record")
            .within(|| format!("sprite {index}"))?;
        sprites.push(sprite(&mut record).within(|| format!("sprite {index}"))?);
    }
    r.finish()?;
    Ok(sprites)
}

fn sprite(r: &mut Reader<'_>) -> Result<Value> {
    let mut sprite = Fields::default();
    sprite.string(r, "id")?;
    sprite.string(r, "atlas")?;
    sprite.put("rect", r.i32s(4, "rect")?);
    sprite.bool(r, "rotated")?;
    if r.version() >= 2 && sprite.bool(r, "trimmed")? {
        sprite.put("offset", r.i32s(2, "offset")?);
        sprite.put("originalSize", r.i32s(2, "originalSize")?);
    }
    r.finish()?;
    Ok(sprite.into())
}

/// Segment 3: opacity masks of images used as pixel hit areas.
fn hit_test(mut r: Reader<'_>) -> Result<Vec<Value>> {
    let count = r.count_i16("hit-test count")?;
    let mut entries = Vec::new();
    for index in 0..count {
        let mut record = r
            .record_i32("hit-test record")
            .within(|| format!("hit test {index}"))?;
        entries.push(hit_test_entry(&mut record).within(|| format!("hit test {index}"))?);
    }
    r.finish()?;
    Ok(entries)
}

fn hit_test_entry(r: &mut Reader<'_>) -> Result<Value> {
    let mut entry = Fields::default();
    entry.string(r, "id")?;
    entry.i32(r, "unused")?;
    entry.i32(r, "pixelWidth")?;
    entry.u8(r, "scaleDivisor")?;
    let len = r.count_i32("pixelsLength")?;
    entry.put("pixelsLength", len);
    let pixels = r.take(len, "pixels")?;
    let set_bits = pixels.iter().fold(0u64, |total, byte| {
        total.saturating_add(u64::from(byte.count_ones()))
    });
    entry.put("pixelsSetBits", set_bits);
    // The whole mask, as hex (bit i of the grid is bit i % 8 of byte i / 8), so masks can
    // be compared bit by bit.
    entry.put("pixels", hex(pixels));
    r.finish()?;
    Ok(entry.into())
}
