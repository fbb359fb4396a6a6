//! wasm-bindgen module: the same functions and classes as the Node addon, each passing text to
//! one `agentwire_bindings::api` call. Errors are thrown as JS `Error`s whose message is
//! [`api::error_json`]; the npm package turns them into `AgentwireError`.
//!
//! A panic traps (`unreachable`); the npm package reports that as code `INTERNAL`. The
//! instance is not replaced afterwards: what the trapped call held stays allocated, state it
//! left half-updated stays so, and the shadow stack its frames used is not given back (about
//! 100 bytes per panic of its 1 MiB), so after some ten thousand panics every call fails (also
//! as `INTERNAL`) until the module is loaded again. README "Security and limits" has the
//! details; wasm-bindgen's experimental reinit was tried and left out (see there).

use agentwire_bindings::api;
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

/// Not part of the API: panics on purpose, so tests can check that the trap reaches JS as an
/// `INTERNAL` error and what the module does afterwards (npm/test/hostile.test.mjs).
#[wasm_bindgen(js_name = __agentwireInternalPanicForTests)]
pub fn internal_panic_for_tests() {
    agentwire_bindings::api::internal_panic_for_tests()
}
