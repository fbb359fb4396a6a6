//! GCB1: the binary transport of the graph payload, byte-identical to knowing's
//! `internal/wire/binary.go`.
//!
//! ```text
//! "GCB1" | 0x01 | str tool | uvarint tokens_used | uvarint token_budget | uvarint n_sym | uvarint n_edge
//! symbol: str qname | u8 kind | f32 score | u8 provenance | u8 distance | str signature
//!         | f32 blast_radius | f32 confidence | f32 recency | f32 distance_component
//! edge:   uvarint source_idx | uvarint target_idx | u8 edge_type | u8 status
//! ```
//!
//! `str` is a uvarint length plus bytes, `uvarint` unsigned LEB128 (at most 10 bytes), `f32`
//! IEEE binary32 little-endian. Reference behaviour kept: unknown kind/provenance/edge-type
//! names encode as 0 and decode as `unknown_<id>`; an edge endpoint that is not a symbol encodes
//! as index 0; distance is truncated to a byte; trailing bytes are ignored. The decoder checks
//! every declared count and length against the bytes left before allocating, so no input makes
//! it allocate more than a small multiple of its size, except for edges: each decodes to its
//! endpoints' full names, which [`DecodeOptions::max_payload_bytes`] bounds (the
//! [`BorrowedPayload`] that [`decode`] returns names them by symbol index instead). Invalid UTF-8 in
//! strings decodes as U+FFFD (the reference keeps raw bytes).

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

pub use crate::gcf::DecodeOptions;
use crate::gcf::model::TextBudget;
use crate::gcf::{BorrowedEdge, BorrowedPayload, BorrowedSymbol, Components, Payload};
use crate::name_index::NameIndex;

use crate::{Error, ErrorKind, Result};

/// The magic bytes.
pub const MAGIC: &[u8; 4] = b"GCB1";
/// The only version.
pub const VERSION: u8 = 1;

/// Symbol kinds, ids 1..=18.
pub const KINDS: [&str; 18] = [
    "function",
    "type",
    "method",
    "interface",
    "var",
    "const",
    "resource",
    "table",
    "class",
    "selector",
    "field",
    "route_handler",
    "external",
    "file",
    "package",
    "service",
    "env_var",
    "process",
];

/// Provenances, ids 1..=7.
pub const PROVENANCES: [&str; 7] = [
    "ast_inferred",
    "ast_resolved",
    "lsp_resolved",
    "otel_trace",
    "scip_resolved",
    "runtime_observed",
    "structural",
];

/// Edge types, ids 1..=38.
pub const EDGE_TYPES: [&str; 38] = [
    "calls",
    "imports",
    "implements",
    "references",
    "handles_route",
    "depends_on",
    "deploys",
    "exposes",
    "configures",
    "extends",
    "overrides",
    "decorates",
    "throws",
    "owned_by",
    "authored_by",
    "tests",
    "runtime_calls",
    "runtime_rpc",
    "runtime_produces",
    "runtime_consumes",
    "contains",
    "member_of",
    "documents",
    "consumes_endpoint",
    "implements_rpc",
    "consumes_rpc",
    "gated_by_flag",
    "deployed_by",
    "tested_by",
    "publishes",
    "subscribes",
    "connects_to",
    "similar_to",
    "co_tested_with",
    "type_hint_of",
    "accesses_field",
    "reads_env",
    "executes_process",
];

/// The smallest encoded symbol: empty strings (1 + 1 bytes), 3 bytes, 5 floats.
const MIN_SYMBOL_BYTES: usize = 1 + 1 + 4 + 1 + 1 + 1 + 16;
/// The smallest encoded edge: two one-byte varints and two bytes.
const MIN_EDGE_BYTES: usize = 4;

fn enum_id(table: &[&str], name: &str) -> u8 {
    table
        .iter()
        .position(|n| *n == name)
        .map_or(0, |i| i as u8 + 1)
}

