//! The hostile-input corpus (tests/hostile/manifest.json) through the core's typed API, with
//! each case's options read as the JS API reads them (the core's `from_value` of the options
//! types): each case's error code and position, or its result. The npm package runs the same
//! manifest through the native addon and wasm (npm/test/hostile.test.mjs).

use agentwire::gateway::item::mcp_tool_to_item;
use agentwire::gateway::path::parse_path_value;
use agentwire::gateway::report::tool_id_report;
use agentwire::gateway::tool_id::{parse_tool_id_value, parts_to_value};
use agentwire::gcx::document::{encode_document, write_sections_json_limited};
use agentwire::json::{self, ParseOptions, Value, WriteOptions};
use agentwire::{events, gcb, gcf, gcx};
use serde_json::Value as J;

fn manifest() -> J {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../hostile/manifest.json");
    let text = std::fs::read_to_string(path).expect("tests/hostile/manifest.json");
    serde_json::from_str(&text).expect("the manifest is JSON")
}

fn hex(text: &str) -> Vec<u8> {
    assert!(text.len().is_multiple_of(2), "odd hex {text:?}");
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex digits"))
        .collect()
}

/// The input bytes; `None` for JS-only parts (UTF-16 code units).
fn input(spec: &J) -> Option<Vec<u8>> {
    let parts = match spec {
        J::Array(parts) => parts.clone(),
        other => vec![other.clone()],
    };
    let mut out = Vec::new();
    for part in &parts {
        let count = || part["count"].as_u64().expect("count") as usize;
        match part {
            J::String(text) => out.extend_from_slice(text.as_bytes()),
            _ if part.get("text").is_some() => {
                out.extend_from_slice(part["text"].as_str().unwrap().as_bytes())
            }
            _ if part.get("hex").is_some() => out.extend(hex(part["hex"].as_str().unwrap())),
            _ if part.get("repeat").is_some() => out.extend(
                part["repeat"]
                    .as_str()
                    .unwrap()
                    .repeat(count())
                    .into_bytes(),
            ),
            _ if part.get("repeatHex").is_some() => {
                out.extend(hex(part["repeatHex"].as_str().unwrap()).repeat(count()))
            }
            _ if part.get("utf16").is_some() => return None,
            other => panic!("unknown input part {other}"),
        }
    }
    Some(out)
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("this function takes text: the input must be UTF-8")
}

/// The GCX1 push decoder: push everything, finish, read items up to the first error.
fn stream_decode(input: &[u8], options: gcx::DecodeOptions) -> agentwire::Result<String> {
    let mut decoder = gcx::Decoder::new(options);
    decoder.push(input);
    decoder.finish();
    let mut items = 0u64;
    while decoder.next()?.is_some() {
        items += 1;
    }
    Ok(format!("{{\"items\":{items}}}"))
}

/// GCX1 decode to the JSON text of its sections, within `maxOutputBytes`.
fn gcx_decode(input: &[u8], options: gcx::DecodeOptions) -> agentwire::Result<String> {
    let sections = gcx::decode(input, &options).into_borrowed()?;
    let mut out = String::new();
    write_sections_json_limited(&mut out, &sections, options.max_output_bytes)?;
    Ok(out)
}

/// `{version, profile}` of any GCF payload.
fn gcf3_decode(input: &[u8]) -> agentwire::Result<String> {
    let (version, document) = gcf::decode_any(input, &gcf::DecodeOptions::default())?;
    let profile = document.profile().as_str();
    Ok(format!(
        "{{\"version\":\"{}\",\"profile\":\"{profile}\"}}",
        version.as_str()
    ))
}

/// `maxLineBytes` of an events case (the default without one).
fn max_line_bytes(options: &Value) -> usize {
    match options.get("maxLineBytes") {
        Some(Value::Number(n)) => n.as_u64().expect("a positive integer") as usize,
        _ => events::DEFAULT_MAX_LINE_BYTES,
    }
}

fn json_text(value: &Value) -> agentwire::Result<String> {
    json::to_string(value, WriteOptions::PLAIN)
}

