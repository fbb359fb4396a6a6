//! GCX1 over JSON text.

use Vec;

use super::{options_value, parse_array, read_array, to_json};
use agentwire::gcx::scope::{self, ErrorEnvelope, ToolDefinition, ToolRequest};
use agentwire::gcx::{self, DecodeOptions, Decoder, EncodeOptions, Encoder, ToolOptions};
use agentwire::json::{self, Map, ParseOptions, Value};
use agentwire::{Error, ErrorKind, Result};

use crate::shapes::gcx::{
    cell_from_value, encode_document, header_from_value, item_to_value, parse_input, write_op,
    write_section_value, write_sections_json_limited,
};
use crate::shapes::{FromValue, ToValue};

/// GCX1: the row escaper (`\\`, `\t`, `\n`; CR dropped).
pub fn gcx_escape(text: &str) -> String {
    gcx::escape::escape(text)
}

/// GCX1: the decoder's unescaper.
pub fn gcx_unescape(text: &str) -> String {
    gcx::escape::unescape(text).into_owned()
}

/// GCX1: the text a cell (JSON: string, number, boolean, null or typed cell) is written as,
/// before escaping.
pub fn gcx_cell_text(cell_json: &str) -> Result<String> {
    let value = json::parse(cell_json)?;
    let mut text = String::new();
    cell_from_value(&value)?.write_text(&mut text)?;
    Ok(text)
}

/// GCX1: encodes a document of sections (see [`crate::shapes::gcx`]).
pub fn gcx_encode(document_json: &str, options_json: &str) -> Result<String> {
    let options = EncodeOptions::from_value(&options_value(options_json)?)?;
    let document = json::parse_with(
        document_json,
        &ParseOptions {
            max_depth: options.max_depth,
            ..ParseOptions::default()
        },
    )?;
    encode_document(&document, &options)
}

/// GCX1: the generic fallback for any JSON value.
pub fn gcx_encode_generic(tool: &str, value_json: &str, options_json: &str) -> Result<String> {
    let options = EncodeOptions::from_value(&options_value(options_json)?)?;
    gcx::encode_generic(tool, &parse_input(value_json, &options)?, &options)
}

/// GCX1: decodes a payload to `{"sections": [...]}` JSON.
pub fn gcx_decode(payload: &[u8], options_json: &str) -> Result<String> {
    let options = DecodeOptions::from_value(&options_value(options_json)?)?;
    let sections = gcx::decode(payload, &options).into_borrowed()?;
    let capacity = (payload.len() + payload.len() / 2).min(options.max_output_bytes);
    let mut out = String::with_capacity(capacity);
    write_sections_json_limited(&mut out, &sections, options.max_output_bytes)?;
    Ok(out)
}

/// GCX1: encodes a tool response by its layout, the generic fallback or the benchmark
/// strategy (options: `{"strategy", "layouts", "builtinLayouts", "lossless", "literalNumbers"}`).
pub fn gcx_encode_tool(tool: &str, response_json: &str, options_json: &str) -> Result<String> {
    let options = ToolOptions::from_value(&options_value(options_json)?)?;
    gcx::encode_tool(
        tool,
        &parse_input(response_json, &options.encode)?,
        &options,
    )
}

/// GCX1: every built-in tool layout, as a JSON array (the form custom layouts use).
pub fn gcx_layouts() -> String {
    let layouts = gcx::Layouts::builtin()
        .all()
        .iter()
        .map(gcx::ToolLayout::to_value)
        .collect();
    to_json(&Value::Array(layouts)).unwrap_or_default()
}

/// GCX1 `ParseFormat`: `"gcx"`, `"text"` or `"json"`.
pub fn gcx_parse_format(text: &str) -> &'static str {
    gcx::parse_format(text).as_str()
}

/// GCX1 scope: the `tool_definitions` section for `[{"name", "scope"}]`.
pub fn gcx_encode_tool_definitions(definitions_json: &str, options_json: &str) -> Result<String> {
    let options = EncodeOptions::from_value(&options_value(options_json)?)?;
    let definitions = parse_array(definitions_json, "definitions", ToolDefinition::from_value)?;
    scope::encode_tool_definitions(&definitions, &options)
}

/// GCX1 scope: `[{"name", "scope"}]` from a `tool_definitions` section.
pub fn gcx_decode_tool_definitions(payload: &str) -> Result<String> {
    let definitions = scope::decode_tool_definitions(payload)?;
    to_json(&Value::Array(
        definitions.iter().map(ToolDefinition::to_value).collect(),
    ))
}

