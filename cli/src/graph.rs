//! `agentwire gcf …`, `agentwire gcb …`, `agentwire convert`, `agentwire codecs`.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use agentwire::codec::Registry;
use agentwire::gcf::{self, DeltaPayload, Payload};
use agentwire::json::{self, WriteOptions};
use agentwire::{gcb, Error, ErrorKind};
use clap::Subcommand;

#[derive(Subcommand)]
pub enum GcfCommand {
    /// Payload JSON (camelCase keys) → GCF v1.1 text.
    Encode {
        /// Input file (default: stdin).
        file: Option<PathBuf>,
    },
    /// GCF v1.1 text → payload JSON.
    Decode {
        /// Input file (default: stdin).
        file: Option<PathBuf>,
    },
    /// Delta JSON (`baseRoot`, `newRoot`, `removed`, `added`, …) → GCF delta text.
    EncodeDelta {
        /// Input file (default: stdin).
        file: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
pub enum GcbCommand {
    /// Payload JSON → GCB1 bytes on stdout (or hex with --hex).
    Encode {
        /// Write lowercase hex and a newline instead of raw bytes.
        #[arg(long)]
        hex: bool,
        /// Input file (default: stdin).
        file: Option<PathBuf>,
    },
    /// GCB1 bytes (or hex with --hex) → payload JSON.
    Decode {
        /// Read hex (whitespace ignored) instead of raw bytes.
        #[arg(long)]
        hex: bool,
        /// Input file (default: stdin).
        file: Option<PathBuf>,
    },
}

#[derive(clap::Args)]
pub struct ConvertArgs {
    /// Input codec: json, gcf or gcb.
    #[arg(long)]
    from: String,
    /// Output codec: json, gcf or gcb.
    #[arg(long)]
    to: String,
    /// Hex for binary input and output.
    #[arg(long)]
    hex: bool,
    /// Input file (default: stdin).
    file: Option<PathBuf>,
}

fn payload_from_json(bytes: &[u8]) -> Result<Payload, Error> {
    Payload::from_value(&json::parse_bytes(bytes, &Default::default())?)
}

fn write_json(payload: &Payload) -> Result<ExitCode, Error> {
    let text = json::to_string(&payload.to_value(), WriteOptions::PLAIN)?;
    write_out(format!("{text}\n").as_bytes())
}

fn write_out(bytes: &[u8]) -> Result<ExitCode, Error> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn to_hex(bytes: &[u8]) -> Vec<u8> {
    let mut text: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    text.push('\n');
    text.into_bytes()
}

fn from_hex(text: &[u8]) -> Result<Vec<u8>, Error> {
    let digits: Vec<u8> = text
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    let bad = || {
        Error::new(
            ErrorKind::InvalidArgument,
            "input is not an even number of hex digits",
        )
    };
    if !digits.len().is_multiple_of(2) {
        return Err(bad());
    }
    digits
        .chunks(2)
        .map(|pair| {
            let text = std::str::from_utf8(pair).map_err(|_| bad())?;
            u8::from_str_radix(text, 16).map_err(|_| bad())
        })
        .collect()
}

pub fn run_gcf(command: GcfCommand) -> Result<ExitCode, Error> {
    match command {
        GcfCommand::Encode { file } => {
            let payload = payload_from_json(&crate::read_input(file.as_ref())?)?;
            write_out(gcf::encode(&payload)?.as_bytes())
        }
        GcfCommand::Decode { file } => write_json(&gcf::decode(&crate::read_text(file.as_ref())?)?),
        GcfCommand::EncodeDelta { file } => {
            let value = json::parse_bytes(&crate::read_input(file.as_ref())?, &Default::default())?;
            write_out(gcf::encode_delta(&DeltaPayload::from_value(&value)?).as_bytes())
        }
    }
}

pub fn run_gcb(command: GcbCommand) -> Result<ExitCode, Error> {
    match command {
        GcbCommand::Encode { hex, file } => {
            let bytes = gcb::encode(&payload_from_json(&crate::read_input(file.as_ref())?)?);
            write_out(&if hex { to_hex(&bytes) } else { bytes })
        }
        GcbCommand::Decode { hex, file } => {
            let input = crate::read_input(file.as_ref())?;
            let bytes = if hex { from_hex(&input)? } else { input };
            write_json(&gcb::decode(&bytes)?)
        }
    }
}

pub fn convert(args: &ConvertArgs) -> Result<ExitCode, Error> {
    let registry = Registry::builtin();
    let from = registry.get(&args.from)?;
    let to = registry.get(&args.to)?;
    let input = crate::read_input(args.file.as_ref())?;
    let input = if args.hex && !from.text {
        from_hex(&input)?
    } else {
        input
    };
    let mut output = (to.encode)(&(from.decode)(&input)?)?;
    if args.hex && !to.text {
        output = to_hex(&output);
    } else if to.name == "json" {
        output.push(b'\n');
    }
    write_out(&output)
}

pub fn list_codecs() -> Result<ExitCode, Error> {
    let mut out = io::stdout().lock();
    for codec in Registry::builtin().list() {
        let aliases = if codec.aliases.is_empty() {
            String::new()
        } else {
            format!(" (alias {})", codec.aliases.join(", "))
        };
        writeln!(out, "{}{aliases}: {}", codec.name, codec.description)?;
    }
    Ok(ExitCode::SUCCESS)
}
