//! Generic-profile encoder (SPEC §7): any JSON value as a buffered `GCF profile=generic`
//! payload, plus a streaming encoder for tabular sections (SPEC §8, [`GenericStreamEncoder`]).
//!
//! # Form selection
//!
//! The output is canonical: one input value has exactly one encoding. Where SPEC §7 leaves
//! a choice (the optional attachment optimisations), the conformance fixtures and SPEC §7.11
//! ("smallest valid form") fix it as follows.
//!
//! * **Objects** (§7.2, §7.2a): a keyed table `[N:]{key,…}` when the object has at least two
//!   members, every member value is an object, and those objects form a table under the
//!   array rules below (non-empty field union with at least one field that can be a column);
//!   otherwise `key=value` lines and `## key` sections. The key column is labelled `key`,
//!   with `_` prepended until no value field has that name.
//! * **Arrays** (§7.3): `[0]` when empty; inline `[N]: a,b` when every item is a scalar; a
//!   table `[N]{…}` when every item is an object and the table is lossless (below); otherwise
//!   expanded `@i` items.
//! * **Table fields**, each field of the union (first-observed order, §7.4.3) in turn:
//!   1. a name containing `>` is never a column: each row that has it carries a traditional
//!      attachment `.name …`, scalars as `.name =value` (§7.4.6.1 rule 4);
//!   2. otherwise the field is **flattened** into `field>leaf` path columns (§7.4.6) when the
//!      field name and every key on the way are non-empty and free of `>`, every row that has
//!      the field holds an object or (top level only) null, all those objects have the same
//!      keys in the same order, every leaf is a scalar, every intermediate object is an
//!      object in every row (never null), no object at any level is empty, and no object at
//!      any level has only null leaves (those would read back as null, §7.4.6.2 rule 5);
//!   3. otherwise it uses an **inline object schema** `^{a,b,c}` (§7.4.5.1) when row 0 holds
//!      an object, every row that has the field holds an object (never null) with the same
//!      keys in the same order, at least three of them, all scalars;
//!   4. otherwise it is a plain column: scalars in the cell, containers as `^` plus a
//!      traditional attachment. An array attachment omits its `{fields}` (a **shared array
//!      schema**, §7.4.5.3) when row 0's value for the field is a table with exactly the same
//!      declaration; row 0 alone establishes the schema, and only tables whose cells are all
//!      scalars in plain columns (no `@i` rows, no path columns) take part.
//! * A table is **not lossless**, and the array falls back to expanded items (an object to
//!   sections), when one of its
//!   fields has an expanded-array attachment in a row after a
//!   table attachment of that field: a decoder would read the `.field [N]` body with the
//!   earlier declaration (§7.3, §7.4.5.3).
//! * Key order inside table rows: a table row decodes in the header's order, with `>`-named
//!   fields (attachments) last. A row whose keys run against the field union therefore reads
//!   back with the same members in the header's order; SPEC §7.3 requires the table all the
//!   same (fixture inline-schema/008). Every other object keeps its input order.
//! * A row carries the `@i` prefix exactly when it has an attachment (markers, positional
//!   bodies or `>` fields); attachments follow the row in column order, then the `>` fields in
//!   union order.
//!
//! # v3.6.0 (the default)
//!
//! v3.6.0 output is byte-identical to the gcf crate 3.1.0, its reference (no v3.6.0 fixture
//! set is published; `bench/rust/tests/gcf36_differential.rs` compares the two). Besides the
//! new forms it follows the crate where the choices above were agentwire's own:
//!
//! * **Constant columns** (SPEC §7.4.7): in a table of at least two rows written as a section
//!   (the root array or an object member, at any depth; not an attachment, an expanded item
//!   or a keyed table), a plain column holding the same scalar in every row (compared as
//!   written, so `1` and `1.0` match) is declared `name=value` and has no cells. A string
//!   constant holding `}` is quoted. When every column qualifies, the last keeps its cells.
//! * **Quoting**: a `^{`-prefixed string is quoted only when it is a complete marker `^{…}`.
//! * **Flattening**: a field flattens unless some row's object has only null leaves; an inner
//!   object of null leaves is fine (3.5.3 refuses it).
//! * **Inline schemas**: rows may hold null next to the objects (a `-` cell).
//! * **Shared array schemas**: only when every row's array (nulls aside) is a non-empty table
//!   of scalars over the same field union as row 0's; the later rows then write a cell for
//!   every union field. An expanded array attachment after a table attachment keeps the
//!   table (3.5.3 expands it). [`EncodeOptions::lossless`] keeps full declarations where the
//!   crate's rule writes what no decoder reads (`>`-named fields in the records).
//! * **Value grouping** (SPEC §7.4.8) is its own API, [`encode_generic_grouped`].

