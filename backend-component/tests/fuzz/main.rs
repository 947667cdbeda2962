//! Structured fuzzing on stable Rust, as ordinary tests: each harness runs a bounded
//! number of generated cases by default (CI), and as many as `OFGUI_FUZZ_CASES` asks for
//! in a longer run; a failure prints the case's seed for `OFGUI_FUZZ_REPLAY` and its input.
//! See [`driver`] for the environment and docs/testing.md.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

#[path = "../common/corpus_ops.rs"]
mod corpus_ops;
mod decoder;
#[path = "../common/diff.rs"]
mod diff;
mod driver;
#[path = "../common/kinds.rs"]
mod kinds;
mod mutate;
mod reader;
mod regressions;
mod save;

#[test]
fn reader() {
    driver::run("reader", 300, 0x0f61_7265_6164_6572, reader::case);
}

#[test]
fn decoder() {
    driver::run("decoder", 120, 0x0f64_6563_6f64_6572, decoder::case);
}

#[test]
fn save() {
    driver::run("save", 40, 0x0f73_6176_6500_0000, save::case);
}
