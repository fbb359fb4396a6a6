//! `agentwire`: the command line of the agentwire codecs.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use agentwire::Error;
use clap::{Parser, Subcommand};

mod compact;
mod events;
mod gateway;
mod gcx;
mod graph;
mod scorecard;
mod toon;

#[derive(Parser)]
#[command(
    name = "agentwire",
    version,
    about = "Compact wire formats for LLM agents and MCP servers"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// GCX1: encode, generic fallback, decode.
    #[command(subcommand)]
    Gcx(gcx::GcxCommand),
    /// GCF text, v1.1 (graph), v3.5.3 and v3.6.0 (graph and generic profiles): encode,
    /// decode, encode-delta, pack-root.
    #[command(subcommand)]
    Gcf(graph::GcfCommand),
    /// The `godex exec --json` event protocol: validate, accumulate, mock, from-sse, tool.
    #[command(subcommand)]
    Events(events::EventsCommand),
    /// Gateway contracts: tool ids, ChoiceCards, truncation, browse paths.
    #[command(subcommand)]
    Gateway(gateway::GatewayCommand),
    /// TOON (Token-Oriented Object Notation, spec 4.0): encode JSON, decode to JSON.
    #[command(subcommand)]
    Toon(toon::ToonCommand),
    /// GCB1 binary: encode, decode (raw bytes, or --hex).
    #[command(subcommand)]
    Gcb(graph::GcbCommand),
    /// Convert a graph payload between codecs (json, gcf, gcb).
    Convert(graph::ConvertArgs),
    /// List the graph payload codecs.
    Codecs,
    /// Run a fixture suite on a directory of vectors; prints one line per failure and
    /// `N passed, M failed`; exits 1 when any vector fails.
    Conformance {
        /// Suite name: gcx1, tokens, gcf (v3.5.3), gcf-v1.1, gcb1, gateway, events, toon.
        suite: String,
        /// Directory holding the suite's vector files.
        dir: PathBuf,
    },
    /// GCX1 versus compact JSON on the 20 representative tool responses: bytes, gzip, cl100k and
    /// o200k tokens, round-trip check, medians.
    Scorecard(scorecard::Args),
    /// The fewest-token lossless form of a JSON document (GCX1, GCF v3 or minified JSON, as
    /// agentwire-mcp chooses it); prints the input when nothing saves enough.
    Compact(compact::Args),
    /// Count tokens of a text (stdin or FILE) with an exact tiktoken encoding.
    Tokens {
        /// cl100k_base or o200k_base.
        #[arg(long, default_value = "cl100k_base")]
        encoding: String,
        /// Print the token ids (JSON array) instead of the count.
        #[arg(long)]
        ids: bool,
        /// Input file (default: stdin).
        file: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Gcx(command) => gcx::run(command),
        Command::Gcf(command) => graph::run_gcf(command),
        Command::Gcb(command) => graph::run_gcb(command),
        Command::Toon(command) => toon::run(command),
        Command::Gateway(command) => gateway::run(command),
        Command::Events(command) => events::run(command),
        Command::Convert(args) => graph::convert(&args),
        Command::Codecs => graph::list_codecs(),
        Command::Conformance { suite, dir } => conformance(&suite, &dir),
        Command::Scorecard(args) => scorecard::run(&args),
        Command::Compact(args) => compact::run(&args),
        Command::Tokens {
            encoding,
            ids,
            file,
        } => tokens(&encoding, ids, file.as_ref()),
    };
    match outcome {
        Ok(code) => code,
        // The reader stopped early (`| head`): end quietly, as Unix tools do.
        Err(_) if PIPE_CLOSED.load(Ordering::Relaxed) => ExitCode::SUCCESS,
        Err(e) => {
            report_error(&e);
            ExitCode::FAILURE
        }
    }
}

/// Set once a write to stdout fails because its reader has gone.
static PIPE_CLOSED: AtomicBool = AtomicBool::new(false);

/// Standard output, noting a closed pipe in [`PIPE_CLOSED`] (the error still stops the command).
struct Stdout(io::StdoutLock<'static>);

/// The stdout every command writes to.
fn stdout() -> Stdout {
    Stdout(io::stdout().lock())
}

impl Stdout {
    fn note<T>(result: io::Result<T>) -> io::Result<T> {
        if let Err(e) = &result
            && e.kind() == io::ErrorKind::BrokenPipe
        {
            PIPE_CLOSED.store(true, Ordering::Relaxed);
        }
        result
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Stdout::note(self.0.write(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        Stdout::note(self.0.flush())
    }
}

/// Prints `error[CODE]: message at line L column C` on stderr.
fn report_error(e: &Error) {
    let _ = writeln!(io::stderr(), "error[{}]: {e}", e.code());
}

fn conformance(suite: &str, dir: &std::path::Path) -> Result<ExitCode, Error> {
    let report = agentwire_conformance::run(suite, dir)
        .map_err(|message| Error::new(agentwire::ErrorKind::InvalidArgument, message))?;
    let mut out = stdout();
    for note in &report.notes {
        writeln!(out, "{note}")?;
    }
    for failure in &report.failures {
        writeln!(out, "{failure}")?;
    }
    writeln!(out, "{}", report.summary())?;
    Ok(if report.failed() > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn tokens(encoding: &str, ids: bool, file: Option<&PathBuf>) -> Result<ExitCode, Error> {
    let tokenizer =
        agentwire::tokens::Tokenizer::new(agentwire::tokens::Encoding::parse(encoding)?)?;
    let mut out = stdout();
    if ids {
        let ids: Vec<String> = tokenizer
            .encode(&read_text(file)?)
            .iter()
            .map(u32::to_string)
            .collect();
        writeln!(out, "[{}]", ids.join(","))?;
    } else {
        // Counted as it is read: a 100 MB file never sits in memory whole.
        let mut stream = tokenizer.count_stream();
        let mut input = open_input(file)?;
        let mut buf = vec![0; 1 << 20];
        loop {
            let n = input.read(&mut buf)?;
            if n == 0 {
                break;
            }
            stream.push(&buf[..n])?;
        }
        writeln!(out, "{}", stream.finish()?)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// FILE, or stdin when no file (or `-`) is given, as a reader.
fn open_input(file: Option<&PathBuf>) -> Result<Box<dyn Read>, Error> {
    Ok(match file {
        Some(path) if path.as_os_str() != "-" => {
            Box::new(std::fs::File::open(path).map_err(|e| {
                Error::new(agentwire::ErrorKind::Io, format!("{}: {e}", path.display()))
            })?)
        }
        _ => Box::new(io::stdin().lock()),
    })
}

/// Reads all of FILE, or stdin when no file (or `-`) is given.
pub(crate) fn read_input(file: Option<&PathBuf>) -> Result<Vec<u8>, Error> {
    let mut bytes = Vec::new();
    match file {
        Some(path) if path.as_os_str() != "-" => {
            bytes = std::fs::read(path).map_err(|e| {
                Error::new(agentwire::ErrorKind::Io, format!("{}: {e}", path.display()))
            })?;
        }
        _ => {
            io::stdin().lock().read_to_end(&mut bytes)?;
        }
    }
    Ok(bytes)
}

/// Reads FILE or stdin as UTF-8 text.
fn read_text(file: Option<&PathBuf>) -> Result<String, Error> {
    let bytes = read_input(file)?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        Error::at(
            agentwire::ErrorKind::InvalidUtf8,
            "the text is not UTF-8",
            agentwire::Position::in_text(e.as_bytes(), at),
        )
    })
}
