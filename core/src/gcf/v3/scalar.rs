//! The common scalar and key grammar of GCF v3 (SPEC §2, §2a), both directions: canonical
//! numbers, the quoting obligation, quoted strings, keys, field declarations and counts.
//!
//! Reading functions work on one token or line fragment and return errors without a
//! position; the caller knows where the fragment sits and adds it.

use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::SpecVersion;
use crate::json::{Number, Value};
use crate::{Error, ErrorKind, Result};

// ---------------------------------------------------------------------------------------------
// Numbers (SPEC §2.3)
// ---------------------------------------------------------------------------------------------

/// Length of the JSON number at the start of `s` (RFC 8259 grammar, ASCII digits only), or 0.
fn json_number_len(s: &[u8]) -> usize {
    let mut i = 0;
    if s.first() == Some(&b'-') {
        i += 1;
    }
    match s.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            while s.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        _ => return 0,
    }
    if s.get(i) == Some(&b'.') {
        let start = i + 1;
        let mut j = start;
        while s.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        if j == start {
            return 0;
        }
        i = j;
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(s.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let start = j;
        while s.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        if j == start {
            return 0;
        }
        i = j;
    }
    i
}

/// True when all of `s` is a JSON number.
pub(crate) fn is_json_number(s: &str) -> bool {
    !s.is_empty() && json_number_len(s.as_bytes()) == s.len()
}

fn out_of_range(value: &str) -> Error {
    Error::new(
        ErrorKind::GcfOutOfRange,
        alloc::format!(
            "out_of_range: integer {value} is outside the int64 domain \
             [-9223372036854775808, 9223372036854775807]; model larger values as strings"
        ),
    )
}

/// Reads a token that is a JSON number: integer lexemes must fit int64 (else
/// [`ErrorKind::GcfOutOfRange`]), every other lexeme is a double. `None` when `s` is not a
/// JSON number (it is then a bare string).
pub(crate) fn parse_number(s: &str) -> Option<Result<Number>> {
    if !is_json_number(s) {
        return None;
    }
    if !s.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
        return Some(match s.parse::<i64>() {
            Ok(v) => Ok(Number::from_i64(v)),
            Err(_) => Err(out_of_range(s)),
        });
    }
    Some(match s.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(Number::from_f64(v)),
        _ => Err(Error::new(
            ErrorKind::GcfOutOfRange,
            alloc::format!("out_of_range: number {s} is outside the double range"),
        )),
    })
}

/// Appends a double in canonical form (SPEC §2.3.1): `0` for ±0, plain decimal for
/// 1e-6 ≤ |v| < 2^53, otherwise normalized exponent (`1.25e+21`, `4e-7`). Shortest digits
/// that read back to the same double.
pub(crate) fn write_double(out: &mut String, v: f64) -> Result<()> {
    use core::fmt::Write;
    if !v.is_finite() {
        return Err(Error::new(
            ErrorKind::GcfOutOfRange,
            alloc::format!("out_of_range: {v} is not a JSON number"),
        ));
    }
    if v == 0.0 {
        out.push('0');
        return Ok(());
    }
    let abs = v.abs();
    if (1e-6..9_007_199_254_740_992.0).contains(&abs) {
        if write_short_decimal(out, v) {
            return Ok(());
        }
        // Rust's `Display` for f64 is the shortest round-trip digits in plain notation, and
        // prints integral values without a fraction.
        let _ = write!(out, "{v}");
    } else {
        let start = out.len();
        let _ = write!(out, "{v:e}");
        if let Some(e) = out[start..].find('e') {
            let at = start + e + 1;
            if out.as_bytes().get(at) != Some(&b'-') {
                out.insert(at, '+');
            }
        }
    }
    Ok(())
}

/// Appends `v` (finite, nonzero) as `Display` does when its shortest round-trip text has at
/// most 6 decimals and `|v| < 1e8`, without `core::fmt`; false (nothing written) otherwise.
///
/// `n / 10^k` with `n < 2^53` is the correctly rounded value of the decimal `n × 10^-k`, so
/// the first `k` for which it gives back `v` is the fewest decimals that read back as `v`. In
/// this range a `k`-decimal step is more than 60 ulps, so only one `k`-decimal number reads
/// back as `v` (the one `round` finds), and none lies on a rounding boundary: the text is the
/// shortest round trip, which is what `Display` prints.
fn write_short_decimal(out: &mut String, v: f64) -> bool {
    const SCALES: [(f64, u64); 7] = [
        (1.0, 1),
        (10.0, 10),
        (100.0, 100),
        (1e3, 1_000),
        (1e4, 10_000),
        (1e5, 100_000),
        (1e6, 1_000_000),
    ];
    let abs = v.abs();
    if abs >= 1e8 {
        return false;
    }
    for (decimals, &(scale, divisor)) in SCALES.iter().enumerate() {
        // `round` without libm (core has none): below 2^53 the truncation and remainder are exact.
        let scaled = abs * scale;
        let whole = scaled as u64;
        let n = whole + u64::from(scaled - whole as f64 >= 0.5);
        if n as f64 / scale != abs {
            continue;
        }
        if v < 0.0 {
            out.push('-');
        }
        crate::num::write_u64(out, n / divisor);
        if decimals > 0 {
            out.push('.');
            let fraction = n % divisor;
            let mut unit = divisor / 10;
            while unit > 0 {
                out.push(char::from(b'0' + ((fraction / unit) % 10) as u8));
                unit /= 10;
            }
        }
        return true;
    }
    false
}

