//! A JSON number that prints like JavaScript does.
//!
//! FairyGUI values are decimals in the XML (`xy="10,20.5"`). Storing them as `f64`
//! and letting serde print `10.0` would make every integral value look different
//! from what upstream agents see, so integral values serialize as integers.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A finite decimal, serialized without a trailing `.0` when integral.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
pub struct Num(pub f64);

/// The largest integer every JSON reader holds exactly (2^53 - 1).
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

impl Num {
    pub const ZERO: Num = Num(0.0);
    pub const ONE: Num = Num(1.0);

    pub fn get(self) -> f64 {
        self.0
    }

    /// True when the value is integral and fits in a signed 32-bit integer, which is
    /// what the FairyGUI desktop editor can store for geometry.
    pub fn fits_i32(self) -> bool {
        self.0.fract() == 0.0 && self.0 >= i32::MIN as f64 && self.0 <= i32::MAX as f64
    }
}

impl From<f64> for Num {
    fn from(value: f64) -> Self {
        Num(value)
    }
}

impl From<i32> for Num {
    fn from(value: i32) -> Self {
        Num(value as f64)
    }
}

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let value = self.0;
        if value.fract() == 0.0 && value.abs() <= MAX_SAFE_INTEGER {
            // `-0.0` prints as `0`, as in JavaScript.
            serializer.serialize_i64(value as i64)
        } else {
            serializer.serialize_f64(value)
        }
    }
}

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = f64::deserialize(deserializer)?;
        if value.is_finite() {
            Ok(Num(value))
        } else {
            Err(serde::de::Error::custom("number must be finite"))
        }
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Num {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "number".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "number" })
    }
}

#[cfg(test)]
mod tests {
    use super::Num;

    #[test]
    fn integral_values_print_without_fraction() {
        let text = serde_json::to_string(&[Num(10.0), Num(-0.0), Num(2.5), Num(-3.0)]).unwrap();
        assert_eq!(text, "[10,0,2.5,-3]");
    }

    #[test]
    fn non_finite_numbers_are_rejected() {
        assert!(serde_json::from_str::<Num>("1e400").is_err());
    }
}
