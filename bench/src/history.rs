//! Undo and redo beside apply, what the journal adds to each edit, and how soon an
//! outside change reaches a subscriber (`cargo run --release -p bench -- history`).

use std::io::BufRead as _;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use ofgui_host::backend::journal::{Entry, Header, Journal};
use serde_json::{Value, json};

use crate::{Client, OpenCopy, median, ms};

/// Rounds of apply, undo and redo.
const ROUNDS: usize = 30;

pub fn history(host: &Path, cache: &Path, source: &Path) -> Result<()> {
    let OpenCopy {
        root,
        project,
        mut client,
        session: id,
    } = OpenCopy::new(host, cache, source)?;
    let (mut applies, mut undos, mut redos) = (Vec::new(), Vec::new(), Vec::new());
    let mut revision = 0;
    for round in 0..ROUNDS {
        let edit = json!([{ "kind": "setDisplayNodeProps",
            "selector": { "packageId": "zgmoraj4", "componentResourceId": "gkq00", "displayNodeId": "n4" },
            "props": { "position": { "x": round, "y": 34 } } }]);
        let (_, apply) = client.call(
            "openfairygui_backend_apply_transaction",
            json!({ "sessionId": id, "expectedRevision": revision, "operations": edit }),
        )?;
        let (_, undo) = match client.call(
            "openfairygui_undo",
            json!({ "sessionId": id, "expectedRevision": revision + 1 }),
        ) {
            Ok(answer) => answer,
            // A host from before undo (a before/after comparison).
            Err(_) if round == 0 => {
                println!(
                    "\n(history: this host has no undo; apply (1 node) {})",
                    ms(apply)
                );
                return Ok(());
            }
            Err(error) => return Err(error),
        };
        let (_, redo) = client.call(
            "openfairygui_redo",
            json!({ "sessionId": id, "expectedRevision": revision + 2 }),
        )?;
        revision += 3;
        applies.push(apply);
        undos.push(undo);
        redos.push(redo);
    }
    let notified = outside_change(&mut client, &id, &project)?;
    drop(client);

    let append = journal_append(root.path())?;
    println!(
        "\n| history, fairygui-unity-examples ({ROUNDS} rounds, medians) | apply (1 node, journaled) | undo | redo | journal append + sync (in process) | outside change → resources/updated |"
    );
    println!("|---|---|---|---|---|---|");
    println!(
        "| one server | {} | {} | {} | {} | {} |",
        ms(median(applies)),
        ms(median(undos)),
        ms(median(redos)),
        ms(append),
        ms(notified),
    );
    Ok(())
}

/// How long after a file of the project changes outside the subscriber hears of it.
fn outside_change(client: &mut Client, id: &Value, project: &Path) -> Result<Duration> {
    let uri = format!(
        "openfairygui://backend/session/{}",
        id.as_str().unwrap_or_default()
    );
    client.request("resources/subscribe", json!({ "uri": uri }))?;
    let file = project.join("assets/Basics/Main.xml");
    let text = std::fs::read_to_string(&file)?;
    let started = Instant::now();
    std::fs::write(
        &file,
        text.replacen("size=\"1136,640\"", "size=\"1136,641\"", 1),
    )?;
    loop {
        let mut line = String::new();
        if client.stdout.read_line(&mut line)? == 0 {
            bail!("server closed stdout");
        }
        let message: Value = serde_json::from_str(&line)?;
        if message["method"] == "notifications/resources/updated" && message["params"]["uri"] == uri
        {
            return Ok(started.elapsed());
        }
        if started.elapsed() > Duration::from_secs(10) {
            bail!("no update within 10 s");
        }
    }
}

/// The median time to append one edit to a journal and sync it, beside a copy.
fn journal_append(dir: &Path) -> Result<Duration> {
    let project = dir.join("UIProject");
    let mut journal = Journal::beside(&project)?;
    journal.begin(&Header::now(0, &project), &[])?;
    let operations = r#"[{"kind":"setDisplayNodeProps","selector":{"packageId":"zgmoraj4","componentResourceId":"gkq00","displayNodeId":"n4"},"props":{"position":{"x":1,"y":34}}}]"#;
    let mut times = Vec::new();
    for revision in 0..200 {
        let entry = Entry {
            expected_revision: revision,
            action: ofgui_contracts::additions::EditKind::Apply,
            operations: Some(serde_json::value::RawValue::from_string(operations.into())?),
            at: "2026-12-03T00:00:00.000Z".into(),
        };
        let started = Instant::now();
        journal.append(&entry)?;
        times.push(started.elapsed());
    }
    journal.remove()?;
    Ok(median(times))
}
