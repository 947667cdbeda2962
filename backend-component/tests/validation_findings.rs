//! Validation findings as a FairyGUI user meets them, on copies of the real corpora and
//! small generated projects: each finding names the real problem, and no advice removes or
//! replaces a file that exists and is valid.

use std::path::Path;

use ofgui_backend::fs::StdFs;
use ofgui_backend::reader::{ProjectSource, read_project};
use ofgui_backend::testing::{assert_articles, copy_tree, experiments_root, unity_root};
use ofgui_backend::validate::{self, Input};
use ofgui_contracts::api::{ValidationReport, ValidationStatus};
use ofgui_contracts::diagnostics::{ProjectDiagnostic, ProjectDiagnosticCode as Code, Severity};

const UNITY_FAIRY: &str = "FairyGUI-Unity-Examples.fairy";
const EXPERIMENTS_FAIRY: &str = "FairyGUI-Experiments.fairy";

/// A writable copy of a corpus project.
fn copy_of(root: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_tree(root, dir.path()).expect("copy corpus");
    dir
}

fn read(root: &Path, fairy: &str) -> ProjectSource {
    read_project(&StdFs::new(root), fairy).expect("project reads")
}

/// The report, after checking that no message misplaces an article ("a image").
fn validated(source: &ProjectSource) -> ValidationReport {
    let report = validate::validate(&Input {
        project: &source.project,
        bytes: &source.bytes,
        read_diagnostics: &source.diagnostics,
        read_complete: source.complete,
    });
    assert_articles(report.diagnostics.iter().map(|d| d.message.as_str()));
    report
}

fn with_code(report: &ValidationReport, code: Code) -> Vec<&ProjectDiagnostic> {
    report
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .collect()
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).expect("read");
    assert!(text.contains(from), "{} lacks {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).expect("write");
}

#[test]
fn demo_project_types_open_with_their_type_and_validate_without_a_type_finding() {
    let original = validated(&read(&experiments_root(), EXPERIMENTS_FAIRY));
    assert_eq!(original.status, ValidationStatus::Valid);
    for name in ["Cocos2dx", "ThreeJS", "Corona", "DOM", "Cry"] {
        let copy = copy_of(&experiments_root());
        edit(
            &copy.path().join(EXPERIMENTS_FAIRY),
            r#"type="Unity""#,
            &format!(r#"type="{name}""#),
        );
        let source = read(copy.path(), EXPERIMENTS_FAIRY);
        assert_eq!(source.project.project_type_name, name);
        assert_ne!(source.project.project_type, 0, "{name} is not Unity");
        let report = validated(&source);
        assert_eq!(report, original, "{name}");
    }
    // An unknown type is a warning, kept as written: the project stays valid.
    let copy = copy_of(&experiments_root());
    edit(
        &copy.path().join(EXPERIMENTS_FAIRY),
        r#"type="Unity""#,
        r#"type="Godot""#,
    );
    let source = read(copy.path(), EXPERIMENTS_FAIRY);
    let report = validated(&source);
    assert_eq!(report.status, ValidationStatus::Valid);
    let found = with_code(&report, Code::InvalidProjectValue);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].severity, Severity::Warning);
    assert_eq!(source.project.project_type_name, "Godot");
    assert_eq!(source.project.project_type, -1);
}

/// Advice that would lose a file: removing the resource or replacing its file.
fn advises_removal(message: &str) -> bool {
    let lower = message.to_lowercase();
    lower.contains("remove") || lower.contains("replace") || lower.contains("restore")
}

