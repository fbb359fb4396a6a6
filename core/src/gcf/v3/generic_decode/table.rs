//! Tabular bodies (SPEC §7.2a, §7.4): rows and keyed-map members, `^` / `^{fields}`
//! attachments with traditional and positional bodies, shared array schemas, and `>`
//! flattened path columns.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::mem;

use crate::json::{Map, Value};
use crate::{Error, ErrorKind, Result};

use super::SpecVersion;
use super::scalar::{self, FieldDecl, Scalar};
use super::{
    Follow, Head, Members, Parser, Src, fail, is_member_start, item_id, unexpected_indent,
};

/// Where a tabular block sits.
pub(super) struct Block<'a> {
    /// The header line.
    pub head: Src<'a>,
    /// The declared count; `None` for `?`.
    pub count: Option<usize>,
    /// The count bracket, for errors.
    pub bracket: &'a str,
    /// Level of the rows.
    pub level: usize,
    /// Depth of the array (or keyed map) itself.
    pub depth: usize,
    pub follow: Follow,
}

/// A field declaration compiled for decoding rows.
pub(super) struct Schema {
    names: Vec<String>,
    /// Per column, the value of a constant column (SPEC §7.4.7), which has no cell; empty
    /// when the declaration has none.
    constants: Vec<Option<Value>>,
    /// Cells per row: the columns that are not constant.
    width: usize,
    /// What copying the constants into a row costs ([`Parser::charge`]).
    constant_cost: usize,
    /// First value column: 1 in a keyed map (column 0 holds the member key).
    first: usize,
    /// The `@` identity column (SPEC §10a.1).
    identity: Option<usize>,
    /// Per column: a `>` path column (SPEC §7.4.6.2).
    path: Vec<bool>,
    /// The members of a row object in header order.
    layout: Vec<Top>,
    /// The nested objects of path columns.
    nodes: Vec<Node>,
    /// Literal value columns sorted by name, for `.field` lookups.
    by_name: Vec<usize>,
}

enum Top {
    /// A literal column: the member named like it.
    Column(usize),
    /// The object rebuilt from the path columns that start with one key.
    Group { node: usize, leaves: Vec<usize> },
}

struct Node {
    key: String,
    kind: NodeKind,
}

enum NodeKind {
    Leaf(usize),
    Object(Vec<usize>),
}

fn path_conflict(name: &str) -> Error {
    Error::new(
        ErrorKind::GcfDuplicateKey,
        format!(
            "duplicate_key: column {:?} sets a key another column also sets",
            scalar::truncate(name, 60)
        ),
    )
}