/// Appends a number in canonical form; integers outside int64 are
/// [`ErrorKind::GcfOutOfRange`]. A number kept as its source text is classified by its
/// lexeme: an integer lexeme is an int64, any other lexeme a double.
pub(crate) fn write_number(out: &mut String, n: &Number) -> Result<()> {
    if let Some(text) = n.as_literal() {
        return match parse_number(text) {
            Some(Ok(parsed)) => write_number(out, &parsed),
            Some(Err(e)) => Err(e),
            None => Err(out_of_range(text)),
        };
    }
    if let Some(v) = n.as_i64() {
        crate::num::write_i64(out, v);
        return Ok(());
    }
    if let Some(v) = n.as_u64() {
        return Err(out_of_range(&v.to_string()));
    }
    write_double(out, n.as_f64())
}

// ---------------------------------------------------------------------------------------------
// Writing strings and keys (SPEC §2.2, §2.4, §2a)
// ---------------------------------------------------------------------------------------------

/// Non-ASCII code points an encoder must quote: C1 controls and Unicode whitespace
/// (including U+FEFF).
fn is_special_non_ascii(c: char) -> bool {
    matches!(c as u32,
        0x80..=0x9F | 0xA0 | 0x1680 | 0x2000..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F
        | 0x3000 | 0xFEFF)
}

/// True when `s` contains `[…]` directly followed (after optional whitespace) by `:`, which a
/// decoder could read as an inline array header.
fn has_inline_array_pattern(s: &str) -> bool {
    // `\[[^\]]*\]\s*:` in one pass: a `]` closes a bracket when a `[` came after the previous
    // `]`; then only white space may stand before the `:`.
    let mut open = false;
    for (i, c) in s.char_indices() {
        match c {
            '[' => open = true,
            ']' if open => {
                let after = s[i + 1..].trim_start();
                if after.starts_with(':') {
                    return true;
                }
                open = false;
            }
            ']' => {}
            _ => {}
        }
    }
    false
}

/// True when `s` starts like a malformed number (`+1`, `-.5`, `.5`, `01`): SPEC §2.4.
fn is_numeric_like(s: &[u8]) -> bool {
    match s {
        [b'+' | b'-', b'.', d, ..] | [b'+' | b'-', d, ..] | [b'.', d, ..] => d.is_ascii_digit(),
        [b'0', d, ..] => d.is_ascii_digit(),
        _ => false,
    }
}

/// True when `token` is a complete inline-schema marker, `^{…}`: it starts with `^{` and ends
/// with `}`. A `^{`-prefixed token without the closing brace (`^{abc`) is a literal string
/// (v3.6.0, gcf crate 3.1.0).
pub(crate) fn is_inline_marker(token: &str) -> bool {
    token.len() >= 3 && token.starts_with("^{") && token.ends_with('}')
}

/// True when the string `s` must be quoted (the quoting obligation, SPEC §2.4). Both
/// delimiters, `|` and `,`, are quoted in every context, not only the active one: the
/// fixtures pin it (`with_pipe="a|b"` in scalar/026, `x,"y|z"` in containers/008,
/// `"hello, world"` in a cell in inline-schema/006), so one rule serves every context.
///
/// The versions differ on `^{…` strings: 3.5.3 output quotes every one, 3.6.0 (as the gcf
/// crate 3.1.0) only a complete marker `^{…}`, so `^{abc` stays bare.
pub(crate) fn needs_quote(s: &str, version: SpecVersion) -> bool {
    let b = s.as_bytes();
    let (Some(&first), Some(&last)) = (b.first(), b.last()) else {
        return true;
    };
    let marker_like = match version {
        SpecVersion::V3_5_3 => first == b'^' && b.get(1) == Some(&b'{'),
        SpecVersion::V3_6_0 => is_inline_marker(s),
    };
    if matches!(s, "-" | "~" | "^" | "true" | "false")
        || first == b' '
        || last == b' '
        || matches!(first, b'#' | b'@' | b'.')
        || is_json_number(s)
        || is_numeric_like(b)
        || marker_like
    {
        return true;
    }
    // One pass without early exit, a table lookup per byte: bytes that force quotes, non-ASCII
    // text (checked further below) and `[` (the inline-array pattern needs one).
    let classes = b
        .iter()
        .fold(0u8, |classes, &c| classes | BYTE_CLASS[usize::from(c)]);
    if classes & QUOTE != 0 {
        return true;
    }
    if classes & NON_ASCII != 0 && s.chars().any(is_special_non_ascii) {
        return true;
    }
    classes & BRACKET != 0 && has_inline_array_pattern(s)
}

