//! Exports every module has: the version, the export table, the error codes, and the panic
//! the tests provoke.

use agentwire::json::Value;
use agentwire::{ErrorKind, Result};

use crate::call::{Call, Tape};
use crate::transfer::to_js::TapeWriter;

/// The crate version (the npm loader checks that the native addon matches its package).
pub fn version(_: &mut Call<'_>) -> Result<String> {
    Ok(crate::api::version().into())
}

/// `[[name, kind], …]` in id order: the id to call each export by, and how the JS layer
/// reads its result.
pub fn export_table(_: &mut Call<'_>) -> Result<Tape> {
    let entries = crate::exports::ENTRIES;
    let mut writer = TapeWriter::local(None);
    writer.array(entries.len());
    for entry in entries {
        writer.array(2);
        writer.str(entry.name);
        writer.str(entry.kind);
    }
    Ok(writer.into())
}

/// Every stable error code.
pub fn error_codes(call: &mut Call<'_>) -> Result<Tape> {
    let codes: Vec<Value> = ErrorKind::ALL
        .iter()
        .map(|k| Value::from(k.code()))
        .collect();
    Ok(call.tape(&Value::Array(codes)))
}

/// Panics on purpose (see [`crate::api::internal_panic_for_tests`]).
pub fn internal_panic_for_tests(_: &mut Call<'_>) -> Result<()> {
    crate::api::internal_panic_for_tests()
}
