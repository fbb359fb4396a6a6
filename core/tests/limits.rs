//! Every input limit at its boundary: exactly the limit passes, one past it fails with its own
//! code and position. GCX1 limits are checked in both decoders (the one-pass `decode` and the
//! push `Decoder`), which must agree. A counting allocator checks that hostile GCB1, GCF and
//! TOON input fails before it allocates.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use agentwire::gcx::document;
use agentwire::gcx::{self, DecodeOptions, Decoder, Section};
use agentwire::json::{self, ParseOptions};
use agentwire::{Error, gcb, gcf, toon};

/// The system allocator, counting the bytes each thread asks for.
struct Counting;

thread_local! {
    static ALLOCATED: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded to the system allocator unchanged; the counter is a plain
// thread-local cell that never allocates.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATED.try_with(|c| c.set(c.get() + layout.size()));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATED.try_with(|c| c.set(c.get() + new_size));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Bytes allocated by this thread while `f` runs.
fn allocated_by<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = ALLOCATED.with(Cell::get);
    let out = f();
    (out, ALLOCATED.with(Cell::get) - before)
}

/// The sections, or the first error, of the one-pass decoder; the push decoder (fed in
/// 7-byte chunks) must report the same.
fn decode_both(payload: &[u8], options: &DecodeOptions) -> Result<Vec<Section>, Error> {
    let fast = gcx::decode(payload, options).into_owned_parts();
    let mut decoder = Decoder::new(options.clone());
    let mut sections = Vec::new();
    let mut pieces = payload.chunks(7);
    let pushed = loop {
        match decoder.next() {
            Ok(Some(item)) => Section::collect(&mut sections, item),
            Ok(None) => match pieces.next() {
                Some(piece) => decoder.push(piece),
                None if !decoder.is_finished() => decoder.finish(),
                None => break (sections, None),
            },
            Err(e) => break (sections, Some(e)),
        }
    };
    assert_eq!(fast, pushed, "the two decoders disagree");
    match fast {
        (sections, None) => Ok(sections),
        (_, Some(e)) => Err(e),
    }
}

/// Code, line, column and byte offset of an error.
fn place(e: &Error) -> (&'static str, Option<u64>, Option<u64>, Option<u64>) {
    (e.code(), e.line(), e.column(), e.offset())
}

fn options(edit: impl FnOnce(&mut DecodeOptions)) -> DecodeOptions {
    let mut options = DecodeOptions::default();
    edit(&mut options);
    options
}

const HEADER: &str = "GCX1 tool=t fields=a\n";

#[test]
fn documented_defaults() {
    let d = DecodeOptions::default();
    assert_eq!(d.max_line_bytes, 4 * 1024 * 1024);
    assert_eq!(d.max_sections, 65_536);
    assert_eq!(d.max_rows, 16_777_216);
    assert_eq!(d.max_cells, 16_777_216);
    assert_eq!(d.max_output_bytes, 256 * 1024 * 1024);
    assert_eq!(ParseOptions::default().max_depth, 512);
    assert_eq!(json::MAX_DEPTH_CEILING, 1024);
    assert_eq!(gcx::EncodeOptions::default().max_depth, 512);
    assert_eq!(
        gcf::DecodeOptions::default().max_payload_bytes,
        64 * 1024 * 1024
    );
    assert_eq!(agentwire::events::DEFAULT_MAX_LINE_BYTES, 16 * 1024 * 1024);
}

