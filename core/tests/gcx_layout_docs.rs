//! docs/gcx1-layouts.md is generated from the built-in layout table, so it cannot drift: this
//! test renders it and compares. `UPDATE_DOCS=1 cargo test -p agentwire --test
//! gcx_layout_docs` rewrites the file. Every example response is encoded here and must take
//! its layout (not the generic fallback), so the documented shapes are shapes that fit.

use std::fmt::Write as _;
use std::path::PathBuf;

use agentwire::gcx::layout::{FieldLayout, RowsLayout};
use agentwire::gcx::{self, Layouts, Strategy, ToolLayout, ToolOptions};

/// A JSON value with members in the order written (the documentation's order).
enum J {
    Num(&'static str),
    Bool(bool),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl J {
    fn write(&self, out: &mut String, indent: usize) {
        let pad = |n: usize| "  ".repeat(n);
        match self {
            J::Num(n) => out.push_str(n),
            J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            J::Str(s) => write!(out, "\"{s}\"").unwrap(),
            J::Arr(items) if items.iter().all(|i| !matches!(i, J::Obj(_))) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    item.write(out, indent);
                }
                out.push(']');
            }
            J::Arr(items) => {
                out.push_str("[\n");
                for (i, item) in items.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    item.write(out, indent + 1);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                write!(out, "{}]", pad(indent)).unwrap();
            }
            J::Obj(members) => {
                out.push_str("{\n");
                for (i, (k, v)) in members.iter().enumerate() {
                    write!(out, "{}\"{k}\": ", pad(indent + 1)).unwrap();
                    v.write(out, indent + 1);
                    out.push_str(if i + 1 < members.len() { ",\n" } else { "\n" });
                }
                write!(out, "{}}}", pad(indent)).unwrap();
            }
        }
    }

    fn text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out
    }
}

/// An example value for a response key.
fn example(key: &str, join: bool) -> J {
    const NUMBERS: [&str; 9] = [
        "line",
        "size",
        "fan_in",
        "fan_out",
        "cross_cut",
        "total",
        "count",
        "total_nodes",
        "total_edges",
    ];
    if join {
        return J::Arr(vec![J::Str(format!("{key}1")), J::Str(format!("{key}2"))]);
    }
    if key == "truncated" {
        return J::Bool(false);
    }
    if key.ends_with("_line") || NUMBERS.contains(&key) {
        return J::Num("12");
    }
    if matches!(key, "score" | "confidence") {
        return J::Num("0.9");
    }
    J::Str(format!("{key}1"))
}

fn row(fields: &[FieldLayout]) -> J {
    J::Obj(
        fields
            .iter()
            .map(|f| (f.from[0].clone(), example(&f.from[0], f.join.is_some())))
            .collect(),
    )
}

/// The example response: a wrapper object with every section's rows and metadata.
fn example_response(layout: &ToolLayout) -> J {
    let mut members = Vec::new();
    for section in &layout.sections {
        match &section.rows {
            RowsLayout::Array { keys, .. } => {
                members.push((keys[0].clone(), J::Arr(vec![row(&section.fields)])));
            }
            RowsLayout::Object { key: Some(key) } => {
                members.push((key.clone(), row(&section.fields)));
            }
            RowsLayout::Object { key: None } => {
                if let J::Obj(own) = row(&section.fields) {
                    members.extend(own);
                }
            }
        }
        for m in &section.meta {
            if !members.iter().any(|(k, _)| k == m) {
                members.push((m.clone(), example(m, false)));
            }
        }
    }
    J::Obj(members)
}

