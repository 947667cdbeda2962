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
