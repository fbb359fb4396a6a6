//! TOON: `decode(encode(v))` equals `v` (numbers as doubles, as a JavaScript reader holds
//! them: `compact::js_equal`) on random JSON, for every delimiter and indents 1–4, with key
//! folding off (plain decode) and on (decode with path expansion); strict decoding accepts all
//! encoder output, lenient decoding reads it the same, and encoding what was decoded gives the
//! same text. The decoder never panics on arbitrary text in either mode, and its errors carry
//! a `TOON_` code and a line.

use agentwire::compact::js_equal;
use agentwire::json::{Map, Number, Value};
use agentwire::toon::{self, DecodeOptions, Delimiter, EncodeOptions, ExpandPaths, KeyFolding};
use agentwire::{ErrorKind, Format};
use proptest::prelude::*;

/// Keys that hit the quoting rules, dotted keys that key folding must not confuse with folded
/// ones, and identifiers that fold.
const KEYS: &[&str] = &[
    "a",
    "b",
    "c",
    "id",
    "_x",
    "a.b",
    "b.c",
    "a.b.c",
    "x.y",
    "a..b",
    "a.",
    ".a",
    "a.1",
    "1",
    "01",
    "-1",
    "1e5",
    "",
    " ",
    "a b",
    "a-b",
    "a:b",
    "a,b",
    "a|b",
    "a\tb",
    "\"q\"",
    "#c",
    "-",
    "[1]",
    "{k}",
    "true",
    "null",
    "é",
    "😀",
    "x\ny",
    "\u{feff}k",
    "k ",
];

const STRINGS: &[&str] = &[
    "",
    " ",
    "-",
    "- x",
    "-x",
    "#",
    "#x",
    "a #b",
    "true",
    "false",
    "null",
    "True",
    "0",
    "-0",
    "05",
    "+1",
    ".5",
    "1.",
    "1e5",
    "1E+5",
    "-3.14",
    "1e-7",
    "0x10",
    "1_000",
    "Infinity",
    "NaN",
    "a,b",
    "a|b",
    "a\tb",
    "a:b",
    "a\"b",
    "a\\b",
    "[]",
    "[2]: x",
    "{k}",
    "k: v",
    " lead",
    "trail ",
    "\ttab",
    "line\nbreak",
    "cr\r",
    "\r",
    "\u{0}\u{1f}\u{7f}",
    "\u{85}",
    "\u{a0}x",
    "\u{2028}",
    "\u{feff}",
    "\u{feff}x",
    "é",
    "😀",
    "plain text",
    "a.b",
    "\\u0041",
    "\"",
    "\\",
];

