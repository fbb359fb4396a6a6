//! Table planning (SPEC §7.2a, §7.4): the field union, how each field is written, and the
//! rendered field declaration. The selection rules are documented on the parent module.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::{SpecVersion, scalar};
use super::{ArrayForm, Encoder};
use crate::Result;
use crate::json::{Map, Value};

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

/// The shared array schema of a field (SPEC §7.4.5.3): after row 0, its table attachments
/// omit their field declaration.
pub(super) enum SharedSchema {
    /// 3.5.3: row 0's table declares it, and a later table with the same declaration reuses
    /// it.
    Declaration(String),
    /// 3.6.0, the gcf crate's rule: every row's array is a non-empty table of scalars over the
    /// same field union; the rows after 0 write one cell per union field.
    Union,
}

/// How one union field is written.
pub(super) enum FieldKind {
    /// One column: scalars in the cell, containers as `^` with a traditional attachment.
    Plain { shared: Option<SharedSchema> },
    /// One column of `^{…}` (row 0) / `^` markers with positional bodies (SPEC §7.4.5.1);
    /// `marker` is the row-0 cell.
    Inline { marker: String },
    /// `field>leaf` path columns (SPEC §7.4.6), one per entry of `paths`.
    Flat { paths: Vec<String> },
    /// A name containing `>`: no column, an attachment in each row that has it.
    Detached { shared: Option<SharedSchema> },
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
    keyed: bool,
}

impl Table<'_> {
    /// The field declaration with the constant columns (by field) written `name=value`.
    pub(super) fn declaration(&self, constants: &[Option<String>]) -> String {
        declaration(
            &self.union,
            &self.kinds,
            &self.columns,
            self.keyed,
            constants,
        )
    }
}

/// The header value of column `name` (`value` of `name=value`) when every row holds the same
/// scalar there, compared as written; `None` otherwise (a row without it, a container, two
/// values). A row that is not an object (`None`) has no such scalar.
pub(super) fn constant_value<'a>(
    rows: impl Iterator<Item = Option<&'a Map>>,
    name: &str,
) -> Result<Option<String>> {
    let mut first: Option<String> = None;
    let mut cell = String::new();
    for row in rows {
        let value = row.and_then(|row| row.get(name));
        let Some(value @ (Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_))) =
            value
        else {
            return Ok(None);
        };
        cell.clear();
        scalar::write_constant(&mut cell, value)?;
        match &first {
            None => first = Some(cell.clone()),
            Some(first) if *first == cell => {}
            Some(_) => return Ok(None),
        }
    }
    Ok(first)
}

/// The field union of `rows` (first-observed order).
pub(super) fn field_union<'a>(rows: &[&'a Map]) -> FieldUnion<'a> {
    let mut union = FieldUnion::new();
    for row in rows {
        for key in row.keys() {
            union.insert(key);
        }
    }
    union
}

