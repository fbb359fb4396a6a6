//! The JSON-text API: every function takes and returns text (JSON for structured values), so a
//! host needs nothing but strings to use agentwire. The Node addon and the wasm modules are
//! thin shells over this module (one call across the boundary, no per-value conversions),
//! which is why both JavaScript builds behave identically; the CLI uses it too.
//!
//! Options are JSON objects (`""` means defaults); errors are [`Error`]s, which a host reports
//! with [`error_json`]. The shapes the functions read and write are [`crate::shapes`].

use agentwire::json::{self, Map, Number, Value, WriteOptions};
use agentwire::{Error, ErrorKind, Result};

pub mod events;
pub mod gateway;
pub mod gcf3;
pub mod gcx;
pub mod graph;
#[cfg(feature = "tokens")]
mod tokens;

pub use events::*;
pub use gateway::*;
pub use gcf3::*;
pub use gcx::*;
pub use graph::*;
#[cfg(feature = "tokens")]
pub use tokens::*;

pub(crate) fn options_value(options_json: &str) -> Result<Value> {
    if options_json.trim().is_empty() {
        return Ok(Value::Null);
    }
    json::parse(options_json).map_err(|e| e.context("options"))
}

/// The plain JSON text of a value.
pub fn to_json(value: &Value) -> Result<String> {
    json::to_string(value, WriteOptions::PLAIN)
}

/// The error as `{"code", "message", "format", "line", "column", "columnUtf16", "offset"}`
/// (positions are null when the input has none).
pub fn error_json(error: &Error) -> String {
    let mut map = Map::new();
    map.insert("code".into(), error.code().into());
    map.insert("message".into(), error.message().into());
    map.insert("format".into(), error.format().as_str().into());
    let number = |v: Option<u64>| v.map_or(Value::Null, |v| Number::from_u64(v).into());
    map.insert("line".into(), number(error.line()));
    map.insert("column".into(), number(error.column()));
    map.insert("columnUtf16".into(), number(error.column_utf16()));
    map.insert("offset".into(), number(error.offset()));
    // Strings and integers only: rendering cannot fail.
    to_json(&Value::Object(map)).unwrap_or_default()
}

/// Every error code, as a JSON array of strings.
pub fn error_codes_json() -> String {
    let codes = ErrorKind::ALL
        .iter()
        .map(|k| Value::from(k.code()))
        .collect();
    to_json(&Value::Array(codes)).unwrap_or_default()
}

/// Reads a JSON array with `read` per item, naming the failing index.
pub(crate) fn parse_array<T>(
    json_text: &str,
    what: &str,
    read: fn(&Value) -> Result<T>,
) -> Result<Vec<T>> {
    read_array(&json::parse(json_text)?, what, read)
}

/// Reads an array value with `read` per item, naming the failing index.
pub fn read_array<T>(value: &Value, what: &str, read: fn(&Value) -> Result<T>) -> Result<Vec<T>> {
    match value {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| read(v).map_err(|e| e.context(format!("{what}[{i}]"))))
            .collect(),
        other => Err(Error::new(
            ErrorKind::InvalidArgument,
            format!("{what}: expected an array, got {}", other.type_name()),
        )),
    }
}

/// Panics on purpose. Not part of the API: every binding exports it as
/// `__agentwireInternalPanicForTests`, so tests can check that a Rust panic reaches JavaScript
/// as an `AgentwireError` with code `INTERNAL` (a caught panic in the addon, a trap in wasm)
/// and that the module keeps working afterwards.
#[doc(hidden)]
pub fn internal_panic_for_tests() -> ! {
    panic!("agentwire: deliberate panic (__agentwireInternalPanicForTests)")
}

/// The crate version (the npm package checks that its native addon matches). agentwire's
/// crates share the workspace version, so this is the core's version too.
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}
