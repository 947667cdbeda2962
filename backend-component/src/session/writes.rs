//! Saving and materializing a session: the writer's plan for the edits since the last
//! save, checked and committed all or nothing through `save`.

use std::collections::BTreeMap;
use std::sync::Arc;

use ofgui_contracts::api::{Change as ImpactChange, FileImpact, FileKind, UamFidelity};
use ofgui_contracts::envelope::BackendDiagnostic;
use ofgui_contracts::error::BackendError;
use ofgui_contracts::uam::{ResourceFolder, UamProject};

use crate::commit::{self, Change, ContentHash, Expect, Plan};
use crate::fs::{ProjectFs, ProjectFsWrite};
use crate::session::save;
use crate::writer;

use super::{OnDisk, Planned, Rejected, SaveReport, Session};

impl Session {
    /// Writes the edits since the last save (see `crate::session::save`): only files whose bytes
    /// change, each patched from what was read, verified by reading them back, committed
    /// all or nothing. A session without edits writes nothing.
    pub fn save(
        &mut self,
        fs: &dyn ProjectFsWrite,
        expected_revision: Option<u64>,
    ) -> Result<SaveReport, BackendError> {
        let plan = match self.take_planned(false) {
            Some(plan) => {
                self.storage("saveSession")?;
                self.check_write(expected_revision)?;
                plan
            }
            None => self.save_plan(expected_revision)?,
        };
        self.commit(fs, plan, false)
    }

    /// The plan `planned_writes` made for this kind of write at the current revision.
    fn take_planned(&self, materialize: bool) -> Option<Plan> {
        let planned = self.planned.take()?;
        (planned.revision == self.revision && planned.materialize == materialize)
            .then_some(planned.plan)
    }

    /// Where the session writes, or `capability_unavailable` for a session opened from a
    /// document without a directory.
    fn storage(&self, method: &str) -> Result<&OnDisk, BackendError> {
        self.disk.as_ref().ok_or_else(|| BackendError::CapabilityUnavailable {
            message: format!(
                "{method} needs a directory, and this session has none: it was opened from a document with openProjectSession. Nothing was written. Write the project into a new directory inside the allowed roots with materializeSession and targetPath first; after that the session saves there."
            ),
            capability: "fileSystem".into(),
        })
    }

    /// What a save would change now, after the checks a save makes first.
    fn save_plan(&self, expected_revision: Option<u64>) -> Result<Plan, BackendError> {
        let disk = self.storage("saveSession")?;
        self.check_write(expected_revision)?;
        self.plan(disk)
            .map_err(|unwritable| self.unfaithful(unwritable))
    }

    /// The files a save (or, with `materialize`, a materialize) would write, create or
    /// remove now, after the same checks, without writing anything: what a host shows a
    /// person who confirms the write.
    pub fn planned_writes(
        &self,
        fs: &dyn ProjectFs,
        materialize: bool,
        expected_revision: Option<u64>,
    ) -> Result<Vec<FileImpact>, Rejected> {
        let plan = match self.take_planned(materialize) {
            Some(plan) => {
                self.check_write(expected_revision)?;
                plan
            }
            None if materialize => self.materialize_plan(fs, expected_revision)?,
            None => self.save_plan(expected_revision)?,
        };
        let no_aliases = BTreeMap::new();
        let found_at = self
            .disk
            .as_ref()
            .map_or(&no_aliases, |disk| &disk.found_at);
        let paths = save::DiskPaths::new(fs, found_at);
        let mut files: Vec<FileImpact> = plan
            .changes
            .iter()
            .map(|change| FileImpact {
                path: paths.of(change),
                kind: FileKind::File,
                change: match change {
                    Change::Write {
                        expect: Expect::Absent,
                        ..
                    } => ImpactChange::Added,
                    Change::Write { .. } => ImpactChange::Updated,
                    Change::Remove { .. } => ImpactChange::Removed,
                },
            })
            .collect();
        files.sort();
        self.planned.replace(Some(Planned {
            revision: self.revision,
            materialize,
            plan,
        }));
        Ok(files)
    }

    /// Writes every file of the model in the editor's canonical layout, after validation.
    pub fn materialize(
        &mut self,
        fs: &dyn ProjectFsWrite,
        expected_revision: Option<u64>,
    ) -> Result<SaveReport, Rejected> {
        let plan = match self.take_planned(true) {
            Some(plan) => {
                self.check_write(expected_revision)?;
                plan
            }
            None => self.materialize_plan(fs, expected_revision)?,
        };
        Ok(self.commit(fs, plan, true)?)
    }

