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
//! - [`number`]: how JavaScript numbers and BigInts become JSON numbers.

use agentwire::json::Value;
use agentwire::{Error, ErrorKind, Result};

pub mod events;
pub mod gateway;
pub mod gcf;
pub mod gcx;
pub mod number;

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
