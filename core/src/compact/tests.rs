use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::*;

fn bytes(text: &str) -> usize {
    text.len()
}

fn pretty_rows(n: usize) -> String {
    let rows: Vec<String> = (0..n)
        .map(|i| format!("  {{\n    \"id\": \"pkg.F{i}\",\n    \"kind\": \"function\",\n    \"name\": \"F{i}\",\n    \"path\": \"a.go\",\n    \"line\": {i}\n  }}"))
        .collect();
    format!(
        "{{\n  \"results\": [\n{}\n  ],\n  \"total\": {n}\n}}",
        rows.join(",\n")
    )
}

#[test]
fn the_layout_is_a_lossless_candidate_on_its_tool() {
    let text = pretty_rows(20);
    let options = Options {
        tool: "search_symbols",
        ..Options::default()
    };
    let out = compact_json(&text, &options, &bytes).unwrap();
    assert_eq!(out.input_tokens, text.len());
    assert!(out.tokens < out.input_tokens);
    assert_ne!(out.format, Format::Input);
    assert_eq!(out.reason, None);
    // What was not read back had more tokens than the best so far: counting stopped there.
    for c in &out.candidates {
        match c.lossless {
            None => assert!(!c.tokens_exact && c.tokens.unwrap() > out.tokens, "{c:?}"),
            Some(true) => assert!(c.tokens.unwrap() >= out.tokens),
            Some(false) => assert_eq!(c.tokens, None),
        }
    }
    // Counted to the end on request: every lossless candidate exact.
    let exact = compact_json(
        &text,
        &Options {
            exact_counts: true,
            ..options
        },
        &bytes,
    )
    .unwrap();
    assert_eq!((exact.format, exact.tokens), (out.format, out.tokens));
    assert!(
        exact
            .candidates
            .iter()
            .any(|c| c.format == Format::Gcx1Layout && c.lossless == Some(true))
    );
    assert!(exact.candidates.iter().all(|c| c.lossless.is_some()));
    for c in exact.candidates.iter().filter(|c| c.lossless == Some(true)) {
        assert_eq!((c.tokens, c.tokens_exact), (Some(c.text.len()), true));
    }
}

#[test]
fn cells_a_reader_would_misread_make_gcx1_lossy() {
    let rows: Vec<String> = (0..30)
        .map(|i| {
            let flag = if i % 2 == 1 { "true" } else { "false" };
            let note = if i % 3 == 0 { "\"\"" } else { "null" };
            format!(
                "{{\"id\": \"{i}\", \"flag\": \"{flag}\", \"note\": {note}, \"list\": \"[1]\"}}"
            )
        })
        .collect();
    let text = format!("[{}]", rows.join(",\n"));
    let out = compact_json(
        &text,
        &Options {
            min_savings: 0.0,
            ..Options::default()
        },
        &bytes,
    )
    .unwrap();
    let gcx = out
        .candidates
        .iter()
        .find(|c| c.format == Format::Gcx1Generic);
    assert!(gcx.is_none_or(|c| c.lossless == Some(false) && c.lossy_reason.is_some()));
    let back = if out.format == Format::Input {
        json::parse(&out.text).unwrap()
    } else {
        decode(&out.text).unwrap().unwrap()
    };
    assert!(js_equal(&back, &json::parse(&text).unwrap()));
}

#[test]
fn numbers_a_double_cannot_hold_keep_the_input() {
    let rows = pretty_rows(20);
    for (big, printed) in [
        ("12345678901234567890", "12345678901234567000"),
        ("0.12345678901234567890", "0.12345678901234568"),
        ("9007199254740993", "9007199254740992"),
        ("1e400", "Infinity"),
        ("-1e400", "-Infinity"),
        ("1e-400", "0"),
        ("-0", "0"),
        ("-0.0e5", "0"),
    ] {
        let text = format!("{{\"rows\": {rows}, \"more\": {{\"ids\": [1, {big}]}}}}");
        let out = compact_json(&text, &Options::default(), &bytes).unwrap();
        assert_eq!(
            (out.format, out.text.as_str()),
            (Format::Input, text.as_str())
        );
        let Some(Reason::InexactNumber {
            path,
            numeral,
            position,
        }) = &out.reason
        else {
            panic!("{big}: {:?}", out.reason)
        };
        assert_eq!((path.as_str(), numeral.as_str()), ("$.more.ids[1]", big));
        assert_eq!(position.unwrap().offset as usize, text.find(big).unwrap());
        assert!(out.candidates.is_empty());
        let message = out.reason.as_ref().unwrap().to_string();
        assert!(
            message.contains(big) && message.contains("$.more.ids[1]"),
            "{message}"
        );
        // The parser's own message says what a reader would read.
        let error = json::parse_exact(&text, &json::ParseOptions::default()).unwrap_err();
        assert_eq!(error.code(), "JSON_INEXACT_NUMBER");
        assert!(
            error
                .message()
                .ends_with(&format!("gives back {printed} at $.more.ids[1]")),
            "{}",
            error.message()
        );
    }
    let text = format!(
        "{{\"id\": 9007199254740992, \"x\": 0.8401877171547095, \"y\": 1.50, \"z\": 1E2, \"big\": 18446744073709552000, \"rows\": {rows}}}"
    );
    let out = compact_json(&text, &Options::default(), &bytes).unwrap();
    assert_ne!(out.format, Format::Input);
    assert_eq!(out.reason, None);
}

