//! GCX1.

use agentwire_bindings::api;
use wasm_bindgen::prelude::*;

use crate::js_error;

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
