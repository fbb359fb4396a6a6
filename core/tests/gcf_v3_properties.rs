//! GCF v3 generic profile: `decode(encode(v)) == v` on random JSON (SPEC §1.1), with key order,
//! keys that look like numbers or syntax, every scalar edge case, tabular-shaped arrays, keyed
//! maps and deep nesting; and the decoder never panics on arbitrary input.

use agentwire::gcf::v3::{
    self, EncodeOptions, SpecVersion, decode_generic, encode_generic, encode_generic_with,
};
use agentwire::json::{Map, Number, Value};
use proptest::prelude::*;

/// Keys chosen to hit every quoting and ordering rule: numeric-looking keys (which JavaScript
/// objects would reorder), syntax characters, the keyed-map label `key`, path separators.
const KEYS: &[&str] = &[
    "id",
    "name",
    "key",
    "_key",
    "a",
    "b",
    "0",
    "1",
    "10",
    "2",
    "01",
    "-1",
    "1e5",
    "1.5",
    "",
    " ",
    "a b",
    "a>b",
    ">",
    "a|b",
    "a,b",
    "a=b",
    "\"q\"",
    "#c",
    "@id",
    ".dot",
    "[1]:",
    "~",
    "^",
    "-",
    "true",
    "null",
    "é",
    "😀",
    "x\ny",
    "tab\there",
];

const STRINGS: &[&str] = &[
    "",
    " ",
    "-",
    "~",
    "^",
    "^{a,b}",
    "true",
    "false",
    "null",
    "0",
    "-0",
    "01",
    "+1",
    ".5",
    "-.5",
    "1e5",
    "1.",
    "1.\u{665}",
    "123abc",
    "a|b",
    "a,b",
    "a\"b",
    "a\\b",
    "#x",
    "@x",
    ".x",
    " lead",
    "trail ",
    "ERR[404]: Not Found",
    "[Speaker 1]: hi",
    "line\nbreak",
    "cr\r",
    "\u{0}\u{1f}",
    "\u{85}",
    "\u{a0}",
    "\u{2028}",
    "\u{feff}",
    "é",
    "😀",
    "ௗx",
    "plain text",
    "a>b",
    "{}",
    "[]",
    "[2]",
    "=x",
    "x=y",
];

fn number() -> impl Strategy<Value = Number> {
    prop_oneof![
        any::<i64>().prop_map(Number::from_i64),
        prop_oneof![
            Just(i64::MIN),
            Just(i64::MAX),
            Just(0),
            Just(-1),
            Just(9_007_199_254_740_993)
        ]
        .prop_map(Number::from_i64),
        prop_oneof![
            Just(0.1),
            Just(-0.0),
            Just(1e-7),
            Just(1e-6),
            Just(1e21),
            Just(5e18),
            Just(9_007_199_254_740_992.0),
            Just(1.5),
            Just(-2.5e-300),
            Just(f64::MAX),
            Just(f64::MIN_POSITIVE)
        ]
        .prop_map(Number::from_f64),
        any::<f64>()
            .prop_filter("finite", |v| v.is_finite())
            .prop_map(Number::from_f64),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(STRINGS).prop_map(str::to_string),
        1 => "[ -~]{0,12}",
        1 => "\\PC{0,6}",
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(KEYS).prop_map(str::to_string),
        1 => "[a-z_]{1,4}",
        1 => "\\PC{0,4}",
    ]
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number().prop_map(Value::Number),
        text().prop_map(Value::String),
    ]
}

/// An object with unique keys in generation order.
fn object(
    inner: impl Strategy<Value = Value> + Clone,
    keys: usize,
) -> impl Strategy<Value = Value> {
    prop::collection::vec((key(), inner), 0..keys).prop_map(|members| {
        let mut map = Map::new();
        for (k, v) in members {
            if map.get(&k).is_none() {
                map.insert(k, v);
            }
        }
        Value::Object(map)
    })
}

/// Objects over a small shared key pool, so arrays of them are tabular and maps of them keyed.
fn record(inner: impl Strategy<Value = Value> + Clone) -> impl Strategy<Value = Value> {
    prop::collection::vec(
        (
            prop::sample::select(&KEYS[..8]),
            prop_oneof![3 => scalar(), 1 => inner],
        ),
        0..5,
    )
    .prop_map(|members| {
        let mut map = Map::new();
        for (k, v) in members {
            if map.get(k).is_none() {
                map.insert(k.to_string(), v);
            }
        }
        Value::Object(map)
    })
}

fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(6, 96, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            object(inner.clone(), 5),
            prop::collection::vec(record(inner.clone()), 1..5).prop_map(Value::Array),
            prop::collection::vec((key(), record(inner)), 1..5).prop_map(|members| {
                let mut map = Map::new();
                for (k, v) in members {
                    if map.get(&k).is_none() {
                        map.insert(k, v);
                    }
                }
                Value::Object(map)
            }),
        ]
    })
}

