//! GCF v3.5.3 (`conformance/`): every fixture names its `operation`; all 16 are run and an
//! unknown one fails. The fixtures are the v3.5.3 suite, so every generic encode pins
//! [`SpecVersion::V3_5_3`] (the default, v3.6.0, factors constant columns); the decoder reads
//! both.
//!
//! Fixture files are split into their top-level members with serde_json. Member values that
//! are GCF payload inputs (`input` of generic encodes) are handed to agentwire as their raw JSON
//! text, exactly as a user would: the encoder must see the input's key order and number
//! lexemes (`1e+20` is a double, `100000000000000000000` an out-of-range integer). Decoded
//! values are compared with expectations parsed by agentwire's JSON reader (its own suite
//! checks it) so that key order is compared too; numbers compare by value.
//!
//! Every generic payload a fixture holds is also decoded on its own, independently of the
//! encoder: an `encode`/`roundtrip` fixture's `expected` must decode to its `input`, a `decode`
//! fixture's `input` to its `expected`. Where that holds only with member order ignored, the
//! run says so in a note (`ORDER <id>: ...`), and the bundled-suite test pins the list, so a
//! new order difference fails it. Every decode error must carry a line.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use agentwire::Error;
use agentwire::gcf::v3::{self, Document, SpecVersion};
use agentwire::json::{self, ParseOptions, Value};
use serde_json::Value as J;
use serde_json::value::RawValue;

use crate::Report;
use crate::compare::{Members, expect_json, expect_value, same_value};
use crate::support::{from_value, same_text};

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

/// The generic encoder in the version of these fixtures.
fn encode_v3_5_3(value: &Value) -> Result<String, Error> {
    let options = v3::EncodeOptions {
        version: SpecVersion::V3_5_3,
        ..v3::EncodeOptions::default()
    };
    v3::encode_generic_with(value, &options)
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
        let mut order = None;
        let outcome = fixture
            .string("operation")
            .and_then(|operation| run_fixture(&operation, &fixture, &mut order));
        if let Some(what) = order {
            report.notes.push(format!("ORDER {id}: {what}"));
        }
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

/// Set by a check whose values match only with member order ignored (or in table rows only):
/// what differed, for the run's notes.
type OrderNote = Option<String>;

fn run_fixture(operation: &str, f: &Fixture, order: &mut OrderNote) -> Result<(), String> {
    match operation {
        "encode" => encode(f, order),
        "decode" => decode(f, order),
        "error" => error(f),
        "encode-error" => encode_error(f),
        "roundtrip" => roundtrip(f, order),
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

/// `decoded` against `expected` with member order kept; an order-only difference is noted
/// (`order`) and passes when `members` allows it.
fn expect_ordered(
    what: &str,
    expected: &Value,
    decoded: &Value,
    members: Members,
    order: &mut OrderNote,
) -> Result<(), String> {
    if same_value(expected, decoded, Members::InOrder) {
        return Ok(());
    }
    expect_value(what, expected, decoded, members)?;
    *order = Some(format!("{what}: member order differs from the expectation"));
    Ok(())
}

/// Decodes the fixture's expected payload on its own (independently of the encoder: a decoder
/// bug shows even when encoding fails) and checks it gives the input with member order kept
/// but inside table rows; then encodes the input with the generic encoder and checks the
/// bytes. Together: the round trip `decode(encode(v)) == v`.
fn encode_generic_checked(
    f: &Fixture,
    expected: &str,
    order: &mut OrderNote,
) -> Result<(), String> {
    let decoded = v3::decode_generic(expected)
        .map_err(|e| format!("decode of the expected payload: {}", fail(e)))
        .and_then(|decoded| {
            expect_ordered(
                "decode of the expected payload",
                &f.value("input")?,
                &decoded,
                Members::InOrderExceptTableRows,
                order,
            )
        });
    let input = f.literal_value("input")?;
    let encoded = encode_v3_5_3(&input)
        .map_err(fail)
        .and_then(|text| same_text("encode", expected, &text));
    match (encoded, decoded) {
        (Ok(()), Ok(())) => Ok(()),
        (Err(e), Ok(())) | (Ok(()), Err(e)) => Err(e),
        (Err(e), Err(d)) => Err(format!("{e}; {d}")),
    }
}

/// `encode`: byte-exact output; graph payloads go to the graph encoder.
fn encode(f: &Fixture, order: &mut OrderNote) -> Result<(), String> {
    let expected = f.string("expected")?;
    if expected.starts_with("GCF profile=graph") {
        return graph::encode(f, &expected);
    }
    encode_generic_checked(f, &expected, order)
}

/// `decode`: generic values compare structurally (member order ignored, as the suite's README
/// says: some expectations list keys alphabetically; an order difference is noted); graph
/// payloads as a subset.
fn decode(f: &Fixture, order: &mut OrderNote) -> Result<(), String> {
    let input = f.string("input")?;
    match v3::decode(input.as_bytes(), &Default::default()).map_err(fail)? {
        Document::Generic(value) => expect_ordered(
            "decode",
            &f.value("expected")?,
            &value,
            Members::AnyOrder,
            order,
        ),
        Document::Graph(payload) => expect_json(
            "decode (subset)",
            &f.json("expected")?,
            &from_value(&payload.to_value()),
            Members::Subset,
        ),
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
    let outcome = v3::decode(&bytes, &Default::default());
    if let Err(e) = &outcome
        && e.line().is_none()
    {
        return Err(format!("error without a line: {}: {e}", e.code()));
    }
    expect_error(&f.string("expectedError")?, outcome)
}

/// `encode-error`: encoding must fail with the category.
fn encode_error(f: &Fixture) -> Result<(), String> {
    let input = f.literal_value("input")?;
    expect_error(&f.string("expectedError")?, encode_v3_5_3(&input))
}

/// `roundtrip`: encode to the exact bytes and decode back to the input.
fn roundtrip(f: &Fixture, order: &mut OrderNote) -> Result<(), String> {
    encode_generic_checked(f, &f.string("expected")?, order)
}

/// `roundtrip-wire`: decode then re-encode gives the expected wire.
fn roundtrip_wire(f: &Fixture) -> Result<(), String> {
    let value = v3::decode_generic(&f.string("input")?).map_err(fail)?;
    let text = encode_v3_5_3(&value).map_err(fail)?;
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
