//! Streaming graph encoding (SPEC §8): header without counts, `## edges [?]`, and the
//! `##! summary` trailer with positional or labeled counts (SPEC §8.4, §8.4.1).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::{
    check_distance, invalid, push_edge_line, push_group_title, push_header_field, push_id,
    push_node_fields, push_nonzero, start_header,
};
use crate::Result;
use crate::gcf::{Edge, Payload, Symbol};

/// Streaming-encoder options.
///
/// ```
/// use agentwire::gcf::v3::graph::{self, StreamOptions};
/// use agentwire::gcf::{Payload, Symbol};
/// let symbol = Symbol {
///     qualified_name: "a.F".into(),
///     kind: "function".into(),
///     score: 0.5,
///     provenance: "lsp".into(),
///     ..Symbol::default()
/// };
/// let payload = Payload { symbols: vec![symbol], ..Payload::default() };
/// let positional = graph::encode_stream(&payload, &StreamOptions::default())?;
/// assert!(positional.ends_with("##! summary symbols=1 edges=0 counts=1,0\n"));
/// let labeled = graph::encode_stream(&payload, &StreamOptions { labeled_counts: true })?;
/// assert!(labeled.ends_with("##! summary symbols=1 edges=0 counts=targets:1,edges:0\n"));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StreamOptions {
    /// Write the trailer's `counts` in the labeled form (`targets:2,edges:1`, SPEC §8.4.1)
    /// instead of the default positional one (`2,1`).
    pub labeled_counts: bool,
}

/// An incremental graph encoder (SPEC §8): each symbol and edge is written as it arrives,
/// into a `String` the caller may drain between calls.
///
/// Symbols are numbered from 0 in arrival order and a group header starts whenever the
/// distance changes; every symbol must come before the first edge. `finish` writes the
/// trailer: `symbols`, `edges`, and one count per group header written, then the edge count.
///
/// ```
/// use agentwire::gcf::v3::graph::{GraphStreamEncoder, StreamOptions};
/// use agentwire::gcf::{Edge, Payload, Symbol};
/// let head = Payload { tool: "t".into(), ..Payload::default() };
/// let mut out = String::new();
/// let mut stream = GraphStreamEncoder::begin(&mut out, &head, &StreamOptions::default())?;
/// for name in ["a.F", "a.G"] {
///     let symbol = Symbol { qualified_name: name.into(), kind: "function".into(), score: 0.5, provenance: "lsp".into(), ..Symbol::default() };
///     stream.symbol(&mut out, &symbol)?;
/// }
/// let edge = Edge { source: "a.G".into(), target: "a.F".into(), edge_type: "calls".into(), status: String::new() };
/// assert!(stream.edge(&mut out, &edge)?);
/// stream.finish(&mut out);
/// let expected = concat!(
///     "GCF profile=graph tool=t\n",
///     "## targets\n@0 fn a.F 0.50 lsp\n@1 fn a.G 0.50 lsp\n",
///     "## edges [?]\n@0<@1 calls\n",
///     "##! summary symbols=2 edges=1 counts=2,1\n",
/// );
/// assert_eq!(out, expected);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct GraphStreamEncoder {
    labeled: bool,
    /// Qualified name → id (a name written twice names its last symbol).
    ids: BTreeMap<String, u64>,
    next_id: u64,
    /// (distance, symbols) of every group header written.
    groups: Vec<(i64, u64)>,
    edges: u64,
    edges_started: bool,
}

