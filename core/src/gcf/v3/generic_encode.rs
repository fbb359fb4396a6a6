//! Generic-profile encoder (SPEC §7). OWNER: helper "generic encoder". Stub until then.

use alloc::string::String;

use crate::json::Value;
use crate::{Error, ErrorKind, Result};

/// Encodes a JSON value as a buffered generic-profile payload.
pub fn encode_generic(value: &Value) -> Result<String> {
    let _ = value;
    Err(Error::new(
        ErrorKind::InvalidArgument,
        "not implemented yet",
    ))
}
