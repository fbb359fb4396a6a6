//! `agentwire gcf …`, `agentwire gcb …`, `agentwire convert`, `agentwire codecs`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use agentwire::codec::Registry;
use agentwire::gcf::v3::{self, Document, SpecVersion, StreamOptions, keyed::KeyedSet};
use agentwire::gcf::{self, DeltaPayload, Payload, v1};
use agentwire::json::{self, Map, ParseOptions, Value, WriteOptions};
use agentwire::{Error, ErrorKind, gcb};
use clap::Subcommand;

#[derive(Subcommand)]
pub enum GcfCommand {
    /// JSON → GCF text. Without --profile/--gcf-version: a graph payload (camelCase keys) as
    /// GCF v1.1. With --profile: GCF v3 (3.6.0 unless --gcf-version 3.5.3; 1.1 is graph only).
    Encode {
        /// `generic` (any JSON value) or `graph` (a payload); setting it selects GCF v3.
        #[arg(long)]
        profile: Option<Profile>,
        /// `3.6.0` (default for v3), `3.5.3` (the previous generic output, byte for byte; the
        /// graph profile is the same in both) or `1.1` (graph only).
        #[arg(long = "gcf-version")]
        gcf_version: Option<GcfVersion>,
        /// Graph, v3: streaming form (`## edges [?]` and the `##! summary` trailer).
        #[arg(long)]
        stream: bool,
        /// With --stream: the trailer's counts in the labeled form (`targets:2,edges:1`).
        #[arg(long)]
        labeled_counts: bool,
        /// Generic, 3.6.0: write an array of flat records grouped by this field (SPEC
        /// §7.4.8, value grouping); needs --key.
        #[arg(long, requires = "key")]
        group: Option<String>,
        /// With --group: the records' unique key field (the `@` column).
        #[arg(long, requires = "group")]
        key: Option<String>,
        /// Generic: never write what no decoder reads back (by default the output is
        /// byte-identical to the gcf crate 3.1.0, which can, in a corner of shared schemas).
        #[arg(long)]
        lossless: bool,
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
    /// v3 with --gcf-version 3.6.0 or 3.5.3: the graph delta is the same in both).
    EncodeDelta {
        /// `1.1` (default), `3.6.0` or `3.5.3`.
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

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GcfVersion {
    #[value(name = "3.6.0")]
    V3_6_0,
    #[value(name = "3.5.3")]
    V3_5_3,
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
    let mut out = crate::stdout();
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
            group: None,
            key: None,
            lossless: false,
            file,
        } => {
            let payload = payload_from_json(&crate::read_input(file.as_ref())?)?;
            write_out(v1::encode(&payload)?.as_bytes())
        }
        GcfCommand::Encode {
            profile,
            gcf_version,
            stream,
            labeled_counts,
            group,
            key,
            lossless,
            file,
        } => {
            let invalid = |message: &str| Err(Error::new(ErrorKind::InvalidArgument, message));
            let profile = profile.unwrap_or(Profile::Graph);
            if group.is_some() && !matches!(profile, Profile::Generic) {
                return invalid("--group needs --profile generic");
            }
            let out = match (profile, gcf_version) {
                (Profile::Generic, Some(GcfVersion::V1_1)) => {
                    return invalid("--profile generic exists only in GCF v3");
                }
                (Profile::Generic, version) => {
                    // SPEC §2.3.2: every number lexeme decides its own type.
                    let options = ParseOptions {
                        literal_numbers: true,
                        ..ParseOptions::default()
                    };
                    let value = json::parse_with(&crate::read_text(file.as_ref())?, &options)?;
                    match (group, key, version) {
                        (Some(_), _, Some(GcfVersion::V3_5_3)) => {
                            return invalid(
                                "--group is a GCF 3.6.0 form (not --gcf-version 3.5.3)",
                            );
                        }
                        (Some(group), Some(key), _) => {
                            v3::encode_generic_grouped(&value, &key, &group)?
                        }
                        (_, _, version) => {
                            let version = match version {
                                Some(GcfVersion::V3_5_3) => SpecVersion::V3_5_3,
                                _ => SpecVersion::V3_6_0,
                            };
                            let options = v3::EncodeOptions { version, lossless };
                            v3::encode_generic_with(&value, &options)?
                        }
                    }
                }
                (Profile::Graph, Some(GcfVersion::V1_1)) => {
                    if stream || labeled_counts {
                        return invalid("--stream and --labeled-counts need GCF v3");
                    }
                    v1::encode(&payload_from_json(&crate::read_input(file.as_ref())?)?)?
                }
                (Profile::Graph, _) => {
                    let payload = payload_from_json(&crate::read_input(file.as_ref())?)?;
                    if stream {
                        let options = StreamOptions { labeled_counts };
                        v3::graph::encode_stream(&payload, &options)?
                    } else {
                        v3::graph::encode(&payload)?
                    }
                }
            };
            write_out(out.as_bytes())
        }
        GcfCommand::Decode { envelope, file } => {
            let input = crate::read_input(file.as_ref())?;
            let (version, document) = gcf::decode_any(&input, &gcf::DecodeOptions::default())?;
            let profile = document.profile().as_str();
            let (kind, value) = match document {
                Document::Generic(value) => ("generic", value),
                Document::Graph(payload) => ("graph", payload.to_value()),
                Document::GraphDelta(delta) => ("graphDelta", delta.to_value()),
                Document::GenericDelta(delta) => ("genericDelta", delta.to_value()),
            };
            let value = if envelope {
                let mut map = Map::new();
                map.insert("version".into(), version.as_str().into());
                map.insert("profile".into(), profile.into());
                map.insert("kind".into(), kind.into());
                map.insert("value".into(), value);
                Value::Object(map)
            } else {
                eprintln!(
                    "gcf decode: GCF {} profile={profile} ({kind})",
                    version.as_str()
                );
                value
            };
            let text = json::to_string(&value, WriteOptions::PLAIN)?;
            write_out(format!("{text}\n").as_bytes())
        }
        GcfCommand::EncodeDelta { gcf_version, file } => {
            let input = crate::read_input(file.as_ref())?;
            let delta = DeltaPayload::from_value(&json::parse_bytes(&input, &Default::default())?)?;
            match gcf_version {
                Some(GcfVersion::V3_6_0 | GcfVersion::V3_5_3) => {
                    write_out(v3::graph::encode_delta(&delta)?.as_bytes())
                }
                _ => write_out(v1::encode_delta(&delta).as_bytes()),
            }
        }
        GcfCommand::PackRoot { profile, file } => {
            let input = crate::read_input(file.as_ref())?;
            let root = match profile.unwrap_or(Profile::Graph) {
                Profile::Graph => {
                    let snapshot = payload_from_json(&input)?;
                    v3::graph::pack_root(&snapshot.symbols, &snapshot.edges)?
                }
                Profile::Generic => {
                    let set = json::parse_bytes(&input, &Default::default())?;
                    v3::keyed::pack_root(&KeyedSet::from_value(&set)?)?
                }
            };
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
            write_json(&gcb::decode(&bytes, &Default::default())?.into_payload())
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
    let mut out = crate::stdout();
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
