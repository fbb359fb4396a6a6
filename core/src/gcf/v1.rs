//! GCF v1.1 text, byte-identical to gcf-go v0.1.2 (`Encode`, `EncodeWithSession`,
//! `EncodeDelta`, `Decode`), with the decided policies: reference order (no sorting), a
//! negative distance is an error, and the decoder skips bare session references and the edges
//! that touch them and accepts the later `edges=N` header key and `## edges [N]` form.
//!
//! ```
//! use agentwire::gcf::v1::{self, Session};
//! let text = "GCF tool=t budget=0 tokens=0 symbols=2\n## targets\n@0 fn a.A 0.90 lsp\n\
//!             @1 fn a.B 0.80 lsp\n## edges\n@0<@1 calls\n";
//! let payload = v1::decode(text, &Default::default())?.into_payload();
//! assert_eq!(payload.edges[0].source, "a.B");
//! assert_eq!(v1::encode(&payload)?, text);
//! // A session sends each symbol once; later payloads refer back to it.
//! let mut session = Session::new();
//! let first = session.encode(&payload)?;
//! assert_ne!(session.encode(&payload)?, first);
//! # Ok::<(), agentwire::Error>(())
//! ```

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use super::borrowed::{BorrowedEdge, BorrowedPayload, BorrowedSymbol};
use super::model::{Components, DecodeOptions, DeltaPayload, Payload, Symbol, TextBudget};
use crate::name_index::NameIndex;
use crate::num::write_u64;
use crate::text::quote;
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
///
/// ```
/// use agentwire::gcf::v1::{abbreviate_kind, KIND_ABBREVIATIONS};
/// assert_eq!(abbreviate_kind("interface"), "iface");
/// assert_eq!(abbreviate_kind("macro"), "macro"); // unknown kinds pass through
/// assert!(KIND_ABBREVIATIONS.iter().all(|(full, short)| abbreviate_kind(full) == *short));
/// ```
pub fn abbreviate_kind(kind: &str) -> &str {
    // KIND_ABBREVIATIONS as a match (the table is the documented form).
    match kind {
        "function" => "fn",
        "interface" => "iface",
        "route_handler" => "route",
        "external" => "ext",
        "package" => "pkg",
        "service" => "svc",
        other => other,
    }
}

/// The full form of an abbreviated kind (anything else passes through).
///
/// ```
/// use agentwire::gcf::v1::{abbreviate_kind, expand_kind};
/// assert_eq!(expand_kind("svc"), "service");
/// assert_eq!(expand_kind(abbreviate_kind("route_handler")), "route_handler");
/// assert_eq!(expand_kind("macro"), "macro");
/// ```
pub fn expand_kind(short: &str) -> &str {
    match short {
        "fn" => "function",
        "iface" => "interface",
        "route" => "route_handler",
        "ext" => "external",
        "pkg" => "package",
        "svc" => "service",
        other => other,
    }
}

/// Go `%.Nf` of a float64 (Rust's fixed formatting is the same correctly rounded text; only
/// the non-finite spellings differ).
fn push_fixed(out: &mut String, v: f64, decimals: usize) {
    if decimals == 2 && push_fixed2(out, v) {
        return;
    }
    if v.is_nan() {
        out.push_str("NaN");
    } else if v.is_infinite() {
        out.push_str(if v > 0.0 { "+Inf" } else { "-Inf" });
    } else {
        let _ = write!(out, "{v:.decimals$}");
    }
}

/// `%.2f` of a finite `v` below 2^52 in magnitude, by exact integer arithmetic: `v = m·2^e`,
/// so `100·v` splits exactly into an integer part and a remainder compared with one half
/// (ties to even, as the exact formatting does). False (nothing written) for other values.
fn push_fixed2(out: &mut String, v: f64) -> bool {
    let bits = v.to_bits();
    let exponent_bits = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    let (mantissa, exponent) = match exponent_bits {
        0 => (fraction, -1074),
        0x7ff => return false,
        _ => (fraction | 1 << 52, exponent_bits - 1075),
    };
    if exponent >= 0 {
        return false;
    }
    let cents = if exponent < -71 {
        // 100·v < 100·2^53·2^-72 < 1/2: rounds to zero, never a tie.
        0
    } else {
        let shift = (-exponent) as u32;
        let scaled = u128::from(mantissa) * 100;
        let whole = (scaled >> shift) as u64;
        let rest = scaled & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        if rest > half || (rest == half && whole % 2 == 1) {
            whole + 1
        } else {
            whole
        }
    };
    if bits >> 63 == 1 {
        out.push('-');
    }
    write_u64(out, cents / 100);
    let fraction = (cents % 100) as u8;
    out.push('.');
    out.push(char::from(b'0' + fraction / 10));
    out.push(char::from(b'0' + fraction % 10));
    true
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
                "gcf: symbol {} has negative distance {} (no group can hold it)",
                quote(&s.qualified_name),
                s.distance
            ),
        )),
        None => Ok(()),
    }
}

