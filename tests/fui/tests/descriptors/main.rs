//! Tests of the descriptor decoder on the 30 descriptors the FairyGUI editor published for the
//! Unity examples project (`../shared/corpora/fairygui-unity-examples`).

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

/// Every descriptor decodes, with the per-package counts of the format study.
mod corpus;

/// Decoded components agree with the project's XML they were published from.
mod xml;

/// Truncated and corrupted descriptors fail cleanly, and strictness errors say where.
mod robustness;

/// `diff` on decoded packages.
mod diff;

use std::path::{Path, PathBuf};

/// The real corpora: `$OFGUI_CORPORA`, else `../shared/corpora` beside the repository.
pub fn corpora() -> PathBuf {
    std::env::var_os("OFGUI_CORPORA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora"))
}

/// The Unity examples corpus: the editor project and what the editor published from it.
pub fn unity_examples() -> PathBuf {
    let root = corpora().join("fairygui-unity-examples");
    assert!(
        root.join("published").is_dir(),
        "the FairyGUI Unity examples corpus is missing: no {}/published (set OFGUI_CORPORA)",
        root.display()
    );
    root
}

/// The published descriptor of `package`.
pub fn descriptor(package: &str) -> Vec<u8> {
    let path = unity_examples()
        .join("published")
        .join(format!("{package}_fui.bytes"));
    std::fs::read(&path).unwrap_or_else(|error| panic!("read {}: {error}", path.display()))
}

/// Decodes the published descriptor of `package`, failing the test with the decoder's error.
pub fn decoded(package: &str) -> serde_json::Value {
    ofgui_fui::decode(&descriptor(package)).unwrap_or_else(|error| panic!("{package}: {error}"))
}