/// [`BYTE_CLASS`] bit: the byte forces quotes (C0 control, `"`, `\\`, `|`, `,`).
const QUOTE: u8 = 1;
/// [`BYTE_CLASS`] bit: part of a non-ASCII character.
const NON_ASCII: u8 = 2;
/// [`BYTE_CLASS`] bit: `[`.
const BRACKET: u8 = 4;

/// The class bits of every byte, for [`needs_quote`].
const BYTE_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let byte = c as u8;
        table[c] = if byte < 0x20 || matches!(byte, b'"' | b'\\' | b'|' | b',') {
            QUOTE
        } else if byte >= 0x80 {
            NON_ASCII
        } else if byte == b'[' {
            BRACKET
        } else {
            0
        };
        c += 1;
    }
    table
};

/// Appends `s` as a quoted string (JSON escapes: `\"`, `\\`, the short control escapes,
/// `\u00XX` for other C0 controls; everything else literal).
pub(crate) fn write_quoted(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    let mut start = 0;
    for (i, &c) in s.as_bytes().iter().enumerate() {
        let escape: &str = match c {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0C => "\\f",
            0..=0x1F => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if escape.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(HEX[usize::from(c >> 4)] as char);
            out.push(HEX[usize::from(c & 15)] as char);
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Appends the string `s` bare when that reads back as the same string, quoted otherwise.
pub(crate) fn write_string(out: &mut String, s: &str, version: SpecVersion) {
    if needs_quote(s, version) {
        write_quoted(out, s);
    } else {
        out.push_str(s);
    }
}

/// Appends a scalar (null, boolean, number or string). Arrays and objects are not scalars:
/// [`ErrorKind::InvalidArgument`].
pub(crate) fn write_scalar(out: &mut String, value: &Value, version: SpecVersion) -> Result<()> {
    match value {
        Value::Null => out.push('-'),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => write_number(out, n)?,
        Value::String(s) => write_string(out, s, version),
        Value::Array(_) | Value::Object(_) => {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                "a container is not a GCF scalar",
            ));
        }
    }
    Ok(())
}

/// True for `[A-Za-z_][A-Za-z0-9_]*`.
pub(crate) fn is_bare_key(s: &str) -> bool {
    let b = s.as_bytes();
    matches!(b.first(), Some(c) if c.is_ascii_alphabetic() || *c == b'_')
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// Appends the value of a constant column (`name=value` in a field declaration, SPEC
/// §7.4.7.2): a scalar as a cell writes it, and a string holding `}` quoted too, since the
/// declaration would end there.
pub(crate) fn write_constant(out: &mut String, value: &Value) -> Result<()> {
    match value {
        Value::String(s) if s.contains('}') => {
            write_quoted(out, s);
            Ok(())
        }
        _ => write_scalar(out, value, SpecVersion::V3_6_0),
    }
}

/// Appends a key or field name: bare when it is a bare key, quoted otherwise.
pub(crate) fn write_key(out: &mut String, key: &str) {
    if is_bare_key(key) {
        out.push_str(key);
    } else {
        write_quoted(out, key);
    }
}

// ---------------------------------------------------------------------------------------------
// Reading scalars (SPEC §2.1, §2.2)
// ---------------------------------------------------------------------------------------------

/// One decoded scalar token.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Scalar<'a> {
    /// `-`
    Null,
    /// `~` (only valid in tabular cells; the caller decides).
    Missing,
    /// `^`
    Attachment,
    /// `^{fields}`: an inline-schema attachment marker.
    InlineSchema(Vec<String>),
    /// `true` / `false`
    Bool(bool),
    /// A JSON number in the int64 / double domain.
    Number(Number),
    /// A quoted or bare string.
    String(Cow<'a, str>),
}

impl Scalar<'_> {
    /// The JSON value of a value scalar; `None` for `~`, `^` and `^{…}`.
    pub(crate) fn into_value(self) -> Option<Value> {
        Some(match self {
            Scalar::Null => Value::Null,
            Scalar::Bool(b) => Value::Bool(b),
            Scalar::Number(n) => Value::Number(n),
            Scalar::String(s) => Value::String(s.into_owned()),
            Scalar::Missing | Scalar::Attachment | Scalar::InlineSchema(_) => return None,
        })
    }
}

/// Trims the ASCII spaces and tabs around an unquoted token (SPEC §4.2).
pub(crate) fn trim_token(s: &str) -> &str {
    s.trim_matches(|c| c == ' ' || c == '\t')
}

/// Reads one scalar token (already split from its delimiter), by the precedence of SPEC §2.1.
/// `~`, `^` and `^{…}` are returned as such; rejecting them outside tabular cells is the
/// caller's job (see [`parse_value_scalar`]). A `^{` token without its closing `}` is a string
/// (SPEC §2.1 rule 4 matches only a whole `^{…}`; v3.6.0 spells it out).
pub(crate) fn parse_scalar(token: &str) -> Result<Scalar<'_>> {
    let token = trim_token(token);
    if token.starts_with('"') {
        let (s, used) = parse_quoted(token)?;
        if used != token.len() {
            return Err(Error::new(
                ErrorKind::GcfTrailingCharacters,
                "trailing_characters: characters after the closing quote",
            ));
        }
        return Ok(Scalar::String(s));
    }
    Ok(match token {
        "-" => Scalar::Null,
        "~" => Scalar::Missing,
        "^" => Scalar::Attachment,
        "true" => Scalar::Bool(true),
        "false" => Scalar::Bool(false),
        _ if is_inline_marker(token) => {
            let (fields, used) = parse_field_decl(&token[1..]).map_err(|e| {
                Error::new(
                    ErrorKind::GcfInvalidAttachmentMarker,
                    alloc::format!("invalid_attachment_marker: {}", e.message()),
                )
            })?;
            if used + 1 != token.len() || fields.identity.is_some() || !fields.constants.is_empty()
            {
                return Err(Error::new(
                    ErrorKind::GcfInvalidAttachmentMarker,
                    "invalid_attachment_marker: malformed inline schema declaration",
                ));
            }
            Scalar::InlineSchema(fields.names)
        }
        _ => match parse_number(token) {
            Some(n) => Scalar::Number(n?),
            None => Scalar::String(Cow::Borrowed(token)),
        },
    })
}

