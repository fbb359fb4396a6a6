//! The character-level rules both directions share: key patterns, the number grammars,
//! quote-aware scanning, token trimming.

/// `^[A-Za-z_][A-Za-z0-9_.]*$`: a key an encoder may write unquoted (spec §7.3).
pub(super) fn is_unquoted_key(key: &str) -> bool {
    let b = key.as_bytes();
    matches!(b.first(), Some(c) if c.is_ascii_alphabetic() || *c == b'_')
        && b[1..]
            .iter()
            .all(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
}

/// `^[A-Za-z_][A-Za-z0-9_]*$`: a segment that key folding and path expansion work with.
pub(super) fn is_identifier(segment: &str) -> bool {
    let b = segment.as_bytes();
    matches!(b.first(), Some(c) if c.is_ascii_alphabetic() || *c == b'_')
        && b[1..]
            .iter()
            .all(|&c| c.is_ascii_alphanumeric() || c == b'_')
}

/// A dotted key whose every segment is an identifier: what path expansion splits. Returns
/// the number of segments (at least 2), or 0 when the key is not such a path.
pub(super) fn path_segments(key: &str) -> usize {
    if !key.as_bytes().contains(&b'.') {
        return 0;
    }
    let mut count = 0;
    for segment in key.split('.') {
        if !is_identifier(segment) {
            return 0;
        }
        count += 1;
    }
    count
}

/// `/^[+-]?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i`: a string an encoder must quote because it looks
/// like a number (spec §7.2; wider than the decoder's grammar on purpose).
pub(super) fn is_numeric_like(b: &[u8]) -> bool {
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i > start
    };
    if !digits(&mut i) {
        return false;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if !digits(&mut i) {
            return false;
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == b.len()
}

/// The shape of a token in the decoder's number grammar (spec §4):
/// `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Numeral {
    /// Digits only (with an optional `-`).
    Integer,
    /// With a fraction or an exponent.
    Float,
}

/// The token's [`Numeral`] shape, or `None` when it is not a number (a string).
pub(super) fn numeral(b: &[u8]) -> Option<Numeral> {
    let mut i = usize::from(b.first() == Some(&b'-'));
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        }
        _ => return None,
    }
    let mut shape = Numeral::Integer;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return None;
        }
        shape = Numeral::Float;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return None;
        }
        shape = Numeral::Float;
    }
    (i == b.len()).then_some(shape)
}

/// `-?(0|[1-9]\d*)(\.\d*[1-9])?` but not `-0`: a numeral already in the spec's canonical
/// decimal form (§2), which an encoder may copy as it is.
pub(super) fn is_canonical_decimal(text: &str) -> bool {
    let b = text.as_bytes();
    if text == "-0" || b.iter().any(|&c| c == b'e' || c == b'E') || numeral(b).is_none() {
        return false;
    }
    // A numeral without exponent: digits, then maybe a fraction, which must not end in 0.
    !b.contains(&b'.') || b.last() != Some(&b'0')
}

/// `text` without leading and trailing spaces (U+0020 only, spec §12), with the offset of what
/// is left.
pub(super) fn trim_spaces(text: &str) -> (&str, usize) {
    let b = text.as_bytes();
    let mut start = 0;
    while start < b.len() && b[start] == b' ' {
        start += 1;
    }
    let mut end = b.len();
    while end > start && b[end - 1] == b' ' {
        end -= 1;
    }
    (&text[start..end], start)
}

/// The first `target` byte at or after `from` outside quoted sections: a `"` opens or closes a
/// quoted section, and inside one a backslash hides the byte after it (the reference's
/// `findUnquotedChar`; the scan starts outside quotes).
pub(super) fn find_unquoted(b: &[u8], from: usize, target: u8) -> Option<usize> {
    let mut i = from;
    while i < b.len() {
        // Outside quotes: the next target or quote.
        let at = i + memchr::memchr2(target, b'"', &b[i..])?;
        if b[at] == target {
            return Some(at);
        }
        i = skip_quoted(b, at)?;
    }
    None
}

