//! Rules checked once on the final state of a batch: references that the batch left
//! dangling and structure it broke.
//!
//! The model findings of the changed scope are compared before and after; only findings
//! the batch introduced count, so legacy problems of a project never block an edit. A new
//! finding about something a removal or move asked to watch gets that operation's code;
//! any other is blamed on the last operation that changed the finding's component.

use std::collections::HashSet;

use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::diagnostics::{ProjectDiagnostic, ProjectDiagnosticCode, Severity};
use ofgui_contracts::uam::{ComponentModel, UamProject};

use super::issue::{Blame, Issue};
use super::workspace::{FinalCheck, Workspace};
use super::{components, controllers};
use crate::lookup::find_resource;
use crate::validate;

type Key = (
    ProjectDiagnosticCode,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
);

/// A finding's identity without its index-based path (indices shift when lists change).
fn key(finding: &ProjectDiagnostic) -> Key {
    (
        finding.code,
        finding.message.clone(),
        finding.package_id.clone(),
        finding.resource_id.clone(),
        finding.node_id.clone(),
    )
}

pub(super) fn check(base: &UamProject, workspace: &Workspace<'_>) -> Vec<Issue> {
    let mut issues = direct_checks(workspace);
    issues.extend(introduced_findings(base, workspace));
    issues
}

/// The final-state rules that are not model findings.
fn direct_checks(workspace: &Workspace<'_>) -> Vec<Issue> {
    let mut issues = Vec::new();
    for check in &workspace.finals {
        match check {
            FinalCheck::ControllerPagesDropped {
                at,
                package_id,
                component_id,
                controller_name,
                page_ids,
            } => {
                if let Some(model) = final_component(workspace.project(), package_id, component_id)
                {
                    issues.extend(controllers::gears_off_dropped_pages(
                        model,
                        at,
                        controller_name,
                        page_ids,
                    ));
                }
            }
            FinalCheck::ComponentIndependent {
                at,
                old_package_id,
                package_id,
                component_id,
            } => issues.extend(explicit_refs_left(
                workspace.project(),
                at,
                old_package_id,
                (package_id, component_id),
            )),
            _ => {}
        }
    }
    issues
}

/// A component of the final state, by its (unique) package and resource ids.
fn final_component<'p>(
    project: &'p UamProject,
    package_id: &str,
    component_id: &str,
) -> Option<&'p ComponentModel> {
    find_resource(project, package_id, component_id)
        .found()?
        .component()
}

/// Whether a finding is located in this component.
fn is_in(finding: &ProjectDiagnostic, package_id: &str, component_id: &str) -> bool {
    finding.package_id.as_deref() == Some(package_id)
        && finding.resource_id.as_deref() == Some(component_id)
}

/// A moved component whose nodes still name its old package explicitly.
fn explicit_refs_left(
    project: &UamProject,
    at: &Blame,
    old_package_id: &str,
    (package_id, component_id): (&str, &str),
) -> Option<Issue> {
    let model = final_component(project, package_id, component_id)?;
    let explicit = components::explicit_refs_into(&model.display_list, old_package_id);
    if explicit.is_empty() {
        return None;
    }
    let shown: Vec<String> = explicit
        .iter()
        .map(|(node, field)| format!("{node} ({field})"))
        .collect();
    Some(at.issue(
        Code::ComponentHasPackageDependencies,
        format!(
            "After the batch, moved component {component_id} still has nodes naming its old package {old_package_id} explicitly: {}; they would keep using that package's resources. Detach or re-point them in the same batch, or keep the component where it is.",
            shown.join(", ")
        ),
    ))
}

/// Whether a direct check already reports this finding (a gear on a page its
/// controller's update dropped), so it is not reported twice.
fn covered_by_direct_check(finding: &ProjectDiagnostic, finals: &[FinalCheck]) -> bool {
    finals.iter().any(|check| match check {
        FinalCheck::ControllerPagesDropped {
            package_id,
            component_id,
            controller_name,
            ..
        } => {
            is_in(finding, package_id, component_id)
                && finding.node_id.is_some()
                && finding
                    .message
                    .contains(&format!("controller {controller_name:?}"))
        }
        _ => false,
    })
}

/// The model findings the batch introduced, each blamed on the operation that caused it.
fn introduced_findings(base: &UamProject, workspace: &Workspace<'_>) -> Vec<Issue> {
    let scope = &workspace.scope;
    if !scope.whole && scope.components.is_empty() {
        return Vec::new();
    }
    let only = (!scope.whole).then_some(&scope.components);
    let before: HashSet<Key> = validate::model_findings(base, only)
        .iter()
        .map(key)
        .collect();
    let introduced: Vec<ProjectDiagnostic> = validate::model_findings(workspace.project(), only)
        .into_iter()
        .filter(|finding| finding.severity == Severity::Error && !before.contains(&key(finding)))
        .filter(|finding| !covered_by_direct_check(finding, &workspace.finals))
        .collect();
    introduced
        .iter()
        .map(|finding| {
            // Blame the last operation that changed the finding's component, if any did.
            let editor = finding
                .package_id
                .clone()
                .zip(finding.resource_id.clone())
                .and_then(|key| workspace.editors.get(&key).cloned());
            let fallback = editor.unwrap_or_else(|| workspace.last_op());
            classify(finding, &workspace.finals, fallback)
        })
        .collect()
}

/// Whether `text` names `id` as a whole word (node ids like `n1` are prefixes of `n12`).
fn names_word(text: &str, id: &str) -> bool {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(id).any(|(start, _)| {
        let before = text[..start].chars().next_back();
        let after = text[start + id.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

/// Gives an introduced finding the code of the operation that caused it.
fn classify(finding: &ProjectDiagnostic, finals: &[FinalCheck], fallback: Blame) -> Issue {
    let mentions = |id: &str| finding.message.contains(id);
    let code = match finding.code {
        ProjectDiagnosticCode::DanglingResourceReference => Code::InvalidResourceReference,
        _ if finding.path.ends_with(".group") => Code::InvalidGroupReference,
        _ => Code::InvalidResourcePayload,
    };
    for check in finals {
        let (at, code) = match check {
            FinalCheck::PackageUnreferenced { at, package_id } if mentions(package_id) => {
                (at, Code::PackageReferenced)
            }
            FinalCheck::ComponentUnreferenced {
                at, component_id, ..
            } if mentions(component_id) => (at, Code::ComponentReferenced),
            FinalCheck::ResourceUnreferenced {
                at, resource_id, ..
            } if mentions(resource_id) => (at, Code::InvalidResourceReference),
            FinalCheck::ComponentIndependent {
                at, component_id, ..
            } if finding.resource_id.as_deref() == Some(component_id.as_str()) => {
                (at, Code::ComponentHasPackageDependencies)
            }
            FinalCheck::ComponentAttached {
                at,
                package_id,
                component_id,
                node_id,
            } if is_in(finding, package_id, component_id)
                && finding.node_id.as_deref() == Some(node_id.as_str()) =>
            {
                (at, Code::InvalidComponentReference)
            }
            FinalCheck::NodeRemoved {
                at,
                package_id,
                component_id,
                node_id,
            } if is_in(finding, package_id, component_id)
                && names_word(&finding.message, node_id) =>
            {
                (at, code)
            }
            _ => continue,
        };
        return located(at, code, finding);
    }
    located(&fallback, code, finding)
}

fn located(at: &Blame, code: Code, finding: &ProjectDiagnostic) -> Issue {
    at.issue(code, format!("After the batch: {}", finding.message))
}
