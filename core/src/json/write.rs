use alloc::string::String;
use core::fmt::Write;

use super::Value;
use crate::Result;

/// How [`write`] renders a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// Sort object members by key bytes (Go `encoding/json` of a map) instead of input order.
    pub sort_keys: bool,
    /// Escape `<`, `>` and `&` as `\u003c`, `\u003e`, `\u0026` (Go's default HTML escaping).
    pub escape_html: bool,
}

impl WriteOptions {
    /// Go `json.Marshal` of a `map[string]any`: sorted keys, HTML escaping.
    pub const GO: WriteOptions = WriteOptions {
        sort_keys: true,
        escape_html: true,
    };
    /// Compact JSON in input order without HTML escaping.
    pub const PLAIN: WriteOptions = WriteOptions {
        sort_keys: false,
        escape_html: false,
    };
}

/// Appends `value` as compact JSON. Strings are escaped as Go's `encoding/json` does
/// (`\b \f \n \r \t` short forms, other controls as `\u00XX`, U+2028/U+2029 escaped);
/// numbers use Go's float rule; NaN and ±Infinity are an error.
pub fn write(out: &mut String, value: &Value, options: WriteOptions) -> Result<()> {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => n.write_json(out)?,
        Value::String(s) => write_string(out, s, options.escape_html),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(out, item, options)?;
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            if options.sort_keys {
                for (i, (key, item)) in map.sorted().into_iter().enumerate() {
                    write_member(out, i, key, item, options)?;
                }
            } else {
                for (i, (key, item)) in map.iter().enumerate() {
                    write_member(out, i, key, item, options)?;
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
) -> Result<()> {
    if index > 0 {
        out.push(',');
    }
    write_string(out, key, options.escape_html);
    out.push(':');
    write(out, value, options)
}

/// Compact JSON text of `value` (see [`write`]).
pub fn to_string(value: &Value, options: WriteOptions) -> Result<String> {
    let mut out = String::new();
    write(&mut out, value, options)?;
    Ok(out)
}

/// Appends `s` as a JSON string literal with Go's escaping.
pub fn write_string(out: &mut String, s: &str, escape_html: bool) {
    out.push('"');
    let bytes = s.as_bytes();
    let mut run_start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape: Option<&str> = match b {
            b'"' => Some("\\\""),
            b'\\' => Some("\\\\"),
            b'\n' => Some("\\n"),
            b'\r' => Some("\\r"),
            b'\t' => Some("\\t"),
            0x08 => Some("\\b"),
            0x0c => Some("\\f"),
            b'<' if escape_html => Some("\\u003c"),
            b'>' if escape_html => Some("\\u003e"),
            b'&' if escape_html => Some("\\u0026"),
            // U+2028 / U+2029 are E2 80 A8 / E2 80 A9.
            0xE2 if bytes.get(i + 1) == Some(&0x80)
                && matches!(bytes.get(i + 2), Some(0xA8 | 0xA9)) =>
            {
                Some(if bytes[i + 2] == 0xA8 {
                    "\\u2028"
                } else {
                    "\\u2029"
                })
            }
            _ if b < 0x20 => None,
            _ => continue,
        };
        out.push_str(&s[run_start..i]);
        match escape {
            Some(text) => out.push_str(text),
            None => {
                let _ = write!(out, "\\u{:04x}", b);
            }
        }
        run_start = if matches!(escape, Some("\\u2028" | "\\u2029")) {
            i + 3
        } else {
            i + 1
        };
    }
    out.push_str(&s[run_start..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

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
    fn non_finite_is_an_error() {
        let v = parse("[1e400]").unwrap();
        assert_eq!(
            to_string(&v, WriteOptions::GO).unwrap_err().code(),
            "NON_FINITE_NUMBER"
        );
    }
}
