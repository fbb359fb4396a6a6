//! Encoding a tool response: by its registered layout, by the generic fallback, or by the
//! upstream benchmark's wrapper-recognising encoder.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::encode::EncodeOptions;
use super::layout::{FieldRef, Layouts, Resolved, RowsRef, SectionRef};
use super::plan::{
    self, ArrayColumns, PayloadWriter, RowSink, SectionHead, SectionPlan, meta_of, meta_text,
    same_keys, sort_meta,
};
use crate::json::{Map, Value};
use crate::text::{cmp_text, find, quote, same_text};
use crate::{Error, ErrorKind, Result};

/// How [`encode_tool`] maps a response onto sections.
///
/// ```
/// use agentwire::gcx::{encode_tool, Strategy, ToolOptions};
/// let response = agentwire::json::parse(r#"{"results":[{"id":"a","kind":"func"}],"total":1}"#)?;
/// let layout = encode_tool("search_symbols", &response, &ToolOptions::default())?;
/// let head = "GCX1 tool=search_symbols fields=id,kind,name,path,line,sig total=1\n";
/// assert_eq!(layout, format!("{head}a\tfunc\t\t\t\t\n"));
/// let options = ToolOptions { strategy: Strategy::Generic, ..ToolOptions::default() };
/// let generic = encode_tool("search_symbols", &response, &options)?;
/// let head = "GCX1 tool=search_symbols fields=results,total\n";
/// let results = r#"[{"id":"a","kind":"func"}]"#;
/// assert_eq!(generic, format!("{head}{results}\t1\n"));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Strategy {
    /// The tool's registered layout when the response fits it exactly (every value has a
    /// column or a metadata key), else the generic fallback. Never drops data.
    #[default]
    Layout,
    /// Always the generic fallback (gcx-go `EncodeAny`).
    Generic,
    /// The encoder of the upstream GCX1 benchmark (gortex `bench/wire-format`): it recognises
    /// `results`/`symbols`/`nodes`+`edges`/`edges`/`implementations` wrappers (metadata `rows`
    /// plus the wrapper's `total`, `truncated`, `etag`, `total_nodes`, `total_edges`; other
    /// wrapper members are dropped, as upstream) and objects of two or more arrays (one
    /// section per key); anything else goes to the generic fallback.
    Bench,
}

impl Strategy {
    /// `layout`, `generic` or `bench`.
    ///
    /// ```
    /// use agentwire::gcx::Strategy;
    /// assert_eq!(Strategy::default().name(), "layout");
    /// assert_eq!(Strategy::Bench.name(), "bench");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Layout => "layout",
            Strategy::Generic => "generic",
            Strategy::Bench => "bench",
        }
    }

    /// Reads a strategy name.
    ///
    /// ```
    /// use agentwire::gcx::Strategy;
    /// assert_eq!(Strategy::parse("generic")?, Strategy::Generic);
    /// assert_eq!(Strategy::parse("auto").unwrap_err().code(), "INVALID_ARGUMENT");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn parse(name: &str) -> Result<Strategy> {
        match name {
            "layout" => Ok(Strategy::Layout),
            "generic" => Ok(Strategy::Generic),
            "bench" => Ok(Strategy::Bench),
            _ => Err(Error::new(
                ErrorKind::InvalidArgument,
                alloc::format!(
                    "unknown strategy {name} (expected layout, generic or bench)",
                    name = quote(name)
                ),
            )),
        }
    }
}

/// Options of [`encode_tool`].
///
/// ```
/// use agentwire::gcx::{encode_tool, ToolOptions};
/// let options = ToolOptions { strict: true, ..ToolOptions::default() };
/// let response = agentwire::json::parse(r#"{"results":[],"took_ms":3}"#)?;
/// let err = encode_tool("search_symbols", &response, &options).unwrap_err();
/// assert_eq!(err.code(), "GCX_LAYOUT_MISMATCH");
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolOptions {
    /// How to map the response.
    pub strategy: Strategy,
    /// The layouts [`Strategy::Layout`] uses (the built-in ones by default).
    pub layouts: Layouts,
    /// Encoder options (`lossless`, `compat`, `literal_numbers`).
    pub encode: EncodeOptions,
    /// With [`Strategy::Layout`]: a response that does not fit the tool's layout (or a tool
    /// without one) is an error ([`ErrorKind::GcxLayoutMismatch`], saying why) instead of the
    /// generic fallback.
    pub strict: bool,
}

