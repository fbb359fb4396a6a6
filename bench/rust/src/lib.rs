//! The benchmark cases: agentwire against the alternatives, same inputs, same run. GCX1 decode
//! and encode of the ~10 MB corpus against serde_json on the same rows, GCF/GCB1 against
//! the `gcf` crate on a 500-symbol graph, and exact token counts against tiktoken-rs,
//! bpe-openai and the `tiktoken` crate, compaction of a 106 KB tool result, and TOON encode
//! and decode of the 8 datasets of TOON's token benchmark (`bench/data/toon/`). The corpus
//! comes from `node bench/corpus/generate.mjs` (`make bench` runs it first).
//!
//! Two harnesses run the same cases, so they cannot drift apart:
//! - `benches/rounds.rs`: interleaved rounds, what `make bench` runs and bench/report.mjs reads
//!   (bench/results/rust.json); ratios come from it.
//! - `benches/codecs.rs`: criterion, for looking at one benchmark closely
//!   (`cargo bench -p agentwire-bench --bench codecs -- gcf3`).

use std::fmt;
use std::hint::black_box;
use std::path::PathBuf;

use agentwire::gcf::Payload;
use agentwire::gcx::{self, Cell, DecodeOptions, EncodeOptions, Encoder, Header};
use serde_json::Value as J;

/// One benchmark: a call on inputs prepared beforehand.
pub struct Case {
    /// The data and format, e.g. `gcx1-10mb` (criterion's group).
    pub group: &'static str,
    /// `op/impl`, e.g. `decode/agentwire` (criterion's function id).
    pub id: &'static str,
    /// The bytes one call handles, for throughput: which bytes is said where the case is made.
    pub bytes: u64,
    /// One call; its result goes through `black_box`.
    pub run: Box<dyn FnMut()>,
}

impl Case {
    /// The record name bench/report.mjs looks up: `group/op/rust/impl`.
    pub fn name(&self) -> String {
        let (op, implementation) = self.id.split_once('/').expect("case id is op/impl");
        format!("{}/{op}/rust/{implementation}", self.group)
    }

    pub fn op(&self) -> &'static str {
        self.id.split_once('/').expect("case id is op/impl").0
    }

    pub fn implementation(&self) -> &'static str {
        self.id.split_once('/').expect("case id is op/impl").1
    }
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Case")
            .field("group", &self.group)
            .field("id", &self.id)
            .field("bytes", &self.bytes)
            .finish_non_exhaustive()
    }
}

/// Every case, those of one group next to each other.
pub fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    gcx1(&mut cases);
    bench_inputs(&mut cases);
    graph(&mut cases);
    gcf3_graph(&mut cases);
    gcf_generic(&mut cases);
    tokens(&mut cases);
    compact(&mut cases);
    toon(&mut cases);
    cases
}

fn case<R>(
    group: &'static str,
    id: &'static str,
    bytes: usize,
    mut call: impl FnMut() -> R + 'static,
) -> Case {
    Case {
        group,
        id,
        bytes: bytes as u64,
        run: Box::new(move || {
            black_box(call());
        }),
    }
}

/// Inputs live as long as the process: leaked, so every case's closure can borrow them.
fn keep<T>(value: T) -> &'static T {
    Box::leak(Box::new(value))
}

/// JSON text to GCX1, as `gcx.encodeToolJson` does it: parse, then encode.
fn encode_tool_json(tool: &str, json_text: &str, options: &gcx::ToolOptions) -> String {
    let value = agentwire::json::parse_with(json_text, &options.encode.parse_options()).unwrap();
    gcx::encode_tool(tool, &value, options).unwrap()
}

/// GCX1 to the JSON text of its sections, as `gcx.decodeToJson`-style callers get it.
fn decode_to_json(payload: &str) -> String {
    let sections = gcx::decode(payload, &DecodeOptions::default())
        .into_borrowed()
        .unwrap();
    let mut out = String::with_capacity(payload.len() + payload.len() / 2);
    gcx::document::write_sections_json(&mut out, &sections).unwrap();
    out
}

fn corpus(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/out")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run `make bench`, which generates the corpus)",
            path.display()
        )
    })
}

fn corpus_text(name: &str) -> &'static str {
    keep(String::from_utf8(corpus(name)).unwrap())
}

