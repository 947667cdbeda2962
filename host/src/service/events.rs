//! The event log: what happened to each session, polled with a cursor; and what the
//! service publishes as it happens, for the protocol layer to push to clients: session
//! changes (resource subscriptions) and notices a user should see (log messages).
//!
//! Sequence numbers are shared by all sessions of the server; each session keeps its
//! latest [`RETENTION`] events, and its buffer goes away when it closes.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::SystemTime;

use ofgui_contracts::api::{BackendEvent, EventsData};
use ofgui_contracts::envelope::{BackendDiagnostic, False};
use ofgui_contracts::error::BackendError;
use serde_json::Value;
use tokio::sync::broadcast;

use crate::service::notice::{Notice, NoticeLevel};
use crate::service::report;

/// Events kept per session.
pub const RETENTION: usize = ofgui_contracts::capabilities::EVENT_RETENTION as usize;

/// Changes and notices buffered for a slow listener before it is told it lagged.
const PUBLISHED_CAPACITY: usize = 256;

#[derive(Default)]
struct Log {
    last_sequence: u64,
    buffers: HashMap<String, VecDeque<BackendEvent>>,
    /// The last published `(revision, dirty)` of each open session.
    states: HashMap<String, (u64, bool)>,
}

/// What changed in an open session, as its resources show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionChange {
    /// The revision moved (an applied batch): the session and its outline changed.
    Revised { session_id: String, revision: u64 },
    /// Only the save state changed (a save or materialize): the session changed, its
    /// outline (which shows no save state) did not.
    Saved { session_id: String, revision: u64 },
    /// The session closed (closed, idle, or lost with its backend): its resources now
    /// read as `session_not_found`, for good (ids are never reused).
    Closed { session_id: String },
    /// Files of the session's project changed on disk, made by someone else: what the
    /// session shows is now behind the disk until it is refreshed.
    DiskChanged { session_id: String },
}

impl SessionChange {
    pub fn session_id(&self) -> &str {
        match self {
            SessionChange::Revised { session_id, .. }
            | SessionChange::Saved { session_id, .. }
            | SessionChange::Closed { session_id }
            | SessionChange::DiskChanged { session_id } => session_id,
        }
    }
}

/// All sessions' events.
pub struct EventLog {
    log: Mutex<Log>,
    changes: broadcast::Sender<SessionChange>,
    notices: broadcast::Sender<Notice>,
}

impl Default for EventLog {
    fn default() -> Self {
        Self {
            log: Mutex::default(),
            changes: broadcast::channel(PUBLISHED_CAPACITY).0,
            notices: broadcast::channel(PUBLISHED_CAPACITY).0,
        }
    }
}

/// What happened, before the log gives it a sequence and a time.
#[derive(Default)]
pub struct Happened {
    pub kind: &'static str,
    pub revision: Option<u64>,
    pub cache_revision: Option<u64>,
    pub diagnostics: Vec<BackendDiagnostic>,
    pub payload: Option<Value>,
}

impl Happened {
    pub fn new(kind: &'static str, revision: Option<u64>) -> Self {
        Happened {
            kind,
            revision,
            ..Happened::default()
        }
    }

    pub fn cache_revision(mut self, revision: u64) -> Self {
        self.cache_revision = Some(revision);
        self
    }

    pub fn diagnostics(mut self, diagnostics: Vec<BackendDiagnostic>) -> Self {
        self.diagnostics = diagnostics;
        self
    }

    pub fn payload(mut self, payload: Value) -> Self {
        self.payload = Some(payload);
        self
    }
}

impl EventLog {
    /// Records an event of a session.
    pub fn emit(&self, session_id: &str, canonical_path_key: &str, happened: Happened) {
        let mut log = self
            .log
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        log.last_sequence += 1;
        let event = BackendEvent {
            sequence: log.last_sequence,
            kind: happened.kind.to_string(),
            timestamp: rfc3339(SystemTime::now()),
            session_id: Some(session_id.to_string()),
            canonical_path_key: Some(canonical_path_key.to_string()),
            revision: happened.revision,
            cache_revision: happened.cache_revision,
            diagnostics: happened.diagnostics,
            payload: happened.payload,
        };
        let buffer = log.buffers.entry(session_id.to_string()).or_default();
        buffer.push_back(event);
        if buffer.len() > RETENTION {
            buffer.pop_front();
        }
    }

    /// Forgets a closed session's events and publishes that it closed.
    pub fn forget(&self, session_id: &str) {
        let mut log = self
            .log
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        log.buffers.remove(session_id);
        log.states.remove(session_id);
        // No listener is fine: nobody watches.
        let _ = self.changes.send(SessionChange::Closed {
            session_id: session_id.to_string(),
        });
    }

