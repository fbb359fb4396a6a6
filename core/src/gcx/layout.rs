//! Per-tool field layouts: data describing how a tool's JSON response maps onto GCX1 sections.
//!
//! The built-in registry holds the layouts of the GCX1 spec (search_symbols,
//! get_symbol_source, batch_symbols, find_usages, get_file_summary, the `.nodes`/`.edges`
//! tools, get_editing_context, smart_context, analyze.*, contracts.*), with the source-key
//! aliases gortex responses use (`file_path` for `path`, `start_line` for `line`, …). Users add
//! or replace layouts with [`Layouts::register`].
//!
//! ```
//! use agentwire::gcx::Layouts;
//! let layouts = Layouts::builtin();
//! let search = layouts.get("search_symbols").expect("a built-in layout");
//! assert_eq!(search.tool, "search_symbols");
//! ```

use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::text::same_text;

/// One column: its name and the response keys it reads (first present wins).
///
/// ```
/// use agentwire::gcx::layout::builtin_layout;
/// use agentwire::gcx::{encode_tool, ToolOptions};
/// let search = builtin_layout("search_symbols").unwrap();
/// let path = search.sections[0].fields.iter().find(|f| f.name == "path").unwrap();
/// assert_eq!(path.from, ["path", "file_path"]); // the first key present wins
/// let response = agentwire::json::parse(r#"[{"id":"a","file_path":"a.go"}]"#)?;
/// let payload = encode_tool("search_symbols", &response, &ToolOptions::default())?;
/// assert_eq!(payload.lines().nth(1), Some("a\t\t\ta.go\t\t"));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FieldLayout {
    /// Column name in `fields=`.
    pub name: String,
    /// Row keys to read, in order of preference (default: the name itself).
    pub from: Vec<String>,
    /// Join an array of scalars with this separator (e.g. `","` for `nodes`). A value whose
    /// elements contain the separator does not fit.
    pub join: Option<String>,
    /// Emit the column only when some row has it (e.g. batch_symbols' `source`).
    pub optional: bool,
}

/// Where a section's rows come from.
///
/// ```
/// use agentwire::gcx::layout::{builtin_layout, RowsLayout};
/// let source = builtin_layout("get_symbol_source").unwrap();
/// assert_eq!(source.sections[0].rows, RowsLayout::Object { key: None }); // one row: the response
/// let callers = builtin_layout("get_callers").unwrap();
/// let edges = RowsLayout::Array { keys: vec!["edges".into()], root: false };
/// assert_eq!(callers.sections[1].rows, edges);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RowsLayout {
    /// An array: the response itself when it is an array (if `root`), else the first of
    /// `keys` in the response object holding an array.
    Array {
        /// Wrapper keys to look for.
        keys: Vec<String>,
        /// Whether a top-level array response is this section's rows.
        root: bool,
    },
    /// A single row: the response object itself (`key` = None) or the object at `key`.
    Object {
        /// Wrapper key of the object, or None for the response itself.
        key: Option<String>,
    },
}

/// One section of a tool's output.
///
/// ```
/// use agentwire::gcx::{encode_tool, ToolOptions};
/// // get_callers has two sections, `{tool}.nodes` and `{tool}.edges` (meta `total_edges`).
/// let response = r#"{"nodes":[{"id":"a"}],"edges":[{"from":"b","to":"a"}],"total_edges":1}"#;
/// let response = agentwire::json::parse(response)?;
/// let payload = encode_tool("get_callers", &response, &ToolOptions::default())?;
/// let headers: Vec<&str> = payload.lines().filter(|l| l.starts_with("GCX1")).collect();
/// assert_eq!(headers[0], "GCX1 tool=get_callers.nodes fields=id,kind,name,path,line");
/// let fields = "from,to,kind,origin,confidence,label";
/// assert_eq!(headers[1], format!("GCX1 tool=get_callers.edges fields={fields} total_edges=1"));
/// # Ok::<(), agentwire::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SectionLayout {
    /// Section tool name; `{tool}` stands for the requested tool (e.g. `{tool}.nodes`).
    pub name: String,
    /// Where the rows come from.
    pub rows: RowsLayout,
    /// The columns.
    pub fields: Vec<FieldLayout>,
    /// Response keys (scalars) written as header metadata under the same name.
    pub meta: Vec<String>,
}

