//! GCF v1.1 text, GCB1 bytes and the codec registry over the graph payload.

use agentwire::codec::Registry;
use agentwire::gcf::{self, DeltaPayload, Payload};
use agentwire::json::{self, Map, Value, WriteOptions};
use agentwire::{Result, gcb};

use crate::call::{Bytes, Call, Main, Tape};
use crate::shapes;

/// The payload: JSON text as the main input (the `…Json` functions), else the next argument.
pub(crate) fn payload(call: &mut Call<'_>) -> Result<Payload> {
    match call.main() {
        Main::Text(json) => Payload::from_value(&json::parse(json)?),
        _ => Payload::from_reader(call.args()),
    }
}

fn payload_tape(call: &Call<'_>, payload: &Payload) -> Tape {
    let mut writer = call.writer();
    shapes::gcf::write_payload(&mut writer, payload);
    writer.into()
}

/// `gcf.encode(payload)`, `gcf.encodeJson(jsonText)`.
pub fn encode(call: &mut Call<'_>) -> Result<String> {
    gcf::v1::encode(&payload(call)?)
}

/// The payload of GCF v1.1 text or GCB1 bytes (the main input says which).
fn decoded(call: &mut Call<'_>) -> Result<Payload> {
    let options = gcf::DecodeOptions::from_value(&call.value()?)?;
    match call.main() {
        Main::Bytes(bytes) => gcb::decode(bytes, &options).map(|p| p.into_payload()),
        _ => gcf::v1::decode(call.text("text")?, &options).map(|p| p.into_payload()),
    }
}

/// `gcf.decode(text, options)` and `gcb.decode(bytes, options)`.
pub fn decode(call: &mut Call<'_>) -> Result<Tape> {
    let payload = decoded(call)?;
    Ok(payload_tape(call, &payload))
}

/// `gcf.decodeToJson(text, options)` and `gcb.decodeToJson(bytes, options)`.
pub fn decode_to_json(call: &mut Call<'_>) -> Result<String> {
    json::to_string(&decoded(call)?.to_value(), WriteOptions::PLAIN)
}

/// `gcf.encodeDelta(delta)`, `gcf.encodeDeltaJson(jsonText)`.
pub fn encode_delta(call: &mut Call<'_>) -> Result<String> {
    let delta = match call.main() {
        Main::Text(json) => DeltaPayload::from_value(&json::parse(json)?)?,
        _ => DeltaPayload::from_reader(call.args())?,
    };
    Ok(gcf::v1::encode_delta(&delta))
}

/// `new gcf.Session()`.
pub fn session_new(_: &mut Call<'_>) -> Result<gcf::v1::Session> {
    Ok(gcf::v1::Session::default())
}

/// `session.encode(payload)`, `session.encodeJson(jsonText)`.
pub fn session_encode(session: &mut gcf::v1::Session, call: &mut Call<'_>) -> Result<String> {
    session.encode(&payload(call)?)
}

/// `session.size()`.
pub fn session_size(session: &mut gcf::v1::Session, _: &mut Call<'_>) -> Result<u32> {
    Ok(u32::try_from(session.len()).unwrap_or(u32::MAX))
}

/// `session.reset()`.
pub fn session_reset(session: &mut gcf::v1::Session, _: &mut Call<'_>) -> Result<()> {
    session.reset();
    Ok(())
}

/// `gcb.encode(payload)`, `gcb.encodeJson(jsonText)`.
pub fn gcb_encode(call: &mut Call<'_>) -> Result<Bytes> {
    Ok(Bytes(gcb::encode(&payload(call)?)))
}

/// `codecs.list()`: `[{name, aliases, description, text}]`.
pub fn codecs_list(call: &mut Call<'_>) -> Result<Tape> {
    let list = Registry::builtin()
        .list()
        .iter()
        .map(|c| {
            let mut map = Map::new();
            map.insert("name".into(), c.name.as_str().into());
            let aliases = c.aliases.iter().map(|a| a.as_str().into()).collect();
            map.insert("aliases".into(), Value::Array(aliases));
            map.insert("description".into(), c.description.as_str().into());
            map.insert("text".into(), c.text.into());
            Value::Object(map)
        })
        .collect();
    Ok(call.tape(&Value::Array(list)))
}

/// `codecs.encode(name, payload)`: the bytes (the JS layer makes text of a text codec's).
pub fn codec_encode(call: &mut Call<'_>) -> Result<Bytes> {
    let name = call.string("name")?;
    let payload = Payload::from_reader(call.args())?;
    Ok(Bytes(Registry::builtin().encode_with(&name, &payload)?))
}

/// `codecs.decode(name, input)`: text or bytes as the main input.
pub fn codec_decode(call: &mut Call<'_>) -> Result<Tape> {
    let name = call.string("name")?;
    let payload = Registry::builtin().decode_with(&name, call.bytes("input")?)?;
    Ok(payload_tape(call, &payload))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_direct_payload_tape_is_the_shape_tape() {
        let text = gcf::v1::encode(&Payload::from_value(
            &json::parse(
                r#"{"tool":"t","tokenBudget":10,"tokensUsed":5,"symbols":[
                {"qualifiedName":"a.B","kind":"function","score":0.9,"provenance":"lsp_resolved","distance":0},
                {"qualifiedName":"c.D","kind":"type","score":0.5,"provenance":"heuristic","distance":1}],
                "edges":[{"source":"a.B","target":"c.D","edgeType":"calls","status":""}]}"#,
            )
            .unwrap(),
        )
        .unwrap())
        .unwrap();
        let text = text.as_str();
        let payload = gcf::v1::decode(text, &Default::default())
            .unwrap()
            .into_payload();
        let call = Call::new(
            Main::None,
            &[],
            &[],
            "",
            None,
            crate::call::Session::default(),
        );
        let direct = payload_tape(&call, &payload);
        let shaped = call.tape(&payload.to_value());
        assert_eq!(direct.words, shaped.words);
        assert_eq!(direct.side, shaped.side);
    }
}