/// Encodes a tool response. With the default [`Strategy::Layout`], a response that fits the
/// tool's layout becomes its sections; anything else takes the generic fallback (or, with
/// [`ToolOptions::strict`], an error), so every response gives valid GCX1.
/// [`encode_tool_report`] also says which strategy wrote it.
///
/// ```
/// use agentwire::{gcx, json};
/// let response = json::parse(r#"{"results":[{"id":"a.go::F","kind":"function"}],"total":1}"#)?;
/// let payload = gcx::encode_tool("search_symbols", &response, &gcx::ToolOptions::default())?;
/// assert!(payload.starts_with("GCX1 tool=search_symbols fields=id,kind"));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_tool(tool: &str, response: &Value, options: &ToolOptions) -> Result<String> {
    Ok(encode_unchecked(tool, response, options, false)?.0)
}

/// What [`encode_tool_report`] produced.
///
/// ```
/// use agentwire::gcx::{encode_tool_report, Strategy, ToolOptions};
/// let response = agentwire::json::parse(r#"{"results":[{"id":"a"}]}"#)?;
/// let report = encode_tool_report("search_symbols", &response, &ToolOptions::default())?;
/// assert_eq!(report.strategy, Strategy::Layout);
/// assert_eq!(report.fallback_reason, None);
/// let head = "GCX1 tool=search_symbols fields=id,kind,name,path,line,sig\n";
/// assert_eq!(report.payload, format!("{head}a\t\t\t\t\t\n"));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ToolReport {
    /// The GCX1 payload (the same bytes [`encode_tool`] returns).
    pub payload: String,
    /// Which strategy wrote it: [`Strategy::Layout`] falls back to [`Strategy::Generic`].
    pub strategy: Strategy,
    /// Why the layout strategy fell back to the generic encoder (None when it did not).
    pub fallback_reason: Option<String>,
}

/// [`encode_tool`], also saying which strategy wrote the payload and, after a fallback, why
/// the response did not fit the layout.
///
/// ```
/// use agentwire::gcx::{encode_tool_report, Strategy, ToolOptions};
/// let response = agentwire::json::parse(r#"{"results":[{"id":"a","line":3}],"took_ms":5}"#)?;
/// let report = encode_tool_report("search_symbols", &response, &ToolOptions::default())?;
/// assert_eq!(report.strategy, Strategy::Generic);
/// assert_eq!(
///     report.fallback_reason.as_deref(),
///     Some("response member \"took_ms\" has no section, column or metadata key in the layout of \"search_symbols\"")
/// );
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_tool_report(
    tool: &str,
    response: &Value,
    options: &ToolOptions,
) -> Result<ToolReport> {
    let (payload, strategy, fallback_reason) = encode_unchecked(tool, response, options, true)?;
    Ok(ToolReport {
        payload,
        strategy,
        fallback_reason,
    })
}

/// Why a response did not fit the layout of `tool`.
#[cold]
#[inline(never)]
fn misfit_reason(tool: &str, misfit: &Misfit<'_>) -> String {
    let what = match *misfit {
        Misfit::NoLayout => return alloc::format!("no layout is registered for {}", quote(tool)),
        Misfit::NoSection => String::from("no section matches the response"),
        Misfit::Unplaced(key) => alloc::format!(
            "response member {} has no section, column or metadata key",
            quote(key)
        ),
        Misfit::NotArray(key) => alloc::format!("{} is not an array", quote(key)),
        Misfit::NotObject(key) => alloc::format!("{} is not an object", quote(key)),
        Misfit::Meta(key) => {
            alloc::format!("metadata {} is not a scalar without spaces", quote(key))
        }
        Misfit::RowShape(section, row) => {
            alloc::format!("row {row} of section {} is not an object", quote(section))
        }
        Misfit::RowMember(section, row, key) => alloc::format!(
            "row {row} of section {} has member {} that no column reads",
            quote(section),
            quote(key)
        ),
        Misfit::Joined(section, row, column) => alloc::format!(
            "row {row} of section {}: column {} needs an array of scalars without its separator",
            quote(section),
            quote(column)
        ),
    };
    alloc::format!("{what} in the layout of {}", quote(tool))
}

/// What [`encode_tool_checked`] produced.
///
/// ```
/// use agentwire::gcx::{encode_tool_checked, Strategy, ToolOptions};
/// let response = agentwire::json::parse(r#"[{"id":"a","kind":"func"}]"#)?;
/// let out =
///     encode_tool_checked("search_symbols", &response, &ToolOptions::default(), true)?;
/// assert_eq!(out.strategy, Strategy::Layout);
/// assert_eq!(out.round_trip, Some(Ok(())));
/// let unchecked =
///     encode_tool_checked("search_symbols", &response, &ToolOptions::default(), false)?;
/// assert_eq!((unchecked.payload, unchecked.round_trip), (out.payload, None));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolOutput {
    /// The GCX1 payload.
    pub payload: String,
    /// Which strategy actually wrote it (`Layout` falls back to `Generic`).
    pub strategy: Strategy,
    /// With `check`: Ok when the payload decodes to exactly the written rows and every input
    /// value is in them; Err says which value or row was lost.
    pub round_trip: Option<core::result::Result<(), String>>,
}