fn enum_name(table: &[&'static str], id: u8) -> Cow<'static, str> {
    match table.get(usize::from(id).wrapping_sub(1)) {
        Some(name) if id > 0 => Cow::Borrowed(name),
        _ => Cow::Owned(alloc::format!("unknown_{id}")),
    }
}

fn status_id(status: &str) -> u8 {
    match status {
        "added" => 1,
        "removed" => 2,
        _ => 0,
    }
}

fn status_name(id: u8) -> &'static str {
    match id {
        1 => "added",
        2 => "removed",
        _ => "",
    }
}

fn put_uvarint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_uvarint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

fn f32_value(bytes: [u8; 4]) -> f64 {
    f64::from(f32::from_le_bytes(bytes))
}

fn put_f32(out: &mut Vec<u8>, v: f64) {
    out.extend_from_slice(&(v as f32).to_le_bytes());
}

/// Encodes a payload as GCB1 (`pack_root` is not carried).
///
/// ```
/// use agentwire::{gcb, gcf};
/// let text = "GCF tool=t budget=0 tokens=3 symbols=1\n## targets\n\
///             @0 method a 0.50 lsp_resolved\n";
/// let payload = gcf::v1::decode(text, &Default::default())?.into_payload();
/// let bytes = gcb::encode(&payload);
/// assert_eq!(&bytes[..8], b"GCB1\x01\x01t\x03"); // magic, version, tool, tokens_used
/// assert_eq!(gcb::decode(&bytes, &Default::default())?.into_payload(), payload);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode(payload: &Payload) -> Vec<u8> {
    let mut out = Vec::with_capacity(32 + payload.symbols.len() * 48 + payload.edges.len() * 4);
    out.extend_from_slice(MAGIC);
    out.push(VERSION);
    put_str(&mut out, &payload.tool);
    // Go writes ints as uint64(int): a negative count becomes a 10-byte varint.
    put_uvarint(&mut out, payload.tokens_used as u64);
    put_uvarint(&mut out, payload.token_budget as u64);
    put_uvarint(&mut out, payload.symbols.len() as u64);
    put_uvarint(&mut out, payload.edges.len() as u64);
    let index = NameIndex::new(payload.symbols.iter().map(|s| s.qualified_name.as_str()));
    for s in &payload.symbols {
        put_str(&mut out, &s.qualified_name);
        out.push(enum_id(&KINDS, &s.kind));
        put_f32(&mut out, s.score);
        out.push(enum_id(&PROVENANCES, &s.provenance));
        out.push(s.distance as u8);
        put_str(&mut out, &s.signature);
        put_f32(&mut out, s.components.blast_radius);
        put_f32(&mut out, s.components.confidence);
        put_f32(&mut out, s.components.recency);
        put_f32(&mut out, s.components.distance);
    }
    for e in &payload.edges {
        put_uvarint(&mut out, index.get(&e.source).unwrap_or(0) as u64);
        put_uvarint(&mut out, index.get(&e.target).unwrap_or(0) as u64);
        out.push(enum_id(&EDGE_TYPES, &e.edge_type));
        out.push(status_id(&e.status));
    }
    out
}

/// What the reader is reading, for error messages (formatted only when one is raised).
#[derive(Clone, Copy)]
enum What {
    Header(&'static str),
    Symbol(usize, &'static str),
    Edge(usize, &'static str),
}

impl core::fmt::Display for What {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            What::Header(field) => f.write_str(field),
            What::Symbol(i, field) => write!(f, "symbol[{i}] {field}"),
            What::Edge(i, field) => write!(f, "edge[{i}] {field}"),
        }
    }
}

/// A cursor over the input that reports where it failed.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn left(&self) -> usize {
        self.bytes.len() - self.pos
    }

    #[cold]
    #[inline(never)]
    fn truncated(&self, what: What) -> Error {
        Error::at_offset(
            ErrorKind::GcbTruncated,
            alloc::format!("gcb: input ends inside {what}"),
            self.bytes.len() as u64,
        )
    }

    #[inline]
    fn take(&mut self, n: usize, what: What) -> Result<&'a [u8]> {
        match self.bytes.get(self.pos..).and_then(|rest| rest.get(..n)) {
            Some(slice) => {
                self.pos += n;
                Ok(slice)
            }
            None => Err(self.truncated(what)),
        }
    }

    /// The next `N` bytes, if there are that many (a fast path: on `None` the caller reads
    /// field by field, which names the field that is cut).
    #[inline]
    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.bytes.get(self.pos..)?.get(..N)?);
        self.pos += N;
        Some(out)
    }

    #[inline]
    fn byte(&mut self, what: What) -> Result<u8> {
        match self.bytes.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.truncated(what)),
        }
    }

    /// Go `binary.ReadUvarint`: at most 10 bytes, the 10th at most 1.
    #[inline]
    fn uvarint(&mut self, what: What) -> Result<u64> {
        match self.bytes.get(self.pos) {
            Some(&b) if b < 0x80 => {
                self.pos += 1;
                Ok(u64::from(b))
            }
            _ => self.long_uvarint(what),
        }
    }

    #[inline(never)]
    fn long_uvarint(&mut self, what: What) -> Result<u64> {
        let start = self.pos;
        let mut value = 0u64;
        for i in 0..10 {
            let b = self.byte(what)?;
            if b < 0x80 {
                if i == 9 && b > 1 {
                    break;
                }
                return Ok(value | u64::from(b) << (7 * i));
            }
            value |= u64::from(b & 0x7f) << (7 * i);
        }
        Err(Error::at_offset(
            ErrorKind::GcbVarintOverflow,
            alloc::format!("gcb: {what}: varint overflows a 64-bit integer"),
            start as u64,
        ))
    }

    /// A count that must fit in the bytes left, `min_bytes` per item.
    #[inline]
    fn count(&mut self, what: What, min_bytes: usize) -> Result<usize> {
        let start = self.pos;
        let n = self.uvarint(what)?;
        let fits = usize::try_from(n)
            .ok()
            .filter(|n| n.saturating_mul(min_bytes) <= self.left());
        fits.ok_or_else(|| {
            Error::at_offset(
                ErrorKind::GcbTruncated,
                alloc::format!("gcb: {what} is {n} but only {} bytes remain", self.left()),
                start as u64,
            )
        })
    }

    #[inline]
    fn string(&mut self, what: What) -> Result<Cow<'a, str>> {
        let len = self.count(what, 1)?;
        let bytes = self.take(len, what)?;
        Ok(match core::str::from_utf8(bytes) {
            Ok(text) => Cow::Borrowed(text),
            Err(_) => String::from_utf8_lossy(bytes),
        })
    }

    #[inline]
    fn f32(&mut self, what: What) -> Result<f64> {
        let b = self.take(4, what)?;
        Ok(f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])))
    }
}

