//! Strict parsing: a payload may only hold fields its type knows.
//!
//! serde's `deny_unknown_fields` does not work across `#[serde(flatten)]`, which the UAM
//! types use for their shared base fields. Instead the parsed value is serialized again and
//! every input key must reappear; an unknown key is reported with its JSON path.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Why a payload was refused.
#[derive(Debug, PartialEq, Eq)]
pub struct StrictError {
    /// JSON-pointer-like location (`/operations/0/props/sparkle`), empty for the root.
    pub path: String,
    pub message: String,
}

/// Parses `value` as `T`, refusing fields `T` does not have.
pub fn from_value<T: DeserializeOwned + Serialize>(
    value: &Value,
    path: &str,
) -> Result<T, StrictError> {
    let parsed: T = serde_json::from_value(value.clone()).map_err(|error| StrictError {
        path: path.to_string(),
        message: error.to_string(),
    })?;
    let echoed = serde_json::to_value(&parsed).map_err(|error| StrictError {
        path: path.to_string(),
        message: error.to_string(),
    })?;
    match unknown_field(value, &echoed, path) {
        Some(path) => {
            let field = path.rsplit('/').next().unwrap_or_default().to_string();
            Err(StrictError {
                path,
                message: format!("unknown field `{field}`"),
            })
        }
        None => Ok(parsed),
    }
}

/// The first key of `input` that the typed value did not keep. A `null` the type reads as
/// "absent" is not unknown.
fn unknown_field(input: &Value, echoed: &Value, path: &str) -> Option<String> {
    match (input, echoed) {
        (Value::Object(input), Value::Object(echoed)) => input.iter().find_map(|(key, value)| {
            let at = format!("{path}/{key}");
            match echoed.get(key) {
                None if value.is_null() => None,
                None => Some(at),
                Some(kept) => unknown_field(value, kept, &at),
            }
        }),
        (Value::Array(input), Value::Array(echoed)) => input
            .iter()
            .zip(echoed)
            .enumerate()
            .find_map(|(index, (value, kept))| {
                unknown_field(value, kept, &format!("{path}/{index}"))
            }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::Operation;
    use serde_json::json;

    #[test]
    fn unknown_fields_inside_flattened_payloads_are_found() {
        let node = json!({
            "kind": "attachDisplayNode",
            "selector": { "packageId": "p", "componentResourceId": "c" },
            "atIndex": 0,
            "node": {
                "kind": "group", "id": "g", "name": "g", "position": { "x": 0, "y": 0 },
                "size": { "width": 1, "height": 1 }, "locked": false, "aspect": false,
                "minSize": { "width": 0, "height": 0 }, "maxSize": { "width": 0, "height": 0 },
                "scale": { "x": 1, "y": 1 }, "skew": { "x": 0, "y": 0 }, "visible": true,
                "touchable": true, "grayed": false, "alpha": 1, "rotation": 0, "tooltips": "",
                "blendMode": "normal", "filter": "", "filterData": "", "customData": "", "group": "",
                "relations": [], "gears": [], "layout": 0, "lineGap": 0, "columnGap": 0,
                "advanced": false, "excludeInvisibles": false, "autoSizeDisabled": false,
                "mainGridIndex": -1, "pivot": null
            }
        });
        assert!(from_value::<Operation>(&node, "").is_ok());
        let mut sparkly = node.clone();
        sparkly["node"]["sparkle"] = json!(1);
        let error = from_value::<Operation>(&sparkly, "/operations/0").unwrap_err();
        assert_eq!(error.path, "/operations/0/node/sparkle");
    }
}