/// Writes header, symbol groups and edges; `known` marks symbols sent before (session).
fn encode_payload(p: &Payload, session: bool, known: impl Fn(&Symbol) -> bool) -> Result<String> {
    check_distances(&p.symbols)?;
    // The exact size but for the numbers: one allocation, no regrowth.
    let symbol_bytes: usize = p
        .symbols
        .iter()
        .map(|s| s.qualified_name.len() + s.provenance.len() + s.kind.len() + 24)
        .sum();
    let edge_bytes: usize = p
        .edges
        .iter()
        .map(|e| e.edge_type.len() + e.status.len() + 24)
        .sum();
    let mut out =
        String::with_capacity(128 + p.tool.len() + p.pack_root.len() + symbol_bytes + edge_bytes);
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
    let duplicates = index.has_duplicates();
    // Groups are consecutive runs of equal distance, in input order (no sorting).
    let mut current: Option<i64> = None;
    for (i, s) in p.symbols.iter().enumerate() {
        if current != Some(s.distance) {
            group_name(&mut out, s.distance);
            current = Some(s.distance);
        }
        // A symbol's id is the position of the last symbol with its name.
        let id = if duplicates {
            index.get(&s.qualified_name).unwrap_or_default()
        } else {
            i
        };
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
///
/// ```
/// use agentwire::gcf::{v1, Payload, Symbol};
/// let mut payload = Payload { tool: "t".into(), pack_root: "abc".into(), ..Payload::default() };
/// payload.symbols.push(Symbol {
///     qualified_name: "m.F".into(),
///     kind: "function".into(),
///     score: 0.125,
///     provenance: "lsp".into(),
///     ..Symbol::default()
/// });
/// assert_eq!(
///     v1::encode(&payload)?,
///     "GCF tool=t budget=0 tokens=0 symbols=1 pack_root=abc\n## targets\n@0 fn m.F 0.12 lsp\n"
/// );
/// payload.symbols[0].distance = -1;
/// assert_eq!(v1::encode(&payload).unwrap_err().code(), "GCF_NEGATIVE_DISTANCE");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode(payload: &Payload) -> Result<String> {
    encode_payload(payload, false, |_| false)
}

/// The symbols a client has received in a session, by qualified name.
///
/// ```
/// use agentwire::gcf::v1::{self, Session};
/// let text = "GCF tool=t budget=0 tokens=0 symbols=2\n## targets\n@0 type a.T 1.00 lsp\n\
///             @1 type a.U 1.00 lsp\n";
/// let mut payload = v1::decode(text, &Default::default())?.into_payload();
/// let u = payload.symbols.pop().unwrap();
/// let mut session = Session::new();
/// session.encode(&payload)?; // sends a.T
/// payload.symbols.push(u);
/// let second = session.encode(&payload)?; // a.T by reference, a.U in full
/// assert!(second.ends_with("\n@0  # previously transmitted\n@1 type a.U 1.00 lsp\n"));
/// assert_eq!(session.len(), 2);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Session {
    transmitted: BTreeMap<String, u64>,
    next_id: u64,
}

impl Session {
    /// An empty session.
    ///
    /// ```
    /// use agentwire::gcf::v1::Session;
    /// let session = Session::new();
    /// assert!(session.is_empty());
    /// assert_eq!(session, Session::default());
    /// ```
    pub fn new() -> Session {
        Session::default()
    }