impl GraphStreamEncoder {
    /// Writes the header: `GCF profile=graph` with the `tool`, nonzero `budget` and `tokens`,
    /// and `pack_root` of `head` (its symbols and edges are not read), without counts.
    ///
    /// ```
    /// use agentwire::gcf::v3::graph::{GraphStreamEncoder, StreamOptions};
    /// use agentwire::gcf::Payload;
    /// let head = Payload { tool: "search".into(), token_budget: 800, ..Payload::default() };
    /// let mut out = String::new();
    /// let stream = GraphStreamEncoder::begin(&mut out, &head, &StreamOptions::default())?;
    /// assert_eq!(out, "GCF profile=graph tool=search budget=800\n");
    /// stream.finish(&mut out);
    /// assert!(out.ends_with("\n##! summary symbols=0 edges=0 counts=0\n"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn begin(
        out: &mut String,
        head: &Payload,
        options: &StreamOptions,
    ) -> Result<GraphStreamEncoder> {
        let mut line = start_header(&head.tool)?;
        push_nonzero(&mut line, "budget", head.token_budget);
        push_nonzero(&mut line, "tokens", head.tokens_used);
        if !head.pack_root.is_empty() {
            push_header_field(&mut line, "pack_root", &head.pack_root)?;
        }
        line.push('\n');
        out.push_str(&line);
        Ok(GraphStreamEncoder {
            labeled: options.labeled_counts,
            ids: BTreeMap::new(),
            next_id: 0,
            groups: Vec::new(),
            edges: 0,
            edges_started: false,
        })
    }

    /// Writes a symbol (and a group header when its distance differs from the previous
    /// symbol's); returns its id. A symbol after the first edge, or one `encode` would
    /// refuse, is an error and writes nothing.
    ///
    /// ```
    /// use agentwire::gcf::v3::graph::{GraphStreamEncoder, StreamOptions};
    /// use agentwire::gcf::{Payload, Symbol};
    /// # let symbol = |name: &str, distance| Symbol {
    /// #     qualified_name: name.into(),
    /// #     kind: "function".into(),
    /// #     score: 0.5,
    /// #     provenance: "lsp".into(),
    /// #     distance,
    /// #     ..Symbol::default()
    /// # };
    /// // `symbol(name, distance)`: a `function` symbol of score 0.5.
    /// let mut out = String::new();
    /// let (head, options) = (Payload::default(), StreamOptions::default());
    /// let mut stream = GraphStreamEncoder::begin(&mut out, &head, &options)?;
    /// out.clear(); // the header was sent
    /// assert_eq!(stream.symbol(&mut out, &symbol("a.F", 0))?, 0);
    /// assert_eq!(stream.symbol(&mut out, &symbol("a.G", 1))?, 1);
    /// assert_eq!(out, "## targets\n@0 fn a.F 0.50 lsp\n## related\n@1 fn a.G 0.50 lsp\n");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn symbol(&mut self, out: &mut String, symbol: &Symbol) -> Result<u64> {
        if self.edges_started {
            return Err(invalid(
                "gcf graph stream: every symbol must be written before the first edge".into(),
            ));
        }
        check_distance(&symbol.qualified_name, symbol.distance)?;
        let id = self.next_id;
        let mut line = String::new();
        let new_group = self.groups.last().map(|g| g.0) != Some(symbol.distance);
        if new_group {
            line.push_str("## ");
            push_group_title(&mut line, symbol.distance);
            line.push('\n');
        }
        push_id(&mut line, id);
        line.push(' ');
        push_node_fields(
            &mut line,
            &symbol.kind,
            &symbol.qualified_name,
            symbol.score,
            &symbol.provenance,
        )?;
        line.push('\n');
        out.push_str(&line);
        if new_group {
            self.groups.push((symbol.distance, 0));
        }
        if let Some(group) = self.groups.last_mut() {
            group.1 += 1;
        }
        self.ids.insert(symbol.qualified_name.clone(), id);
        self.next_id += 1;
        Ok(id)
    }

    /// Writes an edge (the first one opens `## edges [?]`). Returns `false`, writing nothing,
    /// when an endpoint is not a symbol written earlier (SPEC §6).
    ///
    /// ```
    /// use agentwire::gcf::v3::graph::{GraphStreamEncoder, StreamOptions};
    /// use agentwire::gcf::{Edge, Payload, Symbol};
    /// # let symbol = |name: &str, distance| Symbol {
    /// #     qualified_name: name.into(),
    /// #     kind: "function".into(),
    /// #     score: 0.5,
    /// #     provenance: "lsp".into(),
    /// #     distance,
    /// #     ..Symbol::default()
    /// # };
    /// // `symbol(name, distance)`: a `function` symbol of score 0.5.
    /// let calls = |source: &str, target: &str| Edge {
    ///     source: source.into(),
    ///     target: target.into(),
    ///     edge_type: "calls".into(),
    ///     status: String::new(),
    /// };
    /// let mut out = String::new();
    /// let (head, options) = (Payload::default(), StreamOptions::default());
    /// let mut stream = GraphStreamEncoder::begin(&mut out, &head, &options)?;
    /// stream.symbol(&mut out, &symbol("a.F", 0))?;
    /// stream.symbol(&mut out, &symbol("a.G", 0))?;
    /// out.clear(); // the header and the symbols were sent
    /// assert!(stream.edge(&mut out, &calls("a.G", "a.F"))?);
    /// assert!(!stream.edge(&mut out, &calls("a.G", "b.Unknown"))?);
    /// assert_eq!(out, "## edges [?]\n@0<@1 calls\n");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn edge(&mut self, out: &mut String, edge: &Edge) -> Result<bool> {
        let (Some(&source), Some(&target)) = (
            self.ids.get(edge.source.as_str()),
            self.ids.get(edge.target.as_str()),
        ) else {
            return Ok(false);
        };
        let mut line = String::new();
        if !self.edges_started {
            line.push_str("## edges [?]\n");
        }
        push_edge_line(&mut line, source, target, &edge.edge_type, &edge.status)?;
        out.push_str(&line);
        self.edges_started = true;
        self.edges += 1;
        Ok(true)
    }

    /// Writes the trailer `##! summary symbols=N edges=M counts=…`.
    ///
    /// ```
    /// use agentwire::gcf::v3::graph::{GraphStreamEncoder, StreamOptions};
    /// use agentwire::gcf::{Payload, Symbol};
    /// # let symbol = |name: &str, distance| Symbol {
    /// #     qualified_name: name.into(),
    /// #     kind: "function".into(),
    /// #     score: 0.5,
    /// #     provenance: "lsp".into(),
    /// #     distance,
    /// #     ..Symbol::default()
    /// # };
    /// // `symbol(name, distance)`: a `function` symbol of score 0.5.
    /// let mut out = String::new();
    /// let (head, options) = (Payload::default(), StreamOptions::default());
    /// let mut stream = GraphStreamEncoder::begin(&mut out, &head, &options)?;
    /// for (name, distance) in [("a.F", 0), ("a.G", 0), ("a.H", 2)] {
    ///     stream.symbol(&mut out, &symbol(name, distance))?;
    /// }
    /// out.clear(); // the header and the symbols were sent
    /// stream.finish(&mut out);
    /// // Two in `## targets`, one in `## extended`, no edges.
    /// assert_eq!(out, "##! summary symbols=3 edges=0 counts=2,1,0\n");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn finish(self, out: &mut String) {
        out.push_str("##! summary symbols=");
        crate::num::write_u64(out, self.next_id);
        out.push_str(" edges=");
        crate::num::write_u64(out, self.edges);
        out.push_str(" counts=");
        for &(distance, count) in &self.groups {
            if self.labeled {
                push_group_title(out, distance);
                out.push(':');
            }
            crate::num::write_u64(out, count);
            out.push(',');
        }
        if self.labeled {
            out.push_str("edges:");
        }
        crate::num::write_u64(out, self.edges);
        out.push('\n');
    }
}