/// The sections document as headers and owned cells, so encoding measures only the encoder.
fn sections(document: &J) -> Vec<(Header, Vec<Vec<J>>)> {
    document
        .as_array()
        .expect("sections array")
        .iter()
        .map(|s| {
            let fields: Vec<String> = s["fields"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f.as_str().unwrap().to_string())
                .collect();
            let mut header = Header::new(s["tool"].as_str().unwrap(), fields);
            for (k, v) in s["meta"].as_object().unwrap() {
                header = header.with_meta(k.clone(), v.as_str().unwrap());
            }
            let rows = s["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_array().unwrap().clone())
                .collect();
            (header, rows)
        })
        .collect()
}

fn cell(v: &J) -> Cell<'_> {
    match v {
        J::String(s) => Cell::Str(s),
        J::Number(n) => n
            .as_i64()
            .map_or(Cell::F64(n.as_f64().unwrap_or(0.0)), Cell::I64),
        J::Bool(b) => Cell::Bool(*b),
        _ => Cell::Null,
    }
}

fn encode_gcx(sections: &[(Header, Vec<Vec<J>>)], capacity: usize) -> String {
    let mut encoder = Encoder::new(String::with_capacity(capacity), EncodeOptions::default());
    let mut cells = Vec::new();
    for (header, rows) in sections {
        encoder.begin_section(header).unwrap();
        for row in rows {
            cells.clear();
            cells.extend(row.iter().map(cell));
            encoder.write_row(&cells).unwrap();
        }
    }
    encoder.finish().unwrap()
}

/// GCX1 on the ~10 MB corpus against serde_json on the same rows. Throughput counts each
/// format's own bytes (the GCX1 payload, the JSON text).
fn gcx1(cases: &mut Vec<Case>) {
    let payload = corpus_text("gcx-10mb.gcx");
    let json = corpus_text("gcx-10mb.json");
    let json_value: &J = keep(serde_json::from_str(json).unwrap());
    let document: J = serde_json::from_slice(&corpus("gcx-10mb.sections.json")).unwrap();
    let sections = keep(sections(&document));
    // Not assert_eq!: a mismatch would print ten megabytes.
    assert!(
        encode_gcx(sections, payload.len()) == payload,
        "the benchmark must encode the corpus payload (regenerate it with `make bench`)"
    );

    let group = "gcx1-10mb";
    // In place (borrowed values, the fast path), owned rows (a String per value), and the
    // JSON text every binding hands to JavaScript.
    cases.push(case(group, "decode/agentwire", payload.len(), move || {
        gcx::decode(black_box(payload), &DecodeOptions::default())
            .into_borrowed()
            .unwrap()
    }));
    cases.push(case(
        group,
        "decode-owned/agentwire",
        payload.len(),
        move || {
            gcx::decode(black_box(payload), &DecodeOptions::default())
                .into_sections()
                .unwrap()
        },
    ));
    cases.push(case(
        group,
        "decode-to-json/agentwire",
        payload.len(),
        move || decode_to_json(black_box(payload)),
    ));
    cases.push(case(group, "encode/agentwire", payload.len(), move || {
        encode_gcx(black_box(sections), payload.len())
    }));
    // The generic fallback (gcx-go EncodeAny) on the same rows as parsed JSON objects, one
    // call per section: key union, sorting and cell rendering on top of the encoder.
    let generic_input: &[(String, agentwire::json::Value)] = keep(
        agentwire::json::parse(json)
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s.get("tool").and_then(|t| t.as_str()).unwrap().to_string(),
                    s.get("rows").unwrap().clone(),
                )
            })
            .collect::<Vec<_>>(),
    );
    let encode_generic = |input: &[(String, agentwire::json::Value)]| -> usize {
        input
            .iter()
            .map(|(tool, rows)| {
                gcx::encode_generic(tool, rows, &EncodeOptions::default())
                    .unwrap()
                    .len()
            })
            .sum()
    };
    cases.push(case(
        group,
        "encode-generic/agentwire",
        encode_generic(generic_input),
        move || encode_generic(black_box(generic_input)),
    ));

    let group = "json-10mb";
    cases.push(case(group, "decode/serde_json", json.len(), move || {
        serde_json::from_str::<J>(black_box(json)).unwrap()
    }));
    cases.push(case(group, "encode/serde_json", json.len(), move || {
        serde_json::to_string(black_box(json_value)).unwrap()
    }));
    // agentwire's own JSON reader: what every JS call that passes values goes through.
    cases.push(case(
        group,
        "decode/agentwire-json",
        json.len(),
        move || agentwire::json::parse(black_box(json)).unwrap(),
    ));
}

