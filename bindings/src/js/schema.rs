//! JSON Schema validation of tool arguments (the `jsonschema` crate).

use std::sync::OnceLock;

use agentwire::Result;
use agentwire::gateway::schema::{ArgsValidator, JsonSchemaValidator};
use agentwire::json;

use crate::call::{Call, Tape};

/// The validator of this module: compiled schemas are cached across calls.
pub fn builtin() -> &'static JsonSchemaValidator {
    static VALIDATOR: OnceLock<JsonSchemaValidator> = OnceLock::new();
    VALIDATOR.get_or_init(JsonSchemaValidator::default)
}

/// `schema.check(schema, args)`: `{valid: true}`, `{valid: false, message, path}` or
/// `{valid: false, schemaInvalid}`.
pub fn check(call: &mut Call<'_>) -> Result<Tape> {
    let schema = call.value()?;
    let args = call.value()?;
    Ok(call.tape(&builtin().check(&schema, &args).to_value()))
}

/// `schema.validator(schemaText, argsText)`: the same as JSON text, the contract of the
/// `validator` a wasm gateway session takes.
pub fn check_text(call: &mut Call<'_>) -> Result<String> {
    let schema_text = call.string("schemaText")?;
    let args_text = call.string("argsText")?;
    let schema = json::parse(&schema_text).map_err(|e| e.context("schema"))?;
    let args = json::parse(&args_text).map_err(|e| e.context("args"))?;
    json::to_string(
        &builtin().check(&schema, &args).to_value(),
        json::WriteOptions::PLAIN,
    )
}