/// [`encode_tool`], also reporting the strategy used and, with `check`, a real round-trip
/// check (decode the payload and compare every row and value with the input).
///
/// ```
/// use agentwire::{gcx, json};
/// // One key the layout has no column for: the generic fallback keeps it.
/// let response = json::parse(r#"{"results":[{"id":"a"}],"extra":"x"}"#)?;
/// let out = gcx::encode_tool_checked("search_symbols", &response, &Default::default(), true)?;
/// assert_eq!(out.strategy, gcx::Strategy::Generic);
/// assert_eq!(out.round_trip, Some(Ok(())));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn encode_tool_checked(
    tool: &str,
    response: &Value,
    options: &ToolOptions,
    check: bool,
) -> Result<ToolOutput> {
    if check {
        return encode_and_verify(tool, response, options);
    }
    let (payload, strategy, _) = encode_unchecked(tool, response, options, false)?;
    Ok(ToolOutput {
        payload,
        strategy,
        round_trip: None,
    })
}

/// The bench strategy drops values, so it checks them all first; the others write every
/// value, so the write itself meets a non-finite number (see `PayloadWriter::finish`).
fn check_first(response: &Value, options: &ToolOptions) -> Result<()> {
    if options.strategy == Strategy::Bench {
        plan::check_finite(response)?;
    }
    Ok(())
}

/// The layout [`Strategy::Layout`] may use.
fn resolve<'o>(tool: &str, options: &'o ToolOptions) -> Option<Resolved<'o>> {
    match options.strategy {
        Strategy::Layout => options.layouts.resolve(tool),
        _ => None,
    }
}

/// Encodes while planning, keeping no plans (the fast path); with `why`, also the reason a
/// layout fell back.
fn encode_unchecked(
    tool: &str,
    response: &Value,
    options: &ToolOptions,
    why: bool,
) -> Result<(String, Strategy, Option<String>)> {
    check_first(response, options)?;
    // Borrowed while planning, so it must outlive the writer.
    let resolved = resolve(tool, options);
    let mut writer = PayloadWriter::new(capacity_hint(response), options.encode.mode());
    let (strategy, misfit) = plan(
        tool,
        response,
        options.strategy,
        resolved.as_ref(),
        &mut writer,
    );
    let reason = check_strict(tool, options, misfit.as_ref(), why)?;
    Ok((writer.finish(response)?, strategy, reason))
}

/// Plans, writes the plans, and checks the round trip against them.
#[inline(never)]
fn encode_and_verify(tool: &str, response: &Value, options: &ToolOptions) -> Result<ToolOutput> {
    check_first(response, options)?;
    let resolved = resolve(tool, options);
    let mut plans: Vec<SectionPlan<'_>> = Vec::new();
    let (strategy, misfit) = plan(
        tool,
        response,
        options.strategy,
        resolved.as_ref(),
        &mut plans,
    );
    check_strict(tool, options, misfit.as_ref(), false)?;
    let payload = plan::write_payload(response, &plans, options.encode.mode())?;
    let round_trip = Some(plan::verify(response, &plans, &payload));
    Ok(ToolOutput {
        payload,
        strategy,
        round_trip,
    })
}

/// With `strict`, a layout that fell back is an error; else the reason, when asked `why`.
fn check_strict(
    tool: &str,
    options: &ToolOptions,
    misfit: Option<&Misfit<'_>>,
    why: bool,
) -> Result<Option<String>> {
    let Some(misfit) = misfit else {
        return Ok(None);
    };
    if options.strict {
        return Err(Error::new(
            ErrorKind::GcxLayoutMismatch,
            misfit_reason(tool, misfit),
        ));
    }
    Ok(why.then(|| misfit_reason(tool, misfit)))
}

/// Plans `response` into `sink` by `strategy`; returns the strategy that wrote it and, when
/// the layout strategy fell back, why.
fn plan<'a>(
    tool: &'a str,
    response: &'a Value,
    strategy: Strategy,
    resolved: Option<&'a Resolved<'_>>,
    sink: &mut impl RowSink<'a>,
) -> (Strategy, Option<Misfit<'a>>) {
    match strategy {
        Strategy::Generic => plan_generic(tool, response, sink),
        Strategy::Bench => plan_bench(tool, response, sink),
        Strategy::Layout => {
            let fits = match resolved {
                Some(Resolved::Registered(layout)) => {
                    plan_layout(tool, &layout.sections, response, sink)
                }
                Some(Resolved::Builtin(layout)) => {
                    plan_layout(tool, &layout.sections, response, sink)
                }
                None => Err(Misfit::NoLayout),
            };
            let Err(misfit) = fits else {
                return (Strategy::Layout, None);
            };
            sink.reset();
            plan_generic(tool, response, sink);
            return (Strategy::Generic, Some(misfit));
        }
    }
    (strategy, None)
}

