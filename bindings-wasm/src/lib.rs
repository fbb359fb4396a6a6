//! wasm-bindgen module: the same functions and classes as the Node addon, each passing text to
//! one `agentwire::api` call. Errors are thrown as JS `Error`s whose message is
//! [`api::error_json`]; the npm package turns them into `AgentwireError`.
//!
//! A panic aborts the wasm instance (`unreachable`); the npm package reports that as code
//! `INTERNAL` and replaces the instance.

use agentwire::api;
use wasm_bindgen::prelude::*;

fn js_error(e: agentwire::Error) -> JsValue {
    js_sys::Error::new(&api::error_json(&e)).into()
}

/// Every stable error code (JSON array).
#[wasm_bindgen(js_name = errorCodes)]
pub fn error_codes() -> String {
    api::error_codes_json()
}

/// The crate version, checked by the npm loader.
#[wasm_bindgen]
pub fn version() -> String {
    api::version().to_string()
}

/// GCX1: the row escaper.
#[wasm_bindgen(js_name = gcxEscape)]
pub fn gcx_escape(text: &str) -> String {
    api::gcx_escape(text)
}

/// GCX1: the decoder's unescaper.
#[wasm_bindgen(js_name = gcxUnescape)]
pub fn gcx_unescape(text: &str) -> String {
    api::gcx_unescape(text)
}

/// GCX1: the text of one cell (JSON) before escaping.
#[wasm_bindgen(js_name = gcxCellText)]
pub fn gcx_cell_text(cell: &str) -> Result<String, JsValue> {
    api::gcx_cell_text(cell).map_err(js_error)
}

/// GCX1: encodes a JSON document of sections.
#[wasm_bindgen(js_name = gcxEncode)]
pub fn gcx_encode(document: &str, options: &str) -> Result<String, JsValue> {
    api::gcx_encode(document, options).map_err(js_error)
}

/// GCX1: the generic fallback for a JSON value.
#[wasm_bindgen(js_name = gcxEncodeGeneric)]
pub fn gcx_encode_generic(tool: &str, value: &str, options: &str) -> Result<String, JsValue> {
    api::gcx_encode_generic(tool, value, options).map_err(js_error)
}

/// GCX1: decodes a payload to `{"sections": [...]}` JSON.
#[wasm_bindgen(js_name = gcxDecode)]
pub fn gcx_decode(payload: &str, options: &str) -> Result<String, JsValue> {
    api::gcx_decode(payload.as_bytes(), options).map_err(js_error)
}

/// GCX1: decodes UTF-8 bytes to `{"sections": [...]}` JSON.
#[wasm_bindgen(js_name = gcxDecodeBytes)]
pub fn gcx_decode_bytes(payload: &[u8], options: &str) -> Result<String, JsValue> {
    api::gcx_decode(payload, options).map_err(js_error)
}

/// GCX1: encodes a tool response by layout, generic fallback or benchmark strategy.
#[wasm_bindgen(js_name = gcxEncodeTool)]
pub fn gcx_encode_tool(tool: &str, response: &str, options: &str) -> Result<String, JsValue> {
    api::gcx_encode_tool(tool, response, options).map_err(js_error)
}

/// GCX1: the built-in tool layouts (JSON).
#[wasm_bindgen(js_name = gcxLayouts)]
pub fn gcx_layouts() -> String {
    api::gcx_layouts()
}

/// GCX1 `ParseFormat`: gcx, text or json.
#[wasm_bindgen(js_name = gcxParseFormat)]
pub fn gcx_parse_format(text: &str) -> String {
    api::gcx_parse_format(text).to_string()
}

/// GCX1 scope: the tool_definitions section.
#[wasm_bindgen(js_name = gcxEncodeToolDefinitions)]
pub fn gcx_encode_tool_definitions(definitions: &str, options: &str) -> Result<String, JsValue> {
    api::gcx_encode_tool_definitions(definitions, options).map_err(js_error)
}

/// GCX1 scope: tool definitions (JSON) from a payload.
#[wasm_bindgen(js_name = gcxDecodeToolDefinitions)]
pub fn gcx_decode_tool_definitions(payload: &str) -> Result<String, JsValue> {
    api::gcx_decode_tool_definitions(payload).map_err(js_error)
}

/// GCX1 scope: the tool_request section.
#[wasm_bindgen(js_name = gcxEncodeToolRequest)]
pub fn gcx_encode_tool_request(request: &str, options: &str) -> Result<String, JsValue> {
    api::gcx_encode_tool_request(request, options).map_err(js_error)
}

