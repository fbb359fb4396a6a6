//! `agentwire scorecard`: GCX1 versus compact JSON on the upstream benchmark's 20 responses:
//! bytes, gzip bytes, cl100k_base and o200k_base tokens, and a real round-trip check.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use agentwire::gcx::{EncodeOptions, Strategy, ToolOptions, encode_tool_checked};
use agentwire::json::{self, Map, Number, ParseOptions, Value, WriteOptions};
use std::sync::LazyLock;

use agentwire::tokens::Tokenizer;
use agentwire::{Error, ErrorKind};

/// The benchmark cases bundled with the repository (gcx1 fixtures, `bench.json`).
const BUNDLED_BENCH: &str = include_str!("../../tests/fixtures/gcx1/bench.json");

/// The savings the upstream project published for this benchmark (cl100k_base, median).
const PUBLISHED_MEDIAN_TOKEN_SAVINGS: f64 = -0.274;

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

/// One encoding of a case.
struct Measure {
    bytes: usize,
    gzip_bytes: usize,
    tokens_cl100k: usize,
    tokens_o200k: usize,
}

/// One GCX1 strategy's output for a case.
struct Encoded {
    measure: Measure,
    /// The strategy that wrote it (`layout` may fall back to `generic`).
    written_by: Strategy,
    round_trip: Result<(), String>,
}

struct Case {
    name: String,
    tool: String,
    json: Measure,
    bench: Encoded,
    generic: Encoded,
    layout: Encoded,
    published: Option<(u64, u64)>,
}

fn invalid(message: String) -> Error {
    Error::new(ErrorKind::InvalidArgument, message)
}

fn gzip_len(text: &str) -> Result<usize, Error> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(text.as_bytes())?;
    Ok(encoder.finish()?.len())
}

static TOKENIZERS: LazyLock<(Tokenizer, Tokenizer)> =
    LazyLock::new(|| (Tokenizer::cl100k_base(), Tokenizer::o200k_base()));

fn measure(text: &str) -> Result<Measure, Error> {
    Ok(Measure {
        bytes: text.len(),
        gzip_bytes: gzip_len(text)?,
        tokens_cl100k: TOKENIZERS.0.count(text),
        tokens_o200k: TOKENIZERS.1.count(text),
    })
}

fn encode(tool: &str, value: &Value, strategy: Strategy) -> Result<Encoded, Error> {
    let options = ToolOptions {
        strategy,
        encode: EncodeOptions {
            literal_numbers: true,
            // The upstream benchmark's bytes, whatever they are.
            ..EncodeOptions::gcx_go()
        },
        ..ToolOptions::default()
    };
    let out = encode_tool_checked(tool, value, &options, true)?;
    Ok(Encoded {
        measure: measure(&out.payload)?,
        written_by: out.strategy,
        round_trip: out.round_trip.unwrap_or(Ok(())),
    })
}

/// Measures every case. Numbers keep their source text, as the upstream benchmark did
/// (Go `json.Number`), so the JSON baseline is byte-identical to what it measured.
fn measure_cases(bench: &Value) -> Result<Vec<Case>, Error> {
    let vectors = bench
        .get("vectors")
        .and_then(Value::as_array)
        .ok_or_else(|| invalid("bench file has no \"vectors\" array".into()))?;
    let literal = ParseOptions {
        literal_numbers: true,
        ..ParseOptions::default()
    };
    let mut cases = Vec::with_capacity(vectors.len());
    for (i, vector) in vectors.iter().enumerate() {
        let field = |key: &str| {
            vector
                .get(key)
                .or_else(|| vector.get("input").and_then(|input| input.get(key)))
                .and_then(Value::as_str)
                .ok_or_else(|| invalid(format!("vectors[{i}]: no string \"{key}\"")))
        };
        let (name, tool, text) = (field("name")?, field("tool")?, field("json")?);
        let value = json::parse_with(text, &literal).map_err(|e| e.context(name))?;
        let compact = json::to_string(&value, WriteOptions::GO).map_err(|e| e.context(name))?;
        let published = vector.get("scorecard_bytes").and_then(|b| {
            let n = |k: &str| {
                b.get(k).and_then(|v| match v {
                    Value::Number(n) => n.as_u64(),
                    _ => None,
                })
            };
            Some((n("json")?, n("gcx")?))
        });
        cases.push(Case {
            name: name.into(),
            tool: tool.into(),
            json: measure(&compact)?,
            bench: encode(tool, &value, Strategy::Bench).map_err(|e| e.context(name))?,
            generic: encode(tool, &value, Strategy::Generic).map_err(|e| e.context(name))?,
            layout: encode(tool, &value, Strategy::Layout).map_err(|e| e.context(name))?,
            published,
        });
    }
    Ok(cases)
}

