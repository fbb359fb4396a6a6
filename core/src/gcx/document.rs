//! GCX1 as JSON documents: sections as JSON values (what the CLI reads and writes and the JS
//! API takes and returns), and the options objects of the encoders and the decoder. The JSON
//! form of layouts is [`ToolLayout::from_value`], of the workspace shapes
//! [`scope`](super::scope).
//!
//! Encode input: `[section, …]` or `{"sections": [section, …]}`, where a section is
//! `{"tool": "…", "fields": ["…"], "meta"?: {"k": "v"}, "rows"?: [row, …], "ops"?: [op, …]}`;
//! a row is an array of cells or an object keyed by field name; an op is `{"row": row}` or
//! `{"comment": "…"}` (for comments between rows). A cell is a string, number, boolean, null
//! or a typed cell `{"int"|"uint"|"float64"|"float32"|"json_number"|"bytes": text}`.
//!
//! Decode output: `{"sections": [{"tool", "fields", "meta", "version": 1, "rows": [{field:
//! value}]}]}`.
//!
//! ```
//! use agentwire::gcx::{document, DecodeOptions, EncodeOptions};
//! use agentwire::json;
//! let doc = json::parse(r#"{"sections":[{"tool":"x","fields":["a"],"ops":[{"comment":"hi"},{"row":["1"]}]}]}"#)?;
//! let text = document::encode_document(&doc, &EncodeOptions::default())?;
//! assert_eq!(text, "GCX1 tool=x fields=a\n# hi\n1\n");
//! let back = document::decode_document(&text, &DecodeOptions::default())?;
//! assert_eq!(back.get("sections").and_then(|s| s.as_array()).map(<[_]>::len), Some(1));
//! # Ok::<(), agentwire::Error>(())
//! ```

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::gcx::{
    BorrowedSection, Cell, Compat, DecodeOptions, EncodeOptions, Encoder, Header, Item, Layouts,
    Section, Strategy, ToolLayout, ToolOptions, VERSION,
};
use crate::json::{self, Map, Number, Value, WriteOptions};
use crate::num::{parse_f32, parse_f64};
use crate::sink::Sink;
use crate::{Error, ErrorKind, Result};

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidArgument, message)
}

fn expect_object<'v>(value: &'v Value, what: &str) -> Result<&'v Map> {
    value
        .as_object()
        .ok_or_else(|| invalid(format!("expected {what} object, got {}", value.type_name())))
}

fn expect_string<'v>(value: &'v Value, what: &str) -> Result<&'v str> {
    value
        .as_str()
        .ok_or_else(|| invalid(format!("expected {what} string, got {}", value.type_name())))
}

fn check_keys(map: &Map, allowed: &[&str], what: &str) -> Result<()> {
    match map.keys().find(|k| !allowed.contains(k)) {
        Some(key) => Err(invalid(format!(
            "unknown key \"{key}\" in {what} (expected one of: {})",
            allowed.join(", ")
        ))),
        None => Ok(()),
    }
}

/// Reads a header object `{"tool", "fields", "meta"?}` (a `version` member is ignored, as
/// gcx-go ignores `Header.Version`).
///
/// ```
/// use agentwire::gcx::document;
/// use agentwire::json;
/// let header = document::header_from_value(&json::parse(r#"{"tool":"t","fields":["a"],"meta":{"k":"v"}}"#)?)?;
/// assert_eq!((header.tool.as_str(), header.fields.len(), header.meta["k"].as_str()), ("t", 1, "v"));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn header_from_value(value: &Value) -> Result<Header> {
    let map = expect_object(value, "a section")?;
    check_keys(
        map,
        &["tool", "fields", "meta", "version", "rows", "ops"],
        "section",
    )?;
    let tool = expect_string(map.get("tool").unwrap_or(&Value::Null), "\"tool\" to be a")
        .map_err(|e| e.context("tool"))?;
    let fields = match map.get("fields") {
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, f)| {
                expect_string(f, "a field name")
                    .map(String::from)
                    .map_err(|e| e.context(format!("fields[{i}]")))
            })
            .collect::<Result<Vec<_>>>()?,
        Some(other) => {
            return Err(invalid(format!(
                "fields: expected an array of strings, got {}",
                other.type_name()
            )));
        }
        None => return Err(invalid("fields: missing (an array of strings)")),
    };
    let mut header = Header::new(tool, fields);
    match map.get("meta") {
        None | Some(Value::Null) => {}
        Some(Value::Object(meta)) => {
            for (key, v) in meta.iter() {
                let text = expect_string(v, "a meta value")
                    .map_err(|e| e.context(format!("meta.{key}")))?;
                header.meta.insert(key.into(), text.into());
            }
        }
        Some(other) => {
            return Err(invalid(format!(
                "meta: expected an object of strings, got {}",
                other.type_name()
            )));
        }
    }
    Ok(header)
}

