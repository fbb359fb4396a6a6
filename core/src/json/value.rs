use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::Result;
use crate::text::{indices, same_text, sort_by_text};

/// A JSON value in the "typed" number model: integers that fit 64 bits stay exact, every other
/// number is an `f64`. Object members keep their input order.
///
/// ```
/// use agentwire::json::{self, Map, Number, Value};
/// let mut map = Map::new();
/// map.insert("id".into(), Value::Number(Number::from_u64(7)));
/// map.insert("tags".into(), Value::Array(vec!["a".into()]));
/// let value = Value::Object(map);
/// assert_eq!(value, json::parse(r#"{"id":7,"tags":["a"]}"#)?);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Value {
    /// `null`
    #[default]
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object, members in input order, keys unique.
    Object(Map),
}

impl Value {
    /// The JSON type name, for error messages.
    ///
    /// ```
    /// use agentwire::json::Value;
    /// assert_eq!(Value::Null.type_name(), "null");
    /// assert_eq!(agentwire::json::parse("{}")?.type_name(), "object");
    /// assert_eq!(Value::from(true).type_name(), "boolean");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }

    /// The string, if this is one.
    ///
    /// ```
    /// use agentwire::json::Value;
    /// assert_eq!(Value::from("fs").as_str(), Some("fs"));
    /// assert_eq!(Value::Bool(true).as_str(), None);
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The array, if this is one.
    ///
    /// ```
    /// let value = agentwire::json::parse("[1, 2, 3]")?;
    /// assert_eq!(value.as_array().map(<[_]>::len), Some(3));
    /// assert_eq!(agentwire::json::Value::Null.as_array(), None);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The object, if this is one.
    ///
    /// ```
    /// let value = agentwire::json::parse(r#"{"b": 1, "a": 2}"#)?;
    /// let keys: Vec<&str> = value.as_object().unwrap().keys().collect();
    /// assert_eq!(keys, ["b", "a"]);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// `self[key]` for objects; `None` for other types or a missing key.
    ///
    /// ```
    /// let value = agentwire::json::parse(r#"{"tool": {"name": "grep"}}"#)?;
    /// let name = value.get("tool").and_then(|t| t.get("name")).and_then(|n| n.as_str());
    /// assert_eq!(name, Some("grep"));
    /// assert_eq!(value.get("missing"), None);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_object().and_then(|m| m.get(key))
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.into())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<Number> for Value {
    fn from(n: Number) -> Value {
        Value::Number(n)
    }
}

/// A JSON number: an exact 64-bit integer, a double, or (when parsed with
/// [`ParseOptions::literal_numbers`](super::ParseOptions::literal_numbers)) its source text.
///
/// ```
/// use agentwire::json::{self, Value};
/// let value = json::parse("[3, -3, 3.0, 1e400]")?;
/// let numbers: Vec<_> = value.as_array().unwrap().iter().map(|v| match v { Value::Number(n) => n, _ => unreachable!() }).collect();
/// assert_eq!(numbers[0].as_u64(), Some(3));
/// assert_eq!(numbers[1].as_i64(), Some(-3));
/// // `3.0` is a double, not an integer; out-of-range text is +Infinity.
/// assert!(!numbers[2].is_integer() && numbers[3].is_non_finite());
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, PartialEq)]
pub struct Number(N);

#[derive(Clone, PartialEq)]
enum N {
    PosInt(u64),
    NegInt(i64),
    Float(f64),
    /// Source text kept verbatim (Go `json.Number`).
    Literal(Box<str>),
}

impl Number {
    /// An unsigned integer.
    ///
    /// ```
    /// use agentwire::json::Number;
    /// let n = Number::from_u64(u64::MAX);
    /// assert_eq!((n.as_u64(), n.as_i64()), (Some(u64::MAX), None));
    /// ```
    pub fn from_u64(v: u64) -> Number {
        Number(N::PosInt(v))
    }

    /// A signed integer.
    ///
    /// ```
    /// use agentwire::json::Number;
    /// assert_eq!(Number::from_i64(-5).as_i64(), Some(-5));
    /// // Non-negative values are the same number as from `from_u64`.
    /// assert_eq!(Number::from_i64(5), Number::from_u64(5));
    /// ```
    pub fn from_i64(v: i64) -> Number {
        if v >= 0 {
            Number(N::PosInt(v as u64))
        } else {
            Number(N::NegInt(v))
        }
    }

