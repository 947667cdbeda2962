//! The project reader on mutated and generated files: component XML, `package.xml`,
//! `package_branch.xml`, settings JSON and the `.fairy` file of the real corpora, read
//! from memory. It never panics or hangs, its output stays proportional to its input,
//! reading is deterministic, a file that does not parse is reported against that file, and
//! a number the reader models that is replaced by one it cannot hold is reported.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

use ofgui_backend::reader::{ProjectSource, ReadError, read_project};
use ofgui_backend::testing::{MemFs, experiments_root, unity_root};

use crate::driver::{Log, excerpt};
use crate::mutate::{self, Vocab};

const UNITY: &str = "FairyGUI-Unity-Examples.fairy";
const EXPERIMENTS: &str = "FairyGUI-Experiments.fairy";

/// The corpora in memory, and the vocabulary learned from their XML.
struct Bases {
    experiments: MemFs,
    unity: MemFs,
    unity_packages: Vec<String>,
    vocab: Vocab,
    /// Unmutated reads by base key, computed when first needed.
    reads: Mutex<HashMap<String, Arc<ProjectSource>>>,
}

fn bases() -> &'static Bases {
    static BASES: OnceLock<Bases> = OnceLock::new();
    BASES.get_or_init(|| {
        let experiments = MemFs::load(&experiments_root()).expect("experiments corpus");
        let unity = MemFs::load(&unity_root()).expect("unity corpus");
        let unity_packages: BTreeSet<String> = unity
            .files
            .keys()
            .filter_map(|path| path.strip_prefix("assets/")?.split_once('/'))
            .map(|(package, _)| package.to_string())
            .collect();
        let vocab = Vocab::learn(
            experiments
                .files
                .iter()
                .chain(&unity.files)
                .filter(|(path, _)| is_document(path) && !path.ends_with(".json"))
                .map(|(_, bytes)| bytes.as_slice()),
        );
        Bases {
            experiments,
            unity,
            unity_packages: unity_packages.into_iter().collect(),
            vocab,
            reads: Mutex::new(HashMap::new()),
        }
    })
}

fn is_document(path: &str) -> bool {
    path.ends_with(".xml") || path.ends_with(".json") || path.ends_with(".fairy")
}

fn is_package_file(path: &str) -> bool {
    path.ends_with("/package.xml") || path.ends_with("/package_branch.xml")
}

/// The root element a document must have.
fn root_of(path: &str) -> &'static str {
    if path.ends_with(".fairy") {
        "projectDescription"
    } else if path.ends_with("/package_branch.xml") {
        "branchDescription"
    } else if is_package_file(path) {
        "packageDescription"
    } else {
        "component"
    }
}

/// Whether the reader cannot take `bytes` for `path` at all (by parsers other than its
/// own, so the check does not share its bugs).
fn unparsable(path: &str, bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let Ok(text) = std::str::from_utf8(bytes) else {
        return true;
    };
    if path.ends_with(".json") {
        return !matches!(
            serde_json::from_str::<serde_json::Value>(text),
            Ok(serde_json::Value::Object(_))
        );
    }
    match roxmltree::Document::parse(text) {
        Ok(doc) => doc.root_element().tag_name().name() != root_of(path),
        Err(_) => true,
    }
}

/// A project to read: the experiments, or the unity examples' `.fairy` and settings with
/// one of its packages (a whole 30-package read per case would be slow).
fn base(rng: &mut fastrand::Rng) -> (String, MemFs, &'static str) {
    let bases = bases();
    if rng.usize(..3) == 0 {
        return ("experiments".into(), bases.experiments.clone(), EXPERIMENTS);
    }
    let package = &bases.unity_packages[rng.usize(..bases.unity_packages.len())];
    let prefix = format!("assets/{package}/");
    let fs = MemFs {
        files: bases
            .unity
            .files
            .iter()
            .filter(|(path, _)| !path.starts_with("assets/") || path.starts_with(&prefix))
            .map(|(path, bytes)| (path.clone(), bytes.clone()))
            .collect(),
        ..MemFs::default()
    };
    (format!("unity/{package}"), fs, UNITY)
}

