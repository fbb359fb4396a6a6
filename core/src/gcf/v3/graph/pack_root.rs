//! The canonical graph pack root `gcf-pack-root-v1` (SPEC §10.2).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use sha2::{Digest, Sha256};

use super::invalid;
use crate::gcf::v1::abbreviate_kind;
use crate::gcf::v3::scalar::write_double;
use crate::gcf::{Edge, Symbol};
use crate::{Error, ErrorKind, Result};

/// The canonical bytes hashed by [`pack_root`]: one `S\tkind\tqname\tscore\tprovenance\t
/// distance\n` record per symbol (kind abbreviated, score in canonical number form: `1`,
/// `0.78`) and one `E\tsource_kind\tsource\ttarget_kind\ttarget\ttype\n` record per edge,
/// each list sorted by bytes, symbols first.
///
/// Symbols may share a qualified name if their kinds differ, but an edge endpoint must name
/// a symbol ([`ErrorKind::GcfUnknownEdgeReference`]) of one kind only
/// ([`ErrorKind::InvalidArgument`]: an edge names its endpoints by qualified name, so the
/// record could not say which symbol it means). A non-finite score is
/// [`ErrorKind::GcfOutOfRange`].
///
/// ```
/// use agentwire::gcf::{v3::graph, Edge, Symbol};
/// let symbol = |name: &str, score| Symbol {
///     qualified_name: name.into(),
///     kind: "function".into(),
///     score,
///     provenance: "lsp".into(),
///     ..Symbol::default()
/// };
/// let calls = Edge {
///     source: "a.G".into(),
///     target: "a.F".into(),
///     edge_type: "calls".into(),
///     status: String::new(),
/// };
/// let symbols = [symbol("a.G", 1.0), symbol("a.F", 0.78)];
/// let canonical = graph::pack_root_canonical(&symbols, &[calls])?;
/// let expected = "S\tfn\ta.F\t0.78\tlsp\t0\nS\tfn\ta.G\t1\tlsp\t0\nE\tfn\ta.G\tfn\ta.F\tcalls\n";
/// assert_eq!(canonical, expected);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn pack_root_canonical(symbols: &[Symbol], edges: &[Edge]) -> Result<String> {
    let mut records: Vec<String> = Vec::with_capacity(symbols.len());
    // Qualified name → its kind, or the two kinds that make it ambiguous.
    let mut kinds: BTreeMap<&str, (&str, Option<&str>)> = BTreeMap::new();
    for symbol in symbols {
        let kind = abbreviate_kind(&symbol.kind);
        let entry = kinds.entry(&symbol.qualified_name).or_insert((kind, None));
        if entry.0 != kind {
            entry.1 = Some(kind);
        }
        let mut record = String::from("S\t");
        record.push_str(kind);
        record.push('\t');
        record.push_str(&symbol.qualified_name);
        record.push('\t');
        write_double(&mut record, symbol.score)?;
        record.push('\t');
        record.push_str(&symbol.provenance);
        record.push('\t');
        crate::num::write_i64(&mut record, symbol.distance);
        record.push('\n');
        records.push(record);
    }
    records.sort_unstable();
    let mut edge_records: Vec<String> = Vec::with_capacity(edges.len());
    for edge in edges {
        let kind_of = |name: &str| match kinds.get(name) {
            Some((kind, None)) => Ok(*kind),
            Some((one, Some(other))) => Err(ambiguous(name, one, other)),
            None => Err(Error::new(
                ErrorKind::GcfUnknownEdgeReference,
                alloc::format!(
                    "unknown_edge_reference: edge {} -> {} {} names {name:?}, which is no \
                     symbol of the snapshot",
                    edge.source,
                    edge.target,
                    edge.edge_type
                ),
            )),
        };
        let (source_kind, target_kind) = (kind_of(&edge.source)?, kind_of(&edge.target)?);
        let mut record = String::from("E\t");
        for part in [
            source_kind,
            &edge.source,
            target_kind,
            &edge.target,
            &edge.edge_type,
        ] {
            record.push_str(part);
            record.push('\t');
        }
        record.pop();
        record.push('\n');
        edge_records.push(record);
    }
    edge_records.sort_unstable();
    let mut canonical = String::new();
    for record in records.iter().chain(&edge_records) {
        canonical.push_str(record);
    }
    Ok(canonical)
}

