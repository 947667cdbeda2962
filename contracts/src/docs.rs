//! Documentation views of the contract: one method's wire schema, one operation's schema,
//! one command line output's schema, the operation catalog, the diagnostic catalog and one
//! diagnostic guide.
//!
//! Schemas and catalogs are derived from the generated snapshot ([`crate::CONTRACT_JSON`])
//! or the catalog tables, so the documents an agent reads are the schemas the server
//! enforces; a diagnostic guide adds the prose of [`crate::guides`].

use serde_json::{Map, Value, json};

use crate::catalog::{self, GUIDES, Guide};
use crate::envelope::{CAPABILITY_SCHEMA_VERSION, CONTRACT_VERSION};
use crate::guides;
use crate::methods::METHODS;
use crate::ops::OPERATION_KINDS;

/// The URI of one method's wire schema.
pub fn method_uri(method: &str) -> String {
    format!("openfairygui://docs/methods/{method}")
}

/// The URI of one operation kind's schema.
pub fn operation_uri(kind: &str) -> String {
    format!("openfairygui://contracts/operations/{kind}")
}

/// The method's tool entry of the snapshot, with its input and output schemas and
/// their field documentation.
pub fn method_doc(snapshot: &Value, method: &str) -> Option<Value> {
    let tool = tools(snapshot).find(|tool| tool["backendMethod"] == method)?;
    let mut doc = tool.clone();
    if let Some(fields) = doc.as_object_mut() {
        fields.insert("docsUri".into(), json!(method_uri(method)));
        fields.insert("contractDigest".into(), snapshot["digest"].clone());
    }
    Some(doc)
}

/// The schema of one command's `--json` output (`openfairygui://docs/cli/{command}`).
pub fn cli_doc(snapshot: &Value, command: &str) -> Option<Value> {
    crate::cli::by_name(command)?;
    snapshot["cli"].get(command).cloned()
}

/// One operation kind as a self-contained JSON Schema: the kind's branch of the
/// `operations` union with only the definitions it reaches.
pub fn operation_schema(snapshot: &Value, kind: &str) -> Option<Value> {
    let input =
        &tools(snapshot).find(|tool| tool["backendMethod"] == "applyTransaction")?["inputSchema"];
    let definitions = input["definitions"].as_object()?;
    let branch = definitions
        .get("Operation")?
        .get("oneOf")?
        .as_array()?
        .iter()
        .find(|branch| branch.pointer("/properties/kind/const") == Some(&json!(kind)))?;

    let mut reached = Map::new();
    let mut pending = vec![branch];
    while let Some(schema) = pending.pop() {
        let mut names = Vec::new();
        references(schema, &mut names);
        for name in names {
            if reached.contains_key(&name) {
                continue;
            }
            if let Some(definition) = definitions.get(&name) {
                reached.insert(name, definition.clone());
                pending.push(definition);
            }
        }
    }

    let mut schema = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": operation_uri(kind),
        "title": kind,
    });
    if let (Some(out), Some(fields)) = (schema.as_object_mut(), branch.as_object()) {
        out.extend(
            fields
                .iter()
                .map(|(key, value)| (key.clone(), value.clone())),
        );
        if !reached.is_empty() {
            out.insert("definitions".into(), Value::Object(reached));
        }
    }
    Some(schema)
}

