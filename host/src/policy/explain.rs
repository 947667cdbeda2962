//! Turns a refused input into an error a model can act on: the JSON pointer of the deepest
//! failing field, what it must be in plain words, what was sent (at most
//! [`MAX_ECHO_CHARS`] characters of it), and for an operation its kind and schema URI.
//!
//! Inputs are decoded strictly by serde (the host's top level, the component's
//! operations); when that fails, the failing value is checked against the JSON Schema the
//! tool advertises, which knows where the problem is and what was expected. serde's own
//! words (`expected f64`, `invalid type: …`) never reach the caller; when the schema finds
//! nothing (a rule only the decoder has), the decoder's message is kept, clipped.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{JsonType, ValidationError};
use ofgui_contracts::docs;
use ofgui_contracts::echo::{MAX_ECHO_CHARS, clip};
use ofgui_contracts::error::BackendError;
use ofgui_contracts::methods::{METHODS, Method, MethodId};
use ofgui_contracts::ops::OPERATION_KINDS;
use serde_json::{Value, json};

/// Most characters of one quoted string value in a message.
const QUOTE_CHARS: usize = 60;

/// The explained `invalid_input` of a method's arguments that did not decode; `fallback`
/// is the decoder's message, used (clipped) when the schema finds nothing.
pub fn input(method: &Method, input: &Value, fallback: &str) -> BackendError {
    if matches!(
        method.id,
        MethodId::PreflightTransaction | MethodId::ApplyTransaction
    ) && let Some(Value::Array(operations)) = input.get("operations")
        && let Some(error) = operations
            .iter()
            .enumerate()
            .find_map(|(index, operation)| explain_operation(index, operation))
    {
        return error;
    }
    let uri = docs::method_uri(method.name);
    let found = input_schema(method.name)
        .and_then(|schema| deepest_problem(&schema, input))
        .map(|problem| {
            let message = format!("{} Input schema: {uri}", problem.sentence());
            BackendError::invalid_input(message, Some(problem.pointer))
        });
    found.unwrap_or_else(|| {
        BackendError::invalid_input(
            format!("{} Input schema: {uri}", clip_message(fallback)),
            None,
        )
    })
}

/// The explained `invalid_input` of arguments that break the method's input schema, or
/// `None` when they keep it. serde decodes types, not the limits the schema advertises
/// (lengths, patterns, ranges); this is where they hold, once, for every method.
///
/// A query's `target` is left to the component, which refuses a bad one as upstream does
/// (`entity_query_failed`, reason `invalid_query`), lengths included.
pub fn check(method: &Method, input: &Value) -> Option<BackendError> {
    const FALLBACK: &str = "The arguments do not match the tool's input schema.";
    let checked = without_nulls(input);
    if !validator(method)?.is_valid(&checked) {
        return Some(self::input(method, &checked, FALLBACK));
    }
    // Operations keep their nulls: there `null` may mean something (delete a value).
    match operations_valid(method, input) {
        true => None,
        false => Some(self::input(method, input, FALLBACK)),
    }
}

/// The input with every `null` member of an object left out: the list advertises
/// optional fields as optional rather than nullable, and `null` is taken as absent, as
/// the backend's decoding takes it.
fn without_nulls(input: &Value) -> std::borrow::Cow<'_, Value> {
    fn has_null(value: &Value) -> bool {
        match value {
            Value::Object(map) => map.values().any(|v| v.is_null() || has_null(v)),
            Value::Array(items) => items.iter().any(has_null),
            _ => false,
        }
    }
    fn strip(value: &Value) -> Value {
        match value {
            Value::Object(map) => Value::Object(
                map.iter()
                    .filter(|(_, v)| !v.is_null())
                    .map(|(k, v)| (k.clone(), strip(v)))
                    .collect(),
            ),
            Value::Array(items) => Value::Array(items.iter().map(strip).collect()),
            other => other.clone(),
        }
    }
    match has_null(input) {
        true => std::borrow::Cow::Owned(strip(input)),
        false => std::borrow::Cow::Borrowed(input),
    }
}

