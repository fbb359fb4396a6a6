//! GCF v3.6.0 against its reference, the gcf crate 3.1.0 (no v3.6.0 fixture set is published,
//! so the crate is the contract): agentwire's default generic encoder must write the same
//! bytes, and both decoders must read every payload either writes to the same value (or both
//! reject it). Inputs: the JSON inputs of the v3.5.3 conformance fixtures, the bench corpus
//! (`node bench/corpus/generate.mjs`), and seeded random tables with constant and
//! low-cardinality columns, nesting and marker-like strings (`GCF36_CASES` cases, default
//! 4000, and half as many grouped sets). The hand-written error fixtures of
//! `tests/fixtures-local/gcf36/errors.json` must be rejected by the crate too.
//!
//! Lives in agentwire-bench (`make test-gcf-diff`): the crate turns on serde_json's
//! `preserve_order`, which must not reach the other crates' test builds.

use std::path::{Path, PathBuf};

use agentwire::gcf::v3;
use agentwire::json::{self, ParseOptions};
use serde_json::{Map, Value as J};

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// JSON text in agentwire's model, every number lexeme typed by itself (SPEC §2.3.2).
fn ours_value(text: &str) -> agentwire::json::Value {
    let options = ParseOptions {
        literal_numbers: true,
        ..ParseOptions::default()
    };
    json::parse_with(text, &options).expect("test inputs are JSON")
}

fn ours_encode(text: &str) -> Result<String, String> {
    v3::encode_generic(&ours_value(text)).map_err(|e| format!("{}: {e}", e.code()))
}

fn theirs_encode(text: &str) -> Result<String, String> {
    gcf::encode_generic(&serde_json::from_str(text).expect("test inputs are JSON"))
}

/// agentwire's decoding of `gcf` as serde_json (member order kept: `preserve_order`; number
/// types kept: an exponent literal is a double in both).
fn ours_decode(gcf: &str) -> Result<J, String> {
    let value = v3::decode_generic(gcf).map_err(|e| format!("{}: {e}", e.code()))?;
    J::try_from(value).map_err(|e| e.to_string())
}

/// Same value, members in the same order (serde_json's map equality ignores order).
fn same(a: &J, b: &J) -> bool {
    match (a, b) {
        (J::Object(x), J::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((ka, va), (kb, vb))| ka == kb && same(va, vb))
        }
        (J::Array(x), J::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        _ => a == b,
    }
}

/// Both decoders read `gcf` alike: the same value, or both an error.
fn decodes_alike(gcf: &str) -> Result<(), String> {
    match (ours_decode(gcf), gcf::decode_generic(gcf)) {
        (Ok(a), Ok(b)) if same(&a, &b) => Ok(()),
        (Err(_), Err(_)) => Ok(()),
        (a, b) => {
            if let Ok(dir) = std::env::var("GCF36_DUMP") {
                let name = format!("{dir}/{:016x}.gcf", fnv(gcf));
                std::fs::write(name, gcf).expect("GCF36_DUMP is a writable directory");
            }
            Err(format!(
                "decodes differ on\n{gcf}\nagentwire: {a:?}\ngcf crate: {b:?}"
            ))
        }
    }
}

/// A name for a dumped payload (`GCF36_DUMP=dir` writes each payload the decoders disagree on).
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The two encodings of the JSON text `input` are the same bytes (or both errors), and the
/// text decodes alike in both decoders.
fn check_encode(input: &str) -> Result<(), String> {
    match (ours_encode(input), theirs_encode(input)) {
        (Ok(a), Ok(b)) if a == b => decodes_alike(&a),
        (Err(_), Err(_)) => Ok(()),
        (a, b) => Err(format!(
            "encodings differ for {input}\nagentwire:\n{}\ngcf crate:\n{}",
            a.unwrap_or_else(|e| e),
            b.unwrap_or_else(|e| e)
        )),
    }
}

