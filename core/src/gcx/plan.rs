//! Section plans: what an encoding strategy decided to write, as references into the input
//! value. Writing a plan gives the payload; checking a plan against the decoded payload and
//! the input proves a round trip (every input value decodes back, in its row and field).

use alloc::borrow::Cow;
use alloc::collections::BTreeSet;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::decode::{DecodeOptions, decode};
use super::encode::{Encoder, Mode, push_header, push_value_row};
use super::header::{Header, HeaderParts};
use crate::json::{self, Map, Value, WriteOptions};
use crate::sink::Sink;
use crate::text::{cmp_text, indices, quote, same_text, sort_by_text};
use crate::{Error, Result};

/// A planned section's header (borrowed from the input, the layout and the tool name) and
/// how its cells render.
#[derive(Debug)]
pub(crate) struct SectionHead<'a> {
    /// The section's tool name.
    pub tool: Cow<'a, str>,
    pub fields: Vec<&'a str>,
    /// Header metadata, in key byte order with unique keys (as a `Header`'s map).
    pub meta: Vec<(&'a str, Cow<'a, str>)>,
    /// Per column: join an array's elements with this separator (missing: no join).
    pub joins: Vec<Option<&'a str>>,
    /// Input values written as header metadata.
    pub meta_sources: Vec<&'a Value>,
}

impl<'a> SectionHead<'a> {
    pub fn new(tool: Cow<'a, str>, fields: Vec<&'a str>) -> SectionHead<'a> {
        SectionHead {
            tool,
            fields,
            meta: Vec::new(),
            joins: Vec::new(),
            meta_sources: Vec::new(),
        }
    }

    /// The header to write.
    pub fn parts(
        &self,
    ) -> HeaderParts<'_, &'a str, impl Iterator<Item = (&'a str, &str)> + Clone + '_> {
        HeaderParts {
            tool: &self.tool,
            fields: &self.fields,
            meta: self.meta.iter().map(|(k, v)| (*k, &**v)),
        }
    }

    /// The header as an owned [`Header`] (what a decoder reads back).
    pub fn header(&self) -> Header {
        Header {
            tool: String::from(&*self.tool),
            fields: self.fields.iter().map(|f| String::from(*f)).collect(),
            meta: self
                .meta
                .iter()
                .map(|(k, v)| (String::from(*k), String::from(&**v)))
                .collect(),
        }
    }
}

/// One planned section: its header and, per row, the input value of each column.
#[derive(Debug)]
pub(crate) struct SectionPlan<'a> {
    pub head: SectionHead<'a>,
    pub rows: Rows<'a>,
}

/// Where planning sends sections and rows: into plans (kept, to check a round trip or to
/// write through an [`Encoder`]) or straight into a payload ([`PayloadWriter`]). A planner
/// that gives up (a layout that does not fit) leaves the sink with a partial output that the
/// caller discards.
pub(crate) trait RowSink<'a> {
    /// Whether sections need [`SectionHead::meta_sources`] (to check a round trip).
    const KEEPS_SOURCES: bool = true;
    /// Starts a section; `rows` rows follow (a capacity hint).
    fn section(&mut self, head: SectionHead<'a>, rows: usize);
    /// The next row, all cells absent, to fill before [`end_row`](Self::end_row).
    fn row(&mut self) -> &mut [Option<&'a Value>];
    /// The row returned by [`row`](Self::row) is complete.
    fn end_row(&mut self);
    /// Forgets everything (a layout that did not fit, before the generic fallback).
    fn reset(&mut self);
    /// A point to [`rollback`](Self::rollback) to.
    fn mark(&self) -> Mark;
    /// Forgets everything sent since `mark`.
    fn rollback(&mut self, mark: Mark);
}

/// What [`RowSink::mark`] remembers.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    len: usize,
    failed: bool,
}

