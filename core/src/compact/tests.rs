use alloc::format;
use alloc::string::String;
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
fn the_layout_wins_on_its_tool() {
    let text = pretty_rows(20);
    let options = Options {
        tool: "search_symbols",
        ..Options::default()
    };
    let out = compact_json(&text, &options, &bytes).unwrap();
    assert_eq!(out.input_tokens, text.len());
    assert!(out.tokens < out.input_tokens);
    assert_ne!(out.format, Format::Input);
    assert!(
        out.candidates
            .iter()
            .any(|c| c.format == Format::Gcx1Layout && c.lossless)
    );
    assert!(
        out.candidates
            .iter()
            .all(|c| !c.lossless || c.tokens.unwrap() >= out.tokens)
    );
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
    for c in exact.candidates.iter().filter(|c| c.lossless) {
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
    assert!(gcx.is_none_or(|c| !c.lossless && c.lossy_reason.is_some()));
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
    for big in [
        "12345678901234567890",
        "0.12345678901234567890",
        "9007199254740993",
    ] {
        let text = format!("{{\"id\": {big}, \"rows\": {rows}}}");
        assert_eq!(
            compact_json(&text, &Options::default(), &bytes)
                .unwrap()
                .format,
            Format::Input,
            "{big}"
        );
    }
    let text = format!("{{\"id\": 9007199254740992, \"x\": 0.8401877171547095, \"rows\": {rows}}}");
    assert_ne!(
        compact_json(&text, &Options::default(), &bytes)
            .unwrap()
            .format,
        Format::Input
    );
}

#[test]
fn small_or_unparsable_inputs_are_kept() {
    assert_eq!(
        compact_json("{\"a\":1}", &Options::default(), &bytes)
            .unwrap()
            .format,
        Format::Input
    );
    let kept = compact_json("Echo: {\"a\": 1}", &Options::default(), &bytes).unwrap();
    assert_eq!((kept.format, kept.candidates.len()), (Format::Input, 0));
    let pretty = "{\n  \"ok\": true\n}";
    let min = Options {
        min_savings: 0.0,
        ..Options::default()
    };
    assert_eq!(
        compact_json(pretty, &min, &bytes).unwrap().format,
        Format::JsonMin
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
