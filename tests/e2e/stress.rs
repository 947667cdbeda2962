//! Concurrency through the real server: four sessions on four projects driven from
//! concurrent tasks with interleaved reads, applies and saves. Calls on one session are
//! serialized (two applies at the same revision: exactly one wins, and a read racing an
//! apply sees the revision before or after it, never a mix); sessions do not wait for each
//! other (the timings are printed, not asserted); revisions, events and the saved files
//! come out exactly as the calls made them.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::*;

const APPLY: &str = "openfairygui_backend_apply_transaction";
const SAVE: &str = "openfairygui_backend_save_session";
const EVENTS: &str = "openfairygui_backend_get_events";

/// Rounds per phase; every [`SAVE_EVERY`]th round saves.
const ROUNDS: i64 = 8;
const SAVE_EVERY: i64 = 4;

struct Driven {
    calls: usize,
    elapsed: Duration,
}

/// One session: its id, project directory and the node it moves.
struct Target {
    id: String,
    project: PathBuf,
    node: (String, String, String),
}

fn selector(node: &(String, String, String)) -> Value {
    json!({ "packageId": node.0, "componentResourceId": node.1, "displayNodeId": node.2 })
}

/// Rounds `from..from + ROUNDS` on one session: each moves the node with two racing applies
/// at the same revision (to x = round and x = -round) and a racing read, then puts it at
/// x = round if the other apply won, and reads the outline; every [`SAVE_EVERY`]th round
/// saves.
async fn drive(server: &Server, target: &Target, from: i64) -> Driven {
    let started = Instant::now();
    let mut calls = 1;
    let mut revision = server.ok(GET, json!({ "sessionId": target.id })).await["revision"]
        .as_i64()
        .unwrap();
    for round in from..from + ROUNDS {
        let apply = |x: i64| {
            server.call(
                APPLY,
                json!({ "sessionId": target.id, "expectedRevision": revision, "operations": move_node(&target.node, x) }),
            )
        };
        let read = server.call(
            QUERY,
            json!({ "sessionId": target.id, "target": { "kind": "displayNode", "selector": selector(&target.node) } }),
        );
        let ((first, first_failed), (second, second_failed), (seen, read_failed)) =
            tokio::join!(apply(round), apply(-round), read);
        calls += 3;
        assert!(!read_failed, "{seen}");
        assert!(
            first_failed != second_failed,
            "exactly one of two applies at revision {revision} must win: {first} / {second}"
        );
        let loser = if first_failed { &first } else { &second };
        assert_eq!(loser["error"]["code"], "stale_write", "{loser}");
        let winner_x = if first_failed { -round } else { round };
        // The read ran before or after the winning apply, never inside it.
        let seen_revision = seen["meta"]["revision"].as_i64().unwrap();
        let seen_x = &seen["data"]["entity"]["properties"]["position"]["x"];
        match seen_revision - revision {
            0 => {}
            1 => assert_eq!(seen_x, winner_x, "{seen}"),
            _ => panic!("a read racing revision {revision}'s apply saw revision {seen_revision}"),
        }
        revision += 1;
        // Put the node where this round says, whichever apply won.
        if winner_x != round {
            server
                .ok(
                    APPLY,
                    json!({ "sessionId": target.id, "expectedRevision": revision, "operations": move_node(&target.node, round) }),
                )
                .await;
            revision += 1;
            calls += 1;
        }
        server
            .ok(
                OUTLINE,
                json!({ "sessionId": target.id, "detail": "packages" }),
            )
            .await;
        calls += 1;
        if round % SAVE_EVERY == 0 {
            let (saved, additions) = server
                .ok_with_additions(
                    SAVE,
                    json!({ "sessionId": target.id, "expectedRevision": revision }),
                )
                .await;
            assert_eq!(
                additions["saved"]["writtenPaths"].as_array().map(Vec::len),
                Some(1),
                "{saved}"
            );
            calls += 1;
        }
    }
    Driven {
        calls,
        elapsed: started.elapsed(),
    }
}

// Several client threads, so the client is not what serializes the sessions.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sessions_driven_at_once_stay_consistent_and_do_not_wait_for_each_other() {
    let workspace = Workspace::new();
    let projects = [
        workspace.add("unity-a", &unity_corpus()),
        workspace.add("unity-b", &unity_corpus()),
        workspace.add("experiments", &experiments_corpus()),
        workspace.add("example", &example_project()),
    ];
    let server = Server::start(&[workspace.path()]).await;
    let mut targets = Vec::new();
    for project in &projects {
        let id = server.open(project).await;
        let outline = server.ok(OUTLINE, json!({ "sessionId": id })).await;
        targets.push(Target {
            id,
            project: project.clone(),
            node: first_node(&outline),
        });
    }

    // Phase 1: one session at a time, for the baseline.
    let mut alone = Duration::ZERO;
    let mut calls = 0;
    for target in &targets {
        let driven = drive(&server, target, 1).await;
        alone += driven.elapsed;
        calls += driven.calls;
    }
    // Phase 2: all at once.
    let started = Instant::now();
    let driven = futures::future::join_all(
        targets
            .iter()
            .map(|target| drive(&server, target, 1 + ROUNDS)),
    )
    .await;
    let together = started.elapsed();
    let together_calls: usize = driven.iter().map(|d| d.calls).sum();
    eprintln!(
        "stress: {} sessions; one at a time {calls} calls in {alone:?} ({:.0} calls/s); all at once {together_calls} calls in {together:?} ({:.0} calls/s); per session at once: {:?}",
        targets.len(),
        calls as f64 / alone.as_secs_f64(),
        together_calls as f64 / together.as_secs_f64(),
        driven.iter().map(|d| d.elapsed).collect::<Vec<_>>(),
    );

    let last = 2 * ROUNDS;
    for target in &targets {
        let session = server.ok(GET, json!({ "sessionId": target.id })).await;
        let applied = session["revision"].as_i64().unwrap();
        assert_eq!(session["dirty"], false, "{session}");
        assert_eq!(session["lastSavedRevision"], applied, "{session}");

        // Events: in order, all this session's, one per applied, rejected and saved call.
        let events = server.ok(EVENTS, json!({ "sessionId": target.id })).await["events"]
            .as_array()
            .unwrap()
            .clone();
        let sequences: Vec<u64> = events
            .iter()
            .map(|e| e["sequence"].as_u64().unwrap())
            .collect();
        assert!(sequences.windows(2).all(|w| w[0] < w[1]), "{sequences:?}");
        assert!(events.iter().all(|e| e["sessionId"] == target.id.as_str()));
        let count = |kind: &str| events.iter().filter(|e| e["kind"] == kind).count() as i64;
        assert_eq!(count("transaction.applied"), applied);
        assert_eq!(count("transaction.rejected"), last);
        assert_eq!(count("save.completed"), last / SAVE_EVERY);

        // A fresh server reads the last saved position.
        server.ok(CLOSE, json!({ "sessionId": target.id })).await;
    }
    drop(server);
    let fresh = Server::start(&[workspace.path()]).await;
    for target in &targets {
        let id = fresh.open(&target.project).await;
        let node = fresh
            .ok(
                QUERY,
                json!({ "sessionId": id, "target": { "kind": "displayNode", "selector": selector(&target.node) } }),
            )
            .await;
        assert_eq!(
            node["entity"]["properties"]["position"],
            json!({ "x": last, "y": 12 }),
            "{}",
            target.project.display()
        );
    }
}
