//! Python's text conventions the gateway reference shows on the wire: `repr()` of strings in
//! messages, `str.isspace()`, float `repr()`, and `json.dumps` with `ensure_ascii`.

use alloc::string::String;
use core::fmt::Write;

use crate::json::{Number, Value};
use crate::text::is_printable;

/// Python `str.isspace()`: Unicode White_Space plus the separators U+001C–U+001F.
///
/// ```
/// use agentwire::gateway::pytext::is_space;
/// assert!(is_space('\u{1f}') && is_space('\u{a0}'));
/// assert!(!is_space('\u{200b}')); // ZERO WIDTH SPACE is not white space
/// ```
pub fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python `str.rstrip()`.
///
/// ```
/// assert_eq!(agentwire::gateway::pytext::rstrip("Reads a file. \u{1c}\n"), "Reads a file.");
/// ```
pub fn rstrip(text: &str) -> &str {
    text.trim_end_matches(is_space)
}

/// Python `repr()` of a string: single quotes unless the text holds `'` and no `"`,
/// backslash escapes for the quote, `\\`, `\t \n \r`, `\xNN`/`\uNNNN`/`\UNNNNNNNN` for
/// non-printable characters; printable non-ASCII stays as it is.
///
/// ```
/// use agentwire::gateway::pytext::repr;
/// assert_eq!(repr("fs:read"), "'fs:read'");
/// assert_eq!(repr("it's"), r#""it's""#);
/// assert_eq!(repr("a\u{7}b\u{200b}é"), r"'a\x07b\u200bé'");
/// ```
pub fn repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if is_printable(c) => out.push(c),
            c if (c as u32) < 0x100 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push(quote);
    out
}

/// Python `repr()` of a float: the shortest round-trip digits, fixed notation with `.0` for
/// integral values when 1e-4 ≤ |x| < 1e16, otherwise `1e-05` / `1e+16` style.
///
/// ```
/// use agentwire::gateway::pytext::float_repr;
/// assert_eq!(float_repr(2.0), "2.0");
/// assert_eq!(float_repr(0.0001), "0.0001");
/// assert_eq!(float_repr(0.00001), "1e-05");
/// assert_eq!(float_repr(1e16), "1e+16");
/// ```
pub fn float_repr(v: f64) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let mut sci = String::new();
    let _ = write!(sci, "{v:e}");
    // `{:e}` gives d[.ddd]e[-]x: split digits and exponent.
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    if v == 0.0 {
        out.push_str("0.0");
        return out;
    }
    if (-4..16).contains(&exp) {
        let point = exp + 1;
        let nd = digits.len() as i32;
        if point <= 0 {
            out.push_str("0.");
            for _ in 0..-point {
                out.push('0');
            }
            out.push_str(&digits);
        } else if point >= nd {
            out.push_str(&digits);
            for _ in 0..point - nd {
                out.push('0');
            }
            out.push_str(".0");
        } else {
            out.push_str(&digits[..point as usize]);
            out.push('.');
            out.push_str(&digits[point as usize..]);
        }
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(
            out,
            "e{}{:02}",
            if exp < 0 { '-' } else { '+' },
            exp.unsigned_abs()
        );
    }
    out
}

/// Python `str()` of a JSON scalar as `json.loads` gives it (`True`, `1.0`, `1e+20`, text);
/// None for containers and null.
///
/// ```
/// use agentwire::gateway::pytext::scalar_str;
/// let value = agentwire::json::parse(r#"[true, 7, 1e20, "v1", null]"#)?;
/// let strs: Vec<Option<String>> = value.as_array().unwrap().iter().map(scalar_str).collect();
/// assert_eq!(strs, [Some("True".into()), Some("7".into()), Some("1e+20".into()), Some("v1".into()), None]);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn scalar_str(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Bool(true) => Some("True".into()),
        Value::Bool(false) => Some("False".into()),
        Value::Number(n) => Some(number_str(n)),
        _ => None,
    }
}

fn number_str(n: &Number) -> String {
    match (n.as_i64(), n.as_u64()) {
        (Some(v), _) => alloc::format!("{v}"),
        (None, Some(v)) => alloc::format!("{v}"),
        _ => float_repr(n.as_f64()),
    }
}

/// Python truthiness of a JSON value (`""`, `0`, `false`, `null`, `[]`, `{}` are false).
///
/// ```
/// use agentwire::gateway::pytext::truthy;
/// let value = agentwire::json::parse(r#"["", 0, 0.0, false, null, [], {}, "0", [0]]"#)?;
/// let truth: Vec<bool> = value.as_array().unwrap().iter().map(truthy).collect();
/// assert_eq!(truth, [false, false, false, false, false, false, false, true, true]);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64() != 0.0,
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(m) => !m.is_empty(),
    }
}

/// Appends a JSON string as `json.dumps(..., ensure_ascii=True)` writes it.
///
/// ```
/// let mut out = String::new();
/// agentwire::gateway::pytext::push_json_string(&mut out, "é😀\t<");
/// assert_eq!(out, r#""\u00e9\ud83d\ude00\t<""#);
/// ```
pub fn push_json_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            c => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
        }
    }
    out.push('"');
}

/// Appends `json.dumps(value)` with its defaults: `", "`/`": "` separators, ASCII-only
/// strings, integers as they are, floats in `repr` form.
///
/// ```
/// let value = agentwire::json::parse(r#"{"a":[1,2.0,"é"],"b":null}"#)?;
/// let mut out = String::new();
/// agentwire::gateway::pytext::write_python_json(&value, &mut out);
/// assert_eq!(out, r#"{"a": [1, 2.0, "\u00e9"], "b": null}"#);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn write_python_json(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match n.as_literal() {
            Some(text) => out.push_str(text),
            None if n.is_integer() => out.push_str(&number_str(n)),
            None => {
                let v = n.as_f64();
                // json.dumps writes non-finite floats as these bare words.
                out.push_str(&if v.is_nan() {
                    "NaN".into()
                } else if v.is_infinite() {
                    if v > 0.0 {
                        "Infinity".into()
                    } else {
                        "-Infinity".into()
                    }
                } else {
                    float_repr(v)
                })
            }
        },
        Value::String(s) => push_json_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_python_json(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                push_json_string(out, key);
                out.push_str(": ");
                write_python_json(item, out);
            }
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_conventions() {
        assert_eq!(repr("it's"), "\"it's\"");
        assert_eq!(repr("a\nb\u{a0}é"), "'a\\nb\\xa0é'");
        assert_eq!(repr("x\"y'z"), "'x\"y\\'z'");
        assert_eq!(float_repr(0.0), "0.0");
        assert_eq!(float_repr(0.82), "0.82");
        assert_eq!(float_repr(1.0), "1.0");
        assert_eq!(float_repr(1e20), "1e+20");
        assert_eq!(float_repr(1e15), "1000000000000000.0");
        assert_eq!(float_repr(0.00001), "1e-05");
        assert_eq!(float_repr(-0.0), "-0.0");
        let mut s = String::new();
        push_json_string(&mut s, "ü😀\u{7f}");
        assert_eq!(s, "\"\\u00fc\\ud83d\\ude00\\u007f\"");
        assert!(is_space('\u{1f}') && !is_space('\u{feff}'));
    }
}