/// GCX1 scope: a tool request (JSON) from a payload.
#[wasm_bindgen(js_name = gcxDecodeToolRequest)]
pub fn gcx_decode_tool_request(payload: &str) -> Result<String, JsValue> {
    api::gcx_decode_tool_request(payload).map_err(js_error)
}

/// GCX1 scope: the error section.
#[wasm_bindgen(js_name = gcxEncodeErrorEnvelope)]
pub fn gcx_encode_error_envelope(envelope: &str, options: &str) -> Result<String, JsValue> {
    api::gcx_encode_error_envelope(envelope, options).map_err(js_error)
}

/// GCX1 scope: an error envelope (JSON) from a payload.
#[wasm_bindgen(js_name = gcxDecodeErrorEnvelope)]
pub fn gcx_decode_error_envelope(payload: &str) -> Result<String, JsValue> {
    api::gcx_decode_error_envelope(payload).map_err(js_error)
}

/// GCX1 scope: null when legal, else the error envelope (JSON).
#[wasm_bindgen(js_name = gcxCheckRequest)]
pub fn gcx_check_request(
    definitions: &str,
    request: &str,
    workspace_repos: &str,
) -> Result<String, JsValue> {
    api::gcx_check_request(definitions, request, workspace_repos).map_err(js_error)
}

/// GCX1 scope: the ERR_CODE_* constants (JSON).
#[wasm_bindgen(js_name = gcxErrorCodeConstants)]
pub fn gcx_error_code_constants() -> String {
    api::gcx_error_code_constants()
}

/// GCF v1.1: encodes a payload (JSON).
#[wasm_bindgen(js_name = gcfEncode)]
pub fn gcf_encode(payload: &str) -> Result<String, JsValue> {
    api::gcf_encode(payload).map_err(js_error)
}

/// GCF v1.1: the payload (JSON) of a GCF text.
#[wasm_bindgen(js_name = gcfDecode)]
pub fn gcf_decode(text: &str) -> Result<String, JsValue> {
    api::gcf_decode(text).map_err(js_error)
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
pub fn gcb_decode(bytes: &[u8]) -> Result<String, JsValue> {
    api::gcb_decode(bytes).map_err(js_error)
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

/// GCX1 streaming encoder.
#[wasm_bindgen]
#[derive(Debug)]
pub struct GcxEncoder(api::GcxStreamEncoder);

#[wasm_bindgen]
impl GcxEncoder {
    #[wasm_bindgen(constructor)]
    pub fn new(options: &str) -> Result<GcxEncoder, JsValue> {
        api::GcxStreamEncoder::new(options)
            .map(GcxEncoder)
            .map_err(js_error)
    }

    #[wasm_bindgen(js_name = beginSection)]
    pub fn begin_section(&mut self, section: &str) -> Result<(), JsValue> {
        self.0.begin_section(section).map_err(js_error)
    }

    #[wasm_bindgen(js_name = writeRow)]
    pub fn write_row(&mut self, row: &str) -> Result<(), JsValue> {
        self.0.write_row(row).map_err(js_error)
    }

    #[wasm_bindgen(js_name = writeComment)]
    pub fn write_comment(&mut self, text: &str) -> Result<(), JsValue> {
        self.0.write_comment(text).map_err(js_error)
    }

    pub fn take(&mut self) -> String {
        self.0.take()
    }
}

/// GCX1 push decoder.
#[wasm_bindgen]
#[derive(Debug)]
pub struct GcxDecoder(api::GcxStreamDecoder);

#[wasm_bindgen]
impl GcxDecoder {
    #[wasm_bindgen(constructor)]
    pub fn new(options: &str) -> Result<GcxDecoder, JsValue> {
        api::GcxStreamDecoder::new(options)
            .map(GcxDecoder)
            .map_err(js_error)
    }

    #[wasm_bindgen(js_name = pushStr)]
    pub fn push_str(&mut self, chunk: &str) {
        self.0.push(chunk.as_bytes());
    }

    #[wasm_bindgen(js_name = pushBytes)]
    pub fn push_bytes(&mut self, chunk: &[u8]) {
        self.0.push(chunk);
    }

    pub fn finish(&mut self) {
        self.0.finish();
    }

    #[wasm_bindgen(js_name = nextItem)]
    pub fn next_item(&mut self) -> Result<Option<String>, JsValue> {
        self.0.next_item().map_err(js_error)
    }
}
