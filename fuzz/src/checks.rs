//! One check per fuzz target: each runs a decoder (or an encoder and its decoder) on the input
//! and asserts what must hold, not only that nothing panics. A check panics when a property
//! fails and otherwise returns a short outcome (`ok …`, `err CODE`, …) that the regression
//! test compares with a saved `.expected` file.
//!
//! Inputs are plain bytes; the structured targets read them with [`Bytes`], a reader of our
//! own (not `arbitrary`), so a saved input means the same thing whatever crate versions come.
//!
//! This file is compiled twice: as the `agentwire-fuzz` library (`fuzz/src/lib.rs`) and, by
//! path, into `tests/runner/tests/fuzz_regressions.rs`. It may use only `agentwire` and
//! `std`.

use std::borrow::Cow;
use std::sync::OnceLock;

use agentwire::codec::Registry;
use agentwire::compact::js_equal;
use agentwire::events::decode::parse_stream;
use agentwire::events::serialize::{Form, write_event};
use agentwire::events::sse::from_sse;
use agentwire::events::{DecodedItem, Severity, StreamDecoder};
use agentwire::gateway::path::{parse_path, segment_label};
use agentwire::gateway::reply::GatewayCode;
use agentwire::gateway::runtime::Catalog;
use agentwire::gateway::{Item, Kind, ToolIdParts, format_tool_id, parse_tool_id};
use agentwire::gcb::{self, EDGE_TYPES, KINDS, PROVENANCES};
use agentwire::gcf::v1::Session;
use agentwire::gcf::v1::{abbreviate_kind, expand_kind};
use agentwire::gcf::v3::{self, Document};
use agentwire::gcf::{self, Edge, Payload, Symbol};
use agentwire::gcx::{
    self, Cell, Compat, DecodeOptions, Decoder, EncodeOptions, Encoder, Header, Item as GcxItem,
    Section, scope,
};
use agentwire::json::{self, Map, ParseOptions, Value, WriteOptions};
use agentwire::toon::{self, DecodeOptions as ToonDecode, EncodeOptions as ToonEncode};
use agentwire::{Error, ErrorKind, Format};

/// Every target, as named in `fuzz/Cargo.toml` and under `tests/fuzz-regressions/`.
pub const TARGETS: &[&str] = &[
    "gcx1_decode",
    "gcx1_header",
    "gcx1_roundtrip",
    "gcf_decode",
    "gcf_roundtrip",
    "gcf3_decode",
    "gcb1_decode",
    "gcb1_roundtrip",
    "tool_id_parse",
    "path_parse",
    "events_push",
    "sse",
    "json_parse",
    "compact",
    "toon_decode",
    "toon_roundtrip",
];

/// Runs the check of `target` (`None` for an unknown target).
pub fn run(target: &str, data: &[u8]) -> Option<String> {
    Some(match target {
        "gcx1_decode" => gcx1_decode(data),
        "gcx1_header" => gcx1_header(data),
        "gcx1_roundtrip" => gcx1_roundtrip(data),
        "gcf_decode" => gcf_decode(data),
        "gcf_roundtrip" => gcf_roundtrip(data),
        "gcf3_decode" => gcf3_decode(data),
        "gcb1_decode" => gcb1_decode(data),
        "gcb1_roundtrip" => gcb1_roundtrip(data),
        "tool_id_parse" => tool_id_parse(data),
        "path_parse" => path_parse(data),
        "events_push" => events_push(data),
        "sse" => sse(data),
        "json_parse" => json_parse(data),
        "compact" => compact(data),
        "toon_decode" => toon_decode(data),
        "toon_roundtrip" => toon_roundtrip(data),
        _ => return None,
    })
}

// ---- input helpers --------------------------------------------------------------------------

/// Reads structured values from fuzzer bytes; past the end every read gives zero or empty, so
/// any input describes a value.
#[derive(Debug)]
struct Bytes<'a>(&'a [u8]);

/// Characters for bytes ≥ 0x80: multi-byte UTF-8 and the Unicode white space that trips
/// `trim`/`split_whitespace` style code.
const WIDE: [char; 8] = [
    'é', '\u{a0}', '\u{85}', '\u{2028}', '\u{3000}', '😀', '\u{feff}', 'Ω',
];

impl<'a> Bytes<'a> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            usize::from(self.byte()) % n
        }
    }

    fn u64(&mut self) -> u64 {
        (0..8).fold(0, |v, _| v << 8 | u64::from(self.byte()))
    }

    fn i64(&mut self) -> i64 {
        self.u64() as i64
    }

    fn take(&mut self, n: usize) -> &'a [u8] {
        let (head, rest) = self.0.split_at(n.min(self.0.len()));
        self.0 = rest;
        head
    }

    /// Up to 15 characters: ASCII bytes as themselves (TAB, LF, CR, `\`, `#`, space, `,`, `=`
    /// included), other bytes as one of [`WIDE`].
    fn text(&mut self) -> String {
        let len = self.below(16);
        self.take(len)
            .iter()
            .map(|&b| {
                if b < 0x80 {
                    char::from(b)
                } else {
                    WIDE[usize::from(b & 7)]
                }
            })
            .collect()
    }

    /// A non-empty [`text`](Self::text) without white space (what GCF can carry in a field).
    fn token(&mut self) -> String {
        let t: String = self
            .text()
            .chars()
            .map(|c| if c.is_whitespace() { '_' } else { c })
            .collect();
        if t.is_empty() { "t".into() } else { t }
    }
}

/// `[flags][n][n big-endian u16 cut points][payload]`: the flags byte, the payload, and the
/// payload split at the n (≤ 8) cut points, sorted (a repeated point gives an empty chunk).
fn framed(data: &[u8]) -> (u8, &[u8], Vec<&[u8]>) {
    let mut b = Bytes(data);
    let flags = b.byte();
    let n = b.below(9);
    let raw: Vec<u16> = (0..n)
        .map(|_| u16::from(b.byte()) << 8 | u16::from(b.byte()))
        .collect();
    let payload = b.0;
    let mut cuts: Vec<usize> = raw
        .iter()
        .map(|&c| usize::from(c) % (payload.len() + 1))
        .collect();
    cuts.sort_unstable();
    let mut pieces = Vec::with_capacity(cuts.len() + 1);
    let mut start = 0;
    for cut in cuts {
        pieces.push(&payload[start..cut]);
        start = cut;
    }
    pieces.push(&payload[start..]);
    (flags, payload, pieces)
}

