//! Hostile projects, generated here into temporary workspaces: XML bombs, names that are
//! not UTF-8, references that climb out, links that point out, thousands of missing files,
//! lying image headers, numbers JSON cannot hold, and writes whose targets are swapped,
//! linked, made read-only or run out of space before the save. Each case pins the answer
//! (diagnostic or error code and reason), that nothing outside the project was read or
//! written (a sentinel file whose content never appears in an answer and whose bytes and
//! mtime stay), and that the server answers the next request.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde_json::{Value, json};

use crate::harness::*;

const VALIDATE: &str = "openfairygui_backend_validate_session";
const APPLY: &str = "openfairygui_backend_apply_transaction";
const SAVE: &str = "openfairygui_backend_save_session";

/// A file outside every project: its content must never reach an answer, and no request
/// may change it.
struct Sentinel {
    dir: Workspace,
    path: PathBuf,
    content: String,
    modified: SystemTime,
}

impl Sentinel {
    fn new() -> Sentinel {
        let dir = Workspace::new();
        let path = dir.path().join("secret.png");
        let nanos = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let content = format!("ofgui-sentinel-{}-{nanos}", std::process::id());
        std::fs::write(&path, &content).unwrap();
        let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
        Sentinel {
            dir,
            path,
            content,
            modified,
        }
    }

    fn assert_untouched(&self) {
        assert_eq!(
            std::fs::read_to_string(&self.path).unwrap(),
            self.content,
            "the outside file's bytes are unchanged"
        );
        assert_eq!(
            std::fs::metadata(&self.path).unwrap().modified().unwrap(),
            self.modified,
            "the outside file's mtime is unchanged"
        );
        let names: Vec<_> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "nothing was added beside it: {names:?}");
    }
}

/// One server over one workspace, with a sentinel outside it; every answer is checked
/// for the sentinel and for host paths in messages.
struct Hostile {
    server: Server,
    workspace: Workspace,
    sentinel: Sentinel,
}

impl Hostile {
    async fn start() -> Hostile {
        let workspace = Workspace::new();
        let sentinel = Sentinel::new();
        let server = Server::start(&[workspace.path()]).await;
        Hostile {
            server,
            workspace,
            sentinel,
        }
    }

    fn root(&self) -> &Path {
        self.workspace.path()
    }

    /// A copy of the bundled example under `name`.
    fn example(&self, name: &str) -> PathBuf {
        self.workspace.add(name, &example_project())
    }

    fn check(&self, tool: &str, answer: &Value) {
        let text = answer.to_string();
        assert!(
            !text.contains(&self.sentinel.content),
            "{tool}: the outside file's content leaked: {}",
            clip(&text)
        );
        let outside = self.sentinel.dir.path().to_string_lossy().into_owned();
        assert!(
            !text.contains(&outside),
            "{tool}: an outside path leaked: {}",
            clip(&text)
        );
        let root = self.root().to_string_lossy().into_owned();
        for message in messages(answer) {
            assert!(
                !message.contains(&root),
                "{tool}: a host path in a message: {}",
                clip(&message)
            );
            assert!(
                !message.to_lowercase().contains("panicked"),
                "{tool}: {}",
                clip(&message)
            );
        }
        if let Some(code) = answer.pointer("/error/code").and_then(Value::as_str) {
            assert_ne!(code, "backend_unhandled_error", "{tool}: {}", clip(&text));
        }
    }

    async fn call(&self, tool: &str, arguments: Value) -> (Value, bool) {
        let (answer, is_error) = self.server.call(tool, arguments).await;
        self.check(tool, &answer);
        (answer, is_error)
    }

    async fn ok(&self, tool: &str, arguments: Value) -> Value {
        let (answer, is_error) = self.call(tool, arguments).await;
        assert!(!is_error, "{tool} failed: {}", clip(&answer.to_string()));
        answer["data"].clone()
    }

    /// [`Hostile::ok`] with the result's additions.
    async fn ok_with_additions(&self, tool: &str, arguments: Value) -> (Value, Value) {
        let (data, additions) = self.server.ok_with_additions(tool, arguments).await;
        self.check(
            tool,
            &json!({ "ok": true, "data": data, "additions": additions }),
        );
        (data, additions)
    }

    async fn err(&self, tool: &str, arguments: Value) -> Value {
        let (answer, is_error) = self.call(tool, arguments).await;
        assert!(
            is_error,
            "{tool} should fail: {}",
            clip(&answer.to_string())
        );
        answer["error"].clone()
    }

