//! GCX1 golden vectors (format: `tests/fixtures/gcx1/README.md`).

use std::path::Path;

use agentwire::gcx::document::{cell_from_value, header_from_value, section_to_value, write_op};
use agentwire::gcx::scope;
use agentwire::gcx::{
    self, DecodeOptions, Decoder, EncodeOptions, Encoder, Section, Strategy, ToolOptions,
};
use agentwire::json;
use agentwire::{Error, Result as AwResult};
use serde_json::Value as J;

use crate::Report;
use crate::support::{from_value, read_json, same, same_text, str_at, to_value, vectors};

type Check = fn(&J) -> Result<(), String>;

/// The vectors hold JSON text; it is parsed under the encoder's options, as every caller does.
fn encode_tool_json(tool: &str, json_text: &str, options: &ToolOptions) -> AwResult<String> {
    let response = json::parse_with(json_text, &options.encode.parse_options())?;
    gcx::encode_tool(tool, &response, options)
}

fn encode_generic_json(tool: &str, json_text: &str, options: &EncodeOptions) -> AwResult<String> {
    gcx::encode_generic(
        tool,
        &json::parse_with(json_text, &options.parse_options())?,
        options,
    )
}

fn decode_until_error(payload: &str) -> (Vec<Section>, Option<Error>) {
    gcx::decode(payload, &DecodeOptions::default()).into_owned_parts()
}

const FILES: &[(&str, Check)] = &[
    ("encode.json", check_encode),
    ("decode.json", check_decode),
    ("generic.json", check_generic),
    ("roundtrip.json", check_roundtrip),
    ("primitives.json", check_primitive),
    ("bench.json", check_generic),
];

pub fn run(dir: &Path) -> Result<Report, String> {
    let mut report = Report::default();
    let mut files_seen = 0;
    for (file, check) in FILES {
        let path = dir.join(file);
        if !path.exists() {
            continue;
        }
        files_seen += 1;
        let doc = read_json(&path)?;
        for vector in vectors(&doc, &path)? {
            let name = vector.get("name").and_then(J::as_str).unwrap_or("?");
            report.record(format!("gcx1/{file}::{name}"), check(&vector));
        }
    }
    let scope_dir = dir.join("scope");
    if scope_dir.is_dir() {
        let mut files: Vec<_> = std::fs::read_dir(&scope_dir)
            .map_err(|e| format!("cannot read {}: {e}", scope_dir.display()))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "gcx"))
            .collect();
        files.sort();
        for path in files {
            files_seen += 1;
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            report.record(format!("gcx1/scope/{name}"), check_scope_file(&path));
        }
    }
    if files_seen == 0 {
        return Err(format!(
            "{}: no GCX1 vector file (expected one of {})",
            dir.display(),
            FILES.iter().map(|(f, _)| *f).collect::<Vec<_>>().join(", ")
        ));
    }
    Ok(report)
}

fn input(vector: &J) -> Result<&J, String> {
    vector
        .get("input")
        .ok_or_else(|| "vector has no input".into())
}

/// Runs an encode input's sections/ops through the streaming encoder; returns the output
/// written and the first error.
fn run_encode(input: &J, options: &EncodeOptions) -> (String, Option<Error>) {
    let mut encoder = Encoder::new(String::new(), options.clone());
    let sections = input
        .get("sections")
        .and_then(J::as_array)
        .cloned()
        .unwrap_or_default();
    let result = sections.iter().try_for_each(|section| -> AwResult<()> {
        let value = to_value(section);
        let header = header_from_value(&to_value(&section["header"]))?;
        encoder.begin_section(&header)?;
        let ops = value.get("ops").and_then(|v| v.as_array()).unwrap_or(&[]);
        ops.iter()
            .try_for_each(|op| write_op(&mut encoder, op, &header.fields))
    });
    (encoder.sink().clone(), result.err())
}

fn error_code(kind: &str) -> String {
    format!("GCX_{}", kind.to_ascii_uppercase())
}

