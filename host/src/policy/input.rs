//! Checks tool arguments before anything else sees them: the input budget, then the
//! tool's input schema with the limits it promises (lengths, patterns, ranges), which
//! serde's decoding does not check. Types are decoded by the service (top level) and the
//! component (everything it is given).
//!
//! The budget follows upstream: at most 100,000 JSON nodes, depth 32, 10,000 entries per
//! array or object, 1,000,000 characters per string, 256 per key. Only at a method's byte
//! paths (`operations.*.sourceBytes`, …) may an array hold byte values (integers 0..255)
//! beyond those limits, or a string hold base64 beyond the string limit; all bytes of
//! one request together are limited to 8 MiB.

use ofgui_contracts::bytes::{MAX_BASE64_CHARS, MAX_REQUEST_BYTES};
use ofgui_contracts::error::BackendError;
use ofgui_contracts::methods::Method;
use serde_json::Value;

use super::explain;

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

/// Checks the input budget of a tool's arguments, then their schema's limits.
pub fn check(method: &Method, input: &Value) -> Result<(), BackendError> {
    budget(method, input)?;
    match explain::check(method, input) {
        Some(refused) => Err(refused),
        None => Ok(()),
    }
}

/// Checks the input budget: sizes and depth, before the schema is walked at all.
fn budget(method: &Method, input: &Value) -> Result<(), BackendError> {
    let byte_paths: Vec<Vec<&str>> = method
        .byte_paths
        .iter()
        .map(|path| path.split('.').collect())
        .collect();
    let mut walk = Walk {
        byte_paths: &byte_paths,
        at: Vec::new(),
        nodes: 0,
        bytes: 0,
    };
    walk.value(input)
}

fn invalid(message: String, path: &str) -> BackendError {
    BackendError::invalid_input(message, Some(path.to_string()))
}

/// One step into the input: an object key or an array index.
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// The walk over one input: where it is, and what it has counted so far.
struct Walk<'a> {
    byte_paths: &'a [Vec<&'static str>],
    at: Vec<Step<'a>>,
    nodes: usize,
    bytes: usize,
}

impl<'a> Walk<'a> {
    /// The current location as a JSON pointer (built only for errors).
    fn pointer(&self) -> String {
        self.at
            .iter()
            .map(|step| match step {
                Step::Key(key) => format!("/{key}"),
                Step::Index(index) => format!("/{index}"),
            })
            .collect()
    }

    fn fail(&self, message: String) -> BackendError {
        invalid(message, &self.pointer())
    }

    /// True when the current location is one of the method's byte paths.
    fn at_byte_path(&self) -> bool {
        self.byte_paths.iter().any(|pattern| {
            pattern.len() == self.at.len()
                && pattern
                    .iter()
                    .zip(&self.at)
                    .all(|(segment, step)| match step {
                        Step::Key(key) => segment == key,
                        Step::Index(_) => *segment == "*",
                    })
        })
    }