impl Schema {
    /// Compiles `decl` with the values of its constant columns; the row objects sit at
    /// `row_depth`.
    pub(super) fn new(
        decl: FieldDecl<'_>,
        constant_values: Vec<(usize, Value)>,
        constant_cost: usize,
        keyed: bool,
        row_depth: usize,
        max_depth: usize,
    ) -> Result<Schema> {
        let names = decl.names;
        let width = names.len() - constant_values.len();
        let mut constants: Vec<Option<Value>> = Vec::new();
        if !constant_values.is_empty() {
            constants.resize(names.len(), None);
            for (column, value) in constant_values {
                constants[column] = Some(value);
            }
        }
        let first = usize::from(keyed);
        let mut path = vec![false; names.len()];
        let mut layout = Vec::new();
        let mut nodes: Vec<Node> = Vec::new();
        let mut literal = Vec::new();
        {
            let mut top: BTreeMap<&str, usize> = BTreeMap::new();
            let mut children: BTreeMap<(usize, &str), usize> = BTreeMap::new();
            for (column, name) in names.iter().enumerate().skip(first) {
                let segments: Vec<&str> = name.split('>').collect();
                let constant = constants.get(column).is_some_and(Option::is_some);
                if constant || segments.len() < 2 || segments.iter().any(|s| s.is_empty()) {
                    // No `>`, or an empty segment: a literal field name (SPEC §7.4.6.2 rule 1).
                    // A constant is a literal member too, as the gcf crate reads it.
                    if top.insert(name, layout.len()).is_some() {
                        return Err(path_conflict(name));
                    }
                    layout.push(Top::Column(column));
                    literal.push(column);
                    continue;
                }
                if row_depth + segments.len() - 1 > max_depth {
                    return Err(Error::new(
                        ErrorKind::GcfTooDeep,
                        format!("too_deep: path column nests deeper than the limit of {max_depth}"),
                    ));
                }
                path[column] = true;
                let group = match top.get(segments[0]) {
                    Some(&at) => match &mut layout[at] {
                        Top::Group { node, leaves } => {
                            leaves.push(column);
                            *node
                        }
                        Top::Column(_) => return Err(path_conflict(name)),
                    },
                    None => {
                        nodes.push(Node {
                            key: segments[0].to_string(),
                            kind: NodeKind::Object(Vec::new()),
                        });
                        top.insert(segments[0], layout.len());
                        layout.push(Top::Group {
                            node: nodes.len() - 1,
                            leaves: vec![column],
                        });
                        nodes.len() - 1
                    }
                };
                let mut parent = group;
                let last = segments.len() - 1;
                for (i, &segment) in segments.iter().enumerate().skip(1) {
                    if let Some(&child) = children.get(&(parent, segment)) {
                        if i == last || matches!(nodes[child].kind, NodeKind::Leaf(_)) {
                            return Err(path_conflict(name));
                        }
                        parent = child;
                        continue;
                    }
                    let kind = if i == last {
                        NodeKind::Leaf(column)
                    } else {
                        NodeKind::Object(Vec::new())
                    };
                    let child = nodes.len();
                    nodes.push(Node {
                        key: segment.to_string(),
                        kind,
                    });
                    if let NodeKind::Object(list) = &mut nodes[parent].kind {
                        list.push(child);
                    }
                    children.insert((parent, segment), child);
                    parent = child;
                }
            }
        }
        literal.sort_by(|&a, &b| names[a].cmp(&names[b]));
        Ok(Schema {
            constants,
            width,
            constant_cost,
            first,
            identity: decl.identity,
            path,
            layout,
            nodes,
            by_name: literal,
            names,
        })
    }

    /// The literal value column named `name`.
    fn column(&self, name: &str) -> Option<usize> {
        self.by_name
            .binary_search_by(|&j| self.names[j].as_str().cmp(name))
            .ok()
            .map(|i| self.by_name[i])
    }

    /// Builds the row object from its resolved cells, in header order, then the bare
    /// `>`-named attachments in source order.
    fn assemble(&self, slots: &mut [Slot], extras: Members) -> Map {
        let mut members = Vec::with_capacity(self.layout.len() + extras.len());
        for top in &self.layout {
            match top {
                Top::Column(j) => {
                    if let Slot::Value(v) | Slot::Attached(v) = mem::take(&mut slots[*j]) {
                        members.push((self.names[*j].clone(), v));
                    }
                }
                Top::Group { node, leaves } => {
                    // SPEC §7.4.6.2 rules 4 and 5: all leaves `~` omit the object, all `-`
                    // make it null.
                    if leaves.iter().all(|&j| matches!(slots[j], Slot::Absent)) {
                        continue;
                    }
                    let key = self.nodes[*node].key.clone();
                    if leaves
                        .iter()
                        .all(|&j| matches!(slots[j], Slot::Value(Value::Null)))
                    {
                        members.push((key, Value::Null));
                    } else if let Some(object) = self.build(*node, slots) {
                        members.push((key, Value::Object(object)));
                    }
                }
            }
        }
        members.extend(extras.entries);
        Map::from_members(members)
    }

    /// The object of path node `node`; `None` when none of its leaves is present.
    fn build(&self, node: usize, slots: &mut [Slot]) -> Option<Map> {
        let NodeKind::Object(children) = &self.nodes[node].kind else {
            return None;
        };
        let mut members = Vec::new();
        for &child in children {
            let value = match &self.nodes[child].kind {
                NodeKind::Leaf(j) => match mem::take(&mut slots[*j]) {
                    Slot::Value(v) => Some(v),
                    _ => None,
                },
                NodeKind::Object(_) => self.build(child, slots).map(Value::Object),
            };
            if let Some(value) = value {
                members.push((self.nodes[child].key.clone(), value));
            }
        }
        (!members.is_empty()).then(|| Map::from_members(members))
    }
}

