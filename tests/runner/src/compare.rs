//! The runner's one structural comparison of JSON values: every suite compares decoded values
//! with expectations through [`same_value`] (serde_json fixture values through
//! [`expect_json`]). Exact equality of serde_json values (`support::same`) and of text
//! (`support::same_text`) are the only other checks.

use agentwire::gcf::v3;
use agentwire::json::Value;
use serde_json::Value as J;

use crate::support::{from_value, to_value};

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

/// `expected` against `got`: arrays element by element (equal lengths), numbers by value (`1`
/// equals `1.0`; integers beyond 2^53 compare exactly), object members per `members`. Table
/// rows are the core's own rule ([`v3::round_trip_equal`]), so the runner cannot drift from it.
pub fn same_value(expected: &Value, got: &Value, members: Members) -> bool {
    match members {
        Members::InOrderExceptTableRows => v3::round_trip_equal(expected, got),
        _ => same_at(expected, got, members),
    }
}

fn same_at(a: &Value, b: &Value, members: Members) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => x
                .as_u64()
                .zip(y.as_u64())
                .map_or_else(|| x.as_f64() == y.as_f64(), |(x, y)| x == y),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_at(a, b, members))
        }
        (Value::Object(x), Value::Object(y)) => {
            let by_key = || {
                x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_at(v, w, members)))
            };
            match members {
                Members::Subset => by_key(),
                _ if x.len() != y.len() => false,
                Members::AnyOrder => by_key(),
                _ => x
                    .iter()
                    .zip(y.iter())
                    .all(|((ka, va), (kb, vb))| ka == kb && same_at(va, vb, members)),
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
