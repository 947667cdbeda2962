//! Generates the JSON Schemas and the contract snapshot from the Rust types.
//!
//! The snapshot is committed as `contracts/generated/contract.json`; the host embeds it to
//! advertise tools, and a test regenerates it to catch drift. Each tool's schemas are
//! self-contained (draft-07, local `definitions`), so clients need no network and no
//! shared `$defs`, and no schema uses positional `items` (some clients drop such tools).

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::api::{
    CacheSnapshot, CloseSessionData, EventsData, EventsInput, ExportStringsInput, HistoryInput,
    HistoryStepData, HistoryStepInput, MaterializeSessionData, MaterializeSessionInput, NoInput,
    OpenProjectSessionInput, OpenSessionInput, OutlineInput, ProjectOutline, PublishProjectData,
    PublishProjectInput, QueryEntityData, QueryEntityInput, ReadResourceBytesInput,
    ReadSessionStateInput, RefreshCacheInput, RefreshSessionInput, RenderComponentData,
    RenderComponentInput, ResourceBytesData, ReviewInput, SaveOrMaterialize, SaveSessionInput,
    SearchProjectData, SearchProjectInput, SessionHistory, SessionInput, SessionReview,
    SessionSnapshot, SessionStateData, StringsCheck, StringsExport, StringsSweep, TransactionInput,
    TransactionPreview, TranslationInput, ValidateSessionInput, ValidationReport,
};
use crate::capabilities::Capabilities;
use crate::catalog::GUIDES;
use crate::cli::{
    ApplyData, COMMANDS, CliCommand, CliFailure, CliSuccess, DocumentData, StringsData,
};
use crate::envelope::{CAPABILITY_SCHEMA_VERSION, CONTRACT_VERSION, Failure, Success};
use crate::error::BackendError;
use crate::methods::{MCP_FAILURES, METHODS, Method, MethodId as Id};

/// Version of the snapshot layout itself.
pub const SNAPSHOT_SCHEMA_VERSION: u32 = 1;

fn generator() -> SchemaGenerator {
    SchemaSettings::draft07().into_generator()
}

fn finish(mut generator: SchemaGenerator, schema: Schema) -> Value {
    let mut value = schema.to_value();
    let definitions = generator.take_definitions(true);
    if let Value::Object(object) = &mut value {
        object.remove("$schema");
        if !definitions.is_empty() {
            object.insert("definitions".into(), Value::Object(definitions));
        }
    }
    value
}

/// The input schema of a method.
pub fn input_schema(method: &Method) -> Value {
    let mut generator = generator();
    let schema = match method.id {
        Id::GetCapabilities => NoInput::json_schema(&mut generator),
        Id::OpenSession => OpenSessionInput::json_schema(&mut generator),
        Id::OpenProjectSession => OpenProjectSessionInput::json_schema(&mut generator),
        Id::GetSession | Id::CloseSession | Id::GetCacheSnapshot => {
            SessionInput::json_schema(&mut generator)
        }
        Id::ValidateSession => ValidateSessionInput::json_schema(&mut generator),
        Id::RefreshCache => RefreshCacheInput::json_schema(&mut generator),
        Id::GetProjectOutline => OutlineInput::json_schema(&mut generator),
        Id::SearchProject => SearchProjectInput::json_schema(&mut generator),
        Id::QueryEntity => QueryEntityInput::json_schema(&mut generator),
        Id::ReadSessionState => ReadSessionStateInput::json_schema(&mut generator),
        Id::ReadResourceBytes => ReadResourceBytesInput::json_schema(&mut generator),
        Id::RenderComponent => RenderComponentInput::json_schema(&mut generator),
        Id::PreflightTransaction | Id::ApplyTransaction => {
            TransactionInput::json_schema(&mut generator)
        }
        Id::GetEvents => EventsInput::json_schema(&mut generator),
        Id::SaveSession => SaveSessionInput::json_schema(&mut generator),
        Id::MaterializeSession => MaterializeSessionInput::json_schema(&mut generator),
        Id::Publish => PublishProjectInput::json_schema(&mut generator),
        Id::Undo | Id::Redo => HistoryStepInput::json_schema(&mut generator),
        Id::GetHistory => HistoryInput::json_schema(&mut generator),
        Id::Review => ReviewInput::json_schema(&mut generator),
        Id::ExportStrings => ExportStringsInput::json_schema(&mut generator),
        Id::CheckStrings | Id::SweepStrings => TranslationInput::json_schema(&mut generator),
        Id::RefreshSession => RefreshSessionInput::json_schema(&mut generator),
    };
    let mut value = finish(generator, schema);
    if let Value::Object(object) = &mut value {
        object.remove("title");
        object.remove("description");
    }
    crate::portable::portable(&mut value);
    value
}