/// A first size for the payload of `value` (it grows if needed): a line per row of an array,
/// about as long as its first element's members, plus a little per scalar.
fn capacity_hint(value: &Value) -> usize {
    let size = |v: &Value| match v {
        Value::Array(items) => {
            let width = items.first().and_then(Value::as_object).map_or(1, Map::len);
            items.len().saturating_mul(8 + 16 * width)
        }
        Value::String(s) => s.len() + 8,
        _ => 16,
    };
    let text = match value {
        Value::Object(map) => map.iter().map(|(_, v)| size(v)).sum(),
        other => size(other),
    };
    128 + text.min(1 << 20)
}

/// The generic fallback's single section.
pub(crate) fn plan_generic<'a>(tool: &'a str, value: &'a Value, sink: &mut impl RowSink<'a>) {
    match value {
        Value::Object(map) => {
            // Keys already in byte order (common) need no sorted copy.
            let entries = map.entries();
            if entries
                .windows(2)
                .all(|w| cmp_text(&w[0].0, &w[1].0).is_lt())
            {
                let fields = entries.iter().map(|(k, _)| k.as_str()).collect();
                sink.section(SectionHead::new(Cow::Borrowed(tool), fields), 1);
                for (cell, (_, v)) in sink.row().iter_mut().zip(entries) {
                    *cell = Some(v);
                }
            } else {
                let members = map.sorted();
                let fields = members.iter().map(|(k, _)| *k).collect();
                sink.section(SectionHead::new(Cow::Borrowed(tool), fields), 1);
                for (cell, (_, v)) in sink.row().iter_mut().zip(&members) {
                    *cell = Some(*v);
                }
            }
            sink.end_row();
        }
        Value::Array(items) => array_section(Cow::Borrowed(tool), items, &[], sink),
        scalar => {
            sink.section(
                SectionHead::new(Cow::Borrowed(tool), alloc::vec!["value"]),
                1,
            );
            if let Some(cell) = sink.row().first_mut() {
                *cell = Some(scalar);
            }
            sink.end_row();
        }
    }
}

/// An array as the generic fallback writes it, with `rows=N` and extra metadata.
fn array_section<'a, S: RowSink<'a>>(
    tool: Cow<'a, str>,
    items: &'a [Value],
    extra_meta: &[(&'a str, &'a Value)],
    sink: &mut S,
) {
    // Most arrays of objects repeat the first object's keys: its sorted keys are then the
    // union, and one pass writes the rows while it checks that. A key the first object lacks
    // undoes the section and takes the two passes (union, then rows).
    if let Some((first, order)) = ArrayColumns::first_order(items) {
        let mark = sink.mark();
        let head = array_head::<S>(tool.clone(), items.len(), extra_meta, order.keys(first));
        sink.section(head, items.len());
        if ArrayColumns::rows_within(first, &order, items, sink) {
            return;
        }
        sink.rollback(mark);
    }
    let columns = ArrayColumns::of(items);
    let head = array_head::<S>(tool, items.len(), extra_meta, columns.fields());
    sink.section(head, items.len());
    columns.rows(items, sink);
}

/// The header of an array section: `rows=N` and the extra metadata.
fn array_head<'a, S: RowSink<'a>>(
    tool: Cow<'a, str>,
    rows: usize,
    extra_meta: &[(&'a str, &'a Value)],
    fields: Vec<&'a str>,
) -> SectionHead<'a> {
    let (mut meta, meta_sources) = meta_of(extra_meta, S::KEEPS_SOURCES);
    let rows_text = match crate::num::small_decimal(rows as u64) {
        Some(text) => Cow::Borrowed(text),
        None => {
            let mut text = String::new();
            crate::num::write_u64(&mut text, rows as u64);
            Cow::Owned(text)
        }
    };
    meta.push(("rows", rows_text));
    sort_meta(&mut meta);
    let mut head = SectionHead::new(tool, fields);
    head.meta = meta;
    head.meta_sources = meta_sources;
    head
}

