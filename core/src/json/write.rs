use alloc::string::String;

use super::Value;
use crate::Result;
use crate::text::{cmp_text, has_byte, has_byte_below, has_non_ascii, skip_words, sort_by_text};

/// How [`write`](fn@write) renders a value.
///
/// ```
/// use agentwire::json::{self, WriteOptions};
/// let value = json::parse(r#"{"b":"<i>","a":1}"#)?;
/// let options = WriteOptions { sort_keys: true, escape_html: false };
/// assert_eq!(json::to_string(&value, options)?, r#"{"a":1,"b":"<i>"}"#);
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// Sort object members by key bytes (Go `encoding/json` of a map) instead of input order.
    pub sort_keys: bool,
    /// Escape `<`, `>` and `&` as `\u003c`, `\u003e`, `\u0026` (Go's default HTML escaping).
    pub escape_html: bool,
}

impl WriteOptions {
    /// Go `json.Marshal` of a `map[string]any`: sorted keys, HTML escaping.
    ///
    /// ```
    /// use agentwire::json::{self, WriteOptions};
    /// let value = json::parse(r#"{"q":"a&b","id":7}"#)?;
    /// assert_eq!(json::to_string(&value, WriteOptions::GO)?, r#"{"id":7,"q":"a\u0026b"}"#);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub const GO: WriteOptions = WriteOptions {
        sort_keys: true,
        escape_html: true,
    };
    /// Compact JSON in input order without HTML escaping.
    ///
    /// ```
    /// use agentwire::json::{self, WriteOptions};
    /// let value = json::parse(r#"{"q":"a&b","id":7}"#)?;
    /// assert_eq!(json::to_string(&value, WriteOptions::PLAIN)?, r#"{"q":"a&b","id":7}"#);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub const PLAIN: WriteOptions = WriteOptions {
        sort_keys: false,
        escape_html: false,
    };
}

/// Appends `value` as compact JSON. Strings are escaped as Go's `encoding/json` does
/// (`\b \f \n \r \t` short forms, other controls as `\u00XX`, U+2028/U+2029 escaped);
/// numbers use Go's float rule; NaN and ±Infinity are an error.
///
/// ```
/// use agentwire::json::{self, Number, Value, WriteOptions};
/// let mut out = String::from("data: ");
/// json::write(&mut out, &json::parse("[1e21, \"tab\\there\"]")?, WriteOptions::PLAIN)?;
/// assert_eq!(out, r#"data: [1e+21,"tab\there"]"#);
/// let nan = Value::Number(Number::from_f64(f64::NAN));
/// assert_eq!(json::write(&mut out, &nan, WriteOptions::PLAIN).unwrap_err().code(), "NON_FINITE_NUMBER");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn write(out: &mut String, value: &Value, options: WriteOptions) -> Result<()> {
    write_value(out, value, options, Style::JSON)
}

/// Appends `value` as JavaScript's `JSON.stringify` writes it: input order, no HTML escaping,
/// U+2028/U+2029 as they are, `-0` as `0` (token counts of "the JSON a JS agent sees").
///
/// ```
/// let value = agentwire::json::parse(r#"{"a":-0.0,"s":"\u2028<"}"#)?;
/// let mut out = String::new();
/// agentwire::json::write_ecmascript(&mut out, &value)?;
/// assert_eq!(out, "{\"a\":0,\"s\":\"\u{2028}<\"}");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn write_ecmascript(out: &mut String, value: &Value) -> Result<()> {
    write_value(out, value, WriteOptions::PLAIN, Style::ECMASCRIPT)
}

/// [`write`] with [`WriteOptions::GO`], then every backslash doubled (the GCX1 row escape of
/// JSON text, which holds no TAB, LF or CR), in one pass.
pub(crate) fn write_row_escaped(out: &mut String, value: &Value) -> Result<()> {
    write_value(out, value, WriteOptions::GO, Style::ROW_ESCAPED)
}