/// The constant columns of an array table (SPEC §7.4.7), by field: the header value of every
/// plain column that holds the same scalar in every row, as the gcf crate 3.1.0 decides it
/// (written values compare, so `1` and `1.0` are one constant). Empty when nothing is
/// factored: tables of fewer than two rows, or no such column. At least one column keeps its
/// cells: when every column is constant, the last one is not factored.
pub(super) fn constant_columns(table: &Table<'_>, items: &[Value]) -> Result<Vec<Option<String>>> {
    if items.len() < 2 {
        return Ok(Vec::new());
    }
    let mut constants: Vec<Option<String>> = alloc::vec![None; table.union.len()];
    let mut found = false;
    for &field in &table.columns {
        if !matches!(table.kinds[field], FieldKind::Plain { .. }) {
            continue;
        }
        let rows = items.iter().map(|item| item.as_object());
        constants[field] = constant_value(rows, table.union.name(field))?;
        found |= constants[field].is_some();
    }
    if !found {
        return Ok(Vec::new());
    }
    let all_constant = table
        .columns
        .iter()
        .all(|&field| constants[field].is_some());
    if all_constant && let Some(&last) = table.columns.last() {
        constants[last] = None;
    }
    Ok(constants)
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
            if matches!(value, Value::Array(_) | Value::Object(_))
                && let Some(flag) = nested.get_mut(field)
            {
                *flag = true;
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
                if nested.get(field) == Some(&true)
                    && let Some(list) = occurrences.get_mut(field)
                {
                    list.push((row, value));
                }
            }
        }
    }

    let version = encoder.version;
    let mut kinds = Vec::with_capacity(union.len());
    let mut columns = Vec::new();
    let mut flat_scalars = !any_nested;
    for (field, found) in occurrences.iter().enumerate() {
        let name = union.name(field);
        let flat = match version {
            _ if found.is_empty() => None,
            SpecVersion::V3_5_3 => flatten(name, found),
            SpecVersion::V3_6_0 => flatten_v3_6(name, rows),
        };
        let kind = if name.contains('>') {
            match attachment_schema(encoder, found)? {
                Some(shared) => FieldKind::Detached { shared },
                None => return Ok(None),
            }
        } else if let Some(paths) = flat {
            FieldKind::Flat { paths }
        } else if let Some(marker) = inline_schema(found, version) {
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

    let decl = declaration(&union, &kinds, &columns, keyed, &[]);
    Ok(Some(Table {
        union,
        kinds,
        columns,
        decl,
        flat_scalars,
        keyed,
    }))
}

/// Renders a field declaration, braces included: the key column of a keyed table, then the
/// columns; `constants` (by field, or empty) gives the factored ones their `=value`.
fn declaration(
    union: &FieldUnion<'_>,
    kinds: &[FieldKind],
    columns: &[usize],
    keyed: bool,
    constants: &[Option<String>],
) -> String {
    let mut decl = String::from("{");
    if keyed {
        let mut label = String::from("key");
        while union.index(&label).is_some() {
            label.insert(0, '_');
        }
        scalar::write_key(&mut decl, &label);
    }
    for &field in columns {
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
                if let Some(Some(value)) = constants.get(field) {
                    decl.push('=');
                    decl.push_str(value);
                }
            }
        }
    }
    decl.push('}');
    decl
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
/// does not qualify. 3.6.0 (the gcf crate) also admits rows holding null, which write `-`.
fn inline_schema(found: &[(usize, &Value)], version: SpecVersion) -> Option<String> {
    let &(first_row, Value::Object(first)) = found.first()? else {
        return None;
    };
    if first_row != 0 || first.len() < 3 {
        return None;
    }
    for &(_, value) in found {
        let object = match value {
            Value::Object(object) => object,
            Value::Null if version == SpecVersion::V3_6_0 => continue,
            _ => return None,
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

/// For a field written as traditional attachments: its shared array schema, or `None` when
/// the table would not be lossless in 3.5.3 (an expanded array attachment after a table
/// attachment of the same field; 3.6.0 writes it, as the gcf crate does, and decoders tell
/// the expanded body by its `@i` items).
///
/// 3.5.3: only a table of plain scalar columns establishes or reuses a schema: a body whose
/// rows carry `@i` prefixes or path columns is always declared in full, which keeps the
/// output readable by decoders that tell a shared-schema body from an expanded one by its
/// first line (the gcf reference decoder does). 3.6.0 follows [`SharedSchema::Union`].
fn attachment_schema<'a>(
    encoder: &mut Encoder<'a>,
    found: &[(usize, &'a Value)],
) -> Result<Option<Option<SharedSchema>>> {
    if encoder.version == SpecVersion::V3_6_0 {
        let shared = union_schema(found, encoder.lossless).then_some(SharedSchema::Union);
        return Ok(Some(shared));
    }
    let mut shared = None;
    let mut table_seen = false;
    for &(row, value) in found {
        let Value::Array(items) = value else {
            continue;
        };
        match encoder.array_form(items)? {
            ArrayForm::Table(table) => {
                if row == 0 && table.flat_scalars {
                    shared = Some(SharedSchema::Declaration(table.decl.clone()));
                }
                table_seen = true;
            }
            ArrayForm::Expanded if table_seen => return Ok(None),
            _ => {}
        }
    }
    Ok(Some(shared))
}

/// True when a field's arrays share one schema by the gcf crate 3.1.0's rule
/// ([`SharedSchema::Union`]): row 0 holds an array, and every array of the field (nulls
/// aside) is a non-empty array of objects whose values are all scalars, with the same field
/// union as row 0's. `lossless` also requires that no field of the union is `>`-named (see
/// [`EncodeOptions::lossless`](super::EncodeOptions::lossless)).
fn union_schema(found: &[(usize, &Value)], lossless: bool) -> bool {
    let Some(&(0, Value::Array(_))) = found.first() else {
        return false;
    };
    let mut first: Option<FieldUnion<'_>> = None;
    for &(_, value) in found {
        let items = match value {
            Value::Null => continue,
            Value::Array(items) if !items.is_empty() => items,
            _ => return false,
        };
        let mut rows = Vec::with_capacity(items.len());
        for item in items {
            match item {
                Value::Object(row)
                    if row
                        .iter()
                        .all(|(_, v)| !matches!(v, Value::Array(_) | Value::Object(_))) =>
                {
                    rows.push(row);
                }
                _ => return false,
            }
        }
        let union = field_union(&rows);
        if union.len() == 0 || (lossless && union.names.iter().any(|n| n.contains('>'))) {
            return false;
        }
        match &first {
            None => first = Some(union),
            Some(first) if first.names == union.names => {}
            Some(_) => return false,
        }
    }
    true
}

/// The path columns of a flattened field as the gcf crate 3.1.0 finds them (3.6.0), or
/// `None`. It differs from [`flatten`] in two ways: an intermediate object whose leaves are all
/// null flattens (only a row whose every leaf is null keeps the field from flattening, since
/// that row would read back as null), and below the top level that check follows the crate
/// in resolving each leaf's full path from the parent object (in effect, it never fires).
fn flatten_v3_6(name: &str, rows: &[&Map]) -> Option<Vec<String>> {
    let leaves = crate_leaves(rows, name, &[])?;
    if leaves.is_empty() {
        return None;
    }
    Some(leaves.iter().map(|path| path.join(">")).collect())
}

/// The leaf paths (from the row) of field `field` of `items` (the rows at the top level, the
/// parent objects below; `parents` is the path down to `items`), or `None` when the field does
/// not flatten: the crate's analysis, step for step.
fn crate_leaves<'a>(
    items: &[&'a Map],
    field: &'a str,
    parents: &[&'a str],
) -> Option<Vec<Vec<&'a str>>> {
    if field.is_empty() || field.contains('>') {
        return None;
    }
    let nested = !parents.is_empty();
    let mut objects: Vec<&'a Map> = Vec::new();
    for item in items {
        let object = match item.get(field) {
            None => continue,
            Some(Value::Null) if nested => return None,
            Some(Value::Null) => continue,
            Some(Value::Object(object)) => object,
            Some(_) => return None,
        };
        match objects.first() {
            None => {
                for (key, value) in object.iter() {
                    if key.is_empty() || key.contains('>') || matches!(value, Value::Array(_)) {
                        return None;
                    }
                }
            }
            Some(first) => {
                if object.len() != first.len() || !object.keys().eq(first.keys()) {
                    return None;
                }
                for ((_, shape), (_, value)) in first.iter().zip(object.iter()) {
                    let fits = match shape {
                        Value::Object(_) => matches!(value, Value::Null | Value::Object(_)),
                        _ => !matches!(value, Value::Array(_) | Value::Object(_)),
                    };
                    if !fits {
                        return None;
                    }
                }
            }
        }
        objects.push(object);
    }
    let first = *objects.first()?;
    let mut path: Vec<&'a str> = parents.to_vec();
    path.push(field);
    let mut leaves = Vec::new();
    for (key, value) in first.iter() {
        if matches!(value, Value::Object(_)) {
            let inner = crate_leaves(&objects, key, &path)?;
            if inner.is_empty() {
                return None;
            }
            leaves.extend(inner);
        } else {
            let mut leaf = path.clone();
            leaf.push(key);
            leaves.push(leaf);
        }
    }
    let all_null = |item: &&Map| {
        leaves
            .iter()
            .all(|leaf| matches!(resolve(item, leaf), Some(Value::Null)))
    };
    let holds_object = |item: &&&Map| matches!(item.get(field), Some(Value::Object(_)));
    if !leaves.is_empty() && items.iter().filter(holds_object).any(all_null) {
        return None;
    }
    Some(leaves)
}

/// The value at `path` from `object`.
fn resolve<'a>(object: &'a Map, path: &[&str]) -> Option<&'a Value> {
    let (first, rest) = path.split_first()?;
    let mut value = object.get(first)?;
    for key in rest {
        value = value.as_object()?.get(key)?;
    }
    Some(value)
}
