//! Checks of payloads that bring whole resources (an added package or component): the
//! structural rules a reopened project would apply, and upstream's node support rules.

use std::collections::HashSet;
use std::sync::Arc;

use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::diagnostics::{ProjectDiagnostic, ProjectDiagnosticCode, Severity};
use ofgui_contracts::uam::{DisplayNode, UamPackage, UamProject};
use serde_json::Map;

use super::gears::duplicate_controller_code;
use super::issue::Issue;
use super::workspace::Op;

/// Structural findings (errors only, no reference checks) of `package` validated on its
/// own in a project with `project`'s branches.
pub(super) fn standalone_findings(
    project: &UamProject,
    package: UamPackage,
) -> Vec<ProjectDiagnostic> {
    let standalone = UamProject {
        project_id: project.project_id.clone(),
        project_type: project.project_type,
        project_type_name: project.project_type_name.clone(),
        version: project.version.clone(),
        branches: project.branches.clone(),
        settings: Map::new(),
        packages: vec![Arc::new(package)],
    };
    crate::validate::model_findings(&standalone, None)
        .into_iter()
        .map(crate::validate::Finding::into_diagnostic)
        .filter(|finding| {
            finding.severity == Severity::Error
                && finding.code != ProjectDiagnosticCode::DanglingResourceReference
                && finding.path.starts_with("packages[0]")
                // The callers check names themselves, with their own codes.
                && finding.path != "packages[0].name"
        })
        .collect()
}

/// Whether an issue already points at `field` (the structural check and the support
/// rules can find the same problem).
pub(super) fn reported(issues: &[Issue], at: &Op<'_>, field: &str) -> bool {
    let path = format!("operations[{}].{field}", at.index);
    issues.iter().any(|issue| issue.path == path)
}

/// Upstream's node support rules for nodes arriving with a payload (addComponent,
/// addPackage): an image node may not point into another package, and a node has at most
/// one gear per (kind, controller). `root` is the payload path of the display list.
pub(super) fn node_support_issues(
    at: &Op<'_>,
    root: &str,
    nodes: &[DisplayNode],
    owner: &str,
) -> Vec<Issue> {
    let mut issues = Vec::new();
    for (n, node) in nodes.iter().enumerate() {
        if let DisplayNode::Image(image) = node
            && let Some(package_id) = image.resource.package_id.as_deref()
            && package_id != owner
        {
            issues.push(
                at.issue(
                    Code::UnsupportedCrossPackageImageRef,
                    &format!("{root}[{n}].resource.packageId"),
                    format!(
                        "Image node {} points into package {package_id}, but an image node must \
                         use an image of its own package ({owner}); copy the image into this \
                         package, or use a loader with a ui:// URL.",
                        node.id()
                    ),
                )
                .node_kind(node.kind()),
            );
        }
        let mut pairs = HashSet::new();
        for (g, gear) in node.base().gears.iter().enumerate() {
            let kind = gear.kind();
            if !pairs.insert((kind, gear.controller_name())) {
                issues.push(
                    at.issue(
                        duplicate_controller_code(kind),
                        &format!("{root}[{n}].gears[{g}]"),
                        format!(
                            "Node {} has two {kind} gears for controller {:?}; keep one gear per \
                             kind and controller.",
                            node.id(),
                            gear.controller_name()
                        ),
                    )
                    .node_kind(node.kind())
                    .gear_kind(kind),
                );
            }
        }
    }
    issues
}