    async fn open(&self, project: &Path) -> String {
        let data = self.ok(OPEN, json!({ "projectPath": project })).await;
        data["sessionId"].as_str().unwrap().to_string()
    }

    async fn open_err(&self, project: &Path) -> Value {
        self.err(OPEN, json!({ "projectPath": project })).await
    }

    /// What the read of session `id` reported.
    async fn read_diagnostics(&self, id: &str) -> Vec<Value> {
        let state = self.ok(STATE, json!({ "sessionId": id })).await;
        state["readDiagnostics"].as_array().unwrap().clone()
    }

    /// Opens `project`, gives its read diagnostics and its validation report's codes, and
    /// closes it again.
    async fn read(&self, project: &Path) -> (Vec<Value>, Value) {
        let id = self.open(project).await;
        let diagnostics = self.read_diagnostics(&id).await;
        let report = self.ok(VALIDATE, json!({ "sessionId": id })).await;
        self.ok(CLOSE, json!({ "sessionId": id })).await;
        (diagnostics, report)
    }

    /// The server still answers: capabilities, and a healthy project opens and closes.
    async fn assert_alive(&self) {
        self.ok(CAPABILITIES, json!({})).await;
        let healthy = self
            .workspace
            .add(&format!("healthy-{}", fastrand_name()), &example_project());
        let id = self.open(&healthy).await;
        assert_eq!(self.read_diagnostics(&id).await, Vec::<Value>::new());
        self.ok(CLOSE, json!({ "sessionId": id })).await;
    }

    fn finish(&self) {
        self.sentinel.assert_untouched();
    }
}

fn fastrand_name() -> String {
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("{nanos:x}")
}

fn clip(text: &str) -> String {
    if text.len() <= 4000 {
        return text.to_string();
    }
    let mut end = 4000;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], text.len())
}

/// Every `message` string of an answer.
fn messages(value: &Value) -> Vec<String> {
    let mut found = Vec::new();
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        match value {
            Value::Object(map) => {
                for (key, value) in map {
                    if key == "message"
                        && let Some(text) = value.as_str()
                    {
                        found.push(text.to_string());
                    }
                    pending.push(value);
                }
            }
            Value::Array(items) => pending.extend(items),
            _ => {}
        }
    }
    found
}

fn write(path: &Path, bytes: impl AsRef<[u8]>) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} lacks {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// Diagnostics with `code` (and, if given, about `file`).
fn with_code<'a>(diagnostics: &'a [Value], code: &str) -> Vec<&'a Value> {
    diagnostics.iter().filter(|d| d["code"] == code).collect()
}

/// The codes of `diagnostics`, in order.
fn code_list(diagnostics: &[Value]) -> Vec<&str> {
    diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect()
}

/// A validation report's findings.
fn findings(report: &Value) -> &[Value] {
    report["diagnostics"].as_array().unwrap()
}

fn codes(diagnostics: &[Value]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| format!("{}@{}", d["code"], d["sourcePath"]))
        .collect()
}

/// `head`, then `size` bytes of `fill`, then `tail`, written in large chunks.
fn write_huge(path: &Path, head: &str, fill: u8, size: usize, tail: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    file.write_all(head.as_bytes()).unwrap();
    let chunk = vec![fill; 1 << 20];
    let mut left = size;
    while left > 0 {
        let n = left.min(chunk.len());
        file.write_all(&chunk[..n]).unwrap();
        left -= n;
    }
    file.write_all(tail.as_bytes()).unwrap();
    file.flush().unwrap();
}

const MAIN_VIEW: &str = "assets/Main/MainView.xml";
const MAIN_PACKAGE: &str = "assets/Main/package.xml";
const COMMON_PACKAGE: &str = "assets/Common/package.xml";

// --- XML bombs -------------------------------------------------------------------------