#[test]
fn gcx_line_limit_default() {
    // gcx-go's bufio.Scanner: 4 MiB − 1 bytes plus LF pass, 4 MiB do not.
    let max = gcx::DEFAULT_MAX_LINE_BYTES;
    let fits = format!("{HEADER}{}\n", "a".repeat(max - 1));
    let sections = decode_both(fits.as_bytes(), &DecodeOptions::default()).unwrap();
    assert_eq!(sections[0].rows[0][0].len(), max - 1);
    // A CR before the LF counts.
    let with_cr = format!("{HEADER}{}\r\n", "a".repeat(max - 1));
    let e = decode_both(with_cr.as_bytes(), &DecodeOptions::default()).unwrap_err();
    assert_eq!(place(&e), ("GCX_LINE_TOO_LONG", Some(2), Some(1), Some(21)));
    let past = format!("{HEADER}{}\n", "a".repeat(max));
    let e = decode_both(past.as_bytes(), &DecodeOptions::default()).unwrap_err();
    assert_eq!(place(&e), ("GCX_LINE_TOO_LONG", Some(2), Some(1), Some(21)));
    // Without its LF too (the push decoder fails before the line ends).
    let e = decode_both(
        &past.as_bytes()[..past.len() - 1],
        &DecodeOptions::default(),
    );
    assert_eq!(e.unwrap_err().code(), "GCX_LINE_TOO_LONG");
}

#[test]
fn gcx_line_limit_configured() {
    // The header's 20 bytes need a limit of 21.
    assert!(decode_both(HEADER.as_bytes(), &options(|o| o.max_line_bytes = 21)).is_ok());
    let e = decode_both(HEADER.as_bytes(), &options(|o| o.max_line_bytes = 20));
    assert_eq!(
        place(&e.unwrap_err()),
        ("GCX_LINE_TOO_LONG", Some(1), Some(1), Some(0))
    );
    let o21 = options(|o| o.max_line_bytes = 21);
    let rows = decode_both(b"GCX1 tool=t fields=a\n12345678901234567890\n", &o21).unwrap();
    assert_eq!(rows[0].rows.len(), 1);
    let e = decode_both(b"GCX1 tool=t fields=a\n123456789012345678901\n", &o21).unwrap_err();
    assert_eq!(place(&e), ("GCX_LINE_TOO_LONG", Some(2), Some(1), Some(21)));
}

#[test]
fn gcx_section_limit() {
    let payload = |n: usize| HEADER.repeat(n);
    let o = options(|o| o.max_sections = 3);
    assert_eq!(decode_both(payload(3).as_bytes(), &o).unwrap().len(), 3);
    let e = decode_both(payload(4).as_bytes(), &o).unwrap_err();
    assert_eq!(
        place(&e),
        ("GCX_TOO_MANY_SECTIONS", Some(4), Some(1), Some(63))
    );
    assert!(
        e.message()
            .contains("more than 3 sections (the decoder's max sections limit)"),
        "{}",
        e.message()
    );
    // The default, for real.
    let max = gcx::DEFAULT_MAX_SECTIONS;
    let d = DecodeOptions::default();
    assert_eq!(decode_both(payload(max).as_bytes(), &d).unwrap().len(), max);
    let e = decode_both(payload(max + 1).as_bytes(), &d).unwrap_err();
    let line = max as u64 + 1;
    let offset = (max * HEADER.len()) as u64;
    assert_eq!(
        place(&e),
        ("GCX_TOO_MANY_SECTIONS", Some(line), Some(1), Some(offset))
    );
    assert!(e.message().contains("65536"), "{}", e.message());
}

#[test]
fn gcx_row_limit() {
    // Rows count across sections; comments and blank lines do not count.
    let o = options(|o| o.max_rows = 3);
    let three = "GCX1 tool=t fields=a\n1\n# c\n\n2\nGCX1 tool=u fields=b\n3\n";
    assert_eq!(decode_both(three.as_bytes(), &o).unwrap().len(), 2);
    let four = format!("{three}4\n");
    let e = decode_both(four.as_bytes(), &o).unwrap_err();
    assert_eq!(
        place(&e),
        (
            "GCX_TOO_MANY_ROWS",
            Some(8),
            Some(1),
            Some(three.len() as u64)
        )
    );
    assert!(
        e.message()
            .contains("more than 3 rows (the decoder's max rows limit)"),
        "{}",
        e.message()
    );
    // A row with too many values is not counted (the push decoder goes on after it).
    let mut dec = Decoder::from_slice(b"GCX1 tool=t fields=a\n1\t2\n3\n4\n", o.clone());
    assert!(dec.next().unwrap().is_some());
    assert_eq!(dec.next().unwrap_err().code(), "GCX_TOO_MANY_VALUES");
    assert!(dec.next().unwrap().is_some());
    assert!(dec.next().unwrap().is_some());
    assert!(dec.next().unwrap().is_none());
    // The limit error is sticky.
    let mut dec = Decoder::from_slice(four.as_bytes(), o);
    let e = loop {
        if let Err(e) = dec.next() {
            break e;
        }
    };
    assert_eq!(dec.next().unwrap_err(), e);
}

