//! GCF's JS shapes beyond the core's JSON forms (`Payload::to_value` and the rest): the graph
//! payload written straight to a result tape, the options of the JS functions (`version`,
//! `numbers`, `largeInt`, `expect`, …), `gcf.decodeAny`'s result, pack roots, deltas, and the
//! state of `gcf.keyed.Session`.

use agentwire::gcf::v3::{self, Document, SpecVersion};
use agentwire::gcf::{self, Edge, Payload, PayloadRef, Symbol, Version};
use agentwire::json::{self, Map, Number, ParseOptions, Value, WriteOptions};
use agentwire::{Error, ErrorKind, Result};

use crate::shapes::number::MAX_SAFE_INTEGER;
use crate::transfer::to_js::TapeWriter;

/// The payload as [`Payload::to_value`] shapes it, written straight to a JS result tape (the
/// decode hot path: no value tree; a test in `js::graph` checks that both agree).
pub fn write_payload(writer: &mut TapeWriter<'_>, payload: &Payload) {
    let top = writer.shape(&gcf::PAYLOAD_KEYS);
    writer.object(top);
    writer.str(&payload.tool);
    writer.i64(payload.token_budget);
    writer.i64(payload.tokens_used);
    writer.str(&payload.pack_root);
    writer.array(payload.symbols.len());
    for symbol in &payload.symbols {
        write_symbol(writer, symbol);
    }
    writer.array(payload.edges.len());
    for edge in &payload.edges {
        write_edge(writer, edge);
    }
}

fn write_symbol(writer: &mut TapeWriter<'_>, symbol: &Symbol) {
    let shape = writer.shape(&gcf::SYMBOL_KEYS);
    writer.object(shape);
    writer.str(&symbol.qualified_name);
    writer.str(&symbol.kind);
    writer.f64(symbol.score);
    writer.str(&symbol.provenance);
    writer.i64(symbol.distance);
    writer.str(&symbol.signature);
    let components = writer.shape(&gcf::COMPONENTS_KEYS);
    writer.object(components);
    let c = &symbol.components;
    for v in [c.blast_radius, c.confidence, c.recency, c.distance] {
        writer.f64(v);
    }
}

fn write_edge(writer: &mut TapeWriter<'_>, edge: &Edge) {
    let shape = writer.shape(&gcf::EDGE_KEYS);
    writer.object(shape);
    writer.str(&edge.source);
    writer.str(&edge.target);
    writer.str(&edge.edge_type);
    writer.str(&edge.status);
}

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidArgument, message)
}

/// How numbers of an encoder's input JSON text are read ([`input_value`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NumberModel {
    /// Every lexeme decides its type: integer lexemes are int64 (out of range beyond), any
    /// other lexeme is a double (SPEC §2.3.2). For JSON text.
    Literal,
    /// The text came from JavaScript numbers (binary64): integer lexemes past 2^53 − 1 are the
    /// doubles they were, not integers (SPEC §2.3.2, JavaScript encode rule).
    Host,
}

fn json_text(value: &Value) -> String {
    json::to_string(value, WriteOptions::PLAIN).unwrap_or_default()
}

/// Re-types literal numbers read from JavaScript text: integer lexemes beyond 2^53 − 1 become
/// doubles, every other literal its typed reading.
fn retype_host_numbers(value: &mut Value) {
    match value {
        Value::Number(n) => {
            if let Some(text) = n.as_literal() {
                let integer = !text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'));
                let parsed: f64 = text.parse().unwrap_or(f64::NAN);
                *n = if integer && parsed.abs() <= MAX_SAFE_INTEGER {
                    Number::from_i64(parsed as i64)
                } else {
                    Number::from_f64(parsed)
                };
            }
        }
        Value::Array(items) => items.iter_mut().for_each(retype_host_numbers),
        Value::Object(map) => {
            let members = std::mem::take(map);
            *map = members
                .into_iter()
                .map(|(k, mut v)| {
                    retype_host_numbers(&mut v);
                    (k, v)
                })
                .collect();
        }
        _ => {}
    }
}

