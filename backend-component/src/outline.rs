//! The project outline: structure and ids, without properties or bytes.

use ofgui_contracts::api::{
    OutlineComponent, OutlineController, OutlineDetail, OutlineFolder, OutlineInput, OutlineNode,
    OutlinePackage, OutlinePage, OutlineResource, OutlineTransition, ProjectOutline,
};
use ofgui_contracts::error::BackendError;
use ofgui_contracts::uam::UamResource;

use crate::scope::{self, Page, Scoped};
use crate::session::Session;

/// Builds the outline of the session's committed project, as the input scopes and pages
/// it; an input naming only the session gives the whole project.
pub fn outline(session: &Session, input: &OutlineInput) -> Result<ProjectOutline, BackendError> {
    let project = session.project();
    let selected = scope::select(session.id(), project, input.scope.as_ref())?;
    let page = Page::read(
        session.id(),
        session.status().revision,
        input.page.as_ref(),
        None,
    )?;
    let (window, next_cursor) = page.window(selected.len());
    let detail = input.detail.unwrap_or_default();
    Ok(ProjectOutline {
        session_id: session.id().to_string(),
        revision: session.status().revision,
        project_id: project.project_id.clone(),
        project_type: project.project_type,
        version: project.version.clone(),
        branches: project.branches.clone(),
        packages: selected[window]
            .iter()
            .map(|scoped| package(scoped, detail))
            .collect(),
        next_cursor,
    })
}

fn package(scoped: &Scoped<'_>, detail: OutlineDetail) -> OutlinePackage {
    let package = scoped.package;
    let full = detail == OutlineDetail::Full;
    OutlinePackage {
        id: package.id.clone(),
        name: package.name.clone(),
        branch_names: package.branch_names.clone(),
        folders: full.then(|| {
            package
                .folders
                .iter()
                .map(|folder| OutlineFolder {
                    branch: folder.branch.clone(),
                    path: folder.path.clone(),
                })
                .collect()
        }),
        resources: full.then(|| scoped.resources().map(|r| resource(r)).collect()),
        resource_count: (!full).then(|| package.resources.len() as u32),
    }
}

fn resource(resource: &UamResource) -> OutlineResource {
    OutlineResource {
        id: resource.id().to_string(),
        name: resource.name().to_string(),
        path: resource.path().to_string(),
        kind: resource.kind().to_string(),
        branch: resource.branch().to_string(),
        component: resource.component().map(|component| OutlineComponent {
            display_list: component
                .display_list
                .iter()
                .map(|node| OutlineNode {
                    id: node.id().to_string(),
                    name: node.name().to_string(),
                    kind: node.kind().to_string(),
                })
                .collect(),
            controllers: component
                .controllers
                .iter()
                .map(|controller| OutlineController {
                    name: controller.name.clone(),
                    pages: controller
                        .pages
                        .iter()
                        .map(|page| OutlinePage {
                            id: page.id.clone(),
                            name: page.name.clone(),
                        })
                        .collect(),
                })
                .collect(),
            transitions: component
                .transitions
                .iter()
                .map(|transition| OutlineTransition {
                    name: transition.name.clone(),
                })
                .collect(),
        }),
    }
}