#[test]
fn string_contents_are_never_numerals() {
    // Real data: versions, integrity hashes and git SHAs full of digit runs with e, -, +, .
    let rows: Vec<String> = (0..20)
        .map(|i| {
            format!(
                "{{\"version\": \"0.0.0-experimental-3b814327e-2022101{i}\", \"sha\": \"90359e986641506914{i}\", \"tar\": \"3069344290341720e9178{i}\", \"n\": {i}}}"
            )
        })
        .collect();
    let text = format!("[\n  {}\n]", rows.join(",\n  "));
    let out = compact_json(&text, &Options::default(), &bytes).unwrap();
    assert_ne!(out.format, Format::Input, "{:?}", out.reason);
    assert!(js_equal(
        &decode(&out.text).unwrap().unwrap(),
        &json::parse(&text).unwrap()
    ));
}

#[test]
fn what_only_json_text_carries_keeps_the_input() {
    let rows = pretty_rows(10);
    let duplicate = format!("{{\"rows\": {rows}, \"meta\": {{\"a\": 1, \"b\": 2, \"a\": 3}}}}");
    let out = compact_json(&duplicate, &Options::default(), &bytes).unwrap();
    assert_eq!(out.format, Format::Input);
    let Some(Reason::DuplicateKey { path, key, .. }) = &out.reason else {
        panic!("{:?}", out.reason)
    };
    assert_eq!((path.as_str(), key.as_str()), ("$.meta", "a"));
    // Over 16 members the check sorts the keys.
    let many: Vec<String> = (0..40).map(|i| format!("\"k{}\": {i}", i % 39)).collect();
    let text = format!("{{\"rows\": {rows}, \"wide\": {{{}}}}}", many.join(","));
    let out = compact_json(&text, &Options::default(), &bytes).unwrap();
    assert!(
        matches!(&out.reason, Some(Reason::DuplicateKey { path, key, .. }) if path == "$.wide" && key == "k0"),
        "{:?}",
        out.reason
    );

    for (text, path, escape) in [
        (
            format!("{{\"rows\": {rows}, \"s\": [\"ok\\ud83d\\ude00\", \"x\\ud800y\"]}}"),
            "$.s[1]",
            "\\ud800",
        ),
        (
            format!("{{\"rows\": {rows}, \"o\": {{\"a\": 1, \"k\\udc00\": 2}}}}"),
            "$.o",
            "\\udc00",
        ),
        (
            format!("{{\"rows\": {rows}, \"o\": {{\"k\\udc00\": 2}}}}"),
            "$.o",
            "\\udc00",
        ),
    ] {
        let out = compact_json(&text, &Options::default(), &bytes).unwrap();
        assert!(
            matches!(&out.reason, Some(Reason::LoneSurrogate { path: p, escape: e, .. }) if p == path && e == escape),
            "{text}: {:?}",
            out.reason
        );
        assert_eq!(out.text, text);
    }
}

#[test]
fn unreadable_input_is_kept_with_the_parser_error() {
    for (text, code, line, column) in [
        ("Echo: {\"a\": 1}", "JSON_SYNTAX", 1, 1),
        ("[1,\n  2,\n]", "JSON_SYNTAX", 3, 1),
        ("", "JSON_SYNTAX", 1, 1),
    ] {
        let out = compact_json(text, &Options::default(), &bytes).unwrap();
        let Some(Reason::NotJson(error)) = &out.reason else {
            panic!("{text}: {:?}", out.reason)
        };
        assert_eq!(
            (error.code(), error.line(), error.column()),
            (code, Some(line), Some(column)),
            "{text}"
        );
        assert_eq!(
            (out.format, out.text.as_str(), out.tokens),
            (Format::Input, text, text.len())
        );
    }
    let deep = "[".repeat(10_000) + &"]".repeat(10_000);
    let out = compact_json(&deep, &Options::default(), &bytes).unwrap();
    assert!(matches!(&out.reason, Some(Reason::NotJson(e)) if e.code() == "JSON_DEPTH"));
    assert_eq!(out.text, deep);
}