/// Reads one cell: string, number (typed: integers exact, other numbers `f64`), boolean, null
/// or a typed cell object with a single key.
///
/// ```
/// use agentwire::gcx::{document, Cell};
/// use agentwire::json;
/// assert_eq!(document::cell_from_value(&json::parse(r#"{"int":"42"}"#)?)?, Cell::I64(42));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn cell_from_value(value: &Value) -> Result<Cell<'_>> {
    Ok(match value {
        Value::Null => Cell::Null,
        Value::Bool(b) => Cell::Bool(*b),
        Value::String(s) => Cell::Str(s),
        Value::Number(n) => number_cell(n),
        Value::Object(map) if map.len() == 1 => {
            let (tag, payload) = map.iter().next().unwrap_or(("", &Value::Null));
            typed_cell(tag, payload)?
        }
        other => {
            return Err(invalid(format!(
                "expected a cell (string, number, boolean, null or a typed cell like {{\"int\": \"42\"}}), got {}",
                other.type_name()
            )));
        }
    })
}

fn number_cell(n: &Number) -> Cell<'_> {
    match (n.as_i64(), n.as_u64(), n.as_literal()) {
        (Some(v), _, _) => Cell::I64(v),
        (None, Some(v), _) => Cell::U64(v),
        (None, None, Some(text)) => Cell::Number(text),
        _ => Cell::F64(n.as_f64()),
    }
}

fn typed_cell<'v>(tag: &str, payload: &'v Value) -> Result<Cell<'v>> {
    let bad = || invalid(format!("typed cell {{\"{tag}\": …}} has an invalid value"));
    let text = payload.as_str();
    Ok(match tag {
        "int" => match payload {
            Value::Number(n) => Cell::I64(n.as_i64().ok_or_else(bad)?),
            _ => Cell::I64(text.and_then(|t| t.parse().ok()).ok_or_else(bad)?),
        },
        "uint" => match payload {
            Value::Number(n) => Cell::U64(n.as_u64().ok_or_else(bad)?),
            _ => Cell::U64(text.and_then(|t| t.parse().ok()).ok_or_else(bad)?),
        },
        "float64" => match payload {
            Value::Number(n) => Cell::F64(n.as_f64()),
            _ => Cell::F64(text.and_then(parse_f64).ok_or_else(bad)?),
        },
        "float32" => match payload {
            Value::Number(n) => Cell::F32(n.as_f64() as f32),
            _ => Cell::F32(text.and_then(parse_f32).ok_or_else(bad)?),
        },
        "json_number" => Cell::Number(text.ok_or_else(bad)?),
        "bytes" => Cell::Bytes(text.ok_or_else(bad)?.as_bytes()),
        _ => {
            return Err(invalid(format!(
                "unknown typed cell {{\"{tag}\": …}} (expected int, uint, float64, float32, json_number or bytes)"
            )));
        }
    })
}

/// Reads a row for `fields`: an array of cells, or an object keyed by field name (absent
/// fields are empty; a key that is not a field is an error).
fn row_from_value<'v>(row: &'v Value, fields: &[String]) -> Result<Vec<Cell<'v>>> {
    match row {
        Value::Array(cells) => cells
            .iter()
            .enumerate()
            .map(|(i, c)| cell_from_value(c).map_err(|e| e.context(format!("[{i}]"))))
            .collect(),
        Value::Object(map) => {
            if let Some(key) = map.keys().find(|k| !fields.iter().any(|f| f == k)) {
                return Err(invalid(format!(
                    "row key \"{key}\" is not a field of the section"
                )));
            }
            fields
                .iter()
                .map(|f| {
                    cell_from_value(map.get(f).unwrap_or(&Value::Null)).map_err(|e| e.context(f))
                })
                .collect()
        }
        other => Err(invalid(format!(
            "expected a row (array of cells or object keyed by field), got {}",
            other.type_name()
        ))),
    }
}

