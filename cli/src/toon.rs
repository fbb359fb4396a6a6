//! `agentwire toon encode|decode`: TOON (spec 4.0) from and to JSON (`agentwire::toon`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use agentwire::json::{self, WriteOptions};
use agentwire::toon::{self, DecodeOptions, Delimiter, EncodeOptions, ExpandPaths, KeyFolding};
use agentwire::{Error, ErrorKind};
use clap::Subcommand;

#[derive(Subcommand)]
pub enum ToonCommand {
    /// Encode a JSON document as TOON (the text, then a newline).
    Encode {
        /// The delimiter of arrays and tables: comma (default), tab or pipe.
        #[arg(long, default_value = "comma")]
        delimiter: String,
        /// Spaces per indentation level (1 to 64).
        #[arg(long, default_value_t = 2)]
        indent: usize,
        /// Fold chains of single-key objects into dotted keys (`a.b.c: 1`); decode such text
        /// with --expand-paths.
        #[arg(long)]
        key_folding: bool,
        /// With --key-folding, the most keys folded along one path (default: no limit).
        #[arg(long)]
        flatten_depth: Option<usize>,
        /// The JSON document (default: stdin).
        file: Option<PathBuf>,
    },
    /// Decode TOON to minified JSON (then a newline).
    Decode {
        /// Spaces per indentation level (1 to 64).
        #[arg(long, default_value_t = 2)]
        indent: usize,
        /// Lenient decoding: no count, width, indentation or duplicate-key checks (the last
        /// duplicate wins).
        #[arg(long)]
        no_strict: bool,
        /// Split unquoted dotted keys into nested objects (what --key-folding wrote).
        #[arg(long)]
        expand_paths: bool,
        /// The TOON text (default: stdin).
        file: Option<PathBuf>,
    },
}

pub fn run(command: ToonCommand) -> Result<ExitCode, Error> {
    let text = match command {
        ToonCommand::Encode {
            delimiter,
            indent,
            key_folding,
            flatten_depth,
            file,
        } => {
            let delimiter = Delimiter::from_name(&delimiter).ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidArgument,
                    format!("--delimiter must be comma, tab or pipe, not {delimiter:?}"),
                )
            })?;
            let options = EncodeOptions {
                indent,
                delimiter,
                key_folding: if key_folding {
                    KeyFolding::Safe
                } else {
                    KeyFolding::Off
                },
                flatten_depth: flatten_depth.unwrap_or(usize::MAX),
            };
            let value = json::parse(&crate::read_text(file.as_ref())?)?;
            toon::encode(&value, &options)?
        }
        ToonCommand::Decode {
            indent,
            no_strict,
            expand_paths,
            file,
        } => {
            let options = DecodeOptions {
                indent,
                strict: !no_strict,
                expand_paths: if expand_paths {
                    ExpandPaths::Safe
                } else {
                    ExpandPaths::Off
                },
                ..DecodeOptions::default()
            };
            let value = toon::decode(&crate::read_text(file.as_ref())?, &options)?;
            json::to_string(&value, WriteOptions::PLAIN)?
        }
    };
    let mut out = crate::stdout();
    out.write_all(text.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
