//! The GCX1 value escaper and its inverse (gcx-go `escape.go`).

use alloc::borrow::Cow;
use alloc::string::String;

/// Appends `s` escaped: `\` → `\\`, TAB → `\t`, LF → `\n`, CR dropped, all else copied.
pub fn escape_into(out: &mut String, s: &str) {
    let bytes = s.as_bytes();
    let mut run_start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let replacement = match b {
            b'\\' => "\\\\",
            b'\t' => "\\t",
            b'\n' => "\\n",
            b'\r' => "",
            _ => continue,
        };
        out.push_str(&s[run_start..i]);
        out.push_str(replacement);
        run_start = i + 1;
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
}
