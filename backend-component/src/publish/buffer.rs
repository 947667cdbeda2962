//! The descriptor's byte-level writing: a big-endian buffer, the string table, position
//! tables and length-prefixed records (FORMAT.md §2, §3.1).
//!
//! Strings are referenced by a `u16` index into one table per descriptor. Identifiers and
//! other fixed strings are deduplicated; translatable text gets a fresh entry at every
//! occurrence, because the runtimes translate a package by overwriting entries in place
//! (one entry shared by two texts would translate both alike). Every buffer of a
//! descriptor is built in file order against the same [`Strings`], so the table comes out
//! in the order of first reference, as the editor writes it.

use std::collections::HashMap;

use super::PublishError;

/// The index the runtimes read as `null`.
pub const NULL_STRING: u16 = 0xFFFE;
/// The index the runtimes read as the empty string.
pub const EMPTY_STRING: u16 = 0xFFFD;
/// Entries a table may hold: every index below the two reserved ones.
const MAX_ENTRIES: usize = EMPTY_STRING as usize;

/// The string table of one descriptor.
#[derive(Debug, Default)]
pub struct Strings {
    entries: Vec<String>,
    /// Deduplicated entries by text; translatable entries are never in here.
    shared: HashMap<String, u16>,
}

impl Strings {
    /// The index of an identifier or other non-translatable string: one entry per distinct
    /// text; `""` is the reserved empty index.
    pub fn shared(&mut self, text: &str) -> Result<u16, PublishError> {
        if text.is_empty() {
            return Ok(EMPTY_STRING);
        }
        if let Some(&index) = self.shared.get(text) {
            return Ok(index);
        }
        let index = self.push(text)?;
        self.shared.insert(text.to_owned(), index);
        Ok(index)
    }

    /// The index of a translatable text: a fresh entry each time; empty text is `null`
    /// (what the editor writes, EDITOR.md).
    pub fn text(&mut self, text: &str) -> Result<u16, PublishError> {
        if text.is_empty() {
            return Ok(NULL_STRING);
        }
        self.push(text)
    }

    fn push(&mut self, text: &str) -> Result<u16, PublishError> {
        let index = u16::try_from(self.entries.len())
            .ok()
            .filter(|&i| usize::from(i) < MAX_ENTRIES)
            .ok_or(PublishError::TooMany {
                what: "string table entries",
                limit: MAX_ENTRIES,
            })?;
        self.entries.push(text.to_owned());
        Ok(index)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Segment 4 (`i32 count`, then each entry as a `u16`-length string) and, when some
    /// entry is longer than a `u16` length holds, segment 5 with those entries (their slot
    /// in segment 4 is then empty).
    pub fn segments(&self) -> Result<(Buf, Option<Buf>), PublishError> {
        let mut table = Buf::default();
        table.i32_of(self.entries.len(), "string table entries")?;
        let mut long = Vec::new();
        for (index, entry) in self.entries.iter().enumerate() {
            if u16::try_from(entry.len()).is_ok() {
                table.raw_str(entry)?;
            } else {
                table.raw_str("")?;
                long.push((index, entry));
            }
        }
        if long.is_empty() {
            return Ok((table, None));
        }
        let mut segment = Buf::default();
        segment.i32_of(long.len(), "long strings")?;
        for (index, entry) in long {
            segment.u16(u16::try_from(index).map_err(|_| PublishError::TooMany {
                what: "string table entries",
                limit: MAX_ENTRIES,
            })?);
            segment.i32_of(entry.len(), "bytes in one string")?;
            segment.bytes(entry.as_bytes());
        }
        Ok((table, Some(segment)))
    }
}

/// A growing big-endian byte buffer.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Buf {
    bytes: Vec<u8>,
}

