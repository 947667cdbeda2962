//! "Did you mean": the ids closest to a key that matched nothing, for the message that
//! says so. Keys match ids and names with their letter case, so a name that differs only
//! in case is the likeliest slip and wins; otherwise ids and names within a few edits.

/// Most suggestions a message carries.
const MOST: usize = 3;

/// ` Did you mean …?` for `wanted` among `(id, name)` candidates, or an empty string
/// when none is close. `kind` names what the ids are of (`node`, `resource`).
pub fn did_you_mean<'a>(
    wanted: &str,
    kind: &str,
    candidates: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> String {
    let wanted_lower = wanted.to_lowercase();
    let mut scored: Vec<(usize, &str, &str)> = Vec::new();
    for (id, name) in candidates {
        if !name.is_empty() && name.to_lowercase() == wanted_lower {
            return format!(
                " Did you mean {kind} {id} ({name})? Names match with their letter case."
            );
        }
        let closest = [id, name]
            .into_iter()
            .filter(|text| !text.is_empty())
            .map(|text| distance(&wanted_lower, &text.to_lowercase()))
            .min()
            .unwrap_or(usize::MAX);
        if closest <= wanted.chars().count().div_ceil(3).max(1) {
            scored.push((closest, id, name));
        }
    }
    scored.sort_by_key(|&(d, id, _)| (d, id.len()));
    scored.dedup_by_key(|&mut (_, id, _)| id);
    let named: Vec<String> = scored
        .iter()
        .take(MOST)
        .map(|&(_, id, name)| match name {
            "" => id.to_string(),
            name if name == id => id.to_string(),
            name => format!("{id} ({name})"),
        })
        .collect();
    match named.as_slice() {
        [] => String::new(),
        [one] => format!(" Did you mean {one}?"),
        [rest @ .., last] => format!(" Did you mean {} or {last}?", rest.join(", ")),
    }
}

/// Edits (insert, delete, replace) between two strings, by characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != cb))
                .min(above + 1)
                .min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_spelt_with_other_letter_case_is_named() {
        let nodes = [("n7", "frame"), ("n8", "list")];
        assert_eq!(
            did_you_mean("List", "node", nodes),
            " Did you mean node n8 (list)? Names match with their letter case."
        );
    }

    #[test]
    fn close_ids_and_names_are_offered_nearest_first() {
        let nodes = [
            ("n7", "frame"),
            ("n17", "title"),
            ("n8", "list"),
            ("x9", ""),
        ];
        assert_eq!(
            did_you_mean("n71", "node", nodes),
            " Did you mean n7 (frame)?"
        );
        let many = [("n11", "a"), ("n2", "n2"), ("n10", ""), ("q5", "b")];
        assert_eq!(
            did_you_mean("n1", "node", many),
            " Did you mean n2, n11 (a) or n10?"
        );
        assert_eq!(
            did_you_mean("frme", "node", nodes),
            " Did you mean n7 (frame)?"
        );
        assert_eq!(did_you_mean("zzzzzz", "node", nodes), "");
    }

    #[test]
    fn distances_count_edits() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "ab"), 2);
        assert_eq!(distance("节点", "节点1"), 1);
    }
}
