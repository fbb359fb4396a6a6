//! `agentwire compact`: the fewest-token lossless form of a JSON document (a tool result), as
//! agentwire-mcp and `compact.json` choose it (`agentwire::compact`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use agentwire::Error;
use agentwire::compact::{Compacted, Options, Reason, compact_json};
use agentwire::tokens::{Encoding, TokenCounter, Tokenizer};

#[derive(clap::Args)]
pub struct Args {
    /// The MCP tool the JSON came from: selects its GCX1 layout.
    #[arg(long, default_value = "result")]
    tool: String,
    /// How tokens are counted: cl100k_base, o200k_base, or bytes (UTF-8 bytes).
    #[arg(long, default_value = "cl100k_base")]
    encoding: String,
    /// A candidate replaces the input only when it saves this share of the input's tokens.
    #[arg(long, default_value_t = 0.1)]
    min_savings: f64,
    /// Print the report on stderr: every candidate with its bytes and tokens, then the choice,
    /// or why the input was kept (a code and a message).
    #[arg(long)]
    report: bool,
    /// The JSON document (default: stdin).
    file: Option<PathBuf>,
}

fn utf8_bytes(text: &str) -> usize {
    text.len()
}

/// Prints the chosen text on stdout (the input itself when nothing saves enough, with the
/// reason in the report). Input that is not UTF-8 is written back unchanged.
pub fn run(args: &Args) -> Result<ExitCode, Error> {
    let bytes = crate::read_input(args.file.as_ref())?;
    let tokenizer;
    let counter: &dyn TokenCounter = if args.encoding == "bytes" {
        &utf8_bytes
    } else {
        tokenizer = Tokenizer::new(Encoding::parse(&args.encoding)?)?;
        &tokenizer
    };
    let options = Options {
        tool: &args.tool,
        min_savings: args.min_savings,
        exact_counts: args.report,
    };
    let input = match agentwire::json::utf8(&bytes) {
        Ok(input) => input,
        Err(error) => {
            if args.report {
                let mut err = std::io::stderr().lock();
                let reason = Reason::unreadable(error);
                writeln!(err, "input: {} bytes, not UTF-8", bytes.len())?;
                writeln!(err, "kept: input (not counted): {} {reason}", reason.code())?;
            }
            crate::stdout().write_all(&bytes)?;
            return Ok(ExitCode::SUCCESS);
        }
    };
    let out = compact_json(input, &options, counter)?;
    if args.report {
        write_report(&mut std::io::stderr().lock(), input, &out)?;
    }
    let mut out_stream = crate::stdout();
    out_stream.write_all(out.text.as_bytes())?;
    if !out.text.ends_with('\n') {
        out_stream.write_all(b"\n")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Every candidate with its tokens and bytes, then the choice, or why the input was kept.
fn write_report(err: &mut impl Write, input: &str, out: &Compacted) -> std::io::Result<()> {
    writeln!(
        err,
        "input: {} tokens, {} bytes",
        out.input_tokens,
        input.len()
    )?;
    for c in &out.candidates {
        let tokens = c.tokens.map_or_else(|| "-".to_string(), |t| t.to_string());
        let state = match (c.lossless, &c.lossy_reason) {
            (Some(true), _) => "lossless".to_string(),
            (Some(false), reason) => format!("lossy: {}", reason.as_deref().unwrap_or("")),
            (None, _) => "not read back: more tokens than the best".to_string(),
        };
        writeln!(
            err,
            "{:<13} {:>9} tokens {:>10} bytes  {state}",
            c.format.as_str(),
            tokens,
            c.text.len()
        )?;
    }
    match &out.reason {
        None => writeln!(
            err,
            "chosen: {} ({} tokens)",
            out.format.as_str(),
            out.tokens
        ),
        Some(reason) => writeln!(
            err,
            "kept: input ({} tokens): {} {reason}",
            out.tokens,
            reason.code()
        ),
    }
}
