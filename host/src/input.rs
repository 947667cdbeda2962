//! Checks tool arguments before anything else sees them: the input budget, then the
//! lengths the input schemas promise. Shapes are checked when the service parses them.

use ofgui_contracts::api::{MAX_ID_LEN, MAX_PATH_LEN};
use ofgui_contracts::error::BackendError;
use ofgui_contracts::methods::Method;
use serde_json::Value;

use crate::envelope::Failure;

/// Deepest nesting an input may have.
const MAX_DEPTH: usize = 32;
/// Most JSON nodes an input may have.
const MAX_NODES: usize = 100_000;
/// Most entries one array or object may have.
const MAX_ENTRIES: usize = 10_000;
/// Longest string value, in characters.
const MAX_STRING_CHARS: usize = 1_000_000;
/// Longest object key, in characters.
const MAX_KEY_CHARS: usize = 256;

/// String fields with length rules, by JSON pointer.
const LENGTH_RULES: &[(&str, usize)] = &[
    ("/sessionId", MAX_ID_LEN),
    ("/projectPath", MAX_PATH_LEN),
    ("/selector/packageId", MAX_ID_LEN),
    ("/selector/resourceId", MAX_ID_LEN),
];

/// Checks the input budget and field lengths of a tool's arguments.
pub fn check(_method: &Method, input: &Value) -> Result<(), Failure> {
    let mut nodes = 0;
    walk(input, "", 1, &mut nodes)?;
    for (pointer, max) in LENGTH_RULES {
        if let Some(Value::String(text)) = input.pointer(pointer) {
            let length = text.chars().count();
            if length == 0 || length > *max {
                return Err(invalid(
                    format!("{pointer} must be 1 to {max} characters long."),
                    pointer,
                ));
            }
        }
    }
    Ok(())
}

fn invalid(message: String, path: &str) -> Failure {
    BackendError::invalid_input(message, Some(path.to_string())).into()
}

fn walk(value: &Value, path: &str, depth: usize, nodes: &mut usize) -> Result<(), Failure> {
    *nodes += 1;
    if *nodes > MAX_NODES {
        return Err(invalid(
            format!("The input has more than {MAX_NODES} JSON nodes."),
            path,
        ));
    }
    if depth > MAX_DEPTH {
        return Err(invalid(
            format!("The input nests deeper than {MAX_DEPTH} levels."),
            path,
        ));
    }
    match value {
        Value::String(text)
            if text.len() > MAX_STRING_CHARS && text.chars().count() > MAX_STRING_CHARS =>
        {
            Err(invalid(
                format!("A string is longer than {MAX_STRING_CHARS} characters."),
                path,
            ))
        }
        Value::Array(items) => {
            if items.len() > MAX_ENTRIES {
                return Err(invalid(
                    format!("An array has more than {MAX_ENTRIES} entries."),
                    path,
                ));
            }
            items.iter().enumerate().try_for_each(|(index, item)| {
                walk(item, &format!("{path}/{index}"), depth + 1, nodes)
            })
        }
        Value::Object(map) => {
            if map.len() > MAX_ENTRIES {
                return Err(invalid(
                    format!("An object has more than {MAX_ENTRIES} entries."),
                    path,
                ));
            }
            map.iter().try_for_each(|(key, item)| {
                if key.chars().count() > MAX_KEY_CHARS {
                    return Err(invalid(
                        format!("A key is longer than {MAX_KEY_CHARS} characters."),
                        path,
                    ));
                }
                walk(item, &format!("{path}/{key}"), depth + 1, nodes)
            })
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ofgui_contracts::methods::METHODS;
    use serde_json::json;

    fn method() -> &'static Method {
        &METHODS[0]
    }

    #[test]
    fn budget_and_lengths_are_enforced() {
        assert!(check(method(), &json!({"sessionId": "abc"})).is_ok());
        assert!(check(method(), &json!({"sessionId": ""})).is_err());
        assert!(check(method(), &json!({"sessionId": "x".repeat(257)})).is_err());
        assert!(check(method(), &json!({"projectPath": "x".repeat(4096)})).is_ok());
        let mut deep = json!(1);
        for _ in 0..40 {
            deep = json!([deep]);
        }
        assert!(check(method(), &json!({ "a": deep })).is_err());
        assert!(check(method(), &json!({ "a": vec![0; 10_001] })).is_err());
        assert!(check(method(), &json!({ "k".repeat(257): 1 })).is_err());
    }
}
