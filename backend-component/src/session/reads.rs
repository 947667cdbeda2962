//! What a session answers about its committed model: validation, the whole state and a
//! resource's bytes.

use ofgui_contracts::api::{
    ReadSessionStateInput, ResourceSelector, UamFidelity, ValidationReport,
};
use ofgui_contracts::capabilities::{RESOURCE_BYTES_MAX, SESSION_STATE_LIMITS};
use ofgui_contracts::diagnostics::ProjectDiagnostic;
use ofgui_contracts::error::{BackendError, ReadFailureReason};
use ofgui_contracts::uam::{UamProject, UamResource};

use crate::budget;
use crate::lookup::{Lookup, find_resource, valid_id};
use crate::scope::{self, Page};
use crate::validate;

use super::{Origin, Session};

impl Session {
    /// Validates the committed project: structure, references and every source file.
    pub fn validate(&self) -> ValidationReport {
        let unloaded = self.unloaded_assets();
        let mut read_diagnostics = self.reader_diagnostics.clone();
        read_diagnostics.extend(unloaded.iter().cloned());
        validate::validate(&validate::Input {
            project: &self.project,
            bytes: &self.bytes,
            read_diagnostics: &read_diagnostics,
            read_complete: self.reader_complete && unloaded.is_empty(),
        })
    }

    /// The assets a document gave no bytes for: unchecked (a warning that leaves the report
    /// incomplete, as upstream reports a session without bytes), and nothing a materialize
    /// could write. A session read from disk has none: the reader reported every file it
    /// could not read.
    pub(super) fn unloaded_assets(&self) -> Vec<ProjectDiagnostic> {
        if self.origin != Origin::Document {
            return Vec::new();
        }
        let mut found = Vec::new();
        for (p, package) in self.project.packages.iter().enumerate() {
            for (r, resource) in package.resources.iter().enumerate() {
                let Some(path) = resource
                    .asset_base()
                    .and_then(|base| base.source_path.as_deref())
                else {
                    continue;
                };
                if self.bytes.contains_key(path) {
                    continue;
                }
                found.push(
                    ProjectDiagnostic::warning(
                        ofgui_contracts::diagnostics::ProjectDiagnosticCode::DecodeCapabilityUnavailable,
                        format!("packages[{p}].resources[{r}]"),
                        format!(
                            "the document that opened this session gave no sourceBytes for {path}, so the file is not checked and cannot be written"
                        ),
                    )
                    .in_package(package.id.as_str())
                    .in_resource(resource.id())
                    .in_file(path),
                );
            }
        }
        found
    }

