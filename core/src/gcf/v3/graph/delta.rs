//! Graph deltas (SPEC §10): encoding, strict decoding, atomic application with pack-root
//! verification, and the `unchanged=true` response (SPEC §10.3).

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;
use alloc::vec::Vec;

use super::decode::{
    Bracket, content, control_at, fail, header_line, new_budget, offset_in, read_head, read_node,
    read_section_header, spend, split_fields,
};
use super::{
    check_distance, check_field, pack_root, push_header_field, push_id, push_node_fields,
    start_header, written_kind,
};
use crate::gcf::v1::abbreviate_kind;
use crate::gcf::v3::{DecodeOptions, Header, Line, Profile, body_lines};
use crate::gcf::{DeltaPayload, Edge, Payload, Symbol};
use crate::{Error, ErrorKind, Result};

/// A decoded graph delta payload (SPEC §10.1).
///
/// [`v3::decode`](crate::gcf::v3::decode) reads one as
/// [`Document::GraphDelta`](crate::gcf::v3::Document::GraphDelta); [`apply_delta`] applies it.
///
/// ```
/// use agentwire::gcf::v3::{self, Document};
/// let text = concat!(
///     "GCF profile=graph delta=true base_root=sha256:aa new_root=sha256:bb savings=60%\n",
///     "## removed\nfn a.Old\n",
///     "## added\n@0 fn a.New 0.80 lsp 1\n",
/// );
/// let Document::GraphDelta(delta) = v3::decode(text.as_bytes(), &Default::default())? else { unreachable!() };
/// assert_eq!((delta.base_root.as_str(), delta.savings.as_str()), ("sha256:aa", "60%"));
/// let removed = &delta.removed[0];
/// assert_eq!((removed.kind.as_str(), removed.qualified_name.as_str()), ("function", "a.Old"));
/// assert_eq!((delta.added[0].score, delta.added[0].distance), (0.8, 1));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GraphDelta {
    /// Header `tool` (empty when absent).
    pub tool: String,
    /// Header `base_root`: the pack root the delta applies to.
    pub base_root: String,
    /// Header `new_root`: the pack root after applying it.
    pub new_root: String,
    /// Header `tokens` (0 when absent).
    pub tokens: i64,
    /// Header `savings` as written (`85%`), empty when absent.
    pub savings: String,
    /// `## removed`: kind (expanded) and qualified name only.
    pub removed: Vec<Symbol>,
    /// `## added`: full symbols with their distance.
    pub added: Vec<Symbol>,
    /// `## edges_removed` (no status).
    pub removed_edges: Vec<Edge>,
    /// `## edges_added` (no status).
    pub added_edges: Vec<Edge>,
}

// ---------------------------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------------------------

fn push_delta_edges(out: &mut String, title: &str, edges: &[Edge]) -> Result<()> {
    if edges.is_empty() {
        return Ok(());
    }
    out.push_str(title);
    for edge in edges {
        check_field("edge source", &edge.source)?;
        check_field("edge target", &edge.target)?;
        check_field("edge type", &edge.edge_type)?;
        out.push_str(&edge.source);
        out.push_str(" -> ");
        out.push_str(&edge.target);
        out.push(' ');
        out.push_str(&edge.edge_type);
        out.push('\n');
    }
    Ok(())
}