/// Bit-exact float equality, any NaN equal to any NaN.
fn same_f64(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn same_symbol(a: &Symbol, b: &Symbol) -> bool {
    a.qualified_name == b.qualified_name
        && a.kind == b.kind
        && same_f64(a.score, b.score)
        && a.provenance == b.provenance
        && a.distance == b.distance
        && a.signature == b.signature
        && same_f64(a.components.blast_radius, b.components.blast_radius)
        && same_f64(a.components.confidence, b.components.confidence)
        && same_f64(a.components.recency, b.components.recency)
        && same_f64(a.components.distance, b.components.distance)
}

/// Payload equality with [`same_f64`] for the floats.
fn same_payload(a: &Payload, b: &Payload) -> bool {
    a.tool == b.tool
        && a.token_budget == b.token_budget
        && a.tokens_used == b.tokens_used
        && a.pack_root == b.pack_root
        && a.symbols.len() == b.symbols.len()
        && a.symbols
            .iter()
            .zip(&b.symbols)
            .all(|(x, y)| same_symbol(x, y))
        && a.edges == b.edges
}

fn outcome<T>(result: &Result<T, Error>, ok: impl FnOnce(&T) -> String) -> String {
    match result {
        Ok(v) => ok(v),
        Err(e) => format!("err {}", e.code()),
    }
}

// ---- GCX1 -----------------------------------------------------------------------------------

/// One item of a decoder run, owned, with the line it came from.
#[derive(Debug, PartialEq)]
enum Traced {
    Section(Header),
    Row(Vec<String>),
    Comment(String),
    Error(Error),
}

/// Where an item came from: [`Decoder::last_line`], owned.
type LineOf = Option<(u64, u64, Vec<u8>)>;

/// Every item of a decoder fed `chunks` (none for a slice decoder), continuing after the errors
/// that are not sticky (a bad row); a sticky error (returned twice in a row) ends the run.
fn gcx_trace(mut decoder: Decoder<'_>, chunks: &[&[u8]], total: usize) -> Vec<(Traced, LineOf)> {
    let mut trace: Vec<(Traced, LineOf)> = Vec::new();
    let mut chunks = chunks.iter();
    // Each call consumes a line, pushes a chunk or ends: the bound catches a decoder that
    // stops making progress.
    for _ in 0..2 * total + 2 * chunks.len() + 16 {
        let traced = match decoder.next() {
            Ok(Some(GcxItem::Section(h))) => Traced::Section(h.clone()),
            Ok(Some(GcxItem::Row(values))) => {
                Traced::Row(values.into_iter().map(Cow::into_owned).collect())
            }
            Ok(Some(GcxItem::Comment(c))) => Traced::Comment(c.to_owned()),
            Ok(None) => {
                match chunks.next() {
                    Some(chunk) => decoder.push(chunk),
                    None if !decoder.is_finished() => decoder.finish(),
                    None => return trace,
                }
                continue;
            }
            Err(e) => {
                assert!(
                    e.format() == Format::Gcx1 || e.kind() == ErrorKind::InvalidUtf8,
                    "GCX1 decoder error of another format: {e:?}"
                );
                let position = e.position().expect("GCX1 decode errors carry a position");
                assert!(
                    position.offset <= total as u64,
                    "error past the input: {e:?}"
                );
                if matches!(trace.last(), Some((Traced::Error(last), _)) if *last == e) {
                    return trace;
                }
                trace.push((Traced::Error(e), None));
                continue;
            }
        };
        if let Traced::Row(values) = &traced {
            let fields = decoder
                .header()
                .expect("a row belongs to a section")
                .fields
                .len();
            assert_eq!(values.len(), fields, "a row has one value per field");
        }
        let line = decoder
            .last_line()
            .map(|(number, offset, bytes)| (number, offset, bytes.to_vec()));
        assert!(line.is_some(), "an item without its line");
        trace.push((traced, line));
    }
    panic!("the GCX1 decoder makes no progress");
}

fn gcx_encode_sections(sections: &[Section], options: EncodeOptions) -> Result<String, Error> {
    let mut encoder = Encoder::new(String::new(), options);
    for section in sections {
        encoder.begin_section(&section.header)?;
        for row in &section.rows {
            let cells: Vec<Cell<'_>> = row.iter().map(|v| Cell::Str(v)).collect();
            encoder.write_row(&cells)?;
        }
    }
    encoder.finish()
}

/// GCX1 decoding of arbitrary bytes (`[flags][cuts][payload]`, see [`framed`]; flags bit 0:
/// comments, bits 1–2: the line limit). The push decoder fed the cut chunks yields exactly what
/// the slice decoder yields (items, lines, errors); `gcx::decode` is that
/// trace up to its first error; every error is a GCX1 (or UTF-8) error with a position; rows
/// have one value per field; what decodes re-encodes losslessly to the same sections (or the
/// encoder refuses with GCX_NOT_LOSSLESS); the workspace-scope decoders do not panic and what
/// they read re-encodes to itself.
pub fn gcx1_decode(data: &[u8]) -> String {
    let (flags, payload, pieces) = framed(data);
    let options = DecodeOptions {
        comments: flags & 1 != 0,
        max_line_bytes: match (flags >> 1) & 3 {
            0 => gcx::DEFAULT_MAX_LINE_BYTES,
            1 => usize::from(flags >> 3),
            2 => 64,
            _ => 256,
        },
        ..DecodeOptions::default()
    };
    let whole = gcx_trace(
        Decoder::from_slice(payload, options.clone()),
        &[],
        payload.len(),
    );
    let streamed = gcx_trace(Decoder::new(options.clone()), &pieces, payload.len());
    assert_eq!(
        streamed, whole,
        "push decoding differs from whole-input decoding"
    );

    let mut expected: Vec<Section> = Vec::new();
    let mut first_error = None;
    for (traced, _) in &whole {
        match traced {
            Traced::Section(header) => expected.push(Section {
                header: header.clone(),
                rows: Vec::new(),
            }),
            Traced::Row(row) => expected
                .last_mut()
                .expect("a row belongs to a section")
                .rows
                .push(row.clone()),
            Traced::Comment(_) => {}
            Traced::Error(e) => {
                first_error = Some(e.clone());
                break;
            }
        }
    }
    let until_error = gcx::decode(payload, &options).into_owned_parts();
    assert_eq!(until_error, (expected, first_error));
    let (sections, error) = until_error;
    if let Ok(text) = std::str::from_utf8(payload) {
        gcx_scope(text);
    }

    if error.is_none() {
        let lossless = EncodeOptions {
            lossless: true,
            ..EncodeOptions::default()
        };
        match gcx_encode_sections(&sections, lossless) {
            Ok(again) => assert_eq!(
                gcx::decode(&again, &DecodeOptions::default()).into_sections(),
                Ok(sections.clone()),
                "lossless re-encoding {again:?} does not read back"
            ),
            Err(e) => assert_eq!(e.kind(), ErrorKind::GcxNotLossless, "{e:?}"),
        }
    }
    let rows: usize = sections.iter().map(|s| s.rows.len()).sum();
    match error {
        None => format!("ok sections={} rows={rows}", sections.len()),
        Some(e) => format!("err {} sections={} rows={rows}", e.code(), sections.len()),
    }
}

/// The workspace-scope decoders: no panic, and what they read re-encodes losslessly (or the
/// encoder refuses) to a payload that reads back the same. (The default, gcx-go encoder drops
/// CR, so only the lossless one promises a round trip.)
fn gcx_scope(text: &str) {
    let options = EncodeOptions {
        lossless: true,
        ..EncodeOptions::default()
    };
    if let Ok(definitions) = scope::decode_tool_definitions(text)
        && let Ok(again) = scope::encode_tool_definitions(&definitions, &options)
    {
        let back = scope::decode_tool_definitions(&again).expect("re-encoded definitions");
        let mut sorted = definitions.clone();
        sorted.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
        assert_eq!(back, sorted, "tool_definitions {again:?}");
    }
    if let Ok(request) = scope::decode_tool_request(text)
        && let Ok(again) = scope::encode_tool_request(&request, &options)
    {
        let back = scope::decode_tool_request(&again).expect("re-encoded tool_request");
        assert_eq!(back, request, "tool_request {again:?}");
    }
    if let Ok(envelope) = scope::decode_error_envelope(text)
        && let Ok(again) = scope::encode_error_envelope(&envelope, &options)
    {
        let back = scope::decode_error_envelope(&again).expect("re-encoded error envelope");
        assert_eq!(back, envelope, "error envelope {again:?}");
    }
}

/// `Header::parse` of any text: errors are GCX1 errors placed on the given line, within it;
/// a parsed header has a tool and at least one field; written back (both modes) it is one
/// line; the lossless form parses back to the same header (or the writer refuses); and the
/// decoder reads the line as exactly this header.
pub fn gcx1_header(data: &[u8]) -> String {
    let text = String::from_utf8_lossy(data);
    let parsed = Header::parse(&text, 7, 100);
    match &parsed {
        Err(e) => {
            assert_eq!(e.format(), Format::Gcx1, "{e:?}");
            let p = e.position().expect("header errors carry a position");
            assert_eq!(e.line(), Some(7));
            assert!((100..=100 + text.len() as u64).contains(&p.offset), "{e:?}");
        }
        Ok(header) => {
            assert!(!header.tool.is_empty() && !header.fields.is_empty());
            for lossless in [false, true] {
                let mut line = String::new();
                match header.write(&mut line, lossless) {
                    Ok(()) => {
                        let body = line.strip_suffix('\n').expect("a header line ends in LF");
                        assert!(
                            !body.contains('\n'),
                            "header written on two lines: {line:?}"
                        );
                        if lossless {
                            assert_eq!(Header::parse(body, 1, 0).as_ref(), Ok(header), "{line:?}");
                        }
                    }
                    Err(e) => {
                        assert!(lossless, "the default header writer failed: {e:?}");
                        assert_eq!(e.kind(), ErrorKind::GcxNotLossless);
                    }
                }
            }
        }
    }
    // The decoder reads a one-line payload as this header (same header, same error).
    if !text.contains('\n') && !text.ends_with('\r') && !text.is_empty() {
        let payload = format!("{text}\n");
        let mut decoder = Decoder::from_slice(payload.as_bytes(), DecodeOptions::default());
        let first = decoder.next().map(|item| match item {
            Some(GcxItem::Section(h)) => h.clone(),
            other => panic!("a header line decoded as {other:?}"),
        });
        assert_eq!(first, Header::parse(&text, 1, 0));
    }
    outcome(&parsed, |h| {
        format!("ok fields={} meta={}", h.fields.len(), h.meta.len())
    })
}

/// A cell the round trip writes.
#[derive(Debug)]
enum OwnedCell {
    Null,
    Bool(bool),
    I64(i64),
    U64(u64),
    F64(f64),
    F32(f32),
    Number(String),
    Str(String),
    Bytes(Vec<u8>),
}

impl OwnedCell {
    fn read(b: &mut Bytes<'_>) -> OwnedCell {
        match b.below(9) {
            0 => OwnedCell::Null,
            1 => OwnedCell::Bool(b.byte() & 1 == 1),
            2 => OwnedCell::I64(b.i64()),
            3 => OwnedCell::U64(b.u64()),
            4 => OwnedCell::F64(f64::from_bits(b.u64())),
            5 => OwnedCell::F32(f32::from_bits(b.u64() as u32)),
            6 => OwnedCell::Number(b.text()),
            7 => OwnedCell::Str(b.text()),
            _ => {
                let len = b.below(8);
                OwnedCell::Bytes(b.take(len).to_vec())
            }
        }
    }

    fn cell(&self) -> Cell<'_> {
        match self {
            OwnedCell::Null => Cell::Null,
            OwnedCell::Bool(v) => Cell::Bool(*v),
            OwnedCell::I64(v) => Cell::I64(*v),
            OwnedCell::U64(v) => Cell::U64(*v),
            OwnedCell::F64(v) => Cell::F64(*v),
            OwnedCell::F32(v) => Cell::F32(*v),
            OwnedCell::Number(v) => Cell::Number(v),
            OwnedCell::Str(v) => Cell::Str(v),
            OwnedCell::Bytes(v) => Cell::Bytes(v),
        }
    }
}