/// Collects the names of `#/definitions/<name>` references anywhere in a schema.
fn references(schema: &Value, names: &mut Vec<String>) {
    match schema {
        Value::Object(fields) => {
            for (key, value) in fields {
                match (key.as_str(), value.as_str()) {
                    ("$ref", Some(target)) => {
                        if let Some(name) = target.strip_prefix("#/definitions/") {
                            names.push(name.to_string());
                        }
                    }
                    _ => references(value, names),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| references(item, names)),
        _ => {}
    }
}

/// The 41 operation kinds with what each does and where its schema is.
pub fn operation_catalog(snapshot: &Value) -> Value {
    let operations: Vec<Value> = OPERATION_KINDS
        .iter()
        .map(|kind| {
            let description = operation_schema(snapshot, kind)
                .and_then(|schema| schema.get("description").cloned())
                .unwrap_or(Value::Null);
            json!({ "kind": kind, "description": description, "schemaUri": operation_uri(kind) })
        })
        .collect();
    json!({
        "digest": snapshot["digest"],
        "schemaVersion": snapshot["schemaVersion"],
        "contractVersion": CONTRACT_VERSION,
        "capabilitySchemaVersion": CAPABILITY_SCHEMA_VERSION,
        "operations": operations,
    })
}

/// The method catalog: each served method, its tool and where its schema is.
pub fn method_catalog(snapshot: &Value) -> Value {
    let methods: Vec<Value> = METHODS
        .iter()
        .map(|method| {
            json!({
                "method": method.name,
                "tool": method.tool,
                "title": method.title,
                "readOnly": method.read_only,
                "docsUri": method_uri(method.name),
            })
        })
        .collect();
    json!({
        "digest": snapshot["digest"],
        "contractVersion": CONTRACT_VERSION,
        "methods": methods,
        "operationCatalogUri": "openfairygui://contracts/operations",
    })
}

/// One code's catalog entry: who owns it and the one-line remediation; for a code
/// validation reports with other advice (a defect already in the project), that advice as
/// `findingRemediation`.
fn diagnostic_entry(guide: &Guide) -> Value {
    let mut entry = json!({
        "code": guide.code,
        "owners": guide.owners,
        "remediation": { "kind": guide.remediation, "message": guide.message },
        "docsUri": catalog::docs_uri(guide.code),
    });
    if let Some((kind, message)) =
        catalog::DiagnosticCode::parse(guide.code).and_then(|code| code.finding_remediation())
    {
        entry["findingRemediation"] = json!({ "kind": kind, "message": message });
    }
    entry
}

/// One diagnostic code's guide: its catalog entry plus what it means for a FairyGUI
/// project, how to confirm it and how to fix it.
pub fn diagnostic_doc(code: &str) -> Option<Value> {
    let guide = catalog::guide(code)?;
    let text = guides::for_code(code)?;
    let mut doc = diagnostic_entry(guide);
    if let Some(fields) = doc.as_object_mut() {
        fields.insert("meaning".into(), json!(text.meaning));
        fields.insert("confirm".into(), json!(text.confirm));
        fields.insert("fix".into(), json!(text.fix));
    }
    Some(doc)
}

/// Every diagnostic code's catalog entry, in catalog order. The long texts stay in each
/// code's own document, so the catalog remains a small index an agent can read whole.
pub fn diagnostic_catalog() -> Value {
    Value::Array(GUIDES.iter().map(diagnostic_entry).collect())
}

fn tools(snapshot: &Value) -> impl Iterator<Item = &Value> {
    snapshot["tools"].as_array().into_iter().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot() -> Value {
        serde_json::from_str(crate::CONTRACT_JSON).unwrap()
    }

    #[test]
    fn every_operation_kind_has_a_self_contained_schema() {
        let snapshot = snapshot();
        for kind in OPERATION_KINDS {
            let schema = operation_schema(&snapshot, kind).unwrap();
            assert_eq!(schema["properties"]["kind"]["const"], kind);
            let mut names = Vec::new();
            references(&schema, &mut names);
            for name in names {
                assert!(
                    schema["definitions"].get(&name).is_some(),
                    "{kind} refers to {name}, which its schema does not define"
                );
            }
        }
        assert!(operation_schema(&snapshot, "noSuchKind").is_none());
    }

    #[test]
    fn a_schema_carries_only_the_definitions_it_reaches() {
        let schema = operation_schema(&snapshot(), "removeTransition").unwrap();
        let defined: Vec<&String> = schema["definitions"].as_object().unwrap().keys().collect();
        assert_eq!(defined, ["TransitionSelector"]);
    }

    #[test]
    fn method_docs_exist_for_served_methods_only() {
        let snapshot = snapshot();
        for method in METHODS {
            let doc = method_doc(&snapshot, method.name).unwrap();
            assert_eq!(doc["name"], method.tool);
            assert!(doc["inputSchema"].is_object() && doc["outputSchema"].is_object());
        }
        assert!(method_doc(&snapshot, "hostPublish").is_none());
    }

    #[test]
    fn every_command_has_its_output_schema() {
        let snapshot = snapshot();
        for command in crate::cli::COMMANDS {
            let doc = cli_doc(&snapshot, command.name).unwrap();
            assert_eq!(doc["$id"], command.docs_uri());
            assert_eq!(
                doc["exitCodes"].as_array().unwrap().len(),
                command.exits.len()
            );
            assert_eq!(
                doc.pointer("/oneOf/0/properties/command/const"),
                Some(&json!(command.name))
            );
        }
        assert!(cli_doc(&snapshot, "serve").is_none());
        assert!(cli_doc(&snapshot, "__proto__").is_none());
    }

    #[test]
    fn catalogs_are_complete() {
        let snapshot = snapshot();
        let operations = operation_catalog(&snapshot);
        assert_eq!(operations["operations"].as_array().unwrap().len(), 41);
        assert!(
            operations["operations"]
                .as_array()
                .unwrap()
                .iter()
                .all(|op| op["description"].is_string())
        );
        assert_eq!(diagnostic_catalog().as_array().unwrap().len(), GUIDES.len());
        assert!(diagnostic_doc("stale_write").is_some());
        let shared = diagnostic_doc("duplicate_resource_id").unwrap();
        assert_eq!(shared["remediation"]["kind"], "revise-operation");
        assert_eq!(shared["findingRemediation"]["kind"], "host-action");
        assert!(
            diagnostic_doc("stale_write")
                .unwrap()
                .get("findingRemediation")
                .is_none()
        );
        assert!(diagnostic_doc("../etc").is_none());
    }

    #[test]
    fn a_diagnostic_doc_is_its_catalog_entry_plus_the_guide() {
        let entries = diagnostic_catalog();
        for (guide, entry) in GUIDES.iter().zip(entries.as_array().unwrap()) {
            let doc = diagnostic_doc(guide.code).unwrap();
            let fields = doc.as_object().unwrap();
            let keys: Vec<&str> = fields
                .keys()
                .map(String::as_str)
                .filter(|key| *key != "findingRemediation")
                .collect();
            assert_eq!(
                keys,
                [
                    "code",
                    "owners",
                    "remediation",
                    "docsUri",
                    "meaning",
                    "confirm",
                    "fix"
                ],
                "{}",
                guide.code
            );
            // The catalog entry's fields are served unchanged.
            for (key, value) in entry.as_object().unwrap() {
                assert_eq!(&fields[key], value, "{} {key}", guide.code);
            }
            for key in ["meaning", "confirm", "fix"] {
                assert!(!doc[key].as_str().unwrap().trim().is_empty());
            }
        }
        // The catalog stays an index: no long texts.
        assert!(entries[0].get("meaning").is_none());
    }
}
