//! JSON Schema validation for the browser: `agentwire/schema` loads this module only when a
//! page validates tool arguments, so the default wasm module carries no validator. Its
//! `checkArgs` is the `validator` a wasm `gateway.BrowseSession` takes.

use agentwire::gateway::schema::{ArgsValidator, JsonSchemaValidator};
use agentwire::json;
use agentwire_bindings::{api, ToValue};
use std::sync::OnceLock;
use wasm_bindgen::prelude::*;

fn validator() -> &'static JsonSchemaValidator {
    static VALIDATOR: OnceLock<JsonSchemaValidator> = OnceLock::new();
    VALIDATOR.get_or_init(JsonSchemaValidator::new)
}

/// The first violation of a JSON Schema by tool arguments (both JSON text), as the JSON text of
/// `{"valid": true}`, `{"valid": false, "message", "path"}` or `{"valid": false,
/// "schemaInvalid"}`. Malformed JSON throws an Error whose message is the error JSON.
#[wasm_bindgen(js_name = checkArgs)]
pub fn check_args(schema: &str, args: &str) -> Result<String, JsValue> {
    let js_error = |e: agentwire::Error| JsValue::from(js_sys::Error::new(&api::error_json(&e)));
    let schema = json::parse(schema).map_err(|e| js_error(e.context("schema")))?;
    let args = json::parse(args).map_err(|e| js_error(e.context("args")))?;
    let check = validator().check(&schema, &args);
    json::to_string(&check.to_value(), json::WriteOptions::PLAIN).map_err(js_error)
}

/// Not part of the API: panics on purpose, so tests can check that the trap reaches JS as an
/// `INTERNAL` error and what the module does afterwards (npm/test/hostile.test.mjs).
#[wasm_bindgen(js_name = __agentwireInternalPanicForTests)]
pub fn internal_panic_for_tests() {
    agentwire_bindings::api::internal_panic_for_tests()
}
