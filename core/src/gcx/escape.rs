//! The GCX1 value escaper and its inverse (gcx-go `escape.go`).
//!
//! ```
//! use agentwire::gcx::escape::{escape, unescape};
//! assert_eq!(escape("a\tb\nc\\"), "a\\tb\\nc\\\\");
//! assert_eq!(unescape("a\\tb"), "a\tb");
//! ```

use alloc::borrow::Cow;
use alloc::string::String;

use crate::text::{has_byte, has_byte_below, skip_words};

/// Appends `s` escaped: `\` → `\\`, TAB → `\t`, LF → `\n`, CR dropped, all else copied.
///
/// ```
/// use agentwire::gcx::escape::escape_into;
/// let mut line = String::from("note=");
/// escape_into(&mut line, "two\tcols\r\n");
/// assert_eq!(line, "note=two\\tcols\\n");
/// ```
pub fn escape_into(out: &mut String, s: &str) {
    let bytes = s.as_bytes();
    match first_special(bytes) {
        // The common case: nothing to escape.
        None => out.push_str(s),
        Some(first) => escape_from(out, s, first),
    }
}

/// [`escape_into`] from the first byte that changes.
#[inline(never)]
fn escape_from(out: &mut String, s: &str, first: usize) {
    let bytes = s.as_bytes();
    let mut run_start = 0;
    let mut i = first;
    while i < bytes.len() {
        // Runs without TAB, LF, CR (all below 0x0E) or backslash are copied whole.
        i = skip_words(bytes, i, may_be_special);
        let Some(&b) = bytes.get(i) else { break };
        // The escaped character, pushed as chars (no copy call for two bytes).
        let replacement = match b {
            b'\\' => Some('\\'),
            b'\t' => Some('t'),
            b'\n' => Some('n'),
            b'\r' => None,
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(&s[run_start..i]);
        if let Some(c) = replacement {
            out.push('\\');
            out.push(c);
        }
        i += 1;
        run_start = i;
    }
    out.push_str(&s[run_start..]);
}

/// Whether an 8-byte word may hold TAB, LF, CR (all below 0x0E) or a backslash.
fn may_be_special(word: u64) -> bool {
    has_byte_below(word, 0x0E) || has_byte(word, b'\\')
}

/// The index of the first byte [`escape_into`] changes, if any. Eight bytes at a time (the
/// last word overlapping the one before); texts under eight bytes byte by byte.
fn first_special(bytes: &[u8]) -> Option<usize> {
    let is_special = |b: &u8| matches!(b, b'\\' | b'\t' | b'\n' | b'\r');
    let n = bytes.len();
    if n < 8 {
        if n < 4 {
            return bytes.iter().position(is_special);
        }
        // The first and the last four bytes (overlapping) as one word.
        let half = |at: usize| {
            let mut w = [0u8; 4];
            w.copy_from_slice(&bytes[at..at + 4]);
            u64::from(u32::from_le_bytes(w))
        };
        if !may_be_special(half(0) | half(n - 4) << 32) {
            return None;
        }
        return bytes.iter().position(is_special);
    }
    let word = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(w)
    };
    let mut at = 0;
    while at + 8 <= n {
        if may_be_special(word(at))
            && let Some(i) = bytes[at..at + 8].iter().position(is_special)
        {
            return Some(at + i);
        }
        at += 8;
    }
    if at < n && may_be_special(word(n - 8)) {
        return bytes[at..].iter().position(is_special).map(|i| at + i);
    }
    None
}

/// `s` escaped (see [`escape_into`]).
///
/// ```
/// use agentwire::gcx::escape::escape;
/// assert_eq!(escape("C:\\tmp\tx"), "C:\\\\tmp\\tx");
/// assert_eq!(escape("plain"), "plain");
/// ```
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    escape_into(&mut out, s);
    out
}

/// True when [`escape`] would change `s`.
///
/// ```
/// use agentwire::gcx::escape::needs_escape;
/// assert!(needs_escape("a\tb"));
/// assert!(!needs_escape("a b"));
/// ```
pub fn needs_escape(s: &str) -> bool {
    s.bytes()
        .any(|b| matches!(b, b'\\' | b'\t' | b'\n' | b'\r'))
}

