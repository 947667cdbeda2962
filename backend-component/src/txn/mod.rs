//! Transactions: a batch of operations applied all-or-nothing to a copy of the project.
//!
//! Each operation is checked against the state the earlier operations of the batch left
//! (sequential projection) and, when valid, applied to that state. Every problem of every
//! operation is collected; reference rules are checked on the final state. The caller
//! swaps the result in only when nothing failed, so a failing batch changes nothing.
//!
//! The operation families live in their own modules and never import each other's
//! operations. What they share sits below them: [`workspace`] (the projected state,
//! selector lookups, copy-on-write mutation), [`issue`] (issues and their codes),
//! `layout` (where files go), `payload` (checks of added packages and components),
//! `named` (controllers and transitions by name), `new_asset` (an `addResource` payload
//! completed: defaults, a generated id, the record of what was chosen) and `words`
//! (message wording).
//! `finals` checks the final state of a batch; `sizes` marks the nodes whose size the
//! file must now say; [`impact`] describes what it changed.

mod branches;
mod component_props;
mod components;
mod controllers;
mod finals;
mod folders;
mod gears;
pub mod impact;
pub mod issue;
mod keys;
pub(crate) mod layout;
mod named;
mod new_asset;
mod nodes;
mod package_settings;
mod packages;
mod payload;
mod project_settings;
mod resources;
pub(crate) mod sizes;
mod transitions;
mod words;
pub mod workspace;

use std::borrow::Cow;
use std::collections::BTreeMap;

use ofgui_contracts::api::GeneratedValues;
use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::ops::Operation;
use ofgui_contracts::uam::UamProject;

pub use issue::{Failure, Issue};
pub use workspace::{Op, Workspace};

use named::Put;

/// What a successful batch produced.
pub struct Applied {
    pub project: UamProject,
    /// Bytes the batch added, replaced (`Some`) or removed (`None`), by sourcePath.
    pub bytes: BTreeMap<String, Option<Vec<u8>>>,
    /// What the server filled in for fields the operations left out.
    pub generated: Vec<GeneratedValues>,
}

/// Operations that create or delete whole branches, packages or components; they may only
/// share a batch with the operations that can accompany such a change.
fn is_lifecycle(op: &Operation) -> bool {
    matches!(
        op,
        Operation::AddBranch(_)
            | Operation::RenameBranch(_)
            | Operation::RemoveBranch(_)
            | Operation::AddPackage(_)
            | Operation::RenamePackage(_)
            | Operation::RemovePackage(_)
            | Operation::AddComponent(_)
            | Operation::RemoveComponent(_)
            | Operation::MoveComponent(_)
    )
}

fn may_join_lifecycle(op: &Operation) -> bool {
    is_lifecycle(op)
        || matches!(
            op,
            Operation::AddResource(_)
                | Operation::RemoveResource(_)
                | Operation::AddResourceFolder(_)
                | Operation::RenameResourceFolder(_)
                | Operation::MoveResourceFolder(_)
                | Operation::RemoveResourceFolder(_)
                | Operation::AttachDisplayNode(_)
                | Operation::DetachDisplayNode(_)
                | Operation::SetDisplayNodeProps(_)
        )
}

/// Applies `operations` to a copy of `project`; `bytes` are the session's asset bytes.
pub fn run(
    project: &UamProject,
    bytes: &BTreeMap<String, Vec<u8>>,
    operations: &[Operation],
) -> Result<Applied, Failure> {
    let mut issues = Vec::new();
    if operations.iter().any(is_lifecycle) {
        for (index, op) in operations.iter().enumerate() {
            if !may_join_lifecycle(op) {
                issues.push(Op::new(index, op).issue(
                    Code::UnsupportedOperationBatch,
                    "kind",
                    format!(
                        "{} cannot share a batch with branch, package or component lifecycle operations; commit it separately.",
                        op.kind()
                    ),
                ));
            }
        }
        if !issues.is_empty() {
            return Err(Failure::unsupported(issues));
        }
    }

    let (workspace, by_ids) = project_batch(project, bytes, operations)?;
    // The final checks read the operations' selectors: they get them by ids.
    let by_ids: Option<Vec<Operation>> = by_ids
        .iter()
        .any(|op| matches!(op, Cow::Owned(_)))
        .then(|| by_ids.into_iter().map(Cow::into_owned).collect());
    let operations = by_ids.as_deref().unwrap_or(operations);
    let final_issues = finals::check(project, bytes, operations, &workspace);
    if !final_issues.is_empty() {
        return Err(Failure::unsupported(final_issues));
    }
    let mut finished = workspace.finish();
    sizes::pin(&mut finished.project);
    Ok(Applied {
        project: finished.project,
        bytes: finished.bytes,
        generated: finished.generated,
    })
}

