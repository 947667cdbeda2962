//! Writing the model back: each file whose part of the model changed is patched from the
//! bytes it was read from, so a save changes only what was edited.
//!
//! [`plan`] decides what a save writes, removes and creates; [`component`] writes
//! component XML, [`package`] `package.xml` and `package_branch.xml`, [`project`] the
//! `.fairy` file and [`settings`] the `settings/*.json` files, each from [`element`]s (or
//! JSON) in the editor's canonical form through [`patch`] (or [`crate::source::json`]).
//! [`overlay`] shows the project as a plan would leave it, for reading it back first.

pub mod component;
pub mod element;
pub mod lexical;
pub mod overlay;
pub mod package;
pub mod patch;
pub mod plan;
pub mod project;
pub mod settings;
