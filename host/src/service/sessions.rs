//! The session registry: ids, limits, one session per project, idle expiry.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use ofgui_contracts::additions::EditKind;

use crate::backend::bindings::GuestReply;
use crate::backend::journal::{self, Journal};
use crate::backend::lock::ProjectLock;
use crate::backend::runtime::{CallError, Instance};
use crate::backend::sandbox::ResolvedProject;

/// A live session: its project and its component instance (one call at a time).
pub struct Session {
    pub id: String,
    pub instance: tokio::sync::Mutex<Option<Instance>>,
    /// Where the project lives; changes once, when a document session is materialized
    /// into a directory (while its instance is locked).
    home: Mutex<Home>,
    last_used: Mutex<Instant>,
    replay: Mutex<Replay>,
    /// The journal on disk beside the project, while this session writes it.
    durable: Mutex<Option<Journal>>,
    /// The project's files as this session last knew them on disk (read, saved or
    /// refreshed): what an outside change is told apart from.
    known: Mutex<BTreeMap<String, journal::Fingerprint>>,
    /// The last edit recovered from the journal when it was an apply, with the answer
    /// replaying it gave: the same request sent again (its server died after journaling it
    /// and before answering) gets that answer instead of a stale-revision refusal. Gone
    /// with the next edit.
    answered: Mutex<Option<Answered>>,
}

/// An apply recovered from the journal and its answer.
pub struct Answered {
    pub expected_revision: u64,
    pub operations: String,
    pub reply: GuestReply,
}

/// Where a session's project lives.
pub enum Home {
    /// A project directory the session was opened from or written into.
    Directory {
        project: ResolvedProject,
        /// The advisory lock beside the project, released when the session goes; `None`
        /// when it could not be taken (a read-only parent directory, or another program
        /// holds it), so `lockHeld` says false.
        lock: Option<Box<ProjectLock>>,
        /// Another program holds the project's lock: the session only reads, and calls
        /// that would change its model or the project are refused (`lock_conflict`).
        locked_elsewhere: bool,
    },
    /// A project given as a document (`openProjectSession`): no file access. The document
    /// is kept because it is the base the session is rebuilt from (with the journal's
    /// batches), after a backend failure or in the directory it is materialized into.
    Document {
        document: Arc<String>,
        canonical_project_path: String,
        key: String,
    },
}

/// Most bytes of applied batches a session keeps for recovery; past this a backend
/// failure closes the session instead of restoring it.
const JOURNAL_MAX_BYTES: usize = 64 << 20;

/// The edits made since the last save, in order: with the saved project on disk, enough
/// to rebuild the session's state on a fresh instance if the backend fails (an undo of a
/// batch saved before is not: the fresh instance's history starts at the save).
#[derive(Default)]
struct Replay {
    /// The revision of the last save (0 before any): where a rebuilt session starts.
    saved_revision: u64,
    batches: Vec<Edit>,
    bytes: usize,
    /// The journal outgrew its budget and no longer describes the session.
    overflowed: bool,
}

/// One change to a session's model: the revision it was made at and what it was.
#[derive(Clone)]
pub struct Edit {
    pub expected_revision: u64,
    pub action: EditAction,
}

/// What an [`Edit`] did.
#[derive(Clone)]
pub enum EditAction {
    /// A batch applied: its operations as JSON.
    Apply {
        operations: String,
    },
    Undo,
    Redo,
}

impl Edit {
    /// Makes the edit again on `instance`, expecting its revision to be `at` (the edit's
    /// own when a session is rebuilt or its journal recovered; a refresh's, which rebases
    /// it).
    pub async fn replay_on(
        &self,
        instance: &mut Instance,
        at: u64,
    ) -> Result<GuestReply, CallError> {
        match &self.action {
            EditAction::Apply { operations } => instance.apply(at, operations).await,
            EditAction::Undo => instance.step_history(at, false, false).await,
            EditAction::Redo => instance.step_history(at, true, false).await,
        }
    }

    /// The edit as the durable journal holds it.
    fn entry(&self) -> journal::Entry {
        let (action, operations) = match &self.action {
            EditAction::Apply { operations } => (EditKind::Apply, Some(operations)),
            EditAction::Undo => (EditKind::Undo, None),
            EditAction::Redo => (EditKind::Redo, None),
        };
        journal::Entry {
            expected_revision: self.expected_revision,
            action,
            operations: operations
                .and_then(|text| serde_json::value::RawValue::from_string(text.clone()).ok()),
            at: crate::service::events::rfc3339_now(),
        }
    }