/// How escapes are written beyond [`WriteOptions`].
#[derive(Clone, Copy, PartialEq, Eq)]
struct Style {
    /// Every escape's backslash doubled (GCX1 rows).
    doubled_backslash: bool,
    /// `JSON.stringify`'s rules: U+2028/U+2029 unescaped, `-0` as `0`.
    ecmascript: bool,
}

impl Style {
    const JSON: Style = Style {
        doubled_backslash: false,
        ecmascript: false,
    };
    const ROW_ESCAPED: Style = Style {
        doubled_backslash: true,
        ecmascript: false,
    };
    const ECMASCRIPT: Style = Style {
        doubled_backslash: false,
        ecmascript: true,
    };
}

fn write_value(out: &mut String, value: &Value, options: WriteOptions, style: Style) -> Result<()> {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) if style.ecmascript && n.as_f64() == 0.0 => out.push('0'),
        Value::Number(n) => n.write_json(out)?,
        Value::String(s) => write_string_escaped(out, s, options.escape_html, style),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item, options, style)?;
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            // Keys already in byte order (common) are written without sorting a copy.
            let sorted = || {
                map.entries()
                    .windows(2)
                    .all(|w| cmp_text(&w[0].0, &w[1].0).is_lt())
            };
            let entries = map.entries();
            if options.sort_keys && !sorted() {
                if entries.len() <= SMALL_OBJECT {
                    // The order as indices on the stack (no allocation for small objects).
                    let mut order = [0u32; SMALL_OBJECT];
                    for (i, slot) in order.iter_mut().enumerate() {
                        *slot = i as u32;
                    }
                    let order = &mut order[..entries.len()];
                    sort_by_text(order, &|i| &entries[i].0);
                    for (i, &j) in order.iter().enumerate() {
                        let (key, item) = &entries[j as usize];
                        write_member(out, i, key, item, options, style)?;
                    }
                } else {
                    for (i, (key, item)) in map.sorted().into_iter().enumerate() {
                        write_member(out, i, key, item, options, style)?;
                    }
                }
            } else {
                for (i, (key, item)) in map.iter().enumerate() {
                    write_member(out, i, key, item, options, style)?;
                }
            }
            out.push('}');
        }
    }
    Ok(())
}

fn write_member(
    out: &mut String,
    index: usize,
    key: &str,
    value: &Value,
    options: WriteOptions,
    style: Style,
) -> Result<()> {
    if index > 0 {
        out.push(',');
    }
    write_string_escaped(out, key, options.escape_html, style);
    out.push(':');
    write_value(out, value, options, style)
}

/// Objects up to this size are sorted on the stack.
const SMALL_OBJECT: usize = 32;

/// Compact JSON text of `value` (see [`write`](fn@write)).
///
/// ```
/// use agentwire::json::{self, Value, WriteOptions};
/// let value = Value::Array(vec![Value::from("x"), Value::Bool(false), Value::Null]);
/// assert_eq!(json::to_string(&value, WriteOptions::PLAIN)?, r#"["x",false,null]"#);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn to_string(value: &Value, options: WriteOptions) -> Result<String> {
    let mut out = String::new();
    write(&mut out, value, options)?;
    Ok(out)
}

/// Bytes that may need escaping: controls, `"`, `\\`, the HTML characters and the lead byte
/// of U+2028/U+2029. Everything else is copied as is.
const MAY_ESCAPE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table[b'<' as usize] = true;
    table[b'>' as usize] = true;
    table[b'&' as usize] = true;
    table[0xE2] = true;
    table
};

/// Appends `s` as a JSON string literal with Go's escaping.
///
/// ```
/// let mut out = String::new();
/// agentwire::json::write_string(&mut out, "a<b>\n\u{2028}", true);
/// assert_eq!(out, r#""a\u003cb\u003e\n\u2028""#);
/// ```
pub fn write_string(out: &mut String, s: &str, escape_html: bool) {
    write_string_escaped(out, s, escape_html, Style::JSON);
}

