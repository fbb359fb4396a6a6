//! The generic canonical pack root, `gcf-pack-root-v1` (SPEC §10a.3), and the checks every
//! keyed-set operation shares (columns, scalar cells, unique identities).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use sha2::{Digest, Sha256};

use super::{KeyedSet, invalid};
use crate::Result;
use crate::gcf::v3::scalar::{write_number, write_quoted};
use crate::json::Value;

/// Appends the canonical hashing form of a cell (SPEC §10a.3): `-`, `true` / `false`,
/// canonical numbers (§2.3.1), strings always quoted. Distinct from the wire cell: a string
/// spelling a literal (`"-"`, `"1"`) cannot collide with it, and a tab or newline is escaped.
pub(crate) fn write_canonical(out: &mut String, value: &Value) -> Result<()> {
    match value {
        Value::Null => out.push('-'),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => write_number(out, n)?,
        Value::String(s) => write_quoted(out, s),
        Value::Array(_) | Value::Object(_) => return Err(nested(value)),
    }
    Ok(())
}

fn nested(value: &Value) -> crate::Error {
    invalid(alloc::format!(
        "a keyed-set cell must be a scalar (null, boolean, number or string), not an {}; \
         keyed sets are flat tables",
        value.type_name()
    ))
}

/// The canonical form of one value (identity lookups).
pub(crate) fn canonical(value: &Value) -> Result<String> {
    let mut out = String::new();
    write_canonical(&mut out, value)?;
    Ok(out)
}

/// A checked keyed set: where the identity column is, each row's canonical record, and the
/// identity index (canonical identity → row).
pub(crate) struct Checked {
    /// Index of the identity field in `fields`.
    pub key_at: usize,
    /// `R\tfield\tvalue…\n` per row, in row order (unsorted).
    pub records: Vec<String>,
    /// Canonical identity → row index.
    pub ids: BTreeMap<String, usize>,
}

impl Checked {
    /// The root of the records (sorted here; the order of `records` is kept for callers).
    pub fn root(&self) -> String {
        let mut sorted: Vec<&str> = self.records.iter().map(String::as_str).collect();
        sorted.sort_unstable_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
        let mut hasher = Sha256::new();
        for record in sorted {
            hasher.update(record.as_bytes());
        }
        hex_root(&hasher.finalize())
    }
}

fn hex_root(digest: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(7 + 2 * digest.len());
    out.push_str("sha256:");
    for &b in digest {
        out.push(HEX[usize::from(b >> 4)] as char);
        out.push(HEX[usize::from(b & 15)] as char);
    }
    out
}

/// Checks the columns of a keyed set: at least one, unique, the key among them. Returns the
/// identity column's index.
pub(crate) fn check_columns(key: &str, fields: &[String]) -> Result<usize> {
    let mut seen = BTreeMap::new();
    for (i, field) in fields.iter().enumerate() {
        if seen.insert(field.as_str(), i).is_some() {
            return Err(invalid(alloc::format!("field {field:?} is declared twice")));
        }
    }
    seen.get(key).copied().ok_or_else(|| {
        invalid(alloc::format!(
            "the identity field {key:?} is not one of the declared fields"
        ))
    })
}

/// The field indexes in unsigned byte order of their names (the record's field order).
fn byte_order(fields: &[String]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..fields.len()).collect();
    order.sort_unstable_by(|&a, &b| fields[a].as_bytes().cmp(fields[b].as_bytes()));
    order
}

/// Checks `set` (columns, row widths, scalar in-domain cells, unique identities) and builds
/// its records and identity index.
pub(crate) fn check(set: &KeyedSet) -> Result<Checked> {
    let key_at = check_columns(&set.key, &set.fields)?;
    let order = byte_order(&set.fields);
    let mut records = Vec::with_capacity(set.rows.len());
    let mut ids = BTreeMap::new();
    for (index, row) in set.rows.iter().enumerate() {
        if row.len() != set.fields.len() {
            return Err(invalid(alloc::format!(
                "row {index} has {} cells for {} fields",
                row.len(),
                set.fields.len()
            )));
        }
        let record = record(&set.fields, &order, row)?;
        let id = canonical(&row[key_at])?;
        if ids.contains_key(&id) {
            return Err(invalid(alloc::format!(
                "duplicate identity {id} in field {:?} (row {index}); identity values must be \
                 unique (SPEC §10a.1)",
                set.key
            )));
        }
        ids.insert(id, index);
        records.push(record);
    }
    Ok(Checked {
        key_at,
        records,
        ids,
    })
}

/// `R<TAB>field<TAB>value…<LF>` with fields in byte order.
fn record(fields: &[String], order: &[usize], row: &[Value]) -> Result<String> {
    let mut out = String::from("R");
    for &i in order {
        out.push('\t');
        out.push_str(&fields[i]);
        out.push('\t');
        write_canonical(&mut out, &row[i])?;
    }
    out.push('\n');
    Ok(out)
}

/// The canonical `gcf-pack-root-v1` root of a keyed set (SPEC §10a.3): one record per row,
/// `R<TAB>field<TAB>value…<LF>` with fields in unsigned byte order and canonical values,
/// records sorted by bytes, SHA-256 of their concatenation as `sha256:<64 hex>`. Independent
/// of row order and of column order.
///
/// ```
/// use agentwire::gcf::v3::keyed::{self, KeyedSet};
/// let mut set = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
/// set.rows = vec![vec!["ada".into(), "admin".into()]];
/// let root = keyed::pack_root(&set)?;
/// let hex = "169a47fcb9a17e58d50652913477dc467afb2bd0cc1fa08b090cf4485dda1e0c";
/// assert_eq!(root, format!("sha256:{hex}"));
/// // The same table with its columns swapped: records list fields in byte order.
/// let mut swapped = KeyedSet::new("users", "id", vec!["role".into(), "id".into()]);
/// swapped.rows = vec![vec!["admin".into(), "ada".into()]];
/// assert_eq!(keyed::pack_root(&swapped)?, root);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn pack_root(set: &KeyedSet) -> Result<String> {
    Ok(check(set)?.root())
}