#[tokio::test]
async fn xml_bombs_are_diagnosed_and_the_rest_of_the_project_opens() {
    let h = Hostile::start().await;

    // Billion laughs: ten levels of ten references each.
    let laughs = h.example("laughs");
    let mut dtd = String::from("<!DOCTYPE component [\n<!ENTITY lol0 \"lol\">\n");
    for level in 1..10 {
        let refs = format!("&lol{};", level - 1).repeat(10);
        dtd.push_str(&format!("<!ENTITY lol{level} \"{refs}\">\n"));
    }
    dtd.push_str("]>\n");
    write(
        &laughs.join(MAIN_VIEW),
        format!(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n{dtd}<component size=\"640,360\"><displayList><text id=\"n1\" name=\"t\" text=\"&lol9;\"/></displayList></component>\n"
        ),
    );
    let (diagnostics, _) = h.read(&laughs).await;
    let bomb = with_code(&diagnostics, "invalid_component_xml");
    assert_eq!(bomb.len(), 1, "{diagnostics:#?}");
    assert_eq!(bomb[0]["sourcePath"], MAIN_VIEW);
    eprintln!("laughs: {}", bomb[0]["message"]);

    // An internal DTD entity in package.xml.
    let entity = h.example("entity");
    edit(
        &entity.join(COMMON_PACKAGE),
        "<packageDescription",
        "<!DOCTYPE packageDescription [<!ENTITY name \"Button.xml\">]>\n<packageDescription",
    );
    // No DTD is expanded: the package file is reported, whole, as invalid.
    let (diagnostics, report) = h.read(&entity).await;
    let refused = with_code(&diagnostics, "invalid_package_xml");
    assert_eq!(refused.len(), 1, "{diagnostics:#?}");
    assert_eq!(refused[0]["sourcePath"], COMMON_PACKAGE);
    assert!(
        refused[0]["message"].as_str().unwrap().contains("DTD"),
        "{}",
        refused[0]["message"]
    );
    assert_eq!(report["status"], "invalid", "{report}");

    // 10,000 nested elements in a component and in package.xml.
    let deep = h.example("deep");
    let open = "<group>".repeat(10_000);
    let close = "</group>".repeat(10_000);
    edit(
        &deep.join(MAIN_VIEW),
        "<displayList>",
        &format!("<extension>{open}{close}</extension><displayList>"),
    );
    edit(
        &deep.join(COMMON_PACKAGE),
        "<resources>",
        &format!("<extension>{open}{close}</extension><resources>"),
    );
    // Deep nesting inside elements the model does not read is kept as it is, not refused.
    let (diagnostics, report) = h.read(&deep).await;
    assert_eq!(diagnostics, Vec::<Value>::new());
    assert_eq!(report["status"], "valid", "{report}");

    h.assert_alive().await;
    h.finish();
}

#[tokio::test]
async fn a_100_mb_attribute_is_read_in_a_component_and_in_package_xml() {
    let h = Hostile::start().await;
    let big = h.example("big");
    let size = 100 << 20;
    write_huge(
        &big.join(MAIN_VIEW),
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<component size=\"640,360\"><displayList><text id=\"n1\" name=\"t\" text=\"",
        b'a',
        size,
        "\"/></displayList></component>\n",
    );
    let id = h.open(&big).await;
    // The whole state is over the response budget: said so, not truncated.
    let error = h.err(STATE, json!({ "sessionId": id })).await;
    assert_eq!(error["code"], "session_read_failed", "{error}");
    assert_eq!(error["reason"], "response_budget_exceeded", "{error}");
    let report = h.ok(VALIDATE, json!({ "sessionId": id })).await;
    assert_eq!(report["status"], "valid", "{report}");
    h.ok(CLOSE, json!({ "sessionId": id })).await;

    let big_package = h.example("big-package");
    write_huge(
        &big_package.join(COMMON_PACKAGE),
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<packageDescription id=\"cmn00001\"><resources><component id=\"btn0\" name=\"Button.xml\" path=\"/components/\" exported=\"true\" note=\"",
        b'b',
        size,
        "\"/></resources></packageDescription>\n",
    );
    let (diagnostics, report) = h.read(&big_package).await;
    assert_eq!(diagnostics, Vec::<Value>::new());
    assert_eq!(report["status"], "valid", "{report}");
    h.assert_alive().await;
    h.finish();
}

// --- Names --------------------------------------------------------------------------------

