//! Graph-profile operations of the GCF v3 suite: buffered encode, sessions, deltas, pack
//! roots and streaming encode. Texts compare byte for byte; snapshots structurally (the
//! fixture's members must be in the result, numbers by value).

use agentwire::Error;
use agentwire::gcf::v3::graph::{self, GraphSession, GraphSessionDecoder, StreamOptions};
use agentwire::gcf::v3::{self, Document, GraphDelta};
use agentwire::gcf::{DeltaPayload, Payload};
use serde_json::Value as J;

use super::{Fixture, expect_error};
use crate::compare::{Members, expect_json};
use crate::support::{from_value, same_text, to_value};

fn fail(e: Error) -> String {
    format!("{}: {e}", e.code())
}

fn payload(j: &J) -> Result<Payload, String> {
    Payload::from_value(&to_value(j)).map_err(fail)
}

/// The qualified names of a payload, sorted (decode results compare as sets of names).
fn names(p: &Payload) -> Vec<String> {
    let mut names: Vec<String> = p.symbols.iter().map(|s| s.qualified_name.clone()).collect();
    names.sort();
    names
}

/// `encode` of a graph payload: byte-exact, and the text decodes back to the same symbols
/// and (declared) edges.
pub(super) fn encode(f: &Fixture, expected: &str) -> Result<(), String> {
    let input = payload(&f.json("input")?)?;
    let text = graph::encode(&input).map_err(fail)?;
    same_text("encode", expected, &text)?;
    let back = v3::decode_graph(&text).map_err(|e| format!("round trip: {}", fail(e)))?;
    if names(&back) != names(&input) || back.edges.len() > input.edges.len() {
        return Err(format!(
            "round trip: symbols {:?} / {} edges from {:?} / {} edges",
            names(&back),
            back.edges.len(),
            names(&input),
            input.edges.len()
        ));
    }
    Ok(())
}

/// `session`: each call's output with one shared session; a consumer session decodes every
/// output back to the call's symbols (bare references resolved).
pub(super) fn session(f: &Fixture) -> Result<(), String> {
    let calls = match f.json("calls")? {
        J::Array(calls) => calls,
        other => return Err(format!("calls is not an array: {other}")),
    };
    let mut producer = GraphSession::new();
    let mut consumer = GraphSessionDecoder::new();
    for (i, call) in calls.iter().enumerate() {
        let input = payload(call.get("input").ok_or("call without input")?)?;
        let expected = call
            .get("expected")
            .and_then(J::as_str)
            .ok_or("call without expected text")?;
        let text = producer.encode(&input).map_err(fail)?;
        same_text(&format!("call {i}"), expected, &text)?;
        let decoded = consumer
            .decode(&text)
            .map_err(|e| format!("call {i}: consumer decode: {}", fail(e)))?;
        if names(&decoded) != names(&input) || decoded.edges.len() != input.edges.len() {
            return Err(format!(
                "call {i}: consumer decoded {:?} / {} edges, sent {:?} / {} edges",
                names(&decoded),
                decoded.edges.len(),
                names(&input),
                input.edges.len()
            ));
        }
    }
    Ok(())
}

/// A wire delta (the fixture's `input` text).
fn wire_delta(f: &Fixture) -> Result<GraphDelta, String> {
    match v3::decode(f.string("input")?.as_bytes(), &Default::default()).map_err(fail)? {
        Document::GraphDelta(delta) => Ok(delta),
        other => Err(format!("decode: expected a graph delta, got {other:?}")),
    }
}

/// Applies the fixture's wire delta to its `base_snapshot`.
fn apply(f: &Fixture) -> Result<Result<Payload, Error>, String> {
    let delta = wire_delta(f)?;
    let base = payload(&f.json("base_snapshot")?)?;
    Ok(graph::apply_delta(&base, &delta))
}

/// `delta`: encode a delta object byte-exactly, or apply a wire delta to `base_snapshot` and
/// compare the result with `expected_snapshot` and the roots.
pub(super) fn delta(f: &Fixture) -> Result<(), String> {
    let input = f.json("input")?;
    if input.is_object() {
        let delta = DeltaPayload::from_value(&to_value(&input)).map_err(fail)?;
        let text = graph::encode_delta(&delta).map_err(fail)?;
        return same_text("encode_delta", &f.string("expected")?, &text);
    }
    let wire = wire_delta(f)?;
    for (key, got) in [("base_root", &wire.base_root), ("new_root", &wire.new_root)] {
        if f.has(key) {
            same_text(key, &f.string(key)?, got)?;
        }
    }
    let result = apply(f)?.map_err(|e| format!("apply: {}", fail(e)))?;
    let expected = f.json("expected_snapshot")?;
    let got = from_value(&result.to_value());
    expect_json("apply (subset)", &expected, &got, Members::Subset)?;
    same_text("pack_root", &wire.new_root, &result.pack_root)
}

/// `delta-verify`: applying the delta must fail with `expectedError` (`root_mismatch`).
pub(super) fn delta_verify(f: &Fixture) -> Result<(), String> {
    expect_error(&f.string("expectedError")?, apply(f)?)
}

/// `pack-root`: canonical bytes and the `sha256:` root.
pub(super) fn pack_root(f: &Fixture) -> Result<(), String> {
    let snapshot = payload(&f.json("input")?)?;
    let bytes = graph::pack_root_canonical(&snapshot.symbols, &snapshot.edges).map_err(fail)?;
    same_text("canonical bytes", &f.string("canonicalBytes")?, &bytes)?;
    let root = graph::pack_root(&snapshot.symbols, &snapshot.edges).map_err(fail)?;
    same_text("pack root", &f.string("expected")?, &root)
}

/// The fixture's streaming options (`labeledTrailerCounts`); unknown ones fail.
fn stream_options(f: &Fixture) -> Result<StreamOptions, String> {
    let mut options = StreamOptions::default();
    if !f.has("options") {
        return Ok(options);
    }
    let J::Object(map) = f.json("options")? else {
        return Err("options is not an object".into());
    };
    for (key, value) in map {
        match (key.as_str(), &value) {
            ("labeledTrailerCounts", J::Bool(b)) => options.labeled_counts = *b,
            _ => return Err(format!("unsupported stream option {key}={value}")),
        }
    }
    Ok(options)
}

/// `graph-stream-encode`: streaming output with the trailer, byte-exact; it decodes back.
pub(super) fn stream_encode(f: &Fixture) -> Result<(), String> {
    let input = payload(&f.json("input")?)?;
    let text = graph::encode_stream(&input, &stream_options(f)?).map_err(fail)?;
    same_text("stream encode", &f.string("expected")?, &text)?;
    let back = v3::decode_graph(&text).map_err(|e| format!("round trip: {}", fail(e)))?;
    if names(&back) != names(&input) {
        return Err(format!("round trip: symbols {:?}", names(&back)));
    }
    Ok(())
}
