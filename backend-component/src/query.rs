//! `queryEntity`: one entity's properties by exact ids, within the query budget.

use ofgui_contracts::api::{EntityTarget, QueriedEntity, QueryEntityData};
use ofgui_contracts::capabilities::QUERY_LIMITS;
use ofgui_contracts::error::{BackendError, QueryFailureReason};
use ofgui_contracts::uam::{ComponentModel, UamResource};
use serde_json::{Map, Value, json};

use crate::budget;
use crate::lookup::suggest::did_you_mean;
use crate::lookup::{
    Lookup, Named, by_id_or_name, exactly_one, find_package_by_key, find_selected_resource,
    valid_id,
};
use crate::session::Session;

/// Resource fields a resource projection may show; bytes, source paths and metadata never.
const RESOURCE_FIELDS: [&str; 13] = [
    "kind",
    "id",
    "name",
    "path",
    "exported",
    "favorite",
    "branch",
    "branchItemIds",
    "fileName",
    "file",
    "dimensions",
    "image",
    "movieClip",
];

/// Answers a query for `target` (untrusted JSON) on the session's committed project,
/// as `QueryEntityData` JSON text within the query budget.
pub fn query_entity(session: &Session, target: &Value) -> Result<String, BackendError> {
    let fail = |reason, message: String| BackendError::query_failed(session.id(), reason, message);
    let target =
        parse_target(target).map_err(|message| fail(QueryFailureReason::InvalidQuery, message))?;
    let properties = project_entity(session, &target).map_err(|lookup| match lookup {
        Missing::NotFound(message) => fail(QueryFailureReason::NotFound, message),
        Missing::Ambiguous(message) => fail(QueryFailureReason::Ambiguous, message),
        Missing::Unencodable => fail(
            QueryFailureReason::NonJsonValue,
            "The entity is not representable as JSON.".into(),
        ),
    })?;
    let data = QueryEntityData {
        session_id: session.id().to_string(),
        revision: session.status().revision,
        entity: QueriedEntity {
            kind: target_kind(&target).to_string(),
            properties,
        },
        target,
    };
    let value = serde_json::to_value(&data).map_err(|_| {
        fail(
            QueryFailureReason::NonJsonValue,
            "The entity is not representable as JSON.".into(),
        )
    })?;
    let over_budget = |exceeded: budget::Exceeded| {
        fail(
            QueryFailureReason::ResponseBudgetExceeded,
            format!(
                "{} Query a smaller entity.",
                exceeded.describe(&QUERY_LIMITS)
            ),
        )
    };
    budget::check_shape(&value, &QUERY_LIMITS).map_err(over_budget)?;
    let text = value.to_string();
    budget::check_bytes(&text, &QUERY_LIMITS).map_err(over_budget)?;
    Ok(text)
}

fn target_kind(target: &EntityTarget) -> &'static str {
    match target {
        EntityTarget::Project {} => "project",
        EntityTarget::Package { .. } => "package",
        EntityTarget::Resource { .. } => "resource",
        EntityTarget::Component { .. } => "component",
        EntityTarget::DisplayNode { .. } => "displayNode",
        EntityTarget::Controller { .. } => "controller",
        EntityTarget::Transition { .. } => "transition",
    }
}

/// The selector keys each target kind requires, exactly.
fn selector_keys(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "project" => &[],
        "package" => &["packageId"],
        "resource" => &["packageId", "resourceId"],
        "component" => &["packageId", "componentResourceId"],
        "displayNode" => &["packageId", "componentResourceId", "displayNodeId"],
        "controller" => &["packageId", "componentResourceId", "controllerName"],
        "transition" => &["packageId", "componentResourceId", "transitionName"],
        _ => return None,
    })
}

