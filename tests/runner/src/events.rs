//! Responses-API event vectors (`manifest.json` streams and SSE files, `toolspec.json`,
//! `mock.json`, `followup.json`), through the core's typed API (`agentwire::events`). Every
//! stream is also fed in seeded random chunkings (cuts anywhere, inside UTF-8 characters
//! included) and must give the same items and verdict as the whole input.

use std::path::Path;

use agentwire::events::accumulate::FunctionCall;
use agentwire::events::decode::{DecodedItem, StreamDecoder, parse_stream};
use agentwire::events::followup::follow_up_input;
use agentwire::events::mock::{MockMode, mock_events};
use agentwire::events::serialize::{Form, write_event, write_events};
use agentwire::events::toolspec::{ToolSpec, function_tool, parse_tool_spec};
use agentwire::events::{DEFAULT_MAX_LINE_BYTES, Summary, sse};
use agentwire::json::{self, Value};
use serde_json::{Value as J, json};

use crate::Report;
use crate::support::{from_value, read_json, same, same_text, to_value};

pub fn run(dir: &Path) -> Result<Report, String> {
    let mut report = Report::default();
    let mut files = 0;
    let manifest_path = dir.join("manifest.json");
    if manifest_path.exists() {
        files += 1;
        let manifest = read_json(&manifest_path)?;
        for entry in manifest.as_array().ok_or("manifest.json: not an array")? {
            let name = entry["name"].as_str().unwrap_or("?");
            let kind = entry["kind"].as_str().unwrap_or("?");
            let id = format!("events/{kind}/{name}");
            let outcome = (|| {
                let input = std::fs::read(dir.join(entry["input"].as_str().ok_or("no input")?))
                    .map_err(|e| format!("cannot read input: {e}"))?;
                let expected =
                    read_json(&dir.join(entry["expected"].as_str().ok_or("no expected")?))?;
                match kind {
                    "stream" => check_stream(&input, &expected, name),
                    "sse" => check_sse(&input, &expected),
                    other => Err(format!("unknown manifest kind {other:?}")),
                }
            })();
            report.record(id, outcome);
        }
    }
    for (file, check) in [
        ("toolspec.json", check_toolspec as fn(&J, &mut Report)),
        ("mock.json", check_mock),
        ("followup.json", check_followup),
    ] {
        let path = dir.join(file);
        if path.exists() {
            files += 1;
            check(&read_json(&path)?, &mut report);
        }
    }
    if files == 0 {
        return Err(format!("{}: no events vector file", dir.display()));
    }
    Ok(report)
}

/// `(line, code, severity)` plus `field` / `item_id` where the expectation gives them.
fn check_diagnostics(what: &str, expected: &J, got: &J) -> Result<(), String> {
    let want = expected
        .as_array()
        .ok_or("expected diagnostics are not an array")?;
    let got = got.as_array().ok_or("diagnostics are not an array")?;
    let keep = |d: &J, like: &J| {
        let mut out = json!({ "line": d["line"], "code": d["code"], "severity": d["severity"] });
        for key in ["field", "item_id"] {
            if like.get(key).is_some() {
                out[key] = d.get(key).cloned().unwrap_or(J::Null);
            }
        }
        out
    };
    let want_view: Vec<J> = want.iter().map(|d| keep(d, d)).collect();
    let got_view: Vec<J> = got
        .iter()
        .enumerate()
        .map(|(i, d)| keep(d, want.get(i).unwrap_or(&J::Null)))
        .collect();
    same(what, &J::Array(want_view), &J::Array(got_view))
}

fn check_stream(input: &[u8], expected: &J, name: &str) -> Result<(), String> {
    let (summary, _events) = parse_stream(input, DEFAULT_MAX_LINE_BYTES);
    let whole = from_value(&summary.to_value());
    same("valid", &expected["valid"], &whole["valid"])?;
    same("result", &expected["result"], &whole["result"])?;
    check_diagnostics(
        "diagnostics",
        &expected["diagnostics"],
        &whole["diagnostics"],
    )?;
    if expected["godex_canonical"] == J::Bool(true) {
        check_canonical(input)?;
    }
    check_chunkings(input, name)
}