#[test]
fn gcx_cell_limit_counts_padding() {
    // Three fields: a one-value row still takes three values.
    let o = options(|o| o.max_cells = 6);
    let two = "GCX1 tool=t fields=a,b,c\nx\n1\t2\t3\n";
    let sections = decode_both(two.as_bytes(), &o).unwrap();
    assert_eq!(sections[0].rows, [["x", "", ""], ["1", "2", "3"]]);
    let three = format!("{two}y\n");
    let e = decode_both(three.as_bytes(), &o).unwrap_err();
    assert_eq!(
        place(&e),
        (
            "GCX_TOO_MANY_CELLS",
            Some(4),
            Some(1),
            Some(two.len() as u64)
        )
    );
    assert!(
        e.message().contains("(the decoder's max cells limit)"),
        "{}",
        e.message()
    );
}

#[test]
fn gcx_cell_limit_stops_a_field_bomb_with_little_memory() {
    // A 4 MiB header of two million fields, then two-byte rows: each row is two million
    // values. The default cell limit stops it after 8 rows; the push decoder holds one row.
    let fields = vec!["f"; 2 * 1024 * 1024 - 16].join(",");
    let header = format!("GCX1 tool=t fields={fields}\n");
    let payload = format!("{header}{}", "x\n".repeat(100));
    let mut dec = Decoder::from_slice(payload.as_bytes(), DecodeOptions::default());
    let mut rows = 0;
    let e = loop {
        match dec.next() {
            Ok(Some(gcx::Item::Row(_))) => rows += 1,
            Ok(Some(_)) => {}
            Ok(None) => panic!("no error"),
            Err(e) => break e,
        }
    };
    let per_row = 2 * 1024 * 1024 - 16;
    assert_eq!(rows, gcx::DEFAULT_MAX_CELLS / per_row);
    assert_eq!(e.code(), "GCX_TOO_MANY_CELLS");
    assert_eq!(e.line(), Some(rows as u64 + 2));
}

/// GCF with one symbol named `name` and `edges` self-edges.
fn gcf_text(name: &str, edges: usize) -> String {
    let mut text =
        format!("GCF tool=t budget=0 tokens=0 symbols=1\n## targets\n@0 fn {name} 0.50 lsp\n");
    if edges > 0 {
        text.push_str("## edges\n");
        for _ in 0..edges {
            text.push_str("@0<@0 calls\n");
        }
    }
    text
}

#[test]
fn gcf_payload_limit() {
    // tool (1) + name (10) + 2 edges × 2 × 10 = 51 bytes of text.
    let text = gcf_text("abcdefghij", 2);
    let limit = |n: usize| gcf::DecodeOptions {
        max_payload_bytes: n,
    };
    assert_eq!(
        gcf::v1::decode(&text, &limit(51))
            .unwrap()
            .into_payload()
            .edges
            .len(),
        2
    );
    let e = gcf::v1::decode(&text, &limit(50)).unwrap_err();
    let last_edge = text.rfind("@0<").unwrap() as u64;
    assert_eq!(
        place(&e),
        ("GCF_PAYLOAD_TOO_LARGE", Some(6), Some(1), Some(last_edge))
    );
    assert!(
        e.message().contains(
            "more than 50 bytes of names and edge endpoints (the decoder's max payload bytes limit)"
        ),
        "{}",
        e.message()
    );
    // A 1 MiB name and 100,000 twelve-byte edges would be 200 GiB of names.
    let bomb = gcf_text(&"n".repeat(1 << 20), 100_000);
    let (e, bytes) = allocated_by(|| gcf::v1::decode(&bomb, &Default::default()).unwrap_err());
    assert_eq!(e.code(), "GCF_PAYLOAD_TOO_LARGE");
    assert!(bytes < 256 << 20, "allocated {bytes} bytes");
}

