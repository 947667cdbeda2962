use std::process::{Command, Output};

use serde_json::Value;

use crate::harness::*;

fn validate(arguments: &[&str]) -> Output {
    warm_compile_cache();
    Command::new(env!("CARGO_BIN_EXE_ofgui-mcp-host"))
        .arg("--cache-dir")
        .arg(cache_dir())
        .arg("validate")
        .args(arguments)
        .output()
        .expect("run ofgui-mcp-host validate")
}

#[test]
fn validate_exit_codes_and_output() {
    let workspace = Workspace::new();
    let example = workspace.add("example", &example_project());
    let unity = workspace.add("unity", &unity_corpus());

    let output = validate(&[example.to_str().unwrap()]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("valid (complete; 0 errors, 0 warnings)")
    );

    let output = validate(&[unity
        .join("FairyGUI-Unity-Examples.fairy")
        .to_str()
        .unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("invalid"), "{text}");
    assert!(
        text.contains("dangling_resource_reference")
            && text.contains("assets/HitTest/component1.xml"),
        "{text}"
    );

    let output = validate(&["--json", unity.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON report");
    assert_eq!(report["status"], "invalid");

    let gif = workspace.add("gif", &example_project());
    let package = gif.join("assets/Main/package.xml");
    let text = std::fs::read_to_string(&package).unwrap().replacen(
        "<component id=\"view0\"",
        "<image id=\"gif0\" name=\"anim.gif\" path=\"/images/\"/>\n    <component id=\"view0\"",
        1,
    );
    std::fs::write(&package, text).unwrap();
    std::fs::write(
        gif.join("assets/Main/images/anim.gif"),
        b"GIF89a\x01\x00\x01\x00\x00\x00\x00;",
    )
    .unwrap();
    assert_eq!(validate(&[gif.to_str().unwrap()]).status.code(), Some(3));

    let output = validate(&[workspace.path().join("nowhere").to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(!String::from_utf8_lossy(&output.stderr).is_empty());
    assert_eq!(
        validate(&[]).status.code(),
        Some(2),
        "a missing argument is a bad argument"
    );
    assert_eq!(
        validate(&["--bogus", example.to_str().unwrap()])
            .status
            .code(),
        Some(2)
    );
}
