//! Cycles: a component that instantiates itself (directly or through other components)
//! and a group that belongs to itself (directly or through other groups). The FairyGUI
//! editor and runtimes recurse into both forever, so both are `invalid_uam` errors. What
//! counts as instantiating is [`crate::lookup::cycles`]'s to decide, for transactions too.

use ofgui_contracts::diagnostics::ProjectDiagnosticCode as Code;
use ofgui_contracts::uam::{UamProject, UamResource};

use super::{Components, Sink, Subject, in_scope, node_path, resource_path};
use crate::lookup::cycles::{containment_cycles, group_cycles};

pub(super) fn check(project: &UamProject, only: Option<&Components>, sink: &mut Sink) {
    for edge in containment_cycles(project) {
        let (p, r) = edge.from;
        let (package, resource) = (&project.packages[p], &project.packages[p].resources[r]);
        if !in_scope(only, &package.id, resource.id()) {
            continue;
        }
        let (tp, tr) = edge.to;
        let (target_package, target) = (&project.packages[tp], &project.packages[tp].resources[tr]);
        let holder = match &edge.node_id {
            Some(node) => format!("node {node} ({})", edge.field),
            None => edge.field.clone(),
        };
        let message = if edge.from == edge.to {
            format!(
                "Component {} instantiates itself through {holder}; the FairyGUI editor and runtime would build it forever.",
                resource.name()
            )
        } else {
            format!(
                "Component {} instantiates component {} (resource {} of package {}) through {holder}, which instantiates {} again through other components; the FairyGUI editor and runtime would build them forever.",
                resource.name(),
                target.name(),
                target.id(),
                target_package.id,
                resource.name()
            )
        };
        let finding = sink.error(
            Code::InvalidUam,
            format!("{}.component.{}", resource_path(p, r), edge.field),
            message,
        );
        finding.package_id = Some(package.id.clone());
        finding.resource_id = Some(resource.id().to_string());
        finding.node_id = edge.node_id.clone();
        finding.source_path = resource.source_path().map(str::to_string);
        finding.about(Subject::Instance(
            target_package.id.clone(),
            target.id().to_string(),
        ));
    }
    for (p, package) in project.packages.iter().enumerate() {
        for (r, resource) in package.resources.iter().enumerate() {
            let UamResource::Component(component) = resource.as_ref() else {
                continue;
            };
            if !in_scope(only, &package.id, &component.id) {
                continue;
            }
            let model = &component.component;
            for n in group_cycles(model) {
                let node = &model.display_list[n];
                let group = node.base().group.clone().unwrap_or_default();
                let finding = sink.error(
                    Code::InvalidUam,
                    format!("{}.group", node_path(p, r, n)),
                    format!(
                        "Group {} belongs to group {group}, which belongs to group {} again (directly or through other groups); the FairyGUI editor and runtime would walk these groups forever.",
                        node.id(),
                        node.id()
                    ),
                );
                finding.package_id = Some(package.id.clone());
                finding.resource_id = Some(component.id.clone());
                finding.node_id = Some(node.id().to_string());
                finding.source_path = component.source_path.clone();
                finding.about(Subject::Node(group));
            }
        }
    }
}
