//! The session's source documents as the base of every save: what was read stays the
//! base, and a save changes only what the model changed in it.

pub mod json;
pub mod xml;