/// The 20 bench responses (tests/fixtures/gcx1/bench-inputs): GCX1 encode of each JSON text
/// (tool layout or generic fallback, as the scorecard does) and decode of the result, against
/// serde_json reading and writing the same JSON. Throughput counts each format's own bytes.
fn bench_inputs(cases: &mut Vec<Case>) {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/gcx1");
    let vectors: J =
        serde_json::from_slice(&std::fs::read(fixtures.join("bench.json")).unwrap()).unwrap();
    let inputs: &[(String, String)] = keep(
        vectors["vectors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                let input = &v["input"];
                (
                    input["tool"].as_str().unwrap().to_string(),
                    input["json"].as_str().unwrap().to_string(),
                )
            })
            .collect::<Vec<_>>(),
    );
    assert_eq!(inputs.len(), 20);
    let options = keep(gcx::ToolOptions::default());
    let encoded: &[String] = keep(
        inputs
            .iter()
            .map(|(tool, json)| encode_tool_json(tool, json, options))
            .collect::<Vec<_>>(),
    );
    let values: &[J] = keep(
        inputs
            .iter()
            .map(|(_, json)| serde_json::from_str(json).unwrap())
            .collect::<Vec<_>>(),
    );
    let json_bytes: usize = inputs.iter().map(|(_, json)| json.len()).sum();
    let gcx_bytes: usize = encoded.iter().map(String::len).sum();
    let parsed: &[agentwire::json::Value] = keep(
        inputs
            .iter()
            .map(|(_, json)| agentwire::json::parse(json).unwrap())
            .collect::<Vec<_>>(),
    );

    let group = "bench-inputs-20";
    // From parsed values (the peer below writes parsed values too), and from JSON text.
    cases.push(case(group, "gcx-encode/agentwire", gcx_bytes, move || {
        for ((tool, _), value) in inputs.iter().zip(parsed) {
            black_box(gcx::encode_tool(tool, value, options).unwrap());
        }
    }));
    cases.push(case(
        group,
        "gcx-encode-from-json/agentwire",
        gcx_bytes,
        move || {
            for (tool, json) in inputs {
                black_box(encode_tool_json(tool, json, options));
            }
        },
    ));
    cases.push(case(group, "gcx-decode/agentwire", gcx_bytes, move || {
        for payload in encoded {
            black_box(
                gcx::decode(payload, &DecodeOptions::default())
                    .into_borrowed()
                    .unwrap(),
            );
        }
    }));
    cases.push(case(
        group,
        "json-decode/serde_json",
        json_bytes,
        move || {
            for (_, json) in inputs {
                black_box(serde_json::from_str::<J>(json).unwrap());
            }
        },
    ));
    cases.push(case(
        group,
        "json-encode/serde_json",
        json_bytes,
        move || {
            for value in values {
                black_box(serde_json::to_string(value).unwrap());
            }
        },
    ));
}

/// The corpus graph for the `gcf` crate: its serde names are snake_case.
fn gcf_crate_payload(graph: &J) -> gcf::Payload {
    let snake = |key: &str| -> String {
        key.chars()
            .flat_map(|c| {
                if c.is_ascii_uppercase() {
                    vec!['_', c.to_ascii_lowercase()]
                } else {
                    vec![c]
                }
            })
            .collect()
    };
    fn rename(v: &J, snake: &dyn Fn(&str) -> String) -> J {
        match v {
            J::Object(map) => J::Object(
                map.iter()
                    .map(|(k, v)| (snake(k), rename(v, snake)))
                    .collect(),
            ),
            J::Array(items) => J::Array(items.iter().map(|v| rename(v, snake)).collect()),
            other => other.clone(),
        }
    }
    serde_json::from_value(rename(graph, &snake)).expect("gcf crate payload")
}