/// GCX1 scope: the `tool_request` section for `{"tool", "scope", "repo"?}`.
pub fn gcx_encode_tool_request(request_json: &str, options_json: &str) -> Result<String> {
    let options = EncodeOptions::from_value(&options_value(options_json)?)?;
    scope::encode_tool_request(
        &ToolRequest::from_value(&json::parse(request_json)?)?,
        &options,
    )
}

/// GCX1 scope: `{"tool", "scope", "repo"}` from a `tool_request` section.
pub fn gcx_decode_tool_request(payload: &str) -> Result<String> {
    to_json(&scope::decode_tool_request(payload)?.to_value())
}

/// GCX1 scope: the `error` section for `{"code", "message", "detail"}`.
pub fn gcx_encode_error_envelope(envelope_json: &str, options_json: &str) -> Result<String> {
    let options = EncodeOptions::from_value(&options_value(options_json)?)?;
    scope::encode_error_envelope(
        &ErrorEnvelope::from_value(&json::parse(envelope_json)?)?,
        &options,
    )
}

/// GCX1 scope: `{"code", "message", "detail"}` from an `error` section.
pub fn gcx_decode_error_envelope(payload: &str) -> Result<String> {
    to_json(&scope::decode_error_envelope(payload)?.to_value())
}

/// GCX1 scope: `null` when the request is legal, else the error envelope JSON.
pub fn gcx_check_request(
    definitions_json: &str,
    request_json: &str,
    workspace_repos_json: &str,
) -> Result<String> {
    to_json(&check_request(
        &json::parse(definitions_json)?,
        &json::parse(request_json)?,
        &json::parse(workspace_repos_json)?,
    )?)
}

/// [`gcx_check_request`] over values: `null` or the error envelope.
pub fn check_request(
    definitions: &Value,
    request: &Value,
    workspace_repos: &Value,
) -> Result<Value> {
    let definitions = read_array(definitions, "definitions", ToolDefinition::from_value)?;
    let request = ToolRequest::from_value(request)?;
    let repos = read_array(workspace_repos, "workspaceRepos", |v| {
        v.as_str()
            .map(String::from)
            .ok_or_else(|| Error::new(ErrorKind::InvalidArgument, "expected a repo name string"))
    })?;
    Ok(
        match scope::check_request(&definitions, &request, &repos)? {
            None => Value::Null,
            Some(envelope) => envelope.to_value(),
        },
    )
}

/// GCX1 scope: the error code constants as `{"ERR_CODE_UNKNOWN_REPO": "unknown_repo", …}`.
pub fn gcx_error_code_constants() -> String {
    let map = scope::ErrorCode::ALL
        .iter()
        .map(|c| (c.constant_name(), Value::from(c.as_str())))
        .collect();
    to_json(&Value::Object(map)).unwrap_or_default()
}

/// GCX1: a streaming encoder whose output is taken piece by piece.
#[derive(Debug)]
pub struct GcxStreamEncoder {
    encoder: Encoder<String>,
    fields: Vec<String>,
    parse: ParseOptions,
}

impl GcxStreamEncoder {
    /// A new encoder with options JSON (`{"lossless"?: bool, "maxDepth"?}`).
    pub fn new(options_json: &str) -> Result<GcxStreamEncoder> {
        GcxStreamEncoder::with_options(&options_value(options_json)?)
    }

    /// A new encoder with an options value.
    pub fn with_options(options: &Value) -> Result<GcxStreamEncoder> {
        let options = EncodeOptions::from_value(options)?;
        let parse = ParseOptions {
            max_depth: options.max_depth,
            ..ParseOptions::default()
        };
        Ok(GcxStreamEncoder {
            encoder: Encoder::new(String::new(), options),
            fields: Vec::new(),
            parse,
        })
    }

    /// The nesting limit of values this encoder takes (its `maxDepth` option).
    pub fn max_depth(&self) -> usize {
        self.parse.max_depth
    }

    /// Starts a section from `{"tool", "fields", "meta"?}` JSON (rows or ops in it are written
    /// too).
    pub fn begin_section(&mut self, section_json: &str) -> Result<()> {
        let section = json::parse_with(section_json, &self.parse)?;
        self.begin_section_value(&section)
    }

    /// [`GcxStreamEncoder::begin_section`] for a value.
    pub fn begin_section_value(&mut self, section: &Value) -> Result<()> {
        self.fields = header_from_value(section)?.fields;
        write_section_value(&mut self.encoder, section)
    }

