//! The projected state of a batch: the project after the operations so far, with
//! copy-on-write access, byte overlay, selector lookups and the final checks requested.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use ofgui_contracts::api::{ComponentSelector, DisplayNodeSelector, GeneratedValues};
use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::ops::Operation;
use ofgui_contracts::uam::{ComponentModel, UamPackage, UamProject, UamResource};
use serde_json::{Map, Value};

use super::issue::{Blame, Issue};
use crate::lookup::suggest::did_you_mean;
use crate::lookup::{Matches, single};

/// The operation being checked: where its issues point.
#[derive(Clone, Debug)]
pub struct Op<'o> {
    pub index: usize,
    pub id: Option<&'o str>,
    pub kind: &'static str,
}

impl<'o> Op<'o> {
    pub fn new(index: usize, op: &'o Operation) -> Self {
        Op {
            index,
            id: op_id(op),
            kind: op.kind(),
        }
    }

    /// An issue at `operations[index].<field>` (`field` may be empty for the operation).
    pub fn issue(&self, code: Code, field: &str, message: impl Into<String>) -> Issue {
        self.blame(field).issue(code, message)
    }

    /// `operations[index].<field>`, for a problem only the final state will show.
    pub fn blame(&self, field: &str) -> Blame {
        let path = if field.is_empty() {
            format!("operations[{}]", self.index)
        } else {
            format!("operations[{}].{field}", self.index)
        };
        Blame {
            path,
            op_index: self.index,
            op_id: self.id.map(str::to_string),
            operation_kind: self.kind,
        }
    }
}

/// The `opId` of any operation.
fn op_id(op: &Operation) -> Option<&str> {
    use Operation as O;
    match op {
        O::UpdateProjectSettings(o) => o.op_id.as_deref(),
        O::UpdatePackageSettings(o) => o.op_id.as_deref(),
        O::RenameResource(o) => o.op_id.as_deref(),
        O::MoveResource(o) => o.op_id.as_deref(),
        O::SetResourceFavorite(o) => o.op_id.as_deref(),
        O::SetResourceFolderFavorite(o) => o.op_id.as_deref(),
        O::SetResourceFolderAtlas(o) => o.op_id.as_deref(),
        O::SetResourceExported(o) => o.op_id.as_deref(),
        O::AddResourceFolder(o) => o.op_id.as_deref(),
        O::RenameResourceFolder(o) => o.op_id.as_deref(),
        O::MoveResourceFolder(o) => o.op_id.as_deref(),
        O::RemoveResourceFolder(o) => o.op_id.as_deref(),
        O::SetImageResourceProps(o) => o.op_id.as_deref(),
        O::AddResource(o) => o.op_id.as_deref(),
        O::AddBranch(o) => o.op_id.as_deref(),
        O::RenameBranch(o) => o.op_id.as_deref(),
        O::RemoveBranch(o) => o.op_id.as_deref(),
        O::AddPackage(o) => o.op_id.as_deref(),
        O::RenamePackage(o) => o.op_id.as_deref(),
        O::RemovePackage(o) => o.op_id.as_deref(),
        O::AddComponent(o) => o.op_id.as_deref(),
        O::RemoveComponent(o) => o.op_id.as_deref(),
        O::MoveComponent(o) => o.op_id.as_deref(),
        O::ReplaceResourceBytes(o) => o.op_id.as_deref(),
        O::RemoveResource(o) => o.op_id.as_deref(),
        O::SetComponentProps(o) => o.op_id.as_deref(),
        O::SetDisplayNodeProps(o) => o.op_id.as_deref(),
        O::AttachDisplayNode(o) => o.op_id.as_deref(),
        O::DetachDisplayNode(o) => o.op_id.as_deref(),
        O::AddController(o) | O::UpdateController(o) => o.op_id.as_deref(),
        O::RemoveController(o) => o.op_id.as_deref(),
        O::AddTransition(o) | O::UpdateTransition(o) => o.op_id.as_deref(),
        O::RemoveTransition(o) => o.op_id.as_deref(),
        O::AddLookGear(o) | O::UpdateLookGear(o) | O::AddGear(o) | O::UpdateGear(o) => {
            o.op_id.as_deref()
        }
        O::RemoveLookGear(o) | O::RemoveGear(o) => o.op_id.as_deref(),
    }
}

