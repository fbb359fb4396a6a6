//! GCF v3.5.3: generic and graph profiles, version detection, sessions, deltas, pack roots.

use agentwire_bindings::api;
use napi::bindgen_prelude::Uint8Array;
use napi::Result;
use napi_derive::napi;

use crate::js_error;

/// GCF v3.5.3 generic profile: any JSON value (text) → GCF text.
#[napi(catch_unwind, js_name = "gcf3EncodeGeneric")]
pub fn gcf3_encode_generic(json: String, options: String) -> Result<String> {
    api::gcf_v3_encode_generic(&json, &options).map_err(js_error)
}

/// GCF of either version and profile → `{version, profile, kind, value}` (JSON).
#[napi(catch_unwind, js_name = "gcf3Decode")]
pub fn gcf3_decode(input: Uint8Array, options: String) -> Result<String> {
    api::gcf_v3_decode(&input, &options).map_err(js_error)
}

/// A graph payload (JSON) → GCF text (options: version, stream, labeledCounts).
#[napi(catch_unwind, js_name = "gcf3EncodeGraph")]
pub fn gcf3_encode_graph(payload: String, options: String) -> Result<String> {
    api::gcf_v3_encode_graph(&payload, &options).map_err(js_error)
}

/// A graph delta (JSON) → GCF v3.5.3 delta text.
#[napi(catch_unwind, js_name = "gcf3EncodeGraphDelta")]
pub fn gcf3_encode_graph_delta(delta: String) -> Result<String> {
    api::gcf_v3_encode_graph_delta(&delta).map_err(js_error)
}

/// A graph snapshot (JSON) → `{root, canonical}` (JSON).
#[napi(catch_unwind, js_name = "gcf3GraphPackRoot")]
pub fn gcf3_graph_pack_root(snapshot: String) -> Result<String> {
    api::gcf_v3_graph_pack_root(&snapshot).map_err(js_error)
}

/// A graph delta (GCF text) applied to a base snapshot (JSON) → the new snapshot (JSON).
#[napi(catch_unwind, js_name = "gcf3ApplyGraphDelta")]
pub fn gcf3_apply_graph_delta(base: String, delta: String) -> Result<String> {
    api::gcf_v3_apply_graph_delta(&base, &delta).map_err(js_error)
}

/// A keyed set (JSON) → `{root, canonical}` (JSON).
#[napi(catch_unwind, js_name = "gcf3KeyedPackRoot")]
pub fn gcf3_keyed_pack_root(set: String) -> Result<String> {
    api::gcf_v3_keyed_pack_root(&set).map_err(js_error)
}

/// A keyed set (JSON) → its full delta-participating payload.
#[napi(catch_unwind, js_name = "gcf3KeyedEncodeFull")]
pub fn gcf3_keyed_encode_full(set: String, options: String) -> Result<String> {
    api::gcf_v3_keyed_encode_full(&set, &options).map_err(js_error)
}

/// A generic delta (JSON) → GCF delta text.
#[napi(catch_unwind, js_name = "gcf3KeyedEncodeDelta")]
pub fn gcf3_keyed_encode_delta(delta: String) -> Result<String> {
    api::gcf_v3_keyed_encode_delta(&delta).map_err(js_error)
}

/// A generic delta (GCF text or JSON) applied to a base set (JSON) → `{set, root}` (JSON).
#[napi(catch_unwind, js_name = "gcf3KeyedApplyDelta")]
pub fn gcf3_keyed_apply_delta(base: String, delta: String) -> Result<String> {
    api::gcf_v3_keyed_apply_delta(&base, &delta).map_err(js_error)
}

/// GCF v3.5.3 graph session.
#[napi(js_name = "Gcf3GraphSession")]
#[derive(Debug)]
pub struct Gcf3GraphSession(api::GcfV3GraphSession);

#[napi]
impl Gcf3GraphSession {
    #[napi(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Gcf3GraphSession {
        Gcf3GraphSession(api::GcfV3GraphSession::new())
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

/// GCF v3.5.3 keyed-set delta session (producer side).
#[napi(js_name = "Gcf3KeyedSession")]
#[derive(Debug)]
pub struct Gcf3KeyedSession(api::GcfV3KeyedSession);

#[napi]
impl Gcf3KeyedSession {
    #[napi(constructor, catch_unwind)]
    pub fn new(options: String) -> Result<Gcf3KeyedSession> {
        api::GcfV3KeyedSession::new(&options)
            .map(Gcf3KeyedSession)
            .map_err(js_error)
    }

    #[napi(catch_unwind)]
    pub fn emit(&mut self, set: String) -> Result<String> {
        self.0.emit(&set).map_err(js_error)
    }
}