#[cfg(unix)]
#[tokio::test]
async fn file_names_that_are_not_utf8_or_hold_control_characters() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let h = Hostile::start().await;

    let names = h.example("names");
    let images = names.join("assets/Main/images");
    // Control characters are valid UTF-8: a stray file so named is no one's business.
    std::fs::write(images.join("tab\tand\x01bell\x07.png"), b"x").unwrap();
    let (diagnostics, report) = h.read(&names).await;
    assert_eq!(diagnostics, Vec::<Value>::new());
    assert_eq!(report["status"], "valid", "{report}");
    // WASI fails a whole listing at a name that is not UTF-8, which would hide every file
    // beside it: the open is refused and names the entry.
    std::fs::write(images.join(OsStr::from_bytes(b"bad\xff\xfe.png")), b"x").unwrap();
    let error = h.open_err(&names).await;
    assert_eq!(error["code"], "project_open_failed", "{error}");
    assert_eq!(error["reason"], "project_read_failed", "{error}");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("assets/Main/images/bad\u{fffd}\u{fffd}.png")
            && message.contains("not valid UTF-8"),
        "{message}"
    );

    // A resource that names a control character.
    let control = h.example("control");
    let panel = std::fs::read(control.join("assets/Main/images/panel.png")).unwrap();
    std::fs::write(control.join("assets/Main/images/pa\u{1}nel.png"), &panel).unwrap();
    edit(
        &control.join(MAIN_PACKAGE),
        "name=\"panel.png\"",
        "name=\"pa&#1;nel.png\"",
    );
    // XML 1.0 has no character 1, not even as a reference: the package file is invalid.
    let (diagnostics, _) = h.read(&control).await;
    let invalid = with_code(&diagnostics, "invalid_package_xml");
    assert_eq!(invalid.len(), 1, "{diagnostics:#?}");
    assert_eq!(invalid[0]["sourcePath"], MAIN_PACKAGE);
    h.assert_alive().await;
    h.finish();
}

#[tokio::test]
async fn references_and_resource_paths_that_climb_or_hold_nul() {
    let h = Hostile::start().await;
    // (case, edit, the one read diagnostic and the file it names)
    for (name, from, to, code, source) in [
        (
            "dotdot-name",
            "name=\"panel.png\"",
            "name=\"../../../../secret.png\"".to_string(),
            "unsafe_path",
            MAIN_PACKAGE,
        ),
        (
            "absolute-path",
            "path=\"/images/\"",
            "path=\"/etc/\"".to_string(),
            // A package path is relative to the package, leading slash or not.
            "missing_source",
            "assets/Main/etc/panel.png",
        ),
        (
            "dotdot-path",
            "path=\"/images/\"",
            "path=\"/../../../../../../\"".to_string(),
            "unsafe_path",
            MAIN_PACKAGE,
        ),
        (
            "nul-ref",
            "name=\"panel.png\"",
            "name=\"panel.png&#0;.txt\"".to_string(),
            "invalid_package_xml",
            MAIN_PACKAGE,
        ),
        (
            "nul-literal",
            "name=\"panel.png\"",
            "name=\"panel.png\0.txt\"".to_string(),
            "invalid_package_xml",
            MAIN_PACKAGE,
        ),
    ] {
        let project = h.example(name);
        edit(&project.join(MAIN_PACKAGE), from, &to);
        let (diagnostics, report) = h.read(&project).await;
        assert_eq!(
            codes(&diagnostics),
            [format!("\"{code}\"@\"{source}\"")],
            "{name}"
        );
        assert_eq!(report["status"], "invalid", "{name}: {report}");
    }
    // (case, edit, read diagnostics, validation findings)
    for (name, from, to, read, found) in [
        (
            "ui-dotdot",
            "src=\"btn0\" pkg=\"cmn00001\"",
            "src=\"../../secret\" pkg=\"../..\"",
            // Ids are looked up, never joined into paths: an unknown one dangles.
            &[][..],
            &["dangling_resource_reference"][..],
        ),
        (
            "ui-url",
            "fileName=\"images/panel.png\"",
            "fileName=\"../../../../etc/passwd\"",
            // An image node's fileName is the editor's note of where the file was; it is
            // kept and never opened.
            &[],
            &[],
        ),
        (
            "ui-nul",
            "src=\"btn0\" pkg=\"cmn00001\"",
            "src=\"btn0&#0;\" pkg=\"cmn00001\"",
            &["invalid_component_xml"],
            &["invalid_component_xml"],
        ),
    ] {
        let project = h.example(name);
        edit(&project.join(MAIN_VIEW), from, to);
        let (diagnostics, report) = h.read(&project).await;
        assert_eq!(code_list(&diagnostics), read, "{name}: {diagnostics:#?}");
        assert_eq!(code_list(findings(&report)), found, "{name}: {report}");
    }
    let loader = h.example("ui-loader");
    edit(
        &loader.join(MAIN_VIEW),
        "</displayList>",
        "<loader id=\"n9\" name=\"l\" url=\"ui://../../etc/passwd\" xy=\"0,0\" size=\"10,10\"/><loader id=\"n10\" name=\"m\" url=\"ui://main0001/../../x\" xy=\"0,0\" size=\"10,10\"/></displayList>",
    );
    // A loader's url is a reference to resolve, never a path: both dangle.
    let (diagnostics, report) = h.read(&loader).await;
    assert_eq!(diagnostics, Vec::<Value>::new());
    let dangling = findings(&report);
    assert_eq!(
        code_list(dangling),
        ["dangling_resource_reference", "dangling_resource_reference"],
        "{report}"
    );
    assert!(
        dangling
            .iter()
            .all(|d| d["path"].as_str().unwrap().ends_with(".url")),
        "{report}"
    );
    h.assert_alive().await;
    h.finish();
}

