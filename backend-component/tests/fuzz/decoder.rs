//! The transaction decoder and engine on random and mutated batches: valid batches of
//! every one of the 41 kinds (the save_kinds table), the same operations aimed at other
//! targets of the project as it is, the property tests' corpus operations, and all of
//! them damaged in their JSON tree or text. Each batch is preflighted and applied to a
//! session on a real corpus: nothing panics, a refused batch leaves the session as it
//! was (model, revision, status), an accepted one advances the revision by one, and the
//! preflight agrees with the apply.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use ofgui_backend::session::{Names, Session};
use ofgui_backend::testing::{MemFs, assert_articles};
use ofgui_contracts::error::{BackendError, PreviewFailureReason};
use ofgui_contracts::ops::OPERATION_KINDS;
use ofgui_contracts::uam::UamProject;
use serde_json::{Value, json};

use crate::corpus_ops::{corpus_operation, pick};
use crate::driver::{Log, excerpt};
use crate::kinds::{Base, Corpus, cases};
use crate::mutate;

/// A corpus in memory with the valid batches built on it.
pub struct Pool {
    pub corpus: Corpus,
    pub fs: MemFs,
    /// The table's batch for each kind that runs on this corpus.
    pub batches: Vec<Value>,
    /// Every operation of those batches, by kind.
    pub operations: BTreeMap<String, Vec<Value>>,
}

pub fn pools() -> &'static [Pool; 2] {
    static POOLS: OnceLock<[Pool; 2]> = OnceLock::new();
    POOLS.get_or_init(|| {
        [Corpus::Experiments, Corpus::Unity].map(|corpus| {
            let fs = MemFs::load(&corpus.root()).expect("corpus");
            let session = Session::open(&fs, Names::session("pool"), corpus.fairy(), 0)
                .expect("the corpus opens");
            let root = corpus.root();
            let base = Base {
                project: session.project(),
                dir: &root,
            };
            let batches: Vec<Value> = cases()
                .into_iter()
                .filter(|(_, c, _)| std::mem::discriminant(c) == std::mem::discriminant(&corpus))
                .map(|(_, _, build)| build(&base))
                .collect();
            let mut operations: BTreeMap<String, Vec<Value>> = BTreeMap::new();
            for op in batches.iter().flat_map(|b| b.as_array().unwrap()) {
                let kind = op["kind"].as_str().unwrap().to_string();
                operations.entry(kind).or_default().push(op.clone());
            }
            Pool {
                corpus,
                fs,
                batches,
                operations,
            }
        })
    })
}

/// Points the selector of `op` at something else the project has: another package,
/// resource, component, node, controller, transition, folder or branch.
fn retarget(rng: &mut fastrand::Rng, project: &UamProject, op: &mut Value) {
    let Some(selector) = op.get_mut("selector").and_then(Value::as_object_mut) else {
        return;
    };
    let Some(package) = pick(rng, &project.packages) else {
        return;
    };
    if selector.contains_key("packageId") {
        selector.insert("packageId".into(), json!(package.id));
    }
    if let Some(resource) = pick(rng, &package.resources) {
        if selector.contains_key("resourceId") {
            selector.insert("resourceId".into(), json!(resource.id()));
        }
        let component = if selector.contains_key("componentResourceId") {
            let components: Vec<_> = package
                .resources
                .iter()
                .filter_map(|r| r.component().map(|c| (r.id(), c)))
                .collect();
            pick(rng, &components).cloned()
        } else {
            None
        };
        if let Some((id, model)) = component {
            selector.insert("componentResourceId".into(), json!(id));
            if let Some(node) = pick(rng, &model.display_list) {
                if selector.contains_key("displayNodeId") {
                    selector.insert("displayNodeId".into(), json!(node.id()));
                }
                if let Some(gear) = pick(rng, &node.base().gears)
                    && selector.contains_key("controllerName")
                    && selector.contains_key("kind")
                {
                    selector.insert("kind".into(), json!(gear.kind()));
                    selector.insert("controllerName".into(), json!(gear.controller_name()));
                }
            }
            if let Some(controller) = pick(rng, &model.controllers)
                && selector.contains_key("controllerName")
                && !selector.contains_key("kind")
            {
                selector.insert("controllerName".into(), json!(controller.name));
            }
            if let Some(transition) = pick(rng, &model.transitions)
                && selector.contains_key("transitionName")
            {
                selector.insert("transitionName".into(), json!(transition.name));
            }
        }
    }
    if let Some(folder) = pick(rng, &package.folders)
        && selector.contains_key("path")
    {
        selector.insert("path".into(), json!(folder.path));
        selector.insert("branch".into(), json!(folder.branch));
    }
    if let Some(branch) = pick(rng, &project.branches)
        && selector.contains_key("branch")
        && !selector.contains_key("path")
    {
        selector.insert("branch".into(), json!(branch));
    }
}

