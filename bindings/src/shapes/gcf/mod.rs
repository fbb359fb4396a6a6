//! The graph payload's JSON form (camelCase keys, as in the GCF conformance fixtures), its
//! deltas, the decode options, and the `json` codec that writes and reads that form; the
//! keyed sets and generic deltas of GCF v3.5.3 are in [`keyed`].

use agentwire::codec::{Codec, Registry};
use agentwire::gcf::v3::graph::GraphDelta;
use agentwire::gcf::{Components, DecodeOptions, DeltaPayload, Edge, Payload, Symbol};
use std::borrow::Cow;

use agentwire::json::{self, Map, Number, Value, WriteOptions};
use agentwire::{Error, ErrorKind, Result};

use crate::shapes::{FromValue, ToValue};
use crate::transfer::from_js::Arg;
use crate::transfer::to_js::TapeWriter;

pub mod keyed;

/// Reads `{"maxPayloadBytes"?: positive integer}` (null: defaults).
impl FromValue for DecodeOptions {
    fn from_value(value: &Value) -> Result<DecodeOptions> {
        let mut options = DecodeOptions::default();
        let map = match value {
            Value::Null => return Ok(options),
            Value::Object(map) => map,
            other => {
                return Err(invalid(format!(
                    "expected an options object, got {}",
                    other.type_name()
                )))
            }
        };
        if let Some(key) = map.keys().find(|k| *k != "maxPayloadBytes") {
            return Err(invalid(format!(
                "unknown key \"{key}\" in decode options (expected one of: maxPayloadBytes)"
            )));
        }
        match map.get("maxPayloadBytes") {
            None | Some(Value::Null) => {}
            Some(Value::Number(n)) if n.as_u64().is_some_and(|v| v > 0) => {
                let v = n.as_u64().unwrap_or(u64::MAX);
                options.max_payload_bytes = usize::try_from(v).unwrap_or(usize::MAX);
            }
            Some(_) => {
                return Err(invalid(
                    "option maxPayloadBytes: expected a positive integer",
                ))
            }
        }
        Ok(options)
    }
}

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidArgument, message)
}

/// Reads an object's members, refusing keys outside `allowed`.
struct Reader<'v, 'a> {
    members: &'v [(Cow<'a, str>, Arg<'a>)],
    what: &'static str,
}

impl<'v, 'a> Reader<'v, 'a> {
    fn new(value: &'v Arg<'a>, what: &'static str, allowed: &[&str]) -> Result<Reader<'v, 'a>> {
        let Arg::Object(members) = value else {
            return Err(invalid(format!(
                "{what}: expected an object, got {}",
                value.type_name()
            )));
        };
        if let Some((key, _)) = members.iter().find(|(k, _)| !allowed.contains(&&**k)) {
            return Err(invalid(format!(
                "{what}: unknown key \"{key}\" (expected {})",
                allowed.join(", ")
            )));
        }
        Ok(Reader { members, what })
    }

    fn get(&self, key: &str) -> Option<&'v Arg<'a>> {
        self.members
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
            .filter(|v| !matches!(v, Arg::Null))
    }

    fn string(&self, key: &str) -> Result<String> {
        match self.get(key) {
            None => Ok(String::new()),
            Some(Arg::String(s)) => Ok(String::from(&**s)),
            Some(other) => Err(self.wrong(key, "a string", other)),
        }
    }

    fn float(&self, key: &str) -> Result<f64> {
        match self.get(key) {
            None => Ok(0.0),
            Some(Arg::Number(n)) => Ok(n.as_f64()),
            Some(other) => Err(self.wrong(key, "a number", other)),
        }
    }

    fn integer(&self, key: &str) -> Result<i64> {
        match self.get(key) {
            None => Ok(0),
            Some(v) => match v {
                Arg::Number(n) => n.as_i64(),
                _ => None,
            }
            .ok_or_else(|| self.wrong(key, "an integer", v)),
        }
    }

    fn list<T>(&self, key: &str, read: fn(&Arg<'a>) -> Result<T>) -> Result<Vec<T>> {
        match self.get(key) {
            None => Ok(Vec::new()),
            Some(Arg::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, v)| read(v).map_err(|e| e.context(format!("{key}[{i}]"))))
                .collect(),
            Some(other) => Err(self.wrong(key, "an array", other)),
        }
    }

