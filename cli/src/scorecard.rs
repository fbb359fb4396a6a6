//! `agentwire scorecard`: GCX1 versus compact JSON on the upstream benchmark's 20 responses.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use agentwire::gcx::{encode_generic, EncodeOptions};
use agentwire::json::{self, Map, Number, Value, WriteOptions};
use agentwire::{Error, ErrorKind};

/// The benchmark cases bundled with the repository (gcx1 fixtures, `bench.json`).
const BUNDLED_BENCH: &str = include_str!("../../tests/fixtures/gcx1/bench.json");

#[derive(clap::Args)]
pub struct Args {
    /// A bench file in the gcx1 fixture format (default: the bundled one).
    #[arg(long)]
    bench: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Markdown)]
    format: OutputFormat,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum OutputFormat {
    Markdown,
    Json,
}

struct Row {
    name: String,
    tool: String,
    json_bytes: usize,
    gcx_bytes: usize,
}

impl Row {
    fn savings(&self) -> f64 {
        1.0 - self.gcx_bytes as f64 / self.json_bytes as f64
    }
}

fn invalid(message: String) -> Error {
    Error::new(ErrorKind::InvalidArgument, message)
}

fn measure(bench: &Value) -> Result<Vec<Row>, Error> {
    let vectors = bench
        .get("vectors")
        .and_then(Value::as_array)
        .ok_or_else(|| invalid("bench file has no \"vectors\" array".into()))?;
    let mut rows = Vec::with_capacity(vectors.len());
    for (i, vector) in vectors.iter().enumerate() {
        let field = |key: &str| {
            vector
                .get(key)
                .or_else(|| vector.get("input").and_then(|input| input.get(key)))
                .and_then(Value::as_str)
                .ok_or_else(|| invalid(format!("vectors[{i}]: no string \"{key}\"")))
        };
        let (name, tool, text) = (field("name")?, field("tool")?, field("json")?);
        let value = json::parse(text).map_err(|e| e.context(name))?;
        let compact = json::to_string(&value, WriteOptions::GO).map_err(|e| e.context(name))?;
        let gcx =
            encode_generic(tool, &value, &EncodeOptions::default()).map_err(|e| e.context(name))?;
        rows.push(Row {
            name: name.into(),
            tool: tool.into(),
            json_bytes: compact.len(),
            gcx_bytes: gcx.len(),
        });
    }
    Ok(rows)
}

fn median(mut values: Vec<f64>) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

pub fn run(args: &Args) -> Result<ExitCode, Error> {
    let text = match &args.bench {
        Some(path) => crate::read_text(Some(path))?,
        None => BUNDLED_BENCH.to_string(),
    };
    let rows = measure(&json::parse(&text)?)?;
    let median_savings = median(rows.iter().map(Row::savings).collect());
    let total_json: usize = rows.iter().map(|r| r.json_bytes).sum();
    let total_gcx: usize = rows.iter().map(|r| r.gcx_bytes).sum();
    let mut out = io::stdout().lock();
    match args.format {
        OutputFormat::Markdown => {
            writeln!(out, "| case | tool | JSON bytes | GCX1 bytes | saved |")?;
            writeln!(out, "|---|---|---:|---:|---:|")?;
            for r in &rows {
                writeln!(
                    out,
                    "| {} | {} | {} | {} | {:.1} % |",
                    r.name,
                    r.tool,
                    r.json_bytes,
                    r.gcx_bytes,
                    r.savings() * 100.0
                )?;
            }
            writeln!(
                out,
                "| **all {} cases** | | {total_json} | {total_gcx} | median {:.1} % |",
                rows.len(),
                median_savings * 100.0
            )?;
            writeln!(
                out,
                "\nJSON = compact JSON of the input (Go encoding/json rules); GCX1 = the generic fallback, typed numbers."
            )?;
        }
        OutputFormat::Json => {
            let cases = rows
                .iter()
                .map(|r| {
                    let mut m = Map::new();
                    m.insert("name".into(), r.name.as_str().into());
                    m.insert("tool".into(), r.tool.as_str().into());
                    m.insert(
                        "json_bytes".into(),
                        Number::from_u64(r.json_bytes as u64).into(),
                    );
                    m.insert(
                        "gcx_bytes".into(),
                        Number::from_u64(r.gcx_bytes as u64).into(),
                    );
                    m.insert("byte_savings".into(), Number::from_f64(r.savings()).into());
                    Value::Object(m)
                })
                .collect();
            let mut summary = Map::new();
            summary.insert("cases".into(), Number::from_u64(rows.len() as u64).into());
            summary.insert(
                "json_bytes".into(),
                Number::from_u64(total_json as u64).into(),
            );
            summary.insert(
                "gcx_bytes".into(),
                Number::from_u64(total_gcx as u64).into(),
            );
            summary.insert(
                "median_byte_savings".into(),
                Number::from_f64(median_savings).into(),
            );
            let mut doc = Map::new();
            doc.insert("cases".into(), Value::Array(cases));
            doc.insert("summary".into(), Value::Object(summary));
            writeln!(
                out,
                "{}",
                json::to_string(&Value::Object(doc), WriteOptions::PLAIN)?
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
