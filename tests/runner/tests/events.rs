//! The events protocol beyond the counted vectors: godex's mock mode resolution and text-only
//! output (reference data in mock.json), over-long lines, and mutated vector streams and SSE
//! files (no panic, every line accounted for, the same items whatever the chunking).

use std::path::{Path, PathBuf};

use agentwire::events::decode::parse_stream;
use agentwire::events::mock::{MockMode, mock_events};
use agentwire::events::serialize::{Form, write_events};
use agentwire::events::sse::from_sse;
use agentwire::events::{DecodedItem, DiagnosticCode, Severity, Summary};
use agentwire_conformance::decode_in_chunks;
use serde_json::Value as J;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/events")
}

fn read_json(name: &str) -> J {
    let text = std::fs::read_to_string(fixtures().join(name)).expect("fixture readable");
    serde_json::from_str(&text).expect("fixture is JSON")
}

fn jsonl(lines: &J) -> String {
    lines
        .as_array()
        .expect("jsonl_lines is an array")
        .iter()
        .map(|l| format!("{}\n", l.as_str().expect("a line is a string")))
        .collect()
}

/// A small deterministic generator (xorshift64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn mock_mode_strings_resolve_as_godex_did() {
    let mock = read_json("mock.json");
    let echo_text = mock["modes"]["echo"]["echo_text"].as_str().unwrap();
    let observed = mock["mode_resolution"]["observed"].as_object().unwrap();
    assert!(!observed.is_empty());
    for (mode, seen) in observed {
        let events = mock_events(MockMode::resolve(mode), echo_text);
        let got = write_events(events.iter().filter_map(|e| e.as_object()), Form::Godex).unwrap();
        assert_eq!(
            got.lines().count() as u64,
            seen["line_count"].as_u64().unwrap(),
            "mode {mode:?}"
        );
        // "tool-call/tool-loop": the line count tells them apart, tool-call has 5 lines.
        let like = seen["resolved_like"].as_str().unwrap();
        let resolved = like.split('/').next().unwrap();
        assert_eq!(
            got,
            jsonl(&mock["modes"][resolved]["jsonl_lines"]),
            "mode {mode:?}"
        );
    }
}

#[test]
fn text_only_mock_output_is_the_accumulated_text() {
    let mock = read_json("mock.json");
    for (mode, key) in [
        ("text", "non_json_text_mode_stdout"),
        ("tool-loop", "non_json_tool_loop_stdout"),
    ] {
        let stream = jsonl(&mock["modes"][mode]["jsonl_lines"]);
        let (summary, _) = parse_stream(stream.as_bytes(), 1 << 20);
        assert!(summary.valid, "{mode}");
        assert_eq!(summary.result.text, mock[key].as_str().unwrap(), "{mode}");
    }
}

fn codes(items: &[DecodedItem]) -> Vec<(Option<u64>, &'static str)> {
    items
        .iter()
        .map(|item| match item {
            DecodedItem::Event { line, .. } => (Some(*line), "event"),
            DecodedItem::Diagnostic(d) => (d.line, d.code.as_str()),
        })
        .collect()
}

#[test]
fn over_long_lines_are_reported_and_the_rest_still_parses() {
    let long = format!(
        r#"{{"type":"response.output_text.delta","delta":"{}"}}"#,
        "x".repeat(100)
    );
    let fits = r#"{"type":"response.output_text.delta","delta":"ok"}"#;
    let stream = format!("{fits}\n{long}\r\n\n{fits}\n{{\"type\":\"response.completed\"}}\n{long}");
    let max = fits.len();
    let (whole, summary) = decode_in_chunks(stream.as_bytes(), max, &mut || usize::MAX);
    assert_eq!(
        codes(&whole),
        [
            (Some(1), "event"),
            (Some(2), "invalid_json"),
            (Some(4), "event"),
            (Some(5), "event"),
            // The over-long last line (no final newline) still counts.
            (Some(6), "invalid_json"),
        ]
    );
    assert_eq!(summary.result.text, "okok");
    assert!(!summary.valid);
    let mut rng = Rng(7);
    for _ in 0..20 {
        let cap = 1 + rng.below(40);
        let chunked = decode_in_chunks(stream.as_bytes(), max, &mut || 1 + rng.below(cap));
        assert_eq!(chunked, (whole.clone(), summary.clone()));
    }
    // The default limit takes the same stream whole.
    let (items, summary) = decode_in_chunks(stream.as_bytes(), usize::MAX, &mut || usize::MAX);
    assert_eq!(
        codes(&items).last(),
        Some(&(Some(6), "event_after_terminal"))
    );
    assert_eq!(summary.result.text, format!("ok{}ok", "x".repeat(100)));
}

