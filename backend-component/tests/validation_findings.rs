//! Validation findings as a FairyGUI user meets them, on copies of the real corpora and
//! small generated projects: each finding names the real problem, and no advice removes or
//! replaces a file that exists and is valid.

use std::path::Path;

use ofgui_backend::fs::StdFs;
use ofgui_backend::reader::{ProjectSource, read_project};
use ofgui_backend::testing::{copy_tree, experiments_root};
use ofgui_backend::validate::{self, Input};
use ofgui_contracts::api::{ValidationReport, ValidationStatus};
use ofgui_contracts::diagnostics::{ProjectDiagnostic, ProjectDiagnosticCode as Code, Severity};

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

fn report(source: &ProjectSource) -> ValidationReport {
    validate::validate(&Input {
        project: &source.project,
        bytes: &source.bytes,
        read_diagnostics: &source.diagnostics,
        read_complete: source.complete,
    })
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
    let original = report(&read(&experiments_root(), EXPERIMENTS_FAIRY));
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
        let report = report(&source);
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
    let report = report(&source);
    assert_eq!(report.status, ValidationStatus::Valid);
    let found = with_code(&report, Code::InvalidProjectValue);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].severity, Severity::Warning);
    assert_eq!(source.project.project_type_name, "Godot");
    assert_eq!(source.project.project_type, -1);
}