/// A tool's layout: its sections, in output order.
///
/// ```
/// use agentwire::gcx::Layouts;
/// let layout =
///     Layouts::builtin().get("analyze_hotspots").expect("an alias of a built-in layout");
/// assert_eq!(layout.tool, "analyze.hotspots");
/// assert!(layout.aliases.iter().any(|a| a == "analyze_hotspots"));
/// assert_eq!(layout.sections[0].name, "analyze.hotspots");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ToolLayout {
    /// The tool name the layout is registered under.
    pub tool: String,
    /// Other names that select it (e.g. `analyze_hotspots` for `analyze.hotspots`).
    pub aliases: Vec<String>,
    /// Sections in output order; a section whose rows are absent from a response is skipped.
    pub sections: Vec<SectionLayout>,
}

/// A registry of tool layouts: the built-in ones (optional) plus registered ones, which take
/// precedence.
///
/// ```
/// use agentwire::gcx::Layouts;
/// let mut layouts = Layouts::builtin();
/// let mut search = layouts.get("search_symbols").unwrap();
/// search.aliases.push("find".into());
/// layouts.register(search);
/// assert_eq!(layouts.get("find").unwrap().tool, "search_symbols");
/// assert_eq!(layouts.all().len(), Layouts::builtin().all().len()); // replaced, not added
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layouts {
    builtin: bool,
    custom: Vec<ToolLayout>,
}

impl Default for Layouts {
    fn default() -> Layouts {
        Layouts::builtin()
    }
}

impl Layouts {
    /// The spec's layouts.
    ///
    /// ```
    /// use agentwire::gcx::layout::BUILTIN_TOOLS;
    /// use agentwire::gcx::Layouts;
    /// let layouts = Layouts::builtin();
    /// assert!(BUILTIN_TOOLS.iter().all(|tool| layouts.get(tool).is_some()));
    /// assert_eq!(layouts, Layouts::default());
    /// ```
    pub fn builtin() -> Layouts {
        Layouts {
            builtin: true,
            custom: Vec::new(),
        }
    }

    /// No layouts at all (only what you register).
    ///
    /// ```
    /// use agentwire::gcx::{encode_tool, Layouts, ToolOptions};
    /// let layouts = Layouts::empty();
    /// assert!(layouts.get("search_symbols").is_none());
    /// // With no layout, every response takes the generic fallback.
    /// let options = ToolOptions { layouts, ..ToolOptions::default() };
    /// let response = agentwire::json::parse(r#"{"results":[{"id":"a"}]}"#)?;
    /// let payload = encode_tool("search_symbols", &response, &options)?;
    /// assert_eq!(payload, "GCX1 tool=search_symbols fields=results\n[{\"id\":\"a\"}]\n");
    /// # Ok::<(), agentwire::Error>(())
    /// ```
    pub fn empty() -> Layouts {
        Layouts {
            builtin: false,
            custom: Vec::new(),
        }
    }

    /// Adds a layout, replacing any registered under the same name.
    ///
    /// ```
    /// use agentwire::gcx::layout::{FieldLayout, RowsLayout, SectionLayout, ToolLayout};
    /// use agentwire::gcx::Layouts;
    /// let mut layouts = Layouts::empty();
    /// layouts.register(ToolLayout {
    ///     tool: "ping".into(),
    ///     aliases: vec!["health".into()],
    ///     sections: vec![SectionLayout {
    ///         name: "{tool}".into(),
    ///         rows: RowsLayout::Object { key: None },
    ///         fields: vec![FieldLayout {
    ///             name: "ok".into(),
    ///             from: vec!["ok".into()],
    ///             join: None,
    ///             optional: false,
    ///         }],
    ///         meta: vec![],
    ///     }],
    /// });
    /// assert_eq!(layouts.get("health").unwrap().tool, "ping");
    /// ```
    pub fn register(&mut self, layout: ToolLayout) {
        self.custom.retain(|l| l.tool != layout.tool);
        self.custom.push(layout);
    }

