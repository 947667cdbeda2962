//! Where two JSON values first differ, for failure messages of tests that compare models.

use serde_json::Value;

/// The JSON pointer of the first place two models differ, for failure messages.
pub fn first_difference(a: &Value, b: &Value) -> String {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => x
            .keys()
            .chain(y.keys())
            .find(|key| x.get(*key) != y.get(*key))
            .map(|key| match (x.get(key), y.get(key)) {
                (Some(va), Some(vb)) => format!("/{key}{}", first_difference(va, vb)),
                _ => format!("/{key}"),
            })
            .unwrap_or_default(),
        (Value::Array(x), Value::Array(y)) => match x.iter().zip(y).position(|(va, vb)| va != vb) {
            Some(i) => format!("/{i}{}", first_difference(&x[i], &y[i])),
            None if x.len() != y.len() => format!("/{}", x.len().min(y.len())),
            None => String::new(),
        },
        _ => String::new(),
    }
}
