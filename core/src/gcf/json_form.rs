//! The JSON form of the graph payload and its deltas: camelCase keys, as in the GCF
//! conformance fixtures. The CLI reads and writes it, the `json` codec is it, and the JS API
//! takes and returns it (agentwire-bindings reads JS arguments as [`BorrowedValue`]s).

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::gcf::borrowed::{owned_edges, owned_symbols};
use crate::gcf::v3::GraphDelta;
use crate::gcf::{
    BorrowedSymbol, DecodeOptions, DeltaPayload, Edge, EdgeRef, Payload, PayloadRef, Symbol,
};
use crate::json::{BorrowedValue, Kind, Map, Number, TreeReader, Value, ValueReader};
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

/// What a JSON-form reader returns: `Err` when the input cannot be read on (a malformed JS
/// argument tape, nesting too deep), `Ok(Err)` for a value of the wrong shape. A wrong shape
/// waits until its object has been read, so that errors come out in the order the fields are
/// checked: not an object, then the first unknown key, then the fields by rank.
type Read<T> = Result<Result<T>>;

/// One object of a JSON form: its name in messages, its keys, and the rank of each key's check
/// (errors of a lower rank are reported first).
struct Form {
    what: &'static str,
    keys: &'static [&'static str],
    ranks: &'static [u8],
}

/// The keys of the graph payload's JSON form, in the order [`Payload::to_value`] writes them
/// (also the order of the JS objects the bindings build).
pub const PAYLOAD_KEYS: [&str; 6] = [
    "tool",
    "tokenBudget",
    "tokensUsed",
    "packRoot",
    "symbols",
    "edges",
];

/// The keys of a symbol's JSON form, in written order.
pub const SYMBOL_KEYS: [&str; 7] = [
    "qualifiedName",
    "kind",
    "score",
    "provenance",
    "distance",
    "signature",
    "components",
];

/// The keys of a symbol's `components` object, in written order.
pub const COMPONENTS_KEYS: [&str; 4] = ["blastRadius", "confidence", "recency", "distance"];

/// The keys of an edge's JSON form, in written order.
pub const EDGE_KEYS: [&str; 4] = ["source", "target", "edgeType", "status"];

const PAYLOAD: Form = Form {
    what: "payload",
    keys: &PAYLOAD_KEYS,
    ranks: &[0, 1, 2, 3, 4, 5],
};

const SYMBOL: Form = Form {
    what: "symbol",
    keys: &SYMBOL_KEYS,
    // The components are checked first.
    ranks: &[1, 2, 3, 4, 5, 6, 0],
};

const COMPONENTS: Form = Form {
    what: "components",
    keys: &COMPONENTS_KEYS,
    ranks: &[0, 1, 2, 3],
};

const EDGE: Form = Form {
    what: "edge",
    keys: &EDGE_KEYS,
    ranks: &[0, 1, 2, 3],
};