    /// A double, kept as a double (non-finite values are representable here so that encoders
    /// can report them the way the references do).
    ///
    /// ```
    /// use agentwire::json::Number;
    /// let n = Number::from_f64(2.0);
    /// assert_eq!((n.as_f64(), n.is_integer(), n.as_i64()), (2.0, false, None));
    /// assert!(Number::from_f64(f64::NAN).is_non_finite());
    /// ```
    pub fn from_f64(v: f64) -> Number {
        Number(N::Float(v))
    }

    /// A number kept as its source text (Go `json.Number`), printed verbatim. `None` unless
    /// `text` is a JSON number.
    ///
    /// ```
    /// use agentwire::json::Number;
    /// let n = Number::from_literal("12345678901234567890123").unwrap();
    /// assert_eq!(n.as_literal(), Some("12345678901234567890123"));
    /// assert!(Number::from_literal("0x1F").is_none());
    /// ```
    pub fn from_literal(text: &str) -> Option<Number> {
        super::parse::is_json_number(text).then(|| Number(N::Literal(text.into())))
    }

    /// The source text, for a number parsed with literal numbers.
    ///
    /// ```
    /// use agentwire::json::{self, Number, ParseOptions, Value};
    /// let options = ParseOptions { literal_numbers: true, ..ParseOptions::default() };
    /// let Value::Number(n) = json::parse_with("1.0e2", &options)? else { unreachable!() };
    /// assert_eq!(n.as_literal(), Some("1.0e2"));
    /// assert_eq!(Number::from_u64(1).as_literal(), None);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn as_literal(&self) -> Option<&str> {
        match &self.0 {
            N::Literal(text) => Some(text),
            _ => None,
        }
    }

    /// The value as i64, if it is an integer in range (not for literal numbers).
    ///
    /// ```
    /// use agentwire::json::Number;
    /// assert_eq!(Number::from_u64(42).as_i64(), Some(42));
    /// assert_eq!(Number::from_u64(u64::MAX).as_i64(), None);
    /// assert_eq!(Number::from_f64(42.0).as_i64(), None);
    /// ```
    pub fn as_i64(&self) -> Option<i64> {
        match self.0 {
            N::PosInt(v) => i64::try_from(v).ok(),
            N::NegInt(v) => Some(v),
            N::Float(_) | N::Literal(_) => None,
        }
    }

    /// The value as u64, if it is a non-negative integer.
    ///
    /// ```
    /// use agentwire::json::Number;
    /// assert_eq!(Number::from_i64(7).as_u64(), Some(7));
    /// assert_eq!(Number::from_i64(-7).as_u64(), None);
    /// ```
    pub fn as_u64(&self) -> Option<u64> {
        match &self.0 {
            N::PosInt(v) => Some(*v),
            _ => None,
        }
    }

    /// The value as f64 (integers and literals are converted, possibly rounding).
    ///
    /// ```
    /// use agentwire::json::Number;
    /// assert_eq!(Number::from_i64(-2).as_f64(), -2.0);
    /// assert_eq!(Number::from_literal("2.5e1").unwrap().as_f64(), 25.0);
    /// ```
    pub fn as_f64(&self) -> f64 {
        match &self.0 {
            N::PosInt(v) => *v as f64,
            N::NegInt(v) => *v as f64,
            N::Float(v) => *v,
            N::Literal(text) => text.parse().unwrap_or(f64::NAN),
        }
    }

    /// True when this is an exact 64-bit integer (not a double or a literal).
    ///
    /// ```
    /// use agentwire::json::Number;
    /// assert!(Number::from_u64(1).is_integer());
    /// assert!(!Number::from_f64(1.0).is_integer());
    /// assert!(!Number::from_literal("1").unwrap().is_integer());
    /// ```
    pub fn is_integer(&self) -> bool {
        matches!(self.0, N::PosInt(_) | N::NegInt(_))
    }

    /// True when this is a double that is NaN or ±Infinity.
    ///
    /// ```
    /// use agentwire::json::Number;
    /// assert!(Number::from_f64(f64::NEG_INFINITY).is_non_finite());
    /// assert!(!Number::from_f64(1e308).is_non_finite());
    /// ```
    pub fn is_non_finite(&self) -> bool {
        matches!(self.0, N::Float(v) if !v.is_finite())
    }

    /// Appends the Go `encoding/json` text (integers in decimal, doubles by the ES rule,
    /// literals verbatim).
    ///
    /// ```
    /// use agentwire::json::Number;
    /// let mut out = String::new();
    /// Number::from_f64(1e-7).write_json(&mut out)?;
    /// out.push(',');
    /// Number::from_i64(-12).write_json(&mut out)?;
    /// assert_eq!(out, "1e-7,-12");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn write_json(&self, out: &mut String) -> Result<()> {
        match &self.0 {
            N::PosInt(v) => crate::num::write_u64(out, *v),
            N::NegInt(v) => crate::num::write_i64(out, *v),
            N::Float(v) => crate::num::write_json_f64(out, *v)?,
            N::Literal(text) => out.push_str(text),
        }
        Ok(())
    }
}