/// One cell of a row being decoded.
#[derive(Default)]
enum Slot {
    /// `~`, or a cell already moved into the row object.
    #[default]
    Absent,
    Value(Value),
    /// `^` waiting for its body.
    Bare,
    /// `^{fields}` waiting for its positional body.
    Inline,
    /// The body of a `^` or `^{fields}` cell.
    Attached(Value),
}

/// The shared array schema of one `^` column (SPEC §7.4.5.3), compiled once.
pub(super) type SharedSchema = Option<Rc<Schema>>;

/// Schema state scoped to one tabular array (SPEC §7.4.5), kept by column. Nothing is
/// allocated by the header's width: a `.field [0]` line costs what it reads.
#[derive(Default)]
struct TableState<'a> {
    /// The inline object schema last declared by `^{fields}`.
    inline: BTreeMap<usize, Vec<String>>,
    /// The shared array schemas, by `^` column.
    shared: BTreeMap<usize, SharedSchema>,
    /// The shared array schemas of bare `>`-named attachments, by name: encoders (the gcf
    /// crate, agentwire) share their schemas across rows too.
    detached: BTreeMap<String, SharedSchema>,
    /// Canonical identity values seen (SPEC §10a.1).
    identities: BTreeSet<String>,
    /// The cells of the row being read (one list for every row).
    cells: Vec<&'a str>,
    /// The slots of the last row, emptied, for the next row.
    slots: Vec<Slot>,
}

/// A row being decoded.
struct RowCells<'a> {
    /// The member key of a keyed-map row.
    key: Option<String>,
    slots: Vec<Slot>,
    /// Columns holding `^` or `^{fields}`, in header order, and their cells.
    markers: Vec<(usize, &'a str)>,
    /// Bare `.field` attachments of `>`-named fields (SPEC §7.4.6.1 rule 4).
    extras: Members,
    /// The row has a marker a positional body could fill.
    positional: bool,
}

/// An attachment line read up to the body of its value.
struct Attachment<'a> {
    name: String,
    /// The `^` column it fills; `None` for a bare `>`-named attachment.
    column: Option<usize>,
    head: Head<'a>,
}

impl<'a> Parser<'a> {
    /// A tabular array or keyed map whose header was just consumed. Returns the value and the
    /// number of rows.
    pub(super) fn table(&mut self, block: Block<'a>, schema: &Schema) -> Result<(Value, usize)> {
        let keyed = schema.first > 0;
        let mut state = TableState::default();
        // Rows are at most the lines left: a declared count allocates no more than the input.
        let expected = block
            .count
            .unwrap_or(0)
            .min(self.lines.len().saturating_sub(self.pos));
        let mut rows = Vec::with_capacity(if keyed { 0 } else { expected });
        let mut members = Members::default();
        let mut read = 0;
        let mut last_positional = false;
        while let Some(src) = self.next_row_line(&block, read)? {
            let mut row = read_row(src, read, &block, schema, &mut state)?;
            self.enter(src, block.depth + 1)?;
            if schema.constant_cost > 0 {
                self.charge(src, schema.constant_cost)?;
            }
            self.pos += 1;
            self.attachments(&block, schema, &mut state, &mut row)?;
            check_attached(src, schema, &row)?;
            last_positional = row.positional;
            let object = schema.assemble(&mut row.slots, row.extras);
            state.slots = row.slots;
            match row.key {
                Some(key) => {
                    if members.contains(&key) {
                        return Err(duplicate_member(src, &key));
                    }
                    members.push(key, Value::Object(object));
                }
                None => rows.push(Value::Object(object)),
            }
            read += 1;
        }
        self.check_rows_read(&block, read, "rows", last_positional)?;
        let value = if keyed {
            Value::Object(members.into_map())
        } else {
            Value::Array(rows)
        };
        Ok((value, read))
    }

    /// The line that starts the next row of `block` after `read` rows; `None` once the
    /// declared count is read or the block ends.
    pub(super) fn next_row_line(&self, block: &Block<'a>, read: usize) -> Result<Option<Src<'a>>> {
        if block.count == Some(read) {
            return Ok(None);
        }
        self.row_line(block.level)
    }

    /// The next line when it is a row line at `level` (not `##`); `None` when a dedent, a
    /// `##` line or the end comes first.
    pub(super) fn row_line(&self, level: usize) -> Result<Option<Src<'a>>> {
        match self.peek() {
            Some(src) if src.level > level => Err(unexpected_indent(src)),
            Some(src) if src.level == level && !src.text.starts_with("##") => Ok(Some(src)),
            _ => Ok(None),
        }
    }