fn check_error(
    expected_message: &str,
    expected_kind: Option<&str>,
    got: &Error,
) -> Result<(), String> {
    same_text("error message", expected_message, got.message())?;
    if let Some(kind) = expected_kind {
        same_text("error code", &error_code(kind), got.code())?;
    }
    Ok(())
}

fn check_encode(vector: &J) -> Result<(), String> {
    let (output, error) = run_encode(input(vector)?, &EncodeOptions::gcx_go());
    match (vector.get("expected").and_then(J::as_str), error) {
        (Some(expected), None) => same_text("payload", expected, &output),
        (Some(_), Some(e)) => Err(format!("unexpected error {}: {e}", e.code())),
        (None, Some(e)) => {
            check_error(str_at(vector, "expected_error")?, None, &e)?;
            same_text(
                "output before error",
                str_at(vector, "expected_output_before_error")?,
                &output,
            )
        }
        (None, None) => Err(format!(
            "expected error {:?}, got payload {:?}",
            vector.get("expected_error"),
            output
        )),
    }
}

fn payload_of(input: &J) -> Result<String, String> {
    if let Some(p) = input.get("payload").and_then(J::as_str) {
        return Ok(p.to_string());
    }
    let parts = input
        .get("payload_parts")
        .and_then(J::as_array)
        .ok_or("input has neither payload nor payload_parts")?;
    let mut payload = String::new();
    for part in parts {
        if let Some(text) = part.get("text").and_then(J::as_str) {
            payload.push_str(text);
        } else {
            let unit = str_at(part, "repeat")?;
            let count = part
                .get("count")
                .and_then(J::as_u64)
                .ok_or("repeat without count")?;
            payload.push_str(&unit.repeat(count as usize));
        }
    }
    Ok(payload)
}

fn sections_json(sections: &[Section]) -> J {
    J::Array(
        sections
            .iter()
            .map(|s| from_value(&section_to_value(s)))
            .collect(),
    )
}

/// Decodes `payload` pushed in `chunk`-byte pieces, as the canonical procedure does.
fn decode_chunked(payload: &[u8], chunk: usize) -> (Vec<Section>, Option<Error>) {
    let mut decoder = Decoder::new(DecodeOptions::default());
    let mut sections: Vec<Section> = Vec::new();
    let mut pieces = payload.chunks(chunk);
    loop {
        match decoder.next() {
            Ok(Some(item)) => Section::collect(&mut sections, item),
            Ok(None) => match pieces.next() {
                Some(piece) => decoder.push(piece),
                None if !decoder.is_finished() => decoder.finish(),
                None => return (sections, None),
            },
            Err(e) => return (sections, Some(e)),
        }
    }
}

/// Checks one decode outcome against `expected` sections or an expected error.
fn check_decoded(
    vector_expectation: (&J, Option<&str>, Option<&str>, &J),
    got: &(Vec<Section>, Option<Error>),
) -> Result<(), String> {
    let (expected_sections, expected_error, expected_kind, sections_before) = vector_expectation;
    match (expected_error, &got.1) {
        (None, None) => same("sections", expected_sections, &sections_json(&got.0)),
        (None, Some(e)) => Err(format!("unexpected error {}: {e}", e.code())),
        (Some(message), Some(e)) => {
            check_error(message, expected_kind, e)?;
            same(
                "sections before error",
                sections_before,
                &sections_json(&got.0),
            )
        }
        (Some(message), None) => Err(format!("expected error {message:?}, decoding succeeded")),
    }
}

fn check_decode(vector: &J) -> Result<(), String> {
    let payload = payload_of(input(vector)?)?;
    let expectation = (
        vector.pointer("/expected/sections").unwrap_or(&J::Null),
        vector.get("expected_error").and_then(J::as_str),
        vector.get("error_kind").and_then(J::as_str),
        vector.get("sections_before_error").unwrap_or(&J::Null),
    );
    let whole = decode_until_error(&payload);
    check_decoded(expectation, &whole)?;
    // The push decoder must agree whatever the chunking.
    for chunk in [1, 7, 4096] {
        if chunk == 1 && payload.len() > 4096 {
            continue;
        }
        check_decoded(expectation, &decode_chunked(payload.as_bytes(), chunk))
            .map_err(|e| format!("pushed in {chunk}-byte chunks: {e}"))?;
    }
    Ok(())
}

