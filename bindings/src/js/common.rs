//! Exports every module has: the version, the export table, the error codes, and the panic
//! the tests provoke.

use agentwire::json::Value;
use agentwire::{ErrorKind, Result};

use crate::call::{Call, Tape};
use crate::transfer::to_js::TapeWriter;

/// The crate version (the npm loader checks that the native addon matches its package).
/// agentwire's crates share the workspace version, so this is the core's version too.
pub fn version(_: &mut Call<'_>) -> Result<String> {
    Ok(env!("CARGO_PKG_VERSION").into())
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

/// Panics on purpose. Not part of the API: every build exports it as
/// `__agentwireInternalPanicForTests`, so tests can check that a Rust panic reaches JavaScript
/// as an `AgentwireError` with code `INTERNAL` (a caught panic in the addon, a trap in wasm)
/// and that the module keeps working afterwards.
pub fn internal_panic_for_tests(_: &mut Call<'_>) -> Result<()> {
    panic!("agentwire: deliberate panic (__agentwireInternalPanicForTests)")
}
