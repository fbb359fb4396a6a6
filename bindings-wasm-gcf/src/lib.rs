//! GCF v3.5.3 as its own wasm module (`gcf.load()` in browsers), so pages that only use GCX1 or
//! GCF v1.1 keep the default module within its size budget. Errors are thrown as JS `Error`s
//! whose message is [`api::error_json`], as in the default module.

use agentwire_bindings::api;
use wasm_bindgen::prelude::*;

fn js_error(e: agentwire::Error) -> JsValue {
    js_sys::Error::new(&api::error_json(&e)).into()
}

/// The crate version, checked by the npm loader.
#[wasm_bindgen]
pub fn version() -> String {
    api::version().to_string()
}

/// Not part of the API: panics on purpose (npm/test/hostile.test.mjs).
#[wasm_bindgen(js_name = "__agentwireInternalPanicForTests")]
pub fn internal_panic_for_tests() {
    api::internal_panic_for_tests()
}

/// GCF v3.5.3 generic profile: any JSON value (text) → GCF text.
#[wasm_bindgen(js_name = gcf3EncodeGeneric)]
pub fn gcf3_encode_generic(json: &str, options: &str) -> Result<String, JsValue> {
    api::gcf_v3_encode_generic(json, options).map_err(js_error)
}

/// GCF of either version and profile → `{version, profile, kind, value}` (JSON).
#[wasm_bindgen(js_name = gcf3Decode)]
pub fn gcf3_decode(input: &[u8], options: &str) -> Result<String, JsValue> {
    api::gcf_v3_decode(input, options).map_err(js_error)
}

/// A graph payload (JSON) → GCF text (options: version, stream, labeledCounts).
#[wasm_bindgen(js_name = gcf3EncodeGraph)]
pub fn gcf3_encode_graph(payload: &str, options: &str) -> Result<String, JsValue> {
    api::gcf_v3_encode_graph(payload, options).map_err(js_error)
}

/// A graph delta (JSON) → GCF v3.5.3 delta text.
#[wasm_bindgen(js_name = gcf3EncodeGraphDelta)]
pub fn gcf3_encode_graph_delta(delta: &str) -> Result<String, JsValue> {
    api::gcf_v3_encode_graph_delta(delta).map_err(js_error)
}

/// A graph snapshot (JSON) → `{root, canonical}` (JSON).
#[wasm_bindgen(js_name = gcf3GraphPackRoot)]
pub fn gcf3_graph_pack_root(snapshot: &str) -> Result<String, JsValue> {
    api::gcf_v3_graph_pack_root(snapshot).map_err(js_error)
}

/// A graph delta (GCF text) applied to a base snapshot (JSON) → the new snapshot (JSON).
#[wasm_bindgen(js_name = gcf3ApplyGraphDelta)]
pub fn gcf3_apply_graph_delta(base: &str, delta: &str) -> Result<String, JsValue> {
    api::gcf_v3_apply_graph_delta(base, delta).map_err(js_error)
}

/// A keyed set (JSON) → `{root, canonical}` (JSON).
#[wasm_bindgen(js_name = gcf3KeyedPackRoot)]
pub fn gcf3_keyed_pack_root(set: &str) -> Result<String, JsValue> {
    api::gcf_v3_keyed_pack_root(set).map_err(js_error)
}

/// A keyed set (JSON) → its full delta-participating payload.
#[wasm_bindgen(js_name = gcf3KeyedEncodeFull)]
pub fn gcf3_keyed_encode_full(set: &str, options: &str) -> Result<String, JsValue> {
    api::gcf_v3_keyed_encode_full(set, options).map_err(js_error)
}

/// A generic delta (JSON) → GCF delta text.
#[wasm_bindgen(js_name = gcf3KeyedEncodeDelta)]
pub fn gcf3_keyed_encode_delta(delta: &str) -> Result<String, JsValue> {
    api::gcf_v3_keyed_encode_delta(delta).map_err(js_error)
}

/// A generic delta (GCF text or JSON) applied to a base set (JSON) → `{set, root}` (JSON).
#[wasm_bindgen(js_name = gcf3KeyedApplyDelta)]
pub fn gcf3_keyed_apply_delta(base: &str, delta: &str) -> Result<String, JsValue> {
    api::gcf_v3_keyed_apply_delta(base, delta).map_err(js_error)
}

/// GCF v3.5.3 graph session.
#[wasm_bindgen(js_name = Gcf3GraphSession)]
#[derive(Debug)]
pub struct Gcf3GraphSession(api::GcfV3GraphSession);

#[wasm_bindgen(js_class = Gcf3GraphSession)]
impl Gcf3GraphSession {
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Gcf3GraphSession {
        Gcf3GraphSession(api::GcfV3GraphSession::new())
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

/// GCF v3.5.3 keyed-set delta session (producer side).
#[wasm_bindgen(js_name = Gcf3KeyedSession)]
#[derive(Debug)]
pub struct Gcf3KeyedSession(api::GcfV3KeyedSession);

#[wasm_bindgen(js_class = Gcf3KeyedSession)]
impl Gcf3KeyedSession {
    #[wasm_bindgen(constructor)]
    pub fn new(options: &str) -> Result<Gcf3KeyedSession, JsValue> {
        api::GcfV3KeyedSession::new(options)
            .map(Gcf3KeyedSession)
            .map_err(js_error)
    }

    pub fn emit(&mut self, set: &str) -> Result<String, JsValue> {
        self.0.emit(set).map_err(js_error)
    }
}
