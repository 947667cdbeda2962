//! File bytes in a request: a JSON array of integers 0..255 (upstream's form) or a base64
//! string (what `readResourceBytes` returns, and what agents produce most easily).

use base64::Engine as _;
use serde::de::{self, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Most bytes one request may carry across all its byte fields (8 MiB).
pub const MAX_REQUEST_BYTES: usize = 8 << 20;

/// Longest base64 text of [`MAX_REQUEST_BYTES`] bytes.
pub const MAX_BASE64_CHARS: usize = MAX_REQUEST_BYTES.div_ceil(3) * 4;

/// The bytes of a file sent in a request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceBytes(pub Vec<u8>);

impl SourceBytes {
    pub fn into_inner(self) -> Vec<u8> {
        self.0
    }
}

impl std::ops::Deref for SourceBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl From<Vec<u8>> for SourceBytes {
    fn from(bytes: Vec<u8>) -> Self {
        SourceBytes(bytes)
    }
}

/// Serialized as base64: the compact form, so that echoing a parsed request (see
/// [`crate::strict`]) never builds a JSON array of millions of numbers.
impl Serialize for SourceBytes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&base64::engine::general_purpose::STANDARD.encode(&self.0))
    }
}

impl<'de> Deserialize<'de> for SourceBytes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SourceBytesVisitor)
    }
}

struct SourceBytesVisitor;

impl<'de> Visitor<'de> for SourceBytesVisitor {
    type Value = SourceBytes;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an array of integers 0..255 or a base64 string")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<SourceBytes, A::Error> {
        let mut bytes = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(MAX_REQUEST_BYTES));
        while let Some(byte) = seq.next_element::<u8>()? {
            if bytes.len() == MAX_REQUEST_BYTES {
                return Err(de::Error::custom(format_args!(
                    "more than {MAX_REQUEST_BYTES} bytes"
                )));
            }
            bytes.push(byte);
        }
        Ok(SourceBytes(bytes))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<SourceBytes, E> {
        if text.len() > MAX_BASE64_CHARS {
            return Err(E::custom(format_args!(
                "base64 text longer than {MAX_BASE64_CHARS} characters (more than {MAX_REQUEST_BYTES} bytes)"
            )));
        }
        base64::engine::general_purpose::STANDARD
            .decode(text)
            .map(SourceBytes)
            .map_err(|error| E::custom(format_args!("not valid base64 ({error})")))
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for SourceBytes {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "SourceBytes".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "The file's bytes: an array of integers 0..255, or the same bytes as a standard base64 string (the encoding readResourceBytes returns). At most 8 MiB per request across all byte fields.",
            "anyOf": [
                {
                    "type": "array",
                    "items": { "type": "integer", "minimum": 0, "maximum": 255 },
                    "maxItems": MAX_REQUEST_BYTES
                },
                {
                    "type": "string",
                    "contentEncoding": "base64",
                    "maxLength": MAX_BASE64_CHARS
                }
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_and_base64_decode_to_the_same_bytes() {
        let from_ints: SourceBytes = serde_json::from_str("[137, 80, 78, 71]").unwrap();
        let from_text: SourceBytes = serde_json::from_str(r#""iVBORw==""#).unwrap();
        assert_eq!(from_ints.0, b"\x89PNG");
        assert_eq!(from_text, from_ints);
        assert_eq!(serde_json::to_string(&from_ints).unwrap(), r#""iVBORw==""#);
    }

    #[test]
    fn bad_bytes_are_refused_with_a_reason() {
        for (text, reason) in [
            ("[256]", "u8"),
            ("[-1]", "u8"),
            ("[1.5]", "u8"),
            (r#""not base64!""#, "base64"),
            ("{}", "base64 string"),
        ] {
            let error = serde_json::from_str::<SourceBytes>(text).unwrap_err();
            assert!(error.to_string().contains(reason), "{text}: {error}");
        }
    }
}