    /// Whether `qualified_name` was sent in an earlier response.
    ///
    /// ```
    /// use agentwire::gcf::v1::Session;
    /// use agentwire::gcf::{Payload, Symbol};
    /// let mut session = Session::new();
    /// let payload = Payload {
    ///     symbols: vec![Symbol { qualified_name: "a.F".into(), ..Symbol::default() }],
    ///     ..Payload::default()
    /// };
    /// assert!(!session.transmitted("a.F"));
    /// session.encode(&payload)?;
    /// assert!(session.transmitted("a.F"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn transmitted(&self, qualified_name: &str) -> bool {
        self.transmitted.contains_key(qualified_name)
    }

    /// Number of symbols the session holds.
    ///
    /// ```
    /// use agentwire::gcf::v1::{self, Session};
    /// let text = "GCF tool=t budget=0 tokens=0 symbols=2\n## targets\n@0 fn a 0.50 lsp\n\
    ///             @1 fn b 0.50 lsp\n";
    /// let payload = v1::decode(text, &Default::default())?.into_payload();
    /// let mut session = Session::new();
    /// session.encode(&payload)?;
    /// session.encode(&payload)?;
    /// assert_eq!(session.len(), 2); // each name once
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.transmitted.len()
    }

    /// True when nothing has been sent yet.
    ///
    /// ```
    /// use agentwire::gcf::v1::Session;
    /// use agentwire::gcf::{Payload, Symbol};
    /// let mut session = Session::new();
    /// assert!(session.is_empty());
    /// session.encode(&Payload { symbols: vec![Symbol::default()], ..Payload::default() })?;
    /// assert!(!session.is_empty());
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.transmitted.is_empty()
    }

    /// Forgets everything.
    ///
    /// ```
    /// use agentwire::gcf::v1::Session;
    /// use agentwire::gcf::{Payload, Symbol};
    /// let payload = Payload {
    ///     symbols: vec![Symbol { qualified_name: "a".into(), ..Symbol::default() }],
    ///     ..Payload::default()
    /// };
    /// let mut session = Session::new();
    /// let first = session.encode(&payload)?;
    /// session.reset(); // e.g. the client reconnected
    /// assert!(!session.transmitted("a"));
    /// assert_eq!(session.encode(&payload)?, first);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
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
    ///
    /// ```
    /// use agentwire::gcf::v1::{self, Session};
    /// let text = "GCF tool=t budget=0 tokens=0 symbols=1\n## targets\n@0 fn a.F 0.50 lsp\n";
    /// let payload = v1::decode(text, &Default::default())?.into_payload();
    /// let mut session = Session::new();
    /// let head = "GCF tool=t budget=0 tokens=0 symbols=1 session=true\n## targets\n";
    /// assert_eq!(session.encode(&payload)?, format!("{head}@0 fn a.F 0.50 lsp\n"));
    /// assert_eq!(session.encode(&payload)?, format!("{head}@0  # previously transmitted\n"));
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn encode(&mut self, payload: &Payload) -> Result<String> {
        let out = encode_payload(payload, true, |s| self.transmitted(&s.qualified_name))?;
        self.record(&payload.symbols);
        Ok(out)
    }
}

/// Encodes a delta (gcf-go `EncodeDelta`): header with `savings=` (rounded, ties to even), then
/// `## removed`, `## added`, `## edges_removed`, `## edges_added` when non-empty.
///
/// ```
/// use agentwire::gcf::{v1, DeltaPayload, Edge};
/// let edge = Edge {
///     source: "a.G".into(),
///     target: "a.F".into(),
///     edge_type: "calls".into(),
///     status: String::new(),
/// };
/// let delta = DeltaPayload {
///     tool: "ctx".into(),
///     base_root: "r1".into(),
///     new_root: "r2".into(),
///     added_edges: vec![edge],
///     delta_tokens: 5,
///     full_tokens: 40,
///     ..DeltaPayload::default()
/// };
/// assert_eq!(
///     v1::encode_delta(&delta),
///     "GCF tool=ctx delta=true base_root=r1 new_root=r2 tokens=5 savings=88%\n## edges_added\n\
///      a.G -> a.F calls\n"
/// );
/// ```
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

/// The fields of a line: `text.split(char::is_whitespace).filter(|p| !p.is_empty())`, with
/// ASCII bytes classified without decoding characters.
#[derive(Clone)]
struct Fields<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Fields<'a> {
    fn new(text: &'a str) -> Fields<'a> {
        Fields { text, at: 0 }
    }

    /// From byte `at` (a character boundary), the first byte where the character's
    /// whitespace-ness is `whitespace`, or the end.
    fn run_end(&self, mut at: usize, whitespace: bool) -> usize {
        let bytes = self.text.as_bytes();
        while let Some(&b) = bytes.get(at) {
            if b < 0x80 {
                if (b == b' ' || (b'\t'..=b'\r').contains(&b)) != whitespace {
                    return at;
                }
                at += 1;
            } else {
                // `at` is a character boundary: it only ever advances by whole characters.
                let c = self.text[at..].chars().next().unwrap_or(' ');
                if c.is_whitespace() != whitespace {
                    return at;
                }
                at += c.len_utf8();
            }
        }
        at
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let start = self.run_end(self.at, true);
        if start == self.text.len() {
            self.at = start;
            return None;
        }
        let end = self.run_end(start, false);
        self.at = end;
        self.text.get(start..end)
    }
}

