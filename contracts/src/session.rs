//! A session's state as methods report it (`openSession`, `getSession` and the failures of
//! authoring calls).

use serde::{Deserialize, Serialize};

use crate::capabilities::Capabilities;

/// Whether the session can be written back without losing anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum UamFidelity {
    Full,
    Unsupported,
}

/// A session's state (`openSession`, `getSession`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SessionSnapshot {
    pub session_id: String,
    /// The project directory as the server resolved it.
    pub canonical_project_path: String,
    /// The edit revision: 0 at open, +1 per applied transaction.
    pub revision: u64,
    pub last_saved_revision: u64,
    pub dirty: bool,
    pub uam_fidelity: UamFidelity,
    /// True while the session holds the project's lock.
    pub lock_held: bool,
    pub capabilities: Capabilities,
}

/// A session's state after an undo or redo: the snapshot without its capabilities, which
/// no step changes (`getCapabilities` and `getSession` have them).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SessionState {
    pub session_id: String,
    /// The project directory as the server resolved it.
    pub canonical_project_path: String,
    /// The edit revision, which a step advances by one like an applied batch.
    pub revision: u64,
    pub last_saved_revision: u64,
    pub dirty: bool,
    pub uam_fidelity: UamFidelity,
    /// True while the session holds the project's lock.
    pub lock_held: bool,
}

impl From<SessionSnapshot> for SessionState {
    fn from(snapshot: SessionSnapshot) -> Self {
        SessionState {
            session_id: snapshot.session_id,
            canonical_project_path: snapshot.canonical_project_path,
            revision: snapshot.revision,
            last_saved_revision: snapshot.last_saved_revision,
            dirty: snapshot.dirty,
            uam_fidelity: snapshot.uam_fidelity,
            lock_held: snapshot.lock_held,
        }
    }
}
