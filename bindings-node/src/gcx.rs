//! GCX1.

use agentwire_bindings::api;
use napi::bindgen_prelude::Uint8Array;
use napi::Result;
use napi_derive::napi;

use crate::js_error;

/// GCX1: the row escaper.
#[napi]
pub fn gcx_escape(text: String) -> String {
    api::gcx_escape(&text)
}

/// GCX1: the decoder's unescaper.
#[napi]
pub fn gcx_unescape(text: String) -> String {
    api::gcx_unescape(&text)
}

/// GCX1: the text of one cell (JSON) before escaping.
#[napi(catch_unwind)]
pub fn gcx_cell_text(cell: String) -> Result<String> {
    api::gcx_cell_text(&cell).map_err(js_error)
}

/// GCX1: encodes a JSON document of sections.
#[napi(catch_unwind)]
pub fn gcx_encode(document: String, options: String) -> Result<String> {
    api::gcx_encode(&document, &options).map_err(js_error)
}

/// GCX1: the generic fallback for a JSON value.
#[napi(catch_unwind)]
pub fn gcx_encode_generic(tool: String, value: String, options: String) -> Result<String> {
    api::gcx_encode_generic(&tool, &value, &options).map_err(js_error)
}

/// GCX1: decodes a payload to `{"sections": [...]}` JSON.
#[napi(catch_unwind)]
pub fn gcx_decode(payload: String, options: String) -> Result<String> {
    api::gcx_decode(payload.as_bytes(), &options).map_err(js_error)
}

/// GCX1: decodes UTF-8 bytes to `{"sections": [...]}` JSON.
#[napi(catch_unwind)]
pub fn gcx_decode_bytes(payload: Uint8Array, options: String) -> Result<String> {
    api::gcx_decode(&payload, &options).map_err(js_error)
}

/// GCX1: encodes a tool response by layout, generic fallback or benchmark strategy.
#[napi(catch_unwind)]
pub fn gcx_encode_tool(tool: String, response: String, options: String) -> Result<String> {
    api::gcx_encode_tool(&tool, &response, &options).map_err(js_error)
}

/// GCX1: the built-in tool layouts (JSON).
#[napi]
pub fn gcx_layouts() -> String {
    api::gcx_layouts()
}

/// GCX1 `ParseFormat`: gcx, text or json.
#[napi]
pub fn gcx_parse_format(text: String) -> String {
    api::gcx_parse_format(&text).to_string()
}

/// GCX1 scope: the tool_definitions section.
#[napi(catch_unwind)]
pub fn gcx_encode_tool_definitions(definitions: String, options: String) -> Result<String> {
    api::gcx_encode_tool_definitions(&definitions, &options).map_err(js_error)
}

/// GCX1 scope: tool definitions (JSON) from a payload.
#[napi(catch_unwind)]
pub fn gcx_decode_tool_definitions(payload: String) -> Result<String> {
    api::gcx_decode_tool_definitions(&payload).map_err(js_error)
}

/// GCX1 scope: the tool_request section.
#[napi(catch_unwind)]
pub fn gcx_encode_tool_request(request: String, options: String) -> Result<String> {
    api::gcx_encode_tool_request(&request, &options).map_err(js_error)
}

/// GCX1 scope: a tool request (JSON) from a payload.
#[napi(catch_unwind)]
pub fn gcx_decode_tool_request(payload: String) -> Result<String> {
    api::gcx_decode_tool_request(&payload).map_err(js_error)
}

/// GCX1 scope: the error section.
#[napi(catch_unwind)]
pub fn gcx_encode_error_envelope(envelope: String, options: String) -> Result<String> {
    api::gcx_encode_error_envelope(&envelope, &options).map_err(js_error)
}

/// GCX1 scope: an error envelope (JSON) from a payload.
#[napi(catch_unwind)]
pub fn gcx_decode_error_envelope(payload: String) -> Result<String> {
    api::gcx_decode_error_envelope(&payload).map_err(js_error)
}

/// GCX1 scope: null when legal, else the error envelope (JSON).
#[napi(catch_unwind)]
pub fn gcx_check_request(
    definitions: String,
    request: String,
    workspace_repos: String,
) -> Result<String> {
    api::gcx_check_request(&definitions, &request, &workspace_repos).map_err(js_error)
}

/// GCX1 scope: the ERR_CODE_* constants (JSON).
#[napi]
pub fn gcx_error_code_constants() -> String {
    api::gcx_error_code_constants()
}

/// GCX1 streaming encoder.
#[napi]
#[derive(Debug)]
pub struct GcxEncoder(api::GcxStreamEncoder);

#[napi]
impl GcxEncoder {
    #[napi(constructor, catch_unwind)]
    pub fn new(options: String) -> Result<GcxEncoder> {
        api::GcxStreamEncoder::new(&options)
            .map(GcxEncoder)
            .map_err(js_error)
    }

    #[napi(catch_unwind)]
    pub fn begin_section(&mut self, section: String) -> Result<()> {
        self.0.begin_section(&section).map_err(js_error)
    }

    #[napi(catch_unwind)]
    pub fn write_row(&mut self, row: String) -> Result<()> {
        self.0.write_row(&row).map_err(js_error)
    }

    #[napi(catch_unwind)]
    pub fn write_comment(&mut self, text: String) -> Result<()> {
        self.0.write_comment(&text).map_err(js_error)
    }

    #[napi]
    pub fn take(&mut self) -> String {
        self.0.take()
    }
}

/// GCX1 push decoder.
#[napi]
#[derive(Debug)]
pub struct GcxDecoder(api::GcxStreamDecoder);

#[napi]
impl GcxDecoder {
    #[napi(constructor, catch_unwind)]
    pub fn new(options: String) -> Result<GcxDecoder> {
        api::GcxStreamDecoder::new(&options)
            .map(GcxDecoder)
            .map_err(js_error)
    }

    #[napi]
    pub fn push_str(&mut self, chunk: String) {
        self.0.push(chunk.as_bytes());
    }

    #[napi]
    pub fn push_bytes(&mut self, chunk: Uint8Array) {
        self.0.push(&chunk);
    }

    #[napi]
    pub fn finish(&mut self) {
        self.0.finish();
    }

    #[napi(catch_unwind)]
    pub fn next_item(&mut self) -> Result<Option<String>> {
        self.0.next_item().map_err(js_error)
    }
}
