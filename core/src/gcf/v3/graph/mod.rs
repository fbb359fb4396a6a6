//! The graph profile of GCF v3.5.3 (SPEC §3.2, §4–6a, §8, §9, §10): symbols grouped by
//! distance, edges by local id, sessions, deltas, the canonical pack root and streaming.
//!
//! ```
//! use agentwire::gcf::{v3, Edge, Payload, Symbol};
//! let symbol = |name: &str, score, distance| Symbol {
//!     qualified_name: name.into(),
//!     kind: "function".into(),
//!     score,
//!     provenance: "lsp".into(),
//!     distance,
//!     ..Symbol::default()
//! };
//! let payload = Payload {
//!     tool: "context_for_task".into(),
//!     symbols: vec![symbol("pkg.Server", 0.54, 1), symbol("pkg.Auth", 0.78, 0)],
//!     edges: vec![Edge {
//!         source: "pkg.Server".into(),
//!         target: "pkg.Auth".into(),
//!         edge_type: "calls".into(),
//!         status: String::new(),
//!     }],
//!     ..Payload::default()
//! };
//! let text = v3::graph::encode(&payload)?;
//! let expected = concat!(
//!     "GCF profile=graph tool=context_for_task symbols=2 edges=1\n",
//!     "## targets\n@0 fn pkg.Auth 0.78 lsp\n",
//!     "## related\n@1 fn pkg.Server 0.54 lsp\n",
//!     "## edges [1]\n@0<@1 calls\n",
//! );
//! assert_eq!(text, expected);
//! let back = v3::decode_graph(&text)?;
//! assert_eq!(back.edges[0].source, "pkg.Server");
//! # Ok::<(), agentwire::Error>(())
//! ```
//!
//! Decided policies (the SPEC leaves them open or the fixtures contradict it):
//! - The encoders write only edges whose endpoints are symbols of the payload (SPEC §16.1);
//!   other edges are left out and not counted. A qualified name held by several symbols names
//!   the last of them in output order (as the reference encoders do).
//! - Qualified names, provenances, edge types and kinds are any non-empty text without ASCII
//!   whitespace or control characters: non-ASCII text is accepted both ways, as fixture
//!   `graph-decode/004` requires, although the ABNF says printable ASCII.
//! - The decoder rejects a symbol id declared twice (`invalid_symbol_id`), data lines before
//!   the first section or under a section name it does not know (`invalid_line`), and treats
//!   the header's `symbols=`/`edges=` as informational (the SPEC's own session example does
//!   not match them); `[N]` brackets and, in streaming mode, the `##! summary` counts are
//!   validated. Graph trailer `counts=` is informational (SPEC §8.4.1) and never rejected.

use alloc::string::String;

use crate::gcf::v1::abbreviate_kind;
use crate::{Error, ErrorKind, Result};

mod decode;
mod delta;
mod encode;
mod pack_root;
mod stream;

pub(crate) use decode::decode;
pub use decode::{EdgeView, GraphSessionDecoder, GraphView, SymbolView, decode_view};
pub(crate) use delta::decode_delta;
pub use delta::{
    GraphDelta, Unchanged, apply_delta, decode_unchanged, encode_delta, encode_unchanged,
};
pub use encode::{GraphSession, encode, encode_ref};
pub use pack_root::{pack_root, pack_root_canonical};
pub use stream::{GraphStreamEncoder, StreamOptions, encode_stream};

/// Most bytes of names a decoded graph payload may hold (edges repeat their endpoints' names,
/// so a few bytes of input can stand for much more output).
const MAX_DECODED_TEXT: usize = crate::gcf::DEFAULT_MAX_PAYLOAD_BYTES;

fn invalid(message: String) -> Error {
    Error::new(ErrorKind::InvalidArgument, message)
}

/// The group header title of a distance (SPEC §6a).
fn push_group_title(out: &mut String, distance: i64) {
    match distance {
        0 => out.push_str("targets"),
        1 => out.push_str("related"),
        2 => out.push_str("extended"),
        n => {
            out.push_str("distance_");
            crate::num::write_i64(out, n);
        }
    }
}

/// A positional field must be non-empty and free of ASCII whitespace and control characters,
/// or it would split or join fields when read back.
fn check_field(what: &str, value: &str) -> Result<()> {
    // No early exit: the loop vectorizes, and fields are short.
    let bad = value
        .bytes()
        .fold(value.is_empty(), |bad, b| bad | (b <= b' ') | (b == 0x7F));
    if bad {
        return Err(field_error(what, value));
    }
    Ok(())
}

