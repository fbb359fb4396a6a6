//! Table planning (SPEC §7.2a, §7.4): the field union, how each field is written, and the
//! rendered field declaration. The selection rules are documented on the parent module.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::scalar;
use super::{ArrayForm, Encoder};
use crate::json::{Map, Value};
use crate::Result;

/// Up to this many fields a union is searched linearly; past it, through an index.
const LINEAR_FIELDS: usize = 8;

/// The ordered field union of a table (SPEC §7.4.3): first-observed order.
pub(super) struct FieldUnion<'a> {
    names: Vec<&'a str>,
    index: BTreeMap<&'a str, usize>,
}

impl<'a> FieldUnion<'a> {
    fn new() -> Self {
        FieldUnion {
            names: Vec::new(),
            index: BTreeMap::new(),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.names.len()
    }

    pub(super) fn name(&self, field: usize) -> &'a str {
        self.names.get(field).copied().unwrap_or_default()
    }

    /// The position of `key` in the union.
    pub(super) fn index(&self, key: &str) -> Option<usize> {
        if self.names.len() <= LINEAR_FIELDS {
            self.names.iter().position(|name| *name == key)
        } else {
            self.index.get(key).copied()
        }
    }

    /// The position of `key`, trying `hint` first: rows usually list their keys in union
    /// order, so the field after the previous one is the likely match.
    pub(super) fn index_from(&self, key: &str, hint: usize) -> Option<usize> {
        match self.names.get(hint) {
            Some(name) if *name == key => Some(hint),
            _ => self.index(key),
        }
    }

    /// The position of `key`, appended when new.
    fn insert(&mut self, key: &'a str) -> usize {
        if let Some(field) = self.index(key) {
            return field;
        }
        let field = self.names.len();
        self.names.push(key);
        if self.names.len() > LINEAR_FIELDS {
            if self.index.is_empty() {
                self.index = self
                    .names
                    .iter()
                    .enumerate()
                    .map(|(i, n)| (*n, i))
                    .collect();
            } else {
                self.index.insert(key, field);
            }
        }
        field
    }
}

/// How one union field is written.
pub(super) enum FieldKind {
    /// One column: scalars in the cell, containers as `^` with a traditional attachment.
    /// `shared` is the declaration of row 0's table attachment (SPEC §7.4.5.3).
    Plain { shared: Option<String> },
    /// One column of `^{…}` (row 0) / `^` markers with positional bodies (SPEC §7.4.5.1);
    /// `marker` is the row-0 cell.
    Inline { marker: String },
    /// `field>leaf` path columns (SPEC §7.4.6), one per entry of `paths`.
    Flat { paths: Vec<String> },
    /// A name containing `>`: no column, an attachment in each row that has it.
    Detached { shared: Option<String> },
}

/// A planned table.
pub(super) struct Table<'a> {
    pub(super) union: FieldUnion<'a>,
    /// By field position in the union.
    pub(super) kinds: Vec<FieldKind>,
    /// The fields that have columns, in union order.
    pub(super) columns: Vec<usize>,
    /// The field declaration, braces included (and the key column of a keyed table).
    pub(super) decl: String,
    /// Every cell is a scalar in a plain column: no attachments, no path columns. Only such
    /// a table may reuse a shared array schema (see `attachment_schema`).
    pub(super) flat_scalars: bool,
}

/// The table for an array, or `None` when the array is not all objects or not losslessly
/// tabular (it is then expanded).
pub(super) fn plan_array<'a>(
    encoder: &mut Encoder<'a>,
    items: &'a [Value],
) -> Result<Option<Table<'a>>> {
    let mut rows = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Value::Object(row) => rows.push(row),
            _ => return Ok(None),
        }
    }
    plan(encoder, &rows, false)
}

/// The keyed table for an object (SPEC §7.2a.1), or `None` when it uses sections.
pub(super) fn plan_keyed<'a>(encoder: &mut Encoder<'a>, map: &'a Map) -> Result<Option<Table<'a>>> {
    if map.len() < 2 {
        return Ok(None);
    }
    let mut rows = Vec::with_capacity(map.len());
    for (_, value) in map.iter() {
        match value {
            Value::Object(row) => rows.push(row),
            _ => return Ok(None),
        }
    }
    plan(encoder, &rows, true)
}

