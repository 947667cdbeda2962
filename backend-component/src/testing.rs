//! Where the real corpora live, for this crate's tests and benchmarks.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Error, ErrorKind};
use std::path::{Path, PathBuf};

use crate::fs::{DirEntry, ProjectFs};

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

/// An in-memory project for tests: files by project-relative path, some marked
/// unreadable. Reading needs no disk, so fuzzing the reader costs no file I/O.
#[derive(Default, Clone, Debug)]
pub struct MemFs {
    pub files: BTreeMap<String, Vec<u8>>,
    pub denied: BTreeSet<String>,
}

impl MemFs {
    pub fn with(mut self, path: &str, content: impl AsRef<[u8]>) -> Self {
        self.files
            .insert(path.to_owned(), content.as_ref().to_vec());
        self
    }

    pub fn deny(mut self, path: &str) -> Self {
        self.denied.insert(path.to_owned());
        self
    }

    /// Every file under `root` on disk, by project-relative path with `/`.
    pub fn load(root: &Path) -> std::io::Result<MemFs> {
        let mut fs = MemFs::default();
        let mut pending = vec![root.to_path_buf()];
        while let Some(dir) = pending.pop() {
            for entry in std::fs::read_dir(dir)? {
                let entry = entry?;
                if entry.file_type()?.is_dir() {
                    pending.push(entry.path());
                } else {
                    let relative = entry.path();
                    let relative = relative.strip_prefix(root).unwrap_or(&relative);
                    let key = relative.to_string_lossy().replace('\\', "/");
                    fs.files.insert(key, std::fs::read(entry.path())?);
                }
            }
        }
        Ok(fs)
    }
}

fn clean(path: &str) -> &str {
    let path = path.trim_start_matches("./");
    if path == "." { "" } else { path }
}

impl ProjectFs for MemFs {
    fn read(&self, path: &str) -> std::io::Result<Vec<u8>> {
        let path = clean(path);
        if self.denied.contains(path) {
            return Err(Error::new(ErrorKind::PermissionDenied, "denied"));
        }
        self.files
            .get(path)
            .cloned()
            .ok_or_else(|| Error::new(ErrorKind::NotFound, "no such file"))
    }

    fn read_dir(&self, path: &str) -> std::io::Result<Vec<DirEntry>> {
        let path = clean(path);
        if self.denied.contains(path) {
            return Err(Error::new(ErrorKind::PermissionDenied, "denied"));
        }
        let prefix = if path.is_empty() {
            String::new()
        } else {
            format!("{path}/")
        };
        let mut entries: BTreeMap<String, bool> = BTreeMap::new();
        for key in self.files.keys() {
            if let Some(rest) = key.strip_prefix(&prefix) {
                match rest.split_once('/') {
                    Some((dir, _)) => entries.insert(dir.to_owned(), true),
                    None => entries.insert(rest.to_owned(), false),
                };
            }
        }
        if entries.is_empty() && !path.is_empty() {
            return Err(Error::new(ErrorKind::NotFound, "no such directory"));
        }
        Ok(entries
            .into_iter()
            .map(|(name, is_dir)| DirEntry { name, is_dir })
            .collect())
    }
}

/// The first place in `message` where "a" stands before a word said with a vowel sound
/// ("a image", "a xy gear", "a unknown"): messages name kinds through
/// [`crate::rules::with_article`], and this catches the ones that do not.
pub fn misarticled(message: &str) -> Option<String> {
    let words: Vec<&str> = message.split_whitespace().collect();
    (0..words.len().saturating_sub(1)).find_map(|i| {
        let article = words[i].trim_start_matches(|c: char| !c.is_alphanumeric());
        // A capital "A" is an article only where a sentence starts; elsewhere it is a
        // name (component A).
        let starts = i == 0 || words[i - 1].ends_with(['.', ':', ';']);
        let is_article = article == "a" || (article == "A" && starts);
        let next = words[i + 1]
            .trim_start_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        // "un" reads as a vowel (unknown, unsafe), "uni" does not (unique, unit).
        let vowel = next.starts_with(['a', 'e', 'i', 'o'])
            || next.starts_with("xy")
            || (next.starts_with("un") && !next.starts_with("uni"));
        (is_article && vowel).then(|| format!("{} {}", words[i], words[i + 1]))
    })
}