impl<'a> RowSink<'a> for Vec<SectionPlan<'a>> {
    fn section(&mut self, head: SectionHead<'a>, rows: usize) {
        let mut plan = SectionPlan {
            rows: Rows::new(head.fields.len()),
            head,
        };
        plan.rows.reserve(rows);
        self.push(plan);
    }

    fn row(&mut self) -> &mut [Option<&'a Value>] {
        match self.last_mut() {
            Some(plan) => plan.rows.push_empty(),
            None => &mut [],
        }
    }

    fn end_row(&mut self) {}

    fn reset(&mut self) {
        self.clear();
    }

    fn mark(&self) -> Mark {
        Mark {
            len: self.len(),
            failed: false,
        }
    }

    fn rollback(&mut self, mark: Mark) {
        self.truncate(mark.len);
    }
}

/// A [`RowSink`] that writes each row as it is planned, as [`write_plans`] would write the
/// plans (no rows are kept, and a row is written while its values are in cache). The first
/// error stops the writing and is kept for [`finish`](Self::finish); planning goes on, since
/// a layout that turns out not to fit falls back to the generic encoding instead.
#[derive(Debug)]
pub(crate) struct PayloadWriter<'a> {
    out: String,
    scratch: String,
    cells: Vec<Option<&'a Value>>,
    joins: Vec<Option<&'a str>>,
    width: usize,
    mode: Mode,
    error: Option<Error>,
}

impl<'a> PayloadWriter<'a> {
    pub fn new(capacity: usize, mode: Mode) -> PayloadWriter<'a> {
        PayloadWriter {
            out: String::with_capacity(capacity),
            scratch: String::new(),
            cells: Vec::with_capacity(16),
            joins: Vec::new(),
            width: 0,
            mode,
            error: None,
        }
    }

    /// The payload, or the first error. The references check every number before writing,
    /// so a non-finite number anywhere in `input` is the error rather than what the writing
    /// met first. Only for planners that write every value of `input` (layouts and the
    /// generic fallback) or that checked `input` first.
    pub fn finish(self, input: &Value) -> Result<String> {
        match self.error {
            None => Ok(self.out),
            Some(e) => {
                check_finite(input)?;
                Err(e)
            }
        }
    }
}

impl<'a> RowSink<'a> for PayloadWriter<'a> {
    const KEEPS_SOURCES: bool = false;

    fn section(&mut self, head: SectionHead<'a>, _rows: usize) {
        self.width = head.fields.len();
        if self.error.is_none()
            && let Err(e) = push_header(&mut self.out, &head.parts(), self.mode)
        {
            self.error = Some(e);
        }
        self.joins = head.joins;
    }

    fn row(&mut self) -> &mut [Option<&'a Value>] {
        self.cells.clear();
        self.cells.resize(self.width, None);
        &mut self.cells
    }

    fn end_row(&mut self) {
        if self.error.is_some() {
            return;
        }
        let written = push_value_row(
            &mut self.out,
            &mut self.scratch,
            self.width,
            &self.cells,
            &self.joins,
            self.mode,
        );
        if let Err(e) = written {
            self.error = Some(e);
        }
    }

    fn reset(&mut self) {
        self.out.clear();
        self.error = None;
    }

    fn mark(&self) -> Mark {
        Mark {
            len: self.out.len(),
            failed: self.error.is_some(),
        }
    }

    fn rollback(&mut self, mark: Mark) {
        self.out.truncate(mark.len);
        if !mark.failed {
            self.error = None;
        }
    }
}

/// The planned rows of a section, stored flat: `width` cells per row, `None` for an absent
/// value.
#[derive(Debug, Default)]
pub(crate) struct Rows<'v> {
    cells: Vec<Option<&'v Value>>,
    width: usize,
    len: usize,
}

