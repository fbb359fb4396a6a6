//! `agentwire events validate|accumulate|mock|from-sse|tool`: the `godex exec --json` event
//! protocol. Streams are read in chunks, so input of any size is checked as it arrives.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use agentwire::json::{self, Value};
use agentwire::{Error, ErrorKind};
use agentwire_bindings::api::{self, EventsDecoder};
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
    let mut out = io::stdout().lock();
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

/// Streams the input through a decoder, calling `each` with every item as lines complete.
fn decode(
    file: Option<&PathBuf>,
    max_line_bytes: usize,
    mut each: impl FnMut(&Value) -> Result<(), Error>,
) -> Result<Value, Error> {
    let mut options = json::Map::new();
    options.insert(
        "maxLineBytes".into(),
        Value::Number(json::Number::from_u64(max_line_bytes as u64)),
    );
    let mut decoder = EventsDecoder::new(&json::to_string(
        &Value::Object(options),
        json::WriteOptions::PLAIN,
    )?)?;
    let mut reader: Box<dyn Read> = match file {
        Some(path) if path.as_os_str() != "-" => Box::new(
            std::fs::File::open(path)
                .map_err(|e| Error::new(ErrorKind::Io, format!("{}: {e}", path.display())))?,
        ),
        _ => Box::new(io::stdin().lock()),
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
        if let Value::Array(items) = json::parse(&decoder.push(&buffer[..n])?)? {
            items.iter().try_for_each(&mut each)?;
        }
    }
    let end = json::parse(&decoder.finish()?)?;
    if let Some(Value::Array(items)) = end.get("items") {
        items.iter().try_for_each(&mut each)?;
    }
    Ok(end)
}

fn diagnostic_line(d: &Value) -> String {
    let text = |k: &str| {
        d.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let line = match d.get("line") {
        Some(Value::Number(n)) => format!("line {}", n.as_u64().unwrap_or(0)),
        _ => "end of input".into(),
    };
    format!(
        "{line}: {} ({}): {}",
        text("code"),
        text("severity"),
        text("message")
    )
}

fn verdict(end: &Value) -> Result<(bool, String), Error> {
    let valid = end.get("valid") == Some(&Value::Bool(true));
    let mut map = json::Map::new();
    for key in ["valid", "result", "diagnostics"] {
        map.insert(key.into(), end.get(key).cloned().unwrap_or(Value::Null));
    }
    Ok((
        valid,
        json::to_string(&Value::Object(map), json::WriteOptions::PLAIN)?,
    ))
}

pub fn run(command: EventsCommand) -> Result<ExitCode, Error> {
    match command {
        EventsCommand::Validate {
            json: as_json,
            max_line_bytes,
            file,
        } => {
            let mut out = io::stdout().lock();
            let end = decode(file.as_ref(), max_line_bytes, |item| {
                if !as_json && item.get("kind").and_then(Value::as_str) == Some("diagnostic") {
                    writeln!(
                        out,
                        "{}",
                        diagnostic_line(item.get("diagnostic").unwrap_or(&Value::Null))
                    )?;
                }
                Ok(())
            })?;
            let (valid, summary) = verdict(&end)?;
            if as_json {
                writeln!(out, "{summary}")?;
            } else {
                writeln!(out, "{}", if valid { "valid" } else { "invalid" })?;
            }
            Ok(exit(valid))
        }
        EventsCommand::Accumulate { file } => {
            let end = decode(file.as_ref(), 16 << 20, |_| Ok(()))?;
            let (valid, summary) = verdict(&end)?;
            print(&summary)?;
            Ok(exit(valid))
        }
        EventsCommand::Mock { mode, echo_text } => {
            let echo = match echo_text {
                Some(text) => text,
                None if agentwire::events::mock::MockMode::resolve(&mode)
                    == agentwire::events::mock::MockMode::Echo =>
                {
                    crate::read_text(None)?
                }
                None => String::new(),
            };
            io::stdout()
                .lock()
                .write_all(api::events_mock(&mode, &echo)?.as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        EventsCommand::FromSse {
            json: as_json,
            file,
        } => {
            let report = json::parse(&api::events_from_sse(&crate::read_text(file.as_ref())?)?)?;
            if as_json {
                print(&json::to_string(&report, json::WriteOptions::PLAIN)?)?;
            } else {
                for d in report
                    .get("framing_diagnostics")
                    .and_then(Value::as_array)
                    .unwrap_or_default()
                {
                    eprintln!("{}", diagnostic_line(d));
                }
                let converted = report
                    .get("converted")
                    .cloned()
                    .unwrap_or(Value::Array(Vec::new()));
                let converted = json::to_string(&converted, json::WriteOptions::PLAIN)?;
                io::stdout()
                    .lock()
                    .write_all(api::events_serialize(&converted, "godex")?.as_bytes())?;
            }
            Ok(ExitCode::SUCCESS)
        }
        EventsCommand::Tool { spec } => {
            let parsed = json::parse(&api::events_parse_tool_spec(&spec)?)?;
            let text = |k: &str| {
                parsed
                    .get(k)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            if text("kind") == "web_search" {
                print(&json::to_string(
                    parsed.get("tool").unwrap_or(&Value::Null),
                    json::WriteOptions::PLAIN,
                )?)?;
            } else {
                let path = PathBuf::from(text("path"));
                let schema = std::fs::read_to_string(&path).map_err(|e| {
                    Error::new(
                        ErrorKind::Io,
                        format!("read tool schema {}: {e}", path.display()),
                    )
                })?;
                print(&api::events_function_tool(&text("name"), &schema)?)?;
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
