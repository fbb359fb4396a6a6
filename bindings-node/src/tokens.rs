//! Token counts.

use agentwire_bindings::api;
use napi::Result;
use napi_derive::napi;

use crate::js_error;

/// Tokens: the number of tokens of `text` in `encoding` (cl100k_base, o200k_base).
#[napi(catch_unwind)]
pub fn tokens_count(text: String, encoding: String) -> Result<u32> {
    let count = api::tokens_count(&text, &encoding).map_err(js_error)?;
    Ok(u32::try_from(count).unwrap_or(u32::MAX))
}
