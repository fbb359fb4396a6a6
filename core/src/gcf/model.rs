//! The graph payload shared by GCF and GCB1.

use alloc::string::String;
use alloc::vec::Vec;

/// Limits for decoding a graph payload from GCF text ([`gcf::v1::decode`](super::v1::decode))
/// or GCB1 bytes ([`gcb::decode`](crate::gcb::decode)).
///
/// ```
/// use agentwire::{gcb, gcf};
/// let text = "GCF tool=t budget=0 tokens=0 symbols=2\n## targets\n@0 fn pkg.A 0.50 lsp\n\
///             @1 fn pkg.B 0.50 lsp\n";
/// let small = gcf::DecodeOptions { max_payload_bytes: 8 };
/// assert_eq!(gcf::v1::decode(text, &small).unwrap_err().code(), "GCF_PAYLOAD_TOO_LARGE");
/// let payload = gcf::v1::decode(text, &gcf::DecodeOptions::default())?.into_payload();
/// let bytes = gcb::encode(&payload);
/// assert_eq!(gcb::decode(&bytes, &small).unwrap_err().code(), "GCB_PAYLOAD_TOO_LARGE");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DecodeOptions {
    /// Most bytes of text the decoded payload may hold: the tool name, every symbol's name
    /// (and, in GCB1, signature) and every edge's source and target names. An edge names its
    /// endpoints by a small local id or index but decodes to their full names, so a few bytes
    /// of edges can stand for gigabytes; past the limit decoding fails with
    /// [`ErrorKind::GcfPayloadTooLarge`](crate::ErrorKind::GcfPayloadTooLarge) or
    /// [`ErrorKind::GcbPayloadTooLarge`](crate::ErrorKind::GcbPayloadTooLarge) at the line or
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
                 endpoints (the decoder's max payload bytes limit)",
                self.max
            )),
        }
    }
}

/// A context pack: the symbols a tool selected and the edges between them.
///
/// ```
/// use agentwire::gcf::{v1, Payload};
/// let text = "GCF tool=ctx budget=100 tokens=12 symbols=2\n## targets\n@0 fn a.F 0.50 lsp\n\
///             @1 fn a.G 0.50 lsp\n## edges\n@0<@1 calls\n";
/// let payload: Payload = v1::decode(text, &Default::default())?.into_payload();
/// assert_eq!((payload.token_budget, payload.tokens_used), (100, 12));
/// let edge = &payload.edges[0];
/// assert_eq!((edge.source.as_str(), edge.target.as_str()), ("a.G", "a.F"));
/// assert_eq!(v1::encode(&payload)?, text);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
///
/// ```
/// use agentwire::gcb;
/// use agentwire::gcf::{Components, Payload, Symbol};
/// let symbol = Symbol {
///     qualified_name: "pkg.Run".into(),
///     kind: "function".into(),
///     score: 0.75,
///     provenance: "lsp_resolved".into(),
///     distance: 0,
///     signature: "func Run() error".into(),
///     components: Components { confidence: 1.0, ..Components::default() },
/// };
/// // GCB1 carries every field (GCF text has no signature or components).
/// let payload =
///     Payload { tool: "t".into(), symbols: vec![symbol.clone()], ..Payload::default() };
/// let decoded = gcb::decode(&gcb::encode(&payload), &Default::default())?.into_payload();
/// assert_eq!(decoded.symbols, [symbol]);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
///
/// ```
/// use agentwire::gcf::{Components, Payload, Symbol};
/// use agentwire::gcb;
/// let components =
///     Components { blast_radius: 0.5, confidence: 1.0, recency: 0.25, distance: 0.125 };
/// let symbol = Symbol { qualified_name: "a".into(), components, ..Symbol::default() };
/// let payload = Payload { symbols: vec![symbol], ..Payload::default() };
/// let bytes = gcb::encode(&payload);
/// let decoded = gcb::decode(&bytes, &Default::default())?;
/// assert_eq!(decoded.symbols[0].components, components); // float32 on the wire
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
///
/// ```
/// use agentwire::gcf::{v1, Edge};
/// let text = "GCF tool=t budget=0 tokens=0 symbols=2\n## targets\n\
///             @0 iface io.Reader 0.90 lsp\n@1 type os.File 0.80 lsp\n## edges\n\
///             @0<@1 implements removed\n";
/// let payload = v1::decode(text, &Default::default())?.into_payload();
/// let expected = Edge {
///     source: "os.File".into(),
///     target: "io.Reader".into(),
///     edge_type: "implements".into(),
///     status: "removed".into(),
/// };
/// assert_eq!(payload.edges, [expected]);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
///
/// ```
/// use agentwire::gcf::{v1, DeltaPayload, Symbol};
/// let old = Symbol { qualified_name: "a.Old".into(), kind: "type".into(), ..Symbol::default() };
/// let delta = DeltaPayload {
///     tool: "ctx".into(),
///     base_root: "r1".into(),
///     new_root: "r2".into(),
///     removed: vec![old],
///     delta_tokens: 20,
///     full_tokens: 100,
///     ..DeltaPayload::default()
/// };
/// let head = "GCF tool=ctx delta=true base_root=r1 new_root=r2 tokens=20 savings=80%\n";
/// assert_eq!(v1::encode_delta(&delta), format!("{head}## removed\ntype a.Old\n"));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
