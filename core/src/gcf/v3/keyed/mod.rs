//! Generic-profile keyed sets and their delta protocol (SPEC §10a): the canonical pack root,
//! full / delta / unchanged payloads, atomic delta application, and a producer session that
//! re-anchors on a policy.
//!
//! A [`KeyedSet`] is a flat table with one identity column: every cell is a scalar (null,
//! boolean, number, string), the identity values are unique, and row order carries no meaning
//! (set semantics). A nested value in a row is [`ErrorKind::InvalidArgument`] when encoding and
//! an attachment-marker / missing-marker error when decoding: the canonical pack root has no
//! form for nested values or absent fields, so keyed sets do not carry them.
//!
//! ```
//! use agentwire::gcf::v3::keyed::{self, KeyedSet};
//! use agentwire::json::{Number, Value};
//! let row = |id: i64, status: &str| vec![Value::from(Number::from_i64(id)), status.into()];
//! let mut base = KeyedSet::new("orders", "id", vec!["id".into(), "status".into()]);
//! base.rows = vec![row(1, "open"), row(2, "open")];
//! let mut current = base.clone();
//! current.rows[1][1] = "shipped".into();
//! let delta = keyed::diff(&base, &current)?;
//! let wire = keyed::encode_delta(&delta)?;
//! assert!(wire.ends_with("## changed [1]{@id,status}\n2|shipped\n"));
//! // The consumer decodes the delta and applies it atomically to the base it holds.
//! let payload = keyed::decode_keyed(&wire)?;
//! assert_eq!(payload.apply_to(Some(&base))?.pack_root()?, current.pack_root()?);
//! # Ok::<(), agentwire::Error>(())
//! ```

use alloc::string::String;
#[cfg(test)]
use alloc::string::ToString;
use alloc::vec::Vec;

use crate::json::Value;
use crate::{Error, ErrorKind, Result};

mod apply;
mod decode;
mod encode;
mod json_form;
mod root;
mod session;

pub use apply::{apply_delta, diff};
pub(crate) use decode::decode_delta;
pub use decode::{KeyedPayload, decode_keyed};
pub use encode::{encode_delta, encode_full, encode_unchanged, savings_percent};
pub use root::{canonical_records, pack_root};
pub use session::{
    DEFAULT_REANCHOR_TURNS, DeltaSession, Emission, PayloadKind, ReanchorPolicy,
    SIZE_GUARD_PERCENT, respond,
};

/// A keyed set: a flat table whose identity column (`key`) is unique (SPEC §10a.1).
///
/// Rows hold one cell per entry of `fields`, in that order; cells are scalars. Every operation
/// checks these invariants and reports a violation as [`ErrorKind::InvalidArgument`].
///
/// ```
/// use agentwire::gcf::v3::keyed::{self, KeyedSet};
/// use agentwire::ErrorKind;
/// let set = KeyedSet {
///     name: "users".into(),
///     key: "id".into(),
///     fields: vec!["id".into(), "role".into()],
///     rows: vec![vec!["ada".into(), "admin".into()], vec!["bo".into(), "dev".into()]],
/// };
/// let wire = keyed::encode_full(&set, None)?;
/// assert!(wire.ends_with(" key=id\n## users [2]{@id,role}\nada|admin\nbo|dev\n"));
/// // Identity values must be unique.
/// let mut twice = set.clone();
/// twice.rows.push(vec!["ada".into(), "dev".into()]);
/// assert_eq!(keyed::encode_full(&twice, None).unwrap_err().kind(), ErrorKind::InvalidArgument);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct KeyedSet {
    /// The table name of the full payload (`## <name> [N]{…}`); empty writes `rows`.
    pub name: String,
    /// The identity field: `key=` in the header, `@`-marked in the declaration.
    pub key: String,
    /// The declared columns in wire order, identity field included.
    pub fields: Vec<String>,
    /// The rows: cells in `fields` order.
    pub rows: Vec<Vec<Value>>,
}

/// A generic delta (SPEC §10a.2): what turns the set with root `base_root` into the set with
/// root `new_root`.
///
/// [`diff`] builds one, [`encode_delta`] writes it, [`decode_keyed`] reads it back and
/// [`apply_delta`] (or [`KeyedSet::apply`]) applies it.
///
/// ```
/// use agentwire::gcf::v3::keyed::{self, KeyedSet};
/// use agentwire::json::Value;
/// let mut base = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
/// base.rows = vec![vec!["ada".into(), "dev".into()], vec!["bo".into(), "dev".into()]];
/// let mut current = base.clone();
/// current.rows[0][1] = "admin".into();
/// current.rows.remove(1);
/// current.rows.push(vec!["cy".into(), "ops".into()]);
/// let delta = keyed::diff(&base, &current)?;
/// assert_eq!(delta.added, [vec![Value::from("cy"), "ops".into()]]);
/// assert_eq!(delta.changed, [vec![Value::from("ada"), "admin".into()]]);
/// assert_eq!(delta.removed, [Value::from("bo")]);
/// assert_eq!((delta.base_root, delta.new_root), (base.pack_root()?, current.pack_root()?));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GenericDelta {
    /// `tool=`, the producing tool.
    pub tool: Option<String>,
    /// The identity field.
    pub key: String,
    /// The columns of the `added` / `changed` rows (identity included); may be empty when
    /// there are no such rows.
    pub fields: Vec<String>,
    /// The root the delta applies to.
    pub base_root: String,
    /// The root of the set after the delta.
    pub new_root: String,
    /// Rows whose identity is not in the base (cells in `fields` order).
    pub added: Vec<Vec<Value>>,
    /// Rows replacing the base row with the same identity (cells in `fields` order).
    pub changed: Vec<Vec<Value>>,
    /// Identity values to delete.
    pub removed: Vec<Value>,
    /// `savings=`, e.g. `81%` (see [`savings_percent`]).
    pub savings: Option<String>,
}

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidArgument, message)
}