#[test]
fn a_case_only_mismatch_is_read_and_names_the_file_and_advises_renaming() {
    let copy = copy_of(&unity_root());
    let bag = copy.path().join("assets/Bag");
    std::fs::rename(bag.join("images"), bag.join("Images")).expect("rename folder");
    std::fs::rename(bag.join("BagWin.xml"), bag.join("bagwin.xml")).expect("rename file");
    let source = read(copy.path(), UNITY_FAIRY);
    let report = validated(&source);
    // Read from there, as the editor on Windows or macOS does: a warning, nothing missing.
    assert!(with_code(&report, Code::MissingSource).is_empty());
    let mismatched = with_code(&report, Code::SourceCaseMismatch);
    assert!(mismatched.len() > 10, "{mismatched:#?}");
    for finding in &mismatched {
        assert_eq!(finding.severity, Severity::Warning);
        let declared = finding.source_path.as_deref().expect("file");
        let (actual, fix) = if declared == "assets/Bag/BagWin.xml" {
            (
                "assets/Bag/bagwin.xml".to_owned(),
                "rename the file assets/Bag/bagwin.xml to BagWin.xml",
            )
        } else {
            (
                declared.replace("/images/", "/Images/"),
                "rename the folder assets/Bag/Images to images",
            )
        };
        assert!(
            finding.message.contains(&format!("read from {actual}")),
            "{finding:#?}"
        );
        assert!(finding.message.contains(fix), "{}", finding.message);
        assert!(!advises_removal(&finding.message), "{}", finding.message);
        assert!(source.bytes.contains_key(declared) || declared.ends_with(".xml"));
    }
    assert!(
        mismatched
            .iter()
            .any(|d| d.resource_id.as_deref() == Some("kcy10"))
    );

    // A package.xml with other letter case: the package is named, not silently skipped.
    let copy = copy_of(&unity_root());
    let bag = copy.path().join("assets/Bag");
    std::fs::rename(bag.join("package.xml"), bag.join("Package.xml")).expect("rename");
    let report = validated(&read(copy.path(), UNITY_FAIRY));
    let missing = with_code(&report, Code::MissingSource);
    assert_eq!(missing.len(), 1, "{missing:#?}");
    assert!(missing[0].message.contains("assets/Bag/Package.xml does"));
    assert_eq!(
        missing[0].source_path.as_deref(),
        Some("assets/Bag/package.xml")
    );

    // A file that is really gone still says so.
    let copy = copy_of(&unity_root());
    std::fs::remove_file(copy.path().join("assets/Bag/images/0.png")).expect("remove");
    let report = validated(&read(copy.path(), UNITY_FAIRY));
    let missing = with_code(&report, Code::MissingSource);
    assert_eq!(missing.len(), 1);
    assert_eq!(
        missing[0].message,
        "declared file assets/Bag/images/0.png does not exist"
    );
}

#[test]
fn an_exact_duplicate_entry_is_one_entry_to_delete() {
    let copy = copy_of(&unity_root());
    let entry = r#"<image id="dwwc5" name="0.png" path="/images/"/>"#;
    edit(
        &copy.path().join("assets/Bag/package.xml"),
        entry,
        &format!("{entry}\n    {entry}"),
    );
    let report = validated(&read(copy.path(), UNITY_FAIRY));
    assert!(
        with_code(&report, Code::PathCollision).is_empty(),
        "{report:#?}"
    );
    let duplicates = with_code(&report, Code::DuplicateResourceId);
    assert_eq!(duplicates.len(), 1);
    assert!(
        duplicates[0].message.contains("delete the repeated entry"),
        "{}",
        duplicates[0].message
    );
    assert!(duplicates[0].message.contains("the file stays"));

    // Two different resources on one file, and two on files differing in case, collide.
    let copy = copy_of(&unity_root());
    edit(
        &copy.path().join("assets/Bag/package.xml"),
        entry,
        &format!(
            "{entry}\n    <image id=\"same1\" name=\"0.png\" path=\"/images/\"/>\n    <image id=\"case1\" name=\"0.PNG\" path=\"/images/\"/>"
        ),
    );
    std::fs::copy(
        copy.path().join("assets/Bag/images/0.png"),
        copy.path().join("assets/Bag/images/0.PNG"),
    )
    .expect("copy");
    let report = validated(&read(copy.path(), UNITY_FAIRY));
    let collisions = with_code(&report, Code::PathCollision);
    assert_eq!(collisions.len(), 2, "{collisions:#?}");
    assert!(
        collisions
            .iter()
            .any(|d| d.message.contains("both use the file"))
    );
    assert!(
        collisions
            .iter()
            .any(|d| d.message.contains("differ only in letter case"))
    );
    assert!(with_code(&report, Code::DuplicateResourceId).is_empty());
}

const LFS_POINTER: &str = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 52311\n";

