//! Fixture plumbing shared by the suites.

use std::path::Path;

use agentwire::json::{Map, Number, Value};
use serde_json::Value as J;

/// Reads and parses a fixture file with serde_json.
pub fn read_json(path: &Path) -> Result<J, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("cannot parse {}: {e}", path.display()))
}

/// The `vectors` array of a fixture file, checking its declared `count`.
pub fn vectors(file: &J, path: &Path) -> Result<Vec<J>, String> {
    let vectors = file
        .get("vectors")
        .and_then(J::as_array)
        .ok_or_else(|| format!("{}: no \"vectors\" array", path.display()))?;
    if let Some(count) = file.get("count").and_then(J::as_u64)
        && count != vectors.len() as u64
    {
        return Err(format!(
            "{}: declares count {count} but holds {} vectors",
            path.display(),
            vectors.len()
        ));
    }
    Ok(vectors.clone())
}

/// A fixture value in agentwire's JSON model (numbers typed as serde_json reads them).
pub fn to_value(j: &J) -> Value {
    match j {
        J::Null => Value::Null,
        J::Bool(b) => Value::Bool(*b),
        J::Number(n) => Value::Number(if let Some(u) = n.as_u64() {
            Number::from_u64(u)
        } else if let Some(i) = n.as_i64() {
            Number::from_i64(i)
        } else {
            Number::from_f64(n.as_f64().unwrap_or(f64::NAN))
        }),
        J::String(s) => Value::String(s.clone()),
        J::Array(items) => Value::Array(items.iter().map(to_value).collect()),
        J::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), to_value(v)))
                .collect::<Map>(),
        ),
    }
}

/// agentwire's JSON model back in serde_json form, for comparison with expectations.
pub fn from_value(v: &Value) -> J {
    match v {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                J::from(u)
            } else if let Some(i) = n.as_i64() {
                J::from(i)
            } else {
                serde_json::Number::from_f64(n.as_f64()).map_or(J::Null, J::Number)
            }
        }
        Value::String(s) => J::String(s.clone()),
        Value::Array(items) => J::Array(items.iter().map(from_value).collect()),
        Value::Object(map) => J::Object(
            map.iter()
                .map(|(k, v)| (k.to_string(), from_value(v)))
                .collect(),
        ),
    }
}

/// The string at `key`, or a failure naming it.
pub fn str_at<'j>(j: &'j J, key: &str) -> Result<&'j str, String> {
    j.get(key)
        .and_then(J::as_str)
        .ok_or_else(|| format!("vector has no string \"{key}\""))
}

/// `expected` vs `got`, shown as JSON when they differ.
pub fn same(what: &str, expected: &J, got: &J) -> Result<(), String> {
    if expected == got {
        Ok(())
    } else {
        Err(format!("{what}: expected {expected}, got {got}"))
    }
}

/// Exact text comparison, shown JSON-quoted when it differs.
pub fn same_text(what: &str, expected: &str, got: &str) -> Result<(), String> {
    if expected == got {
        Ok(())
    } else {
        Err(format!(
            "{what}: expected {}, got {}",
            J::from(expected),
            J::from(got)
        ))
    }
}
