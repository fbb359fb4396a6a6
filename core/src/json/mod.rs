//! The JSON value model shared by every format.
//!
//! Numbers follow the "typed" model (see [`Number`]); objects keep input order and unique keys
//! (see [`Map`]); [`write`](fn@write) renders compact JSON exactly as Go's `encoding/json` does.
//! With the `serde` feature, [`Value`] is `Serialize` and `Deserialize`, converts from
//! `serde_json::Value` (`From`) and to it (`TryFrom`: NaN and ±Infinity have no JSON form).
//!
//! ```
//! use agentwire::json::{self, WriteOptions};
//! let value = json::parse(r#"{"b": [1, 2.50, "<x>"], "a": null}"#)?;
//! assert_eq!(value.get("b").unwrap().as_array().unwrap().len(), 3);
//! // Go encoding/json's text: keys sorted by bytes, `<` escaped, numbers shortest.
//! assert_eq!(json::to_string(&value, WriteOptions::GO)?, r#"{"a":null,"b":[1,2.5,"\u003cx\u003e"]}"#);
//! # Ok::<(), agentwire::Error>(())
//! ```

mod borrowed;
mod parse;
mod reader;
#[cfg(feature = "serde")]
mod serde;
mod value;
mod write;

pub use borrowed::BorrowedValue;
pub use parse::{
    DEFAULT_MAX_DEPTH, MAX_DEPTH_CEILING, ParseOptions, parse, parse_bytes, parse_exact,
    parse_with, utf8,
};
pub(crate) use parse::{Inexact, Refused, is_json_number, parse_refusing, push_path_key};
pub use reader::{Kind, TreeReader, ValueReader};
pub use value::{Map, Number, Value};
pub(crate) use write::write_row_escaped;
pub use write::{WriteOptions, string_len, to_string, write, write_ecmascript, write_string};