/// Reads the value of a constant column or of a group subheader (SPEC §7.4.7.2, §7.4.8.3):
/// a scalar. An empty token, `~` and an attachment marker (`^`, or `^{…}` with its closing
/// brace: `^{abc` is a string) are [`ErrorKind::GcfInvalidConstValue`].
pub(crate) fn parse_constant(token: &str) -> Result<Value> {
    let problem = match token {
        "" => "an empty value (the empty string is written `\"\"`)",
        "~" => "`~` (absent) is not a value",
        "^" => "an attachment marker is not a scalar",
        _ if is_inline_marker(token) => "an attachment marker is not a scalar",
        _ => return parse_value_scalar(token),
    };
    Err(Error::new(
        ErrorKind::GcfInvalidConstValue,
        alloc::format!("invalid_const_value: {problem}"),
    ))
}

/// Reads a scalar outside tabular cells: `~` is [`ErrorKind::GcfInvalidMissing`], `^` and
/// `^{…}` are [`ErrorKind::GcfInvalidAttachmentMarker`].
pub(crate) fn parse_value_scalar(token: &str) -> Result<Value> {
    match parse_scalar(token)? {
        Scalar::Missing => Err(Error::new(
            ErrorKind::GcfInvalidMissing,
            "invalid_missing: `~` is only valid in a tabular row cell",
        )),
        Scalar::Attachment | Scalar::InlineSchema(_) => Err(Error::new(
            ErrorKind::GcfInvalidAttachmentMarker,
            "invalid_attachment_marker: `^` is only valid in a tabular row cell",
        )),
        other => Ok(other.into_value().unwrap_or_default()),
    }
}

fn hex4(b: &[u8]) -> Option<u32> {
    if b.len() < 4 {
        return None;
    }
    let mut v = 0u32;
    for &c in &b[..4] {
        v = v * 16 + char::from(c).to_digit(16)?;
    }
    Some(v)
}

