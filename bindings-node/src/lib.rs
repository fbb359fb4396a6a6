//! Node-API addon: every function passes text to one `agentwire_bindings::api` call and maps
//! the error.
//!
//! Errors are thrown as JS `Error`s whose message is [`api::error_json`]; the npm package turns
//! them into `AgentwireError`. `catch_unwind` turns a panic into an error instead of aborting
//! the process (the package reports it as code `INTERNAL`).

use agentwire_bindings::api;
use napi::{Error, Status};
use napi_derive::napi;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod events;
pub mod gateway;
pub mod gcf3;
pub mod gcx;
pub mod graph;
pub mod tokens;

pub(crate) fn js_error(e: agentwire::Error) -> Error {
    Error::new(Status::GenericFailure, api::error_json(&e))
}

/// Every stable error code (JSON array).
#[napi]
pub fn error_codes() -> String {
    api::error_codes_json()
}

/// The crate version, checked by the npm loader.
#[napi]
pub fn version() -> String {
    api::version().to_string()
}

/// Not part of the API: panics on purpose, so tests can check that `catch_unwind` turns a
/// panic into an `INTERNAL` error and the addon keeps working (npm/test/hostile.test.mjs).
#[napi(catch_unwind, js_name = "__agentwireInternalPanicForTests")]
pub fn internal_panic_for_tests() -> napi::Result<()> {
    api::internal_panic_for_tests()
}