/// The decoder's inverse: `\\` → `\`, `\t` → TAB, `\n` → LF, `\` + any other character →
/// that character, and a backslash that ends the text is kept. Borrows when there is no
/// backslash.
///
/// ```
/// use agentwire::gcx::escape::unescape;
/// use std::borrow::Cow;
/// assert_eq!(unescape("a\\tb\\\\c\\x"), "a\tb\\cx");
/// assert!(matches!(unescape("no escapes"), Cow::Borrowed("no escapes")));
/// ```
pub fn unescape(s: &str) -> Cow<'_, str> {
    let bytes = s.as_bytes();
    let Some(mut at) = memchr::memchr(b'\\', bytes) else {
        return Cow::Borrowed(s);
    };
    let mut out = String::with_capacity(s.len());
    // `run` starts the text not yet copied; `at` is the backslash that ends it. A backslash is
    // one byte, so both are character boundaries, and an escaped multi-byte character is
    // copied with the next run.
    let mut run = 0;
    loop {
        out.push_str(&s[run..at]);
        run = match bytes.get(at + 1) {
            Some(b't') => {
                out.push('\t');
                at + 2
            }
            Some(b'n') => {
                out.push('\n');
                at + 2
            }
            Some(_) => at + 1,
            None => {
                out.push('\\');
                return Cow::Owned(out);
            }
        };
        // The escaped character itself (even a backslash) starts no escape.
        match memchr::memchr(b'\\', &bytes[at + 2..]) {
            Some(next) => at += 2 + next,
            None => {
                out.push_str(&s[run..]);
                return Cow::Owned(out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn escape_and_unescape() {
        assert_eq!(escape("a\r\nb\rc"), "a\\nbc");
        assert_eq!(escape("\\\t\n"), "\\\\\\t\\n");
        assert_eq!(unescape("\\x\\r\\0\\ \\,"), "xr0 ,");
        assert_eq!(unescape("abc\\"), "abc\\");
        assert_eq!(unescape("\\\\t"), "\\t");
        assert_eq!(unescape("\\é\\😀"), "é😀");
        assert!(matches!(unescape("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn unescape_runs_match_char_by_char() {
        let naive = |s: &str| -> String {
            let mut out = String::new();
            let mut chars = s.chars();
            while let Some(c) = chars.next() {
                if c != '\\' {
                    out.push(c);
                    continue;
                }
                match chars.next() {
                    Some('t') => out.push('\t'),
                    Some('n') => out.push('\n'),
                    Some(other) => out.push(other),
                    None => out.push('\\'),
                }
            }
            out
        };
        // Every string of up to five of these characters (9,331 of them).
        let alphabet = ['\\', 't', 'n', 'a', 'é', '😀'];
        let mut strings = alloc::vec![String::new()];
        let mut last = strings.clone();
        for _ in 0..5 {
            last = last
                .iter()
                .flat_map(|s| alphabet.iter().map(move |&c| alloc::format!("{s}{c}")))
                .collect();
            strings.extend(last.iter().cloned());
        }
        assert_eq!(strings.len(), 9331);
        for s in &strings {
            assert_eq!(unescape(s), naive(s), "{s:?}");
        }
    }

    #[test]
    fn word_at_a_time_scan_sees_every_position() {
        let naive = |s: &str| -> String {
            s.chars()
                .filter(|&c| c != '\r')
                .map(|c| match c {
                    '\\' => "\\\\".into(),
                    '\t' => "\\t".into(),
                    '\n' => "\\n".into(),
                    c => c.to_string(),
                })
                .collect()
        };
        for len in 0..20 {
            for at in 0..len {
                for special in ['\\', '\t', '\n', '\r', '\u{b}', 'é', '\u{7f}'] {
                    let s: String = (0..len)
                        .map(|i| if i == at { special } else { 'a' })
                        .collect();
                    assert_eq!(escape(&s), naive(&s), "{s:?}");
                }
            }
        }
    }
}