/// The method's input schema as its tool advertises it by default (operations and
/// documents as objects whose exact fields are one document away), compiled on its first
/// call and kept: small, so the first call of each tool stays quick.
fn validator(method: &Method) -> Option<&'static jsonschema::Validator> {
    const COUNT: usize = METHODS.len();
    static VALIDATORS: [OnceLock<Option<jsonschema::Validator>>; COUNT] =
        [const { OnceLock::new() }; COUNT];
    let index = METHODS.iter().position(|row| row.id == method.id)?;
    VALIDATORS[index]
        .get_or_init(|| {
            let mut schema = advertised_schema(method.tool)?;
            if method.id == MethodId::QueryEntity {
                schema["properties"]["target"] = Value::Bool(true);
            }
            jsonschema::validator_for(&schema).ok()
        })
        .as_ref()
}

/// One tool of a generated tool list, its input schema left unparsed.
#[derive(serde::Deserialize)]
struct Tool<'a> {
    name: &'a str,
    #[serde(rename = "inputSchema", borrow)]
    input_schema: &'a serde_json::value::RawValue,
}

/// The tools of a tool list compiled into the binary, each schema parsed only when asked.
fn listed(text: &'static str) -> Vec<Tool<'static>> {
    serde_json::from_str(text).unwrap_or_default()
}

/// A tool's input schema as the default tool list advertises it.
fn advertised_schema(tool: &str) -> Option<Value> {
    static TOOLS: OnceLock<Vec<Tool<'static>>> = OnceLock::new();
    let listed = TOOLS.get_or_init(|| listed(ofgui_contracts::TOOLS_JSON));
    let found = listed.iter().find(|entry| entry.name == tool)?;
    serde_json::from_str(found.input_schema.get()).ok()
}

/// Whether every operation a batch carries (`operations`, or a preview's
/// `previewOperations`) keeps its kind's schema, limits included.
fn operations_valid(method: &Method, input: &Value) -> bool {
    let field = match method.id {
        MethodId::PreflightTransaction | MethodId::ApplyTransaction => "operations",
        MethodId::RenderComponent => "previewOperations",
        _ => return true,
    };
    let Some(Value::Array(operations)) = input.get(field) else {
        return true;
    };
    operations.iter().all(|operation| {
        let kind = operation.get("kind").and_then(Value::as_str);
        match kind.and_then(operation_validator) {
            Some(validator) => validator.is_valid(operation),
            // An unknown kind is the advertised schema's to refuse.
            None => true,
        }
    })
}

/// One operation kind's full schema, compiled on its first use and kept.
fn operation_validator(kind: &str) -> Option<Arc<jsonschema::Validator>> {
    static BATCH: OnceLock<Option<Value>> = OnceLock::new();
    static KINDS: OnceLock<Mutex<HashMap<String, Arc<jsonschema::Validator>>>> = OnceLock::new();
    let kinds = KINDS.get_or_init(Mutex::default);
    if let Some(found) = kinds.lock().ok()?.get(kind) {
        return Some(found.clone());
    }
    // Only the batch method's full input schema is parsed, not the whole contract: a
    // snapshot of one tool, which the contract's own lookup reads.
    let batch = BATCH
        .get_or_init(|| {
            let apply = MethodId::ApplyTransaction.method();
            let tools = listed(ofgui_contracts::TOOLS_FULL_JSON);
            let schema: Value = serde_json::from_str(
                tools
                    .iter()
                    .find(|t| t.name == apply.tool)?
                    .input_schema
                    .get(),
            )
            .ok()?;
            Some(json!({ "tools": [{ "backendMethod": apply.name, "inputSchema": schema }] }))
        })
        .as_ref()?;
    let schema = docs::operation_schema(batch, kind)?;
    let validator = Arc::new(jsonschema::validator_for(&schema).ok()?);
    kinds
        .lock()
        .ok()?
        .insert(kind.to_string(), validator.clone());
    Some(validator)
}

/// Why operation `index` does not match its kind's schema, if it does not.
fn explain_operation(index: usize, operation: &Value) -> Option<BackendError> {
    let at = format!("/operations/{index}");
    let catalog = "openfairygui://contracts/operations lists the kinds";
    let Some(fields) = operation.as_object() else {
        return Some(BackendError::invalid_input(
            format!(
                "Operation {index} must be an object with a `kind`; got {}. {catalog}.",
                describe(operation)
            ),
            Some(at),
        ));
    };
    let kind = match fields.get("kind") {
        Some(Value::String(kind)) if OPERATION_KINDS.contains(&kind.as_str()) => kind,
        Some(other) => {
            return Some(BackendError::invalid_input(
                format!(
                    "Operation {index}: `kind` must be one of the {} operation kinds; got {}. {catalog}.",
                    OPERATION_KINDS.len(),
                    describe(other)
                ),
                Some(format!("{at}/kind")),
            ));
        }
        None => {
            return Some(BackendError::invalid_input(
                format!("Operation {index} has no `kind`. {catalog}."),
                Some(format!("{at}/kind")),
            ));
        }
    };
    let schema = docs::operation_schema(snapshot()?, kind)?;
    let problem = deepest_problem(&schema, operation)?;
    let message = format!(
        "Operation {index} ({kind}): {} Schema: {}",
        problem.sentence(),
        docs::operation_uri(kind)
    );
    Some(BackendError::invalid_input(
        message,
        Some(format!("{at}{}", problem.pointer)),
    ))
}

/// The contract snapshot the tools advertise.
fn snapshot() -> Option<&'static Value> {
    static SNAPSHOT: OnceLock<Option<Value>> = OnceLock::new();
    SNAPSHOT
        .get_or_init(|| serde_json::from_str(ofgui_contracts::CONTRACT_JSON).ok())
        .as_ref()
}