#[tokio::test]
async fn five_thousand_missing_files() {
    let h = Hostile::start().await;
    let project = h.example("missing");
    let mut resources = String::new();
    for i in 0..5_000 {
        resources.push_str(&format!(
            "    <image id=\"m{i}\" name=\"missing{i}.png\" path=\"/gone/\"/>\n"
        ));
    }
    edit(
        &project.join(MAIN_PACKAGE),
        "  <resources>\n",
        &format!("  <resources>\n{resources}"),
    );
    let started = std::time::Instant::now();
    let (diagnostics, report) = h.read(&project).await;
    eprintln!(
        "missing: {} diagnostics in {:?}",
        diagnostics.len(),
        started.elapsed()
    );
    // One missing_source per declared file, each naming it; nothing else.
    assert_eq!(
        diagnostics.len(),
        5_000,
        "{}",
        clip(&format!("{:?}", codes(&diagnostics)))
    );
    assert!(diagnostics.iter().all(|d| d["code"] == "missing_source"));
    assert_eq!(
        diagnostics[0]["sourcePath"],
        "assets/Main/gone/missing0.png"
    );
    assert_eq!(report["status"], "invalid", "{}", clip(&report.to_string()));
    h.assert_alive().await;
    h.finish();
}

fn png_header(width: u32, height: u32) -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(b"IHDR");
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    bytes.extend_from_slice(&13u32.to_be_bytes());
    bytes.extend_from_slice(&ihdr);
    bytes.extend_from_slice(&crc32(&ihdr).to_be_bytes());
    bytes
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for byte in bytes {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[tokio::test]
async fn truncated_and_lying_images_and_lfs_pointers() {
    let h = Hostile::start().await;
    let cases: Vec<(&str, &str, Vec<u8>)> = vec![
        ("png-huge", "panel.png", png_header(0x7fff_ffff, 0x7fff_ffff)),
        ("png-signature", "panel.png", b"\x89PNG\r\n\x1a\n".to_vec()),
        ("png-half", "panel.png", png_header(64, 32)[..20].to_vec()),
        ("jpeg-huge", "panel.jpg", {
            let mut j = vec![0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0xff, 0xff, 0xff, 0xff, 0x03];
            j.truncate(12);
            j
        }),
        ("jpeg-start", "panel.jpg", vec![0xff, 0xd8]),
        ("lfs", "panel.png", b"version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n".to_vec()),
    ];
    for (name, file, bytes) in cases {
        let project = h.example(name);
        std::fs::remove_file(project.join("assets/Main/images/panel.png")).unwrap();
        write(&project.join("assets/Main/images").join(file), &bytes);
        if file != "panel.png" {
            edit(
                &project.join(MAIN_PACKAGE),
                "name=\"panel.png\"",
                &format!("name=\"{file}\""),
            );
            edit(
                &project.join(MAIN_VIEW),
                "images/panel.png",
                &format!("images/{file}"),
            );
        }
        let id = h.open(&project).await;
        let diagnostics = h.read_diagnostics(&id).await;
        // The file is kept as it is and said to be broken; nothing is made up for it.
        let corrupt = with_code(&diagnostics, "corrupt_source");
        assert_eq!(corrupt.len(), 1, "{name}: {diagnostics:#?}");
        assert_eq!(
            corrupt[0]["sourcePath"],
            format!("assets/Main/images/{file}"),
            "{name}"
        );
        if name == "lfs" {
            assert!(
                corrupt[0]["message"]
                    .as_str()
                    .unwrap()
                    .contains("git lfs pull"),
                "{name}"
            );
        }
        let (bytes_answer, _) = h
            .call(BYTES, json!({ "sessionId": id, "expectedRevision": 0, "selector": { "packageId": "main0001", "resourceId": "img0" } }))
            .await;
        let entity = h
            .call(QUERY, json!({ "sessionId": id, "target": { "kind": "resource", "selector": { "packageId": "main0001", "resourceId": "img0" } } }))
            .await;
        eprintln!(
            "{name}: {diagnostics:#?}\nbytes: {}\nentity: {}",
            clip(&bytes_answer.to_string()),
            clip(&entity.0.to_string())
        );
        h.ok(CLOSE, json!({ "sessionId": id })).await;
    }
    h.assert_alive().await;
    h.finish();
}

#[tokio::test]
async fn settings_numbers_beyond_json_and_duplicate_keys() {
    let h = Hostile::start().await;
    for (name, text) in [
        (
            "huge-int",
            "{\n\t\"font\":\"Arial\",\n\t\"fontSize\":99999999999999999999999\n}",
        ),
        (
            "huge-neg",
            "{\n\t\"font\":\"Arial\",\n\t\"fontSize\":-99999999999999999999999\n}",
        ),
        (
            "big-exp",
            "{\n\t\"font\":\"Arial\",\n\t\"fontSize\":1e400\n}",
        ),
        ("nan", "{\n\t\"font\":\"Arial\",\n\t\"fontSize\":NaN\n}"),
        (
            "infinity",
            "{\n\t\"font\":\"Arial\",\n\t\"fontSize\":Infinity\n}",
        ),
        (
            "duplicate",
            "{\n\t\"font\":\"Arial\",\n\t\"fontSize\":14,\n\t\"font\":\"Courier\"\n}",
        ),
    ] {
        let project = h.example(name);
        write(&project.join("settings/Common.json"), text);
        let id = h.open(&project).await;
        let diagnostics = h.read_diagnostics(&id).await;
        let found = with_code(&diagnostics, "invalid_settings_json");
        assert_eq!(found.len(), 1, "{name}: {diagnostics:#?}");
        assert_eq!(found[0]["sourcePath"], "settings/Common.json");
        // Numbers JSON cannot hold and repeated keys are kept in the file and warned
        // about; text that is not JSON at all (NaN, Infinity, 1e400) is an error.
        let severity = if matches!(name, "huge-int" | "huge-neg" | "duplicate") {
            "warning"
        } else {
            "error"
        };
        assert_eq!(found[0]["severity"], severity, "{name}: {diagnostics:#?}");
        let settings = h
            .call(
                QUERY,
                json!({ "sessionId": id, "target": { "kind": "project" } }),
            )
            .await;
        eprintln!(
            "{name}: {diagnostics:#?}\nsettings: {}",
            clip(&settings.0.to_string())
        );
        h.ok(CLOSE, json!({ "sessionId": id })).await;
    }
    // A huge integer in a component attribute.
    let project = h.example("huge-xy");
    edit(
        &project.join(MAIN_VIEW),
        "xy=\"20,20\"",
        "xy=\"99999999999999999999999,-99999999999999999999999\"",
    );
    edit(
        &project.join(MAIN_VIEW),
        "fontSize=\"28\"",
        "fontSize=\"99999999999999999999999\"",
    );
    let id = h.open(&project).await;
    let diagnostics = h.read_diagnostics(&id).await;
    let node = h
        .call(QUERY, json!({ "sessionId": id, "target": { "kind": "displayNode", "selector": { "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n0_view" } } }))
        .await;
    let text = h
        .call(QUERY, json!({ "sessionId": id, "target": { "kind": "displayNode", "selector": { "packageId": "main0001", "componentResourceId": "view0", "displayNodeId": "n1_view" } } }))
        .await;
    // Read as the nearest doubles, and said so, once per attribute; the file keeps them.
    let inexact = with_code(&diagnostics, "invalid_project_value");
    assert_eq!(inexact.len(), 2, "{diagnostics:#?}");
    assert!(inexact.iter().all(|d| d["severity"] == "warning"));
    assert!(
        inexact[0]["path"]
            .as_str()
            .unwrap()
            .ends_with("displayList[0].xy")
    );
    assert!(
        inexact[1]["path"]
            .as_str()
            .unwrap()
            .ends_with("displayList[1].fontSize")
    );
    assert_eq!(
        node.0["data"]["entity"]["properties"]["position"],
        json!({ "x": 1e23, "y": -1e23 }),
        "{}",
        clip(&node.0.to_string())
    );
    assert_eq!(
        text.0["data"]["entity"]["properties"]["fontSize"],
        json!(1e23)
    );
    h.assert_alive().await;
    h.finish();
}

// --- Writes under attack -------------------------------------------------------------------

/// The file the edit below rewrites: Joystick's Main in the unity corpus.
const JOYSTICK_MAIN: &str = "assets/Joystick/Main.xml";

fn move_n7(x: i64) -> Value {
    json!([{
        "kind": "setDisplayNodeProps",
        "selector": { "packageId": "rbw1tvvv", "componentResourceId": "iitt1", "displayNodeId": "n7" },
        "props": { "position": { "x": x, "y": 12 } }
    }])
}

/// A copy of the unity corpus, opened, with node n7 moved (revision 1, unsaved).
async fn edited(h: &Hostile, name: &str) -> (PathBuf, String) {
    let project = h.workspace.add(name, &unity_corpus());
    let id = h.open(&project).await;
    h.ok(
        APPLY,
        json!({ "sessionId": id, "expectedRevision": 0, "operations": move_n7(321) }),
    )
    .await;
    (project, id)
}

/// The edit is still in the session, unsaved.
async fn assert_unsaved(h: &Hostile, id: &str) {
    let session = h.ok(GET, json!({ "sessionId": id })).await;
    assert_eq!(session["dirty"], true, "{session}");
    assert_eq!(session["revision"], 1);
    assert_eq!(session["lastSavedRevision"], 0);
}

/// After the obstacle is gone the same session saves its edit.
async fn assert_saves(h: &Hostile, project: &Path, id: &str) {
    let (saved, additions) = h
        .ok_with_additions(SAVE, json!({ "sessionId": id, "expectedRevision": 1 }))
        .await;
    assert_eq!(
        additions["saved"]["writtenPaths"],
        json!([JOYSTICK_MAIN]),
        "{additions}"
    );
    assert_eq!(saved["dirty"], false);
    let main = project.join(JOYSTICK_MAIN);
    assert!(
        std::fs::symlink_metadata(&main)
            .unwrap()
            .file_type()
            .is_file()
    );
    assert!(
        std::fs::read_to_string(&main)
            .unwrap()
            .contains("xy=\"321,12\"")
    );
}

/// A refused save: `save_partial_failure` for `changed_on_disk` with one conflict of
/// `kind` at `path`, nothing written.
fn assert_refused(error: &Value, path: &str, kind: &str) {
    assert_eq!(error["code"], "save_partial_failure", "{error}");
    assert_eq!(error["reason"], "changed_on_disk", "{error}");
    assert_eq!(error["failedPaths"], json!([path]), "{error}");
    assert_eq!(error["diskMayBePartiallyUpdated"], false);
    assert_eq!(error["conflicts"][0]["kind"], kind, "{error}");
    assert_eq!(error["conflicts"].as_array().unwrap().len(), 1, "{error}");
}

#[cfg(unix)]
#[tokio::test]
async fn a_target_swapped_for_a_symlink_to_an_outside_file_is_not_written_through() {
    let h = Hostile::start().await;
    let (project, id) = edited(&h, "symlinked").await;
    let main = project.join(JOYSTICK_MAIN);
    let original = std::fs::read(&main).unwrap();
    std::fs::remove_file(&main).unwrap();
    std::os::unix::fs::symlink(&h.sentinel.path, &main).unwrap();
    let before = snapshot(&project);

    let error = h
        .err(SAVE, json!({ "sessionId": id, "expectedRevision": 1 }))
        .await;
    assert_refused(&error, JOYSTICK_MAIN, "not_a_file");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("is not a regular file"),
        "{error}"
    );
    assert_eq!(snapshot(&project), before, "nothing was written");
    assert_eq!(std::fs::read_link(&main).unwrap(), h.sentinel.path);
    h.sentinel.assert_untouched();
    assert_unsaved(&h, &id).await;

    std::fs::remove_file(&main).unwrap();
    std::fs::write(&main, &original).unwrap();
    assert_saves(&h, &project, &id).await;
    h.assert_alive().await;
    h.finish();
}