impl Buf {
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    pub fn bytes(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    pub fn u8(&mut self, value: u8) {
        self.bytes.push(value);
    }

    pub fn bool(&mut self, value: bool) {
        self.u8(u8::from(value));
    }

    pub fn i16(&mut self, value: i16) {
        self.bytes(&value.to_be_bytes());
    }

    pub fn u16(&mut self, value: u16) {
        self.bytes(&value.to_be_bytes());
    }

    pub fn i32(&mut self, value: i32) {
        self.bytes(&value.to_be_bytes());
    }

    pub fn f32(&mut self, value: f32) {
        self.bytes(&value.to_be_bytes());
    }

    /// A count or length written as `i16`; refused past `i16::MAX`.
    pub fn i16_of(&mut self, value: usize, what: &'static str) -> Result<(), PublishError> {
        let value = i16::try_from(value).map_err(|_| PublishError::TooMany {
            what,
            limit: i16::MAX as usize,
        })?;
        self.i16(value);
        Ok(())
    }

    /// A count or length written as `u8`.
    pub fn u8_of(&mut self, value: usize, what: &'static str) -> Result<(), PublishError> {
        let value = u8::try_from(value).map_err(|_| PublishError::TooMany {
            what,
            limit: u8::MAX as usize,
        })?;
        self.u8(value);
        Ok(())
    }

    /// A count or length written as `i32`.
    pub fn i32_of(&mut self, value: usize, what: &'static str) -> Result<(), PublishError> {
        let value = i32::try_from(value).map_err(|_| PublishError::TooMany {
            what,
            limit: i32::MAX as usize,
        })?;
        self.i32(value);
        Ok(())
    }

    /// An index written as `i16`, `-1` for none.
    pub fn index(&mut self, index: Option<usize>, what: &'static str) -> Result<(), PublishError> {
        match index {
            Some(index) => self.i16_of(index, what),
            None => {
                self.i16(-1);
                Ok(())
            }
        }
    }

    /// A string inline: `u16` byte length and UTF-8 bytes (header and string table only).
    pub fn raw_str(&mut self, text: &str) -> Result<(), PublishError> {
        let len = u16::try_from(text.len()).map_err(|_| PublishError::TooMany {
            what: "bytes in an inline string",
            limit: u16::MAX as usize,
        })?;
        self.u16(len);
        self.bytes(text.as_bytes());
        Ok(())
    }

    /// An identifier or other fixed string, deduplicated; `""` is the empty string.
    pub fn id(&mut self, strings: &mut Strings, text: &str) -> Result<(), PublishError> {
        let index = strings.shared(text)?;
        self.u16(index);
        Ok(())
    }

    /// An optional fixed string: `""` (the model's "not set") is `null`.
    pub fn opt(&mut self, strings: &mut Strings, text: &str) -> Result<(), PublishError> {
        if text.is_empty() {
            self.null();
            Ok(())
        } else {
            self.id(strings, text)
        }
    }

    /// A translatable text: its own entry; `""` is `null`.
    pub fn text(&mut self, strings: &mut Strings, text: &str) -> Result<(), PublishError> {
        let index = strings.text(text)?;
        self.u16(index);
        Ok(())
    }

    pub fn null(&mut self) {
        self.u16(NULL_STRING);
    }

    /// `record` prefixed by its length as `u16`.
    pub fn record_u16(&mut self, record: &Buf, what: &'static str) -> Result<(), PublishError> {
        let len = u16::try_from(record.len()).map_err(|_| PublishError::TooLong { what })?;
        self.u16(len);
        self.bytes(record.as_bytes());
        Ok(())
    }

    /// `record` prefixed by its length as (signed) `i16`.
    pub fn record_i16(&mut self, record: &Buf, what: &'static str) -> Result<(), PublishError> {
        let len = i16::try_from(record.len()).map_err(|_| PublishError::TooLong { what })?;
        self.i16(len);
        self.bytes(record.as_bytes());
        Ok(())
    }

    /// `record` prefixed by its length as `i32`.
    pub fn record_i32(&mut self, record: &Buf, what: &'static str) -> Result<(), PublishError> {
        let len = i32::try_from(record.len()).map_err(|_| PublishError::TooLong { what })?;
        self.i32(len);
        self.bytes(record.as_bytes());
        Ok(())
    }
}

/// How wide a position table's offsets are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offsets {
    /// `i16` offsets (children, controllers, transition items).
    Short,
    /// `i32` offsets (segment index, component, movie-clip and font buffers).
    Long,
}