/// Sections of typed cells written with the lossless encoder, then decoded: every section and
/// row written reads back exactly (cells as their text, short rows padded), including what was
/// written before a refusal; refusals are only GCX_NOT_LOSSLESS, GCX_TOO_MANY_VALUES (a row
/// longer than its header) and INVALID_UTF8 (a bytes cell that is not UTF-8); the default
/// (gcx-go) encoder fails only for the last two.
pub fn gcx1_roundtrip(data: &[u8]) -> String {
    let mut b = Bytes(data);
    let count = 1 + b.below(3);
    let mut input: Vec<(Header, Vec<Vec<OwnedCell>>)> = Vec::new();
    for _ in 0..count {
        let tool = b.text();
        let fields: Vec<String> = (0..b.below(5)).map(|_| b.text()).collect();
        let mut header = Header::new(tool, fields);
        for _ in 0..b.below(3) {
            let key = b.text();
            header.meta.insert(key, b.text());
        }
        let width = header.fields.len();
        let rows = (0..b.below(5))
            .map(|_| {
                (0..b.below(width + 2))
                    .map(|_| OwnedCell::read(&mut b))
                    .collect()
            })
            .collect();
        input.push((header, rows));
    }

    let mut outcomes = Vec::new();
    let mut payloads = Vec::new();
    // Lossless, then the default (checked), then gcx-go parity.
    for mode in 0..3 {
        let (lossless, checked) = (mode == 0, mode == 1);
        let options = EncodeOptions {
            lossless,
            compat: if mode == 2 {
                Compat::GcxGo
            } else {
                Compat::Checked
            },
            ..EncodeOptions::default()
        };
        let mut encoder = Encoder::new(String::new(), options);
        let mut expected: Vec<Section> = Vec::new();
        let mut failure: Option<Error> = None;
        'sections: for (header, rows) in &input {
            if let Err(e) = encoder.begin_section(header) {
                if checked {
                    assert_eq!(e.kind(), ErrorKind::GcxUndecodable, "{e:?}");
                } else {
                    assert!(lossless, "the gcx-go encoder refused a header: {e:?}");
                    assert_eq!(e.kind(), ErrorKind::GcxNotLossless, "{e:?}");
                    assert!(header.check_lossless().is_err());
                }
                failure = Some(e);
                break;
            }
            expected.push(Section {
                header: header.clone(),
                rows: Vec::new(),
            });
            for row in rows {
                let cells: Vec<Cell<'_>> = row.iter().map(OwnedCell::cell).collect();
                if let Err(e) = encoder.write_row(&cells) {
                    let too_long = cells.len() > header.fields.len();
                    match e.kind() {
                        ErrorKind::GcxTooManyValues => assert!(too_long),
                        ErrorKind::InvalidUtf8 => assert!(!too_long && row
                            .iter()
                            .any(|c| matches!(c, OwnedCell::Bytes(v) if std::str::from_utf8(v).is_err()))),
                        ErrorKind::GcxNotLossless => assert!(lossless && !too_long),
                        ErrorKind::GcxUndecodable => assert!(checked && !too_long),
                        _ => panic!("unexpected row error {e:?}"),
                    }
                    failure = Some(e);
                    break 'sections;
                }
                let mut texts: Vec<String> = cells
                    .iter()
                    .map(|c| {
                        let mut text = String::new();
                        c.write_text(&mut text).expect("a written cell has a text");
                        text
                    })
                    .collect();
                texts.resize(header.fields.len(), String::new());
                expected.last_mut().expect("section").rows.push(texts);
            }
        }
        let written = encoder.sink().clone();
        assert_eq!(
            encoder.finish().err(),
            failure,
            "the encoder error is sticky"
        );
        if lossless {
            // Every line written before a refusal reads back (nothing written: no header).
            let decoded = gcx::decode(&written, &DecodeOptions::default()).into_sections();
            if expected.is_empty() {
                let e = decoded.expect_err("an empty payload has no header");
                assert_eq!(e.kind(), ErrorKind::GcxEmptyInput);
            } else {
                assert_eq!(
                    decoded.as_ref(),
                    Ok(&expected),
                    "lossless payload {written:?} does not read back"
                );
            }
        }
        if checked && failure.is_none() && !expected.is_empty() {
            // What the checked encoder writes decodes.
            let decoded = gcx::decode(&written, &DecodeOptions::default());
            assert!(
                decoded.error.is_none(),
                "checked payload {written:?}: {:?}",
                decoded.error
            );
        }
        outcomes.push(match failure {
            None => "ok".to_string(),
            Some(e) => format!("refused {}", e.code()),
        });
        payloads.push(written);
    }
    if outcomes[0] == "ok" {
        assert_eq!(
            outcomes[2], "ok",
            "the gcx-go encoder failed where lossless did not"
        );
    }
    if outcomes[1] == "ok" {
        assert_eq!(outcomes[2], "ok", "gcx-go failed where checked did not");
        assert_eq!(payloads[1], payloads[2], "checked changed gcx-go's bytes");
    }
    format!(
        "lossless {} checked {} gcx-go {}",
        outcomes[0], outcomes[1], outcomes[2]
    )
}

