//! Strict graph decoding (SPEC §4 graph body, §5, §6, §6a, §8.6, §9, §11, §13, §16.3, §16.5)
//! and the consumer side of sessions.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::scalar::{is_bare_key, parse_count};
use super::super::{DecodeOptions, Header, Line, Profile, body_lines, is_comment};
use super::MAX_DECODED_TEXT;
use crate::gcf::model::{DecodeOptions as TextLimits, TextBudget};
use crate::gcf::v1::expand_kind;
use crate::gcf::{Edge, Payload, Symbol};
use crate::{Error, ErrorKind, Result};

// ---------------------------------------------------------------------------------------------
// Pieces shared with the delta decoder
// ---------------------------------------------------------------------------------------------

/// Byte offset of `part`, a slice of `whole`, inside `whole`.
pub(super) fn offset_in(whole: &str, part: &str) -> usize {
    (part.as_ptr() as usize).wrapping_sub(whole.as_ptr() as usize)
}

/// An error at byte `at` of `line`.
pub(super) fn fail(line: &Line<'_>, at: usize, kind: ErrorKind, message: String) -> Error {
    Error::at(kind, message, line.position(at))
}

/// The header line (line 1) of `text`.
pub(super) fn header_line(text: &str) -> Line<'_> {
    let end = text.find('\n').unwrap_or(text.len());
    let raw = &text[..end];
    Line {
        number: 1,
        offset: 0,
        text: raw.strip_suffix('\r').unwrap_or(raw),
    }
}

/// The graph header fields (SPEC §3.2); absent ones are empty, zero or false.
#[derive(Debug, Default)]
pub(super) struct Head<'h> {
    pub tool: &'h str,
    pub budget: i64,
    pub tokens: i64,
    pub pack_root: &'h str,
    pub symbols: Option<u64>,
    pub edges: Option<u64>,
    pub session: bool,
    pub unchanged: bool,
    pub base_root: &'h str,
    pub new_root: &'h str,
    pub savings: &'h str,
}

/// `1*DIGIT` as a u64 (leading zeros allowed; `None` on overflow).
fn parse_u64(text: &str) -> Option<u64> {
    if text.is_empty() {
        return None;
    }
    let mut value: u64 = 0;
    for b in text.bytes() {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        value = value.checked_mul(10)?.checked_add(u64::from(digit))?;
    }
    Some(value)
}

fn parse_i64(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    parse_u64(digits)?;
    text.parse().ok()
}

/// Reads and checks the graph header fields: integers, booleans. Unknown keys are accepted
/// (forward compatibility).
pub(super) fn read_head<'h>(text: &str, header: &Header<'h>) -> Result<Head<'h>> {
    let line = header_line(text);
    let bad = |key: &str, value: &str, what: &str| {
        fail(
            &line,
            offset_in(text, value),
            ErrorKind::GcfMalformedHeaderField,
            alloc::format!("malformed_header_field: {key}={value} is not {what}"),
        )
    };
    let mut head = Head::default();
    for &(key, value) in &header.fields {
        match key {
            "tool" => head.tool = value,
            "pack_root" => head.pack_root = value,
            "base_root" => head.base_root = value,
            "new_root" => head.new_root = value,
            "savings" => head.savings = value,
            "budget" | "tokens" => {
                let n = parse_i64(value).ok_or_else(|| bad(key, value, "an integer"))?;
                if key == "budget" {
                    head.budget = n;
                } else {
                    head.tokens = n;
                }
            }
            "symbols" | "edges" => {
                let n = parse_u64(value).ok_or_else(|| bad(key, value, "a count"))?;
                if key == "symbols" {
                    head.symbols = Some(n);
                } else {
                    head.edges = Some(n);
                }
            }
            "session" | "delta" | "unchanged" => {
                let flag = match value {
                    "true" => true,
                    "false" => false,
                    _ => return Err(bad(key, value, "true or false")),
                };
                match key {
                    "session" => head.session = flag,
                    "unchanged" => head.unchanged = flag,
                    _ => {}
                }
            }
            _ => {}
        }
    }
    Ok(head)
}

/// The `[count]` of a section header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bracket {
    /// No bracket.
    None,
    /// `[?]`: checked against the `##! summary`, if any.
    Deferred,
    /// `[N]`: exactly N data lines follow.
    Count(u64),
}

/// A section header `## name[ [count]]` (trailing whitespace already removed): the name, its
/// bracket, and the byte offset of the bracket (or of the name).
pub(super) fn read_section_header<'t>(
    line: &Line<'t>,
    text: &'t str,
) -> Result<(&'t str, Bracket, usize)> {
    let invalid = |at: usize, what: &str| {
        fail(
            line,
            at,
            ErrorKind::GcfInvalidLine,
            alloc::format!("invalid_line: {what}"),
        )
    };
    let Some(spec) = text.strip_prefix("## ") else {
        return Err(invalid(0, "a section header is `## name`"));
    };
    let (name, rest) = spec.split_once(' ').unwrap_or((spec, ""));
    if !is_bare_key(name) {
        return Err(invalid(3, "a graph section name is a bare key"));
    }
    if rest.is_empty() {
        return Ok((name, Bracket::None, 3));
    }
    let at = offset_in(text, rest);
    if !rest.starts_with('[') {
        return Err(invalid(at, "expected `[count]` after the section name"));
    }
    let (count, used) = parse_count(rest).map_err(|e| line.place(e, at))?;
    if count.keyed {
        return Err(fail(
            line,
            at,
            ErrorKind::GcfInvalidCount,
            "invalid_count: a keyed bracket `[N:]` is not a graph section count".into(),
        ));
    }
    if used != rest.len() {
        return Err(invalid(
            at + used,
            "characters after the section count (graph sections have no field declaration)",
        ));
    }
    let bracket = match count.count {
        None => Bracket::Deferred,
        Some(n) => Bracket::Count(n as u64),
    };
    Ok((name, bracket, at))
}

/// Splits `text` on single spaces into `fields`; returns the number of fields (one more than
/// `fields.len()` when there are more), or `None` when a field is empty (double, leading or
/// trailing space).
pub(super) fn split_fields<'t>(text: &'t str, fields: &mut [&'t str]) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut count = 0;
    let mut start = 0;
    loop {
        let end = find_space(&bytes[start..]).map_or(bytes.len(), |i| start + i);
        if end == start {
            return None;
        }
        match fields.get_mut(count) {
            Some(slot) => *slot = &text[start..end],
            None => return Some(count + 1),
        }
        count += 1;
        if end == bytes.len() {
            return Some(count);
        }
        start = end + 1;
    }
}

