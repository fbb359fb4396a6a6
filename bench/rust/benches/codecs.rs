//! agentwire against the alternatives, same inputs, same run: GCX1 decode and encode of the
//! ~10 MB corpus against serde_json on the same rows, and GCF/GCB1 against the `gcf` crate on
//! a 500-symbol graph. Throughput is in input bytes. The corpus comes from
//! `node bench/corpus/generate.mjs` (`make bench` runs it first).

use std::hint::black_box;
use std::path::PathBuf;

use agentwire::gcf::Payload;
use agentwire::gcx::{self, Cell, DecodeOptions, EncodeOptions, Encoder, Header, document};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::Value as J;

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
    document::write_sections_json(&mut out, &sections).unwrap();
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

fn gcx1(c: &mut Criterion) {
    let payload = String::from_utf8(corpus("gcx-10mb.gcx")).unwrap();
    let json = String::from_utf8(corpus("gcx-10mb.json")).unwrap();
    let json_value: J = serde_json::from_str(&json).unwrap();
    let document: J = serde_json::from_slice(&corpus("gcx-10mb.sections.json")).unwrap();
    let sections = sections(&document);
    // Not assert_eq!: a mismatch would print ten megabytes.
    assert!(
        encode_gcx(&sections, payload.len()) == payload,
        "the benchmark must encode the corpus payload (regenerate it with `make bench`)"
    );

    let mut group = c.benchmark_group("gcx1-10mb");
    group.sample_size(20);
    group.throughput(Throughput::Bytes(payload.len() as u64));
    // In place (borrowed values, the fast path), owned rows (a String per value), and the
    // JSON text every binding hands to JavaScript.
    group.bench_function("decode/agentwire", |b| {
        b.iter(|| {
            gcx::decode(black_box(&payload), &DecodeOptions::default())
                .into_borrowed()
                .unwrap()
        })
    });
    group.bench_function("decode-owned/agentwire", |b| {
        b.iter(|| {
            gcx::decode(black_box(&payload), &DecodeOptions::default())
                .into_sections()
                .unwrap()
        })
    });
    group.bench_function("decode-to-json/agentwire", |b| {
        b.iter(|| decode_to_json(black_box(&payload)))
    });
    group.bench_function("encode/agentwire", |b| {
        b.iter(|| encode_gcx(black_box(&sections), payload.len()))
    });
    // The generic fallback (gcx-go EncodeAny) on the same rows as parsed JSON objects, one
    // call per section: key union, sorting and cell rendering on top of the encoder.
    let generic_input: Vec<(String, agentwire::json::Value)> = agentwire::json::parse(&json)
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
        .collect();
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
    group.throughput(Throughput::Bytes(encode_generic(&generic_input) as u64));
    group.bench_function("encode-generic/agentwire", |b| {
        b.iter(|| encode_generic(black_box(&generic_input)))
    });
    group.finish();

    let mut group = c.benchmark_group("json-10mb");
    group.sample_size(20);
    group.throughput(Throughput::Bytes(json.len() as u64));
    group.bench_function("decode/serde_json", |b| {
        b.iter(|| serde_json::from_str::<J>(black_box(&json)).unwrap())
    });
    group.bench_function("encode/serde_json", |b| {
        b.iter(|| serde_json::to_string(black_box(&json_value)).unwrap())
    });
    // agentwire's own JSON reader: what every JS call that passes values goes through.
    group.bench_function("decode/agentwire-json", |b| {
        b.iter(|| agentwire::json::parse(black_box(&json)).unwrap())
    });
    group.finish();
}