fn check_grouped(input: &str, key: &str, group: &str) -> Result<(), String> {
    let ours = v3::encode_generic_grouped(&ours_value(input), key, group)
        .map_err(|e| format!("{}: {e}", e.code()));
    let theirs = gcf::encode_generic_grouped(&serde_json::from_str(input).unwrap(), key, group);
    match (ours, theirs) {
        (Ok(a), Ok(b)) if a == b => decodes_alike(&a),
        (Err(_), Err(_)) => Ok(()),
        (a, b) => Err(format!(
            "grouped encodings differ for {input} (key {key}, group {group})\nagentwire:\n{}\n\
             gcf crate:\n{}",
            a.unwrap_or_else(|e| e),
            b.unwrap_or_else(|e| e)
        )),
    }
}

/// Runs `check` on every case, failing with the first few mismatches.
fn run_all(what: &str, cases: &[String], check: impl Fn(&str) -> Result<(), String>) {
    let failures: Vec<String> = cases.iter().filter_map(|c| check(c).err()).collect();
    assert!(
        failures.is_empty(),
        "{what}: {} of {} cases differ; first:\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n---\n")
    );
}

// ---------------------------------------------------------------------------------------------
// Conformance inputs
// ---------------------------------------------------------------------------------------------

fn fixture_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            fixture_files(&path, files);
        } else if path.extension().is_some_and(|x| x == "json") {
            files.push(path);
        }
    }
}

/// Raw JSON text of each member of a fixture (number lexemes as written).
fn members(text: &str) -> std::collections::HashMap<String, Box<serde_json::value::RawValue>> {
    serde_json::from_str(text).unwrap()
}

#[test]
fn conformance_inputs_encode_and_decode_alike() {
    let mut files = Vec::new();
    fixture_files(&repo("tests/fixtures/gcf/conformance"), &mut files);
    files.sort();
    let (mut inputs, mut payloads) = (Vec::new(), Vec::new());
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let fixture: J = serde_json::from_str(&text).unwrap();
        let raw = members(&text);
        let generic = |key: &str| {
            fixture[key]
                .as_str()
                .filter(|t| t.starts_with("GCF profile=generic"))
                .map(str::to_string)
        };
        match fixture["operation"].as_str().unwrap_or_default() {
            // Not `encode-error`: those hold integers past int64, which serde_json turns into
            // doubles before the crate sees them (the crate's README says so).
            "encode" | "roundtrip" => {
                if !fixture["expected"]
                    .as_str()
                    .is_some_and(|e| e.starts_with("GCF profile=graph"))
                {
                    inputs.push(raw["input"].get().to_string());
                }
                payloads.extend(generic("expected"));
            }
            "decode" | "error" | "roundtrip-wire" => payloads.extend(generic("input")),
            _ => {}
        }
    }
    assert!(inputs.len() >= 150, "only {} generic inputs", inputs.len());
    run_all("conformance encode inputs", &inputs, check_encode);
    run_all("conformance generic payloads", &payloads, decodes_alike);
    // The inputs again, every table grouped by each of its columns in turn (the first unique
    // scalar column as the key): both encoders accept and reject the same ones.
    let mut grouped = 0;
    for input in &inputs {
        let value: J = serde_json::from_str(input).unwrap();
        let Some(rows) = value.as_array().filter(|r| r.iter().all(J::is_object)) else {
            continue;
        };
        let mut fields: Vec<&str> = Vec::new();
        for row in rows {
            for key in row.as_object().unwrap().keys() {
                if !fields.contains(&key.as_str()) {
                    fields.push(key);
                }
            }
        }
        for key in &fields {
            for group in &fields {
                check_grouped(input, key, group).unwrap();
                grouped += 1;
            }
        }
    }
    assert!(grouped > 100, "only {grouped} grouped cases");
}

