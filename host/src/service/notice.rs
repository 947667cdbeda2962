//! Notices: what a user should know that no result says (a save recovered at open, a
//! session rebuilt or lost, an idle session closed, a stale lock taken over).

use serde_json::Value;

use crate::backend::bindings::Recovery;

/// How much a notice matters, on the syslog scale MCP log messages use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum NoticeLevel {
    /// Normal but significant (an idle session closed).
    Notice,
    /// Something recovered from a failure (a save completed or undone at open, a
    /// session rebuilt, a stale lock taken over).
    Warning,
    /// Something lost (a session that could not be rebuilt was closed).
    Error,
}

/// Something a user should know that no result says, e.g. that an interrupted save
/// was completed when the project was opened.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub level: NoticeLevel,
    /// What it is about, e.g. `save.recovered` (the logger of the MCP message).
    pub topic: &'static str,
    pub message: String,
    /// Facts for programs: always `sessionId` when there is one, plus paths etc.
    pub data: Value,
}

/// Most paths a notice names in its message (`data.paths` has them all).
const NOTICE_MAX_PATHS: usize = 5;

/// How a save an earlier process did not finish was recovered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recovered {
    /// Interrupted before its commit point: undone, its staged files removed.
    Undone,
    /// Interrupted after its commit point: completed.
    Completed,
    /// One of the two (a save reply does not say which).
    CompletedOrUndone,
}

impl Notice {
    /// A save an earlier process did not finish (it died while writing) was recovered;
    /// `paths` as the recovery reports them.
    pub fn save_recovered(session_id: &str, how: Recovered, paths: &[String]) -> Notice {
        let mut named = paths
            .iter()
            .take(NOTICE_MAX_PATHS)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        if paths.len() > NOTICE_MAX_PATHS {
            named.push_str(&format!(" and {} more", paths.len() - NOTICE_MAX_PATHS));
        }
        let (message, recovery) = match how {
            Recovered::Undone => (
                format!(
                    "An earlier save of this project was interrupted before it took effect (its server stopped while writing); opening undid it, so the project is as it was before that save. The files it had staged were removed: {named}."
                ),
                "undone",
            ),
            Recovered::Completed => (
                format!(
                    "An earlier save of this project was interrupted after it took effect (its server stopped while writing); opening completed it, so the project is as that save meant it. Files it changed: {named}."
                ),
                "completed",
            ),
            Recovered::CompletedOrUndone => (
                format!(
                    "An earlier save of this project was interrupted (its server stopped while writing); this save first completed or undid it, so the files on disk are consistent. Paths it touched: {named}."
                ),
                "completedOrUndone",
            ),
        };
        Notice {
            level: NoticeLevel::Warning,
            topic: "save.recovered",
            message,
            data: serde_json::json!({ "sessionId": session_id, "recovery": recovery, "paths": paths }),
        }
    }

    /// The session's backend failed and the session was rebuilt on a fresh one.
    pub fn session_rebuilt(session_id: &str, revision: u64) -> Notice {
        Notice {
            level: NoticeLevel::Warning,
            topic: "session.rebuilt",
            message: format!(
                "The backend of session {session_id} failed; the session was rebuilt on a fresh backend (the project read again, its unsaved edits replayed) and is at revision {revision}."
            ),
            data: serde_json::json!({ "sessionId": session_id, "revision": revision }),
        }
    }

    /// The session's backend failed and the session could not be rebuilt.
    pub fn session_lost(session_id: &str) -> Notice {
        Notice {
            level: NoticeLevel::Error,
            topic: "session.lost",
            message: format!(
                "The backend of session {session_id} failed and the session could not be rebuilt (the project changed on disk, or its edits outgrew the replay journal); it was closed and its unsaved edits are lost. Open the project again."
            ),
            data: serde_json::json!({ "sessionId": session_id }),
        }
    }

    /// A clean session was closed after being idle for `idle`.
    pub fn idle_closed(session_id: &str, idle: std::time::Duration) -> Notice {
        Notice {
            level: NoticeLevel::Notice,
            topic: "session.idleClosed",
            message: format!(
                "Session {session_id} had no unsaved edits and was idle for {} s; it was closed. Open the project again to go on.",
                idle.as_secs()
            ),
            data: serde_json::json!({ "sessionId": session_id, "idleSeconds": idle.as_secs() }),
        }
    }

    /// The project's lock file was left by a process that no longer runs.
    pub fn lock_taken_over(
        session_id: &str,
        lock_file: &std::path::Path,
        former: &crate::backend::lock::Former,
    ) -> Notice {
        let pid = former.pid;
        let who = match &former.node {
            Some(node) => format!("node {node} (process {pid})"),
            None => format!("process {pid}"),
        };
        let mut data = serde_json::json!({
            "sessionId": session_id,
            "lockFile": lock_file.to_string_lossy(),
            "pid": pid,
        });
        if let Some(node) = &former.node {
            data["node"] = serde_json::json!(node);
        }
        Notice {
            level: NoticeLevel::Warning,
            topic: "lock.takenOver",
            message: format!(
                "The project's lock was left by {who}, which no longer runs (a server that stopped without closing its session); it was taken over."
            ),
            data,
        }
    }
}

impl Recovered {
    /// How an interrupted save was recovered at open and the paths the component reports
    /// for it; `None` when no save was interrupted.
    pub fn of(recovery: &Recovery) -> Option<(Recovered, &[String])> {
        match recovery {
            Recovery::Clean => None,
            Recovery::Undone(staged) => Some((Recovered::Undone, staged)),
            Recovery::Completed(changed) => Some((Recovered::Completed, changed)),
        }
    }
}