use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use super::{SpecVersion, scalar};
use crate::json::{Map, Value};
use crate::num::write_u64;
use crate::{Error, ErrorKind, Result};

mod grouped;
mod stream;
mod table;

pub use grouped::encode_generic_grouped;
pub use stream::GenericStreamEncoder;

use table::{FieldKind, SharedSchema, Table};

/// Deepest nesting of arrays and objects the encoder accepts (the JSON parser's default).
pub(crate) const MAX_DEPTH: usize = 512;

/// Options of the generic encoder.
///
/// ```
/// use agentwire::gcf::v3::{self, EncodeOptions, SpecVersion};
/// use agentwire::json;
/// // Records whose arrays hold a `>`-named field: the crate's shared schema is unreadable.
/// let value = json::parse(r#"[{"id":1,"f":[{"a":1,"x>y":2}]},{"id":2,"f":[{"a":3,"x>y":4}]}]"#)?;
/// assert!(v3::decode_generic(&v3::encode_generic(&value)?).is_err());
/// let lossless = EncodeOptions { lossless: true, ..EncodeOptions::default() };
/// assert_eq!(lossless.version, SpecVersion::V3_6_0);
/// let text = v3::encode_generic_with(&value, &lossless)?;
/// assert!(v3::round_trip_equal(&value, &v3::decode_generic(&text)?));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EncodeOptions {
    /// The spec version to write: [`SpecVersion::V3_6_0`] by default; pin
    /// [`SpecVersion::V3_5_3`] for the previous output, byte for byte.
    pub version: SpecVersion,
    /// Never write what no decoder reads back. The default (`false`) is byte parity with the
    /// reference, quirks included: in 3.6.0 the gcf crate 3.1.0 shares an array schema across
    /// rows even when the records hold a `>`-named field, and writes that field as a cell of
    /// the later rows although row 0's declaration leaves it out (neither the crate nor
    /// agentwire can decode that). With `lossless`, such attachments keep their full
    /// declarations. No effect on 3.5.3 output, which never has the problem.
    pub lossless: bool,
}

/// Encodes a JSON value as a buffered generic-profile payload (SPEC §7), header included, in
/// the default version (v3.6.0: constant columns are factored).
///
/// Integers outside int64 and non-finite doubles are [`ErrorKind::GcfOutOfRange`]; arrays and
/// objects nested more than 512 levels deep are [`ErrorKind::GcfTooDeep`]. The output is
/// canonical; how each value's form is selected (keyed tables, flattening, inline and shared
/// schemas, constant columns) is written down at the top of `gcf/v3/generic_encode/mod.rs`.
///
/// ```
/// use agentwire::gcf::v3;
/// use agentwire::json;
/// let value = json::parse(r#"{"entities":[{"name":"Ada","type":"entity"},{"name":"Bo","type":"entity"}]}"#)?;
/// assert_eq!(
///     v3::encode_generic(&value)?,
///     "GCF profile=generic\n## entities [2]{name,type=entity}\nAda\nBo\n"
/// );
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_generic(value: &Value) -> Result<String> {
    encode_generic_with(value, &EncodeOptions::default())
}

