//! GCF v1.1, GCB1 and the codec registry over JSON text.

use Vec;

use super::{options_value, to_json};
use agentwire::gcb;
use agentwire::gcf::{self, DeltaPayload, Payload};
use agentwire::json::{self, Map, Value};
use agentwire::Result;

use crate::shapes::gcf::codecs;
use crate::shapes::{FromValue, ToValue};

fn payload(payload_json: &str) -> Result<Payload> {
    Payload::from_value(&json::parse(payload_json)?)
}

fn payload_json(payload: &Payload) -> Result<String> {
    to_json(&payload.to_value())
}

/// GCF v1.1: encodes a payload (JSON, camelCase keys).
pub fn gcf_encode(payload_json_text: &str) -> Result<String> {
    gcf::v1::encode(&payload(payload_json_text)?)
}

/// GCF v1.1: the payload (JSON) of a GCF text (options: `{"maxPayloadBytes"?}`).
pub fn gcf_decode(text: &str, options_json: &str) -> Result<String> {
    let options = gcf::DecodeOptions::from_value(&options_value(options_json)?)?;
    payload_json(&gcf::v1::decode(text, &options)?.into_payload())
}

/// GCF v1.1: encodes a delta (JSON: `{"tool", "baseRoot", "newRoot", "removed", "added",
/// "removedEdges", "addedEdges", "deltaTokens", "fullTokens"}`).
pub fn gcf_encode_delta(delta_json: &str) -> Result<String> {
    Ok(gcf::v1::encode_delta(&DeltaPayload::from_value(
        &json::parse(delta_json)?,
    )?))
}

/// GCF v1.1: a session that writes already-sent symbols as bare references.
#[derive(Debug, Default)]
pub struct GcfSession(gcf::v1::Session);

impl GcfSession {
    /// An empty session.
    pub fn new() -> GcfSession {
        GcfSession::default()
    }

    /// Encodes a payload (JSON) with session deduplication.
    pub fn encode(&mut self, payload_json_text: &str) -> Result<String> {
        self.0.encode(&payload(payload_json_text)?)
    }

    /// Number of symbols sent so far.
    pub fn size(&self) -> usize {
        self.0.len()
    }

    /// Forgets every sent symbol.
    pub fn reset(&mut self) {
        self.0.reset();
    }
}

/// GCB1: the bytes of a payload (JSON).
pub fn gcb_encode(payload_json_text: &str) -> Result<Vec<u8>> {
    Ok(gcb::encode(&payload(payload_json_text)?))
}

/// GCB1: the payload (JSON) of GCB1 bytes (options: `{"maxPayloadBytes"?}`).
pub fn gcb_decode(bytes: &[u8], options_json: &str) -> Result<String> {
    let options = gcf::DecodeOptions::from_value(&options_value(options_json)?)?;
    payload_json(&gcb::decode(bytes, &options)?.into_payload())
}

/// Codec registry: `[{"name", "aliases", "description", "text"}]` of the built-in codecs.
pub fn codecs_list() -> String {
    let list = codecs()
        .list()
        .iter()
        .map(|c| {
            let mut map = Map::new();
            map.insert("name".into(), c.name.as_str().into());
            map.insert(
                "aliases".into(),
                Value::Array(c.aliases.iter().map(|a| a.as_str().into()).collect()),
            );
            map.insert("description".into(), c.description.as_str().into());
            map.insert("text".into(), c.text.into());
            Value::Object(map)
        })
        .collect();
    to_json(&Value::Array(list)).unwrap_or_default()
}

/// Codec registry: encodes a payload (JSON) with the codec `name`.
pub fn codec_encode(name: &str, payload_json_text: &str) -> Result<Vec<u8>> {
    codecs().encode_with(name, &payload(payload_json_text)?)
}

/// Codec registry: the payload (JSON) of `input` decoded with the codec `name` (default
/// limits).
pub fn codec_decode(name: &str, input: &[u8]) -> Result<String> {
    payload_json(&codecs().decode_with(name, input)?)
}
