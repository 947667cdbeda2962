//! The project outline: structure and ids, without properties or bytes.

use ofgui_contracts::api::{
    OutlineComponent, OutlineController, OutlineDetail, OutlineFolder, OutlineInput, OutlineNode,
    OutlinePackage, OutlinePage, OutlineResource, OutlineTransition, ProjectOutline,
};
use std::ops::Range;

use ofgui_contracts::envelope::Warning;
use ofgui_contracts::error::BackendError;
use ofgui_contracts::uam::UamResource;

use crate::scope::{self, Page, Scoped};
use crate::session::Session;

/// Most bytes of packages an outline holds when the input names no `page.limit`: with
/// the rest of the envelope, an answer stays under 64 KiB however large the project
/// (unless one package alone is larger).
pub const OUTLINE_PAGE_BYTES: usize = 56 * 1024;

/// Builds the outline of the session's committed project, as the input scopes and pages
/// it: without `page.limit`, as many whole packages as fit in [`OUTLINE_PAGE_BYTES`],
/// with a warning that says where the rest is when they do not all fit (and, when the
/// input asked for a page, `nextCursor`).
pub fn outline(
    session: &Session,
    input: &OutlineInput,
) -> Result<(ProjectOutline, Option<Warning>), BackendError> {
    let project = session.project();
    let revision = session.status().revision;
    let selected = scope::select(session.id(), project, input.scope.as_ref())?;
    let page = Page::read(session.id(), revision, input.page.as_ref(), None)?;
    let detail = input.detail.unwrap_or_default();
    let (packages, window, next_cursor) = page.fill(
        selected.len(),
        OUTLINE_PAGE_BYTES,
        |index| package(&selected[index], detail),
        |package| serde_json::to_vec(package).map_or(0, |bytes| bytes.len()),
    );
    let by_size = input.page.as_ref().is_none_or(|page| page.limit.is_none());
    let warning = match (&next_cursor, by_size) {
        (Some(cursor), true) => Some(paged_warning(window, selected.len(), cursor)),
        _ => None,
    };
    // An input without `page` is upstream's call, answered in upstream's shape: the
    // cursor travels in the warning, not as a field upstream's outline does not have.
    let next_cursor = next_cursor.filter(|_| input.page.is_some());
    let outline = ProjectOutline {
        session_id: session.id().to_string(),
        revision,
        project_id: project.project_id.clone(),
        project_type: project.project_type,
        version: project.version.clone(),
        branches: project.branches.clone(),
        packages,
        next_cursor,
    };
    Ok((outline, warning))
}

/// Says that an outline holds only some packages, and how to read the others.
fn paged_warning(window: Range<usize>, total: usize, cursor: &str) -> Warning {
    Warning {
        code: "answer_paged".into(),
        message: format!(
            "This outline holds {}: an outline without page.limit holds the whole packages that fit in about {} KiB. Pass page: {{\"cursor\": \"{cursor}\"}} for the next packages, or ask detail: \"packages\" for every package's id and name, then scope.packageIds.",
            scope::page_span(&window, total, "package", "packages"),
            OUTLINE_PAGE_BYTES / 1024,
        ),
    }
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
