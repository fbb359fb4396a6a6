//! The generic fallback encoder for any JSON value (gcx-go `generic.go`, `EncodeAny`).

use alloc::borrow::Cow;
use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use super::encode::{Cell, EncodeOptions, Encoder};
use super::header::Header;
use crate::json::{self, Value, WriteOptions};
use crate::sink::Sink;
use crate::{Error, Result};

/// Encodes any JSON value as one GCX1 section, byte-identical to gcx-go's `EncodeAny` with
/// typed numbers:
///
/// | value | section |
/// |---|---|
/// | object | fields = keys sorted by bytes, one row, no meta |
/// | non-empty array of objects | fields = union of keys sorted, meta `rows=N`, one row each |
/// | any other array | field `value`, meta `rows=N`, one row per element |
/// | scalar | field `value`, one row |
///
/// Strings are written raw (then row-escaped); nested arrays and objects become Go-compact
/// JSON (sorted keys, `<>&` escaped); numbers print by Go's `encoding/json` rule. NaN or
/// ±Infinity anywhere fails before anything is written, as `json.Marshal` does.
pub fn encode_generic(tool: &str, value: &Value, options: &EncodeOptions) -> Result<String> {
    let mut encoder = Encoder::new(String::new(), options.clone());
    write_generic(&mut encoder, tool, value)?;
    encoder.finish()
}

/// Parses JSON text (typed numbers) and encodes it with [`encode_generic`].
pub fn encode_generic_json(tool: &str, json_text: &str, options: &EncodeOptions) -> Result<String> {
    encode_generic(tool, &json::parse(json_text)?, options)
}

/// Appends the generic section for `value` to an encoder (for multi-section payloads).
pub fn write_generic<S: Sink>(encoder: &mut Encoder<S>, tool: &str, value: &Value) -> Result<()> {
    check_finite(value).map_err(|e| {
        Error::new(
            e.kind(),
            alloc::format!("wire: marshal input: {}", e.message()),
        )
    })?;
    match value {
        Value::Object(map) => {
            let members = map.sorted();
            let header = Header::new(tool, members.iter().map(|(k, _)| *k));
            encoder.begin_section(&header)?;
            let texts = members
                .iter()
                .map(|(_, v)| cell_text(v))
                .collect::<Result<Vec<_>>>()?;
            write_texts(encoder, &texts)
        }
        Value::Array(items)
            if !items.is_empty() && items.iter().all(|v| v.as_object().is_some()) =>
        {
            let keys: BTreeSet<&str> = items
                .iter()
                .filter_map(Value::as_object)
                .flat_map(|m| m.keys())
                .collect();
            let header =
                Header::new(tool, keys.iter().copied()).with_meta("rows", count(items.len()));
            encoder.begin_section(&header)?;
            let mut texts: Vec<Cow<'_, str>> = Vec::with_capacity(keys.len());
            for item in items.iter().filter_map(Value::as_object) {
                // Walk the sorted members alongside the sorted key union.
                let members = item.sorted();
                let mut next = members.iter().peekable();
                texts.clear();
                for key in &keys {
                    match next.peek() {
                        Some((k, v)) if k == key => {
                            texts.push(cell_text(v)?);
                            next.next();
                        }
                        _ => texts.push(Cow::Borrowed("")),
                    }
                }
                write_texts(encoder, &texts)?;
            }
            Ok(())
        }
        Value::Array(items) => {
            let header = Header::new(tool, ["value"]).with_meta("rows", count(items.len()));
            encoder.begin_section(&header)?;
            for item in items {
                write_texts(encoder, &[cell_text(item)?])?;
            }
            Ok(())
        }
        scalar => {
            encoder.begin_section(&Header::new(tool, ["value"]))?;
            write_texts(encoder, &[cell_text(scalar)?])
        }
    }
}

fn count(n: usize) -> String {
    let mut s = String::new();
    crate::num::write_u64(&mut s, n as u64);
    s
}

fn write_texts<S: Sink>(encoder: &mut Encoder<S>, texts: &[Cow<'_, str>]) -> Result<()> {
    let cells: Vec<Cell<'_>> = texts.iter().map(|t| Cell::Str(t)).collect();
    encoder.write_row(&cells)
}

/// The text of one cell: strings raw, null empty, numbers and bools as JSON, containers as
/// Go-compact JSON.
fn cell_text(value: &Value) -> Result<Cow<'_, str>> {
    Ok(match value {
        Value::Null => Cow::Borrowed(""),
        Value::String(s) => Cow::Borrowed(s),
        other => Cow::Owned(json::to_string(other, WriteOptions::GO)?),
    })
}

/// Fails on the first NaN or ±Infinity, with Go's `json: unsupported value: …` text.
fn check_finite(value: &Value) -> Result<()> {
    match value {
        Value::Number(n) if !n.is_integer() => {
            crate::num::write_json_f64(&mut String::new(), n.as_f64())
        }
        Value::Array(items) => items.iter().try_for_each(check_finite),
        Value::Object(map) => map.iter().try_for_each(|(_, v)| check_finite(v)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn generic(tool: &str, json_text: &str) -> String {
        encode_generic_json(tool, json_text, &EncodeOptions::default()).unwrap()
    }

    #[test]
    fn shapes() {
        assert_eq!(
            generic(
                "s",
                r#"[{"id":"1","kind":"f"},{"id":"2","line":42},{"name":"n"}]"#
            ),
            "GCX1 tool=s fields=id,kind,line,name rows=3\n1\tf\t\t\n2\t\t42\t\n\t\t\tn\n"
        );
        assert_eq!(generic("o", "{}"), "GCX1 tool=o fields=\n\n");
        assert_eq!(generic("a", "[]"), "GCX1 tool=a fields=value rows=0\n");
        assert_eq!(generic("a", "[{}]"), "GCX1 tool=a fields= rows=1\n\n");
        assert_eq!(generic("n", "null"), "GCX1 tool=n fields=value\n\n");
        assert_eq!(
            generic("m", r#"[{"b":2,"a":1},"s",3,[1,"x"]]"#),
            "GCX1 tool=m fields=value rows=4\n{\"a\":1,\"b\":2}\ns\n3\n[1,\"x\"]\n"
        );
    }

    #[test]
    fn non_finite_fails_before_writing() {
        let e = encode_generic_json("n", r#"{"x":1e400}"#, &EncodeOptions::default()).unwrap_err();
        assert_eq!(e.code(), "NON_FINITE_NUMBER");
        assert_eq!(
            e.message(),
            "wire: marshal input: json: unsupported value: +Inf"
        );
    }
}
