//! Per-tool field layouts: data describing how a tool's JSON response maps onto GCX1 sections.
//!
//! The built-in registry holds the layouts of the GCX1 spec (search_symbols,
//! get_symbol_source, batch_symbols, find_usages, get_file_summary, the `.nodes`/`.edges`
//! tools, get_editing_context, smart_context, analyze.*, contracts.*), with the source-key
//! aliases gortex responses use (`file_path` for `path`, `start_line` for `line`, …). Users add
//! or replace layouts with [`Layouts::register`].

use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

/// One column: its name and the response keys it reads (first present wins).
#[derive(Clone, Debug, PartialEq, Eq)]
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
#[derive(Clone, Debug, PartialEq, Eq)]
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
#[derive(Clone, Debug, PartialEq, Eq)]
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
#[derive(Clone, Debug, PartialEq, Eq)]
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
    pub fn builtin() -> Layouts {
        Layouts {
            builtin: true,
            custom: Vec::new(),
        }
    }

    /// No layouts at all (only what you register).
    pub fn empty() -> Layouts {
        Layouts {
            builtin: false,
            custom: Vec::new(),
        }
    }

    /// Adds a layout, replacing any registered under the same name.
    pub fn register(&mut self, layout: ToolLayout) {
        self.custom.retain(|l| l.tool != layout.tool);
        self.custom.push(layout);
    }

    /// The layout for `tool` (by name or alias): registered ones first, then built-in.
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

// ---- the built-in table ----------------------------------------------------------------------

fn field(name: &str) -> FieldLayout {
    FieldLayout {
        name: name.into(),
        from: vec![name.into()],
        join: None,
        optional: false,
    }
}

fn aliased(name: &str, from: &[&str]) -> FieldLayout {
    FieldLayout {
        from: from.iter().map(|s| (*s).into()).collect(),
        ..field(name)
    }
}

fn joined(name: &str) -> FieldLayout {
    FieldLayout {
        join: Some(",".into()),
        ..field(name)
    }
}

/// Fields by spec name, with gortex's response-key aliases.
fn fields(names: &[&str]) -> Vec<FieldLayout> {
    names
        .iter()
        .map(|&name| match name {
            "path" => aliased("path", &["path", "file_path"]),
            "line" => aliased("line", &["line", "start_line"]),
            "sig" => aliased("sig", &["sig", "signature"]),
            "edge_kind" => aliased("edge_kind", &["edge_kind", "kind"]),
            "cross_cut" => aliased("cross_cut", &["cross_cut", "cross_community"]),
            "source?" => FieldLayout {
                optional: true,
                ..field("source")
            },
            _ => field(name),
        })
        .collect()
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_string()).collect()
}

fn array(
    name: &str,
    keys: &[&str],
    root: bool,
    columns: Vec<FieldLayout>,
    meta: &[&str],
) -> SectionLayout {
    SectionLayout {
        name: name.into(),
        rows: RowsLayout::Array {
            keys: strings(keys),
            root,
        },
        fields: columns,
        meta: strings(meta),
    }
}

fn object(
    name: &str,
    key: Option<&str>,
    columns: Vec<FieldLayout>,
    meta: &[&str],
) -> SectionLayout {
    SectionLayout {
        name: name.into(),
        rows: RowsLayout::Object {
            key: key.map(Into::into),
        },
        fields: columns,
        meta: strings(meta),
    }
}

fn tool(name: &str, aliases: &[&str], sections: Vec<SectionLayout>) -> ToolLayout {
    ToolLayout {
        tool: name.into(),
        aliases: strings(aliases),
        sections,
    }
}

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

/// Every built-in layout, in the spec's order.
pub fn builtin_layouts() -> Vec<ToolLayout> {
    BUILTIN_TOOLS
        .iter()
        .filter_map(|name| builtin_layout(name))
        .collect()
}