/// The position of the first space in `bytes`, eight bytes at a time (fields are too short
/// for `memchr` to pay off).
fn find_space(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut words = bytes.chunks_exact(8);
    let mut at = 0;
    for word in &mut words {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(word);
        // Zero bytes of `x` are the spaces; the lowest flagged byte is the first zero byte.
        let x = u64::from_le_bytes(eight) ^ (ONES * u64::from(b' '));
        let flags = x.wrapping_sub(ONES) & !x & HIGHS;
        if flags != 0 {
            return Some(at + (flags.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    words
        .remainder()
        .iter()
        .position(|&b| b == b' ')
        .map(|i| at + i)
}

/// The first ASCII control character of a field (a tab, say), which the grammar forbids.
pub(super) fn control_at(field: &str) -> Option<usize> {
    // One vectorizable pass first: fields almost never hold one.
    let any = field
        .bytes()
        .fold(false, |any, b| any | (b < b' ') | (b == 0x7F));
    if !any {
        return None;
    }
    field.bytes().position(|b| b < b' ' || b == 0x7F)
}

/// `1*DIGIT` as a u64 (leading zeros allowed by the grammar; overflow is not an id).
pub(super) fn parse_id(text: &str) -> Option<u64> {
    parse_u64(text)
}

/// `@id` at byte `at` of `line`, or `invalid_symbol_id`.
pub(super) fn read_id(line: &Line<'_>, at: usize, token: &str) -> Result<u64> {
    token.strip_prefix('@').and_then(parse_id).ok_or_else(|| {
        fail(
            line,
            at,
            ErrorKind::GcfInvalidSymbolId,
            alloc::format!(
                "invalid_symbol_id: {:?} is not `@` followed by a decimal id",
                super::super::scalar::truncate(token, 40)
            ),
        )
    })
}

/// The score grammar `[-]1*DIGIT "." 2DIGIT` (SPEC §5), as a finite double.
pub(super) fn parse_score(text: &str) -> Option<f64> {
    let unsigned = text.strip_prefix('-').unwrap_or(text);
    let bytes = unsigned.as_bytes();
    let [whole @ .., b'.', tens, units] = bytes else {
        return None;
    };
    let digit = |b: u8| b.is_ascii_digit();
    if whole.is_empty() || !whole.iter().all(|&b| digit(b)) || !digit(*tens) || !digit(*units) {
        return None;
    }
    if whole.len() <= 13 {
        // The value is hundredths / 100 with hundredths < 2^53: both exact doubles, so their
        // correctly rounded quotient is the correctly rounded value of the text.
        let hundredths = whole
            .iter()
            .chain([tens, units])
            .fold(0u64, |n, &b| n * 10 + u64::from(b - b'0'));
        let magnitude = hundredths as f64 / 100.0;
        return Some(if text.len() > unsigned.len() {
            -magnitude
        } else {
            magnitude
        });
    }
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Reads the `kind qname score provenance` of a node line whose fields are `fields` (the
/// `@id` first), checking for control characters, the id and the score grammar.
pub(super) fn read_node(
    line: &Line<'_>,
    fields: &[&str],
    distance: i64,
    malformed: ErrorKind,
) -> Result<(u64, Symbol)> {
    let symbol = read_node_view(line, fields, distance, malformed)?;
    Ok((symbol.id, symbol.to_symbol()))
}

/// [`read_node`] in place.
fn read_node_view<'t>(
    line: &Line<'_>,
    fields: &[&'t str],
    distance: i64,
    malformed: ErrorKind,
) -> Result<SymbolView<'t>> {
    for field in fields {
        if let Some(at) = control_at(field) {
            return Err(fail(
                line,
                offset_in(line.text, field) + at,
                malformed,
                alloc::format!(
                    "{}: a control character inside a field",
                    category(malformed)
                ),
            ));
        }
    }
    let [id, kind, qualified_name, score, provenance, ..] = fields else {
        return Err(fail(line, 0, malformed, "node line too short".into()));
    };
    let id = read_id(line, 0, id)?;
    // The encoders never write a `#` kind (as a delta `removed` line it would start with `#`).
    if kind.starts_with('#') {
        return Err(fail(
            line,
            offset_in(line.text, kind),
            malformed,
            alloc::format!("{}: a kind cannot start with `#`", category(malformed)),
        ));
    }
    let score_value = parse_score(score).ok_or_else(|| {
        fail(
            line,
            offset_in(line.text, score),
            ErrorKind::GcfInvalidScore,
            alloc::format!(
                "invalid_score: {:?} does not match `[-]DIGITS.2DIGIT`",
                super::super::scalar::truncate(score, 40)
            ),
        )
    })?;
    Ok(SymbolView {
        id,
        qualified_name,
        kind: expand_kind(kind),
        score: score_value,
        provenance,
        distance,
    })
}

/// The snake_case SPEC category of the graph line errors.
pub(super) fn category(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::GcfInvalidNodeLine => "invalid_node_line",
        ErrorKind::GcfInvalidEdgeSyntax => "invalid_edge_syntax",
        ErrorKind::GcfMalformedDelta => "malformed_delta",
        _ => "invalid_line",
    }
}

/// Takes `bytes` from the decoded-text budget, or fails at `line`.
pub(super) fn spend(budget: &mut TextBudget, line: &Line<'_>, bytes: usize) -> Result<()> {
    budget
        .spend(bytes)
        .map_err(|m| fail(line, 0, ErrorKind::GcfPayloadTooLarge, m))
}

pub(super) fn new_budget() -> TextBudget {
    TextBudget::new(&TextLimits {
        max_payload_bytes: MAX_DECODED_TEXT,
    })
}

/// Blank lines and comments carry nothing (SPEC §4.2, §11); the rest of the line with
/// trailing spaces and tabs removed (SPEC §16.5 allows a warning, not a rejection).
pub(super) fn content<'t>(line: &Line<'t>) -> Option<&'t str> {
    let bytes = line.text.as_bytes();
    let blank = |b: &u8| *b == b' ' || *b == b'\t';
    let end = bytes.iter().rposition(|b| !blank(b))? + 1;
    let text = &line.text[..end];
    let start = bytes.iter().position(|b| !blank(b)).unwrap_or(end);
    (!is_comment(&text[start..])).then_some(text)
}

// ---------------------------------------------------------------------------------------------
// The payload reader
// ---------------------------------------------------------------------------------------------

/// A graph payload decoded in place (SPEC §16.3): names borrow the decoded text, and edges
/// name their endpoints by index into [`symbols`](GraphView::symbols). It reads exactly what
/// [`decode_graph`](crate::gcf::v3::decode_graph) reads, with the same errors, without
/// allocating a string per name; [`to_payload`](GraphView::to_payload) makes the owned
/// [`Payload`].
///
/// ```
/// use agentwire::gcf::v3::graph;
/// let text = concat!(
///     "GCF profile=graph tool=t symbols=2 edges=1\n",
///     "## targets\n@0 fn a.F 0.90 lsp\n",
///     "## related\n@1 type a.T 0.50 lsp\n",
///     "## edges [1]\n@0<@1 calls\n",
/// );
/// let view = graph::decode_view(text)?;
/// assert_eq!((view.symbols[0].qualified_name, view.symbols[0].kind), ("a.F", "function"));
/// assert_eq!((view.symbols[1].qualified_name, view.symbols[1].distance), ("a.T", 1));
/// let edge = &view.edges[0];
/// assert_eq!((view.symbols[edge.source].qualified_name, edge.edge_type), ("a.T", "calls"));
/// assert_eq!(view.to_payload(), agentwire::gcf::v3::decode_graph(text)?);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GraphView<'a> {
    /// Header `tool` (empty when absent).
    pub tool: &'a str,
    /// Header `budget` (0 when absent).
    pub token_budget: i64,
    /// Header `tokens` (0 when absent).
    pub tokens_used: i64,
    /// Header `pack_root` (empty when absent).
    pub pack_root: &'a str,
    /// The declared symbols in payload order (bare session references are not symbols).
    pub symbols: Vec<SymbolView<'a>>,
    /// The edges in payload order, except those touching a bare session reference.
    pub edges: Vec<EdgeView<'a>>,
}

/// A symbol of a [`GraphView`].
///
/// ```
/// use agentwire::gcf::v3::graph::{self, SymbolView};
/// let view = graph::decode_view("GCF profile=graph symbols=1\n## related\n@7 fn a.F 0.25 lsp\n")?;
/// let expected = SymbolView {
///     id: 7,
///     qualified_name: "a.F",
///     kind: "function",
///     score: 0.25,
///     provenance: "lsp",
///     distance: 1,
/// };
/// assert_eq!(view.symbols[0], expected);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SymbolView<'a> {
    /// The local id it is declared with (`@id`).
    pub id: u64,
    /// Fully qualified name.
    pub qualified_name: &'a str,
    /// The kind, abbreviations expanded (`fn` reads as `function`).
    pub kind: &'a str,
    /// The score (two decimals on the wire).
    pub score: f64,
    /// Provenance.
    pub provenance: &'a str,
    /// The distance of its group.
    pub distance: i64,
}