/// Writes one section value (header, then `rows` or `ops`) to an encoder.
///
/// ```
/// use agentwire::gcx::{document, EncodeOptions, Encoder};
/// use agentwire::json;
/// let mut encoder = Encoder::new(String::new(), EncodeOptions::default());
/// document::write_section_value(&mut encoder, &json::parse(r#"{"tool":"t","fields":["a"],"rows":[["x"]]}"#)?)?;
/// assert_eq!(encoder.finish()?, "GCX1 tool=t fields=a\nx\n");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn write_section_value<S: Sink>(encoder: &mut Encoder<S>, section: &Value) -> Result<()> {
    let header = header_from_value(section)?;
    let map = expect_object(section, "a section")?;
    encoder.begin_section(&header)?;
    match (map.get("rows"), map.get("ops")) {
        (Some(_), Some(_)) => Err(invalid("a section takes \"rows\" or \"ops\", not both")),
        (Some(Value::Array(rows)), None) => rows.iter().enumerate().try_for_each(|(i, row)| {
            let cells =
                row_from_value(row, &header.fields).map_err(|e| e.context(format!("rows[{i}]")))?;
            encoder.write_row(&cells)
        }),
        (None, Some(Value::Array(ops))) => ops.iter().enumerate().try_for_each(|(i, op)| {
            write_op(encoder, op, &header.fields).map_err(|e| e.context(format!("ops[{i}]")))
        }),
        (Some(other), None) | (None, Some(other)) => Err(invalid(format!(
            "rows/ops: expected an array, got {}",
            other.type_name()
        ))),
        (None, None) => Ok(()),
    }
}

/// Applies one op, `{"row": row}` or `{"comment": "…"}`.
///
/// ```
/// use agentwire::gcx::{document, EncodeOptions, Encoder, Header};
/// use agentwire::json;
/// let mut encoder = Encoder::new(String::new(), EncodeOptions::default());
/// let fields = vec!["a".to_string()];
/// encoder.begin_section(&Header::new("t", fields.clone()))?;
/// document::write_op(&mut encoder, &json::parse(r#"{"comment":"hi"}"#)?, &fields)?;
/// document::write_op(&mut encoder, &json::parse(r#"{"row":{"a":1}}"#)?, &fields)?;
/// assert_eq!(encoder.finish()?, "GCX1 tool=t fields=a\n# hi\n1\n");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn write_op<S: Sink>(encoder: &mut Encoder<S>, op: &Value, fields: &[String]) -> Result<()> {
    let map = expect_object(op, "an op")?;
    match (map.len(), map.get("row"), map.get("comment")) {
        (1, Some(row), None) => encoder.write_row(&row_from_value(row, fields)?),
        (1, None, Some(comment)) => encoder.write_comment(expect_string(comment, "a comment")?),
        _ => Err(invalid(
            "an op is {\"row\": row} or {\"comment\": \"text\"}",
        )),
    }
}

/// The section list of a document: `[…]` or `{"sections": […]}`.
fn sections_of(document: &Value) -> Result<&[Value]> {
    match document {
        Value::Array(sections) => Ok(sections),
        Value::Object(map) => {
            check_keys(map, &["sections"], "document")?;
            map.get("sections")
                .and_then(Value::as_array)
                .ok_or_else(|| invalid("expected {\"sections\": [...]}"))
        }
        other => Err(invalid(format!(
            "expected an array of sections or {{\"sections\": [...]}}, got {}",
            other.type_name()
        ))),
    }
}

/// Encodes a whole document (see the module docs) to GCX1 text.
///
/// ```
/// use agentwire::gcx::{document, EncodeOptions};
/// use agentwire::json;
/// let doc = json::parse(r#"[{"tool":"x","fields":["a","b"],"rows":[["1",2]]}]"#)?;
/// assert_eq!(document::encode_document(&doc, &EncodeOptions::default())?, "GCX1 tool=x fields=a,b\n1\t2\n");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_document(document: &Value, options: &EncodeOptions) -> Result<String> {
    let mut encoder = Encoder::new(String::new(), options.clone());
    for (i, section) in sections_of(document)?.iter().enumerate() {
        write_section_value(&mut encoder, section).map_err(|e| {
            if e.kind() == ErrorKind::InvalidArgument {
                e.context(format!("sections[{i}]"))
            } else {
                e
            }
        })?;
    }
    encoder.finish()
}