    /// A block with a declared count read exactly that many `what` (rows, records), and
    /// nothing follows that could be one more (see [`Parser::check_no_surplus`]).
    pub(super) fn check_rows_read(
        &self,
        block: &Block<'a>,
        read: usize,
        what: &str,
        last_positional: bool,
    ) -> Result<()> {
        let Some(declared) = block.count else {
            return Ok(());
        };
        if read != declared {
            return fail(|| {
                block.head.error(
                    block.bracket,
                    ErrorKind::GcfCountMismatch,
                    format!("count_mismatch: {read} {what} but [{declared}] declared"),
                )
            });
        }
        self.check_no_surplus(block, last_positional)
    }

    /// After the declared rows, a line at the rows' level must belong to the enclosing
    /// object; anything else is a surplus row, or a positional body without a marker.
    fn check_no_surplus(&self, block: &Block<'a>, last_positional: bool) -> Result<()> {
        let Some(next) = self
            .peek()
            .filter(|s| s.level == block.level && !s.text.starts_with("##"))
        else {
            return Ok(());
        };
        if block.follow == Follow::Members && is_member_start(next.text) {
            return Ok(());
        }
        Err(if last_positional {
            orphan_inline(next)
        } else {
            next.error(
                next.text,
                ErrorKind::GcfCountMismatch,
                format!(
                    "count_mismatch: more rows than the {} declared on line {}",
                    block.count.unwrap_or(0),
                    block.head.line.number
                ),
            )
        })
    }

    /// The attachment lines after a row, at the row's level or one beneath (SPEC §7.4.5.2):
    /// `.field …` headers match by name, other lines are positional bodies matched to the
    /// next marker with an inline schema.
    fn attachments(
        &mut self,
        block: &Block<'a>,
        schema: &Schema,
        state: &mut TableState<'a>,
        row: &mut RowCells<'a>,
    ) -> Result<()> {
        let level = block.level;
        let mut cursor = 0;
        while let Some(src) = self.peek() {
            if src.level < level || src.text.starts_with("##") {
                break;
            }
            if src.level > level + 1 {
                return Err(unexpected_indent(src));
            }
            if let Some(rest) = src.text.strip_prefix('.') {
                let attachment = attachment_head(self, src, rest, schema, row)?;
                self.pos += 1;
                // Attachment bodies sit two levels beneath the row (SPEC §7.4.4).
                let depth = block.depth + 2;
                let value = match attachment.head {
                    Head::Scalar(value) => value,
                    Head::Object => Value::Object(self.object(src, level + 2, depth)?),
                    Head::Array(spec) => {
                        let shared = match attachment.column {
                            Some(j) => state.shared.entry(j).or_default(),
                            None => state.detached.entry(attachment.name.clone()).or_default(),
                        };
                        self.array(src, spec, level + 2, depth, Follow::Nothing, Some(shared))?
                    }
                };
                match attachment.column {
                    Some(j) => row.slots[j] = Slot::Attached(value),
                    None => row.extras.push(attachment.name, value),
                }
                continue;
            }
            while let Some(&(j, _)) = row.markers.get(cursor) {
                if matches!(row.slots[j], Slot::Bare | Slot::Inline)
                    && state.inline.contains_key(&j)
                {
                    break;
                }
                cursor += 1;
            }
            let Some(&(j, _)) = row.markers.get(cursor) else {
                if src.level == level {
                    break; // the next row, or what follows the table
                }
                return Err(orphan_inline(src));
            };
            let names = state.inline.get(&j).map_or(&[][..], Vec::as_slice);
            row.slots[j] = Slot::Attached(positional_body(src, names)?);
            self.pos += 1;
            cursor += 1;
        }
        Ok(())
    }
}