/// The upstream benchmark harness's encoder (gcx1.md §8.1).
pub(crate) fn plan_bench<'a>(tool: &'a str, value: &'a Value, sink: &mut impl RowSink<'a>) {
    let Value::Object(map) = value else {
        return plan_generic(tool, value, sink);
    };
    let array = |key: &str| map.get(key).and_then(Value::as_array);
    let scalars: Vec<(&str, &Value)> = ["total", "truncated", "etag", "total_nodes", "total_edges"]
        .iter()
        .filter_map(|k| {
            map.get(k)
                .filter(|v| meta_text(v).is_some())
                .map(|v| (*k, v))
        })
        .collect();
    for key in ["results", "symbols"] {
        if let Some(items) = array(key) {
            return array_section(Cow::Borrowed(tool), items, &scalars, sink);
        }
    }
    if let (Some(nodes), Some(edges)) = (array("nodes"), array("edges")) {
        array_section(
            Cow::Owned(alloc::format!("{tool}.nodes")),
            nodes,
            &scalars,
            sink,
        );
        array_section(Cow::Owned(alloc::format!("{tool}.edges")), edges, &[], sink);
        return;
    }
    for key in ["edges", "implementations"] {
        if let Some(items) = array(key) {
            return array_section(Cow::Borrowed(tool), items, &scalars, sink);
        }
    }
    if map.len() >= 2 && map.iter().all(|(_, v)| v.as_array().is_some()) {
        for (key, v) in map.sorted() {
            if let Some(items) = v.as_array() {
                array_section(Cow::Owned(alloc::format!("{tool}.{key}")), items, &[], sink);
            }
        }
        return;
    }
    plan_generic(tool, value, sink)
}

/// Wrapper keys a layout placed (few: bounded by the layout's size).
#[derive(Default)]
struct Consumed<'a>(Vec<&'a str>);

impl<'a> Consumed<'a> {
    fn insert(&mut self, key: &'a str) {
        if !self.contains(key) {
            if self.0.is_empty() {
                self.0.reserve(8);
            }
            self.0.push(key);
        }
    }

    fn contains(&self, key: &str) -> bool {
        self.0.iter().any(|k| same_text(k, key))
    }
}

/// Why a response does not fit a layout.
#[derive(Debug)]
pub(crate) enum Misfit<'a> {
    /// The tool has no layout.
    NoLayout,
    /// No section found its rows.
    NoSection,
    /// A wrapper member no section, column or meta key reads.
    Unplaced(&'a str),
    /// The rows of an array section are not an array.
    NotArray(&'a str),
    /// The row of an object section is not an object.
    NotObject(&'a str),
    /// A meta value is not a scalar, or has spaces.
    Meta(&'a str),
    /// Section, row number: the row is not an object (nor a scalar of a one-column section).
    RowShape(&'a str, usize),
    /// Section, row number, member no column reads.
    RowMember(&'a str, usize, &'a str),
    /// Section, row number, joined column whose value does not fit.
    Joined(&'a str, usize, &'a str),
}

/// Maps `value` onto a layout's sections, into `sink`; an error says which value would have
/// no place in the output (the sink then holds a partial output).
pub(crate) fn plan_layout<'a>(
    tool: &'a str,
    sections: &'a [SectionRef<'_>],
    value: &'a Value,
    sink: &mut impl RowSink<'a>,
) -> core::result::Result<(), Misfit<'a>> {
    let wrapper = value.as_object();
    let mut consumed = Consumed::default();
    let mut members = Vec::new();
    let mut root_taken = false;
    let mut planned = 0;
    for section in sections {
        let rows: &'a [Value] = match &section.rows {
            RowsRef::Array { keys, root } => match value {
                Value::Array(items) if *root && !root_taken => {
                    root_taken = true;
                    items
                }
                Value::Object(map) => match keys.iter().find_map(|k| map.get(k).map(|v| (*k, v))) {
                    Some((key, rows)) => {
                        consumed.insert(key);
                        rows.as_array().ok_or(Misfit::NotArray(key))?
                    }
                    None => continue,
                },
                _ => continue,
            },
            RowsRef::Object { key: None } => match value {
                Value::Object(_) => core::slice::from_ref(value),
                _ => continue,
            },
            RowsRef::Object { key: Some(key) } => match wrapper.and_then(|m| m.get(key)) {
                Some(object @ Value::Object(_)) => {
                    consumed.insert(key);
                    core::slice::from_ref(object)
                }
                Some(_) => return Err(Misfit::NotObject(key)),
                None => continue,
            },
        };
        let whole_object_row = matches!(section.rows, RowsRef::Object { key: None });
        section_plan(
            tool,
            section,
            rows,
            whole_object_row,
            wrapper,
            &mut consumed,
            &mut members,
            sink,
        )?;
        planned += 1;
    }
    if planned == 0 {
        return Err(Misfit::NoSection);
    }
    // Every member of a wrapper object must have been placed.
    if let Some(map) = wrapper
        && let Some(key) = map.keys().find(|k| !consumed.contains(k))
    {
        return Err(Misfit::Unplaced(key));
    }
    Ok(())
}

/// The section name: `{tool}` replaced by the tool (borrowed when nothing changes).
fn section_name<'a>(name: &'a str, tool: &'a str) -> Cow<'a, str> {
    match name {
        "{tool}" => Cow::Borrowed(tool),
        _ if name.bytes().any(|b| b == b'{') => replace_tool(name, tool),
        _ => Cow::Borrowed(name),
    }
}