#[test]
fn gcf_reserves_no_more_than_the_text_holds() {
    // A header claiming a billion symbols over 200,000 blank lines: nothing to hold, so
    // little is allocated (the decoders reserve from the header's count and the text's size,
    // capped; the vectors grow only with real lines).
    let text = format!("GCF tool=t symbols=999999999\n{}", "\n".repeat(200_000));
    let (payload, bytes) = allocated_by(|| gcf::v1::decode(&text, &Default::default()).unwrap());
    assert!(payload.symbols.is_empty() && payload.edges.is_empty());
    assert!(bytes < 2 << 20, "allocated {bytes} bytes");
    let (payload, bytes) = allocated_by(|| {
        gcf::v1::decode(&text, &Default::default())
            .unwrap()
            .into_payload()
    });
    assert!(payload.symbols.is_empty());
    assert!(bytes < 2 << 20, "allocated {bytes} bytes");
}

fn uvarint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// GCB1 with tool "t", one symbol named `name` and `edges` self-edges, written by hand (the
/// encoder would look the long name up once per edge).
fn gcb_with(name: &str, edges: usize) -> Vec<u8> {
    let mut out = b"GCB1\x01\x01t\x00\x00\x01".to_vec();
    uvarint(&mut out, edges as u64);
    uvarint(&mut out, name.len() as u64);
    out.extend_from_slice(name.as_bytes());
    out.extend([1, 0, 0, 0, 0, 3, 0, 0]); // kind, score, provenance, distance, signature ""
    out.extend([0; 16]); // components
    for _ in 0..edges {
        out.extend([0, 0, 1, 0]);
    }
    // The hand-written form is the encoder's.
    if edges < 4 {
        let payload = gcb::decode(&out, &Default::default())
            .unwrap()
            .into_payload();
        assert_eq!(gcb::encode(&payload), out);
    }
    out
}

#[test]
fn gcb_payload_limit() {
    let bytes = gcb_with("abcdefghij", 2);
    let limit = |n: usize| gcb::DecodeOptions {
        max_payload_bytes: n,
    };
    assert_eq!(
        gcb::decode(&bytes, &limit(51))
            .unwrap()
            .into_payload()
            .edges
            .len(),
        2
    );
    let e = gcb::decode(&bytes, &limit(50)).unwrap_err();
    // The last edge is the last 4 bytes.
    assert_eq!(
        place(&e),
        (
            "GCB_PAYLOAD_TOO_LARGE",
            None,
            None,
            Some(bytes.len() as u64 - 4)
        )
    );
    // 1 MiB name, 250,000 four-byte edges: 500 GiB of names without the limit.
    let bomb = gcb_with(&"n".repeat(1 << 20), 250_000);
    let (e, allocated) = allocated_by(|| gcb::decode(&bomb, &Default::default()).unwrap_err());
    assert_eq!(e.code(), "GCB_PAYLOAD_TOO_LARGE");
    assert!(allocated < 256 << 20, "allocated {allocated} bytes");
}

