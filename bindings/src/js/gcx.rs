//! GCX1: encode and decode, tool layouts, the workspace shapes, the streaming classes.

use agentwire::gcx::document::{cell_from_value, encode_document, sections_json_len};
use agentwire::gcx::scope::{self, ErrorEnvelope, ToolDefinition, ToolRequest};
use agentwire::gcx::{self, BorrowedSection, DecodeOptions, EncodeOptions, ToolOptions};
use agentwire::json::{self, Value};
use agentwire::{Error, ErrorKind, Result};

use crate::call::{Call, Main, Tape};
use crate::shapes::gcx::{GcxStreamDecoder, GcxStreamEncoder, check_request as check};
use crate::shapes::read_array;
use crate::transfer::to_js::TapeWriter;

/// `gcx.escape(text)`.
pub fn escape(call: &mut Call<'_>) -> Result<String> {
    Ok(gcx::escape::escape(call.text("text")?))
}

/// `gcx.unescape(text)`.
pub fn unescape(call: &mut Call<'_>) -> Result<String> {
    Ok(gcx::escape::unescape(call.text("text")?).into_owned())
}

/// `gcx.cellText(cell)`.
pub fn cell_text(call: &mut Call<'_>) -> Result<String> {
    let cell = call.value()?;
    let mut text = String::new();
    cell_from_value(&cell)?.write_text(&mut text)?;
    Ok(text)
}

/// `gcx.encode(sections, options)`.
pub fn encode(call: &mut Call<'_>) -> Result<String> {
    let options = EncodeOptions::from_value(&call.value()?)?;
    let document = call.value_within(options.max_depth)?;
    encode_document(&document, &options)
}

/// `gcx.encodeGeneric(tool, value, options)`; `gcx.encodeGenericJson(tool, jsonText, options)`
/// passes the JSON text as the main input instead of the value.
pub fn encode_generic(call: &mut Call<'_>) -> Result<String> {
    let tool = call.string("tool")?;
    let options = EncodeOptions::from_value(&call.value()?)?;
    if let Main::Text(json) = call.main() {
        let value = json::parse_with(json, &options.parse_options())?;
        return gcx::encode_generic(&tool, &value, &options);
    }
    let value = call.value_within(options.max_depth)?;
    gcx::encode_generic(&tool, &value, &options)
}

/// `gcx.encodeTool(tool, response, options)`; `gcx.encodeToolJson` passes JSON text as the
/// main input.
pub fn encode_tool(call: &mut Call<'_>) -> Result<String> {
    let tool = call.string("tool")?;
    let options = ToolOptions::from_value(&call.value()?)?;
    if let Main::Text(json) = call.main() {
        let response = json::parse_with(json, &options.encode.parse_options())?;
        return gcx::encode_tool(&tool, &response, &options);
    }
    let response = call.value_within(options.encode.max_depth)?;
    gcx::encode_tool(&tool, &response, &options)
}

/// `gcx.encodeToolDetailed(tool, response, options)` (and `encodeToolJsonDetailed` with JSON
/// text as the main input): `{text, strategy, fallbackReason?}`.
pub fn encode_tool_detailed(call: &mut Call<'_>) -> Result<Tape> {
    let tool = call.string("tool")?;
    let options = ToolOptions::from_value(&call.value()?)?;
    let report = match call.main() {
        Main::Text(json) => {
            let response = json::parse_with(json, &options.encode.parse_options())?;
            gcx::encode_tool_report(&tool, &response, &options)?
        }
        _ => {
            let response = call.value_within(options.encode.max_depth)?;
            gcx::encode_tool_report(&tool, &response, &options)?
        }
    };
    let mut writer = call.writer();
    let keys: &[&str] = match report.fallback_reason {
        Some(_) => &["text", "strategy", "fallbackReason"],
        None => &["text", "strategy"],
    };
    let shape = writer.shape(keys);
    writer.object(shape);
    writer.str(&report.payload);
    writer.str(report.strategy.name());
    if let Some(reason) = &report.fallback_reason {
        writer.str(reason);
    }
    Ok(writer.into())
}