impl KeyedSet {
    /// An empty set with the given name, identity field and columns.
    ///
    /// ```
    /// use agentwire::gcf::v3::keyed::{self, KeyedSet};
    /// let set = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
    /// assert_eq!((set.name.as_str(), set.key.as_str(), set.len()), ("users", "id", 0));
    /// let wire = keyed::encode_full(&set, None)?;
    /// assert!(wire.ends_with(" key=id\n## users [0]{@id,role}\n"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn new(name: impl Into<String>, key: impl Into<String>, fields: Vec<String>) -> KeyedSet {
        KeyedSet {
            name: name.into(),
            key: key.into(),
            fields,
            rows: Vec::new(),
        }
    }

    /// Number of rows.
    ///
    /// ```
    /// use agentwire::gcf::v3::keyed::KeyedSet;
    /// let mut set = KeyedSet::new("users", "id", vec!["id".into()]);
    /// set.rows.push(vec!["ada".into()]);
    /// set.rows.push(vec!["bo".into()]);
    /// assert_eq!(set.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// True when the set has no rows.
    ///
    /// ```
    /// use agentwire::gcf::v3::keyed::KeyedSet;
    /// let mut set = KeyedSet::new("users", "id", vec!["id".into()]);
    /// assert!(set.is_empty());
    /// set.rows.push(vec!["ada".into()]);
    /// assert!(!set.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The canonical `gcf-pack-root-v1` root of the set (SPEC §10a.3).
    ///
    /// Row order and column order do not change the root; any cell does.
    ///
    /// ```
    /// use agentwire::gcf::v3::keyed::KeyedSet;
    /// let mut set = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
    /// set.rows = vec![vec!["ada".into(), "admin".into()], vec!["bo".into(), "dev".into()]];
    /// let root = set.pack_root()?;
    /// let hex = "e90d354a2fe5713df4965c9fd1a6899d26fd3922db6ec3ab1f9f278b35be1359";
    /// assert_eq!(root, format!("sha256:{hex}"));
    /// let mut reordered = set.clone();
    /// reordered.rows.reverse();
    /// assert_eq!(reordered.pack_root()?, root);
    /// set.rows[1][1] = "ops".into();
    /// assert_ne!(set.pack_root()?, root);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn pack_root(&self) -> Result<String> {
        pack_root(self)
    }

    /// The consumer side of SPEC §10a.5: applies `delta` atomically (see [`apply_delta`]).
    ///
    /// ```
    /// use agentwire::gcf::v3::keyed::{self, KeyedSet};
    /// let mut base = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
    /// base.rows = vec![vec!["ada".into(), "dev".into()], vec!["bo".into(), "dev".into()]];
    /// let mut current = base.clone();
    /// current.rows[1][1] = "ops".into();
    /// let delta = keyed::diff(&base, &current)?;
    /// assert_eq!(base.apply(&delta)?, current);
    /// // The delta is for `base` only: applied to another set it is a root mismatch.
    /// assert_eq!(current.apply(&delta).unwrap_err().code(), "GCF_ROOT_MISMATCH");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn apply(&self, delta: &GenericDelta) -> Result<KeyedSet> {
        apply_delta(self, delta)
    }
}

impl GenericDelta {
    /// True when the delta changes nothing.
    ///
    /// ```
    /// use agentwire::gcf::v3::keyed::{self, KeyedSet};
    /// let mut set = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
    /// set.rows = vec![vec!["ada".into(), "dev".into()], vec!["bo".into(), "dev".into()]];
    /// let mut reordered = set.clone();
    /// reordered.rows.reverse();
    /// assert!(keyed::diff(&set, &reordered)?.is_empty());
    /// let mut promoted = set.clone();
    /// promoted.rows[0][1] = "admin".into();
    /// assert!(!keyed::diff(&set, &promoted)?.is_empty());
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.changed.is_empty() && self.removed.is_empty()
    }
}

/// A keyed set from `{"name"?, "key", "fields", "rows": [{…}, …]}` JSON text, for unit tests:
/// rows are objects, a declared field a row lacks is null.
#[cfg(test)]
pub(crate) fn test_set(text: &str) -> KeyedSet {
    let value = crate::json::parse(text).unwrap();
    let string = |key: &str| {
        value
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let fields: Vec<String> = value
        .get("fields")
        .and_then(Value::as_array)
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    let rows = value
        .get("rows")
        .and_then(Value::as_array)
        .unwrap()
        .iter()
        .map(|row| {
            fields
                .iter()
                .map(|f| row.get(f).cloned().unwrap_or(Value::Null))
                .collect()
        })
        .collect();
    KeyedSet {
        name: string("name"),
        key: string("key"),
        fields,
        rows,
    }
}