/// An edge of a [`GraphView`]: endpoints as indices into [`GraphView::symbols`].
///
/// ```
/// use agentwire::gcf::v3::graph::{self, EdgeView};
/// let text = "GCF profile=graph symbols=2 edges=1\n## targets\n@0 fn a.F 0.90 lsp\n\
///             @1 fn a.G 0.50 lsp\n## edges [1]\n@0<@1 calls added\n";
/// let view = graph::decode_view(text)?;
/// let edge = view.edges[0];
/// assert_eq!(edge, EdgeView { source: 1, target: 0, edge_type: "calls", status: "added" });
/// assert_eq!(view.symbols[edge.source].qualified_name, "a.G");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EdgeView<'a> {
    /// Index of the source symbol.
    pub source: usize,
    /// Index of the target symbol.
    pub target: usize,
    /// Edge type.
    pub edge_type: &'a str,
    /// Status (empty when absent).
    pub status: &'a str,
}

impl SymbolView<'_> {
    /// The owned symbol.
    ///
    /// ```
    /// use agentwire::gcf::{v3::graph, Symbol};
    /// let text = "GCF profile=graph symbols=1\n## targets\n@0 type a.T 0.50 ast\n";
    /// let symbol = graph::decode_view(text)?.symbols[0].to_symbol();
    /// let expected = Symbol {
    ///     qualified_name: "a.T".into(),
    ///     kind: "type".into(),
    ///     score: 0.5,
    ///     provenance: "ast".into(),
    ///     ..Symbol::default()
    /// };
    /// assert_eq!(symbol, expected);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn to_symbol(&self) -> Symbol {
        Symbol {
            qualified_name: self.qualified_name.into(),
            kind: self.kind.into(),
            score: self.score,
            provenance: self.provenance.into(),
            distance: self.distance,
            ..Symbol::default()
        }
    }
}

impl GraphView<'_> {
    /// The owned payload: edges name their endpoints by qualified name.
    ///
    /// ```
    /// use agentwire::gcf::v3::graph;
    /// let text = "GCF profile=graph tool=t symbols=2 edges=1\n## targets\n@0 fn a.F 0.90 lsp\n\
    ///             @1 fn a.G 0.50 lsp\n## edges [1]\n@0<@1 calls\n";
    /// let payload = graph::decode_view(text)?.to_payload();
    /// assert_eq!(payload.tool, "t");
    /// let edge = &payload.edges[0];
    /// assert_eq!((edge.source.as_str(), edge.target.as_str()), ("a.G", "a.F"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn to_payload(&self) -> Payload {
        let name = |index: usize| {
            self.symbols
                .get(index)
                .map_or("", |symbol| symbol.qualified_name)
        };
        Payload {
            tool: self.tool.into(),
            token_budget: self.token_budget,
            tokens_used: self.tokens_used,
            pack_root: self.pack_root.into(),
            symbols: self.symbols.iter().map(SymbolView::to_symbol).collect(),
            edges: self
                .edges
                .iter()
                .map(|edge| Edge {
                    source: name(edge.source).into(),
                    target: name(edge.target).into(),
                    edge_type: edge.edge_type.into(),
                    status: edge.status.into(),
                })
                .collect(),
        }
    }
}

/// Decodes a non-delta graph payload in place; see [`GraphView`]. Any other payload is
/// [`ErrorKind::GcfUnknownProfile`]; otherwise the errors are those of
/// [`decode_graph`](crate::gcf::v3::decode_graph).
///
/// ```
/// use agentwire::gcf::v3::graph;
/// let text = "GCF profile=graph tool=search symbols=1\n## targets\n@0 type a.T 0.75 ast\n";
/// let view = graph::decode_view(text)?;
/// assert_eq!((view.tool, view.symbols[0].qualified_name), ("search", "a.T"));
/// let err = graph::decode_view("GCF profile=generic\n").unwrap_err();
/// assert_eq!(err.code(), "GCF_UNKNOWN_PROFILE");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn decode_view(text: &str) -> Result<GraphView<'_>> {
    let header = Header::parse(text)?;
    if header.profile != Profile::Graph || header.get("delta") == Some("true") {
        return Err(Error::new(
            ErrorKind::GcfUnknownProfile,
            alloc::format!(
                "unknown_profile: expected a graph (non-delta) payload, found profile={}{}",
                header.profile.as_str(),
                if header.profile == Profile::Graph {
                    " delta=true"
                } else {
                    ""
                }
            ),
        ));
    }
    Ok(read_payload(text, &header, None)?.view)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    /// Before the first section header.
    Start,
    /// A distance group.
    Group(i64),
    /// `## edges`.
    Edges,
    /// A section name the graph profile does not define.
    Unknown,
}

