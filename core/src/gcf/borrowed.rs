//! The graph payload borrowed from its encoding: names are slices of the input, edges name
//! their endpoints by symbol index. What [`gcf::v1::decode`](super::v1::decode) and
//! [`gcb::decode`](crate::gcb::decode) return, without a string allocation
//! per symbol or per edge end.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::model::{Components, Edge, Payload, Symbol};

/// A [`Payload`] borrowed from the text or bytes it was decoded from.
///
/// Text fields are [`Cow`]s: borrowed from the input, except where the input does not hold
/// the text itself (a GCB1 enum id outside the tables decodes as `unknown_<id>`, invalid UTF-8
/// as U+FFFD). Edges hold indices into [`symbols`](Self::symbols) instead of names.
///
/// ```
/// use agentwire::gcf;
/// let text = "GCF tool=t budget=0 tokens=0 symbols=2\n## targets\n\
///             @0 fn pkg.A 0.90 lsp\n## related\n\
///             @1 type pkg.B 0.50 ast\n## edges\n@0<@1 calls\n";
/// let payload = gcf::v1::decode(text, &Default::default())?;
/// assert_eq!(payload.symbols[1].qualified_name, "pkg.B");
/// let (source, target) = payload.endpoints(&payload.edges[0]);
/// assert_eq!((&*source.qualified_name, &*target.qualified_name), ("pkg.B", "pkg.A"));
/// // The owned payload holds the same graph, with the endpoints' names.
/// let owned = payload.into_payload();
/// assert_eq!((owned.edges[0].source.as_str(), owned.edges[0].target.as_str()), ("pkg.B", "pkg.A"));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BorrowedPayload<'a> {
    /// The tool that produced it.
    pub tool: Cow<'a, str>,
    /// Token budget of the request.
    pub token_budget: i64,
    /// Tokens the pack uses.
    pub tokens_used: i64,
    /// Content address of the pack; empty when absent (always, in GCB1).
    pub pack_root: Cow<'a, str>,
    /// The symbols, in input order.
    pub symbols: Vec<BorrowedSymbol<'a>>,
    /// The edges, in input order, by index into [`symbols`](Self::symbols).
    pub edges: Vec<BorrowedEdge<'a>>,
}

/// A [`Symbol`] borrowed from its encoding.
///
/// ```
/// use agentwire::gcf::{v1, BorrowedSymbol};
/// use std::borrow::Cow;
/// let text = "GCF tool=t budget=0 tokens=0 symbols=1\n## targets\n@0 iface io.Reader 0.80 lsp\n";
/// let payload = v1::decode(text, &Default::default())?;
/// let symbol: &BorrowedSymbol = &payload.symbols[0];
/// assert!(matches!(symbol.qualified_name, Cow::Borrowed("io.Reader"))); // a slice of `text`
/// assert_eq!((&*symbol.kind, symbol.score, symbol.distance), ("interface", 0.8, 0));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BorrowedSymbol<'a> {
    /// Fully qualified name.
    pub qualified_name: Cow<'a, str>,
    /// The full kind (`function`, not GCF's `fn`).
    pub kind: Cow<'a, str>,
    /// Relevance score.
    pub score: f64,
    /// Where the symbol came from.
    pub provenance: Cow<'a, str>,
    /// Graph distance from the targets (0 = target).
    pub distance: i64,
    /// Signature (GCB1 only; empty from GCF).
    pub signature: Cow<'a, str>,
    /// Score breakdown (GCB1 only; zero from GCF).
    pub components: Components,
}

/// An [`Edge`] whose endpoints are indices into [`BorrowedPayload::symbols`].
///
/// ```
/// use agentwire::gcf::{v1, BorrowedEdge};
/// let text = "GCF tool=t budget=0 tokens=0 symbols=2\n## targets\n@0 fn a 0.50 lsp\n\
///             @1 fn b 0.50 lsp\n## edges\n@0<@1 calls added\n";
/// let payload = v1::decode(text, &Default::default())?;
/// let edge: &BorrowedEdge = &payload.edges[0];
/// assert_eq!((edge.source, edge.target), (1, 0)); // b calls a
/// assert_eq!((&*edge.edge_type, &*edge.status), ("calls", "added"));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BorrowedEdge<'a> {
    /// Index of the source symbol.
    pub source: usize,
    /// Index of the target symbol.
    pub target: usize,
    /// `calls`, `implements`, …
    pub edge_type: Cow<'a, str>,
    /// `""`, `unchanged`, `added` or `removed`.
    pub status: Cow<'a, str>,
}

fn owned(text: Cow<'_, str>) -> String {
    match text {
        Cow::Borrowed(s) => s.into(),
        Cow::Owned(s) => s,
    }
}

