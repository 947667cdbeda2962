//! The one error type of the decoder, and the helper that says where an error happened.
//!
//! Errors are made at the innermost read, knowing only the byte offset and the field; each
//! enclosing structure then prefixes its own name, so the final message reads like a path
//! ("items > item 5 > component dwwc3 > children > child 2 > block 5: …").

/// Why a descriptor could not be decoded. Every variant except [`DecodeError::NotFgui`]
/// carries the byte offset (in the file, or in header + inflated data for a compressed
/// descriptor) and the structure being read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The file does not start with the `FGUI` magic (older, pre-binary descriptors don't).
    #[error(
        "not a binary FairyGUI descriptor: magic at byte 0 is {found:#010x}, not 0x46475549 (\"FGUI\")"
    )]
    NotFgui { found: u32 },

    /// A read needed more bytes than its structure (or the file) has left.
    #[error(
        "{context}: truncated at byte {offset} reading {reading}: needs {needed} byte(s), {available} left"
    )]
    Truncated {
        offset: usize,
        context: String,
        reading: &'static str,
        needed: usize,
        available: usize,
    },

    /// A block or length-prefixed record holds bytes its reader did not consume.
    #[error("{context}: {unread} byte(s) left unread at {offset}..{end}")]
    Leftover {
        offset: usize,
        end: usize,
        unread: usize,
        context: String,
    },

    /// A code that decides what follows (item type, object type, gear type…) has a value
    /// the format does not define, so the rest cannot be read.
    #[error("{context}: unknown {reading} {code} at byte {offset}")]
    UnknownCode {
        offset: usize,
        context: String,
        reading: &'static str,
        code: i64,
    },

    /// A value that cannot be right: a bool other than 0/1, a negative count or length, a
    /// string index past the table, invalid UTF-8, a position table pointing outside its
    /// record, content in a block the structure does not have.
    #[error("{context}: invalid {reading} at byte {offset}: {problem}")]
    Invalid {
        offset: usize,
        context: String,
        reading: &'static str,
        problem: String,
    },

    /// A block the structure needs is absent from its position table (or empty).
    #[error(
        "{context}: block {slot} ({reading}) is absent or empty in the position table at byte {offset}"
    )]
    MissingBlock {
        offset: usize,
        context: String,
        slot: usize,
        reading: &'static str,
    },

    /// The DEFLATE stream of a compressed descriptor is broken.
    #[error("compressed data starting at byte {offset}: {problem}")]
    Inflate { offset: usize, problem: String },
}

impl DecodeError {
    /// The byte offset the error refers to (0 for a bad magic).
    pub fn offset(&self) -> usize {
        match self {
            DecodeError::NotFgui { .. } => 0,
            DecodeError::Truncated { offset, .. }
            | DecodeError::Leftover { offset, .. }
            | DecodeError::UnknownCode { offset, .. }
            | DecodeError::Invalid { offset, .. }
            | DecodeError::MissingBlock { offset, .. }
            | DecodeError::Inflate { offset, .. } => *offset,
        }
    }

    fn context_mut(&mut self) -> Option<&mut String> {
        match self {
            DecodeError::NotFgui { .. } | DecodeError::Inflate { .. } => None,
            DecodeError::Truncated { context, .. }
            | DecodeError::Leftover { context, .. }
            | DecodeError::UnknownCode { context, .. }
            | DecodeError::Invalid { context, .. }
            | DecodeError::MissingBlock { context, .. } => Some(context),
        }
    }

    /// Prefixes the name of an enclosing structure to the error's context.
    pub(crate) fn within(mut self, outer: &str) -> Self {
        if let Some(context) = self.context_mut() {
            *context = if context.is_empty() {
                outer.to_owned()
            } else {
                format!("{outer} > {context}")
            };
        }
        self
    }
}

pub(crate) type Result<T> = std::result::Result<T, DecodeError>;

/// Adds context to an error on its way out; the label is only built when there is an error.
pub(crate) trait Within<T> {
    fn within<L: AsRef<str>>(self, label: impl FnOnce() -> L) -> Result<T>;
}

impl<T> Within<T> for Result<T> {
    fn within<L: AsRef<str>>(self, label: impl FnOnce() -> L) -> Result<T> {
        self.map_err(|error| error.within(label().as_ref()))
    }
}
