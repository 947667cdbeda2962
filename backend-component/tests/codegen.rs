//! Binding code generation (`ofgui_backend::codegen`) on the real corpora: the C# of the
//! unity examples compiles with Mono's `mcs`, and the TypeScript of the same model switched
//! to web engines (and of the experiments project) type-checks with `tsc`, both against the
//! minimal runtime stubs in `tests/codegen/stubs/`; the classes, members and their types are
//! those the editor's rules give (`backend-component/src/codegen/RULES.md`), checked by hand
//! against the corpus XML.
//!
//! A missing compiler fails the test with the command that installs it; nothing is skipped.
//! `CODEGEN_OUT_DIR=<dir>` keeps the generated trees there, to read them.

// Test helpers may unwrap: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use ofgui_backend::codegen::{CodegenError, GeneratedCode, WarningKind, generate};
use ofgui_backend::fs::StdFs;
use ofgui_backend::reader::read_project;
use ofgui_backend::testing::{experiments_root, unity_root};
use ofgui_contracts::uam::UamProject;
use serde_json::{Value, json};

fn read(root: &Path) -> UamProject {
    let fairy = std::fs::read_dir(root)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .find(|name| name.ends_with(".fairy"))
        .unwrap();
    read_project(&StdFs::new(root.to_path_buf()), &fairy)
        .unwrap()
        .project
}

/// The project with code generation on for every package: `codeGeneration` gets `options`
/// over what the project's file says, and every package `genCode="true"`.
fn with_codegen(mut project: UamProject, options: Value) -> UamProject {
    let publish = project
        .settings
        .entry("publish")
        .or_insert_with(|| json!({}));
    let block = publish
        .as_object_mut()
        .unwrap()
        .entry("codeGeneration")
        .or_insert_with(|| json!({}));
    for (key, value) in options.as_object().unwrap() {
        block
            .as_object_mut()
            .unwrap()
            .insert(key.clone(), value.clone());
    }
    for package in &mut project.packages {
        if let Some(publish) = Arc::make_mut(package).publish.as_mut() {
            publish.gen_code = true;
        }
    }
    project
}

fn as_type(mut project: UamProject, name: &str, number: i32) -> UamProject {
    project.project_type_name = name.to_owned();
    project.project_type = number;
    project
}

fn all_packages(project: &UamProject) -> Vec<&str> {
    project.packages.iter().map(|p| p.id.as_str()).collect()
}

/// Writes the files under a fresh directory (or `$CODEGEN_OUT_DIR/<label>`), each at its
/// code directory's place, and returns it with the paths written.
fn write_tree(code: &GeneratedCode, label: &str) -> (tempfile::TempDir, PathBuf, Vec<PathBuf>) {
    let temp = tempfile::tempdir().unwrap();
    let root = match std::env::var_os("CODEGEN_OUT_DIR") {
        Some(dir) => PathBuf::from(dir).join(label),
        None => temp.path().join(label),
    };
    let _ = std::fs::remove_dir_all(&root);
    let mut written = Vec::new();
    for file in &code.files {
        // Code directories climb out of the project (`../Generated`): keep their last part.
        let dir = file.code_dir.trim_start_matches("../");
        let path = root.join(dir).join(&file.path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &file.text).unwrap();
        written.push(path);
    }
    (temp, root, written)
}

fn stubs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/codegen/stubs")
}

fn mcs() -> PathBuf {
    which("mcs").unwrap_or_else(|| {
        panic!(
            "Mono's C# compiler `mcs` is not on PATH, and the generated C# must compile: \
             apt-get install -y --no-install-recommends mono-mcs (tests/run installs it)"
        )
    })
}

fn tsc() -> PathBuf {
    let tsc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/clients/node_modules/.bin/tsc");
    assert!(
        tsc.exists(),
        "TypeScript's `tsc` is not installed at {}, and the generated TypeScript must type-check: \
         run tests/clients/install.sh (npm ci installs typescript from tests/clients/package.json)",
        tsc.display()
    );
    tsc
}

