//! The shape of the house, checked on every run: no import circles between the modules of
//! any crate, no host source file past its size, every method and tool name spelled once,
//! in the method table, and the host alone built with the features the workspace builds it
//! with.
//!
//! A circle is module A using module B while B (directly or through others) uses A, where
//! neither is an ancestor of the other: a folder's `mod.rs` and its children may use each
//! other (the folder is one room), but two rooms that need each other are missing a third,
//! lower one. Rooms are checked as wholes too (a crate's top-level modules, by what any of
//! their files use, tests included): two folders may not use each other through different
//! files either. Uses are `crate::`, `super::` and `self::` paths in code (comments and
//! strings are skipped), resolved to the deepest module file that exists.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use ofgui_contracts::methods::METHODS;

/// The longest a host source file may be, its `#[cfg(test)]` tests aside.
const MAX_HOST_FILE_LINES: usize = 800;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("host/ lives in the workspace")
        .to_path_buf()
}

/// A module path (`["commit", "apply"]`; the crate root is empty) and its source.
struct Module {
    path: Vec<String>,
    file: PathBuf,
    code: String,
}

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
}

/// The modules of the crate whose sources are in `src`. Binaries' roots (`main.rs`) count
/// as the root as `lib.rs` does: what they use is checked all the same.
fn modules(src: &Path) -> Vec<Module> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files
        .into_iter()
        .map(|file| {
            let relative = file.strip_prefix(src).expect("inside src");
            let mut path: Vec<String> = relative
                .iter()
                .map(|part| part.to_string_lossy().into_owned())
                .collect();
            let last = path.pop().expect("a file name");
            match last.as_str() {
                "lib.rs" | "main.rs" | "mod.rs" => {}
                name => path.push(name.trim_end_matches(".rs").to_string()),
            }
            let text = std::fs::read_to_string(&file).expect("readable source");
            let (code, _) = lex(&text);
            Module { path, file, code }
        })
        .collect()
}

/// Splits source into code (comments and literals blanked) and its string literals.
fn lex(text: &str) -> (String, Vec<String>) {
    let bytes = text.as_bytes();
    let mut code = String::with_capacity(text.len());
    let mut strings = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            let end = rest.find('\n').map_or(bytes.len(), |n| i + n);
            i = end;
        } else if rest.starts_with("/*") {
            let mut depth = 0;
            while i < bytes.len() {
                if text[i..].starts_with("/*") {
                    depth += 1;
                    i += 2;
                } else if text[i..].starts_with("*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            code.push(' ');
        } else if let Some(hashes) = raw_string_start(rest) {
            let open = 1 + hashes + 1 + usize::from(rest.starts_with('b'));
            let close = format!("\"{}", "#".repeat(hashes));
            let body_start = i + open;
            let end = text[body_start..]
                .find(&close)
                .map_or(bytes.len(), |n| body_start + n);
            strings.push(text[body_start..end].to_string());
            i = (end + close.len()).min(bytes.len());
            code.push_str("\"\"");
        } else if bytes[i] == b'"' || rest.starts_with("b\"") {
            let mut j = i + if bytes[i] == b'b' { 2 } else { 1 };
            let start = j;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            strings.push(text[start..j.min(bytes.len())].to_string());
            i = j + 1;
            code.push_str("\"\"");
        } else if bytes[i] == b'\'' {
            // A char literal ('x', '\n', '"') or a lifetime ('a).
            let literal_end = if bytes.get(i + 1) == Some(&b'\\') {
                text[i + 2..].find('\'').map(|n| i + 2 + n)
            } else {
                let width = rest[1..].chars().next().map_or(0, char::len_utf8);
                (bytes.get(i + 1 + width) == Some(&b'\'')).then_some(i + 1 + width)
            };
            match literal_end {
                Some(end) => {
                    i = end + 1;
                    code.push_str("' '");
                }
                None => {
                    code.push('\'');
                    i += 1;
                }
            }
        } else {
            let ch = rest.chars().next().expect("not at the end");
            code.push(ch);
            i += ch.len_utf8();
        }
    }
    (code, strings)
}

/// `r"`, `r#"`, `br##"`…: the number of `#`s of a raw string starting here.
fn raw_string_start(rest: &str) -> Option<usize> {
    let after_b = rest.strip_prefix('b').unwrap_or(rest);
    let after_r = after_b.strip_prefix('r')?;
    let hashes = after_r.len() - after_r.trim_start_matches('#').len();
    after_r[hashes..].starts_with('"').then_some(hashes)
}