/// The unmutated read of a base.
fn base_read(key: &str, fairy: &str, original: impl FnOnce() -> MemFs) -> Arc<ProjectSource> {
    let reads = &bases().reads;
    if let Some(read) = reads.lock().unwrap().get(key) {
        return Arc::clone(read);
    }
    let read = Arc::new(read_project(&original(), fairy).expect("the corpus reads"));
    reads
        .lock()
        .unwrap()
        .insert(key.to_string(), Arc::clone(&read));
    read
}

/// Every documented property of one read of `fs`, with `mutated` the files changed.
fn check_read(
    fs: &MemFs,
    fairy: &str,
    mutated: &BTreeSet<String>,
    base: &ProjectSource,
    rng: &mut fastrand::Rng,
) -> Result<(), String> {
    let source = match read_project(fs, fairy) {
        Ok(source) => source,
        // Only a broken `.fairy` file may stop the read.
        Err(ReadError::Unreadable(_)) if mutated.contains(fairy) => return Ok(()),
        Err(error) => return Err(format!("the read failed: {error:?}")),
    };
    let input: usize = fs
        .files
        .iter()
        .filter(|(path, _)| is_document(path))
        .map(|(_, bytes)| bytes.len())
        .sum();
    let model = serde_json::to_vec(&source.project).map_err(|e| e.to_string())?;
    // Each element becomes one node of a few hundred bytes at most; an amplification
    // far beyond that (entity expansion, a quadratic copy) is a memory bomb.
    if model.len() > 100 * input + (1 << 20) {
        return Err(format!(
            "{input} bytes of documents read into a {} byte model",
            model.len()
        ));
    }
    if source.diagnostics.len() > input / 2 + 100 {
        return Err(format!(
            "{} diagnostics for {input} bytes",
            source.diagnostics.len()
        ));
    }
    // A component is only read through its package's description: with that broken,
    // the component may be skipped, reported or not.
    let package_broken = mutated.iter().any(|path| is_package_file(path));
    for path in mutated {
        let bytes = &fs.files[path];
        let read_before = base.documents.contains_key(path.as_str());
        let component = root_of(path) == "component";
        if !read_before || (component && package_broken) || !unparsable(path, bytes) {
            continue;
        }
        let reported = source.diagnostics.iter().any(|d| {
            d.source_path.as_deref() == Some(path.as_str()) || d.message.contains(path.as_str())
        });
        if !reported {
            return Err(format!(
                "{path} does not parse, and no diagnostic names it: {:#?}",
                source.diagnostics
            ));
        }
    }
    // Reading is a function of the files: a session re-read must see the same project.
    if rng.usize(..8) == 0 {
        let again = read_project(fs, fairy).map_err(|e| format!("second read: {e:?}"))?;
        if again.project != source.project || again.diagnostics != source.diagnostics {
            return Err("two reads of the same files differ".into());
        }
    }
    Ok(())
}

/// Mutates one to three documents of the base.
fn mutated_files(rng: &mut fastrand::Rng, fs: &mut MemFs, log: &Log) -> BTreeSet<String> {
    let documents: Vec<String> = fs
        .files
        .keys()
        .filter(|p| is_document(p))
        .cloned()
        .collect();
    let packages: Vec<&String> = documents.iter().filter(|p| is_package_file(p)).collect();
    let settings: Vec<&String> = documents.iter().filter(|p| p.ends_with(".json")).collect();
    let components: Vec<&String> = documents
        .iter()
        .filter(|p| root_of(p) == "component" && !p.ends_with(".json"))
        .collect();
    let mut mutated = BTreeSet::new();
    for _ in 0..1 + rng.usize(..3) {
        let pool = match rng.usize(..20) {
            0 => vec![documents.iter().find(|p| p.ends_with(".fairy")).unwrap()],
            1..=5 => packages.clone(),
            6..=8 => settings.clone(),
            _ => components.clone(),
        };
        let Some(path) = pool.get(rng.usize(..pool.len().max(1))) else {
            continue;
        };
        let path = (*path).clone();
        let old = fs.files[&path].clone();
        let (new, what) = if path.ends_with(".json") {
            mutate::json(rng, &old)
        } else {
            mutate::xml(rng, &old, &bases().vocab)
        };
        log.note(format!(
            "{path}: {}\n--- {path} ---\n{}",
            what.join("; "),
            excerpt(&String::from_utf8_lossy(&new))
        ));
        fs.files.insert(path.clone(), new);
        mutated.insert(path);
    }
    mutated
}