impl fmt::Debug for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            N::PosInt(v) => write!(f, "{v}"),
            N::NegInt(v) => write!(f, "{v}"),
            N::Float(v) => write!(f, "{v:?}"),
            N::Literal(text) => f.write_str(text),
        }
    }
}

/// JSON object members in input order, with unique keys.
///
/// ```
/// use agentwire::json::{Map, Value};
/// let map: Map = [("b".to_string(), Value::from(true)), ("a".to_string(), Value::Null)].into_iter().collect();
/// assert_eq!(map.keys().collect::<Vec<_>>(), ["b", "a"]);
/// assert_eq!(map.get("b"), Some(&Value::Bool(true)));
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Map {
    entries: Vec<(String, Value)>,
}

impl Map {
    /// An empty map.
    ///
    /// ```
    /// let map = agentwire::json::Map::new();
    /// assert!(map.is_empty());
    /// ```
    pub fn new() -> Map {
        Map::default()
    }

    /// Builds a map from members that may repeat a key: the last value wins and keeps the
    /// position of the first occurrence (JavaScript `JSON.parse` semantics).
    ///
    /// ```
    /// use agentwire::json::{Map, Value};
    /// let map = Map::from_members(vec![
    ///     ("a".into(), Value::from("first")),
    ///     ("b".into(), Value::Null),
    ///     ("a".into(), Value::from("last")),
    /// ]);
    /// assert_eq!(map.iter().collect::<Vec<_>>(), [("a", &Value::from("last")), ("b", &Value::Null)]);
    /// ```
    pub fn from_members(mut entries: Vec<(String, Value)>) -> Map {
        if has_duplicate_keys(&entries) {
            let mut unique: Vec<(String, Value)> = Vec::with_capacity(entries.len());
            let mut index: BTreeMap<String, usize> = BTreeMap::new();
            for (key, value) in entries.drain(..) {
                match index.get(&key) {
                    Some(&i) => unique[i].1 = value,
                    None => {
                        index.insert(key.clone(), unique.len());
                        unique.push((key, value));
                    }
                }
            }
            entries = unique;
        }
        Map { entries }
    }

    /// Members whose keys the caller knows to be unique (no check outside debug builds).
    pub(crate) fn from_unique(entries: Vec<(String, Value)>) -> Map {
        debug_assert!(!has_duplicate_keys(&entries));
        Map { entries }
    }