/// Encodes a graph delta (SPEC §10):
/// `GCF profile=graph tool=… delta=true base_root=… new_root=… tokens=… savings=…%`, then the
/// non-empty sections `## removed` (`kind qname`), `## added` (`@i kind qname score provenance
/// distance`, i from 0), `## edges_removed` and `## edges_added` (`source -> target type`), in
/// input order. `savings` is `100 × (1 − deltaTokens / fullTokens)` with no decimals (ties to
/// even), 0 when `fullTokens` is not positive. Both roots are required.
///
/// ```
/// use agentwire::gcf::{v3::graph, DeltaPayload, Edge, Symbol};
/// let added = Symbol {
///     qualified_name: "a.New".into(),
///     kind: "function".into(),
///     score: 0.8,
///     provenance: "lsp".into(),
///     ..Symbol::default()
/// };
/// let delta = DeltaPayload {
///     base_root: "sha256:aa".into(),
///     new_root: "sha256:bb".into(),
///     added: vec![added],
///     added_edges: vec![Edge {
///         source: "a.New".into(),
///         target: "a.F".into(),
///         edge_type: "calls".into(),
///         status: String::new(),
///     }],
///     delta_tokens: 4,
///     full_tokens: 10,
///     ..DeltaPayload::default()
/// };
/// let expected = concat!(
///     "GCF profile=graph delta=true base_root=sha256:aa new_root=sha256:bb",
///     " tokens=4 savings=60%\n",
///     "## added\n@0 fn a.New 0.80 lsp 0\n",
///     "## edges_added\na.New -> a.F calls\n",
/// );
/// assert_eq!(graph::encode_delta(&delta)?, expected);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_delta(delta: &DeltaPayload) -> Result<String> {
    let mut out = start_header(&delta.tool)?;
    out.push_str(" delta=true");
    push_header_field(&mut out, "base_root", &delta.base_root)?;
    push_header_field(&mut out, "new_root", &delta.new_root)?;
    out.push_str(" tokens=");
    crate::num::write_i64(&mut out, delta.delta_tokens);
    let savings = if delta.full_tokens > 0 {
        100.0 * (1.0 - delta.delta_tokens as f64 / delta.full_tokens as f64)
    } else {
        0.0
    };
    {
        use core::fmt::Write;
        let _ = write!(out, " savings={savings:.0}%");
    }
    out.push('\n');
    if !delta.removed.is_empty() {
        out.push_str("## removed\n");
        for symbol in &delta.removed {
            let kind = written_kind(&symbol.kind)?;
            check_field("qualified name", &symbol.qualified_name)?;
            out.push_str(kind);
            out.push(' ');
            out.push_str(&symbol.qualified_name);
            out.push('\n');
        }
    }
    if !delta.added.is_empty() {
        out.push_str("## added\n");
        for (id, symbol) in delta.added.iter().enumerate() {
            check_distance(&symbol.qualified_name, symbol.distance)?;
            push_id(&mut out, id as u64);
            out.push(' ');
            push_node_fields(
                &mut out,
                &symbol.kind,
                &symbol.qualified_name,
                symbol.score,
                &symbol.provenance,
            )?;
            out.push(' ');
            crate::num::write_i64(&mut out, symbol.distance);
            out.push('\n');
        }
    }
    push_delta_edges(&mut out, "## edges_removed\n", &delta.removed_edges)?;
    push_delta_edges(&mut out, "## edges_added\n", &delta.added_edges)?;
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum DeltaSection {
    Removed,
    Added,
    EdgesRemoved,
    EdgesAdded,
}

fn malformed(line: &Line<'_>, at: usize, what: &str) -> Error {
    fail(
        line,
        at,
        ErrorKind::GcfMalformedDelta,
        alloc::format!("malformed_delta: {what}"),
    )
}

/// Reads `source -> target type`.
fn read_delta_edge(line: &Line<'_>, text: &str) -> Result<Edge> {
    let mut fields = [""; 4];
    if split_fields(text, &mut fields) != Some(4) || fields[1] != "->" {
        return Err(malformed(
            line,
            0,
            "an edge delta line is `source -> target type`, separated by single spaces",
        ));
    }
    check_controls(line, &fields)?;
    let [source, _, target, edge_type] = fields;
    Ok(Edge {
        source: source.into(),
        target: target.into(),
        edge_type: edge_type.into(),
        status: String::new(),
    })
}

fn check_controls(line: &Line<'_>, fields: &[&str]) -> Result<()> {
    for field in fields {
        if let Some(at) = control_at(field) {
            return Err(malformed(
                line,
                offset_in(line.text, field) + at,
                "a control character inside a field",
            ));
        }
    }
    Ok(())
}

