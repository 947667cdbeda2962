//! Where the real corpora live, for this crate's tests and benchmarks.

use std::path::PathBuf;

/// `$OFGUI_CORPORA`, else `../shared/corpora` beside the repository.
pub fn corpora() -> PathBuf {
    std::env::var_os("OFGUI_CORPORA")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpora"))
        })
}

/// The 30-package FairyGUI Unity examples project.
pub fn unity_root() -> PathBuf {
    corpora().join("fairygui-unity-examples/UIProject")
}

/// The small project with branches and 3-D loaders.
pub fn experiments_root() -> PathBuf {
    corpora().join("openfairygui-experiments/FairyGUI-Experiments")
}

/// Copies a directory tree: the corpora are read-only, so tests that change a project
/// work on a copy.
pub fn copy_tree(from: &std::path::Path, to: &std::path::Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}