const DELTA: Form = Form {
    what: "delta",
    keys: &[
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
    ranks: &[0, 1, 2, 3, 4, 5, 6, 7, 8],
};

/// A member of a [`Form`] being read: its key's index, and the kind of its value.
#[derive(Clone, Copy)]
struct Member {
    index: usize,
    kind: Kind,
}

impl Form {
    /// Reads an object of this form: `field(reader, key index)` reads the value of each known
    /// member that is not null (null is absent, as a missing member).
    fn read<'a, R: ValueReader<'a>>(
        &self,
        r: &mut R,
        field: &mut dyn FnMut(&mut R, Member) -> Read<()>,
    ) -> Read<()> {
        let kind = r.kind()?;
        if kind != Kind::Object {
            r.skip()?;
            return Ok(Err(invalid(format!(
                "{}: expected an object, got {}",
                self.what,
                kind.name()
            ))));
        }
        let mut unknown = None;
        let mut first: Option<(u8, Error)> = None;
        // Members mostly come in the form's order: the key after the last one is tried first.
        let mut next = 0;
        r.object(&mut |r, key| {
            let index = match self.keys.get(next) {
                Some(k) if *k == key => Some(next),
                _ => self.keys.iter().position(|k| *k == key),
            };
            let Some(index) = index else {
                if unknown.is_none() {
                    unknown = Some(invalid(format!(
                        "{}: unknown key \"{key}\" (expected {})",
                        self.what,
                        self.keys.join(", ")
                    )));
                }
                return r.skip();
            };
            next = index + 1;
            let kind = r.kind()?;
            if kind == Kind::Null {
                return r.skip();
            }
            if let Err(e) = field(r, Member { index, kind })? {
                let rank = self.ranks[index];
                if first.as_ref().is_none_or(|(known, _)| rank < *known) {
                    first = Some((rank, e));
                }
            }
            Ok(())
        })?;
        Ok(match unknown.or(first.map(|(_, e)| e)) {
            Some(e) => Err(e),
            None => Ok(()),
        })
    }

    fn wrong(&self, member: Member, expected: &str) -> Error {
        invalid(format!(
            "{}.{}: expected {expected}, got {}",
            self.what,
            self.keys[member.index],
            member.kind.name()
        ))
    }

    fn string<'a, R: ValueReader<'a>>(
        &self,
        r: &mut R,
        member: Member,
        into: &mut String,
    ) -> Read<()> {
        let mut text = Cow::Borrowed("");
        let read = self.text(r, member, &mut text)?;
        *into = text.into_owned();
        Ok(read)
    }

    /// A string member, borrowed from the input where the reader can.
    fn text<'a, R: ValueReader<'a>>(
        &self,
        r: &mut R,
        member: Member,
        into: &mut Cow<'a, str>,
    ) -> Read<()> {
        Ok(match r.string()? {
            Some(s) => {
                *into = s;
                Ok(())
            }
            None => Err(self.wrong(member, "a string")),
        })
    }

    fn float<'a, R: ValueReader<'a>>(&self, r: &mut R, member: Member, into: &mut f64) -> Read<()> {
        Ok(match r.number()? {
            Some(n) => {
                *into = n.as_f64();
                Ok(())
            }
            None => Err(self.wrong(member, "a number")),
        })
    }

    fn integer<'a, R: ValueReader<'a>>(
        &self,
        r: &mut R,
        member: Member,
        into: &mut i64,
    ) -> Read<()> {
        Ok(match r.number()?.and_then(|n| n.as_i64()) {
            Some(v) => {
                *into = v;
                Ok(())
            }
            None => Err(self.wrong(member, "an integer")),
        })
    }

    /// An array of `item`s; an item's error names its index (`symbols[3]: …`), and the first
    /// one stands.
    fn list<'a, R: ValueReader<'a>, T>(
        &self,
        r: &mut R,
        member: Member,
        into: &mut Vec<T>,
        item: fn(&mut R) -> Read<T>,
    ) -> Read<()> {
        if member.kind != Kind::Array {
            r.skip()?;
            return Ok(Err(self.wrong(member, "an array")));
        }
        let mut failed = None;
        r.array(&mut |r, i| {
            if failed.is_some() {
                return r.skip();
            }
            match item(r)? {
                Ok(value) => into.push(value),
                Err(e) => failed = Some(e.context(format!("{}[{i}]", self.keys[member.index]))),
            }
            Ok(())
        })?;
        Ok(failed.map_or(Ok(()), Err))
    }
}

fn float_value(v: f64) -> Value {
    Number::from_f64(v).into()
}

fn int_value(v: i64) -> Value {
    Number::from_i64(v).into()
}

/// Reads `{"qualifiedName", "kind", "score", "provenance", "distance", "signature"?,
/// "components"?: {"blastRadius", "confidence", "recency", "distance"}}`, its strings borrowed
/// from the input where the reader can.
fn borrowed_symbol<'a, R: ValueReader<'a>>(r: &mut R) -> Read<BorrowedSymbol<'a>> {
    let mut s = BorrowedSymbol::default();
    let done = SYMBOL.read(r, &mut |r, field| match field.index {
        0 => SYMBOL.text(r, field, &mut s.qualified_name),
        1 => SYMBOL.text(r, field, &mut s.kind),
        2 => SYMBOL.float(r, field, &mut s.score),
        3 => SYMBOL.text(r, field, &mut s.provenance),
        4 => SYMBOL.integer(r, field, &mut s.distance),
        5 => SYMBOL.text(r, field, &mut s.signature),
        _ => {
            let c = &mut s.components;
            COMPONENTS.read(r, &mut |r, field| {
                let into = match field.index {
                    0 => &mut c.blast_radius,
                    1 => &mut c.confidence,
                    2 => &mut c.recency,
                    _ => &mut c.distance,
                };
                COMPONENTS.float(r, field, into)
            })
        }
    })?;
    Ok(done.map(|()| s))
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

/// Reads `{"source", "target", "edgeType", "status"?}`, its strings borrowed from the input
/// where the reader can.
fn borrowed_edge<'a, R: ValueReader<'a>>(r: &mut R) -> Read<EdgeRef<'a>> {
    let mut e = EdgeRef::default();
    let done = EDGE.read(r, &mut |r, field| {
        let into = match field.index {
            0 => &mut e.source,
            1 => &mut e.target,
            2 => &mut e.edge_type,
            _ => &mut e.status,
        };
        EDGE.text(r, field, into)
    })?;
    Ok(done.map(|()| e))
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
        Payload::from_reader(&mut TreeReader::new(value))
    }

    /// [`Payload::from_value`] of the next value of a [`ValueReader`], read in order without a
    /// tree (agentwire-bindings reads a JS argument this way).
    ///
    /// ```
    /// use agentwire::gcf::Payload;
    /// use agentwire::json::{self, BorrowedValue, TreeReader};
    /// let value = json::parse(r#"{"tool":"t","edges":[{"source":"a","target":"b"}]}"#)?;
    /// let view = BorrowedValue::of(&value);
    /// assert_eq!(Payload::from_reader(&mut TreeReader::new(&view))?.edges[0].target, "b");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_reader<'a, R: ValueReader<'a>>(reader: &mut R) -> Result<Payload> {
        Ok(PayloadRef::from_reader(reader)?.into_payload())
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