/// A rule checked once, on the final state of the batch.
#[derive(Clone, Debug)]
pub enum FinalCheck {
    /// Nothing may still reference the removed package (`package_referenced`).
    PackageUnreferenced { at: Blame, package_id: String },
    /// Nothing may still reference the removed or moved component at its old place
    /// (`component_referenced`).
    ComponentUnreferenced {
        at: Blame,
        package_id: String,
        component_id: String,
    },
    /// Nothing may still reference the removed resource (`invalid_resource_reference`).
    ResourceUnreferenced {
        at: Blame,
        package_id: String,
        resource_id: String,
    },
    /// A moved component's nodes may not resolve into its old package
    /// (`component_has_package_dependencies`).
    ComponentIndependent {
        at: Blame,
        old_package_id: String,
        package_id: String,
        component_id: String,
    },
    /// An attached component instance whose component did not exist yet; it must exist
    /// at the end of the batch (`invalid_component_reference`).
    ComponentAttached {
        at: Blame,
        package_id: String,
        component_id: String,
        node_id: String,
    },
    /// A replaced controller dropped these page ids: at the end of the batch no gear
    /// bound to it may still use one the controller does not have (`invalid_controller_payload`).
    ControllerPagesDropped {
        at: Blame,
        package_id: String,
        component_id: String,
        controller_name: String,
        page_ids: Vec<String>,
    },
    /// A removed controller; what still names it at the end is blamed on the removal
    /// (`invalid_controller_payload`).
    ControllerRemoved {
        at: Blame,
        package_id: String,
        component_id: String,
        controller_name: String,
    },
    /// A detached node; what still names it is blamed on the detach.
    NodeRemoved {
        at: Blame,
        package_id: String,
        component_id: String,
        node_id: String,
    },
    /// A resource whose bytes or file name changed: its file is checked as validation
    /// checks it, on the final bytes under the final name (`invalid_resource_bytes`).
    SourceChanged {
        at: Blame,
        package_id: String,
        resource_id: String,
    },
}

/// Which parts of the project the batch changed, for the final reference checks.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// Something beyond single components changed: check the whole project.
    pub whole: bool,
    /// `(packageId, componentResourceId)` of the components changed.
    pub components: BTreeSet<(String, String)>,
}

/// The state a batch leaves.
pub(super) struct Finished {
    pub project: UamProject,
    pub bytes: BTreeMap<String, Option<Vec<u8>>>,
    pub generated: Vec<GeneratedValues>,
}

/// The projected state.
pub struct Workspace<'a> {
    project: UamProject,
    base_bytes: &'a BTreeMap<String, Vec<u8>>,
    overlay: BTreeMap<String, Option<Vec<u8>>>,
    pub(super) scope: Scope,
    pub(super) finals: Vec<FinalCheck>,
    /// The operation running now, to blame for findings only the final state shows.
    current: Option<Blame>,
    /// The last operation that changed each component, by `(packageId, componentId)`.
    pub(super) editors: BTreeMap<(String, String), Blame>,
    /// The last operation that changed something beyond single components.
    pub(super) project_editor: Option<Blame>,
    /// Resource ids some operation of the batch names for a new resource: a generated id
    /// never takes one of them, so a later operation is not refused for it.
    pub(super) requested_ids: BTreeSet<String>,
    /// What the batch filled in for fields its operations left out.
    pub(super) generated: Vec<GeneratedValues>,
}

impl<'a> Workspace<'a> {
    /// Starts from the committed project (a cheap copy: packages and resources are shared).
    pub fn new(project: &UamProject, bytes: &'a BTreeMap<String, Vec<u8>>) -> Self {
        Workspace {
            project: project.clone(),
            base_bytes: bytes,
            overlay: BTreeMap::new(),
            scope: Scope::default(),
            finals: Vec::new(),
            current: None,
            editors: BTreeMap::new(),
            project_editor: None,
            requested_ids: BTreeSet::new(),
            generated: Vec::new(),
        }
    }

    /// Notes the operation about to run.
    pub(super) fn begin(&mut self, op: &Op<'_>) {
        self.current = Some(op.blame(""));
    }

    /// The last operation that ran.
    pub(super) fn last_op(&self) -> Blame {
        self.current.clone().unwrap_or_else(|| Blame {
            path: "operations".into(),
            op_index: 0,
            op_id: None,
            operation_kind: "",
        })
    }

    pub fn project(&self) -> &UamProject {
        &self.project
    }

    /// The whole project, for operations that change its shape (branches, packages);
    /// marks the whole project for the final checks.
    pub fn project_mut(&mut self) -> &mut UamProject {
        self.mark_whole();
        &mut self.project
    }

    /// Marks the whole project for the final checks, blaming the running operation.
    fn mark_whole(&mut self) {
        self.scope.whole = true;
        self.project_editor = self.current.clone().or(self.project_editor.take());
    }

