//! The project directory as a save would leave it, in memory: the planned writes over the
//! real files, without the planned removals. Verification reads the project through it
//! before anything is written.

use std::collections::{BTreeMap, BTreeSet};
use std::io;

use crate::fs::{DirEntry, ProjectFs};

pub struct Overlay<'a> {
    disk: &'a dyn ProjectFs,
    written: BTreeMap<&'a str, &'a [u8]>,
    removed: BTreeSet<&'a str>,
    /// Directories that exist only because of the writes (and planned new directories).
    added_dirs: BTreeSet<String>,
    removed_dirs: BTreeSet<&'a str>,
}

impl<'a> Overlay<'a> {
    pub fn new(
        disk: &'a dyn ProjectFs,
        written: impl IntoIterator<Item = (&'a str, &'a [u8])>,
        removed: impl IntoIterator<Item = &'a str>,
        created_dirs: impl IntoIterator<Item = &'a str>,
        removed_dirs: impl IntoIterator<Item = &'a str>,
    ) -> Self {
        let written: BTreeMap<&str, &[u8]> = written.into_iter().collect();
        let mut added_dirs: BTreeSet<String> = created_dirs
            .into_iter()
            .flat_map(ancestors_and_self)
            .collect();
        for path in written.keys() {
            added_dirs.extend(parents(path));
        }
        Overlay {
            disk,
            written,
            removed: removed.into_iter().collect(),
            added_dirs,
            removed_dirs: removed_dirs.into_iter().collect(),
        }
    }

    fn gone(&self, path: &str) -> bool {
        self.removed.contains(path)
            || self.removed_dirs.iter().any(|dir| {
                path.strip_prefix(dir)
                    .is_some_and(|rest| rest.starts_with('/'))
            })
    }
}

impl ProjectFs for Overlay<'_> {
    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        if let Some(bytes) = self.written.get(path) {
            return Ok(bytes.to_vec());
        }
        if self.gone(path) {
            return Err(io::Error::from(io::ErrorKind::NotFound));
        }
        self.disk.read(path)
    }

    fn read_dir(&self, path: &str) -> io::Result<Vec<DirEntry>> {
        let dir = path.trim_start_matches("./").trim_end_matches('/');
        let dir = if dir == "." { "" } else { dir };
        let listed = if self.gone(dir) || self.removed_dirs.contains(dir) {
            Err(io::Error::from(io::ErrorKind::NotFound))
        } else {
            self.disk.read_dir(path)
        };
        let mut entries: BTreeMap<String, bool> = match listed {
            Ok(entries) => entries.into_iter().map(|e| (e.name, e.is_dir)).collect(),
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                if !self.added_dirs.contains(dir) && !dir.is_empty() {
                    return Err(error);
                }
                BTreeMap::new()
            }
            Err(error) => return Err(error),
        };
        let child = |full: &str| -> Option<String> {
            let rest = if dir.is_empty() {
                full
            } else {
                full.strip_prefix(dir)?.strip_prefix('/')?
            };
            (!rest.is_empty() && !rest.contains('/')).then(|| rest.to_string())
        };
        entries.retain(|name, _| {
            let full = if dir.is_empty() {
                name.clone()
            } else {
                format!("{dir}/{name}")
            };
            !self.gone(&full) && !self.removed_dirs.contains(full.as_str())
        });
        for path in self.written.keys() {
            if let Some(name) = child(path) {
                entries.insert(name, false);
            }
        }
        for added in &self.added_dirs {
            if let Some(name) = child(added) {
                entries.insert(name, true);
            }
        }
        Ok(entries
            .into_iter()
            .map(|(name, is_dir)| DirEntry { name, is_dir })
            .collect())
    }
}

/// `a/b/c.xml` → `a`, `a/b`.
fn parents(path: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(slash) = path[at..].find('/') {
        found.push(path[..at + slash].to_string());
        at += slash + 1;
    }
    found
}

fn ancestors_and_self(dir: &str) -> Vec<String> {
    let mut found = parents(dir);
    found.push(dir.to_string());
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixed(BTreeMap<&'static str, &'static [u8]>);

    impl ProjectFs for Fixed {
        fn read(&self, path: &str) -> io::Result<Vec<u8>> {
            self.0
                .get(path)
                .map(|b| b.to_vec())
                .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))
        }
        fn read_dir(&self, path: &str) -> io::Result<Vec<DirEntry>> {
            let dir = if path == "." { "" } else { path };
            let mut names = BTreeMap::new();
            for file in self.0.keys() {
                let rest = if dir.is_empty() {
                    Some(*file)
                } else {
                    file.strip_prefix(dir).and_then(|r| r.strip_prefix('/'))
                };
                if let Some(rest) = rest {
                    match rest.split_once('/') {
                        Some((name, _)) => names.insert(name.to_string(), true),
                        None => names.insert(rest.to_string(), false),
                    };
                }
            }
            if names.is_empty() {
                return Err(io::Error::from(io::ErrorKind::NotFound));
            }
            Ok(names
                .into_iter()
                .map(|(name, is_dir)| DirEntry { name, is_dir })
                .collect())
        }
    }

    #[test]
    fn writes_show_removals_hide_and_new_directories_appear() {
        let disk = Fixed(BTreeMap::from([
            ("P.fairy", &b"p"[..]),
            ("assets/A/package.xml", &b"a"[..]),
            ("assets/A/x.xml", &b"x"[..]),
            ("assets/Old/package.xml", &b"o"[..]),
        ]));
        let overlay = Overlay::new(
            &disk,
            [
                ("assets/A/x.xml", &b"X"[..]),
                ("assets/B/package.xml", &b"b"[..]),
            ],
            ["assets/A/package.xml"],
            ["assets/A/empty"],
            ["assets/Old"],
        );
        assert_eq!(overlay.read("assets/A/x.xml").unwrap(), b"X");
        assert!(overlay.read("assets/A/package.xml").is_err());
        assert!(overlay.read("assets/Old/package.xml").is_err());
        let names = |dir| -> Vec<(String, bool)> {
            overlay
                .read_dir(dir)
                .unwrap()
                .into_iter()
                .map(|e| (e.name, e.is_dir))
                .collect()
        };
        assert_eq!(
            names("assets"),
            [("A".to_string(), true), ("B".to_string(), true)]
        );
        assert_eq!(
            names("assets/A"),
            [("empty".to_string(), true), ("x.xml".to_string(), false)]
        );
        assert!(names("assets/A/empty").is_empty());
        assert!(overlay.read_dir("assets/Old").is_err());
        assert_eq!(
            names("."),
            [("P.fairy".into(), false), ("assets".into(), true)]
        );
    }
}