#[test]
fn too_small_a_saving_says_both_numbers() {
    let pretty = "{\n  \"ok\": true\n}";
    let strict = Options {
        min_savings: 0.9,
        ..Options::default()
    };
    let out = compact_json(pretty, &strict, &bytes).unwrap();
    let Some(Reason::BelowMinSavings {
        best,
        best_tokens,
        input_tokens,
        savings,
        min_savings,
    }) = out.reason.clone()
    else {
        panic!("{:?}", out.reason)
    };
    assert_eq!((best, best_tokens, input_tokens), (Format::Toon, 8, 16));
    assert_eq!((savings, min_savings), (0.5, 0.9));
    assert_eq!(
        out.reason.unwrap().to_string(),
        "the best candidate, toon with 8 tokens, saves 50.0 % of the input's 16: less than minSavings 90.0 %"
    );
    // Already minified: nothing is smaller, and it says so.
    let out = compact_json("[1,2]", &Options::default(), &bytes).unwrap();
    assert_eq!(
        out.reason.unwrap().to_string(),
        "no candidate has fewer tokens than the input's 5 (the fewest: json-min with 5)"
    );
    assert_eq!(
        Reason::NoLosslessCandidate.to_string(),
        "no candidate decodes back to the input (see each candidate's reason)"
    );
}

#[test]
fn values_with_numbers_a_double_cannot_hold_are_kept() {
    let mut map = json::Map::new();
    map.insert("ok".into(), Value::Number(json::Number::from_u64(1 << 53)));
    map.insert(
        "id".into(),
        Value::Number(json::Number::from_u64((1 << 53) + 1)),
    );
    let value = Value::Array(alloc::vec![Value::Object(map)]);
    let out = compact_value(&value, &Options::default(), &bytes).unwrap();
    assert!(
        matches!(&out.reason, Some(Reason::InexactNumber { path, numeral, position: None }) if path == "$[0].id" && numeral == "9007199254740993"),
        "{:?}",
        out.reason
    );
    let negative_zero = Value::Array(alloc::vec![Value::Number(json::Number::from_f64(-0.0))]);
    let out = compact_value(&negative_zero, &Options::default(), &bytes).unwrap();
    assert_eq!(out.reason.unwrap().code(), "INEXACT_NUMBER");
}

#[test]
fn small_or_unparsable_inputs_are_kept() {
    assert_eq!(
        compact_json("[1,2]", &Options::default(), &bytes)
            .unwrap()
            .format,
        Format::Input
    );
    let kept = compact_json("Echo: {\"a\": 1}", &Options::default(), &bytes).unwrap();
    assert_eq!((kept.format, kept.candidates.len()), (Format::Input, 0));
    assert_eq!(kept.reason.unwrap().code(), "NOT_JSON");
    let pretty = "{\n  \"ok\": true\n}";
    let min = Options {
        min_savings: 0.0,
        ..Options::default()
    };
    assert_eq!(
        compact_json(pretty, &min, &bytes).unwrap().format,
        Format::Toon
    );
    let strict = Options {
        min_savings: 0.9,
        ..Options::default()
    };
    assert_eq!(
        compact_json(pretty, &strict, &bytes).unwrap().format,
        Format::Input
    );
    let bad = Options {
        min_savings: -1.0,
        ..Options::default()
    };
    assert_eq!(
        compact_json(pretty, &bad, &bytes).unwrap_err().code(),
        "INVALID_ARGUMENT"
    );
}

