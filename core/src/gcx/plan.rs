//! Section plans: what an encoding strategy decided to write, as references into the input
//! value. Writing a plan gives the payload; checking a plan against the decoded payload and
//! the input proves a round trip (every input value decodes back, in its row and field).

use alloc::borrow::Cow;
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::decode::{decode_until_error, DecodeOptions};
use super::encode::{Cell, Encoder};
use super::header::Header;
use crate::json::{self, Value, WriteOptions};
use crate::sink::Sink;
use crate::{Error, Result};

/// One planned section: its header and, per row, the input value of each column.
#[derive(Debug)]
pub(crate) struct SectionPlan<'v> {
    pub header: Header,
    /// Per column: join an array's elements with this separator.
    pub joins: Vec<Option<String>>,
    pub rows: Vec<Vec<Option<&'v Value>>>,
    /// Input values written as header metadata.
    pub meta_sources: Vec<&'v Value>,
}

impl<'v> SectionPlan<'v> {
    pub fn new(header: Header) -> SectionPlan<'v> {
        let columns = header.fields.len();
        SectionPlan {
            header,
            joins: alloc::vec![None; columns],
            rows: Vec::new(),
            meta_sources: Vec::new(),
        }
    }
}

/// The cell text of a value: null or absent is empty, strings are raw, numbers and booleans
/// JSON, arrays joined when the column says so, other containers Go-compact JSON.
pub(crate) fn render<'v>(value: Option<&'v Value>, join: Option<&str>) -> Result<Cow<'v, str>> {
    Ok(match (value, join) {
        (None | Some(Value::Null), _) => Cow::Borrowed(""),
        (Some(Value::String(s)), _) => Cow::Borrowed(s),
        (Some(Value::Array(items)), Some(separator)) => {
            let mut text = String::new();
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    text.push_str(separator);
                }
                text.push_str(&render(Some(item), None)?);
            }
            Cow::Owned(text)
        }
        (Some(other), _) => Cow::Owned(json::to_string(other, WriteOptions::GO)?),
    })
}

/// Metadata text of a scalar (Go `fmt.Sprint` of a decoded JSON scalar).
pub(crate) fn meta_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Bool(_) | Value::Number(_) => json::to_string(value, WriteOptions::GO).ok(),
        _ => None,
    }
}