    /// The committed model without bytes, as `SessionStateData` JSON text, within the
    /// session-state budget. A scope or page narrows `project.packages` (and the read
    /// diagnostics to those of the packages shown, plus those tied to no package).
    pub fn read_state(&self, input: &ReadSessionStateInput) -> Result<String, BackendError> {
        if let Some(expected) = input.expected_revision {
            self.check_revision(expected)?;
        }
        let narrowed;
        let kept_diagnostics;
        let (project, read_diagnostics, next_cursor) =
            if input.scope.is_none() && input.page.is_none() {
                (&self.project, &self.read_diagnostics[..], None)
            } else {
                let selected = scope::select(&self.id, &self.project, input.scope.as_ref())?;
                let page = Page::read(&self.id, self.revision, input.page.as_ref(), None)?;
                let (window, next_cursor) = page.window(selected.len());
                let shown = &selected[window];
                let whole = &self.project;
                narrowed = UamProject {
                    project_id: whole.project_id.clone(),
                    project_type: whole.project_type,
                    project_type_name: whole.project_type_name.clone(),
                    version: whole.version.clone(),
                    branches: whole.branches.clone(),
                    settings: whole.settings.clone(),
                    packages: shown.iter().map(|scoped| scoped.narrowed()).collect(),
                };
                kept_diagnostics = self
                    .read_diagnostics
                    .iter()
                    .filter(|diagnostic| match diagnostic.package_id.as_deref() {
                        None => true,
                        Some(package_id) => shown.iter().any(|scoped| {
                            scoped.package.id == package_id
                                && scoped.only.is_none_or(|only| {
                                    diagnostic
                                        .resource_id
                                        .as_deref()
                                        .is_none_or(|id| id == only.id())
                                })
                        }),
                    })
                    .cloned()
                    .collect::<Vec<_>>();
                (&narrowed, &kept_diagnostics[..], next_cursor)
            };
        let data = SessionStateView {
            session_id: &self.id,
            revision: self.revision,
            last_saved_revision: self.last_saved_revision,
            dirty: self.history.dirty(),
            uam_fidelity: self.fidelity,
            project,
            read_diagnostics,
            read_complete: self.read_complete,
            next_cursor,
        };
        let text = serde_json::to_string(&data).map_err(|_| {
            BackendError::read_failed(
                &self.id,
                ReadFailureReason::NonJsonValue,
                "The session state is not representable as JSON.",
            )
        })?;
        // The model's nesting is fixed by its types (well under the depth limit), so the
        // serialized size is the budget that can actually bind.
        budget::check_bytes(&text, &SESSION_STATE_LIMITS).map_err(|exceeded| {
            BackendError::read_failed(
                &self.id,
                ReadFailureReason::ResponseBudgetExceeded,
                format!(
                    "{} Read less at once: some packages (scope.packageIds), one component (scope.component), fewer packages per page (page.limit), or one entity with queryEntity.",
                    exceeded.describe(&SESSION_STATE_LIMITS)
                ),
            )
        })?;
        Ok(text)
    }

    /// The primary bytes of one asset resource, as read at open.
    pub fn read_resource_bytes(
        &self,
        expected_revision: u64,
        selector: &ResourceSelector,
    ) -> Result<&[u8], BackendError> {
        self.check_revision(expected_revision)?;
        let fail =
            |reason, message: String| Err(BackendError::read_failed(&self.id, reason, message));
        if !valid_id(&selector.package_id) || !valid_id(&selector.resource_id) {
            return fail(
                ReadFailureReason::InvalidQuery,
                "packageId and resourceId must be strings of 1 to 256 characters.".into(),
            );
        }
        let resource =
            match find_resource(&self.project, &selector.package_id, &selector.resource_id) {
                Lookup::Found(resource) => resource,
                Lookup::NotFound(what) => return fail(ReadFailureReason::NotFound, what),
                Lookup::Ambiguous(what) => return fail(ReadFailureReason::Ambiguous, what),
            };
        if matches!(resource, UamResource::Component(_)) {
            return fail(
                ReadFailureReason::UnsupportedResource,
                format!(
                    "Resource {} is a component; query it with queryEntity instead.",
                    selector.resource_id
                ),
            );
        }
        let Some(bytes) = resource.source_path().and_then(|path| self.bytes.get(path)) else {
            return fail(
                ReadFailureReason::BytesUnavailable,
                format!(
                    "The bytes of resource {} are not loaded: its file was missing or unreadable when the session opened.",
                    selector.resource_id
                ),
            );
        };
        if bytes.len() as u64 > RESOURCE_BYTES_MAX {
            return fail(
                ReadFailureReason::ResponseBudgetExceeded,
                format!(
                    "Resource {} has {} bytes, more than the {} bytes one read may return.",
                    selector.resource_id,
                    bytes.len(),
                    RESOURCE_BYTES_MAX
                ),
            );
        }
        Ok(bytes)
    }
}

/// [`SessionStateData`] by reference: the model is serialized in place, never cloned.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct SessionStateView<'a> {
    session_id: &'a str,
    revision: u64,
    last_saved_revision: u64,
    dirty: bool,
    uam_fidelity: UamFidelity,
    project: &'a UamProject,
    read_diagnostics: &'a [ProjectDiagnostic],
    read_complete: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_cursor: Option<String>,
}