/// `gcx.decode(payload, options)`: `{sections: [{tool, fields, meta, version, rows}]}`, the
/// rows as objects keyed by field. Every cell without an escape is a slice of the caller's
/// string in JS.
pub fn decode(call: &mut Call<'_>) -> Result<Tape> {
    let options = DecodeOptions::from_value(&call.value()?)?;
    let decoded = match call.main() {
        // A string reached Rust as checked UTF-8.
        Main::Text(text) => gcx::decode_str(text, &options),
        _ => gcx::decode(call.bytes("payload")?, &options),
    };
    let sections = decoded.into_borrowed()?;
    check_output_size(&sections, options.max_output_bytes)?;
    let mut writer = call.writer();
    let top = writer.shape(&["sections"]);
    writer.object(top);
    writer.array(sections.len());
    for section in &sections {
        write_header(&mut writer, &section.header, "rows");
        let row = writer.shape(&section.header.fields);
        writer.string_rows(row, section.rows());
    }
    Ok(writer.into())
}

/// `{tool, fields, meta, version, <rows>}` up to the last member, whose value the caller
/// writes.
fn write_header(writer: &mut TapeWriter<'_>, header: &gcx::Header, last: &str) {
    let shape = writer.shape(&["tool", "fields", "meta", "version", last]);
    writer.object(shape);
    writer.str(&header.tool);
    writer.array(header.fields.len());
    for field in &header.fields {
        writer.str(field);
    }
    let keys: Vec<&str> = header.meta.keys().map(String::as_str).collect();
    let meta = writer.shape(&keys);
    writer.object(meta);
    for value in header.meta.values() {
        writer.str(value);
    }
    writer.i64(i64::from(gcx::VERSION));
}

/// `maxOutputBytes` bounds the decoded result as JSON text would spell it (every row repeats
/// the field names there), as it did when the result crossed as JSON: an upper bound first,
/// the exact length only when the bound passes the limit.
fn check_output_size(sections: &[BorrowedSection<'_>], max_bytes: usize) -> Result<()> {
    // A byte is at most 6 in JSON (`\u00XX`); quotes, colons and commas around each member.
    let mut bound: usize = 16;
    for section in sections {
        let header = &section.header;
        let names: usize = header.fields.iter().map(|f| 6 * f.len() + 4).sum();
        let meta: usize = header
            .meta
            .iter()
            .map(|(k, v)| 6 * (k.len() + v.len()) + 6)
            .sum();
        let cells: usize = section.rows().flatten().map(|c| 6 * c.len() + 3).sum();
        bound = bound
            .saturating_add(64 + 6 * header.tool.len() + names + meta)
            .saturating_add(section.row_count().saturating_mul(names + 2))
            .saturating_add(cells);
    }
    if bound <= max_bytes || sections_json_len(sections) <= max_bytes {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::GcxOutputTooLarge,
        format!(
            "the decoded JSON would be longer than {max_bytes} bytes \
             (the decoder's max output bytes limit)"
        ),
    ))
}

/// `gcx.layouts()`.
pub fn layouts(call: &mut Call<'_>) -> Result<Tape> {
    let layouts: Vec<Value> = gcx::Layouts::builtin()
        .all()
        .iter()
        .map(gcx::ToolLayout::to_value)
        .collect();
    Ok(call.tape(&Value::Array(layouts)))
}

/// `gcx.parseFormat(text)`.
pub fn parse_format(call: &mut Call<'_>) -> Result<String> {
    Ok(gcx::parse_format(call.text("format")?).as_str().into())
}

/// `gcx.encodeToolDefinitions(definitions, options)`.
pub fn encode_tool_definitions(call: &mut Call<'_>) -> Result<String> {
    let definitions = read_array(&call.value()?, "definitions", ToolDefinition::from_value)?;
    let options = EncodeOptions::from_value(&call.value()?)?;
    scope::encode_tool_definitions(&definitions, &options)
}

/// `gcx.decodeToolDefinitions(payload)`.
pub fn decode_tool_definitions(call: &mut Call<'_>) -> Result<Tape> {
    let definitions = scope::decode_tool_definitions(call.text("payload")?)?;
    let list: Vec<Value> = definitions.iter().map(ToolDefinition::to_value).collect();
    Ok(call.tape(&Value::Array(list)))
}