/// Writes the plans as consecutive sections.
pub(crate) fn write_plans<S: Sink>(
    encoder: &mut Encoder<S>,
    plans: &[SectionPlan<'_>],
) -> Result<()> {
    let mut texts: Vec<Cow<'_, str>> = Vec::new();
    for plan in plans {
        encoder.begin_section(&plan.header)?;
        for row in &plan.rows {
            texts.clear();
            for (cell, join) in row.iter().zip(&plan.joins) {
                texts.push(render(*cell, join.as_deref())?);
            }
            let cells: Vec<Cell<'_>> = texts.iter().map(|t| Cell::Str(t)).collect();
            encoder.write_row(&cells)?;
        }
    }
    Ok(())
}

/// Plans rows for an array the way the generic fallback does: a non-empty array of objects
/// becomes the union of keys (byte order) with one row each; anything else a `value` column.
/// Returns the fields and the rows.
pub(crate) fn array_rows(items: &[Value]) -> (Vec<&str>, Vec<Vec<Option<&Value>>>) {
    if items.is_empty() || !items.iter().all(|v| v.as_object().is_some()) {
        return (
            alloc::vec!["value"],
            items.iter().map(|v| alloc::vec![Some(v)]).collect(),
        );
    }
    let keys: BTreeSet<&str> = items
        .iter()
        .filter_map(Value::as_object)
        .flat_map(|m| m.keys())
        .collect();
    let rows = items
        .iter()
        .filter_map(Value::as_object)
        .map(|item| {
            // Walk the sorted members alongside the sorted key union.
            let members = item.sorted();
            let mut next = members.iter().peekable();
            keys.iter()
                .map(|key| match next.peek() {
                    Some((k, v)) if k == key => {
                        next.next();
                        Some(*v)
                    }
                    _ => None,
                })
                .collect()
        })
        .collect();
    (keys.into_iter().collect(), rows)
}

/// Fails on the first NaN or ±Infinity, with Go's `json: unsupported value: …` text: the
/// references marshal the whole value before writing anything.
pub(crate) fn check_finite(value: &Value) -> Result<()> {
    let first_bad = |v: &Value| -> Result<()> {
        match v {
            Value::Number(n) if n.is_non_finite() => {
                crate::num::write_json_f64(&mut String::new(), n.as_f64())
            }
            _ => Ok(()),
        }
    };
    let mut stack = alloc::vec![value];
    while let Some(v) = stack.pop() {
        first_bad(v).map_err(|e| {
            Error::new(
                e.kind(),
                alloc::format!("wire: marshal input: {}", e.message()),
            )
        })?;
        match v {
            Value::Array(items) => stack.extend(items.iter().rev()),
            Value::Object(map) => stack.extend(
                map.iter()
                    .map(|(_, v)| v)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev(),
            ),
            _ => {}
        }
    }
    Ok(())
}

/// Checks that `payload` decodes to exactly the planned sections and that the plans cover every
/// value of `input`: together, every input value decodes back in its row and field.
pub(crate) fn verify(
    input: &Value,
    plans: &[SectionPlan<'_>],
    payload: &str,
) -> core::result::Result<(), String> {
    let (decoded, error) = decode_until_error(payload.as_bytes(), &DecodeOptions::default());
    if let Some(e) = error {
        return Err(alloc::format!(
            "the payload does not decode: {} ({})",
            e,
            e.code()
        ));
    }
    if decoded.len() != plans.len() {
        return Err(alloc::format!(
            "{} sections written, {} decoded",
            plans.len(),
            decoded.len()
        ));
    }
    for (plan, got) in plans.iter().zip(&decoded) {
        let tool = &plan.header.tool;
        if got.header != plan.header {
            return Err(alloc::format!(
                "section {tool}: header decodes as {:?}",
                got.header
            ));
        }
        if got.rows.len() != plan.rows.len() {
            return Err(alloc::format!(
                "section {tool}: {} rows written, {} decoded (blank or #-rows are dropped by decoders)",
                plan.rows.len(),
                got.rows.len()
            ));
        }
        for (r, (row, values)) in plan.rows.iter().zip(&got.rows).enumerate() {
            for (c, (cell, join)) in row.iter().zip(&plan.joins).enumerate() {
                let want = render(*cell, join.as_deref()).map_err(|e| e.to_string())?;
                if values[c] != *want {
                    return Err(alloc::format!(
                        "section {tool} row {r} field {}: wrote {:?}, decoded {:?}",
                        plan.header.fields[c],
                        want,
                        values[c]
                    ));
                }
            }
        }
    }
    let mut covered: BTreeSet<*const Value> = BTreeSet::new();
    for plan in plans {
        covered.extend(
            plan.rows
                .iter()
                .flatten()
                .flatten()
                .map(|v| *v as *const Value),
        );
        covered.extend(plan.meta_sources.iter().map(|v| *v as *const Value));
    }
    match uncovered(input, &covered, &mut String::from("$")) {
        Some(path) => Err(alloc::format!("input value at {path} is not in the output")),
        None => Ok(()),
    }
}

/// The path of the first input value that no planned cell or metadata covers.
fn uncovered(value: &Value, covered: &BTreeSet<*const Value>, path: &mut String) -> Option<String> {
    if covered.contains(&(value as *const Value)) {
        return None;
    }
    let len = path.len();
    let found = match value {
        Value::Array(items) if !items.is_empty() => {
            items.iter().enumerate().find_map(|(i, item)| {
                path.truncate(len);
                path.push_str(&alloc::format!("[{i}]"));
                uncovered(item, covered, path)
            })
        }
        Value::Object(map) if !map.is_empty() => map.iter().find_map(|(key, item)| {
            path.truncate(len);
            path.push('.');
            path.push_str(key);
            uncovered(item, covered, path)
        }),
        _ => Some(path.clone()),
    };
    path.truncate(len);
    found
}

/// Header metadata from `(key, value)` pairs of scalars.
pub(crate) fn meta_of<'v>(
    pairs: &[(&str, &'v Value)],
) -> (BTreeMap<String, String>, Vec<&'v Value>) {
    let mut meta = BTreeMap::new();
    let mut sources = Vec::new();
    for (key, value) in pairs {
        if let Some(text) = meta_text(value) {
            meta.insert(String::from(*key), text);
            sources.push(*value);
        }
    }
    (meta, sources)
}
