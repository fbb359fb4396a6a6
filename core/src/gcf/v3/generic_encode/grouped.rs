//! Value grouping (SPEC §7.4.8, v3.6.0): a keyed set of records written in clusters of one
//! low-cardinality column, opt-in. Byte-identical to the gcf crate 3.1.0's
//! `encode_generic_grouped`.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::{SpecVersion, scalar};
use super::table::{constant_value, field_union};
use crate::json::{Map, Value};
use crate::num::write_u64;
use crate::{Error, ErrorKind, Result};

/// Encodes an array of flat records as a value-grouped keyed set (SPEC §7.4.8): the header
/// `## [N]{@key,…,group,…} group=<group>` declares the unique key column with `@`, then each
/// distinct value of `group` (in first-seen order) opens a subheader `<group>=<value> [count]`
/// followed by its records' rows. The group column has no cell; every other column holding
/// the same scalar in every record is factored as a constant (`name=value`, SPEC §7.4.7),
/// when there are at least two records.
///
/// This form is never the canonical default: [`encode_generic`](super::encode_generic)
/// writes plain tables. Decoders read it back to the same records, in group order.
///
/// Errors are [`ErrorKind::InvalidArgument`] when `value` is not a non-empty array of
/// objects, `key` equals `group`, either field appears in no record, a record holds an array
/// or object (grouped rows carry no attachments), or a record lacks the key or holds null
/// there; [`ErrorKind::GcfDuplicateKey`] when two records have the same key; and
/// [`ErrorKind::GcfOutOfRange`] for numbers outside the GCF domain. A record without the
/// group field joins the group of null, as in the gcf crate (it reads back with the group
/// field null).
///
/// ```
/// use agentwire::gcf::v3;
/// use agentwire::json;
/// let people = json::parse(
///     r#"[{"id":1,"dept":"eng","site":"ber"},{"id":2,"dept":"ops","site":"ber"},{"id":3,"dept":"eng","site":"ber"}]"#,
/// )?;
/// let text = v3::encode_generic_grouped(&people, "id", "dept")?;
/// assert_eq!(
///     text,
///     "GCF profile=generic\n## [3]{@id,dept,site=ber} group=dept\ndept=eng [2]\n1\n3\ndept=ops [1]\n2\n"
/// );
/// let back = v3::decode_generic(&text)?;
/// assert_eq!(back.as_array().map(|rows| rows.len()), Some(3));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_generic_grouped(value: &Value, key: &str, group: &str) -> Result<String> {
    let Value::Array(items) = value else {
        return Err(invalid("value grouping needs an array of records"));
    };
    if items.is_empty() {
        return Err(invalid("value grouping needs at least one record"));
    }
    if key == group {
        return Err(invalid(format!(
            "value grouping: the key field and the group field are both {key:?}"
        )));
    }
    let mut records: Vec<&Map> = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Value::Object(record) => records.push(record),
            _ => {
                return Err(invalid(
                    "value grouping needs an array of records (objects)",
                ));
            }
        }
    }
    let union = field_union(&records);
    for (role, field) in [("key", key), ("group", group)] {
        if union.index(field).is_none() {
            return Err(invalid(format!(
                "value grouping: the {role} field {field:?} is in no record"
            )));
        }
    }
    let version = SpecVersion::V3_6_0;
    check_records(&records, key, version)?;

    // Constant columns: every record holds the same scalar (key and group excluded).
    let mut constants: Vec<Option<String>> = alloc::vec![None; union.len()];
    if records.len() >= 2 {
        for (field, constant) in constants.iter_mut().enumerate() {
            let name = union.name(field);
            if name != key && name != group {
                *constant = constant_value(records.iter().map(|r| Some(*r)), name)?;
            }
        }
    }

    let mut out = String::from("GCF profile=generic\n## [");
    write_u64(&mut out, records.len() as u64);
    out.push_str("]{");
    for (field, constant) in constants.iter().enumerate() {
        if field > 0 {
            out.push(',');
        }
        let name = union.name(field);
        if name == key {
            out.push('@');
        }
        scalar::write_key(&mut out, name);
        if let Some(value) = constant {
            out.push('=');
            out.push_str(value);
        }
    }
    out.push_str("} group=");
    scalar::write_key(&mut out, group);
    out.push('\n');

    // The cells of each row: the fields that are neither the group nor constant.
    let bare: Vec<&str> = (0..union.len())
        .filter(|&field| union.name(field) != group && constants[field].is_none())
        .map(|field| union.name(field))
        .collect();
    // Groups by the written group value, in first-seen order (absent reads as null).
    let mut order: Vec<(String, &Value, Vec<&Map>)> = Vec::new();
    let mut by_value: BTreeMap<String, usize> = BTreeMap::new();
    for record in &records {
        let value = record.get(group).unwrap_or(&Value::Null);
        let mut written = String::new();
        scalar::write_scalar(&mut written, value, version)?;
        let at = *by_value.entry(written.clone()).or_insert_with(|| {
            order.push((written, value, Vec::new()));
            order.len() - 1
        });
        order[at].2.push(record);
    }
    for (written, _, members) in &order {
        scalar::write_key(&mut out, group);
        out.push('=');
        out.push_str(written);
        out.push_str(" [");
        write_u64(&mut out, members.len() as u64);
        out.push_str("]\n");
        for record in members {
            for (i, name) in bare.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                match record.get(name) {
                    None => out.push('~'),
                    Some(value) => scalar::write_scalar(&mut out, value, version)?,
                }
            }
            out.push('\n');
        }
    }
    Ok(out)
}

/// Every record holds scalars only and a unique, non-null key.
fn check_records(records: &[&Map], key: &str, version: SpecVersion) -> Result<()> {
    let mut keys: BTreeSet<String> = BTreeSet::new();
    for record in records {
        if let Some((name, _)) = record
            .iter()
            .find(|(_, v)| matches!(v, Value::Array(_) | Value::Object(_)))
        {
            return Err(invalid(format!(
                "value grouping: field {name:?} holds an array or object (grouped rows carry \
                 scalars only)"
            )));
        }
        let value = match record.get(key) {
            None | Some(Value::Null) => {
                return Err(invalid(format!(
                    "value grouping: a record has no value for the key field {key:?}"
                )));
            }
            Some(value) => value,
        };
        let mut written = String::new();
        scalar::write_scalar(&mut written, value, version)?;
        if keys.contains(&written) {
            return Err(Error::new(
                ErrorKind::GcfDuplicateKey,
                format!(
                    "duplicate_key: two records have the key {}",
                    scalar::truncate(&written, 60)
                ),
            ));
        }
        keys.insert(written);
    }
    Ok(())
}

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidArgument, message)
}
