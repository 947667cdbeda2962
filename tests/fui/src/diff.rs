//! Structural comparison of two JSON values, reported by JSON pointer.

use serde_json::Value;

/// Longest rendering of a value in a difference line; whole components would drown the report.
const MAX_SHOWN: usize = 120;

/// Lists where `actual` differs from `expected`, one line per difference, as
/// `/json/pointer: expected X, got Y` (a missing side shows as `nothing`), in document order,
/// at most `limit` lines. Objects are compared key by key (key order is ignored), arrays
/// element by element.
pub fn diff(expected: &Value, actual: &Value, limit: usize) -> Vec<String> {
    let mut differences = Vec::new();
    let mut pointer = String::new();
    compare(
        Some(expected),
        Some(actual),
        &mut pointer,
        limit,
        &mut differences,
    );
    differences
}

fn compare(
    expected: Option<&Value>,
    actual: Option<&Value>,
    pointer: &mut String,
    limit: usize,
    out: &mut Vec<String>,
) {
    if out.len() >= limit {
        return;
    }
    match (expected, actual) {
        (Some(Value::Object(expected)), Some(Value::Object(actual))) => {
            for (key, value) in expected {
                within(pointer, key, |pointer| {
                    compare(Some(value), actual.get(key), pointer, limit, out)
                });
            }
            for (key, value) in actual
                .iter()
                .filter(|(key, _)| !expected.contains_key(*key))
            {
                within(pointer, key, |pointer| {
                    compare(None, Some(value), pointer, limit, out)
                });
            }
        }
        (Some(Value::Array(expected)), Some(Value::Array(actual))) => {
            for index in 0..expected.len().max(actual.len()) {
                within(pointer, &index.to_string(), |pointer| {
                    compare(expected.get(index), actual.get(index), pointer, limit, out);
                });
            }
        }
        _ if expected == actual => {}
        _ => {
            let shown = if pointer.is_empty() {
                "(root)"
            } else {
                pointer.as_str()
            };
            out.push(format!(
                "{shown}: expected {}, got {}",
                render(expected),
                render(actual)
            ));
        }
    }
}

/// Runs `visit` with `pointer` extended by one reference token (escaped per RFC 6901).
fn within(pointer: &mut String, token: &str, visit: impl FnOnce(&mut String)) {
    let len = pointer.len();
    pointer.push('/');
    pointer.push_str(&token.replace('~', "~0").replace('/', "~1"));
    visit(pointer);
    pointer.truncate(len);
}

fn render(value: Option<&Value>) -> String {
    let Some(value) = value else {
        return "nothing".to_owned();
    };
    let text = value.to_string();
    if text.chars().count() <= MAX_SHOWN {
        return text;
    }
    let mut clipped: String = text.chars().take(MAX_SHOWN).collect();
    clipped.push('…');
    clipped
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::diff;

    #[test]
    fn equal_values_have_no_differences() {
        let value = json!({"a": [1, {"b": null}], "c": "x"});
        assert!(diff(&value, &value.clone(), 10).is_empty());
    }

    #[test]
    fn reports_by_pointer_in_document_order() {
        let expected =
            json!({"items": [{"id": "a", "width": 10}, {"id": "b"}], "a/b": 1, "gone": true});
        let actual = json!({"items": [{"id": "a", "width": 12}], "a/b": 2, "new": [1]});
        assert_eq!(
            diff(&expected, &actual, 10),
            [
                "/items/0/width: expected 10, got 12",
                "/items/1: expected {\"id\":\"b\"}, got nothing",
                "/a~1b: expected 1, got 2",
                "/gone: expected true, got nothing",
                "/new: expected nothing, got [1]",
            ]
        );
        assert_eq!(diff(&expected, &actual, 2).len(), 2);
        assert_eq!(
            diff(&json!(1), &json!("1"), 5),
            ["(root): expected 1, got \"1\""]
        );
    }
}
