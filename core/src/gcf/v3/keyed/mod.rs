//! Generic-profile keyed sets: delta, pack root, sessions (SPEC §10a). OWNER: helper
//! "generic delta". Stub until then.

use crate::{Error, ErrorKind, Result};

use super::Header;

/// A decoded generic delta payload.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GenericDelta {}

pub(crate) fn decode_delta(text: &str, header: &Header<'_>) -> Result<GenericDelta> {
    let _ = (text, header);
    Err(Error::new(
        ErrorKind::InvalidArgument,
        "not implemented yet",
    ))
}