/// GCF v1.1 and GCB1 against the `gcf` crate on the 500-symbol graph. Throughput counts the
/// bytes of each format's encoding of the same graph.
fn graph(cases: &mut Vec<Case>) {
    let text = String::from_utf8(corpus("graph-500.json")).unwrap();
    let value = agentwire::json::parse(&text).unwrap();
    let payload = keep(Payload::from_value(&value).unwrap());
    let gcf_text = keep(agentwire::gcf::v1::encode(payload).unwrap());
    let gcb_bytes = keep(agentwire::gcb::encode(payload));
    let peer = keep(gcf_crate_payload(&serde_json::from_str(&text).unwrap()));
    let peer_text = keep(gcf::encode(peer));

    let group = "graph-500";
    cases.push(case(
        group,
        "gcf-encode/agentwire",
        gcf_text.len(),
        move || agentwire::gcf::v1::encode(black_box(payload)).unwrap(),
    ));
    // Borrowed (names sliced from the input, edges by symbol index: the fast path) and owned
    // (a String per name and per edge end, what the gcf crate returns).
    cases.push(case(
        group,
        "gcf-decode/agentwire",
        gcf_text.len(),
        move || agentwire::gcf::v1::decode(black_box(gcf_text), &Default::default()).unwrap(),
    ));
    cases.push(case(
        group,
        "gcf-decode-owned/agentwire",
        gcf_text.len(),
        move || {
            agentwire::gcf::v1::decode(black_box(gcf_text), &Default::default())
                .unwrap()
                .into_payload()
        },
    ));
    cases.push(case(
        group,
        "gcb-encode/agentwire",
        gcb_bytes.len(),
        move || agentwire::gcb::encode(black_box(payload)),
    ));
    cases.push(case(
        group,
        "gcb-decode/agentwire",
        gcb_bytes.len(),
        move || agentwire::gcb::decode(black_box(gcb_bytes), &Default::default()).unwrap(),
    ));
    cases.push(case(
        group,
        "gcb-decode-owned/agentwire",
        gcb_bytes.len(),
        move || {
            agentwire::gcb::decode(black_box(gcb_bytes), &Default::default())
                .unwrap()
                .into_payload()
        },
    ));
    cases.push(case(
        group,
        "gcf-encode/gcf-crate",
        peer_text.len(),
        move || gcf::encode(black_box(peer)),
    ));
    cases.push(case(
        group,
        "gcf-decode/gcf-crate",
        peer_text.len(),
        move || gcf::decode(black_box(peer_text)).unwrap(),
    ));
}

/// GCF v3.5.3 graph profile against the `gcf` crate on the same 500-symbol graph: both write
/// the same text (checked), and both decoders read that text. Throughput counts its bytes.
fn gcf3_graph(cases: &mut Vec<Case>) {
    let text = String::from_utf8(corpus("graph-500.json")).unwrap();
    let value = agentwire::json::parse(&text).unwrap();
    let payload = keep(Payload::from_value(&value).unwrap());
    let v3_text = keep(agentwire::gcf::v3::graph::encode(payload).unwrap());
    let peer = keep(gcf_crate_payload(&serde_json::from_str(&text).unwrap()));
    assert!(
        gcf::encode(peer) == *v3_text,
        "agentwire and the gcf crate must write the same graph text"
    );

    let group = "gcf3-graph-500";
    let bytes = v3_text.len();
    cases.push(case(group, "encode/agentwire", bytes, move || {
        agentwire::gcf::v3::graph::encode(black_box(payload)).unwrap()
    }));
    cases.push(case(group, "decode/agentwire", bytes, move || {
        agentwire::gcf::v3::decode(black_box(v3_text.as_bytes()), &Default::default()).unwrap()
    }));
    // In place: names borrowed from the text, edge endpoints as symbol indices.
    cases.push(case(group, "decode-view/agentwire", bytes, move || {
        agentwire::gcf::v3::graph::decode_view(black_box(v3_text)).unwrap()
    }));
    cases.push(case(group, "encode/gcf-crate", bytes, move || {
        gcf::encode(black_box(peer))
    }));
    cases.push(case(group, "decode/gcf-crate", bytes, move || {
        gcf::decode(black_box(v3_text)).unwrap()
    }));
}