#[test]
fn git_lfs_pointers_are_named_for_every_asset_kind() {
    let copy = copy_of(&experiments_root());
    let files = [
        "assets/Branch/face.png",
        "assets/Loader/images/dragon_ske.json",
        "assets/Loader/images/dragon_tex.json",
        "assets/Loader/images/alien-pro.skel",
    ];
    for file in files {
        std::fs::write(copy.path().join(file), LFS_POINTER).expect("write pointer");
    }
    let report = validated(&read(copy.path(), EXPERIMENTS_FAIRY));
    assert_eq!(report.status, ValidationStatus::Invalid);
    let corrupt = with_code(&report, Code::CorruptSource);
    let named: Vec<&str> = corrupt
        .iter()
        .filter_map(|d| d.source_path.as_deref())
        .collect();
    for file in files {
        assert!(named.contains(&file), "{file}: {corrupt:#?}");
    }
    for finding in corrupt {
        assert!(
            finding.message.contains("Git LFS pointer"),
            "{}",
            finding.message
        );
        assert!(
            finding.message.contains("`git lfs pull`"),
            "{}",
            finding.message
        );
    }

    let copy = copy_of(&unity_root());
    let files = [
        "assets/Basics/sound/tabswitch.wav",
        "assets/Basics/font/HitNumber.fnt",
        "assets/Bag/images/quan.jta",
    ];
    for file in files {
        std::fs::write(copy.path().join(file), LFS_POINTER).expect("write pointer");
    }
    let report = validated(&read(copy.path(), UNITY_FAIRY));
    let pointers: Vec<&str> = with_code(&report, Code::CorruptSource)
        .into_iter()
        .filter(|d| d.message.contains("Git LFS pointer"))
        .filter_map(|d| d.source_path.as_deref())
        .collect();
    assert_eq!(pointers.len(), files.len(), "{pointers:?}");

    // XML the reader parses says so too, rather than only that the XML is broken.
    let copy = copy_of(&experiments_root());
    std::fs::write(copy.path().join("assets/Branch/Main.xml"), LFS_POINTER).expect("write");
    std::fs::write(copy.path().join("assets/Loader/package.xml"), LFS_POINTER).expect("write");
    let report = validated(&read(copy.path(), EXPERIMENTS_FAIRY));
    for code in [Code::InvalidComponentXml, Code::InvalidPackageXml] {
        let found = with_code(&report, code);
        assert_eq!(found.len(), 1, "{code:?}: {report:#?}");
        assert!(
            found[0].message.contains("Git LFS pointer"),
            "{}",
            found[0].message
        );
    }
}

/// Adds image `svg1` with `file` as `assets/Branch/icon.svg` to a copy of the experiments.
fn with_svg(svg: &str) -> tempfile::TempDir {
    let copy = copy_of(&experiments_root());
    edit(
        &copy.path().join("assets/Branch/package.xml"),
        "  </resources>",
        "    <image id=\"svg1\" name=\"icon.svg\" path=\"/\"/>\n  </resources>",
    );
    std::fs::write(copy.path().join("assets/Branch/icon.svg"), svg).expect("write svg");
    copy
}