/// Decodes a graph delta payload (SPEC §10.1, §16.5): only the four delta sections, each with
/// its own line form; anything else is [`ErrorKind::GcfMalformedDelta`]. `base_root` and
/// `new_root` are required. `[N]` brackets on the sections are validated.
pub(crate) fn decode_delta(text: &str, header: &Header<'_>) -> Result<GraphDelta> {
    let head = read_head(text, header)?;
    let first = header_line(text);
    for (key, value) in [("base_root", head.base_root), ("new_root", head.new_root)] {
        if value.is_empty() {
            return Err(malformed(
                &first,
                first.text.len(),
                &alloc::format!("a delta header carries {key}="),
            ));
        }
    }
    let mut delta = GraphDelta {
        tool: head.tool.into(),
        base_root: head.base_root.into(),
        new_root: head.new_root.into(),
        tokens: head.tokens,
        savings: head.savings.into(),
        ..GraphDelta::default()
    };
    let mut budget = new_budget();
    let mut section: Option<DeltaSection> = None;
    // The open section's header line, bracket and bracket offset, and its line count.
    let mut open: Option<(Line<'_>, Bracket, usize, u64)> = None;
    let close = |open: &mut Option<(Line<'_>, Bracket, usize, u64)>| match open.take() {
        Some((line, Bracket::Count(n), at, items)) if n != items => Err(fail(
            &line,
            at,
            ErrorKind::GcfCountMismatch,
            alloc::format!("count_mismatch: the section declares [{n}] but {items} lines follow"),
        )),
        _ => Ok(()),
    };
    let mut trailer = false;
    for line in body_lines(text, header) {
        let Some(text) = content(&line) else {
            continue;
        };
        if trailer {
            return Err(malformed(
                &line,
                0,
                "nothing may follow the `##! summary` trailer",
            ));
        }
        if text
            .strip_prefix("##! summary")
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
        {
            close(&mut open)?;
            trailer = true;
            continue;
        }
        if text.starts_with("##") {
            close(&mut open)?;
            let (name, bracket, at) =
                read_section_header(&line, text).map_err(|e| match e.kind() {
                    ErrorKind::GcfInvalidLine => malformed(&line, 0, "not a delta section header"),
                    _ => e,
                })?;
            section = Some(match name {
                "removed" => DeltaSection::Removed,
                "added" => DeltaSection::Added,
                "edges_removed" => DeltaSection::EdgesRemoved,
                "edges_added" => DeltaSection::EdgesAdded,
                other => {
                    return Err(malformed(
                        &line,
                        3,
                        &alloc::format!(
                            "`## {other}` is not a delta section (removed, added, edges_removed, \
                             edges_added)"
                        ),
                    ));
                }
            });
            open = Some((line, bracket, at, 0));
            continue;
        }
        if let Some(open) = &mut open {
            open.3 += 1;
        }
        match section {
            None => return Err(malformed(&line, 0, "a line before the first delta section")),
            Some(DeltaSection::Removed) => {
                let mut fields = [""; 2];
                if split_fields(text, &mut fields) != Some(2) {
                    return Err(malformed(&line, 0, "a removed line is `kind qname`"));
                }
                check_controls(&line, &fields)?;
                let [kind, qualified_name] = fields;
                spend(&mut budget, &line, text.len())?;
                delta.removed.push(Symbol {
                    kind: crate::gcf::v1::expand_kind(kind).into(),
                    qualified_name: qualified_name.into(),
                    ..Symbol::default()
                });
            }
            Some(DeltaSection::Added) => {
                let mut fields = [""; 6];
                if split_fields(text, &mut fields) != Some(6) {
                    return Err(malformed(
                        &line,
                        0,
                        "an added line is a full declaration \
                         `@id kind qname score provenance distance`",
                    ));
                }
                let distance = fields[5]
                    .bytes()
                    .all(|b| b.is_ascii_digit())
                    .then(|| fields[5].parse::<i64>().ok())
                    .flatten()
                    .ok_or_else(|| {
                        malformed(
                            &line,
                            offset_in(text, fields[5]),
                            "the distance of an added line is a decimal integer",
                        )
                    })?;
                let (_, symbol) =
                    read_node(&line, &fields[..5], distance, ErrorKind::GcfMalformedDelta)?;
                spend(&mut budget, &line, text.len())?;
                delta.added.push(symbol);
            }
            Some(DeltaSection::EdgesRemoved) => {
                spend(&mut budget, &line, text.len())?;
                delta.removed_edges.push(read_delta_edge(&line, text)?);
            }
            Some(DeltaSection::EdgesAdded) => {
                spend(&mut budget, &line, text.len())?;
                delta.added_edges.push(read_delta_edge(&line, text)?);
            }
        }
    }
    close(&mut open)?;
    Ok(delta)
}

// ---------------------------------------------------------------------------------------------
// Application
// ---------------------------------------------------------------------------------------------

fn conflict(message: String) -> Error {
    Error::new(
        ErrorKind::GcfDeltaConflict,
        alloc::format!("delta_conflict: {message}"),
    )
}

fn root_mismatch(which: &str, declared: &str, computed: &str) -> Error {
    Error::new(
        ErrorKind::GcfRootMismatch,
        alloc::format!(
            "root_mismatch: the delta's {which} is {declared} but the {} snapshot's pack root is \
             {computed}",
            if which == "base_root" {
                "base"
            } else {
                "resulting"
            }
        ),
    )
}

/// Identity → indices of the live items holding it (a snapshot may repeat an item; each
/// removal takes one).
type Live<'a, K> = BTreeMap<K, Vec<usize>>;

/// Applies a delta to the snapshot `base` atomically (SPEC §10.4): the base's canonical pack
/// root must equal `base_root`, every removal must name a symbol (by kind and qualified name)
/// or edge (by source, target and type) the base holds, every addition must be new, and every
/// edge of the result must join two of its symbols ([`ErrorKind::GcfDeltaConflict`]); then
/// the result's pack root must equal `new_root` ([`ErrorKind::GcfRootMismatch`]). `base` is
/// never modified; on success the result holds the base's remaining symbols and edges in
/// order, then the added ones, with `pack_root` set to the new root (tool, budget and tokens
/// are the base's, the tool replaced by the delta's when it has one).
///
/// ```
/// use agentwire::gcf::v3::graph::{self, GraphDelta};
/// use agentwire::gcf::{Payload, Symbol};
/// # let symbol = |name: &str| Symbol {
/// #     qualified_name: name.into(),
/// #     kind: "function".into(),
/// #     score: 0.5,
/// #     provenance: "lsp".into(),
/// #     ..Symbol::default()
/// # };
/// // `symbol(name)`: a `function` symbol of that name.
/// let base = Payload { symbols: vec![symbol("a.F"), symbol("a.Old")], ..Payload::default() };
/// let next = vec![symbol("a.F"), symbol("a.New")];
/// let delta = GraphDelta {
///     base_root: graph::pack_root(&base.symbols, &[])?,
///     new_root: graph::pack_root(&next, &[])?,
///     removed: vec![symbol("a.Old")],
///     added: vec![symbol("a.New")],
///     ..GraphDelta::default()
/// };
/// let applied = graph::apply_delta(&base, &delta)?;
/// assert_eq!(applied.symbols, next);
/// assert_eq!(applied.pack_root, delta.new_root);
/// // The delta applies to its base only.
/// let err = graph::apply_delta(&applied, &delta).unwrap_err();
/// assert_eq!(err.code(), "GCF_ROOT_MISMATCH");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn apply_delta(base: &Payload, delta: &GraphDelta) -> Result<Payload> {
    let computed = pack_root(&base.symbols, &base.edges)?;
    if computed != delta.base_root {
        return Err(root_mismatch("base_root", &delta.base_root, &computed));
    }
    let mut live_symbols = vec_true(base.symbols.len());
    let mut symbols: Live<'_, (&str, &str)> = BTreeMap::new();
    for (i, symbol) in base.symbols.iter().enumerate() {
        symbols.entry(identity(symbol)).or_default().push(i);
    }
    for symbol in &delta.removed {
        let (kind, name) = identity(symbol);
        let index = symbols.get_mut(&(kind, name)).and_then(Vec::pop);
        let Some(index) = index else {
            return Err(conflict(alloc::format!(
                "removes {kind} {name}, which the base does not hold"
            )));
        };
        live_symbols[index] = false;
    }
    for (i, symbol) in delta.added.iter().enumerate() {
        let (kind, name) = identity(symbol);
        let holders = symbols.entry((kind, name)).or_default();
        if !holders.is_empty() {
            return Err(conflict(alloc::format!(
                "adds {kind} {name}, which already exists"
            )));
        }
        holders.push(base.symbols.len() + i);
    }

    let edge_key = |e: &'_ Edge| (e.source.clone(), e.target.clone(), e.edge_type.clone());
    let mut live_edges = vec_true(base.edges.len());
    let mut edges: Live<'_, (String, String, String)> = BTreeMap::new();
    for (i, edge) in base.edges.iter().enumerate() {
        edges.entry(edge_key(edge)).or_default().push(i);
    }
    for edge in &delta.removed_edges {
        let index = edges.get_mut(&edge_key(edge)).and_then(Vec::pop);
        let Some(index) = index else {
            return Err(conflict(alloc::format!(
                "removes edge {} -> {} {}, which the base does not hold",
                edge.source,
                edge.target,
                edge.edge_type
            )));
        };
        live_edges[index] = false;
    }
    for (i, edge) in delta.added_edges.iter().enumerate() {
        let holders = edges.entry(edge_key(edge)).or_default();
        if !holders.is_empty() {
            return Err(conflict(alloc::format!(
                "adds edge {} -> {} {}, which already exists",
                edge.source,
                edge.target,
                edge.edge_type
            )));
        }
        holders.push(base.edges.len() + i);
    }

    let mut result = Payload {
        tool: if delta.tool.is_empty() {
            base.tool.clone()
        } else {
            delta.tool.clone()
        },
        token_budget: base.token_budget,
        tokens_used: base.tokens_used,
        pack_root: String::new(),
        symbols: kept(&base.symbols, &live_symbols, &delta.added),
        edges: kept(&base.edges, &live_edges, &delta.added_edges),
    };
    let names: BTreeSet<&str> = result
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .collect();
    for edge in &result.edges {
        for end in [&edge.source, &edge.target] {
            if !names.contains(end.as_str()) {
                return Err(conflict(alloc::format!(
                    "edge {} -> {} {} would name {end}, which the new snapshot does not hold",
                    edge.source,
                    edge.target,
                    edge.edge_type
                )));
            }
        }
    }
    let new_root = pack_root(&result.symbols, &result.edges)?;
    if new_root != delta.new_root {
        return Err(root_mismatch("new_root", &delta.new_root, &new_root));
    }
    result.pack_root = new_root;
    Ok(result)
}