#[cfg(unix)]
#[tokio::test]
async fn a_target_swapped_for_a_hard_link_to_an_outside_file_is_not_written_through() {
    let h = Hostile::start().await;
    let (project, id) = edited(&h, "hardlinked").await;
    let main = project.join(JOYSTICK_MAIN);
    let original = std::fs::read(&main).unwrap();
    // The outside file holds exactly what the session read: only its link count tells.
    let elsewhere = Workspace::new();
    let copy = elsewhere.path().join("Main.xml");
    std::fs::write(&copy, &original).unwrap();
    let copy_modified = std::fs::metadata(&copy).unwrap().modified().unwrap();
    std::fs::remove_file(&main).unwrap();
    std::fs::hard_link(&copy, &main).unwrap();
    let before = snapshot(&project);

    let error = h
        .err(SAVE, json!({ "sessionId": id, "expectedRevision": 1 }))
        .await;
    assert_refused(&error, JOYSTICK_MAIN, "hard_linked");
    assert_eq!(snapshot(&project), before, "nothing was written");
    assert_eq!(std::fs::read(&copy).unwrap(), original);
    assert_eq!(
        std::fs::metadata(&copy).unwrap().modified().unwrap(),
        copy_modified
    );
    assert_unsaved(&h, &id).await;

    std::fs::remove_file(&main).unwrap();
    std::fs::write(&main, &original).unwrap();
    assert_saves(&h, &project, &id).await;
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        original,
        "the outside copy is untouched"
    );
    h.assert_alive().await;
    h.finish();
}