/// What an id stands for.
#[derive(Clone, Copy, Debug)]
enum Slot {
    /// Declared by a node line: index into the symbols.
    Declared(usize),
    /// A bare reference resolved from the session: index into the symbols.
    Resolved(usize),
    /// A bare reference without session state: edges touching it are skipped.
    Unresolved,
}

/// Ids up to this bound always live in the dense table.
const DENSE_IDS: usize = 1024;

/// Id → slot. Ids are usually small and dense (encoders number symbols from 0): those index a
/// table, which grows only to a bound proportional to the entries held; others (a huge id
/// costs one entry) go to a B-tree.
#[derive(Debug, Default)]
struct IdMap {
    dense: Vec<Option<Slot>>,
    sparse: BTreeMap<u64, Slot>,
    len: usize,
}

impl IdMap {
    fn get(&self, id: u64) -> Option<Slot> {
        match usize::try_from(id).ok().and_then(|i| self.dense.get(i)) {
            Some(slot) => *slot,
            None => self.sparse.get(&id).copied(),
        }
    }

    fn contains(&self, id: u64) -> bool {
        self.get(id).is_some()
    }

    /// Inserts an id that is not in the map.
    fn insert(&mut self, id: u64, slot: Slot) {
        self.len += 1;
        let bound = DENSE_IDS.saturating_add(self.len.saturating_mul(4));
        match usize::try_from(id) {
            Ok(i) if i < self.dense.len() => self.dense[i] = Some(slot),
            Ok(i) if i < bound => {
                self.dense.resize(i + 1, None);
                // Sparse ids the table now covers move into it.
                let rest = self.sparse.split_off(&(i as u64 + 1));
                for (id, slot) in core::mem::replace(&mut self.sparse, rest) {
                    if let Some(entry) = self.dense.get_mut(id as usize) {
                        *entry = Some(slot);
                    }
                }
                self.dense[i] = Some(slot);
            }
            _ => {
                self.sparse.insert(id, slot);
            }
        }
    }

    /// Every (id, symbol index) declared by a node line.
    fn declared(&self) -> impl Iterator<Item = (u64, usize)> + '_ {
        let dense = self
            .dense
            .iter()
            .enumerate()
            .filter_map(|(id, slot)| Some((id as u64, (*slot)?)));
        let sparse = self.sparse.iter().map(|(&id, &slot)| (id, slot));
        dense.chain(sparse).filter_map(|(id, slot)| match slot {
            Slot::Declared(index) => Some((id, index)),
            _ => None,
        })
    }
}

/// The open section and what its bracket promises.
struct Open<'t> {
    line: Line<'t>,
    bracket: Bracket,
    bracket_at: usize,
    items: u64,
}

/// The `##! summary` counts, with where they were written.
struct Summary<'t> {
    line: Line<'t>,
    symbols: Option<(u64, usize)>,
    edges: Option<(u64, usize)>,
}

/// Reads a payload; `'a` is the text's lifetime (and the session's, when there is one).
struct Reader<'a> {
    session: bool,
    unchanged: bool,
    /// The session's symbols by id (consumer session), if any.
    known: Option<&'a BTreeMap<u64, Symbol>>,
    view: GraphView<'a>,
    ids: IdMap,
    budget: TextBudget,
    section: Section,
    open: Option<Open<'a>>,
    symbol_lines: u64,
    edge_lines: u64,
    deferred: bool,
    summary: Option<Summary<'a>>,
}

impl<'t> Reader<'t> {
    fn line(&mut self, line: Line<'t>) -> Result<()> {
        let Some(text) = content(&line) else {
            return Ok(());
        };
        let invalid = |at: usize, what: &str| {
            fail(
                &line,
                at,
                ErrorKind::GcfInvalidLine,
                alloc::format!("invalid_line: {what}"),
            )
        };
        if self.unchanged {
            return Err(invalid(0, "an unchanged=true response has no body"));
        }
        if self.summary.is_some() {
            return Err(invalid(0, "nothing may follow the `##! summary` trailer"));
        }
        if text.starts_with("##!") {
            return self.summary_line(line, text);
        }
        if text.starts_with("##") {
            return self.section_header(line, text);
        }
        if text.starts_with([' ', '\t']) {
            return Err(invalid(0, "graph lines are not indented"));
        }
        match self.section {
            Section::Start => Err(invalid(0, "a data line before the first `##` section")),
            Section::Unknown => Err(invalid(
                0,
                "a data line under a section the graph profile does not define",
            )),
            Section::Group(distance) => self.node(line, text, distance),
            Section::Edges => self.edge(line, text),
        }
    }

    fn count_item(&mut self) {
        if let Some(open) = &mut self.open {
            open.items += 1;
        }
    }

    fn close_section(&mut self) -> Result<()> {
        match self.open.take() {
            Some(open) => match open.bracket {
                Bracket::Count(declared) if declared != open.items => Err(fail(
                    &open.line,
                    open.bracket_at,
                    ErrorKind::GcfCountMismatch,
                    alloc::format!(
                        "count_mismatch: the section declares [{declared}] but {} lines follow",
                        open.items
                    ),
                )),
                _ => Ok(()),
            },
            None => Ok(()),
        }
    }

    fn section_header(&mut self, line: Line<'t>, text: &'t str) -> Result<()> {
        self.close_section()?;
        let (name, bracket, bracket_at) = read_section_header(&line, text)?;
        self.section = match name {
            "targets" => Section::Group(0),
            "related" => Section::Group(1),
            "extended" => Section::Group(2),
            "edges" => Section::Edges,
            _ => match name.strip_prefix("distance_") {
                Some(digits) if parse_u64(digits).is_some() => {
                    let distance = digits.parse::<i64>().map_err(|_| {
                        fail(
                            &line,
                            3,
                            ErrorKind::GcfInvalidLine,
                            "invalid_line: the group distance does not fit 64 bits".into(),
                        )
                    })?;
                    Section::Group(distance)
                }
                _ => Section::Unknown,
            },
        };
        self.deferred |= bracket == Bracket::Deferred;
        self.open = Some(Open {
            line,
            bracket,
            bracket_at,
            items: 0,
        });
        Ok(())
    }