/// A position table followed by its blocks: `u8 count`, `u8 useShort`, one offset per slot
/// (relative to the table's first byte; 0 = absent), then the present blocks in slot order.
/// `None` is an absent block, an empty [`Buf`] a present but empty one (its offset is where
/// the next block starts, or the end).
pub fn with_blocks(
    width: Offsets,
    blocks: Vec<Option<Buf>>,
    what: &'static str,
) -> Result<Buf, PublishError> {
    let slot = match width {
        Offsets::Short => 2,
        Offsets::Long => 4,
    };
    let mut out = Buf::default();
    out.u8_of(blocks.len(), "blocks in a position table")?;
    out.bool(width == Offsets::Short);
    let mut at = blocks
        .len()
        .checked_mul(slot)
        .and_then(|n| n.checked_add(2))
        .ok_or(PublishError::TooLong { what })?;
    for block in &blocks {
        let offset = match block {
            Some(block) => {
                let offset = at;
                at = at
                    .checked_add(block.len())
                    .ok_or(PublishError::TooLong { what })?;
                offset
            }
            None => 0,
        };
        match width {
            Offsets::Short => {
                out.i16(i16::try_from(offset).map_err(|_| PublishError::TooLong { what })?)
            }
            Offsets::Long => {
                out.i32(i32::try_from(offset).map_err(|_| PublishError::TooLong { what })?)
            }
        }
    }
    for block in blocks.into_iter().flatten() {
        out.bytes(block.as_bytes());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_shared_and_texts_are_not() {
        let mut strings = Strings::default();
        assert_eq!(strings.shared("n1").unwrap(), 0);
        assert_eq!(strings.shared("n2").unwrap(), 1);
        assert_eq!(strings.shared("n1").unwrap(), 0);
        assert_eq!(strings.text("Item 1").unwrap(), 2);
        assert_eq!(strings.text("Item 1").unwrap(), 3);
        // A text never becomes the shared entry of an identifier with the same letters.
        assert_eq!(strings.shared("Item 1").unwrap(), 4);
        assert_eq!(strings.shared("Item 1").unwrap(), 4);
        assert_eq!(strings.len(), 5);
        // Empty: the reserved empty index for identifiers, null for text.
        assert_eq!(strings.shared("").unwrap(), EMPTY_STRING);
        assert_eq!(strings.text("").unwrap(), NULL_STRING);
        assert_eq!(strings.len(), 5);
    }

    #[test]
    fn the_table_is_in_first_use_order() {
        let mut strings = Strings::default();
        let mut buf = Buf::default();
        buf.id(&mut strings, "b").unwrap();
        buf.text(&mut strings, "a").unwrap();
        buf.opt(&mut strings, "").unwrap();
        buf.id(&mut strings, "b").unwrap();
        assert_eq!(buf.as_bytes(), [0, 0, 0, 1, 0xFF, 0xFE, 0, 0]);
        let (table, long) = strings.segments().unwrap();
        assert!(long.is_none());
        assert_eq!(table.as_bytes(), [0, 0, 0, 2, 0, 1, b'b', 0, 1, b'a']);
    }

    #[test]
    fn strings_past_a_u16_length_go_to_the_long_segment() {
        let mut strings = Strings::default();
        strings.shared("x").unwrap();
        let long = "y".repeat(70_000);
        strings.shared(&long).unwrap();
        let (table, segment) = strings.segments().unwrap();
        assert_eq!(table.as_bytes(), [0, 0, 0, 2, 0, 1, b'x', 0, 0]);
        let segment = segment.expect("a long string segment");
        assert_eq!(
            &segment.as_bytes()[..10],
            [0, 0, 0, 1, 0, 1, 0, 1, 0x11, 0x70]
        );
        assert_eq!(segment.len(), 10 + 70_000);
    }

    #[test]
    fn a_full_table_is_refused() {
        let mut strings = Strings::default();
        for i in 0..MAX_ENTRIES {
            strings.text(&i.to_string()).unwrap();
        }
        assert!(matches!(
            strings.text("one more"),
            Err(PublishError::TooMany { .. })
        ));
        assert!(strings.shared("0").is_err());
    }

    #[test]
    fn position_tables_point_at_their_blocks() {
        let mut a = Buf::default();
        a.u8(7);
        let mut c = Buf::default();
        c.i16(-2);
        let table = with_blocks(
            Offsets::Short,
            vec![Some(a), None, Some(c), Some(Buf::default())],
            "test",
        )
        .unwrap();
        // count 4, short, offsets 10, 0, 11, 13 (the empty block points at the end).
        assert_eq!(
            table.as_bytes(),
            [4, 1, 0, 10, 0, 0, 0, 11, 0, 13, 7, 0xFF, 0xFE]
        );
        let long = with_blocks(Offsets::Long, vec![None, Some(Buf::default())], "test").unwrap();
        assert_eq!(long.as_bytes(), [2, 0, 0, 0, 0, 0, 0, 0, 0, 10]);
    }

    #[test]
    fn records_carry_their_length_and_refuse_overflow() {
        let mut record = Buf::default();
        record.i32(1);
        let mut out = Buf::default();
        out.record_u16(&record, "test").unwrap();
        out.record_i16(&record, "test").unwrap();
        out.record_i32(&record, "test").unwrap();
        assert_eq!(
            out.as_bytes(),
            [0, 4, 0, 0, 0, 1, 0, 4, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 1]
        );
        let mut big = Buf::default();
        big.bytes(&vec![0; 40_000]);
        assert!(out.record_i16(&big, "child").is_err());
        assert!(out.record_u16(&big, "gear").is_ok());
        assert!(out.i16_of(40_000, "children").is_err());
        assert!(out.u8_of(256, "targets").is_err());
    }
}
