//! Grouped sections (SPEC §7.4.8, v3.6.0): `[N]{@key,…,group,…} group=<group>`, then for
//! each group a subheader `<group>=<value> [count]` and that many rows. A row holds the
//! columns that are neither the group nor constant; records read back in group order, their
//! members in the gcf crate 3.1.0's order (see [`member_order`]).

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::json::{Map, Value};
use crate::{ErrorKind, Result};

use super::scalar::{self, FieldDecl, Scalar};
use super::table::Block;
use super::{Parser, SpecVersion, Src, constant_cost, count_value, fail};

/// A grouped section's declaration, compiled.
struct Layout {
    names: Vec<String>,
    key: usize,
    group: usize,
    constants: Vec<Option<Value>>,
    /// The columns with a cell in each row, in order.
    cells: Vec<usize>,
    /// The order of a record's members (columns).
    order: Vec<usize>,
}

impl<'a> Parser<'a> {
    /// The records of a grouped section whose header (`block.head`, declaration `decl` with
    /// its constants, which cost `constants_cost` to copy into a record, `clause` after
    /// `group=`) was just consumed. Returns them and their number.
    pub(super) fn grouped(
        &mut self,
        block: Block<'a>,
        decl: FieldDecl<'a>,
        constants: Vec<(usize, Value)>,
        constants_cost: usize,
        clause: &'a str,
    ) -> Result<(Value, usize)> {
        let layout = Layout::new(block.head, decl, constants, clause)?;
        let mut records = Vec::new();
        let mut groups: BTreeSet<String> = BTreeSet::new();
        let mut keys: BTreeSet<String> = BTreeSet::new();
        while let Some(src) = self.next_row_line(&block, records.len())? {
            let (value, written, rows, digits) = layout.subheader(src)?;
            // Each record copies the constants and the group value.
            let record_cost = constant_cost(&written).saturating_add(constants_cost);
            if !groups.insert(written) {
                return fail(|| {
                    src.error(
                        src.text,
                        ErrorKind::GcfDuplicateGroup,
                        "duplicate_group: a second subheader for the same group value",
                    )
                });
            }
            self.pos += 1;
            for _ in 0..rows {
                let Some(row) = self.row_line(block.level)? else {
                    return fail(|| {
                        src.error(
                            src.text,
                            ErrorKind::GcfCountMismatch,
                            format!(
                                "count_mismatch: the group declares {digits} rows, fewer follow"
                            ),
                        )
                    });
                };
                self.enter(row, block.depth + 1)?;
                self.charge(row, record_cost)?;
                records.push(layout.record(row, &value, &mut keys)?);
                self.pos += 1;
            }
        }
        let read = records.len();
        self.check_rows_read(&block, read, "records", false)?;
        Ok((Value::Array(records), read))
    }
}

impl Layout {
    /// Checks the declaration against the `group=` clause (SPEC §7.4.8.2): one `@` key
    /// column, and a group column that is declared, not the key and not constant.
    fn new(
        head: Src<'_>,
        decl: FieldDecl<'_>,
        constants: Vec<(usize, Value)>,
        clause: &str,
    ) -> Result<Layout> {
        let bad = |at: &str, what: &str| {
            head.error(
                at,
                ErrorKind::GcfInvalidGroupHeader,
                format!("invalid_group_header: {what}"),
            )
        };
        let group_name = match scalar::parse_key(clause) {
            Ok((name, used)) if used == clause.len() => name,
            _ => return Err(bad(clause, "`group=` must name one field (a key)")),
        };
        let Some(key) = decl.identity else {
            return Err(bad(clause, "a grouped section needs one `@` key column"));
        };
        let Some(group) = decl.names.iter().position(|n| *n == group_name) else {
            return Err(bad(clause, "the group column is not a declared field"));
        };
        if group == key {
            return Err(bad(clause, "the group column is the `@` key column"));
        }
        let mut by_column: Vec<Option<Value>> = alloc::vec![None; decl.names.len()];
        for (column, value) in constants {
            by_column[column] = Some(value);
        }
        if by_column[group].is_some() {
            return Err(bad(clause, "the group column is a constant column"));
        }
        let cells = (0..decl.names.len())
            .filter(|&j| j != group && by_column[j].is_none())
            .collect();
        Ok(Layout {
            order: member_order(&decl.names),
            names: decl.names,
            key,
            group,
            constants: by_column,
            cells,
        })
    }