    /// Records a session's revision and save state (at open, after an apply, a save);
    /// publishes a change when either differs from what was last recorded.
    /// Someone else changed files of the session's project on disk.
    pub fn disk_changed(&self, session_id: &str) {
        let _ = self.changes.send(SessionChange::DiskChanged {
            session_id: session_id.to_string(),
        });
    }

    pub fn changed(&self, session_id: &str, revision: u64, dirty: bool) {
        let mut log = self
            .log
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let before = log.states.insert(session_id.to_string(), (revision, dirty));
        let session_id = session_id.to_string();
        let change = match before {
            Some(before) if before == (revision, dirty) => return,
            Some((before, _)) if before == revision => SessionChange::Saved {
                session_id,
                revision,
            },
            _ => SessionChange::Revised {
                session_id,
                revision,
            },
        };
        let _ = self.changes.send(change);
    }

    /// Session changes from now on, in the order they happened.
    pub fn watch_changes(&self) -> broadcast::Receiver<SessionChange> {
        self.changes.subscribe()
    }

    /// Tells the user something. A notice raised while a client's call is served goes
    /// to that client with the call ([`report`]); one raised outside any call (idle
    /// expiry) goes to every client watching [`EventLog::watch_notices`].
    pub fn notice(&self, notice: Notice) {
        let (level, topic, message) = (notice.level, notice.topic, notice.message.clone());
        match level {
            NoticeLevel::Notice => tracing::info!(topic, "{message}"),
            NoticeLevel::Warning => tracing::warn!(topic, "{message}"),
            NoticeLevel::Error => tracing::error!(topic, "{message}"),
        }
        if let Some(notice) = report::notice(notice) {
            let _ = self.notices.send(notice);
        }
    }

    /// Notices raised outside any call, from now on.
    pub fn watch_notices(&self) -> broadcast::Receiver<Notice> {
        self.notices.subscribe()
    }

    /// The events after `after`, at most `limit`.
    pub fn read(
        &self,
        session_id: &str,
        after: Option<&str>,
        limit: Option<u32>,
    ) -> Result<EventsData, BackendError> {
        let log = self
            .log
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let empty = VecDeque::new();
        let buffer = log.buffers.get(session_id).unwrap_or(&empty);
        let oldest = buffer.front().map_or(1, |event| event.sequence);
        let current = buffer.back().map_or(0, |event| event.sequence);
        let invalid = |message: &str| BackendError::EventCursorInvalid {
            message: message.to_string(),
            session_id: session_id.to_string(),
            after: after.unwrap_or_default().to_string(),
        };
        let after = match after {
            None => 0,
            Some(text) => text.parse::<u64>().map_err(|_| {
                invalid("Invalid event cursor: use a sequence number from an earlier getEvents.")
            })?,
        };
        if !buffer.is_empty() && after != 0 && after + 1 < oldest {
            return Err(invalid(
                "Event cursor has expired: older events were dropped. Poll again without `after`.",
            ));
        }
        if after > current && after > log.last_sequence {
            return Err(invalid(
                "Unknown event cursor: no event with that sequence was ever sent.",
            ));
        }
        let events = buffer
            .iter()
            .filter(|event| event.sequence > after)
            .take(limit.map_or(usize::MAX, |limit| limit as usize))
            .cloned()
            .collect();
        Ok(EventsData {
            events,
            oldest_sequence: oldest,
            current_sequence: current,
            cursor_expired: False,
        })
    }
}

/// Now, as [`rfc3339`] formats it.
pub fn rfc3339_now() -> String {
    rfc3339(SystemTime::now())
}

/// Formats a time as RFC 3339 UTC with milliseconds, e.g. `2026-11-29T22:20:58.123Z`.
fn rfc3339(time: SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(time).to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn timestamps_are_rfc3339() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_millis(1_795_990_858_123)),
            "2026-11-29T22:20:58.123Z"
        );
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(951_782_400)),
            "2000-02-29T00:00:00.000Z"
        );
    }

    #[test]
    fn cursors_select_expire_and_refuse() {
        let log = EventLog::default();
        for _ in 0..(RETENTION + 1) {
            log.emit("s", "k", Happened::new("transaction.rejected", Some(0)));
        }
        let all = log.read("s", None, None).unwrap();
        assert_eq!(
            (all.oldest_sequence, all.current_sequence, all.events.len()),
            (2, 1001, 1000)
        );
        assert!(log.read("s", Some("0"), Some(3)).unwrap().events.len() == 3);
        assert!(
            log.read("s", Some("1"), None).is_ok(),
            "after = oldest - 1 is still fine"
        );
        log.emit("s", "k", Happened::new("transaction.rejected", Some(0)));
        assert!(log.read("s", Some("1"), None).is_err(), "expired");
        assert!(log.read("s", Some("not-a-number"), None).is_err());
        assert!(log.read("s", Some("99999"), None).is_err(), "unknown");
        assert_eq!(log.read("s", Some("1001"), None).unwrap().events.len(), 1);
    }
}