fn is_ident(ch: char) -> bool {
    ch.is_ascii_alphanumeric() || ch == '_'
}

/// Every path the code names from `crate`, `super` or `self`, as absolute module paths
/// (not yet cut down to modules that exist). Use groups (`use crate::a::{b, c::d}`) give
/// one path per member.
fn named_paths(module: &Module) -> Vec<Vec<String>> {
    let code = &module.code;
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("::").map(|n| from + n) {
        from = at + 2;
        let word_start = code[..at]
            .char_indices()
            .rev()
            .take_while(|&(_, c)| is_ident(c))
            .last()
            .map_or(at, |(index, _)| index);
        let starts_path = !code[..word_start].ends_with("::");
        let base = match &code[word_start..at] {
            "crate" if starts_path => Vec::new(),
            "self" if starts_path => module.path.clone(),
            "super" if starts_path => {
                let mut base = module.path.clone();
                base.pop();
                while code[from..].starts_with("super::") {
                    base.pop();
                    from += "super::".len();
                }
                base
            }
            _ => continue,
        };
        expand(&code[from..], base, &mut found);
    }
    found
}

/// Reads `a::b::{c, d::e}` after a path prefix into full paths.
fn expand(text: &str, base: Vec<String>, found: &mut Vec<Vec<String>>) {
    let mut path = base;
    let mut rest = text;
    loop {
        let ident: String = rest.chars().take_while(|&c| is_ident(c)).collect();
        if ident.is_empty() {
            if let Some(group) = rest.strip_prefix('{') {
                let mut depth = 1;
                let mut end = 0;
                for (index, ch) in group.char_indices() {
                    match ch {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = index;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                for member in split_top_level(&group[..end]) {
                    let member = member.trim();
                    if member == "self" {
                        found.push(path.clone());
                    } else if !member.is_empty() {
                        expand(member, path.clone(), found);
                    }
                }
                return;
            }
            found.push(path);
            return;
        }
        rest = &rest[ident.len()..];
        path.push(ident);
        match rest.strip_prefix("::") {
            Some(more) => rest = more,
            None => {
                found.push(path);
                return;
            }
        }
    }
}

fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (index, ch) in text.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..index]);
                start = index + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// The module circles of the crate in `src`, each as its members' paths.
fn circles(src: &Path) -> Vec<Vec<String>> {
    let modules = modules(src);
    let known: BTreeSet<Vec<String>> = modules.iter().map(|m| m.path.clone()).collect();
    let mut uses: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for module in &modules {
        let edges = uses.entry(module.path.clone()).or_default();
        for mut named in named_paths(module) {
            while !named.is_empty() && !known.contains(&named) {
                named.pop();
            }
            let ancestor = |a: &[String], b: &[String]| b.starts_with(a);
            if ancestor(&named, &module.path) || ancestor(&module.path, &named) {
                continue;
            }
            edges.insert(named);
        }
    }
    circles_of(&uses)
}

/// The rooms (top-level modules: a folder, or a file beside them) that use each other,
/// through any of their files.
fn room_circles(src: &Path) -> Vec<Vec<String>> {
    let modules = modules(src);
    let known: BTreeSet<Vec<String>> = modules.iter().map(|m| m.path.clone()).collect();
    let mut uses: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for module in &modules {
        let Some(room) = module.path.first() else {
            continue;
        };
        let edges = uses.entry(vec![room.clone()]).or_default();
        for mut named in named_paths(module) {
            while !named.is_empty() && !known.contains(&named) {
                named.pop();
            }
            if let Some(other) = named.first().filter(|other| *other != room) {
                edges.insert(vec![other.clone()]);
            }
        }
    }
    circles_of(&uses)
}

/// The strongly connected components of more than one module, named.
fn circles_of(uses: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<String>> {
    strongly_connected(uses)
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| {
            component
                .into_iter()
                .map(|path| match path.is_empty() {
                    true => "crate".to_string(),
                    false => path.join("::"),
                })
                .collect()
        })
        .collect()
}

