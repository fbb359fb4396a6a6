//! The graph payload shared by GCF, GCB1 and the JSON codec, and its JSON form (camelCase keys,
//! as in the conformance fixtures).

use alloc::string::String;
use alloc::vec::Vec;

use crate::json::{Map, Number, Value};
use crate::{Error, ErrorKind, Result};

/// Limits for decoding a graph payload from GCF text ([`decode_with`](super::v1::decode_with))
/// or GCB1 bytes ([`gcb::decode_with`](crate::gcb::decode_with)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Most bytes of text the decoded payload may hold: the tool name, every symbol's name
    /// (and, in GCB1, signature) and every edge's source and target names. An edge names its
    /// endpoints by a small local id or index but decodes to their full names, so a few bytes
    /// of edges can stand for gigabytes; past the limit decoding fails with
    /// [`ErrorKind::GcfPayloadTooLarge`] or [`ErrorKind::GcbPayloadTooLarge`] at the line or
    /// byte offset that crossed it. Default [`DEFAULT_MAX_PAYLOAD_BYTES`] (64 MiB).
    /// JS: `maxPayloadBytes`.
    pub max_payload_bytes: usize,
}

/// The default [`DecodeOptions::max_payload_bytes`].
pub const DEFAULT_MAX_PAYLOAD_BYTES: usize = 64 << 20;

impl Default for DecodeOptions {
    fn default() -> DecodeOptions {
        DecodeOptions {
            max_payload_bytes: DEFAULT_MAX_PAYLOAD_BYTES,
        }
    }
}

impl DecodeOptions {
    /// Reads `{"maxPayloadBytes"?: positive integer}` (null: defaults).
    pub fn from_value(value: &Value) -> Result<DecodeOptions> {
        let mut options = DecodeOptions::default();
        let map = match value {
            Value::Null => return Ok(options),
            Value::Object(map) => map,
            other => {
                return Err(invalid(alloc::format!(
                    "expected an options object, got {}",
                    other.type_name()
                )))
            }
        };
        if let Some(key) = map.keys().find(|k| *k != "maxPayloadBytes") {
            return Err(invalid(alloc::format!(
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

/// The text budget of one decode: [`DecodeOptions::max_payload_bytes`] and what is used.
#[derive(Debug)]
pub(crate) struct TextBudget {
    used: usize,
    max: usize,
}

impl TextBudget {
    pub(crate) fn new(options: &DecodeOptions) -> TextBudget {
        TextBudget {
            used: 0,
            max: options.max_payload_bytes,
        }
    }

    /// Takes `bytes` from the budget, or returns the message of the limit error.
    pub(crate) fn spend(&mut self, bytes: usize) -> core::result::Result<(), String> {
        match self.used.checked_add(bytes) {
            Some(used) if used <= self.max => {
                self.used = used;
                Ok(())
            }
            _ => Err(alloc::format!(
                "the decoded payload would hold more than {} bytes of names and edge \
                 endpoints (limit max_payload_bytes / maxPayloadBytes = {})",
                self.max,
                self.max
            )),
        }
    }
}

/// A context pack: the symbols a tool selected and the edges between them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Payload {
    /// The tool that produced it.
    pub tool: String,
    /// Token budget of the request.
    pub token_budget: i64,
    /// Tokens the pack uses.
    pub tokens_used: i64,
    /// Content address of the pack (opaque to the codecs); empty when absent.
    pub pack_root: String,
    /// The symbols.
    pub symbols: Vec<Symbol>,
    /// The edges (by qualified name).
    pub edges: Vec<Edge>,
}

/// A graph node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Symbol {
    /// Fully qualified name (its identity in edges).
    pub qualified_name: String,
    /// `function`, `type`, `method`, … (GCF writes the 16 known kinds abbreviated).
    pub kind: String,
    /// Relevance score (GCF keeps 2 decimals, GCB1 a float32).
    pub score: f64,
    /// Where the symbol came from (`lsp_resolved`, `ast_inferred`, …).
    pub provenance: String,
    /// Graph distance from the targets (0 = target).
    pub distance: i64,
    /// Signature (GCB1 and JSON only).
    pub signature: String,
    /// Score breakdown (GCB1 and JSON only).
    pub components: Components,
}

/// The score breakdown of a symbol.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Components {
    /// Blast-radius component.
    pub blast_radius: f64,
    /// Confidence component.
    pub confidence: f64,
    /// Recency component.
    pub recency: f64,
    /// Distance component.
    pub distance: f64,
}

/// A directed relationship between two symbols, by qualified name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Edge {
    /// Qualified name of the source.
    pub source: String,
    /// Qualified name of the target.
    pub target: String,
    /// `calls`, `implements`, …
    pub edge_type: String,
    /// `""`, `unchanged`, `added` or `removed` (diff responses).
    pub status: String,
}

/// The difference between a pack the consumer has and the current one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DeltaPayload {
    /// The tool.
    pub tool: String,
    /// `pack_root` the consumer has.
    pub base_root: String,
    /// `pack_root` of the current result.
    pub new_root: String,
    /// Symbols no longer in the pack.
    pub removed: Vec<Symbol>,
    /// Symbols new in the pack.
    pub added: Vec<Symbol>,
    /// Edges no longer in the pack.
    pub removed_edges: Vec<Edge>,
    /// Edges new in the pack.
    pub added_edges: Vec<Edge>,
    /// Tokens of the delta.
    pub delta_tokens: i64,
    /// Tokens the full pack would take.
    pub full_tokens: i64,
}

// ---- JSON form ------------------------------------------------------------------------------

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidArgument, message)
}