/// The generic encoder's options from `{"version": "3.6.0" | "3.5.3", "lossless": bool}`
/// (default 3.6.0, byte parity with the gcf crate).
pub fn encode_options(options: &Value) -> Result<v3::EncodeOptions> {
    let version = match super::option_choice(options, "version", &["3.6.0", "3.5.3"])? {
        Some(name) => SpecVersion::from_name(name).unwrap_or_default(),
        None => SpecVersion::default(),
    };
    let lossless = match options.get("lossless") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            return Err(invalid(format!(
                "options.lossless: expected a boolean, got {}",
                json_text(other)
            )));
        }
    };
    Ok(v3::EncodeOptions { version, lossless })
}

/// JSON text read as the encoders' input, numbers by the `numbers` option.
pub fn input_value(json_text_in: &str, options: &Value) -> Result<Value> {
    let model = match super::option_choice(options, "numbers", &["literal", "host"])? {
        Some("host") => NumberModel::Host,
        _ => NumberModel::Literal,
    };
    let parse = ParseOptions {
        literal_numbers: true,
        ..ParseOptions::default()
    };
    let mut value = json::parse_with(json_text_in, &parse)?;
    if model == NumberModel::Host {
        retype_host_numbers(&mut value);
    }
    Ok(value)
}

/// GCF v3.6.0 value grouping: encodes an array of flat records grouped by one column
/// (options: `{key: field, group: field}`, both required).
pub fn encode_generic_grouped(value: &Value, options: &Value) -> Result<String> {
    let field = |name: &str| match options.get(name) {
        Some(Value::String(s)) => Ok(s.as_str()),
        other => Err(invalid(format!(
            "options.{name}: expected the name of a field (a string), got {}",
            other.map_or_else(|| "nothing".into(), json_text)
        ))),
    };
    v3::encode_generic_grouped(value, field("key")?, field("group")?)
}

/// What decoded integers beyond ±(2^53 − 1) become in JSON output for a JavaScript host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LargeInt {
    /// Written exactly (the host parses them approximately): Rust and CLI callers.
    Number,
    /// `GCF_OUT_OF_RANGE`: the JavaScript default (SPEC §2.3.2).
    Error,
    /// Written as decimal strings.
    String,
}