/// A method's input schema, as its tool advertises it.
fn input_schema(method: &str) -> Option<Value> {
    docs::method_doc(snapshot()?, method).map(|doc| doc["inputSchema"].clone())
}

/// One thing wrong with a value: where (a JSON pointer relative to the value checked) and
/// what it must be.
#[derive(Clone, Debug, PartialEq)]
struct Problem {
    pointer: String,
    /// "must be a number", "is required but missing", …
    rule: String,
    /// What was sent there, described briefly; `None` when nothing was (a missing field).
    got: Option<String>,
    /// The one value the schema allows here (a `const`, such as a union branch's `kind`).
    constant: Option<Value>,
    /// The value is not of the type asked for (so, in a union, not the branch meant).
    wrong_type: bool,
}

impl Problem {
    fn depth(&self) -> usize {
        self.pointer.matches('/').count()
    }

    /// "`position.x` must be a number; got a string \"12\"."
    fn sentence(&self) -> String {
        let field = field_name(&self.pointer);
        match &self.got {
            Some(got) => format!("{field} {}; got {got}.", self.rule),
            None => format!("{field} {}.", self.rule),
        }
    }
}

/// A pointer as the caller would name the field: `props.position.x`, `node.relations[0]`.
fn field_name(pointer: &str) -> String {
    if pointer.is_empty() {
        return "The value".into();
    }
    let mut name = String::new();
    for segment in pointer.split('/').skip(1) {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        if !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit()) {
            name.push_str(&format!("[{segment}]"));
        } else {
            if !name.is_empty() {
                name.push('.');
            }
            name.push_str(&segment);
        }
    }
    format!("`{}`", clip(&name, QUOTE_CHARS))
}