fn number() -> impl Strategy<Value = Number> {
    prop_oneof![
        any::<i64>().prop_map(Number::from_i64),
        any::<u64>().prop_map(Number::from_u64),
        prop_oneof![
            Just(0.1),
            Just(-0.0),
            Just(1e-7),
            Just(1e-6),
            Just(1e21),
            Just(1e20),
            Just(9_007_199_254_740_993.0),
            Just(-2.5e-300),
            Just(f64::MAX),
            Just(f64::MIN_POSITIVE),
            Just(5e-324),
            Just(0.30000000000000004),
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
        1 => "[a-z_]{1,3}(\\.[a-z_]{1,3}){0,2}",
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

fn object_of(members: Vec<(String, Value)>) -> Value {
    let mut map = Map::new();
    for (k, v) in members {
        if map.get(&k).is_none() {
            map.insert(k, v);
        }
    }
    Value::Object(map)
}

/// A table's shape: top-level fields, each a leaf or a group of leaf fields.
type Shape = Vec<(String, Option<Vec<String>>)>;

fn shape() -> impl Strategy<Value = Shape> {
    prop::collection::vec(
        (
            key(),
            prop::option::weighted(0.3, prop::collection::vec(key(), 1..3)),
        ),
        1..4,
    )
}

/// Rows of one shape (uniform: a table, or with nested groups), keys in a rotated order per
/// row; `count` rows of scalars from `cells`.
fn rows(shape: &Shape, cells: &[Value], count: usize) -> Vec<Value> {
    let mut cells = cells.iter().cycle();
    (0..count)
        .map(|row| {
            let mut members: Vec<(String, Value)> = shape
                .iter()
                .map(|(name, group)| {
                    let value = match group {
                        None => cells.next().cloned().unwrap_or(Value::Null),
                        Some(fields) => object_of(
                            fields
                                .iter()
                                .map(|f| (f.clone(), cells.next().cloned().unwrap_or(Value::Null)))
                                .collect(),
                        ),
                    };
                    (name.clone(), value)
                })
                .collect();
            let len = members.len();
            members.rotate_left(row % len.max(1));
            object_of(members)
        })
        .collect()
}

fn table() -> impl Strategy<Value = Vec<Value>> {
    (shape(), prop::collection::vec(scalar(), 1..12), 1usize..5)
        .prop_map(|(shape, cells, count)| rows(&shape, &cells, count))
}

fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(6, 96, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((key(), inner.clone()), 0..5).prop_map(object_of),
            table().prop_map(Value::Array),
            // Objects of uniform objects (keyed tables), sometimes mixed with other values.
            (
                prop::collection::vec(key(), 2..5),
                table(),
                prop::option::of(inner)
            )
                .prop_map(|(keys, rows, extra)| {
                    let mut members: Vec<(String, Value)> = keys.into_iter().zip(rows).collect();
                    if let Some(extra) = extra {
                        members.push(("extra".into(), extra));
                    }
                    object_of(members)
                }),
            // Chains of single-key objects (what key folding folds).
            (
                prop::collection::vec(prop::sample::select(&KEYS[..10]), 1..5),
                scalar()
            )
                .prop_map(|(path, leaf)| path
                    .iter()
                    .rev()
                    .fold(leaf, |v, k| object_of(vec![(k.to_string(), v)]))),
        ]
    })
}

fn delimiter() -> impl Strategy<Value = Delimiter> {
    prop::sample::select(&[Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe][..])
}

/// Encode, decode strictly and leniently, compare, and check that re-encoding is a fixed point.
fn assert_round_trip(value: &Value, encode: &EncodeOptions) -> Result<(), TestCaseError> {
    let text = toon::encode(value, encode)
        .map_err(|e| TestCaseError::fail(format!("encode failed: {e}")))?;
    let expand_paths = match encode.key_folding {
        KeyFolding::Off => ExpandPaths::Off,
        KeyFolding::Safe => ExpandPaths::Safe,
    };
    let strict = DecodeOptions {
        indent: encode.indent,
        expand_paths,
        ..DecodeOptions::default()
    };
    let back = toon::decode(&text, &strict)
        .map_err(|e| TestCaseError::fail(format!("strict decode failed: {e}\n{text}")))?;
    prop_assert!(
        js_equal(value, &back),
        "round trip differs\n{text}\ninput  {value:?}\noutput {back:?}"
    );
    let lenient = DecodeOptions {
        strict: false,
        ..strict.clone()
    };
    let lenient_back = toon::decode(&text, &lenient)
        .map_err(|e| TestCaseError::fail(format!("lenient decode failed: {e}\n{text}")))?;
    prop_assert_eq!(&lenient_back, &back, "{}", text);
    let again = toon::encode(&back, encode)
        .map_err(|e| TestCaseError::fail(format!("re-encode failed: {e}")))?;
    prop_assert_eq!(&again, &text, "encode(decode(t)) != t");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn round_trip(value in value(), delimiter in delimiter(), indent in 1usize..=4) {
        let options = EncodeOptions { indent, delimiter, ..EncodeOptions::default() };
        assert_round_trip(&value, &options)?;
    }

    #[test]
    fn round_trip_with_key_folding(
        value in value(),
        delimiter in delimiter(),
        indent in 1usize..=4,
        flatten_depth in prop_oneof![Just(usize::MAX), 0usize..5],
    ) {
        let options = EncodeOptions {
            indent,
            delimiter,
            key_folding: KeyFolding::Safe,
            flatten_depth,
        };
        assert_round_trip(&value, &options)?;
    }

    #[test]
    fn tables_round_trip(rows in table(), delimiter in delimiter(), indent in 1usize..=4) {
        let options = EncodeOptions { indent, delimiter, ..EncodeOptions::default() };
        assert_round_trip(&Value::Array(rows), &options)?;
    }
}

