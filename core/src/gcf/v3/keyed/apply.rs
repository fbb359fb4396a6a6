//! Building a delta from two sets (producer) and applying one atomically (consumer,
//! SPEC §10a.5).

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;
use alloc::vec::Vec;

use super::root::{Checked, canonical, check};
use super::{GenericDelta, KeyedSet, invalid};
use crate::json::Value;
use crate::{Error, ErrorKind, Result};

fn conflict(message: String) -> Error {
    Error::new(ErrorKind::GcfDeltaConflict, message)
}

/// The delta from `base` to `current` (SPEC §10a.2): `added` for identities only in
/// `current`, `changed` for identities in both whose rows differ (whole rows), `removed` for
/// identities only in `base`; unchanged rows are omitted. Each section is sorted by the
/// canonical identity's bytes, so the result depends on the two sets only, not on their row
/// order. `tool` and `savings` are left empty.
///
/// Both sets must be valid, with the same `key` and the same `fields` in the same order;
/// otherwise (a schema change, SPEC §10a.7) this is [`ErrorKind::InvalidArgument`] and the
/// producer sends a full payload.
///
/// ```
/// use agentwire::gcf::v3::keyed::{self, KeyedSet};
/// use agentwire::ErrorKind;
/// let mut base = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
/// base.rows = vec![vec!["bo".into(), "dev".into()], vec!["ada".into(), "dev".into()]];
/// let mut current = base.clone();
/// current.rows[0][1] = "ops".into();
/// current.rows[1][1] = "admin".into();
/// let delta = keyed::diff(&base, &current)?;
/// // Sorted by identity, whatever the row order; nothing added or removed.
/// let ids: Vec<_> = delta.changed.iter().map(|row| row[0].as_str()).collect();
/// assert_eq!(ids, [Some("ada"), Some("bo")]);
/// assert!(delta.added.is_empty() && delta.removed.is_empty());
/// // A renamed column is a schema change, not a delta.
/// let mut renamed = current.clone();
/// renamed.fields[1] = "team".into();
/// assert_eq!(keyed::diff(&base, &renamed).unwrap_err().kind(), ErrorKind::InvalidArgument);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn diff(base: &KeyedSet, current: &KeyedSet) -> Result<GenericDelta> {
    let base_checked = check(base)?;
    let current_checked = check(current)?;
    diff_checked(base, &base_checked, current, &current_checked)
}

/// [`diff`] of sets already checked.
pub(crate) fn diff_checked(
    base: &KeyedSet,
    base_checked: &Checked,
    current: &KeyedSet,
    current_checked: &Checked,
) -> Result<GenericDelta> {
    if !same_schema(base, current) {
        return Err(invalid(alloc::format!(
            "schema change (key {:?} fields {:?} → key {:?} fields {:?}): a delta cannot express \
             it; send a full payload (SPEC §10a.7)",
            base.key,
            base.fields,
            current.key,
            current.fields
        )));
    }
    // BTreeMap iteration is in canonical identity byte order: the sections come out sorted.
    let mut added = Vec::new();
    let mut changed = Vec::new();
    for (id, &row) in &current_checked.ids {
        match base_checked.ids.get(id) {
            None => added.push(current.rows[row].clone()),
            // Records are an injective canonical form of the row: equal records, equal rows.
            Some(&old) if base_checked.records[old] != current_checked.records[row] => {
                changed.push(current.rows[row].clone())
            }
            Some(_) => {}
        }
    }
    let removed = base_checked
        .ids
        .iter()
        .filter(|(id, _)| !current_checked.ids.contains_key(*id))
        .map(|(_, &row)| base.rows[row][base_checked.key_at].clone())
        .collect();
    Ok(GenericDelta {
        tool: None,
        key: current.key.clone(),
        fields: current.fields.clone(),
        base_root: base_checked.root(),
        new_root: current_checked.root(),
        added,
        changed,
        removed,
        savings: None,
    })
}

/// Same identity field and same columns in the same order.
pub(crate) fn same_schema(a: &KeyedSet, b: &KeyedSet) -> bool {
    a.key == b.key && a.fields == b.fields
}