/// The deepest problem of `value` against `schema`, or `None` when it matches (or the
/// schema does not compile, which the contract tests rule out).
fn deepest_problem(schema: &Value, value: &Value) -> Option<Problem> {
    let validator = jsonschema::validator_for(schema).ok()?;
    validator
        .iter_errors(value)
        .map(|error| problem(&error))
        .reduce(|best, next| {
            if next.depth() > best.depth() {
                next
            } else {
                best
            }
        })
}

/// The problem an error stands for; for a union, that of the branch that got furthest.
fn problem(error: &ValidationError<'_>) -> Problem {
    let pointer = error.instance_path().as_str().to_string();
    let instance: &Value = error.instance();
    let got = || Some(describe(instance));
    let at = |rule: String| Problem {
        pointer: pointer.clone(),
        rule,
        got: got(),
        constant: None,
        wrong_type: false,
    };
    match error.kind() {
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            union(&pointer, instance, context)
        }
        ValidationErrorKind::Type { kind } => Problem {
            wrong_type: true,
            ..at(format!("must be {}", types(kind)))
        },
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            Problem {
                pointer: format!("{pointer}/{}", escape(name)),
                rule: "is required but missing".into(),
                got: None,
                constant: None,
                wrong_type: false,
            }
        }
        ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            let name = unexpected.first().map(String::as_str).unwrap_or_default();
            Problem {
                pointer: format!("{pointer}/{}", escape(name)),
                rule: "is not a field of this object (the schema lists the fields it has)".into(),
                got: None,
                constant: None,
                wrong_type: false,
            }
        }
        ValidationErrorKind::Enum { options } => at(format!(
            "must be one of {}",
            clip(&options.to_string(), MAX_ECHO_CHARS / 2)
        )),
        ValidationErrorKind::Constant { expected_value } => Problem {
            constant: Some(Value::clone(expected_value)),
            ..at(format!(
                "must be {}",
                clip(&expected_value.to_string(), QUOTE_CHARS)
            ))
        },
        ValidationErrorKind::Minimum { limit } => at(format!("must be at least {limit}")),
        ValidationErrorKind::Maximum { limit } => at(format!("must be at most {limit}")),
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            at(format!("must be greater than {limit}"))
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => at(format!("must be less than {limit}")),
        ValidationErrorKind::MinLength { limit } => {
            at(format!("must be at least {limit} characters long"))
        }
        ValidationErrorKind::MaxLength { limit } => {
            at(format!("must be at most {limit} characters long"))
        }
        ValidationErrorKind::MinItems { limit } => at(format!("must hold at least {limit} items")),
        ValidationErrorKind::MaxItems { limit } => at(format!("must hold at most {limit} items")),
        ValidationErrorKind::MinProperties { limit } => {
            at(format!("must have at least {limit} fields"))
        }
        ValidationErrorKind::MaxProperties { limit } => {
            at(format!("must have at most {limit} fields"))
        }
        ValidationErrorKind::Pattern { pattern } => at(format!(
            "must match the pattern {}",
            clip(pattern, QUOTE_CHARS)
        )),
        ValidationErrorKind::Format { format } => at(format!("must be a valid {format}")),
        ValidationErrorKind::MultipleOf { multiple_of, .. } => {
            at(format!("must be a multiple of {multiple_of}"))
        }
        ValidationErrorKind::UniqueItems => at("must not hold the same item twice".into()),
        ValidationErrorKind::OneOfMultipleValid { .. } => {
            at("matches more than one of the allowed shapes; make it match exactly one".into())
        }
        other => at(format!("breaks the schema's `{}` rule", other.keyword())),
    }
}

