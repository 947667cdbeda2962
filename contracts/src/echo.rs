//! Repeating a caller's input in a message: how much of it a message may hold, and how it
//! is cut. The host (explaining a refused input) and the backend (a malformed operation or
//! project document) follow the same rule.

/// Most characters of the caller's input any message repeats.
pub const MAX_ECHO_CHARS: usize = 200;

/// At most `max` characters of `text`, with `…` where it was cut.
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{kept}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_keeps_at_most_max_characters_and_marks_the_cut() {
        assert_eq!(clip("short", 10), "short");
        assert_eq!(clip("exactly", 7), "exactly");
        assert_eq!(clip("abcdefgh", 5), "abcd…");
        assert_eq!(
            clip(&"é".repeat(500), MAX_ECHO_CHARS).chars().count(),
            MAX_ECHO_CHARS
        );
    }
}