fn write_string_escaped(out: &mut String, s: &str, escape_html: bool, style: Style) {
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    let may_escape = |b: &u8| MAY_ESCAPE[usize::from(*b)];
    // Most strings (keys, names, paths) have nothing to escape: find the first byte that
    // may need it, testing eight bytes at a time (the last word overlapping, or two four-byte
    // halves for short strings), and copy the whole string when there is none.
    let word_may_escape = |w: u64| {
        has_byte_below(w, 0x20)
            || has_byte(w, b'"')
            || has_byte(w, b'\\')
            || has_non_ascii(w)
            || (escape_html && (has_byte(w, b'<') || has_byte(w, b'>') || has_byte(w, b'&')))
    };
    let n = bytes.len();
    let first = if n < 4 {
        bytes.iter().position(may_escape)
    } else if n < 8 {
        let half = |at: usize| {
            let mut w = [0u8; 4];
            w.copy_from_slice(&bytes[at..at + 4]);
            u64::from(u32::from_le_bytes(w))
        };
        if word_may_escape(half(0) | half(n - 4) << 32) {
            bytes.iter().position(may_escape)
        } else {
            None
        }
    } else {
        let at = skip_words(bytes, 0, word_may_escape);
        let tail = if at + 8 > n && at < n {
            // The last partial word, overlapping the one before.
            let mut w = [0u8; 8];
            w.copy_from_slice(&bytes[n - 8..]);
            word_may_escape(u64::from_le_bytes(w))
        } else {
            at < n
        };
        if tail {
            bytes[at..].iter().position(may_escape).map(|p| at + p)
        } else {
            None
        }
    };
    let Some(first) = first else {
        out.push_str(s);
        out.push('"');
        return;
    };
    let mut run_start = 0;
    let mut i = first;
    while i < bytes.len() {
        // Plain ASCII runs are skipped eight bytes at a time.
        i = skip_words(bytes, i, |w| {
            has_byte_below(w, 0x20)
                || has_byte(w, b'"')
                || has_byte(w, b'\\')
                || has_non_ascii(w)
                || (escape_html && (has_byte(w, b'<') || has_byte(w, b'>') || has_byte(w, b'&')))
        });
        let Some(&b) = bytes.get(i) else { break };
        if !MAY_ESCAPE[b as usize] {
            i += 1;
            continue;
        }
        let escape: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            b'<' if escape_html => "\\u003c",
            b'>' if escape_html => "\\u003e",
            b'&' if escape_html => "\\u0026",
            // U+2028 / U+2029 are E2 80 A8 / E2 80 A9.
            0xE2 if style.ecmascript => {
                i += 1;
                continue;
            }
            0xE2 if bytes.get(i + 1) == Some(&0x80) && bytes.get(i + 2) == Some(&0xA8) => "\\u2028",
            0xE2 if bytes.get(i + 1) == Some(&0x80) && bytes.get(i + 2) == Some(&0xA9) => "\\u2029",
            _ if b < 0x20 => "",
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(&s[run_start..i]);
        if style.doubled_backslash {
            // Every escape starts with a backslash; `\\` has a second one.
            out.push('\\');
            if b == b'\\' {
                out.push('\\');
            }
        }
        if escape.is_empty() {
            // A control character: \u00XX, lower-case hex.
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        } else {
            out.push_str(escape);
        }
        i += if b == 0xE2 { 3 } else { 1 };
        run_start = i;
    }
    out.push_str(&s[run_start..]);
    out.push('"');
}

/// The length of what [`write_string`] writes for `s` (quotes included), without writing it.
///
/// ```
/// use agentwire::json::{string_len, write_string};
/// let mut out = String::new();
/// write_string(&mut out, "é\t<", true);
/// assert_eq!(string_len("é\t<", true), out.len());
/// assert_eq!(string_len("é\t<", false), 7);
/// ```
pub fn string_len(s: &str, escape_html: bool) -> usize {
    let bytes = s.as_bytes();
    let mut len = bytes.len() + 2;
    for (i, &b) in bytes.iter().enumerate() {
        if MAY_ESCAPE[b as usize] {
            len += match b {
                b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 1,
                b'<' | b'>' | b'&' if escape_html => 5,
                // U+2028 / U+2029: three bytes become six.
                0xE2 if bytes.get(i + 1) == Some(&0x80)
                    && matches!(bytes.get(i + 2), Some(0xA8 | 0xA9)) =>
                {
                    3
                }
                _ if b < 0x20 => 5,
                _ => 0,
            };
        }
    }
    len
}