/// Reads a row line (SPEC §7.4, §7.2a.3): its `@i` prefix, member key and cells.
fn read_row<'a>(
    src: Src<'a>,
    index: usize,
    block: &Block<'a>,
    schema: &Schema,
    state: &mut TableState<'a>,
) -> Result<RowCells<'a>> {
    let (has_id, body) = match src.text.strip_prefix('@') {
        Some(rest) => (true, item_id(src, rest, index)?),
        None => (false, src.text),
    };
    let mut cells = mem::take(&mut state.cells);
    scalar::split_outside_quotes_into(body, b'|', &mut cells);
    if cells.len() != schema.width {
        let declared = block.count.unwrap_or(0);
        if block.follow == Follow::Members && !has_id && declared > 0 && is_member_start(src.text) {
            return Err(block.head.error(
                block.bracket,
                ErrorKind::GcfCountMismatch,
                format!(
                    "count_mismatch: {index} rows but [{declared}] declared (line {} is the next \
                     member)",
                    src.line.number
                ),
            ));
        }
        let constants = schema.names.len() - schema.width;
        let message = if constants == 0 {
            format!(
                "row_width_mismatch: {} cells but {} fields declared",
                cells.len(),
                schema.width
            )
        } else {
            format!(
                "row_width_mismatch: {} cells but {} fields declared, {constants} of them \
                 constant (no cell)",
                cells.len(),
                schema.names.len()
            )
        };
        return Err(src.error(body, ErrorKind::GcfRowWidthMismatch, message));
    }
    let mut slots = mem::take(&mut state.slots);
    slots.clear();
    slots.reserve(cells.len());
    let mut row = RowCells {
        key: None,
        slots,
        markers: Vec::new(),
        extras: Members::default(),
        positional: false,
    };
    let mut next_cell = cells.iter();
    let mut identity_cell = src.text;
    for j in 0..schema.names.len() {
        if let Some(Some(value)) = schema.constants.get(j) {
            row.slots.push(Slot::Value(value.clone()));
            continue;
        }
        let Some(&cell) = next_cell.next() else {
            break; // the width check above makes this unreachable
        };
        if schema.identity == Some(j) {
            identity_cell = cell;
        }
        if j < schema.first {
            row.key = Some(member_key(src, cell)?);
            row.slots.push(Slot::Absent);
            continue;
        }
        let slot = match scalar::parse_scalar(cell).map_err(|e| src.place(cell, e))? {
            Scalar::Missing => Slot::Absent,
            Scalar::Attachment | Scalar::InlineSchema(_) if schema.path[j] => {
                return Err(src.error(
                    cell,
                    ErrorKind::GcfInvalidAttachmentMarker,
                    "invalid_attachment_marker: a `>` path column holds a scalar, not `^`",
                ));
            }
            Scalar::Attachment => {
                row.positional |= state.inline.contains_key(&j);
                row.markers.push((j, cell));
                Slot::Bare
            }
            Scalar::InlineSchema(names) => {
                state.inline.insert(j, names);
                row.positional = true;
                row.markers.push((j, cell));
                Slot::Inline
            }
            other => Slot::Value(other.into_value().unwrap_or_default()),
        };
        row.slots.push(slot);
    }
    if let (false, Some(&(_, cell))) = (has_id, row.markers.first()) {
        return Err(src.error(
            cell,
            ErrorKind::GcfInvalidItemId,
            "invalid_item_id: a row with `^` cells must start with its `@i` index",
        ));
    }
    if let Some(j) = schema.identity.filter(|&j| j >= schema.first)
        && let Slot::Value(value) = &row.slots[j]
    {
        let mut canonical = String::new();
        if scalar::write_scalar(&mut canonical, value, SpecVersion::V3_6_0).is_ok()
            && !state.identities.insert(canonical)
        {
            return Err(src.error(
                identity_cell,
                ErrorKind::GcfDuplicateKey,
                "duplicate_key: duplicate identity value in the `@` key column",
            ));
        }
    }
    state.cells = cells;
    Ok(row)
}

/// Every marker of the row got its body.
fn check_attached(src: Src<'_>, schema: &Schema, row: &RowCells<'_>) -> Result<()> {
    for &(j, cell) in &row.markers {
        if matches!(row.slots[j], Slot::Bare | Slot::Inline) {
            return Err(src.error(
                cell,
                ErrorKind::GcfMissingAttachment,
                format!(
                    "missing_attachment: the `^` cell of {:?} has no attachment body",
                    scalar::truncate(&schema.names[j], 60)
                ),
            ));
        }
    }
    Ok(())
}

