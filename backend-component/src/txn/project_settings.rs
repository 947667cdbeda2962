//! `updateProjectSettings`: the project's `settings/*.json`, replaced as one snapshot.
//!
//! Decisions where the spec is silent:
//! - The typed fields are [`crate::rules::settings`]'s (validation reports the same ones).
//!   Every wrongly typed field is its own issue, located at its exact path
//!   (`settings.publish.path`), so an agent can fix them all in one round.
//! - Besides upstream's typed publish fields, the documented `jpegQuality` (number),
//!   `compressPNG`, `include2x`, `include3x`, `include4x` (booleans) and `fileName`
//!   (string) are type-checked too.
//! - `null` leaves a field unset (the editor writes it so), and a field the project
//!   already holds mistyped may be sent back as it is: the settings as read always apply.
//! - "Unchanged" compares numbers by value (`1` equals `1.0`), as JSON does.

use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::ops::UpdateProjectSettings;
use serde_json::{Map, Value};

use super::issue::Issue;
use super::workspace::{Op, Workspace};
use crate::rules::settings::{mistyped_settings, same_object};

/// The mistyped fields of `settings` that `current` does not have mistyped already: what
/// the project holds (even wrongly typed) can be sent back, an edit may not add more.
fn check_project_settings(
    at: &Op<'_>,
    settings: &Map<String, Value>,
    current: &Map<String, Value>,
) -> Vec<Issue> {
    let old = mistyped_settings(current);
    mistyped_settings(settings)
        .into_iter()
        .filter(|problem| !old.contains(problem))
        .map(|problem| {
            let path = format!("settings.{}", problem.path);
            at.issue(
                Code::InvalidProjectSettings,
                &path,
                format!(
                    "{path} must be {} (or null, which leaves it unset); it is {}.",
                    problem.expected.describe(),
                    problem.found
                ),
            )
            .field(problem.field)
        })
        .collect()
}

/// Settings with a missing `publish`, `common` or `adaptation` read as `{}`.
fn canonical_settings(settings: &Map<String, Value>) -> Map<String, Value> {
    let mut canonical = settings.clone();
    for key in ["publish", "common", "adaptation"] {
        canonical
            .entry(key)
            .or_insert_with(|| Value::Object(Map::new()));
    }
    canonical
}

pub(super) fn update_project(
    workspace: &mut Workspace<'_>,
    at: &Op<'_>,
    op: &UpdateProjectSettings,
) -> Result<(), Vec<Issue>> {
    let issues = check_project_settings(at, &op.settings, &workspace.project().settings);
    if !issues.is_empty() {
        return Err(issues);
    }
    if same_object(
        &canonical_settings(&workspace.project().settings),
        &canonical_settings(&op.settings),
    ) {
        return Err(vec![at.issue(
            Code::ProjectSettingsUnchanged,
            "settings",
            "The settings equal the current project settings; nothing would change. Query the project settings and send the edited snapshot.",
        )]);
    }
    *workspace.settings_mut() = op.settings.clone();
    Ok(())
}
