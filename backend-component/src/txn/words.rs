//! How messages name things: a list of ids, a branch.

/// How many ids a message lists before it stops.
const LISTED: usize = 12;

/// Up to [`LISTED`] ids for a message, or `none`.
pub(super) fn listed<'i>(ids: impl Iterator<Item = &'i str>) -> String {
    let ids: Vec<&str> = ids.collect();
    if ids.is_empty() {
        return "none".into();
    }
    let mut shown = ids
        .iter()
        .take(LISTED)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if ids.len() > LISTED {
        shown.push_str(&format!(" and {} more", ids.len() - LISTED));
    }
    shown
}

/// `the main branch` or `branch <name>`.
pub(super) fn branch_label(branch: &str) -> String {
    if branch.is_empty() {
        "the main branch".into()
    } else {
        format!("branch {branch}")
    }
}