/// Tarjan's strongly connected components.
fn strongly_connected(
    graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
) -> Vec<Vec<Vec<String>>> {
    struct State<'a> {
        graph: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a [String], usize>,
        low: BTreeMap<&'a [String], usize>,
        stack: Vec<&'a [String]>,
        on_stack: BTreeSet<&'a [String]>,
        next: usize,
        found: Vec<Vec<Vec<String>>>,
    }
    fn visit<'a>(state: &mut State<'a>, node: &'a [String]) {
        state.index.insert(node, state.next);
        state.low.insert(node, state.next);
        state.next += 1;
        state.stack.push(node);
        state.on_stack.insert(node);
        let graph = state.graph;
        for target in graph.get(node).into_iter().flatten() {
            let target = target.as_slice();
            if !state.index.contains_key(target) {
                visit(state, target);
                let low = state.low[target].min(state.low[node]);
                state.low.insert(node, low);
            } else if state.on_stack.contains(target) {
                let low = state.index[target].min(state.low[node]);
                state.low.insert(node, low);
            }
        }
        if state.low[node] == state.index[node] {
            let mut component = Vec::new();
            while let Some(member) = state.stack.pop() {
                state.on_stack.remove(member);
                component.push(member.to_vec());
                if member == node {
                    break;
                }
            }
            component.sort();
            state.found.push(component);
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !state.index.contains_key(node.as_slice()) {
            visit(&mut state, node);
        }
    }
    state.found
}

#[test]
fn no_crate_has_an_import_circle() {
    let root = workspace();
    let mut report = Vec::new();
    for krate in [
        "host/src",
        "backend-component/src",
        "contracts/src",
        "bench/src",
        "tests/fui/src",
    ] {
        for circle in circles(&root.join(krate)) {
            report.push(format!("{krate}: {}", circle.join(" ↔ ")));
        }
        for circle in room_circles(&root.join(krate)) {
            report.push(format!("{krate} (rooms): {}", circle.join(" ↔ ")));
        }
    }
    assert!(
        report.is_empty(),
        "modules that use each other (move what both need into a lower module):\n{}",
        report.join("\n")
    );
}

/// The service's jobs: each runs its methods on sessions through the keeper
/// (`service::keeper`) and the shared rooms beside it (envelope, events, sessions, notice,
/// report, cache), never through another job. The one exception is the router's: dispatch
/// hands a save to the save job (`save::Write`).
#[test]
fn the_service_jobs_use_no_other_job() {
    const JOBS: [&str; 6] = [
        "dispatch",
        "lifecycle",
        "publish",
        "rebase",
        "save",
        "watch",
    ];
    const ALLOWED: [(&str, &str); 1] = [("dispatch", "save")];
    let modules = modules(&workspace().join("host/src"));
    let mut report = Vec::new();
    for module in &modules {
        let [room, job] = module.path.as_slice() else {
            continue;
        };
        if room != "service" || !JOBS.contains(&job.as_str()) {
            continue;
        }
        let used: BTreeSet<String> = named_paths(module)
            .into_iter()
            .filter(|path| path.len() >= 2 && path[0] == "service")
            .map(|path| path[1].clone())
            .filter(|other| other != job && JOBS.contains(&other.as_str()))
            .collect();
        for other in used {
            if !ALLOWED.contains(&(job.as_str(), other.as_str())) {
                report.push(format!("service::{job} uses service::{other}"));
            }
        }
    }
    assert!(
        report.is_empty(),
        "a job uses another (move what both need into service::keeper or a shared room):\n{}",
        report.join("\n")
    );
}

#[test]
fn the_checker_sees_circles() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("room")).unwrap();
    std::fs::write(src.join("lib.rs"), "mod a; mod b; mod room;").unwrap();
    // A string and a comment naming the other module are not uses.
    std::fs::write(
        src.join("a.rs"),
        "use crate::{b::Thing, room};\n// crate::c\nconst S: &str = \"crate::c\";",
    )
    .unwrap();
    std::fs::write(
        src.join("b.rs"),
        "pub struct Thing; fn f() { crate::room::inner::g(); }",
    )
    .unwrap();
    std::fs::write(src.join("room/mod.rs"), "mod inner; use inner::g;").unwrap();
    std::fs::write(
        src.join("room/inner.rs"),
        "pub fn g() { super::super::a::h(); }",
    )
    .unwrap();
    std::fs::write(src.join("c.rs"), "use crate::a;").unwrap();
    let found = circles(src);
    assert_eq!(found, vec![vec!["a", "b", "room::inner"]]);
}