/// GCF v3 generic profile (v3.6.0, the default) against the gcf crate 3.1.0, its reference:
/// the same bytes (asserted here; tests/gcf36_differential.rs checks it widely), on the
/// 500-symbol graph as plain JSON (tables) and the 20 bench responses as one array (mixed
/// shapes). Throughput counts compact JSON bytes.
fn gcf_generic(cases: &mut Vec<Case>) {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/gcx1");
    let vectors: J =
        serde_json::from_slice(&std::fs::read(fixtures.join("bench.json")).unwrap()).unwrap();
    let responses: Vec<J> = vectors["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| serde_json::from_str(v["input"]["json"].as_str().unwrap()).unwrap())
        .collect();
    let inputs = [
        (
            "gcf-generic-graph-500",
            String::from_utf8(corpus("graph-500.json")).unwrap(),
        ),
        ("gcf-generic-bench-20", J::Array(responses).to_string()),
    ];
    for (group, json) in inputs {
        let value = keep(agentwire::json::parse(&json).unwrap());
        let text = keep(agentwire::gcf::v3::encode_generic(value).unwrap());
        let peer_value: &J = keep(serde_json::from_str(&json).unwrap());
        let peer_text = keep(gcf::encode_generic(peer_value).unwrap());
        assert_eq!(text, peer_text, "{group}: the gcf crate writes other bytes");
        assert!(agentwire::gcf::v3::round_trip_equal(
            value,
            &agentwire::gcf::v3::decode_generic(text).unwrap()
        ));
        let bytes = json.len();
        cases.push(case(group, "encode/agentwire", bytes, move || {
            agentwire::gcf::v3::encode_generic(black_box(value)).unwrap()
        }));
        cases.push(case(group, "decode/agentwire", bytes, move || {
            agentwire::gcf::v3::decode_generic(black_box(text)).unwrap()
        }));
        cases.push(case(group, "encode/gcf-crate", bytes, move || {
            gcf::encode_generic(black_box(peer_value)).unwrap()
        }));
        cases.push(case(group, "decode/gcf-crate", bytes, move || {
            gcf::decode_generic(black_box(peer_text)).unwrap()
        }));
    }
}

/// The corpus rows pretty-printed (`JSON.stringify(rows, null, 2)`-like), cut to `bytes`.
fn pretty_corpus(bytes: usize) -> String {
    let value: J = serde_json::from_str(corpus_text("gcx-10mb.json")).expect("corpus JSON");
    let mut text = serde_json::to_string_pretty(&value).expect("pretty JSON");
    text.truncate(char_boundary_at_or_before(&text, bytes));
    text
}

/// Prose and code: the README, the docs and the core's GCX1 sources, about 1 MB.
fn prose_and_code() -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut text = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let mut files: Vec<PathBuf> = ["docs", "core/src/gcx", "core/src/gcf/v3/generic_encode"]
        .iter()
        .flat_map(|dir| {
            std::fs::read_dir(root.join(dir))
                .expect(dir)
                .flatten()
                .map(|e| e.path())
        })
        .filter(|p| p.extension().is_some_and(|e| e == "md" || e == "rs"))
        .collect();
    files.sort();
    for file in files {
        text.push_str(&std::fs::read_to_string(file).expect("a text file"));
    }
    text
}

/// Exact token counts: agentwire's counter on the 10 MB pretty-printed corpus (MB/s), and
/// against the other exact Rust counters on 1 MB of it and on prose and code (the others take
/// up to seconds per call on 10 MB, too slow for interleaved rounds).
fn tokens(cases: &mut Vec<Case>) {
    use agentwire::tokens::Tokenizer;
    let json_10mb: &'static str = keep(pretty_corpus(10 << 20));
    let json_1mb: &'static str = &json_10mb[..char_boundary_at_or_before(json_10mb, 1 << 20)];
    let prose: &'static str = keep(prose_and_code());
    let cl100k = keep(Tokenizer::cl100k_base());
    let o200k = keep(Tokenizer::o200k_base());
    cases.push(case(
        "tokens-json-10mb",
        "count-cl100k/agentwire",
        json_10mb.len(),
        move || cl100k.count(black_box(json_10mb)),
    ));
    cases.push(case(
        "tokens-json-10mb",
        "count-o200k/agentwire",
        json_10mb.len(),
        move || o200k.count(black_box(json_10mb)),
    ));
    let oracles = [
        (
            "cl100k",
            cl100k,
            keep(tiktoken_rs::cl100k_base().unwrap()),
            keep(bpe_openai::cl100k_base()),
            tiktoken::get_encoding("cl100k_base").unwrap(),
        ),
        (
            "o200k",
            o200k,
            keep(tiktoken_rs::o200k_base().unwrap()),
            keep(bpe_openai::o200k_base()),
            tiktoken::get_encoding("o200k_base").unwrap(),
        ),
    ];
    for (name, ours, tiktoken_rs, bpe_openai, tiktoken) in oracles {
        for (data, text) in [("json-1mb", json_1mb), ("prose-code", prose)] {
            let expected = ours.count(text);
            assert_eq!(
                tiktoken_rs.encode_ordinary(text).len(),
                expected,
                "{name} {data}: tiktoken-rs"
            );
            assert_eq!(
                bpe_openai.count(text),
                expected,
                "{name} {data}: bpe-openai"
            );
            assert_eq!(tiktoken.count(text), expected, "{name} {data}: tiktoken");
            let group: &'static str = Box::leak(format!("tokens-{data}-{name}").into_boxed_str());
            cases.push(case(group, "count/agentwire", text.len(), move || {
                ours.count(black_box(text))
            }));
            cases.push(case(group, "count/tiktoken-rs", text.len(), move || {
                tiktoken_rs.encode_ordinary(black_box(text)).len()
            }));
            cases.push(case(group, "count/bpe-openai", text.len(), move || {
                bpe_openai.count(black_box(text))
            }));
            cases.push(case(group, "count/tiktoken", text.len(), move || {
                tiktoken.count(black_box(text))
            }));
        }
    }
}