fn plan<'a>(encoder: &mut Encoder<'a>, rows: &[&'a Map], keyed: bool) -> Result<Option<Table<'a>>> {
    let mut union = FieldUnion::new();
    // Per field: does some row hold an array or object there? Only such fields need the
    // per-row analysis below; a table of scalars is planned in this one pass.
    let mut nested: Vec<bool> = Vec::new();
    for object in rows {
        let mut hint = 0;
        for (key, value) in object.iter() {
            let field = match union.index_from(key, hint) {
                Some(field) => field,
                None => union.insert(key),
            };
            hint = field + 1;
            if field == nested.len() {
                nested.push(false);
            }
            if matches!(value, Value::Array(_) | Value::Object(_)) {
                if let Some(flag) = nested.get_mut(field) {
                    *flag = true;
                }
            }
        }
    }
    // For nested fields: the rows that have the field and the value there.
    let mut occurrences: Vec<Vec<(usize, &'a Value)>> = alloc::vec![Vec::new(); union.len()];
    let any_nested = nested.contains(&true);
    if any_nested {
        for (row, object) in rows.iter().enumerate() {
            let mut hint = 0;
            for (key, value) in object.iter() {
                let Some(field) = union.index_from(key, hint) else {
                    continue;
                };
                hint = field + 1;
                if nested.get(field) == Some(&true) {
                    if let Some(list) = occurrences.get_mut(field) {
                        list.push((row, value));
                    }
                }
            }
        }
    }

    let mut kinds = Vec::with_capacity(union.len());
    let mut columns = Vec::new();
    let mut flat_scalars = !any_nested;
    for (field, found) in occurrences.iter().enumerate() {
        let name = union.name(field);
        let kind = if name.contains('>') {
            match attachment_schema(encoder, found)? {
                Some(shared) => FieldKind::Detached { shared },
                None => return Ok(None),
            }
        } else if let Some(paths) = flatten(name, found) {
            FieldKind::Flat { paths }
        } else if let Some(marker) = inline_schema(found) {
            FieldKind::Inline { marker }
        } else {
            match attachment_schema(encoder, found)? {
                Some(shared) => FieldKind::Plain { shared },
                None => return Ok(None),
            }
        };
        flat_scalars &= matches!(kind, FieldKind::Plain { .. });
        if !matches!(kind, FieldKind::Detached { .. }) {
            columns.push(field);
        }
        kinds.push(kind);
    }
    if columns.is_empty() {
        return Ok(None);
    }

    let mut decl = String::from("{");
    if keyed {
        let mut label = String::from("key");
        while union.index(&label).is_some() {
            label.insert(0, '_');
        }
        scalar::write_key(&mut decl, &label);
    }
    for &field in &columns {
        match &kinds[field] {
            FieldKind::Flat { paths } => {
                for path in paths {
                    comma(&mut decl);
                    scalar::write_key(&mut decl, path);
                }
            }
            _ => {
                comma(&mut decl);
                scalar::write_key(&mut decl, union.name(field));
            }
        }
    }
    decl.push('}');
    Ok(Some(Table {
        union,
        kinds,
        columns,
        decl,
        flat_scalars,
    }))
}

/// A `,` unless `decl` is just the opening brace.
fn comma(decl: &mut String) {
    if decl.len() > 1 {
        decl.push(',');
    }
}

/// The path columns of a flattened field (SPEC §7.4.6.1), or `None` when the field cannot be
/// flattened losslessly.
fn flatten(name: &str, found: &[(usize, &Value)]) -> Option<Vec<String>> {
    if name.is_empty() || name.contains('>') {
        return None;
    }
    let mut objects = Vec::with_capacity(found.len());
    for &(_, value) in found {
        match value {
            // A null field writes `-` in every leaf column and reads back as null.
            Value::Null => {}
            Value::Object(object) => objects.push(object),
            _ => return None,
        }
    }
    let mut paths = Vec::new();
    let mut prefix = String::from(name);
    let has_value = flat_shape(&objects, &mut prefix, &mut paths)?;
    has_value.iter().all(|&b| b).then_some(paths)
}

/// Checks that `objects` (one level of a flattened field, at least one) share one shape and
/// appends their leaf paths. Returns, per object, whether it has a non-null leaf: an object of
/// null leaves would read back as null (SPEC §7.4.6.2 rule 5).
fn flat_shape(objects: &[&Map], prefix: &mut String, paths: &mut Vec<String>) -> Option<Vec<bool>> {
    let first = objects.first()?;
    if first.is_empty() || first.keys().any(|key| key.is_empty() || key.contains('>')) {
        return None;
    }
    if objects
        .iter()
        .any(|object| object.len() != first.len() || !object.keys().eq(first.keys()))
    {
        return None;
    }
    let mut has_value = alloc::vec![false; objects.len()];
    let mut members: Vec<_> = objects.iter().map(|object| object.iter()).collect();
    let mut column: Vec<&Value> = Vec::with_capacity(objects.len());
    for key in first.keys() {
        column.clear();
        for member in &mut members {
            column.push(member.next()?.1);
        }
        let prefix_len = prefix.len();
        prefix.push('>');
        prefix.push_str(key);
        match column.first()? {
            Value::Array(_) => return None,
            Value::Object(_) => {
                // Every row's intermediate object must be an object: a null one would
                // flatten to leaves that cannot say "null here".
                let inner: Vec<&Map> = column
                    .iter()
                    .map(|value| value.as_object())
                    .collect::<Option<_>>()?;
                if flat_shape(&inner, prefix, paths)?.contains(&false) {
                    return None;
                }
                has_value.iter_mut().for_each(|b| *b = true);
            }
            _ => {
                for (flag, value) in has_value.iter_mut().zip(&column) {
                    match value {
                        Value::Array(_) | Value::Object(_) => return None,
                        Value::Null => {}
                        _ => *flag = true,
                    }
                }
                paths.push(prefix.clone());
            }
        }
        prefix.truncate(prefix_len);
    }
    Some(has_value)
}

/// The `^{…}` marker of an inline object schema (SPEC §7.4.5.1), or `None` when the field
/// does not qualify.
fn inline_schema(found: &[(usize, &Value)]) -> Option<String> {
    let &(first_row, Value::Object(first)) = found.first()? else {
        return None;
    };
    if first_row != 0 || first.len() < 3 {
        return None;
    }
    for &(_, value) in found {
        let Value::Object(object) = value else {
            return None;
        };
        if object.len() != first.len()
            || !object.keys().eq(first.keys())
            || object
                .iter()
                .any(|(_, v)| matches!(v, Value::Array(_) | Value::Object(_)))
        {
            return None;
        }
    }
    let mut marker = String::from("^{");
    for (i, key) in first.keys().enumerate() {
        if i > 0 {
            marker.push(',');
        }
        scalar::write_key(&mut marker, key);
    }
    marker.push('}');
    Some(marker)
}

/// For a field written as traditional attachments: the shared array schema row 0
/// establishes, or `None` when the table would not be lossless (an expanded array
/// attachment after a table attachment of the same field).
///
/// Only a table of plain scalar columns establishes or reuses a schema: a body whose rows
/// carry `@i` prefixes or path columns is always declared in full, which keeps the output
/// readable by decoders that tell a shared-schema body from an expanded one by its first
/// line (the gcf reference decoder does).
fn attachment_schema<'a>(
    encoder: &mut Encoder<'a>,
    found: &[(usize, &'a Value)],
) -> Result<Option<Option<String>>> {
    let mut shared = None;
    let mut table_seen = false;
    for &(row, value) in found {
        let Value::Array(items) = value else {
            continue;
        };
        match encoder.array_form(items)? {
            ArrayForm::Table(table) => {
                if row == 0 && table.flat_scalars {
                    shared = Some(table.decl.clone());
                }
                table_seen = true;
            }
            ArrayForm::Expanded if table_seen => return Ok(None),
            _ => {}
        }
    }
    Ok(Some(shared))
}