fn saving(gcx: usize, json: usize) -> f64 {
    if json == 0 {
        0.0
    } else {
        gcx as f64 / json as f64 - 1.0
    }
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

/// Selects one strategy's output of a case.
type Pick = fn(&Case) -> &Encoded;

/// The strategies compared: label, JSON key prefix, selector.
const STRATEGIES: [(&str, &str, Pick); 3] = [
    ("bench (upstream harness)", "", |c| &c.bench),
    ("generic fallback (gcx-go `EncodeAny`)", "generic_", |c| {
        &c.generic
    }),
    (
        "layout (spec layouts, generic when a response does not fit)",
        "layout_",
        |c| &c.layout,
    ),
];

/// Median savings of one strategy: (bytes, cl100k tokens, o200k tokens).
fn medians(cases: &[Case], pick: Pick) -> (f64, f64, f64) {
    let of = |f: fn(&Measure) -> usize| {
        median(
            cases
                .iter()
                .map(|c| saving(f(&pick(c).measure), f(&c.json)))
                .collect(),
        )
    };
    (
        of(|m| m.bytes),
        of(|m| m.tokens_cl100k),
        of(|m| m.tokens_o200k),
    )
}

fn percent(v: f64) -> String {
    format!("{:+.1} %", v * 100.0)
}

pub fn run(args: &Args) -> Result<ExitCode, Error> {
    let text = match &args.bench {
        Some(path) => crate::read_text(Some(path))?,
        None => BUNDLED_BENCH.to_string(),
    };
    let cases = measure_cases(&json::parse(&text)?)?;
    let mut out = crate::stdout();
    match args.format {
        OutputFormat::Markdown => write_markdown(&mut out, &cases)?,
        OutputFormat::Json => writeln!(
            out,
            "{}",
            json::to_string(&to_json(&cases), WriteOptions::PLAIN)?
        )?,
    }
    Ok(ExitCode::SUCCESS)
}

fn write_markdown(out: &mut impl Write, cases: &[Case]) -> Result<(), Error> {
    writeln!(out, "# GCX1 scorecard: 20 representative tool responses")?;
    writeln!(out)?;
    writeln!(
        out,
        "Generated by `agentwire scorecard` (bench inputs: `tests/fixtures/gcx1/bench.json`). JSON is the compact JSON \
         the upstream benchmark measured (Go `encoding/json`, numbers as written); GCX1 is the upstream benchmark's \
         encoder (`--strategy bench`); savings are relative to JSON (negative = smaller). Tokens: tiktoken \
         `cl100k_base` and `o200k_base`, ordinary encoding. gzip: DEFLATE level 6. Round trip: the payload is decoded \
         and every row, field and metadata value is compared with the input; a lost value fails it."
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "| case | JSON B | GCX1 B | bytes | gzip JSON | gzip GCX1 | JSON tok | GCX1 tok | cl100k | o200k | round trip |"
    )?;
    writeln!(
        out,
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    )?;
    for c in cases {
        let (j, g) = (&c.json, &c.bench.measure);
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            c.name,
            j.bytes,
            g.bytes,
            percent(saving(g.bytes, j.bytes)),
            j.gzip_bytes,
            g.gzip_bytes,
            j.tokens_cl100k,
            g.tokens_cl100k,
            percent(saving(g.tokens_cl100k, j.tokens_cl100k)),
            percent(saving(g.tokens_o200k, j.tokens_o200k)),
            match &c.bench.round_trip {
                Ok(()) => "ok".to_string(),
                Err(why) => format!("**lost**: {why}"),
            }
        )?;
    }
    let (bytes, cl100k, o200k) = medians(cases, |c| &c.bench);
    writeln!(
        out,
        "| **median** | | | {} | | | | | **{}** | {} | {}/{} ok |",
        percent(bytes),
        percent(cl100k),
        percent(o200k),
        cases.iter().filter(|c| c.bench.round_trip.is_ok()).count(),
        cases.len()
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "Published by the upstream project: median {} cl100k tokens. Here: {} (cl100k), {} (o200k).",
        percent(PUBLISHED_MEDIAN_TOKEN_SAVINGS),
        percent(cl100k),
        percent(o200k)
    )?;
    let published_match = cases
        .iter()
        .filter(|c| c.published == Some((c.json.bytes as u64, c.bench.measure.bytes as u64)))
        .count();
    writeln!(
        out,
        "Byte counts equal to the published scorecard: {published_match}/{} cases.",
        cases.len()
    )?;
    writeln!(out)?;
    writeln!(out, "## By strategy")?;
    writeln!(out)?;
    writeln!(
        out,
        "| strategy | median bytes | median cl100k | median o200k | round trips ok |"
    )?;
    writeln!(out, "|---|---:|---:|---:|---:|")?;
    for (label, _, pick) in STRATEGIES {
        let (b, t, o) = medians(cases, pick);
        let ok = cases.iter().filter(|c| pick(c).round_trip.is_ok()).count();
        writeln!(
            out,
            "| {label} | {} | {} | {} | {ok}/{} |",
            percent(b),
            percent(t),
            percent(o),
            cases.len()
        )?;
    }
    let laid_out: Vec<&str> = cases
        .iter()
        .filter(|c| c.layout.written_by == Strategy::Layout)
        .map(|c| c.name.as_str())
        .collect();
    writeln!(out)?;
    writeln!(
        out,
        "Responses that fit their spec layout: {} ({}).",
        laid_out.len(),
        laid_out.join(", ")
    )?;
    Ok(())
}

