//! Git LFS pointers: the small text file a repository holds in place of a large file
//! until `git lfs pull` fetches the content. A project cloned without Git LFS has one
//! where each image, sound, font or data file should be, so every kind is checked for it
//! before its own format (a pointer is never a valid PNG, WAV or XML file anyway).
//!
//! Layout (git-lfs spec v1): UTF-8 `key value` lines, the first `version
//! https://git-lfs.github.com/spec/v1` (or the pre-release `https://hawser.github.com/spec/v1`),
//! then `oid sha256:<64 hex>` and `size <bytes>`; the whole file is under 1024 bytes.

/// Pointers are never larger (the spec's own limit).
const MAX_POINTER_BYTES: usize = 1024;
const VERSIONS: [&str; 2] = [
    "version https://git-lfs.github.com/spec/v1",
    "version https://hawser.github.com/spec/v1",
];

/// What a pointer says about the content it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pointer {
    /// `sha256:…` as written.
    pub oid: Option<String>,
    /// The size of the content, in bytes.
    pub size: Option<u64>,
}

/// The pointer these bytes are, if they are one.
pub fn pointer(bytes: &[u8]) -> Option<Pointer> {
    if bytes.len() > MAX_POINTER_BYTES {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let mut lines = text.lines();
    let first = lines.next()?.trim_end();
    if !VERSIONS.contains(&first) {
        return None;
    }
    let mut found = Pointer {
        oid: None,
        size: None,
    };
    for line in lines {
        match line.split_once(' ') {
            Some(("oid", oid)) => found.oid = Some(oid.trim().to_string()),
            Some(("size", size)) => found.size = size.trim().parse().ok(),
            _ => {}
        }
    }
    Some(found)
}

/// The finding for a pointer: what it is, and the command that fetches the content.
pub fn describe(pointer: &Pointer) -> String {
    let mut stands_for = String::new();
    if let Some(oid) = &pointer.oid {
        let short: String = oid.chars().take(19).collect();
        stands_for.push_str(&format!(" for object {short}…"));
    }
    if let Some(size) = pointer.size {
        stands_for.push_str(&format!(" ({size} bytes)"));
    }
    format!(
        "The file is a Git LFS pointer{stands_for}, not its content: the content was never fetched. Run `git lfs pull` in the project's repository"
    )
}

/// [`describe`] for bytes that are a pointer.
pub fn message(bytes: &[u8]) -> Option<String> {
    pointer(bytes).map(|p| describe(&p))
}

/// [`message`] to follow a colon inside a sentence: "…: the file is a Git LFS pointer…".
pub fn clause(bytes: &[u8]) -> Option<String> {
    message(bytes).map(|text| text.replacen("The file", "the file", 1))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) const POINTER: &str = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n";

    #[test]
    fn pointers_are_recognised_with_what_they_stand_for() {
        let found = pointer(POINTER.as_bytes()).expect("a pointer");
        assert_eq!(found.size, Some(12345));
        assert!(found.oid.as_deref().unwrap().starts_with("sha256:4d7a"));
        let text = describe(&found);
        assert!(text.contains("Git LFS pointer for object sha256:4d7a214614ab…"));
        assert!(text.contains("(12345 bytes)"));
        assert!(text.contains("`git lfs pull`"));
        // CRLF checkouts and the pre-release spec URL.
        assert!(pointer(POINTER.replace('\n', "\r\n").as_bytes()).is_some());
        let hawser = POINTER.replace("git-lfs.github.com", "hawser.github.com");
        assert!(pointer(hawser.as_bytes()).is_some());
    }

    #[test]
    fn other_files_are_not_pointers() {
        assert_eq!(pointer(b""), None);
        assert_eq!(pointer(b"version 1.0\n"), None);
        assert_eq!(pointer(b"\x89PNG\r\n\x1a\n"), None);
        let mut long = POINTER.to_string();
        long.push_str(&"x".repeat(1024));
        assert_eq!(pointer(long.as_bytes()), None);
    }
}
