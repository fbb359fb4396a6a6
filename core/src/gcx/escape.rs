//! The GCX1 value escaper and its inverse (gcx-go `escape.go`).

use alloc::borrow::Cow;
use alloc::string::String;

use crate::text::{has_byte, has_byte_below, skip_words};

/// Appends `s` escaped: `\` → `\\`, TAB → `\t`, LF → `\n`, CR dropped, all else copied.
pub fn escape_into(out: &mut String, s: &str) {
    let bytes = s.as_bytes();
    let mut run_start = 0;
    let mut i = 0;
    while i < bytes.len() {
        // Runs without TAB, LF, CR (all below 0x0E) or backslash are copied whole.
        i = skip_words(bytes, i, |w| has_byte_below(w, 0x0E) || has_byte(w, b'\\'));
        let Some(&b) = bytes.get(i) else { break };
        let replacement = match b {
            b'\\' => "\\\\",
            b'\t' => "\\t",
            b'\n' => "\\n",
            b'\r' => "",
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(&s[run_start..i]);
        out.push_str(replacement);
        i += 1;
        run_start = i;
    }
    out.push_str(&s[run_start..]);
}

/// `s` escaped (see [`escape_into`]).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    escape_into(&mut out, s);
    out
}

/// True when [`escape`] would change `s`.
pub fn needs_escape(s: &str) -> bool {
    s.bytes()
        .any(|b| matches!(b, b'\\' | b'\t' | b'\n' | b'\r'))
}

/// The decoder's inverse: `\\` → `\`, `\t` → TAB, `\n` → LF, `\` + any other character →
/// that character, and a backslash that ends the text is kept. Borrows when there is no
/// backslash.
pub fn unescape(s: &str) -> Cow<'_, str> {
    let Some(first) = s.find('\\') else {
        return Cow::Borrowed(s);
    };
    let mut out = String::with_capacity(s.len());
    out.push_str(&s[..first]);
    let mut chars = s[first..].chars();
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
    Cow::Owned(out)
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
