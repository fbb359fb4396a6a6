//! GCF v1.1, GCB1 and the codec registry.

use agentwire_bindings::api;
use napi::bindgen_prelude::Uint8Array;
use napi::Result;
use napi_derive::napi;

use crate::js_error;

/// GCF v1.1: encodes a payload (JSON).
#[napi(catch_unwind)]
pub fn gcf_encode(payload: String) -> Result<String> {
    api::gcf_encode(&payload).map_err(js_error)
}

/// GCF v1.1: the payload (JSON) of a GCF text.
#[napi(catch_unwind)]
pub fn gcf_decode(text: String, options: String) -> Result<String> {
    api::gcf_decode(&text, &options).map_err(js_error)
}

/// GCF v1.1: encodes a delta (JSON).
#[napi(catch_unwind)]
pub fn gcf_encode_delta(delta: String) -> Result<String> {
    api::gcf_encode_delta(&delta).map_err(js_error)
}

/// GCB1: the bytes of a payload (JSON).
#[napi(catch_unwind)]
pub fn gcb_encode(payload: String) -> Result<Uint8Array> {
    api::gcb_encode(&payload)
        .map(Uint8Array::new)
        .map_err(js_error)
}

/// GCB1: the payload (JSON) of GCB1 bytes.
#[napi(catch_unwind)]
pub fn gcb_decode(bytes: Uint8Array, options: String) -> Result<String> {
    api::gcb_decode(&bytes, &options).map_err(js_error)
}

/// Codec registry: the built-in codecs (JSON).
#[napi]
pub fn codecs_list() -> String {
    api::codecs_list()
}

/// Codec registry: encodes a payload (JSON) with a named codec.
#[napi(catch_unwind)]
pub fn codec_encode(name: String, payload: String) -> Result<Uint8Array> {
    api::codec_encode(&name, &payload)
        .map(Uint8Array::new)
        .map_err(js_error)
}

/// Codec registry: decodes with a named codec to payload JSON.
#[napi(catch_unwind)]
pub fn codec_decode(name: String, input: Uint8Array) -> Result<String> {
    api::codec_decode(&name, &input).map_err(js_error)
}

/// GCF v1.1 session.
#[napi]
#[derive(Debug)]
pub struct GcfSession(api::GcfSession);

#[napi]
impl GcfSession {
    #[napi(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> GcfSession {
        GcfSession(api::GcfSession::new())
    }

    #[napi(catch_unwind)]
    pub fn encode(&mut self, payload: String) -> Result<String> {
        self.0.encode(&payload).map_err(js_error)
    }

    #[napi]
    pub fn size(&self) -> u32 {
        u32::try_from(self.0.size()).unwrap_or(u32::MAX)
    }

    #[napi]
    pub fn reset(&mut self) {
        self.0.reset();
    }
}