/// `{"tool", "fields", "meta", "version"}` of a header.
fn header_to_value(header: &Header) -> Map {
    let mut map = Map::new();
    map.insert("tool".into(), header.tool.as_str().into());
    map.insert(
        "fields".into(),
        Value::Array(header.fields.iter().map(|f| f.as_str().into()).collect()),
    );
    map.insert(
        "meta".into(),
        Value::Object(
            header
                .meta
                .iter()
                .map(|(k, v)| (k.clone(), Value::from(v.as_str())))
                .collect(),
        ),
    );
    map.insert(
        "version".into(),
        Number::from_u64(u64::from(VERSION)).into(),
    );
    map
}

/// A row as an object keyed by field (a repeated field name keeps its last value).
fn row_to_value<T: AsRef<str>>(fields: &[String], values: &[T]) -> Value {
    let members = fields
        .iter()
        .zip(values)
        .map(|(f, v)| (f.clone(), Value::from(v.as_ref())))
        .collect();
    Value::Object(Map::from_members(members))
}

/// A decoded section as `{"tool", "fields", "meta", "version", "rows"}`.
///
/// ```
/// use agentwire::gcx::{self, document, DecodeOptions};
/// use agentwire::json::{self, WriteOptions};
/// let sections = gcx::decode("GCX1 tool=t fields=a\nx\n", &DecodeOptions::default()).into_sections()?;
/// let text = json::to_string(&document::section_to_value(&sections[0]), WriteOptions::PLAIN)?;
/// assert_eq!(text, r#"{"tool":"t","fields":["a"],"meta":{},"version":1,"rows":[{"a":"x"}]}"#);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn section_to_value(section: &Section) -> Value {
    let mut map = header_to_value(&section.header);
    let rows = section
        .rows
        .iter()
        .map(|r| row_to_value(&section.header.fields, r))
        .collect();
    map.insert("rows".into(), Value::Array(rows));
    Value::Object(map)
}

/// `{"sections": [...]}`.
///
/// ```
/// use agentwire::gcx::document;
/// assert_eq!(document::sections_to_value(&[]).get("sections").and_then(|s| s.as_array()).map(<[_]>::len), Some(0));
/// ```
pub fn sections_to_value(sections: &[Section]) -> Value {
    let mut map = Map::new();
    map.insert(
        "sections".into(),
        Value::Array(sections.iter().map(section_to_value).collect()),
    );
    Value::Object(map)
}

/// Appends a section's header object left open for its rows:
/// `{"tool":…,"fields":[…],"meta":{…},"version":1,"rows":[` (close it with `]}`).
///
/// ```
/// use agentwire::gcx::{document, Header};
/// let mut out = String::new();
/// document::write_section_open(&mut out, &Header::new("t", ["a"]))?;
/// out.push_str("]}");
/// assert_eq!(out, r#"{"tool":"t","fields":["a"],"meta":{},"version":1,"rows":[]}"#);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn write_section_open(out: &mut String, header: &Header) -> Result<()> {
    json::write(
        out,
        &Value::Object(header_to_value(header)),
        WriteOptions::PLAIN,
    )?;
    out.pop(); // the header object's `}`: the rows go inside it
    out.push_str(",\"rows\":[");
    Ok(())
}

/// Writes rows as the JSON objects [`section_to_value`] makes (a repeated field keeps its first
/// position and its last value) without building them: each `"field":` is rendered once.
///
/// ```
/// use agentwire::gcx::document::RowWriter;
/// let rows = RowWriter::new(&["a".into(), "b".into()]);
/// let mut out = String::new();
/// rows.write(&mut out, &["1", "x"]);
/// assert_eq!(out, r#"{"a":"1","b":"x"}"#);
/// ```
#[derive(Clone, Debug)]
pub struct RowWriter {
    /// `"field":` and the index of the value it takes.
    members: Vec<(String, usize)>,
}