#[cfg(unix)]
#[tokio::test]
async fn a_read_only_target_file_or_directory_refuses_the_save() {
    use std::os::unix::fs::PermissionsExt;
    let h = Hostile::start().await;
    for (name, read_only) in [("ro-file", JOYSTICK_MAIN), ("ro-dir", "assets/Joystick")] {
        let (project, id) = edited(&h, name).await;
        let path = project.join(read_only);
        let writable = std::fs::metadata(&path).unwrap().permissions();
        let mut permissions = writable.clone();
        permissions.set_mode(permissions.mode() & !0o222);
        std::fs::set_permissions(&path, permissions).unwrap();
        let before = snapshot(&project);

        let error = h
            .err(SAVE, json!({ "sessionId": id, "expectedRevision": 1 }))
            .await;
        eprintln!("{name}: {error}");
        assert_refused(&error, read_only, "read_only");
        assert_eq!(snapshot(&project), before, "nothing was written");
        assert_unsaved(&h, &id).await;

        std::fs::set_permissions(&path, writable).unwrap();
        assert_saves(&h, &project, &id).await;
    }
    h.assert_alive().await;
    h.finish();
}

#[tokio::test]
async fn a_full_disk_fails_the_save_and_leaves_the_old_project() {
    let workspace = Workspace::new();
    let sentinel = Sentinel::new();
    // The first save of each session finds 1 KiB free (the journal fits, Main.xml does
    // not); later saves find room, as after the user freed some.
    let server = Server::start_with_env(
        &[workspace.path()],
        &[],
        &[("OFGUI_SAVE_FAULT", "disk-full:1024:1")],
    )
    .await;
    let h = Hostile {
        server,
        workspace,
        sentinel,
    };
    let (project, id) = edited(&h, "full").await;
    let before = snapshot(&project);
    let error = h
        .err(SAVE, json!({ "sessionId": id, "expectedRevision": 1 }))
        .await;
    assert_eq!(error["code"], "save_partial_failure", "{error}");
    assert_eq!(error["reason"], "io", "{error}");
    assert_eq!(error["diskMayBePartiallyUpdated"], false, "{error}");
    assert_eq!(error["committedPaths"], json!([]));
    assert_eq!(error["failedPaths"], json!([JOYSTICK_MAIN]), "{error}");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("no space left on device") && message.contains("unchanged"),
        "{message}"
    );
    assert_eq!(
        snapshot(&project),
        before,
        "the old project, without leftovers"
    );
    assert_unsaved(&h, &id).await;
    assert_saves(&h, &project, &id).await;
    h.assert_alive().await;
    h.finish();
}