    /// The project settings to change; settings name components and packages
    /// (`ui://` URLs), so the whole project is checked at the end.
    pub fn settings_mut(&mut self) -> &mut Map<String, Value> {
        self.mark_whole();
        &mut self.project.settings
    }

    /// A package to change (copied on first write); marks the whole project for the
    /// final checks, since package-level data feeds every reference.
    pub fn package_mut(&mut self, package: usize) -> &mut UamPackage {
        self.mark_whole();
        Arc::make_mut(&mut self.project.packages[package])
    }

    /// A resource to change (copied on first write).
    pub fn resource_mut(&mut self, package: usize, resource: usize) -> &mut UamResource {
        self.mark_whole();
        let package = Arc::make_mut(&mut self.project.packages[package]);
        Arc::make_mut(&mut package.resources[resource])
    }

    /// A component's model to change (copied on first write); only this component is
    /// rechecked at the end.
    pub fn component_mut(
        &mut self,
        package: usize,
        resource: usize,
    ) -> Option<&mut ComponentModel> {
        let package = Arc::make_mut(&mut self.project.packages[package]);
        let key = (
            package.id.clone(),
            package.resources[resource].id().to_string(),
        );
        if let Some(current) = &self.current {
            self.editors.insert(key.clone(), current.clone());
        }
        self.scope.components.insert(key);
        match Arc::make_mut(&mut package.resources[resource]) {
            UamResource::Component(component) => Some(&mut component.component),
            _ => None,
        }
    }

    /// [`Self::component_mut`] for an operation whose selector named the component.
    pub fn edit(
        &mut self,
        at: &Op<'_>,
        package: usize,
        resource: usize,
    ) -> Result<&mut ComponentModel, Vec<Issue>> {
        self.component_mut(package, resource).ok_or_else(|| {
            vec![at.issue(
                Code::InvalidComponentSelector,
                "selector.componentResourceId",
                "The selected resource is not a component.",
            )]
        })
    }

    /// The current bytes of a source file.
    pub fn bytes(&self, source_path: &str) -> Option<&[u8]> {
        match self.overlay.get(source_path) {
            Some(replaced) => replaced.as_deref(),
            None => self.base_bytes.get(source_path).map(Vec::as_slice),
        }
    }

    pub fn set_bytes(&mut self, source_path: &str, bytes: Vec<u8>) {
        self.overlay.insert(source_path.to_string(), Some(bytes));
    }

    pub fn remove_bytes(&mut self, source_path: &str) {
        self.overlay.insert(source_path.to_string(), None);
    }

    /// Moves bytes to a new sourcePath (rename, move).
    pub fn move_bytes(&mut self, from: &str, to: &str) {
        if from == to {
            return;
        }
        if let Some(bytes) = self.bytes(from).map(<[u8]>::to_vec) {
            self.overlay.insert(to.to_string(), Some(bytes));
        }
        self.overlay.insert(from.to_string(), None);
    }

    /// Moves the bytes of each `(from, to)` file that has bytes loaded; a file that had
    /// none (missing or unreadable at open) stays without.
    pub fn move_loaded_bytes(&mut self, moves: Vec<(String, String)>) {
        for (from, to) in moves {
            if self.bytes(&from).is_some() {
                self.move_bytes(&from, &to);
            }
        }
    }

    /// Asks for a rule to be checked on the final state.
    pub fn check_at_end(&mut self, check: FinalCheck) {
        self.finals.push(check);
    }

    pub(super) fn finish(self) -> Finished {
        Finished {
            project: self.project,
            bytes: self.overlay,
            generated: self.generated,
        }
    }

    /// The index of the one package with this id.
    pub fn find_package(&self, op: &Op<'_>, field: &str, package_id: &str) -> Result<usize, Issue> {
        let packages = self.project.packages.iter().enumerate();
        match single(packages.filter(|(_, p)| p.id == package_id)) {
            Matches::One((index, _)) => Ok(index),
            Matches::Zero => Err(op.issue(
                Code::InvalidPackageSelector,
                field,
                format!(
                    "No package has the id or name {package_id}.{}",
                    did_you_mean(
                        package_id,
                        "package",
                        self.project
                            .packages
                            .iter()
                            .map(|p| (p.id.as_str(), p.name.as_str()))
                    )
                ),
            )),
            Matches::Many => Err(op.issue(
                Code::SelectorAmbiguity,
                field,
                format!(
                    "More than one package has id {package_id}, so no operation can tell them apart; give one a new id in the FairyGUI editor (validateSession reports the duplicate)."
                ),
            )),
        }
    }