    fn wrong(&self, key: &str, expected: &str, got: &Arg<'_>) -> Error {
        let what = self.what;
        invalid(format!(
            "{what}.{key}: expected {expected}, got {}",
            got.type_name()
        ))
    }
}

fn float_value(v: f64) -> Value {
    Number::from_f64(v).into()
}

fn int_value(v: i64) -> Value {
    Number::from_i64(v).into()
}

/// Reads `{"qualifiedName", "kind", "score", "provenance", "distance", "signature"?,
/// "components"?: {"blastRadius", "confidence", "recency", "distance"}}`.
impl FromValue for Symbol {
    fn from_value(value: &Value) -> Result<Symbol> {
        symbol(&Arg::of(value))
    }
}

/// [`Symbol::from_value`] of a JS argument.
pub fn symbol(value: &Arg<'_>) -> Result<Symbol> {
    let r = Reader::new(
        value,
        "symbol",
        &[
            "qualifiedName",
            "kind",
            "score",
            "provenance",
            "distance",
            "signature",
            "components",
        ],
    )?;
    let components = match r.get("components") {
        None => Components::default(),
        Some(c) => {
            let c = Reader::new(
                c,
                "components",
                &["blastRadius", "confidence", "recency", "distance"],
            )?;
            Components {
                blast_radius: c.float("blastRadius")?,
                confidence: c.float("confidence")?,
                recency: c.float("recency")?,
                distance: c.float("distance")?,
            }
        }
    };
    Ok(Symbol {
        qualified_name: r.string("qualifiedName")?,
        kind: r.string("kind")?,
        score: r.float("score")?,
        provenance: r.string("provenance")?,
        distance: r.integer("distance")?,
        signature: r.string("signature")?,
        components,
    })
}

/// The JSON form (every field).
impl ToValue for Symbol {
    fn to_value(&self) -> Value {
        let mut components = Map::new();
        components.insert(
            "blastRadius".into(),
            float_value(self.components.blast_radius),
        );
        components.insert("confidence".into(), float_value(self.components.confidence));
        components.insert("recency".into(), float_value(self.components.recency));
        components.insert("distance".into(), float_value(self.components.distance));
        let mut map = Map::new();
        map.insert("qualifiedName".into(), self.qualified_name.as_str().into());
        map.insert("kind".into(), self.kind.as_str().into());
        map.insert("score".into(), float_value(self.score));
        map.insert("provenance".into(), self.provenance.as_str().into());
        map.insert("distance".into(), int_value(self.distance));
        map.insert("signature".into(), self.signature.as_str().into());
        map.insert("components".into(), Value::Object(components));
        Value::Object(map)
    }
}

/// Reads `{"source", "target", "edgeType", "status"?}`.
impl FromValue for Edge {
    fn from_value(value: &Value) -> Result<Edge> {
        edge(&Arg::of(value))
    }
}

/// [`Edge::from_value`] of a JS argument.
pub fn edge(value: &Arg<'_>) -> Result<Edge> {
    let r = Reader::new(value, "edge", &["source", "target", "edgeType", "status"])?;
    Ok(Edge {
        source: r.string("source")?,
        target: r.string("target")?,
        edge_type: r.string("edgeType")?,
        status: r.string("status")?,
    })
}

/// The JSON form.
impl ToValue for Edge {
    fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("source".into(), self.source.as_str().into());
        map.insert("target".into(), self.target.as_str().into());
        map.insert("edgeType".into(), self.edge_type.as_str().into());
        map.insert("status".into(), self.status.as_str().into());
        Value::Object(map)
    }
}

/// Reads `{"tool", "tokenBudget", "tokensUsed", "packRoot", "symbols", "edges"}` (absent
/// members take their zero value).
impl FromValue for Payload {
    fn from_value(value: &Value) -> Result<Payload> {
        payload(&Arg::of(value))
    }
}

/// [`Payload::from_value`] of a JS argument (the hot path: no value tree).
pub fn payload(value: &Arg<'_>) -> Result<Payload> {
    let r = Reader::new(
        value,
        "payload",
        &[
            "tool",
            "tokenBudget",
            "tokensUsed",
            "packRoot",
            "symbols",
            "edges",
        ],
    )?;
    Ok(Payload {
        tool: r.string("tool")?,
        token_budget: r.integer("tokenBudget")?,
        tokens_used: r.integer("tokensUsed")?,
        pack_root: r.string("packRoot")?,
        symbols: r.list("symbols", symbol)?,
        edges: r.list("edges", edge)?,
    })
}