/// The first word said twice in a row ("No No resource"), or punctuation doubled where a
/// sentence ends ("exists.."), in `message`: what a message pieced together from another
/// message's words shows. An ellipsis (`...`, `…`) is not doubled punctuation.
pub fn stuttered(message: &str) -> Option<String> {
    let words: Vec<&str> = message.split_whitespace().collect();
    let bare = |w: &str| {
        w.trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase()
    };
    for pair in words.windows(2) {
        let (a, b) = (bare(pair[0]), bare(pair[1]));
        // Only plain words: `0 0` or `n1 n1` may be values shown side by side.
        let plain = a.chars().all(char::is_alphabetic) && a.len() > 1;
        // A word ending a clause may start the next ("…, that that").
        let joined = !pair[0].ends_with([',', ';', ':', '.', ')']);
        if plain && a == b && joined {
            return Some(format!("{} {}", pair[0], pair[1]));
        }
    }
    // A word ending in two stops ("exists..", "x.;"), not a quoted value, path or ellipsis.
    words.iter().find_map(|word| {
        if word.contains(['\'', '"', '/', '\\']) || word.ends_with("...") {
            return None;
        }
        let stops = |c: char| matches!(c, '.' | ';' | ',' | ':');
        let tail: Vec<char> = word.chars().rev().take(3).collect();
        let doubled =
            tail.len() == 3 && stops(tail[0]) && stops(tail[1]) && tail[2].is_alphanumeric();
        doubled.then(|| (*word).to_string())
    })
}

/// Panics on the first message with a misplaced article ([`misarticled`]) or a stutter
/// ([`stuttered`]).
pub fn assert_articles<'m>(messages: impl IntoIterator<Item = &'m str>) {
    for message in messages {
        if let Some(phrase) = misarticled(message).or_else(|| stuttered(message)) {
            panic!("{phrase:?} in message: {message}");
        }
    }
}

/// A refused batch, after checking the wording of its message and every issue's.
pub fn well_worded(failure: crate::txn::Failure) -> crate::txn::Failure {
    assert_articles(
        std::iter::once(failure.message.as_str())
            .chain(failure.issues.iter().map(|issue| issue.message.as_str())),
    );
    failure
}

#[cfg(test)]
mod tests {
    use super::misarticled;

    #[test]
    fn stutters_are_found() {
        use super::stuttered;
        assert_eq!(
            stuttered("No No resource with id x exists.. Take it").as_deref(),
            Some("No No")
        );
        assert_eq!(
            stuttered("No resource exists.. Take it").as_deref(),
            Some("exists..")
        );
        assert!(stuttered("not '.' or '..', no / \\ :, and \"../k3\" or /a/../b/").is_none());
        assert!(stuttered("Sizes 0 0 and n1 n1 are values; wait... or … fine: a::b").is_none());
        assert!(stuttered("It is what it is, is it?").is_none());
    }

    #[test]
    fn misplaced_articles_are_found() {
        assert_eq!(
            misarticled("Node n1 is a image node.").as_deref(),
            Some("a image")
        );
        assert!(misarticled("Node n1 already has a xy gear.").is_some());
        assert!(misarticled("A animation gear of node n1").is_some());
        assert!(misarticled("which is a unknown kind").is_some());
        assert!(misarticled("Node n1 is an image node; a text node and a unique id.").is_none());
        assert!(misarticled("an xy gear, a component, a sound").is_none());
        assert!(misarticled("After the batch: A xy gear").is_some());
        assert!(misarticled("Component A instantiates component B").is_none());
    }
}
