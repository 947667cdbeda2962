//! Rewrites generated schemas into the subset every MCP client accepts, meaning the same:
//! no bare `true` subschemas and no subschema without a validation keyword (`{}`: strict
//! linters such as the MCP Inspector's flag both; an `anyOf` of every JSON type says
//! "any value" explicitly instead), no `type` arrays (`anyOf` instead: single-type
//! dialects such as Gemini's reject arrays), no `format` outside JSON Schema's own list
//! (schemars' `uint64` and the like make validators warn on every call), and `type:
//! object` beside each `$ref` to an object (older clients otherwise send such a
//! property as a string).

use serde_json::{Map, Value, json};

/// The formats draft-07 defines; any other is dropped (ranges stay as `minimum`/`maximum`).
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// Keywords that only annotate: a schema holding nothing else accepts any value.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// A schema that accepts every JSON value and says so.
fn any_value() -> Value {
    json!({ "anyOf": [
        { "type": "object" }, { "type": "array" }, { "type": "string" },
        { "type": "number" }, { "type": "boolean" }, { "type": "null" }
    ] })
}

/// True for `true` and for an object with no validation keyword.
fn accepts_anything_silently(schema: &Value) -> bool {
    match schema {
        Value::Bool(true) => true,
        Value::Object(map) => map.keys().all(|key| ANNOTATIONS.contains(&key.as_str())),
        _ => false,
    }
}

/// Keywords whose value is one subschema.
const SUBSCHEMA: &[&str] = &[
    "items",
    "additionalItems",
    "contains",
    "not",
    "if",
    "then",
    "else",
];
/// Keywords whose value is a list of subschemas.
const SUBSCHEMA_LISTS: &[&str] = &["anyOf", "oneOf", "allOf"];
/// Keywords whose value maps names to subschemas.
const SUBSCHEMA_MAPS: &[&str] = &["properties", "definitions", "patternProperties"];

/// Makes `schema` (a root with local `definitions`) portable, in place.
pub fn portable(schema: &mut Value) {
    let objects = object_definitions(schema);
    rewrite(schema, &objects);
}

/// The names of definitions that describe objects.
fn object_definitions(schema: &Value) -> Vec<String> {
    schema
        .get("definitions")
        .and_then(Value::as_object)
        .map(|definitions| {
            definitions
                .iter()
                .filter(|(_, definition)| definition.get("type") == Some(&json!("object")))
                .map(|(name, _)| name.clone())
                .collect()
        })
        .unwrap_or_default()
}

fn rewrite(schema: &mut Value, objects: &[String]) {
    if accepts_anything_silently(schema) {
        let mut explicit = any_value();
        if let (Value::Object(annotations), Value::Object(target)) = (&*schema, &mut explicit) {
            target.extend(annotations.clone());
        }
        *schema = explicit;
        return;
    }
    let Value::Object(map) = schema else {
        return;
    };
    for keyword in SUBSCHEMA {
        if let Some(sub) = map.get_mut(*keyword) {
            rewrite(sub, objects);
        }
    }
    for keyword in SUBSCHEMA_LISTS {
        if let Some(Value::Array(list)) = map.get_mut(*keyword) {
            list.iter_mut().for_each(|sub| rewrite(sub, objects));
        }
    }
    for keyword in SUBSCHEMA_MAPS {
        if let Some(Value::Object(subs)) = map.get_mut(*keyword) {
            subs.values_mut().for_each(|sub| rewrite(sub, objects));
        }
    }
    if let Some(sub @ Value::Object(_)) = map.get_mut("additionalProperties") {
        rewrite(sub, objects);
    }
    if let Some(Value::String(format)) = map.get("format")
        && !STANDARD_FORMATS.contains(&format.as_str())
    {
        map.remove("format");
    }
    if let Some(Value::String(reference)) = map.get("$ref")
        && let Some(name) = reference.strip_prefix("#/definitions/")
        && objects.iter().any(|object| object == name)
    {
        map.insert("type".into(), json!("object"));
    }
    if let Some(Value::Array(types)) = map.get("type").cloned() {
        split_types(map, &types);
    }
}