/// [`encode_generic`] in the version `options` names.
///
/// ```
/// use agentwire::gcf::v3::{self, EncodeOptions, SpecVersion};
/// use agentwire::json;
/// let value = json::parse(r#"[{"id":1,"ok":true},{"id":2,"ok":true}]"#)?;
/// let v3_5_3 = EncodeOptions { version: SpecVersion::V3_5_3, ..EncodeOptions::default() };
/// assert_eq!(
///     v3::encode_generic_with(&value, &v3_5_3)?,
///     "GCF profile=generic\n## [2]{id,ok}\n1|true\n2|true\n"
/// );
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_generic_with(value: &Value, options: &EncodeOptions) -> Result<String> {
    check_depth(value)?;
    let mut encoder = Encoder {
        out: String::from("GCF profile=generic\n"),
        forms: BTreeMap::new(),
        version: options.version,
        lossless: options.lossless,
    };
    encoder.value(Head::Root, value, 0)?;
    Ok(encoder.out)
}

/// Rejects values nested deeper than [`MAX_DEPTH`], without recursion, so that the
/// recursive encoder below is bounded.
fn check_depth(value: &Value) -> Result<()> {
    fn is_container(value: &&Value) -> bool {
        matches!(value, Value::Array(_) | Value::Object(_))
    }
    // Containers still to visit, with their nesting level (the root is level 1).
    let mut pending: Vec<(&Value, usize)> = Vec::new();
    if is_container(&value) {
        pending.push((value, 1));
    }
    while let Some((value, depth)) = pending.pop() {
        if depth > MAX_DEPTH {
            return Err(Error::new(
                ErrorKind::GcfTooDeep,
                alloc::format!("too_deep: the value nests deeper than {MAX_DEPTH} levels"),
            ));
        }
        let next = depth + 1;
        match value {
            Value::Array(items) => {
                pending.extend(items.iter().filter(is_container).map(|c| (c, next)));
            }
            Value::Object(map) => {
                pending.extend(
                    map.iter()
                        .map(|(_, c)| c)
                        .filter(is_container)
                        .map(|c| (c, next)),
                );
            }
            _ => {}
        }
    }
    Ok(())
}

/// Where a value is written, which decides the shape of its first line.
#[derive(Clone, Copy)]
enum Head<'a> {
    /// The document root: `=v`, bare members, `## [N]…`.
    Root,
    /// An object member: `key=v`, `## key`, `key[N]: …`, `## key [N]…`.
    Member(&'a str),
    /// An expanded array item: `@i =v`, `@i {}`, `@i [N]…`.
    Item(usize),
    /// A traditional attachment beneath a table row: `.key =v`, `.key {}`, `.key [N]…`.
    Attachment(&'a str),
}

impl Head<'_> {
    /// Indentation of the body of a container opened at `depth`: sections' tables and items
    /// stay at the header's level, `@i` bodies go one level in, attachment bodies two.
    fn body_depth(self, depth: usize) -> usize {
        match self {
            Head::Root | Head::Member(_) => depth,
            Head::Item(_) => depth + 1,
            Head::Attachment(_) => depth + 2,
        }
    }
}

/// How an array is written (SPEC §7.3).
#[derive(Clone)]
enum ArrayForm<'a> {
    Empty,
    Inline,
    Table(Rc<Table<'a>>),
    Expanded,
}

struct Encoder<'a> {
    out: String,
    /// Array forms by the address of the array's first item, so that an array whose form a
    /// parent table needed (shared schemas) is analysed once.
    forms: BTreeMap<usize, ArrayForm<'a>>,
    version: SpecVersion,
    /// [`EncodeOptions::lossless`].
    lossless: bool,
}

