//! Component previews: draws a component from the session's model and bytes into a PNG,
//! inside the component, with no browser.

pub mod color;