/// A symbol's identity: (abbreviated kind, qualified name) (SPEC §9.1).
fn identity(symbol: &Symbol) -> (&str, &str) {
    (abbreviate_kind(&symbol.kind), &symbol.qualified_name)
}

fn vec_true(len: usize) -> Vec<bool> {
    alloc::vec![true; len]
}

/// The live items of `base` in order, then `added`.
fn kept<T: Clone>(base: &[T], live: &[bool], added: &[T]) -> Vec<T> {
    base.iter()
        .zip(live)
        .filter(|(_, live)| **live)
        .map(|(item, _)| item.clone())
        .chain(added.iter().cloned())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Unchanged responses (SPEC §10.3)
// ---------------------------------------------------------------------------------------------

/// The header-only answer when the consumer's `pack_root` still identifies the result.
///
/// ```
/// use agentwire::gcf::v3::graph::{self, Unchanged};
/// let unchanged = Unchanged { tool: "t".into(), pack_root: "sha256:aa".into(), symbols: 3 };
/// let text = graph::encode_unchanged(&unchanged)?;
/// assert_eq!(graph::decode_unchanged(&text)?, Some(unchanged));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Unchanged {
    /// The producing tool (optional).
    pub tool: String,
    /// The unchanged pack root (required).
    pub pack_root: String,
    /// Number of symbols of the pack.
    pub symbols: u64,
}

