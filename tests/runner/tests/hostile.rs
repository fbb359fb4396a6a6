//! The hostile-input corpus (tests/hostile/manifest.json) through `agentwire_bindings::api`,
//! the layer every binding calls: each case's error code and position, or its result. The npm package
//! runs the same manifest through the native addon and wasm (npm/test/hostile.test.mjs).

use agentwire_bindings::api;
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
fn stream_decode(input: &[u8], options: &str) -> agentwire::Result<String> {
    let mut decoder = api::GcxStreamDecoder::new(options)?;
    decoder.push(input);
    decoder.finish();
    let mut items = 0u64;
    while decoder.next_item()?.is_some() {
        items += 1;
    }
    Ok(format!("{{\"items\":{items}}}"))
}

fn run(case: &J, input: &[u8]) -> agentwire::Result<String> {
    let options = match case.get("options") {
        Some(o) => o.to_string(),
        None => String::new(),
    };
    let tool = case["tool"].as_str().unwrap_or("t");
    match case["api"].as_str().expect("api") {
        "gcx_decode" => api::gcx_decode(input, &options),
        "gcx_stream_decode" => stream_decode(input, &options),
        "gcx_encode" => api::gcx_encode(text(input), &options),
        "gcx_encode_generic" => api::gcx_encode_generic(tool, text(input), &options),
        "gcx_encode_tool" => api::gcx_encode_tool(tool, text(input), &options),
        "gcf_decode" => api::gcf_decode(text(input), &options),
        "gcf3_decode" => api::gcf_v3_decode(input, &options),
        "gcf_encode" => api::gcf_encode(text(input)),
        "gcb_decode" => api::gcb_decode(input, &options),
        "events_parse" => api::events_parse(input, &options),
        "gateway_parse_tool_id" => api::gateway_parse_tool_id(text(input)),
        "gateway_parse_path" => api::gateway_parse_path(text(input)),
        "gateway_tool_id" => api::gateway_tool_id(text(input), &options),
        other => panic!("unknown api function {other}"),
    }
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
    if let Some(valid) = expect.get("valid") {
        if &got["valid"] != valid {
            return Err(format!("valid: expected {valid}, got {}", got["valid"]));
        }
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
            return Err(format!(
                "{key}: expected {want}, got {got} ({})",
                api::error_json(e)
            ));
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
            Err(e) => Err(format!("expected a verdict, got {}", api::error_json(&e))),
        };
    }
    match (expect.get("ok"), outcome) {
        (Some(_), Ok(result)) => check_ok(expect, &result),
        (Some(_), Err(e)) => Err(format!("expected success, got {}", api::error_json(&e))),
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