impl<'a> PayloadRef<'a> {
    /// [`Payload::from_reader`] with the strings borrowed from the reader's input where it can
    /// (a [`TreeReader`]'s and a JS argument tape's strings always are): no copy of each name.
    ///
    /// ```
    /// use agentwire::gcf::PayloadRef;
    /// use agentwire::json::{self, BorrowedValue, TreeReader};
    /// let value = json::parse(r#"{"tool":"t","edges":[{"source":"a","target":"b"}]}"#)?;
    /// let view = BorrowedValue::of(&value);
    /// let payload = PayloadRef::from_reader(&mut TreeReader::new(&view))?;
    /// assert_eq!((&*payload.tool, &*payload.edges[0].target), ("t", "b"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_reader<R: ValueReader<'a>>(reader: &mut R) -> Result<PayloadRef<'a>> {
        let mut p = PayloadRef::default();
        PAYLOAD.read(reader, &mut |r, field| match field.index {
            0 => PAYLOAD.text(r, field, &mut p.tool),
            1 => PAYLOAD.integer(r, field, &mut p.token_budget),
            2 => PAYLOAD.integer(r, field, &mut p.tokens_used),
            3 => PAYLOAD.text(r, field, &mut p.pack_root),
            4 => PAYLOAD.list(r, field, &mut p.symbols, borrowed_symbol),
            _ => PAYLOAD.list(r, field, &mut p.edges, borrowed_edge),
        })??;
        Ok(p)
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
        DeltaPayload::from_reader(&mut TreeReader::new(value))
    }

    /// [`DeltaPayload::from_value`] of the next value of a [`ValueReader`], read in order
    /// without a tree.
    ///
    /// ```
    /// use agentwire::gcf::DeltaPayload;
    /// use agentwire::json::{self, BorrowedValue, TreeReader};
    /// let value = json::parse(r#"{"newRoot":"r2","fullTokens":9}"#)?;
    /// let view = BorrowedValue::of(&value);
    /// assert_eq!(DeltaPayload::from_reader(&mut TreeReader::new(&view))?.full_tokens, 9);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_reader<'a, R: ValueReader<'a>>(reader: &mut R) -> Result<DeltaPayload> {
        let mut d = DeltaPayload::default();
        // Read as a payload's lists are (borrowed), then owned: one reader of each list.
        let (mut removed, mut added) = (Vec::new(), Vec::new());
        let (mut removed_edges, mut added_edges) = (Vec::new(), Vec::new());
        DELTA.read(reader, &mut |r, field| match field.index {
            0 => DELTA.string(r, field, &mut d.tool),
            1 => DELTA.string(r, field, &mut d.base_root),
            2 => DELTA.string(r, field, &mut d.new_root),
            3 => DELTA.list(r, field, &mut removed, borrowed_symbol),
            4 => DELTA.list(r, field, &mut added, borrowed_symbol),
            5 => DELTA.list(r, field, &mut removed_edges, borrowed_edge),
            6 => DELTA.list(r, field, &mut added_edges, borrowed_edge),
            7 => DELTA.integer(r, field, &mut d.delta_tokens),
            _ => DELTA.integer(r, field, &mut d.full_tokens),
        })??;
        d.removed = owned_symbols(removed);
        d.added = owned_symbols(added);
        d.removed_edges = owned_edges(removed_edges);
        d.added_edges = owned_edges(added_edges);
        Ok(d)
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