impl RowWriter {
    /// A writer for rows of a section with these fields.
    ///
    /// ```
    /// use agentwire::gcx::document::RowWriter;
    /// let mut out = String::new();
    /// RowWriter::new(&["a".into(), "a".into()]).write(&mut out, &["1", "2"]);
    /// assert_eq!(out, r#"{"a":"2"}"#);
    /// ```
    pub fn new(fields: &[String]) -> RowWriter {
        let mut members: Vec<(String, usize)> = Vec::with_capacity(fields.len());
        // Field name → its member's slot: O(n log n), as a header may hold millions of fields.
        let mut slots: BTreeMap<&str, usize> = BTreeMap::new();
        for (index, field) in fields.iter().enumerate() {
            match slots.get(field.as_str()) {
                // The member sits where the field first appeared and takes the last value.
                Some(&slot) => members[slot].1 = index,
                None => {
                    slots.insert(field, members.len());
                    let mut key = String::with_capacity(field.len() + 3);
                    json::write_string(&mut key, field, false);
                    key.push(':');
                    members.push((key, index));
                }
            }
        }
        RowWriter { members }
    }

    /// Appends one row as a JSON object.
    ///
    /// ```
    /// use agentwire::gcx::document::RowWriter;
    /// let mut out = String::new();
    /// RowWriter::new(&["a".into()]).write(&mut out, &["say \"hi\""]);
    /// assert_eq!(out, r#"{"a":"say \"hi\""}"#);
    /// ```
    pub fn write<T: AsRef<str>>(&self, out: &mut String, values: &[T]) {
        out.push('{');
        for (m, (key, index)) in self.members.iter().enumerate() {
            if m > 0 {
                out.push(',');
            }
            out.push_str(key);
            let value = values.get(*index).map_or("", AsRef::as_ref);
            json::write_string(out, value, false);
        }
        out.push('}');
    }
}

/// Appends `{"sections": [...]}` for sections decoded in place: the text the plain JSON
/// writer makes of [`sections_to_value`], without the value tree.
///
/// ```
/// use agentwire::gcx::{self, document, DecodeOptions};
/// let sections = gcx::decode("GCX1 tool=t fields=a\nx\n", &DecodeOptions::default()).into_borrowed()?;
/// let mut out = String::new();
/// document::write_sections_json(&mut out, &sections)?;
/// assert_eq!(out, r#"{"sections":[{"tool":"t","fields":["a"],"meta":{},"version":1,"rows":[{"a":"x"}]}]}"#);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn write_sections_json(out: &mut String, sections: &[BorrowedSection<'_>]) -> Result<()> {
    write_sections_json_limited(out, sections, usize::MAX)
}

/// [`write_sections_json`] that fails with [`ErrorKind::GcxOutputTooLarge`] once the text it
/// appends passes `max_bytes` ([`DecodeOptions::max_output_bytes`]); `out` then holds at most
/// one row more than the limit. Every row repeats the field names, so a small payload with a
/// long field name can ask for an enormous text.
///
/// ```
/// use agentwire::gcx::{self, document, DecodeOptions};
/// let sections = gcx::decode("GCX1 tool=t fields=a\nx\n", &DecodeOptions::default()).into_borrowed()?;
/// let e = document::write_sections_json_limited(&mut String::new(), &sections, 20).unwrap_err();
/// assert_eq!(e.code(), "GCX_OUTPUT_TOO_LARGE");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn write_sections_json_limited(
    out: &mut String,
    sections: &[BorrowedSection<'_>],
    max_bytes: usize,
) -> Result<()> {
    let start = out.len();
    let check = |out: &String| {
        if out.len() - start > max_bytes {
            return Err(Error::new(
                ErrorKind::GcxOutputTooLarge,
                format!(
                    "the decoded JSON would be longer than {max_bytes} bytes \
                     (the decoder's max output bytes limit)"
                ),
            ));
        }
        Ok(())
    };
    out.push_str("{\"sections\":[");
    for (i, section) in sections.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_section_open(out, &section.header)?;
        check(out)?;
        let rows = RowWriter::new(&section.header.fields);
        for (r, row) in section.rows().enumerate() {
            if r > 0 {
                out.push(',');
            }
            rows.write(out, row);
            check(out)?;
        }
        out.push_str("]}");
    }
    out.push_str("]}");
    check(out)
}