    /// The layout for `tool` (by name or alias): registered ones first, then built-in.
    ///
    /// ```
    /// use agentwire::gcx::Layouts;
    /// let layouts = Layouts::builtin();
    /// let callers = layouts.get("get_callers").unwrap();
    /// assert_eq!(callers.sections[0].name, "{tool}.nodes");
    /// assert!(layouts.get("no_such_tool").is_none());
    /// ```
    pub fn get(&self, tool: &str) -> Option<ToolLayout> {
        let selects = |l: &ToolLayout| l.tool == tool || l.aliases.iter().any(|a| a == tool);
        if let Some(layout) = self.custom.iter().rev().find(|l| selects(l)) {
            return Some(layout.clone());
        }
        if self.builtin {
            return builtin_layout(tool);
        }
        None
    }

    /// Every layout this registry can apply (registered ones replace built-in ones).
    ///
    /// ```
    /// use agentwire::gcx::layout::BUILTIN_TOOLS;
    /// use agentwire::gcx::Layouts;
    /// let names: Vec<String> = Layouts::builtin().all().into_iter().map(|l| l.tool).collect();
    /// assert_eq!(names, BUILTIN_TOOLS);
    /// assert!(Layouts::empty().all().is_empty());
    /// ```
    pub fn all(&self) -> Vec<ToolLayout> {
        let mut all: Vec<ToolLayout> = if self.builtin {
            builtin_layouts()
        } else {
            Vec::new()
        };
        all.retain(|b| !self.custom.iter().any(|c| c.tool == b.tool));
        all.extend(self.custom.iter().cloned());
        all
    }
}

// ---- borrowed layouts -----------------------------------------------------------------------

/// A [`FieldLayout`] without owned text: what the planner reads. The built-in table is made
/// of these (static, nothing built per call); a registered layout is borrowed into one.
#[derive(Clone, Debug)]
pub(crate) struct FieldRef<'a> {
    pub name: &'a str,
    pub from: Cow<'a, [&'a str]>,
    pub join: Option<&'a str>,
    pub optional: bool,
}

/// A borrowed [`RowsLayout`].
#[derive(Clone, Debug)]
pub(crate) enum RowsRef<'a> {
    Array {
        keys: Cow<'a, [&'a str]>,
        root: bool,
    },
    Object {
        key: Option<&'a str>,
    },
}

/// A borrowed [`SectionLayout`].
#[derive(Clone, Debug)]
pub(crate) struct SectionRef<'a> {
    pub name: &'a str,
    pub rows: RowsRef<'a>,
    pub fields: Cow<'a, [FieldRef<'a>]>,
    pub meta: Cow<'a, [&'a str]>,
}

/// A borrowed [`ToolLayout`].
#[derive(Clone, Debug)]
pub(crate) struct ToolRef<'a> {
    pub tool: &'a str,
    pub aliases: Cow<'a, [&'a str]>,
    pub sections: Cow<'a, [SectionRef<'a>]>,
}

fn strs(items: &[String]) -> Cow<'_, [&str]> {
    Cow::Owned(items.iter().map(String::as_str).collect())
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_string()).collect()
}

impl ToolLayout {
    /// The layout borrowed for the planner.
    #[inline(never)]
    pub(crate) fn borrowed(&self) -> ToolRef<'_> {
        ToolRef {
            tool: &self.tool,
            aliases: strs(&self.aliases),
            sections: self
                .sections
                .iter()
                .map(|s| SectionRef {
                    name: &s.name,
                    rows: match &s.rows {
                        RowsLayout::Array { keys, root } => RowsRef::Array {
                            keys: strs(keys),
                            root: *root,
                        },
                        RowsLayout::Object { key } => RowsRef::Object {
                            key: key.as_deref(),
                        },
                    },
                    fields: s
                        .fields
                        .iter()
                        .map(|f| FieldRef {
                            name: &f.name,
                            from: strs(&f.from),
                            join: f.join.as_deref(),
                            optional: f.optional,
                        })
                        .collect(),
                    meta: strs(&s.meta),
                })
                .collect(),
        }
    }
}

