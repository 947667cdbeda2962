//! Writing the model back: each file whose part of the model changed is patched from the
//! bytes it was read from, so a save changes only what was edited.
//!
//! [`package`] writes `package.xml` and `package_branch.xml`, [`project`] the `.fairy`
//! file and [`settings`] the `settings/*.json` files, each from [`element`]s (or JSON)
//! in the editor's canonical form through [`patch`] (or [`crate::source::json`]).

pub mod component;
pub mod element;
pub mod lexical;
pub mod package;
pub mod patch;
pub mod project;
pub mod settings;