/// Applies `delta` to `base` atomically (SPEC §10a.5) and returns the new set; `base` is never
/// modified, so on any error the caller still holds its snapshot and asks for a full payload.
///
/// 1. `base`'s root must equal `delta.base_root` ([`ErrorKind::GcfRootMismatch`]).
/// 2. The whole delta is validated first ([`ErrorKind::GcfDeltaConflict`]): the same
///    identity field; the same column set (any order: rows are mapped by name); every
///    `added` identity absent from the base, every `changed` / `removed` identity present;
///    no identity named twice across the sections.
/// 3. On a copy: removed rows go, changed rows replace theirs in place, added rows are
///    appended in delta order; every other row is kept.
/// 4. The result's root must equal `delta.new_root` ([`ErrorKind::GcfRootMismatch`]).
///
/// ```
/// use agentwire::gcf::v3::keyed::{self, GenericDelta, KeyedSet};
/// let mut base = KeyedSet::new("users", "id", vec!["id".into(), "role".into()]);
/// base.rows = vec![vec!["ada".into(), "dev".into()], vec!["bo".into(), "dev".into()]];
/// let mut current = base.clone();
/// current.rows.remove(0);
/// let delta = keyed::diff(&base, &current)?;
/// let applied = keyed::apply_delta(&base, &delta)?;
/// assert_eq!(applied.rows, current.rows);
/// // Applying it again: the set no longer has the delta's base root.
/// assert_eq!(keyed::apply_delta(&applied, &delta).unwrap_err().code(), "GCF_ROOT_MISMATCH");
/// // Removing an identity the base lacks is a conflict, found before anything changes.
/// let unknown = GenericDelta { removed: vec!["cy".into()], ..delta };
/// assert_eq!(keyed::apply_delta(&base, &unknown).unwrap_err().code(), "GCF_DELTA_CONFLICT");
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn apply_delta(base: &KeyedSet, delta: &GenericDelta) -> Result<KeyedSet> {
    let checked = check(base)?;
    let base_root = checked.root();
    if base_root != delta.base_root {
        return Err(Error::new(
            ErrorKind::GcfRootMismatch,
            alloc::format!(
                "root_mismatch: the held set's root {base_root} is not the delta's base_root {}",
                delta.base_root
            ),
        ));
    }
    if delta.key != base.key {
        return Err(conflict(alloc::format!(
            "delta_conflict: the delta's key {:?} is not the set's identity field {:?}",
            delta.key,
            base.key
        )));
    }
    let has_rows = !delta.added.is_empty() || !delta.changed.is_empty();
    let columns = if has_rows || !delta.fields.is_empty() {
        column_map(&base.fields, &delta.fields)?
    } else {
        Vec::new()
    };
    let delta_key_at = columns.iter().position(|&c| c == checked.key_at);

    // Validate everything against the untouched base before building anything.
    #[derive(Clone, Copy)]
    enum Fate {
        Keep,
        Remove,
        Replace(usize),
    }
    let mut fate = alloc::vec![Fate::Keep; base.rows.len()];
    let mut added_ids = BTreeSet::new();
    let row_id = |section: &str, index: usize, row: &[Value]| -> Result<String> {
        if row.len() != delta.fields.len() {
            return Err(invalid(alloc::format!(
                "{section} row {index} has {} cells for {} fields",
                row.len(),
                delta.fields.len()
            )));
        }
        let key_at = delta_key_at.ok_or_else(|| {
            conflict("delta_conflict: the delta's fields lack the identity field".into())
        })?;
        canonical(&row[key_at])
    };
    for (index, row) in delta.added.iter().enumerate() {
        let id = row_id("added", index, row)?;
        if checked.ids.contains_key(&id) {
            return Err(conflict(alloc::format!(
                "delta_conflict: added identity {id} already exists in the base"
            )));
        }
        if added_ids.contains(&id) {
            return Err(conflict(alloc::format!(
                "delta_conflict: added identity {id} appears twice"
            )));
        }
        added_ids.insert(id);
    }
    let mut claim = |id: String, section: &str, new_fate: Fate| -> Result<()> {
        let Some(&at) = checked.ids.get(&id) else {
            return Err(conflict(alloc::format!(
                "delta_conflict: {section} identity {id} does not exist in the base"
            )));
        };
        if !matches!(fate[at], Fate::Keep) {
            return Err(conflict(alloc::format!(
                "delta_conflict: identity {id} is named twice in changed/removed"
            )));
        }
        fate[at] = new_fate;
        Ok(())
    };
    for (index, row) in delta.changed.iter().enumerate() {
        claim(
            row_id("changed", index, row)?,
            "changed",
            Fate::Replace(index),
        )?;
    }
    for id in &delta.removed {
        claim(canonical(id)?, "removed", Fate::Remove)?;
    }

    // The new set: base rows in order (removed ones dropped, changed ones replaced in place),
    // then the added rows.
    let to_base_order = |row: &[Value]| -> Vec<Value> {
        let mut cells = alloc::vec![Value::Null; base.fields.len()];
        for (cell, &column) in row.iter().zip(&columns) {
            cells[column] = cell.clone();
        }
        cells
    };
    let mut rows = Vec::with_capacity(base.rows.len() + delta.added.len());
    for (row, fate) in base.rows.iter().zip(&fate) {
        match *fate {
            Fate::Keep => rows.push(row.clone()),
            Fate::Remove => {}
            Fate::Replace(index) => rows.push(to_base_order(&delta.changed[index])),
        }
    }
    rows.extend(delta.added.iter().map(|row| to_base_order(row)));
    let result = KeyedSet {
        name: base.name.clone(),
        key: base.key.clone(),
        fields: base.fields.clone(),
        rows,
    };
    let new_root = check(&result)?.root();
    if new_root != delta.new_root {
        return Err(Error::new(
            ErrorKind::GcfRootMismatch,
            alloc::format!(
                "root_mismatch: the applied set's root {new_root} is not the delta's new_root {}",
                delta.new_root
            ),
        ));
    }
    Ok(result)
}

