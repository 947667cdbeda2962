//! What a session can undo and redo: the model and the touched files before and after
//! each applied batch, and a log of every revision it made.
//!
//! Snapshots are cheap: packages are shared (`Arc`) between the states, so a step holds
//! only the packages its batch copied, and the bytes of the files it touched.

use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::time::{SystemTime, UNIX_EPOCH};

use ofgui_contracts::api::{Change, EntityImpact, HistoryAction, HistoryEntry};
use ofgui_contracts::uam::UamProject;

/// Most steps kept for undo (and redo together); past it the oldest is let go.
pub const MAX_STEPS: usize = 200;
/// Most file bytes the kept steps may hold; past it the oldest steps are let go.
pub const MAX_STEP_BYTES: usize = 256 << 20;
/// Most log entries kept for `getHistory`.
const MAX_LOG: usize = 1000;
/// Most changed entities an entry lists.
const MAX_CHANGES: usize = 20;

/// The model and the files a step touched, at one side of the step.
#[derive(Clone, Debug)]
pub struct State {
    pub project: UamProject,
    /// Each touched file's bytes (`None`: absent), by sourcePath.
    pub files: BTreeMap<String, Option<Vec<u8>>>,
}

impl State {
    fn bytes(&self) -> usize {
        self.files
            .iter()
            .map(|(path, bytes)| path.len() + bytes.as_ref().map_or(0, Vec::len))
            .sum()
    }
}

/// One applied batch: the states on either side, and what it was.
#[derive(Debug)]
pub struct Step {
    /// The revision the batch's apply made.
    pub batch_revision: u64,
    pub before: State,
    pub after: State,
    pub kinds: Vec<&'static str>,
    /// The batch's operations as they were sent (JSON text), for a person reviewing it.
    operations: Box<str>,
    /// What the apply changed, worked out when the history is first read: apply and undo
    /// do not pay for it.
    changes: OnceCell<Vec<EntityImpact>>,
}

impl Step {
    pub fn new(
        batch_revision: u64,
        before: State,
        after: State,
        kinds: Vec<&'static str>,
        operations: &str,
    ) -> Step {
        Step {
            batch_revision,
            before,
            after,
            kinds,
            operations: operations.into(),
            changes: OnceCell::new(),
        }
    }

    /// What the step changes going `direction`: the apply's changes, or for an undo the
    /// same entities the other way (an added one removed, a removed one added).
    fn changes(&self, direction: Option<Direction>) -> Vec<EntityImpact> {
        let applied = self.changes.get_or_init(|| {
            let replaced: BTreeSet<String> = self
                .after
                .files
                .iter()
                .filter(|(_, bytes)| bytes.is_some())
                .map(|(path, _)| path.clone())
                .collect();
            crate::txn::impact::impact(&self.before.project, &self.after.project, &replaced)
                .entities
        });
        match direction {
            Some(Direction::Undo) => applied
                .iter()
                .map(|entity| EntityImpact {
                    change: match entity.change {
                        Change::Added => Change::Removed,
                        Change::Removed => Change::Added,
                        Change::Updated => Change::Updated,
                    },
                    ..entity.clone()
                })
                .collect(),
            _ => applied.clone(),
        }
    }

    fn bytes(&self) -> usize {
        self.before.bytes() + self.after.bytes() + self.operations.len()
    }
}

/// Which way a step goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Undo,
    Redo,
}

impl Direction {
    fn action(self) -> HistoryAction {
        match self {
            Direction::Undo => HistoryAction::Undo,
            Direction::Redo => HistoryAction::Redo,
        }
    }
}

/// The undo and redo stacks, where the saved state sits among them, and the log.
#[derive(Debug, Default)]
pub struct History {
    undo: Vec<Step>,
    redo: Vec<Step>,
    /// `undo.len()` when the model is what the disk holds (as read or last saved);
    /// `None` once that state is in neither stack.
    saved_depth: Option<usize>,
    held_bytes: usize,
    log: VecDeque<HistoryEntry>,
    /// Entries were let go from the front of the log, or steps from the bottom of undo.
    forgot: bool,
}

impl History {
    /// A history whose current state is the one on disk.
    pub fn new() -> History {
        History {
            saved_depth: Some(0),
            ..History::default()
        }
    }

    /// Whether the model differs from the disk's.
    pub fn dirty(&self) -> bool {
        self.saved_depth != Some(self.undo.len())
    }

    pub fn undo_count(&self) -> usize {
        self.undo.len()
    }

    pub fn redo_count(&self) -> usize {
        self.redo.len()
    }

    /// The batch the next undo or redo would take.
    pub fn next(&self, direction: Direction) -> Option<&Step> {
        match direction {
            Direction::Undo => self.undo.last(),
            Direction::Redo => self.redo.last(),
        }
    }

