//! Graph profile v3 (SPEC §3.2, §4–6a, §8, §9, §10). OWNER: helper "graph profile". Stub
//! until then.

use alloc::string::String;

use crate::gcf::{DeltaPayload, Payload};
use crate::{Error, ErrorKind, Result};

use super::{DecodeOptions, Header};

fn todo() -> Error {
    Error::new(ErrorKind::InvalidArgument, "not implemented yet")
}

/// A decoded graph delta payload.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GraphDelta {}

/// Streaming-encoder options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StreamOptions {
    /// Write the trailer's `counts` in the labeled form (`targets:2,edges:1`).
    pub labeled_counts: bool,
}

/// A graph session: stable symbol ids across calls.
#[derive(Clone, Debug, Default)]
pub struct GraphSession {}

impl GraphSession {
    /// A new, empty session.
    pub fn new() -> GraphSession {
        GraphSession::default()
    }

    /// Encodes one payload of the session.
    pub fn encode(&mut self, payload: &Payload) -> Result<String> {
        let _ = payload;
        Err(todo())
    }
}

/// Encodes a buffered graph payload.
pub fn encode(payload: &Payload) -> Result<String> {
    let _ = payload;
    Err(todo())
}

/// Encodes a graph delta payload.
pub fn encode_delta(delta: &DeltaPayload) -> Result<String> {
    let _ = delta;
    Err(todo())
}

pub(crate) fn decode(text: &str, header: &Header<'_>, options: &DecodeOptions) -> Result<Payload> {
    let _ = (text, header, options);
    Err(todo())
}

pub(crate) fn decode_delta(text: &str, header: &Header<'_>) -> Result<GraphDelta> {
    let _ = (text, header);
    Err(todo())
}