/// Decodes GCB1 bytes into a [`BorrowedPayload`]: names and signatures are slices of
/// `bytes` (U+FFFD-replaced copies only where they are not UTF-8), enum names are static,
/// edges are symbol indices. Every error has a code and the byte offset where it was found.
/// [`DecodeOptions::max_payload_bytes`] bounds the text the owned payload
/// ([`BorrowedPayload::into_payload`]) would hold: each edge decodes to its endpoints' full
/// names, checked before anything is copied.
///
/// ```
/// use agentwire::{gcb, gcf};
/// let text = "GCF tool=t budget=0 tokens=0 symbols=2\n## targets\n@0 fn a 0.5 lsp_resolved\n@1 method b 0.25 lsp_resolved\n## edges\n@0<@1 calls\n";
/// let options = gcf::DecodeOptions::default();
/// let bytes = gcb::encode(&gcf::v1::decode(text, &options)?.into_payload());
/// let payload = gcb::decode(&bytes, &options)?;
/// assert_eq!((payload.symbols[1].qualified_name.as_ref(), payload.symbols[1].kind.as_ref()), ("b", "method"));
/// let (source, target) = payload.endpoints(&payload.edges[0]);
/// assert_eq!((source.qualified_name.as_ref(), target.qualified_name.as_ref()), ("b", "a"));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn decode<'a>(bytes: &'a [u8], options: &DecodeOptions) -> Result<BorrowedPayload<'a>> {
    decode_payload(bytes, &mut TextBudget::new(options))
}