/// Reads a `.field {}` / `.field [N]…` / `."a>b" =value` line (SPEC §7.4.4) and checks
/// that it fills an open `^` cell of the row or is a bare `>`-named field.
fn attachment_head<'a>(
    parser: &Parser<'a>,
    src: Src<'a>,
    rest: &'a str,
    schema: &Schema,
    row: &RowCells<'a>,
) -> Result<Attachment<'a>> {
    let (name, used) = parser.key(src, rest)?;
    let what = "an attachment is `.field {}`, `.field [N]…` or `.\"a>b\" =value`";
    let Some(form) = rest[used..].strip_prefix(' ') else {
        return Err(src.invalid_line(&rest[used..], what));
    };
    let column = schema.column(&name);
    let problem = match column {
        Some(j) => match row.slots[j] {
            Slot::Bare => None,
            Slot::Attached(_) => Some((ErrorKind::GcfDuplicateAttachment, "")),
            Slot::Inline => Some((
                ErrorKind::GcfOrphanAttachment,
                "targets a `^{…}` cell, which takes a positional body",
            )),
            Slot::Absent | Slot::Value(_) => {
                Some((ErrorKind::GcfOrphanAttachment, "has no `^` cell in its row"))
            }
        },
        None if name.contains('>') => row
            .extras
            .contains(&name)
            .then_some((ErrorKind::GcfDuplicateAttachment, "")),
        None => Some((
            ErrorKind::GcfOrphanAttachment,
            "names no `^` column of its row",
        )),
    };
    if let Some((kind, why)) = problem {
        let name = scalar::truncate(&name, 60);
        let message = match kind {
            ErrorKind::GcfDuplicateAttachment => {
                format!("duplicate_attachment: a second attachment for {name:?} in one row")
            }
            _ => format!("orphan_attachment: `.{name}` {why}"),
        };
        return Err(src.error(rest, kind, message));
    }
    let head = parser.marker(src, form, what)?;
    if let (Head::Scalar(_), Some(_)) = (&head, column) {
        return Err(src.invalid_line(
            form,
            "a `^` cell's attachment is an object or an array (scalars go in the cell)",
        ));
    }
    Ok(Attachment { name, column, head })
}

fn orphan_inline(src: Src<'_>) -> Error {
    src.error(
        src.text,
        ErrorKind::GcfOrphanInlineAttachment,
        "orphan_inline_attachment: a positional body with no `^{…}` cell left to fill",
    )
}

fn duplicate_member(src: Src<'_>, key: &str) -> Error {
    src.error(
        src.text,
        ErrorKind::GcfDuplicateKey,
        format!(
            "duplicate_key: duplicate member key {:?} in a keyed map",
            scalar::truncate(key, 60)
        ),
    )
}

/// A positional inline-object body: one scalar per schema field (SPEC §7.4.5.1).
fn positional_body(src: Src<'_>, names: &[String]) -> Result<Value> {
    let cells = scalar::split_outside_quotes(src.text, b'|');
    if cells.len() != names.len() {
        return Err(src.error(
            src.text,
            ErrorKind::GcfInlineWidthMismatch,
            format!(
                "inline_width_mismatch: {} values but the inline schema declares {}",
                cells.len(),
                names.len()
            ),
        ));
    }
    let mut members = Vec::with_capacity(names.len());
    for (name, cell) in names.iter().zip(cells) {
        let value = scalar::parse_value_scalar(cell).map_err(|e| src.place(cell, e))?;
        members.push((name.clone(), value));
    }
    Ok(Value::Object(Map::from_members(members)))
}

/// Cell 0 of a keyed-map row: the member key, a string (SPEC §7.2a.3).
fn member_key(src: Src<'_>, cell: &str) -> Result<String> {
    match scalar::parse_scalar(cell).map_err(|e| src.place(cell, e))? {
        Scalar::String(key) => Ok(key.into_owned()),
        Scalar::Missing => Err(src.error(
            cell,
            ErrorKind::GcfInvalidMissing,
            "invalid_missing: a keyed-map member key cannot be `~`",
        )),
        Scalar::Attachment | Scalar::InlineSchema(_) => Err(src.error(
            cell,
            ErrorKind::GcfInvalidAttachmentMarker,
            "invalid_attachment_marker: a keyed-map member key cannot be `^`",
        )),
        _ => Err(src.error(
            cell,
            ErrorKind::GcfInvalidLine,
            "invalid_line: a keyed-map member key is a string (quote keys that read as null, \
             booleans or numbers)",
        )),
    }
}