fn success_schema(method: &Method, generator: &mut SchemaGenerator) -> Schema {
    match method.id {
        Id::GetCapabilities => generator.subschema_for::<Success<Capabilities>>(),
        Id::OpenSession | Id::OpenProjectSession | Id::GetSession => {
            generator.subschema_for::<Success<SessionSnapshot>>()
        }
        Id::GetCacheSnapshot | Id::RefreshCache => {
            generator.subschema_for::<Success<CacheSnapshot>>()
        }
        Id::GetProjectOutline => generator.subschema_for::<Success<ProjectOutline>>(),
        Id::QueryEntity => generator.subschema_for::<Success<QueryEntityData>>(),
        Id::ReadSessionState => generator.subschema_for::<Success<SessionStateData>>(),
        Id::SearchProject => generator.subschema_for::<Success<SearchProjectData>>(),
        Id::ReadResourceBytes => generator.subschema_for::<Success<ResourceBytesData>>(),
        Id::RenderComponent => generator.subschema_for::<Success<RenderComponentData>>(),
        Id::ValidateSession => generator.subschema_for::<Success<ValidationReport>>(),
        Id::PreflightTransaction => generator.subschema_for::<Success<TransactionPreview>>(),
        Id::ApplyTransaction => generator.subschema_for::<Success<SessionSnapshot>>(),
        Id::GetEvents => generator.subschema_for::<Success<EventsData>>(),
        Id::CloseSession => generator.subschema_for::<Success<CloseSessionData>>(),
        Id::SaveSession => generator.subschema_for::<Success<SaveOrMaterialize>>(),
        Id::MaterializeSession => generator.subschema_for::<Success<MaterializeSessionData>>(),
        Id::Publish => generator.subschema_for::<Success<PublishProjectData>>(),
        Id::Undo | Id::Redo => generator.subschema_for::<Success<HistoryStepData>>(),
        Id::GetHistory => generator.subschema_for::<Success<SessionHistory>>(),
        Id::Review => generator.subschema_for::<Success<SessionReview>>(),
        Id::ExportStrings => generator.subschema_for::<Success<StringsExport>>(),
        Id::SweepStrings => generator.subschema_for::<Success<StringsSweep>>(),
        Id::CheckStrings => generator.subschema_for::<Success<StringsCheck>>(),
        Id::RefreshSession => generator.subschema_for::<Success<SessionSnapshot>>(),
    }
}

/// Keeps only the error variants whose `code` is in `codes`.
fn error_subset(all_errors: &Value, definitions: &Map<String, Value>, codes: &[&str]) -> Value {
    let variants = all_errors
        .get("oneOf")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let chosen: Vec<Value> = variants
        .into_iter()
        .filter(|variant| {
            let resolved = resolve(variant, definitions);
            let code = resolved
                .pointer("/properties/code/const")
                .or_else(|| resolved.pointer("/properties/code/enum/0"))
                .and_then(Value::as_str);
            code.is_some_and(|code| codes.contains(&code))
        })
        .collect();
    json!({ "oneOf": chosen })
}

fn resolve<'a>(schema: &'a Value, definitions: &'a Map<String, Value>) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => reference
            .strip_prefix("#/definitions/")
            .and_then(|name| definitions.get(name))
            .unwrap_or(schema),
        None => schema,
    }
}