/// Compaction of a pretty-printed JSON tool result of about 106 KB (bench/corpus/tool-result-106kb.json),
/// with exact cl100k counts, as agentwire-mcp calls it.
fn compact(cases: &mut Vec<Case>) {
    use agentwire::compact::{Options, compact_json};
    use agentwire::tokens::Tokenizer;
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/tool-result-106kb.json");
    let text: &'static str =
        keep(std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())));
    let cl100k = keep(Tokenizer::cl100k_base());
    let options = Options {
        tool: "read_graph",
        ..Options::default()
    };
    assert_ne!(
        compact_json(text, &options, cl100k).unwrap().format,
        agentwire::compact::Format::Input
    );
    cases.push(case(
        "compact-106kb",
        "compact/agentwire",
        text.len(),
        move || compact_json(black_box(text), &options, cl100k).unwrap(),
    ));
}

/// The largest char boundary of `text` at or before `at` (`str::floor_char_boundary` is newer
/// than the workspace's rust-version).
fn char_boundary_at_or_before(text: &str, at: usize) -> usize {
    (0..=at.min(text.len()))
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0)
}

/// TOON (spec 4.0) on the 8 datasets of TOON's own token benchmark (`bench/data/toon/`, 1.2 MB
/// of JSON): one call encodes all eight values (or decodes all eight texts), with the comma
/// delimiter (`toon-8`) and the tab (`toon-8-tab`). Throughput counts the TOON text's bytes in
/// both directions. The texts are checked to decode to the values first.
fn toon(cases: &mut Vec<Case>) {
    use agentwire::toon::{self, DecodeOptions, Delimiter, EncodeOptions};
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/toon");
    let names = [
        "analytics",
        "event-logs",
        "github",
        "keyed",
        "nested-config",
        "nested-group",
        "nested",
        "tabular",
    ];
    let values: &'static [agentwire::json::Value] = keep(
        names
            .iter()
            .map(|name| {
                let path = dir.join(format!("{name}.json"));
                let text = std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                agentwire::json::parse(&text).unwrap()
            })
            .collect::<Vec<_>>(),
    );
    for (group, delimiter) in [("toon-8", Delimiter::Comma), ("toon-8-tab", Delimiter::Tab)] {
        let options = keep(EncodeOptions {
            delimiter,
            ..EncodeOptions::default()
        });
        let texts: &'static [String] = keep(
            values
                .iter()
                .map(|value| toon::encode(value, options).unwrap())
                .collect::<Vec<_>>(),
        );
        for (value, text) in values.iter().zip(texts) {
            let back = toon::decode(text, &DecodeOptions::default()).unwrap();
            assert!(
                agentwire::compact::js_equal(value, &back),
                "a TOON dataset must decode to its value"
            );
        }
        let bytes = texts.iter().map(String::len).sum();
        cases.push(case(group, "encode/agentwire", bytes, move || {
            values
                .iter()
                .map(|value| toon::encode(black_box(value), options).unwrap().len())
                .sum::<usize>()
        }));
        cases.push(case(group, "decode/agentwire", bytes, move || {
            for text in texts {
                black_box(toon::decode(black_box(text), &DecodeOptions::default()).unwrap());
            }
        }));
    }
}
