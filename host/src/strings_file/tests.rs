use super::*;

/// Texts that break naive files: separators, quotes, line breaks, markup, formulas, other
/// scripts, right-to-left text, emoji, leading and trailing blanks.
fn hostile() -> Vec<Row> {
    let texts = [
        "Plain",
        "Comma, \"quoted\" and 'single'",
        "Two\nlines\r\nand CRLF",
        "[color=#ff0000]Red[/color] <b>bold</b> & {0} %s",
        "=SUM(A1:A2)",
        "+1 -1 @me",
        "'already quoted",
        "中文 한국어 日本語",
        "مرحبا بالعالم",
        "emoji 🎮🚀 and ZWJ 👩‍💻",
        "  spaces around  ",
        "\ttab first",
    ];
    texts
        .iter()
        .enumerate()
        .map(|(i, text)| Row {
            key: format!("pkg0cmp0-n{i}"),
            component: "Basics - Main".into(),
            node: format!("node {i}, \"named\""),
            source: (*text).into(),
            translation: format!("{text} (translated)"),
            note: if i % 3 == 0 {
                format!("note -- {text}")
            } else {
                String::new()
            },
        })
        .collect()
}

#[test]
fn csv_and_xlsx_give_back_every_cell() {
    let rows = hostile();
    let csv = write(&rows, Format::Csv).unwrap();
    assert!(csv.starts_with("\u{feff}".as_bytes()), "a BOM for Excel");
    assert_eq!(read(&csv, Format::Csv).unwrap(), rows);
    let xlsx = write(&rows, Format::Xlsx).unwrap();
    assert_eq!(read(&xlsx, Format::Xlsx).unwrap(), rows);
    // CSV → XLSX → CSV, byte for byte.
    let again = write(&read(&xlsx, Format::Xlsx).unwrap(), Format::Csv).unwrap();
    assert_eq!(again, csv);
    // No cell starts as a formula.
    let text = String::from_utf8(csv).unwrap();
    assert!(text.contains("\"'=SUM(A1:A2)\"") && text.contains("\"''already quoted\""));
}

#[test]
fn an_xml_file_goes_through_a_sheet_and_back_unchanged() {
    let rows: Vec<Row> = hostile()
        .into_iter()
        .map(|row| Row {
            source: String::new(),
            // A note goes into an XML comment, trimmed, where `--` cannot stand.
            note: match row.note.is_empty() {
                true => String::new(),
                false => format!("changed {}", row.key),
            },
            ..row
        })
        .collect();
    let xml = write(&rows, Format::Xml).unwrap();
    assert_eq!(read(&xml, Format::Xml).unwrap(), rows);
    for format in [Format::Csv, Format::Xlsx] {
        let sheet = write(&read(&xml, Format::Xml).unwrap(), format).unwrap();
        let back = write(&read(&sheet, format).unwrap(), Format::Xml).unwrap();
        assert_eq!(
            String::from_utf8(back).unwrap(),
            String::from_utf8(xml.clone()).unwrap(),
            "{format:?}"
        );
    }
}

#[test]
fn a_malformed_file_is_named_by_its_line() {
    let broken_csv = "key,component,node,source,translation\r\n\"a-b\",\"c\",\"n\",\"s\",\"t\r\n";
    let error = read(broken_csv.as_bytes(), Format::Csv).unwrap_err().0;
    assert!(
        error.contains("line 2") && error.contains("never closed"),
        "{error}"
    );
    let old = "key,component,node,source,translation\r\na-b,c,n,s,t\r\n";
    assert_eq!(
        read(old.as_bytes(), Format::Csv).unwrap()[0].translation,
        "t",
        "a sheet without notes"
    );
    let short = "key,component,node,source,translation\r\na-b,c\r\n";
    let error = read(short.as_bytes(), Format::Csv).unwrap_err().0;
    assert!(
        error.contains("line 2") && error.contains("2 columns"),
        "{error}"
    );
    let header = "id,text\r\n";
    assert!(
        read(header.as_bytes(), Format::Csv)
            .unwrap_err()
            .0
            .contains("line 1")
    );
    let xml = "<?xml version=\"1.0\"?>\n<resources>\n  <string name=\"a-b\">x</string>\n  <string name=\"c-d\">y\n</resources>";
    let error = read(xml.as_bytes(), Format::Xml).unwrap_err().0;
    assert!(error.contains("5:"), "the parser names the line: {error}");
    let keyless = "<resources>\n<string name=\"nokey\">x</string></resources>";
    assert!(
        read(keyless.as_bytes(), Format::Xml)
            .unwrap_err()
            .0
            .contains("line 2")
    );
    assert!(read(b"not a zip", Format::Xlsx).is_err());
    assert!(Format::of(Path::new("strings.txt")).is_err());
    assert_eq!(Format::of(Path::new("de.XLSX")).unwrap(), Format::Xlsx);
}
