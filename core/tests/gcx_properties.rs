//! Property tests for GCX1: the lossless round trip, chunk-independence of the push decoder,
//! that no input makes the decoder panic, and that the sections' JSON text is their value's.

use agentwire::gcx::{
    self, Cell, DecodeOptions, Decoder, EncodeOptions, Encoder, Header, Section, document,
};
use agentwire::json::{self, WriteOptions};
use proptest::prelude::*;

/// Cell text: mostly ordinary, often holding the characters that break naive GCX1 round
/// trips (TAB, LF, backslash, a leading `#` or `GCX1`), sometimes CR (which GCX1 cannot carry).
fn cell_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z0-9 ]{0,6}",
        4 => "[a-z#\\\\ ,=\t\n\u{a0}\u{2028}é😀]{0,6}",
        2 => "(GCX1|#)[a-z \t]{0,4}",
        1 => "[a-z\r]{0,4}",
    ]
}

/// Header text: mostly identifiers, sometimes hazardous (space, comma, `=`, CR, whitespace).
fn name_text() -> impl Strategy<Value = String> {
    prop_oneof![8 => "[a-z_][a-z0-9_.]{0,5}", 1 => cell_text()]
}

#[derive(Debug, Clone)]
struct Input {
    header: Header,
    rows: Vec<Vec<String>>,
}

fn section() -> impl Strategy<Value = Input> {
    (
        name_text(),
        prop::collection::vec(name_text(), 0..4),
        prop::collection::btree_map(name_text(), name_text(), 0..3),
    )
        .prop_flat_map(|(tool, fields, meta)| {
            let width = fields.len();
            let rows = prop::collection::vec(prop::collection::vec(cell_text(), 0..=width), 0..4);
            (Just(Header { tool, fields, meta }), rows)
        })
        .prop_map(|(header, rows)| Input { header, rows })
}

fn encode(sections: &[Input], options: EncodeOptions) -> agentwire::Result<String> {
    let mut encoder = Encoder::new(String::new(), options);
    for s in sections {
        encoder.begin_section(&s.header)?;
        for row in &s.rows {
            let cells: Vec<Cell<'_>> = row.iter().map(|v| Cell::Str(v)).collect();
            encoder.write_row(&cells)?;
        }
    }
    encoder.finish()
}

