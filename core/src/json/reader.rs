//! A JSON value read in document order, one value at a time, without building a tree: how the
//! typed JSON forms (the GCF graph payload) read their input, from a [`BorrowedValue`] here and
//! straight from a JS argument tape in agentwire-bindings.

use alloc::borrow::Cow;

use super::{BorrowedValue, Number};
use crate::{Error, ErrorKind, Result};

/// The type of a JSON value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl Kind {
    /// The name error messages use (`"object"`, `"number"`, …), as
    /// [`BorrowedValue::type_name`] has it.
    ///
    /// ```
    /// use agentwire::json::Kind;
    /// assert_eq!(Kind::Array.name(), "array");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "boolean",
            Kind::Number => "number",
            Kind::String => "string",
            Kind::Array => "array",
            Kind::Object => "object",
        }
    }
}

/// Reads one JSON value in document order. Each method but [`kind`](Self::kind) consumes the
/// next value; the `array` and `object` callbacks must consume exactly one value each (the
/// item or the member's value), with `skip` when they do not want it.
///
/// An `Err` from a reader means its input is unusable (malformed, too deep): the caller stops.
///
/// ```
/// use agentwire::json::{self, BorrowedValue, Kind, TreeReader, ValueReader};
/// let value = json::parse(r#"{"a": [1, 2], "b": "x"}"#)?;
/// let view = BorrowedValue::of(&value);
/// let mut reader = TreeReader::new(&view);
/// let mut sum = 0.0;
/// reader.object(&mut |r, key| {
///     if key == "a" && r.kind()? == Kind::Array {
///         r.array(&mut |r, _| Ok(sum += r.number()?.map_or(0.0, |n| n.as_f64())))
///     } else {
///         r.skip()
///     }
/// })?;
/// assert_eq!(sum, 3.0);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub trait ValueReader<'a>: Sized {
    /// The type of the next value, which stays unread.
    fn kind(&mut self) -> Result<Kind>;

    /// Consumes the next value, whatever it is.
    fn skip(&mut self) -> Result<()>;

    /// Consumes the next value: `Some` for a string, `None` (and skipped) for any other value.
    fn string(&mut self) -> Result<Option<Cow<'a, str>>>;

    /// Consumes the next value: `Some` for a number, `None` (and skipped) for any other value.
    fn number(&mut self) -> Result<Option<Number>>;

    /// Consumes the next value, an array: `item` reads each item, with its index. Anything
    /// else is skipped without a call.
    fn array(&mut self, item: &mut dyn FnMut(&mut Self, usize) -> Result<()>) -> Result<()>;

    /// Consumes the next value, an object: `member` reads each member's value, with its key, in
    /// order. Anything else is skipped without a call.
    fn object(&mut self, member: &mut dyn FnMut(&mut Self, &str) -> Result<()>) -> Result<()>;
}

/// A [`ValueReader`] over a [`BorrowedValue`] tree.
#[derive(Debug)]
pub struct TreeReader<'v, 'a> {
    next: Option<&'v BorrowedValue<'a>>,
}

impl<'v, 'a> TreeReader<'v, 'a> {
    /// A reader of `value`.
    pub fn new(value: &'v BorrowedValue<'a>) -> TreeReader<'v, 'a> {
        TreeReader { next: Some(value) }
    }

    fn take(&mut self) -> Result<&'v BorrowedValue<'a>> {
        self.next
            .take()
            .ok_or_else(|| Error::new(ErrorKind::Internal, "read past the value"))
    }
}

impl<'a> ValueReader<'a> for TreeReader<'_, 'a> {
    fn kind(&mut self) -> Result<Kind> {
        Ok(match self.next {
            None => return Err(Error::new(ErrorKind::Internal, "read past the value")),
            Some(BorrowedValue::Null) => Kind::Null,
            Some(BorrowedValue::Bool(_)) => Kind::Bool,
            Some(BorrowedValue::Number(_)) => Kind::Number,
            Some(BorrowedValue::String(_)) => Kind::String,
            Some(BorrowedValue::Array(_)) => Kind::Array,
            Some(BorrowedValue::Object(_)) => Kind::Object,
        })
    }

    fn skip(&mut self) -> Result<()> {
        self.take().map(drop)
    }

    fn string(&mut self) -> Result<Option<Cow<'a, str>>> {
        Ok(match self.take()? {
            BorrowedValue::String(s) => Some(s.clone()),
            _ => None,
        })
    }

    fn number(&mut self) -> Result<Option<Number>> {
        Ok(match self.take()? {
            BorrowedValue::Number(n) => Some(n.clone()),
            _ => None,
        })
    }

    fn array(&mut self, item: &mut dyn FnMut(&mut Self, usize) -> Result<()>) -> Result<()> {
        if let BorrowedValue::Array(items) = self.take()? {
            for (i, value) in items.iter().enumerate() {
                self.next = Some(value);
                item(self, i)?;
            }
        }
        Ok(())
    }

    fn object(&mut self, member: &mut dyn FnMut(&mut Self, &str) -> Result<()>) -> Result<()> {
        if let BorrowedValue::Object(members) = self.take()? {
            for (key, value) in members {
                self.next = Some(value);
                member(self, key)?;
            }
        }
        Ok(())
    }
}