/// The length of what [`write_sections_json`] writes, without writing it (saturating), when
/// no section repeats a field; a repeated field (one member in the JSON) is counted at every
/// occurrence, so the result is never less. What `maxOutputBytes` bounds when the result
/// crosses to JS as objects instead of JSON text.
///
/// ```
/// use agentwire::gcx::{self, document, DecodeOptions};
/// let sections = gcx::decode("GCX1 tool=t fields=a\nx\n", &DecodeOptions::default()).into_borrowed()?;
/// let mut out = String::new();
/// document::write_sections_json(&mut out, &sections)?;
/// assert_eq!(document::sections_json_len(&sections), out.len());
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn sections_json_len(sections: &[BorrowedSection<'_>]) -> usize {
    let string = |s: &str| json::string_len(s, false);
    let list = |n: usize| n.saturating_sub(1);
    // `{"sections":[` … `]}` and the commas between sections.
    let mut len = 15 + list(sections.len());
    for section in sections {
        let header = &section.header;
        let fields: usize = header.fields.iter().map(|f| string(f)).sum();
        let meta: usize = header
            .meta
            .iter()
            .map(|(k, v)| string(k) + 1 + string(v))
            .sum();
        // {"tool":…,"fields":[…],"meta":{…},"version":1,"rows":[…]}
        len = len.saturating_add(
            53 + string(&header.tool)
                + fields
                + list(header.fields.len())
                + meta
                + list(header.meta.len()),
        );
        // Each row: {"field":value,…}
        let keys = fields + 2 * header.fields.len() + 1;
        len = len.saturating_add(list(section.row_count()));
        for row in section.rows() {
            let values: usize = row.iter().map(|v| string(v)).sum();
            len = len.saturating_add(keys + values);
        }
    }
    len
}

/// Decodes a payload to `{"sections": [...]}`.
///
/// ```
/// use agentwire::gcx::{document, DecodeOptions};
/// let doc = document::decode_document("GCX1 tool=t fields=a\nx\n", &DecodeOptions::default())?;
/// assert_eq!(doc.get("sections").and_then(|s| s.as_array()).map(<[_]>::len), Some(1));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn decode_document(payload: &str, options: &DecodeOptions) -> Result<Value> {
    let sections = crate::gcx::decode_str(payload, options).into_sections()?;
    Ok(sections_to_value(&sections))
}

/// A streaming item as `{"type": "section", tool, fields, meta, version}`,
/// `{"type": "row", "row": {...}}` or `{"type": "comment", "text": "..."}`.
/// `fields` are the current section's (for rows).
///
/// ```
/// use agentwire::gcx::{document, Item};
/// use agentwire::json::{self, WriteOptions};
/// let row = document::item_to_value(&Item::Row(vec!["x".into()]), &["a".into()]);
/// assert_eq!(json::to_string(&row, WriteOptions::PLAIN)?, r#"{"type":"row","row":{"a":"x"}}"#);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn item_to_value(item: &Item<'_>, fields: &[String]) -> Value {
    let mut map = Map::new();
    match item {
        Item::Section(h) => {
            map.insert("type".into(), "section".into());
            for (k, v) in header_to_value(h) {
                map.insert(k, v);
            }
        }
        Item::Row(values) => {
            map.insert("type".into(), "row".into());
            map.insert("row".into(), row_to_value(fields, values));
        }
        Item::Comment(text) => {
            map.insert("type".into(), "comment".into());
            map.insert("text".into(), (*text).into());
        }
    }
    Value::Object(map)
}

fn option_bool(map: &Map, key: &str) -> Result<Option<bool>> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(invalid(format!(
            "option {key}: expected a boolean, got {}",
            other.type_name()
        ))),
    }
}

impl EncodeOptions {
    /// Reads the options object `{"lossless"?: boolean, "compat"?: "checked" | "gcx-go",
    /// "literalNumbers"?: boolean, "maxDepth"?: 1…1024}` (null or absent: defaults).
    ///
    /// ```
    /// use agentwire::gcx::EncodeOptions;
    /// use agentwire::json;
    /// assert!(EncodeOptions::from_value(&json::parse(r#"{"lossless":true}"#)?)?.lossless);
    /// assert_eq!(EncodeOptions::from_value(&json::parse(r#"{"lossles":true}"#)?).unwrap_err().code(), "INVALID_ARGUMENT");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_value(value: &Value) -> Result<EncodeOptions> {
        if let Value::Null = value {
            return Ok(EncodeOptions::default());
        }
        let map = expect_object(value, "an options")?;
        check_keys(
            map,
            &["lossless", "compat", "literalNumbers", "maxDepth"],
            "encode options",
        )?;
        read_encode_options(map)
    }
}

