//! agentwire's own JSON shapes of the core types: what the CLI reads and writes and what the JS
//! API takes and returns (camelCase DTOs, options objects, GCX1 section documents), and the
//! JavaScript number policy.
//!
//! The core types are foreign to this crate, so their shapes are the [`FromValue`] and
//! [`ToValue`] traits (bring them into scope to call `Payload::from_value(&v)` or
//! `payload.to_value()`), plus free functions where a shape is not one type's (GCX1 documents,
//! rows and cells in [`gcx`]). Every reader fails with `INVALID_ARGUMENT` and a message that
//! names the place.
//!
//! - [`gcx`]: sections as JSON documents, encode/tool/decode options, [`gcx::layout`] and
//!   [`gcx::scope`].
//! - [`gcf`]: the graph payload, its deltas, decode options, the `json` codec, and the keyed
//!   sets and generic deltas of GCF v3.5.3 ([`gcf::keyed`]).
//! - [`gateway`]: the schema check result a JS validator returns.
//! - [`number`]: how JavaScript numbers and BigInts become JSON numbers.
//!
//! ```
//! use agentwire::gcf::Payload;
//! use agentwire::json::{self, WriteOptions};
//! use agentwire_bindings::{FromValue, ToValue};
//! let value = json::parse(r#"{"tool":"t","symbols":[{"qualifiedName":"a","kind":"function"}]}"#)?;
//! let payload = Payload::from_value(&value)?;
//! assert_eq!(payload.symbols[0].qualified_name, "a");
//! let text = json::to_string(&payload.to_value(), WriteOptions::PLAIN)?;
//! assert!(text.starts_with(r#"{"tool":"t","tokenBudget":0,"tokensUsed":0,"packRoot":"""#));
//! # Ok::<(), agentwire::Error>(())
//! ```

use agentwire::json::Value;
use agentwire::Result;

pub mod events;
pub mod gateway;
pub mod gcf;
pub mod gcx;
pub mod number;

/// Reads a core type from its JSON shape.
pub trait FromValue: Sized {
    /// The value `value` describes, or `INVALID_ARGUMENT` naming what is wrong.
    fn from_value(value: &Value) -> Result<Self>;
}

/// Writes a core type as its JSON shape (the one [`FromValue`] reads, where both exist).
pub trait ToValue {
    /// The JSON shape of `self`.
    fn to_value(&self) -> Value;
}
