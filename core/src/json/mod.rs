//! The JSON value model shared by every format.
//!
//! Numbers follow the "typed" model (see [`Number`]); objects keep input order and unique keys
//! (see [`Map`]); [`write`] renders compact JSON exactly as Go's `encoding/json` does.

mod parse;
#[cfg(feature = "serde")]
mod serde;
mod value;
mod write;

pub use parse::{
    parse, parse_bytes, parse_with, ParseOptions, DEFAULT_MAX_DEPTH, MAX_DEPTH_CEILING,
};
pub use value::{Map, Number, Value};
pub(crate) use write::write_row_escaped;
pub use write::{string_len, to_string, write, write_string, WriteOptions};