fn node() -> PathBuf {
    which("node").unwrap_or_else(|| {
        panic!("`node` is not on PATH, and tsc runs on it: install Node.js (with npm)")
    })
}

fn which(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|dir| Path::new(dir).join(program))
        .find(|path| path.is_file())
}

/// Compiles the C# files with the stubs into a library; panics with mcs's output on errors.
fn compile_csharp(root: &Path, files: &[PathBuf]) {
    let out = root.join("generated.dll");
    let output = Command::new(mcs())
        .arg("-target:library")
        .arg(format!("-out:{}", out.display()))
        .arg("-warnaserror+")
        .arg(stubs().join("FairyGUI.cs"))
        .args(files)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "mcs failed on the generated C# in {}:\n{}{}",
        root.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Type-checks the TypeScript files against the stub runtime: as a global namespace, or as
/// the module `module` when the engine imports it.
fn type_check(root: &Path, files: &[PathBuf], module: Option<&str>) {
    let stub = std::fs::read_to_string(stubs().join("fgui.d.ts")).unwrap();
    let stub = match module {
        Some(module) => stub.replace(
            "declare namespace fgui {",
            &format!("declare module {module:?} {{"),
        ),
        None => stub,
    };
    std::fs::write(root.join("fgui.d.ts"), stub).unwrap();
    let mut all: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    all.push(root.join("fgui.d.ts").display().to_string());
    let config = json!({
        "compilerOptions": {
            "strict": true,
            "noEmit": true,
            "target": "es2017",
            "module": "esnext",
            "moduleResolution": "bundler",
            "skipLibCheck": false,
            "types": []
        },
        "files": all
    });
    std::fs::write(root.join("tsconfig.json"), config.to_string()).unwrap();
    let output = Command::new(node())
        .arg(tsc())
        .arg("-p")
        .arg(root.join("tsconfig.json"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "tsc failed on the generated TypeScript in {}:\n{}{}",
        root.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The text of the generated file whose path ends with `suffix`.
fn file<'c>(code: &'c GeneratedCode, suffix: &str) -> &'c str {
    let found: Vec<_> = code
        .files
        .iter()
        .filter(|f| f.path.ends_with(suffix))
        .collect();
    assert_eq!(
        found.len(),
        1,
        "{suffix}: {:?}",
        code.files.iter().map(|f| &f.path).collect::<Vec<_>>()
    );
    &found[0].text
}

fn paths(code: &GeneratedCode, folder: &str) -> Vec<String> {
    code.files
        .iter()
        .filter_map(|f| {
            f.path
                .strip_prefix(&format!("{folder}/"))
                .map(str::to_owned)
        })
        .collect()
}

fn package_id<'p>(project: &'p UamProject, name: &str) -> &'p str {
    &project.packages.iter().find(|p| p.name == name).unwrap().id
}

fn resource_id<'p>(project: &'p UamProject, package: &str, name: &str) -> &'p str {
    let package = project.packages.iter().find(|p| p.name == package).unwrap();
    package
        .resources
        .iter()
        .find(|r| r.name() == name)
        .unwrap()
        .id()
}

/// The unity examples as their Publish.json has it (no prefixes, ignoreNoname, by index),
/// with a code path.
fn unity_project() -> UamProject {
    with_codegen(read(&unity_root()), json!({ "codePath": "../Generated" }))
}