#[cfg(test)]
mod tests {
    #[test]
    fn string_len_is_what_write_string_writes() {
        let samples = [
            "",
            "plain",
            "q\"b\\s",
            "\n\r\t\u{8}\u{c}",
            "\u{0}\u{1f}\u{7f}",
            "<b>&",
            "\u{2028}x\u{2029}",
            "\u{e2}\u{80}",
            "é漢😀",
            "\u{fffd}",
        ];
        for s in samples {
            for html in [false, true] {
                let mut out = alloc::string::String::new();
                super::write_string(&mut out, s, html);
                assert_eq!(super::string_len(s, html), out.len(), "{s:?} html={html}");
            }
        }
    }

    use super::*;
    use crate::json::parse;

    #[test]
    fn word_at_a_time_scan_sees_every_position() {
        // Escaping is per character, so a string must escape as its characters one by one
        // (single characters never take the eight-byte path).
        let one_by_one = |s: &str, html: bool| -> String {
            let mut out = String::from("\"");
            for c in s.chars() {
                let mut piece = String::new();
                write_string(&mut piece, c.encode_utf8(&mut [0; 4]), html);
                out.push_str(&piece[1..piece.len() - 1]);
            }
            out.push('"');
            out
        };
        for len in 0..20 {
            for at in 0..len {
                for special in [
                    '"', '\\', '\n', '\u{1}', '\u{1f}', '<', '&', '\u{2028}', 'é', '~',
                ] {
                    let s: String = (0..len)
                        .map(|i| if i == at { special } else { 'a' })
                        .collect();
                    for html in [false, true] {
                        let mut out = String::new();
                        write_string(&mut out, &s, html);
                        assert_eq!(out, one_by_one(&s, html), "{s:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn go_compact_output() {
        let v =
            parse(r#"{"z":1,"a":"<b>&","m":{"y":[],"b":{}},"s":"\u2028\u2029\u007f\u0001\b\f"}"#)
                .unwrap();
        assert_eq!(
            to_string(&v, WriteOptions::GO).unwrap(),
            "{\"a\":\"\\u003cb\\u003e\\u0026\",\"m\":{\"b\":{},\"y\":[]},\"s\":\"\\u2028\\u2029\u{7f}\\u0001\\b\\f\",\"z\":1}"
        );
        assert_eq!(
            to_string(&v, WriteOptions::PLAIN).unwrap(),
            "{\"z\":1,\"a\":\"<b>&\",\"m\":{\"y\":[],\"b\":{}},\"s\":\"\\u2028\\u2029\u{7f}\\u0001\\b\\f\"}"
        );
    }

    #[test]
    fn row_escaped_doubles_every_backslash() {
        let v = parse(r#"{"b":"q\"\\ \n\t\u0001<\u2028","a":[1,"\r"]}"#).unwrap();
        let mut doubled = String::new();
        write_row_escaped(&mut doubled, &v).unwrap();
        let single = to_string(&v, WriteOptions::GO).unwrap();
        assert_eq!(doubled, single.replace('\\', "\\\\"));
        assert_eq!(
            doubled,
            r#"{"a":[1,"\\r"],"b":"q\\"\\\\ \\n\\t\\u0001\\u003c\\u2028"}"#
        );
    }

    #[test]
    fn non_finite_is_an_error() {
        let v = parse("[1e400]").unwrap();
        assert_eq!(
            to_string(&v, WriteOptions::GO).unwrap_err().code(),
            "NON_FINITE_NUMBER"
        );
    }
}
