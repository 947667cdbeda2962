//! Strings files in their text forms: the editor's strings XML (what the game loads with
//! `UIPackage.SetStringsSource`) and CSV for translators, with a column each for the key,
//! the component, the node's name, the source text and the translation. Shared by the
//! component (which reads a strings file sent in a call) and the command line (which also
//! writes them, and reads and writes XLSX).
//!
//! What each form keeps: XML holds one text per key (a language's), its node name (`mz`)
//! and the component comment before it; read, that text is the translation. CSV holds
//! every column. An XML written from rows takes each row's translation (rows without one
//! are left out, so the game shows the source there).

use std::fmt::Write as _;

use crate::xml::{escape_attribute, escape_text};

/// The columns of a translator's sheet, in order; sheets without the last (`note`, what a
/// merge marked) are read too.
pub const COLUMNS: [&str; 6] = ["key", "component", "node", "source", "translation", "note"];

/// The columns a sheet must have.
pub const REQUIRED_COLUMNS: usize = 5;

/// One key's row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Row {
    pub key: String,
    /// `Package - Component`, as the XML's comment says.
    pub component: String,
    /// The node's name (the XML's `mz`).
    pub node: String,
    pub source: String,
    pub translation: String,
    /// What a merge marked (`new`, a changed source, an orphaned key); empty otherwise.
    pub note: String,
}

/// Why a strings file could not be read, with where.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Malformed(pub String);

/// A strings file sent as text: XML when it starts with `<` (after a byte order mark and
/// blanks), CSV otherwise.
pub fn read_text(text: &str) -> Result<Vec<Row>, Malformed> {
    match is_xml(text) {
        true => read_xml(text.as_bytes()),
        false => read_csv(text.as_bytes()),
    }
}

/// Whether a strings file sent as text is the XML form.
pub fn is_xml(text: &str) -> bool {
    text.trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('<')
}

// ------------------------------------------------------------------ XML

pub fn read_xml(bytes: &[u8]) -> Result<Vec<Row>, Malformed> {
    let text = std::str::from_utf8(bytes)
        .map_err(|error| Malformed(format!("the file is not UTF-8 ({error})")))?;
    let document = roxmltree::Document::parse(text)
        .map_err(|error| Malformed(format!("the XML does not parse: {error}")))?;
    let root = document.root_element();
    if !root.has_tag_name("resources") {
        return Err(Malformed(format!(
            "line {}: the root element is <{}>, not <resources>",
            document.text_pos_at(root.range().start).row,
            root.tag_name().name()
        )));
    }
    let mut rows = Vec::new();
    let (mut component, mut note) = (String::new(), String::new());
    for node in root.children() {
        if node.is_comment() {
            let text = node.text().unwrap_or_default().trim();
            match text.strip_prefix(NOTE_MARK) {
                Some(marked) => note = marked.trim().to_owned(),
                None => component = text.to_owned(),
            }
            continue;
        }
        if !node.is_element() {
            continue;
        }
        let line = document.text_pos_at(node.range().start).row;
        if !node.has_tag_name("string") {
            return Err(Malformed(format!(
                "line {line}: <{}> is not a <string> entry",
                node.tag_name().name()
            )));
        }
        let key = node
            .attribute("name")
            .ok_or_else(|| Malformed(format!("line {line}: a <string> without its name (key)")))?;
        if !key.contains('-') {
            return Err(Malformed(format!(
                "line {line}: {key:?} is no key the runtimes read (package and component ids, `-`, a node id)"
            )));
        }
        rows.push(Row {
            key: key.to_owned(),
            component: component.clone(),
            node: node.attribute("mz").unwrap_or_default().to_owned(),
            source: String::new(),
            translation: node.children().filter_map(|child| child.text()).collect(),
            note: std::mem::take(&mut note),
        });
    }
    Ok(rows)
}

/// What starts a comment holding the next entry's note.
const NOTE_MARK: &str = "ofgui:";

/// The editor's layout: a comment before each component's rows, two-space indent; each
/// row's translation, and rows without one left out; a note as a comment before its row.
pub fn write_xml(rows: &[Row]) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>\n");
    let mut component: Option<&str> = None;
    for row in rows.iter().filter(|row| !row.translation.is_empty()) {
        if component != Some(row.component.as_str()) && !row.component.is_empty() {
            let _ = writeln!(out, "  <!-- {} -->", row.component.replace("--", "- -"));
        }
        component = Some(row.component.as_str());
        if !row.note.is_empty() {
            let _ = writeln!(
                out,
                "  <!-- {NOTE_MARK} {} -->",
                row.note.replace("--", "- -")
            );
        }
        let _ = writeln!(
            out,
            "  <string name=\"{}\" mz=\"{}\">{}</string>",
            escape_attribute(&row.key),
            escape_attribute(&row.node),
            escape_text(&row.translation)
        );
    }
    out.push_str("</resources>");
    out
}