/// Go `strconv.Atoi`: optional sign, decimal digits, 64-bit range.
fn parse_int(text: &str) -> Option<i64> {
    let bytes = text.as_bytes();
    let (negative, digits) = match bytes.first() {
        Some(b'-') => (true, &bytes[1..]),
        Some(b'+') => (false, &bytes[1..]),
        _ => (false, bytes),
    };
    if digits.is_empty() {
        return None;
    }
    let mut value: i64 = 0;
    for &b in digits {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        // Accumulated with the sign so that i64::MIN parses.
        value = value.checked_mul(10)?;
        value = if negative {
            value.checked_sub(i64::from(digit))?
        } else {
            value.checked_add(i64::from(digit))?
        };
    }
    Some(value)
}

/// Powers of ten a double holds exactly.
const EXACT_POWERS_OF_TEN: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// `[+-]digits[.digits]` with at most 15 digits: the digits as an integer and the count after
/// the point. Anything else is `None` (left to the general parser).
fn plain_decimal(text: &[u8]) -> Option<(bool, u64, usize)> {
    let (negative, rest) = match text.first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let mut mantissa = 0u64;
    let mut digits = 0usize;
    let mut fraction_digits = None;
    for (i, &b) in rest.iter().enumerate() {
        match b {
            b'0'..=b'9' => {
                mantissa = mantissa * 10 + u64::from(b - b'0');
                digits += 1;
                if digits > 15 {
                    return None;
                }
            }
            // One point, with digits on both sides.
            b'.' if fraction_digits.is_none() && i > 0 && i + 1 < rest.len() => {
                fraction_digits = Some(rest.len() - i - 1);
            }
            _ => return None,
        }
    }
    (digits > 0).then_some((negative, mantissa, fraction_digits.unwrap_or(0)))
}

/// Go `strconv.ParseFloat` for the decimal forms and `inf`/`infinity`/`nan` (any case, signed).
fn parse_float(text: &str) -> Option<f64> {
    // Scores are short decimals: an integer of at most 15 digits (exact in a double) divided
    // by an exact power of ten is the correctly rounded value (one IEEE division).
    if let Some((negative, mantissa, fraction_digits)) = plain_decimal(text.as_bytes()) {
        let magnitude = mantissa as f64 / EXACT_POWERS_OF_TEN[fraction_digits];
        return Some(if negative { -magnitude } else { magnitude });
    }
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

/// What a local id stands for: the index of the last symbol declared with it, and whether a
/// bare session reference named it (and no declaration came after).
#[derive(Clone, Copy, Debug)]
struct Slot {
    symbol: usize,
    bare: bool,
}

const NO_SYMBOL: usize = usize::MAX;
const EMPTY_SLOT: Slot = Slot {
    symbol: NO_SYMBOL,
    bare: false,
};

/// Local id → [`Slot`]: a dense table for the small non-negative ids encoders write (0, 1,
/// 2, …), a B-tree for the rest. The table grows only to a small multiple of the lines
/// declared so far, so hostile ids cannot make it large.
#[derive(Debug, Default)]
struct IdTable {
    dense: Vec<Slot>,
    sparse: BTreeMap<i64, Slot>,
    declared: usize,
}

impl IdTable {
    fn get(&self, id: i64) -> Slot {
        match usize::try_from(id) {
            Ok(i) if i < self.dense.len() => self.dense[i],
            _ => self.sparse.get(&id).copied().unwrap_or(EMPTY_SLOT),
        }
    }

    /// The slot of `id`, created if needed. Every id below `dense.len()` lives in `dense`.
    fn slot(&mut self, id: i64) -> &mut Slot {
        self.declared += 1;
        let Ok(i) = usize::try_from(id) else {
            return self.sparse.entry(id).or_insert(EMPTY_SLOT);
        };
        let room = self.declared.saturating_mul(2).saturating_add(64);
        if i >= self.dense.len() && i < room {
            let old = self.dense.len();
            let new = (i + 1).max(old.saturating_mul(2)).min(room);
            self.dense.resize(new, EMPTY_SLOT);
            // Ids that were sparse move into the table's new range.
            if !self.sparse.is_empty() {
                let moved: Vec<(i64, Slot)> = self
                    .sparse
                    .range(old as i64..new as i64)
                    .map(|(k, v)| (*k, *v))
                    .collect();
                for (k, v) in moved {
                    self.sparse.remove(&k);
                    self.dense[k as usize] = v;
                }
            }
        }
        match self.dense.get_mut(i) {
            Some(slot) => slot,
            None => self.sparse.entry(id).or_insert(EMPTY_SLOT),
        }
    }
}

/// Decodes GCF v1.1 text (gcf-go `Decode`, plus the lenient forms above) into a
/// [`BorrowedPayload`]: names are slices of `text`, kinds expanded, edges by symbol index.
/// Nothing is copied per symbol or per edge; [`BorrowedPayload::into_payload`] gives the owned
/// [`Payload`]. [`DecodeOptions::max_payload_bytes`] bounds the text that owned payload would
/// hold, so a payload that decodes here can always be made owned within the limit.
///
/// ```
/// use agentwire::gcf::{self, DecodeOptions};
/// let text = "GCF tool=t budget=0 tokens=0 symbols=2\n## targets\n@0 fn a 0.90 lsp\n@1 fn b 0.50 lsp\n## edges\n@0<@1 calls\n";
/// let payload = gcf::v1::decode(text, &DecodeOptions::default())?;
/// assert_eq!((payload.symbols[0].kind.as_ref(), payload.symbols[0].score), ("function", 0.9));
/// let edge = &payload.edges[0];
/// assert_eq!((edge.source, edge.target, edge.edge_type.as_ref()), (1, 0, "calls"));
/// // The owned form names each edge's endpoints.
/// let owned = payload.into_payload();
/// assert_eq!((owned.edges[0].source.as_str(), owned.edges[0].target.as_str()), ("b", "a"));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn decode<'a>(text: &'a str, options: &DecodeOptions) -> Result<BorrowedPayload<'a>> {
    decode_lines(text, &mut TextBudget::new(options))
}