/// The output schema of a method: `{backendResult: success | failure}`.
pub fn output_schema(method: &Method) -> Value {
    let mut generator = generator();
    let success = success_schema(method, &mut generator);
    let failure = generator.subschema_for::<Failure<BackendError>>();
    let mut definitions = generator.take_definitions(true);

    // Narrow the failure's `error` to this method's codes, under a method-specific name.
    let codes = method.error_codes();
    let failure_value = resolve(&failure.to_value(), &definitions).clone();
    let all_errors = failure_value
        .pointer("/properties/error")
        .map(|error| resolve(error, &definitions).clone())
        .unwrap_or(Value::Null);
    let errors = error_subset(&all_errors, &definitions, &codes);
    let mut failure_value = failure_value;
    if let Some(error) = failure_value.pointer_mut("/properties/error") {
        *error = errors;
    }
    if let Value::Object(object) = &mut failure_value {
        object.insert("title".into(), json!(format!("{}Failure", method.name)));
    }
    definitions.retain(|name, _| !name.starts_with("Failure"));
    let failure_name = format!("{}Failure", method.name);
    definitions.insert(failure_name.clone(), failure_value);

    let mut schema = json!({
        "type": "object",
        "properties": {
            "backendResult": {
                "oneOf": [success.to_value(), { "$ref": format!("#/definitions/{failure_name}") }]
            }
        },
        "required": ["backendResult"],
        "additionalProperties": false,
        "definitions": Value::Object(definitions),
    });
    prune_unused_definitions(&mut schema);
    crate::portable::portable(&mut schema);
    schema
}

fn strip_descriptions(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove("description");
            map.values_mut().for_each(strip_descriptions);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_descriptions),
        _ => {}
    }
}

/// Removes definitions nothing refers to (e.g. error variants another method uses).
fn prune_unused_definitions(schema: &mut Value) {
    loop {
        let Some(definitions) = schema.get("definitions").and_then(Value::as_object) else {
            return;
        };
        let mut without_definitions = schema.clone();
        if let Value::Object(object) = &mut without_definitions {
            object.remove("definitions");
        }
        let mut used = std::collections::BTreeSet::new();
        collect_refs(&without_definitions, &mut used);
        for definition in definitions.values() {
            collect_refs(definition, &mut used);
        }
        let unused: Vec<String> = definitions
            .keys()
            .filter(|name| !used.contains(name.as_str()))
            .cloned()
            .collect();
        if unused.is_empty() {
            return;
        }
        if let Some(Value::Object(definitions)) = schema.get_mut("definitions") {
            for name in unused {
                definitions.remove(&name);
            }
        }
    }
}

fn collect_refs(value: &Value, used: &mut std::collections::BTreeSet<String>) {
    match value {
        Value::Object(object) => {
            if let Some(Value::String(reference)) = object.get("$ref")
                && let Some(name) = reference.strip_prefix("#/definitions/")
            {
                used.insert(name.to_string());
            }
            object.values().for_each(|v| collect_refs(v, used));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, used)),
        _ => {}
    }
}

/// The error codes a command's `--json` failure may carry: those of the methods it calls,
/// and the MCP layer's own (a malformed argument is `invalid_input`).
pub fn cli_error_codes(command: &CliCommand) -> Vec<&'static str> {
    let mut codes: Vec<&'static str> = Vec::new();
    let methods = command
        .methods
        .iter()
        .filter_map(|name| crate::methods::by_name(name));
    for code in methods
        .flat_map(|method| method.error_codes())
        .chain(MCP_FAILURES.iter().map(|fails| fails.code))
    {
        if !codes.contains(&code) {
            codes.push(code);
        }
    }
    codes
}

