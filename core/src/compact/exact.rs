//! Whether a value that did not come from text (a JavaScript value, a Rust `Value`) holds a
//! number that readers holding doubles would change.

use alloc::string::String;

use crate::json::{Number, Value};

/// The JSONPath and text of the first number of `value` that a double does not hold: an
/// integer past ±2^53 that is not the double it rounds to, a literal numeral
/// ([`crate::num::double_holds`]), NaN, ±Infinity or `-0` (which prints as `0`).
pub(super) fn first_inexact_number(value: &Value) -> Option<(String, String)> {
    let mut path = String::from("$");
    walk(value, &mut path)
}

fn walk(value: &Value, path: &mut String) -> Option<(String, String)> {
    match value {
        Value::Number(n) => inexact_text(n).map(|text| (path.clone(), text)),
        Value::Array(items) => items.iter().enumerate().find_map(|(i, item)| {
            let len = path.len();
            path.push('[');
            crate::num::write_u64(path, i as u64);
            path.push(']');
            let found = walk(item, path);
            path.truncate(len);
            found
        }),
        Value::Object(map) => map.iter().find_map(|(key, item)| {
            let len = path.len();
            crate::json::push_path_key(path, key);
            let found = walk(item, path);
            path.truncate(len);
            found
        }),
        Value::Null | Value::Bool(_) | Value::String(_) => None,
    }
}

/// The number's text when a double does not hold it.
fn inexact_text(n: &Number) -> Option<String> {
    const EXACT: u64 = 1 << 53;
    if let Some(literal) = n.as_literal() {
        return (!crate::num::double_holds(literal)).then(|| String::from(literal));
    }
    let mut text = String::new();
    if let Some(v) = n.as_u64() {
        if v <= EXACT {
            return None;
        }
        crate::num::write_u64(&mut text, v);
    } else if let Some(v) = n.as_i64() {
        if v.unsigned_abs() <= EXACT {
            return None;
        }
        crate::num::write_i64(&mut text, v);
    } else {
        let v = n.as_f64();
        if v.is_finite() && !(v == 0.0 && v.is_sign_negative()) {
            return None; // a double holds itself
        }
        return Some(String::from(if v.is_nan() {
            "NaN"
        } else if v == 0.0 {
            "-0"
        } else if v > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        }));
    }
    (!crate::num::numeral_held(&text)).then_some(text)
}
