//! Value rules: what a FairyGUI project may hold, in one place for the reader (which
//! reports a value it reads against them), transactions (which refuse a value that breaks
//! them) and validation (which reports a model that breaks them), so the three cannot
//! disagree. Each rule is a plain predicate or table; the rooms phrase their own messages.
//!
//! [`values`] holds colours, number ranges and enumerations; [`enums`] the XML names of
//! enumerations; [`names`] file, folder and id rules; [`settings`] the typed fields and
//! references of the project settings; [`publish`] the rules of a package's settings;
//! [`gears`] which gears fit which nodes and the defaults of a value gear; [`assets`] the
//! blocks of bare asset elements.

pub mod assets;
pub mod enums;
pub mod gears;
pub mod names;
pub mod publish;
pub mod settings;
pub mod values;

pub use names::*;
pub use values::*;
