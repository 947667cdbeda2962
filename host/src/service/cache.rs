//! The derived cache of `getCacheSnapshot`: one entry per open session, made from what the
//! component reported (its status and the model's counts), never from parsing its data.
//!
//! As upstream: an entry is made valid at open and after a successful save or materialize,
//! remade invalid (at the new revision, with the counts of then) after an applied batch or
//! a failed write, and dropped when the session closes. It is an index, not the truth.

use std::collections::HashMap;
use std::sync::Mutex;

use ofgui_contracts::api::{CacheEntry, CacheSnapshot, CacheSummary};

use crate::backend::bindings::SessionStatus;
use crate::service::events::rfc3339_now;

/// Every open session's entry.
#[derive(Default)]
pub struct Cache {
    entries: Mutex<HashMap<String, CacheEntry>>,
}

impl Cache {
    /// Makes a session's entry from its status: valid or not. Gives the new entry.
    pub fn index(
        &self,
        session_id: &str,
        key: &str,
        status: &SessionStatus,
        valid: bool,
    ) -> CacheEntry {
        let entry = CacheEntry {
            canonical_path_key: key.to_string(),
            session_id: session_id.to_string(),
            revision: status.revision,
            last_saved_revision: status.last_saved_revision,
            dirty: status.dirty,
            valid,
            indexed_at: rfc3339_now(),
            summary: CacheSummary {
                package_count: status.summary.package_count,
                resource_count: status.summary.resource_count,
                diagnostics: Vec::new(),
            },
        };
        self.lock().insert(session_id.to_string(), entry.clone());
        entry
    }

    /// A session's snapshot, when it has an entry.
    pub fn snapshot(&self, session_id: &str) -> Option<CacheSnapshot> {
        self.lock().get(session_id).cloned().map(Cache::of)
    }

    /// The snapshot of one entry.
    pub fn of(entry: CacheEntry) -> CacheSnapshot {
        CacheSnapshot {
            cache_revision: entry.revision,
            entries: vec![entry],
        }
    }

    /// The snapshot of a session without an entry: its revision, no entries.
    pub fn empty(revision: u64) -> CacheSnapshot {
        CacheSnapshot {
            cache_revision: revision,
            entries: Vec::new(),
        }
    }

    /// Forgets a closed session's entry.
    pub fn forget(&self, session_id: &str) {
        self.lock().remove(session_id);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, CacheEntry>> {
        self.entries
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