    fn value(&mut self, value: &'a Value) -> Result<(), BackendError> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(self.fail(format!("The input has more than {MAX_NODES} JSON nodes.")));
        }
        if self.at.len() >= MAX_DEPTH {
            return Err(self.fail(format!("The input nests deeper than {MAX_DEPTH} levels.")));
        }
        match value {
            Value::Array(items) if self.at_byte_path() => self.byte_values(items),
            Value::String(text) if self.at_byte_path() => self.base64(text),
            Value::String(text)
                if text.len() > MAX_STRING_CHARS && text.chars().count() > MAX_STRING_CHARS =>
            {
                // A whole translation is the one string a caller may well have that long.
                let instead = match self.pointer().as_str() {
                    "/strings" => " Send a strings file that long by its path, in stringsFile.",
                    _ => "",
                };
                Err(self.fail(format!(
                    "A string is longer than {MAX_STRING_CHARS} characters.{instead}"
                )))
            }
            Value::Array(items) => {
                if items.len() > MAX_ENTRIES {
                    return Err(self.fail(format!("An array has more than {MAX_ENTRIES} entries.")));
                }
                for (index, item) in items.iter().enumerate() {
                    self.at.push(Step::Index(index));
                    self.value(item)?;
                    self.at.pop();
                }
                Ok(())
            }
            Value::Object(map) => {
                if map.len() > MAX_ENTRIES {
                    return Err(
                        self.fail(format!("An object has more than {MAX_ENTRIES} entries."))
                    );
                }
                for (key, item) in map {
                    if key.chars().count() > MAX_KEY_CHARS {
                        return Err(
                            self.fail(format!("A key is longer than {MAX_KEY_CHARS} characters."))
                        );
                    }
                    self.at.push(Step::Key(key));
                    self.value(item)?;
                    self.at.pop();
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// File bytes as integers: each 0..255, counted against the request's byte allowance
    /// instead of the node and entry limits.
    fn byte_values(&mut self, items: &[Value]) -> Result<(), BackendError> {
        if let Some(index) = items
            .iter()
            .position(|item| item.as_u64().is_none_or(|byte| byte > 255))
        {
            self.at.push(Step::Index(index));
            let failure = self.fail("File bytes must be integers 0..255.".into());
            self.at.pop();
            return Err(failure);
        }
        self.count_bytes(items.len())
    }

    /// File bytes as base64: the string limit gives way to the byte allowance.
    fn base64(&mut self, text: &str) -> Result<(), BackendError> {
        if text.len() > MAX_BASE64_CHARS {
            return Err(self.fail(format!(
                "File bytes in base64 may be at most {MAX_BASE64_CHARS} characters ({MAX_REQUEST_BYTES} bytes)."
            )));
        }
        let padding = text.bytes().rev().take_while(|&b| b == b'=').count();
        self.count_bytes((text.len() / 4 * 3).saturating_sub(padding))
    }

    fn count_bytes(&mut self, bytes: usize) -> Result<(), BackendError> {
        self.bytes += bytes;
        if self.bytes > MAX_REQUEST_BYTES {
            return Err(self.fail(format!(
                "The request carries more than {MAX_REQUEST_BYTES} bytes of file data; send the files in separate transactions."
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ofgui_contracts::methods::{METHODS, by_name};
    use serde_json::json;

    fn method() -> &'static Method {
        &METHODS[0]
    }

    fn path_of(result: Result<(), BackendError>) -> Option<String> {
        match result.err()? {
            BackendError::InvalidInput { path, .. } => path,
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn budget_is_enforced() {
        assert!(budget(method(), &json!({"sessionId": "abc"})).is_ok());
        let mut deep = json!(1);
        for _ in 0..40 {
            deep = json!([deep]);
        }
        assert!(budget(method(), &json!({ "a": deep })).is_err());
        assert_eq!(
            path_of(budget(method(), &json!({ "a": vec![0; 10_001] }))),
            Some("/a".into())
        );
        assert!(budget(method(), &json!({ "k".repeat(257): 1 })).is_err());
    }

    #[test]
    fn schema_lengths_are_enforced() {
        let get = by_name("getSession").unwrap();
        assert!(check(get, &json!({"sessionId": "x".repeat(256)})).is_ok());
        assert!(check(get, &json!({"sessionId": ""})).is_err());
        assert_eq!(
            path_of(check(get, &json!({"sessionId": "x".repeat(257)}))),
            Some("/sessionId".into())
        );
        // Characters, not bytes: 256 two-byte characters are within the limit.
        assert!(check(get, &json!({"sessionId": "é".repeat(256)})).is_ok());
    }

    fn replace(bytes: Value) -> Value {
        json!({ "sessionId": "s", "expectedRevision": 0, "operations": [
            { "kind": "setDisplayNodeProps" },
            { "kind": "replaceResourceBytes", "sourceBytes": bytes },
        ] })
    }

    #[test]
    fn byte_paths_take_eight_mebibytes_and_no_more() {
        let apply = by_name("applyTransaction").unwrap();
        assert!(budget(apply, &replace(json!(vec![255u8; MAX_REQUEST_BYTES]))).is_ok());
        assert_eq!(
            path_of(budget(
                apply,
                &replace(json!(vec![0u8; MAX_REQUEST_BYTES + 1]))
            )),
            Some("/operations/1/sourceBytes".into())
        );
        assert_eq!(
            path_of(budget(apply, &replace(json!([1, 2, 256])))),
            Some("/operations/1/sourceBytes/2".into())
        );
        assert!(budget(apply, &replace(json!([1, -1]))).is_err());
        assert!(budget(apply, &replace(json!([1.5]))).is_err());
        // The schema allows what the budget does.
        let valid = json!({ "sessionId": "s", "expectedRevision": 0, "operations": [{
            "kind": "replaceResourceBytes",
            "selector": { "packageId": "p", "resourceId": "r" },
            "sourceBytes": vec![255u8; MAX_REQUEST_BYTES],
        }] });
        assert!(check(apply, &valid).is_ok());
        // Base64 beyond the string limit, within the byte allowance.
        let eight_mebibytes = format!("{}=", "A".repeat(MAX_BASE64_CHARS - 1));
        assert!(budget(apply, &replace(json!(eight_mebibytes))).is_ok());
        assert!(budget(apply, &replace(json!("A".repeat(MAX_BASE64_CHARS)))).is_err());
        // The allowance is per request, across byte fields.
        let two = json!({ "sessionId": "s", "expectedRevision": 0, "operations": [
            { "kind": "replaceResourceBytes", "sourceBytes": vec![0u8; MAX_REQUEST_BYTES / 2 + 1] },
            { "kind": "addResource", "resource": { "sourceBytes": vec![0u8; MAX_REQUEST_BYTES / 2] } },
        ] });
        assert_eq!(
            path_of(budget(apply, &two)),
            Some("/operations/1/resource/sourceBytes".into())
        );
    }

    #[test]
    fn the_allowance_is_only_at_byte_paths() {
        let apply = by_name("applyTransaction").unwrap();
        let elsewhere =
            json!({ "operations": [ { "props": { "sourceBytes": vec![0u8; 10_001] } } ] });
        assert_eq!(
            path_of(budget(apply, &elsewhere)),
            Some("/operations/0/props/sourceBytes".into())
        );
        let other_method = json!({ "sourceBytes": vec![0u8; 10_001] });
        assert!(budget(method(), &other_method).is_err());
    }
}