/// The schema of a command's `--json` output, as `openfairygui://docs/cli/{command}`
/// serves it: `{ok: true, command, data}` or `{ok: false, command, error}` with the
/// command's error codes, and the command's exit statuses under `exitCodes`.
pub fn cli_schema(command: &CliCommand) -> Value {
    let mut generator = generator();
    let success = match command.name {
        "validate" => generator.subschema_for::<CliSuccess<ValidationReport>>(),
        "outline" => generator.subschema_for::<CliSuccess<ProjectOutline>>(),
        "query" => generator.subschema_for::<CliSuccess<QueryEntityData>>(),
        "apply" => generator.subschema_for::<CliSuccess<ApplyData>>(),
        "render" => generator.subschema_for::<CliSuccess<RenderComponentData>>(),
        "publish" => generator.subschema_for::<CliSuccess<PublishProjectData>>(),
        "docs" => generator.subschema_for::<CliSuccess<DocumentData>>(),
        "strings" => generator.subschema_for::<CliSuccess<StringsData>>(),
        other => unreachable!("no output type for command {other}"),
    };
    let failure = generator.subschema_for::<CliFailure>();
    let mut definitions = generator.take_definitions(true);

    // The envelope names its command; the failure carries only the command's codes.
    let command_const = json!({ "type": "string", "const": command.name });
    let mut success = resolve(&success.to_value(), &definitions).clone();
    let mut failure = resolve(&failure.to_value(), &definitions).clone();
    let all_errors = failure
        .pointer("/properties/error")
        .map(|error| resolve(error, &definitions).clone())
        .unwrap_or(Value::Null);
    let errors = error_subset(&all_errors, &definitions, &cli_error_codes(command));
    if let Some(error) = failure.pointer_mut("/properties/error") {
        *error = errors;
    }
    for (envelope, title) in [(&mut success, "Success"), (&mut failure, "Failure")] {
        if let Some(property) = envelope.pointer_mut("/properties/command") {
            *property = command_const.clone();
        }
        if let Value::Object(object) = envelope {
            object.insert("title".into(), json!(format!("{}{title}", command.name)));
        }
    }
    definitions
        .retain(|name, _| !name.starts_with("CliSuccess") && !name.starts_with("CliFailure"));

    let exit_codes: Vec<Value> = command
        .exits
        .iter()
        .map(|(status, meaning)| json!({ "status": status.code(), "meaning": meaning }))
        .collect();
    let mut schema = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": command.docs_uri(),
        "title": format!("ofgui-mcp-host {} --json", command.name),
        "description": format!(
            "{}: the one JSON document `ofgui-mcp-host {} --json` prints. `ok` says whether the command produced its data; the exit status (exitCodes) says what it means.",
            command.title, command.name
        ),
        "exitCodes": exit_codes,
        "oneOf": [success, failure],
        "definitions": Value::Object(definitions),
    });
    prune_unused_definitions(&mut schema);
    crate::portable::portable(&mut schema);
    schema
}

/// The MCP annotations of a method's tool.
pub fn annotations(method: &Method) -> Value {
    let mut annotations = Map::new();
    annotations.insert("readOnlyHint".into(), json!(method.read_only));
    if !method.read_only {
        // Set explicitly: MCP defaults destructiveHint to true for non-read-only tools.
        annotations.insert("destructiveHint".into(), json!(method.destructive));
    }
    annotations.insert("idempotentHint".into(), json!(method.idempotent));
    annotations.insert("openWorldHint".into(), json!(false));
    Value::Object(annotations)
}

/// The complete contract snapshot, with its digest.
pub fn snapshot() -> Value {
    let tools: Vec<Value> = METHODS
        .iter()
        .map(|method| {
            let mut tool = json!({
                "name": method.tool,
                "backendMethod": method.name,
                "title": method.title,
                "description": method.tool_description(),
                "annotations": annotations(method),
                "stage": method.stage,
                "inputSchema": input_schema(method),
                "outputSchema": output_schema(method),
            });
            if let Some(max) = method.max_response_bytes {
                tool["maxResponseBytes"] = json!(max);
            }
            tool["bytePaths"] = json!(method.byte_paths);
            if let Some(view) = method.id.view() {
                tool["view"] = json!(view);
            }
            tool
        })
        .collect();
    let diagnostics: Vec<Value> = GUIDES
        .iter()
        .filter_map(|guide| crate::docs::diagnostic_doc(guide.code))
        .collect();
    let cli: Map<String, Value> = COMMANDS
        .iter()
        .map(|command| (command.name.to_string(), cli_schema(command)))
        .collect();
    let mut snapshot = json!({
        "schemaVersion": SNAPSHOT_SCHEMA_VERSION,
        "versions": {
            "contractVersion": CONTRACT_VERSION,
            "capabilitySchemaVersion": CAPABILITY_SCHEMA_VERSION,
        },
        "tools": tools,
        "diagnostics": diagnostics,
        "cli": cli,
        "additions": additions_schema(),
    });
    let digest = hex(&Sha256::digest(
        serde_json::to_vec(&snapshot).unwrap_or_default(),
    ));
    snapshot["digest"] = Value::String(digest);
    snapshot
}