// ---- GCF v1.1 -------------------------------------------------------------------------------

/// GCF v1.1 decoding of arbitrary text: errors are GCF errors with a line; the codec registry
/// decodes the same; a decoded payload re-encodes (or has a negative distance, the one encoder
/// error), that text decodes to the same payload up to what GCF normalises (scores to two
/// decimals, `unchanged` status), and encoding it again gives the same text.
pub fn gcf_decode(data: &[u8]) -> String {
    let Ok(text) = std::str::from_utf8(data) else {
        let e = Registry::builtin()
            .decode_with("gcf", data)
            .expect_err("the gcf codec accepts only UTF-8");
        assert_eq!(e.kind(), ErrorKind::InvalidUtf8);
        return format!("err {}", e.code());
    };
    let decoded = gcf::v1::decode(text, &Default::default()).map(|p| p.into_payload());
    let via_registry = Registry::builtin().decode_with("gcf", data);
    match (&decoded, &via_registry) {
        (Ok(a), Ok(b)) => assert!(same_payload(a, b)),
        (Err(a), Err(b)) => assert_eq!(a, b),
        _ => panic!("the gcf codec and gcf::v1::decode disagree"),
    }
    let p = match decoded {
        Err(e) => {
            assert_eq!(e.format(), Format::Gcf, "{e:?}");
            assert!(e.line().is_some(), "GCF decode errors carry a line: {e:?}");
            return format!("err {}", e.code());
        }
        Ok(p) => p,
    };
    assert!(!p.tool.is_empty());
    let t1 = match gcf::v1::encode(&p) {
        Ok(t) => t,
        Err(e) => {
            assert_eq!(e.kind(), ErrorKind::GcfNegativeDistance, "{e:?}");
            assert!(p.symbols.iter().any(|s| s.distance < 0));
            return format!("ok symbols={} negative distance", p.symbols.len());
        }
    };
    let p1 = gcf::v1::decode(&t1, &Default::default())
        .unwrap_or_else(|e| panic!("encoded {t1:?} does not decode: {e}"))
        .into_payload();
    let t2 = gcf::v1::encode(&p1).expect("a decoded encoding re-encodes");
    assert_eq!(t1, t2, "encode(decode(encode(p))) != encode(p)");
    assert_eq!(
        (&p1.tool, p1.token_budget, p1.tokens_used, &p1.pack_root),
        (&p.tool, p.token_budget, p.tokens_used, &p.pack_root)
    );
    assert_eq!(p1.symbols.len(), p.symbols.len(), "{t1:?}");
    for (a, b) in p1.symbols.iter().zip(&p.symbols) {
        assert_eq!(
            (&a.qualified_name, &a.kind, &a.provenance, a.distance),
            (&b.qualified_name, &b.kind, &b.provenance, b.distance)
        );
        assert!(same_f64(a.score, two_decimals(b.score)), "{a:?} {b:?}");
    }
    let normalised: Vec<Edge> = p.edges.iter().map(normalise_gcf_edge).collect();
    assert_eq!(p1.edges, normalised, "{t1:?}");
    format!("ok symbols={} edges={}", p.symbols.len(), p.edges.len())
}

/// GCF v3 (either profile) from arbitrary bytes: errors are GCF errors with a line; a decoded
/// generic value re-encodes, decodes to the same value (`v3::round_trip_equal`: member order
/// kept but inside table rows) and its encoding is a fixed point; a decoded graph payload re-encodes and decodes to the same
/// symbols and edges.
pub fn gcf3_decode(data: &[u8]) -> String {
    let document = match v3::decode(data, &Default::default()) {
        Err(e) => {
            assert_eq!(e.format(), Format::Gcf, "{e:?}");
            assert!(
                e.line().is_some(),
                "GCF v3 decode errors carry a line: {e:?}"
            );
            return format!("err {}", e.code());
        }
        Ok(document) => document,
    };
    match document {
        Document::Generic(value) => {
            // Both versions round-trip (`lossless`: without the gcf crate's unreadable shared
            // schemas); the outcome names the default (3.6.0) encoding's size.
            let mut sizes = Vec::new();
            for version in [v3::SpecVersion::V3_6_0, v3::SpecVersion::V3_5_3] {
                let options = v3::EncodeOptions {
                    version,
                    lossless: true,
                };
                let text = v3::encode_generic_with(&value, &options)
                    .unwrap_or_else(|e| panic!("a decoded value must encode: {e} {value:?}"));
                let back = v3::decode_generic(&text)
                    .unwrap_or_else(|e| panic!("encoded {text:?} does not decode: {e}"));
                assert!(
                    v3::round_trip_equal(&value, &back),
                    "{text:?}: {value:?} != {back:?}"
                );
                let again = v3::encode_generic_with(&back, &options)
                    .expect("a decoded encoding re-encodes");
                assert_eq!(text, again, "encode(decode(encode(v))) != encode(v)");
                sizes.push(text.len());
            }
            format!("ok generic {} bytes", sizes[0])
        }
        Document::Graph(p) => {
            let text = v3::graph::encode(&p)
                .unwrap_or_else(|e| panic!("a decoded graph must encode: {e} {p:?}"));
            let back = v3::decode_graph(&text)
                .unwrap_or_else(|e| panic!("encoded {text:?} does not decode: {e}"));
            assert_eq!(back.symbols.len(), p.symbols.len(), "{text:?}");
            assert_eq!(back.edges.len(), p.edges.len(), "{text:?}");
            format!(
                "ok graph symbols={} edges={}",
                p.symbols.len(),
                p.edges.len()
            )
        }
        Document::GraphDelta(_) => "ok graph delta".into(),
        Document::GenericDelta(_) => "ok generic delta".into(),
    }
}

/// What GCF keeps of a score: Go `%.2f`, read back.
fn two_decimals(v: f64) -> f64 {
    if v.is_finite() {
        format!("{v:.2}").parse().expect("a formatted float parses")
    } else {
        v
    }
}

fn normalise_gcf_edge(e: &Edge) -> Edge {
    let mut e = e.clone();
    if e.status == "unchanged" {
        e.status.clear();
    }
    e
}

