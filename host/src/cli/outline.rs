//! `ofgui-mcp-host outline <project>`: packages, resources and components.

use ofgui_contracts::methods::MethodId;
use std::fmt::Write as _;
use std::path::Path;

use ofgui_contracts::api::{OutlineComponent, OutlinePackage, ProjectOutline};
use ofgui_contracts::cli::ExitStatus;
use ofgui_contracts::error::{BackendError, ReadFailureReason};
use serde_json::{Value, json};

use super::names::{self, Ambiguous, Located};
use super::{Done, Project};
use crate::cli::args::Args;

/// What part of the project to outline.
pub(super) struct Scope<'a> {
    /// Packages by id or name; empty, all.
    pub packages: &'a [String],
    /// One component, `<package>/<component>`.
    pub component: Option<&'a str>,
    /// Only the packages with their resource counts.
    pub packages_only: bool,
}

pub(super) async fn run(args: &Args, path: &Path, scope: Scope<'_>) -> Result<Done, BackendError> {
    let component = match scope.component {
        Some(text) => Some(
            text.split_once('/')
                .filter(|(a, b)| !a.is_empty() && !b.is_empty())
                .ok_or_else(|| {
                    BackendError::invalid_input(
                        format!("--component takes <package>/<component>, not {text:?}."),
                        Some("/scope/component".into()),
                    )
                })?,
        ),
        None => None,
    };
    Project::reading(args, path, async |project| {
        let ambiguous = |ambiguous: Ambiguous, what: &str| {
            BackendError::read_failed(
                project.session_id(),
                ReadFailureReason::Ambiguous,
                ambiguous.message(what),
            )
        };
        // `page` asks for the cursor in the data, to read every page.
        let mut input = json!({ "sessionId": project.session_id(), "page": {} });
        if scope.packages_only {
            input["detail"] = json!("packages");
        }
        if !scope.packages.is_empty() {
            let packages = names::packages(project).await?;
            let ids = scope
                .packages
                .iter()
                .map(|given| names::package_id(&packages, given))
                .collect::<Result<Vec<String>, _>>()
                .map_err(|a| ambiguous(a, "package"))?;
            input["scope"] = json!({ "packageIds": ids });
        }
        if let Some((package, component)) = component {
            let located =
                Located::look_up(project, package, Some(component), true, ambiguous).await?;
            input["scope"] = json!({ "component": {
                "packageId": located.package_id, "componentResourceId": located.resource_id
            } });
        }
        // A person asked for the whole outline: read every page the backend answers in.
        let (mut outline, additions): (ProjectOutline, _) = project
            .call_with_additions(MethodId::GetProjectOutline, input.clone())
            .await?;
        while let Some(cursor) = outline.next_cursor.take() {
            input["page"] = json!({ "cursor": cursor });
            let next: ProjectOutline = project
                .call(MethodId::GetProjectOutline, input.clone())
                .await?;
            outline.packages.extend(next.packages);
            outline.next_cursor = next.next_cursor;
        }
        let type_name = additions.project_type_name.as_deref().unwrap_or_default();
        let text = text(project, &outline, type_name, component.is_some());
        Ok(Done::new(&outline, text, ExitStatus::Success)?.with_additions(additions))
    })
    .await
}

fn plural(count: usize, one: &str) -> String {
    match count {
        1 => format!("1 {one}"),
        _ => format!("{count} {one}s"),
    }
}

/// The outline for people: a line per package and resource; components with their node,
/// controller and transition counts, and with `nodes` every one of them.
fn text(project: &Project, outline: &ProjectOutline, type_name: &str, nodes: bool) -> String {
    let mut text = format!(
        "{}: project {} ({}, version {}), {}",
        project.shown(),
        outline.project_id,
        type_name,
        outline.version,
        plural(outline.packages.len(), "package")
    );
    if !outline.branches.is_empty() {
        let _ = write!(text, ", branches {}", outline.branches.join(", "));
    }
    text.push('\n');
    for package in &outline.packages {
        package_text(&mut text, package, nodes);
    }
    text
}

fn package_text(text: &mut String, package: &OutlinePackage, nodes: bool) {
    let resources = package.resources.as_deref().unwrap_or_default();
    let count = package
        .resource_count
        .map_or(resources.len(), |count| count as usize);
    let _ = write!(
        text,
        "package {} ({}): {}",
        package.name,
        package.id,
        plural(count, "resource")
    );
    if !package.branch_names.is_empty() {
        let _ = write!(text, ", branches {}", package.branch_names.join(", "));
    }
    text.push('\n');
    for resource in resources {
        let branch = match resource.branch.as_str() {
            "" => String::new(),
            branch => format!(" [{branch}]"),
        };
        let _ = write!(
            text,
            "  {:<11} {:<8} {}{}{branch}",
            resource.kind, resource.id, resource.path, resource.name
        );
        if let Some(component) = &resource.component {
            let _ = write!(text, "  {}", counts(component));
        }
        text.push('\n');
        if let Some(component) = resource.component.as_ref().filter(|_| nodes) {
            component_text(text, component);
        }
    }
}

fn counts(component: &OutlineComponent) -> String {
    format!(
        "{}, {}, {}",
        plural(component.display_list.len(), "node"),
        plural(component.controllers.len(), "controller"),
        plural(component.transitions.len(), "transition")
    )
}

fn component_text(text: &mut String, component: &OutlineComponent) {
    for node in &component.display_list {
        let _ = writeln!(
            text,
            "    node {:<8} {:<11} {}",
            node.id, node.kind, node.name
        );
    }
    for controller in &component.controllers {
        let pages: Vec<String> = controller
            .pages
            .iter()
            .map(|page| format!("{} {}", page.id, Value::from(page.name.as_str())))
            .collect();
        let _ = writeln!(
            text,
            "    controller {}: {}",
            controller.name,
            pages.join(", ")
        );
    }
    for transition in &component.transitions {
        let _ = writeln!(text, "    transition {}", transition.name);
    }
}