impl<'v> Rows<'v> {
    pub fn new(width: usize) -> Rows<'v> {
        Rows {
            cells: Vec::new(),
            width,
            len: 0,
        }
    }

    /// Makes room for `rows` more rows.
    pub fn reserve(&mut self, rows: usize) {
        self.cells.reserve(rows.saturating_mul(self.width));
    }

    /// Appends a row of absent values and returns it to fill.
    pub fn push_empty(&mut self) -> &mut [Option<&'v Value>] {
        let start = self.cells.len();
        self.cells.resize(start + self.width, None);
        self.len += 1;
        &mut self.cells[start..]
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn iter(&self) -> impl Iterator<Item = &[Option<&'v Value>]> + '_ {
        (0..self.len).map(move |r| &self.cells[r * self.width..(r + 1) * self.width])
    }

    /// Every present value, row by row.
    pub fn values(&self) -> impl Iterator<Item = &'v Value> + '_ {
        self.cells.iter().filter_map(|v| *v)
    }
}

/// The cell text of a value: null or absent is empty, strings are raw, numbers and booleans
/// JSON, arrays joined when the column says so, other containers Go-compact JSON.
pub(crate) fn render<'v>(value: Option<&'v Value>, join: Option<&str>) -> Result<Cow<'v, str>> {
    Ok(match (value, join) {
        (None | Some(Value::Null), _) => Cow::Borrowed(""),
        (Some(Value::String(s)), _) => Cow::Borrowed(s),
        (Some(Value::Array(items)), Some(separator)) => {
            let mut text = String::new();
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    text.push_str(separator);
                }
                text.push_str(&render(Some(item), None)?);
            }
            Cow::Owned(text)
        }
        (Some(other), _) => Cow::Owned(json::to_string(other, WriteOptions::GO)?),
    })
}

/// Metadata text of a scalar (Go `fmt.Sprint` of a decoded JSON scalar).
pub(crate) fn meta_text(value: &Value) -> Option<Cow<'_, str>> {
    match value {
        Value::String(s) => Some(Cow::Borrowed(s)),
        Value::Bool(true) => Some(Cow::Borrowed("true")),
        Value::Bool(false) => Some(Cow::Borrowed("false")),
        Value::Number(n) => match n.as_u64().and_then(crate::num::small_decimal) {
            Some(text) => Some(Cow::Borrowed(text)),
            None => {
                // Room for any typed number's text (literal numbers may grow it).
                let mut text = String::with_capacity(24);
                n.write_json(&mut text).ok().map(|()| Cow::Owned(text))
            }
        },
        _ => None,
    }
}

/// Writes the plans as consecutive sections.
pub(crate) fn write_plans<S: Sink>(
    encoder: &mut Encoder<S>,
    plans: &[SectionPlan<'_>],
) -> Result<()> {
    for plan in plans {
        encoder.begin_section_parts(&plan.head.parts())?;
        for row in plan.rows.iter() {
            encoder.write_values(row, &plan.head.joins)?;
        }
    }
    Ok(())
}

/// Writes plans into a payload, as [`PayloadWriter`] writes while planning.
pub(crate) fn write_payload(
    input: &Value,
    plans: &[SectionPlan<'_>],
    mode: Mode,
) -> Result<String> {
    let rows: usize = plans
        .iter()
        .map(|p| p.rows.len() * (p.head.fields.len() * 12 + 1))
        .sum();
    let mut writer = PayloadWriter::new(64 * plans.len() + rows, mode);
    for plan in plans {
        if writer.error.is_some() {
            break;
        }
        writer.width = plan.head.fields.len();
        if let Err(e) = push_header(&mut writer.out, &plan.head.parts(), mode) {
            writer.error = Some(e);
            break;
        }
        for row in plan.rows.iter() {
            if let Err(e) = push_value_row(
                &mut writer.out,
                &mut writer.scratch,
                writer.width,
                row,
                &plan.head.joins,
                mode,
            ) {
                writer.error = Some(e);
                break;
            }
        }
    }
    writer.finish(input)
}

/// True when two objects have the same keys in the same order.
pub(crate) fn same_keys(a: &Map, b: &Map) -> bool {
    a.len() == b.len() && a.keys().zip(b.keys()).all(|(x, y)| same_text(x, y))
}

/// The largest first object whose keys [`ArrayColumns::first_order`] tries as the union.
pub(crate) const FIRST_KEYS: usize = 64;

/// The first object's member indices in key byte order (on the stack).
pub(crate) struct FirstOrder {
    members: [u32; FIRST_KEYS],
    len: usize,
}

impl FirstOrder {
    /// The first object's keys in byte order.
    pub fn keys<'a>(&self, first: &'a Map) -> Vec<&'a str> {
        let entries = first.entries();
        self.members[..self.len]
            .iter()
            .map(|&m| entries[m as usize].0.as_str())
            .collect()
    }
}

/// Key unions up to this size are kept in a sorted vector.
const SMALL_UNION: usize = 64;

