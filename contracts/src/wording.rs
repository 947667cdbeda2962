//! Checks every message is held to in tests: no "a" before a vowel sound, no word said
//! twice in a row, no doubled stop. Messages are pieced together from parts (a kind, an
//! id, another message), and these are the slips that piecing makes.

/// The first place in `message` where "a" stands before a word said with a vowel sound
/// ("a image", "a xy gear", "a unknown"): messages name kinds through
/// the backend's `with_article`, and this catches the ones that do not.
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
        // A word ending a clause may start the next ("…, that that"), and a word may be
        // followed by its own example ("git (`git mv`)").
        let joined = !pair[0].ends_with([',', ';', ':', '.', ')'])
            && !pair[1].starts_with(['(', '`', '"', '\'']);
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

#[cfg(test)]
mod tests {
    use super::{assert_articles, misarticled};

    /// Every text the catalogue gives a caller: each code's remediation for each owner,
    /// its guide, each tool's description and each command's exit meanings.
    #[test]
    fn every_message_of_the_catalogue_reads_well() {
        use crate::catalog::{DiagnosticCode, Owner};
        let mut messages: Vec<String> = Vec::new();
        for code in DiagnosticCode::ALL {
            for owner in [
                Owner::Backend,
                Owner::CoreTransaction,
                Owner::CoreValidation,
            ] {
                messages.push(code.remediation(owner).1.to_string());
            }
            if let Some(guide) = crate::guides::for_code(code.as_str()) {
                messages.extend([guide.meaning, guide.confirm, guide.fix].map(str::to_string));
            }
        }
        for method in crate::methods::METHODS {
            messages.push(method.tool_description());
        }
        for command in crate::cli::COMMANDS {
            messages.push(command.title.to_string());
            messages.extend(command.exits.iter().map(|(_, meaning)| meaning.to_string()));
        }
        assert!(messages.len() > 300, "{} messages", messages.len());
        assert_articles(messages.iter().map(String::as_str));
    }

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
