//! `checkStrings`: a translation held against the project's strings now. What a
//! translator or the game would trip over: keys the file lacks or leaves untranslated,
//! keys the project no longer has, rows translated from a source text that has changed
//! since (when the file carries the source), markup and placeholders the translation
//! lost, added or changed, characters no font can draw, and keys the file gives twice.

use std::collections::{BTreeMap, BTreeSet};

use ofgui_contracts::api::{StringsFinding, StringsFindingKind};
use ofgui_contracts::strings_file::Row;

use super::Entry;

/// Every finding, in the project's order, then the file's keys the project lacks;
/// `drawable` says whether some font has a character.
pub fn check(
    project: &[Entry],
    file: &[Row],
    drawable: &dyn Fn(char) -> bool,
) -> Vec<StringsFinding> {
    let mut findings = Vec::new();
    let mut rows: BTreeMap<&str, &Row> = BTreeMap::new();
    let mut twice = BTreeSet::new();
    for row in file {
        if rows.insert(row.key.as_str(), row).is_some() && twice.insert(row.key.as_str()) {
            findings.push(finding(
                &row.key,
                StringsFindingKind::Duplicate,
                "the file gives this key more than once; the runtime keeps the last".into(),
            ));
        }
    }
    let known: BTreeSet<&str> = project.iter().map(|entry| entry.key.as_str()).collect();
    for entry in project {
        let Some(row) = rows.get(entry.key.as_str()) else {
            findings.push(finding(
                &entry.key,
                StringsFindingKind::Missing,
                format!(
                    "not in the file; the game shows the source text {:?}",
                    short(&entry.text)
                ),
            ));
            continue;
        };
        if row.translation.is_empty() {
            findings.push(finding(
                &entry.key,
                StringsFindingKind::Untranslated,
                format!("no translation yet for {:?}", short(&entry.text)),
            ));
            continue;
        }
        if !row.source.is_empty() && row.source != entry.text {
            findings.push(finding(
                &entry.key,
                StringsFindingKind::SourceChanged,
                format!(
                    "translated from {:?}, but the project now says {:?}; translate it again",
                    short(&row.source),
                    short(&entry.text)
                ),
            ));
        }
        let mut lacking: Vec<char> = row
            .translation
            .chars()
            .filter(|c| !c.is_whitespace() && !c.is_control() && !drawable(*c))
            .collect();
        lacking.sort_unstable();
        lacking.dedup();
        if !lacking.is_empty() {
            let shown: String = lacking.iter().take(20).collect();
            findings.push(finding(
                &entry.key,
                StringsFindingKind::MissingGlyphs,
                format!(
                    "no font of the project or the server has {shown:?}: the game shows boxes unless its font has them; add a font that does"
                ),
            ));
        }
        let (want, got) = (tokens(&entry.text), tokens(&row.translation));
        if want != got {
            let lost: Vec<&str> = difference(&want, &got);
            let added: Vec<&str> = difference(&got, &want);
            findings.push(finding(
                &entry.key,
                StringsFindingKind::Markup,
                format!(
                    "markup or placeholders differ from the source: {}{}{}",
                    if lost.is_empty() {
                        String::new()
                    } else {
                        format!("missing {lost:?}")
                    },
                    if lost.is_empty() || added.is_empty() {
                        ""
                    } else {
                        ", "
                    },
                    if added.is_empty() {
                        String::new()
                    } else {
                        format!("not in the source {added:?}")
                    },
                ),
            ));
        }
    }
    for row in file {
        if !known.contains(row.key.as_str()) && !twice.contains(row.key.as_str()) {
            findings.push(finding(
                &row.key,
                StringsFindingKind::Orphaned,
                "the project has no such text any more (its node, component or package was removed or renamed); drop the row".into(),
            ));
        }
    }
    findings
}

fn finding(key: &str, kind: StringsFindingKind, message: String) -> StringsFinding {
    StringsFinding {
        key: key.to_owned(),
        kind,
        message,
    }
}

