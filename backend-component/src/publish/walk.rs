//! Every string a serializable value holds, visited as serde serializes it, without building
//! a JSON tree: finding the `ui://` URLs of every component of a project this way is what
//! keeps choosing a package's items cheap (a `serde_json::Value` per component cost most of
//! a publish).

use std::fmt;

use serde::Serialize;
use serde::ser::{self, Serializer};

/// Calls `visit` with every string value inside `value` (map keys, enum variant names and
/// the fields named `skip_field` excepted), in serialization order.
pub(crate) fn each_string<T: Serialize + ?Sized>(
    value: &T,
    skip_field: &'static str,
    visit: &mut dyn FnMut(&str),
) {
    let mut walker = Walker { skip_field, visit };
    // Only a `Serialize` impl that fails by itself errs, and then there is nothing more to
    // visit.
    let _ = value.serialize(&mut walker);
}

struct Walker<'v> {
    skip_field: &'static str,
    visit: &'v mut dyn FnMut(&str),
}

/// The error type serde requires; the walker itself never fails.
#[derive(Debug)]
struct Stopped;

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("serialization stopped")
    }
}

impl std::error::Error for Stopped {}

impl ser::Error for Stopped {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Stopped
    }
}

type Done = Result<(), Stopped>;

impl<'w, 'v> Serializer for &'w mut Walker<'v> {
    type Ok = ();
    type Error = Stopped;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_bool(self, _: bool) -> Done {
        Ok(())
    }
    fn serialize_i8(self, _: i8) -> Done {
        Ok(())
    }
    fn serialize_i16(self, _: i16) -> Done {
        Ok(())
    }
    fn serialize_i32(self, _: i32) -> Done {
        Ok(())
    }
    fn serialize_i64(self, _: i64) -> Done {
        Ok(())
    }
    fn serialize_u8(self, _: u8) -> Done {
        Ok(())
    }
    fn serialize_u16(self, _: u16) -> Done {
        Ok(())
    }
    fn serialize_u32(self, _: u32) -> Done {
        Ok(())
    }
    fn serialize_u64(self, _: u64) -> Done {
        Ok(())
    }
    fn serialize_f32(self, _: f32) -> Done {
        Ok(())
    }
    fn serialize_f64(self, _: f64) -> Done {
        Ok(())
    }
    fn serialize_char(self, _: char) -> Done {
        Ok(())
    }
    fn serialize_str(self, text: &str) -> Done {
        (self.visit)(text);
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Done {
        Ok(())
    }
    fn serialize_none(self) -> Done {
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Done {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Done {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Done {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Done {
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Done {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        value: &T,
    ) -> Done {
        value.serialize(self)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self, Stopped> {
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, Stopped> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Stopped> {
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Stopped> {
        Ok(self)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self, Stopped> {
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Stopped> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Stopped> {
        Ok(self)
    }
}

impl ser::SerializeSeq for &mut Walker<'_> {
    type Ok = ();
    type Error = Stopped;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Done {
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        Ok(())
    }
}

impl ser::SerializeTuple for &mut Walker<'_> {
    type Ok = ();
    type Error = Stopped;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Done {
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        Ok(())
    }
}

impl ser::SerializeTupleStruct for &mut Walker<'_> {
    type Ok = ();
    type Error = Stopped;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Done {
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        Ok(())
    }
}

impl ser::SerializeTupleVariant for &mut Walker<'_> {
    type Ok = ();
    type Error = Stopped;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Done {
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        Ok(())
    }
}

impl ser::SerializeMap for &mut Walker<'_> {
    type Ok = ();
    type Error = Stopped;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, _: &T) -> Done {
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Done {
        value.serialize(&mut **self)
    }
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        _: &K,
        value: &V,
    ) -> Done {
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        Ok(())
    }
}

impl ser::SerializeStruct for &mut Walker<'_> {
    type Ok = ();
    type Error = Stopped;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Done {
        if key == self.skip_field {
            return Ok(());
        }
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        Ok(())
    }
}

impl ser::SerializeStructVariant for &mut Walker<'_> {
    type Ok = ();
    type Error = Stopped;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Done {
        if key == self.skip_field {
            return Ok(());
        }
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::each_string;

    #[test]
    fn visits_string_values_only_and_skips_the_named_field() {
        let value = json!({
            "a": "one",
            "list": [1, "two", {"designImage": "x", "deep": "three"}],
            "n": 4,
            "none": null
        });
        let mut seen = Vec::new();
        each_string(&value, "designImage", &mut |s| seen.push(s.to_owned()));
        // A JSON map's keys are not fields: only struct fields are skipped by name.
        assert_eq!(seen, ["one", "two", "x", "three"]);

        #[derive(serde::Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Props {
            design_image: String,
            title: Option<String>,
            tag: Tag,
        }
        #[derive(serde::Serialize)]
        enum Tag {
            Plain,
        }
        let props = Props {
            design_image: "ui://skip".into(),
            title: Some("ui://keep".into()),
            tag: Tag::Plain,
        };
        let mut seen = Vec::new();
        each_string(&props, "designImage", &mut |s| seen.push(s.to_owned()));
        assert_eq!(seen, ["ui://keep"]);
    }
}