// ------------------------------------------------------------------ CSV

/// A cell a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, a tab or a carriage
/// return first) gets an apostrophe before it, as does one that starts with an apostrophe;
/// reading takes one apostrophe off again.
fn guarded(cell: &str) -> String {
    match cell.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r' | '\'') => format!("'{cell}"),
        _ => cell.to_owned(),
    }
}

pub fn unguarded(cell: String) -> String {
    match cell.strip_prefix('\'') {
        Some(rest) => rest.to_owned(),
        None => cell,
    }
}

/// UTF-8 with a byte order mark (so Excel reads it as UTF-8), CRLF between rows, every
/// cell quoted.
pub fn write_csv(rows: &[Row]) -> String {
    let mut out = String::from("\u{feff}");
    let quoted = |cell: &str| format!("\"{}\"", guarded(cell).replace('"', "\"\""));
    let line = |cells: [&str; 6]| cells.map(quoted).join(",") + "\r\n";
    out.push_str(&line(COLUMNS));
    for row in rows {
        out.push_str(&line(row.cells()));
    }
    out
}

pub fn read_csv(bytes: &[u8]) -> Result<Vec<Row>, Malformed> {
    let text = std::str::from_utf8(bytes)
        .map_err(|error| Malformed(format!("the file is not UTF-8 ({error})")))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let records = csv_records(text)?;
    let mut records = records.into_iter();
    let Some((_, header)) = records.next() else {
        return Err(Malformed("the file is empty: it has no header row".into()));
    };
    let header: Vec<String> = header.into_iter().map(unguarded).collect();
    if !is_header(&header) {
        return Err(Malformed(format!(
            "line 1: the header is {header:?}; a strings sheet's columns are {COLUMNS:?}"
        )));
    }
    records
        .map(|(line, cells)| row_of(line, cells.into_iter().map(unguarded).collect()))
        .collect()
}

/// Whether a sheet's first row names its columns (the note's may be missing).
pub fn is_header(header: &[String]) -> bool {
    let named = header.len().min(COLUMNS.len());
    named >= REQUIRED_COLUMNS
        && header[..named] == COLUMNS[..named]
        && header.len() <= COLUMNS.len()
}

pub fn row_of(line: usize, mut cells: Vec<String>) -> Result<Row, Malformed> {
    let count = cells.len();
    if count == REQUIRED_COLUMNS {
        cells.push(String::new());
    }
    let Ok([key, component, node, source, translation, note]) = <[String; 6]>::try_from(cells)
    else {
        return Err(Malformed(format!(
            "line {line}: a row has {count} columns; it needs {REQUIRED_COLUMNS} or {}",
            COLUMNS.len()
        )));
    };
    if !key.contains('-') {
        return Err(Malformed(format!(
            "line {line}: {key:?} is no key the runtimes read (package and component ids, `-`, a node id)"
        )));
    }
    Ok(Row {
        key,
        component,
        node,
        source,
        translation,
        note,
    })
}

impl Row {
    /// Its cells in the sheet's column order.
    pub fn cells(&self) -> [&str; 6] {
        [
            &self.key,
            &self.component,
            &self.node,
            &self.source,
            &self.translation,
            &self.note,
        ]
    }
}

/// RFC 4180 records with the line each starts on; quoted cells may hold commas, quotes
/// (doubled) and line breaks.
fn csv_records(text: &str) -> Result<Vec<(usize, Vec<String>)>, Malformed> {
    let mut records = Vec::new();
    let mut chars = text.chars().peekable();
    let mut line = 1;
    while chars.peek().is_some() {
        let start = line;
        let mut cells = Vec::new();
        loop {
            let mut cell = String::new();
            if chars.peek() == Some(&'"') {
                chars.next();
                loop {
                    match chars.next() {
                        None => {
                            return Err(Malformed(format!(
                                "line {start}: a quoted cell is never closed"
                            )));
                        }
                        Some('"') if chars.peek() == Some(&'"') => {
                            chars.next();
                            cell.push('"');
                        }
                        Some('"') => break,
                        Some(c) => {
                            if c == '\n' {
                                line += 1;
                            }
                            cell.push(c);
                        }
                    }
                }
            } else {
                while let Some(&c) = chars.peek() {
                    if matches!(c, ',' | '\r' | '\n') {
                        break;
                    }
                    cell.push(c);
                    chars.next();
                }
            }
            cells.push(cell);
            match chars.next() {
                Some(',') => continue,
                Some('\r') => {
                    if chars.peek() == Some(&'\n') {
                        chars.next();
                    }
                    line += 1;
                    break;
                }
                Some('\n') => {
                    line += 1;
                    break;
                }
                None => break,
                Some(c) => {
                    return Err(Malformed(format!(
                        "line {line}: {c:?} after a quoted cell; a cell ends at a comma or the line's end"
                    )));
                }
            }
        }
        records.push((start, cells));
    }
    Ok(records)
}