fn number(v: usize) -> Value {
    Number::from_u64(v as u64).into()
}

fn ratio(v: f64) -> Value {
    // Four decimals keep the JSON stable and readable.
    Number::from_f64((v * 10_000.0).round() / 10_000.0).into()
}

/// Adds one strategy's figures; `round_trip_key` names its round-trip flag.
fn encoded_json(prefix: &str, round_trip_key: &str, e: &Encoded, json: &Measure, m: &mut Map) {
    m.insert(format!("{prefix}bytes"), number(e.measure.bytes));
    m.insert(format!("{prefix}gzip_bytes"), number(e.measure.gzip_bytes));
    m.insert(
        format!("{prefix}tokens_cl100k"),
        number(e.measure.tokens_cl100k),
    );
    m.insert(
        format!("{prefix}tokens_o200k"),
        number(e.measure.tokens_o200k),
    );
    m.insert(
        format!("{prefix}byte_savings"),
        ratio(saving(e.measure.bytes, json.bytes)),
    );
    m.insert(
        format!("{prefix}token_savings_cl100k"),
        ratio(saving(e.measure.tokens_cl100k, json.tokens_cl100k)),
    );
    m.insert(
        format!("{prefix}token_savings_o200k"),
        ratio(saving(e.measure.tokens_o200k, json.tokens_o200k)),
    );
    m.insert(format!("{round_trip_key}_ok"), e.round_trip.is_ok().into());
    if let Err(why) = &e.round_trip {
        m.insert(format!("{round_trip_key}_error"), why.as_str().into());
    }
}

fn to_json(cases: &[Case]) -> Value {
    let items = cases
        .iter()
        .map(|c| {
            let mut m = Map::new();
            m.insert("name".into(), c.name.as_str().into());
            m.insert("tool".into(), c.tool.as_str().into());
            m.insert("json_bytes".into(), number(c.json.bytes));
            m.insert("json_gzip_bytes".into(), number(c.json.gzip_bytes));
            m.insert("json_tokens_cl100k".into(), number(c.json.tokens_cl100k));
            m.insert("json_tokens_o200k".into(), number(c.json.tokens_o200k));
            encoded_json("gcx_", "roundtrip", &c.bench, &c.json, &mut m);
            encoded_json(
                "gcx_generic_",
                "gcx_generic_roundtrip",
                &c.generic,
                &c.json,
                &mut m,
            );
            encoded_json(
                "gcx_layout_",
                "gcx_layout_roundtrip",
                &c.layout,
                &c.json,
                &mut m,
            );
            m.insert(
                "gcx_layout_strategy".into(),
                c.layout.written_by.name().into(),
            );
            if let Some((json_bytes, gcx_bytes)) = c.published {
                m.insert(
                    "published_json_bytes".into(),
                    Number::from_u64(json_bytes).into(),
                );
                m.insert(
                    "published_gcx_bytes".into(),
                    Number::from_u64(gcx_bytes).into(),
                );
            }
            Value::Object(m)
        })
        .collect();
    let mut summary = Map::new();
    summary.insert("cases".into(), number(cases.len()));
    for (_, prefix, pick) in STRATEGIES {
        let (b, t, o) = medians(cases, pick);
        summary.insert(format!("median_{prefix}byte_savings"), ratio(b));
        summary.insert(format!("median_{prefix}token_savings_cl100k"), ratio(t));
        summary.insert(format!("median_{prefix}token_savings_o200k"), ratio(o));
        summary.insert(
            format!("{prefix}roundtrip_ok"),
            number(cases.iter().filter(|c| pick(c).round_trip.is_ok()).count()),
        );
    }
    summary.insert(
        "published_median_token_savings_cl100k".into(),
        ratio(PUBLISHED_MEDIAN_TOKEN_SAVINGS),
    );
    let mut doc = Map::new();
    doc.insert("cases".into(), Value::Array(items));
    doc.insert("summary".into(), Value::Object(summary));
    Value::Object(doc)
}
