//! `ofgui-mcp-host query <project> <target>`: one entity's properties.
//!
//! Targets are written `kind:<package>/<component>/<name>` (see [`Target::parse`]), or as
//! the MCP target JSON; [`spell`] writes a target back the same way, so what `apply`
//! prints can be queried.

use ofgui_contracts::methods::MethodId;
use std::fmt::Write as _;
use std::path::Path;

use ofgui_contracts::api::{
    ComponentSelector, ControllerSelector, DisplayNodeSelector, EntityTarget, PackageSelector,
    QueryEntityData, ResourceSelector, TransitionSelector,
};
use ofgui_contracts::cli::ExitStatus;
use ofgui_contracts::error::{BackendError, QueryFailureReason};
use serde_json::{Value, json};

use super::names::{Ambiguous, Located};
use super::{Done, Project};
use crate::cli::args::Args;

pub(super) async fn run(args: &Args, path: &Path, target: &str) -> Result<Done, BackendError> {
    let target = Target::parse(target)?;
    Project::reading(args, path, async |project| {
        let target = target.resolve(project).await?;
        let data: QueryEntityData = project
            .call(
                MethodId::QueryEntity,
                json!({ "sessionId": project.session_id(), "target": target }),
            )
            .await?;
        Done::new(&data, text(&data), ExitStatus::Success)
    })
    .await
}

/// A target as written on the command line: each segment an id or a name.
#[derive(Clone, Debug, PartialEq)]
enum Target {
    Project,
    Package(String),
    Resource(String, String),
    Component(String, String),
    Node(String, String, String),
    Controller(String, String, String),
    Transition(String, String, String),
    /// The MCP target, passed on exactly as written.
    Json(Value),
}

const SYNTAX: &str = "project, package:<package>, resource:<package>/<resource>, component:<package>/<component>, node:<package>/<component>/<node>, controller:<package>/<component>/<controller>, transition:<package>/<component>/<transition>, or the MCP target as JSON";

impl Target {
    fn parse(text: &str) -> Result<Target, BackendError> {
        let invalid = |why: String| {
            BackendError::invalid_input(
                format!("{why}; a target is one of: {SYNTAX}."),
                Some("/target".into()),
            )
        };
        if text.trim_start().starts_with('{') {
            return serde_json::from_str(text)
                .map(Target::Json)
                .map_err(|error| invalid(format!("the target is not JSON ({error})")));
        }
        if text == "project" {
            return Ok(Target::Project);
        }
        let Some((kind, rest)) = text.split_once(':') else {
            return Err(invalid(format!("{text:?} has no kind")));
        };
        let segments: Vec<String> = rest.split('/').map(str::to_string).collect();
        if segments.iter().any(String::is_empty) {
            return Err(invalid(format!("{text:?} has an empty id or name")));
        }
        let expected = match kind {
            "package" => 1,
            "resource" | "component" => 2,
            "node" | "displayNode" | "controller" | "transition" => 3,
            _ => return Err(invalid(format!("{kind:?} is not a target kind"))),
        };
        if segments.len() != expected {
            return Err(invalid(format!(
                "{kind} takes {expected} part{} separated by /, {text:?} has {}",
                if expected == 1 { "" } else { "s" },
                segments.len()
            )));
        }
        let part = |index: usize| segments.get(index).cloned().unwrap_or_default();
        let (a, b, c) = (part(0), part(1), part(2));
        Ok(match kind {
            "package" => Target::Package(a),
            "resource" => Target::Resource(a, b),
            "component" => Target::Component(a, b),
            "controller" => Target::Controller(a, b, c),
            "transition" => Target::Transition(a, b, c),
            _ => Target::Node(a, b, c),
        })
    }

