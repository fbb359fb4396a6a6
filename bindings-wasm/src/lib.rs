//! wasm-bindgen module: the same functions and classes as the Node addon, each passing text to
//! one `agentwire::api` call. Errors are thrown as JS `Error`s whose message is
//! [`api::error_json`]; the npm package turns them into `AgentwireError`.
//!
//! A panic traps (`unreachable`); the npm package reports that as code `INTERNAL`. The
//! instance is not replaced afterwards, so state a panic left half-updated stays as it is.

use agentwire::api;
use wasm_bindgen::prelude::*;

pub mod gcx;
pub mod graph;

pub(crate) fn js_error(e: agentwire::Error) -> JsValue {
    js_sys::Error::new(&api::error_json(&e)).into()
}

/// Every stable error code (JSON array).
#[wasm_bindgen(js_name = errorCodes)]
pub fn error_codes() -> String {
    api::error_codes_json()
}

/// The crate version, checked by the npm loader.
#[wasm_bindgen]
pub fn version() -> String {
    api::version().to_string()
}
