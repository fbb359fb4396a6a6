//! GCF v3.5.3 (`conformance/`): every fixture names its `operation`; all 16 are run and an
//! unknown one fails.
//!
//! Fixture files are split into their top-level members with serde_json. Member values that
//! are GCF payload inputs (`input` of generic encodes) are handed to agentwire as their raw JSON
//! text, exactly as a user would: the encoder must see the input's key order and number
//! lexemes (`1e+20` is a double, `100000000000000000000` an out-of-range integer). Decoded
//! values are compared with expectations parsed by agentwire's JSON reader (its own suite
//! checks it) so that key order is compared too; numbers compare by value.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use agentwire::gcf::v3::{self, Document};
use agentwire::json::{self, ParseOptions, Value};
use agentwire::Error;
use agentwire_bindings::ToValue;
use serde_json::value::RawValue;
use serde_json::Value as J;

use crate::support::{from_value, same_text};
use crate::Report;

mod graph;
mod keyed;

/// One fixture: its top-level members, unparsed.
pub(crate) struct Fixture {
    members: HashMap<String, Box<RawValue>>,
}

impl Fixture {
    fn read(path: &Path) -> Result<Fixture, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let members = serde_json::from_str(&text)
            .map_err(|e| format!("cannot parse {}: {e}", path.display()))?;
        Ok(Fixture { members })
    }

    /// The raw JSON text of member `key`.
    pub(crate) fn raw(&self, key: &str) -> Result<&str, String> {
        self.members
            .get(key)
            .map(|raw| raw.get())
            .ok_or_else(|| format!("fixture has no {key:?}"))
    }

    /// Member `key` as serde_json.
    pub(crate) fn json(&self, key: &str) -> Result<J, String> {
        serde_json::from_str(self.raw(key)?).map_err(|e| format!("{key}: {e}"))
    }

    /// Member `key`, which must be a string.
    pub(crate) fn string(&self, key: &str) -> Result<String, String> {
        match self.json(key)? {
            J::String(s) => Ok(s),
            other => Err(format!("{key} is not a string: {other}")),
        }
    }

    pub(crate) fn has(&self, key: &str) -> bool {
        self.members.contains_key(key)
    }

    /// Member `key` in agentwire's typed JSON model (key order kept).
    pub(crate) fn value(&self, key: &str) -> Result<Value, String> {
        typed(self.raw(key)?)
    }

    /// Member `key` with every number kept as its lexeme (encoder input).
    pub(crate) fn literal_value(&self, key: &str) -> Result<Value, String> {
        let options = ParseOptions {
            literal_numbers: true,
            ..ParseOptions::default()
        };
        json::parse_with(self.raw(key)?, &options).map_err(|e| format!("{key}: {e}"))
    }
}

/// JSON text in agentwire's typed model.
pub(crate) fn typed(text: &str) -> Result<Value, String> {
    json::parse(text).map_err(|e| format!("fixture JSON: {e}"))
}

/// How object member order is compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// Members in the same order, except inside table rows (the objects of an all-object
    /// array, the member values of an object whose values are all objects): a table row
    /// decodes in its header's order with `>`-named fields last (SPEC §7.3, §7.4.3, §7.4.6.1;
    /// fixtures inline-schema/008, flatten/016), so there only membership is compared.
    ExceptTableRows,
    /// Membership only: "compare decoded JSON structurally" (the suite's `decode` contract;
    /// some expectations list their keys alphabetically).
    Ignored,
}

/// True for the objects a table row can come from: items of an all-object array, values of
/// an object of objects (two or more).
fn holds_rows(v: &Value) -> bool {
    match v {
        Value::Array(items) => {
            !items.is_empty() && items.iter().all(|i| matches!(i, Value::Object(_)))
        }
        Value::Object(map) => {
            map.len() >= 2 && map.iter().all(|(_, v)| matches!(v, Value::Object(_)))
        }
        _ => false,
    }
}

/// Equality of JSON values with member order compared per `order`; numbers compare by value
/// (`1` equals `1.0`; integers beyond 2^53 compare exactly).
pub(crate) fn same_value(a: &Value, b: &Value, order: Order) -> bool {
    same_at(a, b, order, false)
}

fn same_at(a: &Value, b: &Value, order: Order, row: bool) -> bool {
    let child_row = order == Order::ExceptTableRows && holds_rows(a);
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => x
                .as_u64()
                .zip(y.as_u64())
                .map_or_else(|| x.as_f64() == y.as_f64(), |(x, y)| x == y),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(a, b)| same_at(a, b, order, child_row))
        }
        (Value::Object(x), Value::Object(y)) => {
            if x.len() != y.len() {
                return false;
            }
            if order == Order::Ignored || row {
                x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_at(v, w, order, child_row)))
            } else {
                x.iter()
                    .zip(y.iter())
                    .all(|((ka, va), (kb, vb))| ka == kb && same_at(va, vb, order, child_row))
            }
        }
        _ => a == b,
    }
}