/// The 20 bench responses (tests/fixtures/gcx1/bench-inputs): GCX1 encode of each JSON text
/// (tool layout or generic fallback, as the scorecard does) and decode of the result, against
/// serde_json reading and writing the same JSON. Throughput counts each format's own bytes.
fn bench_inputs(c: &mut Criterion) {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/gcx1");
    let vectors: J =
        serde_json::from_slice(&std::fs::read(fixtures.join("bench.json")).unwrap()).unwrap();
    let inputs: Vec<(String, String)> = vectors["vectors"]
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
        .collect();
    assert_eq!(inputs.len(), 20);
    let options = gcx::ToolOptions::default();
    let encoded: Vec<String> = inputs
        .iter()
        .map(|(tool, json)| encode_tool_json(tool, json, &options))
        .collect();
    let values: Vec<J> = inputs
        .iter()
        .map(|(_, json)| serde_json::from_str(json).unwrap())
        .collect();
    let json_bytes: usize = inputs.iter().map(|(_, json)| json.len()).sum();
    let gcx_bytes: usize = encoded.iter().map(String::len).sum();

    let parsed: Vec<agentwire::json::Value> = inputs
        .iter()
        .map(|(_, json)| agentwire::json::parse(json).unwrap())
        .collect();

    let mut group = c.benchmark_group("bench-inputs-20");
    group.throughput(Throughput::Bytes(gcx_bytes as u64));
    // From parsed values (the peer below writes parsed values too), and from JSON text.
    group.bench_function("gcx-encode/agentwire", |b| {
        b.iter(|| {
            for ((tool, _), value) in inputs.iter().zip(&parsed) {
                black_box(gcx::encode_tool(tool, value, &options).unwrap());
            }
        })
    });
    group.bench_function("gcx-encode-from-json/agentwire", |b| {
        b.iter(|| {
            for (tool, json) in &inputs {
                black_box(encode_tool_json(tool, json, &options));
            }
        })
    });
    group.bench_function("gcx-decode/agentwire", |b| {
        b.iter(|| {
            for payload in &encoded {
                black_box(
                    gcx::decode(payload, &DecodeOptions::default())
                        .into_borrowed()
                        .unwrap(),
                );
            }
        })
    });
    group.throughput(Throughput::Bytes(json_bytes as u64));
    group.bench_function("json-decode/serde_json", |b| {
        b.iter(|| {
            for (_, json) in &inputs {
                black_box(serde_json::from_str::<J>(json).unwrap());
            }
        })
    });
    group.bench_function("json-encode/serde_json", |b| {
        b.iter(|| {
            for value in &values {
                black_box(serde_json::to_string(value).unwrap());
            }
        })
    });
    group.finish();
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

fn graph(c: &mut Criterion) {
    let text = String::from_utf8(corpus("graph-500.json")).unwrap();
    let value = agentwire::json::parse(&text).unwrap();
    let payload = Payload::from_value(&value).unwrap();
    let gcf_text = agentwire::gcf::v1::encode(&payload).unwrap();
    let gcb_bytes = agentwire::gcb::encode(&payload);
    let peer = gcf_crate_payload(&serde_json::from_str(&text).unwrap());
    let peer_text = gcf::encode(&peer);

    // Throughput counts the bytes of each format's encoding of the same graph.
    let mut group = c.benchmark_group("graph-500");
    group.throughput(Throughput::Bytes(gcf_text.len() as u64));
    group.bench_function("gcf-encode/agentwire", |b| {
        b.iter(|| agentwire::gcf::v1::encode(black_box(&payload)).unwrap())
    });
    // Borrowed (names sliced from the input, edges by symbol index: the fast path) and owned
    // (a String per name and per edge end, what the gcf crate returns).
    group.bench_function("gcf-decode/agentwire", |b| {
        b.iter(|| agentwire::gcf::v1::decode(black_box(&gcf_text), &Default::default()).unwrap())
    });
    group.bench_function("gcf-decode-owned/agentwire", |b| {
        b.iter(|| {
            agentwire::gcf::v1::decode(black_box(&gcf_text), &Default::default())
                .unwrap()
                .into_payload()
        })
    });
    group.throughput(Throughput::Bytes(gcb_bytes.len() as u64));
    group.bench_function("gcb-encode/agentwire", |b| {
        b.iter(|| agentwire::gcb::encode(black_box(&payload)))
    });
    group.bench_function("gcb-decode/agentwire", |b| {
        b.iter(|| agentwire::gcb::decode(black_box(&gcb_bytes), &Default::default()).unwrap())
    });
    group.bench_function("gcb-decode-owned/agentwire", |b| {
        b.iter(|| {
            agentwire::gcb::decode(black_box(&gcb_bytes), &Default::default())
                .unwrap()
                .into_payload()
        })
    });
    group.throughput(Throughput::Bytes(peer_text.len() as u64));
    group.bench_function("gcf-encode/gcf-crate", |b| {
        b.iter(|| gcf::encode(black_box(&peer)))
    });
    group.bench_function("gcf-decode/gcf-crate", |b| {
        b.iter(|| gcf::decode(black_box(&peer_text)).unwrap())
    });
    group.finish();
}

/// GCF v3.5.3 graph profile against the `gcf` crate on the same 500-symbol graph: both write
/// the same text (checked), and both decoders read that text. Throughput counts its bytes.
fn gcf3_graph(c: &mut Criterion) {
    let text = String::from_utf8(corpus("graph-500.json")).unwrap();
    let value = agentwire::json::parse(&text).unwrap();
    let payload = Payload::from_value(&value).unwrap();
    let v3_text = agentwire::gcf::v3::graph::encode(&payload).unwrap();
    let peer = gcf_crate_payload(&serde_json::from_str(&text).unwrap());
    assert!(
        gcf::encode(&peer) == v3_text,
        "agentwire and the gcf crate must write the same graph text"
    );

    let mut group = c.benchmark_group("gcf3-graph-500");
    group.throughput(Throughput::Bytes(v3_text.len() as u64));
    group.bench_function("encode/agentwire", |b| {
        b.iter(|| agentwire::gcf::v3::graph::encode(black_box(&payload)).unwrap())
    });
    group.bench_function("decode/agentwire", |b| {
        b.iter(|| {
            agentwire::gcf::v3::decode(black_box(v3_text.as_bytes()), &Default::default()).unwrap()
        })
    });
    // In place: names borrowed from the text, edge endpoints as symbol indices.
    group.bench_function("decode-view/agentwire", |b| {
        b.iter(|| agentwire::gcf::v3::graph::decode_view(black_box(&v3_text)).unwrap())
    });
    group.bench_function("encode/gcf-crate", |b| {
        b.iter(|| gcf::encode(black_box(&peer)))
    });
    group.bench_function("decode/gcf-crate", |b| {
        b.iter(|| gcf::decode(black_box(&v3_text)).unwrap())
    });
    group.finish();
}

/// GCF v3 generic profile (v3.6.0, the default) against the gcf crate 3.1.0, its reference:
/// the same bytes (asserted here; tests/gcf36_differential.rs checks it widely), on the
/// 500-symbol graph as plain JSON (tables) and the 20 bench responses as one array (mixed
/// shapes). Throughput counts compact JSON bytes.
fn gcf_generic(c: &mut Criterion) {
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
    for (name, json) in &inputs {
        let mut group = c.benchmark_group(*name);
        let value = agentwire::json::parse(json).unwrap();
        let text = agentwire::gcf::v3::encode_generic(&value).unwrap();
        let peer_value: J = serde_json::from_str(json).unwrap();
        let peer_text = gcf::encode_generic(&peer_value).unwrap();
        assert_eq!(text, peer_text, "{name}: the gcf crate writes other bytes");
        assert!(agentwire::gcf::v3::round_trip_equal(
            &value,
            &agentwire::gcf::v3::decode_generic(&text).unwrap()
        ));
        group.throughput(Throughput::Bytes(json.len() as u64));
        group.bench_function("encode/agentwire", |b| {
            b.iter(|| agentwire::gcf::v3::encode_generic(black_box(&value)).unwrap())
        });
        group.bench_function("decode/agentwire", |b| {
            b.iter(|| agentwire::gcf::v3::decode_generic(black_box(&text)).unwrap())
        });
        group.bench_function("encode/gcf-crate", |b| {
            b.iter(|| gcf::encode_generic(black_box(&peer_value)).unwrap())
        });
        group.bench_function("decode/gcf-crate", |b| {
            b.iter(|| gcf::decode_generic(black_box(&peer_text)).unwrap())
        });
        group.finish();
    }
}

criterion_group!(benches, gcx1, bench_inputs, graph, gcf3_graph, gcf_generic);
criterion_main!(benches);
