//! GCF v1.1 (`conformance-v1.1/`: the directory is the operation) and GCB1 (`vectors/`).

use std::path::{Path, PathBuf};

use agentwire::gcb;
use agentwire::gcf::v1::{self, Session};
use agentwire::gcf::{DeltaPayload, Payload};
use serde_json::Value as J;

use crate::Report;
use crate::compare::{Members, expect_json};
use crate::support::{from_value, read_json, same, same_text, str_at, to_value};

/// The `*.json` files of a directory, sorted.
fn json_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    Ok(files)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn payload(j: &J) -> Result<Payload, String> {
    Payload::from_value(&to_value(j)).map_err(|e| format!("fixture input: {e}"))
}

/// Checks one fixture.
type Check = fn(&J) -> Result<(), String>;

/// The operations of the v1.1 suite, by directory.
const GCF_OPERATIONS: &[(&str, Check)] = &[
    ("encode", gcf_encode),
    ("decode", gcf_decode),
    ("session", gcf_session),
    ("delta", gcf_delta),
    ("errors", gcf_error),
];

/// Runs GCF v1.1 fixtures. `generic/` (the v1 tabular profile) is reported as not supported
/// and never counted; a fixture without an expectation (`encode/011`) is reported and not
/// counted either.
pub fn run_gcf_v1(dir: &Path, notes: &mut Vec<String>) -> Result<Report, String> {
    let mut report = Report::default();
    let mut seen = 0;
    for (operation, check) in GCF_OPERATIONS {
        let sub = dir.join(operation);
        if !sub.is_dir() {
            continue;
        }
        for path in json_files(&sub)? {
            seen += 1;
            let fixture = read_json(&path)?;
            let id = format!("gcf-v1.1/{operation}/{}", file_name(&path));
            let has_expectation = ["expected", "expectedError", "calls"]
                .iter()
                .any(|k| fixture.get(k).is_some());
            if !has_expectation {
                notes.push(format!("NO EXPECTATION {id} (not counted)"));
                continue;
            }
            report.record(id, check(&fixture));
        }
    }
    let generic = dir.join("generic");
    if generic.is_dir() {
        let n = json_files(&generic)?.len();
        notes.push(format!(
            "NOT SUPPORTED gcf-v1.1/generic: {n} fixtures of the v1 tabular profile (not counted)"
        ));
    }
    if seen == 0 {
        return Err(format!(
            "{}: no GCF v1.1 fixture directory (expected encode/, decode/, session/, delta/, errors/)",
            dir.display()
        ));
    }
    Ok(report)
}

fn gcf_encode(fixture: &J) -> Result<(), String> {
    let out =
        v1::encode(&payload(&fixture["input"])?).map_err(|e| format!("encode failed: {e}"))?;
    same_text("GCF", str_at(fixture, "expected")?, &out)
}

/// Expected members must equal ours; members the fixture leaves out must hold their zero value
/// (GCF v1.1 carries no signature or components).
fn same_payload(expected: &J, got: &J) -> Result<(), String> {
    fn check(path: &str, expected: &J, got: &J) -> Result<(), String> {
        match (expected, got) {
            (J::Object(e), J::Object(g)) => {
                for (key, value) in g {
                    let at = format!("{path}.{key}");
                    match e.get(key) {
                        Some(ev) => check(&at, ev, value)?,
                        None => check_zero(&at, value)?,
                    }
                }
                match e.keys().find(|k| !g.contains_key(*k)) {
                    Some(k) => Err(format!("{path}.{k}: missing from the decoded payload")),
                    None => Ok(()),
                }
            }
            (J::Array(e), J::Array(g)) if e.len() == g.len() => e
                .iter()
                .zip(g)
                .enumerate()
                .try_for_each(|(i, (e, g))| check(&format!("{path}[{i}]"), e, g)),
            (J::Number(e), J::Number(g)) if e.as_f64() == g.as_f64() => Ok(()),
            _ if expected == got => Ok(()),
            _ => Err(format!("{path}: expected {expected}, got {got}")),
        }
    }
    fn check_zero(path: &str, value: &J) -> Result<(), String> {
        let zero = match value {
            J::String(s) => s.is_empty(),
            J::Number(n) => n.as_f64() == Some(0.0),
            J::Object(m) => m.values().all(|v| check_zero(path, v).is_ok()),
            J::Array(a) => a.is_empty(),
            J::Bool(b) => !b,
            J::Null => true,
        };
        if zero {
            Ok(())
        } else {
            Err(format!("{path}: expected the zero value, got {value}"))
        }
    }
    check("$", expected, got)
}