/// Attributes whose values are names, ids or text, however numeric they look.
const TEXTUAL: &[&str] = &[
    "id",
    "name",
    "pages",
    "text",
    "title",
    "value",
    "values",
    "page",
    "target",
    "customData",
    "tooltips",
    "prompt",
    "restrict",
    "src",
    "pkg",
    "fileName",
    "remark",
    "icon",
    "selectedIcon",
    "url",
    "font",
    "defaultItem",
    "controller",
    "group",
    "selectedTitle",
    "sound",
    "path",
    "file",
    "homePage",
    "alias",
    "key",
    "label",
];

/// A number the reader models, replaced by one it cannot hold, must be reported or kept
/// as written: it is modeled if the same tuple with every number one higher reads
/// differently.
fn silently_dropped_numbers(
    rng: &mut fastrand::Rng,
    key: &str,
    fs: &MemFs,
    fairy: &str,
    log: &Log,
) -> Result<(), String> {
    let base = base_read(key, fairy, || fs.clone());
    let components: Vec<&String> = base
        .documents
        .keys()
        .filter(|p| p.ends_with(".xml") && !is_package_file(p))
        .collect();
    let Some(path) = components.get(rng.usize(..components.len().max(1))) else {
        return Ok(());
    };
    let text = String::from_utf8_lossy(&fs.files[path.as_str()]).into_owned();
    let candidates: Vec<(String, usize, usize)> = mutate::numeric_attributes(&text)
        .into_iter()
        .filter(|(name, ..)| !TEXTUAL.contains(&name.as_str()))
        .collect();
    let Some((name, start, end)) = candidates
        .get(rng.usize(..candidates.len().max(1)))
        .cloned()
    else {
        return Ok(());
    };
    let old = &text[start..end];
    let read_with = |value: &str| {
        let mut changed = fs.clone();
        let mut new = text.clone();
        new.replace_range(start..end, value);
        changed.files.insert(path.to_string(), new.into_bytes());
        read_project(&changed, fairy).map_err(|e| format!("{e:?}"))
    };
    let higher: Vec<String> = old
        .split(',')
        .map(|n| (n.parse::<f64>().unwrap() + 1.0).to_string())
        .collect();
    if read_with(&higher.join(","))?.project == base.project {
        return Ok(());
    }
    let mut parts: Vec<&str> = old.split(',').collect();
    let k = rng.usize(..parts.len());
    parts[k] = ["NaN", "1e999", "-inf", "x1", "--1", "0x1"][rng.usize(..6)];
    let weird = parts.join(",");
    log.note(format!("{path}: {name}=\"{old}\" → \"{weird}\""));
    let read = read_with(&weird)?;
    // Kept as it is written (transition values may be any text) is not dropped.
    let mentions = |project: &ofgui_contracts::uam::UamProject| {
        serde_json::to_string(project)
            .unwrap()
            .matches(parts[k])
            .count()
    };
    if read.diagnostics.len() <= base.diagnostics.len()
        && mentions(&read.project) <= mentions(&base.project)
    {
        return Err(format!(
            "{name}=\"{old}\" → \"{weird}\" in {path} reads without a new diagnostic"
        ));
    }
    Ok(())
}

pub fn case(rng: &mut fastrand::Rng, log: &Log) -> Result<(), String> {
    let (key, mut fs, fairy) = base(rng);
    log.note(format!("base {key}"));
    match rng.usize(..10) {
        0..=5 => {
            let base = base_read(&key, fairy, || fs.clone());
            let mutated = mutated_files(rng, &mut fs, log);
            check_read(&fs, fairy, &mutated, &base, rng)
        }
        6 | 7 => {
            // A component generated from the corpora's grammar takes an existing one's file.
            let components: Vec<String> = fs
                .files
                .keys()
                .filter(|p| p.ends_with(".xml") && !is_package_file(p))
                .cloned()
                .collect();
            let Some(path) = components
                .get(rng.usize(..components.len().max(1)))
                .cloned()
            else {
                return Ok(());
            };
            let document = bases().vocab.document(rng, "component");
            log.note(format!(
                "--- {path} (generated) ---\n{}",
                excerpt(&document)
            ));
            let base = base_read(&key, fairy, || fs.clone());
            fs.files.insert(path.clone(), document.into_bytes());
            check_read(&fs, fairy, &BTreeSet::from([path]), &base, rng)
        }
        _ => silently_dropped_numbers(rng, &key, &fs, fairy, log),
    }
}
