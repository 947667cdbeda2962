//! A component's XML in another language: each text whose key a strings file holds is
//! replaced where it sits, as the runtimes' translation helpers replace it in the package
//! data before they build the component. A preview drawn from it shows what the game
//! shows after `UIPackage.SetStringsSource`.

use std::collections::{BTreeMap, HashMap};

use ofgui_contracts::error::BackendError;
use ofgui_contracts::strings_file::{self, Malformed, Row};
use roxmltree::Document;

use super::{Keys, Place};
use ofgui_contracts::xml::escape_attribute;

/// A language's texts by key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Translations {
    by_key: HashMap<String, String>,
}

impl Translations {
    /// The texts of a strings file sent as text. From the XML the game loads, every entry,
    /// as the runtime takes them (an empty one empties the text); from a CSV sheet, the
    /// rows translated so far (the game would be given the XML written from it, which
    /// leaves the others out).
    pub fn read(text: &str) -> Result<Translations, Malformed> {
        Ok(Translations::of_rows(
            strings_file::read_text(text)?,
            strings_file::is_xml(text),
        ))
    }

    /// [`Translations::read`] for a call's `strings`, refused in the caller's terms.
    pub fn decode(text: &str) -> Result<Translations, BackendError> {
        Ok(Translations::of_rows(
            super::rows(text)?,
            strings_file::is_xml(text),
        ))
    }

    fn of_rows(rows: Vec<Row>, xml: bool) -> Translations {
        let by_key = rows
            .into_iter()
            .filter(|row| xml || !row.translation.is_empty())
            .map(|row| (row.key, row.translation))
            .collect();
        Translations { by_key }
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.by_key.get(key).map(String::as_str)
    }

    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }
}

/// One attribute value's new text whole, or its parts' new texts.
struct Edit<'t> {
    place: Place,
    texts: Vec<(Option<usize>, &'t str)>,
}

/// The component's XML with its texts in `translations`' language; `None` when it holds
/// none of their keys (or does not parse: the file is then drawn as it is).
pub fn translate(
    xml: &str,
    package_id: &str,
    component_id: &str,
    translations: &Translations,
) -> Option<String> {
    let document = Document::parse(xml).ok()?;
    let mut edits: BTreeMap<usize, Edit> = BTreeMap::new();
    for (entry, place) in Keys::of(&document, package_id, component_id) {
        if let Some(text) = translations.get(&entry.key) {
            edits
                .entry(place.range.start)
                .or_insert_with(|| Edit {
                    place: place.clone(),
                    texts: Vec::new(),
                })
                .texts
                .push((place.part, text));
        }
    }
    if edits.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(xml.len() + 256);
    let mut at = 0;
    for Edit { place, texts } in edits.values() {
        let range = place.range.clone();
        out.push_str(&xml[at..range.start]);
        let value = match place.part {
            None => texts.last().map_or("", |(_, text)| *text).to_owned(),
            Some(_) => {
                let old = document
                    .descendants()
                    .flat_map(|node| node.attributes())
                    .find(|attribute| attribute.range_value() == range)
                    .map_or("", |attribute| attribute.value());
                let mut parts: Vec<&str> = old.split('|').collect();
                for (part, text) in texts {
                    if let Some(slot) = part.and_then(|part| parts.get_mut(part)) {
                        *slot = text;
                    }
                }
                parts.join("|")
            }
        };
        out.push_str(&escape_attribute(&value));
        at = range.end;
    }
    out.push_str(&xml[at..]);
    Some(out)
}