impl ToolRef<'_> {
    fn selected_by(&self, name: &str) -> bool {
        same_text(self.tool, name) || self.aliases.iter().any(|a| same_text(a, name))
    }

    /// The owned layout.
    fn to_layout(&self) -> ToolLayout {
        ToolLayout {
            tool: self.tool.into(),
            aliases: strings(&self.aliases),
            sections: self
                .sections
                .iter()
                .map(|s| SectionLayout {
                    name: s.name.into(),
                    rows: match &s.rows {
                        RowsRef::Array { keys, root } => RowsLayout::Array {
                            keys: strings(keys),
                            root: *root,
                        },
                        RowsRef::Object { key } => RowsLayout::Object {
                            key: key.map(Into::into),
                        },
                    },
                    fields: s
                        .fields
                        .iter()
                        .map(|f| FieldLayout {
                            name: f.name.into(),
                            from: strings(&f.from),
                            join: f.join.map(Into::into),
                            optional: f.optional,
                        })
                        .collect(),
                    meta: strings(&s.meta),
                })
                .collect(),
        }
    }
}

/// A layout found by [`Layouts::resolve`]: registered (borrowed into a [`ToolRef`], a few
/// small vectors) or built in (static).
pub(crate) enum Resolved<'a> {
    Registered(ToolRef<'a>),
    Builtin(&'static ToolRef<'static>),
}

impl Layouts {
    /// The layout for `tool`, as [`get`](Self::get) finds it, without copying it.
    pub(crate) fn resolve(&self, tool: &str) -> Option<Resolved<'_>> {
        let selects = |l: &ToolLayout| l.tool == tool || l.aliases.iter().any(|a| a == tool);
        if let Some(layout) = self.custom.iter().rev().find(|l| selects(l)) {
            return Some(Resolved::Registered(layout.borrowed()));
        }
        if self.builtin {
            return builtin_ref(tool).map(Resolved::Builtin);
        }
        None
    }
}

// ---- the built-in table ----------------------------------------------------------------------

/// One built-in column: by spec name, with gortex's response-key aliases (`path` also reads
/// `file_path`, …), `"source?"` optional, `(plain "x")` without aliases, `(joined "x")` joined with `,`.
macro_rules! column {
    (aliased $name:tt, $($from:tt),+) => {
        FieldRef { name: $name, from: Cow::Borrowed(&[$($from),+]), join: None, optional: false }
    };
    ("path") => { column!(aliased "path", "path", "file_path") };
    ("line") => { column!(aliased "line", "line", "start_line") };
    ("sig") => { column!(aliased "sig", "sig", "signature") };
    ("edge_kind") => { column!(aliased "edge_kind", "edge_kind", "kind") };
    ("cross_cut") => { column!(aliased "cross_cut", "cross_cut", "cross_community") };
    ("source?") => {
        FieldRef { name: "source", from: Cow::Borrowed(&["source"]), join: None, optional: true }
    };
    ((plain $name:tt)) => {
        FieldRef { name: $name, from: Cow::Borrowed(&[$name]), join: None, optional: false }
    };
    ((joined $name:tt)) => {
        FieldRef { name: $name, from: Cow::Borrowed(&[$name]), join: Some(","), optional: false }
    };
    ($name:tt) => { column!(aliased $name, $name) };
}

/// A list of built-in columns.
macro_rules! columns {
    ($($column:tt),* $(,)?) => {
        Cow::Borrowed(&[$(column!($column)),*])
    };
}

// The table is written with struct literals only (macros, not `const fn` calls), so that every
// nested `&[…]` is promoted to a static.

/// Rows from an array: the first present wrapper key of `keys`, or the response itself when
/// it is an array and `root` is set.
macro_rules! array {
    ($name:expr_2021, $keys:expr_2021, $root:expr_2021, $fields:expr_2021, $meta:expr_2021 $(,)?) => {
        SectionRef {
            name: $name,
            rows: RowsRef::Array {
                keys: Cow::Borrowed($keys),
                root: $root,
            },
            fields: $fields,
            meta: Cow::Borrowed($meta),
        }
    };
}

