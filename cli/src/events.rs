//! `agentwire events validate|accumulate|mock|from-sse|tool`: the `godex exec --json` event
//! protocol. Streams are read in chunks, so input of any size is checked as it arrives.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use agentwire::events::mock::{MockMode, mock_events};
use agentwire::events::serialize::{Form, write_event};
use agentwire::events::sse::from_sse;
use agentwire::events::toolspec::{ToolSpec, function_tool, parse_tool_spec, web_search_tool};
use agentwire::events::{DecodedItem, Diagnostic, StreamDecoder, Summary};
use agentwire::json::{self, Value};
use agentwire::{Error, ErrorKind};
use clap::Subcommand;

#[derive(Subcommand)]
pub enum EventsCommand {
    /// Check a JSONL event stream: one line per diagnostic (`line N: code: message`), then
    /// `valid` or `invalid` (exit status 1).
    Validate {
        /// Print `{valid, result, diagnostics}` as JSON instead.
        #[arg(long)]
        json: bool,
        /// Longest line accepted, in bytes.
        #[arg(long, default_value_t = 16 << 20)]
        max_line_bytes: usize,
        /// Input file (default: stdin).
        file: Option<PathBuf>,
    },
    /// The assembled result of a JSONL stream: `{valid, result, diagnostics}` (exit status 1
    /// when invalid).
    Accumulate {
        /// Input file (default: stdin).
        file: Option<PathBuf>,
    },
    /// The JSONL of `godex exec --mock --mock-mode MODE --json`.
    Mock {
        /// echo, text, tool-call or tool-loop (resolved as godex does; unknown is echo).
        #[arg(long, default_value = "echo")]
        mode: String,
        /// The text echo mode repeats (godex: the request JSON); default: stdin for echo.
        #[arg(long)]
        echo_text: Option<String>,
    },
    /// An upstream Responses SSE stream → the wire-subset JSONL (godex form); framing problems
    /// go to stderr. `--json` prints frames, conversion and verdict instead.
    FromSse {
        /// Print `{frames, framing_diagnostics, converted, valid, result, diagnostics}`.
        #[arg(long)]
        json: bool,
        /// Input file (default: stdin).
        file: Option<PathBuf>,
    },
    /// A `--tool` value (`web_search` or `name:json=path`) → the tool JSON godex sends
    /// (the schema file is read relative to the working directory).
    Tool {
        /// The value, e.g. `add:json=schemas/add.json`.
        spec: String,
    },
}

fn print(text: &str) -> Result<(), Error> {
    let mut out = crate::stdout();
    out.write_all(text.as_bytes())?;
    if !text.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

fn exit(valid: bool) -> ExitCode {
    if valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Streams the input through a decoder, calling `each` with every diagnostic as lines
/// complete; the verdict with every diagnostic of the stream.
fn decode(
    file: Option<&PathBuf>,
    max_line_bytes: usize,
    mut each: impl FnMut(&Diagnostic) -> Result<(), Error>,
) -> Result<Summary, Error> {
    let mut decoder = StreamDecoder::new(max_line_bytes);
    let mut reader: Box<dyn Read> = match file {
        Some(path) if path.as_os_str() != "-" => Box::new(
            std::fs::File::open(path)
                .map_err(|e| Error::new(ErrorKind::Io, format!("{}: {e}", path.display())))?,
        ),
        _ => Box::new(io::stdin().lock()),
    };
    let mut diagnostics = Vec::new();
    let mut items = Vec::new();
    let mut keep = |items: &mut Vec<DecodedItem>| -> Result<(), Error> {
        for item in items.drain(..) {
            if let DecodedItem::Diagnostic(d) = item {
                each(&d)?;
                diagnostics.push(d);
            }
        }
        Ok(())
    };
    let mut buffer = vec![0u8; 64 << 10];
    loop {
        let n = match reader.read(&mut buffer) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            result => result?,
        };
        if n == 0 {
            break;
        }
        decoder.push(&buffer[..n], &mut items);
        keep(&mut items)?;
    }
    let mut summary = decoder.finish(&mut items);
    keep(&mut items)?;
    summary.diagnostics = diagnostics;
    Ok(summary)
}

fn diagnostic_line(d: &Diagnostic) -> String {
    let line = match d.line {
        Some(n) => format!("line {n}"),
        None => "end of input".into(),
    };
    format!(
        "{line}: {} ({}): {}",
        d.code.as_str(),
        d.severity().as_str(),
        d.message
    )
}

fn json_text(value: &Value) -> Result<String, Error> {
    json::to_string(value, json::WriteOptions::PLAIN)
}

pub fn run(command: EventsCommand) -> Result<ExitCode, Error> {
    match command {
        EventsCommand::Validate {
            json: as_json,
            max_line_bytes,
            file,
        } => {
            let mut out = crate::stdout();
            let summary = decode(file.as_ref(), max_line_bytes, |d| {
                if !as_json {
                    writeln!(out, "{}", diagnostic_line(d))?;
                }
                Ok(())
            })?;
            if as_json {
                writeln!(out, "{}", json_text(&summary.to_value())?)?;
            } else {
                writeln!(out, "{}", if summary.valid { "valid" } else { "invalid" })?;
            }
            Ok(exit(summary.valid))
        }
        EventsCommand::Accumulate { file } => {
            let summary = decode(file.as_ref(), 16 << 20, |_| Ok(()))?;
            print(&json_text(&summary.to_value())?)?;
            Ok(exit(summary.valid))
        }
        EventsCommand::Mock { mode, echo_text } => {
            let mode = MockMode::resolve(&mode);
            let echo = match echo_text {
                Some(text) => text,
                None if mode == MockMode::Echo => crate::read_text(None)?,
                None => String::new(),
            };
            let mut jsonl = String::new();
            for event in mock_events(mode, &echo) {
                if let Value::Object(map) = event {
                    write_event(&mut jsonl, &map, Form::Godex)?;
                }
            }
            crate::stdout().write_all(jsonl.as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        EventsCommand::FromSse {
            json: as_json,
            file,
        } => {
            let text = crate::read_text(file.as_ref())?;
            if as_json {
                print(&json_text(&agentwire::events::sse::report(&text))?)?;
            } else {
                let (_, framing, converted) = from_sse(&text);
                for d in &framing {
                    eprintln!("{}", diagnostic_line(d));
                }
                let mut jsonl = String::new();
                for event in &converted {
                    if let Value::Object(map) = event {
                        write_event(&mut jsonl, map, Form::Godex)?;
                    }
                }
                crate::stdout().write_all(jsonl.as_bytes())?;
            }
            Ok(ExitCode::SUCCESS)
        }
        EventsCommand::Tool { spec } => {
            let tool = match parse_tool_spec(&spec)? {
                ToolSpec::WebSearch => web_search_tool(),
                ToolSpec::Function { name, path } => {
                    let path = PathBuf::from(path);
                    let schema = std::fs::read_to_string(&path).map_err(|e| {
                        Error::new(
                            ErrorKind::Io,
                            format!("read tool schema {}: {e}", path.display()),
                        )
                    })?;
                    function_tool(&name, &schema)?
                }
            };
            print(&json_text(&tool)?)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
