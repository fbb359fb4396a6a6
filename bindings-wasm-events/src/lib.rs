//! The Responses-API event protocol as its own wasm module (`events.load()` in browsers), so
//! pages that only encode keep the default module within its size budget. Errors are thrown as
//! JS `Error`s whose message is [`api::error_json`], as in the default module.

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

/// Events: a whole JSONL stream → `{valid, result, diagnostics, events}` (JSON).
#[wasm_bindgen(js_name = eventsParse)]
pub fn events_parse(input: &[u8], options: &str) -> Result<String, JsValue> {
    api::events_parse(input, options).map_err(js_error)
}

/// Events: the stream rules over a JSON array of events (JSON).
#[wasm_bindgen(js_name = eventsAccumulate)]
pub fn events_accumulate(events: &str) -> Result<String, JsValue> {
    api::events_accumulate(events).map_err(js_error)
}

/// Events: a JSON array of events as JSONL (`godex` or `spec` form).
#[wasm_bindgen(js_name = eventsSerialize)]
pub fn events_serialize(events: &str, form: &str) -> Result<String, JsValue> {
    api::events_serialize(events, form).map_err(js_error)
}

/// Events: the JSONL of a godex mock run.
#[wasm_bindgen(js_name = eventsMock)]
pub fn events_mock(mode: &str, echo_text: &str) -> Result<String, JsValue> {
    api::events_mock(mode, echo_text).map_err(js_error)
}

/// Events: an upstream SSE text → frames, converted events and verdict (JSON).
#[wasm_bindgen(js_name = eventsFromSse)]
pub fn events_from_sse(text: &str) -> Result<String, JsValue> {
    api::events_from_sse(text).map_err(js_error)
}

/// Events: a `--tool` value (JSON).
#[wasm_bindgen(js_name = eventsParseToolSpec)]
pub fn events_parse_tool_spec(spec: &str) -> Result<String, JsValue> {
    api::events_parse_tool_spec(spec).map_err(js_error)
}

/// Events: the function tool for a schema text (JSON).
#[wasm_bindgen(js_name = eventsFunctionTool)]
pub fn events_function_tool(name: &str, schema_text: &str) -> Result<String, JsValue> {
    api::events_function_tool(name, schema_text).map_err(js_error)
}

/// Events: the follow-up input items (JSON).
#[wasm_bindgen(js_name = eventsFollowUp)]
pub fn events_follow_up(context: &str, calls: &str, outputs: &str) -> Result<String, JsValue> {
    api::events_follow_up(context, calls, outputs).map_err(js_error)
}

/// Incremental JSONL event decoder.
#[wasm_bindgen]
#[derive(Debug)]
pub struct EventsDecoder(api::EventsDecoder);

#[wasm_bindgen]
impl EventsDecoder {
    #[wasm_bindgen(constructor)]
    pub fn new(options: &str) -> Result<EventsDecoder, JsValue> {
        api::EventsDecoder::new(options)
            .map(EventsDecoder)
            .map_err(js_error)
    }

    pub fn push(&mut self, chunk: &[u8]) -> Result<String, JsValue> {
        self.0.push(chunk).map_err(js_error)
    }

    pub fn finish(&mut self) -> Result<String, JsValue> {
        self.0.finish().map_err(js_error)
    }
}

/// Not part of the API: panics on purpose, so tests can check that the trap reaches JS as an
/// `INTERNAL` error and what the module does afterwards (npm/test/hostile.test.mjs).
#[wasm_bindgen(js_name = __agentwireInternalPanicForTests)]
pub fn internal_panic_for_tests() {
    agentwire_bindings::api::internal_panic_for_tests()
}