fn apply_large_int(value: &mut Value, policy: LargeInt) -> Result<()> {
    match value {
        Value::Number(n) if policy != LargeInt::Number => {
            let large = n
                .as_i64()
                .is_some_and(|v| v.unsigned_abs() > MAX_SAFE_INTEGER as u64);
            if large && let Some(digits) = large_int_text(n.as_i64().unwrap_or(0), policy)? {
                *value = Value::String(digits);
            }
        }
        Value::Array(items) => {
            for item in items {
                apply_large_int(item, policy)?;
            }
        }
        Value::Object(map) => {
            for v in map.values_mut() {
                apply_large_int(v, policy)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// An integer beyond JavaScript's exact range under `policy`: an error, its decimal text, or
/// (`LargeInt::Number`, or within range) nothing to do.
fn large_int_text(v: i64, policy: LargeInt) -> Result<Option<String>> {
    if policy == LargeInt::Number || v.unsigned_abs() <= MAX_SAFE_INTEGER as u64 {
        return Ok(None);
    }
    let digits = v.to_string();
    if policy == LargeInt::Error {
        return Err(Error::new(
            ErrorKind::GcfOutOfRange,
            format!(
                "out_of_range: integer {digits} is beyond JavaScript's exact range \
                 (±2^53 − 1); decode with {{largeInt: 'string'}} to get it as a string, \
                 or {{largeInt: 'number'}} to accept an approximate number"
            ),
        ));
    }
    Ok(Some(digits))
}

/// Decodes GCF of any version and profile (options: `{"largeInt": "number" | "error" |
/// "string"}`, default `number`; `{"version": "3.6.0" | "3.5.3" | "1.1"}` reads only that
/// version, where both v3 names read any v3 payload (one decoder reads both), default `auto`:
/// `GCF profile=` is v3, any other `GCF ` header 1.1). Returns `{"version": "1.1" | "3.5.3" |
/// "3.6.0", "profile": "graph" | "generic", "kind": "generic" | "graph" | "genericDelta" |
/// "graphDelta", "value": …}` (a v3 payload is 3.6.0 when it uses a 3.6.0 form: a constant
/// column or a grouped section), or with `{"expect": "generic" | "graph"}` only the value,
/// when the payload is a v3 one of that kind (`GCF_UNKNOWN_PROFILE` otherwise).
pub fn decode(input: &[u8], options: &Value) -> Result<Value> {
    match decode_payload_or_value(input, options)? {
        Decoded::Graph(payload) => Ok(payload.to_value()),
        Decoded::Value(value) => Ok(value),
    }
}

/// What [`decode_payload_or_value`] gives.
#[derive(Debug)]
pub enum Decoded {
    /// A graph payload, when `expect` is `graph` and its integers need no rewriting: the caller
    /// writes its shape itself (no value tree).
    Graph(agentwire::gcf::Payload),
    /// Anything else, as [`decode`] returns it.
    Value(Value),
}

/// [`decode`], with a graph payload (`expect: "graph"`) kept typed.
pub fn decode_payload_or_value(input: &[u8], options: &Value) -> Result<Decoded> {
    let large_int = match super::option_choice(options, "largeInt", &["number", "error", "string"])?
    {
        Some("error") => LargeInt::Error,
        Some("string") => LargeInt::String,
        _ => LargeInt::Number,
    };
    let versions = ["auto", "3.6.0", "3.5.3", "1.1"];
    let (version, document) = match super::option_choice(options, "version", &versions)? {
        Some("3.6.0" | "3.5.3") => {
            let (version, document) = v3::decode_versioned(input, &Default::default())?;
            (Version::V3(version), document)
        }
        Some("1.1") => {
            let text = v3::utf8(input)?;
            (
                Version::V1_1,
                Document::Graph(gcf::v1::decode(text, &Default::default())?.into_payload()),
            )
        }
        _ => gcf::decode_any(input, &gcf::DecodeOptions::default())?,
    };
    let profile = document.profile();
    let expect = super::option_choice(options, "expect", &["generic", "graph"])?;
    if let (Some("graph"), Version::V3(_), Document::Graph(payload)) = (expect, version, &document)
    {
        let integers = [payload.token_budget, payload.tokens_used]
            .into_iter()
            .chain(payload.symbols.iter().map(|s| s.distance));
        let mut rewrite = false;
        for v in integers {
            rewrite |= large_int_text(v, large_int)?.is_some();
        }
        if !rewrite && let Document::Graph(payload) = document {
            return Ok(Decoded::Graph(payload));
        }
    }
    let (kind, mut value) = match document {
        Document::Generic(value) => ("generic", value),
        Document::Graph(payload) => ("graph", payload.to_value()),
        Document::GraphDelta(delta) => ("graphDelta", delta.to_value()),
        Document::GenericDelta(delta) => ("genericDelta", delta.to_value()),
    };
    if large_int != LargeInt::Number {
        apply_large_int(&mut value, large_int)?;
    }
    if let Some(expected) = expect {
        if version == Version::V1_1 || kind != expected {
            return Err(Error::new(
                ErrorKind::GcfUnknownProfile,
                format!(
                    "unknown_profile: expected a GCF v3 {expected} payload, got {kind} (GCF {})",
                    version.as_str()
                ),
            ));
        }
        return Ok(Decoded::Value(value));
    }
    let mut map = Map::new();
    map.insert("version".into(), version.as_str().into());
    map.insert("profile".into(), profile.as_str().into());
    map.insert("kind".into(), kind.into());
    map.insert("value".into(), value);
    Ok(Decoded::Value(Value::Object(map)))
}

/// The graph profile's version: v1.1, or v3 (its graph profile is the same in 3.5.3 and
/// 3.6.0).
fn graph_version(options: &Value) -> Result<Version> {
    Ok(
        match super::option_choice(options, "version", &["3.6.0", "3.5.3", "3", "1.1"])? {
            Some("1.1") => Version::V1_1,
            _ => Version::V3(SpecVersion::default()),
        },
    )
}

/// Encodes a graph payload. Options: `{version: "3.6.0" | "3.5.3" | "1.1"}` (default v3,
/// whose graph profile 3.6.0 left as 3.5.3 had it), `{stream: true}` for the streaming form
/// and `{labeledCounts: true}` for its labeled trailer (v3 only).
pub fn encode_payload(payload: PayloadRef<'_>, options: &Value) -> Result<String> {
    let stream = matches!(options.get("stream"), Some(Value::Bool(true)));
    let labeled = matches!(options.get("labeledCounts"), Some(Value::Bool(true)));
    match graph_version(options)? {
        Version::V1_1 if stream || labeled => {
            Err(invalid("options: stream and labeledCounts need GCF v3"))
        }
        Version::V1_1 => gcf::v1::encode(&payload.into_payload()),
        Version::V3(_) if stream => v3::graph::encode_stream(
            &payload.into_payload(),
            &v3::StreamOptions {
                labeled_counts: labeled,
            },
        ),
        Version::V3(_) => v3::graph::encode_ref(&payload),
    }
}

fn root_value(root: String, canonical: String) -> Value {
    let mut map = Map::new();
    map.insert("root".into(), root.into());
    map.insert("canonical".into(), canonical.into());
    Value::Object(map)
}

/// The canonical pack root (`gcf-pack-root-v1`) of a graph snapshot `{symbols, edges}`:
/// `{root: "sha256:…", canonical: "<the hashed records>"}`.
pub fn graph_pack_root(snapshot: &Value) -> Result<Value> {
    let payload = Payload::from_value(snapshot)?;
    Ok(root_value(
        v3::graph::pack_root(&payload.symbols, &payload.edges)?,
        v3::graph::pack_root_canonical(&payload.symbols, &payload.edges)?,
    ))
}

/// Applies a graph delta (GCF text) to a base snapshot atomically and verifies `new_root`:
/// the new snapshot.
pub fn apply_graph_delta(base: &Value, delta_text: &str) -> Result<Value> {
    let base = Payload::from_value(base)?;
    let delta = match v3::decode(delta_text.as_bytes(), &Default::default())? {
        Document::GraphDelta(delta) => delta,
        other => {
            return Err(invalid(format!(
                "delta: expected a graph delta payload, got a {} {}",
                other.profile().as_str(),
                if matches!(other, Document::GenericDelta(_)) {
                    "delta"
                } else {
                    "payload"
                }
            )));
        }
    };
    Ok(v3::graph::apply_delta(&base, &delta)?.to_value())
}

/// The canonical pack root of a keyed set `{key, fields, rows, name?}`: `{root, canonical}`.
pub fn keyed_pack_root(set: &Value) -> Result<Value> {
    let set = v3::keyed::KeyedSet::from_value(set)?;
    Ok(root_value(
        v3::keyed::pack_root(&set)?,
        v3::keyed::canonical_records(&set)?.concat(),
    ))
}

/// The full delta-participating payload of a keyed set (options: `{tool}`).
pub fn keyed_encode_full(set: &Value, options: &Value) -> Result<String> {
    let set = v3::keyed::KeyedSet::from_value(set)?;
    v3::keyed::encode_full(&set, tool_option(options)?.as_deref())
}

/// A generic delta as GCF text or as its value.
#[derive(Debug)]
pub enum KeyedDelta<'a> {
    /// GCF delta text.
    Text(&'a str),
    /// The delta's value (`{"key", "fields", "baseRoot", …}`).
    Value(Value),
}

/// Applies a generic delta (GCF text, or the delta's value) to a base keyed set atomically
/// and verifies `new_root`: `{set, root}`.
pub fn keyed_apply_delta(base: &Value, delta: KeyedDelta<'_>) -> Result<Value> {
    let base = v3::keyed::KeyedSet::from_value(base)?;
    let delta = match delta {
        KeyedDelta::Value(value) => v3::GenericDelta::from_value(&value)?,
        KeyedDelta::Text(delta) => match v3::decode(delta.as_bytes(), &Default::default())? {
            Document::GenericDelta(delta) => delta,
            other => {
                return Err(invalid(format!(
                    "delta: expected a generic delta payload, got a {} payload",
                    other.profile().as_str()
                )));
            }
        },
    };
    let set = v3::keyed::apply_delta(&base, &delta)?;
    let mut map = Map::new();
    map.insert("root".into(), set.pack_root()?.into());
    map.insert("set".into(), set.to_value());
    Ok(Value::Object(map))
}

fn tool_option(options: &Value) -> Result<Option<String>> {
    match options.get("tool") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(invalid(format!(
            "options.tool: expected a string, got {}",
            other.type_name()
        ))),
    }
}

fn reanchor_policy(options: &Value) -> Result<v3::keyed::ReanchorPolicy> {
    let Some(policy) = options.get("policy").filter(|p| !matches!(p, Value::Null)) else {
        return Ok(v3::keyed::ReanchorPolicy::default());
    };
    match policy.get("mode").and_then(Value::as_str) {
        Some("fixedN") => match policy.get("n") {
            Some(Value::Number(n)) if n.as_u64().is_some_and(|n| n >= 1) => {
                Ok(v3::keyed::ReanchorPolicy::FixedN(
                    usize::try_from(n.as_u64().unwrap_or(1)).unwrap_or(usize::MAX),
                ))
            }
            _ => Err(invalid("options.policy.n: expected an integer ≥ 1")),
        },
        Some("sizeGuard") => Ok(v3::keyed::ReanchorPolicy::SizeGuard),
        _ => Err(invalid(
            "options.policy.mode: expected \"fixedN\" (with n) or \"sizeGuard\"",
        )),
    }
}

/// The state of a `gcf.keyed.Session`, a producer's keyed-set delta session: the first `emit`
/// returns the full payload, each later one a delta, an `unchanged` response or a full
/// payload by the re-anchor policy (options: `{tool, policy: {mode: "fixedN", n} | {mode:
/// "sizeGuard"}}`, default fixedN 15).
#[derive(Debug)]
pub struct GcfV3KeyedSession {
    tool: Option<String>,
    policy: v3::keyed::ReanchorPolicy,
    session: Option<v3::keyed::DeltaSession>,
}

impl GcfV3KeyedSession {
    /// A new session with an options value.
    pub fn with_options(options: &Value) -> Result<GcfV3KeyedSession> {
        Ok(GcfV3KeyedSession {
            tool: tool_option(options)?,
            policy: reanchor_policy(options)?,
            session: None,
        })
    }

    /// The next payload for `set`: `{isFull, kind: "full" | "delta" | "unchanged", wire}`.
    pub fn emit_value(&mut self, set: &Value) -> Result<Value> {
        let set = v3::keyed::KeyedSet::from_value(set)?;
        let (is_full, kind, wire) = match &mut self.session {
            None => {
                let session = v3::keyed::DeltaSession::new(set, self.tool.clone(), self.policy)?;
                let wire = session.full()?;
                self.session = Some(session);
                (true, "full", wire)
            }
            Some(session) => {
                let emission = session.emit(set)?;
                let kind = match emission.kind {
                    v3::keyed::PayloadKind::Full => "full",
                    v3::keyed::PayloadKind::Delta => "delta",
                    v3::keyed::PayloadKind::Unchanged => "unchanged",
                };
                (emission.is_full(), kind, emission.wire)
            }
        };
        let mut map = Map::new();
        map.insert("isFull".into(), Value::Bool(is_full));
        map.insert("kind".into(), kind.into());
        map.insert("wire".into(), wire.into());
        Ok(Value::Object(map))
    }
}