    /// Writes a row given as JSON (array of cells, or object keyed by field).
    pub fn write_row(&mut self, row_json: &str) -> Result<()> {
        let row = json::parse_with(row_json, &self.parse)?;
        self.write_row_value(row)
    }

    /// [`GcxStreamEncoder::write_row`] for a value.
    pub fn write_row_value(&mut self, row: Value) -> Result<()> {
        let mut op = Map::new();
        op.insert("row".into(), row);
        write_op(&mut self.encoder, &Value::Object(op), &self.fields)
    }

    /// Writes a comment line.
    pub fn write_comment(&mut self, text: &str) -> Result<()> {
        self.encoder.write_comment(text)
    }

    /// Takes the text written since the last call.
    pub fn take(&mut self) -> String {
        std::mem::take(self.encoder.sink_mut())
    }

    /// The sticky error, if a call failed.
    pub fn error(&self) -> Option<&Error> {
        self.encoder.error()
    }
}

/// GCX1: a push decoder yielding one JSON item at a time.
#[derive(Debug)]
pub struct GcxStreamDecoder {
    decoder: Decoder<'static>,
    fields: Vec<String>,
}

impl GcxStreamDecoder {
    /// A new decoder with options JSON (`{"maxLineBytes"?, "maxSections"?, "maxRows"?,
    /// "maxCells"?, "comments"?}`).
    pub fn new(options_json: &str) -> Result<GcxStreamDecoder> {
        GcxStreamDecoder::with_options(&options_value(options_json)?)
    }

    /// A new decoder with an options value.
    pub fn with_options(options: &Value) -> Result<GcxStreamDecoder> {
        let options = DecodeOptions::from_value(options)?;
        Ok(GcxStreamDecoder {
            decoder: Decoder::new(options),
            fields: Vec::new(),
        })
    }

    /// Appends input bytes.
    pub fn push(&mut self, chunk: &[u8]) {
        self.decoder.push(chunk);
    }

    /// Marks the end of input.
    pub fn finish(&mut self) {
        self.decoder.finish();
    }

    /// The next item as JSON (`{"type": "section" | "row" | "comment", …}`), or `None` when
    /// the input pushed so far holds no further complete item.
    pub fn next_item(&mut self) -> Result<Option<String>> {
        self.next_value()?.map(|v| to_json(&v)).transpose()
    }

    /// [`GcxStreamDecoder::next_item`] as a value.
    pub fn next_value(&mut self) -> Result<Option<Value>> {
        match self.decoder.next()? {
            None => Ok(None),
            Some(item) => {
                if let gcx::Item::Section(header) = &item {
                    self.fields.clone_from(&header.fields);
                }
                Ok(Some(item_to_value(&item, &self.fields)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{error_codes_json, error_json};

    #[test]
    fn text_round_trip() {
        let payload =
            gcx_encode(r#"[{"tool":"x","fields":["a","b"],"rows":[["1",2]]}]"#, "").unwrap();
        assert_eq!(payload, "GCX1 tool=x fields=a,b\n1\t2\n");
        assert_eq!(
            gcx_decode(payload.as_bytes(), "{}").unwrap(),
            r#"{"sections":[{"tool":"x","fields":["a","b"],"meta":{},"version":1,"rows":[{"a":"1","b":"2"}]}]}"#
        );
    }

    #[test]
    fn errors_as_json() {
        let e = gcx_decode(b"GCX1 tool=x fields=a\n1\t2\n", "").unwrap_err();
        assert_eq!(
            error_json(&e),
            r#"{"code":"GCX_TOO_MANY_VALUES","message":"wire: row has 2 values but header declared 1 fields","format":"gcx1","line":2,"column":3,"columnUtf16":3,"offset":23}"#
        );
        let e = gcx_encode("[]", r#"{"lossles":true}"#).unwrap_err();
        assert_eq!(e.code(), "INVALID_ARGUMENT");
        assert!(error_codes_json().contains("\"GCX_BAD_PREFIX\""));
    }

    #[test]
    fn stream_decoder_items() {
        let mut dec = GcxStreamDecoder::new("").unwrap();
        dec.push(b"GCX1 tool=x fields=a\nv\n");
        dec.finish();
        assert_eq!(
            dec.next_item().unwrap().unwrap(),
            r#"{"type":"section","tool":"x","fields":["a"],"meta":{},"version":1}"#
        );
        assert_eq!(
            dec.next_item().unwrap().unwrap(),
            r#"{"type":"row","row":{"a":"v"}}"#
        );
        assert_eq!(dec.next_item().unwrap(), None);
    }
}
