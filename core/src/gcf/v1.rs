//! GCF v1.1 text, byte-identical to gcf-go v0.1.2 (`Encode`, `EncodeWithSession`,
//! `EncodeDelta`, `Decode`), with the decided policies: reference order (no sorting), a
//! negative distance is an error, and the decoder skips bare session references and the edges
//! that touch them and accepts the later `edges=N` header key and `## edges [N]` form.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use super::model::{DecodeOptions, DeltaPayload, Edge, Payload, Symbol, TextBudget};
use crate::name_index::NameIndex;
use crate::num::write_u64;
use crate::{Error, ErrorKind, Position, Result};

/// The 16 kind abbreviations: (full, short).
pub const KIND_ABBREVIATIONS: [(&str, &str); 16] = [
    ("function", "fn"),
    ("type", "type"),
    ("method", "method"),
    ("interface", "iface"),
    ("var", "var"),
    ("const", "const"),
    ("resource", "resource"),
    ("table", "table"),
    ("class", "class"),
    ("selector", "selector"),
    ("field", "field"),
    ("route_handler", "route"),
    ("external", "ext"),
    ("file", "file"),
    ("package", "pkg"),
    ("service", "svc"),
];

/// The short form of a kind (unknown kinds pass through).
pub fn abbreviate_kind(kind: &str) -> &str {
    KIND_ABBREVIATIONS
        .iter()
        .find(|(full, _)| *full == kind)
        .map_or(kind, |(_, short)| short)
}

/// The full form of an abbreviated kind (anything else passes through).
pub fn expand_kind(short: &str) -> &str {
    KIND_ABBREVIATIONS
        .iter()
        .find(|(_, s)| *s == short)
        .map_or(short, |(full, _)| full)
}

/// Go `%.Nf` of a float64 (Rust's fixed formatting is the same correctly rounded text; only
/// the non-finite spellings differ).
fn push_fixed(out: &mut String, v: f64, decimals: usize) {
    if v.is_nan() {
        out.push_str("NaN");
    } else if v.is_infinite() {
        out.push_str(if v > 0.0 { "+Inf" } else { "-Inf" });
    } else {
        let _ = write!(out, "{v:.decimals$}");
    }
}

fn group_name(out: &mut String, distance: i64) {
    match distance {
        0 => out.push_str("## targets\n"),
        1 => out.push_str("## related\n"),
        2 => out.push_str("## extended\n"),
        n => {
            let _ = writeln!(out, "## distance_{n}");
        }
    }
}

/// `@{id}`, without the formatting machinery (the encoder writes one or two per line).
fn push_ref(out: &mut String, id: usize) {
    out.push('@');
    write_u64(out, id as u64);
}

fn push_symbol(out: &mut String, id: usize, s: &Symbol) {
    push_ref(out, id);
    out.push(' ');
    out.push_str(abbreviate_kind(&s.kind));
    out.push(' ');
    out.push_str(&s.qualified_name);
    out.push(' ');
    push_fixed(out, s.score, 2);
    out.push(' ');
    out.push_str(&s.provenance);
    out.push('\n');
}

/// Qualified name → index of its last occurrence (gcf-go's map overwrite).
fn symbol_index(symbols: &[Symbol]) -> NameIndex<'_> {
    NameIndex::new(symbols.iter().map(|s| s.qualified_name.as_str()))
}

fn check_distances(symbols: &[Symbol]) -> Result<()> {
    match symbols.iter().find(|s| s.distance < 0) {
        Some(s) => Err(Error::new(
            ErrorKind::GcfNegativeDistance,
            alloc::format!(
                "gcf: symbol {:?} has negative distance {} (no group can hold it)",
                s.qualified_name,
                s.distance
            ),
        )),
        None => Ok(()),
    }
}