/// The first byte at or after `i` that is a space, a control character or not ASCII, or
/// `bytes.len()`. Eight bytes at a time: in `w - 0x21…21 | w`, the lowest byte with its top
/// bit set is exactly the first such byte (a borrow only comes from a lower such byte).
fn next_special(bytes: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let marks = (w.wrapping_sub(0x2121_2121_2121_2121) | w) & 0x8080_8080_8080_8080;
        if marks != 0 {
            return i + (marks.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&b) = bytes.get(i) {
        if b <= b' ' || b >= 0x80 {
            return i;
        }
        i += 1;
    }
    i
}

/// The first fields of a line (at most [`MAX_FIELDS`] kept) and how many it has.
struct LineFields<'a> {
    fields: [&'a str; MAX_FIELDS],
    count: usize,
}

/// A symbol line has five fields (more are ignored), an edge line two or three.
const MAX_FIELDS: usize = 5;

impl<'a> LineFields<'a> {
    fn split(&mut self, text: &'a str) {
        self.count = 0;
        for field in Fields::new(text) {
            if let Some(slot) = self.fields.get_mut(self.count) {
                *slot = field;
            }
            self.count += 1;
        }
    }

    fn get(&self, i: usize) -> Option<&'a str> {
        (i < self.count)
            .then(|| self.fields.get(i).copied())
            .flatten()
    }
}

/// Splits the line starting at `start` into `fields` when it is plain (printable ASCII
/// fields separated by spaces, ended by LF or the end of the text, not starting with `#`) and
/// returns its end. Any other line (CR, tabs, non-ASCII, group headers, comments, blanks of
/// spaces) is `None` and takes the general path.
fn split_plain_line<'a>(text: &'a str, start: usize, fields: &mut LineFields<'a>) -> Option<usize> {
    let bytes = text.as_bytes();
    if bytes.get(start) == Some(&b'#') {
        return None;
    }
    fields.count = 0;
    let mut i = start;
    loop {
        match bytes.get(i) {
            None | Some(b'\n') if fields.count == 0 && i > start => return None,
            None | Some(b'\n') => return Some(i),
            Some(b' ') => i += 1,
            Some(&b) if !(b' '..0x80).contains(&b) => return None,
            Some(_) => {
                let end = next_special(bytes, i);
                if let Some(slot) = fields.fields.get_mut(fields.count) {
                    // Both ends are next to ASCII bytes, so on character boundaries.
                    *slot = text.get(i..end)?;
                }
                fields.count += 1;
                i = end;
            }
        }
    }
}

/// Most symbols or edges reserved up front from the text's size.
const RESERVE_LIMIT: usize = 1 << 12;

