//! Reading primitives: a big-endian cursor confined to one region of the descriptor, the
//! position tables that locate blocks, length-prefixed records, and a small JSON object
//! builder the decoders fill field by field.
//!
//! Every structure is read through a [`Reader`] bounded to exactly that structure's bytes, so
//! a read that would run into the next structure fails as truncated right away, and
//! [`Reader::finish`] proves afterwards that nothing inside was left unread. Offsets in errors
//! are positions in the whole buffer.

use serde_json::{Map, Value};

use crate::error::{DecodeError, Result};

/// String-table index meaning "no string" (null).
const STRING_NULL: u16 = 0xFFFE;
/// String-table index meaning the empty string.
const STRING_EMPTY: u16 = 0xFFFD;

/// A cursor over `data[pos..end]`. Copies are cheap: the bytes and string table are shared.
#[derive(Clone, Copy)]
pub(crate) struct Reader<'a> {
    data: &'a [u8],
    strings: &'a [String],
    version: i32,
    start: usize,
    pos: usize,
    end: usize,
}

impl<'a> Reader<'a> {
    /// A reader over all of `data`, before the string table is known.
    pub(crate) fn new(data: &'a [u8]) -> Self {
        Reader {
            data,
            strings: &[],
            version: 0,
            start: 0,
            pos: 0,
            end: data.len(),
        }
    }