/// The columns of an array as the generic fallback writes it: a non-empty array of objects
/// has the union of their keys (byte order), anything else one `value` column.
pub(crate) enum ArrayColumns<'a> {
    Value,
    Keys {
        keys: Vec<&'a str>,
        /// Where a key sequence different from the previous object's starts (the first
        /// object always does): the rows in between share their columns.
        runs: Vec<usize>,
    },
}

impl<'a> ArrayColumns<'a> {
    pub fn of(items: &'a [Value]) -> ArrayColumns<'a> {
        if items.is_empty() || !items.iter().all(|v| v.as_object().is_some()) {
            return ArrayColumns::Value;
        }
        // Rows of one array usually share their key sequence: only a sequence that differs
        // from the previous object's is merged into the union, a sorted vector while it is
        // small (a B-tree past that, so that many keys cannot make it quadratic).
        let mut union: Vec<&str> = Vec::new();
        let mut large: Option<BTreeSet<&str>> = None;
        let mut runs = Vec::new();
        let mut previous: Option<&Map> = None;
        for (i, object) in items.iter().filter_map(Value::as_object).enumerate() {
            if previous.is_some_and(|p| same_keys(p, object)) {
                continue;
            }
            previous = Some(object);
            runs.push(i);
            if let Some(set) = &mut large {
                set.extend(object.keys());
                continue;
            }
            for key in object.keys() {
                if let Err(at) = union.binary_search_by(|probe| cmp_text(probe, key)) {
                    union.insert(at, key);
                }
            }
            if union.len() > SMALL_UNION {
                // Inserted one by one (collecting sorts first: one more sort in wasm).
                let mut set = BTreeSet::new();
                for key in union.drain(..) {
                    set.insert(key);
                }
                large = Some(set);
            }
        }
        ArrayColumns::Keys {
            keys: match large {
                Some(set) => set.into_iter().collect(),
                None => union,
            },
            runs,
        }
    }

    /// When every item is an object and the first has at most [`FIRST_KEYS`] members: that
    /// object and its member indices in key byte order.
    pub fn first_order(items: &'a [Value]) -> Option<(&'a Map, FirstOrder)> {
        if !items.iter().all(|v| v.as_object().is_some()) {
            return None;
        }
        let first = items.first()?.as_object()?;
        let entries = first.entries();
        if entries.len() > FIRST_KEYS {
            return None;
        }
        let mut order = FirstOrder {
            members: [0; FIRST_KEYS],
            len: entries.len(),
        };
        for (i, slot) in order.members.iter_mut().enumerate() {
            *slot = i as u32;
        }
        sort_by_text(&mut order.members[..entries.len()], &|i| &entries[i].0);
        Some((first, order))
    }

    /// Sends one row per item (objects), with the first object's keys (in `order`) as the
    /// columns; false (and part of the rows sent) as soon as an item has another key.
    pub fn rows_within(
        first: &Map,
        order: &FirstOrder,
        items: &'a [Value],
        sink: &mut impl RowSink<'a>,
    ) -> bool {
        let order = &order.members[..order.len];
        let keys = first.entries();
        // The column of each member of the previous object's key sequence.
        let mut columns = [0usize; FIRST_KEYS];
        let mut previous: Option<&Map> = None;
        for object in items.iter().filter_map(Value::as_object) {
            if !previous.is_some_and(|p| same_keys(p, object)) {
                // More members than columns: one of them has no column.
                if object.len() > order.len() {
                    return false;
                }
                for (column, key) in columns.iter_mut().zip(object.keys()) {
                    let found = order.binary_search_by(|&m| cmp_text(&keys[m as usize].0, key));
                    match found {
                        Ok(c) => *column = c,
                        Err(_) => return false,
                    }
                }
                previous = Some(object);
            }
            let row = sink.row();
            for ((_, value), &column) in object.iter().zip(&columns) {
                row[column] = Some(value);
            }
            sink.end_row();
        }
        true
    }

    /// The field names.
    pub fn fields(&self) -> Vec<&'a str> {
        match self {
            ArrayColumns::Value => alloc::vec!["value"],
            ArrayColumns::Keys { keys, .. } => keys.clone(),
        }
    }

