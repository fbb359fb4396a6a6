//! Small text helpers shared by the formats.

use alloc::string::String;
use core::fmt::Write;

/// Eight bytes at a time: the index of the first byte for which `word_may_match` holds of its
/// 8-byte word, or the start of the final partial word (callers check bytes from there one by
/// one). `word_may_match` may report false positives, never false negatives.
pub(crate) fn skip_words(bytes: &[u8], from: usize, word_may_match: impl Fn(u64) -> bool) -> usize {
    let mut i = from;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        if word_may_match(u64::from_le_bytes(word)) {
            return i;
        }
        i += 8;
    }
    i
}

/// `a == b`, inlined for the short texts (names, keys) compared in hot loops: eight bytes at
/// a time, shorter texts byte by byte, never a call to `memcmp`.
#[inline]
pub(crate) fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n < 8 {
        if n < 4 {
            return a.iter().zip(b).all(|(x, y)| x == y);
        }
        // The first and the last four bytes (overlapping when n < 8).
        let half = |s: &[u8], i: usize| {
            let mut w = [0u8; 4];
            w.copy_from_slice(&s[i..i + 4]);
            u32::from_le_bytes(w)
        };
        return half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4);
    }
    let word = |s: &[u8], i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&s[i..i + 8]);
        u64::from_le_bytes(w)
    };
    let mut i = 0;
    while i + 8 < n {
        if word(a, i) != word(b, i) {
            return false;
        }
        i += 8;
    }
    // The last eight bytes (overlapping the previous word when n is not a multiple of 8).
    word(a, n - 8) == word(b, n - 8)
}

/// `a.as_bytes().cmp(b.as_bytes())` (byte order, Go's `sort.Strings`), inlined for the short
/// keys sorted and searched in hot loops: eight bytes at a time as big-endian words.
#[inline]
pub(crate) fn cmp_text(a: &str, b: &str) -> core::cmp::Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let common = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= common {
        let mut x = [0u8; 8];
        let mut y = [0u8; 8];
        x.copy_from_slice(&a[i..i + 8]);
        y.copy_from_slice(&b[i..i + 8]);
        if x != y {
            return u64::from_be_bytes(x).cmp(&u64::from_be_bytes(y));
        }
        i += 8;
    }
    while i < common {
        if a[i] != b[i] {
            return a[i].cmp(&b[i]);
        }
        i += 1;
    }
    a.len().cmp(&b.len())
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// True when some byte of `word` is below `n` (`n` ≤ 0x80; may report a false positive next
/// to a match, never a false negative).
pub(crate) const fn has_byte_below(word: u64, n: u8) -> bool {
    word.wrapping_sub(ONES * n as u64) & !word & HIGHS != 0
}

/// True when some byte of `word` equals `b` (may report a false positive next to a match).
pub(crate) const fn has_byte(word: u64, b: u8) -> bool {
    let x = word ^ (ONES * b as u64);
    x.wrapping_sub(ONES) & !x & HIGHS != 0
}

/// True when some byte of `word` is ≥ 0x80.
pub(crate) const fn has_non_ascii(word: u64) -> bool {
    word & HIGHS != 0
}

/// Go `strconv.Quote` of `bytes`, truncated first to `max_runes` runes (Go `%.Nq`).
///
/// Invalid UTF-8 bytes count as one rune each and print as `\xNN`, as in Go. Printability
/// follows Go's `unicode.IsPrint` for everything but unassigned code points, which print raw.
pub(crate) fn go_quote(bytes: &[u8], max_runes: usize) -> String {
    let mut out = String::with_capacity(bytes.len() + 2);
    out.push('"');
    let mut rest = bytes;
    let mut runes = 0;
    while !rest.is_empty() && runes < max_runes {
        runes += 1;
        let (ch, width) = decode_rune(rest);
        match ch {
            None => {
                let _ = write!(out, "\\x{:02x}", rest[0]);
            }
            Some(c) => push_quoted_char(&mut out, c, '"'),
        }
        rest = &rest[width..];
    }
    out.push('"');
    out
}

/// Sorts `order` (indices) by `key(index)` in byte order, ties by index, so the result is what
/// a stable sort of the keyed items gives. Every key sort of the crate goes through this one
/// function: each `sort_by` closure compiles its own copy of the standard sort (3–4 KB of
/// wasm each), and the default wasm module has a size budget.
pub(crate) fn sort_by_text<'a>(order: &mut [u32], key: &dyn Fn(usize) -> &'a str) {
    order.sort_unstable_by(|&a, &b| cmp_text(key(a as usize), key(b as usize)).then(a.cmp(&b)));
}

/// `0, 1, …, len - 1` as sort indices.
pub(crate) fn indices(len: usize) -> alloc::vec::Vec<u32> {
    (0..len as u32).collect()
}