fn read_encode_options(map: &Map) -> Result<EncodeOptions> {
    let mut options = EncodeOptions::default();
    if let Some(lossless) = option_bool(map, "lossless")? {
        options.lossless = lossless;
    }
    match map.get("compat") {
        None | Some(Value::Null) => {}
        Some(Value::String(name)) => options.compat = Compat::parse(name)?,
        Some(other) => {
            return Err(invalid(format!(
                "option compat: expected a string, got {}",
                other.type_name()
            )));
        }
    }
    if let Some(literal) = option_bool(map, "literalNumbers")? {
        options.literal_numbers = literal;
    }
    if let Some(depth) = option_limit(map, "maxDepth", json::MAX_DEPTH_CEILING)? {
        options.max_depth = depth;
    }
    Ok(options)
}

/// A limit option: absent or null is `None`, else an integer from 1 to `ceiling`.
fn option_limit(map: &Map, key: &str, ceiling: usize) -> Result<Option<usize>> {
    let bad = || match ceiling {
        usize::MAX => invalid(format!("option {key}: expected a positive integer")),
        _ => invalid(format!(
            "option {key}: expected an integer from 1 to {ceiling}"
        )),
    };
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => match n.as_u64() {
            // Past the address space (wasm32) there is no limit to speak of.
            Some(v) if v > 0 => {
                let v = usize::try_from(v).unwrap_or(usize::MAX);
                if v > ceiling {
                    return Err(bad());
                }
                Ok(Some(v))
            }
            _ => Err(bad()),
        },
        Some(_) => Err(bad()),
    }
}

impl ToolOptions {
    /// Reads the options object `{"strategy"?: "layout" | "generic" | "bench", "layouts"?:
    /// [layout], "builtinLayouts"?: boolean, "lossless"?, "literalNumbers"?, "maxDepth"?}`;
    /// `layouts` (in the [`ToolLayout::from_value`] form) are registered over the built-in ones
    /// (or replace them with `builtinLayouts: false`).
    ///
    /// ```
    /// use agentwire::gcx::{Strategy, ToolOptions};
    /// use agentwire::json;
    /// let options = ToolOptions::from_value(&json::parse(r#"{"strategy":"generic"}"#)?)?;
    /// assert_eq!(options.strategy, Strategy::Generic);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_value(value: &Value) -> Result<ToolOptions> {
        let mut options = ToolOptions::default();
        if let Value::Null = value {
            return Ok(options);
        }
        let map = expect_object(value, "an options")?;
        check_keys(
            map,
            &[
                "strategy",
                "strict",
                "layouts",
                "builtinLayouts",
                "lossless",
                "compat",
                "literalNumbers",
                "maxDepth",
            ],
            "tool options",
        )?;
        options.encode = read_encode_options(map)?;
        match map.get("strategy") {
            None | Some(Value::Null) => {}
            Some(Value::String(name)) => options.strategy = Strategy::parse(name)?,
            Some(other) => {
                return Err(invalid(format!(
                    "option strategy: expected a string, got {}",
                    other.type_name()
                )));
            }
        }
        options.strict = option_bool(map, "strict")?.unwrap_or(false);
        if option_bool(map, "builtinLayouts")? == Some(false) {
            options.layouts = Layouts::empty();
        }
        match map.get("layouts") {
            None | Some(Value::Null) => {}
            Some(Value::Array(layouts)) => {
                for (i, layout) in layouts.iter().enumerate() {
                    let layout = ToolLayout::from_value(layout)
                        .map_err(|e| e.context(format!("layouts[{i}]")))?;
                    options.layouts.register(layout);
                }
            }
            Some(other) => {
                return Err(invalid(format!(
                    "option layouts: expected an array, got {}",
                    other.type_name()
                )));
            }
        }
        Ok(options)
    }
}