    /// Sends one row per item (after the section was started).
    pub fn rows(&self, items: &'a [Value], sink: &mut impl RowSink<'a>) {
        let (keys, runs) = match self {
            ArrayColumns::Value => {
                for item in items {
                    if let Some(cell) = sink.row().first_mut() {
                        *cell = Some(item);
                    }
                    sink.end_row();
                }
                return;
            }
            ArrayColumns::Keys { keys, runs } => (keys, runs),
        };
        // The column of each member of the current run's key sequence.
        let mut columns: Vec<usize> = Vec::new();
        let mut next_run = runs.iter().peekable();
        for (i, object) in items.iter().filter_map(Value::as_object).enumerate() {
            if next_run.next_if(|&&start| start == i).is_some() {
                columns.clear();
                columns.extend(object.keys().map(|key| {
                    keys.binary_search_by(|probe| cmp_text(probe, key))
                        .unwrap_or_default()
                }));
            }
            let row = sink.row();
            for ((_, value), &column) in object.iter().zip(&columns) {
                row[column] = Some(value);
            }
            sink.end_row();
        }
    }
}

/// Fails on the first NaN or ±Infinity (depth first, members in input order), with Go's
/// `json: unsupported value: …` text: the references marshal the whole value before writing
/// anything.
pub(crate) fn check_finite(value: &Value) -> Result<()> {
    let Err(bad) = scan(value, 0) else {
        return Ok(());
    };
    let e = match crate::num::write_json_f64(&mut String::new(), bad) {
        Err(e) => e,
        Ok(()) => return Ok(()),
    };
    Err(Error::new(
        e.kind(),
        alloc::format!("wire: marshal input: {}", e.message()),
    ))
}

/// Nesting [`scan`] recurses through before it continues with [`scan_deep`].
const SCAN_RECURSION: usize = 32;

/// The first non-finite number of `value` in depth-first input order. Recursive for the
/// usual shallow values, then an explicit stack.
fn scan(value: &Value, depth: usize) -> core::result::Result<(), f64> {
    match value {
        Value::Number(n) if n.is_non_finite() => Err(n.as_f64()),
        Value::Array(items) if depth < SCAN_RECURSION => {
            items.iter().try_for_each(|item| scan(item, depth + 1))
        }
        Value::Object(map) if depth < SCAN_RECURSION => {
            map.iter().try_for_each(|(_, item)| scan(item, depth + 1))
        }
        Value::Array(_) | Value::Object(_) => scan_deep(value),
        _ => Ok(()),
    }
}

/// [`scan`] for deep values, with an explicit stack of member iterators.
fn scan_deep(value: &Value) -> core::result::Result<(), f64> {
    enum Members<'v> {
        Array(core::slice::Iter<'v, Value>),
        Object(core::slice::Iter<'v, (String, Value)>),
    }
    fn open(v: &Value) -> Option<Members<'_>> {
        match v {
            Value::Array(items) => Some(Members::Array(items.iter())),
            Value::Object(map) => Some(Members::Object(map.entries().iter())),
            _ => None,
        }
    }
    let mut stack: Vec<Members<'_>> = Vec::new();
    stack.extend(open(value));
    while let Some(top) = stack.last_mut() {
        let next = match top {
            Members::Array(items) => items.next(),
            Members::Object(members) => members.next().map(|(_, v)| v),
        };
        match next {
            None => {
                stack.pop();
            }
            Some(Value::Number(n)) if n.is_non_finite() => return Err(n.as_f64()),
            Some(v) => stack.extend(open(v)),
        }
    }
    Ok(())
}

