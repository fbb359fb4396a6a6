//! Encoding a tool response: by its registered layout, by the generic fallback, or by the
//! upstream benchmark's wrapper-recognising encoder.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use super::encode::{EncodeOptions, Encoder};
use super::header::Header;
use super::layout::{Layouts, RowsLayout, SectionLayout, ToolLayout};
use super::plan::{self, array_rows, meta_of, meta_text, SectionPlan};
use crate::json::{self, Map, Value};
use crate::{Error, ErrorKind, Result};

/// How [`encode_tool`] maps a response onto sections.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Layout => "layout",
            Strategy::Generic => "generic",
            Strategy::Bench => "bench",
        }
    }

    /// Reads a strategy name.
    pub fn parse(name: &str) -> Result<Strategy> {
        match name {
            "layout" => Ok(Strategy::Layout),
            "generic" => Ok(Strategy::Generic),
            "bench" => Ok(Strategy::Bench),
            _ => Err(Error::new(
                ErrorKind::InvalidArgument,
                alloc::format!("unknown strategy {name:?} (expected layout, generic or bench)"),
            )),
        }
    }
}

/// Options of [`encode_tool`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolOptions {
    /// How to map the response.
    pub strategy: Strategy,
    /// The layouts [`Strategy::Layout`] uses (the built-in ones by default).
    pub layouts: Layouts,
    /// Encoder options (`lossless`, `literal_numbers`).
    pub encode: EncodeOptions,
}

/// Encodes a tool response. With the default [`Strategy::Layout`], a response that fits the
/// tool's layout becomes its sections; anything else takes the generic fallback, so every
/// response gives valid GCX1.
pub fn encode_tool(tool: &str, response: &Value, options: &ToolOptions) -> Result<String> {
    Ok(encode_tool_checked(tool, response, options, false)?.payload)
}

/// [`encode_tool`] for JSON text (numbers typed, or literal with `literal_numbers`).
pub fn encode_tool_json(tool: &str, response_json: &str, options: &ToolOptions) -> Result<String> {
    encode_tool(
        tool,
        &parse_response(response_json, &options.encode)?,
        options,
    )
}

pub(crate) fn parse_response(response_json: &str, options: &EncodeOptions) -> Result<Value> {
    json::parse_with(response_json, &options.parse_options())
}

/// What [`encode_tool_checked`] produced.
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
pub fn encode_tool_checked(
    tool: &str,
    response: &Value,
    options: &ToolOptions,
    check: bool,
) -> Result<ToolOutput> {
    plan::check_finite(response)?;
    let (plans, strategy) = match options.strategy {
        Strategy::Generic => (plan_generic(tool, response), Strategy::Generic),
        Strategy::Bench => (plan_bench(tool, response), Strategy::Bench),
        Strategy::Layout => match options
            .layouts
            .get(tool)
            .and_then(|l| plan_layout(tool, &l, response))
        {
            Some(plans) => (plans, Strategy::Layout),
            None => (plan_generic(tool, response), Strategy::Generic),
        },
    };
    let mut encoder = Encoder::new(String::new(), options.encode.clone());
    plan::write_plans(&mut encoder, &plans)?;
    let payload = encoder.finish()?;
    let round_trip = check.then(|| plan::verify(response, &plans, &payload));
    Ok(ToolOutput {
        payload,
        strategy,
        round_trip,
    })
}

/// The generic fallback's single section.
pub(crate) fn plan_generic<'v>(tool: &str, value: &'v Value) -> Vec<SectionPlan<'v>> {
    let section = match value {
        Value::Object(map) => {
            let members = map.sorted();
            let mut section = SectionPlan::new(Header::new(tool, members.iter().map(|(k, _)| *k)));
            section
                .rows
                .push(members.iter().map(|(_, v)| Some(*v)).collect());
            section
        }
        Value::Array(items) => array_section(tool, items, &[]),
        scalar => {
            let mut section = SectionPlan::new(Header::new(tool, ["value"]));
            section.rows.push(alloc::vec![Some(scalar)]);
            section
        }
    };
    alloc::vec![section]
}

/// An array as the generic fallback writes it, with `rows=N` and extra metadata.
fn array_section<'v>(
    tool: &str,
    items: &'v [Value],
    extra_meta: &[(&str, &'v Value)],
) -> SectionPlan<'v> {
    let (fields, rows) = array_rows(items);
    let (mut meta, meta_sources) = meta_of(extra_meta);
    let mut rows_text = String::new();
    crate::num::write_u64(&mut rows_text, items.len() as u64);
    meta.insert("rows".into(), rows_text);
    let mut section = SectionPlan::new(Header {
        tool: tool.into(),
        fields: fields.into_iter().map(String::from).collect(),
        meta,
    });
    section.rows = rows;
    section.meta_sources = meta_sources;
    section
}

/// The upstream benchmark harness's encoder (gcx1.md §8.1).
pub(crate) fn plan_bench<'v>(tool: &str, value: &'v Value) -> Vec<SectionPlan<'v>> {
    let Value::Object(map) = value else {
        return plan_generic(tool, value);
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
            return alloc::vec![array_section(tool, items, &scalars)];
        }
    }
    if let (Some(nodes), Some(edges)) = (array("nodes"), array("edges")) {
        return alloc::vec![
            array_section(&alloc::format!("{tool}.nodes"), nodes, &scalars),
            array_section(&alloc::format!("{tool}.edges"), edges, &[]),
        ];
    }
    for key in ["edges", "implementations"] {
        if let Some(items) = array(key) {
            return alloc::vec![array_section(tool, items, &scalars)];
        }
    }
    if map.len() >= 2 && map.iter().all(|(_, v)| v.as_array().is_some()) {
        return map
            .sorted()
            .into_iter()
            .filter_map(|(key, v)| {
                v.as_array()
                    .map(|items| array_section(&alloc::format!("{tool}.{key}"), items, &[]))
            })
            .collect();
    }
    plan_generic(tool, value)
}