/// One operation: a table operation (perhaps aimed elsewhere) or a corpus operation.
fn operation(rng: &mut fastrand::Rng, project: &UamProject, pool: &Pool, fresh: &str) -> Value {
    if rng.usize(..3) == 0 {
        return corpus_operation(rng, project, fresh);
    }
    let kinds: Vec<&String> = pool.operations.keys().collect();
    let kind = kinds[rng.usize(..kinds.len())];
    let mut op = pick(rng, &pool.operations[kind]).unwrap().clone();
    if rng.bool() {
        retarget(rng, project, &mut op);
    }
    op
}

/// Damage to a batch's tree: a kind swapped, a key removed or added, a value replaced,
/// operations repeated (past the batch limit too), or no batch at all.
fn damage(rng: &mut fastrand::Rng, batch: &mut Value) -> String {
    let Some(ops) = batch.as_array_mut() else {
        return "not an array".into();
    };
    if ops.is_empty() {
        return "empty".into();
    }
    let at = rng.usize(..ops.len());
    if !ops[at].is_object() {
        return format!("op {at}: {}", mutate::json_value(rng, &mut ops[at], 0));
    }
    match rng.usize(..12) {
        0 => {
            let kind = OPERATION_KINDS[rng.usize(..OPERATION_KINDS.len())];
            ops[at]["kind"] = json!(kind);
            format!("op {at} is now a {kind}")
        }
        1 => {
            let Some(object) = ops[at].as_object_mut() else {
                return "nothing".into();
            };
            let key = object.keys().nth(rng.usize(..object.len().max(1))).cloned();
            if let Some(key) = &key {
                object.remove(key);
            }
            format!("op {at} lost {key:?}")
        }
        2 => {
            ops[at]["unexpected"] = json!(mutate::weird(rng));
            format!("op {at} has an unknown key")
        }
        3 => {
            ops[at]["opId"] = json!(mutate::weird(rng));
            format!("op {at} has an odd opId")
        }
        4 => {
            let op = ops[at].clone();
            // Past the limit only with small operations: a batch of a thousand copies of
            // one carrying image bytes is tens of megabytes, slow to scan in a debug build.
            let small = op.to_string().len() < 2000;
            let copies = [2, 50, if small { 1001 } else { 3 }][rng.usize(..3)];
            ops.extend(std::iter::repeat_n(op, copies));
            format!("op {at} repeated {copies} times")
        }
        5 => {
            *batch = [
                json!([]),
                json!({}),
                json!(null),
                json!("[]"),
                json!([[]]),
                json!([null]),
                json!([1]),
            ][rng.usize(..7)]
            .clone();
            format!("the batch is {batch}")
        }
        _ => format!("op {at}: {}", mutate::json_value(rng, &mut ops[at], 0)),
    }
}