/// Checks the target's shape by hand so every refusal says exactly what is wrong.
fn parse_target(target: &Value) -> Result<EntityTarget, String> {
    let Value::Object(object) = target else {
        return Err(
            "target must be an object with `kind` and, except for the project, `selector`.".into(),
        );
    };
    if let Some(extra) = object
        .keys()
        .find(|key| *key != "kind" && *key != "selector")
    {
        return Err(format!(
            "target has an unknown key `{extra}`; only `kind` and `selector` are allowed."
        ));
    }
    let kind = object
        .get("kind")
        .and_then(Value::as_str)
        .ok_or("target.kind must be a string.")?;
    let keys = selector_keys(kind).ok_or_else(|| {
        format!(
            "target.kind `{kind}` is not one of project, package, resource, component, displayNode, controller, transition."
        )
    })?;
    match (kind, object.get("selector")) {
        ("project", None) => return Ok(EntityTarget::Project {}),
        ("project", Some(_)) => return Err("A project target takes no selector.".into()),
        (_, None) => {
            return Err(format!(
                "A {kind} target needs a selector with {}.",
                keys.join(", ")
            ));
        }
        _ => {}
    }
    let Some(Value::Object(selector)) = object.get("selector") else {
        return Err("target.selector must be an object.".into());
    };
    if let Some(extra) = selector.keys().find(|key| !keys.contains(&key.as_str())) {
        return Err(format!(
            "target.selector has an unknown key `{extra}` for a {kind} target."
        ));
    }
    for key in keys {
        match selector.get(*key) {
            Some(Value::String(value)) if valid_id(value) => {}
            Some(Value::String(_)) => {
                return Err(format!(
                    "target.selector.{key} must be 1 to 256 characters long."
                ));
            }
            Some(_) => return Err(format!("target.selector.{key} must be a string.")),
            None => {
                return Err(format!(
                    "target.selector.{key} is required for a {kind} target."
                ));
            }
        }
    }
    let mut tagged = Map::new();
    tagged.insert("kind".into(), Value::String(kind.into()));
    tagged.insert("selector".into(), Value::Object(selector.clone()));
    serde_json::from_value(Value::Object(tagged))
        .map_err(|error| format!("target is malformed: {error}"))
}

enum Missing {
    NotFound(String),
    Ambiguous(String),
    /// The entity does not serialize as a JSON object.
    Unencodable,
}

impl<T> From<Lookup<T>> for Result<T, Missing> {
    fn from(lookup: Lookup<T>) -> Self {
        match lookup {
            Lookup::Found(found) => Ok(found),
            Lookup::NotFound(message) => Err(Missing::NotFound(message)),
            Lookup::Ambiguous(message) => Err(Missing::Ambiguous(message)),
        }
    }
}

fn to_object<T: serde::Serialize>(value: &T) -> Result<Map<String, Value>, Missing> {
    match serde_json::to_value(value) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(Missing::Unencodable),
    }
}

fn find_component<'a>(
    session: &'a Session,
    package_id: &str,
    component_id: &str,
) -> Result<&'a ComponentModel, Missing> {
    // By id, or by the names the outline shows (see `find_selected_resource`).
    let found: Result<(_, &UamResource), Missing> =
        find_selected_resource(session.project(), package_id, component_id).into();
    match found?.1.component() {
        Some(component) => Ok(component),
        None => Err(Missing::NotFound(format!(
            "Resource {component_id} in package {package_id} is not a component."
        ))),
    }
}