#[cold]
#[inline(never)]
fn field_error(what: &str, value: &str) -> Error {
    if value.is_empty() {
        return invalid(alloc::format!("gcf graph: {what} is empty"));
    }
    invalid(alloc::format!(
        "gcf graph: {what} {value:?} contains whitespace or a control character \
         (graph fields are space-delimited)"
    ))
}

/// A header value (`tool`, `pack_root`, roots) must be printable ASCII without spaces
/// (SPEC §4 `header-value`).
fn check_header_value(key: &str, value: &str) -> Result<()> {
    if value.is_empty() || !value.bytes().all(|b| (0x21..=0x7E).contains(&b)) {
        return Err(invalid(alloc::format!(
            "gcf graph: {key} {value:?} is not a header value (printable ASCII, no spaces)"
        )));
    }
    Ok(())
}

/// ` key=value`, validated.
fn push_header_field(out: &mut String, key: &str, value: &str) -> Result<()> {
    check_header_value(key, value)?;
    out.push(' ');
    out.push_str(key);
    out.push('=');
    out.push_str(value);
    Ok(())
}

/// ` key=value` for an integer field, only when nonzero (SPEC §3.2 canonical emission).
fn push_nonzero(out: &mut String, key: &str, value: i64) {
    if value != 0 {
        out.push(' ');
        out.push_str(key);
        out.push('=');
        crate::num::write_i64(out, value);
    }
}

/// `GCF profile=graph` and the tool when there is one.
fn start_header(tool: &str) -> Result<String> {
    let mut out = String::from("GCF profile=graph");
    if !tool.is_empty() {
        push_header_field(&mut out, "tool", tool)?;
    }
    Ok(out)
}

/// The score with exactly 2 decimals, rounding the exact double half to even (SPEC §5): what
/// `core::fmt` does for `{:.2}`.
fn push_score(out: &mut String, score: f64) -> Result<()> {
    check_score(score)?;
    write_score(out, score);
    Ok(())
}

/// A score must be finite.
fn check_score(score: f64) -> Result<()> {
    if !score.is_finite() {
        return Err(invalid(alloc::format!(
            "gcf graph: score {score} is not a finite number"
        )));
    }
    Ok(())
}

/// `{:.2}` of a finite double without `core::fmt`: the hundredths of the exact binary value,
/// rounded half to even, in integer arithmetic. Magnitudes of 2^52 and more (whose hundredths
/// do not fit 64 bits) go through `core::fmt`.
fn write_score(out: &mut String, score: f64) {
    let bits = score.to_bits();
    let exponent = ((bits >> 52) & 0x7FF) as i64;
    let fraction = bits & ((1 << 52) - 1);
    // score = ±mantissa × 2^-shift
    let (mantissa, shift) = if exponent == 0 {
        (fraction, 1074)
    } else {
        (fraction | (1 << 52), 1075 - exponent)
    };
    if shift <= 0 {
        use core::fmt::Write;
        let _ = write!(out, "{score:.2}");
        return;
    }
    // mantissa < 2^53, so scaled < 2^60.
    let scaled = mantissa * 100;
    let hundredths = if shift >= 64 {
        // scaled < 2^60 < half a unit (2^(shift-1) >= 2^63): rounds to 0.
        0
    } else {
        let quotient = scaled >> shift;
        let remainder = scaled & ((1 << shift) - 1);
        let half = 1 << (shift - 1);
        if remainder > half || (remainder == half && quotient & 1 == 1) {
            quotient + 1
        } else {
            quotient
        }
    };
    if bits >> 63 != 0 {
        out.push('-');
    }
    push_u64(out, hundredths / 100);
    out.push('.');
    out.push_str(pair(hundredths % 100));
}

/// `00` to `99`, for writing two digits at a time.
const PAIRS: &str = "00010203040506070809101112131415161718192021222324252627282930313233343536373839\
                     40414243444546474849505152535455565758596061626364656667686970717273747576777879\
                     8081828384858687888990919293949596979899";

/// Two decimal digits of `v` (below 100).
fn pair(v: u64) -> &'static str {
    let at = (v as usize % 100) * 2;
    PAIRS.get(at..at + 2).unwrap_or("00")
}