/// Reads the quoted string at the start of `s` (which starts with `"`). Returns the string
/// and the bytes used, closing quote included.
pub(crate) fn parse_quoted(s: &str) -> Result<(Cow<'_, str>, usize)> {
    let b = s.as_bytes();
    debug_assert_eq!(b.first(), Some(&b'"'));
    let mut i = 1;
    // Fast path: no escapes.
    while i < b.len() && b[i] != b'"' && b[i] != b'\\' && b[i] >= 0x20 {
        i += 1;
    }
    if b.get(i) == Some(&b'"') {
        return Ok((Cow::Borrowed(&s[1..i]), i + 1));
    }
    let mut out = String::with_capacity(s.len());
    out.push_str(&s[1..i]);
    loop {
        let Some(&c) = b.get(i) else {
            return Err(Error::new(
                ErrorKind::GcfUnterminatedQuote,
                "unterminated_quote: quoted string has no closing quote",
            ));
        };
        match c {
            b'"' => return Ok((Cow::Owned(out), i + 1)),
            b'\\' => {
                let Some(&e) = b.get(i + 1) else {
                    return Err(Error::new(
                        ErrorKind::GcfUnterminatedQuote,
                        "unterminated_quote: quoted string ends inside an escape",
                    ));
                };
                i += 2;
                match e {
                    b'"' => out.push('"'),
                    b'\\' => out.push('\\'),
                    b'/' => out.push('/'),
                    b'b' => out.push('\u{8}'),
                    b'f' => out.push('\u{c}'),
                    b'n' => out.push('\n'),
                    b'r' => out.push('\r'),
                    b't' => out.push('\t'),
                    b'u' => {
                        let unit = hex4(&b[i..]).ok_or_else(|| {
                            Error::new(
                                ErrorKind::GcfInvalidEscape,
                                "invalid_escape: `\\u` needs four hex digits",
                            )
                        })?;
                        i += 4;
                        let code = match unit {
                            0xD800..=0xDBFF => {
                                let low = (b.get(i..i + 2) == Some(b"\\u"))
                                    .then(|| hex4(&b[i + 2..]))
                                    .flatten()
                                    .filter(|low| (0xDC00..=0xDFFF).contains(low))
                                    .ok_or_else(|| {
                                        Error::new(
                                            ErrorKind::GcfInvalidSurrogate,
                                            "invalid_surrogate: high surrogate without a low surrogate",
                                        )
                                    })?;
                                i += 6;
                                0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                            }
                            0xDC00..=0xDFFF => {
                                return Err(Error::new(
                                    ErrorKind::GcfInvalidSurrogate,
                                    "invalid_surrogate: isolated low surrogate",
                                ));
                            }
                            unit => unit,
                        };
                        out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                    }
                    other => {
                        return Err(Error::new(
                            ErrorKind::GcfInvalidEscape,
                            alloc::format!(
                                "invalid_escape: `\\{}` is not a JSON escape",
                                char::from(other).escape_default()
                            ),
                        ));
                    }
                }
            }
            0..=0x1F => {
                return Err(Error::new(
                    ErrorKind::GcfInvalidEscape,
                    alloc::format!(
                        "invalid_escape: raw control character U+{c:04X} in a quoted string"
                    ),
                ));
            }
            _ => {
                let start = i;
                while i < b.len() && b[i] != b'"' && b[i] != b'\\' && b[i] >= 0x20 {
                    i += 1;
                }
                out.push_str(&s[start..i]);
            }
        }
    }
}

/// Splits `s` on `delimiter` outside quoted strings (a `\` inside quotes escapes the next
/// byte). Tokens are not trimmed.
pub(crate) fn split_outside_quotes(s: &str, delimiter: u8) -> Vec<&str> {
    let mut parts = Vec::new();
    split_outside_quotes_into(s, delimiter, &mut parts);
    parts
}

/// [`split_outside_quotes`] into `parts` (cleared first), so that a caller splitting many
/// lines reuses one list.
pub(crate) fn split_outside_quotes_into<'s>(s: &'s str, delimiter: u8, parts: &mut Vec<&'s str>) {
    parts.clear();
    let b = s.as_bytes();
    if memchr::memchr(b'"', b).is_none() {
        // Without quotes every delimiter splits (a `\\` escapes only inside quotes).
        let mut start = 0;
        for i in memchr::memchr_iter(delimiter, b) {
            parts.push(&s[start..i]);
            start = i + 1;
        }
        parts.push(&s[start..]);
        return;
    }
    // Jump from one delimiter or quote to the next; inside quotes, from quote or backslash to
    // the next (a backslash skips the byte after it).
    let mut start = 0;
    let mut i = 0;
    'outside: while let Some(k) = memchr::memchr2(delimiter, b'"', &b[i..]) {
        let j = i + k;
        i = j + 1;
        if b[j] == delimiter {
            parts.push(&s[start..j]);
            start = i;
            continue;
        }
        loop {
            let Some(k) = b
                .get(i..)
                .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
            else {
                break 'outside;
            };
            let j = i + k;
            if b[j] == b'"' {
                i = j + 1;
                continue 'outside;
            }
            i = j + 2;
        }
    }
    parts.push(&s[start..]);
}

// ---------------------------------------------------------------------------------------------
// Reading keys, field declarations and counts (SPEC §2a, §4)
// ---------------------------------------------------------------------------------------------

