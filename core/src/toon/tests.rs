//! Unit tests of the TOON codec: the options, positions of errors, hostile input. The
//! round-trip properties are in `core/tests/toon_properties.rs`, the spec's fixtures in the
//! conformance runner.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use super::*;
use crate::json::{self, Number, Value};

fn v(text: &str) -> Value {
    json::parse(text).unwrap()
}

fn enc(value: &Value) -> String {
    encode(value, &EncodeOptions::default()).unwrap()
}

fn folded(value: &Value, flatten_depth: usize) -> String {
    let options = EncodeOptions {
        key_folding: KeyFolding::Safe,
        flatten_depth,
        ..EncodeOptions::default()
    };
    encode(value, &options).unwrap()
}

fn dec(text: &str) -> Result<Value> {
    decode(text, &DecodeOptions::default())
}

fn lenient(text: &str) -> Result<Value> {
    decode(
        text,
        &DecodeOptions {
            strict: false,
            ..DecodeOptions::default()
        },
    )
}

fn expanded(text: &str, strict: bool) -> Result<Value> {
    decode(
        text,
        &DecodeOptions {
            strict,
            expand_paths: ExpandPaths::Safe,
            ..DecodeOptions::default()
        },
    )
}

/// Code, line and column of the error of `result`.
fn fails<T: core::fmt::Debug>(result: Result<T>) -> (&'static str, u64, u64) {
    let e = result.unwrap_err();
    (e.code(), e.line().unwrap(), e.column().unwrap())
}

#[test]
fn canonical_numbers() {
    let value = v("[0, -0, -0.0, 1.0, 1.5000, 1e6, 1e-6, 1e-7, 1e21, -12, 18446744073709551615]");
    assert_eq!(
        enc(&value),
        "[11]: 0,0,0,1,1.5,1000000,0.000001,0.0000001,1000000000000000000000,-12,18446744073709551615"
    );
    // Literal numbers: canonical text is copied (any precision), other text goes through f64.
    let literal = |t: &str| Value::Number(Number::from_literal(t).unwrap());
    let value = Value::Array(vec![
        literal("123456789012345678901234567890"),
        literal("0.1000000000000000000001"),
        literal("1.50"),
        literal("-0"),
        literal("1e3"),
        literal("1e999"),
    ]);
    assert_eq!(
        enc(&value),
        "[6]: 123456789012345678901234567890,0.1000000000000000000001,1.5,0,1000,null"
    );
}

#[test]
fn decoded_numbers_are_typed() {
    let value = dec("a: 42\nb: -7\nc: 18446744073709551615\nd: 18446744073709551616\ne: -9223372036854775808\nf: -0\ng: 1.0\nh: 1e400\ni: -0.0\nj: 05").unwrap();
    let n = |k: &str| match value.get(k) {
        Some(Value::Number(n)) => n.clone(),
        other => panic!("{k}: {other:?}"),
    };
    assert_eq!(n("a").as_u64(), Some(42));
    assert_eq!(n("b").as_i64(), Some(-7));
    assert_eq!(n("c").as_u64(), Some(u64::MAX));
    assert!(!n("d").is_integer() && n("d").as_f64() == 18446744073709551616.0);
    assert_eq!(n("e").as_i64(), Some(i64::MIN));
    assert_eq!(n("f").as_u64(), Some(0));
    assert!(!n("g").is_integer() && n("g").as_f64() == 1.0);
    assert_eq!(value.get("h"), Some(&Value::from("1e400")));
    assert!(n("i").as_f64().to_bits() == 0.0f64.to_bits());
    assert_eq!(value.get("j"), Some(&Value::from("05")));
}