#[inline(never)]
fn replace_tool<'a>(name: &'a str, tool: &str) -> Cow<'a, str> {
    // The built-in names put it first (`{tool}.nodes`).
    if let Some(rest) = name.strip_prefix("{tool}")
        && !rest.as_bytes().contains(&b'{')
    {
        let mut owned = String::with_capacity(tool.len() + rest.len());
        owned.push_str(tool);
        owned.push_str(rest);
        return Cow::Owned(owned);
    }
    let Some(first) = find(name, "{tool}") else {
        return Cow::Borrowed(name);
    };
    let mut owned = String::with_capacity(name.len() + tool.len());
    let mut rest = name;
    let mut at = Some(first);
    while let Some(i) = at {
        owned.push_str(&rest[..i]);
        owned.push_str(tool);
        rest = &rest[i + "{tool}".len()..];
        at = find(rest, "{tool}");
    }
    owned.push_str(rest);
    Cow::Owned(owned)
}

/// The columns a section writes: all its fields, or (when some are optional and absent) a
/// selection.
enum Columns<'s, 'l> {
    All(&'s [FieldRef<'l>]),
    Selected(Vec<&'s FieldRef<'l>>),
}

impl<'s, 'l> Columns<'s, 'l> {
    fn iter(&self) -> impl Iterator<Item = &'s FieldRef<'l>> + Clone + '_ {
        let (all, selected): (&'s [FieldRef<'l>], &[&'s FieldRef<'l>]) = match self {
            Columns::All(all) => (all, &[]),
            Columns::Selected(selected) => (&[], selected),
        };
        all.iter().chain(selected.iter().copied())
    }

    fn len(&self) -> usize {
        match self {
            Columns::All(all) => all.len(),
            Columns::Selected(selected) => selected.len(),
        }
    }
}

/// Where each column of a row object comes from, for one key sequence (rows of an array
/// usually share theirs, so it is computed once per run of equal sequences).
struct RowShape<'a> {
    /// The object the shape was computed for.
    of: Option<&'a Map>,
    /// Per column, the index of the member it reads.
    members: Vec<Option<usize>>,
    /// Whether some member is read by no column: none may be left in a (non-whole-object) row.
    unused: bool,
}

impl<'a> RowShape<'a> {
    /// Computes the shape of `map` unless it is the current one.
    fn update<'s, 'l: 's>(&mut self, map: &'a Map, columns: &Columns<'s, 'l>) {
        if self.of.is_some_and(|of| same_keys(of, map)) {
            return;
        }
        let entries = map.entries();
        self.of = Some(map);
        self.members.clear();
        // The first of a column's source keys that the row has. Rows usually list their
        // members in column order, so the member after the last one found is tried first.
        let mut next = 0;
        self.members.extend(columns.iter().map(|f| {
            let member = f.from.iter().find_map(|k| match entries.get(next) {
                Some((key, _)) if same_text(key, k) => Some(next),
                _ => entries.iter().position(|(key, _)| same_text(key, k)),
            });
            if let Some(i) = member {
                next = i + 1;
            }
            member
        }));
        // Each column reads at most one member: more members than columns leaves some unused.
        self.unused = if entries.len() > self.members.len() {
            true
        } else if entries.len() <= 64 {
            let used = self.members.iter().flatten().fold(0u64, |m, &i| m | 1 << i);
            used.count_ones() as usize != entries.len()
        } else {
            let mut used = alloc::vec![false; entries.len()];
            for &i in self.members.iter().flatten() {
                used[i] = true;
            }
            used.contains(&false)
        };
    }
}

impl RowShape<'_> {
    /// The first member of `map` (the shape's object) that no column reads.
    #[cold]
    #[inline(never)]
    fn unused_key<'m>(&self, map: &'m Map) -> &'m str {
        map.entries()
            .iter()
            .enumerate()
            .find(|(i, _)| !self.members.contains(&Some(*i)))
            .map_or("", |(_, (key, _))| key.as_str())
    }
}