/// The sorted canonical records whose concatenation [`pack_root`] hashes.
///
/// Fields come in byte order; strings are always quoted and null is `-`, so the string
/// `"-"` and null stay distinct.
///
/// ```
/// use agentwire::gcf::v3::keyed::{self, KeyedSet};
/// use agentwire::json::{Number, Value};
/// let mut set = KeyedSet::new("users", "id", vec!["id".into(), "role".into(), "age".into()]);
/// set.rows = vec![
///     vec!["bo".into(), Value::Null, Number::from_i64(7).into()],
///     vec!["ada".into(), "-".into(), Number::from_i64(36).into()],
/// ];
/// let records = keyed::canonical_records(&set)?;
/// assert_eq!(records.len(), 2);
/// assert_eq!(records[0], "R\tage\t36\tid\t\"ada\"\trole\t\"-\"\n");
/// assert_eq!(records[1], "R\tage\t7\tid\t\"bo\"\trole\t-\n");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn canonical_records(set: &KeyedSet) -> Result<Vec<String>> {
    let mut records = check(set)?.records;
    records.sort_unstable_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;
    use crate::json::Number;
    use alloc::vec;

    fn set(text: &str) -> KeyedSet {
        super::super::test_set(text)
    }

    #[test]
    fn fixture_root() {
        let s = set(
            r#"{"key":"id","fields":["id","total","status","customer"],"rows":[
            {"id":1001,"total":59.98,"status":"shipped","customer":"Alice"},
            {"id":1002,"total":29.99,"status":"pending","customer":"Bob"},
            {"id":1003,"total":129.50,"status":"shipped","customer":"Carol"}]}"#,
        );
        assert_eq!(
            pack_root(&s).unwrap(),
            "sha256:457e7c31e62e070a039b5cde9ea3edff6330e5913874e1165afddbcf6798eb7c"
        );
    }

    #[test]
    fn root_ignores_row_and_field_order() {
        let a = set(r#"{"key":"id","fields":["id","v","w"],"rows":[
            {"id":1,"v":"x","w":null},{"id":2,"v":"y","w":true}]}"#);
        let b = set(r#"{"key":"id","fields":["w","id","v"],"rows":[
            {"id":2,"v":"y","w":true},{"id":1,"v":"x","w":null}]}"#);
        assert_eq!(pack_root(&a).unwrap(), pack_root(&b).unwrap());
        let c = set(r#"{"key":"id","fields":["id","v","w"],"rows":[
            {"id":1,"v":"x","w":null},{"id":2,"v":"y","w":false}]}"#);
        assert_ne!(pack_root(&a).unwrap(), pack_root(&c).unwrap());
    }

    #[test]
    fn canonical_values() {
        let s = set(r#"{"key":"id","fields":["id","b","a"],"rows":[{"id":"1","b":"-","a":null}]}"#);
        assert_eq!(
            canonical_records(&s).unwrap(),
            ["R\ta\t-\tb\t\"-\"\tid\t\"1\"\n"]
        );
        let numbers = KeyedSet {
            name: String::new(),
            key: "id".into(),
            fields: vec!["id".into(), "x".into()],
            rows: vec![
                vec![Number::from_i64(1).into(), Number::from_f64(129.5).into()],
                vec![Number::from_i64(2).into(), Number::from_f64(75.0).into()],
                vec![Number::from_i64(3).into(), Number::from_f64(-0.0).into()],
                vec![Number::from_i64(4).into(), Number::from_f64(1e300).into()],
                vec![Number::from_i64(5).into(), "tab\there\n".into()],
            ],
        };
        assert_eq!(
            canonical_records(&numbers).unwrap(),
            [
                "R\tid\t1\tx\t129.5\n",
                "R\tid\t2\tx\t75\n",
                "R\tid\t3\tx\t0\n",
                "R\tid\t4\tx\t1e+300\n",
                "R\tid\t5\tx\t\"tab\\there\\n\"\n",
            ]
        );
    }

    #[test]
    fn string_and_number_identities_differ() {
        let a = set(r#"{"key":"id","fields":["id"],"rows":[{"id":1001}]}"#);
        let b = set(r#"{"key":"id","fields":["id"],"rows":[{"id":"1001"}]}"#);
        assert_ne!(pack_root(&a).unwrap(), pack_root(&b).unwrap());
    }

    #[test]
    fn invalid_sets() {
        let dup = set(r#"{"key":"id","fields":["id"],"rows":[{"id":1},{"id":1.0}]}"#);
        let e = pack_root(&dup).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidArgument);
        assert!(
            e.message().contains("duplicate identity 1"),
            "{}",
            e.message()
        );
        let nested = set(r#"{"key":"id","fields":["id","v"],"rows":[{"id":1,"v":[1]}]}"#);
        let e = pack_root(&nested).unwrap_err();
        assert!(e.message().contains("scalar"), "{}", e.message());
        let no_key = set(r#"{"key":"sku","fields":["id"],"rows":[]}"#);
        assert_eq!(
            pack_root(&no_key).unwrap_err().kind(),
            ErrorKind::InvalidArgument
        );
        let big = KeyedSet {
            name: String::new(),
            key: "id".into(),
            fields: vec!["id".into()],
            rows: vec![vec![Number::from_u64(1 << 63).into()]],
        };
        assert_eq!(
            pack_root(&big).unwrap_err().kind(),
            ErrorKind::GcfOutOfRange
        );
    }
}