    /// The exact target, as queryEntity takes it: names looked up in the outline, ids kept.
    async fn resolve(self, project: &Project) -> Result<Value, BackendError> {
        let ambiguous = |ambiguous: Ambiguous, what: &str| {
            BackendError::query_failed(
                project.session_id(),
                QueryFailureReason::Ambiguous,
                ambiguous.message(what),
            )
        };
        let (package, resource, component_only, node) = match &self {
            Target::Project => return Ok(json!({ "kind": "project" })),
            // The backend checks the target itself (`invalid_query`), as for MCP.
            Target::Json(value) => return Ok(value.clone()),
            Target::Package(package) => (package, None, false, None),
            Target::Resource(package, resource) => (package, Some(resource), false, None),
            Target::Component(package, component)
            | Target::Controller(package, component, _)
            | Target::Transition(package, component, _) => (package, Some(component), true, None),
            Target::Node(package, component, node) => (package, Some(component), true, Some(node)),
        };
        let located = Located::look_up(
            project,
            package,
            resource.map(String::as_str),
            component_only,
            ambiguous,
        )
        .await?;
        let node_id = match node {
            Some(node) => Some(
                located
                    .node_id(node)
                    .map_err(|a| ambiguous(a, "display node"))?,
            ),
            None => None,
        };
        let Located {
            package_id,
            resource_id,
            ..
        } = located;
        let resource_id = resource_id.unwrap_or_default();
        let target = match self {
            Target::Package(_) => EntityTarget::Package {
                selector: PackageSelector { package_id },
            },
            Target::Resource(..) => EntityTarget::Resource {
                selector: ResourceSelector {
                    package_id,
                    resource_id,
                },
            },
            Target::Component(..) => EntityTarget::Component {
                selector: ComponentSelector {
                    package_id,
                    component_resource_id: resource_id,
                },
            },
            Target::Node(..) => EntityTarget::DisplayNode {
                selector: DisplayNodeSelector {
                    package_id,
                    component_resource_id: resource_id,
                    display_node_id: node_id.unwrap_or_default(),
                },
            },
            Target::Controller(_, _, controller_name) => EntityTarget::Controller {
                selector: ControllerSelector {
                    package_id,
                    component_resource_id: resource_id,
                    controller_name,
                },
            },
            Target::Transition(_, _, transition_name) => EntityTarget::Transition {
                selector: TransitionSelector {
                    package_id,
                    component_resource_id: resource_id,
                    transition_name,
                },
            },
            Target::Project | Target::Json(_) => unreachable!("answered above"),
        };
        serde_json::to_value(&target).map_err(|error| super::internal(&error))
    }
}

/// A target as the command line writes it, by exact ids.
pub(super) fn spell(target: &EntityTarget) -> String {
    match target {
        EntityTarget::Project {} => "project".into(),
        EntityTarget::Package { selector } => format!("package:{}", selector.package_id),
        EntityTarget::Resource { selector } => {
            format!("resource:{}/{}", selector.package_id, selector.resource_id)
        }
        EntityTarget::Component { selector } => format!(
            "component:{}/{}",
            selector.package_id, selector.component_resource_id
        ),
        EntityTarget::DisplayNode { selector } => format!(
            "node:{}/{}/{}",
            selector.package_id, selector.component_resource_id, selector.display_node_id
        ),
        EntityTarget::Controller { selector } => format!(
            "controller:{}/{}/{}",
            selector.package_id, selector.component_resource_id, selector.controller_name
        ),
        EntityTarget::Transition { selector } => format!(
            "transition:{}/{}/{}",
            selector.package_id, selector.component_resource_id, selector.transition_name
        ),
    }
}

/// The entity for people: its target, then each property on a line, its value as JSON;
/// an object or array too long for a line has its entries on lines of their own.
fn text(data: &QueryEntityData) -> String {
    let mut text = format!(
        "{} ({}, revision {})\n",
        spell(&data.target),
        data.entity.kind,
        data.revision
    );
    for (key, value) in &data.entity.properties {
        tree(&mut text, 1, key, value);
    }
    text
}

/// Longest value printed on its key's line.
const LINE: usize = 100;

fn tree(text: &mut String, depth: usize, key: &str, value: &Value) {
    let pad = "  ".repeat(depth);
    let line = value.to_string();
    match value {
        Value::Object(entries) if line.len() > LINE => {
            let _ = writeln!(text, "{pad}{key}:");
            for (key, value) in entries {
                tree(text, depth + 1, key, value);
            }
        }
        Value::Array(items) if line.len() > LINE => {
            let _ = writeln!(text, "{pad}{key}:");
            for (index, value) in items.iter().enumerate() {
                tree(text, depth + 1, &format!("[{index}]"), value);
            }
        }
        _ => {
            let _ = writeln!(text, "{pad}{key}: {line}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_parse_by_kind_and_parts() {
        assert_eq!(Target::parse("project").unwrap(), Target::Project);
        assert_eq!(
            Target::parse("node:Basics/Main/n3").unwrap(),
            Target::Node("Basics".into(), "Main".into(), "n3".into())
        );
        assert_eq!(
            Target::parse("resource:p/r").unwrap(),
            Target::Resource("p".into(), "r".into())
        );
        for bad in [
            "",
            "Basics",
            "node:a/b",
            "package:a/b",
            "bogus:x",
            "component:a/",
            "{",
        ] {
            let error = Target::parse(bad).unwrap_err();
            assert_eq!(error.code().as_str(), "invalid_input", "{bad}");
        }
    }

    #[test]
    fn a_spelled_target_parses_back() {
        let target = EntityTarget::DisplayNode {
            selector: DisplayNodeSelector {
                package_id: "p".into(),
                component_resource_id: "c".into(),
                display_node_id: "n".into(),
            },
        };
        assert_eq!(
            Target::parse(&spell(&target)).unwrap(),
            Target::Node("p".into(), "c".into(), "n".into())
        );
    }
}