impl<'a> BorrowedPayload<'a> {
    /// The source and target symbols of an edge of this payload.
    ///
    /// # Panics
    ///
    /// When an index is out of range, which the decoders never produce (only a hand-built
    /// edge can hold one).
    ///
    /// ```
    /// use agentwire::gcf::v1;
    /// let text = "GCF tool=t budget=0 tokens=0 symbols=2\n## targets\n\
    ///             @0 type pkg.T 0.90 lsp\n@1 method pkg.T.M 0.70 lsp\n## edges\n\
    ///             @0<@1 member_of\n";
    /// let payload = v1::decode(text, &Default::default())?;
    /// for edge in &payload.edges {
    ///     let (source, target) = payload.endpoints(edge);
    ///     assert_eq!((&*source.kind, &*target.kind), ("method", "type"));
    /// }
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn endpoints(&self, edge: &BorrowedEdge<'a>) -> (&BorrowedSymbol<'a>, &BorrowedSymbol<'a>) {
        (&self.symbols[edge.source], &self.symbols[edge.target])
    }

    /// The owned payload: every name copied, each edge naming its endpoints by qualified name.
    ///
    /// # Panics
    ///
    /// When an edge index is out of range (see [`endpoints`](Self::endpoints)).
    ///
    /// ```
    /// use agentwire::gcf::{v1, Edge, Payload};
    /// let text = "GCF tool=t budget=0 tokens=0 symbols=2\n## targets\n@0 fn a 0.50 lsp\n\
    ///             @1 fn b 0.50 lsp\n## edges\n@0<@1 calls\n";
    /// let payload: Payload = v1::decode(text, &Default::default())?.into_payload();
    /// let edge = Edge {
    ///     source: "b".into(),
    ///     target: "a".into(),
    ///     edge_type: "calls".into(),
    ///     status: String::new(),
    /// };
    /// assert_eq!(payload.edges, [edge]);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn into_payload(self) -> Payload {
        let edges = self
            .edges
            .into_iter()
            .map(|e| Edge {
                source: String::from(&*self.symbols[e.source].qualified_name),
                target: String::from(&*self.symbols[e.target].qualified_name),
                edge_type: owned(e.edge_type),
                status: owned(e.status),
            })
            .collect();
        Payload {
            tool: owned(self.tool),
            token_budget: self.token_budget,
            tokens_used: self.tokens_used,
            pack_root: owned(self.pack_root),
            symbols: owned_symbols(self.symbols),
            edges,
        }
    }
}

impl BorrowedSymbol<'_> {
    /// The owned symbol.
    ///
    /// ```
    /// use agentwire::gcf::{v1, Symbol};
    /// let text =
    ///     "GCF tool=t budget=0 tokens=0 symbols=1\n## related\n@0 pkg net/http 0.25 ast\n";
    /// let symbol = v1::decode(text, &Default::default())?.symbols.remove(0).into_symbol();
    /// let expected = Symbol {
    ///     qualified_name: "net/http".into(),
    ///     kind: "package".into(),
    ///     score: 0.25,
    ///     provenance: "ast".into(),
    ///     distance: 1,
    ///     ..Symbol::default()
    /// };
    /// assert_eq!(symbol, expected);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn into_symbol(self) -> Symbol {
        Symbol {
            qualified_name: owned(self.qualified_name),
            kind: owned(self.kind),
            score: self.score,
            provenance: owned(self.provenance),
            distance: self.distance,
            signature: owned(self.signature),
            components: self.components,
        }
    }
}

/// A [`Payload`] whose text fields are borrowed from the input it was read from (its JSON
/// form, [`PayloadRef::from_reader`]); edges name their endpoints, as in [`Payload`]. What the
/// graph encoders take without a copy of each name ([`v3::graph::encode_ref`]).
///
/// [`v3::graph::encode_ref`]: super::v3::graph::encode_ref
///
/// ```
/// use agentwire::gcf::{BorrowedSymbol, EdgeRef, PayloadRef};
/// let payload = PayloadRef {
///     tool: "t".into(),
///     symbols: vec![BorrowedSymbol { qualified_name: "a".into(), ..BorrowedSymbol::default() }],
///     edges: vec![EdgeRef { source: "a".into(), target: "a".into(), ..EdgeRef::default() }],
///     ..PayloadRef::default()
/// };
/// assert_eq!(payload.into_payload().edges[0].source, "a");
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PayloadRef<'a> {
    /// The tool that produced it.
    pub tool: Cow<'a, str>,
    /// Token budget of the request.
    pub token_budget: i64,
    /// Tokens the pack uses.
    pub tokens_used: i64,
    /// Content address of the pack; empty when absent.
    pub pack_root: Cow<'a, str>,
    /// The symbols, in input order.
    pub symbols: Vec<BorrowedSymbol<'a>>,
    /// The edges, in input order.
    pub edges: Vec<EdgeRef<'a>>,
}

