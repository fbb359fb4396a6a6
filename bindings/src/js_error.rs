//! The JS error a failed call throws, the same from every runtime: a JS `Error` with the core
//! error's message and [`properties`] set on it (npm/lib/errors.js makes an `AgentwireError`
//! of it). The runtimes only create the object and set what this module lists, so the same
//! failure cannot carry another code or position in one of them.

use agentwire::{Error, ErrorKind};

/// The value of one property.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Property<'a> {
    /// A string.
    Text(&'a str),
    /// A number, or `null` when the input has no such position.
    Position(Option<u64>),
}

/// The names of the properties, in the order they are set (npm/lib/wire.js gives them to
/// JavaScript).
pub const PROPERTY_NAMES: [&str; 6] = ["code", "format", "line", "column", "columnUtf16", "offset"];

/// The properties of the JS error for `error`, named by [`PROPERTY_NAMES`].
pub fn properties(error: &Error) -> [(&'static str, Property<'_>); 6] {
    let values = [
        Property::Text(error.code()),
        Property::Text(error.format().as_str()),
        Property::Position(error.line()),
        Property::Position(error.column()),
        Property::Position(error.column_utf16()),
        Property::Position(error.offset()),
    ];
    std::array::from_fn(|i| (PROPERTY_NAMES[i], values[i]))
}

/// A method called on an instance without a state: its constructor failed, or `free()` ran.
pub fn no_instance_state(method: &str) -> Error {
    Error::new(
        ErrorKind::InvalidArgument,
        format!("{method}: the instance has no state (used after free(), or not constructed)"),
    )
}