#[test]
fn unity_csharp_compiles_and_follows_the_editors_rules() {
    let project = unity_project();
    let code = generate(&project, &all_packages(&project)).unwrap();
    let (_temp, root, files) = write_tree(&code, "unity-cs");
    compile_csharp(&root, &files);
    // What the corpus names that code cannot spell as is, read off its XML: `&` in
    // Basics' Demo_Drag&Drop and two of Main's buttons, PopupMenuItem's controller
    // `checked` (a C# keyword), GoodHit's child and transition both named `t0`, and the
    // package Transition, whose namespace would hide the runtime's Transition class.
    let warned: Vec<(WarningKind, &str)> = code
        .warnings
        .iter()
        .map(|w| (w.kind, w.resource_id.as_deref().unwrap_or(&w.package_id)))
        .collect();
    let transition = package_id(&project, "Transition");
    let basics_main = resource_id(&project, "Basics", "Main");
    assert_eq!(
        warned,
        [
            (
                WarningKind::ClassRenamed,
                resource_id(&project, "Basics", "Demo_Drag&Drop")
            ),
            (
                WarningKind::MemberRenamed,
                resource_id(&project, "Basics", "PopupMenuItem")
            ),
            (WarningKind::MemberRenamed, basics_main),
            (WarningKind::MemberRenamed, basics_main),
            (WarningKind::FolderRenamed, transition),
            (
                WarningKind::MemberRenamed,
                resource_id(&project, "Transition", "GoodHit")
            ),
        ],
        "{:#?}",
        code.warnings
    );
    let good_hit = file(&code, "Transition_2/GoodHit.cs");
    assert!(
        good_hit.contains("t0 = (GTextField)GetChildAt(2);"),
        "{good_hit}"
    );
    assert!(
        good_hit.contains("t0_2 = GetTransitionAt(0);"),
        "{good_hit}"
    );
    assert!(file(&code, "Basics/PopupMenuItem.cs").contains("checked_2 = GetControllerAt(1);"));
    // One binder per package, 30 packages.
    assert_eq!(
        code.files
            .iter()
            .filter(|f| f.path.ends_with("Binder.cs"))
            .count(),
        30
    );
    assert!(code.files.iter().all(|f| f.code_dir == "../Generated"));

    // Bag, read off its XML: BagGridSub, BagButton and dot are Buttons with only their own
    // parts (button, title, icon) and default names, so they have no class; CloseButton
    // keeps its second controller `c1` (controllers' default names stay).
    assert_eq!(
        paths(&code, "Bag"),
        [
            "WindowFrame.cs",
            "CloseButton.cs",
            "Main.cs",
            "BagWin.cs",
            "BagBinder.cs"
        ]
    );
    let bag_win = file(&code, "Bag/BagWin.cs");
    assert!(bag_win.contains("namespace Bag\n"), "{bag_win}");
    assert!(
        bag_win.contains("public partial class BagWin : GComponent"),
        "{bag_win}"
    );
    assert!(bag_win.contains("public Controller page;"), "{bag_win}");
    assert!(bag_win.contains("public WindowFrame frame;"), "{bag_win}");
    assert!(bag_win.contains("public GList list;"), "{bag_win}");
    assert!(
        bag_win.contains("public const string URL = \"ui://rbw1tv9tkcy10\";"),
        "{bag_win}"
    );
    assert!(bag_win.contains("return (BagWin)UIPackage.CreateObject(\"Bag\", \"BagWin\");"));
    assert!(bag_win.contains("page = GetControllerAt(0);"));
    assert!(bag_win.contains("frame = (WindowFrame)GetChildAt(0);"));
    assert!(bag_win.contains("list = (GList)GetChildAt(1);"));
    assert!(
        !bag_win.contains(" n9"),
        "default names are left out: {bag_win}"
    );
    let frame = file(&code, "Bag/WindowFrame.cs");
    assert!(
        frame.contains("public partial class WindowFrame : GLabel"),
        "{frame}"
    );
    assert!(
        frame.contains("dragArea = (GGraph)GetChildAt(1);"),
        "{frame}"
    );
    assert!(
        frame.contains("closeButton = (CloseButton)GetChildAt(3);"),
        "{frame}"
    );
    assert!(
        !frame.contains("title"),
        "a Label's title is its own part: {frame}"
    );
    let close = file(&code, "Bag/CloseButton.cs");
    assert!(
        close.contains("public partial class CloseButton : GButton"),
        "{close}"
    );
    assert!(close.contains("c1 = GetControllerAt(1);"), "{close}");
    assert!(
        !close.contains("button"),
        "a Button's controller is its own part: {close}"
    );
    // Main's bagBtn shows BagButton, which has no class: it is a GButton.
    assert!(file(&code, "Bag/Main.cs").contains("bagBtn = (GButton)GetChildAt(0);"));
    let binder = file(&code, "Bag/BagBinder.cs");
    let registered: Vec<&str> = binder
        .lines()
        .filter_map(|l| {
            l.trim()
                .strip_prefix("UIObjectFactory.SetPackageItemExtension(")
        })
        .filter_map(|l| l.split('.').next())
        .collect();
    assert_eq!(registered, ["WindowFrame", "CloseButton", "Main", "BagWin"]);
}