    /// Inserts or replaces `key` (a replaced key keeps its position). Linear in the number of
    /// members: build large maps with [`Map::from_members`].
    ///
    /// ```
    /// use agentwire::json::{Map, Value};
    /// let mut map = Map::new();
    /// map.insert("x".into(), Value::from(true));
    /// map.insert("y".into(), Value::Null);
    /// map.insert("x".into(), Value::from(false));
    /// assert_eq!(map.keys().collect::<Vec<_>>(), ["x", "y"]);
    /// assert_eq!(map.get("x"), Some(&Value::Bool(false)));
    /// ```
    pub fn insert(&mut self, key: String, value: Value) {
        match self.entries.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => self.entries.push((key, value)),
        }
    }

    /// The value of `key`.
    ///
    /// ```
    /// let value = agentwire::json::parse(r#"{"limit": 10}"#)?;
    /// let map = value.as_object().unwrap();
    /// assert_eq!(map.get("limit").map(|v| v.type_name()), Some("number"));
    /// assert_eq!(map.get("offset"), None);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entries
            .iter()
            .find(|(k, _)| same_text(k, key))
            .map(|(_, v)| v)
    }

    /// Number of members.
    ///
    /// ```
    /// let value = agentwire::json::parse(r#"{"a": 1, "b": 2, "a": 3}"#)?;
    /// assert_eq!(value.as_object().unwrap().len(), 2);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there are no members.
    ///
    /// ```
    /// let value = agentwire::json::parse("{}")?;
    /// assert!(value.as_object().unwrap().is_empty());
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Members in input order, as a slice (for walks that keep an iterator per level).
    pub(crate) fn entries(&self) -> &[(String, Value)] {
        &self.entries
    }

    /// Members in input order.
    ///
    /// ```
    /// let value = agentwire::json::parse(r#"{"z": "last", "a": "first"}"#)?;
    /// let members: Vec<String> = value.as_object().unwrap().iter().map(|(k, v)| format!("{k}={}", v.as_str().unwrap())).collect();
    /// assert_eq!(members, ["z=last", "a=first"]);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The values, mutable, in member order (keys stay as they are).
    ///
    /// ```
    /// use agentwire::json::{self, Value};
    /// let Value::Object(mut map) = json::parse(r#"{"a": 1, "b": "x"}"#)? else { unreachable!() };
    /// for value in map.values_mut() {
    ///     *value = Value::Null;
    /// }
    /// assert_eq!(Value::Object(map), json::parse(r#"{"a": null, "b": null}"#)?);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Value> {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    /// Keys in input order.
    ///
    /// ```
    /// let value = agentwire::json::parse(r#"{"id": 1, "name": "x"}"#)?;
    /// assert_eq!(value.as_object().unwrap().keys().collect::<Vec<_>>(), ["id", "name"]);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(k, _)| k.as_str())
    }

    /// Members sorted by key bytes (Go's `sort.Strings`, not UTF-16 order).
    ///
    /// ```
    /// let value = agentwire::json::parse(r#"{"b": 1, "a": 2, "B": 3, "é": 4}"#)?;
    /// let keys: Vec<&str> = value.as_object().unwrap().sorted().into_iter().map(|(k, _)| k).collect();
    /// // Byte order: upper case before lower case, non-ASCII last.
    /// assert_eq!(keys, ["B", "a", "b", "é"]);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn sorted(&self) -> Vec<(&str, &Value)> {
        let mut order = indices(self.entries.len());
        sort_by_text(&mut order, &|i| &self.entries[i].0);
        order
            .iter()
            .map(|&i| {
                let (key, value) = &self.entries[i as usize];
                (key.as_str(), value)
            })
            .collect()
    }
}

fn has_duplicate_keys(entries: &[(String, Value)]) -> bool {
    duplicate_key(entries).is_some()
}

/// A key that `entries` repeat.
pub(super) fn duplicate_key(entries: &[(String, Value)]) -> Option<&str> {
    if entries.len() < 2 {
        return None;
    }
    if entries.len() <= 16 {
        return entries
            .iter()
            .enumerate()
            .find(|(i, (k, _))| entries[..*i].iter().any(|(other, _)| other == k))
            .map(|(_, (k, _))| k.as_str());
    }
    let mut order = indices(entries.len());
    sort_by_text(&mut order, &|i| &entries[i].0);
    order
        .windows(2)
        .find(|w| entries[w[0] as usize].0 == entries[w[1] as usize].0)
        .map(|w| entries[w[0] as usize].0.as_str())
}

impl FromIterator<(String, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Map {
        Map::from_members(iter.into_iter().collect())
    }
}

impl IntoIterator for Map {
    type Item = (String, Value);
    type IntoIter = alloc::vec::IntoIter<(String, Value)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}