/// The decoder: `budget` counts the text the owned payload would hold, so that the owned
/// decode fails at the line that crosses its limit.
fn decode_lines<'a>(text: &'a str, budget: &mut TextBudget) -> Result<BorrowedPayload<'a>> {
    let bytes = text.as_bytes();
    let header_end = memchr::memchr(b'\n', bytes).unwrap_or(bytes.len());
    let header = Line {
        text: text.get(..header_end).unwrap_or_default(),
        number: 1,
        offset: 0,
    };
    let Some(fields) = header.text.strip_prefix("GCF ") else {
        let shown = crate::text::go_quote(header.text.as_bytes(), 40);
        return Err(header.error(
            ErrorKind::GcfMissingHeader,
            alloc::format!("gcf: invalid header, expected 'GCF ...' got {shown}"),
            header.text,
        ));
    };
    let mut payload = BorrowedPayload::default();
    let mut tool = "";
    let mut symbols_hint = 0;
    for token in Fields::new(fields) {
        let Some((key, value)) = token.split_once('=') else {
            continue;
        };
        match key {
            "tool" => tool = value,
            "pack_root" => payload.pack_root = Cow::Borrowed(value),
            "budget" | "tokens" => {
                let n = parse_int(value).ok_or_else(|| {
                    header.error(
                        ErrorKind::GcfInvalidHeaderValue,
                        alloc::format!(
                            "gcf: invalid {key} {value}: not an integer",
                            value = quote(value)
                        ),
                        token,
                    )
                })?;
                if key == "budget" {
                    payload.token_budget = n;
                } else {
                    payload.tokens_used = n;
                }
            }
            // A capacity hint only; like edges=, session= and unknown keys, not checked.
            "symbols" => symbols_hint = parse_int(value).unwrap_or(0).max(0) as usize,
            _ => {}
        }
    }
    if tool.is_empty() {
        return Err(header.error(
            ErrorKind::GcfMissingTool,
            "gcf: header missing required 'tool' field".into(),
            header.text,
        ));
    }
    payload.tool = Cow::Borrowed(tool);
    budget
        .spend(tool.len())
        .map_err(|m| header.error(ErrorKind::GcfPayloadTooLarge, m, header.text))?;
    // Room for what the text can hold (a symbol line takes at least 11 bytes, an edge line
    // 8), guided by the header's symbols= count: never more than the lines, the edges only
    // in the bytes the symbols leave, and at most RESERVE_LIMIT of each (past that the
    // vectors grow with what the text really holds).
    let lines = memchr::memchr_iter(b'\n', bytes).count();
    let symbols = symbols_hint.min(lines).min(bytes.len() / 11);
    payload.symbols.reserve(symbols.min(RESERVE_LIMIT));
    let edge_bytes = bytes.len().saturating_sub(symbols * 11);
    payload
        .edges
        .reserve((lines - symbols).min(edge_bytes / 8).min(RESERVE_LIMIT));

    let mut ids = IdTable::default();
    let mut distance = 0i64;
    let mut in_edges = false;
    let mut number = 1u64;
    let mut start = header_end + 1;
    let mut fields = LineFields {
        fields: [""; MAX_FIELDS],
        count: 0,
    };
    while start <= bytes.len() {
        number += 1;
        let line = match split_plain_line(text, start, &mut fields) {
            Some(end) => {
                let line = Line {
                    text: text.get(start..end).unwrap_or_default(),
                    number,
                    offset: start as u64,
                };
                start = end + 1;
                if fields.count == 0 {
                    continue;
                }
                line
            }
            None => {
                let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
                let line = Line {
                    text: text
                        .get(start..end)
                        .unwrap_or_default()
                        .trim_end_matches('\r'),
                    number,
                    offset: start as u64,
                };
                start = end + 1;
                let text = line.text;
                if text.is_empty() {
                    continue;
                }
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
                fields.split(text);
                line
            }
        };
        if in_edges {
            decode_edge(&line, &fields, &mut payload, &ids, budget)?;
        } else if let Some(symbol) =
            decode_symbol(&line, &fields, distance, &mut ids, &mut payload.symbols)?
        {
            budget
                .spend(symbol.qualified_name.len())
                .map_err(|m| line.error(ErrorKind::GcfPayloadTooLarge, m, line.text))?;
        }
    }
    Ok(payload)
}

