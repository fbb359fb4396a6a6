//! TOON (`toon.encode`, `toon.encodeJson`, `toon.decode`): one core call each.

use agentwire::Result;
use agentwire::json;
use agentwire::toon;

use crate::call::{Call, Main, Tape};
use crate::shapes::toon::{decode_options, encode_options};

/// `toon.encode(value, options)` (a value argument) and `toon.encodeJson(text, options)` (JSON
/// text as the main input: numbers exactly as written, integers past 2^53 too).
pub fn encode(call: &mut Call<'_>) -> Result<String> {
    let value = match call.main() {
        Main::Text(text) => json::parse(text)?,
        _ => call.value()?,
    };
    toon::encode(&value, &encode_options(&call.value()?)?)
}

/// `toon.decode(text, options)`.
pub fn decode(call: &mut Call<'_>) -> Result<Tape> {
    let options = decode_options(&call.value()?)?;
    let value = toon::decode(call.text("text")?, &options)?;
    Ok(call.tape(&value))
}
