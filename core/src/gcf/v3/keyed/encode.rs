//! Writing keyed-set payloads: full (delta-participating), delta and unchanged (SPEC §10a).

use alloc::string::String;
use alloc::vec::Vec;

use super::root::{check, check_columns};
use super::{GenericDelta, KeyedSet, invalid};
use crate::Result;
use crate::gcf::v3::SpecVersion;
use crate::gcf::v3::scalar::{write_key, write_scalar};
use crate::json::Value;

/// Appends ` name=value`, checking the header-value grammar (printable ASCII, no spaces:
/// SPEC §4), so that the header reads back.
fn push_field(out: &mut String, name: &str, value: &str) -> Result<()> {
    check_header_value(name, value)?;
    out.push(' ');
    out.push_str(name);
    out.push('=');
    out.push_str(value);
    Ok(())
}

/// Checks the header-value grammar: one or more printable ASCII characters, no spaces.
pub(crate) fn check_header_value(name: &str, value: &str) -> Result<()> {
    if value.is_empty() || !value.bytes().all(|b| (0x21..=0x7E).contains(&b)) {
        return Err(invalid(alloc::format!(
            "header field {name}={value:?}: a header value is one or more printable ASCII \
             characters without spaces"
        )));
    }
    Ok(())
}

/// `{a,@id,"b c"}`: the declaration with the identity field marked.
fn write_decl(out: &mut String, fields: &[String], key: &str) {
    out.push('{');
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        if field == key {
            out.push('@');
        }
        write_key(out, field);
    }
    out.push('}');
}

/// One pipe-separated row (wire cells, SPEC §7.4).
fn write_row(out: &mut String, cells: &[Value]) -> Result<()> {
    for (i, cell) in cells.iter().enumerate() {
        if i > 0 {
            out.push('|');
        }
        if matches!(cell, Value::Array(_) | Value::Object(_)) {
            return Err(invalid(alloc::format!(
                "a keyed-set cell must be a scalar, not an {}; keyed sets are flat tables",
                cell.type_name()
            )));
        }
        // Generic deltas are a 3.5.3 form (SPEC §10a): written as before, as 3.6.0 still reads.
        write_scalar(out, cell, SpecVersion::V3_5_3)?;
    }
    out.push('\n');
    Ok(())
}

fn write_section(
    out: &mut String,
    name: &str,
    fields: &[String],
    key: &str,
    rows: &[Vec<Value>],
) -> Result<()> {
    out.push_str("## ");
    write_key(out, name);
    out.push_str(" [");
    crate::num::write_u64(out, rows.len() as u64);
    out.push(']');
    write_decl(out, fields, key);
    out.push('\n');
    for (index, row) in rows.iter().enumerate() {
        if row.len() != fields.len() {
            return Err(invalid(alloc::format!(
                "{name} row {index} has {} cells for {} fields",
                row.len(),
                fields.len()
            )));
        }
        write_row(out, row)?;
    }
    Ok(())
}

/// The delta-participating full payload of `set` (SPEC §10a):
/// `GCF profile=generic [tool=…] pack_root=… key=…` then `## <name> [N]{…@key…}` and the rows
/// in `set` order. An empty name writes `rows`.
///
/// ```
/// use agentwire::gcf::v3::keyed::{self, KeyedPayload, KeyedSet};
/// let mut set = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
/// set.rows = vec![vec!["ada".into(), "admin".into()], vec!["bo".into(), "-".into()]];
/// let wire = keyed::encode_full(&set, Some("list_users"))?;
/// let root = set.pack_root()?;
/// let header = format!("GCF profile=generic tool=list_users pack_root={root} key=id\n");
/// // The string "-" is quoted: a bare `-` is null.
/// assert_eq!(wire, header + "## users [2]{@id,role}\nada|admin\nbo|\"-\"\n");
/// let decoded = keyed::decode_keyed(&wire)?;
/// assert_eq!(decoded, KeyedPayload::Full { set, pack_root: root });
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_full(set: &KeyedSet, tool: Option<&str>) -> Result<String> {
    let root = check(set)?.root();
    let mut out = String::from("GCF profile=generic");
    if let Some(tool) = tool {
        push_field(&mut out, "tool", tool)?;
    }
    push_field(&mut out, "pack_root", &root)?;
    push_field(&mut out, "key", &set.key)?;
    out.push('\n');
    let name = if set.name.is_empty() {
        "rows"
    } else {
        &set.name
    };
    write_section(&mut out, name, &set.fields, &set.key, &set.rows)?;
    Ok(out)
}