/// A payload GCF can carry (white-space-free, non-empty tokens; scores in cents or
/// non-finite), encoded, decoded: the same payload, but for the documented losses (kinds go
/// through the abbreviation table, edges to unknown symbols are dropped, `unchanged` status
/// is not written). A negative distance is the encoder's only error. Session encoding: the
/// first call decodes the same, the second has only references (no symbols, no edges).
/// `encode_delta` of the same data does not panic.
pub fn gcf_roundtrip(data: &[u8]) -> String {
    let mut b = Bytes(data);
    let mut p = Payload {
        tool: b.token(),
        token_budget: b.i64(),
        tokens_used: b.i64(),
        ..Payload::default()
    };
    if b.byte() & 1 == 1 {
        p.pack_root = b.token();
    }
    for i in 0..b.below(12) {
        let qualified_name = match b.below(8) {
            0 if i > 0 => p.symbols[b.below(i)].qualified_name.clone(),
            _ => b.token(),
        };
        let kind = match b.below(3) {
            0 => gcf::v1::KIND_ABBREVIATIONS[b.below(16)].0.to_string(),
            1 => gcf::v1::KIND_ABBREVIATIONS[b.below(16)].1.to_string(),
            // `#` in the kind's place is a session reference.
            _ => Some(b.token())
                .filter(|k| k != "#")
                .unwrap_or_else(|| "k#".into()),
        };
        let score = match b.below(16) {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => f64::NEG_INFINITY,
            3 => -0.0,
            _ => f64::from(b.u64() as i32) / 100.0,
        };
        let provenance = b.token();
        let distance = match b.below(8) {
            0 => b.i64(),
            d => (d as i64 - 1) % 4,
        };
        p.symbols.push(Symbol {
            qualified_name,
            kind,
            score,
            provenance,
            distance,
            ..Symbol::default()
        });
    }
    let n = p.symbols.len();
    for _ in 0..b.below(16) {
        let end = |b: &mut Bytes<'_>| match b.below(n + 1) {
            i if i < n => p.symbols[i].qualified_name.clone(),
            _ => b.token(),
        };
        let source = end(&mut b);
        let target = end(&mut b);
        let edge_type = b.token();
        let status = match b.below(5) {
            0 => String::new(),
            1 => "added".into(),
            2 => "removed".into(),
            3 => "unchanged".into(),
            _ => b.token(),
        };
        p.edges.push(Edge {
            source,
            target,
            edge_type,
            status,
        });
    }

    let delta = gcf::DeltaPayload {
        tool: p.tool.clone(),
        base_root: b.token(),
        new_root: p.pack_root.clone(),
        removed: p.symbols.clone(),
        added: p.symbols.clone(),
        removed_edges: p.edges.clone(),
        added_edges: p.edges.clone(),
        delta_tokens: p.tokens_used,
        full_tokens: p.token_budget,
    };
    assert!(gcf::v1::encode_delta(&delta).starts_with("GCF tool="));

    let text = match gcf::v1::encode(&p) {
        Err(e) => {
            assert_eq!(e.kind(), ErrorKind::GcfNegativeDistance, "{e:?}");
            assert!(p.symbols.iter().any(|s| s.distance < 0));
            return format!("refused {}", e.code());
        }
        Ok(text) => text,
    };
    assert!(p.symbols.iter().all(|s| s.distance >= 0));
    let mut expected = p.clone();
    for s in &mut expected.symbols {
        s.kind = expand_kind(abbreviate_kind(&s.kind)).to_string();
    }
    let known = |name: &str| p.symbols.iter().any(|s| s.qualified_name == name);
    expected.edges = p
        .edges
        .iter()
        .filter(|e| known(&e.source) && known(&e.target))
        .map(normalise_gcf_edge)
        .collect();
    let decoded = gcf::v1::decode(&text, &Default::default())
        .unwrap_or_else(|e| panic!("{text:?} does not decode: {e}"))
        .into_payload();
    assert!(
        same_payload(&decoded, &expected),
        "GCF round trip of {text:?}\n got {decoded:?}\nwant {expected:?}"
    );

    let mut session = Session::new();
    let first = session.encode(&p).expect("session encode");
    let first_decoded = gcf::v1::decode(&first, &Default::default())
        .expect("session payload decodes")
        .into_payload();
    assert!(same_payload(&first_decoded, &expected), "{first:?}");
    let second = session.encode(&p).expect("session encode");
    let second_decoded = gcf::v1::decode(&second, &Default::default())
        .expect("session references decode")
        .into_payload();
    let references_only = Payload {
        symbols: Vec::new(),
        edges: Vec::new(),
        ..expected.clone()
    };
    assert!(
        same_payload(&second_decoded, &references_only),
        "{second:?} -> {second_decoded:?}"
    );
    format!(
        "ok symbols={} edges={}",
        expected.symbols.len(),
        expected.edges.len()
    )
}

// ---- GCB1 -----------------------------------------------------------------------------------

/// GCB1 decoding of arbitrary bytes: errors are GCB errors with a byte offset inside the
/// input; the codec registry decodes the same; a decoded payload re-encodes to bytes that
/// decode to the same payload (unknown enum ids become `unknown_0`), and encoding is then a
/// fixed point.
pub fn gcb1_decode(data: &[u8]) -> String {
    let decoded = gcb::decode(data, &Default::default()).map(|p| p.into_payload());
    let via_registry = Registry::builtin().decode_with("gcb", data);
    match (&decoded, &via_registry) {
        (Ok(a), Ok(b)) => assert!(same_payload(a, b)),
        (Err(a), Err(b)) => assert_eq!(a, b),
        _ => panic!("the gcb codec and gcb::decode disagree"),
    }
    let p = match decoded {
        Err(e) => {
            assert_eq!(e.format(), Format::Gcb, "{e:?}");
            let offset = e.offset().expect("GCB1 errors carry an offset");
            assert!(offset <= data.len() as u64, "{e:?}");
            return format!("err {}", e.code());
        }
        Ok(p) => p,
    };
    let e1 = gcb::encode(&p);
    let p1 = gcb::decode(&e1, &Default::default())
        .unwrap_or_else(|e| panic!("re-encoded payload fails: {e}"))
        .into_payload();
    assert_eq!(gcb::encode(&p1), e1, "GCB1 encoding is not a fixed point");
    let mut expected = p.clone();
    for s in &mut expected.symbols {
        s.kind = known_or_unknown(&KINDS, &s.kind);
        s.provenance = known_or_unknown(&PROVENANCES, &s.provenance);
    }
    for e in &mut expected.edges {
        e.edge_type = known_or_unknown(&EDGE_TYPES, &e.edge_type);
    }
    assert!(
        same_payload(&p1, &expected),
        "got {p1:?}\nwant {expected:?}"
    );
    format!("ok symbols={} edges={}", p.symbols.len(), p.edges.len())
}

fn known_or_unknown(table: &[&str], name: &str) -> String {
    if table.contains(&name) {
        name.to_string()
    } else {
        "unknown_0".to_string()
    }
}