/// The schema of what a tool result carries in `_meta["ofgui/additions"]`.
pub fn additions_schema() -> Value {
    let mut generator = generator();
    let schema = crate::additions::Additions::json_schema(&mut generator);
    finish(generator, schema)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The MCP tool list (`tools/list` items) derived from a snapshot: name, title,
/// description, schemas, annotations and `_meta` with the contract digest.
pub fn mcp_tools(snapshot: &Value) -> Value {
    let digest = snapshot.get("digest").cloned().unwrap_or(Value::Null);
    let tools = snapshot
        .get("tools")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    Value::Array(
        tools
            .into_iter()
            .map(|tool| {
                // Output field docs stay in the committed contract; clients only need the
                // shapes, and every tool repeats the envelope, so the advertised copy is lean.
                let mut output = tool["outputSchema"].clone();
                strip_descriptions(&mut output);
                json!({
                    "name": tool["name"],
                    "title": tool["title"],
                    "description": tool["description"],
                    "inputSchema": tool["inputSchema"],
                    "outputSchema": output,
                    "annotations": tool["annotations"],
                    "_meta": tool_meta(&tool, &digest),
                })
            })
            .collect(),
    )
}

/// A listed tool's `_meta`: its method and the contract digest, and the view a client
/// with MCP Apps shows with its result (under the current key and the older one).
fn tool_meta(tool: &Value, digest: &Value) -> Value {
    let mut meta = json!({
        "openfairygui/backendMethod": tool["backendMethod"],
        "openfairygui/adapter": "ofgui",
        "openfairygui/contractDigest": digest,
    });
    if let Some(view) = tool.get("view") {
        meta["ui"] = json!({ "resourceUri": view });
        meta["ui/resourceUri"] = view.clone();
    }
    meta
}

/// The default MCP tool list: each tool's full description and annotations with lean
/// schemas, so the list fits a model's context. The operations of a batch are a union of
/// kinds whose exact fields are one resource away, and every output schema describes the
/// envelope with the method's error codes, naming the document with the full schema. The
/// server still decodes every input strictly, whatever the list advertises.
pub fn lean_tools(snapshot: &Value) -> Value {
    let mut tools = mcp_tools(snapshot);
    for tool in tools.as_array_mut().into_iter().flatten() {
        let Some(method) = tool["_meta"]["openfairygui/backendMethod"]
            .as_str()
            .and_then(|name| METHODS.iter().find(|m| m.name == name))
        else {
            continue;
        };
        if let Some(operations) = tool.pointer_mut("/inputSchema/properties/operations") {
            *operations = lean_operations();
            if let Some(input) = tool.get_mut("inputSchema").and_then(Value::as_object_mut) {
                input.remove("definitions");
            }
        }
        if let Some(target) = tool.pointer_mut("/inputSchema/properties/target")
            && method.id == crate::methods::MethodId::QueryEntity
        {
            *target = lean_entity_target();
            if let Some(input) = tool.get_mut("inputSchema").and_then(Value::as_object_mut) {
                input.remove("definitions");
            }
        }
        if let Some(operations) = tool.pointer_mut("/inputSchema/properties/previewOperations") {
            *operations = lean_operations();
            // The kinds are listed once, by preflightTransaction and applyTransaction.
            operations["items"]["properties"]["kind"] = json!({ "type": "string" });
            operations["description"] = json!(
                "A batch as for openfairygui_backend_preflight_transaction, drawn before and after side by side; nothing is applied. Each operation is an object with a `kind` and that kind's fields, exactly those of openfairygui://contracts/operations/{kind}."
            );
            if let Some(input) = tool.get_mut("inputSchema") {
                prune_unused_definitions(input);
            }
        }
        if let Some(project) = tool.pointer_mut("/inputSchema/properties/project") {
            *project = lean_project(method);
            if let Some(input) = tool.get_mut("inputSchema").and_then(Value::as_object_mut) {
                input.remove("definitions");
            }
        }
        tool["outputSchema"] = lean_output(method);
        if let Some(input) = tool.get_mut("inputSchema") {
            drop_null_alternatives(input);
            drop_repeated_words(input);
        }
    }
    tools
}

/// `anyOf: [X, {type: null}]` → X: an optional field is advertised as optional, not as
/// nullable, which is what a client should send (the server still takes `null` for an
/// absent field). Keeps the list small and readable.
fn drop_null_alternatives(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            let alternatives = map.get("anyOf").and_then(Value::as_array);
            if let Some([first, second]) = alternatives.map(Vec::as_slice) {
                let null = json!({ "type": "null" });
                let kept = match (*first == null, *second == null) {
                    (false, true) => Some(first.clone()),
                    (true, false) => Some(second.clone()),
                    _ => None,
                };
                if let Some(Value::Object(kept)) = kept {
                    map.remove("anyOf");
                    for (key, value) in kept {
                        map.entry(key).or_insert(value);
                    }
                }
            }
            map.values_mut().for_each(drop_null_alternatives);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_null_alternatives),
        _ => {}
    }
}