/// Lines of a source file before its `#[cfg(test)]` module.
fn lines_before_tests(text: &str) -> usize {
    text.lines()
        .take_while(|line| line.trim() != "#[cfg(test)]")
        .count()
}

#[test]
fn no_host_source_file_is_over_its_size() {
    let mut files = Vec::new();
    rust_files(&workspace().join("host/src"), &mut files);
    let long: Vec<String> = files
        .iter()
        .filter_map(|file| {
            let lines = lines_before_tests(&std::fs::read_to_string(file).ok()?);
            (lines > MAX_HOST_FILE_LINES).then(|| format!("{} ({lines} lines)", file.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "host files over {MAX_HOST_FILE_LINES} lines (split them by job):\n{}",
        long.join("\n")
    );
}

/// Longest source file of any crate, tests aside: past it a file holds more than one job.
const MAX_SOURCE_FILE_LINES: usize = 1200;

#[test]
fn no_source_file_of_any_crate_is_over_1200_lines() {
    let mut files = Vec::new();
    for src in [
        "backend-component/src",
        "contracts/src",
        "host/src",
        "bench/src",
        "tests/fui/src",
    ] {
        rust_files(&workspace().join(src), &mut files);
    }
    let long: Vec<String> = files
        .iter()
        .filter(|file| file.file_name().is_some_and(|name| name != "tests.rs"))
        .filter_map(|file| {
            let lines = lines_before_tests(&std::fs::read_to_string(file).ok()?);
            (lines > MAX_SOURCE_FILE_LINES).then(|| format!("{} ({lines} lines)", file.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "source files over {MAX_SOURCE_FILE_LINES} lines before their tests (split them by job):\n{}",
        long.join("\n")
    );
}

/// Method and tool names live in the method table (`contracts/src/methods.rs`); the host
/// reads them from there, so a string literal holding one is a second spelling.
#[test]
fn method_and_tool_names_are_spelled_once() {
    let names: BTreeSet<&str> = METHODS
        .iter()
        .flat_map(|method| [method.name, method.tool])
        .collect();
    let mut spelled = Vec::new();
    for module in modules(&workspace().join("host/src")) {
        // Unit tests may name the methods they call, as a client would.
        let text = std::fs::read_to_string(&module.file).expect("readable");
        let code_lines = lines_before_tests(&text);
        let (_, strings) = lex(&text.lines().take(code_lines).collect::<Vec<_>>().join("\n"));
        for literal in strings {
            if names.contains(literal.as_str()) {
                spelled.push(format!("{}: \"{literal}\"", module.file.display()));
            }
        }
    }
    assert!(
        spelled.is_empty(),
        "method or tool names spelled outside the method table (use MethodId):\n{}",
        spelled.join("\n")
    );
}

/// What `cargo tree` resolves for `selection`: each package (name and version) with the
/// feature sets it is built with, normal and build dependencies on this machine's target.
fn resolved_features(selection: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = std::process::Command::new(cargo)
        .current_dir(workspace())
        .args(["tree", "--locked", "--offline", "-e", "normal,build"])
        .args(["--prefix", "none", "-f", "{p}|{f}"])
        .args(selection)
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo tree {selection:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut packages: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let line = line.trim_end_matches(" (*)");
        if let Some((package, features)) = line.split_once('|') {
            packages
                .entry(package.to_string())
                .or_default()
                .insert(features.to_string());
        }
    }
    packages
}

/// The README's first command builds the host alone; building the workspace after it (the
/// benchmark, the tests' decoder, the backend natively) must not compile any of the
/// host's dependencies again, as it does when another member turns on a feature of a crate
/// wasmtime depends on. The fix is to name such a crate in the host's (or, for crates
/// proc-macros share, in `host/backend-wasm`'s build) dependencies with those features.
#[test]
fn the_host_alone_resolves_the_features_the_workspace_does() {
    let host = resolved_features(&["-p", "ofgui-host"]);
    let workspace = resolved_features(&["--workspace"]);
    let differ: Vec<String> = host
        .iter()
        .filter(|(package, features)| workspace.get(*package) != Some(features))
        .map(|(package, features)| {
            format!(
                "{package}: {features:?} alone, {:?} in the workspace",
                workspace.get(package)
            )
        })
        .collect();
    assert!(
        differ.is_empty(),
        "a workspace build would recompile these for the host:\n{}",
        differ.join("\n")
    );
}