#[test]
fn unity_typescript_type_checks_for_a_global_and_a_module_runtime() {
    let laya = as_type(unity_project(), "Layabox", 4);
    let code = generate(&laya, &all_packages(&laya)).unwrap();
    let (_temp, root, files) = write_tree(&code, "unity-laya");
    type_check(&root, &files, None);
    let bag_win = file(&code, "Bag/BagWin.ts");
    assert!(
        bag_win.contains("import WindowFrame from \"./WindowFrame\";"),
        "{bag_win}"
    );
    assert!(bag_win.contains("export default class BagWin extends fgui.GComponent {"));
    assert!(bag_win.contains("public frame!: WindowFrame;"), "{bag_win}");
    assert!(
        bag_win.contains("this.list = <fgui.GList>(this.getChildAt(1));"),
        "{bag_win}"
    );
    assert!(
        bag_win.contains("this.page = this.getControllerAt(0);"),
        "{bag_win}"
    );
    assert!(
        !bag_win.contains("import * as fgui"),
        "Laya's runtime is a global: {bag_win}"
    );
    // TypeScript has no namespaces to hide the runtime's classes: the folder keeps its name.
    assert!(file(&code, "Transition/GoodHit.ts").contains("this.t0_2 = this.getTransitionAt(0);"));
    assert!(
        !code
            .warnings
            .iter()
            .any(|w| w.kind == WarningKind::FolderRenamed)
    );
    assert!(
        file(&code, "Bag/BagBinder.ts")
            .contains("fgui.UIObjectFactory.setExtension(BagWin.URL, BagWin);")
    );

    let cocos = as_type(unity_project(), "CocosCreator", 3);
    let code = generate(&cocos, &all_packages(&cocos)).unwrap();
    let (_temp, root, files) = write_tree(&code, "unity-cocos");
    type_check(&root, &files, Some("fairygui-cc"));
    assert!(file(&code, "Bag/BagWin.ts").starts_with(
        "// Generated by ofgui from the FairyGUI project. Do not edit: publishing again rewrites it.\n\nimport * as fgui from \"fairygui-cc\";\n"
    ));
}

#[test]
fn experiments_with_prefixes_and_binding_by_name() {
    // Its children all have default names: keep them, to bind something by name.
    let options = json!({
        "codePath": "../Generated",
        "classNamePrefix": "UI_",
        "memberNamePrefix": "m_",
        "packageName": "Game.UI",
        "getMemberByName": true,
        "ignoreNoname": false,
    });
    let project = with_codegen(read(&experiments_root()), options.clone());
    let code = generate(&project, &all_packages(&project)).unwrap();
    let (_temp, root, files) = write_tree(&code, "experiments-cs");
    compile_csharp(&root, &files);
    assert_eq!(paths(&code, "Loader"), ["UI_Main.cs", "LoaderBinder.cs"]);
    // The branch's variant of Branch/Main replaces it at run time: one class.
    assert_eq!(paths(&code, "Branch"), ["UI_Main.cs", "BranchBinder.cs"]);
    let main = file(&code, "Loader/UI_Main.cs");
    assert!(main.contains("namespace Game.UI.Loader\n"), "{main}");
    assert!(main.contains("public GLoader3D m_n10;"), "{main}");
    assert!(
        main.contains("m_n10 = (GLoader3D)GetChild(\"n10\");"),
        "{main}"
    );
    assert!(main.contains("m_c1 = GetController(\"c1\");"), "{main}");
    assert!(!main.contains("GetChildAt("), "bound by name: {main}");

    let three = as_type(
        with_codegen(read(&experiments_root()), options),
        "ThreeJS",
        -1,
    );
    let code = generate(&three, &all_packages(&three)).unwrap();
    let (_temp, root, files) = write_tree(&code, "experiments-three");
    type_check(&root, &files, Some("fairygui-three"));
    let main = file(&code, "Loader/UI_Main.ts");
    assert!(
        main.contains("import * as fgui from \"fairygui-three\";"),
        "{main}"
    );
    assert!(
        main.contains("this.m_n10 = <fgui.GLoader3D>(this.getChild(\"n10\"));"),
        "{main}"
    );
}