/// For each delta column, its index among the base columns; the two must be the same set.
fn column_map(base_fields: &[String], delta_fields: &[String]) -> Result<Vec<usize>> {
    let by_name: BTreeMap<&str, usize> = base_fields
        .iter()
        .enumerate()
        .map(|(i, f)| (f.as_str(), i))
        .collect();
    let mut seen = alloc::vec![false; base_fields.len()];
    let mut columns = Vec::with_capacity(delta_fields.len());
    for field in delta_fields {
        let at = by_name.get(field.as_str()).copied().filter(|&at| !seen[at]);
        let Some(at) = at else {
            return Err(schema_change(base_fields, delta_fields));
        };
        seen[at] = true;
        columns.push(at);
    }
    if columns.len() != base_fields.len() {
        return Err(schema_change(base_fields, delta_fields));
    }
    Ok(columns)
}

fn schema_change(base_fields: &[String], delta_fields: &[String]) -> Error {
    conflict(alloc::format!(
        "delta_conflict: the delta's fields {delta_fields:?} are not the set's fields \
         {base_fields:?} (a schema change needs a full payload)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::Number;
    use alloc::vec;

    fn set(rows: &str) -> KeyedSet {
        super::super::test_set(&alloc::format!(
            r#"{{"name":"t","key":"id","fields":["id","v"],"rows":{rows}}}"#
        ))
    }

    fn int(v: i64) -> Value {
        Number::from_i64(v).into()
    }

    #[test]
    fn diff_sorts_by_canonical_identity_and_round_trips() {
        let base = set(r#"[{"id":1,"v":"a"},{"id":2,"v":"b"},{"id":10,"v":"c"},{"id":3,"v":"d"}]"#);
        let current = set(
            r#"[{"id":30,"v":"x"},{"id":10,"v":"C"},{"id":2,"v":"b"},{"id":4,"v":"y"},{"id":1,"v":"A"}]"#,
        );
        let delta = diff(&base, &current).unwrap();
        // Canonical identities sort as bytes: "30" < "4", "1" < "10".
        assert_eq!(
            delta.added,
            [vec![int(30), "x".into()], vec![int(4), "y".into()]]
        );
        assert_eq!(
            delta.changed,
            [vec![int(1), "A".into()], vec![int(10), "C".into()]]
        );
        assert_eq!(delta.removed, [int(3)]);
        let applied = apply_delta(&base, &delta).unwrap();
        assert_eq!(applied.pack_root().unwrap(), current.pack_root().unwrap());
        // Base order kept, changed rows in place, added rows appended.
        let ids: Vec<&Value> = applied.rows.iter().map(|r| &r[0]).collect();
        assert_eq!(ids, [&int(1), &int(2), &int(10), &int(30), &int(4)]);
    }

    #[test]
    fn equal_numbers_are_unchanged() {
        let base = set(r#"[{"id":1,"v":2}]"#);
        let current = set(r#"[{"id":1.0,"v":2.0}]"#);
        assert!(diff(&base, &current).unwrap().is_empty());
    }

    #[test]
    fn schema_change_is_not_a_delta() {
        let base = set(r#"[{"id":1,"v":2}]"#);
        let mut current = base.clone();
        current.fields.swap(0, 1);
        current.rows[0].swap(0, 1);
        let e = diff(&base, &current).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidArgument);
        assert!(e.message().contains("schema change"), "{}", e.message());
    }

    fn delta_for(base: &KeyedSet) -> GenericDelta {
        GenericDelta {
            key: "id".into(),
            fields: vec!["id".into(), "v".into()],
            base_root: base.pack_root().unwrap(),
            ..GenericDelta::default()
        }
    }

    #[test]
    fn conflicts_are_rejected_before_anything_changes() {
        let base = set(r#"[{"id":1,"v":"a"},{"id":2,"v":"b"}]"#);
        let cases: [(GenericDelta, &str); 6] = [
            (
                GenericDelta {
                    added: vec![vec![int(1), "z".into()]],
                    ..delta_for(&base)
                },
                "added identity 1 already exists",
            ),
            (
                GenericDelta {
                    added: vec![vec![int(5), "z".into()], vec![int(5), "y".into()]],
                    ..delta_for(&base)
                },
                "added identity 5 appears twice",
            ),
            (
                GenericDelta {
                    changed: vec![vec![int(7), "z".into()]],
                    ..delta_for(&base)
                },
                "changed identity 7 does not exist",
            ),
            (
                GenericDelta {
                    removed: vec!["1".into()],
                    ..delta_for(&base)
                },
                "removed identity \"1\" does not exist",
            ),
            (
                GenericDelta {
                    changed: vec![vec![int(1), "z".into()]],
                    removed: vec![int(1)],
                    ..delta_for(&base)
                },
                "identity 1 is named twice",
            ),
            (
                GenericDelta {
                    fields: vec!["id".into(), "w".into()],
                    added: vec![vec![int(9), "z".into()]],
                    ..delta_for(&base)
                },
                "schema change",
            ),
        ];
        for (delta, message) in cases {
            let e = apply_delta(&base, &delta).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::GcfDeltaConflict, "{}", e.message());
            assert!(e.message().contains(message), "{}", e.message());
        }
    }

    #[test]
    fn roots_are_verified() {
        let base = set(r#"[{"id":1,"v":"a"}]"#);
        let wrong_base = GenericDelta {
            base_root: "sha256:00".into(),
            ..delta_for(&base)
        };
        assert_eq!(
            apply_delta(&base, &wrong_base).unwrap_err().kind(),
            ErrorKind::GcfRootMismatch
        );
        let wrong_new = GenericDelta {
            removed: vec![int(1)],
            new_root: base.pack_root().unwrap(),
            ..delta_for(&base)
        };
        assert_eq!(
            apply_delta(&base, &wrong_new).unwrap_err().kind(),
            ErrorKind::GcfRootMismatch
        );
        let empty = GenericDelta {
            new_root: base.pack_root().unwrap(),
            ..delta_for(&base)
        };
        assert_eq!(apply_delta(&base, &empty).unwrap(), base);
    }

    #[test]
    fn delta_columns_may_be_permuted() {
        let base = set(r#"[{"id":1,"v":"a"}]"#);
        let current = set(r#"[{"id":1,"v":"b"}]"#);
        let delta = GenericDelta {
            fields: vec!["v".into(), "id".into()],
            changed: vec![vec!["b".into(), int(1)]],
            new_root: current.pack_root().unwrap(),
            ..delta_for(&base)
        };
        assert_eq!(apply_delta(&base, &delta).unwrap().rows, current.rows);
    }

    #[test]
    fn large_sets_apply_quickly() {
        let mut base = KeyedSet::new("t", "id", vec!["id".into(), "v".into()]);
        for i in 0..20_000 {
            base.rows.push(vec![int(i), int(i * 2)]);
        }
        let mut current = base.clone();
        current.rows.retain(|r| r[0] != int(5));
        current.rows[100][1] = "x".into();
        current.rows.push(vec![int(-1), Value::Null]);
        let delta = diff(&base, &current).unwrap();
        assert_eq!(
            (delta.added.len(), delta.changed.len(), delta.removed.len()),
            (1, 1, 1)
        );
        assert_eq!(
            apply_delta(&base, &delta).unwrap().pack_root().unwrap(),
            current.pack_root().unwrap()
        );
    }
}