/// `gcx.encodeToolRequest(request, options)`.
pub fn encode_tool_request(call: &mut Call<'_>) -> Result<String> {
    let request = ToolRequest::from_value(&call.value()?)?;
    let options = EncodeOptions::from_value(&call.value()?)?;
    scope::encode_tool_request(&request, &options)
}

/// `gcx.decodeToolRequest(payload)`.
pub fn decode_tool_request(call: &mut Call<'_>) -> Result<Tape> {
    Ok(call.tape(&scope::decode_tool_request(call.text("payload")?)?.to_value()))
}

/// `gcx.encodeErrorEnvelope(envelope, options)`.
pub fn encode_error_envelope(call: &mut Call<'_>) -> Result<String> {
    let envelope = ErrorEnvelope::from_value(&call.value()?)?;
    let options = EncodeOptions::from_value(&call.value()?)?;
    scope::encode_error_envelope(&envelope, &options)
}

/// `gcx.decodeErrorEnvelope(payload)`.
pub fn decode_error_envelope(call: &mut Call<'_>) -> Result<Tape> {
    Ok(call.tape(&scope::decode_error_envelope(call.text("payload")?)?.to_value()))
}

/// `gcx.checkRequest(definitions, request, workspaceRepos)`: null or the error envelope.
pub fn check_request(call: &mut Call<'_>) -> Result<Tape> {
    let definitions = call.value()?;
    let request = call.value()?;
    let repos = call.value()?;
    Ok(call.tape(&check(&definitions, &request, &repos)?))
}

/// The `ERR_CODE_*` constants.
pub fn error_code_constants(call: &mut Call<'_>) -> Result<Tape> {
    let map = scope::ErrorCode::ALL
        .iter()
        .map(|c| (c.constant_name(), Value::from(c.as_str())))
        .collect();
    Ok(call.tape(&Value::Object(map)))
}

/// `new gcx.Encoder(options)`.
pub fn encoder_new(call: &mut Call<'_>) -> Result<GcxStreamEncoder> {
    GcxStreamEncoder::with_options(&call.value()?)
}

/// `encoder.beginSection(section)`.
pub fn encoder_begin_section(encoder: &mut GcxStreamEncoder, call: &mut Call<'_>) -> Result<()> {
    let section = call.value_within(encoder.max_depth())?;
    encoder.begin_section_value(&section)
}

/// `encoder.writeRow(row)`.
pub fn encoder_write_row(encoder: &mut GcxStreamEncoder, call: &mut Call<'_>) -> Result<()> {
    let row = call.value_within(encoder.max_depth())?;
    encoder.write_row_value(row)
}

/// `encoder.writeComment(text)`.
pub fn encoder_write_comment(encoder: &mut GcxStreamEncoder, call: &mut Call<'_>) -> Result<()> {
    encoder.write_comment(call.text("comment")?)
}

/// `encoder.take()`.
pub fn encoder_take(encoder: &mut GcxStreamEncoder, _: &mut Call<'_>) -> Result<String> {
    Ok(encoder.take())
}

/// `new gcx.Decoder(options)`.
pub fn decoder_new(call: &mut Call<'_>) -> Result<GcxStreamDecoder> {
    GcxStreamDecoder::with_options(&call.value()?)
}

/// `decoder.push(chunk)`: a string or bytes.
pub fn decoder_push(decoder: &mut GcxStreamDecoder, call: &mut Call<'_>) -> Result<()> {
    match call.main() {
        Main::Text(text) => decoder.push(text.as_bytes()),
        Main::Bytes(bytes) => decoder.push(bytes),
        Main::None => return Err(crate::call::invalid("chunk must be a string or Uint8Array")),
    }
    Ok(())
}

/// `decoder.finish()`.
pub fn decoder_finish(decoder: &mut GcxStreamDecoder, _: &mut Call<'_>) -> Result<()> {
    decoder.finish();
    Ok(())
}

/// `decoder.next()`: the next item, or null.
pub fn decoder_next(decoder: &mut GcxStreamDecoder, call: &mut Call<'_>) -> Result<Tape> {
    Ok(call.tape(&decoder.next_value()?.unwrap_or(Value::Null)))
}
