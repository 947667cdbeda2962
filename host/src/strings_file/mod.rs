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

use std::path::Path;

pub use ofgui_contracts::strings_file::{COLUMNS, Malformed, Row};
use ofgui_contracts::strings_file::{is_header, read_csv, read_xml, row_of, write_csv, write_xml};

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

/// Reads a strings file in `format`.
pub fn read(bytes: &[u8], format: Format) -> Result<Vec<Row>, Malformed> {
    match format {
        Format::Xml => read_xml(bytes),
        Format::Csv => read_csv(bytes),
        Format::Xlsx => read_xlsx(bytes),
    }
}

/// A strings file's text as the component reads it: XML and CSV as they are, a sheet as
/// CSV.
pub fn text_of(bytes: &[u8], format: Format) -> Result<String, Malformed> {
    let bytes = match format {
        Format::Xlsx => write(&read(bytes, format)?, Format::Csv)?,
        Format::Xml | Format::Csv => bytes.to_vec(),
    };
    String::from_utf8(bytes).map_err(|error| Malformed(format!("the file is not UTF-8 ({error})")))
}

/// Writes rows in `format`.
pub fn write(rows: &[Row], format: Format) -> Result<Vec<u8>, Malformed> {
    match format {
        Format::Xml => Ok(write_xml(rows).into_bytes()),
        Format::Csv => Ok(write_csv(rows).into_bytes()),
        Format::Xlsx => write_xlsx(rows),
    }
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
        for (column, cell) in row.cells().into_iter().enumerate() {
            if cell.chars().count() > 32_767 {
                return Err(Malformed(format!(
                    "the text of {} has more than 32,767 characters, the most a spreadsheet cell holds",
                    row.key
                )));
            }
            // Strings only: nothing a translator types is read as a number or formula.
            sheet
                .write_string_with_format(at, column as u16, cell, &wrapped)
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
    let named: Vec<String> = header
        .iter()
        .take_while(|cell| !cell.is_empty())
        .cloned()
        .collect();
    if !is_header(&named) {
        return Err(Malformed(format!(
            "row 1: the header is {header:?}; a strings sheet's columns are {COLUMNS:?}"
        )));
    }
    rows.enumerate()
        .filter(|(_, cells)| cells.iter().any(|cell| !matches!(cell, Data::Empty)))
        .map(|(index, cells)| {
            let mut cells: Vec<String> = cells.iter().map(text).collect();
            cells.resize(named.len(), String::new());
            row_of(index + 2, cells)
        })
        .collect()
}

#[cfg(test)]
mod tests;