/// Each non-blank line, parsed and written in godex's form, is the same bytes.
fn check_canonical(input: &[u8]) -> Result<(), String> {
    let text = std::str::from_utf8(input).map_err(|_| "a godex_canonical stream is not UTF-8")?;
    for (n, line) in text
        .split('\n')
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let fail = |e: agentwire::Error| format!("line {}: {e}", n + 1);
        let event = json::parse(line).map_err(fail)?;
        let event = event
            .as_object()
            .ok_or_else(|| format!("line {}: not an object", n + 1))?;
        let mut written = String::new();
        write_event(&mut written, event, Form::Godex).map_err(fail)?;
        same_text(
            &format!("line {} re-serialized", n + 1),
            &format!("{line}\n"),
            &written,
        )?;
    }
    Ok(())
}

/// A small deterministic generator (xorshift), seeded per stream.
struct Rng(u64);

impl Rng {
    fn for_name(name: &str) -> Rng {
        Rng(name.bytes().fold(0x9e37_79b9_7f4a_7c15, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        }) | 1)
    }

    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Every item the push decoder gives for `input` pushed in the chunk sizes `sizes` gives (the
/// pushes' and the finish's), and its verdict: the chunking checks of this runner and of the
/// events tests.
pub fn decode_in_chunks(
    input: &[u8],
    max_line_bytes: usize,
    sizes: &mut dyn FnMut() -> usize,
) -> (Vec<DecodedItem>, Summary) {
    let mut decoder = StreamDecoder::new(max_line_bytes);
    let mut items = Vec::new();
    let mut rest = input;
    while !rest.is_empty() {
        let n = sizes().clamp(1, rest.len());
        decoder.push(&rest[..n], &mut items);
        rest = &rest[n..];
    }
    let end = decoder.finish(&mut items);
    (items, end)
}

fn same_decoding(
    what: &str,
    whole: &(Vec<DecodedItem>, Summary),
    got: &(Vec<DecodedItem>, Summary),
) -> Result<(), String> {
    if whole.0 != got.0 {
        return Err(format!("items, {what}: {:?}\n!= {:?}", got.0, whole.0));
    }
    if whole.1 != got.1 {
        return Err(format!("verdict, {what}: {:?}\n!= {:?}", got.1, whole.1));
    }
    Ok(())
}

/// Whole input, one byte at a time, and 8 seeded random chunkings: identical outputs.
fn check_chunkings(input: &[u8], name: &str) -> Result<(), String> {
    let max_line = DEFAULT_MAX_LINE_BYTES;
    let whole = decode_in_chunks(input, max_line, &mut || usize::MAX);
    let bytes = decode_in_chunks(input, max_line, &mut || 1);
    same_decoding("one byte at a time", &whole, &bytes)?;
    let mut rng = Rng::for_name(name);
    for round in 0..8 {
        let max = 1 + rng.below(64);
        let chunked = decode_in_chunks(input, max_line, &mut || 1 + rng.below(max));
        same_decoding(&format!("random chunking {round}"), &whole, &chunked)?;
    }
    Ok(())
}

fn check_sse(input: &[u8], expected: &J) -> Result<(), String> {
    let text = std::str::from_utf8(input).map_err(|_| "SSE input is not UTF-8")?;
    let got = from_value(&sse::report(text));
    same("frames", &expected["frames"], &got["frames"])?;
    check_diagnostics(
        "framing_diagnostics",
        &expected["framing_diagnostics"],
        &got["framing_diagnostics"],
    )?;
    same("converted", &expected["converted"], &got["converted"])?;
    same("valid", &expected["valid"], &got["valid"])?;
    same("result", &expected["result"], &got["result"])?;
    check_diagnostics("diagnostics", &expected["diagnostics"], &got["diagnostics"])
}

/// The fixtures' codes are the error codes without `EVENTS_`, lower-cased.
fn fixture_code(error: &agentwire::Error) -> String {
    error
        .code()
        .trim_start_matches("EVENTS_")
        .to_ascii_lowercase()
}

fn check_expected_error(
    expected: &J,
    got: Result<J, agentwire::Error>,
    message: bool,
) -> Result<(), String> {
    let want = &expected["error"];
    match got {
        Ok(value) => Err(format!("expected error {}, got {value}", want["code"])),
        Err(error) => {
            same_text(
                "code",
                want["code"].as_str().unwrap_or("?"),
                &fixture_code(&error),
            )?;
            match want.get("message").and_then(J::as_str) {
                Some(text) if message => same_text("message", text, error.message()),
                _ => Ok(()),
            }
        }
    }
}

fn check_toolspec(file: &J, report: &mut Report) {
    for (i, case) in file["spec_cases"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let outcome = (|| {
            let input = case["input"].as_str().ok_or("input is not a string")?;
            let got = parse_tool_spec(input).map(|spec| tool_spec_value(&spec));
            match case["expected"].get("ok") {
                Some(ok) => same("spec", ok, &got.map_err(|e| e.to_string())?),
                None => check_expected_error(&case["expected"], got, true),
            }
        })();
        report.record(format!("events/toolspec.json::spec_cases[{i}]"), outcome);
    }
    for (i, case) in file["schema_cases"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let outcome = (|| {
            let name = case["name"].as_str().ok_or("name is not a string")?;
            let text = case["schema_text"]
                .as_str()
                .ok_or("schema_text is not a string")?;
            let got = function_tool(name, text).map(|tool| from_value(&tool));
            match case["expected"].get("ok") {
                Some(ok) => same("tool", ok, &got.map_err(|e| e.to_string())?),
                None => check_expected_error(&case["expected"], got, false),
            }
        })();
        report.record(format!("events/toolspec.json::schema_cases[{i}]"), outcome);
    }
}

fn jsonl(lines: &J) -> String {
    lines
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(J::as_str)
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The JSONL of a godex mock run in `mode`, as godex resolves the name.
fn mock_jsonl(mode: &str, echo_text: &str) -> Result<String, String> {
    let events = mock_events(MockMode::resolve(mode), echo_text);
    write_events(events.iter().filter_map(Value::as_object), Form::Godex).map_err(|e| e.to_string())
}

fn check_mock(file: &J, report: &mut Report) {
    for (mode, expected) in file["modes"].as_object().into_iter().flatten() {
        let echo = expected["echo_text"].as_str().unwrap_or("");
        let outcome = mock_jsonl(mode, echo)
            .and_then(|got| same_text("jsonl", &jsonl(&expected["jsonl_lines"]), &got));
        report.record(format!("events/mock.json::modes.{mode}"), outcome);
    }
    if let Some(long) = file.get("echo_long") {
        let outcome = mock_jsonl("echo", long["echo_text"].as_str().unwrap_or(""))
            .and_then(|got| same_text("jsonl", &jsonl(&long["jsonl_lines"]), &got));
        report.record("events/mock.json::echo_long".into(), outcome);
    }
}

fn check_followup(file: &J, report: &mut Report) {
    for case in file["cases"].as_array().into_iter().flatten() {
        let name = case["name"].as_str().unwrap_or("?");
        let outcome = follow_up(case).and_then(|got| same("input", &case["expected_input"], &got));
        report.record(format!("events/followup.json::{name}"), outcome);
    }
}

/// The fixtures' form of a `--tool` spec: `{kind: "web_search", tool}` or `{kind: "function",
/// name, path}`.
fn tool_spec_value(spec: &ToolSpec) -> J {
    match spec {
        ToolSpec::WebSearch => {
            json!({ "kind": "web_search", "tool": from_value(&agentwire::events::toolspec::web_search_tool()) })
        }
        ToolSpec::Function { name, path } => {
            json!({ "kind": "function", "name": name, "path": path })
        }
    }
}

/// A follow-up case's input through `follow_up_input`.
fn follow_up(case: &J) -> Result<J, String> {
    let context = match to_value(&case["context"]) {
        Value::Array(items) => items,
        _ => return Err("context is not an array".into()),
    };
    let calls = case["function_calls"]
        .as_array()
        .ok_or("function_calls is not an array")?
        .iter()
        .map(|call| {
            let field = |key: &str| {
                call[key]
                    .as_str()
                    .map(String::from)
                    .ok_or(format!("{key} is not a string"))
            };
            Ok(FunctionCall {
                id: call["id"].as_str().unwrap_or_default().into(),
                call_id: field("call_id")?,
                name: field("name")?,
                arguments: field("arguments")?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let outputs = case["outputs"]
        .as_object()
        .ok_or("outputs is not an object")?;
    let input = follow_up_input(&context, &calls, |call_id| {
        outputs.get(call_id).and_then(J::as_str)
    })
    .map_err(|e| e.to_string())?;
    Ok(from_value(&Value::Array(input)))
}