/// The header-only answer when the consumer's root is current (SPEC §10a.4):
/// `GCF profile=generic [tool=…] unchanged=true pack_root=… count=N`.
///
/// ```
/// use agentwire::gcf::v3::keyed::{self, KeyedPayload, KeyedSet};
/// let mut set = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
/// set.rows = vec![vec!["ada".into(), "admin".into()]];
/// let wire = keyed::encode_unchanged(&set, Some("list_users"))?;
/// let root = set.pack_root()?;
/// let expected = format!("GCF profile=generic tool=list_users unchanged=true pack_root={root}");
/// assert_eq!(wire, expected + " count=1\n");
/// let decoded = keyed::decode_keyed(&wire)?;
/// assert_eq!(decoded, KeyedPayload::Unchanged { pack_root: root, count: Some(1) });
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_unchanged(set: &KeyedSet, tool: Option<&str>) -> Result<String> {
    let root = check(set)?.root();
    let mut out = String::from("GCF profile=generic");
    if let Some(tool) = tool {
        push_field(&mut out, "tool", tool)?;
    }
    out.push_str(" unchanged=true");
    push_field(&mut out, "pack_root", &root)?;
    out.push_str(" count=");
    crate::num::write_u64(&mut out, set.rows.len() as u64);
    out.push('\n');
    Ok(out)
}

/// A delta payload (SPEC §10a.2): `GCF profile=generic [tool=…] delta=true base_root=…
/// new_root=… key=… [savings=…]`, then the non-empty sections in the order added, changed,
/// removed (`## removed [N]{@key}`, one identity per line). Rows are written in the order
/// given; [`diff`](super::diff) sorts them by identity.
///
/// ```
/// use agentwire::gcf::v3::keyed::{self, KeyedSet};
/// let mut base = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
/// base.rows = vec![vec!["ada".into(), "dev".into()], vec!["bo".into(), "dev".into()]];
/// let mut current = base.clone();
/// current.rows = vec![vec!["ada".into(), "admin".into()], vec!["cy".into(), "ops".into()]];
/// let mut delta = keyed::diff(&base, &current)?;
/// delta.tool = Some("list_users".into());
/// delta.savings = keyed::savings_percent(40, 100);
/// let wire = keyed::encode_delta(&delta)?;
/// let roots = format!("base_root={} new_root={}", delta.base_root, delta.new_root);
/// let header = format!("GCF profile=generic tool=list_users delta=true {roots} key=id");
/// let body = concat!(
///     " savings=60%\n",
///     "## added [1]{@id,role}\ncy|ops\n",
///     "## changed [1]{@id,role}\nada|admin\n",
///     "## removed [1]{@id}\nbo\n",
/// );
/// assert_eq!(wire, header + body);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_delta(delta: &GenericDelta) -> Result<String> {
    let mut out = String::from("GCF profile=generic");
    if let Some(tool) = &delta.tool {
        push_field(&mut out, "tool", tool)?;
    }
    out.push_str(" delta=true");
    push_field(&mut out, "base_root", &delta.base_root)?;
    push_field(&mut out, "new_root", &delta.new_root)?;
    push_field(&mut out, "key", &delta.key)?;
    if let Some(savings) = &delta.savings {
        push_field(&mut out, "savings", savings)?;
    }
    out.push('\n');
    if !delta.added.is_empty() || !delta.changed.is_empty() {
        check_columns(&delta.key, &delta.fields)?;
    }
    if !delta.added.is_empty() {
        write_section(&mut out, "added", &delta.fields, &delta.key, &delta.added)?;
    }
    if !delta.changed.is_empty() {
        write_section(
            &mut out,
            "changed",
            &delta.fields,
            &delta.key,
            &delta.changed,
        )?;
    }
    if !delta.removed.is_empty() {
        out.push_str("## removed [");
        crate::num::write_u64(&mut out, delta.removed.len() as u64);
        out.push_str("]{@");
        write_key(&mut out, &delta.key);
        out.push_str("}\n");
        for id in &delta.removed {
            write_row(&mut out, core::slice::from_ref(id))?;
        }
    }
    Ok(out)
}

