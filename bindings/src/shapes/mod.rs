//! The JS shapes over the core: the options and results of JS functions that are not a core
//! type's JSON form (those are the core's own `from_value` / `to_value`), the states of the JS
//! classes, and the JavaScript number policy. Every reader fails with `INVALID_ARGUMENT` and a
//! message that names the place.
//!
//! - [`gcx`]: `gcx.checkRequest`, the `gcx.Encoder` and `gcx.Decoder` states.
//! - [`gcf`]: the payload written to a result tape, `gcf.decodeAny` and the v3 options, pack
//!   roots, deltas, the `gcf.keyed.Session` state.
//! - [`gateway`]: the gateway functions' options and results, the `gateway.BrowseSession`
//!   state.
//! - [`events`]: the event functions' options and results, the `events.EventStreamDecoder`
//!   state.
//! - [`compact`]: `compact.json`'s options and its report.
//! - [`toon`]: the options of `toon.encode` and `toon.decode`.
//! - [`number`]: how JavaScript numbers and BigInts become JSON numbers.

use agentwire::json::Value;
use agentwire::{Error, ErrorKind, Result};

pub mod compact;
pub mod events;
pub mod gateway;
pub mod gcf;
pub mod gcx;
pub mod number;
pub mod toon;

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

/// An optional string option (`null` and absent are `None`).
pub fn option_str<'a>(options: &'a Value, key: &str) -> Result<Option<&'a str>> {
    match options.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(Error::new(
            ErrorKind::InvalidArgument,
            format!("options.{key} must be a string, got {}", other.type_name()),
        )),
    }
}

/// An optional non-negative integer option, `default` when absent.
pub fn option_uint(options: &Value, key: &str, default: usize) -> Result<usize> {
    match options.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Number(n)) => n.as_u64().map(|v| v as usize).ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidArgument,
                format!("options.{key} must be a non-negative integer"),
            )
        }),
        Some(other) => Err(Error::new(
            ErrorKind::InvalidArgument,
            format!(
                "options.{key} must be a non-negative integer, got {}",
                other.type_name()
            ),
        )),
    }
}

/// An optional boolean option, `default` when absent.
pub fn option_bool(options: &Value, key: &str, default: bool) -> Result<bool> {
    match options.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(Error::new(
            ErrorKind::InvalidArgument,
            format!("options.{key} must be a boolean, got {}", other.type_name()),
        )),
    }
}

/// An optional number option, `default` when absent.
pub fn option_f64(options: &Value, key: &str, default: f64) -> Result<f64> {
    match options.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Number(n)) => Ok(n.as_f64()),
        Some(other) => Err(Error::new(
            ErrorKind::InvalidArgument,
            format!("options.{key} must be a number, got {}", other.type_name()),
        )),
    }
}

/// An optional string option that must be one of `allowed`.
pub fn option_choice<'a>(
    options: &'a Value,
    key: &str,
    allowed: &[&str],
) -> Result<Option<&'a str>> {
    match options.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if allowed.contains(&s.as_str()) => Ok(Some(s)),
        Some(other) => Err(Error::new(
            ErrorKind::InvalidArgument,
            format!(
                "options.{key}: expected one of {allowed:?}, got {}",
                agentwire::json::to_string(other, agentwire::json::WriteOptions::PLAIN)
                    .unwrap_or_default()
            ),
        )),
    }
}