    fn summary_line(&mut self, line: Line<'t>, text: &'t str) -> Result<()> {
        let rest = text
            .strip_prefix("##! summary")
            .filter(|rest| rest.is_empty() || rest.starts_with(' '))
            .ok_or_else(|| {
                fail(
                    &line,
                    0,
                    ErrorKind::GcfInvalidLine,
                    "invalid_line: the trailer is `##! summary key=value …`".into(),
                )
            })?;
        self.close_section()?;
        let mut summary = Summary {
            line,
            symbols: None,
            edges: None,
        };
        let mut seen: BTreeMap<&str, ()> = BTreeMap::new();
        for token in rest.split(' ').filter(|t| !t.is_empty()) {
            let at = offset_in(line.text, token);
            let Some((key, value)) = token.split_once('=').filter(|(k, _)| !k.is_empty()) else {
                return Err(fail(
                    &line,
                    at,
                    ErrorKind::GcfMalformedHeaderField,
                    alloc::format!(
                        "malformed_header_field: summary field {token:?} is not key=value"
                    ),
                ));
            };
            if seen.insert(key, ()).is_some() {
                return Err(fail(
                    &line,
                    at,
                    ErrorKind::GcfDuplicateHeaderField,
                    alloc::format!("duplicate_header_field: summary field {key:?} appears twice"),
                ));
            }
            // `counts` is informational in the graph profile (SPEC §8.4.1): never rejected.
            if key == "symbols" || key == "edges" {
                let n = parse_u64(value).ok_or_else(|| {
                    fail(
                        &line,
                        at + key.len() + 1,
                        ErrorKind::GcfInvalidCount,
                        alloc::format!("invalid_count: summary {key}={value} is not a count"),
                    )
                })?;
                let entry = Some((n, at + key.len() + 1));
                if key == "symbols" {
                    summary.symbols = entry;
                } else {
                    summary.edges = entry;
                }
            }
        }
        self.summary = Some(summary);
        Ok(())
    }

    fn node(&mut self, line: Line<'t>, text: &'t str, distance: i64) -> Result<()> {
        self.count_item();
        self.symbol_lines += 1;
        let invalid = |at: usize, what: String| {
            fail(
                &line,
                at,
                ErrorKind::GcfInvalidNodeLine,
                alloc::format!("invalid_node_line: {what}"),
            )
        };
        let id_end = find_space(text.as_bytes()).unwrap_or(text.len());
        let (first, rest) = text.split_at(id_end);
        if first.bytes().any(|b| b == b'<') {
            return Err(invalid(0, "an edge line outside `## edges`".into()));
        }
        if !first.starts_with('@') {
            return Err(invalid(0, "a symbol line starts with `@id`".into()));
        }
        let after = rest.trim_start_matches(' ');
        if !rest.is_empty() && (after == "#" || after.starts_with("# ")) {
            let id = read_id(&line, 0, first)?;
            if !self.session {
                return Err(invalid(
                    0,
                    "a bare reference `@id  # …` is only valid with session=true".into(),
                ));
            }
            return self.reference(&line, id, distance);
        }
        let mut fields = [""; 5];
        match split_fields(text, &mut fields) {
            Some(5) => {}
            count => {
                let what = match count {
                    Some(n) if n > 5 => "more than 5".into(),
                    Some(n) => alloc::format!("{n}"),
                    None => "empty".into(),
                };
                return Err(invalid(
                    0,
                    alloc::format!(
                        "a node line has exactly 5 fields `@id kind qname score provenance` \
                         separated by single spaces ({what} fields)"
                    ),
                ));
            }
        }
        let symbol = read_node_view(&line, &fields, distance, ErrorKind::GcfInvalidNodeLine)?;
        let bytes = symbol.qualified_name.len() + symbol.kind.len() + symbol.provenance.len();
        self.claim(&line, symbol.id)?;
        spend(&mut self.budget, &line, bytes)?;
        self.ids
            .insert(symbol.id, Slot::Declared(self.view.symbols.len()));
        self.view.symbols.push(symbol);
        Ok(())
    }

    /// Fails when `id` already stands for a symbol of this payload.
    fn claim(&self, line: &Line<'_>, id: u64) -> Result<()> {
        if self.ids.contains(id) {
            return Err(fail(
                line,
                0,
                ErrorKind::GcfInvalidSymbolId,
                alloc::format!("invalid_symbol_id: @{id} appears twice in the payload"),
            ));
        }
        Ok(())
    }

    fn reference(&mut self, line: &Line<'t>, id: u64, distance: i64) -> Result<()> {
        self.claim(line, id)?;
        let Some(known) = self.known else {
            self.ids.insert(id, Slot::Unresolved);
            return Ok(());
        };
        let Some(symbol) = known.get(&id) else {
            return Err(fail(
                line,
                0,
                ErrorKind::GcfInvalidSymbolId,
                alloc::format!(
                    "invalid_symbol_id: @{id} refers to no symbol received earlier in this session"
                ),
            ));
        };
        let bytes = symbol.qualified_name.len() + symbol.kind.len() + symbol.provenance.len();
        spend(&mut self.budget, line, bytes)?;
        self.ids.insert(id, Slot::Resolved(self.view.symbols.len()));
        self.view.symbols.push(SymbolView {
            id,
            qualified_name: &symbol.qualified_name,
            kind: &symbol.kind,
            score: symbol.score,
            provenance: &symbol.provenance,
            distance,
        });
        Ok(())
    }

    fn edge(&mut self, line: Line<'t>, text: &'t str) -> Result<()> {
        self.count_item();
        self.edge_lines += 1;
        let syntax = |at: usize, what: &str| {
            fail(
                &line,
                at,
                ErrorKind::GcfInvalidEdgeSyntax,
                alloc::format!("invalid_edge_syntax: {what}"),
            )
        };
        let first_len = find_space(text.as_bytes()).unwrap_or(text.len());
        let first = &text[..first_len];
        let Some(lt) = first.bytes().position(|b| b == b'<') else {
            return Err(syntax(0, "an edge line is `@target<@source type` (no `<`)"));
        };
        let mut fields = [""; 3];
        let count = split_fields(text, &mut fields);
        if !matches!(count, Some(2 | 3)) {
            return Err(syntax(
                0,
                "an edge line is `@target<@source type [status]`, fields separated by single spaces",
            ));
        }
        // The fields after the first hold no control character (one pass over the rest).
        if let Some(at) = control_at(&text[first_len..]) {
            return Err(syntax(first_len + at, "a control character inside a field"));
        }
        let (target_text, source_text) = (&first[..lt], &first[lt + 1..]);
        if !target_text.starts_with('@') || !source_text.starts_with('@') {
            return Err(syntax(0, "both ends of `@target<@source` start with `@`"));
        }
        let target = read_id(&line, 0, target_text)?;
        let source = read_id(&line, lt + 1, source_text)?;
        let slot = |id: u64, at: usize| {
            self.ids.get(id).ok_or_else(|| {
                fail(
                    &line,
                    at,
                    ErrorKind::GcfUnknownEdgeReference,
                    alloc::format!(
                        "unknown_edge_reference: @{id} is not a symbol declared earlier in the payload"
                    ),
                )
            })
        };
        let (target, source) = (slot(target, 0)?, slot(source, lt + 1)?);
        let index = |slot: Slot| match slot {
            Slot::Declared(i) | Slot::Resolved(i) => Some(i),
            Slot::Unresolved => None,
        };
        // An edge touching an unresolved session reference cannot be named: skipped.
        let (Some(target), Some(source)) = (index(target), index(source)) else {
            return Ok(());
        };
        let (Some(target_symbol), Some(source_symbol)) =
            (self.view.symbols.get(target), self.view.symbols.get(source))
        else {
            return Ok(());
        };
        let [_, edge_type, status] = fields;
        let bytes = target_symbol.qualified_name.len() + source_symbol.qualified_name.len();
        spend(
            &mut self.budget,
            &line,
            bytes + edge_type.len() + status.len(),
        )?;
        self.view.edges.push(EdgeView {
            source,
            target,
            edge_type,
            status,
        });
        Ok(())
    }