/// What a lean list need not say twice: a shared type's own description (the field that
/// uses it says what it is for) and the session id's (every tool takes one).
fn drop_repeated_words(input: &mut Value) {
    if let Some(Value::Object(definitions)) = input.get_mut("definitions") {
        for definition in definitions.values_mut() {
            if let Value::Object(definition) = definition {
                definition.remove("description");
            }
        }
    }
    if let Some(Value::Object(session_id)) = input.pointer_mut("/properties/sessionId") {
        session_id.remove("description");
    }
}

fn lean_operations() -> Value {
    json!({
        "type": "array",
        "minItems": 1,
        "maxItems": 1000,
        "description": "The batch, applied in order, all or nothing. Each operation is an object with a `kind` and that kind's fields, which are exactly those of openfairygui://contracts/operations/{kind} (the catalog of kinds: openfairygui://contracts/operations). A selector's packageId, resourceId, componentResourceId and displayNodeId take ids or the names the outline shows.",
        "items": {
            "type": "object",
            "properties": {
                "kind": { "type": "string", "enum": crate::ops::OPERATION_KINDS.as_slice() },
                "opId": { "type": "string", "description": "Your name for the operation, echoed in errors." }
            },
            "required": ["kind"]
        }
    })
}

/// A query target as a model needs it: the kinds and what each selector holds, in one
/// sentence rather than seven schemas (the backend checks the target itself and answers
/// `invalid_query` naming what is wrong).
fn lean_entity_target() -> Value {
    json!({
        "type": "object",
        "description": "{kind, selector}: project (no selector); package {packageId}; resource {packageId, resourceId}; component {packageId, componentResourceId}; displayNode {packageId, componentResourceId, displayNodeId}; controller {…, controllerName}; transition {…, transitionName}. Ids from the outline or search, or the names the outline shows (a name several share is refused with their ids).",
        "properties": {
            "kind": {
                "enum": ["project", "package", "resource", "component", "displayNode", "controller", "transition"]
            },
            "selector": { "type": "object" }
        },
        "required": ["kind"]
    })
}

/// A whole UAM project is the largest schema of the contract; the lean list names where
/// it is instead (the server decodes the document strictly either way).
fn lean_project(method: &Method) -> Value {
    json!({
        "type": "object",
        "description": format!(
            "The whole project as the UAM, as readSessionState returns it, with each asset resource's file bytes in sourceBytes (an array of integers 0..255 or a base64 string; at most 8 MiB per request). Its exact schema is the input of {}.",
            crate::docs::method_uri(method.name)
        ),
        "properties": {
            "projectId": { "type": "string" },
            "packages": { "type": "array", "items": { "type": "object" } }
        },
        "required": ["projectId", "projectType", "version", "branches", "settings", "packages"]
    })
}