fn gcf_decode(fixture: &J) -> Result<(), String> {
    let decoded = v1::decode(str_at(fixture, "input")?, &Default::default())
        .map(|p| p.into_payload())
        .map_err(|e| format!("decode failed: {} {e}", e.code()))?;
    same_payload(&fixture["expected"], &from_value(&decoded.to_value()))
}

fn gcf_session(fixture: &J) -> Result<(), String> {
    let calls = fixture
        .get("calls")
        .and_then(J::as_array)
        .ok_or("no calls")?;
    let mut session = Session::new();
    for (i, call) in calls.iter().enumerate() {
        let out = session
            .encode(&payload(&call["input"])?)
            .map_err(|e| format!("call {i}: encode failed: {e}"))?;
        same_text(&format!("call {i}"), str_at(call, "expected")?, &out)?;
    }
    Ok(())
}

fn gcf_delta(fixture: &J) -> Result<(), String> {
    let delta = DeltaPayload::from_value(&to_value(&fixture["input"]))
        .map_err(|e| format!("fixture input: {e}"))?;
    same_text(
        "delta",
        str_at(fixture, "expected")?,
        &v1::encode_delta(&delta),
    )
}

fn gcf_error(fixture: &J) -> Result<(), String> {
    match v1::decode(str_at(fixture, "input")?, &Default::default()).map(|p| p.into_payload()) {
        Ok(p) => Err(format!(
            "decoding should fail, got {}",
            from_value(&p.to_value())
        )),
        Err(e) if e.code().starts_with("GCF_") && e.line().is_some() => Ok(()),
        Err(e) => Err(format!(
            "error without a GCF code or line: {} {e}",
            e.code()
        )),
    }
}

/// Runs GCB1 vectors from `DIR/vectors/` (or `DIR` itself).
pub fn run_gcb1(dir: &Path) -> Result<Report, String> {
    let vectors = if dir.join("vectors").is_dir() {
        dir.join("vectors")
    } else {
        dir.to_path_buf()
    };
    let files = json_files(&vectors)?;
    if files.is_empty() {
        return Err(format!("{}: no GCB1 vector file", vectors.display()));
    }
    let mut report = Report::default();
    for path in files {
        let vector = read_json(&path)?;
        report.record(format!("gcb1/{}", file_name(&path)), gcb_vector(&vector));
    }
    Ok(report)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Result<Vec<u8>, String> {
    if !text.len().is_multiple_of(2) {
        return Err("odd-length hex".into());
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).map_err(|e| format!("bad hex: {e}")))
        .collect()
}

fn gcb_vector(vector: &J) -> Result<(), String> {
    match str_at(vector, "operation")? {
        "encode" => {
            let bytes = gcb::encode(&payload(&vector["input"])?);
            same_text("bytes (hex)", str_at(vector, "expectedHex")?, &hex(&bytes))?;
            same("byteLength", &vector["byteLength"], &J::from(bytes.len()))?;
            let decoded = gcb::decode(&bytes, &Default::default())
                .map(|p| p.into_payload())
                .map_err(|e| format!("decoding our bytes failed: {e}"))?;
            expect_json(
                "decoded",
                &vector["expectedDecoded"],
                &from_value(&decoded.to_value()),
                Members::AnyOrder,
            )
        }
        "decode" => {
            let bytes = unhex(str_at(vector, "inputHex")?)?;
            match gcb::decode(&bytes, &Default::default()).map(|p| p.into_payload()) {
                Ok(p) => Err(format!(
                    "decoding should fail, got {}",
                    from_value(&p.to_value())
                )),
                Err(e) if e.code().starts_with("GCB_") && e.offset().is_some() => Ok(()),
                Err(e) => Err(format!(
                    "error without a GCB code or offset: {} {e}",
                    e.code()
                )),
            }
        }
        other => Err(format!("unknown operation {other:?}")),
    }
}