/// Lines built from TOON's own syntax, so that arbitrary input reaches deep into the decoder.
fn line() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just(String::new()),
        prop::sample::select(KEYS).prop_map(str::to_string),
        prop::sample::select(STRINGS).prop_map(str::to_string),
        prop::sample::select(
            &[
                "- ",
                "-",
                "[2]",
                "[0]",
                "[1|]",
                "[2\t]",
                "[2:]",
                "[03]",
                "[]",
                "{a,b}",
                "{a{x,y}}",
                "{}",
                ":",
                ": ",
                ",",
                "|",
                "\t",
                "\"",
                "\"a\\u00e9\"",
                "\\",
                "# note",
                "a.b",
                "  ",
                "   ",
                "[1]{a}:",
                "k:",
                "k: v",
                "1,2",
                "x|y",
            ][..]
        )
        .prop_map(str::to_string),
    ];
    prop::collection::vec(token, 0..6).prop_map(|parts| parts.concat())
}

fn check_decode_outcome(
    text: &str,
    options: &DecodeOptions,
) -> Result<Option<Value>, TestCaseError> {
    match toon::decode(text, options) {
        Ok(value) => Ok(Some(value)),
        Err(e) => {
            prop_assert_eq!(e.format(), Format::Toon, "{:?}", e);
            prop_assert!(e.line().is_some() && e.column().is_some(), "{:?}", e);
            prop_assert!(e.offset().unwrap() <= text.len() as u64, "{:?}", e);
            Ok(None)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// Strict and lenient decoding of line soup: typed, placed errors; what strict mode
    /// accepts, lenient mode reads the same; whatever decodes re-encodes and reads back.
    #[test]
    fn decoding_line_soup(lines in prop::collection::vec(line(), 0..10), indent in 1usize..=3, expand in any::<bool>()) {
        let text = lines.join("\n");
        let expand_paths = if expand { ExpandPaths::Safe } else { ExpandPaths::Off };
        let strict = DecodeOptions { indent, expand_paths, ..DecodeOptions::default() };
        let lenient = DecodeOptions { strict: false, ..strict.clone() };
        let strict_value = check_decode_outcome(&text, &strict)?;
        let lenient_value = check_decode_outcome(&text, &lenient)?;
        if let Some(v) = &strict_value {
            prop_assert_eq!(Some(v), lenient_value.as_ref(), "{}", text);
        }
        for value in strict_value.iter().chain(&lenient_value) {
            let encoded = toon::encode(value, &EncodeOptions::default()).unwrap();
            let back = toon::decode(&encoded, &DecodeOptions::default())
                .map_err(|e| TestCaseError::fail(format!("{e}\n{encoded}")))?;
            prop_assert!(js_equal(value, &back), "{}\n{:?}\n{:?}", encoded, value, back);
        }
    }

    #[test]
    fn decoding_arbitrary_text(text in "\\PC{0,80}|[ -~\t\n\r]{0,120}") {
        for strict in [true, false] {
            let options = DecodeOptions { strict, ..DecodeOptions::default() };
            check_decode_outcome(&text, &options)?;
        }
    }
}

#[test]
fn non_finite_numbers_encode_as_null() {
    let value = Value::Array(vec![
        Value::Number(Number::from_f64(f64::NAN)),
        Value::Number(Number::from_f64(f64::INFINITY)),
        Value::Number(Number::from_f64(f64::NEG_INFINITY)),
    ]);
    let text = toon::encode(&value, &EncodeOptions::default()).unwrap();
    assert_eq!(text, "[3]: null,null,null");
    let err = toon::decode("a: \"\\x\"", &DecodeOptions::default()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ToonSyntax);
}