/// `expected` vs `got` under [`same_value`], shown as JSON when they differ.
pub(crate) fn expect_value(
    what: &str,
    expected: &Value,
    got: &Value,
    order: Order,
) -> Result<(), String> {
    if same_value(expected, got, order) {
        Ok(())
    } else {
        Err(format!(
            "{what}: expected {}, got {}",
            from_value(expected),
            from_value(got)
        ))
    }
}

/// Every member of `expected` is in `got` with an equal value (objects recursively, arrays
/// element by element with equal lengths): the graph decode contract.
pub(crate) fn is_subset(expected: &J, got: &J) -> bool {
    match (expected, got) {
        (J::Object(e), J::Object(g)) => e
            .iter()
            .all(|(k, v)| g.get(k).is_some_and(|w| is_subset(v, w))),
        (J::Array(e), J::Array(g)) => {
            e.len() == g.len() && e.iter().zip(g).all(|(a, b)| is_subset(a, b))
        }
        (J::Number(x), J::Number(y)) => x.as_f64() == y.as_f64(),
        _ => expected == got,
    }
}

/// The error must carry the fixture's category: code `GCF_<CATEGORY>` for a SPEC category
/// (`count_mismatch`), or the text in its message for a prose expectation (`zero count`).
pub(crate) fn expect_error<T>(expected: &str, outcome: Result<T, Error>) -> Result<(), String> {
    match outcome {
        Ok(_) => Err(format!("expected error {expected:?}, but it succeeded")),
        Err(e) => {
            let code = format!("GCF_{}", expected.to_ascii_uppercase());
            if e.code() == code || e.message().contains(expected) {
                Ok(())
            } else {
                Err(format!(
                    "expected error {expected:?}, got {}: {}",
                    e.code(),
                    e.message()
                ))
            }
        }
    }
}

fn fail(e: Error) -> String {
    format!("{}: {e}", e.code())
}

/// Runs every fixture under `dir` (recursively). A directory without fixtures is an error.
pub fn run(dir: &Path) -> Result<Report, String> {
    let mut files = Vec::new();
    collect(dir, &mut files)?;
    files.sort();
    if files.is_empty() {
        return Err(format!("{}: no GCF fixtures", dir.display()));
    }
    let mut report = Report::default();
    for path in files {
        let fixture = Fixture::read(&path)?;
        let relative = path
            .strip_prefix(dir)
            .unwrap_or(&path)
            .display()
            .to_string();
        let id = format!("gcf/{relative}");
        let outcome = fixture
            .string("operation")
            .and_then(|operation| run_fixture(&operation, &fixture));
        report.record(id, outcome);
    }
    Ok(report)
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            collect(&path, files)?;
        } else if path.extension().is_some_and(|x| x == "json") {
            files.push(path);
        }
    }
    Ok(())
}

fn run_fixture(operation: &str, f: &Fixture) -> Result<(), String> {
    match operation {
        "encode" => encode(f),
        "decode" => decode(f),
        "error" => error(f),
        "encode-error" => encode_error(f),
        "roundtrip" => roundtrip(f),
        "roundtrip-wire" => roundtrip_wire(f),
        "session" => graph::session(f),
        "delta" => graph::delta(f),
        "delta-verify" => graph::delta_verify(f),
        "pack-root" => graph::pack_root(f),
        "graph-stream-encode" => graph::stream_encode(f),
        "generic-delta" => keyed::delta(f),
        "generic-delta-verify" => keyed::delta_verify(f),
        "generic-delta-decode" => keyed::delta_decode(f),
        "generic-delta-session" => keyed::delta_session(f),
        "generic-pack-root" => keyed::pack_root(f),
        other => Err(format!("unknown operation {other:?}")),
    }
}

/// Encodes the fixture input with the generic encoder and checks the bytes, then the round
/// trip `decode(encode(v)) == v` with member order kept (but inside table rows).
fn encode_generic_checked(f: &Fixture, expected: &str) -> Result<(), String> {
    let input = f.literal_value("input")?;
    let text = v3::encode_generic(&input).map_err(fail)?;
    same_text("encode", expected, &text)?;
    let decoded = v3::decode_generic(&text).map_err(|e| format!("round trip: {}", fail(e)))?;
    expect_value(
        "round trip",
        &f.value("input")?,
        &decoded,
        Order::ExceptTableRows,
    )
}

/// `encode`: byte-exact output; graph payloads go to the graph encoder.
fn encode(f: &Fixture) -> Result<(), String> {
    let expected = f.string("expected")?;
    if expected.starts_with("GCF profile=graph") {
        return graph::encode(f, &expected);
    }
    encode_generic_checked(f, &expected)
}