    /// The edit a journal entry records, if it is one.
    pub fn of(entry: &journal::Entry) -> Option<Edit> {
        let action = match (entry.action, &entry.operations) {
            (EditKind::Apply, Some(operations)) => EditAction::Apply {
                operations: operations.get().to_string(),
            },
            (EditKind::Undo, None) => EditAction::Undo,
            (EditKind::Redo, None) => EditAction::Redo,
            _ => return None,
        };
        Some(Edit {
            expected_revision: entry.expected_revision,
            action,
        })
    }

    /// What the journal holds of it, in bytes.
    fn size(&self) -> usize {
        match &self.action {
            EditAction::Apply { operations } => operations.len(),
            EditAction::Undo | EditAction::Redo => 0,
        }
    }
}

impl Session {
    fn home(&self) -> MutexGuard<'_, Home> {
        lock(&self.home)
    }

    /// The project's identity (one session per key).
    pub fn key(&self) -> String {
        match &*self.home() {
            Home::Directory { project, .. } => project.key.clone(),
            Home::Document { key, .. } => key.clone(),
        }
    }

    /// `canonicalProjectPath` of results: the directory, or the name a document was given.
    pub fn canonical_project_path(&self) -> String {
        match &*self.home() {
            Home::Directory { project, .. } => project.dir.to_string_lossy().into_owned(),
            Home::Document {
                canonical_project_path,
                ..
            } => canonical_project_path.clone(),
        }
    }

    pub fn lock_held(&self) -> bool {
        matches!(&*self.home(), Home::Directory { lock: Some(_), .. })
    }

    /// Whether another program holds the project's lock, so this session only reads.
    pub fn locked_elsewhere(&self) -> bool {
        matches!(
            &*self.home(),
            Home::Directory {
                locked_elsewhere: true,
                ..
            }
        )
    }

    /// The project directory, for a session that has one.
    pub fn directory(&self) -> Option<ResolvedProject> {
        match &*self.home() {
            Home::Directory { project, .. } => Some(project.clone()),
            Home::Document { .. } => None,
        }
    }

    /// The document a session was opened from, while it has no directory.
    pub fn document(&self) -> Option<Arc<String>> {
        match &*self.home() {
            Home::Directory { .. } => None,
            Home::Document { document, .. } => Some(document.clone()),
        }
    }

    /// The session's project now lives in `project` (a document written there).
    fn bind(&self, project: ResolvedProject, lock: Option<ProjectLock>) {
        *self.home() = Home::Directory {
            project,
            lock: lock.map(Box::new),
            locked_elsewhere: false,
        };
    }

    /// Records an edit that was made: in memory, and durably on disk (synced before the
    /// call answers) while the session writes its project's journal.
    pub fn record(&self, batch: Edit) {
        *lock(&self.answered) = None;
        self.record_durably(&batch);
        let mut journal = lock(&self.replay);
        if journal.overflowed {
            return;
        }
        journal.bytes += batch.size();
        if journal.bytes > JOURNAL_MAX_BYTES {
            *journal = Replay {
                saved_revision: journal.saved_revision,
                overflowed: true,
                ..Replay::default()
            };
            return;
        }
        journal.batches.push(batch);
    }

    /// Appends an edit to the journal on disk, beginning it (with the saved revision and
    /// the project files' fingerprints) at the first edit since the last save. A journal
    /// that cannot be written is given up, with a warning: the edits stay in memory.
    fn record_durably(&self, edit: &Edit) {
        let mut durable = lock(&self.durable);
        let Some(journal) = durable.as_mut() else {
            return;
        };
        let begun = match journal.begun() {
            true => Ok(()),
            // The files as the session knows them (read or saved), not walked again.
            false => {
                let files = lock(&self.known).clone();
                journal.begin(&journal::Header::new(self.saved_revision(), files), &[])
            }
        };
        if let Err(error) = begun.and_then(|()| journal.append(&edit.entry())) {
            tracing::warn!(session = %self.id, "unsaved edits are no longer journaled: {error}");
            *durable = None;
        }
    }

    /// The disk holds what the session knows: every project file's fingerprint, now.
    pub fn know_disk(&self) {
        if let Some(project) = self.directory() {
            *lock(&self.known) = journal::fingerprints(&project.dir);
        }
    }

    /// Which of `paths` (project-relative) differ on disk from what the session knew;
    /// they are known as they are now from here on.
    pub fn disk_changes(&self, paths: &[String]) -> Vec<String> {
        let Some(project) = self.directory() else {
            return Vec::new();
        };
        let mut known = lock(&self.known);
        let mut changed = Vec::new();
        for path in paths {
            let now = journal::fingerprint(&project.dir.join(path));
            if known.get(path).copied() != now {
                match now {
                    Some(print) => known.insert(path.clone(), print),
                    None => known.remove(path),
                };
                changed.push(path.clone());
            }
        }
        changed
    }

    /// The project files that differ on disk from what the session knew, sorted.
    pub fn changed_on_disk(&self) -> Vec<String> {
        match self.directory() {
            Some(project) => {
                journal::changed(&lock(&self.known), &journal::fingerprints(&project.dir))
            }
            None => Vec::new(),
        }
    }

    /// Begins the journal on disk anew (after a refresh): the disk as it is now, at
    /// `saved_revision`, and `edits` on top.
    pub fn rejournal(&self, saved_revision: u64, edits: &[Edit]) {
        let mut durable = lock(&self.durable);
        let Some(journal) = durable.as_mut() else {
            return;
        };
        let header = journal::Header::new(saved_revision, lock(&self.known).clone());
        let entries: Vec<journal::Entry> = edits.iter().map(Edit::entry).collect();
        let written = match entries.is_empty() {
            true => journal.remove(),
            false => journal.begin(&header, &entries),
        };
        if let Err(error) = written {
            tracing::warn!(session = %self.id, "unsaved edits are no longer journaled: {error}");
            *durable = None;
        }
    }

    /// Makes this session write its project's journal (`None`: it does not).
    pub fn journal_into(&self, journal: Option<Journal>) {
        *lock(&self.durable) = journal;
    }

    /// A recovered session: the disk holds `saved_revision`, and `edits` were replayed on
    /// it (already in the journal on disk).
    /// The answer of a recovered apply, for the same request sent again: the apply at
    /// `expected_revision` with these `operations` was the last edit, and nothing since.
    pub fn answered_before(&self, expected_revision: u64, operations: &str) -> Option<GuestReply> {
        let mut answered = lock(&self.answered);
        let same = answered.as_ref().is_some_and(|before| {
            before.expected_revision == expected_revision && before.operations == operations
        });
        same.then(|| answered.take().map(|before| before.reply))
            .flatten()
    }

    pub fn recovered(&self, saved_revision: u64, edits: Vec<Edit>, last: Option<Answered>) {
        *lock(&self.answered) = last;
        let bytes = edits.iter().map(Edit::size).sum();
        *lock(&self.replay) = Replay {
            saved_revision,
            batches: edits,
            bytes,
            overflowed: bytes > JOURNAL_MAX_BYTES,
        };
    }

    /// The session ends. A clean one removes its journal; one with unsaved edits leaves
    /// it for the next open to recover. Gives whether a journal of its edits remains.
    pub fn end(&self, dirty: bool) -> bool {
        let mut durable = lock(&self.durable);
        let kept = durable.as_ref().is_some_and(Journal::begun) && dirty;
        if let (Some(journal), false) = (durable.as_mut(), dirty)
            && let Err(error) = journal.remove()
        {
            tracing::warn!(session = %self.id, "the journal could not be removed: {error}");
        }
        *durable = None;
        kept
    }

    /// The revision of the last save and the batches to replay on the saved project to
    /// rebuild the session, or `None` if they are not all known.
    pub fn replay(&self) -> Option<(u64, Vec<Edit>)> {
        let journal = lock(&self.replay);
        (!journal.overflowed).then(|| (journal.saved_revision, journal.batches.clone()))
    }

    /// The revision of the last save (0 before any).
    pub fn saved_revision(&self) -> u64 {
        lock(&self.replay).saved_revision
    }

    /// The session saved `revision`: the disk now holds everything applied so far, and
    /// the journal on disk is removed (the next edit begins it again).
    pub fn saved(&self, revision: u64) {
        *lock(&self.replay) = Replay {
            saved_revision: revision,
            ..Replay::default()
        };
        if let Some(journal) = lock(&self.durable).as_mut()
            && let Err(error) = journal.remove()
        {
            tracing::warn!(session = %self.id, "the journal could not be removed: {error}");
        }
    }

    pub fn touch(&self) {
        *lock(&self.last_used) = Instant::now();
    }

    pub fn idle_for(&self) -> Duration {
        lock(&self.last_used).elapsed()
    }
}