#[test]
fn random_documents_decode_to_themselves() {
    let mut seed: u64 = 17;
    let mut rand = move |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    let strings = [
        "",
        "plain",
        "tab\\there",
        "line\\nbreak",
        "#hash",
        "GCX1 x",
        "ünïcödé",
        "\\\"quoted\\\"",
        "123",
        "true",
        "null",
        " lead",
        "a,b",
        "x=y",
        "back\\\\slash",
        "\\u2028",
    ];
    let mut formats = Vec::new();
    for i in 0..300 {
        let mut doc = String::from("[");
        for r in 0..3 + rand(20) {
            if r > 0 {
                doc.push(',');
            }
            let s = strings[rand(strings.len() as u64) as usize];
            let value = match rand(5) {
                0 => format!("\"{s}\""),
                1 => format!("{}", rand(2000) as i64 - 1000),
                2 => format!("{}", rand(1_000_000) as f64 / 7.0),
                3 => String::from(if rand(2) == 0 { "true" } else { "null" }),
                _ => String::from("[1e21, 5e-324]"),
            };
            if i % 2 == 0 {
                doc.push_str(&format!(
                    "{{\"id\": {r}, \"name\": \"{s}\", \"v\": {value}}}"
                ));
            } else {
                doc.push_str(&value);
            }
        }
        doc.push(']');
        let out = compact_json(
            &doc,
            &Options {
                min_savings: 0.0,
                ..Options::default()
            },
            &bytes,
        )
        .unwrap();
        formats.push(out.format);
        let back = if out.format == Format::Input {
            json::parse(&out.text).unwrap()
        } else {
            decode(&out.text).unwrap().unwrap()
        };
        assert!(
            js_equal(&back, &json::parse(&doc).unwrap()),
            "document {i} ({}): {doc}",
            out.format.as_str()
        );
    }
    assert!(formats.contains(&Format::Gcx1Generic) || formats.contains(&Format::GcfGeneric));
}

#[test]
fn toon_is_a_candidate_read_back_from_its_text_alone() {
    let contacts: Vec<String> = (0..40)
        .map(|i| {
            format!(
                "{{\"name\": \"Person {i}\", \"age\": {}, \"address\": {{\"city\": \"City {}\", \"country\": \"CC\"}}, \"plan\": {{\"name\": \"pro\", \"price\": {}.5}}}}",
                20 + i,
                i % 7,
                i % 3
            )
        })
        .collect();
    let text = format!("{{\"contacts\": [{}]}}", contacts.join(", "));
    let options = Options {
        min_savings: 0.0,
        exact_counts: true,
        ..Options::default()
    };
    let out = compact_json(&text, &options, &bytes).unwrap();
    let value = json::parse(&text).unwrap();
    for format in [Format::Toon, Format::ToonTab] {
        let c = out.candidates.iter().find(|c| c.format == format).unwrap();
        assert_eq!(c.lossless, Some(true), "{format:?}: {:?}", c.lossy_reason);
        let header = match format {
            Format::Toon => "contacts[40]{name,age,address{city,country},plan{name,price}}:",
            _ => "contacts[40\t]{name\tage\taddress{city\tcountry}\tplan{name\tprice}}:",
        };
        assert!(c.text.starts_with(header), "{}", c.text);
        assert!(js_equal(&decode(&c.text).unwrap().unwrap(), &value));
    }
    // TOON text whose first line reads as another format is not TOON to a reader that has only
    // the text: such a candidate is lossy, never chosen.
    let rows: Vec<String> = (0..10)
        .map(|i| format!("{{\"GCF\": {i}, \"b\": \"x\"}}"))
        .collect();
    let out = compact_json(
        &format!("{{\"GCF\": [{}]}}", rows.join(",")),
        &options,
        &bytes,
    )
    .unwrap();
    let toon = out
        .candidates
        .iter()
        .find(|c| c.format == Format::Toon)
        .unwrap();
    assert!(toon.text.starts_with("GCF[10]"), "{}", toon.text);
    assert!(
        toon.lossless == Some(false)
            && toon
                .lossy_reason
                .as_deref()
                .unwrap()
                .starts_with("it does not decode")
    );
}

#[test]
fn toon_stands_only_for_non_empty_containers() {
    let options = Options {
        min_savings: 0.0,
        exact_counts: true,
        ..Options::default()
    };
    // `{}` is the empty text in TOON: never offered, so an empty result never becomes no text.
    let out = compact_json("{ }", &options, &bytes).unwrap();
    assert_eq!((out.format, out.text.as_str()), (Format::JsonMin, "{}"));
    assert!(out.candidates.iter().all(|c| c.format != Format::Toon));
    // A reader takes TOON only for an array or an object: other text is not JSON.
    for text in ["", "hello", "{", "[1,", "42 apples"] {
        assert!(decode(text).is_err(), "{text:?}");
    }
    assert_eq!(
        decode("a: 1").unwrap(),
        Some(json::parse(r#"{"a":1}"#).unwrap())
    );
}