/// The built-in layout selected by `tool_name` (its name or an alias). Built on demand:
/// encoding a response builds only its own tool's layout.
pub fn builtin_layout(tool_name: &str) -> Option<ToolLayout> {
    let graph_nodes = || fields(&["id", "kind", "name", "path", "line"]);
    let graph_edges = || fields(&["from", "to", "kind", "origin", "confidence", "label"]);
    let graph_tool = |name: &str| {
        tool(
            name,
            &[],
            vec![
                array(
                    "{tool}.nodes",
                    &["nodes"],
                    true,
                    graph_nodes(),
                    &["total", "total_nodes", "truncated"],
                ),
                array(
                    "{tool}.edges",
                    &["edges"],
                    false,
                    graph_edges(),
                    &["total_edges"],
                ),
            ],
        )
    };
    Some(match tool_name {
        "search_symbols" => tool(
            "search_symbols",
            &[],
            vec![array(
                "{tool}",
                &["results", "symbols"],
                true,
                fields(&["id", "kind", "name", "path", "line", "sig"]),
                &["total", "truncated"],
            )],
        ),
        "get_symbol_source" => tool(
            "get_symbol_source",
            &[],
            vec![object(
                "{tool}",
                None,
                fields(&[
                    "id",
                    "kind",
                    "name",
                    "path",
                    "start_line",
                    "end_line",
                    "from_line",
                    "sig",
                    "etag",
                    "source",
                ]),
                &[],
            )],
        ),
        "batch_symbols" => tool(
            "batch_symbols",
            &[],
            vec![array(
                "{tool}",
                &["symbols", "results"],
                true,
                fields(&[
                    "id",
                    "kind",
                    "name",
                    "path",
                    "start_line",
                    "end_line",
                    "sig",
                    "source?",
                    "error",
                ]),
                &["total", "count", "etag"],
            )],
        ),
        "find_usages" => tool(
            "find_usages",
            &[],
            vec![array(
                "{tool}",
                &["edges", "usages", "results"],
                true,
                fields(&[
                    "from",
                    "to",
                    "edge_kind",
                    "origin",
                    "confidence",
                    "from_name",
                    "from_path",
                    "from_line",
                ]),
                &["total", "total_edges", "truncated"],
            )],
        ),
        "get_file_summary" => tool(
            "get_file_summary",
            &[],
            vec![array(
                "{tool}",
                &["symbols", "nodes", "results"],
                true,
                fields(&["id", "kind", "name", "line", "sig"]),
                &["total_nodes", "total_edges", "truncated", "etag"],
            )],
        ),
        "get_callers" => graph_tool("get_callers"),
        "get_call_chain" => graph_tool("get_call_chain"),
        "get_dependencies" => graph_tool("get_dependencies"),
        "get_dependents" => graph_tool("get_dependents"),
        "find_implementations" => graph_tool("find_implementations"),
        "get_editing_context" => tool(
            "get_editing_context",
            &[],
            vec![
                object(
                    "{tool}.target",
                    Some("target"),
                    fields(&[
                        "id",
                        "kind",
                        "name",
                        "path",
                        "start_line",
                        "end_line",
                        "sig",
                        "etag",
                    ]),
                    &[],
                ),
                array("{tool}.callers", &["callers"], false, graph_nodes(), &[]),
                array(
                    "{tool}.dependencies",
                    &["dependencies"],
                    false,
                    graph_nodes(),
                    &[],
                ),
                array("{tool}.tests", &["tests"], false, fields(&["path"]), &[]),
            ],
        ),
        "smart_context" => tool(
            "smart_context",
            &[],
            vec![
                object("{tool}.task", None, fields(&["task"]), &[]),
                array(
                    "{tool}.symbols",
                    &["symbols"],
                    true,
                    fields(&["id", "kind", "name", "path", "line", "score", "reason"]),
                    &["total"],
                ),
            ],
        ),
        "analyze.dead_code" | "analyze_dead_code" => tool(
            "analyze.dead_code",
            &["analyze_dead_code"],
            vec![array(
                "analyze.dead_code",
                &["results", "dead_code"],
                true,
                fields(&["id", "kind", "name", "path", "line", "reason"]),
                &["total", "count"],
            )],
        ),
        "analyze.hotspots" | "analyze_hotspots" => tool(
            "analyze.hotspots",
            &["analyze_hotspots"],
            vec![array(
                "analyze.hotspots",
                &["results", "hotspots"],
                true,
                fields(&[
                    "id",
                    "name",
                    "path",
                    "line",
                    "fan_in",
                    "fan_out",
                    "cross_cut",
                    "score",
                ]),
                &["total", "count"],
            )],
        ),
        "analyze.cycles" | "analyze_cycles" => tool(
            "analyze.cycles",
            &["analyze_cycles"],
            vec![array(
                "analyze.cycles",
                &["results", "cycles"],
                true,
                vec![field("size"), field("severity"), joined("nodes")],
                &["total", "count"],
            )],
        ),
        "contracts.list" | "contracts" | "contracts_list" => tool(
            "contracts.list",
            &["contracts", "contracts_list"],
            vec![array(
                "contracts.list",
                &["contracts", "results"],
                true,
                vec![
                    field("id"),
                    field("type"),
                    field("method"),
                    field("path"),
                    field("service"),
                    joined("providers"),
                    joined("consumers"),
                ],
                &["total"],
            )],
        ),
        "contracts.orphans" | "contracts_orphans" => tool(
            "contracts.orphans",
            &["contracts_orphans"],
            vec![array(
                "contracts.orphans",
                &["orphans", "results"],
                true,
                fields(&["contract_id", "side", "repo", "symbol"]),
                &["total"],
            )],
        ),
        _ => return None,
    })
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