/// Writes header, symbol groups and edges; `known` marks symbols sent before (session).
fn encode_payload(p: &Payload, session: bool, known: impl Fn(&Symbol) -> bool) -> Result<String> {
    check_distances(&p.symbols)?;
    let mut out = String::with_capacity(64 + p.symbols.len() * 64 + p.edges.len() * 16);
    let _ = write!(
        out,
        "GCF tool={} budget={} tokens={} symbols={}",
        p.tool,
        p.token_budget,
        p.tokens_used,
        p.symbols.len()
    );
    if session {
        out.push_str(" session=true");
    }
    if !p.pack_root.is_empty() {
        let _ = write!(out, " pack_root={}", p.pack_root);
    }
    out.push('\n');
    let index = symbol_index(&p.symbols);
    // Groups are consecutive runs of equal distance, in input order (no sorting).
    let mut current: Option<i64> = None;
    for s in &p.symbols {
        if current != Some(s.distance) {
            group_name(&mut out, s.distance);
            current = Some(s.distance);
        }
        let id = index.get(&s.qualified_name).unwrap_or_default();
        if known(s) {
            let _ = writeln!(out, "@{id}  # previously transmitted");
        } else {
            push_symbol(&mut out, id, s);
        }
    }
    // The section is written whenever the input has edges, even if every one is skipped.
    if !p.edges.is_empty() {
        out.push_str("## edges\n");
        for e in &p.edges {
            let (Some(source), Some(target)) = (index.get(&e.source), index.get(&e.target)) else {
                continue;
            };
            push_ref(&mut out, target);
            out.push('<');
            push_ref(&mut out, source);
            out.push(' ');
            out.push_str(&e.edge_type);
            if !e.status.is_empty() && e.status != "unchanged" {
                out.push(' ');
                out.push_str(&e.status);
            }
            out.push('\n');
        }
    }
    Ok(out)
}

/// Encodes a payload as GCF v1.1 (gcf-go `Encode`). Fails only on a negative distance.
pub fn encode(payload: &Payload) -> Result<String> {
    encode_payload(payload, false, |_| false)
}

/// The symbols a client has received in a session, by qualified name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Session {
    transmitted: BTreeMap<String, u64>,
    next_id: u64,
}

impl Session {
    /// An empty session.
    pub fn new() -> Session {
        Session::default()
    }

    /// Whether `qualified_name` was sent in an earlier response.
    pub fn transmitted(&self, qualified_name: &str) -> bool {
        self.transmitted.contains_key(qualified_name)
    }

    /// Number of symbols the session holds.
    pub fn len(&self) -> usize {
        self.transmitted.len()
    }

    /// True when nothing has been sent yet.
    pub fn is_empty(&self) -> bool {
        self.transmitted.is_empty()
    }

    /// Forgets everything.
    pub fn reset(&mut self) {
        *self = Session::default();
    }

    fn record(&mut self, symbols: &[Symbol]) {
        for s in symbols {
            if !self.transmitted.contains_key(&s.qualified_name) {
                self.transmitted
                    .insert(s.qualified_name.clone(), self.next_id);
                self.next_id += 1;
            }
        }
    }

    /// Encodes with session deduplication (gcf-go `EncodeWithSession`): the header carries
    /// `session=true`, a symbol sent in an earlier call is written `@i  # previously
    /// transmitted`, and this call's new symbols are recorded after encoding.
    pub fn encode(&mut self, payload: &Payload) -> Result<String> {
        let out = encode_payload(payload, true, |s| self.transmitted(&s.qualified_name))?;
        self.record(&payload.symbols);
        Ok(out)
    }
}

/// Encodes a delta (gcf-go `EncodeDelta`): header with `savings=` (rounded, ties to even), then
/// `## removed`, `## added`, `## edges_removed`, `## edges_added` when non-empty.
pub fn encode_delta(delta: &DeltaPayload) -> String {
    let savings = if delta.full_tokens > 0 {
        100.0 * (1.0 - delta.delta_tokens as f64 / delta.full_tokens as f64)
    } else {
        0.0
    };
    let mut out = String::new();
    let _ = write!(
        out,
        "GCF tool={} delta=true base_root={} new_root={} tokens={} savings=",
        delta.tool, delta.base_root, delta.new_root, delta.delta_tokens
    );
    push_fixed(&mut out, savings, 0);
    out.push_str("%\n");
    if !delta.removed.is_empty() {
        out.push_str("## removed\n");
        for s in &delta.removed {
            let _ = writeln!(out, "{} {}", abbreviate_kind(&s.kind), s.qualified_name);
        }
    }
    if !delta.added.is_empty() {
        out.push_str("## added\n");
        for (i, s) in delta.added.iter().enumerate() {
            push_symbol(&mut out, i, s);
        }
    }
    for (title, edges) in [
        ("edges_removed", &delta.removed_edges),
        ("edges_added", &delta.added_edges),
    ] {
        if !edges.is_empty() {
            let _ = writeln!(out, "## {title}");
            for e in edges {
                let _ = writeln!(out, "{} -> {} {}", e.source, e.target, e.edge_type);
            }
        }
    }
    out
}