/// Checks that `payload` decodes to exactly the planned sections and that the plans cover every
/// value of `input`: together, every input value decodes back in its row and field.
pub(crate) fn verify(
    input: &Value,
    plans: &[SectionPlan<'_>],
    payload: &str,
) -> core::result::Result<(), String> {
    let decoded = match decode(payload, &DecodeOptions::default()).into_borrowed() {
        Ok(sections) => sections,
        Err(e) => {
            return Err(alloc::format!(
                "the payload does not decode: {} ({})",
                e,
                e.code()
            ));
        }
    };
    if decoded.len() != plans.len() {
        return Err(alloc::format!(
            "{} sections written, {} decoded",
            plans.len(),
            decoded.len()
        ));
    }
    for (plan, got) in plans.iter().zip(&decoded) {
        let header = plan.head.header();
        let tool = &header.tool;
        if got.header != header {
            let mut line = String::new();
            let _ = got.header.write(&mut line, false);
            return Err(alloc::format!(
                "section {tool}: header decodes as {}",
                quote(line.trim_end())
            ));
        }
        if got.row_count() != plan.rows.len() {
            return Err(alloc::format!(
                "section {tool}: {} rows written, {} decoded (blank or #-rows are dropped by decoders)",
                plan.rows.len(),
                got.row_count()
            ));
        }
        for (r, (row, values)) in plan.rows.iter().zip(got.rows()).enumerate() {
            for (c, cell) in row.iter().enumerate() {
                let join = plan.head.joins.get(c).copied().flatten();
                let want = render(*cell, join).map_err(|e| e.to_string())?;
                if *values[c] != *want {
                    return Err(alloc::format!(
                        "section {tool} row {r} field {}: wrote {}, decoded {}",
                        header.fields[c],
                        quote(&want),
                        quote(&values[c])
                    ));
                }
            }
        }
    }
    let mut covered: BTreeSet<*const Value> = BTreeSet::new();
    for plan in plans {
        covered.extend(plan.rows.values().map(|v| v as *const Value));
        covered.extend(plan.head.meta_sources.iter().map(|v| *v as *const Value));
    }
    match uncovered(input, &covered, &mut String::from("$")) {
        Some(path) => Err(alloc::format!("input value at {path} is not in the output")),
        None => Ok(()),
    }
}

/// The path of the first input value that no planned cell or metadata covers.
fn uncovered(value: &Value, covered: &BTreeSet<*const Value>, path: &mut String) -> Option<String> {
    if covered.contains(&(value as *const Value)) {
        return None;
    }
    let len = path.len();
    let found = match value {
        Value::Array(items) if !items.is_empty() => {
            items.iter().enumerate().find_map(|(i, item)| {
                path.truncate(len);
                path.push_str(&alloc::format!("[{i}]"));
                uncovered(item, covered, path)
            })
        }
        Value::Object(map) if !map.is_empty() => map.iter().find_map(|(key, item)| {
            path.truncate(len);
            path.push('.');
            path.push_str(key);
            uncovered(item, covered, path)
        }),
        _ => Some(path.clone()),
    };
    path.truncate(len);
    found
}

/// Header metadata from `(key, value)` pairs of scalars (others are skipped), in key byte
/// order; a repeated key keeps its last value. Also returns the values written, if asked.
pub(crate) fn meta_of<'a>(
    pairs: &[(&'a str, &'a Value)],
    keep_sources: bool,
) -> (Vec<(&'a str, Cow<'a, str>)>, Vec<&'a Value>) {
    // One more for the `rows` the generic fallback adds.
    let mut meta = Vec::with_capacity(pairs.len() + 1);
    let mut sources = Vec::new();
    for (key, value) in pairs {
        if let Some(text) = meta_text(value) {
            meta.push((*key, text));
            if keep_sources {
                sources.push(*value);
            }
        }
    }
    sort_meta(&mut meta);
    (meta, sources)
}

/// Sorts metadata by key bytes, keeping the last value of a repeated key (a map's insert).
pub(crate) fn sort_meta(meta: &mut Vec<(&str, Cow<'_, str>)>) {
    // Stable: equal keys stay in insertion order, and the last of a run wins.
    let mut order = indices(meta.len());
    sort_by_text(&mut order, &|i| meta[i].0);
    let mut sorted: Vec<(&str, Cow<'_, str>)> = Vec::with_capacity(meta.len());
    let mut taken: Vec<Option<(&str, Cow<'_, str>)>> = meta.drain(..).map(Some).collect();
    sorted.extend(order.iter().filter_map(|&i| taken[i as usize].take()));
    *meta = sorted;
    let mut i = 0;
    while i + 1 < meta.len() {
        if meta[i].0 == meta[i + 1].0 {
            meta.remove(i);
        } else {
            i += 1;
        }
    }
}