/// A payload built from arbitrary data, encoded as GCB1 and decoded: the same payload up to
/// what GCB1 documents (floats as float32, distance as a byte, unknown enum names as
/// `unknown_0`, statuses other than added/removed as "", no pack_root, an edge to an unknown
/// symbol as symbol 0), and decoding fails (GCB_EDGE_INDEX) only when there are edges but no
/// symbols. Re-encoding the decoded payload gives the same bytes.
pub fn gcb1_roundtrip(data: &[u8]) -> String {
    let mut b = Bytes(data);
    let mut p = Payload {
        tool: b.text(),
        token_budget: b.i64(),
        tokens_used: b.i64(),
        pack_root: b.text(),
        ..Payload::default()
    };
    let pick = |b: &mut Bytes<'_>, table: &[&str]| {
        if b.byte() & 1 == 0 {
            table[b.below(table.len())].to_string()
        } else {
            b.text()
        }
    };
    for i in 0..b.below(10) {
        let qualified_name = if i > 0 && b.below(8) == 0 {
            p.symbols[b.below(i)].qualified_name.clone()
        } else {
            b.text()
        };
        let kind = pick(&mut b, &KINDS);
        let provenance = pick(&mut b, &PROVENANCES);
        let float = |b: &mut Bytes<'_>| match b.below(4) {
            0 => f64::from(f32::from_bits(b.u64() as u32)),
            _ => f64::from_bits(b.u64()),
        };
        p.symbols.push(Symbol {
            qualified_name,
            kind,
            score: float(&mut b),
            provenance,
            distance: match b.below(4) {
                0 => b.i64(),
                _ => i64::from(b.byte()),
            },
            signature: b.text(),
            components: gcf::Components {
                blast_radius: float(&mut b),
                confidence: float(&mut b),
                recency: float(&mut b),
                distance: float(&mut b),
            },
        });
    }
    let n = p.symbols.len();
    for _ in 0..b.below(12) {
        let end = |b: &mut Bytes<'_>| match b.below(n + 1) {
            i if i < n => p.symbols[i].qualified_name.clone(),
            _ => b.text(),
        };
        let source = end(&mut b);
        let target = end(&mut b);
        let edge_type = pick(&mut b, &EDGE_TYPES);
        let status = match b.below(4) {
            0 => String::new(),
            1 => "added".into(),
            2 => "removed".into(),
            _ => b.text(),
        };
        p.edges.push(Edge {
            source,
            target,
            edge_type,
            status,
        });
    }

    let bytes = gcb::encode(&p);
    let decoded = gcb::decode(&bytes, &Default::default()).map(|p| p.into_payload());
    if p.symbols.is_empty() && !p.edges.is_empty() {
        let e = decoded.expect_err("edges without symbols cannot be decoded");
        assert_eq!(e.kind(), ErrorKind::GcbEdgeIndex, "{e:?}");
        return format!("err {}", e.code());
    }
    let decoded = decoded.unwrap_or_else(|e| panic!("GCB1 round trip fails: {e}"));
    let f32_of = |v: f64| f64::from(v as f32);
    let index = |name: &str| p.symbols.iter().rposition(|s| s.qualified_name == name);
    let expected = Payload {
        tool: p.tool.clone(),
        token_budget: p.token_budget,
        tokens_used: p.tokens_used,
        pack_root: String::new(),
        symbols: p
            .symbols
            .iter()
            .map(|s| Symbol {
                qualified_name: s.qualified_name.clone(),
                kind: known_or_unknown(&KINDS, &s.kind),
                score: f32_of(s.score),
                provenance: known_or_unknown(&PROVENANCES, &s.provenance),
                distance: i64::from(s.distance as u8),
                signature: s.signature.clone(),
                components: gcf::Components {
                    blast_radius: f32_of(s.components.blast_radius),
                    confidence: f32_of(s.components.confidence),
                    recency: f32_of(s.components.recency),
                    distance: f32_of(s.components.distance),
                },
            })
            .collect(),
        edges: p
            .edges
            .iter()
            .map(|e| Edge {
                source: p.symbols[index(&e.source).unwrap_or(0)]
                    .qualified_name
                    .clone(),
                target: p.symbols[index(&e.target).unwrap_or(0)]
                    .qualified_name
                    .clone(),
                edge_type: known_or_unknown(&EDGE_TYPES, &e.edge_type),
                status: match e.status.as_str() {
                    s @ ("added" | "removed") => s.to_string(),
                    _ => String::new(),
                },
            })
            .collect(),
    };
    assert!(
        same_payload(&decoded, &expected),
        "GCB1 round trip\n got {decoded:?}\nwant {expected:?}"
    );
    // Edges are written by the index of the last symbol with their name, so the bytes come
    // back the same when names are unique, and after one more round in any case.
    let again = gcb::encode(&decoded);
    let unique = (1..n).all(|i| {
        !p.symbols[..i]
            .iter()
            .any(|s| s.qualified_name == p.symbols[i].qualified_name)
    });
    if unique {
        assert_eq!(again, bytes, "re-encoding changes the bytes");
    }
    let decoded_again = gcb::decode(&again, &Default::default())
        .expect("re-encoded payload decodes")
        .into_payload();
    assert_eq!(
        gcb::encode(&decoded_again),
        again,
        "GCB1 encoding is not a fixed point"
    );
    format!("ok symbols={} edges={}", n, p.edges.len())
}

// ---- gateway --------------------------------------------------------------------------------

/// `parse_tool_id` of any text: a parsed id formats back to the same text; errors are
/// `TOOL_ID_*` with a position inside the id. The text split on LF as parts (namespace, name,
/// version, hash8): what `format_tool_id` accepts parses back to the same parts.
pub fn tool_id_parse(data: &[u8]) -> String {
    let text = String::from_utf8_lossy(data);
    let parsed = parse_tool_id(&text);
    match &parsed {
        Ok(parts) => assert_eq!(
            format_tool_id(parts).as_deref(),
            Ok(&*text),
            "{parts:?} formats differently"
        ),
        Err(e) => {
            assert!(e.code().starts_with("TOOL_ID_"), "{e:?}");
            let p = e.position().expect("tool id errors carry a position");
            assert!(p.offset <= text.len() as u64, "{e:?}");
        }
    }
    let mut fields = text.split('\n');
    let parts = ToolIdParts {
        namespace: fields.next().unwrap_or_default().into(),
        name: fields.next().unwrap_or_default().into(),
        version: fields.next().map(String::from),
        hash8: fields.next().map(String::from),
    };
    match format_tool_id(&parts) {
        Ok(id) => assert_eq!(parse_tool_id(&id).as_ref(), Ok(&parts), "{id:?}"),
        Err(e) => assert!(e.code().starts_with("TOOL_ID_"), "{e:?}"),
    }
    outcome(&parsed, |_| "ok".into())
}

/// A small catalog: more than 20 items in three namespaces, so the tree has groups.
fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        let mut items = Vec::new();
        for (namespace, count) in [("github", 14), ("fs", 9), ("time", 2)] {
            for i in 0..count {
                let name = format!("{namespace}_tool_{i}");
                items.push(Item {
                    id: format!("{namespace}:{name}#{:08x}", i * 7919),
                    kind: Kind::Tool,
                    description: format!("Does {namespace} thing number {i}."),
                    name,
                    tags: vec!["mcp".into()],
                    namespace: namespace.into(),
                    args_schema: Map::new(),
                    has_schema: false,
                    side_effects: false,
                    cost_hint: 0.0,
                });
            }
        }
        Catalog::from_items(items).expect("unique ids")
    })
}

/// `parse_path` of any text: segments rebuild the path exactly and keep the grammar (`*`
/// only last); errors are `PATH_*` with an offset inside the path (but for the empty path).
/// Browsing a fixed catalog: `PATH_INVALID` exactly when the parse fails, otherwise cards or
/// `PATH_NOT_FOUND` with a walked prefix of the path.
pub fn path_parse(data: &[u8]) -> String {
    let text = String::from_utf8_lossy(data);
    let parsed = parse_path(&text);
    match &parsed {
        Ok(segments) => {
            let rebuilt = if segments.is_empty() {
                "/".to_string()
            } else {
                format!("/{}", segments.join("/"))
            };
            assert_eq!(rebuilt, text);
            for (i, segment) in segments.iter().enumerate() {
                assert!(!segment.is_empty());
                assert!(
                    segment.bytes().all(|c| c.is_ascii_lowercase()
                        || c.is_ascii_digit()
                        || c == b'_'
                        || c == b'-')
                        || (*segment == "*" && i + 1 == segments.len()),
                    "segment {segment:?} breaks the grammar"
                );
            }
        }
        Err(e) => {
            assert!(e.code().starts_with("PATH_"), "{e:?}");
            if e.kind() != ErrorKind::PathEmpty {
                let p = e.position().expect("path errors carry a position");
                assert!(p.offset < text.len() as u64, "{e:?}");
            }
        }
    }
    let _ = segment_label(&text);
    let browsed = catalog().path_cards(&Value::String(text.to_string()));

    match (&parsed, browsed) {
        (Ok(_), Ok(cards)) => format!("ok cards={}", cards.len()),
        (Err(_), Err(g)) if g.code == GatewayCode::PathInvalid => {
            format!("err {}", parsed.as_ref().unwrap_err().code())
        }
        (Ok(_), Err(g)) if g.code == GatewayCode::PathNotFound => "not found".into(),
        (parsed, browsed) => panic!("parse {parsed:?} but browse {browsed:?}"),
    }
}

// ---- events ---------------------------------------------------------------------------------