#[test]
fn gcb_declared_counts_fail_before_allocating() {
    // "GCB1" 1, tool "", tokens 0 0, then a count, in a short input.
    let header = |symbols: u64, edges: u64| {
        let mut out = b"GCB1\x01\x00\x00\x00".to_vec();
        uvarint(&mut out, symbols);
        uvarint(&mut out, edges);
        out
    };
    for (symbols, edges, at) in [
        (u64::MAX, 0, 8),
        (1 << 40, 0, 8),
        (2, 0, 8),
        (0, u64::MAX, 9),
        (0, 1 << 40, 9),
        (0, 1, 9),
    ] {
        let input = header(symbols, edges);
        let (e, bytes) = allocated_by(|| gcb::decode(&input, &Default::default()).unwrap_err());
        assert_eq!(
            (e.code(), e.offset()),
            ("GCB_TRUNCATED", Some(at)),
            "{symbols} symbols, {edges} edges: {e}"
        );
        assert!(
            bytes < 4096,
            "{symbols} symbols, {edges} edges: allocated {bytes} bytes"
        );
    }
    // A string length past the end.
    let mut input = b"GCB1\x01".to_vec();
    input.extend([0xff, 0xff, 0xff, 0xff, 0x0f]);
    let (e, bytes) = allocated_by(|| gcb::decode(&input, &Default::default()).unwrap_err());
    assert_eq!((e.code(), e.offset()), ("GCB_TRUNCATED", Some(5)));
    assert!(bytes < 4096, "allocated {bytes} bytes");
    // Exactly enough bytes for the declared symbol passes.
    let one = gcb_with("a", 0);
    assert_eq!(
        gcb::decode(&one, &Default::default())
            .unwrap()
            .into_payload()
            .symbols
            .len(),
        1
    );
    assert_eq!(
        gcb::decode(&one[..one.len() - 1], &Default::default())
            .unwrap_err()
            .code(),
        "GCB_TRUNCATED"
    );
}

// ---- the limits the options objects configure (the JSON form the JS API takes) ----------------

/// The options object `text`, parsed.
fn options_value(text: &str) -> json::Value {
    json::parse(text).unwrap()
}

/// GCX1 decoded to its JSON text under the options object `options`, as `gcx.decode` bounds
/// it (`maxOutputBytes`).
fn decode_json(payload: &str, options: &str) -> Result<String, Error> {
    let options = DecodeOptions::from_value(&options_value(options))?;
    let sections = gcx::decode(payload, &options).into_borrowed()?;
    let mut out = String::new();
    document::write_sections_json_limited(&mut out, &sections, options.max_output_bytes)?;
    Ok(out)
}

