//! Controllers and transitions are selected by name within a component: exactly one must
//! carry it (an update or removal), or none (an addition).

use ofgui_contracts::api::{ComponentSelector, ControllerSelector, TransitionSelector};
use ofgui_contracts::catalog::DiagnosticCode as Code;

use super::issue::Issue;
use super::words::listed;
use super::workspace::{Op, Workspace};
use crate::lookup::{Matches, single};
use crate::rules::with_article;

/// Whether an operation adds an item under a new name or replaces the one with its name.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Put {
    Add,
    Replace,
}

/// How one kind of named item is selected and worded.
pub(super) struct Named {
    pub singular: &'static str,
    pub plural: &'static str,
    /// The selector field that names it: `selector.controllerName`.
    pub field: &'static str,
    /// The code when no item has the name.
    pub missing: Code,
    /// The code when an addition takes a name in use.
    pub taken: Code,
    pub add: &'static str,
    pub update: &'static str,
}

pub(super) const CONTROLLER: Named = Named {
    singular: "controller",
    plural: "controllers",
    field: "selector.controllerName",
    missing: Code::InvalidControllerPayload,
    taken: Code::InvalidControllerPayload,
    add: "addController",
    update: "updateController",
};

pub(super) const TRANSITION: Named = Named {
    singular: "transition",
    plural: "transitions",
    field: "selector.transitionName",
    missing: Code::InvalidTransitionPayload,
    taken: Code::DuplicateTransitionName,
    add: "addTransition",
    update: "updateTransition",
};

/// A selector of something named inside a component: a controller or a transition.
pub(super) trait NamedSelector {
    fn package_id(&self) -> &str;
    fn component_id(&self) -> &str;
    fn name(&self) -> &str;
}

impl NamedSelector for ControllerSelector {
    fn package_id(&self) -> &str {
        &self.package_id
    }
    fn component_id(&self) -> &str {
        &self.component_resource_id
    }
    fn name(&self) -> &str {
        &self.controller_name
    }
}

impl NamedSelector for TransitionSelector {
    fn package_id(&self) -> &str {
        &self.package_id
    }
    fn component_id(&self) -> &str {
        &self.component_resource_id
    }
    fn name(&self) -> &str {
        &self.transition_name
    }
}

/// `(package, resource)` of the component a controller or transition selector names.
pub(super) fn component_of(
    workspace: &Workspace<'_>,
    at: &Op<'_>,
    selector: &impl NamedSelector,
) -> Result<(usize, usize), Vec<Issue>> {
    let selector = ComponentSelector {
        package_id: selector.package_id().to_string(),
        component_resource_id: selector.component_id().to_string(),
    };
    workspace
        .find_component(at, &selector)
        .map_err(|issue| vec![issue])
}

impl Named {
    /// The slot of the one item called `name` among `names` (the component's, in order).
    pub(super) fn find(
        &self,
        at: &Op<'_>,
        selector: &impl NamedSelector,
        names: &[&str],
    ) -> Result<usize, Vec<Issue>> {
        let (component_id, name) = (selector.component_id(), selector.name());
        let slots = names.iter().enumerate().filter(|(_, n)| **n == name);
        match single(slots) {
            Matches::One((slot, _)) => Ok(slot),
            Matches::Zero => Err(vec![at.issue(
                self.missing,
                self.field,
                format!(
                    "Component {component_id} has no {} named {name:?} at this point of the batch ({}: {}); use {} to create it.",
                    self.singular,
                    self.plural,
                    listed(names.iter().copied()),
                    self.add
                ),
            )]),
            Matches::Many => Err(vec![at.issue(
                Code::SelectorAmbiguity,
                self.field,
                format!(
                    "Component {component_id} has {} {} named {name:?}, so the selector is ambiguous; fix the duplicated names in the FairyGUI editor.",
                    names.iter().filter(|n| **n == name).count(),
                    self.plural
                ),
            )]),
        }
    }

    /// Where an addition or replacement goes: `None` to append under a new name, else the
    /// slot of the item it replaces; or every issue against it, after `issues` (the
    /// payload's own).
    pub(super) fn put_slot(
        &self,
        put: Put,
        at: &Op<'_>,
        selector: &impl NamedSelector,
        names: &[&str],
        mut issues: Vec<Issue>,
    ) -> Result<Option<usize>, Vec<Issue>> {
        let slot = match put {
            Put::Add => {
                issues.extend(self.taken(at, selector, names));
                None
            }
            Put::Replace => match self.find(at, selector, names) {
                Ok(slot) => Some(slot),
                Err(found) => {
                    issues.extend(found);
                    None
                }
            },
        };
        if issues.is_empty() {
            Ok(slot)
        } else {
            Err(issues)
        }
    }

    /// The issue of an addition whose name is taken, if it is.
    fn taken(&self, at: &Op<'_>, selector: &impl NamedSelector, names: &[&str]) -> Option<Issue> {
        let (component_id, name) = (selector.component_id(), selector.name());
        names.contains(&name).then(|| {
            at.issue(
                self.taken,
                self.field,
                format!(
                    "Component {component_id} already has {} named {name:?}; use {} to replace it, or choose another name.",
                    with_article(self.singular),
                    self.update
                ),
            )
        })
    }
}
