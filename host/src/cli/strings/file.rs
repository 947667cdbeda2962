//! Strings files in the three forms a team passes around: the editor's strings XML (what
//! the game loads), and CSV and XLSX for translators, with a column each for the key, the
//! component, the node's name, the source text and the translation.
//!
//! What each form keeps: XML holds one text per key (a language's), its node name (`mz`)
//! and the component comment before it; read, that text is the translation. CSV and XLSX
//! hold every column, so XML → CSV → XML, CSV → XLSX → CSV and XLSX → CSV → XLSX give back
//! the same file. An XML written from a sheet takes each row's translation (rows without
//! one are left out, so the game shows the source there), so a sheet's source column does
//! not survive a trip through XML.

use std::fmt::Write as _;
use std::path::Path;

/// The columns of a translator's sheet, in order.
pub const COLUMNS: [&str; 5] = ["key", "component", "node", "source", "translation"];

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
}

/// A strings file's form, by its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Xml,
    Csv,
    Xlsx,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Xml => "xml",
            Format::Csv => "csv",
            Format::Xlsx => "xlsx",
        }
    }

    /// The form a file's name says (`.xml`, `.csv`, `.xlsx`).
    pub fn of(path: &Path) -> Result<Format, String> {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("xml") => Ok(Format::Xml),
            Some("csv") => Ok(Format::Csv),
            Some("xlsx") => Ok(Format::Xlsx),
            _ => Err(format!(
                "{} does not end in .xml, .csv or .xlsx, so its form is unknown; name it so, or pass --format.",
                path.display()
            )),
        }
    }
}

/// Why a strings file could not be read, with where.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Malformed(pub String);

/// Reads a strings file in `format`.
pub fn read(bytes: &[u8], format: Format) -> Result<Vec<Row>, Malformed> {
    match format {
        Format::Xml => read_xml(bytes),
        Format::Csv => read_csv(bytes),
        Format::Xlsx => read_xlsx(bytes),
    }
}

/// Writes rows in `format`.
pub fn write(rows: &[Row], format: Format) -> Result<Vec<u8>, Malformed> {
    match format {
        Format::Xml => Ok(write_xml(rows).into_bytes()),
        Format::Csv => Ok(write_csv(rows).into_bytes()),
        Format::Xlsx => write_xlsx(rows),
    }
}

// ------------------------------------------------------------------ XML

fn read_xml(bytes: &[u8]) -> Result<Vec<Row>, Malformed> {
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
    let mut component = String::new();
    for node in root.children() {
        if node.is_comment() {
            component = node.text().unwrap_or_default().trim().to_owned();
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
        });
    }
    Ok(rows)
}

/// The editor's layout: a comment before each component's rows, two-space indent; each
/// row's translation, and rows without one left out.
fn write_xml(rows: &[Row]) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>\n");
    let mut component: Option<&str> = None;
    for row in rows.iter().filter(|row| !row.translation.is_empty()) {
        if component != Some(row.component.as_str()) && !row.component.is_empty() {
            let _ = writeln!(out, "  <!-- {} -->", row.component.replace("--", "- -"));
        }
        component = Some(row.component.as_str());
        let _ = writeln!(
            out,
            "  <string name=\"{}\" mz=\"{}\">{}</string>",
            attribute(&row.key),
            attribute(&row.node),
            // A carriage return as a reference: XML reads a bare one as a line feed.
            row.translation
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
                .replace('\r', "&#xD;")
        );
    }
    out.push_str("</resources>");
    out
}

fn attribute(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#x9;"),
            '\n' => out.push_str("&#xA;"),
            '\r' => out.push_str("&#xD;"),
            c => out.push(c),
        }
    }
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

fn unguarded(cell: String) -> String {
    match cell.strip_prefix('\'') {
        Some(rest) => rest.to_owned(),
        None => cell,
    }
}

/// UTF-8 with a byte order mark (so Excel reads it as UTF-8), CRLF between rows, every
/// cell quoted.
fn write_csv(rows: &[Row]) -> String {
    let mut out = String::from("\u{feff}");
    let quoted = |cell: &str| format!("\"{}\"", guarded(cell).replace('"', "\"\""));
    let line = |cells: [&str; 5]| cells.map(quoted).join(",") + "\r\n";
    out.push_str(&line(COLUMNS));
    for row in rows {
        out.push_str(&line([
            &row.key,
            &row.component,
            &row.node,
            &row.source,
            &row.translation,
        ]));
    }
    out
}

