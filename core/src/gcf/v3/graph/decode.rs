//! Strict graph decoding (SPEC §4 graph body, §5, §6, §6a, §8.6, §9, §11, §13, §16.3, §16.5)
//! and the consumer side of sessions.

use alloc::collections::BTreeMap;
use alloc::string::String;

use super::super::scalar::{is_bare_key, parse_count};
use super::super::{body_lines, is_comment, DecodeOptions, Header, Line, Profile};
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
    pub session: bool,
    pub unchanged: bool,
    pub base_root: &'h str,
    pub new_root: &'h str,
    pub savings: &'h str,
}

fn parse_u64(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
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
    let mut count = 0;
    for part in text.split(' ') {
        if part.is_empty() {
            return None;
        }
        match fields.get_mut(count) {
            Some(slot) => *slot = part,
            None => return Some(count + 1),
        }
        count += 1;
    }
    Some(count)
}

/// The first ASCII control character of a field (a tab, say), which the grammar forbids.
pub(super) fn control_at(field: &str) -> Option<usize> {
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
    let (whole, fraction) = unsigned.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || fraction.len() != 2 || !digits(fraction) {
        return None;
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
    Ok((
        id,
        Symbol {
            qualified_name: (*qualified_name).into(),
            kind: expand_kind(kind).into(),
            score: score_value,
            provenance: (*provenance).into(),
            distance,
            ..Symbol::default()
        },
    ))
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
    let text = line.text.trim_end_matches([' ', '\t']);
    let unindented = text.trim_start_matches([' ', '\t']);
    (!unindented.is_empty() && !is_comment(unindented)).then_some(text)
}

// ---------------------------------------------------------------------------------------------
// The payload reader
// ---------------------------------------------------------------------------------------------

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

struct Reader<'t, 'k> {
    session: bool,
    unchanged: bool,
    /// The session's symbols by id (consumer session), if any.
    known: Option<&'k BTreeMap<u64, Symbol>>,
    payload: Payload,
    /// Id → symbol; a map, so a huge id costs one entry.
    ids: BTreeMap<u64, Slot>,
    budget: TextBudget,
    section: Section,
    open: Option<Open<'t>>,
    symbol_lines: u64,
    edge_lines: u64,
    deferred: bool,
    summary: Option<Summary<'t>>,
}

impl<'t> Reader<'t, '_> {
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
        let id_end = text.find(' ').unwrap_or(text.len());
        let (first, rest) = text.split_at(id_end);
        if first.contains('<') {
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
        let (id, symbol) = read_node(&line, &fields, distance, ErrorKind::GcfInvalidNodeLine)?;
        let bytes = symbol.qualified_name.len() + symbol.kind.len() + symbol.provenance.len();
        self.claim(&line, id)?;
        spend(&mut self.budget, &line, bytes)?;
        self.ids
            .insert(id, Slot::Declared(self.payload.symbols.len()));
        self.payload.symbols.push(symbol);
        Ok(())
    }

    /// Fails when `id` already stands for a symbol of this payload.
    fn claim(&self, line: &Line<'_>, id: u64) -> Result<()> {
        if self.ids.contains_key(&id) {
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
        self.ids
            .insert(id, Slot::Resolved(self.payload.symbols.len()));
        self.payload.symbols.push(Symbol {
            distance,
            ..symbol.clone()
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
        let first = &text[..text.find(' ').unwrap_or(text.len())];
        let Some(lt) = first.find('<') else {
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
        for field in &fields[1..] {
            if let Some(at) = control_at(field) {
                return Err(syntax(
                    offset_in(text, field) + at,
                    "a control character inside a field",
                ));
            }
        }
        let (target_text, source_text) = (&first[..lt], &first[lt + 1..]);
        if !target_text.starts_with('@') || !source_text.starts_with('@') {
            return Err(syntax(0, "both ends of `@target<@source` start with `@`"));
        }
        let target = read_id(&line, 0, target_text)?;
        let source = read_id(&line, lt + 1, source_text)?;
        let slot = |id: u64, at: usize| {
            self.ids.get(&id).copied().ok_or_else(|| {
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
        let (Some(target), Some(source)) = (
            self.payload.symbols.get(target),
            self.payload.symbols.get(source),
        ) else {
            return Ok(());
        };
        let [_, edge_type, status] = fields;
        let bytes = target.qualified_name.len() + source.qualified_name.len();
        spend(
            &mut self.budget,
            &line,
            bytes + edge_type.len() + status.len(),
        )?;
        let edge = Edge {
            source: source.qualified_name.clone(),
            target: target.qualified_name.clone(),
            edge_type: edge_type.into(),
            status: status.into(),
        };
        self.payload.edges.push(edge);
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
            if let Some((declared, at)) = declared {
                if declared != actual {
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
        }
        Ok(())
    }
}

/// Reads a non-delta graph payload; `known` resolves bare references (consumer session).
fn read_payload<'t, 'k>(
    text: &'t str,
    header: &Header<'_>,
    known: Option<&'k BTreeMap<u64, Symbol>>,
) -> Result<Reader<'t, 'k>> {
    let head = read_head(text, header)?;
    let mut budget = new_budget();
    spend(
        &mut budget,
        &header_line(text),
        head.tool.len() + head.pack_root.len(),
    )?;
    let mut reader = Reader {
        session: head.session,
        unchanged: head.unchanged,
        known,
        payload: Payload {
            tool: head.tool.into(),
            token_budget: head.budget,
            tokens_used: head.tokens,
            pack_root: head.pack_root.into(),
            symbols: alloc::vec::Vec::new(),
            edges: alloc::vec::Vec::new(),
        },
        ids: BTreeMap::new(),
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
    Ok(read_payload(text, header, None)?.payload)
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
    pub fn new() -> GraphSessionDecoder {
        GraphSessionDecoder::default()
    }

    /// Number of symbols received.
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    /// True when nothing has been received.
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// Forgets every symbol.
    pub fn reset(&mut self) {
        self.symbols.clear();
    }

    /// Decodes the next graph payload of the session, references resolved (a reference takes
    /// the distance of the group it appears in).
    pub fn decode(&mut self, text: &str) -> Result<Payload> {
        let header = Header::parse(text)?;
        if header.profile != Profile::Graph || header.get("delta") == Some("true") {
            return Err(Error::new(
                ErrorKind::GcfUnknownProfile,
                "unknown_profile: a graph session payload is a non-delta profile=graph payload",
            ));
        }
        if header.get("session") != Some("true") {
            let payload = read_payload(text, &header, None)?.payload;
            self.symbols.clear();
            return Ok(payload);
        }
        let reader = read_payload(text, &header, Some(&self.symbols))?;
        let Reader { ids, payload, .. } = reader;
        for (id, slot) in ids {
            if let Slot::Declared(index) = slot {
                if let Some(symbol) = payload.symbols.get(index) {
                    self.symbols.insert(id, symbol.clone());
                }
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
                let _ = crate::gcf::v3::decode(&sample.as_bytes()[..cut]);
                let _ = session.decode(&sample[..cut]);
            }
            for at in 0..sample.len() {
                for byte in [
                    b' ', b'@', b'<', b'#', b'\n', b'\r', b'[', b'?', b'9', b'-', 0xFF,
                ] {
                    let mut bytes = sample.as_bytes().to_vec();
                    bytes[at] = byte;
                    let _ = crate::gcf::v3::decode(&bytes);
                    if let Ok(text) = core::str::from_utf8(&bytes) {
                        let _ = session.decode(text);
                    }
                }
            }
        }
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