/// Appends the symbol of a line and returns it, or `None` for a bare session reference
/// (recorded in `ids`).
fn decode_symbol<'a, 's>(
    line: &Line<'a>,
    fields: &LineFields<'a>,
    distance: i64,
    ids: &mut IdTable,
    symbols: &'s mut Vec<BorrowedSymbol<'a>>,
) -> Result<Option<&'s BorrowedSymbol<'a>>> {
    let text = line.text;
    // The line starts with `@` (not whitespace), so its first field does too.
    let first = match fields.get(0) {
        Some(first) if text.starts_with('@') => first,
        _ => {
            return Err(line.error(
                ErrorKind::GcfInvalidNodeLine,
                alloc::format!(
                    "gcf: expected symbol line starting with @, got {text}",
                    text = quote(text)
                ),
                text,
            ));
        }
    };
    let id_text = &first[1..];
    let id = || {
        parse_int(id_text).ok_or_else(|| {
            line.error(
                ErrorKind::GcfInvalidSymbolId,
                alloc::format!("gcf: invalid symbol id {id_text}", id_text = quote(id_text)),
                first,
            )
        })
    };
    // A session reference `@i  # previously transmitted`: the client already has it.
    if fields.get(1) == Some("#") {
        ids.slot(id()?).bare = true;
        return Ok(None);
    }
    let (Some(kind), Some(name), Some(score), Some(provenance)) =
        (fields.get(1), fields.get(2), fields.get(3), fields.get(4))
    else {
        return Err(line.error(
            ErrorKind::GcfInvalidNodeLine,
            alloc::format!(
                "gcf: symbol line needs at least 5 fields, got {} in {}",
                fields.count,
                quote(text)
            ),
            text,
        ));
    };
    let id = id()?;
    let score_value = parse_float(score).ok_or_else(|| {
        line.error(
            ErrorKind::GcfInvalidScore,
            alloc::format!("gcf: invalid score {score}", score = quote(score)),
            score,
        )
    })?;
    *ids.slot(id) = Slot {
        symbol: symbols.len(),
        bare: false,
    };
    symbols.push(BorrowedSymbol {
        qualified_name: Cow::Borrowed(name),
        kind: Cow::Borrowed(expand_kind(kind)),
        score: score_value,
        provenance: Cow::Borrowed(provenance),
        distance,
        signature: Cow::Borrowed(""),
        components: Components::default(),
    });
    Ok(symbols.last())
}