fn expected(sections: &[Input]) -> Vec<Section> {
    sections
        .iter()
        .map(|s| Section {
            header: s.header.clone(),
            rows: s
                .rows
                .iter()
                .map(|r| {
                    let mut r = r.clone();
                    r.resize(s.header.fields.len(), String::new());
                    r
                })
                .collect(),
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// With `lossless`, decode(encode(x)) == x, or encoding refuses with GCX_NOT_LOSSLESS.
    #[test]
    fn lossless_round_trip_or_refusal(sections in prop::collection::vec(section(), 1..3)) {
        match encode(&sections, EncodeOptions { lossless: true, ..EncodeOptions::default() }) {
            Ok(payload) => {
                let decoded = gcx::decode(&payload, &DecodeOptions::default()).into_sections();
                prop_assert_eq!(decoded, Ok(expected(&sections)), "payload {:?}", payload);
            }
            Err(e) => prop_assert_eq!(e.code(), "GCX_NOT_LOSSLESS"),
        }
    }

    /// The default (checked) encoder writes gcx-go's bytes, and they decode without error;
    /// or it refuses with GCX_UNDECODABLE.
    #[test]
    fn checked_is_gcx_go_or_refusal(sections in prop::collection::vec(section(), 1..3)) {
        let parity = encode(&sections, EncodeOptions::gcx_go()).unwrap();
        match encode(&sections, EncodeOptions::default()) {
            Ok(payload) => {
                prop_assert_eq!(&payload, &parity);
                let decoded = gcx::decode(&payload, &DecodeOptions::default());
                prop_assert!(decoded.error.is_none(), "payload {:?}: {:?}", payload, decoded.error);
            }
            Err(e) => prop_assert_eq!(e.code(), "GCX_UNDECODABLE"),
        }
    }

    /// Whatever the chunking, the push decoder yields what the one-shot decoder yields.
    #[test]
    fn chunking_is_invisible(sections in prop::collection::vec(section(), 1..3), chunk in 1usize..17) {
        let payload = encode(&sections, EncodeOptions::gcx_go()).unwrap();
        let whole = gcx::decode(&payload, &DecodeOptions::default()).into_owned_parts();
        let mut decoder = Decoder::new(DecodeOptions::default());
        let mut got: Vec<Section> = Vec::new();
        let mut error = None;
        let mut pieces = payload.as_bytes().chunks(chunk);
        loop {
            match decoder.next() {
                Ok(Some(item)) => Section::collect(&mut got, item),
                Ok(None) => match pieces.next() {
                    Some(p) => decoder.push(p),
                    None if !decoder.is_finished() => decoder.finish(),
                    None => break,
                },
                Err(e) => { error = Some(e); break; }
            }
        }
        prop_assert_eq!((got, error), whole);
    }

    /// Arbitrary bytes never panic the decoder; every failure carries a code and a position.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let options = DecodeOptions { max_line_bytes: 64, comments: true, ..DecodeOptions::default() };
        let mut decoder = Decoder::from_slice(&bytes, options);
        for _ in 0..300 {
            match decoder.next() {
                Ok(Some(_)) => {}
                Ok(None) => break,
                Err(e) => prop_assert!(e.position().is_some(), "{:?}", e),
            }
        }
    }

    /// The one-pass decoder of complete payloads agrees with the line-by-line [`Decoder`] on
    /// hostile line soups (headers, rows, comments, CR, blank lines, stray bytes, long lines),
    /// under small limits too (sections, rows, values), sections, error and all.
    #[test]
    fn in_place_decoding_matches_the_decoder((payload, options) in line_soup()) {
        let fast = gcx::decode(&payload, &options).into_owned_parts();
        prop_assert_eq!(&fast, &decode_with_decoder(&payload, &options), "{:?}", payload);
    }

    /// For every soup the one-pass decoder reads without error, the JSON text written from the
    /// sections in place (`write_sections_json`, the decode hot path) is the text of the value
    /// tree (`sections_to_value`).
    #[test]
    fn json_writer_matches_the_value_tree((payload, options) in line_soup()) {
        if let Ok(sections) = gcx::decode(&payload, &options).into_borrowed() {
            let mut written = String::new();
            document::write_sections_json(&mut written, &sections).unwrap();
            let owned: Vec<_> = sections.into_iter().map(|s| s.into_owned()).collect();
            let tree = document::sections_to_value(&owned);
            let expected = json::to_string(&tree, WriteOptions::PLAIN).unwrap();
            prop_assert_eq!(written, expected);
        }
    }

    /// Arbitrary text never panics the JSON parser, and what parses re-renders and re-parses
    /// to the same value. Numbers compare by value: Go's rule prints the double `0E0` as `0`,
    /// which reads back as an integer.
    #[test]
    fn json_parse_total(text in "[\\[\\]{}\",:0-9eE.+\\-a-z\\\\ ]{0,40}") {
        if let Ok(v) = agentwire::json::parse(&text)
            && let Ok(again) = agentwire::json::to_string(&v, agentwire::json::WriteOptions::PLAIN) {
                let back = agentwire::json::parse(&again).unwrap();
                prop_assert!(same_value(&back, &v), "{:?} != {:?}", back, v);
            }
    }
}

#[test]
fn lossless_property_is_not_vacuous() {
    // A plain section must encode in lossless mode (so the property above tests real round trips).
    let plain = Input {
        header: Header::new("t", ["a", "b"]).with_meta("k", "v"),
        rows: vec![vec!["#x".into(), "GCX1".into()], vec!["a\\b\tc\nd".into()]],
    };
    let payload = encode(
        std::slice::from_ref(&plain),
        EncodeOptions {
            lossless: true,
            ..EncodeOptions::default()
        },
    )
    .unwrap();
    assert_eq!(
        gcx::decode(&payload, &DecodeOptions::default())
            .into_sections()
            .unwrap(),
        expected(&[plain])
    );
}

#[test]
fn lossless_generator_mostly_round_trips() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = prop::collection::vec(section(), 1..3);
    let (mut encoded, mut refused) = (0, 0);
    for _ in 0..500 {
        let sections = strategy.new_tree(&mut runner).unwrap().current();
        match encode(
            &sections,
            EncodeOptions {
                lossless: true,
                ..EncodeOptions::default()
            },
        ) {
            Ok(_) => encoded += 1,
            Err(_) => refused += 1,
        }
    }
    // Hazards are common in the generator, but a good share of inputs must encode.
    assert!(
        encoded >= 100,
        "only {encoded} of {} encoded",
        encoded + refused
    );
}

