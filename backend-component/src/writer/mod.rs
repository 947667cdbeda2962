//! Writing the model back: each file whose part of the model changed is patched from the
//! bytes it was read from, so a save changes only what was edited.

pub mod element;
pub mod lexical;
pub mod package;
pub mod patch;
pub mod project;