/// The inputs of the v3.6.0 unit tests in core (`generic_encode/tests.rs`): the expectations
/// written there are the crate's bytes too.
#[test]
fn hand_picked_edge_cases_encode_alike() {
    let cases: Vec<String> = [
        r#"[{"id":1,"type":"entity","n":null},{"id":2,"type":"entity","n":null}]"#,
        r#"{"a":{"b":[{"k":1,"v":1},{"k":1,"v":2}]}}"#,
        r#"[0,{"b":[{"k":1,"v":1},{"k":1,"v":2}]}]"#,
        r#"[{"t":[{"k":1,"v":1},{"k":1,"v":2}]}]"#,
        r#"[[{"k":1,"v":1},{"k":1,"v":2}]]"#,
        r#"{"m":{"a":{"k":1,"v":1},"b":{"k":1,"v":2}}}"#,
        r#"[{"a":1,"b":2}]"#,
        r#"[{"a":1,"b":2},{"b":2}]"#,
        r#"[{"a":1,"b":[2]},{"a":2,"b":[2]}]"#,
        r#"[{"a":1,"b":1},{"a":1.0,"b":"1"}]"#,
        r#"[{"a":1,"b":2},{"a":1,"b":2}]"#,
        r#"[{"a":1,"m":{"x":1}},{"a":1,"m":{"x":1}}]"#,
        r#"[{"id":1,"c":"x}"},{"id":2,"c":"x}"}]"#,
        r#"[{"id":1,"c":"a=b c"},{"id":2,"c":"a=b c"}]"#,
        r#"[{"id":1,"c":"{x]"},{"id":2,"c":"{x]"}]"#,
        r#"[{"id":1,"c":"^{abc"},{"id":2,"c":"^{abc"}]"#,
        r#"[{"id":1,"c":"^{a}"},{"id":2,"c":"^{a}"}]"#,
        r#"{"k":"^{abc"}"#,
        r#"[{"m":{"x":1,"i":{"y":null}}}]"#,
        r#"[{"m":{"x":null}},{"m":{"x":1}}]"#,
        r#"[{"m":{"":1,"b":2,"c":3}},{"m":null},{"m":{"":4,"b":5,"c":6}}]"#,
        r#"[{"t":[{"a":1}]},{"t":null},{"t":[{"a":2},{"b":3}]}]"#,
        r#"[{"t":[{"a":1}]},{"t":[{"a":2},{"a":3}]}]"#,
        r#"[{"t":[{"a":1}]},{"t":[]},{"t":[{"a":2}]}]"#,
        r#"[{"t":[{"a":1}]},{"t":[[1]]}]"#,
        r#"[{"id":1,"f":[{"a":1,"x>y":2}]},{"id":2,"f":[{"a":3,"x>y":4}]}]"#,
        r#"[{"id":1,"x>y":[{"a":1}]},{"id":2,"x>y":[{"a":2}]}]"#,
    ]
    .iter()
    .map(|c| c.to_string())
    .collect();
    run_all("hand-picked cases", &cases, check_encode);
    for (input, key, group) in [
        (
            r#"[{"id":1,"d":"a","x":1,"y":"s"},{"id":2,"d":"b","x":2,"y":"s"},{"id":3,"d":"a","x":3,"y":"s"}]"#,
            "id",
            "d",
        ),
        (
            r#"[{"id":"k","d":"a}","x":1},{"id":"j","x":1,"z":2}]"#,
            "id",
            "d",
        ),
        (r#"[{"id":1,"d":"a","x":1}]"#, "id", "d"),
        (r#"[{"id":1,"d":1},{"id":1.0,"d":2}]"#, "id", "d"),
    ] {
        check_grouped(input, key, group).unwrap();
    }
}

// ---------------------------------------------------------------------------------------------
// The bench corpus
// ---------------------------------------------------------------------------------------------

#[test]
fn bench_corpus_encodes_and_decodes_alike() {
    let out = repo("bench/corpus/out");
    let read = |name: &str| {
        std::fs::read_to_string(out.join(name)).unwrap_or_else(|e| {
            panic!("{name}: {e} (run `node bench/corpus/generate.mjs`; make test-gcf-diff does)")
        })
    };
    let mut cases = vec![read("graph-500.json")];
    // The 8 tool sections of the 10 MB corpus, one by one and whole.
    let sections: J = serde_json::from_str(&read("gcx-10mb.json")).unwrap();
    for section in sections.as_array().unwrap() {
        cases.push(section.to_string());
    }
    cases.push(sections.to_string());
    // The 20 real tool responses of the GCX1 bench vectors, alone and as one array.
    let vectors: J = serde_json::from_str(
        &std::fs::read_to_string(repo("tests/fixtures/gcx1/bench.json")).unwrap(),
    )
    .unwrap();
    let mut responses = Vec::new();
    for vector in vectors["vectors"].as_array().unwrap() {
        let json = vector["input"]["json"].as_str().unwrap();
        cases.push(json.to_string());
        responses.push(serde_json::from_str::<J>(json).unwrap());
    }
    cases.push(J::Array(responses).to_string());
    run_all("bench corpus", &cases, check_encode);
}

// ---------------------------------------------------------------------------------------------
// Random tables
// ---------------------------------------------------------------------------------------------

/// xorshift64: deterministic, so a failure names its case and reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Strings that look like GCF syntax, numbers or other scalars: each must stay a string.
const TRICKY: &[&str] = &[
    "",
    " ",
    "a",
    "b",
    "entity",
    "x y",
    "-",
    "~",
    "^",
    "^{",
    "^{abc",
    "^{a}",
    "^{a,b}",
    "^x",
    "|",
    "a|b",
    "=",
    "a=b",
    "x=y [1]",
    "dept=Sales [2]",
    "group=dept",
    "}",
    "a}",
    "{",
    "{a}",
    "[2]",
    "[1]: x",
    "ERR[404]: nope",
    ",",
    "a,b",
    "\"",
    "\\",
    "#x",
    "# c",
    "@id",
    "@0",
    ".x",
    "1",
    "-1",
    "01",
    "1.5",
    "1e5",
    "+1",
    ".5",
    "true",
    "false",
    "null",
    "-0",
    "ünï",
    "😀",
    "tab\there",
    "line\nbreak",
    "a>b",
    "## s",
    "##! summary",
];

const KEYS: &[&str] = &[
    "id", "name", "type", "kind", "k", "v", "a b", "key", "_key", "x>y", "é",
];

fn scalar(rng: &mut Rng) -> J {
    match rng.below(10) {
        0 => J::Null,
        1 => J::Bool(rng.chance(50)),
        2 => J::from(rng.below(7) as i64 - 3),
        3 => J::from(*rng.pick(&[i64::MAX, i64::MIN, 1 << 53, 1_000_000_007])),
        4 => J::from(*rng.pick(&[0.5, -2.25, 1e21, 1e-7, 3.0, 0.1, 123456.789])),
        _ => J::String(rng.pick(TRICKY).to_string()),
    }
}

/// An object of the given keys (in order), scalars or (`depth` > 0) nested objects.
fn shaped(rng: &mut Rng, keys: &[&str], depth: usize) -> J {
    let mut map = Map::new();
    for key in keys {
        let value = if depth > 0 && rng.chance(25) {
            shaped(rng, &keys[..keys.len().min(2)], depth - 1)
        } else {
            scalar(rng)
        };
        map.insert(key.to_string(), value);
    }
    J::Object(map)
}

/// How one column of a random table is filled.
#[derive(Clone)]
enum Column {
    Constant(J),
    Few(Vec<J>),
    Any,
    /// Objects of one shape (flattening, inline schemas), `keys` in order.
    Shaped(Vec<&'static str>),
    /// Arrays of records of one shape (shared array schemas).
    Records(Vec<&'static str>),
    Nested,
}

fn column(rng: &mut Rng, depth: usize) -> Column {
    let keys = |rng: &mut Rng| {
        let mut keys: Vec<&'static str> = Vec::new();
        for _ in 0..1 + rng.below(4) {
            let key = *rng.pick(KEYS);
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        keys
    };
    match rng.below(if depth == 0 { 3 } else { 7 }) {
        0 => Column::Constant(scalar(rng)),
        1 => Column::Few((0..2 + rng.below(2)).map(|_| scalar(rng)).collect()),
        2 => Column::Any,
        3 => Column::Shaped(keys(rng)),
        4 => Column::Records(keys(rng)),
        5 => Column::Constant(scalar(rng)),
        _ => Column::Nested,
    }
}

fn cell(rng: &mut Rng, column: &Column, depth: usize) -> J {
    match column {
        Column::Constant(value) => value.clone(),
        Column::Few(values) => rng.pick(values).clone(),
        Column::Any => scalar(rng),
        Column::Shaped(_) | Column::Records(_) if rng.chance(10) => J::Null,
        Column::Shaped(keys) => shaped(rng, keys, 1),
        Column::Records(keys) => {
            J::Array((0..rng.below(3)).map(|_| shaped(rng, keys, 0)).collect())
        }
        Column::Nested => value(rng, depth.saturating_sub(1)),
    }
}

/// A table: 1–6 rows over 1–6 columns, a field sometimes absent.
fn table(rng: &mut Rng, depth: usize) -> J {
    let mut fields: Vec<(&str, Column)> = Vec::new();
    for _ in 0..1 + rng.below(6) {
        let key = *rng.pick(KEYS);
        if fields.iter().all(|(k, _)| *k != key) {
            fields.push((key, column(rng, depth)));
        }
    }
    let absent = rng.below(12);
    let rows = (0..1 + rng.below(6))
        .map(|_| {
            let mut map = Map::new();
            for (key, column) in &fields {
                if absent > 0 && rng.below(absent) == 0 && rng.chance(30) {
                    continue;
                }
                map.insert(key.to_string(), cell(rng, column, depth));
            }
            J::Object(map)
        })
        .collect();
    J::Array(rows)
}

/// Any value, tables likely.
fn value(rng: &mut Rng, depth: usize) -> J {
    if depth == 0 {
        return scalar(rng);
    }
    match rng.below(8) {
        0..=2 => table(rng, depth - 1),
        3 => J::Array((0..rng.below(4)).map(|_| value(rng, depth - 1)).collect()),
        4 => {
            // Objects of objects: keyed tables.
            let shape = rng
                .pick(&[&["id", "v"][..], &["k"], &["type", "name", "v"]])
                .to_vec();
            let mut map = Map::new();
            for i in 0..1 + rng.below(4) {
                map.insert(format!("m{i}"), shaped(rng, &shape, 1));
            }
            J::Object(map)
        }
        5 | 6 => {
            let mut map = Map::new();
            for _ in 0..rng.below(4) {
                map.insert(rng.pick(KEYS).to_string(), value(rng, depth - 1));
            }
            J::Object(map)
        }
        _ => scalar(rng),
    }
}

/// A document: a table at the root, as a member (at some depth), or in an expanded array.
fn document(rng: &mut Rng) -> J {
    let inner = table(rng, 2);
    match rng.below(5) {
        0 | 1 => inner,
        2 => {
            let mut map = Map::new();
            map.insert("entities".into(), inner);
            map.insert("meta".into(), value(rng, 2));
            J::Object(map)
        }
        3 => {
            let mut deep = Map::new();
            deep.insert("rows".into(), inner);
            let mut map = Map::new();
            map.insert("result".into(), J::Object(deep));
            J::Object(map)
        }
        _ => J::Array(vec![scalar(rng), inner, value(rng, 2)]),
    }
}

fn cases() -> usize {
    std::env::var("GCF36_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(4000)
}

#[test]
fn random_tables_encode_and_decode_alike() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let inputs: Vec<String> = (0..cases())
        .map(|_| document(&mut rng).to_string())
        .collect();
    // The property is not vacuous: most cases factor a constant column.
    let factored = inputs
        .iter()
        .filter_map(|input| ours_encode(input).ok())
        .filter(|text| text.lines().any(|l| l.contains("]{") && l.contains('=')))
        .count();
    assert!(
        factored * 4 > inputs.len(),
        "only {factored} of {} cases factor a constant",
        inputs.len()
    );
    run_all("random tables", &inputs, check_encode);
    eprintln!(
        "gcf36 differential: {} random tables, {factored} with constant columns",
        inputs.len()
    );
}

/// A keyed set for value grouping: a unique key, a low-cardinality group column, constant
/// and free columns; sometimes a flaw the encoders must both reject (duplicate key, a nested
/// value, a missing key) or accept alike (a record without the group field).
fn grouped_set(rng: &mut Rng) -> (J, &'static str, &'static str) {
    let key = *rng.pick(&["id", "name", "a b"]);
    let group = *rng.pick(&["type", "kind", "x>y", "é"]);
    let groups: Vec<J> = (0..1 + rng.below(3)).map(|_| scalar(rng)).collect();
    let mut others: Vec<(&str, Column)> = Vec::new();
    for name in ["v", "k", "key"] {
        if rng.chance(60) {
            others.push((name, column(rng, 0)));
        }
    }
    let rows = (0..1 + rng.below(7))
        .map(|i| {
            let mut map = Map::new();
            let id = match rng.below(4) {
                0 => J::String(format!("{}{i}", rng.pick(TRICKY))),
                1 if rng.chance(10) => J::from(0),
                _ => J::from(i as i64 + 1),
            };
            if !rng.chance(3) {
                map.insert(key.into(), id);
            }
            if !rng.chance(5) {
                map.insert(group.into(), rng.pick(&groups).clone());
            }
            for (name, column) in &others {
                map.insert(name.to_string(), cell(rng, column, 0));
            }
            if rng.chance(2) {
                map.insert("nested".into(), J::Array(vec![J::from(1)]));
            }
            J::Object(map)
        })
        .collect();
    (J::Array(rows), key, group)
}

#[test]
fn random_grouped_sets_encode_and_decode_alike() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let mut encoded = 0;
    let mut failures = Vec::new();
    let n = cases() / 2;
    for _ in 0..n {
        let (set, key, group) = grouped_set(&mut rng);
        let input = set.to_string();
        if let Err(e) = check_grouped(&input, key, group) {
            failures.push(e);
        }
        encoded += usize::from(gcf::encode_generic_grouped(&set, key, group).is_ok());
    }
    assert!(
        failures.is_empty(),
        "{} of {n} grouped cases differ; first:\n{}",
        failures.len(),
        failures[..failures.len().min(3)].join("\n---\n")
    );
    assert!(
        encoded * 2 > n,
        "only {encoded} of {n} grouped cases encode"
    );
    eprintln!("gcf36 differential: {n} grouped sets, {encoded} encodable");
}

// ---------------------------------------------------------------------------------------------
// Error fixtures
// ---------------------------------------------------------------------------------------------

/// Every hand-written error fixture (checked for code and position by agentwire's conformance
/// tests) is rejected by the crate as well.
#[test]
fn the_crate_rejects_every_error_fixture() {
    let path = repo("tests/fixtures-local/gcf36/errors.json");
    let fixtures: J = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let fixtures = fixtures["fixtures"].as_array().unwrap();
    assert!(fixtures.len() >= 20);
    for fixture in fixtures {
        let input = fixture["input"].as_str().unwrap();
        assert!(
            gcf::decode_generic(input).is_err(),
            "the gcf crate accepts error fixture {}:\n{input}",
            fixture["name"]
        );
    }
}