/// `{type: [A, B], …}` → `{anyOf: [{type: A, …}, {type: B}]}`, the keywords of the
/// schema staying with each non-null type (they only constrain values of their type)
/// and annotations moving to the outside.
fn split_types(map: &mut Map<String, Value>, types: &[Value]) {
    map.remove("type");
    let mut outer = Map::new();
    for annotation in ["title", "description", "default", "examples"] {
        if let Some(value) = map.remove(annotation) {
            outer.insert(annotation.into(), value);
        }
    }
    let nullable_enum = map
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|values| values.contains(&Value::Null));
    let branches: Vec<Value> = types
        .iter()
        .map(|kind| {
            if *kind == json!("null") {
                return json!({ "type": "null" });
            }
            let mut branch = map.clone();
            branch.insert("type".into(), kind.clone());
            if nullable_enum && let Some(Value::Array(values)) = branch.get_mut("enum") {
                values.retain(|value| !value.is_null());
            }
            Value::Object(branch)
        })
        .collect();
    map.clear();
    map.extend(outer);
    map.insert("anyOf".into(), Value::Array(branches));
}

/// What a portable schema must not contain, as messages (empty when portable).
pub fn problems(schema: &Value) -> Vec<String> {
    let mut found = Vec::new();
    let objects = object_definitions(schema);
    check(schema, "#", &objects, &mut found);
    found
}

fn check(schema: &Value, at: &str, objects: &[String], found: &mut Vec<String>) {
    if accepts_anything_silently(schema) {
        found.push(format!(
            "{at}: accepts any value without a validation keyword"
        ));
        return;
    }
    let Value::Object(map) = schema else {
        return;
    };
    if let Some(Value::Array(_)) = map.get("type") {
        found.push(format!("{at}: type array"));
    }
    if let Some(Value::String(format)) = map.get("format")
        && !STANDARD_FORMATS.contains(&format.as_str())
    {
        found.push(format!("{at}: format {format}"));
    }
    if let Some(Value::String(reference)) = map.get("$ref")
        && let Some(name) = reference.strip_prefix("#/definitions/")
        && objects.iter().any(|object| object == name)
        && map.get("type") != Some(&json!("object"))
    {
        found.push(format!("{at}: $ref to an object without type object"));
    }
    for keyword in SUBSCHEMA {
        if let Some(sub) = map.get(*keyword) {
            check(sub, &format!("{at}/{keyword}"), objects, found);
        }
    }
    for keyword in SUBSCHEMA_LISTS {
        if let Some(Value::Array(list)) = map.get(*keyword) {
            for (index, sub) in list.iter().enumerate() {
                check(sub, &format!("{at}/{keyword}/{index}"), objects, found);
            }
        }
    }
    for keyword in SUBSCHEMA_MAPS {
        if let Some(Value::Object(subs)) = map.get(*keyword) {
            for (name, sub) in subs {
                check(sub, &format!("{at}/{keyword}/{name}"), objects, found);
            }
        }
    }
    if let Some(sub @ Value::Object(_)) = map.get("additionalProperties") {
        check(sub, &format!("{at}/additionalProperties"), objects, found);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_rewrites_to_the_same_meaning() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "any": true,
                "anything": { "description": "a value" },
                "count": { "type": ["integer", "null"], "format": "uint64", "minimum": 0, "description": "d" },
                "kind": { "type": ["string", "null"], "enum": ["a", null] },
                "when": { "type": "string", "format": "date-time" },
                "child": { "$ref": "#/definitions/Child" },
                "name": { "$ref": "#/definitions/Name" }
            },
            "definitions": {
                "Child": { "type": "object", "properties": { "items": { "type": "array", "items": true } } },
                "Name": { "type": "string" }
            }
        });
        assert!(!problems(&schema).is_empty());
        portable(&mut schema);
        assert_eq!(problems(&schema), Vec::<String>::new());
        let properties = &schema["properties"];
        assert_eq!(properties["any"], any_value());
        let mut described = any_value();
        described["description"] = json!("a value");
        assert_eq!(properties["anything"], described);
        assert_eq!(
            properties["count"],
            json!({ "description": "d", "anyOf": [{ "type": "integer", "minimum": 0 }, { "type": "null" }] })
        );
        assert_eq!(
            properties["kind"],
            json!({ "anyOf": [{ "type": "string", "enum": ["a"] }, { "type": "null" }] })
        );
        assert_eq!(properties["when"]["format"], "date-time");
        assert_eq!(properties["child"]["type"], "object");
        assert!(properties["name"].get("type").is_none());
        assert_eq!(
            schema["definitions"]["Child"]["properties"]["items"]["items"],
            any_value()
        );
    }
}