fn code(list: &[String]) -> String {
    list.iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn render() -> String {
    let mut out = String::from(
        "# GCX1 built-in per-tool layouts\n\n\
         <!-- Generated from the core's built-in layout table by core/tests/gcx_layout_docs.rs;\n     \
         do not edit: `UPDATE_DOCS=1 cargo test -p agentwire --test gcx_layout_docs`. -->\n\n\
         `gcx.encodeTool(tool, response)` (Rust `gcx::encode_tool`, CLI `agentwire gcx encode-tool`)\n\
         writes a response by its tool's layout only when the response fits it **exactly**:\n\n\
         - the rows are an array at one of the section's keys (or the response itself is that\n  \
           array, where the table says so), or one object;\n\
         - every member of a row is read by a column (a column reads the first of its keys that\n  \
           the row has; absent keys are empty cells);\n\
         - every other member of the response object is a row key or a metadata key listed below,\n  \
           and metadata values are scalars without spaces;\n\
         - a joined column holds an array of scalars that do not contain the separator.\n\n\
         Anything else (one extra key is enough) takes the generic fallback, which can cost more\n\
         tokens than the JSON for a wrapper object. To see what happened, use\n\
         `gcx.encodeToolDetailed` (`{ text, strategy, fallbackReason }`; Rust\n\
         `gcx::encode_tool_report`); to fail instead, pass `{ strict: true }` (`GCX_LAYOUT_MISMATCH`,\n\
         with the reason). To pick whichever form is smallest and never worse than the JSON, use\n\
         `compact.json(text, { tool })` (see the README). Custom layouts take the same form as\n\
         `gcx.layouts()` prints (`{ layouts: [...] }` option, `--layouts FILE`).\n\n\
         In section names, `{tool}` stands for the tool name the caller passed. Each example\n\
         below is encoded by the test that generates this page and takes the layout.\n",
    );
    out.push_str("\n| tool | also selected by | sections |\n|---|---|---|\n");
    let layouts = Layouts::builtin().all();
    for layout in &layouts {
        let sections: Vec<String> = layout.sections.iter().map(|s| s.name.clone()).collect();
        writeln!(
            out,
            "| [`{}`](#{}) | {} | {} |",
            layout.tool,
            layout.tool.replace('.', ""),
            code(&layout.aliases),
            code(&sections)
        )
        .unwrap();
    }
    for layout in &layouts {
        write!(out, "\n## {}\n\n", layout.tool).unwrap();
        if !layout.aliases.is_empty() {
            writeln!(out, "Also selected by {}.\n", code(&layout.aliases)).unwrap();
        }
        for section in &layout.sections {
            let rows = match &section.rows {
                RowsLayout::Array { keys, root: true } => format!(
                    "an array at {} of the response object, or the response itself when it is an array",
                    keys.iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
                RowsLayout::Array { keys, root: false } => format!(
                    "an array at {} of the response object",
                    keys.iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
                RowsLayout::Object { key: Some(key) } => {
                    format!("one row: the object at `{key}` of the response")
                }
                RowsLayout::Object { key: None } => {
                    "one row: members of the response object itself".to_string()
                }
            };
            write!(out, "Section `{}`: rows are {rows}.", section.name).unwrap();
            if section.meta.is_empty() {
                out.push_str("\n\n");
            } else {
                writeln!(out, " Metadata keys: {}.\n", code(&section.meta)).unwrap();
            }
            out.push_str("| column | read from | notes |\n|---|---|---|\n");
            for f in &section.fields {
                let mut notes = Vec::new();
                if let Some(sep) = &f.join {
                    notes.push(format!("array joined with `{sep}`"));
                }
                if f.optional {
                    notes.push("written only when some row has it".to_string());
                }
                writeln!(
                    out,
                    "| `{}` | {} | {} |",
                    f.name,
                    code(&f.from),
                    notes.join("; ")
                )
                .unwrap();
            }
            out.push('\n');
        }
        let response = example_response(layout).text();
        let value = agentwire::json::parse(&response).expect("example parses");
        let report = gcx::encode_tool_report(&layout.tool, &value, &ToolOptions::default())
            .expect("example encodes");
        assert_eq!(
            (report.strategy, report.fallback_reason.as_deref()),
            (Strategy::Layout, None),
            "the example of {} does not take its layout",
            layout.tool
        );
        write!(
            out,
            "Example response:\n\n```json\n{response}\n```\n\nGCX1:\n\n```text\n{}```\n",
            report.payload
        )
        .unwrap();
    }
    out
}

#[test]
fn layout_docs_match_the_builtin_table() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/gcx1-layouts.md");
    let want = render();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &want).unwrap();
        return;
    }
    let got = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        got == want,
        "{} is out of date with the built-in layouts: run \
         `UPDATE_DOCS=1 cargo test -p agentwire --test gcx_layout_docs`",
        path.display()
    );
}
