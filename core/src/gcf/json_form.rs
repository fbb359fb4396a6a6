//! The JSON form of the graph payload and its deltas: camelCase keys, as in the GCF
//! conformance fixtures. The CLI reads and writes it, the `json` codec is it, and the JS API
//! takes and returns it (agentwire-bindings reads JS arguments as [`BorrowedValue`]s).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::gcf::v3::GraphDelta;
use crate::gcf::{Components, DecodeOptions, DeltaPayload, Edge, Payload, Symbol};
use crate::json::{BorrowedValue, Map, Number, Value};
use crate::{Error, ErrorKind, Result};

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidArgument, message)
}

impl DecodeOptions {
    /// Reads the options object `{"maxPayloadBytes"?: positive integer}` (null: defaults).
    ///
    /// ```
    /// use agentwire::gcf::DecodeOptions;
    /// use agentwire::json;
    /// assert_eq!(DecodeOptions::from_value(&json::parse(r#"{"maxPayloadBytes":64}"#)?)?.max_payload_bytes, 64);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_value(value: &Value) -> Result<DecodeOptions> {
        let mut options = DecodeOptions::default();
        let map = match value {
            Value::Null => return Ok(options),
            Value::Object(map) => map,
            other => {
                return Err(invalid(format!(
                    "expected an options object, got {}",
                    other.type_name()
                )));
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
                ));
            }
        }
        Ok(options)
    }
}

/// Reads an object's members, refusing keys outside `allowed`.
struct Reader<'v, 'a> {
    members: &'v [(alloc::borrow::Cow<'a, str>, BorrowedValue<'a>)],
    what: &'static str,
}