/// `GCF profile=graph tool=… unchanged=true pack_root=… symbols=N` + LF.
///
/// ```
/// use agentwire::gcf::v3::graph::{self, Unchanged};
/// let unchanged = Unchanged { tool: "search".into(), pack_root: "sha256:aa".into(), symbols: 12 };
/// assert_eq!(
///     graph::encode_unchanged(&unchanged)?,
///     "GCF profile=graph tool=search unchanged=true pack_root=sha256:aa symbols=12\n"
/// );
/// // The pack root is required.
/// let err = graph::encode_unchanged(&Unchanged::default()).unwrap_err();
/// assert_eq!(err.code(), "INVALID_ARGUMENT");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_unchanged(unchanged: &Unchanged) -> Result<String> {
    let mut out = start_header(&unchanged.tool)?;
    out.push_str(" unchanged=true");
    push_header_field(&mut out, "pack_root", &unchanged.pack_root)?;
    out.push_str(" symbols=");
    crate::num::write_u64(&mut out, unchanged.symbols);
    out.push('\n');
    Ok(out)
}

/// Reads an unchanged response: `None` when `text` is a graph payload without
/// `unchanged=true`. The response must carry `pack_root` and no body.
///
/// ```
/// use agentwire::gcf::v3::graph;
/// let text = "GCF profile=graph unchanged=true pack_root=sha256:aa symbols=3\n";
/// let unchanged = graph::decode_unchanged(text)?.expect("an unchanged response");
/// assert_eq!((unchanged.pack_root.as_str(), unchanged.symbols), ("sha256:aa", 3));
/// // A full graph payload is not an unchanged response.
/// assert_eq!(graph::decode_unchanged("GCF profile=graph symbols=0\n")?, None);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn decode_unchanged(text: &str) -> Result<Option<Unchanged>> {
    let header = Header::parse(text)?;
    if header.profile != Profile::Graph {
        return Err(Error::new(
            ErrorKind::GcfUnknownProfile,
            "unknown_profile: an unchanged response is a profile=graph payload",
        ));
    }
    let head = read_head(text, &header)?;
    if !head.unchanged {
        return Ok(None);
    }
    super::decode(text, &header, &DecodeOptions::default())?;
    if head.pack_root.is_empty() {
        let line = header_line(text);
        return Err(fail(
            &line,
            line.text.len(),
            ErrorKind::GcfMalformedHeaderField,
            "malformed_header_field: an unchanged=true response carries pack_root=".into(),
        ));
    }
    Ok(Some(Unchanged {
        tool: head.tool.into(),
        pack_root: head.pack_root.into(),
        symbols: head.symbols.unwrap_or(0),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gcf::v3::{self, Document};
    use alloc::vec;

    use crate::gcf::model::test_symbol as sym;

    fn edge(source: &str, target: &str) -> Edge {
        crate::gcf::model::test_edge(source, target, "calls")
    }

    fn graph_delta(text: &str) -> Result<GraphDelta> {
        match v3::decode(text.as_bytes(), &Default::default())? {
            Document::GraphDelta(d) => Ok(d),
            other => panic!("not a graph delta: {other:?}"),
        }
    }

    fn base() -> Payload {
        Payload {
            tool: "t".into(),
            symbols: vec![sym("a", "function", 0.5, 0), sym("b", "type", 0.25, 1)],
            edges: vec![edge("b", "a")],
            ..Payload::default()
        }
    }

    #[test]
    fn round_trip_and_apply() {
        let base = base();
        let mut next = base.clone();
        next.symbols[1] = sym("c", "function", 0.75, 4);
        next.edges = vec![edge("c", "a")];
        let delta = DeltaPayload {
            tool: "t".into(),
            base_root: pack_root(&base.symbols, &base.edges).unwrap(),
            new_root: pack_root(&next.symbols, &next.edges).unwrap(),
            removed: vec![sym("b", "type", 0.0, 0)],
            added: vec![next.symbols[1].clone()],
            removed_edges: base.edges.clone(),
            added_edges: next.edges.clone(),
            delta_tokens: 5,
            full_tokens: 8,
        };
        let text = encode_delta(&delta).unwrap();
        assert!(text.ends_with(
            " tokens=5 savings=38%\n## removed\ntype b\n## added\n@0 fn c 0.75 lsp 4\n\
             ## edges_removed\nb -> a calls\n## edges_added\nc -> a calls\n"
        ));
        let decoded = graph_delta(&text).unwrap();
        assert_eq!(decoded.added[0], next.symbols[1]);
        assert_eq!(decoded.savings, "38%");
        let applied = apply_delta(&base, &decoded).unwrap();
        assert_eq!(applied.symbols, next.symbols);
        assert_eq!(applied.edges, next.edges);
        assert_eq!(applied.pack_root, delta.new_root);
    }

    #[test]
    fn conflicts_are_atomic_errors() {
        let base = base();
        let root = pack_root(&base.symbols, &base.edges).unwrap();
        let attempt = |f: fn(&mut GraphDelta)| {
            let mut delta = GraphDelta {
                base_root: root.clone(),
                new_root: root.clone(),
                ..GraphDelta::default()
            };
            f(&mut delta);
            apply_delta(&base, &delta).map(|_| ()).unwrap_err().code()
        };
        assert_eq!(
            attempt(|d| d.removed.push(sym("zz", "function", 0.0, 0))),
            "GCF_DELTA_CONFLICT"
        );
        // The identity is (kind, name): `a` is a function, not a type.
        assert_eq!(
            attempt(|d| d.removed.push(sym("a", "type", 0.0, 0))),
            "GCF_DELTA_CONFLICT"
        );
        assert_eq!(
            attempt(|d| d.added.push(sym("a", "fn", 0.1, 0))),
            "GCF_DELTA_CONFLICT"
        );
        assert_eq!(
            attempt(|d| {
                d.removed_edges.push(edge("b", "a"));
                d.removed_edges.push(edge("b", "a"));
            }),
            "GCF_DELTA_CONFLICT"
        );
        assert_eq!(
            attempt(|d| d.removed.push(sym("b", "type", 0.0, 0))),
            "GCF_DELTA_CONFLICT"
        );
        assert_eq!(attempt(|d| d.base_root.push('0')), "GCF_ROOT_MISMATCH");
        assert_eq!(attempt(|d| d.new_root.push('0')), "GCF_ROOT_MISMATCH");
        let empty = GraphDelta {
            base_root: root.clone(),
            new_root: root.clone(),
            ..GraphDelta::default()
        };
        assert_eq!(apply_delta(&base, &empty).unwrap().symbols, base.symbols);
    }

    #[test]
    fn strict_delta_lines() {
        let head = "GCF profile=graph delta=true base_root=a new_root=b\n";
        let code = |body: &str| {
            graph_delta(&alloc::format!("{head}{body}"))
                .unwrap_err()
                .code()
        };
        assert_eq!(code("## targets\n"), "GCF_MALFORMED_DELTA");
        assert_eq!(code("fn a\n"), "GCF_MALFORMED_DELTA");
        assert_eq!(code("## removed\nfn a 0.50\n"), "GCF_MALFORMED_DELTA");
        assert_eq!(code("## added\n@0 fn a 0.50 p\n"), "GCF_MALFORMED_DELTA");
        assert_eq!(
            code("## added\n@0  # previously transmitted\n"),
            "GCF_MALFORMED_DELTA"
        );
        assert_eq!(code("## added\n@0 fn a 0.50 p -1\n"), "GCF_MALFORMED_DELTA");
        assert_eq!(code("## added\n@0 fn a 0.5 p 1\n"), "GCF_INVALID_SCORE");
        assert_eq!(
            code("## edges_added\na => b calls\n"),
            "GCF_MALFORMED_DELTA"
        );
        assert_eq!(code("## removed [2]\nfn a\n"), "GCF_COUNT_MISMATCH");
        let e = graph_delta("GCF profile=graph delta=true new_root=b\n").unwrap_err();
        assert_eq!(e.code(), "GCF_MALFORMED_DELTA");
    }

    #[test]
    fn unchanged_response() {
        let u = Unchanged {
            tool: "t".into(),
            pack_root: "sha256:00".into(),
            symbols: 10,
        };
        let text = encode_unchanged(&u).unwrap();
        assert_eq!(
            text,
            "GCF profile=graph tool=t unchanged=true pack_root=sha256:00 symbols=10\n"
        );
        assert_eq!(decode_unchanged(&text).unwrap(), Some(u));
        assert_eq!(
            decode_unchanged("GCF profile=graph symbols=0\n").unwrap(),
            None
        );
        assert!(decode_unchanged("GCF profile=graph unchanged=true symbols=1\n").is_err());
    }
}
