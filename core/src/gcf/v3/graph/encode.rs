//! Buffered graph encoding (SPEC §3.2, §5, §6, §6a, §16.1) and session encoding (SPEC §9).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::{
    check_distance, check_score, invalid, push_edge_line, push_group_title, push_header_field,
    push_id, push_node_fields, push_nonzero, push_score, start_header, written_kind,
};
use crate::Result;
use crate::gcf::{BorrowedSymbol, EdgeRef, Payload, PayloadRef};
use crate::name_index::NameIndex;

/// Indices of `symbols` in output order: distance ascending, then score descending, input
/// order on ties (a stable sort). Fails on a negative distance or a non-finite score.
fn output_order(symbols: &[BorrowedSymbol<'_>]) -> Result<Vec<usize>> {
    for symbol in symbols {
        check_distance(&symbol.qualified_name, symbol.distance)?;
        check_score(symbol.score)?;
    }
    // (distance, score descending, input index): unique keys, so an unstable sort of them is
    // the stable sort of the symbols.
    let mut keys: Vec<(u64, u64, usize)> = symbols
        .iter()
        .enumerate()
        .map(|(index, symbol)| (symbol.distance as u64, descending(symbol.score), index))
        .collect();
    keys.sort_unstable();
    Ok(keys.into_iter().map(|(_, _, index)| index).collect())
}

/// A key that orders finite doubles from the greatest to the least, with `-0.0 == 0.0`.
fn descending(score: f64) -> u64 {
    let bits = if score == 0.0 { 0 } else { score.to_bits() };
    let ascending = if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    };
    !ascending
}

/// An edge with its endpoints' ids.
#[derive(Clone, Copy)]
struct Resolved<'p> {
    source: u64,
    target: u64,
    edge: &'p EdgeRef<'p>,
}

/// The edges whose endpoints both have an id (`id_of` a qualified name), ordered by source
/// id, then target id (SPEC §16.1), then type and status so that the output does not depend
/// on the input's edge order.
fn resolve_edges<'p>(
    edges: &'p [EdgeRef<'p>],
    id_of: impl Fn(&str) -> Option<u64>,
) -> Vec<Resolved<'p>> {
    let resolved: Vec<Resolved<'p>> = edges
        .iter()
        .filter_map(|edge| {
            Some(Resolved {
                source: id_of(&edge.source)?,
                target: id_of(&edge.target)?,
                edge,
            })
        })
        .collect();
    sort_edges(resolved)
}

/// Sorts by (source, target, type, status). Edges equal under this order write the same line,
/// so an unstable sort gives the same text.
fn sort_edges(mut resolved: Vec<Resolved<'_>>) -> Vec<Resolved<'_>> {
    let by_strings = |a: &Resolved<'_>, b: &Resolved<'_>| {
        a.edge
            .edge_type
            .cmp(&b.edge.edge_type)
            .then_with(|| a.edge.status.cmp(&b.edge.status))
    };
    let narrow = resolved
        .iter()
        .all(|e| e.source <= u64::from(u32::MAX) && e.target <= u64::from(u32::MAX));
    if !narrow {
        resolved.sort_unstable_by(|a, b| {
            (a.source, a.target)
                .cmp(&(b.source, b.target))
                .then_with(|| by_strings(a, b))
        });
        return resolved;
    }
    // (source, target) packed in one word sorts fast; then runs of equal ends by their strings.
    let mut keys: Vec<(u64, usize)> = resolved
        .iter()
        .enumerate()
        .map(|(i, e)| ((e.source << 32) | e.target, i))
        .collect();
    keys.sort_unstable();
    let mut sorted: Vec<Resolved<'_>> = keys.iter().map(|&(_, i)| resolved[i]).collect();
    let mut start = 0;
    while let Some(&(key, _)) = keys.get(start) {
        let run = keys[start..].iter().take_while(|(k, _)| *k == key).count();
        if run > 1 {
            sorted[start..start + run].sort_unstable_by(by_strings);
        }
        start += run;
    }
    sorted
}

/// One symbol line to write.
struct Node<'p> {
    id: u64,
    symbol: &'p BorrowedSymbol<'p>,
    /// Written as `@id  # previously transmitted`.
    reference: bool,
}