/// The documented round-trip equality (member order kept but inside table rows).
fn same_value(a: &Value, b: &Value) -> bool {
    v3::round_trip_equal(a, b)
}

/// The round trip in both versions: 3.5.3, and 3.6.0 `lossless` (the default, byte parity
/// with the gcf crate, writes one unreadable corner the crate writes: see
/// `the_default_keeps_the_crates_unreadable_shared_schema`).
fn assert_round_trip(value: &Value) -> Result<(), TestCaseError> {
    for version in [SpecVersion::V3_6_0, SpecVersion::V3_5_3] {
        let options = EncodeOptions {
            version,
            lossless: true,
        };
        let text = encode_generic_with(value, &options)
            .map_err(|e| TestCaseError::fail(format!("encode failed: {e} for {value:?}")))?;
        let back = decode_generic(&text)
            .map_err(|e| TestCaseError::fail(format!("decode failed: {e}\n{text}")))?;
        prop_assert!(
            same_value(value, &back),
            "round trip differs ({version:?})\n{text}\ninput {value:?}\noutput {back:?}"
        );
    }
    Ok(())
}

/// Arrays of records where some fields hold one scalar in every record (v3.6.0 constant
/// columns, SPEC §7.4.7) and others are free or nested.
fn constant_table() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(record(value().boxed()), 1..6),
        prop::collection::vec((prop::sample::select(&KEYS[..8]), scalar()), 0..4),
    )
        .prop_map(|(rows, constants)| {
            let rows = rows
                .into_iter()
                .map(|row| {
                    let Value::Object(mut map) = row else {
                        return row;
                    };
                    for (key, value) in &constants {
                        map.insert(key.to_string(), value.clone());
                    }
                    Value::Object(map)
                })
                .collect();
            Value::Array(rows)
        })
}