    /// What a materialize would change now: every canonical file that differs from the
    /// disk, and the removals; refused when the project does not validate.
    fn materialize_plan(
        &self,
        fs: &dyn ProjectFs,
        expected_revision: Option<u64>,
    ) -> Result<Plan, Rejected> {
        let disk = self.storage("materializeSession")?;
        self.check_write(expected_revision)?;
        let report = self.validate();
        // An asset whose bytes a document never gave cannot be written: it stops the write
        // like an error, though validation only calls it unchecked.
        let unloaded = self.unloaded_assets();
        let errors: Vec<BackendDiagnostic> = report
            .diagnostics
            .iter()
            .filter(|d| d.severity == ofgui_contracts::diagnostics::Severity::Error)
            .chain(&unloaded)
            .map(BackendDiagnostic::from_finding)
            .map(|mut diagnostic| {
                diagnostic.severity = ofgui_contracts::envelope::DiagnosticSeverity::Error;
                diagnostic
            })
            .collect();
        if !errors.is_empty() {
            return Err(Rejected {
                error: BackendError::MaterializeValidationFailed {
                    message: format!(
                        "The project has {} validation errors, so it was not written; they are in meta.diagnostics.",
                        errors.len()
                    ),
                    session_id: self.id.clone(),
                    canonical_path_key: self.canonical_path_key.clone(),
                    issue_count: errors.len() as u32,
                },
                diagnostics: errors,
            });
        }
        // Removals and directories come from the save's plan when it can be made; the
        // files themselves are all written in canonical form, so a file the patch could
        // not carry an edit into is rewritten whole (the point of materialize).
        let mut plan = match self.plan(disk) {
            Ok(mut plan) => {
                plan.changes.retain(|c| matches!(c, Change::Remove { .. }));
                plan
            }
            Err(_) => self.removals(disk),
        };
        let paths = save::DiskPaths::new(fs, &disk.found_at);
        for (path, bytes) in writer::plan::canonical(&disk.fairy_file, &self.project, &self.bytes) {
            // Materialize overwrites what changed on disk: it expects what is there (where
            // the save will write it, which may be another letter case).
            let expect = match fs.read(&paths.file(&path, false)) {
                Ok(current) if current == bytes => continue,
                Ok(current) => Expect::Content(ContentHash::of(&current)),
                Err(_) => Expect::Absent,
            };
            plan.changes.retain(|c| c.path() != path);
            plan.changes.push(Change::Write {
                path,
                bytes,
                expect,
            });
        }
        // A removal expects what is there now; one already gone is dropped.
        plan.changes = std::mem::take(&mut plan.changes)
            .into_iter()
            .filter_map(|change| match change {
                Change::Remove { path, .. } => {
                    let current = fs.read(&paths.file(&path, false)).ok()?;
                    Some(Change::Remove {
                        expect: ContentHash::of(&current),
                        path,
                    })
                }
                write => Some(write),
            })
            .collect();
        Ok(plan)
    }

    /// The files the disk holds that the model no longer describes: source documents
    /// without a canonical counterpart and assets the session removed or moved.
    fn removals(&self, disk: &OnDisk) -> Plan {
        let kept: std::collections::BTreeSet<String> =
            writer::plan::canonical(&disk.fairy_file, &self.project, &self.bytes)
                .into_iter()
                .map(|(path, _)| path)
                .collect();
        let documents = disk
            .documents
            .iter()
            .filter(|(path, _)| !kept.contains(*path));
        let assets = disk
            .assets
            .iter()
            .filter(|(path, _)| !self.bytes.contains_key(*path))
            .filter_map(|(path, bytes)| Some((path, bytes.as_ref()?)));
        Plan {
            changes: documents
                .chain(assets)
                .map(|(path, bytes)| Change::Remove {
                    path: path.clone(),
                    expect: ContentHash::of(bytes),
                })
                .collect(),
            ..Plan::default()
        }
    }

    fn check_write(&self, expected_revision: Option<u64>) -> Result<(), BackendError> {
        if let Some(expected) = expected_revision
            && expected != self.revision
        {
            return Err(self.stale_write(expected));
        }
        if self.fidelity == UamFidelity::Unsupported {
            return Err(BackendError::UamFidelityUnsupported {
                message: "A project file could not be read when this session opened, so writing the model back could lose what it holds; nothing was written. validateSession names the file (unreadable_source).".into(),
                session_id: self.id.clone(),
                canonical_path_key: self.canonical_path_key.clone(),
                file: None,
                field: None,
            });
        }
        Ok(())
    }

    pub(super) fn stale_write(&self, expected: u64) -> BackendError {
        BackendError::StaleWrite {
            message: format!(
                "Expected revision {expected} does not match current revision {}.",
                self.revision
            ),
            session_id: self.id.clone(),
            canonical_path_key: Some(self.canonical_path_key.clone()).filter(|key| !key.is_empty()),
            expected_revision: expected,
            actual_revision: self.revision,
        }
    }

    /// The files a save from the disk to `project` would change.
    /// `pending` holds the asset bytes of a batch not applied yet (a preview).
    pub(super) fn plan_to(
        &self,
        disk: &OnDisk,
        project: &UamProject,
        pending: Option<&BTreeMap<String, Option<Vec<u8>>>>,
    ) -> Result<Plan, writer::plan::Unwritable> {
        // What the disk holds at each asset path touched since the last save or by
        // `pending` (those still hold what the session has): borrowed, no bytes copied.
        let mut touched: BTreeMap<&str, Option<&[u8]>> = disk
            .assets
            .iter()
            .map(|(path, bytes)| (path.as_str(), bytes.as_deref()))
            .collect();
        for path in pending.into_iter().flat_map(BTreeMap::keys) {
            touched
                .entry(path.as_str())
                .or_insert_with(|| self.bytes.get(path).map(Vec::as_slice));
        }
        let disk = writer::plan::Disk {
            fairy_file: &disk.fairy_file,
            project: &disk.project,
            documents: &disk.documents,
            assets: &touched,
        };
        let now = writer::plan::Now {
            project,
            bytes: &self.bytes,
            pending,
        };
        writer::plan::plan(&disk, &now)
    }

