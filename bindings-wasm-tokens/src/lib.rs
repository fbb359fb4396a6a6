//! Token counting for the browser, one encoding per build (`--features cl100k` or `o200k`):
//! `agentwire/tokens` loads the module of the encoding a page asks for, so the default wasm
//! module carries no vocabulary.

use agentwire::tokens::{self, Encoding};
use wasm_bindgen::prelude::*;

#[cfg(not(feature = "o200k"))]
const ENCODING: Encoding = Encoding::Cl100kBase;
#[cfg(not(feature = "o200k"))]
use tokens::cl100k_token_ids as token_ids;

#[cfg(feature = "o200k")]
const ENCODING: Encoding = Encoding::O200kBase;
#[cfg(feature = "o200k")]
use tokens::o200k_token_ids as token_ids;

/// The encoding this module counts.
#[wasm_bindgen]
pub fn encoding() -> String {
    ENCODING.name().to_string()
}

/// The number of tokens in `text`.
#[wasm_bindgen]
pub fn count(text: &str) -> u32 {
    u32::try_from(token_ids(text).len()).unwrap_or(u32::MAX)
}

/// Not part of the API: panics on purpose, so tests can check that the trap reaches JS as an
/// `INTERNAL` error and what the module does afterwards (npm/test/hostile.test.mjs).
#[wasm_bindgen(js_name = __agentwireInternalPanicForTests)]
pub fn internal_panic_for_tests() {
    agentwire_bindings::api::internal_panic_for_tests()
}
