//! Generic-profile decoder (SPEC §7, §13, §16.4, §16.5). OWNER: helper "generic decoder".
//! Stub until then.

use crate::json::Value;
use crate::{Error, ErrorKind, Result};

use super::Header;

/// Limits of the v3 decoders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Deepest nesting of generic containers (default 512).
    pub max_depth: usize,
}

impl Default for DecodeOptions {
    fn default() -> DecodeOptions {
        DecodeOptions { max_depth: 512 }
    }
}

/// Decodes the body of a generic payload whose header is `header`.
pub(crate) fn decode(text: &str, header: &Header<'_>, options: &DecodeOptions) -> Result<Value> {
    let _ = (text, header, options);
    Err(Error::new(
        ErrorKind::InvalidArgument,
        "not implemented yet",
    ))
}