/// Records for value grouping: a unique `id`, a `team` of few values, scalar fields.
fn grouped_records() -> impl Strategy<Value = Vec<Value>> {
    prop::collection::vec(
        (
            prop::sample::select(&STRINGS[..12]),
            prop::collection::vec((prop::sample::select(&KEYS[2..8]), scalar()), 0..4),
        ),
        1..8,
    )
    .prop_map(|records| {
        records
            .into_iter()
            .enumerate()
            .map(|(i, (team, fields))| {
                let mut map = Map::new();
                map.insert("id".into(), Value::Number(Number::from_i64(i as i64)));
                map.insert("team".into(), Value::String(team.into()));
                for (k, v) in fields {
                    if map.get(k).is_none() {
                        map.insert(k.to_string(), v);
                    }
                }
                Value::Object(map)
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn constant_columns_round_trip(value in constant_table()) {
        assert_round_trip(&value)?;
    }

    /// The grouped form reads back as the same records, clustered by group in first-seen
    /// order (member order inside a record as in a table row: the declaration's).
    #[test]
    fn grouped_records_round_trip(records in grouped_records()) {
        let text = v3::encode_generic_grouped(&Value::Array(records.clone()), "id", "team")
            .map_err(|e| TestCaseError::fail(format!("encode failed: {e}")))?;
        let back = decode_generic(&text)
            .map_err(|e| TestCaseError::fail(format!("decode failed: {e}\n{text}")))?;
        let team = |r: &Value| r.get("team").cloned();
        let mut order: Vec<Option<Value>> = Vec::new();
        for record in &records {
            if !order.contains(&team(record)) {
                order.push(team(record));
            }
        }
        let clustered: Vec<Value> = order
            .iter()
            .flat_map(|t| records.iter().filter(move |r| team(r) == *t).cloned())
            .collect();
        prop_assert!(
            same_value(&Value::Array(clustered), &back),
            "{text}\n{records:?}\n{back:?}"
        );
    }

    #[test]
    fn generic_round_trip_is_lossless(value in value()) {
        assert_round_trip(&value)?;
    }

    #[test]
    fn decoding_arbitrary_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let mut input = b"GCF profile=generic\n".to_vec();
        input.extend_from_slice(&bytes);
        let _ = v3::decode(&input, &Default::default());
        let _ = v3::decode(&bytes, &Default::default());
    }

    #[test]
    fn decoding_line_soup_never_panics(lines in prop::collection::vec(line(), 0..12)) {
        let mut input = String::from("GCF profile=generic\n");
        for l in lines {
            input.push_str(&l);
            input.push('\n');
        }
        let _ = v3::decode(input.as_bytes(), &Default::default());
    }
}

/// Lines built from GCF syntax fragments, so random input reaches deep decoder states.
fn line() -> impl Strategy<Value = String> {
    let fragment = prop::sample::select(
        &[
            "## ",
            "##! summary counts=",
            "@0 ",
            "@1 ",
            ".f ",
            "{}",
            "[2]",
            "[?]",
            "[1:]",
            "[0]",
            "{a,b}",
            "{key,x}",
            "^",
            "^{a,b,c}",
            "~",
            "-",
            "|",
            ",",
            "=",
            "\"",
            "\\",
            "a",
            "x>y",
            "\"a>b\"",
            ": ",
            "  ",
            "    ",
            "\t",
            "# c",
            "1",
            "true",
            "=x",
            // v3.6.0: constants, grouped sections and their subheaders.
            "{id,k=1}",
            "{@id,d,k=\"x}\"}",
            " group=d",
            "d=a [1]",
            "d=~ [2]",
            "k=",
            "^{ab",
        ][..],
    );
    prop::collection::vec(fragment, 0..8).prop_map(|parts| parts.concat())
}

#[test]
fn deep_nesting_round_trips() {
    // 100 levels alternating objects, arrays of records and plain arrays.
    let mut value = Value::String("leaf".into());
    for depth in 0..100 {
        value = match depth % 3 {
            0 => Value::Object([("k".to_string(), value)].into_iter().collect()),
            1 => Value::Array(vec![Value::Object(
                [
                    ("id".to_string(), Value::Number(Number::from_i64(depth))),
                    ("v".to_string(), value),
                ]
                .into_iter()
                .collect(),
            )]),
            _ => Value::Array(vec![value, Value::Null]),
        };
    }
    assert_round_trip(&value).unwrap();
}

#[test]
fn numeric_looking_keys_keep_their_order() {
    let value =
        agentwire::json::parse(r#"{"10":1,"2":2,"01":3,"-1":{"1e5":[{"0":1,"1":2},{"1":3}]}}"#)
            .unwrap();
    assert_round_trip(&value).unwrap();
    let text = encode_generic(&value).unwrap();
    // Numeric-looking keys are quoted; the order is the input's, not numeric.
    assert!(
        text.starts_with("GCF profile=generic\n\"10\"=1\n\"2\"=2\n\"01\"=3\n"),
        "{text}"
    );
}

#[test]
fn the_property_is_not_vacuous() {
    // A value the round trip must reject if the decoder dropped order or types.
    let value = agentwire::json::parse(r#"{"b":"1","a":1}"#).unwrap();
    let text = encode_generic(&value).unwrap();
    assert_eq!(text, "GCF profile=generic\nb=\"1\"\na=1\n");
    let swapped = agentwire::json::parse(r#"{"a":1,"b":"1"}"#).unwrap();
    assert!(!same_value(&swapped, &decode_generic(&text).unwrap()));
    let parse = |t: &str| agentwire::json::parse(t).unwrap();
    assert!(same_value(&parse("[5.0,-0.0]"), &parse("[5,0]")));
    assert!(!same_value(
        &parse("9007199254740993"),
        &parse("9007199254740992")
    ));
    assert!(!same_value(
        &parse("18446744073709551615"),
        &parse("18446744073709551614")
    ));
    assert!(!same_value(
        &parse(r#"{"a":{"x":1,"y":2},"n":1}"#),
        &parse(r#"{"a":{"y":2,"x":1},"n":1}"#)
    ));
    let retyped = agentwire::json::parse(r#"{"b":1,"a":1}"#).unwrap();
    assert!(!same_value(&retyped, &decode_generic(&text).unwrap()));
}

#[test]
fn table_rows_decode_in_header_order() {
    // The documented exception: a row whose keys run against the header reads back in the
    // header's order, same members; objects outside rows keep their order.
    let value = agentwire::json::parse(r#"[{"a":1,"b":2},{"b":3,"a":4}]"#).unwrap();
    let back = decode_generic(&encode_generic(&value).unwrap()).unwrap();
    assert_eq!(
        back,
        agentwire::json::parse(r#"[{"a":1,"b":2},{"a":4,"b":3}]"#).unwrap()
    );
    assert!(same_value(&value, &back));
}

#[test]
fn the_default_keeps_the_crates_unreadable_shared_schema() {
    // The gcf crate 3.1.0 shares row 0's array schema although its records hold a `>`-named
    // field, which row 0's table detaches and the later rows write as a cell: no decoder reads
    // it back. The default keeps those bytes (parity); `lossless` declares every table.
    let value = agentwire::json::parse(
        r#"[{"id":1,"f":[{"a":1,"x>y":2}]},{"id":2,"f":[{"a":3,"x>y":4}]}]"#,
    )
    .unwrap();
    let parity = encode_generic(&value).unwrap();
    assert!(parity.ends_with("@1 2|^\n.f [1]\n    3|4\n"), "{parity}");
    assert_eq!(
        decode_generic(&parity).unwrap_err().kind(),
        agentwire::ErrorKind::GcfRowWidthMismatch
    );
    let options = EncodeOptions {
        lossless: true,
        ..EncodeOptions::default()
    };
    let lossless = encode_generic_with(&value, &options).unwrap();
    assert!(
        lossless.ends_with("@1 2|^\n.f [1]{a}\n    @0 3\n    .\"x>y\" =4\n"),
        "{lossless}"
    );
    assert!(same_value(&value, &decode_generic(&lossless).unwrap()));
}