/// Appends the edge of a line, unless it touches a bare session reference.
fn decode_edge<'a>(
    line: &Line<'a>,
    fields: &LineFields<'a>,
    payload: &mut BorrowedPayload<'a>,
    ids: &IdTable,
    budget: &mut TextBudget,
) -> Result<()> {
    let symbols = &payload.symbols;
    let bad = |message: String, at: &str| line.error(ErrorKind::GcfInvalidEdgeSyntax, message, at);
    let (Some(reference), Some(edge_type)) = (fields.get(0), fields.get(1)) else {
        return Err(bad(
            alloc::format!(
                "gcf: edge line needs at least 2 fields, got {}",
                quote(line.text)
            ),
            line.text,
        ));
    };
    let status = fields.get(2).unwrap_or("");
    let lt = memchr::memchr(b'<', reference.as_bytes()).ok_or_else(|| {
        bad(
            alloc::format!(
                "gcf: edge line missing '<' separator in {reference}",
                reference = quote(reference)
            ),
            reference,
        )
    })?;
    // `@t<@s`: the characters before t and s are not checked (as in gcf-go).
    let (target_text, source_text) = match (reference.get(1..lt), reference.get(lt + 2..)) {
        (Some(t), Some(s)) if lt >= 1 => (t, s),
        _ => {
            return Err(bad(
                alloc::format!(
                    "gcf: malformed edge reference {reference}",
                    reference = quote(reference)
                ),
                reference,
            ));
        }
    };
    let target = parse_int(target_text).ok_or_else(|| {
        bad(
            alloc::format!(
                "gcf: invalid target id {target_text}",
                target_text = quote(target_text)
            ),
            reference,
        )
    })?;
    let source = parse_int(source_text).ok_or_else(|| {
        bad(
            alloc::format!(
                "gcf: invalid source id {source_text}",
                source_text = quote(source_text)
            ),
            reference,
        )
    })?;
    let (target_slot, source_slot) = (ids.get(target), ids.get(source));
    match (
        symbols.get(target_slot.symbol),
        symbols.get(source_slot.symbol),
    ) {
        (Some(target_symbol), Some(source_symbol)) => {
            // What the owned payload copies for this edge.
            budget
                .spend(source_symbol.qualified_name.len() + target_symbol.qualified_name.len())
                .map_err(|m| line.error(ErrorKind::GcfPayloadTooLarge, m, line.text))?;
            payload.edges.push(BorrowedEdge {
                source: source_slot.symbol,
                target: target_slot.symbol,
                edge_type: Cow::Borrowed(edge_type),
                status: Cow::Borrowed(status),
            });
            Ok(())
        }
        _ if target_slot.bare || source_slot.bare => Ok(()),
        _ => Err(line.error(
            ErrorKind::GcfUnknownEdgeReference,
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
    use crate::gcf::Edge;
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
        let back = decode(&out, &DecodeOptions::default())
            .unwrap()
            .into_payload();
        assert_eq!(back.symbols.len(), 1);
        assert!(back.edges.is_empty());
        assert_eq!(session.len(), 2);
    }

    #[test]
    fn lenient_v12_forms_and_errors_with_lines() {
        let p = decode("GCF tool=t edges=1 symbols=2\n## targets\n@0 fn a 0.9 x\n@1 fn b 0.8 x\n## edges [1]\n@0<@1 calls\n", &DecodeOptions::default()).unwrap().into_payload();
        assert_eq!(p.edges.len(), 1);
        let e = decode(
            "GCF tool=t\n## targets\n@0 fn a zero x\n",
            &DecodeOptions::default(),
        )
        .unwrap_err();
        assert_eq!(
            (e.code(), e.line(), e.column()),
            ("GCF_INVALID_SCORE", Some(3), Some(9))
        );
        let e = decode("GCF tool=t\n## edges\n@0<\n", &DecodeOptions::default()).unwrap_err();
        assert_eq!(e.code(), "GCF_INVALID_EDGE_SYNTAX");
        assert_eq!(
            decode("", &DecodeOptions::default()).unwrap_err().code(),
            "GCF_MISSING_HEADER"
        );
    }

    #[test]
    fn fixed2_matches_exact_formatting() {
        let check = |v: f64| {
            let mut fast = String::new();
            if push_fixed2(&mut fast, v) {
                assert_eq!(fast, alloc::format!("{v:.2}"), "{v:e}");
            }
        };
        for v in [
            0.0,
            -0.0,
            0.125,
            0.375,
            0.005,
            2.675,
            -0.001,
            0.5,
            1.0,
            0.995,
            0.985,
            1e-300,
            5e-324,
            4503599627370495.5,
            4503599627370496.0,
            1e15,
            123.456,
            -99.995,
        ] {
            check(v);
            check(-v);
        }
        // Every cent and half cent up to 1000, and neighbouring doubles.
        for i in 0..200_000u32 {
            let v = f64::from(i) / 200.0;
            for v in [
                v,
                f64::from_bits(v.to_bits() + 1),
                f64::from_bits(v.to_bits().saturating_sub(1)),
            ] {
                check(v);
                check(-v);
            }
        }
        // Pseudo-random bit patterns across the exponent range.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            check(f64::from_bits(x));
            check(f64::from_bits(x >> 2));
        }
    }

    #[test]
    fn kind_matches_agree_with_the_table() {
        for (full, short) in KIND_ABBREVIATIONS {
            assert_eq!(abbreviate_kind(full), short);
            assert_eq!(expand_kind(short), full);
        }
        for other in ["env_var", "Function", "", "fn ", "process"] {
            assert_eq!(abbreviate_kind(other), other);
            assert_eq!(expand_kind(other), other);
        }
    }

    #[test]
    fn borrowed_decode_edge_cases() {
        // Unicode whitespace and tabs split fields, CRs end lines, ids may be sparse or
        // negative, and later declarations of an id win.
        let text = "GCF tool=t\tbudget=+3\r\n## related\r\n@7\u{2003}fn a\t0.5 p\r\n\
                    @-2 fn b 1e-2 p\n@900000 iface c .5 p\n@7 pkg d 0.125 q extra\n\
                    ## edges [3]\n@7<@-2 calls added\n@900000<@7 refs\n# note\n\n";
        let p = decode(text, &DecodeOptions::default()).unwrap();
        let names: Vec<&str> = p.symbols.iter().map(|s| &*s.qualified_name).collect();
        assert_eq!(names, ["a", "b", "c", "d"]);
        assert_eq!(p.symbols[3].kind, "package");
        assert_eq!((p.symbols[0].distance, p.symbols[2].score), (1, 0.5));
        let edges: Vec<(usize, usize, &str, &str)> = p
            .edges
            .iter()
            .map(|e| (e.source, e.target, &*e.edge_type, &*e.status))
            .collect();
        assert_eq!(edges, [(1, 3, "calls", "added"), (3, 2, "refs", "")]);
        assert_eq!(p.token_budget, 3);
        assert_eq!(
            p.clone().into_payload(),
            decode(text, &DecodeOptions::default())
                .unwrap()
                .into_payload()
        );
        // A bare reference after a declaration keeps the declaration but marks the id, so an
        // edge from it to an unknown id is skipped (as before); edges touching only bare ids
        // are skipped, unknown ids are an error at the reference.
        let text = "GCF tool=t\n@0 fn a 1 p\n@0 #\n@1  # previously transmitted\n## edges\n\
                    @0<@0 x\n@1<@0 x\n@0<@2 x\n@3<@2 x\n";
        let e = decode(text, &DecodeOptions::default()).unwrap_err();
        assert_eq!(
            (e.code(), e.line(), e.column()),
            ("GCF_UNKNOWN_EDGE_REFERENCE", Some(9), Some(1))
        );
        assert_eq!(decode(text, &DecodeOptions::default()).unwrap_err(), e);
        let p = decode(&text[..text.len() - 8], &DecodeOptions::default()).unwrap();
        assert_eq!((p.symbols.len(), p.edges.len()), (1, 1));
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