#[test]
fn quoting() {
    let value = v(
        r##"{"s":["", " a", "a ", "-", "-a", "#", "#a", "a#", "true", "42", "1e5", "+1", "05", "a:b", "a,b", "a|b", "a\tb", "[x]", "{x}", "a\"b", "a\\b", "\u0001", "é 😀", "a b"]}"##,
    );
    assert_eq!(
        enc(&value),
        r##"s[24]: ""," a","a ","-","-a","#","#a",a#,"true","42","1e5","+1","05","a:b","a,b",a|b,"a\tb","[x]","{x}","a\"b","a\\b","\u0001",é 😀,a b"##
    );
    let pipe = EncodeOptions {
        delimiter: Delimiter::Pipe,
        ..EncodeOptions::default()
    };
    assert_eq!(
        encode(&v(r#"["a,b","a|b"]"#), &pipe).unwrap(),
        r#"[2|]: a,b|"a|b""#
    );
    // Keys: the §7.3 pattern, dots allowed.
    assert_eq!(
        enc(&v(r#"{"a.b":1,"1a":2,"a-b":3,"":4,"_":5}"#)),
        "a.b: 1\n\"1a\": 2\n\"a-b\": 3\n\"\": 4\n_: 5"
    );
    // A root string with a byte order mark keeps it (decoders drop a leading one).
    let bom = Value::from("\u{feff}x");
    assert_eq!(enc(&bom), "\"\u{feff}x\"");
    assert_eq!(dec(&enc(&bom)).unwrap(), bom);
    assert_eq!(dec("\u{feff}a: 1").unwrap(), v(r#"{"a":1}"#));
}

#[test]
fn options_are_checked() {
    for indent in [0, MAX_INDENT + 1] {
        let e = EncodeOptions {
            indent,
            ..EncodeOptions::default()
        };
        assert_eq!(
            encode(&Value::Null, &e).unwrap_err().code(),
            "INVALID_ARGUMENT"
        );
        let d = DecodeOptions {
            indent,
            ..DecodeOptions::default()
        };
        assert_eq!(decode("a: 1", &d).unwrap_err().code(), "INVALID_ARGUMENT");
    }
    let mut out = String::from("x");
    let e = EncodeOptions {
        indent: 0,
        ..EncodeOptions::default()
    };
    assert!(encode_to(&mut out, &v("[1]"), &e).is_err());
    assert_eq!(out, "x");
}

#[test]
fn list_items_and_nesting() {
    let value = v(
        r#"{"items":[[1,2],[],[{"a":1},{"b":2}],{"t":[{"x":1},{"x":2}],"n":{"k":{"z":1}}},{},"s"]}"#,
    );
    let text = enc(&value);
    assert_eq!(
        text,
        "items[6]:\n  - [2]: 1,2\n  - [0]:\n  - [2]:\n    - a: 1\n    - b: 2\n  - t[2]{x}:\n      1\n      2\n    n:\n      k:\n        z: 1\n  -\n  - s"
    );
    assert_eq!(dec(&text).unwrap(), value);
    // A keyless array of uniform objects inside a list is a list, not a table (§9.4).
    assert_eq!(
        enc(&v(r#"[[{"a":1},{"a":2}]]"#)),
        "[1]:\n  - [2]:\n    - a: 1\n    - a: 2"
    );
}

#[test]
fn key_folding() {
    let value = v(r#"{"a":{"b":{"c":1}},"d":{"e":[1,2]},"f":{"g":{}},"h":{"i":{"j":1,"k":2}}}"#);
    assert_eq!(
        folded(&value, usize::MAX),
        "a.b.c: 1\nd.e[2]: 1,2\nf.g:\nh.i:\n  j: 1\n  k: 2"
    );
    // Depth limit: at most 2 keys folded along a path.
    assert_eq!(
        folded(&v(r#"{"a":{"b":{"c":{"d":1}}}}"#), 2),
        "a.b:\n  c:\n    d: 1"
    );
    assert_eq!(folded(&v(r#"{"a":{"b":1}}"#), 1), "a:\n  b: 1");
    // Not identifiers, or a sibling with the folded key: no folding; literal dotted keys quoted.
    assert_eq!(
        folded(&v(r#"{"a":{"b-c":1}}"#), usize::MAX),
        "a:\n  \"b-c\": 1"
    );
    assert_eq!(
        folded(&v(r#"{"a":{"b":1},"a.b":2}"#), usize::MAX),
        "a:\n  b: 1\n\"a.b\": 2"
    );
    // The folded chain may end in a keyed table.
    assert_eq!(
        folded(
            &v(r#"{"cfg":{"servers":{"x":{"p":1},"y":{"p":2}}}}"#),
            usize::MAX
        ),
        "cfg.servers[2:]{p}:\n  x: 1\n  y: 2"
    );
    // Inside list items, the first field folds on the hyphen line.
    assert_eq!(
        folded(&v(r#"[{"a":{"b":1},"c":2},3]"#), usize::MAX),
        "[2]:\n  - a.b: 1\n    c: 2\n  - 3"
    );
    for text in [
        "a.b.c: 1\nd.e[2]: 1,2\nf.g:\nh.i:\n  j: 1\n  k: 2",
        "a:\n  b: 1\n\"a.b\": 2",
    ] {
        let back = expanded(text, true).unwrap();
        assert_eq!(folded(&back, usize::MAX), text);
    }
}

#[test]
fn path_expansion() {
    assert_eq!(
        expanded(
            "a.b: 1\na.c:\n  d: 2\n\"x.y\": 3\nz.w[2]: 1,2\nq.1: 4",
            true
        )
        .unwrap(),
        v(r#"{"a":{"b":1,"c":{"d":2}},"x.y":3,"z":{"w":[1,2]},"q.1":4}"#)
    );
    // Objects merge deeply; other values conflict (strict) or the later one wins.
    assert_eq!(
        expanded("a:\n  b:\n    c: 1\na.b.d: 2", true).unwrap(),
        v(r#"{"a":{"b":{"c":1,"d":2}}}"#)
    );
    assert_eq!(
        fails(expanded("a.b: 1\na: 2", true)),
        ("TOON_DUPLICATE_KEY", 2, 1)
    );
    assert_eq!(
        fails(expanded("a: 2\na.b: 1", true)),
        ("TOON_DUPLICATE_KEY", 2, 1)
    );
    assert_eq!(expanded("a.b: 1\na: 2", false).unwrap(), v(r#"{"a":2}"#));
    assert_eq!(
        expanded("a: 2\na.b: 1", false).unwrap(),
        v(r#"{"a":{"b":1}}"#)
    );
    // Literal duplicates first take the last value in the first place (lenient).
    assert_eq!(
        expanded("a.b: 1\nc: 0\na.b: 2", false).unwrap(),
        v(r#"{"a":{"b":2},"c":0}"#)
    );
    // Field names and entry keys expand too, unless quoted.
    assert_eq!(
        expanded(
            "t[1]{a.b,\"c.d\"}:\n  1,2\nm[2:]{v}:\n  x.y: 1\n  \"x.z\": 2",
            true
        )
        .unwrap(),
        v(r#"{"t":[{"a":{"b":1},"c.d":2}],"m":{"x":{"y":{"v":1}},"x.z":{"v":2}}}"#)
    );
    // Without expansion, dots are plain key characters.
    assert_eq!(dec("a.b: 1").unwrap(), v(r#"{"a.b":1}"#));
}

#[test]
fn lenient_mode() {
    // Tabs are one level, indentation floors to whole levels, duplicates: the last one.
    assert_eq!(
        lenient("a:\n\tb: 1\n\tc: 2").unwrap(),
        v(r#"{"a":{"b":1,"c":2}}"#)
    );
    assert_eq!(lenient("a:\n   b: 1").unwrap(), v(r#"{"a":{"b":1}}"#));
    assert_eq!(lenient("a: 1\nb: 2\na: 3").unwrap(), v(r#"{"a":3,"b":2}"#));
    // Malformed headers, and headers where they may not stand, read as key-value lines whose
    // key is the text before the first unquoted colon (spec §5.2, §6).
    assert_eq!(
        lenient("k[03]: 1\nm[2:]: x\n[2]: a,b\nt[1]{}: z\nq[1][x]: 2").unwrap(),
        v(r#"{"k[03]":1,"m[2":"]: x","[2]":"a,b","t[1]{}":"z","q[1][x]":2}"#)
    );
    // Counts are not checked; blank lines inside arrays are skipped.
    assert_eq!(
        lenient("a[3]:\n  - 1\n\n  - 2").unwrap(),
        v(r#"{"a":[1,2]}"#)
    );
    assert_eq!(
        lenient("a[1]{x}:\n  1\n  2").unwrap(),
        v(r#"{"a":[{"x":1},{"x":2}]}"#)
    );
}

#[test]
fn error_positions() {
    assert_eq!(fails(dec("a:\n\tb: 1")), ("TOON_INDENTATION", 2, 1));
    assert_eq!(fails(dec("a:\n   b: 1")), ("TOON_INDENTATION", 2, 4));
    assert_eq!(fails(dec("a:\n    b: 1")), ("TOON_INDENTATION", 2, 5));
    assert_eq!(fails(dec("a: 1\n  b: 2")), ("TOON_INDENTATION", 2, 3));
    assert_eq!(
        fails(dec("a[2]:\n  - 1\n\n  - 2")),
        ("TOON_BLANK_LINE", 3, 1)
    );
    assert_eq!(fails(dec("a[3]: 1,2")), ("TOON_COUNT_MISMATCH", 1, 7));
    assert_eq!(
        fails(dec("a[1]:\n  - 1\n  - 2")),
        ("TOON_COUNT_MISMATCH", 3, 3)
    );
    assert_eq!(fails(dec("t[1]{a,b}:\n  1")), ("TOON_COUNT_MISMATCH", 2, 3));
    assert_eq!(fails(dec("x: 1\nx: 2")), ("TOON_DUPLICATE_KEY", 2, 1));
    assert_eq!(
        fails(dec("t[1]{a,a}:\n  1,2")),
        ("TOON_DUPLICATE_KEY", 1, 8)
    );
    assert_eq!(fails(dec("[1]: x\ny: 2")), ("TOON_TRAILING_CONTENT", 2, 1));
    assert_eq!(fails(dec("a: \"b\\x\"")), ("TOON_SYNTAX", 1, 6));
    assert_eq!(fails(dec("a: \"b\\ud800\"")), ("TOON_SYNTAX", 1, 6));
    assert_eq!(fails(dec("a: \"open")), ("TOON_SYNTAX", 1, 4));
    assert_eq!(fails(dec("a: \"x\"y")), ("TOON_SYNTAX", 1, 7));
    assert_eq!(fails(dec("a:\n  user")), ("TOON_SYNTAX", 2, 3));
    assert_eq!(fails(dec("k[1]{x}: 1")), ("TOON_SYNTAX", 1, 10));
    assert_eq!(fails(dec("hello\nworld")), ("TOON_SYNTAX", 1, 1));
    // Columns count characters; offsets count bytes; CRLF does not shift columns.
    let e = dec("é: 1\r\né: 2\r\n").unwrap_err();
    assert_eq!(
        (e.line(), e.column(), e.offset()),
        (Some(2), Some(1), Some(7))
    );
    assert_eq!(
        dec("a: 1\r\nb:\r\n  c: \"x\\r\"\r\n").unwrap(),
        v(r#"{"a":1,"b":{"c":"x\r"}}"#)
    );
}

#[test]
fn hostile_nesting_is_capped() {
    let cap = DEFAULT_MAX_DEPTH;
    // Objects by indentation, list items, nested field groups, expanded paths: each stops at
    // the cap with TOON_DEPTH, in both modes.
    let objects: String = (0..cap + 10)
        .map(|d| format!("{}k:\n", " ".repeat(d)))
        .collect();
    let one_space = DecodeOptions {
        indent: 1,
        ..DecodeOptions::default()
    };
    assert_eq!(
        decode(&objects, &one_space).unwrap_err().code(),
        "TOON_DEPTH"
    );
    let lists: String = (0..cap + 10)
        .map(|d| format!("{}- [1]:\n", " ".repeat(d + 1)))
        .collect();
    let lists = format!("[1]:\n{lists}");
    assert_eq!(decode(&lists, &one_space).unwrap_err().code(), "TOON_DEPTH");
    let groups = format!(
        "t[1]{{{}x{}}}:\n  1",
        "a{".repeat(100_000),
        "}".repeat(100_000)
    );
    assert_eq!(dec(&groups).unwrap_err().code(), "TOON_DEPTH");
    assert_eq!(lenient(&groups).unwrap_err().code(), "TOON_DEPTH");
    let path = format!("{}: 1", vec!["a"; 100_000].join("."));
    assert_eq!(expanded(&path, true).unwrap_err().code(), "TOON_DEPTH");
    assert_eq!(expanded(&path, false).unwrap_err().code(), "TOON_DEPTH");
    // Just below the cap decodes (the decoder's recursion fits a test thread's stack).
    let objects: String = (0..cap - 1)
        .map(|d| format!("{}k:\n", " ".repeat(d)))
        .collect();
    assert!(decode(&objects, &one_space).is_ok());
    let deep_lists: String = (0..cap - 2)
        .map(|d| format!("{}- [1]:\n", " ".repeat(d + 1)))
        .collect();
    let deep_lists = format!("[1]:\n{deep_lists}{}- 1", " ".repeat(cap - 1));
    assert!(
        decode(&deep_lists, &one_space).is_ok(),
        "{:?}",
        decode(&deep_lists, &one_space)
    );
}

#[test]
fn declared_lengths_are_not_trusted() {
    for text in [
        "a[1000000000000]: 1",
        "a[1000000000000]:\n  - 1",
        "a[1000000000000]{x}:\n  1",
        "a[1000000000000:]{x}:\n  k: 1",
        "[99999999999999999999999999]: 1",
    ] {
        assert_eq!(
            dec(text).unwrap_err().code(),
            "TOON_COUNT_MISMATCH",
            "{text}"
        );
        assert!(lenient(text).is_ok(), "{text}");
    }
}

#[test]
fn long_lines_are_linear() {
    // A few megabytes in one line, in every shape the line scanners see: none of these may
    // rescan the line per token (quadratic time would not finish here).
    let n = 1 << 20;
    let cells = "x,".repeat(n);
    let inline = format!("a[{}]: {}x", n + 1, cells);
    assert_eq!(
        dec(&inline)
            .unwrap()
            .get("a")
            .unwrap()
            .as_array()
            .unwrap()
            .len(),
        n + 1
    );
    let quoted = format!("a: \"{}\"", "\\\"".repeat(n));
    assert_eq!(
        dec(&quoted)
            .unwrap()
            .get("a")
            .unwrap()
            .as_str()
            .unwrap()
            .len(),
        n
    );
    let unterminated = format!("a[2]: \"{}", "x,".repeat(n));
    assert_eq!(
        dec(&unterminated).unwrap_err().code(),
        "TOON_COUNT_MISMATCH"
    );
    let row = format!("t[1]{{x}}:\n  {}", "\"a\"".repeat(n));
    assert_eq!(dec(&row).unwrap_err().code(), "TOON_SYNTAX");
    let spaces = format!("{}a: 1", " ".repeat(4 * n));
    assert_eq!(dec(&spaces).unwrap_err().code(), "TOON_INDENTATION");
    let brackets = format!("k{}: 1", "[".repeat(n));
    assert_eq!(dec(&brackets).unwrap_err().code(), "TOON_SYNTAX");
    let fields = format!("t[1]{{{}}}:\n  1", vec!["f"; n].join(","));
    assert_eq!(dec(&fields).unwrap_err().code(), "TOON_DUPLICATE_KEY");
    let keys: String = (0..n / 16).map(|i| format!("k{i}: {i}\n")).collect();
    assert_eq!(dec(&keys).unwrap().as_object().unwrap().len(), n / 16);
    let dotted: String = (0..n / 16).map(|i| format!("a.k{i}: {i}\n")).collect();
    let value = expanded(&dotted, true).unwrap();
    assert_eq!(value.get("a").unwrap().as_object().unwrap().len(), n / 16);
}

#[test]
fn encoder_writes_into_the_given_string() {
    let mut out = String::from("> ");
    encode_to(
        &mut out,
        &v(r#"{"a":[{"b":1}]}"#),
        &EncodeOptions::default(),
    )
    .unwrap();
    assert_eq!(out, "> a[1]{b}:\n  1");
    assert_eq!(enc(&v("{}")), "");
    assert_eq!(dec("").unwrap(), v("{}"));
    assert_eq!(enc(&Value::from("")), "\"\"");
    assert_eq!(
        Delimiter::from_name("pipe")
            .map(Delimiter::as_char)
            .map(|c| c.to_string()),
        Some("|".to_string())
    );
    let names: Vec<&str> = [Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe]
        .iter()
        .map(|d| d.as_str())
        .collect();
    assert_eq!(names, ["comma", "tab", "pipe"]);
}
