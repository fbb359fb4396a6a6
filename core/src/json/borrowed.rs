//! A JSON value whose strings may be borrowed: what a reader of a JSON form takes when the
//! value was not built as a [`Value`] (agentwire-bindings reads JS arguments into it without
//! copying their strings).

use alloc::borrow::Cow;
use alloc::vec::Vec;

use super::{Number, Value};

/// A JSON value with borrowed (or owned) strings; object members keep their order.
///
/// ```
/// use agentwire::json::{self, BorrowedValue};
/// let value = json::parse(r#"{"a":[1,"x"]}"#)?;
/// let view = BorrowedValue::of(&value);
/// assert_eq!(view.get("a").map(BorrowedValue::type_name), Some("array"));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum BorrowedValue<'a> {
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string.
    String(Cow<'a, str>),
    /// An array.
    Array(Vec<BorrowedValue<'a>>),
    /// An object's members, in order.
    Object(Vec<(Cow<'a, str>, BorrowedValue<'a>)>),
}

impl<'a> BorrowedValue<'a> {
    /// A view of a value, its strings borrowed.
    ///
    /// ```
    /// use agentwire::json::{BorrowedValue, Value};
    /// let value = Value::from("text");
    /// assert!(matches!(BorrowedValue::of(&value), BorrowedValue::String(s) if s == "text"));
    /// ```
    pub fn of(value: &'a Value) -> BorrowedValue<'a> {
        match value {
            Value::Null => BorrowedValue::Null,
            Value::Bool(b) => BorrowedValue::Bool(*b),
            Value::Number(n) => BorrowedValue::Number(n.clone()),
            Value::String(s) => BorrowedValue::String(Cow::Borrowed(s)),
            Value::Array(items) => BorrowedValue::Array(items.iter().map(Self::of).collect()),
            Value::Object(map) => BorrowedValue::Object(
                map.iter()
                    .map(|(k, v)| (Cow::Borrowed(k), Self::of(v)))
                    .collect(),
            ),
        }
    }

    /// The JSON type name, for messages (as [`Value::type_name`]).
    ///
    /// ```
    /// use agentwire::json::BorrowedValue;
    /// assert_eq!(BorrowedValue::Null.type_name(), "null");
    /// ```
    pub fn type_name(&self) -> &'static str {
        match self {
            BorrowedValue::Null => "null",
            BorrowedValue::Bool(_) => "boolean",
            BorrowedValue::Number(_) => "number",
            BorrowedValue::String(_) => "string",
            BorrowedValue::Array(_) => "array",
            BorrowedValue::Object(_) => "object",
        }
    }

    /// An object's member.
    ///
    /// ```
    /// use agentwire::json::{self, BorrowedValue};
    /// let value = json::parse(r#"{"k":true}"#)?;
    /// assert_eq!(BorrowedValue::of(&value).get("k"), Some(&BorrowedValue::Bool(true)));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn get(&self, key: &str) -> Option<&BorrowedValue<'a>> {
        match self {
            BorrowedValue::Object(members) => {
                members.iter().find(|(k, _)| k == key).map(|(_, v)| v)
            }
            _ => None,
        }
    }
}