/// `decode`: generic values compare structurally (member order ignored, as the suite's README
/// says: some expectations list keys alphabetically); graph payloads as a subset.
fn decode(f: &Fixture) -> Result<(), String> {
    let input = f.string("input")?;
    match v3::decode(input.as_bytes()).map_err(fail)? {
        Document::Generic(value) => {
            expect_value("decode", &f.value("expected")?, &value, Order::Ignored)
        }
        Document::Graph(payload) => {
            let expected = f.json("expected")?;
            let got = from_value(&payload.to_value());
            if is_subset(&expected, &got) {
                Ok(())
            } else {
                Err(format!("decode: expected (subset) {expected}, got {got}"))
            }
        }
        other => Err(format!("decode: unexpected {:?} document", other.profile())),
    }
}

/// `error`: decoding must fail with the category (`inputBase64` is raw bytes).
fn error(f: &Fixture) -> Result<(), String> {
    let bytes = if f.has("inputBase64") {
        base64_decode(&f.string("inputBase64")?)?
    } else {
        f.string("input")?.into_bytes()
    };
    expect_error(&f.string("expectedError")?, v3::decode(&bytes))
}

/// `encode-error`: encoding must fail with the category.
fn encode_error(f: &Fixture) -> Result<(), String> {
    let input = f.literal_value("input")?;
    expect_error(&f.string("expectedError")?, v3::encode_generic(&input))
}

/// `roundtrip`: encode to the exact bytes and decode back to the input.
fn roundtrip(f: &Fixture) -> Result<(), String> {
    encode_generic_checked(f, &f.string("expected")?)
}

/// `roundtrip-wire`: decode then re-encode gives the expected wire.
fn roundtrip_wire(f: &Fixture) -> Result<(), String> {
    let value = v3::decode_generic(&f.string("input")?).map_err(fail)?;
    let text = v3::encode_generic(&value).map_err(fail)?;
    same_text("re-encode", &f.string("expected")?, &text)
}

/// Standard base64 with padding (the `inputBase64` of the invalid-UTF-8 fixture).
fn base64_decode(text: &str) -> Result<Vec<u8>, String> {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let mut buffer = 0u32;
    let mut bits = 0;
    for c in text.bytes().filter(|&c| c != b'=') {
        let v = ALPHABET
            .iter()
            .position(|&a| a == c)
            .ok_or_else(|| format!("inputBase64: invalid character {:?}", c as char))?;
        buffer = buffer << 6 | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
            buffer &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_reads_the_utf8_fixture() {
        let bytes = base64_decode("R0NGIHByb2ZpbGU9Z2VuZXJpYwp2YWx1ZT3/Cg==").unwrap();
        assert_eq!(bytes, b"GCF profile=generic\nvalue=\xff\n");
    }

    #[test]
    fn value_comparison_sees_order_and_numbers() {
        let a = typed(r#"{"a":1,"b":[1.0,2]}"#).unwrap();
        let b = typed(r#"{"a":1.0,"b":[1,2]}"#).unwrap();
        let c = typed(r#"{"b":[1,2],"a":1}"#).unwrap();
        assert!(same_value(&a, &b, Order::ExceptTableRows));
        assert!(!same_value(&a, &c, Order::ExceptTableRows));
        assert!(same_value(&a, &c, Order::Ignored));
        let big = typed("9007199254740993").unwrap();
        let near = typed("9007199254740992").unwrap();
        assert!(!same_value(&big, &near, Order::Ignored));
        // Table rows may differ in order, other objects may not.
        let rows = typed(r#"[{"a":1,"b":{"x":1,"y":2}},{"b":{"x":1,"y":2},"a":2}]"#).unwrap();
        let header_order =
            typed(r#"[{"a":1,"b":{"x":1,"y":2}},{"a":2,"b":{"x":1,"y":2}}]"#).unwrap();
        let inner_swapped =
            typed(r#"[{"a":1,"b":{"y":2,"x":1}},{"a":2,"b":{"x":1,"y":2}}]"#).unwrap();
        assert!(same_value(&rows, &header_order, Order::ExceptTableRows));
        assert!(!same_value(
            &header_order,
            &inner_swapped,
            Order::ExceptTableRows
        ));
    }

    #[test]
    fn errors_match_by_code_or_text() {
        let e = || {
            Err::<(), _>(Error::new(
                agentwire::ErrorKind::GcfCountMismatch,
                "count_mismatch: 2 rows, 3 declared",
            ))
        };
        assert!(expect_error("count_mismatch", e()).is_ok());
        assert!(expect_error("2 rows", e()).is_ok());
        assert!(expect_error("invalid_count", e()).is_err());
        assert!(expect_error("count_mismatch", Ok::<(), Error>(())).is_err());
    }
}