#[test]
fn without_ignore_noname_every_member_and_component_has_code() {
    let project = with_codegen(
        read(&unity_root()),
        json!({ "codePath": "Code", "ignoreNoname": false }),
    );
    let bag = project
        .packages
        .iter()
        .find(|p| p.name == "Bag")
        .unwrap()
        .id
        .clone();
    let code = generate(&project, &[bag.as_str()]).unwrap();
    // Every published component of Bag, in id order (dwwc3 < dwwc4 < fvaib < … < thi7c).
    assert_eq!(
        paths(&code, "Bag"),
        [
            "WindowFrame.cs",
            "CloseButton.cs",
            "Main.cs",
            "BagGridSub.cs",
            "BagWin.cs",
            "dot.cs",
            "BagButton.cs",
            "BagBinder.cs"
        ]
    );
    let close = file(&code, "Bag/CloseButton.cs");
    assert!(close.contains("button = GetControllerAt(0);"), "{close}");
    assert!(close.contains("n1 = (GImage)GetChildAt(0);"), "{close}");
    // Main's plain-or-advanced group: the advanced group n1 is a child at index 1.
    assert!(file(&code, "Bag/Main.cs").contains("n1 = (GGroup)GetChildAt(1);"));
    let (_temp, root, files) = write_tree(&code, "bag-all");
    compile_csharp(&root, &files);
}

#[test]
fn only_packages_asking_for_code_generate_it() {
    let mut project = unity_project();
    let bag = project
        .packages
        .iter()
        .position(|p| p.name == "Bag")
        .unwrap();
    Arc::make_mut(&mut project.packages[bag])
        .publish
        .as_mut()
        .unwrap()
        .gen_code = false;
    let ids = all_packages(&project);
    let code = generate(&project, &ids).unwrap();
    assert!(!code.files.iter().any(|f| f.path.starts_with("Bag/")));
    assert_eq!(
        code.files
            .iter()
            .filter(|f| f.path.ends_with("Binder.cs"))
            .count(),
        29
    );

    // The project's switch turns every package off.
    let off = with_codegen(
        read(&unity_root()),
        json!({ "codePath": "x", "allowGenCode": false }),
    );
    assert_eq!(
        generate(&off, &all_packages(&off)).unwrap(),
        GeneratedCode::default()
    );

    // A package's own codePath wins over the project's.
    let mut own = unity_project();
    Arc::make_mut(&mut own.packages[bag])
        .publish
        .as_mut()
        .unwrap()
        .code_path = "../BagCode".into();
    let code = generate(&own, &all_packages(&own)).unwrap();
    assert!(
        code.files
            .iter()
            .filter(|f| f.path.starts_with("Bag/"))
            .all(|f| f.code_dir == "../BagCode")
    );
    assert!(
        code.files
            .iter()
            .filter(|f| f.path.starts_with("Basics/"))
            .all(|f| f.code_dir == "../Generated")
    );
}