#[test]
fn valid_svgs_are_never_corrupt() {
    // Styled, commented, namespaced: passes.
    let styled = r##"<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">
  <!-- exported -->
  <style><![CDATA[ .a { fill: #336699 } ]]></style>
  <defs><path id="p" d="M0 0h10v10z"/></defs>
  <use xlink:href="#p" class="a" style="fill:#ff0000;stroke:none"/>
</svg>"##;
    let copy = with_svg(styled);
    let report = validated(&read(copy.path(), EXPERIMENTS_FAIRY));
    assert_eq!(report.status, ValidationStatus::Valid, "{report:#?}");

    // A standard DOCTYPE: not read, for safety; reported unchecked, never corrupt.
    let doctype = r#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>"#;
    let copy = with_svg(doctype);
    let report = validated(&read(copy.path(), EXPERIMENTS_FAIRY));
    assert!(
        with_code(&report, Code::CorruptSource).is_empty(),
        "{report:#?}"
    );
    assert_eq!(report.status, ValidationStatus::Incomplete);
    let unchecked = with_code(&report, Code::DecodeCapabilityUnavailable);
    assert_eq!(unchecked.len(), 1);
    assert_eq!(unchecked[0].severity, Severity::Warning);
    assert_eq!(unchecked[0].resource_id.as_deref(), Some("svg1"));
    assert!(
        unchecked[0].message.contains("DTD"),
        "{}",
        unchecked[0].message
    );
    assert!(unchecked[0].message.contains("not checked"));
    assert!(!advises_removal(&unchecked[0].message));

    // A file that is not an SVG at all is still corrupt.
    let copy = with_svg("<svg xmlns=\"http://www.w3.org/2000/svg\"><g></svg>");
    let report = validated(&read(copy.path(), EXPERIMENTS_FAIRY));
    assert_eq!(with_code(&report, Code::CorruptSource).len(), 1);
}

#[test]
fn values_the_editor_writes_and_tolerates_are_warnings() {
    let copy = copy_of(&unity_root());
    let list = copy.path().join("assets/TreeView/Main.xml");
    edit(&list, r#"level="0""#, r#"level="undefined""#);
    let report = validated(&read(copy.path(), UNITY_FAIRY));
    let values = with_code(&report, Code::InvalidProjectValue);
    assert_eq!(values.len(), 1, "{values:#?}");
    assert_eq!(values[0].severity, Severity::Warning);
    assert!(values[0].path.ends_with(".level"), "{}", values[0].path);
    assert!(values[0].message.contains("unset value"));
    // The status is what it was: the one real dangling reference.
    let original = validated(&read(&unity_root(), UNITY_FAIRY));
    assert_eq!(report.status, original.status);
    assert_eq!(
        report
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count(),
        original
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    );

    // A value that is simply wrong stays an error.
    let copy = copy_of(&unity_root());
    let list = copy.path().join("assets/TreeView/Main.xml");
    edit(&list, r#"level="0""#, r#"level="deep""#);
    let report = validated(&read(copy.path(), UNITY_FAIRY));
    let values = with_code(&report, Code::InvalidProjectValue);
    assert_eq!(values.len(), 1);
    assert_eq!(values[0].severity, Severity::Error);
}

#[test]
fn reference_messages_name_kinds_with_articles_and_packages_with_names() {
    let report = validated(&read(&unity_root(), UNITY_FAIRY));
    let dangling = with_code(&report, Code::DanglingResourceReference);
    assert_eq!(dangling.len(), 1);
    assert!(
        dangling[0]
            .message
            .contains("resource zis77 of package ezq9a8mh (HitTest)"),
        "{}",
        dangling[0].message
    );

    // A loader showing a sound: kinds read "a sound", "an image".
    let copy = copy_of(&unity_root());
    edit(
        &copy.path().join("assets/HitTest/component1.xml"),
        r#"src="zis77""#,
        r#"src="gojg7u" pkg="9leh0eyf""#,
    );
    let report = validated(&read(copy.path(), UNITY_FAIRY));
    let dangling = with_code(&report, Code::DanglingResourceReference);
    assert_eq!(dangling.len(), 1);
    // Named by the node or not, the package reads the same way.
    assert!(
        dangling[0].message.contains(
            "resource gojg7u of package 9leh0eyf (Basics), which is a sound, not an image."
        ),
        "{}",
        dangling[0].message
    );
    assert!(
        !report
            .diagnostics
            .iter()
            .any(|d| d.message.contains(" a image"))
    );
}

/// What docs/cli.md says of the corpora: the Unity examples are invalid for one real
/// dangling reference (plus six warnings), the experiments are valid and complete with two
/// warnings (their settings name the Unity examples' default scroll bars).
#[test]
fn the_corpora_report_what_the_readme_says() {
    let unity = validated(&read(&unity_root(), UNITY_FAIRY));
    assert_eq!(unity.status, ValidationStatus::Invalid);
    let count = |severity| {
        unity
            .diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    };
    assert_eq!((count(Severity::Error), count(Severity::Warning)), (1, 6));
    let experiments = validated(&read(&experiments_root(), EXPERIMENTS_FAIRY));
    assert_eq!(experiments.status, ValidationStatus::Valid);
    assert!(experiments.complete);
    assert_eq!(
        experiments.diagnostics.len(),
        2,
        "{:?}",
        experiments.diagnostics
    );
    assert!(
        experiments
            .diagnostics
            .iter()
            .all(|d| d.severity == Severity::Warning && d.message.contains("scroll"))
    );
}

/// The bundled example, as a writable copy.
fn example_copy() -> tempfile::TempDir {
    copy_of(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/HelloFairy"
    )))
}

#[test]
fn gear_messages_name_kinds_with_their_article() {
    let copy = example_copy();
    edit(
        &copy.path().join("assets/Main/MainView.xml"),
        r#"<relation target="" sidePair="width-width,height-height"/>"#,
        r#"<relation target="" sidePair="width-width,height-height"/>
      <gearAni controller="state" pages="1" values="0,p"/>
      <gearText controller="state" pages="1" values="x"/>
      <gearXY controller="mode" pages="1" values="1,1"/>"#,
    );
    let report = validated(&read(copy.path(), "HelloFairy.fairy"));
    let messages: Vec<&str> = with_code(&report, Code::InvalidUam)
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    for phrase in [
        "has an animation gear, which an image node cannot take",
        "has a text gear, but an image node has no text to set",
        "has an xy gear for controller \"mode\", which does not exist",
    ] {
        assert!(
            messages.iter().any(|m| m.contains(phrase)),
            "{phrase}: {messages:#?}"
        );
    }
}

#[test]
fn a_settings_file_with_other_letter_case_is_named_and_renaming_advised() {
    let copy = copy_of(&experiments_root());
    let settings = copy.path().join("settings");
    std::fs::rename(settings.join("Publish.json"), settings.join("publish.json")).expect("rename");
    let source = read(copy.path(), EXPERIMENTS_FAIRY);
    assert!(!source.project.settings.contains_key("publish"));
    let report = validated(&source);
    let missing = with_code(&report, Code::MissingSource);
    assert_eq!(missing.len(), 1, "{missing:#?}");
    let finding = missing[0];
    assert_eq!(finding.path, "settings.publish");
    assert_eq!(
        finding.source_path.as_deref(),
        Some("settings/Publish.json")
    );
    assert!(
        finding.message.contains("but settings/publish.json does")
            && finding
                .message
                .contains("rename settings/publish.json to settings/Publish.json"),
        "{}",
        finding.message
    );
    assert!(!advises_removal(&finding.message), "{}", finding.message);

    // An absent settings file is simply unset.
    std::fs::remove_file(settings.join("publish.json")).expect("remove");
    let report = validated(&read(copy.path(), EXPERIMENTS_FAIRY));
    assert!(with_code(&report, Code::MissingSource).is_empty());
}

/// A value the reader cannot take is reported where it is, never silently read as a
/// default: a folder flag, an image's nine-grid, a flag that picks a node's kind, a part
/// of a gear value.
#[test]
fn values_read_as_defaults_are_always_reported() {
    let copy = example_copy();
    let package = copy.path().join("assets/Main/package.xml");
    edit(
        &package,
        "<resources>",
        r#"<resources>
    <folder id="/images/" name="images" path="/" favorite="yes"/>"#,
    );
    edit(
        &package,
        r#"scale9grid="8,8,48,16""#,
        r#"scale9grid="8,8,48""#,
    );
    let view = copy.path().join("assets/Main/MainView.xml");
    edit(&view, r#"values="40,56""#, r#"values="40,high""#);
    edit(
        &view,
        r#"<text id="n1_view""#,
        r#"<text input="maybe" id="n1_view""#,
    );
    let report = validated(&read(copy.path(), "HelloFairy.fairy"));
    let values = with_code(&report, Code::InvalidProjectValue);
    let paths: Vec<&str> = values.iter().map(|d| d.path.as_str()).collect();
    assert_eq!(values.len(), 4, "{values:#?}");
    assert!(values.iter().all(|d| d.severity == Severity::Error));
    assert!(paths.iter().any(|p| p.ends_with(".folders")), "{paths:?}");
    assert!(
        paths.iter().any(|p| p.ends_with(".scale9grid")),
        "{paths:?}"
    );
    assert!(
        paths
            .iter()
            .any(|p| p.ends_with(".displayList[1].gears[0].states[0].value")),
        "{paths:?}"
    );
    assert!(
        paths.iter().any(|p| p.ends_with(".displayList[1].input")),
        "{paths:?}"
    );
}