/// Hostile line soups (headers, rows, comments, CR, blank lines, stray bytes, long lines) and
/// decode options, often with small limits on line length, sections, rows and values.
fn line_soup() -> impl Strategy<Value = (Vec<u8>, DecodeOptions)> {
    (
        prop::collection::vec(
            prop_oneof![
                3 => "GCX1 tool=[a-z]{1,3} fields=[a-c](,[a-c]){0,3}( [a-z]=[a-z\\\\]{0,3})?\r?",
                6 => "[a-z\t\\\\é😀\u{2028}\"<]{0,24}\r?",
                1 => "(#|GCX1|\r|)[a-z ]{0,4}",
            ],
            0..8,
        ),
        prop::option::of((any::<usize>(), any::<u8>())),
        any::<bool>(),
        prop_oneof![Just(4 << 20), 8usize..30],
        prop::option::weighted(0.75, (0usize..4, 0usize..6, 0usize..14)),
        any::<bool>(),
    )
        .prop_map(|(lines, stray, final_lf, max_line_bytes, limits, lead)| {
            // Half the soups start with a valid header, so that rows are read.
            let lead = if lead { "GCX1 tool=t fields=a,b\n" } else { "" };
            let mut payload = (String::from(lead) + &lines.join("\n")).into_bytes();
            if final_lf {
                payload.push(b'\n');
            }
            if let (Some((at, byte)), false) = (stray, payload.is_empty()) {
                let at = at % payload.len();
                payload[at] = byte;
            }
            let mut options = DecodeOptions {
                max_line_bytes,
                ..DecodeOptions::default()
            };
            if let Some((max_sections, max_rows, max_cells)) = limits {
                options.max_sections = max_sections;
                options.max_rows = max_rows;
                options.max_cells = max_cells;
            }
            (payload, options)
        })
}

#[test]
fn line_soup_reaches_every_limit() {
    // The agreement property above is only worth something if the soups hit the limits.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = line_soup();
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for _ in 0..3000 {
        let (payload, options) = strategy.new_tree(&mut runner).unwrap().current();
        if let (_, Some(e)) = gcx::decode(&payload, &options).into_owned_parts() {
            *seen.entry(e.code()).or_default() += 1;
        }
    }
    for code in [
        "GCX_LINE_TOO_LONG",
        "GCX_TOO_MANY_SECTIONS",
        "GCX_TOO_MANY_ROWS",
        "GCX_TOO_MANY_CELLS",
    ] {
        assert!(
            seen.get(code).copied().unwrap_or(0) >= 50,
            "{code}: {seen:?}"
        );
    }
}

/// The sections and first error as the push decoder reports them, one item at a time.
fn decode_with_decoder(
    payload: &[u8],
    options: &DecodeOptions,
) -> (Vec<Section>, Option<agentwire::Error>) {
    let mut decoder = Decoder::from_slice(payload, options.clone());
    let mut sections = Vec::new();
    loop {
        match decoder.next() {
            Ok(Some(item)) => Section::collect(&mut sections, item),
            Ok(None) => return (sections, None),
            Err(e) => return (sections, Some(e)),
        }
    }
}

fn same_value(a: &agentwire::json::Value, b: &agentwire::json::Value) -> bool {
    use agentwire::json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_value(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((ka, va), (kb, vb))| ka == kb && same_value(va, vb))
        }
        _ => a == b,
    }
}
