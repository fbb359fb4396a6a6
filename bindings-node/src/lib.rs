//! Node-API addon: every function passes text to one `agentwire::api` call and maps the error.
//!
//! Errors are thrown as JS `Error`s whose message is [`api::error_json`]; the npm package turns
//! them into `AgentwireError`. `catch_unwind` turns a panic into an error instead of aborting
//! the process (the package reports it as code `INTERNAL`).

use agentwire::api;
use napi::{Error, Status};
use napi_derive::napi;

pub mod events;
pub mod gateway;
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