/// Applies each operation in order to a copy of `project`, collecting every operation's
/// issues; the final checks are the caller's. Gives the operations as they ran: each
/// selector's names replaced by ids (see [`keys`]).
fn project_batch<'b, 'o>(
    project: &UamProject,
    bytes: &'b BTreeMap<String, Vec<u8>>,
    operations: &'o [Operation],
) -> Result<(Workspace<'b>, Vec<Cow<'o, Operation>>), Failure> {
    let mut issues = Vec::new();
    let mut workspace = Workspace::new(project, bytes);
    workspace.requested_ids = new_asset::requested_ids(operations);
    let mut by_ids = Vec::with_capacity(operations.len());
    for (index, sent) in operations.iter().enumerate() {
        let at = Op::new(index, sent);
        let op = match keys::resolved(workspace.project(), &at, sent) {
            Ok(op) => op,
            Err(issue) => {
                issues.push(issue);
                by_ids.push(Cow::Borrowed(sent));
                continue;
            }
        };
        workspace.begin(&at);
        let result = match &*op {
            Operation::UpdateProjectSettings(op) => {
                project_settings::update_project(&mut workspace, &at, op)
            }
            Operation::UpdatePackageSettings(op) => {
                package_settings::update(&mut workspace, &at, op)
            }
            Operation::RenameResource(op) => resources::rename(&mut workspace, &at, op),
            Operation::MoveResource(op) => resources::move_to(&mut workspace, &at, op),
            Operation::SetResourceFavorite(op) => resources::set_favorite(&mut workspace, &at, op),
            Operation::SetResourceExported(op) => resources::set_exported(&mut workspace, &at, op),
            Operation::SetImageResourceProps(op) => {
                resources::set_image_props(&mut workspace, &at, op)
            }
            Operation::AddResource(op) => resources::add(&mut workspace, &at, op),
            Operation::ReplaceResourceBytes(op) => {
                resources::replace_bytes(&mut workspace, &at, op)
            }
            Operation::RemoveResource(op) => resources::remove(&mut workspace, &at, op),
            Operation::SetResourceFolderFavorite(op) => {
                folders::set_favorite(&mut workspace, &at, op)
            }
            Operation::SetResourceFolderAtlas(op) => folders::set_atlas(&mut workspace, &at, op),
            Operation::AddResourceFolder(op) => folders::add(&mut workspace, &at, op),
            Operation::RenameResourceFolder(op) => folders::rename(&mut workspace, &at, op),
            Operation::MoveResourceFolder(op) => folders::move_to(&mut workspace, &at, op),
            Operation::RemoveResourceFolder(op) => folders::remove(&mut workspace, &at, op),
            Operation::AddBranch(op) => branches::add(&mut workspace, &at, op),
            Operation::RenameBranch(op) => branches::rename(&mut workspace, &at, op),
            Operation::RemoveBranch(op) => branches::remove(&mut workspace, &at, op),
            Operation::AddPackage(op) => packages::add(&mut workspace, &at, op),
            Operation::RenamePackage(op) => packages::rename(&mut workspace, &at, op),
            Operation::RemovePackage(op) => packages::remove(&mut workspace, &at, op),
            Operation::AddComponent(op) => components::add(&mut workspace, &at, op),
            Operation::RemoveComponent(op) => components::remove(&mut workspace, &at, op),
            Operation::MoveComponent(op) => components::move_to(&mut workspace, &at, op),
            Operation::SetComponentProps(op) => component_props::set_props(&mut workspace, &at, op),
            Operation::SetDisplayNodeProps(op) => nodes::set_props(&mut workspace, &at, op),
            Operation::AttachDisplayNode(op) => nodes::attach(&mut workspace, &at, op),
            Operation::DetachDisplayNode(op) => nodes::detach(&mut workspace, &at, op),
            Operation::AddController(op) => {
                controllers::put_controller(&mut workspace, &at, op, Put::Add)
            }
            Operation::UpdateController(op) => {
                controllers::put_controller(&mut workspace, &at, op, Put::Replace)
            }
            Operation::RemoveController(op) => {
                controllers::remove_controller(&mut workspace, &at, op)
            }
            Operation::AddTransition(op) => {
                transitions::put_transition(&mut workspace, &at, op, Put::Add)
            }
            Operation::UpdateTransition(op) => {
                transitions::put_transition(&mut workspace, &at, op, Put::Replace)
            }
            Operation::RemoveTransition(op) => {
                transitions::remove_transition(&mut workspace, &at, op)
            }
            Operation::AddLookGear(op) | Operation::AddGear(op) => {
                gears::add(&mut workspace, &at, op)
            }
            Operation::UpdateLookGear(op) | Operation::UpdateGear(op) => {
                gears::update(&mut workspace, &at, op)
            }
            Operation::RemoveLookGear(op) | Operation::RemoveGear(op) => {
                gears::remove(&mut workspace, &at, op)
            }
        };
        if let Err(mut found) = result {
            issues.append(&mut found);
        }
        by_ids.push(op);
    }
    if !issues.is_empty() {
        return Err(Failure::unsupported(issues));
    }
    Ok((workspace, by_ids))
}

/// The project after `operations` without the final checks, or `None` when an operation
/// itself is refused: the state the final checks judge. Tests of those checks use it.
#[doc(hidden)]
pub fn project_unchecked(
    project: &UamProject,
    bytes: &BTreeMap<String, Vec<u8>>,
    operations: &[Operation],
) -> Option<UamProject> {
    project_batch(project, bytes, operations)
        .ok()
        .map(|(workspace, _)| workspace.finish().project)
}