/// Byte offset of the first `needle` in `haystack`. For the short needles of layouts (`{tool}`,
/// join separators) a scan on the first byte is enough, and it keeps `str::find`'s searcher
/// (two-way matching, a few KB of wasm) out of the modules.
pub(crate) fn find(haystack: &str, needle: &str) -> Option<usize> {
    let (hay, pattern) = (haystack.as_bytes(), needle.as_bytes());
    let Some((&first, rest)) = pattern.split_first() else {
        return Some(0);
    };
    let mut from = 0;
    while let Some(i) = memchr::memchr(first, &hay[from..]) {
        let at = from + i;
        if hay[at + 1..].starts_with(rest) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Go `%q` of a whole string: how error messages quote input text, as the Go references do.
pub(crate) fn quote(text: &str) -> String {
    go_quote(text.as_bytes(), usize::MAX)
}

/// Go `%q` of a single rune (`'x'`, `'\n'`, `'\u00a0'`), as `encoding/json` quotes characters.
pub(crate) fn go_quote_char(c: char) -> String {
    let mut out = String::from("'");
    push_quoted_char(&mut out, c, '\'');
    out.push('\'');
    out
}

fn push_quoted_char(out: &mut String, c: char, quote: char) {
    if c == quote || c == '\\' {
        out.push('\\');
        out.push(c);
        return;
    }
    if is_printable(c) {
        out.push(c);
        return;
    }
    let _ = match c {
        '\u{07}' => write!(out, "\\a"),
        '\u{08}' => write!(out, "\\b"),
        '\u{0c}' => write!(out, "\\f"),
        '\n' => write!(out, "\\n"),
        '\r' => write!(out, "\\r"),
        '\t' => write!(out, "\\t"),
        '\u{0b}' => write!(out, "\\v"),
        c if (c as u32) < 0x20 || c as u32 == 0x7f => write!(out, "\\x{:02x}", c as u32),
        c if (c as u32) < 0x10000 => write!(out, "\\u{:04x}", c as u32),
        c => write!(out, "\\U{:08x}", c as u32),
    };
}

/// Decodes one UTF-8 scalar; `None` (width 1) for an invalid or truncated sequence.
fn decode_rune(bytes: &[u8]) -> (Option<char>, usize) {
    let width = match bytes[0] {
        0x00..=0x7f => 1,
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return (None, 1),
    };
    match bytes.get(..width).map(core::str::from_utf8) {
        Some(Ok(s)) => (s.chars().next(), width),
        _ => (None, 1),
    }
}

/// Go `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and ASCII space. Python's
/// `str.isprintable()` draws the same line (no `C*` or `Z*` category but the space).
pub(crate) fn is_printable(c: char) -> bool {
    let u = c as u32;
    if u < 0x80 {
        return (0x20..0x7f).contains(&u);
    }
    !matches!(u,
        0x80..=0xa0 | 0xad
        | 0x600..=0x605 | 0x61c | 0x6dd | 0x70f | 0x890..=0x891 | 0x8e2
        | 0x1680 | 0x180e
        | 0x2000..=0x200f | 0x2028..=0x202f | 0x205f..=0x2064 | 0x2066..=0x206f
        | 0x3000
        | 0xd800..=0xf8ff
        | 0xfeff | 0xfff9..=0xfffb | 0xfffe..=0xffff
        | 0x110bd | 0x110cd | 0x13430..=0x1343f | 0x1bca0..=0x1bca3 | 0x1d173..=0x1d17a
        | 0xe0001 | 0xe0020..=0xe007f
        | 0xf0000..=0x10ffff
    )
}

/// `text.split(separator)` for an ASCII separator, scanning bytes: faster than the `char`
/// pattern on the short pieces of a header line, and the same pieces.
pub(crate) fn split_ascii(text: &str, separator: u8) -> impl Iterator<Item = &str> {
    debug_assert!(separator.is_ascii());
    let mut rest = Some(text);
    core::iter::from_fn(move || {
        let piece = rest?;
        match piece.bytes().position(|b| b == separator) {
            Some(at) => {
                rest = Some(&piece[at + 1..]);
                Some(&piece[..at])
            }
            None => {
                rest = None;
                Some(piece)
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn split_ascii_is_str_split() {
        for text in ["", ",", "a", "a,", ",a", "a,,b", "é,😀,", ",,,", "x,y,z"] {
            let ours: Vec<&str> = split_ascii(text, b',').collect();
            let std: Vec<&str> = text.split(',').collect();
            assert_eq!(ours, std, "{text:?}");
        }
    }

    #[test]
    fn cmp_text_is_byte_order() {
        let texts = [
            "",
            "a",
            "b",
            "ab",
            "abcdefgh",
            "abcdefgi",
            "abcdefgh\u{0}",
            "abcdefghabcdefgh",
            "abcdefghabcdefgX",
            "Z",
            "é",
            "\u{ff5a}",
            "\u{1f600}",
            "id",
            "kind",
            "line",
        ];
        for a in texts {
            for b in texts {
                assert_eq!(
                    cmp_text(a, b),
                    a.as_bytes().cmp(b.as_bytes()),
                    "{a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn same_text_is_equality() {
        let texts = [
            "",
            "a",
            "b",
            "abcdefg",
            "abcdefX",
            "abcdefgh",
            "abcdefghi",
            "abcdefghabcdefgh",
            "abcdefghabcdefgX",
            "Xbcdefghabcdefgh",
            "abcdefghabcdefghi",
            "é",
            "e\u{301}",
        ];
        for a in texts {
            for b in texts {
                assert_eq!(same_text(a, b), a == b, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn quotes_like_go() {
        assert_eq!(go_quote(b"GCX2 tool=x fields=a", 10), r#""GCX2 tool=""#);
        assert_eq!(go_quote(b"", 10), r#""""#);
        assert_eq!(
            go_quote("\u{feff}GCX1 tool=x".as_bytes(), 10),
            r#""\ufeffGCX1 tool""#
        );
        assert_eq!(go_quote(b"-like\tvalue", usize::MAX), r#""-like\tvalue""#);
        assert_eq!(
            go_quote("a\u{a0}\"\\é😀".as_bytes(), 99),
            r#""a\u00a0\"\\é😀""#
        );
        assert_eq!(go_quote(b"\x00\x7f\xff", 99), r#""\x00\x7f\xff""#);
        assert_eq!(go_quote_char('\''), r"'\''");
    }
}