fn lean_output(method: &Method) -> Value {
    // Only what a client checks: the envelope's flag and its error codes; the rest of
    // each result's shape is one document away.
    json!({
        "type": "object",
        "properties": {
            "backendResult": {
                "type": "object",
                "description": format!(
                    "data: {}",
                    crate::docs::method_uri(method.name)
                ),
                "properties": {
                    "ok": { "type": "boolean" },
                    "error": {
                        "type": "object",
                        "properties": { "code": { "enum": method.error_codes() } }
                    }
                },
                "required": ["ok", "meta"]
            }
        },
        "required": ["backendResult"]
    })
}

/// The MCP tool list as committed: compact JSON (parsed at every server start) with a
/// trailing newline. `full` keeps every schema inline, for clients that decode against
/// them.
pub fn tools_text(full: bool) -> String {
    let snapshot = snapshot();
    let tools = if full {
        mcp_tools(&snapshot)
    } else {
        lean_tools(&snapshot)
    };
    let mut text = serde_json::to_string(&tools).unwrap_or_default();
    text.push('\n');
    text
}

/// The snapshot as committed: pretty JSON with a trailing newline.
pub fn snapshot_text() -> String {
    let mut text = serde_json::to_string_pretty(&snapshot()).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every advertised schema, lean or full, is in the subset every client accepts.
    #[test]
    fn every_tool_schema_is_portable() {
        let snapshot = snapshot();
        let (full, lean) = (mcp_tools(&snapshot), lean_tools(&snapshot));
        for tool in full
            .as_array()
            .unwrap()
            .iter()
            .chain(lean.as_array().unwrap())
        {
            for key in ["inputSchema", "outputSchema"] {
                let problems = crate::portable::problems(&tool[key]);
                assert!(problems.is_empty(), "{} {key}: {problems:#?}", tool["name"]);
            }
        }
    }

    /// The command line's schemas are in the same subset, and accept what they describe.
    #[test]
    fn cli_schemas_are_portable_and_narrowed() {
        for command in COMMANDS {
            let schema = cli_schema(command);
            let problems = crate::portable::problems(&schema);
            assert!(problems.is_empty(), "{}: {problems:#?}", command.name);
            let codes: Vec<&str> = schema["oneOf"][1]["properties"]["error"]["oneOf"]
                .as_array()
                .unwrap()
                .iter()
                .map(|variant| {
                    let variant = resolve(variant, schema["definitions"].as_object().unwrap());
                    variant["properties"]["code"]["const"].as_str().unwrap()
                })
                .collect();
            assert_eq!(
                codes.len(),
                cli_error_codes(command).len(),
                "{}",
                command.name
            );
            assert!(codes.contains(&"invalid_input"), "{}", command.name);
        }
        let apply = cli_schema(crate::cli::by_name("apply").unwrap());
        let text = apply.to_string();
        assert!(text.contains("transaction_unsupported") && text.contains("save_partial_failure"));
        let docs = cli_schema(crate::cli::by_name("docs").unwrap()).to_string();
        assert!(!docs.contains("project_open_failed"));
    }

    /// The default list fits a model's context; each lean tool keeps its description.
    #[test]
    fn the_lean_tool_list_is_small_and_complete() {
        let snapshot = snapshot();
        let lean = lean_tools(&snapshot);
        let size = serde_json::to_vec(&lean).unwrap().len();
        assert!(size < 100_000, "the lean tool list is {size} bytes");
        let full = mcp_tools(&snapshot);
        for (lean, full) in lean
            .as_array()
            .unwrap()
            .iter()
            .zip(full.as_array().unwrap())
        {
            assert_eq!(lean["name"], full["name"]);
            assert_eq!(lean["description"], full["description"]);
            assert_eq!(lean["annotations"], full["annotations"]);
        }
    }
}