/// Reads the key at the start of `s`: a quoted string, or the longest run of bare-key
/// characters. Returns the key and the bytes used; an empty bare run is
/// [`ErrorKind::GcfInvalidLine`].
pub(crate) fn parse_key(s: &str) -> Result<(Cow<'_, str>, usize)> {
    if s.starts_with('"') {
        return parse_quoted(s);
    }
    let b = s.as_bytes();
    let len = b
        .iter()
        .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
        .unwrap_or(b.len());
    if len == 0 || b[0].is_ascii_digit() {
        return Err(Error::new(
            ErrorKind::GcfInvalidLine,
            alloc::format!("invalid key at {:?}", truncate(s, 24)),
        ));
    }
    Ok((Cow::Borrowed(&s[..len]), len))
}

/// A tabular field declaration `{a,"b c",@id,kind=entity}`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct FieldDecl<'a> {
    /// Field names in order (the identity field without its `@`).
    pub names: Vec<String>,
    /// Index of the `@`-marked field, if any: the identity column of a generic delta (SPEC
    /// §10a.1) or the key column of a grouped section (SPEC §7.4.8).
    pub identity: Option<usize>,
    /// Constant columns (`name=value`, SPEC §7.4.7): the field index and its value token,
    /// unparsed (the caller reads it and places its errors).
    pub constants: Vec<(usize, &'a str)>,
}

/// Reads the field declaration at the start of `s` (which starts with `{`). Returns it and
/// the bytes used, `}` included. Duplicate names are [`ErrorKind::GcfDuplicateFieldName`];
/// more than one `@` field, an empty name list or a malformed name is
/// [`ErrorKind::GcfInvalidLine`]. A constant's value runs to the next `,` or `}` outside
/// quotes.
pub(crate) fn parse_field_decl(s: &str) -> Result<(FieldDecl<'_>, usize)> {
    let bad = |what: &str| {
        Error::new(
            ErrorKind::GcfInvalidLine,
            alloc::format!("invalid field declaration: {what}"),
        )
    };
    if !s.starts_with('{') {
        return Err(bad("expected `{`"));
    }
    let mut decl = FieldDecl::default();
    // Wide declarations check duplicates in a sorted index (a scan would be quadratic).
    let mut index: Option<alloc::collections::BTreeSet<String>> = None;
    let mut i = 1;
    loop {
        let rest = &s[i..];
        let identity = rest.starts_with('@');
        let at = usize::from(identity);
        let (name, used) = parse_key(&rest[at..]).map_err(|e| match e.kind() {
            ErrorKind::GcfInvalidLine => bad("expected a field name"),
            _ => e,
        })?;
        if identity {
            if decl.identity.is_some() {
                return Err(bad("more than one `@` identity field"));
            }
            decl.identity = Some(decl.names.len());
        }
        let duplicate = match &mut index {
            Some(index) => !index.insert(name.to_string()),
            None if decl.names.len() < 16 => decl.names.iter().any(|n| *n == name),
            None => {
                let mut names: alloc::collections::BTreeSet<String> =
                    decl.names.iter().cloned().collect();
                let duplicate = !names.insert(name.to_string());
                index = Some(names);
                duplicate
            }
        };
        if duplicate {
            return Err(Error::new(
                ErrorKind::GcfDuplicateFieldName,
                alloc::format!("duplicate_field_name: {name:?} is declared twice"),
            ));
        }
        decl.names.push(name.into_owned());
        i += at + used;
        if s.as_bytes().get(i) == Some(&b'=') {
            let end = i + 1 + constant_len(&s.as_bytes()[i + 1..]);
            decl.constants.push((decl.names.len() - 1, &s[i + 1..end]));
            i = end;
        }
        match s.as_bytes().get(i) {
            Some(b',') => i += 1,
            Some(b'}') => return Ok((decl, i + 1)),
            _ => return Err(bad("expected `,` or `}` after a field name")),
        }
    }
}

/// Length of a constant's value token at the start of `b`: up to the first `,` or `}`
/// outside a quoted string (a `\` inside quotes escapes the next byte).
fn constant_len(b: &[u8]) -> usize {
    let mut quoted = false;
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'\\' if quoted => i += 1,
            b'"' => quoted = !quoted,
            b',' | b'}' if !quoted => return i,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// A decimal count read as a u64 (`None` past it), held as a usize: a count past usize (32-bit
/// wasm) saturates, so every platform reports the same error for it (no input holds that many
/// items, so it is a count mismatch).
pub(crate) fn count_from_u64(digits: &str) -> Option<usize> {
    let count: u64 = digits.parse().ok()?;
    Some(usize::try_from(count).unwrap_or(usize::MAX))
}

/// A `[count]` bracket: `[N]`, `[?]`, `[N:]` or `[?:]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Count {
    /// The declared count; `None` for the deferred `?`.
    pub count: Option<usize>,
    /// `:` after the count: a keyed map.
    pub keyed: bool,
}