fn read_csv(bytes: &[u8]) -> Result<Vec<Row>, Malformed> {
    let text = std::str::from_utf8(bytes)
        .map_err(|error| Malformed(format!("the file is not UTF-8 ({error})")))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let records = csv_records(text)?;
    let mut records = records.into_iter();
    let Some((_, header)) = records.next() else {
        return Err(Malformed("the file is empty: it has no header row".into()));
    };
    let header: Vec<String> = header.into_iter().map(unguarded).collect();
    if header != COLUMNS {
        return Err(Malformed(format!(
            "line 1: the header is {header:?}; a strings sheet's columns are {COLUMNS:?}"
        )));
    }
    records
        .map(|(line, cells)| row_of(line, cells.into_iter().map(unguarded).collect()))
        .collect()
}

fn row_of(line: usize, cells: Vec<String>) -> Result<Row, Malformed> {
    let count = cells.len();
    let Ok([key, component, node, source, translation]) = <[String; 5]>::try_from(cells) else {
        return Err(Malformed(format!(
            "line {line}: a row has {count} columns; it needs {}",
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
    })
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

// ------------------------------------------------------------------ XLSX

fn write_xlsx(rows: &[Row]) -> Result<Vec<u8>, Malformed> {
    use rust_xlsxwriter::{Format as CellFormat, Workbook};
    let failed = |error: rust_xlsxwriter::XlsxError| {
        Malformed(format!("the sheet cannot be written: {error}"))
    };
    let mut workbook = Workbook::new();
    let sheet = workbook.add_worksheet();
    sheet.set_name("strings").map_err(failed)?;
    let bold = CellFormat::new().set_bold();
    let wrapped = CellFormat::new().set_text_wrap();
    for (column, title) in COLUMNS.iter().enumerate() {
        sheet
            .write_string_with_format(0, column as u16, *title, &bold)
            .map_err(failed)?;
    }
    for (index, row) in rows.iter().enumerate() {
        let at = (index + 1) as u32;
        let cells = [
            &row.key,
            &row.component,
            &row.node,
            &row.source,
            &row.translation,
        ];
        for (column, cell) in cells.into_iter().enumerate() {
            if cell.chars().count() > 32_767 {
                return Err(Malformed(format!(
                    "the text of {} has more than 32,767 characters, the most a spreadsheet cell holds",
                    row.key
                )));
            }
            // Strings only: nothing a translator types is read as a number or formula.
            sheet
                .write_string_with_format(at, column as u16, cell.as_str(), &wrapped)
                .map_err(failed)?;
        }
    }
    sheet.set_column_width(0, 36).map_err(failed)?;
    sheet.set_column_width(3, 48).map_err(failed)?;
    sheet.set_column_width(4, 48).map_err(failed)?;
    sheet.set_freeze_panes(1, 0).map_err(failed)?;
    workbook.save_to_buffer().map_err(failed)
}

fn read_xlsx(bytes: &[u8]) -> Result<Vec<Row>, Malformed> {
    use calamine::{Data, Reader, Xlsx};
    let mut workbook = Xlsx::new(std::io::Cursor::new(bytes))
        .map_err(|error| Malformed(format!("the workbook cannot be read: {error}")))?;
    let Some(Ok(range)) = workbook.worksheet_range_at(0) else {
        return Err(Malformed("the workbook has no sheet".into()));
    };
    let mut rows = range.rows();
    let text = |cell: &Data| match cell {
        Data::Empty => String::new(),
        Data::String(text) => text.clone(),
        other => other.to_string(),
    };
    let Some(header) = rows.next() else {
        return Err(Malformed("the sheet is empty: it has no header row".into()));
    };
    let header: Vec<String> = header.iter().map(text).collect();
    if header
        .iter()
        .map(String::as_str)
        .take(COLUMNS.len())
        .ne(COLUMNS)
    {
        return Err(Malformed(format!(
            "row 1: the header is {header:?}; a strings sheet's columns are {COLUMNS:?}"
        )));
    }
    rows.enumerate()
        .filter(|(_, cells)| cells.iter().any(|cell| !matches!(cell, Data::Empty)))
        .map(|(index, cells)| {
            let mut cells: Vec<String> = cells.iter().map(text).collect();
            cells.resize(COLUMNS.len(), String::new());
            row_of(index + 2, cells)
        })
        .collect()
}

#[cfg(test)]
mod tests;