/// Why a session could not be registered.
#[derive(Debug, PartialEq, Eq)]
pub enum ReserveError {
    Full {
        max_sessions: u32,
    },
    Conflict {
        holder: Option<String>,
    },
    /// The session id is taken by an open or opening session.
    IdTaken,
}

#[derive(Default)]
struct Table {
    sessions: HashMap<String, Arc<Session>>,
    /// Project keys claimed by open or opening sessions, with the holder's id.
    claims: HashMap<String, String>,
}

/// All sessions of this server.
pub struct Registry {
    table: Mutex<Table>,
    max_sessions: u32,
}

/// Locks a mutex, recovering the data if a panic poisoned it (the data stays consistent:
/// every critical section here is a few map operations).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Registry {
    pub fn new(max_sessions: u32) -> Self {
        Self {
            table: Mutex::new(Table::default()),
            max_sessions,
        }
    }

    /// Claims a project for a new session id, checking the id and capacity first.
    pub fn reserve(&self, session_id: &str, key: &str) -> Result<(), ReserveError> {
        let mut table = lock(&self.table);
        if table.sessions.contains_key(session_id)
            || table.claims.values().any(|holder| holder == session_id)
        {
            return Err(ReserveError::IdTaken);
        }
        if table.claims.len() as u32 >= self.max_sessions {
            return Err(ReserveError::Full {
                max_sessions: self.max_sessions,
            });
        }
        if let Some(holder) = table.claims.get(key) {
            let holder = table.sessions.contains_key(holder).then(|| holder.clone());
            return Err(ReserveError::Conflict { holder });
        }
        table.claims.insert(key.to_string(), session_id.to_string());
        Ok(())
    }

    /// Whether an open or opening session has this id.
    pub fn id_taken(&self, session_id: &str) -> bool {
        let table = lock(&self.table);
        table.sessions.contains_key(session_id)
            || table.claims.values().any(|holder| holder == session_id)
    }

    /// Releases a claim whose open failed.
    pub fn release(&self, key: &str) {
        lock(&self.table).claims.remove(key);
    }

    /// Claims a second project key for an open session that is being written there; the
    /// session counts once against the limit, so only conflicts are refused.
    pub fn claim_for(&self, session: &Session, key: &str) -> Result<(), ReserveError> {
        let mut table = lock(&self.table);
        if let Some(holder) = table.claims.get(key) {
            let holder = table.sessions.contains_key(holder).then(|| holder.clone());
            return Err(ReserveError::Conflict { holder });
        }
        table.claims.insert(key.to_string(), session.id.clone());
        Ok(())
    }

    /// Moves a session to the directory it was written into (claimed with
    /// [`Registry::claim_for`]): the old key is freed.
    pub fn rebind(
        &self,
        session: &Session,
        project: ResolvedProject,
        project_lock: Option<ProjectLock>,
    ) {
        let old = session.key();
        session.bind(project, project_lock);
        lock(&self.table).claims.remove(&old);
    }

    /// Registers an opened session under its claim.
    pub fn insert(&self, id: String, home: Home, instance: Instance) -> Arc<Session> {
        let session = Arc::new(Session {
            id: id.clone(),
            instance: tokio::sync::Mutex::new(Some(instance)),
            home: Mutex::new(home),
            last_used: Mutex::new(Instant::now()),
            replay: Mutex::new(Replay::default()),
            answered: Mutex::new(None),
            durable: Mutex::new(None),
            known: Mutex::new(BTreeMap::new()),
        });
        lock(&self.table).sessions.insert(id, session.clone());
        session
    }

    /// Looks a session up without renewing its idle timer (background work).
    pub fn peek(&self, id: &str) -> Option<Arc<Session>> {
        lock(&self.table).sessions.get(id).cloned()
    }

    /// Looks a session up and renews its idle timer.
    pub fn get(&self, id: &str) -> Option<Arc<Session>> {
        let session = lock(&self.table).sessions.get(id).cloned();
        if let Some(session) = &session {
            session.touch();
        }
        session
    }

    /// Whether a session is open; unlike [`Registry::get`], not a use of it.
    pub fn contains(&self, id: &str) -> bool {
        lock(&self.table).sessions.contains_key(id)
    }

    /// The ids of the open sessions, sorted.
    pub fn ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = lock(&self.table).sessions.keys().cloned().collect();
        ids.sort();
        ids
    }

    /// Removes a session and frees its project.
    pub fn remove(&self, id: &str) -> Option<Arc<Session>> {
        let mut table = lock(&self.table);
        let session = table.sessions.remove(id)?;
        table.claims.remove(&session.key());
        Some(session)
    }

    /// Sessions idle for longer than `timeout`.
    pub fn idle(&self, timeout: Duration) -> Vec<Arc<Session>> {
        lock(&self.table)
            .sessions
            .values()
            .filter(|session| session.idle_for() >= timeout)
            .cloned()
            .collect()
    }

    pub fn max_sessions(&self) -> u32 {
        self.max_sessions
    }
}