// ---- decoding -------------------------------------------------------------------------------

/// One line of the input with its place.
#[derive(Clone, Copy)]
struct Line<'a> {
    text: &'a str,
    number: u64,
    offset: u64,
}

impl Line<'_> {
    fn error(&self, kind: ErrorKind, message: String, at: &str) -> Error {
        // `at` is a sub-slice of the line (a field): point at its start.
        let column_byte = (at.as_ptr() as usize).saturating_sub(self.text.as_ptr() as usize);
        Error::at(
            kind,
            message,
            Position::in_line(self.text.as_bytes(), self.number, self.offset, column_byte),
        )
    }
}

/// Go `strconv.Atoi`: optional sign, decimal digits, 64-bit range.
fn parse_int(text: &str) -> Option<i64> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Go `strconv.ParseFloat` for the decimal forms and `inf`/`infinity`/`nan` (any case, signed).
fn parse_float(text: &str) -> Option<f64> {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let special = unsigned.eq_ignore_ascii_case("inf")
        || unsigned.eq_ignore_ascii_case("infinity")
        || unsigned.eq_ignore_ascii_case("nan");
    let decimal = !unsigned.is_empty()
        && unsigned
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
        && unsigned.bytes().any(|b| b.is_ascii_digit());
    if special || decimal {
        text.parse().ok()
    } else {
        None
    }
}

/// Decodes GCF v1.1 text (gcf-go `Decode`, plus the lenient forms above) with the default
/// limits.
pub fn decode(text: &str) -> Result<Payload> {
    decode_with(text, &DecodeOptions::default())
}

/// [`decode`] with explicit limits ([`DecodeOptions::max_payload_bytes`]).
pub fn decode_with(text: &str, options: &DecodeOptions) -> Result<Payload> {
    let mut budget = TextBudget::new(options);
    let mut lines = text.split('\n').scan(0u64, |offset, text| {
        let line = Line {
            text,
            number: 0,
            offset: *offset,
        };
        *offset += text.len() as u64 + 1;
        Some(line)
    });
    let mut number = 0u64;
    let mut next_line = || {
        number += 1;
        lines.next().map(|mut l| {
            l.number = number;
            l
        })
    };
    let header = next_line().unwrap_or(Line {
        text: "",
        number: 1,
        offset: 0,
    });
    let Some(fields) = header.text.strip_prefix("GCF ") else {
        let shown = crate::text::go_quote(header.text.as_bytes(), 40);
        return Err(header.error(
            ErrorKind::GcfBadHeader,
            alloc::format!("gcf: invalid header, expected 'GCF ...' got {shown}"),
            header.text,
        ));
    };
    let mut payload = Payload::default();
    for token in fields.split(char::is_whitespace).filter(|t| !t.is_empty()) {
        let Some((key, value)) = token.split_once('=') else {
            continue;
        };
        match key {
            "tool" => payload.tool = value.into(),
            "pack_root" => payload.pack_root = value.into(),
            "budget" | "tokens" => {
                let n = parse_int(value).ok_or_else(|| {
                    header.error(
                        ErrorKind::GcfBadHeaderValue,
                        alloc::format!("gcf: invalid {key} {value:?}: not an integer"),
                        token,
                    )
                })?;
                if key == "budget" {
                    payload.token_budget = n;
                } else {
                    payload.tokens_used = n;
                }
            }
            // symbols=, session=, edges= (v1.2) and unknown keys are informational.
            _ => {}
        }
    }
    if payload.tool.is_empty() {
        return Err(header.error(
            ErrorKind::GcfMissingTool,
            "gcf: header missing required 'tool' field".into(),
            header.text,
        ));
    }
    budget
        .spend(payload.tool.len())
        .map_err(|m| header.error(ErrorKind::GcfPayloadTooLarge, m, header.text))?;

    let mut names: BTreeMap<i64, String> = BTreeMap::new();
    let mut bare: BTreeSet<i64> = BTreeSet::new();
    let mut distance = 0i64;
    let mut in_edges = false;
    while let Some(line) = next_line() {
        let text = line.text.trim_end_matches('\r');
        if text.is_empty() {
            continue;
        }
        let line = Line { text, ..line };
        if let Some(group) = text.strip_prefix("## ") {
            // `## edges [N]` is the v1.2 form of `## edges`.
            in_edges = group == "edges"
                || group
                    .strip_prefix("edges [")
                    .is_some_and(|r| r.ends_with(']'));
            match group {
                "targets" => distance = 0,
                "related" => distance = 1,
                "extended" => distance = 2,
                _ => {
                    if let Some(n) = group.strip_prefix("distance_").and_then(parse_int) {
                        distance = n;
                    }
                }
            }
            continue;
        }
        if text.starts_with("# ") {
            continue;
        }
        let too_large = |m| line.error(ErrorKind::GcfPayloadTooLarge, m, line.text);
        if in_edges {
            if let Some(edge) = decode_edge(&line, &names, &bare, &mut budget)? {
                payload.edges.push(edge);
            }
        } else {
            let count = payload.symbols.len();
            decode_symbol(&line, distance, &mut payload.symbols, &mut names, &mut bare)?;
            if let Some(symbol) = payload.symbols.get(count) {
                budget
                    .spend(symbol.qualified_name.len())
                    .map_err(too_large)?;
            }
        }
    }
    Ok(payload)
}