impl<'a> Encoder<'a> {
    fn indent(&mut self, depth: usize) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
    }

    /// The header up to the count bracket: `## `, `## key `, `@i ` or `.key `.
    fn container_head(&mut self, head: Head<'a>, depth: usize) {
        self.indent(depth);
        match head {
            Head::Root => self.out.push_str("## "),
            Head::Member(key) => {
                self.out.push_str("## ");
                scalar::write_key(&mut self.out, key);
                self.out.push(' ');
            }
            Head::Item(index) => self.item_id(index),
            Head::Attachment(key) => {
                self.out.push('.');
                scalar::write_key(&mut self.out, key);
                self.out.push(' ');
            }
        }
    }

    /// `@i `
    fn item_id(&mut self, index: usize) {
        self.out.push('@');
        write_u64(&mut self.out, index as u64);
        self.out.push(' ');
    }

    fn count(&mut self, count: usize, keyed: bool) {
        self.out.push('[');
        write_u64(&mut self.out, count as u64);
        self.out.push_str(if keyed { ":]" } else { "]" });
    }

    fn value(&mut self, head: Head<'a>, value: &'a Value, depth: usize) -> Result<()> {
        match value {
            Value::Array(items) => self.array(head, items, depth),
            Value::Object(map) => self.object(head, map, depth),
            _ => {
                self.indent(depth);
                match head {
                    Head::Root => {}
                    Head::Member(key) => scalar::write_key(&mut self.out, key),
                    Head::Item(index) => self.item_id(index),
                    Head::Attachment(key) => {
                        self.out.push('.');
                        scalar::write_key(&mut self.out, key);
                        self.out.push(' ');
                    }
                }
                self.out.push('=');
                scalar::write_scalar(&mut self.out, value, self.version)?;
                self.out.push('\n');
                Ok(())
            }
        }
    }

    fn object(&mut self, head: Head<'a>, map: &'a Map, depth: usize) -> Result<()> {
        if let Some(table) = table::plan_keyed(self, map)? {
            self.container_head(head, depth);
            self.count(map.len(), true);
            self.out.push_str(&table.decl);
            self.out.push('\n');
            let rows: Vec<&'a Map> = map.iter().filter_map(|(_, v)| v.as_object()).collect();
            let keys: Vec<&'a str> = map.keys().collect();
            return self.rows(&table, &rows, Some(&keys), &[], head.body_depth(depth));
        }
        let members_depth = match head {
            Head::Root => depth,
            Head::Member(key) => {
                self.indent(depth);
                self.out.push_str("## ");
                scalar::write_key(&mut self.out, key);
                self.out.push('\n');
                depth + 1
            }
            Head::Item(_) | Head::Attachment(_) => {
                self.container_head(head, depth);
                self.out.push_str("{}\n");
                head.body_depth(depth)
            }
        };
        for (key, member) in map.iter() {
            self.value(Head::Member(key), member, members_depth)?;
        }
        Ok(())
    }

    /// The form of a non-empty or empty array, analysed once.
    fn array_form(&mut self, items: &'a [Value]) -> Result<ArrayForm<'a>> {
        if items.is_empty() {
            return Ok(ArrayForm::Empty);
        }
        if items
            .iter()
            .all(|item| !matches!(item, Value::Array(_) | Value::Object(_)))
        {
            return Ok(ArrayForm::Inline);
        }
        let address = items.as_ptr() as usize;
        if let Some(form) = self.forms.get(&address) {
            return Ok(form.clone());
        }
        let form = match table::plan_array(self, items)? {
            Some(table) => ArrayForm::Table(Rc::new(table)),
            None => ArrayForm::Expanded,
        };
        self.forms.insert(address, form.clone());
        Ok(form)
    }

    fn array(&mut self, head: Head<'a>, items: &'a [Value], depth: usize) -> Result<()> {
        match self.array_form(items)? {
            ArrayForm::Empty => {
                self.container_head(head, depth);
                self.out.push_str("[0]\n");
            }
            ArrayForm::Inline => {
                if let Head::Member(key) = head {
                    // `key[N]: …`, the one array form without `## `.
                    self.indent(depth);
                    scalar::write_key(&mut self.out, key);
                } else {
                    self.container_head(head, depth);
                }
                self.count(items.len(), false);
                self.out.push(':');
                for (i, item) in items.iter().enumerate() {
                    self.out.push(if i == 0 { ' ' } else { ',' });
                    scalar::write_scalar(&mut self.out, item, self.version)?;
                }
                self.out.push('\n');
            }
            ArrayForm::Table(table) => {
                self.container_head(head, depth);
                self.count(items.len(), false);
                // Constant columns are factored in sections only, as the gcf crate does: not
                // in attachments, expanded items or keyed tables.
                let constants = match head {
                    Head::Root | Head::Member(_) if self.version == SpecVersion::V3_6_0 => {
                        table::constant_columns(&table, items)?
                    }
                    _ => Vec::new(),
                };
                if constants.is_empty() {
                    self.out.push_str(&table.decl);
                } else {
                    self.out.push_str(&table.declaration(&constants));
                }
                self.out.push('\n');
                let rows: Vec<&'a Map> = items.iter().filter_map(Value::as_object).collect();
                self.rows(&table, &rows, None, &constants, head.body_depth(depth))?;
            }
            ArrayForm::Expanded => {
                self.container_head(head, depth);
                self.count(items.len(), false);
                self.out.push('\n');
                let body = head.body_depth(depth);
                for (index, item) in items.iter().enumerate() {
                    self.value(Head::Item(index), item, body)?;
                }
            }
        }
        Ok(())
    }

    /// The rows of an array table (every item is an object: the plan checked it).
    fn table_body(&mut self, table: &Table<'a>, items: &'a [Value], depth: usize) -> Result<()> {
        let rows: Vec<&'a Map> = items.iter().filter_map(Value::as_object).collect();
        self.rows(table, &rows, None, &[], depth)
    }

    /// Table rows with their attachments, at `depth`. `keys` is the key column of a keyed
    /// table; `constants` (by field, or empty) marks the factored columns, which have no cell.
    fn rows(
        &mut self,
        table: &Table<'a>,
        rows: &[&'a Map],
        keys: Option<&[&'a str]>,
        constants: &[Option<String>],
        depth: usize,
    ) -> Result<()> {
        let mut slots: Vec<Option<&'a Value>> = alloc::vec![None; table.union.len()];
        let mut present: Vec<usize> = Vec::new();
        for (index, row) in rows.iter().enumerate() {
            present.clear();
            let mut hint = 0;
            for (key, value) in row.iter() {
                if let Some(field) = table.union.index_from(key, hint) {
                    slots[field] = Some(value);
                    present.push(field);
                    hint = field + 1;
                }
            }
            let attached = present.iter().any(|&field| match table.kinds[field] {
                FieldKind::Detached { .. } => true,
                FieldKind::Flat { .. } => false,
                FieldKind::Plain { .. } | FieldKind::Inline { .. } => {
                    matches!(slots[field], Some(Value::Array(_) | Value::Object(_)))
                }
            });

            self.indent(depth);
            if attached {
                self.item_id(index);
            }
            let mut first = true;
            if let Some(key) = keys.and_then(|keys| keys.get(index)) {
                scalar::write_string(&mut self.out, key, self.version);
                first = false;
            }
            for &field in &table.columns {
                if constants.get(field).is_some_and(Option::is_some) {
                    continue;
                }
                self.cells(&table.kinds[field], slots[field], index, &mut first)?;
            }
            self.out.push('\n');

            for &field in &table.columns {
                let Some(value) = slots[field] else { continue };
                match &table.kinds[field] {
                    FieldKind::Inline { .. } => {
                        if let Value::Object(object) = value {
                            self.indent(depth);
                            for (i, (_, leaf)) in object.iter().enumerate() {
                                if i > 0 {
                                    self.out.push('|');
                                }
                                scalar::write_scalar(&mut self.out, leaf, self.version)?;
                            }
                            self.out.push('\n');
                        }
                    }
                    FieldKind::Plain { shared } => {
                        if matches!(value, Value::Array(_) | Value::Object(_)) {
                            let name = table.union.name(field);
                            self.attachment(name, value, depth, shared.as_ref(), index)?;
                        }
                    }
                    FieldKind::Flat { .. } | FieldKind::Detached { .. } => {}
                }
            }
            // `>` fields, in union order.
            present.sort_unstable();
            for &field in &present {
                if let FieldKind::Detached { shared } = &table.kinds[field]
                    && let Some(value) = slots[field]
                {
                    let name = table.union.name(field);
                    self.attachment(name, value, depth, shared.as_ref(), index)?;
                }
            }
            for &field in &present {
                slots[field] = None;
            }
        }
        Ok(())
    }

    /// The cells one field contributes to a row.
    fn cells(
        &mut self,
        kind: &FieldKind,
        value: Option<&'a Value>,
        row: usize,
        first: &mut bool,
    ) -> Result<()> {
        match kind {
            FieldKind::Detached { .. } => {}
            FieldKind::Flat { paths } => match value {
                Some(Value::Object(object)) => self.flat_cells(object, first)?,
                Some(_) => self.repeat_cell("-", paths.len(), first),
                None => self.repeat_cell("~", paths.len(), first),
            },
            FieldKind::Inline { marker } => {
                self.separator(first);
                match value {
                    // Row 0 always holds the object: the plan requires it.
                    Some(_) if row == 0 => self.out.push_str(marker),
                    // Only 3.6.0 plans admit nulls next to the objects.
                    Some(Value::Null) => self.out.push('-'),
                    Some(_) => self.out.push('^'),
                    None => self.out.push('~'),
                }
            }
            FieldKind::Plain { .. } => {
                self.separator(first);
                match value {
                    None => self.out.push('~'),
                    Some(Value::Array(_) | Value::Object(_)) => self.out.push('^'),
                    Some(value) => scalar::write_scalar(&mut self.out, value, self.version)?,
                }
            }
        }
        Ok(())
    }

    fn separator(&mut self, first: &mut bool) {
        if !*first {
            self.out.push('|');
        }
        *first = false;
    }

    fn repeat_cell(&mut self, cell: &str, times: usize, first: &mut bool) {
        for _ in 0..times {
            self.separator(first);
            self.out.push_str(cell);
        }
    }

    /// The leaves of a flattened object, depth first in key order: the plan checked that
    /// every row's object has the same shape, so this walk meets the path columns in order.
    fn flat_cells(&mut self, object: &'a Map, first: &mut bool) -> Result<()> {
        for (_, value) in object.iter() {
            if let Value::Object(inner) = value {
                self.flat_cells(inner, first)?;
            } else {
                self.separator(first);
                scalar::write_scalar(&mut self.out, value, self.version)?;
            }
        }
        Ok(())
    }

    /// A traditional attachment of row `row`; after row 0, an array attachment drops its
    /// declaration when the field has a shared schema (SPEC §7.4.5.3) that fits it.
    fn attachment(
        &mut self,
        name: &'a str,
        value: &'a Value,
        depth: usize,
        shared: Option<&SharedSchema>,
        row: usize,
    ) -> Result<()> {
        if let (true, Some(shared), Value::Array(items)) = (row > 0, shared, value) {
            let head = Head::Attachment(name);
            match shared {
                SharedSchema::Declaration(decl) => {
                    if let ArrayForm::Table(table) = self.array_form(items)?
                        && table.flat_scalars
                        && table.decl == *decl
                    {
                        self.container_head(head, depth);
                        self.count(items.len(), false);
                        self.out.push('\n');
                        return self.table_body(&table, items, head.body_depth(depth));
                    }
                }
                SharedSchema::Union => {
                    self.container_head(head, depth);
                    self.count(items.len(), false);
                    self.out.push('\n');
                    return self.union_rows(items, head.body_depth(depth));
                }
            }
        }
        self.value(Head::Attachment(name), value, depth)
    }

    /// The rows of a 3.6.0 shared-schema attachment: one cell per field of the items' union,
    /// as the gcf crate writes them. The plan guarantees non-empty tables of scalars. A
    /// `>`-named field gets a cell here although row 0's table detached it, which no decoder
    /// reads back: the crate's own output, kept for byte parity unless
    /// [`EncodeOptions::lossless`].
    fn union_rows(&mut self, items: &'a [Value], depth: usize) -> Result<()> {
        let rows: Vec<&'a Map> = items.iter().filter_map(Value::as_object).collect();
        let union = table::field_union(&rows);
        for row in rows {
            self.indent(depth);
            for field in 0..union.len() {
                if field > 0 {
                    self.out.push('|');
                }
                match row.get(union.name(field)) {
                    None => self.out.push('~'),
                    Some(value) => scalar::write_scalar(&mut self.out, value, self.version)?,
                }
            }
            self.out.push('\n');
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