    /// A batch was applied at `step.batch_revision`: what was undone is dropped.
    pub fn applied(&mut self, step: Step) {
        if self
            .saved_depth
            .is_some_and(|depth| depth > self.undo.len())
        {
            // The saved state was among the undone steps, now dropped.
            self.saved_depth = None;
        }
        for dropped in self.redo.drain(..) {
            self.held_bytes -= dropped.bytes();
        }
        self.log(HistoryEntry {
            revision: step.batch_revision,
            action: HistoryAction::Apply,
            batch_revision: step.batch_revision,
            operation_kinds: step.kinds.iter().map(|k| k.to_string()).collect(),
            changes: Vec::new(),
            more_changes: 0,
            at: now(),
            operations: None,
        });
        self.held_bytes += step.bytes();
        self.undo.push(step);
        self.trim();
    }

    /// Moves the next step across (undo to redo, or back) and gives the state the model
    /// takes, logged as `revision`.
    pub fn step(&mut self, direction: Direction, revision: u64) -> Option<State> {
        let (from, to) = match direction {
            Direction::Undo => (&mut self.undo, &mut self.redo),
            Direction::Redo => (&mut self.redo, &mut self.undo),
        };
        let step = from.pop()?;
        let state = match direction {
            Direction::Undo => step.before.clone(),
            Direction::Redo => step.after.clone(),
        };
        let entry = HistoryEntry {
            revision,
            action: direction.action(),
            batch_revision: step.batch_revision,
            operation_kinds: step.kinds.iter().map(|k| k.to_string()).collect(),
            changes: Vec::new(),
            more_changes: 0,
            at: now(),
            operations: None,
        };
        to.push(step);
        self.log(entry);
        Some(state)
    }

    /// The disk now holds the current model (`project` as the save left it, which the
    /// top step's after-state takes, so a redo returns exactly to it).
    pub fn saved(&mut self, project: &UamProject) {
        if let Some(top) = self.undo.last_mut() {
            top.after.project = project.clone();
        }
        self.saved_depth = Some(self.undo.len());
    }

    /// The kept step of the batch applied at `batch_revision`.
    pub fn batch(&self, batch_revision: u64) -> Option<&Step> {
        self.undo
            .iter()
            .chain(&self.redo)
            .find(|step| step.batch_revision == batch_revision)
    }

    /// The log, newest first, at most `limit`, and whether more exists. An entry lists
    /// what it changed (and, with `operations`, the batch's operations) while its batch's
    /// step is kept.
    pub fn entries(&self, limit: usize, operations: bool) -> (Vec<HistoryEntry>, bool) {
        let entries: Vec<HistoryEntry> = self
            .log
            .iter()
            .rev()
            .take(limit)
            .map(|entry| {
                let step = self.batch(entry.batch_revision);
                let direction = match entry.action {
                    HistoryAction::Apply => None,
                    HistoryAction::Undo => Some(Direction::Undo),
                    HistoryAction::Redo => Some(Direction::Redo),
                };
                let (more, changes) = step
                    .map(|step| clipped(&step.changes(direction)))
                    .unwrap_or_default();
                let sent = step
                    .filter(|_| operations)
                    .and_then(|step| serde_json::from_str(&step.operations).ok());
                HistoryEntry {
                    changes,
                    more_changes: more,
                    operations: sent,
                    ..entry.clone()
                }
            })
            .collect();
        let truncated = self.log.len() > limit || self.forgot;
        (entries, truncated)
    }

    fn log(&mut self, entry: HistoryEntry) {
        if self.log.len() == MAX_LOG {
            self.log.pop_front();
            self.forgot = true;
        }
        self.log.push_back(entry);
    }

    /// Lets go of the oldest undo steps past the budgets.
    fn trim(&mut self) {
        while self.undo.len() + self.redo.len() > MAX_STEPS || self.held_bytes > MAX_STEP_BYTES {
            if self.undo.is_empty() {
                break;
            }
            let oldest = self.undo.remove(0);
            self.held_bytes -= oldest.bytes();
            self.forgot = true;
            self.saved_depth = match self.saved_depth {
                Some(0) | None => None,
                Some(depth) => Some(depth - 1),
            };
        }
    }
}

fn clipped(changes: &[EntityImpact]) -> (u32, Vec<EntityImpact>) {
    let more = changes.len().saturating_sub(MAX_CHANGES) as u32;
    (more, changes.iter().take(MAX_CHANGES).cloned().collect())
}

/// Now as RFC 3339 in UTC with milliseconds (`2026-12-03T16:05:50.311Z`), from the
/// instance's wall clock.
fn now() -> String {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    rfc3339(since.as_millis() as u64)
}

fn rfc3339(millis: u64) -> String {
    let seconds = millis / 1000;
    let days = (seconds / 86_400) as i64;
    let of_day = seconds % 86_400;
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        of_day / 3600,
        of_day % 3600 / 60,
        of_day % 60,
        millis % 1000
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_rfc3339_in_utc() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(rfc3339(1_796_314_750_311), "2026-12-03T16:19:10.311Z");
    }
}