/// One row: the object at wrapper key `key`, or the response object itself.
macro_rules! object {
    ($name:expr_2021, $key:expr_2021, $fields:expr_2021 $(,)?) => {
        SectionRef {
            name: $name,
            rows: RowsRef::Object { key: $key },
            fields: $fields,
            meta: Cow::Borrowed(&[]),
        }
    };
}

macro_rules! tool {
    ($name:expr_2021, $aliases:expr_2021, $sections:expr_2021 $(,)?) => {
        ToolRef {
            tool: $name,
            aliases: Cow::Borrowed($aliases),
            sections: Cow::Borrowed($sections),
        }
    };
}

/// The `.nodes` / `.edges` sections of the graph tools.
const GRAPH_SECTIONS: &[SectionRef<'static>] = &[
    array!(
        "{tool}.nodes",
        &["nodes"],
        true,
        columns!["id", "kind", "name", "path", "line"],
        &["total", "total_nodes", "truncated"],
    ),
    array!(
        "{tool}.edges",
        &["edges"],
        false,
        columns!["from", "to", "kind", "origin", "confidence", "label"],
        &["total_edges"],
    ),
];

/// The spec's layouts, in [`BUILTIN_TOOLS`] order (built at compile time: a `const`, which
/// may hold the `Cow`s; the `static` below is the one copy encoders borrow).
const BUILTIN_TABLE: [ToolRef<'static>; 17] = [
    tool!(
        "search_symbols",
        &[],
        &[array!(
            "{tool}",
            &["results", "symbols"],
            true,
            columns!["id", "kind", "name", "path", "line", "sig"],
            &["total", "truncated"],
        )],
    ),
    tool!(
        "get_symbol_source",
        &[],
        &[object!(
            "{tool}",
            None,
            columns![
                "id",
                "kind",
                "name",
                "path",
                "start_line",
                "end_line",
                "from_line",
                "sig",
                "etag",
                "source"
            ],
        )],
    ),
    tool!(
        "batch_symbols",
        &[],
        &[array!(
            "{tool}",
            &["symbols", "results"],
            true,
            columns![
                "id",
                "kind",
                "name",
                "path",
                "start_line",
                "end_line",
                "sig",
                "source?",
                "error"
            ],
            &["total", "count", "etag"],
        )],
    ),
    tool!(
        "find_usages",
        &[],
        &[array!(
            "{tool}",
            &["edges", "usages", "results"],
            true,
            columns![
                "from",
                "to",
                "edge_kind",
                "origin",
                "confidence",
                "from_name",
                "from_path",
                "from_line"
            ],
            &["total", "total_edges", "truncated"],
        )],
    ),
    tool!(
        "get_file_summary",
        &[],
        &[array!(
            "{tool}",
            &["symbols", "nodes", "results"],
            true,
            columns!["id", "kind", "name", "line", "sig"],
            &["total_nodes", "total_edges", "truncated", "etag"],
        )],
    ),
    tool!("get_callers", &[], GRAPH_SECTIONS),
    tool!("get_call_chain", &[], GRAPH_SECTIONS),
    tool!("get_dependencies", &[], GRAPH_SECTIONS),
    tool!("get_dependents", &[], GRAPH_SECTIONS),
    tool!("find_implementations", &[], GRAPH_SECTIONS),
    tool!(
        "get_editing_context",
        &[],
        &[
            object!(
                "{tool}.target",
                Some("target"),
                columns![
                    "id",
                    "kind",
                    "name",
                    "path",
                    "start_line",
                    "end_line",
                    "sig",
                    "etag"
                ],
            ),
            array!(
                "{tool}.callers",
                &["callers"],
                false,
                columns!["id", "kind", "name", "path", "line"],
                &[],
            ),
            array!(
                "{tool}.dependencies",
                &["dependencies"],
                false,
                columns!["id", "kind", "name", "path", "line"],
                &[],
            ),
            array!("{tool}.tests", &["tests"], false, columns!["path"], &[]),
        ],
    ),
    tool!(
        "smart_context",
        &[],
        &[
            object!("{tool}.task", None, columns!["task"]),
            array!(
                "{tool}.symbols",
                &["symbols"],
                true,
                columns!["id", "kind", "name", "path", "line", "score", "reason"],
                &["total"],
            ),
        ],
    ),
    tool!(
        "analyze.dead_code",
        &["analyze_dead_code"],
        &[array!(
            "analyze.dead_code",
            &["results", "dead_code"],
            true,
            columns!["id", "kind", "name", "path", "line", "reason"],
            &["total", "count"],
        )],
    ),
    tool!(
        "analyze.hotspots",
        &["analyze_hotspots"],
        &[array!(
            "analyze.hotspots",
            &["results", "hotspots"],
            true,
            columns![
                "id",
                "name",
                "path",
                "line",
                "fan_in",
                "fan_out",
                "cross_cut",
                "score"
            ],
            &["total", "count"],
        )],
    ),
    tool!(
        "analyze.cycles",
        &["analyze_cycles"],
        &[array!(
            "analyze.cycles",
            &["results", "cycles"],
            true,
            columns!["size", "severity", (joined "nodes")],
            &["total", "count"],
        )],
    ),
    tool!(
        "contracts.list",
        &["contracts", "contracts_list"],
        &[array!(
            "contracts.list",
            &["contracts", "results"],
            true,
            columns![
                "id",
                "type",
                "method",
                (plain "path"),
                "service",
                (joined "providers"),
                (joined "consumers")
            ],
            &["total"],
        )],
    ),
    tool!(
        "contracts.orphans",
        &["contracts_orphans"],
        &[array!(
            "contracts.orphans",
            &["orphans", "results"],
            true,
            columns!["contract_id", "side", "repo", "symbol"],
            &["total"],
        )],
    ),
];