/// An [`Edge`] whose text fields are borrowed.
///
/// ```
/// use agentwire::gcf::EdgeRef;
/// let edge = EdgeRef { source: "b".into(), target: "a".into(), edge_type: "calls".into(), ..EdgeRef::default() };
/// assert_eq!(edge.into_edge().edge_type, "calls");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EdgeRef<'a> {
    /// Qualified name of the source symbol.
    pub source: Cow<'a, str>,
    /// Qualified name of the target symbol.
    pub target: Cow<'a, str>,
    /// `calls`, `implements`, …
    pub edge_type: Cow<'a, str>,
    /// `""`, `unchanged`, `added` or `removed`.
    pub status: Cow<'a, str>,
}

impl<'a> PayloadRef<'a> {
    /// A view of an owned payload: its names borrowed, none copied. What
    /// [`v3::graph::encode`](super::v3::graph::encode) encodes (through
    /// [`encode_ref`](super::v3::graph::encode_ref)).
    ///
    /// ```
    /// use agentwire::gcf::{Edge, Payload, PayloadRef};
    /// use std::borrow::Cow;
    /// let edge = Edge { source: "b".into(), target: "a".into(), ..Edge::default() };
    /// let payload = Payload { tool: "t".into(), edges: vec![edge], ..Payload::default() };
    /// let view = PayloadRef::of(&payload);
    /// assert!(matches!(view.edges[0].source, Cow::Borrowed("b")));
    /// assert_eq!(view.into_payload(), payload);
    /// ```
    pub fn of(payload: &'a Payload) -> PayloadRef<'a> {
        PayloadRef {
            tool: Cow::Borrowed(&payload.tool),
            token_budget: payload.token_budget,
            tokens_used: payload.tokens_used,
            pack_root: Cow::Borrowed(&payload.pack_root),
            symbols: payload
                .symbols
                .iter()
                .map(|s| BorrowedSymbol {
                    qualified_name: Cow::Borrowed(&s.qualified_name),
                    kind: Cow::Borrowed(&s.kind),
                    score: s.score,
                    provenance: Cow::Borrowed(&s.provenance),
                    distance: s.distance,
                    signature: Cow::Borrowed(&s.signature),
                    components: s.components,
                })
                .collect(),
            edges: payload
                .edges
                .iter()
                .map(|e| EdgeRef {
                    source: Cow::Borrowed(&e.source),
                    target: Cow::Borrowed(&e.target),
                    edge_type: Cow::Borrowed(&e.edge_type),
                    status: Cow::Borrowed(&e.status),
                })
                .collect(),
        }
    }

    /// The owned payload: every name copied.
    ///
    /// ```
    /// use agentwire::gcf::{Payload, PayloadRef};
    /// let payload = PayloadRef { tool: "t".into(), token_budget: 9, ..PayloadRef::default() };
    /// assert_eq!(payload.into_payload(), Payload { tool: "t".into(), token_budget: 9, ..Payload::default() });
    /// ```
    pub fn into_payload(self) -> Payload {
        Payload {
            tool: owned(self.tool),
            token_budget: self.token_budget,
            tokens_used: self.tokens_used,
            pack_root: owned(self.pack_root),
            symbols: owned_symbols(self.symbols),
            edges: owned_edges(self.edges),
        }
    }
}

/// The owned symbols (of a [`BorrowedPayload`], a [`PayloadRef`] or a delta read as one).
pub(super) fn owned_symbols(symbols: Vec<BorrowedSymbol<'_>>) -> Vec<Symbol> {
    // A loop, not `map().collect()`, whose in-place collection is much more code.
    let mut owned = Vec::with_capacity(symbols.len());
    for symbol in symbols {
        owned.push(symbol.into_symbol());
    }
    owned
}

/// The owned edges (of a [`PayloadRef`] or a delta read as one).
pub(super) fn owned_edges(edges: Vec<EdgeRef<'_>>) -> Vec<Edge> {
    let mut owned = Vec::with_capacity(edges.len());
    for edge in edges {
        owned.push(edge.into_edge());
    }
    owned
}

impl EdgeRef<'_> {
    /// The owned edge.
    ///
    /// ```
    /// use agentwire::gcf::{Edge, EdgeRef};
    /// let edge = EdgeRef { source: "b".into(), target: "a".into(), ..EdgeRef::default() };
    /// assert_eq!(edge.into_edge(), Edge { source: "b".into(), target: "a".into(), ..Edge::default() });
    /// ```
    pub fn into_edge(self) -> Edge {
        Edge {
            source: owned(self.source),
            target: owned(self.target),
            edge_type: owned(self.edge_type),
            status: owned(self.status),
        }
    }
}
