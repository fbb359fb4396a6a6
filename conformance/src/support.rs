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
    if let Some(count) = file.get("count").and_then(J::as_u64) {
        if count != vectors.len() as u64 {
            return Err(format!(
                "{}: declares count {count} but holds {} vectors",
                path.display(),
                vectors.len()
            ));
        }
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

/// How [`same_value`] compares object members.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Members {
    /// The same members in the same order.
    InOrder,
    /// The same members in the same order, except inside table rows (the objects of an
    /// all-object array, the member values of an object whose values are all objects): a GCF
    /// table row decodes in its header's order with `>`-named fields last (SPEC §7.3, §7.4.3,
    /// §7.4.6.1; fixtures inline-schema/008, flatten/016), so there only membership counts.
    InOrderExceptTableRows,
    /// The same members in any order ("compare decoded JSON structurally").
    AnyOrder,
    /// Every member of `expected` is in `got` with an equal value, in any order; `got` may hold
    /// more (the GCF graph decode contract). Arrays still need equal lengths.
    Subset,
}

/// True for the objects a table row can come from: items of an all-object array, values of
/// an object of objects (two or more).
fn holds_rows(v: &Value) -> bool {
    match v {
        Value::Array(items) => {
            !items.is_empty() && items.iter().all(|i| matches!(i, Value::Object(_)))
        }
        Value::Object(map) => {
            map.len() >= 2 && map.iter().all(|(_, v)| matches!(v, Value::Object(_)))
        }
        _ => false,
    }
}

/// The runner's one structural comparison: `expected` against `got`, arrays element by
/// element (equal lengths), numbers by value (`1` equals `1.0`; integers beyond 2^53 compare
/// exactly), object members per `members`. Every suite compares values with it (serde_json
/// fixture values through [`expect_json`]).
pub fn same_value(expected: &Value, got: &Value, members: Members) -> bool {
    same_at(expected, got, members, false)
}

fn same_at(a: &Value, b: &Value, members: Members, row: bool) -> bool {
    let child_row = members == Members::InOrderExceptTableRows && holds_rows(a);
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => x
                .as_u64()
                .zip(y.as_u64())
                .map_or_else(|| x.as_f64() == y.as_f64(), |(x, y)| x == y),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(a, b)| same_at(a, b, members, child_row))
        }
        (Value::Object(x), Value::Object(y)) => {
            let by_key = || {
                x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_at(v, w, members, child_row)))
            };
            match members {
                Members::Subset => by_key(),
                _ if x.len() != y.len() => false,
                Members::AnyOrder => by_key(),
                _ if row => by_key(),
                _ => x
                    .iter()
                    .zip(y.iter())
                    .all(|((ka, va), (kb, vb))| ka == kb && same_at(va, vb, members, child_row)),
            }
        }
        _ => a == b,
    }
}

/// `expected` vs `got` under [`same_value`], shown as JSON when they differ.
pub fn expect_value(
    what: &str,
    expected: &Value,
    got: &Value,
    members: Members,
) -> Result<(), String> {
    if same_value(expected, got, members) {
        Ok(())
    } else {
        Err(format!(
            "{what}: expected {}, got {}",
            from_value(expected),
            from_value(got)
        ))
    }
}

/// [`expect_value`] on serde_json values (fixture members, converted by [`to_value`]).
pub fn expect_json(what: &str, expected: &J, got: &J, members: Members) -> Result<(), String> {
    if same_value(&to_value(expected), &to_value(got), members) {
        Ok(())
    } else {
        Err(format!("{what}: expected {expected}, got {got}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> Value {
        agentwire::json::parse(text).unwrap()
    }

    #[test]
    fn numbers_compare_by_value_and_big_integers_exactly() {
        assert!(same_value(&v("[1,2.0]"), &v("[1.0,2]"), Members::InOrder));
        assert!(!same_value(
            &v("9007199254740993"),
            &v("9007199254740992"),
            Members::AnyOrder
        ));
        assert!(!same_value(&v("[1,2]"), &v("[1,2,3]"), Members::Subset));
    }

    #[test]
    fn members_modes() {
        let a = v(r#"{"a":1,"b":[1.0,2]}"#);
        let swapped = v(r#"{"b":[1,2],"a":1}"#);
        let more = v(r#"{"b":[1,2],"a":1,"c":null}"#);
        assert!(!same_value(&a, &swapped, Members::InOrder));
        assert!(!same_value(&a, &swapped, Members::InOrderExceptTableRows));
        assert!(same_value(&a, &swapped, Members::AnyOrder));
        assert!(!same_value(&a, &more, Members::AnyOrder));
        assert!(same_value(&a, &more, Members::Subset));
        assert!(!same_value(&more, &a, Members::Subset));
        // Table rows may differ in order, other objects may not.
        let rows = v(r#"[{"a":1,"b":{"x":1,"y":2}},{"b":{"x":1,"y":2},"a":2}]"#);
        let header_order = v(r#"[{"a":1,"b":{"x":1,"y":2}},{"a":2,"b":{"x":1,"y":2}}]"#);
        let inner_swapped = v(r#"[{"a":1,"b":{"y":2,"x":1}},{"a":2,"b":{"x":1,"y":2}}]"#);
        assert!(same_value(
            &rows,
            &header_order,
            Members::InOrderExceptTableRows
        ));
        assert!(!same_value(&rows, &header_order, Members::InOrder));
        assert!(!same_value(
            &header_order,
            &inner_swapped,
            Members::InOrderExceptTableRows
        ));
    }
}
