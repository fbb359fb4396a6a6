//! A JSON value read in document order, one value at a time, without building a tree: how the
//! typed JSON forms (the GCF graph payload) read their input, from a [`BorrowedValue`] here and
//! straight from a JS argument tape in agentwire-bindings.

use alloc::borrow::Cow;

use super::{BorrowedValue, Number};
use crate::{Error, ErrorKind, Result};

/// The type of a JSON value.
///
/// ```
/// use agentwire::json::{self, BorrowedValue, Kind, TreeReader, ValueReader};
/// let value = json::parse("[1]")?;
/// let view = BorrowedValue::of(&value);
/// assert_eq!(TreeReader::new(&view).kind()?, Kind::Array);
/// # Ok::<(), agentwire::Error>(())
/// ```
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
    ///
    /// ```
    /// use agentwire::json::{self, BorrowedValue, Kind, TreeReader, ValueReader};
    /// let value = json::parse("null")?;
    /// let view = BorrowedValue::of(&value);
    /// let mut reader = TreeReader::new(&view);
    /// assert_eq!(reader.kind()?, Kind::Null);
    /// assert_eq!(reader.kind()?, Kind::Null); // still unread
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    fn kind(&mut self) -> Result<Kind>;

    /// Consumes the next value, whatever it is.
    ///
    /// ```
    /// use agentwire::json::{self, BorrowedValue, TreeReader, ValueReader};
    /// let value = json::parse(r#"{"skipped": [1, 2], "kept": "k"}"#)?;
    /// let view = BorrowedValue::of(&value);
    /// let mut kept = None;
    /// TreeReader::new(&view).object(&mut |r, key| {
    ///     if key == "kept" { kept = r.string()?.map(|s| s.into_owned()); Ok(()) } else { r.skip() }
    /// })?;
    /// assert_eq!(kept.as_deref(), Some("k"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    fn skip(&mut self) -> Result<()>;

    /// Consumes the next value: `Some` for a string, `None` (and skipped) for any other value.
    ///
    /// ```
    /// use agentwire::json::{self, BorrowedValue, TreeReader, ValueReader};
    /// let value = json::parse(r#""text""#)?;
    /// let view = BorrowedValue::of(&value);
    /// assert_eq!(TreeReader::new(&view).string()?.as_deref(), Some("text"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    fn string(&mut self) -> Result<Option<Cow<'a, str>>>;

    /// Consumes the next value: `Some` for a number, `None` (and skipped) for any other value.
    ///
    /// ```
    /// use agentwire::json::{self, BorrowedValue, TreeReader, ValueReader};
    /// let value = json::parse("true")?;
    /// let view = BorrowedValue::of(&value);
    /// assert_eq!(TreeReader::new(&view).number()?, None); // a boolean, consumed
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    fn number(&mut self) -> Result<Option<Number>>;

    /// Consumes the next value, an array: `item` reads each item, with its index. Anything
    /// else is skipped without a call.
    ///
    /// ```
    /// use agentwire::json::{self, BorrowedValue, TreeReader, ValueReader};
    /// let value = json::parse(r#"["a", 7, "b"]"#)?;
    /// let view = BorrowedValue::of(&value);
    /// let mut strings = Vec::new();
    /// TreeReader::new(&view).array(&mut |r, _| {
    ///     strings.extend(r.string()?.map(|s| s.into_owned()));
    ///     Ok(())
    /// })?;
    /// assert_eq!(strings, ["a", "b"]);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    fn array(&mut self, item: &mut dyn FnMut(&mut Self, usize) -> Result<()>) -> Result<()>;

    /// Consumes the next value, an object: `member` reads each member's value, with its key, in
    /// order. Anything else is skipped without a call.
    ///
    /// ```
    /// use agentwire::json::{self, BorrowedValue, TreeReader, ValueReader};
    /// let value = json::parse(r#"{"b": 1, "a": 2}"#)?;
    /// let view = BorrowedValue::of(&value);
    /// let mut keys = Vec::new();
    /// TreeReader::new(&view).object(&mut |r, key| {
    ///     keys.push(key.to_string());
    ///     r.skip()
    /// })?;
    /// assert_eq!(keys, ["b", "a"]); // in order
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    fn object(&mut self, member: &mut dyn FnMut(&mut Self, &str) -> Result<()>) -> Result<()>;
}

/// A [`ValueReader`] over a [`BorrowedValue`] tree.
///
/// ```
/// use agentwire::json::{self, BorrowedValue, TreeReader, ValueReader};
/// let value = json::parse("2.5")?;
/// let view = BorrowedValue::of(&value);
/// assert_eq!(TreeReader::new(&view).number()?.map(|n| n.as_f64()), Some(2.5));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Debug)]
pub struct TreeReader<'v, 'a> {
    next: Option<&'v BorrowedValue<'a>>,
}

impl<'v, 'a> TreeReader<'v, 'a> {
    /// A reader of `value`.
    ///
    /// ```
    /// use agentwire::json::{self, BorrowedValue, Kind, TreeReader, ValueReader};
    /// let value = json::parse("{}")?;
    /// let view = BorrowedValue::of(&value);
    /// assert_eq!(TreeReader::new(&view).kind()?, Kind::Object);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
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
