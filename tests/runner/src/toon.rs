//! TOON (spec 4.0): the spec's language-agnostic fixtures, `{encode,decode}/*.json` anywhere
//! under the directory (the bundled copy keeps the spec repository's `tests/fixtures/`).
//!
//! Every test of every file counts; none is skipped. Encode tests compare the text byte for
//! byte; decode tests compare the value with `expected` member by member in order (numbers by
//! value); `shouldError` tests must fail with a `TOON_` code and a line. Options the runner
//! does not know fail the test rather than being ignored.
//!
//! Files are split with serde_json, and each test's `input` and `expected` values are read by
//! agentwire's JSON parser (its own suite checks it), which keeps key order: serde_json's map
//! would sort the keys, and the order of keys is part of both the encoder's output and the
//! decoder's result.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use agentwire::json::{self, Value};
use agentwire::toon::{self, DecodeOptions, Delimiter, EncodeOptions};
use serde_json::Value as J;
use serde_json::value::RawValue;

use crate::Report;
use crate::compare::{Members, same_value};
use crate::support::same_text;

/// A fixture file's category and its tests (raw), or `None` for another JSON file
/// (`fixtures.schema.json`).
fn vector_file(text: &str) -> Option<(String, Vec<Box<RawValue>>)> {
    let members: HashMap<String, Box<RawValue>> = serde_json::from_str(text).ok()?;
    let category: String = serde_json::from_str(members.get("category")?.get()).ok()?;
    let tests = serde_json::from_str(members.get("tests")?.get()).ok()?;
    (category == "encode" || category == "decode").then_some((category, tests))
}

pub fn run(dir: &Path) -> Result<Report, String> {
    let mut files = Vec::new();
    collect(dir, &mut files)?;
    files.sort();
    let mut report = Report::default();
    let mut counted_files = 0;
    for path in files {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let Some((category, tests)) = vector_file(&text) else {
            continue;
        };
        counted_files += 1;
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        for raw in &tests {
            let test: HashMap<String, Box<RawValue>> = serde_json::from_str(raw.get())
                .map_err(|e| format!("{}: a test is not an object: {e}", path.display()))?;
            let title = test
                .get("name")
                .and_then(|n| serde_json::from_str::<String>(n.get()).ok())
                .unwrap_or_else(|| "?".into());
            let id = format!("{category}/{name}::{title}");
            let outcome = if category == "encode" {
                check_encode(&test)
            } else {
                check_decode(&test)
            };
            report.record(id, outcome);
        }
    }
    if counted_files == 0 {
        return Err(format!(
            "{}: no TOON fixture file (JSON with \"category\" and \"tests\")",
            dir.display()
        ));
    }
    Ok(report)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            collect(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
    Ok(())
}

/// Member `key` as agentwire's JSON value (key order kept).
fn value(test: &HashMap<String, Box<RawValue>>, key: &str) -> Result<Value, String> {
    let raw = test
        .get(key)
        .ok_or_else(|| format!("test has no {key:?}"))?;
    json::parse(raw.get()).map_err(|e| format!("{key}: {e}"))
}

fn should_error(test: &HashMap<String, Box<RawValue>>) -> bool {
    test.get("shouldError")
        .is_some_and(|raw| raw.get() == "true")
}

fn options(test: &HashMap<String, Box<RawValue>>) -> Result<serde_json::Map<String, J>, String> {
    match test.get("options") {
        None => Ok(serde_json::Map::new()),
        Some(raw) => match serde_json::from_str(raw.get()) {
            Ok(J::Object(map)) => Ok(map),
            _ => Err(format!("options is not an object: {}", raw.get())),
        },
    }
}

fn indent(value: &J) -> Result<usize, String> {
    value
        .as_u64()
        .map(|n| n as usize)
        .ok_or_else(|| format!("indentSize {value} is not a count"))
}

fn check_encode(test: &HashMap<String, Box<RawValue>>) -> Result<(), String> {
    let mut options = EncodeOptions::default();
    for (name, value) in options_of(test)? {
        match name.as_str() {
            "indentSize" => options.indent = indent(&value)?,
            "delimiter" => {
                options.delimiter = value
                    .as_str()
                    .and_then(Delimiter::from_name)
                    .ok_or_else(|| format!("unknown delimiter {value}"))?;
            }
            other => return Err(format!("unknown encode option {other:?}")),
        }
    }
    let input = value(test, "input")?;
    let outcome = toon::encode(&input, &options);
    if should_error(test) {
        return match outcome {
            Ok(text) => Err(format!("expected an error, got {text:?}")),
            Err(_) => Ok(()),
        };
    }
    let expected: String = test
        .get("expected")
        .and_then(|raw| serde_json::from_str(raw.get()).ok())
        .ok_or("expected is not a string")?;
    let text = outcome.map_err(|e| format!("encode failed: {} {e}", e.code()))?;
    same_text("encode", &expected, &text)
}

fn check_decode(test: &HashMap<String, Box<RawValue>>) -> Result<(), String> {
    let mut options = DecodeOptions::default();
    for (name, value) in options_of(test)? {
        match name.as_str() {
            "indentSize" => options.indent = indent(&value)?,
            "strict" => {
                options.strict = value
                    .as_bool()
                    .ok_or_else(|| format!("strict {value} is not a boolean"))?;
            }
            other => return Err(format!("unknown decode option {other:?}")),
        }
    }
    let input: String = test
        .get("input")
        .and_then(|raw| serde_json::from_str(raw.get()).ok())
        .ok_or("input is not a string")?;
    let outcome = toon::decode(&input, &options);
    if should_error(test) {
        return match outcome {
            Ok(v) => Err(format!(
                "expected an error, got {}",
                json::to_string(&v, json::WriteOptions::PLAIN).unwrap_or_default()
            )),
            Err(e) if !e.code().starts_with("TOON_") => {
                Err(format!("expected a TOON_ error, got {}: {e}", e.code()))
            }
            Err(e) if e.line().is_none() => Err(format!("error without a line: {e}")),
            Err(_) => Ok(()),
        };
    }
    let decoded = outcome.map_err(|e| format!("decode failed: {} {e}", e.code()))?;
    let expected = value(test, "expected")?;
    if same_value(&expected, &decoded, Members::InOrder) {
        return Ok(());
    }
    // Shown in member order (serde_json's map would sort the keys).
    let show = |v: &Value| json::to_string(v, json::WriteOptions::PLAIN).unwrap_or_default();
    Err(format!(
        "decode: expected {}, got {}",
        show(&expected),
        show(&decoded)
    ))
}

fn options_of(test: &HashMap<String, Box<RawValue>>) -> Result<Vec<(String, J)>, String> {
    Ok(options(test)?.into_iter().collect())
}