fn check_generic(vector: &J) -> Result<(), String> {
    let input = input(vector)?;
    let tool = str_at(input, "tool")?;
    let json_text = str_at(input, "json")?;
    let typed = match vector.get("expected") {
        Some(e) => e,
        None => vector
            .pointer("/expected_by_number_mode/typed")
            .ok_or("vector has neither expected nor a typed expectation")?,
    };
    check_generic_mode(vector, tool, json_text, typed, &EncodeOptions::gcx_go())
        .map_err(|e| format!("typed numbers: {e}"))?;
    if let Some(literal) = vector.pointer("/expected_by_number_mode/literal") {
        let options = EncodeOptions {
            literal_numbers: true,
            ..EncodeOptions::gcx_go()
        };
        check_generic_mode(vector, tool, json_text, literal, &options)
            .map_err(|e| format!("literal numbers: {e}"))?;
    }
    if let Some(expected) = vector.get("bench_encoder_output").and_then(J::as_str) {
        check_bench(vector, tool, json_text, expected)?;
    }
    Ok(())
}

/// The upstream benchmark's own encoder (literal numbers) and its published byte counts.
fn check_bench(vector: &J, tool: &str, json_text: &str, expected: &str) -> Result<(), String> {
    let options = ToolOptions {
        strategy: Strategy::Bench,
        encode: EncodeOptions {
            literal_numbers: true,
            ..EncodeOptions::gcx_go()
        },
        ..ToolOptions::default()
    };
    let out =
        encode_tool_json(tool, json_text, &options).map_err(|e| format!("bench strategy: {e}"))?;
    same_text("bench strategy payload", expected, &out)?;
    if let Some(bytes) = vector.get("scorecard_bytes") {
        let value = agentwire::json::parse_with(
            json_text,
            &agentwire::json::ParseOptions {
                literal_numbers: true,
                ..Default::default()
            },
        )
        .map_err(|e| e.to_string())?;
        let compact = agentwire::json::to_string(&value, agentwire::json::WriteOptions::GO)
            .map_err(|e| e.to_string())?;
        same(
            "published JSON bytes",
            &bytes["json"],
            &J::from(compact.len()),
        )?;
        same("published GCX bytes", &bytes["gcx"], &J::from(out.len()))?;
    }
    Ok(())
}

fn check_generic_mode(
    vector: &J,
    tool: &str,
    json_text: &str,
    expected: &J,
    options: &EncodeOptions,
) -> Result<(), String> {
    let got = encode_generic_json(tool, json_text, options);
    match (expected, got) {
        (J::String(payload), Ok(out)) => {
            same_text("payload", payload, &out)?;
            if let Some(note) = vector.get("note_decoding_output_fails").and_then(J::as_str) {
                match decode_until_error(&out).1 {
                    Some(e) => same_text("decoding the output", note, e.message())?,
                    None => return Err(format!("decoding the output should fail with {note:?}")),
                }
            }
            Ok(())
        }
        (J::String(_), Err(e)) => Err(format!("unexpected error {}: {e}", e.code())),
        (J::Object(outcome), Err(e)) => match (outcome.get("error"), outcome.get("input_error")) {
            (Some(J::String(message)), _) => same_text("error message", message, e.message()),
            (_, Some(_)) if e.code().starts_with("JSON_") => Ok(()),
            _ => Err(format!("unexpected error {}: {e}", e.code())),
        },
        (expected, Ok(out)) => Err(format!("expected {expected}, got payload {out:?}")),
        (expected, Err(e)) => Err(format!("malformed expectation {expected} (got error {e})")),
    }
}