    pub(super) fn plan(&self, disk: &OnDisk) -> Result<Plan, writer::plan::Unwritable> {
        self.plan_to(disk, &self.project, None)
    }

    pub(super) fn unfaithful(&self, unwritable: writer::plan::Unwritable) -> BackendError {
        BackendError::UamFidelityUnsupported {
            message: format!(
                "{} cannot be written faithfully at {}: {}. Nothing was written; the edits stay in the session. materializeSession writes the whole project in the editor's layout instead.",
                unwritable.file, unwritable.problem.at, unwritable.problem.reason
            ),
            session_id: self.id.clone(),
            canonical_path_key: self.canonical_path_key.clone(),
            file: Some(unwritable.file),
            field: Some(unwritable.problem.at),
        }
    }

    /// Verifies and commits `plan`, then makes what was written the new base.
    fn commit(
        &mut self,
        fs: &dyn ProjectFsWrite,
        plan: Plan,
        materialize: bool,
    ) -> Result<SaveReport, BackendError> {
        // Packages are listed in directory order when read, and each package's folders by
        // branch and path: a renamed or added package, and an added or moved folder, take
        // their place there once saved, as a reopen would show them.
        let mut saved = self.project.clone();
        saved.packages.sort_by(|a, b| a.name.cmp(&b.name));
        let order = |a: &ResourceFolder, b: &ResourceFolder| {
            (&a.branch, &a.path).cmp(&(&b.branch, &b.path))
        };
        for package in &mut saved.packages {
            if !package.folders.is_sorted_by(|a, b| order(a, b).is_le()) {
                Arc::make_mut(package).folders.sort_by(order);
            }
        }
        let method = if materialize {
            "materializeSession"
        } else {
            "saveSession"
        };
        let storage = self.storage(method)?;
        let fairy_file = storage.fairy_file.clone();
        if let Err(mismatch) = save::verify(fs, &fairy_file, &plan, &saved, &storage.documents) {
            return Err(BackendError::UamFidelityUnsupported {
                message: format!(
                    "The bytes this save would write to {} do not read back as the session's model (first difference at {}), so nothing was written; the edits stay in the session.",
                    mismatch.file,
                    if mismatch.field.is_empty() {
                        "the file itself"
                    } else {
                        &mismatch.field
                    }
                ),
                session_id: self.id.clone(),
                canonical_path_key: self.canonical_path_key.clone(),
                file: Some(mismatch.file),
                field: Some(mismatch.field).filter(|f| !f.is_empty()),
            });
        }
        let attempt = save::Attempt {
            session_id: &self.id,
            canonical_path_key: &self.canonical_path_key,
            revision: self.revision,
            last_saved_revision: self.last_saved_revision,
            materialize,
        };
        let mut hook = commit::fault::configured();
        let limited = commit::fault::configured_disk_limit()
            .map(|free| commit::fault::DiskLimit::new(fs, free));
        let target: &dyn ProjectFsWrite = match &limited {
            Some(limited) => limited,
            None => fs,
        };
        // The plan speaks of declared paths, the commit of the disk's.
        let declared: Vec<String> = plan.changes.iter().map(|c| c.path().to_owned()).collect();
        let mut plan = plan;
        if let Some(disk) = &self.disk {
            save::DiskPaths::new(fs, &disk.found_at).apply(&mut plan);
        }
        let committed = commit::commit(target, &plan, &mut hook).map_err(|e| attempt.failed(e))?;
        if let Some(disk) = &mut self.disk {
            for (declared, change) in declared.into_iter().zip(plan.changes) {
                // The disk's path of a file now written elsewhere than declared is where
                // the next save writes it too; a removed one has none.
                match &change {
                    Change::Write { path, .. } if *path != declared => {
                        disk.found_at.insert(declared.clone(), path.clone());
                    }
                    _ => {
                        disk.found_at.remove(&declared);
                    }
                }
                let is_asset =
                    disk.assets.contains_key(&declared) || self.bytes.contains_key(&declared);
                match change {
                    Change::Write { bytes, .. } if !is_asset => {
                        disk.documents.insert(declared, bytes);
                    }
                    Change::Remove { .. } => {
                        disk.documents.remove(&declared);
                    }
                    Change::Write { .. } => {}
                }
            }
            disk.project = saved.clone();
            disk.assets.clear();
        }
        self.history.saved(&saved);
        self.project = saved;
        self.last_saved_revision = self.revision;
        Ok(SaveReport::from_commit(committed))
    }
}
