//! serde for the JSON value model, and conversions to and from `serde_json::Value` (feature
//! `serde`).
//!
//! ```
//! use agentwire::json::{self, Value};
//! let ours = json::parse(r#"{"id":7,"score":0.5,"tags":["a"]}"#)?;
//! let theirs = serde_json::Value::try_from(ours.clone())?;
//! assert_eq!(theirs, serde_json::json!({"id": 7, "score": 0.5, "tags": ["a"]}));
//! // serde_json's map sorts keys (without its `preserve_order` feature); ours keeps order.
//! assert_eq!(Value::from(theirs), ours);
//! # Ok::<(), agentwire::Error>(())
//! ```

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use super::{Map, Number, Value};
use crate::{Error, ErrorKind};

/// What a number is, for serializers: literal numbers (Go `json.Number`) are read as the
/// integer or double their text spells.
enum Kind {
    U64(u64),
    I64(i64),
    F64(f64),
}

fn kind(number: &Number) -> Kind {
    if let Some(text) = number.as_literal() {
        return match (text.parse::<u64>(), text.parse::<i64>()) {
            (Ok(v), _) => Kind::U64(v),
            (_, Ok(v)) => Kind::I64(v),
            _ => Kind::F64(number.as_f64()),
        };
    }
    match (number.as_u64(), number.as_i64()) {
        (Some(v), _) => Kind::U64(v),
        (None, Some(v)) if number.is_integer() => Kind::I64(v),
        _ => Kind::F64(number.as_f64()),
    }
}

impl Serialize for Number {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match kind(self) {
            Kind::U64(v) => serializer.serialize_u64(v),
            Kind::I64(v) => serializer.serialize_i64(v),
            Kind::F64(v) => serializer.serialize_f64(v),
        }
    }
}

impl Serialize for Map {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (key, value) in self.iter() {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Number(n) => n.serialize(serializer),
            Value::String(s) => serializer.serialize_str(s),
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Object(map) => map.serialize(serializer),
        }
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(Number::from_i64(v)))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(Number::from_u64(v)))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Number(Number::from_f64(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.into()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        Value::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut members = Vec::with_capacity(access.size_hint().unwrap_or(0).min(4096));
        while let Some(member) = access.next_entry::<String, Value>()? {
            members.push(member);
        }
        Ok(Value::Object(Map::from_members(members)))
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

impl<'de> Deserialize<'de> for Map {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Map, D::Error> {
        match Value::deserialize(deserializer)? {
            Value::Object(map) => Ok(map),
            other => Err(de::Error::invalid_type(
                de::Unexpected::Other(other.type_name()),
                &"a JSON object",
            )),
        }
    }
}

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Number, D::Error> {
        match Value::deserialize(deserializer)? {
            Value::Number(number) => Ok(number),
            other => Err(de::Error::invalid_type(
                de::Unexpected::Other(other.type_name()),
                &"a JSON number",
            )),
        }
    }
}

impl From<serde_json::Value> for Value {
    /// Exact: serde_json numbers are u64, i64 or finite f64, as ours; member order is
    /// serde_json's map order.
    fn from(value: serde_json::Value) -> Value {
        match value {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(b),
            serde_json::Value::Number(n) => Value::Number(match (n.as_u64(), n.as_i64()) {
                (Some(v), _) => Number::from_u64(v),
                (None, Some(v)) => Number::from_i64(v),
                _ => Number::from_f64(n.as_f64().unwrap_or(f64::NAN)),
            }),
            serde_json::Value::String(s) => Value::String(s),
            serde_json::Value::Array(items) => {
                Value::Array(items.into_iter().map(Value::from).collect())
            }
            serde_json::Value::Object(map) => Value::Object(
                map.into_iter()
                    .map(|(key, value)| (key, Value::from(value)))
                    .collect(),
            ),
        }
    }
}

impl TryFrom<Value> for serde_json::Value {
    type Error = Error;

    /// Fails with `NON_FINITE_NUMBER` on NaN or ±Infinity, which serde_json cannot hold;
    /// literal numbers become the integer or double their text spells.
    fn try_from(value: Value) -> Result<serde_json::Value, Error> {
        Ok(match value {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(b),
            Value::Number(n) => serde_json::Value::Number(match kind(&n) {
                Kind::U64(v) => v.into(),
                Kind::I64(v) => v.into(),
                Kind::F64(v) => serde_json::Number::from_f64(v).ok_or_else(|| {
                    Error::new(
                        ErrorKind::NonFiniteNumber,
                        alloc::format!("{v} has no JSON form"),
                    )
                })?,
            }),
            Value::String(s) => serde_json::Value::String(s),
            Value::Array(items) => serde_json::Value::Array(
                items
                    .into_iter()
                    .map(serde_json::Value::try_from)
                    .collect::<Result<_, _>>()?,
            ),
            Value::Object(map) => serde_json::Value::Object(
                map.into_iter()
                    .map(|(key, value)| Ok((key, serde_json::Value::try_from(value)?)))
                    .collect::<Result<_, Error>>()?,
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_their_kind_both_ways() {
        let ours =
            crate::json::parse(r#"[18446744073709551615,-9223372036854775808,1.5,1e400]"#).unwrap();
        let text = serde_json::to_string(&ours).unwrap();
        // serde_json writes a non-finite double as null.
        assert_eq!(text, "[18446744073709551615,-9223372036854775808,1.5,null]");
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back.as_array().unwrap()[..3], ours.as_array().unwrap()[..3]);
        let e = serde_json::Value::try_from(ours).unwrap_err();
        assert_eq!(e.code(), "NON_FINITE_NUMBER");
    }

    #[test]
    fn literal_numbers_become_what_they_spell() {
        let options = crate::json::ParseOptions {
            literal_numbers: true,
            ..Default::default()
        };
        let ours = crate::json::parse_with("[1.0,7,-2]", &options).unwrap();
        let theirs = serde_json::Value::try_from(ours).unwrap();
        assert_eq!(theirs, serde_json::json!([1.0, 7, -2]));
    }

    #[test]
    fn object_members_keep_their_order_when_serialized() {
        let ours = crate::json::parse(r#"{"b":1,"a":{"d":null,"c":true}}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&ours).unwrap(),
            r#"{"b":1,"a":{"d":null,"c":true}}"#
        );
    }
}