fn short(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(60).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

/// The markup and placeholders of a text, sorted: UBB tags (`[color=#ff0000]`, `[/b]`),
/// HTML-like tags (`<b>`, `</font>`), `{0}` and `{name}`, and printf's `%s`, `%d`, `%%`.
fn tokens(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let close = match bytes[at] {
            b'[' => Some(b']'),
            b'<' => Some(b'>'),
            b'{' => Some(b'}'),
            _ => None,
        };
        if let Some(close) = close
            && let Some(length) = bytes[at + 1..].iter().take(64).position(|&b| b == close)
        {
            let inner = &text[at + 1..at + 1 + length];
            let tag_like = !inner.is_empty()
                && (!inner.contains(char::is_whitespace) || inner.contains('='))
                && inner
                    .chars()
                    .next()
                    .is_some_and(|c| c == '/' || c == '_' || c.is_ascii_alphanumeric());
            if tag_like {
                found.push(&text[at..at + length + 2]);
                at += length + 2;
                continue;
            }
        }
        if bytes[at] == b'%'
            && let Some(&next) = bytes.get(at + 1)
            && matches!(next, b's' | b'd' | b'f' | b'i' | b'%' | b'@')
        {
            found.push(&text[at..at + 2]);
            at += 2;
            continue;
        }
        at += 1;
    }
    found.sort_unstable();
    found
}

/// What `a` holds more of than `b` (both sorted).
fn difference<'a>(a: &[&'a str], b: &[&str]) -> Vec<&'a str> {
    let mut rest = b.to_vec();
    a.iter()
        .filter(
            |token| match rest.iter().position(|other| other == *token) {
                Some(index) => {
                    rest.remove(index);
                    false
                }
                None => true,
            },
        )
        .copied()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: &str, text: &str) -> Entry {
        Entry {
            key: key.into(),
            node_name: "n".into(),
            text: text.into(),
        }
    }

    fn check(project: &[Entry], file: &[Row]) -> Vec<StringsFinding> {
        super::check(project, file, &|c| c != '☃')
    }

    fn row(key: &str, source: &str, translation: &str) -> Row {
        Row {
            key: key.into(),
            source: source.into(),
            translation: translation.into(),
            ..Row::default()
        }
    }

    #[test]
    fn each_kind_of_trouble_is_found_once() {
        let project = [
            entry("p-a", "Hello"),
            entry("p-b", "[color=#ff0000]{0}[/color] left, 100%%"),
            entry("p-c", "Start"),
            entry("p-d", "Quit"),
            entry("p-e", "<b>Bold</b> {name}"),
            entry("p-f", "Snowman"),
        ];
        let file = [
            row("p-a", "", "Hallo"),
            row("p-b", "", "{0} übrig, 100%%"),
            row("p-c", "Begin", "Anfangen"),
            row("p-e", "", "{name} <b>Fett</b>"),
            row("p-x", "", "Alt"),
            row("p-f", "", "Schneemann ☃"),
            row("p-a", "", "Hallo!"),
        ];
        let found: Vec<(String, StringsFindingKind)> = check(&project, &file)
            .into_iter()
            .map(|f| (f.key, f.kind))
            .collect();
        use StringsFindingKind as K;
        assert_eq!(
            found,
            [
                ("p-a".into(), K::Duplicate),
                ("p-b".into(), K::Markup),
                ("p-c".into(), K::SourceChanged),
                ("p-d".into(), K::Missing),
                ("p-f".into(), K::MissingGlyphs),
                ("p-x".into(), K::Orphaned),
            ]
        );
        let markup = &check(&project, &file)[1].message;
        assert!(
            markup.contains("[color=#ff0000]") && markup.contains("[/color]"),
            "{markup}"
        );
    }

    #[test]
    fn brackets_in_words_are_not_markup() {
        assert_eq!(tokens("a [note] b {0} <3 and 50% off"), ["[note]", "{0}"]);
        assert_eq!(tokens("[url=x y]go[/url]"), ["[/url]", "[url=x y]"]);
        assert!(
            check(&[entry("p-a", "")], &[row("p-a", "", "")])[0].kind
                == StringsFindingKind::Untranslated
        );
    }
}
