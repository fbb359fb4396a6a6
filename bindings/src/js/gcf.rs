//! GCF v3: the generic profile (3.6.0 by default, 3.5.3 on request, grouped), the graph
//! profile, `decodeAny`, sessions, deltas, pack roots.

use agentwire::Result;
use agentwire::gcf::{DeltaPayload, Payload, PayloadRef, v3};
use agentwire::json::{self, Value, WriteOptions};

use crate::call::{Call, Main, Tape};
use crate::shapes::gcf::{self as shapes, GcfV3KeyedSession, KeyedDelta};

/// `gcf.encodeGeneric(value, options)`: numbers as JavaScript has them (a safe integer is an
/// integer, any other number a double, a BigInt an exact integer).
/// `gcf.encodeGenericJson(jsonText, options)` passes JSON text as the main input: integer
/// lexemes are int64 (`out_of_range` beyond). Options: `{version: '3.6.0' | '3.5.3'}`.
pub fn encode_generic(call: &mut Call<'_>) -> Result<String> {
    let (value, options) = input_and_options(call)?;
    v3::encode_generic_with(&value, &shapes::encode_options(&options)?)
}

/// `gcf.encodeGenericGrouped(value, {key, group})` and `gcf.encodeGenericGroupedJson(jsonText,
/// {key, group})`: the v3.6.0 grouped form, numbers as in [`encode_generic`].
pub fn encode_generic_grouped(call: &mut Call<'_>) -> Result<String> {
    let (value, options) = input_and_options(call)?;
    shapes::encode_generic_grouped(&value, &options)
}

/// An encoder's input and options: JSON text as the main input (read by the `numbers`
/// option) and the options argument, or the value argument and then the options.
fn input_and_options(call: &mut Call<'_>) -> Result<(Value, Value)> {
    match call.main() {
        Main::Text(json) => {
            let options = call.value()?;
            Ok((shapes::input_value(json, &options)?, options))
        }
        _ => {
            let value = call.value()?;
            Ok((value, call.value()?))
        }
    }
}

/// `gcf.decodeAny(input, options)` and the decoders that expect one kind (`options.expect`).
pub fn decode(call: &mut Call<'_>) -> Result<Tape> {
    let options = call.value()?;
    match shapes::decode_payload_or_value(call.bytes("input")?, &options)? {
        shapes::Decoded::Graph(payload) => {
            let mut writer = call.writer();
            shapes::write_payload(&mut writer, &payload);
            Ok(writer.into())
        }
        shapes::Decoded::Value(value) => Ok(call.tape(&value)),
    }
}

/// [`decode`] as JSON text, numbers exactly as decoded.
pub fn decode_to_json(call: &mut Call<'_>) -> Result<String> {
    let options = call.value()?;
    json::to_string(
        &shapes::decode(call.bytes("input")?, &options)?,
        WriteOptions::PLAIN,
    )
}

/// `gcf.encodeGraph(payload, options)`.
pub fn encode_graph(call: &mut Call<'_>) -> Result<String> {
    let payload = PayloadRef::from_reader(call.args())?;
    shapes::encode_payload(payload, &call.value()?)
}

/// `gcf.encodeGraphDelta(delta)`.
pub fn encode_graph_delta(call: &mut Call<'_>) -> Result<String> {
    v3::graph::encode_delta(&DeltaPayload::from_reader(call.args())?)
}

/// `gcf.graphPackRoot(snapshot)`.
pub fn graph_pack_root(call: &mut Call<'_>) -> Result<Tape> {
    let value = shapes::graph_pack_root(&call.value()?)?;
    Ok(call.tape(&value))
}

/// `gcf.applyGraphDelta(base, deltaText)`: the delta text is the main input.
pub fn apply_graph_delta(call: &mut Call<'_>) -> Result<Tape> {
    let base = call.value()?;
    Ok(call.tape(&shapes::apply_graph_delta(&base, call.text("delta")?)?))
}

/// `gcf.keyed.packRoot(set)`.
pub fn keyed_pack_root(call: &mut Call<'_>) -> Result<Tape> {
    let value = shapes::keyed_pack_root(&call.value()?)?;
    Ok(call.tape(&value))
}

/// `gcf.keyed.encodeFull(set, options)`.
pub fn keyed_encode_full(call: &mut Call<'_>) -> Result<String> {
    let set = call.value()?;
    shapes::keyed_encode_full(&set, &call.value()?)
}

/// `gcf.keyed.encodeDelta(delta)`.
pub fn keyed_encode_delta(call: &mut Call<'_>) -> Result<String> {
    v3::keyed::encode_delta(&v3::GenericDelta::from_value(&call.value()?)?)
}

/// `gcf.keyed.applyDelta(base, delta)`: the delta as GCF text (the main input) or a value.
pub fn keyed_apply_delta(call: &mut Call<'_>) -> Result<Tape> {
    let base = call.value()?;
    let delta = match call.main() {
        Main::Text(text) => KeyedDelta::Text(text),
        _ => KeyedDelta::Value(call.value()?),
    };
    Ok(call.tape(&shapes::keyed_apply_delta(&base, delta)?))
}

/// `new gcf.GraphSession()`.
pub fn graph_session_new(_: &mut Call<'_>) -> Result<v3::GraphSession> {
    Ok(v3::GraphSession::default())
}

/// `session.encode(payload)`.
pub fn graph_session_encode(session: &mut v3::GraphSession, call: &mut Call<'_>) -> Result<String> {
    session.encode(&Payload::from_reader(call.args())?)
}

/// `session.size()`.
pub fn graph_session_size(session: &mut v3::GraphSession, _: &mut Call<'_>) -> Result<u32> {
    Ok(u32::try_from(session.len()).unwrap_or(u32::MAX))
}

/// `session.reset()`.
pub fn graph_session_reset(session: &mut v3::GraphSession, _: &mut Call<'_>) -> Result<()> {
    session.reset();
    Ok(())
}

/// `new gcf.keyed.Session(options)`.
pub fn keyed_session_new(call: &mut Call<'_>) -> Result<GcfV3KeyedSession> {
    GcfV3KeyedSession::with_options(&call.value()?)
}

/// `session.emit(set)`: `{isFull, kind, wire}`.
pub fn keyed_session_emit(session: &mut GcfV3KeyedSession, call: &mut Call<'_>) -> Result<Tape> {
    let value = session.emit_value(&call.value()?)?;
    Ok(call.tape(&value))
}