/// The JSONL event decoder fed the input in chunks (`[flags][cuts][payload]`, see [`framed`];
/// flags bits 0–1: the line limit) yields exactly the items and summary of one push of the
/// whole input, which are those of `parse_stream`; `finish` is idempotent; `valid` means no
/// error diagnostic; event lines increase and no line is past the input.
pub fn events_push(data: &[u8]) -> String {
    let (flags, payload, pieces) = framed(data);
    let max = match flags & 3 {
        0 => agentwire::events::DEFAULT_MAX_LINE_BYTES,
        1 => 16,
        2 => 256,
        _ => usize::from(flags >> 2),
    };
    let run = |chunks: &[&[u8]]| {
        let mut decoder = StreamDecoder::new(max);
        let mut items = Vec::new();
        for chunk in chunks {
            decoder.push(chunk, &mut items);
        }
        let summary = decoder.finish(&mut items);
        let mut more = Vec::new();
        assert_eq!(
            decoder.finish(&mut more),
            summary,
            "finish is not idempotent"
        );
        decoder.push(b"{}\n", &mut more);
        assert!(
            more.is_empty(),
            "finish twice or push after finish produced {more:?}"
        );
        (items, summary)
    };
    let whole = run(&[payload]);
    let chunked = run(&pieces);
    assert_eq!(chunked, whole, "chunking changes the result");
    let (items, summary) = whole;

    let (stream_summary, events) = parse_stream(payload, max);
    let mut kept = Vec::new();
    let mut diagnostics = Vec::new();
    for item in items {
        match item {
            DecodedItem::Event { line, event } => kept.push((line, event)),
            DecodedItem::Diagnostic(d) => diagnostics.push(d),
        }
    }
    assert_eq!(events, kept);
    assert_eq!(stream_summary.result, summary.result);
    assert_eq!(stream_summary.valid, summary.valid);
    assert_eq!(stream_summary.diagnostics, diagnostics);
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity() == Severity::Error)
        .count();
    assert_eq!(summary.valid, errors == 0);
    let lines = payload.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    assert!(kept.windows(2).all(|w| w[0].0 < w[1].0));
    assert!(kept.iter().all(|(line, _)| (1..=lines).contains(line)));
    assert!(
        diagnostics
            .iter()
            .all(|d| d.line.is_none_or(|l| (1..=lines).contains(&l)))
    );
    format!(
        "{} events={} errors={errors} diagnostics={}",
        if summary.valid { "valid" } else { "invalid" },
        kept.len(),
        diagnostics.len()
    )
}

/// `from_sse` of any text: frames and diagnostics sit on lines of the input, frames in order;
/// at most one converted event per frame, each an object; CRLF line ends read like LF; the
/// converted events serialize (or hold a non-finite number) and the JSONL decoder reads them.
pub fn sse(data: &[u8]) -> String {
    let text = String::from_utf8_lossy(data);
    let (frames, diagnostics, converted) = from_sse(&text);
    let lines = text.split('\n').count() as u64;
    assert!(frames.windows(2).all(|w| w[0].line < w[1].line));
    assert!(frames.iter().all(|f| (1..=lines).contains(&f.line)));
    assert!(
        diagnostics
            .iter()
            .all(|d| d.line.is_some_and(|l| (1..=lines).contains(&l)))
    );
    assert!(converted.len() <= frames.len());
    if !text.contains('\r') {
        let crlf = text.replace('\n', "\r\n");
        assert_eq!(
            from_sse(&crlf),
            (frames.clone(), diagnostics.clone(), converted.clone()),
            "CRLF reads differently"
        );
    }
    let mut jsonl = String::new();
    for event in &converted {
        let map = event.as_object().expect("a converted event is an object");
        if let Err(e) = write_event(&mut jsonl, map, Form::Godex) {
            assert_eq!(e.kind(), ErrorKind::NonFiniteNumber, "{e:?}");
        }
    }
    let (summary, _) = parse_stream(jsonl.as_bytes(), agentwire::events::DEFAULT_MAX_LINE_BYTES);
    format!(
        "frames={} diagnostics={} events={} {}",
        frames.len(),
        diagnostics.len(),
        converted.len(),
        if summary.valid { "valid" } else { "invalid" }
    )
}

// ---- JSON -----------------------------------------------------------------------------------

/// The JSON parser on any bytes, typed and literal numbers: errors are JSON errors with a
/// position inside the input; the text and byte entry points agree; a parsed value writes
/// (typed: unless a number overflowed to ±Infinity) and re-parses to the same value (typed:
/// numbers by value), and writing is then a fixed point. A parsed object read as an MCP tool
/// that converts has a valid tool id; the JSON payload codec round-trips what it decodes.
pub fn json_parse(data: &[u8]) -> String {
    let mut result = String::new();
    for literal_numbers in [false, true] {
        let options = ParseOptions {
            literal_numbers,
            ..ParseOptions::default()
        };
        let parsed = json::parse_bytes(data, &options);
        if let Ok(text) = std::str::from_utf8(data) {
            assert_eq!(json::parse_with(text, &options), parsed);
        }
        let value = match parsed {
            Err(e) => {
                assert_eq!(e.format(), Format::Json, "{e:?}");
                let p = e.position().expect("JSON errors carry a position");
                assert!(p.offset <= data.len() as u64, "{e:?}");
                return format!("err {}", e.code());
            }
            Ok(v) => v,
        };
        let written = match json::to_string(&value, WriteOptions::PLAIN) {
            Ok(t) => t,
            Err(e) => {
                assert!(!literal_numbers, "literal numbers always write: {e:?}");
                assert_eq!(e.kind(), ErrorKind::NonFiniteNumber);
                result = "ok non-finite".into();
                continue;
            }
        };
        let back = json::parse_with(&written, &options)
            .unwrap_or_else(|e| panic!("written JSON {written:?} does not parse: {e}"));
        if literal_numbers {
            assert_eq!(back, value, "{written:?}");
        } else {
            assert!(
                same_value(&back, &value),
                "{written:?}: {back:?} != {value:?}"
            );
        }
        assert_eq!(
            json::to_string(&back, WriteOptions::PLAIN).as_ref(),
            Ok(&written)
        );
        let go = json::to_string(&value, WriteOptions::GO).expect("writes as PLAIN did");
        assert!(json::parse_with(&go, &options).is_ok(), "{go:?}");
        if !literal_numbers {
            if let Ok(converted) = agentwire::gateway::item::mcp_tool_to_item(&value, None) {
                let id = &converted.item.id;
                let parts = parse_tool_id(id)
                    .unwrap_or_else(|e| panic!("derived tool id {id:?} is invalid: {e}"));
                assert_eq!(format_tool_id(&parts).as_ref(), Ok(id));
            }
            // The `json` codec: the payload's camelCase JSON form.
            let registry = Registry::builtin();
            if let Ok(payload) = registry.decode_with("json", written.as_bytes()) {
                let again = registry.encode_with("json", &payload).expect("JSON encode");
                let back = registry
                    .decode_with("json", &again)
                    .expect("encoded JSON payload decodes");
                assert!(same_payload(&back, &payload), "{back:?} != {payload:?}");
            }
        }
        result = format!("ok {}", value.type_name());
    }
    result
}

