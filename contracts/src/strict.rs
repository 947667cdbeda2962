//! Strict parsing: a payload may only hold fields its type knows.
//!
//! serde's `deny_unknown_fields` does not work across `#[serde(flatten)]`, which the UAM
//! types use for their shared base fields. Instead the parsed value is serialized again and
//! every input key must reappear; an unknown key is reported with its JSON path.
//!
//! The input's keys are read into a [`Shape`] that keeps objects and arrays but not
//! scalars, so a request carrying megabytes of byte values never becomes a tree of
//! millions of JSON numbers.

use std::fmt;

use serde::de::{DeserializeOwned, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Why a payload was refused.
#[derive(Debug, PartialEq, Eq)]
pub struct StrictError {
    /// JSON-pointer-like location (`/operations/0/props/sparkle`), empty for the root.
    pub path: String,
    pub message: String,
}

/// Parses the JSON `text` as `T`, refusing fields `T` does not have. `path` locates the
/// text in its request.
pub fn from_str<T: DeserializeOwned + Serialize>(text: &str, path: &str) -> Result<T, StrictError> {
    let fail = |error: serde_json::Error| StrictError {
        path: path.to_string(),
        message: error.to_string(),
    };
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let parsed: T = serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        let mut at = pointer(error.path());
        let inner = error.into_inner();
        // A missing field is reported at the object that lacks it; the caller fixes the field.
        if let Some(field) = inner
            .to_string()
            .strip_prefix("missing field `")
            .and_then(|rest| rest.split('`').next())
        {
            at.push('/');
            at.push_str(&field.replace('~', "~0").replace('/', "~1"));
        }
        StrictError {
            path: format!("{path}{at}"),
            message: message_without_position(&inner),
        }
    })?;
    deserializer.end().map_err(fail)?;
    let shape: Shape = serde_json::from_str(text).map_err(fail)?;
    let echoed = serde_json::to_value(&parsed).map_err(fail)?;
    match unknown_field(&shape, &echoed, path) {
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

/// A decoder's path as a JSON pointer (`/packages/0/resources/3/name`); segments serde
/// cannot name (inside a flattened or tagged value) end it.
fn pointer(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => pointer.push_str(&format!("/{index}")),
            Segment::Map { key } => {
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
            }
            Segment::Enum { .. } => {}
            Segment::Unknown => break,
        }
    }
    pointer
}

/// serde's message without its `at line 1 column 345`: the path says where.
fn message_without_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match (error.line(), text.rfind(" at line ")) {
        (line, Some(cut)) if line > 0 => text[..cut].to_string(),
        _ => text,
    }
}

/// The keys and nesting of a JSON value, without its scalars.
enum Shape {
    Null,
    Scalar,
    /// An array of scalars only (such as byte values): nothing in it can be unknown.
    Scalars,
    Array(Vec<Shape>),
    Object(Vec<(String, Shape)>),
}

impl<'de> Deserialize<'de> for Shape {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ShapeVisitor)
    }
}

struct ShapeVisitor;