/// An upper estimate of the encoded size (header fields aside), so that the output is
/// allocated once.
fn estimate(nodes: &[Node<'_>], edges: &[Resolved<'_>]) -> usize {
    let node_bytes: usize = nodes
        .iter()
        .map(|node| {
            let s = node.symbol;
            40 + s.kind.len() + s.qualified_name.len() + s.provenance.len()
        })
        .sum();
    let edge_bytes: usize = edges
        .iter()
        .map(|e| 48 + e.edge.edge_type.len() + e.edge.status.len())
        .sum();
    256 + node_bytes + edge_bytes
}

fn write_payload(payload: &PayloadRef<'_>, nodes: &[Node<'_>], session: bool) -> Result<String> {
    // Qualified name → id; a name held by several symbols names the last one.
    let index = NameIndex::new(nodes.iter().map(|node| &*node.symbol.qualified_name));
    let edges = resolve_edges(&payload.edges, |name| {
        index
            .get(name)
            .and_then(|position| nodes.get(position))
            .map(|node| node.id)
    });
    let mut out = start_header(&payload.tool)?;
    out.reserve(estimate(nodes, &edges) + payload.pack_root.len());
    push_nonzero(&mut out, "budget", payload.token_budget);
    push_nonzero(&mut out, "tokens", payload.tokens_used);
    out.push_str(" symbols=");
    crate::num::write_u64(&mut out, nodes.len() as u64);
    if !edges.is_empty() {
        out.push_str(" edges=");
        crate::num::write_u64(&mut out, edges.len() as u64);
    }
    if session {
        out.push_str(" session=true");
    }
    if !payload.pack_root.is_empty() {
        push_header_field(&mut out, "pack_root", &payload.pack_root)?;
    }
    out.push('\n');
    let mut group = None;
    for node in nodes {
        if group != Some(node.symbol.distance) {
            out.push_str("## ");
            push_group_title(&mut out, node.symbol.distance);
            out.push('\n');
            group = Some(node.symbol.distance);
        }
        push_id(&mut out, node.id);
        if node.reference {
            out.push_str("  # previously transmitted");
        } else {
            out.push(' ');
            let symbol = node.symbol;
            push_node_fields(
                &mut out,
                &symbol.kind,
                &symbol.qualified_name,
                symbol.score,
                &symbol.provenance,
            )?;
        }
        out.push('\n');
    }
    if !edges.is_empty() {
        out.push_str("## edges [");
        crate::num::write_u64(&mut out, edges.len() as u64);
        out.push_str("]\n");
        for edge in &edges {
            let (edge_type, status) = (&edge.edge.edge_type, &edge.edge.status);
            push_edge_line(&mut out, edge.source, edge.target, edge_type, status)?;
        }
    }
    Ok(out)
}

/// Encodes a buffered graph payload (SPEC §16.1).
///
/// Symbols are ordered by distance, then score descending (stable), and numbered from 0 in
/// that order; edges are ordered by (source id, target id). `budget`, `tokens` and `edges`
/// are written only when nonzero. Edges whose endpoints are not symbols of the payload are
/// left out. Errors: [`ErrorKind::GcfNegativeDistance`](crate::ErrorKind::GcfNegativeDistance),
/// and [`ErrorKind::InvalidArgument`](crate::ErrorKind::InvalidArgument) for a non-finite
/// score, an empty field or one with whitespace, or a header value that is not printable
/// ASCII.
///
/// ```
/// use agentwire::gcf::{v3::graph, Payload, Symbol};
/// let symbol = |name: &str, score, distance| Symbol {
///     qualified_name: name.into(),
///     kind: "type".into(),
///     score,
///     provenance: "ast".into(),
///     distance,
///     ..Symbol::default()
/// };
/// let payload = Payload {
///     token_budget: 500,
///     symbols: vec![symbol("a.B", 0.4, 0), symbol("a.C", 0.3, 3), symbol("a.A", 0.9, 0)],
///     ..Payload::default()
/// };
/// let expected = concat!(
///     "GCF profile=graph budget=500 symbols=3\n",
///     "## targets\n@0 type a.A 0.90 ast\n@1 type a.B 0.40 ast\n",
///     "## distance_3\n@2 type a.C 0.30 ast\n",
/// );
/// assert_eq!(graph::encode(&payload)?, expected);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode(payload: &Payload) -> Result<String> {
    encode_ref(&PayloadRef::of(payload))
}