#[allow(clippy::too_many_arguments)]
fn section_plan<'a, S: RowSink<'a>>(
    tool: &'a str,
    section: &'a SectionRef<'_>,
    rows: &'a [Value],
    whole_object_row: bool,
    wrapper: Option<&'a Map>,
    consumed: &mut Consumed<'a>,
    members: &mut Vec<Option<usize>>,
    sink: &mut S,
) -> core::result::Result<(), Misfit<'a>> {
    let present = |names: &[&str]| {
        rows.iter().any(|row| {
            row.as_object()
                .is_some_and(|m| names.iter().any(|k| m.get(k).is_some()))
        })
    };
    let columns = if section.fields.iter().any(|f| f.optional) {
        Columns::Selected(
            section
                .fields
                .iter()
                .filter(|f| !f.optional || present(&f.from))
                .collect(),
        )
    } else {
        Columns::All(&section.fields)
    };
    let mut head = SectionHead::new(
        section_name(section.name, tool),
        columns.iter().map(|f| f.name).collect(),
    );
    if columns.iter().any(|f| f.join.is_some()) {
        head.joins = columns.iter().map(|f| f.join).collect();
    }
    if let Some(map) = wrapper {
        let (meta, sources) =
            layout_meta(section, map, consumed, S::KEEPS_SOURCES).map_err(Misfit::Meta)?;
        head.meta = meta;
        head.meta_sources = sources;
    }
    sink.section(head, rows.len());
    let mut shape = RowShape {
        of: None,
        members: core::mem::take(members),
        unused: false,
    };
    for (r, row) in rows.iter().enumerate() {
        match row {
            Value::Object(map) => {
                shape.update(map, &columns);
                let entries = map.entries();
                if whole_object_row {
                    // The response object itself: its other members belong to other sections.
                    for i in shape.members.iter().flatten() {
                        consumed.insert(&entries[*i].0);
                    }
                } else if shape.unused {
                    return Err(Misfit::RowMember(section.name, r, shape.unused_key(map)));
                }
                let cells = sink.row();
                for ((cell, member), f) in cells.iter_mut().zip(&shape.members).zip(columns.iter())
                {
                    if let Some(i) = member {
                        let value = &entries[*i].1;
                        if !fits_column(value, f.join) {
                            return Err(Misfit::Joined(section.name, r, f.name));
                        }
                        *cell = Some(value);
                    }
                }
                sink.end_row();
            }
            scalar if columns.len() == 1 && !matches!(scalar, Value::Array(_)) => {
                if let Some(cell) = sink.row().first_mut() {
                    *cell = Some(scalar);
                }
                sink.end_row();
            }
            _ => return Err(Misfit::RowShape(section.name, r)),
        }
    }
    // The buffer serves the next section.
    *members = shape.members;
    Ok(())
}

/// A value fits a column when a joined column gets an array of scalars free of the separator.
fn fits_column(value: &Value, join: Option<&str>) -> bool {
    let Some(separator) = join else {
        return true;
    };
    let contains = |s: &str| match separator.as_bytes() {
        [byte] => memchr::memchr(*byte, s.as_bytes()).is_some(),
        _ => find(s, separator).is_some(),
    };
    match value {
        Value::Array(items) => items.iter().all(|item| match item {
            Value::String(s) => !contains(s),
            Value::Number(_) | Value::Bool(_) => true,
            _ => false,
        }),
        Value::Null => true,
        _ => false,
    }
}