/// Reads an object's members, refusing keys outside `allowed`.
struct Reader<'v> {
    map: &'v Map,
    what: &'static str,
}

impl<'v> Reader<'v> {
    fn new(value: &'v Value, what: &'static str, allowed: &[&str]) -> Result<Reader<'v>> {
        let map = value.as_object().ok_or_else(|| {
            invalid(alloc::format!(
                "{what}: expected an object, got {}",
                value.type_name()
            ))
        })?;
        if let Some(key) = map.keys().find(|k| !allowed.contains(k)) {
            return Err(invalid(alloc::format!(
                "{what}: unknown key \"{key}\" (expected {})",
                allowed.join(", ")
            )));
        }
        Ok(Reader { map, what })
    }

    fn get(&self, key: &str) -> Option<&'v Value> {
        self.map.get(key).filter(|v| !matches!(v, Value::Null))
    }

    fn string(&self, key: &str) -> Result<String> {
        match self.get(key) {
            None => Ok(String::new()),
            Some(Value::String(s)) => Ok(s.clone()),
            Some(other) => Err(self.wrong(key, "a string", other)),
        }
    }

    fn float(&self, key: &str) -> Result<f64> {
        match self.get(key) {
            None => Ok(0.0),
            Some(Value::Number(n)) => Ok(n.as_f64()),
            Some(other) => Err(self.wrong(key, "a number", other)),
        }
    }

    fn integer(&self, key: &str) -> Result<i64> {
        match self.get(key) {
            None => Ok(0),
            Some(Value::Number(n)) => n
                .as_i64()
                .ok_or_else(|| self.wrong(key, "an integer", &Value::Number(n.clone()))),
            Some(other) => Err(self.wrong(key, "an integer", other)),
        }
    }

    fn list<T>(&self, key: &str, read: fn(&Value) -> Result<T>) -> Result<Vec<T>> {
        match self.get(key) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, v)| read(v).map_err(|e| e.context(alloc::format!("{key}[{i}]"))))
                .collect(),
            Some(other) => Err(self.wrong(key, "an array", other)),
        }
    }

    fn wrong(&self, key: &str, expected: &str, got: &Value) -> Error {
        let what = self.what;
        invalid(alloc::format!(
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

impl Symbol {
    /// Reads `{"qualifiedName", "kind", "score", "provenance", "distance", "signature"?,
    /// "components"?: {"blastRadius", "confidence", "recency", "distance"}}`.
    pub fn from_value(value: &Value) -> Result<Symbol> {
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
    pub fn to_value(&self) -> Value {
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

impl Edge {
    /// Reads `{"source", "target", "edgeType", "status"?}`.
    pub fn from_value(value: &Value) -> Result<Edge> {
        let r = Reader::new(value, "edge", &["source", "target", "edgeType", "status"])?;
        Ok(Edge {
            source: r.string("source")?,
            target: r.string("target")?,
            edge_type: r.string("edgeType")?,
            status: r.string("status")?,
        })
    }

    /// The JSON form.
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("source".into(), self.source.as_str().into());
        map.insert("target".into(), self.target.as_str().into());
        map.insert("edgeType".into(), self.edge_type.as_str().into());
        map.insert("status".into(), self.status.as_str().into());
        Value::Object(map)
    }
}

impl Payload {
    /// Reads `{"tool", "tokenBudget", "tokensUsed", "packRoot", "symbols", "edges"}` (absent
    /// members take their zero value).
    pub fn from_value(value: &Value) -> Result<Payload> {
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
            symbols: r.list("symbols", Symbol::from_value)?,
            edges: r.list("edges", Edge::from_value)?,
        })
    }

    /// The JSON form (every field).
    pub fn to_value(&self) -> Value {
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

impl DeltaPayload {
    /// Reads `{"tool", "baseRoot", "newRoot", "removed", "added", "removedEdges",
    /// "addedEdges", "deltaTokens", "fullTokens"}`.
    pub fn from_value(value: &Value) -> Result<DeltaPayload> {
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
            removed: r.list("removed", Symbol::from_value)?,
            added: r.list("added", Symbol::from_value)?,
            removed_edges: r.list("removedEdges", Edge::from_value)?,
            added_edges: r.list("addedEdges", Edge::from_value)?,
            delta_tokens: r.integer("deltaTokens")?,
            full_tokens: r.integer("fullTokens")?,
        })
    }
}

/// A symbol with provenance `lsp`, for unit tests.
#[cfg(test)]
pub(crate) fn test_symbol(name: &str, kind: &str, score: f64, distance: i64) -> Symbol {
    Symbol {
        qualified_name: name.into(),
        kind: kind.into(),
        score,
        provenance: "lsp".into(),
        distance,
        ..Symbol::default()
    }
}

/// An edge without status, for unit tests.
#[cfg(test)]
pub(crate) fn test_edge(source: &str, target: &str, edge_type: &str) -> Edge {
    Edge {
        source: source.into(),
        target: target.into(),
        edge_type: edge_type.into(),
        status: String::new(),
    }
}