/// The problem of a value that matches none of a union's branches. A tagged union's
/// branches each fix a field to one value (`kind`): branches whose tag the value does not
/// have are not the one meant, so only the others are judged, and when no branch has the
/// value's tag, the tag is the problem, with every value it may take. Otherwise the
/// branch that got furthest into the value (`position.x` of a nullable point); when
/// every branch fails at the value itself on its type, the types they take together.
fn union(pointer: &str, instance: &Value, branches: &[Vec<ValidationError<'static>>]) -> Problem {
    let judged: Vec<Vec<Problem>> = branches
        .iter()
        .map(|errors| errors.iter().map(problem).collect())
        .collect();
    let depth_here = pointer.matches('/').count();
    // The problem of a branch whose tag (a `const` one level down) the value lacks.
    let tags: Vec<Option<&Problem>> = judged
        .iter()
        .map(|problems| {
            problems
                .iter()
                .find(|p| p.constant.is_some() && p.depth() == depth_here + 1)
        })
        .collect();
    let matching: Vec<&Vec<Problem>> = judged
        .iter()
        .zip(&tags)
        .filter(|(_, tag)| tag.is_none())
        .map(|(problems, _)| problems)
        .collect();
    if matching.is_empty()
        && let Some(Some(first)) = tags.first()
        && tags
            .iter()
            .all(|tag| tag.is_some_and(|tag| tag.pointer == first.pointer))
    {
        let values: Vec<String> = tags
            .iter()
            .flatten()
            .filter_map(|tag| tag.constant.as_ref())
            .map(|value| clip(&value.to_string(), QUOTE_CHARS))
            .collect();
        return Problem {
            pointer: first.pointer.clone(),
            rule: format!("must be one of {}", values.join(", ")),
            got: first.got.clone(),
            constant: None,
            wrong_type: false,
        };
    }
    let candidates: Vec<&Vec<Problem>> = if matching.is_empty() {
        judged.iter().collect()
    } else {
        matching
    };
    let best: Vec<Problem> = candidates
        .into_iter()
        .filter_map(|problems| {
            problems.iter().cloned().reduce(|best, next| {
                if next.depth() > best.depth() {
                    next
                } else {
                    best
                }
            })
        })
        .collect();
    let here = pointer.matches('/').count();
    if let Some(deeper) = best
        .iter()
        .filter(|problem| problem.depth() > here)
        .max_by_key(|problem| problem.depth())
    {
        return deeper.clone();
    }
    // A branch of the value's own type that refused it on a rule (a length, a pattern,
    // a range) is the one meant: its rule is the problem, not the other branches' types.
    if let Some(ruled) = best.iter().find(|problem| !problem.wrong_type) {
        return ruled.clone();
    }
    let wanted: Vec<&str> = best
        .iter()
        .filter_map(|problem| problem.rule.strip_prefix("must be "))
        .collect();
    let rule = if wanted.is_empty() {
        "does not match any of the shapes the schema allows".into()
    } else {
        let mut unique: Vec<&str> = Vec::new();
        for item in wanted.iter().flat_map(|wanted| wanted.split(" or ")) {
            if !unique.contains(&item) {
                unique.push(item);
            }
        }
        format!("must be {}", unique.join(" or "))
    };
    Problem {
        pointer: pointer.to_string(),
        rule,
        got: Some(describe(instance)),
        constant: None,
        wrong_type: true,
    }
}

fn types(kind: &TypeKind) -> String {
    let one = |ty: JsonType| match ty {
        JsonType::Array => "an array",
        JsonType::Boolean => "a boolean",
        JsonType::Integer => "an integer",
        JsonType::Null => "null",
        JsonType::Number => "a number",
        JsonType::Object => "an object",
        JsonType::String => "a string",
    };
    match kind {
        TypeKind::Single(ty) => one(*ty).to_string(),
        TypeKind::Multiple(set) => set.iter().map(one).collect::<Vec<_>>().join(" or "),
    }
}

fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// A short description of a value the caller sent: its type, and a string's first
/// characters or a number's value.
pub fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(flag) => flag.to_string(),
        Value::Number(number) => format!("the number {}", clip(&number.to_string(), 40)),
        Value::String(text) => {
            let count = text.chars().count();
            if count <= QUOTE_CHARS {
                format!("a string {}", Value::String(text.clone()))
            } else {
                let start: String = text.chars().take(QUOTE_CHARS).collect();
                format!(
                    "a string of {count} characters starting {}…",
                    Value::String(start)
                )
            }
        }
        Value::Array(items) => format!("an array of {} items", items.len()),
        Value::Object(fields) => {
            let keys: Vec<&str> = fields.keys().map(String::as_str).take(8).collect();
            let more = if fields.len() > keys.len() {
                ", …"
            } else {
                ""
            };
            clip(
                &format!("an object with fields {}{more}", keys.join(", ")),
                QUOTE_CHARS * 2,
            )
        }
    }
}