    /// The same region, resolving string references against `strings`.
    pub(crate) fn with_strings<'b>(&self, strings: &'b [String]) -> Reader<'b>
    where
        'a: 'b,
    {
        Reader {
            data: self.data,
            strings,
            version: self.version,
            start: self.start,
            pos: self.pos,
            end: self.end,
        }
    }

    /// The same region, reading fields that depend on the format version as `version`.
    pub(crate) fn with_version(mut self, version: i32) -> Self {
        self.version = version;
        self
    }

    /// The descriptor's format version (from the header).
    pub(crate) fn version(&self) -> i32 {
        self.version
    }

    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    pub(crate) fn remaining(&self) -> usize {
        self.end.saturating_sub(self.pos)
    }

    /// A reader over `start..end`, which must lie inside this reader's region.
    pub(crate) fn region(&self, start: usize, end: usize, reading: &'static str) -> Result<Self> {
        if !(self.start..=end).contains(&start) || end > self.end {
            return Err(DecodeError::Invalid {
                offset: self.pos,
                context: String::new(),
                reading,
                problem: format!(
                    "range {start}..{end} is outside its enclosing structure {}..{}",
                    self.start, self.end
                ),
            });
        }
        Ok(Reader {
            start,
            pos: start,
            end,
            ..*self
        })
    }

    /// Fails unless every byte of the region has been read.
    pub(crate) fn finish(&self) -> Result<()> {
        if self.pos == self.end {
            return Ok(());
        }
        Err(DecodeError::Leftover {
            offset: self.pos,
            end: self.end,
            unread: self.remaining(),
            context: String::new(),
        })
    }

    /// Runs `read` on this region and checks that it consumed all of it.
    pub(crate) fn read_all<T>(mut self, read: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let value = read(&mut self)?;
        self.finish()?;
        Ok(value)
    }

    pub(crate) fn take(&mut self, len: usize, reading: &'static str) -> Result<&'a [u8]> {
        let available = self.remaining();
        let truncated = || DecodeError::Truncated {
            offset: self.pos,
            context: String::new(),
            reading,
            needed: len,
            available,
        };
        if len > available {
            return Err(truncated());
        }
        let end = self.pos.checked_add(len).ok_or_else(truncated)?;
        let bytes = self.data.get(self.pos..end).ok_or_else(truncated)?;
        self.pos = end;
        Ok(bytes)
    }

    fn array<const N: usize>(&mut self, reading: &'static str) -> Result<[u8; N]> {
        let offset = self.pos;
        let bytes = self.take(N, reading)?;
        <[u8; N]>::try_from(bytes).map_err(|_| DecodeError::Truncated {
            offset,
            context: String::new(),
            reading,
            needed: N,
            available: bytes.len(),
        })
    }

    /// A `u8` code that decides what is read next, with its name. A code the format does not
    /// define is an error: nothing after it could be read correctly.
    pub(crate) fn known_code(
        &mut self,
        reading: &'static str,
        names: &[&'static str],
    ) -> Result<(u8, &'static str)> {
        let offset = self.pos;
        let code = self.u8(reading)?;
        match names.get(usize::from(code)) {
            Some(&name) => Ok((code, name)),
            None => Err(unknown_code(offset, reading, code)),
        }
    }

    pub(crate) fn invalid(
        &self,
        offset: usize,
        reading: &'static str,
        problem: String,
    ) -> DecodeError {
        DecodeError::Invalid {
            offset,
            context: String::new(),
            reading,
            problem,
        }
    }

    pub(crate) fn u8(&mut self, reading: &'static str) -> Result<u8> {
        let [byte] = self.array::<1>(reading)?;
        Ok(byte)
    }

    /// A bool byte. The editor writes only 0 and 1; anything else means we are misreading.
    pub(crate) fn bool(&mut self, reading: &'static str) -> Result<bool> {
        let offset = self.pos;
        match self.u8(reading)? {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(self.invalid(offset, reading, format!("bool byte {other}, not 0 or 1"))),
        }
    }

    pub(crate) fn i16(&mut self, reading: &'static str) -> Result<i16> {
        Ok(i16::from_be_bytes(self.array(reading)?))
    }

    pub(crate) fn u16(&mut self, reading: &'static str) -> Result<u16> {
        Ok(u16::from_be_bytes(self.array(reading)?))
    }

    pub(crate) fn i32(&mut self, reading: &'static str) -> Result<i32> {
        Ok(i32::from_be_bytes(self.array(reading)?))
    }

    pub(crate) fn u32(&mut self, reading: &'static str) -> Result<u32> {
        Ok(u32::from_be_bytes(self.array(reading)?))
    }

    pub(crate) fn f32(&mut self, reading: &'static str) -> Result<f32> {
        Ok(f32::from_be_bytes(self.array(reading)?))
    }

    /// A color, stored R, G, B, A; rendered `#rrggbbaa`.
    pub(crate) fn color(&mut self, reading: &'static str) -> Result<String> {
        let [red, green, blue, alpha] = self.array::<4>(reading)?;
        Ok(format!("#{red:02x}{green:02x}{blue:02x}{alpha:02x}"))
    }

    /// A non-negative `i16` count.
    pub(crate) fn count_i16(&mut self, reading: &'static str) -> Result<usize> {
        let offset = self.pos;
        let count = self.i16(reading)?;
        usize::try_from(count)
            .map_err(|_| self.invalid(offset, reading, format!("negative count {count}")))
    }

    /// A non-negative `i32` count or length.
    pub(crate) fn count_i32(&mut self, reading: &'static str) -> Result<usize> {
        let offset = self.pos;
        let count = self.i32(reading)?;
        usize::try_from(count)
            .map_err(|_| self.invalid(offset, reading, format!("negative count {count}")))
    }

    pub(crate) fn count_u8(&mut self, reading: &'static str) -> Result<usize> {
        Ok(usize::from(self.u8(reading)?))
    }

    /// UTF-8 bytes of a known length.
    pub(crate) fn utf8(&mut self, len: usize, reading: &'static str) -> Result<&'a str> {
        let offset = self.pos;
        let bytes = self.take(len, reading)?;
        std::str::from_utf8(bytes)
            .map_err(|error| self.invalid(offset, reading, format!("not UTF-8: {error}")))
    }

    /// An inline string: `u16` byte length, then UTF-8 (header and string table only).
    pub(crate) fn raw_string(&mut self, reading: &'static str) -> Result<&'a str> {
        let len = self.u16(reading)?;
        self.utf8(usize::from(len), reading)
    }

    /// A `u16` reference into the string table.
    pub(crate) fn string(&mut self, reading: &'static str) -> Result<Option<&'a str>> {
        let offset = self.pos;
        match self.u16(reading)? {
            STRING_NULL => Ok(None),
            STRING_EMPTY => Ok(Some("")),
            index => match self.strings.get(usize::from(index)) {
                Some(text) => Ok(Some(text.as_str())),
                None => Err(self.invalid(
                    offset,
                    reading,
                    format!(
                        "string index {index} past the table's {} strings",
                        self.strings.len()
                    ),
                )),
            },
        }
    }

    /// A string reference as JSON: the text, or null.
    pub(crate) fn string_value(&mut self, reading: &'static str) -> Result<Value> {
        Ok(self.string(reading)?.map_or(Value::Null, Value::from))
    }

    /// `count` string references as a JSON array.
    pub(crate) fn strings_value(&mut self, count: usize, reading: &'static str) -> Result<Value> {
        (0..count)
            .map(|_| self.string_value(reading))
            .collect::<Result<Vec<_>>>()
            .map(Value::Array)
    }

    /// `count` big-endian `i32`s as a JSON array.
    pub(crate) fn i32s(&mut self, count: usize, reading: &'static str) -> Result<Value> {
        (0..count)
            .map(|_| Ok(Value::from(self.i32(reading)?)))
            .collect::<Result<Vec<_>>>()
            .map(Value::Array)
    }

    /// `count` `f32`s as a JSON array.
    pub(crate) fn f32s(&mut self, count: usize, reading: &'static str) -> Result<Value> {
        (0..count)
            .map(|_| Ok(f32_value(self.f32(reading)?)))
            .collect::<Result<Vec<_>>>()
            .map(Value::Array)
    }

    /// A reader over the next `len` bytes (one record), moving this reader past them.
    fn record(&mut self, len: usize, reading: &'static str) -> Result<Reader<'a>> {
        let start = self.pos;
        self.take(len, reading)?;
        self.region(start, self.pos, reading)
    }

    /// A record prefixed by a `u16` length.
    pub(crate) fn record_u16(&mut self, reading: &'static str) -> Result<Reader<'a>> {
        let len = self.u16(reading)?;
        self.record(usize::from(len), reading)
    }

    /// A record prefixed by a signed `i16` length (children and transition items).
    pub(crate) fn record_i16(&mut self, reading: &'static str) -> Result<Reader<'a>> {
        let len = self.count_i16(reading)?;
        self.record(len, reading)
    }

    /// A record or sub-buffer prefixed by an `i32` length.
    pub(crate) fn record_i32(&mut self, reading: &'static str) -> Result<Reader<'a>> {
        let len = self.count_i32(reading)?;
        self.record(len, reading)
    }
}

/// The error for a code that decides what follows but has no defined meaning.
pub(crate) fn unknown_code(
    offset: usize,
    reading: &'static str,
    code: impl Into<i64>,
) -> DecodeError {
    DecodeError::UnknownCode {
        offset,
        context: String::new(),
        reading,
        code: code.into(),
    }
}

/// A position table: `u8 count`, `u8 useShort`, then `count` offsets (`i16` if useShort is 1,
/// else `i32`) relative to the table's first byte; 0 means the block is absent. Blocks are
/// read by jumping to their offset, so each block's end is the next present block's start
/// (or the end of the enclosing record).
pub(crate) struct BlockTable<'a> {
    region: Reader<'a>,
    short: bool,
    offsets: Vec<i64>,
    /// Absolute start of each present block.
    starts: Vec<Option<usize>>,
}

impl<'a> BlockTable<'a> {
    /// Reads the table at the start of `region`, which spans the whole structure. The first
    /// present block must start right after the table and the blocks must follow in slot
    /// order, so that the blocks together cover every remaining byte of the region.
    pub(crate) fn parse(region: &Reader<'a>) -> Result<Self> {
        let mut cursor = *region;
        let count = cursor.count_u8("position table slot count")?;
        // The runtimes take 1 as i16 and anything else as i32; the editor writes 0 or 1.
        let short = cursor.bool("position table offset width")?;
        let mut offsets = Vec::new();
        let mut starts = Vec::new();
        let mut previous: Option<usize> = None;
        for _ in 0..count {
            let offset_pos = cursor.pos;
            let offset = if short {
                i64::from(cursor.i16("block offset")?)
            } else {
                i64::from(cursor.i32("block offset")?)
            };
            let start = match offset {
                0 => None,
                _ => Some(
                    usize::try_from(offset)
                        .ok()
                        .and_then(|relative| region.start.checked_add(relative))
                        .filter(|&start| start <= region.end)
                        .ok_or_else(|| {
                            cursor.invalid(
                                offset_pos,
                                "block offset",
                                format!(
                                    "offset {offset} points outside its structure (0..{})",
                                    region.remaining()
                                ),
                            )
                        })?,
                ),
            };
            if let Some(start) = start {
                if previous.is_some_and(|previous| start < previous) {
                    return Err(cursor.invalid(
                        offset_pos,
                        "block offset",
                        format!("block starts at {start}, before the previous block"),
                    ));
                }
                previous = Some(start);
            }
            offsets.push(offset);
            starts.push(start);
        }
        let table_end = cursor.pos;
        let first_start = starts
            .iter()
            .flatten()
            .next()
            .copied()
            .unwrap_or(region.end);
        if first_start != table_end {
            return Err(cursor.invalid(
                table_end,
                "position table",
                format!(
                    "the table ends at {table_end} but its first block starts at {first_start}"
                ),
            ));
        }
        Ok(BlockTable {
            region: *region,
            short,
            offsets,
            starts,
        })
    }

    fn start(&self, slot: usize) -> Option<usize> {
        self.starts.get(slot).copied().flatten()
    }

    /// Where the block in `slot` ends: at the next present block, else at the region's end.
    fn end(&self, slot: usize) -> usize {
        self.starts
            .iter()
            .skip(slot.saturating_add(1))
            .flatten()
            .next()
            .copied()
            .unwrap_or(self.region.end)
    }

    /// The block in `slot`, if present (possibly empty).
    pub(crate) fn block(&self, slot: usize) -> Result<Option<Reader<'a>>> {
        match self.start(slot) {
            Some(start) => self.region.region(start, self.end(slot), "block").map(Some),
            None => Ok(None),
        }
    }

    /// The block in `slot` if it is present and holds at least one byte.
    pub(crate) fn content(&self, slot: usize) -> Result<Option<Reader<'a>>> {
        Ok(self.block(slot)?.filter(|block| block.remaining() > 0))
    }

    /// The block in `slot`, which this structure always has.
    pub(crate) fn required(&self, slot: usize, reading: &'static str) -> Result<Reader<'a>> {
        self.block(slot)?.ok_or_else(|| self.missing(slot, reading))
    }

    /// The error for a block this structure needs but does not have (or has empty).
    pub(crate) fn missing(&self, slot: usize, reading: &'static str) -> DecodeError {
        DecodeError::MissingBlock {
            offset: self.region.start,
            context: String::new(),
            slot,
            reading,
        }
    }

    /// Fails if the block in `slot` holds bytes (nothing defined reads them).
    pub(crate) fn expect_empty(&self, slot: usize) -> Result<()> {
        match self.content(slot)? {
            Some(block) => block
                .finish()
                .map_err(|error| error.within(&format!("block {slot}"))),
            None => Ok(()),
        }
    }

    /// Fails if any block from `first` on holds bytes: the format defines none there.
    pub(crate) fn expect_no_blocks_from(&self, first: usize) -> Result<()> {
        (first..self.starts.len()).try_for_each(|slot| self.expect_empty(slot))
    }

    /// The table itself: slot count, offset width, raw offsets, block sizes (null if absent).
    pub(crate) fn describe(&self) -> Value {
        let sizes = (0..self.starts.len())
            .map(|slot| match self.start(slot) {
                Some(start) => Value::from(self.end(slot).saturating_sub(start)),
                None => Value::Null,
            })
            .collect();
        let mut table = Map::new();
        table.insert("count".into(), Value::from(self.starts.len()));
        table.insert("short".into(), Value::from(self.short));
        table.insert(
            "offsets".into(),
            Value::Array(
                self.offsets
                    .iter()
                    .map(|&offset| Value::from(offset))
                    .collect(),
            ),
        );
        table.insert("sizes".into(), Value::Array(sizes));
        Value::Object(table)
    }

    /// Absolute `[start, end]` of the block in `slot`, if present.
    pub(crate) fn range(&self, slot: usize) -> Option<[usize; 2]> {
        self.start(slot).map(|start| [start, self.end(slot)])
    }

    pub(crate) fn slots(&self) -> usize {
        self.starts.len()
    }
}

/// A JSON object filled in file order: each method reads one field and stores it under its
/// name, which is also what an error reports as being read.
#[derive(Default)]
pub(crate) struct Fields(Map<String, Value>);

impl Fields {
    pub(crate) fn put(&mut self, key: &str, value: impl Into<Value>) {
        self.0.insert(key.to_owned(), value.into());
    }

    pub(crate) fn u8(&mut self, r: &mut Reader<'_>, key: &'static str) -> Result<u8> {
        let value = r.u8(key)?;
        self.put(key, value);
        Ok(value)
    }

    pub(crate) fn bool(&mut self, r: &mut Reader<'_>, key: &'static str) -> Result<bool> {
        let value = r.bool(key)?;
        self.put(key, value);
        Ok(value)
    }

    pub(crate) fn i16(&mut self, r: &mut Reader<'_>, key: &'static str) -> Result<i16> {
        let value = r.i16(key)?;
        self.put(key, value);
        Ok(value)
    }

    pub(crate) fn i32(&mut self, r: &mut Reader<'_>, key: &'static str) -> Result<i32> {
        let value = r.i32(key)?;
        self.put(key, value);
        Ok(value)
    }

    pub(crate) fn f32(&mut self, r: &mut Reader<'_>, key: &'static str) -> Result<f32> {
        let value = r.f32(key)?;
        self.put(key, f32_value(value));
        Ok(value)
    }

    pub(crate) fn color(&mut self, r: &mut Reader<'_>, key: &'static str) -> Result<()> {
        let value = r.color(key)?;
        self.put(key, value);
        Ok(())
    }

    pub(crate) fn string<'a>(
        &mut self,
        r: &mut Reader<'a>,
        key: &'static str,
    ) -> Result<Option<&'a str>> {
        let value = r.string(key)?;
        self.put(key, value.map_or(Value::Null, Value::from));
        Ok(value)
    }

    /// A `u8` code shown by name (or as the number when the name table has none for it).
    pub(crate) fn named(
        &mut self,
        r: &mut Reader<'_>,
        key: &'static str,
        names: &[&str],
    ) -> Result<u8> {
        let code = r.u8(key)?;
        self.put(key, name_or_code(names, code));
        Ok(code)
    }

    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.0.get_mut(key)
    }

    /// Moves every field of `other` into this object, after the existing ones.
    pub(crate) fn extend(&mut self, other: Fields) {
        self.0.extend(other.0);
    }
}

impl From<Fields> for Value {
    fn from(fields: Fields) -> Self {
        Value::Object(fields.0)
    }
}

/// `names[code]`, or the bare number for codes without a name (kept, not rejected, because
/// these codes only label a value; they don't decide what is read next).
pub(crate) fn name_or_code(names: &[&str], code: u8) -> Value {
    names
        .get(usize::from(code))
        .map_or_else(|| Value::from(code), |&name| Value::from(name))
}

/// An `f32` as the shortest decimal that reads back as the same `f32` (0.3, not
/// 0.30000001192092896), written as an integer when it is one (so -0.0 is 0).
/// NaN and infinities, which JSON lacks, become the strings Python prints for them.
pub(crate) fn f32_value(value: f32) -> Value {
    if value.is_nan() {
        return Value::from("nan");
    }
    if value.is_infinite() {
        return Value::from(if value > 0.0 { "inf" } else { "-inf" });
    }
    let wide = f64::from(value);
    // Fewest significant digits that survive the round trip through f64 and back to f32
    // `{:.Ne}` rounds the exact binary value, so the first precision that round-trips gives
    // the digits Python's "%.{p}g" would (the study's decoder prints floats that way).
    let shortest = (0..9usize)
        .filter_map(|decimals| format!("{wide:.decimals$e}").parse::<f64>().ok())
        .find(|&candidate| (candidate as f32).to_bits() == value.to_bits())
        .unwrap_or(wide);
    if shortest.fract() == 0.0 && shortest.abs() < 1e15 {
        Value::from(shortest as i64)
    } else {
        Value::from(shortest)
    }
}

/// Lower-case hex of `bytes`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_shortest() {
        assert_eq!(f32_value(0.3), Value::from(0.3));
        assert_eq!(f32_value(1.0), Value::from(1));
        assert_eq!(f32_value(-0.0), Value::from(0));
        assert_eq!(f32_value(0.041_666_668), Value::from(0.041666668));
        assert_eq!(f32_value(f32::NAN), Value::from("nan"));
        assert_eq!(f32_value(f32::NEG_INFINITY), Value::from("-inf"));
        assert_eq!(f32_value(1e20), Value::from(1e20));
    }

    #[test]
    fn table_blocks_cover_the_region() {
        // 3 slots of i16: block 0 at 8 (2 bytes), block 1 absent, block 2 at 10 (empty).
        let data = [3u8, 1, 0, 8, 0, 0, 0, 10, 0xAA, 0xBB];
        let region = Reader::new(&data);
        let table = BlockTable::parse(&region).unwrap();
        assert_eq!(table.range(0), Some([8, 10]));
        assert_eq!(table.range(1), None);
        assert_eq!(table.range(2), Some([10, 10]));
        assert!(table.content(2).unwrap().is_none());
        let mut block = table.required(0, "test").unwrap();
        assert_eq!(block.u16("x").unwrap(), 0xAABB);
        block.finish().unwrap();
    }

    #[test]
    fn table_rejects_gaps_disorder_and_escapes() {
        // First block not right after the table.
        assert!(BlockTable::parse(&Reader::new(&[1u8, 1, 0, 5, 0, 0])).is_err());
        // Blocks out of slot order.
        assert!(BlockTable::parse(&Reader::new(&[2u8, 1, 0, 7, 0, 6, 0, 0])).is_err());
        // Offset past the end of the structure.
        assert!(BlockTable::parse(&Reader::new(&[1u8, 1, 0, 9])).is_err());
        // Negative offset.
        assert!(BlockTable::parse(&Reader::new(&[1u8, 1, 0xFF, 0xFF])).is_err());
        // No block at all but bytes after the table.
        assert!(BlockTable::parse(&Reader::new(&[0u8, 1, 7])).is_err());
        // An empty table filling its region is fine.
        assert!(BlockTable::parse(&Reader::new(&[0u8, 1])).is_ok());
    }

    #[test]
    fn records_are_bounded() {
        let data = [0u8, 2, 1, 0, 9];
        let mut r = Reader::new(&data);
        let mut record = r.record_u16("record").unwrap();
        assert!(record.bool("flag").unwrap());
        assert!(matches!(
            record.finish(),
            Err(DecodeError::Leftover {
                offset: 3,
                end: 4,
                ..
            })
        ));
        assert!(matches!(
            record.i16("past end"),
            Err(DecodeError::Truncated { .. })
        ));
        assert_eq!(r.u8("after").unwrap(), 9);
        assert!(Reader::new(&[0u8, 5, 1]).record_u16("record").is_err());
        assert!(Reader::new(&[0xFFu8, 0xFF]).record_i16("record").is_err());
    }

    #[test]
    fn string_references() {
        let strings = vec!["a".to_owned()];
        let data = [0u8, 0, 0xFF, 0xFE, 0xFF, 0xFD, 0, 1];
        let mut r = Reader::new(&data).with_strings(&strings);
        assert_eq!(r.string("s").unwrap(), Some("a"));
        assert_eq!(r.string("s").unwrap(), None);
        assert_eq!(r.string("s").unwrap(), Some(""));
        assert!(matches!(
            r.string("s"),
            Err(DecodeError::Invalid { offset: 6, .. })
        ));
    }
}