/// Damage to a batch's text: numbers JSON cannot hold, duplicate keys, escapes, cuts.
fn damage_text(rng: &mut fastrand::Rng, text: &mut String) -> String {
    let boundary = |rng: &mut fastrand::Rng, text: &str| {
        let mut at = rng.usize(..=text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        at
    };
    match rng.usize(..6) {
        0 => {
            let at = boundary(rng, text);
            text.truncate(at);
            format!("cut at {at}")
        }
        1 => {
            let digits: Vec<usize> = text
                .match_indices(|c: char| c.is_ascii_digit())
                .map(|(i, _)| i)
                .collect();
            let Some(&at) = digits.get(rng.usize(..digits.len().max(1))) else {
                return "nothing".into();
            };
            let token = [
                "1e999",
                "-0",
                "1.5",
                "-1",
                "4294967296",
                "18446744073709551616",
                "1e-400",
                "0.0",
            ][rng.usize(..8)];
            text.insert_str(at, token);
            format!("{token} in a number at {at}")
        }
        2 => match text.find("\"kind\"") {
            Some(at) => {
                text.insert_str(at, "\"kind\":\"addBranch\",");
                "a duplicate kind".into()
            }
            None => "nothing".into(),
        },
        3 => {
            let quotes: Vec<usize> = text.match_indices(":\"").map(|(i, _)| i + 2).collect();
            let Some(&at) = quotes.get(rng.usize(..quotes.len().max(1))) else {
                return "nothing".into();
            };
            let escape = [
                "\\ud800",
                "\\u0000",
                "\\udfff\\ud800",
                "\\\\..\\\\",
                "\\n",
                "\\u202e",
            ][rng.usize(..6)];
            text.insert_str(at, escape);
            format!("escape {escape} at {at}")
        }
        4 if rng.bool() => {
            // Nesting as text: a value this deep would overflow the harness's own stack
            // when built, printed or dropped.
            let Some(at) = text.find("\"selector\":") else {
                return "nothing".into();
            };
            let depth = [10, 127, 128, 129, 1000, 100_000][rng.usize(..6)];
            let nested = format!("{}1{},", "[".repeat(depth), "]".repeat(depth));
            text.insert_str(at + "\"selector\":".len(), &nested);
            format!("a selector nested {depth} deep")
        }
        4 => {
            let at = boundary(rng, text);
            let c = ['{', '}', '[', ']', ',', ':', '"', '\u{feff}', 'é'][rng.usize(..9)];
            text.insert(at, c);
            format!("{c:?} at {at}")
        }
        _ => {
            let at = boundary(rng, text);
            let mut end = (at + rng.usize(1..40)).min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.replace_range(at..end, "");
            format!("removed {at}..{end}")
        }
    }
}

/// A batch's JSON text, with a note of how it was made.
pub fn batch_text(
    rng: &mut fastrand::Rng,
    project: &UamProject,
    pool: &Pool,
    fresh: &str,
    damaged: bool,
) -> (String, String) {
    let mut how = Vec::new();
    let mut batch = if rng.usize(..4) == 0 {
        how.push("a table batch".to_string());
        pick(rng, &pool.batches).unwrap().clone()
    } else {
        Value::Array(
            (0..1 + rng.usize(..4))
                .map(|k| operation(rng, project, pool, &format!("{fresh}_{k}")))
                .collect(),
        )
    };
    if damaged {
        for _ in 0..1 + rng.usize(..3) {
            how.push(damage(rng, &mut batch));
        }
    }
    let mut text = batch.to_string();
    if damaged && rng.usize(..4) == 0 {
        how.push(damage_text(rng, &mut text));
    }
    (text, how.join("; "))
}

/// Everything a refused batch must leave as it was.
fn state(session: &Session) -> (UamProject, ofgui_backend::session::Status, usize) {
    (
        session.project().clone(),
        session.status(),
        session.read_diagnostics().len(),
    )
}

fn over_budget(error: &BackendError) -> bool {
    matches!(
        error,
        BackendError::TransactionPreviewFailed {
            reason: PreviewFailureReason::ResponseBudgetExceeded,
            ..
        }
    )
}

/// Preflights and applies one batch, checking what each may change.
pub fn check_batch(session: &mut Session, expected: u64, text: &str) -> Result<bool, String> {
    let before = state(session);
    let preview = session.preflight(expected, text);
    if state(session) != before {
        return Err("a preflight changed the session".into());
    }
    let applied = session.apply(expected, text);
    match (applied, preview) {
        (Err(rejected), preview) => {
            assert_articles(
                std::iter::once(rejected.error.message())
                    .chain(rejected.diagnostics.iter().map(|d| d.message.as_str())),
            );
            if state(session) != before {
                return Err(format!(
                    "a refused batch changed the session ({:?})",
                    rejected.error
                ));
            }
            if preview.is_ok() {
                return Err(format!(
                    "the preflight accepted what the apply refused: {:?}",
                    rejected.error
                ));
            }
            Ok(false)
        }
        (Ok(_), preview) => {
            let status = session.status();
            if expected != before.1.revision {
                return Err(format!(
                    "a batch for revision {expected} applied at {}",
                    before.1.revision
                ));
            }
            if status.revision != before.1.revision + 1 || !status.dirty {
                return Err(format!(
                    "an accepted batch left {status:?} (was {:?})",
                    before.1
                ));
            }
            if let Err(rejected) = preview
                && !over_budget(&rejected.error)
            {
                return Err(format!(
                    "the preflight refused what the apply accepted: {:?}",
                    rejected.error
                ));
            }
            Ok(true)
        }
    }
}

pub fn case(rng: &mut fastrand::Rng, log: &Log) -> Result<(), String> {
    let pool = &pools()[rng.usize(..2)];
    log.note(format!("corpus {:?}", pool.corpus));
    let mut session = Session::open(&pool.fs, Names::session("fuzz"), pool.corpus.fairy(), 0)
        .map_err(|e| format!("open: {e:?}"))?;
    for round in 0..1 + rng.usize(..6) {
        let damaged = rng.usize(..3) != 0;
        let (text, how) = batch_text(rng, session.project(), pool, &format!("f{round}"), damaged);
        let revision = session.status().revision;
        // Now and then a stale or future revision.
        let expected = match rng.usize(..16) {
            0 => revision + 1,
            1 => revision.wrapping_sub(1),
            _ => revision,
        };
        log.note(format!(
            "batch {round} at revision {expected} ({how}):\n{}",
            excerpt(&text)
        ));
        check_batch(&mut session, expected, &text).map_err(|e| format!("batch {round}: {e}"))?;
    }
    Ok(())
}