/// Reads the count bracket at the start of `s` (which starts with `[`). Returns it and the
/// bytes used. A count other than `0`, a decimal without leading zeros or `?` is
/// [`ErrorKind::GcfInvalidCount`].
pub(crate) fn parse_count(s: &str) -> Result<(Count, usize)> {
    let invalid = |what: &str| {
        Error::new(
            ErrorKind::GcfInvalidCount,
            alloc::format!("invalid_count: {what}"),
        )
    };
    let close = s.find(']').ok_or_else(|| invalid("missing `]`"))?;
    let inner = &s[1..close];
    let (digits, keyed) = match inner.strip_suffix(':') {
        Some(d) => (d, true),
        None => (inner, false),
    };
    let count = match digits {
        "?" => None,
        "0" => Some(0),
        d if !d.is_empty() && !d.starts_with('0') && d.bytes().all(|c| c.is_ascii_digit()) => {
            Some(count_from_u64(d).ok_or_else(|| invalid("count too large"))?)
        }
        d => {
            return Err(invalid(&alloc::format!(
                "[{d}] is not 0, a decimal without leading zeros, or ?"
            )));
        }
    };
    Ok((Count { count, keyed }, close + 1))
}

/// At most `max` bytes of `s`, cut at a char boundary (for messages).
pub(crate) fn truncate(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn double(v: f64) -> String {
        let mut out = String::new();
        write_double(&mut out, v).unwrap();
        out
    }

    #[test]
    fn canonical_doubles() {
        assert_eq!(double(-0.0), "0");
        assert_eq!(double(12.75), "12.75");
        assert_eq!(double(1e-6), "0.000001");
        assert_eq!(double(4e-7), "4e-7");
        assert_eq!(double(1e10), "10000000000");
        assert_eq!(double(9_007_199_254_740_992.0), "9.007199254740992e+15");
        assert_eq!(double(1.25e21), "1.25e+21");
        assert_eq!(double(-6.022e23), "-6.022e+23");
        assert_eq!(double(5e18), "5e+18");
        assert!(write_double(&mut String::new(), f64::NAN).is_err());
    }

    #[test]
    fn short_decimals_match_display() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut values = alloc::vec![1e-6, 0.1 + 0.2, 99_999_999.999_999, 1e8, 123.456, 5.0];
        for _ in 0..200_000 {
            let decimals = (next() % 8) as i32;
            let n = (next() % 100_000_000_000) as f64;
            values.push(n / 10f64.powi(decimals));
            values.push(-n / 10f64.powi(decimals));
            let exponent = 1000 + next() % 60;
            values.push(f64::from_bits((exponent << 52) | (next() >> 12)));
        }
        let mut short = 0;
        for v in values {
            if v != 0.0 && (1e-6..9_007_199_254_740_992.0).contains(&v.abs()) {
                let mut out = String::new();
                if write_short_decimal(&mut out, v) {
                    assert_eq!(out, alloc::format!("{v}"), "{v:e}");
                    short += 1;
                }
            }
        }
        assert!(short > 200_000, "{short}");
        let mut out = String::new();
        assert!(write_short_decimal(&mut out, -0.78) && out == "-0.78");
    }

    #[test]
    fn integer_domain() {
        assert!(matches!(parse_number("9223372036854775807"), Some(Ok(_))));
        assert!(matches!(parse_number("-9223372036854775808"), Some(Ok(_))));
        for text in ["9223372036854775808", "-9223372036854775809"] {
            let e = parse_number(text).unwrap().unwrap_err();
            assert_eq!(e.kind(), ErrorKind::GcfOutOfRange);
        }
        assert!(parse_number("01").is_none());
        assert!(parse_number("1.").is_none());
        assert!(parse_number("1.\u{665}").is_none());
        let mut out = String::new();
        assert!(write_number(&mut out, &Number::from_u64(1 << 63)).is_err());
    }

    #[test]
    fn quoting_obligation() {
        for s in [
            "",
            "-",
            "~",
            "^",
            "true",
            "false",
            "^{a,b}",
            "12",
            "-1.5e3",
            "+1",
            "-.5",
            ".5",
            "01",
            " a",
            "a ",
            "#x",
            "@x",
            ".x",
            "a\"b",
            "a\\b",
            "a\nb",
            "\u{85}",
            "a\u{a0}b",
            "\u{feff}",
            "ERR[404]: x",
            "[a] :b",
            "[[x]:",
            "a]b[c] \u{3000}:",
        ] {
            for version in [SpecVersion::V3_5_3, SpecVersion::V3_6_0] {
                assert!(needs_quote(s, version), "{s:?} must be quoted");
            }
        }
        for s in [
            "Alice Smith",
            "1.\u{665}",
            "123abc",
            "a-b",
            "^a",
            "[x]y",
            "x]: [y",
            "[x] y:",
        ] {
            for version in [SpecVersion::V3_5_3, SpecVersion::V3_6_0] {
                assert!(!needs_quote(s, version), "{s:?} must stay bare");
            }
        }
        assert!(needs_quote("a|b", SpecVersion::V3_6_0));
        assert!(needs_quote("a,b", SpecVersion::V3_6_0));
        // `^{…` without its closing brace: quoted by 3.5.3 output, bare in 3.6.0 (a literal).
        for s in ["^{", "^{abc", "^{a}b", "^{a;b"] {
            assert!(needs_quote(s, SpecVersion::V3_5_3), "{s:?}");
            assert!(!needs_quote(s, SpecVersion::V3_6_0), "{s:?}");
        }
        assert!(needs_quote("^{}", SpecVersion::V3_6_0));
        assert!(needs_quote("^{a b}", SpecVersion::V3_6_0));
    }

    #[test]
    fn quoted_strings_round_trip() {
        let s = "a\"b\\c\u{1}\u{8}\t\n😀|,";
        let mut out = String::new();
        write_quoted(&mut out, s);
        assert_eq!(out, "\"a\\\"b\\\\c\\u0001\\b\\t\\n😀|,\"");
        let (back, used) = parse_quoted(&out).unwrap();
        assert_eq!((back.as_ref(), used), (s, out.len()));
        let pair = parse_quoted("\"\\uD83D\\uDE00\"").unwrap().0;
        assert_eq!(pair, "😀");
        for (bad, kind) in [
            ("\"abc", ErrorKind::GcfUnterminatedQuote),
            ("\"a\\x\"", ErrorKind::GcfInvalidEscape),
            ("\"\\uD800\"", ErrorKind::GcfInvalidSurrogate),
            ("\"\\uDC00\"", ErrorKind::GcfInvalidSurrogate),
            ("\"\\uD83D\\u0041\"", ErrorKind::GcfInvalidSurrogate),
            ("\"a\u{1}\"", ErrorKind::GcfInvalidEscape),
        ] {
            assert_eq!(parse_quoted(bad).unwrap_err().kind(), kind, "{bad:?}");
        }
    }

    #[test]
    fn scalars_by_precedence() {
        assert_eq!(parse_scalar(" - ").unwrap(), Scalar::Null);
        assert_eq!(parse_scalar("\"-\"").unwrap(), Scalar::String("-".into()));
        assert_eq!(parse_scalar("01").unwrap(), Scalar::String("01".into()));
        assert_eq!(
            parse_scalar("^{a,\"b c\"}").unwrap(),
            Scalar::InlineSchema(alloc::vec!["a".into(), "b c".into()])
        );
        assert_eq!(
            parse_scalar("\"a\"b").unwrap_err().kind(),
            ErrorKind::GcfTrailingCharacters
        );
        assert_eq!(
            parse_value_scalar("~").unwrap_err().kind(),
            ErrorKind::GcfInvalidMissing
        );
    }

    #[test]
    fn splitting_matches_a_byte_by_byte_scan() {
        fn reference(s: &str, delimiter: u8) -> Vec<&str> {
            let b = s.as_bytes();
            let (mut parts, mut start, mut i, mut quoted) = (Vec::new(), 0, 0, false);
            while i < b.len() {
                match b[i] {
                    b'\\' if quoted => i += 1,
                    b'"' => quoted = !quoted,
                    c if c == delimiter && !quoted => {
                        parts.push(&s[start..i]);
                        start = i + 1;
                    }
                    _ => {}
                }
                i += 1;
            }
            parts.push(&s[start..]);
            parts
        }
        let alphabet = [b'a', b'|', b',', b'"', b'\\', b' '];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..50_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 12) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|k| alphabet[((state >> (4 + 3 * k)) % 6) as usize])
                .collect();
            let text = core::str::from_utf8(&bytes).unwrap();
            for delimiter in [b'|', b','] {
                assert_eq!(
                    split_outside_quotes(text, delimiter),
                    reference(text, delimiter),
                    "{text:?}"
                );
            }
        }
    }

    #[test]
    fn splitting_keys_and_declarations() {
        assert_eq!(
            split_outside_quotes("a|\"b|\\\"c\"|d", b'|'),
            ["a", "\"b|\\\"c\"", "d"]
        );
        let (decl, used) = parse_field_decl("{@id,\"a,b\",c} rest").unwrap();
        assert_eq!((decl.names.len(), decl.identity, used), (3, Some(0), 13));
        assert_eq!(
            parse_field_decl("{a,b,a}").unwrap_err().kind(),
            ErrorKind::GcfDuplicateFieldName
        );
        assert!(parse_count("[?:]").unwrap().0.keyed);
        assert_eq!(
            parse_count("[03]").unwrap_err().kind(),
            ErrorKind::GcfInvalidCount
        );
        assert_eq!(parse_key("\"a=b\"=1").unwrap(), (Cow::Borrowed("a=b"), 5));
    }
}
