//! `agentwire gcf …`, `agentwire gcb …`, `agentwire convert`, `agentwire codecs`.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use agentwire::gcf::{self, DeltaPayload, Payload};
use agentwire::json::{self, WriteOptions};
use agentwire::{gcb, Error, ErrorKind};
use agentwire_bindings::api;
use agentwire_bindings::shapes::gcf::codecs;
use agentwire_bindings::{FromValue, ToValue};
use clap::Subcommand;

#[derive(Subcommand)]
pub enum GcfCommand {
    /// JSON → GCF text. Without --profile/--gcf-version: a graph payload (camelCase keys) as
    /// GCF v1.1. With --profile: GCF 3.5.3 unless --gcf-version 1.1 (graph only).
    Encode {
        /// `generic` (any JSON value) or `graph` (a payload); setting it selects GCF 3.5.3.
        #[arg(long)]
        profile: Option<Profile>,
        /// `3.5.3` or `1.1` (graph only).
        #[arg(long = "gcf-version")]
        gcf_version: Option<GcfVersion>,
        /// Graph, 3.5.3: streaming form (`## edges [?]` and the `##! summary` trailer).
        #[arg(long)]
        stream: bool,
        /// With --stream: the trailer's counts in the labeled form (`targets:2,edges:1`).
        #[arg(long)]
        labeled_counts: bool,
        /// Input file (default: stdin).
        file: Option<PathBuf>,
    },
    /// GCF text of either version and profile → JSON (the payload or the value). The version
    /// and profile read go to stderr; --envelope prints `{version, profile, kind, value}`.
    Decode {
        /// Print `{"version", "profile", "kind", "value"}` instead of the value.
        #[arg(long)]
        envelope: bool,
        /// Input file (default: stdin).
        file: Option<PathBuf>,
    },
    /// Delta JSON (`baseRoot`, `newRoot`, `removed`, `added`, …) → GCF delta text (v1.1, or
    /// 3.5.3 with --gcf-version 3.5.3).
    EncodeDelta {
        /// `1.1` (default) or `3.5.3`.
        #[arg(long = "gcf-version")]
        gcf_version: Option<GcfVersion>,
        /// Input file (default: stdin).
        file: Option<PathBuf>,
    },
    /// The canonical `gcf-pack-root-v1` of a graph snapshot (`{symbols, edges}`) or, with
    /// --profile generic, of a keyed set (`{key, fields, rows}`).
    PackRoot {
        /// `graph` (default) or `generic`.
        #[arg(long)]
        profile: Option<Profile>,
        /// Input file (default: stdin).
        file: Option<PathBuf>,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Profile {
    Generic,
    Graph,
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum GcfVersion {
    #[value(name = "3.5.3")]
    V3,
    #[value(name = "1.1")]
    V1_1,
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
        GcfCommand::Encode {
            profile: None,
            gcf_version: None | Some(GcfVersion::V1_1),
            stream: false,
            labeled_counts: false,
            file,
        } => {
            let payload = payload_from_json(&crate::read_input(file.as_ref())?)?;
            write_out(gcf::v1::encode(&payload)?.as_bytes())
        }
        GcfCommand::Encode {
            profile,
            gcf_version,
            stream,
            labeled_counts,
            file,
        } => {
            let text = crate::read_text(file.as_ref())?;
            let out = match (profile.unwrap_or(Profile::Graph), gcf_version) {
                (Profile::Generic, Some(GcfVersion::V1_1)) => {
                    return Err(Error::new(
                        ErrorKind::InvalidArgument,
                        "--profile generic exists only in GCF 3.5.3",
                    ))
                }
                (Profile::Generic, _) => api::gcf_v3_encode_generic(&text, "")?,
                (Profile::Graph, version) => {
                    let version = match version {
                        Some(GcfVersion::V1_1) => "1.1",
                        _ => "3.5.3",
                    };
                    let options = format!(
                        r#"{{"version":"{version}","stream":{stream},"labeledCounts":{labeled_counts}}}"#
                    );
                    api::gcf_v3_encode_graph(&text, &options)?
                }
            };
            write_out(out.as_bytes())
        }
        GcfCommand::Decode { envelope, file } => {
            let document = api::gcf_v3_decode(&crate::read_input(file.as_ref())?, "")?;
            if envelope {
                return write_out(format!("{document}\n").as_bytes());
            }
            let value = json::parse(&document)?;
            let field = |key: &str| value.get(key).and_then(|v| v.as_str()).unwrap_or("");
            eprintln!(
                "gcf decode: GCF {} profile={} ({})",
                field("version"),
                field("profile"),
                field("kind")
            );
            let text = json::to_string(
                value.get("value").unwrap_or(&json::Value::Null),
                WriteOptions::PLAIN,
            )?;
            write_out(format!("{text}\n").as_bytes())
        }
        GcfCommand::EncodeDelta { gcf_version, file } => match gcf_version {
            Some(GcfVersion::V3) => {
                let text = crate::read_text(file.as_ref())?;
                write_out(api::gcf_v3_encode_graph_delta(&text)?.as_bytes())
            }
            _ => {
                let input = crate::read_input(file.as_ref())?;
                let value = json::parse_bytes(&input, &Default::default())?;
                write_out(gcf::v1::encode_delta(&DeltaPayload::from_value(&value)?).as_bytes())
            }
        },
        GcfCommand::PackRoot { profile, file } => {
            let text = crate::read_text(file.as_ref())?;
            let roots = match profile.unwrap_or(Profile::Graph) {
                Profile::Graph => api::gcf_v3_graph_pack_root(&text)?,
                Profile::Generic => api::gcf_v3_keyed_pack_root(&text)?,
            };
            let value = json::parse(&roots)?;
            let root = value.get("root").and_then(|v| v.as_str()).unwrap_or("");
            write_out(format!("{root}\n").as_bytes())
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
    let registry = codecs();
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
    for codec in codecs().list() {
        let aliases = if codec.aliases.is_empty() {
            String::new()
        } else {
            format!(" (alias {})", codec.aliases.join(", "))
        };
        writeln!(out, "{}{aliases}: {}", codec.name, codec.description)?;
    }
    Ok(ExitCode::SUCCESS)
}