/// Appends the decimal text of `v`.
fn push_u64(out: &mut String, v: u64) {
    if v < 10 {
        out.push(char::from(b'0' + v as u8));
    } else if v < 100 {
        out.push_str(pair(v));
    } else if v < 1000 {
        out.push(char::from(b'0' + (v / 100) as u8));
        out.push_str(pair(v % 100));
    } else if v < 10_000 {
        out.push_str(pair(v / 100));
        out.push_str(pair(v % 100));
    } else {
        crate::num::write_u64(out, v);
    }
}

// The helpers below take a symbol's or an edge's fields, not the struct, so that the encoders
// of owned symbols (stream, delta) and of borrowed ones (the buffered encoder) share one copy.

/// A distance must be 0 or more (it names a group).
fn check_distance(qualified_name: &str, distance: i64) -> Result<()> {
    if distance < 0 {
        return Err(Error::new(
            ErrorKind::GcfNegativeDistance,
            alloc::format!(
                "gcf graph: symbol {qualified_name:?} has negative distance {distance} (no group can hold it)"
            ),
        ));
    }
    Ok(())
}

/// The abbreviated kind, validated: a field that cannot start a comment or section line.
fn written_kind(kind: &str) -> Result<&str> {
    let kind = abbreviate_kind(kind);
    check_field("kind", kind)?;
    if kind.starts_with('#') {
        return Err(invalid(alloc::format!(
            "gcf graph: kind {kind:?} starts with `#` (it would read as a comment)"
        )));
    }
    Ok(kind)
}

/// `kind qname score provenance` of a node line (after `@id `), validated; `kind` as the
/// symbol holds it (not abbreviated).
fn push_node_fields(
    out: &mut String,
    kind: &str,
    qualified_name: &str,
    score: f64,
    provenance: &str,
) -> Result<()> {
    let kind = written_kind(kind)?;
    check_field("qualified name", qualified_name)?;
    check_field("provenance", provenance)?;
    out.push_str(kind);
    out.push(' ');
    out.push_str(qualified_name);
    out.push(' ');
    push_score(out, score)?;
    out.push(' ');
    out.push_str(provenance);
    Ok(())
}

fn push_id(out: &mut String, id: u64) {
    out.push('@');
    push_u64(out, id);
}

/// `@target<@source type[ status]` + LF; a status of `""` or `unchanged` is not written.
fn push_edge_line(
    out: &mut String,
    source: u64,
    target: u64,
    edge_type: &str,
    status: &str,
) -> Result<()> {
    check_field("edge type", edge_type)?;
    push_id(out, target);
    out.push('<');
    push_id(out, source);
    out.push(' ');
    out.push_str(edge_type);
    if !status.is_empty() && status != "unchanged" {
        check_field("edge status", status)?;
        out.push(' ');
        out.push_str(status);
    }
    out.push('\n');
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(v: f64) -> String {
        let mut out = String::new();
        write_score(&mut out, v);
        out
    }

    #[test]
    fn integers() {
        for v in (0..20_000).chain([u64::MAX, 1 << 40]) {
            let mut out = String::new();
            push_u64(&mut out, v);
            assert_eq!(out, alloc::format!("{v}"));
        }
    }

    #[test]
    fn scores_match_core_fmt() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut values = alloc::vec![
            0.0,
            -0.0,
            0.005,
            0.015,
            0.025,
            0.125,
            0.375,
            2.675,
            -0.001,
            -0.005,
            f64::MIN_POSITIVE,
            -5e-324,
            4503599627370495.5,
            4503599627370496.0,
            9007199254740993.0,
            1e300,
            -1e300,
            f64::MAX,
        ];
        for i in 0..20_000u32 {
            // Exact ties and their neighbours, at every scale of hundredths.
            let tie = (f64::from(i) + 0.5) / 100.0;
            values.extend([
                tie,
                -tie,
                f64::from_bits(tie.to_bits() + 1),
                f64::from(i) / 100.0,
            ]);
            // Doubles spread over every exponent.
            let bits = next();
            let v = f64::from_bits(bits);
            if v.is_finite() {
                values.push(v);
            }
            // Doubles of magnitude 1e-4 .. 1e16.
            let exponent = 1010 + next() % 70;
            values.push(f64::from_bits((exponent << 52) | (next() >> 12)));
        }
        for v in values {
            assert_eq!(score(v), alloc::format!("{v:.2}"), "{v:e}");
        }
    }
}