    /// Reads a subheader `<group>=<value> [count]` (SPEC §7.4.8.3): the value, its written
    /// form (for duplicate checks), the count and its digits (for messages: a count past
    /// usize saturates).
    fn subheader<'s>(&self, src: Src<'s>) -> Result<(Value, String, usize, &'s str)> {
        let text = src.text;
        let bad = |at: &str, kind: ErrorKind, what: &str| src.error(at, kind, String::from(what));
        let shape = "invalid_group_header: a subheader is `<group>=<value> [count]`";
        let (Some(open), true) = (text.rfind(" ["), text.ends_with(']')) else {
            return Err(bad(text, ErrorKind::GcfInvalidGroupHeader, shape));
        };
        let digits = &text[open + 2..text.len() - 1];
        let rows = match count_value(digits) {
            Some(0) => {
                return Err(bad(
                    digits,
                    ErrorKind::GcfInvalidCount,
                    "invalid_count: a group holds at least one record",
                ));
            }
            Some(rows) => rows,
            None => {
                return Err(bad(
                    digits,
                    ErrorKind::GcfInvalidCount,
                    "invalid_count: a group count is a decimal without leading zeros",
                ));
            }
        };
        let head = &text[..open];
        let (column, used) = match scalar::parse_key(head) {
            Ok(found) if head.as_bytes().get(found.1) == Some(&b'=') => found,
            _ => return Err(bad(head, ErrorKind::GcfInvalidGroupHeader, shape)),
        };
        if column != self.names[self.group] {
            return Err(bad(
                head,
                ErrorKind::GcfInvalidGroupHeader,
                "invalid_group_header: the subheader names another column than `group=`",
            ));
        }
        let token = &head[used + 1..];
        let value = scalar::parse_constant(token).map_err(|e| src.place(token, e))?;
        let mut written = String::new();
        scalar::write_scalar(&mut written, &value, SpecVersion::V3_6_0)?;
        Ok((value, written, rows, digits))
    }

    /// Reads one row of the group whose value is `group`; `keys` holds the keys read so far.
    fn record(&self, src: Src<'_>, group: &Value, keys: &mut BTreeSet<String>) -> Result<Value> {
        let cells = scalar::split_outside_quotes(src.text, b'|');
        if cells.len() != self.cells.len() {
            return Err(src.error(
                src.text,
                ErrorKind::GcfRowWidthMismatch,
                format!(
                    "row_width_mismatch: {} cells but the grouped section's rows have {}",
                    cells.len(),
                    self.cells.len()
                ),
            ));
        }
        let mut values: Vec<Option<Value>> = self.constants.clone();
        values[self.group] = Some(group.clone());
        let mut key_cell = src.text;
        for (&column, cell) in self.cells.iter().zip(cells) {
            let token = scalar::trim_token(cell);
            if token == "^" || scalar::is_inline_marker(token) {
                return Err(src.error(
                    cell,
                    ErrorKind::GcfInvalidGroupHeader,
                    "invalid_group_header: grouped rows carry no attachments",
                ));
            }
            if column == self.key {
                key_cell = cell;
            }
            values[column] = match scalar::parse_scalar(cell).map_err(|e| src.place(cell, e))? {
                Scalar::Missing => None,
                other => other.into_value(),
            };
        }
        let Some(key) = &values[self.key] else {
            return Err(src.error(
                key_cell,
                ErrorKind::GcfInvalidGroupHeader,
                "invalid_group_header: a grouped row has no value for the `@` key column",
            ));
        };
        let mut written = String::new();
        scalar::write_scalar(&mut written, key, SpecVersion::V3_6_0)?;
        if !keys.insert(written) {
            return Err(src.error(
                key_cell,
                ErrorKind::GcfDuplicateKey,
                "duplicate_key: two records of the grouped section have the same key",
            ));
        }
        let mut members = Vec::with_capacity(self.names.len());
        for &column in &self.order {
            if let Some(value) = values[column].take() {
                members.push((self.names[column].clone(), value));
            }
        }
        Ok(Value::Object(Map::from_members(members)))
    }
}

/// The member order of a grouped record, as the gcf crate 3.1.0 reads it: first the columns
/// named by each declared field's top-level key (the part before a `>`, when that part is not
/// empty), in declaration order, then every other column in declaration order. Grouped
/// columns are literal names (no path columns), so a `>`-named field moves after the others.
fn member_order(names: &[String]) -> Vec<usize> {
    let index: BTreeMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(j, name)| (name.as_str(), j))
        .collect();
    let mut placed = alloc::vec![false; names.len()];
    let mut order = Vec::with_capacity(names.len());
    for name in names {
        let top = match name.split_once('>') {
            Some((parent, _)) if !parent.is_empty() => parent,
            _ => name.as_str(),
        };
        if let Some(&j) = index.get(top)
            && !placed[j]
        {
            placed[j] = true;
            order.push(j);
        }
    }
    for (j, done) in placed.iter().enumerate() {
        if !done {
            order.push(j);
        }
    }
    order
}