/// The first byte outside quoted sections that is `a` or `b` (see [`find_unquoted`]).
pub(super) fn find_unquoted2(bytes: &[u8], from: usize, a: u8, b: u8) -> Option<usize> {
    let mut i = from;
    while i < bytes.len() {
        let at = i + memchr::memchr3(a, b, b'"', &bytes[i..])?;
        if bytes[at] != b'"' {
            return Some(at);
        }
        i = skip_quoted(bytes, at)?;
    }
    None
}

/// The index after the quoted section that opens at `open` (a `"`), or `None` when it is not
/// closed.
pub(super) fn skip_quoted(b: &[u8], open: usize) -> Option<usize> {
    closing_quote(b, open).map(|close| close + 1)
}

/// The index of the `"` that closes the quoted section opening at `open`, skipping a byte
/// after each backslash.
pub(super) fn closing_quote(b: &[u8], open: usize) -> Option<usize> {
    let mut i = open + 1;
    loop {
        let at = i + memchr::memchr2(b'"', b'\\', b.get(i..)?)?;
        if b[at] == b'"' {
            return Some(at);
        }
        if at + 1 >= b.len() {
            return None;
        }
        i = at + 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_patterns() {
        for key in ["a", "_x", "user.name", "a..b", "A1_b.c"] {
            assert!(is_unquoted_key(key), "{key}");
        }
        for key in ["", "1a", "-a", "a-b", "a b", ".a", "é"] {
            assert!(!is_unquoted_key(key), "{key}");
        }
        assert!(is_identifier("_a1") && !is_identifier("a.b") && !is_identifier(""));
        assert_eq!(path_segments("a.b.c"), 3);
        for key in ["a", "a..b", "a.", ".a", "a.1", "a.b-c", "a b.c"] {
            assert_eq!(path_segments(key), 0, "{key}");
        }
    }

    #[test]
    fn number_grammars() {
        for t in [
            "1", "-1", "+1", "05", "1.5", "1e5", "1E+5", "-3.14e-2", "007",
        ] {
            assert!(is_numeric_like(t.as_bytes()), "{t}");
        }
        for t in [
            "", "-", "1.", ".5", "1e", "1e+", "0x1", "1_0", "Infinity", "1.5.2",
        ] {
            assert!(!is_numeric_like(t.as_bytes()), "{t}");
        }
        let n = |t: &str| numeral(t.as_bytes());
        assert_eq!(n("0"), Some(Numeral::Integer));
        assert_eq!(n("-0"), Some(Numeral::Integer));
        assert_eq!(n("123"), Some(Numeral::Integer));
        assert_eq!(n("0.5"), Some(Numeral::Float));
        assert_eq!(n("-0e1"), Some(Numeral::Float));
        assert_eq!(n("1E+03"), Some(Numeral::Float));
        for t in [
            "05", "-05", "+1", ".5", "1.", "1e", "-", "", "1.5e", "0x10", "NaN", "00",
        ] {
            assert_eq!(n(t), None, "{t}");
        }
        for t in ["0", "1", "-1.5", "0.25", "1000000000000000000000000"] {
            assert!(is_canonical_decimal(t), "{t}");
        }
        for t in ["-0", "1.0", "1e5", "05", "1.50", "+1", ".5", "1."] {
            assert!(!is_canonical_decimal(t), "{t}");
        }
    }

    #[test]
    fn quote_aware_scanning() {
        let b = br#"a"b:c"d: x"#;
        assert_eq!(find_unquoted(b, 0, b':'), Some(7));
        assert_eq!(find_unquoted(br#""a\":b": 1"#, 0, b':'), Some(7));
        assert_eq!(find_unquoted(br#""open: x"#, 0, b':'), None);
        assert_eq!(find_unquoted2(b"x|y,z", 0, b',', b'|'), Some(1));
        assert_eq!(closing_quote(br#""a\\"b"#, 0), Some(4));
        assert_eq!(closing_quote(br#""a\"#, 0), None);
        assert_eq!(trim_spaces("  a b  "), ("a b", 2));
        assert_eq!(trim_spaces("\u{a0}a "), ("\u{a0}a", 0));
    }
}
