//! File, folder and id rules: the names a project may give its files, directories and
//! entities so that it stays loadable on every platform the editor runs on.

/// Windows reserved device names, refused as path segments everywhere.
const RESERVED: [&str; 22] = [
    "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
    "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];

/// A path segment that is safe on every platform the editor runs on.
pub fn is_safe_segment(segment: &str) -> bool {
    let stem = segment
        .split('.')
        .next()
        .unwrap_or(segment)
        .to_ascii_lowercase();
    !segment.is_empty()
        && segment != "."
        && segment != ".."
        && !segment.contains(['/', '\\', ':'])
        && segment.trim() == segment
        && !segment.ends_with('.')
        && !segment.chars().any(char::is_control)
        && !RESERVED.contains(&stem.as_str())
}

/// A canonical folder path: `/` (the package root), or `/a/b/` with safe segments.
pub fn is_canonical_folder(path: &str) -> bool {
    path == "/"
        || (path.len() > 2
            && path.starts_with('/')
            && path.ends_with('/')
            && path[1..path.len() - 1].split('/').all(is_safe_segment))
}

/// The parent of a canonical folder path (`/a/b/` → `/a/`, `/a/` → `/`).
pub fn parent_folder(path: &str) -> &str {
    let trimmed = &path[..path.len().saturating_sub(1)];
    match trimmed.rfind('/') {
        Some(index) => &path[..=index],
        None => "/",
    }
}

/// A package or resource id usable in `ui://` URLs and the CSV lists of `package.xml`:
/// non-empty, without `/` (URLs), `,` (lists), whitespace or control characters.
pub fn is_usable_id(id: &str) -> bool {
    !id.is_empty()
        && !id
            .chars()
            .any(|c| c == '/' || c == ',' || c.is_whitespace() || c.is_control())
}

/// An id the editor itself writes (letters, digits, `_`, `-`), as publish settings list them.
pub fn is_plain_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// A resource's name from its file name, as the editor derives it: without a trailing
/// `.ext` made of word characters (`b1.png.jpg` → `b1.png`), kept whole when nothing
/// would be left.
pub fn strip_extension(name: &str) -> &str {
    match name.rfind('.') {
        Some(dot) if dot > 0 => {
            let ext = &name[dot + 1..];
            if !ext.is_empty() && ext.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                &name[..dot]
            } else {
                name
            }
        }
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_segments() {
        for good in ["Main", "a b", "images", "x.png", "默认"] {
            assert!(is_safe_segment(good), "{good}");
        }
        for bad in [
            "", ".", "..", "a/b", "a\\b", "c:", " lead", "trail ", "dot.", "CON", "lpt1.txt",
        ] {
            assert!(!is_safe_segment(bad), "{bad}");
        }
    }

    #[test]
    fn canonical_folders_and_parents() {
        assert!(is_canonical_folder("/"));
        assert!(is_canonical_folder("/a/b/"));
        assert!(!is_canonical_folder("/a/b"));
        assert!(!is_canonical_folder("a/b/"));
        assert!(!is_canonical_folder("/a/../b/"));
        assert_eq!(parent_folder("/a/b/"), "/a/");
        assert_eq!(parent_folder("/a/"), "/");
    }

    #[test]
    fn ids() {
        assert!(is_usable_id("a9lkf94s") && !is_usable_id("a,b") && !is_usable_id(""));
        assert!(is_plain_id("n3_x-1") && !is_plain_id("a.b") && !is_plain_id(""));
    }

    #[test]
    fn extensions_strip_once() {
        assert_eq!(strip_extension("b1.png.jpg"), "b1.png");
        assert_eq!(strip_extension("face.png"), "face");
        assert_eq!(strip_extension("noext"), "noext");
        assert_eq!(strip_extension(".png"), ".png");
        assert_eq!(strip_extension("a.b-c"), "a.b-c");
    }
}

/// A kind or other word with its indefinite article for a message: `an image`,
/// `a component`, `an xy gear`'s `an xy` (said "ex-why").
pub fn with_article(word: &str) -> String {
    let lower = word.to_ascii_lowercase();
    let vowel_sound = lower.starts_with(['a', 'e', 'i', 'o', 'u']) || lower.starts_with("xy");
    if vowel_sound {
        format!("an {word}")
    } else {
        format!("a {word}")
    }
}

#[cfg(test)]
mod article_tests {
    use super::with_article;

    #[test]
    fn kinds_take_the_article_they_are_said_with() {
        assert_eq!(with_article("image"), "an image");
        assert_eq!(with_article("animation"), "an animation");
        assert_eq!(with_article("icon"), "an icon");
        assert_eq!(with_article("xy"), "an xy");
        assert_eq!(with_article("component"), "a component");
        assert_eq!(with_article("movieClip"), "a movieClip");
        assert_eq!(with_article("dragonBones"), "a dragonBones");
    }
}