/// The JSON form (every field).
impl ToValue for Payload {
    fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("tool".into(), self.tool.as_str().into());
        map.insert("tokenBudget".into(), int_value(self.token_budget));
        map.insert("tokensUsed".into(), int_value(self.tokens_used));
        map.insert("packRoot".into(), self.pack_root.as_str().into());
        map.insert(
            "symbols".into(),
            Value::Array(self.symbols.iter().map(Symbol::to_value).collect()),
        );
        map.insert(
            "edges".into(),
            Value::Array(self.edges.iter().map(Edge::to_value).collect()),
        );
        Value::Object(map)
    }
}

/// The payload as [`ToValue`] shapes it, written straight to a JS result tape (the decode hot
/// path: no value tree; a test in `js::graph` checks that both agree).
pub fn write_payload(writer: &mut TapeWriter<'_>, payload: &Payload) {
    let top = writer.shape(&[
        "tool",
        "tokenBudget",
        "tokensUsed",
        "packRoot",
        "symbols",
        "edges",
    ]);
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
    let shape = writer.shape(&[
        "qualifiedName",
        "kind",
        "score",
        "provenance",
        "distance",
        "signature",
        "components",
    ]);
    writer.object(shape);
    writer.str(&symbol.qualified_name);
    writer.str(&symbol.kind);
    writer.f64(symbol.score);
    writer.str(&symbol.provenance);
    writer.i64(symbol.distance);
    writer.str(&symbol.signature);
    let components = writer.shape(&["blastRadius", "confidence", "recency", "distance"]);
    writer.object(components);
    let c = &symbol.components;
    for v in [c.blast_radius, c.confidence, c.recency, c.distance] {
        writer.f64(v);
    }
}

fn write_edge(writer: &mut TapeWriter<'_>, edge: &Edge) {
    let shape = writer.shape(&["source", "target", "edgeType", "status"]);
    writer.object(shape);
    writer.str(&edge.source);
    writer.str(&edge.target);
    writer.str(&edge.edge_type);
    writer.str(&edge.status);
}

/// Reads `{"tool", "baseRoot", "newRoot", "removed", "added", "removedEdges", "addedEdges",
/// "deltaTokens", "fullTokens"}`.
impl FromValue for DeltaPayload {
    fn from_value(value: &Value) -> Result<DeltaPayload> {
        delta(&Arg::of(value))
    }
}

/// [`DeltaPayload::from_value`] of a JS argument.
pub fn delta(value: &Arg<'_>) -> Result<DeltaPayload> {
    let r = Reader::new(
        value,
        "delta",
        &[
            "tool",
            "baseRoot",
            "newRoot",
            "removed",
            "added",
            "removedEdges",
            "addedEdges",
            "deltaTokens",
            "fullTokens",
        ],
    )?;
    Ok(DeltaPayload {
        tool: r.string("tool")?,
        base_root: r.string("baseRoot")?,
        new_root: r.string("newRoot")?,
        removed: r.list("removed", symbol)?,
        added: r.list("added", symbol)?,
        removed_edges: r.list("removedEdges", edge)?,
        added_edges: r.list("addedEdges", edge)?,
        delta_tokens: r.integer("deltaTokens")?,
        full_tokens: r.integer("fullTokens")?,
    })
}

/// `{"tool", "baseRoot", "newRoot", "deltaTokens", "savings", "removed", "added",
/// "removedEdges", "addedEdges"}`: the keys the [`DeltaPayload`] reader takes, and `savings`.
impl ToValue for GraphDelta {
    fn to_value(&self) -> Value {
        let symbols = |list: &[Symbol]| Value::Array(list.iter().map(Symbol::to_value).collect());
        let edges = |list: &[Edge]| Value::Array(list.iter().map(Edge::to_value).collect());
        let mut map = Map::new();
        map.insert("tool".into(), self.tool.as_str().into());
        map.insert("baseRoot".into(), self.base_root.as_str().into());
        map.insert("newRoot".into(), self.new_root.as_str().into());
        map.insert(
            "deltaTokens".into(),
            Value::Number(Number::from_i64(self.tokens)),
        );
        map.insert("savings".into(), self.savings.as_str().into());
        map.insert("removed".into(), symbols(&self.removed));
        map.insert("added".into(), symbols(&self.added));
        map.insert("removedEdges".into(), edges(&self.removed_edges));
        map.insert("addedEdges".into(), edges(&self.added_edges));
        Value::Object(map)
    }
}