impl<'v, 'a> Reader<'v, 'a> {
    fn new(
        value: &'v BorrowedValue<'a>,
        what: &'static str,
        allowed: &[&str],
    ) -> Result<Reader<'v, 'a>> {
        let BorrowedValue::Object(members) = value else {
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

    fn get(&self, key: &str) -> Option<&'v BorrowedValue<'a>> {
        self.members
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
            .filter(|v| !matches!(v, BorrowedValue::Null))
    }

    fn string(&self, key: &str) -> Result<String> {
        match self.get(key) {
            None => Ok(String::new()),
            Some(BorrowedValue::String(s)) => Ok(String::from(&**s)),
            Some(other) => Err(self.wrong(key, "a string", other)),
        }
    }

    fn float(&self, key: &str) -> Result<f64> {
        match self.get(key) {
            None => Ok(0.0),
            Some(BorrowedValue::Number(n)) => Ok(n.as_f64()),
            Some(other) => Err(self.wrong(key, "a number", other)),
        }
    }

    fn integer(&self, key: &str) -> Result<i64> {
        match self.get(key) {
            None => Ok(0),
            Some(v) => match v {
                BorrowedValue::Number(n) => n.as_i64(),
                _ => None,
            }
            .ok_or_else(|| self.wrong(key, "an integer", v)),
        }
    }

    fn list<T>(&self, key: &str, read: fn(&BorrowedValue<'a>) -> Result<T>) -> Result<Vec<T>> {
        match self.get(key) {
            None => Ok(Vec::new()),
            Some(BorrowedValue::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, v)| read(v).map_err(|e| e.context(format!("{key}[{i}]"))))
                .collect(),
            Some(other) => Err(self.wrong(key, "an array", other)),
        }
    }

    fn wrong(&self, key: &str, expected: &str, got: &BorrowedValue<'_>) -> Error {
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
fn symbol(value: &BorrowedValue<'_>) -> Result<Symbol> {
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

/// A symbol's JSON form (every field).
fn symbol_value(symbol: &Symbol) -> Value {
    let mut components = Map::new();
    let c = &symbol.components;
    components.insert("blastRadius".into(), float_value(c.blast_radius));
    components.insert("confidence".into(), float_value(c.confidence));
    components.insert("recency".into(), float_value(c.recency));
    components.insert("distance".into(), float_value(c.distance));
    let mut map = Map::new();
    map.insert(
        "qualifiedName".into(),
        symbol.qualified_name.as_str().into(),
    );
    map.insert("kind".into(), symbol.kind.as_str().into());
    map.insert("score".into(), float_value(symbol.score));
    map.insert("provenance".into(), symbol.provenance.as_str().into());
    map.insert("distance".into(), int_value(symbol.distance));
    map.insert("signature".into(), symbol.signature.as_str().into());
    map.insert("components".into(), Value::Object(components));
    Value::Object(map)
}

/// Reads `{"source", "target", "edgeType", "status"?}`.
fn edge(value: &BorrowedValue<'_>) -> Result<Edge> {
    let r = Reader::new(value, "edge", &["source", "target", "edgeType", "status"])?;
    Ok(Edge {
        source: r.string("source")?,
        target: r.string("target")?,
        edge_type: r.string("edgeType")?,
        status: r.string("status")?,
    })
}

fn edge_value(edge: &Edge) -> Value {
    let mut map = Map::new();
    map.insert("source".into(), edge.source.as_str().into());
    map.insert("target".into(), edge.target.as_str().into());
    map.insert("edgeType".into(), edge.edge_type.as_str().into());
    map.insert("status".into(), edge.status.as_str().into());
    Value::Object(map)
}

fn symbols_value(list: &[Symbol]) -> Value {
    Value::Array(list.iter().map(symbol_value).collect())
}

fn edges_value(list: &[Edge]) -> Value {
    Value::Array(list.iter().map(edge_value).collect())
}

impl Payload {
    /// Reads the JSON form `{"tool", "tokenBudget", "tokensUsed", "packRoot", "symbols",
    /// "edges"}` (absent members take their zero value, unknown ones are `INVALID_ARGUMENT`).
    ///
    /// ```
    /// use agentwire::gcf::Payload;
    /// use agentwire::json;
    /// let value = json::parse(r#"{"tool":"t","symbols":[{"qualifiedName":"a","kind":"function"}]}"#)?;
    /// assert_eq!(Payload::from_value(&value)?.symbols[0].qualified_name, "a");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_value(value: &Value) -> Result<Payload> {
        Payload::from_borrowed(&BorrowedValue::of(value))
    }

    /// [`Payload::from_value`] of a borrowed value.
    ///
    /// ```
    /// use agentwire::gcf::Payload;
    /// use agentwire::json::{self, BorrowedValue};
    /// let value = json::parse(r#"{"tool":"t"}"#)?;
    /// assert_eq!(Payload::from_borrowed(&BorrowedValue::of(&value))?.tool, "t");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_borrowed(value: &BorrowedValue<'_>) -> Result<Payload> {
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

    /// The JSON form (every field), as [`Payload::from_value`] reads it.
    ///
    /// ```
    /// use agentwire::gcf::Payload;
    /// use agentwire::json::{self, WriteOptions};
    /// let text = json::to_string(&Payload::default().to_value(), WriteOptions::PLAIN)?;
    /// assert_eq!(text, r#"{"tool":"","tokenBudget":0,"tokensUsed":0,"packRoot":"","symbols":[],"edges":[]}"#);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("tool".into(), self.tool.as_str().into());
        map.insert("tokenBudget".into(), int_value(self.token_budget));
        map.insert("tokensUsed".into(), int_value(self.tokens_used));
        map.insert("packRoot".into(), self.pack_root.as_str().into());
        map.insert("symbols".into(), symbols_value(&self.symbols));
        map.insert("edges".into(), edges_value(&self.edges));
        Value::Object(map)
    }
}

impl DeltaPayload {
    /// Reads the JSON form `{"tool", "baseRoot", "newRoot", "removed", "added",
    /// "removedEdges", "addedEdges", "deltaTokens", "fullTokens"}`.
    ///
    /// ```
    /// use agentwire::gcf::DeltaPayload;
    /// use agentwire::json;
    /// let delta = DeltaPayload::from_value(&json::parse(r#"{"tool":"t","baseRoot":"r1","newRoot":"r2"}"#)?)?;
    /// assert_eq!((delta.base_root.as_str(), delta.new_root.as_str()), ("r1", "r2"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_value(value: &Value) -> Result<DeltaPayload> {
        DeltaPayload::from_borrowed(&BorrowedValue::of(value))
    }

    /// [`DeltaPayload::from_value`] of a borrowed value.
    ///
    /// ```
    /// use agentwire::gcf::DeltaPayload;
    /// use agentwire::json::{self, BorrowedValue};
    /// let value = json::parse(r#"{"deltaTokens":3}"#)?;
    /// assert_eq!(DeltaPayload::from_borrowed(&BorrowedValue::of(&value))?.delta_tokens, 3);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_borrowed(value: &BorrowedValue<'_>) -> Result<DeltaPayload> {
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
}

impl GraphDelta {
    /// `{"tool", "baseRoot", "newRoot", "deltaTokens", "savings", "removed", "added",
    /// "removedEdges", "addedEdges"}`: the keys [`DeltaPayload::from_value`] takes, and
    /// `savings`.
    ///
    /// ```
    /// use agentwire::gcf::v3::GraphDelta;
    /// let delta = GraphDelta { savings: "60%".into(), ..GraphDelta::default() };
    /// assert_eq!(delta.to_value().get("savings").and_then(|v| v.as_str()), Some("60%"));
    /// ```
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("tool".into(), self.tool.as_str().into());
        map.insert("baseRoot".into(), self.base_root.as_str().into());
        map.insert("newRoot".into(), self.new_root.as_str().into());
        map.insert("deltaTokens".into(), int_value(self.tokens));
        map.insert("savings".into(), self.savings.as_str().into());
        map.insert("removed".into(), symbols_value(&self.removed));
        map.insert("added".into(), symbols_value(&self.added));
        map.insert("removedEdges".into(), edges_value(&self.removed_edges));
        map.insert("addedEdges".into(), edges_value(&self.added_edges));
        Value::Object(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn payload_shape_round_trips_and_refuses_unknown_keys() {
        let text = r#"{"tool":"t","tokenBudget":100,"tokensUsed":7,"packRoot":"",
            "symbols":[{"qualifiedName":"b","kind":"type","score":0.25,"provenance":"ast_inferred",
              "distance":1,"signature":"","components":{"blastRadius":0.5,"confidence":1,"recency":0,"distance":1}}],
            "edges":[{"source":"b","target":"a","edgeType":"calls","status":"added"}]}"#;
        let payload = Payload::from_value(&json::parse(text).unwrap()).unwrap();
        assert_eq!(payload.symbols[0].components.blast_radius, 0.5);
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