fn run(case: &J, input: &[u8]) -> agentwire::Result<String> {
    let options = case.get("options").map_or(Value::Null, to_value);
    let tool = case["tool"].as_str().unwrap_or("t");
    let encode = || gcx::EncodeOptions::from_value(&options);
    match case["api"].as_str().expect("api") {
        "gcx_decode" => gcx_decode(input, gcx::DecodeOptions::from_value(&options)?),
        "gcx_stream_decode" => stream_decode(input, gcx::DecodeOptions::from_value(&options)?),
        "gcx_encode" => {
            let options = encode()?;
            let depth = ParseOptions {
                max_depth: options.max_depth,
                ..ParseOptions::default()
            };
            encode_document(&json::parse_with(text(input), &depth)?, &options)
        }
        "gcx_encode_generic" => {
            let options = encode()?;
            let value = json::parse_with(text(input), &options.parse_options())?;
            gcx::encode_generic(tool, &value, &options)
        }
        "gcx_encode_tool" => {
            let options = gcx::ToolOptions::from_value(&options)?;
            let response = json::parse_with(text(input), &options.encode.parse_options())?;
            gcx::encode_tool(tool, &response, &options)
        }
        "gcf_decode" => {
            let options = gcf::DecodeOptions::from_value(&options)?;
            json_text(
                &gcf::v1::decode(text(input), &options)?
                    .into_payload()
                    .to_value(),
            )
        }
        "gcf3_decode" => gcf3_decode(input),
        "toon_decode" => {
            let options = agentwire::toon::DecodeOptions {
                strict: options.get("strict") != Some(&Value::Bool(false)),
                ..agentwire::toon::DecodeOptions::default()
            };
            json_text(&agentwire::toon::decode(text(input), &options)?)
        }
        "gcf_encode" => gcf::v1::encode(&gcf::Payload::from_value(&json::parse(text(input))?)?),
        "gcb_decode" => {
            let options = gcf::DecodeOptions::from_value(&options)?;
            json_text(&gcb::decode(input, &options)?.into_payload().to_value())
        }
        "events_parse" => {
            let (summary, _) = events::decode::parse_stream(input, max_line_bytes(&options));
            json_text(&summary.to_value())
        }
        "gateway_parse_tool_id" => json_text(&parts_to_value(&parse_tool_id_value(&json::parse(
            text(input),
        )?)?)),
        "gateway_parse_path" => {
            let value = json::parse(text(input))?;
            let segments = parse_path_value(&value)?;
            json_text(&Value::Array(
                segments.into_iter().map(Value::from).collect(),
            ))
        }
        "gateway_tool_id" => {
            let tool = json::parse(text(input))?;
            json_text(&tool_id_report(&mcp_tool_to_item(&tool, None)?))
        }
        other => panic!("unknown api function {other}"),
    }
}

/// A manifest value in agentwire's JSON model.
fn to_value(j: &J) -> Value {
    json::parse(&j.to_string()).expect("serde_json writes JSON")
}

/// An error with its code and position, for failure messages.
fn shown(e: &agentwire::Error) -> String {
    format!(
        "{}: {} (line {:?}, column {:?}, offset {:?})",
        e.code(),
        e.message(),
        e.line(),
        e.column(),
        e.offset()
    )
}

/// `{ok, path, equals}`: the value at `path` of the parsed result (`length` of a string or an
/// array is its length in characters or items), or the result text itself.
fn check_ok(expect: &J, result: &str) -> Result<(), String> {
    let Some(equals) = expect.get("equals") else {
        return Ok(());
    };
    let got = match expect.get("path").and_then(J::as_array) {
        None => J::String(result.into()),
        Some(path) => {
            let mut at: J = serde_json::from_str(result).map_err(|e| e.to_string())?;
            for step in path {
                at = match (step, &at) {
                    (J::String(s), J::String(t)) if s == "length" => J::from(t.chars().count()),
                    (J::String(s), J::Array(a)) if s == "length" => J::from(a.len()),
                    (J::String(key), J::Object(map)) => map.get(key).cloned().unwrap_or(J::Null),
                    (J::Number(i), J::Array(items)) => items[i.as_u64().unwrap() as usize].clone(),
                    _ => return Err(format!("no {step} in the result")),
                };
            }
            at
        }
    };
    if &got == equals {
        Ok(())
    } else {
        Err(format!("expected {equals}, got {got}"))
    }
}