/// Maps `value` onto `layout`; `None` when any value would have no place in the output.
pub(crate) fn plan_layout<'v>(
    tool: &str,
    layout: &ToolLayout,
    value: &'v Value,
) -> Option<Vec<SectionPlan<'v>>> {
    let wrapper = value.as_object();
    let mut consumed: BTreeSet<&str> = BTreeSet::new();
    let mut root_taken = false;
    let mut plans = Vec::new();
    for section in &layout.sections {
        let rows: Vec<&'v Value> = match &section.rows {
            RowsLayout::Array { keys, root } => match value {
                Value::Array(items) if *root && !root_taken => {
                    root_taken = true;
                    items.iter().collect()
                }
                Value::Object(map) => match keys.iter().find(|k| map.get(k).is_some()) {
                    Some(key) => {
                        consumed.insert(key);
                        map.get(key)?.as_array()?.iter().collect()
                    }
                    None => continue,
                },
                _ => continue,
            },
            RowsLayout::Object { key: None } => match value {
                Value::Object(_) => alloc::vec![value],
                _ => continue,
            },
            RowsLayout::Object { key: Some(key) } => match wrapper.and_then(|m| m.get(key)) {
                Some(object @ Value::Object(_)) => {
                    consumed.insert(key);
                    alloc::vec![object]
                }
                Some(_) => return None,
                None => continue,
            },
        };
        let whole_object_row = matches!(section.rows, RowsLayout::Object { key: None });
        let mut plan = section_plan(tool, section, &rows, whole_object_row, &mut consumed)?;
        if let Some(map) = wrapper {
            let (meta, sources) = layout_meta(section, map, &mut consumed)?;
            plan.header.meta = meta;
            plan.meta_sources = sources;
        }
        plans.push(plan);
    }
    if plans.is_empty() {
        return None;
    }
    // Every member of a wrapper object must have been placed.
    if let Some(map) = wrapper {
        if map.keys().any(|k| !consumed.contains(k)) {
            return None;
        }
    }
    Some(plans)
}

fn section_plan<'v, 'k>(
    tool: &str,
    section: &SectionLayout,
    rows: &[&'v Value],
    whole_object_row: bool,
    consumed: &mut BTreeSet<&'k str>,
) -> Option<SectionPlan<'v>>
where
    'v: 'k,
{
    let present = |name: &[String]| {
        rows.iter().any(|row| {
            row.as_object()
                .is_some_and(|m| name.iter().any(|k| m.get(k).is_some()))
        })
    };
    let columns: Vec<_> = section
        .fields
        .iter()
        .filter(|f| !f.optional || present(&f.from))
        .collect();
    let name = section.name.replace("{tool}", tool);
    let mut plan = SectionPlan::new(Header::new(name, columns.iter().map(|f| f.name.as_str())));
    plan.joins = columns.iter().map(|f| f.join.clone()).collect();
    for row in rows {
        let cells = match row {
            Value::Object(map) => {
                let mut used: Vec<&str> = Vec::new();
                let cells = columns
                    .iter()
                    .map(|f| {
                        let found = f
                            .from
                            .iter()
                            .find_map(|k| map.get(k).map(|v| (k.as_str(), v)));
                        if let Some((key, value)) = found {
                            used.push(key);
                            fits_column(value, f.join.as_deref()).then_some(Some(value))
                        } else {
                            Some(None)
                        }
                    })
                    .collect::<Option<Vec<_>>>()?;
                if whole_object_row {
                    // The response object itself: its other members belong to other sections.
                    for (key, _) in map.iter() {
                        if used.contains(&key) {
                            consumed.insert(key);
                        }
                    }
                } else if map.keys().any(|k| !used.contains(&k)) {
                    return None;
                }
                cells
            }
            scalar if columns.len() == 1 && !matches!(scalar, Value::Array(_)) => {
                alloc::vec![Some(*scalar)]
            }
            _ => return None,
        };
        plan.rows.push(cells);
    }
    Some(plan)
}

/// A value fits a column when a joined column gets an array of scalars free of the separator.
fn fits_column(value: &Value, join: Option<&str>) -> bool {
    let Some(separator) = join else {
        return true;
    };
    match value {
        Value::Array(items) => items.iter().all(|item| match item {
            Value::String(s) => !s.contains(separator),
            Value::Number(_) | Value::Bool(_) => true,
            _ => false,
        }),
        Value::Null => true,
        _ => false,
    }
}

/// The section's metadata from the wrapper; `None` when a value cannot be a header value.
fn layout_meta<'v, 'k>(
    section: &SectionLayout,
    map: &'v Map,
    consumed: &mut BTreeSet<&'k str>,
) -> Option<(alloc::collections::BTreeMap<String, String>, Vec<&'v Value>)>
where
    'v: 'k,
{
    let mut pairs: Vec<(&str, &Value)> = Vec::new();
    for (key, value) in map.iter() {
        if !section.meta.iter().any(|m| m == key) {
            continue;
        }
        consumed.insert(key);
        if let Value::Null = value {
            continue;
        }
        let text = meta_text(value)?;
        if text.contains([' ', '\t', '\n', '\r']) {
            return None;
        }
        pairs.push((key, value));
    }
    Some(meta_of(&pairs))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn round_trip_check_finds_losses() {
        let blank = encode("t", r#"["a", null]"#, Strategy::Generic);
        assert!(blank
            .round_trip
            .unwrap()
            .unwrap_err()
            .contains("rows written"));
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
