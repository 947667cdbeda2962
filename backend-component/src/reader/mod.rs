//! Reads a FairyGUI editor project from a [`ProjectFs`] into the UAM.
//!
//! The reader is lenient: a broken file becomes a [`ProjectDiagnostic`] and the rest of
//! the project still opens. Only a project whose `.fairy` file cannot be read or parsed
//! fails as a whole.

use std::collections::BTreeMap;

use ofgui_contracts::diagnostics::ProjectDiagnostic;
use ofgui_contracts::uam::UamProject;

use crate::fs::ProjectFs;

/// Everything read from disk at open.
#[derive(Debug)]
pub struct ProjectSource {
    pub project: UamProject,
    /// Primary bytes of every asset resource that could be read, keyed by its project-relative
    /// `sourcePath` (e.g. `assets/Basics/images/k3.png`). Components are not in here.
    pub bytes: BTreeMap<String, Vec<u8>>,
    /// The raw bytes of every XML and JSON source file read (`.fairy`, `settings/*.json`,
    /// `package.xml`, `package_branch.xml`, component XML), keyed by project-relative path,
    /// so a later writer can patch them in place.
    pub documents: BTreeMap<String, Vec<u8>>,
    /// Read diagnostics, in the order found.
    pub diagnostics: Vec<ProjectDiagnostic>,
    /// False when some source could not be read at all (the validation report is then incomplete).
    pub complete: bool,
}

/// Why a project could not be opened at all.
#[derive(Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The `.fairy` file does not exist.
    NotFound,
    /// The `.fairy` file exists but cannot be read.
    AccessDenied(String),
    /// The `.fairy` file is not a FairyGUI project description.
    Unreadable(String),
}

/// Reads the project described by `fairy_file` (a file name in the root of `fs`).
pub fn read_project(_fs: &dyn ProjectFs, _fairy_file: &str) -> Result<ProjectSource, ReadError> {
    todo!("implemented by the reader")
}