/// The section's metadata from the wrapper; `Err(key)` when a value cannot be a header value.
#[allow(clippy::type_complexity)]
fn layout_meta<'a>(
    section: &SectionRef<'_>,
    map: &'a Map,
    consumed: &mut Consumed<'a>,
    keep_sources: bool,
) -> core::result::Result<(Vec<(&'a str, Cow<'a, str>)>, Vec<&'a Value>), &'a str> {
    let mut meta = Vec::new();
    let mut sources = Vec::new();
    for (key, value) in map.iter() {
        if !section.meta.iter().any(|m| same_text(m, key)) {
            continue;
        }
        consumed.insert(key);
        if let Value::Null = value {
            continue;
        }
        let text = meta_text(value).ok_or(key)?;
        if text
            .bytes()
            .any(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        {
            return Err(key);
        }
        meta.push((key, text));
        if keep_sources {
            sources.push(value);
        }
    }
    sort_meta(&mut meta);
    Ok((meta, sources))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn encode(tool: &str, json_text: &str, strategy: Strategy) -> ToolOutput {
        let options = ToolOptions {
            strategy,
            ..ToolOptions::default()
        };
        let value = json::parse(json_text).unwrap();
        encode_tool_checked(tool, &value, &options, true).unwrap()
    }

    #[test]
    fn layout_maps_aliases_and_meta() {
        let out = encode(
            "search_symbols",
            r#"{"results":[{"id":"a","kind":"function","name":"A","file_path":"a.go","start_line":3}],"total":1,"truncated":false}"#,
            Strategy::Layout,
        );
        assert_eq!(out.strategy, Strategy::Layout);
        assert_eq!(
            out.payload,
            "GCX1 tool=search_symbols fields=id,kind,name,path,line,sig total=1 truncated=false\na\tfunction\tA\ta.go\t3\t\n"
        );
        assert_eq!(out.round_trip, Some(Ok(())));
    }

    #[test]
    fn unknown_keys_fall_back_to_generic() {
        let out = encode(
            "search_symbols",
            r#"[{"id":"a","extra":1}]"#,
            Strategy::Layout,
        );
        assert_eq!(out.strategy, Strategy::Generic);
        assert_eq!(
            out.payload,
            "GCX1 tool=search_symbols fields=extra,id rows=1\n1\ta\n"
        );
        assert_eq!(out.round_trip, Some(Ok(())));
    }

    #[test]
    fn multi_section_layouts() {
        let out = encode(
            "get_callers",
            r#"{"nodes":[{"id":"n","kind":"f","name":"N","path":"p","line":1}],"edges":[{"from":"n","to":"m","kind":"calls","origin":"ast","confidence":0.5,"label":""}],"truncated":true}"#,
            Strategy::Layout,
        );
        assert_eq!(
            out.payload,
            "GCX1 tool=get_callers.nodes fields=id,kind,name,path,line truncated=true\nn\tf\tN\tp\t1\nGCX1 tool=get_callers.edges fields=from,to,kind,origin,confidence,label\nn\tm\tcalls\tast\t0.5\t\n"
        );
        let cycles = encode(
            "analyze_cycles",
            r#"[{"size":2,"severity":"high","nodes":["a","b"]}]"#,
            Strategy::Layout,
        );
        assert_eq!(
            cycles.payload,
            "GCX1 tool=analyze.cycles fields=size,severity,nodes\n2\thigh\ta,b\n"
        );
        let comma = encode(
            "analyze_cycles",
            r#"[{"size":1,"severity":"x","nodes":["a,b"]}]"#,
            Strategy::Layout,
        );
        assert_eq!(comma.strategy, Strategy::Generic);
    }

    #[test]
    fn report_says_why_it_fell_back() {
        let report = |tool: &str, text: &str, strict: bool| {
            let options = ToolOptions {
                strict,
                ..ToolOptions::default()
            };
            encode_tool_report(tool, &json::parse(text).unwrap(), &options)
        };
        let fits = report(
            "search_symbols",
            r#"{"results":[{"id":"a"}],"total":1}"#,
            false,
        )
        .unwrap();
        assert_eq!(
            (fits.strategy, fits.fallback_reason),
            (Strategy::Layout, None)
        );
        let cases = [
            (
                "search_symbols",
                r#"{"results":[{"id":"a"}],"took":1}"#,
                "response member \"took\" has no section, column or metadata key",
            ),
            (
                "search_symbols",
                r#"[{"id":"a","extra":1}]"#,
                "row 0 of section \"{tool}\" has member \"extra\" that no column reads",
            ),
            (
                "search_symbols",
                r#"{"results":{"id":"a"}}"#,
                "\"results\" is not an array",
            ),
            (
                "search_symbols",
                r#"{"results":[],"total":[1]}"#,
                "metadata \"total\" is not a scalar without spaces",
            ),
            (
                "analyze_cycles",
                r#"[{"size":1,"severity":"x","nodes":["a,b"]}]"#,
                "row 0 of section \"analyze.cycles\": column \"nodes\" needs an array of scalars without its separator",
            ),
            (
                "search_symbols",
                r#"[1]"#,
                "row 0 of section \"{tool}\" is not an object",
            ),
        ];
        for (tool, text, why) in cases {
            let out = report(tool, text, false).unwrap();
            assert_eq!(out.strategy, Strategy::Generic, "{text}");
            let reason = out.fallback_reason.unwrap();
            assert!(reason.starts_with(why), "{reason}");
            assert_eq!(
                out.payload,
                encode_tool(tool, &json::parse(text).unwrap(), &ToolOptions::default()).unwrap()
            );
            let err = report(tool, text, true).unwrap_err();
            assert_eq!(
                (err.code(), err.message()),
                ("GCX_LAYOUT_MISMATCH", reason.as_str())
            );
        }
        let none = report("no_such_tool", "{}", false).unwrap();
        assert_eq!(
            none.fallback_reason.as_deref(),
            Some("no layout is registered for \"no_such_tool\"")
        );
        let generic = encode_tool_report(
            "search_symbols",
            &json::parse("{}").unwrap(),
            &ToolOptions {
                strategy: Strategy::Generic,
                strict: true,
                ..ToolOptions::default()
            },
        )
        .unwrap();
        assert_eq!(
            (generic.strategy, generic.fallback_reason),
            (Strategy::Generic, None)
        );
    }

    #[test]
    fn round_trip_check_finds_losses() {
        let blank = encode("t", r#"["a", null]"#, Strategy::Generic);
        assert!(
            blank
                .round_trip
                .unwrap()
                .unwrap_err()
                .contains("rows written")
        );
        let dropped = encode(
            "smart_context",
            r#"{"task":"x y","symbols":[{"id":"a"}],"total":1}"#,
            Strategy::Bench,
        );
        assert_eq!(
            dropped.round_trip,
            Some(Err("input value at $.task is not in the output".into()))
        );
    }
}