impl DecodeOptions {
    /// Reads the options object `{"maxLineBytes"?, "maxSections"?, "maxRows"?, "maxCells"?,
    /// "maxOutputBytes"?: positive integer, "comments"?: boolean}`.
    ///
    /// ```
    /// use agentwire::gcx::DecodeOptions;
    /// use agentwire::json;
    /// assert_eq!(DecodeOptions::from_value(&json::parse(r#"{"maxRows":10}"#)?)?.max_rows, 10);
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn from_value(value: &Value) -> Result<DecodeOptions> {
        let mut options = DecodeOptions::default();
        if let Value::Null = value {
            return Ok(options);
        }
        let map = expect_object(value, "an options")?;
        check_keys(
            map,
            &[
                "maxLineBytes",
                "maxSections",
                "maxRows",
                "maxCells",
                "maxOutputBytes",
                "comments",
            ],
            "decode options",
        )?;
        let limits: [(&str, &mut usize); 5] = [
            ("maxLineBytes", &mut options.max_line_bytes),
            ("maxSections", &mut options.max_sections),
            ("maxRows", &mut options.max_rows),
            ("maxCells", &mut options.max_cells),
            ("maxOutputBytes", &mut options.max_output_bytes),
        ];
        for (key, slot) in limits {
            if let Some(v) = option_limit(map, key, usize::MAX)? {
                *slot = v;
            }
        }
        if let Some(comments) = option_bool(map, "comments")? {
            options.comments = comments;
        }
        Ok(options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    #[test]
    fn encode_document_shapes() {
        let doc = parse(
            r#"{"sections":[{"tool":"x","fields":["a","b"],"meta":{"k":"v"},
                "ops":[{"comment":"hi"},{"row":["1",{"float64":"1e6"}]}]},
               {"tool":"y","fields":["p","q"],"rows":[{"q":true},[null,{"int":"-1"}]]}]}"#,
        )
        .unwrap();
        assert_eq!(
            encode_document(&doc, &EncodeOptions::default()).unwrap(),
            "GCX1 tool=x fields=a,b k=v\n# hi\n1\t1e+06\nGCX1 tool=y fields=p,q\n\ttrue\n\t-1\n"
        );
    }

    #[test]
    fn shape_errors_name_the_place() {
        let doc = parse(r#"[{"tool":"x","fields":["a"],"rows":[["1"],[[]]]}]"#).unwrap();
        let e = encode_document(&doc, &EncodeOptions::default()).unwrap_err();
        assert_eq!(e.code(), "INVALID_ARGUMENT");
        assert!(
            e.message()
                .starts_with("sections[0]: rows[1]: [0]: expected a cell"),
            "{}",
            e.message()
        );
        let doc = parse(r#"[{"tool":"x","fields":["a"],"rows":[{"b":"1"}]}]"#).unwrap();
        assert!(encode_document(&doc, &EncodeOptions::default()).is_err());
    }

    #[test]
    fn decode_document_shape() {
        let v = decode_document(
            "GCX1 tool=x fields=a,a,b\n1\t2\t3\n",
            &DecodeOptions::default(),
        )
        .unwrap();
        assert_eq!(
            json::to_string(&v, WriteOptions::PLAIN).unwrap(),
            r#"{"sections":[{"tool":"x","fields":["a","a","b"],"meta":{},"version":1,"rows":[{"a":"2","b":"3"}]}]}"#
        );
    }
}

#[cfg(test)]
mod json_len_tests {
    use super::*;

    #[test]
    fn sections_json_len_is_the_written_length() {
        let payloads = [
            "GCX1 tool=x fields=a,b n=1\n1\t2\nx\\ty\t\n",
            "GCX1 tool=t fields=a,a,b,a\n1\t2\t3\t4\n\n",
            "GCX1 tool=q fields=\na\n\nGCX1 tool=r fields=\"k\",é\n\u{2028}\t\\\\\n",
            "GCX1 tool=e fields=a\n",
        ];
        for payload in payloads {
            let sections = crate::gcx::decode(payload, &DecodeOptions::default())
                .into_borrowed()
                .unwrap();
            let mut out = String::new();
            write_sections_json(&mut out, &sections).unwrap();
            let repeats = payload.contains("a,a");
            let len = sections_json_len(&sections);
            assert!(
                len == out.len() || (repeats && len > out.len()),
                "{payload:?}\n{out}\n{len}"
            );
        }
    }
}