/// `{valid, diagnostics: [partial]}`: every listed partial diagnostic matches one of them.
fn check_events(expect: &J, result: &str) -> Result<(), String> {
    let got: J = serde_json::from_str(result).map_err(|e| e.to_string())?;
    if let Some(valid) = expect.get("valid")
        && &got["valid"] != valid
    {
        return Err(format!("valid: expected {valid}, got {}", got["valid"]));
    }
    let diagnostics = got["diagnostics"].as_array().cloned().unwrap_or_default();
    for wanted in expect["diagnostics"].as_array().into_iter().flatten() {
        let matches = |d: &J| {
            wanted
                .as_object()
                .unwrap()
                .iter()
                .all(|(k, v)| match k.as_str() {
                    "messageIncludes" => d["message"]
                        .as_str()
                        .is_some_and(|m| m.contains(v.as_str().unwrap())),
                    _ => &d[k] == v,
                })
        };
        if !diagnostics.iter().any(matches) {
            let shown: Vec<String> = diagnostics
                .iter()
                .map(|d| {
                    let mut d = d.clone();
                    if let Some(J::String(m)) = d.get_mut("message") {
                        m.truncate(120);
                    }
                    d.to_string()
                })
                .collect();
            return Err(format!("no diagnostic like {wanted} in {shown:?}"));
        }
    }
    Ok(())
}

fn check_error(expect: &J, e: &agentwire::Error) -> Result<(), String> {
    let number = |v: Option<u64>| v.map_or(J::Null, J::from);
    for (key, want) in expect.as_object().unwrap() {
        let got = match key.as_str() {
            "code" => J::from(e.code()),
            "line" => number(e.line()),
            "column" => number(e.column()),
            "columnUtf16" => number(e.column_utf16()),
            "offset" => number(e.offset()),
            "messageIncludes" => {
                if e.message().contains(want.as_str().unwrap()) {
                    continue;
                }
                J::from(e.message())
            }
            other => return Err(format!("unknown expectation {other}")),
        };
        if &got != want {
            return Err(format!("{key}: expected {want}, got {got} ({})", shown(e)));
        }
    }
    Ok(())
}

fn check(case: &J, input: &[u8]) -> Result<(), String> {
    let expect = &case["expect"];
    let outcome = run(case, input);
    if expect.get("diagnostics").is_some() {
        return match outcome {
            Ok(result) => check_events(expect, &result),
            Err(e) => Err(format!("expected a verdict, got {}", shown(&e))),
        };
    }
    match (expect.get("ok"), outcome) {
        (Some(_), Ok(result)) => check_ok(expect, &result),
        (Some(_), Err(e)) => Err(format!("expected success, got {}", shown(&e))),
        (None, Ok(result)) => Err(format!(
            "expected {}, got success: {}",
            expect["code"],
            &result[..result.len().min(200)]
        )),
        (None, Err(e)) => check_error(expect, &e),
    }
}

#[test]
fn every_hostile_case_gives_its_code_and_position() {
    let manifest = manifest();
    let cases = manifest["cases"].as_array().expect("cases");
    let mut names = std::collections::BTreeSet::new();
    let (mut ran, mut js_only) = (0, 0);
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().expect("name");
        assert!(names.insert(name), "duplicate case name {name}");
        if case.get("only").and_then(J::as_str) == Some("js") {
            js_only += 1;
            continue;
        }
        let bytes = input(&case["input"]).unwrap_or_else(|| panic!("{name}: JS-only input"));
        ran += 1;
        if let Err(message) = check(case, &bytes) {
            failures.push(format!("{name}: {message}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(ran >= 80 && js_only >= 4, "ran {ran}, JS-only {js_only}");
    eprintln!("hostile: {ran} cases passed ({js_only} JS-only cases left to npm)");
}