fn decode_symbol(
    line: &Line<'_>,
    distance: i64,
    symbols: &mut Vec<Symbol>,
    names: &mut BTreeMap<i64, String>,
    bare: &mut BTreeSet<i64>,
) -> Result<()> {
    let text = line.text;
    if !text.starts_with('@') {
        return Err(line.error(
            ErrorKind::GcfBadSymbolLine,
            alloc::format!("gcf: expected symbol line starting with @, got {text:?}"),
            text,
        ));
    }
    let parts: Vec<&str> = text
        .split(char::is_whitespace)
        .filter(|p| !p.is_empty())
        .collect();
    let id_text = &parts[0][1..];
    let id = || {
        parse_int(id_text).ok_or_else(|| {
            line.error(
                ErrorKind::GcfBadSymbolId,
                alloc::format!("gcf: invalid symbol id {id_text:?}"),
                parts[0],
            )
        })
    };
    // A session reference `@i  # previously transmitted`: the client already has it.
    if parts.get(1) == Some(&"#") {
        bare.insert(id()?);
        return Ok(());
    }
    if parts.len() < 5 {
        return Err(line.error(
            ErrorKind::GcfBadSymbolLine,
            alloc::format!(
                "gcf: symbol line needs at least 5 fields, got {} in {text:?}",
                parts.len()
            ),
            text,
        ));
    }
    let id = id()?;
    let score = parse_float(parts[3]).ok_or_else(|| {
        line.error(
            ErrorKind::GcfBadScore,
            alloc::format!("gcf: invalid score {:?}", parts[3]),
            parts[3],
        )
    })?;
    names.insert(id, parts[2].into());
    bare.remove(&id);
    symbols.push(Symbol {
        qualified_name: parts[2].into(),
        kind: expand_kind(parts[1]).into(),
        score,
        provenance: parts[4].into(),
        distance,
        ..Symbol::default()
    });
    Ok(())
}