/// The decoder: `budget` counts the text the owned payload would hold, so that the owned
/// decode fails at the symbol or edge that crosses its limit.
fn decode_payload<'a>(bytes: &'a [u8], budget: &mut TextBudget) -> Result<BorrowedPayload<'a>> {
    let too_large = |message: String, at: usize| {
        Error::at_offset(ErrorKind::GcbPayloadTooLarge, message, at as u64)
    };
    let mut r = Reader { bytes, pos: 0 };
    let magic = r.take(4, What::Header("the magic"))?;
    if magic != MAGIC {
        return Err(Error::at_offset(
            ErrorKind::GcbBadMagic,
            alloc::format!("gcb: invalid magic {}", crate::text::go_quote(magic, 4)),
            0,
        ));
    }
    let version = r.byte(What::Header("the version"))?;
    if version != VERSION {
        return Err(Error::at_offset(
            ErrorKind::GcbUnsupportedVersion,
            alloc::format!("gcb: unsupported version {version}"),
            4,
        ));
    }
    let tool = r.string(What::Header("tool"))?;
    budget.spend(tool.len()).map_err(|m| too_large(m, 5))?;
    let tokens_used = r.uvarint(What::Header("tokens_used"))? as i64;
    let token_budget = r.uvarint(What::Header("token_budget"))? as i64;
    let symbol_count = r.count(What::Header("num_symbols"), MIN_SYMBOL_BYTES)?;
    let edge_count_at = r.pos;
    let edge_count = r.uvarint(What::Header("num_edges"))?;
    // Symbols come first, so the edges must fit in what is left after their minimum size.
    let edge_room = r.left().saturating_sub(symbol_count * MIN_SYMBOL_BYTES) / MIN_EDGE_BYTES;
    let edge_count = usize::try_from(edge_count)
        .ok()
        .filter(|n| *n <= edge_room)
        .ok_or_else(|| {
            Error::at_offset(
                ErrorKind::GcbTruncated,
                alloc::format!(
                    "gcb: num_edges is {edge_count} but only {} bytes remain",
                    r.left()
                ),
                edge_count_at as u64,
            )
        })?;
    let mut symbols = Vec::with_capacity(symbol_count);
    for i in 0..symbol_count {
        let what = |field| What::Symbol(i, field);
        let at = r.pos;
        let qualified_name = r.string(what("qname"))?;
        // kind, score, provenance, distance: 7 bytes read at once when they are all there.
        let (kind, score, provenance, distance) = match r.array::<7>() {
            Some([k, s0, s1, s2, s3, p, d]) => (k, f32_value([s0, s1, s2, s3]), p, d),
            None => (
                r.byte(what("kind"))?,
                r.f32(what("score"))?,
                r.byte(what("provenance"))?,
                r.byte(what("distance"))?,
            ),
        };
        let signature = r.string(what("signature"))?;
        let components = match r.array::<16>() {
            Some(b) => Components {
                blast_radius: f32_value([b[0], b[1], b[2], b[3]]),
                confidence: f32_value([b[4], b[5], b[6], b[7]]),
                recency: f32_value([b[8], b[9], b[10], b[11]]),
                distance: f32_value([b[12], b[13], b[14], b[15]]),
            },
            None => Components {
                blast_radius: r.f32(what("blast_radius"))?,
                confidence: r.f32(what("confidence"))?,
                recency: r.f32(what("recency"))?,
                distance: r.f32(what("distance_comp"))?,
            },
        };
        let symbol = BorrowedSymbol {
            qualified_name,
            kind: enum_name(&KINDS, kind),
            score,
            provenance: enum_name(&PROVENANCES, provenance),
            distance: i64::from(distance),
            signature,
            components,
        };
        budget
            .spend(symbol.qualified_name.len() + symbol.signature.len())
            .map_err(|m| too_large(m, at))?;
        symbols.push(symbol);
    }
    let mut edges = Vec::with_capacity(edge_count);
    for i in 0..edge_count {
        let at = r.pos as u64;
        // The common edge is four bytes: two one-byte varints, type, status.
        let (source, target, edge_type, status) = match r.bytes.get(r.pos..r.pos + 4) {
            Some(&[s, t, e, st]) if s < 0x80 && t < 0x80 => {
                r.pos += 4;
                (u64::from(s), u64::from(t), e, st)
            }
            _ => (
                r.uvarint(What::Edge(i, "source"))?,
                r.uvarint(What::Edge(i, "target"))?,
                r.byte(What::Edge(i, "edge_type"))?,
                r.byte(What::Edge(i, "status"))?,
            ),
        };
        let index = |index: u64| usize::try_from(index).ok().filter(|i| *i < symbols.len());
        let (Some(source_index), Some(target_index)) = (index(source), index(target)) else {
            return Err(Error::at_offset(
                ErrorKind::GcbEdgeIndex,
                alloc::format!(
                    "gcb: edge[{i}] index out of range (src={source} tgt={target}, symbols={})",
                    symbols.len()
                ),
                at,
            ));
        };
        // What the owned payload copies for this edge.
        budget
            .spend(
                symbols[source_index].qualified_name.len()
                    + symbols[target_index].qualified_name.len(),
            )
            .map_err(|m| too_large(m, at as usize))?;
        edges.push(BorrowedEdge {
            source: source_index,
            target: target_index,
            edge_type: enum_name(&EDGE_TYPES, edge_type),
            status: Cow::Borrowed(status_name(status)),
        });
    }
    Ok(BorrowedPayload {
        tool,
        token_budget,
        tokens_used,
        pack_root: Cow::Borrowed(""),
        symbols,
        edges,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_counts_fail_without_allocating() {
        // 2^40 symbols declared in a 20-byte input.
        let mut bytes = b"GCB1\x01\x00\x00\x00".to_vec();
        put_uvarint(&mut bytes, 1 << 40);
        bytes.push(0);
        let e = decode(&bytes, &DecodeOptions::default()).unwrap_err();
        assert_eq!((e.code(), e.offset()), ("GCB_TRUNCATED", Some(8)));
        assert_eq!(
            decode(
                b"GCB1\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f",
                &DecodeOptions::default()
            )
            .unwrap_err()
            .code(),
            "GCB_VARINT_OVERFLOW"
        );
        assert_eq!(
            decode(b"GCB2\x01", &DecodeOptions::default())
                .unwrap_err()
                .code(),
            "GCB_BAD_MAGIC"
        );
        assert_eq!(
            decode(b"", &DecodeOptions::default()).unwrap_err().code(),
            "GCB_TRUNCATED"
        );
    }

    #[test]
    fn enums_round_trip_and_unknowns_are_lossy() {
        assert_eq!(enum_name(&KINDS, enum_id(&KINDS, "process")), "process");
        assert_eq!(enum_name(&KINDS, enum_id(&KINDS, "Function")), "unknown_0");
        assert_eq!(enum_name(&EDGE_TYPES, 39), "unknown_39");
    }
}
