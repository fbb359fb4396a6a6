//! Responses-API event vectors (`manifest.json` streams and SSE files, `toolspec.json`,
//! `mock.json`, `followup.json`), through the JSON-text API the bindings wrap. Every stream is
//! also fed in seeded random chunkings (cuts anywhere, inside UTF-8 characters included) and
//! must give the same items and verdict as the whole input.

use std::path::Path;

use agentwire_bindings::api::{self, EventsDecoder};
use serde_json::{json, Value as J};

use crate::support::{read_json, same, same_text};
use crate::Report;

fn parse(text: &str) -> Result<J, String> {
    serde_json::from_str(text).map_err(|e| format!("API returned invalid JSON ({e}): {text}"))
}

fn api_json(result: Result<String, agentwire::Error>) -> Result<J, String> {
    parse(&result.map_err(|e| e.to_string())?)
}

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
    let whole = api_json(api::events_parse(input, ""))?;
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
        let events = format!("[{line}]");
        let written =
            api::events_serialize(&events, "godex").map_err(|e| format!("line {}: {e}", n + 1))?;
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

fn decode_in_chunks(input: &[u8], sizes: &mut dyn FnMut() -> usize) -> Result<(Vec<J>, J), String> {
    let mut decoder = EventsDecoder::new("").map_err(|e| e.to_string())?;
    let mut items = Vec::new();
    let mut rest = input;
    while !rest.is_empty() {
        let n = sizes().clamp(1, rest.len());
        let pushed = api_json(decoder.push(&rest[..n]))?;
        items.extend(pushed.as_array().cloned().unwrap_or_default());
        rest = &rest[n..];
    }
    let mut end = api_json(decoder.finish())?;
    items.extend(end["items"].as_array().cloned().unwrap_or_default());
    end["items"] = J::Null;
    Ok((items, end))
}

/// Whole input, one byte at a time, and 8 seeded random chunkings: identical outputs.
fn check_chunkings(input: &[u8], name: &str) -> Result<(), String> {
    let (whole_items, whole_end) = decode_in_chunks(input, &mut || usize::MAX)?;
    let (bytes_items, bytes_end) = decode_in_chunks(input, &mut || 1)?;
    same(
        "items, one byte at a time",
        &J::Array(whole_items.clone()),
        &J::Array(bytes_items),
    )?;
    same("verdict, one byte at a time", &whole_end, &bytes_end)?;
    let mut rng = Rng::for_name(name);
    for round in 0..8 {
        let max = 1 + rng.below(64);
        let (items, end) = decode_in_chunks(input, &mut || 1 + rng.below(max))?;
        same(
            &format!("items, random chunking {round}"),
            &J::Array(whole_items.clone()),
            &J::Array(items),
        )?;
        same(
            &format!("verdict, random chunking {round}"),
            &whole_end,
            &end,
        )?;
    }
    Ok(())
}

fn check_sse(input: &[u8], expected: &J) -> Result<(), String> {
    let text = std::str::from_utf8(input).map_err(|_| "SSE input is not UTF-8")?;
    let got = api_json(api::events_from_sse(text))?;
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
    got: Result<String, agentwire::Error>,
    message: bool,
) -> Result<(), String> {
    let want = &expected["error"];
    match got {
        Ok(text) => Err(format!("expected error {}, got {text}", want["code"])),
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
            let got = api::events_parse_tool_spec(input);
            match case["expected"].get("ok") {
                Some(ok) => same("spec", ok, &api_json(got)?),
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
            let got = api::events_function_tool(name, text);
            match case["expected"].get("ok") {
                Some(ok) => same("tool", ok, &api_json(got)?),
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

fn check_mock(file: &J, report: &mut Report) {
    for (mode, expected) in file["modes"].as_object().into_iter().flatten() {
        let echo = expected["echo_text"].as_str().unwrap_or("");
        let outcome = api::events_mock(mode, echo)
            .map_err(|e| e.to_string())
            .and_then(|got| same_text("jsonl", &jsonl(&expected["jsonl_lines"]), &got));
        report.record(format!("events/mock.json::modes.{mode}"), outcome);
    }
    if let Some(long) = file.get("echo_long") {
        let outcome = api::events_mock("echo", long["echo_text"].as_str().unwrap_or(""))
            .map_err(|e| e.to_string())
            .and_then(|got| same_text("jsonl", &jsonl(&long["jsonl_lines"]), &got));
        report.record("events/mock.json::echo_long".into(), outcome);
    }
}

fn check_followup(file: &J, report: &mut Report) {
    for case in file["cases"].as_array().into_iter().flatten() {
        let name = case["name"].as_str().unwrap_or("?");
        let got = api::events_follow_up(
            &case["context"].to_string(),
            &case["function_calls"].to_string(),
            &case["outputs"].to_string(),
        );
        let outcome = api_json(got).and_then(|got| same("input", &case["expected_input"], &got));
        report.record(format!("events/followup.json::{name}"), outcome);
    }
}