/// [`encode`] of a payload whose names are borrowed (read from its JSON form without a copy
/// of each name): the same text, the same errors. The one buffered encoder: [`encode`] calls
/// it on a view of its payload ([`PayloadRef::of`]).
///
/// ```
/// use agentwire::gcf::{v3::graph, BorrowedSymbol, PayloadRef};
/// let symbol = BorrowedSymbol {
///     qualified_name: "a.A".into(),
///     kind: "type".into(),
///     score: 0.9,
///     provenance: "ast".into(),
///     ..BorrowedSymbol::default()
/// };
/// let payload = PayloadRef { symbols: vec![symbol], ..PayloadRef::default() };
/// assert_eq!(graph::encode_ref(&payload)?, "GCF profile=graph symbols=1\n## targets\n@0 type a.A 0.90 ast\n");
/// assert_eq!(graph::encode_ref(&payload)?, graph::encode(&payload.clone().into_payload())?);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_ref(payload: &PayloadRef<'_>) -> Result<String> {
    let order = output_order(&payload.symbols)?;
    let nodes: Vec<Node<'_>> = order
        .iter()
        .enumerate()
        .map(|(id, &index)| Node {
            id: id as u64,
            symbol: &payload.symbols[index],
            reference: false,
        })
        .collect();
    write_payload(payload, &nodes, false)
}

/// What the consumer holds of a transmitted symbol.
#[derive(Clone, Debug)]
struct Sent {
    id: u64,
    /// The score as written (2 decimals).
    score: String,
    provenance: String,
}

/// A producer-side graph session (SPEC §9): symbol ids stable across calls.
///
/// Identity is (kind, qualified name) (SPEC §9.1). A symbol gets the next id the first time
/// it is sent and keeps it for the life of the session; a symbol sent before is written as a
/// bare `@id  # previously transmitted` reference, unless its written score or provenance
/// changed, in which case it is declared again under the same id. The session records a call
/// once its text is built: if the text cannot be delivered, [`reset`](GraphSession::reset)
/// the session (SPEC §9.4).
///
/// ```
/// use agentwire::gcf::{v3::GraphSession, Payload, Symbol};
/// let auth = Symbol { qualified_name: "pkg.Auth".into(), kind: "function".into(), score: 0.9, provenance: "lsp".into(), ..Symbol::default() };
/// let payload = Payload { tool: "t".into(), symbols: vec![auth], ..Payload::default() };
/// let mut session = GraphSession::new();
/// assert!(session.encode(&payload)?.ends_with("@0 fn pkg.Auth 0.90 lsp\n"));
/// assert!(session.encode(&payload)?.ends_with("@0  # previously transmitted\n"));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct GraphSession {
    /// Abbreviated kind → qualified name → what was sent.
    sent: BTreeMap<String, BTreeMap<String, Sent>>,
    len: usize,
    next_id: u64,
    max_symbols: usize,
}

impl Default for GraphSession {
    fn default() -> GraphSession {
        GraphSession {
            sent: BTreeMap::new(),
            len: 0,
            next_id: 0,
            max_symbols: usize::MAX,
        }
    }
}