#[test]
fn gcx_output_limit() {
    let payload = "GCX1 tool=t fields=a,b\n1\t2\n3\n";
    let full = decode_json(payload, "null").unwrap();
    let at = |n: usize| decode_json(payload, &format!(r#"{{"maxOutputBytes":{n}}}"#));
    assert_eq!(at(full.len()).unwrap(), full);
    let e = at(full.len() - 1).unwrap_err();
    assert_eq!(place(&e), ("GCX_OUTPUT_TOO_LARGE", None, None, None));
    assert!(
        e.message().contains(&format!(
            "longer than {} bytes (the decoder's max output bytes limit)",
            full.len() - 1
        )),
        "{}",
        e.message()
    );
    // A long field name repeated by every row: 4 MiB per two-byte row without the limit.
    let name = "n".repeat((4 << 20) - 64);
    let bomb = format!("GCX1 tool=t fields={name}\n{}", "x\n".repeat(1000));
    let (result, bytes) = allocated_by(|| decode_json(&bomb, r#"{"maxOutputBytes":67108864}"#));
    assert_eq!(result.unwrap_err().code(), "GCX_OUTPUT_TOO_LARGE");
    assert!(bytes < 512 << 20, "allocated {bytes} bytes");
}

#[test]
fn gcx_limit_options_from_json() {
    let payload = "GCX1 tool=t fields=a\n1\n2\n";
    let decode = |o: &str| decode_json(payload, o).map_err(|e| e.code());
    assert!(decode(r#"{"maxRows":2,"maxSections":1,"maxCells":2,"maxLineBytes":21}"#).is_ok());
    assert_eq!(decode(r#"{"maxRows":1}"#), Err("GCX_TOO_MANY_ROWS"));
    assert_eq!(decode(r#"{"maxCells":1}"#), Err("GCX_TOO_MANY_CELLS"));
    assert_eq!(decode(r#"{"maxLineBytes":20}"#), Err("GCX_LINE_TOO_LONG"));
    for bad in [
        r#"{"maxRows":0}"#,
        r#"{"maxRows":-1}"#,
        r#"{"maxRows":1.5}"#,
        r#"{"maxRows":"1"}"#,
        r#"{"maxRow":1}"#,
    ] {
        assert_eq!(decode(bad), Err("INVALID_ARGUMENT"), "{bad}");
    }
    // The streaming decoder takes the same options.
    let options = DecodeOptions::from_value(&options_value(r#"{"maxSections":1}"#)).unwrap();
    let mut dec = Decoder::new(options);
    dec.push(HEADER.repeat(2).as_bytes());
    dec.finish();
    assert!(dec.next().unwrap().is_some());
    assert_eq!(dec.next().unwrap_err().code(), "GCX_TOO_MANY_SECTIONS");
}

/// The generic fallback of JSON text, read under the options object's depth limit.
fn generic(text: &str, options: &str) -> Result<String, Error> {
    let options = gcx::EncodeOptions::from_value(&options_value(options))?;
    gcx::encode_generic(
        "t",
        &json::parse_with(text, &options.parse_options())?,
        &options,
    )
}

#[test]
fn json_depth_default_and_configured() {
    assert!(generic(&nested(512), "null").is_ok());
    let e = generic(&nested(513), "null").unwrap_err();
    assert_eq!(place(&e), ("JSON_DEPTH", Some(1), Some(513), Some(512)));
    assert!(e.message().contains("512"), "{}", e.message());
    assert!(generic(&nested(3), r#"{"maxDepth":3}"#).is_ok());
    let e = generic(&nested(4), r#"{"maxDepth":3}"#).unwrap_err();
    assert_eq!(place(&e), ("JSON_DEPTH", Some(1), Some(4), Some(3)));
    // Up to the ceiling, which holds in a debug build on a test thread's stack.
    assert!(generic(&nested(1024), r#"{"maxDepth":1024}"#).is_ok());
    assert_eq!(
        generic(&nested(1025), r#"{"maxDepth":1024}"#)
            .unwrap_err()
            .code(),
        "JSON_DEPTH"
    );
    for bad in [
        r#"{"maxDepth":1025}"#,
        r#"{"maxDepth":0}"#,
        r#"{"maxDepth":true}"#,
    ] {
        assert_eq!(
            generic("1", bad).unwrap_err().code(),
            "INVALID_ARGUMENT",
            "{bad}"
        );
    }
    // 100,000 levels: refused at level 513 without building anything deep.
    let deep = "[".repeat(100_000);
    let (e, bytes) = allocated_by(|| generic(&deep, "null").unwrap_err());
    assert_eq!(place(&e), ("JSON_DEPTH", Some(1), Some(513), Some(512)));
    assert!(bytes < 1 << 20, "allocated {bytes} bytes");
}

#[test]
fn json_depth_everywhere_gcx1_takes_json() {
    let doc = |depth: usize| {
        format!(
            r#"[{{"tool":"t","fields":["a"],"rows":[[{}]]}}]"#,
            nested(depth)
        )
    };
    let encode = |text: &str, options: &str| {
        let options = gcx::EncodeOptions::from_value(&options_value(options))?;
        let depth = ParseOptions {
            max_depth: options.max_depth,
            ..ParseOptions::default()
        };
        document::encode_document(&json::parse_with(text, &depth)?, &options)
    };
    // The document's own nesting is 3 levels before the cell.
    let e = encode(&doc(2), r#"{"maxDepth":4}"#).unwrap_err();
    assert_eq!(e.code(), "JSON_DEPTH");
    let e = encode(&doc(10), r#"{"maxDepth":8}"#).unwrap_err();
    assert_eq!(e.code(), "JSON_DEPTH");
    let tool = |depth: usize, o: &str| {
        let options = gcx::ToolOptions::from_value(&options_value(o))?;
        let response = json::parse_with(&nested(depth), &options.encode.parse_options())?;
        gcx::encode_tool("search_symbols", &response, &options)
    };
    assert!(tool(6, r#"{"maxDepth":6}"#).is_ok());
    assert_eq!(
        tool(7, r#"{"maxDepth":6}"#).unwrap_err().code(),
        "JSON_DEPTH"
    );
}

fn nested(depth: usize) -> String {
    format!("{}1{}", "[".repeat(depth), "]".repeat(depth))
}

#[test]
fn gcf_payload_limit_option() {
    // tool (1) + name (10) + 2 edges × 2 × 10 = 51 bytes of text.
    let text = gcf_text("abcdefghij", 2);
    let decode = |options: &str| {
        let options = gcf::DecodeOptions::from_value(&options_value(options))?;
        gcf::v1::decode(&text, &options)
    };
    assert_eq!(
        decode(r#"{"maxPayloadBytes":50}"#).unwrap_err().code(),
        "GCF_PAYLOAD_TOO_LARGE"
    );
    assert!(decode(r#"{"maxPayloadBytes":51}"#).is_ok());
}

#[test]
fn gcb_payload_limit_option() {
    let bytes = gcb_with("abcdefghij", 2);
    let options = gcf::DecodeOptions::from_value(&options_value(r#"{"maxPayloadBytes":50}"#));
    assert_eq!(
        gcb::decode(&bytes, &options.unwrap()).unwrap_err().code(),
        "GCB_PAYLOAD_TOO_LARGE"
    );
}

#[test]
fn events_line_limit() {
    let line = r#"{"type":"response.output_text.delta","delta":"hi"}"#;
    let over_long = |input: &[u8], max: usize| {
        let (summary, _) = agentwire::events::decode::parse_stream(input, max);
        let messages: Vec<String> = summary
            .diagnostics
            .iter()
            .map(|d| d.message.clone())
            .collect();
        messages.join("\n")
    };
    let input = format!("{line}\n");
    assert!(!over_long(input.as_bytes(), line.len()).contains("the line is longer than"));
    assert!(over_long(input.as_bytes(), line.len() - 1).contains("the line is longer than"));
    // The default, 16 MiB: exactly passes (as an invalid_json line: a bare string of 'a'),
    // one past is reported as over-long and not buffered.
    let max = agentwire::events::DEFAULT_MAX_LINE_BYTES;
    let mut at = vec![b'a'; max];
    at.push(b'\n');
    assert!(!over_long(&at, max).contains("longer than"));
    let mut past = vec![b'a'; max + 1];
    past.push(b'\n');
    assert!(over_long(&past, max).contains("the line is longer than 16777216 bytes (skipped)"));
}

#[test]
fn toon_declared_lengths_allocate_nothing() {
    // A header may declare 10^12 items (or more than usize holds); the decoder reserves only
    // what the rest of the input can hold, in either mode.
    for strict in [true, false] {
        let options = toon::DecodeOptions {
            strict,
            ..toon::DecodeOptions::default()
        };
        for text in [
            "a[1000000000000]: 1",
            "a[1000000000000]:\n  - 1",
            "a[1000000000000]{x}:\n  1",
            "a[1000000000000:]{x}:\n  k: 1",
            "[99999999999999999999999999]{x}:\n  1",
            "a[4000000000]:\n  - [4000000000]:\n    - t[4000000000]{x,y}:\n        1,2",
        ] {
            let (outcome, bytes) = allocated_by(|| toon::decode(text, &options));
            assert!(bytes < 16 << 10, "{text:?}: allocated {bytes} bytes");
            match outcome {
                Err(e) => assert!(strict && e.code() == "TOON_COUNT_MISMATCH", "{e}"),
                Ok(_) => assert!(!strict, "{text:?} decodes only leniently"),
            }
        }
    }
    // Deep nesting stops at the limit after allocating little.
    let deep: String = (0..1_000)
        .map(|d| format!("{}k:\n", " ".repeat(d)))
        .collect();
    let one = toon::DecodeOptions {
        indent: 1,
        ..toon::DecodeOptions::default()
    };
    let (e, bytes) = allocated_by(|| toon::decode(&deep, &one).unwrap_err());
    assert_eq!(e.code(), "TOON_DEPTH");
    assert_eq!(e.line(), Some(512));
    assert!(bytes < 1 << 20, "allocated {bytes} bytes");
}
