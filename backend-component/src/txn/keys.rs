//! Selectors take names as well as ids: each key of an operation's selector (package,
//! then resource or component, then display node) that no entity has as its id but one
//! has as its name, as the outline shows them, is replaced by that entity's id before the
//! operation runs, against the project as the batch has left it so far. Every rule after
//! that, the final checks included, sees ids. A name several entities share is refused
//! with their ids; a key that names nothing is left for the operation to report.

use std::borrow::Cow;

use ofgui_contracts::catalog::DiagnosticCode as Code;
use ofgui_contracts::ops::Operation;
use ofgui_contracts::uam::UamProject;

use super::issue::Issue;
use super::workspace::Op;
use crate::lookup::{Named, by_id_or_name, resource_names};

/// `op` with its selector's names replaced by ids, borrowed when it names by id alone.
pub(super) fn resolved<'o>(
    project: &UamProject,
    at: &Op<'_>,
    op: &'o Operation,
) -> Result<Cow<'o, Operation>, Issue> {
    let Some(keys) = op.selector().map(|selector| selector.keys()) else {
        return Ok(Cow::Borrowed(op));
    };
    let shared = |field: &str, code: Code, what: &str, ids: Vec<String>| {
        at.issue(
            code,
            field,
            format!(
                "{} {what} are named {} (ids {}); name one by its id.",
                ids.len(),
                field_value(op, field).unwrap_or_default(),
                ids.join(", ")
            ),
        )
    };

    let packages = &project.packages;
    let package = match by_id_or_name(packages, keys.package, |p| &p.id, |p| vec![p.name.clone()]) {
        Named::One(index) => &packages[index],
        Named::SameName(indexes) => {
            let ids = indexes.iter().map(|&i| packages[i].id.clone()).collect();
            return Err(shared(
                "selector.packageId",
                Code::InvalidPackageSelector,
                "packages",
                ids,
            ));
        }
        Named::Zero | Named::SameId => return Ok(Cow::Borrowed(op)),
    };
    let package_id = (package.id != keys.package).then(|| package.id.clone());

    let mut resource_id = None;
    let mut node_id = None;
    if let Some(key) = keys.resource {
        let resources = &package.resources;
        let code = match key.component {
            true => Code::InvalidComponentSelector,
            false => Code::InvalidResourceSelector,
        };
        let resource = match by_id_or_name(resources, key.key, |r| r.id(), |r| resource_names(r)) {
            Named::One(index) => Some(&resources[index]),
            Named::SameName(indexes) => {
                let ids = indexes
                    .iter()
                    .map(|&i| resources[i].id().to_string())
                    .collect();
                let what = format!("resources of package {}", package.id);
                return Err(shared(key.field, code, &what, ids));
            }
            Named::Zero | Named::SameId => None,
        };
        if let Some(resource) = resource {
            resource_id = (resource.id() != key.key).then(|| resource.id().to_string());
            if let (Some(node), Some(component)) = (keys.node, resource.component()) {
                let nodes = &component.display_list;
                match by_id_or_name(nodes, node, |n| n.id(), |n| vec![n.base().name.clone()]) {
                    Named::One(index) => {
                        node_id =
                            (nodes[index].id() != node).then(|| nodes[index].id().to_string());
                    }
                    Named::SameName(indexes) => {
                        let ids = indexes.iter().map(|&i| nodes[i].id().to_string()).collect();
                        let what = format!("display nodes of component {}", resource.id());
                        return Err(shared(
                            "selector.displayNodeId",
                            Code::InvalidDisplayNodeSelector,
                            &what,
                            ids,
                        ));
                    }
                    Named::Zero | Named::SameId => {}
                }
            }
        }
    }
    if package_id.is_none() && resource_id.is_none() && node_id.is_none() {
        return Ok(Cow::Borrowed(op));
    }
    let mut named_by_ids = op.clone();
    if let Some(selector) = named_by_ids.selector_mut() {
        selector.set_keys(package_id, resource_id, node_id);
    }
    Ok(Cow::Owned(named_by_ids))
}

/// What the operation's selector holds at `field` (`selector.packageId`, …), as sent.
fn field_value(op: &Operation, field: &str) -> Option<String> {
    let keys = op.selector()?.keys();
    match field {
        "selector.packageId" => Some(keys.package.to_string()),
        "selector.displayNodeId" => keys.node.map(str::to_string),
        _ => keys.resource.map(|resource| resource.key.to_string()),
    }
}