static BUILTIN: [ToolRef<'static>; 17] = BUILTIN_TABLE;

/// The names of the GCX1 spec's per-tool layouts ("Per-tool field layouts (GCX1 v1)"), in
/// the spec's order.
pub const BUILTIN_TOOLS: [&str; 17] = [
    "search_symbols",
    "get_symbol_source",
    "batch_symbols",
    "find_usages",
    "get_file_summary",
    "get_callers",
    "get_call_chain",
    "get_dependencies",
    "get_dependents",
    "find_implementations",
    "get_editing_context",
    "smart_context",
    "analyze.dead_code",
    "analyze.hotspots",
    "analyze.cycles",
    "contracts.list",
    "contracts.orphans",
];

/// The static built-in layout selected by `tool_name` (its name or an alias).
fn builtin_ref(tool_name: &str) -> Option<&'static ToolRef<'static>> {
    BUILTIN.iter().find(|l| l.selected_by(tool_name))
}

/// Every built-in layout, in the spec's order.
///
/// ```
/// use agentwire::gcx::layout::{builtin_layouts, BUILTIN_TOOLS};
/// let layouts = builtin_layouts();
/// assert_eq!(layouts.len(), BUILTIN_TOOLS.len());
/// assert_eq!(layouts[0].tool, "search_symbols");
/// ```
pub fn builtin_layouts() -> Vec<ToolLayout> {
    BUILTIN.iter().map(ToolRef::to_layout).collect()
}

/// The built-in layout selected by `tool_name` (its name or an alias), as an owned copy of the
/// static table (encoding reads the table in place).
///
/// ```
/// use agentwire::gcx::layout::builtin_layout;
/// let search = builtin_layout("search_symbols").unwrap();
/// let columns: Vec<&str> =
///     search.sections[0].fields.iter().map(|f| f.name.as_str()).collect();
/// assert_eq!(columns, ["id", "kind", "name", "path", "line", "sig"]);
/// assert!(builtin_layout("nope").is_none());
/// ```
pub fn builtin_layout(tool_name: &str) -> Option<ToolLayout> {
    builtin_ref(tool_name).map(ToolRef::to_layout)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_name_and_alias_selects_its_layout() {
        let all = builtin_layouts();
        assert_eq!(all.len(), BUILTIN_TOOLS.len());
        for layout in &all {
            for name in core::iter::once(&layout.tool).chain(&layout.aliases) {
                assert_eq!(builtin_layout(name).as_ref(), Some(layout), "{name}");
            }
        }
        assert_eq!(builtin_layout("no_such_tool"), None);
    }
}