/// Bytes that make mutations interesting: line and JSON structure, a stray `\r`, invalid and
/// partial UTF-8.
const NASTY: &[u8] = b"\n\r{}[]\":,\\ 0-e\xff\xc3\xe2\x82\xf0";

fn mutate(input: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..1 + rng.below(6) {
        let at = rng.below(out.len() + 1);
        match rng.below(4) {
            0 if at < out.len() => out[at] = NASTY[rng.below(NASTY.len())],
            1 if at < out.len() => {
                out.remove(at);
            }
            2 => {
                // Splice a copy of another stretch (duplicates events, ids and terminals).
                let from = rng.below(out.len() + 1);
                let to = (from + rng.below(120)).min(out.len());
                let piece = out[from..to].to_vec();
                out.splice(at..at, piece);
            }
            _ => out.insert(at, NASTY[rng.below(NASTY.len())]),
        }
    }
    out
}

/// Invariants of any decode: lines only grow, end-of-input diagnostics come last, the verdict
/// agrees with the severities, and kept events never come after the terminal event's line.
fn check_invariants(input: &[u8], items: &[DecodedItem], summary: &Summary) {
    let lines = input.split(|&b| b == b'\n').count() as u64;
    let mut last = 0u64;
    let mut at_end = false;
    let mut errors = 0;
    for (line, code) in codes(items) {
        match line {
            Some(line) => {
                assert!(!at_end, "a line diagnostic after the end-of-input ones");
                assert!(line >= last && line <= lines, "line {line} out of order");
                last = line;
            }
            None => at_end = true,
        }
        if code != "event" {
            let code = DiagnosticCode::ALL
                .iter()
                .find(|c| c.as_str() == code)
                .expect("a README code");
            errors += usize::from(code.severity() == Severity::Error);
        }
    }
    assert_eq!(summary.valid, errors == 0);
    assert_eq!(
        summary.result.status.is_none(),
        codes(items).contains(&(None, "missing_terminal"))
    );
}

#[test]
fn mutated_streams_never_panic_and_ignore_chunking() {
    let manifest = read_json("manifest.json");
    let mut streams = 0;
    for entry in manifest.as_array().unwrap() {
        if entry["kind"] != "stream" {
            continue;
        }
        streams += 1;
        let input = std::fs::read(fixtures().join(entry["input"].as_str().unwrap())).unwrap();
        let name = entry["name"].as_str().unwrap();
        let mut rng = Rng(name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        }));
        for _ in 0..40 {
            let mutated = mutate(&input, &mut rng);
            let max = [16, 64, 256, usize::MAX][rng.below(4)];
            let whole = decode_in_chunks(&mutated, max, &mut || usize::MAX);
            check_invariants(&mutated, &whole.0, &whole.1);
            let cap = 1 + rng.below(32);
            let chunked = decode_in_chunks(&mutated, max, &mut || 1 + rng.below(cap));
            assert_eq!(chunked, whole, "{name}: chunking changed the result");
        }
    }
    assert!(streams > 20, "the manifest lists the stream vectors");
}

#[test]
fn mutated_sse_files_never_panic() {
    let manifest = read_json("manifest.json");
    let mut files = 0;
    let mut rng = Rng(0x5eed);
    for entry in manifest.as_array().unwrap() {
        if entry["kind"] != "sse" {
            continue;
        }
        files += 1;
        let input = std::fs::read(fixtures().join(entry["input"].as_str().unwrap())).unwrap();
        for _ in 0..40 {
            let mutated = mutate(&input, &mut rng);
            let text = String::from_utf8_lossy(&mutated);
            let (frames, framing, converted) = from_sse(&text);
            assert!(frames.windows(2).all(|w| w[0].line < w[1].line));
            assert!(framing.iter().all(|d| d.line.is_some()));
            // Every converted event is an object with a string type, and the stream rules
            // take them whatever they hold.
            assert!(
                converted
                    .iter()
                    .all(|e| e.get("type").and_then(|t| t.as_str()).is_some())
            );
            let summary = agentwire::events::accumulate(converted);
            assert_eq!(
                summary.valid,
                summary
                    .diagnostics
                    .iter()
                    .all(|d| d.severity() != Severity::Error)
            );
        }
    }
    assert!(files > 0, "the manifest lists SSE vectors");
}