fn ambiguous(name: &str, one: &str, other: &str) -> Error {
    invalid(alloc::format!(
        "gcf graph pack root: {name:?} is a {one} and a {other}; edge records could not tell \
         them apart"
    ))
}

/// The canonical pack root of a snapshot: `sha256:` + 64 lowercase hex digits of the SHA-256
/// of [`pack_root_canonical`]. Independent of symbol and edge order.
///
/// ```
/// use agentwire::gcf::v3::graph::pack_root;
/// assert_eq!(
///     pack_root(&[], &[])?,
///     "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
/// );
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn pack_root(symbols: &[Symbol], edges: &[Edge]) -> Result<String> {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digest = Sha256::digest(pack_root_canonical(symbols, edges)?.as_bytes());
    let mut root = String::with_capacity(7 + 64);
    root.push_str("sha256:");
    for byte in digest.iter() {
        root.push(char::from(HEX[usize::from(byte >> 4)]));
        root.push(char::from(HEX[usize::from(byte & 15)]));
    }
    Ok(root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    use crate::gcf::model::test_symbol as sym;

    /// A status the pack root must ignore.
    fn edge(source: &str, target: &str, edge_type: &str) -> Edge {
        Edge {
            status: "added".into(),
            ..crate::gcf::model::test_edge(source, target, edge_type)
        }
    }

    #[test]
    fn independent_of_order() {
        let symbols = vec![
            sym("z.Foo", "function", 0.9, 0),
            sym("a.Bar", "type", 0.5, 1),
            sym("m.Baz", "fn", 1.0, 3),
        ];
        let edges = vec![
            edge("z.Foo", "a.Bar", "calls"),
            edge("a.Bar", "z.Foo", "imports"),
            edge("m.Baz", "z.Foo", "calls"),
        ];
        let root = pack_root(&symbols, &edges).unwrap();
        let mut symbols_reversed = symbols.clone();
        symbols_reversed.reverse();
        let mut edges_rotated = edges.clone();
        edges_rotated.rotate_left(1);
        assert_eq!(pack_root(&symbols_reversed, &edges_rotated).unwrap(), root);
        assert_eq!(
            pack_root_canonical(&symbols, &edges).unwrap(),
            "S\tfn\tm.Baz\t1\tlsp\t3\nS\tfn\tz.Foo\t0.9\tlsp\t0\nS\ttype\ta.Bar\t0.5\tlsp\t1\n\
             E\tfn\tm.Baz\tfn\tz.Foo\tcalls\nE\tfn\tz.Foo\ttype\ta.Bar\tcalls\n\
             E\ttype\ta.Bar\tfn\tz.Foo\timports\n"
        );
        let changed = vec![sym("z.Foo", "function", 0.91, 0)];
        assert_ne!(
            pack_root(&changed, &[]).unwrap(),
            pack_root(&symbols[..1], &[]).unwrap()
        );
    }

    #[test]
    fn endpoints_must_name_one_symbol() {
        let symbols = vec![sym("a", "fn", 0.5, 0)];
        let e = pack_root(&symbols, &[edge("a", "b", "calls")]).unwrap_err();
        assert_eq!(e.code(), "GCF_UNKNOWN_EDGE_REFERENCE");
        let twice = vec![sym("a", "fn", 0.5, 0), sym("a", "type", 0.5, 0)];
        assert!(pack_root(&twice, &[]).is_ok());
        let e = pack_root(&twice, &[edge("a", "a", "calls")]).unwrap_err();
        assert_eq!(e.code(), "INVALID_ARGUMENT");
        let nan = vec![sym("a", "fn", f64::INFINITY, 0)];
        assert_eq!(pack_root(&nan, &[]).unwrap_err().code(), "GCF_OUT_OF_RANGE");
    }
}
