//! A project's translatable strings, as the FairyGUI editor exports them for
//! `UIPackage.SetStringsSource`: one `<string name="KEY" mz="NODE NAME">TEXT</string>` per
//! text the runtimes' translation helpers look up.
//!
//! A key is the package id and the component id run together, `-`, the node id, and a
//! suffix saying which text of the node it replaces. The rules, by what the runtimes read
//! when they build a component (display-list order, and per node in this order):
//! - `-tips`: any node's `tooltips`;
//! - `-texts_K` / `-texts_def`: a `gearText`'s K-th value (its place in the gear's own list,
//!   not the controller's page index) and its default;
//! - `-cp-TARGET`: a component instance's `<property target=… propertyId="0">` (text only);
//! - text and rich text: the node id alone for `text`, `-prompt` for an input's prompt;
//! - lists and trees: `-J` for item J's `title`, `-J-0` for its `selectedTitle`,
//!   `-J-TARGET` for its text property;
//! - component instances: `<Button>` `title` (the id alone) and `selectedTitle` (`-0`),
//!   `<Label>` `title` and `prompt`, `<ComboBox>` items (`-J`) then its `title`.
//!
//! Like the editor: empty texts and texts without a letter (`100`, `%`) are left out, and
//! so is what the project marks to be cleared when published (`autoClearText`,
//! `autoClearItems`). Components are grouped by package and listed by name, each after a
//! `<!-- Package - Component -->` comment.

use std::ops::Range;

use ofgui_contracts::error::BackendError;
use ofgui_contracts::strings_file::{self, Row};
use roxmltree::{Attribute, Document, Node};

mod check;
mod translate;

pub use check::check;

/// A call's translation, as the text it sends in `strings`; `None` when it sends none. A
/// `stringsFile` is the host's to read (the component sees only its project), so one that
/// arrives here is refused.
pub fn sent<'i>(
    strings: &'i Option<String>,
    strings_file: &Option<String>,
) -> Result<Option<&'i str>, BackendError> {
    match (strings, strings_file) {
        (_, Some(_)) => Err(BackendError::invalid_input(
            "stringsFile is read by the server that received the call, which should have sent its text as strings; send the file's text in strings instead.",
            Some("/stringsFile".into()),
        )),
        (Some(text), None) => Ok(Some(text)),
        (None, None) => Ok(None),
    }
}

/// The same, for a call that needs one: `doing` says what for.
pub fn needed<'i>(
    strings: &'i Option<String>,
    strings_file: &Option<String>,
    doing: &str,
) -> Result<&'i str, BackendError> {
    sent(strings, strings_file)?.ok_or_else(|| {
        BackendError::invalid_input(
            format!("Send the translation to {doing}: its text in strings (strings XML or CSV), or its file in stringsFile."),
            Some("/strings".into()),
        )
    })
}

/// The rows of a call's `strings`, refused in the caller's terms.
pub fn rows(text: &str) -> Result<Vec<Row>, BackendError> {
    strings_file::read_text(text).map_err(|malformed| {
        BackendError::invalid_input(
            format!("The strings file cannot be read: {malformed}. Export one with exportStrings (or `strings export`) and translate its texts."),
            Some("/strings".into()),
        )
    })
}

/// Where a page starts: 0, or the `nextCursor` of the answer before.
pub fn page_start(cursor: &Option<String>) -> Result<usize, BackendError> {
    match cursor {
        None => Ok(0),
        Some(cursor) => cursor.parse::<usize>().map_err(|_| {
            BackendError::invalid_input(
                "cursor must be the nextCursor of the answer before.",
                Some("/cursor".into()),
            )
        }),
    }
}
pub use translate::{Translations, translate};

/// One translatable text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: String,
    /// The node's name (`mz`): a reminder for the translator; the runtimes ignore it.
    pub node_name: String,
    pub text: String,
}

/// One component's texts, with the names its comment shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComponentStrings {
    pub package: String,
    pub component: String,
    pub entries: Vec<Entry>,
}

/// The texts of one component's XML, keyed under `package_id` + `component_id`; `Err`
/// when the XML does not parse.
pub fn component_entries(
    package_id: &str,
    component_id: &str,
    xml: &str,
) -> Result<Vec<Entry>, String> {
    let document = Document::parse(xml).map_err(|error| error.to_string())?;
    Ok(Keys::of(&document, package_id, component_id)
        .into_iter()
        .map(|(entry, _)| entry)
        .collect())
}

/// Where a text sits in the component's XML: an attribute's value, or one `|`-separated
/// part of it (a text gear's `values`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Place {
    /// The attribute value's bytes in the file, as written (escaped).
    range: Range<usize>,
    part: Option<usize>,
}

/// Gathers the entries of one component, with where each text sits.
struct Keys {
    prefix: String,
    entries: Vec<(Entry, Place)>,
}

impl Keys {
    fn of(document: &Document, package_id: &str, component_id: &str) -> Vec<(Entry, Place)> {
        let mut keys = Keys {
            prefix: format!("{package_id}{component_id}"),
            entries: Vec::new(),
        };
        let list = document
            .root_element()
            .children()
            .find(|child| child.has_tag_name("displayList"));
        for node in list.iter().flat_map(|list| list.children()) {
            if node.is_element() {
                keys.node(node);
            }
        }
        keys.entries
    }

