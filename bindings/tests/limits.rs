//! The input limits the JSON-text API adds or configures, at their boundaries: the GCX1
//! output limit, limit and depth options read from JSON, and the GCF, GCB1 and events limits
//! through their options objects (the core's own limits are checked in
//! `core/tests/limits.rs`). A counting allocator checks that hostile input fails before it
//! allocates.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use agentwire::{gcb, gcf, json, Error};
use agentwire_bindings::api;

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

/// Code, line, column and byte offset of an error.
fn place(e: &Error) -> (&'static str, Option<u64>, Option<u64>, Option<u64>) {
    (e.code(), e.line(), e.column(), e.offset())
}

const HEADER: &str = "GCX1 tool=t fields=a\n";

#[test]
fn gcx_output_limit() {
    let payload = "GCX1 tool=t fields=a,b\n1\t2\n3\n";
    let full = api::gcx_decode(payload.as_bytes(), "").unwrap();
    let at =
        |n: usize| api::gcx_decode(payload.as_bytes(), &format!(r#"{{"maxOutputBytes":{n}}}"#));
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
    let (result, bytes) =
        allocated_by(|| api::gcx_decode(bomb.as_bytes(), r#"{"maxOutputBytes":67108864}"#));
    assert_eq!(result.unwrap_err().code(), "GCX_OUTPUT_TOO_LARGE");
    assert!(bytes < 512 << 20, "allocated {bytes} bytes");
}

#[test]
fn gcx_limit_options_from_json() {
    let payload = "GCX1 tool=t fields=a\n1\n2\n";
    let decode = |o: &str| api::gcx_decode(payload.as_bytes(), o).map_err(|e| e.code());
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
    let mut dec = api::GcxStreamDecoder::new(r#"{"maxSections":1}"#).unwrap();
    dec.push(HEADER.repeat(2).as_bytes());
    dec.finish();
    assert!(dec.next_item().unwrap().is_some());
    assert_eq!(dec.next_item().unwrap_err().code(), "GCX_TOO_MANY_SECTIONS");
}

#[test]
fn json_depth_default_and_configured() {
    let generic = |text: &str, o: &str| api::gcx_encode_generic("t", text, o);
    assert!(generic(&nested(512), "").is_ok());
    let e = generic(&nested(513), "").unwrap_err();
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
    let (e, bytes) = allocated_by(|| generic(&deep, "").unwrap_err());
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
    // The document's own nesting is 3 levels before the cell.
    let e = api::gcx_encode(&doc(2), r#"{"maxDepth":4}"#).unwrap_err();
    assert_eq!(e.code(), "JSON_DEPTH");
    let e = api::gcx_encode(&doc(10), r#"{"maxDepth":8}"#).unwrap_err();
    assert_eq!(e.code(), "JSON_DEPTH");
    let tool = |depth: usize, o: &str| api::gcx_encode_tool("search_symbols", &nested(depth), o);
    assert!(tool(6, r#"{"maxDepth":6}"#).is_ok());
    assert_eq!(
        tool(7, r#"{"maxDepth":6}"#).unwrap_err().code(),
        "JSON_DEPTH"
    );
    let mut enc = api::GcxStreamEncoder::new(r#"{"maxDepth":2}"#).unwrap();
    enc.begin_section(r#"{"tool":"t","fields":["a"]}"#).unwrap();
    assert_eq!(enc.write_row("[[[1]]]").unwrap_err().code(), "JSON_DEPTH");
}

fn nested(depth: usize) -> String {
    format!("{}1{}", "[".repeat(depth), "]".repeat(depth))
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
fn gcf_payload_limit_option() {
    // tool (1) + name (10) + 2 edges × 2 × 10 = 51 bytes of text.
    let text = gcf_text("abcdefghij", 2);
    assert_eq!(
        gcf::v1::decode(
            &text,
            &gcf::DecodeOptions {
                max_payload_bytes: 51
            }
        )
        .map(|p| p.into_payload())
        .unwrap()
        .edges
        .len(),
        2
    );
    assert_eq!(
        api::gcf_decode(&text, r#"{"maxPayloadBytes":50}"#)
            .unwrap_err()
            .code(),
        "GCF_PAYLOAD_TOO_LARGE"
    );
    assert!(api::gcf_decode(&text, r#"{"maxPayloadBytes":51}"#).is_ok());
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
fn gcb_payload_limit_option() {
    let bytes = gcb_with("abcdefghij", 2);
    assert_eq!(
        api::gcb_decode(&bytes, r#"{"maxPayloadBytes":50}"#)
            .unwrap_err()
            .code(),
        "GCB_PAYLOAD_TOO_LARGE"
    );
}

#[test]
fn events_line_limit() {
    let line = r#"{"type":"response.output_text.delta","delta":"hi"}"#;
    let parse = |max: usize| {
        let out = api::events_parse(
            format!("{line}\n").as_bytes(),
            &format!(r#"{{"maxLineBytes":{max}}}"#),
        )
        .unwrap();
        has(&out, "the line is longer than")
    };
    assert!(!parse(line.len()));
    assert!(parse(line.len() - 1));
    // The default, 16 MiB: exactly passes (as an invalid_json line: a bare string of 'a'),
    // one past is reported as over-long and not buffered.
    let max = agentwire::events::DEFAULT_MAX_LINE_BYTES;
    let mut at = vec![b'a'; max];
    at.push(b'\n');
    let out = api::events_parse(&at, "").unwrap();
    assert!(!has(&out, "longer than"), "{}", &out[..200.min(out.len())]);
    let mut past = vec![b'a'; max + 1];
    past.push(b'\n');
    let out = api::events_parse(&past, "").unwrap();
    assert!(has(
        &out,
        "the line is longer than 16777216 bytes (skipped)"
    ));
}

fn has(json_text: &str, needle: &str) -> bool {
    json::parse(json_text).is_ok() && json_text.contains(needle)
}