/// An edge, or None when it touches a bare session reference.
fn decode_edge(
    line: &Line<'_>,
    names: &BTreeMap<i64, String>,
    bare: &BTreeSet<i64>,
    budget: &mut TextBudget,
) -> Result<Option<Edge>> {
    let parts: Vec<&str> = line
        .text
        .split(char::is_whitespace)
        .filter(|p| !p.is_empty())
        .collect();
    let bad = |message: String, at: &str| line.error(ErrorKind::GcfBadEdgeLine, message, at);
    if parts.len() < 2 {
        return Err(bad(
            alloc::format!(
                "gcf: edge line needs at least 2 fields, got {:?}",
                line.text
            ),
            line.text,
        ));
    }
    let reference = parts[0];
    let lt = reference.find('<').ok_or_else(|| {
        bad(
            alloc::format!("gcf: edge line missing '<' separator in {reference:?}"),
            reference,
        )
    })?;
    // `@t<@s`: the characters before t and s are not checked (as in gcf-go).
    let (target_text, source_text) = match (reference.get(1..lt), reference.get(lt + 2..)) {
        (Some(t), Some(s)) if lt >= 1 => (t, s),
        _ => {
            return Err(bad(
                alloc::format!("gcf: malformed edge reference {reference:?}"),
                reference,
            ))
        }
    };
    let target = parse_int(target_text).ok_or_else(|| {
        bad(
            alloc::format!("gcf: invalid target id {target_text:?}"),
            reference,
        )
    })?;
    let source = parse_int(source_text).ok_or_else(|| {
        bad(
            alloc::format!("gcf: invalid source id {source_text:?}"),
            reference,
        )
    })?;
    match (names.get(&target), names.get(&source)) {
        (Some(target), Some(source)) => {
            // Checked before the names are copied.
            budget
                .spend(source.len() + target.len())
                .map_err(|m| line.error(ErrorKind::GcfPayloadTooLarge, m, line.text))?;
            Ok(Some(Edge {
                source: source.clone(),
                target: target.clone(),
                edge_type: parts[1].into(),
                status: parts.get(2).map_or_else(String::new, |s| String::from(*s)),
            }))
        }
        _ if bare.contains(&target) || bare.contains(&source) => Ok(None),
        _ => Err(line.error(
            ErrorKind::GcfUnknownEdgeRef,
            alloc::format!(
                "gcf: edge references unknown symbol id(s): target={target} source={source}"
            ),
            reference,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    use crate::gcf::model::test_symbol as sym;

    #[test]
    fn encodes_like_gcf_go() {
        let p = Payload {
            tool: "t".into(),
            token_budget: 10,
            tokens_used: 3,
            symbols: vec![
                sym("a", "function", 0.125, 0),
                sym("b", "env_var", 2.675, 3),
                sym("c", "interface", -0.001, 0),
            ],
            edges: vec![
                Edge {
                    source: "b".into(),
                    target: "a".into(),
                    edge_type: "calls".into(),
                    status: "added".into(),
                },
                Edge {
                    source: "x".into(),
                    target: "a".into(),
                    edge_type: "calls".into(),
                    status: String::new(),
                },
            ],
            ..Payload::default()
        };
        assert_eq!(
            encode(&p).unwrap(),
            "GCF tool=t budget=10 tokens=3 symbols=3\n## targets\n@0 fn a 0.12 lsp\n## distance_3\n@1 env_var b 2.67 lsp\n## targets\n@2 iface c -0.00 lsp\n## edges\n@0<@1 calls added\n"
        );
        let negative = Payload {
            symbols: vec![sym("a", "fn", 0.1, -1)],
            ..Payload::default()
        };
        assert_eq!(
            encode(&negative).unwrap_err().code(),
            "GCF_NEGATIVE_DISTANCE"
        );
    }

    #[test]
    fn session_refs_decode_as_skipped() {
        let mut session = Session::new();
        let first = Payload {
            tool: "t".into(),
            symbols: vec![sym("a", "function", 0.9, 0)],
            ..Payload::default()
        };
        session.encode(&first).unwrap();
        let second = Payload {
            tool: "t".into(),
            symbols: vec![sym("a", "function", 0.9, 0), sym("b", "function", 0.5, 1)],
            edges: vec![Edge {
                source: "b".into(),
                target: "a".into(),
                edge_type: "calls".into(),
                status: String::new(),
            }],
            ..Payload::default()
        };
        let out = session.encode(&second).unwrap();
        assert_eq!(
            out,
            "GCF tool=t budget=0 tokens=0 symbols=2 session=true\n## targets\n@0  # previously transmitted\n## related\n@1 fn b 0.50 lsp\n## edges\n@0<@1 calls\n"
        );
        let back = decode(&out).unwrap();
        assert_eq!(back.symbols.len(), 1);
        assert!(back.edges.is_empty());
        assert_eq!(session.len(), 2);
    }

    #[test]
    fn lenient_v12_forms_and_errors_with_lines() {
        let p = decode("GCF tool=t edges=1 symbols=2\n## targets\n@0 fn a 0.9 x\n@1 fn b 0.8 x\n## edges [1]\n@0<@1 calls\n").unwrap();
        assert_eq!(p.edges.len(), 1);
        let e = decode("GCF tool=t\n## targets\n@0 fn a zero x\n").unwrap_err();
        assert_eq!(
            (e.code(), e.line(), e.column()),
            ("GCF_BAD_SCORE", Some(3), Some(9))
        );
        let e = decode("GCF tool=t\n## edges\n@0<\n").unwrap_err();
        assert_eq!(e.code(), "GCF_BAD_EDGE_LINE");
        assert_eq!(decode("").unwrap_err().code(), "GCF_BAD_HEADER");
    }

    #[test]
    fn delta_savings_round_half_even() {
        let d = DeltaPayload {
            tool: "t".into(),
            delta_tokens: 5,
            full_tokens: 8,
            ..DeltaPayload::default()
        };
        assert_eq!(
            encode_delta(&d),
            "GCF tool=t delta=true base_root= new_root= tokens=5 savings=38%\n"
        );
    }
}