#[test]
fn refusals_are_typed() {
    let project = unity_project();
    assert_eq!(
        generate(&project, &["nope"]),
        Err(CodegenError::NoSuchPackage("nope".into()))
    );
    let no_path = with_codegen(read(&unity_root()), json!({ "codePath": "" }));
    assert!(matches!(
        generate(&no_path, &["Bag"]),
        Err(CodegenError::NoCodePath { .. })
    ));
    let cocos2dx = as_type(unity_project(), "Cocos2dx", -1);
    assert_eq!(
        generate(&cocos2dx, &["Bag"]),
        Err(CodegenError::UnsupportedProjectType("Cocos2dx".into()))
    );
    // Nothing asked for code: no language is needed, so no refusal.
    let quiet = as_type(read(&unity_root()), "Cocos2dx", -1);
    assert_eq!(
        generate(&quiet, &["Bag"]).unwrap(),
        GeneratedCode::default()
    );
}

#[test]
fn names_that_are_no_identifiers_or_repeat_are_renamed_with_a_warning() {
    let mut project = unity_project();
    let bag = project
        .packages
        .iter()
        .position(|p| p.name == "Bag")
        .unwrap();
    let package = Arc::make_mut(&mut project.packages[bag]);
    for resource in &mut package.resources {
        if let ofgui_contracts::uam::UamResource::Component(c) = Arc::make_mut(resource) {
            match c.name.as_str() {
                // A name no class can have, and a name differing only in case from another.
                "WindowFrame" => c.name = "window-frame".into(),
                "Main" => c.name = "bagwin".into(),
                "BagWin" => {
                    // Two children named alike, one that is a C# keyword.
                    c.component.display_list[1].base_mut().name = "frame".into();
                    c.component.controllers[0].name = "class".into();
                }
                _ => {}
            }
        }
    }
    let code = generate(&project, &["Bag"]).unwrap();
    let (_temp, root, files) = write_tree(&code, "bag-renamed");
    compile_csharp(&root, &files);
    assert_eq!(
        paths(&code, "Bag"),
        [
            "window_frame.cs",
            "CloseButton.cs",
            "bagwin.cs",
            "BagWin_2.cs",
            "BagBinder.cs"
        ]
    );
    let bag_win = file(&code, "Bag/BagWin_2.cs");
    assert!(bag_win.contains("public Controller class_2;"), "{bag_win}");
    assert!(bag_win.contains("public window_frame frame;"), "{bag_win}");
    assert!(bag_win.contains("public GList frame_2;"), "{bag_win}");
    let kinds: Vec<WarningKind> = code.warnings.iter().map(|w| w.kind).collect();
    assert_eq!(
        kinds,
        [
            WarningKind::ClassRenamed,
            WarningKind::ClassRenamed,
            WarningKind::MemberRenamed,
            WarningKind::MemberRenamed
        ],
        "{:#?}",
        code.warnings
    );
}

#[test]
fn a_child_from_another_package_takes_its_runtime_type() {
    // The editor types members only with the classes of the package it generates: Bag's
    // `frame` pointed at Basics' WindowFrame (a Label with a class in Basics) is a GLabel.
    let mut project = unity_project();
    let basics = package_id(&project, "Basics").to_owned();
    let window_frame = resource_id(&project, "Basics", "WindowFrame").to_owned();
    let bag = project
        .packages
        .iter()
        .position(|p| p.name == "Bag")
        .unwrap();
    let package = Arc::make_mut(&mut project.packages[bag]);
    for resource in &mut package.resources {
        if let ofgui_contracts::uam::UamResource::Component(c) = Arc::make_mut(resource)
            && c.name == "BagWin"
            && let Some(ofgui_contracts::uam::DisplayNode::Component(frame)) =
                c.component.display_list.first_mut()
        {
            frame.resource.package_id = Some(basics.clone());
            frame.resource.resource_id = window_frame.clone();
        }
    }
    let code = generate(&project, &["Bag", "Basics"]).unwrap();
    assert!(file(&code, "Basics/WindowFrame.cs").contains("class WindowFrame : GLabel"));
    let bag_win = file(&code, "Bag/BagWin.cs");
    assert!(
        bag_win.contains("frame = (GLabel)GetChildAt(0);"),
        "{bag_win}"
    );
    let (_temp, root, files) = write_tree(&code, "cross-package");
    compile_csharp(&root, &files);
}