    /// The package of a resource or folder selector: when no package has the id, the
    /// selected `what` cannot exist, which is reported under `missing`.
    pub fn find_selected_package(
        &self,
        op: &Op<'_>,
        package_id: &str,
        missing: Code,
        what: &str,
    ) -> Result<usize, Vec<Issue>> {
        self.find_package(op, "selector.packageId", package_id)
            .map_err(|issue| {
                vec![issue.missing_as(missing, |_| {
                    format!("No package has the id or name {package_id}; the {what} cannot exist.")
                })]
            })
    }

    /// The index of the one resource with this id in a package.
    pub fn find_resource(
        &self,
        op: &Op<'_>,
        field: &str,
        package: usize,
        resource_id: &str,
    ) -> Result<usize, Issue> {
        let package = &self.project.packages[package];
        let resources = package.resources.iter().enumerate();
        match single(resources.filter(|(_, r)| r.id() == resource_id)) {
            Matches::One((index, _)) => Ok(index),
            Matches::Zero => Err(op.issue(
                Code::InvalidResourceSelector,
                field,
                format!(
                    "Package {} has no resource with the id or name {resource_id}.{}",
                    package.id,
                    did_you_mean(
                        resource_id,
                        "resource",
                        package.resources.iter().map(|r| (r.id(), r.name()))
                    )
                ),
            )),
            Matches::Many => Err(op.issue(
                Code::SelectorAmbiguity,
                field,
                format!(
                    "Package {} has more than one resource with id {resource_id}, so no operation can tell them apart; resolve the duplicate in the FairyGUI editor (validateSession reports it).",
                    package.id
                ),
            )),
        }
    }

    /// `(package, resource)` of a component resource.
    pub fn find_component(
        &self,
        op: &Op<'_>,
        selector: &ComponentSelector,
    ) -> Result<(usize, usize), Issue> {
        let missing = |issue: Issue| issue.missing_as(Code::InvalidComponentSelector, |m| m);
        let package = self
            .find_package(op, "selector.packageId", &selector.package_id)
            .map_err(missing)?;
        let resource = self
            .find_resource(
                op,
                "selector.componentResourceId",
                package,
                &selector.component_resource_id,
            )
            .map_err(missing)?;
        if self.project.packages[package].resources[resource]
            .component()
            .is_none()
        {
            return Err(op.issue(
                Code::InvalidComponentSelector,
                "selector.componentResourceId",
                format!(
                    "Resource {} is not a component.",
                    selector.component_resource_id
                ),
            ));
        }
        Ok((package, resource))
    }

    /// The component model behind a component selector.
    pub fn component(&self, package: usize, resource: usize) -> &ComponentModel {
        self.project.packages[package].resources[resource]
            .component()
            .expect("find_component only returns components")
    }

    /// `(package, resource, node)` of a display node.
    pub fn find_node(
        &self,
        op: &Op<'_>,
        selector: &DisplayNodeSelector,
    ) -> Result<(usize, usize, usize), Issue> {
        let component_selector = ComponentSelector {
            package_id: selector.package_id.clone(),
            component_resource_id: selector.component_resource_id.clone(),
        };
        let (package, resource) = self.find_component(op, &component_selector)?;
        let nodes = self.component(package, resource).display_list.iter();
        match single(
            nodes
                .enumerate()
                .filter(|(_, node)| node.id() == selector.display_node_id),
        ) {
            Matches::One((index, _)) => Ok((package, resource, index)),
            Matches::Zero => Err(op.issue(
                Code::InvalidDisplayNodeSelector,
                "selector.displayNodeId",
                match self
                    .component(package, resource)
                    .unsupported_node(&selector.display_node_id)
                {
                    Some(kept) => format!(
                        "Node {} of component {} is a <{}> element, which this server keeps in the file but does not model; edit it in the FairyGUI editor.",
                        selector.display_node_id, selector.component_resource_id, kept.element
                    ),
                    None => format!(
                        "Component {} has no display node with the id or name {}.{}",
                        selector.component_resource_id,
                        selector.display_node_id,
                        did_you_mean(
                            &selector.display_node_id,
                            "node",
                            self.component(package, resource)
                                .display_list
                                .iter()
                                .map(|n| (n.id(), n.base().name.as_str()))
                        )
                    ),
                },
            )),
            Matches::Many => Err(op.issue(
                Code::SelectorAmbiguity,
                "selector.displayNodeId",
                format!(
                    "Component {} has more than one display node with id {}, so no operation can tell them apart; give one a new id in the FairyGUI editor (validateSession reports the duplicate).",
                    selector.component_resource_id, selector.display_node_id
                ),
            )),
        }
    }
}
