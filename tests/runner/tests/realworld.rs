//! Compaction on JSON that real software produced (tests/realworld, provenance in its README):
//! every document gets a lossless winner or a stated reason, a winner decodes to the input's
//! value, and only a numeral outside strings keeps a document by the numeral rule. The choices
//! and output bytes are tests/realworld/compact.expected.json, which the npm suite checks the
//! native addon and wasm against: `AGENTWIRE_BLESS=1 cargo test -p agentwire-conformance --test
//! realworld` rewrites it after an intended change.

use std::path::{Path, PathBuf};

use agentwire::compact::{Compacted, Format, Options, Reason, compact_json, decode, js_equal};
use agentwire::json;
use agentwire::tokens::{Encoding, Tokenizer};
use serde_json::{Value as J, json};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../realworld")
}

/// FNV-1a (64 bits) of the text's UTF-8 bytes, as lowercase hex: the output bytes in the
/// expectations without the texts (the npm suite computes the same).
fn fnv1a64(text: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in text.as_bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// One compaction as the expectations record it.
fn record(file: &str, line: Option<usize>, encoding: &str, out: &Compacted) -> J {
    json!({
        "file": file,
        "line": line,
        "encoding": encoding,
        "format": out.format.as_str(),
        "tokens": out.tokens,
        "inputTokens": out.input_tokens,
        "bytes": out.text.len(),
        "fnv1a64": fnv1a64(&out.text),
        "reason": out.reason.as_ref().map(Reason::code),
        "candidates": out.candidates.iter().map(|c| json!([c.format.as_str(), c.lossless, c.tokens, c.tokens_exact])).collect::<Vec<_>>(),
    })
}

/// The checks every compaction of a real document passes.
fn check(name: &str, input: &str, features: &[String], out: &Compacted) -> Result<(), String> {
    if out.tokens > out.input_tokens {
        return Err(format!(
            "{name}: {} tokens, more than the input's {}",
            out.tokens, out.input_tokens
        ));
    }
    match &out.reason {
        None => {
            if out.format == Format::Input {
                return Err(format!("{name}: the input kept without a reason"));
            }
            let back = decode(&out.text)
                .map_err(|e| format!("{name}: the winner does not decode: {e}"))?
                .ok_or_else(|| format!("{name}: the winner cannot be read back from its text"))?;
            let value = json::parse(input).map_err(|e| format!("{name}: {e}"))?;
            if !js_equal(&back, &value) {
                return Err(format!(
                    "{name}: {} decodes to another value",
                    out.format.as_str()
                ));
            }
        }
        Some(reason) => {
            if out.format != Format::Input || out.text != input {
                return Err(format!(
                    "{name}: a reason ({}) but the input was not kept",
                    reason.code()
                ));
            }
        }
    }
    // The numeral rule keeps exactly the documents with a numeral outside strings that a double
    // changes (the manifest's feature, found by the collector's own JavaScript scan).
    let numeral_rule = matches!(out.reason, Some(Reason::InexactNumber { .. }));
    if numeral_rule != features.iter().any(|f| f == "inexact-numerals") {
        return Err(format!(
            "{name}: kept by the numeral rule: {numeral_rule}, manifest: {features:?}"
        ));
    }
    if let Some(Reason::InexactNumber {
        numeral,
        position: Some(at),
        ..
    }) = &out.reason
    {
        let start = at.offset as usize;
        if input.get(start..start + numeral.len()) != Some(numeral.as_str()) {
            return Err(format!(
                "{name}: the numeral {numeral} is not at offset {start}"
            ));
        }
    }
    Ok(())
}

#[test]
fn every_real_document_gets_a_lossless_winner_or_a_reason() {
    let manifest: J =
        serde_json::from_str(&std::fs::read_to_string(corpus().join("manifest.json")).unwrap())
            .unwrap();
    let files = manifest["files"].as_array().unwrap();
    assert!(
        files.len() >= 30,
        "the corpus has {} documents",
        files.len()
    );
    let tokenizers = [
        ("cl100k_base", Tokenizer::new(Encoding::Cl100kBase).unwrap()),
        ("o200k_base", Tokenizer::new(Encoding::O200kBase).unwrap()),
    ];
    let options = Options::default();
    let (mut records, mut failures, mut kept) = (Vec::new(), Vec::new(), 0);
    for entry in files {
        let file = entry["file"].as_str().unwrap();
        let features: Vec<String> = serde_json::from_value(entry["features"].clone()).unwrap();
        let text = std::fs::read_to_string(corpus().join(file)).unwrap();
        // A JSON-lines log is not one document: kept as NOT_JSON at its second line; each line
        // is one.
        let mut inputs = vec![(None, text.as_str())];
        if entry["kind"] == "jsonl" {
            inputs.extend(
                text.lines()
                    .enumerate()
                    .map(|(i, line)| (Some(i + 1), line)),
            );
        }
        for (encoding, tokenizer) in &tokenizers {
            for &(line, input) in &inputs {
                let name = format!(
                    "{file}{} ({encoding})",
                    line.map_or(String::new(), |l| format!(":{l}"))
                );
                let out = compact_json(input, &options, tokenizer).unwrap();
                let line_features = if line.is_some() {
                    &[][..]
                } else {
                    &features[..]
                };
                if let Err(message) = check(&name, input, line_features, &out) {
                    failures.push(message);
                }
                if entry["kind"] == "jsonl" && line.is_none() {
                    let second_line = matches!(&out.reason, Some(Reason::NotJson(e)) if e.code() == "JSON_SYNTAX" && e.line() == Some(2) && e.column() == Some(1));
                    if !second_line {
                        failures.push(format!(
                            "{name}: JSON lines not kept at line 2: {:?}",
                            out.reason
                        ));
                    }
                }
                kept += usize::from(out.reason.is_some());
                records.push(record(file, line, encoding, &out));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(kept < records.len(), "every document was kept");

    let expected_path = corpus().join("compact.expected.json");
    let ours = serde_json::to_string_pretty(
        &json!({ "options": { "tool": "result", "minSavings": 0.1 }, "results": records }),
    )
    .unwrap()
        + "\n";
    if std::env::var_os("AGENTWIRE_BLESS").is_some() {
        std::fs::write(&expected_path, &ours).unwrap();
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    if ours != expected {
        let first = ours.lines().zip(expected.lines()).position(|(a, b)| a != b);
        panic!(
            "the compactions differ from tests/realworld/compact.expected.json (first at line {:?}); if the change is intended, rerun with AGENTWIRE_BLESS=1",
            first.map(|l| l + 1)
        );
    }
}
