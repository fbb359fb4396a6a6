//! Reading candidates back as a reader that has only the text would, and comparing values as
//! a JavaScript reader sees them.

use alloc::string::String;
use alloc::vec::Vec;

use crate::Result;
use crate::gcx::layout::RowsLayout;
use crate::gcx::{Layouts, Section};
use crate::json::{self, Map, Value};

/// `JSON.stringify(value)`: minified, input order (see [`json::write_ecmascript`]).
///
/// ```
/// let value = agentwire::json::parse("{ \"b\": [1, 2.50], \"a\": \"x\" }")?;
/// assert_eq!(agentwire::compact::stringify(&value)?, r#"{"b":[1,2.5],"a":"x"}"#);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn stringify(value: &Value) -> Result<String> {
    let mut out = String::new();
    json::write_ecmascript(&mut out, value)?;
    Ok(out)
}

/// Structural equality as JavaScript readers see JSON: numbers equal by value as doubles,
/// object members in any order.
///
/// ```
/// use agentwire::compact::js_equal;
/// use agentwire::json::parse;
/// assert!(js_equal(&parse(r#"{"a":1,"b":[2.0]}"#)?, &parse(r#"{"b":[2],"a":1.0}"#)?));
/// assert!(!js_equal(&parse(r#"{"a":"1"}"#)?, &parse(r#"{"a":1}"#)?));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn js_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| js_equal(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            // Members usually come in the same order: look at the same place first.
            x.len() == y.len()
                && x.iter().zip(y.iter()).all(|((key, x), (there, at))| {
                    let y = if key == there { Some(at) } else { y.get(key) };
                    y.is_some_and(|y| js_equal(x, y))
                })
        }
        _ => false,
    }
}

/// A GCX1 cell as a reader takes it: JSON when it parses as JSON, else the text; an empty cell
/// is an absent value (so `null` and `""` are never carried by one).
fn read_cell(cell: &str) -> Option<Value> {
    if cell.is_empty() {
        return None;
    }
    Some(json::parse(cell).unwrap_or_else(|_| Value::String(String::from(cell))))
}

/// The cell of `field` in `row` (missing cells are empty).
fn cell<'a>(section: &'a Section, row: &'a [String], field: &str) -> &'a str {
    section
        .header
        .fields
        .iter()
        .position(|f| f == field)
        .and_then(|i| row.get(i))
        .map_or("", String::as_str)
}

fn read_row(section: &Section, row: &[String]) -> Value {
    let mut out = Map::new();
    for field in &section.header.fields {
        if let Some(value) = read_cell(cell(section, row, field)) {
            out.insert(field.clone(), value);
        }
    }
    Value::Object(out)
}

/// The value a GCX1 generic-fallback payload stands for, from the text alone: `rows=N` marks
/// an array, the single field `value` marks scalars (gcx1.md §4.2). `None` when the text
/// cannot say.
pub(super) fn gcx_generic(sections: &[Section]) -> Option<Value> {
    let [section] = sections else {
        return None;
    };
    let scalars = section.header.fields.len() == 1 && section.header.fields[0] == "value";
    let read = |row: &[String]| {
        if scalars {
            read_cell(cell(section, row, "value"))
        } else {
            Some(read_row(section, row))
        }
    };
    if let Some(count) = section.header.meta.get("rows") {
        if *count != alloc::format!("{}", section.rows.len()) {
            return None;
        }
        return section
            .rows
            .iter()
            .map(|row| read(row))
            .collect::<Option<Vec<_>>>()
            .map(Value::Array);
    }
    match section.rows.as_slice() {
        [row] => read(row),
        _ => None,
    }
}

/// The value a per-tool layout payload stands for. Layout columns may rename keys (`sig` is
/// read from `signature`), so the reading maps each column back onto the key the input used;
/// the result must still equal the input, so anything the reader cannot place gives `None`.
pub(super) fn gcx_layout(
    sections: &[Section],
    layouts: &Layouts,
    tool: &str,
    input: &Value,
) -> Option<Value> {
    let Some(layout) = layouts.get(tool) else {
        return gcx_generic(sections);
    };
    if sections.len() != layout.sections.len() {
        return None;
    }
    let mut out = match input {
        Value::Array(_) => Value::Array(Vec::new()),
        Value::Object(_) => Value::Object(Map::new()),
        _ => return None,
    };
    for (section, section_layout) in sections.iter().zip(&layout.sections) {
        let (single, key) = match &section_layout.rows {
            RowsLayout::Object { key } => (true, key.as_deref()),
            RowsLayout::Array { keys, .. } => (
                false,
                keys.iter()
                    .map(String::as_str)
                    .find(|k| matches!(input.get(k), Some(Value::Array(_)))),
            ),
        };
        let source = key.map_or(Some(input), |k| input.get(k));
        let source_rows: &[Value] = match source {
            Some(value) if single => core::slice::from_ref(value),
            Some(Value::Array(rows)) => rows,
            _ => &[],
        };
        let mut rows = Vec::with_capacity(section.rows.len());
        for (r, row) in section.rows.iter().enumerate() {
            let mut obj = Map::new();
            for field in &section_layout.fields {
                let Some(value) = read_cell(cell(section, row, &field.name)) else {
                    continue;
                };
                let from: Vec<&str> = if field.from.is_empty() {
                    alloc::vec![field.name.as_str()]
                } else {
                    field.from.iter().map(String::as_str).collect()
                };
                let source_row = source_rows.get(r).and_then(Value::as_object);
                let name = from
                    .iter()
                    .find(|k| source_row.is_some_and(|row| row.get(k).is_some()))
                    .unwrap_or(&from[0]);
                obj.insert(String::from(*name), value);
            }
            rows.push(Value::Object(obj));
        }
        let value = if single {
            rows.into_iter().next()?
        } else {
            Value::Array(rows)
        };
        match (&mut out, key, value) {
            (Value::Object(out), Some(key), value) => out.insert(String::from(key), value),
            (Value::Array(out), None, Value::Array(rows)) => out.extend(rows),
            (Value::Object(out), None, Value::Object(members)) => {
                for (k, v) in members.iter() {
                    out.insert(String::from(k), v.clone());
                }
            }
            _ => return None,
        }
        for m in &section_layout.meta {
            if let Some(text) = section.header.meta.get(m) {
                let Value::Object(out) = &mut out else {
                    return None;
                };
                out.insert(m.clone(), read_cell(text)?);
            }
        }
    }
    Some(out)
}