/// `savings=` for a delta of `delta_tokens` replacing a full payload of `full_tokens`:
/// `100 × (1 − delta/full)` rounded half to even, as `81%` (negative when the delta is
/// larger). `None` when `full_tokens` is 0.
///
/// ```
/// use agentwire::gcf::v3::keyed::savings_percent;
/// assert_eq!(savings_percent(30, 160).as_deref(), Some("81%")); // 81.25
/// assert_eq!(savings_percent(5, 8).as_deref(), Some("38%")); // 37.5: ties go to even
/// assert_eq!(savings_percent(7, 8).as_deref(), Some("12%")); // 12.5
/// assert_eq!(savings_percent(12, 10).as_deref(), Some("-20%")); // the delta is larger
/// assert_eq!(savings_percent(3, 0), None);
/// ```
pub fn savings_percent(delta_tokens: u64, full_tokens: u64) -> Option<String> {
    if full_tokens == 0 {
        return None;
    }
    let percent = 100.0 * (1.0 - delta_tokens as f64 / full_tokens as f64);
    let mut out = String::new();
    let _ = core::fmt::Write::write_fmt(&mut out, format_args!("{}%", round_half_even(percent)));
    Some(out)
}

/// `v` rounded to an integer, ties to even (no `f64::round` in `core`).
fn round_half_even(v: f64) -> i64 {
    // Clamped so that the casts and the ±1 below cannot overflow (a delta 10^16 times the
    // full payload is already absurd).
    let v = v.clamp(-1e18, 1e18);
    let mut floor = v as i64;
    if (floor as f64) > v {
        floor -= 1;
    }
    let fraction = v - floor as f64;
    if fraction > 0.5 || (fraction == 0.5 && floor % 2 != 0) {
        floor + 1
    } else {
        floor
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;
    use crate::json::Number;
    use alloc::vec;

    #[test]
    fn savings_round_half_even() {
        assert_eq!(savings_percent(30, 160).as_deref(), Some("81%"));
        assert_eq!(savings_percent(5, 8).as_deref(), Some("38%")); // 37.5
        assert_eq!(savings_percent(7, 8).as_deref(), Some("12%")); // 12.5
        assert_eq!(savings_percent(12, 10).as_deref(), Some("-20%"));
        assert_eq!(savings_percent(0, 0), None);
        assert_eq!(
            savings_percent(u64::MAX, 1).as_deref(),
            Some("-1000000000000000000%")
        );
        assert_eq!(round_half_even(-2.5), -2);
        assert_eq!(round_half_even(-3.5), -4);
    }

    #[test]
    fn wire_cells_and_quoted_names() {
        let set = KeyedSet {
            name: "my rows".into(),
            key: "order id".into(),
            fields: vec!["order id".into(), "note".into()],
            rows: vec![vec![Number::from_i64(1).into(), "a|b".into()]],
        };
        let e = encode_full(&set, None).unwrap_err();
        assert!(e.message().contains("key="), "{}", e.message());
        let set = KeyedSet {
            key: "sku".into(),
            fields: vec!["sku".into(), "note".into()],
            rows: vec![
                vec!["-".into(), "a|b".into()],
                vec!["x y".into(), Value::Null],
            ],
            ..set
        };
        let text = encode_full(&set, Some("t")).unwrap();
        assert!(
            text.ends_with("\n## \"my rows\" [2]{@sku,note}\n\"-\"|\"a|b\"\nx y|-\n"),
            "{text}"
        );
        assert!(encode_full(&set, Some("two words")).is_err());
    }

    #[test]
    fn unchanged_response() {
        let set =
            super::super::test_set(r#"{"key":"id","fields":["id"],"rows":[{"id":1},{"id":2}]}"#);
        let text = encode_unchanged(&set, None).unwrap();
        let root = set.pack_root().unwrap();
        assert_eq!(
            text,
            alloc::format!("GCF profile=generic unchanged=true pack_root={root} count=2\n")
        );
    }

    #[test]
    fn delta_rows_are_checked() {
        let delta = GenericDelta {
            key: "id".into(),
            fields: vec!["id".into(), "v".into()],
            base_root: "sha256:a".into(),
            new_root: "sha256:b".into(),
            added: vec![vec![Number::from_i64(1).into()]],
            ..GenericDelta::default()
        };
        assert_eq!(
            encode_delta(&delta).unwrap_err().kind(),
            ErrorKind::InvalidArgument
        );
        let nested = GenericDelta {
            added: vec![vec![Number::from_i64(1).into(), Value::Array(vec![])]],
            ..delta.clone()
        };
        assert!(
            encode_delta(&nested)
                .unwrap_err()
                .message()
                .contains("flat")
        );
        let no_root = GenericDelta {
            base_root: String::new(),
            added: vec![],
            ..delta
        };
        assert!(encode_delta(&no_root).is_err());
    }
}