impl GraphSession {
    /// A new, empty session without a size limit.
    ///
    /// ```
    /// use agentwire::gcf::{v3::GraphSession, Payload, Symbol};
    /// let mut session = GraphSession::new();
    /// assert_eq!(session.len(), 0);
    /// let symbol = Symbol {
    ///     qualified_name: "a.F".into(),
    ///     kind: "function".into(),
    ///     score: 0.5,
    ///     provenance: "lsp".into(),
    ///     ..Symbol::default()
    /// };
    /// let payload = Payload { symbols: vec![symbol], ..Payload::default() };
    /// let expected = "GCF profile=graph symbols=1 session=true\n## targets\n@0 fn a.F 0.50 lsp\n";
    /// assert_eq!(session.encode(&payload)?, expected);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn new() -> GraphSession {
        GraphSession::default()
    }

    /// A session that retains at most `max_symbols` symbols (SPEC §9.5): a call that would
    /// pass the limit resets the session and is written as a full non-session payload.
    ///
    /// ```
    /// use agentwire::gcf::v3::GraphSession;
    /// # use agentwire::gcf::{Payload, Symbol};
    /// # let payload = |names: &[&str]| Payload {
    /// #     symbols: names
    /// #         .iter()
    /// #         .map(|name| Symbol {
    /// #             qualified_name: (*name).into(),
    /// #             kind: "function".into(),
    /// #             score: 0.5,
    /// #             provenance: "lsp".into(),
    /// #             ..Symbol::default()
    /// #         })
    /// #         .collect(),
    /// #     ..Payload::default()
    /// # };
    /// // `payload(names)`: a payload of one `function` symbol per name.
    /// let mut session = GraphSession::with_max_symbols(2);
    /// let first = session.encode(&payload(&["a.F", "a.G"]))?;
    /// assert!(first.starts_with("GCF profile=graph symbols=2 session=true\n"));
    /// // A third symbol would pass the limit: a full payload, and the session starts over.
    /// let second = session.encode(&payload(&["a.F", "a.G", "a.H"]))?;
    /// assert!(second.starts_with("GCF profile=graph symbols=3\n"));
    /// assert_eq!(session.len(), 0);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn with_max_symbols(max_symbols: usize) -> GraphSession {
        GraphSession {
            max_symbols,
            ..GraphSession::default()
        }
    }

    /// Number of symbols the session has sent.
    ///
    /// ```
    /// use agentwire::gcf::v3::GraphSession;
    /// # use agentwire::gcf::{Payload, Symbol};
    /// # let payload = |names: &[&str]| Payload {
    /// #     symbols: names
    /// #         .iter()
    /// #         .map(|name| Symbol {
    /// #             qualified_name: (*name).into(),
    /// #             kind: "function".into(),
    /// #             score: 0.5,
    /// #             provenance: "lsp".into(),
    /// #             ..Symbol::default()
    /// #         })
    /// #         .collect(),
    /// #     ..Payload::default()
    /// # };
    /// // `payload(names)`: a payload of one `function` symbol per name.
    /// let mut session = GraphSession::new();
    /// session.encode(&payload(&["a.F", "a.G"]))?;
    /// assert_eq!(session.len(), 2);
    /// // `a.G` was sent before: only `a.H` is new.
    /// session.encode(&payload(&["a.G", "a.H"]))?;
    /// assert_eq!(session.len(), 3);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when nothing has been sent yet.
    ///
    /// ```
    /// use agentwire::gcf::v3::GraphSession;
    /// # use agentwire::gcf::{Payload, Symbol};
    /// # let payload = |names: &[&str]| Payload {
    /// #     symbols: names
    /// #         .iter()
    /// #         .map(|name| Symbol {
    /// #             qualified_name: (*name).into(),
    /// #             kind: "function".into(),
    /// #             score: 0.5,
    /// #             provenance: "lsp".into(),
    /// #             ..Symbol::default()
    /// #         })
    /// #         .collect(),
    /// #     ..Payload::default()
    /// # };
    /// // `payload(names)`: a payload of one `function` symbol per name.
    /// let mut session = GraphSession::new();
    /// assert!(session.is_empty());
    /// session.encode(&payload(&["a.F"]))?;
    /// assert!(!session.is_empty());
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Forgets every symbol; ids start again from 0.
    ///
    /// ```
    /// use agentwire::gcf::v3::GraphSession;
    /// # use agentwire::gcf::{Payload, Symbol};
    /// # let payload = |names: &[&str]| Payload {
    /// #     symbols: names
    /// #         .iter()
    /// #         .map(|name| Symbol {
    /// #             qualified_name: (*name).into(),
    /// #             kind: "function".into(),
    /// #             score: 0.5,
    /// #             provenance: "lsp".into(),
    /// #             ..Symbol::default()
    /// #         })
    /// #         .collect(),
    /// #     ..Payload::default()
    /// # };
    /// // `payload(names)`: a payload of one `function` symbol per name.
    /// let mut session = GraphSession::new();
    /// session.encode(&payload(&["a.F", "a.G"]))?;
    /// session.reset();
    /// assert_eq!(session.len(), 0);
    /// // `a.G` is declared again in full, under id 0.
    /// let text = session.encode(&payload(&["a.G"]))?;
    /// assert!(text.ends_with("## targets\n@0 fn a.G 0.50 lsp\n"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn reset(&mut self) {
        let max_symbols = self.max_symbols;
        *self = GraphSession::with_max_symbols(max_symbols);
    }

    fn get(&self, kind: &str, qualified_name: &str) -> Option<&Sent> {
        self.sent.get(kind)?.get(qualified_name)
    }

    /// Encodes one payload of the session: the header carries `session=true`, ids are
    /// session-stable (in output order for new symbols), and symbols sent before are bare
    /// references. A (kind, qualified name) given twice in one payload is
    /// [`ErrorKind::InvalidArgument`](crate::ErrorKind::InvalidArgument); other errors as
    /// [`encode`]. On error the session is unchanged.
    ///
    /// ```
    /// use agentwire::gcf::{v3::GraphSession, Payload, Symbol};
    /// let payload = |score| Payload {
    ///     symbols: vec![Symbol {
    ///         qualified_name: "a.F".into(),
    ///         kind: "function".into(),
    ///         score,
    ///         provenance: "lsp".into(),
    ///         ..Symbol::default()
    ///     }],
    ///     ..Payload::default()
    /// };
    /// let mut session = GraphSession::new();
    /// let head = "GCF profile=graph symbols=1 session=true\n## targets\n";
    /// assert_eq!(session.encode(&payload(0.9))?, format!("{head}@0 fn a.F 0.90 lsp\n"));
    /// // Sent before with the same score: a bare reference.
    /// assert_eq!(session.encode(&payload(0.9))?, format!("{head}@0  # previously transmitted\n"));
    /// // A new score: declared again under the same id.
    /// assert_eq!(session.encode(&payload(0.5))?, format!("{head}@0 fn a.F 0.50 lsp\n"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn encode(&mut self, payload: &Payload) -> Result<String> {
        let payload = &PayloadRef::of(payload);
        let order = output_order(&payload.symbols)?;
        let mut nodes = Vec::with_capacity(order.len());
        // (kind, symbol, written score) of every full declaration, recorded on success.
        let mut declared: Vec<(&str, &BorrowedSymbol<'_>, String)> = Vec::new();
        let mut this_call: BTreeMap<(&str, &str), ()> = BTreeMap::new();
        let mut next_id = self.next_id;
        let mut new_symbols = 0usize;
        for &index in &order {
            let symbol = &payload.symbols[index];
            let kind = written_kind(&symbol.kind)?;
            let name = &*symbol.qualified_name;
            if this_call.insert((kind, name), ()).is_some() {
                return Err(invalid(alloc::format!(
                    "gcf graph session: symbol {kind} {name} appears twice in one payload"
                )));
            }
            let mut score = String::new();
            push_score(&mut score, symbol.score)?;
            let (id, reference) = match self.get(kind, name) {
                Some(sent) => (
                    sent.id,
                    sent.score == score && sent.provenance == *symbol.provenance,
                ),
                None => {
                    let id = next_id;
                    next_id += 1;
                    new_symbols += 1;
                    (id, false)
                }
            };
            if !reference {
                declared.push((kind, symbol, score));
            }
            nodes.push(Node {
                id,
                symbol,
                reference,
            });
        }
        if self.len.saturating_add(new_symbols) > self.max_symbols {
            self.reset();
            return encode_ref(payload);
        }
        let out = write_payload(payload, &nodes, true)?;
        for ((kind, symbol, score), node) in declared
            .into_iter()
            .zip(nodes.iter().filter(|node| !node.reference))
        {
            let by_name = self.sent.entry(kind.into()).or_default();
            let fresh = by_name
                .insert(
                    String::from(&*symbol.qualified_name),
                    Sent {
                        id: node.id,
                        score,
                        provenance: String::from(&*symbol.provenance),
                    },
                )
                .is_none();
            self.len += usize::from(fresh);
        }
        self.next_id = next_id;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    use crate::gcf::model::test_symbol as sym;
    use crate::gcf::{Edge, Symbol};

    use crate::gcf::model::test_edge as edge;

    fn payload(symbols: Vec<Symbol>, edges: Vec<Edge>) -> Payload {
        Payload {
            tool: "t".into(),
            symbols,
            edges,
            ..Payload::default()
        }
    }

    #[test]
    fn ties_keep_input_order_and_ids_follow_output_order() {
        let p = payload(
            vec![
                sym("c", "function", 0.5, 1),
                sym("a", "function", 0.5, 0),
                sym("b", "type", 0.5, 0),
                sym("d", "type", 0.7, 0),
                sym("e", "type", 0.5, 1),
            ],
            vec![],
        );
        assert_eq!(
            encode(&p).unwrap(),
            "GCF profile=graph tool=t symbols=5\n## targets\n@0 type d 0.70 lsp\n\
             @1 fn a 0.50 lsp\n@2 type b 0.50 lsp\n## related\n@3 fn c 0.50 lsp\n@4 type e 0.50 lsp\n"
        );
    }

    #[test]
    fn scores_round_half_to_even_on_the_exact_double() {
        let p = payload(
            vec![
                sym("a", "fn", 0.125, 0),
                sym("b", "fn", 0.375, 0),
                sym("c", "fn", 2.675, 0),
                sym("d", "fn", -0.001, 0),
            ],
            vec![],
        );
        let text = encode(&p).unwrap();
        assert!(text.contains("@0 fn c 2.67 lsp\n"), "{text}");
        assert!(text.contains("@1 fn b 0.38 lsp\n"), "{text}");
        assert!(text.contains("@2 fn a 0.12 lsp\n"), "{text}");
        assert!(text.contains("@3 fn d -0.00 lsp\n"), "{text}");
    }

    #[test]
    fn edges_sorted_and_dangling_ones_left_out() {
        let p = payload(
            vec![sym("a", "fn", 0.9, 0), sym("b", "fn", 0.8, 0)],
            vec![
                edge("b", "a", "calls"),
                edge("a", "b", "refs"),
                edge("a", "a", "calls"),
                edge("x", "a", "calls"),
            ],
        );
        assert_eq!(
            encode(&p).unwrap(),
            "GCF profile=graph tool=t symbols=2 edges=3\n## targets\n@0 fn a 0.90 lsp\n\
             @1 fn b 0.80 lsp\n## edges [3]\n@0<@0 calls\n@1<@0 refs\n@0<@1 calls\n"
        );
        let only_dangling = payload(vec![sym("a", "fn", 0.9, 0)], vec![edge("x", "a", "c")]);
        assert_eq!(
            encode(&only_dangling).unwrap(),
            "GCF profile=graph tool=t symbols=1\n## targets\n@0 fn a 0.90 lsp\n"
        );
    }

    #[test]
    fn decodes_back() {
        let mut p = payload(
            vec![
                sym("a.F", "route_handler", 0.25, 0),
                sym("b.G", "widget", 1.0, 9),
            ],
            vec![edge("b.G", "a.F", "calls")],
        );
        p.edges[0].status = "removed".into();
        p.token_budget = 7;
        p.pack_root = "sha256:ab".into();
        let text = encode(&p).unwrap();
        assert!(text.starts_with(
            "GCF profile=graph tool=t budget=7 symbols=2 edges=1 pack_root=sha256:ab\n"
        ));
        assert_eq!(crate::gcf::v3::decode_graph(&text).unwrap(), p);
    }

    #[test]
    fn bad_fields_are_refused() {
        let codes = |p: Payload| encode(&p).unwrap_err().code();
        assert_eq!(
            codes(payload(vec![sym("a b", "fn", 0.1, 0)], vec![])),
            "INVALID_ARGUMENT"
        );
        assert_eq!(
            codes(payload(vec![sym("a", "fn", f64::NAN, 0)], vec![])),
            "INVALID_ARGUMENT"
        );
        assert_eq!(
            codes(payload(vec![sym("a", "fn", 0.1, -1)], vec![])),
            "GCF_NEGATIVE_DISTANCE"
        );
        assert_eq!(
            codes(payload(vec![sym("a", "#x", 0.1, 0)], vec![])),
            "INVALID_ARGUMENT"
        );
        let mut p = payload(vec![], vec![]);
        p.tool = "two words".into();
        assert_eq!(codes(p), "INVALID_ARGUMENT");
    }

    #[test]
    fn session_ids_are_stable_and_keyed_by_kind_and_name() {
        let mut session = GraphSession::new();
        let first = payload(vec![sym("a", "fn", 0.9, 0), sym("b", "fn", 0.8, 1)], vec![]);
        session.encode(&first).unwrap();
        assert_eq!(session.len(), 2);
        // Same name, other kind: a new identity. `b` moved groups and keeps @1.
        let second = payload(
            vec![sym("b", "fn", 0.8, 0), sym("a", "type", 0.7, 0)],
            vec![edge("a", "b", "calls")],
        );
        assert_eq!(
            session.encode(&second).unwrap(),
            "GCF profile=graph tool=t symbols=2 edges=1 session=true\n## targets\n\
             @1  # previously transmitted\n@2 type a 0.70 lsp\n## edges [1]\n@1<@2 calls\n"
        );
        // A changed score is declared again under its id; nothing new is allocated.
        let third = payload(vec![sym("a", "fn", 0.5, 0)], vec![]);
        assert_eq!(
            session.encode(&third).unwrap(),
            "GCF profile=graph tool=t symbols=1 session=true\n## targets\n@0 fn a 0.50 lsp\n"
        );
        assert_eq!(session.len(), 3);
        let duplicate = payload(vec![sym("z", "fn", 0.5, 0), sym("z", "fn", 0.4, 1)], vec![]);
        assert!(session.encode(&duplicate).is_err());
        assert_eq!(session.len(), 3);
        let fourth = payload(vec![sym("n", "fn", 0.5, 0)], vec![]);
        assert!(session.encode(&fourth).unwrap().contains("@3 fn n"));
        session.reset();
        assert!(session.is_empty());
        assert!(session.encode(&fourth).unwrap().contains("@0 fn n"));
    }

    #[test]
    fn session_limit_falls_back_to_a_full_payload() {
        let mut session = GraphSession::with_max_symbols(2);
        session
            .encode(&payload(vec![sym("a", "fn", 0.9, 0)], vec![]))
            .unwrap();
        let two_more = payload(vec![sym("b", "fn", 0.9, 0), sym("c", "fn", 0.8, 0)], vec![]);
        let text = session.encode(&two_more).unwrap();
        assert_eq!(
            text,
            "GCF profile=graph tool=t symbols=2\n## targets\n@0 fn b 0.90 lsp\n@1 fn c 0.80 lsp\n"
        );
        assert!(session.is_empty());
    }
}