/// The `json` codec: a payload as its JSON form (plain JSON text, UTF-8).
pub fn json_codec() -> Codec {
    Codec {
        name: "json".into(),
        aliases: Vec::new(),
        description: "JSON (camelCase keys): compatibility and debugging".into(),
        text: true,
        encode: Box::new(|p| {
            json::to_string(&p.to_value(), WriteOptions::PLAIN).map(String::into_bytes)
        }),
        decode: Box::new(|b| Payload::from_value(&json::parse(utf8(b)?)?)),
    }
}

fn utf8(bytes: &[u8]) -> Result<&str> {
    std::str::from_utf8(bytes).map_err(|e| {
        Error::at(
            ErrorKind::InvalidUtf8,
            "input is not UTF-8",
            agentwire::Position::in_text(bytes, e.valid_up_to()),
        )
    })
}

/// The codecs the CLI and the JS API select by name: the core's built-in `gcf` and `gcb`
/// (alias `binary`), then [`json_codec`].
pub fn codecs() -> Registry {
    let mut registry = Registry::builtin();
    registry.register(json_codec());
    registry
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payload() -> Payload {
        Payload {
            tool: "t".into(),
            token_budget: 100,
            tokens_used: 7,
            symbols: vec![
                Symbol {
                    qualified_name: "a".into(),
                    kind: "function".into(),
                    score: 0.5,
                    provenance: "lsp_resolved".into(),
                    ..Symbol::default()
                },
                Symbol {
                    qualified_name: "b".into(),
                    kind: "type".into(),
                    score: 0.25,
                    provenance: "ast_inferred".into(),
                    distance: 1,
                    ..Symbol::default()
                },
            ],
            edges: vec![Edge {
                source: "b".into(),
                target: "a".into(),
                edge_type: "calls".into(),
                status: "added".into(),
            }],
            ..Payload::default()
        }
    }

    #[test]
    fn every_codec_round_trips() {
        let payload = payload();
        let registry = codecs();
        let names: Vec<&str> = registry.list().iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["gcf", "gcb", "json"]);
        for codec in registry.list() {
            let bytes = registry.encode_with(&codec.name, &payload).unwrap();
            assert_eq!(
                registry.decode_with(&codec.name, &bytes).unwrap(),
                payload,
                "{}",
                codec.name
            );
        }
        assert!(registry.get("binary").is_ok());
        assert_eq!(registry.get("xml").unwrap_err().code(), "INVALID_ARGUMENT");
        let e = registry.decode_with("json", b"\xff").unwrap_err();
        assert_eq!((e.code(), e.offset()), ("INVALID_UTF8", Some(0)));
    }

    #[test]
    fn user_codecs_register_over_json() {
        let mut registry = codecs();
        registry.register(Codec {
            name: "count".into(),
            aliases: Vec::new(),
            description: "symbol count".into(),
            text: true,
            encode: Box::new(|p| Ok(format!("{}", p.symbols.len()).into_bytes())),
            decode: Box::new(|_| Ok(Payload::default())),
        });
        assert_eq!(
            registry.encode_with("count", &Payload::default()).unwrap(),
            b"0"
        );
        assert_eq!(registry.list().len(), 4);
    }

    #[test]
    fn payload_shape_round_trips_and_refuses_unknown_keys() {
        let payload = payload();
        assert_eq!(Payload::from_value(&payload.to_value()).unwrap(), payload);
        let e =
            Payload::from_value(&json::parse(r#"{"tool":"t","symbol":[]}"#).unwrap()).unwrap_err();
        assert_eq!(e.code(), "INVALID_ARGUMENT");
        assert_eq!(
            e.message(),
            "payload: unknown key \"symbol\" (expected tool, tokenBudget, tokensUsed, packRoot, symbols, edges)"
        );
        let e = Payload::from_value(
            &json::parse(r#"{"symbols":[{"qualifiedName":"a","distance":1.5}]}"#).unwrap(),
        )
        .unwrap_err();
        assert_eq!(
            e.message(),
            "symbols[0]: symbol.distance: expected an integer, got number"
        );
    }
}