    fn finish(&mut self) -> Result<()> {
        self.close_section()?;
        let Some(summary) = &self.summary else {
            return Ok(());
        };
        // In buffered mode `[N]` is authoritative and the trailer informational (SPEC §8.5).
        if !self.deferred {
            return Ok(());
        }
        for (what, declared, actual) in [
            ("edges", summary.edges, self.edge_lines),
            ("symbols", summary.symbols, self.symbol_lines),
        ] {
            if let Some((declared, at)) = declared
                && declared != actual
            {
                return Err(fail(
                    &summary.line,
                    at,
                    ErrorKind::GcfCountMismatch,
                    alloc::format!(
                        "count_mismatch: the summary says {what}={declared} but the payload has {actual}"
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// Reads a non-delta graph payload; `known` resolves bare references (consumer session).
fn read_payload<'a>(
    text: &'a str,
    header: &Header<'a>,
    known: Option<&'a BTreeMap<u64, Symbol>>,
) -> Result<Reader<'a>> {
    let head = read_head(text, header)?;
    let mut budget = new_budget();
    spend(
        &mut budget,
        &header_line(text),
        head.tool.len() + head.pack_root.len(),
    )?;
    // The header counts are informational: they size the lists only as far as the text
    // could hold that many lines (`@0 k q 0.00 p` and `@0<@0 t` at least).
    let capacity = |declared: Option<u64>, shortest: usize| {
        usize::try_from(declared.unwrap_or(0))
            .unwrap_or(usize::MAX)
            .min(text.len() / shortest)
    };
    let mut reader = Reader {
        session: head.session,
        unchanged: head.unchanged,
        known,
        view: GraphView {
            tool: head.tool,
            token_budget: head.budget,
            tokens_used: head.tokens,
            pack_root: head.pack_root,
            symbols: Vec::with_capacity(capacity(head.symbols, 14)),
            edges: Vec::with_capacity(capacity(head.edges, 8)),
        },
        ids: IdMap::default(),
        budget,
        section: Section::Start,
        open: None,
        symbol_lines: 0,
        edge_lines: 0,
        deferred: false,
        summary: None,
    };
    for line in body_lines(text, header) {
        reader.line(line)?;
    }
    reader.finish()?;
    Ok(reader)
}

/// Decodes a non-delta graph payload whose header is `header` (SPEC §16.3).
///
/// Bare session references (`@id  # previously transmitted`, only with `session=true`) are
/// not symbols of the result, and edges touching them are left out: only a consumer holding
/// the session can name them ([`GraphSessionDecoder`]). An `unchanged=true` response
/// decodes to its tool and `pack_root` (see also [`decode_unchanged`](super::decode_unchanged)).
pub(crate) fn decode(text: &str, header: &Header<'_>, options: &DecodeOptions) -> Result<Payload> {
    let _ = options;
    Ok(read_payload(text, header, None)?.view.to_payload())
}

/// The consumer side of a graph session (SPEC §9): remembers the symbols received by id and
/// resolves bare `@id  # previously transmitted` references to them.
///
/// A payload without `session=true` starts over (SPEC §9.4: the producer lost or expired the
/// session). A reference to an id never received is [`ErrorKind::GcfInvalidSymbolId`]; a
/// payload that fails to decode leaves the session unchanged.
///
/// ```
/// use agentwire::gcf::v3::graph::GraphSessionDecoder;
/// let mut session = GraphSessionDecoder::new();
/// session.decode("GCF profile=graph symbols=1 session=true\n## targets\n@0 fn a.F 0.90 lsp\n")?;
/// let second = session.decode(
///     "GCF profile=graph symbols=2 edges=1 session=true\n## targets\n@0  # previously transmitted\n\
///      @1 fn a.G 0.50 lsp\n## edges [1]\n@0<@1 calls\n",
/// )?;
/// assert_eq!(second.symbols[0].qualified_name, "a.F");
/// assert_eq!(second.edges[0].target, "a.F");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct GraphSessionDecoder {
    symbols: BTreeMap<u64, Symbol>,
}

impl GraphSessionDecoder {
    /// A new session without symbols.
    ///
    /// ```
    /// use agentwire::gcf::v3::graph::GraphSessionDecoder;
    /// let mut session = GraphSessionDecoder::new();
    /// assert_eq!(session.len(), 0);
    /// let text = "GCF profile=graph session=true\n## targets\n@0 fn a.F 0.90 lsp\n";
    /// let payload = session.decode(text)?;
    /// assert_eq!(payload.symbols[0].qualified_name, "a.F");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn new() -> GraphSessionDecoder {
        GraphSessionDecoder::default()
    }

    /// Number of symbols received.
    ///
    /// ```
    /// use agentwire::gcf::v3::graph::GraphSessionDecoder;
    /// let mut session = GraphSessionDecoder::new();
    /// let head = "GCF profile=graph session=true\n## targets\n";
    /// session.decode(&format!("{head}@0 fn a.F 0.90 lsp\n@1 fn a.G 0.50 lsp\n"))?;
    /// assert_eq!(session.len(), 2);
    /// // A reference adds nothing; a new declaration does.
    /// session.decode(&format!("{head}@0  # previously transmitted\n@2 fn a.H 0.40 lsp\n"))?;
    /// assert_eq!(session.len(), 3);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    /// True when nothing has been received.
    ///
    /// ```
    /// use agentwire::gcf::v3::graph::GraphSessionDecoder;
    /// let mut session = GraphSessionDecoder::new();
    /// assert!(session.is_empty());
    /// session.decode("GCF profile=graph session=true\n## targets\n@0 fn a.F 0.90 lsp\n")?;
    /// assert!(!session.is_empty());
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// Forgets every symbol.
    ///
    /// ```
    /// use agentwire::gcf::v3::graph::GraphSessionDecoder;
    /// let mut session = GraphSessionDecoder::new();
    /// session.decode("GCF profile=graph session=true\n## targets\n@0 fn a.F 0.90 lsp\n")?;
    /// session.reset();
    /// assert_eq!(session.len(), 0);
    /// // `@0` now names nothing the session holds.
    /// let err = session
    ///     .decode("GCF profile=graph session=true\n## targets\n@0  # previously transmitted\n")
    ///     .unwrap_err();
    /// assert_eq!(err.code(), "GCF_INVALID_SYMBOL_ID");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn reset(&mut self) {
        self.symbols.clear();
    }

    /// Decodes the next graph payload of the session, references resolved (a reference takes
    /// the distance of the group it appears in).
    ///
    /// ```
    /// use agentwire::gcf::v3::graph::GraphSessionDecoder;
    /// let mut session = GraphSessionDecoder::new();
    /// session.decode("GCF profile=graph session=true\n## targets\n@0 fn a.F 0.90 lsp\n")?;
    /// let text = "GCF profile=graph session=true\n## related\n@0  # previously transmitted\n";
    /// let next = session.decode(text)?;
    /// assert_eq!((next.symbols[0].qualified_name.as_str(), next.symbols[0].distance), ("a.F", 1));
    /// // A payload without `session=true` starts over.
    /// session.decode("GCF profile=graph symbols=0\n")?;
    /// assert!(session.is_empty());
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn decode(&mut self, text: &str) -> Result<Payload> {
        let header = Header::parse(text)?;
        if header.profile != Profile::Graph || header.get("delta") == Some("true") {
            return Err(Error::new(
                ErrorKind::GcfUnknownProfile,
                "unknown_profile: a graph session payload is a non-delta profile=graph payload",
            ));
        }
        if header.get("session") != Some("true") {
            let payload = read_payload(text, &header, None)?.view.to_payload();
            self.symbols.clear();
            return Ok(payload);
        }
        let reader = read_payload(text, &header, Some(&self.symbols))?;
        let payload = reader.view.to_payload();
        let declared: Vec<(u64, usize)> = reader.ids.declared().collect();
        drop(reader);
        for (id, index) in declared {
            if let Some(symbol) = payload.symbols.get(index) {
                self.symbols.insert(id, symbol.clone());
            }
        }
        Ok(payload)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gcf::v3::decode_graph;

    fn error(text: &str) -> (String, u64, u64) {
        let e = decode_graph(text).unwrap_err();
        (
            e.code().into(),
            e.line().unwrap_or(0),
            e.column().unwrap_or(0),
        )
    }

    const HEAD: &str = "GCF profile=graph tool=t\n## targets\n";

    #[test]
    fn strict_node_lines_with_positions() {
        let at = |body: &str| error(&alloc::format!("{HEAD}{body}"));
        assert_eq!(at("@0 fn a 0.90"), ("GCF_INVALID_NODE_LINE".into(), 3, 1));
        assert_eq!(
            at("@0 fn a 0.90 p x"),
            ("GCF_INVALID_NODE_LINE".into(), 3, 1)
        );
        assert_eq!(
            at("@0 fn  a 0.90 p"),
            ("GCF_INVALID_NODE_LINE".into(), 3, 1)
        );
        assert_eq!(at("@x fn a 0.90 p"), ("GCF_INVALID_SYMBOL_ID".into(), 3, 1));
        assert_eq!(
            at("@-1 fn a 0.90 p"),
            ("GCF_INVALID_SYMBOL_ID".into(), 3, 1)
        );
        assert_eq!(at("@0 fn a 0.9 p"), ("GCF_INVALID_SCORE".into(), 3, 9));
        assert_eq!(at("@0 fn a .90 p"), ("GCF_INVALID_SCORE".into(), 3, 9));
        assert_eq!(at("@0 fn a 1e2 p"), ("GCF_INVALID_SCORE".into(), 3, 9));
        assert_eq!(
            at("@0 fn a\tb 0.90 p"),
            ("GCF_INVALID_NODE_LINE".into(), 3, 8)
        );
        assert_eq!(
            at("@0 fn a 0.90 p\n@0 fn b 0.90 p"),
            ("GCF_INVALID_SYMBOL_ID".into(), 4, 1)
        );
        assert_eq!(
            at("@0  # previously transmitted"),
            ("GCF_INVALID_NODE_LINE".into(), 3, 1)
        );
        let long = alloc::format!("@0 fn a 1{}.00 p", "0".repeat(400));
        assert_eq!(at(&long), ("GCF_INVALID_SCORE".into(), 3, 9));
    }

    #[test]
    fn spaces_are_found_in_every_position() {
        for len in 0..40 {
            for at in 0..=len {
                let mut bytes = alloc::vec![b'a'; len];
                bytes.extend_from_slice(b"\xC3\xA9");
                if at < len {
                    bytes[at] = b' ';
                    bytes[len - 1] = b' ';
                }
                let want = bytes.iter().position(|&b| b == b' ');
                assert_eq!(find_space(&bytes), want, "{len} {at}");
            }
        }
    }

    #[test]
    fn edges_and_counts() {
        let two = "GCF profile=graph\n## targets\n@0 fn a 0.90 p\n@1 fn b 0.80 p\n";
        let at = |edges: &str| error(&alloc::format!("{two}{edges}"));
        assert_eq!(
            at("## edges [2]\n@0<@1 calls\n"),
            ("GCF_COUNT_MISMATCH".into(), 5, 10)
        );
        assert_eq!(
            at("## edges\n@0<@2 calls\n"),
            ("GCF_UNKNOWN_EDGE_REFERENCE".into(), 6, 4)
        );
        assert_eq!(
            at("## edges\n@0<1 calls\n"),
            ("GCF_INVALID_EDGE_SYNTAX".into(), 6, 1)
        );
        assert_eq!(
            at("## edges\n@0<@1 calls added x\n"),
            ("GCF_INVALID_EDGE_SYNTAX".into(), 6, 1)
        );
        assert_eq!(
            at("## edges [1:]\n@0<@1 calls\n"),
            ("GCF_INVALID_COUNT".into(), 5, 10)
        );
        assert_eq!(
            at("## edges [?]\n@0<@1 calls\n##! summary symbols=2 edges=2 counts=2,2\n"),
            ("GCF_COUNT_MISMATCH".into(), 7, 29)
        );
        assert_eq!(
            at("## edges [1]\n@0<@1 c\n##! summary\n@1<@0 c\n"),
            ("GCF_INVALID_LINE".into(), 8, 1)
        );
        // Trailer counts are informational, even malformed; buffered trailers too.
        let ok = alloc::format!(
            "{two}## edges [?]\n@0<@1 calls\n##! summary symbols=2 edges=1 counts=x:y,zz\n"
        );
        assert_eq!(decode_graph(&ok).unwrap().edges.len(), 1);
        let ok = alloc::format!("{two}## edges [1]\n@0<@1 calls\n##! summary edges=7\n");
        assert_eq!(decode_graph(&ok).unwrap().edges.len(), 1);
    }

    #[test]
    fn structure_errors() {
        assert_eq!(
            error("GCF profile=graph\n@0 fn a 0.90 p\n"),
            ("GCF_INVALID_LINE".into(), 2, 1)
        );
        assert_eq!(
            error("GCF profile=graph\n## widgets\n@0 fn a 0.90 p\n"),
            ("GCF_INVALID_LINE".into(), 3, 1)
        );
        assert_eq!(
            error("GCF profile=graph budget=lots\n"),
            ("GCF_MALFORMED_HEADER_FIELD".into(), 1, 26)
        );
        assert_eq!(
            error("GCF profile=graph unchanged=true pack_root=x symbols=3\n## targets\n"),
            ("GCF_INVALID_LINE".into(), 2, 1)
        );
    }

    #[test]
    fn huge_ids_cost_one_entry() {
        let p = decode_graph(
            "GCF profile=graph\n## distance_7\n@4294967295 fn a 0.90 p\n\
             @18446744073709551615 fn b 0.10 p\n## edges [1]\n@4294967295<@18446744073709551615 x\n",
        )
        .unwrap();
        assert_eq!((p.symbols.len(), p.symbols[1].distance), (2, 7));
        assert_eq!(p.edges[0].source, "b");
        assert_eq!(
            error("GCF profile=graph\n## targets\n@18446744073709551616 fn a 0.90 p\n").0,
            "GCF_INVALID_SYMBOL_ID"
        );
    }

    #[test]
    fn stateless_session_references_are_skipped() {
        let text = "GCF profile=graph symbols=2 edges=2 session=true\r\n## targets\r\n\
                    @7  # previously transmitted\r\n  # note\r\n@9 iface a.I 0.50 p  \r\n\
                    ## edges [2]\r\n@7<@9 calls\r\n@9<@9 embeds\r\n";
        let p = decode_graph(text).unwrap();
        assert_eq!(p.symbols.len(), 1);
        assert_eq!(p.symbols[0].kind, "interface");
        assert_eq!(p.edges.len(), 1);
        assert_eq!(p.edges[0].edge_type, "embeds");
    }

    #[test]
    fn mangled_input_is_an_error_not_a_panic() {
        let samples = [
            "GCF profile=graph tool=t symbols=3 edges=2 session=true\n## targets\n\
             @0  # previously transmitted\n@1 fn a.B 0.90 lsp\n## distance_4\n@2 type c 1.00 x\n\
             ## edges [?]\n@1<@2 calls added\n@0<@1 refs\n##! summary symbols=3 edges=2 counts=1,1,2\n",
            "GCF profile=graph delta=true base_root=a new_root=b tokens=3 savings=5%\n## removed [1]\n\
             fn a.B\n## added\n@0 fn a.C 0.50 p 2\n## edges_removed\na.B -> a.C calls\n\
             ## edges_added\na.C -> a.C calls\n",
        ];
        let mut session = GraphSessionDecoder::new();
        for sample in samples {
            for cut in (0..=sample.len()).filter(|&cut| sample.is_char_boundary(cut)) {
                let _ = crate::gcf::v3::decode(&sample.as_bytes()[..cut], &Default::default());
                let _ = session.decode(&sample[..cut]);
            }
            for at in 0..sample.len() {
                for byte in [
                    b' ', b'@', b'<', b'#', b'\n', b'\r', b'[', b'?', b'9', b'-', 0xFF,
                ] {
                    let mut bytes = sample.as_bytes().to_vec();
                    bytes[at] = byte;
                    let _ = crate::gcf::v3::decode(&bytes, &Default::default());
                    if let Ok(text) = core::str::from_utf8(&bytes) {
                        let _ = session.decode(text);
                    }
                }
            }
        }
    }

    #[test]
    fn view_reads_what_decode_graph_reads() {
        let sample = "GCF profile=graph tool=t symbols=4 edges=3 session=true\n## targets\n\
                      @0  # previously transmitted\n@1 fn a.B 0.90 lsp\n## distance_4\n\
                      @2 type c 1.00 x\n@7 iface d -0.25 y\n## edges [3]\n@1<@2 calls added\n\
                      @0<@1 refs\n@7<@1 embeds\n";
        let same = |text: &str| {
            let view = decode_view(text).map(|v| v.to_payload());
            let owned = decode_graph(text);
            match (view, owned) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{text:?}"),
                (Err(a), Err(b)) => assert_eq!(
                    (a.code(), a.message(), a.line(), a.column()),
                    (b.code(), b.message(), b.line(), b.column()),
                    "{text:?}"
                ),
                (a, b) => panic!("{text:?}: {a:?} vs {b:?}"),
            }
        };
        same(sample);
        let view = decode_view(sample).unwrap();
        assert_eq!((view.symbols.len(), view.edges.len()), (3, 2));
        assert_eq!((view.symbols[2].id, view.symbols[2].kind), (7, "interface"));
        assert_eq!((view.edges[1].source, view.edges[1].target), (0, 2));
        for at in 0..sample.len() {
            for byte in [b' ', b'@', b'<', b'#', b'\n', b'\t', b'[', b'9', b'-', b'.'] {
                let mut bytes = sample.as_bytes().to_vec();
                bytes[at] = byte;
                let text = core::str::from_utf8(&bytes).unwrap();
                if text.starts_with("GCF profile=graph ") && !text.contains("delta=true") {
                    same(text);
                }
            }
        }
        assert_eq!(
            decode_view("GCF profile=generic\na=1\n")
                .unwrap_err()
                .code(),
            "GCF_UNKNOWN_PROFILE"
        );
    }

    #[test]
    fn session_decoder_resolves_and_is_atomic() {
        let mut session = GraphSessionDecoder::new();
        session
            .decode("GCF profile=graph session=true\n## targets\n@3 fn a 0.90 p\n")
            .unwrap();
        let bad = "GCF profile=graph session=true\n## targets\n@4 fn b 0.9 p\n";
        assert!(session.decode(bad).is_err());
        assert_eq!(session.len(), 1);
        let unknown = "GCF profile=graph session=true\n## related\n@4  # previously transmitted\n";
        assert_eq!(
            session.decode(unknown).unwrap_err().code(),
            "GCF_INVALID_SYMBOL_ID"
        );
        let p = session
            .decode("GCF profile=graph session=true\n## related\n@3  # previously transmitted\n")
            .unwrap();
        assert_eq!(
            (p.symbols[0].qualified_name.as_str(), p.symbols[0].distance),
            ("a", 1)
        );
        session
            .decode("GCF profile=graph\n## targets\n@0 fn z 0.90 p\n")
            .unwrap();
        assert!(session.is_empty());
    }
}
