//! The project on disk as tests compare it.

use std::collections::BTreeMap;
use std::path::Path;

/// Every file under `root` with its bytes, by project-relative path with `/`.
pub fn snapshot(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                pending.push(entry.path());
            } else {
                let relative = entry.path().strip_prefix(root).unwrap().to_owned();
                let key = relative.to_string_lossy().replace('\\', "/");
                files.insert(key, std::fs::read(entry.path()).unwrap());
            }
        }
    }
    files
}