/// A decoder's message made safe to return: serde's wording of a type mismatch names
/// Rust types, and quotes strings whole, so at most [`MAX_ECHO_CHARS`] characters stay.
fn clip_message(message: &str) -> String {
    clip(message, MAX_ECHO_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ofgui_contracts::methods::by_name;
    use serde_json::json;

    fn parts(error: BackendError) -> (String, Option<String>) {
        match error {
            BackendError::InvalidInput { message, path } => (message, path),
            other => panic!("unexpected {other:?}"),
        }
    }

    fn props(props: Value) -> Value {
        json!({ "kind": "setDisplayNodeProps",
            "selector": { "packageId": "p", "componentResourceId": "c", "displayNodeId": "n" },
            "props": props })
    }

    fn batch(operations: Value) -> Value {
        json!({ "sessionId": "s", "expectedRevision": 0, "operations": operations })
    }

    fn explain(method: &str, value: &Value) -> (String, Option<String>) {
        parts(input(
            by_name(method).unwrap(),
            value,
            "invalid type: string \"x\", expected f64",
        ))
    }

    #[test]
    fn a_wrong_type_deep_in_an_operation_is_named_in_plain_words() {
        let value = batch(json!([props(json!({ "position": { "x": "12", "y": 3 } }))]));
        let (message, path) = explain("applyTransaction", &value);
        assert_eq!(path.as_deref(), Some("/operations/0/props/position/x"));
        assert_eq!(
            message,
            "Operation 0 (setDisplayNodeProps): `props.position.x` must be a number; got a string \"12\". \
             Schema: openfairygui://contracts/operations/setDisplayNodeProps"
        );
    }

    #[test]
    fn a_tag_no_branch_has_lists_every_value_it_may_take() {
        let add = |resource: Value| {
            batch(
                json!([{ "kind": "addResource", "selector": { "packageId": "p" }, "resource": resource }]),
            )
        };
        let (message, path) = explain(
            "applyTransaction",
            &add(json!({ "kind": "picture", "fileName": "x.png" })),
        );
        assert_eq!(path.as_deref(), Some("/operations/0/resource/kind"));
        assert!(
            message.contains(
                r#"`resource.kind` must be one of "image", "sound", "misc", "font", "movieClip", "spine", "dragonBones", "component"; got a string "picture"."#
            ),
            "{message}"
        );
        // With a known tag, only that branch is judged.
        let (message, path) = explain(
            "applyTransaction",
            &add(json!({ "kind": "image", "fileName": 7 })),
        );
        assert_eq!(
            path.as_deref(),
            Some("/operations/0/resource/fileName"),
            "{message}"
        );
        assert!(message.contains("must be a string"), "{message}");
    }

    #[test]
    fn missing_and_unknown_fields_point_at_the_field() {
        let value = batch(json!([
            props(json!({ "position": { "x": 1, "y": 2 } })),
            props(json!({ "position": { "x": 1 } })),
        ]));
        let (message, path) = explain("preflightTransaction", &value);
        assert_eq!(path.as_deref(), Some("/operations/1/props/position/y"));
        assert!(
            message.contains("`props.position.y` is required but missing."),
            "{message}"
        );

        let value = batch(json!([props(json!({ "sparkle": true }))]));
        let (message, path) = explain("applyTransaction", &value);
        assert_eq!(path.as_deref(), Some("/operations/0/props/sparkle"));
        assert!(
            message.contains("`props.sparkle` is not a field"),
            "{message}"
        );
    }

    #[test]
    fn a_wrong_selector_says_what_it_must_be() {
        let value =
            batch(json!([{ "kind": "renameResource", "selector": "res1", "newName": "a" }]));
        let (message, path) = explain("applyTransaction", &value);
        assert_eq!(path.as_deref(), Some("/operations/0/selector"));
        assert!(
            message.contains("`selector` must be an object; got a string \"res1\""),
            "{message}"
        );
        assert!(!message.contains("ResourceSelector") && !message.contains("expected"));
    }

    #[test]
    fn unknown_and_missing_kinds_point_at_the_kind() {
        let (message, path) = explain("applyTransaction", &batch(json!([{ "kind": "fly" }])));
        assert_eq!(path.as_deref(), Some("/operations/0/kind"));
        assert!(message.contains("got a string \"fly\""), "{message}");
        assert!(message.contains("openfairygui://contracts/operations"));
        let (_, path) = explain("applyTransaction", &batch(json!([{ "name": "x" }])));
        assert_eq!(path.as_deref(), Some("/operations/0/kind"));
        let (_, path) = explain("applyTransaction", &batch(json!([7])));
        assert_eq!(path.as_deref(), Some("/operations/0"));
    }

    #[test]
    fn top_level_fields_are_explained_against_the_input_schema() {
        let value = json!({ "sessionId": "s", "expectedRevision": "3", "operations": [] });
        let (message, path) = explain("applyTransaction", &value);
        assert_eq!(path.as_deref(), Some("/expectedRevision"));
        assert!(
            message.starts_with("`expectedRevision` must be an integer; got a string \"3\"."),
            "{message}"
        );
        assert!(message.ends_with("openfairygui://docs/methods/applyTransaction"));
        let (message, path) = explain("getSession", &json!({}));
        assert_eq!(path.as_deref(), Some("/sessionId"));
        assert!(
            message.starts_with("`sessionId` is required but missing."),
            "{message}"
        );
    }

    #[test]
    fn a_megabyte_in_the_wrong_place_is_echoed_at_most_200_characters() {
        let huge = "QUFB".repeat(256 * 1024);
        let value = batch(json!([props(json!({ "text": 5, "position": huge }))]));
        let (message, path) = explain("applyTransaction", &value);
        assert!(path.is_some());
        assert!(message.len() < 600, "{} characters", message.len());
        assert!(!message.contains(&"QUFB".repeat(50)));
        let value = json!({ "sessionId": huge });
        let (message, _) = explain("getSession", &value);
        assert!(!message.contains(&"QUFB".repeat(50)), "{message}");
        // The decoder's own words, when the schema finds nothing, are clipped too.
        let said = parts(input(
            MethodId::GetSession.method(),
            &json!({ "sessionId": "s" }),
            &format!("invalid type: string \"{huge}\""),
        ))
        .0;
        assert!(said.chars().count() <= MAX_ECHO_CHARS + 80, "{said}");
    }

    #[test]
    fn values_are_described_briefly() {
        assert_eq!(describe(&json!("12")), "a string \"12\"");
        assert_eq!(describe(&json!(1.5)), "the number 1.5");
        assert_eq!(describe(&json!([1, 2])), "an array of 2 items");
        assert_eq!(describe(&json!(null)), "null");
        let long = describe(&json!("x".repeat(1000)));
        assert!(long.starts_with("a string of 1000 characters starting \"xxx"));
        assert!(long.chars().count() < 120);
        assert_eq!(
            field_name("/node/relations/0/type"),
            "`node.relations[0].type`"
        );
        assert_eq!(
            clip_message(&"y".repeat(500)).chars().count(),
            MAX_ECHO_CHARS
        );
    }
}