#[cfg(unix)]
#[tokio::test]
async fn a_project_directory_swapped_for_a_symlink_before_the_save_is_not_written() {
    let h = Hostile::start().await;
    let (project, id) = edited(&h, "swapped").await;
    // The directory moves away and a symlink to a copy outside the roots takes its place.
    let decoy = Workspace::new();
    let outside = decoy.add("swapped", &unity_corpus());
    let outside_before = snapshot(&outside);
    let moved = h.root().join("swapped-moved");
    std::fs::rename(&project, &moved).unwrap();
    let moved_before = snapshot(&moved);
    std::os::unix::fs::symlink(&outside, &project).unwrap();

    let error = h
        .err(SAVE, json!({ "sessionId": id, "expectedRevision": 1 }))
        .await;
    eprintln!("swapped: {error}");
    assert_eq!(error["code"], "path_policy_violation", "{error}");
    assert_eq!(
        snapshot(&outside),
        outside_before,
        "nothing written outside the roots"
    );
    assert_eq!(
        snapshot(&moved),
        moved_before,
        "nor into the moved directory"
    );
    assert_unsaved(&h, &id).await;

    // Put back, the same session saves.
    std::fs::remove_file(&project).unwrap();
    std::fs::rename(&moved, &project).unwrap();
    assert_saves(&h, &project, &id).await;
    assert_eq!(snapshot(&outside), outside_before);
    h.assert_alive().await;
    h.finish();
}