/// Encodes a whole payload in streaming form (SPEC §8): symbols and edges in the given order
/// (a stream does not sort), edges whose endpoints are not symbols of the payload left out.
/// Errors as [`encode`](super::encode).
///
/// ```
/// use agentwire::gcf::v3::{self, graph, StreamOptions};
/// use agentwire::gcf::{Payload, Symbol};
/// # let symbol = |name: &str, distance| Symbol {
/// #     qualified_name: name.into(),
/// #     kind: "function".into(),
/// #     score: 0.5,
/// #     provenance: "lsp".into(),
/// #     distance,
/// #     ..Symbol::default()
/// # };
/// // `symbol(name, distance)`: a `function` symbol of score 0.5.
/// let payload = Payload {
///     symbols: vec![symbol("a.G", 1), symbol("a.F", 0)],
///     ..Payload::default()
/// };
/// let text = graph::encode_stream(&payload, &StreamOptions::default())?;
/// let expected = concat!(
///     "GCF profile=graph\n",
///     "## related\n@0 fn a.G 0.50 lsp\n",
///     "## targets\n@1 fn a.F 0.50 lsp\n",
///     "##! summary symbols=2 edges=0 counts=1,1,0\n",
/// );
/// assert_eq!(text, expected);
/// assert_eq!(v3::decode_graph(&text)?.symbols, payload.symbols);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_stream(payload: &Payload, options: &StreamOptions) -> Result<String> {
    let mut out = String::new();
    let mut stream = GraphStreamEncoder::begin(&mut out, payload, options)?;
    for symbol in &payload.symbols {
        stream.symbol(&mut out, symbol)?;
    }
    for edge in &payload.edges {
        stream.edge(&mut out, edge)?;
    }
    stream.finish(&mut out);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gcf::v3::decode_graph;
    use alloc::vec;

    fn sym(name: &str, distance: i64) -> Symbol {
        Symbol {
            qualified_name: name.into(),
            kind: "type".into(),
            score: 0.5,
            provenance: "p".into(),
            distance,
            ..Symbol::default()
        }
    }

    #[test]
    fn groups_follow_arrival_and_round_trip() {
        let payload = Payload {
            symbols: vec![sym("a", 0), sym("b", 5), sym("c", 0)],
            edges: vec![Edge {
                source: "c".into(),
                target: "zz".into(),
                edge_type: "x".into(),
                status: String::new(),
            }],
            ..Payload::default()
        };
        let labeled = StreamOptions {
            labeled_counts: true,
        };
        let text = encode_stream(&payload, &labeled).unwrap();
        assert_eq!(
            text,
            "GCF profile=graph\n## targets\n@0 type a 0.50 p\n## distance_5\n@1 type b 0.50 p\n\
             ## targets\n@2 type c 0.50 p\n\
             ##! summary symbols=3 edges=0 counts=targets:1,distance_5:1,targets:1,edges:0\n"
        );
        let back = decode_graph(&text).unwrap();
        assert_eq!(back.symbols, payload.symbols);
    }

    #[test]
    fn symbols_come_before_edges() {
        let mut out = String::new();
        let mut stream =
            GraphStreamEncoder::begin(&mut out, &Payload::default(), &StreamOptions::default())
                .unwrap();
        stream.symbol(&mut out, &sym("a", 0)).unwrap();
        let edge = Edge {
            source: "a".into(),
            target: "a".into(),
            edge_type: "self".into(),
            status: "added".into(),
        };
        assert!(stream.edge(&mut out, &edge).unwrap());
        let before = out.len();
        assert!(stream.symbol(&mut out, &sym("b", 0)).is_err());
        assert!(stream.symbol(&mut out, &sym("c", -1)).is_err());
        assert_eq!(out.len(), before);
        stream.finish(&mut out);
        assert!(out.ends_with("@0<@0 self added\n##! summary symbols=1 edges=1 counts=1,1\n"));
    }
}
