//! GCF v1.1, GCB1 and the codec registry.

use agentwire_bindings::api;
use wasm_bindgen::prelude::*;

use crate::js_error;

/// GCF v1.1: encodes a payload (JSON).
#[wasm_bindgen(js_name = gcfEncode)]
pub fn gcf_encode(payload: &str) -> Result<String, JsValue> {
    api::gcf_encode(payload).map_err(js_error)
}

/// GCF v1.1: the payload (JSON) of a GCF text.
#[wasm_bindgen(js_name = gcfDecode)]
pub fn gcf_decode(text: &str, options: &str) -> Result<String, JsValue> {
    api::gcf_decode(text, options).map_err(js_error)
}

/// GCF v1.1: encodes a delta (JSON).
#[wasm_bindgen(js_name = gcfEncodeDelta)]
pub fn gcf_encode_delta(delta: &str) -> Result<String, JsValue> {
    api::gcf_encode_delta(delta).map_err(js_error)
}

/// GCB1: the bytes of a payload (JSON).
#[wasm_bindgen(js_name = gcbEncode)]
pub fn gcb_encode(payload: &str) -> Result<Vec<u8>, JsValue> {
    api::gcb_encode(payload).map_err(js_error)
}

/// GCB1: the payload (JSON) of GCB1 bytes.
#[wasm_bindgen(js_name = gcbDecode)]
pub fn gcb_decode(bytes: &[u8], options: &str) -> Result<String, JsValue> {
    api::gcb_decode(bytes, options).map_err(js_error)
}

/// Codec registry: the built-in codecs (JSON).
#[wasm_bindgen(js_name = codecsList)]
pub fn codecs_list() -> String {
    api::codecs_list()
}

/// Codec registry: encodes a payload (JSON) with a named codec.
#[wasm_bindgen(js_name = codecEncode)]
pub fn codec_encode(name: &str, payload: &str) -> Result<Vec<u8>, JsValue> {
    api::codec_encode(name, payload).map_err(js_error)
}

/// Codec registry: decodes with a named codec to payload JSON.
#[wasm_bindgen(js_name = codecDecode)]
pub fn codec_decode(name: &str, input: &[u8]) -> Result<String, JsValue> {
    api::codec_decode(name, input).map_err(js_error)
}

/// GCF v1.1 session.
#[wasm_bindgen]
#[derive(Debug, Default)]
pub struct GcfSession(api::GcfSession);

#[wasm_bindgen]
impl GcfSession {
    #[wasm_bindgen(constructor)]
    pub fn new() -> GcfSession {
        GcfSession::default()
    }

    pub fn encode(&mut self, payload: &str) -> Result<String, JsValue> {
        self.0.encode(payload).map_err(js_error)
    }

    pub fn size(&self) -> u32 {
        u32::try_from(self.0.size()).unwrap_or(u32::MAX)
    }

    pub fn reset(&mut self) {
        self.0.reset();
    }
}