impl<'de> Visitor<'de> for ShapeVisitor {
    type Value = Shape;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Shape, E> {
        Ok(Shape::Scalar)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Shape, E> {
        Ok(Shape::Scalar)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Shape, E> {
        Ok(Shape::Scalar)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Shape, E> {
        Ok(Shape::Scalar)
    }

    fn visit_str<E>(self, _: &str) -> Result<Shape, E> {
        Ok(Shape::Scalar)
    }

    fn visit_unit<E>(self) -> Result<Shape, E> {
        Ok(Shape::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Shape, A::Error> {
        // Leading scalars are only counted; they become placeholders if something nested
        // follows, so positions still line up with the echoed array.
        let mut leading_scalars = 0usize;
        let mut items: Option<Vec<Shape>> = None;
        while let Some(item) = seq.next_element::<Shape>()? {
            match (&mut items, item) {
                (None, Shape::Scalar | Shape::Null) => leading_scalars += 1,
                (None, nested) => {
                    let mut kept: Vec<Shape> =
                        (0..leading_scalars).map(|_| Shape::Scalar).collect();
                    kept.push(nested);
                    items = Some(kept);
                }
                (Some(kept), item) => kept.push(item),
            }
        }
        Ok(items.map_or(Shape::Scalars, Shape::Array))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Shape, A::Error> {
        let mut fields = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Shape>()? {
            fields.push((key, value));
        }
        Ok(Shape::Object(fields))
    }
}

/// The first key of `input` that the typed value did not keep. A `null` the type reads as
/// "absent" is not unknown.
fn unknown_field(input: &Shape, echoed: &Value, path: &str) -> Option<String> {
    match (input, echoed) {
        (Shape::Object(input), Value::Object(echoed)) => input.iter().find_map(|(key, value)| {
            let at = format!("{path}/{key}");
            match echoed.get(key) {
                None if matches!(value, Shape::Null) => None,
                None => Some(at),
                Some(kept) => unknown_field(value, kept, &at),
            }
        }),
        (Shape::Array(input), Value::Array(echoed)) => input
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

    fn group_node() -> Value {
        json!({
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
        })
    }

    #[test]
    fn unknown_fields_inside_flattened_payloads_are_found() {
        let node = group_node();
        assert!(from_str::<Operation>(&node.to_string(), "").is_ok());
        let mut sparkly = node.clone();
        sparkly["node"]["sparkle"] = json!(1);
        let error = from_str::<Operation>(&sparkly.to_string(), "/operations/0").unwrap_err();
        assert_eq!(error.path, "/operations/0/node/sparkle");
    }

    #[test]
    fn a_value_of_the_wrong_type_is_found_at_its_field() {
        #[derive(Debug, serde::Deserialize, serde::Serialize)]
        struct Inner {
            width: f64,
        }
        #[derive(Debug, serde::Deserialize, serde::Serialize)]
        struct Outer {
            sizes: Vec<Inner>,
        }
        let text = r#"{"sizes":[{"width":1},{"width":"wide"}]}"#;
        let error = from_str::<Outer>(text, "/project").unwrap_err();
        assert_eq!(error.path, "/project/sizes/1/width");
        assert!(!error.message.contains("line"), "{}", error.message);
        assert!(from_str::<Outer>(r#"{"sizes":[]} x"#, "").is_err());
        let error = from_str::<Outer>(r#"{"sizes":[{}]}"#, "").unwrap_err();
        assert_eq!(error.path, "/sizes/0/width");
    }

    #[test]
    fn unknown_fields_in_arrays_of_objects_are_found() {
        let mut node = group_node();
        node["node"]["relations"] =
            json!([{ "targetNodeId": "", "type": 0, "usePercent": false, "extra": true }]);
        let error = from_str::<Operation>(&node.to_string(), "/operations/2").unwrap_err();
        assert!(
            error.path.starts_with("/operations/2/node/relations/0"),
            "{error:?}"
        );
    }

    #[test]
    fn byte_arrays_are_taken_whole_in_either_form() {
        let bytes: Vec<u8> = (0..=255).cycle().take(10_000).collect();
        let as_ints = json!({
            "kind": "replaceResourceBytes",
            "selector": { "packageId": "p", "resourceId": "r" },
            "sourceBytes": bytes,
        });
        let Operation::ReplaceResourceBytes(op) =
            from_str::<Operation>(&as_ints.to_string(), "").unwrap()
        else {
            panic!("wrong kind");
        };
        assert_eq!(*op.source_bytes, bytes[..]);
        let mut as_text = as_ints.clone();
        as_text["sourceBytes"] =
            json!(serde_json::to_value(crate::bytes::SourceBytes(bytes.clone())).unwrap());
        let Operation::ReplaceResourceBytes(op) =
            from_str::<Operation>(&as_text.to_string(), "").unwrap()
        else {
            panic!("wrong kind");
        };
        assert_eq!(*op.source_bytes, bytes[..]);
    }
}
