//! The Responses-API event protocol of `godex exec --json`.

use agentwire::Result;

use crate::call::{Call, Main, Tape, invalid};
use crate::shapes::events::{self as shapes, EventsDecoder};

/// `events.parse(input, options)`: text or bytes as the main input.
pub fn parse(call: &mut Call<'_>) -> Result<Tape> {
    let options = call.value()?;
    let value = shapes::parse(call.bytes("input")?, &options)?;
    Ok(call.tape(&value))
}

/// `events.accumulate(events)`.
pub fn accumulate(call: &mut Call<'_>) -> Result<Tape> {
    let value = shapes::accumulate_value(call.value()?)?;
    Ok(call.tape(&value))
}

/// `events.serialize(events, {form})`.
pub fn serialize(call: &mut Call<'_>) -> Result<String> {
    let events = call.value()?;
    shapes::serialize(events, &call.string("form")?)
}

/// `events.mock(mode, {echoText})`.
pub fn mock(call: &mut Call<'_>) -> Result<String> {
    let mode = call.string("mode")?;
    shapes::mock(&mode, &call.string("echoText")?)
}

/// `events.fromSse(text)`.
pub fn from_sse(call: &mut Call<'_>) -> Result<Tape> {
    let value = agentwire::events::sse::report(call.text("sse")?);
    Ok(call.tape(&value))
}

/// `events.parseToolSpec(spec)`.
pub fn parse_tool_spec(call: &mut Call<'_>) -> Result<Tape> {
    let value = shapes::tool_spec(call.text("spec")?)?;
    Ok(call.tape(&value))
}

/// `events.functionTool(name, schemaText)`: the schema text is the main input.
pub fn function_tool(call: &mut Call<'_>) -> Result<Tape> {
    let name = call.string("name")?;
    let tool = agentwire::events::toolspec::function_tool(&name, call.text("schemaText")?)?;
    Ok(call.tape(&tool))
}

/// `events.followUp({context, calls, outputs})`.
pub fn follow_up(call: &mut Call<'_>) -> Result<Tape> {
    let context = call.value()?;
    let calls = call.value()?;
    let outputs = call.value()?;
    Ok(call.tape(&shapes::follow_up(context, calls, outputs)?))
}

/// `new events.EventStreamDecoder(options)`.
pub fn decoder_new(call: &mut Call<'_>) -> Result<EventsDecoder> {
    EventsDecoder::with_options(&call.value()?)
}

/// `decoder.push(chunk)`: bytes (or text) as the main input.
pub fn decoder_push(decoder: &mut EventsDecoder, call: &mut Call<'_>) -> Result<Tape> {
    let chunk = match call.main() {
        Main::Text(text) => text.as_bytes(),
        Main::Bytes(bytes) => bytes,
        Main::None => return Err(invalid("chunk must be a string or Uint8Array")),
    };
    Ok(call.tape(&decoder.push_value(chunk)))
}

/// `decoder.finish()`.
pub fn decoder_finish(decoder: &mut EventsDecoder, call: &mut Call<'_>) -> Result<Tape> {
    Ok(call.tape(&decoder.finish_value()))
}
