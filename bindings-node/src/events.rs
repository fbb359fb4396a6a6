//! The Responses-API event protocol.

use agentwire_bindings::api;
use napi::bindgen_prelude::Uint8Array;
use napi::Result;
use napi_derive::napi;

use crate::js_error;

/// Events: a whole JSONL stream → `{valid, result, diagnostics, events}` (JSON).
#[napi(catch_unwind)]
pub fn events_parse(input: Uint8Array, options: String) -> Result<String> {
    api::events_parse(&input, &options).map_err(js_error)
}

/// Events: the stream rules over a JSON array of events (JSON).
#[napi(catch_unwind)]
pub fn events_accumulate(events: String) -> Result<String> {
    api::events_accumulate(&events).map_err(js_error)
}

/// Events: a JSON array of events as JSONL (`godex` or `spec` form).
#[napi(catch_unwind)]
pub fn events_serialize(events: String, form: String) -> Result<String> {
    api::events_serialize(&events, &form).map_err(js_error)
}

/// Events: the JSONL of a godex mock run.
#[napi(catch_unwind)]
pub fn events_mock(mode: String, echo_text: String) -> Result<String> {
    api::events_mock(&mode, &echo_text).map_err(js_error)
}

/// Events: an upstream SSE text → frames, converted events and verdict (JSON).
#[napi(catch_unwind)]
pub fn events_from_sse(text: String) -> Result<String> {
    api::events_from_sse(&text).map_err(js_error)
}

/// Events: a `--tool` value (JSON).
#[napi(catch_unwind)]
pub fn events_parse_tool_spec(spec: String) -> Result<String> {
    api::events_parse_tool_spec(&spec).map_err(js_error)
}

/// Events: the function tool for a schema text (JSON).
#[napi(catch_unwind)]
pub fn events_function_tool(name: String, schema_text: String) -> Result<String> {
    api::events_function_tool(&name, &schema_text).map_err(js_error)
}

/// Events: the follow-up input items (JSON).
#[napi(catch_unwind)]
pub fn events_follow_up(context: String, calls: String, outputs: String) -> Result<String> {
    api::events_follow_up(&context, &calls, &outputs).map_err(js_error)
}

/// Incremental JSONL event decoder.
#[napi]
#[derive(Debug)]
pub struct EventsDecoder(api::EventsDecoder);

#[napi]
impl EventsDecoder {
    #[napi(constructor, catch_unwind)]
    pub fn new(options: String) -> Result<EventsDecoder> {
        api::EventsDecoder::new(&options)
            .map(EventsDecoder)
            .map_err(js_error)
    }

    #[napi(catch_unwind)]
    pub fn push(&mut self, chunk: Uint8Array) -> Result<String> {
        self.0.push(&chunk).map_err(js_error)
    }

    #[napi(catch_unwind)]
    pub fn finish(&mut self) -> Result<String> {
        self.0.finish().map_err(js_error)
    }
}