fn project_entity(session: &Session, target: &EntityTarget) -> Result<Map<String, Value>, Missing> {
    let project = session.project();
    Ok(match target {
        EntityTarget::Project {} => {
            let mut map = Map::new();
            map.insert("projectId".into(), json!(project.project_id));
            map.insert("settings".into(), Value::Object(project.settings.clone()));
            map
        }
        EntityTarget::Package { selector } => {
            let package = Result::from(find_package_by_key(project, &selector.package_id))?;
            let mut map = Map::new();
            map.insert("id".into(), json!(package.id));
            map.insert("name".into(), json!(package.name));
            map.insert(
                "settings".into(),
                json!({
                    "compressPNG": package.compress_png,
                    "jpegQuality": package.jpeg_quality,
                    "publish": package.publish,
                }),
            );
            map
        }
        EntityTarget::Resource { selector } => {
            let (_, resource) = Result::from(find_selected_resource(
                project,
                &selector.package_id,
                &selector.resource_id,
            ))?;
            let mut full = to_object(resource)?;
            RESOURCE_FIELDS
                .iter()
                .filter_map(|field| full.remove(*field).map(|value| (field.to_string(), value)))
                .collect()
        }
        EntityTarget::Component { selector } => {
            let component = find_component(
                session,
                &selector.package_id,
                &selector.component_resource_id,
            )?;
            let mut map = Map::new();
            map.insert("size".into(), json!(component.size));
            map.insert("properties".into(), json!(component.properties));
            map.insert("customData".into(), json!(component.custom_data));
            map
        }
        EntityTarget::DisplayNode { selector } => {
            let component = find_component(
                session,
                &selector.package_id,
                &selector.component_resource_id,
            )?;
            // By id, else by name.
            let nodes = &component.display_list;
            let wanted = &selector.display_node_id;
            let node = match by_id_or_name(
                nodes,
                wanted,
                |n| n.id(),
                |n| vec![n.name().to_string()],
            ) {
                Named::One(index) => &nodes[index],
                Named::Zero => {
                    return Err(Missing::NotFound(format!(
                        "No display node with id {wanted} in component {} exists.{}",
                        selector.component_resource_id,
                        did_you_mean(wanted, "node", nodes.iter().map(|n| (n.id(), n.name())))
                    )));
                }
                Named::SameId => {
                    return Err(Missing::Ambiguous(format!(
                        "More than one display node with id {wanted} in component {} exists.",
                        selector.component_resource_id
                    )));
                }
                Named::SameName(indexes) => {
                    let ids: Vec<&str> = indexes.iter().map(|&i| nodes[i].id()).collect();
                    return Err(Missing::Ambiguous(format!(
                        "{} display nodes of component {} are named {wanted} (ids {}); name one by its id.",
                        ids.len(),
                        selector.component_resource_id,
                        ids.join(", ")
                    )));
                }
            };
            let mut properties = to_object(node)?;
            // A component instance's `fileName` is the editor's note of its source beside
            // `src`: upstream's display node schema has no such field, so the query leaves
            // it out. The model keeps it (readSessionState shows it) and saves write it back.
            if properties.get("kind") == Some(&json!("component")) {
                properties.remove("fileName");
            }
            // Whether the file wrote `size` / `margin` is ours too (what a save and a
            // publish write); upstream's schema has no such fields.
            properties.remove("explicitSize");
            properties.remove("explicitMargin");
            properties
        }
        EntityTarget::Controller { selector } => {
            let component = find_component(
                session,
                &selector.package_id,
                &selector.component_resource_id,
            )?;
            let controller = Result::from(exactly_one(
                component
                    .controllers
                    .iter()
                    .filter(|c| c.name == selector.controller_name),
                || {
                    format!(
                        "controller named {} in component {}",
                        selector.controller_name, selector.component_resource_id
                    )
                },
            ))?;
            to_object(controller)?
        }
        EntityTarget::Transition { selector } => {
            let component = find_component(
                session,
                &selector.package_id,
                &selector.component_resource_id,
            )?;
            let transition = Result::from(exactly_one(
                component
                    .transitions
                    .iter()
                    .filter(|t| t.name == selector.transition_name),
                || {
                    format!(
                        "transition named {} in component {}",
                        selector.transition_name, selector.component_resource_id
                    )
                },
            ))?;
            to_object(transition)?
        }
    })
}

#[cfg(test)]
mod tests {
    use super::parse_target;
    use serde_json::json;

    #[test]
    fn malformed_targets_are_refused_with_a_reason() {
        let bad = [
            json!([]),
            json!({"kind": "project", "selector": {}}),
            json!({"kind": "package", "selector": {}}),
            json!({"kind": "resource", "selector": {"packageId": "p"}}),
            json!({"kind": "package", "selector": {"packageId": "p", "extra": "x"}}),
            json!({"kind": "package", "selector": {"packageId": ""}}),
            json!({"kind": "package", "selector": {"packageId": "x".repeat(257)}}),
            json!({"kind": "package", "selector": {"packageId": 7}}),
            json!({"kind": "package", "selector": {"packageId": "p"}, "other": 1}),
            json!({"kind": "widget"}),
            json!({"selector": {"packageId": "p"}}),
        ];
        for target in bad {
            assert!(parse_target(&target).is_err(), "accepted {target}");
        }
    }

    #[test]
    fn well_formed_targets_parse() {
        assert!(parse_target(&json!({"kind": "project"})).is_ok());
        assert!(parse_target(&json!({"kind": "package", "selector": {"packageId": "p"}})).is_ok());
        assert!(
            parse_target(&json!({"kind": "package", "selector": {"packageId": "x".repeat(256)}}))
                .is_ok()
        );
        assert!(
            parse_target(&json!({"kind": "displayNode", "selector": {"packageId": "p", "componentResourceId": "c", "displayNodeId": "n"}}))
                .is_ok()
        );
    }
}