    fn add(&mut self, node_id: &str, suffix: &str, node_name: &str, text: Option<Attribute>) {
        let Some(text) = text.filter(|text| translatable(text.value())) else {
            return;
        };
        self.push(node_id, suffix, node_name, text.value(), text, None);
    }

    fn push(
        &mut self,
        node_id: &str,
        suffix: &str,
        node_name: &str,
        text: &str,
        attribute: Attribute,
        part: Option<usize>,
    ) {
        self.entries.push((
            Entry {
                key: format!("{}-{node_id}{suffix}", self.prefix),
                node_name: node_name.to_owned(),
                text: text.to_owned(),
            },
            Place {
                range: attribute.range_value(),
                part,
            },
        ));
    }

    fn node(&mut self, node: Node) {
        let Some(id) = node.attribute("id") else {
            return;
        };
        let name = node.attribute("name").unwrap_or_default();
        self.add(id, "-tips", name, attribute(node, "tooltips"));
        for gear in children(node, "gearText") {
            if let Some(values) = gear.attribute_node("values") {
                for (k, value) in values.value().split('|').enumerate() {
                    if translatable(value) {
                        let suffix = format!("-texts_{k}");
                        self.push(id, &suffix, name, value, values, Some(k));
                    }
                }
            }
            self.add(id, "-texts_def", name, attribute(gear, "default"));
        }
        let tag = node.tag_name().name();
        if tag == "component" {
            for (target, value) in text_properties(node) {
                self.add(id, &format!("-cp-{target}"), name, Some(value));
            }
        }
        match tag {
            "text" | "richtext" => {
                if node.attribute("autoClearText") != Some("true") {
                    self.add(id, "", name, attribute(node, "text"));
                }
                if node.attribute("input") == Some("true") {
                    self.add(id, "-prompt", name, attribute(node, "prompt"));
                }
            }
            "list" if node.attribute("autoClearItems") != Some("true") => {
                for (j, item) in children(node, "item").enumerate() {
                    self.add(id, &format!("-{j}"), name, attribute(item, "title"));
                    let selected = attribute(item, "selectedTitle");
                    self.add(id, &format!("-{j}-0"), name, selected);
                    for (target, value) in text_properties(item) {
                        self.add(id, &format!("-{j}-{target}"), name, Some(value));
                    }
                }
            }
            "component" => self.instance(node, id, name),
            _ => {}
        }
    }

    /// The texts a component instance sets on its button, label or combo box.
    fn instance(&mut self, node: Node, id: &str, name: &str) {
        if let Some(button) = children(node, "Button").next() {
            self.add(id, "", name, attribute(button, "title"));
            self.add(id, "-0", name, attribute(button, "selectedTitle"));
        }
        if let Some(label) = children(node, "Label").next() {
            self.add(id, "", name, attribute(label, "title"));
            self.add(id, "-prompt", name, attribute(label, "prompt"));
        }
        if let Some(combo) = children(node, "ComboBox").next() {
            for (j, item) in children(combo, "item").enumerate() {
                self.add(id, &format!("-{j}"), name, attribute(item, "title"));
            }
            self.add(id, "", name, attribute(combo, "title"));
        }
    }
}

fn children<'a, 'i>(node: Node<'a, 'i>, tag: &'static str) -> impl Iterator<Item = Node<'a, 'i>> {
    node.children().filter(move |child| child.has_tag_name(tag))
}

fn attribute<'a, 'i>(node: Node<'a, 'i>, name: &str) -> Option<Attribute<'a, 'i>> {
    node.attribute_node(name)
}

/// `<property target=… propertyId="0" value=…>` children: the text overrides.
fn text_properties<'a, 'i>(
    node: Node<'a, 'i>,
) -> impl Iterator<Item = (&'a str, Attribute<'a, 'i>)> {
    children(node, "property").filter_map(|property| {
        (property.attribute("propertyId") == Some("0"))
            .then(|| {
                Some((
                    property.attribute("target")?,
                    property.attribute_node("value")?,
                ))
            })
            .flatten()
    })
}

/// Whether the editor exports a text: not empty, and holding a letter (numbers and
/// symbols alone are the same in every language).
fn translatable(text: &str) -> bool {
    text.chars().any(char::is_alphabetic)
}

/// The strings file in the editor's layout (`strings_file::write_xml`): the XML
/// declaration, `<resources>`, and per component a comment and its entries, indented by two
/// spaces.
pub fn to_xml(components: &[ComponentStrings]) -> String {
    let rows: Vec<Row> = components
        .iter()
        .flat_map(|component| {
            component.entries.iter().map(|entry| Row {
                key: entry.key.clone(),
                component: format!("{} - {}", component.package, component.component),
                node: entry.node_name.clone(),
                translation: entry.text.clone(),
                ..Row::default()
            })
        })
        .collect();
    strings_file::write_xml(&rows)
}

#[cfg(test)]
mod tests;
