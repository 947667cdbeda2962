//! The project outline: structure and ids, without properties or bytes.

use ofgui_contracts::api::{
    OutlineComponent, OutlineController, OutlineFolder, OutlineNode, OutlinePackage, OutlinePage,
    OutlineResource, OutlineTransition, ProjectOutline,
};
use ofgui_contracts::uam::{UamPackage, UamResource};

use crate::session::Session;

/// Builds the outline of the session's committed project.
pub fn outline(session: &Session) -> ProjectOutline {
    let project = session.project();
    ProjectOutline {
        session_id: session.id().to_string(),
        revision: session.status().revision,
        project_id: project.project_id.clone(),
        project_type: project.project_type,
        project_type_name: project.project_type_name.clone(),
        version: project.version.clone(),
        branches: project.branches.clone(),
        packages: project.packages.iter().map(|p| package(p)).collect(),
    }
}

fn package(package: &UamPackage) -> OutlinePackage {
    OutlinePackage {
        id: package.id.clone(),
        name: package.name.clone(),
        branch_names: package.branch_names.clone(),
        folders: package
            .folders
            .iter()
            .map(|folder| OutlineFolder {
                branch: folder.branch.clone(),
                path: folder.path.clone(),
            })
            .collect(),
        resources: package.resources.iter().map(|r| resource(r)).collect(),
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