/// True when the decoded sections hold exactly the input's tool, fields, meta and string rows
/// (missing trailing cells counted as "").
fn is_lossless(input: &J, decoded: &[Section]) -> bool {
    let sections = input
        .get("sections")
        .and_then(J::as_array)
        .cloned()
        .unwrap_or_default();
    if sections.len() != decoded.len() {
        return false;
    }
    sections.iter().zip(decoded).all(|(section, got)| {
        let Ok(header) = header_from_value(&to_value(&section["header"])) else {
            return false;
        };
        let rows: Vec<Vec<String>> = section["ops"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|op| op.get("row").and_then(J::as_array))
            .map(|cells| {
                let mut row: Vec<String> = cells
                    .iter()
                    .map(|c| c.as_str().unwrap_or("").to_string())
                    .collect();
                row.resize(header.fields.len(), String::new());
                row
            })
            .collect();
        header == got.header && rows == got.rows
    })
}

fn check_roundtrip(vector: &J) -> Result<(), String> {
    let input = input(vector)?;
    let expected = vector.get("expected").ok_or("vector has no expected")?;
    let (payload, error) = run_encode(input, &EncodeOptions::gcx_go());
    if let Some(e) = error {
        return Err(format!("unexpected encode error {}: {e}", e.code()));
    }
    same_text("payload", str_at(expected, "payload")?, &payload)?;
    let decoded = decode_until_error(&payload);
    let expectation = (
        expected.get("decoded_sections").unwrap_or(&J::Null),
        expected.get("decode_error").and_then(J::as_str),
        expected.get("decode_error_kind").and_then(J::as_str),
        expected
            .get("decoded_sections_before_error")
            .unwrap_or(&J::Null),
    );
    check_decoded(expectation, &decoded)?;
    let lossless = decoded.1.is_none() && is_lossless(input, &decoded.0);
    same("lossless", &expected["lossless"], &J::Bool(lossless))?;
    // With the lossless option the round trip is exact, or encoding refuses.
    let (strict_payload, strict_error) = run_encode(
        input,
        &EncodeOptions {
            lossless: true,
            ..EncodeOptions::gcx_go()
        },
    );
    if strict_error.is_none() {
        let back = decode_until_error(&strict_payload);
        if back.1.is_some() || !is_lossless(input, &back.0) {
            return Err(format!(
                "lossless option wrote {strict_payload:?}, which does not read back"
            ));
        }
    }
    Ok(())
}

fn check_primitive(vector: &J) -> Result<(), String> {
    let input = input(vector)?;
    let expected = str_at(vector, "expected")?;
    let got = match str_at(input, "function")? {
        "escape" => agentwire::gcx::escape::escape(str_at(input, "s")?),
        "unescape" => agentwire::gcx::escape::unescape(str_at(input, "s")?).into_owned(),
        "stringify" => {
            let cell_value = to_value(input.get("cell").unwrap_or(&J::Null));
            let cell = cell_from_value(&cell_value).map_err(|e| e.to_string())?;
            let mut text = String::new();
            cell.write_text(&mut text).map_err(|e| e.to_string())?;
            text
        }
        other => return Err(format!("unknown primitive function {other:?}")),
    };
    same_text("result", expected, &got)
}

/// A scope file: decode it with the typed API of its shape, validate, re-encode, and compare
/// the bytes.
fn check_scope_file(path: &Path) -> Result<(), String> {
    let payload = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let (sections, error) = decode_until_error(&payload);
    if let Some(e) = error {
        return Err(format!("does not decode: {e}"));
    }
    let tool = sections
        .first()
        .map(|s| s.header.tool.as_str())
        .unwrap_or_default();
    let options = EncodeOptions::gcx_go();
    let again = match tool {
        "tool_definitions" => scope::decode_tool_definitions(&payload)
            .and_then(|d| scope::encode_tool_definitions(&d, &options)),
        "tool_request" => scope::decode_tool_request(&payload)
            .and_then(|r| scope::encode_tool_request(&r, &options)),
        "error" => scope::decode_error_envelope(&payload)
            .and_then(|e| scope::encode_error_envelope(&e, &options)),
        other => return Err(format!("unknown scope shape {other:?}")),
    }
    .map_err(|e| format!("{} {e}", e.code()))?;
    same_text("re-encoded", &payload, &again)
}
