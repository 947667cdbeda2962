//! A decoder of FairyGUI's published package descriptor (`<Package>_fui.bytes`), for tests.
//!
//! Publishing a FairyGUI package produces a binary descriptor that the FairyGUI runtimes load:
//! the package's items, where their images sit in the atlases, and the full content of every
//! component (controllers, children, gears, relations, transitions…). To check that our
//! publisher writes what the FairyGUI editor writes, tests decode both descriptors with
//! [`decode`] and compare the results with [`diff`]. Comparing decoded content rather than
//! bytes shows *which* field differs, by a JSON pointer.
//!
//! [`decode`] reads the fields the runtimes read, in their order, including the ones that
//! depend on the format version (2 to 7). Where the runtimes are lenient it is strict: a
//! descriptor decodes only if every block and length-prefixed record is consumed exactly, every
//! code that decides what follows is one the format defines, and every bool is 0 or 1, so a
//! misread can't pass silently. Malformed input yields a [`DecodeError`] naming the byte offset
//! and the structure being read; it never panics.
//!
//! The format is described field by field in `FORMAT.md` beside this crate, and what the
//! editor does beyond the format in `EDITOR.md`. The JSON holds `header`,
//! `stringCount`, `dependencies`, `branches`, `items` (each with its type-specific part and, for
//! components, the decoded component), `sprites`, `hitTest`. String references are resolved
//! to their text (null for the null index, `""` for the empty one), codes with a name appear
//! by name, and floats as the shortest decimal that reads back as the same `f32`. A few fields
//! describe the file's layout rather than its content (`header.segments`,
//! `header.segmentRanges`, `header.segmentIndexPos`, `stringCount`, each `blockTable`); they
//! differ whenever any earlier byte count does, so content comparisons may want to skip them.

#![deny(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic,
    clippy::expect_used,
    clippy::unreachable,
    clippy::todo,
    clippy::unimplemented
)]

mod child;
mod component;
mod diff;
mod error;
mod gear;
mod item;
mod layout;
mod names;
mod package;
mod reader;
mod transition;

pub use diff::diff;
pub use error::DecodeError;

/// Decodes a whole descriptor (compressed or not) into JSON. Fails on anything the format does
/// not allow or that would leave bytes unread.
pub fn decode(bytes: &[u8]) -> Result<serde_json::Value, DecodeError> {
    package::decode_package(bytes)
}