/// Value equality with numbers compared by value (Go's rule writes the double `1e19` as
/// `10000000000000000000`, which reads back as an integer).
fn same_value(a: &Value, b: &Value) -> bool {
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

/// `compact`: any text through compaction (UTF-8 bytes as the count, every saving accepted,
/// every candidate counted). A winner reads back as the input's value and never has more
/// tokens; a kept input comes back unchanged with its reason. Then in cl100k tokens
/// ([`compact_with_tokens`]). Returns the byte count's `kept CODE` or `ok FORMAT`.
pub fn compact(data: &[u8]) -> String {
    use agentwire::compact::{self, Options};
    let Ok(text) = std::str::from_utf8(data) else {
        return "not UTF-8".into();
    };
    let bytes = |t: &str| t.len();
    let options = Options {
        min_savings: 0.0,
        exact_counts: true,
        ..Options::default()
    };
    let out = compact::compact_json(text, &options, &bytes).expect("the options are valid");
    assert!(
        out.tokens <= out.input_tokens,
        "{} > {}",
        out.tokens,
        out.input_tokens
    );
    let outcome = match &out.reason {
        Some(reason) => {
            assert_eq!(out.format, compact::Format::Input);
            assert_eq!(out.text, text, "a kept input is the input");
            format!("kept {}", reason.code())
        }
        None => {
            let value = json::parse(text).expect("a winner means the input is JSON");
            let back = compact::decode(&out.text)
                .unwrap_or_else(|e| panic!("{} does not decode: {e}", out.format.as_str()))
                .expect("the winner reads back from its text");
            assert!(
                compact::js_equal(&back, &value),
                "{} reads back another value",
                out.format.as_str()
            );
            format!("ok {}", out.format.as_str())
        }
    };
    compact_with_tokens(text);
    outcome
}

/// The same text counted in cl100k tokens, as users run it: every candidate counted to the end
/// and, as by default, each only as far as it can still win (through the table of short
/// pieces the input and its candidates share). Both choose the same form and count, and the
/// count is the tokenizer's count of the chosen text.
fn compact_with_tokens(text: &str) {
    use agentwire::compact::{self, Options};
    use agentwire::tokens::Tokenizer;
    static CL100K: OnceLock<Tokenizer> = OnceLock::new();
    let tokenizer = CL100K.get_or_init(Tokenizer::cl100k_base);
    let run = |exact_counts| {
        let options = Options {
            min_savings: 0.0,
            exact_counts,
            ..Options::default()
        };
        compact::compact_json(text, &options, tokenizer).expect("the options are valid")
    };
    let (all, bounded) = (run(true), run(false));
    assert_eq!(
        (all.format, all.tokens, all.input_tokens),
        (bounded.format, bounded.tokens, bounded.input_tokens),
        "counting every candidate to the end and stopping early chose differently"
    );
    assert_eq!(bounded.text, all.text);
    assert_eq!(bounded.tokens, tokenizer.count(&bounded.text));
}

// ---- TOON -----------------------------------------------------------------------------------

/// `[flags][text]`: TOON decoding of arbitrary text, strict and lenient (flags: bits 0-1 the
/// indent, 2, 1, 3 or 4; bit 2 path expansion). Neither panics; errors are TOON errors with a line, a
/// column and an offset inside the text; what strict mode accepts, lenient mode reads the
/// same; every decoded value encodes (plain, and with key folding), and the text reads back as
/// an equal value (numbers as doubles). Bytes that are not UTF-8 are not TOON text (the API
/// takes `&str`).
pub fn toon_decode(data: &[u8]) -> String {
    let (flags, rest) = data.split_first().map_or((0, &[][..]), |(f, r)| (*f, r));
    let Ok(text) = std::str::from_utf8(rest) else {
        return "not utf-8".into();
    };
    let strict = ToonDecode {
        indent: TOON_INDENTS[usize::from(flags & 3)],
        expand_paths: if flags & 4 != 0 {
            toon::ExpandPaths::Safe
        } else {
            toon::ExpandPaths::Off
        },
        ..ToonDecode::default()
    };
    let lenient = ToonDecode {
        strict: false,
        ..strict.clone()
    };
    let outcomes = [&strict, &lenient].map(|options| {
        let outcome = toon::decode(text, options);
        if let Err(e) = &outcome {
            assert_eq!(e.format(), Format::Toon, "{e:?}");
            assert!(e.code().starts_with("TOON_"), "{e:?}");
            assert!(e.line().is_some() && e.column().is_some(), "{e:?}");
            assert!(e.offset().is_some_and(|o| o <= text.len() as u64), "{e:?}");
        }
        outcome
    });
    if let Ok(value) = &outcomes[0] {
        assert_eq!(
            outcomes[1].as_ref().ok(),
            Some(value),
            "strict and lenient differ"
        );
    }
    for value in outcomes.iter().filter_map(|o| o.as_ref().ok()) {
        toon_reads_back(value, &ToonEncode::default());
        let folded = ToonEncode {
            key_folding: toon::KeyFolding::Safe,
            ..ToonEncode::default()
        };
        toon_reads_back(value, &folded);
    }
    let describe = |outcome: &agentwire::Result<Value>| match outcome {
        Ok(value) => format!("ok {}", value.type_name()),
        Err(e) => format!("err {}", e.code()),
    };
    format!(
        "strict {}, lenient {}",
        describe(&outcomes[0]),
        describe(&outcomes[1])
    )
}

/// `[flags][JSON]`: a JSON value → TOON with the options of the flags byte (bits 0-1 the
/// delimiter: comma, tab, pipe, comma; bits 2-3 the indent: 2, 1, 3, 4; bit 4 key folding;
/// bit 5 a flatten depth of 2) → strict
/// decode (with path expansion when folding) is the same value (numbers as doubles, NaN and
/// ±Infinity as null, spec §3), and encoding that gives the same text again.
pub fn toon_roundtrip(data: &[u8]) -> String {
    let (flags, rest) = data.split_first().map_or((0, &[][..]), |(f, r)| (*f, r));
    let value = match json::parse_bytes(rest, &ParseOptions::default()) {
        Ok(value) => value,
        Err(e) => return format!("err {}", e.code()),
    };
    let fold = flags & 16 != 0;
    let options = ToonEncode {
        indent: TOON_INDENTS[usize::from(flags >> 2 & 3)],
        delimiter: [
            toon::Delimiter::Comma,
            toon::Delimiter::Tab,
            toon::Delimiter::Pipe,
        ][usize::from(flags & 3) % 3],
        key_folding: if fold {
            toon::KeyFolding::Safe
        } else {
            toon::KeyFolding::Off
        },
        flatten_depth: if flags & 32 != 0 { 2 } else { usize::MAX },
    };
    let text = toon_reads_back(&value, &options);
    format!("ok {} {} bytes", value.type_name(), text.len())
}

/// The indents a flags byte selects (0, the seeds' flags, is the default).
const TOON_INDENTS: [usize; 4] = [2, 1, 3, 4];

/// Encodes `value`, decodes the text strictly (expanding paths when the options fold keys),
/// checks the value came back and that encoding it again is a fixed point; returns the text.
fn toon_reads_back(value: &Value, options: &ToonEncode) -> String {
    let text = toon::encode(value, options).expect("the TOON encoder accepts every value");
    let decode = ToonDecode {
        indent: options.indent,
        expand_paths: match options.key_folding {
            toon::KeyFolding::Off => toon::ExpandPaths::Off,
            _ => toon::ExpandPaths::Safe,
        },
        ..ToonDecode::default()
    };
    let back = toon::decode(&text, &decode)
        .unwrap_or_else(|e| panic!("encoded {text:?} does not decode: {e}"));
    assert!(
        js_equal(&non_finite_as_null(value), &back),
        "{text:?}: {value:?} != {back:?}"
    );
    let again = toon::encode(&back, options).expect("a decoded value encodes");
    assert_eq!(again, text, "encode(decode(encode(v))) != encode(v)");
    text
}

/// `value` with NaN and ±Infinity replaced by null (what TOON writes for them).
fn non_finite_as_null(value: &Value) -> Value {
    match value {
        Value::Number(n) if n.is_non_finite() => Value::Null,
        Value::Array(items) => Value::Array(items.iter().map(non_finite_as_null).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.to_string(), non_finite_as_null(v)))
                .collect(),
        ),
        _ => value.clone(),
    }
}
